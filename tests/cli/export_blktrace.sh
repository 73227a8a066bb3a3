#!/bin/bash
# blktrace round trip, checked with the real tools:
#   a Python generator writes blktrace captures of two disks on 4 CPUs (its own
#   struct.pack encoder) and computes the expected figures from its events;
#   fslens import -> trace -> fslens export --format blktrace;
#   blkparse -i reads the exported files without errors or skips and counts the
#   same Q, D, C per device; btt on blkparse -d output gives the same D2C and Q2C
#   averages (within 1%) and seek count; fslens report's block I/O section and
#   fslens's own CSV io table agree too; iowatcher's offset axis spans the
#   requests and its queue depth, on a capture of bursts over about 9 s, is the
#   line it draws from the original captures. The captures hold cache flushes
#   (zero-byte requests, left out of btt's D2C/Q2C and seeks) and FUA writes
#   completing twice (blkparse counts both Cs), as fsync workloads do.
. "$(dirname "$0")/../lib.sh"

for tool in blkparse btt python3; do
	if ! command -v $tool >/dev/null; then
		fail tools "$tool not installed (scripts/deps.sh installs blktrace)"
		exit 1
	fi
done

cd "$T_TMP" || exit 1
mkdir -p orig out slow
# the interpreter itself: a pyenv shim costs half a second a call
PY=$(python3 -c 'import sys; print(sys.executable)')

"$PY" - <<'EOF'
import json, random, struct

random.seed(8)
MAGIC = 0x65617407
C_READ, C_WRITE, C_FLUSH, C_SYNC, C_QUEUE, C_ISSUE, C_COMPLETE, C_FS, C_NOTIFY, C_FUA = \
    1, 2, 4, 8, 16, 64, 128, 256, 1024, 32768
Q, M, D, C, I = 1, 2, 7, 8, 12
NCPU = 4
expect = {}


def act(code, cats):
    return code | (cats << 16)


