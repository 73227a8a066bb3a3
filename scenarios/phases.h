/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phase file a scenario run leaves next to its trace (NAME.phases):
 * the scenario, scale and parameters, then one line per timed phase and one
 * per rate sample. Times are CLOCK_MONOTONIC ns, the clock of the trace's
 * events, so compare and report can cut the trace at phase boundaries.
 *
 *   # fslens phases 1
 *   scenario htree
 *   scale small
 *   param KEY=VALUE
 *   phase RUN NAME START_NS END_NS OPS BYTES
 *   tick RUN NAME T_NS OPS
 *
 * Format details: docs/scenarios.md.
 */
#ifndef FSL_PHASES_H
#define FSL_PHASES_H

#include <stdint.h>
#include <stdio.h>
#include "scenario.h"

struct fsl_phase_rec {
	unsigned int run;
	char name[32];
	uint64_t start_ns, end_ns, ops, bytes;
};

struct fsl_tick_rec {
	unsigned int run;
	char name[32];
	uint64_t t_ns, ops;
};

struct fsl_phase_log {
	char scenario[32];
	char scale[16];
	unsigned int nparams;
	char (*params)[160];		/* "key=value" */
	unsigned int nphases;
	struct fsl_phase_rec *phases;
	size_t nticks;
	struct fsl_tick_rec *ticks;
};

int fsl_phase_log__load(struct fsl_phase_log *log, const char *path);
void fsl_phase_log__free(struct fsl_phase_log *log);
const char *fsl_phase_log__param(const struct fsl_phase_log *log, const char *key);
/* "x.trace" -> "x.phases" (any other name: name + ".phases") */
void fsl_phases_path(char *buf, size_t len, const char *trace);

/* Writer side: header, then lines as they happen (each flushed). */
int fsl_phases__write_header(FILE *f, const char *scenario, const char *scale,
			     const struct fsl_params *p);
int fsl_phases__write_phase(FILE *f, const struct fsl_phase *ph);
int fsl_phases__write_tick(FILE *f, unsigned int run, const char *name, uint64_t t_ns,
			   uint64_t ops);

#endif
