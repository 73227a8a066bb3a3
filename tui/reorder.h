/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small reorder buffer for live events: records are copied in as they come
 * off the ring buffer and handed out in time order once the clock has
 * passed them. Ties keep their arrival order. A record that arrives after
 * later ones were handed out comes out at the next pop (it cannot be put
 * back in the past); the analyses count waits and calls by their end time,
 * so such a record still lands in the right window.
 */
#ifndef FSL_TUI_REORDER_H
#define FSL_TUI_REORDER_H

#include <stddef.h>
#include <stdint.h>
#include "source.h"

struct top_reorder_ent {
	uint64_t ts;
	size_t off;		/* in buf */
};

struct top_reorder {
	char *buf, *spare;	/* the arena, and a second one to compact into */
	size_t used, cap, spare_cap;
	struct top_reorder_ent *ent;
	size_t n, ent_cap;
	size_t first;		/* ent[first..n) not handed out yet */
	int sorted;
};

void top_reorder__init(struct top_reorder *r);
void top_reorder__fini(struct top_reorder *r);
/* Copy one record in (hdr.size bytes, at least the header). 0 or -ENOMEM. */
int top_reorder__push(struct top_reorder *r, const struct fsl_hdr *ev);
/*
 * Hand the records with ts < until to fn in time order, at most max of them
 * (0: no limit). Returns how many, or fn's negative return (that record
 * counts as handed out), or -ENOMEM.
 */
int top_reorder__pop(struct top_reorder *r, uint64_t until, unsigned int max, top_event_fn fn,
		     void *ctx);
static inline size_t top_reorder__pending(const struct top_reorder *r)
{
	return r->n - r->first;
}

#endif
