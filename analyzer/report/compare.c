// SPDX-License-Identifier: GPL-2.0
/*
 * compare (include/fslens/compare.h): rows are phases, columns are the
 * traces (or the runs inside one); each cell the phase's time, its rate, the
 * top cause of the workload's blocked time with its share, and the journal
 * and I/O evidence counted during the phase.
 *
 * One reader and one session pass per trace. The pass feeds one consumer
 * that counts every event into the phases it falls in and feeds the
 * analysis set of each phase window; the analyses see the whole trace, so
 * work in flight when a phase starts is known, and each window gets what the
 * one window rule gives it, as `fslens report --from --to` does.
 *
 * The sets are attached to the pass's session, so all the windows of a
 * trace share one context stage (root pid from the metadata, no
 * reordering, no split: what report's session does); a diagnosis set is 9
 * consumers, and the session's table grows.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fslens/analysis.h"
#include "fslens/compare.h"
#include "fslens/text.h"
#include "fslens/json.h"
#include "fslens/report.h"
#include "fslens/session.h"
#include "fslens/trace.h"
#include "fslens/xfslayout.h"
#include "../../scenarios/phases.h"
#include "compare_int.h"

#define NMAX	FSL_COMPARE_MAX

#define cell cmp_cell

struct column {
	char trace[PATH_MAX];
	char label[160];
	unsigned int run;
	const struct fsl_phase_log *log;	/* with parameters only; shared by the runs */
};

/* A phase window of the trace being read. */
struct slice {
	uint64_t t0, t1;
	int row, col;
	struct fsl_analysis *a;
};

/* One trace's pass. */
struct pass {
	struct fsl_compare *c;
	struct fsl_consumer cons;
	/* outlives the pass: the analyses resolve stacks lazily */
	struct fsl_meta meta;
	struct slice sl[NMAX];
	unsigned int n;
	uint32_t dev;
	struct fsl_compare_stats *st;
};

struct fsl_compare {
	struct fsl_compare_opts o;
	struct column cols[NMAX];
	unsigned int ncols;
	char rows[NMAX][32];
	unsigned int nrows;
	struct cell cells[NMAX][NMAX];	/* [row][col] */
	struct fsl_phase_log logs[NMAX];
	uint8_t whole[NMAX];		/* the trace has no phase file: one phase "all" */
	char traces[NMAX][PATH_MAX];
	struct fsl_compare_stats stats[NMAX];
	unsigned int ntraces;
	/* each row's configurations against the base column, in column order */
	struct cmp_diff *diffs;
	unsigned int ndiffs;
	char error[PATH_MAX + 64];
};

/* Rounded to 3 decimals, as report --json writes shares. */
static double r3(double v)
{
	return (double)(int64_t)(v * 1000 + (v >= 0 ? 0.5 : -0.5)) / 1000;
}

static int fail(struct fsl_compare *c, int err, const char *what, const char *path)
{
	snprintf(c->error, sizeof(c->error), "%s '%s': %s", what, path, strerror(-err));
	return err;
}

static void warn(struct fsl_compare *c, const char *trace, const char *msg)
{
	if (c->o.warn)
		c->o.warn(c->o.warn_ctx, trace, msg);
}

struct fsl_compare *fsl_compare__new(const struct fsl_compare_opts *o, int *err)
{
	struct fsl_compare *c = calloc(1, sizeof(*c));

	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	if (o)
		c->o = *o;
	return c;
}

void fsl_compare__free(struct fsl_compare *c)
{
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < c->ntraces; i++)
		fsl_phase_log__free(&c->logs[i]);
	free(c->diffs);
	free(c);
}

const char *fsl_compare__error(const struct fsl_compare *c)
{
	return c->error;
}

const struct fsl_compare_stats *fsl_compare__stats(const struct fsl_compare *c, unsigned int i,
						   const char **trace)
{
	if (i >= c->ntraces)
		return NULL;
	if (trace)
		*trace = c->traces[i];
	return &c->stats[i];
}

int fsl_compare__window(const struct fsl_compare *c, unsigned int row, unsigned int col,
			uint64_t *t0, uint64_t *t1)
{
	const struct cell *cl;

	if (row >= c->nrows || col >= c->ncols)
		return -ENOENT;
	cl = &c->cells[row][col];
	if (!cl->present || !cl->have_window)
		return -ENOENT;
	*t0 = cl->w0;
	*t1 = cl->w1;
	return 0;
}

static int row_of(struct fsl_compare *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i], name))
			return i;
	if (c->nrows >= NMAX)
		return -1;
	snprintf(c->rows[c->nrows], sizeof(c->rows[0]), "%s", name);
	return c->nrows++;
}

static void count_event(struct cell *cell, const struct fsl_hdr *h, uint32_t dev)
{
	cell->events++;
	switch (h->type) {
	case FSL_EV_JBD2_END_COMMIT: {
		const struct fsl_ev_jbd2_commit *e = (const void *)h;

		if (!dev || e->dev == dev)
			cell->commits++;
		break;
	}
	case FSL_EV_JBD2_RUN_STATS: {
		const struct fsl_ev_jbd2_run_stats *e = (const void *)h;

		if (h->size >= sizeof(*e) && (!dev || e->dev == dev))
			cell->blocks_logged += e->blocks_logged;
		break;
	}
	case FSL_EV_BALANCE_DIRTY_PAGES: {
		const struct fsl_ev_balance_dirty_pages *e = (const void *)h;

		if (h->size >= sizeof(*e) && e->pause > 0) {
			cell->throttled++;
			cell->pause_ms += e->pause;
		}
		break;
	}
	case FSL_EV_BLOCK_RQ_COMPLETE: {
		const struct fsl_ev_block_rq *e = (const void *)h;

		if (h->size < sizeof(*e) || (dev && e->dev != dev))
			break;
		if (e->flags & FSL_RQ_WRITE)
			cell->wr_bytes += (uint64_t)e->nr_sector * 512;
		else if (e->flags & FSL_RQ_READ)
			cell->rd_bytes += (uint64_t)e->nr_sector * 512;
		break;
	}
	}
}

/* Every event: counted in the phases it falls in (the windows' analyses are on the session). */
static int pass_any(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct pass *p = cons->priv;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		struct slice *s = &p->sl[i];

		if (h->ts >= s->t0 && h->ts < s->t1)
			count_event(&p->c->cells[s->row][s->col], h, p->dev);
	}
	return 0;
}

