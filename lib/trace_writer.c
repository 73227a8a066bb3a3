// SPDX-License-Identifier: GPL-2.0
/*
 * Trace writer: puts events in time order through the ordering service
 * (lib/ordered.c; unless the caller's stream is sorted already), delta-encodes
 * them per type into chunks, compresses each chunk with zstd and appends it
 * as one block.
 * Every block is written whole or (after a write error) cut off again, so a
 * crash or a full disk leaves a file whose complete blocks all read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
#include "fslens/ordered.h"
#include "trace_internal.h"

#define DEF_CHUNK_EVENTS	65536
#define DEF_CHUNK_BYTES		(1u << 20)	/* encoded bytes before compression */
#define DEF_REORDER_NS		2000000000ull
/*
 * Bytes the ordering may hold (copies and slots): past it the oldest go
 * out, window or not, and whatever is older than them arrives late.
 */
#define ORDER_BYTES		(32u << 20)
#define META_FLUSH_BYTES	(1u << 20)

struct lane_state {
	uint32_t lanes[FSL_MAX_LANES];
	uint16_t size;
	uint8_t nlanes;
	uint8_t valid;
};

struct fsl_writer {
	int fd;
	int err;		/* sticky: first write error */
	char *path;		/* the name asked for */
	char *beside;		/* replacing: the new file's name until it is published */
	int created;		/* path is a file this writer created (not a replacement) */
	struct fsl_writer_opts opts;
	uint64_t off;		/* end of the last complete block */
	struct fsl_file_hdr fh;

	/* ordering (NULL: opts.sorted) and the emitted stream */
	struct fsl_ordered *ord;
	unsigned char *one;	/* a dirop whose paths are clamped */
	uint64_t last_emit_ts;
	int emitted_any;

	/* current chunk */
	struct fsl_buf enc;
	struct lane_state st[FSL_STATE_TYPES + 1];
	uint8_t type_fam[FSL_STATE_TYPES];
	uint8_t type_lanes[FSL_STATE_TYPES];
	uint32_t ccount;
	uint64_t cfirst, clast, cprev_ts, craw;
	uint32_t cfam[FSL_BLK_NFAM];
	ZSTD_CCtx *zc;
	struct fsl_buf zbuf;

	/* pending metadata */
	struct fsl_buf kv;
	struct fsl_buf stacks, syms;
	uint32_t nstacks, nsyms;
	int lost_dirty;

	/* totals */
	uint64_t events, late, raw_bytes, chunks;
	uint64_t fam_events[FSL_BLK_NFAM], fam_lost[FSL_BLK_NFAM];
	uint64_t first_ts, last_ts;
	struct fsl_buf index;	/* footer entries */
};

static int write_all(int fd, const struct iovec *iov, int n)
{
	struct iovec v[4];
	int i = 0;

	memcpy(v, iov, n * sizeof(*iov));
	while (i < n) {
		ssize_t r = writev(fd, v + i, n - i);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		while (i < n && (size_t)r >= v[i].iov_len) {
			r -= v[i].iov_len;
			i++;
		}
		if (i < n) {
			v[i].iov_base = (char *)v[i].iov_base + r;
			v[i].iov_len -= r;
		}
	}
	return 0;
}

/*
 * Append one block. On failure the partial block is cut off so the file
 * still ends at a block boundary, and the error sticks.
 */
