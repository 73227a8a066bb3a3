#!/bin/bash
# Journal figures equal the kernel's own, on a filesystem left with dirty
# metadata at the start (no sync before record): a mkdir storm on a 1 MiB
# journal, a cold du with strictatime (atime updates, no fsync at all), and a
# run of sync(2) calls.
#  - commits and the running average commit time equal /proc/fs/jbd2/<dev>/info
#    as the test reads it after the recording, and the delta of the two
#    snapshots the trace stores (the start one taken after record's own sync);
#  - each commit's trigger equals what a bpftrace tally of who woke the jbd2
#    thread says, classified by the test's own copy of the documented rule
#    (docs/report-json.md, `journal`, the trigger table); a commit asked for while jbd2
#    was busy wakes nothing and is counted as inferred, never compared;
#  - du: no fsync trigger; the sync run: one sync trigger per sync(2) at least.
# The storm and the du run through the truth harness (tests/helpers/truth.sh):
# the top cause against a bpftrace tally of their tasks, their whole time,
# and the data written (none: metadata only) against the device's writes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../helpers/truth.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip all "bpftrace not installed"; exit 0; }
N=${JOURNAL_MKDIRS:-8000}

jinfo() {	# "transactions avg_commit_us" of the scratch journal
	awk '/transactions \(/ { t = $1 } /average transaction commit time/ { a = $1 + 0 }
	     END { print t, a }' "$(ls -d /proc/fs/jbd2/"$(basename "$SCRATCH_LOOP")"-*/info | head -1)"
}

# $1 jbd2 pid, $2 output: who wakes the jbd2 thread, and each commit's start and end
kicks_start() {
	cat >"$T_TMP/kick.bt" <<BT
tracepoint:sched:sched_waking /args->pid == $1/ { printf("WAKE %llu%s\n", nsecs, kstack); }
tracepoint:jbd2:jbd2_start_commit /args->dev == $SCRATCH_KDEV/ { printf("START %llu %d\n", nsecs, args->transaction); }
tracepoint:jbd2:jbd2_end_commit /args->dev == $SCRATCH_KDEV/ { printf("END %llu %d\n", nsecs, args->transaction); }
BT
	bpftrace "$T_TMP/kick.bt" >"$2" 2>"$2.err" &
	BT_PID=$!
	at_exit "kill $BT_PID 2>/dev/null"
	for _ in $(seq 1 100); do
		grep -q Attaching "$2" "$2.err" 2>/dev/null && break
		sleep 0.1
	done
}
kicks_stop() {
	local i
	kill -INT "$BT_PID" 2>/dev/null
	for i in $(seq 1 300); do kill -0 "$BT_PID" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$BT_PID" 2>/dev/null
	wait "$BT_PID" 2>/dev/null
}

