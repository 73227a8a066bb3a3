// SPDX-License-Identifier: GPL-2.0
/*
 * The ordering service (see include/fslens/ordered.h). Its streams come
 * nearly in time order; in the collector's the exceptions are the records
 * stamped with their start (a system call or an off-CPU wait that ended just
 * now). Every record is held until the newest time seen is a window past it,
 * then passed on in (ts, arrival) order, so a consumer (the trace writer,
 * live top's session) receives a sorted stream and never re-sorts. Records that arrive in order (nearly
 * all) wait in a FIFO, O(1); the others in a min-heap, O(log n); the next
 * record out is the older of the two heads.
 *
 * The FIFO's records are copied into 1 MiB blocks, appended and given back
 * in arrival order (no allocation per record: a block is reused once its
 * last record is out); only the heap's few copies are malloc'd. With a
 * limit set, a record that would take the held bytes past it first
 * releases the oldest ones, window or not ("forced"): the memory stays
 * bounded at any rate and nothing is dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/ordered.h"

#define BLOCK_BYTES	(1u << 20)

struct slot {
	uint64_t ts;
	uint64_t seq;
	struct fsl_hdr *ev;
};

/* A block of FIFO copies; live counts those not yet released. */
struct block {
	struct block *next;
	size_t used, live;
	unsigned char data[];
};

struct fsl_ordered {
	struct slot *h;		/* heap of the out-of-order ones */
	size_t n, cap;
	struct slot *q;		/* FIFO ring of the in-order ones */
	size_t qhead, qlen, qcap;
	uint64_t qtail_ts;
	uint64_t window, max_ts, seq, last_out, late;
	int emitted;
	struct block *bhead, *btail, *spare;	/* FIFO copies, oldest block first */
	size_t held, limit;	/* bytes held (copies and slots); 0: no limit */
	uint64_t forced;
};

struct fsl_ordered *fsl_ordered__new(uint64_t window_ns)
{
	struct fsl_ordered *r = calloc(1, sizeof(*r));

	if (r)
		r->window = window_ns;
	return r;
}

