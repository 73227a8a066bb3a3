// SPDX-License-Identifier: GPL-2.0
/*
 * Processes view: who does filesystem work and what they wait on. Sorted by
 * default by the time blocked (BLKms), so the process that carries a stall
 * (a sync in commit_wait) comes before thirty quick rm's. Key p groups the
 * rows by program (comm), as iotop -P and atop's p do: the rates and
 * blocked times add up, P99ms is the highest member's, PROCS counts them.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/analysis.h"
#include "fslens/hashmap.h"
#include "view.h"

#define DARR(i, p) (uint8_t)(((i) << 4) | (p))

static const struct top_col cols[] = {
	{ "PID", 7, TOP_COL_U32, 0, offsetof(struct top_proc, pid), "process id (tgid)" },
	{ "COMM", -15, TOP_COL_STR, 0, offsetof(struct top_proc, comm), "command name" },
	{ "BLKms", 5, TOP_COL_DBL, 0, offsetof(struct top_proc, blocked_total_ms_s),
	  "ms/s blocked in every wait class together (the default sort)" },
	{ "OPS/s", 6, TOP_COL_DBL, 0, offsetof(struct top_proc, ops_s),
	  "path-based filesystem calls per second (open, create, mkdir, stat, unlink, ...)" },
	{ "P99ms", 5, TOP_COL_DBL, 2, offsetof(struct top_proc, p99_ms),
	  "99th percentile latency of those calls, ms (within 1.6%)" },
	{ "JRNL", 5, TOP_COL_DBL_ARR, DARR(TOP_WG_JOURNAL, 0), offsetof(struct top_proc, blocked_ms_s),
	  "ms/s blocked on the journal (log space, locked transaction, shadow buffer, commit)" },
	{ "DIRRD", 5, TOP_COL_DBL_ARR, DARR(TOP_WG_DIRREAD, 0), offsetof(struct top_proc, blocked_ms_s),
	  "ms/s blocked reading directory blocks" },
	{ "THRTL", 5, TOP_COL_DBL_ARR, DARR(TOP_WG_THROTTLE, 0), offsetof(struct top_proc, blocked_ms_s),
	  "ms/s paused by dirty-page throttling (balance_dirty_pages)" },
	{ "IO", 5, TOP_COL_DBL_ARR, DARR(TOP_WG_IO, 0), offsetof(struct top_proc, blocked_ms_s),
	  "ms/s blocked on other I/O (page, inode table, bitmap, queue, flush)" },
	{ "RDMB/s", 6, TOP_COL_DBL, 1, offsetof(struct top_proc, read_mbs), "MB/s read by requests it issued" },
	{ "WRMB/s", 6, TOP_COL_DBL, 1, offsetof(struct top_proc, write_mbs), "MB/s written by requests it issued" },
	{ "READ", 6, TOP_COL_DBL, 1, offsetof(struct top_proc, data_read_mbs),
	  "MB/s its read() family calls returned from the target's files" },
	{ "WRITE", 6, TOP_COL_DBL, 1, offsetof(struct top_proc, data_write_mbs),
	  "MB/s its write() family calls wrote to the target's files" },
	{ "CGROUP", 0, TOP_COL_STR, 0, offsetof(struct top_proc, cgroup),
	  "its cgroup v2 path (the rest of the line; longer ones show their tail)" },
};
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))
#define COL_BLK	2

/* The same columns by program: the first counts the processes. */
static struct top_col gcols[NCOLS];
static int grouped;
static struct top_proc *gbuf;	/* the grouped rows of the last rows() call */
static double *gw;		/* per group: sum of ops * avg_ms, for the average */
static size_t gcap;

static const struct top_proc *group_rows(const struct top_snap *s, size_t *n)
{
	size_t i, g, ng = 0;

	if (s->nprocs > gcap) {
		struct top_proc *b = realloc(gbuf, s->nprocs * sizeof(*b));
		double *w = b ? realloc(gw, s->nprocs * sizeof(*w)) : NULL;

		if (b)
			gbuf = b;
		if (!w) {
			*n = 0;
			return gbuf;
		}
		gw = w;
		gcap = s->nprocs;
	}
	for (i = 0; i < s->nprocs; i++) {
		const struct top_proc *p = &s->procs[i];
		struct top_proc *o;
		int k;

		for (g = 0; g < ng; g++)
			if (!strcmp(gbuf[g].comm, p->comm))
				break;
		o = &gbuf[g];
		if (g == ng) {
			*o = *p;
			o->pid = 1;
			gw[g] = p->avg_ms * p->ops_s;
			ng++;
			continue;
		}
		o->pid++;
		o->ops_s += p->ops_s;
		gw[g] += p->avg_ms * p->ops_s;
		o->avg_ms = o->ops_s > 0 ? gw[g] / o->ops_s : 0;
		if (p->p99_ms > o->p99_ms)
			o->p99_ms = p->p99_ms;
		for (k = 0; k < TOP_WG__MAX; k++)
			o->blocked_ms_s[k] += p->blocked_ms_s[k];
		for (k = 0; k < TOP_NCLASSES; k++) {
			o->class_ms_s[k] += p->class_ms_s[k];
			/* a group shows its members' single costliest stack */
			if (p->class_stack[k].nframes && p->class_stack[k].ms > o->class_stack[k].ms)
				o->class_stack[k] = p->class_stack[k];
		}
		o->blocked_total_ms_s += p->blocked_total_ms_s;
		o->read_mbs += p->read_mbs;
		o->write_mbs += p->write_mbs;
		o->data_read_mbs += p->data_read_mbs;
		o->data_write_mbs += p->data_write_mbs;
	}
	*n = ng;
	return gbuf;
}

