// SPDX-License-Identifier: GPL-2.0
/* Directories view: the hottest directories by operations and by lookup wait. */
#include <stddef.h>
#include <string.h>
#include "fslens/hashmap.h"
#include "view.h"

static const struct top_col cols[] = {
	{ "OPS/s", 8, TOP_COL_DBL, 1, offsetof(struct top_dir, ops_s),
	  "path-based calls per second on entries of the directory" },
	{ "LOOKms/s", 9, TOP_COL_DBL, 1, offsetof(struct top_dir, lookup_wait_ms_s),
	  "ms/s blocked reading its directory blocks inside those calls (lookups)" },
	{ "CALLms/s", 9, TOP_COL_DBL, 1, offsetof(struct top_dir, call_ms_s),
	  "ms/s spent inside those calls (summed latency)" },
	{ "DIRECTORY", 0, TOP_COL_STR, 0, offsetof(struct top_dir, path), "directory path" },
};

static const void *rows(const struct top_snap *s, size_t *n, size_t *stride)
{
	*n = s->ndirs;
	*stride = sizeof(struct top_dir);
	return s->dirs;
}

static uint64_t ident(const void *row)
{
	return fsl_hash_str(((const struct top_dir *)row)->path);
}

static int match(const void *row, const char *filter)
{
	return strstr(((const struct top_dir *)row)->path, filter) != NULL;
}

static int details(struct top_view *v, const struct top_snap *s, const void *row,
		   struct top_lines *out)
{
	const struct top_dir *d = row;

	top_lines__add(out, "directory %s", d->path);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "operations    %10llu in the interval", (unsigned long long)d->ops);
	top_lines__add(out, "rate          %10.1f /s", d->ops_s);
	top_lines__add(out, "lookup wait   %10.1f ms/s", d->lookup_wait_ms_s);
	top_lines__add(out, "time in calls %10.1f ms/s", d->call_ms_s);
	return 0;
}

static const struct top_view_ops ops = {
	.rows = rows,
	.ident = ident,
	.match = match,
	.details = details,
	.subtitle = "hottest directories",
	.empty = "no directory operations in this interval",
};

struct top_view top_view_dirs = {
	.name = "directories",
	.tab = "dirs",
	.hotkey = '5',
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.ops = &ops,
	.default_sort = 0,
	.sort_col = 0,
};
