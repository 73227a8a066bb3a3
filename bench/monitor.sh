#!/bin/bash
# Benchmark of fslens monitor (issue #18), in bench/record.sh's style.
# 1. Overhead: createmany N (files created in one directory + sync) on a
#    fresh 4K ext4, interleaved: untraced; under `fslens monitor` (in-kernel
#    aggregates only); under `fslens monitor --flight 30`; under `fslens
#    record`; under `perf record -a` of the tracepoints record uses; under
#    `fslens monitor --bench-floor` (the same programs returning at once:
#    the floor of the tracepoints themselves). The order turns each round.
#    Median of RUNS; each round's ratio to its untraced run and their median;
#    ratios of the workload's wall and CPU time to untraced, and
#    the monitor process's own CPU as a share of one core during the run.
# 2. CPU and memory at rest and under load: the monitor's CPU share of one
#    core over LOAD seconds idle, then over LOAD seconds of bench/fsops_load
#    (2 processes of stat + open/close on the target, paced to RATE calls a
#    second, default 100000), and its RSS; without and with --flight 30.
#    The bounds (issue 18): 1% idle, 3% at 100k operations/s, 64 MiB.
# 3. Soak: SOAK seconds of a create/delete loop under `fslens monitor
#    --flight 30`, after a minute idle; every minute the monitor's RSS and
#    its CPU share of one core over that minute, and the loop's op rate.
# Pinning as bench/record.sh: workload on the last CPU, tracers elsewhere.
#   bench/monitor.sh [N=300000] [RUNS=3] [SOAK=600]   (RUNS=0: no overhead runs)
#   LOAD=60 RATE=100000 (LOAD=0: no load section)
set -u
cd "$(dirname "$0")/.."
N=${1:-300000}
RUNS=${2:-3}
SOAK=${3:-${SOAK:-600}}
BUILD=${BUILD:-build}
FSLENS=$PWD/$BUILD/fslens
PORT=$((30000 + $$ % 5000))
[ "$(id -u)" -eq 0 ] || { echo "bench/monitor.sh: needs root (loop devices, BPF)"; exit 1; }
[ -x "$FSLENS" ] || { echo "bench/monitor.sh: build first (make)"; exit 1; }
. bench/createmany.inc
bench_scratch monitor
MON=
bench_on_exit='[ -n "$MON" ] && kill $MON 2>/dev/null && wait $MON 2>/dev/null'
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing

ncpu=$(nproc)
if [ "$ncpu" -ge 2 ]; then
	WL=(taskset -c $((ncpu - 1))); REC=(taskset -c 0-$((ncpu - 2)))
else
	WL=(); REC=()
