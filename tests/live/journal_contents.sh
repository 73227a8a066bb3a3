#!/bin/bash
# What the journal wrote, by handle site, against bpftrace tallying the
# kernel's own jbd2 tracepoints on the same runs (1 KiB blocks, 1 MiB journal,
# strictatime):
#  - a create storm (2000 one-byte files in one directory) and a read storm
#    (cat of every file: strictatime dirties each inode through
#    ext4_dirty_inode), recorded apart;
#  - per trace, report's journal contents (blocks dirtied per handle type and
#    line, jbd2_handle_stats) equal bpftrace's sums per (type, line), and
#    their total equals bpftrace's; the transactions' dirtied blocks add up
#    to jbd2_run_stats' blocks (t_nr_buffers) of the same transactions, as
#    bpftrace sums them;
#  - compare of the two traces carries the same contents per cell, and its
#    journal line names the read storm's dirty_inode share;
#  - the read storm's journal is ext4_dirty_inode's (>= 90% of the blocks),
#    the create storm's is not; each dirtied at least the inode-table blocks
#    of the N inodes (N * inode size / block size, dumpe2fs).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { fail tools "bpftrace not installed"; exit 1; }
PY=$(python3 -c 'import sys; print(sys.executable)')
N=${JC_FILES:-1000}

