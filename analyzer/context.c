// SPDX-License-Identifier: GPL-2.0
/*
 * The context stage (analyzer/context.h): tasks, roles and wait classes,
 * kept once for every analysis on a session and written into each event's
 * struct fsl_evctx before the consumers run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/schema.h"
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
	char cgroup[FSL_PROC_CGROUP_MAX];	/* its cgroup v2 path, "" unknown */
};

/*
 * Processes that exited this long ago are forgotten once the table holds
 * CTX_MAX_TASKS (a live `top` sees every short-lived process of a machine):
 * their late records (the last wait, a bio completing) come well before.
 */
#define CTX_MAX_TASKS		16384
#define CTX_EXITED_NS		10000000000ull


static void prune_scope(struct fsl_context *cx, uint64_t now);

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
	for (i = 0; i < n; i++) {	/* not while iterating: deletion moves slots */
		fsl_map__del(&cx->tasks, old[i]);
		fsl_map__del(&cx->proc_seen, old[i]);
	}
	free(old);
	prune_scope(cx, now);
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
	/* a record without one (an older trace, a task gone) keeps what was known */
	if (ev->cgroup[0]) {
		memcpy(k->cgroup, ev->cgroup, sizeof(k->cgroup));
		k->cgroup[sizeof(k->cgroup) - 1] = 0;
	}
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

uint64_t fsl_context__exited(const struct fsl_context *cx, uint32_t pid)
{
	struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);

	return k ? k->exit_ts : 0;
}

const char *fsl_context__comm(const struct fsl_context *cx, uint32_t pid)
{
	struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);

	return k && k->known ? k->comm : NULL;
}

const char *fsl_context__cgroup(const struct fsl_context *cx, uint32_t pid)
{
	struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);

	return k && k->known && k->cgroup[0] ? k->cgroup : NULL;
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
	p->evicted = 0;
}

static void proc_fold(struct fsl_proc_stat *d, const struct fsl_proc_stat *s)
{
	unsigned int i;

	d->blocked_ns += s->blocked_ns;
	for (i = 0; i < FSL_WC__MAX; i++)
		d->ns[i] += s->ns[i];
	d->ops += s->ops;
	d->op_lat_ns += s->op_lat_ns;
	d->read_bytes += s->read_bytes;
	d->write_bytes += s->write_bytes;
	d->throttle_ns += s->throttle_ns;
	fsl_hist_merge(&d->op_lat, &s->op_lat);
	d->data_reads += s->data_reads;
	d->data_writes += s->data_writes;
	d->data_read_bytes += s->data_read_bytes;
	d->data_write_bytes += s->data_write_bytes;
	d->oncpu_ns += s->oncpu_ns;
}

struct proc_rank {
	uint64_t key, w;
};

static int proc_rank_cmp(const void *a, const void *b)
{
	const struct proc_rank *x = a, *y = b;

	return x->w < y->w ? -1 : x->w > y->w;
}

/*
 * The table is full: sum the half that matters least into the evicted row.
 * Exited processes first (they will not come back), then by what they
 * did. Halving keeps the cost O(1) a process.
 */
static void procs_evict(struct fsl_ctx_procs *p)
{
	size_t n = fsl_map__count(&p->map), it = 0, k = 0, i;
	struct proc_rank *v = malloc(n * sizeof(*v));
	struct fsl_proc_stat *ps, *o, copy;
	uint64_t key;

	if (!v)
		return;
	while ((ps = fsl_map__next(&p->map, &it, &key))) {
		if (key == FSL_CTX_PROCS_EVICTED)
			continue;
		v[k].key = key;
		v[k].w = ps->blocked_ns + ps->op_lat_ns + ps->throttle_ns + ps->oncpu_ns +
			 (ps->read_bytes + ps->write_bytes + ps->data_read_bytes +
			  ps->data_write_bytes) / 4;
		/* gone: below every live one */
		v[k].w = fsl_context__exited(p->cx, ps->pid) ? v[k].w >> 8 : v[k].w | 1ull << 62;
		k++;
	}
	qsort(v, k, sizeof(*v), proc_rank_cmp);
	for (i = 0; i < k / 2; i++) {
		ps = fsl_map__get(&p->map, v[i].key);
		if (!ps)
			continue;
		copy = *ps;
		o = fsl_map__put(&p->map, FSL_CTX_PROCS_EVICTED, NULL);
		if (!o)
			break;
		if (!o->comm[0]) {
			o->pid = 0;
			o->role = FSL_ROLE_OTHER;
			snprintf(o->comm, sizeof(o->comm), "(evicted)");
		}
		proc_fold(o, &copy);
		fsl_map__del(&p->map, v[i].key);
		p->evicted++;
	}
	free(v);
}

