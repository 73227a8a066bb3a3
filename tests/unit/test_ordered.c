// SPDX-License-Identifier: GPL-2.0
/* lib/ordered.c: the stream leaves in (ts, arrival) order, held for the window. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "t.h"
#include "fslens/event.h"
#include "fslens/ordered.h"

struct out {
	uint64_t ts[4096];
	uint32_t tid[4096];
	int n;
};

static int take(void *ctx, const struct fsl_hdr *ev)
{
	struct out *o = ctx;

	if (o->n < 4096) {
		o->ts[o->n] = ev->ts;
		o->tid[o->n] = ev->tid;
		o->n++;
	}
	return 0;
}

static int push(struct fsl_ordered *r, uint64_t ts, uint32_t tid, struct out *o)
{
	struct fsl_hdr h = { .ts = ts, .tid = tid, .type = FSL_EV_NONE, .size = sizeof(h) };

	return fsl_ordered__push(r, &h, take, o);
}

TEST(ordered_holds_for_window_and_sorts)
{
	struct fsl_ordered *r = fsl_ordered__new(100);
	struct out *o = calloc(1, sizeof(*o));

	REQUIRE(r && o);
	CHECK_EQ(push(r, 1000, 1, o), 0);
	CHECK_EQ(push(r, 1050, 2, o), 0);
	CHECK_EQ(o->n, 0);			/* nothing is 100 ns old yet */
	CHECK_EQ(push(r, 990, 3, o), 0);	/* a start-stamped record, late by 60 */
	CHECK_EQ(push(r, 1095, 4, o), 0);	/* releases 990 (990 + 100 <= 1095) */
	CHECK_EQ(o->n, 1);
	CHECK_U64(o->ts[0], 990);
	CHECK_EQ(push(r, 1200, 5, o), 0);	/* releases 1000, 1050, 1095 */
	CHECK_EQ(o->n, 4);
	CHECK_U64(o->ts[1], 1000);
	CHECK_U64(o->ts[2], 1050);
	CHECK_U64(o->ts[3], 1095);
	CHECK_EQ(fsl_ordered__pending(r), 1);
	CHECK_EQ(fsl_ordered__flush(r, take, o), 0);
	CHECK_EQ(o->n, 5);
	CHECK_U64(o->ts[4], 1200);
	CHECK_U64(fsl_ordered__late(r), 0);
	/* older than what already left: passed on, counted late */
	CHECK_EQ(push(r, 500, 6, o), 0);
	CHECK_EQ(fsl_ordered__flush(r, take, o), 0);
	CHECK_U64(o->ts[5], 500);
	CHECK_U64(fsl_ordered__late(r), 1);
	fsl_ordered__free(r);
	free(o);
}

TEST(ordered_advance_releases_by_clock)
{
	struct fsl_ordered *r = fsl_ordered__new(100);
	struct out *o = calloc(1, sizeof(*o));

	REQUIRE(r && o);
	CHECK_EQ(push(r, 1000, 1, o), 0);
	CHECK_EQ(push(r, 1020, 2, o), 0);
	CHECK_EQ(fsl_ordered__advance(r, 1099, take, o), 0);
	CHECK_EQ(o->n, 0);			/* 1000 is only 99 ns old */
	CHECK_EQ(fsl_ordered__advance(r, 1100, take, o), 0);
	CHECK_EQ(o->n, 1);
	CHECK_U64(o->ts[0], 1000);
	CHECK_EQ(fsl_ordered__advance(r, 50, take, o), 0);	/* the clock never goes back */
	CHECK_EQ(push(r, 1010, 3, o), 0);	/* 1110 > 1100: held */
	CHECK_EQ(o->n, 1);
	CHECK_EQ(fsl_ordered__advance(r, 1120, take, o), 0);
	CHECK_EQ(o->n, 3);			/* in ts order, not arrival order */
	CHECK_U64(o->ts[1], 1010);
	CHECK_U64(o->ts[2], 1020);
	CHECK_EQ(fsl_ordered__pending(r), 0);
	CHECK_U64(fsl_ordered__late(r), 0);
	fsl_ordered__free(r);
	free(o);
}

