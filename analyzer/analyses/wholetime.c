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
 * Windows: a thread's account is one record at its end, so a thread counts
 * in the window where its record falls (where it ended, or the end of the
 * recording), over its whole span. Waits count by overlap as in stalls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

struct an_wholetime {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_wholetime res;
};

static int on_tasktime(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_wholetime *w = cons->priv;
	const struct fsl_ev_tasktime *ev = (const void *)h;
	struct fsl_wholetime *r = &w->res;

	if (h->size < sizeof(*ev) || !an_in_window(&w->c->win, h->ts) ||
	    fsl_context__role(w->c->cx, h->pid, 0) != FSL_ROLE_WORKLOAD)
		return 0;
	r->threads++;
	r->alive += !(ev->flags & FSL_TASKTIME_EXIT);
	r->wall_ns += h->ts > ev->first_ts ? h->ts - ev->first_ts : 0;
	r->oncpu_ns += ev->oncpu_ns;
	r->runq_ns += ev->runq_ns;
	r->blocked_ns += ev->blocked_ns;
	r->sleep_ns += ev->sleep_ns;
	return 0;
}

/* A stall (or its piece up to a cut): the sleep part, without the run-queue delay. */
static int add_wait(struct an_wholetime *w, const struct fsl_hdr *h, const struct fsl_evctx *x)
{
	const struct fsl_ev_offcpu *ev = (const void *)h;
	uint64_t runq = ev->runq_ns < ev->dur_ns ? ev->runq_ns : ev->dur_ns;
	uint64_t woke = h->ts + ev->dur_ns - runq, to = x->to < woke ? x->to : woke;

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
	w->cons.name = "wholetime";
	w->cons.priv = w;
	w->cons.handlers[FSL_EV_TASKTIME] = on_tasktime;
	w->cons.handlers[FSL_EV_OFFCPU] = on_offcpu;
	w->cons.partial = on_partial;
	return w;
}

void an_wholetime_free(struct an_wholetime *w)
{
	free(w);
}

void an_wholetime_reset(struct an_wholetime *w)
{
	memset(&w->res, 0, sizeof(w->res));
}

struct fsl_consumer *an_wholetime_consumer(struct an_wholetime *w)
{
	return &w->cons;
}

const struct fsl_wholetime *an_wholetime_result(struct an_wholetime *w)
{
	struct fsl_wholetime *r = &w->res;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < FSL_WC__MAX; i++)
		sum += r->cls_ns[i];
	sum += r->other_fs_ns;
	/* waits of threads whose account ends in a later window can exceed it */
	r->classified_ns = sum < r->blocked_ns ? sum : r->blocked_ns;
	r->short_ns = r->blocked_ns - r->classified_ns;
	return r;
}
