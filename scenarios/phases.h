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
/* 1 when the phase file at path can be read and holds a finished phase, else 0. */
int fsl_phase_log__any(const char *path);
const char *fsl_phase_log__param(const struct fsl_phase_log *log, const char *key);
/* "x.trace" -> "x.phases" (any other name: name + ".phases") */
void fsl_phases_path(char *buf, size_t len, const char *trace);

/* Writer side: header, then lines as they happen (each flushed). */
int fsl_phases__write_header(FILE *f, const char *scenario, const char *scale,
			     const struct fsl_params *p);
int fsl_phases__write_phase(FILE *f, const struct fsl_phase *ph);
int fsl_phases__write_tick(FILE *f, unsigned int run, const char *name, uint64_t t_ns,
			   uint64_t ops);

/*
 * A workload run's log: its phases and rate samples as they happen, written
 * to the phase file (when phases is set) and kept for the tables below. A
 * run's fsl_wl takes ops = &fsl_wl_log_ops, priv = the log.
 */
struct fsl_wl_log {
	FILE *phases;
	int err;		/* -EIO: the phase file could not be written */
	struct fsl_phase_rec ph[64];
	unsigned int nph;
	struct fsl_tick_rec tk[8192];
	unsigned int ntk;
};
extern const struct fsl_wl_ops fsl_wl_log_ops;
/* Rows are phases, columns are runs: how the classic benchmarks print aging. */
void fsl_phases__print_table(FILE *f, const struct fsl_phase_rec *ph, unsigned int n);
/* Each long enough phase's rate over time, in at most 16 slices. */
void fsl_phases__print_timelines(FILE *f, const struct fsl_wl_log *o);

#endif
