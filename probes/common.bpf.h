/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared BPF-side state of the fslens probes: configuration set by the
 * collector before load (targ_*), the one ring buffer every family writes
 * to, the per-family lost counters, the pid filter and the record helpers.
 */
#ifndef FSL_COMMON_BPF_H
#define FSL_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "fslens/event.h"

/* Read-only configuration (rodata), filled by collector/collector_bpf.c. */
const volatile __u32 targ_dev = 0;	/* fs s_dev (kernel dev_t); 0 = every fs */
const volatile __u32 targ_blkdev = 0;	/* the disk under it (loopN for a loop fs); 0 = all */
const volatile bool targ_pids = false;	/* -p PID,...: tgids in the pids map */
const volatile bool targ_tids = false;	/* --tid TID,...: only these threads (tids map) */
const volatile bool targ_cgroup = false;	/* --cgroup PATH: tasks in it or below (cgroup v2) */
const volatile bool targ_follow = false;	/* filter by the tracked map (-- COMMAND) */
const volatile bool targ_floor = false;	/* benchmarks: the syscall programs return at once */
/* benchmarks (--bench-floor): every program attaches and returns at once */
const volatile bool targ_floor_all = false;
#define FSL_FLOOR()			\
	do {				\
		if (targ_floor_all)	\
			return 0;	\
	} while (0)
const volatile bool targ_aio = false;	/* count sleeps in io_getevents/io_uring_enter as waits */
const volatile bool targ_proc = false;	/* emit proc records (family enabled) */
const volatile bool targ_offcpu_all = false;	/* every sleep, not only D state */
const volatile __u64 targ_min_wait_ns = 0;
const volatile __u32 targ_o_creat = 0100;	/* O_CREAT on this arch */
const volatile __s64 targ_nr_fsync = -1;	/* __NR_fsync, __NR_fdatasync on this arch */
const volatile __s64 targ_nr_fdatasync = -1;
const volatile bool targ_jbd2_kick = false;	/* journal family: who wakes targ_jbd2_pid */
const volatile bool targ_journal = false;	/* journal family: emit; else its programs only mark dir_act */
const volatile bool targ_hagg = false;	/* default tier: journal handles summed per transaction and site */
const volatile __u32 targ_self = 0;	/* the collector's own tgid, never recorded */
const volatile __u64 targ_wakeup_bytes = 1 << 20;	/* wake the reader past this fill */

#define PF_KTHREAD_BIT		0x00200000	/* PF_KTHREAD */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 32 << 20);	/* resized by the collector (--ring-size) */
} events SEC(".maps");

/* Events dropped because the ring was full, per family. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FSL_FAM__MAX);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* tgids of the recorded command and its descendants (targ_follow). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/* -p: the tgids asked for. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/* --tid: the threads asked for. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} tids SEC(".maps");

/* --cgroup: slot 0 holds the cgroup (v2) whose tasks, and its descendants', are kept. */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_filter SEC(".maps");

/*
 * Threads inside a call that waits for asynchronous I/O to complete
 * (io_getevents, io_pgetevents, io_uring_enter with GETEVENTS): their sleep
 * is interruptible, yet it is time blocked on I/O (offcpu.bpf.h).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} aio_wait SEC(".maps");

static __always_inline void lost_inc(__u32 fam)
{
	__u64 *v = bpf_map_lookup_elem(&lost, &fam);

	if (v)
		*v += 1;
}

/*
 * Is process tgid (whose thread is current) recorded? -p and the command
 * pick processes (either one is enough); --tid and --cgroup narrow that
 * to the current thread being listed and in the cgroup. Every caller runs
 * in the context of the task it asks about (sched_switch's prev is current;
 * at fork the child shares the parent's cgroup).
 */
static __always_inline bool tgid_wanted(__u32 tgid)
{
	if (targ_tids) {
		__u32 tid = (__u32)bpf_get_current_pid_tgid();

		if (!bpf_map_lookup_elem(&tids, &tid))
			return false;
	}
	if (targ_cgroup && bpf_current_task_under_cgroup(&cgroup_filter, 0) != 1)
		return false;
	if (targ_pids && bpf_map_lookup_elem(&pids, &tgid))
		return true;
	if (targ_follow)
		return bpf_map_lookup_elem(&tracked, &tgid) != NULL;
	return !targ_pids;
}

/* A record's header for a task other than current, or a time other than now. */
static __always_inline void hdr_fill_as(struct fsl_hdr *h, __u16 type, __u16 size, __u64 ts,
					__u32 pid, __u32 tid)
{
	h->ts = ts;
	h->pid = pid;
	h->tid = tid;
	h->type = type;
	h->size = size;
	h->cpu = bpf_get_smp_processor_id();
	h->_pad = 0;
}

static __always_inline void hdr_fill(struct fsl_hdr *h, __u16 type, __u16 size)
{
	__u64 id = bpf_get_current_pid_tgid();

	hdr_fill_as(h, type, size, bpf_ktime_get_ns(), id >> 32, (__u32)id);
}

/*
 * Reserve a zeroed record of struct T in the ring, header filled. NULL (and
 * the family's lost counter bumped) when the ring is full.
 */
