#!/bin/bash
# Benchmark of fslens replay's speed (issue #5 target: >= 2 M allocation
# events/s). A synthetic trace of N files (1-3 blocks each, every 1024th one
# 8 MiB), its "kernel" decisions made by the model so every event takes the
# full path (decide, compare, apply, free run); median of RUNS replays.
#   bench/replay.sh [N=300000] [RUNS=3]
set -u
cd "$(dirname "$0")/.."
N=${1:-300000}
RUNS=${2:-3}
BUILD=${BUILD:-build}
FSLENS=$PWD/$BUILD/fslens
[ -x "$FSLENS" ] || { echo "bench/replay.sh: build first (make)"; exit 1; }
W=$(mktemp -d /tmp/fslens-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
${CC:-gcc} -O2 -std=gnu11 -Iinclude -D_GNU_SOURCE -o "$W/gen" bench/replay_gen.c \
	$BUILD/obj/lib/*.o $BUILD/obj/analyzer/model/*.o -lzstd -lm || exit 1
out=$("$W/gen" "$W/t.trace" "$N") || exit 1
nev=$(echo "$out" | awk '{print $3}')
nall=$(echo "$out" | awk '{print $1}')
# CPU time (user + sys) as well as wall: on a shared machine wall time
# measures the neighbours
cpus=() walls=()
for ((r = 0; r < RUNS; r++)); do
	TIMEFORMAT='%U %S %R'
	{ time "$FSLENS" replay "$W/t.trace" >"$W/out.txt" 2>&1; } 2>"$W/time" ||
		{ cat "$W/out.txt"; exit 1; }
	read -r u s e <"$W/time"
	cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')")
	walls+=("$e")
done
cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
echo "replay: $nall allocations, $nev alloc-family events"
echo "replay: median of $RUNS: cpu ${cpu}s, wall ${wall}s"
awk -v e="$nev" -v a="$nall" -v c="$cpu" -v w="$wall" 'BEGIN {
	printf "replay: %.0f alloc events/s of CPU, %.0f allocations/s (%.0f events/s of wall time)\n",
	       e / c, a / c, e / w }'
grep -m1 "Block placement" "$W/out.txt"
