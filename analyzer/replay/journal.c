// SPDX-License-Identifier: GPL-2.0
/* Replay, the journal: recorded handles and commits, then the journal models at the end. */
#include <stdio.h>
#include <unistd.h>
#include "fslens/analysis.h"
#include "../an_internal.h"
#include "replay_int.h"

/* ---- journal inputs ---- */

/*
 * Inputs older than the window are written out in whole windows, at their
 * index times the record size; the file is unlinked at once, so nothing is
 * left behind. Without a temporary file the window grows, as memory allows.
 */
static int jin_spill(struct fsl_replay *r)
{
	size_t len = r->cjin * sizeof(struct jin), done = 0;
	off_t off = (off_t)(r->jbase * sizeof(struct jin));

	if (r->jfd < 0) {
		FILE *f = tmpfile();

		if (!f)
			return -1;
		r->jfd = dup(fileno(f));
		fclose(f);
		if (r->jfd < 0)
			return -1;
	}
	while (done < len) {
		ssize_t w = pwrite(r->jfd, (const char *)r->jin + done, len - done,
				   off + (off_t)done);

		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	r->jbase += r->cjin;
	return 0;
}

struct jin *rp_jin_push(struct fsl_replay *r)
{
	size_t k = r->njin - r->jbase;

	if (k == r->cjin) {
		if (r->cjin >= r->jwin && !jin_spill(r)) {
			k = 0;
		} else {
			size_t n = r->cjin ? r->cjin * 2 : 4096;
			struct jin *p;

			if (r->cjin < r->jwin && n > r->jwin)
				n = r->jwin;
			p = realloc(r->jin, n * sizeof(*p));

			if (!p)
				return NULL;
			r->jin = p;
			r->cjin = n;
		}
	}
	memset(&r->jin[k], 0, sizeof(struct jin));
	r->njin++;
	return &r->jin[k];
}

/* Input i, from memory or from the file (0 when it cannot be read). */
static int jin_get(const struct fsl_replay *r, size_t i, struct jin *out)
{
	if (i >= r->njin)
		return 0;
	if (i >= r->jbase) {
		*out = r->jin[i - r->jbase];
		return 1;
	}
	return pread(r->jfd, out, sizeof(*out), (off_t)(i * sizeof(*out))) ==
	       (ssize_t)sizeof(*out);
}

/* A failed write loses one handle's stats: it then counts as a handle without. */
static void jin_set(struct fsl_replay *r, size_t i, const struct jin *in)
{
	if (i >= r->jbase) {
		r->jin[i - r->jbase] = *in;
		return;
	}
	if (pwrite(r->jfd, in, sizeof(*in), (off_t)(i * sizeof(*in))) != (ssize_t)sizeof(*in))
		return;
}

void rp_jin_free(struct fsl_replay *r)
{
	free(r->jin);
	r->jin = NULL;
	if (r->jfd >= 0)
		close(r->jfd);
	r->jfd = -1;
}

/* Reading the inputs in order, a batch of the file at a time. */
struct jin_it {
	const struct fsl_replay *r;
	size_t i, bstart, bn;
	struct jin buf[1024];
};

static void jin_it_start(struct jin_it *it, const struct fsl_replay *r)
{
	it->r = r;
	it->i = it->bstart = it->bn = 0;
}

static const struct jin *jin_next(struct jin_it *it)
{
	const struct fsl_replay *r = it->r;
	size_t i = it->i;

	if (i >= r->njin)
		return NULL;
	it->i++;
	if (i >= r->jbase)
		return &r->jin[i - r->jbase];
	if (i < it->bstart || i >= it->bstart + it->bn) {
		size_t n = r->jbase - i;
		ssize_t got;

		if (n > sizeof(it->buf) / sizeof(it->buf[0]))
			n = sizeof(it->buf) / sizeof(it->buf[0]);
		got = pread(r->jfd, it->buf, n * sizeof(struct jin), (off_t)(i * sizeof(struct jin)));
		it->bstart = i;
		it->bn = got > 0 ? (size_t)got / sizeof(struct jin) : 0;
		if (!it->bn) {	/* unreadable: the inputs end here */
			it->i = r->njin;
			return NULL;
		}
	}
	return &it->buf[i - it->bstart];
}

static int h_journal_start(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_journal_start *e = (const void *)ev;
	struct thr *t = rp_thr_get(r, ev->tid);

	if (!t)
		return -ENOMEM;
	if (ev->type == FSL_EV_EXT4_JOURNAL_START_INODE)
		rp_inode__note_write(r, ev->tid);
	t->has_js = 1;
	t->js_ts = ev->ts;
	t->js_ino = e->ino;
	t->js_type = e->type;
	t->js_rsv = e->rsv_blocks > 0 ? (uint32_t)e->rsv_blocks : 0;
	return 0;
}

static int h_handle_start(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_handle_start *e = (const void *)ev;
	struct thr *t = rp_thr_get(r, ev->tid);
	struct jin *j;

	if (!t)
		return -ENOMEM;
	/* the default tier's whole record of a handle its sums hold: not an input */
	if (fsl_hs_in_agg(ev))
		return 0;
	j = rp_jin_push(r);
	if (!j)
		return -ENOMEM;
	r->handle_starts++;
	if (e->tid != r->txn_tid) {
		r->txn_tid = e->tid;
		r->txn_start = ev->ts;
	}
	j->ts = ev->ts;
	j->thread = ev->tid;
	j->ktid = e->tid;
	j->credits = e->requested_blocks > 0 ? (uint32_t)e->requested_blocks : 1;
	j->type = (uint8_t)e->type;
	/*
	 * ext4 starts the reserved unwritten-extent conversion (EXT4_HT_EXT_CONVERT)
	 * with jbd2_journal_start_reserved: no ext4_journal_start before it
	 */
	j->reserved = !t->has_js && e->type == 11;
	if (t->has_js && ev->ts >= t->js_ts && ev->ts - t->js_ts < 600000 * MS) {
		j->rsv = t->js_rsv;
		j->rec_wait = ev->ts - t->js_ts;
		j->has_wait = 1;
		j->ts = t->js_ts;	/* the handle asked at journal-start time */
		if (t->js_ino && r->g.inode_size && r->g.block_size >= r->g.inode_size)
			j->key = 1 + (t->js_ino - 1) / (r->g.block_size / r->g.inode_size);
	}
	/* an inode-dirtying handle (EXT4_HT_INODE) of a task reading (atime) */
	j->reader = e->type == 1 &&
		    (t->path_op == FSL_OP_STAT || t->path_op == FSL_OP_READDIR ||
		     t->path_op == FSL_OP_OPEN);
	t->has_js = 0;
	t->last_htid = e->tid;
	t->last_hidx = (int64_t)(r->njin - 1);
	return 0;
}

static int h_handle_stats(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_handle_stats *e = (const void *)ev;
	struct thr *t = rp_thr_get(r, ev->tid);
	struct jin j;

	if (t && t->last_hidx >= 0 && e->dirtied_blocks >= 0 &&
	    jin_get(r, (size_t)t->last_hidx, &j) && j.ktid == e->tid) {
		j.dirtied = (uint32_t)e->dirtied_blocks;
		j.has_stats = 1;
		jin_set(r, (size_t)t->last_hidx, &j);
	}
	return 0;
}

/* Commit i into the sums; the sums see every commit once, in order. */
static void rc_fold(struct fsl_replay *r, const struct rcommit *c)
{
	struct rc_sum *m = &r->rcs;
	uint64_t max_txn = r->max_txn ? r->max_txn : r->g.journal_blocks / 3;
	int reason;

	m->folded++;
	if (c->logging && c->end > c->logging && c->blocks_logged) {
		m->lg += c->end - c->logging;
		m->lb += c->blocks_logged;
	}
	if (c->locking && c->flushing > c->locking) {
		m->lk += c->flushing - c->locking;
		m->nk++;
	}
	if (!c->start)
		return;
	m->recorded++;
	m->by_others += c->by_other;
	if (c->sync)
		reason = FSL_COMMIT_FSYNC;
	else if (c->have_stats && max_txn &&
		 (c->blocks * 5 >= max_txn * 4 || c->blocks + 128 >= max_txn))
		/* full: the next handle's credits would not have fitted */
		reason = FSL_COMMIT_SIZE;
	else if (c->have_stats && r->hz &&
		 c->running_j * 1000000000ull / r->hz >= r->t.commit_ns * 9 / 10)
		reason = FSL_COMMIT_TIMER;
	else
		reason = FSL_COMMIT_SYNC;	/* forced: sync, log space, unmount */
	m->by_reason[reason]++;
	if (c->locking && c->flushing && c->logging && c->end) {
		m->ph[0] += (c->flushing - c->locking) / 1e6;
		m->ph[1] += (c->logging - c->flushing) / 1e6;
		m->ph[2] += (c->end - c->logging) / 1e6;
		m->nph++;
	}
}

/* At the end: the commits still in the ring (the limits come from the start metadata). */
static void rc_fold_rest(struct fsl_replay *r)
{
	while (r->rcs.folded < r->nrc)
		rc_fold(r, &r->rc[r->rcs.folded % RC_KEEP]);
}

static struct rcommit *rc_find(struct fsl_replay *r, uint32_t tid, int create)
{
	size_t i;

	for (i = r->nrc; i-- > 0 && i + 16 >= r->nrc;)
		if (r->rc[i % RC_KEEP].tid == tid)
			return &r->rc[i % RC_KEEP];
	if (!create)
		return NULL;
	/* the oldest leaves the ring: no event can name it any more */
	if (r->nrc >= RC_KEEP)
		rc_fold(r, &r->rc[r->nrc % RC_KEEP]);
	memset(&r->rc[r->nrc % RC_KEEP], 0, sizeof(struct rcommit));
	r->rc[r->nrc % RC_KEEP].tid = tid;
	return &r->rc[r->nrc++ % RC_KEEP];
}

static int h_commit(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_commit *e = (const void *)ev;
	struct rcommit *rc;
	int i;

	/* another filesystem's journal: its tids would be mistaken for ours */
	if (r->target_dev && e->dev != r->target_dev)
		return 0;
	rc = rc_find(r, e->transaction, ev->type == FSL_EV_JBD2_START_COMMIT);
	if (!rc)
		return 0;
	switch (ev->type) {
	case FSL_EV_JBD2_START_COMMIT:
		rc->start = ev->ts;
		rc->sync = e->sync_commit;
		if (r->kick_lost_other && r->txn_tid == e->transaction &&
		    ev->ts - r->txn_start < r->t.commit_ns * 9 / 10) {
			struct jin *j = rp_jin_push(r);

			if (!j)
				return -ENOMEM;
			j->ts = ev->ts;
			j->thread = ev->tid;
			j->kind = 3;
			r->kick_by_other = 1;
		}
		rc->by_other = (uint8_t)r->kick_by_other;
		r->kick_by_other = 0;
		r->kick_lost_other = 0;
		break;
	case FSL_EV_JBD2_COMMIT_LOCKING:
		rc->locking = ev->ts;
		break;
	case FSL_EV_JBD2_COMMIT_FLUSHING:
		rc->flushing = ev->ts;
		break;
	case FSL_EV_JBD2_COMMIT_LOGGING:
		rc->logging = ev->ts;
		break;
	case FSL_EV_JBD2_END_COMMIT:
		rc->end = ev->ts;
		/* blocks this transaction freed are allocatable from now on */
		if (r->have_geom) {
			fsl_alloc__commit(r->ks, e->transaction);
			for (i = 0; i < r->nscen; i++)
				if (r->sc[i].fr)
					fsl_alloc__commit(r->sc[i].fr, e->transaction);
		}
		break;
	}
	return 0;
}

static int h_run_stats(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_run_stats *e = (const void *)ev;
	struct rcommit *rc = r->target_dev && e->dev != r->target_dev ? NULL : rc_find(r, e->tid, 0);

	if (rc) {
		rc->have_stats = 1;
		rc->blocks = e->blocks;
		rc->blocks_logged = e->blocks_logged;
		rc->running_j = e->running;
	}
	return 0;
}

/*
 * A commit asked for by another task's sync(2) or fsync (a system-wide sync
 * run by something else) is not the workload's: it is counted apart, and
 * the models, fed the workload's requests only, do not predict it.
 */
static int h_kick(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_kick *e = (const void *)ev;
	const struct fsl_stack *st = NULL;
	uint8_t k;

	if (ev->size < sizeof(*e) || (r->target_dev && e->dev != r->target_dev))
		return 0;
	if (e->stack_id >= 0 && r->meta && r->meta->stack)
		st = r->meta->stack(r->meta, e->stack_id);
	k = an_kick_of_stack(st);
	/* the commit timer fires on whole seconds of jiffies (round_jiffies_up) */
	if (k == FSL_TRIG_TIMER + 1 && !r->timer_phase_known) {
		r->timer_phase_ns = ev->ts % 1000000000ull;
		r->timer_phase_known = 1;
	}
	if (k == FSL_TRIG_SYNC + 1 || k == FSL_TRIG_FSYNC + 1)
		r->kick_by_other = c->ctx && c->ctx->role >= 0 && c->ctx->role != FSL_ROLE_WORKLOAD;
	else if (k != AN_KICK_NONE)
		r->kick_by_other = 0;
	/*
	 * Its stack lost (both stack maps' buckets held others), from a user
	 * task outside the workload: another's sync, or the commit timer firing
	 * over that task. The commit tells: one of a transaction not yet at
	 * its expiry was not the timer's (h_commit).
	 */
	r->kick_lost_other = k == AN_KICK_NONE && !st && c->ctx && c->ctx->role == FSL_ROLE_OTHER;
	/*
	 * Another task's sync: the models get it too, as the environment of
	 * the run, so the workload's own commits are counted alike on both
	 * sides. The workload's sync(2): the commit is asked for here, after
	 * its writeback, not when the call began.
	 */
	if (r->kick_by_other || (k == FSL_TRIG_SYNC + 1 && c->ctx &&
				 c->ctx->role == FSL_ROLE_WORKLOAD)) {
		struct jin *j = rp_jin_push(r);

		if (!j)
			return -ENOMEM;
		j->ts = ev->ts;
		j->thread = ev->tid;
		j->kind = r->kick_by_other ? 3 : 2;
	}
	return 0;
}

/* The default tier's sums: no handle the model could replay one at a time. */
static int h_handle_agg(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;

	(void)ev;
	r->handle_aggs++;
	return 0;
}

static int h_checkpoint(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_checkpoint *e = (const void *)ev;

	if (r->target_dev && e->dev != r->target_dev)
		return 0;
	r->rec_checkpoints++;
	return 0;
}

static int h_sync_file(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	struct jin *j = rp_jin_push(r);

	if (!j)
		return -ENOMEM;
	j->ts = ev->ts;
	j->thread = ev->tid;
	j->kind = 1;
	return 0;
}

/* ---- end: journal models, free-run summaries ---- */

/*
 * A checkpointed block's cost at the device's recorded throughput: busy time
 * times block size over bytes moved, in integers (a valid trace may hold one
 * request of 9e18 ns: through a double the product overflowed uint64_t).
 * Fewer bytes than a block were recorded: the block costs the whole busy
 * time, as that is the least the device was seen to need for one request.
 */
uint64_t rp_checkpoint_block_ns(uint64_t busy_ns, uint32_t block_size, uint64_t bytes)
{
	unsigned __int128 ns;

	if (!bytes)
		return 100000;
	if (bytes <= block_size)
		return busy_ns;
	ns = (unsigned __int128)busy_ns * block_size / bytes;
	return (uint64_t)ns;	/* less than busy_ns: bytes > block_size */
}

static void journal_costs(struct fsl_replay *r, const struct fsl_disk_profile *p,
			  struct fsl_journal_cfg *jc)
{
	uint64_t lg, lb, lk, nk;

	/* calibrated on the recorded commits */
	rc_fold_rest(r);
	lg = r->rcs.lg;
	lb = r->rcs.lb;
	lk = r->rcs.lk;
	nk = r->rcs.nk;
	jc->write_block_ns = lb ? lg / lb : 50000;
	jc->flush_ns = 0;
	jc->locked_ns = nk ? lk / nk : 20000;
	/*
	 * a checkpoint writes its buffers in batches, many in flight: cost a
	 * block at the device's recorded throughput, not at one request's latency
	 */
	jc->checkpoint_block_ns = rp_checkpoint_block_ns(r->busy_ns, jc->block_size, r->rec_bytes);
	if (p && p->transfer_mbs) {
		double bs = jc->block_size, rot = p->rpm ? 60000.0 / p->rpm : 0;
		double fsb = (double)r->g.blocks_count * bs;

		jc->write_block_ns = (uint64_t)(bs / (p->transfer_mbs * 1e6) * 1e9);
		if (p->rotational) {
			jc->flush_ns = (uint64_t)((p->cmd_overhead_ms + rot / 2) * 1e6);
			jc->checkpoint_block_ns = (uint64_t)((p->cmd_overhead_ms +
				fsl_disk_seek_ms(p, (uint64_t)(fsb / 3)) + rot / 2) * 1e6) +
				jc->write_block_ns;
		} else {
			jc->flush_ns = (uint64_t)(p->ssd_write_us * 1e3);
			jc->checkpoint_block_ns = (uint64_t)(p->ssd_write_us * 1e3) +
						  jc->write_block_ns;
		}
	} else if (p) {		/* ram */
		jc->write_block_ns = jc->flush_ns = jc->checkpoint_block_ns = 0;
	}
}

void rp_journal__run(struct fsl_replay *r, struct scen *s, int base)
{
	struct fsl_journal_cfg jc = { 0 };
	uint32_t first_tid = 1, prev_m = 0, prev_k = 0;
	uint64_t w, shadow0, avg_dirtied[16] = { 0 }, n_dirtied[16] = { 0 }, last_ts = 0;
	uint64_t sync_end = 0;
	struct fsl_map shift;
	struct jin_it *it;
	const struct jin *in;
	size_t i;
	int err = 0, cls;

	fsl_map__init(&shift, sizeof(uint64_t));
	jc.journal_blocks = r->g.journal_blocks;
	jc.block_size = r->g.block_size ? r->g.block_size : 4096;
	if (!base && r->w_journal_bytes)
		jc.journal_blocks = r->w_journal_bytes / (r->w_block_size ? r->w_block_size
									   : jc.block_size);
	if (!base && r->w_block_size) {
		/* same bytes of journal, counted in the new block size */
		if (!r->w_journal_bytes)
			jc.journal_blocks = jc.journal_blocks * jc.block_size / r->w_block_size;
		jc.block_size = r->w_block_size;
	}
	jc.commit_ns = s->t.commit_ns;
	jc.timer_phase_ns = r->timer_phase_ns;
	jc.timer_phase_known = r->timer_phase_known;
	if (r->max_txn && r->g.journal_blocks)
		jc.max_txn_blocks = (uint32_t)(jc.journal_blocks * r->max_txn / r->g.journal_blocks);
	journal_costs(r, base ? NULL : s->prof, &jc);
	if (!r->g.journal_blocks) {
		snprintf(s->jskip, sizeof(s->jskip), "no ext4.journal_blocks in the trace");
		return;
	}
	if (r->no_journal_events) {
		snprintf(s->jskip, sizeof(s->jskip), "the trace has no journal events "
			 "(recorded without -e journal)");
		return;
	}
	if (r->handle_aggs && !r->handle_starts) {
		snprintf(s->jskip, sizeof(s->jskip), "the trace's journal handles are summed per "
			 "transaction (the default tier): record with 'fslens record --full' to "
			 "replay the journal");
		return;
	}
	if (jc.journal_blocks < 1024) {
		/* jbd2 refuses such a journal (JBD2_MIN_JOURNAL_BLOCKS) */
		snprintf(s->jskip, sizeof(s->jskip), "a journal of %llu blocks is below jbd2's "
			 "1024-block minimum", (unsigned long long)jc.journal_blocks);
		return;
	}
	it = malloc(sizeof(*it));
	if (!it) {
		fsl_map__free(&shift);
		return;
	}
	for (jin_it_start(it, r); (in = jin_next(it));)
		if (in->kind == 0) {
			first_tid = in->ktid;
			break;
		}
	s->j = fsl_journal__new(&jc, first_tid, &err);
	if (!s->j) {
		free(it);
		fsl_map__free(&shift);
		return;
	}
	s->jc = jc;
	/* handles whose stats were lost: the mean dirtied count of their type */
	for (jin_it_start(it, r); (in = jin_next(it));)
		if (in->kind == 0 && in->has_stats) {
			avg_dirtied[in->type & 15] += in->dirtied;
			n_dirtied[in->type & 15]++;
		}
	/*
	 * Closed loop: a task that the model makes wait longer (or shorter)
	 * than the kernel did issues its later requests that much later.
	 */
	for (i = 0, jin_it_start(it, r); (in = jin_next(it)); i++) {
		uint32_t d = in->dirtied, mt;
		uint64_t off = 0, ts;

		rp_map_get(&shift, (uint64_t)in->thread + 1, &off);
		ts = in->ts + off;
		if (ts < last_ts)	/* keep the model's clock monotonic */
			ts = last_ts;
		last_ts = ts;
		/* a sync(2) whose commit request (kick) was not seen: at its end */
		if (sync_end && ts >= sync_end) {
			fsl_journal__force(s->j, sync_end, FSL_COMMIT_SYNC, &w);
			sync_end = 0;
		}
		if (in->kind == 4) {
			sync_end = ts + in->rec_wait;
			continue;
		}
		if (in->kind) {
			static const int reason[4] = { 0, FSL_COMMIT_FSYNC, FSL_COMMIT_SYNC,
						       FSL_COMMIT_OTHER };

			if (in->kind == 2)
				sync_end = 0;
			fsl_journal__force(s->j, ts, reason[in->kind & 3], &w);
			continue;
		}
		if (s->noatime && in->reader)
			continue;
		if (!in->has_stats)
			d = n_dirtied[in->type & 15] ?
			    (uint32_t)(avg_dirtied[in->type & 15] / n_dirtied[in->type & 15]) :
			    FSL_JOURNAL_UNKNOWN;
		shadow0 = fsl_journal__stats(s->j)->stall_ns[FSL_JWAIT_SHADOW];
		if (in->reserved) {
			mt = fsl_journal__reserved_start(s->j, ts, in->credits, d);
			w = 0;
			cls = -1;
		} else {
			mt = fsl_journal__handle_rsv(s->j, ts, in->credits, in->rsv, d, in->key,
						     &w, &cls);
		}
		if (w > in->rec_wait)
			rp_map_put(&shift, (uint64_t)in->thread + 1, off + (w - in->rec_wait));
		/*
		 * the recorded wait (journal start -> handle start) covers waits in
		 * start_this_handle only; a shadow wait comes later, inside the handle
		 */
		w -= fsl_journal__stats(s->j)->stall_ns[FSL_JWAIT_SHADOW] - shadow0;
		if (base) {
			if (i > 0 && prev_k) {
				r->jr.same_txn_n++;
				r->jr.same_txn += (prev_k == in->ktid) == (prev_m == mt);
			}
			prev_k = in->ktid;
			prev_m = mt;
			if (in->has_wait) {
				int rec = in->rec_wait > LONG_WAIT_NS, pred = w > LONG_WAIT_NS;

				r->jr.waits_rec += rec;
				r->jr.waits_pred += pred;
				r->jr.waits_tp += rec && pred;
				r->jr.rec_wait_ms_total += in->rec_wait / 1e6;
			}
			r->jr.handles++;
		}
	}
	if (sync_end)
		fsl_journal__force(s->j, sync_end, FSL_COMMIT_SYNC, &w);
	fsl_journal__finish(s->j, r->last_ts > last_ts ? r->last_ts : last_ts);

	free(it);
	fsl_map__free(&shift);
}

void rp_journal__summary(struct fsl_replay *r)
{
	struct fsl_replay_journal *jr = &r->jr;
	const struct fsl_journal_stats *st;
	double ph[3] = { 0 }, pp[3] = { 0 };
	uint64_t nph = 0, npp = 0;
	size_t i;

	rc_fold_rest(r);
	jr->commits_recorded += r->rcs.recorded;
	jr->commits_by_others = r->rcs.by_others;
	for (i = 0; i < FSL_COMMIT__MAX; i++)
		jr->rec_by_reason[i] += r->rcs.by_reason[i];
	memcpy(ph, r->rcs.ph, sizeof(ph));
	nph = r->rcs.nph;
	jr->checkpoints_recorded = r->rec_checkpoints;
	if (!r->sc[0].j)
		return;
	st = fsl_journal__stats(r->sc[0].j);
	/* the workload's: commits other tasks' syncs forced are counted apart */
	jr->commits_predicted = st->commits - st->commits_by_reason[FSL_COMMIT_OTHER];
	memcpy(jr->pred_by_reason, st->commits_by_reason, sizeof(jr->pred_by_reason));
	jr->checkpoints_predicted = st->checkpoints;
	memcpy(jr->stall_ns, st->stall_ns, sizeof(jr->stall_ns));
	memcpy(pp, st->phase_ms, sizeof(pp));
	npp = st->phased;
	for (i = 0; i < 3; i++) {
		jr->rec_phase_ms[i] = nph ? ph[i] / nph : 0;
		jr->pred_phase_ms[i] = npp ? pp[i] / npp : 0;
	}
}


void rp_journal__handlers(struct fsl_consumer *c)
{
	c->handlers[FSL_EV_EXT4_JOURNAL_START_INODE] = h_journal_start;
	c->handlers[FSL_EV_EXT4_JOURNAL_START_SB] = h_journal_start;
	c->handlers[FSL_EV_JBD2_HANDLE_START] = h_handle_start;
	c->handlers[FSL_EV_JBD2_HANDLE_STATS] = h_handle_stats;
	c->handlers[FSL_EV_JBD2_HANDLE_AGG] = h_handle_agg;
	c->handlers[FSL_EV_JBD2_START_COMMIT] = h_commit;
	c->handlers[FSL_EV_JBD2_COMMIT_LOCKING] = h_commit;
	c->handlers[FSL_EV_JBD2_COMMIT_FLUSHING] = h_commit;
	c->handlers[FSL_EV_JBD2_COMMIT_LOGGING] = h_commit;
	c->handlers[FSL_EV_JBD2_END_COMMIT] = h_commit;
	c->handlers[FSL_EV_JBD2_RUN_STATS] = h_run_stats;
	c->handlers[FSL_EV_JBD2_CHECKPOINT] = h_checkpoint;
	c->handlers[FSL_EV_JBD2_KICK] = h_kick;
	c->handlers[FSL_EV_EXT4_SYNC_FILE_ENTER] = h_sync_file;
}
