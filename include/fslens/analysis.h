/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Analyses of one event stream: stalls (wait classes), operations, journal,
 * writeback, block I/O + seeks, layout (fragmentation) and trace health.
 *
 * Shared by `fslens report` (one pass over a trace file) and `fslens top`
 * (live, window after window), so that both print the same numbers for the
 * same interval. The contract:
 *
 *  - Incremental: the analyses are consumers of a session (session.h):
 *    fsl_analysis__attach() registers them on one whose context stage is
 *    opts.context, or fsl_analysis__feed() pushes events into a session of
 *    the set's own. Results can be read at any time, never "finalized".
 *  - Windows, one rule (docs/report-json.md): durations (blocked time) are
 *    split across window edges by overlap; counts (waits, operations, I/Os,
 *    commits, writeback passes) fall in the window [t0, t1) where they
 *    complete: a wait at ts + dur_ns, an operation at ts + lat_ns, an I/O at
 *    its completion, a commit at end_commit. Events outside the window still
 *    update live state (in-flight I/Os, open transactions, the task table),
 *    so a window gets the same numbers whether the stream started at t0 or
 *    long before. fsl_analysis__reset() starts a new window, keeping live
 *    state; this is how `top` steps from one refresh to the next, after the
 *    session's cut (opts.hold on the set's own session) has handed every
 *    wait in flight its part of the closing window.
 *  - No file I/O, no printing, no exit: renderers (analyzer/render_*.c) read
 *    the result structs below and write text, JSON or HTML.
 *  - Bounded memory: proportional to live objects (tasks, in-flight I/Os,
 *    open transactions, distinct stacks, directories up to a cap), not to
 *    the number of events. Percentiles come from log-linear histograms,
 *    time series from a fixed number of bins whose width doubles as the
 *    window grows. The layout analysis keeps the state it reports: the
 *    extents of the files the trace touched and the allocation runs
 *    (contiguous allocations of one inode merged), which grow with the
 *    filesystem's fragmentation, not with the event count.
 *
 * Times are CLOCK_MONOTONIC ns as in the events.
 */
#ifndef FSLENS_ANALYSIS_H
#define FSLENS_ANALYSIS_H

#include <stdint.h>
#include "event.h"
#include "session.h"

/* ---------------------------------------------------------------- helpers */

/*
 * Log-linear histogram of u64 values (ns, bytes, sectors): exact below 32,
 * then 32 linear sub-buckets per power of two, so a percentile is within
 * 1/64 (1.6%) of the true value. count/sum/min/max are exact.
 */
#define FSL_HIST_SUB_BITS	5
#define FSL_HIST_NBUCKETS	((48 - FSL_HIST_SUB_BITS + 1) << FSL_HIST_SUB_BITS)

struct fsl_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t b[FSL_HIST_NBUCKETS];
};

void fsl_hist_reset(struct fsl_hist *h);
void fsl_hist_add(struct fsl_hist *h, uint64_t v);
void fsl_hist_merge(struct fsl_hist *dst, const struct fsl_hist *src);
/* Value at quantile q (0..1): the middle of the bucket holding the
 * ceil(q * count)-th smallest value, clamped to [min, max]. 0 if empty. */
uint64_t fsl_hist_quantile(const struct fsl_hist *h, double q);
static inline uint64_t fsl_hist_avg(const struct fsl_hist *h)
{
	return h->count ? h->sum / h->count : 0;
}
/* Power-of-two view: out[i] = values in [2^i, 2^(i+1)) (out[0] also holds 0). */
void fsl_hist_log2(const struct fsl_hist *h, uint64_t out[64]);
/* The same over value / div (e.g. div 1000: microsecond rows from ns). */
void fsl_hist_log2_div(const struct fsl_hist *h, uint64_t div, uint64_t out[64]);

/*
 * Time series: FSL_SERIES_BINS bins of width width_ns starting at t0; when
 * an item falls past the last bin, the width doubles (bins are summed in
 * pairs). All series of one analysis share one fsl_timebase so they line up.
 */
#define FSL_SERIES_BINS		240
#define FSL_SERIES_MIN_WIDTH	10000000ull	/* 10 ms */

struct fsl_timebase {
	uint64_t t0;		/* start of bin 0 (0 = not set yet) */
	uint64_t width_ns;
	uint32_t nbins;		/* bins in use (last bin holds the latest item) */
};

/* ------------------------------------------------------------ wait classes */

enum fsl_wclass {
	FSL_WC_JOURNAL_LOG_SPACE = 0,
	FSL_WC_TXN_LOCKED,
	FSL_WC_BUFFER_UNDER_COMMIT,
	FSL_WC_COMMIT_WAIT,
	FSL_WC_HANDLE_START,
	FSL_WC_DIR_BLOCK_READ,
	FSL_WC_INODE_TABLE_READ,
	FSL_WC_BITMAP_READ,
	FSL_WC_WRITEBACK_THROTTLE,
	FSL_WC_BLOCK_THROTTLE,
	FSL_WC_FSYNC_WRITEBACK,
	FSL_WC_FREE_SPACE_WRITEBACK,
	FSL_WC_AIO_WAIT,
	FSL_WC_PAGE_WAIT,
	FSL_WC_QUEUE_WAIT,
	FSL_WC_FLUSH,
	FSL_WC_OTHER_IO,
	FSL_WC_OTHER,
	/* XFS (appended: the numbers above are stable) */
	FSL_WC_XFS_LOG_FORCE,		/* XFS: waiting for the log to reach disk (fsync, sync) */
	FSL_WC_XFS_LOG_SPACE,		/* XFS: waiting for log space on a grant head */
	FSL_WC_XFS_AIL_PUSH,		/* XFS: waiting for the AIL to write metadata back */
	FSL_WC_XFS_META_READ,		/* XFS: a metadata buffer read */
	FSL_WC_XFS_BUF_LOCK,		/* XFS: a metadata buffer's lock */
	FSL_WC_XFS_INODE_LOCK,		/* XFS: an inode's ilock/iolock/mmaplock */
	FSL_WC_XFS_ALLOC,		/* XFS: allocation waiting for busy extents */
	FSL_WC__MAX,
};

/* Stable id ("journal_log_space") and a short human label. */
const char *fsl_wclass_id(unsigned int cls);
const char *fsl_wclass_label(unsigned int cls);
/* Parse a stable id; -EINVAL if unknown. */
int fsl_wclass_parse(const char *id);

/*
 * Classify a stack (frames innermost first, "func" or "func+0x1a/0x40").
 * The rule table (analyzer/waitclass.c, docs/wait-classes.md) is data; the
 * matching rule with the highest rank wins, the outermost one among equals.
 * If rule_frame is not NULL it gets the index of the frame that decided
 * (-1 for FSL_WC_OTHER).
 */
unsigned int fsl_wclass_of_frames(const char *const *frames, unsigned int nframes,
				  int *rule_frame);
/*
 * Is the stack a parent waiting for its vfork child to exec or exit
 * (kernel_clone on its completion; wait_for_vfork_done where not inlined)?
 * Uninterruptible, but no stall: docs/wait-classes.md.
 */
int fsl_wait_is_child(const char *const *frames, unsigned int nframes);
/* The highest rank of the rules matching one frame; 0 if none matches. */
int fsl_wclass_frame_rank(const char *frame);
/* The rule table: rule idx (from 0); returns 0 past the end. */
int fsl_wclass_rule(unsigned int idx, const char **func, unsigned int *cls, unsigned int *rank);

/*
 * CPU classes: where on-CPU time of a sampled stack went (the cpu family).
 * The rule table (analyzer/cpuclass.c, docs/wait-classes.md) is data; the
 * innermost frame a rule names decides, because on-CPU the innermost code
 * is what burns the time (a checksum under an inode update is checksum
 * time). Ids are "cpu_..." so they never meet a wait class's.
 */
