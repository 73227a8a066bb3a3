// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto / Chrome trace-event JSON export (open in ui.perfetto.dev or
 * chrome://tracing).
 *
 *  - path-based syscalls are complete ("X") slices on their thread, off-CPU
 *    waits are slices nested inside them (clipped to the syscall's end);
 *  - block requests are async ("b"/"e") slices, one id each, under a process
 *    per disk, so overlapping I/Os sit side by side and never nest;
 *  - jbd2 commits are slices on a "jbd2 MAJ:MIN" track with their phases
 *    (locking, flushing, logging) nested inside;
 *  - counters: dirty and writeback MiB, completed I/Os per second (100 ms
 *    bins), commits so far;
 *  - flow arrows: an fsync to the commit that ended last inside it (v1 flow
 *    events), a commit to the I/Os its jbd2 thread issued while it ran (v2
 *    bind_id on the slices).
 * Everything is buffered and written by __finish, since a flow's ends are
 * known only once both slices are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"
#include "fslens/hashmap.h"
#include "fslens/json.h"
#include "fslens/schema.h"
#include "fslens/trace.h"

#define PID_IO		100000000	/* + disk index: above any pid_max */
#define PID_JBD2	110000000	/* + journal index */
#define PID_COUNTERS	120000000
#define IOPS_BIN_NS	100000000ull

struct pf_op {
	uint32_t pid, tid;
	uint64_t ts, dur;
	int64_t ret;
	uint16_t op;
	char *path, *path2;
	int commit;			/* fsync -> commit index, -1 none */
};

struct pf_wait {
	uint32_t pid, tid;
	uint64_t ts, dur, runq;
	int32_t stack_id;
	uint32_t waker;
};

struct pf_io {
	uint32_t dev, flags, bytes, tid;
	uint64_t sector, insert_ts, issue_ts, complete_ts;
	int32_t error;
	int commit;			/* commit whose thread issued it, -1 none */
	uint64_t key;
};

struct pf_commit {
	uint32_t dev, txn, pid, tid;
	uint64_t start, locking, flushing, logging, end;
	int has_stats, sync;
	uint32_t handles, blocks, blocks_logged;
};

struct pf_counter {
	uint64_t ts;
	const char *name, *key;
	double value;
};

#define VEC(type, name) type *name; size_t n_##name, cap_##name

struct fsl_pf_export {
	FILE *out;
	const struct fsl_meta *meta;
	struct fsl_comms *comms;
	fsl_classify_fn classify;
	void *cctx;
	VEC(struct pf_op, ops);
	VEC(struct pf_wait, waits);
	VEC(struct pf_io, ios);
	VEC(struct pf_commit, commits);
	VEC(struct pf_counter, ctrs);
	VEC(uint32_t, devs);		/* disks seen, index = track */
	VEC(uint32_t, jdevs);		/* journals seen */
	uint64_t iops_bin, iops_count;
	int iops_started;
	uint64_t ncommits, last_ts, max_commit_ns;
	double page_mib;		/* MiB per page (host.page_size, else 4 KiB) */
	struct fsl_map inflight;	/* io_key() -> index in ios of a request in flight */
};

#define PUSH(x, name) ({						\
	void *_p = NULL;						\
	if ((x)->n_##name == (x)->cap_##name) {				\
		size_t _n = (x)->cap_##name ? (x)->cap_##name * 2 : 64;	\
		void *_r = realloc((x)->name, _n * sizeof(*(x)->name));	\
		if (_r) {						\
			(x)->name = _r;					\
			(x)->cap_##name = _n;				\
		}							\
	}								\
	if ((x)->n_##name < (x)->cap_##name) {				\
		_p = &(x)->name[(x)->n_##name++];			\
		memset(_p, 0, sizeof(*(x)->name));			\
	}								\
	_p;								\
})

struct fsl_pf_export *fsl_pf_export__new(FILE *out, const struct fsl_meta *meta, int *err)
{
	struct fsl_pf_export *x = calloc(1, sizeof(*x));