struct fsl_proc_stat *fsl_ctx_procs__get(struct fsl_ctx_procs *p, uint32_t pid)
{
	struct fsl_proc_stat *ps;
	int fresh;

	if (p->off)
		return NULL;
	if (p->max && fsl_map__count(&p->map) >= p->max && !fsl_map__get(&p->map, pid))
		procs_evict(p);
	ps = fsl_map__put(&p->map, pid, &fresh);
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
	uint64_t key;

	if (p->cap < p->map.n) {
		struct fsl_proc_stat *np = realloc(p->sorted, p->map.n * sizeof(*np));

		if (!np) {
			*out = NULL;
			return 0;
		}
		p->sorted = np;
		p->cap = p->map.n;
	}
	while ((ps = fsl_map__next(&p->map, &it, &key))) {
		/* the evicted row is no task: its name stays */
		const char *comm = key == FSL_CTX_PROCS_EVICTED ? NULL :
				   fsl_context__comm(p->cx, ps->pid);
		const char *cg = key == FSL_CTX_PROCS_EVICTED ? NULL :
				 fsl_context__cgroup(p->cx, ps->pid);

		if (comm) {
			comm_copy(ps->comm, comm);
			fsl_text_sanitize(ps->comm);
		}
		if (cg) {
			snprintf(ps->cgroup, sizeof(ps->cgroup), "%s", cg);
			fsl_text_sanitize(ps->cgroup);
		}
		p->sorted[n++] = *ps;
	}
	if (n)
		qsort(p->sorted, n, sizeof(*p->sorted), proc_cmp);
	*out = p->sorted;
	return n;
}

static void stack_info(struct fsl_context *cx, int32_t id, struct fsl_ctx_stack *out)
{
	const struct fsl_stack *st = NULL;
	struct fsl_ctx_stack *k;
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
		fsl_scope_stack_of_frames((const char *const *)st->frames, st->nframes, &out->sc);
		out->child = (uint8_t)fsl_wait_is_child((const char *const *)st->frames,
							st->nframes);
	}
	out->missing = !st;
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
	{
		const char *fams = fsl_meta__str(m, FSL_KV_FAMILIES);
		uint32_t mask = 0;
		const char *bad;

		cx->ops_known = cx->scoped && fams && !fsl_family_parse(fams, &mask, &bad) &&
				(mask & (1u << FSL_FAM_DIROPS));
	}
	cx->fs = fsl_scope_fs_of_type(fsl_meta__str(m, FSL_KV_FSTYPE));
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

/* The kernel's marks of a call or a jbd2 handle (a wait's state, a sample's flags). */
static uint8_t op_evidence(uint32_t marks)
{
	if (marks & (FSL_OFFCPU_IN_DATA_OP | FSL_OFFCPU_HANDLE_TARGET | FSL_OFFCPU_FOLIO_TARGET |
		     FSL_OFFCPU_WALK_TARGET))
		return FSL_SCOPE_TARGET;
	if (marks & (FSL_OFFCPU_HANDLE_OTHER | FSL_OFFCPU_IN_OTHER_OP | FSL_OFFCPU_FOLIO_OTHER |
		     FSL_OFFCPU_WALK_OTHER))
		return FSL_SCOPE_OTHER;
	return FSL_SCOPE_NONE;
}

/*
 * What the tables kept here say of a kernel thread, for a wait and a
 * sample alike: a journal thread by its name, the target's flusher and
 * loop workers by the work seen, a known name.
 */
static void kthread_evidence(struct fsl_context *cx, const struct fsl_hdr *h,
			     struct fsl_scope_evidence *e)
{
	const struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, h->pid);
	const uint8_t *own = fsl_map__get(&cx->own_kthreads, h->tid);

	if (jbd2_thread(k))
		e->jbd2 = jbd2_other(cx, k) ? FSL_SCOPE_OTHER : FSL_SCOPE_TARGET;
	e->flush = own && (*own & OWN_FLUSH) ? FSL_SCOPE_TARGET : FSL_SCOPE_OTHER;
	e->loop = own && (*own & OWN_LOOP) ? FSL_SCOPE_TARGET : FSL_SCOPE_OTHER;
	e->worked = own ? FSL_SCOPE_TARGET : FSL_SCOPE_NONE;
	e->named = k && k->known;
}

