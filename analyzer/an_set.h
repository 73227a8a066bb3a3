/* SPDX-License-Identifier: GPL-2.0 */
/* The whole set of analyses, as the diagnosis (report/diagnosis.c) reads it. */
#ifndef FSL_AN_SET_H
#define FSL_AN_SET_H

#include "an_internal.h"

/* Every analysis the diagnosis needs, sections or not. */
const struct fsl_ops *an_analysis_ops(struct fsl_analysis *a);
const struct fsl_journal *an_analysis_journal(struct fsl_analysis *a);
const struct fsl_writeback *an_analysis_writeback(struct fsl_analysis *a);
const struct fsl_blockio *an_analysis_blockio(struct fsl_analysis *a);
const struct an_ctx *an_analysis_ctx(struct fsl_analysis *a);

/* fsl_analysis__attach with the analyses in reverse order (tests: order must not matter). */
int an_analysis_attach_order(struct fsl_analysis *a, struct fsl_session *s, int reverse);

#endif
