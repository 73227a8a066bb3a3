// SPDX-License-Identifier: GPL-2.0
/* Journal view: recent jbd2 transactions, what closed them and where the commit time went. */
#include <stddef.h>
#include "view.h"

static const struct top_col cols[] = {
	{ "TID", 8, TOP_COL_U32, 0, offsetof(struct top_txn, tid), "transaction id" },
	{ "TRIGGER", -9, TOP_COL_STR, 0, offsetof(struct top_txn, trigger),
	  "what started the commit: timer, fsync, full, log_space, sync" },
	{ "HANDLES", 7, TOP_COL_U32, 0, offsetof(struct top_txn, handles), "handles in the transaction" },
	{ "BLOCKS", 7, TOP_COL_U32, 0, offsetof(struct top_txn, blocks), "metadata blocks in it" },
	{ "RUNms", 8, TOP_COL_DBL, 1, offsetof(struct top_txn, running_ms), "time it was running (open)" },
	{ "LOCKms", 7, TOP_COL_DBL, 2, offsetof(struct top_txn, locked_ms),
	  "locked: waiting for its handles to finish" },
	{ "FLUSHms", 8, TOP_COL_DBL, 2, offsetof(struct top_txn, flushing_ms), "flushing data (ordered mode)" },
	{ "LOGms", 7, TOP_COL_DBL, 2, offsetof(struct top_txn, logging_ms), "writing the log" },
	{ "COMMITms", 9, TOP_COL_DBL, 2, offsetof(struct top_txn, commit_ms),
	  "start_commit to end_commit" },
};

static const void *rows(const struct top_snap *s, size_t *n, size_t *stride)
{
	*n = s->ntxns;
	*stride = sizeof(struct top_txn);
	return s->txns;
}

static uint64_t ident(const void *row)
{
	return ((const struct top_txn *)row)->tid;
}

static int details(struct top_view *v, const struct top_snap *s, const void *row,
		   struct top_lines *out)
{
	const struct top_txn *x = row;

	top_lines__add(out, "transaction %u", x->tid);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "trigger        %s", x->trigger);
	top_lines__add(out, "handles        %10u", x->handles);
	top_lines__add(out, "blocks         %10u", x->blocks);
	top_lines__add(out, "blocks logged  %10u", x->blocks_logged);
	top_lines__add(out, "running        %10.3f ms", x->running_ms);
	top_lines__add(out, "locked         %10.3f ms", x->locked_ms);
	top_lines__add(out, "flushing       %10.3f ms", x->flushing_ms);
	top_lines__add(out, "logging        %10.3f ms", x->logging_ms);
	top_lines__add(out, "commit         %10.3f ms", x->commit_ms);
	return 0;
}

static const struct top_view_ops ops = {
	.rows = rows,
	.ident = ident,
	.details = details,
	.subtitle = "recent transactions",
	.empty = "no journal commit yet",
};

struct top_view top_view_journal = {
	.name = "journal",
	.tab = "journal",
	.hotkey = '3',
	.cols = cols,
	.ncols = sizeof(cols) / sizeof(cols[0]),
	.ops = &ops,
	.default_sort = 0,
	.sort_col = 0,
};