enum fsl_cclass {
	FSL_CC_DIRENT_SCAN = 0,	/* linear directory entry scan (lookup, insert, readdir) */
	FSL_CC_HTREE,		/* htree index: hashing, probing, splitting */
	FSL_CC_CHECKSUM,	/* metadata checksums (crc32c) */
	FSL_CC_MBALLOC,		/* block allocator: group scans, buddy */
	FSL_CC_IALLOC,		/* inode allocator: group choice, bitmap scan */
	FSL_CC_EXTENT,		/* extent tree and extent status lookups */
	FSL_CC_JOURNAL,		/* jbd2 bookkeeping: handles, buffers, commit */
	FSL_CC_INODE,		/* inode update, inode cache (iget, evict) */
	FSL_CC_PAGE_COPY,	/* copying data between user space and the page cache */
	FSL_CC_PAGE_CACHE,	/* page/buffer cache lookup and bookkeeping */
	FSL_CC_WRITEBACK,	/* preparing dirty pages for writeback */
	FSL_CC_BLOCK,		/* block layer and driver submission/completion */
	FSL_CC_PATH_LOOKUP,	/* path walk, dcache */
	FSL_CC_XFS,		/* XFS code */
	FSL_CC_EXT4_OTHER,	/* other ext4 code */
	FSL_CC_LOCK_SPIN,	/* spinning on a contended lock */
	FSL_CC_MEMORY,		/* allocation, freeing, page faults */
	FSL_CC_PROCESS,		/* fork, exec, exit */
	FSL_CC_SCHED,		/* scheduler, context switches */
	FSL_CC_IRQ,		/* interrupts and softirqs */
	FSL_CC_KERNEL_OTHER,	/* kernel code no rule names */
	FSL_CC_USER,		/* user space */
	FSL_CC_RECORDER,	/* the recorder's own probes running in the task */
	FSL_CC__MAX,
};

const char *fsl_cclass_id(unsigned int cls);
const char *fsl_cclass_label(unsigned int cls);
int fsl_cclass_parse(const char *id);
/*
 * Classify an on-CPU stack (frames innermost first). rule_frame, if not
 * NULL, gets the frame that decided (-1: none, FSL_CC_KERNEL_OTHER).
 */
unsigned int fsl_cclass_of_frames(const char *const *frames, unsigned int nframes,
				  int *rule_frame);
/* Rule idx of the table (docs, tests): 0 past the end. */
int fsl_cclass_rule(unsigned int idx, const char **func, unsigned int *cls, int *weak);
/* Pattern idx of the recorder's own frames (any frame: cpu_recorder); NULL past the end. */
const char *fsl_cclass_recorder_frame(unsigned int idx);

/* ----------------------------------------------------------------- tasks */

/*
 * Which tasks are "the workload": descendants of record.root_pid when the
 * trace has one, else every task that is not a kernel thread. Shares in the
 * diagnosis are of the workload's blocked time; kernel threads' waits are
 * evidence shown beside them.
 */
enum fsl_task_role { FSL_ROLE_WORKLOAD = 0, FSL_ROLE_KTHREAD, FSL_ROLE_OTHER };

/* ---------------------------------------------------------------- stalls */

#define FSL_TOP_STACKS		3

struct fsl_class_stat {
	uint64_t ns[3];			/* blocked ns by enum fsl_task_role */
	uint64_t count[3];
	uint64_t max_ns;		/* longest single wait (any role) */
	uint64_t workload_max_ns;	/* longest single wait of the workload */
	/* Heaviest stacks of this class (workload role first, then any). */
	int32_t top_stack[FSL_TOP_STACKS];	/* -1 = none; ranked by workload ns, then all */
	uint64_t top_stack_ns[FSL_TOP_STACKS];	/* all roles */
	uint64_t top_stack_wns[FSL_TOP_STACKS];	/* the workload's part */
	char top_comm[FSL_TOP_STACKS][16];	/* a task seen with that stack */
};

/* Per process (tgid) totals, for top's process view and the evidence. */
struct fsl_proc_stat {
	uint32_t pid;
	uint8_t role;			/* enum fsl_task_role */
	char comm[16];
	uint64_t blocked_ns;
	uint64_t ns[FSL_WC__MAX];
	uint64_t ops, op_lat_ns;	/* dirops completed and their summed latency */
	uint64_t read_bytes, write_bytes;	/* block I/O issued by it */
	uint64_t throttle_ns;		/* balance_dirty_pages pauses */
	struct fsl_hist op_lat;		/* ns of the dirops counted in ops */
	/* data operations on the target's files (read/write family): bytes done */
	uint64_t data_reads, data_writes, data_read_bytes, data_write_bytes;
	uint64_t oncpu_ns;		/* sampled on-CPU time (cpu family), target's work */
	char cgroup[FSL_PROC_CGROUP_MAX];	/* its cgroup v2 path, "" unknown */
};

#define FSL_OTHER_FS_DEVS	8

/*
 * Waits on other filesystems than the target (context stage, OTHERFS):
 * summed here and never among the target's classes, stacks or processes.
 * Per device, most blocked first; dev 0 = device unknown; past
 * FSL_OTHER_FS_DEVS devices the rest are summed in the last row's dev 0.
 */
struct fsl_other_fs {
	uint64_t waits;
	uint64_t ns[3];			/* by role */
	unsigned int ndev;
	struct {
		uint32_t dev;
		uint64_t waits, ns;
	} dev[FSL_OTHER_FS_DEVS];
};

struct fsl_stalls {
	uint64_t waits;			/* off-CPU events counted */
	uint64_t ns[3];			/* total blocked ns by role */
	uint64_t min_wait_ns;		/* the recording threshold (0 unknown) */
	struct fsl_class_stat cls[FSL_WC__MAX];
	/* Timeline: workload blocked ns per class per bin (on tb). */
	struct fsl_timebase tb;
	uint64_t series[FSL_WC__MAX][FSL_SERIES_BINS];
	struct fsl_other_fs other_fs;
};

/* ------------------------------------------------------------- whole time */

/*
 * The workload's threads' wall time, summed over threads (analyses/
 * wholetime.c): wall = oncpu + runq + blocked + sleep, each thread from its
 * first wakeup or switch seen to its end (or the end of the recording).
 * cls_ns splits blocked by wait class from the off-CPU records (sleep part
 * only); short_ns is the blocked time in waits under the recording
 * threshold, which have no record. threads = 0: the trace has no tasktime
 * records (older recorder, or the offcpu family off).
 */
#define FSL_WT_CPU_CLASSES	24

struct fsl_wholetime {
	uint32_t threads;
	uint32_t alive;			/* of which still running at the end */
	uint64_t wall_ns;
	uint64_t oncpu_ns;
	uint64_t runq_ns;
	uint64_t blocked_ns;
	uint64_t sleep_ns;
	uint64_t cls_ns[FSL_WC__MAX];
	uint64_t other_fs_ns;		/* waits on other filesystems than the target */
	/* in sleep_ns: a parent waiting for its vfork child (FSL_EVCTX_CHILD) */
	uint64_t child_wait_ns;
	uint64_t classified_ns;		/* sum of cls_ns and other_fs_ns, at most blocked_ns */
	uint64_t short_ns;		/* blocked_ns - classified_ns */
	/*
	 * On-CPU time by CPU class, where the trace has on-CPU samples and an
	 * analysis provides the split (the cpu family): ncpu classes whose ns
	 * sum to cpu_sampled_ns, which stands for oncpu_ns (a class's share of
	 * on-CPU is ns / cpu_sampled_ns). ncpu 0: no split.
	 */
	unsigned int ncpu;
	uint64_t cpu_sampled_ns;
	struct {
		char id[24];
		uint64_t ns;
	} cpu_cls[FSL_WT_CPU_CLASSES];
};

