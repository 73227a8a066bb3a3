// SPDX-License-Identifier: GPL-2.0
/*
 * The feed: runs the shared analyses (include/fslens/analysis.h, the ones
 * `fslens report` prints) and turns their results into top snapshots.
 *
 * Analysis instances, each seeing every event:
 *  - `win`, reset at every cut: the last interval;
 *  - `since`, only the journal and writeback sections, never reset: the
 *    recent transactions and the dirty state (cheap: most events reach no
 *    handler of those sections);
 *  - `acc`, everything, never reset, made when totals are first asked for
 *    (at the start with -a): what `fslens report` computes over the same
 *    events. Made later, it holds the totals since that moment.
 * All three are consumers of one session (session.h) with one context stage;
 * the session holds each wait to its end and, at a cut, gives every wait in
 * flight its part of the closing window, so consecutive windows add up to
 * `fslens report --from --to` over their union (docs/top.md).
 * The feed adds no analysis of its own: it divides by the window length,
 * groups wait classes for the processes view, and keeps the per-class
 * history the sparklines draw.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/devname.h"
#include "fslens/analysis.h"
#include "fslens/session.h"
#include "feed.h"

#define PAGE_BYTES 4096.0	/* global_dirty_state counts pages */
#define MB 1e6

struct top_feed {
	const struct fsl_meta *meta;
	struct fsl_context *cx;
	struct fsl_session *session;
	struct fsl_analysis *win, *since, *acc;
	uint64_t start_ns;
	uint64_t acc_t0;		/* when acc started */
	uint64_t last_ts;		/* of the last event fed */
	uint64_t win_t0, win_t1;	/* the last closed window */
	uint64_t cur_t0;		/* start of the open window */
	int have_window;
	/* Sparkline history: workload ms/s per class of past windows. */
	double hist[FSL_WC__MAX][TOP_HIST];
	unsigned int nhist;
	/* The last closed window's results, copied at the cut. */
	struct top_snap win_snap;
	char target[128], dev[32];
};

_Static_assert(FSL_WC__MAX <= TOP_NCLASSES, "top_proc.class_ms_s too small");

static const uint8_t wclass_group[FSL_WC__MAX] = {
	[FSL_WC_JOURNAL_LOG_SPACE] = TOP_WG_JOURNAL,
	[FSL_WC_TXN_LOCKED] = TOP_WG_JOURNAL,
	[FSL_WC_BUFFER_UNDER_COMMIT] = TOP_WG_JOURNAL,
	[FSL_WC_COMMIT_WAIT] = TOP_WG_JOURNAL,
	[FSL_WC_HANDLE_START] = TOP_WG_JOURNAL,
	[FSL_WC_DIR_BLOCK_READ] = TOP_WG_DIRREAD,
	[FSL_WC_INODE_TABLE_READ] = TOP_WG_IO,
	[FSL_WC_BITMAP_READ] = TOP_WG_IO,
	[FSL_WC_WRITEBACK_THROTTLE] = TOP_WG_THROTTLE,
	[FSL_WC_BLOCK_THROTTLE] = TOP_WG_THROTTLE,
	[FSL_WC_FSYNC_WRITEBACK] = TOP_WG_IO,
	[FSL_WC_FREE_SPACE_WRITEBACK] = TOP_WG_IO,
	[FSL_WC_AIO_WAIT] = TOP_WG_IO,
	[FSL_WC_XFS_LOG_FORCE] = TOP_WG_JOURNAL,
	[FSL_WC_XFS_LOG_SPACE] = TOP_WG_JOURNAL,
	[FSL_WC_XFS_AIL_PUSH] = TOP_WG_JOURNAL,
	[FSL_WC_XFS_META_READ] = TOP_WG_IO,
	[FSL_WC_XFS_BUF_LOCK] = TOP_WG_JOURNAL,
	[FSL_WC_XFS_INODE_LOCK] = TOP_WG_IO,
	[FSL_WC_XFS_ALLOC] = TOP_WG_IO,
	[FSL_WC_PAGE_WAIT] = TOP_WG_IO,
	[FSL_WC_QUEUE_WAIT] = TOP_WG_IO,
	[FSL_WC_FLUSH] = TOP_WG_IO,
	[FSL_WC_OTHER_IO] = TOP_WG_IO,
	[FSL_WC_OTHER] = TOP_WG__MAX,	/* counted in the total only */
};

