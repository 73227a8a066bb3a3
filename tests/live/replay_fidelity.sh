#!/bin/bash
# fslens replay on recorded traces of a scratch ext4 (4 KiB blocks): the
# model's one-step block and inode placement against the kernel's recorded
# decisions, for the workloads the replay issue names:
#  - one large sequential file            block exact >= 95%
#  - 30,000 files created one at a time    block >= 95%, inode (existing dir) >= 99%
#  - a tree copied file by file            block >= 95%
#  - 4 concurrent writers                  block >= 80%
# and, against independent truth: the allocator state the replay kept equals
# the block bitmap libext2fs read after the run (0 differing blocks), and the
# large file's extents equal filefrag's count.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs

scratch_fs 512 ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 ||
	{ fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
mkdir "$M/many" "$M/tree"
sync

# jq-free JSON field reader: jget FILE a.b.c
jget() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d=d[k]
print(int(d) if isinstance(d,(int,float)) and float(d).is_integer() else d)' "$1" "$2" 2>/dev/null
}
# pct_ge NAME FILE FIELD MIN: passes when the field (a percentage) >= MIN
pct_ge() {
	local v
	v=$(jget "$2" "$3")
	if python3 -c "import sys; sys.exit(0 if float('$v') >= $4 else 1)" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "$3 = '$v', want >= $4 ($(head -c 200 "$2"))"
	fi
}

rec() {	# NAME COMMAND: record COMMAND, replay to $T_TMP/NAME.json
	local name=$1; shift
	# a fresh mount: preallocations of the previous workload live only in
	# memory and would be invisible to the start bitmap (the replay learns
	# them when used, but then does not count those decisions)
	umount "$M" && mount "$SCRATCH_LOOP" "$M" || { fail "$name-remount" "remount failed"; return 1; }
	# which block groups' buddies are in memory decides what the fast passes
	# look at; reading mb_groups loads them all, as a long-mounted fs has them
	cat "/proc/fs/ext4/$(basename "$SCRATCH_LOOP")/mb_groups" >/dev/null
	if ! "$FSLENS" record --full -m "$M" -e alloc,journal,block,dirops -o "$T_TMP/$name.trace" -f \
		-- bash -c "$*" >"$T_TMP/$name.rec" 2>&1; then
		fail "$name-record" "$(tail -3 "$T_TMP/$name.rec")"
		return 1
	fi
	if ! "$FSLENS" replay --json --free-run "$T_TMP/$name.trace" >"$T_TMP/$name.json" \
		2>"$T_TMP/$name.err"; then
		fail "$name-replay" "$(cat "$T_TMP/$name.err")"
		return 1
	fi
	# the measured figures, for VERBOSE=1 runs
	echo "$name: block $(jget "$T_TMP/$name.json" fidelity.block.exact)/$(jget \
		"$T_TMP/$name.json" fidelity.block.requests) exact, inode $(jget "$T_TMP/$name.json" \
		fidelity.inode.exact)/$(jget "$T_TMP/$name.json" fidelity.inode.requests)," \
		"free-run same block $(jget "$T_TMP/$name.json" fidelity.free_run.abs_block_diff.0)" >&2
}

if rec seq "dd if=/dev/zero of=$M/big bs=1M count=96 status=none; sync"; then
	check_ge seq-requests "$(jget "$T_TMP/seq.json" fidelity.block.requests)" 10
	pct_ge seq-block-exact "$T_TMP/seq.json" fidelity.block.exact_pct 95
	check_eq seq-end-state "$(jget "$T_TMP/seq.json" fidelity.block.end_state_mismatch_blocks)" 0
	ext=$(filefrag "$M/big" | sed -n 's/.*: \([0-9]*\) extents\? found/\1/p')
	check_eq seq-extents-vs-filefrag \
		"$(jget "$T_TMP/seq.json" fidelity.free_run.extents_per_file_kernel)" "$ext"
fi

if rec many "cd $M/many; for i in \$(seq 1 30000); do printf '%*s' \$((1 + (i % 3) * 4096)) x > f\$i; done; sync"; then
	check_ge many-requests "$(jget "$T_TMP/many.json" fidelity.block.requests)" 29000
	pct_ge many-block-exact "$T_TMP/many.json" fidelity.block.exact_pct 95
	check_ge many-inode-requests "$(jget "$T_TMP/many.json" fidelity.inode.files_in_existing_dirs)" 30000
	pct_ge many-inode-exact "$T_TMP/many.json" fidelity.inode.files_in_existing_dirs_exact_pct 99
	check_eq many-end-state "$(jget "$T_TMP/many.json" fidelity.block.end_state_mismatch_blocks)" 0
fi

if rec tree "cp -r /usr/include/linux $M/tree/; sync"; then
	check_ge tree-requests "$(jget "$T_TMP/tree.json" fidelity.block.requests)" 300
	pct_ge tree-block-exact "$T_TMP/tree.json" fidelity.block.exact_pct 95
	pct_ge tree-inode-exact "$T_TMP/tree.json" fidelity.inode.exact_pct 99
	check_eq tree-end-state "$(jget "$T_TMP/tree.json" fidelity.block.end_state_mismatch_blocks)" 0
fi

if rec conc "for k in 1 2 3 4; do dd if=/dev/zero of=$M/w\$k bs=64k count=320 status=none & done; wait; sync"; then
	check_ge conc-requests "$(jget "$T_TMP/conc.json" fidelity.block.requests)" 8
	pct_ge conc-block-exact "$T_TMP/conc.json" fidelity.block.exact_pct 80
	check_eq conc-end-state "$(jget "$T_TMP/conc.json" fidelity.block.end_state_mismatch_blocks)" 0
fi
exit 0
