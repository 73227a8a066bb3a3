// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback: pages written per reason (periodic, background, sync, ...),
 * per inode, dirty-limit throttling per process, dirty and writeback
 * amounts over time; and the filesystem's data written by who caused it
 * (every ext4 writeback call by its stack or its flusher work's reason,
 * direct-I/O writes apart), beside the device's own account of the data
 * it was sent (write completions on the target, by what the blocks hold),
 * which the causes must add up to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

#define AN_MAX_WB_INODES	65536

struct an_wb_work {		/* writeback_start, per flusher thread */
	int64_t nr_pages;
	int reason;
};

#define AN_MAX_WB_STACKS	65536

struct an_writeback {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map works;		/* tid -> an_wb_work */
	struct fsl_map inodes;		/* ino -> fsl_wb_inode (window) */
	struct fsl_map throttled;	/* pid -> fsl_wb_throttle (window) */
	uint64_t inodes_dropped;
	struct fsl_map stack_cause;	/* stack id -> uint8_t enum fsl_wbcause (or __MAX) */
	struct fsl_writeback res;
};

/* enum wb_reason as of Linux 5.x-6.x (include/linux/backing-dev-defs.h). */
const char *fsl_wb_reason_name(int reason)
{
	static const char *const n[] = {
		"background", "vmscan", "sync", "periodic", "laptop_timer",
		"fs_free_space", "forker_thread", "foreign_flush",
	};

	if (reason >= 0 && reason < (int)(sizeof(n) / sizeof(n[0])))
		return n[reason];
	return "unknown";
}

static unsigned int reason_idx(int reason)
{
	return reason >= 0 && reason < FSL_WB_REASONS - 1 ? reason : FSL_WB_REASONS - 1;
}

/* The bin of t, the series folded first if t is past the last one. */
static unsigned int series_bin(struct an_writeback *s, uint64_t t)
{
	unsigned int folds, bin = an_tb_bin(&s->res.tb, s->c->origin, t, &folds);

	if (folds) {
		an_fold_max(s->res.series_dirty, folds);
		an_fold_max(s->res.series_writeback, folds);
		an_fold_sum(s->res.series_written, folds);
		an_fold_sum(s->res.series_throttle_ns, folds);
	}
	return bin;
}

static void series_add(struct an_writeback *s, uint64_t t, uint64_t *series, uint64_t v, int max)
{
	unsigned int bin = series_bin(s, t);

	if (max)
		series[bin] = v > series[bin] ? v : series[bin];
	else
		series[bin] += v;
}

static int on_work(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_writeback *s = cons->priv;
	const struct fsl_ev_writeback_work *ev = (const void *)h;
	struct an_wb_work *w;
	unsigned int r;
	uint64_t pages = 0;

	if (h->type == FSL_EV_WRITEBACK_START) {
		w = fsl_map__put(&s->works, h->tid, NULL);
		if (!w)
			return -ENOMEM;
		w->nr_pages = ev->nr_pages;
		w->reason = ev->reason;
		return 0;
	}
	w = fsl_map__get(&s->works, h->tid);
	if (w && w->nr_pages >= ev->nr_pages)
		pages = w->nr_pages - ev->nr_pages;
	if (w)
		fsl_map__del(&s->works, h->tid);
	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	r = reason_idx(ev->reason);
	s->res.works[r]++;
	s->res.pages[r] += pages;
	series_add(s, h->ts, s->res.series_written, pages, 0);
	return 0;
}

/* The cause a stack names (FSL_WBC__MAX: the flusher), cached per stack id. */
static unsigned int stack_cause(struct an_writeback *s, int32_t id)
{
	const struct fsl_meta *m = s->c->meta;
	const struct fsl_stack *st;
	uint8_t *v;
	unsigned int cause;
	int fresh;

	if (id < 0)
		return FSL_WBC_OTHER;
	v = fsl_map__get(&s->stack_cause, (uint32_t)id);
	if (v)
		return *v;
	st = m && m->stack ? m->stack(m, id) : NULL;
	cause = st ? fsl_wbcause_of_frames((const char *const *)st->frames, st->nframes, NULL)
		   : FSL_WBC_OTHER;
	if (s->stack_cause.n < AN_MAX_WB_STACKS && (v = fsl_map__put(&s->stack_cause,
								      (uint32_t)id, &fresh)))
		*v = cause;
	return cause;
}

