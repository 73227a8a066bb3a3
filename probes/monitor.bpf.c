// SPDX-License-Identifier: GPL-2.0
/*
 * fslens monitor: always-on aggregates, kept in the kernel. Nothing here
 * writes a ring record: every handler adds to mon_agg (monitor_abi.h), which
 * user space reads each interval. A separate object from fslens.bpf.c, so
 * the monitor pays only for these programs; the flight recorder loads the
 * full probes beside it.
 *
 * Which filesystem a wait belongs to is judged by the rules the record
 * path's context stage applies (include/fslens/scope.h): this side only
 * gathers the evidence, into the blocked key (monitor_abi.h), and user
 * space decides once per stack and evidence. The evidence: the fd of the
 * data or fd call the task is in; the jbd2 handle it holds
 * (current->journal_info); for a kernel thread, the journal it is the
 * thread of, the bdi it is writing back (flusher), the disk it last
 * completed a request of (loop worker); the disk whose request completion
 * woke it; the journal thread that woke it; and, for a task, the target
 * its current system call touched (journal start, fsync, a bio), cleared
 * at the call's exit. A kernel thread never reaches a syscall exit, so it
 * has no such hint: a kworker that touched a target once is not the
 * target's ever after.
 *
 * Commit triggers: what the report decides from the jbd2 kick (the stack
 * of the task that woke the idle journal thread, matched here against the
 * kick rules' address ranges) and what was waiting, gathered per commit
 * into the commits key; user space decides with fsl_trigger_decide().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "fslens/event.h"
#include "fslens/monitor_abi.h"

#define TASK_INTERRUPTIBLE_BIT	0x0001
#define TASK_UNINTERRUPTIBLE_BIT	0x0002
#define TASK_NOLOAD_BIT			0x0400
#define PF_KTHREAD_BIT			0x00200000
#define STACK_DEPTH			64
#define KICK_DEPTH			48	/* frames of a waker's stack searched for a rule */
#define NOJOURNAL_MAX_REF		4096	/* ext4 without a journal counts in journal_info */
#define WAKE_DEV_WINDOW_NS		50000
/* a flusher wakes the task waiting for its work right after writeback_written */
#define FLUSHED_WINDOW_NS		2000000
/*
 * folio_wait_writeback's tracepoint comes right before the sleep, and only
 * when the folio is under writeback; the bit may clear before the sleep,
 * and a stale mark would name the next wait (sync(2) waits on one
 * filesystem's folios, then on another's journal). A few microseconds.
 */
#define FOLIO_WINDOW_NS			20000
/* FSL_TRIGF_* (include/fslens/analysis.h) */
#define TRIGF_LOG_SPACE		(1u << 0)
#define TRIGF_FSYNC		(1u << 1)
#define TRIGF_FULL		(1u << 2)
#define TRIGF_OLD		(1u << 3)
#define TRIGF_NOSTATS		(1u << 4)
#define TRIGF_SYNC_COMMIT	(1u << 5)

const volatile __u32 targ_self = 0;	/* the monitor's own tgid */
/* benchmarks (--bench-floor): every program attaches and returns at once */
const volatile bool targ_floor = false;
#define MON_FLOOR()		\
	do {			\
		if (targ_floor)	\
			return 0;	\
	} while (0)
/* --bench-floor=syscalls: only the system call programs return at once */
const volatile bool targ_floor_sys = false;
const volatile __u32 targ_o_creat = 0100;
const volatile bool targ_cgroup = false;	/* --cgroup-label: key blocked and ops by cgroup */
/* Every target is ext4: a handle that is not a target's is another ext4's. */
const volatile bool targ_all_ext4 = false;
/* Wait classes (FSL_WC_* + 1) whose start dates a commit's reason. */
const volatile __u8 targ_wc_log_space = 0;
const volatile __u8 targ_wc_commit_wait = 0;
const volatile __u8 targ_wc_txn_locked = 0;
/*
 * The targets, set before load: the fs dev_t (s_dev) and the disk under it
 * of each, its commit interval (jiffies) and jbd2's transaction limit. A
 * scan of this read-only array (the verifier knows its length) costs a few
 * compares where a hash lookup cost about 40 ns, on every path.
 */
const volatile __u32 targ_ntgt = 0;
const volatile __u32 targ_fs_dev[MON_TARGETS_MAX] = {};
const volatile __u32 targ_disk_dev[MON_TARGETS_MAX] = {};
const volatile __u32 targ_commit_jiffies[MON_TARGETS_MAX] = {};
const volatile __u32 targ_max_txn[MON_TARGETS_MAX] = {};
const volatile __u32 targ_nkick = 0;
const volatile __u32 targ_st_dev_off = 0;	/* offsetof(struct stat, st_dev) */
const volatile __u32 targ_stx_dev_off = 136;	/* offsetof(struct statx, stx_dev_major) */
const volatile struct mon_kick_range targ_kick[MON_KICK_RULES] = {};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 32768);
	__type(key, struct mon_key);
	__type(value, struct mon_val);
} mon_agg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct mon_sc);
} mon_sc SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);		/* targets * MON_OPS_PER_TGT, set at load */
	__type(key, __u32);
	__type(value, struct mon_val);
} mon_ops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, MON_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
} mon_stacks SEC(".maps");

