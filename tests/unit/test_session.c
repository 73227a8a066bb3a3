// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "t.h"
#include "fslens/session.h"

struct counter {
	struct fsl_consumer c;
	unsigned int began, ended, rq, any, commits;
	uint64_t last_ts, sectors;
	int ordered;
	const char *host;
	int fail_at;
};

static int c_begin(struct fsl_consumer *c, const struct fsl_meta *m)
{
	struct counter *k = (struct counter *)c;

	k->began++;
	k->host = fsl_meta_kv(m, FSL_KV_HOSTNAME);
	k->ordered = 1;
	return 0;
}

static int c_rq(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct counter *k = (struct counter *)c;

	k->rq++;
	k->sectors += ((const struct fsl_ev_block_rq *)ev)->nr_sector;
	return 0;
}

static int c_commit(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct counter *k = (struct counter *)c;

	if (k->fail_at && ++k->commits == (unsigned int)k->fail_at)
		return -ECANCELED;
	return 0;
}

static int c_any(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct counter *k = (struct counter *)c;

	if (ev->ts < k->last_ts)
		k->ordered = 0;
	k->last_ts = ev->ts;
	k->any++;
	return 0;
}

static int c_end(struct fsl_consumer *c, const struct fsl_meta *m)
{
	((struct counter *)c)->ended++;
	return 0;
}

static void write_trace(const char *path)
{
	struct fsl_writer *w;
	struct fsl_ev_block_rq rq = { .hdr = { .type = FSL_EV_BLOCK_RQ_COMPLETE,
					       .size = sizeof(rq) } };
	struct fsl_ev_jbd2_commit jc = { .hdr = { .type = FSL_EV_JBD2_START_COMMIT,
						  .size = sizeof(jc) } };
	int err = 0, i;

	w = fsl_writer__open(path, NULL, &err);
	REQUIRE(w);
	fsl_writer__kv(w, FSL_KV_HOSTNAME, "sess-host");
	for (i = 0; i < 300; i++) {
		rq.hdr.ts = 1000 + 10 * i;
		rq.nr_sector = 8 + (i % 3);
		CHECK_EQ(fsl_writer__event(w, &rq.hdr), 0);
		if (i % 10 == 0) {
			jc.hdr.ts = 1005 + 10 * i;
			CHECK_EQ(fsl_writer__event(w, &jc.hdr), 0);
		}
	}
	CHECK_EQ(fsl_writer__close(w), 0);
}

TEST(session_dispatch_order_and_meta)
{
	struct counter a = { .c = { .name = "a", .begin = c_begin, .any = c_any, .end = c_end } };
	struct counter b = { .c = { .name = "b", .begin = c_begin, .end = c_end } };
	struct fsl_consumer *cons[] = { &a.c, &b.c };
	struct fsl_reader *r;
	int err = 0;

	write_trace(t_path("s.trace"));
	a.c.handlers[FSL_EV_BLOCK_RQ_COMPLETE] = c_rq;
	b.c.handlers[FSL_EV_JBD2_START_COMMIT] = c_commit;
	r = fsl_reader__open(t_path("s.trace"), NULL, &err);
	REQUIRE(r);
	CHECK_EQ(fsl_session_run(r, cons, 2), 0);
	CHECK_EQ(a.began, 1);
	CHECK_EQ(a.ended, 1);
	CHECK_EQ(b.ended, 1);
	CHECK_EQ(a.rq, 300);
	CHECK_EQ(a.sectors, 100 * (8 + 9 + 10));
	CHECK_EQ(a.any, 330);
	CHECK(a.ordered);
	CHECK_STR(a.host, "sess-host");
	CHECK_STR(b.host, "sess-host");
	fsl_reader__close(r);
}

TEST(session_handler_error_stops)
{
	struct counter a = { .c = { .name = "a", .begin = c_begin, .any = c_any, .end = c_end },
			     .fail_at = 5 };
	struct fsl_consumer *cons[] = { &a.c };
	struct fsl_reader *r;
	int err = 0;

	write_trace(t_path("s.trace"));
	a.c.handlers[FSL_EV_JBD2_START_COMMIT] = c_commit;
	r = fsl_reader__open(t_path("s.trace"), NULL, &err);
	REQUIRE(r);
	CHECK_EQ(fsl_session_run(r, cons, 1), -ECANCELED);
	/* stopped at the 5th commit (ts 1405): 41 rq + 4 commits seen by any */
	CHECK_EQ(a.any, 45);
	CHECK_EQ(a.ended, 1);
	fsl_reader__close(r);
}

/* The table grows: a compare of 64 phase windows attaches 64 analysis sets of 8. */
TEST(session_many_consumers)
{
	enum { N = 600 };
	static struct counter k[N];
	static struct fsl_consumer *cons[N];
	struct fsl_reader *r;
	unsigned int i, bad = 0;
	int err = 0;

	write_trace(t_path("s.trace"));
	for (i = 0; i < N; i++) {
		k[i] = (struct counter){ .c = { .name = "k", .begin = c_begin, .end = c_end } };
		if (i % 2)
			k[i].c.any = c_any;
		k[i].c.handlers[FSL_EV_BLOCK_RQ_COMPLETE] = c_rq;
		cons[i] = &k[i].c;
	}
	r = fsl_reader__open(t_path("s.trace"), NULL, &err);
	REQUIRE(r);
	CHECK_EQ(fsl_session_run(r, cons, N), 0);
	for (i = 0; i < N; i++)
		bad += k[i].began != 1 || k[i].ended != 1 || k[i].rq != 300 ||
		       k[i].any != (i % 2 ? 330u : 0u);
	CHECK_EQ(bad, 0);
	fsl_reader__close(r);
}
