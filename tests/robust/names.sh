#!/bin/bash
# Names and paths come from the traced machine (a task can call itself
# "\e]0;T\a\e[2J"): no command prints a control byte of them (issue 19, item 11).
. "$(dirname "$0")/../lib.sh"
H=$PWD/${BUILD:-build}/tests/fsl_hostile
cd "$T_TMP" || exit 1
"$H" n.trace names || { fail mktrace "fsl_hostile failed"; exit 1; }

# no C0 byte but newline, no DEL, no C1 (raw 0x80-0x9f is not UTF-8 text either)
clean() {
	python3 - "$1" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
bad = [i for i, c in enumerate(d) if (c < 0x20 and c != 0x0a) or c == 0x7f or 0x80 <= c <= 0x9f]
if bad:
    print("control byte 0x%02x at %d: %r" % (d[bad[0]], bad[0], d[max(0, bad[0] - 20):bad[0] + 20]))
    sys.exit(1)
PY
}
cmds=("dump" "dump --json" "info" "info --json" "report" "report --json" "report --html out.html"
      "export --format folded" "export --format csv --table ops" "export --format csv --table waits"
      "export --format perfetto" "top -b --replay" "replay")
for c in "${cmds[@]}"; do
	n=${c// /_}
	timeout 20 "$FSLENS" $c n.trace >out 2>err </dev/null
	check_eq "$n.rc" $? 0
	msg=$(clean out; clean err)
	if [ -z "$msg" ]; then pass "$n.clean"; else fail "$n.clean" "$msg"; fi
	[ -s out ] || [ "$c" = "report --html out.html" ] || fail "$n.output" "printed nothing"
done
if msg=$(clean out.html); then pass html.clean; else fail html.clean "$msg"; fi

# what they print instead: \xNN where the text has room, '?' in fixed-size names
check_grep dump.comm '100/100 +\\x1b\]0;T\\x07\\x1b\[2J proc seen' <("$FSLENS" dump n.trace)
check_grep dump.path 'dirop open "/mnt/h/new\\x0aline\\x09and\\x7f"' <("$FSLENS" dump n.trace)
check_grep csv.path ',rename,/mnt/h/x\\x9b31m,/mnt/h/y\\x07,' <("$FSLENS" export --format csv --table ops n.trace)
check_grep folded.line '^\\x1b\]0_T\\x07\\x1b\[2J;ext4_mkdir;evil\?\]0;X\?;io_schedule 2000$' \
	<("$FSLENS" export --format folded n.trace)
check_grep report.host '^fslens report n.trace: host\\x1b\[31m, kernel -$' <("$FSLENS" report n.trace)
# (the evidence line keeps the innermost frame and the frames that named the
# class; the frame between is shortened to '...', its escape is checked above)
check_grep report.stack 'stack \(\?\]0;T\?\?\[2J\): io_schedule <- (evil\?\]0;X\?|\.\.\.) <- ext4_mkdir' \
	<("$FSLENS" report n.trace)
check_grep report.nostack '^  \*\*\* 1 waits without a stored stack \(the recording killed first\?\): their cause is unknown \*\*\*$' \
	<("$FSLENS" report n.trace)
check_grep info.host '^machine: +host\\x1b\[31m, kernel \?$' <("$FSLENS" info n.trace)
check_grep top.comm '^ +100 \?\]0;T\?\?\[2J ' <("$FSLENS" top -b --replay n.trace)
# JSON keeps the bytes, escaped as JSON does
got=$("$FSLENS" dump --json n.trace | python3 -c '
import json, sys
for l in sys.stdin:
    d = json.loads(l)
    if d.get("path", "").startswith("/mnt/h/new"):
        print(repr(d["path"]))' 2>&1)
check_eq json.path "$got" "'/mnt/h/new\\nline\\tand\\x7f'"
exit 0
