#!/bin/bash
# replay on a valid trace whose one request kept the device busy 9e18 ns
# (issue 19, item 1): the journal model's per-block checkpoint cost came from
# a double that overflowed uint64_t (UBSan float-cast-overflow, which the
# robust-asan suite's build reports). Replay ends 0 and says what it read.
. "$(dirname "$0")/../lib.sh"
H=$PWD/${BUILD:-build}/tests/fsl_hostile
cd "$T_TMP" || exit 1

"$H" long.trace longio || { fail mktrace "fsl_hostile failed"; exit 1; }
for mode in text json; do
	opt=; [ $mode = json ] && opt=--json
	"$FSLENS" replay $opt long.trace >out.$mode 2>err
	check_eq "$mode.rc" $? 0
	check_eq "$mode.no_sanitizer" "$(grep -cE 'runtime error|Sanitizer' err)" 0
done
# the device's busy time as recorded: 9e18 ns = 9e12 ms
check_eq busy_ms "$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["device"]["busy_ms_recorded"]))' out.json 2>&1)" \
	9000000000000
# the what-if runs cost the journal with that device too
"$FSLENS" replay --set journal_size=1M long.trace >/dev/null 2>err
check_eq whatif.rc $? 0
check_eq whatif.no_sanitizer "$(grep -cE 'runtime error|Sanitizer' err)" 0
exit 0
