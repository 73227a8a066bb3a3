/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fslens event ABI: the one contract between probes/, collector/ and analyzer/.
 *
 * Rules (see docs/trace-format.md):
 *  - every record starts with struct fsl_hdr; hdr.size is the record's whole
 *    size in bytes and readers trust it (skip what they do not know, ignore
 *    trailing bytes of a newer, longer record, zero-fill a shorter one);
 *  - fixed-width fields only, explicit padding, records a multiple of 8 bytes;
 *  - new fields only at the end of a struct; type ids are never reused;
 *  - field names follow the kernel tracepoint the event mirrors, so that
 *    `fslens dump --json` prints the tracepoint's own names.
 *
 * This header is included by BPF programs (with vmlinux.h providing __u64 and
 * friends) and by user space (with <linux/types.h>).
 */
#ifndef FSLENS_EVENT_H
#define FSLENS_EVENT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Event families, selectable with -e. Bit i of a family mask = family i. */
enum fsl_family {
	FSL_FAM_BLOCK = 0,
	FSL_FAM_JOURNAL,
	FSL_FAM_WRITEBACK,
	FSL_FAM_ALLOC,
	FSL_FAM_DIROPS,
	FSL_FAM_OFFCPU,
	FSL_FAM_PROC,
	FSL_FAM_CPU,
	FSL_FAM__MAX,
};

/*
 * Event type ids. Stable: append only, never renumber. The number range of a
 * family is only a convention; the family of a type is in the schema table.
 */
enum fsl_event_type {
	FSL_EV_NONE = 0,

	/* block: struct fsl_ev_block_rq */
	FSL_EV_BLOCK_RQ_INSERT = 1,
	FSL_EV_BLOCK_RQ_ISSUE,
	FSL_EV_BLOCK_RQ_COMPLETE,
	FSL_EV_BLOCK_RQ_MERGE,

	/* journal */
	FSL_EV_JBD2_START_COMMIT = 16,	/* struct fsl_ev_jbd2_commit */
	FSL_EV_JBD2_COMMIT_LOCKING,	/* struct fsl_ev_jbd2_commit */
	FSL_EV_JBD2_COMMIT_FLUSHING,	/* struct fsl_ev_jbd2_commit */
	FSL_EV_JBD2_COMMIT_LOGGING,	/* struct fsl_ev_jbd2_commit */
	FSL_EV_JBD2_END_COMMIT,		/* struct fsl_ev_jbd2_commit */
	FSL_EV_JBD2_RUN_STATS,		/* struct fsl_ev_jbd2_run_stats */
	FSL_EV_JBD2_HANDLE_START,	/* struct fsl_ev_jbd2_handle_start */
	FSL_EV_JBD2_HANDLE_STATS,	/* struct fsl_ev_jbd2_handle_stats */
	FSL_EV_JBD2_CHECKPOINT,		/* struct fsl_ev_jbd2_checkpoint */
	FSL_EV_JBD2_CHECKPOINT_STATS,	/* struct fsl_ev_jbd2_checkpoint_stats */
	FSL_EV_JBD2_LOCK_BUFFER_STALL,	/* struct fsl_ev_jbd2_lock_buffer_stall */
	FSL_EV_JBD2_UPDATE_LOG_TAIL,	/* struct fsl_ev_jbd2_update_log_tail */
	FSL_EV_EXT4_JOURNAL_START_INODE,/* struct fsl_ev_ext4_journal_start */
	FSL_EV_EXT4_JOURNAL_START_SB,	/* struct fsl_ev_ext4_journal_start */
	FSL_EV_JBD2_KICK = 30,		/* struct fsl_ev_jbd2_kick */
	FSL_EV_JBD2_HANDLE_AGG,		/* struct fsl_ev_jbd2_handle_agg */

	/* writeback */
	FSL_EV_WRITEBACK_START = 40,		/* struct fsl_ev_writeback_work */
	FSL_EV_WRITEBACK_WRITTEN,		/* struct fsl_ev_writeback_work */
	FSL_EV_WRITEBACK_SINGLE_INODE_START,	/* struct fsl_ev_writeback_single_inode */
	FSL_EV_WRITEBACK_SINGLE_INODE,		/* struct fsl_ev_writeback_single_inode */
	FSL_EV_WRITEBACK_DIRTY_INODE,		/* struct fsl_ev_writeback_dirty_inode */
	FSL_EV_BALANCE_DIRTY_PAGES,		/* struct fsl_ev_balance_dirty_pages */
	FSL_EV_GLOBAL_DIRTY_STATE,		/* struct fsl_ev_global_dirty_state */
	FSL_EV_EXT4_WRITEPAGES_RESULT,		/* struct fsl_ev_ext4_writepages_result */
	FSL_EV_DIO_WRITE,			/* struct fsl_ev_dio_write */

	/* alloc (ext4) */
	FSL_EV_EXT4_REQUEST_BLOCKS = 64,	/* struct fsl_ev_ext4_alloc_blocks */
	FSL_EV_EXT4_ALLOCATE_BLOCKS,		/* struct fsl_ev_ext4_alloc_blocks */
	FSL_EV_EXT4_MBALLOC_ALLOC,		/* struct fsl_ev_ext4_mballoc_alloc */
	FSL_EV_EXT4_MBALLOC_PREALLOC,		/* struct fsl_ev_ext4_mballoc_alloc */
	FSL_EV_EXT4_MB_NEW_INODE_PA,		/* struct fsl_ev_ext4_pa */
	FSL_EV_EXT4_MB_NEW_GROUP_PA,		/* struct fsl_ev_ext4_pa */
	FSL_EV_EXT4_MB_RELEASE_INODE_PA,	/* struct fsl_ev_ext4_pa */
	FSL_EV_EXT4_MB_RELEASE_GROUP_PA,	/* struct fsl_ev_ext4_pa */
	FSL_EV_EXT4_FREE_BLOCKS,		/* struct fsl_ev_ext4_free_blocks */
	FSL_EV_EXT4_MBALLOC_FREE,		/* struct fsl_ev_ext4_mballoc_free */
	FSL_EV_EXT4_MBALLOC_DISCARD,		/* struct fsl_ev_ext4_mballoc_free */
	FSL_EV_EXT4_REQUEST_INODE,		/* struct fsl_ev_ext4_inode */
	FSL_EV_EXT4_ALLOCATE_INODE,		/* struct fsl_ev_ext4_inode */
	FSL_EV_EXT4_FREE_INODE,			/* struct fsl_ev_ext4_inode */
	FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT,	/* struct fsl_ev_ext4_map_blocks */
	FSL_EV_EXT4_WRITEPAGES,			/* struct fsl_ev_ext4_writepages */
	FSL_EV_EXT4_DA_WRITE_PAGES,		/* struct fsl_ev_ext4_da_write (start; older kernels) */
	FSL_EV_EXT4_DA_WRITE_FOLIOS_START,	/* struct fsl_ev_ext4_da_write */
	FSL_EV_EXT4_DA_WRITE_FOLIOS_END,	/* struct fsl_ev_ext4_da_write */
	FSL_EV_EXT4_DA_WRITE_PAGES_EXTENT,	/* struct fsl_ev_ext4_da_extent */
	FSL_EV_EXT4_MB_BITMAP_LOAD,		/* struct fsl_ev_ext4_group_load */
	FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD,	/* struct fsl_ev_ext4_group_load */
	FSL_EV_EXT4_READ_BLOCK_BITMAP_LOAD,	/* struct fsl_ev_ext4_group_load */
	FSL_EV_EXT4_LOAD_INODE,			/* struct fsl_ev_ext4_inode */
	FSL_EV_EXT4_SYNC_FILE_ENTER,		/* struct fsl_ev_ext4_file_op */
	FSL_EV_EXT4_SYNC_FILE_EXIT,		/* struct fsl_ev_ext4_file_op */
	FSL_EV_EXT4_UNLINK_ENTER,		/* struct fsl_ev_ext4_file_op */
	FSL_EV_EXT4_UNLINK_EXIT,		/* struct fsl_ev_ext4_file_op */