	if (!x || !(x->comms = fsl_comms__new())) {
		free(x);
		*err = -ENOMEM;
		return NULL;
	}
	x->out = out;
	x->meta = meta;
	fsl_map__init(&x->inflight, sizeof(size_t));
	{
		const char *ps = fsl_meta_kv(meta, FSL_KV_PAGE_SIZE);
		long v = ps ? strtol(ps, NULL, 10) : 0;

		x->page_mib = (v > 0 ? v : 4096) / 1048576.0;
	}
	*err = 0;
	return x;
}

void fsl_pf_export__set_classifier(struct fsl_pf_export *x, fsl_classify_fn fn, void *ctx)
{
	x->classify = fn;
	x->cctx = ctx;
}

static int dev_index(struct fsl_pf_export *x, int journal, uint32_t dev)
{
	uint32_t *v = journal ? x->jdevs : x->devs;
	size_t n = journal ? x->n_jdevs : x->n_devs, i;
	uint32_t *p;

	for (i = 0; i < n; i++)
		if (v[i] == dev)
			return (int)i;
	p = journal ? PUSH(x, jdevs) : PUSH(x, devs);
	if (!p)
		return -ENOMEM;
	*p = dev;
	return (int)n;
}

static int counter(struct fsl_pf_export *x, uint64_t ts, const char *name, const char *key,
		   double v)
{
	struct pf_counter *c = PUSH(x, ctrs);

	if (!c)
		return -ENOMEM;
	c->ts = ts;
	c->name = name;
	c->key = key;
	c->value = v;
	return 0;
}

/* Completed I/Os per second in 100 ms bins; empty bins are written as 0. */
static int iops_tick(struct fsl_pf_export *x, uint64_t ts, int flush)
{
	uint64_t bin = ts / IOPS_BIN_NS;
	int err = 0;

	if (!x->iops_started) {
		x->iops_started = 1;
		x->iops_bin = bin;
	}
	if (bin != x->iops_bin || flush) {
		err = counter(x, x->iops_bin * IOPS_BIN_NS, "IOPS", "completed/s",
			      x->iops_count * (1e9 / IOPS_BIN_NS));
		if (!err && bin > x->iops_bin + 1)
			err = counter(x, (x->iops_bin + 1) * IOPS_BIN_NS, "IOPS", "completed/s", 0);
		x->iops_bin = bin;
		x->iops_count = 0;
	}
	return err;
}

static uint64_t io_key(const struct fsl_ev_block_rq *b)
{
	return b->rq ? b->rq : (b->sector << 8) ^ b->dev ^ 0x8000000000000000ull;
}

static struct pf_io *find_io(struct fsl_pf_export *x, uint64_t key)
{
	const size_t *i = fsl_map__get(&x->inflight, key);

	return i ? &x->ios[*i] : NULL;
}

static int io_link(struct fsl_pf_export *x, struct pf_io *io)
{
	size_t *i = fsl_map__put(&x->inflight, io->key, NULL);

	if (!i)
		return -ENOMEM;
	*i = io - x->ios;
	return 0;
}

static void io_unlink(struct fsl_pf_export *x, struct pf_io *io)
{
	fsl_map__del(&x->inflight, io->key);
}

static struct pf_commit *find_commit(struct fsl_pf_export *x, uint32_t dev, uint32_t txn)
{
	size_t i, lim = x->n_commits > 64 ? x->n_commits - 64 : 0;

	for (i = x->n_commits; i-- > lim;)
		if (x->commits[i].dev == dev && x->commits[i].txn == txn)
			return &x->commits[i];
	return NULL;
}

static struct pf_io *new_io(struct fsl_pf_export *x, uint64_t key, uint32_t tid)
{
	struct pf_io *io = PUSH(x, ios);

	if (!io)
		return NULL;
	io->key = key;
	io->tid = tid;
	io->commit = -1;
	return io_link(x, io) ? NULL : io;
}

