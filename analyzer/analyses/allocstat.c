// SPDX-License-Identifier: GPL-2.0
/*
 * Allocator decisions in the window, as /proc/fs/ext4/<dev>/mb_stats counts
 * them, from ext4_mballoc_alloc: requests, the criteria pass that found
 * each (cr 0..4), goal hits (the result starts where the normalized goal
 * did, in the same group: the kernel's s_bal_goals), groups scanned,
 * blocks asked and found, and the inode preallocations used
 * (ext4_mballoc_prealloc: no search at all). Counted where the event is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

struct an_allocstat {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_allocstat res;
};

static int on_mballoc(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_allocstat *s = cons->priv;
	const struct fsl_ev_ext4_mballoc_alloc *ev = (const void *)h;
	struct fsl_allocstat *r = &s->res;

	if (h->size < sizeof(*ev) || !an_in_window(&s->c->win, h->ts) ||
	    (s->c->target_dev && ev->dev != s->c->target_dev))
		return 0;
	if (h->type == FSL_EV_EXT4_MBALLOC_PREALLOC) {
		r->prealloc++;
		return 0;
	}
	r->decisions++;
	r->by_cr[ev->cr < FSL_ALLOC_CRS ? ev->cr : FSL_ALLOC_CRS - 1]++;
	r->groups += ev->groups;
	if (ev->orig_len > 0)
		r->asked += ev->orig_len;
	if (ev->result_len > 0)
		r->found += ev->result_len;
	if (ev->result_len > 0 && ev->goal_group == ev->result_group &&
	    ev->goal_start == ev->result_start)
		r->goal_hits++;
	return 0;
}

struct an_allocstat *an_allocstat_new(struct an_ctx *c)
{
	struct an_allocstat *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	s->cons.name = "allocstat";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_EXT4_MBALLOC_ALLOC] = on_mballoc;
	s->cons.handlers[FSL_EV_EXT4_MBALLOC_PREALLOC] = on_mballoc;
	return s;
}

void an_allocstat_free(struct an_allocstat *s)
{
	free(s);
}

void an_allocstat_reset(struct an_allocstat *s)
{
	memset(&s->res, 0, sizeof(s->res));
}

struct fsl_consumer *an_allocstat_consumer(struct an_allocstat *s)
{
	return &s->cons;
}

const struct fsl_allocstat *an_allocstat_result(struct an_allocstat *s)
{
	return &s->res;
}
