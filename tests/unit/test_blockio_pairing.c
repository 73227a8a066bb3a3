// SPDX-License-Identifier: GPL-2.0
/*
 * Block request pairing and the kernel's counts, on hand-built sequences of
 * what the kernel traces: a requeue, a request slot issued again with no
 * completion seen (what the BPF programs miss on some kernels), completions
 * before the start or with their issue lost, the flush machinery (a data
 * request completed twice, an empty preflush write never issued, the
 * queue's flush request); and btt's per-bio stages (a back merge, a Q
 * taking the place of one in flight, a split bio).
 */
#include "t.h"
#include "an_fixture.h"

#define DEV	FSL_MKDEV(7, 6)
#define W	(FSL_RQ_WRITE | FSL_RQ_SYNC)
#define FLUSH_RQ (FSL_RQ_FLUSH | FSL_RQ_NONE)

static int rq(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint64_t sector,
	      uint32_t nr, uint32_t flags, uint64_t id)
{
	return fx_rq(a, type, ts, 7, DEV, sector, nr, flags, id);
}

static struct fsl_analysis *start(struct fx_meta *f, const char *stat0, const char *stat1)
{
	struct fsl_analysis *a;

	fx_init(f);
	fx_set(f, "record.start_ns", "0");
	fx_set(f, "target.dev", "7340038");	/* 7:6 */
	if (stat0) {
		fx_set(f, "queue.stat.start", stat0);
		fx_set(f, "queue.stat.end", stat1);
		fx_set(f, "queue.stat.start_ns", "500");
		fx_set(f, "queue.stat.end_ns", "1000000");
	}
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, NULL);
	if (a && fsl_analysis__begin(a, &f->m)) {
		fsl_analysis__free(a);
		return NULL;
	}
	return a;
}

TEST(blockio_pairing_reasons)
{
	struct fx_meta f;
	struct fsl_analysis *a = start(&f, NULL, NULL);
	const struct fsl_dev_io *d;

	REQUIRE(a);
	/* paired */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 1000, 100, 8, W, 1), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 2000, 100, 8, W, 1), 0);
	/* requeued, issued again, paired: D2C from the last issue */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 3000, 200, 8, W, 2), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_REQUEUE, 3500, 200, 8, W, 2), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 4000, 200, 8, W, 2), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 5000, 200, 8, W, 2), 0);
	/* the slot issued again for another sector: its completion was not seen */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 6000, 300, 8, W, 3), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 7000, 400, 8, W, 3), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 8000, 400, 8, W, 3), 0);
	/* a slot never seen completes: issued before the recording */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 9000, 500, 8, W, 4), 0);
	/* a slot seen, completed, completing again with data: its issue is missing */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 10000, 600, 8, W, 5), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 11000, 600, 8, W, 5), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 12000, 700, 8, W, 5), 0);
	/* a partial completion, then the rest */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 13000, 800, 16, W, 6), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 13500, 800, 8, W, 6), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 14000, 808, 8, W, 6), 0);
	/* still in flight when the trace ends */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 15000, 900, 8, W, 7), 0);

	d = &fsl_analysis__blockio(a)->devs[0];
	CHECK_U64(d->issues, 8);
	CHECK_U64(d->paired, 5);
	CHECK_U64(d->unpaired[FSL_UNP_REQUEUED], 1);
	CHECK_U64(d->unpaired[FSL_UNP_NOT_SEEN], 1);
	CHECK_U64(d->unpaired[FSL_UNP_IN_FLIGHT], 1);
	CHECK_U64(d->issues, d->paired + d->unpaired[FSL_UNP_REQUEUED] +
		  d->unpaired[FSL_UNP_NOT_SEEN] + d->unpaired[FSL_UNP_IN_FLIGHT]);
	CHECK_U64(d->unpaired[FSL_UNP_BEFORE_START], 1);
	CHECK_U64(d->unpaired[FSL_UNP_NO_ISSUE], 1);
	CHECK_U64(d->partials, 1);
	CHECK_U64(d->completions, 8);
	/*
	 * The kernel counted every request once at its end (the partial one
	 * at its last part, the ones with no issue in the trace too) and its
	 * sectors at each completion; the unseen one is the trace's gap.
	 */
	CHECK_U64(d->kc.ios[FSL_SG_WRITE], 7);
	CHECK_U64(d->not_seen.ios[FSL_SG_WRITE], 1);
	CHECK_U64(d->kc.sectors[FSL_SG_WRITE], 8 * 6 + 16);
	CHECK_U64(d->not_seen.sectors[FSL_SG_WRITE], 8);
	/* latencies only of requests paired: the requeued one from its last issue */
	CHECK_U64(d->d2c.count, 5);
	CHECK_U64(d->d2c.sum, 5 * 1000);
	CHECK_U64(d->d2c.max, 1000);
	fsl_analysis__free(a);
}