/*
 * Does this wait wait on the target? 1 = another filesystem's, its device
 * in *dev (0 unknown); -1: no evidence either way. The evidence comes from
 * the record (FSL_OFFCPU_* marks, the disk whose completion woke it) and
 * the tables kept here (journal threads by name, the target's flusher and
 * loop workers); the rules are fsl_scope_decide()'s (analyzer/scope.c), the
 * ones the monitor applies too. A kernel thread of no known name is judged
 * as a task is.
 */
static int wait_other_fs(struct fsl_context *cx, const struct fsl_ev_offcpu *ev,
			 const struct fsl_ctx_stack *sc, int kthread, uint32_t *dev)
{
	struct fsl_scope_evidence e = { .kthread = (uint8_t)!!kthread };
	const struct fsl_ctx_task *w;
	enum fsl_scope_rule rule;
	const uint32_t *jdev;
	int v;

	*dev = ev->wake_dev;
	e.op = op_evidence(ev->state);
	if (kthread && !e.op) {
		kthread_evidence(cx, &ev->hdr, &e);
		/* a journal thread's own I/O waits say which disk its journal is on */
		if (e.jbd2 && ev->wake_dev) {
			uint32_t *jd = fsl_map__put(&cx->jbd2_dev, ev->hdr.pid, NULL);

			if (jd)
				*jd = ev->wake_dev;
		}
	}
	if (ev->wake_dev)
		e.wake = cx->disk && ev->wake_dev == cx->disk ? FSL_SCOPE_TARGET : FSL_SCOPE_OTHER;
	if (ev->state & FSL_OFFCPU_WOKEN_JBD2_TARGET)
		e.woken_jbd2 = FSL_SCOPE_TARGET;
	else if (ev->state & FSL_OFFCPU_WOKEN_JBD2_OTHER)
		e.woken_jbd2 = FSL_SCOPE_OTHER;
	w = ev->waker_pid ? fsl_map__get(&cx->tasks, ev->waker_pid) : NULL;
	if (jbd2_thread(w))
		e.waker_jbd2 = jbd2_other(cx, w) ? FSL_SCOPE_OTHER : FSL_SCOPE_TARGET;
	v = fsl_scope_decide(&e, &sc->sc, cx->fs, &rule);
	/* the journal's device, as its own I/O waits said */
	jdev = rule == FSL_SCOPE_RULE_WOKEN_JBD2 || rule == FSL_SCOPE_RULE_WAKER_JBD2 ?
	       fsl_map__get(&cx->jbd2_dev, ev->waker_pid) : NULL;
	if (rule == FSL_SCOPE_RULE_WOKEN_JBD2)
		*dev = jdev ? *jdev : 0;
	else if (jdev)
		*dev = *jdev;
	/*
	 * Judged another filesystem's (its data call, its handle) yet woken in
	 * a completion of the target's disk (one softirq completes several
	 * disks' requests): its device is not known, and is not the target's.
	 */
	if (v == 1 && cx->disk && *dev == cx->disk)
		*dev = 0;
	return v;
}

/* The tally of pid's parent, for a process with none of its own yet. */
static const struct fsl_scope_tally *parent_seen(const struct fsl_context *cx, uint32_t pid)
{
	const struct fsl_ctx_task *k = fsl_map__get(&cx->tasks, pid);

	return k && k->known && k->ppid ? fsl_map__get(&cx->proc_seen, k->ppid) : NULL;
}

/*
 * A thread's verdict is kept for the pieces of its current wait; one
 * judged long ago is of a wait over (or judged again, the same way).
 * The kernel threads seen working for the target stay: there are few.
 */
static void prune_scope(struct fsl_context *cx, uint64_t now)
{
	struct fsl_ctx_scope *v;
	uint64_t key, *old;
	size_t it = 0, n = 0, i;

	old = malloc((fsl_map__count(&cx->scope_cache) + 1) * sizeof(*old));
	if (!old)
		return;
	while ((v = fsl_map__next(&cx->scope_cache, &it, &key)))
		if (v->ts + CTX_EXITED_NS < now)
			old[n++] = key;
	for (i = 0; i < n; i++)
		fsl_map__del(&cx->scope_cache, old[i]);
	free(old);
}

