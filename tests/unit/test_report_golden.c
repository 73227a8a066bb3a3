// SPDX-License-Identifier: GPL-2.0
/*
 * Golden test: the synthetic trace of report_golden.h, written with the
 * trace writer, read back with the reader, every section checked against
 * numbers computed by hand (see the comments at each check).
 */
#include <errno.h>
#include <stdlib.h>
#include "fslens/analysis.h"
#include "fslens/report.h"
#include "fslens/session.h"
#include "report_golden.h"
#include "t.h"

#define MS 1000000ull
#define US 1000ull

struct golden {
	struct fsl_reader *r;
	struct fsl_meta m;
	struct fsl_analysis *a;
};

static int golden_open(struct golden *g, const char *path, const struct fsl_analysis_opts *o)
{
	const struct fsl_hdr *ev;
	int err = 0;

	memset(g, 0, sizeof(*g));
	g->r = fsl_reader__open(path, NULL, &err);
	if (!g->r)
		return err;
	fsl_meta_from_reader(&g->m, g->r);
	g->a = fsl_analysis__new(o, &err);
	if (!g->a)
		return err;
	if ((err = fsl_analysis__begin(g->a, &g->m)))
		return err;
	while ((err = fsl_reader__next(g->r, &ev)) > 0)
		if ((err = fsl_analysis__feed(g->a, ev)))
			return err;
	return err;
}

static void golden_close(struct golden *g)
{
	fsl_analysis__free(g->a);
	fsl_reader__close(g->r);
}

