// SPDX-License-Identifier: GPL-2.0
/* Trace format pieces shared by writer and reader: checksums, headers, buffers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "trace_internal.h"

/* ---- crc32c (Castagnoli, reflected polynomial 0x82f63b78) ---- */

static uint32_t crc_tab[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;
static int crc_hw;

static void crc_init(void)
{
	unsigned int i, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_tab[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_tab[k][i] = (crc_tab[k - 1][i] >> 8) ^ crc_tab[0][crc_tab[k - 1][i] & 0xff];
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	__builtin_cpu_init();
	crc_hw = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t crc_sw(uint32_t c, const unsigned char *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		c = crc_tab[0][(c ^ *p++) & 0xff] ^ (c >> 8);
		len--;
	}
	while (len >= 8) {
		uint32_t lo = c ^ get_le32(p), hi = get_le32(p + 4);

		c = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		    crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		    crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		    crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = crc_tab[0][(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("sse4.2")))
static uint32_t crc_x86(uint32_t c, const unsigned char *p, size_t len)
{
	uint64_t c64 = c;

	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c64 = __builtin_ia32_crc32di(c64, v);
		p += 8;
		len -= 8;
	}
	c = (uint32_t)c64;
	while (len--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}
#endif

uint32_t fsl_crc32c(uint32_t crc, const void *buf, size_t len)
{
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_init);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (crc_hw)
		return ~crc_x86(c, buf, len);
#endif
	return ~crc_sw(c, buf, len);
}

/* Set only by the fuzz target (tests/fuzz): lets mutated data reach the decoders. */
int fsl__trace_fuzz_skip_crc;

/* ---- file header ---- */

void fsl_file_hdr_encode(unsigned char out[FSL_HDR_SIZE], const struct fsl_file_hdr *h)
{
	memset(out, 0, FSL_HDR_SIZE);
	memcpy(out, FSL_TRACE_MAGIC, 8);
	put_le32(out + 8, h->version);
	put_le32(out + 12, FSL_HDR_SIZE);
	put_le32(out + 16, h->endian);
	put_le32(out + 20, h->flags);
	put_le64(out + 24, (uint64_t)h->realtime_offset_ns);
	put_le64(out + 32, h->start_ns);
	put_le64(out + 40, h->footer_offset);
	put_le64(out + 48, h->file_size);
	put_le64(out + 56, h->events);
	put_le64(out + 64, h->chunks);
	put_le64(out + 72, h->first_ts);
	put_le64(out + 80, h->last_ts);
	put_le64(out + 88, h->raw_bytes);
	put_le64(out + 96, (uint64_t)h->boottime_offset_ns);
	put_le32(out + 124, fsl_crc32c(0, out, 124));
}

int fsl_file_hdr_decode(const unsigned char in[FSL_HDR_SIZE], struct fsl_file_hdr *h)
{
	uint32_t endian_host = FSL_ENDIAN_MARK;

	if (memcmp(in, FSL_TRACE_MAGIC, 8))
		return -EBADMSG;
	memset(h, 0, sizeof(*h));
	h->version = get_le32(in + 8);
	/* A newer version may change anything after the version field. */
	if (h->version > FSL_TRACE_VERSION || h->version == 0)
		return -EPROTONOSUPPORT;
	if (get_le32(in + 124) != fsl_crc32c(0, in, 124) && !fsl__trace_fuzz_skip_crc)
		return -EILSEQ;
	h->header_size = get_le32(in + 12);
	memcpy(&h->endian, in + 16, 4);
	if (h->header_size != FSL_HDR_SIZE)
		return -EILSEQ;
	/* Event records are stored in the writer's byte order. */
	if (h->endian != endian_host)
		return -EPROTONOSUPPORT;
	h->flags = get_le32(in + 20);
	h->realtime_offset_ns = (int64_t)get_le64(in + 24);
	h->start_ns = get_le64(in + 32);
	h->footer_offset = get_le64(in + 40);
	h->file_size = get_le64(in + 48);
	h->events = get_le64(in + 56);
	h->chunks = get_le64(in + 64);
	h->first_ts = get_le64(in + 72);
	h->last_ts = get_le64(in + 80);
	h->raw_bytes = get_le64(in + 88);
	h->boottime_offset_ns = (int64_t)get_le64(in + 96);
	return 0;
}

/* ---- block header ---- */

void fsl_blk_hdr_encode(unsigned char out[FSL_BLK_HDR_SIZE], const struct fsl_blk_hdr *b)
{
	unsigned int i;

	put_le32(out, FSL_BLK_MAGIC);
	put_le16(out + 4, b->kind);
	put_le16(out + 6, b->sub);
	put_le32(out + 8, b->disk_len);
	put_le32(out + 12, b->raw_len);
	put_le32(out + 16, b->count);
	put_le32(out + 20, b->payload_crc);
	put_le64(out + 24, b->first_ts);
	put_le64(out + 32, b->last_ts);
	for (i = 0; i < FSL_BLK_NFAM; i++)
		put_le32(out + 40 + 4 * i, b->fam[i]);
	put_le64(out + 72, b->aux);
	put_le32(out + 80, b->flags);
	put_le32(out + 84, fsl_crc32c(0, out, 84));
}

int fsl_blk_hdr_decode(const unsigned char in[FSL_BLK_HDR_SIZE], struct fsl_blk_hdr *b)
{
	unsigned int i;

	if (get_le32(in) != FSL_BLK_MAGIC ||
	    (get_le32(in + 84) != fsl_crc32c(0, in, 84) && !fsl__trace_fuzz_skip_crc))
		return -EILSEQ;
	b->kind = get_le16(in + 4);
	b->sub = get_le16(in + 6);
	b->disk_len = get_le32(in + 8);
	b->raw_len = get_le32(in + 12);
	b->count = get_le32(in + 16);
	b->payload_crc = get_le32(in + 20);
	b->first_ts = get_le64(in + 24);
	b->last_ts = get_le64(in + 32);
	for (i = 0; i < FSL_BLK_NFAM; i++)
		b->fam[i] = get_le32(in + 40 + 4 * i);
	b->aux = get_le64(in + 72);
	b->flags = get_le32(in + 80);
	if (b->disk_len > FSL_MAX_BLOCK || b->raw_len > FSL_MAX_BLOCK)
		return -EILSEQ;
	if (!(b->flags & FSL_BLK_F_ZSTD) && b->raw_len != b->disk_len)
		return -EILSEQ;
	return 0;
}

/* ---- buffers ---- */

int fsl_buf_reserve(struct fsl_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	unsigned char *p;

	if (b->cap - b->len >= more)
		return 0;
	while (cap - b->len < more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

int fsl_buf_put(struct fsl_buf *b, const void *p, size_t n)
{
	if (fsl_buf_reserve(b, n))
		return -ENOMEM;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

void fsl_buf_free(struct fsl_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- bitmaps ---- */

int fsl_bitmap_test(const struct fsl_bitmap *bm, uint64_t bit)
{
	uint64_t pos, i;

	if (!bm || bit < bm->first || bit - bm->first >= bm->nbits)
		return -ERANGE;
	pos = bit - bm->first;
	for (i = 0; i < bm->nruns; i++) {
		if (pos < bm->runs[i])
			return (int)(i & 1);
		pos -= bm->runs[i];
	}
	return -ERANGE;
}

void fsl_bitmap_free(struct fsl_bitmap *bm)
{
	if (!bm)
		return;
	free(bm->runs);
	bm->runs = NULL;
	bm->nruns = 0;
}

int fsl_bitmap_from_bits(struct fsl_bitmap *bm, const uint64_t *words, uint64_t nbits,
			 uint64_t first, unsigned int kind, unsigned int when)
{
	uint64_t i = 0, cap = 64, n = 0;
	uint64_t *runs = malloc(cap * sizeof(*runs));
	int val = 0;

	if (!runs)
		return -ENOMEM;
	while (i < nbits) {
		uint64_t start = i;

		/* skip whole words that continue the run */
		while (i < nbits) {
			uint64_t w = words[i / 64] >> (i % 64);
			uint64_t left = 64 - i % 64;
			uint64_t same = val ? (~w ? (uint64_t)__builtin_ctzll(~w) : 64) :
					      (w ? (uint64_t)__builtin_ctzll(w) : 64);

			if (same > left)
				same = left;
			i += same;
			if (same < left)
				break;
		}
		if (i > nbits)
			i = nbits;
		if (n == cap) {
			uint64_t *nr = realloc(runs, 2 * cap * sizeof(*runs));

			if (!nr) {
				free(runs);
				return -ENOMEM;
			}
			runs = nr;
			cap *= 2;
		}
		runs[n++] = i - start;
		val = !val;
	}
	bm->kind = kind;
	bm->when = when;
	bm->first = first;
	bm->nbits = nbits;
	bm->nruns = n;
	bm->runs = runs;
	return 0;
}

int fsl_bitmap_to_bits(const struct fsl_bitmap *bm, uint64_t *words, size_t nwords)
{
	uint64_t pos = 0, i, b;

	if ((bm->nbits + 63) / 64 > nwords)
		return -ENOSPC;
	memset(words, 0, ((bm->nbits + 63) / 64) * sizeof(*words));
	for (i = 0; i < bm->nruns; i++) {
		if (bm->runs[i] > bm->nbits - pos)
			return -EINVAL;
		if (i & 1)
			for (b = pos; b < pos + bm->runs[i]; b++)
				words[b / 64] |= 1ull << (b % 64);
		pos += bm->runs[i];
	}
	return pos == bm->nbits ? 0 : -EINVAL;
}

const char *fsl_trace_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case EBADMSG: return "not an fslens trace (bad magic)";
	case EILSEQ: return "damaged trace: the header at offset 0 fails its checksum";
	case EPROTONOSUPPORT:
		return "written by a newer fslens or on a machine of the other byte order";
	case ENODATA: return "cut short: too short to be an fslens trace";
	case EINVAL: return "not a regular file, so not an fslens trace";
	default: return strerror(err < 0 ? -err : err);
	}
}

/*
 * The reader's open errors with what the header says: the version a newer
 * fslens wrote, the byte order, how many bytes a cut file has. Reads the
 * first bytes of path again (the reader has gone by then).
 */
const char *fsl_trace_open_strerror(const char *path, int err, char *buf, size_t len)
{
	unsigned char h[FSL_HDR_SIZE];
	struct stat sb;
	ssize_t n = -1;
	int fd;

	if (err < 0)
		err = -err;
	if (err != EPROTONOSUPPORT && err != ENODATA && err != EINVAL)
		return fsl_trace_strerror(err);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fsl_trace_strerror(err);
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode))
		n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (err == EINVAL) {
		snprintf(buf, len, "not a regular file (%s), so not an fslens trace",
			 S_ISCHR(sb.st_mode) ? "a character device" :
			 S_ISBLK(sb.st_mode) ? "a block device" :
			 S_ISFIFO(sb.st_mode) ? "a pipe" : S_ISSOCK(sb.st_mode) ? "a socket" :
			 "a special file");
		return buf;
	}
	if (n < 0)
		return fsl_trace_strerror(err);
	if (err == ENODATA) {
		if (n == 0)
			snprintf(buf, len, "empty file, too short to be an fslens trace");
		else
			snprintf(buf, len, "cut short: %zd bytes, too short to be an fslens trace "
				 "(its header alone is %d)", n, FSL_HDR_SIZE);
		return buf;
	}
	if (n >= 20) {
		uint32_t v = get_le32(h + 8), mark = FSL_ENDIAN_MARK;

		if (v > FSL_TRACE_VERSION) {
			snprintf(buf, len, "written by a newer fslens (trace format version %u; "
				 "this fslens reads up to version %d)", v, FSL_TRACE_VERSION);
			return buf;
		}
		if (v == 0) {
			snprintf(buf, len, "damaged trace: format version 0 in the header");
			return buf;
		}
		if (memcmp(h + 16, &mark, 4)) {
			snprintf(buf, len, "written on a machine of the other byte order; "
				 "read it there (this fslens reads its own byte order only)");
			return buf;
		}
	}
	return fsl_trace_strerror(err);
}

const char *fsl_writer_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case EEXIST: return "it exists; use -f to replace it";
	case ELOOP: return "it is a symbolic link; fslens writes only to a regular file it "
			   "creates (remove the link or choose another name)";
	case EISDIR: return "it is a directory; name a file to create";
	case EINVAL: return "it is not a regular file (a device, pipe or socket); name a "
			    "file to create";
	default: return strerror(err < 0 ? -err : err);
	}
}