fi
PERF_EV=()
for tp in block:block_rq_issue block:block_rq_complete block:block_rq_insert \
	  jbd2:jbd2_start_commit jbd2:jbd2_end_commit jbd2:jbd2_run_stats jbd2:jbd2_handle_start \
	  jbd2:jbd2_checkpoint ext4:ext4_journal_start_inode ext4:ext4_journal_start_sb \
	  writeback:writeback_single_inode writeback:balance_dirty_pages \
	  raw_syscalls:sys_enter raw_syscalls:sys_exit sched:sched_switch sched:sched_waking; do
	[ -d /sys/kernel/tracing/events/${tp%%:*}/${tp#*:} ] && PERF_EV+=(-e "$tp")
done

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }	# utime + stime, clock ticks
HZ_U=$(getconf CLK_TCK)

start_monitor() {	# extra args
	"${REC[@]}" "$FSLENS" monitor -m "$W/mnt" --listen 127.0.0.1:$PORT --interval 1 "$@" \
		-o "$W" 2>>"$W/mon.err" &
	MON=$!
	for _ in $(seq 1 80); do
		curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null && return 0
		sleep 0.25
	done
	echo "bench/monitor.sh: the monitor did not start:"; cat "$W/mon.err"; exit 1
}
stop_monitor() { kill -TERM "$MON"; wait "$MON"; MON=; }

fresh_fs() { bench_fresh_fs 4G $((N + N / 4 + 1000)); }

overhead() {
for v in none mon flight floor rec perf; do : >"$W/t.$v"; done
: >"$W/c.mon"; : >"$W/c.flight"; : >"$W/c.floor"
echo "createmany: $N files, $RUNS runs of each, interleaved; $ncpu CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
# one variant's run on a fresh filesystem
one() {
	fresh_fs
	case $1 in
	none) "${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" >>"$W/t.none" || exit 1 ;;
	mon|flight|floor)
		case $1 in
		flight) start_monitor --flight 30 ;;
		floor) start_monitor --bench-floor ;;
		*) start_monitor ;;
		esac
		k0=$(ticks "$MON"); s0=$(date +%s.%N)
		"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" >>"$W/t.$1" || exit 1
		k1=$(ticks "$MON"); s1=$(date +%s.%N)
		echo "($k1 - $k0) / $HZ_U / ($s1 - $s0)" | bc -l >>"$W/c.$1"
		stop_monitor ;;
	rec)
		"${REC[@]}" "$FSLENS" record -m "$W/mnt" -f -o "$W/f.trace" -- \
			"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" >>"$W/t.rec" 2>"$W/f.err" ||
			{ cat "$W/f.err"; exit 1; }
		rm -f "$W/f.trace" ;;
	perf)
		"${REC[@]}" perf record -q -a "${PERF_EV[@]}" -o "$W/perf.data" -- \
			"${WL[@]}" "$W/createmany" "$W/mnt/d" "$N" >>"$W/t.perf" 2>"$W/p.err" ||
			{ cat "$W/p.err"; exit 1; }
		rm -f "$W/perf.data" ;;
	esac
}
# The order turns by one each round, so no variant always follows the same
# one (with a fixed order the floor, always run right after the flight
# recorder, measured 1.099 against the monitor's 1.061 in one bench).
order=(none mon floor flight rec perf)
for r in $(seq 1 "$RUNS"); do
	for i in $(seq 0 5); do
		one "${order[$(((i + r - 1) % 6))]}"
	done
	printf '  run %d (wall/cpu s): untraced %s, monitor %s, monitor+flight %s, monitor floor %s, record %s, perf %s\n' \
		"$r" "$(tail -1 "$W/t.none" | tr ' ' /)" "$(tail -1 "$W/t.mon" | tr ' ' /)" \
		"$(tail -1 "$W/t.flight" | tr ' ' /)" "$(tail -1 "$W/t.floor" | tr ' ' /)" \
		"$(tail -1 "$W/t.rec" | tr ' ' /)" \
		"$(tail -1 "$W/t.perf" | tr ' ' /)"
done
col() { cut -d' ' -f"$1" "$2" | median; }
w0=$(col 1 "$W/t.none"); c0=$(col 2 "$W/t.none")
echo
printf '%-22s median wall %.3f s  cpu %.3f s  (%.0f files/s)\n' untraced "$w0" "$c0" \
	"$(echo "$N / $w0" | bc -l)"
for v in mon flight floor rec perf; do
	w=$(col 1 "$W/t.$v"); c=$(col 2 "$W/t.$v")
	case $v in mon) name="fslens monitor" ;; flight) name="monitor --flight 30" ;;
		   floor) name="monitor floor" ;;
		   rec) name="fslens record" ;; perf) name="perf record -a" ;; esac
	printf '%-22s median wall %.3f s  cpu %.3f s  ratio wall %.3f cpu %.3f' "$name" "$w" "$c" \
		"$(echo "$w / $w0" | bc -l)" "$(echo "$c / $c0" | bc -l)"
	[ -s "$W/c.$v" ] && printf '  monitor process %.2f%% of a core' \
		"$(echo "$(median <"$W/c.$v") * 100" | bc -l)"
	echo
done
# each round's ratio against that round's untraced run, the median of those:
# less moved by the machine drifting over the rounds than a ratio of medians
paired() { paste -d' ' "$W/t.none" "$W/t.$1" | awk -v k="$2" '{ print $(2 + k) / $k }' | median; }
for v in mon flight floor rec perf; do
	printf '%-22s paired ratio (median of the rounds) wall %.3f cpu %.3f\n' "$v" \
		"$(paired $v 1)" "$(paired $v 2)"