	/* dirops: struct fsl_ev_dirop (variable length) */
	FSL_EV_DIROP = 100,
	FSL_EV_DIRENTS = 101,	/* struct fsl_ev_dirents (variable length) */
	FSL_EV_DATA = 102,	/* struct fsl_ev_data: read/write/fsync... on a file */

	/* offcpu: struct fsl_ev_offcpu */
	FSL_EV_OFFCPU = 110,
	FSL_EV_TASKTIME = 111,	/* struct fsl_ev_tasktime */

	/* proc: struct fsl_ev_proc */
	FSL_EV_PROC = 120,

	/*
	 * xfs (families journal and alloc on an XFS target, see probes/xfs.bpf.h).
	 * The log, AIL and metadata buffers are the journal family; allocation
	 * and extent mapping the alloc family.
	 */
	FSL_EV_XFS_LOG_FORCE = 128,		/* struct fsl_ev_xfs_log_force */
	FSL_EV_XLOG_ICLOG_WAIT_ON,		/* struct fsl_ev_xlog_iclog */
	FSL_EV_XLOG_ICLOG_SYNC,			/* struct fsl_ev_xlog_iclog */
	FSL_EV_XLOG_ICLOG_SYNC_DONE,		/* struct fsl_ev_xlog_iclog */
	FSL_EV_XFS_LOG_GRANT_SLEEP,		/* struct fsl_ev_xfs_log_grant */
	FSL_EV_XFS_LOG_GRANT_WAKE,		/* struct fsl_ev_xfs_log_grant */
	FSL_EV_XFS_AIL_PUSH,			/* struct fsl_ev_xfs_ail */
	FSL_EV_XFS_AIL_PINNED,			/* struct fsl_ev_xfs_ail */
	FSL_EV_XFS_AIL_LOCKED,			/* struct fsl_ev_xfs_ail */
	FSL_EV_XFS_AIL_FLUSHING,		/* struct fsl_ev_xfs_ail */
	FSL_EV_XFS_BUF_READ,			/* struct fsl_ev_xfs_buf */
	FSL_EV_XFS_BUF_LOCK,			/* struct fsl_ev_xfs_buf */
	FSL_EV_XFS_BUF_LOCK_DONE,		/* struct fsl_ev_xfs_buf */
	FSL_EV_XFS_FILE_FSYNC,			/* struct fsl_ev_xfs_inode */
	FSL_EV_XFS_ALLOC_VEXTENT_FINISH = 144,	/* struct fsl_ev_xfs_alloc */
	FSL_EV_XFS_IALLOC_READ_AGI,		/* struct fsl_ev_xfs_ag */
	FSL_EV_XFS_IOMAP_ALLOC,			/* struct fsl_ev_xfs_imap */
	FSL_EV_XFS_IOMAP_FOUND,			/* struct fsl_ev_xfs_imap */
	FSL_EV_XFS_MAP_BLOCKS_ALLOC,		/* struct fsl_ev_xfs_imap */
	FSL_EV_XFS_MAP_BLOCKS_FOUND,		/* struct fsl_ev_xfs_imap */

	/* cpu: struct fsl_ev_cpu */
	FSL_EV_CPU = 160,

	/*
	 * xfs layout and inode placement (alloc family): which inode a
	 * directory entry names as it is added (a create's new inode: its AG
	 * and chunk follow from the number), the create itself, sparse inode
	 * chunk merges, and extents unmapped (truncate, delete, EOF trim).
	 */
	FSL_EV_XFS_DIR2_SF_ADDNAME = 176,	/* struct fsl_ev_xfs_dirname */
	FSL_EV_XFS_DIR2_BLOCK_ADDNAME,		/* struct fsl_ev_xfs_dirname */
	FSL_EV_XFS_DIR2_LEAF_ADDNAME,		/* struct fsl_ev_xfs_dirname */
	FSL_EV_XFS_DIR2_NODE_ADDNAME,		/* struct fsl_ev_xfs_dirname */
	FSL_EV_XFS_CREATE,			/* struct fsl_ev_xfs_create */
	FSL_EV_XFS_IREC_MERGE_PRE,		/* struct fsl_ev_xfs_irec */
	FSL_EV_XFS_IREC_MERGE_POST,		/* struct fsl_ev_xfs_irec */
	FSL_EV_XFS_BUNMAP,			/* struct fsl_ev_xfs_bunmap */
	/*
	 * The ext4 driver's indirect-block mapping (ext2/ext3-format files,
	 * no extents): kept in this range, which the layout work owns.
	 */
	FSL_EV_EXT4_IND_MAP_BLOCKS_ENTER = 184,	/* struct fsl_ev_ext4_map_enter */
	FSL_EV_EXT4_IND_MAP_BLOCKS_EXIT,	/* struct fsl_ev_ext4_map_blocks */
	/*
	 * An XFS inode's in-core extent list as it changes: a record inserted
	 * (also each one read from disk), removed, and before/after an update.
	 * Mirrored, they are the records xfs_bmap lists.
	 */
	FSL_EV_XFS_IEXT_INSERT = 186,		/* struct fsl_ev_xfs_iext */
	FSL_EV_XFS_IEXT_REMOVE,			/* struct fsl_ev_xfs_iext */
	FSL_EV_XFS_BMAP_PRE_UPDATE,		/* struct fsl_ev_xfs_iext */
	FSL_EV_XFS_BMAP_POST_UPDATE,		/* struct fsl_ev_xfs_iext */
	/* an unlinked inode taken off its AGI bucket as it is freed */
	FSL_EV_XFS_IUNLINK_REMOVE = 190,	/* struct fsl_ev_xfs_agino */