/* What the difference needs of a window: its whole time and the mechanisms' figures. */
static void take_mechanisms(struct cell *cl, struct fsl_analysis *a)
{
	const struct fsl_wholetime *wt = fsl_analysis__wholetime(a);
	const struct fsl_journal *jr = fsl_analysis__journal(a);
	const struct fsl_contents *ct = fsl_analysis__contents(a);
	const struct fsl_writeback *wb = fsl_analysis__writeback(a);
	const struct fsl_allocstat *as = fsl_analysis__allocstat(a);
	const struct fsl_layout *l = fsl_analysis__layout(a);
	const struct fsl_frag_break *br;
	unsigned int k;

	if (wt && wt->threads) {
		cl->have_whole = 1;
		cl->wt = *wt;
	}
	if (jr) {
		cl->have_journal = 1;
		memcpy(cl->trig, jr->trig, sizeof(cl->trig));
	}
	if (ct && ct->classes) {
		cl->have_classes = 1;
		memcpy(cl->home, ct->home, sizeof(cl->home));
		memcpy(cl->chp, ct->written[FSL_WR_CHECKPOINT], sizeof(cl->chp));
		memcpy(cl->wbw, ct->written[FSL_WR_WRITEBACK], sizeof(cl->wbw));
		memcpy(cl->read, ct->read, sizeof(cl->read));
	}
	if (wb) {
		cl->have_wb = 1;
		memcpy(cl->wb_pages, wb->pages, sizeof(cl->wb_pages));
		memcpy(cl->wb_works, wb->works, sizeof(cl->wb_works));
		cl->throttle_ns = wb->throttle_ns;
	}
	if (as) {
		cl->have_alloc = 1;
		cl->alloc = *as;
	}
	if (l) {
		cl->have_layout = 1;
		cl->files = fsl_layout__files(l);
		cl->fragmented = fsl_layout__fragmented(l);
		cl->breaks = fsl_layout__breaks(l, &br);
		{
			uint64_t med;

			cl->id_files = fsl_layout__inode_distance_sectors(l, &cl->id_mean_sectors,
									  &med);
			cl->have_idist = cl->id_files != 0;
		}
	}
	for (k = 0; k < FSL_WT_CPU_CLASSES; k++)
		cl->wt.cpu_cls[k].id[sizeof(cl->wt.cpu_cls[k].id) - 1] = 0;
}

/* The top causes of a window, as report --json ranks and rounds them; its seeks (and ops). */
static int take_causes(struct cell *cl, struct fsl_analysis *a, uint32_t dev)
{
	struct fsl_diagnosis *d = malloc(sizeof(*d));
	const struct fsl_blockio *io = fsl_analysis__blockio(a);
	const struct fsl_ops *ops = fsl_analysis__ops(a);
	const struct fsl_data *data = fsl_analysis__data(a);
	const struct fsl_journal *jr = fsl_analysis__journal(a);
	const struct fsl_meta *m = fsl_analysis__meta(a);
	const struct fsl_xfslayout *xl = fsl_analysis__xfslayout(a);
	unsigned int k;

	if (!d)
		return -ENOMEM;
	take_mechanisms(cl, a);
	if (jr) {
		cl->have_contents = 1;
		cl->dirtied = jr->dirtied;
		for (k = 0; k < jr->ncontents && cl->nsites < CMP_SITES; k++) {
			const struct fsl_handle_site *x = &jr->contents[k];
			const char *sym = x->ip && m && m->sym ? m->sym(m, x->ip) : NULL;

			if (!x->blocks)
				break;
			snprintf(cl->site[cl->nsites].type, sizeof(cl->site[0].type), "%s",
				 fsl_handle_type_name(x->type));
			/* the function, without its offset */
			snprintf(cl->site[cl->nsites].caller, sizeof(cl->site[0].caller), "%.*s",
				 sym ? (int)fsl_frame_func_len(sym) : 0, sym ? sym : "");
			cl->site[cl->nsites].line = x->line;
			cl->site[cl->nsites].blocks = x->blocks;
			cl->nsites++;
		}
	}
	if (xl && xl->geometry) {
		cl->have_xfs = 1;
		cl->xd_files = xl->dist_win.files;
		cl->xd_mean_sectors = fsl_hist_avg(&xl->dist_win.sectors);
		cl->xd_median_sectors = fsl_hist_quantile(&xl->dist_win.sectors, 0.5);
		cl->xd_mean_ags = xl->dist_win.mean_ags;
		cl->xr_reads = xl->reads;
		cl->xr_seeks = xl->read_seeks;
		cl->xr_seek_total = xl->read_seek_total;
	}
	for (k = 0; io && k < io->ndevs; k++)
		if (!dev || io->devs[k].dev == dev) {
			cl->have_seeks = 1;
			memcpy(cl->seek, io->devs[k].dir, sizeof(cl->seek));
			break;
		}
	if (cl->whole && ops && data) {
		cl->ops = ops->total + data->total;
		cl->have_ops = 1;
	}
	fsl_analysis__diagnose(a, d);
	cl->have_cause = 1;
	if (!d->ncauses) {
		snprintf(cl->cause, sizeof(cl->cause), "none");
		cl->share = NAN;
	} else {
		snprintf(cl->cause, sizeof(cl->cause), "%s", fsl_cause_id(&d->causes[0]));
		cl->share = r3(d->causes[0].share);
		for (k = 1; k < d->ncauses && cl->nmore < 3; k++, cl->nmore++) {
			snprintf(cl->more[cl->nmore], sizeof(cl->more[0]), "%s",
				 fsl_cause_id(&d->causes[k]));
			cl->more_share[cl->nmore] = r3(d->causes[k].share);
		}
	}
	free(d);
	return 0;
}

/*
 * The window report --from --to gives for a phase: seconds from the trace's
 * origin, so a phase starting before the origin starts there; bounds in ns.
 */
static void phase_window(uint64_t origin, uint64_t t0, uint64_t t1, uint64_t *w0, uint64_t *w1)
{
	*w0 = t0 > origin ? t0 : origin;
	*w1 = t1 > origin ? t1 : origin + 1;
}

