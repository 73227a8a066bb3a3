#!/bin/bash
# fslens top -b on a replay: one frame per interval of trace time, the
# rates of each interval, the totals (-a), and the same numbers as
# `fslens report --json` over the same events.
. tests/lib.sh
# The frames are checked with their UTF-8 sparklines: run in a UTF-8 locale
# whatever the caller's (top prints ASCII bars in others, tested elsewhere).
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE

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
check_eq frames-1s-mkdir "$(grep -cE '^ +1001 mkdir +100 +100 +1\.00 +100 ' "$out")" 10

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

# A trace cut short (recorder killed): what is there is shown, the reader's
# warning comes after the frames, on stderr.
head -c $(( $(stat -c %s "$TRACE") / 2 )) "$TRACE" > "$T_TMP/cut.trace"
"$FSLENS" top --replay "$T_TMP/cut.trace" -b -a -w 80 > "$out" 2> "$T_TMP/cut.err"
check_eq cut-rc $? 0
check_grep cut-warning '^fslens top: warning: trace is cut short' "$T_TMP/cut.err"
check_grep cut-frame 'fslens top  /mnt/t \(7:0\)' "$out"

# ---- the same numbers as fslens report --json over the same events ----
# Totals (-a) against the whole trace, and the third 2 s frame of a ramp
# against report --from 4 --to 6: header, processes, stalls, journal,
# devices, dirs.
compare() {	# NAME REPORT-ARGS... -- TOP-ARGS...
	local name=$1 rargs=() v
	shift
	while [ "$1" != "--" ]; do rargs+=("$1"); shift; done
	shift
	if ! "$FSLENS" report --json "${rargs[@]}" "$CTRACE" > "$T_TMP/$name.json" 2>"$T_TMP/err"; then
		fail "$name-report" "$(head -3 "$T_TMP/err")"
		return
	fi
	for v in processes stalls journal devices dirs; do
		"$FSLENS" top --replay "$CTRACE" -b -w 120 --view $v "$@" > "$T_TMP/$name.$v"
	done
	python3 - "$name" "$T_TMP/$name" <<'PY'
import json, re, sys
name, base = sys.argv[1], sys.argv[2]
rep = json.load(open(base + '.json'))
w = rep['trace']['duration_s'] if not rep['window']['t1_ns'] else \
    (rep['window']['t1_ns'] - rep['window']['t0_ns']) / 1e9

def frame(view, k):
    frames = open('%s.%s' % (base, view)).read().split('\n fslens top')[1:]
    return frames[k].split('\n')

def fmt(v, width, prec):
    # top_fmt_num without the k/M suffixes: fewer decimals until it fits
    for p in range(prec, -1, -1):
        s = '%*.*f' % (width, p, v)
        if len(s) <= width:
            return s.strip()
    return None

results = []
def check(what, got, want):
    results.append((what, got, want))

k = int(sys.argv[3]) if len(sys.argv) > 3 else -1
hdr = '\n'.join(frame('processes', -1)[:4])
def shown(label):
    m = re.search(' ' + re.escape(label) + r' ([0-9.]+)', hdr)
    return m.group(1) if m else None
ops = rep['ops']
cnt = lambda t: ops['types'].get(t, {}).get('count', 0)
devs = rep['blockio']
tot = lambda f: sum(d[f] for d in devs)
j = rep['journal']
want = {
    'ops/s': '%.1f' % (ops['total'] / w),
    'creates/s': '%.1f' % ((cnt('create') + cnt('mkdir') + cnt('mknod') + cnt('symlink')) / w),
    'IOPS': '%.1f' % (tot('completed') / w),
    'read MB/s': '%.2f' % (tot('read_bytes') / 1e6 / w),
    'write MB/s': '%.2f' % (tot('write_bytes') / 1e6 / w),
    'seeks/s': '%.1f' % (tot('seeks') / w),
    'commits/s': '%.2f' % (j['commits'] / w),
    'avg commit ms': '%.2f' % (j['avg_commit_us'] / 1000.0),
    'dirty MB': '%.1f' % (rep['writeback']['dirty_pages'] * 4096 / 1e6),
    'writeback MB': '%.1f' % (rep['writeback']['writeback_pages'] * 4096 / 1e6),
    'lost': str(rep['trace']['lost_total']),
}
for lbl, v in want.items():
    check('header ' + lbl, shown(lbl), v)

# processes: PID(7) COMM(15) BLKms(5,0) OPS/s(6,0) P99ms(5,2) JRNL DIRRD THRTL IO (5,0) RD WR (6,1)
groups = {'JRNL': ['journal_log_space', 'txn_locked', 'buffer_under_commit', 'commit_wait',
                   'handle_start'],
          'DIRRD': ['dir_block_read'], 'THRTL': ['writeback_throttle'],
          'IO': ['inode_table_read', 'bitmap_read', 'page_wait', 'queue_wait', 'flush',
                 'other_io']}
rows = {}
for line in frame('processes', -1):
    m = re.match(r'^ *(\d+) (.{15}) (.*)$', line)
    if m:
        rows[int(m.group(1))] = m.group(3).split()
check('process rows', sorted(rows), sorted(p['pid'] for p in rep['processes']))
for p in rep['processes']:
    r = rows.get(p['pid'])
    if not r:
        continue
    bc = p['blocked_by_class_ns']
    ms = lambda g: sum(bc.get(c, 0) for c in groups[g]) / 1e6 / w
    want = [fmt(sum(bc.values()) / 1e6 / w, 5, 0),
            fmt(p['ops'] / w, 6, 0), fmt(p['op_p99_us'] / 1e3, 5, 2),
            fmt(ms('JRNL'), 5, 0), fmt(ms('DIRRD'), 5, 0),
            fmt(ms('THRTL'), 5, 0), fmt(ms('IO'), 5, 0),
            fmt(p['read_bytes'] / 1e6 / w, 6, 1), fmt(p['write_bytes'] / 1e6 / w, 6, 1)]
    for i, col in enumerate(['BLKms', 'OPS/s', 'P99ms', 'JRNL', 'DIRRD', 'THRTL', 'IO', 'RDMB/s', 'WRMB/s']):
        check('pid %d %s' % (p['pid'], col), r[i], want[i])

# stalls: CLASS MS/s(7,1) SHARE%(6,1) WAITS
srows = {}
for line in frame('stalls', -1):
    f = line.split()
    if len(f) >= 4 and re.match(r'^[a-z_]+$', f[0]) and f[0] in rep['blocked']['classes']:
        srows[f[0]] = f[1:4]
wl = rep['blocked']['workload_ns']
for c, v in rep['blocked']['classes'].items():
    if not v['waits']:
        continue
    check('stall %s' % c, srows.get(c),
          [fmt(v['workload_ns'] / 1e6 / w, 7, 1), fmt(100.0 * v['workload_ns'] / wl, 6, 1),
           str(v['waits'])])

# journal: the view lists every transaction since the start, newest first
tids = [int(l.split()[0]) for l in frame('journal', -1) if re.match(r'^ +\d+ [a-z_]+ ', l)]
check('journal tids', sorted(tids)[-len(j['transactions']):] if j['transactions'] else [],
      sorted(t['tid'] for t in j['transactions']))
for l in frame('journal', -1):
    f = l.split()
    for t in j['transactions']:
        if len(f) > 8 and re.match(r'^\d+$', f[0]) and int(f[0]) == t['tid']:
            check('txn %d' % t['tid'], [f[1]] + f[2:4] + [f[8]],
                  [t['trigger'], str(t['handles']), str(t['blocks']),
                   fmt(t['commit_ns'] / 1e6, 9, 2)])

# devices: DEVICE IOPS(7,0) RDMB/s WRMB/s(7,1) Q2Cms D2Cms(7,2) SEEKS/s(8,1)
for l in frame('devices', -1):
    f = l.split()
    for d in devs:
        if f and f[0] == d['dev']:
            check('dev %s' % d['dev'], f[1:7],
                  [fmt(d['completed'] / w, 7, 0), fmt(d['read_bytes'] / 1e6 / w, 7, 1),
                   fmt(d['write_bytes'] / 1e6 / w, 7, 1), fmt(d['q2c_avg_us'] / 1e3, 7, 2),
                   fmt(d['d2c_avg_us'] / 1e3, 7, 2), fmt(d['seeks'] / w, 8, 1)])

# directories: OPS/s(8,1) LOOKms/s(9,1) CALLms/s(9,1) PATH
drows = {}
for l in frame('dirs', -1):
    f = l.split(None, 3)
    if len(f) == 4 and f[3].startswith('/'):
        drows[f[3]] = f[:3]
for d in ops['dirs']:
    check('dir %s' % d['path'], drows.get(d['path']),
          [fmt(d['ops'] / w, 8, 1), fmt(d['lookup_wait_us'] / 1e3 / w, 9, 1),
           fmt(d['latency_us'] / 1e3 / w, 9, 1)])

for what, got, want in results:
    tag = '%s-%s' % (name, re.sub(r'[^A-Za-z0-9_.%-]+', '-', what))
    if got == want:
        print('PASS tui/top_batch:report-equal-' + tag)
    else:
        print('FAIL tui/top_batch:report-equal-%s: top shows %s, report gives %s' % (tag, got, want))
PY
}
CTRACE=$TRACE
compare totals -- -a
# a trace whose every second differs, so a window shifted by one would not match
CTRACE=$T_TMP/ramp.trace
"$BUILD/tests/top_trace" "$CTRACE" 8 1 ramp || fail gen-ramp "top_trace failed"
compare ramp-totals -- -a
compare ramp-window-4-6 --from 4 --to 6 -- -i 2 -n 3
exit 0
