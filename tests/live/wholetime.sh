#!/bin/bash
# Whole time against the kernel's own account. A create storm (20,000 empty
# files in one directory on a scratch ext4, mostly CPU) run as a small
# program that reads its own /proc/self/schedstat before it exits: the
# recorded wall of its thread must hold its own clock and be at most 2%
# longer than that plus what schedstat counted before main (fork and exec,
# which the thread's life holds and main's clock does not: 25 ms on a busy
# machine), the parts must add to that wall exactly, on-CPU must be within
# 5% of schedstat's run time and runnable within 2% of the wall of its
# run-queue wait (plus the wait before main, whose part before the recorded
# command was started is not the recording's). A dd
# with O_DSYNC (mostly blocked on the journal and the device): its blocked
# time must equal a bpftrace tally of its own uninterruptible sleeps
# (switch-out to sched_waking) within 5%, and only a workload blocked less
# than half its wall gets the "mostly not blocked" line. Cut in three
# windows, its blocked time in each equals the tally's waits cut at the
# window's edges (whole time per window, from the tasktime snapshots).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
STORM=${TOP:-$PWD}/build/tests/create_storm
[ -x "$STORM" ] || { skip all "build/tests/create_storm not built"; exit 0; }

# report --json -> "wall oncpu runq blocked sleep threads" of whole_time
whole() {
	"$FSLENS" report --json "$1" | python3 -c '
import json, sys
w = json.load(sys.stdin).get("whole_time")
if not w:
    print("none"); sys.exit(0)
print(w["wall_ns"], w["oncpu_ns"], w["runnable_ns"], w["blocked_ns"], w["sleep_ns"], w["threads"])'
}
# within NAME GOT WANT TOL_NS: |GOT - WANT| <= TOL_NS, both sides printed
within() {
	local d=$(($2 - $3))
	[ $d -lt 0 ] && d=$((-d))
	if [ $d -le "$4" ]; then
		pass "$1"
	else
		fail "$1" "fslens $2 ns, truth $3 ns, off by $d ns (> $4)"
	fi
}
# between NAME GOT LO HI: LO <= GOT <= HI
between() {
	if [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		pass "$1"
	else
		fail "$1" "fslens $2 ns, truth between $3 and $4 ns"
	fi
}

scratch_fs 1024 ext4 -N 65536 || { fail setup "cannot make a scratch ext4"; exit 1; }
mkdir "$SCRATCH_MNT/d" "$SCRATCH_MNT/warm"
# its own clock starts at main: a binary read from disk at exec would be
# blocked time before it (133 ms seen once), so its pages are read first
"$STORM" "$SCRATCH_MNT/warm" 1 "$T_TMP/warm" || fail storm-warm "create_storm does not run"
"$FSLENS" record -m "$SCRATCH_MNT" -o "$T_TMP/storm.trace" -- \
	"$STORM" "$SCRATCH_MNT/d" 20000 "$T_TMP/truth" >"$T_TMP/rec.out" 2>&1 ||
	fail storm-record "$(tail -3 "$T_TMP/rec.out")"
read -r t_wall t_run t_wait t_run0 t_wait0 <"$T_TMP/truth"
read -r wall oncpu runq blocked sleep threads <<<"$(whole "$T_TMP/storm.trace")"
echo "# storm truth: wall $t_wall run $t_run runq-wait $t_wait, before main run $t_run0 runq-wait $t_wait0 (own clock, /proc/self/schedstat)"
echo "# storm fslens: wall $wall oncpu $oncpu runq $runq blocked $blocked sleep $sleep threads $threads"
if [ "$wall" = none ]; then
	fail storm-whole-time "no whole_time in the report"
else
	check_eq storm-threads "$threads" 1
	check_eq storm-parts-add-to-wall $((oncpu + runq + blocked + sleep)) "$wall"
	between storm-wall-2pct "$wall" $((t_wall - t_wall / 200)) $((t_wall + t_run0 + t_wait0 + t_wall / 50))
	within storm-oncpu-5pct "$oncpu" "$t_run" $((t_run / 20))
	within storm-runnable-2pct-of-wall "$runq" "$t_wait" $((t_wall / 50 + t_wait0))
	"$FSLENS" report "$T_TMP/storm.trace" >"$T_TMP/storm.txt"
	check_grep storm-text-lead "whole time: wall .* over 1 thread: on-CPU" "$T_TMP/storm.txt"
	# the program's own account: not on a CPU and not waiting for one
	if [ $((t_wall - t_run - t_wait)) -lt $((t_wall / 2)) ]; then
		check_grep storm-says-not-blocked "mostly not blocked" "$T_TMP/storm.txt"
	fi
fi

command -v bpftrace >/dev/null || { skip dsync "bpftrace not installed"; exit $((T_FAILS > 0)); }
cat >"$T_TMP/blk.bt" <<'BT'
tracepoint:sched:sched_switch
/args->prev_comm == "dd" && args->prev_state == 2/
{ @ts[args->prev_pid] = nsecs; }
tracepoint:sched:sched_waking
/@ts[args->pid]/
{ @blocked = sum(nsecs - @ts[args->pid]); printf("W %lld %lld\n", @ts[args->pid], nsecs);
  delete(@ts[args->pid]); }
END { clear(@ts); }
BT
bpftrace "$T_TMP/blk.bt" >"$T_TMP/blk.out" 2>"$T_TMP/blk.err" &
BT_PID=$!
at_exit "kill $BT_PID 2>/dev/null"
for _ in $(seq 1 100); do
	grep -q Attaching "$T_TMP/blk.out" "$T_TMP/blk.err" 2>/dev/null && break
	sleep 0.1
done
"$FSLENS" record -m "$SCRATCH_MNT" -o "$T_TMP/dd.trace" -- \
	dd if=/dev/zero of="$SCRATCH_MNT/dsync" bs=4k count=1500 oflag=dsync \
	>"$T_TMP/rec2.out" 2>&1 || fail dsync-record "$(tail -3 "$T_TMP/rec2.out")"
kill -INT $BT_PID
for _ in $(seq 1 300); do kill -0 $BT_PID 2>/dev/null || break; sleep 0.1; done
kill -KILL $BT_PID 2>/dev/null
wait $BT_PID 2>/dev/null
t_blocked=$(sed -n 's/^@blocked: \([0-9]*\)$/\1/p' "$T_TMP/blk.out")
read -r wall oncpu runq blocked sleep threads <<<"$(whole "$T_TMP/dd.trace")"
echo "# dsync truth: blocked ${t_blocked:-?} (bpftrace: D switch-out to sched_waking)"
echo "# dsync fslens: wall $wall oncpu $oncpu runq $runq blocked $blocked sleep $sleep threads $threads"
if [ -z "$t_blocked" ] || [ "$wall" = none ]; then
	fail dsync-tally "no bpftrace tally ($(head -c 200 "$T_TMP/blk.err")) or no whole_time"
else
	check_eq dsync-parts-add-to-wall $((oncpu + runq + blocked + sleep)) "$wall"
	within dsync-blocked-5pct "$blocked" "$t_blocked" $((t_blocked / 20))
	"$FSLENS" report "$T_TMP/dd.trace" >"$T_TMP/dd.txt"
	if [ $((t_blocked * 2)) -gt "$wall" ]; then
		if grep -q "mostly not blocked" "$T_TMP/dd.txt"; then
			fail dsync-blocked-first "a mostly blocked dd is said not blocked: $(grep -A1 'whole time' "$T_TMP/dd.txt")"
		else
			pass dsync-blocked-first
		fi
		check_grep dsync-cause-ranked "^  1  [a-z_]+ " "$T_TMP/dd.txt"
	else
		skip dsync-blocked-first "dd was blocked only ${t_blocked} of ${wall} ns here"
	fi
	# Per window (report --from --to): the blocked time inside each third
	# of the run equals the tally's waits cut at the window's edges, within
	# 5% or 12 ms (the snapshot period is 10 ms at each edge), and the
	# thirds add up to the whole.
	dur=$("$FSLENS" report --json "$T_TMP/dd.trace" | python3 -c '
import json, sys; t = json.load(sys.stdin)["trace"]; print((t["end_ns"] - t["start_ns"]) / 1e9)')
	sum=0
	for k in 0 1 2; do
		from=$(python3 -c "print($dur * $k / 3)")
		to=$(python3 -c "print($dur * ($k + 1) / 3)")
		"$FSLENS" report --json --from "$from" --to "$to" "$T_TMP/dd.trace" >"$T_TMP/w$k.json"
		read -r got want <<<"$(python3 - "$T_TMP/w$k.json" "$T_TMP/blk.out" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
a, b = r["window"]["t0_ns"], r["window"]["t1_ns"]
want = 0
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) == 3 and f[0] == "W":
        s, e = int(f[1]), int(f[2])
        want += max(0, min(e, b) - max(s, a))
w = r.get("whole_time") or {}
print(w.get("blocked_ns", -1), want)
PYEOF
)"
		echo "# dsync window $k [$from, $to) s: fslens blocked $got, tally $want"
		tol=$((want / 20))
		[ $tol -lt 12000000 ] && tol=12000000
		within "dsync-window$k-blocked" "$got" "$want" $tol
		sum=$((sum + got))
	done
	within dsync-windows-add-up "$sum" "$blocked" 2000000
fi
exit $((T_FAILS > 0))
