#!/bin/bash
# fslens monitor's operation families without --cgroup-label (the per-CPU
# array path, probes/monitor.bpf.c ops_add), two targets and a third
# filesystem that is not one, against the workloads' own counts and a
# bpftrace tally of the same calls:
#  A: 500 mkdir (xargs), dd of 100 x 64 KiB writes to a file, dd reading it
#     back in 16 KiB reads; B: createmany 2000; C (the test's own directory,
#     not a target): dd of 200 writes and createmany 300.
# Checks: per target and op the count equals the workload's (dd's records,
# plus its end-of-file read), data bytes equal dd's, C's calls reach no
# series, and A's write latency sum equals bpftrace's sys_enter/exit_write
# tally of the same dd within 10%.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip all "no bpftrace"; exit 0; }
MPORT=$((20000 + $$ % 5000))

scratch_fs 256 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
second_fs b 256 || { fail setup "cannot make fs B"; exit 1; }
B=$SECOND_MNT
mkdir -p "$T_TMP/c"
mkdir "$A/d" "$B/f" "$T_TMP/c/f"
${CC:-gcc} -O2 -o "$T_TMP/createmany" "$TOP/bench/record_createmany.c" || { fail setup "cc"; exit 1; }
cp "$(command -v dd)" "$T_TMP/fsl_ddA"	# its own name, for the tally
sync

"$FSLENS" monitor -m "$A" -m "$B" --listen 127.0.0.1:$MPORT --interval 0.5 2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON; wait $MON"
wait_metrics $MPORT
bt_start "$T_TMP/bt.out" '
tracepoint:syscalls:sys_enter_write /comm == "fsl_ddA" && args->fd == 1/ { @s[tid] = nsecs; }
tracepoint:syscalls:sys_exit_write /@s[tid]/ {
	@n = count(); @ns = sum(nsecs - @s[tid]); @bytes = sum(args->ret); delete(@s[tid]);
}'
sleep 1
(cd "$A/d" && seq 1 500 | xargs mkdir)
"$T_TMP/fsl_ddA" if=/dev/zero of="$A/w" bs=64k count=100 2>"$T_TMP/ddA.err"
dd if="$A/w" of=/dev/null bs=16k 2>"$T_TMP/ddR.err"
"$T_TMP/createmany" "$B/f" 2000 >/dev/null
dd if=/dev/zero of="$T_TMP/c/w" bs=4k count=200 2>/dev/null
"$T_TMP/createmany" "$T_TMP/c/f" 300 >/dev/null
sleep 1.5	# two of the monitor's reads
kill -INT $BT
wait $BT
curl -s "http://127.0.0.1:$MPORT/metrics" >"$T_TMP/m.txt"
check_cmd promtool-check-metrics sh -c "! command -v promtool >/dev/null || promtool check metrics <$T_TMP/m.txt"

val() {	# val METRIC LABELS: the sample's value, 0 if none
	awk -v want="$1{$2}" '$1 == want { print $2; f = 1 } END { if (!f) print 0 }' "$T_TMP/m.txt"
}
records() { sed -n "s/^\([0-9]*\)+0 records $2$/\1/p" "$1"; }
FA="fs=\"$A\""
FB="fs=\"$B\""
check_eq a-mkdir-count "$(val fslens_op_latency_seconds_count "$FA,op=\"mkdir\"")" 500
check_eq a-write-count "$(val fslens_op_latency_seconds_count "$FA,op=\"write\"")" \
	"$(records "$T_TMP/ddA.err" out)"
# every read dd made of the file, and the one that found its end
check_eq a-read-count "$(val fslens_op_latency_seconds_count "$FA,op=\"read\"")" \
	"$(($(records "$T_TMP/ddR.err" in) + 1))"
check_eq a-write-bytes "$(val fslens_data_bytes_total "$FA,op=\"write\"")" $((100 * 65536))
check_eq a-read-bytes "$(val fslens_data_bytes_total "$FA,op=\"read\"")" $((100 * 65536))
check_eq a-create-count "$(val fslens_op_latency_seconds_count "$FA,op=\"create\"")" 1
check_eq a-open-count "$(val fslens_op_latency_seconds_count "$FA,op=\"open\"")" 1
check_eq b-create-count "$(val fslens_op_latency_seconds_count "$FB,op=\"create\"")" 2000
check_eq b-write-count "$(val fslens_op_latency_seconds_count "$FB,op=\"write\"")" 0
check_eq a-no-createmany "$(val fslens_op_latency_seconds_count "$FA,op=\"create\"")" 1
check_eq no-fs-c "$(grep -c "fs=\"$T_TMP/c\"" "$T_TMP/m.txt")" 0
# the buckets add up to the count
check_eq a-mkdir-inf-bucket \
	"$(val fslens_op_latency_seconds_bucket "$FA,op=\"mkdir\",le=\"+Inf\"")" 500

btn=$(sed -n 's/^@n: //p' "$T_TMP/bt.out")
btns=$(sed -n 's/^@ns: //p' "$T_TMP/bt.out")
btb=$(sed -n 's/^@bytes: //p' "$T_TMP/bt.out")
check_eq tally-write-count "$btn" 100
check_eq tally-write-bytes "$btb" $((100 * 65536))
ms=$(val fslens_op_latency_seconds_sum "$FA,op=\"write\"")
check_cmd write-seconds-vs-tally python3 -c "
import sys; m, t = float('$ms'), ${btns:-0} / 1e9
print('    write latency sum: monitor %.6f s, bpftrace %.6f s' % (m, t), file=sys.stderr)
sys.exit(0 if t > 0 and abs(m - t) <= 0.10 * t else 1)"

kill -TERM $MON
wait $MON
check_eq monitor-sigterm-exit "$?" 0
exit $((T_FAILS > 0))
