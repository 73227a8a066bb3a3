// SPDX-License-Identifier: GPL-2.0
/*
 * fslens monitor's daemon steps, apart from its command line
 * (cli/cmd_monitor.c): the flight recorders of the targets, and what is done
 * at each interval's end (the kernel's maps read, the recorders' losses
 * summed, the p99 triggers checked).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "fslens/flight.h"
#include "fslens/monitor.h"

int fsl_mon_flights_new(const struct fsl_mon_metrics *mm, const struct fsl_target *tg,
			const struct fsl_mon_flight_cfg *cfg, struct fsl_flight **fl,
			unsigned int *made)
{
	unsigned int i, j;
	int e = 0;

	*made = 0;
	for (i = 0; i < mm->ntargets; i++) {
		uint64_t ring = (4ull << 20) / mm->ntargets;
		struct fsl_flight_opts fo = {
			.target = &tg[i],
			.window_ns = cfg->window_ns,
			.max_bytes = cfg->max_bytes / mm->ntargets,
			.dir = cfg->dir,
			.tag = mm->ntargets > 1 ? mm->fs[i].disk : NULL,
			.log = cfg->log,
			.log_ctx = cfg->log_ctx,
		};

		/* a ring buffer's size is a power of two pages, at least 1 MiB here */
		while (ring & (ring - 1))
			ring &= ring - 1;
		fo.ring_bytes = ring < (1ull << 20) ? 1ull << 20 : ring;
		for (j = 0; j < cfg->ntrigs; j++) {
			if (cfg->trigs[j].kind == FSL_MON_TRIG_WAIT)
				fo.wait_over_ns = cfg->trigs[j].over_ns;
			else if (cfg->trigs[j].kind == FSL_MON_TRIG_COMMIT)
				fo.commit_over_ns = cfg->trigs[j].over_ns;
		}
		fl[i] = fsl_flight__new(&fo, &e);
		if (!fl[i])
			return e ? e : -EINVAL;
		(*made)++;
	}
	return 0;
}

int fsl_mon_interval(struct fsl_monitor *km, struct fsl_flight **fl, unsigned int nfl,
		     struct fsl_mon_metrics *mm, struct fsl_mon_hist (*prev_op)[MON_OPS],
		     const struct fsl_mon_trigger *trigs, unsigned int ntrigs,
		     char *trig, size_t trigsz)
{
	unsigned int i, j;
	int fired = -1;

	fsl_monitor__read(km);
	for (i = 0; i < nfl; i++) {
		uint64_t lost[FSL_FAM__MAX] = { 0 };

		if (!i)
			memset(mm->lost, 0, sizeof(mm->lost));
		fsl_flight__lost(fl[i], lost);
		for (j = 0; j < FSL_FAM__MAX; j++)
			mm->lost[j] += lost[j];
	}
	for (j = 0; j < ntrigs && fired < 0; j++) {
		uint64_t p;
		int t;

		if (trigs[j].kind != FSL_MON_TRIG_P99)
			continue;
		t = fsl_mon_p99_over(mm, prev_op, &trigs[j], &p);
		if (t >= 0) {
			snprintf(trig, trigsz, "p99 of %s on %s %.1f ms",
				 fsl_mon_op_name(trigs[j].op), mm->fs[t].label, p / 1e6);
			fired = t;
		}
	}
	for (i = 0; i < mm->ntargets; i++)
		memcpy(prev_op[i], mm->fs[i].op, sizeof(prev_op[i]));
	return fired;
}

void fsl_mon_capture(struct fsl_flight **fl, unsigned int nfl, const struct fsl_mon_gate *g,
		     struct fsl_mon_metrics *mm, void (*done)(const char *trace))
{
	char path[4200];
	unsigned int i;
	int e;

	for (i = 0; i < nfl; i++) {
		if (g->tgt >= 0 && (unsigned int)g->tgt != i)
			continue;
		e = fsl_flight__capture(fl[i], g->why, path, sizeof(path));
		if (e) {
			mm->captures_failed++;
			fprintf(stderr, "fslens: monitor: capture (%s) of %s failed: %s\n", g->why,
				mm->fs[i].label, strerror(-e));
			continue;
		}
		mm->captures++;
		fprintf(stderr, "fslens monitor: capture (%s) -> %s\n", g->why, path);
		if (done)
			done(path);
	}
}
