#!/bin/bash
# Who took the block a fragmented file expected, against the independent
# truth, on tar copies of a real tree (/usr/lib/python3.11 or the largest of
# a few) onto a fresh scratch ext4 (512 MiB, 4 KiB blocks):
#  - nodelalloc, one copy; delalloc, one copy; nodelalloc, 3 copies at once;
#    and 4 dd writers at once (delalloc, 64 MiB each: breaks at 2048 blocks)
# For each, after unmount (tests/helpers/frag_cmp.py):
#  - the report's fragcheck lines equal `e2fsck -fn -E fragcheck` (so no
#    journal-inode lines e2fsck does not print);
#  - every break where `debugfs icheck` names an owner of the expected block
#    names that inode (100%, per taker kind), and where icheck names none
#    the report calls it metadata or free, never a file; a metadata answer
#    (superblock_backup, group_descriptors, reserved_gdt, block_bitmap,
#    inode_bitmap, inode_table) lies in dumpe2fs's range of that kind; a
#    "free" answer is free at the end (debugfs testb); "unknown" (in use, no
#    owner seen) is a miss unless testb says the block is free at the end,
#    and those are counted apart (unknown_but_free);
#  - group-preallocation answers name the preallocation's creator;
#  - a break whose block was still free when its extent went elsewhere, with
#    the allocator's decision, says what the goal group offered then, and the
#    blocks the kernel found are free in that rebuilt state (every one).
# The free run of each (replay --free-run: same start state, only the
# workload's requests) ends with the kernel's bitmap on >= 99% of the blocks
# it changed for one writer; with several writers the figure is printed.
# And the readdir figure: `find` twice over the copy, the distinct
# inode-table blocks equal the union computed from the inode numbers.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
. "$(dirname "$0")/../helpers/frag_check.sh"

SRC=
for d in /usr/lib/python3.11 /usr/lib/python3 /usr/include; do
	[ -d "$d" ] && { SRC=$d; break; }
done
[ -n "$SRC" ] || { skip all "no source tree"; exit 0; }


# one case: NAME MOUNTOPTS COPIES
run_case() {
	local name=$1 opts=$2 k=$3 cmd="" i
	scratch_fs 512 ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 ||
		{ fail "$name-setup" "cannot make scratch fs"; return 1; }
	umount "$SCRATCH_MNT" && mount -o "$opts" "$SCRATCH_LOOP" "$SCRATCH_MNT" ||
		{ fail "$name-mount" "mount -o $opts failed"; return 1; }
	for i in $(seq 1 "$k"); do
		mkdir "$SCRATCH_MNT/c$i"
		cmd="$cmd (tar cf - -C $(dirname "$SRC") $(basename "$SRC") | tar xf - -C $SCRATCH_MNT/c$i) &"
	done
	[ "$k" = 0 ] && cmd="${cmd_override//@M@/$SCRATCH_MNT};"
	sync
	if ! "$FSLENS" record --full -m "$SCRATCH_MNT" -e alloc,journal,block -o "$T_TMP/$name.trace" -f \
		-- bash -c "$cmd wait" >"$T_TMP/$name.rec" 2>&1; then
		fail "$name-record" "$(tail -3 "$T_TMP/$name.rec")"
		return 1
	fi
	scratch_umount
	frag_check "$name" "$SCRATCH_IMG" "$T_TMP/$name.trace"
}

run_case nd1 nodelalloc 1
freerun_ge nd1-freerun 99
# nodelalloc breaks come from the locality-group preallocations
check_grep nd1-group-pa '^file/group_pa [0-9]+ [0-9]+' "$T_TMP/nd1.cmp"
run_case da1 delalloc 1
freerun_ge da1-freerun 99
# the delalloc copy has breaks placed elsewhere while their block was free, each with the offer
check_grep da1-offers '^offer [1-9][0-9]* [1-9][0-9]*$' "$T_TMP/da1.cmp"
run_case nd3 nodelalloc 3
check_grep nd3-group-pa '^file/group_pa [0-9]+ [0-9]+' "$T_TMP/nd3.cmp"
# 4 concurrent writers, delalloc: 64 MiB files in writeback chunks, next to the journal
cmd_override='for k in 1 2 3 4; do dd if=/dev/zero of=@M@/w$k bs=64k count=1024 status=none & done' 
run_case dd4 delalloc 0

# readdir: two finds over one copy; the distinct inode-table blocks are a union
scratch_fs 512 ext4 -b 4096 || { fail rd-setup "cannot make scratch fs"; exit 1; }
tar cf - -C "$(dirname "$SRC")" "$(basename "$SRC")" | tar xf - -C "$SCRATCH_MNT"
sync
"$FSLENS" record -m "$SCRATCH_MNT" -e dirops -o "$T_TMP/rd.trace" -f \
	-- bash -c "find $SCRATCH_MNT >/dev/null; find $SCRATCH_MNT >/dev/null" >"$T_TMP/rd.rec" 2>&1
check_eq rd-record $? 0
"$FSLENS" report --json "$T_TMP/rd.trace" >"$T_TMP/rd.json" 2>"$T_TMP/rd.err"
ours=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["layout"]["readdir"]["itable_blocks"])' "$T_TMP/rd.json" 2>&1)
truth=$(python3 - "$SCRATCH_MNT" <<'PY'
import os, sys
isz, bsz, seen = 256, 4096, set()
for d, dirs, files in os.walk(sys.argv[1]):
    seen.add(os.lstat(d).st_ino)
    if d != sys.argv[1]:	# the mount root's ".." is its own root, not the parent fs's
        seen.add(os.lstat(os.path.join(d, "..")).st_ino)
    for n in dirs + files:
        seen.add(os.lstat(os.path.join(d, n)).st_ino)
print(len({(i - 1) * isz // bsz for i in seen}))
PY
)
check_eq rd-distinct-itable-blocks "$ours" "$truth"
exit $T_FAILS
