#!/bin/bash
# fslens compare in-process: each trace read once, no child process, and each
# cell's top causes equal `fslens report --json --from --to` of the phase.
. "$(dirname "$0")/../lib.sh"
G=tests/data/golden.trace
PY=$(python3 -c 'import sys; print(sys.executable)')

# four copies of the golden trace (starts at 1.0 s), three phases each, the
# bounds differing per copy so the cells differ
for i in 1 2 3 4; do
	cp "$G" "$T_TMP/g$i.trace"
	b=$((i * 100000000))
	{
		echo "# fslens phases 1"
		echo "scenario golden"
		echo "scale small"
		echo "param copy=$i"
		echo "phase 1 first $((1000000000 + b)) $((2500000000 + b)) 10 0"
		echo "phase 1 middle $((2500000000 + b)) $((5000000000 + b)) 20 0"
		echo "phase 1 last $((5000000000 + b)) 8700000001 30 4096"
	} >"$T_TMP/g$i.phases"
done
TR="$T_TMP/g1.trace $T_TMP/g2.trace $T_TMP/g3.trace $T_TMP/g4.trace"
read -r events chunks < <("$FSLENS" info --json "$G" |
	"$PY" -c 'import json, sys; d = json.load(sys.stdin); print(d["events"], d["chunks"])')

# one pass per trace feeding its 3 windows: the readers' own counts (lib/
# trace_reader.c) say every chunk and event of each trace was decoded once,
# and the count over every reader of the process says nothing else read one
FSLENS_STATS=1 "$FSLENS" compare --json $TR >"$T_TMP/c.json" 2>"$T_TMP/stats"
check_eq stats_exit $? 0
for i in 1 2 3 4; do
	check_grep "stats_g$i" "^fslens compare: stats: $T_TMP/g$i.trace: windows 3 chunks $chunks events $events\$" "$T_TMP/stats"
done
check_grep stats_total "^fslens compare: stats: decoded by every reader: chunks $((4 * chunks)) events $((4 * events))\$" "$T_TMP/stats"
check_eq stats_lines "$(grep -c 'stats:' "$T_TMP/stats")" 5

# no child process: one execve, fslens itself
if [ -n "${FSLENS_ASAN:-}" ]; then
	skip strace "LeakSanitizer does not run under ptrace (the ASan suites)"
	"$FSLENS" compare $TR >"$T_TMP/c.txt" 2>&1
elif command -v strace >/dev/null; then
	strace -f -qq -e trace=execve -o "$T_TMP/strace" "$FSLENS" compare $TR >"$T_TMP/c.txt" 2>&1
	check_eq strace_exit $? 0
	check_eq one_execve "$(grep -c 'execve(' "$T_TMP/strace")" 1
else
	skip strace "strace not installed"
fi

# every cell's causes and shares equal report's on the phase window
bad=$("$PY" - "$FSLENS" "$T_TMP" <<'PYEOF'
import json, subprocess, sys
fslens, tmp = sys.argv[1], sys.argv[2]
c = json.load(open(tmp + "/c.json"))
out = []
for col, colj in enumerate(c["columns"]):
    i = col + 1
    phases = [l.split() for l in open("%s/g%d.phases" % (tmp, i)) if l.startswith("phase ")]
    for r, row in enumerate(c["rows"]):
        p = [x for x in phases if x[2] == row["phase"]][0]
        fr = (int(p[3]) - 1000000000) / 1e9
        to = (int(p[4]) - 1000000000) / 1e9
        rep = json.loads(subprocess.run([fslens, "report", "--json", "--section", "diagnosis",
                                         "--from", "%.9f" % fr, "--to", "%.9f" % to,
                                         colj["trace"]], capture_output=True, text=True).stdout)
        want = [(x["class"], x["share"]) for x in rep["causes"]][:4]
        cell = row["cells"][col]
        got = [(x["class"], x["share"]) for x in cell["causes"]]
        top = (want[0][0], want[0][1]) if want else ("none", None)
        if got != want or (cell["top_cause"], cell["share"]) != top:
            out.append("%s/%s: compare %s, report %s" % (colj["label"], row["phase"], got, want))
print("; ".join(out) if out else "ok")
PYEOF
)
check_eq causes_equal_report "$bad" "ok"
# the cells are not all alike (the check above compares something)
check_cmd causes_present grep -q '"class": "journal_log_space"' "$T_TMP/c.json"

