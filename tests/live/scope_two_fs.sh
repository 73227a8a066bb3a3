#!/bin/bash
# The target and only it: a target ext4 (A) with tests/helpers/data_work on
# it, while other filesystems are busy under distinctive process names: an
# ext4 B, an ext4 mounted under A's mount point (A/nested), a tmpfs and (if
# mkfs.xfs is here) an XFS, each with a create storm (fsl_othcreate: creates,
# stats, renames and unlinks) and an fsync storm (fsl_othsync: pwrite, read,
# fsync). Recorded with a command, without one (-m), with -d, and with
# --cgroup (data_work in a cgroup of a cgroup2 hierarchy mounted here):
#  - no path operation of the storms, nor any on B, the nested fs, the tmpfs
#    or the XFS; every path operation by data_work on A is there;
#  - every data record is a file of A (its dev, data_work's file names),
#    none is by the storms; data_work's counts and bytes in the report equal
#    what its calls returned;
#  - every block request is on A's loop device; every writeback record is
#    A's disk's;
#  - waits: none of the storms' is among the report's causes, stacks or
#    process totals; the other filesystems' waits are on the report's
#    other_fs line only, with their devices;
#  - kernel-thread evidence: no jbd2 thread, XFS thread or loop worker of
#    another filesystem is in the report's causes or processes;
#  - top shows none of the storms (processes view), none of their files
#    (files view) and no other device (devices view);
#  - with --cgroup, nothing of a task outside the cgroup at all.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
B=$T_BUILD
WORK=$B/tests/data_work

scratch_fs 256 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
ADEV=${SCRATCH_DEV/:/,}
ALOOP=$SCRATCH_LOOP
ADISK=$(lsblk -ndo MAJ:MIN "$ALOOP" | tr -d ' ' | tr : ,)
OTHER_LOOPS=()
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
	OTHER_LOOPS+=("$(basename "$l")")
	mkdir -p "$3" && mount "$l" "$3" || return 1
	at_exit "umount -l $3"
}
mk_other b 256 "$T_TMP/b" ext4 || { fail setup "cannot make fs B"; exit 1; }
mk_other n 64 "$A/nested" ext4 || { fail setup "cannot make the nested fs"; exit 1; }
mkdir -p "$T_TMP/t" && mount -t tmpfs -o size=64m none "$T_TMP/t" && at_exit "umount -l $T_TMP/t" ||
	{ fail setup "cannot mount tmpfs"; exit 1; }
OTHERS=("$T_TMP/b" "$A/nested" "$T_TMP/t")
if command -v mkfs.xfs >/dev/null 2>&1 && mk_other x 320 "$T_TMP/x" xfs; then
	OTHERS+=("$T_TMP/x")
else
	skip xfs_other "no mkfs.xfs or no XFS here: no XFS among the other filesystems"
fi

# the storms, under their own names, on every other filesystem
cp "$(command -v bash)" "$T_TMP/fsl_othcreate"
cp "$(python3 -c 'import sys; print(sys.executable)')" "$T_TMP/fsl_othsync"
touch "$T_TMP/run"
at_exit "rm -f $T_TMP/run"
for o in "${OTHERS[@]}"; do
	"$T_TMP/fsl_othcreate" -c "i=0; while [ -e $T_TMP/run ]; do : > $o/f\$i; [ -e $o/f\$i ];
		mv $o/f\$i $o/g\$i 2>/dev/null; i=\$((i + 1));
		[ \$i -gt 1000 ] && { for f in $o/g*; do unlink \$f 2>/dev/null; done; i=0; }; done" &
	at_exit "kill $!"
done
if ! "$T_TMP/fsl_othsync" -c 'import sys' 2>/dev/null; then
	skip othsync "a copy of python3 does not run here"
else
	"$T_TMP/fsl_othsync" - "$T_TMP/run" "${OTHERS[@]}" <<'PY' &
import os, sys
run, dirs = sys.argv[1], sys.argv[2:]
fds = [os.open(d + "/sync", os.O_RDWR | os.O_CREAT) for d in dirs]
buf = b"o" * 4096
while os.path.exists(run):
    for fd in fds:
        os.pwrite(fd, buf, 0)
        os.read(fd, 100)
        os.fsync(fd)
PY
	at_exit "kill $!"
fi
sleep 1

