#!/bin/bash
# A recording killed with SIGKILL (issue 19, items 2 and 3): the events lost so far
# (ring full) were written at the last flush, so info, report and report
# --json say they were lost instead of "lost 0".
. "$(dirname "$0")/../lib.sh"
require_bpf
cd "$T_TMP" || exit 1
Q=$TOP/${BUILD:-build}/tests/trace_query
scratch_fs 256 ext4 -b 1024 -J size=1 || { fail scratch "cannot make a scratch ext4"; exit 1; }
M=$SCRATCH_MNT

# Item 3: the stacks and their symbols are stored at every flush, so a
# create storm on a 1 MiB journal, recorded for ~3 s and then SIGKILLed, has
# its waits' stacks, and the diagnosis names the journal, not "other".
mkdir "$M/s"
sync
"$FSLENS" record -m "$M" -o s.trace -- \
	setsid sh -c "echo \$\$ >$T_TMP/spid; cd $M/s && seq 1 25000 | xargs mkdir; exec sleep 30" 2>serr &
rpid=$!
# ~3 s of the storm once the probes are on (their loading took 1.3 to 2 s on a busy machine)
for _ in $(seq 1 200); do grep -q "recording" serr 2>/dev/null && break; sleep 0.1; done
sleep 3
kill -9 $rpid
wait $rpid 2>/dev/null
[ -s "$T_TMP/spid" ] && kill -9 -- "-$(cat "$T_TMP/spid")" 2>/dev/null
sleep 0.2
"$Q" s.trace stats >sst
check_grep storm_killed_incomplete '^complete=0 ' sst
"$Q" s.trace offcpu >soff
nwait=$(wc -l <soff)
check_ge storm_waits "$nwait" 1
# every wait's stack is in the trace, symbolized (in jbd2 for the log space)
check_cmd storm_stack_log_space grep -q '__jbd2_log_wait_for_space\|jbd2_log_do_checkpoint' soff
"$FSLENS" report --json s.trace >s.json 2>s.jerr
check_eq storm_report_json $? 0
read -r cls nostack < <(python3 -c '
import json, sys; d = json.load(open(sys.argv[1]))
c = d["causes"][0]["class"] if d["causes"] else "none"
print(c, d["trace"]["waits_without_stack"])' s.json 2>&1)
check_eq storm_top_cause "$cls" journal_log_space
check_eq storm_waits_without_stack "$nostack" 0
"$FSLENS" report s.trace >srep 2>/dev/null
check_cmd storm_no_unknown_stack_note sh -c '! grep -q "without a stored stack" srep'
rm -rf "$M/s"
sync

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
# with the cause record measured at its last flush (a 4K ring: either)
check_grep report_lost "\*\*\* $lost lost \(((the recorder's drain fell behind|bursts overflowed the ring); )?see TRACE\) \*\*\*" rep
exit 0
