// SPDX-License-Identifier: GPL-2.0
/*
 * Trace reader. At open: header, then the block index (from the footer, or
 * by walking block headers when the footer is missing or bad), then every
 * metadata block. Events are decoded one chunk at a time. Nothing read from
 * the file is trusted before its checksum and bounds are checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pthread.h>
#include <zstd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include "fslens/text.h"
#include "trace_internal.h"

#define MAX_WARNINGS	200

static pthread_once_t code_once = PTHREAD_ONCE_INIT;
static void code_tab_init(void);

struct blk_ent {
	uint64_t off;
	uint16_t kind, sub;
	uint32_t count;
	uint64_t first_ts, last_ts;
	uint32_t disk_len, raw_len;
};

struct rstate {
	unsigned char *rec;
	size_t cap;
	uint16_t size;		/* as encoded */
	uint16_t out_size;	/* as returned: zero-filled up to the schema size */
	uint16_t tail_off;	/* end of the lanes */
	uint8_t nlanes;
	uint8_t cb;		/* bytes of lane codes */
	uint8_t valid;
	uint8_t lastmask;	/* code bits of the real lanes in the last code byte */
	uint8_t fast;		/* valid, <= 16 lanes, no tail: see next_ssse3() */
	uint32_t codemask;	/* the cb code bytes (last one masked), fast types only */
	uint32_t lanes[FSL_MAX_LANES];
};

struct kv_ent { char *key, *val; };
struct text_ent { char *name; char *data; size_t len; };
struct sym_ent { uint64_t addr; char *name; };

struct fsl_reader {
	int fd;
	uint64_t fsize;
	struct fsl_reader_opts opts;
	struct fsl_file_hdr fh;
	struct fsl_trace_stats stats;

	struct blk_ent *idx;
	size_t nidx, idx_cap;

	/* iteration */
	size_t cur;
	struct fsl_buf disk, raw;
	const unsigned char *rp, *rend;
	uint32_t left, ccount;
	uint64_t coff, prev_ts;
	struct rstate st[FSL_STATE_TYPES + 1];
	uint8_t fam_of[FSL_STATE_TYPES];
	uint16_t min_size[FSL_STATE_TYPES];
	ZSTD_DCtx *dc;
	struct fsl_decode_stats decoded;

	/* metadata */
	struct kv_ent *kv;
	size_t nkv;
	struct text_ent *texts;
	size_t ntexts;
	struct fsl_bitmap *bitmaps;
	size_t nbitmaps;
	struct fsl_stack *stacks;
	size_t nstacks;
	struct sym_ent *syms;
	size_t nsyms;
	struct fsl_event_desc *schema;
	size_t nschema;

	char **warnings;
	size_t nwarn, nwarn_dropped;
};

/* Every reader's decoding since the process started (readers decode on other threads). */
static uint64_t total_chunks, total_events;

static void warn(struct fsl_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct fsl_reader *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	char **nw;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (r->opts.warn) {
		r->opts.warn(r->opts.warn_ctx, buf);
		return;
	}
	if (r->nwarn >= MAX_WARNINGS) {
		r->nwarn_dropped++;
		return;
	}
	nw = realloc(r->warnings, (r->nwarn + 1) * sizeof(*nw));
	if (!nw)
		return;
	r->warnings = nw;
	nw[r->nwarn] = strdup(buf);
	if (nw[r->nwarn])
		r->nwarn++;
}

