#!/bin/bash
# A recording killed with SIGKILL (issue 19, item 2): the events lost so far
# (ring full) were written at the last flush, so info, report and report
# --json say they were lost instead of "lost 0".
. "$(dirname "$0")/../lib.sh"
require_bpf
cd "$T_TMP" || exit 1
Q=$TOP/${BUILD:-build}/tests/trace_query
scratch_fs 256 ext4 -b 1024 -J size=1 || { fail scratch "cannot make a scratch ext4"; exit 1; }
M=$SCRATCH_MNT

# a tiny ring under a mkdir storm loses events every second; the recorder dies mid-way
"$FSLENS" record -m "$M" --ring-size 4K -o k.trace -- \
	setsid sh -c "echo \$\$ >$T_TMP/wpid; cd $M && seq 1 30000 | xargs mkdir; exec sleep 30" 2>err &
rpid=$!
sleep 4
kill -9 $rpid
wait $rpid 2>/dev/null
# its command, orphaned: the whole process group it leads
[ -s "$T_TMP/wpid" ] && kill -9 -- "-$(cat "$T_TMP/wpid")" 2>/dev/null
sleep 0.2
"$Q" k.trace stats >st
check_grep killed_incomplete '^complete=0 ' st
lost=$(awk '/lost=/ { sub("lost=", "", $3); s += $3 } END { print s + 0 }' st)
check_ge killed_lost "$lost" 1
"$FSLENS" info k.trace >info 2>/dev/null
check_grep info_lost "^events: +[0-9]+, lost $lost\$" info
got=$("$FSLENS" report --json k.trace 2>/dev/null | python3 -c '
import json, sys; d = json.load(sys.stdin); print(d["trace"]["lost_total"])' 2>&1)
check_eq report_json_lost "$got" "$lost"
"$FSLENS" report k.trace >rep 2>/dev/null
check_grep report_lost "\*\*\* $lost lost \(see TRACE\) \*\*\*" rep
exit 0
