// SPDX-License-Identifier: GPL-2.0
/* The live reorder buffer: time order, intact records, nothing lost or doubled. */
#include <stdlib.h>
#include <string.h>
#include "t.h"
#include "../../tui/reorder.h"

/* A record of 16..256 bytes whose payload is a function of its ts and seq. */
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
	int in_order;		/* within one pop call */
	int intact;
	unsigned int n;
	uint8_t *seen;		/* by seq */
	uint64_t until;
	int late;		/* handed out at or after until */
	int stop_after;		/* return -EIO on this many-th record (0 never) */
};

static int take(void *ctx, const struct fsl_hdr *ev)
{
	struct got *g = ctx;
	const struct rec *r = (const void *)ev;
	size_t i;

	if (ev->ts < g->last_ts)
		g->in_order = 0;
	g->last_ts = ev->ts;
	if (ev->ts >= g->until)
		g->late = 1;
	if (ev->size != rec_size(r->seq))
		g->intact = 0;
	for (i = 0; i + sizeof(r->hdr) + 8 < ev->size; i++)
		if (r->fill[i] != (uint8_t)(r->seq * 31 + ev->ts + i))
			g->intact = 0;
	g->seen[r->seq]++;
	g->n++;
	if (g->stop_after && (int)g->n == g->stop_after)
		return -EIO;
	return 0;
}

TEST(tui_reorder_time_order_intact)
{
	enum { N = 20000 };
	struct top_reorder rb;
	struct got g = { .in_order = 1, .intact = 1 };
	uint64_t seed = 12345, seq = 0, clock = 0;
	struct rec r;
	unsigned int round, i;
	int n;

	g.seen = calloc(N, 1);
	REQUIRE(g.seen);
	top_reorder__init(&rb);
	/* Rounds of arrivals up to 5 ms late, popped 2 ms behind the clock. */
	for (round = 0; round < 100; round++) {
		clock += 1000000;
		for (i = 0; i < N / 100; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			make(&r, clock > 5000000 ? clock - (seed >> 33) % 5000000 : clock, seq++);
			CHECK_EQ(top_reorder__push(&rb, &r.hdr), 0);
		}
		g.last_ts = 0;
		g.until = clock - 2000000;
		n = top_reorder__pop(&rb, g.until, round % 3 ? 0 : 50, take, &g);
		CHECK(n >= 0);
		CHECK(g.in_order);
	}
	CHECK(!g.late);
	CHECK(top_reorder__pending(&rb) > 0);
	g.last_ts = 0;
	g.until = UINT64_MAX;
	n = top_reorder__pop(&rb, UINT64_MAX, 0, take, &g);
	CHECK(n > 0);
	CHECK(g.in_order);
	CHECK(g.intact);
	CHECK_EQ(g.n, N);
	CHECK_EQ(top_reorder__pending(&rb), 0);
	for (i = 0; i < N; i++)
		if (g.seen[i] != 1) {
			CHECK_EQ(g.seen[i], 1);
			break;
		}
	top_reorder__fini(&rb);
	free(g.seen);
}

TEST(tui_reorder_ties_and_errors)
{
	struct top_reorder rb;
	struct got g = { .in_order = 1, .intact = 1, .until = UINT64_MAX };
	struct rec r;
	uint64_t i;

	g.seen = calloc(16, 1);
	REQUIRE(g.seen);
	top_reorder__init(&rb);
	/* equal times come out in arrival order: seq 0..5 all at ts 7 */
	for (i = 0; i < 6; i++) {
		make(&r, 7, i);
		CHECK_EQ(top_reorder__push(&rb, &r.hdr), 0);
	}
	make(&r, 3, 6);
	CHECK_EQ(top_reorder__push(&rb, &r.hdr), 0);
	/* nothing before ts 3 */
	CHECK_EQ(top_reorder__pop(&rb, 3, 0, take, &g), 0);
	/* the callback's error stops the pop; that record is gone, the rest wait */
	g.stop_after = 2;
	CHECK_EQ(top_reorder__pop(&rb, 8, 0, take, &g), -EIO);
	CHECK_EQ(g.seen[6], 1);
	CHECK_EQ(g.seen[0], 1);
	CHECK_EQ(top_reorder__pending(&rb), 5);
	g.stop_after = 0;
	CHECK_EQ(top_reorder__pop(&rb, 8, 2, take, &g), 2);
	CHECK_EQ(g.seen[1] + g.seen[2], 2);
	CHECK_EQ(g.seen[3], 0);
	CHECK_EQ(top_reorder__pop(&rb, 8, 0, take, &g), 3);
	CHECK(g.in_order && g.intact);
	CHECK_EQ(top_reorder__pending(&rb), 0);
	top_reorder__fini(&rb);
	free(g.seen);
}

/*
 * Records that arrived against time order, then a batch that sorts in
 * between them: compaction walks the records in time order, unrelated to
 * where they sit (moving them in place would overwrite waiting ones).
 */
TEST(tui_reorder_interleaved_late_batch)
{
	struct top_reorder rb;
	struct got g = { .in_order = 1, .intact = 1 };
	struct rec r;
	uint64_t i;

	g.seen = calloc(400, 1);
	REQUIRE(g.seen);
	top_reorder__init(&rb);
	/* arriving newest first: the arena holds them against time order */
	for (i = 0; i < 200; i++) {
		make(&r, 1000 + 2 * (199 - i), i);
		CHECK_EQ(top_reorder__push(&rb, &r.hdr), 0);
	}
	g.until = 1001;
	CHECK_EQ(top_reorder__pop(&rb, g.until, 0, take, &g), 1);
	for (i = 0; i < 200; i++) {
		make(&r, 1001 + 2 * i, 200 + i);
		CHECK_EQ(top_reorder__push(&rb, &r.hdr), 0);
	}
	g.last_ts = 0;
	g.until = 1003;
	CHECK_EQ(top_reorder__pop(&rb, g.until, 0, take, &g), 2);
	g.last_ts = 0;
	g.until = UINT64_MAX;
	CHECK_EQ(top_reorder__pop(&rb, g.until, 0, take, &g), 397);
	CHECK(g.in_order);
	CHECK(g.intact);
	CHECK_EQ(g.n, 400);
	for (i = 0; i < 400; i++)
		if (g.seen[i] != 1) {
			CHECK_EQ(g.seen[i], 1);
			break;
		}
	top_reorder__fini(&rb);
	free(g.seen);
}