/* A stack whose bucket holds another: one frame shorter, here (see offcpu.bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, MON_STACKS2);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
} mon_stacks2 SEC(".maps");

/*
 * Wait class + 1 of a stack id, as user space named it (0: not yet): the
 * kernel dates the waits a commit's trigger depends on by it. An id is a
 * hash bucket, so a stack keeps its id; user space rewrites the entry each
 * time it names one.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MON_STACKS + MON_STACKS2);
	__type(key, __u32);
	__type(value, __u8);
} mon_stack_cls SEC(".maps");

static __always_inline __s32 mon_stack_id(void *ctx)
{
	long id = bpf_get_stackid(ctx, &mon_stacks, 0);

	if (id != -17 /* EEXIST */)
		return id;
	id = bpf_get_stackid(ctx, &mon_stacks2, 1 & BPF_F_SKIP_FIELD_MASK);
	return id < 0 ? id : id + FSL_STACK2_BASE;
}

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mon_task);
} mon_task SEC(".maps");

/* Per fs: the commit in progress, and what happened since the last one. */
struct mon_journal {
	__u64 start_ts;
	__u64 prev_start;	/* of the previous commit */
	__u64 prev_flushing;	/* when the previous commit stopped locking */
	__u64 lw_log_space;	/* start of the latest wait of these classes on this fs */
	__u64 lw_commit_wait;
	__u64 lw_txn_locked;
	__u32 tid;
	__u32 stats_tid;	/* tid of the last run_stats */
	__u32 stats_flags;	/* TRIGF_OLD, TRIGF_FULL from it */
	__u32 checkpoints;	/* since the last commit ended */
	__u32 fsyncs;		/* ext4_sync_file in progress */
	__u8 kick;		/* the latest kick since the last commit started */
	__u8 start_kick;	/* the kick of the commit in progress */
	__u8 start_flags;	/* TRIGF_* known at its start */
	__u8 _pad;
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

/*
 * The request completion running on this CPU (any disk): block_rq_complete
 * sets it, sched_switch on the CPU clears it; a wakeup inside is the
 * completion's (bio_endio wakes the waiters from the same call chain),
 * within WAKE_DEV_WINDOW_NS as the record path has it. (Longer, "until the
 * completing kernel thread leaves the CPU", was tried: a softirq completion
 * runs in whatever kernel thread it interrupted, a flusher, and named the
 * flusher's later wake-ups for another disk.)
 */
struct wake_mark {
	__u64 ts;
	__u32 dev;
	__u32 _pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wake_mark);
} mon_wake_mark SEC(".maps");

/* The waker's stack, for the kick rules. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[KICK_DEPTH]);
} mon_kick_stack SEC(".maps");

static __always_inline void agg_add(__u8 kind, __u8 tgt, __u8 a, __u8 b, __s32 x, __u64 cg,
				    __u64 cnt, __u64 sum)
{
	struct mon_key k = { .kind = kind, .tgt = tgt, .a = a, .b = b, .x = x, .cg = cg };
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

/* An operation's latency and bytes, without a cgroup label (mon_ops). */
static __always_inline void ops_add(int idx, __u32 op, __u64 ns, long ret)
{
	struct mon_val *v;
	__u32 i;

	if (idx < 0 || idx >= MON_TARGETS_MAX || op >= MON_OPS)
		return;
	i = mon_ops_hist_idx(idx, op, mon_fine_bucket(ns));
	v = bpf_map_lookup_elem(&mon_ops, &i);
	if (v) {
		v->count++;
		v->sum += ns;
	}
	if ((op == MON_OP_READ || op == MON_OP_WRITE) && ret > 0) {
		i = mon_ops_bytes_idx(idx, op);
		v = bpf_map_lookup_elem(&mon_ops, &i);
		if (v) {
			v->count++;
			v->sum += ret;
		}
	}
}

/* The target whose device (an fs's s_dev, or a disk) dev is: its index, or -1. */
static __always_inline int tgt_of(const volatile __u32 *devs, __u32 dev)
{
	int i;

	if (!dev)
		return -1;
	for (i = 0; i < MON_TARGETS_MAX; i++) {
		if (i >= targ_ntgt)
			break;
		if (devs[i] == dev)
			return i;
	}
	return -1;
}

static __always_inline int fs_idx(__u32 dev)
{
	return tgt_of(targ_fs_dev, dev);
}

static __always_inline __u8 fs_ev(__u32 dev)
{
	int i = fs_idx(dev);

	if (!dev)
		return MON_EV_NONE;
	return i >= 0 ? MON_EV_TGT(i & 7) : MON_EV_OTHER;
}

static __always_inline __u8 disk_ev(__u32 dev)
{
	int i = tgt_of(targ_disk_dev, dev);

	if (!dev)
		return MON_EV_NONE;
	return i >= 0 ? MON_EV_TGT(i & 7) : MON_EV_OTHER;
}

static __always_inline __u64 task_cg(struct task_struct *t)
{
	if (!targ_cgroup)
		return 0;
	return BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
}

/* The filesystem a task (not a kernel thread) is acting on in this system call. */
static __always_inline void hint_set(__u32 dev)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mon_task *s;
	int idx = fs_idx(dev);

	if (idx < 0 || (t->flags & PF_KTHREAD_BIT))
		return;
	s = bpf_task_storage_get(&mon_task, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (s) {
		s->hint = MON_EV_TGT(idx & 7);
		s->hint_nr = 0;
	}
}

/* kernel 6.2+: a read-only typed view of a kernel pointer, for direct loads */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/*
 * The filesystem of fd in task t. The task's own fields are typed (tp_btf);
 * the file pointer comes out of the fd array by a probe read and is cast
 * back to a typed one, so the three loads after it are plain loads, not a
 * helper call each (about 25 ns apiece: this runs at every open's exit and
 * every fd call's entry).
 */