TEST(golden_all_sections)
{
	struct fsl_analysis_opts o = { .root_pid = -1 };
	struct golden g;
	const struct fsl_stalls *s;
	const struct fsl_ops *ops;
	const struct fsl_journal *j;
	const struct fsl_writeback *wb;
	const struct fsl_blockio *io;
	const struct fsl_dev_io *d;
	const struct fsl_layout *l;
	const struct fsl_frag_break *br;
	const struct fsl_health *h;
	struct fsl_diagnosis diag;
	uint64_t hist[16];
	const char *path = t_path("golden.trace");

	REQUIRE(g_write_golden(path) == 0);
	REQUIRE(golden_open(&g, path, &o) == 0);

	/* stalls: workload = sh(100) + mkdir(101): 900 + 100 ms */
	s = fsl_analysis__stalls(g.a);
	CHECK_U64(s->ns[FSL_ROLE_WORKLOAD], 1000 * MS);
	CHECK_U64(s->ns[FSL_ROLE_KTHREAD], 400 * MS);
	CHECK_U64(s->ns[FSL_ROLE_OTHER], 50 * MS);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].ns[0], 900 * MS);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].count[0], 3);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].max_ns, 600 * MS);
	CHECK_U64(s->cls[FSL_WC_TXN_LOCKED].ns[0], 100 * MS);
	CHECK_U64(s->cls[FSL_WC_OTHER_IO].ns[FSL_ROLE_KTHREAD], 400 * MS);
	CHECK_U64(s->cls[FSL_WC_DIR_BLOCK_READ].ns[FSL_ROLE_OTHER], 50 * MS);
	fsl_analysis__diagnose(g.a, &diag);
	REQUIRE(diag.ncauses == 2);
	CHECK_EQ(diag.causes[0].cls, FSL_WC_JOURNAL_LOG_SPACE);
	CHECK_NEAR(diag.causes[0].share, 0.9, 1e-9);
	CHECK_EQ(diag.causes[1].cls, FSL_WC_TXN_LOCKED);
	CHECK_NEAR(diag.causes[1].share, 0.1, 1e-9);
	CHECK(strstr(diag.causes[0].suggestion, "journal size (now 1.0 MiB)") != NULL);
	CHECK(strstr(diag.causes[0].evidence, "3 waits, longest 600.0 ms") != NULL);
	CHECK(strstr(diag.causes[0].evidence, "1 checkpoints wrote 16 buffers") != NULL);
	CHECK(strstr(diag.causes[0].evidence, "__jbd2_log_wait_for_space <- add_transaction_credits") != NULL);
	CHECK_U64(diag.causes[0].kthread_ns, 0);

	/* ops: mkdir 100/200/300 us and 10 ms; p50 = the 2nd value's bucket */
	ops = fsl_analysis__ops(g.a);
	REQUIRE(ops);
	CHECK_U64(ops->total, 6);
	CHECK_U64(ops->outside, 1);
	CHECK_U64(ops->op[FSL_OP_STAT].count, 2);
	CHECK_U64(ops->op[FSL_OP_MKDIR].count, 4);
	CHECK_U64(ops->op[FSL_OP_MKDIR].errors, 0);
	CHECK_NEAR(fsl_hist_quantile(&ops->op[FSL_OP_MKDIR].lat, 0.5), 200 * US, 200 * US / 64.0);
	CHECK_U64(fsl_hist_quantile(&ops->op[FSL_OP_MKDIR].lat, 0.99), 10 * MS);
	CHECK_U64(ops->op[FSL_OP_MKDIR].lat.max, 10 * MS);
	CHECK_U64(ops->op[FSL_OP_MKDIR].lat.sum, 10600 * US);
	CHECK_U64(ops->op[FSL_OP_STAT].errors, 1);
	CHECK_EQ(ops->ndirs, 3);
	CHECK_STR(ops->dirs[0].path, "/mnt/golden/d");
	CHECK_U64(ops->dirs[0].ops, 4);
	CHECK_U64(ops->dirs[0].lookup_wait_ns, 0);
	CHECK_STR(ops->dirs[1].path, "/mnt/golden/big");	/* 1 op, 70 ms */
	CHECK_U64(ops->dirs[1].lookup_wait_ns, 50 * MS);
	CHECK_STR(ops->dirs[2].path, "/mnt/golden");
	/* bins from 1 s: the last call ends at 5.06 s, so 10 ms bins folded twice
	 * to 40 ms; mkdirs end at 0.1001, 0.2002, 0.3003, 0.41 s, the stat at 0.45005 */
	CHECK_U64(ops->tb.width_ns, 40 * MS);
	CHECK_U64(ops->series_create[2], 1);
	CHECK_U64(ops->series_create[10], 1);
	CHECK_U64(ops->series_all[11], 1);
	CHECK_U64(ops->series_all[126], 1);
	{
		const struct fsl_proc_stat *ps;
		unsigned int np = fsl_analysis__procs(g.a, &ps), k;

		for (k = 0; k < np && ps[k].pid != 101; k++)
			;
		REQUIRE(k < np);
		CHECK_U64(ps[k].ops, 5);	/* 4 mkdir + 1 stat; the outside one is not ours */
		CHECK_U64(fsl_hist_quantile(&ps[k].op_lat, 0.99), 10 * MS);
		CHECK_STR(ps[k].comm, "mkdir");
	}

	/* journal */
	j = fsl_analysis__journal(g.a);
	REQUIRE(j);
	CHECK_U64(j->commits, 4);
	CHECK_U64(fsl_hist_avg(&j->commit_ns), 5 * MS);	/* (2+4+6+8)/4 */
	CHECK_U64(j->ewma_commit_ns, 4393847);		/* 2000 us seed, 3/4 old + 1/4 new */
	CHECK_U64(j->trig[FSL_TRIG_TIMER], 1);
	CHECK_U64(j->trig[FSL_TRIG_LOG_SPACE], 1);
	CHECK_U64(j->trig[FSL_TRIG_FSYNC], 1);
	CHECK_U64(j->trig[FSL_TRIG_FULL], 1);
	REQUIRE(j->ntxns == 4);
	CHECK_EQ(j->txns[0].tid, 11);
	CHECK_EQ(j->txns[0].trigger, FSL_TRIG_TIMER);
	CHECK_EQ(j->txns[1].trigger, FSL_TRIG_LOG_SPACE);
	CHECK_EQ(j->txns[2].trigger, FSL_TRIG_FSYNC);
	CHECK_EQ(j->txns[3].trigger, FSL_TRIG_FULL);
	CHECK_U64(j->txns[0].running_ns, 5000 * MS);	/* 1250 jiffies at HZ 250 */
	CHECK_U64(j->txns[3].t_end - j->txns[3].t_logging, 7500 * US);
	CHECK_U64(j->stats_txns, 4);
	CHECK_U64(j->phase_txns, 4);
	CHECK_U64(j->sum_locked_phase_ns, 400 * US);	/* 0.1 ms each */
	CHECK_U64(j->sum_logging_phase_ns, (1500 + 3500 + 5500 + 7500) * US);
	CHECK_U64(j->sum_handles, 85);
	CHECK_U64(j->sum_blocks, 328);
	CHECK_U64(j->handles, 3);
	REQUIRE(j->nsites == 2);
	CHECK_EQ(j->sites[0].type, 4);
	CHECK_EQ(j->sites[0].line, 123);
	CHECK_U64(j->sites[0].count, 2);
	CHECK_U64(j->sites[0].wait_ns, 2 * MS);
	CHECK_U64(j->sites[0].max_ns, 1500 * US);
	CHECK_U64(j->sites[1].wait_ns, 0);
	CHECK_U64(j->checkpoints, 1);
	CHECK_U64(j->chp_time_ns, 8 * MS);
	CHECK_U64(j->chp_written, 16);
	CHECK_U64(j->lock_buffer_stall_ns, 3 * MS);
	REQUIRE(fsl_analysis__jbd2_end(g.a));
	CHECK_U64(fsl_analysis__jbd2_end(g.a)->transactions - fsl_analysis__jbd2_start(g.a)->transactions,
		  j->commits);
	CHECK_U64(fsl_analysis__jbd2_end(g.a)->avg_commit_us, j->ewma_commit_ns / 1000);

	/* writeback */
	wb = fsl_analysis__writeback(g.a);
	REQUIRE(wb);
	CHECK_U64(wb->pages[3], 24);	/* periodic: 1024 - 1000 */
	CHECK_U64(wb->pages[0], 100);	/* background: LONG_MAX - (LONG_MAX - 100) */
	CHECK_U64(wb->works[3], 1);
	REQUIRE(wb->ninodes == 2);
	CHECK_U64(wb->inodes[0].ino, 12);
	CHECK_U64(wb->inodes[0].pages, 64);
	CHECK_U64(wb->inodes[0].passes, 2);
	CHECK_U64(wb->inodes[1].pages, 60);
	CHECK_U64(wb->throttle_pauses, 2);
	CHECK_U64(wb->throttle_ns, 50 * MS);
	REQUIRE(wb->nthrottled == 1);
	CHECK_STR(wb->throttled[0].comm, "mkdir");
	CHECK_U64(wb->dirty_thresh, 5120);

	/* block I/O */
	io = fsl_analysis__blockio(g.a);
	REQUIRE(io && io->ndevs == 1);
	d = &io->devs[0];
	CHECK_EQ(d->dev, G_DEV);
	CHECK_U64(d->completed, 5);	/* 4 with data, 1 cache flush */
	CHECK_U64(d->flush_rqs, 1);
	CHECK_U64(d->completions, 6);	/* + rq 4's second, zero-byte completion */
	CHECK_U64(d->double_completions, 1);
	CHECK_U64(io->unmatched, 0);
	CHECK_U64(d->reads, 1);
	CHECK_U64(d->writes, 3);
	CHECK_U64(d->read_bytes, 8192);
	CHECK_U64(d->write_bytes, 12288);
	CHECK_U64(d->meta, 1);
	CHECK_U64(d->flushes, 2);	/* rq 4 (preflush) and rq 5 */
	CHECK_U64(d->merges, 1);
	/* btt's: requests with data only */
	CHECK_U64(fsl_hist_avg(&d->q2c), 2025 * US);	/* (1.1 + 2 + 4 + 1) / 4 ms */
	CHECK_U64(fsl_hist_avg(&d->d2c), 1750 * US);	/* (1 + 2 + 3 + 1) / 4 ms */
	CHECK_U64(d->q2c.count, 4);
	CHECK_U64(d->q2d.max, 1 * MS);
	CHECK_U64(d->flush_d2c.count, 1);
	CHECK_U64(d->flush_d2c.sum, 2500 * US);
	CHECK_U64(d->flush_q2c.sum, 2500 * US);	/* issued directly: Q = D */
	/*
	 * btt D2D from sector 0: 1000+8 -> 1000; 1008+8 touches it -> 0;
	 * 500+16 before 1008 -> -(1008 - 500) = -508; 2000+8 after 516 -> 1484.
	 * The flush (no data) is no dispatch for seeks.
	 */
	CHECK_U64(d->d2d, 4);
	CHECK_U64(d->seq, 1);
	CHECK_U64(d->seeks, 3);
	CHECK_U64(d->backward, 1);
	CHECK_U64(d->seek_total, 2992);		/* 1000 + 0 + 508 + 1484 */
	CHECK_U64(d->seek_dist.sum, 2992);
	CHECK_U64(d->seek_abs.count, 4);
	CHECK_U64(fsl_hist_quantile(&d->seek_abs, 0.5), 508);	/* 0 508 | 1000 1484 */
	CHECK_U64(d->seek_mode, 0);		/* all once: the smallest */
	CHECK_U64(d->seek_mode_count, 1);
	REQUIRE(d->nissuers == 3);
	CHECK_STR(d->issuers[0].comm, "jbd2/loop0-8");
	CHECK_U64(d->issuers[0].ios, 2);
	CHECK_STR(d->issuers[1].comm, "mkdir");
	CHECK_STR(d->issuers[2].comm, "kworker/u8:1");

	/* layout */
	l = fsl_analysis__layout(g.a);
	REQUIRE(l);
	CHECK_U64(fsl_layout__files(l), 3);
	CHECK_U64(fsl_layout__fragmented(l), 2);
	REQUIRE(fsl_layout__breaks(l, &br) == 2);
	CHECK_U64(br[0].ino, 12);
	CHECK_EQ(br[0].kind, 'f');
	CHECK_U64(br[0].expect, 5008);
	CHECK_U64(br[0].phys, 5016);
	CHECK_U64(br[0].log, 8);
	CHECK_U64(br[0].len, 8);
	CHECK_U64(br[0].taker_ino, 13);
	CHECK_EQ(br[0].taker_how, FSL_HOW_WRITEBACK);
	CHECK_U64(br[1].ino, 13);
	CHECK_U64(br[1].expect, 5016);
	CHECK_U64(br[1].phys, 5024);
	CHECK_U64(br[1].len, 4);
	CHECK_U64(br[1].taker_ino, 12);
	fsl_layout__extent_hist(l, hist);
	CHECK_U64(hist[0], 1);	/* dir 14: one extent */
	CHECK_U64(hist[1], 2);	/* 12 and 13: two */
	{
		double mean;

		/* 8 inodes, 1024 blocks per group: inodes 12-14 in group 1; data of
		 * 12, 13 at 5000.. (group 4), of 14 at 9000 (group 8): 3, 3, 7 */
		CHECK_U64(fsl_layout__inode_distance(l, hist, &mean), 3);
		CHECK_NEAR(mean, 13.0 / 3, 1e-9);
		CHECK_U64(hist[2], 2);	/* 2..3 groups apart */
		CHECK_U64(hist[3], 1);	/* 4..7 */
	}

	/* health */
	h = fsl_analysis__health(g.a);
	CHECK_U64(h->lost[FSL_FAM_OFFCPU], 3);
	CHECK_U64(h->events[FSL_FAM_OFFCPU], 6);
	CHECK_U64(h->events[FSL_FAM_BLOCK], 14);
	CHECK_U64(h->min_wait_us, 10);
	golden_close(&g);
}

