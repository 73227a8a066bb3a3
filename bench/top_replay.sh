#!/bin/bash
# Interactive `fslens top --replay` (a pty, 1 s refresh, q pressed at [END])
# against `-b` on synthetic traces of N/5 and N events (report_speed gen, as
# bench/report.sh): CPU time, wall time and peak RSS of the top process. The
# session holds each wait and path call only until the stream passes its end,
# so the peak RSS should not follow the event count. The interactive run
# plays at --speed 1, so its wall time should be the trace's span (N/5 events:
# 1 s, N: 5 s), not the CPU's.
# 2026-12-03, 2 shared cores, N=10M: interactive 1.0 s / 5.0 s wall (0.28 /
# 1.41 s CPU); before the replay kept pace (a full read batch pulled the clock
# back) 7.8 s / 36 s with the CPU mostly idle. -b: 0.2 s / 0.8 s.
#   bench/top_replay.sh [N=10000000]
set -u
cd "$(dirname "$0")/.."
N=${1:-10000000}
BUILD=${BUILD:-build}
[ -x "$BUILD/fslens" ] || { echo "bench/top_replay.sh: build first (make)"; exit 1; }
W=$(mktemp -d /tmp/fslens-bench-top-replay.XXXXXX)
trap 'rm -rf "$W"' EXIT
objs=$(ls $BUILD/obj/analyzer/*.o $BUILD/obj/analyzer/*/*.o $BUILD/obj/lib/*.o \
	$BUILD/obj/scenarios/phases.o 2>/dev/null)
# shellcheck disable=SC2086
${CC:-gcc} -O2 -std=gnu11 -Iinclude -D_GNU_SOURCE -o "$W/report_speed" bench/report_speed.c \
	$objs -lzstd -lm -lpthread || exit 1
cat >"$W/ptyrun.py" <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'xterm'
    os.execvp(sys.argv[1], sys.argv[1:])
tail, t0, sent = b'', time.time(), False
while True:
    if select.select([fd], [], [], 0.2)[0]:
        try:
            d = os.read(fd, 65536)
        except OSError:
            break
        tail = (tail + d)[-4096:]
    if not sent and (b'END' in tail or time.time() - t0 > 600):
        os.write(fd, b'q')
        sent = True
    if os.waitpid(pid, os.WNOHANG)[0]:
        break
PY
PY=$(python3 -c 'import sys; print(sys.executable)')
for n in $((N / 5)) "$N"; do
	"$W/report_speed" gen "$W/t.trace" "$n" >/dev/null || exit 1
	/usr/bin/time -f "%e %U %S %M" -o "$W/b" "$BUILD/fslens" top --replay "$W/t.trace" -b -i 1 \
		>/dev/null || exit 1
	"$PY" "$W/ptyrun.py" /usr/bin/time -f "%e %U %S %M" -o "$W/i" "$BUILD/fslens" top --replay \
		"$W/t.trace" -i 1 || exit 1
	for m in b i; do
		read -r secs us ss rss <"$W/$m"
		awk -v n="$n" -v s="$secs" -v c="$(echo "$us + $ss" | bc)" -v r="$rss" -v m=$m 'BEGIN {
			printf "fslens top --replay %s: %d events: %.2f s CPU, %.1f s wall, peak RSS %d KiB\n",
			       m == "b" ? "-b         " : "interactive", n, c, s, r }'
	done
	rm -f "$W/t.trace"
done