def gen(name, major, minor, nreq, t0, outdir='orig', pause=0):
    """pause: the chance of a 0.2-0.8 s gap before a request (bursts over seconds)"""
    dev = (major << 20) | minor
    recs = []      # (time, cpu, sector, bytes, action, pid)
    used = set()
    t = t0
    pos = 1 << 20
    reqs = []      # per queued request: q (= insert or direct issue), d, c, sector, bytes
    ds = []        # (d time, sector, bytes) for seeks
    merges = 0
    flushes = doubles = 0
    flush_free = 0     # the made-up flush request is idle from then on
    k = 0
    while k < nreq:
        t += random.randint(20000, 200000)
        if pause and random.random() < pause:
            t += random.randint(200000000, 800000000)
        pid = random.choice([1000, 1001, 1002])
        if random.random() < 0.1 and t > flush_free:
            # a cache flush: no data, issued directly (sector as the kernel
            # traces it: -1); no seek for btt, no D2C/Q2C
            tc = t + random.randint(100000, 2000000)
            cpu = random.randrange(NCPU)
            recs += [(t, cpu, (1 << 64) - 1, 0, act(D, C_ISSUE | C_WRITE | C_FLUSH | C_FS), pid),
                     (tc, cpu, (1 << 64) - 1, 0, act(C, C_COMPLETE | C_WRITE | C_FLUSH | C_FS), 0)]
            flush_free = tc
            flushes += 1
            continue
        rw = C_WRITE if random.random() < 0.6 else C_READ
        if random.random() < 0.5:
            sector = pos                                  # sequential
        else:
            sector = random.randrange(0, 1 << 30) & ~7     # a seek
        while any(s <= sector < e for s, e in used):
            sector += 1 << 24
        nsec = random.choice([8, 8, 16, 64, 256])
        kind = random.random()
        cpu = random.randrange(NCPU)
        tq = t
        if kind < 0.1 and k + 1 < nreq:
            # two adjacent requests, the second merged into the first (request merge)
            nsec2 = 8
            tb = tq + 3000
            recs += [(tq, cpu, sector, nsec * 512, act(Q, C_QUEUE | rw), pid),
                     (tq + 1000, cpu, sector, nsec * 512, act(I, C_QUEUE | rw | C_FS), pid),
                     (tb, cpu, sector + nsec, nsec2 * 512, act(Q, C_QUEUE | rw), pid),
                     (tb + 1000, cpu, sector + nsec, nsec2 * 512, act(I, C_QUEUE | rw | C_FS), pid),
                     (tb + 2000, cpu, sector + nsec, nsec2 * 512, act(M, C_QUEUE | rw | C_FS), pid)]
            td = tb + random.randint(5000, 50000)
            tc = td + random.randint(50000, 3000000)
            total = (nsec + nsec2) * 512
            recs += [(td, cpu, sector, total, act(D, C_ISSUE | rw | C_FS), pid),
                     (tc, random.randrange(NCPU), sector, total, act(C, C_COMPLETE | rw | C_FS), 0)]
            # fslens shows the merged-away request as its M alone
            reqs.append((tq + 1000, td, tc))
            merges += 1
            ds.append((td, sector, total))
            used.add((sector, sector + nsec + nsec2))
            pos = sector + nsec + nsec2
            k += 2
            continue
        if kind < 0.3:
            # direct issue: Q then D, no insert
            td = tq + random.randint(1000, 5000)
            recs += [(tq, cpu, sector, nsec * 512, act(Q, C_QUEUE | rw | C_SYNC), pid)]
            qt = td
        else:
            ti = tq + random.randint(500, 3000)
            td = ti + random.randint(5000, 400000)
            recs += [(tq, cpu, sector, nsec * 512, act(Q, C_QUEUE | rw), pid),
                     (ti, cpu, sector, nsec * 512, act(I, C_QUEUE | rw | C_FS), pid)]
            qt = ti
        tc = td + random.randint(50000, 5000000)
        recs += [(td, cpu, sector, nsec * 512, act(D, C_ISSUE | rw | C_FS), pid),
                 (tc, random.randrange(NCPU), sector, nsec * 512, act(C, C_COMPLETE | rw | C_FS), 0)]
        if rw == C_WRITE and random.random() < 0.2:
            # a FUA write through the flush machinery: the kernel traces a
            # second, zero-byte completion at the end of the flush sequence
            recs.append((tc + random.randint(10000, 40000), random.randrange(NCPU), sector, 0,
                         act(C, C_COMPLETE | C_WRITE | C_FS), 0))
            doubles += 1
        reqs.append((qt, td, tc))
        ds.append((td, sector, nsec * 512))
        used.add((sector, sector + nsec))
        pos = sector + nsec
        k += 1
    # every time distinct, so the tools' orders are fixed
    assert len({r[0] for r in recs}) == len(recs)
    recs.sort()
    for cpu in range(NCPU):
        out = bytearray()
        mine = [r for r in recs if r[1] == cpu]
        # process notifies for the tasks, as the kernel writes them
        for pid in (1000, 1001, 1002):
            comm = b'fio-%d' % pid
            out += struct.pack('<IIQQIIIIIHH', MAGIC, 0, mine[0][0] - 1, 0, 0,
                               act(0, C_NOTIFY), pid, dev, cpu, 0, 16) + comm.ljust(16, b'\0')
        for seq, (tt, c, sector, nbytes, action, pid) in enumerate(mine, 1):
            out += struct.pack('<IIQQIIIIIHH', MAGIC, seq, tt, sector, nbytes, action, pid,
                               dev, cpu, 0, 0)
        open('%s/%s.blktrace.%d' % (outdir, name, cpu), 'wb').write(out)
    # expected figures, from the events: Q = inserts + direct issues
    q2c = [c - q for q, d, c in reqs]
    d2c = [c - d for q, d, c in reqs]
    # btt's seek distance (seek.c): D events with data in time order, the
    # first from sector 0; 0 when overlapping or touching the previous one,
    # forward from its end, backward from its start
    seeks = tot = 0
    ls = le = 0
    for td, s, b in sorted(ds):
        e = s + (b >> 9)
        if (ls <= s <= le) or (ls <= e <= le):
            dist = 0
        elif s > le:
            dist = s - le
        else:
            dist = s - ls
        if dist:
            seeks += 1
        tot += abs(dist)
        ls, le = s, e
    expect[name] = dict(dev='%d,%d' % (major, minor), Q=len(reqs) + flushes, M=merges,
                        D=sum(1 for r in recs if r[4] & 0xffff == D),
                        C=sum(1 for r in recs if r[4] & 0xffff == C),
                        q2c=sum(q2c) / len(q2c) / 1e9, d2c=sum(d2c) / len(d2c) / 1e9,
                        nd=len(ds), seeks=seeks, mean='%.1f' % (tot / len(ds)),
                        flushes=flushes, doubles=doubles)
    expect[name]['rq_n'] = len(reqs)
    # requests between dispatch and completion at once, at most: what any
    # queue depth drawn from these events can reach (flushes included)
    spans = [(r[0], 1) for r in recs if r[4] & 0xffff == D]
    for td, cpu, sector, nbytes, action, pid in recs:
        if action & 0xffff == D:
            tc = min(r[0] for r in recs if r[4] & 0xffff == C and r[2] == sector and r[0] > td)
            spans.append((tc, -1))
    depth = maxq = 0
    for tt, dd in sorted(spans):
        depth += dd
        maxq = max(maxq, depth)
    expect[name]['maxq'] = maxq
    expect[name]['secs'] = '%.3f' % ((recs[-1][0] - recs[0][0]) / 1e9)


