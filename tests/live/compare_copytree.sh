#!/bin/bash
# demo copytree --matrix delalloc=1,0 (seed 004): a tree of small and large
# files copied file by file. Without delalloc the files break (the seed saw
# breaks after 15 blocks); the comparison must name the fragmentation and its
# direction (more fragmented files and fragcheck breaks with delalloc=0), and
# its figures at the end of the last phase must equal `e2fsck -fn -E
# fragcheck` on each kept image: the break lines it prints, and the files
# they are in.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v e2fsck >/dev/null || { fail tools "e2fsck not installed"; exit 1; }
cd "$T_TMP" || exit 1

"$FSLENS" demo copytree --scale small --matrix delalloc=1,0 --keep -o out >demo.out 2>demo.err
check_eq demo_exit $? 0
imgs=($(sed -n 's/^kept image: //p' demo.out))
for img in "${imgs[@]}"; do
	at_exit "rm -rf $(dirname "$img")"
done
check_grep seed_stated "^seed 004 \(ext4 delalloc interleaving" demo.out
"$FSLENS" compare --json out/copytree_delalloc-1.trace out/copytree_delalloc-0.trace >c.json \
	2>c.err
check_eq compare_exit $? 0

i=0
for img in "${imgs[@]}"; do
	e2fsck -fn -E fragcheck "$img" 2>&1 | grep ': expecting ' >e$i.txt
	echo "$(wc -l <e$i.txt) $(cut -d'(' -f1 e$i.txt | sort -u | grep -c .)" >truth$i
	i=$((i + 1))
done
read -r got0 got1 moved < <(python3 - <<'PY'
import json
c = json.load(open("c.json"))
row = c["rows"][-1]		# the last phase: the layout at the end
g = ["%d:%d" % (x["layout"]["fragcheck_breaks"], x["layout"]["fragmented_files"])
     for x in row["cells"]]
d = [x for x in c["differences"] if x["phase"] == row["phase"]][0]
m = {x["name"]: x for x in d["mechanisms"]}
ok = m.get("fragmented_files", {}).get("delta", 0) > 0 and m["fragcheck_breaks"]["delta"] > 0
print(g[0], g[1], "more-with-nodelalloc" if ok else "not:" + json.dumps(m)[:300].replace(" ", "_"))
PY
)
echo "# fslens breaks:files delalloc=1 $got0, delalloc=0 $got1; e2fsck $(tr ' ' : <truth0), $(tr ' ' : <truth1)" >&2
check_eq frag_delalloc1_vs_e2fsck "$got0" "$(tr ' ' : <truth0)"
check_eq frag_delalloc0_vs_e2fsck "$got1" "$(tr ' ' : <truth1)"
check_eq frag_direction "$moved" more-with-nodelalloc
# the copy's sentence names the fragmentation nodelalloc left
check_cmd copy_sentence_names_fragmentation python3 -c '
import json, sys
c = json.load(open("c.json"))
s = " ".join(d["sentence"] for d in c["differences"])
sys.exit(0 if "fragmented files" in s else 1)'
exit $((T_FAILS > 0))
