/* SPDX-License-Identifier: GPL-2.0 */
/* fslens demo's steps outside its driver (cli/demo_run.c). */
#ifndef FSL_CLI_DEMO_H
#define FSL_CLI_DEMO_H

#include <limits.h>
#include <signal.h>

#include "../scenarios/cell.h"
#include "../scenarios/scenario.h"

/* The signal that asked demo (or its workload) to stop, 0 none. */
extern volatile sig_atomic_t fsl_demo_signal;
void fsl_demo_catch_signals(void);
/* A --set or --matrix value the scenario does not take: one line, exit 2. */
int fsl_demo_bad_param(const struct fsl_scenario *sc, const char *kv, int err);
/* demo --run-workload SCENARIO --dir DIR [...]: the recorded child. */
int fsl_demo_run_workload(int argc, char **argv);
/* demo --list */
int fsl_demo_list(void);
void fsl_demo_print_cell(const char *label, const struct fsl_scenario *sc, enum fsl_scale scale,
			 const struct fsl_cell *cell);
/* argv: room for FSL_CELL_SETS * 2 + 22 entries */
void fsl_demo_run_argv(const char **argv, const char *self, const char *mnt, const char *trace,
		       const char *scenario, const char *workdir, const char *phases,
		       const char *scale, const char *srcdir, const struct fsl_cell *cell);
int fsl_demo_report(const char *self, const char *trace, const char *html, const char *json,
		    volatile sig_atomic_t *stop);
/* fslens compare's table and what changed, of n traces (causes: analyse the phases). */
int fsl_demo_compare(char (*traces)[PATH_MAX], unsigned int n, int causes);

#endif
