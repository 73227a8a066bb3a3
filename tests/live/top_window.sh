#!/bin/bash
# The one window rule on a real recording: a create storm on a 1 MiB
# journal (1K blocks), replayed by `fslens top -b -i 0.25`. Every frame of
# every view equals `fslens report --json --from --to` of the same window,
# no thread is blocked more than 1000 ms/s, and the whole report against the
# workload itself: 30000 mkdir calls, and the mkdir task's blocked time equal
# to the sum of its recorded off-CPU waits (trace_query, no analysis).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
Q=$T_BUILD
Q=$Q/tests/trace_query

scratch_fs 200 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
mkdir "$M/d"
# the binaries the workload execs, read before (their pages come from the root filesystem)
cat "$(command -v mkdir)" "$(command -v xargs)" "$(command -v seq)" "$(command -v sh)" >/dev/null
sync
"$FSLENS" record -m "$M" -o "$T_TMP/s.trace" -- \
	sh -c "cd $M/d && seq 1 30000 | xargs mkdir" 2>"$T_TMP/rec.err"
check_eq record_exit $? 0
# TOP_WINDOW_KEEP=FILE keeps the recording (to look at a failure without the lock)
[ -n "${TOP_WINDOW_KEEP:-}" ] && cp "$T_TMP/s.trace" "$TOP_WINDOW_KEEP"

python3 "$TOP/tests/helpers/top_windows.py" "$FSLENS" "$T_TMP/s.trace" 0.25 \
	live/top_window:storm-0.25 "$T_TMP"

"$FSLENS" report --json "$T_TMP/s.trace" >"$T_TMP/r.json"
check_eq mkdir_calls "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ops"]["types"]["mkdir"]["count"])' "$T_TMP/r.json")" 30000
# the stalls of the mkdir process (uninterruptible waits) from the raw events
"$Q" "$T_TMP/s.trace" events proc >"$T_TMP/proc"
"$Q" "$T_TMP/s.trace" offcpu >"$T_TMP/off"
pid=$(awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^tid=/) t = substr($i, 5); if ($i ~ /^comm=/) c = substr($i, 6) }
	     if (c == "mkdir") { print t; exit } }' "$T_TMP/proc")
# less the waits a completion of another disk ended (the exec of mkdir
# reading its binary from the root filesystem is not the target's)
disk=$("$Q" "$T_TMP/s.trace" kv target.disk)
raw=$(awk -v p="$pid" -v d="wake=$disk" '$1 == p && ($5 == "wake=0" || $5 == d) { s += $2 } END { printf "%.0f\n", s }' "$T_TMP/off")
got=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print(sum(p["blocked_ns"] for p in r["processes"] if str(p["pid"]) == sys.argv[2]))' "$T_TMP/r.json" "$pid")
check_ge mkdir_blocked_ns "${got:-0}" 1
# every wait of the process at most; at least those no other disk's
# completion ended (a wait woken by another disk can still be the target's:
# a wait for the target's journal thread that a completion interrupted)
all=$(awk -v p="$pid" '$1 == p { s += $2 } END { printf "%.0f\n", s }' "$T_TMP/off")
check_ge mkdir_blocked_at_least_target_waits "$got" "$raw"
check_le mkdir_blocked_at_most_all_waits "$got" "$all"
exit 0
