#!/bin/bash
# fslens monitor's fslens_cpu_seconds_total{fs,class,role}: the on-CPU time
# of the work on the target, by CPU class, against a bpftrace profile of the
# same run at the same rate (499 Hz), its kernel stacks classed by the
# documented table (docs/cpu-classes.md, tests/helpers/cpu_classify.py).
# The workload creates files on the target and, at the same time, as many on
# a second ext4 (the same code, the same classes), each storm under its own
# program name so that the profile tells them apart: none of the second's
# CPU may reach the target's series.
#  - every class of the filesystem's own code (inode allocation, inode
#    updates, directory scan and htree, journal, extents, checksums, the
#    allocator, other ext4 code) summed: within two standard deviations of
#    two samplings' counts (Poisson: about 100 samples each) and 5% of the
#    profile's. (It was once checked against a recording of a second run:
#    the recorder's programs slow ext4's cache-bound code, so that run had
#    10-35% more of it, and the monitor looked low.)
#  - the second storm's profile is at least 40% of the target's (else the
#    check above could not see its CPU counted as the target's; 48% in a
#    CI run, where the two storms shared two CPUs unevenly);
#  - the largest of those classes: within three standard deviations of two
#    samplings' counts and 10%;
#  - no user-mode time (cpu_user): user code is no filesystem's work;
#  - --cpu-freq 0 serves no such family; promtool accepts the text;
#  - --cgroup-label: two storms on the target at once, each in a cgroup v2
#    of its own (this machine mounts v1: the test mounts a cgroup2), under
#    names of their own, one by relative paths and one by absolute paths
#    (the walk from / starts on the root filesystem: only the walk's own
#    position tells when it is on the target; the start hint counted half
#    of such a storm's CPU): each cgroup's series of the filesystem's
#    classes against the profile of its storm, as above, and no series
#    without the label.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip all "bpftrace not installed (scripts/deps.sh)"; exit 0; }
N=${MONITOR_CPU_FILES:-40000}
N2=$N
MPORT=$((20000 + ($$ + 77) % 5000))

scratch_fs 400 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
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
# the two storms' programs: touch under names of their own
cp "$(command -v touch)" "$T_TMP/fsl_tgt_touch" && cp "$(command -v touch)" "$T_TMP/fsl_oth_touch" ||
	{ fail setup "cannot copy touch"; exit 1; }
# HZ ERR BTOUT OTHER_COMM [monitor options]: the monitor sampling at HZ (its pid
# in MON) and bpftrace profiling fsl_tgt_touch (@t) and OTHER_COMM (@o) at HZ
start_watch() {
	local hz=$1 err=$2 bt=$3 oth=$4
	shift 4
	"$FSLENS" monitor -m "$M" --listen 127.0.0.1:$MPORT --interval 0.5 --cpu-freq "$hz" "$@" \
		2>"$err" &
	MON=$!
	at_exit "kill $MON 2>/dev/null; wait $MON"
	for _ in $(seq 1 50); do scrape >/dev/null 2>&1 && break; sleep 0.1; done
	bt_start "$bt" "profile:hz:$hz /comm == \"fsl_tgt_touch\"/ { @t[kstack] = count(); }
	profile:hz:$hz /comm == \"$oth\"/ { @o[kstack] = count(); }"
}
start_watch 499 "$T_TMP/mon.err" "$T_TMP/bt.out" fsl_oth_touch
scrape >"$T_TMP/m0"
# the storm: as many creates on each filesystem at once
(cd "$M/d" && seq 1 $N | xargs "$T_TMP/fsl_tgt_touch") &
T1=$!
(cd "$O/d" && seq 1 $N2 | xargs "$T_TMP/fsl_oth_touch") &
T2=$!
wait $T1 && wait $T2
check_eq storm_exit $? 0
kill -INT $BT
wait $BT
sleep 2.5	# five intervals: every sample of the workload read, also on a busy machine
scrape >"$T_TMP/m1"
kill $MON; wait $MON

read -r sum_m sum_r sum_o big_cls big_m big_r user <<<"$(python3 - "$T_TMP/m0" "$T_TMP/m1" "$T_TMP/bt.out" \
	"${TOP:-$PWD}/docs/cpu-classes.md" "$(dirname "$0")/../helpers" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[5])
import cpu_classify
def rd(p):
    d = {}
    for l in open(p):
        m = re.match(r'fslens_cpu_seconds_total\{fs="[^"]*",class="(\w+)",role="workload"\} (\S+)', l)
        if m:
            d[m[1]] = float(m[2])
    return d
a, b = rd(sys.argv[1]), rd(sys.argv[2])
mon = {c: b.get(c, 0) - a.get(c, 0) for c in b}
cls = cpu_classify.classifier(sys.argv[4])
text = open(sys.argv[3]).read()
rep = {c: n / 499 for c, n in cpu_classify.tally(text, cls, "t").items()}
oth = {c: n / 499 for c, n in cpu_classify.tally(text, cls, "o").items()}
fs = ["cpu_ialloc", "cpu_inode", "cpu_dirent_scan", "cpu_htree", "cpu_journal", "cpu_extent",
      "cpu_checksum", "cpu_block_alloc", "cpu_ext4"]
for c in sorted(set(mon) | set(rep)):
    print("# %-18s monitor %.3f s  profile %.3f s" % (c, mon.get(c, 0), rep.get(c, 0)), file=sys.stderr)
big = max(fs, key=lambda c: rep.get(c, 0))
print("%.4f %.4f %.4f %s %.4f %.4f %.4f" % (sum(mon.get(c, 0) for c in fs), sum(rep.get(c, 0) for c in fs),
      sum(oth.get(c, 0) for c in fs), big, mon.get(big, 0), rep.get(big, 0), mon.get("cpu_user", 0)))
