// SPDX-License-Identifier: GPL-2.0
/*
 * compare in-process: the phase windows reach the analyses in ns as the
 * phase file gives them. The old path printed seconds with %.9f for a child
 * `fslens report --from --to`, whose parser then truncated v * 1e9: of the
 * 100,000 millisecond bounds below 100 s, 2,183 came back 1 ns short.
 */
#include <errno.h>
#include <stdlib.h>
#include "t.h"
#include "fslens/compare.h"

#ifndef FSL_TOP
#define FSL_TOP "."
#endif

#define ORIGIN	1000000000ull	/* golden.trace: record.start_ns */

/* The bounds the %.9f -> strtod -> (uint64_t)(v * 1e9) round trip broke. */
static unsigned int broken_bounds(uint64_t *out, unsigned int max)
{
	unsigned int n = 0, ms;

	for (ms = 0; ms < 100000; ms++) {
		uint64_t ns = (uint64_t)ms * 1000000;
		char buf[32];

		snprintf(buf, sizeof(buf), "%.9f", ns / 1e9);
		if ((uint64_t)(strtod(buf, NULL) * 1e9) != ns && n < max)
			out[n++] = ns;
	}
	return n;
}

static int copy_file(const char *from, const char *to)
{
	char buf[8192];
	FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
	size_t k;
	int err = 0;

	if (!a || !b)
		err = -errno;
	while (!err && (k = fread(buf, 1, sizeof(buf), a)) > 0)
		if (fwrite(buf, 1, k, b) != k)
			err = -EIO;
	if (a)
		fclose(a);
	if (b && fclose(b))
		err = -EIO;
	return err;
}

TEST(compare_bounds_exact_ns)
{
	static uint64_t b[4096];
	const char *top = getenv("TOP") ? getenv("TOP") : FSL_TOP;
	char golden[1024], trace[1024], phases[1024];
	const char *traces[1];
	struct fsl_decode_stats before, after;
	unsigned int n, first, i, exact = 0, windows = 0;
	uint64_t nev;

	n = broken_bounds(b, 4096);
	CHECK_EQ(n, 2183);
	snprintf(golden, sizeof(golden), "%s/tests/data/golden.trace", top);
	snprintf(trace, sizeof(trace), "%s", t_path("g.trace"));
	snprintf(phases, sizeof(phases), "%s", t_path("g.phases"));
	if (copy_file(golden, trace)) {
		t_skip("fixture %s not found (run from the source tree or set TOP)", golden);
		return;
	}
	{
		struct fsl_reader *r = fsl_reader__open(trace, NULL, NULL);

		REQUIRE(r);
		nev = fsl_reader__stats(r)->counts.events[0];
		for (i = 1; i < FSL_FAM__MAX; i++)
			nev += fsl_reader__stats(r)->counts.events[i];
		fsl_reader__close(r);
	}
	traces[0] = trace;
	/* phase i = [b[i], b[i + 1]): every broken bound is a start and an end */
	for (first = 0; first + 1 < n; first += FSL_COMPARE_MAX) {
		struct fsl_compare_opts o = { .causes = 1 };
		struct fsl_compare *c;
		FILE *f = fopen(phases, "w");
		int err = 0;

		CHECK(f != NULL);
		if (!f)
			return;
		fprintf(f, "# fslens phases 1\nscenario golden\nscale small\n");
		for (i = first; i + 1 < n && i < first + FSL_COMPARE_MAX; i++)
			fprintf(f, "phase 1 p%u %llu %llu 1 0\n", i - first,
				(unsigned long long)(ORIGIN + b[i]), (unsigned long long)(ORIGIN + b[i + 1]));
		CHECK_EQ(fclose(f), 0);
		c = fsl_compare__new(&o, &err);
		CHECK(c != NULL);
		if (!c)
			return;
		fsl_reader_decoded_total(&before);
		CHECK_EQ(fsl_compare__run(c, traces, 1), 0);
		fsl_reader_decoded_total(&after);
		/* one pass over the trace whatever the phases: every event decoded
		 * once, by the one reader (the process's count says no other read it) */
		CHECK_U64(fsl_compare__stats(c, 0, NULL)->decoded.events, nev);
		CHECK_U64(after.events - before.events, nev);
		CHECK_U64(after.chunks - before.chunks, fsl_compare__stats(c, 0, NULL)->decoded.chunks);
		/* every window's analysis set (64 of them but the last time) is on the
		 * pass's session and shares its context stage: the compare consumer
		 * and at least two consumers (analysis, stalls) per window */
		CHECK_EQ(fsl_compare__stats(c, 0, NULL)->windows,
			 n - 1 - first < FSL_COMPARE_MAX ? n - 1 - first : FSL_COMPARE_MAX);
		CHECK(fsl_compare__stats(c, 0, NULL)->consumers >=
		      1 + 2 * fsl_compare__stats(c, 0, NULL)->windows);
		for (i = first; i + 1 < n && i < first + FSL_COMPARE_MAX; i++) {
			uint64_t t0 = 0, t1 = 0;

			windows++;
			if (fsl_compare__window(c, i - first, 0, &t0, &t1))
				continue;
			if (t0 == ORIGIN + b[i] && t1 == ORIGIN + b[i + 1])
				exact++;
			else if (exact + 3 > windows)
				t_fail(__FILE__, __LINE__, "phase [%llu, %llu) analysed over [%llu, %llu)",
				       (unsigned long long)(ORIGIN + b[i]),
				       (unsigned long long)(ORIGIN + b[i + 1]),
				       (unsigned long long)t0, (unsigned long long)t1);
		}
		fsl_compare__free(c);
	}
	CHECK_EQ(windows, n - 1);
	CHECK_EQ(exact, n - 1);
}

/* A phase that starts before the trace's origin is analysed from the origin, as report does. */
TEST(compare_window_clamped_to_origin)
{
	const char *top = getenv("TOP") ? getenv("TOP") : FSL_TOP;
	char golden[1024], trace[1024];
	struct fsl_compare_opts o = { .causes = 1 };
	const char *traces[1];
	struct fsl_compare *c;
	uint64_t t0 = 0, t1 = 0;
	FILE *f;
	int err = 0;

	snprintf(golden, sizeof(golden), "%s/tests/data/golden.trace", top);
	snprintf(trace, sizeof(trace), "%s", t_path("g.trace"));
	if (copy_file(golden, trace)) {
		t_skip("fixture %s not found (run from the source tree or set TOP)", golden);
		return;
	}
	f = fopen(t_path("g.phases"), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "# fslens phases 1\nscenario golden\nscale small\n"
		"phase 1 early 500000000 2000000000 1 0\nphase 1 empty 3000000000 3000000000 1 0\n");
	fclose(f);
	traces[0] = trace;
	c = fsl_compare__new(&o, &err);
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK_EQ(fsl_compare__run(c, traces, 1), 0);
	CHECK_EQ(fsl_compare__window(c, 0, 0, &t0, &t1), 0);
	CHECK_U64(t0, ORIGIN);
	CHECK_U64(t1, 2000000000ull);
	/* an empty phase has no window, so no cause */
	CHECK_EQ(fsl_compare__window(c, 1, 0, &t0, &t1), -ENOENT);
	fsl_compare__free(c);
}
