#!/usr/bin/env python3
# The class of every block an ext4 device's writes (or reads) covered, by the
# filesystem's own tools, independent of fslens: dumpe2fs's group layout
# (superblocks, group descriptors and reserved GDT blocks, each group's
# bitmaps and inode table) and the journal inode's extents (its first block
# the journal superblock), then for every other block `debugfs -R icheck`
# (which inode holds it) and that inode's `stat` (directory or regular file;
# its extent-tree blocks are the ETB entries of its EXTENTS list).
#
#   blockclass_truth.py DEV BLKPARSE_OUT [--rw W|R] [--cmd COMM,...]
#
# BLKPARSE_OUT holds blkparse lines "%a %d %S %n %C" (action, rwbs, sector,
# sectors, command); the D (dispatch) lines with data in the direction
# asked, queued (Q) by the commands asked (all when none), are counted block
# by block.
# Prints one JSON object: class -> blocks (fslens's class names).
import json
import re
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True).stdout


def main():
    dev, bp = sys.argv[1], sys.argv[2]
    rw, cmds = "W", None
    a = sys.argv[3:]
    while a:
        if a[0] == "--rw":
            rw = a[1]
        elif a[0] == "--cmd":
            cmds = set(a[1].split(","))
        a = a[2:]
    L = run(["dumpe2fs", dev])
    bs = int(re.search(r"^Block size:\s+(\d+)", L, re.M).group(1))
    ranges = []

    def add(x, y, cls):
        ranges.append((int(x), int(y) if y else int(x), cls))

    for m in re.finditer(r"(?:Primary|Backup) superblock at (\d+), Group descriptors at (\d+)-(\d+)", L):
        add(m.group(1), None, "superblock")
        add(m.group(2), m.group(3), "group_desc")
    for m in re.finditer(r"Reserved GDT blocks at (\d+)-(\d+)", L):
        add(m.group(1), m.group(2), "group_desc")
    for m in re.finditer(r"Block bitmap at (\d+)", L):
        add(m.group(1), None, "block_bitmap")
    for m in re.finditer(r"Inode bitmap at (\d+)", L):
        add(m.group(1), None, "inode_bitmap")
    for m in re.finditer(r"Inode table at (\d+)-(\d+)", L):
        add(m.group(1), m.group(2), "inode_table")
    J = run(["debugfs", "-R", "stat <8>", dev])
    first = None
    for m in re.finditer(r"\((\d+)(?:-(\d+))?\):(\d+)(?:-(\d+))?", J):
        if m.group(1) == "0":
            first = int(m.group(3))
        add(m.group(3), m.group(4), "journal")
    if first is not None:
        ranges.insert(0, (first, first, "journal_super"))
    # 4 KiB blocks: block 0 holds the superblock (at byte 1024)
    if bs > 1024:
        ranges.insert(0, (0, 0, "superblock"))

    def static(b):
        for x, y, c in ranges:
            if x <= b <= y:
                return c
        return None

    spb = bs // 512
    blocks = []
    queued = {}	# sector -> the command that queued it (a dispatch may run in kblockd)
    for line in open(bp):
        f = line.split()
        if len(f) < 5:
            continue
        if f[0] == "Q":
            queued[f[2]] = f[4]
        if f[0] != "D" or rw not in f[1] or int(f[3]) == 0:
            continue
        if cmds is not None and queued.get(f[2], f[4]) not in cmds:
            continue
        s, n = int(f[2]), int(f[3])
        blocks.extend(range(s // spb, (s + n + spb - 1) // spb))
    need = sorted({b for b in blocks if static(b) is None})
    owner = {}
    for i in range(0, len(need), 400):
        out = run(["debugfs", "-R", "icheck " + " ".join(map(str, need[i:i + 400])), dev])
        for m in re.finditer(r"^(\d+)\s+(\d+)\s*$", out, re.M):
            owner[int(m.group(1))] = int(m.group(2))
    kind, etb = {}, set()
    inos = sorted(set(owner.values()))
    if inos:
        # one debugfs for every stat: its -f echoes "debugfs: stat <N>" before each
        with open("/tmp/bct.%d.cmd" % len(inos), "w") as cf:
            cf.write("".join("stat <%d>\n" % i for i in inos))
        out = run(["debugfs", "-f", cf.name, dev])
        for part in re.split(r"^debugfs: stat <(\d+)>\s*$", out, flags=re.M)[1:]:
            if part.isdigit():
                ino = int(part)
                continue
            t = re.search(r"Type: (\w+)", part)
            kind[ino] = t.group(1) if t else "?"
            for m in re.finditer(r"\(ETB\d+\):(\d+)", part):
                etb.add(int(m.group(1)))
    out = {}
    for b in blocks:
        c = static(b)
        if c is None:
            if b in etb:
                c = "extent_tree"
            elif b in owner:
                c = {"directory": "directory", "regular": "data"}.get(kind.get(owner[b]), "other")
            else:
                c = "other"
        out[c] = out.get(c, 0) + 1
    print(json.dumps(out, sort_keys=True))


main()
