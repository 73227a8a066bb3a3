/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Analysis session: one pass over one event stream, dispatched to a set of
 * consumers (the perf_tool shape). A consumer fills handlers[] for the event
 * types it wants; the session calls begin, every handler in time order, end.
 *
 * The stream comes from a trace file (struct fsl_reader) or live from the
 * collector (fslens top); consumers see metadata only through struct
 * fsl_meta, so they work the same on both.
 */
#ifndef FSLENS_SESSION_H
#define FSLENS_SESSION_H

#include <stdint.h>
#include "event.h"
#include "trace.h"
#include "meta.h"

/* A fsl_meta view of an open reader (no allocation; valid while r is). */
void fsl_meta_from_reader(struct fsl_meta *m, struct fsl_reader *r);

struct fsl_consumer;
typedef int (*fsl_handler_fn)(struct fsl_consumer *c, const struct fsl_hdr *ev);

struct fsl_consumer {
	const char *name;
	void *priv;
	int (*begin)(struct fsl_consumer *c, const struct fsl_meta *m);
	/* Called for every event after the type-specific handler (may be NULL). */
	fsl_handler_fn any;
	fsl_handler_fn handlers[FSL_EV__MAX];
	int (*end)(struct fsl_consumer *c, const struct fsl_meta *m);
};

/*
 * Run consumers over every event of r (from the current position).
 * A handler returning < 0 stops the run with that error.
 */
int fsl_session_run(struct fsl_reader *r, struct fsl_consumer **cons, unsigned int n);

/* Dispatch one event to consumers (live sources call this directly). */
int fsl_session_dispatch(struct fsl_consumer **cons, unsigned int n, const struct fsl_hdr *ev);

#endif /* FSLENS_SESSION_H */
