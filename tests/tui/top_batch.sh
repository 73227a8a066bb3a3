#!/bin/bash
# fslens top -b on a replay: one frame per interval of trace time, the
# rates of each interval, the totals (-a), and the same numbers as
# `fslens report --json` over the same events.
. tests/lib.sh
# The frames are checked with their UTF-8 sparklines: run in a UTF-8 locale
# whatever the caller's (top prints ASCII bars in others, tested elsewhere).
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE

TRACE=$T_TMP/t.trace
"$BUILD/tests/top_trace" "$TRACE" 10 || { fail gen "top_trace failed"; exit 1; }
out=$T_TMP/frames
# The last frame of a batch output.
last_frame() { awk '/^ fslens top/ { f = "" } { f = f $0 "\n" } END { printf "%s", f }' "$1"; }

# Every second of the synthetic trace holds the same work, all of it done
# inside the second, so every 1 s and 2 s window shows the same rates.
"$FSLENS" top --replay "$TRACE" -b -i 1 -w 80 > "$out"; rc=$?
check_eq batch-rc "$rc" 0
check_eq frames-1s "$(grep -c '^ fslens top' "$out")" 10
check_eq frames-1s-ops "$(grep -c 'ops/s 180\.0  creates/s 150\.0  IOPS 30\.0 ' "$out")" 10
check_eq frames-1s-commits "$(grep -c 'commits/s 1\.00  avg commit ms 4\.00' "$out")" 10
check_eq frames-1s-interval "$(grep -c 'interval 1\.0s' "$out")" 10
check_eq frames-1s-elapsed "$(sed -nE 's/.*elapsed ([0-9.]+)s.*/\1/p' "$out" | tr '\n' ' ')" \
	"1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0 "
check_eq frames-end-once "$(grep -c '\[END\]' "$out")" 1
check_grep frames-last-is-end '\[END\]' <(grep '^ fslens top' "$out" | tail -1)
check_eq frames-1s-mkdir "$(grep -cE '^ +1001 mkdir +100 +100 +1\.00 +100 ' "$out")" 10

"$FSLENS" top --replay "$TRACE" -b -i 2 -n 3 -w 80 --view stalls > "$out"
check_eq frames-2s-n3 "$(grep -c '^ fslens top' "$out")" 3
check_eq frames-2s-stalls "$(grep -cE '^journal_log_space +100\.0 +83\.3 +40 ' "$out")" 3
check_eq frames-2s-dirread "$(grep -cE '^dir_block_read +20\.0 +16\.7 +20 ' "$out")" 3
# sparkline: one point per interval so far, same height
check_grep frames-2s-history $'^journal_log_space .* \u2588\u2588\u2588 __jbd2' <(last_frame "$out")

# --speed scales the trace time of an interval: 1 s at x5 is 5 s of trace
"$FSLENS" top --replay "$TRACE" -b -i 1 --speed 5 -w 80 > "$out"
check_eq speed-frames "$(grep -c '^ fslens top' "$out")" 2
check_eq speed-interval "$(grep -c 'interval 5\.0s' "$out")" 2

# -a: totals since the start; -p: the filter starts as that pid
"$FSLENS" top --replay "$TRACE" -b -a -p 1002 -w 80 > "$out"
check_grep totals-title 'elapsed 10\.0s  \[END\]  totals' <(last_frame "$out")
check_grep totals-ops 'ops/s 180\.0' <(last_frame "$out")
check_grep pid-filter-tar '^ +1002 tar ' <(last_frame "$out")
check_eq pid-filter-only-tar "$(last_frame "$out" | grep -cE '^ +[0-9]+ [a-z]')" 1
check_grep pid-filter-shown 'filter 1002' <(last_frame "$out")

# A trace cut short (recorder killed): what is there is shown, the reader's
# warning comes after the frames, on stderr.
head -c $(( $(stat -c %s "$TRACE") / 2 )) "$TRACE" > "$T_TMP/cut.trace"
"$FSLENS" top --replay "$T_TMP/cut.trace" -b -a -w 80 > "$out" 2> "$T_TMP/cut.err"
check_eq cut-rc $? 0
check_grep cut-warning '^fslens top: warning: trace is cut short' "$T_TMP/cut.err"
check_grep cut-frame 'fslens top  /mnt/t \(7:0\)' "$out"

# ---- the same numbers as fslens report --json over the same events ----
# Totals (-a) against the whole trace, and every window against report
# --from --to of the same window: header, processes, stalls, journal,
# devices, dirs (tests/helpers/top_windows.py, shared with top_window.sh).
TW=$TOP/tests/helpers/top_windows.py
python3 "$TW" "$FSLENS" "$TRACE" a tui/top_batch:report-equal-totals "$T_TMP"
python3 "$TW" "$FSLENS" "$TRACE" 1 tui/top_batch:report-equal-1s "$T_TMP"
# a trace whose every second differs, so a window shifted by one would not match
RAMP=$T_TMP/ramp.trace
"$BUILD/tests/top_trace" "$RAMP" 8 1 ramp || fail gen-ramp "top_trace failed"
python3 "$TW" "$FSLENS" "$RAMP" a tui/top_batch:report-equal-ramp-totals "$T_TMP"
python3 "$TW" "$FSLENS" "$RAMP" 2 tui/top_batch:report-equal-ramp-2s "$T_TMP"
exit 0