static int on_block(struct fsl_pf_export *x, const struct fsl_ev_block_rq *b)
{
	uint64_t key = io_key(b);
	struct pf_io *io = find_io(x, key);
	int err;

	switch (b->hdr.type) {
	case FSL_EV_BLOCK_RQ_INSERT:
		if (!io && !(io = new_io(x, key, b->hdr.tid)))
			return -ENOMEM;
		io->insert_ts = b->hdr.ts;
		break;
	case FSL_EV_BLOCK_RQ_ISSUE:
		if (!io && !(io = new_io(x, key, b->hdr.tid)))
			return -ENOMEM;
		io->issue_ts = b->hdr.ts;
		io->dev = b->dev;
		io->flags = b->flags;
		io->sector = b->sector;
		io->bytes = b->bytes;
		err = dev_index(x, 0, b->dev);
		if (err < 0)
			return err;
		break;
	case FSL_EV_BLOCK_RQ_MERGE:
		if (io && !io->issue_ts) {
			io_unlink(x, io);
			io->key = 0;	/* folded into another request; nothing to draw */
		}
		break;
	case FSL_EV_BLOCK_RQ_COMPLETE:
		if (!io || !io->issue_ts)
			break;	/* issued before the trace began */
		io_unlink(x, io);
		io->complete_ts = b->hdr.ts;
		io->error = b->error;
		x->iops_count++;
		break;
	}
	return 0;
}

static int on_commit(struct fsl_pf_export *x, const struct fsl_ev_jbd2_commit *c)
{
	struct pf_commit *pc = find_commit(x, c->dev, c->transaction);
	int err;

	if (c->hdr.type == FSL_EV_JBD2_START_COMMIT) {
		if (!(pc = PUSH(x, commits)))
			return -ENOMEM;
		pc->dev = c->dev;
		pc->txn = c->transaction;
		pc->pid = c->hdr.pid;
		pc->tid = c->hdr.tid;
		pc->start = c->hdr.ts;
		pc->sync = c->sync_commit;
		err = dev_index(x, 1, c->dev);
		return err < 0 ? err : 0;
	}
	if (!pc)
		return 0;
	switch (c->hdr.type) {
	case FSL_EV_JBD2_COMMIT_LOCKING: pc->locking = c->hdr.ts; break;
	case FSL_EV_JBD2_COMMIT_FLUSHING: pc->flushing = c->hdr.ts; break;
	case FSL_EV_JBD2_COMMIT_LOGGING: pc->logging = c->hdr.ts; break;
	case FSL_EV_JBD2_END_COMMIT:
		pc->end = c->hdr.ts;
		if (pc->end - pc->start > x->max_commit_ns)
			x->max_commit_ns = pc->end - pc->start;
		x->ncommits++;
		return counter(x, c->hdr.ts, "commits", "total", (double)x->ncommits);
	}
	return 0;
}

