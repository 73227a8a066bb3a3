// SPDX-License-Identifier: GPL-2.0
/* The table every top view is built on: sort, filter, cursor, scroll, draw. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "view.h"

int top_lines__add(struct top_lines *l, const char *fmt, ...)
{
	char buf[1024], *s;
	va_list ap;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = strdup(buf);
	if (!s)
		return -ENOMEM;
	l->v[l->n++] = s;
	return 0;
}

void top_lines__free(struct top_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void top_fmt_num(char *buf, size_t n, double v, int width, int prec)
{
	static const char suffix[] = "kMGTP";
	int i;

	if (!isfinite(v)) {
		snprintf(buf, n, "%*s", width, "-");
		return;
	}
	/* Drop decimals first, then scale with a suffix, until it fits. */
	for (; prec >= 0; prec--) {
		if (snprintf(buf, n, "%*.*f", width, prec, v) <= width)
			return;
	}
	for (i = 0; i < 5; i++) {
		v /= 1000.0;
		if (snprintf(buf, n, "%*.0f%c", width - 1, v, suffix[i]) <= width)
			return;
	}
	snprintf(buf, n, "%*s", width, "#");
}

static int col_sortable(const struct top_col *c)
{
	return c->kind != TOP_COL_CUSTOM;
}

static const void *row_at(const void *base, size_t stride, size_t i)
{
	return (const char *)base + i * stride;
}

static double col_num(const struct top_col *c, const void *row)
{
	const char *p = (const char *)row + c->off;

	switch (c->kind) {
	case TOP_COL_U32:
		return *(const uint32_t *)p;
	case TOP_COL_DBL:
		return *(const double *)p;
	case TOP_COL_DBL_ARR:
		return ((const double *)p)[c->prec >> 4];
	}
	return 0;
}

struct sort_ctx {
	const struct top_col *col;
	const void *base;
	size_t stride;
	int reverse;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const void *ra = row_at(c->base, c->stride, ia);
	const void *rb = row_at(c->base, c->stride, ib);
	int r;

	if (c->col->kind == TOP_COL_STR) {
		/* Names sort A..Z by default. */
		r = strcmp((const char *)ra + c->col->off, (const char *)rb + c->col->off);
	} else {
		/* Numbers sort biggest first by default. */
		double x = col_num(c->col, ra), y = col_num(c->col, rb);

		r = x < y ? 1 : x > y ? -1 : 0;
	}
	if (c->reverse)
		r = -r;
	if (!r)
		r = ia < ib ? -1 : ia > ib;
	return r;
}

void top_view__sort_by(struct top_view *v, int col)
{
	if (col < 0 || col >= v->ncols || !col_sortable(&v->cols[col]))
		return;
	v->sort_col = col;
	v->reverse = 0;
}

void top_view__update(struct top_view *v, const struct top_snap *s, const char *filter)
{
	size_t n = 0, stride = 0, i;
	const void *base = v->ops->rows(s, &n, &stride);
	struct sort_ctx ctx;

	if (n > v->order_cap) {
		size_t *o = realloc(v->order, n * sizeof(*o));

		if (!o) {
			v->norder = 0;
			return;
		}
		v->order = o;
		v->order_cap = n;
	}
	v->norder = 0;
	for (i = 0; i < n; i++) {
		const void *r = row_at(base, stride, i);

		if (filter && filter[0] && v->ops->match && !v->ops->match(r, filter))
			continue;
		v->order[v->norder++] = i;
	}
	/* v->order is NULL while no row was ever seen, and qsort_r wants a pointer */
	if (v->norder && v->sort_col >= 0 && v->sort_col < v->ncols &&
	    col_sortable(&v->cols[v->sort_col])) {
		ctx = (struct sort_ctx){ &v->cols[v->sort_col], base, stride, v->reverse };
		qsort_r(v->order, v->norder, sizeof(*v->order), cmp_rows, &ctx);
	}
	/* Keep the cursor on the row it was on, wherever it sorted to. */
	if (v->have_sel && v->ops->ident) {
		for (i = 0; i < v->norder; i++)
			if (v->ops->ident(row_at(base, stride, v->order[i])) == v->sel_ident) {
				v->sel = i;
				break;
			}
	}
	if (v->norder == 0)
		v->sel = 0;
	else if (v->sel >= v->norder)
		v->sel = v->norder - 1;
}

