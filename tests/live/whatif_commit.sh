#!/bin/bash
# The commit interval what-if checked against a real run: a steady trickle
# of creates (one every 20 ms for 15 s, 4 KiB blocks) with the default
# commit=5 (A); `replay --set commit=1` predicts the commits with commit=1
# (B), run for real. Commits within 10% (about 15: the timer's and
# the expiry check's commits), counted as the change of /proc/fs/jbd2
# "transactions" less those other tasks' syncs asked for (the recorder's
# syncfs at its end, other jobs' sync): the model gets those as the run's
# environment and counts them apart too.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
. "$(dirname "$0")/../helpers/whatif.sh"
WI_FAMILIES=alloc,journal,dirops,proc

# creates on a fixed schedule (every 20 ms for 15 s, whatever each takes) so
# both runs last as long: the count is of intervals in the run's length.
# The workload's own sync at the end commits its last transaction, so the
# recorder's syncfs finds none to commit (its kick's stack can be lost)
TRICKLE="python3 -c 'import os, time
t0 = time.monotonic()
for i in range(750):
    open(\"@M@/d/f%d\" % i, \"w\").close()
    time.sleep(max(0, t0 + (i + 1) * 0.02 - time.monotonic()))' && sync"
MK="-b 4096 -E lazy_itable_init=0,lazy_journal_init=0"
if wi_run cA "$MK" commit=5 "$TRICKLE" 128 && wi_run cB "$MK" commit=1 "$TRICKLE" 128; then
	"$FSLENS" replay --json --set commit=1 "$T_TMP/cA.trace" >"$T_TMP/cA.w.json" 2>&1
	check_eq commit-predict-exit $? 0
	"$FSLENS" replay --json "$T_TMP/cB.trace" >"$T_TMP/cB.json" 2>&1
	real=$(( $(cat "$T_TMP/cB.jbd2") - $(jget "$T_TMP/cB.json" journal.commits_by_others) ))
	check_ge commit-real-commits "$real" 12
	within commit-commits "$(jget "$T_TMP/cA.w.json" whatif.predicted.commits)" "$real" 10
	# and the model with the recorded settings, on each run's own trace
	within commit-baseline-A "$(jget "$T_TMP/cA.w.json" whatif.baseline.commits)" \
		"$(jget "$T_TMP/cA.w.json" whatif.recorded.commits)" 10
	within commit-baseline-B "$(jget "$T_TMP/cB.json" journal.commits_predicted)" "$real" 10
fi
exit $T_FAILS