static int read_at(struct fsl_reader *r, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	if (off > r->fsize || len > r->fsize - off)
		return -ENODATA;
	while (done < len) {
		ssize_t n = pread(r->fd, (char *)buf + done, len - done, off + done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENODATA;
		done += n;
	}
	return 0;
}

/* ---- cursor over a verified payload ---- */

struct cur {
	const unsigned char *p, *end;
	int bad;
};

static const unsigned char *c_take(struct cur *c, size_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint32_t c_u8(struct cur *c) { const unsigned char *p = c_take(c, 1); return p ? *p : 0; }
static uint32_t c_u16(struct cur *c) { const unsigned char *p = c_take(c, 2); return p ? get_le16(p) : 0; }
static uint32_t c_u32(struct cur *c) { const unsigned char *p = c_take(c, 4); return p ? get_le32(p) : 0; }
static uint64_t c_u64(struct cur *c) { const unsigned char *p = c_take(c, 8); return p ? get_le64(p) : 0; }

/* A u16-length string, copied and NUL-terminated (NULL on error). */
static char *c_str16(struct cur *c)
{
	size_t n = c_u16(c);
	const unsigned char *p = c_take(c, n);
	char *s;

	if (!p)
		return NULL;
	s = malloc(n + 1);
	if (!s) {
		c->bad = 1;
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* ---- blocks ---- */

/*
 * Read and verify the block at off: header checksum, bounds, payload
 * checksum, decompression to exactly raw_len bytes. On success the payload
 * is in r->raw (or r->disk when stored uncompressed) and *out points to it.
 */
static int load_block(struct fsl_reader *r, uint64_t off, struct fsl_blk_hdr *b,
		      const unsigned char **out, const char **why)
{
	unsigned char hb[FSL_BLK_HDR_SIZE];
	int err;

	*why = "unreadable block header";
	err = read_at(r, hb, sizeof(hb), off);
	if (err)
		return err;
	*why = "corrupt block header";
	if (fsl_blk_hdr_decode(hb, b))
		return -EILSEQ;
	*why = "block extends past the end of the file";
	if (b->disk_len > r->fsize - off - FSL_BLK_HDR_SIZE)
		return -ENODATA;
	*why = "out of memory";
	r->disk.len = 0;
	/* 16 zero bytes after any payload: the record decoder reads 8 at a time */
	if (fsl_buf_reserve(&r->disk, b->disk_len + 16))
		return -ENOMEM;
	memset(r->disk.p + b->disk_len, 0, 16);
	*why = "unreadable payload";
	err = read_at(r, r->disk.p, b->disk_len, off + FSL_BLK_HDR_SIZE);
	if (err)
		return err;
	*why = "checksum mismatch";
	if (fsl_crc32c(0, r->disk.p, b->disk_len) != b->payload_crc && !fsl__trace_fuzz_skip_crc)
		return -EILSEQ;
	if (!(b->flags & FSL_BLK_F_ZSTD)) {
		*out = r->disk.p;
		return 0;
	}
	/* the zstd frame must declare the size the block header does */
	*why = "bad compressed data";
	if (ZSTD_getFrameContentSize(r->disk.p, b->disk_len) != b->raw_len)
		return -EILSEQ;
	*why = "out of memory";
	r->raw.len = 0;
	if (fsl_buf_reserve(&r->raw, b->raw_len + 16))
		return -ENOMEM;
	memset(r->raw.p + b->raw_len, 0, 16);
	{
		size_t n = ZSTD_decompressDCtx(r->dc, r->raw.p, b->raw_len, r->disk.p,
					       b->disk_len);

		*why = "bad compressed data";
		if (ZSTD_isError(n) || n != b->raw_len)
			return -EILSEQ;
	}
	*out = r->raw.p;
	return 0;
}

/* ---- metadata parsing ---- */

static char *kv_unescape(const char *s, size_t n)
{
	char *o = malloc(n + 1), *q = o;
	size_t i;

	if (!o)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			*q++ = s[i] == 'n' ? '\n' : s[i];
		} else {
			*q++ = s[i];
		}
	}
	*q = 0;
	return o;
}

static int parse_kv(struct fsl_reader *r, const unsigned char *p, size_t len)
{
	const char *s = (const char *)p, *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', end - s), *eq;
		char *key, *val;
		size_t i;

		if (!nl)
			nl = end;
		eq = memchr(s, '=', nl - s);
		if (eq && eq > s) {
			key = strndup(s, eq - s);
			val = kv_unescape(eq + 1, nl - eq - 1);
			if (!key || !val) {
				free(key);
				free(val);
				return -ENOMEM;
			}
			for (i = 0; i < r->nkv; i++)
				if (!strcmp(r->kv[i].key, key))
					break;
			if (i < r->nkv) {
				free(key);
				free(r->kv[i].val);
				r->kv[i].val = val;
			} else {
				struct kv_ent *n = realloc(r->kv, (r->nkv + 1) * sizeof(*n));

				if (!n) {
					free(key);
					free(val);
					return -ENOMEM;
				}
				r->kv = n;
				n[r->nkv].key = key;
				n[r->nkv].val = val;
				r->nkv++;
			}
		}
		s = nl + 1;
	}
	return 0;
}

static void free_desc(struct fsl_event_desc *d)
{
	unsigned int k;

	free((char *)d->name);
	free((char *)d->tp_group);
	for (k = 0; k < FSL_MAX_FIELDS; k++)
		free((char *)d->fields[k].name);
}

static int parse_schema(struct fsl_reader *r, const unsigned char *p, size_t len, uint32_t n)
{
	struct cur c = { p, p + len, 0 };
	uint32_t i, k;

	if (n > 65536)
		return -EILSEQ;
	for (i = 0; i < n && !c.bad; i++) {
		struct fsl_event_desc d = { 0 }, *ns;
		int ok = 1;

		d.type = c_u16(&c);
		d.family = c_u8(&c);
		d.nfields = c_u8(&c);
		d.size = c_u16(&c);
		d.name = c_str16(&c);
		d.tp_group = c_str16(&c);
		if (d.tp_group && !*d.tp_group) {
			free((char *)d.tp_group);
			d.tp_group = NULL;
		}
		if (d.nfields > FSL_MAX_FIELDS)
			c.bad = 1;
		for (k = 0; k < d.nfields && !c.bad; k++) {
			d.fields[k].offset = c_u16(&c);
			d.fields[k].size = c_u8(&c);
			d.fields[k].kind = c_u8(&c);
			d.fields[k].name = c_str16(&c);
			/* A field must lie inside the fixed part (paths: at its end). */
			if ((uint32_t)d.fields[k].offset + d.fields[k].size > d.size ||
			    d.fields[k].size > 16)
				ok = 0;
		}
		if (c.bad || !ok || d.size < sizeof(struct fsl_hdr) || !d.name) {
			free_desc(&d);
			continue;
		}
		ns = realloc(r->schema, (r->nschema + 1) * sizeof(*ns));
		if (!ns) {
			free_desc(&d);
			return -ENOMEM;
		}
		r->schema = ns;
		ns[r->nschema++] = d;
	}
	return c.bad ? -EILSEQ : 0;
}

static int parse_stacks(struct fsl_reader *r, const unsigned char *p, size_t len, uint32_t n)
{
	struct cur c = { p, p + len, 0 };
	uint32_t i, k, skip;

	for (i = 0; i < n && !c.bad; i++) {
		struct fsl_stack s, *ns;

		s.id = (int32_t)c_u32(&c);
		s.nframes = c_u32(&c);
		/* each frame takes >= 2 bytes: bounds the allocation */
		if (c.bad || s.nframes > (size_t)(c.end - c.p) / 2)
			return -EILSEQ;
		s.frames = calloc(s.nframes ? s.nframes : 1, sizeof(char *));
		if (!s.frames)
			return -ENOMEM;
		/*
		 * Kernel symbols never hold control bytes; a crafted trace's do, and
		 * every command prints frames: they read as '?' (fsl_text_sanitize).
		 */
		for (k = 0; k < s.nframes && !c.bad; k++)
			if ((s.frames[k] = c_str16(&c)))
				fsl_text_sanitize(s.frames[k]);
		if (c.bad) {
			for (k = 0; k < s.nframes; k++)
				free(s.frames[k]);
			free(s.frames);
			return -EILSEQ;
		}
		/* traces from older recorders kept the recorder's own frames */
		skip = fsl_frames_recorder_prefix((const char *const *)s.frames, s.nframes);
		if (skip) {
			for (k = 0; k < skip; k++)
				free(s.frames[k]);
			memmove(s.frames, s.frames + skip, (s.nframes - skip) * sizeof(char *));
			s.nframes -= skip;
		}
		ns = realloc(r->stacks, (r->nstacks + 1) * sizeof(*ns));
		if (!ns) {
			for (k = 0; k < s.nframes; k++)
				free(s.frames[k]);
			free(s.frames);
			return -ENOMEM;
		}
		r->stacks = ns;
		ns[r->nstacks++] = s;
	}
	return 0;
}

static int parse_syms(struct fsl_reader *r, const unsigned char *p, size_t len, uint32_t n)
{
	struct cur c = { p, p + len, 0 };
	uint32_t i;

	for (i = 0; i < n && !c.bad; i++) {
		struct sym_ent s, *ns;

		s.addr = c_u64(&c);
		s.name = c_str16(&c);
		if (c.bad)
			return -EILSEQ;
		if (s.name)
			fsl_text_sanitize(s.name);
		ns = realloc(r->syms, (r->nsyms + 1) * sizeof(*ns));
		if (!ns) {
			free(s.name);
			return -ENOMEM;
		}
		r->syms = ns;
		ns[r->nsyms++] = s;
	}
	return 0;
}

static int parse_text(struct fsl_reader *r, const unsigned char *p, size_t len)
{
	struct cur c = { p, p + len, 0 };
	struct text_ent t, *nt;

	t.name = c_str16(&c);
	if (c.bad)
		return -EILSEQ;
	t.len = c.end - c.p;
	t.data = malloc(t.len + 1);
	if (!t.data) {
		free(t.name);
		return -ENOMEM;
	}
	memcpy(t.data, c.p, t.len);
	t.data[t.len] = 0;
	nt = realloc(r->texts, (r->ntexts + 1) * sizeof(*nt));
	if (!nt) {
		free(t.name);
		free(t.data);
		return -ENOMEM;
	}
	r->texts = nt;
	nt[r->ntexts++] = t;
	return 0;
}

static int parse_bitmap(struct fsl_reader *r, const unsigned char *p, size_t len)
{
	struct cur c = { p, p + len, 0 };
	struct fsl_bitmap bm, *nb;
	uint64_t i, sum = 0;

	bm.kind = c_u32(&c);
	bm.when = c_u32(&c);
	bm.first = c_u64(&c);
	bm.nbits = c_u64(&c);
	bm.nruns = c_u64(&c);
	/* each run takes >= 1 byte */
	if (c.bad || bm.nruns > (uint64_t)(c.end - c.p))
		return -EILSEQ;
	bm.runs = malloc((bm.nruns ? bm.nruns : 1) * sizeof(uint64_t));
	if (!bm.runs)
		return -ENOMEM;
	for (i = 0; i < bm.nruns; i++) {
		size_t k = varint_get(c.p, c.end, &bm.runs[i]);

		if (!k || bm.runs[i] > bm.nbits - sum) {
			free(bm.runs);
			return -EILSEQ;
		}
		sum += bm.runs[i];
		c.p += k;
	}
	if (sum != bm.nbits) {
		free(bm.runs);
		return -EILSEQ;
	}
	nb = realloc(r->bitmaps, (r->nbitmaps + 1) * sizeof(*nb));
	if (!nb) {
		free(bm.runs);
		return -ENOMEM;
	}
	r->bitmaps = nb;
	nb[r->nbitmaps++] = bm;
	return 0;
}

static int load_meta(struct fsl_reader *r, const struct blk_ent *e)
{
	struct fsl_blk_hdr b;
	const unsigned char *p;
	const char *why;
	int err = load_block(r, e->off, &b, &p, &why);

	if (!err && b.kind != FSL_BLK_META) {
		why = "index points at a block of another kind";
		err = -EILSEQ;
	}
	if (!err) {
		why = "malformed contents";
		switch (b.sub) {
		case FSL_META_KV: err = parse_kv(r, p, b.raw_len); break;
		case FSL_META_SCHEMA: err = parse_schema(r, p, b.raw_len, b.count); break;
		case FSL_META_STACKS: err = parse_stacks(r, p, b.raw_len, b.count); break;
		case FSL_META_BITMAP: err = parse_bitmap(r, p, b.raw_len); break;
		case FSL_META_TEXT: err = parse_text(r, p, b.raw_len); break;
		case FSL_META_SYMS: err = parse_syms(r, p, b.raw_len, b.count); break;
		default: break;	/* a newer kind: skipped */
		}
	}
	if (err == -ENOMEM)
		return err;
	if (err)
		warn(r, "metadata block at offset %llu: %s, skipped",
		     (unsigned long long)e->off, why);
	return 0;
}

/* ---- index ---- */

static int add_ent(struct fsl_reader *r, const struct blk_ent *e)
{
	if (r->nidx == r->idx_cap) {
		size_t nc = r->idx_cap ? r->idx_cap * 2 : 64;
		struct blk_ent *n = realloc(r->idx, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->idx = n;
		r->idx_cap = nc;
	}
	r->idx[r->nidx++] = *e;
	return 0;
}

/* Footer payload: counts, then the index. Returns 0 or -errno. */
static int parse_footer(struct fsl_reader *r, const unsigned char *p, size_t len,
			uint64_t footer_off, int use_index)
{
	struct cur c = { p, p + len, 0 };
	uint32_t nfam = c_u32(&c), nent = c_u32(&c), i;
	struct fsl_trace_stats *s = &r->stats;

	if (c.bad || nfam > 64)
		return -EILSEQ;
	for (i = 0; i < nfam; i++) {
		uint64_t v = c_u64(&c);

		if (i < FSL_FAM__MAX)
			s->counts.events[i] = v;
	}
	for (i = 0; i < nfam; i++) {
		uint64_t v = c_u64(&c);

		if (i < FSL_FAM__MAX)
			s->counts.lost[i] = v;
	}
	s->late_events = c_u64(&c);
	s->raw_bytes = c_u64(&c);
	if (c.bad || nent > (size_t)(c.end - c.p) / FSL_FOOTER_ENTRY_SIZE)
		return -EILSEQ;
	if (!use_index)
		return 0;
	for (i = 0; i < nent; i++) {
		const unsigned char *q = c_take(&c, FSL_FOOTER_ENTRY_SIZE);
		struct blk_ent e;

		e.off = get_le64(q);
		e.kind = get_le16(q + 8);
		e.sub = get_le16(q + 10);
		e.count = get_le32(q + 12);
		e.first_ts = get_le64(q + 16);
		e.last_ts = get_le64(q + 24);
		e.disk_len = get_le32(q + 32);
		e.raw_len = get_le32(q + 36);
		if (e.off < FSL_HDR_SIZE || e.off >= footer_off ||
		    e.disk_len > footer_off - e.off - FSL_BLK_HDR_SIZE)
			return -EILSEQ;
		if (e.kind != FSL_BLK_CHUNK && e.kind != FSL_BLK_META)
			continue;
		if (add_ent(r, &e))
			return -ENOMEM;
	}
	return 0;
}

static int try_footer(struct fsl_reader *r, uint64_t off)
{
	struct fsl_blk_hdr b;
	const unsigned char *p;
	const char *why;
	int err;

	if (off < FSL_HDR_SIZE)
		return -EILSEQ;
	if (off >= r->fsize)
		return -ENODATA;
	err = load_block(r, off, &b, &p, &why);
	if (err)
		return err;
	if (b.kind != FSL_BLK_FOOTER)
		return -EILSEQ;
	err = parse_footer(r, p, b.raw_len, off, 1);
	if (err)
		r->nidx = 0;
	return err;
}

/* Find the next offset >= from holding a block header with a valid checksum. */
static uint64_t resync(struct fsl_reader *r, uint64_t from)
{
	unsigned char buf[65536 + FSL_BLK_HDR_SIZE];
	uint64_t pos = from;

	while (pos + FSL_BLK_HDR_SIZE <= r->fsize) {
		size_t want = sizeof(buf), got, i;

		if (want > r->fsize - pos)
			want = r->fsize - pos;
		if (read_at(r, buf, want, pos))
			return UINT64_MAX;
		got = want;
		for (i = 0; i + FSL_BLK_HDR_SIZE <= got; i++) {
			struct fsl_blk_hdr b;

			if (buf[i] == 'F' && get_le32(buf + i) == FSL_BLK_MAGIC &&
			    !fsl_blk_hdr_decode(buf + i, &b))
				return pos + i;
		}
		if (got < sizeof(buf))
			break;
		pos += i;
	}
	return UINT64_MAX;
}

static void warn_cut(struct fsl_reader *r, uint64_t pos, uint64_t nchunks, uint64_t nev)
{
	char size[96] = "";

	if (r->fh.file_size > r->fsize)
		snprintf(size, sizeof(size), " (%llu of %llu bytes)",
			 (unsigned long long)r->fsize, (unsigned long long)r->fh.file_size);
	warn(r, "trace is cut short at offset %llu%s, the recording did not finish; "
	     "read %llu complete chunks, %llu events", (unsigned long long)pos, size,
	     (unsigned long long)nchunks, (unsigned long long)nev);
}

/* No usable footer: walk the block headers from the start. */
static int scan_blocks(struct fsl_reader *r)
{
	uint64_t pos = FSL_HDR_SIZE, nchunks = 0, nev = 0;
	int footer = 0;

	r->nidx = 0;
	while (pos < r->fsize) {
		unsigned char hb[FSL_BLK_HDR_SIZE];
		struct fsl_blk_hdr b;
		struct blk_ent e;

		if (r->fsize - pos < FSL_BLK_HDR_SIZE) {
			warn_cut(r, pos, nchunks, nev);
			return 0;
		}
		if (read_at(r, hb, sizeof(hb), pos))
			return -EIO;
		if (fsl_blk_hdr_decode(hb, &b)) {
			uint64_t next = resync(r, pos + 1);

			if (next == UINT64_MAX) {
				warn(r, "corrupt data at offset %llu to the end of the file (%llu bytes), "
				     "skipped", (unsigned long long)pos,
				     (unsigned long long)(r->fsize - pos));
				r->stats.bad_chunks++;
				return 0;
			}
			warn(r, "corrupt block at offset %llu (%llu bytes), skipped",
			     (unsigned long long)pos, (unsigned long long)(next - pos));
			r->stats.bad_chunks++;
			pos = next;
			continue;
		}
		if (b.disk_len > r->fsize - pos - FSL_BLK_HDR_SIZE) {
			warn_cut(r, pos, nchunks, nev);
			return 0;
		}
		if (b.kind == FSL_BLK_FOOTER) {
			const unsigned char *p;
			const char *why;
			struct fsl_blk_hdr fb;

			if (!load_block(r, pos, &fb, &p, &why) &&
			    !parse_footer(r, p, fb.raw_len, pos, 0))
				footer = 1;
			break;
		}
		e.off = pos;
		e.kind = b.kind;
		e.sub = b.sub;
		e.count = b.count;
		e.first_ts = b.first_ts;
		e.last_ts = b.last_ts;
		e.disk_len = b.disk_len;
		e.raw_len = b.raw_len;
		if (b.kind == FSL_BLK_CHUNK || b.kind == FSL_BLK_META) {
			if (add_ent(r, &e))
				return -ENOMEM;
		}
		if (b.kind == FSL_BLK_CHUNK) {
			unsigned int f;

			nchunks++;
			nev += b.count;
			for (f = 0; f < FSL_FAM__MAX; f++)
				r->stats.counts.events[f] += b.fam[f];
			r->stats.raw_bytes += b.aux;
		}
		pos += FSL_BLK_HDR_SIZE + b.disk_len;
	}
	if (footer) {
		r->stats.complete = 1;
	} else if (pos >= r->fsize) {
		warn_cut(r, pos, nchunks, nev);
	}
	return 0;
}

/*
 * Sort stacks by id and symbols by address for binary search; when an id or
 * address was written twice the later definition wins.
 */
struct order { uint64_t key; size_t idx; };

static int order_cmp(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int sort_lookups(struct fsl_reader *r)
{
	size_t n = r->nstacks > r->nsyms ? r->nstacks : r->nsyms, i, k;
	struct order *o = malloc((n ? n : 1) * sizeof(*o));

	if (!o)
		return -ENOMEM;
	if (r->nstacks) {
		struct fsl_stack *ns = malloc(r->nstacks * sizeof(*ns));

		if (!ns) {
			free(o);
			return -ENOMEM;
		}
		for (i = 0; i < r->nstacks; i++)
			o[i] = (struct order){ (uint64_t)(int64_t)r->stacks[i].id + (1ull << 63), i };
		qsort(o, r->nstacks, sizeof(*o), order_cmp);
		for (i = k = 0; i < r->nstacks; i++) {
			struct fsl_stack *s = &r->stacks[o[i].idx];

			if (i + 1 < r->nstacks && o[i + 1].key == o[i].key) {
				for (size_t f = 0; f < s->nframes; f++)
					free(s->frames[f]);
				free(s->frames);
				continue;
			}
			ns[k++] = *s;
		}
		free(r->stacks);
		r->stacks = ns;
		r->nstacks = k;
	}
	if (r->nsyms) {
		struct sym_ent *ns = malloc(r->nsyms * sizeof(*ns));

		if (!ns) {
			free(o);
			return -ENOMEM;
		}
		for (i = 0; i < r->nsyms; i++)
			o[i] = (struct order){ r->syms[i].addr, i };
		qsort(o, r->nsyms, sizeof(*o), order_cmp);
		for (i = k = 0; i < r->nsyms; i++) {
			if (i + 1 < r->nsyms && o[i + 1].key == o[i].key) {
				free(r->syms[o[i].idx].name);
				continue;
			}
			ns[k++] = r->syms[o[i].idx];
		}
		free(r->syms);
		r->syms = ns;
		r->nsyms = k;
	}
	free(o);
	return 0;
}

/* ---- open / close ---- */

static void setup_types(struct fsl_reader *r)
{
	unsigned int t;
	size_t i;

	for (t = 0; t < FSL_STATE_TYPES; t++) {
		const struct fsl_event_desc *d = fsl_schema_builtin(t);

		r->fam_of[t] = d ? d->family : FSL_BLK_NFAM - 1;
		r->min_size[t] = d ? d->size : 0;
	}
	for (i = 0; i < r->nschema; i++) {
		const struct fsl_event_desc *d = &r->schema[i];

		if (d->type >= FSL_STATE_TYPES)
			continue;
		if (!fsl_schema_builtin(d->type))
			r->fam_of[d->type] = d->family < FSL_BLK_NFAM ? d->family : FSL_BLK_NFAM - 1;
		if (d->size > r->min_size[d->type])
			r->min_size[d->type] = d->size;
	}
}

struct fsl_reader *fsl_reader__open(const char *path, const struct fsl_reader_opts *opts,
				    int *err)
{
	unsigned char hb[FSL_HDR_SIZE];
	struct fsl_reader *r;
	struct stat sb;
	size_t i;
	int e;

	pthread_once(&code_once, code_tab_init);
	r = calloc(1, sizeof(*r));
	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	if (opts)
		r->opts = *opts;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		*err = -errno;
		free(r);
		return NULL;
	}
	r->dc = ZSTD_createDCtx();
	if (!r->dc) {
		e = -ENOMEM;
		goto fail;
	}
	if (fstat(r->fd, &sb)) {
		e = -errno;
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		e = -EISDIR;
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		e = -EINVAL;
		goto fail;
	}
	r->fsize = sb.st_size;
	if (r->fsize == 0) {
		e = -ENODATA;
		goto fail;
	}
	if (r->fsize < FSL_HDR_SIZE) {
		size_t n = r->fsize < 8 ? r->fsize : 8;

		e = read_at(r, hb, n, 0);
		if (!e)
			e = memcmp(hb, FSL_TRACE_MAGIC, n) ? -EBADMSG : -ENODATA;
		goto fail;
	}
	e = read_at(r, hb, sizeof(hb), 0);
	if (e)
		goto fail;
	e = fsl_file_hdr_decode(hb, &r->fh);
	if (e)
		goto fail;
	r->stats.version = r->fh.version;
	r->stats.open_ns = r->fh.start_ns;
	r->stats.realtime_offset_ns = r->fh.realtime_offset_ns;
	r->stats.boottime_offset_ns = r->fh.boottime_offset_ns;
	r->stats.file_bytes = r->fsize;

	if (r->fh.footer_offset && !(e = try_footer(r, r->fh.footer_offset))) {
		r->stats.complete = 1;
	} else {
		/* A footer beyond the end is a cut file: the scan says so once. */
		if (r->fh.footer_offset && e != -ENODATA)
			warn(r, "trace footer at offset %llu is corrupt; scanning the file",
			     (unsigned long long)r->fh.footer_offset);
		memset(&r->stats.counts, 0, sizeof(r->stats.counts));
		r->stats.raw_bytes = 0;
		e = scan_blocks(r);
		if (e)
			goto fail;
	}
	for (i = 0; i < r->nidx; i++) {
		const struct blk_ent *b = &r->idx[i];

		if (b->kind == FSL_BLK_META) {
			e = load_meta(r, b);
			if (e)
				goto fail;
		} else if (b->kind == FSL_BLK_CHUNK) {
			if (!r->stats.chunks || b->first_ts < r->stats.first_ts)
				r->stats.first_ts = b->first_ts;
			if (b->last_ts > r->stats.last_ts)
				r->stats.last_ts = b->last_ts;
			r->stats.chunks++;
			r->stats.compressed_bytes += b->disk_len;
		}
	}
	/* Without a footer, lost counts come from the writer's periodic KV. */
	if (!r->stats.complete) {
		unsigned int f;

		for (f = 0; f < FSL_FAM__MAX; f++) {
			char key[32];
			const char *v;

			snprintf(key, sizeof(key), "lost.%s", fsl_family_name(f));
			v = fsl_reader__kv(r, key);
			if (v)
				r->stats.counts.lost[f] = strtoull(v, NULL, 10);
		}
	}
	e = sort_lookups(r);
	if (e)
		goto fail;
	setup_types(r);
	return r;
fail:
	*err = e;
	fsl_reader__close(r);
	return NULL;
}

void fsl_reader__close(struct fsl_reader *r)
{
	size_t i, k;

	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dc);
	free(r->idx);
	fsl_buf_free(&r->disk);
	fsl_buf_free(&r->raw);
	for (i = 0; i <= FSL_STATE_TYPES; i++)
		free(r->st[i].rec);
	for (i = 0; i < r->nkv; i++) {
		free(r->kv[i].key);
		free(r->kv[i].val);
	}
	free(r->kv);
	for (i = 0; i < r->ntexts; i++) {
		free(r->texts[i].name);
		free(r->texts[i].data);
	}
	free(r->texts);
	for (i = 0; i < r->nbitmaps; i++)
		free(r->bitmaps[i].runs);
	free(r->bitmaps);
	for (i = 0; i < r->nstacks; i++) {
		for (k = 0; k < r->stacks[i].nframes; k++)
			free(r->stacks[i].frames[k]);
		free(r->stacks[i].frames);
	}
	free(r->stacks);
	for (i = 0; i < r->nsyms; i++)
		free(r->syms[i].name);
	free(r->syms);
	for (i = 0; i < r->nschema; i++)
		free_desc(&r->schema[i]);
	free(r->schema);
	for (i = 0; i < r->nwarn; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r);
}

/* ---- events ---- */

static int next_chunk(struct fsl_reader *r)
{
	while (r->cur < r->nidx) {
		const struct blk_ent *e = &r->idx[r->cur++];
		struct fsl_blk_hdr b;
		const unsigned char *p;
		const char *why;
		int err;

		if (e->kind != FSL_BLK_CHUNK)
			continue;
		if (r->opts.families) {
			/* a chunk with none of the wanted families is not even read */
			unsigned char hb[FSL_BLK_HDR_SIZE];
			unsigned int f, any = 0;

			if (!read_at(r, hb, sizeof(hb), e->off) && !fsl_blk_hdr_decode(hb, &b) &&
			    b.kind == FSL_BLK_CHUNK) {
				for (f = 0; f < FSL_BLK_NFAM; f++)
					if (b.fam[f] && (r->opts.families & (1u << f)))
						any = 1;
				if (!any)
					continue;
			}
		}
		err = load_block(r, e->off, &b, &p, &why);
		if (err == -ENOMEM)
			return err;
		if (!err && (b.kind != FSL_BLK_CHUNK || b.count != e->count)) {
			err = -EILSEQ;
			why = "does not match the index";
		}
		if (!err && b.sub != FSL_CHUNK_ENC) {
			err = -EILSEQ;
			why = "unknown record encoding";
		}
		if (err) {
			warn(r, "chunk at offset %llu: %s; %u events skipped",
			     (unsigned long long)e->off, why, e->count);
			r->stats.bad_chunks++;
			continue;
		}
		r->rp = p;
		r->rend = p + b.raw_len;
		r->left = r->ccount = b.count;
		/* entered: its events are all decoded (or the chunk skipped as bad) */
		r->decoded.chunks++;
		r->decoded.events += b.count;
		__atomic_add_fetch(&total_chunks, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&total_events, b.count, __ATOMIC_RELAXED);
		r->coff = e->off;
		r->prev_ts = 0;
		for (size_t i = 0; i <= FSL_STATE_TYPES; i++) {
			r->st[i].valid = 0;
			r->st[i].fast = 0;	/* a type needs its shape again */
			memset(r->st[i].lanes, 0, sizeof(r->st[i].lanes));
		}
		return 1;
	}
	return 0;
}

static const uint16_t lane_off_tab[FSL_MAX_LANES] = {
	8, 12, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 96,
	100, 104, 108, 112, 116, 120, 124, 128, 132, 136, 140, 144, 148, 152, 156, 160, 164,
	168, 172, 176, 180, 184, 188, 192, 196, 200, 204, 208, 212, 216, 220, 224, 228, 232,
	236, 240, 244, 248, 252, 256, 260, 264,
};
_Static_assert(FSL_MAX_LANES == 64, "lane table");

/*
 * Decoding of one byte of lane codes (4 lanes, 2 bits each): where each
 * lane's delta starts in the delta bytes and the mask of its length (0 for
 * an unchanged lane); code_len[] is the bytes all four take.
 */
struct code_dec {
	uint32_t mask[4];
	uint8_t off[4];
};
static struct code_dec code_tab[256];
static uint8_t code_len[256];
static unsigned char code_shuf[256][16] __attribute__((aligned(16)));

static const unsigned char *lanes_scalar(unsigned char *rec, const unsigned char *codes,
					 const unsigned char *p, const unsigned char *end,
					 unsigned int cb, unsigned int lastmask);
#if defined(__x86_64__) || defined(__i386__)
static const unsigned char *lanes_ssse3(unsigned char *rec, const unsigned char *codes,
					const unsigned char *p, const unsigned char *end,
					unsigned int cb, unsigned int lastmask);
#endif
static int next_generic(struct fsl_reader *r, const struct fsl_hdr **ev);
#if defined(__x86_64__) || defined(__i386__)
static int next_ssse3(struct fsl_reader *r, const struct fsl_hdr **ev);
#endif
static int (*next_fn)(struct fsl_reader *, const struct fsl_hdr **);
static const unsigned char *(*lanes_fn)(unsigned char *, const unsigned char *,
					const unsigned char *, const unsigned char *,
					unsigned int, unsigned int) = lanes_scalar;

static void code_tab_init(void)
{
	static const uint32_t mask[4] = { 0, 0xff, 0xffff, 0xffffffff };
	static const uint8_t len[4] = { 0, 1, 2, 4 };
	unsigned int c, i, o;

	for (c = 0; c < 256; c++) {
		for (i = 0, o = 0; i < 4; i++) {
			unsigned int k = c >> (2 * i) & 3;

			code_tab[c].off[i] = o;
			code_tab[c].mask[i] = mask[k];
			o += len[k];
		}
		code_len[c] = o;
		for (i = 0; i < 4; i++) {
			unsigned int k = c >> (2 * i) & 3, j;

			for (j = 0; j < 4; j++)
				code_shuf[c][4 * i + j] = j < len[k] ? code_tab[c].off[i] + j : 0x80;
		}
	}
#if (defined(__x86_64__) || defined(__i386__)) && !defined(FSL_TRACE_NO_SIMD)
	if (__builtin_cpu_supports("ssse3")) {
		lanes_fn = lanes_ssse3;
		next_fn = next_ssse3;
	}
#endif
}

/* Add the zigzag delta at p (masked to its length) to the lane at q. */
static inline void add_lane(unsigned char *q, const unsigned char *p, uint32_t mask)
{
	store32(q, load32(q) + (uint32_t)unzigzag32(load32(p) & mask));
}

/*
 * Apply the lane deltas of one record: cb code bytes at codes (2 bits per
 * lane: 0 same, 1/2/3 a 1/2/4-byte zigzag delta follows), the deltas from
 * p on. One code byte covers 4 lanes; a table gives each lane's offset and
 * mask in the deltas, so the 4 lanes are updated without branches (an
 * unchanged lane adds 0). Code bits past the last lane (lastmask) are
 * ignored. Returns the end of the deltas, or NULL if they pass end. The
 * chunk buffer has 16 readable bytes past end; rec has room for all lanes
 * of the last code byte.
 */
static const unsigned char *lanes_scalar(unsigned char *rec, const unsigned char *codes,
					 const unsigned char *p, const unsigned char *end,
					 unsigned int cb, unsigned int lastmask)
{
	unsigned int b, c;
	const struct code_dec *d;
	unsigned char *q;

	for (b = 0; b < cb; b++) {
		c = codes[b];
		if (b == cb - 1U)
			c &= lastmask;
		if (!c)
			continue;
		d = &code_tab[c];
		if ((size_t)(end - p) < code_len[c])
			return NULL;
		if (b) {
			q = rec + 12 + 16 * b;
			add_lane(q, p + d->off[0], d->mask[0]);
			add_lane(q + 4, p + d->off[1], d->mask[1]);
		} else {
			q = rec + 12;
			add_lane(rec + 8, p + d->off[0], d->mask[0]);
			add_lane(q, p + d->off[1], d->mask[1]);
		}
		add_lane(q + 8, p + d->off[2], d->mask[2]);
		add_lane(q + 12, p + d->off[3], d->mask[3]);
		p += code_len[c];
	}
	return p;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * The same with SSSE3: one shuffle gathers a code byte's 4 deltas into 4
 * u32 lanes (zero-extended), then unzigzag and add all 4 at once.
 */
__attribute__((target("ssse3")))
static inline __m128i lanes4_ssse3(const unsigned char *p, unsigned int c, __m128i one)
{
	__m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
				     _mm_load_si128((const __m128i *)code_shuf[c]));

	return _mm_xor_si128(_mm_srli_epi32(v, 1),
			     _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(v, one)));
}

