#!/bin/bash
# Benchmark of fslens report (issue #4): analyses fed from memory, then the
# whole `fslens report` (reader + analyses + text) on synthetic traces of N
# and 10 N events. Prints events/s and peak RSS; memory must not grow with
# the trace length (it follows live objects: inodes, in-flight I/O, stacks).
#   bench/report.sh [N=10000000]
set -u
cd "$(dirname "$0")/.."
N=${1:-10000000}
BUILD=${BUILD:-build}
[ -x "$BUILD/fslens" ] || { echo "bench/report.sh: build first (make)"; exit 1; }
W=$(mktemp -d /tmp/fslens-bench-report.XXXXXX)
trap 'rm -rf "$W"' EXIT
objs=$(ls $BUILD/obj/analyzer/*.o $BUILD/obj/lib/*.o)
${CC:-gcc} -O2 -std=gnu11 -Iinclude -D_GNU_SOURCE -o "$W/report_speed" bench/report_speed.c \
	$objs -lzstd -lm || exit 1
for n in "$N" "$((N * 10))"; do
	"$W/report_speed" feed "$n"
done
for n in "$N" "$((N * 10))"; do
	"$W/report_speed" gen "$W/s.trace" "$n" || exit 1
	sz=$(stat -c %s "$W/s.trace")
	/usr/bin/time -f "%e %U %S %M" -o "$W/time" "$BUILD/fslens" report "$W/s.trace" >/dev/null ||
		exit 1
	read -r secs us ss rss <"$W/time"
	awk -v n="$n" -v s="$secs" -v c="$(echo "$us + $ss" | bc)" -v r="$rss" -v z="$sz" 'BEGIN {
		printf "fslens report: %d events (%.1f MiB trace): %.2f s CPU (%.2f s wall) = %.1f M events/s, peak RSS %d KiB\n",
		       n, z / 1048576, c, s, n / c / 1e6, r }'
	rm -f "$W/s.trace"
done
