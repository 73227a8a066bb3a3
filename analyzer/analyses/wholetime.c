// SPDX-License-Identifier: GPL-2.0
/*
 * Whole time: the workload's threads' wall time split into on-CPU, runnable,
 * blocked (by wait class) and other sleep. The split comes from the
 * tasktime records (summed in the kernel at every switch and wakeup of the
 * thread, event.h); the blocked part is divided into wait classes by the
 * workload's off-CPU records, each counting its sleep (switch-out to
 * wakeup, without the run-queue delay that follows, which is runnable).
 * Blocked time in waits shorter than the recording threshold has no record:
 * it stays "blocked, short waits". Waits on other filesystems than the target
 * are blocked time of the workload all the same, apart from the classes.
 *
 * Windows (docs/wait-classes.md, whole time per window): a thread's records
 * are cumulative, so two consecutive ones give its parts over the stretch
 * [previous, this) (the first stretch starts at first_ts). A record also
 * says the thread was in one state over [last_since, ts): that tail goes to
 * its state, cut at the window's edges by overlap; what is left of the
 * stretch, [previous, last_since), is shared out in proportion to its
 * length inside the window. The recorder snapshots a live thread at its
 * first state change 10 ms after its last record, so that proportional part
 * is at most 10 ms at each window edge; a trace with only end records (older
 * recorders) spreads each thread's account evenly over its life. At a cut
 * (live top), the stretch still open goes up to the cut to the state the
 * thread entered at its last record, and the next record's stretch gives
 * the rest. Waits count by overlap as in stalls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

/* A thread's last record, as far as the analysis has given its time out. */
struct an_tt_thread {
	uint64_t ts;		/* the last record's time (first_ts before any) */
	uint64_t ns[FSL_TT__MAX];	/* its cumulative sums */
	uint64_t cut;		/* a cut gave [ts, cut) out already (0: none) */
	uint64_t given[FSL_TT__MAX];	/* what that was, by state */
	uint32_t state;		/* entered at ts; FSL_TT__MAX unknown */
	uint8_t counted;	/* counted in the window's threads */
};

struct an_wholetime {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map threads;		/* tid -> an_tt_thread */
	struct fsl_wholetime res;
	uint64_t child_moved;		/* of res.child_wait_ns, moved from blocked to sleep */
};

/* ns spread evenly over [from, to): the part inside the window. */
static uint64_t spread(const struct an_window *w, uint64_t ns, uint64_t from, uint64_t to)
{
	uint64_t ov;

	if (!ns || to <= from)
		return 0;
	ov = an_overlap(w, from, to);
	if (ov >= to - from)
		return ns;
	return (uint64_t)((unsigned __int128)ns * ov / (to - from));
}

static void give(struct fsl_wholetime *r, unsigned int state, uint64_t ns)
{
	switch (state) {
	case FSL_TT_ONCPU: r->oncpu_ns += ns; break;
	case FSL_TT_RUNQ: r->runq_ns += ns; break;
	case FSL_TT_BLOCKED: r->blocked_ns += ns; break;
	default: r->sleep_ns += ns; break;
	}
	r->wall_ns += ns;
}

static void count_thread(struct an_wholetime *w, struct an_tt_thread *t)
{
	if (t->counted)
		return;
	t->counted = 1;
	w->res.threads++;
	w->res.alive++;
}

/*
 * The stretch [from, to) with parts d[] (what the record adds to the
 * previous one, less what a cut gave), in state tail_state over
 * [tail_from, to) when tail_state is known.
 */
static void stretch(struct an_wholetime *w, struct an_tt_thread *t, uint64_t from, uint64_t to,
		    uint64_t d[FSL_TT__MAX], unsigned int tail_state, uint64_t tail_from)
{
	const struct an_window *win = &w->c->win;
	uint64_t before = 0, tail;
	unsigned int k;

	if (to <= from || !an_overlap(win, from, to))
		return;
	count_thread(w, t);
	if (tail_state < FSL_TT__MAX && tail_from < to) {
		if (tail_from < from)
			tail_from = from;
		tail = to - tail_from;
		if (tail > d[tail_state])
			tail = d[tail_state];
		d[tail_state] -= tail;
		give(&w->res, tail_state, spread(win, tail, to - tail, to));
		to -= tail;
	}
	for (k = 0; k < FSL_TT__MAX; k++)
		before += d[k];
	for (k = 0; k < FSL_TT__MAX && before; k++)
		give(&w->res, k, spread(win, d[k], from, to));
}

