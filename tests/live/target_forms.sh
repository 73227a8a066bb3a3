#!/bin/bash
# The target named every way, and a target with no block device:
#  - -d loopN, -d /dev/loopN and -d MAJ:MIN record the same filesystem
#    (target.dev in the trace is the loop fs's);
#  - a tmpfs target (-m): record says the block and writeback families cannot
#    apply and records none of their events; data_work's data operations on it
#    are all there (counts and bytes equal what the calls returned); the
#    report (text and JSON) says which families cannot apply and why, from
#    the trace's record.families, and an ext4 target's report says none.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
B=$T_BUILD
Q=$B/tests/trace_query

scratch_fs 128 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
want=$(( ($(stat -c %d "$SCRATCH_MNT") / 256 << 20) | ($(stat -c %d "$SCRATCH_MNT") % 256) ))
L=$(basename "$SCRATCH_LOOP")
i=0
for d in "$L" "/dev/$L" "$SCRATCH_DEV"; do
	i=$((i + 1))
	"$FSLENS" record -d "$d" -e block,proc --duration 0.5 -o "$T_TMP/d$i.trace" 2>"$T_TMP/d$i.err"
	check_eq "dev_form_${i}_exit" "$?" 0
	check_eq "dev_form_${i}_target" "$("$Q" "$T_TMP/d$i.trace" kv target.dev 2>/dev/null)" "$want"
done
"$FSLENS" record -d nosuchdisk9 --duration 0.5 -o "$T_TMP/x.trace" 2>"$T_TMP/x.err"
rc=$?; if [ $rc -ne 0 ]; then pass dev_unknown_rc; else fail dev_unknown_rc "exit 0 for an unknown device"; fi
check_grep dev_unknown_msg "nosuchdisk9" "$T_TMP/x.err"

mkdir -p "$T_TMP/tmpfs"
mount -t tmpfs -o size=64m none "$T_TMP/tmpfs" || { fail setup "tmpfs"; exit 1; }
at_exit "umount -l $T_TMP/tmpfs"
# some disk I/O elsewhere while recording: none of it is the tmpfs's
dd if=/dev/zero of="$SCRATCH_MNT/busy" bs=1M count=32 oflag=direct status=none &
"$FSLENS" record -m "$T_TMP/tmpfs" -o "$T_TMP/t.trace" -- "$B/tests/data_work" "$T_TMP/tmpfs" \
	>"$T_TMP/truth" 2>"$T_TMP/t.err"
check_eq tmpfs_record_exit "$?" 0
wait
check_grep tmpfs_says_no_block "has no block device: the block and writeback families cannot apply" \
	"$T_TMP/t.err"
fams=$("$Q" "$T_TMP/t.trace" kv record.families 2>/dev/null)
case ",$fams," in *,block,*|*,writeback,*) fail tmpfs_families "recorded: $fams" ;; *) pass tmpfs_families ;; esac
check_eq tmpfs_no_block_events "$("$FSLENS" dump "$T_TMP/t.trace" | grep -c ' block_rq_')" 0
"$FSLENS" report --json "$T_TMP/t.trace" >"$T_TMP/t.json"
python3 - "$T_TMP/truth" "$T_TMP/t.json" <<'PY' >"$T_TMP/cmp"
import json, sys
ops = json.load(open(sys.argv[2]))["data"]["ops"]
for line in open(sys.argv[1]):
    op, n, asked, done = line.split()
    g = ops.get(op, {})
    got = (g.get("count", 0), g.get("bytes_asked", 0), g.get("bytes_done", 0))
    want = (int(n), int(asked), int(done))
    # tmpfs refuses O_DIRECT opens on old kernels; data_work then exits early
    print("%s %s got=%s want=%s" % ("ok" if got == want else "BAD", op, got, want))
PY
while read -r st name rest; do
	if [ "$st" = ok ]; then pass "tmpfs_$name"; else fail "tmpfs_$name" "$rest"; fi
done <"$T_TMP/cmp"
# the report says what could not be recorded, and why
check_eq tmpfs_json_families "$(python3 -c 'import json,sys
f = json.load(open(sys.argv[1]))["trace"]["families"]
print(",".join(f["recorded"]), " ".join("%s=%s" % kv for kv in sorted(f["cannot_apply"].items())))' \
	"$T_TMP/t.json")" "dirops,offcpu,proc,cpu alloc=not ext4 or xfs block=no block device journal=not ext4 or xfs writeback=no block device"
"$FSLENS" report "$T_TMP/t.trace" >"$T_TMP/t.txt" 2>&1
check_grep tmpfs_text_no_disk '^block, writeback cannot apply: the target \(tmpfs\) has no block device$' \
	"$T_TMP/t.txt"
check_grep tmpfs_text_not_ext4 '^journal, alloc cannot apply: the target \(tmpfs\) is not ext4 or xfs$' \
	"$T_TMP/t.txt"
# an ext4 target with every family: nothing to say
"$FSLENS" report --json "$T_TMP/d1.trace" >"$T_TMP/d1.json" 2>/dev/null
check_eq ext4_json_cannot_apply "$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["trace"]["families"]["cannot_apply"])' "$T_TMP/d1.json")" "{}"
check_eq ext4_text_cannot_apply "$("$FSLENS" report "$T_TMP/d1.trace" 2>&1 | grep -c 'cannot apply')" 0
[ $T_FAILS -eq 0 ]