/* All phases of one trace, one pass. */
static int do_trace(struct fsl_compare *c, unsigned int t, struct fsl_reader *r,
		    unsigned int firstcol)
{
	const struct fsl_phase_log *log = &c->logs[t];
	const char *trace = c->traces[t], *v;
	struct fsl_session *sess = NULL;
	struct fsl_context *cx = NULL;
	struct pass *p;
	uint64_t origin;
	unsigned int i;
	int err = 0, from_reader = 0, e;

	p = calloc(1, sizeof(*p));
	if (!p)
		return fail(c, -ENOMEM, "cannot read", trace);
	cx = fsl_context__new(-1, &err);
	if (cx) {
		struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };

		sess = fsl_session__new(&so, &err);
	}
	if (!sess)
		goto out;
	p->cons.name = "compare";
	p->cons.priv = p;
	p->cons.any = pass_any;
	if ((err = fsl_session__add(sess, &p->cons)) < 0)
		goto out;
	p->c = c;
	p->st = &c->stats[t];
	fsl_meta_from_reader(&p->meta, r);
	v = fsl_reader__kv(r, FSL_KV_DEV);
	if (v)
		p->dev = strtoul(v, NULL, 10);
	/* report counts windows from record.start_ns (else the first event) */
	v = fsl_reader__kv(r, FSL_KV_START_NS);
	origin = v ? strtoull(v, NULL, 10) : fsl_reader__stats(r)->first_ts;
	for (i = 0; i < log->nphases && p->n < NMAX; i++) {
		const struct fsl_phase_rec *ph = &log->phases[i];
		int row = row_of(c, ph->name);
		unsigned int col = firstcol + ph->run - 1;
		struct slice *s = &p->sl[p->n];
		struct cell *cl;

		if (row < 0 || col >= c->ncols)
			continue;
		cl = &c->cells[row][col];
		cl->present = 1;
		cl->whole = c->whole[t];
		cl->have_ops = !c->whole[t];
		cl->secs = (ph->end_ns - ph->start_ns) / 1e9;
		cl->ops = ph->ops;
		cl->bytes = ph->bytes;
		s->t0 = ph->start_ns;
		s->t1 = ph->end_ns;
		s->row = row;
		s->col = col;
		p->n++;
		if (!c->o.causes)
			continue;
		phase_window(origin, s->t0, s->t1, &cl->w0, &cl->w1);
		if (cl->w1 <= cl->w0) {
			char msg[96];

			snprintf(msg, sizeof(msg),
				 "phase '%s' run %u is empty: its cell has no cause", ph->name,
				 ph->run);
			warn(c, trace, msg);
			continue;
		}
		{
			struct fsl_analysis_opts ao = {
				/* (the consumers the diagnosis runs anyway) */
				.sections = FSL_SEC_DIAGNOSIS | FSL_SEC_OPS | FSL_SEC_BLOCKIO |
					    FSL_SEC_JOURNAL | FSL_SEC_WRITEBACK | FSL_SEC_LAYOUT,
				.root_pid = -1,
				.t0 = cl->w0, .t1 = cl->w1, .context = cx,
			};

			s->a = fsl_analysis__new(&ao, &err);
			if (!s->a || (err = fsl_analysis__attach(s->a, sess)) < 0)
				goto out;
			cl->have_window = 1;
		}
	}
	p->st->windows = p->n;
	p->st->consumers = fsl_session__nconsumers(sess);
	err = fsl_session__begin(sess, &p->meta);
	if (!err)
		err = fsl_session__read(sess, r, &from_reader);
	e = fsl_session__end(sess);
	if (e < 0 && !err)
		err = e;
	if (err < 0)
		goto out;
	/* skipped chunks make the counts short: say so */
	for (i = 0; i < fsl_reader__nwarnings(r); i++)
		warn(c, trace, fsl_reader__warning(r, i));
	for (i = 0; i < p->n && !err; i++)
		if (p->sl[i].a)
			err = take_causes(&c->cells[p->sl[i].row][p->sl[i].col], p->sl[i].a,
					  p->dev);
	{
		/* the trace's largest indexed directory at its end, in each of its cells */
		struct fsl_htree_dir h;

		if (fsl_meta__ext4_htree(&p->meta, &h, 1))
			for (i = 0; i < p->n; i++) {
				c->cells[p->sl[i].row][p->sl[i].col].have_htree = 1;
				c->cells[p->sl[i].row][p->sl[i].col].htree = h;
			}
	}
out:
	if (err < 0)
		fail(c, err, "cannot read", trace);
	/* the session first: it holds the analyses' consumers */
	fsl_session__free(sess);
	for (i = 0; i < NMAX; i++)
		fsl_analysis__free(p->sl[i].a);
	fsl_context__free(cx);
	free(p);
	return err < 0 ? err : 0;
}

/* Columns get the parameters that differ between traces, else the file name. */
static void label_columns(struct fsl_compare *c)
{
	unsigned int i, j, k, t;

	for (i = 0; i < c->ncols; i++) {
		struct column *col = &c->cols[i];
		size_t len = 0;

		col->label[0] = 0;
		for (k = 0; col->log && k < col->log->nparams; k++) {
			const char *kv = col->log->params[k];
			const char *eq = strchr(kv, '=');
			char key[64];
			int differs = 0;

			if (!eq || (size_t)(eq - kv) >= sizeof(key))
				continue;
			snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
			for (j = 0; j < c->ncols; j++) {
				const char *o = c->cols[j].log ?
					fsl_phase_log__param(c->cols[j].log, key) : NULL;

				if (!o || strcmp(o, eq + 1))
					differs = 1;
			}
			if (differs && len < sizeof(col->label))
				len += snprintf(col->label + len, sizeof(col->label) - len, "%s%s",
						len ? " " : "", kv);
		}
		for (t = 0, j = 0; j < c->ncols; j++)
			if (!strcmp(c->cols[j].trace, col->trace))
				t++;
		if (!len && !(t > 1 && t == c->ncols)) {
			/* (one trace with several runs: the runs name the columns) */
			const char *b = strrchr(col->trace, '/');

			snprintf(col->label, sizeof(col->label), "%s", b ? b + 1 : col->trace);
		}
		if (t > 1) {
			unsigned int same = 0, nth = 0;

			/* the same trace given twice: its copies are told apart by order */
			for (j = 0; j < c->ncols; j++)
				if (!strcmp(c->cols[j].trace, col->trace) && c->cols[j].run == col->run) {
					same++;
					nth += j < i;
				}
			len = strlen(col->label);
			if (same > 1 && !len) {
				const char *b = strrchr(col->trace, '/');

				snprintf(col->label, sizeof(col->label), "%s", b ? b + 1 : col->trace);
				len = strlen(col->label);
			}
			len += snprintf(col->label + len, sizeof(col->label) - len, "%srun %u",
					len ? " " : "", col->run);
			if (same > 1 && len < sizeof(col->label))
				snprintf(col->label + len, sizeof(col->label) - len, " (#%u)", nth + 1);
		}
	}
	/* identical labels (same parameters in two traces): fall back to the file names */
	for (i = 0; i < c->ncols; i++)
		for (j = i + 1; j < c->ncols; j++)
			if (!strcmp(c->cols[i].label, c->cols[j].label) &&
			    strcmp(c->cols[i].trace, c->cols[j].trace)) {
				for (k = 0; k < c->ncols; k++) {
					const char *b = strrchr(c->cols[k].trace, '/');
					char tmp[160];

					snprintf(tmp, sizeof(tmp), "%s", c->cols[k].label);
					snprintf(c->cols[k].label, sizeof(c->cols[k].label), "%.60s %.95s",
						 b ? b + 1 : c->cols[k].trace, tmp);
				}
				return;
			}
}

