#!/bin/bash
# The default recording leaves out the events only replay reads (the
# allocator's requests and frees); --full keeps them (issue #20). Two
# recorders on one workload at once, a default and a --full one: 300 files
# of 12 KiB written and fsynced, 100 of them deleted, on a scratch ext4.
# Checks: each trace says its tier; the default one has no
# ext4_request_inode, ext4_request_blocks or ext4_mballoc_free record and
# the --full one has one request per inode allocated and frees for the
# deletes; both have every allocated inode (the workload's 300 files and
# its directory) and the same block allocations; both reports have every
# section, with the same operation counts, commits, handles and layout;
# replay of the default trace says the layout is not replayed and how to
# record it (and that its journal handles are summed), replay of the
# --full one replays it.
# The default trace's journal handles are summed in the kernel: it has no
# ext4_journal_start_*, jbd2_handle_stats or unflagged jbd2_handle_start
# record, one jbd2_handle_agg per transaction and site, and its report's
# handle sites (handles, blocks, callers) and per-transaction contents
# (handles stopped, blocks dirtied, busiest site) equal the --full one's.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
Q=$T_BUILD/tests/trace_query

scratch_fs 256 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
sync
"$FSLENS" record -m "$M" -o "$T_TMP/d.trace" -f 2>"$T_TMP/d.err" &
RD=$!
"$FSLENS" record --full -m "$M" -o "$T_TMP/f.trace" -f 2>"$T_TMP/f.err" &
RF=$!
at_exit "kill -INT $RD $RF"
for _ in $(seq 1 100); do
	grep -q "recording" "$T_TMP/d.err" && grep -q "recording" "$T_TMP/f.err" && break
	sleep 0.1
done
sleep 0.5
mkdir "$M/w"
for i in $(seq 1 300); do
	dd if=/dev/zero of="$M/w/f$i" bs=4k count=3 conv=fsync 2>/dev/null
done
rm -f "$M"/w/f[0-9]  "$M"/w/f[0-9][0-9]	"$M"/w/f100	# 100 files
sync
sleep 0.5
kill -INT $RD $RF
wait $RD
check_eq default-record-exit "$?" 0
wait $RF
check_eq full-record-exit "$?" 0
check_eq files-left "$(ls "$M/w" | wc -l)" 200

check_eq default-tier "$("$Q" "$T_TMP/d.trace" kv record.tier)" default
check_eq full-tier "$("$Q" "$T_TMP/f.trace" kv record.tier)" full
n() { "$Q" "$T_TMP/$1.trace" events "$2" 2>/dev/null | wc -l; }
for e in ext4_request_inode ext4_request_blocks ext4_mballoc_free; do
	check_eq "default-no-$e" "$(n d $e)" 0
done
check_eq default-allocate-inode "$(n d ext4_allocate_inode)" 301
check_eq full-allocate-inode "$(n f ext4_allocate_inode)" 301
check_eq full-request-inode "$(n f ext4_request_inode)" 301
check_ge full-request-blocks "$(n f ext4_request_blocks)" 300
check_ge full-mballoc-free "$(n f ext4_mballoc_free)" 100
check_eq same-allocate-blocks "$(n d ext4_allocate_blocks)" "$(n f ext4_allocate_blocks)"
check_eq same-free-blocks "$(n d ext4_free_blocks)" "$(n f ext4_free_blocks)"
for e in ext4_journal_start_sb ext4_journal_start_inode jbd2_handle_stats; do
	check_eq "default-no-$e" "$(n d $e)" 0
	check_ge "full-has-$e" "$(n f $e)" 100
done
check_eq default-no-unflagged-handle-start \
	"$("$Q" "$T_TMP/d.trace" events jbd2_handle_start 2>/dev/null | grep -vc ' flags=1')" 0
check_ge default-handle-agg "$(n d jbd2_handle_agg)" 600
check_eq full-no-handle-agg "$(n f jbd2_handle_agg)" 0