static void cause_add(struct an_writeback *s, unsigned int cause, uint64_t bytes,
		      uint64_t pages)
{
	s->res.cause_bytes[cause] += bytes;
	s->res.cause_pages[cause] += pages;
	s->res.cause_calls[cause]++;
	s->res.data_bytes += bytes;
}

/*
 * One ext4 writeback call: its stack names who asked. The flusher's calls
 * (and, without a stack, any call inside a flusher's work) take the reason
 * of the work it was doing; a flusher work that began before the trace
 * did has no known reason.
 */
static int on_writepages_result(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_writeback *s = cons->priv;
	const struct fsl_ev_ext4_writepages_result *ev = (const void *)h;
	struct an_wb_work *w;
	unsigned int cause;

	int64_t pages;
	uint64_t bytes;

	if (h->size < sizeof(*ev) || !an_in_window(&s->c->win, h->ts))
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	/*
	 * What the call wrote: the bytes of its bios when its start was
	 * recorded; else ext4's page count less the pages it put back dirty,
	 * which still counts a large folio whole for a few dirty blocks.
	 */
	pages = (int64_t)ev->pages_written - (ev->pages_skipped > 0 ? ev->pages_skipped : 0);
	if (pages < 0)
		pages = 0;
	bytes = ev->flags & FSL_WP_COUNTED ? ev->bytes : (uint64_t)pages * s->res.page_size;
	if (!bytes)
		return 0;
	cause = ev->flags & FSL_WP_FSYNC_CALL ? FSL_WBC_FSYNC : stack_cause(s, ev->stack_id);
	w = fsl_map__get(&s->works, h->tid);
	if (!(ev->flags & FSL_WP_FSYNC_CALL) && (cause == FSL_WBC__MAX || (ev->stack_id < 0 && w)))
		cause = w ? fsl_wbcause_of_reason(w->reason) : FSL_WBC_FLUSHER_OTHER;
	cause_add(s, cause, bytes, pages);
	return 0;
}

static int on_dio_write(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_writeback *s = cons->priv;
	const struct fsl_ev_dio_write *ev = (const void *)h;

	if (h->size < sizeof(*ev) || ev->ret <= 0 || !an_in_window(&s->c->win, h->ts))
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	cause_add(s, FSL_WBC_DIRECT, ev->ret, 0);
	return 0;
}

/*
 * A write request completed on the target's device: its blocks by what
 * they hold (the context stage's block classes). A request marked REQ_META
 * is metadata wherever it lands (ext4 and jbd2 mark their buffers, the
 * checkpoint's and the block device's writeback of them alike); the rest
 * is data unless its block is the journal's or metadata by its class.
 */
static int on_complete(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_writeback *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	const struct fsl_blockclass *bc = fsl_context__blocks(s->c->cx);
	uint64_t spb, b, b0, b1;
	unsigned int cls;

	if (h->size < sizeof(*ev) || !fsl_blockclass__ready(bc) || ev->dev != s->c->target_dev ||
	    !ev->nr_sector || ev->error || !(ev->flags & FSL_RQ_WRITE) ||
	    !an_in_window(&s->c->win, h->ts))
		return 0;
	spb = fsl_blockclass__block_size(bc) / 512;
	if (!spb)
		return 0;
	s->res.have_device = 1;
	b0 = ev->sector / spb;
	b1 = (ev->sector + ev->nr_sector + spb - 1) / spb;
	for (b = b0; b < b1; b++) {
		/* the part of the request inside this block */
		uint64_t lo = b * spb > ev->sector ? b * spb : ev->sector;
		uint64_t hi = (b + 1) * spb < ev->sector + ev->nr_sector ? (b + 1) * spb
									  : ev->sector + ev->nr_sector;
		uint64_t bytes = (hi - lo) * 512;

		cls = fsl_blockclass__class(bc, b);
		if (cls == FSL_BC_JOURNAL)
			s->res.dev_journal_bytes += bytes;
		else if (cls != FSL_BC_OTHER && cls != FSL_BC_DATA)
			s->res.dev_meta_bytes += bytes;
		else if (ev->flags & FSL_RQ_META)
			s->res.dev_meta_bytes += bytes;
		else
			s->res.dev_data_bytes += bytes;
	}
	return 0;
}

