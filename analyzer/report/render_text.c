// SPDX-License-Identifier: GPL-2.0
/*
 * Text report, 100 columns: the diagnosis first (why it was slow, how much
 * each cause cost, the evidence, what to change), then the evidence by
 * section the way kernel engineers read it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/text.h"
#include "fslens/devname.h"
#include "fslens/indmap.h"
#include "render_internal.h"

#define W 100

/* Print text wrapped at W columns, first line after `lead`, others indented. */
static void wrap(FILE *f, const char *lead, int indent, const char *text)
{
	fsl_text_wrap(f, indent, lead, indent + (int)strlen(lead), text);
}

static void title(FILE *f, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void title(FILE *f, const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "\n%s", name);
	if (fmt) {
		fputs("  ", f);
		va_start(ap, fmt);
		vfprintf(f, fmt, ap);
		va_end(ap);
	}
	fputc('\n', f);
}

/* One-line sparkline of a series over nbins bins, scaled to its maximum. */
static void spark(FILE *f, const uint64_t *s, unsigned int nbins, unsigned int width)
{
	static const char lv[] = " .:-=+*#%@";
	uint64_t cols[W], max = 0;
	unsigned int i, per;

	if (!nbins)
		return;
	per = (nbins + width - 1) / width;
	memset(cols, 0, sizeof(cols));
	for (i = 0; i < nbins; i++)
		cols[i / per] += s[i];
	width = (nbins + per - 1) / per;
	for (i = 0; i < width; i++)
		if (cols[i] > max)
			max = cols[i];
	for (i = 0; i < width; i++)
		fputc(max ? lv[cols[i] ? 1 + (cols[i] * 8 + max - 1) / max : 0] : ' ', f);
}

/* "block, writeback cannot apply: the target (tmpfs) has no block device" */
static void na_line(FILE *f, struct fsl_analysis *a, uint32_t fams, const char *why)
{
	unsigned int i, n = 0;

	if (!fams)
		return;
	for (i = 0; i < FSL_FAM__MAX; i++)
		if (fams & (1u << i))
			fprintf(f, "%s%s", n++ ? ", " : "", fsl_family_name(i));
	fprintf(f, " cannot apply: the target (%s) %s\n",
		rn_kv(a, FSL_KV_FSTYPE), why);
}

static void header(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	const struct fsl_health *h = fsl_analysis__health(a);
	uint64_t t0, t1, ev = 0, lost = 0;
	char b1[32];
	unsigned int i;
	const char *cmd = fsl_meta_kv(fsl_analysis__meta(a), FSL_KV_COMMAND), *why;
	uint64_t dev;

	rn_span(a, &t0, &t1);
	for (i = 0; i < FSL_FAM__MAX; i++) {
		ev += h->events[i];
		lost += h->lost[i];
	}
	fprintf(f, "fslens report%s%s: %s, kernel %s\n", info->trace_path ? " " : "",
		info->trace_path ? info->trace_path : "", rn_kv(a, FSL_KV_HOSTNAME), rn_kv(a, FSL_KV_KERNEL));
	if (!fsl_meta__get_u64(fsl_analysis__meta(a), FSL_KV_DEV, &dev))
		fprintf(f, "target %s (%s, dev %s), ", rn_kv(a, FSL_KV_MOUNT), rn_kv(a, FSL_KV_FSTYPE),
			rn_dev(b1, sizeof(b1), (uint32_t)dev));
	/* the cause record measured (older traces do not say) */
	why = !h->lost_behind && !h->lost_burst ? "" :
	      h->lost_behind >= h->lost_burst ? "the recorder's drain fell behind; " :
						"bursts overflowed the ring; ";
	fprintf(f, "%.2f s, %" PRIu64 " events, %" PRIu64 " lost\n", rn_sec(t1 - t0), ev, lost);
	/* a loss has its own line: the header stays within 100 columns */
	if (lost)
		fprintf(f, "  *** %" PRIu64 " lost (%ssee TRACE) ***\n", lost, why);
	if (cmd) {
		char ec[4096];

		fsl_text_escape(ec, sizeof(ec), cmd, (size_t)-1);
		wrap(f, "command: ", 0, ec);
	}
	na_line(f, a, h->fam_no_disk, "has no block device");
	na_line(f, a, h->fam_no_fs, "is not ext4 or xfs");
}

/*
 * The workload's whole time first: what the causes below are a part of.
 * Classes under 0.1% of the wall are left out of the parenthesis.
 */
static void whole_line(FILE *f, const struct fsl_wholetime *w, const struct fsl_cpu *cpu)
{
	char line[1024], b1[32];
	size_t used = 0;
	unsigned int i, shown = 0;
	double wall = w->wall_ns;

	if (!w->threads || !w->wall_ns)
		return;
#define PCT(x) (100.0 * (double)(x) / wall)
	used += snprintf(line + used, sizeof(line) - used,
			 "wall %s over %u thread%s: on-CPU %.1f%%, runnable %.1f%%, blocked %.1f%%",
			 fsl_fmt_ns(b1, sizeof(b1), w->wall_ns), w->threads,
			 w->threads == 1 ? "" : "s", PCT(w->oncpu_ns), PCT(w->runq_ns),
			 PCT(w->blocked_ns));
	for (i = 0; i < FSL_WC__MAX && used < sizeof(line); i++) {
		if (PCT(w->cls_ns[i]) < 0.1)
			continue;
		used += snprintf(line + used, sizeof(line) - used, "%s%s %.1f%%",
				 shown++ ? ", " : " (", fsl_wclass_id(i), PCT(w->cls_ns[i]));
	}
	if (used < sizeof(line) && PCT(w->other_fs_ns) >= 0.1)
		used += snprintf(line + used, sizeof(line) - used, "%sother filesystems %.1f%%",
				 shown++ ? ", " : " (", PCT(w->other_fs_ns));
	if (used < sizeof(line) && PCT(w->short_ns) >= 0.1)
		used += snprintf(line + used, sizeof(line) - used, "%sshort waits %.1f%%",
				 shown++ ? ", " : " (", PCT(w->short_ns));
	if (used < sizeof(line) && shown)
		used += snprintf(line + used, sizeof(line) - used, ")");
	if (used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, ", other sleep %.1f%%",
			 PCT(w->sleep_ns));
	wrap(f, "whole time: ", 2, line);
	/* where the on-CPU part went, by the samples' classes (largest first) */
	if (cpu && cpu->period_ns && cpu->total_ns[FSL_ROLE_WORKLOAD]) {
		const uint64_t *ns = cpu->ns[FSL_ROLE_WORKLOAD];
		double all = cpu->total_ns[FSL_ROLE_WORKLOAD];
		unsigned int order[FSL_CC__MAX], n = 0, j, k;

		for (i = 0; i < FSL_CC__MAX; i++) {
			if (!ns[i])
				continue;
			for (j = n; j > 0 && ns[order[j - 1]] < ns[i]; j--)
				order[j] = order[j - 1];
			order[j] = i;
			n++;
		}
		used = 0;
		for (k = 0; k < n && k < 6 && used < sizeof(line); k++) {
			if (100.0 * ns[order[k]] / all < 1.0)
				break;
			used += snprintf(line + used, sizeof(line) - used, "%s%s %.0f%%",
					 k ? ", " : "", fsl_cclass_id(order[k]),
					 100.0 * ns[order[k]] / all);
		}
		if (used < sizeof(line))
			snprintf(line + used, sizeof(line) - used, " (%" PRIu64 " samples at %.0f Hz)",
				 cpu->samples[FSL_ROLE_WORKLOAD], 1e9 / cpu->period_ns);
		wrap(f, "on-CPU by class: ", 2, line);
	}
	if (w->blocked_ns * 2 < w->wall_ns) {
		const char *most = w->oncpu_ns >= w->sleep_ns && w->oncpu_ns >= w->runq_ns ?
				   "on the CPU" : w->sleep_ns >= w->runq_ns ?
				   "in other sleep (not a counted wait)" : "waiting for a CPU";

		if (cpu && cpu->period_ns)
			snprintf(line, sizeof(line), "the workload was mostly not blocked: most of its "
				 "time was %s; the causes below explain the blocked %.1f%% and the "
				 "on-CPU %.1f%% of it.", most, PCT(w->blocked_ns), PCT(w->oncpu_ns));
		else
			snprintf(line, sizeof(line), "the workload was mostly not blocked: most of "
				 "its time was %s; the wait causes below explain %.1f%% of it (record "
				 "the cpu family to see where the CPU time went).", most,
				 PCT(w->blocked_ns));
		wrap(f, "", 2, line);
	}
#undef PCT
}

