#!/bin/bash
# fslens demo --matrix: the phase table at the end comes from the compare
# library in the demo's own process (no 'fslens compare' child), and it is
# the table 'fslens compare' prints for the same traces.
. "$TOP/tests/lib.sh"
require_bpf
export TMPDIR=$T_TMP
O=$T_TMP/out

strace_ok=0
command -v strace >/dev/null && strace_ok=1
if [ $strace_ok = 1 ]; then
	strace -f -qq -e trace=execve -o "$T_TMP/strace" \
		"$FSLENS" demo htree --scale small --set n=400 --matrix journal=4M,8M -o "$O" \
		>"$T_TMP/demo.log" 2>&1
else
	"$FSLENS" demo htree --scale small --set n=400 --matrix journal=4M,8M -o "$O" \
		>"$T_TMP/demo.log" 2>&1
fi
check_eq demo-exit $? 0
if [ $strace_ok = 1 ]; then
	# record and report run as children; compare does not
	check_ge record-children "$(grep -c 'execve(.*"record"' "$T_TMP/strace")" 2
	check_eq no-compare-child "$(grep -c 'execve(.*"compare"' "$T_TMP/strace")" 0
else
	skip strace "strace not installed"
fi
# the compare's whole output (the table and what changed), up to the seed's note
sed -n '/^per phase (fslens compare):$/,$p' "$T_TMP/demo.log" | tail -n +2 |
	sed '/^seed [0-9]/,$d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$T_TMP/table"
check_ge table-rows "$(grep -c '^mkdir \|^create \|^stat ' "$T_TMP/table")" 3
"$FSLENS" compare "$O"/htree_journal-4M.trace "$O"/htree_journal-8M.trace >"$T_TMP/compare" 2>&1
check_eq compare-exit $? 0
check_cmd same-table cmp -s "$T_TMP/table" "$T_TMP/compare"
check_grep labels '^phase +\| journal=4M +\| journal=8M' "$T_TMP/table"
check_grep what-changed '^what changed, each configuration against journal=4M' "$T_TMP/table"
check_grep seed-stated '^seed 000 \(ext3 htree create storm' "$T_TMP/demo.log"
