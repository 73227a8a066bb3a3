#!/bin/bash
# The scenario workloads alone (fslens demo --run-workload) on a scratch ext4,
# checked against the filesystem itself: entries created (find), stats done,
# files copied byte for byte (cmp), phase lines well formed and in order.
. "$TOP/tests/lib.sh"
require_root
export TMPDIR=$T_TMP

# phases_ok NAME FILE "run:phase run:phase ...": those phases in that order,
# each with start < end and the next starting after the previous ended
phases_ok() {
	local got
	got=$(awk '$1 == "phase" { printf "%s%s:%s", sep, $2, $3; sep = " " }' "$2")
	check_eq "$1-phase-order" "$got" "$3"
	got=$(awk '$1 == "phase" { if ($4 >= $5 || $4 < prev) bad++; prev = $5 } END { print bad + 0 }' "$2")
	check_eq "$1-phase-times" "$got" 0
}
phase_field() {	# FILE RUN NAME FIELD(ops|bytes|secs)
	awk -v r="$2" -v n="$3" -v f="$4" '$1 == "phase" && $2 == r && $3 == n {
		if (f == "ops") print $6; else if (f == "bytes") print $7;
		else printf "%.0f\n", ($5 - $4) / 1e6 }' "$1"
}
wl() {	# SCENARIO PHASES [args...]
	local sc=$1 ph=$2; shift 2
	"$FSLENS" demo --run-workload "$sc" --dir "$SCRATCH_MNT" --phases "$ph" --scale small "$@"
}

# ---- htree: n dirs, a file in each, stat of all 2n entries
scratch_fs 256 ext4 -b 1024 -J size=1
wl htree "$T_TMP/h.phases" --set n=1500 >"$T_TMP/h.log" 2>&1
check_eq htree-exit $? 0
phases_ok htree "$T_TMP/h.phases" "1:mkdir 1:create 1:stat"
check_eq htree-dirs "$(find "$SCRATCH_MNT/htree" -mindepth 1 -maxdepth 1 -type d | wc -l)" 1500
check_eq htree-files "$(find "$SCRATCH_MNT/htree" -mindepth 2 -type f -name f | wc -l)" 1500
check_eq htree-stat-ops "$(phase_field "$T_TMP/h.phases" 1 stat ops)" \
	"$(find "$SCRATCH_MNT/htree" -mindepth 1 | wc -l)"
check_eq htree-param-recorded "$(grep -c '^param n=1500$' "$T_TMP/h.phases")" 1
check_grep htree-table "^stat +\| +[0-9.]+ +3000 " "$T_TMP/h.log"
# a second run in the same place fails cleanly (the directories exist)
wl htree "$T_TMP/h2.phases" --set n=10 >"$T_TMP/h2.log" 2>&1
check_eq htree-rerun-exit $? 1
check_grep htree-rerun-message "mkdir '.*/htree/d0000000': File exists" "$T_TMP/h2.log"
scratch_umount
check_cmd htree-fsck e2fsck -fn "$SCRATCH_IMG"
losetup -d "$SCRATCH_LOOP"

# ---- createmany: n creates, rate samples, lookups of every name, all unlinked;
# with drop_caches the lookups read the directory from the device
T2=$T_TMP/c; mkdir -p "$T2"; T_TMP=$T2 scratch_fs 512 ext4 -N 40000
dev=$(basename "$SCRATCH_LOOP")
r0=$(awk '{print $1}' /sys/block/$dev/stat)
wl createmany "$T_TMP/c.phases" --set n=20000 --set drop_caches=1 --set tick_ms=20 \
	>"$T_TMP/c.log" 2>&1
check_eq createmany-exit $? 0
r1=$(awk '{print $1}' /sys/block/$dev/stat)
phases_ok createmany "$T_TMP/c.phases" "1:create 1:lookup 1:unlink"
for p in create lookup unlink; do
	check_eq "createmany-$p-ops" "$(phase_field "$T_TMP/c.phases" 1 $p ops)" 20000
done
check_eq createmany-empty "$(ls -A "$SCRATCH_MNT/many" | wc -l)" 0
ticks=$(awk '$1 == "tick" && $3 == "create"' "$T_TMP/c.phases" | wc -l)
check_ge createmany-ticks "$ticks" 3
check_eq createmany-ticks-monotonic "$(awk '$1 == "tick" && $3 == "create" {
	if ($4 < t || $5 < o) bad++; t = $4; o = $5 } END { print bad + 0 }' "$T_TMP/c.phases")" 0
check_eq createmany-last-tick "$(awk '$1 == "tick" && $3 == "create" { o = $5 } END { print o }' \
	"$T_TMP/c.phases")" 20000
check_ge createmany-cold-reads $((r1 - r0)) 10
wl createmany "$T_TMP/c2.phases" --set n=3000 --set mode=create --set lookups=0 >/dev/null 2>&1
check_eq createmany-create-mode-exit $? 0
phases_ok createmany-create-mode "$T_TMP/c2.phases" "1:create 1:unlink"