gen('sdb', 8, 16, 300, 5_000_000_000)
gen('sdc', 8, 32, 200, 5_000_100_000)
# bursts over about 10 s, for iowatcher's per-second graphs (under 2 s of
# trace it draws no line at all)
random.seed(48)
gen('sdd', 8, 48, 300, 5_000_000_000, outdir='slow', pause=0.05)
json.dump(expect, open('expect.json', 'w'), indent=1)
with open('expect.env', 'w') as f:
    for d, e in expect.items():
        for k, v in e.items():
            f.write('%s_%s=%s\n' % (d, k, v))
EOF
[ -s expect.json ] || { fail generate "python generator failed"; exit 1; }

exp() { awk -F= -v k="$1_$2" '$1 == k { print $2 }' expect.env; }
# within1 GOT WANT: |got - want| <= 1% of want
within1() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.01 * w) }'; }

if "$FSLENS" import blktrace orig/sdb orig/sdc -o t.trace 2>import.err; then
	pass import
else
	fail import "$(cat import.err)"; exit 1
fi
check_grep import_summary "Q 1?[0-9]+ I [0-9]+ M [0-9]+ D [0-9]+ C [0-9]+" import.err

if "$FSLENS" export t.trace --format blktrace -o out 2>export.err; then
	pass export
else
	fail export "$(cat export.err)"; exit 1
fi
check_eq files "$(cd out && ls | sort | tr '\n' ' ')" \
	"8:16.blktrace.0 8:16.blktrace.1 8:16.blktrace.2 8:16.blktrace.3 8:32.blktrace.0 8:32.blktrace.1 8:32.blktrace.2 8:32.blktrace.3 "

