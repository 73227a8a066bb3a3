// SPDX-License-Identifier: GPL-2.0
/*
 * The default tier's journal handles (issue #20): the kernel sums a
 * transaction's jbd2_handle_start and jbd2_handle_stats per site and writes
 * one jbd2_handle_agg per site at T_FLUSH. Fed the same handles both ways
 * (each event, as --full records them, and the sums the probes would write),
 * the journal analysis must give the same figures: handles, per-site
 * counts, waits, maxima and callers, blocks dirtied per site, per
 * transaction and in total, and each transaction's busiest site. A handle
 * start the default tier records whole (a task out of a checkpoint,
 * FSL_HS_IN_AGG) is not counted twice.
 */
#include <string.h>
#include "fslens/analysis.h"
#include "an_fixture.h"
#include "t.h"

#define DEV	FSL_MKDEV(7, 3)
#define MS	1000000ull

struct hsite {
	uint32_t type, line;
	uint64_t ip;
};

static const struct hsite sites[3] = {
	{ 4, 2827, 0xffffffff81400100ull },	/* dir: __ext4_new_inode */
	{ 2, 2945, 0xffffffff81400200ull },	/* write_page */
	{ 1, 6120, 0xffffffff81400300ull },	/* inode */
};

struct hagg_sum {
	uint32_t started, stopped;
	uint64_t blocks, wait, max, ip;
};

static int feed_commit(struct fsl_analysis *a, uint64_t ts, uint32_t tid, unsigned int type)
{
	struct fsl_ev_jbd2_commit c;

	memset(&c, 0, sizeof(c));
	fx_hdr(&c.hdr, type, sizeof(c), ts, 300, 300);
	c.dev = DEV;
	c.transaction = tid;
	return fsl_analysis__feed(a, &c.hdr);
}

/* Two transactions of handles from four threads; agg: the default tier's records. */
static struct fsl_analysis *run(int agg)
{
	struct fsl_analysis_opts o = { .root_pid = -1 };
	struct hagg_sum sum[2][3];
	struct fsl_analysis *a;
	struct fx_meta fx;
	uint64_t ts = 1000 * MS;
	uint32_t tid;
	unsigned int i, s, k;
	int err = 0;

	memset(sum, 0, sizeof(sum));
	fx_init(&fx);
	a = fsl_analysis__new(&o, &err);
	if (!a || fsl_analysis__begin(a, &fx.m))
		return NULL;
	for (tid = 0; tid < 2; tid++) {
		for (i = 0; i < 60; i++) {
			struct fsl_ev_ext4_journal_start js;
			struct fsl_ev_jbd2_handle_start hs;
			struct fsl_ev_jbd2_handle_stats st;
			uint32_t thr = 100 + i % 4, blocks = (i * 7 + tid) % 5;
			uint64_t wait = 1000 + (i * 7919 % 13) * 100000;
			int chp = tid == 1 && i == 17;	/* out of a checkpoint */

			s = (i + tid) % 3;
			memset(&js, 0, sizeof(js));
			fx_hdr(&js.hdr, FSL_EV_EXT4_JOURNAL_START_SB, sizeof(js), ts, thr, thr);
			js.dev = DEV;
			js.ip = sites[s].ip;
			js.type = sites[s].type;
			memset(&hs, 0, sizeof(hs));
			fx_hdr(&hs.hdr, FSL_EV_JBD2_HANDLE_START, sizeof(hs), ts + wait, thr, thr);
			hs.dev = DEV;
			hs.tid = 50 + tid;
			hs.type = sites[s].type;
			hs.line_no = sites[s].line;
			memset(&st, 0, sizeof(st));
			fx_hdr(&st.hdr, FSL_EV_JBD2_HANDLE_STATS, sizeof(st), ts + wait + 5000, thr, thr);
			st.dev = DEV;
			st.tid = 50 + tid;
			st.type = sites[s].type;
			st.line_no = sites[s].line;
			st.dirtied_blocks = blocks;
			if (!agg) {
				if (fsl_analysis__feed(a, &js.hdr) || fsl_analysis__feed(a, &hs.hdr) ||
				    fsl_analysis__feed(a, &st.hdr))
					return NULL;
			} else {
				struct hagg_sum *h = &sum[tid][s];

				h->started++;
				h->stopped++;
				h->blocks += blocks;
				h->wait += wait;
				if (wait > h->max)
					h->max = wait;
				if (!h->ip)
					h->ip = sites[s].ip;
				hs.flags = FSL_HS_IN_AGG;
				if (chp && fsl_analysis__feed(a, &hs.hdr))
					return NULL;
			}
			ts += 3 * MS;
		}
		if (feed_commit(a, ts, 50 + tid, FSL_EV_JBD2_START_COMMIT) ||
		    feed_commit(a, ts + MS, 50 + tid, FSL_EV_JBD2_COMMIT_LOCKING) ||
		    feed_commit(a, ts + 2 * MS, 50 + tid, FSL_EV_JBD2_COMMIT_FLUSHING))
			return NULL;
		for (k = 0; agg && k < 3; k++) {
			struct fsl_ev_jbd2_handle_agg g;
			const struct hagg_sum *h = &sum[tid][k];

			memset(&g, 0, sizeof(g));
			fx_hdr(&g.hdr, FSL_EV_JBD2_HANDLE_AGG, sizeof(g), ts + 2 * MS + 1, 300, 300);
			g.dev = DEV;
			g.tid = 50 + tid;
			g.type = sites[k].type;
			g.line_no = sites[k].line;
			g.started = h->started;
			g.stopped = h->stopped;
			g.blocks = h->blocks;
			g.wait_ns = h->wait;
			g.max_ns = h->max;
			g.ip = h->ip;
			if (fsl_analysis__feed(a, &g.hdr))
				return NULL;
		}
		if (feed_commit(a, ts + 3 * MS, 50 + tid, FSL_EV_JBD2_COMMIT_LOGGING) ||
		    feed_commit(a, ts + 4 * MS, 50 + tid, FSL_EV_JBD2_END_COMMIT))
			return NULL;
		ts += 10 * MS;
	}
	return a;
}

