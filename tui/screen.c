// SPDX-License-Identifier: GPL-2.0
/* Screen manager for fslens top: header, tabs, the current view, overlays, keys. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "screen.h"

#define MIN_ROWS 10
#define MIN_COLS 40

void top_screen__init(struct top_screen *s, struct tui_term *t)
{
	memset(s, 0, sizeof(*s));
	s->term = t;
	s->views[0] = &top_view_processes;
	s->views[1] = &top_view_stalls;
	s->views[2] = &top_view_journal;
	s->views[3] = &top_view_devices;
	s->views[4] = &top_view_dirs;
	s->views[5] = &top_view_files;
}

void top_screen__fini(struct top_screen *s)
{
	int i;

	for (i = 0; i < TOP_NVIEWS; i++)
		top_view__free(s->views[i]);
	top_lines__free(&s->lines);
}

/* ---- header ---- */

struct hfield {
	const char *label;
	char value[32];
	enum tui_attr attr;
};

static unsigned int header_fields(const struct top_snap *snap, struct hfield *f)
{
	const struct top_header *h = &snap->hdr;
	unsigned int n = 0;

#define HF(lbl, a, ...) do { f[n].label = lbl; f[n].attr = a; \
	snprintf(f[n].value, sizeof(f[n].value), __VA_ARGS__); n++; } while (0)
	HF("ops/s", TUI_A_VALUE, "%.1f", h->ops_s);
	HF("creates/s", TUI_A_VALUE, "%.1f", h->creates_s);
	HF("IOPS", TUI_A_VALUE, "%.1f", h->iops);
	HF("read MB/s", TUI_A_VALUE, "%.2f", h->read_mbs);
	HF("write MB/s", TUI_A_VALUE, "%.2f", h->write_mbs);
	HF("seeks/s", TUI_A_VALUE, "%.1f", h->seeks_s);
	HF("commits/s", TUI_A_VALUE, "%.2f", h->commits_s);
	HF("avg commit ms", TUI_A_VALUE, "%.2f", h->commit_avg_ms);
	if (h->have_dirty) {
		HF("dirty MB", TUI_A_VALUE, "%.1f", h->dirty_mb);
		HF("writeback MB", TUI_A_VALUE, "%.1f", h->writeback_mb);
	} else {
		HF("dirty MB", TUI_A_DIM, "-");
		HF("writeback MB", TUI_A_DIM, "-");
	}
	if (h->have_whole) {
		HF("on-CPU %", TUI_A_VALUE, "%.1f", h->oncpu_pct);
		HF("runnable %", TUI_A_VALUE, "%.1f", h->runq_pct);
		HF("blocked %", TUI_A_VALUE, "%.1f", h->blocked_pct);
	}
	HF("lost", h->lost ? TUI_A_WARN : TUI_A_VALUE, "%llu", (unsigned long long)h->lost);
#undef HF
	return n;
}

/* Flow the fields over as many lines as the width needs; draw if y0 >= 0. */
static int header_flow(struct tui_term *t, const struct top_snap *snap, int y0)
{
	struct hfield f[16];
	unsigned int n = header_fields(snap, f), i;
	int cols = tui_term__cols(t), x = 1, y = 0, w;

	for (i = 0; i < n; i++) {
		w = (int)strlen(f[i].label) + 1 + (int)strlen(f[i].value);
		if (x > 1 && x + w > cols) {
			y++;
			x = 1;
		}
		if (y0 >= 0) {
			tui_term__put(t, y0 + y, x, TUI_A_LABEL, f[i].label, -1);
			tui_term__put(t, y0 + y, x + strlen(f[i].label) + 1, f[i].attr, f[i].value, -1);
		}
		x += w + 2;
	}
	return y + 1;
}

int top_screen__header_rows(const struct top_screen *s, const struct top_snap *snap)
{
	return header_flow(s->term, snap, -1);
}

static void fmt_elapsed(char *buf, size_t n, double sec)
{
	unsigned long long ms = sec > 0 ? (unsigned long long)(sec * 1000.0 + 0.5) : 0;

	if (ms < 60000)
		snprintf(buf, n, "%.1fs", ms / 1000.0);
	else
		snprintf(buf, n, "%llu:%02llu:%02llu", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60);
}

