#!/bin/bash
# fslens record of a small fsync-heavy workload on a scratch ext4, exported to
# blktrace and read by the real tools:
#  - blkparse -i reads it without errors or skips; its Q, G, I, M, F, D, C
#    counts equal the trace's own events read with trace_query (Q, G, M, F
#    the bios', M also the requests merged away, D = issues, C =
#    completions, flush completions included);
#  - the CSV io table has a row per dispatch with data;
#  - fslens report's block I/O section on the same trace (with its cache
#    flushes and the second completions of preflush/FUA requests) agrees with
#    btt: D2C and Q2C averages within 1% over the same bios, dispatches =
#    btt's D2D NSEEKS, seeks = the non-zero lines of btt -s, the same mean and
#    mode distance, and completions = blkparse's C; its read and write seeks
#    apart (dispatches, seeks, mean distance) equal btt -s's _d2d_r.dat and
#    _d2d_w.dat (the workload ends with O_DIRECT reads of the 24 files);
#  - the Perfetto export of the trace is valid JSON with one async slice per
#    issued request, and each of the 24 fsyncs has a flow arrow to the commit
#    that ended inside it.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
for tool in blkparse btt python3; do
	command -v $tool >/dev/null || { fail tools "$tool not installed"; exit 1; }
done
Q=$T_BUILD
Q=$Q/tests/trace_query
PY=$(python3 -c 'import sys; print(sys.executable)')	# not the slow pyenv shim

scratch_fs 64 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
LOOP=$(basename "$SCRATCH_LOOP")
cd "$T_TMP" || exit 1
# mq-deadline so that requests are inserted (Q2C != D2C)
sched=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/"$LOOP"/queue/scheduler)
at_exit "echo $sched >/sys/block/$LOOP/queue/scheduler"
echo mq-deadline >/sys/block/"$LOOP"/queue/scheduler 2>/dev/null ||
	{ fail scheduler "cannot select mq-deadline: $(cat /sys/block/$LOOP/queue/scheduler)"; exit 1; }

"$FSLENS" record -m "$M" -o r.trace -- sh -c "
	for i in \$(seq 1 24); do
		dd if=/dev/urandom of=$M/f\$i bs=16k count=4 conv=fsync status=none
	done
	mkdir $M/d; for i in \$(seq 1 100); do echo x > $M/d/\$i; done; sync
	for i in \$(seq 1 24); do
		dd if=$M/f\$i of=/dev/null bs=16k iflag=direct status=none
	done" 2>rec.err
check_eq record.rc "$?" 0

"$FSLENS" export r.trace --format blktrace -o bt 2>export.err
check_eq export.rc "$?" 0
check_eq export.files "$(ls bt | sed 's/\.blktrace\..*//' | sort -u)" "$LOOP"

# the trace's own view, through the independent reader
for n in insert issue complete merge; do
	"$Q" r.trace events block_rq_$n >ev.$n
done
for n in bio_queue getrq bio_backmerge bio_frontmerge; do
	"$Q" r.trace events block_$n >ev.$n
done
# blktrace's actions as the kernel writes them: Q G M F from the bios,
# I D C from the requests, M for a request merged into another too
want_q=$(wc -l <ev.bio_queue)
want_g=$(wc -l <ev.getrq)
want_f=$(wc -l <ev.bio_frontmerge)
check_ge trace.bios "$want_q" 24
read -r _ want_i want_m want_d want_c want_b < <("$PY" - <<'EOF'
def rows(n):
    out = []
    for l in open('ev.' + n):
        d = dict(kv.split('=', 1) for kv in l.split() if '=' in kv)
        out.append((int(d['ts']), n, d['rq']))
    return out
ev = sorted(rows('insert') + rows('issue') + rows('complete') + rows('merge'))
ins = set()
q = i = m = d = c = 0
# Perfetto draws one slice per request in flight: a re-issue (requeue) of a
# request not yet completed extends the same slice
b = 0
inflight = set()
merged_ins = set()
# requests merged away (insert then merge, no issue) show as their M alone
pending = {}
for ts, n, rq in ev:
    if n == 'insert':
        pending[rq] = ts
    elif n == 'issue':
        pending.pop(rq, None)
    elif n == 'merge' and rq in pending:
        merged_ins.add((rq, pending.pop(rq)))
for ts, n, rq in ev:
    if n == 'insert':
        if (rq, ts) in merged_ins:
            continue
        q += 1; i += 1; ins.add(rq)
    elif n == 'issue':
        if rq not in ins:
            q += 1
        ins.discard(rq); d += 1
        if rq not in inflight:
            b += 1
            inflight.add(rq)
    elif n == 'merge':
        m += 1; ins.discard(rq)
    else:
        c += 1
        inflight.discard(rq)
i = sum(1 for l in open('ev.insert'))
m = sum(1 for l in open('ev.merge')) + sum(1 for l in open('ev.bio_backmerge'))
print(q, i, m, d, c, b)
EOF
)
check_ge trace.issues "$want_d" 24