"$FSLENS" report --json "$T_TMP/d.trace" >"$T_TMP/d.json" 2>/dev/null
check_eq default-report "$?" 0
"$FSLENS" report --json "$T_TMP/f.trace" >"$T_TMP/f.json" 2>/dev/null
check_eq full-report "$?" 0
# each recorder sees the other's own calls on the target (it stats the mount
# point: 4 stats in one trace, 3 in the other, once): the operations compared
# are the rest, the target's as the report counts them (every task's)
"$Q" "$T_TMP/d.trace" events dirop 2>/dev/null | grep " pid=$RF " >"$T_TMP/d.other"
"$Q" "$T_TMP/f.trace" events dirop 2>/dev/null | grep " pid=$RD " >"$T_TMP/f.other"
check_cmd same-report-figures python3 - "$T_TMP/d.json" "$T_TMP/f.json" "$T_TMP/d.other" \
	"$T_TMP/f.other" <<'PY'
import json, re, sys
d, f = (json.load(open(p)) for p in sys.argv[1:3])
names = ["open", "create", "mkdir", "mknod", "unlink", "rmdir", "rename", "link", "symlink",
         "stat", "readdir", "fsync", "fdatasync", "syncfs", "sync"]
def minus_other(r, path):
    n = 0
    for l in open(path):
        op = names[int(re.search(r" op=(\d+) ", l)[1])]
        t = r["ops"]["types"].get(op)
        if t:
            t["count"] -= 1
        n += 1
    r["ops"]["total"] -= n
minus_other(d, sys.argv[3])
minus_other(f, sys.argv[4])
bad = []
if sorted(d) != sorted(f):
    bad.append("sections %s vs %s" % (sorted(d), sorted(f)))
def get(r, path):
    for k in path.split("."):
        r = r.get(k, {}) if isinstance(r, dict) else {}
    return r
def counts(r):
    return {k: v.get("count") for k, v in get(r, "ops.types").items()}
if counts(d) != counts(f):
    bad.append("ops by type: default %s, full %s" % (counts(d), counts(f)))
for p in ("ops.total", "data.total", "journal.commits", "journal.handles",
          "layout.files", "layout.fragmented_files", "layout.extents_log2", "layout.fragcheck"):
    if get(d, p) != get(f, p):
        bad.append("%s: default %s, full %s" % (p, json.dumps(get(d, p))[:200],
                                               json.dumps(get(f, p))[:200]))
def sites(r, key, fields):
    return sorted(tuple(x.get(k) for k in fields) for x in get(r, key) or [])
for key, fields in (("journal.handle_waits", ("type", "line", "count", "caller")),
                    ("journal.contents", ("type", "line", "handles", "blocks", "caller"))):
    if sites(d, key, fields) != sites(f, key, fields):
        bad.append("%s: default %s, full %s" % (key, sites(d, key, fields)[:4], sites(f, key, fields)[:4]))
def txns(r):
    return {t["tid"]: (t.get("stopped_handles"), t.get("dirtied_blocks"), t.get("top_site"))
            for t in get(r, "journal.transactions") or []}
td, tf = txns(d), txns(f)
diff = [k for k in tf if td.get(k) != tf[k]]
if len(tf) < 300 or set(td) != set(tf) or diff:
    bad.append("transactions: %d vs %d, differing %s" % (len(td), len(tf),
               [(k, td.get(k), tf[k]) for k in diff[:3]]))
for b in bad:
    print("    " + b, file=sys.stderr)
w = lambda r: sum(x["wait_us"] for x in get(r, "journal.handle_waits") or [])
print("    handle-start waits: default %.0f us, full %.0f us" % (w(d), w(f)), file=sys.stderr)
print("    ops %s, commits %s, files %s in both" % (get(f, "ops.total"), get(f, "journal.commits"),
      get(f, "layout.files")), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
"$FSLENS" replay "$T_TMP/d.trace" >"$T_TMP/d.replay" 2>&1
check_grep default-replay-says 'placement skipped: .*record --full' "$T_TMP/d.replay"
check_grep default-replay-journal-says 'model skipped: .*summed per transaction.*record --full' \
	"$T_TMP/d.replay"
"$FSLENS" replay "$T_TMP/f.trace" >"$T_TMP/f.replay" 2>&1
check_grep full-replay-layout '^Block placement, one step at a time: [0-9]+ of [0-9]+ exact' "$T_TMP/f.replay"
check_grep full-replay-inodes '^Inode placement: [0-9]+ of [0-9]+ exact' "$T_TMP/f.replay"
exit $((T_FAILS > 0))
