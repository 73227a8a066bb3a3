/* SPDX-License-Identifier: GPL-2.0 */
/* Collector internals shared by the collector sources and their unit tests. */
#ifndef FSL_COLLECTOR_INT_H
#define FSL_COLLECTOR_INT_H

#include <stddef.h>
#include <stdint.h>

/* Where a followed syscall's arguments are; same layout as probes/dirops.bpf.h. */
struct fsl_dirop_sc {
	uint8_t op;		/* enum fsl_dirop_kind + 1 */
	int8_t path, path2, dirfd, dirfd2, flags, mode, fd;
	uint8_t how, creat;
	uint16_t _pad;
};

struct fsl_dirop_sc_entry {
	unsigned int nr;
	const char *name;
	struct fsl_dirop_sc sc;
};

/* The path-based syscalls of this architecture; returns the count. */
unsigned int fsl_dirop_table(const struct fsl_dirop_sc_entry **out);

#include "fslens/ksyms.h"
#include "fslens/collector.h"

/*
 * Puts the ring's records in time order (collector/reorder.c): each record
 * is held until a record window_ns newer has arrived, then passed to fn in
 * (ts, arrival) order. Records older than one already passed on are "late"
 * (still passed on, counted).
 */
struct fsl_reorder;
struct fsl_reorder *fsl_reorder__new(uint64_t window_ns);
int fsl_reorder__push(struct fsl_reorder *r, const struct fsl_hdr *ev,
		      fsl_collector_event_fn fn, void *ctx);
/*
 * The clock has reached now (same clock as the records' ts) though no record
 * that new has arrived: pass on what is a window older than now.
 */
int fsl_reorder__advance(struct fsl_reorder *r, uint64_t now, fsl_collector_event_fn fn,
			 void *ctx);
int fsl_reorder__flush(struct fsl_reorder *r, fsl_collector_event_fn fn, void *ctx);
size_t fsl_reorder__pending(const struct fsl_reorder *r);
uint64_t fsl_reorder__late(const struct fsl_reorder *r);
void fsl_reorder__free(struct fsl_reorder *r);

#endif
