// SPDX-License-Identifier: GPL-2.0
/* lib/ordered.c: the stream leaves in (ts, arrival) order, held for the window. */
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