/*
 * How the sentence names two columns: the parameters that differ between
 * them ("atime=strictatime" and "atime=noatime", the keys in what), else
 * their labels.
 */
static void pair_labels(const struct fsl_compare *c, unsigned int i, unsigned int j, char *li,
			char *lj, char *what, size_t len)
{
	const struct fsl_phase_log *a = c->cols[i].log, *b = c->cols[j].log;
	size_t oi = 0, oj = 0, ow = 0;
	unsigned int k;

	li[0] = lj[0] = what[0] = 0;
	for (k = 0; a && b && k < a->nparams; k++) {
		const char *kv = a->params[k], *eq = strchr(kv, '='), *o;
		char key[64];

		if (!eq || (size_t)(eq - kv) >= sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
		o = fsl_phase_log__param(b, key);
		if (o && !strcmp(o, eq + 1))
			continue;
		oi += snprintf(li + oi, len > oi ? len - oi : 0, "%s%s", oi ? " " : "", kv);
		oj += snprintf(lj + oj, len > oj ? len - oj : 0, "%s%s=%s", oj ? " " : "", key,
			       o ? o : "(none)");
		ow += snprintf(what + ow, len > ow ? len - ow : 0, "%s%s", ow ? "," : "", key);
	}
	if (!oi || (c->cols[i].run != c->cols[j].run && !strcmp(c->cols[i].trace, c->cols[j].trace))) {
		snprintf(li, len, "%s", c->cols[i].label);
		snprintf(lj, len, "%s", c->cols[j].label);
	}
}

/* Every row: each configuration against the base one (docs/compare.md). */
static int diff_all(struct fsl_compare *c)
{
	unsigned int r, j, base = c->o.base < c->ncols ? c->o.base : 0;
	char la[200], lb[200], what[128];

	free(c->diffs);
	c->ndiffs = 0;
	c->diffs = calloc((size_t)c->nrows * (c->ncols > 1 ? c->ncols - 1 : 1), sizeof(*c->diffs));
	if (!c->diffs) {
		snprintf(c->error, sizeof(c->error), "out of memory");
		return -ENOMEM;
	}
	for (r = 0; r < c->nrows; r++)
		for (j = 0; j < c->ncols; j++) {
			struct cmp_diff *d = &c->diffs[c->ndiffs];

			if (j == base || !c->cells[r][base].present || !c->cells[r][j].present)
				continue;
			d->row = r;
			d->a = base;
			d->b = j;
			pair_labels(c, base, j, la, lb, what, sizeof(la));
			cmp_diff(&c->cells[r][base], &c->cells[r][j], c->rows[r], la, lb, what, d);
			c->ndiffs++;
		}
	return 0;
}

/* A trace's phases (a trace without a phase file is one phase "all") and its columns. */
static int add_trace(struct fsl_compare *c, unsigned int t, struct fsl_reader *r,
		     unsigned int *firstcol)
{
	struct fsl_phase_log *log = &c->logs[t];
	const char *trace = c->traces[t];
	char ppath[PATH_MAX];
	unsigned int runs = 1, i, k;
	int err;

	fsl_phases_path(ppath, sizeof(ppath), trace);
	err = fsl_phase_log__load(log, ppath);
	if (err == -ENOENT) {
		const struct fsl_trace_stats *st = fsl_reader__stats(r);

		log->phases = calloc(1, sizeof(*log->phases));
		if (!log->phases)
			return fail(c, -ENOMEM, "cannot read", trace);
		log->nphases = 1;
		c->whole[t] = 1;
		log->phases[0].run = 1;
		snprintf(log->phases[0].name, sizeof(log->phases[0].name), "all");
		log->phases[0].start_ns = st->first_ts;
		log->phases[0].end_ns = st->last_ts + 1;
	} else if (err) {
		return fail(c, err, "cannot read phase file", ppath);
	}
	for (i = 0; i < log->nphases; i++)
		if (log->phases[i].run > runs)
			runs = log->phases[i].run;
	*firstcol = c->ncols;
	for (k = 1; k <= runs; k++) {
		if (c->ncols >= NMAX) {
			snprintf(c->error, sizeof(c->error), "more than %d columns", NMAX);
			return -E2BIG;
		}
		/* (both PATH_MAX: the name fits as it was stored) */
		strcpy(c->cols[c->ncols].trace, trace);
		c->cols[c->ncols].run = k;
		c->cols[c->ncols].log = log->params ? log : NULL;
		c->ncols++;
	}
	return 0;
}

int fsl_compare__run(struct fsl_compare *c, const char *const *traces, unsigned int n)
{
	unsigned int t, firstcol;
	int err = 0;

	if (!n || n > NMAX) {
		snprintf(c->error, sizeof(c->error), "%s",
			 n ? "at most 64 traces" : "no trace given");
		return -EINVAL;
	}
	/* a missing trace is said before any is read */
	for (t = 0; t < n; t++)
		if (access(traces[t], R_OK))
			return fail(c, -errno, "cannot open", traces[t]);
	/* one at a time: open, phases and columns, the pass, close */
	for (t = 0; t < n && !err; t++) {
		struct fsl_reader *r;

		snprintf(c->traces[t], sizeof(c->traces[0]), "%s", traces[t]);
		c->ntraces = t + 1;
		r = fsl_reader__open(traces[t], NULL, &err);
		if (!r) {
			char why[160];

			/* what `fslens info` says of it, as every command does */
			snprintf(c->error, sizeof(c->error), "cannot open '%s': %s", traces[t],
				 fsl_trace_open_strerror(traces[t], err, why, sizeof(why)));
			return err;
		}
		err = add_trace(c, t, r, &firstcol);
		if (!err)
			err = do_trace(c, t, r, firstcol);
		fsl_reader__decoded(r, &c->stats[t].decoded);
		fsl_reader__close(r);
	}
	/* the labels need every trace's parameters */
	if (!err)
		label_columns(c);
	if (!err)
		err = diff_all(c);
	return err;
}

/* ------------------------------------------------------------------ output */

/* A count with K/M/G (one decimal under 10), at most 5 characters. */
static void fmt_count(char *buf, size_t len, double v)
{
	if (v > 0 && v < 9.95) {
		snprintf(buf, len, "%.1f", v);
		return;
	}
	if (v >= 9999.5e6)
		snprintf(buf, len, "%.0fG", v / 1e9);
	else if (v >= 9999.5e3)
		snprintf(buf, len, "%.0fM", v / 1e6);
	else if (v >= 9999.5)
		snprintf(buf, len, "%.0fK", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

#define CW 30	/* cell width */

/*
 * Line `line` of a label wrapped at spaces and commas to CW columns (a word longer than
 * CW is broken), so that no label is ever cut; "" past its end.
 */
static void label_line(const char *label, unsigned int line, char *out)
{
	const char *p = label;
	unsigned int l = 0;
	size_t n;

	for (;;) {
		while (*p == ' ')
			p++;
		n = strlen(p);
		if (n > CW) {
			/*
			 * the last space (or after the last comma) that keeps the
			 * line within CW, else a hard break
			 */
			for (n = CW; n && p[n] != ' ' && p[n - 1] != ','; n--)
				;
			if (!n)
				n = CW;
		}
		if (l == line || !*p) {
			snprintf(out, CW + 1, "%.*s", (int)(l == line ? n : 0), p);
			return;
		}
		p += n;
		l++;
	}
}

/* A mechanism's figure: counts whole, rates and shares with a decimal when small. */
static void fmt_fig(char *buf, size_t len, double v)
{
	if (fabs(v) >= 100 || v == (double)(int64_t)v)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
}

/* Each row's sentence, its time by part and the mechanisms that moved (docs/compare.md). */
static void diff_text(const struct fsl_compare *c, FILE *f)
{
	unsigned int i, k, n;

	if (!c->ndiffs)
		return;
	fprintf(f, "\nwhat changed, each configuration against %s (time at equal work, split as "
		"the workload's whole time; mechanisms ranked by the part they explain):\n",
		c->cols[c->o.base < c->ncols ? c->o.base : 0].label);
	for (i = 0; i < c->ndiffs; i++) {
		const struct cmp_diff *d = &c->diffs[i];

		fputc('\n', f);
		fsl_text_wrap(f, 0, "", 2, d->sentence);
		if (d->same && !d->nmech)
			continue;
		if (d->have_parts) {
			fprintf(f, "    %-34s %9s %9s %9s\n", "time by part (s)", "base", "this",
				"change");
			for (k = 0, n = 0; k < d->nparts && n < 6; k++) {
				const struct cmp_part *p = &d->parts[k];

				if (n >= 3 && fabs(p->delta) < 0.001)
					break;
				fprintf(f, "    %-34.34s %9.3f %9.3f %+9.3f\n", p->id, p->a, p->b,
					p->delta);
				n++;
			}
		}
		if (d->nmech)
			fprintf(f, "    %-34s %9s %9s %9s  %s\n", "mechanisms that moved", "base", "this",
				"change", "explains");
		for (k = 0; k < d->nmech && k < 12; k++) {
			const struct cmp_mech *m = &d->mech[k];
			char a[24], b[24], dd[24];

			fmt_fig(a, sizeof(a), m->a);
			fmt_fig(b, sizeof(b), m->b);
			fmt_fig(dd + 1, sizeof(dd) - 1, fabs(m->delta));
			dd[0] = m->delta < 0 ? '-' : '+';
			fprintf(f, "    %-34.34s %9s %9s %9s  %s\n", m->name, a, b, dd,
				m->part[0] ? m->part : "-");
			if (m->detail[0])
				fprintf(f, "      %.94s\n", m->detail);
		}
	}
}

int fsl_compare__text(const struct fsl_compare *c, FILE *f)
{
	unsigned int r, i, line, lines;
	char lab[CW + 1];
	int any, whole = 0, xfs = 0;

	/* the header: as many lines as the longest label needs */
	for (lines = 0;; lines++) {
		for (any = 0, i = 0; i < c->ncols && !any; i++) {
			label_line(c->cols[i].label, lines, lab);
			any = lab[0] != 0;
		}
		if (!any && lines)
			break;
		fprintf(f, "%-12s", lines ? "" : "phase");
		for (i = 0; i < c->ncols; i++) {
			label_line(c->cols[i].label, lines, lab);
			fprintf(f, " | %-*s", CW, lab);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "------------");
	for (i = 0; i < c->ncols; i++)
		fprintf(f, "-+-%.*s", CW, "------------------------------------------");
	fprintf(f, "\n");
	for (r = 0; r < c->nrows; r++)
		for (i = 0; i < c->ncols; i++)
			xfs |= c->cells[r][i].have_xfs;
	for (r = 0; r < c->nrows; r++) {
		for (line = 0; line < 5 + xfs; line++) {
			fprintf(f, "%-12s", line ? "" : c->rows[r]);
			for (i = 0; i < c->ncols; i++) {
				const struct cell *cl = &c->cells[r][i];
				char buf[96] = "", a[16], b[16], x[16], y[16];

				whole |= cl->present && cl->whole;
				if (!cl->present) {
					snprintf(buf, sizeof(buf), line ? "" : "-");
				} else if (line == 0 && cl->bytes) {
					/* data phases: throughput too, as dbench and bonnie++ print */
					snprintf(buf, sizeof(buf), "%7.2f s %6.0f/s %6.1fMB/s", cl->secs,
						 cl->secs > 0 ? cl->ops / cl->secs : 0,
						 cl->secs > 0 ? cl->bytes / 1e6 / cl->secs : 0);
				} else if (line == 0 && !cl->have_ops) {
					snprintf(buf, sizeof(buf), "%8.3f s ops ?", cl->secs);
				} else if (line == 0 && cl->whole) {
					/* the whole trace: its ops, counted by the analyses */
					double rate = cl->secs > 0 ? cl->ops / cl->secs : 0;

					snprintf(buf, sizeof(buf), "%8.3f s %6" PRIu64 " ops %.*f/s",
						 cl->secs, cl->ops, rate < 10 ? 1 : 0, rate);
				} else if (line == 0) {
					snprintf(buf, sizeof(buf), "%8.3f s %10.0f ops/s", cl->secs,
						 cl->secs > 0 ? cl->ops / cl->secs : 0);
				} else if (line == 1) {
					if (!cl->have_cause)
						snprintf(buf, sizeof(buf), "%s",
							 c->o.causes ? "cause: ?" : "");
					else if (isnan(cl->share))
						snprintf(buf, sizeof(buf), "%s", cl->cause);
					else
						snprintf(buf, sizeof(buf), "%s %.1f%%", cl->cause,
							 cl->share * 100);
				} else if (line == 2) {
					int n = snprintf(buf, sizeof(buf), "j %" PRIu64 "c %" PRIu64 "b",
							 cl->commits, cl->blocks_logged);
					const char *who;

					if (cl->nsites && cl->dirtied) {
						who = cl->site[0].caller[0] ? cl->site[0].caller :
						      cl->site[0].type;
						if (!strncmp(who, "__ext4_", 7))
							who += 7;
						else if (!strncmp(who, "ext4_", 5))
							who += 5;
						/* the name is what gets cut, never the figures */
						snprintf(buf + n, sizeof(buf) - n, " %.0f%% %.*s",
							 100.0 * cl->site[0].blocks / cl->dirtied,
							 CW - n - 6 > 0 ? CW - n - 6 : 0, who);
					}
				} else if (line == 5) {
					/* XFS: inode-to-data distance, and the reads' own seeks */
					fmt_count(a, sizeof(a), cl->xd_mean_sectors);
					fmt_count(b, sizeof(b), cl->xr_seeks / (cl->secs > 0 ? cl->secs : 1));
					fmt_count(x, sizeof(x), cl->xr_seeks ?
						  (double)cl->xr_seek_total / cl->xr_seeks : 0);
					/* AGs apart, when any: last, what a narrow cell cuts */
					if (cl->have_xfs && cl->xd_files && cl->xd_mean_ags >= 0.05)
						snprintf(buf, sizeof(buf), "ino ~%s rs %s/s ~%s %.1fAG",
							 a, b, x, cl->xd_mean_ags);
					else if (cl->have_xfs && cl->xd_files)
						snprintf(buf, sizeof(buf), "ino ~%s rs %s/s ~%s", a, b, x);
					else if (cl->have_xfs)
						snprintf(buf, sizeof(buf), "ino - rs %s/s ~%s", b, x);
				} else if (line == 4) {
					const struct fsl_seek_dir *sr = &cl->seek[0], *sw = &cl->seek[1];
					double sec = cl->secs > 0 ? cl->secs : 1;

					fmt_count(a, sizeof(a), sr->seeks / sec);
					fmt_count(b, sizeof(b), sr->d2d ? (double)sr->seek_total / sr->d2d : 0);
					fmt_count(x, sizeof(x), sw->seeks / sec);
					fmt_count(y, sizeof(y), sw->d2d ? (double)sw->seek_total / sw->d2d : 0);
					if (cl->have_seeks)
						snprintf(buf, sizeof(buf), "seek r %s/s ~%s w %s/s ~%s",
							 a, b, x, y);
				} else {
					fsl_fmt_bytes_short(a, sizeof(a), cl->rd_bytes);
					fsl_fmt_bytes_short(b, sizeof(b), cl->wr_bytes);
					snprintf(buf, sizeof(buf), "io r%s w%s", a, b);
				}
				fprintf(f, " | %-*.*s", CW, CW, buf);
			}
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\ncells: time, ops/s (MB/s where data moved); top cause of the workload's "
		"blocked time and its share; journal commits (c) and blocks logged (b), and the "
		"share of the blocks dirtied that the top handle site dirtied (its caller, "
		"without ext4_); bytes read/written on the device; seeks per second and mean distance in sectors of "
		"the reads (r) and the writes (w) dispatched to the device\n");
	if (xfs)
		fprintf(f, "XFS: ino: mean distance in sectors (and AGs) from each inode to its "
			"first data block, over the files the phase mapped, read or wrote; rs: the "
			"reads' own seeks per second and mean distance in sectors, each read from the "
			"previous read\n");
	if (whole)
		fprintf(f, "all: a trace without a phase file is one phase, the whole trace; "
			"its ops are the path and data operations on the target\n");
	diff_text(c, f);
	return ferror(f) ? -EIO : 0;
}

static void bc_json(struct fsl_json *j, const char *key, const uint64_t v[FSL_BC__MAX], int have)
{
	unsigned int k;

	fsl_json__key(j, key);
	if (!have) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	for (k = 0; k < FSL_BC__MAX; k++)
		fsl_json__kv_u64(j, fsl_block_class_name(k), v[k]);
	fsl_json__obj_end(j);
}

/* A cell's figures the difference is made of (docs/compare.md). */
static void cell_mech_json(struct fsl_json *j, const struct cell *cl)
{
	unsigned int k;

	fsl_json__key(j, "whole_time");
	if (!cl->have_whole) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "threads", cl->wt.threads);
		fsl_json__kv_u64(j, "wall_ns", cl->wt.wall_ns);
		fsl_json__kv_u64(j, "oncpu_ns", cl->wt.oncpu_ns);
		fsl_json__kv_u64(j, "runnable_ns", cl->wt.runq_ns);
		fsl_json__kv_u64(j, "blocked_ns", cl->wt.blocked_ns);
		fsl_json__kv_u64(j, "sleep_ns", cl->wt.sleep_ns);
		fsl_json__key(j, "blocked_by_class_ns");
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_WC__MAX; k++)
			if (cl->wt.cls_ns[k])
				fsl_json__kv_u64(j, fsl_wclass_id(k), cl->wt.cls_ns[k]);
		fsl_json__obj_end(j);
		fsl_json__kv_u64(j, "other_fs_ns", cl->wt.other_fs_ns);
		fsl_json__kv_u64(j, "short_waits_ns", cl->wt.short_ns);
		fsl_json__key(j, "oncpu_by_class_ns");
		if (!cl->wt.ncpu) {
			fsl_json__null(j);
		} else {
			fsl_json__obj_begin(j);
			for (k = 0; k < cl->wt.ncpu; k++)
				fsl_json__kv_u64(j, cl->wt.cpu_cls[k].id, cl->wt.cpu_cls[k].ns);
			fsl_json__obj_end(j);
		}
		fsl_json__obj_end(j);
	}
	fsl_json__key(j, "commits_by_trigger");
	if (!cl->have_journal) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_TRIG__MAX; k++)
			fsl_json__kv_u64(j, fsl_trigger_name(k), cl->trig[k]);
		fsl_json__obj_end(j);
	}
	bc_json(j, "journal_home_by_class", cl->home, cl->have_classes);
	bc_json(j, "checkpoint_by_class", cl->chp, cl->have_classes);
	bc_json(j, "writeback_by_class", cl->wbw, cl->have_classes);
	bc_json(j, "read_by_class", cl->read, cl->have_classes);
	fsl_json__key(j, "writeback_pages_by_reason");
	if (!cl->have_wb) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_WB_REASONS; k++)
			fsl_json__kv_u64(j, k == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(k),
					 cl->wb_pages[k]);
		fsl_json__obj_end(j);
	}
	fsl_json__key(j, "writeback_passes_by_reason");
	if (!cl->have_wb) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_WB_REASONS; k++)
			fsl_json__kv_u64(j, k == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(k),
					 cl->wb_works[k]);
		fsl_json__obj_end(j);
	}
	fsl_json__key(j, "allocator");
	if (!cl->have_alloc) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "searches", cl->alloc.decisions);
		fsl_json__kv_u64(j, "goal_hits", cl->alloc.goal_hits);
		fsl_json__kv_u64(j, "groups_scanned", cl->alloc.groups);
		fsl_json__key(j, "by_cr");
		fsl_json__arr_begin(j);
		for (k = 0; k < FSL_ALLOC_CRS; k++)
			fsl_json__u64(j, cl->alloc.by_cr[k]);
		fsl_json__arr_end(j);
		fsl_json__obj_end(j);
	}
	fsl_json__key(j, "layout");
	if (!cl->have_layout) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "files", cl->files);
		fsl_json__kv_u64(j, "fragmented_files", cl->fragmented);
		fsl_json__kv_u64(j, "fragcheck_breaks", cl->breaks);
		fsl_json__obj_end(j);
	}
	fsl_json__key(j, "htree");
	if (!cl->have_htree) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "path", cl->htree.path);
		fsl_json__kv_u64(j, "blocks", cl->htree.blocks);
		fsl_json__kv_u64(j, "levels", cl->htree.levels);
		fsl_json__kv_u64(j, "index_blocks", cl->htree.index_blocks);
		fsl_json__obj_end(j);
	}
}