/* Waits on other filesystems: one line, never among the causes. */
static void other_fs_line(FILE *f, struct fsl_analysis *a, const struct fsl_other_fs *o)
{
	uint64_t all = o->ns[0] + o->ns[1] + o->ns[2];
	char line[512], b1[32], name[64];
	size_t used = 0;
	unsigned int i;

	if (!all && !o->waits)
		return;
	line[0] = 0;
	for (i = 0; i < o->ndev && used < sizeof(line); i++)
		used += snprintf(line + used, sizeof(line) - used, "%s%s %s", i ? ", " : "",
				 o->dev[i].dev ? fsl_dev_label(fsl_analysis__meta(a), o->dev[i].dev,
							       name, sizeof(name)) :
						 "device unknown",
				 fsl_fmt_ns(b1, sizeof(b1), o->dev[i].ns));
	fprintf(f, "  other filesystems (not the target, not ranked): %" PRIu64
		" waits, %.2f s blocked (workload %.2f s):\n", o->waits, rn_sec(all),
		rn_sec(o->ns[FSL_ROLE_WORKLOAD]));
	wrap(f, "    ", 4, line);
}

static void sec_diagnosis(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_stalls *st = fsl_analysis__stalls(a);
	struct fsl_diagnosis *d = malloc(sizeof(*d));
	const struct fsl_proc_stat *ps;
	unsigned int i, n, np;
	uint64_t t0, t1, waits;
	char b1[32], lead[32];

	if (!d)
		return;
	fsl_analysis__diagnose(a, d);
	rn_span(a, &t0, &t1);
	np = fsl_analysis__procs(a, &ps);
	for (i = 0, n = 0; i < np; i++)
		if (ps[i].role == FSL_ROLE_WORKLOAD && ps[i].blocked_ns)
			n++;
	for (i = 0, waits = 0; i < FSL_WC__MAX; i++)
		waits += st->cls[i].count[FSL_ROLE_WORKLOAD];
	if (d->has_cpu)
		title(f, "DIAGNOSIS", "workload blocked %.2f s in %" PRIu64 " waits of %u task%s, "
		      "on-CPU %.2f s (sampled), over %.2f s", rn_sec(d->blocked_ns), waits, n,
		      n == 1 ? "" : "s", rn_sec(d->oncpu_ns), rn_sec(t1 - t0));
	else
		title(f, "DIAGNOSIS", "workload blocked %.2f s in %" PRIu64 " waits of %u task%s, "
		      "over %.2f s", rn_sec(d->blocked_ns), waits, n, n == 1 ? "" : "s",
		      rn_sec(t1 - t0));
	whole_line(f, &d->whole, &d->cpu);
	{
		const struct fsl_health *h = fsl_analysis__health(a);

		/* a killed recording may hold waits whose stacks it never stored */
		if (h && h->unknown_stacks)
			fprintf(f, "  *** %" PRIu64 " waits without a stored stack (the recording "
				"killed first?): their cause is unknown ***\n", h->unknown_stacks);
	}
	if (!d->ncauses) {
		fprintf(f, "  no %s of the workload was recorded%s\n",
			d->has_cpu ? "blocked or on-CPU time" : "blocked time",
			st->ns[FSL_ROLE_KTHREAD] ? " (kernel threads' waits below)" : "");
	} else if (d->has_cpu) {
		/* waits and CPU ranked together: shares of the time both make up */
		fprintf(f, "  causes ranked by the workload's time blocked and on-CPU (%s):\n",
			fsl_fmt_ns(b1, sizeof(b1), d->blocked_ns + d->oncpu_ns));
		fprintf(f, "  %-2s %-22s %10s %7s %8s\n", "#", "cause", "time", "share", "count");
	} else {
		fprintf(f, "  %-2s %-22s %10s %7s %8s\n", "#", "cause", "blocked", "share", "waits");
	}
	for (i = 0; i < d->ncauses; i++) {
		const struct fsl_cause *c = &d->causes[i];

		fprintf(f, "  %-2u %-22s %10s %6.1f%% %8" PRIu64 "   %s\n", i + 1,
			fsl_cause_id(c),
			fsl_fmt_ns(b1, sizeof(b1), c->ns),
			100 * (d->has_cpu ? c->busy_share : c->share), c->count,
			fsl_cause_label(c));
		wrap(f, "evidence: ", 5, c->evidence);
		wrap(f, "change:   ", 5, c->suggestion);
	}
	/* Kernel threads: evidence beside the causes, never ranked with them. */
	if (st->ns[FSL_ROLE_KTHREAD]) {
		char line[512];
		size_t used = 0;

		line[0] = 0;
		for (i = 0, n = 0; i < np && n < 5 && used < sizeof(line); i++) {
			if (ps[i].role != FSL_ROLE_KTHREAD || !ps[i].blocked_ns)
				continue;
			used += snprintf(line + used, sizeof(line) - used, "%s%s %s", n ? ", " : "",
					 ps[i].comm[0] ? ps[i].comm : "?",
					 fsl_fmt_ns(b1, sizeof(b1), ps[i].blocked_ns));
			n++;
		}
		snprintf(lead, sizeof(lead), "%.2f s: ", rn_sec(st->ns[FSL_ROLE_KTHREAD]));
		fprintf(f, "  kernel threads blocked (evidence beside the causes, not ranked):\n");
		wrap(f, lead, 4, line);
	}
	if (st->ns[FSL_ROLE_OTHER])
		fprintf(f, "  other tasks (not the recorded command): %.2f s blocked\n",
			rn_sec(st->ns[FSL_ROLE_OTHER]));
	other_fs_line(f, a, &st->other_fs);
	free(d);
}

static void hist_row(FILE *f, const struct fsl_hist *h)
{
	uint64_t l2[64];
	unsigned int i, first = 64, last = 0;
	char b[32];

	int col;

	fsl_hist_log2_div(h, 1000, l2);
	for (i = 0; i < 64; i++)
		if (l2[i]) {
			if (first == 64)
				first = i;
			last = i;
		}
	if (first == 64)
		return;
	col = fprintf(f, "     log2 us:");
	for (i = first; i <= last; i++) {
		uint64_t lo = i ? 1ull << i : 0;

		if (!l2[i])
			continue;
		if (lo >= 1000000)
			snprintf(b, sizeof(b), "%" PRIu64 "s", lo / 1000000);
		else if (lo >= 1000)
			snprintf(b, sizeof(b), "%" PRIu64 "ms", lo / 1000);
		else
			snprintf(b, sizeof(b), "%" PRIu64, lo);
		if (col > W - 20)
			col = fprintf(f, "\n%13s", "") - 1;
		col += fprintf(f, " %s+:%" PRIu64, b, l2[i]);
	}
	fputc('\n', f);
}

/*
 * The large directories' htrees at the end of the recording: a lookup in a
 * cold directory reads one index block per level before its leaf.
 */
static void htree_lines(FILE *f, struct fsl_analysis *a)
{
	struct fsl_htree_dir h[8];
	unsigned int n = fsl_meta__ext4_htree(fsl_analysis__meta(a), h, 8), i;

	if (!n)
		return;
	fprintf(f, "  large directories (htree at the end of the recording):\n");
	fprintf(f, "    %9s %9s %6s %12s  %s\n", "blocks", "leaves", "levels", "index blocks",
		"directory");
	for (i = 0; i < n; i++)
		fprintf(f, "    %9" PRIu64 " %9" PRIu64 " %6u %12u  %.60s\n", h[i].blocks,
			h[i].blocks > h[i].index_blocks ? h[i].blocks - h[i].index_blocks : 0,
			h[i].levels, h[i].index_blocks, h[i].path);
}

