// SPDX-License-Identifier: GPL-2.0
/*
 * CSV tables with a header row, one table per run (--table):
 *   ops    path-based syscalls:  ts_ns,pid,tid,comm,op,path,path2,ret,lat_ns
 *   io     completed requests:   dev,rwbs,sector,bytes,insert_ns,issue_ns,complete_ns,
 *                                q2d_ns,d2c_ns,q2c_ns,error,issuer_tid,issuer
 *   txn    jbd2 commits:         dev,tid,start_ns,locking_ns,flushing_ns,logging_ns,
 *                                end_ns,commit_ns,sync,handles,blocks,blocks_logged
 *   waits  off-CPU waits:        ts_ns,pid,tid,comm,dur_ns,runq_ns,waker,class,stack
 *   alloc  ext4_allocate_blocks: ts_ns,pid,tid,comm,dev,ino,logical,len,goal,block,
 *                                lleft,lright,pleft,pright,flags
 * Times are the trace's monotonic ns; q2d/q2c are empty when no insert was seen.
 * Every row ends with t_s,realtime: the row's time (ops, waits, alloc: the
 * event; io: the completion; txn: the commit's start) in seconds from the
 * trace's start, as --from/--to count them, and as UTC wall-clock time
 * (ISO 8601, ns), empty if the trace has no clock offset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fslens/export.h"
#include "fslens/hashmap.h"
#include "fslens/schema.h"

struct csv_io {		/* a request in flight, by io_key() */
	uint64_t insert_ts, issue_ts;
	uint32_t tid;
};

struct csv_txn {
	uint32_t dev, tid;
	uint64_t start, locking, flushing, logging, end;
	int sync, has_stats;
	uint32_t handles, blocks, blocks_logged;
};

#define U(v) ((unsigned long long)(v))

struct fsl_csv_export {
	FILE *out;
	int table;
	const struct fsl_meta *meta;
	fsl_classify_fn classify;
	void *cctx;
	struct fsl_comms *comms;
	struct fsl_map io;		/* io_key() -> struct csv_io */
	struct csv_txn *txns;
	size_t ntxns, captxns;
	uint64_t origin;		/* t_s = (ts - origin) / 1e9 */
	int64_t rt_offset;		/* REALTIME - MONOTONIC, ns */
	int have_rt;
};

static const char *const table_names[] = {
	[FSL_CSV_OPS] = "ops", [FSL_CSV_IO] = "io", [FSL_CSV_TXN] = "txn",
	[FSL_CSV_WAITS] = "waits", [FSL_CSV_ALLOC] = "alloc",
};

static const char *const headers[] = {
	[FSL_CSV_OPS] = "ts_ns,pid,tid,comm,op,path,path2,ret,lat_ns",
	[FSL_CSV_IO] = "dev,rwbs,sector,bytes,insert_ns,issue_ns,complete_ns,q2d_ns,d2c_ns,"
		       "q2c_ns,error,issuer_tid,issuer",
	[FSL_CSV_TXN] = "dev,tid,start_ns,locking_ns,flushing_ns,logging_ns,end_ns,commit_ns,"
			"sync,handles,blocks,blocks_logged",
	[FSL_CSV_WAITS] = "ts_ns,pid,tid,comm,dur_ns,runq_ns,waker,class,stack",
	[FSL_CSV_ALLOC] = "ts_ns,pid,tid,comm,dev,ino,logical,len,goal,block,lleft,lright,"
			  "pleft,pright,flags",
};

int fsl_csv_table_parse(const char *name)
{
	int i;

	for (i = FSL_CSV_OPS; i <= FSL_CSV_ALLOC; i++)
		if (!strcmp(name, table_names[i]))
			return i;
	return -EINVAL;
}

