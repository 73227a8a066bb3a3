// SPDX-License-Identifier: GPL-2.0
/* Stalls view: blocked time per wait class, its history and the stack that cost most. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fslens/text.h"
#include "fslens/hashmap.h"
#include "view.h"

enum { COL_HIST = 4, COL_STACK = 5 };

static const struct top_col cols[] = {
	{ "WAIT CLASS", -19, TOP_COL_STR, 0, offsetof(struct top_stall, cls),
	  "cause of the wait (stable class id, see docs/top.md)" },
	{ "MS/s", 7, TOP_COL_DBL, 1, offsetof(struct top_stall, ms_s),
	  "blocked ms per second, all tasks of the workload" },
	{ "SHARE%", 6, TOP_COL_DBL, 1, offsetof(struct top_stall, share_pct),
	  "share of all blocked time in the interval" },
	{ "WAITS", 6, TOP_COL_U32, 0, offsetof(struct top_stall, waits),
	  "number of waits in the interval" },
	{ "HISTORY", -12, TOP_COL_CUSTOM, 0, 0, "ms/s of the past intervals, newest right" },
	{ "TOP STACK", 0, TOP_COL_CUSTOM, 0, 0,
	  "the stack that cost most in this class (Enter: all its frames)" },
};

static const void *rows(const struct top_snap *s, size_t *n, size_t *stride)
{
	*n = s->nstalls;
	*stride = sizeof(struct top_stall);
	return s->stalls;
}

static uint64_t ident(const void *row)
{
	return fsl_hash_str(((const struct top_stall *)row)->cls);
}

static int match(const void *row, const char *filter)
{
	return strstr(((const struct top_stall *)row)->cls, filter) != NULL;
}

/* Frames that only say "it slept" and not why; the compact stack skips them. */
static int sched_frame(const char *f)
{
	static const char *const pfx[] = {
		"__schedule", "schedule", "io_schedule", "bit_wait", "out_of_line_wait_on_bit",
		"__wait_on_bit", "wait_on_bit", "__wait_on_buffer", "rwsem_down", "__mutex_lock",
		"mutex_lock", "schedule_timeout", "wait_for_completion", "__folio_lock",
		"folio_wait_bit", "wait_woken", "percpu_rwsem_wait",
	};
	unsigned int i;

	for (i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (!strncmp(f, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}

/* Innermost frames that explain the wait, joined with '<' (callee<caller). */
void top_stack_compact(const char *const *frames, unsigned int n, char *buf, size_t len);
void top_stack_compact(const char *const *frames, unsigned int n, char *buf, size_t len)
{
	unsigned int i = 0;
	size_t used = 0, fl;

	buf[0] = 0;
	while (i < n && sched_frame(frames[i]))
		i++;
	if (i == n)
		i = 0;
	for (; i < n && used + 2 < len; i++) {
		fl = fsl_frame_func_len(frames[i]);
		if (used) {
			buf[used++] = '<';
		}
		if (fl > len - used - 1)
			fl = len - used - 1;
		memcpy(buf + used, frames[i], fl);
		used += fl;
		buf[used] = 0;
	}
}

static void draw_cell(struct top_view *v, struct tui_term *t, const void *row, int col, int y,
		      int x, int w, int selected)
{
	const struct top_stall *st = row;
	char buf[512];

	if (col == COL_HIST) {
		top_draw_spark(t, y, x, w, st->hist, st->nhist, st->hist_max,
			       selected ? TUI_A_SELECTED : TUI_A_BAR);
	} else if (col == COL_STACK) {
		if (!st->nframes) {
			tui_term__put(t, y, x, selected ? TUI_A_SELECTED : TUI_A_DIM, "-", w);
			return;
		}
		/* From the frame that explains the wait outwards, when known. */
		if (st->rule_frame > 0 && (unsigned int)st->rule_frame < st->nframes)
			top_stack_compact(st->frames + st->rule_frame,
					  st->nframes - st->rule_frame, buf, sizeof(buf));
		else
			top_stack_compact(st->frames, st->nframes, buf, sizeof(buf));
		tui_term__put(t, y, x, selected ? TUI_A_SELECTED : TUI_A_NORMAL, buf, w);
	}
}

static int details(struct top_view *v, const struct top_snap *s, const void *row,
		   struct top_lines *out)
{
	const struct top_stall *st = row;
	unsigned int i;

	top_lines__add(out, "wait class %s", st->cls);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "blocked      %10.1f ms/s  (%.1f%% of all blocked time)", st->ms_s,
		       st->share_pct);
	top_lines__add(out, "waits        %10llu", (unsigned long long)st->waits);
	if (!st->nframes) {
		top_lines__add(out, "no stack recorded for this class in the interval");
		return 0;
	}
	top_lines__add(out, "top stack    %10.1f ms blocked in the interval, innermost first:",
		       st->top_stack_ms);
	for (i = 0; i < st->nframes; i++)
		top_lines__add(out, "%s %2u  %s", (int)i == st->rule_frame ? "=>" : "  ", i,
			       st->frames[i]);
	if (st->rule_frame >= 0)
		top_lines__add(out, "(=> the frame that names the class)");
	return 0;
}

static const struct top_view_ops ops = {
	.rows = rows,
	.ident = ident,
	.match = match,
	.draw_cell = draw_cell,
	.details = details,
	.subtitle = "blocked ms/s per wait class",
	.empty = "no task blocked in this interval",
};

struct top_view top_view_stalls = {
	.name = "stalls",
	.tab = "stalls",
	.hotkey = '2',
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.ops = &ops,
	.default_sort = 1,
	.sort_col = 1,
};