int fsl_pf_export__event(struct fsl_pf_export *x, const struct fsl_hdr *ev)
{
	int err;

	if (ev->ts > x->last_ts)
		x->last_ts = ev->ts;
	switch (ev->type) {
	case FSL_EV_PROC:
		return fsl_comms__event(x->comms, ev);
	case FSL_EV_BLOCK_RQ_INSERT:
	case FSL_EV_BLOCK_RQ_ISSUE:
	case FSL_EV_BLOCK_RQ_COMPLETE:
	case FSL_EV_BLOCK_RQ_MERGE:
		if (ev->size < sizeof(struct fsl_ev_block_rq))
			return 0;
		if (ev->type == FSL_EV_BLOCK_RQ_COMPLETE) {
			err = iops_tick(x, ev->ts, 0);
			if (err)
				return err;
		}
		return on_block(x, (const void *)ev);
	case FSL_EV_JBD2_START_COMMIT:
	case FSL_EV_JBD2_COMMIT_LOCKING:
	case FSL_EV_JBD2_COMMIT_FLUSHING:
	case FSL_EV_JBD2_COMMIT_LOGGING:
	case FSL_EV_JBD2_END_COMMIT:
		if (ev->size < sizeof(struct fsl_ev_jbd2_commit))
			return 0;
		return on_commit(x, (const void *)ev);
	case FSL_EV_JBD2_RUN_STATS: {
		const struct fsl_ev_jbd2_run_stats *rs = (const void *)ev;
		struct pf_commit *pc;

		if (ev->size < sizeof(*rs) || !(pc = find_commit(x, rs->dev, rs->tid)))
			return 0;
		pc->has_stats = 1;
		pc->handles = rs->handle_count;
		pc->blocks = rs->blocks;
		pc->blocks_logged = rs->blocks_logged;
		return 0;
	}
	case FSL_EV_GLOBAL_DIRTY_STATE: {
		const struct fsl_ev_global_dirty_state *g = (const void *)ev;

		if (ev->size < sizeof(*g))
			return 0;
		err = counter(x, ev->ts, "dirty MiB", "dirty", g->nr_dirty * x->page_mib);
		if (!err)
			err = counter(x, ev->ts, "dirty MiB", "writeback",
				      g->nr_writeback * x->page_mib);
		return err;
	}
	case FSL_EV_DIROP: {
		const struct fsl_ev_dirop *d = (const void *)ev;
		struct pf_op *op;

		if (ev->size < sizeof(*d) ||
		    sizeof(*d) + (size_t)d->path_len + d->path2_len > ev->size)
			return 0;
		if (!(op = PUSH(x, ops)))
			return -ENOMEM;
		op->pid = ev->pid;
		op->tid = ev->tid;
		op->ts = ev->ts;
		op->dur = d->lat_ns;
		op->ret = d->ret;
		op->op = d->op;
		op->commit = -1;
		op->path = strndup(d->paths, d->path_len);
		op->path2 = d->path2_len ? strndup(d->paths + d->path_len, d->path2_len) : NULL;
		if (!op->path)
			return -ENOMEM;
		return 0;
	}
	case FSL_EV_OFFCPU: {
		const struct fsl_ev_offcpu *o = (const void *)ev;
		struct pf_wait *w;

		if (ev->size < sizeof(*o))
			return 0;
		if (!(w = PUSH(x, waits)))
			return -ENOMEM;
		w->pid = ev->pid;
		w->tid = ev->tid;
		w->ts = ev->ts;
		w->dur = o->dur_ns;
		w->runq = o->runq_ns;
		w->stack_id = o->stack_id;
		w->waker = o->waker_pid;
		return 0;
	}
	}
	return 0;
}

/* ---- association of flows ---- */

/* Last commit (start order) with start <= ts. */
static long commit_before(const struct fsl_pf_export *x, uint64_t ts)
{
	long lo = 0, hi = (long)x->n_commits - 1, ans = -1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (x->commits[mid].start <= ts) {
			ans = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return ans;
}

static void associate(struct fsl_pf_export *x)
{
	size_t i;
	long j;

	for (i = 0; i < x->n_ios; i++) {
		struct pf_io *io = &x->ios[i];
		uint64_t t = io->insert_ts ? io->insert_ts : io->issue_ts;
		long first;

		io->commit = -1;
		if (!io->issue_ts)
			continue;
		first = commit_before(x, t);
		for (j = first; j >= 0 && j > first - 16; j--) {
			const struct pf_commit *c = &x->commits[j];

			if (c->tid == io->tid && c->end && t <= c->end) {
				io->commit = (int)j;
				break;
			}
		}
	}
	for (i = 0; i < x->n_ops; i++) {
		struct pf_op *op = &x->ops[i];
		uint64_t end = op->ts + op->dur;

		if (op->op != FSL_OP_FSYNC && op->op != FSL_OP_FDATASYNC &&
		    op->op != FSL_OP_SYNCFS && op->op != FSL_OP_SYNC)
			continue;
		/* the commit that ended last before the call returned */
		for (j = commit_before(x, end); j >= 0; j--) {
			const struct pf_commit *c = &x->commits[j];

			if (c->end >= op->ts && c->end <= end &&
			    (op->commit < 0 || c->end > x->commits[op->commit].end))
				op->commit = (int)j;
			if (c->start + x->max_commit_ns < op->ts)
				break;	/* ended before the call began */
		}
	}
}

/* ---- output ---- */

static void put_ts(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, "\"%s\":%" PRIu64 ".%03" PRIu64, key, ns / 1000, ns % 1000);
}

static void put_name(FILE *f, const char *s)
{
	fsl_json_write_string(f, s, strlen(s));
}

static void meta_name(FILE *f, const char *what, uint32_t pid, uint32_t tid, const char *name)
{
	fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		what, pid, tid);
	put_name(f, name);
	fputs("}}", f);
}

