/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the trace writer and reader: on-disk constants
 * (docs/trace-format.md), little-endian accessors, varints, crc32c.
 */
#ifndef FSL_TRACE_INTERNAL_H
#define FSL_TRACE_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "fslens/trace.h"

#define FSL_HDR_SIZE		128
#define FSL_ENDIAN_MARK		0x01020304u
#define FSL_HDR_F_COMPLETE	(1u << 0)

#define FSL_BLK_MAGIC		0x424c5346u	/* "FSLB" */
#define FSL_BLK_HDR_SIZE	88
#define FSL_BLK_CHUNK		1
#define FSL_BLK_META		2
#define FSL_BLK_FOOTER		3
#define FSL_BLK_F_ZSTD		(1u << 0)
#define FSL_BLK_NFAM		8

#define FSL_CHUNK_ENC		2	/* sub of a chunk block: record encoding (1 was a draft) */

/* Nothing in a file may make us allocate more than this for one block. */
#define FSL_MAX_BLOCK		(64u << 20)
#define FSL_FOOTER_ENTRY_SIZE	40

/* Record encoding: lanes are 4-byte words delta-coded per type. */
#define FSL_MAX_LANES		64
#define FSL_STATE_TYPES		256	/* types >= this share one state slot */

struct fsl_file_hdr {
	uint32_t version;
	uint32_t header_size;
	uint32_t endian;
	uint32_t flags;
	int64_t realtime_offset_ns;
	uint64_t start_ns;
	uint64_t footer_offset;
	uint64_t file_size;
	uint64_t events;
	uint64_t chunks;
	uint64_t first_ts, last_ts;
	uint64_t raw_bytes;
	int64_t boottime_offset_ns;
};

struct fsl_blk_hdr {
	uint16_t kind;
	uint16_t sub;
	uint32_t disk_len;
	uint32_t raw_len;
	uint32_t count;
	uint32_t payload_crc;
	uint64_t first_ts, last_ts;
	uint32_t fam[FSL_BLK_NFAM];
	uint64_t aux;		/* chunk: sum of record sizes */
	uint32_t flags;
};

static inline void put_le16(unsigned char *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static inline void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}
static inline void put_le64(unsigned char *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t get_le16(const unsigned char *p) { return p[0] | (uint16_t)p[1] << 8; }
static inline uint32_t get_le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const unsigned char *p)
{
	return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

/* Record fields in host order at any alignment (the records are native, the file frame is LE). */
static inline void store32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void store64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static inline uint32_t load32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}
static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Cut a dirop's path lengths to the room its record has, flagging what was cut. */
static inline void dirop_clamp_paths(struct fsl_ev_dirop *d, size_t room)
{
	if (d->path_len > room) {
		d->path_len = room;
		d->pflags |= FSL_DIROP_TRUNC1;
	}
	if (d->path2_len > room - d->path_len) {
		d->path2_len = room - d->path_len;
		d->pflags |= FSL_DIROP_TRUNC2;
	}
}

static inline uint64_t zigzag64(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t unzigzag64(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }
static inline uint32_t zigzag32(int32_t v) { return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31); }
static inline int32_t unzigzag32(uint32_t v) { return (int32_t)(v >> 1) ^ -(int32_t)(v & 1); }

/* LEB128. p must have 10 bytes of room. Returns bytes written. */
static inline size_t varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)v | 0x80;
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* Returns bytes consumed, 0 on overrun or an over-long encoding. */
static inline size_t varint_get(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	uint64_t r = 0;
	size_t n = 0;
	unsigned int shift = 0;

	if (p < end && p[0] < 0x80) {
		*v = p[0];
		return 1;
	}
	while (p + n < end && n < 10) {
		unsigned char b = p[n++];

		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return n;
		}
		shift += 7;
	}
	return 0;
}

uint32_t fsl_crc32c(uint32_t crc, const void *buf, size_t len);
extern int fsl__trace_fuzz_skip_crc;	/* fuzzing only: checksums always match */
/* tests only: 1 = decode every record with the generic decoder, 0 = the fastest */
void fsl__trace_reader_generic(int on);

void fsl_file_hdr_encode(unsigned char out[FSL_HDR_SIZE], const struct fsl_file_hdr *h);
/* 0, or -EBADMSG (magic), -EILSEQ (checksum), -EPROTONOSUPPORT (version/endian). */
int fsl_file_hdr_decode(const unsigned char in[FSL_HDR_SIZE], struct fsl_file_hdr *h);
void fsl_blk_hdr_encode(unsigned char out[FSL_BLK_HDR_SIZE], const struct fsl_blk_hdr *b);
/* 0 or -EILSEQ (bad magic, checksum or sizes beyond FSL_MAX_BLOCK). */
int fsl_blk_hdr_decode(const unsigned char in[FSL_BLK_HDR_SIZE], struct fsl_blk_hdr *b);

/* Lane layout of a record: lane i is the 4-byte word at lane_off(i). */
static inline size_t fsl_lane_off(unsigned int i)
{
	return i == 0 ? 8 : i == 1 ? 12 : i == 2 ? 20 : 24 + 4 * (size_t)(i - 3);
}
/* Lanes the writer delta-codes for a type of fixed size `fixed`. */
static inline unsigned int fsl_lanes_for(size_t fixed)
{
	size_t n = fixed >= 24 ? 3 + (fixed - 24) / 4 : 3;

	return n > FSL_MAX_LANES ? FSL_MAX_LANES : (unsigned int)n;
}

/* Low n bytes of a 64-bit word, n = 0..8. */
static inline uint64_t fsl_bytemask(unsigned int n)
{
	static const uint64_t m[9] = { 0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull,
				       0xffffffffffffull, 0xffffffffffffffull, ~0ull };

	return m[n > 8 ? 8 : n];
}

/* Bytes needed for v (0 for 0). */
static inline unsigned int fsl_nbytes64(uint64_t v)
{
	return v ? (unsigned int)(71 - __builtin_clzll(v)) / 8 : 0;
}

/* Growable byte buffer. */
struct fsl_buf {
	unsigned char *p;
	size_t len, cap;
};
int fsl_buf_reserve(struct fsl_buf *b, size_t more);
int fsl_buf_put(struct fsl_buf *b, const void *p, size_t n);
static inline int fsl_buf_varint(struct fsl_buf *b, uint64_t v)
{
	if (b->cap - b->len < 10 && fsl_buf_reserve(b, 10))
		return -ENOMEM;
	b->len += varint_put(b->p + b->len, v);
	return 0;
}
void fsl_buf_free(struct fsl_buf *b);

#endif