static void diff_json(const struct fsl_compare *c, struct fsl_json *j)
{
	unsigned int i, k;

	fsl_json__key(j, "base_column");
	fsl_json__u64(j, c->o.base < c->ncols ? c->o.base : 0);
	fsl_json__key(j, "differences");
	fsl_json__arr_begin(j);
	for (i = 0; i < c->ndiffs; i++) {
		const struct cmp_diff *d = &c->diffs[i];

		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "phase", c->rows[d->row]);
		fsl_json__kv_u64(j, "base", d->a);
		fsl_json__kv_u64(j, "column", d->b);
		fsl_json__kv_double(j, "base_s", r3(d->secs_a));
		fsl_json__kv_double(j, "seconds", r3(d->secs_b));
		fsl_json__kv_double(j, "work_scale", d->scale);
		fsl_json__kv_double(j, "delta_s", r3(d->delta));
		fsl_json__kv_bool(j, "same", d->same);
		fsl_json__kv_str(j, "slower", d->same ? NULL : d->delta > 0 ? "column" : "base");
		fsl_json__key(j, "parts");
		if (!d->have_parts) {
			fsl_json__null(j);
		} else {
			fsl_json__arr_begin(j);
			for (k = 0; k < d->nparts; k++) {
				fsl_json__obj_begin(j);
				fsl_json__kv_str(j, "part", d->parts[k].id);
				fsl_json__kv_double(j, "base_s", r3(d->parts[k].a));
				fsl_json__kv_double(j, "seconds", r3(d->parts[k].b));
				fsl_json__kv_double(j, "delta_s", r3(d->parts[k].delta));
				fsl_json__obj_end(j);
			}
			fsl_json__arr_end(j);
		}
		fsl_json__key(j, "mechanisms");
		fsl_json__arr_begin(j);
		for (k = 0; k < d->nmech; k++) {
			const struct cmp_mech *m = &d->mech[k];

			fsl_json__obj_begin(j);
			fsl_json__kv_str(j, "name", m->name);
			fsl_json__kv_double(j, "base", r3(m->a));
			fsl_json__kv_double(j, "value", r3(m->b));
			fsl_json__kv_double(j, "delta", r3(m->delta));
			fsl_json__kv_str(j, "explains", m->part[0] ? m->part : NULL);
			fsl_json__kv_double(j, "contribution_s", r3(m->contribution));
			fsl_json__kv_str(j, "detail", m->detail[0] ? m->detail : NULL);
			fsl_json__obj_end(j);
		}
		fsl_json__arr_end(j);
		fsl_json__kv_str(j, "sentence", d->sentence);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
}

