// SPDX-License-Identifier: GPL-2.0
/*
 * The context stage (analyzer/context.h): tasks, roles and wait classes,
 * kept once for every analysis on a session and written into each event's
 * struct fsl_evctx before the consumers run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/text.h"
#include "context.h"

/* TASK_NOLOAD: idle kernel threads wait in TASK_IDLE; that is not a stall. */
#define CTX_TASK_NOLOAD	0x400

/*
 * No cgroup here: the proc records (struct fsl_ev_proc) carry none, and the
 * only cgroup in the events is a writeback's (the bdi_writeback's, not a
 * task's). --cgroup filters in the kernel at record time.
 */
struct fsl_ctx_task {
	uint32_t ppid;
	uint32_t flags;		/* FSL_PROC_* */
	int8_t role;		/* enum fsl_task_role, -1 = not computed */
	uint8_t known;		/* a proc record was seen */
	char comm[16];
	uint64_t exit_ts;	/* the process exited then (0 = not seen) */
};

/*
 * Processes that exited this long ago are forgotten once the table holds
 * CTX_MAX_TASKS (a live `top` sees every short-lived process of a machine):
 * their late records (the last wait, a bio completing) come well before.
 */
#define CTX_MAX_TASKS		16384
#define CTX_EXITED_NS		10000000000ull


static void prune_tasks(struct fsl_context *cx, uint64_t now)
{
	struct fsl_ctx_task *k;
	uint64_t key, *old;
	size_t it = 0, n = 0, i;

	old = malloc(fsl_map__count(&cx->tasks) * sizeof(*old));
	if (!old)
		return;
	/* roles first: a child's is derived through the parents about to go */
	while ((k = fsl_map__next(&cx->tasks, &it, &key)))
		if (k->known && k->role < 0)
			fsl_context__role(cx, (uint32_t)key, 0);
	it = 0;
	while ((k = fsl_map__next(&cx->tasks, &it, &key)))
		if (k->exit_ts && k->exit_ts + CTX_EXITED_NS < now)
			old[n++] = key;
	for (i = 0; i < n; i++)	/* not while iterating: deletion moves slots */
		fsl_map__del(&cx->tasks, old[i]);
	free(old);
	cx->prune_at = 2 * fsl_map__count(&cx->tasks);
	if (cx->prune_at < CTX_MAX_TASKS)
		cx->prune_at = CTX_MAX_TASKS;
}


static void comm_copy(char dst[16], const char *src)
{
	size_t n = src ? strnlen(src, 15) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = 0;
}

static void task_event(struct fsl_context *cx, const struct fsl_ev_proc *ev)
{
	struct fsl_ctx_task *k;

	/* Threads share their process's entry; the leader's record decides. */
	if (ev->kind != FSL_PROC_FORK && ev->hdr.pid != ev->hdr.tid &&
	    fsl_map__get(&cx->tasks, ev->hdr.pid))
		return;
	if (fsl_map__count(&cx->tasks) >= (cx->prune_at ? cx->prune_at : CTX_MAX_TASKS) &&
	    !fsl_map__get(&cx->tasks, ev->hdr.pid))
		prune_tasks(cx, ev->hdr.ts);
	k = fsl_map__put(&cx->tasks, ev->hdr.pid, NULL);
	if (!k)
		return;
	if (ev->kind == FSL_PROC_EXIT) {
		/* keep the entry a while: late events of the task still need a role */
		if (ev->hdr.pid == ev->hdr.tid)
			k->exit_ts = ev->hdr.ts;
		return;
	}
	k->exit_ts = 0;	/* a pid used again */
	if (ev->kind == FSL_PROC_FORK && ev->hdr.pid != ev->hdr.tid && k->known)
		return;	/* a new thread of a known process */
	k->ppid = ev->ppid;
	k->flags = ev->flags;
	k->known = 1;
	k->role = -1;
	comm_copy(k->comm, ev->comm);
}

static int other_fs_kthread(const struct fsl_context *cx, const struct fsl_ctx_task *k);