	/*
	 * block, bio level (family block): what blktrace calls Q, G, M, F, X
	 * and, for bio-based devices, C. struct fsl_ev_block_bio except
	 * block_split (struct fsl_ev_block_split); the requeue of a request is
	 * a struct fsl_ev_block_rq like the other request events.
	 */
	FSL_EV_BLOCK_BIO_QUEUE = 200,
	FSL_EV_BLOCK_GETRQ,		/* a request made from this bio */
	FSL_EV_BLOCK_BIO_BACKMERGE,	/* bio appended to a request */
	FSL_EV_BLOCK_BIO_FRONTMERGE,	/* bio put in front of a request */
	FSL_EV_BLOCK_RQ_REQUEUE,	/* struct fsl_ev_block_rq */
	FSL_EV_BLOCK_SPLIT,		/* struct fsl_ev_block_split */
	FSL_EV_BLOCK_BIO_COMPLETE,	/* completion of a bio-based device's bio */

	/*
	 * Ranges kept for the families being added: 160-175 cpu, 176-199 xfs
	 * (layout and inode placement), 207-215 block, 217-223 data
	 * (aio/io_uring submissions and completions).
	 */
	FSL_EV_FILE_PATH = 216,	/* struct fsl_ev_file_path (dirops): a data file's path */
	FSL_EV__MAX = 224,
};

/*
 * Common header. ts is CLOCK_MONOTONIC ns (bpf_ktime_get_ns); pid is the
 * tgid and tid the thread of the task current at the tracepoint (0 when the
 * event has no task, e.g. a completion in interrupt context is still
 * attributed to whatever ran, see docs/events.md).
 */
struct fsl_hdr {
	__u64 ts;
	__u32 pid;
	__u32 tid;
	__u16 type;	/* enum fsl_event_type */
	__u16 size;	/* whole record in bytes, header included */
	__u16 cpu;
	__u16 _pad;
};

/* Decoded rwbs / cmd_flags bits of block requests. */
#define FSL_RQ_READ	(1u << 0)
#define FSL_RQ_WRITE	(1u << 1)
#define FSL_RQ_SYNC	(1u << 2)
#define FSL_RQ_META	(1u << 3)
#define FSL_RQ_FUA	(1u << 4)
#define FSL_RQ_FLUSH	(1u << 5)	/* preflush */
#define FSL_RQ_DISCARD	(1u << 6)
#define FSL_RQ_AHEAD	(1u << 7)	/* readahead */
#define FSL_RQ_NONE	(1u << 8)	/* no data direction (e.g. bare flush) */

struct fsl_ev_block_rq {
	struct fsl_hdr hdr;
	__u32 dev;		/* kernel dev_t of the request queue's disk (MKDEV 12:20) */
	__u32 nr_sector;
	__u64 sector;
	__u32 bytes;
	__u32 flags;		/* FSL_RQ_* */
	__s32 error;		/* complete: blk_status_t as errno (0 ok) */
	__u32 _pad;
	__u64 rq;		/* request identity (kernel address), matches Q/D/C; 0 if unknown */
};

/*
 * A bio (block_bio_queue, block_getrq, block_bio_backmerge/frontmerge,
 * block_bio_complete). No identity: blktrace and btt match a bio to its
 * request by sector, and so does the analyzer. Kept small: bio_queue fires
 * for every bio.
 */
struct fsl_ev_block_bio {
	struct fsl_hdr hdr;
	__u32 dev;		/* kernel dev_t of the bio's disk (a partition's: its whole disk) */
	__u32 nr_sector;
	__u64 sector;		/* on the disk (after the partition remap) */
	__u32 flags;		/* FSL_RQ_* from bi_opf */
	__s32 error;		/* block_bio_complete: blk_status_t as errno */
};

/* block_split: the bio at sector was cut at new_sector; the rest goes on. */
struct fsl_ev_block_split {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 nr_sector;	/* the whole bio before the cut */
	__u64 sector;
	__u32 flags;
	__u32 _pad;
	__u64 new_sector;
};

/* Kernel dev_t (MAJOR << 20 | MINOR), as tracepoints report it. */
#define FSL_MAJOR(dev)	((unsigned int)((dev) >> 20))
#define FSL_MINOR(dev)	((unsigned int)((dev) & ((1u << 20) - 1)))
#define FSL_MKDEV(ma, mi) (((__u32)(ma) << 20) | (__u32)(mi))

/* start_commit, commit_locking/flushing/logging, end_commit */
struct fsl_ev_jbd2_commit {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 transaction;	/* tid */
	__u32 head;		/* end_commit only: j_tail_sequence */
	__u8 sync_commit;
	__u8 _pad[3];
};

/* jbd2_run_stats; times are jiffies as the kernel reports them (HZ in meta) */
struct fsl_ev_jbd2_run_stats {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 tid;
	__u64 wait;
	__u64 request_delay;
	__u64 running;
	__u64 locked;
	__u64 flushing;
	__u64 logging;
	__u32 handle_count;
	__u32 blocks;
	__u32 blocks_logged;
	__u32 _pad;
};

struct fsl_ev_jbd2_handle_start {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 tid;
	__u32 type;		/* EXT4_HT_* */
	__u32 line_no;
	__s32 requested_blocks;
	__u32 flags;		/* FSL_HS_* */
};

/*
 * Recorded in the default tier only for a task coming out of a checkpoint
 * (its handle start ends the checkpoint's writes): the handle is also
 * counted in its transaction's jbd2_handle_agg, so the journal's sums skip it.
 */
#define FSL_HS_IN_AGG	1

/* A handle start the default tier's sums already hold: not a handle of its own. */
static inline int fsl_hs_in_agg(const struct fsl_hdr *h)
{
	const struct fsl_ev_jbd2_handle_start *e = (const void *)h;

	return h->size >= sizeof(*e) && (e->flags & FSL_HS_IN_AGG);
}

struct fsl_ev_jbd2_handle_stats {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 tid;
	__u32 type;
	__u32 line_no;
	__s32 interval;		/* jiffies the handle was open */
	__s32 sync;
	__s32 requested_blocks;
	__s32 dirtied_blocks;
};

struct fsl_ev_jbd2_checkpoint {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 result;
};

struct fsl_ev_jbd2_checkpoint_stats {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 tid;
	__u64 chp_time;		/* jiffies */
	__u32 forced_to_close;
	__u32 written;
	__u32 dropped;
	__u32 _pad;
};

struct fsl_ev_jbd2_lock_buffer_stall {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 _pad;
	__u64 stall_ms;
};

/*
 * The target's jbd2 thread woken from its idle (interruptible) sleep: hdr
 * pid/tid are the waker, stack_id its kernel stack (the offcpu stack table).
 * The path that woke it is what asked for the next commit: fsync, sync(2),
 * a full transaction, a checkpoint, the commit timer.
 */
struct fsl_ev_jbd2_kick {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 stack_id;
};

/*
 * The default tier's journal handles (record without --full): the kernel
 * sums one transaction's jbd2_handle_start and jbd2_handle_stats per handle
 * site (type, line) and writes one record per site when the transaction
 * reaches T_FLUSH (every handle of it stopped), or at the end of the
 * recording for the transactions still running. wait_ns is the time from
 * ext4_journal_start_* to jbd2_handle_start on the same task, as the full
 * tier's pair gives it.
 */
