#!/bin/bash
# Where fslens record's overhead lands (issue #3): the createmany workload of
# bench/record.sh (N empty files in one directory + sync, same filesystem
# layout every run, workload pinned to the last CPU), once untraced and once
# under `fslens record` (all families, recorder on the other CPUs), each
# sampled with `perf record` on the workload's CPU only. Prints the sample
# totals and the symbols whose sample counts grew the most, split into the
# recorder's own code (BPF programs, tracepoint dispatch, helpers, the
# syscall slow path) and the rest (the kernel's own code running slower).
#   bench/record_profile.sh [N=100000] [TOP=25]
set -u
cd "$(dirname "$0")/.."
N=${1:-100000}
TOP=${2:-25}
FSLENS=$PWD/${BUILD:-build}/fslens
[ "$(id -u)" -eq 0 ] || { echo "bench/record_profile.sh: needs root"; exit 1; }
[ -x "$FSLENS" ] || { echo "bench/record_profile.sh: build first (make)"; exit 1; }
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || { echo "bench/record_profile.sh: needs 2 CPUs"; exit 1; }
CPU=$((ncpu - 1))
. bench/createmany.inc
bench_scratch prof
fresh_fs() { bench_fresh_fs 4G $((N + N / 4 + 1000)); }
fresh_fs
echo "untraced:  $(perf record -q -C "$CPU" -o "$W/none.data" -- \
	taskset -c "$CPU" "$W/createmany" "$W/mnt/d" "$N" 2>/dev/null) (wall/cpu s)"
fresh_fs
echo "recorded:  $(taskset -c 0-$((CPU - 1)) "$FSLENS" record -m "$W/mnt" -f -o "$W/t.trace" -- \
	perf record -q -C "$CPU" -o "$W/rec.data" -- \
	taskset -c "$CPU" "$W/createmany" "$W/mnt/d" "$N" 2>/dev/null) (wall/cpu s)"
for f in none rec; do
	perf report -i "$W/$f.data" --comm createmany --no-children --sort sym -F sample,sym \
		2>/dev/null | grep -v '^#' | grep -v '^$' >"$W/$f.txt"
done
python3 - "$W/none.txt" "$W/rec.txt" "$TOP" <<'PY'
import re, sys
def load(f):
    d = {}
    for l in open(f):
        p = l.split(None, 1)
        if len(p) == 2 and p[0].isdigit():
            k = p[1].strip()
            d[k] = d.get(k, 0) + int(p[0])
    return d
a, b, top = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
# the recorder's own code: its programs, their dispatch and helpers, the
# clock they read, the ring, task storage, user copies, the syscall slow path
mine = re.compile(r"bpf|ringbuf|read_tsc|ktime_get_mono_fast|rcu_read_(un)?lock|task_storage|"
                  r"strncpy_from_user|copy_from_user_nofault|probe_read|syscall_trace_enter|"
                  r"syscall_exit_work|srso")
ta, tb = sum(a.values()), sum(b.values())
print("samples on the workload's CPU: untraced %d, recorded %d (+%.1f%%)" %
      (ta, tb, 100.0 * (tb - ta) / max(ta, 1)))
rows = sorted(((b.get(k, 0) - a.get(k, 0), k) for k in set(a) | set(b)), reverse=True)
own = sum(d for d, k in rows if mine.search(k))
print("  recorder's own code: %+d samples (%.1f%% of untraced)" % (own, 100.0 * own / max(ta, 1)))
print("  everything else:     %+d samples (%.1f%% of untraced)" %
      (tb - ta - own, 100.0 * (tb - ta - own) / max(ta, 1)))
print("largest growth (samples: untraced -> recorded):")
for d, k in rows[:top]:
    print("  %+6d  %6d -> %6d  %s%s" % (d, a.get(k, 0), b.get(k, 0), k,
          "   [recorder]" if mine.search(k) else ""))
PY