/* ----------------------------------------------------------------- cpu */

/*
 * On-CPU time by CPU class (the cpu family's samples): count x period,
 * the window's share of each slot by overlap. Estimates: a class's error
 * is about sqrt(samples) samples. Samples of another filesystem's work
 * (context stage, OTHERFS) are summed apart and never in the classes.
 */
#define FSL_CPU_TOP_STACKS	2

struct fsl_cpu {
	uint64_t period_ns;			/* 0: the trace has no cpu records */
	uint64_t samples[3];			/* by role, in the window */
	uint64_t ns[3][FSL_CC__MAX];		/* by role and class */
	uint64_t total_ns[3];			/* by role */
	uint64_t other_fs_ns;			/* the workload's, on other filesystems */
	uint64_t no_stack;			/* kernel samples whose stack is not known */
	/* the workload's costliest stacks per class; -1 none */
	int32_t top_stack[FSL_CC__MAX][FSL_CPU_TOP_STACKS];
	uint64_t top_stack_ns[FSL_CC__MAX][FSL_CPU_TOP_STACKS];
	char top_comm[FSL_CC__MAX][FSL_CPU_TOP_STACKS][16];
};

/* ----------------------------------------------------------------- ops */

#define FSL_TOP_DIRS		10

struct fsl_op_stat {
	uint64_t count;
	uint64_t errors;		/* ret < 0 */
	struct fsl_hist lat;		/* ns */
};

struct fsl_dir_stat {
	char path[128];			/* directory as the calls named it */
	uint64_t ops;
	uint64_t lat_ns;
	/* dir_block_read waits inside a path call of the same thread on an
	 * entry of this directory (counted when the wait ends in the window) */
	uint64_t lookup_wait_ns;
};

struct fsl_ops {
	uint64_t total;
	struct fsl_op_stat op[FSL_OP__MAX];
	/* Completions per bin: all ops, and creates (create+mkdir+mknod+symlink). */
	struct fsl_timebase tb;
	uint64_t series_all[FSL_SERIES_BINS];
	uint64_t series_create[FSL_SERIES_BINS];
	/* Latency heatmap: per bin, completions per log2(latency us) row. */
	uint32_t heat[FSL_SERIES_BINS][24];
	unsigned int ndirs;
	struct fsl_dir_stat dirs[FSL_TOP_DIRS];	/* hottest, most ops first */
	uint64_t dirs_other_ops;		/* ops in directories beyond the tracked set */
	uint64_t outside;	/* absolute paths outside target.mount: not counted above */
};

/* ------------------------------------------------------- data operations */

#define FSL_DATA_SLOWEST	10
#define FSL_DATA_TOP		10

struct fsl_data_op_stat {
	uint64_t count;
	uint64_t errors;		/* ret < 0 */
	uint64_t bytes_asked;
	uint64_t bytes_done;		/* sum of ret > 0 (read/write family, copies) */
	struct fsl_hist lat;		/* ns */
};

/*
 * A file's path as shown: the target's mount point and the path from its
 * filesystem's root (file_path records); "" when the trace has none.
 */
#define FSL_DATA_PATH_MAX	(2 * FSL_FILE_PATH_MAX + 8)

/* One of the slowest calls (ext4slower's line). */
struct fsl_data_slow {
	uint64_t ts, lat_ns, ino, bytes;
	int64_t offset, ret;
	uint32_t pid, tid, dev;
	uint16_t op, flags;
	char comm[16];
	char name[FSL_DATA_NAME_MAX];
	char path[FSL_DATA_PATH_MAX];
};

/* Bytes per file or per process (filetop's lines). */
struct fsl_data_top {
	uint64_t ino;			/* file: inode; process: 0 */
	uint32_t dev, pid;		/* file: dev; process: tgid */
	char name[FSL_DATA_NAME_MAX];	/* file name, or the process's comm */
	uint64_t reads, writes, read_bytes, write_bytes, lat_ns;
};

struct fsl_data {
	uint64_t total;
	/* done: read and write families, async I/O, and copies (each side on the target) */
	uint64_t read_bytes, write_bytes;
	struct fsl_data_op_stat op[FSL_DATA__MAX];
	unsigned int nslow;
	struct fsl_data_slow slow[FSL_DATA_SLOWEST];	/* slowest first */
	unsigned int nfiles, nprocs;
	struct fsl_data_top files[FSL_DATA_TOP];	/* most bytes first */
	char file_path[FSL_DATA_TOP][FSL_DATA_PATH_MAX];	/* files[i]'s path, or "" */
	struct fsl_data_top procs[FSL_DATA_TOP];
	uint64_t files_other;		/* distinct files beyond the tracked set */
	uint64_t outside;		/* records of another filesystem: not counted */
};

/* --------------------------------------------------------------- journal */

enum fsl_commit_trigger {
	FSL_TRIG_UNKNOWN = 0,
	FSL_TRIG_TIMER,		/* commit interval expired */
	FSL_TRIG_FSYNC,		/* an fsync/fdatasync was waiting for it */
	FSL_TRIG_FULL,		/* transaction reached its size limit */
	FSL_TRIG_LOG_SPACE,	/* forced to free log space (checkpoint) */
	FSL_TRIG_SYNC,		/* sync(2)/syncfs, unmount, or another sync commit */
	FSL_TRIG__MAX,
};
const char *fsl_trigger_name(unsigned int trig);

/*
 * What woke the journal thread for a commit, by a function in the waker's
 * stack (analyzer/an_util.c, an_kick_of_stack): trig is an FSL_TRIG_* value or
 * FSL_KICK_STOP (jbd2_journal_stop: the timer or a synchronous handle, told
 * apart by the transaction's age); of several in one stack the highest
 * rank wins. The monitor resolves the same table to addresses and decides
 * in the kernel.
 */
#define FSL_KICK_STOP	(FSL_TRIG__MAX + 1)

struct fsl_kick_rule {
	const char *func;
	uint8_t trig, rank;
};

/* The table; its length in *n. */
const struct fsl_kick_rule *fsl_kick_rules(unsigned int *n);

/* What was seen of a commit besides its kick (fsl_trigger_decide). */
#define FSL_TRIGF_LOG_SPACE	(1u << 0)	/* a checkpoint or log-space wait since the last commit */
#define FSL_TRIGF_FSYNC		(1u << 1)	/* an fsync waiting when it started */
#define FSL_TRIGF_FULL		(1u << 2)	/* found full by a task, or 90% of the size limit */
#define FSL_TRIGF_OLD		(1u << 3)	/* it ran its whole commit interval (run stats) */
#define FSL_TRIGF_NOSTATS	(1u << 4)	/* no run stats for it */
#define FSL_TRIGF_SYNC_COMMIT	(1u << 5)	/* jbd2 marked it a synchronous commit */

/*
 * Why a commit ran: the kick that woke the journal thread (0: none, else
 * FSL_TRIG_* + 1 or FSL_KICK_STOP) first, else a guess from what was
 * waiting (flags). The report's journal analysis and the monitor both
 * decide with this.
 */
unsigned int fsl_trigger_decide(unsigned int kick, unsigned int flags);

struct fsl_txn {
	uint32_t dev;
	uint32_t tid;
	uint8_t trigger;	/* enum fsl_commit_trigger */
	uint8_t sync_commit;
	uint8_t have_stats;	/* run_stats seen */
	uint8_t kicked;		/* trigger read from the jbd2 thread's waker, not guessed */
	/* Phase timestamps (0 = not seen). */
	uint64_t t_start, t_locking, t_flushing, t_logging, t_end;
	/* From jbd2_run_stats (jiffies converted to ns with host.hz). */
	uint64_t wait_ns, request_delay_ns, running_ns, locked_ns, flushing_ns, logging_ns;
	uint32_t handles, blocks, blocks_logged;
	/*
	 * Journal contents by handle site, from jbd2_handle_stats (each
	 * handle's credits used: the buffers it first added to this
	 * transaction): their sum and the site that dirtied the most.
	 */
	uint32_t dirtied, stats_handles;
	uint32_t top_type, top_line, top_blocks;
};

