// SPDX-License-Identifier: GPL-2.0
/*
 * fslens top steps windows with fsl_analysis__reset() on a live stream;
 * fslens report --from/--to sets the window up front. Over the same
 * interval both must print the same numbers: checked here on the golden
 * trace by comparing the whole JSON report of both ways, for several windows.
 */
#include <stdlib.h>
#include "fslens/analysis.h"
#include "fslens/report.h"
#include "fslens/session.h"
#include "report_golden.h"
#include "t.h"

static char *run(const char *path, uint64_t t0, uint64_t t1, int stepped)
{
	struct fsl_analysis_opts o = { .root_pid = -1 };
	struct fsl_report_info info = { .trace_path = "w" };
	struct fsl_analysis *a;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	struct fsl_meta m;
	char *buf = NULL;
	size_t len = 0;
	int err = 0, reset = 0;
	FILE *f;

	if (!stepped) {
		o.t0 = t0;
		o.t1 = t1;
	} else {
		o.hold = 1;
	}
	r = fsl_reader__open(path, NULL, &err);
	if (!r)
		return NULL;
	fsl_meta_from_reader(&m, r);
	a = fsl_analysis__new(&o, &err);
	if (!a || fsl_analysis__begin(a, &m))
		return NULL;
	if (stepped)	/* an earlier window, as top would have shown */
		fsl_analysis__reset(a, 0, t0 / 2);
	while (fsl_reader__next(r, &ev) > 0) {
		if (stepped && !reset && ev->ts >= t0) {
			fsl_analysis__reset(a, t0, t1);
			reset = 1;
		}
		if (fsl_analysis__feed(a, ev))
			return NULL;
	}
	if (stepped && !reset)
		fsl_analysis__reset(a, t0, t1);
	f = open_memstream(&buf, &len);
	if (f) {
		fsl_report__json(f, a, &info);
		fclose(f);
	}
	fsl_analysis__free(a);
	fsl_reader__close(r);
	return buf;
}

TEST(window_stepped_equals_report_window)
{
	static const uint64_t w[][2] = {
		{ G_T(0), G_T(1500) }, { G_T(1500), G_T(3500) }, { G_T(2000), G_T(2100) },
		{ G_T(5000), G_T(7000) }, { G_T(6000), G_T(6005) }, { G_T(0), G_T(10000) },
	};
	const char *path = t_path("g.trace");
	unsigned int i;

	REQUIRE(g_write_golden(path) == 0);
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		char *a = run(path, w[i][0], w[i][1], 0);
		char *b = run(path, w[i][0], w[i][1], 1);

		REQUIRE(a && b);
		if (strcmp(a, b)) {
			size_t k = 0;

			while (a[k] == b[k])
				k++;
			t_fail(__FILE__, __LINE__, "window %u differs at byte %zu: '%.60s' vs '%.60s'", i, k,
			       a + (k > 20 ? k - 20 : 0), b + (k > 20 ? k - 20 : 0));
		}
		/* and the window really selects something different each time */
		CHECK(strstr(a, "\"t0_ns\"") != NULL);
		free(a);
		free(b);
	}
}

/* The windows partition the whole: blocked time and I/O counts add up. */
TEST(window_partition_sums)
{
	const char *path = t_path("g.trace");
	uint64_t cuts[] = { G_T(0), G_T(1700), G_T(3050), G_T(6002), G_T(10001) };
	uint64_t ns = 0, io = 0, commits = 0;
	unsigned int i;

	REQUIRE(g_write_golden(path) == 0);
	for (i = 0; i + 1 < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct fsl_analysis_opts o = { .root_pid = -1, .t0 = cuts[i], .t1 = cuts[i + 1] };
		struct fsl_analysis *a = fsl_analysis__new(&o, NULL);
		struct fsl_reader *r = fsl_reader__open(path, NULL, NULL);
		const struct fsl_hdr *ev;
		struct fsl_meta m;

		REQUIRE(a && r);
		fsl_meta_from_reader(&m, r);
		REQUIRE(fsl_analysis__begin(a, &m) == 0);
		while (fsl_reader__next(r, &ev) > 0)
			REQUIRE(fsl_analysis__feed(a, ev) == 0);
		ns += fsl_analysis__stalls(a)->ns[FSL_ROLE_WORKLOAD];
		io += fsl_analysis__blockio(a)->ndevs ? fsl_analysis__blockio(a)->devs[0].completed : 0;
		commits += fsl_analysis__journal(a)->commits;
		fsl_analysis__free(a);
		fsl_reader__close(r);
	}
	CHECK_U64(ns, 1000 * G_MS);
	CHECK_U64(io, 5);	/* 4 requests with data and a cache flush */
	CHECK_U64(commits, 4);
}

/*
 * The timelines of the golden trace follow the window rule bin by bin:
 * mkdir, the one workload thread that waits, is never more than one task
 * blocked in a bin (before, its 600 ms wait landed whole in the 20 ms bin
 * where it ended: 30 tasks), the bins add up to the totals, and that wait
 * fills exactly the thirty bins from 1.0 s to 1.6 s.
 */
TEST(window_timeline_bins_split_by_overlap)
{
	struct fsl_analysis_opts o = { .root_pid = -1 };
	const char *path = t_path("g.trace");
	const struct fsl_writeback *wb;
	const struct fsl_stalls *s;
	struct fsl_analysis *a;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	struct fsl_meta m;
	uint64_t sum = 0, bin, w;
	unsigned int i, c;

	REQUIRE(g_write_golden(path) == 0);
	a = fsl_analysis__new(&o, NULL);
	r = fsl_reader__open(path, NULL, NULL);
	REQUIRE(a && r);
	fsl_meta_from_reader(&m, r);
	REQUIRE(fsl_analysis__begin(a, &m) == 0);
	while (fsl_reader__next(r, &ev) > 0)
		REQUIRE(fsl_analysis__feed(a, ev) == 0);
	s = fsl_analysis__stalls(a);
	w = s->tb.width_ns;
	CHECK_U64(s->tb.t0, G_S0);
	CHECK_U64(w, 20 * G_MS);
	for (i = 0; i < FSL_SERIES_BINS; i++) {
		for (c = 0, bin = 0; c < FSL_WC__MAX; c++)
			bin += s->series[c][i];
		if (bin > w)
			t_fail(__FILE__, __LINE__, "bin %u: %llu ns blocked in %llu ns, one thread", i,
			       (unsigned long long)bin, (unsigned long long)w);
		sum += bin;
	}
	CHECK_U64(sum, s->ns[FSL_ROLE_WORKLOAD]);
	CHECK_U64(sum, 1000 * G_MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][49], 0);
	for (i = 50; i < 80; i++)
		CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][i], w);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][80], 0);

	/* dirty-limit pauses (mkdir's 20 + 30 ms): the same rule on the writeback timeline */
	wb = fsl_analysis__writeback(a);
	REQUIRE(wb);
	for (i = 0, sum = 0; i < FSL_SERIES_BINS; i++) {
		CHECK(wb->series_throttle_ns[i] <= wb->tb.width_ns);
		sum += wb->series_throttle_ns[i];
	}
	CHECK_U64(sum, wb->throttle_ns);
	CHECK_U64(sum, 50 * G_MS);
	fsl_analysis__free(a);
	fsl_reader__close(r);
}
