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
# WORKLOAD picks what a chunk runs (the issue's data-heavy cases):
#   createmany     N empty files created in one directory (the default)
#   fio-randfsync  fio, N random 4 KiB writes to a 64 MiB file, each fsynced
#   fio-seq        fio, N MiB written sequentially in 1 MiB writes, fsynced at the end
# A fio chunk's CPU is fio's own (its rusage, as createmany's is).
#   bench/ab.sh [N=50000] [PAIRS=20] [monitor|record] [options...]
#   e.g. bench/ab.sh 50000 12 monitor --bench-floor
#        bench/ab.sh 50000 12 record --full
#        WORKLOAD=fio-randfsync bench/ab.sh 3000 8 record
set -u
cd "$(dirname "$0")/.."
N=${1:-50000}
PAIRS=${2:-20}
shift 2 2>/dev/null || shift $#
KIND=${1:-monitor}
shift 2>/dev/null
case $KIND in monitor|record) ;; *) echo "bench/ab.sh: monitor or record, not '$KIND'"; exit 1 ;; esac
FSLENS=${FSLENS:-$PWD/build/fslens}
WORKLOAD=${WORKLOAD:-createmany}
case $WORKLOAD in
createmany) ;;
fio-randfsync|fio-seq)
	command -v fio >/dev/null || { echo "bench/ab.sh: $WORKLOAD needs fio (make deps)"; exit 1; } ;;
*) echo "bench/ab.sh: WORKLOAD is createmany, fio-randfsync or fio-seq, not '$WORKLOAD'"; exit 1 ;;
esac
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

# the chunk's command: createmany prints "wall cpu" itself; fio runs under
# a wrapper that prints fio's wall time and CPU (its rusage)
work() {
	case $WORKLOAD in
	createmany) "$W/createmany" "$W/mnt/d" "$N" ;;
	fio-randfsync)
		"$PY" "$W/rusage.py" fio --name=w --filename="$W/mnt/d/f" --size=64m --rw=randwrite \
			--bs=4k --ioengine=psync --fsync=1 --number_ios="$N" --randseed=7 \
			--output=/dev/null ;;
	fio-seq)
		"$PY" "$W/rusage.py" fio --name=w --filename="$W/mnt/d/f" --size="${N}m" --rw=write \
			--bs=1m --ioengine=psync --end_fsync=1 --output=/dev/null ;;
	esac
}
PY=$(python3 -c 'import sys; print(sys.executable)')
cat >"$W/rusage.py" <<'PYW'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f" % (time.monotonic() - t, r.ru_utime + r.ru_stime))
sys.exit(rc)
PYW
chunk() {	# chunk: a workload on a fresh filesystem, pinned; prints "wall cpu"
	taskset -c $WCPU bash -c "$(declare -f work); W='$W' N='$N' PY='$PY' WORKLOAD='$WORKLOAD' work"
}
traced() {	# traced [options]: a chunk under the tracer
	if [ "$KIND" = monitor ]; then
		mon_start "$@"; chunk; mon_stop
	else
		taskset -c "$TCPU" "$FSLENS" record -m "$W/mnt" -f -o "$W/t.trace" "$@" -- \
			taskset -c $WCPU bash -c \
			"$(declare -f work); W='$W' N='$N' PY='$PY' WORKLOAD='$WORKLOAD' work" \
			2>"$W/rec.err" ||
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

fresh() {
	if [ "$WORKLOAD" = createmany ]; then bench_fresh_fs 1G $((N + N / 4 + 1000))
	else bench_fresh_fs $((N > 512 ? 2 * N + 256 : 1280))M 65536; fi
	# the random writes' file laid out before, as fio would (not timed)
	if [ "$WORKLOAD" = fio-randfsync ]; then
		dd if=/dev/zero of="$W/mnt/d/f" bs=1M count=64 conv=fsync status=none
		echo 3 >/proc/sys/vm/drop_caches
	fi
}
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
python3 - "$W/pairs" "$TARGET" "$N" "$KIND${*:+ $*}" "$WORKLOAD" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
target, n, opts = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
what = {"createmany": "%d files" % n, "fio-randfsync": "%d fsynced 4 KiB random writes" % n,
        "fio-seq": "%d MiB sequential writes" % n}[sys.argv[5]]
def q(v, f):
    v = sorted(v); i = (len(v) - 1) * f; lo = int(i)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (i - lo)
for name, k in (("cpu", 1), ("wall", 0)):
    r = [row[2 + k] / row[k] for row in rows]
    print("%s ratio, %s against untraced, %d pairs of %s: median %.3f, quartiles %.3f-%.3f,"
          " %d of %d pairs at or under %.2f" % (name, opts, len(r), what,
          q(r, .5), q(r, .25), q(r, .75), sum(x <= target for x in r), len(r), target))
PY
