#!/bin/bash
# Blocks written on the target by what they hold and by who wrote them,
# against the filesystem's own tools (tests/helpers/blockclass_truth.py:
# dumpe2fs's group layout, the journal inode's extents, debugfs icheck and
# stat for every other block) over the write dispatches of the trace's
# blktrace export, read by blkparse.
#
# A: a strictatime read storm over 1000 files on 1 KiB blocks with flex_bg
#    and a 1 MiB journal, ended by sync: the classes of every block written
#    equal the tools', and most of what went home is inode table.
# B: the same without flex_bg (bitmaps and tables in every group), a mkdir +
#    touch storm then ls -lR: directory, extent-tree and inode-table blocks,
#    and what the workload's own checkpoints wrote home (the blocks its
#    commands queued, minus the journal superblock they also write outside a
#    checkpoint) equal the tools'; each checkpointed transaction's blocks
#    equal the kernel's jbd2_checkpoint_stats count.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
for tool in blkparse dumpe2fs debugfs; do
	command -v $tool >/dev/null || { fail tools "$tool not installed"; exit 1; }
done
TRUTH="${TOP:-$PWD}/tests/helpers/blockclass_truth.py"
N=${JC_FILES:-1000}

# report JSON -> the target's write_blocks_by_class, nonzero, as sorted JSON
by_class() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
d = [x for x in r["blockio"] if x["dev"] == r["trace"]["dev"]][0]
print(json.dumps({k: v for k, v in d["write_blocks_by_class"].items() if v}, sort_keys=True))' "$1"
}

# record CMD on the scratch fs, report --json, blkparse the export
capture() {	# name, command
	local name=$1
	"$FSLENS" record -m "$SCRATCH_MNT" -o "$name.trace" -- sh -c "$2" 2>"$name.rec.err"
	check_eq "$name.record.rc" $? 0
	"$FSLENS" report --json "$name.trace" >"$name.json" 2>"$name.rep.err"
	check_eq "$name.report.rc" $? 0
	"$FSLENS" export "$name.trace" --format blktrace -o "$name.bt" 2>"$name.exp.err"
	check_eq "$name.export.rc" $? 0
	blkparse -i "$name.bt/$(basename "$SCRATCH_LOOP")" -f "%a %d %S %n %C\n" -o "$name.bp" \
		>/dev/null 2>&1
	check_eq "$name.blkparse.rc" $? 0
}

# --- A: flex_bg, atime storm
scratch_fs 64 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
mount -o remount,strictatime "$SCRATCH_MNT" || { fail setup "cannot remount strictatime"; exit 1; }
mkdir "$SCRATCH_MNT/d"
(cd "$SCRATCH_MNT/d" && for i in $(seq 1 $N); do echo x >$i; done)
sync
cd "$T_TMP" || exit 1
capture a "cat $SCRATCH_MNT/d/* >/dev/null; sync"
have=$(by_class a.json)
want=$(python3 "$TRUTH" "$SCRATCH_LOOP" a.bp)
echo "# A fslens: $have" >&2
echo "# A tools:  $want" >&2
check_eq a.classes_vs_tools "$have" "$want"
read -r it home < <(python3 -c '
import json, sys
h = json.loads(sys.argv[1])
print(h.get("inode_table", 0), sum(h.values()) - h.get("journal", 0) - h.get("journal_super", 0))' "$have")
# the N inodes' table blocks (4 per KiB at 256 bytes) went home
check_ge a.inode_table_blocks "$it" $((N / 4))
check_cmd a.inode_table_most test $((it * 2)) -gt "$home"
umount "$SCRATCH_MNT" 2>/dev/null
losetup -d "$SCRATCH_LOOP" 2>/dev/null

# --- B: no flex_bg, directories
M=${JC_DIRS:-1500}
scratch_fs 64 ext4 -b 1024 -J size=1 -O ^flex_bg || { fail setup "cannot make scratch fs"; exit 1; }
mount -o remount,strictatime "$SCRATCH_MNT"
mkdir "$SCRATCH_MNT/d"
sync
capture b "cd $SCRATCH_MNT/d && for i in \$(seq 1 $M); do mkdir \$i; touch \$i/f; done; ls -lR >/dev/null; sync"
have=$(by_class b.json)
want=$(python3 "$TRUTH" "$SCRATCH_LOOP" b.bp)
echo "# B fslens: $have" >&2
echo "# B tools:  $want" >&2
check_eq b.classes_vs_tools "$have" "$want"
# what the workload's checkpoints wrote home, against the blocks its commands queued
chp=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["journal"]["blocks_by_writer"]["checkpoint"]
print(json.dumps({k: v for k, v in c.items() if v and k != "journal_super"}, sort_keys=True))' b.json)
want=$(python3 "$TRUTH" "$SCRATCH_LOOP" b.bp --cmd mkdir,touch,ls | python3 -c '
import json, sys
c = json.load(sys.stdin)
c.pop("journal_super", None)
print(json.dumps(c, sort_keys=True))')
echo "# B checkpoints fslens: $chp" >&2
echo "# B checkpoints tools:  $want" >&2
check_eq b.checkpoint_vs_tools "$chp" "$want"
read -r ntx bad top < <(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["journal"]["contents_by_class"]
ck = [x for x in c["checkpoints"] if sum(x["blocks"].values())]
bad = [x["tid"] for x in ck if sum(x["blocks"].values()) != x["kernel_written"]]
h = c["home"]
print(len(ck), ",".join(map(str, bad)) or "none", max(h, key=h.get))' b.json)
check_ge b.checkpointed_transactions "$ntx" 2
check_eq b.txn_blocks_vs_kernel "$bad" none
check_eq b.home_mostly_directories "$top" directory

[ $T_FAILS -eq 0 ]
