// SPDX-License-Identifier: GPL-2.0
/*
 * Block I/O, btt style: per device (and per issuing task, journal thread and
 * flushers included) IOPS, bytes, request sizes, Q2D / D2C / Q2C, metadata
 * vs data, merges, and seeks between consecutive dispatches.
 *
 * The definitions are btt's, so that btt on `fslens export --format blktrace`
 * output gives the same figures:
 *  - Q2D / D2C / Q2C are over requests with data. Zero-byte requests (cache
 *    flushes from fsync and journal commits) get their own latencies.
 *  - Seeks (btt's D2D) are between consecutive dispatches with data, the
 *    first measured from sector 0. A dispatch whose range overlaps or
 *    touches the previous one is distance 0 (no seek); otherwise forward
 *    distances run from the previous end, backward ones from the previous
 *    start. Mean and mode are over every dispatch, zeros included.
 *    Reads and the rest apart too (btt -s's _r and _w files), each distance
 *    still from the previous dispatch of either direction.
 *  - A request that went through the flush machinery (preflush / FUA) is
 *    traced completing twice, the second time with 0 bytes: it counts once
 *    in `completed`, the extra completion in double_completions.
 *
 * Q is the insert into the I/O scheduler; a request dispatched without an
 * insert (no scheduler, direct issue) has Q = D. An I/O counts in a window
 * at its completion; seeks and scatter points at dispatch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

#define AN_MAX_DISTS	4096	/* distinct seek distances counted exactly (mode) */
#define AN_MAX_ISSUERS	64
#define AN_MAX_DONE	65536	/* completed requests remembered (double completions) */

struct an_rq {
	uint64_t q_ts, d_ts;
	uint8_t issued;		/* d_ts valid (0 is a time in imports) */
	uint32_t pid;
	uint32_t bytes;
	char comm[16];
};

struct an_dev_state {		/* persistent per device */
	uint32_t dev;
	uint64_t last_start;	/* previous dispatch with data (0, 0 before any) */
	uint64_t last_end;	/* sector after it */
	struct fsl_map dists;	/* distance -> count (window) */
	struct fsl_map issuers;	/* hash(comm) -> fsl_io_issuer (window) */
};

struct an_blockio {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map rqs;	/* rq -> an_rq (in flight) */
	struct fsl_map done;	/* rq, (dev, sector) -> completed with data, not issued again */
	int by_sector;		/* made-up request identities (blktrace import) */
	int have_geom;		/* an ext4 target with its geometry: writes get classes */
	struct fsl_ext4_geometry g;
	struct an_dev_state st[FSL_MAX_DEVS];
	struct fsl_blockio res;
};

static uint64_t rq_key(const struct fsl_ev_block_rq *ev)
{
	return ev->rq ? ev->rq : ((uint64_t)ev->dev << 44) ^ ev->sector;
}

/*
 * A request completed with data, remembered by its identity and, in traces
 * imported from blktrace (which has no request identity: the importer makes
 * one up per request, and a new one for the second completion), by its
 * (device, start sector), which the second completion carries too.
 */
static uint64_t sec_key(const struct fsl_ev_block_rq *ev)
{
	return (((uint64_t)ev->dev << 40) ^ ev->sector) | (1ull << 63);
}

static void done_remember(struct an_blockio *s, const struct fsl_ev_block_rq *ev)
{
	if (s->done.n >= AN_MAX_DONE)
		fsl_map__clear(&s->done);
	fsl_map__put(&s->done, rq_key(ev), NULL);
	if (s->by_sector)
		fsl_map__put(&s->done, sec_key(ev), NULL);
}

static int done_seen(const struct an_blockio *s, const struct fsl_ev_block_rq *ev)
{
	return fsl_map__get(&s->done, rq_key(ev)) ||
	       (s->by_sector && fsl_map__get(&s->done, sec_key(ev)));
}

static void done_forget(struct an_blockio *s, const struct fsl_ev_block_rq *ev)
{
	fsl_map__del(&s->done, rq_key(ev));
	if (s->by_sector)
		fsl_map__del(&s->done, sec_key(ev));
}

/* comm is 16 bytes, NUL-terminated only when shorter */
static uint64_t comm_hash(const char *s)
{
	return fsl_hash_bytes(s, strnlen(s, 16));
}

