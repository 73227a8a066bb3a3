// SPDX-License-Identifier: GPL-2.0
/*
 * A workload run's log (scenarios/phases.c): what the scenario reports goes
 * to the phase file and into the tables demo prints, with the numbers the
 * phases carry (time, ops, ops/s, MB/s), one column per run; whether a
 * phase file holds a finished phase.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "t.h"
#include "../../scenarios/phases.h"

#define S 1000000000ull

static char *print_table(const struct fsl_wl_log *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fsl_phases__print_table(f, o->ph, o->nph);
	fclose(f);
	return buf;
}

static void phase(struct fsl_wl *wl, unsigned int run, const char *name, uint64_t t0,
		  uint64_t t1, uint64_t ops, uint64_t bytes)
{
	struct fsl_phase ph = { 0 };

	ph.run = run;
	ph.name = name;
	ph.start_ns = t0;
	ph.end_ns = t1;
	ph.ops = ops;
	ph.bytes = bytes;
	wl->run = run;
	fsl_wl_log_ops.phase(wl, &ph);
}

TEST(phases_log_writes_and_keeps)
{
	static struct fsl_wl_log log;
	char *buf = NULL, *t;
	size_t len = 0;
	struct fsl_wl wl;

	memset(&log, 0, sizeof(log));
	memset(&wl, 0, sizeof(wl));
	wl.priv = &log;
	log.phases = open_memstream(&buf, &len);
	phase(&wl, 1, "create", 10 * S, 12 * S, 20000, 0);
	fsl_wl_log_ops.tick(&wl, "read", 13 * S, 500);
	phase(&wl, 1, "read", 12 * S, 16 * S, 1000, 400000000);
	phase(&wl, 2, "create", 20 * S, 25 * S, 20000, 0);
	fclose(log.phases);
	CHECK_EQ(log.nph, 3);
	CHECK_EQ(log.ntk, 1);
	CHECK_EQ(log.err, 0);
	CHECK_EQ(log.tk[0].run, 1);	/* a tick carries the run going on */
	CHECK(strstr(buf, "phase 1 create 10000000000 12000000000 20000 0") != NULL);
	CHECK(strstr(buf, "phase 2 create 20000000000 25000000000 20000 0") != NULL);
	free(buf);

	/* two runs: a column each; read ran in run 1 only */
	t = print_table(&log);
	CHECK(strstr(t, "| run 1") != NULL && strstr(t, "| run 2") != NULL);
	/* create: 2 s and 10000/s in run 1, 5 s and 4000/s in run 2 */
	CHECK(strstr(t, "create       |     2.000      20000    10000           |     5.000"
		     "      20000     4000          ") != NULL);
	/* read: 100 MB/s in run 1, nothing in run 2 */
	CHECK(strstr(t, "read         |     4.000       1000      250     100.0 |         -"
		     "          -        -         -") != NULL);
	if (!strstr(t, "create       |     2.000"))
		fprintf(stderr, "%s", t);
	free(t);
}

/* A collapsing rate shows as falling numbers: 16 slices of a phase's ticks. */
TEST(phases_timelines_slices)
{
	static struct fsl_wl_log log;
	char *buf = NULL;
	size_t len = 0;
	struct fsl_wl wl;
	unsigned int i;
	FILE *f;

	memset(&log, 0, sizeof(log));
	memset(&wl, 0, sizeof(wl));
	wl.priv = &log;
	wl.run = 1;
	/* 0.1 s ticks over 1.6 s: 20000/s for the first half, 2000/s after */
	for (i = 0; i <= 16; i++)
		fsl_wl_log_ops.tick(&wl, "create", 10 * S + i * (S / 10),
				    i <= 8 ? i * 2000ull : 16000 + (i - 8) * 200ull);
	phase(&wl, 1, "create", 10 * S, 10 * S + 16 * (S / 10), 17600, 0);
	f = open_memstream(&buf, &len);
	fsl_phases__print_timelines(f, &log);
	fclose(f);
	CHECK_STR(buf, "create rate (ops/s, 16 slices of 0.10 s): 20k 20k 20k 20k 20k 20k 20k 20k"
		  " 2000 2000 2000 2000 2000 2000 2000 2000\n");
	free(buf);
}

/* demo compares a failed cell's trace only when its phase file holds a finished phase. */
TEST(phases_log_any)
{
	FILE *f;

	CHECK_EQ(fsl_phase_log__any(t_path("none.phases")), 0);
	f = fopen(t_path("empty.phases"), "w");
	REQUIRE(f);
	fprintf(f, "# fslens phases 1\nscenario htree\nscale small\nparam n=10\n");
	fclose(f);
	CHECK_EQ(fsl_phase_log__any(t_path("empty.phases")), 0);
	f = fopen(t_path("one.phases"), "w");
	REQUIRE(f);
	fprintf(f, "# fslens phases 1\nscenario htree\nscale small\nparam n=10\n"
		"phase 1 mkdir 100 200 10 0\n");
	fclose(f);
	CHECK_EQ(fsl_phase_log__any(t_path("one.phases")), 1);
}
