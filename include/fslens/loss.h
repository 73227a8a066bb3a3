/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why the ring lost events (lib/loss.c), from the recorder's own counters:
 * the drain fell behind (the ring stayed full: the consumer was slower than
 * the probes, and a larger ring only delays the loss) or a burst overflowed
 * it while the drain kept up (a larger ring is the fix). The recorder adds
 * one interval per flush; record's summary and the report say the advice.
 */
#ifndef FSLENS_LOSS_H
#define FSLENS_LOSS_H

#include <stddef.h>
#include <stdint.h>

/* One interval of the recorder's loop (about a second). */
struct fsl_loss_interval {
	double secs;
	uint64_t drained;	/* records taken from the ring */
	uint64_t lost;		/* the kernel's lost counters grew by this */
	unsigned int polls;	/* ring fill samples, one per poll */
	unsigned int polls_full; /* of them, with the ring at least half full */
	double busy_secs;	/* the drain thread on a CPU or waiting for one (schedstat) */
};

enum fsl_loss_cause {
	FSL_LOSS_NONE,
	FSL_LOSS_BEHIND,	/* the drain was slower than the probes */
	FSL_LOSS_BURST,		/* the ring overflowed while the drain kept up */
};

struct fsl_loss {
	uint64_t lost_behind, lost_burst;
	/* the intervals that lost events while the drain was behind */
	double secs_behind;
	uint64_t drained_behind, lost_in_behind;
	/* the recorder's CPU (user + system) over the whole recording */
	double cpu_secs, wall_secs;
};

/*
 * An interval with loss is "behind" when at least half its polls found
 * the ring half full or more: the drain never caught up with the probes.
 */
enum fsl_loss_cause fsl_loss__classify(const struct fsl_loss_interval *iv);
void fsl_loss__add(struct fsl_loss *l, const struct fsl_loss_interval *iv);
/* The cause of most of the lost events. */
enum fsl_loss_cause fsl_loss__cause(const struct fsl_loss *l);
const char *fsl_loss_cause_name(enum fsl_loss_cause c);	/* "none" "behind" "burst" */
/*
 * One sentence: the cause, its figures (recorder CPU %, events/s drained
 * against produced) and what to do. Empty with no loss. Returns buf.
 */
char *fsl_loss__advice(const struct fsl_loss *l, char *buf, size_t len);

#endif
