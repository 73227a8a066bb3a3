#!/bin/bash
# fslens monitor scraped by a real Prometheus server (Debian's prometheus)
# on 127.0.0.1, queried over its HTTP API, against independent truth:
#  - `promtool check metrics` accepts /metrics;
#  - the commits of the target's journal over the window (the difference of
#    two instant queries) equal the /proc/fs/jbd2/<dev>/info delta, and
#    increase() over it is that delta up to Prometheus's extrapolation;
#  - mkdir and create counts equal the workload's own counts;
#  - blocked seconds by class (the workload's, every class of 50 ms or
#    more) are within 5% of a `fslens record` + `report` of the same
#    workload, run at the same time. The workload runs in a cgroup v2 of its
#    own and the monitor labels series by cgroup (--cgroup-label), so both
#    count the same tasks: the recorder's own syncs at its start and end
#    wait on the target too, and are no part of the report's workload.
# Workload: a 1 MiB journal, 1K blocks, N mkdir (the htree create storm),
# then M files created by a C loop (open O_CREAT|O_EXCL + close, syncfs),
# then F small files written with fsync (commit waits, cache flushes), then
# syncfs. syncfs, not sync(2): sync waits for every filesystem's flusher in
# turn, and a wait for another filesystem's flusher work that the kernel
# marked with nothing (no writeback_queue just before it) is the target's
# in the report (by the process's other waits) and "other" in the monitor
# (the flusher that woke it had ended work on another disk): 20 to 60 ms of
# commit_wait here, all of it on other filesystems.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v prometheus >/dev/null || { skip all "no prometheus (apt-get install prometheus)"; exit 0; }
command -v promtool >/dev/null || { skip all "no promtool"; exit 0; }
N=${MONITOR_MKDIRS:-12000}
M=${MONITOR_CREATES:-3000}
F=${MONITOR_FSYNCS:-100}
MPORT=$((20000 + $$ % 5000))
PPORT=$((MPORT + 5000))

scratch_fs 256 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
mkdir "$SCRATCH_MNT/d" "$SCRATCH_MNT/f" "$SCRATCH_MNT/g"
${CC:-gcc} -O2 -o "$T_TMP/createmany" "$TOP/bench/record_createmany.c" || { fail setup "cc"; exit 1; }
sync
# this machine mounts cgroup v1; the workload's cgroup is in a cgroup2 mount of our own
mkdir "$T_TMP/cg2" && mount -t cgroup2 none "$T_TMP/cg2" || { fail setup "cannot mount cgroup2"; exit 1; }
at_exit "umount -l $T_TMP/cg2"
CG=fsl_prom_$$
mkdir "$T_TMP/cg2/$CG" || { fail setup "cannot make a cgroup"; exit 1; }
at_exit "rmdir $T_TMP/cg2/$CG"

"$FSLENS" monitor -m "$SCRATCH_MNT" --listen 127.0.0.1:$MPORT --interval 1 --cgroup-label \
	2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON; wait $MON"
cat >"$T_TMP/prom.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: fslens
    static_configs:
      - targets: ['127.0.0.1:$MPORT']
EOF
prometheus --config.file="$T_TMP/prom.yml" --storage.tsdb.path="$T_TMP/tsdb" \
	--web.listen-address=127.0.0.1:$PPORT >"$T_TMP/prom.log" 2>&1 &
PROM=$!
at_exit "kill $PROM; wait $PROM"

q() {	# q PROMQL [TIME]: the first result's value (0 if none)
	curl -s "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} |
		jq -r '.data.result[0].value[1] // "0"'
}

for _ in $(seq 1 60); do
	[ "$(q 'up{job="fslens"}')" = 1 ] && break
	sleep 0.5
done
check_eq prometheus-scrapes "$(q 'up{job="fslens"}')" 1

curl -s "http://127.0.0.1:$MPORT/metrics" >"$T_TMP/metrics0.txt"
check_cmd promtool-check-metrics promtool check metrics <"$T_TMP/metrics0.txt"

jcommits() {
	awk '/transactions \(/ { print $1 }' /proc/fs/jbd2/"$(basename "$SCRATCH_LOOP")"-*/info
}
FS="fs=\"$SCRATCH_MNT\""
sleep 3	# the monitor's read and a scrape after the last change
T0=$(jcommits)
t0=$(date +%s.%N)
# --min-wait 0: the monitor counts every wait, so the recording must too
# The sync is the command's: outside it, its waits are the monitor's alone
# (seen: flush 0.023 s vs 0.001 s, txn_locked 0.353 vs 0.331 s).
"$FSLENS" record -m "$SCRATCH_MNT" --min-wait 0 -o "$T_TMP/w.trace" -- sh -c \
	"echo \$\$ >$T_TMP/cg2/$CG/cgroup.procs && cd $SCRATCH_MNT/d && seq 1 $N | xargs mkdir &&
	 CREATEMANY_SYNCFS=1 $T_TMP/createmany ../f $M && cd ../g &&
	 for i in \$(seq 1 $F); do dd if=/dev/zero of=s\$i bs=4k count=1 conv=fsync 2>/dev/null; done &&
	 sync -f ." \
	>"$T_TMP/rec.out" 2>"$T_TMP/rec.err"
