/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare: several traces (or the runs inside one) side by side, the way
 * engineers post results to a mailing list: rows are phases, columns are
 * configurations (analyzer/report/compare.c).
 *
 * Phases come from the phase file a scenario run leaves next to its trace
 * (NAME.phases, CLOCK_MONOTONIC ns like the events); a trace without one is a
 * single phase "all". Each trace is read once: one session pass feeds the
 * evidence counters of every phase and, with causes on, one analysis per
 * phase window [start_ns, end_ns) (diagnosis only, the window given in ns as
 * `fslens report --from --to` would cut it), so the top causes equal
 * report's for the same window. No child process, no text in between.
 */
#ifndef FSLENS_COMPARE_H
#define FSLENS_COMPARE_H

#include <stdint.h>
#include <stdio.h>
#include "trace.h"

#define FSL_COMPARE_MAX		64	/* traces, columns, rows */

struct fsl_compare_opts {
	int causes;		/* 1: an analysis per phase names its top causes */
	unsigned int base;	/* the column the others are told against (0: the first) */
	/* Reader warnings (skipped chunks: the counts are short) and notes. */
	void (*warn)(void *ctx, const char *trace, const char *msg);
	void *warn_ctx;
};

/* What reading one trace cost (FSLENS_STATS=1 prints it; tests check it). */
struct fsl_compare_stats {
	unsigned int windows;	/* phase windows fed in the trace's pass */
	unsigned int consumers;	/* on the pass's session: the windows' analyses share it */
	struct fsl_decode_stats decoded;	/* as the trace's reader counted them */
};

struct fsl_compare;

struct fsl_compare *fsl_compare__new(const struct fsl_compare_opts *o, int *err);
void fsl_compare__free(struct fsl_compare *c);

/*
 * Read the traces (at most FSL_COMPARE_MAX), in order: their phase files,
 * then one pass each. 0 or -errno; on error fsl_compare__error() is the
 * whole line: what failed and why ("cannot open 'x.trace': not an fslens
 * trace (bad magic)").
 */
int fsl_compare__run(struct fsl_compare *c, const char *const *traces, unsigned int n);
const char *fsl_compare__error(const struct fsl_compare *c);

/* The table as text (100+ columns) or JSON (docs: fslens compare --help). 0 or -EIO. */
int fsl_compare__text(const struct fsl_compare *c, FILE *f);
int fsl_compare__json(const struct fsl_compare *c, FILE *f);

/* Per trace read (index in the order given): path and stats; NULL past the end. */
const struct fsl_compare_stats *fsl_compare__stats(const struct fsl_compare *c, unsigned int i,
						   const char **trace);

/*
 * The window the cell (row, col) was analysed over, absolute ns; 0, or
 * -ENOENT for an empty cell or one without an analysis. For tests.
 */
int fsl_compare__window(const struct fsl_compare *c, unsigned int row, unsigned int col,
			uint64_t *t0, uint64_t *t1);

#endif /* FSLENS_COMPARE_H */
