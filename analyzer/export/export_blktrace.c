// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace export: fslens block events -> per-CPU files <name>.blktrace.<cpu>
 * in the blktrace v7 binary format, so blkparse, btt and iowatcher read them.
 *
 * A device whose trace has bio events gets them as blktrace records them:
 * Q (block_bio_queue), G (block_getrq), M and F (bio back and front merges),
 * X (block_split, the new sector as the payload), and from the requests I,
 * D, C, R (requeue) and M (a request merged into another, as the kernel's
 * blktrace writes it). btt then matches them by sector itself.
 *
 * A trace without bio events (fslens before them, imports) has requests
 * only, so each request gets one Q: at its insert (followed by an I), or at
 * its issue when no insert was seen (a direct issue). D and C follow the
 * issue and completion; a request merged into another gets an M. When a
 * scan pass (fsl_bt_export__scan) saw the whole trace first, a request that
 * is later merged away gets its M only, no Q and I: then btt's Q population
 * is the requests that were dispatched, the one fslens report's Q2C and D2C
 * are over. Records of request-level actions carry the FS category like the
 * kernel's own.
 * Per-CPU sequence numbers start at 1; the first record of each CPU file of
 * a device is preceded by nothing but notifies: a timestamp notify (wall time
 * of the first event) and a process notify the first time a task appears.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fslens/export.h"
#include "fslens/hashmap.h"

/* ---- codec ---- */

static void put16(unsigned char *p, uint16_t v, int be)
{
	if (be) {
		p[0] = v >> 8;
		p[1] = v;
	} else {
		p[0] = v;
		p[1] = v >> 8;
	}
}

static void put32(unsigned char *p, uint32_t v, int be)
{
	int i;

	for (i = 0; i < 4; i++)
		p[be ? 3 - i : i] = v >> (8 * i);
}

static void put64(unsigned char *p, uint64_t v, int be)
{
	int i;

	for (i = 0; i < 8; i++)
		p[be ? 7 - i : i] = v >> (8 * i);
}

static uint16_t get16(const unsigned char *p, int be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const unsigned char *p, int be)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)p[be ? 3 - i : i] << (8 * i);
	return v;
}

static uint64_t get64(const unsigned char *p, int be)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[be ? 7 - i : i] << (8 * i);
	return v;
}

void fsl_bt_encode(const struct fsl_bt_rec *r, unsigned char out[FSL_BT_REC_SIZE],
		   int big_endian)
{
	put32(out + 0, r->magic, big_endian);
	put32(out + 4, r->sequence, big_endian);
	put64(out + 8, r->time, big_endian);
	put64(out + 16, r->sector, big_endian);
	put32(out + 24, r->bytes, big_endian);
	put32(out + 28, r->action, big_endian);
	put32(out + 32, r->pid, big_endian);
	put32(out + 36, r->device, big_endian);
	put32(out + 40, r->cpu, big_endian);
	put16(out + 44, r->error, big_endian);
	put16(out + 46, r->pdu_len, big_endian);
}

int fsl_bt_decode(const unsigned char in[FSL_BT_REC_SIZE], struct fsl_bt_rec *r,
		  int *big_endian)
{
	int be = *big_endian;

	if (be < 0) {
		if ((get32(in, 0) & 0xffffff00u) == FSL_BT_MAGIC)
			be = 0;
		else if ((get32(in, 1) & 0xffffff00u) == FSL_BT_MAGIC)
			be = 1;
		else
			return -EBADMSG;
		*big_endian = be;
	}
	r->magic = get32(in + 0, be);
	if ((r->magic & 0xffffff00u) != FSL_BT_MAGIC)
		return -EBADMSG;
	if ((r->magic & 0xff) != FSL_BT_VERSION)
		return -EPROTONOSUPPORT;
	r->sequence = get32(in + 4, be);
	r->time = get64(in + 8, be);
	r->sector = get64(in + 16, be);
	r->bytes = get32(in + 24, be);
	r->action = get32(in + 28, be);
	r->pid = get32(in + 32, be);
	r->device = get32(in + 36, be);
	r->cpu = get32(in + 40, be);
	r->error = get16(in + 44, be);
	r->pdu_len = get16(in + 46, be);
	return 0;
}

