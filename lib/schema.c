// SPDX-License-Identifier: GPL-2.0
/* The built-in event schema: one row per event type of include/fslens/event.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "fslens/schema.h"

/* Rows name only the fields they have; the rest of fields[] stays zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define F(st, fld, k) { #fld, offsetof(struct st, fld), sizeof(((struct st *)0)->fld), FSL_F_##k }
#define FN(st, fld, nm, k) { nm, offsetof(struct st, fld), sizeof(((struct st *)0)->fld), FSL_F_##k }

#define BLOCK_RQ(id, nm) \
	{ id, FSL_FAM_BLOCK, 8, sizeof(struct fsl_ev_block_rq), nm, "block", { \
	F(fsl_ev_block_rq, dev, DEV), F(fsl_ev_block_rq, sector, U64), \
	F(fsl_ev_block_rq, nr_sector, U32), F(fsl_ev_block_rq, bytes, U32), \
	F(fsl_ev_block_rq, flags, U32), F(fsl_ev_block_rq, error, S32), \
	F(fsl_ev_block_rq, rq, HEX), FN(fsl_ev_block_rq, hdr.cpu, "cpu", U16) } }

#define BLOCK_BIO(id, nm) \
	{ id, FSL_FAM_BLOCK, 6, sizeof(struct fsl_ev_block_bio), nm, "block", { \
	F(fsl_ev_block_bio, dev, DEV), F(fsl_ev_block_bio, sector, U64), \
	F(fsl_ev_block_bio, nr_sector, U32), F(fsl_ev_block_bio, flags, U32), \
	F(fsl_ev_block_bio, error, S32), FN(fsl_ev_block_bio, hdr.cpu, "cpu", U16) } }

#define JBD2_COMMIT(id, nm) \
	{ id, FSL_FAM_JOURNAL, 4, sizeof(struct fsl_ev_jbd2_commit), nm, "jbd2", { \
	F(fsl_ev_jbd2_commit, dev, DEV), F(fsl_ev_jbd2_commit, transaction, U32), \
	F(fsl_ev_jbd2_commit, sync_commit, U8X), F(fsl_ev_jbd2_commit, head, U32) } }

#define JSTART(id, nm) \
	{ id, FSL_FAM_JOURNAL, 7, sizeof(struct fsl_ev_ext4_journal_start), nm, "ext4", { \
	F(fsl_ev_ext4_journal_start, dev, DEV), F(fsl_ev_ext4_journal_start, ino, U64), \
	F(fsl_ev_ext4_journal_start, ip, HEX), F(fsl_ev_ext4_journal_start, blocks, S32), \
	F(fsl_ev_ext4_journal_start, rsv_blocks, S32), \
	F(fsl_ev_ext4_journal_start, revoke_creds, S32), F(fsl_ev_ext4_journal_start, type, S32) } }

#define WB_WORK(id, nm) \
	{ id, FSL_FAM_WRITEBACK, 9, sizeof(struct fsl_ev_writeback_work), nm, "writeback", { \
	F(fsl_ev_writeback_work, dev, DEV), F(fsl_ev_writeback_work, sb_dev, DEV), \
	F(fsl_ev_writeback_work, nr_pages, S64), F(fsl_ev_writeback_work, sync_mode, S32), \
	F(fsl_ev_writeback_work, for_kupdate, S32), F(fsl_ev_writeback_work, range_cyclic, S32), \
	F(fsl_ev_writeback_work, for_background, S32), F(fsl_ev_writeback_work, reason, S32), \
	F(fsl_ev_writeback_work, cgroup_ino, U64) } }

#define WB_SINGLE(id, nm) \
	{ id, FSL_FAM_WRITEBACK, 8, sizeof(struct fsl_ev_writeback_single_inode), nm, "writeback", { \
	F(fsl_ev_writeback_single_inode, dev, DEV), F(fsl_ev_writeback_single_inode, ino, U64), \
	F(fsl_ev_writeback_single_inode, state, HEX), \
	F(fsl_ev_writeback_single_inode, dirtied_when, U64), \
	F(fsl_ev_writeback_single_inode, writeback_index, U64), \
	F(fsl_ev_writeback_single_inode, nr_to_write, S64), \
	F(fsl_ev_writeback_single_inode, wrote, U64), \
	F(fsl_ev_writeback_single_inode, cgroup_ino, U64) } }

#define ALLOC_BLOCKS(id, nm) \
	{ id, FSL_FAM_ALLOC, 11, sizeof(struct fsl_ev_ext4_alloc_blocks), nm, "ext4", { \
	F(fsl_ev_ext4_alloc_blocks, dev, DEV), F(fsl_ev_ext4_alloc_blocks, ino, U64), \
	F(fsl_ev_ext4_alloc_blocks, block, U64), F(fsl_ev_ext4_alloc_blocks, len, U32), \
	F(fsl_ev_ext4_alloc_blocks, logical, U32), F(fsl_ev_ext4_alloc_blocks, lleft, U32), \
	F(fsl_ev_ext4_alloc_blocks, lright, U32), F(fsl_ev_ext4_alloc_blocks, goal, U64), \
	F(fsl_ev_ext4_alloc_blocks, pleft, U64), F(fsl_ev_ext4_alloc_blocks, pright, U64), \
	F(fsl_ev_ext4_alloc_blocks, flags, HEX) } }

#define MBALLOC(id, nm) \
	{ id, FSL_FAM_ALLOC, 20, sizeof(struct fsl_ev_ext4_mballoc_alloc), nm, "ext4", { \
	F(fsl_ev_ext4_mballoc_alloc, dev, DEV), F(fsl_ev_ext4_mballoc_alloc, ino, U64), \
	F(fsl_ev_ext4_mballoc_alloc, orig_logical, U32), F(fsl_ev_ext4_mballoc_alloc, orig_start, S32), \
	F(fsl_ev_ext4_mballoc_alloc, orig_group, U32), F(fsl_ev_ext4_mballoc_alloc, orig_len, S32), \
	F(fsl_ev_ext4_mballoc_alloc, goal_logical, U32), F(fsl_ev_ext4_mballoc_alloc, goal_start, S32), \
	F(fsl_ev_ext4_mballoc_alloc, goal_group, U32), F(fsl_ev_ext4_mballoc_alloc, goal_len, S32), \
	F(fsl_ev_ext4_mballoc_alloc, result_logical, U32), \
	F(fsl_ev_ext4_mballoc_alloc, result_start, S32), \
	F(fsl_ev_ext4_mballoc_alloc, result_group, U32), F(fsl_ev_ext4_mballoc_alloc, result_len, S32), \
	F(fsl_ev_ext4_mballoc_alloc, found, U16), F(fsl_ev_ext4_mballoc_alloc, groups, U16), \
	F(fsl_ev_ext4_mballoc_alloc, buddy, U16), F(fsl_ev_ext4_mballoc_alloc, flags, HEX), \
	F(fsl_ev_ext4_mballoc_alloc, tail, U16), F(fsl_ev_ext4_mballoc_alloc, cr, U8X) } }

#define PA(id, nm) \
	{ id, FSL_FAM_ALLOC, 5, sizeof(struct fsl_ev_ext4_pa), nm, "ext4", { \
	F(fsl_ev_ext4_pa, dev, DEV), F(fsl_ev_ext4_pa, ino, U64), \
	F(fsl_ev_ext4_pa, pa_pstart, U64), F(fsl_ev_ext4_pa, pa_lstart, U64), \
	F(fsl_ev_ext4_pa, pa_len, U32) } }

#define MB_FREE(id, nm) \
	{ id, FSL_FAM_ALLOC, 5, sizeof(struct fsl_ev_ext4_mballoc_free), nm, "ext4", { \
	F(fsl_ev_ext4_mballoc_free, dev, DEV), F(fsl_ev_ext4_mballoc_free, ino, U64), \
	F(fsl_ev_ext4_mballoc_free, result_start, S32), \
	F(fsl_ev_ext4_mballoc_free, result_group, U32), F(fsl_ev_ext4_mballoc_free, result_len, S32) } }

#define INODE(id, nm) \
	{ id, FSL_FAM_ALLOC, 7, sizeof(struct fsl_ev_ext4_inode), nm, "ext4", { \
	F(fsl_ev_ext4_inode, dev, DEV), F(fsl_ev_ext4_inode, ino, U64), \
	F(fsl_ev_ext4_inode, dir, U64), F(fsl_ev_ext4_inode, mode, HEX), \
	F(fsl_ev_ext4_inode, uid, U32), F(fsl_ev_ext4_inode, gid, U32), \
	F(fsl_ev_ext4_inode, blocks, U64) } }

#define DA_WRITE(id, nm) \
	{ id, FSL_FAM_ALLOC, 7, sizeof(struct fsl_ev_ext4_da_write), nm, "ext4", { \
	F(fsl_ev_ext4_da_write, dev, DEV), F(fsl_ev_ext4_da_write, ino, U64), \
	F(fsl_ev_ext4_da_write, start_pos, S64), F(fsl_ev_ext4_da_write, next_pos, S64), \
	F(fsl_ev_ext4_da_write, nr_to_write, S64), F(fsl_ev_ext4_da_write, sync_mode, S32), \
	F(fsl_ev_ext4_da_write, ret, S32) } }

#define GROUP_LOAD(id, nm) \
	{ id, FSL_FAM_ALLOC, 3, sizeof(struct fsl_ev_ext4_group_load), nm, "ext4", { \
	F(fsl_ev_ext4_group_load, dev, DEV), F(fsl_ev_ext4_group_load, group, U32), \
	F(fsl_ev_ext4_group_load, prefetch, U8X) } }

#define FILE_OP(id, nm) \
	{ id, FSL_FAM_ALLOC, 6, sizeof(struct fsl_ev_ext4_file_op), nm, "ext4", { \
	F(fsl_ev_ext4_file_op, dev, DEV), F(fsl_ev_ext4_file_op, ino, U64), \
	F(fsl_ev_ext4_file_op, parent, U64), F(fsl_ev_ext4_file_op, size, S64), \
	F(fsl_ev_ext4_file_op, datasync, S32), F(fsl_ev_ext4_file_op, ret, S32) } }

#define XLOG_ICLOG(id, nm) \
	{ id, FSL_FAM_JOURNAL, 7, sizeof(struct fsl_ev_xlog_iclog), nm, "xfs", { \
	F(fsl_ev_xlog_iclog, dev, DEV), F(fsl_ev_xlog_iclog, state, U32), \
	F(fsl_ev_xlog_iclog, refcount, S32), F(fsl_ev_xlog_iclog, offset, U32), \
	F(fsl_ev_xlog_iclog, flags, HEX), F(fsl_ev_xlog_iclog, lsn, HEX), \
	F(fsl_ev_xlog_iclog, caller_ip, HEX) } }

#define XFS_GRANT(id, nm) \
	{ id, FSL_FAM_JOURNAL, 14, sizeof(struct fsl_ev_xfs_log_grant), nm, "xfs", { \
	F(fsl_ev_xfs_log_grant, dev, DEV), F(fsl_ev_xfs_log_grant, curr_res, S32), \
	F(fsl_ev_xfs_log_grant, unit_res, S32), F(fsl_ev_xfs_log_grant, flags, HEX), \
	F(fsl_ev_xfs_log_grant, reserveq, S32), F(fsl_ev_xfs_log_grant, writeq, S32), \
	F(fsl_ev_xfs_log_grant, grant_reserve_bytes, U64), \
	F(fsl_ev_xfs_log_grant, grant_write_bytes, U64), \
	F(fsl_ev_xfs_log_grant, tail_space, U64), F(fsl_ev_xfs_log_grant, curr_cycle, S32), \
	F(fsl_ev_xfs_log_grant, curr_block, S32), F(fsl_ev_xfs_log_grant, tail_lsn, HEX), \
	F(fsl_ev_xfs_log_grant, ocnt, U8X), F(fsl_ev_xfs_log_grant, cnt, U8X) } }

#define XFS_AIL(id, nm) \
	{ id, FSL_FAM_JOURNAL, 4, sizeof(struct fsl_ev_xfs_ail), nm, "xfs", { \
	F(fsl_ev_xfs_ail, dev, DEV), F(fsl_ev_xfs_ail, type, U32), \
	F(fsl_ev_xfs_ail, flags, HEX), F(fsl_ev_xfs_ail, lsn, HEX) } }

#define XFS_BUF(id, nm) \
	{ id, FSL_FAM_JOURNAL, 8, sizeof(struct fsl_ev_xfs_buf), nm, "xfs", { \
	F(fsl_ev_xfs_buf, dev, DEV), F(fsl_ev_xfs_buf, bno, U64), \
	F(fsl_ev_xfs_buf, length, U32), F(fsl_ev_xfs_buf, hold, S32), \
	F(fsl_ev_xfs_buf, pincount, S32), F(fsl_ev_xfs_buf, lockval, U32), \
	F(fsl_ev_xfs_buf, flags, HEX), F(fsl_ev_xfs_buf, caller_ip, HEX) } }

#define XFS_IMAP(id, nm) \
	{ id, FSL_FAM_ALLOC, 9, sizeof(struct fsl_ev_xfs_imap), nm, "xfs", { \
	F(fsl_ev_xfs_imap, dev, DEV), F(fsl_ev_xfs_imap, ino, U64), \
	F(fsl_ev_xfs_imap, size, S64), F(fsl_ev_xfs_imap, offset, S64), \
	F(fsl_ev_xfs_imap, count, U64), F(fsl_ev_xfs_imap, whichfork, S32), \
	F(fsl_ev_xfs_imap, startoff, U64), F(fsl_ev_xfs_imap, startblock, U64), \
	F(fsl_ev_xfs_imap, blockcount, U64) } }

#define XFS_DIRNAME(id, nm) \
	{ id, FSL_FAM_ALLOC, 7, sizeof(struct fsl_ev_xfs_dirname), nm, "xfs", { \
	F(fsl_ev_xfs_dirname, dev, DEV), F(fsl_ev_xfs_dirname, dir, U64), \
	F(fsl_ev_xfs_dirname, name, COMM), F(fsl_ev_xfs_dirname, namelen, S32), \
	F(fsl_ev_xfs_dirname, hashval, HEX), F(fsl_ev_xfs_dirname, inumber, U64), \
	F(fsl_ev_xfs_dirname, op_flags, HEX) } }

#define XFS_IREC(id, nm) \
	{ id, FSL_FAM_ALLOC, 6, sizeof(struct fsl_ev_xfs_irec), nm, "xfs", { \
	F(fsl_ev_xfs_irec, dev, DEV), F(fsl_ev_xfs_irec, agno, HEX), \
	F(fsl_ev_xfs_irec, agino, HEX), F(fsl_ev_xfs_irec, holemask, HEX), \
	F(fsl_ev_xfs_irec, nagino, HEX), F(fsl_ev_xfs_irec, nholemask, HEX) } }

#define XFS_IEXT(id, nm) \
	{ id, FSL_FAM_ALLOC, 9, sizeof(struct fsl_ev_xfs_iext), nm, "xfs", { \
	F(fsl_ev_xfs_iext, dev, DEV), F(fsl_ev_xfs_iext, ino, HEX), \
	F(fsl_ev_xfs_iext, bmap_state, HEX), F(fsl_ev_xfs_iext, pos, S32), \
	F(fsl_ev_xfs_iext, startoff, HEX), F(fsl_ev_xfs_iext, startblock, HEX), \
	F(fsl_ev_xfs_iext, blockcount, HEX), F(fsl_ev_xfs_iext, state, U32), \
	F(fsl_ev_xfs_iext, caller_ip, HEX) } }

static const struct fsl_event_desc table[] = {
	BLOCK_RQ(FSL_EV_BLOCK_RQ_INSERT, "block_rq_insert"),
	BLOCK_RQ(FSL_EV_BLOCK_RQ_ISSUE, "block_rq_issue"),
	BLOCK_RQ(FSL_EV_BLOCK_RQ_COMPLETE, "block_rq_complete"),
	BLOCK_RQ(FSL_EV_BLOCK_RQ_MERGE, "block_rq_merge"),
	BLOCK_BIO(FSL_EV_BLOCK_BIO_QUEUE, "block_bio_queue"),
	BLOCK_BIO(FSL_EV_BLOCK_GETRQ, "block_getrq"),
	BLOCK_BIO(FSL_EV_BLOCK_BIO_BACKMERGE, "block_bio_backmerge"),
	BLOCK_BIO(FSL_EV_BLOCK_BIO_FRONTMERGE, "block_bio_frontmerge"),
	BLOCK_RQ(FSL_EV_BLOCK_RQ_REQUEUE, "block_rq_requeue"),
	{ FSL_EV_BLOCK_SPLIT, FSL_FAM_BLOCK, 6, sizeof(struct fsl_ev_block_split),
	  "block_split", "block", {
	F(fsl_ev_block_split, dev, DEV), F(fsl_ev_block_split, sector, U64),
	F(fsl_ev_block_split, nr_sector, U32), F(fsl_ev_block_split, flags, U32),
	F(fsl_ev_block_split, new_sector, U64), FN(fsl_ev_block_split, hdr.cpu, "cpu", U16) } },
	BLOCK_BIO(FSL_EV_BLOCK_BIO_COMPLETE, "block_bio_complete"),

	JBD2_COMMIT(FSL_EV_JBD2_START_COMMIT, "jbd2_start_commit"),
	JBD2_COMMIT(FSL_EV_JBD2_COMMIT_LOCKING, "jbd2_commit_locking"),
	JBD2_COMMIT(FSL_EV_JBD2_COMMIT_FLUSHING, "jbd2_commit_flushing"),
	JBD2_COMMIT(FSL_EV_JBD2_COMMIT_LOGGING, "jbd2_commit_logging"),
	JBD2_COMMIT(FSL_EV_JBD2_END_COMMIT, "jbd2_end_commit"),
	{ FSL_EV_JBD2_RUN_STATS, FSL_FAM_JOURNAL, 11, sizeof(struct fsl_ev_jbd2_run_stats),
	  "jbd2_run_stats", "jbd2", {
	F(fsl_ev_jbd2_run_stats, dev, DEV), F(fsl_ev_jbd2_run_stats, tid, U32),
	F(fsl_ev_jbd2_run_stats, wait, U64), F(fsl_ev_jbd2_run_stats, request_delay, U64),
	F(fsl_ev_jbd2_run_stats, running, U64), F(fsl_ev_jbd2_run_stats, locked, U64),
	F(fsl_ev_jbd2_run_stats, flushing, U64), F(fsl_ev_jbd2_run_stats, logging, U64),
	F(fsl_ev_jbd2_run_stats, handle_count, U32), F(fsl_ev_jbd2_run_stats, blocks, U32),
	F(fsl_ev_jbd2_run_stats, blocks_logged, U32) } },
	{ FSL_EV_JBD2_HANDLE_START, FSL_FAM_JOURNAL, 6, sizeof(struct fsl_ev_jbd2_handle_start),
	  "jbd2_handle_start", "jbd2", {
	F(fsl_ev_jbd2_handle_start, dev, DEV), F(fsl_ev_jbd2_handle_start, tid, U32),
	F(fsl_ev_jbd2_handle_start, type, U32), F(fsl_ev_jbd2_handle_start, line_no, U32),
	F(fsl_ev_jbd2_handle_start, requested_blocks, S32),
	F(fsl_ev_jbd2_handle_start, flags, U32) } },
	{ FSL_EV_JBD2_HANDLE_STATS, FSL_FAM_JOURNAL, 8, sizeof(struct fsl_ev_jbd2_handle_stats),
	  "jbd2_handle_stats", "jbd2", {
	F(fsl_ev_jbd2_handle_stats, dev, DEV), F(fsl_ev_jbd2_handle_stats, tid, U32),
	F(fsl_ev_jbd2_handle_stats, type, U32), F(fsl_ev_jbd2_handle_stats, line_no, U32),
	F(fsl_ev_jbd2_handle_stats, interval, S32), F(fsl_ev_jbd2_handle_stats, sync, S32),
	F(fsl_ev_jbd2_handle_stats, requested_blocks, S32),
	F(fsl_ev_jbd2_handle_stats, dirtied_blocks, S32) } },
	{ FSL_EV_JBD2_CHECKPOINT, FSL_FAM_JOURNAL, 2, sizeof(struct fsl_ev_jbd2_checkpoint),
	  "jbd2_checkpoint", "jbd2", {
	F(fsl_ev_jbd2_checkpoint, dev, DEV), F(fsl_ev_jbd2_checkpoint, result, S32) } },
	{ FSL_EV_JBD2_CHECKPOINT_STATS, FSL_FAM_JOURNAL, 6,
	  sizeof(struct fsl_ev_jbd2_checkpoint_stats), "jbd2_checkpoint_stats", "jbd2", {
	F(fsl_ev_jbd2_checkpoint_stats, dev, DEV), F(fsl_ev_jbd2_checkpoint_stats, tid, U32),
	F(fsl_ev_jbd2_checkpoint_stats, chp_time, U64),
	F(fsl_ev_jbd2_checkpoint_stats, forced_to_close, U32),
	F(fsl_ev_jbd2_checkpoint_stats, written, U32),
	F(fsl_ev_jbd2_checkpoint_stats, dropped, U32) } },
	{ FSL_EV_JBD2_LOCK_BUFFER_STALL, FSL_FAM_JOURNAL, 2,
	  sizeof(struct fsl_ev_jbd2_lock_buffer_stall), "jbd2_lock_buffer_stall", "jbd2", {
	F(fsl_ev_jbd2_lock_buffer_stall, dev, DEV),
	F(fsl_ev_jbd2_lock_buffer_stall, stall_ms, U64) } },
	{ FSL_EV_JBD2_UPDATE_LOG_TAIL, FSL_FAM_JOURNAL, 5,
	  sizeof(struct fsl_ev_jbd2_update_log_tail), "jbd2_update_log_tail", "jbd2", {
	F(fsl_ev_jbd2_update_log_tail, dev, DEV),
	F(fsl_ev_jbd2_update_log_tail, tail_sequence, U32),
	F(fsl_ev_jbd2_update_log_tail, first_tid, U32),
	F(fsl_ev_jbd2_update_log_tail, block_nr, U64),
	F(fsl_ev_jbd2_update_log_tail, freed, U64) } },
	JSTART(FSL_EV_EXT4_JOURNAL_START_INODE, "ext4_journal_start_inode"),
	JSTART(FSL_EV_EXT4_JOURNAL_START_SB, "ext4_journal_start_sb"),
	{ FSL_EV_JBD2_KICK, FSL_FAM_JOURNAL, 2, sizeof(struct fsl_ev_jbd2_kick), "jbd2_kick",
	  NULL, {
	F(fsl_ev_jbd2_kick, dev, DEV), F(fsl_ev_jbd2_kick, stack_id, S32) } },
	{ FSL_EV_JBD2_HANDLE_AGG, FSL_FAM_JOURNAL, 10, sizeof(struct fsl_ev_jbd2_handle_agg),
	  "jbd2_handle_agg", NULL, {
	F(fsl_ev_jbd2_handle_agg, dev, DEV), F(fsl_ev_jbd2_handle_agg, tid, U32),
	F(fsl_ev_jbd2_handle_agg, type, U32), F(fsl_ev_jbd2_handle_agg, line_no, U32),
	F(fsl_ev_jbd2_handle_agg, started, U32), F(fsl_ev_jbd2_handle_agg, stopped, U32),
	F(fsl_ev_jbd2_handle_agg, blocks, U64), F(fsl_ev_jbd2_handle_agg, wait_ns, U64),
	F(fsl_ev_jbd2_handle_agg, max_ns, U64), F(fsl_ev_jbd2_handle_agg, ip, HEX) } },

	WB_WORK(FSL_EV_WRITEBACK_START, "writeback_start"),
	WB_WORK(FSL_EV_WRITEBACK_WRITTEN, "writeback_written"),
	WB_SINGLE(FSL_EV_WRITEBACK_SINGLE_INODE_START, "writeback_single_inode_start"),
	WB_SINGLE(FSL_EV_WRITEBACK_SINGLE_INODE, "writeback_single_inode"),
	{ FSL_EV_WRITEBACK_DIRTY_INODE, FSL_FAM_WRITEBACK, 4,
	  sizeof(struct fsl_ev_writeback_dirty_inode), "writeback_dirty_inode", "writeback", {
	F(fsl_ev_writeback_dirty_inode, dev, DEV), F(fsl_ev_writeback_dirty_inode, ino, U64),
	F(fsl_ev_writeback_dirty_inode, state, HEX), F(fsl_ev_writeback_dirty_inode, flags, HEX) } },
	{ FSL_EV_BALANCE_DIRTY_PAGES, FSL_FAM_WRITEBACK, 15,
	  sizeof(struct fsl_ev_balance_dirty_pages), "balance_dirty_pages", "writeback", {
	F(fsl_ev_balance_dirty_pages, dev, DEV), F(fsl_ev_balance_dirty_pages, limit, U64),
	F(fsl_ev_balance_dirty_pages, setpoint, U64), F(fsl_ev_balance_dirty_pages, dirty, U64),
	F(fsl_ev_balance_dirty_pages, wb_setpoint, U64), F(fsl_ev_balance_dirty_pages, wb_dirty, U64),
	F(fsl_ev_balance_dirty_pages, dirty_ratelimit, U64),
	F(fsl_ev_balance_dirty_pages, task_ratelimit, U64),
	F(fsl_ev_balance_dirty_pages, dirtied, U32),
	F(fsl_ev_balance_dirty_pages, dirtied_pause, U32),
	F(fsl_ev_balance_dirty_pages, paused, U64), F(fsl_ev_balance_dirty_pages, pause, S64),
	F(fsl_ev_balance_dirty_pages, period, U64), F(fsl_ev_balance_dirty_pages, think, S64),
	FN(fsl_ev_balance_dirty_pages, hdr.cpu, "cpu", U16) } },
	{ FSL_EV_GLOBAL_DIRTY_STATE, FSL_FAM_WRITEBACK, 7,
	  sizeof(struct fsl_ev_global_dirty_state), "global_dirty_state", "writeback", {
	F(fsl_ev_global_dirty_state, nr_dirty, U64), F(fsl_ev_global_dirty_state, nr_writeback, U64),
	F(fsl_ev_global_dirty_state, background_thresh, U64),
	F(fsl_ev_global_dirty_state, dirty_thresh, U64),
	F(fsl_ev_global_dirty_state, dirty_limit, U64),
	F(fsl_ev_global_dirty_state, nr_dirtied, U64),
	F(fsl_ev_global_dirty_state, nr_written, U64) } },
	{ FSL_EV_EXT4_WRITEPAGES_RESULT, FSL_FAM_WRITEBACK, 11,
	  sizeof(struct fsl_ev_ext4_writepages_result), "ext4_writepages_result", "ext4", {
	F(fsl_ev_ext4_writepages_result, dev, DEV), F(fsl_ev_ext4_writepages_result, ino, U64),
	F(fsl_ev_ext4_writepages_result, ret, S32),
	F(fsl_ev_ext4_writepages_result, pages_written, S32),
	F(fsl_ev_ext4_writepages_result, pages_skipped, S64),
	F(fsl_ev_ext4_writepages_result, sync_mode, S32),
	F(fsl_ev_ext4_writepages_result, writeback_index, U64),
	F(fsl_ev_ext4_writepages_result, stack_id, S32),
	F(fsl_ev_ext4_writepages_result, bios, U32), F(fsl_ev_ext4_writepages_result, bytes, U64),
	F(fsl_ev_ext4_writepages_result, flags, HEX) } },
	/* iomap_dio_rw_begin of a write, then its iomap_dio_complete: one record */
	{ FSL_EV_DIO_WRITE, FSL_FAM_WRITEBACK, 7, sizeof(struct fsl_ev_dio_write), "dio_write",
	  NULL, {
	F(fsl_ev_dio_write, dev, DEV), F(fsl_ev_dio_write, ino, U64), F(fsl_ev_dio_write, pos, S64),
	F(fsl_ev_dio_write, ret, S64), F(fsl_ev_dio_write, error, S32),
	F(fsl_ev_dio_write, tid, U32), F(fsl_ev_dio_write, aio, U32) } },

	ALLOC_BLOCKS(FSL_EV_EXT4_REQUEST_BLOCKS, "ext4_request_blocks"),
	ALLOC_BLOCKS(FSL_EV_EXT4_ALLOCATE_BLOCKS, "ext4_allocate_blocks"),
	MBALLOC(FSL_EV_EXT4_MBALLOC_ALLOC, "ext4_mballoc_alloc"),
	MBALLOC(FSL_EV_EXT4_MBALLOC_PREALLOC, "ext4_mballoc_prealloc"),
	PA(FSL_EV_EXT4_MB_NEW_INODE_PA, "ext4_mb_new_inode_pa"),
	PA(FSL_EV_EXT4_MB_NEW_GROUP_PA, "ext4_mb_new_group_pa"),
	PA(FSL_EV_EXT4_MB_RELEASE_INODE_PA, "ext4_mb_release_inode_pa"),
	PA(FSL_EV_EXT4_MB_RELEASE_GROUP_PA, "ext4_mb_release_group_pa"),
	{ FSL_EV_EXT4_FREE_BLOCKS, FSL_FAM_ALLOC, 6, sizeof(struct fsl_ev_ext4_free_blocks),
	  "ext4_free_blocks", "ext4", {
	F(fsl_ev_ext4_free_blocks, dev, DEV), F(fsl_ev_ext4_free_blocks, ino, U64),
	F(fsl_ev_ext4_free_blocks, block, U64), F(fsl_ev_ext4_free_blocks, count, U64),
	F(fsl_ev_ext4_free_blocks, flags, S32), F(fsl_ev_ext4_free_blocks, mode, HEX) } },
	MB_FREE(FSL_EV_EXT4_MBALLOC_FREE, "ext4_mballoc_free"),
	MB_FREE(FSL_EV_EXT4_MBALLOC_DISCARD, "ext4_mballoc_discard"),
	INODE(FSL_EV_EXT4_REQUEST_INODE, "ext4_request_inode"),
	INODE(FSL_EV_EXT4_ALLOCATE_INODE, "ext4_allocate_inode"),
	INODE(FSL_EV_EXT4_FREE_INODE, "ext4_free_inode"),
	{ FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT, FSL_FAM_ALLOC, 8, sizeof(struct fsl_ev_ext4_map_blocks),
	  "ext4_ext_map_blocks_exit", "ext4", {
	F(fsl_ev_ext4_map_blocks, dev, DEV), F(fsl_ev_ext4_map_blocks, ino, U64),
	F(fsl_ev_ext4_map_blocks, flags, HEX), F(fsl_ev_ext4_map_blocks, lblk, U32),
	F(fsl_ev_ext4_map_blocks, pblk, U64), F(fsl_ev_ext4_map_blocks, len, U32),
	F(fsl_ev_ext4_map_blocks, mflags, HEX), F(fsl_ev_ext4_map_blocks, ret, S32) } },
	{ FSL_EV_EXT4_WRITEPAGES, FSL_FAM_ALLOC, 10, sizeof(struct fsl_ev_ext4_writepages),
	  "ext4_writepages", "ext4", {
	F(fsl_ev_ext4_writepages, dev, DEV), F(fsl_ev_ext4_writepages, ino, U64),
	F(fsl_ev_ext4_writepages, nr_to_write, S64), F(fsl_ev_ext4_writepages, pages_skipped, S64),
	F(fsl_ev_ext4_writepages, range_start, S64), F(fsl_ev_ext4_writepages, range_end, S64),
	F(fsl_ev_ext4_writepages, writeback_index, U64), F(fsl_ev_ext4_writepages, sync_mode, S32),
	F(fsl_ev_ext4_writepages, for_kupdate, U8X), F(fsl_ev_ext4_writepages, range_cyclic, U8X) } },
	DA_WRITE(FSL_EV_EXT4_DA_WRITE_PAGES, "ext4_da_write_pages"),
	DA_WRITE(FSL_EV_EXT4_DA_WRITE_FOLIOS_START, "ext4_da_write_folios_start"),
	DA_WRITE(FSL_EV_EXT4_DA_WRITE_FOLIOS_END, "ext4_da_write_folios_end"),
	{ FSL_EV_EXT4_DA_WRITE_PAGES_EXTENT, FSL_FAM_ALLOC, 5, sizeof(struct fsl_ev_ext4_da_extent),
	  "ext4_da_write_pages_extent", "ext4", {
	F(fsl_ev_ext4_da_extent, dev, DEV), F(fsl_ev_ext4_da_extent, ino, U64),
	F(fsl_ev_ext4_da_extent, lblk, U64), F(fsl_ev_ext4_da_extent, len, U32),
	F(fsl_ev_ext4_da_extent, flags, HEX) } },
	GROUP_LOAD(FSL_EV_EXT4_MB_BITMAP_LOAD, "ext4_mb_bitmap_load"),
	GROUP_LOAD(FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD, "ext4_mb_buddy_bitmap_load"),
	GROUP_LOAD(FSL_EV_EXT4_READ_BLOCK_BITMAP_LOAD, "ext4_read_block_bitmap_load"),
	INODE(FSL_EV_EXT4_LOAD_INODE, "ext4_load_inode"),
	FILE_OP(FSL_EV_EXT4_SYNC_FILE_ENTER, "ext4_sync_file_enter"),
	FILE_OP(FSL_EV_EXT4_SYNC_FILE_EXIT, "ext4_sync_file_exit"),
	FILE_OP(FSL_EV_EXT4_UNLINK_ENTER, "ext4_unlink_enter"),
	FILE_OP(FSL_EV_EXT4_UNLINK_EXIT, "ext4_unlink_exit"),

	{ FSL_EV_DIROP, FSL_FAM_DIROPS, 11, sizeof(struct fsl_ev_dirop), "dirop", NULL, {
	F(fsl_ev_dirop, op, U16), F(fsl_ev_dirop, syscall, U16),
	F(fsl_ev_dirop, lat_ns, U64), F(fsl_ev_dirop, ret, S64),
	F(fsl_ev_dirop, dirfd, S32), F(fsl_ev_dirop, dirfd2, S32), F(fsl_ev_dirop, fd, S32),
	F(fsl_ev_dirop, flags, HEX), F(fsl_ev_dirop, mode, HEX), F(fsl_ev_dirop, pflags, U16),
	{ "path", offsetof(struct fsl_ev_dirop, paths), 0, FSL_F_PATHS } } },

	{ FSL_EV_DIRENTS, FSL_FAM_DIROPS, 5, sizeof(struct fsl_ev_dirents), "dirents", NULL, {
	F(fsl_ev_dirents, fd, S32), F(fsl_ev_dirents, count, U16),
	F(fsl_ev_dirents, flags, U16), F(fsl_ev_dirents, seq, U32),
	{ "ino", offsetof(struct fsl_ev_dirents, ino), 0, FSL_F_INOS } } },

	{ FSL_EV_DATA, FSL_FAM_DIROPS, 14, sizeof(struct fsl_ev_data), "data", NULL, {
	F(fsl_ev_data, op, U16), F(fsl_ev_data, syscall, U16),
	F(fsl_ev_data, lat_ns, U64), F(fsl_ev_data, ret, S64),
	F(fsl_ev_data, offset, S64), F(fsl_ev_data, bytes, U64),
	F(fsl_ev_data, ino, U64), F(fsl_ev_data, dev, DEV), F(fsl_ev_data, fd, S32),
	F(fsl_ev_data, flags, HEX), FN(fsl_ev_data, hdr.cpu, "cpu", U16),
	F(fsl_ev_data, name, COMM), F(fsl_ev_data, ino2, U64), F(fsl_ev_data, name2, COMM) } },

	{ FSL_EV_FILE_PATH, FSL_FAM_DIROPS, 5, sizeof(struct fsl_ev_file_path), "file_path", NULL, {
	F(fsl_ev_file_path, ino, U64), F(fsl_ev_file_path, dev, DEV),
	F(fsl_ev_file_path, path_len, U16), F(fsl_ev_file_path, flags, HEX),
	{ "path", offsetof(struct fsl_ev_file_path, path), 0, FSL_F_PATH } } },

	{ FSL_EV_OFFCPU, FSL_FAM_OFFCPU, 6, sizeof(struct fsl_ev_offcpu), "offcpu", NULL, {
	F(fsl_ev_offcpu, dur_ns, U64), F(fsl_ev_offcpu, stack_id, S32),
	F(fsl_ev_offcpu, waker_pid, U32), F(fsl_ev_offcpu, state, U32),
	F(fsl_ev_offcpu, wake_dev, DEV), F(fsl_ev_offcpu, runq_ns, U64) } },

	{ FSL_EV_TASKTIME, FSL_FAM_OFFCPU, 10, sizeof(struct fsl_ev_tasktime), "tasktime", NULL, {
	F(fsl_ev_tasktime, first_ts, U64), F(fsl_ev_tasktime, oncpu_ns, U64),
	F(fsl_ev_tasktime, runq_ns, U64), F(fsl_ev_tasktime, blocked_ns, U64),
	F(fsl_ev_tasktime, sleep_ns, U64), F(fsl_ev_tasktime, switches, U32),
	F(fsl_ev_tasktime, flags, HEX), F(fsl_ev_tasktime, last_state, U32),
	F(fsl_ev_tasktime, state, U32), F(fsl_ev_tasktime, last_since, U64) } },

	{ FSL_EV_CPU, FSL_FAM_CPU, 5, sizeof(struct fsl_ev_cpu), "cpu", NULL, {
	F(fsl_ev_cpu, slot_ns, U64), F(fsl_ev_cpu, period_ns, U64),
	F(fsl_ev_cpu, stack_id, S32), F(fsl_ev_cpu, count, U32),
	F(fsl_ev_cpu, flags, HEX) } },

	{ FSL_EV_PROC, FSL_FAM_PROC, 7, sizeof(struct fsl_ev_proc), "proc", NULL, {
	F(fsl_ev_proc, ppid, U32), F(fsl_ev_proc, kind, U32), F(fsl_ev_proc, flags, U32),
	F(fsl_ev_proc, exit_code, S32), F(fsl_ev_proc, comm, COMM),
	F(fsl_ev_proc, cgroup_id, U64), F(fsl_ev_proc, cgroup, COMM) } },

	{ FSL_EV_XFS_LOG_FORCE, FSL_FAM_JOURNAL, 3, sizeof(struct fsl_ev_xfs_log_force),
	  "xfs_log_force", "xfs", {
	F(fsl_ev_xfs_log_force, dev, DEV), F(fsl_ev_xfs_log_force, lsn, HEX),
	F(fsl_ev_xfs_log_force, caller_ip, HEX) } },
	XLOG_ICLOG(FSL_EV_XLOG_ICLOG_WAIT_ON, "xlog_iclog_wait_on"),
	XLOG_ICLOG(FSL_EV_XLOG_ICLOG_SYNC, "xlog_iclog_sync"),
	XLOG_ICLOG(FSL_EV_XLOG_ICLOG_SYNC_DONE, "xlog_iclog_sync_done"),
	XFS_GRANT(FSL_EV_XFS_LOG_GRANT_SLEEP, "xfs_log_grant_sleep"),
	XFS_GRANT(FSL_EV_XFS_LOG_GRANT_WAKE, "xfs_log_grant_wake"),
	XFS_AIL(FSL_EV_XFS_AIL_PUSH, "xfs_ail_push"),
	XFS_AIL(FSL_EV_XFS_AIL_PINNED, "xfs_ail_pinned"),
	XFS_AIL(FSL_EV_XFS_AIL_LOCKED, "xfs_ail_locked"),
	XFS_AIL(FSL_EV_XFS_AIL_FLUSHING, "xfs_ail_flushing"),
	XFS_BUF(FSL_EV_XFS_BUF_READ, "xfs_buf_read"),
	XFS_BUF(FSL_EV_XFS_BUF_LOCK, "xfs_buf_lock"),
	XFS_BUF(FSL_EV_XFS_BUF_LOCK_DONE, "xfs_buf_lock_done"),
	{ FSL_EV_XFS_FILE_FSYNC, FSL_FAM_JOURNAL, 3, sizeof(struct fsl_ev_xfs_inode),
	  "xfs_file_fsync", "xfs", {
	F(fsl_ev_xfs_inode, dev, DEV), F(fsl_ev_xfs_inode, ino, U64),
	F(fsl_ev_xfs_inode, iflags, HEX) } },
	{ FSL_EV_XFS_ALLOC_VEXTENT_FINISH, FSL_FAM_ALLOC, 12, sizeof(struct fsl_ev_xfs_alloc),
	  "xfs_alloc_vextent_finish", "xfs", {
	F(fsl_ev_xfs_alloc, dev, DEV), F(fsl_ev_xfs_alloc, agno, U32),
	F(fsl_ev_xfs_alloc, agbno, U32), F(fsl_ev_xfs_alloc, minlen, U32),
	F(fsl_ev_xfs_alloc, maxlen, U32), F(fsl_ev_xfs_alloc, len, U32),
	F(fsl_ev_xfs_alloc, total, U32), F(fsl_ev_xfs_alloc, alignment, U32),
	F(fsl_ev_xfs_alloc, resv, S32), F(fsl_ev_xfs_alloc, datatype, HEX),
	F(fsl_ev_xfs_alloc, wasdel, U8X), F(fsl_ev_xfs_alloc, wasfromfl, U8X) } },
	{ FSL_EV_XFS_IALLOC_READ_AGI, FSL_FAM_ALLOC, 2, sizeof(struct fsl_ev_xfs_ag),
	  "xfs_ialloc_read_agi", "xfs", {
	F(fsl_ev_xfs_ag, dev, DEV), F(fsl_ev_xfs_ag, agno, U32) } },
	XFS_IMAP(FSL_EV_XFS_IOMAP_ALLOC, "xfs_iomap_alloc"),
	XFS_IMAP(FSL_EV_XFS_IOMAP_FOUND, "xfs_iomap_found"),
	XFS_IMAP(FSL_EV_XFS_MAP_BLOCKS_ALLOC, "xfs_map_blocks_alloc"),
	XFS_IMAP(FSL_EV_XFS_MAP_BLOCKS_FOUND, "xfs_map_blocks_found"),
	XFS_DIRNAME(FSL_EV_XFS_DIR2_SF_ADDNAME, "xfs_dir2_sf_addname"),
	XFS_DIRNAME(FSL_EV_XFS_DIR2_BLOCK_ADDNAME, "xfs_dir2_block_addname"),
	XFS_DIRNAME(FSL_EV_XFS_DIR2_LEAF_ADDNAME, "xfs_dir2_leaf_addname"),
	XFS_DIRNAME(FSL_EV_XFS_DIR2_NODE_ADDNAME, "xfs_dir2_node_addname"),
	{ FSL_EV_XFS_CREATE, FSL_FAM_ALLOC, 4, sizeof(struct fsl_ev_xfs_create),
	  "xfs_create", "xfs", {
	F(fsl_ev_xfs_create, dev, DEV), F(fsl_ev_xfs_create, dir, U64),
	F(fsl_ev_xfs_create, namelen, S32), F(fsl_ev_xfs_create, name, COMM) } },
	XFS_IREC(FSL_EV_XFS_IREC_MERGE_PRE, "xfs_irec_merge_pre"),
	XFS_IREC(FSL_EV_XFS_IREC_MERGE_POST, "xfs_irec_merge_post"),
	{ FSL_EV_XFS_BUNMAP, FSL_FAM_ALLOC, 7, sizeof(struct fsl_ev_xfs_bunmap),
	  "xfs_bunmap", "xfs", {
	F(fsl_ev_xfs_bunmap, dev, DEV), F(fsl_ev_xfs_bunmap, ino, U64),
	F(fsl_ev_xfs_bunmap, size, S64), F(fsl_ev_xfs_bunmap, fileoff, U64),
	F(fsl_ev_xfs_bunmap, len, U64), F(fsl_ev_xfs_bunmap, flags, HEX),
	F(fsl_ev_xfs_bunmap, caller_ip, HEX) } },
	XFS_IEXT(FSL_EV_XFS_IEXT_INSERT, "xfs_iext_insert"),
	XFS_IEXT(FSL_EV_XFS_IEXT_REMOVE, "xfs_iext_remove"),
	XFS_IEXT(FSL_EV_XFS_BMAP_PRE_UPDATE, "xfs_bmap_pre_update"),
	XFS_IEXT(FSL_EV_XFS_BMAP_POST_UPDATE, "xfs_bmap_post_update"),
	{ FSL_EV_XFS_IUNLINK_REMOVE, FSL_FAM_ALLOC, 3, sizeof(struct fsl_ev_xfs_agino),
	  "xfs_iunlink_remove", "xfs", {
	F(fsl_ev_xfs_agino, dev, DEV), F(fsl_ev_xfs_agino, agno, HEX),
	F(fsl_ev_xfs_agino, agino, HEX) } },
	{ FSL_EV_EXT4_IND_MAP_BLOCKS_ENTER, FSL_FAM_ALLOC, 5, sizeof(struct fsl_ev_ext4_map_enter),
	  "ext4_ind_map_blocks_enter", "ext4", {
	F(fsl_ev_ext4_map_enter, dev, DEV), F(fsl_ev_ext4_map_enter, ino, U64),
	F(fsl_ev_ext4_map_enter, lblk, U32), F(fsl_ev_ext4_map_enter, len, U32),
	F(fsl_ev_ext4_map_enter, flags, HEX) } },
	{ FSL_EV_EXT4_IND_MAP_BLOCKS_EXIT, FSL_FAM_ALLOC, 8, sizeof(struct fsl_ev_ext4_map_blocks),
	  "ext4_ind_map_blocks_exit", "ext4", {
	F(fsl_ev_ext4_map_blocks, dev, DEV), F(fsl_ev_ext4_map_blocks, ino, U64),
	F(fsl_ev_ext4_map_blocks, flags, HEX), F(fsl_ev_ext4_map_blocks, lblk, U32),
	F(fsl_ev_ext4_map_blocks, pblk, U64), F(fsl_ev_ext4_map_blocks, len, U32),
	F(fsl_ev_ext4_map_blocks, mflags, HEX), F(fsl_ev_ext4_map_blocks, ret, S32) } },
};

