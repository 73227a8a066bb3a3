#!/bin/bash
# fslens report on the golden synthetic trace (tests/data/golden.trace, see
# tests/unit/report_golden.h): text, JSON, HTML, sections, windows and errors,
# checked against the numbers computed by hand for that trace.
. "$(dirname "$0")/../lib.sh"
G=$TOP/tests/data/golden.trace
out=$T_TMP/out.txt

"$FSLENS" report "$G" >"$out" 2>"$T_TMP/err"
check_eq text-exit $? 0
check_grep text-first-cause '^  1  journal_log_space +900\.0 ms +90\.0% +3 ' "$out"
check_grep text-second-cause '^  2  txn_locked +100\.0 ms +10\.0% +1 ' "$out"
check_grep text-suggestion-journal-size 'Grow the journal size \(now 1\.0 MiB\)' "$out"
check_grep text-kthread-evidence '^    0\.40 s: jbd2/loop0-8 400\.0 ms$' "$out"
check_grep text-lost '3 lost' "$out"
check_grep text-fragcheck '^    12\(f\): expecting   5008 actual extent phys   5016 log 8 len 8$' "$out"
check_grep text-taker 'block 5008 went to inode 13 at \+6.060 s \(writeback\)' "$out"
check_grep text-jbd2-info '4 transactions \(delta\) vs 4 here; avg commit 4393 us vs 4393 us' "$out"
check_grep text-q2c '^    Q2C +1\.0 ms +2\.0 ms +4\.0 ms +4\.0 ms' "$out"
check_grep text-flush '^    flush Q2C +2\.5 ms +2\.5 ms +2\.5 ms +2\.5 ms$' "$out"
check_grep text-seeks '^    seeks \(D2D\): 3 of 4 dispatches, 0\.3/s; sequential 25\.0%, backward 25\.0%$' "$out"
check_grep text-read-seeks '^    read  seeks: 1 of 1 dispatches, 0\.1/s; mean distance 508\.0 sectors$' "$out"
check_grep text-write-seeks '^    write seeks: 2 of 3 dispatches, 0\.2/s; mean distance 828\.0 sectors$' "$out"
check_eq text-width "$(awk '{ if (length($0) > m) m = length($0) } END { print m <= 100 }' "$out")" 1
check_eq text-no-stderr "$(wc -c <"$T_TMP/err")" 0

# JSON: parse it and check the documented keys with their hand-computed values
"$FSLENS" report --json "$G" >"$T_TMP/r.json"
check_eq json-exit $? 0
got=$(python3 - "$T_TMP/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["causes"]
d = r["blockio"][0]
j = r["journal"]
o = r["ops"]["types"]["mkdir"]
l = r["layout"]
print(r["version"], r["trace"]["lost"]["offcpu"], r["trace"]["lost_total"],
      c[0]["class"], c[0]["seconds"], c[0]["share"], c[1]["class"], c[1]["share"],
      "journal" in c[0]["suggestion"],
      o["count"], o["p99_us"], o["max_us"], abs(o["p50_us"] - 200) <= 200 / 64,
      j["commits"], j["avg_commit_us"], len(j["transactions"]), j["transactions"][2]["trigger"],
      d["dev"], d["completed"], d["read_bytes"], d["write_bytes"], d["q2c_avg_us"],
      d["d2c_avg_us"], d["seeks"], d["seq_pct"],
      l["files"], l["fragmented_files"], len(l["fragcheck"]),
      r["writeback"]["pages_by_reason"]["periodic"], r["writeback"]["throttle"]["pauses"])
PY
)
check_eq json-values "$got" "1 3 3 journal_log_space 0.9 0.9 txn_locked 0.1 True 4 10000 10000 True 4 5000 4 fsync 7:0 5 8192 12288 2025 1750 3 25 3 2 2 24 2"
# block I/O as btt counts it: latencies over the 4 requests with data, the
# cache flush apart, rq 4's second completion counted apart, D2D seeks from
# sector 0 (1000, 0, -508, 1484)
got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["blockio"][0]
print(d["data_requests"], d["flush_requests"], d["flush_d2c_avg_us"], d["flush_q2c_avg_us"],
      d["completions"], d["double_completions"], d["dispatches"], d["backward_pct"],
      d["seek_mean_sectors"], d["seek_median_sectors"], d["seek_mode_sectors"], d["seek_mode_count"])' "$T_TMP/r.json")