#define FSL_TXN_RING		512
#define FSL_HANDLE_SITES	32

/* Handle-start waits per (handle type, line). */
struct fsl_handle_site {
	uint32_t type;		/* EXT4_HT_* */
	uint32_t line;
	uint64_t count;
	uint64_t wait_ns;	/* ext4_journal_start -> jbd2_handle_start */
	uint64_t max_ns;
	uint64_t ip;		/* one caller address (symbolize via meta) */
	/* jbd2_handle_stats: handles stopped, blocks they dirtied (credits used) */
	uint64_t stopped, blocks;
};

struct fsl_journal {
	uint64_t commits;		/* end_commit seen in the window */
	struct fsl_hist commit_ns;	/* start_commit -> end_commit */
	uint64_t ewma_commit_ns;	/* as the kernel's j_average_commit_time */
	uint64_t trig[FSL_TRIG__MAX];
	uint64_t trig_guessed;		/* commits whose trigger no kick named (jbd2 was busy) */
	uint64_t kicks, kicks_unread;	/* jbd2 thread wake-ups; those no rule could read */
	/* Sums over transactions with run_stats, for /proc/fs/jbd2 info averages. */
	uint64_t stats_txns;
	uint64_t sum_running_ns, sum_locked_ns, sum_flushing_ns, sum_logging_ns;
	uint64_t sum_handles, sum_blocks, sum_blocks_logged;
	/* Sums over committed transactions of the phase times (ns, from the
	 * phase events): locked = locking..flushing, flushing = ..logging,
	 * logging = ..end. */
	uint64_t phase_txns, sum_locked_phase_ns, sum_flushing_phase_ns, sum_logging_phase_ns;
	/* Last FSL_TXN_RING committed transactions, oldest first at index 0. */
	unsigned int ntxns;
	struct fsl_txn txns[FSL_TXN_RING];
	/* Handle starts. */
	uint64_t handles;
	unsigned int nsites;
	struct fsl_handle_site sites[FSL_HANDLE_SITES];	/* most wait first */
	/*
	 * What the journal carried, by the site that dirtied it: handles
	 * stopped in the window (jbd2_handle_stats) and the blocks they
	 * dirtied, in total and per site, most blocks first.
	 */
	uint64_t handles_stopped, dirtied;
	unsigned int ncontents;
	struct fsl_handle_site contents[FSL_HANDLE_SITES];
	/* Checkpoints. */
	uint64_t checkpoints;
	uint64_t chp_time_ns, chp_written, chp_dropped;
	uint64_t lock_buffer_stalls, lock_buffer_stall_ns;
	uint64_t log_tail_updates, log_tail_freed;
	/* Commit timeline: commits ending per bin and their summed duration. */
	struct fsl_timebase tb;
	uint64_t series_commits[FSL_SERIES_BINS];
	uint64_t series_commit_ns[FSL_SERIES_BINS];
};

/* ------------------------------------------------------------- writeback */

#define FSL_WB_REASONS		10	/* enum wb_reason of the kernel, + "unknown" */
#define FSL_TOP_INODES		10
#define FSL_TOP_PROCS		10

const char *fsl_wb_reason_name(int reason);

/*
 * Who wrote the filesystem's data (analyzer/wbcause.c, docs/writeback.md):
 * each ext4 writeback call by the stack it returned through, the flusher's
 * by the reason of its work, and direct-I/O writes apart. Ids are stable.
 */
enum fsl_wbcause {
	FSL_WBC_BACKGROUND = 0,	/* flusher: over the background dirty threshold */
	FSL_WBC_PERIODIC,	/* flusher: dirty data older than dirty_expire */
	FSL_WBC_SYNC,		/* sync(2)/syncfs: the flusher for them (reason sync), or the caller */
	FSL_WBC_RECLAIM,	/* memory reclaim: the flusher woken for it (reason vmscan), pageout */
	FSL_WBC_FREE_SPACE,	/* ext4 low on free space (ext4_nonda_switch; reason fs_free_space) */
	FSL_WBC_FLUSHER_OTHER,	/* flusher: laptop timer, new bdi, foreign inodes, reason unknown */
	FSL_WBC_FSYNC,		/* fsync/fdatasync/msync writing the file's own data */
	FSL_WBC_SYNC_WRITE,	/* O_SYNC/O_DSYNC writes */
	FSL_WBC_SYNC_FILE_RANGE,
	FSL_WBC_JOURNAL,	/* the jbd2 commit writing ordered-mode data */
	FSL_WBC_REPLACE,	/* ext4 auto_da_alloc: close after truncate, rename over a file */
	FSL_WBC_DIO_FLUSH,	/* direct I/O flushing the page cache over its range */
	FSL_WBC_FADVISE,	/* posix_fadvise(DONTNEED) */
	FSL_WBC_OTHER,		/* no rule matched, or no stack */
	FSL_WBC_DIRECT,		/* direct I/O writes: no page cache, no writeback */
	FSL_WBC__MAX,
};
const char *fsl_wbcause_id(unsigned int cause);
const char *fsl_wbcause_label(unsigned int cause);
/* The cause a flusher work's enum wb_reason names. */
unsigned int fsl_wbcause_of_reason(int reason);
/*
 * The cause of a writeback call from its stack (frames innermost first):
 * the outermost frame a rule names decides; FSL_WBC__MAX for the flusher
 * (its work's reason decides), FSL_WBC_OTHER when no rule matches.
 * rule_frame, if not NULL, gets the deciding frame (-1 none).
 */
unsigned int fsl_wbcause_of_frames(const char *const *frames, unsigned int nframes,
				   int *rule_frame);
/* Rule idx of the table (docs, tests): 0 past the end. */
int fsl_wbcause_rule(unsigned int idx, const char **func, unsigned int *cause);

struct fsl_wb_inode {
	uint64_t ino;
	uint64_t pages;		/* writeback_single_inode: wrote */
	uint64_t passes;
};

struct fsl_wb_throttle {
	uint32_t pid;
	char comm[16];
	uint64_t pauses;
	uint64_t pause_ns;
};

struct fsl_writeback {
	uint64_t works[FSL_WB_REASONS];		/* writeback_written passes by reason */
	uint64_t pages[FSL_WB_REASONS];		/* pages written by reason */
	uint64_t inode_passes, inode_pages;
	unsigned int ninodes;
	struct fsl_wb_inode inodes[FSL_TOP_INODES];	/* most pages first */
	uint64_t throttle_pauses, throttle_ns;
	unsigned int nthrottled;
	struct fsl_wb_throttle throttled[FSL_TOP_PROCS];	/* most paused first */
	/* Last global dirty state (pages) and the series (last value per bin). */
	uint64_t nr_dirty, nr_writeback, dirty_thresh, bg_thresh;
	struct fsl_timebase tb;
	uint64_t series_dirty[FSL_SERIES_BINS];
	uint64_t series_writeback[FSL_SERIES_BINS];
	uint64_t series_written[FSL_SERIES_BINS];	/* pages written per bin */
	uint64_t series_throttle_ns[FSL_SERIES_BINS];
	/*
	 * The filesystem's data written, by who caused it: pages the ext4
	 * writeback calls wrote (ext4_writepages_result, counted where the
	 * call returned) and direct-I/O bytes (counted where the write
	 * completed), in bytes; calls: writeback calls or direct writes.
	 */
	uint64_t cause_bytes[FSL_WBC__MAX];
	uint64_t cause_calls[FSL_WBC__MAX];
	uint64_t cause_pages[FSL_WBC__MAX];	/* writeback causes; 0 for direct_io */
	uint64_t data_bytes;			/* sum of cause_bytes */
	uint32_t page_size;			/* bytes per page (host.page_size, 4096) */
	/*
	 * The device's own account, to check the causes against (ext4 target
	 * with its geometry): bytes of write requests completed without error
	 * on the target's device, by what the blocks hold (the context
	 * stage's block classes and the request's REQ_META): data (file data
	 * or an unclassed block, not REQ_META), metadata (REQ_META, or a
	 * metadata class), journal. have_device = 0: no block records or no
	 * geometry.
	 */
	int have_device;
	uint64_t dev_data_bytes, dev_meta_bytes, dev_journal_bytes;
};

