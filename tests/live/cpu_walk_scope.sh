#!/bin/bash
# The cpu family's walk mark against independent truth. One process stats
# 20,000 files under /usr/lib (another filesystem: the root's) six times
# and creates 6,000 files on the target, recorded with -m. A sample taken
# while a path walk stands in another filesystem's directory
# (current->nameidata) is that filesystem's, whatever the process does on
# the target: before the mark, the process's majority put every such
# sample on the target (cpu_path_lookup second among the causes at 18%,
# "hottest directory" the target's). bpftrace profiles the same process at
# the same rate and sorts its samples by where the walk stood:
#   - the report's other-filesystem samples hold bpftrace's walks on
#     another filesystem, less three standard deviations of the two
#     samplings and 10% (two samplers at once lose some samples to each
#     other: docs/monitor.md); they hold more: the interpreter reading its
#     own modules is a data call on another filesystem;
#   - the target's cpu_path_lookup is its own walks': at most 1.5 times
#     bpftrace's walks on the target, plus three standard deviations and 5
#     samples for the path copy and the walk's set-up outside nameidata
#     (before the mark: 63 samples against 17);
#   - a stat's samples outside its walk (getattr, the copy-out) are held
#     for the call's verdict (probes/cpupend.bpf.h): other-fs holds
#     bpftrace's walks on another filesystem and its samples inside the
#     stat calls outside a walk, with the same noise; and no stack of the
#     target's CPU causes is a stat call's (before: security_inode_getattr
#     < vfs_statx among them, 2 of 2 runs).
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip all "bpftrace not installed"; exit 0; }
[ -d /usr/lib ] || { skip all "no /usr/lib"; exit 0; }
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || { skip all "no python3"; exit 0; }
# the real interpreter under a name of its own (python3 may be a pyenv shim)
cp "$PY" "$T_TMP/fsl_walkpy" || { fail setup "cannot copy $PY"; exit 1; }

scratch_fs 300 ext4 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
[ "$(stat -c %d /usr/lib)" != "$(stat -c %d "$M")" ] || { skip all "/usr/lib on the target"; exit 0; }
kdev=$(( $(stat -c %t "$SCRATCH_LOOP" | sed 's/^/0x/') << 20 | 0x$(stat -c %T "$SCRATCH_LOOP") ))
cat >"$T_TMP/w.py" <<'PY'
import os, sys
tgt = sys.argv[1]
names = []
for root, dirs, files in os.walk("/usr/lib"):
    names += [os.path.join(root, f) for f in files]
    if len(names) > 20000:
        break
os.makedirs(tgt + "/d", exist_ok=True)
for r in range(6):
    for i, n in enumerate(names):
        try:
            os.stat(n)
        except OSError:
            pass
        if i % 20 == 0:
            os.close(os.open("%s/d/f%d_%d" % (tgt, r, i), os.O_CREAT | os.O_WRONLY, 0o644))
PY
sync
bt_start "$T_TMP/bt.out" 'tracepoint:syscalls:sys_enter_newfstatat /comm == "fsl_walkpy"/ { @instat[tid] = 1; }
tracepoint:syscalls:sys_exit_newfstatat /comm == "fsl_walkpy"/ { delete(@instat[tid]); }
profile:hz:499 /comm == "fsl_walkpy"/ {
	$nd = (struct nameidata *)curtask->nameidata;
	if ($nd != 0) {
		$d = (struct dentry *)$nd->path.dentry;
		$sb = (struct super_block *)$d->d_sb;
		if ($sb->s_dev == '"$kdev"') { @tw = count(); } else { @ow = count(); }
	} else {
		@nw = count();
		if (@instat[tid]) { @os = count(); }
	}
}
END { clear(@instat); }'
"$FSLENS" record -m "$M" -o "$T_TMP/w.trace" -- "$T_TMP/fsl_walkpy" "$T_TMP/w.py" "$M" \
	>"$T_TMP/rec.out" 2>&1
check_eq record-exit $? 0
kill -INT $BT
wait $BT
"$FSLENS" report --json "$T_TMP/w.trace" >"$T_TMP/r.json" 2>/dev/null
check_eq report-exit $? 0
python3 - "$T_TMP/r.json" "$T_TMP/bt.out" >"$T_TMP/judged" 2>"$T_TMP/judged.err" <<'PY'
import json, math, re, sys
r = json.load(open(sys.argv[1]))
bt = dict((k, int(v)) for k, v in re.findall(r"^@(\w+): (\d+)$", open(sys.argv[2]).read(), re.M))
c = r["cpu"]
per = c["period_ns"]
other = c.get("other_fs_ns", 0) / per
look = ((c.get("classes") or {}).get("cpu_path_lookup") or {}).get("workload_ns", 0) / per
ow, tw, nw, os_ = bt.get("ow", 0), bt.get("tw", 0), bt.get("nw", 0), bt.get("os", 0)
# the target's causes' stacks: none may be a stat call's (every stat is on /usr/lib)
stat_frames = [" < ".join(f if isinstance(f, str) else f.get("sym", "?") for f in st.get("frames", [])[:8])
               for cz in r["causes"] if cz["kind"] == "cpu" for st in cz.get("stacks") or []]
stat_frames = [f for f in stat_frames if "statx" in f or "newfstatat" in f]
print("# samples: report other-fs %.0f, target cpu_path_lookup %.0f; bpftrace walks on another fs %d, "
      "on the target %d, outside a walk %d (in a stat call %d); target stacks in a stat call: %s" % (
          other, look, ow, tw, nw, os_, stat_frames[:2]), file=sys.stderr)
print(("PASS" if ow >= 50 and os_ >= 20 else "FAIL") + " walks-measured")
print(("PASS" if other >= ow - 3 * math.sqrt(other + ow) - 0.1 * ow else "FAIL") +
      " other-fs-holds-the-walks-on-another-fs")
# a stat's samples outside its walk (getattr, the copy-out, the path's copy
# in) are held for its verdict at exit: another filesystem's as well
w = ow + os_
print(("PASS" if other >= w - 3 * math.sqrt(other + w) - 0.1 * w else "FAIL") +
      " other-fs-holds-the-stat-calls-on-another-fs")
print(("PASS" if not stat_frames else "FAIL") + " no-target-stack-in-a-stat-call")
# every sample once: held ones are neither lost nor counted twice (the
# workload's kept and other-filesystem samples against bpftrace's of the
# process, within the two samplers' noise and 10%)
mine = (c.get("samples") or {}).get("workload", 0) + other
theirs = ow + tw + nw
print("# samples in all: fslens %.0f, bpftrace %d" % (mine, theirs), file=sys.stderr)
print(("PASS" if abs(mine - theirs) <= 3 * math.sqrt(mine + theirs) + 0.1 * theirs else "FAIL") +
      " every-sample-once")
print(("PASS" if look <= 1.5 * tw + 3 * math.sqrt(look + tw) + 5 else "FAIL") +
      " target-path-lookup-is-its-own-walks")
PY
while read -r v name; do
	if [ "$v" = PASS ]; then pass "$name"; elif [ "$v" = FAIL ]; then fail "$name" "$(grep '^#' "$T_TMP/judged.err" 2>/dev/null)"; fi
done <"$T_TMP/judged"
check_eq judged "$(grep -c '^PASS' "$T_TMP/judged")" 6
exit $((T_FAILS > 0))
