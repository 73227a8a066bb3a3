# Sourced by tests/live/frag_*.sh (after tests/lib.sh): the checks of one
# recorded run against its unmounted image.
#   frag_check NAME IMG TRACE [MIN_BREAKS]
# - the report's fragcheck lines equal `e2fsck -fn -E fragcheck IMG`;
# - every break's taker against debugfs icheck/testb and dumpe2fs
#   (frag_cmp.py; its figures go to stderr, shown by VERBOSE=1 runs);
# - the free run's end-bitmap agreement, left in $freerun (printed).
FRAG_H=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
freerun=
frag_check() {
	local name=$1 img=$2 trace=$3 min=${4:-2}
	freerun=
	e2fsck -fn -E fragcheck "$img" 2>&1 | grep ': expecting ' >"$T_TMP/$name.e2f"
	dumpe2fs "$img" >"$T_TMP/$name.dfs" 2>/dev/null
	"$FSLENS" report --json-full "$trace" >"$T_TMP/$name.json" 2>"$T_TMP/$name.err" ||
		{ fail "$name-report" "$(cat "$T_TMP/$name.err")"; return 1; }
	python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["layout"]["fragcheck"]))' \
		"$T_TMP/$name.json" >"$T_TMP/$name.ours"
	check_ge "$name-breaks" "$(wc -l <"$T_TMP/$name.e2f")" "$min"
	if diff "$T_TMP/$name.e2f" "$T_TMP/$name.ours" >"$T_TMP/$name.diff"; then
		pass "$name-fragcheck-equal"
	else
		fail "$name-fragcheck-equal" "$(head -c 400 "$T_TMP/$name.diff")"
	fi
	python3 "$FRAG_H/frag_cmp.py" "$img" "$T_TMP/$name.json" "$T_TMP/$name.dfs" \
		>"$T_TMP/$name.cmp" 2>&1
	# the figures, for VERBOSE=1 runs and the closing note
	sed "s/^/$name: /" "$T_TMP/$name.cmp" >&2
	if grep -q '^BAD\|Traceback' "$T_TMP/$name.cmp"; then
		fail "$name-taker-vs-icheck" "$(grep -m3 '^BAD\|Error' "$T_TMP/$name.cmp")"
	else
		pass "$name-taker-vs-icheck"
	fi
	"$FSLENS" replay --json --free-run "$trace" >"$T_TMP/$name.fr.json" 2>"$T_TMP/$name.fr.err"
	freerun=$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["fidelity"]["free_run"]["end_map_agree_pct"])' \
		"$T_TMP/$name.fr.json" 2>/dev/null)
	echo "$name: free-run end bitmap agreement ${freerun:-?}%" >&2
	return 0
}
# freerun_ge NAME MIN: the last case's free-run agreement is at least MIN%
freerun_ge() {
	if python3 -c "import sys; sys.exit(0 if float('$freerun') >= $2 else 1)" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "free-run end bitmap agreement '$freerun'%, want >= $2%"
	fi
}
