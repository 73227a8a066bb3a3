#!/bin/bash
# The flight recorder's other triggers, live, with two targets (each -m has
# its own recorder): one monitor with --trigger 'commit>150ms' and
# --trigger 'p99:write>40ms', a gap between phases longer than the rate
# limit:
#  1. commit: 300 MiB written to A with O_DIRECT (into the loop device's
#     backing page cache), then syncfs: the commit's cache flush makes the
#     loop worker write it all back, a commit of more than 150 ms. One
#     capture, of A only, whose journal has that commit.
#  2. a throttled device, p99: B's loop device throttled to 10 writes/s for
#     a cgroup (this machine's blkio controller is cgroup v1; the kernel has
#     no device mapper), 25 O_DIRECT writes from it: the p99 of write over
#     an interval is ~100 ms. One capture, of B only, whose report names
#     the stall: other_io among its causes, on B's device, waits of ~100 ms.
#  3. SIGUSR1: one capture of each target, each scoped to its own.
# fslens_flight_captures_total counts the four.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
[ -d /sys/fs/cgroup/blkio ] || { skip all "no cgroup v1 blkio controller"; exit 0; }
MPORT=$((20000 + $$ % 5000))
GAP=6

scratch_fs 1024 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
ALOOP=$SCRATCH_LOOP
second_fs b 256 || { fail setup "cannot make fs B"; exit 1; }
BLOOP=$SECOND_LOOP
B=$SECOND_MNT
mkdir -p "$T_TMP/cap"
CG=/sys/fs/cgroup/blkio/fsl_thr_$$
mkdir "$CG" || { fail setup "cannot make a blkio cgroup"; exit 1; }
at_exit "rmdir $CG"
BMM=$((0x$(stat -c %t "$BLOOP"))):$((0x$(stat -c %T "$BLOOP")))
echo "$BMM 10" >"$CG/blkio.throttle.write_iops_device" || { fail setup "throttle"; exit 1; }
sync

"$FSLENS" monitor -m "$A" -m "$B" --listen 127.0.0.1:$MPORT --interval 0.5 --flight 20 \
	--trigger 'commit>150ms' --trigger 'p99:write>40ms' --trigger-gap $GAP -o "$T_TMP/cap" \
	2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON; wait $MON"
wait_metrics $MPORT
ncap() { ls "$T_TMP"/cap/*.trace 2>/dev/null | wc -l; }
wait_caps() {	# wait_caps N: until N traces and their reports are written
	local i
	for i in $(seq 1 60); do
		[ "$(ncap)" -ge "$1" ] && [ "$(ls "$T_TMP"/cap/*.report.txt 2>/dev/null | wc -l)" -ge "$1" ] &&
			! pgrep -f "fslens report $T_TMP/cap" >/dev/null && break
		sleep 0.5
	done
	sleep 0.5
}
newest() { ls -t "$T_TMP"/cap/*"$1"*.trace | head -1; }
sleep 2
check_eq no-capture-at-start "$(ncap)" 0

# ---- 1. a long commit on A ----
dd if=/dev/zero of="$A/big" bs=1M count=300 oflag=direct 2>/dev/null
touch "$A/c"
sync -f "$A"
wait_caps 1
check_eq commit-one-capture "$(ncap)" 1
check_grep commit-logged "capture \(commit [0-9]+ took [0-9]+ ms on $A\)" "$T_TMP/mon.err"
t=$(newest "$(basename "$ALOOP")")
check_cmd commit-capture-is-as test -n "$t"
"$FSLENS" report --json "$t" >"$T_TMP/c.json" 2>/dev/null
check_cmd commit-in-capture python3 -c "
import json, sys; j = json.load(open('$T_TMP/c.json'))['journal']
print('    capture: %d commits, longest %d us' % (j['commits'], j['max_commit_us']), file=sys.stderr)
sys.exit(0 if j['max_commit_us'] >= 150000 else 1)"
"$FSLENS" info "$t" >"$T_TMP/c.info" 2>&1
check_grep commit-capture-target "mounted at $A" "$T_TMP/c.info"
t_last=$(date +%s)

# ---- 2. a throttled device, the p99 of write ----
while [ $(($(date +%s) - t_last)) -le $GAP ]; do sleep 0.5; done
sh -c "echo \$\$ >$CG/cgroup.procs && exec dd if=/dev/zero of=$B/dio bs=64k count=25 oflag=direct" \
	2>/dev/null
wait_caps 2
check_eq p99-one-capture "$(ncap)" 2
check_grep p99-logged "capture \(p99 of write on $B [0-9.]+ ms\)" "$T_TMP/mon.err"
t=$(newest "$(basename "$BLOOP")")
rep=${t%.trace}.report.txt
# ranked, with its device; a capture has no command, so every task's waits
# with no evidence of another filesystem count (machine noise, class other)
check_grep throttled-report-names-io '^  [0-9]  other_io ' "$rep"
check_grep throttled-report-device "$BMM " "$rep"
"$FSLENS" report --json "$t" >"$T_TMP/p.json" 2>/dev/null
check_cmd throttled-waits-100ms python3 -c "
import json, sys; c = json.load(open('$T_TMP/p.json'))['blocked']['classes']['other_io']
print('    throttled: other_io %.2f s in %d waits' % (c['workload_ns'] / 1e9, c['waits']), file=sys.stderr)
# the capture holds what came up to a second after the trigger: ~10 of the 25
sys.exit(0 if c['waits'] >= 5 and c['workload_ns'] / c['waits'] >= 80e6 else 1)"
grep -qE '^  [0-9]  other_io ' "$rep" || { grep capture "$T_TMP/mon.err" >&2; sed -n '/^DIAGNOSIS/,/^$/p' "$rep" | head -16 >&2; }
t_last=$(date +%s)

# ---- 3. SIGUSR1: every target ----
while [ $(($(date +%s) - t_last)) -le $GAP ]; do sleep 0.5; done
kill -USR1 $MON
wait_caps 4
check_eq sigusr1-two-captures "$(ncap)" 4
check_eq sigusr1-logged "$(grep -c 'capture (SIGUSR1)' "$T_TMP/mon.err")" 2
for l in "$ALOOP:$A" "$BLOOP:$B"; do
	t=$(newest "$(basename "${l%%:*}")")
	"$FSLENS" info "$t" >"$T_TMP/u.info" 2>&1
	check_grep "sigusr1-capture-$(basename "${l%%:*}")" "mounted at ${l#*:}" "$T_TMP/u.info"
done
curl -s "http://127.0.0.1:$MPORT/metrics" >"$T_TMP/m.txt"
check_grep captures-counted '^fslens_flight_captures_total\{result="ok"\} 4$' "$T_TMP/m.txt"
kill -TERM $MON
wait $MON
check_eq sigterm-exit "$?" 0
exit $((T_FAILS > 0))
