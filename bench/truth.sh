#!/bin/bash
# The truth harness at full size (tests/helpers/truth.sh): every workload of
# issue 14 recorded by fslens while bpftrace and /proc watch the same tasks
# and device, through the live tests that check them at make-check size
# (cause_bonnie, journal_figures, truth_workloads) with their sizes raised.
# Prints each test's pass/fail count, then the table: per workload, each
# check as "fslens / truth", and the command. Run as root; about 20 minutes
# on two busy cores.
#   bench/truth.sh [TEST...]
set -u
cd "$(dirname "$0")/.."
export TOP=$PWD FSLENS=$PWD/${BUILD:-build}/fslens
FIG=$(mktemp /tmp/fslens-truth-figures.XXXXXX)
trap 'rm -f "$FIG"' EXIT
export TRUTH_FIGURES=$FIG
# full sizes (the tests' defaults are make-check sizes)
export BONNIE_FS_MB=3072 BONNIE_MB=1024 BONNIE_RAM_MB=512 BONNIE_FILES=8
export JOURNAL_MKDIRS=30000
export TRUTH_DBENCH_MB=3072 TRUTH_DBENCH_S=60 TRUTH_DBENCH_CLIENTS=4
export TRUTH_FIO_FS_MB=2048 TRUTH_FIO_MB=1024 TRUTH_FIO_S=25 TRUTH_FIO_READ_MB=1024
export TRUTH_CREATES=500000 TRUTH_CREATE_INODES=600000
export TRUTH_DD_MB=1024 TRUTH_TAR_FS_MB=1024
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(cause_bonnie journal_figures truth_workloads)
for t in "${tests[@]}"; do
	echo "== $t"
	TESTS_FILTER=$t tests/run live 2>&1 | grep -E '^(FAIL|  -- )'
done
python3 - "$FIG" <<'PY'
import sys
rows, cmds, order = {}, {}, []
for line in open(sys.argv[1]):
    w = line.split(None, 2)
    if w[0] == "CMD":
        cmds[w[1]] = w[2].strip() if len(w) > 2 else ""
        continue
    tag, check, ours, truth, ok = line.split()[1:6]
    if tag not in rows:
        rows[tag] = {}
        order.append(tag)
    rows[tag][check] = "%s / %s%s" % (ours, truth, "" if ok == "ok" else " (BAD)")
cols = ["top_cause", "wall_s", "commits", "avg_commit_us", "data_written_MiB"]
head = ["workload", "top cause", "wall s (sum of threads)", "commits", "avg commit us",
        "data written MiB"]
print("\n| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for t in order:
    print("| %s | %s |" % (t, " | ".join(rows[t].get(c, "-") for c in cols)))
print("\nfslens / truth: bpftrace's tally of the same tasks (top cause: its class and share),")
print("their lifetimes (wall), /proc/fs/jbd2 (commits, average), the device's completed")
print("non-metadata writes (data written). Commands (in the recorded shell):")
for t in order:
    print("  %s: %s" % (t, cmds.get(t, "?")))
PY
