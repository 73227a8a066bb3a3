// SPDX-License-Identifier: GPL-2.0
/*
 * Wait classes: an off-CPU kernel stack -> the cause the task waited for.
 *
 * The rules are data (the table below, documented in docs/wait-classes.md).
 * Each rule names a kernel function and a class, with a rank:
 *   4  a cause: the task waits *because* of this (log space, a locked
 *      transaction, a buffer under commit, a directory block read, the
 *      block layer throttling its writes, free space forcing writeback...);
 *   3  a narrower broad cause: add_transaction_credits (the transaction is
 *      full or its reserved credits are exhausted); fsync writing back its
 *      own data (file_write_and_wait_range); a cache flush. Rank 4 refines
 *      them: wbt_wait under file_write_and_wait_range is the throttling;
 *   2  a broad cause that higher ranks refine (start_this_handle,
 *      ext4_sync_file);
 *   1  a mechanism: how the task waits (request tag, folio lock, bio wait).
 * The matching rule with the highest rank wins; among equal ranks the
 * outermost frame wins, because it says why the inner ones were called
 * (jbd2_log_wait_commit under __jbd2_log_wait_for_space is log space, not a
 * commit wait; wbt_wait under a checkpoint is log space too). No match: other.
 */
#include <errno.h>
#include <string.h>
#include "an_internal.h"

struct wc_rule {
	const char *func;	/* exact function name; a trailing '*' matches a prefix */
	unsigned char cls;
	unsigned char rank;
};

