#!/bin/bash
# The ext4 inode-to-data distance (report's layout, JSON
# layout.inode_distance): for every file with data, from the block holding
# its inode (its group's inode table) to its first data block, in sectors.
# Truth: debugfs, per file, `imap` (the inode's block) and `bmap 0` (its
# first data block). Files in several directories (Orlov spreads them over
# the groups) with data written by dd; the count, mean and median equal
# debugfs's, and the block-group mean equals the one computed from them.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v debugfs >/dev/null || { fail tools "debugfs not installed"; exit 1; }

scratch_fs 256 ext4 -b 1024 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
sync
"$FSLENS" record -m "$M" -o "$T_TMP/t.trace" -- sh -c "
	for d in 1 2 3 4 5 6; do
		mkdir $M/d\$d
		for i in \$(seq 1 25); do
			dd if=/dev/zero of=$M/d\$d/f\$i bs=3k count=\$((i % 7 + 1)) status=none
		done
	done
	sync" 2>"$T_TMP/rec.err"
check_eq record_exit $? 0
"$FSLENS" report --json "$T_TMP/t.trace" >"$T_TMP/r.json"
check_eq report_exit $? 0
scratch_umount

# the truth, per file: the inode's block and the first data block (1 KiB blocks: 2 sectors)
find_files() { debugfs -R "ls -l /d$1" "$SCRATCH_LOOP" 2>/dev/null | awk '$NF ~ /^f[0-9]+$/ { print $1 }'; }
: >"$T_TMP/truth"
for d in 1 2 3 4 5 6; do
	for ino in $(find_files $d); do
		ib=$(debugfs -R "imap <$ino>" "$SCRATCH_LOOP" 2>/dev/null | sed -nE 's/.*located at block ([0-9]+).*/\1/p')
		db=$(debugfs -R "bmap <$ino> 0" "$SCRATCH_LOOP" 2>/dev/null | tail -1)
		echo "$ino $ib $db" >>"$T_TMP/truth"
	done
done
check_eq truth_files "$(wc -l <"$T_TMP/truth")" 150
read -r want_n want_mean want_med <<<"$(python3 - "$T_TMP/truth" <<'PY'
import sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
d = sorted(abs(ib - db) * 2 for _, ib, db in rows)
print(len(d), "%.3f" % (sum(d) / len(d)), d[(len(d) - 1) // 2])
PY
)"
read -r got_n got_mean got_med <<<"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["layout"]["inode_distance"]
print(d["files_sectors"], "%.3f" % d["mean_sectors"], d["median_sectors"])' "$T_TMP/r.json")"
echo "# inode-to-data distance: fslens $got_n files mean $got_mean median $got_med; debugfs $want_n $want_mean $want_med" >&2
check_eq files_vs_debugfs "$got_n" "$want_n"
check_eq mean_sectors_vs_debugfs "$got_mean" "$want_mean"
check_eq median_sectors_vs_debugfs "$got_med" "$want_med"
exit 0
