#!/bin/bash
# demo bonnie --runs 2 (seed 001: bonnie++'s sequential read halved on the
# second run on an aged filesystem): the bonnie workload, two runs on one
# scratch ext4, recorded while an independent capture of the block
# tracepoints runs (bpftrace: blktrace's relay files are refused in this VM,
# EPERM), written in blktrace's format for btt. The comparison of run 2
# against run 1 gives each read phase's read seeks; they must equal btt's
# over the phase's dispatches (btt -s on the capture cut at the phase's
# bounds, led by the dispatch before it): dispatches and seeks exactly, mean
# distance within 0.5%. The direction the comparison gives for the sequential
# read (run 2 reading farther apart or not) is btt's, and it is in the
# mechanisms when it moved. The read phases read the files' data (bytes > 0).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
for tool in bpftrace blkparse btt; do
	command -v $tool >/dev/null || { fail tools "$tool not installed"; exit 1; }
done
W="${TOP:-$PWD}/tests/helpers/blktrace_write.py"
scratch_fs 256 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
cd "$T_TMP" || exit 1
DEV=$(( $(printf %d 0x$(stat -c %t "$SCRATCH_LOOP")) << 20 | $(printf %d 0x$(stat -c %T "$SCRATCH_LOOP")) ))
cat >cap.bt <<'BT'
tracepoint:block:block_rq_issue
/args->dev == $1 && args->nr_sector > 0/
{ printf("D %llu %u %llu %u %s\n", nsecs, cpu, args->sector, args->nr_sector, args->rwbs); }
tracepoint:block:block_rq_complete
/args->dev == $1 && args->nr_sector > 0/
{ printf("C %llu %u %llu %u %s\n", nsecs, cpu, args->sector, args->nr_sector, args->rwbs); }
BT
bpftrace cap.bt "$DEV" >cap.txt 2>cap.err &
BT=$!
at_exit "kill -INT $BT 2>/dev/null"
for _ in $(seq 1 100); do grep -q Attaching cap.txt cap.err 2>/dev/null && break; sleep 0.1; done
"$FSLENS" record -m "$M" -o b.trace -- "$FSLENS" demo --run-workload bonnie --dir "$M" \
	--phases b.phases --scale small --set runs=2 >rec.out 2>rec.err
check_eq record_exit $? 0
kill -INT $BT
for _ in $(seq 1 100); do kill -0 $BT 2>/dev/null || break; sleep 0.1; done
"$FSLENS" compare --json b.trace >c.json 2>c.err
check_eq compare_exit $? 0

n=0
declare -A mean
while read -r run name t0 t1 nbytes; do
	python3 - "$run" "$name" <<'PY' >fsl.txt
import json, sys
run, name = int(sys.argv[1]), sys.argv[2]
c = json.load(open("c.json"))
rs = [r for r in c["rows"] if r["phase"] == name][0]["cells"][run - 1]["read_seeks"]
print(rs["dispatches"], rs["seeks"], rs["seek_mean_sectors"])
PY
	read -r disp seeks m <fsl.txt
	rm -f w.blktrace.* w.bin seek_*
	lead=$(python3 "$W" "$DEV" w cap.txt "$t0" "$t1")
	blkparse -i w -d w.bin >/dev/null 2>&1
	btt -i w.bin -s seek >/dev/null 2>&1
	# the lead dispatch's own line (its distance from sector 0) is not the phase's
	first=$(head -1 seek_*_d2d_c.dat 2>/dev/null | awk '{ print $1 }')
	read -r bd bs bm < <(awk -v lead="$lead" -v first="$first" '
		lead == "lead" && !dropped && $1 == first { dropped = 1; next }
		{ n++; if ($2 != 0) s++; t += ($2 < 0 ? -$2 : $2) }
		END { printf "%d %d %.3f\n", n, s, n ? t / n : 0 }' seek_*_d2d_r.dat 2>/dev/null)
	echo "# $name run $run: fslens $disp dispatches, $seeks seeks, mean $m; btt $bd, $bs, $bm" >&2
	check_cmd "${name}_run${run}_reads_data" test "$nbytes" -gt 0
	check_eq "${name}_run${run}_dispatches_vs_btt" "$disp" "$bd"
	check_eq "${name}_run${run}_seeks_vs_btt" "$seeks" "$bs"
	check_cmd "${name}_run${run}_mean_vs_btt" python3 -c \
		"import sys; sys.exit(abs($m - $bm) > 0.005 * max($bm, 1))"
	mean[$name.$run]=$bm
	n=$((n + 1))
done < <(awk '$1 == "phase" && $3 ~ /read$/ { print $2, $3, $4, $5, $7 }' b.phases)
check_eq read_phases "$n" 4
# the direction the comparison tells for the sequential read is btt's
want=$(python3 -c "print('farther' if ${mean[seq_read.2]:-0} > ${mean[seq_read.1]:-0} else 'nearer')")
read -r got listed < <(python3 -c '
import json
c = json.load(open("c.json"))
r = [r for r in c["rows"] if r["phase"] == "seq_read"][0]["cells"]
a, b = r[0]["read_seeks"]["seek_mean_sectors"], r[1]["read_seeks"]["seek_mean_sectors"]
d = [x for x in c["differences"] if x["phase"] == "seq_read"][0]
m = {x["name"]: x for x in d["mechanisms"]}.get("read_seek_mean_sectors")
moved = abs(b - a) >= 8 and abs(b - a) >= 0.05 * max(a, b)
print("farther" if b > a else "nearer", "yes" if bool(m) == moved else "no")')
check_eq seq_read_direction_vs_btt "$got" "$want"
check_eq seq_read_mechanism_listed_when_moved "$listed" yes
exit $((T_FAILS > 0))
