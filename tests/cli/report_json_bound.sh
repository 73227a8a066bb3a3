#!/bin/bash
# report --json stays bounded whatever the trace: a trace with 300,000 readdir
# streams (a dbench run makes 1.2 million; unbounded that was 808 MB) gives at
# most 10 MiB, the first 1000 streams (most entries first) and the true total;
# --json-full lists every stream, the same ones first.
. "$(dirname "$0")/../lib.sh"
MK=$T_BUILD/tests/fsl_mktrace
N=300000
"$MK" "$T_TMP/rd.trace" readdir $N || { fail mktrace "fsl_mktrace readdir failed"; exit 1; }
"$FSLENS" report --json "$T_TMP/rd.trace" >"$T_TMP/b.json" 2>"$T_TMP/b.err"
check_eq bounded-rc $? 0
"$FSLENS" report --json-full "$T_TMP/rd.trace" >"$T_TMP/f.json" 2>"$T_TMP/f.err"
check_eq full-rc $? 0
check_le bounded-size "$(stat -c %s "$T_TMP/b.json")" $((10 << 20))
python3 - "$T_TMP/b.json" "$T_TMP/f.json" $N <<'PY'
import json, sys
b, f, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
def check(name, ok, why):
    print(("PASS cli/report_json_bound:" + name) if ok else
          ("FAIL cli/report_json_bound:%s: %s" % (name, why)))
rb, rf = b["layout"]["readdir"], f["layout"]["readdir"]
check("bounded-total", rb["streams"] == n, "streams %d, want %d" % (rb["streams"], n))
check("bounded-list", len(rb["dirs"]) == 1000 and rb["dirs_truncated"] is True,
      "%d dirs, truncated %s" % (len(rb["dirs"]), rb["dirs_truncated"]))
check("full-list", len(rf["dirs"]) == n and rf["dirs_truncated"] is False and rf["streams"] == n,
      "%d dirs, truncated %s" % (len(rf["dirs"]), rf["dirs_truncated"]))
check("same-first", rf["dirs"][:1000] == rb["dirs"], "the bounded list is not the full list's head")
check("most-entries-first", rb["dirs"][0]["entries"] == 7 and rb["dirs"][-1]["entries"] == 7,
      "first %d, last %d entries" % (rb["dirs"][0]["entries"], rb["dirs"][-1]["entries"]))
# the whole-trace figures do not depend on the cap
check("totals-equal", {k: v for k, v in rb.items() if k not in ("dirs", "dirs_truncated")} ==
      {k: v for k, v in rf.items() if k not in ("dirs", "dirs_truncated")}, "readdir totals differ")
PY
exit $T_FAILS