TEST(ordered_equal_ts_keep_arrival_order)
{
	struct fsl_ordered *r = fsl_ordered__new(10);
	struct out *o = calloc(1, sizeof(*o));
	int i;

	REQUIRE(r && o);
	/* equal times from the FIFO and from the heap interleaved */
	push(r, 50, 1, o);
	push(r, 40, 2, o);	/* heap */
	push(r, 50, 3, o);	/* FIFO (not older than its tail) */
	push(r, 40, 4, o);	/* heap */
	CHECK_EQ(fsl_ordered__flush(r, take, o), 0);
	REQUIRE(o->n == 4);
	CHECK_EQ(o->tid[0], 2);
	CHECK_EQ(o->tid[1], 4);
	CHECK_EQ(o->tid[2], 1);
	CHECK_EQ(o->tid[3], 3);
	for (i = 1; i < o->n; i++)
		CHECK(o->ts[i - 1] <= o->ts[i]);
	fsl_ordered__free(r);
	free(o);
}

TEST(ordered_random_stream_is_sorted)
{
	struct fsl_ordered *r = fsl_ordered__new(1000);
	struct out *o = calloc(1, sizeof(*o));
	uint64_t t = 1000000;
	unsigned int seed = 7;
	int i;

	REQUIRE(r && o);
	/* a mostly ordered stream with start-stamped records up to 900 ns old */
	for (i = 0; i < 4000; i++) {
		t += rand_r(&seed) % 50;
		if (rand_r(&seed) % 5 == 0)
			push(r, t - rand_r(&seed) % 900, i, o);
		else
			push(r, t, i, o);
	}
	CHECK(fsl_ordered__pending(r) > 0);
	fsl_ordered__flush(r, take, o);
	CHECK_EQ(o->n, 4000);
	for (i = 1; i < o->n; i++)
		if (o->ts[i - 1] > o->ts[i])
			break;
	CHECK_EQ(i, 4000);
	CHECK_U64(fsl_ordered__late(r), 0);
	/* free with records still held is clean (ASan checks) */
	push(r, t + 5, 1, o);
	fsl_ordered__free(r);
	free(o);
}

/*
 * Released by the clock (live top): records are only held when pushed and
 * leave when the clock passes them. Records of 16..256 bytes whose payload
 * is a function of their ts and seq show every copy intact.
 */
struct rec {
	struct fsl_hdr hdr;
	uint64_t seq;
	uint8_t fill[232];
};

static size_t rec_size(uint64_t seq)
{
	return sizeof(struct fsl_hdr) + 8 + (seq * 8) % 232;
}

static void make(struct rec *r, uint64_t ts, uint64_t seq)
{
	size_t i, size = rec_size(seq);

	memset(r, 0, sizeof(*r));
	r->hdr.ts = ts;
	r->hdr.size = size;
	r->hdr.type = FSL_EV_PROC;
	r->seq = seq;
	for (i = 0; i + sizeof(r->hdr) + 8 < size; i++)
		r->fill[i] = (uint8_t)(seq * 31 + ts + i);
}

struct got {
	uint64_t last_ts;
	int in_order;
	int intact;
	unsigned int n;
	uint8_t *seen;		/* by seq */
	uint64_t until;
	int early;		/* handed out at or after until */
	unsigned int stop_after;	/* return -EIO on this many-th record (0 never) */
	unsigned int limit, taken;	/* return 1 after this many in one release (0 never) */
};

static int got(void *ctx, const struct fsl_hdr *ev)
{
	struct got *g = ctx;
	const struct rec *r = (const void *)ev;
	size_t i;

	if (ev->ts < g->last_ts)
		g->in_order = 0;
	g->last_ts = ev->ts;
	if (ev->ts >= g->until)
		g->early = 1;
	if (ev->size != rec_size(r->seq))
		g->intact = 0;
	for (i = 0; i + sizeof(r->hdr) + 8 < ev->size; i++)
		if (r->fill[i] != (uint8_t)(r->seq * 31 + ev->ts + i))
			g->intact = 0;
	g->seen[r->seq]++;
	g->n++;
	if (g->stop_after && g->n == g->stop_after)
		return -EIO;
	return g->limit && ++g->taken >= g->limit;
}

