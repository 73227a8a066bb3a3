#!/bin/bash
# replay on metadata that does not fit its events (issue 19, item 8): one line
# naming the key, exit 1, never a crash (the robust-asan suite runs this on ASan).
. "$(dirname "$0")/../lib.sh"
H=$PWD/${BUILD:-build}/tests/fsl_hostile
cd "$T_TMP" || exit 1

# the well-formed trace replays: 3 block and 3 inode decisions
"$H" ok.trace geom || { fail mktrace "fsl_hostile failed"; exit 1; }
"$FSLENS" replay --json ok.trace >ok.json 2>ok.err
check_eq ok.rc $? 0
got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["geometry"]["known"], d["geometry"]["blocks_count"])' ok.json 2>&1)
check_eq ok.geometry "$got" "True 131072"

# name | fsl_hostile arguments | the line replay must print
cases=(
"group_count_1|ext4.group_count=1|ext4.group_count=1 does not match ext4.blocks_count=131072, ext4.first_data_block=0 and ext4.blocks_per_group=32768 \(4 groups\)"
"group_count_9|ext4.group_count=9|ext4.group_count=9 does not match .* \(4 groups\)"
"blocks_count_short|ext4.blocks_count=65536|ext4.group_count=4 does not match ext4.blocks_count=65536, .* \(2 groups\)"
"inodes_count|ext4.inodes_count=5|ext4.inodes_count=5 does not match ext4.inodes_per_group=8192 times ext4.group_count=4"
"ipg_huge|ext4.inodes_per_group=100000|ext4.inodes_per_group=100000 is not a multiple of 8 up to one bitmap block of ext4.block_size=4096 \(32768\)"
"bpg_block|ext4.block_size=1024|ext4.blocks_per_group=32768 is more than one bitmap block of ext4.block_size=1024 holds \(8192\)"
"inode_size|ext4.inode_size=8192|ext4.inode_size=8192 is not a power of two from 128 to ext4.block_size=4096"
"flex|ext4.flex_bg_size=3|ext4.flex_bg_size=3 is not a power of two"
"bitmap_past|ext4.blocks_count=98304 ext4.group_count=3 ext4.inodes_per_group=16384 ext4.inodes_count=|the start block bitmap \(blocks 0 to 131072\) runs past ext4.blocks_count=98304"
"event_inode|ext4.inodes_per_group=4096 ext4.inodes_count= nobitmaps|event ext4_allocate_inode at ts 1\.[0-9]+ s: inode 24581 is out of range \(at most 16384 by ext4.inodes_per_group x ext4.group_count\)"
"event_group|ext4.blocks_count=98304 ext4.group_count=3 ext4.inodes_per_group=16384 ext4.inodes_count= nobitmaps|event ext4_mballoc_alloc at ts 1\.[0-9]+ s: result group 3 is out of range \(at most 2 by ext4.group_count\)"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name args want <<<"$c"
	# shellcheck disable=SC2086
	"$H" "$name.trace" geom $args || { fail "$name.mk" "fsl_hostile failed"; continue; }
	for mode in text json; do
		opt=; [ $mode = json ] && opt=--json
		"$FSLENS" replay $opt "$name.trace" >out 2>err
		check_eq "$name.$mode.rc" $? 1
		if [ "$(wc -l <err)" -eq 1 ] && grep -qE "^fslens replay: '$name.trace': $want" err; then
			pass "$name.$mode.msg"
		else
			fail "$name.$mode.msg" "$(head -c 400 err)"
		fi
		check_eq "$name.$mode.stdout" "$(wc -c <out)" 0
	done
	# the other readers do not use the geometry to index anything: they still work
	"$FSLENS" report "$name.trace" >/dev/null 2>err
	check_eq "$name.report.rc" $? 0
done
exit 0
