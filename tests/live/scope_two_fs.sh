#!/bin/bash
# The target and only it: a target ext4 (A) with tests/helpers/data_work on
# it, while other filesystems are busy under distinctive process names: an
# ext4 B (a create storm, fsl_othcreate, and an fsync storm, fsl_othsync), an
# ext4 mounted under A's mount point (A/nested) and a tmpfs, both fsynced by
# fsl_othsync too. Recorded with a command, without one (-m), and with -d:
#  - every data record is a file of A (its dev, data_work's file names),
#    none is by the storms, none is of B, A/nested or the tmpfs;
#  - every block request is on A's loop device;
#  - data_work's counts and bytes in the report equal what its calls returned;
#  - the report's data section and top's READ/WRITE columns show none of the
#    storms' calls.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
case ${BUILD:-build} in /*) B=$BUILD ;; *) B=${TOP:-$PWD}/${BUILD:-build} ;; esac
WORK=$B/tests/data_work

scratch_fs 256 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
ADEV=${SCRATCH_DEV/:/,}
ALOOP=$SCRATCH_LOOP
# B: another ext4; N: an ext4 mounted under A; T: a tmpfs
mk_other() {	# name size_mb mountpoint
	truncate -s "$2M" "$T_TMP/$1.img" && mkfs.ext4 -q -F "$T_TMP/$1.img" >/dev/null 2>&1 || return 1
	local l
	l=$(losetup -f --show "$T_TMP/$1.img") || return 1
	at_exit "losetup -d $l"
	mkdir -p "$3" && mount "$l" "$3" || return 1
	at_exit "umount -l $3"
}
mk_other b 256 "$T_TMP/b" || { fail setup "cannot make fs B"; exit 1; }
mk_other n 64 "$A/nested" || { fail setup "cannot make the nested fs"; exit 1; }
mkdir -p "$T_TMP/t" && mount -t tmpfs -o size=64m none "$T_TMP/t" && at_exit "umount -l $T_TMP/t" ||
	{ fail setup "cannot mount tmpfs"; exit 1; }

# the storms, under their own names
cp "$(command -v bash)" "$T_TMP/fsl_othcreate"
cp "$(python3 -c 'import sys; print(sys.executable)')" "$T_TMP/fsl_othsync"
touch "$T_TMP/run"
at_exit "rm -f $T_TMP/run"
"$T_TMP/fsl_othcreate" -c "i=0; while [ -e $T_TMP/run ]; do : > $T_TMP/b/f\$i; i=\$((i + 1));
	[ \$i -gt 3000 ] && { for f in $T_TMP/b/f*; do unlink \$f 2>/dev/null; done; i=0; }; done" &
at_exit "kill $!"
if ! "$T_TMP/fsl_othsync" -c 'import sys' 2>/dev/null; then
	skip othsync "a copy of python3 does not run here"
else
	"$T_TMP/fsl_othsync" - "$T_TMP" "$A/nested" <<'PY' &
import os, sys
t, nested = sys.argv[1], sys.argv[2]
fds = [os.open(p, os.O_RDWR | os.O_CREAT) for p in (t + "/b/x", nested + "/y", t + "/t/z")]
buf = b"o" * 4096
while os.path.exists(t + "/run"):
    for fd in fds:
        os.pwrite(fd, buf, 0)
        os.read(fd, 100)
        os.fsync(fd)
PY
	at_exit "kill $!"
fi
sleep 1

# check NAME TRACE [TRUTH]: what the trace says is A's and only A's
check_trace() {
	local n=$1 t=$2
	"$FSLENS" dump "$t" >"$T_TMP/$n.dump" 2>/dev/null
	grep -E '^ *[0-9.]+ +[0-9]+ +[0-9]+/[0-9]+ +[^ ]+ +data ' "$T_TMP/$n.dump" >"$T_TMP/$n.data"
	check_ge "${n}_data_records" "$(wc -l <"$T_TMP/$n.data")" 500
	check_eq "${n}_data_all_on_target" "$(grep -vc " dev=$ADEV " "$T_TMP/$n.data")" 0
	check_eq "${n}_data_only_target_files" "$(grep -vcE ' data [a-z_]+ data_(a|b|direct) ' "$T_TMP/$n.data")" 0
	check_eq "${n}_data_none_by_storms" "$(grep -c fsl_oth "$T_TMP/$n.data")" 0
	grep -E ' block_rq_(insert|issue|complete|merge) ' "$T_TMP/$n.dump" >"$T_TMP/$n.blk"
	# blkparse-like: "block_rq_issue MAJ,MIN RWBS sector + n"
	check_ge "${n}_block_records" "$(wc -l <"$T_TMP/$n.blk")" 1
	check_eq "${n}_block_only_target_dev" \
		"$(grep -vc " block_rq_[a-z]* $(lsblk -ndo MAJ:MIN "$ALOOP" | tr -d ' ' | tr : ,) " "$T_TMP/$n.blk")" 0
	"$FSLENS" report --json "$t" >"$T_TMP/$n.json" 2>/dev/null
	python3 - "$T_TMP/$n.json" "${3:-}" <<'PY' >"$T_TMP/$n.cmp"
import json, sys
d = json.load(open(sys.argv[1]))["data"]
procs = [p["comm"] for p in d["procs"]]
print("%s procs %s" % ("BAD" if any(c.startswith("fsl_oth") for c in procs) else "ok", procs))
print("%s outside %d" % ("ok" if d["outside"] == 0 else "BAD", d["outside"]))
if sys.argv[2]:
    for line in open(sys.argv[2]):
        op, cnt, asked, done = line.split()
        g = d["ops"].get(op, {})
        got = (g.get("count", 0), g.get("bytes_asked", 0), g.get("bytes_done", 0))
        want = (int(cnt), int(asked), int(done))
        print("%s %s got=%s want=%s" % ("ok" if got == want else "BAD", op, got, want))
PY
	while read -r st name rest; do
		if [ "$st" = ok ]; then pass "${n}_report_$name"; else fail "${n}_report_$name" "$rest"; fi
	done <"$T_TMP/$n.cmp"
	# top: no storm row with READ or WRITE (the last two columns) above 0
	"$FSLENS" top --replay "$t" -b -a -w 200 >"$T_TMP/$n.top" 2>/dev/null
	check_eq "${n}_top_no_storm_data" \
		"$(awk '/fsl_oth/ && ($(NF) + 0 > 0 || $(NF - 1) + 0 > 0)' "$T_TMP/$n.top" | wc -l)" 0
	# top's files view: data_work's files, none of the storms' (x, y, z)
	"$FSLENS" top --replay "$t" -b -a -w 200 --view files >"$T_TMP/$n.files" 2>/dev/null
	check_grep "${n}_top_files_view" ' data_a$' "$T_TMP/$n.files"
	check_eq "${n}_top_files_only_target" "$(grep -cE ' (x|y|z)$' "$T_TMP/$n.files")" 0
	# top's devices view: the target's disk by name, and no other device
	"$FSLENS" top --replay "$t" -b -a -w 200 --view devices >"$T_TMP/$n.devs" 2>/dev/null
	check_grep "${n}_top_device_by_name" "^ *$(basename "$ALOOP") " "$T_TMP/$n.devs"
	check_eq "${n}_top_devices_only_target" \
		"$(grep -cE '^ *(loop[0-9]+|[0-9]+:[0-9]+) ' "$T_TMP/$n.devs" | tr -d ' ')" \
		"$(grep -cE "^ *$(basename "$ALOOP") " "$T_TMP/$n.devs" | tr -d ' ')"
}

# 1. with a command
"$FSLENS" record -m "$A" -o "$T_TMP/cmd.trace" -- "$WORK" "$A" >"$T_TMP/cmd.truth" 2>"$T_TMP/cmd.err"
check_eq cmd_record_exit "$?" 0
check_trace cmd "$T_TMP/cmd.trace" "$T_TMP/cmd.truth"

# 2. without a command (-m), 3. the same with -d: data_work runs inside the recording
for how in m d; do
	if [ $how = m ]; then tgt=(-m "$A"); else tgt=(-d "$ALOOP"); fi
	"$FSLENS" record "${tgt[@]}" --duration 4 -o "$T_TMP/$how.trace" 2>"$T_TMP/$how.err" &
	rp=$!
	for i in $(seq 1 100); do grep -q recording "$T_TMP/$how.err" && break; sleep 0.1; done
	sleep 0.5
	"$WORK" "$A" >"$T_TMP/$how.truth"
	wait $rp
	check_eq "${how}_record_exit" "$?" 0
	check_trace "$how" "$T_TMP/$how.trace" "$T_TMP/$how.truth"
done
rm -f "$T_TMP/run"
[ $T_FAILS -eq 0 ]