/* Everything top shows; the layout (extent tracking) it does not show. */
#define TOP_SECTIONS (FSL_SEC_OPS | FSL_SEC_JOURNAL | FSL_SEC_WRITEBACK | FSL_SEC_BLOCKIO | \
		      FSL_SEC_HEALTH)

/*
 * Processes kept per analysis set: the procs view shows the busiest few, and
 * a live top sees every short process of the machine (a create/delete loop
 * starts two a file); the rest are summed in one "(evicted)" row. A process
 * costs about 6 KiB (its latency histogram), twice that in the map's slack.
 */
#define TOP_MAX_PROCS	256

/* A set of analyses on the feed's session (begun at once: the session has). */
static struct fsl_analysis *analysis_new(struct top_feed *f, uint32_t sections, int *err)
{
	struct fsl_analysis_opts ao = { .sections = sections, .root_pid = -1, .context = f->cx,
					.max_procs = TOP_MAX_PROCS };
	struct fsl_analysis *a = fsl_analysis__new(&ao, err);

	if (!a)
		return NULL;
	*err = fsl_analysis__attach(a, f->session);
	if (*err) {
		fsl_analysis__free(a);
		return NULL;
	}
	return a;
}

struct top_feed *top_feed__new(const struct fsl_meta *meta, uint64_t start_ns, int totals,
			       int *err)
{
	struct top_feed *f = calloc(1, sizeof(*f));
	const char *s;
	uint64_t dev;

	if (!f) {
		*err = -ENOMEM;
		return NULL;
	}
	f->meta = meta;
	f->start_ns = f->cur_t0 = f->win_t0 = f->win_t1 = f->acc_t0 = start_ns;
	f->cx = fsl_context__new(-1, err);
	if (f->cx) {
		struct fsl_session_opts so = { .split = 1, .stage = fsl_context__stage(f->cx) };

		f->session = fsl_session__new(&so, err);
	}
	if (f->session && (*err = fsl_session__begin(f->session, meta)) < 0) {
		top_feed__free(f);
		return NULL;
	}
	f->win = f->session ? analysis_new(f, TOP_SECTIONS, err) : NULL;
	f->since = f->win ? analysis_new(f, FSL_SEC_JOURNAL | FSL_SEC_WRITEBACK, err) : NULL;
	if (f->since && totals)
		f->acc = analysis_new(f, TOP_SECTIONS, err);
	if (!f->since || (totals && !f->acc)) {
		top_feed__free(f);
		return NULL;
	}
	fsl_analysis__reset(f->win, start_ns, 0);
	s = fsl_meta_kv(meta, FSL_KV_MOUNT);
	snprintf(f->target, sizeof(f->target), "%s", s && *s ? s : "-");
	if (!fsl_meta__get_u64(meta, FSL_KV_DEV, &dev))
		fsl_dev_label(meta, (uint32_t)dev, f->dev, sizeof(f->dev));
	else
		snprintf(f->dev, sizeof(f->dev), "?");
	return f;
}

void top_feed__free(struct top_feed *f)
{
	if (!f)
		return;
	fsl_session__free(f->session);
	fsl_analysis__free(f->win);
	fsl_analysis__free(f->since);
	fsl_analysis__free(f->acc);
	fsl_context__free(f->cx);
	top_snap__clear(&f->win_snap);
	free(f);
}

int top_feed__event(struct top_feed *f, const struct fsl_hdr *ev)
{
	f->last_ts = ev->ts;
	return fsl_session__push(f->session, ev);
}

static double per_s(uint64_t v, double window_s)
{
	return window_s > 0 ? (double)v / window_s : 0.0;
}

static double ms_per_s(uint64_t ns, double window_s)
{
	return window_s > 0 ? (double)ns / 1e6 / window_s : 0.0;
}

