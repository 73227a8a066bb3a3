// SPDX-License-Identifier: GPL-2.0
/*
 * Journal: jbd2 transactions from their phase events (start, locking,
 * flushing, logging, end) and run statistics, what triggered each commit,
 * handle-start waits per call site, checkpoints and lock-buffer stalls.
 * What the journal carried by handle site: jbd2_handle_stats gives each
 * stopped handle's credits used, the buffers it first added to its
 * transaction, which is how jbd2 counts the transaction's t_nr_buffers
 * (run_stats' blocks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/text.h"
#include "analyses.h"

#define AN_DEFAULT_COMMIT_NS	5000000000ull	/* ext4 commit=5 */
#define AN_TXN_SITES		16

struct an_open_txn {
	struct fsl_txn t;
	uint8_t kick;			/* what woke the jbd2 thread for it (KICK_*), 0 none */
	uint8_t fsync_inflight;		/* an fsync was waiting when the commit started */
	uint8_t log_space;		/* a checkpoint or log-space wait since the previous commit */
	uint8_t full;			/* a task found the transaction full before it */
	uint8_t ended;			/* end_commit seen (copy is in the ring) */
	uint8_t counted;		/* counted in the window */
	uint64_t stats_ts;		/* its jbd2_run_stats, 0 not seen yet */
	/* the transaction's sites by blocks dirtied (first AN_TXN_SITES seen) */
	unsigned int nts;
	struct { uint32_t type, line, blocks; } ts[AN_TXN_SITES];
};

struct an_pending_handle {	/* ext4_journal_start, per thread */
	uint64_t ts, ip;
	int32_t type;
};

struct an_site {
	struct fsl_handle_site s;
};

struct an_journal {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map open;		/* dev<<32|tid -> an_open_txn */
	struct fsl_map pending;		/* thread -> an_pending_handle */
	struct fsl_map sites;		/* type<<32|line -> an_site */
	struct fsl_map fsyncs;		/* thread -> depth of ext4_sync_file in progress */
	uint64_t fsync_inflight;
	uint8_t kick;			/* the latest kick since the previous commit started */
	uint64_t checkpoints_since_commit;
	uint64_t prev_start, prev_flushing;	/* of the previous commit */
	uint64_t ewma;			/* persists across windows, like the kernel's */
	uint64_t commit_interval_ns;
	uint64_t max_txn_blocks;	/* from /proc/fs/jbd2 info, 0 unknown */
	unsigned int ring_head;		/* next slot in res.txns */
	struct fsl_journal res;
};

const char *fsl_trigger_name(unsigned int trig)
{
	static const char *const n[FSL_TRIG__MAX] = {
		"unknown", "timer", "fsync", "full", "log_space", "sync",
	};

	return trig < FSL_TRIG__MAX ? n[trig] : "?";
}

static uint64_t txn_key(uint32_t dev, uint32_t tid)
{
	return (uint64_t)dev << 32 | tid;
}

static int on_kick(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_kick *ev = (const void *)h;
	const struct fsl_meta *m = s->c->meta;
	const struct fsl_stack *st = NULL;
	uint8_t k;

	if (h->size < sizeof(*ev))
		return 0;
	if (ev->stack_id >= 0 && m && m->stack)
		st = m->stack(m, ev->stack_id);
	k = an_kick_of_stack(st);
	if (an_in_window(&s->c->win, h->ts)) {
		s->res.kicks++;
		if (k == AN_KICK_NONE)
			s->res.kicks_unread++;
	}
	/* the latest kick: a timer wake that found nothing expired is followed by the real one */
	if (k != AN_KICK_NONE)
		s->kick = k;
	return 0;
}

unsigned int fsl_trigger_decide(unsigned int kick, unsigned int f)
{
	if (kick == AN_KICK_STOP)
		return f & (FSL_TRIGF_OLD | FSL_TRIGF_NOSTATS) ? FSL_TRIG_TIMER : FSL_TRIG_SYNC;
	if (kick != AN_KICK_NONE && kick <= FSL_TRIG__MAX)
		return kick - 1;
	/*
	 * No kick: the jbd2 thread was busy with the previous commit when
	 * this one was asked for, so no wake-up says who asked. Guess from
	 * what was waiting.
	 */
	if (f & FSL_TRIGF_LOG_SPACE)
		return FSL_TRIG_LOG_SPACE;
	if (f & FSL_TRIGF_FSYNC)
		return FSL_TRIG_FSYNC;
	if (f & FSL_TRIGF_FULL)
		return FSL_TRIG_FULL;
	if (f & FSL_TRIGF_OLD)
		return FSL_TRIG_TIMER;
	if (f & FSL_TRIGF_SYNC_COMMIT)
		return FSL_TRIG_SYNC;
	return FSL_TRIG_UNKNOWN;
}