TEST(ordered_by_clock_order_intact)
{
	enum { N = 20000 };
	struct fsl_ordered *r = fsl_ordered__new(1);
	struct got g = { .in_order = 1, .intact = 1 };
	uint64_t seed = 12345, seq = 0, clock = 0;
	struct rec x;
	unsigned int round, i, before;

	g.seen = calloc(N, 1);
	REQUIRE(r && g.seen);
	/* Rounds of arrivals up to 5 ms late, released 2 ms behind the clock. */
	for (round = 0; round < 100; round++) {
		clock += 1000000;
		for (i = 0; i < N / 100; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			make(&x, clock > 5000000 ? clock - (seed >> 33) % 5000000 : clock, seq++);
			CHECK_EQ(fsl_ordered__push(r, &x.hdr, NULL, NULL), 0);
		}
		g.last_ts = 0;
		g.until = clock > 2000000 ? clock - 2000000 : 0;
		/* every third round at most 50, as top's pump does when busy */
		g.limit = round % 3 ? 0 : 50;
		g.taken = 0;
		before = g.n;
		CHECK(fsl_ordered__advance(r, g.until, got, &g) >= 0);
		if (g.limit)
			CHECK(g.n - before <= 50);
		CHECK(g.in_order);
	}
	CHECK(!g.early);
	CHECK(fsl_ordered__pending(r) > 0);
	g.last_ts = 0;
	g.until = UINT64_MAX;
	g.limit = 0;
	CHECK_EQ(fsl_ordered__flush(r, got, &g), 0);
	CHECK(g.in_order);
	CHECK(g.intact);
	CHECK_EQ(g.n, N);
	CHECK_EQ(fsl_ordered__pending(r), 0);
	for (i = 0; i < N; i++)
		if (g.seen[i] != 1) {
			CHECK_EQ(g.seen[i], 1);
			break;
		}
	fsl_ordered__free(r);
	free(g.seen);
}

TEST(ordered_callback_stops_release)
{
	struct fsl_ordered *r = fsl_ordered__new(1);
	struct got g = { .in_order = 1, .intact = 1, .until = UINT64_MAX };
	struct rec x;
	uint64_t i;

	g.seen = calloc(16, 1);
	REQUIRE(r && g.seen);
	/* equal times come out in arrival order: seq 0..5 all at ts 7 */
	for (i = 0; i < 6; i++) {
		make(&x, 7, i);
		CHECK_EQ(fsl_ordered__push(r, &x.hdr, NULL, NULL), 0);
	}
	make(&x, 3, 6);
	CHECK_EQ(fsl_ordered__push(r, &x.hdr, NULL, NULL), 0);
	/* held only: nothing left on push, and nothing before ts 3 at clock 3 */
	CHECK_EQ(g.n, 0);
	CHECK_EQ(fsl_ordered__advance(r, 3, got, &g), 0);
	CHECK_EQ(g.n, 0);
	/* the callback's error stops the release; that record is gone, the rest wait */
	g.stop_after = 2;
	CHECK_EQ(fsl_ordered__advance(r, 8, got, &g), -EIO);
	CHECK_EQ(g.seen[6], 1);
	CHECK_EQ(g.seen[0], 1);
	CHECK_EQ(fsl_ordered__pending(r), 5);
	g.stop_after = 0;
	/* a positive stop too, and in arrival order among equal times */
	g.limit = 2;
	CHECK_EQ(fsl_ordered__advance(r, 8, got, &g), 1);
	CHECK_EQ(g.seen[1] + g.seen[2], 2);
	CHECK_EQ(g.seen[3], 0);
	g.limit = 0;
	CHECK_EQ(fsl_ordered__advance(r, 8, got, &g), 0);
	CHECK_EQ(g.n, 7);
	CHECK(g.in_order && g.intact);
	CHECK_EQ(fsl_ordered__pending(r), 0);
	CHECK_U64(fsl_ordered__late(r), 0);
	fsl_ordered__free(r);
	fsl_ordered__free(NULL);
	free(g.seen);
}

/*
 * Records that arrived against time order, then a batch that sorts in
 * between them: nothing lost or doubled, order kept across releases.
 */
TEST(ordered_interleaved_late_batch)
{
	struct fsl_ordered *r = fsl_ordered__new(1);
	struct got g = { .in_order = 1, .intact = 1 };
	struct rec x;
	uint64_t i;

	g.seen = calloc(400, 1);
	REQUIRE(r && g.seen);
	/* arriving newest first */
	for (i = 0; i < 200; i++) {
		make(&x, 1000 + 2 * (199 - i), i);
		CHECK_EQ(fsl_ordered__push(r, &x.hdr, NULL, NULL), 0);
	}
	g.until = 1001;
	CHECK_EQ(fsl_ordered__advance(r, g.until, got, &g), 0);
	CHECK_EQ(g.n, 1);
	for (i = 0; i < 200; i++) {
		make(&x, 1001 + 2 * i, 200 + i);
		CHECK_EQ(fsl_ordered__push(r, &x.hdr, NULL, NULL), 0);
	}
	g.last_ts = 0;
	g.until = 1003;
	CHECK_EQ(fsl_ordered__advance(r, g.until, got, &g), 0);
	CHECK_EQ(g.n, 3);
	g.last_ts = 0;
	g.until = UINT64_MAX;
	CHECK_EQ(fsl_ordered__flush(r, got, &g), 0);
	CHECK(g.in_order);
	CHECK(g.intact);
	CHECK_EQ(g.n, 400);
	for (i = 0; i < 400; i++)
		if (g.seen[i] != 1) {
			CHECK_EQ(g.seen[i], 1);
			break;
		}
	CHECK_U64(fsl_ordered__late(r), 0);
	fsl_ordered__free(r);
	free(g.seen);
}

