// SPDX-License-Identifier: GPL-2.0
/* Devices view: block-layer rates, latencies and how far the head had to move. */
#include <stddef.h>
#include <string.h>
#include "view.h"

enum { COL_HIST = 7 };

/* Upper bounds of the seek histogram buckets (sectors), as in snap.h. */
static const char *const bucket_names[TOP_SEEK_BUCKETS] = {
	"0 (sequential)", "< 8", "< 64", "< 512", "< 4K", "< 32K", "< 256K", ">= 256K",
};

static const struct top_col cols[] = {
	{ "DEVICE", -10, TOP_COL_STR, 0, offsetof(struct top_dev, name), "block device" },
	{ "IOPS", 7, TOP_COL_DBL, 0, offsetof(struct top_dev, iops), "completed requests per second" },
	{ "RDMB/s", 7, TOP_COL_DBL, 1, offsetof(struct top_dev, read_mbs), "MB/s read" },
	{ "WRMB/s", 7, TOP_COL_DBL, 1, offsetof(struct top_dev, write_mbs), "MB/s written" },
	{ "Q2Cms", 7, TOP_COL_DBL, 2, offsetof(struct top_dev, q2c_avg_ms),
	  "average queue-to-complete time (btt Q2C)" },
	{ "D2Cms", 7, TOP_COL_DBL, 2, offsetof(struct top_dev, d2c_avg_ms),
	  "average issue-to-complete time (btt D2C, the device's own)" },
	{ "SEEKS/s", 8, TOP_COL_DBL, 1, offsetof(struct top_dev, seeks_s),
	  "non-sequential requests per second (btt's D2D definition)" },
	{ "SEEK DIST", 0, TOP_COL_CUSTOM, 0, 0,
	  "seek distance histogram, sectors: 0, <8, <64, <512, <4K, <32K, <256K, more" },
};

static const void *rows(const struct top_snap *s, size_t *n, size_t *stride)
{
	*n = s->ndevs;
	*stride = sizeof(struct top_dev);
	return s->devs;
}

static uint64_t ident(const void *row)
{
	return ((const struct top_dev *)row)->dev;
}

static int match(const void *row, const char *filter)
{
	return strstr(((const struct top_dev *)row)->name, filter) != NULL;
}

static void draw_cell(struct top_view *v, struct tui_term *t, const void *row, int col, int y,
		      int x, int w, int selected)
{
	const struct top_dev *d = row;
	double vals[TOP_SEEK_BUCKETS];
	unsigned int i;

	for (i = 0; i < TOP_SEEK_BUCKETS; i++)
		vals[i] = (double)d->seek_hist[i];
	if (w > TOP_SEEK_BUCKETS)
		w = TOP_SEEK_BUCKETS;
	top_draw_spark(t, y, x, w, vals, TOP_SEEK_BUCKETS, 0, selected ? TUI_A_SELECTED : TUI_A_BAR);
}

static int details(struct top_view *v, const struct top_snap *s, const void *row,
		   struct top_lines *out)
{
	const struct top_dev *d = row;
	uint64_t total = 0;
	unsigned int i;

	top_lines__add(out, "device %s", d->name);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "IOPS        %10.1f", d->iops);
	top_lines__add(out, "read        %10.2f MB/s", d->read_mbs);
	top_lines__add(out, "written     %10.2f MB/s", d->write_mbs);
	top_lines__add(out, "Q2C avg     %10.3f ms", d->q2c_avg_ms);
	top_lines__add(out, "D2C avg     %10.3f ms", d->d2c_avg_ms);
	top_lines__add(out, "seeks       %10.1f /s", d->seeks_s);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "seek distance (sectors)   requests");
	for (i = 0; i < TOP_SEEK_BUCKETS; i++)
		total += d->seek_hist[i];
	for (i = 0; i < TOP_SEEK_BUCKETS; i++)
		top_lines__add(out, "  %-16s %10llu  %5.1f%%", bucket_names[i],
			       (unsigned long long)d->seek_hist[i],
			       total ? 100.0 * d->seek_hist[i] / total : 0.0);
	return 0;
}

static const struct top_view_ops ops = {
	.rows = rows,
	.ident = ident,
	.match = match,
	.draw_cell = draw_cell,
	.details = details,
	.subtitle = "block devices",
	.empty = "no block I/O in this interval",
};

struct top_view top_view_devices = {
	.name = "devices",
	.tab = "devices",
	.hotkey = '4',
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.ops = &ops,
	.default_sort = 1,
	.sort_col = 1,
};