/* --------------------------------------------------------------- blockio */

#define FSL_MAX_DEVS		8
#define FSL_MAX_ISSUERS		16
#define FSL_SCATTER_MAX		4096

struct fsl_io_issuer {
	char comm[16];		/* kernel threads keep their name: jbd2/loop0-8, kworker/... */
	uint64_t ios, bytes;
	uint64_t q2c_ns;	/* summed; Q: the request's first bio queued (its insert or issue
				 * when the trace has no bios) */
	uint64_t q2c_max_ns;
};

/* One point of the offset-vs-time scatter (decimated to FSL_SCATTER_MAX). */
struct fsl_io_point {
	uint64_t ts;		/* issue time */
	uint64_t sector;
	uint32_t nr_sector;
	uint32_t flags;
};

/*
 * What an ext4 block holds (analyzer/blockclass.c, docs/report-json.md):
 * the static metadata from the recorded geometry and group tables (the
 * superblock and its backups, the group descriptors with the reserved GDT
 * blocks, each group's bitmaps and inode table wherever they lie, flex_bg or
 * not, the internal journal's superblock and log), and the blocks the trace
 * saw allocated or mapped: directory blocks, extent-tree blocks, file data.
 * FSL_BC_OTHER: none of those known (a block in use before the trace whose
 * owner the trace never mapped).
 */
enum fsl_block_class {
	FSL_BC_OTHER = 0,
	FSL_BC_SUPER,		/* superblock (primary or backup) */
	FSL_BC_BBITMAP,
	FSL_BC_IBITMAP,
	FSL_BC_ITABLE,
	FSL_BC_JOURNAL,		/* the journal's log (descriptors, copies, commit blocks) */
	FSL_BC_GDT,		/* group descriptors and reserved GDT blocks */
	FSL_BC_JSB,		/* the journal superblock (its first block) */
	FSL_BC_DIR,		/* a directory's blocks (htree index and leaves) */
	FSL_BC_EXTENT,		/* extent-tree blocks (allocated without the data hint) */
	FSL_BC_DATA,		/* regular files' data */
	FSL_BC__MAX,
};
/* Blocks that go through the journal in data=ordered: every class but data and the journal's own. */
static inline int fsl_block_class_is_meta(unsigned int cls)
{
	return cls == FSL_BC_SUPER || cls == FSL_BC_BBITMAP || cls == FSL_BC_IBITMAP ||
	       cls == FSL_BC_ITABLE || cls == FSL_BC_GDT || cls == FSL_BC_DIR ||
	       cls == FSL_BC_EXTENT;
}
const char *fsl_block_class_name(unsigned int cls);

/*
 * Why an issue has no completion paired with it, or a completion no issue
 * (struct fsl_dev_io.unpaired).
 */
enum fsl_unpaired {
	FSL_UNP_REQUEUED = 0,	/* the driver sent it back (block_rq_requeue): issued again */
	FSL_UNP_NOT_SEEN,	/* the slot was issued or inserted again with no completion in
				 * between: the kernel completed it, the trace has no record */
	FSL_UNP_IN_FLIGHT,	/* issued, not completed when the recording ended */
	FSL_UNP_BEFORE_START,	/* a completion of a slot not seen before: issued before the start */
	FSL_UNP_NO_ISSUE,	/* a completion of a slot seen before, with no issue since */
	FSL_UNP__MAX,
};
const char *fsl_unpaired_name(unsigned int why);

/*
 * Block I/O counted the way the kernel counts it in /sys/block/DEV/stat
 * (Documentation/block/stat.rst), by stat group (enum fsl_stat_group of
 * fslens/meta.h: read, write, discard, flush): an I/O at the end of its
 * request (a request that went through the flush machinery, once; an empty
 * preflush write too, though only the queue's flush request reached the
 * disk), sectors at every completion, merges of a bio into a request and
 * of two requests, flushes as the flush requests that ran.
 */
struct fsl_blk_counts {
	uint64_t ios[FSL_SG__MAX], merges[FSL_SG__MAX], sectors[FSL_SG__MAX];
};

struct fsl_dev_io {
	uint32_t dev;
	uint64_t completed, reads, writes, read_bytes, write_bytes;
	uint64_t meta, sync, flushes, discards, merges, errors;
	struct fsl_hist size;			/* bytes per request */
	/*
	 * Requests with data only (btt leaves zero-byte requests out). With
	 * bio events in the trace (bio_level), btt's own figures: one sample
	 * per bio queued (Q) that completed, as btt counts them; else one
	 * per request, Q its insert (or its issue when it had none).
	 */
	struct fsl_hist q2d, d2c, q2c;		/* ns */
	int bio_level;
	/* btt's other stages (bio_level): per bio, from its Q, its request's G, I, D */
	struct fsl_hist q2q, q2g, g2i, q2m, i2d, m2d;
	uint64_t bios, bio_merges, splits;	/* Q (with data), M + F, X events */
	uint64_t bios_dup;	/* Q at the start sector of a bio in flight: replaces it, as in btt */
	uint64_t bios_not_seen;	/* bios of requests whose completion is not in the trace */
	/*
	 * Pairing of the requests: issues, and what became of each (paired
	 * with its completion, or unpaired by reason); completions with no
	 * issue by reason; the zero-byte completion that ends the flush
	 * sequence of an empty preflush write (never issued: its cache flush
	 * was the queue's flush request).
	 */
	uint64_t issues, paired, unpaired[FSL_UNP__MAX];
	uint64_t flush_seq_ends;
	uint64_t partials;	/* completions of a part of a request (more follow) */
	/*
	 * The trace's counts beside the kernel's (kstat, the delta of
	 * queue.stat.start/end when the trace has them and the window holds
	 * theirs; target disk only): counted over the two reads' window;
	 * not_seen are completions the trace lacks, known from their request
	 * being reused (FSL_UNP_NOT_SEEN): the kernel counted them.
	 */
	struct fsl_blk_counts kc, not_seen;
	uint64_t in_flight_end;		/* issued and not completed at the end read */
	int have_kstat;
	struct fsl_blk_counts kstat;
	uint64_t kstat_in_flight;	/* the kernel's in-flight count at the end read */
	uint64_t kstat_t0, kstat_t1;	/* the reads (CLOCK_MONOTONIC) */
	/* Zero-byte requests (cache flushes), completed: counted in
	 * `completed`, their latencies apart. */
	uint64_t flush_rqs;
	struct fsl_hist flush_q2d, flush_d2c, flush_q2c;	/* ns */
	/* Every completion traced (blkparse's C); double_completions: the
	 * second, zero-byte completion the kernel traces for a request that
	 * went through the flush machinery (preflush / FUA). */
	uint64_t completions, double_completions;
	/*
	 * Seeks between consecutive dispatches with data, btt's D2D: the first
	 * from sector 0; 0 when the ranges overlap or touch; forward from the
	 * previous end, backward from the previous start. d2d: dispatches.
	 */
	uint64_t d2d, seeks, seq, backward;
	uint64_t seek_total;			/* sum of |distance|, all dispatches */
	struct fsl_hist seek_abs;		/* |distance|, all dispatches (0 too) */
	struct fsl_hist seek_dist;		/* |distance|, seeks only */
	uint64_t seek_mode, seek_mode_count;	/* most frequent |distance| (0 too) */
	/*
	 * The same dispatches split by direction, as btt -s writes its _r and
	 * _w files: [0] reads (FSL_RQ_READ), [1] every other dispatch with data.
	 * A dispatch's distance is from the previous dispatch of either
	 * direction (where the head was), so the two sums add up to the above.
	 */
	struct fsl_seek_dir {
		uint64_t d2d, seeks, seek_total;
	} dir[2];
	/*
	 * Blocks written on the target device (dispatches with data, the
	 * filesystem's block size) by what the block holds: enum
	 * fsl_block_class, from the recorded geometry (ext4 only; 0 elsewhere).
	 */
	uint64_t wr_class[FSL_BC__MAX];
	unsigned int nissuers;
	struct fsl_io_issuer issuers[FSL_MAX_ISSUERS];	/* most bytes first */
	struct fsl_timebase tb;
	uint64_t series_ios[FSL_SERIES_BINS];
	uint64_t series_bytes[FSL_SERIES_BINS];
	uint64_t series_seeks[FSL_SERIES_BINS];
	unsigned int npoints;
	uint32_t point_stride;			/* every point_stride-th dispatch kept */
	struct fsl_io_point points[FSL_SCATTER_MAX];
};