static void fill_header(struct top_snap *s, struct fsl_analysis *a, struct fsl_analysis *since,
			double w)
{
	const struct fsl_ops *ops = fsl_analysis__ops(a);
	const struct fsl_blockio *bio = fsl_analysis__blockio(a);
	const struct fsl_journal *j = fsl_analysis__journal(a);
	const struct fsl_writeback *wb = fsl_analysis__writeback(since);
	struct top_header *h = &s->hdr;
	uint64_t rd = 0, wr = 0, ios = 0, seeks = 0;
	unsigned int i;

	if (ops) {
		h->ops_s = per_s(ops->total, w);
		h->creates_s = per_s(ops->op[FSL_OP_CREATE].count + ops->op[FSL_OP_MKDIR].count +
				     ops->op[FSL_OP_MKNOD].count + ops->op[FSL_OP_SYMLINK].count, w);
	}
	if (bio) {
		for (i = 0; i < bio->ndevs; i++) {
			ios += bio->devs[i].completed;
			rd += bio->devs[i].read_bytes;
			wr += bio->devs[i].write_bytes;
			seeks += bio->devs[i].seeks;
		}
		h->iops = per_s(ios, w);
		h->read_mbs = per_s(rd, w) / MB;
		h->write_mbs = per_s(wr, w) / MB;
		h->seeks_s = per_s(seeks, w);
	}
	if (j) {
		h->commits_s = per_s(j->commits, w);
		h->commit_avg_ms = j->commit_ns.count ? (double)j->commit_ns.sum /
							j->commit_ns.count / 1e6 : 0.0;
	}
	{
		/* where the workload's threads spent the window (docs/wait-classes.md) */
		const struct fsl_wholetime *wt = fsl_analysis__wholetime(a);

		if (wt && wt->wall_ns) {
			h->have_whole = 1;
			h->oncpu_pct = 100.0 * wt->oncpu_ns / wt->wall_ns;
			h->runq_pct = 100.0 * wt->runq_ns / wt->wall_ns;
			h->blocked_pct = 100.0 * wt->blocked_ns / wt->wall_ns;
		}
	}
	/* The dirty state is a level, not a rate: the latest value seen. */
	if (wb && wb->dirty_thresh) {
		h->have_dirty = 1;
		h->dirty_mb = wb->nr_dirty * PAGE_BYTES / MB;
		h->writeback_mb = wb->nr_writeback * PAGE_BYTES / MB;
	}
}

/* A cgroup path for the column: whole, or "..." and its tail (the leaf tells most). */
static void cg_tail(char out[TOP_CGROUP_LEN], const char *cg)
{
	size_t n = strlen(cg);

	if (n < TOP_CGROUP_LEN)
		memcpy(out, cg, n + 1);
	else
		snprintf(out, TOP_CGROUP_LEN, "...%s", cg + n - (TOP_CGROUP_LEN - 4));
}

static int fill_procs(struct top_feed *f, struct top_snap *s, struct fsl_analysis *a, double w)
{
	const struct fsl_proc_stat *p;
	unsigned int n = fsl_analysis__procs(a, &p), i, c;

	s->procs = calloc(n ? n : 1, sizeof(*s->procs));
	if (!s->procs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct top_proc *o = &s->procs[s->nprocs];

		/* Shown are the tasks that did or waited on filesystem work. */
		if (!p[i].ops && !p[i].blocked_ns && !p[i].read_bytes && !p[i].write_bytes &&
		    !p[i].data_reads && !p[i].data_writes)
			continue;
		o->pid = p[i].pid;
		snprintf(o->comm, sizeof(o->comm), "%.15s", p[i].comm);
		o->ops_s = per_s(p[i].ops, w);
		o->avg_ms = p[i].ops ? (double)p[i].op_lat_ns / p[i].ops / 1e6 : 0.0;
		o->p99_ms = fsl_hist_quantile(&p[i].op_lat, 0.99) / 1e6;
		for (c = 0; c < FSL_WC__MAX; c++)
			if (wclass_group[c] < TOP_WG__MAX)
				o->blocked_ms_s[wclass_group[c]] += ms_per_s(p[i].ns[c], w);
		for (c = 0; c < FSL_WC__MAX; c++) {
			struct top_proc_stack *ps = &o->class_stack[c];
			const struct fsl_stack *stk;
			uint64_t ns;
			int32_t id;

			o->class_ms_s[c] = ms_per_s(p[i].ns[c], w);
			ps->rule_frame = -1;
			if (!p[i].ns[c] || !f->meta->stack)
				continue;
			id = fsl_analysis__proc_stack(a, p[i].pid, c, &ns);
			if (id < 0 || !(stk = f->meta->stack(f->meta, id)))
				continue;
			ps->frames = (const char *const *)stk->frames;
			ps->nframes = stk->nframes;
			ps->ms = ns / 1e6;
			fsl_wclass_of_frames(ps->frames, ps->nframes, &ps->rule_frame);
		}
		o->blocked_total_ms_s = ms_per_s(p[i].blocked_ns, w);
		o->read_mbs = per_s(p[i].read_bytes, w) / MB;
		o->write_mbs = per_s(p[i].write_bytes, w) / MB;
		o->data_read_mbs = per_s(p[i].data_read_bytes, w) / MB;
		o->data_write_mbs = per_s(p[i].data_write_bytes, w) / MB;
		cg_tail(o->cgroup, p[i].cgroup);
		s->nprocs++;
	}
	return 0;
}

