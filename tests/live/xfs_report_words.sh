#!/bin/bash
# An XFS target's report says nothing of ext4: on a scratch XFS, an fsync
# storm, creates in several directories, a cold re-read and deletes are
# recorded; the text, JSON and HTML reports must name no ext4 or jbd2
# function, structure, tool or advice (ext4, jbd2, e2fsck, fragcheck,
# mballoc, tune2fs, mke2fs, debugfs, block group, flex_bg, inode table,
# Orlov), the JSON has no jbd2 "journal" nor ext4 "layout" object but an
# "xfs_layout" one, and the text has the XFS LAYOUT section with the
# inode-to-data distance and the reads' own seeks; an XFS class is a cause.
# The image lives in /dev/shm: the loop worker flushes it with an fsync of
# its backing file, which on an ext4 host runs ext4 code that is the host's,
# rightly shown as the loop worker's evidence (a kernel thread of the target).
. "$(dirname "$0")/../lib.sh"
require_bpf
[ -d /sys/kernel/tracing/events/xfs ] || { skip all "this kernel has no XFS tracepoints"; exit 0; }
command -v mkfs.xfs >/dev/null || { skip all "no mkfs.xfs"; exit 0; }

IMG=$(mktemp /dev/shm/fslens-xfs-words.XXXXXX) || { fail setup "no /dev/shm"; exit 1; }
at_exit "rm -f $IMG"
M=$T_TMP/mnt
mkdir -p "$M"
truncate -s 320M "$IMG" && mkfs.xfs -q -f -d agcount=4 "$IMG" >/dev/null 2>&1 &&
	LOOP=$(losetup -f --show "$IMG") || { fail setup "cannot make scratch xfs"; exit 1; }
at_exit "losetup -d $LOOP"
mount "$LOOP" "$M" || { fail setup "cannot mount $LOOP"; exit 1; }
at_exit "umount -l $M"
"$FSLENS" record -m "$M" -o "$T_TMP/t.trace" -- sh -c "
	for i in \$(seq 1 100); do
		dd if=/dev/zero of=$M/s\$i bs=4k count=2 conv=fsync status=none
	done
	for d in 1 2 3 4; do
		mkdir $M/d\$d
		for i in \$(seq 1 100); do head -c 3000 /dev/zero >$M/d\$d/f\$i; done
	done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cat $M/d*/f* $M/s* >/dev/null
	rm -f $M/s*
	sync" 2>"$T_TMP/rec.err"
check_eq record_exit $? 0
"$FSLENS" report "$T_TMP/t.trace" >"$T_TMP/r.txt" 2>"$T_TMP/rep.err"
check_eq report_exit $? 0
"$FSLENS" report --json-full "$T_TMP/t.trace" >"$T_TMP/r.json" 2>>"$T_TMP/rep.err"
check_eq report_json_exit $? 0
"$FSLENS" report "$T_TMP/t.trace" --html "$T_TMP/r.html" >/dev/null 2>>"$T_TMP/rep.err"
check_eq report_html_exit $? 0

WORDS='ext[234]|jbd2|e2fsck|fragcheck|mballoc|tune2fs|mke2fs|debugfs|block group|flex_bg|inode[ -]table|orlov|dumpe2fs'
# A loop worker is a shared workqueue thread: once it served the target's
# disk, the scope rules (analyzer/context.c) count its waits as the target's,
# also those it spends on another loop device's backing file (another test's
# ext4 on this machine) - the frames of kworker stacks are not checked here.
python3 - "$T_TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d.get("causes", []):
    for st in c.get("stacks", []):
        if st.get("comm", "").startswith("kworker/"):
            st["frames"] = []
json.dump(d, open(sys.argv[1], "w"))
PY
for f in r.txt r.json r.html; do
	hits=$(grep -o -i -E ".{0,30}($WORDS).{0,30}" "$T_TMP/$f" | head -3)
	if [ -n "$hits" ]; then
		fail "no_ext4_words_${f#r.}" "$hits"
	else
		pass "no_ext4_words_${f#r.}"
	fi
done
keys=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(k for k in ("journal", "layout", "xfs_layout") if k in d))' "$T_TMP/r.json")
check_eq json_sections "$keys" "xfs_layout"
check_grep text_xfs_layout '^XFS LAYOUT' "$T_TMP/r.txt"
check_grep text_distance 'inode-to-data distance, every file \([0-9]+ files\)' "$T_TMP/r.txt"
check_grep text_read_seeks 'read seeks \(reads only' "$T_TMP/r.txt"
# the fsync storm's waits are XFS's own classes: one is a wait cause (the
# JSON lists them all; the text's table can be filled by CPU causes first).
# Not the first: the shell's vfork waits for each dd (uninterruptible,
# class other) come before the log forces here
check_eq wait_cause_xfs_class "$(python3 -c '
import json, sys
c = [x["class"] for x in json.load(open(sys.argv[1]))["causes"] if x.get("kind", "wait") == "wait"]
print("yes" if any(x.startswith("xfs_log") for x in c) else "no: %s" % c[:5])' "$T_TMP/r.json")" yes
[ -n "${XFS_WORDS_KEEP:-}" ] && cp "$T_TMP/r.txt" "$XFS_WORDS_KEEP"
exit $((T_FAILS > 0))
