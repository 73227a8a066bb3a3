/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Renderers of the analyses (analyzer/render_*.c): text (100 columns),
 * JSON (docs/report-json.md) and a self-contained HTML page with inline SVG.
 * They read struct fsl_analysis results only; they write to the FILE given
 * and return 0, or -EIO when a write failed.
 */
#ifndef FSLENS_REPORT_H
#define FSLENS_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "analysis.h"
#include "text.h"	/* fsl_fmt_bytes */

#define FSL_REPORT_JSON_VERSION	1

struct fsl_report_info {
	const char *trace_path;		/* shown in the header; may be NULL */
	uint32_t sections;		/* FSL_SEC_*; 0 = all */
	unsigned int max_txns;		/* journal rows in text (0 = 20) */
	unsigned int max_breaks;	/* fragcheck lines in text (0 = all) */
	int json_full;			/* JSON: every entry of the long lists, no cap */
};

/*
 * JSON lists that grow with the trace (readdir streams, fragcheck breaks)
 * stop at this many entries unless json_full: a bounded document whatever
 * the trace; the totals are always given.
 */
#define FSL_JSON_LIST_MAX	1000

int fsl_report__text(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info);
int fsl_report__json(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info);
int fsl_report__html(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info);

/* Helpers the renderers share (and top may use): "12.3 ms", "1,234"... */
const char *fsl_fmt_ns(char *buf, size_t len, uint64_t ns);
const char *fsl_fmt_count(char *buf, size_t len, uint64_t n);
/* EXT4_HT_* handle type name. */
const char *fsl_handle_type_name(unsigned int type);

#endif