struct fsl_csv_export *fsl_csv_export__new(FILE *out, int table, const struct fsl_meta *meta,
					   int *err)
{
	struct fsl_csv_export *x;

	if (table < FSL_CSV_OPS || table > FSL_CSV_ALLOC) {
		*err = -EINVAL;
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x || !(x->comms = fsl_comms__new())) {
		free(x);
		*err = -ENOMEM;
		return NULL;
	}
	fsl_map__init(&x->io, sizeof(struct csv_io));
	x->out = out;
	x->table = table;
	x->meta = meta;
	fprintf(out, "%s,t_s,realtime\n", headers[table]);
	if (meta) {
		const char *v = fsl_meta__str(meta, FSL_KV_REALTIME_OFFSET);
		uint64_t start;

		if (v && *v) {
			x->rt_offset = strtoll(v, NULL, 10);
			x->have_rt = 1;
		}
		if (!fsl_meta__get_u64(meta, FSL_KV_START_NS, &start))
			x->origin = start;
	}
	*err = 0;
	return x;
}

void fsl_csv_export__set_classifier(struct fsl_csv_export *x, fsl_classify_fn fn, void *ctx)
{
	x->classify = fn;
	x->cctx = ctx;
}

void fsl_csv_export__set_origin(struct fsl_csv_export *x, uint64_t origin_ns)
{
	x->origin = origin_ns;
}

/* ",t_s,realtime\n": the columns every table ends with. */
static void end_row(struct fsl_csv_export *x, uint64_t ts)
{
	FILE *f = x->out;
	int64_t d = (int64_t)(ts - x->origin);

	fprintf(f, ",%s%lld.%09lld,", d < 0 ? "-" : "", (long long)(d < 0 ? -d : d) / 1000000000,
		(long long)(d < 0 ? -d : d) % 1000000000);
	if (x->have_rt) {
		int64_t rt = (int64_t)ts + x->rt_offset;
		time_t sec = (time_t)(rt / 1000000000);
		struct tm tm;
		char buf[32];

		if (gmtime_r(&sec, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm))
			fprintf(f, "%s.%09lldZ", buf, (long long)(rt % 1000000000));
	}
	fputc('\n', f);
}

static void put_comm(struct fsl_csv_export *x, uint32_t tid)
{
	const char *c = fsl_comms__get(x->comms, tid);

	if (c)
		fsl_csv_str(x->out, c, strlen(c));
}

static uint64_t io_key(const struct fsl_ev_block_rq *b)
{
	return b->rq ? b->rq : (b->sector << 8) ^ b->dev ^ 0x8000000000000000ull;
}

static int on_io(struct fsl_csv_export *x, const struct fsl_ev_block_rq *b)
{
	uint64_t key = io_key(b);
	struct csv_io *e = fsl_map__get(&x->io, key);
	FILE *f = x->out;
	char rw[8], dev[24];

	switch (b->hdr.type) {
	case FSL_EV_BLOCK_RQ_INSERT:
	case FSL_EV_BLOCK_RQ_ISSUE:
		if (!e) {
			e = fsl_map__put(&x->io, key, NULL);
			if (!e)
				return -ENOMEM;
			e->tid = b->hdr.tid;
		}
		if (b->hdr.type == FSL_EV_BLOCK_RQ_INSERT)
			e->insert_ts = b->hdr.ts;
		else
			e->issue_ts = b->hdr.ts;
		return 0;
	case FSL_EV_BLOCK_RQ_MERGE:
		fsl_map__del(&x->io, key);
		return 0;
	case FSL_EV_BLOCK_RQ_COMPLETE:
		break;
	default:
		return 0;
	}
	if (!e || !e->issue_ts)
		return 0;	/* issued before the trace began */
	snprintf(dev, sizeof(dev), "%u:%u", FSL_MAJOR(b->dev), FSL_MINOR(b->dev));
	/* no start sector (a cache flush): 0, as the kernel's tracers write it */
	fprintf(f, "%s,%s,%llu,%u,", dev, fsl_rwbs(b->flags, rw),
		U(b->sector == UINT64_MAX ? 0 : b->sector), b->bytes);
	if (e->insert_ts)
		fprintf(f, "%llu", U(e->insert_ts));
	fprintf(f, ",%llu,%llu,", U(e->issue_ts), U(b->hdr.ts));
	if (e->insert_ts)
		fprintf(f, "%llu", U(e->issue_ts - e->insert_ts));
	fprintf(f, ",%llu,", U(b->hdr.ts - e->issue_ts));
	if (e->insert_ts)
		fprintf(f, "%llu", U(b->hdr.ts - e->insert_ts));
	fprintf(f, ",%d,%u,", b->error, e->tid);
	put_comm(x, e->tid);
	end_row(x, b->hdr.ts);
	fsl_map__del(&x->io, key);
	return 0;
}

