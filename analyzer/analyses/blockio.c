// SPDX-License-Identifier: GPL-2.0
/*
 * Block I/O, btt style: per device (and per issuing task, journal thread and
 * flushers included) IOPS, bytes, request sizes, btt's stages, metadata vs
 * data, merges, and seeks between consecutive dispatches; the requests'
 * pairing, and the counts the kernel keeps in /sys/block/DEV/stat.
 *
 * Latencies are btt's, so that btt on `fslens export --format blktrace`
 * output, or on a real blktrace capture of the same run, gives the same
 * figures:
 *  - With bio events in the trace (block_bio_queue: Q), per bio as btt
 *    counts them: a Q is matched to the G, I and M at its start sector and
 *    to every D and C whose range holds it whole; Q2C, D2C and the other
 *    stages are one sample per bio that completed. Zero-byte bios and
 *    requests are left out, a Q at a start sector another bio in flight
 *    has is left out, and nothing of a device counts before its first Q
 *    (btt's rules). Without bio events (older traces, imports), one
 *    sample per request, its Q the insert (or the issue when it had none).
 *  - Zero-byte requests (the queue's cache flushes from fsync and journal
 *    commits) get their own latencies, issue to completion.
 *  - Seeks (btt's D2D) are between consecutive dispatches with data, the
 *    first measured from sector 0. A dispatch whose range overlaps or
 *    touches the previous one is distance 0 (no seek); otherwise forward
 *    distances run from the previous end, backward ones from the previous
 *    start. Mean and mode are over every dispatch, zeros included.
 *    Reads and the rest apart too (btt -s's _r and _w files), each distance
 *    still from the previous dispatch of either direction.
 *
 * Pairing (docs/report-json.md): every issue ends paired with its
 * completion, or unpaired by reason (enum fsl_unpaired): requeued, its slot
 * issued again with no completion in between (the kernel completed it: the
 * trace has no record of that), or still in flight at the end. The flush
 * machinery completes a request twice (the data, then the end of its
 * sequence with 0 bytes: double_completions), and an empty preflush write
 * once, never issued (its flush ran as the queue's flush request:
 * flush_seq_ends). A completion with no issue is of a request issued before
 * the recording (a slot not seen before) or one whose issue is missing.
 *
 * Counts as the kernel counts them (struct fsl_blk_counts) are taken over
 * the window of the trace's two /sys/block/DEV/stat reads, so that they set
 * beside the kernel's own delta.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

#define AN_MAX_DISTS	4096	/* distinct seek distances counted exactly (mode) */
#define AN_MAX_ISSUERS	64
#define AN_MAX_DONE	65536	/* completed requests remembered (double completions) */
#define AN_MAX_SEEN	(1u << 20)	/* request slots remembered (issued before the start?) */
#define AN_MAX_BIOS	(1u << 20)	/* bios in flight (a Q whose C never comes stays) */
#define AN_NONE		UINT64_MAX

enum { RQ_INSERTED = 1, RQ_ISSUED, RQ_REQUEUED };

struct an_rq {
	uint64_t q_ts, d_ts;
	uint64_t sector;
	uint32_t bytes;		/* at the (last) issue */
	uint32_t left;		/* bytes not completed yet (partial completions) */
	uint32_t flags;
	uint32_t pid;
	uint32_t dev;
	uint8_t state;
	uint8_t issued;		/* d_ts valid (0 is a time in imports) */
	char comm[16];
};

/* A bio queued (Q with data), waiting for the completion that holds it. */
struct an_bio {
	uint64_t q_ts, g_ts, i_ts, m_ts, d_ts;	/* AN_NONE: not seen */
	uint32_t nr;
};

struct an_dev_state {		/* persistent per device */
	uint32_t dev;
	uint64_t last_start;	/* previous dispatch with data (0, 0 before any) */
	uint64_t last_end;	/* sector after it */
	struct fsl_map dists;	/* distance -> count (window) */
	struct fsl_map issuers;	/* hash(comm) -> fsl_io_issuer (window) */
	struct fsl_map bios;	/* start sector -> an_bio, in flight */
	struct fsl_map split_of;	/* sector a split cut at -> the sector cut */
	int bio_started;	/* a Q with data seen: btt counts from there */
	uint64_t last_q;	/* previous Q (btt's Q2Q), AN_NONE before any */
	/* per request (window), the latencies when the trace has no bios */
	struct fsl_hist rq_q2d, rq_d2c, rq_q2c;
};

