#!/bin/bash
# The XFS layout rebuilt from the trace equals the filesystem's own account:
# on a scratch XFS of 4 AGs, 200 small files in four directories, four files
# written interleaved with an fsync after each 64 KiB (several extents each),
# a sparse file, then some deletes, all recorded. For every file left:
# extents per file equal the lines `xfs_bmap -v` prints that are not holes;
# the inode-to-data distance (AGs, and 512-byte sectors from the inode's
# block to the file's first data block) equals one computed from `xfs_db`
# (convert inode -> agno, agbno) and xfs_bmap's first extent; the free space
# recorded at the end equals `xfs_io -c fsmap`'s.
. "$(dirname "$0")/../lib.sh"
require_bpf
[ -d /sys/kernel/tracing/events/xfs ] || { skip all "this kernel has no XFS tracepoints"; exit 0; }
command -v mkfs.xfs >/dev/null && command -v xfs_db >/dev/null ||
	{ skip all "no xfsprogs"; exit 0; }

scratch_fs 320 xfs -d agcount=4 || { fail setup "cannot make scratch xfs"; exit 1; }
M=$SCRATCH_MNT
cat >"$T_TMP/frag.py" <<'PY'
import os, sys
d, n, chunks, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fds = [os.open(f"{d}/i{k}", os.O_WRONLY | os.O_CREAT, 0o644) for k in range(n)]
buf = b"x" * size
for c in range(chunks):
    for fd in fds:
        os.write(fd, buf)
        os.fsync(fd)
for fd in fds:
    os.close(fd)
PY
cat >"$T_TMP/work.sh" <<EOF
for d in 1 2 3 4; do
	mkdir $M/d\$d
	for i in \$(seq 1 50); do head -c \$((i * 700)) /dev/urandom >$M/d\$d/f\$i; done
done
python3 $T_TMP/frag.py $M 4 8 65536
dd if=/dev/zero of=$M/sparse bs=4k count=2 status=none
dd if=/dev/zero of=$M/sparse bs=4k count=2 seek=256 conv=notrunc status=none
rm -f $M/d2/f1*
sync
EOF
"$FSLENS" record -m "$M" -o "$T_TMP/t.trace" -- sh "$T_TMP/work.sh" 2>"$T_TMP/rec.err"
check_eq record_exit $? 0
"$FSLENS" report --json-full "$T_TMP/t.trace" >"$T_TMP/r.json" 2>"$T_TMP/rep.err"
check_eq report_exit $? 0
free_io=$(xfs_io -c "fsmap -d" "$M" | awk '/free space/ { s += $NF } END { print s * 512 }')

# xfs_bmap on the mounted filesystem: extents and the first one's daddr and AG
python3 - "$M" >"$T_TMP/bmap.txt" <<'PY'
import os, subprocess, sys
for root, dirs, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(root, f)
        out = subprocess.run(["xfs_bmap", "-v", p], capture_output=True, text=True).stdout
        ext = [l.split() for l in out.splitlines()[2:] if "hole" not in l]
        if not ext:
            continue
        first = min(ext, key=lambda e: int(e[1].strip("[]:").split("..")[0]))
        print(os.stat(p).st_ino, len(ext), first[2].split("..")[0], first[3])
PY
scratch_umount
python3 - "$SCRATCH_IMG" "$T_TMP/bmap.txt" "$T_TMP/r.json" >"$T_TMP/cmp.txt" <<'PY'
import json, subprocess, sys
img, bmap, rj = sys.argv[1:4]
ours = {f["ino"]: f for f in json.load(open(rj))["xfs_layout"]["file_list"]}
rows = [l.split() for l in open(bmap)]
def db(cmds):
    args = ["xfs_db", "-r"]
    for c in cmds:
        args += ["-c", c]
    return subprocess.run(args + [img], capture_output=True, text=True).stdout.split()
sb = db(["sb 0", "p agblocks blocksize"])
agblocks, bs = int(sb[2]), int(sb[5])
vals = [int(x.split("(")[1].rstrip(")")) for x in
        db([c for r in rows for c in ("convert inode %s agno" % r[0], "convert inode %s agbno" % r[0])])
        if "(" in x]
ext_bad = dist_bad = frag = 0
for i, (ino, n, daddr, ag) in enumerate(rows):
    agno, agbno = vals[2 * i], vals[2 * i + 1]
    dist = abs((agno * agblocks + agbno) * (bs // 512) - int(daddr))
    o = ours.get(int(ino))
    frag += int(n) > 1
    if not o or o["extents"] != int(n):
        ext_bad += 1
        print("extents differ: ino %s xfs_bmap %s ours %s" % (ino, n, o and o["extents"]),
              file=sys.stderr)
    if not o or o["distance_sectors"] != dist or o["distance_ags"] != abs(agno - int(ag)):
        dist_bad += 1
        print("distance differs: ino %s xfs_db %d/%d ours %s" % (ino, dist, abs(agno - int(ag)),
              o and (o["distance_sectors"], o["distance_ags"])), file=sys.stderr)
print(len(rows), frag, ext_bad, dist_bad)
PY
read -r nfiles nfrag ext_bad dist_bad <"$T_TMP/cmp.txt"
check_ge files_compared "${nfiles:-0}" 190
check_ge files_in_several_extents "${nfrag:-0}" 4
check_eq extents_equal_xfs_bmap "${ext_bad:-x}" 0
check_eq distance_equal_xfs_db "${dist_bad:-x}" 0
free_ours=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["xfs_layout"]["free_end"]["bytes"])' "$T_TMP/r.json")
check_eq free_space_end_equals_fsmap "$free_ours" "$free_io"
exit $((T_FAILS > 0))
