#!/bin/bash
# Benchmark of fslens report (issue #4): analyses fed from memory, then the
# reader alone vs reader + analyses, then the whole `fslens report` (reader
# thread + analyses + text, and single-threaded) on synthetic traces of N and
# 10 N events. Prints events/s (CPU and wall: wall means little on a busy
# machine) and peak RSS; memory follows live objects (inodes, in-flight I/O,
# stacks) and the layout state, not the event count.
#   bench/report.sh [N=10000000]
set -u
cd "$(dirname "$0")/.."
N=${1:-10000000}
BUILD=${BUILD:-build}
[ -x "$BUILD/fslens" ] || { echo "bench/report.sh: build first (make)"; exit 1; }
W=$(mktemp -d /tmp/fslens-bench-report.XXXXXX)
trap 'rm -rf "$W"' EXIT
objs=$(ls $BUILD/obj/analyzer/*.o $BUILD/obj/analyzer/*/*.o $BUILD/obj/lib/*.o \
	$BUILD/obj/scenarios/phases.o 2>/dev/null)
${CC:-gcc} -O2 -std=gnu11 -Iinclude -D_GNU_SOURCE -o "$W/report_speed" bench/report_speed.c \
	$objs -lzstd -lm -lpthread || exit 1
for n in "$N" "$((N * 10))"; do
	"$W/report_speed" feed "$n"
done
for n in "$N" "$((N * 10))"; do
	"$W/report_speed" gen "$W/s.trace" "$n" || exit 1
	"$W/report_speed" read "$W/s.trace"
	sz=$(stat -c %s "$W/s.trace")
	for mode in thread single; do
		if [ $mode = single ]; then export FSLENS_REPORT_NO_THREAD=1; else unset FSLENS_REPORT_NO_THREAD; fi
		/usr/bin/time -f "%e %U %S %M" -o "$W/time" "$BUILD/fslens" report "$W/s.trace" >/dev/null ||
			exit 1
		read -r secs us ss rss <"$W/time"
		awk -v n="$n" -v s="$secs" -v c="$(echo "$us + $ss" | bc)" -v r="$rss" -v z="$sz" -v m=$mode 'BEGIN {
			printf "fslens report (%s): %d events (%.1f MiB trace): %.2f s CPU, %.2f s wall = %.1f M events/s CPU, %.1f M/s wall, peak RSS %d KiB\n",
			       m, n, z / 1048576, c, s, n / c / 1e6, n / s / 1e6, r }'
	done
	rm -f "$W/s.trace"
done
