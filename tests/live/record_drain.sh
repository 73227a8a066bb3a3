#!/bin/bash
# The recorder's drain under a create/unlink storm (issue 19, item 6): every
# event the probes produce is kept or counted lost, exactly, and when the
# drain is starved the advice names that cause, not the ring. The truth is
# the storm's own count: 4 processes, each create (open O_CREAT) and unlink
# is one dirops record, plus the 4 mkdirs of their directories (static: no
# loader; dirops follow only the command's processes; the fstat of the
# parent's printf is of its stdout, a file of another filesystem: the
# kernel leaves it out).
. "$(dirname "$0")/../lib.sh"
require_bpf
cd "$T_TMP" || exit 1
scratch_fs 256 ext4 || { fail scratch "cannot make a scratch ext4"; exit 1; }
M=$SCRATCH_MNT
${CC:-gcc} -O2 -static -x c -o storm "$TOP/bench/drain_storm.inc" ||
	{ skip storm_build "no static libc to build the storm"; exit 0; }
mkdir "$M/d"
sync

# dirops records in record's summary: kept (events column) and lost
summary() { awk '$1 == "dirops" { print $2, $3 }' "$1"; }

# 1. 4 x 20000 create+unlink pairs with the default ring, the recorder
# free to run: nothing lost, every call recorded
"$FSLENS" record -m "$M" -e dirops -f -o ok.trace -- ./storm "$M/d" 4 20000n >ok.out 2>ok.err
check_eq ok_exit $? 0
read -r nc nu <ok.out
read -r kept lost < <(summary ok.err)
check_eq storm_count "$nc $nu" "80000 80000"
check_eq default_ring_lost "$lost" 0
check_eq default_ring_kept "$kept" $((nc + nu + 4))
rm -rf "${M:?}/d"/*

# 2. The drain starved: the recorder at nice 19 on the storm's one CPU
# (the storm goes back to nice 0) with a 64 KiB ring. Kept + lost is still
# every call; the loss is said as the drain's, with its rates; info and
# report (text and JSON) say the same.
nice -n 19 taskset -c 0 "$FSLENS" record --ring-size 64K -m "$M" -e dirops -f -o starved.trace \
	-- ./storm "$M/d" 4 20000n >starved.out 2>starved.err
check_eq starved_exit $? 0
read -r nc nu <starved.out
read -r kept lost < <(summary starved.err)
check_ge starved_lost "$lost" 1
check_eq starved_kept_plus_lost $((kept + lost)) $((nc + nu + 4))
check_grep starved_advice "events were lost: the recorder's drain fell behind \([0-9]+% of the lost events\): it used [0-9]+% of a CPU and drained [0-9.]+ M events/s while the probes produced [0-9.]+ M/s; record fewer families" starved.err
check_cmd starved_no_ring_advice sh -c '! grep -q "try a larger" starved.err'
"$FSLENS" info starved.trace >info 2>&1
check_grep info_lost "^events: +$kept, lost $lost\$" info
"$FSLENS" report starved.trace >rep 2>&1
check_grep report_loss_line "\*\*\* $lost lost \(the recorder's drain fell behind; see TRACE\) \*\*\*" rep
check_grep report_why "why: the recorder's drain fell behind" rep
"$FSLENS" report --json starved.trace >rep.json 2>&1
read -r jl jb < <(python3 -c '
import json, sys; t = json.load(open(sys.argv[1]))["trace"]
print(t["lost_total"], t["lost_drain_behind"] + t["lost_burst"])' rep.json)
check_eq json_lost "$jl" "$lost"
check_eq json_lost_by_cause "$jb" "$lost"
[ "$T_FAILS" -eq 0 ] || { cat starved.err; head -3 rep; }
exit 0
