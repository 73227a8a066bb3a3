#!/bin/bash
# Who took the block, checked as tests/live/frag_taker.sh does (fragcheck
# lines = e2fsck's, every taker against debugfs icheck/testb and dumpe2fs,
# tests/helpers/frag_check.sh), on two more layouts:
#  - a tar copy of a real tree onto ext4 without flex_bg, 1 KiB blocks
#    (mkfs.ext4 -O ^flex_bg: 8 MiB groups, each with its own bitmaps and
#    inode table after its superblock copy, so files running off the end of
#    a group expect a block bitmap or a backup superblock): the metadata
#    answers name those kinds and lie in dumpe2fs's ranges;
#  - the copytree matrix: `fslens demo copytree --matrix delalloc=1,0`
#    (small scale, large files up to 16 MiB), each kept image checked.
# Each is one writer: its free run must end with >= 99% of the kernel's
# end bitmap on the blocks the run changed.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
. "$(dirname "$0")/../helpers/frag_check.sh"

SRC=
for d in /usr/lib/python3.11 /usr/lib/python3 /usr/include; do
	[ -d "$d" ] && { SRC=$d; break; }
done

if [ -z "$SRC" ]; then
	skip noflex "no source tree"
elif scratch_fs 512 ext4 -b 1024 -O ^flex_bg -E lazy_itable_init=0,lazy_journal_init=0; then
	sync
	if "$FSLENS" record --full -m "$SCRATCH_MNT" -e alloc,journal,block -o "$T_TMP/nf.trace" -f \
		-- bash -c "tar cf - -C $(dirname "$SRC") $(basename "$SRC") | tar xf - -C $SCRATCH_MNT" \
		>"$T_TMP/nf.rec" 2>&1; then
		scratch_umount
		frag_check nf "$SCRATCH_IMG" "$T_TMP/nf.trace"
		freerun_ge nf-freerun 99
		# groups' own bitmaps and backup superblocks, found where dumpe2fs says
		check_grep nf-block-bitmap '^block_bitmap ([1-9][0-9]*) \1$' "$T_TMP/nf.cmp"
		check_grep nf-superblock-backup '^superblock_backup ([1-9][0-9]*) \1$' "$T_TMP/nf.cmp"
	else
		fail nf-record "$(tail -3 "$T_TMP/nf.rec")"
	fi
else
	fail nf-setup "cannot make a scratch fs without flex_bg"
fi

# the copytree matrix: one kept image per configuration, in matrix order
"$FSLENS" demo copytree --scale small --set large_max=16M --matrix delalloc=1,0 --keep \
	--no-report -o "$T_TMP/ct" >"$T_TMP/ct.log" 2>&1
check_eq copytree-matrix-exit $? 0
mapfile -t imgs < <(sed -n 's/^kept image: //p' "$T_TMP/ct.log")
for img in "${imgs[@]}"; do
	at_exit "rm -rf $(dirname "$img")"
done
check_eq copytree-matrix-images "${#imgs[@]}" 2
i=0
for v in 1 0; do
	[ -n "${imgs[$i]:-}" ] || break
	# delalloc leaves few breaks at this size (2 measured), nodelalloc many (22)
	frag_check "ct-delalloc$v" "${imgs[$i]}" "$T_TMP/ct/copytree_delalloc-$v.trace" 1
	freerun_ge "ct-delalloc$v-freerun" 99
	i=$((i + 1))
done
exit $T_FAILS
