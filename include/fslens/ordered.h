/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one ordering service (lib/ordered.c): puts a nearly time-ordered
 * stream of records in (ts, arrival) order. Each pushed record is copied
 * and held until the newest time seen -- the newest record's ts, or the
 * clock passed to fsl_ordered__advance() -- is window_ns past it, then
 * passed to the callback. A record older than one already passed on is
 * "late": it is still passed on (at once, when its turn comes) and counted.
 *
 *	o = fsl_ordered__new(window_ns);
 *	fsl_ordered__push(o, ev, fn, ctx);	per record (released by timestamp)
 *	fsl_ordered__advance(o, now, fn, ctx);	the clock moved (live sources)
 *	fsl_ordered__flush(o, fn, ctx);		end of stream: everything held
 *	fsl_ordered__free(o);
 *
 * The records passed to fn are valid only during the call. A non-zero
 * return from fn stops the release and is returned to the caller; the
 * record it was given is consumed, the rest stay held.
 */
#ifndef FSLENS_ORDERED_H
#define FSLENS_ORDERED_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"

typedef int (*fsl_event_fn)(void *ctx, const struct fsl_hdr *ev);

struct fsl_ordered;

/* NULL when out of memory. */
struct fsl_ordered *fsl_ordered__new(uint64_t window_ns);
/*
 * Hold a copy of ev, then release what ev's ts makes a window old. With fn
 * NULL the record is only held: a source that releases by its own clock
 * (live top) calls fsl_ordered__advance() for that.
 */
int fsl_ordered__push(struct fsl_ordered *o, const struct fsl_hdr *ev, fsl_event_fn fn,
		      void *ctx);
/*
 * Hold a copy of ev, releasing nothing but what the limit forces out (a
 * source that releases by its own clock: live top).
 */
int fsl_ordered__push_held(struct fsl_ordered *o, const struct fsl_hdr *ev, fsl_event_fn fn,
			   void *ctx);
/*
 * Bound the bytes held (copies and their slots; 0, the default: none). A
 * push that would pass it first releases the oldest records to its fn,
 * window or not, counted as forced; a record older than one released
 * that way is then late. hold() (no fn) is not bounded.
 */
void fsl_ordered__set_limit(struct fsl_ordered *o, size_t bytes);
/* Records released before their window by the limit. */
uint64_t fsl_ordered__forced(const struct fsl_ordered *o);
/* Bytes held now (what the limit bounds). */
size_t fsl_ordered__held_bytes(const struct fsl_ordered *o);
/*
 * Hold a copy of ev under key instead of its ts (the session holds a wait
 * until its end this way); released by advance()/flush() like the others.
 */
int fsl_ordered__hold(struct fsl_ordered *o, uint64_t key, const struct fsl_hdr *ev);
/* Visit every held record, in no particular order; fn's non-zero return stops. */
int fsl_ordered__each(const struct fsl_ordered *o, fsl_event_fn fn, void *ctx);
/*
 * The clock has reached now (same clock as the records' ts) though no record
 * that new has arrived: pass on what is a window older than now. The clock
 * never goes back: an older now changes nothing.
 */
int fsl_ordered__advance(struct fsl_ordered *o, uint64_t now, fsl_event_fn fn, void *ctx);
/* Pass on everything held, in order. */
int fsl_ordered__flush(struct fsl_ordered *o, fsl_event_fn fn, void *ctx);
/* Records held. */
size_t fsl_ordered__pending(const struct fsl_ordered *o);
/* Records passed on after a newer one (older than the window allowed). */
uint64_t fsl_ordered__late(const struct fsl_ordered *o);
/* Frees what is still held; NULL is a no-op. */
void fsl_ordered__free(struct fsl_ordered *o);

#endif /* FSLENS_ORDERED_H */
