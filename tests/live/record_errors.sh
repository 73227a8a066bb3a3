#!/bin/bash
# fslens record's edges: usage errors, never overwriting without -f, a
# mount that is not ext4, an unwritable output, a full disk (partial trace
# kept and readable), Ctrl-C closing cleanly, the command's exit status,
# -p filtering, and the raw_tp fallback path.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
Q=$T_BUILD
Q=$Q/tests/trace_query
cd "$T_TMP" || exit 1

# usage errors are exit 2 and name the problem
"$FSLENS" record -e block,bogus -o x.trace -- true 2>err; rc=$?
check_eq bad_family_rc "$rc" 2
check_grep bad_family_msg "unknown event family 'bogus'" err
"$FSLENS" record --ring-size 0 -- true 2>err; check_eq bad_ring_rc $? 2
"$FSLENS" record -m /nonexistent -- true 2>err; rc=$?
check_eq bad_mount_rc "$rc" 1
check_grep bad_mount_msg "cannot use '/nonexistent': No such file or directory" err

# never overwrite silently; -f does
echo keep >exists.trace
"$FSLENS" record -e block -o exists.trace -- true 2>err; rc=$?
check_eq exists_rc "$rc" 1
check_grep exists_msg "'exists.trace' exists; use -f" err
check_eq exists_untouched "$(cat exists.trace)" keep

# the command's status is record's status; the trace is complete
"$FSLENS" record -e dirops,proc -f -o exists.trace -- sh -c 'exit 7' 2>err
check_eq command_status $? 7
"$Q" exists.trace stats >st
check_grep force_overwrote '^complete=1 ' st
check_eq force_nothing_beside "$(ls -A | grep -c '^\.exists\.trace\.')" 0

# -f over a trace, and the recording fails to start (the probes cannot load,
# the command cannot start: too few file descriptors): the old trace stays
# byte for byte, and nothing is left beside it
cp exists.trace keep.trace
failed=0
for n in 12 16 20 24 28 32 36 40; do
	cp keep.trace exists.trace
	(ulimit -n $n; "$FSLENS" record -e block -f -o exists.trace -- true) >out 2>err
	rc=$?
	grep -q 'recording' err && continue	# it started: the trace is the new one
	failed=$((failed + 1))
	check_eq "force_failed_start_rc.$n" "$rc" 1
	check_cmd "force_failed_start_keeps_old.$n" cmp -s keep.trace exists.trace
	check_eq "force_failed_start_nothing_beside.$n" "$(ls -A | grep -c '^\.exists\.trace\.')" 0
done
check_ge force_failed_starts "$failed" 1

# output not writable
"$FSLENS" record -e block -o /proc/nope/x.trace -- true 2>err; rc=$?
check_eq unwritable_rc "$rc" 1
check_grep unwritable_msg "cannot create '/proc/nope/x.trace'" err

# neither ext4 nor xfs: say what still works, record it
mkdir tm && mount -t tmpfs -o size=8m tmpfs tm && at_exit "umount -l $T_TMP/tm"
"$FSLENS" record -m tm -e block,dirops,alloc,journal -o tm.trace -- \
	sh -c "echo hi > $T_TMP/tm/a" 2>err; rc=$?
check_eq not_ext4_rc "$rc" 0
check_grep not_ext4_msg "tmpfs, not ext4 or xfs: the journal and alloc families need one of those; still recording" err
check_grep not_ext4_noblk_msg "has no block device: the block and writeback families cannot apply" err
check_eq not_ext4_families "$("$Q" tm.trace kv record.families)" "dirops"
check_grep not_ext4_dirop 'path=.*/tm/a' <("$Q" tm.trace events dirop)

# a full disk: a clear error, the chunks written so far still read, and the
# workload untouched: it runs to its end, gets no signal, its status is record's
mkdir full && mount -t tmpfs -o size=256k tmpfs full && at_exit "umount -l $T_TMP/full"
"$FSLENS" record -e dirops,proc -o full/f.trace -- \
	sh -c 'trap "echo GOT TERM >&2" TERM; i=0; while [ $i -lt 200000 ]; do test -e /nonexistent$i; i=$((i + 1)); done; echo ran-to-end >"$0"; exit 3' "$T_TMP/full.done" \
	2>err; rc=$?
check_eq disk_full_rc "$rc" 3
check_eq disk_full_workload_ran "$(cat "$T_TMP/full.done" 2>/dev/null)" ran-to-end
check_eq disk_full_no_term "$(grep -c 'GOT TERM' err)" 0
# (the disk fills during the recording, or else at the final flush)
check_grep disk_full_msg "^fslens: cannot write 'full/f.trace': No space left on device(, [0-9.]+ s into the recording; the trace keeps the chunks written before, what comes after is only counted; the command runs on to its end| at the end of the recording)$" err
check_eq disk_full_said_once "$(grep -c 'No space left on device' err)" 1
grep -v '^fslens record: recording' err | head -5 | sed 's/^/# /' 
check_grep disk_full_lost "^fslens: 'full/f.trace' is incomplete: the chunks written before the failure stay readable(; [1-9][0-9]* events after it were not written)?$" err
"$Q" full/f.trace stats >fst 2>&1
nread=$(sed -n 's/^complete=[01] read=\([0-9]*\) read_error=0 .*/\1/p' fst)
check_ge disk_full_partial_readable "${nread:-0}" 1