#define EV_NEW(T, evtype, fam) ({					\
	struct T *_e = bpf_ringbuf_reserve(&events, sizeof(struct T), 0); \
	if (_e) {							\
		__builtin_memset(_e, 0, sizeof(struct T));		\
		hdr_fill(&_e->hdr, evtype, sizeof(struct T));		\
	} else {							\
		lost_inc(fam);						\
	}								\
	_e;								\
})

/* Records submitted on each CPU, for rb_flags(). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} rb_count SEC(".maps");

#define RB_CHECK_EVERY	64	/* records per CPU between two looks at the fill */

/*
 * Waking the reader on every record costs a wakeup per event; the reader
 * polls on a timer anyway, so wake it only when the ring is filling up.
 * Looking at the fill is a helper call (about 15% of a small program's
 * cost), so each CPU looks once every RB_CHECK_EVERY records. The threshold
 * is an eighth of the ring: 8 MiB by default, far more than 64 records.
 */
static __always_inline __u64 rb_flags(void)
{
	__u32 zero = 0, *n = bpf_map_lookup_elem(&rb_count, &zero);

	if (n && (++*n % RB_CHECK_EVERY))
		return BPF_RB_NO_WAKEUP;
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > targ_wakeup_bytes ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

#define EV_SUBMIT(e) bpf_ringbuf_submit(e, rb_flags())

/*
 * The request completion running on this CPU: block_rq_complete sets it
 * (every disk, before the device filter), sched_switch on the CPU clears
 * it. A wakeup inside that window is the completion's: bio_endio wakes the
 * waiters from the same call chain (irq, softirq or the loop worker).
 * WAKE_DEV_WINDOW_NS bounds it for a completion in interrupt context that
 * no switch follows for a while.
 */
struct wake_dev_mark {
	__u64 ts;
	__u32 dev;
	__u32 _pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wake_dev_mark);
} wake_dev_cpu SEC(".maps");

#define WAKE_DEV_WINDOW_NS	50000

/* Filter on the filesystem's device (ext4/jbd2 events carry s_dev). */
#define DEV_SKIP(d) (targ_dev && (d) != targ_dev)

/*
 * The filesystem whose directory a thread last changed, and when: set from
 * the tracepoints a filesystem fires when a name is added to, removed from
 * or renamed in one of its directories (ext4: a journal handle of type
 * EXT4_HT_DIR; XFS: xfs_create, xfs_remove, xfs_rename, xfs_link,
 * xfs_symlink). A path call during which one fired acted on that
 * filesystem, wherever its path led (probes/scope.bpf.h). Only with a
 * target: nothing reads it otherwise.
 */
struct dir_act {
	__u64 ts;
	__u32 dev;
	__u32 chp;	/* default tier: in a checkpoint since a jbd2_checkpoint with work */
	__u64 js_ts;	/* default tier: its pending ext4_journal_start_* (0 none) */
	__u64 js_ip;
};

/*
 * In the thread's own storage: an LRU hash keyed by thread id cost about
 * 300 ns an update (its lock and lists), on every create's journal start.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct dir_act);
} dir_act SEC(".maps");

#define EXT4_HT_DIR	4	/* fs/ext4/ext4_jbd2.h: a handle changing a directory */

static __always_inline void dir_act_mark(__u32 dev)
{
	struct dir_act *a;

	if (!targ_dev || !dev)
		return;
	a = bpf_task_storage_get(&dir_act, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!a)
		return;
	a->ts = bpf_ktime_get_ns();
	a->dev = dev;
}

/*
 * A tracepoint handled as tp_btf and as raw_tp: both receive the raw
 * TP_PROTO arguments; the collector keeps one of the two before load.
 * Bodies read through BPF_CORE_READ so they are valid under both.
 */
#define FSL_RAW_TP(tp, fn)						\
	SEC("tp_btf/" #tp) int btf_##fn(__u64 *ctx) { FSL_FLOOR(); return fn(ctx); }	\
	SEC("raw_tp/" #tp) int raw_##fn(__u64 *ctx) { FSL_FLOOR(); return fn(ctx); }

/*
 * The same for a body fn(ctx, btf) that reads kernel memory with FSL_RD:
 * on tp_btf (btf = 1) the arguments are BTF pointers, so a field is a plain
 * load the verifier guards (no bpf_probe_read_kernel call per field; about
 * 25 ns each, measured with bpf_stats); raw_tp keeps the CO-RE probe reads.
 * btf is a constant, the other branch is compiled away.
 */
#define FSL_RAW_TP_BTF(tp, fn)						\
	SEC("tp_btf/" #tp) int btf_##fn(__u64 *ctx) { FSL_FLOOR(); return fn(ctx, 1); }	\
	SEC("raw_tp/" #tp) int raw_##fn(__u64 *ctx) { FSL_FLOOR(); return fn(ctx, 0); }

/* FSL_RD(btf, p->a->b, p, a, b): direct load on tp_btf, BPF_CORE_READ else. */
#define FSL_RD(btf, direct, ...) ((btf) ? (direct) : BPF_CORE_READ(__VA_ARGS__))

#endif /* FSL_COMMON_BPF_H */
