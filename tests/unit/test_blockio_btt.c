// SPDX-License-Identifier: GPL-2.0
/*
 * Block I/O figures by btt's rules, on hand-built request sequences: seek
 * distances (btt seek.c: from sector 0 first, 0 on overlap or touch,
 * backward from the previous start), zero-byte requests apart, the second
 * completion of a flush-machinery request, a dispatch at time 0.
 */
#include "t.h"
#include "an_fixture.h"

#define DEV	FSL_MKDEV(8, 16)

static int rq(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint64_t sector,
	      uint32_t nr, uint64_t id)
{
	return fx_rq(a, type, ts, 7, DEV, sector, nr,
		     nr ? FSL_RQ_WRITE : FSL_RQ_FLUSH | FSL_RQ_NONE, id);
}

/* issue + complete after `lat` ns */
static void io(struct fsl_analysis *a, uint64_t ts, uint64_t sector, uint32_t nr, uint64_t id,
	       uint64_t lat)
{
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, ts, sector, nr, id), 0);
	CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, ts + lat, sector, nr, id), 0);
}

static struct fsl_analysis *start(struct fx_meta *f, int imported)
{
	struct fsl_analysis *a;

	fx_init(f);
	fx_set(f, "record.start_ns", "0");
	if (imported)
		fx_set(f, "import.source", "blktrace");
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, NULL);
	if (a && fsl_analysis__begin(a, &f->m)) {
		fsl_analysis__free(a);
		return NULL;
	}
	return a;
}

TEST(blockio_btt_seeks)
{
	struct fx_meta f;
	struct fsl_analysis *a = start(&f, 0);
	const struct fsl_dev_io *d;

	REQUIRE(a);
	/* a dispatch at time 0 (a blkparse -d dump starts there) counts */
	io(a, 0, 100, 8, 1, 1000);		/* from 0+0: 100 */
	io(a, 2000, 96, 8, 2, 1000);		/* 96..104 overlaps 100..108: 0 */
	io(a, 4000, 104, 8, 3, 1000);		/* starts at 104, inside 96..104: 0 */
	io(a, 6000, 50, 8, 4, 1000);		/* before: 50 - 104 = -54 */
	io(a, 8000, 40, 10, 5, 1000);		/* 40..50 ends at 50, the previous start: 0 */
	io(a, 10000, 1000, 8, 6, 1000);		/* after 50: 950 */
	io(a, 12000, UINT64_MAX, 0, 7, 5000);	/* a cache flush: no dispatch for seeks */
	io(a, 20000, 1008, 8, 8, 1000);		/* touches 1000..1008: 0 */
	d = &fsl_analysis__blockio(a)->devs[0];
	CHECK_EQ(d->dev, DEV);
	CHECK_U64(d->completed, 8);
	CHECK_U64(d->flush_rqs, 1);
	CHECK_U64(d->d2d, 7);
	CHECK_U64(d->seeks, 3);
	CHECK_U64(d->seq, 4);
	CHECK_U64(d->backward, 1);
	CHECK_U64(d->seek_total, 100 + 54 + 950);
	CHECK_U64(d->seek_mode, 0);
	CHECK_U64(d->seek_mode_count, 4);
	CHECK_U64(d->d2c.count, 7);
	CHECK_U64(d->d2c.sum, 7000);
	CHECK_U64(d->flush_d2c.sum, 5000);
	CHECK_U64(fsl_analysis__blockio(a)->unmatched, 0);
	fsl_analysis__free(a);
}

TEST(blockio_btt_double_completion)
{
	unsigned int imported;

	for (imported = 0; imported < 2; imported++) {
		struct fx_meta f;
		struct fsl_analysis *a = start(&f, imported);
		const struct fsl_dev_io *d;

		REQUIRE(a);
		io(a, 1000, 200, 8, 1, 1000);
		/* the end of the flush sequence: 0 bytes, same sector; an
		 * import gives it a new identity */
		CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 3000, 200, 0, imported ? 9 : 1), 0);
		/* a zero-byte completion of nothing seen: not a double */
		CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 4000, 300, 0, 10), 0);
		/* re-issued: its zero-byte completion ends the request in
		 * flight (its size is the dispatch's), no double */
		io(a, 5000, 200, 8, 1, 1000);
		CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_ISSUE, 7000, 200, 8, 1), 0);
		CHECK_EQ(rq(a, FSL_EV_BLOCK_RQ_COMPLETE, 7500, 200, 0, 1), 0);
		d = &fsl_analysis__blockio(a)->devs[0];
		CHECK_U64(d->completed, 3);
		CHECK_U64(d->completions, 5);
		CHECK_U64(d->double_completions, 1);
		CHECK_U64(d->flush_rqs, 0);
		CHECK_U64(d->d2c.count, 3);
		CHECK_U64(fsl_analysis__blockio(a)->unmatched, 1);
		fsl_analysis__free(a);
	}
}