/* Device slot; the target device always gets slot 0. */
static int dev_slot(struct an_blockio *s, uint32_t dev)
{
	unsigned int i;

	for (i = 0; i < s->res.ndevs; i++)
		if (s->res.devs[i].dev == dev)
			return i;
	if (s->res.ndevs >= FSL_MAX_DEVS)
		return -1;
	i = s->res.ndevs++;
	s->res.devs[i].dev = dev;
	s->res.devs[i].point_stride = 1;
	/* persistent state follows the slot */
	if (s->st[i].dev != dev) {
		s->st[i].dev = dev;
		s->st[i].last_start = 0;
		s->st[i].last_end = 0;
		fsl_map__clear(&s->st[i].dists);
		fsl_map__clear(&s->st[i].issuers);
	}
	return i;
}

static void dev_fold(struct fsl_dev_io *d, unsigned int folds)
{
	if (!folds)
		return;
	an_fold_sum(d->series_ios, folds);
	an_fold_sum(d->series_bytes, folds);
	an_fold_sum(d->series_seeks, folds);
}

static void add_point(struct fsl_dev_io *d, uint64_t ts, const struct fsl_ev_block_rq *ev)
{
	unsigned int i;

	if (d->d2d % d->point_stride)
		return;
	if (d->npoints == FSL_SCATTER_MAX) {
		/* Keep every other point and halve the sampling from now on. */
		for (i = 0; i < FSL_SCATTER_MAX / 2; i++)
			d->points[i] = d->points[2 * i];
		d->npoints = FSL_SCATTER_MAX / 2;
		d->point_stride *= 2;
		if (d->d2d % d->point_stride)
			return;
	}
	d->points[d->npoints].ts = ts;
	d->points[d->npoints].sector = ev->sector;
	d->points[d->npoints].nr_sector = ev->nr_sector;
	d->points[d->npoints].flags = ev->flags;
	d->npoints++;
}

static int on_insert(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	struct an_rq *r = fsl_map__put(&s->rqs, rq_key(ev), NULL);

	if (!r)
		return -ENOMEM;
	done_forget(s, ev);
	r->q_ts = h->ts;
	r->issued = 0;
	r->pid = h->pid;
	r->bytes = ev->bytes ? ev->bytes : ev->nr_sector * 512;
	an_comm_copy(r->comm, fsl_context__comm(s->c->cx, h->pid));
	return 0;
}

/*
 * btt's D2D distance of a dispatch [start, end) from the previous one, which
 * it replaces: 0 when either end of the new range lies within the previous
 * range (ends included), forward from the previous end, else backward from
 * the previous start (negative).
 */
static int64_t btt_dist(struct an_dev_state *st, uint64_t start, uint64_t end)
{
	int64_t dist;

	if ((st->last_start <= start && start <= st->last_end) ||
	    (st->last_start <= end && end <= st->last_end))
		dist = 0;
	else if (start > st->last_end)
		dist = (int64_t)(start - st->last_end);
	else
		dist = -(int64_t)(st->last_start - start);
	st->last_start = start;
	st->last_end = end;
	return dist;
}

/* The target's blocks a write dispatch covers, by what they hold. */
static void class_blocks(struct an_blockio *s, struct fsl_dev_io *d, const struct fsl_ev_block_rq *ev)
{
	uint64_t spb = s->g.block_size / 512;
	uint64_t b0 = ev->sector / spb, b1 = (ev->sector + ev->nr_sector + spb - 1) / spb;

	for (; b0 < b1; b0++)
		d->wr_class[fsl_blockclass__class(fsl_context__blocks(s->c->cx), b0)]++;
}

