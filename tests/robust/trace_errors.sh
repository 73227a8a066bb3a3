#!/bin/bash
# Every command that reads a trace says what `info` says about a file that is
# not one, is cut, damaged or newer: one line, exit 1 (issue 19, item 12).
. "$(dirname "$0")/../lib.sh"
MK=${BUILD:-build}/tests/fsl_mktrace
M=$T_TMP/mix.trace
"$MK" "$M" mix 20000 || { fail mktrace "fsl_mktrace failed"; exit 1; }
cd "$T_TMP" || exit 1
head -c 100 "$M" >short.trace
: >empty.trace
cp "$M" badhdr.trace
printf '\xff' | dd of=badhdr.trace bs=1 seek=20 conv=notrunc 2>/dev/null
python3 - "$M" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[8] = 7		# format version 7
open("newer.trace", "wb").write(d)
PY
mkdir dir.trace

# file -> the one line every command prints
declare -A want=(
	[/etc/passwd]="not an fslens trace \(bad magic\)"
	[short.trace]="cut short: 100 bytes, too short to be an fslens trace \(its header alone is 128\)"
	[empty.trace]="empty file, too short to be an fslens trace"
	[badhdr.trace]="damaged trace: the header at offset 0 fails its checksum"
	[newer.trace]="written by a newer fslens \(trace format version 7; this fslens reads up to version 1\)"
	[/dev/zero]="not a regular file \(a character device\), so not an fslens trace"
	[dir.trace]="Is a directory"
	[missing.trace]="No such file or directory"
)
cmds=("info" "info --check" "report" "report --json" "dump" "replay" "export --format folded"
      "top -b --replay" "compare")
for f in "${!want[@]}"; do
	for c in "${cmds[@]}"; do
		n="${c// /_}:$(basename "$f")"
		timeout 20 "$FSLENS" $c "$f" >out 2>err </dev/null
		rc=$?
		check_eq "$n.rc" $rc 1
		lines=$(wc -l <err)
		msg=$(head -1 err)
		if [ "$lines" -eq 1 ] && [[ "$msg" =~ ^fslens:\ cannot\ open\ \'.*$(basename "$f")\':\ ${want[$f]}$ ]]; then
			pass "$n.msg"
		else
			fail "$n.msg" "got $lines lines: $(head -c 300 err)"
		fi
		check_eq "$n.stdout" "$(wc -c <out)" 0
	done
done
exit 0