/* Add the 4 deltas of code byte 0 to lanes 0, 1 (bytes 8..15) and 2, 3 (20..27). */
__attribute__((target("ssse3")))
static inline void add4_first(unsigned char *rec, __m128i v)
{
	_mm_storel_epi64((__m128i *)(rec + 8), _mm_add_epi32(_mm_loadl_epi64((__m128i *)(rec + 8)), v));
	_mm_storel_epi64((__m128i *)(rec + 20), _mm_add_epi32(_mm_loadl_epi64((__m128i *)(rec + 20)),
							      _mm_srli_si128(v, 8)));
}

/* Add the 4 deltas of code byte b >= 1 to lanes 4b .. 4b+3 (bytes 12 + 16b ..). */
__attribute__((target("ssse3")))
static inline void add4(unsigned char *rec, unsigned int b, __m128i v)
{
	__m128i *q = (__m128i *)(rec + 12 + 16 * b);

	_mm_storeu_si128(q, _mm_add_epi32(_mm_loadu_si128(q), v));
}

__attribute__((target("ssse3")))
static const unsigned char *lanes_ssse3(unsigned char *rec, const unsigned char *codes,
					const unsigned char *p, const unsigned char *end,
					unsigned int cb, unsigned int lastmask)
{
	const __m128i one = _mm_set1_epi32(1);
	unsigned int b, c, len;
	/* each code byte takes at most 16 bytes of deltas: check once if we can */
	int check = (size_t)(end - p) < 16 * cb;

	for (b = 0; b < cb; b++) {
		c = codes[b] & (b == cb - 1 ? lastmask : 0xff);
		len = code_len[c];
		if (check && (size_t)(end - p) < len)
			return NULL;
		if (b)
			add4(rec, b, lanes4_ssse3(p, c, one));
		else
			add4_first(rec, lanes4_ssse3(p, c, one));
		p += len;
	}
	return p;
}
#endif