for d in sdb sdc; do
	dev=$(exp $d dev)
	name=${dev/,/:}
	blkparse -i "out/$name" -f "%M,%m %a\n" -o bp.$d.txt >/dev/null 2>bp.$d.err
	rc=$?
	check_eq "blkparse_$d.rc" "$rc" 0
	check_eq "blkparse_$d.stderr" "$(cat bp.$d.err)" ""
	# per-device counts of Q, M, D, C
	for a in Q M D C; do
		got=$(grep -c "^$dev $a\$" bp.$d.txt)
		check_eq "blkparse_$d.$a" "$got" "$(exp $d $a)"
	done
	# no sequence gaps, every event read
	blkparse -i "out/$name" -o bp.$d.full >/dev/null 2>&1
	check_grep "blkparse_$d.noskips" "^Skips: 0 forward" bp.$d.full
	# task names from the process notifies
	check_grep "blkparse_$d.comm" "\[fio-100[012]\]" bp.$d.full

	blkparse -i "out/$name" -d bp.$d.bin -O >/dev/null 2>&1
	btt -i bp.$d.bin -s seek.$d >btt.$d.txt 2>btt.$d.err
	check_eq "btt_$d.rc" "$?" 0
	want_q2c=$(exp $d q2c)
	want_d2c=$(exp $d d2c)
	got_d2c=$(awk '$1 == "D2C" { print $3; exit }' btt.$d.txt)
	got_q2c=$(awk '$1 == "Q2C" { print $3; exit }' btt.$d.txt)
	got_n=$(awk '$1 == "Q2C" { print $5; exit }' btt.$d.txt)
	check_eq "btt_$d.q2c_n" "$got_n" "$(exp $d rq_n)"
	if within1 "$got_d2c" "$want_d2c"; then
		pass "btt_$d.d2c_avg"
	else
		fail "btt_$d.d2c_avg" "btt $got_d2c s, expected $want_d2c s"
	fi
	if within1 "$got_q2c" "$want_q2c"; then
		pass "btt_$d.q2c_avg"
	else
		fail "btt_$d.q2c_avg" "btt $got_q2c s, expected $want_q2c s"
	fi
	# a blkparse -d dump (all CPUs in one file) imports too, same requests
	"$FSLENS" import blktrace bp.$d.bin -o dump.$d.trace 2>dump.$d.err
	check_grep "import_dump_$d" "Q $(exp $d Q) I [0-9]+ M $(exp $d M) D $(exp $d D) C $(exp $d C);" dump.$d.err
	# btt's D2D seek table counts every D; its per-I/O file (-s) has the distances
	got=$(sed -n '/Device D2D Seek Information/,/Overall/p' btt.$d.txt |
		awk -v d="(  ${dev%,*}, ${dev#*,})" 'index($0, d) == 2 { print $5; exit }')
	check_eq "btt_$d.nseeks" "$got" "$(exp $d nd)"
	got=$(cat seek.${d}_*_d2d_c.dat 2>/dev/null | awk '$2 != 0' | wc -l)
	check_eq "btt_$d.seeks" "$got" "$(exp $d seeks)"
done

# fslens report's block I/O section on the same trace: its requests are btt's
# Qs, Ds and Cs, its merges blkparse's Ms, its D2C and Q2C averages btt's
"$FSLENS" report t.trace --json --section blockio >rep.json 2>rep.err
check_eq report.rc "$?" 0
"$PY" -c "
import json
for x in json.load(open('rep.json'))['blockio']:
    print(x['dev'], x['completed'], x['merges'], x['d2c_avg_us'], x['q2c_avg_us'], x['completions'],
          x['data_requests'], x['flush_requests'], x['double_completions'], x['dispatches'],
          x['seeks'], x['seek_mean_sectors'])" >rep.txt