static void decide_trigger(struct an_journal *s, struct an_open_txn *o)
{
	struct fsl_txn *t = &o->t;
	unsigned int f = 0;

	if (o->log_space)
		f |= FSL_TRIGF_LOG_SPACE;
	if (o->fsync_inflight)
		f |= FSL_TRIGF_FSYNC;
	if (o->full || (t->have_stats && s->max_txn_blocks &&
			(uint64_t)t->blocks * 10 >= s->max_txn_blocks * 9))
		f |= FSL_TRIGF_FULL;
	if (t->have_stats && t->running_ns + 2 * an_jiffies_ns(s->c, 1) >= s->commit_interval_ns)
		f |= FSL_TRIGF_OLD;
	if (!t->have_stats)
		f |= FSL_TRIGF_NOSTATS;
	if (t->sync_commit)
		f |= FSL_TRIGF_SYNC_COMMIT;
	t->kicked = o->kick != AN_KICK_NONE;
	t->trigger = fsl_trigger_decide(o->kick, f);
}

/* Find the ring copy of a transaction that already ended (recent ones only). */
static struct fsl_txn *ring_find(struct an_journal *s, uint32_t dev, uint32_t tid)
{
	unsigned int i, idx;

	for (i = 0; i < s->res.ntxns && i < 16; i++) {
		idx = (s->ring_head + FSL_TXN_RING - 1 - i) % FSL_TXN_RING;
		if (s->res.txns[idx].dev == dev && s->res.txns[idx].tid == tid)
			return &s->res.txns[idx];
	}
	return NULL;
}

static void add_stats_sums(struct an_journal *s, const struct fsl_txn *t)
{
	s->res.stats_txns++;
	s->res.sum_running_ns += t->running_ns;
	s->res.sum_locked_ns += t->locked_ns;
	s->res.sum_flushing_ns += t->flushing_ns;
	s->res.sum_logging_ns += t->logging_ns;
	s->res.sum_handles += t->handles;
	s->res.sum_blocks += t->blocks;
	s->res.sum_blocks_logged += t->blocks_logged;
}