/*
 * Varint at *pp. The buffer has 16 readable bytes past end (zeroed), so 8
 * bytes are loaded at once and the value is assembled without a loop.
 * Returns 0 and advances, or -1 when the varint is malformed or runs past end.
 */
static inline int vget(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t w, stop, x;
	unsigned int len;

	if (p >= end)
		return -1;
	memcpy(&w, p, 8);
	if (!(w & 0x80)) {
		*v = w & 0x7f;
		*pp = p + 1;
		return 0;
	}
	stop = ~w & 0x8080808080808080ull;
	if (!stop) {
		size_t k = varint_get(p, end, v);

		if (!k)
			return -1;
		*pp = p + k;
		return 0;
	}
	len = (__builtin_ctzll(stop) >> 3) + 1;
	if ((size_t)(end - p) < len)
		return -1;
	x = (w & 0x7f) | (w >> 1 & 0x3f80) | (w >> 2 & 0x1fc000) | (w >> 3 & 0xfe00000) |
	    (w >> 4 & 0x7f0000000ull) | (w >> 5 & 0x3f800000000ull) |
	    (w >> 6 & 0x1fc0000000000ull) | (w >> 7 & 0xfe000000000000ull);
	*v = x & ((1ull << (7 * len)) - 1);
	*pp = p + len;
	return 0;
}