TEST(blockio_flush_machinery)
{
	struct fx_meta f;
	/* /sys/block stat: reads 1 io 8 sectors, writes 3 ios 16 sectors, flush 1 */
	struct fsl_analysis *a = start(&f,
		"10 0 80 5 20 3 160 9 0 30 40 0 0 0 0 2 7",
		"11 0 88 6 23 3 176 10 0 31 41 0 0 0 0 3 8");
	const struct fsl_dev_io *d;

	REQUIRE(a);
	/* a preflush+FUA data request: its data, then its sequence's end (0 B, same sector) */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_INSERT, 1000, 1000, 8, W, 1), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 1100, 1000, 8, W, 1), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 2000, 1000, 8, W, 1), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 3000, 1000, 0, W, 1), 0);
	/* a data write in slot 2, then an empty preflush write in that slot:
	 * never issued, it ends at sector 0 */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 4000, 500, 8, W, 2), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 5000, 500, 8, W, 2), 0);
	/* the queue's flush request ran the cache flush */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 6000, 0, 0, FLUSH_RQ, 99), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 7000, 0, 0, FLUSH_RQ, 99), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 7100, 0, 0, W, 2), 0);
	/* a read */
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 8000, 3000, 8, FSL_RQ_READ, 3), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 9000, 3000, 8, FSL_RQ_READ, 3), 0);

	d = &fsl_analysis__blockio(a)->devs[0];
	CHECK_U64(d->double_completions, 1);
	CHECK_U64(d->flush_seq_ends, 1);
	CHECK_U64(d->unpaired[FSL_UNP_BEFORE_START] + d->unpaired[FSL_UNP_NO_ISSUE], 0);
	CHECK_U64(d->flush_rqs, 1);
	CHECK_U64(d->flush_d2c.sum, 1000);
	CHECK_U64(d->kc.ios[FSL_SG_WRITE], 3);
	CHECK_U64(d->kc.sectors[FSL_SG_WRITE], 16);
	CHECK_U64(d->kc.ios[FSL_SG_FLUSH], 1);
	CHECK_U64(d->kc.ios[FSL_SG_READ], 1);
	CHECK_U64(d->kc.sectors[FSL_SG_READ], 8);
	CHECK_EQ(d->have_kstat, 1);
	CHECK_U64(d->kstat.ios[FSL_SG_WRITE], d->kc.ios[FSL_SG_WRITE]);
	CHECK_U64(d->kstat.sectors[FSL_SG_WRITE], d->kc.sectors[FSL_SG_WRITE]);
	CHECK_U64(d->kstat.ios[FSL_SG_FLUSH], d->kc.ios[FSL_SG_FLUSH]);
	CHECK_U64(d->kstat.ios[FSL_SG_READ], d->kc.ios[FSL_SG_READ]);
	CHECK_U64(d->kstat.sectors[FSL_SG_READ], d->kc.sectors[FSL_SG_READ]);
	CHECK_U64(d->kstat_t0, 500);
	CHECK_U64(d->kstat_t1, 1000000);
	fsl_analysis__free(a);
}

/*
 * A completion unseen at the very end leaves its request in flight in the
 * trace; the kernel's end read shows none in flight: it completed.
 */