static int on_commit(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_commit *ev = (const void *)h;
	uint64_t key = txn_key(ev->dev, ev->transaction);
	struct an_open_txn *o;
	int fresh;

	o = fsl_map__put(&s->open, key, &fresh);
	if (!o)
		return -ENOMEM;
	if (fresh) {
		o->t.dev = ev->dev;
		o->t.tid = ev->transaction;
	}
	switch (h->type) {
	case FSL_EV_JBD2_START_COMMIT: {
		const uint64_t *lw = s->c->cx->last_wait_start;

		o->t.t_start = h->ts;
		o->t.sync_commit = ev->sync_commit;
		o->kick = s->kick;
		s->kick = AN_KICK_NONE;
		/*
		 * Why now? Waits are recorded with their start time, so the waits
		 * that began before this commit have been seen: a task waiting for
		 * log space since the previous commit started, or one that found
		 * the running transaction full (a locked-transaction wait before
		 * this commit and after the previous one stopped locking), or an
		 * fsync in progress.
		 */
		o->fsync_inflight = s->fsync_inflight > 0 ||
				    (lw[FSL_WC_COMMIT_WAIT] > s->prev_start && lw[FSL_WC_COMMIT_WAIT] <= h->ts);
		o->log_space = s->checkpoints_since_commit > 0 ||
			       (lw[FSL_WC_JOURNAL_LOG_SPACE] > s->prev_start &&
				lw[FSL_WC_JOURNAL_LOG_SPACE] <= h->ts);
		o->full = lw[FSL_WC_TXN_LOCKED] > s->prev_flushing && lw[FSL_WC_TXN_LOCKED] <= h->ts;
		s->prev_start = h->ts;
		s->prev_flushing = h->ts;
		break;
	}
	case FSL_EV_JBD2_COMMIT_LOCKING:
		o->t.t_locking = h->ts;
		break;
	case FSL_EV_JBD2_COMMIT_FLUSHING:
		o->t.t_flushing = h->ts;
		s->prev_flushing = h->ts;
		break;
	case FSL_EV_JBD2_COMMIT_LOGGING:
		o->t.t_logging = h->ts;
		break;
	case FSL_EV_JBD2_END_COMMIT: {
		uint64_t ns = o->t.t_start && h->ts >= o->t.t_start ? h->ts - o->t.t_start : 0;
		unsigned int bin, folds;

		o->t.t_end = h->ts;
		s->checkpoints_since_commit = 0;
		/*
		 * The kernel's running average times a commit from its flushing
		 * phase (after the wait for open handles) to just after
		 * jbd2_run_stats, before the filesystem's commit callback that
		 * end_commit follows: the same span here, where it was seen.
		 */
		if (o->t.t_start) {
			uint64_t from = o->t.t_flushing ? o->t.t_flushing : o->t.t_start;
			uint64_t to = o->stats_ts && o->stats_ts <= h->ts ? o->stats_ts : h->ts;
			uint64_t kns = to > from ? to - from : 0;

			s->ewma = s->ewma ? (kns + 3 * s->ewma) / 4 : kns;
		}
		decide_trigger(s, o);
		o->ended = 1;
		if (an_in_window(&s->c->win, h->ts)) {
			o->counted = 1;
			s->res.commits++;
			if (o->t.t_start)
				fsl_hist_add(&s->res.commit_ns, ns);
			s->res.trig[o->t.trigger]++;
			if (!o->t.kicked)
				s->res.trig_guessed++;
			if (o->t.have_stats)
				add_stats_sums(s, &o->t);
			if (o->t.t_locking && o->t.t_flushing >= o->t.t_locking &&
			    o->t.t_logging >= o->t.t_flushing && h->ts >= o->t.t_logging) {
				s->res.phase_txns++;
				s->res.sum_locked_phase_ns += o->t.t_flushing - o->t.t_locking;
				s->res.sum_flushing_phase_ns += o->t.t_logging - o->t.t_flushing;
				s->res.sum_logging_phase_ns += h->ts - o->t.t_logging;
			}
			s->res.txns[s->ring_head] = o->t;
			s->ring_head = (s->ring_head + 1) % FSL_TXN_RING;
			if (s->res.ntxns < FSL_TXN_RING)
				s->res.ntxns++;
			bin = an_tb_bin(&s->res.tb, s->c->origin, h->ts, &folds);
			if (folds) {
				an_fold_sum(s->res.series_commits, folds);
				an_fold_sum(s->res.series_commit_ns, folds);
			}
			s->res.series_commits[bin]++;
			s->res.series_commit_ns[bin] += ns;
		}
		if (o->t.have_stats) {
			fsl_map__del(&s->open, key);
		} else {
			/* Stats may follow end_commit; never wait for them long. */
			struct an_open_txn *old = fsl_map__get(&s->open, txn_key(ev->dev,
								  ev->transaction - 16));

			if (old && old->ended)
				fsl_map__del(&s->open, txn_key(ev->dev, ev->transaction - 16));
		}
		break;
	}
	}
	return 0;
}

static int on_run_stats(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_run_stats *ev = (const void *)h;
	uint64_t key = txn_key(ev->dev, ev->tid);
	struct an_open_txn *o = fsl_map__get(&s->open, key);
	struct fsl_txn *t, *ring = NULL;

	if (!o) {
		o = fsl_map__put(&s->open, key, NULL);
		if (!o)
			return -ENOMEM;
		o->t.dev = ev->dev;
		o->t.tid = ev->tid;
	}
	t = &o->t;
	if (!o->ended)
		o->stats_ts = h->ts;
	t->have_stats = 1;
	t->wait_ns = an_jiffies_ns(s->c, ev->wait);
	t->request_delay_ns = an_jiffies_ns(s->c, ev->request_delay);
	t->running_ns = an_jiffies_ns(s->c, ev->running);
	t->locked_ns = an_jiffies_ns(s->c, ev->locked);
	t->flushing_ns = an_jiffies_ns(s->c, ev->flushing);
	t->logging_ns = an_jiffies_ns(s->c, ev->logging);
	t->handles = ev->handle_count;
	t->blocks = ev->blocks;
	t->blocks_logged = ev->blocks_logged;
	if (o->ended) {
		/* Stats after end_commit: update the counted copy, then forget it. */
		unsigned int old = t->trigger;

		decide_trigger(s, o);
		if (o->counted && (ring = ring_find(s, ev->dev, ev->tid))) {
			*ring = *t;
			add_stats_sums(s, t);
			s->res.trig[old]--;
			s->res.trig[t->trigger]++;
		}
		fsl_map__del(&s->open, key);
	}
	return 0;
}