check_eq record "$?" 0
sleep 4
T1=$(jcommits)
t1=$(date +%s.%N)
curl -s "http://127.0.0.1:$MPORT/metrics" >"$T_TMP/metrics1.txt"
check_cmd promtool-check-metrics-after promtool check metrics <"$T_TMP/metrics1.txt"

c0=$(q "sum(fslens_journal_commits_total{$FS})" "$t0")
c1=$(q "sum(fslens_journal_commits_total{$FS})" "$t1")
echo "    commits: /proc $T0 -> $T1, prometheus $c0 -> $c1" >&2
check_ge commits-nonzero "$((T1 - T0))" 10
check_eq commits-vs-proc "$((c1 - c0))" "$((T1 - T0))"
# the counter is flat for seconds before t0 and after the workload: the
# range covers the whole change
range=$(python3 -c "import math; print(math.ceil($t1 - $t0))")
inc=$(q "sum(increase(fslens_journal_commits_total{$FS}[${range}s]))" "$t1")
echo "    increase() over ${range}s: $inc" >&2
# increase() extrapolates to the range's ends: at most by a scrape interval each side
check_cmd increase-vs-proc python3 -c "
import sys; d, i, r = $((T1 - T0)), float('$inc'), $range
sys.exit(0 if d <= i + 0.5 and i <= d * r / (r - 2.2) + 0.5 else 1)"

mk=$(q "sum(fslens_op_latency_seconds_count{$FS,op=\"mkdir\"})" "$t1")
cr=$(q "sum(fslens_op_latency_seconds_count{$FS,op=\"create\"})" "$t1")
check_eq mkdir-count "$mk" "$N"
check_eq create-count "$cr" "$((M + F))"	# and the fsynced files dd creates
check_eq mkdirs-on-disk "$(find "$SCRATCH_MNT/d" -mindepth 1 -type d | wc -l)" "$N"
check_eq files-on-disk "$(find "$SCRATCH_MNT/f" -type f | wc -l)" "$M"

"$FSLENS" report --json "$T_TMP/w.trace" >"$T_TMP/w.json" 2>"$T_TMP/rep.err"
check_eq report "$?" 0
# every class the report gives the workload at least 50 ms in
python3 - "$T_TMP/w.json" >"$T_TMP/classes" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for c, v in r["blocked"]["classes"].items():
    if v.get("workload_ns", 0) >= 50e6:
        print(c, v["workload_ns"] / 1e9)
PY
# at least two classes of 50 ms to compare (log space and commit wait are
# there on every machine; a fast one may leave the fsync writeback below it)
check_ge report-classes "$(wc -l <"$T_TMP/classes")" 2
# the fsyncs' commit waits are among them (the class the old test left out)
check_grep report-has-commit-wait '^commit_wait ' "$T_TMP/classes"
CGL="cgroup=\"/$CG\""
while read -r cls rep; do
	b0=$(q "sum(fslens_blocked_seconds_total{$FS,$CGL,role=\"workload\",class=\"$cls\"})" "$t0")
	b1=$(q "sum(fslens_blocked_seconds_total{$FS,$CGL,role=\"workload\",class=\"$cls\"})" "$t1")
	check_cmd "blocked-$cls-within-5pct" python3 -c "
import sys; m, r = float('$b1') - float('$b0'), $rep
print('    %s: monitor %.3f s, report %.3f s (%+.1f%%)' % ('$cls', m, r, 100 * (m - r) / r),
      file=sys.stderr)
sys.exit(0 if abs(m - r) <= 0.05 * r else 1)"
done <"$T_TMP/classes"
# and the workload's total blocked time on the target
tot_rep=$(python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))
print(sum(v.get("workload_ns", 0) for v in r["blocked"]["classes"].values()) / 1e9)' "$T_TMP/w.json")
tb0=$(q "sum(fslens_blocked_seconds_total{$FS,$CGL,role=\"workload\"})" "$t0")
tb1=$(q "sum(fslens_blocked_seconds_total{$FS,$CGL,role=\"workload\"})" "$t1")
check_cmd blocked-total-within-5pct python3 -c "
import sys; m, r = float('$tb1') - float('$tb0'), $tot_rep
print('    total: monitor %.3f s, report %.3f s (%+.1f%%)' % (m, r, 100 * (m - r) / r),
      file=sys.stderr)
sys.exit(0 if abs(m - r) <= 0.05 * r else 1)"

kill -TERM $MON
wait $MON
check_eq monitor-sigterm-exit "$?" 0
check_grep monitor-stopped 'stopped' "$T_TMP/mon.err"
exit $((T_FAILS > 0))
