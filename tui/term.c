// SPDX-License-Identifier: GPL-2.0
/* Terminal state for fslens top: curses and memory backends, keys, signals. */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "term.h"

struct cell {
	char u8[4];
	uint8_t len;
	uint8_t attr;
};

struct tui_term {
	int curses;		/* 1: curses backend, 0: memory */
	int rows, cols;
	int color;
	int utf8;
	SCREEN *scr;
	chtype cattr[TUI_A__MAX];
	/* memory backend */
	struct cell *grid;
	char *rowbuf;
};

/* ---- signals: handlers only set a flag ---- */

static volatile sig_atomic_t sig_pending;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction old_actions[4];
static int signals_installed;

static void on_stop_signal(int sig)
{
	sig_pending = sig;
}

void tui_signals__install(void)
{
	struct sigaction sa;
	unsigned int i;

	if (signals_installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a pending key wait returns so the loop sees the flag. */
	sa.sa_flags = 0;
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, &old_actions[i]);
	signals_installed = 1;
}

void tui_signals__restore(void)
{
	unsigned int i;

	if (!signals_installed)
		return;
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &old_actions[i], NULL);
	signals_installed = 0;
}

int tui_signals__pending(void)
{
	return sig_pending;
}

/* ---- text sanitizing: every output code point takes one column ---- */

/* Length of the UTF-8 sequence at s if it is a valid 2-4 byte one, else 0. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Walk s one display column at a time: *len gets the bytes of the glyph
 * (1 for ASCII and '?'), *out the bytes to draw. Returns bytes consumed.
 */
static int next_glyph(const char *s, int utf8, const char **out, int *len)
{
	static const char qm = '?';
	const unsigned char *u = (const unsigned char *)s;
	int n;

	if (u[0] >= 0x20 && u[0] < 0x7f) {
		*out = s;
		*len = 1;
		return 1;
	}
	n = u[0] >= 0x80 ? utf8_len(u) : 0;
	if (n && utf8) {
		*out = s;
		*len = n;
		return n;
	}
	*out = &qm;
	*len = 1;
	return n ? n : 1;
}

/* ---- memory backend ---- */

static int mem_alloc(struct tui_term *t, int rows, int cols)
{
	struct cell *g = calloc((size_t)rows * cols, sizeof(*g));
	char *rb = malloc((size_t)cols * 4 + 1);
	int i;

	if (!g || !rb) {
		free(g);
		free(rb);
		return -ENOMEM;
	}
	free(t->grid);
	free(t->rowbuf);
	t->grid = g;
	t->rowbuf = rb;
	t->rows = rows;
	t->cols = cols;
	for (i = 0; i < rows * cols; i++) {
		g[i].u8[0] = ' ';
		g[i].len = 1;
	}
	return 0;
}

struct tui_term *tui_term__new_memory(int rows, int cols)
{
	struct tui_term *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->utf8 = 1;
	t->color = 1;
	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	if (mem_alloc(t, rows, cols)) {
		free(t);
		return NULL;
	}
	return t;
}

/* ---- curses backend ---- */

static int no_color_env(void)
{
	const char *nc = getenv("NO_COLOR");

	return nc && nc[0];
}

static void setup_attrs(struct tui_term *t)
{
	chtype *a = t->cattr;
	int i;

	for (i = 0; i < TUI_A__MAX; i++)
		a[i] = A_NORMAL;
	if (t->color) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_BLACK, COLOR_CYAN);
		init_pair(2, COLOR_CYAN, -1);
		init_pair(3, COLOR_RED, -1);
		init_pair(4, COLOR_BLACK, COLOR_GREEN);
		init_pair(5, COLOR_GREEN, -1);
		init_pair(6, COLOR_BLUE, -1);
		a[TUI_A_TITLE] = COLOR_PAIR(1);
		a[TUI_A_LABEL] = COLOR_PAIR(2);
		a[TUI_A_VALUE] = A_BOLD;
		a[TUI_A_WARN] = COLOR_PAIR(3) | A_BOLD;
		a[TUI_A_COLHEAD] = COLOR_PAIR(4);
		a[TUI_A_SORTCOL] = COLOR_PAIR(1);
		a[TUI_A_SELECTED] = COLOR_PAIR(1);
		a[TUI_A_DIM] = COLOR_PAIR(6) | A_BOLD;
		a[TUI_A_BAR] = COLOR_PAIR(5);
		a[TUI_A_KEY] = A_BOLD;
		a[TUI_A_FOOTER] = COLOR_PAIR(1);
	} else {
		/* Monochrome: reverse video marks bars of text, bold marks emphasis. */
		a[TUI_A_TITLE] = A_REVERSE;
		a[TUI_A_VALUE] = A_BOLD;
		a[TUI_A_WARN] = A_BOLD | A_UNDERLINE;
		a[TUI_A_COLHEAD] = A_REVERSE;
		a[TUI_A_SORTCOL] = A_REVERSE | A_BOLD | A_UNDERLINE;
		a[TUI_A_SELECTED] = A_REVERSE;
		a[TUI_A_KEY] = A_BOLD;
		a[TUI_A_FOOTER] = A_REVERSE;
	}
}

struct tui_term *tui_term__new_curses(int *err)
{
	struct tui_term *t;
	const char *cs;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*err = -ENOTTY;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	t->utf8 = cs && !strcmp(cs, "UTF-8");
	/* newterm, not initscr: initscr exits the process on failure. */
	t->scr = newterm(NULL, stdout, stdin);
	if (!t->scr) {
		free(t);
		*err = -EIO;
		return NULL;
	}
	set_term(t->scr);
	t->curses = 1;
	cbreak();		/* not raw: Ctrl-C still raises SIGINT */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	t->color = has_colors() && !no_color_env();
	setup_attrs(t);
	getmaxyx(stdscr, t->rows, t->cols);
	erase();
	return t;
}

