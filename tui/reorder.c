// SPDX-License-Identifier: GPL-2.0
/* Reorder buffer for live events (see reorder.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "reorder.h"

void top_reorder__init(struct top_reorder *r)
{
	memset(r, 0, sizeof(*r));
	r->sorted = 1;
}

void top_reorder__fini(struct top_reorder *r)
{
	free(r->buf);
	free(r->spare);
	free(r->ent);
	memset(r, 0, sizeof(*r));
}

int top_reorder__push(struct top_reorder *r, const struct fsl_hdr *ev)
{
	size_t size = ev->size;

	if (size < sizeof(*ev))
		size = sizeof(*ev);
	/* Records are whole multiples of 8 bytes; keep every copy aligned. */
	size = (size + 7) & ~(size_t)7;
	if (r->used + size > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1 << 20;
		char *b;

		while (cap < r->used + size)
			cap *= 2;
		b = realloc(r->buf, cap);
		if (!b)
			return -ENOMEM;
		r->buf = b;
		r->cap = cap;
	}
	if (r->n == r->ent_cap) {
		size_t cap = r->ent_cap ? r->ent_cap * 2 : 4096;
		struct top_reorder_ent *e = realloc(r->ent, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		r->ent = e;
		r->ent_cap = cap;
	}
	memcpy(r->buf + r->used, ev, ev->size < sizeof(*ev) ? sizeof(*ev) : ev->size);
	r->ent[r->n].ts = ev->ts;
	r->ent[r->n].off = r->used;
	r->n++;
	r->used += size;
	r->sorted = 0;
	return 0;
}

/* Time, then arrival (a later arrival sits later in the arena). */
static int ent_cmp(const void *a, const void *b)
{
	const struct top_reorder_ent *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Drop what was handed out. The entries are in time order, not in arena
 * order, so the waiting records are copied into the spare arena (moving
 * them in place could overwrite one not moved yet), which becomes the arena.
 */
static int compact(struct top_reorder *r)
{
	size_t i, used = 0, t;
	char *b;

	if (!r->first)
		return 0;
	if (r->spare_cap < r->used) {
		b = realloc(r->spare, r->cap);
		if (!b)
			return -ENOMEM;
		r->spare = b;
		r->spare_cap = r->cap;
	}
	for (i = r->first; i < r->n; i++) {
		const struct fsl_hdr *h = (const void *)(r->buf + r->ent[i].off);
		size_t size = ((h->size < sizeof(*h) ? sizeof(*h) : h->size) + 7) & ~(size_t)7;

		memcpy(r->spare + used, h, size);
		r->ent[i - r->first].ts = r->ent[i].ts;
		r->ent[i - r->first].off = used;
		used += size;
	}
	b = r->buf;
	r->buf = r->spare;
	r->spare = b;
	t = r->cap;
	r->cap = r->spare_cap;
	r->spare_cap = t;
	r->n -= r->first;
	r->first = 0;
	r->used = used;
	return 0;
}

int top_reorder__pop(struct top_reorder *r, uint64_t until, unsigned int max, top_event_fn fn,
		     void *ctx)
{
	int n = 0, rc;

	if (!r->sorted) {
		rc = compact(r);
		if (rc)
			return rc;
		qsort(r->ent, r->n, sizeof(*r->ent), ent_cmp);
		r->sorted = 1;
	}
	while (r->first < r->n && r->ent[r->first].ts < until) {
		if (max && (unsigned int)n >= max)
			break;
		rc = fn(ctx, (const void *)(r->buf + r->ent[r->first].off));
		r->first++;
		if (rc < 0)
			return rc;
		n++;
	}
	/* Nothing waiting: start the arena over. */
	if (r->first == r->n)
		r->first = r->n = r->used = 0;
	return n;
}
