// SPDX-License-Identifier: GPL-2.0
/*
 * fslens monitor: always-on aggregates, kept in the kernel. Nothing here
 * writes a ring record: every handler adds to mon_agg (monitor_abi.h), which
 * user space reads each interval. A separate object from fslens.bpf.c, so
 * the monitor pays only for these programs; the flight recorder loads the
 * full probes beside it.
 *
 * Which filesystem a wait or an operation belongs to: an fd-based call is
 * resolved from its fd at entry, an open from the fd it returned; otherwise
 * the task's hint, the last target filesystem the task touched in this
 * system call (ext4 journal start, fsync, a bio on the target's disk),
 * cleared at syscall exit. A kernel thread keeps its hint (jbd2 thread:
 * its journal).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "fslens/event.h"
#include "fslens/monitor_abi.h"

#define TASK_UNINTERRUPTIBLE_BIT	0x0002
#define TASK_NOLOAD_BIT			0x0400
#define PF_KTHREAD_BIT			0x00200000
#define STACK_DEPTH			64

const volatile __u32 targ_self = 0;	/* the monitor's own tgid */
const volatile __u32 targ_o_creat = 0100;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 32768);
	__type(key, struct mon_key);
	__type(value, struct mon_val);
} mon_agg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MON_TARGETS_MAX);
	__type(key, __u32);
	__type(value, struct mon_tgt);
} mon_fs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MON_TARGETS_MAX);
	__type(key, __u32);
	__type(value, struct mon_tgt);
} mon_disk SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct mon_sc);
} mon_sc SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
} mon_stacks SEC(".maps");

/* A stack whose bucket holds another: one frame shorter, here (see offcpu.bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 4096);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
} mon_stacks2 SEC(".maps");

static __always_inline __s32 mon_stack_id(void *ctx)
{
	long id = bpf_get_stackid(ctx, &mon_stacks, 0);

	if (id != -17 /* EEXIST */)
		return id;
	id = bpf_get_stackid(ctx, &mon_stacks2, 1 & BPF_F_SKIP_FIELD_MASK);
	return id < 0 ? id : id + FSL_STACK2_BASE;
}

struct mon_task {
	__u64 op_ts;		/* entry of the followed syscall in progress */
	__u32 op;		/* mon op + 1, 0 = none */
	__u32 op_dev;		/* fs of its fd, resolved at entry */
	__u32 hint;		/* last target fs touched in this syscall */
	__u32 _pad;
	__u64 off_ts;		/* left the CPU blocked at */
	__s32 off_stack;
	__u32 off_dev;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mon_task);
} mon_task SEC(".maps");

/* Per fs: the commit in progress, and what happened since the last one. */
struct mon_journal {
	__u64 start_ts;
	__u32 tid;
	__u32 stats_tid;	/* tid of the last run_stats */
	__u32 running;		/* its running time, jiffies */
	__u32 checkpoints;	/* since the last commit started */
	__u32 fsyncs;		/* ext4_sync_file in progress */
	__u8 fsync_seen;	/* an fsync ran since the last commit started */
	__u8 _pad[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MON_TARGETS_MAX);
	__type(key, __u32);
	__type(value, struct mon_journal);
} mon_jnl SEC(".maps");

/* Block requests in flight: issue time by request; queue time by sector. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, __u64);
} mon_rq_inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, __u64);
} mon_bio_q SEC(".maps");

/* Per disk and op: where the last request ended (sectors), for seeks. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MON_TARGETS_MAX * MON_IO__MAX);
	__type(key, __u32);
	__type(value, __u64);
} mon_last_end SEC(".maps");

static __always_inline void agg_add(__u8 kind, __u8 tgt, __u8 a, __u8 b, __s32 x, __u64 cnt,
				    __u64 sum)
{
	struct mon_key k = { .kind = kind, .tgt = tgt, .a = a, .b = b, .x = x };
	struct mon_val *v, zero = {};

	v = bpf_map_lookup_elem(&mon_agg, &k);
	if (!v) {
		if (bpf_map_update_elem(&mon_agg, &k, &zero, BPF_NOEXIST) &&
		    bpf_map_lookup_elem(&mon_agg, &k) == NULL) {
			struct mon_key full = { .kind = MON_AGG_FULL };

			v = bpf_map_lookup_elem(&mon_agg, &full);
			if (v)
				v->count++;
			return;
		}
		v = bpf_map_lookup_elem(&mon_agg, &k);
		if (!v)
			return;
	}
	v->count += cnt;
	v->sum += sum;
}

static __always_inline __u32 log2_bucket(__u64 ns)
{
	__u32 b = 0;

	/* bucket b holds [2^(b-1), 2^b): 64 - clz, capped */
	if (ns >= (1ull << 32)) { b += 32; ns >>= 32; }
	if (ns >= (1ull << 16)) { b += 16; ns >>= 16; }
	if (ns >= (1ull << 8)) { b += 8; ns >>= 8; }
	if (ns >= (1ull << 4)) { b += 4; ns >>= 4; }
	if (ns >= (1ull << 2)) { b += 2; ns >>= 2; }
	if (ns >= (1ull << 1)) { b += 1; ns >>= 1; }
	b += ns;
	return b < MON_HIST_BUCKETS ? b : MON_HIST_BUCKETS - 1;
}