_Static_assert(sizeof(struct fsl_hdr) == 24, "header is 24 bytes");

const struct fsl_event_desc *fsl_schema_builtin(unsigned int type)
{
	static const struct fsl_event_desc *by_type[FSL_EV__MAX];
	static int ready;
	unsigned int i;

	if (!ready) {
		for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
			by_type[table[i].type] = &table[i];
		ready = 1;
	}
	return type < FSL_EV__MAX ? by_type[type] : NULL;
}

unsigned int fsl_schema_builtin_all(const struct fsl_event_desc **out)
{
	*out = table;
	return sizeof(table) / sizeof(table[0]);
}

static const char *const family_names[FSL_FAM__MAX] = {
	"block", "journal", "writeback", "alloc", "dirops", "offcpu", "proc", "cpu",
};

const char *fsl_family_name(unsigned int family)
{
	return family < FSL_FAM__MAX ? family_names[family] : "unknown";
}

int fsl_family_parse(const char *list, uint32_t *mask, const char **bad)
{
	static char badbuf[64];
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned int i;
		int found = 0;

		if (n == 3 && !strncmp(p, "all", 3)) {
			*mask |= FSL_FAM_ALL;
			found = 1;
		}
		for (i = 0; i < FSL_FAM__MAX && !found; i++) {
			if (strlen(family_names[i]) == n && !strncmp(p, family_names[i], n)) {
				*mask |= 1u << i;
				found = 1;
			}
		}
		if (!found && n) {
			snprintf(badbuf, sizeof(badbuf), "%.*s", (int)(n < 60 ? n : 60), p);
			if (bad)
				*bad = badbuf;
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return *mask ? 0 : -EINVAL;
}

static const char *const dirop_names[FSL_OP__MAX] = {
	"open", "create", "mkdir", "mknod", "unlink", "rmdir", "rename", "link",
	"symlink", "stat", "readdir", "fsync", "fdatasync", "syncfs", "sync",
};

const char *fsl_dirop_name(unsigned int op)
{
	return op < FSL_OP__MAX ? dirop_names[op] : "unknown";
}

static const char *const scope_names[] = {
	"none", "fd", "stat", "dir_event", "walk", "all",
};

const char *fsl_dirop_scope_name(unsigned int how)
{
	return how < sizeof(scope_names) / sizeof(scope_names[0]) ? scope_names[how] : "unknown";
}

static const char *const data_names[FSL_DATA__MAX] = {
	"read", "write", "pread", "pwrite", "fsync", "fdatasync", "sync_file_range",
	"fallocate", "ftruncate", "copy_file_range", "sendfile", "splice",
	"aio_read", "aio_write", "aio_fsync", "uring_read", "uring_write", "uring_fsync",
};

const char *fsl_data_name(unsigned int op)
{
	return op < FSL_DATA__MAX ? data_names[op] : "unknown";
}

int64_t fsl_field_get(const struct fsl_field *f, const void *rec)
{
	const unsigned char *p = (const unsigned char *)rec + f->offset;
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
		int16_t s16; int32_t s32; int64_t s64; } v;

	memcpy(&v, p, f->size > 8 ? 8 : f->size);
	switch (f->kind) {
	case FSL_F_U8: case FSL_F_U8X: return v.u8;
	case FSL_F_U16: return v.u16;
	case FSL_F_S16: return v.s16;
	case FSL_F_U32: case FSL_F_DEV: return v.u32;
	case FSL_F_S32: return v.s32;
	case FSL_F_S64: return v.s64;
	case FSL_F_U64: case FSL_F_HEX:
		if (f->size == 2) return v.u16;
		if (f->size == 4) return v.u32;
		return (int64_t)v.u64;
	default: return 0;
	}
}
