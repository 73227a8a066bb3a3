/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session: the one path every event takes to its consumers (perf's
 * perf_session + ordered_events shape).
 *
 *	source (a trace reader, or events pushed by a live source)
 *	  -> ordering (lib/ordered.c: by timestamp within a window, or by clock)
 *	  -> the context stage (tasks, roles, wait classes: struct fsl_stage)
 *	  -> consumers, one callback table each (per event type, any, and
 *	     begin / partial / flush / end hooks)
 *
 * A consumer fills handlers[] for the event types it wants. During a
 * handler call, c->ctx points at what the session and the context stage
 * know of the event (struct fsl_evctx; valid during the call only).
 * Consumers see metadata only through struct fsl_meta, so they work the
 * same on a trace and live.
 *
 * Windows (docs/report-json.md): a wait or a path call is a span [ts, end];
 * counts fall where the item completes, durations are split at window
 * edges by overlap. With opts.split the session holds each span until the
 * stream passes its end, and fsl_session__cut(t) hands every span still in
 * flight to the consumers' partial() up to t, so consecutive windows each
 * get their part and nothing twice.
 */
#ifndef FSLENS_SESSION_H
#define FSLENS_SESSION_H

#include <stdint.h>
#include "event.h"
#include "trace.h"
#include "meta.h"

/* A fsl_meta view of an open reader (no allocation; valid while r is). */
void fsl_meta_from_reader(struct fsl_meta *m, struct fsl_reader *r);

/* What the session knows of the event it hands over (perf's sample). */
struct fsl_evctx {
	/*
	 * The part of the event's span this call covers. The final call of a
	 * span covers [max(ts, last cut), end]; a partial() call at a cut the
	 * piece up to the cut. Point events: from = to = end = ts.
	 */
	uint64_t from, to;
	uint64_t end;		/* when the item completes: counts go there */
	/* From the context stage (all 0 without one). */
	uint32_t flags;		/* FSL_EVCTX_* */
	int32_t role;		/* enum fsl_task_role of a stall's task (analysis.h); -1 not asked */
	uint32_t cls;		/* wait class of a stall (enum fsl_wclass) */
	uint32_t dev;		/* OTHERFS: the device it waited on (dev_t), 0 unknown */
};
#define FSL_EVCTX_STALL		(1u << 0)	/* an off-CPU record that is a stall; cls set */
#define FSL_EVCTX_NOSTACK	(1u << 1)	/* its stack id is not in the trace */
#define FSL_EVCTX_PARTIAL	(1u << 2)	/* a piece given at a cut: durations, no count */
/*
 * An off-CPU wait on another filesystem than the target (its journal, its
 * device, its kernel threads): not a stall of the target (STALL is clear),
 * summed apart by the stalls analysis. Never set without a target.
 */
#define FSL_EVCTX_OTHERFS	(1u << 3)
/*
 * An on-CPU sample record (cpu family) of the target's: cls is its CPU
 * class (enum fsl_cclass), role set. Samples of another filesystem's work
 * get FSL_EVCTX_OTHERFS instead.
 */
#define FSL_EVCTX_ONCPU		(1u << 4)
/*
 * An uninterruptible off-CPU wait that is a parent waiting for its vfork
 * child to exec or exit (kernel_clone's completion wait: posix_spawn, a
 * shell's vfork): not a stall (STALL clear), not I/O; the whole-time split
 * counts it as sleep, as it does a waitpid().
 */
#define FSL_EVCTX_CHILD		(1u << 5)

/* The end of an event's span (a wait, a path call); ts for every other event. */
uint64_t fsl_ev_end(const struct fsl_hdr *ev);
/* Its start: ts, but for a CPU slot stamped at its end (FSL_CPU_TS_END). */
uint64_t fsl_ev_start(const struct fsl_hdr *ev);
/* The kernel stack an event carries (offcpu, jbd2_kick, cpu), else -1. */
int32_t fsl_ev_stack_id(const struct fsl_hdr *ev);

/*
 * The context stage (analyzer/context.c is the one): arrive() sees every
 * event as it comes out of the ordering (before a span is held, so a wait is
 * known from its start); annotate() fills the context of an event just
 * before the consumers get it.
 */
struct fsl_stage {
	void *priv;
	int (*begin)(struct fsl_stage *st, const struct fsl_meta *m);
	int (*arrive)(struct fsl_stage *st, const struct fsl_hdr *ev);
	void (*annotate)(struct fsl_stage *st, const struct fsl_hdr *ev, struct fsl_evctx *x);
};

struct fsl_consumer;
typedef int (*fsl_handler_fn)(struct fsl_consumer *c, const struct fsl_hdr *ev);