int fsl_context__role(struct fsl_context *cx, uint32_t pid, int kthread_hint)
{
	struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);
	uint32_t p;
	int depth, role;

	if (k && k->role >= 0)
		return k->role;
	if (pid == 0 || (k && (k->flags & FSL_PROC_KTHREAD)) || (!k && kthread_hint))
		role = FSL_ROLE_KTHREAD;
	else if (cx->root_pid <= 0)
		role = FSL_ROLE_WORKLOAD;
	else {
		role = FSL_ROLE_OTHER;
		for (p = pid, depth = 0; depth < 64 && p > 1; depth++) {
			struct fsl_ctx_task *q;

			if (p == (uint32_t)cx->root_pid) {
				role = FSL_ROLE_WORKLOAD;
				break;
			}
			q = fsl_map__get(&cx->tasks, p);
			if (!q || !q->known)
				break;
			p = q->ppid;
		}
	}
	/* another filesystem's journal thread: not the target's evidence */
	if (role == FSL_ROLE_KTHREAD && other_fs_kthread(cx, k))
		role = FSL_ROLE_OTHER;
	/* Cache only what a later proc record cannot change. */
	if (k && k->known)
		k->role = role;
	return role;
}

const char *fsl_context__comm(const struct fsl_context *cx, uint32_t pid)
{
	struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);

	return k && k->known ? k->comm : NULL;
}

void fsl_ctx_procs__init(struct fsl_ctx_procs *p, struct fsl_context *cx)
{
	memset(p, 0, sizeof(*p));
	p->cx = cx;
	fsl_map__init(&p->map, sizeof(struct fsl_proc_stat));
}

void fsl_ctx_procs__free(struct fsl_ctx_procs *p)
{
	fsl_map__free(&p->map);
	free(p->sorted);
	p->sorted = NULL;
	p->cap = 0;
}

void fsl_ctx_procs__clear(struct fsl_ctx_procs *p)
{
	fsl_map__clear(&p->map);
}

struct fsl_proc_stat *fsl_ctx_procs__get(struct fsl_ctx_procs *p, uint32_t pid)
{
	int fresh;
	struct fsl_proc_stat *ps = fsl_map__put(&p->map, pid, &fresh);

	if (ps && fresh) {
		ps->pid = pid;
		ps->role = fsl_context__role(p->cx, pid, 0);
		comm_copy(ps->comm, fsl_context__comm(p->cx, pid));
		fsl_text_sanitize(ps->comm);	/* a task can name itself with terminal escapes */
	}
	return ps;
}

