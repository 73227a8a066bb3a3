/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace file API (lib/trace_*.c). Byte layout: docs/trace-format.md.
 *
 * A trace is a header, metadata sections, a stream of compressed event
 * chunks and a footer. Functions return 0 or -errno (pointers: NULL with
 * *err set) and never print or exit; the caller decides what to say.
 */
#ifndef FSLENS_TRACE_H
#define FSLENS_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "event.h"
#include "schema.h"
#include "meta.h"

#define FSL_TRACE_MAGIC		"FSLENS\r\n"	/* 8 bytes */
#define FSL_TRACE_VERSION	1

/*
 * Metadata section kinds. A reader skips kinds it does not know.
 * KV sections are text: lines "key=value\n" (value to end of line, with
 * \n and \\ escaped). Later KV sections add to / override earlier keys.
 */
enum fsl_meta_kind {
	FSL_META_KV = 1,	/* machine, kernel, mount, geometry, tunables, probe mode... */
	FSL_META_SCHEMA,	/* the event schema (written by the writer itself) */
	FSL_META_STACKS,	/* symbolized kernel stacks: id -> frames */
	FSL_META_BITMAP,	/* a block or inode bitmap, run-length (struct fsl_bitmap) */
	FSL_META_TEXT,		/* a named text blob, e.g. /proc/fs/jbd2/<dev>/info at start */
	FSL_META_SYMS,		/* address -> symbol, for ext4_journal_start ip etc. */
};

/* KV keys and text names: include/fslens/meta.h (docs/record.md describes them). */

/* Bitmaps (FSL_META_BITMAP): which and when. */
enum fsl_bitmap_kind { FSL_BITMAP_BLOCK = 1, FSL_BITMAP_INODE = 2 };
enum fsl_bitmap_when { FSL_BITMAP_START = 1, FSL_BITMAP_END = 2 };

/*
 * A bitmap in memory: nbits bits, stored as runs of alternating value
 * starting with "clear" (free). runs[i] is a run length; sum == nbits.
 */
struct fsl_bitmap {
	uint32_t kind;		/* enum fsl_bitmap_kind */
	uint32_t when;		/* enum fsl_bitmap_when */
	uint64_t first;		/* number of bit 0 (first data block / inode 1) */
	uint64_t nbits;
	uint64_t nruns;
	uint64_t *runs;
};

struct fsl_stack {
	int32_t id;
	uint32_t nframes;
	char **frames;		/* innermost first, "func+0xoff" or "func" */
};

/* Per-family counters kept in the footer (and summed by the reader). */
struct fsl_family_counts {
	uint64_t events[FSL_FAM__MAX];
	uint64_t lost[FSL_FAM__MAX];
};

/* ---- writer ---- */

struct fsl_writer;

struct fsl_writer_opts {
	int force;			/* overwrite an existing file (else -EEXIST) */
	int zstd_level;			/* 0 = default */
	size_t chunk_events;		/* events per chunk, 0 = default */
	uint64_t reorder_ns;		/* events may arrive this late (0 = default 2 s): lib/ordered.c */
	int no_compress;		/* store blocks uncompressed (tests, fuzz seeds) */
	int sorted;			/* events come in ts order: no reorder hold (late ones counted) */
};

/*
 * Create path (mode 0600). An existing name is -EEXIST unless force, and
 * then replaced by rename, never written through; a symbolic link is
 * -ELOOP, a directory -EISDIR, anything else not a regular file -EINVAL
 * (fsl_writer_strerror says it). "-" is not allowed. With force the new
 * trace is written beside the old one, which stays as it was until
 * fsl_writer__publish (or fsl_writer__close) renames the new one over it.
 */
struct fsl_writer *fsl_writer__open(const char *path, const struct fsl_writer_opts *opts,
				    int *err);
/*
 * Put a replacement in the old trace's place now: the first durable point
 * (a recorder calls it once the probes run; from then a killed recording is
 * found at path). 0 or -errno of the rename; nothing to do without force.
 */