static int on_tasktime(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_wholetime *w = cons->priv;
	const struct fsl_ev_tasktime *ev = (const void *)h;
	/* the fields appended later read as 0 in an older, shorter record */
	struct fsl_ev_tasktime e = { 0 };
	uint64_t d[FSL_TT__MAX], cum[FSL_TT__MAX], from;
	struct an_tt_thread *t;
	unsigned int k, tail_state = FSL_TT__MAX;
	int fresh;

	if (h->size < offsetof(struct fsl_ev_tasktime, last_state) ||
	    fsl_context__role(w->c->cx, h->pid, 0) != FSL_ROLE_WORKLOAD)
		return 0;
	memcpy(&e, ev, h->size < sizeof(e) ? h->size : sizeof(e));
	t = fsl_map__put(&w->threads, h->tid, &fresh);
	if (!t)
		return -ENOMEM;
	if (fresh) {
		t->ts = e.first_ts && e.first_ts <= h->ts ? e.first_ts : h->ts;
		t->state = FSL_TT__MAX;
	}
	if (h->ts < t->ts)
		return 0;	/* older than what was taken already */
	cum[FSL_TT_ONCPU] = e.oncpu_ns;
	cum[FSL_TT_RUNQ] = e.runq_ns;
	cum[FSL_TT_BLOCKED] = e.blocked_ns;
	cum[FSL_TT_SLEEP] = e.sleep_ns;
	for (k = 0; k < FSL_TT__MAX; k++) {
		d[k] = cum[k] > t->ns[k] ? cum[k] - t->ns[k] : 0;
		d[k] = d[k] > t->given[k] ? d[k] - t->given[k] : 0;
	}
	from = t->cut > t->ts ? t->cut : t->ts;
	if (e.last_since && e.last_state < FSL_TT__MAX)
		tail_state = e.last_state;
	stretch(w, t, from, h->ts, d, tail_state, e.last_since);
	if (!(e.flags & FSL_TASKTIME_SNAP)) {
		/* the thread's end (or the recording's): it is not followed further */
		if (t->counted && (e.flags & FSL_TASKTIME_EXIT) &&
		    (!w->c->win.t1 || h->ts < w->c->win.t1))
			w->res.alive--;
		fsl_map__del(&w->threads, h->tid);
		return 0;
	}
	t->ts = h->ts;
	memcpy(t->ns, cum, sizeof(t->ns));
	memset(t->given, 0, sizeof(t->given));
	t->cut = 0;
	t->state = e.state < FSL_TT__MAX ? e.state : FSL_TT__MAX;
	return 0;
}

/*
 * A window edge in a live stream: each followed thread's stretch since its
 * last record is open; give it up to t in the state it entered then, so the
 * closing window is not short of the threads asleep or running through it.
 */
static int wt_flush(struct fsl_consumer *cons, uint64_t t)
{
	struct an_wholetime *w = cons->priv;
	struct an_tt_thread *th;
	size_t it = 0;

	while ((th = fsl_map__next(&w->threads, &it, NULL))) {
		uint64_t from = th->cut > th->ts ? th->cut : th->ts, ns;

		if (th->state >= FSL_TT__MAX || t <= from)
			continue;
		ns = an_overlap(&w->c->win, from, t);
		if (ns) {
			count_thread(w, th);
			give(&w->res, th->state, ns);
		}
		th->given[th->state] += t - from;
		th->cut = t;
	}
	return 0;
}