struct fsl_ev_jbd2_handle_agg {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 tid;		/* the transaction */
	__u32 type;		/* EXT4_HT_* */
	__u32 line_no;
	__u32 started;		/* jbd2_handle_start */
	__u32 stopped;		/* jbd2_handle_stats */
	__u64 blocks;		/* dirtied_blocks summed over the stopped handles */
	__u64 wait_ns;		/* summed over the started handles with a journal start seen */
	__u64 max_ns;
	__u64 ip;		/* one caller's address (ext4_journal_start_*'s IP) */
};

struct fsl_ev_jbd2_update_log_tail {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 tail_sequence;
	__u32 first_tid;
	__u32 _pad;
	__u64 block_nr;
	__u64 freed;
};

/* ext4_journal_start_inode (ino set) and ext4_journal_start_sb (ino 0) */
struct fsl_ev_ext4_journal_start {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 blocks;
	__u64 ino;
	__u64 ip;		/* caller address; symbolized into the trace's symbol table */
	__s32 rsv_blocks;
	__s32 revoke_creds;
	__s32 type;		/* EXT4_HT_* */
	__u32 _pad;
};

/* writeback_start, writeback_written */
struct fsl_ev_writeback_work {
	struct fsl_hdr hdr;
	__u32 dev;		/* bdi's dev_t (from the bdi name "MAJ:MIN") */
	__u32 sb_dev;
	__s64 nr_pages;
	__s32 sync_mode;
	__s32 for_kupdate;
	__s32 range_cyclic;
	__s32 for_background;
	__s32 reason;		/* enum wb_reason, see docs/events.md */
	__u32 _pad;
	__u64 cgroup_ino;
};

/* writeback_single_inode_start, writeback_single_inode */
struct fsl_ev_writeback_single_inode {
	struct fsl_hdr hdr;
	__u32 dev;		/* bdi's dev_t */
	__u32 _pad;
	__u64 ino;
	__u64 state;
	__u64 dirtied_when;	/* jiffies */
	__u64 writeback_index;
	__s64 nr_to_write;
	__u64 wrote;
	__u64 cgroup_ino;
};

struct fsl_ev_writeback_dirty_inode {
	struct fsl_hdr hdr;
	__u32 dev;		/* bdi's dev_t */
	__u32 _pad;
	__u64 ino;
	__u64 state;
	__u64 flags;
};

/* balance_dirty_pages; page counts are pages, times are ms as the kernel reports */
struct fsl_ev_balance_dirty_pages {
	struct fsl_hdr hdr;
	__u32 dev;		/* bdi's dev_t */
	__u32 dirtied;
	__u64 limit;
	__u64 setpoint;
	__u64 dirty;
	__u64 wb_setpoint;
	__u64 wb_dirty;
	__u64 dirty_ratelimit;
	__u64 task_ratelimit;
	__u32 dirtied_pause;
	__u32 _pad;
	__u64 paused;
	__s64 pause;
	__u64 period;
	__s64 think;
};

struct fsl_ev_global_dirty_state {
	struct fsl_hdr hdr;
	__u64 nr_dirty;
	__u64 nr_writeback;
	__u64 background_thresh;
	__u64 dirty_thresh;
	__u64 dirty_limit;
	__u64 nr_dirtied;
	__u64 nr_written;
};

/*
 * ext4_writepages_result: one writeback call on an inode returned (the
 * journal commit's ordered-data calls included). stack_id is the kernel
 * stack it returned through (the offcpu stack table), which says who asked
 * for the writeback: the flusher, fsync, an O_SYNC write, the journal
 * commit, close or rename over a truncated file, direct I/O flushing the
 * page cache... pages_written is ext4's count of the folios' pages it
 * handled, which is more than it wrote: a large folio counts whole when a
 * few of its blocks were dirty, and a folio it could not write yet
 * (pages_skipped, redirtied) counts too. bytes is what it wrote: the write
 * bios the thread submitted between the call's ext4_writepages and this
 * (block_bio_queue), whole when FSL_WP_COUNTED says the start was seen.
 */
#define FSL_WP_COUNTED		(1u << 0)
/*
 * The call ran inside an fsync(2) or fdatasync(2) of the calling thread (its
 * syscall number, read from its saved registers): the cause is fsync, and
 * no stack was taken (stack_id < 0).
 */
#define FSL_WP_FSYNC_CALL	(1u << 1)

struct fsl_ev_ext4_writepages_result {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 ret;
	__u64 ino;
	__s32 pages_written;
	__s32 sync_mode;
	__s64 pages_skipped;
	__u64 writeback_index;
	__s32 stack_id;		/* < 0: none */
	__u32 bios;		/* write bios submitted during the call */
	__u64 bytes;		/* their bytes */
	__u32 flags;		/* FSL_WP_* */
	__u32 _pad;
};

/*
 * A direct-I/O write done: iomap_dio_complete of a write that
 * iomap_dio_rw_begin started, on a file of the recorded filesystem. Its
 * bytes went to the device without the page cache. hdr is the completing
 * context (an asynchronous write completes in a worker or an interrupt);
 * tid is the thread that submitted it.
 */
struct fsl_ev_dio_write {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 error;
	__u64 ino;
	__s64 pos;		/* file offset the write started at */
	__s64 ret;		/* bytes written, or -errno */
	__u32 tid;		/* the submitting thread */
	__u32 aio;		/* 1: asynchronous (io_submit, io_uring) */
};

/* ext4_request_blocks (block = 0), ext4_allocate_blocks */
struct fsl_ev_ext4_alloc_blocks {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 len;
	__u64 ino;
	__u64 block;
	__u32 logical;
	__u32 lleft;
	__u32 lright;
	__u32 flags;		/* EXT4_MB_HINT_* */
	__u64 goal;
	__u64 pleft;
	__u64 pright;
};

/* ext4_mballoc_alloc; ext4_mballoc_prealloc leaves goal_*, found..cr zero */
struct fsl_ev_ext4_mballoc_alloc {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 _pad0;
	__u64 ino;
	__u32 orig_logical;
	__s32 orig_start;
	__u32 orig_group;
	__s32 orig_len;
	__u32 goal_logical;
	__s32 goal_start;
	__u32 goal_group;
	__s32 goal_len;
	__u32 result_logical;
	__s32 result_start;
	__u32 result_group;
	__s32 result_len;
	__u16 found;
	__u16 groups;
	__u16 buddy;
	__u16 flags;
	__u16 tail;
	__u8 cr;
	__u8 _pad1[5];
};

/*
 * ext4_mb_new_inode_pa, ext4_mb_new_group_pa (pa_pstart, pa_lstart, pa_len),
 * ext4_mb_release_inode_pa (pa_pstart = block, pa_len = count),
 * ext4_mb_release_group_pa (ino 0, pa_pstart, pa_len).
 */
struct fsl_ev_ext4_pa {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 pa_len;
	__u64 ino;
	__u64 pa_pstart;
	__u64 pa_lstart;
};