done
# the programs' own share: the monitor against the same tracepoints with
# programs that return at once (the rest is the tracepoints' dispatch)
printf '%-22s ratio wall %.3f cpu %.3f against its floor\n' "fslens monitor" \
	"$(echo "$(col 1 "$W/t.mon") / $(col 1 "$W/t.floor")" | bc -l)" \
	"$(echo "$(col 2 "$W/t.mon") / $(col 2 "$W/t.floor")" | bc -l)"
}
[ "$RUNS" -gt 0 ] && overhead

# ---- CPU and memory, idle and at RATE operations a second ----
LOAD=${LOAD:-60}
RATE=${RATE:-100000}
rss() { awk '/^VmRSS/ { print $2 / 1024 }' "/proc/$MON/status"; }
pct() { echo "($2 - $1) / $HZ_U / $3 * 100" | bc -l; }	# ticks0 ticks1 seconds
load_cpu() {
	fresh_fs
	${CC:-gcc} -O2 -o "$W/fsops_load" bench/fsops_load.c || exit 1
	mkdir -p "$W/mnt/ld"
	echo
	echo "monitor CPU (share of one core) and RSS: ${LOAD} s idle, ${LOAD} s at $RATE stat+open/s"
	for v in mon flight; do
		if [ $v = flight ]; then start_monitor --flight 30; else start_monitor; fi
		sleep 5
		k0=$(ticks "$MON"); sleep "$LOAD"; k1=$(ticks "$MON")
		# not pinned: the two load processes need both CPUs for 100k/s
		got=$("$W/fsops_load" "$W/mnt/ld" "$RATE" "$LOAD" 2 | awk '{ print $2 }')
		k2=$(ticks "$MON")
		printf '  %-22s idle %.2f%%  load %.2f%% at %s ops/s  RSS %.1f MiB\n' \
			"$([ $v = flight ] && echo "monitor --flight 30" || echo "fslens monitor")" \
			"$(pct "$k0" "$k1" "$LOAD")" "$(pct "$k1" "$k2" "$LOAD")" "$got" "$(rss)"
		stop_monitor
	done
}
[ "$LOAD" -gt 0 ] && load_cpu

# ---- soak ----
[ "$SOAK" -gt 0 ] || exit 0
fresh_fs
start_monitor --flight 30
echo
echo "soak: $SOAK s of create/delete (1000 files a round) under monitor --flight 30, after 60 s idle"
k0=$(ticks "$MON")
sleep 60
k1=$(ticks "$MON")
printf '  idle    rss %6.1f MiB  monitor cpu %.2f%% of a core\n' "$(rss)" \
	"$(echo "($k1 - $k0) / $HZ_U / 60 * 100" | bc -l)"
cat >"$W/loop.sh" <<EOF
i=0
while :; do
	"$W/createmany" "$W/mnt/d/r" 1000 >/dev/null 2>&1 || mkdir -p "$W/mnt/d/r"
	rm -rf "$W/mnt/d/r"; mkdir "$W/mnt/d/r"
	i=\$((i + 1)); echo \$i >"$W/rounds"
done
EOF
mkdir -p "$W/mnt/d/r"
"${WL[@]}" bash "$W/loop.sh" &
LOOPPID=$!
bench_on_exit="kill $LOOPPID 2>/dev/null; wait $LOOPPID 2>/dev/null; $bench_on_exit"
t=0
while [ $t -lt "$SOAK" ]; do
	step=$(( SOAK - t < 60 ? SOAK - t : 60 ))
	k0=$(ticks "$MON"); r0=$(cat "$W/rounds" 2>/dev/null || echo 0)
	sleep "$step"
	t=$((t + step))
	k1=$(ticks "$MON"); r1=$(cat "$W/rounds" 2>/dev/null || echo 0)
	printf '  %4d s  rss %6.1f MiB  monitor cpu %.2f%% of a core  %.0f creates/s\n' "$t" "$(rss)" \
		"$(echo "($k1 - $k0) / $HZ_U / $step * 100" | bc -l)" \
		"$(echo "($r1 - $r0) * 1000 / $step" | bc -l)"
done
kill $LOOPPID; wait $LOOPPID 2>/dev/null
curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^fslens_lost_events_total|^fslens_op_latency_seconds_count' |
	sed 's/^/  /'
stop_monitor