static const char *io_name(uint32_t flags)
{
	if (flags & FSL_RQ_DISCARD)
		return "discard";
	if (flags & FSL_RQ_WRITE)
		return "write";
	if (flags & FSL_RQ_READ)
		return "read";
	if (flags & FSL_RQ_FLUSH)
		return "flush";
	return "other";
}

static void write_ops(struct fsl_pf_export *x)
{
	FILE *f = x->out;
	size_t i;

	for (i = 0; i < x->n_ops; i++) {
		const struct pf_op *op = &x->ops[i];

		fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"syscall\",\"name\":\"%s\","
			"\"pid\":%u,\"tid\":%u,",
			fsl_dirop_name(op->op) ? fsl_dirop_name(op->op) : "op", op->pid, op->tid);
		put_ts(f, "ts", op->ts);
		fputc(',', f);
		put_ts(f, "dur", op->dur);
		fputs(",\"args\":{\"path\":", f);
		put_name(f, op->path);
		if (op->path2) {
			fputs(",\"path2\":", f);
			put_name(f, op->path2);
		}
		fprintf(f, ",\"ret\":%" PRId64 "}}", op->ret);
		if (op->commit >= 0) {
			const struct pf_commit *c = &x->commits[op->commit];
			uint64_t fts = op->ts + 1, cts = c->start + 1;
			int jidx = dev_index(x, 1, c->dev);

			/* v1 flow: starts 1 ns into the fsync, ends 1 ns into the commit */
			fprintf(f, ",\n{\"ph\":\"s\",\"cat\":\"fsync\",\"name\":\"fsync->commit\","
				"\"id\":%zu,\"pid\":%u,\"tid\":%u,", i + 1, op->pid, op->tid);
			put_ts(f, "ts", fts);
			fprintf(f, "},\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"fsync\","
				"\"name\":\"fsync->commit\",\"id\":%zu,\"pid\":%d,\"tid\":%d,",
				i + 1, PID_JBD2 + jidx, PID_JBD2 + jidx);
			put_ts(f, "ts", cts);
			fputc('}', f);
		}
	}
}

static const struct fsl_pf_export *sort_ctx;

