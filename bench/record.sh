#!/bin/bash
# Benchmark of fslens record's cost (issue #3): createmany-style, N files
# created in one directory + sync on a fresh 4K ext4 image; untraced vs
# `fslens record` (all families) vs its floor (`--bench-floor`: the same
# programs attached, returning at once: what the tracepoints' dispatch costs
# before any program does work) vs `perf record -a` of the same tracepoints;
# runs interleaved, median of RUNS. Prints the overhead ratios
# (traced/untraced) of the workload's wall time and of its CPU time (user +
# system of the creating process, where the probes' in-kernel cost lands;
# steadier than wall time on a busy machine), the recorder's own CPU per
# event, events, lost and bytes per event.
#
# Noise control (this VM's run-to-run spread was +-10% without it): every
# run gets the same filesystem (bench/createmany.inc: fixed UUID and
# directory hash seed, so the same htree layout), and with 2+ CPUs the workload is pinned to the last
# CPU and the recorder (fslens or perf) to the others, in all three variants
# alike, so the workload neither migrates nor shares its CPU with the
# recorder.
#   bench/record.sh [N=300000] [RUNS=5]
set -u
cd "$(dirname "$0")/.."
N=${1:-300000}
RUNS=${2:-5}
BUILD=${BUILD:-build}
FSLENS=$PWD/$BUILD/fslens
[ "$(id -u)" -eq 0 ] || { echo "bench/record.sh: needs root (loop devices, BPF)"; exit 1; }
[ -x "$FSLENS" ] || { echo "bench/record.sh: build first (make)"; exit 1; }
"$FSLENS" record --help 2>&1 | grep -q -- --min-wait ||
	{ echo "bench/record.sh: fslens built without BPF"; exit 1; }
. bench/createmany.inc
bench_scratch bench
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
mkdir -p "$W/mnt"

