// SPDX-License-Identifier: GPL-2.0
/*
 * Contents: the target's blocks read and written, by block class (the
 * context stage's, blockclass.h) and, for writes, by who wrote them:
 *
 *  - commit: the journal thread (its log, the journal superblock, and the
 *    ordered data it writes out before a commit);
 *  - checkpoint: a task between a jbd2_checkpoint that had work (result > 0:
 *    jbd2_log_do_checkpoint goes on to write buffers home) and its next
 *    handle start, each write also kept for the transaction whose
 *    jbd2_checkpoint_stats that task emits next;
 *  - writeback: a flusher inside a writeback work (start to written), by the
 *    work's reason;
 *  - fsync: a task inside ext4_sync_file;
 *  - other: the rest (sync(2), direct I/O, reclaim).
 *
 * A request is classed by the task that queued it (block_rq_insert; the
 * dispatch's task when none was seen) and counted at its dispatch, block
 * by block, by what each block held then. The journal's contents by class
 * are the metadata blocks written home (every writer but commit): in
 * data=ordered that is what the journal carried, classed as it leaves.
 * Windows: counts fall where the dispatch (or the checkpoint's stats) is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

/*
 * A flusher plugs its writes for a whole wb_writeback() and unplugs after
 * the work's writeback_written: what it dispatches this soon after is still
 * that work's.
 */
#define CT_WB_TAIL_NS	100000000ull

struct an_ct_task {
	uint8_t chp;		/* in a checkpoint */
	uint8_t fsync;		/* ext4_sync_file depth */
	uint8_t wb_open;	/* between writeback_start and writeback_written */
	int8_t wb_reason;	/* its last writeback work's reason; -1 none */
	uint64_t wb_end;	/* when that work's writeback_written came */
	uint64_t pending[FSL_BC__MAX];	/* checkpoint writes not yet given a transaction */
};

struct an_ct_rq {
	uint8_t writer;
	int8_t reason;
	uint32_t tid;
};

struct an_contents {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map tasks;		/* tid -> an_ct_task */
	struct fsl_map rqs;		/* request -> an_ct_rq, insert to dispatch */
	uint32_t disk;			/* the target's disk */
	unsigned int head;		/* next slot in res.chp */
	struct fsl_contents res;
};

const char *fsl_block_writer_name(unsigned int w)
{
	static const char *const n[FSL_WR__MAX] = {
		"commit", "checkpoint", "writeback", "fsync", "other",
	};

	return w < FSL_WR__MAX ? n[w] : "?";
}

static struct an_ct_task *task(struct an_contents *s, uint32_t tid)
{
	int fresh;
	struct an_ct_task *t = fsl_map__put(&s->tasks, tid, &fresh);

	if (t && fresh)
		t->wb_reason = -1;
	return t;
}

static uint64_t rq_key(const struct fsl_ev_block_rq *ev)
{
	return ev->rq ? ev->rq : ((uint64_t)ev->dev << 44) ^ ev->sector;
}

static void writer_of(struct an_contents *s, const struct fsl_hdr *h, struct an_ct_rq *r)
{
	const char *comm = fsl_context__comm(s->c->cx, h->pid);
	const struct an_ct_task *t = fsl_map__get(&s->tasks, h->tid);

	r->tid = h->tid;
	r->reason = -1;
	if (comm && !strncmp(comm, "jbd2/", 5))
		r->writer = FSL_WR_COMMIT;
	else if (t && t->chp)
		r->writer = FSL_WR_CHECKPOINT;
	else if (t && t->wb_reason >= 0 && (t->wb_open || h->ts < t->wb_end + CT_WB_TAIL_NS)) {
		r->writer = FSL_WR_WRITEBACK;
		r->reason = t->wb_reason;
	} else if (t && t->fsync)
		r->writer = FSL_WR_FSYNC;
	else
		r->writer = FSL_WR_OTHER;
}

static int on_insert(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	struct an_ct_rq *r;

	if (h->size < sizeof(*ev) || ev->dev != s->disk || !ev->nr_sector)
		return 0;
	r = fsl_map__put(&s->rqs, rq_key(ev), NULL);
	if (!r)
		return -ENOMEM;
	writer_of(s, h, r);
	return 0;
}

