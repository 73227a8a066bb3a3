# shellcheck shell=bash
# The truth harness (sourced after tests/lib.sh, with a scratch filesystem
# from scratch_fs): record one workload with fslens while bpftrace watches
# the same tasks, then judge the report against the kernel's own figures
# (tests/helpers/truth.py says which and how).
#
#   truth_run TAG 'WORKLOAD' [SYNC]
#       Records sh -c 'WORKLOAD' on $SCRATCH_MNT into $T_TMP/TAG.trace. The
#       workload runs under a copy of sh named fsltruthroot, which bpftrace
#       recognises at its exec: from there it follows the workload's tasks
#       (forks and threads), tallies their off-CPU waits by kernel stack
#       and their on-CPU samples, sums their lifetimes (the root's from
#       the fork before its exec: 2 ms of a 62 ms du on a busy CI run),
#       and sums the
#       target's completed requests by rwbs, and the commits that ended
#       before the workload's exec (fslens record's own start sync, which
#       the recording leaves out). With SYNC=1 (the default) a
#       `sync -f` of the filesystem follows the workload inside the
#       recording but outside the workload's tasks, so every byte it
#       dirtied reaches the device while recorded, and one before the
#       tallies start leaves the setup's dirty data out (SYNC=0: neither,
#       for a test that wants dirty metadata at the start). /proc/fs/jbd2
#       is read before and after.
#   truth_check TAG [NAME]
#       The report of the workload's tasks (--root-pid of fsltruthroot)
#       against the tallies: PASS/FAIL lines named NAME:TAG-check (NAME
#       defaults to the test's), and FIG lines for bench/truth.sh.
#   truth_block_hook TAG
#       Where the block accounting's checks (completions, merges, flushes
#       and sectors against /sys/block; D2C and Q2C against btt on the
#       blktrace export) plug in: they are that work's, not this file's.
TRUTH_H=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TRUTH_TOP=${TOP:-$(cd "$TRUTH_H/../.." && pwd)}

truth_jinfo() {	# the scratch filesystem's /proc/fs/jbd2/<dev>-8/info, or nothing
	cat /proc/fs/jbd2/"$(basename "$SCRATCH_LOOP")"-*/info 2>/dev/null
}

