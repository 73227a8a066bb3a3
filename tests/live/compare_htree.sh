#!/bin/bash
# demo htree --matrix atime=strictatime,noatime (seed 000) on 1 KiB blocks
# with a 1 MiB journal: the stat phase (du) under strictatime must be the
# slower, and the comparison must name the journal: more commits and journal
# blocks, inode-table blocks the most of what went home, dirtied by
# ext4_dirty_inode (atime updates), waits for journal log space. Its figures
# against the kernel's and the filesystem's own:
#  - commits: each trace's total equals /proc/fs/jbd2/<dev>/info's
#    transactions delta recorded at its start and end;
#  - block classes: every block the strictatime run wrote, classed by the
#    trace, equals dumpe2fs's layout + debugfs icheck/stat on its kept image
#    (tests/helpers/blockclass_truth.py over blkparse of the export), and
#    what its checkpoints wrote in the stat phase is mostly inode table.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
for tool in blkparse dumpe2fs debugfs; do
	command -v $tool >/dev/null || { fail tools "$tool not installed"; exit 1; }
done
TRUTH="${TOP:-$PWD}/tests/helpers/blockclass_truth.py"
N=${HT_N:-4000}
cd "$T_TMP" || exit 1

"$FSLENS" demo htree --scale small --set n=$N --matrix atime=strictatime,noatime --keep -o out \
	>demo.out 2>demo.err
check_eq demo_exit $? 0
imgs=($(sed -n 's/^kept image: //p' demo.out))
for img in "${imgs[@]}"; do
	at_exit "rm -rf $(dirname "$img")"
done
S=out/htree_atime-strictatime.trace
A=out/htree_atime-noatime.trace
"$FSLENS" compare --json "$S" "$A" >c.json 2>c.err
check_eq compare_exit $? 0
check_grep seed_stated "^seed 000 \(ext3 htree create storm" demo.out

read -r slower sent dcommits dblocks share < <(python3 - <<'PY'
import json
c = json.load(open("c.json"))
d = [x for x in c["differences"] if x["phase"] == "stat"][0]
m = {x["name"]: x for x in d["mechanisms"]}
s = d["sentence"]
ok = all(w in s for w in ("atime=strictatime is", "slower than atime=noatime", "commits",
                          "journal blocks", "inode-table blocks", "ext4_dirty_inode (atime updates)",
                          "journal log space"))
row = [r for r in c["rows"] if r["phase"] == "stat"][0]
cp = row["cells"][0]["checkpoint_by_class"]
tot = sum(cp.values()) - cp.get("journal_super", 0)
print(d["slower"], "named" if ok else "not-named:" + s.replace(" ", "_"),
      -m["commits"]["delta"], -m["journal_blocks"]["delta"],
      int(100 * cp["inode_table"] / tot) if tot else 0)
PY
)
echo "# stat: slower $slower, +$dcommits commits, +$dblocks journal blocks, checkpoints ${share}% inode table" >&2
check_eq stat_strictatime_slower "$slower" base
check_eq stat_sentence "$sent" named
check_cmd stat_more_commits test "$dcommits" -gt 0
check_cmd stat_more_journal_blocks test "$dblocks" -gt 100
check_ge stat_checkpoints_inode_table_pct "$share" 90

# commits against the kernel's count for the whole of each trace
for t in "$S" "$A"; do
	"$FSLENS" report --json "$t" >r.json
	read -r got want < <(python3 -c '
import json
r = json.load(open("r.json"))["journal"]
s, e = r["proc_info"]["start"], r["proc_info"]["end"]
print(r["commits"], e["transactions"] - s["transactions"])')
	echo "# $(basename "$t"): commits $got, /proc/fs/jbd2 $want" >&2
	check_cmd "commits_counted_$(basename "$t" .trace)" test "${got:-0}" -gt 0
	check_eq "commits_vs_proc_$(basename "$t" .trace)" "$got" "$want"
done

# every block the strictatime run wrote, by class, against the filesystem's tools
"$FSLENS" report --json "$S" >s.json
"$FSLENS" export "$S" --format blktrace -o bt 2>exp.err
check_eq export_exit $? 0
dev=$(ls bt | sed -n 's/\.blktrace\.0$//p' | head -1)
blkparse -i "bt/$dev" -f "%a %d %S %n %C\n" -o bp.txt >/dev/null 2>&1
have=$(python3 -c '
import json
r = json.load(open("s.json"))
d = [x for x in r["blockio"] if x["dev"] == r["trace"]["dev"]][0]
print(json.dumps({k: v for k, v in d["write_blocks_by_class"].items() if v}, sort_keys=True))')
want=$(python3 "$TRUTH" "${imgs[0]}" bp.txt)
echo "# strictatime fslens: $have" >&2
echo "# strictatime tools:  $want" >&2
check_eq classes_vs_tools "$have" "$want"
exit $((T_FAILS > 0))
