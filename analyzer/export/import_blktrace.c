// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace import: per-CPU blktrace files (v7, either byte order) -> fslens
 * block records, merged by time.
 *
 * fslens keeps requests, not bios: I becomes block_rq_insert, D
 * block_rq_issue, C block_rq_complete, and a merge carrying the FS category
 * (a request merged into another, which is how the kernel tags request
 * merges) block_rq_merge. Bio-level actions (Q, bio merges, G, S, P, U, X,
 * A, requeues) have no fslens event and are counted as skipped. Payloads
 * are skipped except for process notifies (the comm, emitted as a proc
 * record) and the timestamp notify (wall clock at a monotonic instant).
 * blktrace has no request identity; one is made up per (device, sector)
 * from insert or issue to completion so consumers can pair the events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"
#include "fslens/hashmap.h"

struct bt_in {
	const char *path;
	FILE *f;
	uint64_t off;			/* of the current record */
	int be;
	int have;			/* cur holds a record */
	struct fsl_bt_rec cur;
	unsigned char pdu[65536];
};

static int errf(char *buf, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int errf(char *buf, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Read the next record of in (and its payload). 0 ok, 1 at a clean end, -errno. */
static int next_rec(struct bt_in *in, uint64_t *pdu_skipped, char *eb, size_t el)
{
	unsigned char buf[FSL_BT_REC_SIZE];
	size_t n;
	int err;

	if (in->have)
		in->off += FSL_BT_REC_SIZE + in->cur.pdu_len;
	in->have = 0;
	n = fread(buf, 1, sizeof(buf), in->f);
	if (n == 0) {
		if (ferror(in->f))
			return errf(eb, el, -EIO, "%s: read error at offset %" PRIu64,
				    in->path, in->off);
		return 1;
	}
	if (n < sizeof(buf))
		return errf(eb, el, -EBADMSG,
			    "%s: truncated record at offset %" PRIu64 " (%zu of %d bytes)",
			    in->path, in->off, n, FSL_BT_REC_SIZE);
	err = fsl_bt_decode(buf, &in->cur, &in->be);
	if (err == -EPROTONOSUPPORT)
		return errf(eb, el, err,
			    "%s: blktrace version %u at offset %" PRIu64 " (only 7 is supported)",
			    in->path, in->cur.magic & 0xff, in->off);
	if (err)
		return errf(eb, el, err,
			    "%s: bad magic 0x%02x%02x%02x%02x at offset %" PRIu64
			    " (not a blktrace record)", in->path, buf[0], buf[1], buf[2], buf[3],
			    in->off);
	if (in->cur.pdu_len) {
		n = fread(in->pdu, 1, in->cur.pdu_len, in->f);
		if (n < in->cur.pdu_len)
			return errf(eb, el, -EBADMSG,
				    "%s: truncated payload at offset %" PRIu64
				    " (%zu of %u bytes)", in->path,
				    in->off + FSL_BT_REC_SIZE, n, in->cur.pdu_len);
		if (!(FSL_BT_CATS(in->cur.action) & FSL_BT_C_NOTIFY))
			*pdu_skipped += n;
	}
	in->have = 1;
	return 0;
}

/*
 * (device, sector) -> made-up request id: one map of sectors per device (a
 * sector needs all 64 bits of a key; a trace has a few devices).
 */
struct rq_dev {
	uint32_t dev;
	struct fsl_map ids;	/* sector -> uint64_t id */
};

struct rq_tab {
	struct rq_dev *d;
	size_t n;
};

/* The device's map; NULL if it has none (create = 0) or on ENOMEM. */
static struct fsl_map *rq_map(struct rq_tab *t, uint32_t dev, int create)
{
	struct rq_dev *nd;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->d[i].dev == dev)
			return &t->d[i].ids;
	if (!create || !(nd = realloc(t->d, (t->n + 1) * sizeof(*nd))))
		return NULL;
	t->d = nd;
	nd[t->n].dev = dev;
	fsl_map__init(&nd[t->n].ids, sizeof(uint64_t));
	return &nd[t->n++].ids;
}

static void rq_free(struct rq_tab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		fsl_map__free(&t->d[i].ids);
	free(t->d);
}

static void note_dev(struct fsl_bt_import_stats *st, uint32_t dev)
{
	uint32_t i;

	for (i = 0; i < st->ndevs; i++)
		if (st->devs[i] == dev)
			return;
	if (st->ndevs < sizeof(st->devs) / sizeof(st->devs[0]))
		st->devs[st->ndevs++] = dev;
}

static int handle_notify(struct bt_in *in, fsl_bt_emit_fn emit, void *ctx,
			 struct fsl_bt_import_stats *st)
{
	const struct fsl_bt_rec *r = &in->cur;
	const unsigned char *pdu = in->pdu;
	unsigned int len = r->pdu_len;
	struct fsl_ev_proc p;
	unsigned int code = FSL_BT_CODE(r->action);

	st->notify++;
	if (code & FSL_BT_A_CGROUP) {
		/* a cgroup id leads the payload */
		if (len < 8)
			return 0;
		pdu += 8;
		len -= 8;
		code &= ~FSL_BT_A_CGROUP;
	}
	if (code == FSL_BT_N_TIMESTAMP && len == 8 && !st->have_realtime) {
		/* two u32 in the writer's byte order */
		uint32_t sec, nsec;
		int i;

		sec = nsec = 0;
		for (i = 0; i < 4; i++) {
			sec |= (uint32_t)pdu[in->be ? 3 - i : i] << (8 * i);
			nsec |= (uint32_t)pdu[4 + (in->be ? 3 - i : i)] << (8 * i);
		}
		st->have_realtime = 1;
		st->realtime_offset_ns = (int64_t)sec * 1000000000 + nsec - (int64_t)r->time;
		return 0;
	}
	if (code != FSL_BT_N_PROCESS || !len)
		return 0;
	memset(&p, 0, sizeof(p));
	p.hdr.ts = r->time;
	p.hdr.pid = p.hdr.tid = r->pid;
	p.hdr.type = FSL_EV_PROC;
	p.hdr.size = sizeof(p);
	p.hdr.cpu = r->cpu;
	p.kind = FSL_PROC_SEEN;
	memcpy(p.comm, pdu, len < 15 ? len : 15);
	st->events++;
	return emit(ctx, &p.hdr);
}

static int handle_trace(struct bt_in *in, struct rq_tab *rqs, uint64_t *next_id,
			fsl_bt_emit_fn emit, void *ctx, struct fsl_bt_import_stats *st)
{
	const struct fsl_bt_rec *r = &in->cur;
	unsigned int code = FSL_BT_CODE(r->action) & ~FSL_BT_A_CGROUP;
	uint32_t cats = FSL_BT_CATS(r->action);
	struct fsl_ev_block_rq b;
	struct fsl_map *ids;
	uint64_t *id;
	uint16_t type;

	st->records++;
	if (!st->first_ns || r->time < st->first_ns)
		st->first_ns = r->time;
	if (r->time > st->last_ns)
		st->last_ns = r->time;
	if (r->cpu > st->max_cpu)
		st->max_cpu = r->cpu;
	note_dev(st, r->device);
	switch (code) {
	case FSL_BT_A_QUEUE:
		st->q++;
		st->skipped++;
		return 0;
	case FSL_BT_A_INSERT:
		st->i++;
		type = FSL_EV_BLOCK_RQ_INSERT;
		break;
	case FSL_BT_A_ISSUE:
		st->d++;
		type = FSL_EV_BLOCK_RQ_ISSUE;
		break;
	case FSL_BT_A_COMPLETE:
		st->c++;
		type = FSL_EV_BLOCK_RQ_COMPLETE;
		break;
	case FSL_BT_A_BACKMERGE:
	case FSL_BT_A_FRONTMERGE:
		st->m++;
		if (!(cats & FSL_BT_C_FS)) {
			st->skipped++;	/* a bio merged into a request: no fslens event */
			return 0;
		}
		type = FSL_EV_BLOCK_RQ_MERGE;
		break;
	default:
		st->skipped++;
		return 0;
	}
	memset(&b, 0, sizeof(b));
	b.hdr.ts = r->time;
	b.hdr.pid = b.hdr.tid = r->pid;
	b.hdr.type = type;
	b.hdr.size = sizeof(b);
	b.hdr.cpu = r->cpu;
	b.dev = r->device;
	b.sector = r->sector;
	b.bytes = r->bytes;
	b.nr_sector = r->bytes >> 9;
	b.flags = fsl_bt_flags_from_cats(cats);
	if (type == FSL_EV_BLOCK_RQ_COMPLETE)
		b.error = (int16_t)r->error;
	ids = rq_map(rqs, r->device, 1);
	if (!ids)
		return -ENOMEM;
	id = fsl_map__get(ids, r->sector);
	if (id) {
		b.rq = *id;
	} else {
		b.rq = ++*next_id;
		if (type == FSL_EV_BLOCK_RQ_INSERT || type == FSL_EV_BLOCK_RQ_ISSUE) {
			id = fsl_map__put(ids, r->sector, NULL);
			if (!id)
				return -ENOMEM;
			*id = b.rq;
		}
	}
	if (type == FSL_EV_BLOCK_RQ_COMPLETE || type == FSL_EV_BLOCK_RQ_MERGE)
		fsl_map__del(ids, r->sector);
	st->events++;
	return emit(ctx, &b.hdr);
}

int fsl_bt_import(const char *const *files, size_t nfiles, fsl_bt_emit_fn emit, void *ctx,
		  struct fsl_bt_import_stats *st, char *errbuf, size_t errlen)
{
	struct rq_tab rqs = { NULL, 0 };
	struct bt_in *ins;
	uint64_t next_id = 0;
	size_t i;
	int err = 0;

	memset(st, 0, sizeof(*st));
	if (errbuf && errlen)
		errbuf[0] = 0;
	if (!nfiles)
		return errf(errbuf, errlen, -EINVAL, "no input files");
	ins = calloc(nfiles, sizeof(*ins));
	if (!ins)
		return errf(errbuf, errlen, -ENOMEM, "out of memory");
	for (i = 0; i < nfiles && !err; i++) {
		ins[i].path = files[i];
		ins[i].be = -1;
		ins[i].f = fopen(files[i], "rb");
		if (!ins[i].f) {
			err = errf(errbuf, errlen, -errno, "cannot open '%s': %s", files[i],
				   strerror(errno));
			break;
		}
		err = next_rec(&ins[i], &st->pdu_bytes_skipped, errbuf, errlen);
		if (err == 1)
			err = 0;
		else if (!err && i == 0)
			st->big_endian = ins[i].be;
	}
	/* k-way merge by time; per-CPU files are each in time order */
	while (!err) {
		struct bt_in *best = NULL;

		for (i = 0; i < nfiles; i++)
			if (ins[i].have && (!best || ins[i].cur.time < best->cur.time))
				best = &ins[i];
		if (!best)
			break;
		if (FSL_BT_CATS(best->cur.action) & FSL_BT_C_NOTIFY)
			err = handle_notify(best, emit, ctx, st);
		else
			err = handle_trace(best, &rqs, &next_id, emit, ctx, st);
		if (err) {
			if (errbuf && errlen && !errbuf[0])
				errf(errbuf, errlen, err, "%s: record at offset %" PRIu64 ": %s",
				     best->path, best->off, strerror(-err));
			break;
		}
		err = next_rec(best, &st->pdu_bytes_skipped, errbuf, errlen);
		if (err == 1)
			err = 0;
	}
	for (i = 0; i < nfiles; i++)
		if (ins[i].f)
			fclose(ins[i].f);
	rq_free(&rqs);
	free(ins);
	return err;
}
