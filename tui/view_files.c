// SPDX-License-Identifier: GPL-2.0
/* Files view: the target's files by the bytes their data operations moved (filetop). */
#include <stddef.h>
#include <string.h>
#include "view.h"

static const struct top_col cols[] = {
	{ "READ", 7, TOP_COL_DBL, 2, offsetof(struct top_file, read_mbs),
	  "MB/s read() family calls returned from the file" },
	{ "WRITE", 7, TOP_COL_DBL, 2, offsetof(struct top_file, write_mbs),
	  "MB/s write() family calls wrote to the file" },
	{ "RD/s", 8, TOP_COL_DBL, 0, offsetof(struct top_file, reads_s), "read calls per second" },
	{ "WR/s", 8, TOP_COL_DBL, 0, offsetof(struct top_file, writes_s), "write calls per second" },
	{ "CALLms/s", 9, TOP_COL_DBL, 1, offsetof(struct top_file, call_ms_s),
	  "ms/s spent inside its data calls (read, write, fsync, ...)" },
	{ "INODE", 10, TOP_COL_U32, 0, offsetof(struct top_file, ino32), "inode number (low 32 bits)" },
	{ "FILE", 0, TOP_COL_STR, 0, offsetof(struct top_file, name), "file name (last component)" },
};

static const void *rows(const struct top_snap *s, size_t *n, size_t *stride)
{
	*n = s->nfiles;
	*stride = sizeof(struct top_file);
	return s->files;
}

static uint64_t ident(const void *row)
{
	return ((const struct top_file *)row)->ino;
}

static int match(const void *row, const char *filter)
{
	return strstr(((const struct top_file *)row)->name, filter) != NULL;
}

static int details(struct top_view *v, const struct top_snap *s, const void *row,
		   struct top_lines *out)
{
	const struct top_file *f = row;

	top_lines__add(out, "file %s (inode %llu)", f->name, (unsigned long long)f->ino);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "read          %10.2f MB/s, %.0f calls/s", f->read_mbs, f->reads_s);
	top_lines__add(out, "written       %10.2f MB/s, %.0f calls/s", f->write_mbs, f->writes_s);
	top_lines__add(out, "time in calls %10.1f ms/s", f->call_ms_s);
	return 0;
}

static const struct top_view_ops ops = {
	.rows = rows,
	.ident = ident,
	.match = match,
	.details = details,
	.subtitle = "files by data bytes",
	.empty = "no data operations on the target's files in this interval",
};

struct top_view top_view_files = {
	.name = "files",
	.tab = "files",
	.hotkey = '6',
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.ops = &ops,
	.default_sort = 0,
	.sort_col = 0,
};