const void *top_view__selected(const struct top_view *v, const struct top_snap *s)
{
	size_t n = 0, stride = 0;
	const void *base = v->ops->rows(s, &n, &stride);

	if (v->sel >= v->norder || v->order[v->sel] >= n)
		return NULL;
	return row_at(base, stride, v->order[v->sel]);
}

static void remember_sel(struct top_view *v, const struct top_snap *s)
{
	const void *r = top_view__selected(v, s);

	v->have_sel = r && v->ops->ident;
	if (v->have_sel)
		v->sel_ident = v->ops->ident(r);
}

/* Column x positions and widths for a terminal cols wide. */
static void layout(const struct top_view *v, int cols, int *xs, int *ws)
{
	int x = 0, i, w;

	for (i = 0; i < v->ncols; i++) {
		w = v->cols[i].width;
		if (w < 0)
			w = -w;
		if (w == 0 || x + w > cols)
			w = cols - x;
		if (w < 0)
			w = 0;
		xs[i] = x;
		ws[i] = w;
		x += w + 1;
		if (x > cols)
			x = cols;
	}
}

static void fmt_cell(const struct top_col *c, const void *row, char *buf, size_t n, int w)
{
	const char *p = (const char *)row + c->off;
	int prec = c->kind == TOP_COL_DBL_ARR ? (c->prec & 0xf) : c->prec;

	switch (c->kind) {
	case TOP_COL_U32:
		top_fmt_num(buf, n, *(const uint32_t *)p, w, 0);
		break;
	case TOP_COL_DBL:
	case TOP_COL_DBL_ARR:
		top_fmt_num(buf, n, col_num(c, row), w, prec);
		break;
	case TOP_COL_STR:
		if (c->width < 0 || c->width == 0)
			snprintf(buf, n, "%-*.*s", w, w, p);
		else
			snprintf(buf, n, "%*.*s", w, w, p);
		break;
	default:
		buf[0] = 0;
	}
}

void top_view__draw(struct top_view *v, struct tui_term *t, const struct top_snap *s, int y0,
		    int h)
{
	int cols = tui_term__cols(t), xs[32], ws[32], i, y;
	size_t n = 0, stride = 0, k;
	const void *base = v->ops->rows(s, &n, &stride);
	char buf[512];

	if (h < 1)
		return;
	layout(v, cols, xs, ws);
	tui_term__fill(t, y0, 0, cols, TUI_A_COLHEAD);
	for (i = 0; i < v->ncols; i++) {
		const struct top_col *c = &v->cols[i];
		enum tui_attr a = i == v->sort_col ? TUI_A_SORTCOL : TUI_A_COLHEAD;

		if (!ws[i])
			continue;
		if (c->width > 0)
			snprintf(buf, sizeof(buf), "%*.*s", ws[i], ws[i], c->title);
		else
			snprintf(buf, sizeof(buf), "%-*.*s", ws[i], ws[i], c->title);
		tui_term__put(t, y0, xs[i], a, buf, ws[i]);
	}
	v->page = h - 1;
	if (v->page < 1)
		v->page = 1;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + v->page)
		v->top = v->sel - v->page + 1;
	if (v->top + v->page > v->norder)
		v->top = v->norder > (size_t)v->page ? v->norder - v->page : 0;
	if (!v->norder) {
		tui_term__put(t, y0 + 1, 1, TUI_A_DIM, v->ops->empty ? v->ops->empty : "(nothing)",
			      -1);
		return;
	}
	for (y = 1, k = v->top; y < h && k < v->norder; y++, k++) {
		const void *row = row_at(base, stride, v->order[k]);
		int selected = k == v->sel;
		enum tui_attr a = selected ? TUI_A_SELECTED : TUI_A_NORMAL;

		if (selected)
			tui_term__fill(t, y0 + y, 0, cols, TUI_A_SELECTED);
		for (i = 0; i < v->ncols; i++) {
			const struct top_col *c = &v->cols[i];

			if (!ws[i])
				continue;
			if (c->kind == TOP_COL_CUSTOM) {
				if (v->ops->draw_cell)
					v->ops->draw_cell(v, t, row, i, y0 + y, xs[i], ws[i],
							  selected);
				continue;
			}
			fmt_cell(c, row, buf, sizeof(buf), ws[i]);
			/* A zero is not news: dim it so the eye finds the rest. */
			if (!selected && c->kind != TOP_COL_STR && col_num(c, row) == 0)
				tui_term__put(t, y0 + y, xs[i], TUI_A_DIM, buf, ws[i]);
			else
				tui_term__put(t, y0 + y, xs[i], a, buf, ws[i]);
		}
	}
}