static int proc_cmp(const void *x, const void *y)
{
	const struct fsl_proc_stat *a = x, *b = y;

	if (a->blocked_ns != b->blocked_ns)
		return a->blocked_ns < b->blocked_ns ? 1 : -1;
	if (a->ops != b->ops)
		return a->ops < b->ops ? 1 : -1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

unsigned int fsl_ctx_procs__sorted(struct fsl_ctx_procs *p, const struct fsl_proc_stat **out)
{
	struct fsl_proc_stat *ps;
	size_t it = 0, n = 0;

	if (p->cap < p->map.n) {
		struct fsl_proc_stat *np = realloc(p->sorted, p->map.n * sizeof(*np));

		if (!np) {
			*out = NULL;
			return 0;
		}
		p->sorted = np;
		p->cap = p->map.n;
	}
	while ((ps = fsl_map__next(&p->map, &it, NULL))) {
		const char *comm = fsl_context__comm(p->cx, ps->pid);

		if (comm) {
			comm_copy(ps->comm, comm);
			fsl_text_sanitize(ps->comm);
		}
		p->sorted[n++] = *ps;
	}
	if (n)
		qsort(p->sorted, n, sizeof(*p->sorted), proc_cmp);
	*out = p->sorted;
	return n;
}

static int has_prefix(const char *s, const char *const *pre)
{
	for (; *pre; pre++)
		if (!strncmp(s, *pre, strlen(*pre)))
			return 1;
	return 0;
}

/* The filesystem whose code a function is (enum fsl_ctx_fs), by its name. */
static unsigned int frame_fs(const char *f)
{
	static const char *const ext4[] = { "ext4_", "__ext4_", "jbd2_", "__jbd2_", "jbd2__", NULL };
	static const char *const xfs[] = { "xfs_", "__xfs_", "xlog_", "xlog", NULL };
	static const char *const btrfs[] = { "btrfs_", "__btrfs_", NULL };
	static const char *const other[] = { "nfs_", "nfs4_", "fuse_", "f2fs_", NULL };

	if (has_prefix(f, ext4))
		return FSL_CTX_FS_EXT4;
	if (has_prefix(f, xfs))
		return FSL_CTX_FS_XFS;
	if (has_prefix(f, btrfs))
		return FSL_CTX_FS_BTRFS;
	if (has_prefix(f, other))
		return FSL_CTX_FS_OTHER;
	return FSL_CTX_FS_NONE;
}

/* The target's type as frame_fs() names it; FS_TARGET_ELSE: none of those (tmpfs). */
#define FS_TARGET_ELSE	0xff

static unsigned int fstype_fs(const char *t)
{
	if (!t)
		return FS_TARGET_ELSE;
	if (!strcmp(t, "ext4") || !strcmp(t, "ext3") || !strcmp(t, "ext2"))
		return FSL_CTX_FS_EXT4;
	if (!strcmp(t, "xfs"))
		return FSL_CTX_FS_XFS;
	if (!strcmp(t, "btrfs"))
		return FSL_CTX_FS_BTRFS;
	if (!strncmp(t, "nfs", 3) || !strncmp(t, "fuse", 4) || !strcmp(t, "f2fs"))
		return FSL_CTX_FS_OTHER;
	return FS_TARGET_ELSE;
}

static void stack_info(struct fsl_context *cx, int32_t id, struct fsl_ctx_stack *out)
{
	const struct fsl_stack *st = NULL;
	struct fsl_ctx_stack *k;
	unsigned int i;
	int fresh;

	memset(out, 0, sizeof(*out));
	out->cls = FSL_WC_OTHER;
	out->ccls = FSL_CC_KERNEL_OTHER;
	if (id < 0)
		return;
	k = fsl_map__put(&cx->classes, (uint64_t)(uint32_t)id, &fresh);
	if (k && !fresh) {
		*out = *k;
		return;
	}
	if (cx->meta && cx->meta->stack)
		st = cx->meta->stack(cx->meta, id);
	if (st) {
		out->cls = fsl_wclass_of_frames((const char *const *)st->frames, st->nframes, NULL);
		out->ccls = fsl_cclass_of_frames((const char *const *)st->frames, st->nframes,
						 NULL);
	}
	out->missing = !st;
	for (i = 0; st && i < st->nframes; i++) {
		char f[64];
		unsigned int fs;

		fsl_frame_func(st->frames[i], f, sizeof(f));
		if (!strcmp(f, "kthread")) {
			out->kthread = 1;
			break;
		}
		/* innermost first: the last one found is the outermost */
		fs = frame_fs(f);
		if (fs)
			out->fs = fs;
		if (!strcmp(f, "loop_process_work") || !strcmp(f, "loop_workfn"))
			out->loop = 1;
		if (!strcmp(f, "wb_workfn") || !strcmp(f, "wb_writeback"))
			out->flush = 1;
		if (!strcmp(f, "jbd2_log_wait_commit") || !strcmp(f, "wait_transaction_locked") ||
		    !strcmp(f, "wait_transaction_switching"))
			out->jwait = 1;
	}
	if (k)
		*k = *out;
}

unsigned int fsl_context__class(struct fsl_context *cx, int32_t stack_id)
{
	struct fsl_ctx_stack sc;

	stack_info(cx, stack_id, &sc);
	return sc.cls;
}

unsigned int fsl_context__cpu_class(struct fsl_context *cx, int32_t stack_id)
{
	struct fsl_ctx_stack sc;

	stack_info(cx, stack_id, &sc);
	return sc.ccls;
}

static int is_stall(const struct fsl_hdr *h)
{
	const struct fsl_ev_offcpu *ev = (const void *)h;

	return h->type == FSL_EV_OFFCPU && h->size >= sizeof(*ev) &&
	       (ev->state & FSL_OFFCPU_UNINTERRUPTIBLE) && !(ev->state & CTX_TASK_NOLOAD);
}

/*
 * The target's journal thread is jbd2/NAME-8, NAME its device (loop0, sda1):
 * target.dev_name "MAJ:MIN NAME". Another filesystem's jbd2 thread waits on
 * another journal, so it is no evidence for the target's causes.
 */
static void jbd2_prefix(struct fsl_context *cx, const struct fsl_meta *m)
{
	const char *v = fsl_meta__str(m, FSL_KV_DEV_NAME);
	unsigned int ma, mi;
	int n = 0;

	cx->jbd2_prefix[0] = 0;
	if (v && sscanf(v, "%u:%u %n", &ma, &mi, &n) == 2 && n && v[n] && !strchr(v + n, '/') &&
	    strlen(v + n) < sizeof(cx->jbd2_prefix) - 7)
		snprintf(cx->jbd2_prefix, sizeof(cx->jbd2_prefix), "jbd2/%s-", v + n);
}

static int other_fs_kthread(const struct fsl_context *cx, const struct fsl_ctx_task *k)
{
	return cx->jbd2_prefix[0] && k && !strncmp(k->comm, "jbd2/", 5) &&
	       strncmp(k->comm, cx->jbd2_prefix, strlen(cx->jbd2_prefix));
}

static int ctx_begin(struct fsl_stage *st, const struct fsl_meta *m)
{
	struct fsl_context *cx = st->priv;

	cx->meta = m;
	if (cx->root_opt < 0)
		cx->root_pid = fsl_meta__u64(m, FSL_KV_ROOT_PID, 0);
	jbd2_prefix(cx, m);
	cx->disk = (uint32_t)fsl_meta__u64(m, FSL_KV_DISK, 0);
	cx->scoped = cx->disk || fsl_meta__u64(m, FSL_KV_DEV, 0);
	cx->fs = fstype_fs(fsl_meta__str(m, FSL_KV_FSTYPE));
	fsl_map__clear(&cx->own_kthreads);
	fsl_map__clear(&cx->scope_cache);
	fsl_map__clear(&cx->jbd2_dev);
	fsl_map__clear(&cx->proc_seen);
	fsl_blockclass__begin(cx->bc, m);
	return 0;
}

#define OWN_FLUSH	1u	/* between a writeback start and its written on the target's bdi */
#define OWN_LOOP	2u	/* has completed a request of the target's disk */

/* Kernel threads seen working for the target: its flusher, its loop worker. */
static void own_kthread_event(struct fsl_context *cx, const struct fsl_hdr *h)
{
	uint8_t *own;
	uint32_t dev;

	if (!h->tid)
		return;
	if (h->type == FSL_EV_BLOCK_RQ_COMPLETE && h->size >= sizeof(struct fsl_ev_block_rq)) {
		dev = ((const struct fsl_ev_block_rq *)h)->dev;
		if (dev == cx->disk && (own = fsl_map__put(&cx->own_kthreads, h->tid, NULL)))
			*own |= OWN_LOOP;
	} else if ((h->type == FSL_EV_WRITEBACK_START || h->type == FSL_EV_WRITEBACK_WRITTEN) &&
		   h->size >= sizeof(struct fsl_ev_writeback_work)) {
		dev = ((const struct fsl_ev_writeback_work *)h)->dev;
		if (dev != cx->disk || !(own = fsl_map__put(&cx->own_kthreads, h->tid, NULL)))
			return;
		if (h->type == FSL_EV_WRITEBACK_START)
			*own |= OWN_FLUSH;
		else
			*own &= ~OWN_FLUSH;
	}
}

struct fsl_ctx_scope {
	uint64_t ts;		/* the wait it is about (a tid has one at a time) */
	uint32_t dev;
	uint8_t other;
};

static int jbd2_thread(const struct fsl_ctx_task *k)
{
	return k && k->known && !strncmp(k->comm, "jbd2/", 5);
}

/* A journal thread is the target's by its name; without the target's device name, by type. */
static int jbd2_other(const struct fsl_context *cx, const struct fsl_ctx_task *k)
{
	if (cx->jbd2_prefix[0])
		return !!other_fs_kthread(cx, k);
	return cx->fs != FSL_CTX_FS_EXT4;
}

/*
 * Does this wait wait on the target? 1 = another filesystem's, its device
 * in *dev (0 unknown). Evidence in order: inside a data operation on the
 * target or holding a jbd2 handle of its journal or of another (the kernel
 * says so, FSL_OFFCPU_*); a kernel thread is the target's when it is
 * its jbd2 thread, its flusher at work, its loop worker, or woken by a
 * completion of its disk (a thread of no known name is judged as a task
 * is); the disk whose completion woke it; the journal thread that woke it; a stack in
 * another filesystem's code. -1: no evidence either way.
 */
static int wait_other_fs(struct fsl_context *cx, const struct fsl_ev_offcpu *ev,
			 const struct fsl_ctx_stack *sc, int kthread, uint32_t *dev)
{
	const struct fsl_ctx_task *k;
	const uint8_t *own;
	uint32_t jb;

	*dev = ev->wake_dev;
	if (ev->state & (FSL_OFFCPU_IN_DATA_OP | FSL_OFFCPU_HANDLE_TARGET))
		return 0;
	if (ev->state & (FSL_OFFCPU_HANDLE_OTHER | FSL_OFFCPU_IN_OTHER_OP))
		return 1;
	if (kthread) {
		k = fsl_map__get(&cx->tasks, ev->hdr.pid);
		if (jbd2_thread(k)) {
			uint32_t *jdev = ev->wake_dev ?
				fsl_map__put(&cx->jbd2_dev, ev->hdr.pid, NULL) : NULL;

			if (jdev)
				*jdev = ev->wake_dev;
			return jbd2_other(cx, k);
		}
		own = fsl_map__get(&cx->own_kthreads, ev->hdr.tid);
		if (sc->flush)
			return !(own && (*own & OWN_FLUSH));
		if (sc->loop)
			return !(own && (*own & OWN_LOOP));
		/* another named thread: only a completion of the target's disk makes it ours */
		if (k && k->known)
			return !(cx->disk && ev->wake_dev == cx->disk);
	}
	/*
	 * Woken by a completion while a journal thread ran: a wait for the
	 * journal thread is its (the completion interrupted it a moment
	 * before), any other the completion's.
	 */
	jb = ev->state & (FSL_OFFCPU_WOKEN_JBD2_TARGET | FSL_OFFCPU_WOKEN_JBD2_OTHER);
	if (ev->wake_dev && !(jb && sc->jwait))
		return ev->wake_dev != cx->disk;
	k = ev->waker_pid ? fsl_map__get(&cx->tasks, ev->waker_pid) : NULL;
	if (jb) {
		const uint32_t *jdev = fsl_map__get(&cx->jbd2_dev, ev->waker_pid);

		*dev = jdev ? *jdev : 0;
		return !(ev->state & FSL_OFFCPU_WOKEN_JBD2_TARGET);
	}
	if (jbd2_thread(k)) {
		const uint32_t *jdev = fsl_map__get(&cx->jbd2_dev, ev->waker_pid);

		if (jdev)	/* the journal's device, as its own I/O waits said */
			*dev = *jdev;
		return jbd2_other(cx, k);
	}
	if (sc->fs != FSL_CTX_FS_NONE && sc->fs != cx->fs)
		return 1;
	return -1;	/* no evidence either way */
}

struct ctx_seen {
	uint32_t target, other;	/* judged waits of the process */
};

/*
 * A wait with no evidence of its own goes where most of its process's
 * judged waits went: another filesystem for a job on another disk, else
 * the target (one misjudged wait does not move the rest).
 */
static int judge(struct fsl_context *cx, const struct fsl_ev_offcpu *ev,
		 const struct fsl_ctx_stack *sc, int kthread, uint32_t *dev)
{
	int v = wait_other_fs(cx, ev, sc, kthread, dev);
	struct ctx_seen *seen = fsl_map__put(&cx->proc_seen, ev->hdr.pid, NULL);

	if (v >= 0) {
		if (seen && v)
			seen->other++;
		else if (seen)
			seen->target++;
		return v;
	}
	*dev = 0;
	return seen && seen->other > seen->target;
}

/* The verdict of a wait, the same for every piece of it a window cut gives. */
static int wait_scope(struct fsl_context *cx, const struct fsl_ev_offcpu *ev,
		      const struct fsl_ctx_stack *sc, int kthread, uint32_t *dev)
{
	struct fsl_ctx_scope *v;
	int fresh;

	v = fsl_map__put(&cx->scope_cache, ev->hdr.tid, &fresh);
	if (v && !fresh && v->ts == ev->hdr.ts) {
		*dev = v->dev;
		return v->other;
	}
	fresh = judge(cx, ev, sc, kthread, dev);
	if (v) {
		v->ts = ev->hdr.ts;
		v->dev = *dev;
		v->other = (uint8_t)fresh;
	}
	return fresh;
}

/* At arrival: the task table, and when each class's latest wait began. */
static int ctx_arrive(struct fsl_stage *st, const struct fsl_hdr *h)
{
	struct fsl_context *cx = st->priv;
	unsigned int cls;

	if (h->type == FSL_EV_PROC && h->size >= sizeof(struct fsl_ev_proc)) {
		task_event(cx, (const struct fsl_ev_proc *)h);
	} else if (cx->scoped && (h->type == FSL_EV_BLOCK_RQ_COMPLETE ||
				  h->type == FSL_EV_WRITEBACK_START ||
				  h->type == FSL_EV_WRITEBACK_WRITTEN)) {
		own_kthread_event(cx, h);
	} else if (h->type == FSL_EV_EXT4_ALLOCATE_BLOCKS ||
		   h->type == FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT ||
		   h->type == FSL_EV_EXT4_FREE_BLOCKS || h->type == FSL_EV_EXT4_ALLOCATE_INODE ||
		   h->type == FSL_EV_EXT4_FREE_INODE) {
		fsl_blockclass__event(cx->bc, h);
	} else if (is_stall(h)) {
		cx->last_id = ((const struct fsl_ev_offcpu *)h)->stack_id;
		stack_info(cx, cx->last_id, &cx->last);
		cls = cx->last.cls;
		if (h->ts > cx->last_wait_start[cls])
			cx->last_wait_start[cls] = h->ts;
	}
	return 0;
}

static int is_kthread(struct fsl_context *cx, uint32_t pid, int hint)
{
	const struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);

	return pid == 0 || (k && (k->flags & FSL_PROC_KTHREAD)) || (!k && hint);
}