static const struct wc_rule wc_rules[] = {
	/* journal: waiting for log space (checkpoint) */
	{ "__jbd2_log_wait_for_space",		FSL_WC_JOURNAL_LOG_SPACE, 4 },
	{ "jbd2_log_do_checkpoint",		FSL_WC_JOURNAL_LOG_SPACE, 4 },
	{ "jbd2_journal_flush",			FSL_WC_JOURNAL_LOG_SPACE, 4 },
	/* journal: the running transaction is locked / full / switching */
	{ "wait_transaction_locked",		FSL_WC_TXN_LOCKED, 4 },
	{ "wait_transaction_switching",		FSL_WC_TXN_LOCKED, 4 },
	{ "jbd2_might_wait_for_commit",		FSL_WC_TXN_LOCKED, 4 },
	/* waiting inside add_transaction_credits itself: full / reserved credits */
	{ "add_transaction_credits",		FSL_WC_TXN_LOCKED, 3 },
	/* journal: buffer is being written by the commit (shadow / frozen) */
	{ "do_get_write_access",		FSL_WC_BUFFER_UNDER_COMMIT, 4 },
	{ "jbd2_journal_get_create_access",	FSL_WC_BUFFER_UNDER_COMMIT, 4 },
	/* journal: waiting for a commit to finish */
	{ "jbd2_log_wait_commit",		FSL_WC_COMMIT_WAIT, 4 },
	{ "jbd2_complete_transaction",		FSL_WC_COMMIT_WAIT, 4 },
	/* fsync writing back its own data (before any commit wait) */
	{ "file_write_and_wait_range",		FSL_WC_FSYNC_WRITEBACK, 3 },
	{ "generic_buffers_fsync_noflush",	FSL_WC_FSYNC_WRITEBACK, 3 },
	{ "ext4_fsync_nojournal*",		FSL_WC_FSYNC_WRITEBACK, 3 },
	/* the cache flush fsync issues itself when the commit did not */
	{ "blkdev_issue_flush",			FSL_WC_FLUSH, 3 },
	{ "ext4_sync_file",			FSL_WC_COMMIT_WAIT, 2 },
	{ "ext4_fsync_journal",			FSL_WC_COMMIT_WAIT, 2 },
	{ "sync_inodes_sb",			FSL_WC_COMMIT_WAIT, 2 },
	{ "ksys_sync",				FSL_WC_COMMIT_WAIT, 2 },
	{ "sync_filesystem",			FSL_WC_COMMIT_WAIT, 2 },
	/* journal: starting a handle, no more specific reason found */
	{ "start_this_handle",			FSL_WC_HANDLE_START, 2 },
	{ "jbd2__journal_start",		FSL_WC_HANDLE_START, 2 },
	/* metadata reads */
	{ "__ext4_read_dirblock",		FSL_WC_DIR_BLOCK_READ, 4 },
	{ "__ext4_find_entry",			FSL_WC_DIR_BLOCK_READ, 4 },
	{ "ext4_dx_find_entry",			FSL_WC_DIR_BLOCK_READ, 4 },
	{ "dx_probe",				FSL_WC_DIR_BLOCK_READ, 4 },
	{ "ext4_htree_fill_tree",		FSL_WC_DIR_BLOCK_READ, 4 },
	{ "htree_dirblock_to_tree",		FSL_WC_DIR_BLOCK_READ, 4 },
	{ "ext4_readdir",			FSL_WC_DIR_BLOCK_READ, 4 },
	{ "__ext4_get_inode_loc",		FSL_WC_INODE_TABLE_READ, 4 },
	{ "ext4_get_inode_loc",			FSL_WC_INODE_TABLE_READ, 4 },
	{ "__ext4_get_inode_loc_noinmem",	FSL_WC_INODE_TABLE_READ, 4 },
	{ "ext4_read_block_bitmap",		FSL_WC_BITMAP_READ, 4 },
	{ "ext4_read_block_bitmap_nowait",	FSL_WC_BITMAP_READ, 4 },
	{ "ext4_wait_block_bitmap",		FSL_WC_BITMAP_READ, 4 },
	{ "ext4_read_inode_bitmap",		FSL_WC_BITMAP_READ, 4 },
	{ "ext4_mb_init_cache",			FSL_WC_BITMAP_READ, 4 },
	{ "ext4_mb_init_group",			FSL_WC_BITMAP_READ, 4 },
	{ "ext4_mb_load_buddy_gfp",		FSL_WC_BITMAP_READ, 4 },
	/* dirty page throttling */
	{ "balance_dirty_pages",		FSL_WC_WRITEBACK_THROTTLE, 4 },
	{ "balance_dirty_pages_ratelimited*",	FSL_WC_WRITEBACK_THROTTLE, 4 },
	/* block-layer write throttling (wbt, and rq_qos policies) */
	{ "__rq_qos_throttle",			FSL_WC_BLOCK_THROTTLE, 4 },
	{ "wbt_wait",				FSL_WC_BLOCK_THROTTLE, 4 },
	{ "rq_qos_wait",			FSL_WC_BLOCK_THROTTLE, 4 },
	/* ext4: free space low against delalloc dirty data forces writeback */
	{ "ext4_nonda_switch",			FSL_WC_FREE_SPACE_WRITEBACK, 4 },
	{ "try_to_writeback_inodes_sb",		FSL_WC_FREE_SPACE_WRITEBACK, 4 },
	/* XFS: fsync/sync waiting for the log (an iclog) to be on disk */
	{ "xlog_wait_on_iclog",			FSL_WC_XFS_LOG_FORCE, 4 },
	{ "xfs_log_force_seq",			FSL_WC_XFS_LOG_FORCE, 4 },
	{ "xfs_log_force",			FSL_WC_XFS_LOG_FORCE, 4 },
	{ "xlog_cil_force_seq",			FSL_WC_XFS_LOG_FORCE, 4 },
	{ "xfs_file_fsync",			FSL_WC_XFS_LOG_FORCE, 2 },
	/* XFS: a transaction reservation waiting for log space */
	{ "xlog_grant_head_wait",		FSL_WC_XFS_LOG_SPACE, 4 },
	{ "xlog_grant_head_check",		FSL_WC_XFS_LOG_SPACE, 4 },
	/* XFS: waiting for the AIL to push everything (freeze, unmount, quotacheck) */
	{ "xfs_ail_push_all_sync",		FSL_WC_XFS_AIL_PUSH, 4 },
	/* XFS: metadata buffers read from disk, and their locks */
	{ "xfs_buf_read_map",			FSL_WC_XFS_META_READ, 4 },
	{ "xfs_buf_readahead_map",		FSL_WC_XFS_META_READ, 4 },
	{ "xfs_buf_lock",			FSL_WC_XFS_BUF_LOCK, 4 },
	/* XFS: inode locks (ilock, iolock = the VFS i_rwsem, mmaplock) */
	{ "xfs_ilock",				FSL_WC_XFS_INODE_LOCK, 4 },
	{ "xfs_ilock2_io_mmap",			FSL_WC_XFS_INODE_LOCK, 4 },
	{ "xfs_lock_two_inodes",		FSL_WC_XFS_INODE_LOCK, 4 },
	/* XFS: allocation forcing the log so freed (busy) extents can be reused */
	{ "xfs_extent_busy_flush",		FSL_WC_XFS_ALLOC, 4 },
	/* waiting for the completions of one's own asynchronous I/O */
	{ "do_io_getevents",			FSL_WC_AIO_WAIT, 4 },
	{ "read_events",			FSL_WC_AIO_WAIT, 4 },
	{ "io_cqring_wait*",			FSL_WC_AIO_WAIT, 4 },
	/* mechanisms */
	{ "folio_wait_bit*",			FSL_WC_PAGE_WAIT, 1 },
	{ "folio_wait_writeback",		FSL_WC_PAGE_WAIT, 1 },
	{ "folio_wait_stable",			FSL_WC_PAGE_WAIT, 1 },
	{ "__folio_lock*",			FSL_WC_PAGE_WAIT, 1 },
	{ "folio_lock*",			FSL_WC_PAGE_WAIT, 1 },
	{ "wait_on_page_bit*",			FSL_WC_PAGE_WAIT, 1 },
	{ "__lock_page*",			FSL_WC_PAGE_WAIT, 1 },
	{ "blk_mq_get_tag",			FSL_WC_QUEUE_WAIT, 1 },
	{ "submit_bio_wait",			FSL_WC_OTHER_IO, 1 },
	{ "io_schedule*",			FSL_WC_OTHER_IO, 1 },
	{ "bit_wait_io*",			FSL_WC_OTHER_IO, 1 },
	{ "__wait_on_buffer",			FSL_WC_OTHER_IO, 1 },
	{ "__sync_dirty_buffer",		FSL_WC_OTHER_IO, 1 },
	{ "ext4_read_bh*",			FSL_WC_OTHER_IO, 1 },
	{ "__bread_gfp",			FSL_WC_OTHER_IO, 1 },
	{ "wb_wait_for_completion",		FSL_WC_OTHER_IO, 1 },
	{ "fsync_buffers_list",			FSL_WC_OTHER_IO, 1 },
};

