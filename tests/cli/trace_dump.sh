#!/bin/bash
# fslens dump on traces written by build/tests/fsl_mktrace (values known by construction,
# see tests/helpers/fsl_mktrace.c known()).
. "$(dirname "$0")/../lib.sh"
MK=${BUILD:-build}/tests/fsl_mktrace
K=$T_TMP/known.trace
"$MK" "$K" known || { fail mktrace "fsl_mktrace failed"; exit 1; }

"$FSLENS" dump "$K" >"$T_TMP/out" 2>"$T_TMP/err"
check_eq exit $? 0
check_eq lines "$(wc -l <"$T_TMP/out")" 10
check_eq no_stderr "$(cat "$T_TMP/err")" ""
# time order, relative to record.start_ns (1.000000000 s)
check_eq times "$(awk '{ printf "%s ", $1 }' "$T_TMP/out")" \
	"0.000000 0.000050 0.000100 0.000200 0.000300 0.000310 0.000400 0.000500 0.000590 0.000600 "
check_eq names "$(awk '{ printf "%s ", $5 }' "$T_TMP/out")" \
	"proc ext4_journal_start_sb dirop offcpu block_rq_insert block_rq_issue jbd2_start_commit block_rq_complete jbd2_end_commit jbd2_run_stats "
check_grep dirop_line '^0\.000100 +0 +100/100 +mkdir +dirop mkdir "/mnt/scratch/d1" ret=0 lat_ns=5000 ' "$T_TMP/out"
check_grep block_line '^0\.000300 +1 +100/100 +mkdir +block_rq_insert 7,0 WS 2048 \+ 8 rq=0xffff888100001000$' "$T_TMP/out"
check_grep offcpu_stack 'offcpu dur_ns=350000 stack_id=1 waker_pid=300 state=2 wake_dev=0,0 runq_ns=0 stack=io_schedule\+0x12<-bit_wait_io\+0x9<-jbd2_log_wait_commit\+0xa1$' "$T_TMP/out"
check_grep caller 'ext4_journal_start_sb dev=7,0 .* caller=ext4_mkdir\+0x1a3$' "$T_TMP/out"
check_grep proc_line '^0\.000000 +1 +100/100 +mkdir +proc seen ppid=1 kind=0 flags=0 exit_code=0$' "$T_TMP/out"
check_grep run_stats 'jbd2_run_stats dev=7,0 transaction=42 wait=0 request_delay=0 running=1250 locked=1 flushing=0 logging=3 handle_count=7 blocks=12 blocks_logged=14$' "$T_TMP/out"

# JSON: every line parses, keys and values as the tracepoints name them
"$FSLENS" dump --json "$K" >"$T_TMP/out.json"
check_eq json_exit $? 0
got=$(python3 - "$T_TMP/out.json" <<'PY' 2>&1
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
by = {e["type"]: e for e in ev}
c = by["block_rq_complete"]
d = by["dirop"]
o = by["offcpu"]
r = by["jbd2_run_stats"]
print(len(ev), c["ts_ns"], c["dev"], c["sector"], c["nr_sector"], c["rwbs"], c["rq"],
      d["op"], d["path"], d["ret"], d["lat_ns"], d["comm"], d["mode"],
      o["dur_ns"], o["stack_id"], "|".join(o["stack"]),
      r["transaction"], r["tid"], r["running"], r["handle_count"],
      by["ext4_journal_start_sb"]["caller"], by["proc"]["comm"], by["proc"]["kind_name"], "comm" in c)
PY
)
check_eq json_values "$got" "10 1000500000 7,0 2048 8 WS 0xffff888100001000 mkdir /mnt/scratch/d1 0 5000 mkdir 0755 350000 1 io_schedule+0x12|bit_wait_io+0x9|jbd2_log_wait_commit+0xa1 42 300 1250 7 ext4_mkdir+0x1a3 mkdir seen False"