static void next_sort(struct top_view *v, int dir)
{
	int i, c = v->sort_col;

	for (i = 0; i < v->ncols; i++) {
		c = (c + dir + v->ncols) % v->ncols;
		if (col_sortable(&v->cols[c]))
			break;
	}
	top_view__sort_by(v, c);
}

int top_view__key(struct top_view *v, const struct top_snap *s, int key)
{
	size_t page = v->page > 0 ? v->page : 1;

	if (v->ops->key) {
		int r = v->ops->key(v, key);

		if (r != TOP_KEY_UNHANDLED)
			return r;
	}
	switch (key) {
	case TUI_KEY_UP:
	case 'k':
		if (v->sel > 0)
			v->sel--;
		break;
	case TUI_KEY_DOWN:
	case 'j':
		if (v->sel + 1 < v->norder)
			v->sel++;
		break;
	case TUI_KEY_PGUP:
		v->sel = v->sel > page ? v->sel - page : 0;
		break;
	case TUI_KEY_PGDN:
		v->sel += page;
		if (v->sel >= v->norder)
			v->sel = v->norder ? v->norder - 1 : 0;
		break;
	case TUI_KEY_HOME:
		v->sel = 0;
		break;
	case TUI_KEY_END:
		v->sel = v->norder ? v->norder - 1 : 0;
		break;
	case '>':
	case 's':
		next_sort(v, 1);
		break;
	case '<':
		next_sort(v, -1);
		break;
	case 'r':
		v->reverse = !v->reverse;
		break;
	default:
		return TOP_KEY_UNHANDLED;
	}
	remember_sel(v, s);
	return TOP_REDRAW_BODY;
}

void top_view__free(struct top_view *v)
{
	free(v->order);
	v->order = NULL;
	v->norder = v->order_cap = 0;
}

void top_draw_spark(struct tui_term *t, int y, int x, int w, const double *vals, unsigned int n,
		    double max, enum tui_attr a)
{
	static const char *const u8[] = { " ", "\u2581", "\u2582", "\u2583", "\u2584",
					  "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = " .:-=+*#@";
	char buf[4 * 256 + 1], *p = buf;
	unsigned int i, first;
	int utf8 = tui_term__utf8(t), lvl;

	if (w <= 0)
		return;
	if (w > 256)
		w = 256;
	/* The newest values, right-aligned. */
	first = n > (unsigned int)w ? n - w : 0;
	if (max <= 0)
		for (i = first; i < n; i++)
			if (vals[i] > max)
				max = vals[i];
	for (i = n - first; i < (unsigned int)w; i++)
		*p++ = ' ';
	for (i = first; i < n; i++) {
		double v = vals[i];

		/* Any non-zero value shows at least the lowest bar. */
		lvl = max > 0 && v > 0 ? (int)ceil(v / max * 8.0) : 0;
		if (lvl > 8)
			lvl = 8;
		if (utf8) {
			size_t l = strlen(u8[lvl]);

			memcpy(p, u8[lvl], l);
			p += l;
		} else {
			*p++ = ascii[lvl];
		}
	}
	*p = 0;
	tui_term__put(t, y, x, a, buf, w);
}
