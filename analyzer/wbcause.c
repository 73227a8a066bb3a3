// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback causes: who made a writeback call write the filesystem's data.
 *
 * The kernel stack an ext4 writeback call returned through names who asked
 * for it; the rules are data (the table below, documented in
 * docs/writeback.md and checked against it by tests/unit/test_wbcause.c).
 * The outermost frame a rule names decides, because it says why the inner
 * ones ran: an O_SYNC write reaches ext4_sync_file through
 * ext4_buffered_write_iter, so it is a synchronous write, not an fsync; the
 * page-cache flush before direct I/O runs filemap_write_and_wait_range
 * under __iomap_dio_rw. A flusher's call is FSL_WBC__MAX here: the reason
 * of the work the flusher was doing (writeback_start) is its cause.
 */
#include <errno.h>
#include <string.h>
#include "an_internal.h"

struct wbc_rule {
	const char *func;	/* exact function name */
	unsigned char cause;	/* enum fsl_wbcause; FSL_WBC__MAX: the flusher */
};

static const struct wbc_rule wbc_rules[] = {
	/* the flusher (bdi writeback worker): its work's reason decides */
	{ "wb_workfn",				FSL_WBC__MAX },
	{ "wb_do_writeback",			FSL_WBC__MAX },
	{ "wb_writeback",			FSL_WBC__MAX },
	/* the jbd2 commit writing the data of ordered-mode inodes first */
	{ "kjournald2",				FSL_WBC_JOURNAL },
	{ "jbd2_journal_commit_transaction",	FSL_WBC_JOURNAL },
	{ "journal_submit_data_buffers",	FSL_WBC_JOURNAL },
	{ "ext4_normal_submit_inode_data_buffers", FSL_WBC_JOURNAL },
	/* fsync, fdatasync, msync(MS_SYNC): the file's own data */
	{ "do_fsync",				FSL_WBC_FSYNC },
	{ "vfs_fsync_range",			FSL_WBC_FSYNC },
	{ "ext4_sync_file",			FSL_WBC_FSYNC },
	{ "__x64_sys_msync",			FSL_WBC_FSYNC },
	/* an O_SYNC / O_DSYNC write (generic_write_sync, often inlined) */
	{ "generic_write_sync",			FSL_WBC_SYNC_WRITE },
	{ "ext4_buffered_write_iter",		FSL_WBC_SYNC_WRITE },
	{ "ksys_sync_file_range",		FSL_WBC_SYNC_FILE_RANGE },
	{ "__x64_sys_sync_file_range",		FSL_WBC_SYNC_FILE_RANGE },
	/* sync(2), syncfs(2) in the caller (most of theirs is the flusher's, reason sync) */
	{ "ksys_sync",				FSL_WBC_SYNC },
	{ "sync_filesystem",			FSL_WBC_SYNC },
	{ "__x64_sys_syncfs",			FSL_WBC_SYNC },
	/* ext4 auto_da_alloc: close after truncating to 0, rename over a file */
	{ "ext4_alloc_da_blocks",		FSL_WBC_REPLACE },
	{ "ext4_release_file",			FSL_WBC_REPLACE },
	{ "ext4_rename",			FSL_WBC_REPLACE },
	{ "ext4_rename2",			FSL_WBC_REPLACE },
	/* direct I/O flushing the page cache over its range first */
	{ "__iomap_dio_rw",			FSL_WBC_DIO_FLUSH },
	{ "iomap_dio_rw",			FSL_WBC_DIO_FLUSH },
	{ "kiocb_write_and_wait",		FSL_WBC_DIO_FLUSH },
	{ "kiocb_invalidate_pages",		FSL_WBC_DIO_FLUSH },
	{ "ext4_dio_write_iter",		FSL_WBC_DIO_FLUSH },
	{ "generic_fadvise",			FSL_WBC_FADVISE },
	{ "ksys_fadvise64_64",			FSL_WBC_FADVISE },
	/* page reclaim writing a folio itself */
	{ "pageout",				FSL_WBC_RECLAIM },
	{ "shrink_folio_list",			FSL_WBC_RECLAIM },
};

