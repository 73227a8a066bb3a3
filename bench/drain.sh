#!/bin/bash
# Does the recorder's drain keep up under heavy load (issue 19 item 6)?
# NPROC processes create and unlink a file in their own directory on a
# scratch ext4 for SECS seconds (bench/drain_storm.inc) while `fslens record
# -m MNT` (all families, the default ring unless RING is set) runs beside
# them, not as their parent, so /usr/bin/time measures the recorder alone.
# Prints events kept and lost (record's summary; the kernel's lost counters),
# loss %, the recorder's CPU (user + system) per event produced, its share
# of a CPU, events/s drained, and its peak memory: VmHWM (/usr/bin/time's
# %M, where the ring's pages count twice: libbpf maps them twice), RssAnon
# (the recorder's own) and Pss (the ring once), sampled twice a second.
#   bench/drain.sh [SECS=40] [NPROC=4]      RING=SIZE for --ring-size, PERF=FILE for a profile
set -u
cd "$(dirname "$0")/.."
SECS=${1:-40}
NPROC=${2:-4}
BUILD=${BUILD:-build}
FSLENS=$PWD/$BUILD/fslens
[ "$(id -u)" -eq 0 ] || { echo "bench/drain.sh: needs root (loop devices, BPF)"; exit 1; }
[ -x "$FSLENS" ] || { echo "bench/drain.sh: build first (make)"; exit 1; }
. bench/createmany.inc
bench_scratch drain
${CC:-gcc} -O2 -x c -o "$W/storm" bench/drain_storm.inc || exit 1
bench_fresh_fs 4G 100000
ring=()
[ -n "${RING:-}" ] && ring=(--ring-size "$RING")

/usr/bin/time -f "%U %S %M %e" -o "$W/time" "$FSLENS" record -m "$W/mnt" "${ring[@]}" \
	--duration $((SECS + 4)) -f -o "$W/t.trace" 2>"$W/err" &
rpid=$!
bench_on_exit="kill $rpid 2>/dev/null; wait $rpid 2>/dev/null"
for _ in $(seq 100); do
	grep -q 'recording' "$W/err" && break
	sleep 0.1
done
grep -q 'recording' "$W/err" || { cat "$W/err"; exit 1; }
sleep 1
if [ -n "${PERF:-}" ]; then	# PERF=FILE: a perf profile of the recorder during the storm
	perf record -q -g -o "$PERF" -p "$(pgrep -P $rpid -x fslens)" -- sleep "$SECS" 2>/dev/null &
fi
# the recorder's own memory (RssAnon) and its proportional share (Pss: the
# ring's pages, mapped twice by libbpf, count once), sampled twice a second
fpid=$(pgrep -P $rpid -x fslens)
( while kill -0 "$fpid" 2>/dev/null; do
	a=$(awk '/^RssAnon/ { print $2 }' /proc/"$fpid"/status 2>/dev/null)
	p=$(awk '/^Pss:/ { print $2 }' /proc/"$fpid"/smaps_rollup 2>/dev/null)
	echo "${a:-0} ${p:-0}"
	sleep 0.5
  done ) >"$W/mem" &
read -r ncreate nunlink < <("$W/storm" "$W/mnt/d" "$NPROC" "$SECS") || exit 1
wait $rpid || { cat "$W/err"; exit 1; }
wait
anon=$(sort -n "$W/mem" | tail -1 | cut -d' ' -f1)
pss=$(sort -n -k2 "$W/mem" | tail -1 | cut -d' ' -f2)
bench_on_exit=:
read -r ut st rss el <"$W/time"
python3 - "$W/err" "$ut" "$st" "$rss" "$el" "$ncreate" "$nunlink" "$SECS" "$NPROC" \
	"${RING:-default}" "$anon" "$pss" <<'PY'
import re, sys
err, ut, st, rss, el, nc, nu, secs, nproc, ring, anon, pss = sys.argv[1:]
text = open(err).read()
m = re.search(r'([\d.]+) s, (\d+) events', text)
if not m:
    print(text); sys.exit(1)
kept = int(m.group(2))
fam = re.findall(r'^  (\w+)\s+(\d+)\s+(\d+)', text, re.M)
lost = sum(int(l) for _, _, l in fam)
prod = kept + lost
cpu = float(ut) + float(st)
print(f"storm: {nproc} processes x {secs} s, {nc} creates + {nu} unlinks; ring {ring}; "
      f"recorder ran {el} s")
print(f"kept {kept}  lost {lost}  loss {100.0 * lost / prod if prod else 0:.2f}%  "
      f"({prod / float(secs) / 1e6:.2f} M events/s produced)")
print(f"recorder CPU {cpu:.2f} s ({100 * cpu / float(el):.0f}% of a CPU), "
      f"{1e9 * cpu / prod if prod else 0:.0f} ns/event produced, "
      f"{kept / cpu / 1e6 if cpu else 0:.2f} M events/s drained per CPU second")
print(f"peak RSS {int(rss) / 1024:.1f} MiB (VmHWM; the ring counts twice), "
      f"own memory {int(anon or 0) / 1024:.1f} MiB (RssAnon), Pss {int(pss or 0) / 1024:.1f} MiB")
for f, e, l in fam:
    print(f"  {f:10s} {int(e):12d} {int(l):10d}")
for line in text.splitlines():
    if 'lost' in line and ('behind' in line or 'burst' in line or 'ring' in line):
        print("  " + line.strip())
PY
