#!/usr/bin/env python3
# Every window of `fslens top --replay TRACE -b -i SEC`, every view, against
# `fslens report --json --from --to` of the same window, value for value; and
# no process row blocked more than 1000 ms/s (one thread each in the traces
# this is run on). Views: processes, stalls, journal, devices, dirs, files
# (read()/write() family bytes, calls and call time per file; the edges
# trace of fsl_mktrace has some). Durations top does not show (dirty-limit
# pauses: report's writeback.throttle and processes[].throttle_ns) are
# checked the same way on report's side: split at the edges (at most the
# window for one thread), the windows summed equal to the whole trace.
# Prints PASS/FAIL lines for tests/run.
#   top_windows.py FSLENS TRACE SEC TAG WORKDIR
# SEC "a": the totals frame (`top -a`) against the whole trace's report.
import json, os, re, subprocess, sys

fslens, trace, sec, tag, work = sys.argv[1:6]
totals = sec == 'a'
step = 0 if totals else float(sec)
VIEWS = ['processes', 'stalls', 'journal', 'devices', 'dirs', 'files']
results = []


def check(what, got, want):
    results.append((what, got, want))


def run(args):
    return subprocess.run([fslens] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout


frames = {}
for v in VIEWS:
    out = run(['top', '--replay', trace, '-b', '-w', '120', '--view', v] +
              (['-a'] if totals else ['-i', sec]))
    frames[v] = [f.split('\n') for f in ('\n' + out).split('\n fslens top')[1:]]
    if totals:
        frames[v] = frames[v][-1:]
n = len(frames['processes'])
check('frames', (totals or n > 1) and all(len(frames[v]) == n for v in VIEWS), True)
whole = json.loads(run(['report', '--json', trace]))
dur_ns = whole['trace']['end_ns'] - whole['trace']['start_ns']


def fmt(v, width, prec):
    # top_fmt_num without the k/M suffixes: fewer decimals until it fits
    for p in range(prec, -1, -1):
        s = '%*.*f' % (width, p, v)
        if len(s) <= width:
            return s.strip()
    return None


groups = {'JRNL': ['journal_log_space', 'txn_locked', 'buffer_under_commit', 'commit_wait',
                   'handle_start'],
          'DIRRD': ['dir_block_read'], 'THRTL': ['writeback_throttle', 'block_throttle'],
          'IO': ['inode_table_read', 'bitmap_read', 'fsync_writeback', 'free_space_writeback',
                 'aio_wait', 'page_wait', 'queue_wait', 'flush', 'other_io']}	# tui/feed.c

sums = {}


def add(key, v):
    sums[key] = sums.get(key, 0) + v


for k in range(n):
    t0 = round(k * step * 1e9)
    last = k == n - 1
    t1 = dur_ns if last else round((k + 1) * step * 1e9)
    args = ['report', '--json', '--from', '%.9f' % (t0 / 1e9)]
    if not last:	# the last frame is open-ended, as top's
        args += ['--to', '%.9f' % (t1 / 1e9)]
    args.append(trace)
    rep = whole if totals else json.loads(run(args))
    w = (t1 - t0) / 1e9
    pre = 'totals ' if totals else 'w%d ' % k
    # consecutive windows add up to the whole trace (checked after the loop)
    add('workload_ns', rep['blocked']['workload_ns'])
    add('waits', rep['blocked']['waits'])
    add('ops', rep['ops']['total'])
    add('commits', rep['journal']['commits'])
    add('ios', sum(d['completed'] for d in rep['blockio']))
    for p in rep['processes']:
        add('pid %d blocked_ns' % p['pid'], p['blocked_ns'])
        add('pid %d throttle_ns' % p['pid'], p['throttle_ns'])
        check(pre + 'pid %d throttle <= window' % p['pid'], p['throttle_ns'] <= t1 - t0, True)
    thr = rep['writeback']['throttle']
    add('throttle pauses', thr['pauses'])
    add('throttle ms', round(thr['seconds'] * 1000))
    for d in rep['ops']['dirs']:
        add('dir %s lookup_wait_ns' % d['path'], round(d['lookup_wait_us'] * 1000))
        check(pre + 'dir %s lookup wait <= window' % d['path'],
              round(d['lookup_wait_us'] * 1000) <= t1 - t0, True)
    hdr = '\n'.join(frames['processes'][k][:4])

    def shown(label):
        m = re.search(' ' + re.escape(label) + r' ([0-9.]+|-)', hdr)
        # top shows a level as "-" until the first global_dirty_state; report 0
        return '0.0' if m and m.group(1) == '-' and 'MB' in label else m.group(1) if m else None
    ops = rep['ops']
    cnt = lambda t: ops['types'].get(t, {}).get('count', 0)
    devs = rep['blockio']
    tot = lambda f: sum(d[f] for d in devs)
    j = rep['journal']
    for lbl, v in {
        'ops/s': '%.1f' % (ops['total'] / w),
        'creates/s': '%.1f' % ((cnt('create') + cnt('mkdir') + cnt('mknod') + cnt('symlink')) / w),
        'IOPS': '%.1f' % (tot('completed') / w),
        'read MB/s': '%.2f' % (tot('read_bytes') / 1e6 / w),
        'write MB/s': '%.2f' % (tot('write_bytes') / 1e6 / w),
        'seeks/s': '%.1f' % (tot('seeks') / w),
        'commits/s': '%.2f' % (j['commits'] / w),
        'avg commit ms': '%.2f' % (j['avg_commit_us'] / 1000.0),
        # levels as of the frame's end, and the trace's losses
        'dirty MB': '%.1f' % (rep['writeback']['dirty_pages'] * 4096 / 1e6),
        'writeback MB': '%.1f' % (rep['writeback']['writeback_pages'] * 4096 / 1e6),
        'lost': str(rep['trace']['lost_total']),
    }.items():
        check(pre + 'header ' + lbl, shown(lbl), v)

    rows = {}
    for line in frames['processes'][k]:
        m = re.match(r'^ *(\d+) (.{15}) (.*)$', line)
        if m:
            rows[int(m.group(1))] = m.group(3).split()
    # a task shows when it did or waited on filesystem work: path calls, waits, block
    # I/O, or read()/write() family calls on the target's files (report's data.procs)
    data_rw = set(d['pid'] for d in rep['data']['procs'] if d['reads'] or d['writes'])
    want_pids = sorted(p['pid'] for p in rep['processes']
                       if p['ops'] or p['blocked_ns'] or p['read_bytes'] or p['write_bytes'] or
                       p['pid'] in data_rw)
    check(pre + 'process rows', sorted(rows), want_pids)
    for p in rep['processes']:
        r = rows.get(p['pid'])
        if not r:
            continue
        bc = p['blocked_by_class_ns']
        ms = lambda g: sum(bc.get(c, 0) for c in groups[g]) / 1e6 / w
        want = [fmt(p['blocked_ns'] / 1e6 / w, 5, 0),
                fmt(p['ops'] / w, 6, 0), fmt(p['op_p99_us'] / 1e3, 5, 2),
                fmt(ms('JRNL'), 5, 0), fmt(ms('DIRRD'), 5, 0),
                fmt(ms('THRTL'), 5, 0), fmt(ms('IO'), 5, 0),
                fmt(p['read_bytes'] / 1e6 / w, 6, 1), fmt(p['write_bytes'] / 1e6 / w, 6, 1)]
        for i, col in enumerate(['BLKms', 'OPS/s', 'P99ms', 'JRNL', 'DIRRD', 'THRTL', 'IO',
                                 'RDMB/s', 'WRMB/s']):
            check(pre + 'pid %d %s' % (p['pid'], col), r[i], want[i])
        # blocked time is split at window edges: one thread, at most the window
        check(pre + 'pid %d blocked <= 1000 ms/s' % p['pid'],
              p['blocked_ns'] <= t1 - t0 and all(float(x) <= 1000.5 for x in [r[0]] + r[3:7]), True)

    srows = {}
    for line in frames['stalls'][k]:
        f = line.split()
        if len(f) >= 4 and re.match(r'^[a-z_]+$', f[0]) and f[0] in rep['blocked']['classes']:
            srows[f[0]] = f[1:4]
    wl = rep['blocked']['workload_ns']
    for c, v in rep['blocked']['classes'].items():
        others = v['kthread_ns'] or v['other_ns']
        if not v['workload_ns'] and (others or not v['waits']):
            continue	# top's rows are the workload's
        want = [fmt(v['workload_ns'] / 1e6 / w, 7, 1),
                fmt(100.0 * v['workload_ns'] / wl if wl else 0, 6, 1), str(v['waits'])]
        got = srows.get(c)
        if others and got:	# report counts every task's waits, top the workload's
            want, got = want[:2], got[:2]
        check(pre + 'stall %s' % c, got, want)

    # journal: the view lists the transactions up to the frame, newest first, as many as
    # the screen holds; the window's, newest first, must be the top of that list
    tids = [int(l.split()[0]) for l in frames['journal'][k] if re.match(r'^ +\d+ [a-z_]+ ', l)]
    mine = [t['tid'] for t in j['transactions']]
    keep = min(len(tids), len(mine))
    check(pre + 'journal tids', sorted(tids)[-keep:] if keep else [],
          sorted(mine)[-keep:] if keep else [])
    for l in frames['journal'][k]:
        f = l.split()
        for t in j['transactions']:
            if len(f) > 8 and re.match(r'^\d+$', f[0]) and int(f[0]) == t['tid']:
                check(pre + 'txn %d' % t['tid'], [f[1]] + f[2:4] + [f[8]],
                      [t['trigger'], str(t['handles']), str(t['blocks']),
                       fmt(t['commit_ns'] / 1e6, 9, 2)])

    for l in frames['devices'][k]:
        f = l.split()
        for d in devs:
            if f and f[0] == d['dev']:
                check(pre + 'dev %s' % d['dev'], f[1:7],
                      [fmt(d['completed'] / w, 7, 0), fmt(d['read_bytes'] / 1e6 / w, 7, 1),
                       fmt(d['write_bytes'] / 1e6 / w, 7, 1), fmt(d['q2c_avg_us'] / 1e3, 7, 2),
                       fmt(d['d2c_avg_us'] / 1e3, 7, 2), fmt(d['seeks'] / w, 8, 1)])

    drows = {}
    for l in frames['dirs'][k]:
        f = l.split(None, 3)
        if len(f) == 4:
            drows[f[3]] = f[:3]
    for d in ops['dirs']:
        check(pre + 'dir %s' % d['path'], drows.get(d['path']),
              [fmt(d['ops'] / w, 8, 1), fmt(d['lookup_wait_us'] / 1e3 / w, 9, 1),
               fmt(d['latency_us'] / 1e3 / w, 9, 1)])

    # files: the target's files by data-operation bytes, each value of the window's
    frows = {}
    for l in frames['files'][k]:
        f = l.split()
        if len(f) == 7 and re.match(r'^\d+$', f[5]):
            frows[int(f[5])] = f[:5] + [f[6]]
    for d in rep['data']['files']:
        add('file %d reads' % d['ino'], d['reads'])
        add('file %d call_us' % d['ino'], d['call_us'])
        check(pre + 'file %d' % d['ino'], frows.get(d['ino'] & 0xffffffff),
              [fmt(d['read_bytes'] / 1e6 / w, 7, 2), fmt(d['write_bytes'] / 1e6 / w, 7, 2),
               fmt(d['reads'] / w, 8, 0), fmt(d['writes'] / w, 8, 0),
               fmt(d['call_us'] / 1e3 / w, 9, 1), d['name']])
    check(pre + 'file rows', sorted(frows), sorted(d['ino'] & 0xffffffff for d in rep['data']['files']))

want = {'workload_ns': whole['blocked']['workload_ns'], 'waits': whole['blocked']['waits'],
        'ops': whole['ops']['total'], 'commits': whole['journal']['commits'],
        'ios': sum(d['completed'] for d in whole['blockio'])}
for p in whole['processes']:
    if p['blocked_ns']:
        want['pid %d blocked_ns' % p['pid']] = p['blocked_ns']
    if p['throttle_ns']:
        want['pid %d throttle_ns' % p['pid']] = p['throttle_ns']
want['throttle pauses'] = whole['writeback']['throttle']['pauses']
want['throttle ms'] = round(whole['writeback']['throttle']['seconds'] * 1000)
for d in whole['ops']['dirs']:
    if d['lookup_wait_us']:
        want['dir %s lookup_wait_ns' % d['path']] = round(d['lookup_wait_us'] * 1000)
for d in whole['data']['files']:
    want['file %d reads' % d['ino']] = d['reads']
    want['file %d call_us' % d['ino']] = d['call_us']
for key, v in want.items():
    check('sum of windows ' + key, sums.get(key, 0), v)

# A failure names its window; passes are summed per kind so the log stays short.
nfail = 0
for what, got, want in results:
    if got != want:
        nfail += 1
        if nfail <= 40:
            print('FAIL %s:%s: top shows %s, report gives %s'
                  % (tag, re.sub(r'[^A-Za-z0-9_./%-]+', '-', what), got, want))
if nfail > 40:
    print('FAIL %s:more: %d more differences' % (tag, nfail - 40))
if not nfail:
    print('PASS %s:windows-%d-values-%d' % (tag, n, len(results)))
