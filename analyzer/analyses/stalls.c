// SPDX-License-Identifier: GPL-2.0
/*
 * Stalls: off-CPU waits -> wait classes, split by who waited (the workload,
 * kernel threads, other tasks), per stack, per process and over time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

struct an_stack_agg {		/* window: per stack */
	uint64_t ns[3];
	uint64_t count;
	uint32_t pid;		/* a task seen with it */
	uint8_t role;
};

/*
 * Per process: blocked ns per stack, and per class the costliest of them so
 * far (ns only grow within a window, so the running best stays exact).
 * Bounded: past AN_PROC_STACKS_MAX (pid, stack) pairs in a window, new pairs
 * are not followed (counted in proc_stacks_dropped); classes are unaffected.
 */
#define AN_PROC_STACKS_MAX	65536

struct an_proc_stack {		/* key: pid << 32 | stack id */
	uint64_t ns;
};

struct an_proc_best {		/* key: pid << 8 | class */
	int32_t id;
	uint64_t ns;
};

struct an_stalls {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map stacks;		/* stack id -> an_stack_agg */
	struct fsl_map pstacks;		/* (pid, stack id) -> an_proc_stack */
	struct fsl_map pbest;		/* (pid, class) -> an_proc_best */
	uint64_t proc_stacks_dropped;
	struct fsl_stalls res;
};

static int add_proc_stack(struct an_stalls *s, uint32_t pid, unsigned int cls, int32_t id,
			  uint64_t ns)
{
	uint64_t key = (uint64_t)pid << 32 | (uint32_t)id;
	struct an_proc_stack *ps = fsl_map__get(&s->pstacks, key);
	struct an_proc_best *b;
	int fresh;

	if (!ps) {
		if (fsl_map__count(&s->pstacks) >= AN_PROC_STACKS_MAX) {
			s->proc_stacks_dropped++;
			return 0;
		}
		ps = fsl_map__put(&s->pstacks, key, NULL);
		if (!ps)
			return -ENOMEM;
	}
	ps->ns += ns;
	b = fsl_map__put(&s->pbest, (uint64_t)pid << 8 | cls, &fresh);
	if (!b)
		return -ENOMEM;
	/* most blocked ns first, ties to the lower stack id */
	if (fresh || b->id == id || ps->ns > b->ns || (ps->ns == b->ns && id < b->id)) {
		b->id = id;
		b->ns = ps->ns;
	}
	return 0;
}

/* A wait on another filesystem: one sum per device, nothing else. */
static void add_other_fs(struct an_stalls *s, const struct fsl_evctx *x, uint64_t ns, int counted)
{
	struct fsl_other_fs *o = &s->res.other_fs;
	unsigned int i;

	o->waits += counted;
	o->ns[x->role] += ns;
	for (i = 0; i < o->ndev && o->dev[i].dev != x->dev; i++)
		;
	if (i == o->ndev && o->ndev < FSL_OTHER_FS_DEVS) {
		o->dev[o->ndev++].dev = x->dev;
	} else if (i == o->ndev) {
		i = FSL_OTHER_FS_DEVS - 1;	/* the rest: device unknown */
		o->dev[i].dev = 0;
	}
	o->dev[i].waits += counted;
	o->dev[i].ns += ns;
}

/*
 * A stall, or the piece of one up to a window edge (x->flags PARTIAL): its
 * time in the window counts in full wherever it falls, the wait itself
 * (count, longest) only in the window where it ends.
 */
static int add_stall(struct an_stalls *s, const struct fsl_hdr *h, const struct fsl_evctx *x)
{
	const struct fsl_ev_offcpu *ev = (const void *)h;
	uint64_t ns = an_overlap(&s->c->win, x->from, x->to);
	int counted = !(x->flags & FSL_EVCTX_PARTIAL) && an_in_window(&s->c->win, x->end);
	struct an_stack_agg *agg;
	struct fsl_class_stat *cs;
	struct fsl_proc_stat *ps;
	unsigned int folds, i, cls = x->cls;
	int role = x->role;

	if ((x->flags & FSL_EVCTX_OTHERFS) && (ns || counted)) {
		add_other_fs(s, x, ns, counted);
		return 0;
	}
	if (!(x->flags & FSL_EVCTX_STALL) || (!ns && !counted))
		return 0;
	s->res.ns[role] += ns;
	cs = &s->res.cls[cls];
	cs->ns[role] += ns;
	if (counted) {
		s->res.waits++;
		cs->count[role]++;
		if (ev->dur_ns > cs->max_ns)
			cs->max_ns = ev->dur_ns;
		if (role == FSL_ROLE_WORKLOAD && ev->dur_ns > cs->workload_max_ns)
			cs->workload_max_ns = ev->dur_ns;
	}

	agg = fsl_map__put(&s->stacks, (uint64_t)(uint32_t)ev->stack_id, NULL);
	if (!agg)
		return -ENOMEM;
	agg->ns[role] += ns;
	agg->count += counted;
	if (!agg->pid || (role == FSL_ROLE_WORKLOAD && agg->role != FSL_ROLE_WORKLOAD)) {
		agg->pid = h->pid;
		agg->role = role;
	}

	if (ns && ev->stack_id >= 0) {
		int rc = add_proc_stack(s, h->pid, cls, ev->stack_id, ns);

		if (rc)
			return rc;
	}

	ps = fsl_ctx_procs__get(&s->c->procs, h->pid);
	if (ps) {
		ps->blocked_ns += ns;
		ps->ns[cls] += ns;
		ps->role = role;
	}

	if (role == FSL_ROLE_WORKLOAD && ns) {
		/* the piece inside the window, [from, from + ns), over the bins it spans */
		uint64_t from = x->from > s->c->win.t0 ? x->from : s->c->win.t0;

		an_tb_bin(&s->res.tb, s->c->origin, from + ns - 1, &folds);
		if (folds)
			for (i = 0; i < FSL_WC__MAX; i++)
				an_fold_sum(s->res.series[i], folds);
		an_tb_spread(&s->res.tb, s->res.series[cls], from, from + ns);
	}
	return 0;
}

