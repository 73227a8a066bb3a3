#!/bin/bash
# The htree create storm: with a 1 MiB journal, N mkdir in one directory
# must rank journal_log_space first with >= 50% of the workload's blocked
# time and the suggestion must name the journal size; the report's commit
# count and average commit time must agree with /proc/fs/jbd2/<dev>/info read
# before and after (the kernel's own counters). With a 256 MiB journal the
# same workload must not rank journal_log_space first.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
N=${REPORT_MKDIRS:-20000}

jinfo() {	# print "transactions avg_commit_us" of the scratch device's journal
	local f
	f=$(ls -d /proc/fs/jbd2/"$(basename "$SCRATCH_LOOP")"-*/info 2>/dev/null | head -1)
	awk '/transactions \(/ { t = $1 } /average transaction commit time/ { a = $1 + 0 }
	     END { print t, a }' "$f"
}

storm() {	# journal MiB, image MiB, tag [mkdirs]
	scratch_fs "$2" ext4 -b 1024 -J size="$1" || { fail "$3-setup" "cannot make scratch fs"; return 1; }
	mkdir "$SCRATCH_MNT/d"
	sync
	read -r T0 A0 < <(jinfo)
	"$FSLENS" record -m "$SCRATCH_MNT" -o "$T_TMP/$3.trace" -- \
		sh -c "cd $SCRATCH_MNT/d && seq 1 ${4:-$N} | xargs mkdir" 2>"$T_TMP/$3.rec"
	check_eq "$3-record" $? 0
	read -r T1 A1 < <(jinfo)
	umount "$SCRATCH_MNT" && losetup -d "$SCRATCH_LOOP"
	"$FSLENS" report --json "$T_TMP/$3.trace" >"$T_TMP/$3.json" 2>"$T_TMP/$3.err"
	check_eq "$3-report" $? 0
}

storm 1 256 small || exit 1
read -r cls share sugg commits avg < <(python3 - "$T_TMP/small.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["causes"][0] if r["causes"] else {"class": "none", "share": 0, "suggestion": ""}
print(c["class"], c["share"], int("journal size" in c["suggestion"]), r["journal"]["commits"],
      r["journal"]["kernel_avg_commit_us"])
PY
)
check_eq small-first-cause "$cls" journal_log_space
check_cmd small-share-ge-50pct python3 -c "import sys; sys.exit(0 if $share >= 0.5 else 1)"
check_eq small-suggests-journal-size "$sugg" 1
# /proc/fs/jbd2 info: transaction count delta, and the kernel's running
# average commit time (the report replays it from the start value)
check_eq small-commits-vs-proc "$commits" "$((T1 - T0))"
check_cmd small-avg-commit-vs-proc python3 -c "
import sys; a, k = $avg, $A1
sys.exit(0 if abs(a - k) <= max(0.05 * k, 50) else 1)" || echo "    report $avg us, /proc $A1 us" >&2
text=$("$FSLENS" report --section diagnosis "$T_TMP/small.trace")
echo "$text" | grep -q '^  1  journal_log_space ' && pass small-text-rank || fail small-text-rank "$(echo "$text" | head -8)"
# the whole text report of a real trace fits 100 columns
check_eq small-text-width "$("$FSLENS" report "$T_TMP/small.trace" | awk '{ if (length($0) > m) m = length($0) } END { print (m <= 100) }')" 1

# The kernel's stack map keeps one stack per hash bucket, with a fixed hash
# seed: two stacks that collide do so all boot long. With a map of one
# bucket every stack but the first collides; the second map must keep them
# all, so the storm still names its cause and no wait is without a stack.
FSLENS_TEST_STACK_BUCKETS=1 storm 1 256 collide 8000 || exit 1
read -r cls nostack < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(r["causes"][0]["class"] if r["causes"] else "none", r["trace"]["waits_without_stack"])' "$T_TMP/collide.json")
check_eq collide-first-cause "$cls" journal_log_space
check_eq collide-no-stackless-waits "$nostack" 0
check_ge collide-second-map-ids "$("$FSLENS" dump "$T_TMP/collide.trace" -e offcpu | \
	grep -c 'stack_id=10[0-9][0-9][0-9][0-9][0-9] ')" 1

storm 256 1200 big || exit 1
cls=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["causes"][0]["class"] if r["causes"] else "none")' "$T_TMP/big.json")
if [ "$cls" != journal_log_space ]; then pass big-not-log-space; else
	fail big-not-log-space "journal_log_space still first with a 256 MiB journal"; fi
exit $T_FAILS