for d in sdb sdc; do
	dev=$(exp $d dev)
	read -r _ r_done r_merges r_d2c r_q2c r_comp r_data r_flush r_dbl r_disp r_seeks r_mean \
		< <(grep "^${dev/,/:} " rep.txt)
	for a in Q D; do
		check_eq "report_$d.$a" "$(grep -c "^$dev $a\$" bp.$d.txt)" "$r_done"
	done
	# blkparse's C also counts the second completions of FUA writes
	check_eq "report_$d.C" "$(grep -c "^$dev C\$" bp.$d.txt)" "$r_comp"
	check_eq "report_$d.double_completions" "$r_dbl" "$(exp $d doubles)"
	check_eq "report_$d.data_requests" "$r_data" "$(exp $d rq_n)"
	check_eq "report_$d.flush_requests" "$r_flush" "$(exp $d flushes)"
	# btt's D2D: NSEEKS, the non-zero distances of -s, MEAN
	check_eq "report_$d.dispatches" "$r_disp" "$(exp $d nd)"
	check_eq "report_$d.seeks" "$r_seeks" "$(exp $d seeks)"
	check_eq "report_$d.seek_mean" "$(awk -v m="$r_mean" 'BEGIN { printf "%.1f", m }')" "$(exp $d mean)"
	got=$(sed -n '/Device D2D Seek Information/,/Overall/p' btt.$d.txt |
		awk -v d="(  ${dev%,*}, ${dev#*,})" 'index($0, d) == 2 { print $6; exit }')
	check_eq "report_$d.btt_seek_mean" "$got" "$(exp $d mean)"
	check_eq "report_$d.M" "$(grep -c "^$dev M\$" bp.$d.txt)" "$r_merges"
	for k in d2c q2c; do
		got=$(awk -v k=${k^^} '$1 == k { print $3 * 1e6; exit }' btt.$d.txt)
		v=r_$k
		if within1 "$got" "${!v}"; then
			pass "report_$d.btt_$k"
		else
			fail "report_$d.btt_$k" "btt $got us, fslens report ${!v} us"
		fi
	done
done

# replay's disk model and top --replay read an imported trace (one disk, from
# the blkparse -d dump): top's device row has btt's Q2C and D2C
"$FSLENS" replay dump.sdb.trace --disk ssd >replay.txt 2>&1
check_eq replay.rc "$?" 0
# the disk model replays the requests with data (cache flushes move no data)
check_grep replay.disk "device time on ssd: [0-9.]+ ms for $(exp sdb rq_n) requests" replay.txt
timeout 60 "$FSLENS" top --replay dump.sdb.trace -b -a --view devices -i 0.05 -w 100 >top.txt 2>&1
check_eq top.rc "$?" 0
read -r t_q2c t_d2c < <(awk '$1 == "8:16" { q = $5; d = $6 } END { print q, d }' top.txt)
for k in q2c d2c; do
	got=$(awk -v k=${k^^} '$1 == k { print $3 * 1e3; exit }' btt.sdb.txt)
	v=t_$k
	# top prints ms with two decimals
	if awk -v g="$got" -v w="${!v}" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.005 + 1e-9) }'; then
		pass "top.$k"
	else
		fail "top.$k" "btt $got ms, top ${!v} ms"
	fi
done

# fslens's own view of the same requests: CSV io table d2c average
"$FSLENS" export t.trace --format csv --table io -o io.csv 2>csv.err
check_eq csv.rc "$?" 0
for d in sdb sdc; do
	dev=$(exp $d dev)
	# one row per request, cache flushes too; btt's D2C over those with data
	check_eq "csv_$d.rows" "$(awk -F, -v dev="${dev/,/:}" 'NR > 1 && $1 == dev' io.csv | wc -l)" \
		"$(($(exp $d rq_n) + $(exp $d flushes)))"
	read -r n avg < <(awk -F, -v dev="${dev/,/:}" 'NR > 1 && $1 == dev && $4 > 0 { n++; s += $9 } END { printf "%d %.9f\n", n, s / n / 1e9 }' io.csv)
	check_eq "csv_$d.data_rows" "$n" "$(exp $d rq_n)"
	if awk -v g="$avg" -v w="$(exp $d d2c)" 'BEGIN { d = g - w; exit !(d < 1e-9 && d > -1e-9) }'; then
		pass "csv_$d.d2c_avg"
	else
		fail "csv_$d.d2c_avg" "got $avg"
	fi