static int on_journal_start(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_ext4_journal_start *ev = (const void *)h;
	struct an_pending_handle *p = fsl_map__put(&s->pending, h->tid, NULL);

	if (!p)
		return -ENOMEM;
	p->ts = h->ts;
	p->ip = ev->ip;
	p->type = ev->type;
	return 0;
}

static struct an_site *site_get(struct an_journal *s, uint32_t type, uint32_t line)
{
	struct an_site *site = fsl_map__put(&s->sites, (uint64_t)type << 32 | line, NULL);

	if (site) {
		site->s.type = type;
		site->s.line = line;
	}
	return site;
}

static int on_handle_start(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_handle_start *ev = (const void *)h;
	struct an_pending_handle *p = fsl_map__get(&s->pending, h->tid);
	uint64_t wait = 0, ip = 0;
	struct an_site *site;

	if (p) {
		wait = h->ts >= p->ts ? h->ts - p->ts : 0;
		ip = p->ip;
		fsl_map__del(&s->pending, h->tid);
	}
	/* the default tier's record of a handle its transaction's sums hold */
	if (fsl_hs_in_agg(h))
		return 0;
	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.handles++;
	site = site_get(s, ev->type, ev->line_no);
	if (!site)
		return -ENOMEM;
	site->s.count++;
	site->s.wait_ns += wait;
	if (wait > site->s.max_ns)
		site->s.max_ns = wait;
	if (ip && !site->s.ip)
		site->s.ip = ip;
	return 0;
}

/* Blocks a transaction's handles of one site dirtied: its sums, and its busiest site. */
static int txn_add_stopped(struct an_journal *s, uint32_t dev, uint32_t tid, uint32_t type,
			   uint32_t line, uint64_t handles, uint64_t blocks)
{
	struct an_open_txn *o;
	struct fsl_txn *t;
	unsigned int i;

	/* into its transaction, counted when the transaction ends in the window */
	o = fsl_map__put(&s->open, txn_key(dev, tid), NULL);
	if (!o)
		return -ENOMEM;
	t = &o->t;
	t->dev = dev;
	t->tid = tid;
	t->stats_handles += handles;
	t->dirtied += blocks;
	for (i = 0; i < o->nts; i++)
		if (o->ts[i].type == type && o->ts[i].line == line)
			break;
	if (i == o->nts && o->nts < AN_TXN_SITES)
		o->nts++;
	if (i < o->nts) {
		o->ts[i].type = type;
		o->ts[i].line = line;
		o->ts[i].blocks += blocks;
		/* a tie goes to the lower (type, line), whatever the order the sums came in */
		if (o->ts[i].blocks > t->top_blocks ||
		    (o->ts[i].blocks == t->top_blocks && blocks &&
		     ((uint64_t)type << 32 | line) < ((uint64_t)t->top_type << 32 | t->top_line))) {
			t->top_blocks = o->ts[i].blocks;
			t->top_type = type;
			t->top_line = line;
		}
	}
	return 0;
}

static int on_handle_stats(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_handle_stats *ev = (const void *)h;
	uint32_t blocks = ev->dirtied_blocks > 0 ? ev->dirtied_blocks : 0;
	struct an_site *site;

	if (txn_add_stopped(s, ev->dev, ev->tid, ev->type, ev->line_no, 1, blocks))
		return -ENOMEM;
	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.handles_stopped++;
	s->res.dirtied += blocks;
	site = site_get(s, ev->type, ev->line_no);
	if (!site)
		return -ENOMEM;
	site->s.stopped++;
	site->s.blocks += blocks;
	return 0;
}

/*
 * The default tier's sums of one transaction's handles at one site, written
 * when the transaction's handles had all stopped: its starts, their waits
 * and its stopped handles count where the record is.
 */