# check NAME TRACE TRUTH [cgroup]: what the trace says is A's and only A's
check_trace() {
	local n=$1 t=$2 o l
	"$FSLENS" dump "$t" >"$T_TMP/$n.dump" 2>/dev/null
	grep -E '^ *[0-9.]+ +[0-9]+ +[0-9]+/[0-9]+ +[^ ]+ +data ' "$T_TMP/$n.dump" >"$T_TMP/$n.data"
	check_ge "${n}_data_records" "$(wc -l <"$T_TMP/$n.data")" 500
	check_eq "${n}_data_all_on_target" "$(grep -vc " dev=$ADEV " "$T_TMP/$n.data")" 0
	check_eq "${n}_data_only_target_files" "$(grep -vcE ' data [a-z_]+ data_(a|b|direct) ' "$T_TMP/$n.data")" 0
	check_eq "${n}_data_none_by_storms" "$(grep -c fsl_oth "$T_TMP/$n.data")" 0
	# path operations: data_work's opens of its files, nothing of the storms or elsewhere
	grep -E '^ *[0-9.]+ +[0-9]+ +[0-9]+/[0-9]+ +[^ ]+ +dirop ' "$T_TMP/$n.dump" >"$T_TMP/$n.ops"
	check_eq "${n}_ops_data_work_creates" \
		"$(grep -cE " data_work +dirop create \"$A/data_(a|b|direct)\" " "$T_TMP/$n.ops")" 3
	check_eq "${n}_ops_none_by_storms" "$(grep -c fsl_oth "$T_TMP/$n.ops")" 0
	for o in "${OTHERS[@]}"; do
		check_eq "${n}_ops_none_in_$(basename "$o")" "$(grep -cF "\"$o/" "$T_TMP/$n.ops")" 0
	done
	grep -E ' block_rq_(insert|issue|complete|merge) ' "$T_TMP/$n.dump" >"$T_TMP/$n.blk"
	# blkparse-like: "block_rq_issue MAJ,MIN RWBS sector + n"
	check_ge "${n}_block_records" "$(wc -l <"$T_TMP/$n.blk")" 1
	check_eq "${n}_block_only_target_dev" "$(grep -vc " block_rq_[a-z]* $ADISK " "$T_TMP/$n.blk")" 0
	# writeback: A's disk's bdi only (global_dirty_state is the machine's)
	grep -E ' writeback_[a-z_]+ | balance_dirty_pages ' "$T_TMP/$n.dump" >"$T_TMP/$n.wb"
	check_ge "${n}_writeback_records" "$(wc -l <"$T_TMP/$n.wb")" 1
	check_eq "${n}_writeback_only_target" "$(grep -vc " dev=$ADISK " "$T_TMP/$n.wb")" 0
	# waits and kernel threads of the storms and of the other filesystems
	# (without --cgroup the storms' waits are recorded, marked: the report sums them apart)
	[ -n "${4:-}" ] && check_eq "${n}_waits_none_by_storms_in_trace" \
		"$(grep -E ' offcpu ' "$T_TMP/$n.dump" | grep -c fsl_oth)" 0
	"$FSLENS" report --json "$t" >"$T_TMP/$n.json" 2>/dev/null
	python3 - "$T_TMP/$n.json" "$3" "${OTHER_LOOPS[*]}" <<'PY' >"$T_TMP/$n.cmp"
import json, re, sys
j = json.load(open(sys.argv[1]))
loops = [re.compile(r"(^|[/+-])%s($|[^0-9])" % l) for l in sys.argv[3].split()]
d = j["data"]
procs = [p["comm"] for p in d["procs"]]
print("%s data_procs %s" % ("BAD" if any(c.startswith("fsl_oth") for c in procs) else "ok", procs))
print("%s data_outside %d" % ("ok" if d["outside"] == 0 else "BAD", d["outside"]))
for line in open(sys.argv[2]):
    op, cnt, asked, done = line.split()
    g = d["ops"].get(op, {})
    got = (g.get("count", 0), g.get("bytes_asked", 0), g.get("bytes_done", 0))
    want = (int(cnt), int(asked), int(done))
    print("%s data_%s got=%s want=%s" % ("ok" if got == want else "BAD", op, got, want))
# a thread of another filesystem: its jbd2 thread, XFS's workers, its loop worker
def foreign(comm):
    return comm.startswith("fsl_oth") or "xfs" in comm or any(l.search(comm) for l in loops)
stacks = [s["comm"] for c in j["causes"] for s in c["stacks"]]
bad = [c for c in stacks if foreign(c)]
print("%s cause_stacks_only_target %s" % ("BAD" if bad else "ok", bad or len(stacks)))
bad = [c["class"] for c in j["causes"] if any(l.search(c.get("evidence") or "") for l in loops)]
print("%s cause_evidence_only_target %s" % ("BAD" if bad else "ok", bad))
bad = ["%s:%d" % (p["comm"], p["blocked_ns"]) for p in j["processes"]
       if foreign(p["comm"]) and (p["blocked_ns"] or p["ops"] or p["read_bytes"] or p["write_bytes"])]