/* A stall (or its piece up to a cut): the sleep part, without the run-queue delay. */
static int add_wait(struct an_wholetime *w, const struct fsl_hdr *h, const struct fsl_evctx *x)
{
	const struct fsl_ev_offcpu *ev = (const void *)h;
	uint64_t runq = ev->runq_ns < ev->dur_ns ? ev->runq_ns : ev->dur_ns;
	uint64_t woke = h->ts + ev->dur_ns - runq, to = x->to < woke ? x->to : woke;

	if ((x->flags & FSL_EVCTX_CHILD) && x->role == FSL_ROLE_WORKLOAD) {
		w->res.child_wait_ns += an_overlap(&w->c->win, x->from, to);
		return 0;
	}
	if ((x->flags & FSL_EVCTX_OTHERFS) && x->role == FSL_ROLE_WORKLOAD) {
		w->res.other_fs_ns += an_overlap(&w->c->win, x->from, to);
		return 0;
	}
	if (!(x->flags & FSL_EVCTX_STALL) || x->role != FSL_ROLE_WORKLOAD || x->cls >= FSL_WC__MAX)
		return 0;
	w->res.cls_ns[x->cls] += an_overlap(&w->c->win, x->from, to);
	return 0;
}

static int on_offcpu(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	return add_wait(cons->priv, h, cons->ctx);
}

static int on_partial(struct fsl_consumer *cons, const struct fsl_hdr *h,
		      const struct fsl_evctx *x)
{
	return h->type == FSL_EV_OFFCPU ? add_wait(cons->priv, h, x) : 0;
}

struct an_wholetime *an_wholetime_new(struct an_ctx *c)
{
	struct an_wholetime *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->c = c;
	fsl_map__init(&w->threads, sizeof(struct an_tt_thread));
	w->cons.name = "wholetime";
	w->cons.priv = w;
	w->cons.handlers[FSL_EV_TASKTIME] = on_tasktime;
	w->cons.handlers[FSL_EV_OFFCPU] = on_offcpu;
	w->cons.partial = on_partial;
	w->cons.flush = wt_flush;
	return w;
}

void an_wholetime_free(struct an_wholetime *w)
{
	if (!w)
		return;
	fsl_map__free(&w->threads);
	free(w);
}

void an_wholetime_reset(struct an_wholetime *w)
{
	struct an_tt_thread *t;
	size_t it = 0;

	memset(&w->res, 0, sizeof(w->res));
	w->child_moved = 0;
	while ((t = fsl_map__next(&w->threads, &it, NULL)))
		t->counted = 0;
}

struct fsl_consumer *an_wholetime_consumer(struct an_wholetime *w)
{
	return &w->cons;
}

const struct fsl_wholetime *an_wholetime_result(struct an_wholetime *w)
{
	struct fsl_wholetime *r = &w->res;
	const struct an_oncpu_split *cs = &w->c->oncpu;
	uint64_t sum = 0;
	unsigned int i;

	/*
	 * The kernel counted a parent's wait for its vfork child as blocked
	 * (uninterruptible): it is sleep, as a waitpid() is. Moved once.
	 */
	if (r->child_wait_ns > w->child_moved) {
		uint64_t mv = r->child_wait_ns - w->child_moved;

		if (mv > r->blocked_ns)
			mv = r->blocked_ns;
		r->blocked_ns -= mv;
		r->sleep_ns += mv;
		w->child_moved += mv;
	}
	for (i = 0; i < FSL_WC__MAX; i++)
		sum += r->cls_ns[i];
	sum += r->other_fs_ns;
	/* waits can reach past the thread's last record in the window */
	r->classified_ns = sum < r->blocked_ns ? sum : r->blocked_ns;
	r->short_ns = r->blocked_ns - r->classified_ns;
	/* on-CPU by CPU class, where a provider filled the window's table */
	r->ncpu = cs->n < FSL_WT_CPU_CLASSES ? cs->n : FSL_WT_CPU_CLASSES;
	r->cpu_sampled_ns = cs->sampled_ns;
	for (i = 0; i < r->ncpu; i++) {
		memcpy(r->cpu_cls[i].id, cs->cls[i].id, sizeof(r->cpu_cls[i].id));
		r->cpu_cls[i].ns = cs->cls[i].ns;
	}
	return r;
}
