#!/bin/bash
# fslens replay keeps bounded memory (issue 19 item 10): the journal inputs
# spill to a temporary file past a window, the recorded commits are summed
# from a ring. The output must not depend on either: a tiny window
# (FSLENS_REPLAY_JIN_WINDOW) gives the same text and JSON as the default, on
# a trace with more commits than the ring holds.
. "$(dirname "$0")/../lib.sh"
MK=$T_BUILD/tests/fsl_mktrace
M=$T_TMP/mix.trace
"$MK" "$M" mix 200000 >/dev/null || { fail mktrace "fsl_mktrace failed"; exit 1; }

"$FSLENS" replay --json "$M" >"$T_TMP/d.json" 2>"$T_TMP/d.err"
check_eq default-exit $? 0
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["journal"]["commits_recorded"])' \
	"$T_TMP/d.json")
check_eq more-commits-than-ring "$([ "${n:-0}" -gt 32 ] && echo yes || echo "no ($n)")" yes
for w in 1 7 4096; do
	for j in "" --json; do
		# shellcheck disable=SC2086
		"$FSLENS" replay $j "$M" >"$T_TMP/a" 2>"$T_TMP/a.err"
		# shellcheck disable=SC2086
		FSLENS_REPLAY_JIN_WINDOW=$w "$FSLENS" replay $j "$M" >"$T_TMP/b" 2>"$T_TMP/b.err"
		check_eq "window-$w${j:+-json}-same" "$(cmp -s "$T_TMP/a" "$T_TMP/b" &&
			cmp -s "$T_TMP/a.err" "$T_TMP/b.err" && echo same)" same
	done
done