blkparse -i bt/"$LOOP" -f "%a\n" -o bp.txt >/dev/null 2>bp.err
check_eq blkparse.rc "$?" 0
check_eq blkparse.stderr "$(cat bp.err)" ""
for a in Q G I M F D C; do
	v=want_$(echo $a | tr QGIMFDC qgimfdc)
	check_eq "blkparse.$a" "$(grep -c "^$a\$" bp.txt)" "${!v}"
done
blkparse -i bt/"$LOOP" -o bp.full >/dev/null 2>&1
check_grep blkparse.noskips "^Skips: 0 forward" bp.full

blkparse -i bt/"$LOOP" -d bp.bin -O >/dev/null 2>&1
btt -i bp.bin >btt.txt 2>btt.err
check_eq btt.rc "$?" 0
# the CSV io table has a row per completed request: blkparse's completions
# of a dispatch with data (one still in flight when the trace ends, or
# dispatched twice after a requeue, has one row or none, as its C lines say)
"$FSLENS" export r.trace --format csv --table io -o io.csv
blkparse -i bt/"$LOOP" -f "%a %S %N\n" -o bpn0.txt >/dev/null 2>&1
check_eq csv.requests "$(awk -F, 'NR > 1 && $4 > 0' io.csv | wc -l)" \
	"$(awk '$1 == "D" && $3 > 0 { p[$2] = 1 }
		$1 == "C" && ($2 in p) { n++; delete p[$2] } END { print n + 0 }' bpn0.txt)"
check_ge csv.requests-most "$(awk -F, 'NR > 1 && $4 > 0' io.csv | wc -l)" \
	$(( $(awk '$1 == "D" && $3 > 0' bpn0.txt | wc -l) - 2 ))