/* Renderers on the golden trace: the lines a user reads, as computed by hand. */
TEST(golden_text_and_json)
{
	struct fsl_analysis_opts o = { .root_pid = -1 };
	struct fsl_report_info info = { .trace_path = "golden.trace" };
	struct golden g;
	char *buf = NULL, *line;
	size_t len = 0, maxw = 0;
	FILE *f;

	REQUIRE(g_write_golden(t_path("golden.trace")) == 0);
	REQUIRE(golden_open(&g, t_path("golden.trace"), &o) == 0);
	f = open_memstream(&buf, &len);
	REQUIRE(f);
	CHECK_EQ(fsl_report__text(f, g.a, &info), 0);
	fclose(f);
	CHECK(strstr(buf, "  1  journal_log_space        900.0 ms   90.0%        3") != NULL);
	CHECK(strstr(buf, "  2  txn_locked               100.0 ms   10.0%        1") != NULL);
	CHECK(strstr(buf, "    12(f): expecting   5008 actual extent phys   5016 log 8 len 8\n") != NULL);
	CHECK(strstr(buf, "    13(f): expecting   5016 actual extent phys   5024 log 8 len 4\n") != NULL);
	CHECK(strstr(buf, "block 5008 went to inode 13 at +6.060 s (writeback)") != NULL);
	CHECK(strstr(buf, "4 transactions (delta) vs 4 here; avg commit 4393 us vs 4393 us here") != NULL);
	CHECK(strstr(buf, "3 lost") != NULL);
	CHECK(strstr(buf, "seeks (D2D): 3 of 4 dispatches, 0.3/s; sequential 25.0%, backward 25.0%") != NULL);
	CHECK(strstr(buf, "distance (sectors, all dispatches): mean 748.0, median 508, mode 0 (1x)") != NULL);
	CHECK(strstr(buf, "requests: 4 with data, 1 cache flush (0 B); completions 6"
			  " (1 second, preflush/FUA)\n") != NULL);
	CHECK(strstr(buf, "    flush D2C     2.5 ms     2.5 ms     2.5 ms     2.5 ms\n") != NULL);
	for (line = buf; *line;) {
		size_t n = strcspn(line, "\n");

		if (n > maxw)
			maxw = n;
		line += n + (line[n] ? 1 : 0);
	}
	CHECK(maxw <= 100);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	REQUIRE(f);
	CHECK_EQ(fsl_report__json(f, g.a, &info), 0);
	fclose(f);
	CHECK(strstr(buf, "\"class\": \"journal_log_space\"") != NULL);
	CHECK(strstr(buf, "\"share\": 0.9") != NULL);
	CHECK(strstr(buf, "\"q2c_avg_us\": 2025") != NULL);
	CHECK(strstr(buf, "\"d2c_avg_us\": 1750") != NULL);
	CHECK(strstr(buf, "\"avg_commit_us\": 5000") != NULL);
	CHECK(strstr(buf, "\"seq_pct\": 25") != NULL);
	CHECK(strstr(buf, "\"flush_requests\": 1") != NULL);
	CHECK(strstr(buf, "\"flush_d2c_avg_us\": 2500") != NULL);
	CHECK(strstr(buf, "\"completions\": 6") != NULL);
	CHECK(strstr(buf, "\"double_completions\": 1") != NULL);
	CHECK(strstr(buf, "\"seek_mean_sectors\": 748") != NULL);
	CHECK(strstr(buf, "\"fragmented_files\": 2") != NULL);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	REQUIRE(f);
	CHECK_EQ(fsl_report__html(f, g.a, &info), 0);
	fclose(f);
	CHECK(strstr(buf, "<svg") != NULL);
	CHECK(strstr(buf, "http://") == NULL || strstr(buf, "xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
	CHECK(strstr(buf, "<script") == NULL);
	free(buf);
	golden_close(&g);
}

/*
 * tests/data/golden.trace (used by tests/cli/report_*.sh) must hold exactly
 * the events this generator writes. FSL_REGEN_GOLDEN=1 rewrites it.
 */
TEST(golden_fixture_current)
{
	const char *top = getenv("TOP");
	char fixture[512];
	struct fsl_reader *a, *b;
	const struct fsl_hdr *ea, *eb;
	int ra, rb, err = 0;
	uint64_t n = 0;

	snprintf(fixture, sizeof(fixture), "%s/tests/data/golden.trace", top ? top : ".");
	if (getenv("FSL_REGEN_GOLDEN"))
		REQUIRE(g_write_golden(fixture) == 0);
	REQUIRE(g_write_golden(t_path("fresh.trace")) == 0);
	a = fsl_reader__open(fixture, NULL, &err);
	REQUIRE(a);
	b = fsl_reader__open(t_path("fresh.trace"), NULL, &err);
	REQUIRE(b);
	for (;;) {
		ra = fsl_reader__next(a, &ea);
		rb = fsl_reader__next(b, &eb);
		if (ra != rb) {
			t_fail(__FILE__, __LINE__, "event count differs after %" PRIu64 " events", n);
			break;
		}
		if (ra <= 0)
			break;
		if (ea->size != eb->size || memcmp(ea, eb, ea->size)) {
			t_fail(__FILE__, __LINE__, "event %" PRIu64 " differs: regenerate with "
			       "FSL_REGEN_GOLDEN=1 build/tests/unit golden_fixture", n);
			break;
		}
		n++;
	}
	CHECK(n > 50);
	CHECK_STR(fsl_reader__kv(a, FSL_KV_HOSTNAME), "golden");
	fsl_reader__close(a);
	fsl_reader__close(b);
}
