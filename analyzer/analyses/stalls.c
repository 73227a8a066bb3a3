// SPDX-License-Identifier: GPL-2.0
/*
 * Stalls: off-CPU waits -> wait classes, split by who waited (the workload,
 * kernel threads, other tasks), per stack, per process and over time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../an_internal.h"

/* TASK_NOLOAD: idle kernel threads wait in TASK_IDLE; that is not a stall. */
#define AN_TASK_NOLOAD	0x400

struct an_stack_cls {		/* persistent: stack id -> class */
	uint8_t cls;
	uint8_t kthread;	/* the stack runs from kthread() */
	uint8_t missing;	/* the id is not in the trace's stack table */
};

struct an_stack_agg {		/* window: per stack */
	uint64_t ns[3];
	uint64_t count;
	uint32_t pid;		/* a task seen with it */
	uint8_t role;
};

struct an_stalls {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map cls_cache;	/* stack id -> an_stack_cls */
	struct fsl_map stacks;		/* stack id -> an_stack_agg */
	struct fsl_stalls res;
};

static void stack_class(struct an_stalls *s, int32_t id, struct an_stack_cls *out)
{
	const struct fsl_stack *st = NULL;
	struct an_stack_cls *k;
	unsigned int i;
	int fresh;

	if (id < 0) {
		out->cls = FSL_WC_OTHER;
		out->kthread = 0;
		out->missing = 0;
		return;
	}
	k = fsl_map__put(&s->cls_cache, (uint64_t)(uint32_t)id, &fresh);
	if (k && !fresh) {
		*out = *k;
		return;
	}
	if (s->c->meta && s->c->meta->stack)
		st = s->c->meta->stack(s->c->meta, id);
	out->cls = st ? fsl_wclass_of_frames((const char *const *)st->frames, st->nframes, NULL)
		      : FSL_WC_OTHER;
	out->kthread = 0;
	out->missing = !st;
	for (i = 0; st && i < st->nframes; i++) {
		char f[64];

		if (!strcmp(fsl_frame_func(st->frames[i], f, sizeof(f)), "kthread")) {
			out->kthread = 1;
			break;
		}
	}
	if (k)
		*k = *out;
}

static int on_offcpu(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_stalls *s = cons->priv;
	const struct fsl_ev_offcpu *ev = (const void *)h;
	struct an_stack_cls sc;
	struct an_stack_agg *agg;
	struct fsl_class_stat *cs;
	struct fsl_proc_stat *ps;
	uint64_t end = h->ts + ev->dur_ns;
	unsigned int bin, folds, i;
	int role;

	if (!(ev->state & FSL_OFFCPU_UNINTERRUPTIBLE) || (ev->state & AN_TASK_NOLOAD))
		return 0;
	stack_class(s, ev->stack_id, &sc);
	s->c->cur_wait = h;
	s->c->cur_cls = sc.cls;
	if (!an_in_window(&s->c->win, end))
		return 0;
	role = an_tasks_role(&s->c->tasks, h->pid, sc.kthread);
	s->c->waits_without_stack += sc.missing;
	s->res.waits++;
	s->res.ns[role] += ev->dur_ns;
	cs = &s->res.cls[sc.cls];
	cs->ns[role] += ev->dur_ns;
	cs->count[role]++;
	if (ev->dur_ns > cs->max_ns)
		cs->max_ns = ev->dur_ns;

	agg = fsl_map__put(&s->stacks, (uint64_t)(uint32_t)ev->stack_id, NULL);
	if (!agg)
		return -ENOMEM;
	agg->ns[role] += ev->dur_ns;
	agg->count++;
	if (!agg->pid || (role == FSL_ROLE_WORKLOAD && agg->role != FSL_ROLE_WORKLOAD)) {
		agg->pid = h->pid;
		agg->role = role;
	}

	ps = an_proc(s->c, h->pid);
	if (ps) {
		ps->blocked_ns += ev->dur_ns;
		ps->ns[sc.cls] += ev->dur_ns;
		ps->role = role;
	}

	if (role == FSL_ROLE_WORKLOAD) {
		bin = an_tb_bin(&s->res.tb, s->c->origin, end, &folds);
		if (folds)
			for (i = 0; i < FSL_WC__MAX; i++)
				an_fold_sum(s->res.series[i], folds);
		s->res.series[sc.cls][bin] += ev->dur_ns;
	}
	return 0;
}