static void sec_ops(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_ops *o = fsl_analysis__ops(a);
	char b[4][32];
	unsigned int i;

	if (!o)
		return;
	title(f, "OPERATIONS", "%" PRIu64 " path operations", o->total);
	if (!o->total) {
		fprintf(f, "  none recorded (dirops family off or idle)\n");
		return;
	}
	fprintf(f, "  %-10s %9s %7s %10s %10s %10s %10s\n", "op", "count", "errors", "p50", "p90", "p99",
		"max");
	for (i = 0; i < FSL_OP__MAX; i++) {
		const struct fsl_op_stat *s = &o->op[i];

		if (!s->count)
			continue;
		fprintf(f, "  %-10s %9" PRIu64 " %7" PRIu64 " %10s %10s %10s %10s\n", fsl_dirop_name(i),
			s->count, s->errors, fsl_fmt_ns(b[0], 32, fsl_hist_quantile(&s->lat, 0.5)),
			fsl_fmt_ns(b[1], 32, fsl_hist_quantile(&s->lat, 0.9)),
			fsl_fmt_ns(b[2], 32, fsl_hist_quantile(&s->lat, 0.99)),
			fsl_fmt_ns(b[3], 32, s->lat.max));
		hist_row(f, &s->lat);
	}
	if (o->tb.nbins) {
		uint64_t peak = 0, last = o->series_create[o->tb.nbins - 1];
		double w = o->tb.width_ns / 1e9;

		for (i = 0; i < o->tb.nbins; i++)
			if (o->series_create[i] > peak)
				peak = o->series_create[i];
		fprintf(f, "  ops/s over time (%.2f s bins): |", w);
		spark(f, o->series_all, o->tb.nbins, 56);
		fprintf(f, "|\n");
		if (peak) {
			fprintf(f, "  creates/s: peak %.0f, last %.0f   |", peak / w, last / w);
			spark(f, o->series_create, o->tb.nbins, 56);
			fprintf(f, "|\n");
		}
	}
	if (o->ndirs) {
		fprintf(f, "  hottest directories:%s\n", o->dirs_other_ops ? " (more not tracked)" : "");
		fprintf(f, "    %9s %12s %12s  %s\n", "ops", "call time", "dir reads", "directory");
		for (i = 0; i < o->ndirs; i++)
			fprintf(f, "    %9" PRIu64 " %12s %12s  %.60s\n", o->dirs[i].ops,
				fsl_fmt_ns(b[0], 32, o->dirs[i].lat_ns),
				fsl_fmt_ns(b[1], 32, o->dirs[i].lookup_wait_ns), o->dirs[i].path);
	}
	if (o->outside)
		fprintf(f, "  (%" PRIu64 " calls on paths outside %s not counted)\n", o->outside,
			rn_kv(a, FSL_KV_MOUNT));
	htree_lines(f, a);
}

static const char *data_name(char *buf, size_t len, const char *name, uint64_t ino)
{
	if (name[0])
		snprintf(buf, len, "%.31s", name);
	else
		snprintf(buf, len, "ino %" PRIu64, ino);
	return buf;
}

/* Data operations: ext4dist per op, ext4slower's slowest, filetop's files and processes. */
static void sec_data(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_data *d = fsl_analysis__data(a);
	char b[6][32], nm[40];
	unsigned int i;

	if (!d || !d->total)
		return;
	title(f, "DATA OPERATIONS", "%" PRIu64 " calls, read %s, written %s", d->total,
	      fsl_fmt_bytes(b[0], 32, d->read_bytes), fsl_fmt_bytes(b[1], 32, d->write_bytes));
	fprintf(f, "  %-15s %9s %6s %10s %10s %10s %10s %10s\n", "op", "count", "errors", "bytes",
		"p50", "p90", "p99", "max");
	for (i = 0; i < FSL_DATA__MAX; i++) {
		const struct fsl_data_op_stat *s = &d->op[i];

		if (!s->count)
			continue;
		fprintf(f, "  %-15s %9" PRIu64 " %6" PRIu64 " %10s %10s %10s %10s %10s\n",
			fsl_data_name(i), s->count, s->errors,
			fsl_fmt_bytes(b[0], 32, s->bytes_done ? s->bytes_done : s->bytes_asked),
			fsl_fmt_ns(b[1], 32, fsl_hist_quantile(&s->lat, 0.5)),
			fsl_fmt_ns(b[2], 32, fsl_hist_quantile(&s->lat, 0.9)),
			fsl_fmt_ns(b[3], 32, fsl_hist_quantile(&s->lat, 0.99)),
			fsl_fmt_ns(b[4], 32, s->lat.max));
		hist_row(f, &s->lat);
	}
	if (d->nslow) {
		fprintf(f, "  slowest calls:\n");
		fprintf(f, "    %10s %-15s %-15s %7s %12s %10s  %s\n", "latency", "op", "process",
			"pid", "offset", "ret", "file");
		for (i = 0; i < d->nslow; i++) {
			const struct fsl_data_slow *s = &d->slow[i];

			fprintf(f, "    %10s %-15s %-15s %7u %12" PRId64 " %10" PRId64 "  %s\n",
				fsl_fmt_ns(b[0], 32, s->lat_ns), fsl_data_name(s->op),
				s->comm[0] ? s->comm : "?", s->pid, s->offset, s->ret,
				s->path[0] ? s->path : data_name(nm, sizeof(nm), s->name, s->ino));
		}
	}
	if (d->nfiles) {
		fprintf(f, "  files by bytes:%s\n", d->files_other ? " (more not tracked)" : "");
		fprintf(f, "    %8s %10s %8s %10s %12s  %s\n", "reads", "read", "writes", "written",
			"call time", "file (inode)");
		for (i = 0; i < d->nfiles; i++) {
			const struct fsl_data_top *t = &d->files[i];

			fprintf(f, "    %8" PRIu64 " %10s %8" PRIu64 " %10s %12s  %s (%" PRIu64 ")\n",
				t->reads, fsl_fmt_bytes(b[0], 32, t->read_bytes), t->writes,
				fsl_fmt_bytes(b[1], 32, t->write_bytes), fsl_fmt_ns(b[2], 32, t->lat_ns),
				d->file_path[i][0] ? d->file_path[i] :
				data_name(nm, sizeof(nm), t->name, t->ino), t->ino);
		}
	}
	if (d->nprocs) {
		fprintf(f, "  processes by bytes:\n");
		fprintf(f, "    %8s %10s %8s %10s %12s  %s\n", "reads", "read", "writes", "written",
			"call time", "process");
		for (i = 0; i < d->nprocs; i++) {
			const struct fsl_data_top *t = &d->procs[i];

			fprintf(f, "    %8" PRIu64 " %10s %8" PRIu64 " %10s %12s  %s (%u)\n", t->reads,
				fsl_fmt_bytes(b[0], 32, t->read_bytes), t->writes,
				fsl_fmt_bytes(b[1], 32, t->write_bytes), fsl_fmt_ns(b[2], 32, t->lat_ns),
				t->name[0] ? t->name : "?", t->pid);
		}
	}
	if (d->outside)
		fprintf(f, "  (%" PRIu64 " calls on files of other filesystems not counted)\n",
			d->outside);
}

static uint64_t span(uint64_t a, uint64_t b)
{
	return a && b && b >= a ? b - a : 0;
}

static void contents_lines(FILE *f, struct fsl_analysis *a);

