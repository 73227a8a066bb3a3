#!/bin/bash
# Overhead of the data operations (issue 13), as ratios against anchors
# measured in the same run:
#  - worst case: a cache-hot 4 KiB pread loop (about 1 us a call untraced), N calls;
#  - fio random 4 KiB reads (psync) of a cached 64 MiB file, fixed count;
# each untraced, recorded (-e dirops,proc: the path and data operations) with
# the syscall programs on raw_syscalls tp_btf (the default), on per-syscall
# tracepoints (--syscall-tp) and on raw_tp (--raw-tp), and the floor of the
# first two: the same programs attached, returning at once (--bench-floor=syscalls).
# Prints seconds of the workload's CPU time (user + system, where the
# programs' cost lands; a shared machine's load does not inflate it as it
# does wall time), median of R runs, and the ratio to untraced; the
# cheapest attach mode is named at the end.
#   bench/data_ops.sh [N=2000000] [R=3]
set -u
cd "$(dirname "$0")/.."
N=${1:-2000000}
R=${2:-3}
FSLENS=${FSLENS:-$PWD/build/fslens}
[ "$(id -u)" -eq 0 ] || { echo "bench/data_ops.sh: needs root"; exit 1; }
. bench/createmany.inc
bench_scratch data
cat >"$W/loop.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	static char buf[4096];
	long n = atol(argv[2]), i;
	struct timespec a, b;
	int fd = open(argv[1], O_RDONLY);

	if (fd < 0 || pread(fd, buf, 4096, 0) != 4096)
		return 1;
	/* CPU time, not wall: the machine may be shared */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (i = 0; i < n; i++)
		if (pread(fd, buf, 4096, 0) != 4096)
			return 1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	printf("%.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
C
${CC:-gcc} -O2 -o "$W/loop" "$W/loop.c" || exit 1
bench_fresh_fs 512M 4096
dd if=/dev/zero of="$W/mnt/f" bs=1M count=64 status=none
cat "$W/mnt/f" >/dev/null
have_fio=0
command -v fio >/dev/null && have_fio=1

# one measurement: prints seconds; $1 = loop|fio, rest = record options or "none"
measure() {
	local what=$1 out
	shift
	if [ "$what" = loop ]; then
		cmd=("$W/loop" "$W/mnt/f" "$N")
	else
		cmd=(fio --name=r --filename="$W/mnt/f" --size=64m --rw=randread --bs=4k
		     --ioengine=psync --number_ios=$((N / 20)) --output-format=json --output="$W/fio.json")
	fi
	if [ "${1:-}" = none ]; then
		out=$("${cmd[@]}") || return 1
	else
		out=$("$FSLENS" record -m "$W/mnt" -e dirops,proc -f -o "$W/t.trace" "$@" -- \
			"${cmd[@]}" 2>"$W/err") || { cat "$W/err" >&2; return 1; }
	fi
	if [ "$what" = fio ]; then
		# the job's CPU: its runtime times its user + system share
		python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print("%.6f" % (j["read"]["runtime"] / 1000.0 * (j["usr_cpu"] + j["sys_cpu"]) / 100.0))' "$W/fio.json"
	else
		echo "$out"
	fi
}

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

modes=("untraced:none" "tp_btf (default):" "per-syscall tracepoints:--syscall-tp"
       "raw_tp:--raw-tp" "floor tp_btf:--bench-floor=syscalls" "floor per-syscall:--bench-floor=syscalls --syscall-tp")
for what in loop fio; do
	[ "$what" = fio ] && [ $have_fio = 0 ] && { echo "fio: not installed, skipped"; continue; }
	calls=$N
	[ "$what" = fio ] && calls=$((N / 20))
	echo "== $what: $calls $([ "$what" = loop ] && echo "cache-hot 4 KiB preads" || echo "fio psync 4 KiB random reads from cache")"
	# rounds of every mode in turn, so that drift of the machine hits all alike
	for r in $(seq 1 "$R"); do
		for k in "${!modes[@]}"; do
			m=${modes[$k]}
			# shellcheck disable=SC2206
			opts=(${m#*:})
			t=$(measure "$what" ${opts[@]+"${opts[@]}"}) || exit 1
			echo "$k $t" >>"$W/$what.times"
		done
	done
	base=
	for k in "${!modes[@]}"; do
		name=${modes[$k]%%:*}
		t=$(awk -v k="$k" '$1 == k {print $2}' "$W/$what.times" | median)
		[ -z "$base" ] && base=$t
		printf "  %-26s %9.3f s  ratio %5.2f  (%.0f ns/call)\n" "$name" "$t" \
			"$(echo "$t / $base" | bc -l)" "$(echo "$t * 1000000000 / $calls" | bc -l)"
		echo "$what $name $t" >>"$W/all"
	done
done
python3 - "$W/all" <<'PY'
import sys
t = {}
for line in open(sys.argv[1]):
    what, rest = line.split(" ", 1)
    name, v = rest.rsplit(" ", 1)
    t[(what, name)] = float(v)
for what in ("loop", "fio"):
    m = {k[1]: v for k, v in t.items() if k[0] == what and k[1] in ("tp_btf (default)", "per-syscall tracepoints", "raw_tp")}
    if m:
        best = min(m, key=m.get)
        print("%s: cheapest attach mode %s (%.2fx untraced)" % (what, best, m[best] / t[(what, "untraced")]))
PY