static struct csv_txn *find_txn(struct fsl_csv_export *x, uint32_t dev, uint32_t tid)
{
	size_t i, lim = x->ntxns > 64 ? x->ntxns - 64 : 0;

	for (i = x->ntxns; i-- > lim;)
		if (x->txns[i].dev == dev && x->txns[i].tid == tid)
			return &x->txns[i];
	return NULL;
}

static int on_txn(struct fsl_csv_export *x, const struct fsl_hdr *ev)
{
	const struct fsl_ev_jbd2_commit *c = (const void *)ev;
	const struct fsl_ev_jbd2_run_stats *rs = (const void *)ev;
	struct csv_txn *t;

	if (ev->type == FSL_EV_JBD2_RUN_STATS) {
		if (ev->size < sizeof(*rs) || !(t = find_txn(x, rs->dev, rs->tid)))
			return 0;
		t->has_stats = 1;
		t->handles = rs->handle_count;
		t->blocks = rs->blocks;
		t->blocks_logged = rs->blocks_logged;
		return 0;
	}
	if (ev->size < sizeof(*c))
		return 0;
	t = find_txn(x, c->dev, c->transaction);
	if (ev->type == FSL_EV_JBD2_START_COMMIT) {
		if (x->ntxns == x->captxns) {
			size_t n = x->captxns ? x->captxns * 2 : 64;
			struct csv_txn *nt = realloc(x->txns, n * sizeof(*nt));

			if (!nt)
				return -ENOMEM;
			x->txns = nt;
			x->captxns = n;
		}
		t = &x->txns[x->ntxns++];
		memset(t, 0, sizeof(*t));
		t->dev = c->dev;
		t->tid = c->transaction;
		t->start = ev->ts;
		t->sync = c->sync_commit;
		return 0;
	}
	if (!t)
		return 0;
	switch (ev->type) {
	case FSL_EV_JBD2_COMMIT_LOCKING: t->locking = ev->ts; break;
	case FSL_EV_JBD2_COMMIT_FLUSHING: t->flushing = ev->ts; break;
	case FSL_EV_JBD2_COMMIT_LOGGING: t->logging = ev->ts; break;
	case FSL_EV_JBD2_END_COMMIT: t->end = ev->ts; break;
	}
	return 0;
}

static void put_opt(FILE *f, uint64_t v)
{
	if (v)
		fprintf(f, "%llu", U(v));
}

