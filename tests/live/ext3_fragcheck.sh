#!/bin/bash
# An ext3-format filesystem (mkfs.ext3: no extents, 1 KiB blocks) mounted by
# the ext4 driver is recorded as ext4: the journal and alloc families load
# (jbd2 commits and the indirect-block mappings are in the trace), and the
# report's fragcheck lines equal `e2fsck -fn -E fragcheck`'s after unmount,
# indirect (blkcnt -1) and double indirect (-2) blocks included: four files
# written interleaved 64 KiB at a time with an fsync after each (512 KiB
# each, past the double indirect block), a directory of 300 names, deletes.
. "$(dirname "$0")/../lib.sh"
require_bpf
command -v mkfs.ext3 >/dev/null || { skip all "no mkfs.ext3"; exit 0; }
[ -d /sys/kernel/tracing/events/ext4/ext4_ind_map_blocks_exit ] ||
	[ -d /sys/kernel/debug/tracing/events/ext4/ext4_ind_map_blocks_exit ] ||
	{ skip all "this kernel has no ext4_ind_map_blocks_exit"; exit 0; }

SCRATCH_IMG=$T_TMP/img
M=$T_TMP/mnt
mkdir -p "$M"
truncate -s 64M "$SCRATCH_IMG" && mkfs.ext3 -q -F -b 1024 "$SCRATCH_IMG" >/dev/null 2>&1 &&
	LOOP=$(losetup -f --show "$SCRATCH_IMG") || { fail setup "cannot make scratch ext3"; exit 1; }
at_exit "losetup -d $LOOP"
mount -t ext3 "$LOOP" "$M" || { fail setup "cannot mount $LOOP as ext3"; exit 1; }
at_exit "umount -l $M"
check_eq driver_is_ext4 "$([ -d /sys/fs/ext4/$(basename "$LOOP") ] && echo yes)" yes
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
os.mkdir(f"{d}/dir")
for i in range(300):
    with open(f"{d}/dir/name-of-some-length-{i:04d}", "w") as f:
        f.write("y" * (i % 5000))
for i in range(0, 300, 3):
    os.unlink(f"{d}/dir/name-of-some-length-{i:04d}")
PY
sync
"$FSLENS" record -m "$M" -o "$T_TMP/t.trace" -- python3 "$T_TMP/frag.py" "$M" 4 8 65536 \
	2>"$T_TMP/rec.err"
check_eq record_exit $? 0
if grep -q "not ext4" "$T_TMP/rec.err"; then
	fail no_not_ext4_note "$(grep "not ext4" "$T_TMP/rec.err")"
else
	pass no_not_ext4_note
fi
"$FSLENS" dump "$T_TMP/t.trace" | awk '{ print $5 }' | sort | uniq -c >"$T_TMP/types"
for t in jbd2_end_commit ext4_ind_map_blocks_exit ext4_ind_map_blocks_enter ext4_allocate_blocks; do
	check_ge "recorded_$t" "$(awk -v t=$t '$2 == t { print $1 }' "$T_TMP/types")" 1
done
umount "$M"
e2fsck -fn -E fragcheck "$SCRATCH_IMG" 2>&1 | grep ': expecting ' >"$T_TMP/e2fsck.txt"
"$FSLENS" report --json-full "$T_TMP/t.trace" >"$T_TMP/r.json" 2>"$T_TMP/rep.err"
check_eq report_exit $? 0
python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["layout"]["fragcheck"]))' \
	"$T_TMP/r.json" >"$T_TMP/ours.txt"
check_ge e2fsck_lines "$(wc -l <"$T_TMP/e2fsck.txt")" 16
check_ge e2fsck_double_indirect "$(grep -c 'blkcnt -2' "$T_TMP/e2fsck.txt")" 4
if diff "$T_TMP/e2fsck.txt" "$T_TMP/ours.txt" >"$T_TMP/diff"; then
	pass fragcheck_equal_e2fsck
else
	fail fragcheck_equal_e2fsck "report differs from e2fsck: $(head -c 400 "$T_TMP/diff")"
fi
"$FSLENS" report "$T_TMP/t.trace" >"$T_TMP/r.txt" 2>&1
check_grep text_files_without_extents 'files without extents \(indirect blocks\): [0-9]+' "$T_TMP/r.txt"
exit $((T_FAILS > 0))