static int on_issue(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	const struct fsl_blockclass *bc = fsl_context__blocks(s->c->cx);
	uint64_t spb, b0, b1, key;
	struct an_ct_rq *r, own;
	struct an_ct_task *t;
	unsigned int cls, w;

	if (h->size < sizeof(*ev) || ev->dev != s->disk || !ev->nr_sector ||
	    !fsl_blockclass__ready(bc))
		return 0;
	key = rq_key(ev);
	r = fsl_map__get(&s->rqs, key);
	if (!r) {
		writer_of(s, h, &own);
		r = &own;
	}
	if (!an_in_window(&s->c->win, h->ts))
		goto out;
	spb = fsl_blockclass__block_size(bc) / 512;
	if (!spb)
		goto out;
	b0 = ev->sector / spb;
	b1 = (ev->sector + ev->nr_sector + spb - 1) / spb;
	t = r->writer == FSL_WR_CHECKPOINT && !(ev->flags & FSL_RQ_READ) ?
	    fsl_map__get(&s->tasks, r->tid) : NULL;
	for (; b0 < b1; b0++) {
		cls = fsl_blockclass__class(bc, b0);
		if (ev->flags & FSL_RQ_READ) {
			s->res.read[cls]++;
			continue;
		}
		/* only the journal thread writes the log (whoever dispatches its plug) */
		w = cls == FSL_BC_JOURNAL ? FSL_WR_COMMIT : r->writer;
		s->res.written[w][cls]++;
		if (w == FSL_WR_WRITEBACK && r->reason >= 0 && r->reason < FSL_WB_REASONS)
			s->res.wb_reason[r->reason][cls]++;
		/* the transaction's buffers, as the kernel counts them (not its tail update) */
		if (t && w == FSL_WR_CHECKPOINT && cls != FSL_BC_JSB)
			t->pending[cls]++;
	}
out:
	if (r != &own)
		fsl_map__del(&s->rqs, key);
	return 0;
}

/* A request merged into another is never dispatched on its own. */
static int on_merge(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;

	if (h->size >= sizeof(*ev))
		fsl_map__del(&s->rqs, rq_key(ev));
	return 0;
}

static int on_checkpoint(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	const struct fsl_ev_jbd2_checkpoint *ev = (const void *)h;
	struct an_ct_task *t;

	if (h->size < sizeof(*ev) || ev->result <= 0)
		return 0;
	t = task(s, h->tid);
	if (!t)
		return -ENOMEM;
	t->chp = 1;
	return 0;
}

/* A transaction left the checkpoint list: what its checkpointing task wrote since goes to it. */
static int on_checkpoint_stats(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	const struct fsl_ev_jbd2_checkpoint_stats *ev = (const void *)h;
	struct an_ct_task *t = fsl_map__get(&s->tasks, h->tid);
	struct fsl_chp_txn *c;
	unsigned int k;

	if (h->size < sizeof(*ev) || !an_in_window(&s->c->win, h->ts))
		goto out;
	c = &s->res.chp[s->head];
	memset(c, 0, sizeof(*c));
	c->dev = ev->dev;
	c->tid = ev->tid;
	c->ts = h->ts;
	c->written = ev->written;
	c->dropped = ev->dropped;
	for (k = 0; t && k < FSL_BC__MAX; k++)
		c->blocks[k] = t->pending[k];
	s->head = (s->head + 1) % FSL_TXN_RING;
	if (s->res.nchp < FSL_TXN_RING)
		s->res.nchp++;
out:
	if (t)
		memset(t->pending, 0, sizeof(t->pending));
	return 0;
}

/* The task goes on with its own work: its checkpoint is over. */
static int on_handle(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	struct an_ct_task *t = fsl_map__get(&s->tasks, h->tid);

	if (t && t->chp) {
		t->chp = 0;
		memset(t->pending, 0, sizeof(t->pending));
	}
	return 0;
}

