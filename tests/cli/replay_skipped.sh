#!/bin/bash
# A what-if on a trace whose models cannot run prints no figure for them: the
# golden trace has no ext4 geometry (allocator skipped) and no journal size
# (journal skipped), so `replay --set noatime=1` says why for each and prints
# no number in their place (it printed 0.00 | 0.00 | 0.00); the JSON has the
# reasons under whatif.skipped and no predicted figure of those models.
. "$(dirname "$0")/../lib.sh"
G=$TOP/tests/data/golden.trace

"$FSLENS" replay --set noatime=1 "$G" >"$T_TMP/t.txt" 2>"$T_TMP/t.err"
check_eq text-exit $? 0
sed -n '/^What if/,$p' "$T_TMP/t.txt" >"$T_TMP/w.txt"
check_grep journal-skipped-why 'journal .*skipped: no ext4.journal_blocks in the trace' "$T_TMP/w.txt"
check_grep layout-skipped-why 'layout .*skipped: no ext4 geometry' "$T_TMP/w.txt"
check_grep dirs-skipped-why 'directory blocks skipped: no ext4.block_size' "$T_TMP/w.txt"
# no figure at all under the what-if heading: every line is a reason
check_eq whatif-no-numbers "$(grep -cE '[0-9]+\.[0-9]+ \||\| +[0-9]' "$T_TMP/w.txt")" 0
check_grep journal-line-skipped '^Journal: .*model skipped: no ext4.journal_blocks' "$T_TMP/t.txt"
check_eq no-predicted-on-journal-line "$(grep -c 'predicted' "$T_TMP/t.txt")" 0

"$FSLENS" replay --json --set noatime=1 "$G" >"$T_TMP/t.json" 2>"$T_TMP/j.err"
check_eq json-exit $? 0
python3 - "$T_TMP/t.json" >"$T_TMP/j.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["whatif"]
print("skipped", ",".join(sorted(w["skipped"])))
print("figures", ",".join(sorted(set(w["baseline"]) | set(w["predicted"]))) or "none")
print("recorded-layout", "extents_per_file" in w["recorded"])
print("journal", d["journal"]["commits_predicted"], d["journal"]["skipped"])
PY
check_grep json-skipped-keys '^skipped dir_blocks,journal,layout$' "$T_TMP/j.out"
check_grep json-no-figures '^figures none$' "$T_TMP/j.out"
check_grep json-no-recorded-layout '^recorded-layout False$' "$T_TMP/j.out"
check_grep json-journal-null '^journal None no ext4.journal_blocks' "$T_TMP/j.out"
exit $T_FAILS