static int write_block(struct fsl_writer *w, struct fsl_blk_hdr *b, const void *raw,
		       size_t raw_len, int compress)
{
	unsigned char hb[FSL_BLK_HDR_SIZE], ib[FSL_FOOTER_ENTRY_SIZE];
	struct iovec iov[2];
	const void *payload = raw;
	size_t plen = raw_len;
	int err;

	if (w->err)
		return w->err;
	if (raw_len > FSL_MAX_BLOCK)
		return -EFBIG;
	b->flags = 0;
	if (compress && raw_len && !w->opts.no_compress) {
		size_t bound = ZSTD_compressBound(raw_len), r;

		if (fsl_buf_reserve(&w->zbuf, bound))
			return -ENOMEM;
		r = ZSTD_compressCCtx(w->zc, w->zbuf.p, bound, raw, raw_len,
				      w->opts.zstd_level);
		if (ZSTD_isError(r))
			return -EIO;
		payload = w->zbuf.p;
		plen = r;
		b->flags |= FSL_BLK_F_ZSTD;
	}
	b->disk_len = plen;
	b->raw_len = raw_len;
	b->payload_crc = fsl_crc32c(0, payload, plen);
	fsl_blk_hdr_encode(hb, b);
	iov[0].iov_base = hb;
	iov[0].iov_len = sizeof(hb);
	iov[1].iov_base = (void *)payload;
	iov[1].iov_len = plen;
	err = write_all(w->fd, iov, 2);
	if (err) {
		/* Best effort: drop the partial block; the file stays readable. */
		if (ftruncate(w->fd, w->off) == 0)
			lseek(w->fd, w->off, SEEK_SET);
		w->err = err;
		return err;
	}
	if (b->kind != FSL_BLK_FOOTER) {
		put_le64(ib, w->off);
		put_le16(ib + 8, b->kind);
		put_le16(ib + 10, b->sub);
		put_le32(ib + 12, b->count);
		put_le64(ib + 16, b->first_ts);
		put_le64(ib + 24, b->last_ts);
		put_le32(ib + 32, b->disk_len);
		put_le32(ib + 36, b->raw_len);
		if (fsl_buf_put(&w->index, ib, sizeof(ib)))
			return -ENOMEM;
	}
	w->off += sizeof(hb) + plen;
	return 0;
}

static int write_meta(struct fsl_writer *w, unsigned int kind, const void *p, size_t len,
		      uint32_t count)
{
	struct fsl_blk_hdr b = { .kind = FSL_BLK_META, .sub = kind, .count = count };

	return write_block(w, &b, p, len, 1);
}

static int put_str16(struct fsl_buf *b, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;
	unsigned char l[2];

	if (n > max)
		n = max;
	put_le16(l, n);
	if (fsl_buf_put(b, l, 2) || fsl_buf_put(b, s, n))
		return -ENOMEM;
	return 0;
}

static int write_schema(struct fsl_writer *w)
{
	const struct fsl_event_desc *all;
	unsigned int n = fsl_schema_builtin_all(&all), i, k;
	struct fsl_buf b = { 0 };
	unsigned char t[8];
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct fsl_event_desc *d = &all[i];

		put_le16(t, d->type);
		t[2] = d->family;
		t[3] = d->nfields;
		put_le16(t + 4, d->size);
		err = fsl_buf_put(&b, t, 6) || put_str16(&b, d->name, 255) ||
		      put_str16(&b, d->tp_group, 255) ? -ENOMEM : 0;
		for (k = 0; k < d->nfields && !err; k++) {
			put_le16(t, d->fields[k].offset);
			t[2] = d->fields[k].size;
			t[3] = d->fields[k].kind;
			err = fsl_buf_put(&b, t, 4) || put_str16(&b, d->fields[k].name, 255) ?
			      -ENOMEM : 0;
		}
	}
	if (!err)
		err = write_meta(w, FSL_META_SCHEMA, b.p, b.len, n);
	fsl_buf_free(&b);
	return err;
}