/* Decode one record of the current chunk. 0, or -EILSEQ if malformed. */
static int decode(struct fsl_reader *r, struct fsl_hdr **out)
{
	const unsigned char *p = r->rp, *end = r->rend;
	uint64_t tag, v;
	unsigned int type, slot, i, size, tail_off, k;
	struct rstate *st;
	struct fsl_hdr *h;

	if (vget(&p, end, &tag) || tag >> 17)
		return -EILSEQ;
	type = tag >> 1;
	slot = type < FSL_STATE_TYPES ? type : FSL_STATE_TYPES;
	st = &r->st[slot];
	if (tag & 1) {
		uint64_t sz, n, need;

		if (vget(&p, end, &sz) || sz < sizeof(struct fsl_hdr) || sz > 0xffff)
			return -EILSEQ;
		if (vget(&p, end, &n) || n < 3 || n > fsl_lanes_for(sz))
			return -EILSEQ;
		/*
		 * Lanes live in the record buffer; st->lanes keeps those beyond
		 * the current lane count. Save, then lay out the new shape.
		 */
		if (st->valid)
			for (i = 0; i < st->nlanes; i++)
				st->lanes[i] = load32(st->rec + lane_off_tab[i]);
		need = sz;
		if (type < FSL_STATE_TYPES && r->min_size[type] > need)
			need = r->min_size[type];
		if (st->cap < need + 16) {
			/*
			 * Room for the record, zero-fill up to its schema size,
			 * and the unused lanes of the last code byte (< 12 bytes
			 * past the lanes; they are rewritten unchanged).
			 */
			size_t nc = (need + 16 + 255) & ~(size_t)255;
			unsigned char *nr = realloc(st->rec, nc);

			if (!nr)
				return -ENOMEM;
			st->rec = nr;
			st->cap = nc;
		}
		st->size = sz;
		st->out_size = need;
		st->nlanes = n;
		st->tail_off = fsl_lane_off(n);
		st->cb = (2 * n + 7) / 8;
		st->lastmask = (2 * n) % 8 ? (1u << (2 * n) % 8) - 1 : 0xff;
		st->valid = 1;
		/*
		 * The fast path of next_ssse3() takes records of at most 4
		 * code bytes and no tail (so never a dirop or dirents).
		 */
		st->fast = st->cb <= 4 && sz <= st->tail_off && type < FSL_STATE_TYPES &&
			   type != FSL_EV_DIROP && type != FSL_EV_DIRENTS;
		st->codemask = 0;
		if (st->fast) {
			/* the code bytes as one little-endian word, bits past the last lane off */
			for (i = 0; i + 1 < st->cb; i++)
				st->codemask |= 0xffu << 8 * i;
			st->codemask |= (uint32_t)st->lastmask << 8 * i;
		}

		for (i = 0; i < n; i++)
			store32(st->rec + lane_off_tab[i], st->lanes[i]);
		/* A record shorter than its schema reads as zero-filled up to it. */
		if (need > sz)
			memset(st->rec + sz, 0, need - sz);
		((struct fsl_hdr *)st->rec)->type = type;
		((struct fsl_hdr *)st->rec)->size = need;
	} else if (!st->valid || slot == FSL_STATE_TYPES) {
		return -EILSEQ;
	}
	size = st->size;
	/*
	 * ts length byte + delta, lane mask, 2-bit length codes, deltas. The
	 * buffer has 16 zero bytes past end, so 8-byte loads at p < end are
	 * safe; every advance is checked against end before the next load.
	 */
	if (p >= end || *p > 8)
		return -EILSEQ;
	k = *p++;
	v = load64(p) & fsl_bytemask(k);
	p += k;
	r->prev_ts += (uint64_t)unzigzag64(v);
	/* 2-bit code per lane, then the deltas of the changed lanes */
	{
		unsigned int cb = st->cb;

		if (p > end || (size_t)(end - p) < cb)
			return -EILSEQ;
		p = lanes_fn(st->rec, p, p + cb, end, cb, st->lastmask);
		if (!p)
			return -EILSEQ;
	}
	tail_off = st->tail_off;
	if (size > tail_off) {
		if ((size_t)(end - p) < size - tail_off)
			return -EILSEQ;
		memcpy(st->rec + tail_off, p, size - tail_off);
		p += size - tail_off;
	}
	h = (struct fsl_hdr *)st->rec;
	h->ts = r->prev_ts;	/* type and size were set with the shape */
	if (type == FSL_EV_DIROP) {
		struct fsl_ev_dirop *d = (struct fsl_ev_dirop *)h;
		size_t room = st->out_size - offsetof(struct fsl_ev_dirop, paths);

		/*
		 * Path lengths must fit the record: consumers trust them. (The
		 * writer clamps them, so this only fires on a crafted file.)
		 */
		dirop_clamp_paths(d, room);
	}
	if (type == FSL_EV_DIRENTS && st->out_size >= sizeof(struct fsl_ev_dirents)) {
		struct fsl_ev_dirents *d = (struct fsl_ev_dirents *)h;
		size_t room = (st->out_size - sizeof(*d)) / 8;

		/* consumers trust count: it must fit the record */
		if (d->count > room || d->count > FSL_DIRENTS_MAX) {
			d->count = room < FSL_DIRENTS_MAX ? room : FSL_DIRENTS_MAX;
			d->flags |= FSL_DIRENTS_FAULT;
		}
	}
	r->rp = p;
	*out = h;
	return 0;
}