static int on_issue(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	int fresh, slot;
	struct an_rq *r = fsl_map__put(&s->rqs, rq_key(ev), &fresh);
	struct an_dev_state *st;
	struct fsl_dev_io *d;
	struct fsl_seek_dir *dd;
	int64_t dist;
	uint64_t adist, *cnt;
	unsigned int bin, folds;

	if (!r)
		return -ENOMEM;
	if (ev->nr_sector)
		done_forget(s, ev);
	if (fresh) {		/* no insert seen: Q = D */
		r->q_ts = h->ts;
		r->pid = h->pid;
		an_comm_copy(r->comm, fsl_context__comm(s->c->cx, h->pid));
	}
	r->d_ts = h->ts;
	r->issued = 1;
	r->bytes = ev->bytes ? ev->bytes : ev->nr_sector * 512;
	if (!ev->nr_sector || (slot = dev_slot(s, ev->dev)) < 0)
		return 0;
	st = &s->st[slot];
	d = &s->res.devs[slot];
	dist = btt_dist(st, ev->sector, ev->sector + ev->nr_sector);
	if (an_in_window(&s->c->win, h->ts)) {
		bin = an_tb_bin(&d->tb, s->c->origin, h->ts, &folds);
		dev_fold(d, folds);
		adist = dist < 0 ? -(uint64_t)dist : (uint64_t)dist;
		dd = &d->dir[!(ev->flags & FSL_RQ_READ)];
		d->d2d++;
		dd->d2d++;
		d->seek_total += adist;
		dd->seek_total += adist;
		if (dist)
			dd->seeks++;
		fsl_hist_add(&d->seek_abs, adist);
		if (!dist) {
			d->seq++;
		} else {
			if (dist < 0)
				d->backward++;
			d->seeks++;
			d->series_seeks[bin]++;
			fsl_hist_add(&d->seek_dist, adist);
		}
		cnt = fsl_map__get(&st->dists, adist);
		if (!cnt && st->dists.n < AN_MAX_DISTS)
			cnt = fsl_map__put(&st->dists, adist, NULL);
		if (cnt && (++*cnt > d->seek_mode_count ||
			    (*cnt == d->seek_mode_count && adist < d->seek_mode))) {
			d->seek_mode_count = *cnt;
			d->seek_mode = adist;
		}
		add_point(d, h->ts, ev);
		if (s->have_geom && !(ev->flags & FSL_RQ_READ) && ev->dev == s->c->target_dev)
			class_blocks(s, d, ev);
	}
	return 0;
}

static int on_complete(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	uint64_t key = rq_key(ev);
	struct an_rq *r = fsl_map__get(&s->rqs, key);
	struct fsl_io_issuer *is;
	struct fsl_proc_stat *ps;
	struct fsl_dev_io *d;
	uint64_t bytes, q2c;
	unsigned int bin, folds;
	int slot, fresh, dbl;

	/* a second, zero-byte completion of a request already completed */
	dbl = !r && !ev->nr_sector && done_seen(s, ev);
	if (dbl)
		done_forget(s, ev);
	if (!an_in_window(&s->c->win, h->ts)) {
		if (r)
			fsl_map__del(&s->rqs, key);
		return 0;
	}
	slot = dev_slot(s, ev->dev);
	if (slot >= 0)
		s->res.devs[slot].completions++;
	if (!r || !r->issued) {
		if (dbl && slot >= 0)
			s->res.devs[slot].double_completions++;
		else
			s->res.unmatched++;
		if (r)
			fsl_map__del(&s->rqs, key);
		return 0;
	}
	if (slot < 0) {
		fsl_map__del(&s->rqs, key);
		return 0;
	}
	d = &s->res.devs[slot];
	bytes = r->bytes;
	d->completed++;
	if (ev->error)
		d->errors++;
	if (ev->flags & FSL_RQ_WRITE) {
		d->writes++;
		d->write_bytes += bytes;
	} else if (ev->flags & FSL_RQ_READ) {
		d->reads++;
		d->read_bytes += bytes;
	}
	if (ev->flags & FSL_RQ_META)
		d->meta++;
	if (ev->flags & FSL_RQ_SYNC)
		d->sync++;
	if (ev->flags & (FSL_RQ_FLUSH | FSL_RQ_FUA))
		d->flushes++;
	if (ev->flags & FSL_RQ_DISCARD)
		d->discards++;
	q2c = h->ts - r->q_ts;
	if (bytes) {
		fsl_hist_add(&d->size, bytes);
		fsl_hist_add(&d->q2d, r->d_ts - r->q_ts);
		fsl_hist_add(&d->d2c, h->ts - r->d_ts);
		fsl_hist_add(&d->q2c, q2c);
		done_remember(s, ev);
	} else {
		d->flush_rqs++;
		fsl_hist_add(&d->flush_q2d, r->d_ts - r->q_ts);
		fsl_hist_add(&d->flush_d2c, h->ts - r->d_ts);
		fsl_hist_add(&d->flush_q2c, q2c);
	}
	bin = an_tb_bin(&d->tb, s->c->origin, h->ts, &folds);
	dev_fold(d, folds);
	d->series_ios[bin]++;
	d->series_bytes[bin] += bytes;

	/* issuers: requests with data, as the device's Q2C */
	is = bytes ? fsl_map__get(&s->st[slot].issuers, comm_hash(r->comm)) : NULL;
	if (bytes && !is && s->st[slot].issuers.n < AN_MAX_ISSUERS) {
		is = fsl_map__put(&s->st[slot].issuers, comm_hash(r->comm), &fresh);
		if (is && fresh)
			memcpy(is->comm, r->comm, 16);
	}
	if (is) {
		is->ios++;
		is->bytes += bytes;
		is->q2c_ns += q2c;
	}
	ps = r->pid ? fsl_ctx_procs__get(&s->c->procs, r->pid) : NULL;
	if (ps) {
		if (ev->flags & FSL_RQ_WRITE)
			ps->write_bytes += bytes;
		else if (ev->flags & FSL_RQ_READ)
			ps->read_bytes += bytes;
	}
	fsl_map__del(&s->rqs, key);
	return 0;
}