int fsl_csv_export__event(struct fsl_csv_export *x, const struct fsl_hdr *ev)
{
	FILE *f = x->out;

	if (ev->type == FSL_EV_PROC)
		return fsl_comms__event(x->comms, ev);
	switch (x->table) {
	case FSL_CSV_OPS: {
		const struct fsl_ev_dirop *d = (const void *)ev;
		const char *name;

		if (ev->type != FSL_EV_DIROP || ev->size < sizeof(*d) ||
		    sizeof(*d) + (size_t)d->path_len + d->path2_len > ev->size)
			return 0;
		name = fsl_dirop_name(d->op);
		fprintf(f, "%llu,%u,%u,", U(ev->ts), ev->pid, ev->tid);
		put_comm(x, ev->tid);
		fprintf(f, ",%s,", name ? name : "?");
		fsl_csv_str(f, d->paths, d->path_len);
		fputc(',', f);
		fsl_csv_str(f, d->paths + d->path_len, d->path2_len);
		fprintf(f, ",%lld,%llu", (long long)d->ret, U(d->lat_ns));
		end_row(x, ev->ts);
		return 0;
	}
	case FSL_CSV_IO:
		if (ev->type < FSL_EV_BLOCK_RQ_INSERT || ev->type > FSL_EV_BLOCK_RQ_MERGE ||
		    ev->size < sizeof(struct fsl_ev_block_rq))
			return 0;
		return on_io(x, (const void *)ev);
	case FSL_CSV_TXN:
		if ((ev->type >= FSL_EV_JBD2_START_COMMIT && ev->type <= FSL_EV_JBD2_END_COMMIT) ||
		    ev->type == FSL_EV_JBD2_RUN_STATS)
			return on_txn(x, ev);
		return 0;
	case FSL_CSV_WAITS: {
		const struct fsl_ev_offcpu *o = (const void *)ev;
		const struct fsl_stack *st = NULL;
		char fb[128];
		uint32_t k;

		if (ev->type != FSL_EV_OFFCPU || ev->size < sizeof(*o))
			return 0;
		if (o->stack_id >= 0 && x->meta && x->meta->stack)
			st = x->meta->stack(x->meta, o->stack_id);
		fprintf(f, "%llu,%u,%u,", U(ev->ts), ev->pid, ev->tid);
		put_comm(x, ev->tid);
		fprintf(f, ",%llu,%llu,%u,", U(o->dur_ns), U(o->runq_ns), o->waker_pid);
		if (st && x->classify) {
			const char *cls = x->classify(x->cctx, st);

			if (cls)
				fsl_csv_str(f, cls, strlen(cls));
		}
		fputc(',', f);
		/* outermost first, ';' separated (no commas: no quoting needed) */
		for (k = st ? st->nframes : 0; k-- > 0;)
			fprintf(f, "%s%s", k + 1 < st->nframes ? ";" : "",
				fsl_frame_func(st->frames[k], fb, sizeof(fb)));
		end_row(x, ev->ts);
		return 0;
	}
	case FSL_CSV_ALLOC: {
		const struct fsl_ev_ext4_alloc_blocks *a = (const void *)ev;

		if (ev->type != FSL_EV_EXT4_ALLOCATE_BLOCKS || ev->size < sizeof(*a))
			return 0;
		fprintf(f, "%llu,%u,%u,", U(ev->ts), ev->pid, ev->tid);
		put_comm(x, ev->tid);
		fprintf(f, ",%u:%u,%llu,%u,%u,%llu,%llu,%u,%u,%llu"
			",%llu,0x%x", FSL_MAJOR(a->dev), FSL_MINOR(a->dev), U(a->ino),
			a->logical, a->len, U(a->goal), U(a->block), a->lleft, a->lright,
			U(a->pleft), U(a->pright), a->flags);
		end_row(x, ev->ts);
		return 0;
	}
	}
	return 0;
}

int fsl_csv_export__finish(struct fsl_csv_export *x)
{
	FILE *f = x->out;
	size_t i;

	for (i = 0; i < x->ntxns; i++) {
		const struct csv_txn *t = &x->txns[i];

		if (!t->end)
			continue;	/* still committing when the trace ended */
		fprintf(f, "%u:%u,%u,%llu,", FSL_MAJOR(t->dev), FSL_MINOR(t->dev), t->tid,
			U(t->start));
		put_opt(f, t->locking);
		fputc(',', f);
		put_opt(f, t->flushing);
		fputc(',', f);
		put_opt(f, t->logging);
		fprintf(f, ",%llu,%llu,%d,", U(t->end), U(t->end - t->start), t->sync);
		if (t->has_stats)
			fprintf(f, "%u,%u,%u", t->handles, t->blocks, t->blocks_logged);
		else
			fputs(",,", f);
		end_row(x, t->start);
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

void fsl_csv_export__free(struct fsl_csv_export *x)
{
	if (!x)
		return;
	fsl_map__free(&x->io);
	free(x->txns);
	fsl_comms__free(x->comms);
	free(x);
}