static __always_inline __u32 fd_dev(struct task_struct *t, long fd)
{
	struct fdtable *fdt;
	struct file *f = NULL, *tf;

	if (fd < 0)
		return 0;
	fdt = t->files->fdt;
	if (!fdt || fd >= fdt->max_fds)
		return 0;
	if (bpf_probe_read_kernel(&f, sizeof(f), &fdt->fd[fd]) || !f)
		return 0;
	tf = bpf_rdonly_cast(f, bpf_core_type_id_kernel(struct file));
	return tf->f_inode->i_sb->s_dev;
}

static __always_inline __u64 sc_arg(struct pt_regs *regs, int i)
{
	switch (i) {
	case 0: return PT_REGS_PARM1_SYSCALL(regs);
	case 1: return PT_REGS_PARM2_SYSCALL(regs);
	case 2: return PT_REGS_PARM3_SYSCALL(regs);
	case 3: return PT_REGS_PARM4_SYSCALL(regs);
	case 4: return PT_REGS_PARM5_SYSCALL(regs);
	default: return 0;
	}
}

/* ---- operations ---- */

/*
 * Where a path call starts its walk: the directory fd's filesystem, or the
 * cwd's, for a relative path (an absolute one starts at the root: no
 * evidence). Only a hint (MON_EV_* of a target, else none): the walk may
 * cross a mount point. It places the call's CPU before it touches the
 * target otherwise: a create's lookup and inode search run before its
 * journal handle starts.
 */
static __always_inline __u8 path_start_ev(struct task_struct *t, struct pt_regs *regs,
					  const struct mon_sc *sc)
{
	const char *p = (const char *)sc_arg(regs, sc->path);
	long dfd = sc->dirfd >= 0 ? (long)(int)sc_arg(regs, sc->dirfd) : -100;
	char c = '/';
	__u32 dev;
	__u8 ev;

	if (!p || bpf_probe_read_user(&c, 1, p) || c == '/')
		return MON_EV_NONE;
	dev = dfd == -100 /* AT_FDCWD */ ? t->fs->pwd.dentry->d_sb->s_dev : fd_dev(t, dfd);
	ev = fs_ev(dev);
	return ev == MON_EV_OTHER ? MON_EV_NONE : ev;
}

/*
 * The target this task's system call touched so far (MON_EV_* of a target,
 * else none), judging its path start now if that is still to be done. regs:
 * the call's saved user registers (its arguments), or NULL to look them up.
 */
static __always_inline __u8 hint_of(struct task_struct *t, struct mon_task *s,
				    struct pt_regs *regs)
{
	struct mon_sc *sc;
	__u32 nr = s->hint_nr;

	if (!nr)
		return s->hint;
	s->hint_nr = 0;
	nr--;
	sc = bpf_map_lookup_elem(&mon_sc, &nr);
	if (!sc || sc->path < 0)
		return s->hint;
	if (!regs)
		regs = (struct pt_regs *)bpf_task_pt_regs(t);
	s->hint = path_start_ev(t, regs, sc);
	return s->hint;
}

/*
 * The filesystem a task's path walk is in right now, when it is in one
 * (current->nameidata: the directory the walk stands in), else the target
 * its system call touched so far. A walk's position is what it is working
 * on whatever the path: an absolute one (the start hint knows nothing of
 * it), one that crossed a mount point, a chroot's. Only a target counts:
 * a walk through the root filesystem's directories on its way to the
 * target is the root filesystem's work, and its hint is the call's.
 */