static int on_merge(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	int slot;

	/* The merged request never completes on its own. */
	fsl_map__del(&s->rqs, rq_key(ev));
	if (!an_in_window(&s->c->win, h->ts) || (slot = dev_slot(s, ev->dev)) < 0)
		return 0;
	s->res.devs[slot].merges++;
	return 0;
}

static int blockio_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct an_blockio *s = cons->priv;
	const char *src = m ? fsl_meta_kv(m, FSL_KV_IMPORT_SOURCE) : NULL;

	s->by_sector = src && !strcmp(src, "blktrace");
	if (m && !fsl_meta__ext4_geometry(m, &s->g) && s->g.block_size >= 512 &&
	    s->g.blocks_per_group)
		s->have_geom = 1;
	if (s->c->target_dev && !s->res.ndevs)
		dev_slot(s, s->c->target_dev);
	return 0;
}

struct an_blockio *an_blockio_new(struct an_ctx *c)
{
	struct an_blockio *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->rqs, sizeof(struct an_rq));
	fsl_map__init(&s->done, sizeof(uint8_t));
	for (i = 0; i < FSL_MAX_DEVS; i++) {
		fsl_map__init(&s->st[i].dists, sizeof(uint64_t));
		fsl_map__init(&s->st[i].issuers, sizeof(struct fsl_io_issuer));
	}
	s->cons.name = "blockio";
	s->cons.priv = s;
	s->cons.begin = blockio_begin;
	s->cons.handlers[FSL_EV_BLOCK_RQ_INSERT] = on_insert;
	s->cons.handlers[FSL_EV_BLOCK_RQ_ISSUE] = on_issue;
	s->cons.handlers[FSL_EV_BLOCK_RQ_COMPLETE] = on_complete;
	s->cons.handlers[FSL_EV_BLOCK_RQ_MERGE] = on_merge;
	return s;
}

void an_blockio_free(struct an_blockio *s)
{
	unsigned int i;

	if (!s)
		return;
	fsl_map__free(&s->rqs);
	fsl_map__free(&s->done);
	for (i = 0; i < FSL_MAX_DEVS; i++) {
		fsl_map__free(&s->st[i].dists);
		fsl_map__free(&s->st[i].issuers);
	}
	free(s);
}

void an_blockio_reset(struct an_blockio *s)
{
	unsigned int i, n = s->res.ndevs;
	uint32_t devs[FSL_MAX_DEVS];

	for (i = 0; i < n; i++)
		devs[i] = s->res.devs[i].dev;
	memset(&s->res, 0, sizeof(s->res));
	/* Keep the device order stable across windows (top's rows). */
	for (i = 0; i < n; i++) {
		s->res.devs[i].dev = devs[i];
		s->res.devs[i].point_stride = 1;
		fsl_map__clear(&s->st[i].dists);
		fsl_map__clear(&s->st[i].issuers);
	}
	s->res.ndevs = n;
}

struct fsl_consumer *an_blockio_consumer(struct an_blockio *s)
{
	return &s->cons;
}

static int issuer_cmp(const void *x, const void *y)
{
	const struct fsl_io_issuer *a = x, *b = y;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	if (a->ios != b->ios)
		return a->ios < b->ios ? 1 : -1;
	return strncmp(a->comm, b->comm, 16);
}

const struct fsl_blockio *an_blockio_result(struct an_blockio *s)
{
	struct fsl_io_issuer all[AN_MAX_ISSUERS], *is;
	unsigned int i, n;
	size_t it;

	for (i = 0; i < s->res.ndevs; i++) {
		it = 0;
		n = 0;
		while ((is = fsl_map__next(&s->st[i].issuers, &it, NULL)) && n < AN_MAX_ISSUERS)
			all[n++] = *is;
		qsort(all, n, sizeof(all[0]), issuer_cmp);
		if (n > FSL_MAX_ISSUERS)
			n = FSL_MAX_ISSUERS;
		memcpy(s->res.devs[i].issuers, all, n * sizeof(all[0]));
		s->res.devs[i].nissuers = n;
	}
	return &s->res;
}