"$FSLENS" export r.trace --format perfetto -o p.json
check_eq perfetto.rc "$?" 0
got=$("$PY" -c "
import json
ev = json.load(open('p.json'))['traceEvents']
b = [e for e in ev if e['ph'] == 'b']
fs = [e for e in ev if e['ph'] == 'X' and e['name'] == 'fsync']
commits = [e for e in ev if e['ph'] == 'X' and e['name'].startswith('commit ')]
s = {e['id']: e for e in ev if e['ph'] == 's'}
f = {e['id']: e for e in ev if e['ph'] == 'f'}
def inside(e, sl):
    return sl['ts'] <= e['ts'] <= sl['ts'] + sl['dur']
# every fsync starts a flow that ends inside a commit which ended inside the fsync
ok = 0
for x in fs:
    for i, e in s.items():
        if e['tid'] == x['tid'] and inside(e, x) and i in f and \\
           any(inside(f[i], c) and x['ts'] <= c['ts'] + c['dur'] <= x['ts'] + x['dur'] for c in commits):
            ok += 1
            break
print(len(b), len(fs), ok)")
check_eq perfetto.slices "$got" "$want_b 24 24"
# complete slices on every thread track nest (waits inside syscalls, commit
# phases inside commits): none starts inside another and ends after it
got=$("$PY" -c "
import json, collections
by = collections.defaultdict(list)
for e in json.load(open('p.json'))['traceEvents']:
    if e['ph'] == 'X':
        ts = round(e['ts'] * 1000)
        by[(e['pid'], e['tid'])].append((ts, -(ts + round(e['dur'] * 1000))))
bad = n = 0
for v in by.values():
    v.sort()
    ends = []
    for ts, nend in v:
        n += 1
        while ends and ends[-1] <= ts:
            ends.pop()
        if ends and -nend > ends[-1]:
            bad += 1
        ends.append(-nend)
print(n > 100, bad)")
check_eq perfetto.nesting "$got" "True 0"

# folded per wait class: the classes fslens report uses, same total time
"$FSLENS" export r.trace --format folded -o all.folded -q
"$FSLENS" export r.trace --format folded --per-class -o fc -q
check_eq folded.rc "$?" 0
"$FSLENS" report r.trace --json --section diagnosis >rep0.json 2>/dev/null
got=$("$PY" -c "
import glob, os
tot = lambda f: sum(int(l.rsplit(' ', 1)[1]) for l in open(f))
cls = sorted(os.path.basename(f)[:-7] for f in glob.glob('fc/*.folded'))
per = sum(tot(f) for f in glob.glob('fc/*.folded'))
all_ = tot('all.folded')
nl = sum(1 for f in glob.glob('fc/*.folded') for l in open(f))
# each line is rounded to a microsecond on its own
print(all(c.replace('_', '').isalpha() for c in cls) and len(cls) > 0, abs(per - all_) <= nl)")
check_eq folded.per_class "$got" "True True"

# Against fslens report on the same fsync workload: its data latencies are
# btt's (requests with data), cache flushes and second completions apart
"$FSLENS" report r.trace --json --section blockio >rep.json
check_eq report.rc "$?" 0
btt -i bp.bin -s seek >btt2.txt 2>/dev/null
blkparse -i bt/"$LOOP" -f "%a %N\n" -o bpn.txt >/dev/null 2>&1
read -r r_done r_data r_flush r_comp r_dbl r_d2c r_q2c r_disp r_seeks r_mean r_mode r_modec < <("$PY" -c "
import json
d = [x for x in json.load(open('rep.json'))['blockio'] if x['dev'] == '$SCRATCH_DEV'][0]
print(d['completed'], d['data_requests'], d['flush_requests'], d['completions'],
      d['double_completions'], d['d2c_avg_us'], d['q2c_avg_us'], d['dispatches'], d['seeks'],
      d['seek_mean_sectors'], d['seek_mode_sectors'], d['seek_mode_count'])")
echo "report: completed=$r_done data=$r_data flush=$r_flush completions=$r_comp" \
	"double=$r_dbl d2c=$r_d2c q2c=$r_q2c dispatches=$r_disp seeks=$r_seeks" \
	"mean=$r_mean mode=$r_mode($r_modec)" >&2
# the workload has what made report and btt differ: zero-byte requests and
# second completions
check_ge report.flush_requests "$r_flush" 1
check_ge report.double_completions "$r_dbl" 1
check_eq report.requests "$((r_data + r_flush))" "$r_done"
check_eq report.zero_byte_D "$(awk '$1 == "D" && $2 == 0' bpn.txt | wc -l)" "$r_flush"
check_eq report.C "$(grep -c '^C ' bpn.txt)" "$r_comp"
# the completions from the raw events: of a request issued in the trace
# (counted once), the second zero-byte one of a request completed with data,
# others (issued before the recording started)
read -r e_done e_dbl e_other < <("$PY" - <<'EOF'
ev = []
for n in ('insert', 'issue', 'complete'):
    for l in open('ev.' + n):
        d = dict(kv.split('=', 1) for kv in l.split() if '=' in kv)
        ev.append((int(d['ts']), n, d['rq'], int(d['nr_sector']), d['sector']))
ev.sort()
issued, done = set(), {}
n_done = n_dbl = n_other = 0
for ts, n, rq, nr, sec in ev:
    if n in ('insert', 'issue'):
        done.pop(rq, None)
        if n == 'issue':
            issued.add(rq)
    elif rq in issued:
        issued.discard(rq)
        n_done += 1
        if nr:
            done[rq] = sec
    elif nr == 0 and done.get(rq) == sec:
        # the end of the flush sequence of that request: same slot, same start
        del done[rq]
        n_dbl += 1
    else:
        n_other += 1
print(n_done, n_dbl, n_other)
EOF
)
check_eq report.completed_events "$r_done" "$e_done"
check_eq report.double_completions_events "$r_dbl" "$e_dbl"
check_eq report.C_split "$((e_done + e_dbl + e_other))" "$r_comp"
# btt's samples are per bio queued: the report's btt stages count the same
read -r r_d2c_n r_q2c_n < <("$PY" -c "
import json
d = [x for x in json.load(open('rep.json'))['blockio'] if x['dev'] == '$SCRATCH_DEV'][0]
print(d['btt']['d2c']['n'], d['btt']['q2c']['n'])")
check_eq report.btt_n "$(awk '$1 == "D2C" { print $5; exit }' btt2.txt)" "$r_d2c_n"
check_eq report.btt_q2c_n "$(awk '$1 == "Q2C" { print $5; exit }' btt2.txt)" "$r_q2c_n"
for k in d2c q2c; do
	got=$(awk -v k=${k^^} '$1 == k { print $3 * 1e6; exit }' btt2.txt)
	v=r_$k
	if awk -v g="$got" -v w="${!v}" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= 0.01 * w) }'; then
		pass "report.btt_$k"
	else
		fail "report.btt_$k" "btt $got us, fslens report ${!v} us"
	fi
done
# btt's D2D seek table (NSEEKS, MEAN, MODE) and its per-dispatch distances
read -r b_n b_mean b_mode < <(sed -n '/Device D2D Seek Information/,/Q2Q Seek/p' btt2.txt |
	awk -F'|' '/^ *\(/ { split($2, a, " "); print a[1], a[2], $3; exit }')
check_eq report.btt_nseeks "$r_disp" "$b_n"
check_eq report.btt_nseeks_file "$(cat seek_*_d2d_c.dat | wc -l)" "$r_disp"
check_eq report.seeks "$(cat seek_*_d2d_c.dat | awk '$2 != 0' | wc -l)" "$r_seeks"
# btt prints the mean with one decimal
if awk -v g="$b_mean" -v w="$r_mean" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 0.051) }'; then
	pass report.seek_mean
else
	fail report.seek_mean "btt $b_mean, report $r_mean"
fi
case " $b_mode " in
*" $r_mode($r_modec) "*) pass report.seek_mode ;;
*) fail report.seek_mode "btt modes $b_mode, report $r_mode($r_modec)" ;;
esac

