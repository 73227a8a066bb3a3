#!/bin/bash
# Block accounting against the kernel, on a short dbench (scratch ext4 on a
# loop device): its journal commits are flushes and FUA writes through the
# flush machinery, its writeback merges bios by the thousand.
#  - completions, merges, sectors and flushes equal the /sys/block/DEV/stat
#    delta the trace stores; zero-byte writes (the end of a preflush
#    sequence) are the kernel's writes too;
#  - every issue paired with its completion or unpaired with a reason, and
#    no completion called "issued before the recording" but the ones that
#    were (none: the recording starts on a synced, idle filesystem);
#  - btt's stages equal btt on the kernel's own blktrace of the same run
#    and btt on fslens's blktrace export (see tests/live/block_fio.sh).
. "$(dirname "$0")/../lib.sh"
require_bpf
. "$(dirname "$0")/../helpers/blk_capture.sh"
blk_require
command -v dbench >/dev/null || { skip all "dbench not installed (scripts/deps.sh)"; exit 0; }
LOADFILE=/usr/share/dbench/client.txt
[ -r $LOADFILE ] || { skip all "no $LOADFILE"; exit 0; }

scratch_fs 400 ext4 -E lazy_itable_init=0,lazy_journal_init=0 ||
	{ fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
LOOP=$(basename "$SCRATCH_LOOP")
cd "$T_TMP" || exit 1
ra=$(cat /sys/block/"$LOOP"/queue/read_ahead_kb)
at_exit "echo $ra > /sys/block/$LOOP/queue/read_ahead_kb"
echo 512 >/sys/block/"$LOOP"/queue/read_ahead_kb

blk_capture_start "$LOOP"
"$FSLENS" record -m "$M" -o d.trace -- dbench -c $LOADFILE -D "$M" -t 6 4 \
	>dbench.out 2>&1
check_eq record.rc "$?" 0
grep -q "Throughput" dbench.out || fail dbench "no throughput line: $(tail -3 dbench.out)"
blk_capture_stop d.trace cap.d
blk_check_all d.trace "$SCRATCH_DEV" cap.d dbench

# the run merges bios and ends flush sequences with zero-byte writes
read -r merges zero_writes before < <("$BLK_PY" - "$T_TMP/dbench.rep.json" "$SCRATCH_DEV" <<'EOF'
import json, sys
d = [x for x in json.load(open(sys.argv[1]))['blockio'] if x['dev'] == sys.argv[2]][0]
p = d['pairing']
print(d['kernel_counts']['trace']['write']['merges'], p['flush_seq_ends'] + p['double_completions'],
      p['issued_before_start'])
EOF
)
check_ge dbench.merges "$merges" 100
check_ge dbench.zero_byte_writes "$zero_writes" 1
check_eq dbench.issued_before_start "$before" 0

[ $T_FAILS -eq 0 ]
