#!/bin/bash
# Off-CPU waits count for the target iff they wait on it (issue 13 item 3).
# The target: an ext4 A with an fsync storm of its own (fsl_tgtsync). At the
# same time other filesystems are busy under distinctive names: an ext4 B (a
# create storm fsl_othcreate and an fsync storm fsl_othsync), an ext4 N
# mounted under A's mount point (A/nested) and an XFS X, both fsynced by
# fsl_othsync too. Recorded with -m and no command, and with a command:
#  - fsl_tgtsync's blocked time in the report equals an independent bpftrace
#    tally of its uninterruptible sleeps (same 100 us threshold) within 2%;
#  - the storms' names and the other filesystems' devices and journal
#    threads appear nowhere in the report, its JSON or top, except on the
#    "other filesystems" line (JSON blocked.other_fs), which sums at least
#    every wait the trace holds of the storms and names B's and X's devices.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip bpftrace "bpftrace not installed"; exit 0; }
command -v mkfs.xfs >/dev/null || { skip xfs "mkfs.xfs not installed"; exit 0; }
PY=$(python3 -c 'import sys; print(sys.executable)')

scratch_fs 256 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
ALOOP=$SCRATCH_LOOP
mk_other() {	# name size_mb mountpoint fstype
	truncate -s "$2M" "$T_TMP/$1.img" || return 1
	if [ "$4" = xfs ]; then mkfs.xfs -q -f "$T_TMP/$1.img" >/dev/null 2>&1 || return 1
	else mkfs.ext4 -q -F "$T_TMP/$1.img" >/dev/null 2>&1 || return 1; fi
	local l
	l=$(losetup -f --show "$T_TMP/$1.img") || return 1
	at_exit "losetup -d $l"
	mkdir -p "$3" && mount "$l" "$3" || return 1
	at_exit "umount -l $3"
	eval "${1^^}LOOP=$l"
}
mk_other b 256 "$T_TMP/b" ext4 || { fail setup "cannot make fs B"; exit 1; }
mk_other n 64 "$A/nested" ext4 || { fail setup "cannot make the nested fs"; exit 1; }
mk_other x 320 "$T_TMP/x" xfs || { fail setup "cannot make the XFS"; exit 1; }
OTHERS="$(basename "$BLOOP")|$(basename "$NLOOP")|$(basename "$XLOOP")"

cp "$(command -v bash)" "$T_TMP/fsl_othcreate"
cp "$PY" "$T_TMP/fsl_othsync"
cp "$PY" "$T_TMP/fsl_tgtsync"
"$T_TMP/fsl_tgtsync" -c 'import os, sys' || { skip copy "a copy of python3 does not run here"; exit 0; }
touch "$T_TMP/run"
at_exit "rm -f $T_TMP/run"
for d in b x; do
	"$T_TMP/fsl_othcreate" -c "i=0; while [ -e $T_TMP/run ]; do : > $T_TMP/$d/f\$i; i=\$((i + 1));
		[ \$i -gt 3000 ] && { rm -f $T_TMP/$d/f*; i=0; }; done" &
	at_exit "kill $!"
done
"$T_TMP/fsl_othsync" - "$T_TMP" "$A/nested" <<'PY' &
import os, sys
t, nested = sys.argv[1], sys.argv[2]
fds = [os.open(p, os.O_RDWR | os.O_CREAT) for p in (t + "/b/s", nested + "/s", t + "/x/s")]
buf = b"o" * 4096
while os.path.exists(t + "/run"):
    for fd in fds:
        os.pwrite(fd, buf, 0)
        os.fsync(fd)
PY
at_exit "kill $!"
sleep 1

