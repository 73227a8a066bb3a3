/* SPDX-License-Identifier: GPL-2.0 */
/*
 * demo's --matrix: KEY=V1,V2 ... for up to FSL_MATRIX_KEYS keys, walked as
 * the cartesian product in odometer order (the first key turns fastest).
 * Each cell is a set of KEY=VALUE parameters and a label that names its
 * files (scenario_key-value_...: plain name characters only).
 */
#ifndef FSL_MATRIX_H
#define FSL_MATRIX_H
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

#endif
