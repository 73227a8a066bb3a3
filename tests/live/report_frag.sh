#!/bin/bash
# Layout rebuilt from the trace equals e2fsck's: four files written
# interleaved (64 KiB to each in turn, fsync after each write) on a scratch
# ext4; after unmount, `e2fsck -fn -E fragcheck` prints its break lines and
# the report's fragcheck lines must be the same (inodes, logical and
# physical numbers), and every break must name the inode debugfs icheck says
# holds the block at the end (or none, as icheck says, for a free block).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs

scratch_fs 64 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
cat >"$T_TMP/frag.py" <<'PY'
import os, sys
d, n, chunks, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fds = [os.open(f"{d}/f{i}", os.O_WRONLY | os.O_CREAT, 0o644) for i in range(n)]
buf = b"x" * size
for c in range(chunks):
    for fd in fds:
        os.write(fd, buf)
        os.fsync(fd)
for fd in fds:
    os.close(fd)
PY
sync
"$FSLENS" record -m "$M" -o "$T_TMP/f.trace" -- python3 "$T_TMP/frag.py" "$M" 4 8 65536 \
	2>"$T_TMP/rec.err"
check_eq record_exit $? 0
scratch_umount
e2fsck -fn -E fragcheck "$SCRATCH_IMG" 2>&1 | grep ': expecting ' >"$T_TMP/e2fsck.txt"
"$FSLENS" report --json-full "$T_TMP/f.trace" >"$T_TMP/r.json" 2>"$T_TMP/rep.err"
check_eq report_exit $? 0
python3 - "$T_TMP/r.json" >"$T_TMP/ours.txt" <<'PY'
import json, sys
print("\n".join(json.load(open(sys.argv[1]))["layout"]["fragcheck"]))
PY
# at least one break per file, or the comparison would prove little
check_ge e2fsck_breaks "$(wc -l <"$T_TMP/e2fsck.txt")" 4
if diff "$T_TMP/e2fsck.txt" "$T_TMP/ours.txt" >"$T_TMP/diff"; then
	pass fragcheck_equal
else
	fail fragcheck_equal "report differs from e2fsck: $(head -c 400 "$T_TMP/diff")"
fi
# who took the block: the owner debugfs icheck names at the end (none: free or metadata)
wrong=$(python3 - "$SCRATCH_IMG" "$T_TMP/r.json" <<'PY'
import json, subprocess, sys
br = json.load(open(sys.argv[2]))["layout"]["breaks"]
out = subprocess.run(["debugfs", "-R", "icheck " + " ".join(str(b["expect"]) for b in br),
                      sys.argv[1]], capture_output=True, text=True).stdout
own = {}
for line in out.splitlines()[1:]:
    p = line.split("\t")
    if len(p) == 2:
        own[int(p[0])] = int(p[1]) if p[1].strip().isdigit() else None
print(sum(1 for b in br if own.get(b["expect"], -1) != b["taker_ino"] or
          (b["taker_ino"] is None and b["taker_kind"] == "file")))
PY
)
check_eq breaks_taker_is_icheck_owner "$wrong" 0
files=$(python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["layout"]; print(l["fragmented_files"])' "$T_TMP/r.json")
check_eq fragmented_files "$files" "$(awk -F'(' '{print $1}' "$T_TMP/e2fsck.txt" | sort -u | wc -l)"
exit $T_FAILS
