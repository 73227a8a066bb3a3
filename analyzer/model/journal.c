// SPDX-License-Identifier: GPL-2.0
/*
 * A model of the jbd2 journal as ext4 drives it: one running transaction
 * collecting handles, at most one committing (locked -> flush -> logging),
 * committed transactions waiting to be checkpointed, and a circular log
 * whose free space gates every new handle. Written from fs/jbd2's
 * documented behaviour; see docs/model.md for what is simplified.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/model.h"

#define MIN_LOG_RESERVED	32	/* blocks kept back for descriptors */
#define NKEYS			64	/* buffers remembered per transaction */
#define CLEAN_AFTER_NS		35000000000ull	/* metadata written back by the flusher */

struct txn {
	uint32_t tid;
	uint64_t start_ns;
	uint64_t expires_ns;	/* t_expires: a handle stopping after it asks for the commit */
	uint64_t timer_ns;	/* when the commit timer fires (expiry rounded up) */
	uint64_t outstanding;	/* credits: blocks the transaction may log */
	uint32_t handles;
	uint64_t keys[NKEYS];
	uint32_t nkeys;
	int active;
};

struct cp {			/* a committed transaction not yet checkpointed */
	uint32_t tid;
	uint64_t log_blocks;	/* log space it holds */
	uint64_t dirty;		/* blocks a checkpoint has to write */
	uint64_t clean_ns;	/* when writeback will have cleaned them anyway */
};

struct fsl_journal {
	struct fsl_journal_cfg c;
	uint64_t max_txn;
	int64_t free;		/* free log blocks */
	struct txn run;		/* running */
	struct txn com;		/* committing (active = 1 while in progress) */
	struct fsl_journal_commit cur;	/* phases of com */
	uint32_t next_tid;
	uint64_t now;
	uint64_t cp_busy_until;	/* a checkpoint in progress stalls everyone */
	struct cp *cps;
	size_t ncp, ccp;
	struct fsl_journal_commit *commits;
	size_t ncommits, ccommits;
	struct fsl_journal_stats st;
	int pending_reason;	/* a commit requested while another runs (-1 none) */
	uint64_t reserved;	/* credits reserved for handles not started yet */
	uint64_t pending_at;
};

static const char *const reason_names[FSL_COMMIT__MAX] = {
	"timer", "size", "fsync", "sync", "log_space", "end", "others_sync",
};
static const char *const wait_names[FSL_JWAIT__MAX] = {
	"journal_log_space", "transaction_locked", "buffer_under_commit", "commit_wait",
};

const char *fsl_commit_reason_name(int r)
{
	return r >= 0 && r < FSL_COMMIT__MAX ? reason_names[r] : "?";
}

const char *fsl_jwait_name(int c)
{
	return c >= 0 && c < FSL_JWAIT__MAX ? wait_names[c] : "?";
}

struct fsl_journal *fsl_journal__new(const struct fsl_journal_cfg *cfg, uint32_t first_tid,
				     int *err)
{
	struct fsl_journal *j;

	if (!cfg->journal_blocks || cfg->journal_blocks < 1024) {
		*err = -EINVAL;
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		*err = -ENOMEM;
		return NULL;
	}
	j->c = *cfg;
	if (!j->c.commit_ns)
		j->c.commit_ns = 5000000000ull;
	/* 6.x: a third of the journal ("each up to N blocks" in /proc/fs/jbd2/DEV/info) */
	j->max_txn = cfg->max_txn_blocks ? cfg->max_txn_blocks : cfg->journal_blocks / 3;
	j->free = (int64_t)cfg->journal_blocks;
	j->next_tid = first_tid;
	j->pending_reason = -1;
	return j;
}

void fsl_journal__free(struct fsl_journal *j)
{
	if (!j)
		return;
	free(j->cps);
	free(j->commits);
	free(j);
}

/* jbd2_log_space_left: free log blocks, less a reserve and the commit in flight */
static int64_t space_left(const struct fsl_journal *j)
{
	int64_t left = j->free - MIN_LOG_RESERVED;

	if (j->com.active)
		left -= (int64_t)j->com.outstanding;
	return left > 0 ? left : 0;
}

/* Credits a new transaction starts with: its descriptor blocks. */
static uint64_t desc_blocks(const struct fsl_journal *j)
{
	uint64_t tags = j->c.block_size > 16 ? (j->c.block_size - 16) / 16 : 1;

	return (j->max_txn + tags - 1) / tags;
}

