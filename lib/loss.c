// SPDX-License-Identifier: GPL-2.0
/* Why the ring lost events, and what to do about it (include/fslens/loss.h). */
#include <stdio.h>
#include "fslens/loss.h"

enum fsl_loss_cause fsl_loss__classify(const struct fsl_loss_interval *iv)
{
	if (!iv->lost)
		return FSL_LOSS_NONE;
	/* no sample: a loop that never got to poll was busy, not idle */
	if (!iv->polls || 2 * iv->polls_full >= iv->polls)
		return FSL_LOSS_BEHIND;
	/*
	 * A drain that ran, or waited for a CPU, most of the interval could not
	 * keep up, however empty it left the ring before each poll (a recorder
	 * starved of CPU drains the ring each time it runs, and runs rarely).
	 */
	if (iv->secs > 0 && iv->busy_secs >= 0.5 * iv->secs)
		return FSL_LOSS_BEHIND;
	return FSL_LOSS_BURST;
}

void fsl_loss__add(struct fsl_loss *l, const struct fsl_loss_interval *iv)
{
	switch (fsl_loss__classify(iv)) {
	case FSL_LOSS_BEHIND:
		l->lost_behind += iv->lost;
		l->secs_behind += iv->secs;
		l->drained_behind += iv->drained;
		l->lost_in_behind += iv->lost;
		break;
	case FSL_LOSS_BURST:
		l->lost_burst += iv->lost;
		break;
	case FSL_LOSS_NONE:
		break;
	}
}

enum fsl_loss_cause fsl_loss__cause(const struct fsl_loss *l)
{
	if (!l->lost_behind && !l->lost_burst)
		return FSL_LOSS_NONE;
	return l->lost_behind >= l->lost_burst ? FSL_LOSS_BEHIND : FSL_LOSS_BURST;
}

const char *fsl_loss_cause_name(enum fsl_loss_cause c)
{
	return c == FSL_LOSS_BEHIND ? "behind" : c == FSL_LOSS_BURST ? "burst" : "none";
}

char *fsl_loss__advice(const struct fsl_loss *l, char *buf, size_t len)
{
	double cpu = l->wall_secs > 0 ? 100.0 * l->cpu_secs / l->wall_secs : 0;
	uint64_t total = l->lost_behind + l->lost_burst;

	buf[0] = 0;
	switch (fsl_loss__cause(l)) {
	case FSL_LOSS_BEHIND: {
		double s = l->secs_behind > 0 ? l->secs_behind : 1;

		snprintf(buf, len, "the recorder's drain fell behind (%.0f%% of the lost events): "
			 "it used %.0f%% of a CPU and drained %.2f M events/s while the probes "
			 "produced %.2f M/s; record fewer families (-e), a narrower target (-p, "
			 "--cgroup) or give the recorder a CPU of its own (a larger --ring-size "
			 "only delays the loss)", 100.0 * l->lost_behind / total, cpu,
			 l->drained_behind / s / 1e6,
			 (l->drained_behind + l->lost_in_behind) / s / 1e6);
		break;
	}
	case FSL_LOSS_BURST:
		snprintf(buf, len, "bursts overflowed the ring while the drain kept up (%.0f%% of "
			 "the lost events; the recorder used %.0f%% of a CPU): try a larger "
			 "--ring-size", 100.0 * l->lost_burst / total, cpu);
		break;
	case FSL_LOSS_NONE:
		break;
	}
	return buf;
}