static int on_wb(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	const struct fsl_ev_writeback_work *ev = (const void *)h;
	struct an_ct_task *t;

	if (h->size < sizeof(*ev))
		return 0;
	t = task(s, h->tid);
	if (!t)
		return -ENOMEM;
	if (ev->dev != s->disk)
		return 0;
	t->wb_open = h->type == FSL_EV_WRITEBACK_START;
	t->wb_reason = ev->reason >= 0 && ev->reason < FSL_WB_REASONS - 1 ? ev->reason :
		       FSL_WB_REASONS - 1;
	t->wb_end = h->ts;
	return 0;
}

static int on_sync_file(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_contents *s = cons->priv;
	struct an_ct_task *t = task(s, h->tid);

	if (!t)
		return -ENOMEM;
	if (h->type == FSL_EV_EXT4_SYNC_FILE_ENTER)
		t->fsync++;
	else if (t->fsync)
		t->fsync--;
	return 0;
}

static int contents_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct an_contents *s = cons->priv;

	s->disk = (uint32_t)fsl_meta__u64(m, FSL_KV_DISK, 0);
	if (!s->disk)
		s->disk = s->c->target_dev;
	return 0;
}

struct an_contents *an_contents_new(struct an_ctx *c)
{
	struct an_contents *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->tasks, sizeof(struct an_ct_task));
	fsl_map__init(&s->rqs, sizeof(struct an_ct_rq));
	s->cons.name = "contents";
	s->cons.priv = s;
	s->cons.begin = contents_begin;
	s->cons.handlers[FSL_EV_BLOCK_RQ_INSERT] = on_insert;
	s->cons.handlers[FSL_EV_BLOCK_RQ_ISSUE] = on_issue;
	s->cons.handlers[FSL_EV_BLOCK_RQ_MERGE] = on_merge;
	s->cons.handlers[FSL_EV_JBD2_CHECKPOINT] = on_checkpoint;
	s->cons.handlers[FSL_EV_JBD2_CHECKPOINT_STATS] = on_checkpoint_stats;
	s->cons.handlers[FSL_EV_JBD2_HANDLE_START] = on_handle;
	s->cons.handlers[FSL_EV_EXT4_JOURNAL_START_INODE] = on_handle;
	s->cons.handlers[FSL_EV_EXT4_JOURNAL_START_SB] = on_handle;
	s->cons.handlers[FSL_EV_WRITEBACK_START] = on_wb;
	s->cons.handlers[FSL_EV_WRITEBACK_WRITTEN] = on_wb;
	s->cons.handlers[FSL_EV_EXT4_SYNC_FILE_ENTER] = on_sync_file;
	s->cons.handlers[FSL_EV_EXT4_SYNC_FILE_EXIT] = on_sync_file;
	return s;
}

void an_contents_free(struct an_contents *s)
{
	if (!s)
		return;
	fsl_map__free(&s->tasks);
	fsl_map__free(&s->rqs);
	free(s);
}

void an_contents_reset(struct an_contents *s)
{
	memset(&s->res, 0, sizeof(s->res));
	s->head = 0;
}

struct fsl_consumer *an_contents_consumer(struct an_contents *s)
{
	return &s->cons;
}

const struct fsl_contents *an_contents_result(struct an_contents *s)
{
	struct fsl_contents *r = &s->res;
	struct fsl_chp_txn *tmp;
	unsigned int w, k;

	r->classes = fsl_blockclass__ready(fsl_context__blocks(s->c->cx));
	r->block_size = fsl_blockclass__block_size(fsl_context__blocks(s->c->cx));
	memset(r->home, 0, sizeof(r->home));
	r->home_total = 0;
	for (w = FSL_WR_CHECKPOINT; w < FSL_WR__MAX; w++)
		for (k = 0; k < FSL_BC__MAX; k++)
			if (fsl_block_class_is_meta(k)) {
				r->home[k] += r->written[w][k];
				r->home_total += r->written[w][k];
			}
	/* present the ring oldest first */
	if (r->nchp == FSL_TXN_RING && s->head && (tmp = malloc(sizeof(r->chp)))) {
		memcpy(tmp, r->chp + s->head, (FSL_TXN_RING - s->head) * sizeof(*tmp));
		memcpy(tmp + FSL_TXN_RING - s->head, r->chp, s->head * sizeof(*tmp));
		memcpy(r->chp, tmp, sizeof(r->chp));
		free(tmp);
		s->head = 0;
	}
	return r;
}
