#!/bin/bash
# Path calls are judged in the kernel (probes/scope.bpf.h): a target ext4 A
# with another ext4 mounted at A/nested, a bind mount of A, a symlink A/out
# to another ext4 B and B/in back into A, a tmpfs and (if mkfs.xfs is here)
# an XFS. tests/helpers/scope_paths makes relative calls after chdir,
# dirfd-relative *at calls, failed lookups, calls through the bind mount,
# through both symlinks, in a chroot and in a mount namespace of its own,
# and on the nested and other filesystems; each call's path names a token
# and the helper says whether it acts on A. Recorded with -m A in each
# attach mode (and once with -d): every call on A is in the trace, none of
# the others is, every record says how the kernel judged it, and the
# report counts nothing as outside.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
B_=$T_BUILD
HELP=$B_/tests/scope_paths

scratch_fs 128 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
mk_other() {	# name size_mb mountpoint fstype
	truncate -s "$2M" "$T_TMP/$1.img" || return 1
	if [ "$4" = xfs ]; then
		mkfs.xfs -q -f "$T_TMP/$1.img" >/dev/null 2>&1 || return 1
	else
		mkfs.ext4 -q -F "$T_TMP/$1.img" >/dev/null 2>&1 || return 1
	fi
	local l
	l=$(losetup -f --show "$T_TMP/$1.img") || return 1
	at_exit "losetup -d $l"
	mkdir -p "$3" && mount "$l" "$3" || return 1
	at_exit "umount -l $3"
}
B=$T_TMP/b
mk_other b 64 "$B" ext4 || { fail setup "cannot make fs B"; exit 1; }
mk_other n 64 "$A/nested" ext4 || { fail setup "cannot make the nested fs"; exit 1; }
TM=$T_TMP/t
mkdir -p "$TM" && mount -t tmpfs -o size=16m none "$TM" && at_exit "umount -l $TM" ||
	{ fail setup "cannot mount tmpfs"; exit 1; }
X=
if command -v mkfs.xfs >/dev/null 2>&1 && mk_other x 320 "$T_TMP/x" xfs; then
	X=$T_TMP/x
else
	skip xfs_other "no mkfs.xfs or no XFS here: the XFS calls are left out"
fi
mkdir -p "$T_TMP/bind" "$T_TMP/nsb"
mount --bind "$A" "$T_TMP/bind" && at_exit "umount -l $T_TMP/bind" ||
	{ fail setup "cannot bind-mount the target"; exit 1; }
mkdir "$B/outdir" "$A/indir"
ln -s "$B/outdir" "$A/out"
ln -s "$A/indir" "$B/in"

clean() {
	rm -rf "$A/rel" "$A/at" "$A"/t[0-9]* "$A"/indir/* "$A/out_t34" "$A"/nested/* "$B/t64" \
		"$B"/outdir/* "$TM"/* ${X:+"$X"/*}
}

# check NAME TRACE TRUTH
check() {
	local n=$1
	"$FSLENS" dump "$2" 2>/dev/null | grep -E '^ *[0-9.]+ +[0-9]+ +[0-9]+/[0-9]+ +[^ ]+ +dirop ' \
		>"$T_TMP/$n.ops"
	check_ge "${n}_records" "$(wc -l <"$T_TMP/$n.ops")" 30
	local bad_in="" bad_out="" tok w r rec
	while read -r tok w r rec; do
		# a failed call with its error; a create returned its fd
		[ "$r" = 0 ] && r=
		if grep -qF " dirop $rec ret=$r" "$T_TMP/$n.ops"; then
			[ "$w" = 1 ] || bad_out="$bad_out $tok"
		else
			[ "$w" = 0 ] || bad_in="$bad_in $tok"
		fi
	done <"$3"
	check_eq "${n}_target_calls_recorded" "${bad_in:-none missing}" "none missing"
	check_eq "${n}_other_calls_left_out" "${bad_out:-none recorded}" "none recorded"
	check_ge "${n}_cases" "$(wc -l <"$3")" 50
	# every record was judged in the kernel, and how, for a few
	check_eq "${n}_all_judged" "$(grep -vc ' scope=' "$T_TMP/$n.ops")" 0
	check_grep "${n}_stat_by_dev" ' stat "d/t01" .* scope=stat' "$T_TMP/$n.ops"
	check_grep "${n}_create_by_fd" ' create "d/t01/t03" .* scope=fd' "$T_TMP/$n.ops"
	check_grep "${n}_mkdir_by_dir_event" ' mkdir "d/t01" .* scope=dir_event' "$T_TMP/$n.ops"
	check_grep "${n}_failed_by_walk" ' stat "d/none_t06" .* scope=walk' "$T_TMP/$n.ops"
	"$FSLENS" report --json "$2" >"$T_TMP/$n.json" 2>/dev/null
	check_eq "${n}_report_outside" \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ops"]["outside_mount"])' \
		"$T_TMP/$n.json" 2>&1)" 0
}

for mode in default --raw-tp --syscall-tp -d; do
	clean
	opts=(-m "$A")
	case $mode in
	default) ;;
	-d) opts=(-d "$SCRATCH_LOOP") ;;
	*) opts+=("$mode") ;;
	esac
	n=${mode#--}
	n=${n#-}
	"$FSLENS" record "${opts[@]}" -e dirops,proc -f -o "$T_TMP/$n.trace" -- \
		"$HELP" "$A" "$T_TMP/bind" "$T_TMP/nsb" "$B" "$TM" $X >"$T_TMP/$n.truth" 2>"$T_TMP/$n.err"
	rc=$?
	check_eq "${n}_record_exit" "$rc" 0
	[ $rc -eq 0 ] || { tail -5 "$T_TMP/$n.err" >&2; continue; }
	check "$n" "$T_TMP/$n.trace" "$T_TMP/$n.truth"
done
[ $T_FAILS -eq 0 ]