scratch_fs 64 ext4 -b 1024 -J size=1 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
mount -o remount,strictatime "$M" || { fail setup "cannot remount strictatime"; exit 1; }
mkdir "$M/d"
sync
maj=${SCRATCH_DEV%%:*}
min=${SCRATCH_DEV##*:}
kdev=$(((maj << 20) | min))

# run TAG CMD: record CMD under bpftrace's tallies of the same tracepoints
run() {
	local tag=$1 cmd=$2 i
	cat >"$T_TMP/$tag.bt" <<BT
BEGIN { printf("ready\n"); }
tracepoint:jbd2:jbd2_handle_stats /args->dev == $kdev/
{ @site[args->type, args->line_no] = sum(args->dirtied_blocks); @h = count();
  @d = sum(args->dirtied_blocks); @tid[args->tid] = sum(args->dirtied_blocks); }
tracepoint:jbd2:jbd2_run_stats /args->dev == $kdev/
{ @rs[args->tid] = sum(args->blocks); }
END { print(@site); print(@h); print(@d); print(@tid); print(@rs); clear(@site); clear(@tid);
      clear(@rs); }
BT
	timeout 300 bpftrace -q "$T_TMP/$tag.bt" >"$T_TMP/$tag.bto" 2>"$T_TMP/$tag.bte" &
	BT_PID=$!
	for i in $(seq 1 300); do
		grep -q '^ready' "$T_TMP/$tag.bto" 2>/dev/null && break
		kill -0 $BT_PID 2>/dev/null || break
		sleep 0.1
	done
	"$FSLENS" record -m "$M" -o "$T_TMP/$tag.trace" -- sh -c "$cmd" 2>"$T_TMP/$tag.rec"
	check_eq "$tag.record" $? 0
	# the transactions the workload left running commit before bpftrace stops
	sleep 0.5
	kill -INT $BT_PID 2>/dev/null
	wait $BT_PID 2>/dev/null
	check_grep "$tag.bpftrace" '^@d: ' "$T_TMP/$tag.bto"
	"$FSLENS" report --json "$T_TMP/$tag.trace" >"$T_TMP/$tag.json" 2>"$T_TMP/$tag.err"
	check_eq "$tag.report" $? 0
}

# compare TAG: report's contents vs bpftrace's tallies
compare() {
	local tag=$1 out
	out=$("$PY" - "$T_TMP/$tag.json" "$T_TMP/$tag.bto" <<'PYEOF'
import json, re, sys
r = json.load(open(sys.argv[1]))
bt = open(sys.argv[2]).read()
types = ["misc", "inode", "write_page", "map_blocks", "dir", "truncate", "quota",
         "resize", "migrate", "move_extent", "xattr", "ext_convert"]
j = r["journal"]
lost = r["trace"]["lost"]["journal"]
site = {(types[int(t)], int(l)): int(v) for t, l, v in
        re.findall(r"^@site\[(\d+), (\d+)\]: (-?\d+)", bt, re.M)}
tid = {int(t): int(v) for t, v in re.findall(r"^@tid\[(\d+)\]: (-?\d+)", bt, re.M)}
rs = {int(t): int(v) for t, v in re.findall(r"^@rs\[(\d+)\]: (\d+)", bt, re.M)}
d = int(re.search(r"^@d: (-?\d+)", bt, re.M).group(1))
h = int(re.search(r"^@h: (\d+)", bt, re.M).group(1))
got = {(c["type"], c["line"]): c["blocks"] for c in j["contents"]}
# sites bpftrace saw with blocks (contents keeps the 32 with the most)
want = dict(sorted(((k, v) for k, v in site.items() if v > 0), key=lambda kv: -kv[1])[:32])
mine = {k: v for k, v in got.items() if v > 0}
print("lost", lost)
print("total", j["dirtied_blocks"], d)
print("handles", j["handles_stopped"], h)
print("sites", "same" if mine == want else "report %s bpftrace %s" % (mine, want))
# per transaction: report's dirtied, bpftrace's, and run_stats' blocks
bad = []
for t in j["transactions"]:
    if "blocks" not in t:
        continue
    k = t["tid"]
    if t["dirtied_blocks"] != tid.get(k) or t["blocks"] != rs.get(k):
        bad.append("tid %d: report dirtied %d blocks %d, bpftrace dirtied %s run_stats %s"
                   % (k, t["dirtied_blocks"], t["blocks"], tid.get(k), rs.get(k)))
print("txns", len(j["transactions"]), "ok" if not bad else "; ".join(bad[:4]))
print("runstats", sum(tid.get(k, 0) for k in rs), sum(rs.values()))
top = j["contents"][0] if j["contents"] else {"caller": None, "share": 0}
print("top", (top["caller"] or "-").split("+")[0], top["share"])
PYEOF
)
	echo "$tag: $out" | tr '\n' ' ' >&2; echo >&2
	check_eq "$tag.lost" "$(echo "$out" | awk '$1 == "lost" { print $2 }')" 0
	read -r _ a b < <(echo "$out" | grep '^total')
	check_eq "$tag.total_vs_bpftrace" "$a" "$b"
	check_ge "$tag.total_some" "$a" "$MIN"
	read -r _ a b < <(echo "$out" | grep '^handles')
	check_eq "$tag.handles_vs_bpftrace" "$a" "$b"
	check_eq "$tag.sites_vs_bpftrace" "$(echo "$out" | sed -n 's/^sites //p')" same
	read -r _ n ok < <(echo "$out" | grep '^txns')
	check_ge "$tag.txns" "$n" 1
	check_eq "$tag.txns_vs_bpftrace" "$ok" ok
	# the site breakdown adds up to what jbd2 counted in its transactions
	read -r _ a b < <(echo "$out" | grep '^runstats')
	check_eq "$tag.dirtied_vs_run_stats" "$a" "$b"
	read -r _ TOP SHARE < <(echo "$out" | grep '^top')
}

# at least the inode-table blocks holding the N inodes (dumpe2fs's inode size)
isz=$(dumpe2fs -h "$SCRATCH_LOOP" 2>/dev/null | awk '/^Inode size:/ { print $3 }')
MIN=$((N * isz / 1024))
run create "cd $M/d && for i in \$(seq 1 $N); do echo x >\$i; done; sync"
compare create
check_cmd create.not_dirty_inode test "$TOP" != ext4_dirty_inode -o "${SHARE%%.*}" = 0
# caches stay warm: the reads hit the page cache, the inodes are dirtied
run stat "cat $M/d/* >/dev/null; sync"
compare stat
check_eq stat.top_site "$TOP" ext4_dirty_inode
check_cmd stat.top_share_ge_90pct "$PY" -c "import sys; sys.exit(0 if $SHARE >= 0.9 else 1)"

# compare carries it: each trace is one phase (no phase file), whose journal
# contents are report's, and its journal line names the top site's share
"$FSLENS" compare --json "$T_TMP/create.trace" "$T_TMP/stat.trace" >"$T_TMP/c.json"
check_eq compare.exit $? 0
"$FSLENS" compare "$T_TMP/create.trace" "$T_TMP/stat.trace" >"$T_TMP/c.txt"
got=$("$PY" - "$T_TMP" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
c = json.load(open(tmp + "/c.json"))
out = []
for i, tag in enumerate(("create", "stat")):
    cell = c["rows"][0]["cells"][i]
    j = json.load(open("%s/%s.json" % (tmp, tag)))["journal"]
    want = [(x["type"], x["line"], (x["caller"] or "").split("+")[0] or None, x["blocks"],
             x["share"]) for x in j["contents"] if x["blocks"]][:3]
    got = [(x["type"], x["line"], x["caller"], x["blocks"], x["share"])
           for x in cell["journal_contents"]]
    if got != want or cell["journal_dirtied_blocks"] != j["dirtied_blocks"]:
        out.append("%s: compare %s %s, report %s %s" % (tag, cell["journal_dirtied_blocks"],
                   got, j["dirtied_blocks"], want))
print("; ".join(out) if out else "ok")
PYEOF
)
check_eq compare.contents_equal_report "$got" ok
check_grep compare.text_stat '^ +\| j [0-9]+c [0-9]+b [0-9]+% [a-z_]+ +\| j [0-9]+c [0-9]+b (9[0-9]|100)% dirty_inode' "$T_TMP/c.txt"

[ $T_FAILS -eq 0 ]
