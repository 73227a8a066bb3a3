#!/bin/bash
# fslens monitor's overhead on createmany (issue #18), paired at short range:
# this VM's speed flips between two levels (the same untraced 300k-file
# create took 4.1 s or 6.2 s in one bench/monitor.sh run), so the rounds of
# bench/monitor.sh, minutes apart, compare runs taken at different speeds.
# Here each pair is two chunks of N files seconds apart, each on a fresh
# filesystem (a second chunk on the same one runs about 10% slower):
# untraced, and under `fslens monitor` (started before its chunk, stopped
# after), the order alternating from pair to pair (ABBA) so a drift cancels. Prints each pair's CPU ratio (the workload's own
# CPU time, where in-kernel probe costs land), their median, quartiles and
# the share of pairs at or under the target.
#   bench/monitor_ab.sh [N=50000] [PAIRS=20] [fslens monitor options...]
#   (e.g. --bench-floor for the floor's own ratio)
set -u
cd "$(dirname "$0")/.."
N=${1:-50000}
PAIRS=${2:-20}
shift 2 2>/dev/null || shift $#
FSLENS=${FSLENS:-$PWD/build/fslens}
PORT=$((30000 + $$ % 5000))
TARGET=${TARGET:-1.03}
[ "$(id -u)" -eq 0 ] || { echo "bench/monitor_ab.sh: needs root"; exit 1; }
[ -x "$FSLENS" ] || { echo "bench/monitor_ab.sh: build first (make)"; exit 1; }
. bench/createmany.inc
MON=
bench_on_exit='[ -n "$MON" ] && kill $MON 2>/dev/null && wait $MON 2>/dev/null'
bench_scratch monab
ncpu=$(nproc)
WCPU=$((ncpu - 1))
TCPU=0-$((ncpu > 1 ? ncpu - 2 : 0))

chunk() {	# chunk: N creates on a fresh filesystem, pinned; prints "wall cpu"
	taskset -c $WCPU "$W/createmany" "$W/mnt/d" "$N"
}
mon_start() {
	taskset -c "$TCPU" "$FSLENS" monitor -m "$W/mnt" --listen 127.0.0.1:$PORT --interval 1 "$@" \
		2>"$W/mon.err" &
	MON=$!
	for _ in $(seq 1 80); do
		curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null && return 0
		sleep 0.25
	done
	echo "bench/monitor_ab.sh: the monitor did not start: $(cat "$W/mon.err")" >&2
	exit 1
}
mon_stop() { kill $MON; wait $MON 2>/dev/null; MON=; }

fresh() { bench_fresh_fs 1G $((N + N / 4 + 1000)); }
: >"$W/pairs"
for p in $(seq 1 "$PAIRS"); do
	if [ $((p % 2)) -eq 1 ]; then
		fresh; u=$(chunk)
		fresh; mon_start "$@"; m=$(chunk); mon_stop
	else
		fresh; mon_start "$@"; m=$(chunk); mon_stop
		fresh; u=$(chunk)
	fi
	echo "$u $m" >>"$W/pairs"
	echo "pair $p: untraced $u, monitor $m (wall/cpu s)"
done
python3 - "$W/pairs" "$TARGET" "$N" "$*" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
target, n, opts = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def q(v, f):
    v = sorted(v); i = (len(v) - 1) * f; lo = int(i)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (i - lo)
for name, k in (("cpu", 1), ("wall", 0)):
    r = [row[2 + k] / row[k] for row in rows]
    print("%s ratio, monitor%s against untraced, %d pairs of %d files: median %.3f, quartiles %.3f-%.3f,"
          " %d of %d pairs at or under %.2f" % (name, " " + opts if opts else "", len(r), n,
          q(r, .5), q(r, .25), q(r, .75), sum(x <= target for x in r), len(r), target))
PY