struct fsl_ev_ext4_free_blocks {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 flags;
	__u64 ino;
	__u64 block;
	__u64 count;
	__u16 mode;
	__u16 _pad[3];
};

/* ext4_mballoc_free, ext4_mballoc_discard */
struct fsl_ev_ext4_mballoc_free {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 result_start;
	__u64 ino;
	__u32 result_group;
	__s32 result_len;
};

/*
 * ext4_request_inode (dir, mode), ext4_allocate_inode (ino, dir, mode),
 * ext4_free_inode (ino, uid, gid, blocks, mode), ext4_load_inode (ino).
 */
struct fsl_ev_ext4_inode {
	struct fsl_hdr hdr;
	__u32 dev;
	__u16 mode;
	__u16 _pad;
	__u64 ino;
	__u64 dir;
	__u32 uid;
	__u32 gid;
	__u64 blocks;
};

struct fsl_ev_ext4_map_blocks {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 flags;		/* EXT4_GET_BLOCKS_* */
	__u64 ino;
	__u64 pblk;
	__u32 lblk;
	__u32 len;
	__u32 mflags;		/* EXT4_MAP_NEW/MAPPED/UNWRITTEN/BOUNDARY */
	__s32 ret;
};

struct fsl_ev_ext4_writepages {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 sync_mode;
	__u64 ino;
	__s64 nr_to_write;
	__s64 pages_skipped;
	__s64 range_start;
	__s64 range_end;
	__u64 writeback_index;
	__u8 for_kupdate;
	__u8 range_cyclic;
	__u8 _pad[6];
};

/*
 * ext4_da_write_folios_start/end (positions in bytes), or on older kernels
 * ext4_da_write_pages (first_page in start_pos as a page index is converted
 * to bytes by the probe so both read the same).
 */
struct fsl_ev_ext4_da_write {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 sync_mode;
	__u64 ino;
	__s64 start_pos;
	__s64 next_pos;
	__s64 nr_to_write;
	__s32 ret;		/* end only */
	__u32 _pad;
};

struct fsl_ev_ext4_da_extent {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 len;
	__u64 ino;
	__u64 lblk;
	__u32 flags;		/* EXT4_MAP_* of the delayed extent */
	__u32 _pad;
};

/* ext4_mb_bitmap_load, ext4_mb_buddy_bitmap_load, ext4_read_block_bitmap_load */
struct fsl_ev_ext4_group_load {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 group;
	__u8 prefetch;
	__u8 _pad[7];
};

/*
 * ext4_sync_file_enter (ino, parent, datasync), ext4_sync_file_exit (ino, ret),
 * ext4_unlink_enter (ino, parent, size), ext4_unlink_exit (ino, ret).
 */
struct fsl_ev_ext4_file_op {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 ret;
	__u64 ino;
	__u64 parent;
	__s64 size;
	__s32 datasync;
	__u32 _pad;
};

/* Path-based system calls. */
enum fsl_dirop_kind {
	FSL_OP_OPEN = 0,	/* open/openat/openat2/creat without creating */
	FSL_OP_CREATE,		/* open with O_CREAT, creat */
	FSL_OP_MKDIR,
	FSL_OP_MKNOD,
	FSL_OP_UNLINK,
	FSL_OP_RMDIR,
	FSL_OP_RENAME,
	FSL_OP_LINK,
	FSL_OP_SYMLINK,
	FSL_OP_STAT,		/* newfstatat, statx, stat, lstat */
	FSL_OP_READDIR,		/* getdents64 */
	FSL_OP_FSYNC,
	FSL_OP_FDATASYNC,
	FSL_OP_SYNCFS,
	FSL_OP_SYNC,
	FSL_OP__MAX,
};

#define FSL_DIROP_PATH_MAX	256	/* bytes of each path kept; longer is truncated */
#define FSL_DIROP_TRUNC1	(1u << 0)	/* path truncated */
#define FSL_DIROP_TRUNC2	(1u << 1)	/* path2 truncated */
#define FSL_DIROP_FAULT		(1u << 2)	/* path could not be read */
/*
 * With a target (record -m/-d) the kernel keeps only the calls that acted
 * on it; pflags bits 4-6 say how that was decided (enum fsl_dirop_scope,
 * docs/record.md has the rule per system call). 0: not judged (recorded
 * without a target, or by an fslens before this).
 */
#define FSL_DIROP_SCOPE_SHIFT	4
#define FSL_DIROP_SCOPE_MASK	(7u << FSL_DIROP_SCOPE_SHIFT)
#define FSL_DIROP_WALK_INEXACT	(1u << 7)	/* the walk met a bound: judged on what it saw */

enum fsl_dirop_scope {
	FSL_DIROP_SCOPE_NONE = 0,
	FSL_DIROP_SCOPE_FD,		/* the file of the fd the call returned or was given */
	FSL_DIROP_SCOPE_STAT,		/* the device the stat call returned */
	FSL_DIROP_SCOPE_DIR_EVENT,	/* the filesystem traced a change of its directory in the call */
	FSL_DIROP_SCOPE_WALK,		/* the lookup's start and the mounts its path crosses */
	FSL_DIROP_SCOPE_ALL,		/* sync(): every filesystem */
};

/*
 * One record per completed call; hdr.ts is the entry time and lat_ns the
 * entry-to-exit latency. path (path_len bytes, no NUL) follows the fixed
 * part, then path2 (path2_len bytes: rename/link/symlink target); the record
 * is padded to 8 bytes. For fd-based calls (fsync, getdents64) path is empty
 * and fd is set.
 */
struct fsl_ev_dirop {
	struct fsl_hdr hdr;
	__u64 lat_ns;
	__s64 ret;
	__s32 dirfd;		/* AT_FDCWD = -100 */
	__s32 dirfd2;
	__s32 fd;
	__u32 flags;		/* open flags, AT_* flags, rename flags */
	__u32 mode;
	__u16 op;		/* enum fsl_dirop_kind */
	__u16 syscall;		/* the syscall nr on this arch */
	__u16 path_len;
	__u16 path2_len;
	__u16 pflags;		/* FSL_DIROP_* */
	__u16 _pad[3];
	char paths[];
};

/*
 * The entries one getdents64 call returned, in readdir order, read from the
 * caller's buffer at syscall exit: up to FSL_DIRENTS_MAX per record, several
 * records per call (seq = index of the first entry within the call). hdr.ts is
 * the exit time; the call's dirop record (op readdir) precedes them. type[] is
 * d_type (DT_*), fixed size; ino[] holds count inode numbers.
 */
#define FSL_DIRENTS_MAX		64
#define FSL_DIRENTS_TRUNC	(1u << 0)	/* the call returned more than was walked */
#define FSL_DIRENTS_FAULT	(1u << 1)	/* the buffer could not be read / was malformed */

struct fsl_ev_dirents {
	struct fsl_hdr hdr;
	__s32 fd;
	__u16 count;		/* entries in this record */
	__u16 flags;		/* FSL_DIRENTS_* (on the call's last record) */
	__u32 seq;
	__u32 _pad;
	__u8 type[FSL_DIRENTS_MAX];
	__u64 ino[];
};

