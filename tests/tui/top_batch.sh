#!/bin/bash
# fslens top -b on a replay: one frame per interval of trace time, the
# rates of each interval, the totals (-a), and the same numbers as
# `fslens report --json` over the same events.
. tests/lib.sh

TRACE=$T_TMP/t.trace
"$BUILD/tests/top_trace" "$TRACE" 10 || { fail gen "top_trace failed"; exit 1; }
out=$T_TMP/frames
# The last frame of a batch output.
last_frame() { awk '/^ fslens top/ { f = "" } { f = f $0 "\n" } END { printf "%s", f }' "$1"; }

# Every second of the synthetic trace holds the same work, all of it done
# inside the second, so every 1 s and 2 s window shows the same rates.
"$FSLENS" top --replay "$TRACE" -b -i 1 -w 80 > "$out"; rc=$?
check_eq batch-rc "$rc" 0
check_eq frames-1s "$(grep -c '^ fslens top' "$out")" 10
check_eq frames-1s-ops "$(grep -c 'ops/s 180\.0  creates/s 150\.0  IOPS 30\.0 ' "$out")" 10
check_eq frames-1s-commits "$(grep -c 'commits/s 1\.00  avg commit ms 4\.00' "$out")" 10
check_eq frames-1s-interval "$(grep -c 'interval 1\.0s' "$out")" 10
check_eq frames-1s-elapsed "$(sed -nE 's/.*elapsed ([0-9.]+)s.*/\1/p' "$out" | tr '\n' ' ')" \
	"1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0 "
check_eq frames-end-once "$(grep -c '\[END\]' "$out")" 1
check_grep frames-last-is-end '\[END\]' <(grep '^ fslens top' "$out" | tail -1)
check_eq frames-1s-mkdir "$(grep -cE '^ +1001 mkdir +100 +1\.00 +100 ' "$out")" 10

"$FSLENS" top --replay "$TRACE" -b -i 2 -n 3 -w 80 --view stalls > "$out"
check_eq frames-2s-n3 "$(grep -c '^ fslens top' "$out")" 3
check_eq frames-2s-stalls "$(grep -cE '^journal_log_space +100\.0 +83\.3 +40 ' "$out")" 3
check_eq frames-2s-dirread "$(grep -cE '^dir_block_read +20\.0 +16\.7 +20 ' "$out")" 3
# sparkline: one point per interval so far, same height
check_grep frames-2s-history $'^journal_log_space .* \u2588\u2588\u2588 __jbd2' <(last_frame "$out")

# --speed scales the trace time of an interval: 1 s at x5 is 5 s of trace
"$FSLENS" top --replay "$TRACE" -b -i 1 --speed 5 -w 80 > "$out"
check_eq speed-frames "$(grep -c '^ fslens top' "$out")" 2
check_eq speed-interval "$(grep -c 'interval 5\.0s' "$out")" 2

# -a: totals since the start; -p: the filter starts as that pid
"$FSLENS" top --replay "$TRACE" -b -a -p 1002 -w 80 > "$out"
check_grep totals-title 'elapsed 10\.0s  \[END\]  totals' <(last_frame "$out")
check_grep totals-ops 'ops/s 180\.0' <(last_frame "$out")
check_grep pid-filter-tar '^ +1002 tar ' <(last_frame "$out")
check_eq pid-filter-only-tar "$(last_frame "$out" | grep -cE '^ +[0-9]+ [a-z]')" 1
check_grep pid-filter-shown 'filter 1002' <(last_frame "$out")

# ---- the same numbers as fslens report --json over the whole trace ----
json=$T_TMP/report.json
if ! "$FSLENS" report --json "$TRACE" > "$json" 2>"$T_TMP/report.err"; then
	if grep -q 'not implemented' "$T_TMP/report.err"; then
		skip report-equal "fslens report is not in this build yet"
		exit 0
	fi
	fail report-json "$(head -3 "$T_TMP/report.err")"
	exit 0
fi
"$FSLENS" top --replay "$TRACE" -b -a -w 200 > "$out"
python3 - "$json" "$out" <<'EOF'
import json, re, sys
rep = json.load(open(sys.argv[1]))
frame = open(sys.argv[2]).read().split('\n fslens top')[-1]
def shown(label):
    m = re.search(re.escape(label) + r' ([0-9.]+)', frame)
    return m.group(1) if m else None
dur = 10.0
ops = rep['ops']
total = sum(v['count'] for v in ops.values()) if isinstance(ops, dict) else sum(o['count'] for o in ops)
def opcount(name):
    if isinstance(ops, dict):
        return ops.get(name, {}).get('count', 0)
    return sum(o['count'] for o in ops if o.get('type') == name)
creates = sum(opcount(n) for n in ('create', 'mkdir', 'mknod', 'symlink'))
devs = rep['blockio'] if isinstance(rep['blockio'], list) else rep['blockio'].get('devices', [])
want = {
    'ops/s': '%.1f' % (total / dur),
    'creates/s': '%.1f' % (creates / dur),
    'IOPS': '%.1f' % (sum(d['completed'] for d in devs) / dur),
    'read MB/s': '%.2f' % (sum(d['read_bytes'] for d in devs) / 1e6 / dur),
    'write MB/s': '%.2f' % (sum(d['write_bytes'] for d in devs) / 1e6 / dur),
    'seeks/s': '%.1f' % (sum(d['seeks'] for d in devs) / dur),
    'commits/s': '%.2f' % (rep['journal']['commits'] / dur),
    'avg commit ms': '%.2f' % (rep['journal']['avg_commit_us'] / 1000.0),
    'lost': str(sum(rep['trace']['lost'].values()) if isinstance(rep['trace']['lost'], dict) else rep['trace']['lost']),
}
for k, v in want.items():
    got = shown(k)
    if got == v:
        print('PASS tui/top_batch:report-equal-%s' % k.replace(' ', '-').replace('/', '_'))
    else:
        print('FAIL tui/top_batch:report-equal-%s: top shows %s, report gives %s' % (k.replace(' ', '-').replace('/', '_'), got, v))
EOF
exit 0