/*
 * Is an on-CPU sample another filesystem's work? By the same evidence as a
 * wait, less what only waits have (the waker): the marks the kernel set
 * (a data call, a jbd2 handle), a kernel thread's identity (the target's
 * jbd2 thread, flusher, loop worker; any other named kernel thread is not
 * the target's), then the filesystem code the stack runs in. With none of
 * that (user space, the kernel at large, the same type of filesystem's
 * code), the process decides as for its waits: where most of its judged
 * waits went. A process that never waited on either is the target's only
 * when it is the recorded command's: without a command every process on
 * the machine is sampled, and a compiler in another terminal is not the
 * target's time.
 */
static int sample_other_fs(struct fsl_context *cx, const struct fsl_ev_cpu *ev,
			   const struct fsl_ctx_stack *sc, int kthread)
{
	const struct fsl_ctx_task *k;
	const struct ctx_seen *seen;
	const uint8_t *own;

	if (ev->flags & (FSL_OFFCPU_IN_DATA_OP | FSL_OFFCPU_HANDLE_TARGET))
		return 0;
	if (ev->flags & (FSL_OFFCPU_HANDLE_OTHER | FSL_OFFCPU_IN_OTHER_OP))
		return 1;
	if (kthread) {
		k = fsl_map__get(&cx->tasks, ev->hdr.pid);
		if (jbd2_thread(k))
			return jbd2_other(cx, k);
		own = fsl_map__get(&cx->own_kthreads, ev->hdr.tid);
		if (sc->flush || sc->loop)
			return !(own && (*own & (sc->flush ? OWN_FLUSH : OWN_LOOP)));
		if (own)
			return 0;
		return k && k->known;
	}
	if (sc->fs != FSL_CTX_FS_NONE && sc->fs != cx->fs)
		return 1;
	seen = fsl_map__get(&cx->proc_seen, ev->hdr.pid);
	if (seen && (seen->other || seen->target))
		return seen->other > seen->target;
	return cx->root_pid <= 0;
}

