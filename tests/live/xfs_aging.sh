#!/bin/bash
# The seed's aging case on XFS: `fslens demo bonnie --fs xfs --runs 2` makes
# the scratch XFS (with the seed's 8192-block log, or the least mkfs.xfs
# allows), records two bonnie runs on it and prints the compare, whose read
# phases show, run beside run, the read rate, the inode-to-data distance and
# the reads' own seeks. The distance of each read phase must be the mean of
# the per-file distances report gives for the same window (checked against
# xfs_db by tests/live/xfs_layout.sh), and cover the files the phase read.
. "$(dirname "$0")/../lib.sh"
require_bpf
[ -d /sys/kernel/tracing/events/xfs ] || { skip all "this kernel has no XFS tracepoints"; exit 0; }
command -v mkfs.xfs >/dev/null || { skip all "no mkfs.xfs"; exit 0; }

D=$T_TMP/demo
"$FSLENS" demo bonnie --fs xfs --runs 2 --scale small --set n=1000 -o "$D" \
	>"$T_TMP/demo.out" 2>"$T_TMP/demo.err"
check_eq demo_exit $? 0
check_grep mkfs_xfs_small_log '^mkfs.xfs -b size=4096 -l size=8192b' "$T_TMP/demo.out"
# the compare, text: both runs of each read phase have the XFS line
for ph in seq_read rand_read; do
	n=$(awk -v p=$ph '$1 == p { on = 1; next } /^[a-z_]+ / { on = 0 }
		on && /ino ~[0-9.]+[KM]? rs / { print gsub(/ino ~/, "") }' "$T_TMP/demo.out")
	check_eq "compare_${ph}_distance_both_runs" "${n:-0}" 2
done
check_grep compare_explains 'XFS: ino: mean distance in sectors' "$T_TMP/demo.out"

"$FSLENS" compare --json "$D/bonnie.trace" >"$T_TMP/c.json" 2>"$T_TMP/c.err"
check_eq compare_json_exit $? 0
Q=$T_BUILD
start=$("$Q/tests/trace_query" "$D/bonnie.trace" kv record.start_ns)
# each read phase's window, as report --from/--to cuts it
python3 - "$D/bonnie.phases" "$start" >"$T_TMP/windows" <<'PY'
import sys
start = int(sys.argv[2])
for l in open(sys.argv[1]):
    f = l.split()
    if f and f[0] == "phase" and f[2] in ("seq_read", "rand_read"):
        print(f[1], f[2], "%.9f" % ((int(f[3]) - start) / 1e9), "%.9f" % ((int(f[4]) - start) / 1e9))
PY
check_eq read_windows "$(wc -l <"$T_TMP/windows")" 4
while read -r run ph from to; do
	"$FSLENS" report --json-full --section layout --from "$from" --to "$to" "$D/bonnie.trace" \
		>"$T_TMP/w.json" 2>/dev/null
	res=$(python3 - "$T_TMP/w.json" "$T_TMP/c.json" "$run" "$ph" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["xfs_layout"]
c = json.load(open(sys.argv[2]))
run, ph = int(sys.argv[3]), sys.argv[4]
col = [i for i, k in enumerate(c["columns"]) if k["run"] == run][0]
cell = [r for r in c["rows"] if r["phase"] == ph][0]["cells"][col]
touched = [f["distance_sectors"] for f in w["file_list"] if f["touched"]]
mean = sum(touched) // len(touched) if touched else -1
d = cell["xfs_inode_distance"]
ok = d["files"] == len(touched) and abs(d["mean_sectors"] - mean) <= 1
print("ok" if ok and len(touched) >= 900 and cell["read_only_seeks"]["reads"] > 0 else
      "compare %s vs report %d files mean %d" % (d, len(touched), mean))
PY
)
	check_eq "run${run}_${ph}_distance_equals_report" "$res" ok
done <"$T_TMP/windows"
# the compare names the distance when it moved (5% and 8 sectors, its rule
# for a mechanism), with its values, and not when it did not (on 6.18 the
# two runs' distances come out alike: the seed's aging does not reproduce)
res=$(python3 - "$T_TMP/c.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
out = []
for ph in ("seq_read", "rand_read"):
    row = [r for r in c["rows"] if r["phase"] == ph][0]
    a, b = (x["xfs_inode_distance"]["mean_sectors"] for x in row["cells"][:2])
    d = [x for x in c["differences"] if x["phase"] == ph]
    m = {x["name"]: x for x in (d[0]["mechanisms"] if d else [])}.get("inode_data_distance_sectors")
    moved = abs(b - a) >= 8 and abs(b - a) >= 0.05 * max(a, b)
    if moved and not (m and abs(m["base"] - a) <= 1 and abs(m["value"] - b) <= 1):
        out.append("%s: %d -> %d not named (%s)" % (ph, a, b, m))
    if not moved and m:
        out.append("%s: %d -> %d named" % (ph, a, b))
    print("xfs_aging: %s distance %d -> %d sectors, %s" % (ph, a, b, "named" if m else "not named"),
          file=sys.stderr)
print("ok" if not out else "; ".join(out))
PY
)
check_eq compare_names_distance_when_moved "$res" ok
# replay runs the XFS inode placement model on it, not the ext4 ones
"$FSLENS" replay --json "$D/bonnie.trace" >"$T_TMP/rp.json" 2>"$T_TMP/rp.err"
check_eq replay_exit $? 0
if grep -q "no ext4 geometry" "$T_TMP/rp.err" "$T_TMP/rp.json"; then
	fail replay_no_ext4_note "$(cat "$T_TMP/rp.err")"
else
	pass replay_no_ext4_note
fi
creates=$("$FSLENS" dump "$D/bonnie.trace" | awk '$5 == "xfs_create"' | wc -l)
res=$(python3 - "$T_TMP/rp.json" "$creates" <<'PY'
import json, sys
x = json.load(open(sys.argv[1]))["xfs_placement"]
# the model against the kernel's own choices in this run: "most recent
# chunk" (what XFS does) picks the kernel's inode for 92.7-98.5% of the
# creates here (10 runs, alone, before and after stop 28's changes), 88.9%
# once in a CI run. Not investigated; likely a free done by the inodegc
# worker on one CPU microseconds from a create on the other, ordered in the
# trace otherwise than the AGI lock ordered them. It predicts the
# files' mean distance within 2% (1204 vs 1187)
rec = x["recorded_mean_sectors"]
mrc = x["most_recent_chunk"]
ok = (x["creates"] == int(sys.argv[2]) and x["frees"] >= 4000 and x["files"] >= 3900 and
      mrc["exact_pct"] >= 85 and rec > 0 and abs(mrc["mean_sectors"] - rec) <= 0.1 * rec and
      x["front_to_back"]["mean_sectors"] > 0)
print("ok" if ok else json.dumps(x))
PY
)
check_eq replay_xfs_placement "$res" ok
"$FSLENS" replay "$D/bonnie.trace" >"$T_TMP/rp.txt" 2>&1
check_grep replay_text 'inode-to-data distance, mean over [0-9]+ files \(sectors\): recorded [0-9]+; most recent chunk [0-9]+; front of the AG to the back [0-9]+' "$T_TMP/rp.txt"
sed 's/^/xfs_aging: /' "$T_TMP/rp.txt" >&2
# for the record: the two runs side by side
python3 - "$T_TMP/c.json" >&2 <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for r in c["rows"]:
    if r["phase"] in ("seq_read", "rand_read"):
        for k, cell in enumerate(r["cells"]):
            print("xfs_aging: run %d %s %.0f ops/s %.1f MB/s distance %s sectors, read seeks %s/s ~%s"
                  % (k + 1, r["phase"], cell["ops_per_s"], cell["bytes"] / 1e6 / cell["seconds"],
                     cell["xfs_inode_distance"]["mean_sectors"],
                     cell["read_only_seeks"]["seeks_per_s"],
                     cell["read_only_seeks"]["seek_mean_sectors"]))
PY
exit $((T_FAILS > 0))