int fsl_compare__json(const struct fsl_compare *c, FILE *f)
{
	struct fsl_json j;
	unsigned int r, i, k;

	fsl_json__init(&j, f, 1);
	fsl_json__obj_begin(&j);
	fsl_json__key(&j, "columns");
	fsl_json__arr_begin(&j);
	for (i = 0; i < c->ncols; i++) {
		fsl_json__obj_begin(&j);
		fsl_json__key(&j, "label");
		fsl_json__str(&j, c->cols[i].label);
		fsl_json__key(&j, "trace");
		fsl_json__str(&j, c->cols[i].trace);
		fsl_json__key(&j, "run");
		fsl_json__u64(&j, c->cols[i].run);
		fsl_json__obj_end(&j);
	}
	fsl_json__arr_end(&j);
	fsl_json__key(&j, "rows");
	fsl_json__arr_begin(&j);
	for (r = 0; r < c->nrows; r++) {
		fsl_json__obj_begin(&j);
		fsl_json__key(&j, "phase");
		fsl_json__str(&j, c->rows[r]);
		fsl_json__key(&j, "cells");
		fsl_json__arr_begin(&j);
		for (i = 0; i < c->ncols; i++) {
			const struct cell *cl = &c->cells[r][i];

			if (!cl->present) {
				fsl_json__null(&j);
				continue;
			}
			fsl_json__obj_begin(&j);
			fsl_json__key(&j, "seconds");
			fsl_json__double(&j, cl->secs);
			fsl_json__key(&j, "whole_trace");
			fsl_json__bool(&j, cl->whole);
			fsl_json__key(&j, "ops");
			if (cl->have_ops)
				fsl_json__u64(&j, cl->ops);
			else
				fsl_json__null(&j);
			fsl_json__key(&j, "ops_per_s");
			if (cl->have_ops)
				fsl_json__double(&j, cl->secs > 0 ? cl->ops / cl->secs : 0);
			else
				fsl_json__null(&j);
			fsl_json__key(&j, "bytes");
			fsl_json__u64(&j, cl->bytes);
			fsl_json__key(&j, "top_cause");
			fsl_json__str(&j, cl->have_cause ? cl->cause : NULL);
			fsl_json__key(&j, "share");
			if (cl->have_cause && !isnan(cl->share))
				fsl_json__double(&j, cl->share);
			else
				fsl_json__null(&j);
			fsl_json__key(&j, "causes");
			fsl_json__arr_begin(&j);
			for (k = 0; cl->have_cause && strcmp(cl->cause, "none") && k <= cl->nmore;
			     k++) {
				double sh = k ? cl->more_share[k - 1] : cl->share;

				fsl_json__obj_begin(&j);
				fsl_json__key(&j, "class");
				fsl_json__str(&j, k ? cl->more[k - 1] : cl->cause);
				fsl_json__key(&j, "share");
				if (isnan(sh))
					fsl_json__null(&j);
				else
					fsl_json__double(&j, sh);
				fsl_json__obj_end(&j);
			}
			fsl_json__arr_end(&j);
			fsl_json__key(&j, "journal_commits");
			fsl_json__u64(&j, cl->commits);
			fsl_json__key(&j, "journal_blocks_logged");
			fsl_json__u64(&j, cl->blocks_logged);
			fsl_json__key(&j, "journal_dirtied_blocks");
			if (cl->have_contents)
				fsl_json__u64(&j, cl->dirtied);
			else
				fsl_json__null(&j);
			fsl_json__key(&j, "journal_contents");
			fsl_json__arr_begin(&j);
			for (k = 0; k < cl->nsites; k++) {
				fsl_json__obj_begin(&j);
				fsl_json__key(&j, "type");
				fsl_json__str(&j, cl->site[k].type);
				fsl_json__key(&j, "line");
				fsl_json__u64(&j, cl->site[k].line);
				fsl_json__key(&j, "caller");
				fsl_json__str(&j, cl->site[k].caller[0] ? cl->site[k].caller : NULL);
				fsl_json__key(&j, "blocks");
				fsl_json__u64(&j, cl->site[k].blocks);
				fsl_json__key(&j, "share");
				fsl_json__double(&j, r3(cl->dirtied ?
						     (double)cl->site[k].blocks / cl->dirtied : 0));
				fsl_json__obj_end(&j);
			}
			fsl_json__arr_end(&j);
			fsl_json__key(&j, "read_bytes");
			fsl_json__u64(&j, cl->rd_bytes);
			fsl_json__key(&j, "write_bytes");
			fsl_json__u64(&j, cl->wr_bytes);
			for (k = 0; k < 2; k++) {
				const struct fsl_seek_dir *sd = &cl->seek[k];

				fsl_json__key(&j, k ? "write_seeks" : "read_seeks");
				if (!cl->have_seeks) {
					fsl_json__null(&j);
					continue;
				}
				fsl_json__obj_begin(&j);
				fsl_json__key(&j, "dispatches");
				fsl_json__u64(&j, sd->d2d);
				fsl_json__key(&j, "seeks");
				fsl_json__u64(&j, sd->seeks);
				fsl_json__key(&j, "seeks_per_s");
				fsl_json__double(&j, r3(cl->secs > 0 ? sd->seeks / cl->secs : 0));
				fsl_json__key(&j, "seek_mean_sectors");
				fsl_json__double(&j, r3(sd->d2d ? (double)sd->seek_total / sd->d2d : 0));
				fsl_json__obj_end(&j);
			}
			fsl_json__key(&j, "xfs_inode_distance");
			if (cl->have_xfs) {
				fsl_json__obj_begin(&j);
				fsl_json__kv_u64(&j, "files", cl->xd_files);
				fsl_json__kv_u64(&j, "mean_sectors", cl->xd_mean_sectors);
				fsl_json__kv_u64(&j, "median_sectors", cl->xd_median_sectors);
				fsl_json__kv_double(&j, "mean_ags", r3(cl->xd_mean_ags));
				fsl_json__obj_end(&j);
			} else {
				fsl_json__null(&j);
			}
			fsl_json__key(&j, "read_only_seeks");
			if (cl->have_xfs) {
				fsl_json__obj_begin(&j);
				fsl_json__kv_u64(&j, "reads", cl->xr_reads);
				fsl_json__kv_u64(&j, "seeks", cl->xr_seeks);
				fsl_json__kv_double(&j, "seeks_per_s",
						    r3(cl->secs > 0 ? cl->xr_seeks / cl->secs : 0));
				fsl_json__kv_double(&j, "seek_mean_sectors",
						    r3(cl->xr_seeks ? (double)cl->xr_seek_total /
							       cl->xr_seeks : 0));
				fsl_json__obj_end(&j);
			} else {
				fsl_json__null(&j);
			}
			fsl_json__key(&j, "throttle_pauses");
			fsl_json__u64(&j, cl->throttled);
			fsl_json__key(&j, "throttle_ms");
			fsl_json__u64(&j, cl->pause_ms);
			fsl_json__key(&j, "events");
			fsl_json__u64(&j, cl->events);
			cell_mech_json(&j, cl);
			fsl_json__obj_end(&j);
		}
		fsl_json__arr_end(&j);
		fsl_json__obj_end(&j);
	}
	fsl_json__arr_end(&j);
	diff_json(c, &j);
	fsl_json__obj_end(&j);
	fsl_json__newline(&j);
	return ferror(f) ? -EIO : 0;
}
