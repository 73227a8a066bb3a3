/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the renderers (render_*.c). */
#ifndef FSL_RENDER_INTERNAL_H
#define FSL_RENDER_INTERNAL_H

#include "fslens/report.h"

/* The span the report covers: the window, else the recording, else the events. */
void rn_span(struct fsl_analysis *a, uint64_t *t0, uint64_t *t1);
/* kv or "-" */
const char *rn_kv(struct fsl_analysis *a, const char *key);
/* "MAJ:MIN" */
const char *rn_dev(char *buf, size_t len, uint32_t dev);
static inline double rn_sec(uint64_t ns)
{
	return ns / 1e9;
}
static inline double rn_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/* An XFS target: its layout section replaces the ext4 layout and jbd2 journal ones (render_xfs.c). */
struct fsl_json;
int rn_is_xfs(struct fsl_analysis *a);
void rn_xfs_text(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info);
void rn_xfs_json(struct fsl_json *j, struct fsl_analysis *a, const struct fsl_report_info *info);

/* A fragcheck line of a file without extents, as e2fsck prints it (render_xfs.c). */
struct fsl_ind_break;
void rn_ind_line(char *buf, size_t len, const struct fsl_ind_break *b);

#endif
