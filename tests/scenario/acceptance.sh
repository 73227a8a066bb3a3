#!/bin/bash
# Issue acceptance at small scale: each scenario recorded by `fslens demo`,
# the phases cut by `fslens compare`, checked against independent truth
# (e2fsck fragcheck, sysctl values, the workload's own counts).
. "$TOP/tests/lib.sh"
require_bpf
export TMPDIR=$T_TMP
O=$T_TMP/out

# jget FILE PYEXPR: evaluate a python expression over the JSON document j
jget() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# cell FILE PHASE COLUMN_INDEX FIELD: one value of a compare --json table
cell() {
	python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
row = [r for r in j["rows"] if r["phase"] == sys.argv[2]][0]
c = row["cells"][int(sys.argv[3])]
print("missing" if c is None else c[sys.argv[4]])
PY
}
demo() { "$FSLENS" demo "$@" --scale small; }

# causes FILE: the ranked cause classes of a report --json, space separated
causes() { jget "$1" '" ".join(c["class"] for c in j["causes"])'; }

# ---- htree: a 1 MiB journal makes journal_log_space the top cause, 256 MiB does not
# (sync=0: no syncfs closing the phases, so the blocked time is the create storm's own)
demo htree --set n=6000 --set sync=0 --matrix journal=1M,256M -o "$O/journal" \
	>"$T_TMP/journal.log" 2>&1
check_eq journal-demo-exit $? 0
top1=$(jget "$O/journal/htree_journal-1M.json" 'j["causes"][0]["class"]')
share1=$(jget "$O/journal/htree_journal-1M.json" 'int(j["causes"][0]["share"] * 100)')
check_eq journal-1M-top-cause "$top1" journal_log_space
check_ge journal-1M-share "$share1" 50
check_grep journal-1M-suggestion "Grow the journal size \(now 1.0 MiB\)" "$T_TMP/journal.log"
top256=$(jget "$O/journal/htree_journal-256M.json" 'j["causes"][0]["class"] if j["causes"] else "none"')
if [ -n "$top256" ] && [ "$top256" != journal_log_space ]; then
	pass journal-256M-top-cause
else
	fail journal-256M-top-cause "top cause '$top256' with a 256 MiB journal"
fi
check_grep journal-compare-table "^mkdir +\| +[0-9.]+ s +[0-9]+ ops/s +\| +[0-9.]+ s" "$T_TMP/journal.log"
check_grep journal-compare-cause "^ +\| journal_log_space [0-9.]+% +\|" "$T_TMP/journal.log"
for f in htree_journal-1M htree_journal-256M; do
	for x in trace phases html json; do
		check_cmd "journal-output-$f.$x" test -s "$O/journal/$f.$x"
	done
done

# ---- htree stat phase: atime updates go through the journal, noatime writes nothing
demo htree --set n=1500 --matrix atime=strictatime,noatime -o "$O/atime" \
	>"$T_TMP/atime.log" 2>&1
check_eq atime-demo-exit $? 0
"$FSLENS" compare --no-causes --json "$O/atime/htree_atime-strictatime.trace" \
	"$O/atime/htree_atime-noatime.trace" >"$T_TMP/atime.json"
check_eq atime-compare-exit $? 0
check_eq atime-columns "$(jget "$T_TMP/atime.json" '" ".join(c["label"] for c in j["columns"])')" \
	"atime=strictatime atime=noatime"
check_ge atime-stat-commits "$(cell "$T_TMP/atime.json" stat 0 journal_commits)" 1
check_ge atime-stat-logged "$(cell "$T_TMP/atime.json" stat 0 journal_blocks_logged)" 1
check_ge atime-stat-writes "$(cell "$T_TMP/atime.json" stat 0 write_bytes)" 1
check_eq noatime-stat-commits "$(cell "$T_TMP/atime.json" stat 1 journal_commits)" 0
check_eq noatime-stat-writes "$(cell "$T_TMP/atime.json" stat 1 write_bytes)" 0
# the mkdir phase journals in both (the cut is not empty by accident)
check_ge noatime-mkdir-commits "$(cell "$T_TMP/atime.json" mkdir 1 journal_commits)" 1
check_eq atime-stat-ops "$(cell "$T_TMP/atime.json" stat 0 ops)" 3000
check_grep atime-table "^stat +\| +[0-9.]+ s +[0-9]+ ops/s" "$T_TMP/atime.log"