static const struct {
	const char *id, *label;
} wc_names[FSL_WC__MAX] = {
	[FSL_WC_JOURNAL_LOG_SPACE]	= { "journal_log_space", "journal log space (checkpoint)" },
	[FSL_WC_TXN_LOCKED]		= { "txn_locked", "transaction locked / full" },
	[FSL_WC_BUFFER_UNDER_COMMIT]	= { "buffer_under_commit", "buffer under commit (shadow)" },
	[FSL_WC_COMMIT_WAIT]		= { "commit_wait", "commit wait (fsync/sync)" },
	[FSL_WC_HANDLE_START]		= { "handle_start", "journal handle start" },
	[FSL_WC_DIR_BLOCK_READ]		= { "dir_block_read", "directory block read" },
	[FSL_WC_INODE_TABLE_READ]	= { "inode_table_read", "inode table read" },
	[FSL_WC_BITMAP_READ]		= { "bitmap_read", "bitmap read" },
	[FSL_WC_WRITEBACK_THROTTLE]	= { "writeback_throttle", "writeback throttle (dirty limit)" },
	[FSL_WC_BLOCK_THROTTLE]		= { "block_throttle", "block-layer write throttling (wbt)" },
	[FSL_WC_FSYNC_WRITEBACK]	= { "fsync_writeback", "fsync writing back its own data" },
	[FSL_WC_FREE_SPACE_WRITEBACK]	= { "free_space_writeback", "writeback forced by low free space" },
	[FSL_WC_AIO_WAIT]		= { "aio_wait", "aio / io_uring completion wait" },
	[FSL_WC_XFS_LOG_FORCE]		= { "xfs_log_force", "XFS log force (fsync/sync)" },
	[FSL_WC_XFS_LOG_SPACE]		= { "xfs_log_space", "XFS log space (grant head)" },
	[FSL_WC_XFS_AIL_PUSH]		= { "xfs_ail_push", "XFS AIL push (metadata writeback)" },
	[FSL_WC_XFS_META_READ]		= { "xfs_metadata_read", "XFS metadata buffer read" },
	[FSL_WC_XFS_BUF_LOCK]		= { "xfs_buffer_lock", "XFS metadata buffer lock" },
	[FSL_WC_XFS_INODE_LOCK]		= { "xfs_inode_lock", "XFS inode lock" },
	[FSL_WC_XFS_ALLOC]		= { "xfs_allocation", "XFS allocation (busy extents)" },
	[FSL_WC_PAGE_WAIT]		= { "page_wait", "page/folio lock or writeback" },
	[FSL_WC_QUEUE_WAIT]		= { "queue_wait", "request queue tag wait" },
	[FSL_WC_FLUSH]			= { "flush", "cache flush" },
	[FSL_WC_OTHER_IO]		= { "other_io", "other I/O" },
	[FSL_WC_OTHER]			= { "other", "other" },
};