static int fill_stalls(struct top_feed *f, struct top_snap *s, struct fsl_analysis *a, double w,
		       int with_hist)
{
	const struct fsl_stalls *st = fsl_analysis__stalls(a);
	unsigned int c, i;
	double hist_max = 0;
	uint64_t total;

	if (!st)
		return 0;
	s->stalls = calloc(FSL_WC__MAX, sizeof(*s->stalls));
	if (!s->stalls)
		return -ENOMEM;
	total = st->ns[FSL_ROLE_WORKLOAD];
	for (c = 0; c < FSL_WC__MAX; c++) {
		const struct fsl_class_stat *cs = &st->cls[c];
		struct top_stall *o = &s->stalls[s->nstalls];
		const struct fsl_stack *stk;

		/* A class no task waited in is not a row, unless it did recently. */
		for (i = 0; with_hist && i < f->nhist && !f->hist[c][i]; i++)
			;
		if (!cs->count[FSL_ROLE_WORKLOAD] && !cs->ns[FSL_ROLE_WORKLOAD] &&
		    !(with_hist && i < f->nhist))
			continue;
		snprintf(o->cls, sizeof(o->cls), "%s", fsl_wclass_id(c));
		o->ms_s = ms_per_s(cs->ns[FSL_ROLE_WORKLOAD], w);
		o->share_pct = total ? 100.0 * cs->ns[FSL_ROLE_WORKLOAD] / total : 0.0;
		o->waits = (uint32_t)cs->count[FSL_ROLE_WORKLOAD];
		if (with_hist) {
			for (i = 0; i < f->nhist; i++)
				o->hist[i] = f->hist[c][i];
			o->nhist = f->nhist;
		}
		o->rule_frame = -1;
		if (cs->top_stack[0] >= 0 && f->meta->stack &&
		    (stk = f->meta->stack(f->meta, cs->top_stack[0]))) {
			o->frames = (const char *const *)stk->frames;
			o->nframes = stk->nframes;
			o->top_stack_ms = cs->top_stack_ns[0] / 1e6;
			fsl_wclass_of_frames(o->frames, o->nframes, &o->rule_frame);
		}
		for (i = 0; i < o->nhist; i++)
			if (o->hist[i] > hist_max)
				hist_max = o->hist[i];
		s->nstalls++;
	}
	for (i = 0; i < s->nstalls; i++)
		s->stalls[i].hist_max = hist_max;
	return 0;
}

static int fill_txns(struct top_snap *s, struct fsl_analysis *since)
{
	const struct fsl_journal *j = fsl_analysis__journal(since);
	unsigned int i;

	if (!j || !j->ntxns)
		return 0;
	s->txns = calloc(j->ntxns, sizeof(*s->txns));
	if (!s->txns)
		return -ENOMEM;
	for (i = 0; i < j->ntxns; i++) {
		const struct fsl_txn *t = &j->txns[i];
		struct top_txn *o = &s->txns[i];

		o->tid = t->tid;
		snprintf(o->trigger, sizeof(o->trigger), "%s", fsl_trigger_name(t->trigger));
		o->handles = t->handles;
		o->blocks = t->blocks;
		o->blocks_logged = t->blocks_logged;
		o->running_ms = t->running_ns / 1e6;
		o->locked_ms = t->locked_ns / 1e6;
		o->flushing_ms = t->flushing_ns / 1e6;
		o->logging_ms = t->logging_ns / 1e6;
		o->commit_ms = t->t_end > t->t_start && t->t_start ? (t->t_end - t->t_start) / 1e6
								   : 0.0;
	}
	s->ntxns = j->ntxns;
	return 0;
}