static void sec_journal(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	const struct fsl_journal *j = fsl_analysis__journal(a);
	const struct fsl_jbd2_info *s = fsl_analysis__jbd2_start(a), *e = fsl_analysis__jbd2_end(a);
	unsigned int i, first, max = info->max_txns ? info->max_txns : 20;
	char b[8][32];

	if (!j)
		return;
	title(f, "JOURNAL", "%" PRIu64 " commits, avg %s, p99 %s, max %s; kernel running average %s",
	      j->commits, fsl_fmt_ns(b[0], 32, fsl_hist_avg(&j->commit_ns)),
	      fsl_fmt_ns(b[1], 32, fsl_hist_quantile(&j->commit_ns, 0.99)),
	      fsl_fmt_ns(b[2], 32, j->commit_ns.max), fsl_fmt_ns(b[3], 32, j->ewma_commit_ns));
	fprintf(f, "  triggers:");
	for (i = 1; i <= FSL_TRIG__MAX; i++)
		fprintf(f, " %s %" PRIu64 "%s", fsl_trigger_name(i % FSL_TRIG__MAX),
			j->trig[i % FSL_TRIG__MAX], i < FSL_TRIG__MAX ? "," : "");
	/*
	 * A commit asked for while jbd2 was busy wakes nothing: its trigger is
	 * inferred; a trace without wake-ups (no -m/-d, older) infers them all.
	 */
	fputc('\n', f);
	if (j->trig_guessed && !j->kicks)
		fprintf(f, "  triggers inferred from waits (no wake-up of jbd2 recorded)\n");
	else if (j->trig_guessed)
		fprintf(f, "  %" PRIu64 " triggers inferred from waits: asked for while jbd2 was busy\n",
			j->trig_guessed);
	if (s && e)
		fprintf(f, "  /proc/fs/jbd2 info: %" PRIu64 " transactions (delta) vs %" PRIu64
			" here; avg commit %" PRIu64 " us vs %" PRIu64 " us here\n",
			e->transactions - s->transactions, j->commits, e->avg_commit_us,
			j->ewma_commit_ns / 1000);	/* truncated, as the kernel prints it */
	if (j->stats_txns)
		fprintf(f, "  per transaction: %.1f handles, %.1f blocks, %.1f logged, running %s"
			" (run stats)\n", (double)j->sum_handles / j->stats_txns,
			(double)j->sum_blocks / j->stats_txns, (double)j->sum_blocks_logged / j->stats_txns,
			fsl_fmt_ns(b[0], 32, j->sum_running_ns / j->stats_txns));
	if (j->phase_txns)
		fprintf(f, "  per commit: locked %s, flushing %s, logging %s (phase events)\n",
			fsl_fmt_ns(b[1], 32, j->sum_locked_phase_ns / j->phase_txns),
			fsl_fmt_ns(b[2], 32, j->sum_flushing_phase_ns / j->phase_txns),
			fsl_fmt_ns(b[3], 32, j->sum_logging_phase_ns / j->phase_txns));
	if (j->ntxns) {
		first = j->ntxns > max ? j->ntxns - max : 0;
		fprintf(f, "  %s transactions (phase times from the phase events):\n",
			first ? "last" : "all");
		fprintf(f, "  %8s %-9s %7s %6s %6s %9s %9s %9s %9s %9s\n", "tid", "trigger", "handles",
			"blocks", "logged", "running", "locked", "flushing", "logging", "commit");
		for (i = first; i < j->ntxns; i++) {
			const struct fsl_txn *t = &j->txns[i];

			fprintf(f, "  %8u %-9s %7u %6u %6u %9s %9s %9s %9s %9s\n", t->tid,
				fsl_trigger_name(t->trigger), t->handles, t->blocks, t->blocks_logged,
				t->have_stats ? fsl_fmt_ns(b[0], 32, t->running_ns) : "-",
				fsl_fmt_ns(b[1], 32, span(t->t_locking, t->t_flushing)),
				fsl_fmt_ns(b[2], 32, span(t->t_flushing, t->t_logging)),
				fsl_fmt_ns(b[3], 32, span(t->t_logging, t->t_end)),
				fsl_fmt_ns(b[4], 32, span(t->t_start, t->t_end)));
		}
	}
	if (j->nsites) {
		fprintf(f, "  handle starts: %" PRIu64 "; waits (ext4_journal_start -> jbd2_handle_start) by site:\n",
			j->handles);
		fprintf(f, "    %-12s %6s %9s %10s %10s  %s\n", "type", "line", "count", "wait", "max", "caller");
		for (i = 0; i < j->nsites && i < 8; i++) {
			const struct fsl_handle_site *x = &j->sites[i];
			const struct fsl_meta *m = fsl_analysis__meta(a);
			const char *sym = x->ip && m && m->sym ? m->sym(m, x->ip) : NULL;

			fprintf(f, "    %-12s %6u %9" PRIu64 " %10s %10s  %.40s\n",
				fsl_handle_type_name(x->type), x->line, x->count,
				fsl_fmt_ns(b[0], 32, x->wait_ns), fsl_fmt_ns(b[1], 32, x->max_ns),
				sym ? sym : "-");
		}
	}
	if (j->ncontents) {
		fprintf(f, "  contents: %" PRIu64 " blocks dirtied by %" PRIu64 " handles stopped"
			" (jbd2_handle_stats);\n    run stats: %" PRIu64 " blocks in %" PRIu64
			" transactions; by site:\n", j->dirtied, j->handles_stopped, j->sum_blocks,
			j->stats_txns);
		fprintf(f, "    %-12s %6s %9s %9s %6s  %s\n", "type", "line", "handles", "blocks", "share",
			"caller");
		for (i = 0; i < j->ncontents && i < 8; i++) {
			const struct fsl_handle_site *x = &j->contents[i];
			const struct fsl_meta *m = fsl_analysis__meta(a);
			const char *sym = x->ip && m && m->sym ? m->sym(m, x->ip) : NULL;

			fprintf(f, "    %-12s %6u %9" PRIu64 " %9" PRIu64 " %5.1f%%  %.40s\n",
				fsl_handle_type_name(x->type), x->line, x->stopped, x->blocks,
				rn_pct(x->blocks, j->dirtied), sym ? sym : "-");
		}
	}
	contents_lines(f, a);
	fprintf(f, "  checkpoints: %" PRIu64 " (%s, %" PRIu64 " buffers written, %" PRIu64
		" dropped)\n  log tail moved %" PRIu64 " times, %" PRIu64 " blocks freed\n",
		j->checkpoints, fsl_fmt_ns(b[0], 32, j->chp_time_ns), j->chp_written, j->chp_dropped,
		j->log_tail_updates, j->log_tail_freed);
	if (j->lock_buffer_stalls)
		fprintf(f, "  lock-buffer stalls: %" PRIu64 ", %s\n", j->lock_buffer_stalls,
			fsl_fmt_ns(b[0], 32, j->lock_buffer_stall_ns));
}

/* "inode_table 245 (93.2%), directory 10 (3.8%)": the classes of v, most first. */
static size_t class_list(char *buf, size_t len, const uint64_t v[FSL_BC__MAX])
{
	uint64_t total = 0, best;
	unsigned int k, done = 0, pick;
	size_t used = 0;

	buf[0] = 0;
	for (k = 0; k < FSL_BC__MAX; k++)
		total += v[k];
	while (total && used < len) {
		for (best = 0, pick = FSL_BC__MAX, k = 0; k < FSL_BC__MAX; k++)
			if (!(done & (1u << k)) && v[k] > best) {
				best = v[k];
				pick = k;
			}
		if (pick == FSL_BC__MAX)
			break;
		done |= 1u << pick;
		used += snprintf(buf + used, len - used, "%s%s %" PRIu64 " (%.1f%%)", used ? ", " : "",
				 fsl_block_class_name(pick), best, rn_pct(best, total));
	}
	return used;
}

/*
 * The journal's contents by block class (the metadata written home), who
 * wrote what home, the last checkpoints by transaction, the blocks read.
 */
static void contents_lines(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_contents *c = fsl_analysis__contents(a);
	uint64_t n[FSL_WR__MAX] = { 0 }, reads = 0;
	unsigned int w, k, i, shown = 0;
	char line[1024], lead[160];

	if (!c || !c->classes)
		return;
	for (w = 0; w < FSL_WR__MAX; w++)
		for (k = 0; k < FSL_BC__MAX; k++)
			n[w] += c->written[w][k];
	for (k = 0; k < FSL_BC__MAX; k++)
		reads += c->read[k];
	if (c->home_total) {
		class_list(line, sizeof(line), c->home);
		fprintf(f, "  contents by block class (the metadata written home, %" PRIu64 " blocks):\n",
			c->home_total);
		wrap(f, "", 4, line);
	}
	for (w = 0; w < FSL_WR__MAX; w++) {
		if (!n[w])
			continue;
		class_list(line, sizeof(line), c->written[w]);
		snprintf(lead, sizeof(lead), "%s wrote %" PRIu64 ": ", fsl_block_writer_name(w), n[w]);
		wrap(f, lead, 4, line);
	}
	for (i = c->nchp > 6 ? c->nchp - 6 : 0; i < c->nchp; i++) {
		const struct fsl_chp_txn *t = &c->chp[i];
		uint64_t sum = 0;

		for (k = 0; k < FSL_BC__MAX; k++)
			sum += t->blocks[k];
		if (!sum)
			continue;
		if (!shown++)
			fprintf(f, "    checkpointed transactions (what their checkpoint wrote home):\n");
		class_list(line, sizeof(line), t->blocks);
		snprintf(lead, sizeof(lead), "tid %u, %" PRIu64 " blocks (kernel: %u written): ", t->tid,
			 sum, t->written);
		wrap(f, lead, 6, line);
	}
	if (reads) {
		class_list(line, sizeof(line), c->read);
		snprintf(lead, sizeof(lead), "blocks read %" PRIu64 ": ", reads);
		wrap(f, lead, 4, line);
	}
}

