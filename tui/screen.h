/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The screen manager of fslens top: header, view tabs, the current view,
 * footer, and the overlays (help, details, filter prompt). It turns keys
 * into view changes and tells the main loop what it asked for (quit, pause,
 * accumulated mode) through its public flags.
 */
#ifndef FSL_TUI_SCREEN_H
#define FSL_TUI_SCREEN_H

#include "snap.h"
#include "term.h"
#include "view.h"

#define TOP_NVIEWS 6
#define TOP_FILTER_MAX 64

enum top_overlay {
	TOP_OV_NONE = 0,
	TOP_OV_HELP,
	TOP_OV_DETAILS,
	TOP_OV_FILTER,
};

struct top_screen {
	struct tui_term *term;
	struct top_view *views[TOP_NVIEWS];
	int cur;
	enum top_overlay overlay;
	struct top_lines lines;		/* help or details text */
	size_t lines_top;
	char filter[TOP_FILTER_MAX];
	char edit[TOP_FILTER_MAX];
	/* Asked for by keys; the main loop reads and acts on them. */
	int quit;
	int paused;
	int accumulated;
	int want_refresh;		/* recompute the snapshot now (mode changed) */
};

/* The screen draws on t (not owned). */
void top_screen__init(struct top_screen *s, struct tui_term *t);
void top_screen__fini(struct top_screen *s);
/* New data: re-sort/filter the current view. Call before draw. */
void top_screen__update(struct top_screen *s, const struct top_snap *snap);
void top_screen__draw(struct top_screen *s, const struct top_snap *snap);
/* One key. Returns TOP_REDRAW_*. */
int top_screen__key(struct top_screen *s, const struct top_snap *snap, int key);
/* Rows the header takes at the current width (tests, layout). */
int top_screen__header_rows(const struct top_screen *s, const struct top_snap *snap);

#endif