static const struct {
	const char *id, *label;
} wbc_names[FSL_WBC__MAX] = {
	[FSL_WBC_BACKGROUND]	= { "background", "flusher: dirty data over the background threshold" },
	[FSL_WBC_PERIODIC]	= { "periodic", "flusher: dirty data older than dirty_expire" },
	[FSL_WBC_SYNC]		= { "sync", "sync(2)/syncfs (the flusher for them, reason sync)" },
	[FSL_WBC_RECLAIM]	= { "reclaim", "memory reclaim (the flusher woken by it, or pageout)" },
	[FSL_WBC_FREE_SPACE]	= { "free_space", "ext4 low on free space (ext4_nonda_switch)" },
	[FSL_WBC_FLUSHER_OTHER]	= { "flusher_other", "flusher: laptop timer, new bdi, foreign, unknown" },
	[FSL_WBC_FSYNC]		= { "fsync", "fsync/fdatasync: the file's own data" },
	[FSL_WBC_SYNC_WRITE]	= { "sync_write", "O_SYNC/O_DSYNC writes" },
	[FSL_WBC_SYNC_FILE_RANGE] = { "sync_file_range", "sync_file_range" },
	[FSL_WBC_JOURNAL]	= { "journal_ordered", "jbd2 commit: ordered-mode data" },
	[FSL_WBC_REPLACE]	= { "replace", "close/rename over a truncated file (auto_da_alloc)" },
	[FSL_WBC_DIO_FLUSH]	= { "dio_flush", "page cache flushed before direct I/O" },
	[FSL_WBC_FADVISE]	= { "fadvise", "posix_fadvise DONTNEED" },
	[FSL_WBC_OTHER]		= { "other", "other (no rule matched the stack)" },
	[FSL_WBC_DIRECT]	= { "direct_io", "direct I/O (no page cache)" },
};

const char *fsl_wbcause_id(unsigned int cause)
{
	return cause < FSL_WBC__MAX ? wbc_names[cause].id : "?";
}

const char *fsl_wbcause_label(unsigned int cause)
{
	return cause < FSL_WBC__MAX ? wbc_names[cause].label : "?";
}

/* enum wb_reason (include/linux/backing-dev-defs.h) -> the cause it names. */
unsigned int fsl_wbcause_of_reason(int reason)
{
	switch (reason) {
	case 0:
		return FSL_WBC_BACKGROUND;
	case 1:
		return FSL_WBC_RECLAIM;
	case 2:
		return FSL_WBC_SYNC;
	case 3:
		return FSL_WBC_PERIODIC;
	case 5:
		return FSL_WBC_FREE_SPACE;
	default:
		return FSL_WBC_FLUSHER_OTHER;
	}
}

unsigned int fsl_wbcause_of_frames(const char *const *frames, unsigned int nframes,
				   int *rule_frame)
{
	unsigned int r;
	char func[128];
	int i;

	for (i = (int)nframes - 1; i >= 0; i--) {
		if (!frames[i])
			continue;
		fsl_frame_func(frames[i], func, sizeof(func));
		for (r = 0; r < sizeof(wbc_rules) / sizeof(wbc_rules[0]); r++) {
			if (strcmp(wbc_rules[r].func, func))
				continue;
			if (rule_frame)
				*rule_frame = i;
			return wbc_rules[r].cause;
		}
	}
	if (rule_frame)
		*rule_frame = -1;
	return FSL_WBC_OTHER;
}

int fsl_wbcause_rule(unsigned int idx, const char **func, unsigned int *cause)
{
	if (idx >= sizeof(wbc_rules) / sizeof(wbc_rules[0]))
		return 0;
	*func = wbc_rules[idx].func;
	*cause = wbc_rules[idx].cause;
	return 1;
}