static void sec_writeback(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_writeback *w = fsl_analysis__writeback(a);
	uint64_t total = 0;
	unsigned int i;
	char b[4][32];

	if (!w)
		return;
	for (i = 0; i < FSL_WB_REASONS; i++)
		total += w->pages[i];
	title(f, "WRITEBACK", "data written: %s by the causes below", fsl_fmt_bytes(b[0], 32,
							w->data_bytes));
	if (w->have_device) {
		fprintf(f, "  the device's data writes: %s (metadata %s, journal %s)",
			fsl_fmt_bytes(b[0], 32, w->dev_data_bytes),
			fsl_fmt_bytes(b[1], 32, w->dev_meta_bytes),
			fsl_fmt_bytes(b[2], 32, w->dev_journal_bytes));
		if (w->dev_data_bytes)
			fprintf(f, "; the causes account for %.1f%% of them",
				100.0 * w->data_bytes / w->dev_data_bytes);
		fputc('\n', f);
	}
	for (i = 0; i < FSL_WBC__MAX; i++) {
		if (!w->cause_calls[i])
			continue;
		fprintf(f, "  %-16s %10s %5.1f%% %9" PRIu64 " %-6s %s\n", fsl_wbcause_id(i),
			fsl_fmt_bytes(b[0], 32, w->cause_bytes[i]),
			w->data_bytes ? 100.0 * w->cause_bytes[i] / w->data_bytes : 0.0,
			w->cause_calls[i], i == FSL_WBC_DIRECT ? "writes" : "calls", fsl_wbcause_label(i));
	}
	if (total || w->inode_pages) {
		fprintf(f, "  flusher passes (all inodes, metadata too): %" PRIu64 " pages (%s); %"
			PRIu64 " by inode passes\n", total, fsl_fmt_bytes(b[0], 32, total * 4096),
			w->inode_pages);
		for (i = 0; i < FSL_WB_REASONS; i++)
			if (w->works[i])
				fprintf(f, "    %-14s %9" PRIu64 " pages in %" PRIu64 " passes\n",
					i == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(i),
					w->pages[i], w->works[i]);
	}
	if (w->ninodes && w->inodes[0].pages) {
		uint64_t bdev = fsl_meta__u64(fsl_analysis__meta(a), FSL_KV_DISK, 0);

		fprintf(f, "  inodes written most:");
		for (i = 0; i < w->ninodes && i < 6 && w->inodes[i].pages; i++)
			fprintf(f, " %" PRIu64 "%s (%" PRIu64 " pages)", w->inodes[i].ino,
				bdev && w->inodes[i].ino == bdev ? " [block device: metadata]" : "",
				w->inodes[i].pages);
		fputc('\n', f);
	}
	fprintf(f, "  throttled (balance_dirty_pages): %" PRIu64 " pauses, %s\n", w->throttle_pauses,
		fsl_fmt_ns(b[0], 32, w->throttle_ns));
	for (i = 0; i < w->nthrottled && i < 6; i++)
		fprintf(f, "    %7u %-16s %7" PRIu64 " pauses %10s\n", w->throttled[i].pid,
			w->throttled[i].comm[0] ? w->throttled[i].comm : "?", w->throttled[i].pauses,
			fsl_fmt_ns(b[0], 32, w->throttled[i].pause_ns));
	if (w->dirty_thresh)
		fprintf(f, "  dirty %s, writeback %s; limits: dirty %s, background %s (last seen)\n",
			fsl_fmt_bytes(b[0], 32, w->nr_dirty * 4096),
			fsl_fmt_bytes(b[1], 32, w->nr_writeback * 4096),
			fsl_fmt_bytes(b[2], 32, w->dirty_thresh * 4096),
			fsl_fmt_bytes(b[3], 32, w->bg_thresh * 4096));
	if (w->tb.nbins) {
		fprintf(f, "  dirty over time:     |");
		spark(f, w->series_dirty, w->tb.nbins, 60);
		fprintf(f, "|\n  written over time:   |");
		spark(f, w->series_written, w->tb.nbins, 60);
		fprintf(f, "|\n");
	}
}

static void lat_row(FILE *f, const char *name, const struct fsl_hist *h)
{
	char b[4][32];

	fprintf(f, "    %-9s %10s %10s %10s %10s\n", name, fsl_fmt_ns(b[0], 32, h->min),
		fsl_fmt_ns(b[1], 32, fsl_hist_avg(h)), fsl_fmt_ns(b[2], 32, fsl_hist_quantile(h, 0.99)),
		fsl_fmt_ns(b[3], 32, h->max));
}

/* A btt stage row: its MIN AVG P99 MAX and btt's N (how many samples). */
static void stage_row(FILE *f, const char *name, const struct fsl_hist *h)
{
	char b[4][32];

	if (!h->count)
		return;
	fprintf(f, "    %-9s %10s %10s %10s %10s %9" PRIu64 "\n", name,
		fsl_fmt_ns(b[0], 32, h->min), fsl_fmt_ns(b[1], 32, fsl_hist_avg(h)),
		fsl_fmt_ns(b[2], 32, fsl_hist_quantile(h, 0.99)), fsl_fmt_ns(b[3], 32, h->max),
		h->count);
}

/*
 * The trace's counts beside the kernel's (/sys/block/DEV/stat delta), one
 * row per counter that is not zero on either side; a difference says where
 * it comes from when the trace knows.
 */
static void kernel_counts(FILE *f, const struct fsl_dev_io *d)
{
	static const char *const gn[FSL_SG__MAX] = { "read", "write", "discard", "flush" };
	static const char *const what[3] = { "I/Os", "merges", "sectors" };
	unsigned int g, w;
	int shown = 0;

	for (g = 0; g < FSL_SG__MAX; g++)
		for (w = 0; w < 3; w++) {
			const uint64_t *tr = w == 0 ? d->kc.ios : w == 1 ? d->kc.merges : d->kc.sectors;
			const uint64_t *ns = w == 0 ? d->not_seen.ios : w == 1 ? d->not_seen.merges :
				d->not_seen.sectors;
			const uint64_t *ks = w == 0 ? d->kstat.ios : w == 1 ? d->kstat.merges :
				d->kstat.sectors;
			uint64_t k = d->have_kstat ? ks[g] : 0;
			char why[160] = "";

			if (g == FSL_SG_FLUSH && w)
				continue;
			if (!tr[g] && !ns[g] && !k)
				continue;
			if (!shown++)
				fprintf(f, "    as the kernel counts them (Documentation/block/stat.rst):\n"
					"      %-15s %12s %12s %12s\n", "", "trace", "not seen",
					d->have_kstat ? "/sys/block" : "");
			if (d->have_kstat && tr[g] + ns[g] != k) {
				int64_t diff = (int64_t)(k - tr[g] - ns[g]);

				if (g == FSL_SG_DISCARD && w == 1)
					snprintf(why, sizeof(why), "  %+" PRId64 ": discard bio merges"
						 " are not traced", diff);
				else
					snprintf(why, sizeof(why), "  %+" PRId64 " not explained", diff);
			} else if (d->have_kstat) {
				snprintf(why, sizeof(why), "  equal");
			}
			fprintf(f, "      %-7s %-7s %12" PRIu64 " %12" PRIu64, gn[g], what[w], tr[g], ns[g]);
			if (d->have_kstat)
				fprintf(f, " %12" PRIu64 "%s", k, why);
			fputc('\n', f);
		}
	if (!shown)
		return;
	if (d->have_kstat)
		fprintf(f, "      in flight at the end read: trace %" PRIu64 ", /sys/block %" PRIu64 "\n",
			d->in_flight_end, d->kstat_in_flight);
	else
		fprintf(f, "      (no /sys/block reads in this trace)\n");
}