/* Log2 seek-distance rows folded three at a time into the view's buckets. */
static void seek_buckets(const struct fsl_dev_io *d, uint64_t out[TOP_SEEK_BUCKETS])
{
	uint64_t l2[64];
	unsigned int i, b;

	fsl_hist_log2(&d->seek_dist, l2);
	memset(out, 0, TOP_SEEK_BUCKETS * sizeof(out[0]));
	out[0] = d->seq;
	for (i = 0; i < 64; i++) {
		b = 1 + i / 3;
		if (b >= TOP_SEEK_BUCKETS)
			b = TOP_SEEK_BUCKETS - 1;
		out[b] += l2[i];
	}
}

static int fill_devs(const struct fsl_meta *meta, struct top_snap *s, struct fsl_analysis *a,
		     double w)
{
	const struct fsl_blockio *bio = fsl_analysis__blockio(a);
	unsigned int i;

	if (!bio || !bio->ndevs)
		return 0;
	s->devs = calloc(bio->ndevs, sizeof(*s->devs));
	if (!s->devs)
		return -ENOMEM;
	for (i = 0; i < bio->ndevs; i++) {
		const struct fsl_dev_io *d = &bio->devs[i];
		struct top_dev *o = &s->devs[i];

		o->dev = d->dev;
		fsl_dev_label(meta, d->dev, o->name, sizeof(o->name));
		o->iops = per_s(d->completed, w);
		o->read_mbs = per_s(d->read_bytes, w) / MB;
		o->write_mbs = per_s(d->write_bytes, w) / MB;
		o->q2c_avg_ms = fsl_hist_avg(&d->q2c) / 1e6;
		o->d2c_avg_ms = fsl_hist_avg(&d->d2c) / 1e6;
		o->seeks_s = per_s(d->seeks, w);
		seek_buckets(d, o->seek_hist);
	}
	s->ndevs = bio->ndevs;
	return 0;
}

static int fill_dirs(struct top_snap *s, struct fsl_analysis *a, double w)
{
	const struct fsl_ops *ops = fsl_analysis__ops(a);
	unsigned int i;

	if (!ops || !ops->ndirs)
		return 0;
	s->dirs = calloc(ops->ndirs, sizeof(*s->dirs));
	if (!s->dirs)
		return -ENOMEM;
	for (i = 0; i < ops->ndirs; i++) {
		const struct fsl_dir_stat *d = &ops->dirs[i];
		struct top_dir *o = &s->dirs[i];

		snprintf(o->path, sizeof(o->path), "%s", d->path);
		o->ops = d->ops;
		o->ops_s = per_s(d->ops, w);
		o->call_ms_s = ms_per_s(d->lat_ns, w);
		o->lookup_wait_ms_s = ms_per_s(d->lookup_wait_ns, w);
	}
	s->ndirs = ops->ndirs;
	return 0;
}

static int fill_files(struct top_snap *s, struct fsl_analysis *a, double w)
{
	const struct fsl_data *d = fsl_analysis__data(a);
	unsigned int i;

	if (!d || !d->nfiles)
		return 0;
	s->files = calloc(d->nfiles, sizeof(*s->files));
	if (!s->files)
		return -ENOMEM;
	for (i = 0; i < d->nfiles; i++) {
		const struct fsl_data_top *t = &d->files[i];
		struct top_file *o = &s->files[i];

		snprintf(o->name, sizeof(o->name), "%.31s", t->name);
		o->ino = t->ino;
		o->ino32 = (uint32_t)t->ino;
		o->read_mbs = per_s(t->read_bytes, w) / MB;
		o->write_mbs = per_s(t->write_bytes, w) / MB;
		o->reads_s = per_s(t->reads, w);
		o->writes_s = per_s(t->writes, w);
		o->call_ms_s = ms_per_s(t->lat_ns, w);
	}
	s->nfiles = d->nfiles;
	return 0;
}

static int build(struct top_feed *f, struct fsl_analysis *a, uint64_t t0, uint64_t t1,
		 int with_hist, struct top_snap *s)
{
	double w = t1 > t0 ? (t1 - t0) / 1e9 : 0.0;
	int rc;

	top_snap__clear(s);
	snprintf(s->hdr.target, sizeof(s->hdr.target), "%s", f->target);
	snprintf(s->hdr.dev, sizeof(s->hdr.dev), "%s", f->dev);
	s->hdr.elapsed_s = (t1 - f->start_ns) / 1e9;
	s->hdr.window_s = w;
	fill_header(s, a, f->since, w);
	rc = fill_procs(f, s, a, w);
	if (!rc)
		rc = fill_stalls(f, s, a, w, with_hist);
	if (!rc)
		rc = fill_txns(s, f->since);
	if (!rc)
		rc = fill_devs(f->meta, s, a, w);
	if (!rc)
		rc = fill_dirs(s, a, w);
	if (!rc)
		rc = fill_files(s, a, w);
	return rc;
}