/* Is an event of this type in the families the reader was opened for? */
static inline int type_wanted(const struct fsl_reader *r, unsigned int type)
{
	unsigned int fam = type < FSL_STATE_TYPES ? r->fam_of[type] : FSL_BLK_NFAM - 1;

	return !r->opts.families || (r->opts.families & (1u << fam));
}

static int next_generic(struct fsl_reader *r, const struct fsl_hdr **ev)
{
	for (;;) {
		struct fsl_hdr *h;
		int err;

		if (!r->left) {
			err = next_chunk(r);
			if (err <= 0)
				return err;
			continue;
		}
		err = decode(r, &h);
		if (err == -ENOMEM)
			return err;
		if (err) {
			warn(r, "chunk at offset %llu: malformed record %u of %u; rest of the chunk "
			     "skipped", (unsigned long long)r->coff, r->ccount - r->left + 1,
			     r->ccount);
			r->stats.bad_chunks++;
			r->left = 0;
			continue;
		}
		if (!--r->left && r->rp != r->rend) {
			warn(r, "chunk at offset %llu: %zu bytes after its %u records, ignored",
			     (unsigned long long)r->coff, (size_t)(r->rend - r->rp), r->ccount);
			r->stats.bad_chunks++;
		}
		if (!type_wanted(r, h->type))
			continue;
		*ev = h;
		return 1;
	}
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * The common record, decoded without a branch on its contents: a one-byte
 * tag without shape for a type whose state is `fast` (at most 4 code bytes,
 * no tail), at least 128 bytes before the chunk's end (such a record takes
 * at most 2 + 8 + 4 + 64 bytes, and the 16-byte loads stay inside those 128,
 * so no bounds check is needed). All 4 code bytes are applied; the ones past
 * cb are masked to 0 and add 0 to bytes of rec past the lanes (rec has room:
 * cap >= 256). Returns the record, or NULL for anything else, which then
 * goes through decode() with all its checks: the result is the same.
 */
