/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu family: a task leaving the CPU in uninterruptible sleep (or any
 * sleep with targ_offcpu_all) gets its kernel stack taken and its start
 * time kept; when it is switched back in, one record with the duration,
 * the stack id and the task that woke it. Waits shorter than
 * targ_min_wait_ns are dropped in the kernel. sched_switch and sched_waking
 * (waking runs in the waker's context, where sched_wakeup may run on the
 * target CPU from an IPI) on tp_btf, raw_tp fallback.
 */
#ifndef FSL_OFFCPU_BPF_H
#define FSL_OFFCPU_BPF_H

#include "common.bpf.h"
#include "stacks.bpf.h"

#define TASK_INTERRUPTIBLE_BIT		0x0001
#define TASK_UNINTERRUPTIBLE_BIT	0x0002
#define TASK_NOLOAD_BIT			0x0400	/* TASK_IDLE = D | NOLOAD: idle kthreads */
#define TASK_DEAD_BIT			0x0080
/* ext4 without a journal counts in journal_info up to this (EXT4_NOJOURNAL_MAX_REF_COUNT) */
#define NOJOURNAL_MAX_REF		4096

/* The target's journal thread ("jbd2/loop0-8"); 0: the target has none. */
const volatile __u32 targ_jbd2_pid = 0;
/*
 * The target's kernel threads by name (collector/collector_bpf.c): the
 * workqueue of its loop device ("loop0": the disk's name), its bdi
 * ("7:0"), the suffix of its XFS workqueues ("/loop0": "xfs-buf/loop0")
 * and its XFS log pusher ("xfsaild/loop0"). "": none.
 */
#define KT_NAME		32
const volatile char targ_loop_wq[KT_NAME] = {};
const volatile char targ_bdi[KT_NAME] = {};
const volatile char targ_xfs_sfx[KT_NAME] = {};
const volatile char targ_xfsaild[KT_NAME] = {};
static const volatile char wb_wq[KT_NAME] = "writeback";	/* the flushers' workqueue */
#define PF_WQ_WORKER_BIT	0x00000020

struct offcpu_start {
	__u64 ts;
	__u64 wake_ts;
	__s32 stack_id;
	__u32 state;
	__u32 waker;
	__u32 tgid;
	__u32 wake_dev;
	__u32 kthread;	/* a kernel thread kept only if its wakeup says it waited on the target */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, __u32);
	__type(value, struct offcpu_start);
} offcpu_start SEC(".maps");

/* Whole-time account of one thread (key: tid). */
enum { TT_ONCPU = 0, TT_RUNQ, TT_BLOCKED, TT_SLEEP };

struct tasktime {
	__u64 first;		/* start of the span accounted */
	__u64 since;		/* start of the current state */
	__u64 ns[4];		/* by TT_* */
	__u32 tgid;
	__u32 state;		/* TT_* now */
	__u32 switches;
	__u32 _pad;
	__u64 last_emit;	/* the thread's last record (snapshot), 0 none */
	__u64 ksum0;		/* the kernel's run time of the thread at first */
	__u64 runq_emitted;	/* ns[TT_RUNQ] in the last record */
};

/*
 * A live thread's account is emitted (FSL_TASKTIME_SNAP) at its first state
 * change once this long has passed since its last record, so that a window
 * can be cut from the difference of two records (docs/record.md); 0: only
 * at the thread's end.
 */
const volatile __u64 targ_tt_period_ns = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, __u32);
	__type(value, struct tasktime);
} tasktime SEC(".maps");

/*
 * Start a thread's account. A full map (more live workload threads than its
 * entries) loses that thread's whole record: counted as an offcpu loss.
 */
static __always_inline void tt_insert(__u32 pid, struct tasktime *nt, __u64 flags)
{
	long e = bpf_map_update_elem(&tasktime, &pid, nt, flags);

	if (e && e != -17)	/* -EEXIST: already followed */
		lost_inc(FSL_FAM_OFFCPU);
}

/*
 * The account as of now: left is the state of [since, now), which the
 * record carries so that a reader knows where the thread was since its last
 * change.
 */
