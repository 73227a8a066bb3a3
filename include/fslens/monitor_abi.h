/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-kernel aggregates of `fslens monitor` (probes/monitor.bpf.c), as
 * both sides see them. One per-CPU hash, mon_agg, holds every counter and
 * histogram bucket: key {kind, target, a, b, x, cgroup}, value {count,
 * sum}. The collector side (collector/monitor_bpf.c) reads it each
 * interval; blocked entries (keyed by stack id and the wait's scope
 * evidence) it reads and deletes, naming the stack and judging the scope
 * once.
 */
#ifndef FSLENS_MONITOR_ABI_H
#define FSLENS_MONITOR_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define MON_TARGETS_MAX		8	/* -m given at most this many times */
#define MON_TGT_OTHER		255	/* a wait on no target filesystem */
#define MON_HIST_BUCKETS	40	/* bucket b counts values in [2^(b-1), 2^b) ns; 0 is < 1 ns */
/*
 * The kernel keys histograms by a finer bucket: each power of two split
 * in MON_FINE_SUB, so a quantile (the p99 trigger) is known within 1/8 of
 * its value. Fine bucket f is in power-of-two bucket f / MON_FINE_SUB;
 * the exposition shows the power-of-two buckets.
 */
#define MON_FINE_SUB		8
#define MON_FINE_BUCKETS	(MON_HIST_BUCKETS * MON_FINE_SUB)
#define MON_KICK_RULES		16	/* address ranges of the journal kick rules */
#define MON_STACKS		16384	/* mon_stacks' entries */
#define MON_STACKS2		4096	/* mon_stacks2's */
#define MON_CPU_STACKS		8192	/* mon_cpu_stacks' (on-CPU samples: their own ids) */

enum mon_kind {
	MON_BLOCKED = 1,	/* tgt, a, b: scope evidence (MON_EV_*); x stack id: sum ns */
	MON_OP_HIST,		/* tgt fs, a op (mon_op), x fine bucket: count, sum ns */
	MON_DATA_BYTES,		/* tgt fs, a op (MON_OP_READ/WRITE): sum bytes */
	MON_COMMITS,		/* tgt fs, a kick, b FSL_TRIGF_* flags: count */
	MON_COMMIT_HIST,	/* tgt fs, x fine bucket: count, sum ns */
	MON_CHECKPOINTS,	/* tgt fs: count */
	MON_WB_PAGES,		/* tgt fs, a reason (mon_wb_reason): sum pages */
	MON_THROTTLE,		/* tgt fs: count, sum ns */
	MON_IO_HIST,		/* tgt disk, a io op, b stage (0 d2c, 1 q2c), x fine bucket */
	MON_IO_BYTES,		/* tgt disk, a io op: sum bytes */
	MON_SEEKS,		/* tgt disk, a io op: count */
	MON_AGG_FULL,		/* (x = 0) updates dropped: mon_agg full */
	MON_CPU,		/* tgt, a, b: scope evidence; x cpu stack id, -1 user mode: count samples */
};

/*
 * One piece of a wait's scope evidence, in 4 bits: none, a target (its
 * index + 1), or another filesystem.
 */
#define MON_EV_NONE		0
#define MON_EV_TGT(i)		((i) + 1)
#define MON_EV_OTHER		(MON_TARGETS_MAX + 1)

/*
 * MON_BLOCKED keys (what include/fslens/scope.h's evidence is made of):
 *  tgt: MON_EV_* of the operation the task was in (fd of a data or fd
 *       call), the jbd2 handle it held, or (a kernel thread) the journal
 *       it is the thread of;
 *  a:   bit 0 role (MON_ROLE_*); bits 1-2 MON_KT_* (kernel threads: a
 *       flusher at work on a target's bdi, a loop worker of a target's
 *       disk); bits 3-6 MON_EV_* of the target its system call touched
 *       (tasks: journal start, fsync, I/O; cleared at the call's exit);
 *  b:   bits 0-3 MON_EV_* of the disk whose completion woke it; bits 4-7
 *       (tasks) MON_EV_* of the journal whose thread woke it, (kernel
 *       threads) the target of its MON_KT_* role.
 */
enum { MON_KT_NONE = 0, MON_KT_FLUSH, MON_KT_LOOP };
#define MON_A(role, kt, hint)	((role) | (kt) << 1 | (hint) << 3)
#define MON_A_ROLE(a)		((a) & 1)
#define MON_A_KT(a)		(((a) >> 1) & 3)
#define MON_A_HINT(a)		(((a) >> 3) & 15)
#define MON_B(wake, hi)		((wake) | (hi) << 4)
#define MON_B_WAKE(b)		((b) & 15)
#define MON_B_HI(b)		(((b) >> 4) & 15)

/* Commit triggers; same numbers as FSL_TRIG_* (analysis.h). */
enum { MON_TRIG_UNKNOWN = 0, MON_TRIG_TIMER, MON_TRIG_FSYNC, MON_TRIG_FULL, MON_TRIG_LOG_SPACE,
       MON_TRIG_SYNC };

/* Roles of a blocked task. */
enum { MON_ROLE_WORKLOAD = 0, MON_ROLE_KTHREAD = 1 };	/* a task, a kernel thread */

