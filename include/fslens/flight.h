/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The monitor's flight recorder (collector/flight.c): the full probes run
 * beside the aggregates, and the last N seconds of their events stay in a
 * bounded in-memory ring. On a trigger the window around it is written to
 * DIR as a normal trace (metadata, events in time order, symbolized stacks,
 * lost counts), readable by every fslens command.
 *
 * One per target filesystem (the monitor makes one for each -m).
 *
 *	f = fsl_flight__new(&opts, &err);
 *	fsl_flight__start(f);
 *	loop: fsl_flight__poll(f, ms, &trig);	trig: a wait or commit over its limit
 *	fsl_flight__capture(f, reason, path, sizeof(path));
 *
 * Nothing prints; -errno on failure.
 */
#ifndef FSLENS_FLIGHT_H
#define FSLENS_FLIGHT_H

#include <stddef.h>
#include <stdint.h>
#include "fsmeta.h"

struct fsl_flight;

struct fsl_flight_opts {
	const struct fsl_target *target;	/* the first -m (scope of the recording) */
	uint64_t window_ns;		/* --flight N: keep this much */
	uint64_t max_bytes;		/* bound on the ring's memory */
	uint64_t ring_bytes;		/* the kernel ring buffer */
	const char *dir;		/* -o DIR */
	const char *tag;		/* in the captures' names: fslens-TIME-N-TAG.trace (NULL none) */
	uint64_t wait_over_ns;		/* trigger: one wait longer than this (0 = off) */
	uint64_t commit_over_ns;	/* trigger: one commit longer than this (0 = off) */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

struct fsl_flight *fsl_flight__new(const struct fsl_flight_opts *o, int *err);
int fsl_flight__start(struct fsl_flight *f);
/*
 * Deliver what the ring holds into the flight ring. *trig is set to a short
 * reason ("wait 1234 ms", "commit 900 ms") when an event crossed a limit.
 */
int fsl_flight__poll(struct fsl_flight *f, int timeout_ms, char *trig, size_t trigsz);
/* Write the ring's window to DIR/fslens-<time>-<n>.trace; the path in path. */
int fsl_flight__capture(struct fsl_flight *f, const char *reason, char *path, size_t pathsz);
/* Lost events per family (kernel ring full or the flight ring's bound). */
int fsl_flight__lost(struct fsl_flight *f, uint64_t lost[]);
/* Bytes the flight ring holds now. */
uint64_t fsl_flight__bytes(const struct fsl_flight *f);
void fsl_flight__free(struct fsl_flight *f);

#endif /* FSLENS_FLIGHT_H */