static void draw_title(struct top_screen *s, const struct top_snap *snap)
{
	struct tui_term *t = s->term;
	const struct top_header *h = &snap->hdr;
	char el[32], win[32], buf[512];
	int cols = tui_term__cols(t);

	fmt_elapsed(el, sizeof(el), h->elapsed_s);
	if (h->accumulated && h->totals_from_s > 0)
		snprintf(win, sizeof(win), "totals from %.1fs", h->totals_from_s);
	else if (h->accumulated)
		snprintf(win, sizeof(win), "totals");
	else
		snprintf(win, sizeof(win), "interval %.1fs", h->window_s);
	/* Most important first: the right end is cut on narrow terminals. */
	snprintf(buf, sizeof(buf), " fslens top  %s (%s)  elapsed %s%s%s%s  %s  %s",
		 h->target[0] ? h->target : "-", h->dev[0] ? h->dev : "?", el,
		 h->paused ? "  [PAUSED]" : "", h->ended ? "  [END]" : "",
		 h->behind ? "  [BEHIND]" : "", win, h->source);
	tui_term__fill(t, 0, 0, cols, TUI_A_TITLE);
	tui_term__put(t, 0, 0, TUI_A_TITLE, buf, cols);
}

static void draw_tabs(struct top_screen *s, int y)
{
	struct tui_term *t = s->term;
	struct top_view *v = s->views[s->cur];
	int x = 0, i, cols = tui_term__cols(t), full = 0, compact;
	char buf[96], state[96];

	/* Sort and filter state at the right when there is room. */
	if (v->sort_col >= 0 && v->sort_col < v->ncols)
		snprintf(state, sizeof(state), "sort %s %s%s%s", v->cols[v->sort_col].title,
			 v->reverse ? "(rev)" : "", s->filter[0] ? "  filter " : "", s->filter);
	else
		state[0] = 0;
	for (i = 0; i < TOP_NVIEWS; i++)
		full += 4 + (int)strlen(s->views[i]->tab);
	/* no room for both: the other views' tabs show their key only */
	compact = state[0] && full + 2 + (int)strlen(state) >= cols;
	for (i = 0; i < TOP_NVIEWS; i++) {
		if (compact && i != s->cur)
			snprintf(buf, sizeof(buf), " %c ", s->views[i]->hotkey);
		else
			snprintf(buf, sizeof(buf), " %c:%s ", s->views[i]->hotkey, s->views[i]->tab);
		x += tui_term__put(t, y, x, i == s->cur ? TUI_A_SELECTED : TUI_A_NORMAL, buf, -1);
	}
	if (x + 2 + (int)strlen(state) < cols)
		tui_term__put(t, y, cols - (int)strlen(state) - 1, TUI_A_DIM, state, -1);
}

static void draw_footer(struct top_screen *s, int y)
{
	static const struct { const char *key, *what; } hints[] = {
		{ "q", "quit" }, { "h", "help" }, { "1-6", "views" }, { "s/<>", "sort" },
		{ "r", "reverse" }, { "f", "filter" }, { "p", "by program" }, { "space", "pause" },
		{ "Enter", "details" }, { "a", "totals" },
	};
	struct tui_term *t = s->term;
	int cols = tui_term__cols(t), x = 0;
	unsigned int i;
	char buf[160];

	tui_term__fill(t, y, 0, cols, TUI_A_FOOTER);
	if (s->overlay == TOP_OV_FILTER) {
		snprintf(buf, sizeof(buf), " filter by comm or pid: %s_", s->edit);
		tui_term__put(t, y, 0, TUI_A_FOOTER, buf, cols);
		tui_term__put(t, y, cols > 40 ? cols - 30 : cols, TUI_A_FOOTER,
			      "Enter apply  Esc cancel", -1);
		return;
	}
	if (s->overlay == TOP_OV_HELP || s->overlay == TOP_OV_DETAILS) {
		tui_term__put(t, y, 0, TUI_A_FOOTER,
			      " arrows/PgUp/PgDn scroll   Esc, q or Enter: back", cols);
		return;
	}
	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		snprintf(buf, sizeof(buf), " %s  ", hints[i].what);
		if (x + (int)(strlen(hints[i].key) + strlen(buf)) > cols)
			break;
		x += tui_term__put(t, y, x, TUI_A_KEY, hints[i].key, -1);
		x += tui_term__put(t, y, x, TUI_A_FOOTER, buf, -1);
	}
}