/*
 * A wait with no evidence of its own goes by its process's tally, or its
 * parent's (fsl_scope_majority): another filesystem for a job on another
 * disk, else the target (one misjudged wait does not move the rest). With
 * neither, when the trace would show the process's work on the target
 * (dirops recorded, no command: every task is recorded), it has done none
 * so far: another filesystem's, device unknown (a create storm's shell on
 * a tmpfs waiting in fork). Kernel threads and a command's tasks go to the
 * target.
 */
static int judge(struct fsl_context *cx, const struct fsl_ev_offcpu *ev,
		 const struct fsl_ctx_stack *sc, int kthread, uint32_t *dev)
{
	int v = wait_other_fs(cx, ev, sc, kthread, dev);
	struct fsl_scope_tally *seen = fsl_map__put(&cx->proc_seen, ev->hdr.pid, NULL);

	if (v >= 0) {
		if (seen && v)
			seen->other++;
		else if (seen)
			seen->target++;
		return v;
	}
	*dev = 0;
	return fsl_scope_majority(seen, parent_seen(cx, ev->hdr.pid),
				  !kthread && cx->ops_known && cx->root_pid <= 0);
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
 * Is an on-CPU sample another filesystem's work? By the wait's evidence,
 * gathered the same way, less what only waits have (the waker); the rules
 * are fsl_scope_decide_sample()'s (analyzer/scope.c). With no evidence
 * (user space, the kernel at large, the same type of filesystem's code),
 * the process decides as for its waits: where most of its judged waits
 * (or its parent's) went. A process with none is the target's only when
 * it is the recorded command's: without a command every process on the
 * machine is sampled, and a compiler in another terminal is not the
 * target's time.
 */
static int sample_other_fs(struct fsl_context *cx, const struct fsl_ev_cpu *ev,
			   const struct fsl_ctx_stack *sc, int kthread)
{
	struct fsl_scope_evidence e = { .kthread = (uint8_t)!!kthread };
	enum fsl_scope_rule rule;
	int v;

	e.op = op_evidence(ev->flags);
	if (kthread && !e.op)
		kthread_evidence(cx, &ev->hdr, &e);
	v = fsl_scope_decide_sample(&e, &sc->sc, cx->fs, &rule);
	if (v >= 0)
		return v;
	return fsl_scope_majority(fsl_map__get(&cx->proc_seen, ev->hdr.pid),
				  parent_seen(cx, ev->hdr.pid), cx->root_pid <= 0);
}

static void ctx_annotate(struct fsl_stage *st, const struct fsl_hdr *h, struct fsl_evctx *x)
{
	struct fsl_context *cx = st->priv;
	struct fsl_ctx_stack sc;

	if (h->type == FSL_EV_CPU && h->size >= sizeof(struct fsl_ev_cpu)) {
		const struct fsl_ev_cpu *ev = (const void *)h;

		stack_info(cx, ev->stack_id, &sc);
		x->cls = (ev->flags & FSL_CPU_USER) ? FSL_CC_USER : sc.ccls;
		x->role = fsl_context__role(cx, h->pid, sc.sc.kthread);
		if (ev->stack_id >= 0 && sc.missing)
			x->flags |= FSL_EVCTX_NOSTACK;
		if (cx->scoped &&
		    sample_other_fs(cx, ev, &sc, is_kthread(cx, h->pid, sc.sc.kthread)))
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
		x->role = fsl_context__role(cx, h->pid, sc.sc.kthread);
		x->flags |= sc.missing ? FSL_EVCTX_NOSTACK : 0;
		if (sc.child) {
			x->flags |= FSL_EVCTX_CHILD;	/* waiting for a child, not blocked */
			return;
		}
		if (cx->scoped && wait_scope(cx, (const struct fsl_ev_offcpu *)h, &sc,
					     is_kthread(cx, h->pid, sc.sc.kthread), &x->dev))
			x->flags |= FSL_EVCTX_OTHERFS;
		else
			x->flags |= FSL_EVCTX_STALL;
		return;
	}
	/* an operation on the target (the kernel judged it): the process works there */
	if (cx->ops_known && (h->type == FSL_EV_DIROP || h->type == FSL_EV_DATA)) {
		struct fsl_scope_tally *seen = fsl_map__put(&cx->proc_seen, h->pid, NULL);

		if (seen)
			seen->target++;
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
	fsl_map__init(&cx->proc_seen, sizeof(struct fsl_scope_tally));
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
