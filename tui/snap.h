/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the top screen shows at one refresh: a plain snapshot of numbers and
 * rows. The feed (tui/feed.c) fills it from the shared analyses; the views
 * only read it. Keeping views on this struct lets the unit tests draw them
 * from hand-made snapshots with no trace and no kernel.
 *
 * Rates are per second of trace time over the snapshot's window
 * (hdr.window_s): the last refresh interval, or everything since the start
 * in accumulated mode.
 */
#ifndef FSL_TUI_SNAP_H
#define FSL_TUI_SNAP_H

#include <stddef.h>
#include <stdint.h>

#define TOP_HIST	60	/* sparkline points kept per wait class */
#define TOP_SEEK_BUCKETS 8	/* seek distance histogram (see view_devices.c) */
#define TOP_COMM_LEN	16
#define TOP_CGROUP_LEN	64
#define TOP_NCLASSES	32	/* >= FSL_WC__MAX (checked in feed.c) */

/* The processes view splits blocked time into these groups of wait classes. */
enum top_wait_group {
	TOP_WG_JOURNAL = 0,	/* log space, txn locked, shadow buffer, commit wait, handle start */
	TOP_WG_DIRREAD,		/* directory-block reads (lookup) */
	TOP_WG_THROTTLE,	/* balance_dirty_pages, block-layer wbt / rq_qos */
	TOP_WG_IO,		/* every other I/O wait */
	TOP_WG__MAX,
};

struct top_header {
	char target[128];	/* mount point (or "-") */
	char dev[32];		/* "MAJ:MIN" of the filesystem */
	char source[96];	/* "live" or "replay FILE x4" */
	double elapsed_s;	/* trace time since the start */
	double window_s;	/* the interval the rates are computed over */
	double ops_s;
	double creates_s;
	double iops;
	double read_mbs, write_mbs;
	double seeks_s;
	double commits_s;
	double commit_avg_ms;
	double dirty_mb, writeback_mb;
	int have_dirty;		/* a global_dirty_state was seen */
	/* the workload threads' time in the window (whole time): shares, % */
	int have_whole;
	double oncpu_pct, runq_pct, blocked_pct;
	uint64_t lost;
	int paused;
	int ended;		/* replay reached the end of the trace */
	int behind;		/* replay reads slower than trace time x speed */
	int accumulated;	/* rates over everything since totals_from_s */
	double totals_from_s;	/* elapsed time when the totals began (0: the start) */
};

struct top_proc {
	uint32_t pid;
	char comm[TOP_COMM_LEN];
	double ops_s;
	double p99_ms;		/* of its path-based calls */
	double avg_ms;
	double blocked_ms_s[TOP_WG__MAX];
	double blocked_total_ms_s;
	double read_mbs, write_mbs;
	double data_read_mbs, data_write_mbs;	/* read()/write() family on the target's files */
	char cgroup[TOP_CGROUP_LEN];	/* its cgroup v2 path (the tail if longer), "" unknown */
	/* Blocked ms/s per wait class (enum fsl_wclass), for the details. */
	double class_ms_s[TOP_NCLASSES];
	/* Per class, the stack this process was blocked on longest in the
	 * window: innermost frame first (nframes 0: none known). */
	struct top_proc_stack {
		const char *const *frames;
		unsigned int nframes;
		int rule_frame;		/* the frame that decided the class (-1 unknown) */
		double ms;		/* its blocked ms in the window */
	} class_stack[TOP_NCLASSES];
};

struct top_stall {
	char cls[32];		/* stable wait-class id, e.g. journal_log_space */
	double ms_s;		/* blocked ms per second in the window */
	double share_pct;	/* of all blocked time in the window */
	uint32_t waits;		/* waits in the window */
	double hist[TOP_HIST];	/* ms/s of past windows, oldest first */
	unsigned int nhist;
	double hist_max;	/* scale of the sparkline, the same for every class */
	/* The stack that cost most in this class: innermost frame first. */
	const char *const *frames;
	unsigned int nframes;
	int rule_frame;		/* the frame that decided the class (-1 unknown) */
	double top_stack_ms;	/* blocked ms of that stack in the window */
};

struct top_txn {
	uint32_t tid;
	char trigger[16];	/* timer, fsync, full, log_space, sync, ... */
	uint32_t handles;
	uint32_t blocks;
	uint32_t blocks_logged;
	double running_ms, locked_ms, flushing_ms, logging_ms;
	double commit_ms;	/* start_commit to end_commit */
};

struct top_dev {
	uint32_t dev;		/* kernel dev_t */
	char name[32];		/* "7:0" or "loop0" */
	double iops;
	double read_mbs, write_mbs;
	double q2c_avg_ms, d2c_avg_ms;
	double seeks_s;
	/* Seek distances in sectors: 0, <8, <64, <512, <4K, <32K, <256K, more. */
	uint64_t seek_hist[TOP_SEEK_BUCKETS];
};

struct top_dir {
	char path[256];
	double ops_s;
	uint64_t ops;
	double lookup_wait_ms_s; /* directory-block reads inside those calls */
	double call_ms_s;	/* summed latency of those calls per second */
};

/* A file of the target by data-operation bytes (the files view). */
struct top_file {
	char name[32];		/* last path component */
	uint64_t ino;
	uint32_t ino32;		/* shown (ext4 inode numbers are 32-bit) */
	double read_mbs, write_mbs;	/* what its read()/write() family calls moved */
	double reads_s, writes_s;
	double call_ms_s;	/* summed latency of its data calls per second */
};

struct top_snap {
	struct top_header hdr;
	struct top_proc *procs;
	size_t nprocs;
	struct top_stall *stalls;
	size_t nstalls;
	struct top_txn *txns;	/* most recent last */
	size_t ntxns;
	struct top_dev *devs;
	size_t ndevs;
	struct top_dir *dirs;
	size_t ndirs;
	struct top_file *files;
	size_t nfiles;
};

/* Frees the row arrays (not the snapshot itself) and zeroes it. */
void top_snap__clear(struct top_snap *s);

#endif
