#!/bin/bash
# fslens record on a scratch XFS against the kernel's own XFS tracepoint
# output: an ftrace instance (trace_clock mono, filtered to the scratch fs's
# dev) records the same xfs tracepoints while fslens records a workload of
# fsyncs, creates in several directories, a cold re-read and deletes. Every
# event type must have the same count in both, and every number the kernel
# prints (hex included) must equal the field of the same name, as multisets
# (but a buffer's hold, lock and pin counts, which other CPUs change between
# the kernel filling ftrace's record and the BPF program's: 1 of 5755
# xfs_buf_read records differed in hold in one run).
# Also: no ext4/jbd2 program is loaded for an XFS target, and the recorder
# no longer says the journal and alloc families need ext4; the trace's xfs.*
# geometry equals the superblock as xfs_db prints it.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
Q=$T_BUILD
Q=$Q/tests/trace_query
TR=/sys/kernel/tracing
[ -d $TR/events/xfs ] || { skip all "this kernel has no XFS tracepoints"; exit 0; }
command -v mkfs.xfs >/dev/null || { skip all "no mkfs.xfs"; exit 0; }

# 4 AGs so inode and data allocations spread over several
scratch_fs 320 xfs -d agcount=4 || { fail setup "cannot make scratch xfs"; exit 1; }
M=$SCRATCH_MNT
mkdir "$M/old"
for i in $(seq 1 40); do echo x >"$M/old/f$i"; done
sync
ma=${SCRATCH_DEV%:*}; mi=${SCRATCH_DEV#*:}
kdev=$(( (ma << 20) | mi ))

INST=$TR/instances/fslens_xfs_$$
mkdir "$INST" || { fail setup "cannot create an ftrace instance"; exit 1; }
at_exit "echo 0 > $INST/tracing_on; rmdir $INST"
echo mono >"$INST/trace_clock"
echo 16384 >"$INST/buffer_size_kb"
EVENTS="xfs_log_force xlog_iclog_wait_on xlog_iclog_sync xlog_iclog_sync_done
xfs_log_grant_sleep xfs_log_grant_wake xfs_ail_push xfs_ail_pinned xfs_ail_locked
xfs_ail_flushing xfs_buf_read xfs_buf_lock xfs_buf_lock_done xfs_file_fsync
xfs_alloc_vextent_finish xfs_ialloc_read_agi xfs_iomap_alloc xfs_iomap_found
xfs_map_blocks_alloc xfs_map_blocks_found"
for e in $EVENTS; do
	[ -d "$INST/events/xfs/$e" ] || continue
	echo "dev == $kdev" >"$INST/events/xfs/$e/filter" 2>/dev/null
	echo 1 >"$INST/events/xfs/$e/enable"
done
echo 1 >"$INST/tracing_on"

"$FSLENS" record -v -m "$M" -e journal,alloc -f -o "$T_TMP/t.trace" -- sh -c "
	for i in \$(seq 1 60); do
		dd if=/dev/zero of=$M/s\$i bs=4k count=3 conv=fsync status=none
	done
	for d in 1 2 3 4; do
		mkdir $M/d\$d
		for i in \$(seq 1 100); do echo data > $M/d\$d/f\$i; done
	done
	dd if=/dev/zero of=$M/big bs=1M count=8 status=none
	sync
	echo 3 > /proc/sys/vm/drop_caches
	cat $M/big $M/d*/f* >/dev/null
	ls -l $M/old >/dev/null
	rm -f $M/old/f*
	sync" 2>"$T_TMP/rec.err"
check_eq record_exit $? 0
echo 0 >"$INST/tracing_on"
cat "$INST/trace" >"$T_TMP/ftrace"
check_cmd ftrace_not_overrun test "$(grep -c 'LOST' "$T_TMP/ftrace")" -eq 0

# the families are XFS's here: nothing said about needing ext4
if grep -q "not ext4" "$T_TMP/rec.err"; then
	fail no_ext4_note "$(grep "not ext4" "$T_TMP/rec.err")"
else
	pass no_ext4_note
fi
# only XFS programs of the journal and alloc families were loaded: no ext4 or jbd2 record
n=$("$FSLENS" dump "$T_TMP/t.trace" | awk '$5 ~ /^(ext4|jbd2)_/' | wc -l)
check_eq no_ext4_records "$n" 0

# geometry (XFS_IOC_FSGEOMETRY) against the on-disk superblock as xfs_db reads it
xfs_db -r -c "sb 0" -c "p blocksize agcount agblocks agblklog inodesize inopblock logblocks \
	logstart unit width dblocks" "$SCRATCH_LOOP" >"$T_TMP/sb" 2>&1
for kv in block_size=blocksize ag_count=agcount ag_blocks=agblocks ag_block_log=agblklog \
	  inode_size=inodesize inodes_per_block=inopblock log_blocks=logblocks \
	  log_start=logstart stripe_unit=unit stripe_width=width data_blocks=dblocks; do
	ours=$("$Q" "$T_TMP/t.trace" kv "xfs.${kv%=*}")
	truth=$(awk -v k="${kv#*=}" '$1 == k { print $3 }' "$T_TMP/sb")
	check_eq "geometry_${kv%=*}" "${ours:-none}" "${truth:-no $kv in xfs_db}"
done
check_eq geometry_inodes_per_chunk "$("$Q" "$T_TMP/t.trace" kv xfs.inodes_per_chunk)" 64

start=$("$Q" "$T_TMP/t.trace" kv record.start_ns)
end=$("$Q" "$T_TMP/t.trace" kv record.end_ns)
: >"$T_TMP/ours"
for n in $EVENTS; do
	"$Q" "$T_TMP/t.trace" events "$n" 2>/dev/null | sed "s/^/$n /" >>"$T_TMP/ours"
done
hz=$("$Q" "$T_TMP/t.trace" kv host.hz)
python3 "$(dirname "$0")/../helpers/ftrace_cmp.py" "$T_TMP/ftrace" "$T_TMP/ours" "$start" "$end" \
	"$hz" --hex --racy hold,lock,pincount >"$T_TMP/cmp"
sed "s/^/xfs: /" "$T_TMP/cmp" >&2
while read -r name res n; do
	check_eq "same_as_kernel_$name" "$res" ok
done <"$T_TMP/cmp"
# what the workload must have caused (fsyncs force the log and wait on iclogs,
# creates read AGIs, cold reads map extents and read metadata buffers)
for must in xfs_log_force xlog_iclog_wait_on xlog_iclog_sync_done xfs_file_fsync xfs_buf_read \
	    xfs_alloc_vextent_finish xfs_ialloc_read_agi xfs_iomap_alloc xfs_iomap_found \
	    xfs_map_blocks_alloc; do
	n=$(awk -v e=$must '$1 == e { print $3 }' "$T_TMP/cmp")
	check_ge "compared_$must" "${n:-0}" 1
done
n=$(awk '$1 == "xfs_file_fsync" { print $3 }' "$T_TMP/cmp")
check_ge fsyncs_seen "${n:-0}" 60
exit $((T_FAILS > 0))