check_eq json-blockio-btt "$got" "4 1 2500 2500 6 1 4 25 748 508 0 1"
# reads and writes apart, each distance still from the previous dispatch: the
# read is the -508 one; the writes 1000, 0 and 1484 (mean 2484 / 3)
got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["blockio"][0]
print(*("%d %d %g" % (x["dispatches"], x["seeks"], x["seek_mean_sectors"]) for x in (d["read_seeks"], d["write_seeks"])))' "$T_TMP/r.json")
check_eq json-blockio-rw-seeks "$got" "1 1 508 3 2 828"

# --section picks sections
"$FSLENS" report --section journal,layout "$G" >"$out"
check_grep section-journal '^JOURNAL ' "$out"
check_grep section-layout '^LAYOUT ' "$out"
check_eq section-no-diagnosis "$(grep -c '^DIAGNOSIS' "$out")" 0
"$FSLENS" report --section bogus "$G" >/dev/null 2>"$T_TMP/err"
check_eq section-bad-exit $? 2
check_grep section-bad-msg "unknown section 'bogus'" "$T_TMP/err"

# window: [1.5 s, 2.5 s) after the start: the 600 ms wait from 1.0 s gives its last 100 ms,
# the 200 ms wait from 2.0 s all of it (durations split at window edges); neither commit ends in it
"$FSLENS" report --json --from 1.5 --to 2.5 "$G" >"$T_TMP/w.json"
got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["blocked"]["workload_ns"], r["causes"][0]["class"], len(r["causes"]), r["journal"]["commits"])' "$T_TMP/w.json")
check_eq window "$got" "300000000 journal_log_space 1 0"
# the issue's case: mkdir's 600 ms wait from 1.0 s, split at 1.5 s: 500 ms (no wait ends
# there, the class is still listed and ranked) and 100 ms with the wait counted
for w in "1.0 1.5 500000000 0" "1.5 2.0 100000000 1"; do
	set -- $w
	"$FSLENS" report --json --from "$1" --to "$2" "$G" >"$T_TMP/w.json"
	got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r["blocked"]["classes"]["journal_log_space"]; print(c["workload_ns"], c["waits"], r["causes"][0]["class"])' "$T_TMP/w.json")
	check_eq "window-split-$1-$2" "$got" "$3 $4 journal_log_space"
done

# --all-tasks: bash's 50 ms dir_block_read joins the workload
"$FSLENS" report --json --all-tasks "$G" >"$T_TMP/a.json"
got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["blocked"]["workload_ns"], [c["class"] for c in r["causes"]][-1])' "$T_TMP/a.json")
check_eq all-tasks "$got" "1050000000 dir_block_read"

# HTML: one self-contained file with the four charts
"$FSLENS" report --html "$T_TMP/r.html" "$G" >/dev/null
check_eq html-exit $? 0
check_eq html-svgs "$(grep -c '<svg' "$T_TMP/r.html")" 4
check_eq html-no-script "$(grep -c '<script' "$T_TMP/r.html")" 0
check_eq html-no-network "$(grep -o 'https\?://[^"]*' "$T_TMP/r.html" | grep -vc 'www.w3.org/2000/svg')" 0
check_grep html-diagnosis '<td><b>journal_log_space</b></td>' "$T_TMP/r.html"

# errors say what failed and why
"$FSLENS" report "$T_TMP/nope.trace" >/dev/null 2>"$T_TMP/err"
check_eq missing-exit $? 1
check_grep missing-msg "^fslens: cannot open '$T_TMP/nope.trace': No such file or directory$" "$T_TMP/err"
echo garbage >"$T_TMP/bad.trace"
"$FSLENS" report "$T_TMP/bad.trace" >/dev/null 2>"$T_TMP/err"
check_eq garbage-exit $? 1
check_grep garbage-msg "^fslens: cannot open '$T_TMP/bad.trace'" "$T_TMP/err"
"$FSLENS" report "$G" >/dev/full 2>"$T_TMP/err"
check_eq full-exit $? 1
exit $T_FAILS
