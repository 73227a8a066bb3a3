/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-kernel aggregates of `fslens monitor` (probes/monitor.bpf.c), as
 * both sides see them. One per-CPU hash, mon_agg, holds every counter and
 * histogram bucket: key {kind, target, a, b, x}, value {count, sum}. The
 * collector side (collector/monitor_bpf.c) reads it each interval; blocked
 * entries (keyed by stack id) it reads and deletes, naming the stack once.
 */
#ifndef FSLENS_MONITOR_ABI_H
#define FSLENS_MONITOR_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define MON_TARGETS_MAX		8	/* -m given at most this many times */
#define MON_TGT_OTHER		255	/* a wait on no target filesystem */
#define MON_HIST_BUCKETS	40	/* bucket b counts values in [2^(b-1), 2^b) ns; 0 is < 1 ns */

enum mon_kind {
	MON_BLOCKED = 1,	/* tgt fs|OTHER, a role, x stack id: sum ns */
	MON_OP_HIST,		/* tgt fs, a op (mon_op), x bucket: count, sum ns */
	MON_DATA_BYTES,		/* tgt fs, a op (MON_OP_READ/WRITE): sum bytes */
	MON_COMMITS,		/* tgt fs, a trigger (MON_TRIG_*, the FSL_TRIG_* values): count */
	MON_COMMIT_HIST,	/* tgt fs, x bucket: count, sum ns */
	MON_CHECKPOINTS,	/* tgt fs: count */
	MON_WB_PAGES,		/* tgt fs, a reason (mon_wb_reason): sum pages */
	MON_THROTTLE,		/* tgt fs: count, sum ns */
	MON_IO_HIST,		/* tgt disk, a io op, b stage (0 d2c, 1 q2c), x bucket */
	MON_IO_BYTES,		/* tgt disk, a io op: sum bytes */
	MON_SEEKS,		/* tgt disk, a io op: count */
	MON_AGG_FULL,		/* (x = 0) updates dropped: mon_agg full */
};

/* Commit triggers decided in the kernel; same numbers as FSL_TRIG_* (analysis.h). */
enum { MON_TRIG_UNKNOWN = 0, MON_TRIG_TIMER, MON_TRIG_FSYNC, MON_TRIG_FULL, MON_TRIG_LOG_SPACE,
       MON_TRIG_SYNC };

/* Roles of a blocked task. */
enum { MON_ROLE_WORKLOAD = 0, MON_ROLE_KTHREAD = 1 };	/* a task, a kernel thread */

/* Operations: the dirop kinds (enum fsl_dirop_kind), then the data ops. */
#define MON_OP_READ	32
#define MON_OP_WRITE	33

/* I/O ops. */
enum { MON_IO_READ = 0, MON_IO_WRITE, MON_IO_FLUSH, MON_IO_DISCARD, MON_IO_OTHER, MON_IO__MAX };

enum mon_wb_reason {
	MON_WB_PERIODIC = 0,	/* wbc->for_kupdate */
	MON_WB_BACKGROUND,	/* wbc->for_background */
	MON_WB_SYNC,		/* wbc->for_sync (sync(2), syncfs) */
	MON_WB_INTEGRITY,	/* WB_SYNC_ALL otherwise (fsync, unmount) */
	MON_WB_OTHER,
	MON_WB__MAX,
};

struct mon_key {
	__u8 kind;
	__u8 tgt;
	__u8 a;
	__u8 b;
	__s32 x;
};

struct mon_val {
	__u64 count;
	__u64 sum;
};

/* A followed syscall (mon_sc[nr]). */
struct mon_sc {
	__u8 op;		/* mon op + 1; 0 = not followed */
	__s8 fd;		/* argument holding the fd, -1 if none */
	__s8 flags;		/* open flags argument, -1 if none */
	__u8 creat;		/* creat(): always creates */
};

/* A target filesystem (mon_fs[s_dev]) or disk (mon_disk[dev]). */
struct mon_tgt {
	__u32 idx;
	__u32 commit_jiffies;	/* mon_fs: the commit interval in kernel jiffies */
	__u32 fs_dev;		/* mon_disk: s_dev of the fs on this disk */
	__u32 _pad;
};

#endif /* FSLENS_MONITOR_ABI_H */
