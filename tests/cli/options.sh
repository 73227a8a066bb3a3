#!/bin/bash
# Command-line conventions, the same in every command: a bad option is one
# line "fslens CMD: ... (see 'fslens CMD --help')" and exit 2; options may
# come after the trace (GNU permutation); a short letter means one thing in
# every command (-f is --force wherever it exists, -F export's --format,
# monitor's --flight has none); -d takes /dev/NAME, NAME or MAJ:MIN.
. "$(dirname "$0")/../lib.sh"
MK=${BUILD:-build}/tests/fsl_mktrace
K=$T_TMP/known.trace
"$MK" "$K" known || { fail mktrace "fsl_mktrace failed"; exit 1; }
PY=$(python3 -c 'import sys; print(sys.executable)')
export FSLENS
cd "$T_TMP" || exit 1

cmds="record top report replay info dump export import demo compare"
# monitor, where it is built in (it needs libmicrohttpd)
if "$FSLENS" monitor --help >/dev/null 2>&1; then
	cmds+=" monitor"
else
	skip monitor-options "fslens built without libmicrohttpd"
fi
for cmd in $cmds; do
	"$FSLENS" $cmd --bogus x >/dev/null 2>err; rc=$?
	check_eq "$cmd-badopt-rc" $rc 2
	check_eq "$cmd-badopt-lines" "$(wc -l <err)" 1
	check_eq "$cmd-badopt-msg" "$(cat err)" \
		"fslens $cmd: unknown option '--bogus' (see 'fslens $cmd --help')"
	# --help goes to stdout with exit 0, and names the command
	"$FSLENS" $cmd --help >out 2>err; rc=$?
	check_eq "$cmd-help-rc" $rc 0
	check_grep "$cmd-help-usage" "^usage: fslens $cmd" out
done
"$FSLENS" report --json=1 "$K" >/dev/null 2>err
check_eq takes-no-value "$(cat err)" \
	"fslens report: option '--json' takes no value (see 'fslens report --help')"
"$FSLENS" report "$K" --from 2>err
check_eq needs-value "$(cat err)" \
	"fslens report: option '--from' needs a value (see 'fslens report --help')"
"$FSLENS" dump "$K" -e 2>err
check_eq short-needs-value "$(cat err)" \
	"fslens dump: option '-e' needs a value (see 'fslens dump --help')"
"$FSLENS" dump --j "$K" >/dev/null 2>err
check_eq abbrev-ok $? 0
"$FSLENS" report --t 1 "$K" >/dev/null 2>err
check_grep ambiguous "^fslens report: option '--t' is ambiguous \(--to or another\)" err

# options after the trace, as the README writes them: the same output
"$FSLENS" dump -e block "$K" >a; "$FSLENS" dump "$K" -e block >b; rc=$?
check_eq dump-after-rc $rc 0
check_eq dump-after-same "$(md5sum <a)" "$(md5sum <b)"
check_eq dump-after-lines "$(wc -l <b)" 3
"$FSLENS" info --json "$K" >a; "$FSLENS" info "$K" --json >b
check_eq info-after-same "$(md5sum <a)" "$(md5sum <b)"
check_grep info-after-json '^\{' b
"$FSLENS" report --json "$K" >a 2>/dev/null; "$FSLENS" report "$K" --json >b 2>/dev/null
check_eq report-after-same "$(md5sum <a)" "$(md5sum <b)"
"$FSLENS" export "$K" -q -o c1.csv -F csv --table ops; rc=$?
check_eq export-after-rc $rc 0
"$FSLENS" export -F csv --table ops -q -o c2.csv "$K"
check_eq export-after-same "$(md5sum <c1.csv)" "$(md5sum <c2.csv)"

# -f is force, never a format
"$FSLENS" export -f csv --table ops "$K" >/dev/null 2>err
check_eq export-f-rc $? 2
check_grep export-f-msg "^fslens export: unknown option '-f'" err
for cmd in record import demo; do
	check_grep "$cmd-f-is-force" '^ *-f, --force' <("$FSLENS" $cmd --help)
done
check_grep export-F-format '^ *-F, --format' <("$FSLENS" export --help)
check_grep demo-d '^ *-d, --dev DEV' <("$FSLENS" demo --help)

# one meaning per short letter, across every command's --help
"$PY" - $cmds >letters <<'PYEOF'
import subprocess, sys, re, os
seen = {}
for c in sys.argv[1:]:
    h = subprocess.run([os.environ["FSLENS"], c, "--help"], capture_output=True, text=True).stdout
    for letter, name in re.findall(r"^ +-([A-Za-z]), --([a-z][a-z-]*)", h, re.M):
        seen.setdefault(letter, {}).setdefault(name, []).append(c)
bad = ["-%s: %s" % (l, ", ".join("--%s (%s)" % (n, " ".join(cs)) for n, cs in sorted(v.items())))
       for l, v in sorted(seen.items()) if len(v) > 1]
print("; ".join(bad) if bad else "one meaning each (%d letters)" % len(seen))
PYEOF
check_grep short-letters-one-meaning '^one meaning each \([0-9]+ letters\)$' letters
case " $cmds " in *" monitor "*)
	# --flight has no letter: -F is --format
	"$FSLENS" monitor -F 10 >/dev/null 2>err
	check_eq monitor-F-rc $? 2
	check_eq monitor-F-msg "$(cat err)" "fslens monitor: unknown option '-F' (see 'fslens monitor --help')"
	check_grep monitor-flight-long '^      --flight SEC' <("$FSLENS" monitor --help)
	;;
esac

# -d: a name that is no block device is said so, in one line, by every command
for cmd in record top demo; do
	"$FSLENS" $cmd -d nosuchdev0 >/dev/null 2>err; rc=$?
	check_eq "$cmd-baddev-rc" $rc 2
	check_eq "$cmd-baddev-msg" "$(cat err)" "fslens $cmd: -d nosuchdev0: no such block device; give a block device as /dev/NAME, NAME or MAJ:MIN"
done
"$FSLENS" top -d /etc/passwd >/dev/null 2>err
check_grep notblk "^fslens top: -d /etc/passwd: not a block device" err
exit 0
