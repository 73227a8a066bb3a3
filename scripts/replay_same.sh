#!/bin/bash
# scripts/replay_same.sh BEFORE_FSLENS AFTER_FSLENS TRACE...
#
# Runs `fslens replay` of two builds on every TRACE x the what-if sets below,
# text and --json, and compares stdout, stderr and the exit code byte for
# byte. For refactors of analyzer/replay and analyzer/model that must not
# change a result. Exit 0 when every run is identical, 1 otherwise.
set -u
[ $# -ge 3 ] || { echo "usage: $0 BEFORE_FSLENS AFTER_FSLENS TRACE..." >&2; exit 2; }
before=$1 after=$2; shift 2
tmp=$(mktemp -d /tmp/replay-same.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
sets=("" "--free-run" "--set blocksize=4096" "--set blocksize=1024" "--set journal_size=4M"
      "--set journal_size=64M" "--set commit=30" "--set delalloc=0" "--set noatime=1"
      "--set mb_stream_req=4 --set mb_group_prealloc=64" "--disk ssd" "--disk sata-7200"
      "--disk ide-5400 --ialloc xfs-newino"
      "--ialloc ext4 --free-run --set journal_size=64M --set commit=30")
n=0 bad=0
for t in "$@"; do
	for i in "${!sets[@]}"; do
		for j in "" "--json"; do
			for b in before after; do
				bin=$before; [ $b = after ] && bin=$after
				# shellcheck disable=SC2086
				"$bin" replay $j ${sets[$i]} "$t" >"$tmp/$b.out" 2>"$tmp/$b.err"
				echo "rc=$?" >>"$tmp/$b.err"
			done
			n=$((n + 1))
			if ! cmp -s "$tmp/before.out" "$tmp/after.out" ||
			   ! cmp -s "$tmp/before.err" "$tmp/after.err"; then
				bad=$((bad + 1))
				echo "differs: replay $j ${sets[$i]} $t"
			fi
		done
	done
done
echo "$n replay runs, $bad differ"
[ "$bad" -eq 0 ]