static int on_offcpu(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	return add_stall(cons->priv, h, cons->ctx);
}

static int on_partial(struct fsl_consumer *cons, const struct fsl_hdr *h,
		      const struct fsl_evctx *x)
{
	return h->type == FSL_EV_OFFCPU ? add_stall(cons->priv, h, x) : 0;
}

struct an_stalls *an_stalls_new(struct an_ctx *c)
{
	struct an_stalls *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->stacks, sizeof(struct an_stack_agg));
	fsl_map__init(&s->pstacks, sizeof(struct an_proc_stack));
	fsl_map__init(&s->pbest, sizeof(struct an_proc_best));
	s->cons.name = "stalls";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_OFFCPU] = on_offcpu;
	s->cons.partial = on_partial;
	an_stalls_reset(s);
	return s;
}

void an_stalls_free(struct an_stalls *s)
{
	if (!s)
		return;
	fsl_map__free(&s->stacks);
	fsl_map__free(&s->pstacks);
	fsl_map__free(&s->pbest);
	free(s);
}

void an_stalls_reset(struct an_stalls *s)
{
	memset(&s->res, 0, sizeof(s->res));
	fsl_map__clear(&s->stacks);
	fsl_map__clear(&s->pstacks);
	fsl_map__clear(&s->pbest);
	s->proc_stacks_dropped = 0;
}

struct fsl_consumer *an_stalls_consumer(struct an_stalls *s)
{
	return &s->cons;
}

/* Heaviest stacks per class; workload time ranks first, then all time. */
static void top_stacks(struct an_stalls *s)
{
	struct an_stack_agg *agg;
	uint64_t key, w, score[FSL_WC__MAX][FSL_TOP_STACKS];
	size_t it = 0;
	unsigned int i, j;

	memset(score, 0, sizeof(score));
	for (i = 0; i < FSL_WC__MAX; i++)
		for (j = 0; j < FSL_TOP_STACKS; j++) {
			s->res.cls[i].top_stack[j] = -1;
			s->res.cls[i].top_stack_ns[j] = 0;
			s->res.cls[i].top_stack_wns[j] = 0;
			s->res.cls[i].top_comm[j][0] = 0;
		}
	while ((agg = fsl_map__next(&s->stacks, &it, &key))) {
		struct fsl_class_stat *cs;
		int32_t id = (int32_t)(uint32_t)key;
		unsigned int cls = fsl_context__class(s->c->cx, id);

		cs = &s->res.cls[cls];
		/* rank by workload ns, then by everyone's ns, then by id */
		w = agg->ns[FSL_ROLE_WORKLOAD];
		for (j = 0; j < FSL_TOP_STACKS; j++) {
			uint64_t all = agg->ns[0] + agg->ns[1] + agg->ns[2];
			uint64_t cur_w = score[cls][j], cur_all = cs->top_stack_ns[j];

			if (cs->top_stack[j] < 0 || w > cur_w ||
			    (w == cur_w && (all > cur_all ||
			     (all == cur_all && id < cs->top_stack[j])))) {
				memmove(&cs->top_stack[j + 1], &cs->top_stack[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_stack[0]));
				memmove(&cs->top_stack_ns[j + 1], &cs->top_stack_ns[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_stack_ns[0]));
				memmove(&cs->top_comm[j + 1], &cs->top_comm[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_comm[0]));
				memmove(&score[cls][j + 1], &score[cls][j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(score[0][0]));
				memmove(&cs->top_stack_wns[j + 1], &cs->top_stack_wns[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_stack_wns[0]));
				cs->top_stack[j] = id;
				cs->top_stack_ns[j] = all;
				score[cls][j] = w;
				cs->top_stack_wns[j] = w;
				an_comm_copy(cs->top_comm[j], fsl_context__comm(s->c->cx, agg->pid));
				break;
			}
		}
	}
}

static int other_dev_cmp(const void *a, const void *b)
{
	const __typeof__(((struct fsl_other_fs *)0)->dev[0]) *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

const struct fsl_stalls *an_stalls_result(struct an_stalls *s)
{
	top_stacks(s);
	qsort(s->res.other_fs.dev, s->res.other_fs.ndev, sizeof(s->res.other_fs.dev[0]),
	      other_dev_cmp);
	return &s->res;
}

int32_t an_stalls_proc_stack(struct an_stalls *s, uint32_t pid, unsigned int cls, uint64_t *ns)
{
	const struct an_proc_best *b = cls < FSL_WC__MAX ?
		fsl_map__get(&s->pbest, (uint64_t)pid << 8 | cls) : NULL;

	if (ns)
		*ns = b ? b->ns : 0;
	return b ? b->id : -1;
}