static int on_handle_agg(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_handle_agg *ev = (const void *)h;
	struct an_site *site;

	if (h->size < sizeof(*ev))
		return 0;
	if (txn_add_stopped(s, ev->dev, ev->tid, ev->type, ev->line_no, ev->stopped, ev->blocks))
		return -ENOMEM;
	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.handles += ev->started;
	s->res.handles_stopped += ev->stopped;
	s->res.dirtied += ev->blocks;
	site = site_get(s, ev->type, ev->line_no);
	if (!site)
		return -ENOMEM;
	site->s.count += ev->started;
	site->s.wait_ns += ev->wait_ns;
	if (ev->max_ns > site->s.max_ns)
		site->s.max_ns = ev->max_ns;
	if (ev->ip && !site->s.ip)
		site->s.ip = ev->ip;
	site->s.stopped += ev->stopped;
	site->s.blocks += ev->blocks;
	return 0;
}

static int on_checkpoint(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;

	s->checkpoints_since_commit++;
	if (an_in_window(&s->c->win, h->ts))
		s->res.checkpoints++;
	return 0;
}

static int on_checkpoint_stats(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_checkpoint_stats *ev = (const void *)h;

	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.chp_time_ns += an_jiffies_ns(s->c, ev->chp_time);
	s->res.chp_written += ev->written;
	s->res.chp_dropped += ev->dropped;
	return 0;
}

static int on_lock_buffer_stall(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_lock_buffer_stall *ev = (const void *)h;

	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.lock_buffer_stalls++;
	s->res.lock_buffer_stall_ns += ev->stall_ms * 1000000ull;
	return 0;
}

static int on_log_tail(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	const struct fsl_ev_jbd2_update_log_tail *ev = (const void *)h;

	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	s->res.log_tail_updates++;
	s->res.log_tail_freed += ev->freed;
	return 0;
}

static int on_sync_file(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_journal *s = cons->priv;
	uint64_t *depth;

	if (h->type == FSL_EV_EXT4_SYNC_FILE_ENTER) {
		depth = fsl_map__put(&s->fsyncs, h->tid, NULL);
		if (!depth)
			return -ENOMEM;
		(*depth)++;
		s->fsync_inflight++;
	} else if ((depth = fsl_map__get(&s->fsyncs, h->tid)) && *depth) {
		if (!--*depth)
			fsl_map__del(&s->fsyncs, h->tid);
		s->fsync_inflight--;
	}
	return 0;
}

static void journal_seed(struct an_journal *s, uint64_t ewma_ns, uint64_t max_blocks)
{
	if (ewma_ns)
		s->ewma = ewma_ns;
	if (max_blocks)
		s->max_txn_blocks = max_blocks;
}

/*
 * Seed from /proc/fs/jbd2/<dev>/info as recorded: the kernel's commit-time
 * average and the transaction limit at the start (else the limit at the end).
 */
static int journal_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct an_journal *s = cons->priv;
	struct fsl_jbd2_info ji;
	uint64_t v;

	v = fsl_meta__u64(m, FSL_KV_COMMIT_INTERVAL_S, 0);
	if (v)
		s->commit_interval_ns = v * 1000000000ull;
	if (!fsl_meta__get_u64(m, FSL_KV_JBD2_MAX_TXN_BUFFERS, &v))
		s->max_txn_blocks = v;
	if (!fsl_meta__jbd2_info(m, FSL_JBD2_START, &ji))
		journal_seed(s, ji.avg_commit_us * 1000, ji.max_blocks);
	else if (!fsl_meta__jbd2_info(m, FSL_JBD2_END, &ji))
		journal_seed(s, 0, ji.max_blocks);
	return 0;
}

