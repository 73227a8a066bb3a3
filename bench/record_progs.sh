#!/bin/bash
# Per-program cost of fslens record's probes (issue #3): N empty files
# created in one directory on a fresh 4K ext4 (loop device) while recording
# with kernel.bpf_stats_enabled=1; prints run_cnt and run_time_ns/run_cnt of
# each of this recorder's programs (found through its fds' prog_id, so other
# BPF users on the machine are left out), the total, and the creating
# process's CPU seconds. Compare builds with FSLENS=path/to/fslens.
#   bench/record_progs.sh [N=30000] [fslens record options...]
set -u
cd "$(dirname "$0")/.."
N=${1:-30000}
shift
FSLENS=${FSLENS:-$PWD/build/fslens}
[ "$(id -u)" -eq 0 ] || { echo "bench/record_progs.sh: needs root"; exit 1; }
command -v bpftool >/dev/null || { echo "bench/record_progs.sh: needs bpftool"; exit 1; }
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
. bench/createmany.inc
bench_on_exit='sysctl -q kernel.bpf_stats_enabled=$old_stats'
bench_scratch progs
bench_fresh_fs 1G $((N * 2 + 1000))
sysctl -q kernel.bpf_stats_enabled=1
# the workload, then (still recording) the recorder's programs and their stats
"$FSLENS" record -m "$W/mnt" -f -o "$W/t.trace" "$@" -- sh -c \
	"'$W/createmany' '$W/mnt/d' $N > '$W/cpu' && grep -h prog_id /proc/\$PPID/fdinfo/* > '$W/ids' &&
	 bpftool prog show -j > '$W/progs.json'" 2>"$W/err" || { cat "$W/err"; exit 1; }
grep -E 'recording|events,' "$W/err"
echo "workload wall/cpu s: $(cat "$W/cpu")"
python3 - "$W/ids" "$W/progs.json" "$N" <<'PY'
import json, sys
ids = set(int(l.split()[1]) for l in open(sys.argv[1]))
progs = [p for p in json.load(open(sys.argv[2])) if p["id"] in ids and p.get("run_cnt")]
tot = 0
for p in sorted(progs, key=lambda p: -p["run_time_ns"]):
    tot += p["run_time_ns"]
    print("%-36s %9d runs %6.0f ns/run %8.2f ms" % (p["name"], p["run_cnt"],
          p["run_time_ns"] / p["run_cnt"], p["run_time_ns"] / 1e6))
print("total %.1f ms, %.0f ns per created file" % (tot / 1e6, tot / int(sys.argv[3])))
PY