static void ctx_annotate(struct fsl_stage *st, const struct fsl_hdr *h, struct fsl_evctx *x)
{
	struct fsl_context *cx = st->priv;
	struct fsl_ctx_stack sc;

	if (h->type == FSL_EV_CPU && h->size >= sizeof(struct fsl_ev_cpu)) {
		const struct fsl_ev_cpu *ev = (const void *)h;

		stack_info(cx, ev->stack_id, &sc);
		x->cls = (ev->flags & FSL_CPU_USER) ? FSL_CC_USER : sc.ccls;
		x->role = fsl_context__role(cx, h->pid, sc.kthread);
		if (ev->stack_id >= 0 && sc.missing)
			x->flags |= FSL_EVCTX_NOSTACK;
		if (cx->scoped && sample_other_fs(cx, ev, &sc, is_kthread(cx, h->pid, sc.kthread)))
			x->flags |= FSL_EVCTX_OTHERFS;
		else
			x->flags |= FSL_EVCTX_ONCPU;
		return;
	}

	if (is_stall(h)) {
		int32_t id = ((const struct fsl_ev_offcpu *)h)->stack_id;

		/* arrive() looked this stack up just before, most times */
		if (id >= 0 && id == cx->last_id)
			sc = cx->last;
		else
			stack_info(cx, id, &sc);
		x->cls = sc.cls;
		x->role = fsl_context__role(cx, h->pid, sc.kthread);
		x->flags |= sc.missing ? FSL_EVCTX_NOSTACK : 0;
		if (cx->scoped && wait_scope(cx, (const struct fsl_ev_offcpu *)h, &sc,
					     is_kthread(cx, h->pid, sc.kthread), &x->dev))
			x->flags |= FSL_EVCTX_OTHERFS;
		else
			x->flags |= FSL_EVCTX_STALL;
		return;
	}
	/* who woke the jbd2 thread: the workload, or another task's sync */
	if (h->type == FSL_EV_JBD2_KICK) {
		x->role = fsl_context__role(cx, h->pid, 0);
		return;
	}
	x->role = -1;	/* computed on demand: most events never need it */
}