static __always_inline void tt_emit(struct tasktime *t, __u32 tid, __u64 now, __u32 left,
				    __u64 since, __u32 flags)
{
	struct fsl_ev_tasktime *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	t->last_emit = now;
	if (!e) {
		lost_inc(FSL_FAM_OFFCPU);
		return;
	}
	hdr_fill_as(&e->hdr, FSL_EV_TASKTIME, sizeof(*e), now, t->tgid, tid);
	t->runq_emitted = t->ns[TT_RUNQ];
	e->first_ts = t->first;
	e->oncpu_ns = t->ns[TT_ONCPU];
	e->runq_ns = t->ns[TT_RUNQ];
	e->blocked_ns = t->ns[TT_BLOCKED];
	e->sleep_ns = t->ns[TT_SLEEP];
	e->switches = t->switches;
	e->flags = flags;
	e->last_state = left;
	e->state = t->state;
	e->last_since = since;
	bpf_ringbuf_submit(e, rb_flags());
}

/* A snapshot of a live thread is due: the period has passed since its last record. */
static __always_inline bool tt_snap_due(const struct tasktime *t, __u64 now)
{
	return targ_tt_period_ns && now - t->last_emit >= targ_tt_period_ns;
}

/* A state change; snap: a snapshot may follow (not at the thread's end, which has its own). */
static __always_inline void tt_to(struct tasktime *t, __u32 state, __u64 now, __u32 tid,
				  bool snap)
{
	__u32 left = t->state, k = left;
	__u64 since = t->since;

	if (k < 4 && now > since) {
		/* keep the mask: the verifier bounds the index by it, not by the test */
		barrier_var(k);
		t->ns[k & 3] += now - since;
	}
	t->since = now;
	t->state = state;
	if (snap && tt_snap_due(t, now))
		tt_emit(t, tid, now, left & 3, since, FSL_TASKTIME_SNAP);
}

/*
 * How long prev has been on its CPU, by the kernel's own count: the fair
 * class's run time since the task was last picked (sum_exec_runtime less
 * prev_sum_exec_runtime, both brought up to date before sched_switch
 * fires). Read only when the switch that put prev on the CPU was not seen:
 * sched_switch does not fire for every switch on every machine (on the
 * PVM guests these tests run on, no switch away from the hypervisor
 * agent's threads is ever traced, so the task they hand the CPU to comes
 * back unseen). 0: unknown (another scheduling class).
 */
static __always_inline __u64 oncpu_stint(struct task_struct *prev, __u64 now, __u64 since,
					 const int btf)
{
	__u64 sum = FSL_RD(btf, prev->se.sum_exec_runtime, prev, se.sum_exec_runtime);
	__u64 psum = FSL_RD(btf, prev->se.prev_sum_exec_runtime, prev, se.prev_sum_exec_runtime);
	__u64 stint = sum > psum ? sum - psum : 0;

	return stint < now - since ? stint : now - since;
}

static __always_inline __u64 task_ksum(struct task_struct *p, const int btf)
{
	return FSL_RD(btf, p->se.sum_exec_runtime, p, se.sum_exec_runtime);
}

/*
 * At a switch-out, the on-CPU account is brought up to the kernel's own
 * count of the thread's run time since it was first followed
 * (se.sum_exec_runtime, which /proc/PID/schedstat shows): a switch-in not
 * seen more than once in one stint (oncpu_stint sees only the last) left
 * on-CPU time in the run queue. The run-queue time not yet in a record
 * gives it back; the account never moves the other way (the kernel's count
 * leaves out interrupt and steal time, which the switches' clock holds).
 */
static __always_inline void tt_reconcile(struct tasktime *t, struct task_struct *prev,
					 const int btf)
{
	__u64 kern = task_ksum(prev, btf), on, d, spare;

	if (kern <= t->ksum0)
		return;
	kern -= t->ksum0;
	on = t->ns[TT_ONCPU];
	if (kern <= on)
		return;
	d = kern - on;
	spare = t->ns[TT_RUNQ] > t->runq_emitted ? t->ns[TT_RUNQ] - t->runq_emitted : 0;
	if (d > spare)
		d = spare;
	t->ns[TT_ONCPU] += d;
	t->ns[TT_RUNQ] -= d;
}

/*
 * prev leaves the CPU in state (0: preempted, still runnable). A thread
 * not yet followed starts here (prev is current, so the filter applies).
 */