/* What the end read's inference added to a device's figures (undone on the next read). */
struct an_end_guess {
	uint64_t not_seen, bios, ios[FSL_SG__MAX], sectors[FSL_SG__MAX];
};

struct an_blockio {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map rqs;	/* rq -> an_rq (live: inserted, issued, requeued) */
	struct fsl_map done;	/* rq, (dev, sector) -> completed with data, not issued again */
	struct fsl_map seen;	/* request slots seen in the trace */
	int by_sector;		/* made-up request identities (blktrace import) */
	int have_geom;		/* an ext4 target with its geometry: writes get classes */
	struct fsl_ext4_geometry g;
	/* the kernel's own counts of the target disk, and the window of its reads */
	int have_kstat;
	struct fsl_blk_counts kstat;
	uint64_t kstat_in_flight, kwin0, kwin1;
	uint64_t lost;
	struct an_dev_state st[FSL_MAX_DEVS];
	struct an_end_guess end_guess[FSL_MAX_DEVS];
	struct fsl_blockio res;
};

const char *fsl_unpaired_name(unsigned int why)
{
	static const char *const n[FSL_UNP__MAX] = {
		"requeued", "completion_not_seen", "in_flight_at_end", "issued_before_start",
		"issue_not_seen",
	};

	return why < FSL_UNP__MAX ? n[why] : "unknown";
}

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
	uint64_t *sec;

	if (s->done.n >= AN_MAX_DONE)
		fsl_map__clear(&s->done);
	if ((sec = fsl_map__put(&s->done, rq_key(ev), NULL)))
		*sec = ev->sector;
	if (s->by_sector && (sec = fsl_map__put(&s->done, sec_key(ev), NULL)))
		*sec = ev->sector;
}

/*
 * The second completion of a request completed with data: same slot, same
 * sector (the flush machinery ends the request where its data started). An
 * empty preflush write allocated in a slot whose last request completed
 * with data ends at sector 0: not that request's second completion.
 */
static int done_seen(const struct an_blockio *s, const struct fsl_ev_block_rq *ev)
{
	const uint64_t *sec = fsl_map__get(&s->done, rq_key(ev));

	if (!sec && s->by_sector)
		sec = fsl_map__get(&s->done, sec_key(ev));
	return sec && *sec == ev->sector;
}

static void done_forget(struct an_blockio *s, const struct fsl_ev_block_rq *ev)
{
	fsl_map__del(&s->done, rq_key(ev));
	if (s->by_sector)
		fsl_map__del(&s->done, sec_key(ev));
}

static void slot_seen(struct an_blockio *s, uint64_t key)
{
	if (s->seen.n >= AN_MAX_SEEN)
		fsl_map__clear(&s->seen);
	fsl_map__put(&s->seen, key, NULL);
}

/* comm is 16 bytes, NUL-terminated only when shorter */
static uint64_t comm_hash(const char *s)
{
	return fsl_hash_bytes(s, strnlen(s, 16));
}

/* The kernel's stat group of a request or bio (op_stat_group()), -1 for none. */
static int stat_group(uint32_t f)
{
	if (f & FSL_RQ_DISCARD)
		return FSL_SG_DISCARD;
	if (f & FSL_RQ_WRITE)
		return FSL_SG_WRITE;
	if (f & FSL_RQ_READ)
		return FSL_SG_READ;
	if (f & FSL_RQ_FLUSH)	/* REQ_OP_FLUSH: the queue's own flush request */
		return FSL_SG_FLUSH;
	return -1;
}

/* btt's time difference: 1 when the second is not after the first */
static uint64_t tdelta(uint64_t a, uint64_t b)
{
	return a < b ? b - a : 1;
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
		s->st[i].bio_started = 0;
		s->st[i].last_q = AN_NONE;
		fsl_map__clear(&s->st[i].dists);
		fsl_map__clear(&s->st[i].issuers);
		fsl_map__clear(&s->st[i].bios);
		fsl_map__clear(&s->st[i].split_of);
		fsl_hist_reset(&s->st[i].rq_q2d);
		fsl_hist_reset(&s->st[i].rq_d2c);
		fsl_hist_reset(&s->st[i].rq_q2c);
	}
	return i;
}