# Ctrl-C (SIGINT) without a command closes the trace cleanly
"$FSLENS" record -e block,offcpu -o int.trace 2>err &
rpid=$!
sleep 1.5
kill -INT $rpid
wait $rpid; rc=$?
check_eq sigint_rc "$rc" 0
"$Q" int.trace stats >ist
check_grep sigint_complete '^complete=1 .*read_error=0' ist

# -p: only that process's dirops (the shell opens /dev/null for the redirect;
# cat, a child with its own tgid, is not followed with -p)
sh -c 'sleep 0.6; cat /etc/hostname > /dev/null; sleep 0.6' &
tpid=$!
"$FSLENS" record -e dirops -p $tpid --duration 1.5 -o p.trace 2>err
check_eq pid_rc $? 0
wait $tpid
"$Q" p.trace events dirop >pev
check_grep pid_sees_target "pid=$tpid .*op=1 .*path=/dev/null" pev
check_eq pid_not_child "$(grep -c 'path=/etc/hostname' pev)" 0
others=$(grep -vc "pid=$tpid " pev)
check_eq pid_only_target "$others" 0

# not root: name what is needed
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$FSLENS" record -e block -o /tmp/nobody.trace -- true 2>err; rc=$?
	check_eq not_root_rc "$rc" 1
	check_grep not_root_msg 'needs root, or CAP_BPF and CAP_PERFMON' err
fi

# SIGKILL: the file still opens, every complete chunk reads, and the
# recorder's flush every second keeps all but the last reorder window (2 s)
# plus one flush period: a slow steady workload (~20 stats a second, far
# under a chunk) must be on disk up to ~3 s before the kill
"$FSLENS" record -e dirops,proc -o kill.trace -- \
	sh -c 'i=0; while :; do test -e /nonexistent$i; i=$((i + 1)); sleep 0.05; done' 2>err &
rpid=$!
sleep 8
# the workload's pids now: once the recorder dies they are init's children
# and pkill -P finds none (a leaked loop keeps the live-test lock fd open)
wpids=$(pgrep -P $rpid)
kill_ns=$(python3 -c 'import time; print(time.monotonic_ns())')
kill -KILL $rpid
if [ -n "$wpids" ]; then kill -KILL $wpids 2>/dev/null; fi
wait $rpid 2>/dev/null
"$Q" kill.trace stats >kst 2>kerr
check_grep sigkill_reads '^complete=0 read=[1-9][0-9]* read_error=0' kst
"$Q" kill.trace events dirop 2>/dev/null | grep 'path=/nonexistent' |
	sed 's/^ts=\([0-9]*\) .*/\1/' | sort -n >kts
first_ns=$(head -1 kts)
last_ns=$(tail -1 kts)
start_ns=$("$Q" kill.trace kv record.start_ns)
check_ge sigkill_events_flushed "$(wc -l <kts)" 20
# the last event on disk is at most window + flush period + 0.5 s before the kill
check_ge sigkill_loses_under_3s5 "$(( (${last_ns:-0} - kill_ns + 3500000000) ))" 0
# and the events run from the command's start (within 1 s of recording start)
check_ge sigkill_from_start "$(( 1000000000 - (${first_ns:-0} - ${start_ns:-0}) ))" 0

# raw_tp fallback: forced, still records the raw-tracepoint families
"$FSLENS" record --raw-tp -e block,dirops,offcpu,proc -o raw.trace -- \
	sh -c "cat /etc/hostname > /dev/null" 2>err
check_eq raw_rc $? 0
check_grep raw_mode_said 'probes: raw_tp' err
check_eq raw_mode_stored "$("$Q" raw.trace kv record.attach | cut -d' ' -f1)" raw_tp
check_grep raw_dirop 'path=/etc/hostname' <("$Q" raw.trace events dirop)

# --syscall-tp: dirops on per-syscall tracepoints gives the same records
mkdir -p sctp
"$FSLENS" record --syscall-tp -e dirops -o sctp.trace -- \
	sh -c 'for i in 1 2 3 4 5; do : > sctp/f$i; done; ls sctp > /dev/null; stat sctp/f1 > /dev/null' 2>err
check_eq sctp_rc $? 0
check_grep sctp_mode_stored 'dirops on per-syscall tracepoints' <("$Q" sctp.trace kv record.attach)
check_eq sctp_creates "$("$Q" sctp.trace events dirop | grep -c ' op=1 .*path=sctp/f[1-5] ')" 5	# op 1: create
check_grep sctp_stat ' op=9 .*path=sctp/f1 ' <("$Q" sctp.trace events dirop)	# op 9: stat
exit $((T_FAILS > 0))