struct fsl_consumer {
	const char *name;
	void *priv;
	/* Set by the session before each call (beside priv: one cache line). */
	const struct fsl_evctx *ctx;
	int (*begin)(struct fsl_consumer *c, const struct fsl_meta *m);
	/* Called for every event after the type-specific handler (may be NULL). */
	fsl_handler_fn any;
	fsl_handler_fn handlers[FSL_EV__MAX];
	int (*end)(struct fsl_consumer *c, const struct fsl_meta *m);
	/* A span in flight at a cut: its piece x->from..x->to (durations only). */
	int (*partial)(struct fsl_consumer *c, const struct fsl_hdr *ev,
		       const struct fsl_evctx *x);
	/* A window edge at t, after the partial() calls of that cut. */
	int (*flush)(struct fsl_consumer *c, uint64_t t);
};

struct fsl_session_opts {
	uint64_t order_ns;	/* reorder window; 0: the source is in order already */
	int split;		/* hold spans to their end so that cut() splits them */
	struct fsl_stage *stage;	/* the context stage, or NULL */
};

struct fsl_session;

/* NULL with *err set (-ENOMEM). opts may be NULL (no reordering, no split). */
struct fsl_session *fsl_session__new(const struct fsl_session_opts *opts, int *err);
/* Frees what is still held; NULL is a no-op. Consumers stay their owners'. */
void fsl_session__free(struct fsl_session *s);
/* Register a consumer; the table is per event type, built here. */
int fsl_session__add(struct fsl_session *s, struct fsl_consumer *c);
/* The stage's and every consumer's begin(). m must outlive the session. */
int fsl_session__begin(struct fsl_session *s, const struct fsl_meta *m);
/* One event of a pushed source (live top, tests). */
int fsl_session__push(struct fsl_session *s, const struct fsl_hdr *ev);
/* A live clock reached now: release what the ordering window allows. */
int fsl_session__advance(struct fsl_session *s, uint64_t now);
/*
 * No cut will come before t (top pumps up to its next refresh, and cuts
 * there): a span ending before t is delivered at once instead of held.
 */
void fsl_session__horizon(struct fsl_session *s, uint64_t t);
/* A window edge at t: spans in flight handed to partial() up to t, then flush(t). */
int fsl_session__cut(struct fsl_session *s, uint64_t t);
/* Everything held (ordering and spans) delivered now. */
int fsl_session__flush(struct fsl_session *s);
/*
 * Every event of r from its current position (the reader decodes on a
 * second thread). *from_reader = 1 when the error is the reader's.
 */
int fsl_session__read(struct fsl_session *s, struct fsl_reader *r, int *from_reader);
/* flush(), then the end() of every consumer begun; the first error. */
int fsl_session__end(struct fsl_session *s);
/* Consumers registered (the table grows as they are added). */
unsigned int fsl_session__nconsumers(const struct fsl_session *s);
/* Time of the newest event pushed (0: none). */
uint64_t fsl_session__now(const struct fsl_session *s);

/*
 * Run consumers over every event of r (from the current position).
 * A handler returning < 0 stops the run with that error.
 */
int fsl_session_run(struct fsl_reader *r, struct fsl_consumer **cons, unsigned int n);

/*
 * One pass of r (from the current position) through the session: every
 * event in [t0, t1) (t1 0: to the end) to fn(x, ev), and every task record
 * whatever its time (names are needed outside the window). fn's error stops
 * the pass, sets *failed and *failed_ts to that event's time (*failed 0
 * with an error: the reader's).
 */
int fsl_session_run_window(struct fsl_reader *r, uint64_t t0, uint64_t t1,
			   int (*fn)(void *x, const struct fsl_hdr *ev), void *x,
			   int *failed, uint64_t *failed_ts);

/* Dispatch one event to consumers, no ordering and no context. */
int fsl_session_dispatch(struct fsl_consumer **cons, unsigned int n, const struct fsl_hdr *ev);

/*
 * A trace read in steps (top --replay): every event with ts < until to fn,
 * at most max (0: no limit). Returns 0, 1 at the end of the trace, or a
 * negative error (the reader's or fn's).
 */
struct fsl_trace_pump;
struct fsl_trace_pump *fsl_trace_pump__new(struct fsl_reader *r);
int fsl_trace_pump__pump(struct fsl_trace_pump *p, uint64_t until, unsigned int max,
			 int (*fn)(void *ctx, const struct fsl_hdr *ev), void *ctx);
void fsl_trace_pump__free(struct fsl_trace_pump *p);

#endif /* FSLENS_SESSION_H */