/* Operations: the dirop kinds (enum fsl_dirop_kind), then the data ops. */
#define MON_OP_READ	32
#define MON_OP_WRITE	33
#define MON_OPS		34

/*
 * Without --cgroup-label, the operations' latency and data bytes are kept
 * in a per-CPU array (mon_ops), indexed, where a hash lookup cost about
 * 80 ns on every followed call: per target, MON_OPS fine histograms, then
 * MON_OP_READ's and MON_OP_WRITE's bytes. Sized at load to the targets.
 */
#define MON_OPS_PER_TGT		(MON_OPS * MON_FINE_BUCKETS + 2)
static inline __attribute__((always_inline)) __u32 mon_ops_hist_idx(__u32 tgt, __u32 op, __u32 b)
{
	return tgt * MON_OPS_PER_TGT + op * MON_FINE_BUCKETS + b;
}
static inline __attribute__((always_inline)) __u32 mon_ops_bytes_idx(__u32 tgt, __u32 op)
{
	return tgt * MON_OPS_PER_TGT + MON_OPS * MON_FINE_BUCKETS + (op - MON_OP_READ);
}

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
	__u64 cg;		/* cgroup v2 id (--cgroup-label: blocked and ops), else 0 */
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
	__s8 stbuf;		/* the stat family: argument of the buffer, -1 if none */
	__u8 stkind;		/* MON_ST_* of that buffer */
	__s8 path;		/* argument holding the path, -1 if none */
	__s8 dirfd;		/* argument holding the directory fd it is relative to, -1 if none */
};

/*
 * A stat call's buffer says which filesystem it was on (a path call with
 * no fd touches nothing the kernel side sees otherwise on a warm cache):
 * struct stat's st_dev (the huge encoding of new_encode_dev), statx's
 * stx_dev_major/minor. Offsets from user space (targ_st_dev_off, ...).
 */
enum { MON_ST_NONE = 0, MON_ST_STAT, MON_ST_STATX };

/*
 * Per-task state (mon_task, task storage). User space writes one entry: the
 * targets' journal threads are known from the start (pidfd keys), so the
 * kick before a journal's first commit is seen as one.
 */
struct mon_task {
	__u64 op_ts;		/* entry of the followed syscall in progress */
	__u32 op;		/* mon op + 1, 0 = none */
	__u32 op_dev;		/* fs of its fd, resolved at entry */
	__u8 op_ev;		/* MON_EV_* of that fs (a target or another) */
	__u8 op_stk;		/* MON_ST_* of the call's stat buffer */
	__u8 hint;		/* MON_EV_* target touched in this syscall (tasks only) */
	__u8 kt_jbd2;		/* MON_EV_* of the journal this thread commits, 0 not one */
	__u8 kt_flush;		/* MON_EV_* target whose bdi it is writing back now */
	__u8 kt_loop;		/* MON_EV_* of the disk it last completed a request of */
	__u8 kt_flushed;	/* MON_EV_* disk of the flusher work it ended last, ... */
	__u8 folio_ev;		/* MON_EV_* of the folio or bdi work it is about to wait on, ... */
	/* the wait in progress: evidence gathered when it left the CPU and when woken */
	__u8 off_tgt, off_a, off_b;
	__u8 woken;
	__u64 op_buf;		/* the stat buffer (user address) */
	__u64 flushed_ts;	/* ... at this time */
	__u64 folio_ts;		/* ... marked at this time */
	__s32 off_stack;
	/*
	 * The system call whose path start (path_start_ev) is still to be
	 * judged, + 1, or 0: judged only when something reads the hint
	 * (a CPU sample, a wait, an exit with no fd to go by), not at every
	 * entry. The syscall's arguments stay in its saved registers.
	 */
	__u16 hint_nr;
	__u16 _pad2;
	__u64 off_ts;
	__u64 off_cg;
};

/* A kick rule resolved to the kernel's addresses: [lo, hi) is the function. */
struct mon_kick_range {
	__u64 lo, hi;
	__u32 kick;		/* FSL_TRIG_* + 1, or FSL_KICK_STOP */
	__u32 rank;
};

/*
 * Fine bucket of a value in ns: its power-of-two bucket b (holding
 * [2^(b-1), 2^b)) times MON_FINE_SUB, plus the 3 bits below the leading
 * one. The kernel keys by it; user space has the same function.
 */
static inline __attribute__((always_inline)) __s32 mon_fine_bucket(__u64 ns)
{
	__u64 v = ns;
	__u32 b = 0, sub;

	if (v >= (1ull << 32)) { b += 32; v >>= 32; }
	if (v >= (1ull << 16)) { b += 16; v >>= 16; }
	if (v >= (1ull << 8)) { b += 8; v >>= 8; }
	if (v >= (1ull << 4)) { b += 4; v >>= 4; }
	if (v >= (1ull << 2)) { b += 2; v >>= 2; }
	if (v >= (1ull << 1)) { b += 1; v >>= 1; }
	b += v;
	if (b >= MON_HIST_BUCKETS)
		return MON_FINE_BUCKETS - 1;
	if (b == 0)
		return 0;
	sub = b >= 4 ? (ns >> (b - 4)) & 7 : (ns << (4 - b)) & 7;
	return b * MON_FINE_SUB + sub;
}

#endif /* FSLENS_MONITOR_ABI_H */
