// SPDX-License-Identifier: GPL-2.0
/*
 * CPU: the cpu family's sample counts -> on-CPU time by CPU class, split by
 * who ran (the workload, kernel threads, other tasks), with the workload's
 * costliest stacks per class for the diagnosis' evidence.
 *
 * A record counts the samples of one thread with one stack over one slot
 * of time; its time is count x period. A window takes the share of the slot
 * that overlaps it (the window rule for durations, docs/report-json.md),
 * so consecutive windows sum to their union.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

struct an_cpu_stack {		/* window: per stack id (user-mode samples: -1) */
	uint64_t ns;		/* the workload's */
	uint32_t pid;		/* a workload process seen with it */
	uint8_t cls;
};

struct an_cpu {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map stacks;		/* stack id -> an_cpu_stack */
	struct fsl_cpu res;
};

static int add_sample(struct an_cpu *s, const struct fsl_hdr *h, const struct fsl_evctx *x)
{
	const struct fsl_ev_cpu *ev = (const void *)h;
	uint64_t span = ev->slot_ns ? ev->slot_ns : 1, all = (uint64_t)ev->count * ev->period_ns;
	uint64_t part = an_overlap(&s->c->win, x->from, x->to), ns;
	int counted = !(x->flags & FSL_EVCTX_PARTIAL) && an_in_window(&s->c->win, x->end);
	struct an_cpu_stack *st;
	struct fsl_proc_stat *ps;
	int role = x->role;

	if (h->size < sizeof(*ev) || role < 0 || role > FSL_ROLE_OTHER || x->cls >= FSL_CC__MAX)
		return 0;
	/* the slot's time in proportion to its part inside the window */
	ns = part >= span ? all : (uint64_t)((double)all * part / span);
	if (!ns && !counted)
		return 0;
	s->res.period_ns = ev->period_ns;
	if (x->flags & FSL_EVCTX_OTHERFS) {
		if (role == FSL_ROLE_WORKLOAD)
			s->res.other_fs_ns += ns;
		return 0;
	}
	if (!(x->flags & FSL_EVCTX_ONCPU))
		return 0;
	if (counted) {
		s->res.samples[role] += ev->count;
		if (x->flags & FSL_EVCTX_NOSTACK)
			s->res.no_stack += ev->count;
	}
	s->res.ns[role][x->cls] += ns;
	s->res.total_ns[role] += ns;
	if (role != FSL_ROLE_WORKLOAD || !ns)
		return 0;
	/* the whole time splits its on-CPU part by these (compare, report) */
	an_oncpu_add(s->c, fsl_cclass_id(x->cls), ns);
	st = fsl_map__put(&s->stacks, (uint64_t)(uint32_t)ev->stack_id, NULL);
	if (!st)
		return -ENOMEM;
	st->ns += ns;
	st->cls = x->cls;
	if (!st->pid)
		st->pid = h->pid;
	ps = fsl_ctx_procs__get(&s->c->procs, h->pid);
	if (ps)
		ps->oncpu_ns += ns;
	return 0;
}

static int on_cpu(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	return add_sample(cons->priv, h, cons->ctx);
}

static int on_partial(struct fsl_consumer *cons, const struct fsl_hdr *h,
		      const struct fsl_evctx *x)
{
	return h->type == FSL_EV_CPU ? add_sample(cons->priv, h, x) : 0;
}

struct an_cpu *an_cpu_new(struct an_ctx *c)
{
	struct an_cpu *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->stacks, sizeof(struct an_cpu_stack));
	s->cons.name = "cpu";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_CPU] = on_cpu;
	s->cons.partial = on_partial;
	an_cpu_reset(s);
	return s;
}

void an_cpu_free(struct an_cpu *s)
{
	if (!s)
		return;
	fsl_map__free(&s->stacks);
	free(s);
}

void an_cpu_reset(struct an_cpu *s)
{
	memset(&s->res, 0, sizeof(s->res));
	fsl_map__clear(&s->stacks);
}

struct fsl_consumer *an_cpu_consumer(struct an_cpu *s)
{
	return &s->cons;
}

const struct fsl_cpu *an_cpu_result(struct an_cpu *s)
{
	struct fsl_cpu *r = &s->res;
	const struct an_cpu_stack *st;
	unsigned int k, j;
	uint64_t key;
	size_t it = 0;

	for (k = 0; k < FSL_CC__MAX; k++)
		for (j = 0; j < FSL_CPU_TOP_STACKS; j++) {
			r->top_stack[k][j] = -1;
			r->top_stack_ns[k][j] = 0;
			r->top_comm[k][j][0] = 0;
		}
	/* the costliest stacks per class, ties to the lower id (same on every run) */
	while ((st = fsl_map__next(&s->stacks, &it, &key))) {
		int32_t id = (int32_t)(uint32_t)key;
		const char *comm;

		if (id < 0)
			continue;
		k = st->cls;
		for (j = 0; j < FSL_CPU_TOP_STACKS; j++)
			if (st->ns > r->top_stack_ns[k][j] ||
			    (st->ns == r->top_stack_ns[k][j] && r->top_stack[k][j] >= 0 &&
			     id < r->top_stack[k][j]) || r->top_stack[k][j] < 0)
				break;
		if (j == FSL_CPU_TOP_STACKS)
			continue;
		memmove(&r->top_stack[k][j + 1], &r->top_stack[k][j],
			(FSL_CPU_TOP_STACKS - 1 - j) * sizeof(r->top_stack[k][0]));
		memmove(&r->top_stack_ns[k][j + 1], &r->top_stack_ns[k][j],
			(FSL_CPU_TOP_STACKS - 1 - j) * sizeof(r->top_stack_ns[k][0]));
		memmove(&r->top_comm[k][j + 1], &r->top_comm[k][j],
			(FSL_CPU_TOP_STACKS - 1 - j) * sizeof(r->top_comm[k][0]));
		r->top_stack[k][j] = id;
		r->top_stack_ns[k][j] = st->ns;
		comm = fsl_context__comm(s->c->cx, st->pid);
		snprintf(r->top_comm[k][j], sizeof(r->top_comm[k][j]), "%s", comm ? comm : "");
	}
	return r;
}
