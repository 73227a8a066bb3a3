#!/bin/bash
# The flight recorder's capture is the target's and only its: the target
# ext4 A (1 MiB journal) gets N mkdir while another ext4 B (also 1 MiB
# journal, so its tasks stall on its own log space) gets a larger create
# storm under distinctive names (fsl_othxargs -> fsl_othmkdir). A capture
# (POST /trigger) taken after both must report exactly A's N mkdir, no task
# of the storm (neither its calls nor its waits on B's journal) and not B's
# device.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
N=${MONITOR_MKDIRS:-3000}
NB=${MONITOR_OTHER_MKDIRS:-20000}
MPORT=$((25000 + $$ % 5000))

scratch_fs 256 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
A=$SCRATCH_MNT
second_fs b 256 -b 1024 -J size=1 || { fail setup "cannot make fs B"; exit 1; }
BLOOP=$SECOND_LOOP
BDEV=$SECOND_DEV
BNAME=$(basename "$BLOOP")
mkdir "$A/d" "$T_TMP/b/d" "$T_TMP/cap"
cp "$(command -v xargs)" "$T_TMP/fsl_othxargs"
cp "$(command -v mkdir)" "$T_TMP/fsl_othmkdir"
sync

"$FSLENS" monitor -m "$A" --listen 127.0.0.1:$MPORT --interval 1 --flight 60 \
	-o "$T_TMP/cap" 2>"$T_TMP/mon.err" &
MON=$!
at_exit "kill $MON; wait $MON"
wait_metrics $MPORT
(cd "$T_TMP/b/d" && seq 1 "$NB" | "$T_TMP/fsl_othxargs" "$T_TMP/fsl_othmkdir") &
OTH=$!
(cd "$A/d" && seq 1 "$N" | xargs mkdir)
wait $OTH
check_eq other-storm-done "$(ls "$T_TMP/b/d" | wc -l)" "$NB"
check_eq post-trigger "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
	"http://127.0.0.1:$MPORT/trigger")" 202
for _ in $(seq 1 40); do
	ls "$T_TMP"/cap/*.trace >/dev/null 2>&1 && break
	sleep 0.5
done
trace=$(ls "$T_TMP"/cap/*.trace 2>/dev/null | head -1)
rep=${trace%.trace}.report.txt
for _ in $(seq 1 40); do
	grep -q '^TRACE' "$rep" 2>/dev/null && break
	sleep 0.5
done
sleep 1	# the report child finishes writing
check_grep capture-written 'capture \(POST /trigger\)' "$T_TMP/mon.err"
# the workload's own count: N mkdir on A, none of B's NB
"$FSLENS" report --json "$trace" >"$T_TMP/rep.json" 2>"$T_TMP/rep.err"
mk=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ops"]["types"]["mkdir"]["count"])' \
	"$T_TMP/rep.json" 2>/dev/null)
check_eq mkdir-count-is-targets "$mk" "$N"
check_eq no-storm-task "$(grep -c fsl_oth "$rep")" 0
# B's device is named only on the one line that sums other filesystems' waits
# (and its wrapped device list, indented by 4 or more)
check_eq no-other-device "$(awk '/^  other filesystems \(not the target/ { o = 1; next }
	o && /^    / { next } { o = 0; print }' "$rep" |
	grep -cE "(^|[^0-9])$BDEV([^0-9]|$)|$BNAME([^0-9]|$)")" 0
if [ $T_FAILS -gt 0 ]; then
	grep -nE "fsl_oth|$BDEV|$BNAME" "$rep" | head -8 >&2
	sed -n '/^OPERATIONS/,/^$/p' "$rep" | head -12 >&2
fi
# A's own stall is there (its rank can change: waits of no filesystem, such
# as a compiler's vfork wait on a busy machine, are ranked too)
check_grep target-stall-named '^ +[0-9]+  journal_log_space ' "$rep"
kill -TERM $MON
wait $MON
check_eq sigterm-exit "$?" 0
exit $((T_FAILS > 0))