static int cmp_op_tid_ts(const void *a, const void *b)
{
	const struct pf_op *x = &sort_ctx->ops[*(const size_t *)a];
	const struct pf_op *y = &sort_ctx->ops[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* End of the syscall of tid that was running at ts, 0 if none. */
static uint64_t op_end_at(const struct fsl_pf_export *x, const size_t *idx, uint32_t tid,
			  uint64_t ts)
{
	long lo = 0, hi = (long)x->n_ops - 1, ans = -1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;
		const struct pf_op *op = &x->ops[idx[mid]];

		if (op->tid < tid || (op->tid == tid && op->ts <= ts)) {
			ans = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (ans < 0)
		return 0;
	{
		const struct pf_op *op = &x->ops[idx[ans]];

		return op->tid == tid && ts < op->ts + op->dur ? op->ts + op->dur : 0;
	}
}

static int write_waits(struct fsl_pf_export *x)
{
	FILE *f = x->out;
	size_t i, k, *idx = malloc((x->n_ops + 1) * sizeof(*idx));
	char fb[128], sbuf[2048];

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < x->n_ops; i++)
		idx[i] = i;
	sort_ctx = x;
	qsort(idx, x->n_ops, sizeof(*idx), cmp_op_tid_ts);
	for (i = 0; i < x->n_waits; i++) {
		const struct pf_wait *w = &x->waits[i];
		const struct fsl_stack *st = NULL;
		const char *cls = NULL;
		uint64_t dur = w->dur, clip_end;

		if (x->meta && x->meta->stack && w->stack_id >= 0)
			st = x->meta->stack(x->meta, w->stack_id);
		if (st && x->classify)
			cls = x->classify(x->cctx, st);
		/* keep a wait nested in the syscall it happened in (clock jitter) */
		clip_end = op_end_at(x, idx, w->tid, w->ts);
		if (clip_end && w->ts + dur > clip_end)
			dur = clip_end - w->ts;
		fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"offcpu\",\"name\":");
		put_name(f, cls ? cls : "off-CPU");
		fprintf(f, ",\"pid\":%u,\"tid\":%u,", w->pid, w->tid);
		put_ts(f, "ts", w->ts);
		fputc(',', f);
		put_ts(f, "dur", dur);
		fprintf(f, ",\"args\":{\"waker\":%u,\"runq_us\":%.3f", w->waker, w->runq / 1000.0);
		if (st) {
			size_t len = 0;

			/* outermost first, like a flame graph reads */
			unsigned int skip = fsl_frames_skip_tracing(st);

			for (k = st->nframes; k-- > skip && len + 1 < sizeof(sbuf);) {
				len += snprintf(sbuf + len, sizeof(sbuf) - len, "%s%s",
						k + 1 < st->nframes ? ";" : "",
						fsl_frame_func(st->frames[k], fb, sizeof(fb)));
			}
			if (len >= sizeof(sbuf))
				len = sizeof(sbuf) - 1;
			fputs(",\"stack\":", f);
			fsl_json_write_string(f, sbuf, len);
		}
		fputs("}}", f);
	}
	free(idx);
	return 0;
}

static void write_ios(struct fsl_pf_export *x)
{
	FILE *f = x->out;
	size_t i;
	char rw[8];

	for (i = 0; i < x->n_ios; i++) {
		const struct pf_io *io = &x->ios[i];
		int didx = dev_index(x, 0, io->dev);
		uint64_t end = io->complete_ts ? io->complete_ts : x->last_ts;
		const char *name = io_name(io->flags);

		if (!io->issue_ts || !io->key)
			continue;
		fprintf(f, ",\n{\"ph\":\"b\",\"cat\":\"io\",\"name\":\"%s\",\"id\":%zu,\"pid\":%d,"
			"\"tid\":%d,", name, i + 1, PID_IO + didx, PID_IO + didx);
		put_ts(f, "ts", io->issue_ts);
		fprintf(f, ",\"args\":{\"rwbs\":\"%s\",\"sector\":%" PRIu64 ",\"bytes\":%u,"
			"\"issuer\":%u", fsl_rwbs(io->flags, rw), io->sector, io->bytes, io->tid);
		if (io->insert_ts)
			fprintf(f, ",\"q2d_us\":%.3f", (io->issue_ts - io->insert_ts) / 1000.0);
		if (!io->complete_ts)
			fputs(",\"incomplete\":1", f);
		fputc('}', f);
		if (io->commit >= 0)
			fprintf(f, ",\"bind_id\":\"commit%d\",\"flow_in\":true", io->commit);
		fprintf(f, "},\n{\"ph\":\"e\",\"cat\":\"io\",\"name\":\"%s\",\"id\":%zu,\"pid\":%d,"
			"\"tid\":%d,", name, i + 1, PID_IO + didx, PID_IO + didx);
		put_ts(f, "ts", end);
		fprintf(f, ",\"args\":{\"error\":%d}}", io->error);
	}
}

static void write_commits(struct fsl_pf_export *x)
{
	FILE *f = x->out;
	size_t i;

	for (i = 0; i < x->n_commits; i++) {
		const struct pf_commit *c = &x->commits[i];
		int pid = PID_JBD2 + dev_index(x, 1, c->dev);
		const uint64_t *ph[3] = { &c->locking, &c->flushing, &c->logging };
		static const char *const names[3] = { "locking", "flushing", "logging" };
		int k;

		if (!c->end)
			continue;
		fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"jbd2\",\"name\":\"commit %u\",\"pid\":%d,"
			"\"tid\":%d,", c->txn, pid, pid);
		put_ts(f, "ts", c->start);
		fputc(',', f);
		put_ts(f, "dur", c->end - c->start);
		fprintf(f, ",\"args\":{\"tid\":%u,\"sync\":%d,\"thread\":%u", c->txn, c->sync,
			c->tid);
		if (c->has_stats)
			fprintf(f, ",\"handles\":%u,\"blocks\":%u,\"blocks_logged\":%u",
				c->handles, c->blocks, c->blocks_logged);
		fprintf(f, "},\"bind_id\":\"commit%zu\",\"flow_out\":true}", i);
		for (k = 0; k < 3; k++) {
			uint64_t s = *ph[k], e = k < 2 && *ph[k + 1] ? *ph[k + 1] : c->end;

			if (!s || e < s)
				continue;
			fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"jbd2\",\"name\":\"%s\",\"pid\":%d,"
				"\"tid\":%d,", names[k], pid, pid);
			put_ts(f, "ts", s);
			fputc(',', f);
			put_ts(f, "dur", e - s);
			fputc('}', f);
		}
	}
}

