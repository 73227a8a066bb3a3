#!/bin/bash
# The block size what-if checked against real runs: 3,000 long names, 400
# short and 50 subdirectories created with 1 KiB blocks (A); `replay --set
# blocksize=4096` predicts the directory blocks with 4 KiB blocks (B), run
# for real with the same directory hash seed (the htree's splits follow the
# hashes: another seed is another filesystem). Directory blocks within 10%
# of the real directories' sizes (find + stat, d's own included), and of A's
# own for the model with the recorded settings; the journal and the layout
# are refused for another block size (the recorded handles and requests
# are of blocks of the recorded size).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
. "$(dirname "$0")/../helpers/whatif.sh"
WI_FAMILIES=alloc,journal,dirops,proc

DIRS='cd @M@/d && mkdir a b c && (cd a && seq -f "file-with-a-long-name-%g" 1 3000 | xargs touch) &&
	(cd b && seq 1 400 | xargs touch) && (cd c && seq -f "%06g" 1 50 | xargs mkdir) && sync'
# dir_blocks IMG: blocks of every directory under /d (d's own included)
dir_blocks() {
	local m=$T_TMP/ro.mnt
	mkdir -p "$m" && mount -o loop,ro "$1" "$m" || return 1
	find "$m/d" -type d -exec stat -c %s {} + | awk -v bs="$(stat -fc %S "$m")" '{s += $1 / bs} END {print s}'
	umount "$m"
}
SEED=$(cat /proc/sys/kernel/random/uuid)
if wi_run bA "-b 1024 -E hash_seed=$SEED,lazy_itable_init=0,lazy_journal_init=0" "" "$DIRS" &&
   wi_run bB "-b 4096 -E hash_seed=$SEED,lazy_itable_init=0,lazy_journal_init=0" "" "$DIRS"; then
	"$FSLENS" replay --json --set blocksize=4096 "$T_TMP/bA.trace" >"$T_TMP/bA.w.json" 2>&1
	check_eq blocksize-predict-exit $? 0
	within blocksize-dir-blocks-baseline "$(jget "$T_TMP/bA.w.json" whatif.baseline.dir_blocks)" \
		"$(dir_blocks "$T_TMP/bA.img")" 10
	within blocksize-dir-blocks "$(jget "$T_TMP/bA.w.json" whatif.predicted.dir_blocks)" \
		"$(dir_blocks "$T_TMP/bB.img")" 10
	check_grep blocksize-journal-refused 'block size' \
		<(jget "$T_TMP/bA.w.json" whatif.not_modelled.journal)
	check_grep blocksize-layout-refused 'block size' \
		<(jget "$T_TMP/bA.w.json" whatif.not_modelled.layout)
fi
exit $T_FAILS