static inline unsigned int fsl_dirents_size(unsigned int count)
{
	return sizeof(struct fsl_ev_dirents) + 8u * count;
}

/* Data operations (family dirops): fd-based calls on a regular file. */
enum fsl_data_kind {
	FSL_DATA_READ = 0,	/* read, readv */
	FSL_DATA_WRITE,		/* write, writev */
	FSL_DATA_PREAD,		/* pread64, preadv, preadv2 */
	FSL_DATA_PWRITE,	/* pwrite64, pwritev, pwritev2 */
	FSL_DATA_FSYNC,
	FSL_DATA_FDATASYNC,
	FSL_DATA_SYNC_RANGE,	/* sync_file_range */
	FSL_DATA_FALLOCATE,
	FSL_DATA_FTRUNCATE,
	FSL_DATA_COPY_RANGE,	/* copy_file_range */
	FSL_DATA_SENDFILE,
	FSL_DATA_SPLICE,
	/*
	 * Asynchronous I/O, one record per request on a file of the target:
	 * hdr.ts is the submission (io_submit's entry; io_uring_submit_req),
	 * lat_ns runs to its completion as the application gets it (libaio:
	 * the io_getevents that reaped it; io_uring: the CQE posted), ret is
	 * the request's result. hdr.pid/tid: the submitting thread.
	 */
	FSL_DATA_AIO_READ,	/* IOCB_CMD_PREAD, IOCB_CMD_PREADV */
	FSL_DATA_AIO_WRITE,	/* IOCB_CMD_PWRITE, IOCB_CMD_PWRITEV */
	FSL_DATA_AIO_FSYNC,	/* IOCB_CMD_FSYNC, IOCB_CMD_FDSYNC */
	FSL_DATA_URING_READ,	/* IORING_OP_READ, READV, READ_FIXED, READV_FIXED */
	FSL_DATA_URING_WRITE,	/* IORING_OP_WRITE, WRITEV, WRITE_FIXED, WRITEV_FIXED */
	FSL_DATA_URING_FSYNC,	/* IORING_OP_FSYNC (FSL_DATA_DATASYNC: with IORING_FSYNC_DATASYNC) */
	FSL_DATA__MAX,
};

#define FSL_DATA_DIRECT		(1u << 0)	/* the file is open O_DIRECT */
#define FSL_DATA_APPEND		(1u << 1)	/* O_APPEND: offset is where the end was */
#define FSL_DATA_VEC		(1u << 2)	/* readv/writev family (iovecs) */
#define FSL_DATA_IOV_TRUNC	(1u << 3)	/* more iovecs than summed: bytes is a floor */
#define FSL_DATA_OUT		(1u << 4)	/* copy/sendfile/splice: the target file is fd_out */
#define FSL_DATA_BOTH		(1u << 5)	/* copy_file_range: fd_out (ino2) is the target's too */
#define FSL_DATA_DATASYNC	(1u << 6)	/* an asynchronous fsync of the data only */
#define FSL_DATA_NAME_MAX	32

/*
 * One completed data operation whose file is on the recorded filesystem
 * (fd -> file -> inode -> superblock, read in the kernel at entry). hdr.ts
 * is the entry, lat_ns entry to exit. offset is the file position the call
 * started at (-1 for calls with none, e.g. fsync); bytes what was asked
 * (count, iovec total, length); ret what the call returned (bytes done or
 * -errno). name is the file's last path component (d_name), NUL padded.
 */
struct fsl_ev_data {
	struct fsl_hdr hdr;
	__u64 lat_ns;
	__s64 ret;
	__s64 offset;
	__u64 bytes;
	__u64 ino;
	__u32 dev;		/* the file's s_dev (kernel encoding) */
	__s32 fd;
	__u16 op;		/* enum fsl_data_kind */
	__u16 syscall;
	__u16 flags;		/* FSL_DATA_* */
	__u16 _pad;
	char name[FSL_DATA_NAME_MAX];
	/* with FSL_DATA_BOTH: the file written (fd_out), its name; 0 otherwise */
	__u64 ino2;
	char name2[FSL_DATA_NAME_MAX];
};

/*
 * The path of a file of the target from its filesystem's root ("/d/f"),
 * emitted before the first data record on it (and again should the probe
 * have forgotten it): names the files of the slowest calls and of the
 * per-file tables. Built from the dentries up to the root, so a name being
 * renamed at that moment may show either name. path is NUL padded.
 */
#define FSL_FILE_PATH_MAX	256
#define FSL_FILE_PATH_TRUNC	(1u << 0)	/* deeper than followed: the top is left out */

struct fsl_ev_file_path {
	struct fsl_hdr hdr;
	__u64 ino;
	__u32 dev;
	__u16 path_len;		/* bytes of path used */
	__u16 flags;		/* FSL_FILE_PATH_* */
	char path[FSL_FILE_PATH_MAX];
};

/* The bytes of path to use: path_len, never past the array (a crafted file). */
static inline unsigned int fsl_file_path_len(const struct fsl_ev_file_path *e)
{
	return e->path_len < FSL_FILE_PATH_MAX ? e->path_len : FSL_FILE_PATH_MAX;
}

/* Task states recorded with an off-CPU wait. */
#define FSL_OFFCPU_UNINTERRUPTIBLE	2	/* TASK_UNINTERRUPTIBLE */
/*
 * An interruptible sleep inside io_getevents, io_pgetevents or io_uring_enter
 * waiting for completions: recorded as uninterruptible with this bit (the
 * task is blocked on I/O all the same). Not a kernel task state.
 */
#define FSL_OFFCPU_AIO_WAIT		(1u << 30)
/* The task left the CPU inside a data operation on a file of the target. */
#define FSL_OFFCPU_IN_DATA_OP		(1u << 29)
/*
 * The task left the CPU holding a jbd2 handle (current->journal_info) of
 * the target's journal / of another filesystem's. Judged only when the
 * target has a journal thread.
 */
#define FSL_OFFCPU_HANDLE_TARGET	(1u << 28)
#define FSL_OFFCPU_HANDLE_OTHER		(1u << 27)
/* Woken by the target's journal thread / by another jbd2 thread. */
#define FSL_OFFCPU_WOKEN_JBD2_TARGET	(1u << 26)
#define FSL_OFFCPU_WOKEN_JBD2_OTHER	(1u << 25)
/* Inside a data operation on a file of another filesystem than the target. */
#define FSL_OFFCPU_IN_OTHER_OP		(1u << 24)
/*
 * Waiting for the writeback of a folio of the target / of another
 * filesystem (folio_wait_writeback came right before the sleep), or for
 * the flusher's work just queued on the target's disk / another's
 * (writeback_queue): sync(2) waits on every filesystem in turn.
 */
