/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The feed: events in, snapshots out. It runs the shared analyses (the same
 * consumers `fslens report` runs) over the stream and, at every refresh,
 * closes a window and turns their results into a struct top_snap. It keeps
 * the last window's results and the totals since the start, so switching
 * between the two (key a) needs no new events.
 */
#ifndef FSL_TUI_FEED_H
#define FSL_TUI_FEED_H

#include <stdint.h>
#include "fslens/event.h"
#include "fslens/session.h"
#include "snap.h"

struct top_feed;

/*
 * meta must outlive the feed. start_ns is the trace clock at the start.
 * totals: keep totals since the start (else they begin when first asked for).
 */
struct top_feed *top_feed__new(const struct fsl_meta *meta, uint64_t start_ns, int totals,
			       int *err);
void top_feed__free(struct top_feed *f);

/* One event, in time order. Returns 0 or -errno. */
int top_feed__event(struct top_feed *f, const struct fsl_hdr *ev);

/* Close the current window at trace time t (>= the previous cut). */
/* No cut will come before t (the loop pumps up to t, then cuts there or later). */
void top_feed__horizon(struct top_feed *f, uint64_t t);
int top_feed__cut(struct top_feed *f, uint64_t t);

/*
 * Fill out (cleared first) from the last closed window, or, accumulated,
 * from everything since the start (or since totals were first asked for). Header fields the feed does not own
 * (source, paused, ended, lost) are left for the caller.
 */
int top_feed__snapshot(struct top_feed *f, int accumulated, struct top_snap *out);

#endif