static int wb_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct an_writeback *s = cons->priv;
	uint64_t ps = m ? fsl_meta__u64(m, FSL_KV_PAGE_SIZE, 4096) : 4096;

	s->res.page_size = ps >= 512 && ps <= (1u << 20) ? ps : 4096;
	return 0;
}

static int on_single_inode(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_writeback *s = cons->priv;
	const struct fsl_ev_writeback_single_inode *ev = (const void *)h;
	struct fsl_wb_inode *in;

	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.inode_passes++;
	s->res.inode_pages += ev->wrote;
	in = fsl_map__get(&s->inodes, ev->ino);
	if (!in && s->inodes.n < AN_MAX_WB_INODES) {
		in = fsl_map__put(&s->inodes, ev->ino, NULL);
		if (!in)
			return -ENOMEM;
		in->ino = ev->ino;
	}
	if (!in) {
		s->inodes_dropped++;
		return 0;
	}
	in->pages += ev->wrote;
	in->passes++;
	return 0;
}

/*
 * A dirty-limit pause [ts, ts + pause ms], or its piece up to a cut (x): its
 * time in the window counts wherever it falls, the pause itself only in the
 * window where it ends.
 */
static int add_pause(struct an_writeback *s, const struct fsl_hdr *h, const struct fsl_evctx *x)
{
	const struct fsl_ev_balance_dirty_pages *ev = (const void *)h;
	uint64_t ns;
	int counted = !(x->flags & FSL_EVCTX_PARTIAL) && an_in_window(&s->c->win, x->end);
	struct fsl_wb_throttle *t;
	struct fsl_proc_stat *ps;
	int fresh;

	if (h->size < sizeof(*ev) || ev->pause <= 0)
		return 0;
	ns = an_overlap(&s->c->win, x->from, x->to);
	if (!ns && !counted)
		return 0;
	s->res.throttle_pauses += counted;
	s->res.throttle_ns += ns;
	t = fsl_map__put(&s->throttled, h->pid, &fresh);
	if (!t)
		return -ENOMEM;
	if (fresh)
		t->pid = h->pid;
	t->pauses += counted;
	t->pause_ns += ns;
	ps = fsl_ctx_procs__get(&s->c->procs, h->pid);
	if (ps)
		ps->throttle_ns += ns;
	if (ns) {
		/* the pause's part in the window, over the bins it spans */
		uint64_t from = x->from > s->c->win.t0 ? x->from : s->c->win.t0;

		series_bin(s, from + ns - 1);
		an_tb_spread(&s->res.tb, s->res.series_throttle_ns, from, from + ns);
	}
	return 0;
}

static int on_balance(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	return add_pause(cons->priv, h, cons->ctx);
}

static int on_partial(struct fsl_consumer *cons, const struct fsl_hdr *h,
		      const struct fsl_evctx *x)
{
	return h->type == FSL_EV_BALANCE_DIRTY_PAGES ? add_pause(cons->priv, h, x) : 0;
}

static int on_dirty_state(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_writeback *s = cons->priv;
	const struct fsl_ev_global_dirty_state *ev = (const void *)h;

	/* a level as of the window's end: later states are not the window's */
	if (s->c->win.t1 && h->ts >= s->c->win.t1)
		return 0;
	s->res.nr_dirty = ev->nr_dirty;
	s->res.nr_writeback = ev->nr_writeback;
	s->res.dirty_thresh = ev->dirty_thresh;
	s->res.bg_thresh = ev->background_thresh;
	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	series_add(s, h->ts, s->res.series_dirty, ev->nr_dirty, 1);
	series_add(s, h->ts, s->res.series_writeback, ev->nr_writeback, 1);
	return 0;
}