unsigned int an_stalls_class(struct an_stalls *s, int32_t stack_id)
{
	struct an_stack_cls sc;

	stack_class(s, stack_id, &sc);
	return sc.cls;
}

void an_stalls_note_start(struct an_stalls *s, const struct fsl_hdr *h)
{
	const struct fsl_ev_offcpu *ev = (const void *)h;
	struct an_stack_cls sc;

	if (!(ev->state & FSL_OFFCPU_UNINTERRUPTIBLE) || (ev->state & AN_TASK_NOLOAD))
		return;
	stack_class(s, ev->stack_id, &sc);
	if (h->ts > s->c->last_wait_start[sc.cls])
		s->c->last_wait_start[sc.cls] = h->ts;
}

static int on_proc(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_stalls *s = cons->priv;

	an_tasks_event(&s->c->tasks, (const struct fsl_ev_proc *)h);
	return 0;
}

struct an_stalls *an_stalls_new(struct an_ctx *c)
{
	struct an_stalls *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->cls_cache, sizeof(struct an_stack_cls));
	fsl_map__init(&s->stacks, sizeof(struct an_stack_agg));
	s->cons.name = "stalls";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_OFFCPU] = on_offcpu;
	s->cons.handlers[FSL_EV_PROC] = on_proc;
	an_stalls_reset(s);
	return s;
}

void an_stalls_free(struct an_stalls *s)
{
	if (!s)
		return;
	fsl_map__free(&s->cls_cache);
	fsl_map__free(&s->stacks);
	free(s);
}

void an_stalls_reset(struct an_stalls *s)
{
	memset(&s->res, 0, sizeof(s->res));
	fsl_map__clear(&s->stacks);
}

struct fsl_consumer *an_stalls_consumer(struct an_stalls *s)
{
	return &s->cons;
}

/* Heaviest stacks per class; workload time ranks first, then all time. */
static void top_stacks(struct an_stalls *s)
{
	struct an_stack_agg *agg;
	struct an_stack_cls sc;
	uint64_t key, w, score[FSL_WC__MAX][FSL_TOP_STACKS];
	size_t it = 0;
	unsigned int i, j;

	memset(score, 0, sizeof(score));
	for (i = 0; i < FSL_WC__MAX; i++)
		for (j = 0; j < FSL_TOP_STACKS; j++) {
			s->res.cls[i].top_stack[j] = -1;
			s->res.cls[i].top_stack_ns[j] = 0;
			s->res.cls[i].top_comm[j][0] = 0;
		}
	while ((agg = fsl_map__next(&s->stacks, &it, &key))) {
		struct fsl_class_stat *cs;
		int32_t id = (int32_t)(uint32_t)key;

		stack_class(s, id, &sc);
		cs = &s->res.cls[sc.cls];
		/* rank by workload ns, then by everyone's ns, then by id */
		w = agg->ns[FSL_ROLE_WORKLOAD];
		for (j = 0; j < FSL_TOP_STACKS; j++) {
			uint64_t all = agg->ns[0] + agg->ns[1] + agg->ns[2];
			uint64_t cur_w = score[sc.cls][j], cur_all = cs->top_stack_ns[j];

			if (cs->top_stack[j] < 0 || w > cur_w ||
			    (w == cur_w && (all > cur_all ||
			     (all == cur_all && id < cs->top_stack[j])))) {
				memmove(&cs->top_stack[j + 1], &cs->top_stack[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_stack[0]));
				memmove(&cs->top_stack_ns[j + 1], &cs->top_stack_ns[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_stack_ns[0]));
				memmove(&cs->top_comm[j + 1], &cs->top_comm[j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(cs->top_comm[0]));
				memmove(&score[sc.cls][j + 1], &score[sc.cls][j],
					(FSL_TOP_STACKS - 1 - j) * sizeof(score[0][0]));
				cs->top_stack[j] = id;
				cs->top_stack_ns[j] = all;
				score[sc.cls][j] = w;
				an_comm_copy(cs->top_comm[j], an_tasks_comm(&s->c->tasks, agg->pid));
				break;
			}
		}
	}
}

const struct fsl_stalls *an_stalls_result(struct an_stalls *s)
{
	top_stacks(s);
	return &s->res;
}
