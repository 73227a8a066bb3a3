#!/bin/bash
# The flight recorder: a 1 MiB-journal create storm (N mkdir in one
# directory, 1K blocks) under `fslens monitor --flight`, with a wait
# trigger. The trigger must write one trace (rate limit: one per gap) whose
# report, written beside it, names journal log space first; the capture is
# counted in fslens_flight_captures_total; POST /trigger writes another
# once the gap has passed; the trace reads back with `fslens info`.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
N=${MONITOR_MKDIRS:-20000}
MPORT=$((25000 + $$ % 5000))

scratch_fs 256 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
mkdir "$SCRATCH_MNT/d" "$T_TMP/cap"
sync

"$FSLENS" monitor -m "$SCRATCH_MNT" --listen 127.0.0.1:$MPORT --interval 1 --flight 30 \
	--trigger 'wait>2ms' --trigger-gap 12 -o "$T_TMP/cap" 2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON; wait $MON"
wait_metrics $MPORT
(cd "$SCRATCH_MNT/d" && seq 1 "$N" | xargs mkdir)
for _ in $(seq 1 40); do
	ls "$T_TMP"/cap/*.trace >/dev/null 2>&1 && break
	sleep 0.5
done
t_cap=$(date +%s)
supp() { curl -s "http://127.0.0.1:$MPORT/metrics" |
	awk '/^fslens_flight_triggers_suppressed_total / { print $2 }'; }
# within the gap: one more trigger is counted, not captured
s0=$(supp)
kill -USR1 $MON
sleep 2.5	# a published interval later; a capture would have been written by now
s1=$(supp)
check_cmd sigusr1-suppressed test "${s1:-0}" -gt "${s0:-0}"
check_eq one-capture "$(ls "$T_TMP"/cap/*.trace 2>/dev/null | wc -l)" 1
trace=$(ls "$T_TMP"/cap/*.trace | head -1)
rep=${trace%.trace}.report.txt
for _ in $(seq 1 40); do
	grep -q '^DIAGNOSIS' "$rep" 2>/dev/null && break
	sleep 0.5
done
sleep 1	# the report child finishes writing
check_grep capture-logged 'capture \(wait of [0-9]+ ms' "$T_TMP/mon.err"
check_grep report-names-log-space '^  1  journal_log_space ' "$rep"
grep -q '^  1  journal_log_space ' "$rep" || sed -n '/^DIAGNOSIS/,/^$/p' "$rep" | head -12 >&2
"$FSLENS" info "$trace" >"$T_TMP/info.txt" 2>&1
check_eq capture-readable "$?" 0
check_grep capture-target "mounted at $SCRATCH_MNT" "$T_TMP/info.txt"
curl -s "http://127.0.0.1:$MPORT/metrics" >"$T_TMP/m1.txt"
check_grep captures-counted '^fslens_flight_captures_total\{result="ok"\} 1$' "$T_TMP/m1.txt"

# past the gap (12 s from the first trigger): POST /trigger captures
while [ $(($(date +%s) - t_cap)) -le 12 ]; do sleep 0.5; done
check_eq post-trigger "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
	"http://127.0.0.1:$MPORT/trigger")" 202
for _ in $(seq 1 20); do
	[ "$(ls "$T_TMP"/cap/*.trace | wc -l)" -ge 2 ] && break
	sleep 0.5
done
check_eq post-capture "$(ls "$T_TMP"/cap/*.trace | wc -l)" 2
# the trace's file appears when its writing starts; the line, when it ends
for _ in $(seq 1 20); do
	grep -q 'capture (POST /trigger)' "$T_TMP/mon.err" && break
	sleep 0.5
done
check_grep post-logged 'capture \(POST /trigger\)' "$T_TMP/mon.err"
check_eq get-trigger-404 "$(curl -s -o /dev/null -w '%{http_code}' \
	"http://127.0.0.1:$MPORT/nothing")" 404
kill -TERM $MON
wait $MON
check_eq sigterm-exit "$?" 0
exit $((T_FAILS > 0))