TEST(blockio_end_read_in_flight)
{
	struct fx_meta f;
	/* reads: 2 ios, 24 sectors; nothing in flight at the end */
	struct fsl_analysis *a = start(&f,
		"10 0 80 5 20 3 160 9 0 30 40 0 0 0 0 2 7",
		"12 0 104 6 20 3 160 9 0 31 41 0 0 0 0 2 7");
	const struct fsl_dev_io *d;
	unsigned int pass;

	REQUIRE(a);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 900, 7, DEV, 100, 8, FSL_RQ_READ), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 1000, 100, 8, FSL_RQ_READ, 1), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 2000, 100, 8, FSL_RQ_READ, 1), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 2900, 7, DEV, 200, 16, FSL_RQ_READ), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 3000, 200, 16, FSL_RQ_READ, 2), 0);
	/* read twice: the inference is undone and done again, not added up */
	for (pass = 0; pass < 2; pass++) {
		d = &fsl_analysis__blockio(a)->devs[0];
		CHECK_U64(d->unpaired[FSL_UNP_IN_FLIGHT], 0);
		CHECK_U64(d->unpaired[FSL_UNP_NOT_SEEN], 1);
		CHECK_U64(d->in_flight_end, 0);
		CHECK_U64(d->kstat_in_flight, 0);
		CHECK_U64(d->kc.ios[FSL_SG_READ] + d->not_seen.ios[FSL_SG_READ], d->kstat.ios[FSL_SG_READ]);
		CHECK_U64(d->kc.sectors[FSL_SG_READ] + d->not_seen.sectors[FSL_SG_READ],
			  d->kstat.sectors[FSL_SG_READ]);
		CHECK_U64(d->bios_not_seen, 1);
		CHECK_U64(d->d2c.count, 1);
	}
	fsl_analysis__free(a);
}

TEST(blockio_bio_stages)
{
	struct fx_meta f;
	struct fsl_analysis *a = start(&f, NULL, NULL);
	const struct fsl_dev_io *d;

	REQUIRE(a);
	/* two bios, the second appended to the first's request */
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 1000, 7, DEV, 0, 8, W), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_GETRQ, 1100, 7, DEV, 0, 8, W), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 1200, 7, DEV, 8, 8, W), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_BACKMERGE, 1210, 7, DEV, 8, 8, W), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 1300, 0, 16, W, 1), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 2300, 0, 16, W, 1), 0);
	/* a bio at the start of one in flight takes its place */
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 3000, 7, DEV, 100, 8, W), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 4000, 7, DEV, 100, 8, W), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 4100, 100, 8, W, 2), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 5000, 100, 8, W, 2), 0);
	/* a split bio: the second part's request is still the bio's (its Q) */
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 6000, 7, DEV, 200, 16, W), 0);
	CHECK_EQ(fx_split(a, 6005, DEV, 200, 16, 208), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_GETRQ, 6010, 7, DEV, 200, 8, W), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_GETRQ, 6030, 7, DEV, 208, 8, W), 0);
	/* a request whose completion the trace lacks: its bio leaves the latencies */
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 7000, 7, DEV, 300, 8, W), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 7100, 300, 8, W, 3), 0);
	CHECK_EQ(fx_bio(a, FSL_EV_BLOCK_BIO_QUEUE, 7900, 7, DEV, 400, 8, W), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 8000, 400, 8, W, 3), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 9000, 400, 8, W, 3), 0);

	d = &fsl_analysis__blockio(a)->devs[0];
	CHECK_EQ(d->bio_level, 1);
	CHECK_U64(d->bios, 7);
	CHECK_U64(d->bios_dup, 1);
	CHECK_U64(d->bio_merges, 1);
	CHECK_U64(d->splits, 1);
	CHECK_U64(d->bios_not_seen, 1);
	CHECK_U64(d->q2q.count, 6);
	CHECK_U64(d->q2q.sum, 7900 - 1000);
	/* G: the first bio's own, then the split's two parts, both the bio's */
	CHECK_U64(d->q2g.count, 3);
	CHECK_U64(d->q2g.sum, 100 + 10 + 30);
	CHECK_U64(d->q2m.count, 1);
	CHECK_U64(d->q2m.sum, 10);
	CHECK_U64(d->m2d.count, 1);
	CHECK_U64(d->m2d.sum, 90);
	/* D2C and Q2C per bio that completed: the two merged, the replacing one, the last */
	CHECK_U64(d->d2c.count, 4);
	CHECK_U64(d->d2c.sum, 1000 + 1000 + 900 + 1000);
	CHECK_U64(d->q2c.count, 4);
	CHECK_U64(d->q2c.sum, 1300 + 1100 + 1000 + 1100);
	CHECK_U64(d->kc.merges[FSL_SG_WRITE], 1);
	/* the request's Q2C is from its first bio's Q */
	CHECK_U64(d->issuers[0].q2c_max_ns, 1300);
	fsl_analysis__free(a);
}