static __always_inline void tt_switch_out(struct task_struct *prev, __u32 state, __u64 now,
					  const int btf)
{
	__u32 pid = FSL_RD(btf, prev->pid, prev, pid), tgid, to;
	struct tasktime *t = bpf_map_lookup_elem(&tasktime, &pid), nt = {};

	to = !state ? TT_RUNQ :
	     ((state & TASK_UNINTERRUPTIBLE_BIT) && !(state & TASK_NOLOAD_BIT)) ? TT_BLOCKED :
	     TT_SLEEP;
	if (t) {
		__u64 since, stint;
		__u32 left;

		/*
		 * Not on the CPU by our account, yet leaving it: its switch-in
		 * was not seen. The kernel's count of this stint says when it
		 * came on; the time before stays in the state it was in.
		 */
		if (t->state != TT_ONCPU && now > t->since) {
			stint = oncpu_stint(prev, now, t->since, btf);
			if (stint)
				tt_to(t, TT_ONCPU, now - stint, pid, false);
		}
		left = t->state;
		since = t->since;

		tt_to(t, to, now, pid, false);
		tt_reconcile(t, prev, btf);
		if (state & TASK_DEAD_BIT) {
			tt_emit(t, pid, now, left & 3, since, FSL_TASKTIME_EXIT);
			bpf_map_delete_elem(&tasktime, &pid);
		} else if (tt_snap_due(t, now)) {
			tt_emit(t, pid, now, left & 3, since, FSL_TASKTIME_SNAP);
		}
		return;
	}
	if (state & TASK_DEAD_BIT)
		return;
	tgid = FSL_RD(btf, prev->tgid, prev, tgid);
	if (!tgid || tgid == targ_self || (FSL_RD(btf, prev->flags, prev, flags) & PF_KTHREAD_BIT) ||
	    !tgid_wanted(tgid))
		return;
	nt.first = now;
	nt.since = now;
	nt.ksum0 = task_ksum(prev, btf);
	nt.last_emit = now;
	nt.tgid = tgid;
	nt.state = to;
	tt_insert(pid, &nt, BPF_NOEXIST);
}

/*
 * A thread asleep when the probes attached (the recorded command waiting
 * for its start) begins at its first wakeup. The waker is current, so only
 * the filters that do not ask about current apply: with --tid or --cgroup
 * such a thread begins at its first switch-out instead.
 */
static __always_inline void tt_start_woken(struct task_struct *p, __u32 pid, const int btf)
{
	__u32 tgid = FSL_RD(btf, p->tgid, p, tgid);
	struct tasktime nt = {};

	if (targ_tids || targ_cgroup || !tgid || tgid == targ_self ||
	    (FSL_RD(btf, p->flags, p, flags) & PF_KTHREAD_BIT))
		return;
	if (!(targ_pids && bpf_map_lookup_elem(&pids, &tgid)) &&
	    !(targ_follow ? bpf_map_lookup_elem(&tracked, &tgid) != NULL : !targ_pids))
		return;
	nt.first = bpf_ktime_get_ns();
	nt.since = nt.first;
	nt.last_emit = nt.first;
	nt.ksum0 = task_ksum(p, btf);
	nt.tgid = tgid;
	nt.state = TT_RUNQ;
	tt_insert(pid, &nt, BPF_NOEXIST);
}