static int write_header(struct fsl_writer *w)
{
	unsigned char hb[FSL_HDR_SIZE];
	ssize_t r;

	fsl_file_hdr_encode(hb, &w->fh);
	do
		r = pwrite(w->fd, hb, sizeof(hb), 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return r == sizeof(hb) ? 0 : -EIO;
}

static int64_t clock_diff(clockid_t a)
{
	struct timespec t1, m, t2;

	clock_gettime(a, &t1);
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(a, &t2);
	return ((int64_t)t1.tv_sec * 1000000000 + t1.tv_nsec) / 2 +
	       ((int64_t)t2.tv_sec * 1000000000 + t2.tv_nsec) / 2 -
	       ((int64_t)m.tv_sec * 1000000000 + m.tv_nsec);
}

/*
 * The output file, created new: never through a symbolic link (a user could
 * point one at a file only root may write) and never into anything but a
 * regular file. Replacing (force) writes a file beside it, *beside, which
 * fsl_writer__publish renames over the old name: the rename replaces a link
 * or a hard-linked name itself, never what it points to, and until then the
 * old trace is untouched, so a recording that fails to start loses nothing.
 */
static int create_output(const char *path, int force, char **beside)
{
	char tmp[4096];
	const char *slash = strrchr(path, '/');
	struct stat sb;
	int fd;

	*beside = NULL;
	if (!lstat(path, &sb)) {
		if (S_ISLNK(sb.st_mode))
			return -ELOOP;
		if (S_ISDIR(sb.st_mode))
			return -EISDIR;
		if (!S_ISREG(sb.st_mode))
			return -EINVAL;
		if (!force)
			return -EEXIST;
	} else if (errno != ENOENT) {
		return -errno;
	} else {
		force = 0;	/* nothing to replace */
	}
	if (!force) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		return fd < 0 ? -errno : fd;
	}
	if (snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);		/* mode 0600, O_EXCL */
	if (fd < 0)
		return -errno;
	*beside = strdup(tmp);
	if (!*beside) {
		unlink(tmp);
		close(fd);
		return -ENOMEM;
	}
	return fd;
}

int fsl_writer__publish(struct fsl_writer *w)
{
	if (!w->beside)
		return 0;
	if (rename(w->beside, w->path))
		return -errno;
	free(w->beside);
	w->beside = NULL;
	w->created = 1;
	return 0;
}

