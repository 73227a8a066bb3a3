// SPDX-License-Identifier: GPL-2.0
/* A trace file as fslens top's event source (--replay). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/trace.h"
#include "source.h"

struct replay {
	struct top_source src;
	struct fsl_reader *r;
	char bound_warn[200];		/* the recording's bounds, when not believed */
	struct fsl_trace_pump *pump;	/* the trace read in steps (session.h) */
};

/* Past the trace's end: what is left is read and dropped (see replay_pump). */
struct tail {
	top_event_fn fn;
	void *ctx;
	uint64_t end;
};

static int tail_event(void *ctx, const struct fsl_hdr *ev)
{
	struct tail *t = ctx;

	return ev->ts > t->end ? 0 : t->fn(t->ctx, ev);
}

static int replay_pump(struct top_source *s, uint64_t until, unsigned int max, top_event_fn fn,
		       void *ctx)
{
	struct replay *rp = (struct replay *)s;
	struct tail t = { fn, ctx, s->end_ns };
	int rc;

	/*
	 * Once the clock is at the end, the rest of the file is read to its
	 * end: an event stamped past the end (a damaged record) would else
	 * wait for a clock that never comes, and the replay would not end.
	 */
	if (s->end_ns && until > s->end_ns)
		rc = fsl_trace_pump__pump(rp->pump, UINT64_MAX, max, tail_event, &t);
	else
		rc = fsl_trace_pump__pump(rp->pump, until, max, fn, ctx);
	return rc > 0 ? TOP_SRC_END : rc;
}

static uint64_t replay_lost(struct top_source *s)
{
	struct replay *rp = (struct replay *)s;
	const struct fsl_trace_stats *st = fsl_reader__stats(rp->r);
	uint64_t lost = 0;
	unsigned int i;

	if (!st)
		return 0;
	for (i = 0; i < FSL_FAM__MAX; i++)
		lost += st->counts.lost[i];
	return lost;
}

static const char *replay_warning(struct top_source *s, size_t idx)
{
	struct replay *rp = (struct replay *)s;

	size_t n = fsl_reader__nwarnings(rp->r);

	if (idx < n)
		return fsl_reader__warning(rp->r, idx);
	return idx == n && rp->bound_warn[0] ? rp->bound_warn : NULL;
}

static void replay_free(struct top_source *s)
{
	struct replay *rp = (struct replay *)s;

	fsl_trace_pump__free(rp->pump);
	fsl_reader__close(rp->r);
	free(rp);
}

static const struct top_source_ops replay_ops = {
	.pump = replay_pump,
	.lost = replay_lost,
	.warning = replay_warning,
	.free = replay_free,
};

struct top_source *top_source__replay(const char *path, double speed, int *err)
{
	struct fsl_reader_opts ro = { 0 };
	const struct fsl_trace_stats *st;
	struct replay *rp;
	const char *base;
	uint64_t v, slack;

	rp = calloc(1, sizeof(*rp));
	if (!rp) {
		*err = -ENOMEM;
		return NULL;
	}
	rp->r = fsl_reader__open(path, &ro, err);
	if (!rp->r) {
		free(rp);
		return NULL;
	}
	rp->pump = fsl_trace_pump__new(rp->r);
	if (!rp->pump) {
		fsl_reader__close(rp->r);
		free(rp);
		*err = -ENOMEM;
		return NULL;
	}
	rp->src.ops = &replay_ops;
	fsl_meta_from_reader(&rp->src.meta, rp->r);
	st = fsl_reader__stats(rp->r);
	if (st) {
		rp->src.start_ns = st->first_ts;
		rp->src.end_ns = st->last_ts;
	}
	/*
	 * The recording's own start and end bound the trace when it has them,
	 * unless they lie far outside the events (more than the events' own span
	 * and a minute): then the metadata is wrong, and replaying it would be
	 * empty frames without end.
	 */
	slack = rp->src.end_ns - rp->src.start_ns + 60000000000ull;
	if (!fsl_meta__get_u64(&rp->src.meta, FSL_KV_START_NS, &v) &&
	    (!st || !st->first_ts || v <= st->first_ts)) {
		if (!st || !st->first_ts || st->first_ts - v <= slack)
			rp->src.start_ns = v;
		else
			snprintf(rp->bound_warn, sizeof(rp->bound_warn), "%s=%llu is %.0f s before "
				 "the first event: replaying from the first event", FSL_KV_START_NS,
				 (unsigned long long)v, (st->first_ts - v) / 1e9);
	}
	if (!fsl_meta__get_u64(&rp->src.meta, FSL_KV_END_NS, &v) && v >= rp->src.end_ns) {
		if (!st || !st->chunks || v - rp->src.end_ns <= slack)
			rp->src.end_ns = v;
		else
			snprintf(rp->bound_warn, sizeof(rp->bound_warn), "%s=%llu is %.0f s past "
				 "the last event: replaying to the last event", FSL_KV_END_NS,
				 (unsigned long long)v, (v - rp->src.end_ns) / 1e9);
	}
	base = strrchr(path, '/');
	snprintf(rp->src.desc, sizeof(rp->src.desc), "replay %s x%g", base ? base + 1 : path,
		 speed);
	return &rp->src;
}