static const struct {
	uint32_t fsl, bt;
} flag_map[] = {
	{ FSL_RQ_READ, FSL_BT_C_READ },
	{ FSL_RQ_WRITE, FSL_BT_C_WRITE },
	{ FSL_RQ_SYNC, FSL_BT_C_SYNC },
	{ FSL_RQ_META, FSL_BT_C_META },
	{ FSL_RQ_FUA, FSL_BT_C_FUA },
	{ FSL_RQ_FLUSH, FSL_BT_C_FLUSH },
	{ FSL_RQ_DISCARD, FSL_BT_C_DISCARD },
	{ FSL_RQ_AHEAD, FSL_BT_C_AHEAD },
};

uint32_t fsl_bt_cats_from_flags(uint32_t fsl_flags)
{
	uint32_t c = 0;
	size_t i;

	for (i = 0; i < sizeof(flag_map) / sizeof(flag_map[0]); i++)
		if (fsl_flags & flag_map[i].fsl)
			c |= flag_map[i].bt;
	return c;
}

uint32_t fsl_bt_flags_from_cats(uint32_t cats)
{
	uint32_t f = 0;
	size_t i;

	for (i = 0; i < sizeof(flag_map) / sizeof(flag_map[0]); i++)
		if (cats & flag_map[i].bt)
			f |= flag_map[i].fsl;
	if (!(f & (FSL_RQ_READ | FSL_RQ_WRITE | FSL_RQ_DISCARD)))
		f |= FSL_RQ_NONE;
	return f;
}

/* ---- request and task tables (u64 -> u64 in lib/hashmap) ---- */

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	return k ^ (k >> 33);
}

static int map_set(struct fsl_map *m, uint64_t key, uint64_t val)
{
	uint64_t *v = fsl_map__put(m, key, NULL);

	if (!v)
		return -ENOMEM;
	*v = val;
	return 0;
}

/* ---- exporter ---- */

#define BT_MAX_CPUS 1024

struct bt_dev {
	struct fsl_bt_dev_stats st;
	FILE **files;			/* per cpu, opened on first record */
	uint32_t *seq;			/* per cpu */
	unsigned int nfiles;
	int stamped;			/* timestamp notify written */
};

struct fsl_bt_export {
	struct fsl_bt_export_opts o;
	struct bt_dev *devs;
	size_t ndevs;
	struct fsl_map inserted;	/* request key -> 1 while between insert and issue,
					 * 2 if its Q and I were left out (merged later) */
	struct fsl_map scan_ins;	/* scan pass: request key -> insert ts */
	struct fsl_map merged;		/* (key, insert ts) of requests merged away */
	struct fsl_map noted;		/* (dev, tid) -> 1 once its process notify is out */
	struct fsl_map bio_devs;	/* scan: devices with bio events */
	struct fsl_map comm_idx;	/* tid -> index into comms + 1 */
	char (*comms)[16];
	size_t ncomms, comms_cap;
};

struct fsl_bt_export *fsl_bt_export__new(const struct fsl_bt_export_opts *opts, int *err)
{
	struct fsl_bt_export *x = calloc(1, sizeof(*x));

	if (!x) {
		*err = -ENOMEM;
		return NULL;
	}
	x->o = *opts;
	fsl_map__init(&x->inserted, sizeof(uint64_t));
	fsl_map__init(&x->scan_ins, sizeof(uint64_t));
	fsl_map__init(&x->merged, sizeof(uint64_t));
	fsl_map__init(&x->noted, sizeof(uint64_t));
	fsl_map__init(&x->bio_devs, sizeof(uint64_t));
	fsl_map__init(&x->comm_idx, sizeof(uint64_t));
	if (!x->o.dir)
		x->o.dir = ".";
	*err = 0;
	return x;
}

static struct bt_dev *get_dev(struct fsl_bt_export *x, uint32_t dev, int *err)
{
	struct bt_dev *d, *nd;
	const char *name = NULL;
	size_t i;