# $1 output, $2 kernel dev_t of the scratch device; waits until attached
truth_tally_start() {
	cat >"$1.bt" <<BT
tracepoint:sched:sched_process_fork { @fk[args->child_pid] = nsecs; }
tracepoint:sched:sched_process_exec /comm == "fsltruthroot"/
{ @in[tid] = 1; @born[tid] = @fk[tid] ? @fk[tid] : nsecs; @rooted = 1; printf("ROOT %d\n", tid); }
tracepoint:sched:sched_process_fork /@in[args->parent_pid]/
{ @in[args->child_pid] = 1; @born[args->child_pid] = nsecs; }
tracepoint:sched:sched_process_exit /@in[tid]/
{ @wall = sum(nsecs - @born[tid]); @threads = count(); delete(@in[tid]); delete(@born[tid]); }
tracepoint:sched:sched_process_exit { delete(@fk[tid]); }
tracepoint:sched:sched_switch /@in[args->prev_pid] && (args->prev_state & 3)/
{ @ts[args->prev_pid] = nsecs; @st[args->prev_pid] = kstack; @s[args->prev_pid] = args->prev_state & 3; }
tracepoint:sched:sched_switch /@ts[args->next_pid]/
{ \$d = nsecs - @ts[args->next_pid];
  if (\$d >= 100000) { @off[@st[args->next_pid], @s[args->next_pid]] = sum(\$d); }
  if (\$d >= 80000 && \$d < 125000) { @edge[@st[args->next_pid], @s[args->next_pid]] = sum(\$d); }
  delete(@ts[args->next_pid]); delete(@st[args->next_pid]); delete(@s[args->next_pid]); }
profile:hz:499 /@in[tid]/ { @cpu[kstack] = count(); }
tracepoint:block:block_rq_complete /args->dev == $2/ { @rq[args->rwbs] = sum(args->nr_sector); }
tracepoint:jbd2:jbd2_end_commit /args->dev == $2 && !@rooted/ { @pre_commits = count(); }
tracepoint:sched:sched_process_exec /comm == "fsltruthready"/ { printf("READY\n"); }
END { clear(@in); clear(@born); clear(@fk); clear(@ts); clear(@st); clear(@s); clear(@rooted); }
BT
	bpftrace "$1.bt" >"$1" 2>"$1.err" &
	TRUTH_BT=$!
	at_exit "kill $TRUTH_BT 2>/dev/null"
	# "Attaching" is printed before the probes are: wait for the last one
	# (bpftrace attaches in the script's order) to see a marked exec
	[ -x "$T_TMP/fsltruthready" ] || cp "$(type -P true)" "$T_TMP/fsltruthready"
	for _ in $(seq 1 300); do
		"$T_TMP/fsltruthready"
		grep -q '^READY$' "$1" 2>/dev/null && return 0
		kill -0 "$TRUTH_BT" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

# SIGINT makes bpftrace print its maps; SIGTERM, then SIGKILL, if it hangs
truth_tally_stop() {
	local i
	kill -INT "$TRUTH_BT" 2>/dev/null
	for i in $(seq 1 300); do
		kill -0 "$TRUTH_BT" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$TRUTH_BT" 2>/dev/null; then
		kill -TERM "$TRUTH_BT"
		sleep 2
		kill -KILL "$TRUTH_BT" 2>/dev/null
	fi
	wait "$TRUTH_BT" 2>/dev/null
}

# Read the programs a workload runs, and their libraries, into the page
# cache: their loading waits on the root filesystem, not the target, and
# fslens leaves such waits out of the causes (a cold exec would still
# count in the tally; truth.py also leaves out waits inside exec).
truth_warm() {
	local b p
	for b in "$@"; do
		p=$(command -v "$b" 2>/dev/null) || continue
		cat "$p" $(ldd "$p" 2>/dev/null | grep -o '/[^ ]*') >/dev/null 2>&1
	done
}

truth_run() {
	local tag=$1 work=$2 sync=${3:-1} kdev tail=""
	[ -x "$T_TMP/fsltruthroot" ] || cp "$(command -v sh)" "$T_TMP/fsltruthroot"
	truth_warm "$T_TMP/fsltruthroot" sync "$FSLENS"
	kdev=$(( $(stat -c %t "$SCRATCH_LOOP" | sed 's/^/0x/') << 20 | 0x$(stat -c %T "$SCRATCH_LOOP") ))
	# what the setup dirtied is not the workload's
	if [ "$sync" = 1 ]; then
		tail="; sync -f $SCRATCH_MNT"
		sync -f "$SCRATCH_MNT"
	fi
	truth_tally_start "$T_TMP/$tag.bt.out" "$kdev" ||
		{ fail "$tag-bpftrace" "$(head -c 300 "$T_TMP/$tag.bt.out.err")"; return 1; }
	truth_jinfo >"$T_TMP/$tag.jbd2.before"
	printf '%s\n' "$work" >"$T_TMP/$tag.work"
	"$FSLENS" record -f -m "$SCRATCH_MNT" -o "$T_TMP/$tag.trace" -- \
		sh -c "$T_TMP/fsltruthroot $T_TMP/$tag.work$tail" >"$T_TMP/$tag.rec" 2>&1
	check_eq "$tag-record" $? 0
	truth_jinfo >"$T_TMP/$tag.jbd2.after"
	truth_tally_stop
}

truth_check() {
	local tag=$1 name=${2:-$T_SUITE/$T_NAME} root
	root=$(sed -n 's/^ROOT \([0-9]*\)$/\1/p' "$T_TMP/$tag.bt.out" | head -1)
	[ -n "$root" ] || { fail "$tag-root" "bpftrace saw no fsltruthroot exec"; return 1; }
	"$FSLENS" report --json --root-pid "$root" "$T_TMP/$tag.trace" >"$T_TMP/$tag.truth.json" \
		2>"$T_TMP/$tag.report.err" ||
		{ fail "$tag-report" "$(head -c 300 "$T_TMP/$tag.report.err")"; return 1; }
	python3 "$TRUTH_H/truth.py" "$name" "$tag" "$T_TMP/$tag.truth.json" "$T_TMP/$tag.bt.out" \
		"$T_TMP/$tag.jbd2.before" "$T_TMP/$tag.jbd2.after" "$TRUTH_TOP" >"$T_TMP/$tag.judged" 2>&1
	grep -v '^FIG ' "$T_TMP/$tag.judged"
	grep -q '^FAIL' "$T_TMP/$tag.judged" && T_FAILS=$((T_FAILS + $(grep -c '^FAIL' "$T_TMP/$tag.judged")))
	grep -q '^\(PASS\|FAIL\) ' "$T_TMP/$tag.judged" ||
		fail "$tag-judge" "$(tail -3 "$T_TMP/$tag.judged")"
	# the figures, for VERBOSE=1 runs and the closing note
	sed -n 's/^FIG /# truth: /p' "$T_TMP/$tag.judged" >&2
	if [ -n "${TRUTH_FIGURES:-}" ]; then
		echo "CMD $tag $(tr '\n\t' '  ' <"$T_TMP/$tag.work" | tr -s ' ')" >>"$TRUTH_FIGURES"
		grep '^FIG ' "$T_TMP/$tag.judged" >>"$TRUTH_FIGURES"
	fi
	[ -z "${TRUTH_KEEP:-}" ] || cp "$T_TMP/$tag".* "$TRUTH_KEEP/"
	truth_block_hook "$tag"
	return 0
}

truth_block_hook() {
	:
}
