#!/bin/bash
# The figures for issue 16's closing note, from the live tests that check
# them (run as root; about 4 minutes): who took the block against debugfs
# icheck per taker kind and the free-run agreement (frag_taker: tar copies,
# 3 nodelalloc copies at once, 4 dd writers; frag_matrix: no flex_bg, the
# copytree matrix), and every what-if's error against its real run
# (whatif*). Prints each test's figure lines, then its pass/fail count.
#   bench/issue16_figures.sh [TEST...]
set -u
cd "$(dirname "$0")/.."
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(frag_taker frag_matrix whatif.sh whatif_journal whatif_commit
				 whatif_dirs whatif_alloc)
for t in "${tests[@]}"; do
	echo "== $t"
	VERBOSE=1 TESTS_FILTER=$t tests/run live 2>&1 |
		sed -n 's/^    | //p; s/^  -- \(.*\)/\1/p'
done