# text and JSON agree on the top cause of a cell with one (row "middle", first column)
top=$("$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); c = d["rows"][1]["cells"][0]; print("%s %.1f%%" % (c["top_cause"], c["share"] * 100))' "$T_TMP/c.json")
# ... and both equal report's top cause on that window (g1 middle: 1.6 .. 4.1 s after start)
want=$("$FSLENS" report --json --section diagnosis --from 1.6 --to 4.1 "$T_TMP/g1.trace" | "$PY" -c 'import json, sys; c = json.load(sys.stdin)["causes"][0]; print("%s %.1f%%" % (c["class"], c["share"] * 100))')
check_eq json_cause "$top" "$want"
check_grep text_cause "^ +\| $top" "$T_TMP/c.txt"

# errors: one line, what and where
"$FSLENS" compare "$T_TMP/missing.trace" 2>"$T_TMP/err"
check_eq missing_exit $? 1
check_grep missing_msg "^fslens: cannot open '.*missing.trace': No such file or directory$" "$T_TMP/err"
"$FSLENS" compare 2>"$T_TMP/err"
check_eq none_exit $? 2
check_grep none_msg "^fslens compare: no trace given$" "$T_TMP/err"
# a failed write: exit 1, said once
"$FSLENS" compare --json $TR >/dev/full 2>"$T_TMP/err"
check_eq full_exit $? 1
check_eq full_msg "$(cat "$T_TMP/err")" "fslens: write error on standard output: No space left on device"

# labels are never cut: long parameters wrap over header lines (at spaces and
# commas), and each column's lines put together give its whole label
for i in 1 2; do
	cp "$G" "$T_TMP/l$i.trace"
	{
		echo "# fslens phases 1"
		echo "scenario golden"
		echo "scale small"
		echo "param blocksize=1024"
		echo "param journal=1M"
		echo "param atime=$([ $i = 1 ] && echo strictatime || echo noatime)"
		echo "param mount_opts=data=ordered,commit=5,journal_async_commit_x$i"
		echo "phase 1 first 1000000000 8700000001 10 0"
	} >"$T_TMP/l$i.phases"
done
"$FSLENS" compare "$T_TMP/l1.trace" "$T_TMP/l2.trace" >"$T_TMP/l.txt"
check_eq labels_exit $? 0
"$FSLENS" compare --json "$T_TMP/l1.trace" "$T_TMP/l2.trace" >"$T_TMP/l.json"
got=$("$PY" - "$T_TMP" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
labels = [c["label"] for c in json.load(open(tmp + "/l.json"))["columns"]]
head = []
for l in open(tmp + "/l.txt"):
    if l.startswith("-"):
        break
    head.append([x.strip() for x in l.rstrip("\n").split("|")[1:]])
out = []
for i, want in enumerate(labels):
    parts = [h[i] for h in head if h[i]]
    # a wrap at a space drops the space; one after a comma keeps the comma
    got = " ".join(parts).replace(", ", ",")
    if got != want or max(len(p) for p in parts) > 30:
        out.append("column %d: header %r, label %r" % (i, parts, want))
print("; ".join(out) if out else "ok %d" % len(head))
PYEOF
)
check_eq labels_whole "$got" "ok 4"
check_grep labels_differ "^phase +\| atime=strictatime +\| atime=noatime" "$T_TMP/l.txt"

# a trace without a phase file: one phase "all", the whole trace, with the ops
# report counts (path and data operations), never "0 ops/s"; its read and
# write seeks are report's for the whole trace
cp "$G" "$T_TMP/nophase.trace"
"$FSLENS" compare "$T_TMP/nophase.trace" >"$T_TMP/np.txt"
check_eq nophase_exit $? 0
"$FSLENS" compare --json "$T_TMP/nophase.trace" >"$T_TMP/np.json"
"$FSLENS" report --json "$T_TMP/nophase.trace" >"$T_TMP/np.rep.json"
read -r np_whole np_ops np_rep np_seeks np_rep_seeks < <("$PY" - "$T_TMP" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
cell = json.load(open(tmp + "/np.json"))["rows"][0]["cells"][0]
rep = json.load(open(tmp + "/np.rep.json"))
dev = [d for d in rep["blockio"] if d["dev"] == rep["trace"].get("dev", d["dev"])][0]
sk = lambda o: "%d/%d/%g" % (o["dispatches"], o["seeks"], o["seek_mean_sectors"])
print(cell["whole_trace"], cell["ops"], rep["ops"]["total"] + rep["data"]["total"],
      sk(cell["read_seeks"]) + "," + sk(cell["write_seeks"]),
      sk(dev["read_seeks"]) + "," + sk(dev["write_seeks"]))
PYEOF
)
check_eq nophase_whole "$np_whole" True
check_eq nophase_ops "$np_ops" "$np_rep"
check_ge nophase_ops_some "$np_ops" 1
check_grep nophase_text "^all +\| +[0-9.]+ s +$np_ops ops [0-9.]+/s" "$T_TMP/np.txt"
check_cmd nophase_no_zero_rate bash -c "! grep -q ' 0 ops/s' '$T_TMP/np.txt'"
check_grep nophase_legend "^all: a trace without a phase file is one phase, the whole trace" "$T_TMP/np.txt"
check_eq nophase_seeks "$np_seeks" "$np_rep_seeks"

# a trace against itself: every phase says there is no difference, none moved
"$FSLENS" compare "$T_TMP/g1.trace" "$T_TMP/g1.trace" >"$T_TMP/self.txt" 2>&1
check_eq self_exit $? 0
check_eq self_no_difference "$(grep -c '^[a-z]*: no difference between g1.trace run 1 (#2) and g1.trace run 1 (#1)\.$' "$T_TMP/self.txt")" 3
check_cmd self_nothing_moved bash -c "! grep -q 'mechanisms that moved' '$T_TMP/self.txt'"
"$FSLENS" compare --json "$T_TMP/g1.trace" "$T_TMP/g1.trace" >"$T_TMP/self.json"
check_eq self_json "$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))["differences"]
print(len(d), all(x["same"] and x["delta_s"] == 0 and not x["mechanisms"] and x["slower"] is None
                  for x in d))' "$T_TMP/self.json")" "3 True"
# two copies with different phase bounds: each phase has its sentence and parts
"$FSLENS" compare --json "$T_TMP/g1.trace" "$T_TMP/g2.trace" >"$T_TMP/two.json"
check_eq two_sentences "$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))["differences"]
print(len(d), all(x["sentence"].startswith(x["phase"] + ": ") for x in d))' "$T_TMP/two.json")" "3 True"