__attribute__((target("ssse3")))
static inline struct fsl_hdr *decode_fast(struct fsl_reader *r)
{
	const __m128i one = _mm_set1_epi32(1);
	const unsigned char *p = r->rp;
	struct rstate *st;
	unsigned int k, c0, c1, c2, c3;
	uint32_t codes;
	uint64_t w, d;
	unsigned char *rec;

	if (r->rend - p < 128)
		return NULL;
	w = load64(p);
	if (w & 0x81)
		return NULL;
	st = &r->st[(w & 0x7f) >> 1];
	k = w >> 8 & 0xff;
	if (!st->fast || k > 8)
		return NULL;
	d = load64(p + 2) & fsl_bytemask(k);
	p += 2 + k;
	codes = load32(p) & st->codemask;
	p += st->cb;
	rec = st->rec;
	c0 = codes & 0xff;
	c1 = codes >> 8 & 0xff;
	c2 = codes >> 16 & 0xff;
	c3 = codes >> 24;
	add4_first(rec, lanes4_ssse3(p, c0, one));
	p += code_len[c0];
	add4(rec, 1, lanes4_ssse3(p, c1, one));
	p += code_len[c1];
	add4(rec, 2, lanes4_ssse3(p, c2, one));
	p += code_len[c2];
	add4(rec, 3, lanes4_ssse3(p, c3, one));
	p += code_len[c3];
	r->rp = p;
	r->prev_ts += (uint64_t)unzigzag64(d);
	((struct fsl_hdr *)rec)->ts = r->prev_ts;
	return (struct fsl_hdr *)rec;
}

