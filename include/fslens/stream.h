/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector stream (collector/stream.c): raw ring records in, ordered,
 * named and symbolized events out. The one path from the ring buffer to a
 * consumer, shared by `fslens record` (the trace writer) and live `fslens
 * top` (its session):
 *
 *	ring record -> task naming -> ordering (lib/ordered.c) -> fn
 *
 * Task naming: the first record of a task the stream has not seen named
 * (no fork, exec or comm record yet) is preceded by a SEEN record read from
 * <proc>/<pid>/task/<tid>/stat (comm, parent, kernel-thread flag). A task
 * that is gone before it is read is remembered by its first record; a later
 * proc record of that task (its exit, usually) names it from then on with
 * a SEEN record at that first time. Tasks never named are counted.
 *
 * Symbolization: kernel stacks (off-CPU records) and caller addresses
 * (ext4 journal-start records) are resolved with one kallsyms table; the
 * probe's own leading frames (bpf_*, __bpf_*) are dropped. Every stack id
 * and address the stream saw is remembered, so a recorder symbolizes the
 * new ones at every flush (fsl_stream__symbols), and a live viewer on first use
 * (fsl_stream__stack, cached).
 *
 * The ring is behind a small interface so the stream is tested with a fake
 * ring feeding raw records; fsl_stream__new_collector() wraps the real one.
 * Functions return 0 or -errno and never print.
 */
#ifndef FSLENS_STREAM_H
#define FSLENS_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "ordered.h"

struct fsl_collector;
struct fsl_stack;

/* A source of raw ring records: the collector, or a test's fake. */
struct fsl_ring_ops {
	/* Deliver what is ready (waiting up to timeout_ms); count or -errno, fn's return stops. */
	int (*poll)(void *ring, int timeout_ms, fsl_event_fn fn, void *ctx);
	/* Detach, then deliver what is left (NULL: nothing to drain). */
	int (*stop)(void *ring, fsl_event_fn fn, void *ctx);
	/* Kernel stack by id, innermost first: frames or -errno. */
	int (*stack)(void *ring, int32_t id, uint64_t *ips, int max);
	/* Lost records per family so far; 0 or -errno. */
	int (*lost)(void *ring, uint64_t lost[FSL_FAM__MAX]);
	/* Bytes waiting in the ring and its size (NULL: not known). */
	int (*fill)(void *ring, uint64_t *used, uint64_t *size);
};

struct fsl_stream_opts {
	/*
	 * Ordering window. With by_clock 0 a record is released once a
	 * newer one is window_ns past it (record); with by_clock 1 only
	 * fsl_stream__advance releases, by the caller's clock (live top).
	 */
	uint64_t window_ns;
	int by_clock;
	int name_tasks;		/* SEEN records for tasks not yet named (proc family) */
	int symbols_now;	/* load kallsyms at once, not at the first stack */
	const char *kallsyms;	/* NULL: /proc/kallsyms */
	const char *proc;	/* NULL: /proc */
	/*
	 * Bytes the ordering may hold (0: no bound). Past it the oldest
	 * records go out before their window (stats.forced), so the memory
	 * stays bounded at any event rate and nothing is dropped.
	 */
	size_t hold_bytes;
};

struct fsl_stream_stats {
	uint64_t late;		/* released after a newer record (beyond the window) */
	uint64_t forced;	/* released before their window by hold_bytes */
	uint64_t taken;		/* records taken into the ordering */
	uint64_t named_late;	/* tasks seen after their exit, named by a later record */
	uint64_t unnamed;	/* tasks seen after their exit and never named */
	uint64_t lost[FSL_FAM__MAX];	/* ring full, per family */
	uint64_t lost_total;
	int lost_err;		/* the ring's lost() error, 0 if the counts are valid */
};

struct fsl_stream;

/* NULL with *err set. The stream does not own the ring. */
struct fsl_stream *fsl_stream__new(const struct fsl_ring_ops *ops, void *ring,
				   const struct fsl_stream_opts *o, int *err);
/* The stream of a collector (include/fslens/collector.h). */
struct fsl_stream *fsl_stream__new_collector(struct fsl_collector *c,
					     const struct fsl_stream_opts *o, int *err);
void fsl_stream__free(struct fsl_stream *s);

/*
 * Take what the ring has (waiting up to timeout_ms) into the stream, and
 * pass to fn what the window releases (nothing when by_clock). Returns
 * the ring's count, -errno, or fn's non-zero return.
 */
int fsl_stream__poll(struct fsl_stream *s, int timeout_ms, fsl_event_fn fn, void *ctx);
/* The clock reached now: release what is a window older. fn's return stops. */
int fsl_stream__advance(struct fsl_stream *s, uint64_t now, fsl_event_fn fn, void *ctx);
/* Stop the ring and take what is left in it (released as poll does). */
int fsl_stream__stop(struct fsl_stream *s, fsl_event_fn fn, void *ctx);
/* End of stream: release everything held. */
int fsl_stream__flush(struct fsl_stream *s, fsl_event_fn fn, void *ctx);
/* Records held in the ordering. */
size_t fsl_stream__pending(const struct fsl_stream *s);
void fsl_stream__stats(const struct fsl_stream *s, struct fsl_stream_stats *st);
/* The ring's fill now (bytes waiting, size): 0, or -errno when not known. */
int fsl_stream__fill(const struct fsl_stream *s, uint64_t *used, uint64_t *size);

/* The symbolized stack of id (cached; valid until free), or NULL. */
const struct fsl_stack *fsl_stream__stack(struct fsl_stream *s, int32_t id);
/* "func+0xoff" of a kernel address into buf, or NULL. */
const char *fsl_stream__sym(struct fsl_stream *s, uint64_t addr, char *buf, size_t len);
/*
 * Every stack id and caller address the stream has seen since the last
 * call, symbolized: on_stack for each stack the ring has, on_sym for each
 * address kallsyms names. A recorder calls it at every flush and at the
 * end, so each is given once and a killed recording keeps those seen up to
 * its last flush; a stack the ring does not have yet, and what a failed
 * callback did not take, are given again next call. Returns 0, -errno (no
 * kallsyms: -ENOENT, -EPERM; nothing given) or a callback's non-zero
 * return; *nstacks = stacks given to on_stack in this call.
 */
int fsl_stream__symbols(struct fsl_stream *s,
			int (*on_stack)(void *ctx, const struct fsl_stack *st),
			int (*on_sym)(void *ctx, uint64_t addr, const char *name),
			void *ctx, int *nstacks);
/*
 * The name of a process the events never named (it existed before the
 * start, and no record of it came): <proc>/<pid>/comm. 0 or -errno.
 */
int fsl_stream__comm(struct fsl_stream *s, uint32_t pid, char *buf, size_t len);

#endif /* FSLENS_STREAM_H */