/* Before 5.14 the state was "long state" (commit 2f064a59a1 renamed it). */
struct task_struct___o {
	volatile long state;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_state(struct task_struct *t, const int btf)
{
	if (bpf_core_field_exists(t->__state))
		return FSL_RD(btf, t->__state, t, __state);
	return BPF_CORE_READ((struct task_struct___o *)t, state);
}

/*
 * Is t inside a data operation on a file of the target, or of another
 * filesystem? The data probes
 * keep the call in flight only when its fd is on the target (data.bpf.h):
 * in the task's storage on tp_btf, in a tid hash on raw_tp.
 */
static __always_inline __u32 offcpu_in_data_op(struct task_struct *t, __u32 pid, const int btf)
{
	struct fsl_ev_data *e;

	if (btf) {
		e = bpf_task_storage_get(&data_task, t, 0, 0);
		if (e && e->hdr.type == FSL_EV_DATA)
			return FSL_OFFCPU_IN_DATA_OP;
		/* a data call on a file of another filesystem (tp_btf only) */
		if (e && e->dev && targ_dev)
			return FSL_OFFCPU_IN_OTHER_OP;
	}
	return bpf_map_lookup_elem(&data_inflight, &pid) ? FSL_OFFCPU_IN_DATA_OP : 0;
}

/*
 * Whose jbd2 handle does t hold? journal_info is a handle_t inside ext4's
 * handles; another filesystem's transaction (XFS) is not one, and its
 * pointers do not lead to the target's device either.
 */
static __always_inline __u32 offcpu_handle(struct task_struct *t)
{
	handle_t *h = BPF_CORE_READ(t, journal_info);

	if (!targ_jbd2_pid || (unsigned long)h <= NOJOURNAL_MAX_REF)
		return 0;
	return BPF_CORE_READ(h, h_transaction, t_journal, j_fs_dev, bd_dev) == targ_dev ?
	       FSL_OFFCPU_HANDLE_TARGET : FSL_OFFCPU_HANDLE_OTHER;
}

/*
 * Which filesystem t's path walk stands in, if it is in one
 * (current->nameidata: the directory the walk has reached, whatever the
 * path was: absolute, across mount points, in a chroot).
 */
static __always_inline __u32 offcpu_walk(struct task_struct *t)
{
	struct nameidata *nd = BPF_CORE_READ(t, nameidata);
	__u32 dev;

	if (!targ_dev || !nd)
		return 0;
	dev = BPF_CORE_READ(nd, path.dentry, d_sb, s_dev);
	if (!dev)
		return 0;
	return dev == targ_dev ? FSL_OFFCPU_WALK_TARGET : FSL_OFFCPU_WALK_OTHER;
}

/*
 * The filesystem of the folio a thread is about to wait for: the
 * folio_wait_writeback tracepoint comes right before the sleep, so a mark
 * younger than FOLIO_MARK_NS at the thread's next uninterruptible
 * switch-out is that wait's. Short: the writeback may end before the
 * sleep, and a stale mark would name the next wait (sync(2) goes from one
 * filesystem's folios to another's journal).
 */
#define FOLIO_MARK_NS	20000

struct folio_mark {
	__u64 ts;
	__u32 dev;
	__u32 disk;		/* dev is a disk (a bdi's), not a filesystem's */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct folio_mark);
} folio_wait SEC(".maps");

/* folio_wait_writeback(struct folio *folio, struct address_space *mapping) */
static __always_inline int on_folio_wait(__u64 *ctx, const int btf)
{
	struct address_space *mapping = (struct address_space *)ctx[1];
	struct folio_mark fm = {};
	__u32 tid;

	if (!targ_dev || !mapping)
		return 0;
	fm.dev = BPF_CORE_READ(mapping, host, i_sb, s_dev);
	if (!fm.dev)
		return 0;
	fm.ts = bpf_ktime_get_ns();
	tid = (__u32)bpf_get_current_pid_tgid();
	bpf_map_update_elem(&folio_wait, &tid, &fm, BPF_ANY);
	return 0;
}

/*
 * writeback_queue(struct bdi_writeback *wb, struct wb_writeback_work *work):
 * sync(2) and syncfs queue work for a bdi's flusher and wait for it right
 * after; that wait is the bdi's disk's.
 */
static __always_inline int on_wb_queue(__u64 *ctx, const int btf)
{
	struct bdi_writeback *wb = (struct bdi_writeback *)ctx[0];
	struct folio_mark fm = { .disk = 1 };
	struct device *d;
	__u32 tid;

	if (!targ_dev || !wb)
		return 0;
	d = BPF_CORE_READ(wb, bdi, dev);
	fm.dev = d ? BPF_CORE_READ(d, devt) : 0;
	if (!fm.dev)
		return 0;
	fm.ts = bpf_ktime_get_ns();
	tid = (__u32)bpf_get_current_pid_tgid();
	bpf_map_update_elem(&folio_wait, &tid, &fm, BPF_ANY);
	return 0;
}

static __always_inline __u32 offcpu_folio(__u32 pid, __u64 now)
{
	struct folio_mark *fm;
	__u32 v = 0;

	if (!targ_dev)
		return 0;
	fm = bpf_map_lookup_elem(&folio_wait, &pid);
	if (!fm)
		return 0;
	if (now - fm->ts < FOLIO_MARK_NS)
		v = fm->dev == (fm->disk ? targ_blkdev : targ_dev) ? FSL_OFFCPU_FOLIO_TARGET :
		    FSL_OFFCPU_FOLIO_OTHER;
	bpf_map_delete_elem(&folio_wait, &pid);
	return v;
}