void top_feed__horizon(struct top_feed *f, uint64_t t)
{
	fsl_session__horizon(f->session, t);
}

int top_feed__cut(struct top_feed *f, uint64_t t)
{
	const struct fsl_stalls *st;
	double w;
	unsigned int c;
	int rc;

	if (t < f->cur_t0)
		t = f->cur_t0;
	w = (t - f->cur_t0) / 1e9;
	/* Waits in flight give the closing window their part up to t. */
	rc = fsl_session__cut(f->session, t);
	if (rc < 0)
		return rc;
	/* History first: the snapshot of this window shows it as the newest point. */
	st = fsl_analysis__stalls(f->win);
	if (st) {
		if (f->nhist == TOP_HIST) {
			for (c = 0; c < FSL_WC__MAX; c++)
				memmove(f->hist[c], f->hist[c] + 1, (TOP_HIST - 1) * sizeof(double));
			f->nhist--;
		}
		for (c = 0; c < FSL_WC__MAX; c++)
			f->hist[c][f->nhist] = ms_per_s(st->cls[c].ns[FSL_ROLE_WORKLOAD], w);
		f->nhist++;
	}
	rc = build(f, f->win, f->cur_t0, t, 1, &f->win_snap);
	f->win_t0 = f->cur_t0;
	f->win_t1 = t;
	f->have_window = 1;
	fsl_analysis__reset(f->win, t, 0);
	f->cur_t0 = t;
	return rc;
}

static int copy_rows(void **dst, const void *src, size_t n, size_t size)
{
	*dst = NULL;
	if (!n)
		return 0;
	*dst = malloc(n * size);
	if (!*dst)
		return -ENOMEM;
	memcpy(*dst, src, n * size);
	return 0;
}

int top_feed__snapshot(struct top_feed *f, int accumulated, struct top_snap *out)
{
	const struct top_snap *w = &f->win_snap;
	int rc = 0;

	if (accumulated) {
		uint64_t t1;

		/* First asked for now: totals from here on (everything, with -a). */
		if (!f->acc) {
			int err = 0;

			f->acc = analysis_new(f, TOP_SECTIONS, &err);
			if (!f->acc)
				return err;
			f->acc_t0 = f->last_ts > f->win_t1 ? f->last_ts : f->win_t1;
			fsl_analysis__reset(f->acc, f->acc_t0, 0);
		}
		t1 = f->win_t1 > f->acc_t0 ? f->win_t1 : f->acc_t0;
		rc = build(f, f->acc, f->acc_t0, t1, 1, out);
		out->hdr.elapsed_s = (t1 - f->start_ns) / 1e9;
		out->hdr.accumulated = 1;
		out->hdr.totals_from_s = (f->acc_t0 - f->start_ns) / 1e9;
		return rc;
	}
	top_snap__clear(out);
	out->hdr = w->hdr;
	if (!f->have_window) {
		snprintf(out->hdr.target, sizeof(out->hdr.target), "%s", f->target);
		snprintf(out->hdr.dev, sizeof(out->hdr.dev), "%s", f->dev);
	}
	rc |= copy_rows((void **)&out->procs, w->procs, w->nprocs, sizeof(*w->procs));
	out->nprocs = w->nprocs;
	rc |= copy_rows((void **)&out->stalls, w->stalls, w->nstalls, sizeof(*w->stalls));
	out->nstalls = w->nstalls;
	rc |= copy_rows((void **)&out->txns, w->txns, w->ntxns, sizeof(*w->txns));
	out->ntxns = w->ntxns;
	rc |= copy_rows((void **)&out->devs, w->devs, w->ndevs, sizeof(*w->devs));
	out->ndevs = w->ndevs;
	rc |= copy_rows((void **)&out->dirs, w->dirs, w->ndirs, sizeof(*w->dirs));
	out->ndirs = w->ndirs;
	rc |= copy_rows((void **)&out->files, w->files, w->nfiles, sizeof(*w->files));
	out->nfiles = w->nfiles;
	return rc ? -ENOMEM : 0;
}