PY
)"
echo "# the filesystem's classes: monitor $sum_m s, profile $sum_r s (the other storm's $sum_o s); largest $big_cls $big_m / $big_r s" >&2
check_cmd fs_classes_measured python3 -c "import sys; sys.exit(not float('$sum_r') > 0.1)"
check_cmd other_storm_as_large python3 -c "import sys; sys.exit(not float('$sum_o') >= 0.4 * float('$sum_r'))"
check_cmd fs_classes_within_3sd python3 -c \
	"import sys, math; m, r = float('$sum_m'), float('$sum_r'); sd = math.sqrt((m + r) * 499) / 499; sys.exit(not abs(m - r) <= 3 * sd + 0.05 * r)"
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
kill $MON0; wait $MON0

# --cgroup-label: the target's CPU by cgroup
mkdir "$T_TMP/cg2" && mount -t cgroup2 none "$T_TMP/cg2" || { fail cg_setup "cannot mount cgroup2"; exit 1; }
at_exit "umount -l $T_TMP/cg2"
CGA=fsl_cpu_a_$$
CGB=fsl_cpu_b_$$
mkdir "$T_TMP/cg2/$CGA" "$T_TMP/cg2/$CGB" || { fail cg_setup "cannot make cgroups"; exit 1; }
at_exit "rmdir $T_TMP/cg2/$CGA $T_TMP/cg2/$CGB"
cp "$(command -v touch)" "$T_TMP/fsl_cgb_touch" || { fail cg_setup "cannot copy touch"; exit 1; }
rm -rf "$M/d"	# inodes for two more storms (102,400 on 400 MB)
mkdir "$M/a" "$M/b"
sync
# at 1999 Hz: about 400 samples a storm, so that half of one missed is told from chance
start_watch 1999 "$T_TMP/moncg.err" "$T_TMP/btcg.out" fsl_cgb_touch --cgroup-label
scrape >"$T_TMP/c0"
sh -c "echo \$\$ >$T_TMP/cg2/$CGA/cgroup.procs && cd $M/a && seq 1 $N | xargs $T_TMP/fsl_tgt_touch" 2>"$T_TMP/sa.err" &
T1=$!
sh -c "echo \$\$ >$T_TMP/cg2/$CGB/cgroup.procs && seq 1 $N | sed 's|^|$M/b/|' |
	xargs $T_TMP/fsl_cgb_touch" 2>"$T_TMP/sb.err" &
T2=$!
wait $T1 && wait $T2
check_eq cg_storm_exit $? 0
kill -INT $BT
wait $BT
sleep 2.5
scrape >"$T_TMP/c1"
kill $MON; wait $MON

python3 - "$T_TMP/c0" "$T_TMP/c1" "$T_TMP/btcg.out" "${TOP:-$PWD}/docs/cpu-classes.md" \
	"$(dirname "$0")/../helpers" "/$CGA" "/$CGB" >"$T_TMP/cg.out" <<'PY'
import math, re, sys
sys.path.insert(0, sys.argv[5])
import cpu_classify
def rd(p):
    d, bare = {}, 0
    for l in open(p):
        if not l.startswith("fslens_cpu_seconds_total{"):
            continue
        m = re.match(r'fslens_cpu_seconds_total\{fs="[^"]*",class="(\w+)",role="workload",cgroup="([^"]*)"\} (\S+)', l)
        if m:
            d[(m[2], m[1])] = float(m[3])
        elif 'cgroup="' not in l:
            bare += 1
    return d, bare
(a, _), (b, bare) = rd(sys.argv[1]), rd(sys.argv[2])
cls = cpu_classify.classifier(sys.argv[4])
text = open(sys.argv[3]).read()
fs = ["cpu_ialloc", "cpu_inode", "cpu_dirent_scan", "cpu_htree", "cpu_journal", "cpu_extent",
      "cpu_checksum", "cpu_block_alloc", "cpu_ext4"]
print("PASS no_series_without_cgroup" if not bare else "FAIL no_series_without_cgroup %d" % bare)
# the samples whose stack the map no longer held (a stack several keys
# share was deleted at the first one's read: 339 of about 2,000)
def unnamed(p):
    for l in open(p):
        if l.startswith("fslens_cpu_samples_unnamed_total "):
            return float(l.split()[1])
    return 0
un = unnamed(sys.argv[2]) - unnamed(sys.argv[1])
n = sum(b.values()) - sum(a.values())
print("# unnamed samples %d of %d" % (un, n * 1999), file=sys.stderr)
print("%s cpu_samples_named %d" % ("PASS" if un <= 0.02 * n * 1999 else "FAIL", un))
for cg, who in ((sys.argv[6], "t"), (sys.argv[7], "o")):
    m = sum(b.get((cg, c), 0) - a.get((cg, c), 0) for c in fs)
    rep = cpu_classify.tally(text, cls, who)
    r = sum(rep.get(c, 0) for c in fs) / 1999
    sd = math.sqrt((m + r) * 1999) / 1999
    name = "cgroup_%s_fs_classes" % ("a" if who == "t" else "b")
    print("# %s: monitor %.3f s, profile %.3f s" % (cg, m, r), file=sys.stderr)
    print("%s %s" % ("PASS" if r > 0.1 and abs(m - r) <= 3 * sd + 0.05 * r else "FAIL", name))
PY
while read -r v name rest; do
	if [ "$v" = PASS ]; then pass "$name"; else fail "$name" "$rest"; fi
done <"$T_TMP/cg.out"
check_eq cg_checks "$(grep -c '^PASS' "$T_TMP/cg.out")" 4
exit $((T_FAILS > 0))