# ---- copytree: nodelalloc fragments more files than delalloc (e2fsck fragcheck on the image)
# and the report's fragcheck lines equal e2fsck's on the same image
for d in 1 0; do
	demo copytree --set delalloc=$d --keep -o "$O/copy$d" >"$T_TMP/copy$d.log" 2>&1
	check_eq "copytree-delalloc$d-exit" $? 0
	img=$(sed -n 's/^kept image: //p' "$T_TMP/copy$d.log")
	e2fsck -fn -E fragcheck "$img" >"$T_TMP/frag$d.txt" 2>&1
	check_eq "copytree-delalloc$d-fsck" $? 0
	grep -E '^ *[0-9]+\([a-z]\): expecting' "$T_TMP/frag$d.txt" >"$T_TMP/frag$d.e2fsck"
	jget "$O/copy$d/copytree.json" '"\n".join(j["layout"]["fragcheck"])' | sed '/^$/d' \
		>"$T_TMP/frag$d.report"
	if cmp -s "$T_TMP/frag$d.e2fsck" "$T_TMP/frag$d.report"; then
		pass "copytree-delalloc$d-fragcheck-equal"
	else
		fail "copytree-delalloc$d-fragcheck-equal" \
			"$(diff "$T_TMP/frag$d.e2fsck" "$T_TMP/frag$d.report" | head -5)"
	fi
	eval "frag$d=$(grep -E '^ *[0-9]+\([a-z]\): expecting' "$T_TMP/frag$d.txt" | \
		sed 's/(.*//' | sort -u | wc -l)"
	rm -rf "$(dirname "$img")"
done
if [ "$frag0" -gt "$frag1" ]; then
	pass copytree-nodelalloc-fragments-more
else
	fail copytree-nodelalloc-fragments-more "nodelalloc $frag0 fragmented files, delalloc $frag1"
fi

# ---- bonnie --runs 2: both runs' phase rates side by side
demo bonnie --set runs=2 -o "$O/bonnie" >"$T_TMP/bonnie.log" 2>&1
check_eq bonnie-exit $? 0
check_grep bonnie-side-by-side "^ +\| run 1 +\| run 2" "$T_TMP/bonnie.log"
check_grep bonnie-row "^rand_create +\| +[0-9.]+ +2000 +[0-9]+ +[0-9.]+ \| +[0-9.]+ +2000 " \
	"$T_TMP/bonnie.log"
"$FSLENS" compare --no-causes --json "$O/bonnie/bonnie.trace" >"$T_TMP/bonnie.json"
check_eq bonnie-compare-columns "$(jget "$T_TMP/bonnie.json" '" ".join(c["label"] for c in j["columns"])')" \
	"run 1 run 2"
check_eq bonnie-compare-rows "$(jget "$T_TMP/bonnie.json" '" ".join(r["phase"] for r in j["rows"])')" \
	"seq_create seq_read seq_delete rand_create rand_read rand_delete"
check_eq bonnie-compare-cells "$(jget "$T_TMP/bonnie.json" \
	'sum(1 for r in j["rows"] for c in r["cells"] if c and c["ops"] == 2000 and c["ops_per_s"] > 0)')" 12