static void pairing(FILE *f, const struct fsl_dev_io *d)
{
	char line[512];
	size_t n = 0;
	unsigned int k;

	if (!d->issues && !d->completions)
		return;
	n += snprintf(line + n, sizeof(line) - n, "%" PRIu64 " issues: %" PRIu64
		      " paired with their completion", d->issues, d->paired);
	for (k = FSL_UNP_REQUEUED; k <= FSL_UNP_IN_FLIGHT; k++)
		if (d->unpaired[k])
			n += snprintf(line + n, sizeof(line) - n, ", %" PRIu64 " %s",
				      d->unpaired[k],
				      k == FSL_UNP_REQUEUED ? "requeued (issued again)" :
				      k == FSL_UNP_NOT_SEEN ? "completion not seen (slot used again)" :
				      "in flight at the end");
	if (d->unpaired[FSL_UNP_BEFORE_START] || d->unpaired[FSL_UNP_NO_ISSUE])
		n += snprintf(line + n, sizeof(line) - n, "; completions with no issue: %" PRIu64
			      " issued before the recording, %" PRIu64 " issue not seen",
			      d->unpaired[FSL_UNP_BEFORE_START], d->unpaired[FSL_UNP_NO_ISSUE]);
	if (d->flush_seq_ends)
		n += snprintf(line + n, sizeof(line) - n, "; %" PRIu64 " empty preflush writes"
			      " (their flush ran as the queue's flush request)", d->flush_seq_ends);
	wrap(f, "pairing: ", 4, line);
}

static void sec_blockio(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_blockio *io = fsl_analysis__blockio(a);
	uint64_t t0, t1, n;
	double secs;
	unsigned int i, k;
	char b[6][32];

	if (!io)
		return;
	rn_span(a, &t0, &t1);
	secs = t1 > t0 ? rn_sec(t1 - t0) : 0;
	title(f, "BLOCK I/O", "%u device%s%s", io->ndevs, io->ndevs == 1 ? "" : "s",
	      io->unmatched ? " (some completions had no issue in the trace)" : "");
	for (i = 0; i < io->ndevs; i++) {
		const struct fsl_dev_io *d = &io->devs[i];
		uint64_t l2[64];

		if (!d->completed && !d->d2d)
			continue;
		fprintf(f, "  dev %s: %" PRIu64 " completed (%" PRIu64 " reads %s, %" PRIu64
			" writes %s), %.1f IOPS, %.2f MB/s\n", rn_dev(b[0], 32, d->dev), d->completed,
			d->reads, fsl_fmt_bytes(b[1], 32, d->read_bytes), d->writes,
			fsl_fmt_bytes(b[2], 32, d->write_bytes), secs ? d->completed / secs : 0,
			secs ? (d->read_bytes + d->write_bytes) / secs / 1e6 : 0);
		fprintf(f, "    metadata %" PRIu64 " (%.1f%%), sync %" PRIu64 ", flush/fua %" PRIu64
			", discard %" PRIu64 ", merges %" PRIu64 ", errors %" PRIu64 "\n"
			"    size avg %s, p50 %s, max %s\n",
			d->meta, rn_pct(d->meta, d->completed), d->sync, d->flushes, d->discards, d->merges,
			d->errors, fsl_fmt_bytes(b[0], 32, fsl_hist_avg(&d->size)),
			fsl_fmt_bytes(b[1], 32, fsl_hist_quantile(&d->size, 0.5)),
			fsl_fmt_bytes(b[2], 32, d->size.max));
		fprintf(f, "    requests: %" PRIu64 " with data, %" PRIu64 " cache flush (0 B); completions %" PRIu64, d->completed - d->flush_rqs, d->flush_rqs, d->completions);
		if (d->double_completions)
			fprintf(f, " (%" PRIu64 " second, preflush/FUA)", d->double_completions);
		fputc('\n', f);
		pairing(f, d);
		if (d->bio_level) {
			fprintf(f, "    btt stages, per bio: %" PRIu64 " queued (Q), %" PRIu64 " merged"
				" (M), %" PRIu64 " split\n", d->bios, d->bio_merges, d->splits);
			fprintf(f, "    %-9s %10s %10s %10s %10s %9s\n", "", "min", "avg", "p99", "max", "N");
			stage_row(f, "Q2Q", &d->q2q);
			stage_row(f, "Q2G", &d->q2g);
			stage_row(f, "G2I", &d->g2i);
			stage_row(f, "Q2M", &d->q2m);
			stage_row(f, "I2D", &d->i2d);
			stage_row(f, "M2D", &d->m2d);
			stage_row(f, "Q2D", &d->q2d);
			stage_row(f, "D2C", &d->d2c);
			stage_row(f, "Q2C", &d->q2c);
		} else {
			fprintf(f, "    %-9s %10s %10s %10s %10s\n", "", "min", "avg", "p99", "max");
			lat_row(f, "Q2D", &d->q2d);
			lat_row(f, "D2C", &d->d2c);
			lat_row(f, "Q2C", &d->q2c);
		}
		if (d->flush_rqs) {
			lat_row(f, "flush D2C", &d->flush_d2c);
			lat_row(f, "flush Q2C", &d->flush_q2c);
		}
		kernel_counts(f, d);
		fprintf(f, "    seeks (D2D): %" PRIu64 " of %" PRIu64 " dispatches, %.1f/s; sequential %.1f%%,"
			" backward %.1f%%\n", d->seeks, d->d2d, secs ? d->seeks / secs : 0,
			rn_pct(d->seq, d->d2d), rn_pct(d->backward, d->d2d));
		if (d->d2d)
			fprintf(f, "    distance (sectors, all dispatches): mean %.1f, median %" PRIu64
				", mode %" PRIu64 " (%" PRIu64 "x)\n", (double)d->seek_total / d->d2d,
				fsl_hist_quantile(&d->seek_abs, 0.5), d->seek_mode, d->seek_mode_count);
		for (n = 0, k = 0; k < FSL_BC__MAX; k++)
			n += d->wr_class[k];
		if (n) {
			char line[512];
			size_t used = 0;

			for (k = 0; k < FSL_BC__MAX; k++)
				if (d->wr_class[k])
					used += snprintf(line + used, sizeof(line) - used,
							 "%s%s %" PRIu64 " (%.1f%%)", used ? ", " : "",
							 fsl_block_class_name(k), d->wr_class[k],
							 rn_pct(d->wr_class[k], n));
			fprintf(f, "    blocks written by class: %" PRIu64 "\n", n);
			wrap(f, "", 6, line);
		}
		for (k = 0; k < 2; k++) {
			const struct fsl_seek_dir *dd = &d->dir[k];

			if (!dd->d2d)
				continue;
			fprintf(f, "    %s seeks: %" PRIu64 " of %" PRIu64 " dispatches, %.1f/s;"
				" mean distance %.1f sectors\n", k ? "write" : "read ", dd->seeks,
				dd->d2d, secs ? dd->seeks / secs : 0, (double)dd->seek_total / dd->d2d);
		}
		if (d->seeks) {
			char line[1024];
			size_t used = 0;

			fsl_hist_log2(&d->seek_dist, l2);
			line[0] = 0;
			for (k = 0; k < 64 && used < sizeof(line); k++)
				if (l2[k])
					used += snprintf(line + used, sizeof(line) - used, "%s%" PRIu64 ":%" PRIu64,
							 used ? " " : "", (uint64_t)(k ? 1ull << k : 0), l2[k]);
			wrap(f, "log2: ", 4, line);
		}
		if (d->nissuers) {
			char line[1024];
			size_t used = 0;

			line[0] = 0;
			for (k = 0; k < d->nissuers && k < 6 && used < sizeof(line); k++)
				used += snprintf(line + used, sizeof(line) - used, "%s%s %" PRIu64 " ios %s",
						 k ? ", " : "", d->issuers[k].comm[0] ? d->issuers[k].comm : "?",
						 d->issuers[k].ios, fsl_fmt_bytes(b[0], 32, d->issuers[k].bytes));
			wrap(f, "issuers: ", 4, line);
		}
	}
}

static void cost_row(FILE *f, const char *name, const struct fsl_readdir_cost *c)
{
	fprintf(f, "    %-22s %14" PRIu64 " %17" PRIu64 " %18" PRIu64 " %9" PRIu64 "\n", name,
		c->changes, c->travel, c->first_travel, c->backward);
}