void tui_term__free(struct tui_term *t)
{
	if (!t)
		return;
	if (t->curses) {
		curs_set(1);
		endwin();	/* leaves the alternate screen, restores tty modes */
		delscreen(t->scr);
	}
	free(t->grid);
	free(t->rowbuf);
	free(t);
}

int tui_term__rows(const struct tui_term *t)
{
	return t->rows;
}

int tui_term__cols(const struct tui_term *t)
{
	return t->cols;
}

int tui_term__has_color(const struct tui_term *t)
{
	return t->color;
}

int tui_term__utf8(const struct tui_term *t)
{
	return t->utf8;
}

void tui_term__set_utf8(struct tui_term *t, int on)
{
	if (!t->curses)
		t->utf8 = on;
}

void tui_term__resize(struct tui_term *t, int rows, int cols)
{
	if (t->curses) {
		getmaxyx(stdscr, t->rows, t->cols);
		return;
	}
	mem_alloc(t, rows < 1 ? 1 : rows, cols < 1 ? 1 : cols);
}

void tui_term__clear(struct tui_term *t)
{
	int i;

	if (t->curses) {
		erase();
		return;
	}
	for (i = 0; i < t->rows * t->cols; i++) {
		t->grid[i].u8[0] = ' ';
		t->grid[i].len = 1;
		t->grid[i].attr = TUI_A_NORMAL;
	}
}

int tui_term__put(struct tui_term *t, int y, int x, enum tui_attr a, const char *s, int maxw)
{
	char buf[1024];
	int blen = 0, cols = 0, room, n, len;
	const char *g;

	if (y < 0 || y >= t->rows || x < 0 || x >= t->cols || !s)
		return 0;
	room = t->cols - x;
	if (maxw >= 0 && maxw < room)
		room = maxw;
	while (*s && cols < room) {
		n = next_glyph(s, t->utf8, &g, &len);
		s += n;
		if (t->curses) {
			if (blen + len >= (int)sizeof(buf))
				break;
			memcpy(buf + blen, g, len);
			blen += len;
		} else {
			struct cell *c = &t->grid[y * t->cols + x + cols];

			memcpy(c->u8, g, len);
			c->len = len;
			c->attr = a;
		}
		cols++;
	}
	if (t->curses && blen) {
		/*
		 * The last cell of the screen cannot be written without curses
		 * scrolling; addnstr returns ERR there but the text is drawn.
		 */
		attrset(t->cattr[a]);
		mvaddnstr(y, x, buf, blen);
		attrset(A_NORMAL);
	}
	return cols;
}

int tui_term__printf(struct tui_term *t, int y, int x, enum tui_attr a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui_term__put(t, y, x, a, buf, -1);
}

void tui_term__fill(struct tui_term *t, int y, int x, int w, enum tui_attr a)
{
	char buf[512];

	if (w <= 0)
		return;
	if (w > (int)sizeof(buf) - 1)
		w = sizeof(buf) - 1;
	memset(buf, ' ', w);
	buf[w] = 0;
	tui_term__put(t, y, x, a, buf, w);
}

void tui_term__flush(struct tui_term *t)
{
	if (t->curses)
		refresh();
}

static int map_key(int ch)
{
	switch (ch) {
	case KEY_UP:		return TUI_KEY_UP;
	case KEY_DOWN:		return TUI_KEY_DOWN;
	case KEY_LEFT:		return TUI_KEY_LEFT;
	case KEY_RIGHT:		return TUI_KEY_RIGHT;
	case KEY_PPAGE:		return TUI_KEY_PGUP;
	case KEY_NPAGE:		return TUI_KEY_PGDN;
	case KEY_HOME:		return TUI_KEY_HOME;
	case KEY_END:		return TUI_KEY_END;
	case KEY_ENTER:
	case '\n':
	case '\r':		return TUI_KEY_ENTER;
	case 27:		return TUI_KEY_ESC;
	case KEY_BACKSPACE:
	case 127:
	case 8:			return TUI_KEY_BACKSPACE;
	case KEY_RESIZE:	return TUI_KEY_RESIZE;
	case KEY_F(1):		return TUI_KEY_F1;
	}
	if (ch >= 0 && ch < 0x100)
		return ch;
	return TUI_KEY_NONE;
}

int tui_term__getkey(struct tui_term *t, int timeout_ms)
{
	int ch;

	if (!t->curses)
		return TUI_KEY_NONE;
	if (sig_pending)
		return TUI_KEY_NONE;
	timeout(timeout_ms);
	ch = getch();
	if (ch == ERR)
		return TUI_KEY_NONE;
	if (ch == KEY_RESIZE)
		getmaxyx(stdscr, t->rows, t->cols);
	return map_key(ch);
}

const char *tui_term__row_text(struct tui_term *t, int y)
{
	char *p;
	int x, end = 0;

	if (t->curses || y < 0 || y >= t->rows)
		return "";
	p = t->rowbuf;
	for (x = 0; x < t->cols; x++) {
		const struct cell *c = &t->grid[y * t->cols + x];

		memcpy(p, c->u8, c->len);
		p += c->len;
		if (c->len != 1 || c->u8[0] != ' ')
			end = p - t->rowbuf;
	}
	t->rowbuf[end] = 0;
	return t->rowbuf;
}

enum tui_attr tui_term__attr_at(const struct tui_term *t, int y, int x)
{
	if (t->curses || y < 0 || y >= t->rows || x < 0 || x >= t->cols)
		return TUI_A_NORMAL;
	return t->grid[y * t->cols + x].attr;
}