int fsl_writer__publish(struct fsl_writer *w);
/* Add "key=value" to the pending KV section (written before the next chunk or at close). */
int fsl_writer__kv(struct fsl_writer *w, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int fsl_writer__text(struct fsl_writer *w, const char *name, const void *data, size_t len);
int fsl_writer__bitmap(struct fsl_writer *w, const struct fsl_bitmap *bm);
int fsl_writer__stack(struct fsl_writer *w, const struct fsl_stack *st);
int fsl_writer__sym(struct fsl_writer *w, uint64_t addr, const char *name);
/*
 * Append one record (ev->size bytes). Records may arrive out of ts order by
 * up to reorder_ns; the ordering service (include/fslens/ordered.h) puts
 * them in ts order before they are stored. With opts.sorted the caller's
 * stream is in order already (one that went through the service itself)
 * and nothing is held; a record older than the last one is stored as it
 * comes and counted late.
 */
int fsl_writer__event(struct fsl_writer *w, const struct fsl_hdr *ev);
int fsl_writer__lost(struct fsl_writer *w, unsigned int family, uint64_t count);
/* Write buffered events as complete chunks now (crash safety point). */
int fsl_writer__flush(struct fsl_writer *w);
/*
 * Flush, write footer, rewrite the header with final sizes, close, and put a
 * replacement in place (as fsl_writer__publish); one that failed is removed
 * and the old trace kept. Frees w.
 */
int fsl_writer__close(struct fsl_writer *w);
/* Free without finishing (what a crash leaves: complete chunks stay readable). */
void fsl_writer__abort(struct fsl_writer *w);
/*
 * Give up a trace that never started: remove the file this writer created
 * (or, replacing, the one beside); an old trace stays untouched. Frees w.
 */
void fsl_writer__discard(struct fsl_writer *w);
/* Bytes written so far (compressed, on disk) and events accepted. */
uint64_t fsl_writer__bytes(const struct fsl_writer *w);
uint64_t fsl_writer__events(const struct fsl_writer *w);

/* ---- reader ---- */

struct fsl_reader;

/*
 * Problems found while reading are reported through this callback (one
 * line, no newline): a truncated file, a corrupt chunk at offset X skipped.
 * NULL = collect them; fsl_reader__warnings() returns them.
 */
typedef void (*fsl_warn_fn)(void *ctx, const char *msg);

struct fsl_reader_opts {
	fsl_warn_fn warn;
	void *warn_ctx;
	uint32_t families;		/* only decode these families (0 = all) */
};

struct fsl_reader *fsl_reader__open(const char *path, const struct fsl_reader_opts *opts,
				    int *err);
void fsl_reader__close(struct fsl_reader *r);

/*
 * Next event in ts order. Returns 1 and sets *ev (valid until the next
 * call), 0 at the end, -errno on a fatal error. Records of types this build
 * does not know are returned too (their hdr.type is >= FSL_EV__MAX or has
 * no builtin schema); consumers skip them.
 */
int fsl_reader__next(struct fsl_reader *r, const struct fsl_hdr **ev);
/* Rewind to the first event. */
int fsl_reader__rewind(struct fsl_reader *r);

/* Metadata (all sections of the file, loaded at open). */
const char *fsl_reader__kv(const struct fsl_reader *r, const char *key);
/* Iterate KV pairs: idx from 0; returns 0 past the end. */
int fsl_reader__kv_at(const struct fsl_reader *r, size_t idx, const char **key,
		      const char **value);
const char *fsl_reader__text(const struct fsl_reader *r, const char *name, size_t *len);
const struct fsl_bitmap *fsl_reader__bitmap(const struct fsl_reader *r, unsigned int kind,
					    unsigned int when);
const struct fsl_stack *fsl_reader__stack(const struct fsl_reader *r, int32_t id);
const char *fsl_reader__sym(const struct fsl_reader *r, uint64_t addr);
/* The schema of a type as stored in the file (NULL if none). */
const struct fsl_event_desc *fsl_reader__schema(const struct fsl_reader *r, unsigned int type);

struct fsl_trace_stats {
	uint32_t version;
	int complete;			/* footer present and valid */
	uint64_t file_bytes;
	uint64_t raw_bytes;		/* sum of record sizes */
	uint64_t compressed_bytes;	/* chunk payloads on disk */
	uint64_t chunks;
	uint64_t bad_chunks;
	uint64_t first_ts, last_ts;
	struct fsl_family_counts counts;
	uint64_t late_events;		/* arrived after the reorder window: stored out of ts order */
	/* From the file header: clocks when the writer opened the file. */
	uint64_t open_ns;		/* CLOCK_MONOTONIC */
	int64_t realtime_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	int64_t boottime_offset_ns;	/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
};
/* Stats from the footer (or, for a cut file, from a scan of the chunks). */
const struct fsl_trace_stats *fsl_reader__stats(const struct fsl_reader *r);

/*
 * What was decompressed and decoded: the chunks a reader entered and the
 * events they hold (a chunk is decoded whole once entered; one skipped for
 * the families asked is not counted). Per reader, and over every reader of
 * the process, so a test can tell a trace decoded twice, whoever read it.
 */
struct fsl_decode_stats {
	uint64_t chunks, events;
};
void fsl_reader__decoded(const struct fsl_reader *r, struct fsl_decode_stats *out);
void fsl_reader_decoded_total(struct fsl_decode_stats *out);

/* How much metadata the file holds (each KV key counted once). */
struct fsl_meta_counts {
	size_t kv, texts, bitmaps, stacks, syms, schema_types;
};
void fsl_reader__meta_counts(const struct fsl_reader *r, struct fsl_meta_counts *c);
/* Iterate text blobs: idx from 0; returns 0 past the end. */
int fsl_reader__text_at(const struct fsl_reader *r, size_t idx, const char **name,
			const char **data, size_t *len);

/* Warnings collected so far (when opts.warn was NULL). */
size_t fsl_reader__nwarnings(const struct fsl_reader *r);
const char *fsl_reader__warning(const struct fsl_reader *r, size_t idx);

/* ---- small helpers everyone needs ---- */

/* Total length of a dirop record for given path lengths (8-aligned). */
static inline size_t fsl_dirop_size(size_t path_len, size_t path2_len)
{
	return (sizeof(struct fsl_ev_dirop) + path_len + path2_len + 7) & ~(size_t)7;
}

/*
 * Message for an error of fsl_reader__open: the trace-specific meaning of
 * -EBADMSG (not a trace), -EILSEQ (corrupt header), -EPROTONOSUPPORT (newer
 * version or other byte order), -ENODATA (empty or too short); else strerror.
 */
const char *fsl_trace_strerror(int err);
/*
 * The same with what the file itself says (a newer version's number, the
 * byte order, a cut file's size); buf holds it when needed. One line.
 */
const char *fsl_trace_open_strerror(const char *path, int err, char *buf, size_t len);

/* One line for an fsl_writer__open error: what the path is and what to do. */
const char *fsl_writer_strerror(int err);

/* Bitmap helpers: test a bit by number (first..first+nbits-1). */
int fsl_bitmap_test(const struct fsl_bitmap *bm, uint64_t bit);
void fsl_bitmap_free(struct fsl_bitmap *bm);
/*
 * Runs from a plain bit array (bit i of words[i / 64] = bit number first + i;
 * 1 = used), for the writer. Fills bm (runs allocated; fsl_bitmap_free).
 */
int fsl_bitmap_from_bits(struct fsl_bitmap *bm, const uint64_t *words, uint64_t nbits,
			 uint64_t first, unsigned int kind, unsigned int when);
/* Expand to a plain bit array of (nbits + 63) / 64 words (nwords must be >= that). */
int fsl_bitmap_to_bits(const struct fsl_bitmap *bm, uint64_t *words, size_t nwords);

#endif /* FSLENS_TRACE_H */