struct fsl_writer *fsl_writer__open(const char *path, const struct fsl_writer_opts *opts,
				    int *err)
{
	struct fsl_writer *w;
	struct timespec now;
	unsigned int t;
	int e;

	if (!path || !strcmp(path, "-")) {
		*err = -EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		*err = -ENOMEM;
		return NULL;
	}
	if (opts)
		w->opts = *opts;
	if (!w->opts.chunk_events)
		w->opts.chunk_events = DEF_CHUNK_EVENTS;
	if (w->opts.chunk_events > 1u << 22)
		w->opts.chunk_events = 1u << 22;
	if (!w->opts.zstd_level)
		w->opts.zstd_level = 1;	/* fast; level 3 saves ~12% of size at ~25% more CPU */
	if (!w->opts.reorder_ns)
		w->opts.reorder_ns = DEF_REORDER_NS;
	for (t = 0; t < FSL_STATE_TYPES; t++) {
		const struct fsl_event_desc *d = fsl_schema_builtin(t);

		w->type_fam[t] = d && d->family < FSL_BLK_NFAM ? d->family : FSL_BLK_NFAM - 1;
		w->type_lanes[t] = d ? fsl_lanes_for(d->size) : FSL_MAX_LANES;
	}
	w->zc = ZSTD_createCCtx();
	if (!w->opts.sorted && (w->ord = fsl_ordered__new(w->opts.reorder_ns)))
		fsl_ordered__set_limit(w->ord, ORDER_BYTES);
	if (!w->zc || (!w->opts.sorted && !w->ord)) {
		ZSTD_freeCCtx(w->zc);
		fsl_ordered__free(w->ord);
		free(w);
		*err = -ENOMEM;
		return NULL;
	}
	w->path = strdup(path);
	w->fd = w->path ? create_output(path, w->opts.force, &w->beside) : -ENOMEM;
	if (w->fd < 0) {
		*err = w->fd;
		ZSTD_freeCCtx(w->zc);
		free(w->path);
		fsl_ordered__free(w->ord);
		free(w);
		return NULL;
	}
	w->created = !w->beside;
	clock_gettime(CLOCK_MONOTONIC, &now);
	w->fh.version = FSL_TRACE_VERSION;
	w->fh.header_size = FSL_HDR_SIZE;
	w->fh.endian = FSL_ENDIAN_MARK;
	w->fh.start_ns = (uint64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	w->fh.realtime_offset_ns = clock_diff(CLOCK_REALTIME);
	w->fh.boottime_offset_ns = clock_diff(CLOCK_BOOTTIME);
	w->off = FSL_HDR_SIZE;
	e = write_header(w);
	if (!e && lseek(w->fd, FSL_HDR_SIZE, SEEK_SET) < 0)
		e = -errno;
	if (!e)
		e = write_schema(w);
	if (e) {
		*err = e;
		fsl_writer__discard(w);
		return NULL;
	}
	return w;
}

/* ---- metadata ---- */

static int kv_escape(struct fsl_buf *b, const char *s)
{
	for (; *s; s++) {
		int e = 0;

		if (*s == '\n')
			e = fsl_buf_put(b, "\\n", 2);
		else if (*s == '\\')
			e = fsl_buf_put(b, "\\\\", 2);
		else
			e = fsl_buf_put(b, s, 1);
		if (e)
			return -ENOMEM;
	}
	return 0;
}

int fsl_writer__kv(struct fsl_writer *w, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *val;
	int n;

	if (!key || !*key || strpbrk(key, "=\n\\"))
		return -EINVAL;
	va_start(ap, fmt);
	n = vasprintf(&val, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	n = fsl_buf_put(&w->kv, key, strlen(key)) || fsl_buf_put(&w->kv, "=", 1) ||
	    kv_escape(&w->kv, val) || fsl_buf_put(&w->kv, "\n", 1) ? -ENOMEM : 0;
	free(val);
	return n;
}

int fsl_writer__text(struct fsl_writer *w, const char *name, const void *data, size_t len)
{
	struct fsl_buf b = { 0 };
	int err;

	if (!name || strlen(name) > 255 || len > FSL_MAX_BLOCK - 260)
		return -EINVAL;
	if (put_str16(&b, name, 255) || fsl_buf_put(&b, data, len)) {
		fsl_buf_free(&b);
		return -ENOMEM;
	}
	err = write_meta(w, FSL_META_TEXT, b.p, b.len, 1);
	fsl_buf_free(&b);
	return err;
}

int fsl_writer__bitmap(struct fsl_writer *w, const struct fsl_bitmap *bm)
{
	struct fsl_buf b = { 0 };
	unsigned char t[32];
	uint64_t i, sum = 0;
	int err = 0;

	if (!bm || (bm->nruns && !bm->runs))
		return -EINVAL;
	for (i = 0; i < bm->nruns; i++)
		sum += bm->runs[i];
	if (sum != bm->nbits)
		return -EINVAL;
	put_le32(t, bm->kind);
	put_le32(t + 4, bm->when);
	put_le64(t + 8, bm->first);
	put_le64(t + 16, bm->nbits);
	put_le64(t + 24, bm->nruns);
	err = fsl_buf_put(&b, t, 32);
	for (i = 0; i < bm->nruns && !err; i++)
		err = fsl_buf_varint(&b, bm->runs[i]);
	if (!err)
		err = b.len > FSL_MAX_BLOCK ? -EFBIG : write_meta(w, FSL_META_BITMAP, b.p, b.len, 1);
	fsl_buf_free(&b);
	return err;
}

static int flush_meta(struct fsl_writer *w)
{
	int err = 0;

	if (w->lost_dirty) {
		unsigned int f;

		/* Lost counts so far, so that a cut file still knows them. */
		for (f = 0; f < FSL_FAM__MAX; f++) {
			char key[32];

			if (!w->fam_lost[f])
				continue;
			snprintf(key, sizeof(key), "lost.%s", fsl_family_name(f));
			err = fsl_writer__kv(w, key, "%llu", (unsigned long long)w->fam_lost[f]);
			if (err)
				return err;
		}
		w->lost_dirty = 0;
	}
	if (w->kv.len) {
		err = write_meta(w, FSL_META_KV, w->kv.p, w->kv.len, 0);
		w->kv.len = 0;
	}
	if (!err && w->nstacks) {
		err = write_meta(w, FSL_META_STACKS, w->stacks.p, w->stacks.len, w->nstacks);
		w->stacks.len = 0;
		w->nstacks = 0;
	}
	if (!err && w->nsyms) {
		err = write_meta(w, FSL_META_SYMS, w->syms.p, w->syms.len, w->nsyms);
		w->syms.len = 0;
		w->nsyms = 0;
	}
	return err;
}

int fsl_writer__stack(struct fsl_writer *w, const struct fsl_stack *st)
{
	unsigned char t[8];
	uint32_t i;

	if (!st || (st->nframes && !st->frames) || st->nframes > 4096)
		return -EINVAL;
	put_le32(t, (uint32_t)st->id);
	put_le32(t + 4, st->nframes);
	if (fsl_buf_put(&w->stacks, t, 8))
		return -ENOMEM;
	for (i = 0; i < st->nframes; i++)
		if (put_str16(&w->stacks, st->frames[i], 1024))
			return -ENOMEM;
	w->nstacks++;
	if (w->stacks.len >= META_FLUSH_BYTES)
		return flush_meta(w);
	return 0;
}

int fsl_writer__sym(struct fsl_writer *w, uint64_t addr, const char *name)
{
	unsigned char t[8];

	if (!name)
		return -EINVAL;
	put_le64(t, addr);
	if (fsl_buf_put(&w->syms, t, 8) || put_str16(&w->syms, name, 1024))
		return -ENOMEM;
	w->nsyms++;
	if (w->syms.len >= META_FLUSH_BYTES)
		return flush_meta(w);
	return 0;
}

int fsl_writer__lost(struct fsl_writer *w, unsigned int family, uint64_t count)
{
	if (family >= FSL_FAM__MAX)
		return -EINVAL;
	w->fam_lost[family] += count;
	if (count)
		w->lost_dirty = 1;
	return 0;
}

/* ---- events ---- */

static int write_chunk(struct fsl_writer *w)
{
	struct fsl_blk_hdr b = { .kind = FSL_BLK_CHUNK, .sub = FSL_CHUNK_ENC };
	unsigned int f;
	int err;

	if (!w->ccount)
		return 0;
	err = flush_meta(w);
	if (err)
		return err;
	b.count = w->ccount;
	b.first_ts = w->cfirst;
	b.last_ts = w->clast;
	b.aux = w->craw;
	memcpy(b.fam, w->cfam, sizeof(b.fam));
	err = write_block(w, &b, w->enc.p, w->enc.len, 1);
	if (err)
		return err;
	for (f = 0; f < FSL_BLK_NFAM; f++)
		w->fam_events[f] += w->cfam[f];
	if (!w->chunks || w->cfirst < w->first_ts)
		w->first_ts = w->cfirst;
	if (w->clast > w->last_ts)
		w->last_ts = w->clast;
	w->chunks++;
	w->events += w->ccount;
	w->raw_bytes += w->craw;
	w->ccount = 0;
	w->enc.len = 0;
	memset(w->cfam, 0, sizeof(w->cfam));
	return 0;
}

static int encode(struct fsl_writer *w, const unsigned char *rec)
{
	const struct fsl_hdr *h = (const struct fsl_hdr *)rec;
	unsigned int type = h->type, size = h->size, slot, nl, i, maxl, tail_off;
	struct lane_state *st;
	unsigned char *p;
	int shape;

	if (!w->ccount) {
		memset(w->st, 0, sizeof(w->st));
		w->cprev_ts = 0;
		w->cfirst = h->ts;
		w->clast = h->ts;
		w->craw = 0;
	}
	slot = type < FSL_STATE_TYPES ? type : FSL_STATE_TYPES;
	st = &w->st[slot];
	maxl = fsl_lanes_for(size);
	nl = type < FSL_STATE_TYPES ? w->type_lanes[type] : maxl;
	if (nl > maxl)
		nl = maxl;
	shape = !st->valid || st->size != size || st->nlanes != nl || slot == FSL_STATE_TYPES;
	if (w->enc.cap - w->enc.len < 64 + FSL_MAX_LANES * 5 + size &&
	    fsl_buf_reserve(&w->enc, 64 + FSL_MAX_LANES * 5 + size))
		return -ENOMEM;
	p = w->enc.p + w->enc.len;
	p += varint_put(p, (uint64_t)type << 1 | shape);
	if (shape) {
		p += varint_put(p, size);
		p += varint_put(p, nl);
		st->size = size;
		st->nlanes = nl;
		st->valid = 1;
	}
	/* ts: a length byte, then that many bytes of the zigzag delta */
	{
		uint64_t zz = zigzag64((int64_t)(h->ts - w->cprev_ts));
		unsigned int n = fsl_nbytes64(zz);

		*p++ = n;
		store64(p, zz);
		p += n;
	}
	w->cprev_ts = h->ts;
	/*
	 * lanes (pid, tid, cpu|pad, then the body from offset 24): a 2-bit
	 * code per lane in (2 * nl + 7) / 8 bytes (0 unchanged, 1/2/3 = the
	 * zigzag delta follows in 1/2/4 bytes), then the deltas in lane order.
	 */
	{
		unsigned char *ctrl = p;
		unsigned int cb = (2 * nl + 7) / 8, k;
		uint64_t c[2] = { 0, 0 };

		p += cb;
		for (i = 0; i < nl; i++) {
			uint32_t v, d, zz;
			unsigned int code;

			/* two unchanged body lanes at once: the common case */
			if (i >= 3 && i + 1 < nl &&
			    load64(rec + 12 + 4 * i) == load64((unsigned char *)&st->lanes[i])) {
				i++;
				continue;
			}
			v = load32(rec + (i < 2 ? 8 + 4 * i : i == 2 ? 20 : 12 + 4 * i));
			d = v - st->lanes[i];
			if (!d)
				continue;
			st->lanes[i] = v;
			zz = zigzag32((int32_t)d);
			code = zz < 0x100 ? 1 : zz < 0x10000 ? 2 : 3;
			c[i >> 5] |= (uint64_t)code << (2 * (i & 31));
			store32(p, zz);
			p += code == 3 ? 4 : code;
		}
		for (k = 0; k < cb; k++)
			ctrl[k] = c[k >> 3] >> (8 * (k & 7));
	}
	tail_off = fsl_lane_off(nl);
	if (size > tail_off) {
		memcpy(p, rec + tail_off, size - tail_off);
		p += size - tail_off;
	}
	w->enc.len = p - w->enc.p;
	if (h->ts < w->cfirst)
		w->cfirst = h->ts;
	if (h->ts > w->clast)
		w->clast = h->ts;
	w->cfam[type < FSL_STATE_TYPES ? w->type_fam[type] : FSL_BLK_NFAM - 1]++;
	w->craw += size;
	w->ccount++;
	if (w->ccount >= w->opts.chunk_events || w->enc.len >= DEF_CHUNK_BYTES)
		return write_chunk(w);
	return 0;
}

/* One record in time order (a late one is counted, as the reader reports it). */
static int emit(void *ctx, const struct fsl_hdr *h)
{
	struct fsl_writer *w = ctx;

	if (w->emitted_any && h->ts < w->last_emit_ts)
		w->late++;
	else
		w->last_emit_ts = h->ts;
	w->emitted_any = 1;
	if (h->type == FSL_EV_DIROP && h->size >= sizeof(struct fsl_ev_dirop)) {
		/* path lengths that do not fit the record are cut to it */
		if (!w->one && !(w->one = malloc(65536)))
			return -ENOMEM;
		memcpy(w->one, h, h->size);
		dirop_clamp_paths((struct fsl_ev_dirop *)w->one,
				  h->size - offsetof(struct fsl_ev_dirop, paths));
		return encode(w, w->one);
	}
	return encode(w, (const unsigned char *)h);
}

int fsl_writer__event(struct fsl_writer *w, const struct fsl_hdr *ev)
{
	if (w->err)
		return w->err;
	if (!ev || ev->size < sizeof(struct fsl_hdr))
		return -EINVAL;
	/* in order already (the recorder's stream): no copy held */
	if (!w->ord)
		return emit(w, ev);
	return fsl_ordered__push(w->ord, ev, emit, w);
}

int fsl_writer__flush(struct fsl_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	err = w->ord ? fsl_ordered__flush(w->ord, emit, w) : 0;
	if (!err)
		err = write_chunk(w);
	if (!err)
		err = flush_meta(w);
	return err;
}

static int write_footer(struct fsl_writer *w)
{
	struct fsl_blk_hdr b = { .kind = FSL_BLK_FOOTER };
	struct fsl_buf f = { 0 };
	unsigned char t[8];
	unsigned int i;
	int err = 0;

	put_le32(t, FSL_BLK_NFAM);
	put_le32(t + 4, w->index.len / FSL_FOOTER_ENTRY_SIZE);
	err |= fsl_buf_put(&f, t, 8);
	for (i = 0; i < FSL_BLK_NFAM; i++) {
		put_le64(t, w->fam_events[i]);
		err |= fsl_buf_put(&f, t, 8);
	}
	for (i = 0; i < FSL_BLK_NFAM; i++) {
		put_le64(t, w->fam_lost[i]);
		err |= fsl_buf_put(&f, t, 8);
	}
	put_le64(t, w->late);
	err |= fsl_buf_put(&f, t, 8);
	put_le64(t, w->raw_bytes);
	err |= fsl_buf_put(&f, t, 8);
	err |= fsl_buf_put(&f, w->index.p, w->index.len);
	if (err) {
		fsl_buf_free(&f);
		return -ENOMEM;
	}
	b.count = w->index.len / FSL_FOOTER_ENTRY_SIZE;
	b.first_ts = w->first_ts;
	b.last_ts = w->last_ts;
	for (i = 0; i < FSL_BLK_NFAM; i++)
		b.fam[i] = w->fam_events[i] > UINT32_MAX ? UINT32_MAX : w->fam_events[i];
	b.aux = w->events;
	w->fh.footer_offset = w->off;
	err = write_block(w, &b, f.p, f.len, 0);
	fsl_buf_free(&f);
	if (err)
		w->fh.footer_offset = 0;
	return err;
}

static void free_writer(struct fsl_writer *w)
{
	free(w->path);
	free(w->beside);
	free(w->one);
	fsl_ordered__free(w->ord);
	fsl_buf_free(&w->enc);
	fsl_buf_free(&w->zbuf);
	fsl_buf_free(&w->kv);
	fsl_buf_free(&w->stacks);
	fsl_buf_free(&w->syms);
	fsl_buf_free(&w->index);
	ZSTD_freeCCtx(w->zc);
	free(w);
}

int fsl_writer__close(struct fsl_writer *w)
{
	int err;

	if (!w)
		return -EINVAL;
	err = fsl_writer__flush(w);
	if (!err)
		err = write_footer(w);
	if (!err) {
		w->fh.flags |= FSL_HDR_F_COMPLETE;
		w->fh.file_size = w->off;
		w->fh.events = w->events;
		w->fh.chunks = w->chunks;
		w->fh.first_ts = w->first_ts;
		w->fh.last_ts = w->last_ts;
		w->fh.raw_bytes = w->raw_bytes;
		err = write_header(w);
	}
	if (close(w->fd) && !err)
		err = -errno;
	/* a replacement takes the old trace's place only when it is whole */
	if (w->beside) {
		if (!err)
			err = fsl_writer__publish(w);
		if (w->beside)
			unlink(w->beside);
	}
	free_writer(w);
	return err;
}

void fsl_writer__abort(struct fsl_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	free_writer(w);
}

void fsl_writer__discard(struct fsl_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	if (w->beside)
		unlink(w->beside);
	else if (w->created)
		unlink(w->path);
	free_writer(w);
}

uint64_t fsl_writer__bytes(const struct fsl_writer *w)
{
	return w->off;
}

uint64_t fsl_writer__events(const struct fsl_writer *w)
{
	return w->events + w->ccount + (w->ord ? fsl_ordered__pending(w->ord) : 0);
}
