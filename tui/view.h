/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Views of the top screen: small objects with a draw and a key handler.
 * A key handler returns what needs redrawing; the screen (screen.c) owns the
 * header, the footer and the overlays and redraws what it is told.
 *
 * Most views are tables over one row array of the snapshot, described by
 * columns (struct top_col); the table code sorts, filters, scrolls and keeps
 * the cursor on the same row (by identity) across refreshes.
 */
#ifndef FSL_TUI_VIEW_H
#define FSL_TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "snap.h"
#include "term.h"

enum {
	TOP_REDRAW_NONE = 0,
	TOP_REDRAW_BODY = 1,	/* the view's area */
	TOP_REDRAW_ALL = 2,	/* header, view, footer */
	TOP_KEY_UNHANDLED = -1,
};

enum top_col_kind {
	TOP_COL_U32 = 1,
	TOP_COL_DBL,		/* printed with prec decimals */
	TOP_COL_STR,		/* char array in the row */
	TOP_COL_DBL_ARR,	/* double at off + index*8 (index in prec) */
	TOP_COL_CUSTOM,		/* drawn by the view's draw_cell, not sortable */
};

struct top_col {
	const char *title;
	int width;		/* > 0 right-aligned, < 0 left-aligned; 0 = rest of the line */
	uint8_t kind;		/* enum top_col_kind */
	uint8_t prec;
	uint16_t off;		/* offset of the field in the row struct */
	const char *help;	/* one line for the help screen */
};

struct top_view;

/* A block of text lines (details overlay). */
struct top_lines {
	char **v;
	size_t n, cap;
};
int top_lines__add(struct top_lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void top_lines__free(struct top_lines *l);

struct top_view_ops {
	/* The rows of the snapshot this view lists: base, count and row size. */
	const void *(*rows)(const struct top_snap *s, size_t *n, size_t *stride);
	/* Stable identity of a row (keeps the cursor on it across refreshes). */
	uint64_t (*ident)(const void *row);
	/* 1 if the row matches the filter text (NULL: view is not filtered). */
	int (*match)(const void *row, const char *filter);
	/* Draw a TOP_COL_CUSTOM cell. */
	void (*draw_cell)(struct top_view *v, struct tui_term *t, const void *row, int col,
			  int y, int x, int w, int selected);
	/* Lines for the Enter details overlay. */
	int (*details)(struct top_view *v, const struct top_snap *s, const void *row,
		       struct top_lines *out);
	/* A key of this view's own (before navigation and sort); may be NULL. */
	int (*key)(struct top_view *v, int key);
	/* What the view lists, for the help screen; may be NULL. */
	const char *subtitle;
	/* Text when there are no rows. */
	const char *empty;
};

struct top_view {
	const char *name;		/* "processes" */
	const char *tab;		/* short name for the tab line: "procs" */
	int hotkey;			/* '1' */
	const struct top_col *cols;
	int ncols;
	const struct top_view_ops *ops;
	int default_sort;
	/* state */
	int sort_col;
	int reverse;			/* ascending instead of the default descending */
	size_t sel;			/* cursor position in the displayed order */
	size_t top;			/* first displayed row */
	uint64_t sel_ident;		/* identity of the row under the cursor */
	int have_sel;
	int page;			/* rows that fit, from the last draw */
	size_t *order;			/* displayed row indices after filter+sort */
	size_t norder, order_cap;
};

/* The five views, in hotkey order. */
extern struct top_view top_view_processes, top_view_stalls, top_view_journal,
	top_view_devices, top_view_dirs, top_view_files;

/* Rebuild the displayed order (filter, sort) and re-find the cursor row. */
void top_view__update(struct top_view *v, const struct top_snap *s, const char *filter);
/* Draw the table in rows [y0, y0+h) of the terminal. */
void top_view__draw(struct top_view *v, struct tui_term *t, const struct top_snap *s, int y0,
		    int h);
/* Navigation and sort keys. Returns TOP_REDRAW_* or TOP_KEY_UNHANDLED. */
int top_view__key(struct top_view *v, const struct top_snap *s, int key);
/* The row under the cursor, or NULL. */
const void *top_view__selected(const struct top_view *v, const struct top_snap *s);
/* Pick the sort column by index (skips unsortable columns); resets the direction. */
void top_view__sort_by(struct top_view *v, int col);
void top_view__free(struct top_view *v);

/* Sparkline of n values scaled to max (max <= 0: to their own maximum). */
void top_draw_spark(struct tui_term *t, int y, int x, int w, const double *vals, unsigned int n,
		    double max, enum tui_attr a);

/* Human-friendly fixed-width number: 1234 -> "1234", 123456 -> "123k". */
void top_fmt_num(char *buf, size_t n, double v, int width, int prec);

#endif