/* Log blocks a commit of n metadata blocks uses: descriptors, data, commit block. */
static uint64_t log_blocks(const struct fsl_journal *j, uint64_t n)
{
	uint64_t tags = j->c.block_size ? j->c.block_size / 16 : 256;

	return n + (n + tags - 1) / tags + 1;
}

/* Finish the committing transaction (at its end time). */
static void commit_done(struct fsl_journal *j)
{
	struct cp *cp;

	if (!j->com.active)
		return;
	/* the phases of every commit are summed; the list keeps the first ones */
	j->st.phase_ms[0] += (j->cur.locked_end_ns - j->cur.start_ns) / 1e6;
	j->st.phase_ms[1] += (j->cur.flush_end_ns - j->cur.locked_end_ns) / 1e6;
	j->st.phase_ms[2] += (j->cur.end_ns - j->cur.flush_end_ns) / 1e6;
	j->st.phased++;
	if (j->ncommits == j->ccommits && j->ccommits < FSL_JOURNAL_KEEP_COMMITS) {
		size_t n = j->ccommits ? j->ccommits * 2 : 64;
		void *p = realloc(j->commits, n * sizeof(*j->commits));

		if (p) {
			j->commits = p;
			j->ccommits = n;
		}
	}
	if (j->ncommits < j->ccommits)
		j->commits[j->ncommits++] = j->cur;
	if (j->ncp == j->ccp) {
		size_t n = j->ccp ? j->ccp * 2 : 64;
		void *p = realloc(j->cps, n * sizeof(*j->cps));

		if (p) {
			j->cps = p;
			j->ccp = n;
		}
	}
	if (j->ncp < j->ccp) {
		cp = &j->cps[j->ncp++];
		cp->tid = j->com.tid;
		cp->log_blocks = log_blocks(j, j->cur.blocks);
		cp->dirty = j->cur.blocks;
		cp->clean_ns = j->cur.end_ns + CLEAN_AFTER_NS;
	}
	j->st.commits++;
	j->st.commits_by_reason[j->cur.reason]++;
	j->com.active = 0;
}

/* Release log space of checkpointed-clean transactions at the tail. */
static void clean_tail(struct fsl_journal *j, uint64_t now)
{
	size_t k = 0;

	while (k < j->ncp && j->cps[k].clean_ns <= now) {
		j->free += (int64_t)j->cps[k].log_blocks;
		k++;
	}
	if (k) {
		memmove(j->cps, j->cps + k, (j->ncp - k) * sizeof(*j->cps));
		j->ncp -= k;
	}
}

/* Start committing the running transaction at time t. */
static void commit_start(struct fsl_journal *j, uint64_t t, int reason)
{
	uint64_t blocks, lb;

	if (!j->run.active)
		return;
	j->com = j->run;
	memset(&j->run, 0, sizeof(j->run));
	/* reserved credits are not this transaction's buffers: they move to the next */
	blocks = j->com.outstanding > desc_blocks(j) + j->reserved ?
		 j->com.outstanding - desc_blocks(j) - j->reserved : 0;
	lb = log_blocks(j, blocks);
	memset(&j->cur, 0, sizeof(j->cur));
	j->cur.tid = j->com.tid;
	j->cur.reason = reason;
	j->cur.handles = j->com.handles;
	j->cur.blocks = (uint32_t)blocks;
	j->cur.start_ns = t;
	j->cur.locked_end_ns = t + j->c.locked_ns;
	j->cur.flush_end_ns = j->cur.locked_end_ns;
	j->cur.end_ns = j->cur.flush_end_ns + lb * j->c.write_block_ns + j->c.flush_ns;
	j->free -= (int64_t)lb;
	j->com.active = 1;
}

/* Move time to ts: finish commits, fire commit timers, start pending commits. */
static void advance(struct fsl_journal *j, uint64_t ts)
{
	for (;;) {
		uint64_t t_end = j->com.active ? j->cur.end_ns : UINT64_MAX;
		uint64_t t_exp = j->run.active ? j->run.timer_ns : UINT64_MAX;

		if (j->com.active && t_end <= ts) {
			commit_done(j);
			if (j->pending_reason >= 0 && j->run.active) {
				int r = j->pending_reason;

				j->pending_reason = -1;
				commit_start(j, t_end, r);
			} else {
				j->pending_reason = -1;
			}
			continue;
		}
		if (!j->com.active && j->run.active && t_exp <= ts) {
			commit_start(j, t_exp, FSL_COMMIT_TIMER);
			continue;
		}
		break;
	}
	if (ts > j->now)
		j->now = ts;
	clean_tail(j, j->now);
}

void fsl_journal__advance(struct fsl_journal *j, uint64_t ts)
{
	advance(j, ts);
}