/* Readdir (hash) order vs inode order and what a stat of each entry costs. */
static void sec_readdir(FILE *f, const struct fsl_layout *l)
{
	const struct fsl_readdir_dir *d;
	struct fsl_readdir_dir t;
	unsigned int n, i;
	int geo;

	n = fsl_layout__readdir(l, &d, &t, &geo);
	if (!n) {
		fprintf(f, "  readdir vs inode order: no getdents64 entries in this trace "
			"(record the dirops family)\n");
		return;
	}
	fprintf(f, "  readdir vs inode order: %u stream%s, %" PRIu64 " entries, %.1f%% of successive "
		"entries ascend\n", n, n == 1 ? "" : "s", t.entries, rn_pct(t.ascending, t.pairs));
	if (t.flags & (FSL_DIRENTS_TRUNC | FSL_DIRENTS_FAULT))
		fprintf(f, "    (some getdents64 buffers were only partly walked)\n");
	if (!geo) {
		fprintf(f, "    inode-table cost needs ext4.inode_size/block_size in the trace\n");
	} else {
		fprintf(f, "    %-22s %14s %17s %18s %9s\n", "stat each entry:",
			"block changes", "blocks travelled", "first-read travel", "backward");
		cost_row(f, "  in readdir order", &t.rd);
		cost_row(f, "  in inode order", &t.io);
		fprintf(f, "    (inode-table blocks: %" PRIu64 " distinct; first read = a block's first "
			"visit, cached after)\n", t.blocks);
	}
	if (n < 2)
		return;
	fprintf(f, "    %-8s %4s %8s %9s %12s %11s  %s\n", "pid", "fd", "entries", "ascending",
		"rd changes", "ino changes", "directory (as opened)");
	for (i = 0; i < n && i < 5; i++) {
		size_t len = strlen(d[i].path);
		const char *p = d[i].path + (len > 32 ? len - 32 : 0);

		fprintf(f, "    %-8u %4d %8" PRIu64 " %8.1f%% %12" PRIu64 " %11" PRIu64 "  %s%s\n",
			d[i].pid, d[i].fd, d[i].entries, rn_pct(d[i].ascending, d[i].pairs),
			d[i].rd.changes, d[i].io.changes, *p ? p : "?",
			d[i].flags & FSL_READDIR_OPEN ? " (open)" : "");
	}
	if (n > 5)
		fprintf(f, "    ... %u more streams (--json has all)\n", n - 5);
}

/* What the goal group offered when the extent went elsewhere (its free space then). */
static void break_offer(FILE *f, const struct fsl_goal_offer *o, uint64_t nlen)
{
	unsigned int i;

	fprintf(f, "          goal group %u then: goal block %s", o->group,
		o->goal_free ? "free" : "in use");
	if (!o->goal_tried)
		fprintf(f, " (goal not tried: no EXT4_MB_HINT_TRY_GOAL)");
	if (o->goal_free || o->norm_known)
		fprintf(f, "; %" PRIu64 " free from the %s (%s)", o->at_norm,
			o->norm_known ? "normalized start" : "goal",
			o->fit_at_goal ? "the request fit there" : "too few");
	fprintf(f, "; largest free extent %" PRIu64 "+%" PRIu64 " (%s); %" PRIu64 " free blocks in %"
		PRIu64 " extents", o->largest_start, o->largest_len,
		o->fit_in_group ? "fits" : nlen ? "too small" : "?", o->free, o->extents);
	for (i = 0; i < o->nnear; i++)
		fprintf(f, "%s%" PRIu64 "+%" PRIu64, i ? ", " : "; nearest the goal ",
			o->near_start[i], o->near_len[i]);
	fputc('\n', f);
}

/* The evidence for one break: who holds the block, how, and the allocator's decision. */
static void break_why(FILE *f, const struct fsl_frag_break *b, uint64_t t0)
{
	double at = b->taker_ts > t0 ? rn_sec(b->taker_ts - t0) : 0.0;

	switch (b->taker_kind) {
	case FSL_TAKER_FILE:
		fprintf(f, "          block %" PRIu64 " went to inode %" PRIu64, b->expect, b->taker_ino);
		if (b->taker_how == FSL_HOW_GROUP_PA && b->pa_ino)
			fprintf(f, " at +%.3f s from the group preallocation %" PRIu64 "+%" PRIu64
				" created by inode %" PRIu64 " at +%.3f s", at, b->pa_start, b->pa_len,
				b->pa_ino, b->pa_ts > t0 ? rn_sec(b->pa_ts - t0) : 0.0);
		else if (b->taker_how == FSL_HOW_INODE_PA && b->pa_ino)
			fprintf(f, " at +%.3f s from its inode preallocation %" PRIu64 "+%" PRIu64, at,
				b->pa_start, b->pa_len);
		else if (b->taker_how == FSL_HOW_UNKNOWN)
			fprintf(f, " (before the trace)");
		else
			fprintf(f, " at +%.3f s (%s)", at, fsl_alloc_how_name(b->taker_how));
		if (b->taker_later)
			fprintf(f, "; later than this extent (+%.3f s), when it was %s",
				b->ts > t0 ? rn_sec(b->ts - t0) : 0.0,
				b->pa_reserved ? "held in that preallocation" : "still free");
		fputc('\n', f);
		break;
	case FSL_TAKER_EXTENT_TREE:
		fprintf(f, "          block %" PRIu64 " is an extent-tree block of inode %" PRIu64
			" (+%.3f s)\n", b->expect, b->taker_ino, at);
		break;
	case FSL_TAKER_SUPER:
	case FSL_TAKER_GDT:
	case FSL_TAKER_RESERVED_GDT:
	case FSL_TAKER_BBITMAP:
	case FSL_TAKER_IBITMAP:
	case FSL_TAKER_ITABLE:
		fprintf(f, "          block %" PRIu64 " is metadata: %s\n", b->expect,
			b->taker_kind == FSL_TAKER_SUPER ? "a backup superblock" :
			b->taker_kind == FSL_TAKER_GDT ? "group descriptors" :
			b->taker_kind == FSL_TAKER_RESERVED_GDT ?
			"reserved GDT blocks (the resize inode's)" :
			b->taker_kind == FSL_TAKER_BBITMAP ? "a block bitmap" :
			b->taker_kind == FSL_TAKER_IBITMAP ? "an inode bitmap" : "an inode table");
		break;
	case FSL_TAKER_FREE:
		fprintf(f, "          block %" PRIu64 " is free: the allocator placed the extent "
			"elsewhere\n", b->expect);
		break;
	default:
		fprintf(f, "          block %" PRIu64 " is in use, by no inode seen in the trace\n",
			b->expect);
	}
	if (b->have_decision) {
		fprintf(f, "          this extent: asked goal %" PRIu64 " for %" PRIu64 " block%s, "
			"normalized to %" PRIu64, b->goal, b->req_len, b->req_len == 1 ? "" : "s",
			b->norm_len);
		if (b->norm_known)
			fprintf(f, " at %" PRIu64, b->norm_start);
		/* the pass on a line of its own: the kernel's names are long */
		fprintf(f, ",\n            found at cr %u", b->cr);
		if (b->cr_name)
			fprintf(f, " (%s)", b->cr_name);
		fprintf(f, " after %u group%s\n", b->groups_scanned,
			b->groups_scanned == 1 ? "" : "s");
	}
	if (b->offer.have)
		break_offer(f, &b->offer, b->norm_len);
}

static void break_positions(FILE *f, const struct fsl_layout *l)
{
	struct fsl_break_pos p;

	fsl_layout__break_pos(l, &p);
	if (!p.breaks)
		return;
	fprintf(f, "  where the breaks fall (logical block):\n");
	if (p.wb_limit)
		fprintf(f, "    %" PRIu64 " of %" PRIu64 " at multiples of %u: the writeback extent "
			"limit (ext4 maps at most %u blocks per extent in one writeback pass; fixed "
			"in the kernel: fallocate the file to get it in one piece)\n", p.wb_limit,
			p.breaks, p.wb_len, p.wb_len);
	if (p.stream_req)
		fprintf(f, "    %" PRIu64 " of %" PRIu64 " at %u or %u blocks: until a file reaches "
			"mb_stream_req (%u blocks) its blocks come from the locality group's "
			"preallocation (/sys/fs/ext4/DEV/mb_stream_req)\n", p.stream_req, p.breaks,
			p.stream_len - 1, p.stream_len, p.stream_len);
	if (p.group_pa)
		fprintf(f, "    %" PRIu64 " of %" PRIu64 " at multiples of %u: the locality-group "
			"preallocation size (/sys/fs/ext4/DEV/mb_group_prealloc)\n", p.group_pa,
			p.breaks, p.group_len);
	if (p.other) {
		unsigned int i;

		fprintf(f, "    %" PRIu64 " of %" PRIu64 " elsewhere; most at", p.other, p.breaks);
		for (i = 0; i < 3 && p.other_n[i]; i++)
			fprintf(f, "%s %" PRIu64 " (%" PRIu64 ")", i ? "," : "", p.other_log[i],
				p.other_n[i]);
		fputc('\n', f);
	}
}

