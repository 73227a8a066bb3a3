#!/bin/bash
# Allocator tunable what-ifs checked against real runs: a tar copy of a real
# tree (/usr/lib/python3.11 or the largest of a few) onto a fresh scratch
# ext4 with nodelalloc (blocks chosen page by page at write time: the small
# files' locality-group preallocations and the switch to stream allocation
# at mb_stream_req decide the breaks), default tunables (A); `replay --set`
# predicts B from A's trace, B run for real:
#  - mb_stream_req=32: files stay in the locality group to 32 blocks;
#  - mb_group_prealloc=64: the group preallocations are 64 blocks, not 512.
# Fragmented files (e2fsck -E fragcheck) and extents per file (filefrag)
# within 10%. Both tars run on one CPU: the locality group is per CPU, and
# a writer moved between CPUs mid-file breaks it at a point no trace of
# another run can know (unpinned, B's own count moves by 2 of 25 per run).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
. "$(dirname "$0")/../helpers/whatif.sh"
WI_FAMILIES=alloc,journal,block,dirops,proc

SRC=
for d in /usr/lib/python3.11 /usr/lib/python3 /usr/include; do
	[ -d "$d" ] && { SRC=$d; break; }
done
[ -n "$SRC" ] || { skip all "no source tree"; exit 0; }
CPU=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')
COPY="taskset -c $CPU tar cf - -C $(dirname "$SRC") $(basename "$SRC") | taskset -c $CPU tar xf - -C @M@/d"
MK="-b 4096 -E lazy_itable_init=0,lazy_journal_init=0"

# copy NAME TUNABLE=VALUE|"": record the copy with that tunable in sysfs,
# then the real figures: NAME.frag (files e2fsck breaks), NAME.ext (extents per file)
copy() {
	local name=$1 tun=$2
	WI_KEEP_MOUNTED=1 WI_TUNE=$tun wi_run "$name" "$MK" nodelalloc "$COPY" 512 || return 1
	find "$WI_MNT" -mindepth 1 \( -type f -o -type d \) -print0 | xargs -0 filefrag 2>/dev/null |
		sed -n 's/.*: \([0-9]*\) extents\? found/\1/p' |
		awk '$1 > 0 {s += $1; n++} END {printf "%.4f\n", n ? s / n : 0}' >"$T_TMP/$name.ext"
	umount "$WI_MNT"
	e2fsck -fn -E fragcheck "$T_TMP/$name.img" 2>&1 | grep ': expecting ' |
		awk -F'(' '{print $1}' | sort -u | wc -l >"$T_TMP/$name.frag"
}

copy A "" || exit $T_FAILS
check_ge A-fragmented "$(cat "$T_TMP/A.frag")" 20
for kv in mb_stream_req=32 mb_group_prealloc=64; do
	k=${kv%%=*}
	copy "$k" "$kv" || continue
	"$FSLENS" replay --json --set "$kv" "$T_TMP/A.trace" >"$T_TMP/$k.w.json" 2>&1
	check_eq "$k-predict-exit" $? 0
	check_eq "$k-layout-modelled" "$(jget "$T_TMP/$k.w.json" whatif.not_modelled.layout)" ""
	within "$k-fragmented-files" "$(jget "$T_TMP/$k.w.json" whatif.predicted.fragmented_files)" \
		"$(cat "$T_TMP/$k.frag")" 10
	within "$k-extents-per-file" "$(jget "$T_TMP/$k.w.json" whatif.predicted.extents_per_file)" \
		"$(cat "$T_TMP/$k.ext")" 10
done
# the knobs did change the layout (else the checks above prove nothing)
check_le mb_stream_req-fewer-fragmented "$(cat "$T_TMP/mb_stream_req.frag")" \
	$(( $(cat "$T_TMP/A.frag") / 2 ))
exit $T_FAILS