/* A sum and a count of what the limit test releases, checked for order. */
struct tally {
	uint64_t n, last, unsorted, tsum;
};

static int tally(void *ctx, const struct fsl_hdr *ev)
{
	struct tally *t = ctx;

	if (t->n && ev->ts < t->last)
		t->unsorted++;
	t->last = ev->ts;
	t->tsum += ev->ts;
	t->n++;
	return 0;
}

/*
 * 3 M records of 48 bytes through a 1 s window at 1 record/us: unbounded,
 * a million of them would be held (about 70 MiB); with a 4 MiB limit the
 * held bytes never pass it, every record still comes out once, in order
 * (the stream is in order: forcing the oldest out early keeps it sorted),
 * and the forced ones are counted.
 */
TEST(ordered_limit_bounds_memory_and_keeps_everything)
{
	struct fsl_ordered *r = fsl_ordered__new(1000000000ull);
	struct tally t = { 0 };
	unsigned char buf[48] = { 0 };
	struct fsl_hdr *h = (struct fsl_hdr *)buf;
	size_t peak = 0, limit = 4u << 20;
	uint64_t i, n = 3000000, sum = 0;

	REQUIRE(r);
	fsl_ordered__set_limit(r, limit);
	h->type = FSL_EV_NONE;
	h->size = sizeof(buf);
	for (i = 0; i < n; i++) {
		h->ts = 1000 + i * 1000;
		sum += h->ts;
		REQUIRE(fsl_ordered__push(r, h, tally, &t) == 0);
		if (fsl_ordered__held_bytes(r) > peak)
			peak = fsl_ordered__held_bytes(r);
	}
	CHECK(peak <= limit);
	CHECK(peak > limit - 4096);	/* it was reached: the window holds more */
	/* held at the end: as many as the limit has room for */
	CHECK_EQ(fsl_ordered__pending(r), limit / (48 + 24));
	/* the held ones span 58 ms, never the window: all that left was forced */
	CHECK_U64(fsl_ordered__forced(r), n - fsl_ordered__pending(r));
	CHECK_U64(t.n, n - fsl_ordered__pending(r));
	CHECK_EQ(fsl_ordered__flush(r, tally, &t), 0);
	CHECK_U64(t.n, n);
	CHECK_U64(t.tsum, sum);
	CHECK_U64(t.unsorted, 0);
	CHECK_U64(fsl_ordered__late(r), 0);
	CHECK_U64(fsl_ordered__held_bytes(r), 0);
	fsl_ordered__free(r);
}

/*
 * Held by the caller's clock (live top), with late records in the heap:
 * the limit still bounds it, and every record comes out once.
 */
TEST(ordered_limit_push_held_with_late_records)
{
	struct fsl_ordered *r = fsl_ordered__new(1000000000ull);
	struct tally t = { 0 };
	unsigned char buf[40] = { 0 };
	struct fsl_hdr *h = (struct fsl_hdr *)buf;
	uint64_t i, n = 200000, sum = 0;
	size_t limit = 1u << 20;

	REQUIRE(r);
	fsl_ordered__set_limit(r, limit);
	h->type = FSL_EV_NONE;
	h->size = sizeof(buf);
	for (i = 0; i < n; i++) {
		/* every 10th record is stamped 5 us back: it goes to the heap */
		h->ts = 1000000 + i * 1000 - (i % 10 == 9 ? 5000 : 0);
		sum += h->ts;
		REQUIRE(fsl_ordered__push_held(r, h, tally, &t) == 0);
		REQUIRE(fsl_ordered__held_bytes(r) <= limit);
	}
	CHECK_EQ(fsl_ordered__pending(r), limit / (40 + 24));
	CHECK_U64(fsl_ordered__forced(r), t.n);
	CHECK_EQ(fsl_ordered__flush(r, tally, &t), 0);
	CHECK_U64(t.n, n);
	CHECK_U64(t.tsum, sum);
	/* 5 us late against a held span of ~16 ms: never behind what left */
	CHECK_U64(t.unsorted, 0);
	fsl_ordered__free(r);
}