static __always_inline __u8 walk_hint(struct task_struct *t, struct mon_task *s)
{
	struct nameidata *nd = BPF_CORE_READ(t, nameidata);
	__u8 ev;

	if (nd) {
		ev = fs_ev(BPF_CORE_READ(nd, path.dentry, d_sb, s_dev));
		if (ev != MON_EV_OTHER && ev != MON_EV_NONE)
			return ev;
	}
	return s ? hint_of(t, s, NULL) : MON_EV_NONE;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(mon_sys_enter, struct pt_regs *regs, long id)
{
	MON_FLOOR();
	if (targ_floor_sys)
		return 0;
	struct task_struct *t;
	struct mon_task *s;
	struct mon_sc *sc;
	__u32 nr = id, op, dev = 0;
	__u8 ev = MON_EV_NONE;

	sc = bpf_map_lookup_elem(&mon_sc, &nr);
	if (!sc || !sc->op)
		return 0;
	if ((bpf_get_current_pid_tgid() >> 32) == targ_self)
		return 0;
	op = sc->op - 1;
	t = bpf_get_current_task_btf();
	if (sc->fd >= 0) {
		dev = fd_dev(t, (long)(int)sc_arg(regs, sc->fd));
		ev = fs_ev(dev);
		if (ev != MON_EV_OTHER)
			goto follow;
		/*
		 * A call on another filesystem: not worth a storage entry, but
		 * a task that has one marks its waits as that filesystem's.
		 */
		s = bpf_task_storage_get(&mon_task, t, 0, 0);
		if (s) {
			s->op = 0;
			s->op_ev = MON_EV_OTHER;
		}
		return 0;
	}
follow:
	if (op == FSL_OP_OPEN && (sc->creat ||
	    (sc->flags >= 0 && (sc_arg(regs, sc->flags) & targ_o_creat))))
		op = FSL_OP_CREATE;
	s = bpf_task_storage_get(&mon_task, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s)
		return 0;
	s->op = op + 1;
	s->op_ts = bpf_ktime_get_ns();
	s->op_dev = dev;
	s->op_ev = ev;
	s->hint = ev;
	s->hint_nr = !ev && sc->path >= 0 ? nr + 1 : 0;
	s->op_stk = sc->stbuf >= 0 ? sc->stkind : MON_ST_NONE;
	if (s->op_stk)
		s->op_buf = sc_arg(regs, sc->stbuf);
	return 0;
}

/* The filesystem a stat call returned (its buffer, at exit); 0 unknown. */
static __always_inline __u32 stat_dev(struct mon_task *s)
{
	__u64 d = 0;
	__u32 mm[2] = {};

	if (s->op_stk == MON_ST_STAT) {
		if (bpf_probe_read_user(&d, sizeof(d), (void *)(s->op_buf + targ_st_dev_off)))
			return 0;
		/* new_encode_dev: minor's low byte, major, then minor's high bits */
		return FSL_MKDEV((d >> 8) & 0xfff, (d & 0xff) | ((d >> 12) & 0xfff00));
	}
	if (s->op_stk == MON_ST_STATX) {
		if (bpf_probe_read_user(mm, sizeof(mm), (void *)(s->op_buf + targ_stx_dev_off)))
			return 0;
		return FSL_MKDEV(mm[0], mm[1]);
	}
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(mon_sys_exit, struct pt_regs *regs, long ret)
{
	MON_FLOOR();
	if (targ_floor_sys)
		return 0;
	struct task_struct *t = bpf_get_current_task_btf();
	struct mon_task *s = bpf_task_storage_get(&mon_task, t, 0, 0);
	__u32 op, dev;
	__u64 ns;
	int idx;

	if (!s || (!s->op && !s->hint && !s->hint_nr && !s->op_ev && !s->folio_ev))
		return 0;	/* the common case: nothing to count, nothing to clear */
	if (s->op) {
		op = s->op - 1;
		ns = bpf_ktime_get_ns() - s->op_ts;
		dev = s->op_dev;
		if (!dev && (op == FSL_OP_OPEN || op == FSL_OP_CREATE) && ret >= 0)
			dev = fd_dev(t, ret);
		if (!dev && s->op_stk && ret == 0)
			dev = stat_dev(s);
		idx = fs_idx(dev);
		if (idx < 0 && !dev) {
			__u8 h = hint_of(t, s, regs);

			if (h >= MON_EV_TGT(0) && h < MON_EV_OTHER)
				idx = h - 1;
		}
		if (idx >= 0 && !targ_cgroup)
			ops_add(idx, op, ns, ret);
		else if (idx >= 0) {
			__u64 cg = task_cg(t);

			agg_add(MON_OP_HIST, idx, op, 0, mon_fine_bucket(ns), cg, 1, ns);
			if ((op == MON_OP_READ || op == MON_OP_WRITE) && ret > 0)
				agg_add(MON_DATA_BYTES, idx, op, 0, 0, cg, 1, ret);
		}
		s->op = 0;
		s->op_stk = MON_ST_NONE;
	}
	s->op_ev = MON_EV_NONE;
	s->hint = MON_EV_NONE;
	s->hint_nr = 0;
	s->folio_ev = MON_EV_NONE;
	return 0;
}

/* ---- hints from the filesystem's own tracepoints ---- */

/*
 * The ext4 hooks are raw (tp_btf): the device is read from the typed
 * arguments, and no trace record is built for them, about half of a
 * classic tracepoint's cost on a create.
 */
SEC("tp_btf/ext4_journal_start_inode")
int BPF_PROG(mon_ext4_js_inode, struct inode *inode)
{
	MON_FLOOR();
	hint_set(inode->i_sb->s_dev);
	return 0;
}

SEC("tp_btf/ext4_journal_start_sb")
int BPF_PROG(mon_ext4_js_sb, struct super_block *sb)
{
	MON_FLOOR();
	hint_set(sb->s_dev);
	return 0;
}

SEC("tp_btf/ext4_sync_file_enter")
int BPF_PROG(mon_ext4_sync_enter, struct file *file)
{
	MON_FLOOR();
	__u32 dev = file->f_path.dentry->d_sb->s_dev;
	int idx = fs_idx(dev);
	struct mon_journal *j;
	__u32 k;

	if (idx < 0)
		return 0;
	hint_set(dev);
	k = idx;
	j = bpf_map_lookup_elem(&mon_jnl, &k);
	if (j)
		__sync_fetch_and_add(&j->fsyncs, 1);
	return 0;
}

SEC("tp_btf/ext4_sync_file_exit")
int BPF_PROG(mon_ext4_sync_exit, struct inode *inode)
{
	MON_FLOOR();
	int idx = fs_idx(inode->i_sb->s_dev);
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

/* ---- off-CPU: blocked time by stack and scope evidence ---- */

/* MON_EV_* of the journal whose handle t holds (current->journal_info), 0 none. */
static __always_inline __u8 handle_ev(struct task_struct *t)
{
	handle_t *h = t->journal_info;
	__u8 ev;

	if ((unsigned long)h <= NOJOURNAL_MAX_REF)
		return MON_EV_NONE;
	ev = fs_ev(BPF_CORE_READ(h, h_transaction, t_journal, j_fs_dev, bd_dev));
	/* journal_info of another filesystem (an XFS transaction) is not a handle */
	return ev == MON_EV_OTHER && !targ_all_ext4 ? MON_EV_NONE : ev;
}

static __always_inline bool comm_jbd2(struct task_struct *t)
{
	return t->comm[0] == 'j' && t->comm[1] == 'b' && t->comm[2] == 'd' && t->comm[3] == '2' &&
	       t->comm[4] == '/';
}

/*
 * A kernel thread's evidence (its key's a and b's high part): the target
 * whose bdi it is writing back, else the disk it last completed a request of.
 */
static __always_inline __u8 kt_evidence(const struct mon_task *s, __u8 *hi)
{
	if (s->kt_flush) {
		*hi = s->kt_flush;
		return MON_A(MON_ROLE_KTHREAD, MON_KT_FLUSH, 0);
	}
	if (s->kt_loop && s->kt_loop != MON_EV_OTHER) {
		*hi = s->kt_loop;
		return MON_A(MON_ROLE_KTHREAD, MON_KT_LOOP, 0);
	}
	return MON_A(MON_ROLE_KTHREAD, MON_KT_NONE, 0);
}

/* A wait on a target began: date it for the commit-trigger guesses. */
static __always_inline void date_wait(__u8 ev, __s32 stack, __u64 now)
{
	struct mon_journal *j;
	__u32 k, slot;
	__u8 *cls;

	if (ev < MON_EV_TGT(0) || ev >= MON_EV_OTHER || stack < 0)
		return;
	slot = stack >= FSL_STACK2_BASE ? stack - FSL_STACK2_BASE + MON_STACKS : stack;
	cls = bpf_map_lookup_elem(&mon_stack_cls, &slot);
	if (!cls || !*cls)
		return;
	k = ev - 1;
	j = bpf_map_lookup_elem(&mon_jnl, &k);
	if (!j)
		return;
	if (*cls == targ_wc_log_space)
		j->lw_log_space = now;
	else if (*cls == targ_wc_commit_wait)
		j->lw_commit_wait = now;
	else if (*cls == targ_wc_txn_locked)
		j->lw_txn_locked = now;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(mon_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	MON_FLOOR();
	struct mon_task *s;
	struct wake_mark *m;
	__u64 now = bpf_ktime_get_ns();
	__u32 state, zero = 0;
	__u8 tgt, a, hi = 0;
	bool kth, blocks;

	/* a completion's call chain does not outlive a switch on its CPU */
	m = bpf_map_lookup_elem(&mon_wake_mark, &zero);
	if (m && m->dev)
		m->dev = 0;
	state = preempt ? 0 : prev->__state;
	blocks = (state & TASK_UNINTERRUPTIBLE_BIT) && !(state & TASK_NOLOAD_BIT) &&
		 prev->tgid && prev->tgid != targ_self;
	s = bpf_task_storage_get(&mon_task, prev, 0, blocks ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	/*
	 * A wait of prev's still open: its switch-in was not seen (sched_switch
	 * does not fire for every switch on every machine; see oncpu_stint in
	 * offcpu.bpf.h). It ended when this stint on the CPU began, by the
	 * kernel's count of the stint.
	 */
	if (s && s->off_ts) {
		__u64 stint = prev->se.sum_exec_runtime > prev->se.prev_sum_exec_runtime ?
			      prev->se.sum_exec_runtime - prev->se.prev_sum_exec_runtime : 0;

		if (now - s->off_ts > stint)
			agg_add(MON_BLOCKED, s->off_tgt, s->off_a, s->off_b, s->off_stack,
				s->off_cg, 1, now - stint - s->off_ts);
		s->off_ts = 0;
	}
	if (blocks) {
		if (s) {
			kth = prev->flags & PF_KTHREAD_BIT;
			tgt = s->op_ev;
			if (!tgt)
				tgt = handle_ev(prev);
			/* the wait is on a folio of this filesystem (its writeback) */
			if (!tgt && s->folio_ev && now - s->folio_ts < FOLIO_WINDOW_NS)
				tgt = s->folio_ev;
			s->folio_ev = 0;
			if (kth) {
				if (!tgt)
					tgt = s->kt_jbd2 ? s->kt_jbd2 :
					      comm_jbd2(prev) ? MON_EV_OTHER : MON_EV_NONE;
				a = kt_evidence(s, &hi);
			} else {
				a = MON_A(MON_ROLE_WORKLOAD, MON_KT_NONE, walk_hint(prev, s) & 15);
			}
			s->off_ts = now;
			s->off_tgt = tgt;
			s->off_a = a;
			s->off_b = MON_B(0, hi);
			s->woken = 0;
			s->off_stack = mon_stack_id(ctx);
			s->off_cg = task_cg(prev);
			date_wait(tgt ? tgt : s->hint, s->off_stack, now);
		}
	}
	s = bpf_task_storage_get(&mon_task, next, 0, 0);
	if (!s || !s->off_ts)
		return 0;
	agg_add(MON_BLOCKED, s->off_tgt, s->off_a, s->off_b, s->off_stack, s->off_cg, 1,
		now - s->off_ts);
	s->off_ts = 0;
	return 0;
}

/*
 * ---- on-CPU: samples by stack and scope evidence ----
 *
 * A cpu-clock perf event on every CPU (--cpu-freq) samples the task on it.
 * The sample carries the evidence a wait carries when it leaves the CPU
 * (the fd call's filesystem, the jbd2 handle, a kernel thread's journal,
 * bdi or disk, the target this system call touched), so user space judges
 * it with the same scope rules. A sample with none of it is no target's
 * and is not counted: no stack walk, no map update. The stacks have their
 * own map: on-CPU stacks differ at every instruction and would crowd out
 * the waits' ids, whose class the commit triggers read.
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, MON_CPU_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
} mon_cpu_stacks SEC(".maps");

SEC("perf_event")
int mon_cpu_sample(struct bpf_perf_event_data *ctx)
{
	MON_FLOOR();
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 id = bpf_get_current_pid_tgid();
	__u8 tgt = 0, a, hi = 0;
	struct mon_task *s;
	__s32 x = -1;

	if (!(__u32)id || (id >> 32) == targ_self)
		return 0;
	s = bpf_task_storage_get(&mon_task, t, 0, 0);
	if (s)
		tgt = s->op_ev;
	if (!tgt)
		tgt = handle_ev(t);
	if (t->flags & PF_KTHREAD_BIT) {
		if (!s)
			return 0;
		if (!tgt)
			tgt = s->kt_jbd2;
		a = kt_evidence(s, &hi);
		if (!tgt && !hi)
			return 0;
	} else {
		a = MON_A(MON_ROLE_WORKLOAD, MON_KT_NONE, walk_hint(t, s) & 15);
		if (!tgt && !MON_A_HINT(a))
			return 0;
	}
	/* kernel addresses are the upper half on every arch fslens builds for */
	if ((long)PT_REGS_IP(&ctx->regs) < 0) {
		x = bpf_get_stackid(ctx, &mon_cpu_stacks, 0);
		if (x < 0)
			x = -2;		/* the map was full: counted, unnamed */
	}
	agg_add(MON_CPU, tgt, a, MON_B(0, hi), x, task_cg(t), 1, 0);
	return 0;
}

struct kick_walk {
	long n;			/* frames in mon_kick_stack */
	__u64 ip;		/* the frame being matched */
	__u32 best_rank;	/* rank + 1 of the best rule so far */
	__u8 kick;
};

/* Step i: frame i / MON_KICK_RULES against rule i % MON_KICK_RULES. */
static long kick_step(__u64 i, void *ctx)
{
	struct kick_walk *w = ctx;
	__u32 f = i >> 4, r = i & (MON_KICK_RULES - 1), zero = 0;
	__u64 *ips;

	if (f >= KICK_DEPTH || f >= w->n)
		return 1;
	if (r == 0) {
		ips = bpf_map_lookup_elem(&mon_kick_stack, &zero);
		if (!ips)
			return 1;
		w->ip = ips[f];
	}
	if (r >= targ_nkick)
		return 0;
	if (w->ip >= targ_kick[r].lo && w->ip < targ_kick[r].hi &&
	    targ_kick[r].rank + 1 > w->best_rank) {
		w->best_rank = targ_kick[r].rank + 1;
		w->kick = targ_kick[r].kick;
	}
	return 0;
}

/*
 * Who asked the idle journal thread for a commit: the best kick rule found
 * in the waker's stack (the report's an_kick_of_stack, by address range).
 */
static __always_inline __u8 kick_of_waker(void *ctx)
{
	struct kick_walk w = {};
	__u32 zero = 0;
	__u64 *ips = bpf_map_lookup_elem(&mon_kick_stack, &zero);
	long n;

	if (!ips)
		return 0;
	n = bpf_get_stack(ctx, ips, KICK_DEPTH * sizeof(__u64), 0);
	if (n <= 0)
		return 0;
	w.n = n / sizeof(__u64);
	bpf_loop(KICK_DEPTH * MON_KICK_RULES, kick_step, &w, 0);
	return w.kick;
}

/* sched_waking(struct task_struct *p): current is the waker. */
SEC("tp_btf/sched_waking")
int BPF_PROG(mon_sched_waking, struct task_struct *p)
{
	MON_FLOOR();
	struct mon_task *s = bpf_task_storage_get(&mon_task, p, 0, 0), *w;
	struct task_struct *cur;
	struct wake_mark *m;
	__u32 zero = 0, k;
	__u8 wake = 0, jb = 0;
	__u64 now;

	if (!s)
		return 0;
	/* the target's journal thread asked for a commit */
	if (s->kt_jbd2 && s->kt_jbd2 != MON_EV_OTHER && (p->__state & TASK_INTERRUPTIBLE_BIT)) {
		__u8 kick = kick_of_waker(ctx);
		struct mon_journal *j;

		k = s->kt_jbd2 - 1;
		j = bpf_map_lookup_elem(&mon_jnl, &k);
		/* the latest: a timer wake that found nothing expired is followed by the real one */
		if (j && kick)
			j->kick = kick;
		return 0;
	}
	if (!s->off_ts || s->woken)
		return 0;
	s->woken = 1;
	now = bpf_ktime_get_ns();
	m = bpf_map_lookup_elem(&mon_wake_mark, &zero);
	if (m && m->dev && now - m->ts < WAKE_DEV_WINDOW_NS)
		wake = disk_ev(m->dev);
	cur = bpf_get_current_task_btf();
	w = bpf_task_storage_get(&mon_task, cur, 0, 0);
	/* a flusher that just ended its work on a disk wakes who waited for it (sync) */
	if (!wake && w && w->kt_flushed && now - w->flushed_ts < FLUSHED_WINDOW_NS)
		wake = w->kt_flushed;
	/* a kernel thread's high bits are its role's target; the waker does not matter */
	if (MON_A_ROLE(s->off_a) == MON_ROLE_KTHREAD) {
		s->off_b = MON_B(wake, MON_B_HI(s->off_b));
		return 0;
	}
	/* woken by a journal thread: known by its commits, else by its name */
	if (w && w->kt_jbd2)
		jb = w->kt_jbd2;
	else if (comm_jbd2(cur))
		jb = MON_EV_OTHER;
	s->off_b = MON_B(wake, jb);
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

/* Only kjournald2 commits: current is the journal thread of ctx->dev. */
SEC("tracepoint/jbd2/jbd2_start_commit")
int mon_jbd2_start(struct trace_event_raw_jbd2_commit *ctx)
{
	MON_FLOOR();
	struct task_struct *t = bpf_get_current_task_btf();
	struct mon_journal *j;
	struct mon_task *s;
	__u64 now = bpf_ktime_get_ns();
	__u8 f = 0;
	int idx;

	s = bpf_task_storage_get(&mon_task, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (s && !s->kt_jbd2)
		s->kt_jbd2 = fs_ev(ctx->dev);
	j = jnl(ctx->dev, &idx);
	if (!j)
		return 0;
	/*
	 * Why now, as the report asks at this point: a checkpoint or a
	 * log-space wait since the previous commit, an fsync in progress or
	 * a commit wait begun since, a task that found the transaction full
	 * (a locked-transaction wait after the previous one stopped locking).
	 */
	if (j->checkpoints || (j->lw_log_space > j->prev_start && j->lw_log_space <= now))
		f |= TRIGF_LOG_SPACE;
	if (j->fsyncs || (j->lw_commit_wait > j->prev_start && j->lw_commit_wait <= now))
		f |= TRIGF_FSYNC;
	if (j->lw_txn_locked > j->prev_flushing && j->lw_txn_locked <= now)
		f |= TRIGF_FULL;
	if (ctx->sync_commit)
		f |= TRIGF_SYNC_COMMIT;
	j->start_flags = f;
	j->start_kick = j->kick;
	j->kick = 0;
	j->start_ts = now;
	j->prev_start = now;
	j->prev_flushing = now;
	j->tid = ctx->transaction;
	return 0;
}

SEC("tracepoint/jbd2/jbd2_commit_flushing")
int mon_jbd2_flushing(struct trace_event_raw_jbd2_commit *ctx)
{
	MON_FLOOR();
	struct mon_journal *j;
	int idx;

	j = jnl(ctx->dev, &idx);
	if (j)
		j->prev_flushing = bpf_ktime_get_ns();
	return 0;
}

/* Before end_commit (fs/jbd2/commit.c): the transaction's age and size. */
SEC("tracepoint/jbd2/jbd2_run_stats")
int mon_jbd2_run_stats(struct trace_event_raw_jbd2_run_stats *ctx)
{
	MON_FLOOR();
	struct mon_journal *j;
	__u32 dev = ctx->dev, cj, mx;
	int idx;

	j = jnl(dev, &idx);
	if (!j || idx < 0 || idx >= MON_TARGETS_MAX)
		return 0;
	cj = targ_commit_jiffies[idx];
	mx = targ_max_txn[idx];
	j->stats_tid = ctx->tid;
	j->stats_flags = 0;
	if (cj && ctx->running + 2 >= cj)
		j->stats_flags |= TRIGF_OLD;
	if (mx && (__u64)ctx->blocks * 10 >= (__u64)mx * 9)
		j->stats_flags |= TRIGF_FULL;
	return 0;
}

SEC("tracepoint/jbd2/jbd2_checkpoint")
int mon_jbd2_checkpoint(struct trace_event_raw_jbd2_checkpoint *ctx)
{
	MON_FLOOR();
	struct mon_journal *j;
	int idx;

	j = jnl(ctx->dev, &idx);
	if (!j)
		return 0;
	j->checkpoints++;
	agg_add(MON_CHECKPOINTS, idx, 0, 0, 0, 0, 1, 0);
	return 0;
}

/* The commit's kick and evidence; user space decides with fsl_trigger_decide(). */
SEC("tracepoint/jbd2/jbd2_end_commit")
int mon_jbd2_end(struct trace_event_raw_jbd2_end_commit *ctx)
{
	MON_FLOOR();
	/* read the context once: clang may address it through a moved pointer, refused */
	__u32 dev = ctx->dev, tid = ctx->transaction;
	bool sync = ctx->sync_commit;
	struct mon_journal *j;
	__u64 now = bpf_ktime_get_ns();
	__u8 f = 0, kick = 0;
	int idx;

	j = jnl(dev, &idx);
	if (!j)
		return 0;
	if (j->tid == tid && j->start_ts) {
		__u64 ns = now - j->start_ts;

		f = j->start_flags;
		kick = j->start_kick;
		agg_add(MON_COMMIT_HIST, idx, 0, 0, mon_fine_bucket(ns), 0, 1, ns);
	} else if (sync) {
		f = TRIGF_SYNC_COMMIT;
	}
	if (j->stats_tid == tid)
		f |= j->stats_flags;
	else
		f |= TRIGF_NOSTATS;
	agg_add(MON_COMMITS, idx, kick, f, 0, 0, 1, 0);
	j->start_ts = 0;
	j->checkpoints = 0;
	return 0;
}

/* ---- writeback ---- */

/* writeback_single_inode(inode, wbc, nr_to_write): pages written = nr_to_write - wbc->nr_to_write */
SEC("tp_btf/writeback_single_inode")
int BPF_PROG(mon_wb_inode, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	MON_FLOOR();
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
	agg_add(MON_WB_PAGES, idx, reason, 0, 0, 0, 1, wrote);
	return 0;
}

/*
 * A flusher starts and ends a piece of work on a bdi: whose flusher it is
 * meanwhile, and whose work it ended last (its waker, sync, is woken next).
 */
static __always_inline void flusher_mark(struct bdi_writeback *wb, bool start)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct device *d = BPF_CORE_READ(wb, bdi, dev);
	struct mon_task *s;
	__u8 ev = disk_ev(d ? BPF_CORE_READ(d, devt) : 0);

	s = bpf_task_storage_get(&mon_task, t, 0, ev != MON_EV_OTHER && ev ?
				 BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!s)
		return;
	if (start) {
		s->kt_flush = ev == MON_EV_OTHER ? MON_EV_NONE : ev;
	} else {
		s->kt_flush = MON_EV_NONE;
		s->kt_flushed = ev;
		s->flushed_ts = bpf_ktime_get_ns();
	}
}

SEC("tp_btf/writeback_start")
int BPF_PROG(mon_wb_start, struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	MON_FLOOR();
	flusher_mark(wb, true);
	return 0;
}

SEC("tp_btf/writeback_written")
int BPF_PROG(mon_wb_written, struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	MON_FLOOR();
	flusher_mark(wb, false);
	return 0;
}

/* The task is about to wait for a folio's writeback: the folio's filesystem is the wait's. */
SEC("tp_btf/folio_wait_writeback")
int BPF_PROG(mon_folio_wait, struct folio *folio, struct address_space *mapping)
{
	MON_FLOOR();
	struct task_struct *t = bpf_get_current_task_btf();
	struct mon_task *s;
	__u8 ev;

	if (!mapping)
		return 0;
	ev = fs_ev(BPF_CORE_READ(mapping, host, i_sb, s_dev));
	s = bpf_task_storage_get(&mon_task, t, 0, ev != MON_EV_OTHER && ev ?
				 BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!s)
		return 0;
	s->folio_ev = ev;
	s->folio_ts = bpf_ktime_get_ns();
	return 0;
}

/* sync(2)/syncfs queue work for a bdi's flusher and wait for it next: that wait is its disk's. */
SEC("tp_btf/writeback_queue")
int BPF_PROG(mon_wb_queue, struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	MON_FLOOR();
	struct task_struct *t = bpf_get_current_task_btf();
	struct device *d = BPF_CORE_READ(wb, bdi, dev);
	__u8 ev = disk_ev(d ? BPF_CORE_READ(d, devt) : 0);
	struct mon_task *s;

	if (!ev)
		return 0;
	s = bpf_task_storage_get(&mon_task, t, 0, ev != MON_EV_OTHER ?
				 BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!s)
		return 0;
	s->folio_ev = ev;
	s->folio_ts = bpf_ktime_get_ns();
	return 0;
}

/* balance_dirty_pages(wb, dtc, ..., long pause, ...): bdi is the disk. */
SEC("tracepoint/writeback/balance_dirty_pages")
int mon_bdp(struct trace_event_raw_balance_dirty_pages *ctx)
{
	MON_FLOOR();
	__u32 maj = 0, mn = 0, *cur = &maj, dev;
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
	i = tgt_of(targ_disk_dev, dev);
	if (i < 0)
		return 0;
	/* pause is in jiffies; the user side converts with HZ */
	agg_add(MON_THROTTLE, i, 0, 0, 0, 0, 1, ctx->pause);
	return 0;
}

/* ---- block I/O ---- */

static __always_inline int disk_idx(struct gendisk *disk, __u32 *devp)
{
	__u32 dev;

	if (!disk)
		return -1;
	dev = FSL_MKDEV(disk->major, disk->first_minor);
	*devp = dev;
	return tgt_of(targ_disk_dev, dev);
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
	MON_FLOOR();
	__u64 now = bpf_ktime_get_ns(), k;
	__u32 dev = 0;
	int idx = disk_idx(bio->bi_bdev->bd_disk, &dev);
	struct task_struct *t;
	struct mon_task *s;

	if (idx < 0)
		return 0;
	k = sector_key(dev, bio->bi_iter.bi_sector);
	bpf_map_update_elem(&mon_bio_q, &k, &now, BPF_ANY);
	/* a task issuing I/O to a target's disk is working on that fs (this call) */
	t = bpf_get_current_task_btf();
	if (t->flags & PF_KTHREAD_BIT)
		return 0;
	s = bpf_task_storage_get(&mon_task, t, 0, 0);
	if (s && !s->hint) {
		s->hint = MON_EV_TGT(idx & 7);
		s->hint_nr = 0;
	}
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(mon_rq_issue, struct request *rq)
{
	MON_FLOOR();
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
		agg_add(MON_SEEKS, idx, op, 0, 0, 0, 1, 0);
	*last = rq->__sector + (rq->__data_len >> 9);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(mon_rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	MON_FLOOR();
	__u64 now = bpf_ktime_get_ns(), rqk = (__u64)rq, *ts, k;
	__u32 dev = 0, op, zero = 0;
	int idx = disk_idx(rq->q->disk, &dev);
	struct task_struct *t;
	struct wake_mark *m;

	t = bpf_get_current_task_btf();
	/* every disk: a wakeup in this call chain is this completion's */
	m = bpf_map_lookup_elem(&mon_wake_mark, &zero);
	if (m) {
		m->ts = now;
		m->dev = dev;
	}
	/* a kernel thread completing a target's requests: its loop worker */
	if (t->flags & PF_KTHREAD_BIT) {
		struct mon_task *s = bpf_task_storage_get(&mon_task, t, 0,
							  idx >= 0 ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);

		if (s)
			s->kt_loop = idx >= 0 ? MON_EV_TGT(idx & 7) : MON_EV_OTHER;
	}
	if (idx < 0)
		return 0;
	op = io_op(rq->cmd_flags);
	ts = bpf_map_lookup_elem(&mon_rq_inflight, &rqk);
	if (ts) {
		__u64 ns = now - *ts;

		agg_add(MON_IO_HIST, idx, op, 0, mon_fine_bucket(ns), 0, 1, ns);
		bpf_map_delete_elem(&mon_rq_inflight, &rqk);
	}
	k = sector_key(dev, rq->__sector);
	ts = bpf_map_lookup_elem(&mon_bio_q, &k);
	if (ts) {
		__u64 ns = now - *ts;

		agg_add(MON_IO_HIST, idx, op, 1, mon_fine_bucket(ns), 0, 1, ns);
		bpf_map_delete_elem(&mon_bio_q, &k);
	}
	if (nr_bytes)
		agg_add(MON_IO_BYTES, idx, op, 0, 0, 0, 1, nr_bytes);
	return 0;
}

/* GPL-2.0 as the SPDX headers say; the kernel takes "GPL v2" as GPL-compatible */
char LICENSE[] SEC("license") = "GPL v2";