/* Does the name in buf (NUL-terminated, KT_NAME bytes) end with the rodata string s? */
static __always_inline bool kt_ends(const char *buf, const volatile char *s, bool whole)
{
	int n = 0, m = 0, i;

	for (i = 0; i < KT_NAME; i++) {
		if (buf[i])
			n = i + 1;
		if (s[i])
			m = i + 1;
	}
	if (!m || m > n || (whole && m != n))
		return false;
	for (i = 0; i < KT_NAME; i++)
		if (i < m && buf[(n - m + i) & (KT_NAME - 1)] != s[i])
			return false;
	return true;
}

/*
 * Is kernel thread t working for the target as it leaves the CPU? Its
 * jbd2 thread; a workqueue worker running the work of the target's loop
 * device (workqueue "loopN"), of its bdi's writeback (the work is the
 * bdi_writeback's), or of its XFS mount ("xfs-*" + "/NAME"); XFS's log
 * pusher "xfsaild/NAME".
 */
static __always_inline bool kthread_of_target(struct task_struct *t, const int btf)
{
	char name[KT_NAME] = {};
	struct worker *w;
	struct workqueue_struct *wq;
	struct backing_dev_info *bdi;
	struct work_struct *work;

	if (targ_jbd2_pid && FSL_RD(btf, t->pid, t, pid) == targ_jbd2_pid)
		return true;
	if (!(FSL_RD(btf, t->flags, t, flags) & PF_WQ_WORKER_BIT) ||
	    !bpf_core_field_exists(t->worker_private)) {
		BPF_CORE_READ_STR_INTO(&name, t, comm);
		return kt_ends(name, targ_xfsaild, true);
	}
	w = BPF_CORE_READ(t, worker_private);
	wq = BPF_CORE_READ(w, current_pwq, wq);
	if (!wq || bpf_probe_read_kernel_str(name, sizeof(name), &wq->name) <= 0)
		return false;
	if (kt_ends(name, targ_loop_wq, true) || kt_ends(name, targ_xfs_sfx, false))
		return true;
	if (!kt_ends(name, wb_wq, true) || !bpf_core_field_exists(struct backing_dev_info, dev_name))
		return false;
	/* wb_workfn's work is bdi_writeback.dwork.work: the bdi is named MAJ:MIN */
	work = BPF_CORE_READ(w, current_work);
	if (!work)
		return false;
	bdi = BPF_CORE_READ((struct bdi_writeback *)((void *)work -
			    bpf_core_field_offset(struct bdi_writeback, dwork.work)), bdi);
	__builtin_memset(name, 0, sizeof(name));
	if (!bdi || bpf_probe_read_kernel_str(name, sizeof(name), &bdi->dev_name) <= 0)
		return false;
	return kt_ends(name, targ_bdi, true);
}

/*
 * Is this wait recorded? 1 yes, 2 a kernel thread's that is kept only if
 * its wakeup says it waited on the target (a completion of its disk, its
 * journal thread: judged at switch-in), 0 no. Without a target, every
 * kernel thread's, as evidence for the causes.
 */
static __always_inline int offcpu_wanted(struct task_struct *t, __u32 tgid, const int btf)
{
	if (!tgid || tgid == targ_self)
		return 0;
	if (FSL_RD(btf, t->flags, t, flags) & PF_KTHREAD_BIT)
		return !targ_dev || kthread_of_target(t, btf) ? 1 : 2;
	return tgid_wanted(tgid);
}

/*
 * The wait s of thread pid ended at end (its switch-in): one record, unless
 * it is shorter than the threshold or another kernel thread's. A global
 * function, verified once: inlined at both of sched_switch's ends it took
 * that program past the verifier's limit with the XFS kernel-thread rules.
 */