struct fsl_context *fsl_context__new(int64_t root_pid, int *err)
{
	struct fsl_context *cx = calloc(1, sizeof(*cx));

	if (!cx) {
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	cx->root_opt = root_pid;
	cx->last_id = -1;
	cx->root_pid = root_pid > 0 ? root_pid : 0;
	fsl_map__init(&cx->tasks, sizeof(struct fsl_ctx_task));
	fsl_map__init(&cx->classes, sizeof(struct fsl_ctx_stack));
	fsl_map__init(&cx->own_kthreads, sizeof(uint8_t));
	fsl_map__init(&cx->scope_cache, sizeof(struct fsl_ctx_scope));
	fsl_map__init(&cx->jbd2_dev, sizeof(uint32_t));
	fsl_map__init(&cx->proc_seen, sizeof(struct ctx_seen));
	cx->bc = fsl_blockclass__new();
	if (!cx->bc) {
		fsl_context__free(cx);
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	cx->stage.priv = cx;
	cx->stage.begin = ctx_begin;
	cx->stage.arrive = ctx_arrive;
	cx->stage.annotate = ctx_annotate;
	return cx;
}

void fsl_context__free(struct fsl_context *cx)
{
	if (!cx)
		return;
	fsl_map__free(&cx->tasks);
	fsl_map__free(&cx->classes);
	fsl_map__free(&cx->own_kthreads);
	fsl_map__free(&cx->scope_cache);
	fsl_map__free(&cx->jbd2_dev);
	fsl_map__free(&cx->proc_seen);
	fsl_blockclass__free(cx->bc);
	free(cx);
}

struct fsl_stage *fsl_context__stage(struct fsl_context *cx)
{
	return &cx->stage;
}
