#!/bin/bash
# What-if predictions checked against real re-runs. A tar copy of a real tree
# (/usr/lib/python3.11 or the largest of a few) recorded on a fresh scratch
# ext4 with delalloc (config A); `replay --set delalloc=0` predicts the
# nodelalloc copy from it; the same copy is then run for real with nodelalloc
# (config B) and measured by e2fsck -E fragcheck (fragmented files) and
# filefrag (extents per file). The prediction must be within 10% of both.
# With 3 copies at once (writers taking turns) the model cannot know the page
# order from a delalloc trace: it must say "not modelled", not print a figure.
# The free run of B (same start state, only B's requests) must end with the
# kernel's bitmap on >= 99% of the blocks the run changed (one writer), and
# so must demo copytree's nodelalloc run (16 groups: several stream goals).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs

SRC=
for d in /usr/lib/python3.11 /usr/lib/python3 /usr/include; do
	[ -d "$d" ] && { SRC=$d; break; }
done
[ -n "$SRC" ] || { skip all "no source tree"; exit 0; }

jget() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d=d[k]
print(d)' "$1" "$2" 2>/dev/null
}
# within NAME GOT WANT PCT: |got - want| <= PCT% of want
within() {
	if python3 -c "import sys; g,w=float('$2'),float('$3'); sys.exit(0 if abs(g-w) <= $4/100*w else 1)" \
		2>/dev/null; then
		pass "$1"
	else
		fail "$1" "predicted '$2', real '$3' (more than $4% apart)"
	fi
	echo "$1: predicted $2 real $3" >&2
}

# copy NAME MOUNTOPTS COPIES [MIB]: record K tar copies on a fresh fs (512 MiB), unmount
copy() {
	local name=$1 opts=$2 k=$3 size=${4:-512} cmd="" i
	scratch_fs "$size" ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 ||
		{ fail "$name-setup" "cannot make scratch fs"; return 1; }
	umount "$SCRATCH_MNT" && mount -o "$opts" "$SCRATCH_LOOP" "$SCRATCH_MNT" ||
		{ fail "$name-mount" "mount -o $opts failed"; return 1; }
	for i in $(seq 1 "$k"); do
		mkdir "$SCRATCH_MNT/c$i"
		cmd="$cmd (tar cf - -C $(dirname "$SRC") $(basename "$SRC") | tar xf - -C $SCRATCH_MNT/c$i) &"
	done
	sync
	"$FSLENS" record --full -m "$SCRATCH_MNT" -e alloc,journal,block,dirops -o "$T_TMP/$name.trace" -f \
		-- bash -c "$cmd wait" >"$T_TMP/$name.rec" 2>&1 ||
		{ fail "$name-record" "$(tail -3 "$T_TMP/$name.rec")"; return 1; }
	# extents per inode with blocks, as filefrag counts them (files and directories)
	find "$SCRATCH_MNT" -mindepth 1 \( -type f -o -type d \) -print0 |
		xargs -0 filefrag 2>/dev/null |
		sed -n 's/.*: \([0-9]*\) extents\? found/\1/p' | awk '$1 > 0 {s += $1; n++}
		END {printf "%.4f\n", n ? s / n : 0}' >"$T_TMP/$name.ext"
	scratch_umount
	e2fsck -fn -E fragcheck "$SCRATCH_IMG" 2>&1 | grep ': expecting ' |
		awk -F'(' '{print $1}' | sort -u | wc -l >"$T_TMP/$name.frag"
	return 0
}

if copy A delalloc 1 && copy B nodelalloc 1; then
	"$FSLENS" replay --json --set delalloc=0 "$T_TMP/A.trace" >"$T_TMP/A.json" 2>"$T_TMP/A.err"
	check_eq predict-exit $? 0
	check_ge real-fragmented "$(cat "$T_TMP/B.frag")" 10
	within delalloc0-fragmented-files "$(jget "$T_TMP/A.json" whatif.predicted.fragmented_files)" \
		"$(cat "$T_TMP/B.frag")" 10
	within delalloc0-extents-per-file "$(jget "$T_TMP/A.json" whatif.predicted.extents_per_file)" \
		"$(cat "$T_TMP/B.ext")" 10
	check_eq delalloc0-layout-modelled "$(jget "$T_TMP/A.json" whatif.not_modelled.layout)" ""
	# the journal of a nodelalloc run is not the delalloc run's: said, not guessed
	check_grep delalloc0-journal-refused 'journal.*not modelled' \
		<("$FSLENS" replay --set delalloc=0 "$T_TMP/A.trace" 2>&1)
	"$FSLENS" replay --json --free-run "$T_TMP/B.trace" >"$T_TMP/B.json" 2>"$T_TMP/B.err"
	agree=$(jget "$T_TMP/B.json" fidelity.free_run.end_map_agree_pct)
	echo "free-run end bitmap agreement (one writer, nodelalloc): $agree%" >&2
	if python3 -c "import sys; sys.exit(0 if float('$agree') >= 99 else 1)" 2>/dev/null; then
		pass freerun-end-bitmap
	else
		fail freerun-end-bitmap "end bitmap agreement '$agree'%, want >= 99%"
	fi
fi

# demo copytree with nodelalloc (2000 files over 16 groups, about 30 s): on a
# kernel with several stream goals (s_mb_last_groups, min(CPUs, groups / 4):
# 2 here) files passing mb_stream_req take their slot's group, not the last
# stream group; with one goal the free run ended 97.4% like the kernel's
"$FSLENS" demo copytree --set delalloc=0 --keep -o "$T_TMP/ct" >"$T_TMP/ct.log" 2>&1
check_eq copytree-demo-exit $? 0
ctimg=$(sed -n 's/^kept image: //p' "$T_TMP/ct.log")
[ -n "$ctimg" ] && at_exit "rm -rf $(dirname "$ctimg")"
"$FSLENS" replay --json --free-run "$T_TMP/ct/copytree.trace" >"$T_TMP/ct.json" 2>"$T_TMP/ct.err"
agree=$(jget "$T_TMP/ct.json" fidelity.free_run.end_map_agree_pct)
echo "free-run end bitmap agreement (demo copytree, nodelalloc): $agree%" >&2
if python3 -c "import sys; sys.exit(0 if float('$agree') >= 99 else 1)" 2>/dev/null; then
	pass freerun-end-bitmap-copytree
else
	fail freerun-end-bitmap-copytree "end bitmap agreement '$agree'%, want >= 99%"
fi

if copy A3 delalloc 3; then
	"$FSLENS" replay --json --set delalloc=0 "$T_TMP/A3.trace" >"$T_TMP/A3.json" 2>"$T_TMP/A3.err"
	check_eq predict3-exit $? 0
	check_grep delalloc0-3writers-refused 'writers taking turns' \
		<(jget "$T_TMP/A3.json" whatif.not_modelled.layout)
	"$FSLENS" replay --set delalloc=0 "$T_TMP/A3.trace" >"$T_TMP/A3.txt" 2>&1
	check_grep delalloc0-3writers-no-figure 'extents per file .* \| not modelled' "$T_TMP/A3.txt"
fi
exit $T_FAILS