/* In the window of the kernel's two stat reads (the whole trace when it has none)? */
static int in_kwin(const struct an_blockio *s, uint64_t ts)
{
	return an_in_window(&s->c->win, ts) && ts >= s->kwin0 && (!s->kwin1 || ts <= s->kwin1);
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

/* ---- bios: btt's Q, G, I, M, D, C matched by sector ---- */

static struct an_bio *bio_at(struct an_dev_state *st, uint64_t sector)
{
	return fsl_map__get(&st->bios, sector);
}

enum { BIO_D, BIO_C, BIO_DROP, BIO_COUNT };

/*
 * Every bio in flight whose range lies whole in [sector, sector + nr), as
 * btt's rb_foreach finds them: D gives them their dispatch, C completes
 * them, DROP forgets them (a request completed with no record in the
 * trace). The bios of a request follow each other, so the walk goes from
 * one's end to the next; over a hole it steps sector by sector.
 */
static void bio_range(struct an_blockio *s, int slot, uint64_t ts, uint64_t sector,
		      uint64_t nr, int what)
{
	struct an_dev_state *st = &s->st[slot];
	struct fsl_dev_io *d = &s->res.devs[slot];
	uint64_t cur = sector, end = sector + nr;
	int win = an_in_window(&s->c->win, ts);
	struct an_bio *b;

	while (cur < end && st->bios.n) {
		b = bio_at(st, cur);
		if (!b || cur + b->nr > end) {
			cur++;
			continue;
		}
		if (what == BIO_COUNT) {	/* how many, left in flight */
			if (an_in_window(&s->c->win, b->q_ts))
				d->bios_not_seen++;
			cur += b->nr;
			continue;
		}
		if (what == BIO_D) {
			if (win && b->i_ts != AN_NONE)
				fsl_hist_add(&d->i2d, tdelta(b->i_ts, ts));
			else if (win && b->m_ts != AN_NONE)
				fsl_hist_add(&d->m2d, tdelta(b->m_ts, ts));
			if (win)
				fsl_hist_add(&d->q2d, ts > b->q_ts ? ts - b->q_ts : 0);
			b->d_ts = ts;
			cur += b->nr;
			continue;
		}
		if (what == BIO_C && win) {
			fsl_hist_add(&d->q2c, tdelta(b->q_ts, ts));
			if (b->d_ts != AN_NONE)
				fsl_hist_add(&d->d2c, tdelta(b->d_ts, ts));
		} else if (what == BIO_DROP && an_in_window(&s->c->win, b->q_ts)) {
			d->bios_not_seen++;
		}
		nr = b->nr;
		fsl_map__del(&st->bios, cur);
		cur += nr;
	}
}

/*
 * The bio in flight holding sector: G, I and M name a bio's own start, or
 * where a split cut it (the rest of the bio goes on from there, its Q the
 * whole bio's, as btt finds the Q that holds the sector).
 */
static struct an_bio *bio_find(struct an_blockio *s, int slot, uint64_t sector)
{
	struct an_dev_state *st = &s->st[slot];
	struct an_bio *b;
	uint64_t *from;
	unsigned int hops;

	if (!st->bio_started)
		return NULL;
	for (hops = 0; hops < 64; hops++) {
		if ((b = bio_at(st, sector)) && b->nr)
			return b;
		if (!(from = fsl_map__get(&st->split_of, sector)))
			return NULL;
		sector = *from;
	}
	return NULL;
}

static int on_bio_queue(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_bio *ev = (const void *)h;
	struct an_dev_state *st;
	struct fsl_dev_io *d;
	struct an_bio *b;
	int slot, fresh, win = an_in_window(&s->c->win, h->ts);

	if (!ev->nr_sector || (slot = dev_slot(s, ev->dev)) < 0)
		return 0;
	st = &s->st[slot];
	d = &s->res.devs[slot];
	d->bio_level = 1;
	st->bio_started = 1;
	if (st->bios.n >= AN_MAX_BIOS)
		fsl_map__clear(&st->bios);
	b = fsl_map__put(&st->bios, ev->sector, &fresh);
	if (!b)
		return -ENOMEM;
	/* a bio at the start of one in flight takes its place (btt's tree does so) */
	if (!fresh && win)
		d->bios_dup++;
	fsl_map__del(&st->split_of, ev->sector);
	b->q_ts = h->ts;
	b->g_ts = b->i_ts = b->m_ts = b->d_ts = AN_NONE;
	b->nr = ev->nr_sector;
	if (win) {
		d->bios++;
		if (st->last_q != AN_NONE)
			fsl_hist_add(&d->q2q, tdelta(st->last_q, h->ts));
	}
	st->last_q = h->ts;
	return 0;
}

static int on_getrq(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_bio *ev = (const void *)h;
	struct an_bio *b;
	int slot;

	if (!ev->nr_sector || (slot = dev_slot(s, ev->dev)) < 0 ||
	    !(b = bio_find(s, slot, ev->sector)))
		return 0;
	b->g_ts = h->ts;
	if (an_in_window(&s->c->win, h->ts))
		fsl_hist_add(&s->res.devs[slot].q2g, tdelta(b->q_ts, h->ts));
	return 0;
}

/* A merge (M): of a bio into a request, or of a request into another. */
static void merged(struct an_blockio *s, const struct fsl_hdr *h, uint32_t dev, uint64_t sector,
		   uint32_t nr, uint32_t flags, int bio)
{
	struct fsl_dev_io *d;
	struct an_bio *b;
	int slot = dev_slot(s, dev), g = stat_group(flags);

	if (slot < 0)
		return;
	d = &s->res.devs[slot];
	if (an_in_window(&s->c->win, h->ts)) {
		d->merges++;
		if (bio)
			d->bio_merges++;
	}
	if (g >= 0 && in_kwin(s, h->ts))
		d->kc.merges[g]++;
	if (nr && (b = bio_find(s, slot, sector))) {
		b->m_ts = h->ts;
		if (an_in_window(&s->c->win, h->ts))
			fsl_hist_add(&d->q2m, tdelta(b->q_ts, h->ts));
	}
}

static int on_bio_merge(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	const struct fsl_ev_block_bio *ev = (const void *)h;

	merged(cons->priv, h, ev->dev, ev->sector, ev->nr_sector, ev->flags, 1);
	return 0;
}

static int on_split(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_split *ev = (const void *)h;
	struct an_dev_state *st;
	uint64_t *from;
	int slot = dev_slot(s, ev->dev);

	if (slot < 0)
		return 0;
	st = &s->st[slot];
	if (an_in_window(&s->c->win, h->ts))
		s->res.devs[slot].splits++;
	/* the rest from new_sector on is still the bio queued at sector */
	if (ev->new_sector > ev->sector && st->bio_started) {
		if (st->split_of.n >= AN_MAX_BIOS)
			fsl_map__clear(&st->split_of);
		if (!(from = fsl_map__put(&st->split_of, ev->new_sector, NULL)))
			return -ENOMEM;
		*from = ev->sector;
	}
	return 0;
}

/* A bio-based device's completion (device mapper, md): per bio, as the kernel counts. */
static int on_bio_complete(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_bio *ev = (const void *)h;
	int slot = dev_slot(s, ev->dev), g = stat_group(ev->flags);

	if (slot < 0)
		return 0;
	if (g >= 0 && g != FSL_SG_FLUSH && in_kwin(s, h->ts)) {
		s->res.devs[slot].kc.ios[g]++;
		s->res.devs[slot].kc.sectors[g] += ev->nr_sector;
	}
	if (ev->nr_sector && s->st[slot].bio_started)
		bio_range(s, slot, h->ts, ev->sector, ev->nr_sector, BIO_C);
	return 0;
}

/* ---- requests ---- */

/*
 * An issued request whose slot is in use again (issued or inserted anew)
 * with no completion or requeue in between: the kernel completed it and
 * counted it; the trace has no record of that completion.
 */
static void not_seen(struct an_blockio *s, int slot, const struct an_rq *r, uint64_t ts)
{
	struct fsl_dev_io *d = &s->res.devs[slot];
	int g = stat_group(r->flags);

	if (an_in_window(&s->c->win, r->d_ts))
		d->unpaired[FSL_UNP_NOT_SEEN]++;
	if (g >= 0 && in_kwin(s, r->d_ts)) {
		d->not_seen.ios[g]++;
		if (g != FSL_SG_FLUSH)
			d->not_seen.sectors[g] += r->left >> 9;
	}
	/* its bios completed too, when is not known: out of the latencies */
	if (r->left && s->st[slot].bio_started)
		bio_range(s, slot, ts, r->sector + ((uint64_t)(r->bytes - r->left) >> 9),
			  r->left >> 9, BIO_DROP);
}

/* The live entry of a request about to start a new life in its slot. */
static struct an_rq *rq_renew(struct an_blockio *s, const struct fsl_ev_block_rq *ev, int *fresh)
{
	struct an_rq *r = fsl_map__get(&s->rqs, rq_key(ev));
	int slot;

	if (r && r->state == RQ_ISSUED && (slot = dev_slot(s, ev->dev)) >= 0) {
		not_seen(s, slot, r, ev->hdr.ts);
		memset(r, 0, sizeof(*r));
	}
	r = fsl_map__put(&s->rqs, rq_key(ev), fresh);
	if (r && !r->state)
		*fresh = 1;
	return r;
}

static int on_insert(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	struct an_rq *r;
	struct an_bio *b;
	int fresh = 0, slot;

	r = rq_renew(s, ev, &fresh);
	if (!r)
		return -ENOMEM;
	done_forget(s, ev);
	slot_seen(s, rq_key(ev));
	if (fresh) {
		r->q_ts = h->ts;
		r->pid = h->pid;
		an_comm_copy(r->comm, fsl_context__comm(s->c->cx, h->pid));
	}
	/* inserted again after a requeue: still the request its Q started */
	r->state = RQ_INSERTED;
	r->issued = 0;
	r->bytes = ev->bytes ? ev->bytes : ev->nr_sector * 512;
	if (ev->nr_sector && (slot = dev_slot(s, ev->dev)) >= 0 &&
	    (b = bio_find(s, slot, ev->sector))) {
		b->i_ts = h->ts;
		if (b->g_ts != AN_NONE && an_in_window(&s->c->win, h->ts))
			fsl_hist_add(&s->res.devs[slot].g2i, tdelta(b->g_ts, h->ts));
	}
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

static void seek(struct an_blockio *s, int slot, const struct fsl_hdr *h,
		 const struct fsl_ev_block_rq *ev)
{
	struct an_dev_state *st = &s->st[slot];
	struct fsl_dev_io *d = &s->res.devs[slot];
	struct fsl_seek_dir *dd;
	int64_t dist = btt_dist(st, ev->sector, ev->sector + ev->nr_sector);
	uint64_t adist, *cnt;
	unsigned int bin, folds;

	if (!an_in_window(&s->c->win, h->ts))
		return;
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

static int on_issue(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	struct an_rq *r;
	int fresh = 0, slot;

	r = rq_renew(s, ev, &fresh);
	if (!r)
		return -ENOMEM;
	if (ev->nr_sector)
		done_forget(s, ev);
	slot_seen(s, rq_key(ev));
	if (fresh) {		/* no insert seen: Q = D */
		r->q_ts = h->ts;
		r->pid = h->pid;
		an_comm_copy(r->comm, fsl_context__comm(s->c->cx, h->pid));
	}
	r->d_ts = h->ts;
	r->issued = 1;
	r->state = RQ_ISSUED;
	r->dev = ev->dev;
	r->bytes = ev->bytes ? ev->bytes : ev->nr_sector * 512;
	r->left = r->bytes;
	r->sector = ev->sector;
	r->flags = ev->flags;
	if ((slot = dev_slot(s, ev->dev)) < 0)
		return 0;
	if (an_in_window(&s->c->win, h->ts))
		s->res.devs[slot].issues++;
	if (!ev->nr_sector)
		return 0;
	if (s->st[slot].bio_started) {
		struct an_bio *b = bio_at(&s->st[slot], ev->sector);

		/* the request's Q is its first bio's (a front merge's, when it had one) */
		if (b && b->q_ts < r->q_ts)
			r->q_ts = b->q_ts;
		bio_range(s, slot, h->ts, ev->sector, ev->nr_sector, BIO_D);
	}
	seek(s, slot, h, ev);
	return 0;
}

static int on_requeue(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	struct an_rq *r = fsl_map__get(&s->rqs, rq_key(ev));
	int slot;

	if (!r || r->state != RQ_ISSUED)
		return 0;
	r->state = RQ_REQUEUED;
	if ((slot = dev_slot(s, ev->dev)) >= 0 && an_in_window(&s->c->win, r->d_ts))
		s->res.devs[slot].unpaired[FSL_UNP_REQUEUED]++;
	return 0;
}

/* A request completed that was issued: the figures of a request done. */
static void rq_done(struct an_blockio *s, int slot, const struct fsl_hdr *h,
		    const struct fsl_ev_block_rq *ev, const struct an_rq *r)
{
	struct fsl_dev_io *d = &s->res.devs[slot];
	struct fsl_io_issuer *is;
	struct fsl_proc_stat *ps;
	uint64_t bytes = r->bytes, q2c = h->ts - r->q_ts;
	unsigned int bin, folds;
	int fresh;

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
	if (bytes) {
		fsl_hist_add(&d->size, bytes);
		fsl_hist_add(&s->st[slot].rq_q2d, r->d_ts - r->q_ts);
		fsl_hist_add(&s->st[slot].rq_d2c, h->ts - r->d_ts);
		fsl_hist_add(&s->st[slot].rq_q2c, q2c);
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

	/* issuers: requests with data, Q2C from the request's Q */
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
		if (q2c > is->q2c_max_ns)
			is->q2c_max_ns = q2c;
	}
	ps = r->pid ? fsl_ctx_procs__get(&s->c->procs, r->pid) : NULL;
	if (ps) {
		if (ev->flags & FSL_RQ_WRITE)
			ps->write_bytes += bytes;
		else if (ev->flags & FSL_RQ_READ)
			ps->read_bytes += bytes;
	}
}

static int on_complete(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	uint64_t key = rq_key(ev);
	struct an_rq *r = fsl_map__get(&s->rqs, key), rr;
	struct fsl_dev_io *d;
	int slot, win = an_in_window(&s->c->win, h->ts), kwin = in_kwin(s, h->ts);
	int g = stat_group(ev->flags), kio = 1, known = fsl_map__get(&s->seen, key) != NULL;
	uint32_t nb = ev->bytes ? ev->bytes : ev->nr_sector * 512;

	slot = dev_slot(s, ev->dev);
	if (slot < 0) {
		if (r)
			fsl_map__del(&s->rqs, key);
		return 0;
	}
	d = &s->res.devs[slot];
	if (win)
		d->completions++;
	if (g >= 0 && g != FSL_SG_FLUSH && kwin)
		d->kc.sectors[g] += nb >> 9;
	if (nb && s->st[slot].bio_started)
		bio_range(s, slot, h->ts, ev->sector, nb >> 9, BIO_C);
	slot_seen(s, key);

	if (r && r->state == RQ_ISSUED) {
		if (nb && nb < r->left) {	/* a part: the request goes on */
			r->left -= nb;
			if (win)
				d->partials++;
			return 0;
		}
		if (!nb && r->left && g != FSL_SG_FLUSH) {
			/* the data's completion is missing, the sequence's end is here */
			if (kwin)
				d->not_seen.sectors[g] += r->left >> 9;
			if (s->st[slot].bio_started)
				bio_range(s, slot, h->ts, r->sector +
					  ((uint64_t)(r->bytes - r->left) >> 9), r->left >> 9, BIO_DROP);
		}
		rr = *r;
		fsl_map__del(&s->rqs, key);
		if (an_in_window(&s->c->win, rr.d_ts))
			d->paired++;
		if (nb)
			done_remember(s, ev);
		if (win)
			rq_done(s, slot, h, ev, &rr);
	} else {
		if (r)
			fsl_map__del(&s->rqs, key);
		if (!nb && done_seen(s, ev)) {
			/*
			 * The end of the flush sequence of a request completed
			 * with data: the kernel counts the request here, and
			 * counted it at its data already.
			 */
			done_forget(s, ev);
			kio = 0;
			if (win)
				d->double_completions++;
		} else if (!nb && g == FSL_SG_WRITE) {
			/* an empty preflush write: its flush ran as the queue's flush request */
			if (win)
				d->flush_seq_ends++;
		} else if (win) {
			/* a slot the trace used before lost an issue; else it predates the start */
			s->res.unmatched++;
			d->unpaired[known ? FSL_UNP_NO_ISSUE : FSL_UNP_BEFORE_START]++;
		}
	}
	if (kio && g >= 0 && kwin)
		d->kc.ios[g]++;
	return 0;
}

static int on_merge(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_blockio *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;

	/* The merged request never completes on its own. */
	fsl_map__del(&s->rqs, rq_key(ev));
	merged(s, h, ev->dev, ev->sector, ev->nr_sector, ev->flags, 0);
	return 0;
}

static void end_guess_apply(struct fsl_dev_io *d, const struct an_end_guess *e, int sign)
{
	unsigned int g;

	d->unpaired[FSL_UNP_NOT_SEEN] += sign * e->not_seen;
	d->bios_not_seen += sign * e->bios;
	for (g = 0; g < FSL_SG__MAX; g++) {
		d->not_seen.ios[g] += sign * e->ios[g];
		d->not_seen.sectors[g] += sign * e->sectors[g];
	}
}

static int by_issue(const void *x, const void *y)
{
	const struct an_rq *a = *(const struct an_rq *const *)x, *b = *(const struct an_rq *const *)y;

	return a->d_ts < b->d_ts ? -1 : a->d_ts > b->d_ts;
}

/* The window holds the kernel's two reads: its delta sets beside the trace's counts. */
static int kstat_in_window(const struct an_blockio *s)
{
	return s->have_kstat && s->c->win.t0 <= s->kwin0 &&
	       (!s->c->win.t1 || s->c->win.t1 > s->kwin1);
}

/*
 * Issues with no completion yet, when the figures are read (the end of the
 * trace for a report): in flight, and those the kernel's end read saw so.
 * When that read counts fewer requests in flight than the trace has issued
 * and not seen complete before it, the oldest of those completed with no
 * record in the trace: completions not seen, as a slot issued again shows.
 */
static void in_flight(struct an_blockio *s)
{
	struct an_rq **live = NULL, *r;
	struct fsl_dev_io *d;
	size_t it = 0, n = 0, cap = 0, k;
	unsigned int i;
	int slot, g;

	for (i = 0; i < s->res.ndevs; i++) {
		d = &s->res.devs[i];
		end_guess_apply(d, &s->end_guess[i], -1);
		memset(&s->end_guess[i], 0, sizeof(s->end_guess[i]));
		d->unpaired[FSL_UNP_IN_FLIGHT] = 0;
		d->in_flight_end = 0;
	}
	while ((r = fsl_map__next(&s->rqs, &it, NULL))) {
		if (r->state != RQ_ISSUED || (slot = dev_slot(s, r->dev)) < 0)
			continue;
		d = &s->res.devs[slot];
		if (an_in_window(&s->c->win, r->d_ts))
			d->unpaired[FSL_UNP_IN_FLIGHT]++;
		if (!in_kwin(s, r->d_ts))
			continue;
		d->in_flight_end++;
		if (n == cap) {
			struct an_rq **nl = realloc(live, (cap = cap ? 2 * cap : 64) * sizeof(*nl));

			if (!nl)
				break;
			live = nl;
		}
		live[n++] = r;
	}
	/*
	 * A trace with the end read is whole (a recorder killed first has
	 * none): what it shows in flight at that read, the kernel did not.
	 */
	if (kstat_in_window(s) && n) {
		qsort(live, n, sizeof(*live), by_issue);
		slot = dev_slot(s, s->c->target_dev);
		d = slot >= 0 ? &s->res.devs[slot] : NULL;
		for (k = 0; d && k < n && d->in_flight_end > s->kstat_in_flight; k++) {
			struct an_end_guess *e = &s->end_guess[slot];

			r = live[k];
			if (r->dev != s->c->target_dev)
				continue;
			d->in_flight_end--;
			if (an_in_window(&s->c->win, r->d_ts))
				d->unpaired[FSL_UNP_IN_FLIGHT]--;
			e->not_seen++;
			if ((g = stat_group(r->flags)) >= 0) {
				e->ios[g]++;
				if (g != FSL_SG_FLUSH)
					e->sectors[g] += r->left >> 9;
			}
			if (r->left && s->st[slot].bio_started) {
				uint64_t before = d->bios_not_seen;

				bio_range(s, slot, r->d_ts, r->sector +
					  ((uint64_t)(r->bytes - r->left) >> 9), r->left >> 9, BIO_COUNT);
				e->bios = d->bios_not_seen - before;
				d->bios_not_seen = before;
			}
		}
		for (i = 0; i < s->res.ndevs; i++)
			end_guess_apply(&s->res.devs[i], &s->end_guess[i], 1);
	}
	free(live);
}

static void kstat_begin(struct an_blockio *s, const struct fsl_meta *m)
{
	struct fsl_disk_stat a, b;
	unsigned int g;

	s->kwin0 = 0;
	s->kwin1 = 0;
	s->have_kstat = 0;
	if (!m || fsl_meta__disk_stat(m, 0, &a) || fsl_meta__disk_stat(m, 1, &b))
		return;
	for (g = 0; g < FSL_SG__MAX; g++) {
		s->kstat.ios[g] = b.ios[g] - a.ios[g];
		s->kstat.merges[g] = b.merges[g] - a.merges[g];
		s->kstat.sectors[g] = b.sectors[g] - a.sectors[g];
	}
	s->kstat_in_flight = b.in_flight;
	/* traces before the reads' own times: the recording's edges */
	s->kwin0 = a.ts ? a.ts : fsl_meta__u64(m, FSL_KV_START_NS, 0);
	s->kwin1 = b.ts ? b.ts : fsl_meta__u64(m, FSL_KV_END_NS, 0);
	s->have_kstat = 1;
}

static int blockio_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct an_blockio *s = cons->priv;
	const char *src = m ? fsl_meta_kv(m, FSL_KV_IMPORT_SOURCE) : NULL;
	const struct fsl_trace_stats *ts = m && m->stats ? m->stats(m) : NULL;

	s->by_sector = src && !strcmp(src, "blktrace");
	if (m && !fsl_meta__ext4_geometry(m, &s->g) && s->g.block_size >= 512 &&
	    s->g.blocks_per_group)
		s->have_geom = 1;
	kstat_begin(s, m);
	s->lost = ts ? ts->counts.lost[FSL_FAM_BLOCK] : 0;
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
	fsl_map__init(&s->done, sizeof(uint64_t));
	fsl_map__init(&s->seen, sizeof(uint8_t));
	for (i = 0; i < FSL_MAX_DEVS; i++) {
		fsl_map__init(&s->st[i].dists, sizeof(uint64_t));
		fsl_map__init(&s->st[i].issuers, sizeof(struct fsl_io_issuer));
		fsl_map__init(&s->st[i].bios, sizeof(struct an_bio));
		fsl_map__init(&s->st[i].split_of, sizeof(uint64_t));
		s->st[i].last_q = AN_NONE;
	}
	s->cons.name = "blockio";
	s->cons.priv = s;
	s->cons.begin = blockio_begin;
	s->cons.handlers[FSL_EV_BLOCK_RQ_INSERT] = on_insert;
	s->cons.handlers[FSL_EV_BLOCK_RQ_ISSUE] = on_issue;
	s->cons.handlers[FSL_EV_BLOCK_RQ_COMPLETE] = on_complete;
	s->cons.handlers[FSL_EV_BLOCK_RQ_MERGE] = on_merge;
	s->cons.handlers[FSL_EV_BLOCK_RQ_REQUEUE] = on_requeue;
	s->cons.handlers[FSL_EV_BLOCK_BIO_QUEUE] = on_bio_queue;
	s->cons.handlers[FSL_EV_BLOCK_GETRQ] = on_getrq;
	s->cons.handlers[FSL_EV_BLOCK_BIO_BACKMERGE] = on_bio_merge;
	s->cons.handlers[FSL_EV_BLOCK_BIO_FRONTMERGE] = on_bio_merge;
	s->cons.handlers[FSL_EV_BLOCK_SPLIT] = on_split;
	s->cons.handlers[FSL_EV_BLOCK_BIO_COMPLETE] = on_bio_complete;
	return s;
}

void an_blockio_free(struct an_blockio *s)
{
	unsigned int i;

	if (!s)
		return;
	fsl_map__free(&s->rqs);
	fsl_map__free(&s->done);
	fsl_map__free(&s->seen);
	for (i = 0; i < FSL_MAX_DEVS; i++) {
		fsl_map__free(&s->st[i].dists);
		fsl_map__free(&s->st[i].issuers);
		fsl_map__free(&s->st[i].bios);
		fsl_map__free(&s->st[i].split_of);
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
	memset(s->end_guess, 0, sizeof(s->end_guess));
	/* Keep the device order stable across windows (top's rows). */
	for (i = 0; i < n; i++) {
		s->res.devs[i].dev = devs[i];
		s->res.devs[i].point_stride = 1;
		fsl_map__clear(&s->st[i].dists);
		fsl_map__clear(&s->st[i].issuers);
		fsl_hist_reset(&s->st[i].rq_q2d);
		fsl_hist_reset(&s->st[i].rq_d2c);
		fsl_hist_reset(&s->st[i].rq_q2c);
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

	in_flight(s);
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
		/* no bios on the device: btt's Q is each request's own */
		if (!s->res.devs[i].bio_level) {
			s->res.devs[i].q2d = s->st[i].rq_q2d;
			s->res.devs[i].d2c = s->st[i].rq_d2c;
			s->res.devs[i].q2c = s->st[i].rq_q2c;
		}
		/* the kernel's delta, when the window holds both of its reads */
		if (kstat_in_window(s) && s->res.devs[i].dev == s->c->target_dev) {
			s->res.devs[i].have_kstat = 1;
			s->res.devs[i].kstat = s->kstat;
			s->res.devs[i].kstat_in_flight = s->kstat_in_flight;
			s->res.devs[i].kstat_t0 = s->kwin0;
			s->res.devs[i].kstat_t1 = s->kwin1;
		}
	}
	s->res.lost = s->lost;
	return &s->res;
}
