# Sourced by tests/live/whatif_*.sh (after tests/lib.sh): a configuration
# recorded on a fresh scratch ext4, and the checks of a prediction.
#   wi_run NAME "MKFS OPTS" "MOUNT OPTS" "COMMAND" [SIZE_MB]
# records COMMAND (@M@ = the mount point) with the families the replay and
# the report read ($WI_FAMILIES, default alloc,journal,block,dirops,offcpu,
# proc; proc always: without it the workload's child processes, its sync
# among them, are not known as the workload's) to $T_TMP/NAME.trace, then
# unmounts (the image stays at
# $T_TMP/NAME.img for debugfs/e2fsck). $T_TMP/NAME.jbd2 is the change of
# /proc/fs/jbd2/DEV/info "transactions" over the run (independent truth).
wi_run() {
	local name=$1 mk=$2 mo=$3 cmd=$4 size=${5:-256} img=$T_TMP/$1.img mnt=$T_TMP/$1.mnt
	local loop jd tx0 tx1

	truncate -s "${size}M" "$img" || return 1
	# shellcheck disable=SC2086
	mkfs.ext4 -q -F $mk "$img" >/dev/null 2>&1 || { fail "$name-mkfs" "mkfs.ext4 $mk"; return 1; }
	loop=$(losetup -f --show "$img") || { fail "$name-loop" "losetup"; return 1; }
	at_exit "losetup -d $loop"
	mkdir -p "$mnt"
	mount ${mo:+-o "$mo"} "$loop" "$mnt" || { fail "$name-mount" "mount -o $mo"; return 1; }
	at_exit "umount -l $mnt"
	mkdir "$mnt/d"
	# WI_TUNE=name=value: an ext4 tunable of this mount (/sys/fs/ext4/DEV/)
	if [ -n "${WI_TUNE:-}" ]; then
		echo "${WI_TUNE#*=}" >"/sys/fs/ext4/$(basename "$loop")/${WI_TUNE%%=*}" ||
			{ fail "$name-tune" "cannot set $WI_TUNE"; return 1; }
	fi
	sync
	# every group's buddy in memory, as on a long-mounted filesystem
	cat "/proc/fs/ext4/$(basename "$loop")/mb_groups" >/dev/null
	jd=/proc/fs/jbd2/$(basename "$loop")-8/info
	tx0=$(sed -n 's/^\([0-9]*\) transactions.*/\1/p' "$jd")
	if ! "$FSLENS" record --full -m "$mnt" -e "${WI_FAMILIES:-alloc,journal,block,dirops,offcpu,proc}" \
		-o "$T_TMP/$name.trace" -f -- bash -c "${cmd//@M@/$mnt}" \
		>"$T_TMP/$name.rec" 2>&1; then
		fail "$name-record" "$(tail -3 "$T_TMP/$name.rec")"
		return 1
	fi
	tx1=$(sed -n 's/^\([0-9]*\) transactions.*/\1/p' "$jd")
	echo $((tx1 - tx0)) >"$T_TMP/$name.jbd2"
	WI_MNT=$mnt
	[ -n "${WI_KEEP_MOUNTED:-}" ] && return 0
	umount "$mnt"
}
# jget FILE a.b.c: a JSON field ("" when absent or null)
jget() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d=d[k]
print("" if d is None else d)' "$1" "$2" 2>/dev/null
}
# within NAME PREDICTED REAL PCT [ABS]: |predicted - real| <= PCT% of real,
# or <= ABS (a count the real run itself varies by from run to run) (the
# figures go to stderr for VERBOSE=1 runs and the closing note)
within() {
	local err
	err=$(python3 -c "g,w=float('$2'),float('$3'); print('%.1f' % (100*abs(g-w)/w if w else (0 if g == w else 100)))" 2>/dev/null)
	echo "$1: predicted $2 real $3 (error ${err:-?}%)" >&2
	if python3 -c "import sys; sys.exit(0 if float('$err') <= $4 or abs(float('$2') - float('$3')) <= float('${5:-0}') else 1)" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "predicted '$2', real '$3' (more than $4% apart)"
	fi
}
# share_of JSON CLASS: the report's share (%) of the workload's blocked time in CLASS
share_of() {
	python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))
print("%.2f" % (100*sum(c["share"] for c in r["causes"] if c["class"]==sys.argv[2])))' "$1" "$2" 2>/dev/null
}