print("%s processes_no_foreign %s" % ("BAD" if bad else "ok", bad))
print("%s wait_classes_counted %d" % ("ok" if j["blocked"]["waits"] > 0 else "BAD", j["blocked"]["waits"]))
PY
	while read -r st name rest; do
		if [ "$st" = ok ]; then pass "${n}_report_$name"; else fail "${n}_report_$name" "$rest"; fi
	done <"$T_TMP/$n.cmp"
	# top, processes view: none of the storms, nor another filesystem's thread
	"$FSLENS" top --replay "$t" -b -a -w 200 >"$T_TMP/$n.top" 2>/dev/null
	check_grep "${n}_top_data_work" ' data_work ' "$T_TMP/$n.top"
	check_eq "${n}_top_no_storm" "$(grep -c fsl_oth "$T_TMP/$n.top")" 0
	for l in "${OTHER_LOOPS[@]}"; do
		check_eq "${n}_top_no_thread_of_$l" "$(grep -cE "[/+-]$l([^0-9]|$)" "$T_TMP/$n.top")" 0
	done
	# top's files view: data_work's files, none of the storms' (f*, g*, sync)
	"$FSLENS" top --replay "$t" -b -a -w 200 --view files >"$T_TMP/$n.files" 2>/dev/null
	check_grep "${n}_top_files_view" ' data_a$' "$T_TMP/$n.files"
	check_eq "${n}_top_files_only_target" "$(grep -cE ' (sync|[fg][0-9]+)$' "$T_TMP/$n.files")" 0
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

# record_during NAME OPTIONS...: data_work runs inside a 4 s recording ($PRE runs it)
record_during() {
	local how=$1 rp
	shift
	"$FSLENS" record "$@" --duration 4 -o "$T_TMP/$how.trace" 2>"$T_TMP/$how.err" &
	rp=$!
	for i in $(seq 1 100); do grep -q recording "$T_TMP/$how.err" && break; sleep 0.1; done
	sleep 0.5
	${PRE:-} "$WORK" "$A" >"$T_TMP/$how.truth"
	wait $rp
	check_eq "${how}_record_exit" "$?" 0
}

# 2. without a command (-m), 3. the same with -d
record_during m -m "$A"
check_trace m "$T_TMP/m.trace" "$T_TMP/m.truth"
record_during d -d "$ALOOP"
check_trace d "$T_TMP/d.trace" "$T_TMP/d.truth"

# 4. --cgroup: data_work alone in a cgroup of a cgroup2 hierarchy mounted here
mkdir -p "$T_TMP/cg"
if mount -t cgroup2 none "$T_TMP/cg" 2>/dev/null; then
	at_exit "umount -l $T_TMP/cg"
	mkdir -p "$T_TMP/cg/fsltgt"
	at_exit "rmdir $T_TMP/cg/fsltgt"
	cat >"$T_TMP/incg" <<EOF
#!/bin/sh
echo \$\$ > $T_TMP/cg/fsltgt/cgroup.procs && exec "\$@"
EOF
	chmod +x "$T_TMP/incg"
	PRE=$T_TMP/incg record_during cg -m "$A" --cgroup "$T_TMP/cg/fsltgt"
	check_trace cg "$T_TMP/cg.trace" "$T_TMP/cg.truth" cgroup
	# nothing of a task outside the cgroup: data_work (and its shell before exec),
	# and the target's kernel threads (its jbd2 thread, its workers)
	check_eq cg_only_its_tasks "$(grep -E '^ *[0-9.]+ +[0-9]+ +[0-9]+/[0-9]+ +[^ ]+ +(dirop|data|offcpu) ' \
		"$T_TMP/cg.dump" | awk '{print $4}' | sort -u |
		grep -vxE "data_work|incg|jbd2/$(basename "$ALOOP")-8|kworker/.*" | tr '\n' ' ')" ""
	# the processes' cgroup: in the report and in top's CGROUP column
	check_eq cg_report_cgroup "$(python3 -c 'import json,sys
print(" ".join(sorted(set(p["cgroup"] or "" for p in json.load(open(sys.argv[1]))["processes"]
                          if p["comm"] == "data_work"))))' "$T_TMP/cg.json")" "/fsltgt"
	check_grep cg_top_cgroup_column ' data_work .* /fsltgt *$' "$T_TMP/cg.top"
else
	skip cgroup "cannot mount a cgroup2 hierarchy here"
fi
rm -f "$T_TMP/run"
[ $T_FAILS -eq 0 ]