# ---- createmany with caches dropped: the lookups read the directory from the device
# and directory-block reads are a cause; the report has the rate over time
demo createmany --set drop_caches=1 -o "$O/many" >"$T_TMP/many.log" 2>&1
check_eq createmany-exit $? 0
check_grep createmany-rate-timeline "^create rate \(ops/s, [0-9]+ slices" "$T_TMP/many.log"
check_grep createmany-report-rate "creates/s: peak [0-9]+" "$T_TMP/many.log"
check_ge createmany-report-rate-bins "$(jget "$O/many/createmany.json" 'sum(1 for b in j["ops"]["rate"]["all"] if b > 0)')" 5
case " $(causes "$O/many/createmany.json") " in
*" dir_block_read "*) pass createmany-dir-block-read-cause ;;
*) fail createmany-dir-block-read-cause "causes: $(causes "$O/many/createmany.json")" ;;
esac
"$FSLENS" compare --json "$O/many/createmany.trace" >"$T_TMP/many.json"
# a cold lookup reads the directory block, then the inode's table block: either
# leads the waits (the CPU's classes, the directory scan's among them, may come
# before them: that order varies with the machine's load)
top=$(python3 - "$T_TMP/many.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
c = [r for r in j["rows"] if r["phase"] == "lookup"][0]["cells"][0]
# the phase's waits by class (the cell's causes list only its first four)
b = ((c or {}).get("whole_time") or {}).get("blocked_by_class_ns") or {}
print(max(b, key=b.get) if b else "none")
PY
)
case $top in
dir_block_read|inode_table_read) pass createmany-lookup-top-cause ;;
*) fail createmany-lookup-top-cause "lookup phase top wait '$top'" ;;
esac
check_ge createmany-lookup-reads "$(cell "$T_TMP/many.json" lookup 0 read_bytes)" 4096
check_ge createmany-ticks "$(grep -c '^tick 1 create ' "$O/many/createmany.phases")" 3

# ---- dbench with lowered dirty limits: throttled, limits restored afterwards
before=$(sysctl -n vm.dirty_bytes vm.dirty_ratio vm.dirty_background_bytes vm.dirty_background_ratio | tr '\n' ' ')
demo dbench --set dirty_bytes=2M --set dirty_background_bytes=512K --set dio=1 \
	-o "$O/dbench" >"$T_TMP/dbench.log" 2>&1
check_eq dbench-exit $? 0
check_eq dbench-dirty-restored "$(sysctl -n vm.dirty_bytes vm.dirty_ratio vm.dirty_background_bytes vm.dirty_background_ratio | tr '\n' ' ')" "$before"
check_grep dbench-said-lowered "^vm.dirty_bytes=2097152 for this run" "$T_TMP/dbench.log"
"$FSLENS" compare --no-causes --json "$O/dbench/dbench.trace" >"$T_TMP/dbench.json"
check_ge dbench-throttle-pauses "$(cell "$T_TMP/dbench.json" run 0 throttle_pauses)" 1
case " $(causes "$O/dbench/dbench.json") " in
*" writeback_throttle "*) pass dbench-writeback-throttle-cause ;;
*) fail dbench-writeback-throttle-cause "causes: $(causes "$O/dbench/dbench.json")" ;;
esac
check_ge dbench-writeback-background-pages \
	"$(jget "$O/dbench/dbench.json" 'j["writeback"]["pages_by_reason"]["background"]')" 1
# ---- Ctrl-C during a recorded run: the recorder closes the trace, nothing is left
"$FSLENS" demo dbench --scale small --set seconds=60 --no-report -o "$O/int" \
	>"$T_TMP/int.log" 2>&1 &
pid=$!
for i in $(seq 100); do
	grep -q '^tick' "$O/int/dbench.phases" 2>/dev/null && break
	sleep 0.1
done
sleep 1
start=$(date +%s)
kill -INT $pid
wait $pid
check_eq interrupt-exit $? 130
check_le interrupt-prompt $(( $(date +%s) - start )) 15
check_eq interrupt-no-mount "$(findmnt -rn -o TARGET | grep -cF "$TMPDIR")" 0
check_eq interrupt-no-loop "$(losetup -a | grep -cF "$TMPDIR")" 0
"$FSLENS" compare --no-causes --json "$O/int/dbench.trace" >"$T_TMP/int.json" 2>"$T_TMP/int.err"
check_eq interrupt-trace-readable $? 0
exit $((T_FAILS > 0))