static int site_cmp(const struct fsl_handle_site *x, const struct fsl_handle_site *y)
{
	return x->type != y->type || x->line != y->line || x->count != y->count ||
	       x->wait_ns != y->wait_ns || x->max_ns != y->max_ns || x->ip != y->ip ||
	       x->stopped != y->stopped || x->blocks != y->blocks;
}

TEST(hagg_equals_each_handle)
{
	struct fsl_analysis *f = run(0), *d = run(1);
	const struct fsl_journal *jf, *jd;
	unsigned int i;

	CHECK(f && d);
	if (!f || !d)
		return;
	jf = fsl_analysis__journal(f);
	jd = fsl_analysis__journal(d);
	CHECK_EQ(jf->handles, 120);
	CHECK_EQ(jd->handles, jf->handles);
	CHECK_EQ(jd->handles_stopped, jf->handles_stopped);
	CHECK(jf->dirtied > 0);
	CHECK_EQ(jd->dirtied, jf->dirtied);
	CHECK_EQ(jf->nsites, 3);
	CHECK_EQ(jd->nsites, jf->nsites);
	for (i = 0; i < jf->nsites && i < jd->nsites; i++) {
		CHECK(jf->sites[i].wait_ns > 0 && jf->sites[i].ip);
		CHECK_EQ(site_cmp(&jd->sites[i], &jf->sites[i]), 0);
	}
	CHECK_EQ(jd->ncontents, jf->ncontents);
	for (i = 0; i < jf->ncontents && i < jd->ncontents; i++)
		CHECK_EQ(site_cmp(&jd->contents[i], &jf->contents[i]), 0);
	CHECK_EQ(jf->ntxns, 2);
	CHECK_EQ(jd->ntxns, jf->ntxns);
	for (i = 0; i < jf->ntxns && i < jd->ntxns; i++) {
		CHECK(jf->txns[i].dirtied > 0);
		CHECK_EQ(jd->txns[i].dirtied, jf->txns[i].dirtied);
		CHECK_EQ(jd->txns[i].stats_handles, jf->txns[i].stats_handles);
		CHECK_EQ(jd->txns[i].top_type, jf->txns[i].top_type);
		CHECK_EQ(jd->txns[i].top_line, jf->txns[i].top_line);
		CHECK_EQ(jd->txns[i].top_blocks, jf->txns[i].top_blocks);
	}
	fsl_analysis__free(f);
	fsl_analysis__free(d);
}