struct fsl_blockio {
	unsigned int ndevs;
	struct fsl_dev_io devs[FSL_MAX_DEVS];	/* target device first */
	uint64_t unmatched;			/* completions with no issue seen */
	uint64_t lost;				/* block events the ring lost (trace stats) */
};

/* -------------------------------------------------------------- contents */

/* Who wrote a block (analyses/contents.c). */
enum fsl_block_writer {
	FSL_WR_COMMIT = 0,	/* the journal thread: log, journal superblock, ordered data */
	FSL_WR_CHECKPOINT,	/* a task checkpointing (jbd2_log_do_checkpoint) */
	FSL_WR_WRITEBACK,	/* a flusher in a writeback work */
	FSL_WR_FSYNC,		/* a task in ext4_sync_file */
	FSL_WR_OTHER,		/* sync(2), direct I/O, reclaim, ... */
	FSL_WR__MAX,
};
const char *fsl_block_writer_name(unsigned int w);

/* What one checkpoint of a transaction wrote home (jbd2_checkpoint_stats). */
struct fsl_chp_txn {
	uint32_t dev, tid;
	uint64_t ts;
	uint32_t written, dropped;	/* the kernel's counts */
	uint64_t blocks[FSL_BC__MAX];	/* what its checkpointing task wrote, by class */
};

/*
 * The target's blocks (the filesystem's block size) read and written, by
 * class and writer, counted at dispatch; classes need the ext4 geometry
 * (classes = 0: all counts 0).
 */
struct fsl_contents {
	int classes;
	uint32_t block_size;
	uint64_t written[FSL_WR__MAX][FSL_BC__MAX];
	uint64_t wb_reason[FSL_WB_REASONS][FSL_BC__MAX];	/* writeback's, by reason */
	uint64_t read[FSL_BC__MAX];
	/*
	 * The journal's contents by class: the metadata classes written home
	 * by every writer but commit (what went through the journal, classed
	 * as it leaves), and their sum.
	 */
	uint64_t home[FSL_BC__MAX];
	uint64_t home_total;
	/* Checkpoints of transactions in the window, oldest first. */
	unsigned int nchp;
	struct fsl_chp_txn chp[FSL_TXN_RING];
};

/* ------------------------------------------------------------ allocator */

#define FSL_ALLOC_CRS	5

/* ext4_mballoc_alloc decisions in the window (analyses/allocstat.c). */
struct fsl_allocstat {
	uint64_t decisions;		/* searches (ext4_mballoc_alloc) */
	uint64_t by_cr[FSL_ALLOC_CRS];	/* by the criteria pass that found the result */
	uint64_t goal_hits;		/* result at the normalized goal (s_bal_goals) */
	uint64_t groups;		/* groups scanned */
	uint64_t asked, found;		/* blocks (clusters) asked and found */
	uint64_t prealloc;		/* served from a preallocation (ext4_mballoc_prealloc) */
};

/* ---------------------------------------------------------------- layout */


/* One e2fsck -E fragcheck line and who took the block the file expected. */
struct fsl_frag_break {
	uint64_t ino;
	char kind;		/* 'f' file, 'd' directory */
	uint64_t expect;	/* physical block expected (previous extent end + 1) */
	uint64_t phys, log, len;	/* the extent that starts elsewhere */
	uint64_t taker_ino;	/* inode whose allocation holds `expect` (0 unknown) */
	uint64_t taker_ts;	/* when it was allocated */
	uint8_t taker_how;	/* enum fsl_alloc_how */
	/*
	 * 1: `expect` itself was still free, but a reservation of taker_ino
	 * starting at taker_block (after it) left too small a hole for the
	 * (normalized) request, so the allocator went elsewhere.
	 */
	uint8_t taker_near;
	uint64_t taker_block;
	/*
	 * What holds `expect` at the end of the trace (what debugfs icheck
	 * names): enum fsl_taker_kind. For FSL_TAKER_FILE and _EXTENT_TREE,
	 * taker_ino is the owner; taker_ts its allocation of the block.
	 */
	uint8_t taker_kind;
	uint8_t taker_later;	/* the block was free when this extent was allocated */
	uint8_t pa_reserved;	/* ...but held in a group preallocation then */
	uint8_t have_decision;	/* goal..cr below are the allocator's (ext4_mballoc_alloc) */
	uint64_t ts;		/* when this extent was allocated (mapped) */
	uint64_t pa_ino;	/* group/inode preallocation it came from: its creator */
	uint64_t pa_ts, pa_start, pa_len;
	/* the allocator's decision for this extent (the request that went elsewhere) */
	uint64_t goal;		/* physical goal asked for */
	uint64_t norm_start, norm_len;	/* the normalized request */
	uint8_t norm_known;	/* norm_start is known (the trace can say -1) */
	uint64_t req_len;	/* the original request */
	uint8_t cr;		/* criteria pass that found the result */
	const char *cr_name;	/* its name in this kernel ("CR_GOAL_LEN_FAST"), NULL unknown */
	uint32_t groups_scanned;	/* groups the search looked at */
	/*
	 * What the goal group offered at that decision, for a break whose
	 * expected block was free when the extent went elsewhere (taker_later,
	 * or FSL_TAKER_FREE): its free space in core then, rebuilt from the
	 * recorded start bitmap and every allocation, preallocation (held
	 * whole until released) and free before the decision.
	 */
	struct fsl_goal_offer {
		uint8_t have;
		uint8_t goal_free;	/* the goal block itself was free */
		uint8_t goal_tried;	/* EXT4_MB_HINT_TRY_GOAL: find_by_goal ran */
		uint8_t fit_at_goal;	/* free from the normalized start for norm_len blocks */
		uint8_t fit_in_group;	/* some free extent of the group held norm_len */
		uint8_t nnear;
		uint8_t norm_known;	/* the trace gave the normalized start (else: the goal) */
		uint32_t group;		/* the goal's group */
		uint64_t free;		/* free blocks in it */
		uint64_t extents;	/* free extents in it */
		uint64_t at_norm;	/* free blocks from the normalized start (or goal) on, in its group */
		uint64_t largest_start, largest_len;
		uint64_t near_start[3], near_len[3];	/* the free extents nearest the goal */
		/*
		 * Of the blocks the allocator found (result_len), how many this
		 * rebuilt state has free: all of them when it is right.
		 */
		uint64_t result_len, result_free;
	} offer;
};

