#!/bin/bash
# The probes' records against the kernel's own tracepoint output: an ftrace
# instance (trace_clock mono, filtered to the scratch fs) records the same
# ext4/jbd2/block tracepoints while fslens records a mixed workload. Every
# event type must have the same count in both, and every numeric field the
# kernel prints must equal the field of the same name in the trace, record
# by record. This is what keeps the tp_btf/raw_tp derivations honest.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
Q=$T_BUILD
Q=$Q/tests/trace_query
TR=/sys/kernel/tracing

scratch_fs 128 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
mount -o remount,commit=60 "$SCRATCH_MNT" || { fail setup "remount"; exit 1; }
M=$SCRATCH_MNT
mkdir "$M/b"
for i in $(seq 1 30); do echo x >"$M/b/old${i}1"; echo x >"$M/b/old${i}2"; done
sync
ma=${SCRATCH_DEV%:*}; mi=${SCRATCH_DEV#*:}
kdev=$(( (ma << 20) | mi ))

INST=$TR/instances/fslens_test_$$
mkdir "$INST" || { fail setup "cannot create an ftrace instance"; exit 1; }
at_exit "echo 0 > $INST/tracing_on; rmdir $INST"
echo mono >"$INST/trace_clock"
echo 8192 >"$INST/buffer_size_kb"
EVENTS="ext4/ext4_request_inode ext4/ext4_allocate_inode ext4/ext4_free_inode
ext4/ext4_request_blocks ext4/ext4_allocate_blocks ext4/ext4_mballoc_alloc
ext4/ext4_mballoc_prealloc ext4/ext4_mb_new_inode_pa ext4/ext4_mb_new_group_pa
ext4/ext4_mb_release_inode_pa ext4/ext4_mb_release_group_pa
ext4/ext4_free_blocks ext4/ext4_mballoc_free ext4/ext4_ext_map_blocks_exit
ext4/ext4_writepages ext4/ext4_da_write_folios_start ext4/ext4_da_write_folios_end
ext4/ext4_da_write_pages_extent ext4/ext4_sync_file_enter ext4/ext4_sync_file_exit
ext4/ext4_unlink_enter ext4/ext4_unlink_exit ext4/ext4_load_inode
ext4/ext4_journal_start_inode ext4/ext4_journal_start_sb
jbd2/jbd2_start_commit jbd2/jbd2_commit_locking jbd2/jbd2_commit_flushing
jbd2/jbd2_commit_logging jbd2/jbd2_end_commit jbd2/jbd2_run_stats
jbd2/jbd2_handle_start jbd2/jbd2_handle_stats jbd2/jbd2_checkpoint_stats
jbd2/jbd2_update_log_tail block/block_rq_issue block/block_rq_complete"
for e in $EVENTS; do
	[ -d "$INST/events/$e" ] || continue
	echo "dev == $kdev" >"$INST/events/$e/filter" 2>/dev/null
	echo 1 >"$INST/events/$e/enable"
done
# both ways of attaching: tp_btf (the default) and the classic tracepoints
run=0
for mode in "" --classic-tp; do
run=$((run + 1))
tag=${mode:-tp_btf}
mkdir "$M/a$run"
echo >"$INST/trace"
echo 1 >"$INST/tracing_on"

"$FSLENS" record --full $mode -m "$M" -e block,journal,alloc -f -o "$T_TMP/t.trace" -- sh -c "
	dd if=/dev/zero of=$M/a$run/big bs=1M count=6 conv=fsync status=none
	for i in \$(seq 1 150); do echo data > $M/a$run/f\$i; done
	mkdir $M/a$run/d1 $M/a$run/d2
	rm -f $M/b/old*$run
	sync" 2>"$T_TMP/rec.err"
check_eq record_exit$run $? 0
echo 0 >"$INST/tracing_on"
cat "$INST/trace" >"$T_TMP/ftrace"
check_cmd ftrace_not_overrun$run test "$(grep -c 'LOST' "$T_TMP/ftrace")" -eq 0

start=$("$Q" "$T_TMP/t.trace" kv record.start_ns)
end=$("$Q" "$T_TMP/t.trace" kv record.end_ns)
: >"$T_TMP/ours"
for e in $EVENTS; do
	n=${e#*/}
	"$Q" "$T_TMP/t.trace" events "$n" 2>/dev/null | sed "s/^/$n /" >>"$T_TMP/ours"
done
hz=$("$Q" "$T_TMP/t.trace" kv host.hz)
python3 "$(dirname "$0")/../helpers/ftrace_cmp.py" "$T_TMP/ftrace" "$T_TMP/ours" "$start" "$end" \
	"$hz" >"$T_TMP/cmp"
sed "s/^/$tag: /" "$T_TMP/cmp" >&2
while read -r name res n; do
	check_eq "same_as_kernel${run}_$name" "$res" ok
done <"$T_TMP/cmp"
for must in ext4_allocate_inode ext4_ext_map_blocks_exit jbd2_end_commit jbd2_handle_stats \
	    ext4_mballoc_alloc ext4_free_blocks block_rq_complete ext4_journal_start_inode; do
	n=$(awk -v e=$must '$1 == e { print $3 }' "$T_TMP/cmp")
	check_ge "compared${run}_$must" "${n:-0}" 1
done
want=", tracepoint 0[)]"
[ -n "$mode" ] && want=", tracepoint [1-9][0-9]*[)]"
"$Q" "$T_TMP/t.trace" kv record.attach >"$T_TMP/attach"
check_grep "attached_as_$run" "$want\$" "$T_TMP/attach"
done
exit $((T_FAILS > 0))