static void draw_lines(struct top_screen *s, int y0, int h)
{
	struct tui_term *t = s->term;
	int y;
	size_t k;

	if (s->lines.n && s->lines_top >= s->lines.n)
		s->lines_top = s->lines.n - 1;
	for (y = 0, k = s->lines_top; y < h && k < s->lines.n; y++, k++)
		tui_term__put(t, y0 + y, 1, y == 0 && k == 0 ? TUI_A_VALUE : TUI_A_NORMAL,
			      s->lines.v[k], -1);
}

void top_screen__update(struct top_screen *s, const struct top_snap *snap)
{
	top_view__update(s->views[s->cur], snap, s->filter);
}

void top_screen__draw(struct top_screen *s, const struct top_snap *snap)
{
	struct tui_term *t = s->term;
	int rows = tui_term__rows(t), cols = tui_term__cols(t), hr, body;

	tui_term__clear(t);
	if (rows < MIN_ROWS || cols < MIN_COLS) {
		tui_term__printf(t, 0, 0, TUI_A_WARN, "terminal too small (%dx%d)", cols, rows);
		tui_term__printf(t, 1, 0, TUI_A_NORMAL, "need %dx%d; q quits", MIN_COLS, MIN_ROWS);
		tui_term__flush(t);
		return;
	}
	top_screen__update(s, snap);
	draw_title(s, snap);
	hr = header_flow(t, snap, 1);
	draw_tabs(s, 1 + hr);
	body = rows - (2 + hr) - 1;
	if (s->overlay == TOP_OV_HELP || s->overlay == TOP_OV_DETAILS)
		draw_lines(s, 2 + hr, body);
	else
		top_view__draw(s->views[s->cur], t, snap, 2 + hr, body);
	draw_footer(s, rows - 1);
	tui_term__flush(t);
}

/* ---- overlays ---- */

static void open_help(struct top_screen *s)
{
	struct top_view *v = s->views[s->cur];
	struct top_lines *l = &s->lines;
	int i;

	top_lines__free(l);
	top_lines__add(l, "fslens top: where filesystem time goes (h, ? or F1: this help)");
	top_lines__add(l, "%s", "");
	top_lines__add(l, "  q           quit (Ctrl-C too)");
	top_lines__add(l, "  1 2 3 4 5   processes, stalls, journal, devices, directories");
	top_lines__add(l, "  arrows      move; PgUp/PgDn, Home/End scroll");
	top_lines__add(l, "  s or >, <   sort by the next / previous column;  r  reverse");
	top_lines__add(l, "  f           filter by comm substring or exact pid (empty clears)");
	top_lines__add(l, "  p           processes: one row per program (comm) <-> per process");
	top_lines__add(l, "  space       pause (replay: the trace clock stops)");
	top_lines__add(l, "  Enter       details of the row (stalls: the full stack)");
	top_lines__add(l, "  a           rates over the last interval <-> totals since start");
	top_lines__add(l, "%s", "");
	top_lines__add(l, "header: rates per second over the interval shown in the title bar;");
	top_lines__add(l, "  lost = events the kernel dropped (ring buffer full), red if any");
	top_lines__add(l, "%s", "");
	if (v->ops->subtitle)
		top_lines__add(l, "%s view columns (%s):", v->name, v->ops->subtitle);
	else
		top_lines__add(l, "%s view columns:", v->name);
	for (i = 0; i < v->ncols; i++)
		top_lines__add(l, "  %-12s %s", v->cols[i].title, v->cols[i].help ? v->cols[i].help : "");
	s->lines_top = 0;
	s->overlay = TOP_OV_HELP;
}

static int open_details(struct top_screen *s, const struct top_snap *snap)
{
	struct top_view *v = s->views[s->cur];
	const void *row = top_view__selected(v, snap);

	if (!row || !v->ops->details)
		return TOP_REDRAW_NONE;
	top_lines__free(&s->lines);
	v->ops->details(v, snap, row, &s->lines);
	s->lines_top = 0;
	s->overlay = TOP_OV_DETAILS;
	return TOP_REDRAW_ALL;
}