struct an_journal *an_journal_new(struct an_ctx *c)
{
	struct an_journal *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	s->commit_interval_ns = AN_DEFAULT_COMMIT_NS;
	fsl_map__init(&s->open, sizeof(struct an_open_txn));
	fsl_map__init(&s->pending, sizeof(struct an_pending_handle));
	fsl_map__init(&s->sites, sizeof(struct an_site));
	fsl_map__init(&s->fsyncs, sizeof(uint64_t));
	s->cons.name = "journal";
	s->cons.priv = s;
	s->cons.begin = journal_begin;
	s->cons.handlers[FSL_EV_JBD2_START_COMMIT] = on_commit;
	s->cons.handlers[FSL_EV_JBD2_COMMIT_LOCKING] = on_commit;
	s->cons.handlers[FSL_EV_JBD2_COMMIT_FLUSHING] = on_commit;
	s->cons.handlers[FSL_EV_JBD2_COMMIT_LOGGING] = on_commit;
	s->cons.handlers[FSL_EV_JBD2_END_COMMIT] = on_commit;
	s->cons.handlers[FSL_EV_JBD2_RUN_STATS] = on_run_stats;
	s->cons.handlers[FSL_EV_EXT4_JOURNAL_START_INODE] = on_journal_start;
	s->cons.handlers[FSL_EV_EXT4_JOURNAL_START_SB] = on_journal_start;
	s->cons.handlers[FSL_EV_JBD2_HANDLE_START] = on_handle_start;
	s->cons.handlers[FSL_EV_JBD2_HANDLE_STATS] = on_handle_stats;
	s->cons.handlers[FSL_EV_JBD2_HANDLE_AGG] = on_handle_agg;
	s->cons.handlers[FSL_EV_JBD2_CHECKPOINT] = on_checkpoint;
	s->cons.handlers[FSL_EV_JBD2_CHECKPOINT_STATS] = on_checkpoint_stats;
	s->cons.handlers[FSL_EV_JBD2_LOCK_BUFFER_STALL] = on_lock_buffer_stall;
	s->cons.handlers[FSL_EV_JBD2_UPDATE_LOG_TAIL] = on_log_tail;
	s->cons.handlers[FSL_EV_JBD2_KICK] = on_kick;
	s->cons.handlers[FSL_EV_EXT4_SYNC_FILE_ENTER] = on_sync_file;
	s->cons.handlers[FSL_EV_EXT4_SYNC_FILE_EXIT] = on_sync_file;
	return s;
}

void an_journal_free(struct an_journal *s)
{
	if (!s)
		return;
	fsl_map__free(&s->open);
	fsl_map__free(&s->pending);
	fsl_map__free(&s->sites);
	fsl_map__free(&s->fsyncs);
	free(s);
}

void an_journal_reset(struct an_journal *s)
{
	struct an_open_txn *o;
	size_t it = 0;

	memset(&s->res, 0, sizeof(s->res));
	s->ring_head = 0;
	fsl_map__clear(&s->sites);
	/* Ended transactions waiting for their stats belong to the old window. */
	while ((o = fsl_map__next(&s->open, &it, NULL)))
		o->counted = 0;
}

struct fsl_consumer *an_journal_consumer(struct an_journal *s)
{
	return &s->cons;
}

static int site_cmp(const void *x, const void *y)
{
	const struct fsl_handle_site *a = x, *b = y;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns < b->wait_ns ? 1 : -1;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int contents_cmp(const void *x, const void *y)
{
	const struct fsl_handle_site *a = x, *b = y;

	if (a->blocks != b->blocks)
		return a->blocks < b->blocks ? 1 : -1;
	if (a->stopped != b->stopped)
		return a->stopped < b->stopped ? 1 : -1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* The n sites first by cmp, of the map (a small insertion sort). */
static unsigned int top_sites(struct an_journal *s, struct fsl_handle_site *out,
			      int (*cmp)(const void *, const void *), int stopped_only)
{
	struct an_site *site;
	size_t it = 0;
	unsigned int n = 0;

	while ((site = fsl_map__next(&s->sites, &it, NULL))) {
		if (stopped_only && !site->s.stopped)
			continue;
		if (n < FSL_HANDLE_SITES) {
			out[n++] = site->s;
			qsort(out, n, sizeof(out[0]), cmp);
		} else if (cmp(&site->s, &out[n - 1]) < 0) {
			out[n - 1] = site->s;
			qsort(out, n, sizeof(out[0]), cmp);
		}
	}
	return n;
}

const struct fsl_journal *an_journal_result(struct an_journal *s)
{
	struct fsl_txn tmp[FSL_TXN_RING];

	/* Sites: keep the FSL_HANDLE_SITES with the most wait, and with the most blocks. */
	s->res.nsites = top_sites(s, s->res.sites, site_cmp, 0);
	s->res.ncontents = top_sites(s, s->res.contents, contents_cmp, 1);
	s->res.ewma_commit_ns = s->ewma;
	/* Present the ring oldest first, starting at index 0. */
	if (s->res.ntxns == FSL_TXN_RING && s->ring_head) {
		memcpy(tmp, s->res.txns + s->ring_head, (FSL_TXN_RING - s->ring_head) * sizeof(tmp[0]));
		memcpy(tmp + FSL_TXN_RING - s->ring_head, s->res.txns, s->ring_head * sizeof(tmp[0]));
		memcpy(s->res.txns, tmp, sizeof(tmp));
		s->ring_head = 0;
	}
	return &s->res;
}