	for (i = 0; i < x->ndevs; i++)
		if (x->devs[i].st.dev == dev)
			return &x->devs[i];
	if (x->o.name && x->ndevs) {
		*err = -EXDEV;	/* one name for several devices would mix them */
		return NULL;
	}
	nd = realloc(x->devs, (x->ndevs + 1) * sizeof(*nd));
	if (!nd) {
		*err = -ENOMEM;
		return NULL;
	}
	x->devs = nd;
	d = &x->devs[x->ndevs++];
	memset(d, 0, sizeof(*d));
	d->st.dev = dev;
	if (x->o.name)
		name = x->o.name;
	else if (x->o.dev_name)
		name = x->o.dev_name(x->o.dev_name_ctx, dev);
	if (name)
		snprintf(d->st.name, sizeof(d->st.name), "%s", name);
	else
		snprintf(d->st.name, sizeof(d->st.name), "%u:%u", FSL_MAJOR(dev), FSL_MINOR(dev));
	return d;
}

static int open_cpu(struct fsl_bt_export *x, struct bt_dev *d, unsigned int cpu, FILE **fp)
{
	char path[4096];
	int fd;

	if (cpu >= BT_MAX_CPUS)
		return -ERANGE;
	if (cpu >= d->nfiles) {
		unsigned int n = cpu + 1;
		FILE **nf = realloc(d->files, n * sizeof(*nf));
		uint32_t *ns;

		if (!nf)
			return -ENOMEM;
		d->files = nf;
		ns = realloc(d->seq, n * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		d->seq = ns;
		memset(d->files + d->nfiles, 0, (n - d->nfiles) * sizeof(*nf));
		memset(d->seq + d->nfiles, 0, (n - d->nfiles) * sizeof(*ns));
		d->nfiles = n;
	}
	if (!d->files[cpu]) {
		snprintf(path, sizeof(path), "%s/%s.blktrace.%u", x->o.dir, d->st.name, cpu);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return -errno;
		d->files[cpu] = fdopen(fd, "w");
		if (!d->files[cpu]) {
			close(fd);
			return -errno;
		}
	}
	if (cpu + 1 > d->st.ncpus)
		d->st.ncpus = cpu + 1;
	*fp = d->files[cpu];
	return 0;
}

static int put_rec(struct fsl_bt_export *x, struct bt_dev *d, struct fsl_bt_rec *r,
		   const void *pdu)
{
	unsigned char buf[FSL_BT_REC_SIZE];
	FILE *f;
	int err = open_cpu(x, d, r->cpu, &f);

	if (err)
		return err;
	r->magic = FSL_BT_MAGIC | FSL_BT_VERSION;
	r->device = d->st.dev;
	if (FSL_BT_CATS(r->action) & FSL_BT_C_NOTIFY)
		r->sequence = 0;
	else
		r->sequence = ++d->seq[r->cpu];
	fsl_bt_encode(r, buf, x->o.big_endian);
	if (fwrite(buf, 1, sizeof(buf), f) != sizeof(buf))
		return -EIO;
	if (r->pdu_len && fwrite(pdu, 1, r->pdu_len, f) != r->pdu_len)
		return -EIO;
	d->st.bytes_written += sizeof(buf) + r->pdu_len;
	return 0;
}

static const char *comm_of(struct fsl_bt_export *x, uint32_t tid)
{
	uint64_t *v = fsl_map__get(&x->comm_idx, (uint64_t)tid + 1);

	return v ? x->comms[*v - 1] : NULL;
}

static int note_proc(struct fsl_bt_export *x, const struct fsl_ev_proc *p)
{
	uint32_t tid = p->hdr.tid ? p->hdr.tid : p->hdr.pid;
	uint64_t *v = fsl_map__get(&x->comm_idx, (uint64_t)tid + 1);

	if (!v) {
		if (x->ncomms == x->comms_cap) {
			size_t n = x->comms_cap ? x->comms_cap * 2 : 256;
			char (*nc)[16] = realloc(x->comms, n * sizeof(*nc));

			if (!nc)
				return -ENOMEM;
			x->comms = nc;
			x->comms_cap = n;
		}
		memset(x->comms[x->ncomms], 0, 16);
		x->ncomms++;
		if (map_set(&x->comm_idx, (uint64_t)tid + 1, x->ncomms))
			return -ENOMEM;
		v = fsl_map__get(&x->comm_idx, (uint64_t)tid + 1);
	}
	memcpy(x->comms[*v - 1], p->comm, 15);
	x->comms[*v - 1][15] = 0;
	return 0;
}

/* Timestamp notify on the first record of a device, process notify on a new task. */
static int notifies(struct fsl_bt_export *x, struct bt_dev *d, const struct fsl_hdr *h,
		    uint32_t tid)
{
	struct fsl_bt_rec r = { 0 };
	uint64_t key;
	const char *comm;
	char name[16];
	int err;

	if (!d->stamped && x->o.have_realtime) {
		unsigned char pdu[8];
		int64_t wall = (int64_t)h->ts + x->o.realtime_offset_ns;

		/* the kernel writes the two words in its own byte order */
		put32(pdu, (uint32_t)(wall / 1000000000), x->o.big_endian);
		put32(pdu + 4, (uint32_t)(wall % 1000000000), x->o.big_endian);
		r.time = h->ts;
		r.cpu = h->cpu;
		r.action = FSL_BT_ACTION(FSL_BT_N_TIMESTAMP, FSL_BT_C_NOTIFY);
		r.pdu_len = sizeof(pdu);
		err = put_rec(x, d, &r, pdu);
		if (err)
			return err;
		d->st.notify++;
	}
	d->stamped = 1;
	key = ((uint64_t)d->st.dev << 32 | tid) + 1;
	if (fsl_map__get(&x->noted, key))
		return 0;
	comm = comm_of(x, tid);
	if (!comm)
		return 0;	/* comm not known yet: told at its next record */
	memset(name, 0, sizeof(name));
	strncpy(name, comm, sizeof(name) - 1);
	memset(&r, 0, sizeof(r));
	r.time = h->ts;
	r.cpu = h->cpu;
	r.pid = tid;
	r.action = FSL_BT_ACTION(FSL_BT_N_PROCESS, FSL_BT_C_NOTIFY);
	r.pdu_len = sizeof(name);
	err = put_rec(x, d, &r, name);
	if (err)
		return err;
	d->st.notify++;
	return map_set(&x->noted, key, 1);
}

static uint64_t rq_key(const struct fsl_ev_block_rq *b)
{
	/* the request's address when recorded; else device and sector */
	if (b->rq)
		return mix64(b->rq ^ ((uint64_t)b->dev << 1)) | 1;
	return mix64(b->sector * 0x9e3779b97f4a7c15ull ^ b->dev) | 1;
}

static int emit_one(struct fsl_bt_export *x, struct bt_dev *d, const struct fsl_hdr *h,
		    uint64_t sector, uint32_t bytes, uint32_t flags, int32_t error,
		    uint32_t tid, unsigned int code, uint32_t cats, const void *pdu, uint16_t pdu_len)
{
	struct fsl_bt_rec r = { 0 };

	r.time = h->ts;
	/*
	 * A request with no start sector (a cache flush) has __sector -1; the
	 * kernel's own tracers write 0 there (blk_rq_trace_sector), and so
	 * must we, or blkparse and iowatcher see a request at the disk's end.
	 */
	r.sector = sector == UINT64_MAX ? 0 : sector;
	r.bytes = bytes;
	r.pid = tid;
	r.cpu = h->cpu;
	r.action = FSL_BT_ACTION(code, cats | fsl_bt_cats_from_flags(flags));
	if (code == FSL_BT_A_COMPLETE)
		r.error = (uint16_t)error;
	r.pdu_len = pdu_len;
	switch (code) {
	case FSL_BT_A_QUEUE: d->st.q++; break;
	case FSL_BT_A_INSERT: d->st.i++; break;
	case FSL_BT_A_BACKMERGE: d->st.m++; break;
	case FSL_BT_A_FRONTMERGE: d->st.f++; break;
	case FSL_BT_A_GETRQ: d->st.g++; break;
	case FSL_BT_A_REQUEUE: d->st.r++; break;
	case FSL_BT_A_SPLIT: d->st.x++; break;
	case FSL_BT_A_ISSUE: d->st.d++; break;
	case FSL_BT_A_COMPLETE: d->st.c++; break;
	}
	return put_rec(x, d, &r, pdu);
}

static int emit(struct fsl_bt_export *x, struct bt_dev *d, const struct fsl_ev_block_rq *b,
		uint32_t tid, unsigned int code, uint32_t cats)
{
	return emit_one(x, d, &b->hdr, b->sector, b->bytes, b->flags, b->error, tid, code, cats,
			NULL, 0);
}

/* The bio events of a device that has them: blktrace's own actions, one each. */
static int bio_event(struct fsl_bt_export *x, struct bt_dev *d, const struct fsl_hdr *ev,
		     uint32_t tid)
{
	const struct fsl_ev_block_bio *b = (const void *)ev;
	const struct fsl_ev_block_split *sp = (const void *)ev;
	unsigned char pdu[8];
	unsigned int code;

	switch (ev->type) {
	case FSL_EV_BLOCK_BIO_QUEUE: code = FSL_BT_A_QUEUE; break;
	case FSL_EV_BLOCK_GETRQ: code = FSL_BT_A_GETRQ; break;
	case FSL_EV_BLOCK_BIO_BACKMERGE: code = FSL_BT_A_BACKMERGE; break;
	case FSL_EV_BLOCK_BIO_FRONTMERGE: code = FSL_BT_A_FRONTMERGE; break;
	case FSL_EV_BLOCK_BIO_COMPLETE:
		return emit_one(x, d, ev, b->sector, b->nr_sector << 9, b->flags, b->error, tid,
				FSL_BT_A_COMPLETE, FSL_BT_C_COMPLETE, NULL, 0);
	case FSL_EV_BLOCK_SPLIT:
		/* the kernel's payload: the new sector, big-endian whatever the host */
		put64(pdu, sp->new_sector, 1);
		return emit_one(x, d, ev, sp->sector, sp->nr_sector << 9, sp->flags, 0, tid,
				FSL_BT_A_SPLIT, 0, pdu, sizeof(pdu));
	default:
		return 0;
	}
	return emit_one(x, d, ev, b->sector, b->nr_sector << 9, b->flags, 0, tid, code,
			FSL_BT_C_QUEUE, NULL, 0);
}

static int is_bio_event(unsigned int type)
{
	return type == FSL_EV_BLOCK_BIO_QUEUE || type == FSL_EV_BLOCK_GETRQ ||
	       type == FSL_EV_BLOCK_BIO_BACKMERGE || type == FSL_EV_BLOCK_BIO_FRONTMERGE ||
	       type == FSL_EV_BLOCK_SPLIT || type == FSL_EV_BLOCK_BIO_COMPLETE;
}

/* Size of the record of a block event type, 0 if not one. */
static size_t block_ev_size(unsigned int type)
{
	if (type == FSL_EV_BLOCK_SPLIT)
		return sizeof(struct fsl_ev_block_split);
	if (is_bio_event(type))
		return sizeof(struct fsl_ev_block_bio);
	if ((type >= FSL_EV_BLOCK_RQ_INSERT && type <= FSL_EV_BLOCK_RQ_MERGE) ||
	    type == FSL_EV_BLOCK_RQ_REQUEUE)
		return sizeof(struct fsl_ev_block_rq);
	return 0;
}

/* Every block record starts with its header and the dev_t. */
static uint32_t block_ev_dev(const struct fsl_hdr *ev)
{
	return ((const struct fsl_ev_block_bio *)ev)->dev;
}

static uint64_t ins_id(uint64_t key, uint64_t ts)
{
	return mix64(key ^ mix64(ts)) | 1;
}

int fsl_bt_export__scan(struct fsl_bt_export *x, const struct fsl_hdr *ev)
{
	const struct fsl_ev_block_rq *b = (const void *)ev;
	size_t need = block_ev_size(ev->type);
	uint64_t *ts;

	if (!need || ev->size < need || (x->o.only_dev && block_ev_dev(ev) != x->o.only_dev))
		return 0;
	if (ev->type == FSL_EV_BLOCK_BIO_QUEUE)
		return map_set(&x->bio_devs, block_ev_dev(ev), 1);
	switch (ev->type) {
	case FSL_EV_BLOCK_RQ_INSERT:
		return map_set(&x->scan_ins, rq_key(b), ev->ts);
	case FSL_EV_BLOCK_RQ_ISSUE:
		fsl_map__del(&x->scan_ins, rq_key(b));
		return 0;
	case FSL_EV_BLOCK_RQ_MERGE:
		ts = fsl_map__get(&x->scan_ins, rq_key(b));
		if (!ts)
			return 0;
		fsl_map__del(&x->scan_ins, rq_key(b));
		return map_set(&x->merged, ins_id(rq_key(b), *ts), 1);
	}
	return 0;
}

int fsl_bt_export__event(struct fsl_bt_export *x, const struct fsl_hdr *ev)
{
	const struct fsl_ev_block_rq *b = (const void *)ev;
	struct bt_dev *d;
	uint32_t tid;
	uint64_t key;
	int err = 0;

	size_t need = block_ev_size(ev->type);
	uint32_t dev;

	if (ev->type == FSL_EV_PROC && ev->size >= sizeof(struct fsl_ev_proc))
		return note_proc(x, (const void *)ev);
	if (!need || ev->size < need)
		return 0;
	dev = block_ev_dev(ev);
	if (x->o.only_dev && dev != x->o.only_dev)
		return 0;
	/* a trace fed with no scan: a device's bios count from the first one seen */
	if (ev->type == FSL_EV_BLOCK_BIO_QUEUE && !fsl_map__get(&x->bio_devs, dev) &&
	    map_set(&x->bio_devs, dev, 1))
		return -ENOMEM;
	d = get_dev(x, dev, &err);
	if (!d)
		return err;
	tid = ev->tid ? ev->tid : ev->pid;
	err = notifies(x, d, ev, tid);
	if (err)
		return err;
	if (fsl_map__get(&x->bio_devs, dev)) {
		d->st.bios = 1;
		switch (ev->type) {
		case FSL_EV_BLOCK_RQ_INSERT:
			return emit(x, d, b, tid, FSL_BT_A_INSERT, FSL_BT_C_QUEUE | FSL_BT_C_FS);
		case FSL_EV_BLOCK_RQ_ISSUE:
			return emit(x, d, b, tid, FSL_BT_A_ISSUE, FSL_BT_C_ISSUE | FSL_BT_C_FS);
		case FSL_EV_BLOCK_RQ_COMPLETE:
			return emit(x, d, b, tid, FSL_BT_A_COMPLETE, FSL_BT_C_COMPLETE | FSL_BT_C_FS);
		case FSL_EV_BLOCK_RQ_MERGE:
			return emit(x, d, b, tid, FSL_BT_A_BACKMERGE, FSL_BT_C_QUEUE | FSL_BT_C_FS);
		case FSL_EV_BLOCK_RQ_REQUEUE:
			return emit(x, d, b, tid, FSL_BT_A_REQUEUE, FSL_BT_C_REQUEUE | FSL_BT_C_FS);
		default:
			return bio_event(x, d, ev, tid);
		}
	}
	if (is_bio_event(ev->type))
		return 0;
	key = rq_key(b);
	switch (ev->type) {
	case FSL_EV_BLOCK_RQ_INSERT:
		if (fsl_map__get(&x->merged, ins_id(key, ev->ts)))
			return map_set(&x->inserted, key, 2);	/* shown as its M only */
		err = emit(x, d, b, tid, FSL_BT_A_QUEUE, FSL_BT_C_QUEUE);
		if (!err)
			err = emit(x, d, b, tid, FSL_BT_A_INSERT, FSL_BT_C_QUEUE | FSL_BT_C_FS);
		if (!err)
			err = map_set(&x->inserted, key, 1);
		break;
	case FSL_EV_BLOCK_RQ_ISSUE:
		if (!fsl_map__get(&x->inserted, key))
			err = emit(x, d, b, tid, FSL_BT_A_QUEUE, FSL_BT_C_QUEUE);
		fsl_map__del(&x->inserted, key);
		if (!err)
			err = emit(x, d, b, tid, FSL_BT_A_ISSUE, FSL_BT_C_ISSUE | FSL_BT_C_FS);
		break;
	case FSL_EV_BLOCK_RQ_MERGE:
		fsl_map__del(&x->inserted, key);
		err = emit(x, d, b, tid, FSL_BT_A_BACKMERGE, FSL_BT_C_QUEUE | FSL_BT_C_FS);
		break;
	case FSL_EV_BLOCK_RQ_COMPLETE:
		err = emit(x, d, b, tid, FSL_BT_A_COMPLETE, FSL_BT_C_COMPLETE | FSL_BT_C_FS);
		break;
	case FSL_EV_BLOCK_RQ_REQUEUE:
		fsl_map__del(&x->inserted, key);
		err = emit(x, d, b, tid, FSL_BT_A_REQUEUE, FSL_BT_C_REQUEUE | FSL_BT_C_FS);
		break;
	}
	return err;
}

int fsl_bt_export__finish(struct fsl_bt_export *x)
{
	size_t i;
	unsigned int cpu;
	int err = 0, e;
	FILE *f;

	for (i = 0; i < x->ndevs; i++) {
		struct bt_dev *d = &x->devs[i];

		/* blkparse -i reads <name>.blktrace.0, .1, ... up to the first missing one */
		for (cpu = 0; cpu < d->st.ncpus; cpu++) {
			if (cpu < d->nfiles && d->files[cpu])
				continue;
			e = open_cpu(x, d, cpu, &f);
			if (e && !err)
				err = e;
		}
		for (cpu = 0; cpu < d->nfiles; cpu++) {
			if (!d->files[cpu])
				continue;
			if (fclose(d->files[cpu]) && !err)
				err = -errno;
			d->files[cpu] = NULL;
		}
	}
	return err;
}

size_t fsl_bt_export__ndevs(const struct fsl_bt_export *x)
{
	return x->ndevs;
}

const struct fsl_bt_dev_stats *fsl_bt_export__dev(const struct fsl_bt_export *x, size_t idx)
{
	return idx < x->ndevs ? &x->devs[idx].st : NULL;
}

void fsl_bt_export__free(struct fsl_bt_export *x)
{
	size_t i;
	unsigned int cpu;

	if (!x)
		return;
	for (i = 0; i < x->ndevs; i++) {
		for (cpu = 0; cpu < x->devs[i].nfiles; cpu++)
			if (x->devs[i].files[cpu])
				fclose(x->devs[i].files[cpu]);
		free(x->devs[i].files);
		free(x->devs[i].seq);
	}
	free(x->devs);
	fsl_map__free(&x->inserted);
	fsl_map__free(&x->scan_ins);
	fsl_map__free(&x->merged);
	fsl_map__free(&x->noted);
	fsl_map__free(&x->bio_devs);
	fsl_map__free(&x->comm_idx);
	free(x->comms);
	free(x);
}

const char *fsl_bt_export__summary(const struct fsl_bt_export *x, size_t idx, const char *dir,
				   char *buf, size_t len)
{
	const struct fsl_bt_dev_stats *d = fsl_bt_export__dev(x, idx);
	char g[32] = "", fx[64] = "", r[32] = "";

	if (d->bios) {
		snprintf(g, sizeof(g), "  G %llu", (unsigned long long)d->g);
		snprintf(fx, sizeof(fx), "  F %llu  X %llu", (unsigned long long)d->f,
			 (unsigned long long)d->x);
	}
	if (d->r)
		snprintf(r, sizeof(r), "  R %llu", (unsigned long long)d->r);
	snprintf(buf, len, "%s/%s.blktrace.{0..%u}: %u,%u  Q %llu%s  I %llu  M %llu%s%s  "
		 "D %llu  C %llu  (blkparse -i %s/%s)", dir, d->name, d->ncpus - 1,
		 FSL_MAJOR(d->dev), FSL_MINOR(d->dev), (unsigned long long)d->q, g,
		 (unsigned long long)d->i, (unsigned long long)d->m, fx, r,
		 (unsigned long long)d->d, (unsigned long long)d->c, dir, d->name);
	return buf;
}