__noinline int fsl_offcpu_end(struct offcpu_start *s, __u32 pid, __u64 end)
{
	struct fsl_ev_offcpu *e;

	if (!s)
		return 0;
	/* another kernel thread's wait: the target's only if a completion of its disk or its jbd2 woke it */
	if (s->kthread && !(targ_blkdev && s->wake_dev == targ_blkdev) &&
	    !(s->state & FSL_OFFCPU_WOKEN_JBD2_TARGET))
		return 0;
	if (end < s->ts || end - s->ts < targ_min_wait_ns)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		lost_inc(FSL_FAM_OFFCPU);
		return 0;
	}
	hdr_fill_as(&e->hdr, FSL_EV_OFFCPU, sizeof(*e), s->ts, s->tgid, pid);
	e->dur_ns = end - s->ts;
	e->stack_id = s->stack_id;
	e->waker_pid = s->waker;
	e->state = s->state;
	e->wake_dev = s->wake_dev;
	e->runq_ns = s->wake_ts && s->wake_ts < end ? end - s->wake_ts : 0;
	bpf_ringbuf_submit(e, rb_flags());
	return 0;
}

/* sched_switch(bool preempt, struct task_struct *prev, struct task_struct *next, ...) */
static __always_inline int on_sched_switch(__u64 *ctx, const int btf)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	struct offcpu_start *s, st = {};
	__u64 now = bpf_ktime_get_ns();
	__u32 pid, tgid, state, zero = 0;
	struct wake_dev_mark *m;
	int want;

	/*
	 * The cheap test first: most switches are preemptions or sleeps of
	 * another kind, which need neither the pid filter nor a stack.
	 */
	/* a completion's call chain does not outlive a switch on its CPU */
	m = bpf_map_lookup_elem(&wake_dev_cpu, &zero);
	if (m && m->dev)
		m->dev = 0;
	state = ctx[0] ? 0 : task_state(prev, btf);
	{
		__u32 ttstate = state, npid = FSL_RD(btf, next->pid, next, pid);
		struct tasktime *nt;

		if (targ_aio && state == TASK_INTERRUPTIBLE_BIT) {
			pid = FSL_RD(btf, prev->pid, prev, pid);
			if (bpf_map_lookup_elem(&aio_wait, &pid))
				ttstate = TASK_UNINTERRUPTIBLE_BIT;
		}
		tt_switch_out(prev, ttstate, now, btf);
		nt = bpf_map_lookup_elem(&tasktime, &npid);
		if (nt) {
			/* a sleep ended without a wakeup seen stays in its state */
			nt->switches++;
			tt_to(nt, TT_ONCPU, now, npid, true);
		}
	}
	/*
	 * A wait of prev's still open: its switch-in was not seen (see
	 * oncpu_stint). It ended when this stint on the CPU began.
	 */
	pid = FSL_RD(btf, prev->pid, prev, pid);
	s = bpf_map_lookup_elem(&offcpu_start, &pid);
	if (s) {
		fsl_offcpu_end(s, pid, now - oncpu_stint(prev, now, s->ts, btf));
		bpf_map_delete_elem(&offcpu_start, &pid);
	}
	/* an interruptible sleep inside io_getevents/io_uring_enter waits on I/O */
	if (targ_aio && state == TASK_INTERRUPTIBLE_BIT && !targ_offcpu_all) {
		pid = FSL_RD(btf, prev->pid, prev, pid);
		if (bpf_map_lookup_elem(&aio_wait, &pid))
			state = TASK_UNINTERRUPTIBLE_BIT | FSL_OFFCPU_AIO_WAIT;
	}
	if (targ_offcpu_all ? state != 0 :
	    (state & TASK_UNINTERRUPTIBLE_BIT) && !(state & TASK_NOLOAD_BIT)) {
		pid = FSL_RD(btf, prev->pid, prev, pid);
		tgid = FSL_RD(btf, prev->tgid, prev, tgid);
		want = offcpu_wanted(prev, tgid, btf);
		if (want) {
			st.ts = now;
			st.state = state;
			st.tgid = tgid;
			st.state |= offcpu_in_data_op(prev, pid, btf);
			st.state |= offcpu_handle(prev);
			st.state |= offcpu_folio(pid, now);
			st.kthread = want == 2 &&
				     !(st.state & (FSL_OFFCPU_HANDLE_TARGET | FSL_OFFCPU_FOLIO_TARGET));
			st.stack_id = offcpu_stack_id(ctx);
			bpf_map_update_elem(&offcpu_start, &pid, &st, BPF_ANY);
		}
	}

	pid = FSL_RD(btf, next->pid, next, pid);
	s = bpf_map_lookup_elem(&offcpu_start, &pid);
	if (!s)
		return 0;
	fsl_offcpu_end(s, pid, now);
	bpf_map_delete_elem(&offcpu_start, &pid);
	return 0;
}