# ---- bonnie, two runs on the same filesystem: 2 x 6 phases, n files each,
# sizes within [min, max], nothing left
wl bonnie "$T_TMP/b.phases" --set n=1200 --set dirs=7 --set min=100 --set max=3000 --set runs=2 \
	>"$T_TMP/b.log" 2>&1
check_eq bonnie-exit $? 0
order=""
for r in 1 2; do for p in seq_create seq_read seq_delete rand_create rand_read rand_delete; do
	order="$order${order:+ }$r:$p"; done; done
phases_ok bonnie "$T_TMP/b.phases" "$order"
check_eq bonnie-ops "$(awk '$1 == "phase" && $6 != 1200' "$T_TMP/b.phases" | wc -l)" 0
bytes=$(phase_field "$T_TMP/b.phases" 1 seq_create bytes)
check_ge bonnie-bytes-min "$bytes" $((1200 * 100))
check_le bonnie-bytes-max "$bytes" $((1200 * 3000))
# the read phases read every file's data through (bonnie++'s read)
check_eq bonnie-seq-read-bytes "$(phase_field "$T_TMP/b.phases" 1 seq_read bytes)" "$bytes"
check_eq bonnie-rand-read-bytes "$(phase_field "$T_TMP/b.phases" 1 rand_read bytes)" \
	"$(phase_field "$T_TMP/b.phases" 1 rand_create bytes)"
check_eq bonnie-dirs "$(find "$SCRATCH_MNT/bonnie" -mindepth 1 -type d | wc -l)" 7
check_eq bonnie-empty "$(find "$SCRATCH_MNT/bonnie" -type f | wc -l)" 0
check_grep bonnie-side-by-side "run 1 .*run 2" "$T_TMP/b.log"

# ---- dbench: clients x seconds, throughput counted
wl dbench "$T_TMP/d.phases" --set clients=3 --set seconds=2 >"$T_TMP/d.log" 2>&1
check_eq dbench-exit $? 0
phases_ok dbench "$T_TMP/d.phases" "1:run"
ms=$(phase_field "$T_TMP/d.phases" 1 run secs)
check_ge dbench-duration "$ms" 2000
check_le dbench-duration-bounded "$ms" 6000
check_ge dbench-ops "$(phase_field "$T_TMP/d.phases" 1 run ops)" 100
check_ge dbench-bytes "$(phase_field "$T_TMP/d.phases" 1 run bytes)" 1000000
check_eq dbench-clients "$(ls "$SCRATCH_MNT/dbench" | tr '\n' ' ')" "c000 c001 c002 "
# real=1: Debian's dbench with its NetBench load file, throughput parsed
if [ -x /usr/bin/dbench ] && [ -r /usr/share/dbench/client.txt ]; then
	wl dbench "$T_TMP/dr.phases" --set real=1 --set clients=2 --set seconds=2 >"$T_TMP/dr.log" 2>&1
	check_eq dbench-real-exit $? 0
	check_ge dbench-real-bytes "$(phase_field "$T_TMP/dr.phases" 1 run bytes)" 1
else
	skip dbench-real "Debian's dbench is not installed (apt-get install dbench)"
fi
scratch_umount
check_cmd dbench-fsck e2fsck -fn "$SCRATCH_IMG"
losetup -d "$SCRATCH_LOOP"

# ---- copytree: the copy equals the source, byte for byte
T3=$T_TMP/t; mkdir -p "$T3"; T_TMP=$T3 scratch_fs 512 ext4
wl copytree "$T_TMP/t.phases" --set files=150 --set dirs=6 --set large=10 --set large_max=2M \
	--set src="$T_TMP/src" >"$T_TMP/t.log" 2>&1
check_eq copytree-exit $? 0
phases_ok copytree "$T_TMP/t.phases" "1:copy 1:sync"
check_eq copytree-files "$(find "$SCRATCH_MNT/copy" -type f | wc -l)" 150
check_eq copytree-large "$(find "$SCRATCH_MNT/copy" -type f -size +64k | wc -l)" 15
check_cmd copytree-identical diff -r -x .fslens-src "$T_TMP/src" "$SCRATCH_MNT/copy"
check_eq copytree-bytes "$(phase_field "$T_TMP/t.phases" 1 copy bytes)" \
	"$(find "$T_TMP/src" -type f -name 'file*' -printf '%s\n' | awk '{s += $1} END {print s}')"
# the same parameters give the same tree (deterministic)
sum1=$(cd "$T_TMP/src" && find . -type f -name 'file*' | sort | xargs md5sum | md5sum)
rm -rf "$T_TMP/src2"
wl copytree "$T_TMP/t2.phases" --set files=150 --set dirs=6 --set large=10 --set large_max=2M \
	--set src="$T_TMP/src2" >/dev/null 2>&1 || true
sum2=$(cd "$T_TMP/src2" && find . -type f -name 'file*' | sort | xargs md5sum | md5sum)
check_eq copytree-deterministic "$sum2" "$sum1"
exit $((T_FAILS > 0))