/* Request a commit of the running transaction at t; returns when it will end. */
static uint64_t request_commit(struct fsl_journal *j, uint64_t t, int reason)
{
	if (!j->run.active)
		return j->com.active ? j->cur.end_ns : t;
	if (!j->com.active) {
		commit_start(j, t, reason);
		return j->cur.end_ns;
	}
	/* serialised behind the commit in progress */
	if (j->pending_reason < 0)
		j->pending_reason = reason;
	{
		uint64_t lb = log_blocks(j, j->run.outstanding);	/* an upper bound */

		return j->cur.end_ns + j->c.locked_ns + lb * j->c.write_block_ns + j->c.flush_ns;
	}
}

static void add_wait(struct fsl_journal *j, int cls, uint64_t ns, uint64_t *total, int *first)
{
	if (!ns)
		return;
	j->st.stall_ns[cls] += ns;
	j->st.stalls[cls]++;
	*total += ns;
	if (*first < 0)
		*first = cls;
}

/* Checkpoint until the log has room for a full transaction; returns its end. */
static uint64_t checkpoint(struct fsl_journal *j, uint64_t t)
{
	int did = 0;

	while (space_left(j) < (int64_t)j->max_txn) {
		if (j->ncp) {
			struct cp *cp = &j->cps[0];

			t += cp->dirty * j->c.checkpoint_block_ns;
			j->st.checkpoint_blocks += cp->dirty;
			did = 1;
			j->free += (int64_t)cp->log_blocks;
			memmove(j->cps, j->cps + 1, (j->ncp - 1) * sizeof(*j->cps));
			j->ncp--;
		} else if (j->com.active) {
			/* the space is held by the commit in flight: wait for it */
			if (j->cur.end_ns > t)
				t = j->cur.end_ns;
			commit_done(j);
		} else if (j->run.active) {
			commit_start(j, t, FSL_COMMIT_SPACE);
		} else {
			break;	/* journal too small for max_txn: nothing more to do */
		}
	}
	j->st.checkpoints += did;
	return t;
}

/* A new running transaction: its descriptors and every reservation still open. */
static void txn_new(struct fsl_journal *j, uint64_t t)
{
	uint64_t e = t + j->c.commit_ns, s = 1000000000ull, p = j->c.timer_phase_ns % s;

	memset(&j->run, 0, sizeof(j->run));
	j->run.active = 1;
	j->run.tid = j->next_tid++;
	j->run.start_ns = t;
	j->run.expires_ns = e;
	/*
	 * round_jiffies_up: the next whole second of jiffies at or after the
	 * expiry; where those seconds fall unknown, half a second on average
	 */
	j->run.timer_ns = j->c.timer_phase_known ? e + (s + p - e % s) % s : e + s / 2;
	j->run.outstanding = desc_blocks(j) + j->reserved;
}

/*
 * jbd2_journal_stop: a handle stopping at or after its transaction's expiry
 * asks for the commit, before the rounded-up timer would.
 */
static void stop_after_expiry(struct fsl_journal *j, uint64_t t)
{
	if (!j->run.active || t < j->run.expires_ns)
		return;
	if (!j->com.active)
		commit_start(j, t, FSL_COMMIT_TIMER);
	else if (j->pending_reason < 0)
		j->pending_reason = FSL_COMMIT_TIMER;
}

uint32_t fsl_journal__handle(struct fsl_journal *j, uint64_t ts, uint32_t credits,
			     uint32_t dirtied, uint64_t key, uint64_t *wait_ns, int *wait_class)
{
	return fsl_journal__handle_rsv(j, ts, credits, 0, dirtied, key, wait_ns, wait_class);
}

uint32_t fsl_journal__reserved_start(struct fsl_journal *j, uint64_t ts, uint32_t credits,
				     uint32_t dirtied)
{
	advance(j, ts);
	j->st.handles++;
	if (dirtied == FSL_JOURNAL_UNKNOWN)
		dirtied = credits > 1 ? credits / 2 : 1;
	if (!j->run.active)
		txn_new(j, ts);
	/* its credits are in the transaction already; what it did not use goes at stop */
	j->reserved -= credits < j->reserved ? credits : j->reserved;
	uint32_t tid;

	if (credits > dirtied)
		j->run.outstanding -= credits - dirtied < j->run.outstanding ?
				      credits - dirtied : 0;
	j->run.handles++;
	tid = j->run.tid;
	stop_after_expiry(j, ts);
	return tid;
}

