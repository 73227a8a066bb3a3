#!/bin/bash
# Windows past the end of a trace, starting at its end or ending at its start
# say so (issue 19, item 14); top -b ends at
# the trace's end even when its metadata says otherwise (item 9); a closed
# pipe ends every reader quietly.
. "$(dirname "$0")/../lib.sh"
H=$PWD/${BUILD:-build}/tests/fsl_hostile
MK=$PWD/${BUILD:-build}/tests/fsl_mktrace
G=$PWD/tests/data/golden.trace		# 10.000 s from record.start_ns to record.end_ns
cd "$T_TMP" || exit 1

for c in "report" "report --json" "export --format csv --table ops" "export --format folded" \
	 "export --format perfetto"; do
	n=${c// /_}
	"$FSLENS" $c "$G" --from 100 --to 200 >out 2>err
	check_eq "$n.past.rc" $? 1
	check_eq "$n.past.msg" "$(cat err)" \
		"fslens ${c%% *}: --from 100.000 s is past the end of '$G', which is 10.000 s long"
	check_eq "$n.past.stdout" "$(wc -c <out)" 0
	# a window that starts at the very end, or ends at the very start, is as
	# empty as one past the end: the same one line, exit 1, nothing on stdout
	"$FSLENS" $c "$G" --from 10 >out 2>err
	check_eq "$n.at_end.rc" $? 1
	check_eq "$n.at_end.msg" "$(cat err)" \
		"fslens ${c%% *}: --from 10.000 s is at the end of '$G', which is 10.000 s long"
	check_eq "$n.at_end.stdout" "$(wc -c <out)" 0
	"$FSLENS" $c "$G" --to 0 >out 2>err
	check_eq "$n.to0.rc" $? 1
	check_eq "$n.to0.msg" "$(cat err)" \
		"fslens ${c%% *}: --to 0.000 s is at the start of '$G', which is 10.000 s long"
	check_eq "$n.to0.stdout" "$(wc -c <out)" 0
	# inside, or running past the end: a report of what is there
	"$FSLENS" $c "$G" --from 1 --to 200 >out 2>err
	check_eq "$n.clip.rc" $? 0
	"$FSLENS" $c "$G" --from 9.999 >out 2>err
	check_eq "$n.last_ms.rc" $? 0
done
"$FSLENS" export --format csv --table ops "$G" --from 99999 >out 2>err
check_eq export.99999.rc $? 1
check_grep export.99999.msg "^fslens export: --from 99999\.000 s is past the end" err
# the window still counts: 4 mkdirs in the golden trace, none after 5 s
check_eq report.window.ops "$("$FSLENS" report --json "$G" --to 5 | python3 -c '
import json, sys; d = json.load(sys.stdin); print(d["ops"]["types"]["mkdir"]["count"])' 2>&1)" 4

# events up to 1000 s, record.end_ns at 2 s: every event replayed, then the end
"$H" past.trace past
timeout 60 "$FSLENS" top -b --replay past.trace >top.out 2>top.err
check_eq past.top.rc $? 0
check_le past.top.frames "$(grep -c '^ fslens top' top.out)" 1001
check_ge past.top.frames_min "$(grep -c '^ fslens top' top.out)" 999
# record.end_ns far past the events: one warning, the last event ends it
"$H" far.trace geom record.end_ns=18000000000000000000
timeout 20 "$FSLENS" top -b --replay far.trace >top.out 2>top.err
check_eq far.top.rc $? 0
check_eq far.top.frames "$(grep -c '^ fslens top' top.out)" 1
check_eq far.top.warning "$(cat top.err)" "fslens top: warning: record.end_ns=18000000000000000000 is 17999999999 s past the last event: replaying to the last event"

# a closed pipe: every reader stops at once, says nothing, exits by SIGPIPE like git
"$MK" mix.trace mix 300000 10000
for c in "dump:mix" "dump --json:mix" "export --format csv --table io:mix" \
	 "export --format perfetto:mix" "top -b --replay:past"; do
	t=${c##*:}; c=${c%:*}; n=${c// /_}
	timeout 20 "$FSLENS" $c $t.trace 2>err | head -c 100 >/dev/null
	st=("${PIPESTATUS[@]}")
	check_eq "$n.pipe.rc" "${st[0]}" 141
	check_eq "$n.pipe.quiet" "$(cat err)" ""
done
exit 0