static __always_inline int fs_idx(__u32 dev)
{
	struct mon_tgt *t;

	if (!dev)
		return -1;
	t = bpf_map_lookup_elem(&mon_fs, &dev);
	return t ? (int)t->idx : -1;
}

static __always_inline struct mon_task *task_get(int create)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return bpf_task_storage_get(&mon_task, t, 0, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* The filesystem a target task is acting on: remember it for its waits. */
static __always_inline void hint_set(__u32 dev)
{
	struct mon_task *s;

	if (fs_idx(dev) < 0)
		return;
	s = task_get(1);
	if (s)
		s->hint = dev;
}

static __always_inline __u32 fd_dev(struct task_struct *t, long fd)
{
	struct fdtable *fdt;
	struct file *f = NULL;
	struct file **fds;

	if (fd < 0)
		return 0;
	fdt = BPF_CORE_READ(t, files, fdt);
	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return 0;
	fds = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return 0;
	return BPF_CORE_READ(f, f_inode, i_sb, s_dev);
}

static __always_inline __u64 sc_arg(struct pt_regs *regs, int i)
{
	switch (i) {
	case 0: return PT_REGS_PARM1_CORE_SYSCALL(regs);
	case 1: return PT_REGS_PARM2_CORE_SYSCALL(regs);
	case 2: return PT_REGS_PARM3_CORE_SYSCALL(regs);
	case 3: return PT_REGS_PARM4_CORE_SYSCALL(regs);
	default: return 0;
	}
}

/* ---- operations ---- */

SEC("tp_btf/sys_enter")
int BPF_PROG(mon_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *t;
	struct mon_task *s;
	struct mon_sc *sc;
	__u32 nr = id, op, dev = 0;

	sc = bpf_map_lookup_elem(&mon_sc, &nr);
	if (!sc || !sc->op)
		return 0;
	if ((bpf_get_current_pid_tgid() >> 32) == targ_self)
		return 0;
	op = sc->op - 1;
	t = bpf_get_current_task_btf();
	if (sc->fd >= 0) {
		dev = fd_dev(t, (long)(int)sc_arg(regs, sc->fd));
		if (fs_idx(dev) < 0)
			return 0;	/* not on a target: not worth a storage entry */
	}
	if (op == FSL_OP_OPEN && (sc->creat ||
	    (sc->flags >= 0 && (sc_arg(regs, sc->flags) & targ_o_creat))))
		op = FSL_OP_CREATE;
	s = bpf_task_storage_get(&mon_task, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s)
		return 0;
	s->op = op + 1;
	s->op_ts = bpf_ktime_get_ns();
	s->op_dev = dev;
	s->hint = dev;
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(mon_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mon_task *s = bpf_task_storage_get(&mon_task, t, 0, 0);
	__u32 op, dev;
	__u64 ns;
	int idx;

	if (!s || (!s->op && !s->hint))
		return 0;	/* the common case: nothing to count, nothing to clear */
	if (s->op) {
		op = s->op - 1;
		ns = bpf_ktime_get_ns() - s->op_ts;
		dev = s->op_dev;
		if (!dev && (op == FSL_OP_OPEN || op == FSL_OP_CREATE) && ret >= 0)
			dev = fd_dev(t, ret);
		if (!dev)
			dev = s->hint;
		idx = fs_idx(dev);
		if (idx >= 0) {
			agg_add(MON_OP_HIST, idx, op, 0, log2_bucket(ns), 1, ns);
			if ((op == MON_OP_READ || op == MON_OP_WRITE) && ret > 0)
				agg_add(MON_DATA_BYTES, idx, op, 0, 0, 1, ret);
		}
		s->op = 0;
	}
	s->hint = 0;
	return 0;
}

/* ---- hints from the filesystem's own tracepoints ---- */

SEC("tracepoint/ext4/ext4_journal_start_inode")
int mon_ext4_js_inode(struct trace_event_raw_ext4_journal_start_inode *ctx)
{
	hint_set(ctx->dev);
	return 0;
}

SEC("tracepoint/ext4/ext4_journal_start_sb")
int mon_ext4_js_sb(struct trace_event_raw_ext4_journal_start_sb *ctx)
{
	hint_set(ctx->dev);
	return 0;
}

SEC("tracepoint/ext4/ext4_sync_file_enter")
int mon_ext4_sync_enter(struct trace_event_raw_ext4_sync_file_enter *ctx)
{
	int idx = fs_idx(ctx->dev);
	struct mon_journal *j;
	__u32 k;

	if (idx < 0)
		return 0;
	hint_set(ctx->dev);
	k = idx;
	j = bpf_map_lookup_elem(&mon_jnl, &k);
	if (j) {
		__sync_fetch_and_add(&j->fsyncs, 1);
		j->fsync_seen = 1;
	}
	return 0;
}

SEC("tracepoint/ext4/ext4_sync_file_exit")
int mon_ext4_sync_exit(struct trace_event_raw_ext4_sync_file_exit *ctx)
{
	int idx = fs_idx(ctx->dev);
	struct mon_journal *j;
	__u32 k;

	if (idx < 0)
		return 0;
	k = idx;
	j = bpf_map_lookup_elem(&mon_jnl, &k);
	if (j && j->fsyncs)
		__sync_fetch_and_add(&j->fsyncs, -1);
	return 0;
}

/* ---- off-CPU: blocked time by stack, per fs and role ---- */

SEC("tp_btf/sched_switch")
int BPF_PROG(mon_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct mon_task *s;
	__u64 now = bpf_ktime_get_ns();
	__u32 state;
	int idx;

	state = preempt ? 0 : prev->__state;
	if ((state & TASK_UNINTERRUPTIBLE_BIT) && !(state & TASK_NOLOAD_BIT) &&
	    prev->tgid && prev->tgid != targ_self) {
		s = bpf_task_storage_get(&mon_task, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (s) {
			s->off_ts = now;
			s->off_dev = s->hint;
			s->off_stack = mon_stack_id(ctx);
		}
	}
	s = bpf_task_storage_get(&mon_task, next, 0, 0);
	if (!s || !s->off_ts)
		return 0;
	idx = fs_idx(s->off_dev);
	agg_add(MON_BLOCKED, idx < 0 ? MON_TGT_OTHER : idx,
		(next->flags & PF_KTHREAD_BIT) ? MON_ROLE_KTHREAD : MON_ROLE_WORKLOAD, 0,
		s->off_stack, 1, now - s->off_ts);
	s->off_ts = 0;
	return 0;
}

/* ---- journal ---- */

static __always_inline struct mon_journal *jnl(__u32 dev, int *idxp)
{
	int idx = fs_idx(dev);
	__u32 k;

	*idxp = idx;
	if (idx < 0)
		return NULL;
	k = idx;
	return bpf_map_lookup_elem(&mon_jnl, &k);
}

SEC("tracepoint/jbd2/jbd2_start_commit")
int mon_jbd2_start(struct trace_event_raw_jbd2_commit *ctx)
{
	struct mon_journal *j;
	int idx;

	j = jnl(ctx->dev, &idx);
	hint_set(ctx->dev);	/* the jbd2 thread: its waits are this journal's */
	if (!j)
		return 0;
	j->start_ts = bpf_ktime_get_ns();
	j->tid = ctx->transaction;
	return 0;
}

SEC("tracepoint/jbd2/jbd2_run_stats")
int mon_jbd2_run_stats(struct trace_event_raw_jbd2_run_stats *ctx)
{
	struct mon_journal *j;
	int idx;

	j = jnl(ctx->dev, &idx);
	if (!j)
		return 0;
	j->stats_tid = ctx->tid;
	j->running = ctx->running;
	return 0;
}

SEC("tracepoint/jbd2/jbd2_checkpoint")
int mon_jbd2_checkpoint(struct trace_event_raw_jbd2_checkpoint *ctx)
{
	struct mon_journal *j;
	int idx;

	j = jnl(ctx->dev, &idx);
	if (!j)
		return 0;
	j->checkpoints++;
	agg_add(MON_CHECKPOINTS, idx, 0, 0, 0, 1, 0);
	return 0;
}

/*
 * Why the commit ran, decided the way the analyzer's journal analysis
 * does, from what the kernel side can see: a checkpoint since the last
 * commit (log space), an fsync in progress or since (fsync), a transaction
 * that ran its whole commit interval (timer), a synchronous commit (sync).
 * "full" needs the transaction size limit and is left to the recorded
 * analysis; it is counted as unknown here.
 */
SEC("tracepoint/jbd2/jbd2_end_commit")
int mon_jbd2_end(struct trace_event_raw_jbd2_end_commit *ctx)
{
	struct mon_journal *j;
	struct mon_tgt *t;
	__u32 dev = ctx->dev, trig = MON_TRIG_UNKNOWN;
	__u64 now = bpf_ktime_get_ns();
	int idx;

	j = jnl(dev, &idx);
	if (!j)
		return 0;
	t = bpf_map_lookup_elem(&mon_fs, &dev);
	if (j->checkpoints)
		trig = MON_TRIG_LOG_SPACE;
	else if (j->fsyncs || j->fsync_seen)
		trig = MON_TRIG_FSYNC;
	else if (t && j->stats_tid == ctx->transaction && t->commit_jiffies &&
		 j->running + 2 >= t->commit_jiffies)
		trig = MON_TRIG_TIMER;
	else if (ctx->sync_commit)
		trig = MON_TRIG_SYNC;
	agg_add(MON_COMMITS, idx, trig, 0, 0, 1, 0);
	if (j->start_ts && j->tid == ctx->transaction) {
		__u64 ns = now - j->start_ts;

		agg_add(MON_COMMIT_HIST, idx, 0, 0, log2_bucket(ns), 1, ns);
	}
	j->start_ts = 0;
	j->checkpoints = 0;
	j->fsync_seen = 0;
	return 0;
}

/* ---- writeback ---- */

/* writeback_single_inode(inode, wbc, nr_to_write): pages written = nr_to_write - wbc->nr_to_write */
SEC("tp_btf/writeback_single_inode")
int BPF_PROG(mon_wb_inode, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	__u32 dev = inode->i_sb->s_dev, reason;
	long wrote = (long)nr_to_write - wbc->nr_to_write;
	int idx = fs_idx(dev);

	if (idx < 0 || wrote <= 0)
		return 0;
	if (wbc->for_kupdate)
		reason = MON_WB_PERIODIC;
	else if (wbc->for_background)
		reason = MON_WB_BACKGROUND;
	else if (wbc->for_sync)
		reason = MON_WB_SYNC;
	else if (wbc->sync_mode == WB_SYNC_ALL)
		reason = MON_WB_INTEGRITY;
	else
		reason = MON_WB_OTHER;
	agg_add(MON_WB_PAGES, idx, reason, 0, 0, 1, wrote);
	return 0;
}

/* balance_dirty_pages(wb, dtc, ..., long pause, ...): bdi is the disk. */
SEC("tracepoint/writeback/balance_dirty_pages")
int mon_bdp(struct trace_event_raw_balance_dirty_pages *ctx)
{
	__u32 maj = 0, mn = 0, *cur = &maj, dev;
	struct mon_tgt *t;
	bool colon = false;
	char name[16];
	int i;

	if (ctx->pause <= 0)
		return 0;
	if (bpf_probe_read_kernel(name, sizeof(name), ctx->bdi))
		return 0;
	for (i = 0; i < 16; i++) {
		char c = name[i];

		if (c >= '0' && c <= '9')
			*cur = *cur * 10 + (c - '0');
		else if (c == ':' && !colon)
			colon = true, cur = &mn;
		else
			break;
	}
	if (!colon)
		return 0;
	dev = FSL_MKDEV(maj, mn);
	t = bpf_map_lookup_elem(&mon_disk, &dev);
	if (!t)
		return 0;
	/* pause is in jiffies; the user side converts with HZ */
	agg_add(MON_THROTTLE, t->idx, 0, 0, 0, 1, ctx->pause);
	return 0;
}

/* ---- block I/O ---- */

static __always_inline int disk_idx(struct gendisk *disk, __u32 *devp)
{
	struct mon_tgt *t;
	__u32 dev;

	if (!disk)
		return -1;
	dev = FSL_MKDEV(disk->major, disk->first_minor);
	*devp = dev;
	t = bpf_map_lookup_elem(&mon_disk, &dev);
	return t ? (int)t->idx : -1;
}

static __always_inline __u32 io_op(__u64 opf)
{
	__u32 op = opf & 0xff;

	if (op == REQ_OP_READ)
		return MON_IO_READ;
	if (op == REQ_OP_WRITE || op == REQ_OP_WRITE_ZEROES)
		return MON_IO_WRITE;
	if (op == REQ_OP_FLUSH)
		return MON_IO_FLUSH;
	if (op == REQ_OP_DISCARD || op == REQ_OP_SECURE_ERASE)
		return MON_IO_DISCARD;
	return MON_IO_OTHER;
}

static __always_inline __u64 sector_key(__u32 dev, __u64 sector)
{
	return (__u64)dev << 40 ^ sector;
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(mon_bio_queue, struct bio *bio)
{
	__u64 now = bpf_ktime_get_ns(), k;
	__u32 dev = 0;
	int idx = disk_idx(bio->bi_bdev->bd_disk, &dev);
	struct mon_task *s;

	if (idx < 0)
		return 0;
	k = sector_key(dev, bio->bi_iter.bi_sector);
	bpf_map_update_elem(&mon_bio_q, &k, &now, BPF_ANY);
	/* a task issuing I/O to a target's disk is working on that fs */
	s = task_get(0);
	if (s && !s->hint) {
		struct mon_tgt *t = bpf_map_lookup_elem(&mon_disk, &dev);

		if (t)
			s->hint = t->fs_dev;
	}
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(mon_rq_issue, struct request *rq)
{
	__u64 now = bpf_ktime_get_ns(), rqk = (__u64)rq, *last;
	__u32 dev = 0, op, k;
	int idx = disk_idx(rq->q->disk, &dev);

	if (idx < 0)
		return 0;
	bpf_map_update_elem(&mon_rq_inflight, &rqk, &now, BPF_ANY);
	op = io_op(rq->cmd_flags);
	if (op != MON_IO_READ && op != MON_IO_WRITE)
		return 0;
	k = idx * MON_IO__MAX + op;
	last = bpf_map_lookup_elem(&mon_last_end, &k);
	if (!last)
		return 0;
	if (*last && *last != rq->__sector)
		agg_add(MON_SEEKS, idx, op, 0, 0, 1, 0);
	*last = rq->__sector + (rq->__data_len >> 9);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(mon_rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	__u64 now = bpf_ktime_get_ns(), rqk = (__u64)rq, *ts, k;
	__u32 dev = 0, op;
	int idx = disk_idx(rq->q->disk, &dev);

	if (idx < 0)
		return 0;
	op = io_op(rq->cmd_flags);
	ts = bpf_map_lookup_elem(&mon_rq_inflight, &rqk);
	if (ts) {
		__u64 ns = now - *ts;

		agg_add(MON_IO_HIST, idx, op, 0, log2_bucket(ns), 1, ns);
		bpf_map_delete_elem(&mon_rq_inflight, &rqk);
	}
	k = sector_key(dev, rq->__sector);
	ts = bpf_map_lookup_elem(&mon_bio_q, &k);
	if (ts) {
		__u64 ns = now - *ts;

		agg_add(MON_IO_HIST, idx, op, 1, log2_bucket(ns), 1, ns);
		bpf_map_delete_elem(&mon_bio_q, &k);
	}
	if (nr_bytes)
		agg_add(MON_IO_BYTES, idx, op, 0, 0, 1, nr_bytes);
	return 0;
}

/* GPL-2.0 as the SPDX headers say; the kernel takes "GPL v2" as GPL-compatible */
char LICENSE[] SEC("license") = "GPL v2";