# the target's workload: 400 fsyncs of 4 KiB writes on A (its imports were
# read above, so it sleeps on A and on nothing else)
TGT=(-c "import os
fd = os.open('$A/t', os.O_RDWR | os.O_CREAT)
for i in range(400):
    os.pwrite(fd, b't' * 4096, (i % 64) * 4096)
    os.fsync(fd)
os.close(fd)")

# bpftrace: the target workload's uninterruptible sleeps of 100 us or more
tally_start() {
	cat >"$T_TMP/off.bt" <<'BT'
tracepoint:sched:sched_switch
/args->prev_comm == "fsl_tgtsync" && args->prev_state == 2/
{ @ts[args->prev_pid] = nsecs; }
tracepoint:sched:sched_switch
/@ts[args->next_pid]/
{ $d = nsecs - @ts[args->next_pid];
  if ($d >= 100000) { @ns = sum($d); @n = count(); }
  delete(@ts[args->next_pid]); }
END { clear(@ts); }
BT
	bpftrace "$T_TMP/off.bt" >"$1" 2>"$1.err" &
	BT_PID=$!
	at_exit "kill $BT_PID 2>/dev/null"
	for _ in $(seq 1 100); do
		grep -q Attaching "$1" "$1.err" 2>/dev/null && break
		sleep 0.1
	done
}
tally_stop() {
	local i
	kill -INT "$BT_PID" 2>/dev/null
	for i in $(seq 1 300); do kill -0 "$BT_PID" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$BT_PID" 2>/dev/null && { kill -TERM "$BT_PID"; sleep 2; kill -KILL "$BT_PID" 2>/dev/null; }
	wait "$BT_PID" 2>/dev/null
}

# check NAME TRACE BPFTRACE_OUT STORMS (1: the storms' tasks are recorded)
check_trace() {
	local n=$1 t=$2
	"$FSLENS" report "$t" >"$T_TMP/$n.txt" 2>"$T_TMP/$n.rerr"
	check_eq "${n}_report_exit" "$?" 0
	"$FSLENS" report --json "$t" >"$T_TMP/$n.json" 2>/dev/null
	"$FSLENS" top --replay "$t" -b -a -w 200 >"$T_TMP/$n.top" 2>/dev/null
	"$FSLENS" top --replay "$t" -b -a -w 200 --view stalls >"$T_TMP/$n.stalls" 2>/dev/null
	"$FSLENS" dump "$t" >"$T_TMP/$n.dump" 2>/dev/null
	# the report without its "other filesystems" line (and its wrapped devices)
	awk '/^  other filesystems/ { skip = 1; next } skip && /^    / { next } { skip = 0; print }' \
		"$T_TMP/$n.txt" >"$T_TMP/$n.rest"
	# with the storms recorded the line must be there; with a command (the
	# storms not recorded) it is there iff the trace holds any other
	# filesystem's wait (a kernel thread's read of the root disk, or none)
	local want_line=1
	if [ "$4" = 0 ]; then
		want_line=$(python3 -c 'import json, sys
b = json.load(open(sys.argv[1])).get("blocked") or {}
print(int(((b.get("other_fs") or {}).get("waits") or 0) > 0))' "$T_TMP/$n.json")
	fi
	if [ "$want_line" = 1 ]; then
		check_grep "${n}_other_fs_line" '^  other filesystems \(not the target, not ranked\): [1-9]' \
			"$T_TMP/$n.txt"
	else
		check_eq "${n}_no_other_fs_line" "$(grep -c '^  other filesystems' "$T_TMP/$n.txt")" 0
	fi
	check_eq "${n}_report_no_storm_names" "$(grep -cE 'fsl_oth' "$T_TMP/$n.rest")" 0
	check_eq "${n}_report_no_other_devices" "$(grep -cE "jbd2/|\\b($OTHERS)\\b" "$T_TMP/$n.rest" |
		tr -d ' ')" "$(grep -cE "jbd2/$(basename "$ALOOP")-" "$T_TMP/$n.rest")"
	# top: no storm or other journal thread with blocked time (BLKms), none in the stalls view
	check_eq "${n}_top_no_storm_waits" \
		"$(awk -v re="^(fsl_oth|jbd2/($OTHERS)-)" '$2 ~ re && $3 + 0 > 0' "$T_TMP/$n.top" | wc -l)" 0
	check_eq "${n}_top_stalls_no_storm" "$(grep -cE "fsl_oth|jbd2/($OTHERS)-" "$T_TMP/$n.stalls")" 0
	python3 - "$T_TMP/$n.json" "$3" "$T_TMP/$n.dump" "$(basename "$BLOOP")" \
		"$(basename "$XLOOP")" "$(basename "$ALOOP")" "$4" <<'PYC' >"$T_TMP/$n.cmp"
import json, re, sys
r = json.load(open(sys.argv[1]))
bt = open(sys.argv[2]).read()
bloop, xloop, aloop, storms = sys.argv[4:8]
m = re.search(r"^@ns: (\d+)", bt, re.M)
want = int(m.group(1)) if m else -1
procs = r.get("processes", [])
got = sum(p["blocked_ns"] for p in procs if p["comm"] == "fsl_tgtsync")
d = abs(got - want)
# what the trace holds of the same sleeps, before the scope rules: tells a
# recording gap from a wait the rules gave to another filesystem
held = n_held = 0
for line in open(sys.argv[3]):
    f = line.split()
    if len(f) > 5 and f[4] == "offcpu" and f[3] == "fsl_tgtsync":
        mm = re.search(r" dur_ns=(\d+) ", line)
        st = re.search(r" state=(\d+) ", line)
        if mm and st and int(st.group(1)) & 2 and int(mm.group(1)) >= 100000:
            held += int(mm.group(1))
            n_held += 1
mn = re.search(r"^@n: (\d+)", bt, re.M)
print("%s target_blocked fslens=%d bpftrace=%d in %s sleeps (%.2f%%); the trace holds %d such "
      "sleeps, %d ns" % ("ok" if want > 0 and d <= want * 0.02 else "BAD", got, want,
                         mn.group(1) if mn else "?", 100.0 * d / max(want, 1), n_held, held))
# path operations on A/nested still name fsl_othsync (judged by path: item 1 of
# the issue); its waits must not
bad = ["%s %d ns" % (p["comm"], p["blocked_ns"]) for p in procs if p["blocked_ns"] and
       (p["comm"].startswith("fsl_oth") or
        (p["comm"].startswith("jbd2/") and not p["comm"].startswith("jbd2/" + aloop + "-")))]
print("%s processes_blocked_only_target %s" % ("BAD" if bad else "ok", bad))
comms = [s.get("comm", "") for c in r.get("causes", []) for s in c.get("stacks", [])]
bad = [c for c in comms if c.startswith("fsl_oth")]
print("%s cause_stacks_no_storm %s" % ("BAD" if bad else "ok", bad))
o = r["blocked"]["other_fs"]
names = [x["name"] for x in o["devices"]]
if storms == "1":
    print("%s other_fs_names_b_and_x %s" % ("ok" if bloop in names and xloop in names else "BAD",
          names))
print("%s other_fs_not_target %s" % ("BAD" if aloop in names else "ok", names))
# every wait of the storms the trace holds is on the other filesystems' line
storm = 0
for line in open(sys.argv[3]):
    f = line.split()
    if len(f) > 5 and f[4] == "offcpu" and f[3].startswith("fsl_oth"):
        mm = re.search(r" dur_ns=(\d+) ", line)
        st = re.search(r" state=(\d+) ", line)
        if mm and st and int(st.group(1)) & 2:
            storm += int(mm.group(1))
tot = o["workload_ns"] + o["kthread_ns"] + o["other_ns"]
print("%s other_fs_holds_storms other_fs=%d storms=%d" %
      ("ok" if (storm > 0 or storms != "1") and tot >= storm else "BAD", tot, storm))
PYC
	while read -r st name rest; do
		if [ "$st" = ok ]; then pass "${n}_$name"; else fail "${n}_$name" "$rest"; fi
		echo "# $n $name $rest"
	done <"$T_TMP/$n.cmp"
}

# 1. -m, no command: every task that is not a kernel thread is the workload
tally_start "$T_TMP/m.bt"
"$FSLENS" record -m "$A" -o "$T_TMP/m.trace" 2>"$T_TMP/m.err" &
rp=$!
for _ in $(seq 1 100); do grep -q recording "$T_TMP/m.err" && break; sleep 0.1; done
sleep 0.5
"$T_TMP/fsl_tgtsync" "${TGT[@]}"
sleep 0.5
kill -INT $rp
wait $rp
check_eq m_record_exit "$?" 0
tally_stop
check_trace m "$T_TMP/m.trace" "$T_TMP/m.bt" 1

# 2. with the workload as the command
tally_start "$T_TMP/cmd.bt"
"$FSLENS" record -m "$A" -o "$T_TMP/cmd.trace" -- "$T_TMP/fsl_tgtsync" "${TGT[@]}" 2>"$T_TMP/cmd.err"
check_eq cmd_record_exit "$?" 0
tally_stop
check_trace cmd "$T_TMP/cmd.trace" "$T_TMP/cmd.bt" 0
rm -f "$T_TMP/run"
[ $T_FAILS -eq 0 ]