static int lines_key(struct top_screen *s, int key)
{
	int page = tui_term__rows(s->term) - 6;

	if (page < 1)
		page = 1;
	switch (key) {
	case TUI_KEY_UP:
		if (s->lines_top)
			s->lines_top--;
		return TOP_REDRAW_BODY;
	case TUI_KEY_DOWN:
		if (s->lines_top + 1 < s->lines.n)
			s->lines_top++;
		return TOP_REDRAW_BODY;
	case TUI_KEY_PGUP:
		s->lines_top = s->lines_top > (size_t)page ? s->lines_top - page : 0;
		return TOP_REDRAW_BODY;
	case TUI_KEY_PGDN:
		s->lines_top += page;
		if (s->lines.n && s->lines_top >= s->lines.n)
			s->lines_top = s->lines.n - 1;
		return TOP_REDRAW_BODY;
	case TUI_KEY_RESIZE:
		return TOP_REDRAW_ALL;
	case ' ':
		s->paused = !s->paused;
		return TOP_REDRAW_ALL;
	}
	/* Anything else closes the overlay (q too: it goes back, as in htop). */
	s->overlay = TOP_OV_NONE;
	top_lines__free(&s->lines);
	return TOP_REDRAW_ALL;
}

static int filter_key(struct top_screen *s, int key)
{
	size_t len = strlen(s->edit);

	switch (key) {
	case TUI_KEY_ENTER:
		memcpy(s->filter, s->edit, sizeof(s->filter));
		s->overlay = TOP_OV_NONE;
		return TOP_REDRAW_ALL;
	case TUI_KEY_ESC:
		s->overlay = TOP_OV_NONE;
		return TOP_REDRAW_ALL;
	case TUI_KEY_BACKSPACE:
		if (len)
			s->edit[len - 1] = 0;
		return TOP_REDRAW_ALL;
	case TUI_KEY_RESIZE:
		return TOP_REDRAW_ALL;
	}
	if (key >= 0x20 && key < 0x7f && len + 1 < sizeof(s->edit)) {
		s->edit[len] = (char)key;
		s->edit[len + 1] = 0;
	}
	return TOP_REDRAW_ALL;
}

int top_screen__key(struct top_screen *s, const struct top_snap *snap, int key)
{
	int r, i;

	if (key == TUI_KEY_NONE)
		return TOP_REDRAW_NONE;
	if (s->overlay == TOP_OV_FILTER)
		return filter_key(s, key);
	if (s->overlay == TOP_OV_HELP || s->overlay == TOP_OV_DETAILS)
		return lines_key(s, key);
	switch (key) {
	case 'q':
	case 'Q':
		s->quit = 1;
		return TOP_REDRAW_NONE;
	case 'h':
	case '?':
	case TUI_KEY_F1:
		open_help(s);
		return TOP_REDRAW_ALL;
	case ' ':
		s->paused = !s->paused;
		return TOP_REDRAW_ALL;
	case 'a':
		s->accumulated = !s->accumulated;
		s->want_refresh = 1;
		return TOP_REDRAW_ALL;
	case 'f':
	case '/':
		/* a new filter is typed from scratch; Enter on nothing clears it */
		s->edit[0] = 0;
		s->overlay = TOP_OV_FILTER;
		return TOP_REDRAW_ALL;
	case TUI_KEY_ESC:
		if (s->filter[0]) {
			s->filter[0] = 0;
			top_screen__update(s, snap);
			return TOP_REDRAW_ALL;
		}
		return TOP_REDRAW_NONE;
	case TUI_KEY_ENTER:
		return open_details(s, snap);
	case TUI_KEY_RESIZE:
		return TOP_REDRAW_ALL;
	case '\t':
		s->cur = (s->cur + 1) % TOP_NVIEWS;
		top_screen__update(s, snap);
		return TOP_REDRAW_ALL;
	}
	for (i = 0; i < TOP_NVIEWS; i++)
		if (key == s->views[i]->hotkey) {
			s->cur = i;
			top_screen__update(s, snap);
			return TOP_REDRAW_ALL;
		}
	r = top_view__key(s->views[s->cur], snap, key);
	if (r == TOP_KEY_UNHANDLED)
		return TOP_REDRAW_NONE;
	top_screen__update(s, snap);
	return TOP_REDRAW_ALL;
}