#define FSL_OFFCPU_FOLIO_TARGET		(1u << 23)
#define FSL_OFFCPU_FOLIO_OTHER		(1u << 22)
/*
 * Inside a path walk that stands in a directory of the target / of another
 * filesystem (current->nameidata): on-CPU samples only. A walk through the
 * root filesystem's directories is the root filesystem's work whatever the
 * process does on the target. Also a sample elsewhere in a followed path
 * call, held until the call's exit judged it the target's or another's
 * (probes/cpupend.bpf.h).
 */
#define FSL_OFFCPU_WALK_TARGET		(1u << 21)
#define FSL_OFFCPU_WALK_OTHER		(1u << 20)

/*
 * Stack ids at or above this come from the second stack map: the kernel's
 * stack map keeps one stack per hash bucket and refuses another whose hash
 * lands there (-EEXIST); such a stack is stored again, one frame shorter at
 * the top (a different hash), in a second map, and its id is offset by this.
 */
#define FSL_STACK2_BASE			(1 << 20)
/*
 * Ids from here are on-CPU stacks (the cpu family), given by the collector
 * to each distinct stack it drains; they are not in the kernel's stack map.
 */
#define FSL_STACK_CPU_BASE		(1 << 24)

/*
 * An off-CPU wait, emitted when the task runs again. hdr.ts is the moment it
 * left the CPU, dur_ns the time until it was switched back in.
 */
struct fsl_ev_offcpu {
	struct fsl_hdr hdr;
	__u64 dur_ns;
	__s32 stack_id;		/* key into the trace's stack table, < 0 if none */
	__u32 waker_pid;	/* tid of the task that woke it (0 unknown) */
	__u32 state;		/* prev_state when it left the CPU | FSL_OFFCPU_* */
	/*
	 * dev_t (kernel encoding) of the disk whose request completion woke
	 * it: the wakeup ran inside block_rq_complete's call chain on that
	 * CPU. 0: woken otherwise, or unknown (traces before it was added).
	 */
	__u32 wake_dev;
	__u64 runq_ns;		/* wakeup to switch-in (run-queue delay), 0 unknown */
};

/*
 * Whole-time accounting of one thread (offcpu family), summed in the kernel
 * at every context switch and wakeup and emitted once: when the thread is
 * switched out for the last time (TASK_DEAD), or by the collector at the end
 * of the recording for threads still alive. [first_ts, hdr.ts) is the span
 * accounted, from the thread's first wakeup as a new task or its first
 * switch-out seen, and oncpu + runq + blocked + sleep equals it exactly.
 * blocked is uninterruptible sleep (and the aio waits of
 * FSL_OFFCPU_AIO_WAIT) from switch-out to wakeup; the wakeup-to-run delay
 * after any sleep is runq, as is the time preempted.
 */
#define FSL_TASKTIME_EXIT	(1u << 0)	/* the thread ended; else alive at the end */
/*
 * A snapshot of a live thread's account, not its end: emitted at one of its
 * state changes (switch, wakeup) when at least the recorder's snapshot period
 * (docs/record.md) has passed since its previous record. The sums are
 * cumulative from first_ts, so two records of a thread give its parts
 * between them; last_state and last_since say that the thread was in one
 * state over [last_since, ts), which bounds what is not known to the part
 * before last_since (docs/wait-classes.md, whole time per window).
 */
#define FSL_TASKTIME_SNAP	(1u << 1)

/* The states of a tasktime account (last_state). */
enum fsl_tt_state { FSL_TT_ONCPU = 0, FSL_TT_RUNQ, FSL_TT_BLOCKED, FSL_TT_SLEEP, FSL_TT__MAX };

struct fsl_ev_tasktime {
	struct fsl_hdr hdr;	/* ts: end of the span; pid/tid: the thread */
	__u64 first_ts;
	__u64 oncpu_ns;
	__u64 runq_ns;		/* runnable, waiting for a CPU */
	__u64 blocked_ns;	/* uninterruptible sleep */
	__u64 sleep_ns;		/* other sleep (interruptible, stopped) */
	__u32 switches;		/* times switched in */
	__u32 flags;		/* FSL_TASKTIME_* */
	/* appended (older traces: absent, read as 0 = unknown) */
	__u32 last_state;	/* enum fsl_tt_state over [last_since, ts) */
	__u32 state;		/* the state entered at ts (snapshots) */
	__u64 last_since;	/* start of last_state; 0: unknown */
};

/*
 * On-CPU samples of one thread with one kernel stack, counted in the kernel
 * over one slot of time (a timer-driven perf event on every CPU, sampling
 * at period_ns). count * period_ns estimates the thread's on-CPU time with
 * that stack in [hdr.ts, hdr.ts + slot_ns). hdr.cpu is 0: a count sums CPUs.
 */
struct fsl_ev_cpu {
	struct fsl_hdr hdr;	/* ts: start of the slot; pid/tid: the thread sampled */
	__u64 slot_ns;
	__u64 period_ns;
	__s32 stack_id;		/* kernel stack (the stack table); < 0: none */
	__u32 count;
	__u32 flags;		/* FSL_CPU_USER | FSL_OFFCPU_IN_* | FSL_OFFCPU_HANDLE_* */
	__u32 _pad;
};

#define FSL_CPU_USER		(1u << 0)	/* interrupted in user mode: no kernel stack */
/*
 * hdr.ts is the slot's end, the slot [ts - slot_ns, ts) (fslens since stop
 * 26): in time order the record comes after the forks and operations of
 * its slot, so the tasks it counts are known when it is judged. Without
 * it, hdr.ts is the slot's start.
 */
#define FSL_CPU_TS_END		(1u << 8)

enum fsl_proc_kind {
	FSL_PROC_SEEN = 0,	/* first sight of a task (records pre-existing tasks) */
	FSL_PROC_FORK,
	FSL_PROC_EXEC,
	FSL_PROC_EXIT,
	FSL_PROC_COMM,		/* rename via prctl/comm write */
};

#define FSL_PROC_KTHREAD	(1u << 0)
#define FSL_PROC_CGROUP_MAX	128

struct fsl_ev_proc {
	struct fsl_hdr hdr;	/* pid/tid: the task the record is about */
	__u32 ppid;		/* parent tgid (fork: the parent) */
	__u32 kind;		/* enum fsl_proc_kind */
	__u32 flags;		/* FSL_PROC_* */
	__s32 exit_code;
	char comm[16];
	/*
	 * The task's cgroup on the cgroup v2 hierarchy: its id (the kernfs
	 * node's, the cgroup directory's inode number; 0 unknown), read in
	 * the kernel, and its path below the hierarchy's root ("/a/b"), filled
	 * by the recorder from /proc (the tail, "..." first, if longer);
	 * "" unknown. Traces before these read 0 and "".
	 */
	__u64 cgroup_id;
	char cgroup[FSL_PROC_CGROUP_MAX];
};

/*
 * XFS records. dev is the filesystem's s_dev (the data device for buffers),
 * caller_ip the kernel function that asked (symbolized by the reader).
 */

/* xfs_log_force: a caller forcing the log to lsn (0 = everything). */
struct fsl_ev_xfs_log_force {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 _pad;
	__u64 lsn;
	__u64 caller_ip;
};