# -e filters families (proc events still name the tasks)
"$FSLENS" dump -e block,dirops "$K" >"$T_TMP/f"
check_eq filter_lines "$(wc -l <"$T_TMP/f")" 4
check_eq filter_comm "$(awk '$5 == "block_rq_issue" { print $4 }' "$T_TMP/f")" mkdir
"$FSLENS" dump -e nosuch "$K" >/dev/null 2>"$T_TMP/err"
check_eq bad_family_exit $? 2
check_grep bad_family_msg "unknown event family 'nosuch'" "$T_TMP/err"
"$FSLENS" dump -e 2>/dev/null
check_eq e_noarg_exit $? 2
"$FSLENS" dump --frobnicate "$K" >/dev/null 2>"$T_TMP/err"
check_eq badopt_exit $? 2
check_grep badopt_msg "^fslens dump: unknown option '--frobnicate' \(see 'fslens dump --help'\)$" "$T_TMP/err"
"$FSLENS" dump 2>/dev/null
check_eq nofile_exit $? 2
"$FSLENS" dump "$T_TMP/nope.trace" 2>"$T_TMP/err"
check_eq missing_exit $? 1
check_grep missing_msg "^fslens: cannot open '.*nope.trace': No such file or directory$" "$T_TMP/err"

# a large trace into a closed pipe: ends at once and quietly, as git does (SIGPIPE, 141)
M=$T_TMP/mix.trace
"$MK" "$M" mix 300000 10000
n=$("$FSLENS" dump "$M" | wc -l)
check_eq mix_lines "$n" 300000
"$FSLENS" dump "$M" 2>"$T_TMP/err" | head -1 >/dev/null
st=("${PIPESTATUS[@]}")
check_eq pipe_exit "${st[0]}" 141
check_eq pipe_quiet "$(cat "$T_TMP/err")" ""
"$FSLENS" dump --json "$M" 2>"$T_TMP/err" | head -1 >/dev/null
st=("${PIPESTATUS[@]}")
check_eq pipe_json_exit "${st[0]}" 141
check_eq pipe_json_quiet "$(cat "$T_TMP/err")" ""
"$FSLENS" dump "$M" >/dev/full 2>"$T_TMP/err"
check_eq full_exit $? 1
check_grep full_msg "write error" "$T_TMP/err"

# one flipped byte in the middle of the file: one chunk of 10000 lost, reported with its offset
python3 - "$M" "$T_TMP/flip.trace" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[len(d) // 2] ^= 0x55
open(sys.argv[2], "wb").write(d)
PY
n=$("$FSLENS" dump "$T_TMP/flip.trace" 2>"$T_TMP/err" | wc -l)
check_eq flip_exit "${PIPESTATUS[0]}" 0
check_eq flip_events "$n" 290000
check_eq flip_one_warning "$(wc -l <"$T_TMP/err")" 1
check_grep flip_offset '^fslens: warning: chunk at offset [0-9]+: .*; 10000 events skipped$' "$T_TMP/err"
"$FSLENS" info --check "$T_TMP/flip.trace" >"$T_TMP/flip.info" 2>&1
check_eq flip_info_exit $? 1
check_grep flip_info_bad '^bad chunks: +1 \(skipped\)$' "$T_TMP/flip.info"
# the count that decodes, not the header's
check_grep flip_info_decoded '^events: +290000, lost 0$' "$T_TMP/flip.info"
check_grep flip_info_check '^check: +DAMAGED: 290000 of 300000 events decode, 1 damaged chunks' "$T_TMP/flip.info"
"$FSLENS" info --check "$M" >"$T_TMP/ok.info" 2>&1
check_eq check_ok_exit $? 0
check_grep check_ok '^check: +ok, all 300000 events of 30 chunks decode$' "$T_TMP/ok.info"
check_grep flip_info_warning '^warning: +chunk at offset [0-9]+: ' "$T_TMP/flip.info"

# a cut trace: complete chunks dumped, one warning on stderr, exit 0
full=$(stat -c %s "$M")
head -c $((full / 2)) "$M" >"$T_TMP/cut.trace"
n=$("$FSLENS" dump "$T_TMP/cut.trace" 2>"$T_TMP/err" | wc -l)
# chunks of 10000 events: only whole chunks come back, about half of them
check_eq cut_whole_chunks "$((n % 10000))" 0
check_ge cut_events "$n" 100000
check_le cut_events_max "$n" 200000
check_eq cut_warnings "$(grep -c 'warning: trace is cut short' "$T_TMP/err")" 1
exit 0
