#!/usr/bin/env python3
# frag_cmp.py IMG REPORT.json DUMPE2FS.txt: the report's answers to "who took
# the block a fragmented file expected" against the independent truth of the
# unmounted image: debugfs icheck (the owner), debugfs testb (in use or free
# at the end) and dumpe2fs (where each kind of metadata lies).
# Prints "offer H N", "offer_result_free F L", "unknown_but_free N", one
# "KIND OK TOTAL" line per taker kind (file kinds as file/HOW), then up to
# five "BAD why json" lines; the callers fail on any BAD line.
import collections, json, re, subprocess, sys
img, rep, dfs = sys.argv[1:4]
br = json.load(open(rep))["layout"]["breaks"]
blocks = sorted({b["expect"] for b in br})

def debugfs(cmd, args):
    """debugfs CMD over many blocks, 400 at a time: its output lines"""
    out = []
    for i in range(0, len(args), 400):
        out += subprocess.run(["debugfs", "-R", cmd + " " + " ".join(map(str, args[i:i + 400])),
                               img], capture_output=True, text=True).stdout.splitlines()
    return out

own = {}
for line in debugfs("icheck", blocks):
    p = line.split("\t")
    if len(p) == 2 and p[0].isdigit():
        own[int(p[0])] = int(p[1]) if p[1].strip().isdigit() else None
# the end state of every expected block, as the image's bitmap has it
used = {}
for i in range(0, len(blocks), 400):
    cmds = "\n".join("testb %d" % b for b in blocks[i:i + 400])
    out = subprocess.run(["debugfs", "-f", "-", img], input=cmds, capture_output=True,
                         text=True).stdout
    for m in re.finditer(r"Block (\d+) (marked in use|not in use)", out):
        used[int(m.group(1))] = m.group(2) == "marked in use"
# dumpe2fs ranges per metadata kind
rng = collections.defaultdict(list)
pat = {"superblock_backup": r"(?:Backup|Primary) superblock at (\d+)()",
       "group_descriptors": r"Group descriptors at (\d+)(?:-(\d+))?",
       "reserved_gdt": r"Reserved GDT blocks at (\d+)(?:-(\d+))?",
       "block_bitmap": r"Block bitmap at (\d+)(?:-(\d+))?",
       "inode_bitmap": r"Inode bitmap at (\d+)(?:-(\d+))?",
       "inode_table": r"Inode table at (\d+)(?:-(\d+))?"}
for line in open(dfs):
    for k, rx in pat.items():
        for m in re.finditer(rx, line):
            a = int(m.group(1)); rng[k].append((a, int(m.group(2) or a)))
ok = collections.Counter(); tot = collections.Counter(); bad = []; unk_free = 0
for b in br:
    o = own.get(b["expect"], "missing")
    u = used.get(b["expect"])
    kind = b["taker_kind"]
    k = kind + ("/" + b["taker_how"] if b.get("taker_ino") and kind == "file" else "")
    tot[k] += 1
    if o == "missing" or u is None:
        bad.append(("no icheck/testb answer", b))
    elif kind == "reserved_gdt":
        # the resize inode (7) owns the reserved GDT blocks: icheck names it
        if any(a <= b["expect"] <= z for a, z in rng[kind]) and o in (7, None) and \
           b.get("taker_ino") in (7, None):
            ok[k] += 1
        else:
            bad.append(("not a reserved GDT block (icheck %s)" % o, b))
    elif o is not None:
        if b.get("taker_ino") == o and kind in ("file", "extent_tree"):
            ok[k] += 1
        else:
            bad.append(("icheck says %d" % o, b))
    elif kind in rng:
        if any(a <= b["expect"] <= z for a, z in rng[kind]):
            ok[k] += 1
        else:
            bad.append(("not in dumpe2fs's %s ranges" % kind, b))
    elif kind == "free":
        if not u:
            ok[k] += 1
        else:
            bad.append(("called free, testb says in use", b))
    elif kind == "unknown":
        # "in use, owner not seen" is an answer only for a block that is in
        # use; one that is free at the end should have been called free
        if not u:
            ok[k] += 1
            unk_free += 1
        else:
            bad.append(("unknown: in use, no owner named and no metadata kind", b))
    else:
        bad.append(("icheck names no owner", b))
    if b.get("taker_how") == "group_pa" and not b.get("prealloc", {}).get("creator_ino"):
        bad.append(("group_pa without its creator", b))
# a break whose expected block was free when its extent was placed elsewhere,
# with the allocator's decision, says what the goal group offered then; the
# blocks the kernel found must be free in that rebuilt state (its own check)
need = [b for b in br if "decision" in b and (b["taker_kind"] == "free" or b.get("taken_later"))]
have = [b for b in need if "goal_group_offer" in b]
for b in need:
    if "goal_group_offer" not in b:
        bad.append(("free-but-placed-elsewhere without the goal group's offer", b))
offers = [b["goal_group_offer"] for b in br if "goal_group_offer" in b]
rl = sum(o["result_len"] for o in offers); rf = sum(o["result_free"] for o in offers)
for b in br:
    o = b.get("goal_group_offer")
    if o and o["result_free"] != o["result_len"]:
        bad.append(("the kernel's %d found blocks, %d free in the rebuilt state" %
                    (o["result_len"], o["result_free"]), b))
    if o and (o["largest_len"] > o["free_blocks"] or (o["free_blocks"] and not o["nearest"])):
        bad.append(("offer inconsistent", b))
print("offer", len(have), len(need))
print("offer_result_free", rf, rl)
print("unknown_but_free", unk_free)
for k in sorted(tot):
    print(k, ok[k], tot[k])
for why, b in bad[:5]:
    print("BAD", why, json.dumps(b))