static void write_meta(struct fsl_pf_export *x)
{
	FILE *f = x->out;
	char name[64];
	size_t i;

	meta_name(f, "process_name", PID_COUNTERS, PID_COUNTERS, "fslens counters");
	for (i = 0; i < x->n_devs; i++) {
		snprintf(name, sizeof(name), "block %u:%u", FSL_MAJOR(x->devs[i]),
			 FSL_MINOR(x->devs[i]));
		meta_name(f, "process_name", PID_IO + i, PID_IO + i, name);
	}
	for (i = 0; i < x->n_jdevs; i++) {
		snprintf(name, sizeof(name), "jbd2 %u:%u", FSL_MAJOR(x->jdevs[i]),
			 FSL_MINOR(x->jdevs[i]));
		meta_name(f, "process_name", PID_JBD2 + i, PID_JBD2 + i, name);
		meta_name(f, "thread_name", PID_JBD2 + i, PID_JBD2 + i, "commits");
	}
}

/* Thread and process names of every task that has a slice. */
static void write_task_names(struct fsl_pf_export *x)
{
	struct { uint32_t pid, tid; } *seen = NULL;
	size_t n = 0, cap = 0, i, k;

	for (i = 0; i < x->n_ops + x->n_waits; i++) {
		uint32_t pid = i < x->n_ops ? x->ops[i].pid : x->waits[i - x->n_ops].pid;
		uint32_t tid = i < x->n_ops ? x->ops[i].tid : x->waits[i - x->n_ops].tid;
		const char *c;

		for (k = 0; k < n; k++)
			if (seen[k].tid == tid)
				break;
		if (k < n)
			continue;
		if (n == cap) {
			void *p = realloc(seen, (cap = cap ? cap * 2 : 64) * sizeof(*seen));

			if (!p)
				break;
			seen = p;
		}
		seen[n].pid = pid;
		seen[n].tid = tid;
		n++;
		c = fsl_comms__get(x->comms, tid);
		if (c)
			meta_name(x->out, "thread_name", pid, tid, c);
		c = fsl_comms__get(x->comms, pid);
		if (c && pid == tid)
			meta_name(x->out, "process_name", pid, pid, c);
	}
	free(seen);
}

int fsl_pf_export__finish(struct fsl_pf_export *x)
{
	FILE *f = x->out;
	size_t i;
	int err = 0;

	if (x->iops_started)
		err = iops_tick(x, x->iops_bin * IOPS_BIN_NS, 1);
	if (err)
		return err;
	associate(x);
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"fslens export\"},"
	      "\"traceEvents\":[\n", f);
	fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"name\":\"fslens\"}}", PID_COUNTERS + 1, PID_COUNTERS + 1);
	write_meta(x);
	write_task_names(x);
	write_ops(x);
	err = write_waits(x);
	if (err)
		return err;
	write_commits(x);
	write_ios(x);
	for (i = 0; i < x->n_ctrs; i++) {
		const struct pf_counter *c = &x->ctrs[i];

		fprintf(f, ",\n{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,", c->name,
			PID_COUNTERS, PID_COUNTERS);
		put_ts(f, "ts", c->ts);
		fprintf(f, ",\"args\":{\"%s\":%.6g}}", c->key, c->value);
	}
	fputs("\n]}\n", f);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

void fsl_pf_export__free(struct fsl_pf_export *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n_ops; i++) {
		free(x->ops[i].path);
		free(x->ops[i].path2);
	}
	free(x->ops);
	free(x->waits);
	free(x->ios);
	fsl_map__free(&x->inflight);
	free(x->commits);
	free(x->ctrs);
	free(x->devs);
	free(x->jdevs);
	fsl_comms__free(x->comms);
	free(x);
}