# The tracepoints fslens attaches, for perf to record the same ones.
TPS="block:block_rq_insert block:block_rq_issue block:block_rq_complete block:block_rq_merge
jbd2:jbd2_start_commit jbd2:jbd2_commit_locking jbd2:jbd2_commit_flushing jbd2:jbd2_commit_logging
jbd2:jbd2_end_commit jbd2:jbd2_run_stats jbd2:jbd2_handle_start jbd2:jbd2_handle_stats
jbd2:jbd2_checkpoint jbd2:jbd2_checkpoint_stats jbd2:jbd2_lock_buffer_stall jbd2:jbd2_update_log_tail
ext4:ext4_journal_start_inode ext4:ext4_journal_start_sb
writeback:writeback_start writeback:writeback_written writeback:writeback_single_inode_start
writeback:writeback_single_inode writeback:writeback_dirty_inode writeback:balance_dirty_pages
writeback:global_dirty_state
ext4:ext4_request_blocks ext4:ext4_allocate_blocks ext4:ext4_mballoc_alloc ext4:ext4_mballoc_prealloc
ext4:ext4_mb_new_inode_pa ext4:ext4_mb_new_group_pa ext4:ext4_mb_release_inode_pa
ext4:ext4_mb_release_group_pa ext4:ext4_free_blocks ext4:ext4_mballoc_free ext4:ext4_mballoc_discard
ext4:ext4_request_inode ext4:ext4_allocate_inode ext4:ext4_free_inode ext4:ext4_ext_map_blocks_exit
ext4:ext4_writepages ext4:ext4_da_write_folios_start ext4:ext4_da_write_folios_end
ext4:ext4_da_write_pages_extent ext4:ext4_mb_bitmap_load ext4:ext4_mb_buddy_bitmap_load
ext4:ext4_read_block_bitmap_load ext4:ext4_load_inode ext4:ext4_sync_file_enter ext4:ext4_sync_file_exit
ext4:ext4_unlink_enter ext4:ext4_unlink_exit
raw_syscalls:sys_enter raw_syscalls:sys_exit sched:sched_switch sched:sched_waking
sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit"
PERF_EV=()
for tp in $TPS; do
	[ -d /sys/kernel/tracing/events/${tp%%:*}/${tp#*:} ] && PERF_EV+=(-e "$tp")
done

ncpu=$(nproc)
if [ "$ncpu" -ge 2 ]; then
	WL=(taskset -c $((ncpu - 1)))
	REC=(taskset -c 0-$((ncpu - 2)))
else
	WL=(); REC=()
fi

fresh_fs() { bench_fresh_fs 4G $((N + N / 4 + 1000)); }

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

: >"$W/t.none"; : >"$W/t.fslens"; : >"$W/t.perf"; : >"$W/c.fslens"; : >"$W/t.floor"
echo "createmany: $N files, $RUNS runs of each, interleaved; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)${WL[*]:+; workload on CPU $((ncpu - 1)), recorders on the others}"
for r in $(seq 1 "$RUNS"); do
	fresh_fs
	"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" >>"$W/t.none" || exit 1

	fresh_fs
	/usr/bin/time -f "%U %S" -o "$W/f.time" \
		"${REC[@]}" "$FSLENS" record -m "$W/mnt" -f -o "$W/f.trace" -- \
		"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" \
		>>"$W/t.fslens" 2>"$W/f.err" || { cat "$W/f.err"; exit 1; }
	# the recorder's own CPU: its total with children minus the workload's
	echo "$(cat "$W/f.time") $(tail -1 "$W/t.fslens" | cut -d' ' -f2)" |
		awk '{ print $1 + $2 - $3 }' >>"$W/c.fslens"
	cp "$W/f.err" "$W/f.err.last"

	fresh_fs
	"${REC[@]}" "$FSLENS" record --bench-floor -m "$W/mnt" -f -o "$W/fl.trace" -- \
		"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" \
		>>"$W/t.floor" 2>"$W/fl.err" || { cat "$W/fl.err"; exit 1; }

	fresh_fs
	"${REC[@]}" perf record -q -a "${PERF_EV[@]}" -o "$W/perf.data" -- \
		"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" >>"$W/t.perf" 2>"$W/p.err" ||
		{ cat "$W/p.err"; exit 1; }
	psize=$(stat -c %s "$W/perf.data")
	psamples=$(perf report -i "$W/perf.data" --stats 2>/dev/null |
		   awk '/SAMPLE events:/ { print $3; exit }')
	rm -f "$W/perf.data"
	printf '  run %d (wall/cpu s): untraced %s, fslens %s, floor %s, perf %s\n' "$r" \
		"$(tail -1 "$W/t.none" | tr ' ' /)" "$(tail -1 "$W/t.fslens" | tr ' ' /)" \
		"$(tail -1 "$W/t.floor" | tr ' ' /)" "$(tail -1 "$W/t.perf" | tr ' ' /)"
done

col() { cut -d' ' -f"$1" "$2" | median; }
m0=$(col 1 "$W/t.none"); m1=$(col 1 "$W/t.fslens"); m2=$(col 1 "$W/t.perf")
c0=$(col 2 "$W/t.none"); c1=$(col 2 "$W/t.fslens"); c2=$(col 2 "$W/t.perf")
m3=$(col 1 "$W/t.floor"); c3=$(col 2 "$W/t.floor")
rc=$(median <"$W/c.fslens")
ev=$(sed -n 's/.* s, \([0-9]*\) events, .*/\1/p' "$W/f.err.last")
fbytes=$(stat -c %s "$W/f.trace")
lost=$(awk '$1 ~ /^(block|journal|writeback|alloc|dirops|offcpu|proc)$/ { s += $3 } END { print s + 0 }' "$W/f.err.last")
echo
printf 'untraced       median wall %.3f s  cpu %.3f s\n' "$m0" "$c0"
printf 'fslens record  median wall %.3f s  cpu %.3f s  ratio wall %.3f cpu %.3f\n' \
	"$m1" "$c1" "$(echo "$m1 / $m0" | bc -l)" "$(echo "$c1 / $c0" | bc -l)"
printf '               workload cpu per file: %.2f us untraced, +%.2f us recorded\n' \
	"$(echo "$c0 * 1000000 / $N" | bc -l)" "$(echo "($c1 - $c0) * 1000000 / $N" | bc -l)"
printf '               events %s  lost %s  %.1f bytes/event (%s bytes)  recorder cpu %.2f s (%.2f us/event)\n' \
	"$ev" "$lost" "$(echo "$fbytes / $ev" | bc -l)" "$fbytes" "$rc" "$(echo "$rc * 1000000 / $ev" | bc -l)"
printf 'fslens floor   median wall %.3f s  cpu %.3f s  ratio wall %.3f cpu %.3f\n' \
	"$m3" "$c3" "$(echo "$m3 / $m0" | bc -l)" "$(echo "$c3 / $c0" | bc -l)"
printf '               fslens against its floor: wall %.3f cpu %.3f\n' \
	"$(echo "$m1 / $m3" | bc -l)" "$(echo "$c1 / $c3" | bc -l)"
printf 'perf record -a median wall %.3f s  cpu %.3f s  ratio wall %.3f cpu %.3f\n' \
	"$m2" "$c2" "$(echo "$m2 / $m0" | bc -l)" "$(echo "$c2 / $c0" | bc -l)"
printf '               samples %s  %.1f bytes/sample (%s bytes, last run)\n' "${psamples:-?}" \
	"$(echo "${psize:-0} / ${psamples:-1}" | bc -l)" "${psize:-0}"
echo "fslens summary of the last run:"
sed 's/^/  /' "$W/f.err.last"
