#!/bin/bash
# A tracer's overhead on createmany, paired at short range (issues #18, #20):
# this VM's speed flips between two levels (the same untraced 300k-file
# create took 4.1 s or 6.2 s in one bench/monitor.sh run), so the rounds of
# bench/monitor.sh and bench/record.sh, minutes apart, compare runs taken at
# different speeds. Here each pair is two chunks of N files seconds apart,
# each on a fresh filesystem (a second chunk on the same one runs about 10%
# slower): untraced, and traced, the order alternating from pair to pair
# (ABBA) so a drift cancels. Traced is `fslens monitor` started before its
# chunk and stopped after, or `fslens record -- createmany`. Prints each
# pair's CPU ratio (the workload's own CPU time, where in-kernel probe costs
# land), their median, quartiles and the share of pairs at or under TARGET.
#   bench/ab.sh [N=50000] [PAIRS=20] [monitor|record] [options...]
#   e.g. bench/ab.sh 50000 12 monitor --bench-floor
#        bench/ab.sh 50000 12 record --full
set -u
cd "$(dirname "$0")/.."
N=${1:-50000}
PAIRS=${2:-20}
shift 2 2>/dev/null || shift $#
KIND=${1:-monitor}
shift 2>/dev/null
case $KIND in monitor|record) ;; *) echo "bench/ab.sh: monitor or record, not '$KIND'"; exit 1 ;; esac
FSLENS=${FSLENS:-$PWD/build/fslens}
PORT=$((30000 + $$ % 5000))
TARGET=${TARGET:-$([ "$KIND" = monitor ] && echo 1.03 || echo 1.05)}
[ "$(id -u)" -eq 0 ] || { echo "bench/ab.sh: needs root"; exit 1; }
[ -x "$FSLENS" ] || { echo "bench/ab.sh: build first (make)"; exit 1; }
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
traced() {	# traced [options]: a chunk under the tracer
	if [ "$KIND" = monitor ]; then
		mon_start "$@"; chunk; mon_stop
	else
		taskset -c "$TCPU" "$FSLENS" record -m "$W/mnt" -f -o "$W/t.trace" "$@" -- \
			taskset -c $WCPU "$W/createmany" "$W/mnt/d" "$N" 2>"$W/rec.err" ||
			{ echo "bench/ab.sh: record failed: $(tail -3 "$W/rec.err")" >&2; exit 1; }
	fi
}
mon_start() {
	taskset -c "$TCPU" "$FSLENS" monitor -m "$W/mnt" --listen 127.0.0.1:$PORT --interval 1 "$@" \
		>/dev/null 2>"$W/mon.err" &
	MON=$!
	for _ in $(seq 1 80); do
		curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null && return 0
		sleep 0.25
	done
	echo "bench/ab.sh: the monitor did not start: $(cat "$W/mon.err")" >&2
	exit 1
}
mon_stop() { kill $MON; wait $MON 2>/dev/null; MON=; }

fresh() { bench_fresh_fs 1G $((N + N / 4 + 1000)); }
: >"$W/pairs"
for p in $(seq 1 "$PAIRS"); do
	if [ $((p % 2)) -eq 1 ]; then
		fresh; u=$(chunk)
		fresh; m=$(traced "$@")
	else
		fresh; m=$(traced "$@")
		fresh; u=$(chunk)
	fi
	echo "$u $m" >>"$W/pairs"
	echo "pair $p: untraced $u, $KIND $m (wall/cpu s)"
done
python3 - "$W/pairs" "$TARGET" "$N" "$KIND${*:+ $*}" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
target, n, opts = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def q(v, f):
    v = sorted(v); i = (len(v) - 1) * f; lo = int(i)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (i - lo)
for name, k in (("cpu", 1), ("wall", 0)):
    r = [row[2 + k] / row[k] for row in rows]
    print("%s ratio, %s against untraced, %d pairs of %d files: median %.3f, quartiles %.3f-%.3f,"
          " %d of %d pairs at or under %.2f" % (name, opts, len(r), n,
          q(r, .5), q(r, .25), q(r, .75), sum(x <= target for x in r), len(r), target))
PY
