#!/bin/bash
# The one window rule: every 0.5 s frame of `fslens top --replay` on the
# golden trace, in every view, equals `fslens report --json --from --to` of
# the same window, and no thread is blocked more than 1000 ms/s (a wait
# crossing a window edge is split by overlap, docs/report-json.md).
. tests/lib.sh
python3 "$TOP/tests/helpers/top_windows.py" "$FSLENS" "$TOP/tests/data/golden.trace" 0.5 \
	tui/top_window:golden-0.5 "$T_TMP"
# A wait that crosses a window edge: mkdir's 600 ms blocked from 1.2 s.
out=$("$FSLENS" top --replay "$TOP/tests/data/golden.trace" -b -w 120 -i 0.5 --view processes)
check_eq mkdir-never-above-1000 "$(echo "$out" | awk '$2 == "mkdir" && ($3 > 1000 || $6 > 1000)' | wc -l)" 0
exit 0