struct an_writeback *an_writeback_new(struct an_ctx *c)
{
	struct an_writeback *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->works, sizeof(struct an_wb_work));
	fsl_map__init(&s->inodes, sizeof(struct fsl_wb_inode));
	fsl_map__init(&s->throttled, sizeof(struct fsl_wb_throttle));
	fsl_map__init(&s->stack_cause, sizeof(uint8_t));
	s->res.page_size = 4096;
	s->cons.name = "writeback";
	s->cons.priv = s;
	s->cons.begin = wb_begin;
	s->cons.handlers[FSL_EV_EXT4_WRITEPAGES_RESULT] = on_writepages_result;
	s->cons.handlers[FSL_EV_DIO_WRITE] = on_dio_write;
	s->cons.handlers[FSL_EV_BLOCK_RQ_COMPLETE] = on_complete;
	s->cons.handlers[FSL_EV_WRITEBACK_START] = on_work;
	s->cons.handlers[FSL_EV_WRITEBACK_WRITTEN] = on_work;
	s->cons.handlers[FSL_EV_WRITEBACK_SINGLE_INODE] = on_single_inode;
	s->cons.handlers[FSL_EV_BALANCE_DIRTY_PAGES] = on_balance;
	s->cons.handlers[FSL_EV_GLOBAL_DIRTY_STATE] = on_dirty_state;
	s->cons.partial = on_partial;
	return s;
}

void an_writeback_free(struct an_writeback *s)
{
	if (!s)
		return;
	fsl_map__free(&s->works);
	fsl_map__free(&s->inodes);
	fsl_map__free(&s->throttled);
	fsl_map__free(&s->stack_cause);
	free(s);
}

void an_writeback_reset(struct an_writeback *s)
{
	uint64_t d = s->res.nr_dirty, w = s->res.nr_writeback;
	uint64_t dt = s->res.dirty_thresh, bt = s->res.bg_thresh;
	uint32_t ps = s->res.page_size;

	memset(&s->res, 0, sizeof(s->res));
	s->res.page_size = ps;
	/* The global state is a level, not a count: it carries over. */
	s->res.nr_dirty = d;
	s->res.nr_writeback = w;
	s->res.dirty_thresh = dt;
	s->res.bg_thresh = bt;
	fsl_map__clear(&s->inodes);
	fsl_map__clear(&s->throttled);
	s->inodes_dropped = 0;
}

struct fsl_consumer *an_writeback_consumer(struct an_writeback *s)
{
	return &s->cons;
}

const struct fsl_writeback *an_writeback_result(struct an_writeback *s)
{
	struct fsl_wb_inode *in;
	struct fsl_wb_throttle *t;
	size_t it = 0;
	unsigned int i, n = 0;

	while ((in = fsl_map__next(&s->inodes, &it, NULL))) {
		for (i = 0; i < n && (s->res.inodes[i].pages > in->pages ||
				      (s->res.inodes[i].pages == in->pages &&
				       s->res.inodes[i].ino < in->ino)); i++)
			;
		if (i >= FSL_TOP_INODES)
			continue;
		if (n < FSL_TOP_INODES)
			n++;
		memmove(&s->res.inodes[i + 1], &s->res.inodes[i], (n - 1 - i) * sizeof(*in));
		s->res.inodes[i] = *in;
	}
	s->res.ninodes = n;
	it = 0;
	n = 0;
	while ((t = fsl_map__next(&s->throttled, &it, NULL))) {
		if (!t->comm[0])
			an_comm_copy(t->comm, fsl_context__comm(s->c->cx, t->pid));
		for (i = 0; i < n && (s->res.throttled[i].pause_ns > t->pause_ns ||
				      (s->res.throttled[i].pause_ns == t->pause_ns &&
				       s->res.throttled[i].pid < t->pid)); i++)
			;
		if (i >= FSL_TOP_PROCS)
			continue;
		if (n < FSL_TOP_PROCS)
			n++;
		memmove(&s->res.throttled[i + 1], &s->res.throttled[i], (n - 1 - i) * sizeof(*t));
		s->res.throttled[i] = *t;
	}
	s->res.nthrottled = n;
	return &s->res;
}