enum fsl_taker_kind {
	FSL_TAKER_UNKNOWN = 0,	/* in use, owner not seen (before the trace) */
	FSL_TAKER_FILE,		/* a data block of taker_ino */
	FSL_TAKER_EXTENT_TREE,	/* an extent-tree block of taker_ino */
	FSL_TAKER_SUPER,	/* a backup superblock (the primary in group 0) */
	FSL_TAKER_GDT,		/* group descriptors (or their backup) */
	FSL_TAKER_RESERVED_GDT,	/* reserved GDT blocks: the resize inode's (taker_ino 7) */
	FSL_TAKER_BBITMAP,	/* a block bitmap */
	FSL_TAKER_IBITMAP,	/* an inode bitmap */
	FSL_TAKER_ITABLE,	/* an inode table */
	FSL_TAKER_FREE,		/* free at the end: the allocator went elsewhere */
};
const char *fsl_taker_kind_name(unsigned int kind);

/*
 * Where the breaks fall, in logical blocks: at a multiple of the writeback
 * extent limit (ext4's MAX_WRITEPAGES_EXTENT_LEN, 2048 blocks per mapping in
 * one writeback pass), at mb_stream_req (the request is still small-file,
 * locality-group, until the file reaches mb_stream_req blocks: breaks at
 * mb_stream_req - 1 and mb_stream_req), at a multiple of mb_group_prealloc.
 */
struct fsl_break_pos {
	uint64_t breaks;
	uint64_t wb_limit, stream_req, group_pa, other;
	uint32_t wb_len, stream_len, group_len;
	uint64_t other_log[3], other_n[3];	/* the most common of the other positions */
};
struct fsl_layout;
void fsl_layout__break_pos(const struct fsl_layout *l, struct fsl_break_pos *out);

enum fsl_alloc_how {
	FSL_HOW_UNKNOWN = 0,
	FSL_HOW_WRITEBACK,	/* delalloc writeback of that inode */
	FSL_HOW_DIRECT,		/* allocated at write time (nodelalloc, dirs, O_DIRECT) */
	FSL_HOW_INODE_PA,	/* from the inode's preallocation */
	FSL_HOW_GROUP_PA,	/* small-file (locality group) preallocation */
	FSL_HOW_METADATA,	/* extent tree / directory block */
};
const char *fsl_alloc_how_name(unsigned int how);

struct fsl_layout_file {
	uint64_t ino;
	char kind;
	uint32_t extents;
	uint64_t blocks;
};

struct fsl_layout;	/* opaque: queried through the functions below */

/* ----------------------------------------------------------------- health */

struct fsl_health {
	uint64_t events[FSL_FAM__MAX];
	uint64_t lost[FSL_FAM__MAX];
	uint64_t first_ts, last_ts;
	uint64_t min_wait_us;		/* record.min_wait_us, 0 unknown */
	const char *probe_mode;		/* record.probe_mode or NULL */
	const char *missing;		/* record.missing or NULL */
	const char *loss_advice;	/* record.loss_advice (why events were lost) or NULL */
	uint64_t lost_behind, lost_burst;	/* record.lost_behind, record.lost_burst */
	uint64_t unknown_events;	/* types this build does not know */
	uint64_t unknown_stacks;	/* off-CPU events whose stack was absent */
	/*
	 * Families (bit i = enum fsl_family i): recorded (record.families; 0
	 * when the trace does not say), and those not recorded because they
	 * cannot apply to the target: no block device under it (block,
	 * writeback: tmpfs, fuse, NFS), not ext4 or XFS (journal, alloc).
	 */
	uint32_t fam_recorded, fam_no_disk, fam_no_fs;
};

/* -------------------------------------------------------- the whole set */

enum fsl_section {
	FSL_SEC_DIAGNOSIS = 1u << 0,
	FSL_SEC_OPS = 1u << 1,
	FSL_SEC_JOURNAL = 1u << 2,
	FSL_SEC_WRITEBACK = 1u << 3,
	FSL_SEC_BLOCKIO = 1u << 4,
	FSL_SEC_LAYOUT = 1u << 5,
	FSL_SEC_HEALTH = 1u << 6,
	FSL_SEC_ALL = (1u << 7) - 1,
};
/* Parse "diagnosis,journal" or "all"; -EINVAL with *bad set on an unknown name. */
int fsl_section_parse(const char *list, uint32_t *mask, const char **bad);
const char *fsl_section_name(unsigned int bit);

/*
 * The context stage (analyzer/context.c): tasks, roles, wait classes, shared
 * by every analysis set on one session. root_pid as in the options below.
 */
struct fsl_context;
struct fsl_context *fsl_context__new(int64_t root_pid, int *err);
void fsl_context__free(struct fsl_context *cx);
/* The stage to put in fsl_session_opts (valid while cx is). */
struct fsl_stage *fsl_context__stage(struct fsl_context *cx);

struct fsl_analysis_opts {
	uint32_t sections;	/* FSL_SEC_*; 0 = all. Stalls always run (diagnosis needs them). */
	uint64_t t0, t1;	/* window; t1 = 0: open ended */
	int64_t root_pid;	/* -1: take record.root_pid from the metadata; 0: none */
	uint32_t dev;		/* target dev_t; 0: target.dev from the metadata */
	/*
	 * Fed with fsl_analysis__feed() and stepping windows with reset(): the
	 * set's own session holds waits and path operations until the stream
	 * passes their end (opts.split of session.h). Costs a copy per held
	 * event; not needed for a fixed window.
	 */
	int hold;
	/*
	 * The context stage of the session the set will be attached to; NULL:
	 * the set has its own context and session, fed with feed().
	 */
	struct fsl_context *context;
	/*
	 * At most this many processes kept (0: no bound): past it the half
	 * with least blocked time and operations, exited ones first, are
	 * summed into one row, pid 0 "(evicted)". A live top sees every short
	 * process of the machine go by; a report keeps them all.
	 */
	unsigned int max_procs;
};

struct fsl_analysis;

struct fsl_analysis *fsl_analysis__new(const struct fsl_analysis_opts *opts, int *err);
void fsl_analysis__free(struct fsl_analysis *a);

/* Read metadata (hz, root pid, target dev, stacks): call before feeding
 * (on a shared session, the session's begin does it; this is a no-op).
 * m must stay valid while the analysis is used (stacks are resolved lazily). */
int fsl_analysis__begin(struct fsl_analysis *a, const struct fsl_meta *m);
/* Feed one event (time order) to the set's own session. 0 or -errno. */
int fsl_analysis__feed(struct fsl_analysis *a, const struct fsl_hdr *ev);
/* Register the analyses on s (its stage must be opts.context); begun with
 * s, or at once when s has begun. */
int fsl_analysis__attach(struct fsl_analysis *a, struct fsl_session *s);
/* New window [t0, t1): aggregates cleared, live state kept. t1 = 0: open. */
void fsl_analysis__reset(struct fsl_analysis *a, uint64_t t0, uint64_t t1);
/* The window as set (t1 = 0: open ended). */
void fsl_analysis__window(const struct fsl_analysis *a, uint64_t *t0, uint64_t *t1);
/* Time of the last event fed (0 = none). */
uint64_t fsl_analysis__now(const struct fsl_analysis *a);

/* Results: valid until the next feed/reset. NULL when the section is off. */
const struct fsl_stalls *fsl_analysis__stalls(struct fsl_analysis *a);
/*
 * The stack process pid (tgid) was blocked on longest in class cls in the
 * window (window rules as for the classes; ties to the lower stack id), its
 * blocked ns in *ns; -1 when it has none.
 */
