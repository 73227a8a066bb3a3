#!/bin/bash
# Per-program cost of fslens monitor's probes (issue #18), the deterministic
# side of bench/monitor.sh's ratios (which move by 10% from round to round on
# a shared VM): N empty files created in one directory on a fresh 4K ext4
# under `fslens monitor` with kernel.bpf_stats_enabled=1. Prints run_cnt and
# ns/run of each of the monitor's programs (found through its fds' prog_id),
# their total per created file, and the creating process's CPU per file: the
# programs' share of a create is the overhead less the tracepoints' dispatch.
#   bench/monitor_progs.sh [N=300000] [fslens monitor options...]
set -u
cd "$(dirname "$0")/.."
N=${1:-300000}
shift
FSLENS=${FSLENS:-$PWD/build/fslens}
PORT=$((30000 + $$ % 5000))
[ "$(id -u)" -eq 0 ] || { echo "bench/monitor_progs.sh: needs root"; exit 1; }
command -v bpftool >/dev/null || { echo "bench/monitor_progs.sh: needs bpftool"; exit 1; }
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
. bench/createmany.inc
MON=
bench_on_exit='sysctl -q kernel.bpf_stats_enabled=$old_stats; [ -n "$MON" ] && kill $MON 2>/dev/null && wait $MON 2>/dev/null'
bench_scratch monprogs
bench_fresh_fs 4G $((N + N / 4 + 1000))
"$FSLENS" monitor -m "$W/mnt" --listen 127.0.0.1:$PORT --interval 1 "$@" 2>"$W/err" &
MON=$!
for _ in $(seq 1 80); do
	curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null && break
	sleep 0.25
done
sysctl -q kernel.bpf_stats_enabled=1
"$W/createmany" "$W/mnt/d" "$N" >"$W/cpu" || exit 1
grep -h prog_id /proc/$MON/fdinfo/* >"$W/ids"
bpftool prog show -j >"$W/progs.json"
sysctl -q kernel.bpf_stats_enabled="$old_stats"
echo "workload wall/cpu s: $(cat "$W/cpu")"
python3 - "$W/ids" "$W/progs.json" "$N" "$W/cpu" <<'PY'
import json, sys
ids = set(int(l.split()[1]) for l in open(sys.argv[1]))
progs = [p for p in json.load(open(sys.argv[2])) if p["id"] in ids and p.get("run_cnt")]
n = int(sys.argv[3])
cpu = float(open(sys.argv[4]).read().split()[1])
tot = 0
for p in sorted(progs, key=lambda p: -p["run_time_ns"]):
    tot += p["run_time_ns"]
    print("%-28s %10d runs %6.0f ns/run %6.0f ns/file" % (p["name"], p["run_cnt"],
          p["run_time_ns"] / p["run_cnt"], p["run_time_ns"] / n))
print("programs: %.1f ms in all, %.0f ns per created file; the create: %.0f ns of CPU per file;"
      " programs' share %.1f%%" % (tot / 1e6, tot / n, cpu * 1e9 / n, 100.0 * tot / (cpu * 1e9)))
PY
