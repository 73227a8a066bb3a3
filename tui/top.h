/* SPDX-License-Identifier: GPL-2.0 */
/* fslens top's main loop: source -> feed -> screen, keys, refresh, teardown. */
#ifndef FSL_TUI_TOP_H
#define FSL_TUI_TOP_H

#include <stdint.h>
#include <stdio.h>
#include "source.h"

struct top_opts {
	double interval_s;	/* refresh interval, wall seconds (-i) */
	double speed;		/* replay: trace seconds per wall second */
	const char *filter;	/* initial filter (-p PID) */
	int view;		/* initial view, 0..4 */
	/* batch mode (-b): no terminal, frames printed as text */
	int batch;
	int iterations;		/* -n: frames to print (0: until the trace ends) */
	int rows, cols;		/* batch frame size */
	int accumulated;	/* start in totals-since-start mode */
};

/*
 * Run the interactive screen on the terminal until q, a stop signal, the
 * end of a live source or an error. Owns the terminal for that time and
 * always gives it back. Returns 0, or -errno with a reason in errbuf.
 * *stop_sig gets the signal that ended it (0 if none).
 */
int top_run_interactive(struct top_source *src, const struct top_opts *o, int *stop_sig,
			char *errbuf, size_t errlen);

/*
 * Batch mode: advance the trace clock by interval x speed per frame without
 * waiting (a replay is played as fast as it reads), print each frame.
 */
int top_run_batch(struct top_source *src, const struct top_opts *o, FILE *out, char *errbuf,
		  size_t errlen);

#endif