uint32_t fsl_journal__handle_rsv(struct fsl_journal *j, uint64_t ts, uint32_t credits,
				 uint32_t rsv, uint32_t dirtied, uint64_t key, uint64_t *wait_ns,
				 int *wait_class)
{
	uint64_t t = ts, w = 0, end;
	int first = -1;
	uint32_t i, tid;

	advance(j, ts);
	j->st.handles++;
	if (!credits)
		credits = 1;
	if (dirtied == FSL_JOURNAL_UNKNOWN)
		dirtied = credits > 1 ? credits / 2 : 1;
	/* someone else's checkpoint in progress */
	if (j->cp_busy_until > t) {
		add_wait(j, FSL_JWAIT_LOG_SPACE, j->cp_busy_until - t, &w, &first);
		t = j->cp_busy_until;
		advance(j, t);
	}
	/* the running transaction is being locked for commit */
	if (j->com.active && t < j->cur.locked_end_ns) {
		add_wait(j, FSL_JWAIT_LOCKED, j->cur.locked_end_ns - t, &w, &first);
		t = j->cur.locked_end_ns;
	}
	/* log space */
	if (space_left(j) < (int64_t)j->max_txn) {
		end = checkpoint(j, t);
		j->cp_busy_until = end;
		add_wait(j, FSL_JWAIT_LOG_SPACE, end - t, &w, &first);
		t = end;
		advance(j, t);
	}
	/*
	 * transaction too big (add_transaction_credits counts the credits and
	 * the reservation): commit it and wait until it is locked
	 */
	if (j->run.active && j->run.outstanding + credits + rsv > j->max_txn) {
		if (!j->com.active) {
			commit_start(j, t, FSL_COMMIT_SIZE);
			end = j->cur.locked_end_ns;
		} else {
			if (j->pending_reason < 0)
				j->pending_reason = FSL_COMMIT_SIZE;
			end = j->cur.end_ns + j->c.locked_ns;
			advance(j, end);
			if (j->com.active && j->com.tid != j->run.tid && !j->run.active)
				end = j->cur.locked_end_ns;
		}
		add_wait(j, FSL_JWAIT_LOCKED, end > t ? end - t : 0, &w, &first);
		if (end > t)
			t = end;
		advance(j, t);
	}
	if (!j->run.active)
		txn_new(j, t);
	/* a buffer the committing transaction is writing out: wait for the write */
	if (key && j->com.active && t >= j->cur.flush_end_ns && t < j->cur.end_ns) {
		for (i = 0; i < j->com.nkeys; i++)
			if (j->com.keys[i] == key) {
				add_wait(j, FSL_JWAIT_SHADOW, j->cur.end_ns - t, &w, &first);
				t = j->cur.end_ns;
				break;
			}
	}
	j->run.outstanding += dirtied + rsv;
	j->reserved += rsv;
	j->run.handles++;
	tid = j->run.tid;
	stop_after_expiry(j, t);
	if (key) {
		for (i = 0; i < j->run.nkeys && j->run.keys[i] != key; i++)
			;
		if (i == j->run.nkeys)
			j->run.keys[j->run.nkeys++ % NKEYS] = key;
		if (j->run.nkeys > NKEYS)
			j->run.nkeys = NKEYS;
	}
	if (w > 10000000ull)
		j->st.long_waits++;
	*wait_ns = w;
	if (wait_class)
		*wait_class = first;
	return tid;
}

void fsl_journal__force(struct fsl_journal *j, uint64_t ts, int reason, uint64_t *wait_ns)
{
	uint64_t end;

	advance(j, ts);
	end = request_commit(j, ts, reason);
	*wait_ns = end > ts ? end - ts : 0;
	if (*wait_ns) {
		j->st.stall_ns[FSL_JWAIT_COMMIT] += *wait_ns;
		j->st.stalls[FSL_JWAIT_COMMIT]++;
	}
}

void fsl_journal__finish(struct fsl_journal *j, uint64_t ts)
{
	advance(j, ts);
	if (j->com.active && j->cur.end_ns <= ts)
		commit_done(j);
}

uint32_t fsl_journal__running_tid(const struct fsl_journal *j)
{
	return j->run.active ? j->run.tid : j->next_tid;
}

const struct fsl_journal_stats *fsl_journal__stats(const struct fsl_journal *j)
{
	return &j->st;
}

size_t fsl_journal__ncommits(const struct fsl_journal *j)
{
	return j->ncommits;
}

const struct fsl_journal_commit *fsl_journal__commit_at(const struct fsl_journal *j, size_t i)
{
	return i < j->ncommits ? &j->commits[i] : NULL;
}