static const void *rows(const struct top_snap *s, size_t *n, size_t *stride)
{
	*stride = sizeof(struct top_proc);
	if (grouped)
		return group_rows(s, n);
	*n = s->nprocs;
	return s->procs;
}

static uint64_t ident(const void *row)
{
	const struct top_proc *p = row;

	return grouped ? fsl_hash_str(p->comm) : p->pid;
}

static int key(struct top_view *v, int k)
{
	if (k != 'p')
		return TOP_KEY_UNHANDLED;
	grouped = !grouped;
	if (!gcols[0].title) {
		memcpy(gcols, cols, sizeof(cols));
		gcols[0].title = "PROCS";
		gcols[0].help = "processes of this program (key p: back to one row per process)";
	}
	v->cols = grouped ? gcols : cols;
	v->name = grouped ? "programs" : "processes";
	v->tab = grouped ? "progs" : "procs";
	v->have_sel = 0;
	v->sel = 0;
	return TOP_REDRAW_ALL;
}

/*
 * All digits: a pid, matched exactly; digits and commas: any of those pids
 * (top -p 1,2); otherwise a substring of the command name.
 */
int top_filter_pid_or_name(uint32_t pid, const char *name, const char *filter);
int top_filter_pid_or_name(uint32_t pid, const char *name, const char *filter)
{
	const char *p;
	char *end;
	unsigned long v;

	for (p = filter; (*p >= '0' && *p <= '9') || (*p == ',' && p > filter); p++)
		;
	if (*p || !*filter)
		return strstr(name, filter) != NULL;
	for (p = filter; *p; p = *end ? end + 1 : end) {
		v = strtoul(p, &end, 10);
		if (end != p && v == pid)
			return 1;
		if (end == p)
			break;
	}
	return 0;
}

static int match(const void *row, const char *filter)
{
	const struct top_proc *p = row;

	/* grouped, the first column is a count: the filter is by name only */
	if (grouped)
		return strstr(p->comm, filter) != NULL;
	return top_filter_pid_or_name(p->pid, p->comm, filter);
}

static int details(struct top_view *v, const struct top_snap *s, const void *row,
		   struct top_lines *out)
{
	const struct top_proc *p = row;
	unsigned int listed = 0;	/* classes shown so far, most blocked first */

	if (grouped)
		top_lines__add(out, "program %s (%u processes)", p->comm, p->pid);
	else
		top_lines__add(out, "process %u (%s)", p->pid, p->comm);
	top_lines__add(out, "%s", "");
	top_lines__add(out, "filesystem calls       %10.1f /s", p->ops_s);
	top_lines__add(out, "call latency p99       %10.3f ms", p->p99_ms);
	top_lines__add(out, "call latency average   %10.3f ms", p->avg_ms);
	top_lines__add(out, "blocked, all classes   %10.1f ms/s", p->blocked_total_ms_s);
	top_lines__add(out, "  journal              %10.1f ms/s", p->blocked_ms_s[TOP_WG_JOURNAL]);
	top_lines__add(out, "  directory reads      %10.1f ms/s", p->blocked_ms_s[TOP_WG_DIRREAD]);
	top_lines__add(out, "  writeback throttle   %10.1f ms/s", p->blocked_ms_s[TOP_WG_THROTTLE]);
	top_lines__add(out, "  other I/O            %10.1f ms/s", p->blocked_ms_s[TOP_WG_IO]);
	top_lines__add(out, "read() family          %10.2f MB/s", p->data_read_mbs);
	top_lines__add(out, "write() family         %10.2f MB/s", p->data_write_mbs);
	top_lines__add(out, "read                   %10.2f MB/s", p->read_mbs);
	top_lines__add(out, "written                %10.2f MB/s", p->write_mbs);
	/*
	 * Each class it waited in, most first, with the stack this process was
	 * blocked on longest in that class in this window (a program: the
	 * longest of any one of its processes).
	 */
	for (;;) {
		const struct top_proc_stack *ps;
		int c, best = -1;
		unsigned int k;

		for (c = 0; c < FSL_WC__MAX; c++)
			if (!(listed >> c & 1) && p->class_ms_s[c] > 0.05 &&
			    (best < 0 || p->class_ms_s[c] > p->class_ms_s[best]))
				best = c;
		if (best < 0)
			break;
		listed |= 1u << best;
		top_lines__add(out, "%s", "");
		top_lines__add(out, "%-22s %10.1f ms/s", fsl_wclass_id(best), p->class_ms_s[best]);
		ps = &p->class_stack[best];
		if (!ps->nframes)
			continue;
		if (grouped)
			top_lines__add(out, "  the costliest stack of one of them (%.1f ms):", ps->ms);
		else
			top_lines__add(out, "  its costliest stack (%.1f ms):", ps->ms);
		for (k = 0; k < ps->nframes; k++)
			top_lines__add(out, "  %s %2u  %s", (int)k == ps->rule_frame ? "=>" : "  ", k,
				       ps->frames[k]);
	}
	return 0;
}

static const struct top_view_ops ops = {
	.rows = rows,
	.ident = ident,
	.match = match,
	.details = details,
	.key = key,
	.subtitle = "blocked ms/s by cause",
	.empty = "no process did filesystem work in this interval",
};

struct top_view top_view_processes = {
	.name = "processes",
	.tab = "procs",
	.hotkey = '1',
	.cols = cols,
	.ncols = NCOLS,
	.ops = &ops,
	.default_sort = COL_BLK,
	.sort_col = COL_BLK,
};
