#!/bin/bash
# record --bench-floor (bench/record.sh's floor): the programs attach and
# return at once, and the workload runs as it would. On a scratch ext4, 200
# files created and synced under each mode:
#  - --bench-floor: the 200 files are there, the trace holds no record of
#    any family and nothing is lost;
#  - --bench-floor=syscalls: no dirops record (the system call programs
#    return at once), while the journal's commits are recorded: as many as
#    /proc/fs/jbd2 counted during the run;
#  - no floor: a dirops create record for each of the 200 files.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
B=$T_BUILD
Q=$B/tests/trace_query

scratch_fs 128 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
DEV=$(basename "$SCRATCH_LOOP")
jtx() { sed -n 's/^\([0-9]*\) transactions.*/\1/p' /proc/fs/jbd2/"$DEV"-8/info; }
# events NAME FAMILY: that family's events in NAME.trace
events() { "$Q" "$T_TMP/$1.trace" stats | awk -v f="$2" '$1 == f { sub("events=", "", $2); print $2 }'; }

run() {	# NAME [record options...]
	local name=$1
	shift
	rm -rf "${M:?}/$name"
	mkdir "$M/$name"
	sync
	J0=$(jtx)
	"$FSLENS" record "$@" -m "$M" -o "$T_TMP/$name.trace" -- sh -c "
		for i in \$(seq 1 200); do : > $M/$name/f\$i; done; sync" 2>"$T_TMP/$name.err"
	check_eq "$name-rc" "$?" 0
	J1=$(jtx)
	check_eq "$name-files" "$(ls "$M/$name" | wc -l)" 200
}

run floor --bench-floor
for f in block journal writeback alloc dirops offcpu proc cpu; do
	n=$(events floor $f)
	check_eq "floor-no-$f" "${n:-0}" 0
done
check_eq floor-nothing-lost "$("$Q" "$T_TMP/floor.trace" stats |
	awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^lost=/) { sub("lost=", "", $i); s += $i } }
	     END { print s + 0 }')" 0

run sysfloor --bench-floor=syscalls
check_eq sysfloor-no-dirops "$(events sysfloor dirops)" 0
commits=$("$Q" "$T_TMP/sysfloor.trace" events jbd2_end_commit | wc -l)
check_ge sysfloor-commits-recorded "$commits" 1
check_eq sysfloor-commits-vs-proc "$commits" $((J1 - J0))

run full
# op 1: FSL_OP_CREATE (an open with O_CREAT: the shell's ': >')
creates=$("$Q" "$T_TMP/full.trace" events dirop | grep -c " op=1 .*path=$M/full/f" || true)
check_eq full-creates "$creates" 200
[ $T_FAILS -eq 0 ]