/*
 * The target's jbd2 thread sleeps interruptibly only when it has nothing to
 * commit (kjournald2); whoever wakes it from there asked for the next
 * commit, and its stack says why. Its I/O waits are uninterruptible.
 */
static __always_inline void jbd2_kick(__u64 *ctx, struct task_struct *p, const int btf)
{
	struct fsl_ev_jbd2_kick *e;

	if (!(task_state(p, btf) & TASK_INTERRUPTIBLE_BIT))
		return;
	e = EV_NEW(fsl_ev_jbd2_kick, FSL_EV_JBD2_KICK, FSL_FAM_JOURNAL);
	if (!e)
		return;
	e->dev = targ_dev;
	e->stack_id = offcpu_stack_id(ctx);
	EV_SUBMIT(e);
}

/* sched_waking(struct task_struct *p): current is the waker. */
static __always_inline int on_sched_waking(__u64 *ctx, const int btf)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	__u32 pid = FSL_RD(btf, p->pid, p, pid);
	struct offcpu_start *s;
	struct tasktime *t = bpf_map_lookup_elem(&tasktime, &pid);
	struct wake_dev_mark *m;
	__u32 zero = 0;

	/* a waking of a thread still on its CPU (or already woken) changes nothing */
	if (t && (t->state == TT_BLOCKED || t->state == TT_SLEEP))
		tt_to(t, TT_RUNQ, bpf_ktime_get_ns(), pid, true);
	else if (!t)
		tt_start_woken(p, pid, btf);
	if (targ_jbd2_kick && targ_jbd2_pid && pid == targ_jbd2_pid)
		jbd2_kick(ctx, p, btf);
	s = bpf_map_lookup_elem(&offcpu_start, &pid);

	if (s && !s->wake_ts) {
		s->wake_ts = bpf_ktime_get_ns();
		s->waker = (__u32)bpf_get_current_pid_tgid();
		m = bpf_map_lookup_elem(&wake_dev_cpu, &zero);
		if (m && m->dev && s->wake_ts - m->ts < WAKE_DEV_WINDOW_NS)
			s->wake_dev = m->dev;
		/* both: a completion may have interrupted the journal thread (context.c) */
		if (targ_dev) {
			char comm[8] = {};

			bpf_get_current_comm(comm, sizeof(comm));
			if (comm[0] == 'j' && comm[1] == 'b' && comm[2] == 'd' && comm[3] == '2' &&
			    comm[4] == '/')
				s->state |= (bpf_get_current_pid_tgid() >> 32) == targ_jbd2_pid ?
					    FSL_OFFCPU_WOKEN_JBD2_TARGET : FSL_OFFCPU_WOKEN_JBD2_OTHER;
		}
	}
	return 0;
}

/*
 * sched_wakeup_new(struct task_struct *p): a new thread, runnable from here.
 * Its process is in the tracked map already (sched_process_fork runs first);
 * current is the parent, whose cgroup it shares.
 */
static __always_inline int on_sched_wakeup_new(__u64 *ctx, const int btf)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	__u32 pid = FSL_RD(btf, p->pid, p, pid), tgid = FSL_RD(btf, p->tgid, p, tgid);
	struct tasktime nt = {};

	if (!tgid || tgid == targ_self || (FSL_RD(btf, p->flags, p, flags) & PF_KTHREAD_BIT) ||
	    !tgid_wanted(tgid))
		return 0;
	nt.first = bpf_ktime_get_ns();
	nt.since = nt.first;
	nt.last_emit = nt.first;
	nt.ksum0 = task_ksum(p, btf);
	nt.tgid = tgid;
	nt.state = TT_RUNQ;
	/* a new thread: an entry of a dead one with this tid is stale */
	tt_insert(pid, &nt, BPF_ANY);
	return 0;
}

FSL_RAW_TP_BTF(sched_switch, on_sched_switch)
FSL_RAW_TP_BTF(sched_waking, on_sched_waking)
FSL_RAW_TP_BTF(sched_wakeup_new, on_sched_wakeup_new)
FSL_RAW_TP_BTF(folio_wait_writeback, on_folio_wait)
FSL_RAW_TP_BTF(writeback_queue, on_wb_queue)

#endif
