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

# Directory-read waits and dirty-limit pauses across edges (fsl_mktrace edges:
# the values below are its construction): a directory's lookup wait and a
# process's pause time are split by overlap, a pause counts where it ends.
MK=$T_BUILD/tests/fsl_mktrace
E=$T_TMP/edges.trace
"$MK" "$E" edges || { fail mktrace "fsl_mktrace failed"; exit 1; }
python3 "$TOP/tests/helpers/top_windows.py" "$FSLENS" "$E" 0.5 tui/top_window:edges-0.5 "$T_TMP"
got=
for k in 0 1 2 3 4 5 6 7; do
	got+=$("$FSLENS" report --json --from "$(awk "BEGIN { print $k * 0.5 }")" \
		--to "$(awk "BEGIN { print ($k + 1) * 0.5 }")" "$E" 2>&1 | python3 -c '
import json, sys
r = json.load(sys.stdin)
d = {x["path"]: x["lookup_wait_us"] / 1000 for x in r["ops"]["dirs"]}
t = r["writeback"]["throttle"]
p = [x["throttle_ns"] // 1000000 for x in r["processes"] if x["pid"] == 101]
print("%g/%g/%d/%g/%s" % (d.get("/mnt/e/big", 0), d.get("/mnt/e/small", 0), t["pauses"],
                          t["seconds"] * 1000, p[0] if p else 0), end=" ")')
done
check_eq edges-report-windows "$got" \
	"300/0/0/0/0 300/0/0/0/0 0/0/0/200/200 50/0/0/500/500 40/0/1/100/100 0/100/0/0/0 0/0/0/10/10 0/0/1/10/10 "
# top's directories view: /mnt/e/big at 300 ms in 0.5 s, before its call ends
out=$("$FSLENS" top --replay "$E" -b -w 120 -i 0.5 -n 1 --view dirs)
check_grep edges-top-dirs-first-window '^ +0\.0 +600\.0 +0\.0 +/mnt/e/big$' <(echo "$out")
exit 0