# reads and writes apart: btt -s writes each dispatch's distance (from the
# previous dispatch of either direction) to _r.dat or _w.dat
read -r r_rw < <("$PY" -c "
import json
d = [x for x in json.load(open('rep.json'))['blockio'] if x['dev'] == '$SCRATCH_DEV'][0]
print(' '.join('%d/%d/%.3f' % (o['dispatches'], o['seeks'], o['seek_mean_sectors'])
               for o in (d['read_seeks'], d['write_seeks'])))")
for rw in r w; do
	f=$(ls seek_*_d2d_$rw.dat 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		fail "report.btt_seeks_$rw" "btt wrote no seek_*_d2d_$rw.dat: $(ls)"
		continue
	fi
	b=$(awk '{ n++; if ($2 != 0) s++; a += ($2 < 0 ? -$2 : $2) } END { printf "%d/%d/%.3f", n, s, n ? a / n : 0 }' "$f")
	set -- $r_rw
	[ $rw = r ] && want=$1 || want=$2
	echo "seeks $rw: btt $b, report $want" >&2
	check_eq "report.btt_seeks_$rw" "$want" "$b"
done
# the reads reached the device: at least one dispatch per file read
check_ge report.read_dispatches "${r_rw%%/*}" 24

[ $T_FAILS -eq 0 ]
