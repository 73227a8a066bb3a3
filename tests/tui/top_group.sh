#!/bin/bash
# Rows grouped by program (key p): tests/helpers/top_trace.c's "manyrm" trace,
# one second of 30 short-lived rm processes (each 3 unlinks and a 4 ms wait
# for log space, then gone) beside sync (pid 1004) waiting 300 ms for a
# commit. Grouped, the 30 are one row (PROCS 30, their rates added); by the
# default sort (BLKms) the sync that carries the stall stays on top, in both
# views, not under thirty rm rows.
. tests/lib.sh
. tests/tui/tmux.bash

TRACE=$T_TMP/t.trace
"$BUILD/tests/top_trace" "$TRACE" 1 1 manyrm || { fail gen "top_trace failed"; exit 1; }

rows() {	# the screen's table rows, after its header
	tm_screen s | sed -n '/^ *\(PID\|PROCS\) COMM /,$p' | sed 1d | grep -E '^ +[0-9]+ '
}

tm_start s 100 40 -- top --replay "$TRACE" --speed 50 -a
if ! tm_wait s '\[END\]' 10; then
	fail end "no [END] marker: $(tm_screen s | head -5)"
	exit 1
fi
# one row per process: sync first, then mkdir and tar, then the rm's
check_grep procs-sync-first '^ +1004 sync +300 +0 +0\.00 +300 ' <(rows | head -1)
check_eq procs-rm-rows "$(rows | grep -c ' rm ')" 30
check_grep procs-rm-each '^ +30[0-9][0-9] rm +4 +3 +0\.20 +4 ' <(rows | grep ' rm ' | head -1)

tm_keys s p
if tm_wait s 'PROCS COMM' 3; then
	check_grep progs-tab '1:progs' <(tm_screen s)
	# one row for the thirty, their blocked time and calls added up
	check_eq progs-rm-rows "$(rows | grep -c ' rm ')" 1
	check_grep progs-rm-row '^ +30 rm +120 +90 +0\.20 +120 ' <(rows | grep ' rm ')
	# the stall is not hidden below them: sync still first, the group second
	check_grep progs-sync-first '^ +1 sync +300 +0 +0\.00 +300 ' <(rows | head -1)
	check_grep progs-rm-second ' rm ' <(rows | sed -n 2p)
	check_eq progs-rows "$(rows | wc -l)" 5
else
	fail grouped "no PROCS header: $(tm_screen s | sed -n 4,8p)"
fi
# p again: one row per process
tm_keys s p
tm_wait s '    PID COMM' 3
check_eq procs-again-rm-rows "$(rows | grep -c ' rm ')" 30
tm_keys s q
tm_check_restored s quit-q
exit 0