const char *fsl_wclass_id(unsigned int cls)
{
	return cls < FSL_WC__MAX ? wc_names[cls].id : "?";
}

const char *fsl_wclass_label(unsigned int cls)
{
	return cls < FSL_WC__MAX ? wc_names[cls].label : "?";
}

int fsl_wclass_parse(const char *id)
{
	unsigned int i;

	for (i = 0; i < FSL_WC__MAX; i++)
		if (!strcmp(id, wc_names[i].id))
			return i;
	return -EINVAL;
}

static int rule_match(const struct wc_rule *r, const char *func)
{
	size_t n = strlen(r->func);

	if (n && r->func[n - 1] == '*')
		return !strncmp(r->func, func, n - 1);
	return !strcmp(r->func, func);
}

/* frame is func, or func+OFFSET */
static int frame_is(const char *frame, const char *func)
{
	size_t n = strlen(func);

	return !strncmp(frame, func, n) && (!frame[n] || frame[n] == '+' || frame[n] == '.');
}

/*
 * A parent waiting for its vfork child: kernel_clone waiting on the vfork
 * completion (wait_for_vfork_done, inlined into kernel_clone on 6.18:
 * wait_for_completion_state called from kernel_clone). kernel_clone sleeps
 * nowhere else but in what it calls (an allocation's reclaim has its own
 * frames between).
 */
int fsl_wait_is_child(const char *const *f, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (frame_is(f[i], "wait_for_vfork_done"))
			return 1;
		if (i && frame_is(f[i], "kernel_clone") &&
		    !strncmp(f[i - 1], "wait_for_completion", 19))
			return 1;
	}
	return 0;
}

unsigned int fsl_wclass_of_frames(const char *const *frames, unsigned int nframes,
				  int *rule_frame)
{
	int best_rank = 0, best_frame = -1;
	unsigned int cls = FSL_WC_OTHER, r;
	char func[128];
	int i;

	/* Outermost first: an equal rank further in never replaces it. */
	for (i = (int)nframes - 1; i >= 0; i--) {
		if (!frames[i])
			continue;
		fsl_frame_func(frames[i], func, sizeof(func));
		for (r = 0; r < sizeof(wc_rules) / sizeof(wc_rules[0]); r++) {
			if (wc_rules[r].rank <= best_rank || !rule_match(&wc_rules[r], func))
				continue;
			best_rank = wc_rules[r].rank;
			best_frame = i;
			cls = wc_rules[r].cls;
		}
	}
	if (rule_frame)
		*rule_frame = best_frame;
	return cls;
}

int fsl_wclass_frame_rank(const char *frame)
{
	int best = 0;
	char func[128];
	unsigned int r;

	if (!frame)
		return 0;
	fsl_frame_func(frame, func, sizeof(func));
	for (r = 0; r < sizeof(wc_rules) / sizeof(wc_rules[0]); r++)
		if (wc_rules[r].rank > best && rule_match(&wc_rules[r], func))
			best = wc_rules[r].rank;
	return best;
}

int fsl_wclass_rule(unsigned int idx, const char **func, unsigned int *cls, unsigned int *rank)
{
	if (idx >= sizeof(wc_rules) / sizeof(wc_rules[0]))
		return 0;
	*func = wc_rules[idx].func;
	*cls = wc_rules[idx].cls;
	*rank = wc_rules[idx].rank;
	return 1;
}
