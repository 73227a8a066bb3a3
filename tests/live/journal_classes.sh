#!/bin/bash
# Blocks written on the target by what they hold, against the filesystem's
# own layout: a strictatime read storm over 1000 files on 1 KiB blocks with a
# 1 MiB journal, ended by sync (which writes the committed inode-table
# blocks home). report's write_blocks_by_class (from the recorded geometry)
# must equal the write dispatches of the trace's blktrace export, read by
# blkparse, mapped block by block through dumpe2fs's group layout (superblock
# and descriptors, block bitmap, inode bitmap, inode table per group) and the
# journal inode's extent (debugfs); and most of what was written home is
# inode table.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
for tool in blkparse dumpe2fs debugfs; do
	command -v $tool >/dev/null || { fail tools "$tool not installed"; exit 1; }
done
PY=$(python3 -c 'import sys; print(sys.executable)')
N=${JC_FILES:-1000}

scratch_fs 64 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
LOOP=$(basename "$SCRATCH_LOOP")
mount -o remount,strictatime "$M" || { fail setup "cannot remount strictatime"; exit 1; }
mkdir "$M/d"
(cd "$M/d" && for i in $(seq 1 $N); do echo x >$i; done)
sync
cd "$T_TMP" || exit 1

"$FSLENS" record -m "$M" -o r.trace -- sh -c "cat $M/d/* >/dev/null; sync" 2>rec.err
check_eq record.rc $? 0
"$FSLENS" report --json r.trace >r.json 2>rep.err
check_eq report.rc $? 0
"$FSLENS" export r.trace --format blktrace -o bt 2>exp.err
check_eq export.rc $? 0
blkparse -i bt/"$LOOP" -f "%a %d %S %n\n" -o bp.txt >/dev/null 2>&1
check_eq blkparse.rc $? 0
dumpe2fs "$SCRATCH_LOOP" >layout.txt 2>/dev/null
debugfs -R "stat <8>" "$SCRATCH_LOOP" >journal.txt 2>/dev/null

got=$("$PY" - "$SCRATCH_DEV" <<'PYEOF'
import json, re, sys
dev = sys.argv[1]
L = open("layout.txt").read()
bs = int(re.search(r"^Block size:\s+(\d+)", L, re.M).group(1))
ranges = []		# (first, last, class)
def add(a, b, cls):
    ranges.append((int(a), int(b) if b else int(a), cls))
for m in re.finditer(r"(Primary|Backup) superblock at (\d+), Group descriptors at (\d+)-(\d+)", L):
    add(m.group(2), m.group(2), "super_gdt")
    add(m.group(3), m.group(4), "super_gdt")
for m in re.finditer(r"Reserved GDT blocks at (\d+)-(\d+)", L):
    add(m.group(1), m.group(2), "super_gdt")
for m in re.finditer(r"Block bitmap at (\d+)", L):
    add(m.group(1), None, "block_bitmap")
for m in re.finditer(r"Inode bitmap at (\d+)", L):
    add(m.group(1), None, "inode_bitmap")
for m in re.finditer(r"Inode table at (\d+)-(\d+)", L):
    add(m.group(1), m.group(2), "inode_table")
J = open("journal.txt").read()
for m in re.finditer(r"\((\d+)(?:-(\d+))?\):(\d+)(?:-(\d+))?", J):
    add(m.group(3), m.group(4), "journal")
def cls(b):
    for a, z, c in ranges:
        if a <= b <= z:
            return c
    return "other"
want = {}
spb = bs // 512
for l in open("bp.txt"):
    f = l.split()
    if len(f) != 4 or f[0] != "D" or "W" not in f[1] or int(f[3]) == 0:
        continue
    s, n = int(f[2]), int(f[3])
    for b in range(s // spb, (s + n + spb - 1) // spb):
        c = cls(b)
        want[c] = want.get(c, 0) + 1
r = json.load(open("r.json"))
d = [x for x in r["blockio"] if x["dev"] == dev][0]
have = {k: v for k, v in d["write_blocks_by_class"].items() if v}
print("same" if have == want else "report %s dumpe2fs %s" % (have, want))
print(have.get("inode_table", 0), sum(have.values()) - have.get("journal", 0))
PYEOF
)
echo "classes: $got" | tr '\n' ' ' >&2; echo >&2
check_eq classes_vs_dumpe2fs "$(echo "$got" | head -1)" same
read -r it home < <(echo "$got" | tail -1)
# the N inodes' table blocks (4 per KiB at 256 bytes) went home
check_ge inode_table_blocks "$it" $((N / 4))
# of the blocks written home (all but the journal's), most are inode table
check_cmd inode_table_most test $((it * 2)) -gt "$home"

[ $T_FAILS -eq 0 ]
