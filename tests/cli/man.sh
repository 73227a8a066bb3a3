#!/bin/bash
# Man pages: one per command beside fslens(1), made by scripts/mkman.py from
# the binary's --help. Each page, rendered by man(1), holds every word of its
# command's --help in order (so nothing was dropped or invented), lists every
# option, and fslens(1) lists every command.
. "$(dirname "$0")/../lib.sh"
M=$T_TMP/man
python3 "$TOP/scripts/mkman.py" "$FSLENS" "$M" 9.9.9 2>"$T_TMP/err"
check_eq mkman-rc $? 0
cmds=$("$FSLENS" --help | sed -nE 's/^  ([a-z]+) .*/\1/p')
# --help lists exactly the commands that have a cli/cmd_NAME.c
check_eq ncommands "$(tr ' ' '\n' <<< "$cmds" | sort | xargs)" \
	"$(ls "$TOP"/cli/cmd_*.c | sed 's/.*cmd_//; s/\.c$//' | sort | xargs)"
render() { LC_ALL=C MANWIDTH=250 man -l "$1" 2>/dev/null | col -b; }
# the words of a text, one a line, without roff's quoting differences
words() { tr -s ' \t\n' '\n\n\n' | sed "/^$/d; s/[‘’]/'/g"; }
for c in $cmds; do
	p=$M/fslens-$c.1
	if [ ! -s "$p" ]; then fail "$c-page" "no $p"; continue; fi
	pass "$c-page"
	render "$p" >"$T_TMP/r"
	check_grep "$c-name" "^NAME" "$T_TMP/r"
	check_grep "$c-name-line" "^ +fslens-$c - " "$T_TMP/r"
	check_grep "$c-version" "fslens 9\.9\.9" "$T_TMP/r"
	# every word of --help, in order, is in the page (a subsequence)
	# ('name:' headings are section titles, NAME, in the page)
	"$FSLENS" $c --help | sed -E 's/^usage: //; s/^([a-z][a-z ]*):( |$)/\U\1\E\2/' |
		words >"$T_TMP/hw"
	words <"$T_TMP/r" >"$T_TMP/rw"
	missing=$(awk 'NR == FNR { h[++n] = $0; next }
		       i < n && $0 == h[i + 1] { i++ }
		       END { if (i < n) print "word " i + 1 " of " n ": \"" h[i + 1] "\"" }' \
		"$T_TMP/hw" "$T_TMP/rw")
	check_eq "$c-help-words-in-order" "$missing" ""
	# each option of --help is an item of the page
	for o in $("$FSLENS" $c --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
		   grep -oE -- '--[a-z-]+$'); do
		grep -qE -- "^ {7}(-[A-Za-z], )?$o( |$)" "$T_TMP/r" || fail "$c-option$o" "not an item"
	done
	pass "$c-options"
	check_grep "$c-in-fslens.1" "fslens-$c\(1\)" <(render "$M/fslens.1")
done
render "$M/fslens.1" >"$T_TMP/r"
check_grep top-name "^ +fslens - find out why a Linux filesystem is slow" "$T_TMP/r"
check_grep top-exit "^EXIT STATUS" "$T_TMP/r"
# roff that man(1) warns about (bad escapes, unknown requests)
warn=$(for p in "$M"/*.1; do LC_ALL=C MANWIDTH=100 man --warnings -l "$p" 2>&1 >/dev/null; done)
check_eq no-roff-warnings "$warn" ""
[ $T_FAILS -eq 0 ]
