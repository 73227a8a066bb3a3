/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where fslens top's events come from: a trace file played back, or the live
 * collector. The screen and the feed only see this interface, so the whole
 * top is tested on recorded traces without the kernel.
 *
 * Time is the trace clock (CLOCK_MONOTONIC ns of the recording machine).
 * The main loop decides how far the clock has moved (wall time x speed for
 * a replay, the real clock live) and asks the source for the events up to
 * there.
 */
#ifndef FSL_TUI_SOURCE_H
#define FSL_TUI_SOURCE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include "fslens/event.h"
#include "fslens/session.h"

/* Returned by pump when the stream has ended (replay at end of file). */
#define TOP_SRC_END 1

typedef int (*top_event_fn)(void *ctx, const struct fsl_hdr *ev);

struct top_source;

struct top_source_ops {
	/*
	 * Hand every event with ts < until to fn, in time order, at most max
	 * of them (0: no limit) so a busy source cannot starve the keyboard.
	 * Returns 0, TOP_SRC_END when nothing more will come, -errno on
	 * failure, or fn's negative return.
	 */
	int (*pump)(struct top_source *s, uint64_t until, unsigned int max, top_event_fn fn,
		    void *ctx);
	/* Events lost so far (kernel ring buffer full), all families. */
	uint64_t (*lost)(struct top_source *s);
	/*
	 * Name of a task the events never named (it existed before the
	 * start); 0 and buf filled, or -errno. NULL: not knowable (replay).
	 */
	int (*comm)(struct top_source *s, uint32_t pid, char *buf, size_t len);
	/* Problems met while reading (a cut file, a corrupt chunk): idx-th or NULL. */
	const char *(*warning)(struct top_source *s, size_t idx);
	void (*free)(struct top_source *s);
};

struct top_source {
	const struct top_source_ops *ops;
	struct fsl_meta meta;	/* what consumers see (kv, stacks, syms) */
	uint64_t start_ns;	/* trace clock at the start */
	uint64_t end_ns;	/* replay: end of the trace; live: 0 */
	int live;
	char desc[96];		/* "replay run.trace x4", "live" */
};

/*
 * Play the trace at path. start/end come from record.start_ns/end_ns when
 * the trace has them, else from its first and last event. Returns NULL
 * with *err set (the reader's -errno).
 */
struct top_source *top_source__replay(const char *path, double speed, int *err);

/* How far the live clock runs behind the real one, so late records sort in. */
#define TOP_LIVE_LAG_NS 250000000ull
/*
 * Live top empties the kernel ring at least this often (the screen's key
 * wait, the batch loop's naps), so the ring needs room for this long of
 * events only: TOP_LIVE_RING_BYTES holds 100 ms at about 800k events/s of
 * 100 bytes. Past that the kernel drops events, and top shows them as lost.
 * (record's 64 MiB default costs twice its size in RSS: libbpf maps the
 * data pages twice.)
 */
#define TOP_DRAIN_MS		100
#define TOP_LIVE_RING_BYTES	(8ull << 20)

struct fsl_target;
struct top_live_opts {
	const struct fsl_target *target;	/* NULL: every filesystem */
	uint32_t families;			/* 0: all */
	int fs;					/* enum fsl_collector_fs of the target */
	uint64_t min_wait_ns;			/* off-CPU threshold */
	/* in the kernel, as record's -p, --tid and --cgroup (0/NULL: any) */
	const uint32_t *pids;
	unsigned int npids;
	const uint32_t *tids;
	unsigned int ntids;
	const char *cgroup;
};

/*
 * Start the collector (root or CAP_BPF+CAP_PERFMON; -EOPNOTSUPP in a build
 * without BPF). Returns NULL with *err set.
 */
struct top_source *top_source__live(const struct top_live_opts *o, int *err);
/* Tracepoints the kernel lacks ("" if none). */
const char *top_source__live_missing(struct top_source *s);

static inline int top_source__pump(struct top_source *s, uint64_t until, unsigned int max,
				   top_event_fn fn, void *ctx)
{
	return s->ops->pump(s, until, max, fn, ctx);
}

static inline uint64_t top_source__lost(struct top_source *s)
{
	return s->ops->lost ? s->ops->lost(s) : 0;
}

static inline int top_source__comm(struct top_source *s, uint32_t pid, char *buf, size_t len)
{
	return s->ops->comm ? s->ops->comm(s, pid, buf, len) : -ENOENT;
}

static inline const char *top_source__warning(struct top_source *s, size_t idx)
{
	return s->ops->warning ? s->ops->warning(s, idx) : NULL;
}

static inline void top_source__free(struct top_source *s)
{
	if (s)
		s->ops->free(s);
}

#endif
