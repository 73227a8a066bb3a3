#!/bin/bash
# Benchmark of fslens replay's memory (issue #19 item 10): peak RSS of
# `fslens replay` and of `fslens report` on synthetic traces of 1 M, 4 M and
# 10 M events (report_speed gen: block I/O + journal mix), and their ratio.
# Replay's memory must follow live state, not the event count: the ratio
# stays flat as the trace grows.
#   bench/replay_memory.sh [N1 N2 ...]   (default 1000000 4000000 10000000)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
[ -x "$BUILD/fslens" ] || { echo "bench/replay_memory.sh: build first (make)"; exit 1; }
[ $# -gt 0 ] || set -- 1000000 4000000 10000000
W=$(mktemp -d /tmp/fslens-bench-replaymem.XXXXXX)
trap 'rm -rf "$W"' EXIT
objs=$(ls $BUILD/obj/analyzer/*.o $BUILD/obj/analyzer/*/*.o $BUILD/obj/lib/*.o \
	$BUILD/obj/scenarios/phases.o 2>/dev/null)
${CC:-gcc} -O2 -std=gnu11 -Iinclude -D_GNU_SOURCE -o "$W/report_speed" bench/report_speed.c \
	$objs -lzstd -lm -lpthread || exit 1
rss() {	# rss CMD FILE: peak RSS in KiB of fslens CMD FILE
	/usr/bin/time -f "%M" -o "$W/time" "$BUILD/fslens" "$1" "$2" >/dev/null 2>&1 || return 1
	cat "$W/time"
}
for n in "$@"; do
	"$W/report_speed" gen "$W/s.trace" "$n" >/dev/null || exit 1
	rp=$(rss replay "$W/s.trace") || { echo "fslens replay failed"; exit 1; }
	rr=$(rss report "$W/s.trace") || { echo "fslens report failed"; exit 1; }
	awk -v n="$n" -v a="$rp" -v b="$rr" 'BEGIN {
		printf "%d events: replay peak RSS %d KiB, report %d KiB, replay/report %.2f\n",
		       n, a, b, a / b }'
	rm -f "$W/s.trace"
done