static int before(const struct slot *a, const struct slot *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void sift_up(struct slot *h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct slot t;

		if (!before(&h[i], &h[p]))
			break;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

static void sift_down(struct slot *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct slot t;

		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			break;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* The oldest held record: 1 from the FIFO, 0 from the heap, -1 none. */
static int oldest(const struct fsl_ordered *r, const struct slot **s)
{
	const struct slot *f = r->qlen ? &r->q[r->qhead] : NULL;

	if (f && (!r->n || before(f, &r->h[0]))) {
		*s = f;
		return 1;
	}
	if (r->n) {
		*s = &r->h[0];
		return 0;
	}
	return -1;
}

static size_t rec_bytes(const struct fsl_hdr *ev)
{
	return ((ev->size + 7u) & ~7u) + sizeof(struct slot);
}

/* Room for len bytes at the FIFO's end, or NULL. */
static void *block_alloc(struct fsl_ordered *r, size_t len)
{
	struct block *b = r->btail;

	if (!b || BLOCK_BYTES - b->used < len) {
		b = r->spare;
		if (b) {
			r->spare = NULL;
		} else {
			b = malloc(sizeof(*b) + BLOCK_BYTES);
			if (!b)
				return NULL;
		}
		b->next = NULL;
		b->used = b->live = 0;
		if (r->btail)
			r->btail->next = b;
		else
			r->bhead = b;
		r->btail = b;
	}
	b->live++;
	b->used += len;
	return b->data + b->used - len;
}

/* The oldest FIFO copy is out: a block with none left is kept as the spare. */
static void block_release(struct fsl_ordered *r)
{
	struct block *b = r->bhead;

	if (!b || --b->live)
		return;
	if (b == r->btail) {
		b->used = 0;	/* the only block: start it over */
		return;
	}
	r->bhead = b->next;
	if (r->spare)
		free(b);
	else
		r->spare = b;
}

/* Pass the oldest record to fn; the callback's error is returned. */
static int pop(struct fsl_ordered *r, int from_fifo, fsl_event_fn fn, void *ctx)
{
	struct fsl_hdr *ev;
	int e;

	if (from_fifo) {
		ev = r->q[r->qhead].ev;
		/* held a window long, the records are out of cache: fetch ahead */
		if (r->qlen > 8)
			__builtin_prefetch(r->q[(r->qhead + 8) & (r->qcap - 1)].ev);
		r->qhead = (r->qhead + 1) & (r->qcap - 1);
		r->qlen--;
	} else {
		ev = r->h[0].ev;
		r->h[0] = r->h[--r->n];
		sift_down(r->h, r->n, 0);
	}
	if (r->emitted && ev->ts < r->last_out)
		r->late++;
	else
		r->last_out = ev->ts;
	r->emitted = 1;
	r->held -= rec_bytes(ev);
	e = fn(ctx, ev);
	if (from_fifo)
		block_release(r);
	else
		free(ev);
	return e;
}

static int fifo_push(struct fsl_ordered *r, struct slot s)
{
	if (r->qlen == r->qcap) {
		size_t nc = r->qcap ? r->qcap * 2 : 4096, i;
		struct slot *nq = malloc(nc * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		for (i = 0; i < r->qlen; i++)
			nq[i] = r->q[(r->qhead + i) & (r->qcap - 1)];
		free(r->q);
		r->q = nq;
		r->qcap = nc;
		r->qhead = 0;
	}
	r->q[(r->qhead + r->qlen) & (r->qcap - 1)] = s;
	r->qlen++;
	r->qtail_ts = s.ts;
	return 0;
}

static int heap_push(struct fsl_ordered *r, struct slot s)
{
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 1024;
		struct slot *nh = realloc(r->h, nc * sizeof(*nh));

		if (!nh)
			return -ENOMEM;
		r->h = nh;
		r->cap = nc;
	}
	r->h[r->n] = s;
	sift_up(r->h, r->n++);
	return 0;
}

static int hold(struct fsl_ordered *r, uint64_t key, const struct fsl_hdr *ev)
{
	int in_order = !r->qlen || key >= r->qtail_ts, e;
	size_t len = (ev->size + 7u) & ~7u;
	struct fsl_hdr *copy;
	struct slot s;

	copy = in_order ? block_alloc(r, len) : malloc(ev->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ev, ev->size);
	s = (struct slot){ key, r->seq++, copy };
	e = in_order ? fifo_push(r, s) : heap_push(r, s);
	if (e) {
		if (in_order) {
			r->btail->live--;
			r->btail->used -= len;
		} else {
			free(copy);
		}
		return e;
	}
	r->held += rec_bytes(ev);
	return 0;
}

/* Make room for ev under the limit: the oldest go out first, window or not. */
static int make_room(struct fsl_ordered *r, const struct fsl_hdr *ev, fsl_event_fn fn,
		     void *ctx)
{
	const struct slot *o;
	int e, which;

	while (r->limit && fn && r->held + rec_bytes(ev) > r->limit &&
	       (which = oldest(r, &o)) >= 0) {
		r->forced++;
		if ((e = pop(r, which, fn, ctx)))
			return e;
	}
	return 0;
}

int fsl_ordered__push(struct fsl_ordered *r, const struct fsl_hdr *ev,
		      fsl_event_fn fn, void *ctx)
{
	int e = make_room(r, ev, fn, ctx);

	if (!e)
		e = hold(r, ev->ts, ev);
	if (e || !fn)
		return e;
	return fsl_ordered__advance(r, ev->ts, fn, ctx);
}

int fsl_ordered__push_held(struct fsl_ordered *r, const struct fsl_hdr *ev,
			   fsl_event_fn fn, void *ctx)
{
	int e = make_room(r, ev, fn, ctx);

	return e ? e : hold(r, ev->ts, ev);
}

void fsl_ordered__set_limit(struct fsl_ordered *r, size_t bytes)
{
	r->limit = bytes;
}

uint64_t fsl_ordered__forced(const struct fsl_ordered *r)
{
	return r->forced;
}

size_t fsl_ordered__held_bytes(const struct fsl_ordered *r)
{
	return r->held;
}

int fsl_ordered__hold(struct fsl_ordered *r, uint64_t key, const struct fsl_hdr *ev)
{
	return hold(r, key, ev);
}

int fsl_ordered__each(const struct fsl_ordered *r, fsl_event_fn fn, void *ctx)
{
	size_t i;
	int e;

	for (i = 0; i < r->qlen; i++)
		if ((e = fn(ctx, r->q[(r->qhead + i) & (r->qcap - 1)].ev)))
			return e;
	for (i = 0; i < r->n; i++)
		if ((e = fn(ctx, r->h[i].ev)))
			return e;
	return 0;
}

int fsl_ordered__advance(struct fsl_ordered *r, uint64_t now, fsl_event_fn fn,
			 void *ctx)
{
	const struct slot *o;
	int e, which;

	if (now > r->max_ts)
		r->max_ts = now;
	while ((which = oldest(r, &o)) >= 0 && o->ts + r->window <= r->max_ts)
		if ((e = pop(r, which, fn, ctx)))
			return e;
	return 0;
}

int fsl_ordered__flush(struct fsl_ordered *r, fsl_event_fn fn, void *ctx)
{
	const struct slot *o;
	int e, which;

	while ((which = oldest(r, &o)) >= 0)
		if ((e = pop(r, which, fn, ctx)))
			return e;
	return 0;
}

size_t fsl_ordered__pending(const struct fsl_ordered *r)
{
	return r->n + r->qlen;
}

uint64_t fsl_ordered__late(const struct fsl_ordered *r)
{
	return r->late;
}

void fsl_ordered__free(struct fsl_ordered *r)
{
	if (!r)
		return;
	while (r->n)
		free(r->h[--r->n].ev);
	while (r->bhead) {
		struct block *b = r->bhead;

		r->bhead = b->next;
		free(b);
	}
	free(r->spare);
	free(r->h);
	free(r->q);
	free(r);
}
