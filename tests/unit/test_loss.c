// SPDX-License-Identifier: GPL-2.0
/* lib/loss.c: which cause record's advice names, from its per-second counters. */
#include <string.h>
#include "t.h"
#include "fslens/loss.h"

TEST(loss_interval_classified_by_ring_fill)
{
	struct fsl_loss_interval none = { 1.0, 500000, 0, 40, 40, 0 };
	struct fsl_loss_interval full = { 1.0, 900000, 300000, 40, 20, 0 };
	struct fsl_loss_interval burst = { 1.0, 900000, 300000, 40, 19, 0 };
	struct fsl_loss_interval stuck = { 1.0, 0, 10, 0, 0, 0 };

	CHECK_EQ(fsl_loss__classify(&none), FSL_LOSS_NONE);	/* full, but nothing lost */
	CHECK_EQ(fsl_loss__classify(&full), FSL_LOSS_BEHIND);	/* half the polls: behind */
	CHECK_EQ(fsl_loss__classify(&burst), FSL_LOSS_BURST);	/* one poll short of half */
	CHECK_EQ(fsl_loss__classify(&stuck), FSL_LOSS_BEHIND);	/* never polled: busy */
}

TEST(loss_interval_starved_drain_is_behind)
{
	/* the ring left empty before each poll, but the drain ran or waited for a CPU */
	struct fsl_loss_interval starved = { 1.0, 900000, 300000, 40, 0, 0.6 };
	struct fsl_loss_interval idle = { 1.0, 900000, 300000, 40, 0, 0.4 };

	CHECK_EQ(fsl_loss__classify(&starved), FSL_LOSS_BEHIND);
	CHECK_EQ(fsl_loss__classify(&idle), FSL_LOSS_BURST);	/* idle most of it: a burst */
}

TEST(loss_advice_behind_gives_rates_and_no_ring_size_fix)
{
	struct fsl_loss l = { 0 };
	struct fsl_loss_interval a = { 1.0, 1200000, 400000, 50, 48, 0 };
	struct fsl_loss_interval b = { 1.0, 1000000, 600000, 50, 50, 0 };
	struct fsl_loss_interval c = { 1.0, 300000, 1000, 80, 2, 0 };	/* a small burst */
	char buf[512];

	fsl_loss__add(&l, &a);
	fsl_loss__add(&l, &b);
	fsl_loss__add(&l, &c);
	l.cpu_secs = 1.9;
	l.wall_secs = 2.0;
	CHECK_U64(l.lost_behind, 1000000);
	CHECK_U64(l.lost_burst, 1000);
	CHECK_EQ(fsl_loss__cause(&l), FSL_LOSS_BEHIND);
	CHECK_STR(fsl_loss_cause_name(fsl_loss__cause(&l)), "behind");
	fsl_loss__advice(&l, buf, sizeof(buf));
	/* 2.2 M drained and 1 M lost over the 2 s that were behind */
	CHECK(strstr(buf, "drain fell behind (100% of the lost events)") != NULL);
	CHECK(strstr(buf, "used 95% of a CPU") != NULL);
	CHECK(strstr(buf, "drained 1.10 M events/s while the probes produced 1.60 M/s") != NULL);
	CHECK(strstr(buf, "only delays the loss") != NULL);
	CHECK(strstr(buf, "try a larger") == NULL);
}

TEST(loss_advice_burst_says_ring_size)
{
	struct fsl_loss l = { 0 };
	struct fsl_loss_interval a = { 1.0, 200000, 5000, 60, 3, 0 };
	struct fsl_loss_interval b = { 1.0, 900000, 1000, 10, 9, 0 };
	char buf[512];

	fsl_loss__add(&l, &a);
	fsl_loss__add(&l, &b);
	l.cpu_secs = 0.2;
	l.wall_secs = 2.0;
	CHECK_EQ(fsl_loss__cause(&l), FSL_LOSS_BURST);
	fsl_loss__advice(&l, buf, sizeof(buf));
	CHECK(strstr(buf, "bursts overflowed the ring while the drain kept up (83% of the lost "
			  "events; the recorder used 10% of a CPU): try a larger --ring-size") != NULL);
}

TEST(loss_advice_empty_without_loss)
{
	struct fsl_loss l = { 0 };
	struct fsl_loss_interval a = { 1.0, 200000, 0, 60, 60, 0 };
	char buf[64] = "x";

	fsl_loss__add(&l, &a);
	CHECK_EQ(fsl_loss__cause(&l), FSL_LOSS_NONE);
	CHECK_STR(fsl_loss__advice(&l, buf, sizeof(buf)), "");
}
