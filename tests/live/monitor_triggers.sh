#!/bin/bash
# fslens_journal_commits_total{trigger} against independent truth, one
# trigger at a time, on two ext4 watched by one monitor (both -m). A
# bpftrace script records the two journal threads' wake-ups with the
# waker's stack and every commit's start and run stats; tests/helpers/
# jbd2_kicks.py names each commit with the report's kick rules. In each
# phase the monitor's count of every trigger equals that tally, and:
#  - timer (A, commit=1): a file touched every 1.6 s; /proc/fs/jbd2's
#    commits not requested are timer commits;
#  - fsync (A): N small files written and fsynced: N commits, N requested
#    (/proc), N ext4_sync_file_enter (bpftrace);
#  - sync (A): K files touched, each followed by syncfs: K requested commits;
#  - full and log_space (B: 4 MiB journal, commit=60): a create storm (and
#    createmany's own sync(2) at its end); the monitor's counts also equal
#    those of `fslens report` on a recording of it.
# The monitor learns the journal threads at its start (the first kick of
# each is named, not only those after its first commit).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip all "no bpftrace"; exit 0; }
N=${TRIG_FSYNCS:-12}
K=${TRIG_SYNCS:-6}
S=${TRIG_CREATES:-40000}
MPORT=$((20000 + $$ % 5000))
HZ=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')
HZ=${HZ:-250}

scratch_fs 256 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
ALOOP=$SCRATCH_LOOP
mount -o remount,commit=1 "$A" || { fail setup "remount commit=1"; exit 1; }
MOUNT_OPTS=commit=60 second_fs b 1024 -J size=4 -N 120000 || { fail setup "cannot make fs B"; exit 1; }
BLOOP=$SECOND_LOOP
B=$SECOND_MNT
mkdir "$A/t" "$A/f" "$A/s" "$B/d"
${CC:-gcc} -O2 -o "$T_TMP/createmany" "$TOP/bench/record_createmany.c" || { fail setup "cc"; exit 1; }
sync

devno() { echo $((0x$(stat -c %t "$1") << 20 | 0x$(stat -c %T "$1"))); }
ADEV=$(devno "$ALOOP")
BDEV=$(devno "$BLOOP")
AJ=$(pgrep -x "jbd2/$(basename "$ALOOP")-8")
BJ=$(pgrep -x "jbd2/$(basename "$BLOOP")-8")
cat >"$T_TMP/jbd2.bt" <<EOF
tracepoint:sched:sched_waking /args->pid == $AJ || args->pid == $BJ/ {
	printf("KICK %d\n%s\n", args->pid == $AJ ? $ADEV : $BDEV, kstack);
}
tracepoint:jbd2:jbd2_start_commit /args->dev == $ADEV || args->dev == $BDEV/ {
	printf("START %d %d %d\n", args->dev, args->transaction, args->sync_commit);
}
tracepoint:jbd2:jbd2_run_stats /args->dev == $ADEV || args->dev == $BDEV/ {
	printf("STATS %d %d %d\n", args->dev, args->tid, args->running);
}
tracepoint:ext4:ext4_sync_file_enter /args->dev == $ADEV/ { printf("FSYNC\n"); }
EOF
bpftrace "$T_TMP/jbd2.bt" >"$T_TMP/jbd2.out" 2>"$T_TMP/jbd2.err" &
BT=$!
at_exit "kill -INT $BT; wait $BT"

"$FSLENS" monitor -m "$A" -m "$B" --listen 127.0.0.1:$MPORT --interval 0.5 2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON; wait $MON"
for _ in $(seq 1 60); do
	curl -sf "http://127.0.0.1:$MPORT/metrics" >/dev/null && grep -q Attaching "$T_TMP/jbd2.out" &&
		break
	sleep 0.25
done
check_grep bpftrace-attached Attaching "$T_TMP/jbd2.out"

jinfo() {	# jinfo LOOPDEV: "transactions requested"
	sed -n 's/^\([0-9]*\) transactions (\([0-9]*\) requested).*/\1 \2/p' \
		/proc/fs/jbd2/"$(basename "$1")"-*/info
}
snap() {	# snap MOUNT: "unknown timer fsync full log_space sync"
	curl -s "http://127.0.0.1:$MPORT/metrics" | awk -v fs="$1" '
		BEGIN { split("unknown timer fsync full log_space sync", t, " ") }
		{ v[$1] = $2 }
		END { for (i = 1; i <= 6; i++)
			printf "%s ", v["fslens_journal_commits_total{fs=\"" fs "\",trigger=\"" t[i] "\"}"] }'
}
settle() { sleep 2; }	# the phase's last commit ended and the monitor read it
lines() { wc -l <"$T_TMP/jbd2.out"; }
tally() {	# tally FROM_LINE DEV COMMIT_JIFFIES: the bpftrace record since then
	tail -n +"$1" "$T_TMP/jbd2.out" | python3 "$TOP/tests/helpers/jbd2_kicks.py" "$2" "$3"
}
# phase NAME DEV: the monitor's six triggers against the tally's
phase_check() {
	local name=$1 i d
	local names=(unknown timer fsync full log_space sync)
	for i in 0 1 2 3 4 5; do
		d=$((m1[i] - m0[i]))
		if [ "$name" = timer ] && [ $i = 1 ] && [ $((d - k[i])) -ge -1 ] && [ $((d - k[i])) -le 1 ]; then
			# the monitor's counters are as of its last read (every 0.5 s):
			# a timer commit at the phase's edge falls on either side
			# (5 against bpftrace's 4 in a CI run)
			pass "$name-${names[$i]}-vs-bpftrace"
		else
			check_eq "$name-${names[$i]}-vs-bpftrace" "$d" "${k[$i]}"
		fi
	done
	check_eq "$name-unkicked" "${k[6]}" 0
}

