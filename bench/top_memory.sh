#!/bin/bash
# Memory of live `fslens top` (issue 18, "Bounded": RSS at most 64 MiB
# whatever the rate and duration). A create/delete loop runs on a scratch
# ext4 for SECONDS; each iteration is new processes (touch, rm) on a new
# name, so task ids, inodes and directory entries are all short-lived and
# distinct: per-task or per-object state that is never forgotten shows as
# growth. `fslens top -m MNT -b -i 1` watches it; its RSS (VmRSS, and
# VmHWM at the end) is printed every 10 s, with the ring size it used and
# the events lost it reported on its last frame.
#   bench/top_memory.sh [SECONDS]      (default 60; root, BPF build)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
FSLENS=${FSLENS:-$PWD/$BUILD/fslens}
SECS=${1:-60}
TOP=
LOADPID=
bench_on_exit='[ -n "$LOADPID" ] && kill $LOADPID 2>/dev/null; [ -n "$TOP" ] && kill $TOP 2>/dev/null; wait 2>/dev/null'
# shellcheck source=bench/createmany.inc
. bench/createmany.inc
bench_scratch top-memory
bench_fresh_fs 512M 200000

rss_kb() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status" 2>/dev/null; }

"$FSLENS" top -m "$W/mnt" -b -i 1 >"$W/top.out" 2>"$W/top.err" &
TOP=$!
sleep 2
if ! kill -0 "$TOP" 2>/dev/null; then
	echo "top_memory: fslens top did not start:" >&2
	cat "$W/top.err" >&2
	exit 1
fi
# the load: two processes per iteration, a new name each time
(
	cd "$W/mnt/d" || exit 1
	i=0
	while :; do
		touch "f$i" && rm "f$i"
		i=$((i + 1))
	done
) &
LOADPID=$!

echo "fslens top live memory, create/delete loop on a loop ext4, ${SECS} s"
ring=$(awk '$2 == "TOP_LIVE_RING_BYTES" { $1 = $2 = ""; print }' tui/source.h)
echo "  ring:${ring:- the collector default (64 MiB)} (TOP_LIVE_RING_BYTES, tui/source.h)"
printf "  %6s %10s\n" "t (s)" "RSS (MiB)"
t=0
printf "  %6d %10.1f\n" 0 "$(echo "$(rss_kb "$TOP" VmRSS) / 1024" | bc -l)"
mid=
while [ "$t" -lt "$SECS" ]; do
	sleep 10
	t=$((t + 10))
	kill -0 "$TOP" 2>/dev/null || { echo "top_memory: fslens top exited" >&2; cat "$W/top.err" >&2; exit 1; }
	r=$(rss_kb "$TOP" VmRSS)
	[ -z "$mid" ] && [ "$t" -ge $((SECS / 2)) ] && mid=$r
	printf "  %6d %10.1f\n" "$t" "$(echo "$r / 1024" | bc -l)"
done
end=$r
hwm=$(rss_kb "$TOP" VmHWM)
kill "$LOADPID"; wait "$LOADPID" 2>/dev/null; LOADPID=
kill -INT "$TOP"; wait "$TOP" 2>/dev/null; TOP=
ops=$(grep -c . "$W/top.out")
lost=$(grep -o 'lost[ :=]*[0-9]*' "$W/top.out" | tail -1)
printf "  peak RSS (VmHWM) %.1f MiB; last frame: %s; %d lines of frames\n" \
	"$(echo "$hwm / 1024" | bc -l)" "${lost:-lost not shown}" "$ops"
if [ "$end" -gt $((64 * 1024)) ] || [ "$((end - ${mid:-$end}))" -gt 2048 ]; then
	printf "  FAIL: RSS %.1f MiB at the end, %+.1f MiB over the second half (bound 64 MiB, flat)\n" \
		"$(echo "$end / 1024" | bc -l)" "$(echo "($end - ${mid:-$end}) / 1024" | bc -l)"
	exit 1
fi
printf "  ok: RSS %.1f MiB at the end, %+.1f MiB over the second half\n" \
	"$(echo "$end / 1024" | bc -l)" "$(echo "($end - ${mid:-$end}) / 1024" | bc -l)"
