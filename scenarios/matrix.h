/* SPDX-License-Identifier: GPL-2.0 */
/*
 * demo's --matrix: KEY=V1,V2 ... for up to FSL_MATRIX_KEYS keys, walked as
 * the cartesian product in odometer order (the first key turns fastest).
 * Each cell is a set of KEY=VALUE parameters and a label that names its
 * files (scenario_key-value_...: plain name characters only). The walk runs
 * a function on every cell and names the cells that failed; it never
 * prints.
 */
#ifndef FSL_MATRIX_H
#define FSL_MATRIX_H
#include <signal.h>
#include <stddef.h>

#define FSL_MATRIX_KEYS		8
#define FSL_MATRIX_VALUES	8

struct fsl_matrix {
	unsigned int n;
	char key[FSL_MATRIX_KEYS][64];
	char val[FSL_MATRIX_KEYS][FSL_MATRIX_VALUES][128];
	unsigned int nval[FSL_MATRIX_KEYS];
	unsigned int idx[FSL_MATRIX_KEYS];	/* the current cell */
};

/* One key: "KEY=V1,V2,...". -EINVAL malformed or too many keys, -E2BIG too many values. */
int fsl_matrix__add(struct fsl_matrix *m, const char *arg);
/* How many cells (1 with no key: the one plain configuration). */
unsigned long fsl_matrix__count(const struct fsl_matrix *m);
/* The current cell's i-th setting, "KEY=VALUE", in buf. */
const char *fsl_matrix__setting(const struct fsl_matrix *m, unsigned int i, char *buf, size_t len);
/* The current cell's label: prefix, then _KEY-VALUE per key, file-safe. */
void fsl_matrix__label(const struct fsl_matrix *m, const char *prefix, char *buf, size_t len);
/* Move to the next cell: 1, or 0 after the last (back at the first). */
int fsl_matrix__next(struct fsl_matrix *m);

/*
 * A cell's run: its label (prefix, fsl_matrix__label) and its n KEY=VALUE
 * settings, both valid during the call. 0: the cell ran; 1: it failed and
 * the walk goes on; any other value ends the walk.
 */
typedef int fsl_matrix_run_fn(void *ctx, const char *label, const char *const *settings,
			      unsigned int n);

/* The cells a walk saw fail, by label, in walk order (the first 64). */
struct fsl_matrix_failed {
	unsigned int n;
	char label[64][256];
};

/*
 * run on each cell from m's current one (the first, after fsl_matrix__add)
 * to the last. A cell that fails does not stop the others (large_dir=0 can
 * run out of htree levels where large_dir=1 goes on): its label goes in
 * failed (may be NULL). 0 when every cell ran, 1 when one failed; a run's
 * other value as it is; -EINTR when *stop (may be NULL) is set after a
 * cell. m is left at the cell the walk ended on.
 */
int fsl_matrix__walk(struct fsl_matrix *m, const char *prefix, fsl_matrix_run_fn *run, void *ctx,
		     const volatile sig_atomic_t *stop, struct fsl_matrix_failed *failed);

#endif
