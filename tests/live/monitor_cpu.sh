#!/bin/bash
# fslens monitor's fslens_cpu_seconds_total{fs,class,role}: the on-CPU time
# of the work on the target, by CPU class, against a `fslens record` +
# `report` of the same workload run right after it (the report's cpu
# classes, the workload's). The workload creates files on the target and,
# at the same time, as many on a second ext4 (the same code, the same
# classes): none of the second's CPU may reach the target's series.
#  - every class of the filesystem's own code (inode allocation, inode
#    updates, directory scan and htree, journal, extents, checksums, the
#    allocator, other ext4 code) summed: within 35% of the report's (two
#    independent samplings at 499 Hz of about 0.5 s of such CPU, a few
#    percent of noise each, and two runs of the workload; measured -20%,
#    -12%, -7% on a busy machine, +5% on a quiet one: the monitor lower
#    under load, why not yet found);
#  - the largest of those classes: within three standard deviations of two
#    samplings' counts (about 50 samples each) and 10%;
#  - no user-mode time (cpu_user): user code is no filesystem's work;
#  - with the second filesystem's storm as large, the target's sum is not
#    doubled: the bound above holds against the scoped report;
#  - --cpu-freq 0 serves no such family; promtool accepts the text.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
N=${MONITOR_CPU_FILES:-40000}
N2=$N
[ -n "${MONITOR_CPU_ONE:-}" ] && N2=1	# MONITOR_CPU_ONE=1: the target's storm alone (to compare)
MPORT=$((20000 + ($$ + 77) % 5000))

scratch_fs 300 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
O=$T_TMP/other
mkdir -p "$O"
truncate -s 300M "$T_TMP/img2" && mkfs.ext4 -q -F "$T_TMP/img2" >/dev/null 2>&1 &&
	L2=$(losetup -f --show "$T_TMP/img2") || { fail setup "cannot make the second fs"; exit 1; }
at_exit "losetup -d $L2"
mount "$L2" "$O" || { fail setup "cannot mount the second fs"; exit 1; }
at_exit "umount -l $O"
mkdir "$M/d" "$O/d"
sync

scrape() { curl -s "http://127.0.0.1:$MPORT/metrics"; }
"$FSLENS" monitor -m "$M" --listen 127.0.0.1:$MPORT --interval 0.5 --cpu-freq 499 \
	2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON 2>/dev/null; wait $MON"
for i in $(seq 1 50); do scrape >/dev/null 2>&1 && break; sleep 0.1; done
scrape >"$T_TMP/m0"
# the storm: as many creates on each filesystem at once, in directory $1
cat >"$T_TMP/storm.sh" <<EOF
(cd $M/\$1 && seq 1 $N | xargs touch) &
(cd $O/\$1 && seq 1 $N2 | xargs touch) &
wait
EOF
storm() { sh "$T_TMP/storm.sh" "$1"; }
# The monitor's run, then the recorder's of the same workload: two samplers
# at once lose samples to each other (a perf event's program is skipped
# while another BPF program runs on that CPU: the monitor counted 16% less
# beside a recording, within 5% alone)
storm d
check_eq storm_exit $? 0
sleep 2.5	# five intervals: every sample of the workload read, also on a busy machine
scrape >"$T_TMP/m1"
kill $MON; wait $MON
mkdir "$M/e" "$O/e"
sync
"$FSLENS" record -m "$M" --cpu-freq 499 -o "$T_TMP/t.trace" -- sh "$T_TMP/storm.sh" e \
	2>"$T_TMP/rec.err"
check_eq record_exit $? 0
"$FSLENS" report --json "$T_TMP/t.trace" >"$T_TMP/r.json"
check_eq report_exit $? 0

read -r sum_m sum_r big_cls big_m big_r user <<<"$(python3 - "$T_TMP/m0" "$T_TMP/m1" "$T_TMP/r.json" <<'PY'
import json, re, sys
def rd(p):
    d = {}
    for l in open(p):
        m = re.match(r'fslens_cpu_seconds_total\{fs="[^"]*",class="(\w+)",role="workload"\} (\S+)', l)
        if m:
            d[m[1]] = float(m[2])
    return d
a, b = rd(sys.argv[1]), rd(sys.argv[2])
mon = {c: b.get(c, 0) - a.get(c, 0) for c in b}
rep = {c: v["workload_ns"] / 1e9 for c, v in json.load(open(sys.argv[3]))["cpu"]["classes"].items()}
fs = ["cpu_ialloc", "cpu_inode", "cpu_dirent_scan", "cpu_htree", "cpu_journal", "cpu_extent",
      "cpu_checksum", "cpu_block_alloc", "cpu_ext4"]
for c in sorted(set(mon) | set(rep)):
    print("# %-18s monitor %.3f s  report %.3f s" % (c, mon.get(c, 0), rep.get(c, 0)), file=sys.stderr)
big = max(fs, key=lambda c: rep.get(c, 0))
print("%.4f %.4f %s %.4f %.4f %.4f" % (sum(mon.get(c, 0) for c in fs), sum(rep.get(c, 0) for c in fs),
      big, mon.get(big, 0), rep.get(big, 0), mon.get("cpu_user", 0)))
PY
)"
echo "# the filesystem's classes: monitor $sum_m s, report $sum_r s; largest $big_cls $big_m / $big_r s" >&2
check_cmd fs_classes_measured python3 -c "import sys; sys.exit(not float('$sum_r') > 0.2)"
# 35%: the monitor has read up to 27% low against the run after it (CI,
# 0.355 against 0.487 s), a known defect not yet explained (#18's note)
check_cmd fs_classes_within_35pct python3 -c \
	"import sys; m, r = float('$sum_m'), float('$sum_r'); sys.exit(not abs(m - r) <= 0.35 * r)"
# two samplings of about 50 samples each: three standard deviations of their
# counts' difference (Poisson) and 10% for the two runs of the workload (a
# flat 40% failed at 53 samples against 36)
check_cmd largest_class_within_3sd python3 -c \
	"import sys, math; m, r = float('$big_m'), float('$big_r'); sd = math.sqrt((m + r) * 499) / 499; sys.exit(not abs(m - r) <= 3 * sd + 0.1 * r)"
check_eq no_user_time "$user" 0.0000
check_grep promtool_family '^# TYPE fslens_cpu_seconds_total counter' "$T_TMP/m1"
if command -v promtool >/dev/null; then
	promtool check metrics <"$T_TMP/m1" >"$T_TMP/promtool.out" 2>&1
	check_eq promtool_ok $? 0
fi

# --cpu-freq 0: no sampling, no family
"$FSLENS" monitor -m "$M" --listen 127.0.0.1:$MPORT --interval 0.5 --cpu-freq 0 \
	2>"$T_TMP/mon0.err" &
MON0=$!
at_exit "kill $MON0 2>/dev/null; wait $MON0"
for i in $(seq 1 50); do scrape >"$T_TMP/m2" 2>/dev/null && [ -s "$T_TMP/m2" ] && break; sleep 0.1; done
check_grep served_without_cpu '^fslens_blocked_seconds_total|^# TYPE fslens_op_latency' "$T_TMP/m2"
check_cmd no_cpu_family_when_off bash -c "! grep -q fslens_cpu_seconds_total '$T_TMP/m2'"
exit 0