static void sec_layout(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	const struct fsl_layout *l = fsl_analysis__layout(a);
	const struct fsl_frag_break *br;
	struct fsl_layout_file worst[8];
	uint64_t hist[16];
	unsigned int n, i, max = info->max_breaks ? info->max_breaks : 20;
	uint64_t t0, t1;
	char b[32];

	if (!l)
		return;
	rn_span(a, &t0, &t1);
	title(f, "LAYOUT", "%" PRIu64 " files with mapped blocks, %" PRIu64 " with more than one extent",
	      fsl_layout__files(l), fsl_layout__fragmented(l));
	fsl_layout__extent_hist(l, hist);
	fprintf(f, "  extents per file:");
	for (i = 0; i < 16; i++)
		if (hist[i])
			fprintf(f, " %u%s: %" PRIu64, 1u << i, i ? "+" : "", hist[i]);
	fputc('\n', f);
	{
		const struct fsl_allocstat *as = fsl_analysis__allocstat(a);

		if (as && as->decisions)
			fprintf(f, "  allocator: %" PRIu64 " searches, found at cr 0/1/2/3: %" PRIu64
				"/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", goal hits %" PRIu64 " (%.1f%%),"
				"\n    %.1f groups scanned each; %" PRIu64 " from preallocations\n",
				as->decisions, as->by_cr[0], as->by_cr[1], as->by_cr[2],
				as->by_cr[3] + as->by_cr[4], as->goal_hits,
				rn_pct(as->goal_hits, as->decisions),
				(double)as->groups / as->decisions, as->prealloc);
	}
	n = fsl_layout__breaks(l, &br);
	if (n) {
		fprintf(f, "  fragcheck (what e2fsck -fn -E fragcheck prints), and who took the block:\n");
		for (i = 0; i < n && i < max; i++) {
			fprintf(f, "%6" PRIu64 "(%c): expecting %6" PRIu64 " actual extent phys %6" PRIu64
				" log %" PRIu64 " len %" PRIu64 "\n", br[i].ino, br[i].kind, br[i].expect,
				br[i].phys, br[i].log, br[i].len);
			break_why(f, &br[i], t0);
		}
		if (n > max)
			fprintf(f, "  ... %u more (--breaks N shows more, --json has all)\n", n - max);
		break_positions(f, l);
	}
	{
		const struct fsl_ind_break *ib;
		uint64_t nf;
		char line[160];

		n = fsl_analysis__ind_breaks(a, &ib, &nf);
		if (nf)
			fprintf(f, "  files without extents (indirect blocks): %" PRIu64 ", %u "
				"fragcheck lines%s\n", nf, n, n ? " (what e2fsck -fn -E fragcheck prints):" : "");
		for (i = 0; i < n && i < max; i++) {
			rn_ind_line(line, sizeof(line), &ib[i]);
			fprintf(f, "%s\n", line);
		}
		if (n > max)
			fprintf(f, "  ... %u more (--breaks N shows more, --json has all)\n", n - max);
	}
	n = fsl_layout__worst(l, worst, 8);
	if (n) {
		fprintf(f, "  most fragmented:");
		for (i = 0; i < n; i++)
			fprintf(f, " %" PRIu64 "(%c) %u extents/%s", worst[i].ino, worst[i].kind,
				worst[i].extents, fsl_fmt_count(b, sizeof(b), worst[i].blocks));
		fputc('\n', f);
	}
	{
		uint64_t dh[16], cnt;
		double mean;
		char line[512];
		size_t used = 0;

		cnt = fsl_layout__inode_distance(l, dh, &mean);
		if (cnt) {
			line[0] = 0;
			for (i = 0; i < 16 && used < sizeof(line); i++)
				if (dh[i])
					used += snprintf(line + used, sizeof(line) - used, "%s%s%u: %" PRIu64,
							 used ? ", " : "", i ? "" : "same group ",
							 i ? 1u << (i - 1) : 0, dh[i]);
			double ms;
			uint64_t med, ns = fsl_layout__inode_distance_sectors(l, &ms, &med);

			fprintf(f, "  inode-to-data distance (block groups, %" PRIu64 " files): mean %.1f\n",
				cnt, mean);
			if (ns)
				fprintf(f, "  inode-to-data distance (sectors, %" PRIu64 " files): "
					"mean %.0f, median %" PRIu64 "\n", ns, ms, med);
			wrap(f, "groups apart: ", 4, line);
		}
	}
	sec_readdir(f, l);
}

static void sec_health(FILE *f, struct fsl_analysis *a)
{
	const struct fsl_health *h = fsl_analysis__health(a);
	uint64_t lost = 0;
	unsigned int i;

	for (i = 0; i < FSL_FAM__MAX; i++)
		lost += h->lost[i];
	title(f, "TRACE", "%s", lost ? "EVENTS WERE LOST: numbers below them are lower bounds" :
	      "no events lost");
	fprintf(f, "  %-10s %12s %10s\n", "family", "events", "lost");
	for (i = 0; i < FSL_FAM__MAX; i++)
		fprintf(f, "  %-10s %12" PRIu64 " %10" PRIu64 "\n", fsl_family_name(i), h->events[i],
			h->lost[i]);
	if (lost && h->loss_advice && *h->loss_advice)
		wrap(f, "why: ", 4, h->loss_advice);
	if (h->min_wait_us)
		fprintf(f, "  off-CPU threshold: %" PRIu64 " us (shorter waits were not recorded)\n",
			h->min_wait_us);
	else
		fprintf(f, "  off-CPU threshold: unknown\n");
	fprintf(f, "  probe mode: %s; missing on this kernel: %s\n",
		h->probe_mode ? h->probe_mode : "unknown", h->missing && *h->missing ? h->missing : "none");
	if (h->unknown_events || h->unknown_stacks)
		fprintf(f, "  %" PRIu64 " events of unknown types skipped, %" PRIu64
			" waits without a stored stack\n", h->unknown_events, h->unknown_stacks);
}

/* Columns of n bytes of UTF-8 text: the bytes that start a character. */
static size_t text_cols(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/*
 * The report as rendered, to f, every line that would pass W columns
 * folded at spaces, its continuation 4 columns in from its own indent. The
 * sections wrap their prose themselves; this keeps the promise for a line
 * of figures that grew (a count of more digits, a size in GiB).
 */
static void fold_out(FILE *f, char *buf, size_t len)
{
	char *p = buf, *end = buf + len;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int indent = 0;

		if (text_cols(p, n) <= W) {
			fwrite(p, 1, n, f);
			if (nl)
				fputc('\n', f);
		} else {
			p[n] = 0;	/* the newline's place, or the memstream's NUL */
			while (p[indent] == ' ' && indent < 40)
				indent++;
			fsl_text_wrap(f, indent, "", indent + 4, p + indent);
		}
		p += n + 1;
	}
}

static int report_text(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info);

int fsl_report__text(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int e;

	if (!m)
		return report_text(f, a, info);
	e = report_text(m, a, info);
	if (fclose(m) && !e)
		e = -EIO;
	if (buf)
		fold_out(f, buf, len);
	free(buf);
	if (!e && ferror(f))
		e = -EIO;
	return e;
}

static int report_text(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	struct fsl_report_info dflt = { 0 };
	uint32_t sec;

	if (!info)
		info = &dflt;
	sec = info->sections ? info->sections : FSL_SEC_ALL;
	header(f, a, info);
	if (sec & FSL_SEC_DIAGNOSIS)
		sec_diagnosis(f, a);
	if (sec & FSL_SEC_OPS) {
		sec_ops(f, a);
		sec_data(f, a);
	}
	/* XFS has no jbd2 journal; its log shows in the causes and their evidence */
	if ((sec & FSL_SEC_JOURNAL) && !rn_is_xfs(a))
		sec_journal(f, a, info);
	if (sec & FSL_SEC_WRITEBACK)
		sec_writeback(f, a);
	if (sec & FSL_SEC_BLOCKIO)
		sec_blockio(f, a);
	if ((sec & FSL_SEC_LAYOUT) && rn_is_xfs(a))
		rn_xfs_text(f, a, info);
	else if (sec & FSL_SEC_LAYOUT)
		sec_layout(f, a, info);
	if (sec & FSL_SEC_HEALTH)
		sec_health(f, a);
	return ferror(f) ? -EIO : 0;
}
