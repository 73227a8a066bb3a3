#!/bin/bash
# Readdir order vs inode order: 2000 entries in one directory of a scratch
# ext4, caches dropped, `ls -f` recorded. The inode numbers the dirents events
# carry must be exactly `ls -fi`'s column in its order (the independent
# truth: the same getdents64 stream read again), and the report's
# layout.readdir figures must equal those computed here from `ls -fi` and the
# inode/block size dumpe2fs prints; the stream is named by the opened path.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs

scratch_fs 64 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
mkdir "$M/d"
python3 -c '
import os, sys
for i in range(2000):
    os.close(os.open(f"{sys.argv[1]}/f{i:05d}", os.O_CREAT | os.O_WRONLY, 0o644))
' "$M/d"
sync -f "$M/d"	# this filesystem only: a global sync waits for everyone's writeback
echo 3 >/proc/sys/vm/drop_caches
"$FSLENS" record -m "$M" -o "$T_TMP/r.trace" -- ls -f "$M/d" >"$T_TMP/ls.out" 2>"$T_TMP/rec.err"
check_eq record_exit $? 0
ls -fi "$M/d" | awk '{print $1}' >"$T_TMP/truth.txt"
check_eq truth_entries "$(wc -l <"$T_TMP/truth.txt")" 2002
"$FSLENS" dump "$T_TMP/r.trace" >"$T_TMP/dump.txt" 2>"$T_TMP/dump.err"
check_eq dump_exit $? 0
# more than one getdents64 call and several records per call
check_ge dirents_records "$(grep -c ' dirents ' "$T_TMP/dump.txt")" 32
grep ' dirents ' "$T_TMP/dump.txt" | sed 's/.* ino=//' | tr ',' '\n' >"$T_TMP/rec.txt"
if cmp -s "$T_TMP/rec.txt" "$T_TMP/truth.txt"; then
	pass inode_sequence_equals_ls_fi
else
	fail inode_sequence_equals_ls_fi "$(wc -l <"$T_TMP/rec.txt") recorded; first difference: \
$(diff "$T_TMP/rec.txt" "$T_TMP/truth.txt" | head -3 | tr '\n' ' ')"
fi
check_eq no_truncation "$(grep ' dirents ' "$T_TMP/dump.txt" | grep -c ' flags=')" 0
isz=$(dumpe2fs -h "$SCRATCH_LOOP" 2>/dev/null | awk -F: '/^Inode size/ {print $2+0}')
bsz=$(dumpe2fs -h "$SCRATCH_LOOP" 2>/dev/null | awk -F: '/^Block size/ {print $2+0}')
"$FSLENS" report --json-full "$T_TMP/r.trace" >"$T_TMP/r.json" 2>"$T_TMP/rep.err"
check_eq report_exit $? 0
python3 - "$T_TMP/truth.txt" "$T_TMP/r.json" "$isz" "$bsz" "$M/d" >"$T_TMP/cmp.txt" <<'PY'
import json, sys
ino = [int(x) for x in open(sys.argv[1])]
rd = json.load(open(sys.argv[2]))["layout"]["readdir"]
isz, bsz = int(sys.argv[3]), int(sys.argv[4])
asc = sum(1 for a, b in zip(ino, ino[1:]) if b > a)
def cost(seq):
    blk = [(i - 1) * isz // bsz for i in seq]
    return (sum(1 for a, b in zip(blk, blk[1:]) if a != b),
            sum(abs(b - a) for a, b in zip(blk, blk[1:])))
want = {"streams": 1, "entries": len(ino), "ascending": asc,
        "ascending_fraction": round(asc / (len(ino) - 1), 3),
        "readdir_order": cost(ino), "inode_order": cost(sorted(ino)),
        "itable_blocks": len({(i - 1) * isz // bsz for i in ino})}
got = {k: rd[k] for k in ("streams", "entries", "ascending", "ascending_fraction",
                          "itable_blocks")}
for k in ("readdir_order", "inode_order"):
    got[k] = (rd[k]["block_changes"], rd[k]["blocks_travelled"])
for k in want:
    print(k, "ok" if got[k] == want[k] else f"got {got[k]} want {want[k]}")
# the stream is named by the path ls opened (its last 63 bytes)
p = rd["dirs"][0]["path"]
print("path", "ok" if p == sys.argv[5][-63:] else f"got {p} want {sys.argv[5][-63:]}")
# hash order must not be inode order, or the comparison proves little
print("hash_order_differs", "ok" if 0.2 < asc / (len(ino) - 1) < 0.8 else f"asc {asc}")
PY
check_eq report_python $? 0
while read -r k v; do
	if [ "$v" == ok ]; then pass "readdir_$k"; else fail "readdir_$k" "$v"; fi
done <"$T_TMP/cmp.txt"
"$FSLENS" report --section layout "$T_TMP/r.trace" >"$T_TMP/r.txt" 2>&1
check_grep text_section 'readdir vs inode order: 1 stream, 2002 entries' "$T_TMP/r.txt"
check_le text_width "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T_TMP/r.txt")" 100
exit $T_FAILS