__attribute__((target("ssse3")))
static int next_ssse3(struct fsl_reader *r, const struct fsl_hdr **ev)
{
	struct fsl_hdr *h;

	/* the last record of a chunk goes the generic way: it checks the chunk's end */
	while (r->left > 1 && (h = decode_fast(r))) {
		r->left--;
		if (!type_wanted(r, h->type))
			continue;
		*ev = h;
		return 1;
	}
	return next_generic(r, ev);
}
#endif

static int (*next_fn)(struct fsl_reader *, const struct fsl_hdr **) = next_generic;

int fsl_reader__next(struct fsl_reader *r, const struct fsl_hdr **ev)
{
	return next_fn(r, ev);
}

void fsl__trace_reader_generic(int on)
{
	static int (*best)(struct fsl_reader *, const struct fsl_hdr **);

	pthread_once(&code_once, code_tab_init);
	if (!best)
		best = next_fn;
	next_fn = on ? next_generic : best;
}

int fsl_reader__rewind(struct fsl_reader *r)
{
	r->cur = 0;
	r->left = 0;
	return 0;
}

/* ---- metadata lookups ---- */

const char *fsl_reader__kv(const struct fsl_reader *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nkv; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}

int fsl_reader__kv_at(const struct fsl_reader *r, size_t idx, const char **key,
		      const char **value)
{
	if (idx >= r->nkv)
		return 0;
	*key = r->kv[idx].key;
	*value = r->kv[idx].val;
	return 1;
}

const char *fsl_reader__text(const struct fsl_reader *r, const char *name, size_t *len)
{
	size_t i;

	for (i = r->ntexts; i-- > 0;)
		if (!strcmp(r->texts[i].name, name)) {
			if (len)
				*len = r->texts[i].len;
			return r->texts[i].data;
		}
	return NULL;
}

const struct fsl_bitmap *fsl_reader__bitmap(const struct fsl_reader *r, unsigned int kind,
					    unsigned int when)
{
	size_t i;

	for (i = r->nbitmaps; i-- > 0;)
		if (r->bitmaps[i].kind == kind && r->bitmaps[i].when == when)
			return &r->bitmaps[i];
	return NULL;
}

const struct fsl_stack *fsl_reader__stack(const struct fsl_reader *r, int32_t id)
{
	size_t lo = 0, hi = r->nstacks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->stacks[mid].id == id)
			return &r->stacks[mid];
		if (r->stacks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *fsl_reader__sym(const struct fsl_reader *r, uint64_t addr)
{
	size_t lo = 0, hi = r->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->syms[mid].addr == addr)
			return r->syms[mid].name;
		if (r->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct fsl_event_desc *fsl_reader__schema(const struct fsl_reader *r, unsigned int type)
{
	size_t i;

	for (i = r->nschema; i-- > 0;)
		if (r->schema[i].type == type)
			return &r->schema[i];
	return NULL;
}

void fsl_reader__decoded(const struct fsl_reader *r, struct fsl_decode_stats *out)
{
	*out = r->decoded;
}

void fsl_reader_decoded_total(struct fsl_decode_stats *out)
{
	out->chunks = __atomic_load_n(&total_chunks, __ATOMIC_RELAXED);
	out->events = __atomic_load_n(&total_events, __ATOMIC_RELAXED);
}

const struct fsl_trace_stats *fsl_reader__stats(const struct fsl_reader *r)
{
	return &r->stats;
}

void fsl_reader__meta_counts(const struct fsl_reader *r, struct fsl_meta_counts *c)
{
	c->kv = r->nkv;
	c->texts = r->ntexts;
	c->bitmaps = r->nbitmaps;
	c->stacks = r->nstacks;
	c->syms = r->nsyms;
	c->schema_types = r->nschema;
}

int fsl_reader__text_at(const struct fsl_reader *r, size_t idx, const char **name,
			const char **data, size_t *len)
{
	if (idx >= r->ntexts)
		return 0;
	*name = r->texts[idx].name;
	if (data)
		*data = r->texts[idx].data;
	if (len)
		*len = r->texts[idx].len;
	return 1;
}

size_t fsl_reader__nwarnings(const struct fsl_reader *r)
{
	return r->nwarn;
}

const char *fsl_reader__warning(const struct fsl_reader *r, size_t idx)
{
	return idx < r->nwarn ? r->warnings[idx] : NULL;
}