# $1 tag, $2 command, $3 "truth" to go through the truth harness: record it
# with the bpftrace tally beside, then compare
run_case() {
	local tag=$1 jp
	jp=$(pgrep -x "jbd2/$(basename "$SCRATCH_LOOP")-8" | head -1)
	[ -n "$jp" ] || { fail "$tag-jbd2" "no jbd2 thread for $SCRATCH_LOOP"; return 1; }
	kicks_start "$jp" "$T_TMP/$tag.kicks"
	read -r T0 A0 < <(jinfo)
	if [ "${3:-}" = truth ]; then
		# no sync before or after: the start is left with dirty metadata
		truth_run "$tag" "$2" 0
	else
		"$FSLENS" record -f -m "$SCRATCH_MNT" -o "$T_TMP/$tag.trace" -- sh -c "$2" \
			>/dev/null 2>"$T_TMP/$tag.rec"
		check_eq "$tag-record" $? 0
	fi
	read -r T1 A1 < <(jinfo)
	kicks_stop
	[ "${3:-}" != truth ] || truth_check "$tag"
	"$FSLENS" report --json "$T_TMP/$tag.trace" >"$T_TMP/$tag.json" 2>"$T_TMP/$tag.err"
	check_eq "$tag-report" $? 0
	python3 - "$T_TMP/$tag.json" "$T_TMP/$tag.kicks" "$tag" "$T0" "$T1" "$A1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tag, t0, t1, a1 = sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
j = r["journal"]
pi = j["proc_info"]
def check(name, ok, why):
    print(("PASS live/journal_figures:%s-%s" % (tag, name)) if ok else
          ("FAIL live/journal_figures:%s-%s: %s" % (tag, name, why)))
# the trace's own snapshots, and the test's reads around the recording
d = pi["end"]["transactions"] - pi["start"]["transactions"]
check("commits-vs-snapshots", j["commits"] == d, "report %d, /proc delta %d" % (j["commits"], d))
check("end-snapshot-vs-proc", pi["end"]["transactions"] == t1,
      "stored end %d, /proc after %d" % (pi["end"]["transactions"], t1))
# the start snapshot is after record's own sync: at most that one commit after the test's read
s = pi["start"]["transactions"] - t0
check("start-snapshot-after-sync", 0 <= s <= 1, "stored start %d, /proc before %d" %
      (pi["start"]["transactions"], t0))
k = j["kernel_avg_commit_us"]
check("avg-commit-vs-proc", abs(k - a1) <= max(0.02 * a1, 5), "report %.0f us, /proc %d us" % (k, a1))
# bpftrace: the last wake of the jbd2 thread after one commit ended and
# before the next started asked for it; the rule, in order of precedence
rules = [("jbd2_log_do_checkpoint", "log_space"), ("__jbd2_log_wait_for_space", "log_space"),
         ("add_transaction_credits", "full"), ("wait_transaction_locked", "full"),
         ("jbd2__journal_restart", "full"), ("ext4_sync_file", "fsync"),
         ("ext4_fsync_journal", "fsync"), ("ext4_sync_fs", "sync"), ("sync_filesystem", "sync"),
         ("jbd2_journal_flush", "sync"), ("commit_timeout", "timer"), ("call_timer_fn", "timer"),
         ("jbd2_journal_stop", "stop")]
def classify(frames):
    funcs = {f.strip().split("+")[0] for f in frames}
    for fn, t in rules:
        if fn in funcs:
            return t
    return None
# bpftrace prints from per-CPU buffers: put the records in time order first
recs, cur = [], None
for line in open(sys.argv[2]):
    w = line.split()
    if not w:
        cur = None
    elif w[0] == "WAKE":
        cur = []
        recs.append((int(w[1]), "WAKE", cur))
    elif w[0] in ("START", "END"):
        cur = None
        recs.append((int(w[1]), w[0], int(w[2])))
    elif cur is not None:
        cur.append(w[0])
truth, last, busy = {}, None, False
for ts, kind, x in sorted(recs, key=lambda r: r[0]):
    if kind == "WAKE":
        t = classify(x)
        if t and not busy:
            last = t
    elif kind == "START":
        truth[x] = last
        last, busy = None, True
    else:
        busy = False
ours = {t["tid"]: t for t in j["transactions"]}
bad, compared = [], 0
for tid, t in sorted(ours.items()):
    want = truth.get(tid)
    if t["trigger_inferred"] or want is None:
        continue
    compared += 1
    got = t["trigger"]
    if want == "stop":
        want = got if got in ("timer", "sync") else "timer or sync"
    if got != want:
        bad.append("tid %d: report %s, bpftrace %s" % (tid, got, want))
check("triggers-vs-bpftrace", not bad and compared > 0,
      "; ".join(bad) if bad else "no commit compared")
tr = j["triggers"]
print("# %s: %d commits (/proc %d), avg %.0f us (/proc %d us), triggers %s, %d inferred, "
      "%d compared with bpftrace" % (tag, j["commits"], d, k, a1,
      ",".join("%s=%d" % kv for kv in tr.items() if kv[1]), j["triggers_inferred"], compared))
if tag == "du":
    check("no-fsync", tr["fsync"] == 0, "du does no fsync, report says fsync %d" % tr["fsync"])
if tag == "sync":
    check("sync-triggers", tr["sync"] >= 3 and tr["fsync"] == 0,
          "3 sync(2) calls: report sync %d fsync %d" % (tr["sync"], tr["fsync"]))
PY
}

scratch_fs 256 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
SCRATCH_KDEV=$(( $(stat -c %t "$SCRATCH_LOOP" | sed 's/^/0x/') << 20 | 0x$(stat -c %T "$SCRATCH_LOOP") ))

# a cold tree, atime on every read; then dirty metadata left for record's start sync
mkdir "$SCRATCH_MNT/t" "$SCRATCH_MNT/d"
for i in $(seq 1 30); do mkdir "$SCRATCH_MNT/t/$i" && (cd "$SCRATCH_MNT/t/$i" && seq 1 100 | xargs touch); done
sync
mount -o remount,strictatime "$SCRATCH_MNT"
mkdir "$SCRATCH_MNT/dirty" && (cd "$SCRATCH_MNT/dirty" && seq 1 300 | xargs mkdir)

truth_warm xargs mkdir du ls
run_case storm "cd $SCRATCH_MNT/d && seq 1 $N | xargs mkdir" truth
(cd "$SCRATCH_MNT/dirty" && seq 301 600 | xargs mkdir)
# cold: the tree's blocks, dentries and inodes dropped just before (drop_caches
# leaves dirty pages: the dirty metadata stays for record's start sync). With
# dentries and inodes only, the blocks stay cached: du is 0.3 s of CPU in
# 2-9 samples per class, and which class leads is chance. du alone: an ls -lR
# after it finds everything cached and adds only CPU, which fslens samples
# less of than bpftrace in tasks this short (0.2 s: 2 ms sampled against
# bpftrace's 60 ms).
echo 3 > /proc/sys/vm/drop_caches
run_case du "du -s $SCRATCH_MNT/t" truth
run_case sync "cd $SCRATCH_MNT && for i in 1 2 3; do touch s\$i; sync; sleep 0.3; done"
exit $T_FAILS