done

# iowatcher draws the exported files
if command -v iowatcher >/dev/null; then
	timeout 60 iowatcher -t out/8:16 -o io.svg >/dev/null 2>iow.err
	check_eq iowatcher.rc "$?" 0
	check_grep iowatcher.svg "<svg" io.svg
	# its offset axis spans the requests: from 0 (cache flushes have no sector
	# and are at 0, as the kernel traces them) to the highest offset, which
	# fslens's CSV io table has too (within iowatcher's rounding of the axis)
	axis=$("$PY" - io.svg io.csv <<'PY'
import re, sys
t = re.findall(r'<text[^>]*>([^<]*)</text>', open(sys.argv[1]).read())
i = t.index("Offset (MB)")
labels = [float(x) for x in t[i + 1:i + 6]]
mx = 0
for l in open(sys.argv[2]).readlines()[1:]:
    f = l.split(",")
    if f[0] == "8:16":
        mx = max(mx, (int(f[2]) * 512 + int(f[3])) / 1048576)
print(min(labels) == 0, 0.9 * mx <= max(labels) <= 1.1 * mx)
PY
)
	check_eq iowatcher.offset_axis "$axis" "True True"
	# its queue depth, on bursts over about 10 s (sdd): a line with a point a
	# second, inside the plot (never below 0), its axis from 0, and the same
	# line as iowatcher draws from the captures the trace was imported from. A
	# flush whose completion does not match its dispatch (sector 0 against -1)
	# stays in flight for iowatcher: the depth runs up (0..26 instead of 0..19
	# here, measured), or with an unguarded count goes below 0.
	"$FSLENS" import blktrace slow/sdd -o slow.trace -q &&
		"$FSLENS" export slow.trace --format blktrace -o sout -q
	check_eq iowatcher.depth_export "$?" 0
	timeout 60 iowatcher -t sout/sdd -o depth.svg >/dev/null 2>&1
	check_eq iowatcher.depth_rc "$?" 0
	timeout 60 iowatcher -t slow/sdd -o depth-orig.svg >/dev/null 2>&1
	check_eq iowatcher.depth_orig_rc "$?" 0
	"$PY" - depth.svg depth-orig.svg "$(exp sdd maxq)" "$(exp sdd secs)" >depth.txt <<'PY'
import re, sys

def depth(path):
    """iowatcher's Queue Depth graph: frame, y tick labels, the line's points"""
    svg = open(path).read()
    # each graph is drawn in its own <svg x= y=>
    g = [p for p in svg.split('<svg x=') if '>Queue Depth<' in p][0]
    frame = tuple(map(int, re.search(r'<path d="M(\d+) (\d+) h (\d+) V (\d+) H \d+ Z"', g).groups()))
    ticks = [float(t) for t in re.findall(r'text-anchor: end">([-0-9.e+]+)</text>', g)]
    pts = []
    for d in re.findall(r'<path d="(M [^"]*)" fill="none"', g):
        pts += [(float(a), float(b)) for a, b in re.findall(r'(-?[0-9.]+) (-?[0-9.]+)', d)]
    return frame, ticks, pts

(x0, y0, w, top), ticks, pts = depth(sys.argv[1])
orig = depth(sys.argv[2])
maxq, secs = int(sys.argv[3]), float(sys.argv[4])
print("points", len(pts) >= int(secs) - 1, len(pts), "for", secs, "s")
print("inside", all(x0 <= x <= x0 + w and top <= y <= y0 for x, y in pts), pts)
print("axis_from_0", min(ticks) == 0, ticks)
print("axis_at_most_maxq", 1 <= max(ticks) <= maxq, max(ticks), maxq)
print("depth_drawn", any(y < y0 for x, y in pts))
print("same_as_captures", (ticks, pts) == (orig[1], orig[2]), orig[1], orig[2])
PY
	while read -r what ok rest; do
		check_eq "iowatcher.depth_$what" "$ok" True
		[ "$ok" = True ] || echo "    $what: $rest" >&2
	done <depth.txt
	check_eq iowatcher.depth_checks "$(wc -l <depth.txt)" 6