# ---- timer ----
settle
read -r t0 r0 < <(jinfo "$ALOOP")
m0=($(snap "$A")); l0=$(lines)
for i in $(seq 1 6); do touch "$A/t/$i"; sleep 1.6; done
settle
read -r t1 r1 < <(jinfo "$ALOOP")
m1=($(snap "$A")); k=($(tally "$l0" "$ADEV" "$HZ"))
echo "    timer: /proc $((t1 - t0)) commits, $((r1 - r0)) requested; monitor ${m0[*]} -> ${m1[*]};" \
	"bpftrace ${k[*]}" >&2
# six touches 1.6 s apart under commit=1: six commits on a quiet machine; a
# late timer folds two touches into one commit (4 seen in CI), so the run
# needs three to have timer commits to classify
check_ge timer-commits "$((t1 - t0))" 3
phase_check timer
# a commit not requested is the timer's (kjournald2 found it expired)
check_ge timer-vs-proc "$((m1[1] - m0[1]))" "$(((t1 - t0) - (r1 - r0)))"

# ---- fsync ----
settle
read -r t0 r0 < <(jinfo "$ALOOP")
m0=($(snap "$A")); l0=$(lines)
for i in $(seq 1 "$N"); do
	dd if=/dev/zero of="$A/f/$i" bs=4k count=1 conv=fsync 2>/dev/null
	sleep 0.1
done
settle
read -r t1 r1 < <(jinfo "$ALOOP")
m1=($(snap "$A")); k=($(tally "$l0" "$ADEV" "$HZ"))
echo "    fsync: /proc $((t1 - t0)) commits, $((r1 - r0)) requested; monitor ${m0[*]} -> ${m1[*]};" \
	"bpftrace ${k[*]}" >&2
phase_check fsync
check_eq fsync-tally "${k[7]}" "$N"
check_eq fsync-vs-proc "$((m1[2] - m0[2]))" "$((r1 - r0))"
check_eq fsync-count "$((m1[2] - m0[2]))" "$N"

# ---- sync (syncfs) ----
settle
read -r t0 r0 < <(jinfo "$ALOOP")
m0=($(snap "$A")); l0=$(lines)
for i in $(seq 1 "$K"); do touch "$A/s/$i"; sync -f "$A"; sleep 0.1; done
settle
read -r t1 r1 < <(jinfo "$ALOOP")
m1=($(snap "$A")); k=($(tally "$l0" "$ADEV" "$HZ"))
echo "    sync: /proc $((t1 - t0)) commits, $((r1 - r0)) requested; monitor ${m0[*]} -> ${m1[*]};" \
	"bpftrace ${k[*]}" >&2
phase_check sync
check_eq sync-vs-proc "$((m1[5] - m0[5]))" "$((r1 - r0))"
check_eq sync-count "$((m1[5] - m0[5]))" "$K"

# ---- full and log space (B) ----
settle
read -r t0 r0 < <(jinfo "$BLOOP")
m0=($(snap "$B")); l0=$(lines)
"$FSLENS" record -m "$B" -o "$T_TMP/b.trace" -- "$T_TMP/createmany" "$B/d" "$S" \
	>"$T_TMP/rec.out" 2>"$T_TMP/rec.err"
check_eq record "$?" 0
settle
read -r t1 r1 < <(jinfo "$BLOOP")
m1=($(snap "$B")); k=($(tally "$l0" "$BDEV" $((60 * HZ))))
"$FSLENS" report --json "$T_TMP/b.trace" >"$T_TMP/b.json" 2>/dev/null
rep=$(python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["journal"]["triggers"]
print(" ".join(str(t[k]) for k in ("unknown", "timer", "fsync", "full", "log_space", "sync")))' \
	"$T_TMP/b.json")
echo "    storm: /proc $((t1 - t0)) commits; monitor ${m0[*]} -> ${m1[*]}; bpftrace ${k[*]};" \
	"report $rep" >&2
check_ge storm-full "$((m1[3] - m0[3]))" 1
# log_space: on this kernel no storm tried had a checkpoint force a commit
# (no kick names jbd2_log_do_checkpoint; the commits it would start were
# already asked for by full transactions), so its count is checked against
# the tally and the report only; tests/unit/test_monitor.c decodes it
check_eq storm-vs-proc "$((m1[0] + m1[1] + m1[2] + m1[3] + m1[4] + m1[5] - m0[0] - m0[1] - m0[2] - \
	m0[3] - m0[4] - m0[5]))" "$((t1 - t0))"
# the kicked commits as bpftrace names them; the unkicked ones (the journal
# thread was busy) are the report's guesses, so report and monitor agree
if [ "${k[6]}" -eq 0 ]; then
	phase_check storm
else
	echo "    storm: ${k[6]} commits no kick named" >&2
fi
check_eq storm-vs-report "$((m1[0] - m0[0])) $((m1[1] - m0[1])) $((m1[2] - m0[2])) \
$((m1[3] - m0[3])) $((m1[4] - m0[4])) $((m1[5] - m0[5]))" "$rep"
kill -TERM $MON
wait $MON
check_eq sigterm-exit "$?" 0
exit $((T_FAILS > 0))