/* xlog_iclog_wait_on (a task sleeps on an in-core log buffer), _sync, _sync_done. */
struct fsl_ev_xlog_iclog {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 state;		/* XLOG_STATE_* */
	__s32 refcount;
	__u32 offset;		/* bytes used in the iclog */
	__u32 flags;		/* XLOG_ICL_* */
	__u32 _pad;
	__u64 lsn;
	__u64 caller_ip;
};

/*
 * xfs_log_grant_sleep / _wake: a ticket waits for log space on the reserve
 * or write grant head (xlog_grant_head_wait) and is woken.
 */
struct fsl_ev_xfs_log_grant {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 curr_res;		/* bytes the ticket still holds */
	__s32 unit_res;		/* bytes one unit of it reserves */
	__u32 flags;		/* XLOG_TIC_* */
	__s32 reserveq;		/* 1 if tasks wait on the reserve head */
	__s32 writeq;		/* 1 if tasks wait on the write head */
	__u64 grant_reserve_bytes;
	__u64 grant_write_bytes;
	__u64 tail_space;	/* log bytes between tail and head (0 if the kernel has none) */
	__s32 curr_cycle;
	__s32 curr_block;
	__u64 tail_lsn;
	__u8 ocnt;
	__u8 cnt;
	__u8 _pad2[6];
};

/* xfs_ail_push / _pinned / _locked / _flushing: one log item the AIL pushed. */
struct fsl_ev_xfs_ail {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 type;		/* XFS_LI_* */
	__u64 flags;		/* XFS_LI_* state bits */
	__u64 lsn;
};

/*
 * xfs_buf_read (a metadata buffer looked up for reading; bno is a 512-byte
 * daddr, length in 512-byte units), xfs_buf_lock (about to sleep on its
 * lock) and xfs_buf_lock_done (got it).
 */
struct fsl_ev_xfs_buf {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 length;
	__u64 bno;
	__s32 hold;
	__s32 pincount;		/* > 0: pinned in the log until a force */
	__u32 lockval;
	__u32 flags;		/* XBF_* */
	__u64 caller_ip;
};

/* xfs_file_fsync: fsync/fdatasync entered on an XFS inode. */
struct fsl_ev_xfs_inode {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 _pad;
	__u64 ino;
	__u64 iflags;
};

/*
 * xfs_alloc_vextent_finish: the result of one extent allocation (agbno and
 * len in filesystem blocks inside AG agno; len 0 = failed). datatype 0 is
 * metadata (btree blocks, inode chunks), XFS_ALLOC_USERDATA etc. otherwise.
 */
struct fsl_ev_xfs_alloc {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 agno;
	__u32 agbno;
	__u32 minlen;
	__u32 maxlen;
	__u32 len;
	__u32 total;
	__u32 alignment;
	__s32 resv;
	__s32 datatype;
	__u8 wasdel;
	__u8 wasfromfl;
	__u8 _pad[6];
};

/* xfs_ialloc_read_agi: the AGI of AG agno read (inode allocation or free there). */
struct fsl_ev_xfs_ag {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 agno;
};

/*
 * xfs_iomap_alloc / _found (read/write/direct I/O mapping) and
 * xfs_map_blocks_alloc / _found (writeback): offset/count in bytes,
 * startoff/blockcount in fs blocks, startblock an XFS fsblock (AG in the
 * high bits, see docs/events.md); whichfork 0 data, 1 attr, 2 cow.
 */
struct fsl_ev_xfs_imap {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 whichfork;
	__u64 ino;
	__s64 size;
	__s64 offset;
	__u64 count;
	__u64 startoff;
	__u64 startblock;
	__u64 blockcount;
};

/*
 * xfs_dir2_{sf,block,leaf,node}_addname: entry name (its first
 * FSL_XFS_NAME_MAX bytes, NUL padded; namelen is the whole length) added to
 * directory dir for inode inumber. Inside a create (xfs_create of the same
 * thread just before), inumber is the inode just allocated.
 */
#define FSL_XFS_NAME_MAX	32

struct fsl_ev_xfs_dirname {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 hashval;
	__u64 dir;
	__u64 inumber;
	__u32 op_flags;		/* XFS_DA_OP_* */
	__s32 namelen;
	char name[FSL_XFS_NAME_MAX];
};

/* xfs_create: a create (file, directory, node) in directory dir, before the inode is allocated. */
struct fsl_ev_xfs_create {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 namelen;
	__u64 dir;
	char name[FSL_XFS_NAME_MAX];
};

/*
 * xfs_irec_merge_pre (agino/holemask: the record in the inode btree,
 * nagino/nholemask: the sparse chunk being merged into it) and
 * xfs_irec_merge_post (agino/holemask: the merged record; nagino 0).
 */
struct fsl_ev_xfs_irec {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 agno;
	__u32 agino;
	__u32 nagino;
	__u16 holemask;
	__u16 nholemask;
	__u32 _pad;
};

/*
 * xfs_bunmap: file blocks [fileoff, fileoff + len) unmapped from inode ino
 * (truncate, delete, trimming blocks past EOF, punching holes); flags are
 * XFS_BMAPI_* (ATTRFORK 0x4 and COWFORK 0x100 name the other forks).
 */
struct fsl_ev_xfs_bunmap {
	struct fsl_hdr hdr;
	__u32 dev;
	__s32 flags;
	__u64 ino;
	__s64 size;		/* the inode's disk size then */
	__u64 fileoff;
	__u64 len;
	__u64 caller_ip;
};

/*
 * xfs_iext_insert, xfs_iext_remove, xfs_bmap_pre_update, xfs_bmap_post_update:
 * one extent record of inode ino (startoff, blockcount in fs blocks;
 * startblock an fsblock, a delayed allocation's >= 2^52), state 1 when
 * unwritten; bmap_state BMAP_* (ATTRFORK 0x100 and COWFORK 0x200 are the
 * other forks), pos its index in the in-core list.
 */
struct fsl_ev_xfs_iext {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 state;
	__u64 ino;
	__u64 startoff;
	__u64 startblock;
	__u64 blockcount;
	__s32 bmap_state;
	__s32 pos;
	__u64 caller_ip;
};

/*
 * xfs_iunlink_remove: inode agino of AG agno leaves the unlinked list,
 * which an unlinked inode does when it is freed (xfs_ifree): the inode
 * number is agno << (agblklog + inopblog) | agino.
 */
struct fsl_ev_xfs_agino {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 agno;
	__u32 agino;
	__u32 _pad;
};

/* ext4_ind_map_blocks_enter: a mapping of [lblk, lblk + len) asked of an indirect-mapped inode. */
struct fsl_ev_ext4_map_enter {
	struct fsl_hdr hdr;
	__u32 dev;
	__u32 flags;		/* EXT4_GET_BLOCKS_* */
	__u64 ino;
	__u32 lblk;
	__u32 len;
};

#endif /* FSLENS_EVENT_H */
