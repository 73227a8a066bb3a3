#!/bin/bash
# Signals to record with a command (issue 19, item 4): the first is passed on
# as it came (INT stays INT), the second says what record waits for, the
# third stops the recording and leaves a command that ignores them running.
. "$(dirname "$0")/../lib.sh"
require_bpf
cd "$T_TMP" || exit 1
Q=$TOP/${BUILD:-build}/tests/trace_query

# a command that says which signal it got, then ends: record ends with it
"$FSLENS" record -e proc -o int.trace -- sh -c 'trap "echo GOT INT >&2; exit 5" INT; trap "echo GOT TERM >&2; exit 6" TERM; echo $$ >pid1; while :; do sleep 0.1; done' 2>err1 &
rpid=$!
for i in $(seq 100); do [ -s pid1 ] && break; sleep 0.1; done
sleep 0.5
kill -INT $rpid
wait $rpid
check_eq int_rc $? 5
check_eq int_passed_on "$(grep -c 'GOT INT' err1)" 1
check_eq int_not_term "$(grep -c 'GOT TERM' err1)" 0
"$Q" int.trace stats >st1
check_grep int_complete '^complete=1 ' st1

# a command that ignores INT and TERM: 2nd signal says so, 3rd leaves it running
"$FSLENS" record -e proc -o ign.trace -- sh -c 'trap "" INT TERM; echo $$ >pid2; while :; do sleep 0.1; done' 2>err2 &
rpid=$!
for i in $(seq 100); do [ -s pid2 ] && break; sleep 0.1; done
wpid=$(cat pid2)
at_exit "kill -9 $wpid"
sleep 0.5
kill -INT $rpid; sleep 0.5
kill -INT $rpid; sleep 0.5
check_eq ign_still_recording "$(kill -0 $rpid 2>/dev/null && echo yes)" yes
kill -INT $rpid
wait $rpid
check_eq ign_rc $? 130
check_grep ign_second "^fslens record: waiting for the command \(pid $wpid\) to end; a third signal stops the recording and leaves it running$" err2
check_grep ign_third "^fslens record: stopping the recording; the command \(pid $wpid\) is left running$" err2
check_eq ign_workload_alive "$(kill -0 "$wpid" 2>/dev/null && echo yes)" yes
"$Q" ign.trace stats >st2
check_grep ign_complete '^complete=1 ' st2
kill -9 "$wpid" 2>/dev/null
exit 0