int32_t fsl_analysis__proc_stack(struct fsl_analysis *a, uint32_t pid, unsigned int cls,
				 uint64_t *ns);
const struct fsl_ops *fsl_analysis__ops(struct fsl_analysis *a);
/* Data operations (with the ops section); NULL when the section is off. */
const struct fsl_data *fsl_analysis__data(struct fsl_analysis *a);
const struct fsl_journal *fsl_analysis__journal(struct fsl_analysis *a);
const struct fsl_writeback *fsl_analysis__writeback(struct fsl_analysis *a);
const struct fsl_blockio *fsl_analysis__blockio(struct fsl_analysis *a);
/* With the layout section (or the ops section); NULL otherwise. */
const struct fsl_allocstat *fsl_analysis__allocstat(struct fsl_analysis *a);
/* With the journal or blockio section; NULL otherwise. */
const struct fsl_contents *fsl_analysis__contents(struct fsl_analysis *a);
const struct fsl_health *fsl_analysis__health(struct fsl_analysis *a);
const struct fsl_wholetime *fsl_analysis__wholetime(struct fsl_analysis *a);
/* On-CPU time by class; period_ns 0 when the trace has no cpu records. */
const struct fsl_cpu *fsl_analysis__cpu(struct fsl_analysis *a);
const struct fsl_layout *fsl_analysis__layout(struct fsl_analysis *a);
const struct fsl_meta *fsl_analysis__meta(const struct fsl_analysis *a);

/* Processes seen in the window (blocked, ops, I/O), most blocked first, with
 * their current names. Returns the count; *out is an array owned by a
 * (valid until next feed). */
unsigned int fsl_analysis__procs(struct fsl_analysis *a, const struct fsl_proc_stat **out);
/* Processes summed into the "(evicted)" row so far (opts.max_procs). */
uint64_t fsl_analysis__procs_evicted(const struct fsl_analysis *a);

/* Layout queries. */
uint64_t fsl_layout__files(const struct fsl_layout *l);		/* inodes with mapped blocks */
uint64_t fsl_layout__fragmented(const struct fsl_layout *l);	/* of which > 1 extent */
/* Fragcheck breaks, sorted by inode then logical block. Array owned by l. */
unsigned int fsl_layout__breaks(const struct fsl_layout *l, const struct fsl_frag_break **out);
/* Most fragmented files first (up to max). */
unsigned int fsl_layout__worst(const struct fsl_layout *l, struct fsl_layout_file *out,
			       unsigned int max);
/* Extents-per-file histogram (log2 rows: 1, 2-3, 4-7, ...). */
void fsl_layout__extent_hist(const struct fsl_layout *l, uint64_t out[16]);
/*
 * Inode-to-data distance in block groups: |group of the inode - group of
 * its first data block| per file, as a histogram (row 0: same group, row i:
 * 2^(i-1) .. 2^i - 1 groups apart). Needs ext4.inodes_per_group,
 * ext4.blocks_per_group (trace metadata); returns the files counted (0 if
 * the geometry is unknown) and their mean distance in *mean.
 */
uint64_t fsl_layout__inode_distance(const struct fsl_layout *l, uint64_t out[16], double *mean);
/*
 * The same files' distance on the disk: from the block that holds the
 * inode (its group's inode table, ext4.group_inode_table) to its first data
 * block, in 512-byte sectors as XFS's is; their mean in *mean_sectors and
 * median in *median_sectors. Returns the files counted (0: no group tables
 * recorded).
 */
uint64_t fsl_layout__inode_distance_sectors(const struct fsl_layout *l, double *mean_sectors,
					    uint64_t *median_sectors);

/*
 * Readdir order vs inode order, per directory stream: the inode numbers one
 * process read from one fd with getdents64 (dirents events) until the end of
 * the directory (a readdir returning 0) or the fd was reused. A stat of each
 * entry in readdir order reads the inode table in that order: itable block
 * L(ino) = (ino - 1) * inode_size / block_size, counted within the linear
 * inode-table space (exact within a flex group, whose tables are adjacent).
 */
struct fsl_readdir_cost {
	uint64_t changes;	/* successive entries in different itable blocks */
	uint64_t travel;	/* sum of |block distance| between successive entries */
	uint64_t first_travel;	/* the same between first touches of each block (cached) */
	uint64_t backward;	/* first touches below the previous one */
};

struct fsl_readdir_dir {
	uint32_t pid;
	int32_t fd;
	uint64_t ts;		/* first dirents event */
	uint64_t entries;
	uint64_t pairs;		/* entries - 1 */
	uint64_t ascending;	/* successive pairs with increasing inode number */
	uint64_t blocks;	/* distinct itable blocks */
	struct fsl_readdir_cost rd;	/* stat in readdir order */
	struct fsl_readdir_cost io;	/* stat in inode order */
	uint32_t flags;		/* FSL_DIRENTS_* seen; FSL_READDIR_OPEN: no end seen */
	char path[64];		/* the path the fd was opened with (as passed, tail kept), "" unknown */
};
#define FSL_READDIR_OPEN	(1u << 8)

/*
 * Streams, most entries first (array owned by l); *total sums them (pid 0).
 * *geometry = 0 when ext4.inode_size/block_size are not in the trace (then
 * blocks and costs are 0).
 */
unsigned int fsl_layout__readdir(const struct fsl_layout *l, const struct fsl_readdir_dir **out,
				 struct fsl_readdir_dir *total, int *geometry);

/* ------------------------------------------------- /proc/fs/jbd2/<dev>/info */

/* The info recorded at the start and the end (NULL if absent); parser: meta.h. */
const struct fsl_jbd2_info *fsl_analysis__jbd2_start(const struct fsl_analysis *a);
const struct fsl_jbd2_info *fsl_analysis__jbd2_end(const struct fsl_analysis *a);

/* ------------------------------------------------------------- diagnosis */

#define FSL_MAX_CAUSES		(FSL_WC__MAX + FSL_CC__MAX)
#define FSL_EVIDENCE_LEN	512
#define FSL_SUGGESTION_LEN	640

struct fsl_cause {
	unsigned int kind;		/* FSL_CAUSE_WAIT or FSL_CAUSE_CPU */
	unsigned int cls;		/* enum fsl_wclass, or enum fsl_cclass for CPU */
	uint64_t ns;			/* workload blocked (or sampled on-CPU) ns */
	double share;			/* waits: of all workload blocked time; CPU: of on-CPU */
	double busy_share;		/* of the workload's blocked + sampled on-CPU time */
	uint64_t count;			/* waits, or samples */
	uint64_t kthread_ns;		/* kernel threads' time in the same class */
	char evidence[FSL_EVIDENCE_LEN];
	char suggestion[FSL_SUGGESTION_LEN];
};

#define FSL_CAUSE_WAIT	0
#define FSL_CAUSE_CPU	1

struct fsl_diagnosis {
	uint64_t blocked_ns;		/* workload */
	uint64_t oncpu_ns;		/* workload, sampled (cpu family); 0 without it */
	int has_cpu;			/* the trace has cpu samples: CPU causes are ranked too */
	struct fsl_cpu cpu;		/* the on-CPU split by class */
	struct fsl_wholetime whole;	/* the workload's whole time (threads 0: unknown) */
	uint64_t window_ns;		/* span of the window */
	unsigned int ncauses;
	struct fsl_cause causes[FSL_MAX_CAUSES];	/* most time first, waits and CPU together */
};

/* A cause's class id and label, from the wait or the CPU table as its kind says. */
const char *fsl_cause_id(const struct fsl_cause *c);
const char *fsl_cause_label(const struct fsl_cause *c);

/* Rank the causes of the current window, with evidence and suggestions. */
void fsl_analysis__diagnose(struct fsl_analysis *a, struct fsl_diagnosis *d);

#endif /* FSLENS_ANALYSIS_H */
