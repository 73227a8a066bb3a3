/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one owner of terminal state for fslens top: init, colours, key
 * reading, resize and teardown. Everything else draws through it.
 *
 * Two backends: curses (the real screen) and memory (a character grid the
 * unit tests and --batch read back). Views never call curses directly, so
 * they are tested without a terminal.
 *
 * Signals: tui_signals__install() sets handlers for SIGINT, SIGTERM, SIGHUP
 * and SIGQUIT that only set a flag; the main loop sees tui_signals__pending()
 * and tears the screen down itself. Install them before tui_term__new_curses()
 * so curses keeps its hands off them.
 */
#ifndef FSL_TUI_TERM_H
#define FSL_TUI_TERM_H

#include <stdarg.h>

/* What a cell means; each backend maps it to colours or plain attributes. */
enum tui_attr {
	TUI_A_NORMAL = 0,
	TUI_A_TITLE,		/* top title bar */
	TUI_A_LABEL,		/* header field names */
	TUI_A_VALUE,		/* header values */
	TUI_A_WARN,		/* something is wrong (lost events): red */
	TUI_A_COLHEAD,		/* table column titles */
	TUI_A_SORTCOL,		/* the column the table is sorted by */
	TUI_A_SELECTED,		/* the cursor row */
	TUI_A_DIM,		/* zeros, secondary text */
	TUI_A_BAR,		/* sparkline / histogram bars */
	TUI_A_KEY,		/* key names in the footer */
	TUI_A_FOOTER,		/* footer text */
	TUI_A__MAX,
};

/* Keys: printable ASCII as themselves, the rest here. */
enum {
	TUI_KEY_NONE = -1,	/* timeout, nothing typed */
	TUI_KEY_UP = 0x1000,
	TUI_KEY_DOWN,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_BACKSPACE,
	TUI_KEY_RESIZE,
	TUI_KEY_F1,
};
#define TUI_KEY_CTRL(c) ((c) & 0x1f)

struct tui_term;

/*
 * Take over the terminal (alternate screen, no echo, cbreak, hidden cursor).
 * Colours only when the terminal has them and NO_COLOR is unset or empty.
 * Returns NULL with *err set (-ENOTTY when stdin/stdout is not a terminal,
 * -EIO when curses cannot drive it).
 */
struct tui_term *tui_term__new_curses(int *err);
/* An off-screen grid of rows x cols (tests, --batch). */
struct tui_term *tui_term__new_memory(int rows, int cols);
/* Restores the terminal (curses) and frees. NULL is a no-op. */
void tui_term__free(struct tui_term *t);

int tui_term__rows(const struct tui_term *t);
int tui_term__cols(const struct tui_term *t);
int tui_term__has_color(const struct tui_term *t);
/* Whether multibyte (UTF-8) glyphs can be drawn; else ASCII fallbacks. */
int tui_term__utf8(const struct tui_term *t);
/* Memory backend: draw as a terminal without UTF-8 would (tests). */
void tui_term__set_utf8(struct tui_term *t, int on);
/* Resize the memory grid (tests); the curses backend follows the terminal. */
void tui_term__resize(struct tui_term *t, int rows, int cols);

void tui_term__clear(struct tui_term *t);
/*
 * Draw s (UTF-8; each code point one column) at row y, column x, clipped at
 * the right edge and after maxw columns (maxw < 0: no limit). Control and
 * non-ASCII bytes outside valid UTF-8 are drawn as '?'. Returns the columns drawn.
 */
int tui_term__put(struct tui_term *t, int y, int x, enum tui_attr a, const char *s, int maxw);
int tui_term__printf(struct tui_term *t, int y, int x, enum tui_attr a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Paint w columns of blanks with attribute a (bars, selected rows). */
void tui_term__fill(struct tui_term *t, int y, int x, int w, enum tui_attr a);
/* Show what was drawn (curses: doupdate; memory: nothing). */
void tui_term__flush(struct tui_term *t);

/*
 * Wait up to timeout_ms (0: poll, < 0: forever) for a key. Returns the key,
 * TUI_KEY_NONE on timeout or when a signal interrupted the wait, or
 * TUI_KEY_RESIZE after the terminal changed size.
 */
int tui_term__getkey(struct tui_term *t, int timeout_ms);

/* Memory backend: row y as text (trailing blanks removed) and a cell's attribute. */
const char *tui_term__row_text(struct tui_term *t, int y);
enum tui_attr tui_term__attr_at(const struct tui_term *t, int y, int x);

/* Signal flags. */
void tui_signals__install(void);
void tui_signals__restore(void);
/* The signal that asked us to stop (SIGINT, SIGTERM, ...), or 0. */
int tui_signals__pending(void);

#endif