fi

# Perfetto JSON of the same trace: valid JSON, one async slice per dispatched
# request (ids distinct, every begin ended at its completion)
"$FSLENS" export t.trace --format perfetto -o p.json
check_eq perfetto.rc "$?" 0
want=$(( $(exp sdb D) + $(exp sdc D) ))
got=$("$PY" -c "
import json
ev = json.load(open('p.json'))['traceEvents']
b = [e for e in ev if e['ph'] == 'b']
e = {x['id']: x for x in ev if x['ph'] == 'e'}
assert len({x['id'] for x in b}) == len(b) == len(e)
assert all(e[x['id']]['ts'] > x['ts'] for x in b)
print(len(b))" 2>&1)
check_eq perfetto.io_slices "$got" "$want"
# OUT.json.gz: the same JSON, gzipped (gzip(1) and Python's gzip read it back)
"$FSLENS" export t.trace -F perfetto -o p.json.gz
check_eq perfetto_gz.rc "$?" 0
check_cmd perfetto_gz.gzip_t gzip -t p.json.gz
check_eq perfetto_gz.same_json "$(zcat p.json.gz | md5sum)" "$(md5sum <p.json)"
check_eq perfetto_gz.loads "$("$PY" -c "import gzip, json; print(len(json.load(gzip.open('p.json.gz'))['traceEvents']))")" \
	"$("$PY" -c "import json; print(len(json.load(open('p.json'))['traceEvents']))")"
check_le perfetto_gz.smaller "$(stat -c %s p.json.gz)" "$(( $(stat -c %s p.json) / 4 ))"
"$FSLENS" export t.trace -F csv --table io -o io.csv.gz -q
check_eq csv_gz.same "$(zcat io.csv.gz | md5sum)" "$(md5sum <io.csv)"
"$FSLENS" export t.trace -F perfetto -o nodir/p.json.gz 2>gz.err
check_eq perfetto_gz.bad_dir_rc "$?" 1
check_grep perfetto_gz.bad_dir_msg "^fslens: cannot create 'nodir/p.json.gz': No such file or directory$" gz.err

# a window: only requests issued and completed in [10 ms, 25 ms) of the start
tq=$T_BUILD
origin=$("$tq/tests/trace_query" t.trace kv record.start_ns 2>/dev/null)
lo=$((origin + 10000000)); hi=$((origin + 25000000))
want=$(awk -F, -v lo=$lo -v hi=$hi 'NR > 1 && $6 >= lo && $7 < hi' io.csv | sort)
"$FSLENS" export t.trace --format csv --table io --from 0.010 --to 0.025 -o win.csv
check_eq window.rc "$?" 0
check_ge window.rows "$(echo "$want" | wc -l)" 20
# rows whose insert fell before the window lose their insert time
check_eq window.same_requests "$(tail -n +2 win.csv | cut -d, -f1-4,6,7 | sort)" \
	"$(echo "$want" | cut -d, -f1-4,6,7 | sort)"
# t_s is the completion in seconds from the start, the unit --from/--to take:
# every row of the window's export lies inside [0.010, 0.025)
check_eq csv.t_s_is_complete "$(awk -F, -v o="$origin" 'NR > 1 && $14 != sprintf("%.9f", ($7 - o) / 1e9)' io.csv | head -3)" ""
check_eq window.t_s_inside "$(awk -F, 'NR > 1 && ($14 < 0.010 || $14 >= 0.025)' win.csv | head -3)" ""
check_eq csv.header_ends "$(head -1 io.csv | cut -d, -f14-)" "t_s,realtime"
# realtime is the same instant on the wall clock (date(1) converts the offset)
rt=$("$tq/tests/trace_query" t.trace kv clock.realtime_offset_ns 2>/dev/null)
if [ -n "$rt" ]; then
	row=$(sed -n 2p io.csv)
	ns=$(( $(cut -d, -f7 <<< "$row") + rt ))
	check_eq csv.realtime "$(cut -d, -f15 <<< "$row")" \
		"$(date -u -d @$((ns / 1000000000)) +%Y-%m-%dT%H:%M:%S).$(printf %09d $((ns % 1000000000)))Z"
else
	check_eq csv.realtime_empty "$(awk -F, 'NR > 1 && $15 != ""' io.csv | wc -l)" 0
fi
"$FSLENS" export t.trace --format csv --table io --from 0.02 --to 0.01 -o x.csv 2>/dev/null
check_eq window.bad_order "$?" 2

# export of one device with a chosen name, big endian; blkparse still reads it
mkdir -p out2
"$FSLENS" export t.trace --format blktrace --dev 8:32 --name sdc --big-endian -o out2 2>/dev/null
check_eq dev_name_files "$(cd out2 && ls | tr '\n' ' ')" "sdc.blktrace.0 sdc.blktrace.1 sdc.blktrace.2 sdc.blktrace.3 "
got=$(blkparse -i out2/sdc -f "%a\n" 2>/dev/null | grep -c '^C$')
check_eq big_endian_blkparse_C "$got" "$(exp sdc C)"
# and import reads the big-endian export back, keeping the disk's name
"$FSLENS" import blktrace out2/sdc -o be.trace 2>be.err
check_grep big_endian_import "byte|D [0-9]+ C $(exp sdc C);" be.err
mkdir -p out4
"$FSLENS" export be.trace --format blktrace -o out4 -q
check_eq name_round_trip "$(cd out4 && ls | tr '\n' ' ')" "sdc.blktrace.0 sdc.blktrace.1 sdc.blktrace.2 sdc.blktrace.3 "
check_eq be_round_trip_same_bytes "$(cat out4/sdc.blktrace.* | md5sum)" \
	"$("$FSLENS" export t.trace --format blktrace --dev 8:32 --name sdc -o out5 -q; cat out5/sdc.blktrace.* | md5sum)"

# --dev by the name the trace recorded (sdc, /dev/sdc) is --dev MAJ:MIN
for d in sdc /dev/sdc; do
	rm -rf out6
	"$FSLENS" export be.trace --format blktrace --dev "$d" -o out6 -q
	check_eq "dev_by_name.$d" "$(cat out6/sdc.blktrace.* | md5sum)" "$(cat out4/sdc.blktrace.* | md5sum)"
done
"$FSLENS" export be.trace --format blktrace --dev nosuch -o out7 2>dev.err
check_eq dev_unknown.rc "$?" 2
check_grep dev_unknown.msg "^fslens export: --dev nosuch: not a disk of 'be.trace'" dev.err

# errors: a corrupt file names the offset; a missing one is a clear error
"$FSLENS" import blktrace "$TOP/tests/data/blktrace/badmagic.blktrace.0" -o bad.trace 2>bad.err
check_eq corrupt.rc "$?" 1
check_grep corrupt.msg "badmagic.blktrace.0: bad magic 0xdeadbeef at offset 224" bad.err
check_eq corrupt.no_output "$(ls bad.trace 2>/dev/null)" ""
"$FSLENS" import blktrace nosuch -o x.trace 2>missing.err
check_eq missing.rc "$?" 1
check_grep missing.msg "cannot open 'nosuch'" missing.err
"$FSLENS" export t.trace --format blktrace --name x -o out3 2>several.err
check_eq several_devs.rc "$?" 1
check_grep several_devs.msg "several disks" several.err

[ $T_FAILS -eq 0 ]
