#!/bin/bash
# fslens info on traces written by build/tests/fsl_mktrace (values known by construction).
. "$(dirname "$0")/../lib.sh"
MK=${BUILD:-build}/tests/fsl_mktrace
K=$T_TMP/known.trace
"$MK" "$K" known || { fail mktrace "fsl_mktrace failed"; exit 1; }

"$FSLENS" info "$K" >"$T_TMP/info" 2>"$T_TMP/err"
check_eq exit $? 0
check_grep machine '^machine: +testhost, kernel 6\.18\.0-test, 2 CPUs, HZ=250$' "$T_TMP/info"
check_grep filesystem '^filesystem: +ext4 on 7:0 mounted at /mnt/scratch$' "$T_TMP/info"
check_grep duration '^duration: +2\.000000 s$' "$T_TMP/info"
check_grep events '^events: +10, lost 3$' "$T_TMP/info"
check_grep block '^  block +3 +3$' "$T_TMP/info"
check_grep journal '^  journal +4 +0$' "$T_TMP/info"
check_grep dirops '^  dirops +1 +0$' "$T_TMP/info"
check_grep offcpu '^  offcpu +1 +0$' "$T_TMP/info"
check_grep proc '^  proc +1 +0$' "$T_TMP/info"
check_grep complete 'format version 1, complete\)' "$T_TMP/info"
check_grep chunks '^chunks: +1$' "$T_TMP/info"
check_grep meta '^metadata: +10 keys, 1 stacks, 1 symbols, 0 bitmaps, 1 texts$' "$T_TMP/info"
# raw = sum of record sizes: proc 184 (cgroup fields), dirop 88, journal_start 64, offcpu 56,
# 3 block_rq 64 each, 2 commits 40 each, run_stats 88
check_grep raw "raw 776 B" "$T_TMP/info"
size=$(stat -c %s "$K")
bpe=$(awk -v s="$size" 'BEGIN { printf "%.2f", s / 10 }')
check_grep bytes_per_event "file $size B, $bpe bytes/event" "$T_TMP/info"
check_eq no_stderr "$(cat "$T_TMP/err")" ""

# JSON: parse it and check values
"$FSLENS" info --json "$K" >"$T_TMP/info.json"
check_eq json_exit $? 0
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["families"]
print(d["events"], d["lost"], f["block"]["events"], f["block"]["lost"], f["journal"]["events"],
      d["duration_ns"], d["hostname"], d["complete"], d["chunks"], d["raw_bytes"],
      d["kv"]["target.mount"], len(d["warnings"]))' "$T_TMP/info.json" 2>&1)
check_eq json_values "$got" "10 3 3 3 4 2000000000 testhost True 1 776 /mnt/scratch 0"

# A cut file: incomplete, one warning, the complete chunks still counted
M=$T_TMP/mix.trace
"$MK" "$M" mix 200000
full=$(stat -c %s "$M")
head -c $((full - 2000)) "$M" >"$T_TMP/cut.trace"
"$FSLENS" info "$T_TMP/cut.trace" >"$T_TMP/cut.info" 2>&1
check_eq cut_exit $? 0
check_grep cut_incomplete 'INCOMPLETE' "$T_TMP/cut.info"
check_eq cut_one_warning "$(grep -c '^warning:' "$T_TMP/cut.info")" 1
check_grep cut_warning 'warning: +trace is cut short' "$T_TMP/cut.info"
"$FSLENS" info "$M" >"$T_TMP/mix.info"
check_grep mix_events '^events: +200000, lost 0$' "$T_TMP/mix.info"
bpe=$(sed -n 's/.*, \([0-9.]*\) bytes\/event$/\1/p' "$T_TMP/mix.info")
check_cmd mix_compact awk -v b="$bpe" 'BEGIN { exit !(b > 0 && b <= 10) }'

# errors
"$FSLENS" info "$T_TMP/missing.trace" 2>"$T_TMP/err"
check_eq missing_exit $? 1
check_grep missing_msg "^fslens: cannot open '.*missing.trace': No such file or directory$" "$T_TMP/err"
echo "not a trace at all, just some text that is long enough to have a header......." \
	"...................................................................." >"$T_TMP/text"
"$FSLENS" info "$T_TMP/text" 2>"$T_TMP/err"
check_eq text_exit $? 1
check_grep text_msg "not an fslens trace" "$T_TMP/err"
: >"$T_TMP/empty"
"$FSLENS" info "$T_TMP/empty" 2>"$T_TMP/err"
check_eq empty_exit $? 1
check_grep empty_msg "too short" "$T_TMP/err"
"$FSLENS" info --bogus "$K" 2>"$T_TMP/err" >/dev/null
check_eq badopt_exit $? 2
check_grep badopt_msg "^fslens info: unknown option '--bogus' \(see 'fslens info --help'\)$" "$T_TMP/err"
"$FSLENS" info 2>/dev/null
check_eq nofile_exit $? 2
"$FSLENS" info "$K" "$K" 2>/dev/null
check_eq twofiles_exit $? 2
"$FSLENS" info --help | grep -q "usage: fslens info"
check_eq help $? 0
"$FSLENS" info "$K" >/dev/full 2>"$T_TMP/err"
check_eq full_exit $? 1
check_grep full_msg "write error" "$T_TMP/err"
exit 0
