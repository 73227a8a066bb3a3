/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exporters (analyzer/export_*.c) and importers (analyzer/import_*.c): the
 * bridges between fslens traces and the tools storage engineers already use
 * (blkparse/btt/iowatcher, Perfetto, flamegraph.pl, spreadsheets).
 *
 * Every exporter is fed events in time order with fsl_*_export__event() and
 * finished with __finish(); they never print, and return 0 or -errno. The
 * blktrace importer reads files and hands fslens records to a callback.
 */
#ifndef FSLENS_EXPORT_H
#define FSLENS_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "event.h"
#include "session.h"
#include "text.h"

/* ---- the blktrace v7 binary record (struct blk_io_trace, 48 bytes) ---- */

#define FSL_BT_MAGIC		0x65617400u	/* "ea" + 't' << 8; low byte = version */
#define FSL_BT_VERSION		0x07
#define FSL_BT_REC_SIZE		48

/* Action codes (low 16 bits of action). */
enum fsl_bt_act {
	FSL_BT_A_QUEUE = 1,
	FSL_BT_A_BACKMERGE,
	FSL_BT_A_FRONTMERGE,
	FSL_BT_A_GETRQ,
	FSL_BT_A_SLEEPRQ,
	FSL_BT_A_REQUEUE,
	FSL_BT_A_ISSUE,
	FSL_BT_A_COMPLETE,
	FSL_BT_A_PLUG,
	FSL_BT_A_UNPLUG_IO,
	FSL_BT_A_UNPLUG_TIMER,
	FSL_BT_A_INSERT,
	FSL_BT_A_SPLIT,
	FSL_BT_A_BOUNCE,
	FSL_BT_A_REMAP,
	FSL_BT_A_ABORT,
	FSL_BT_A_DRV_DATA,
};
/* A cgroup id (8 bytes) leads the payload. */
#define FSL_BT_A_CGROUP		(1u << 8)

/* Notify codes (action with the NOTIFY category). */
enum fsl_bt_notify {
	FSL_BT_N_PROCESS = 0,	/* payload: the task's comm */
	FSL_BT_N_TIMESTAMP,	/* payload: u32 sec, u32 nsec of wall time at .time */
	FSL_BT_N_MESSAGE,	/* payload: text */
};

/* Category bits (high 16 bits of action). */
#define FSL_BT_C_READ		(1u << 0)
#define FSL_BT_C_WRITE		(1u << 1)
#define FSL_BT_C_FLUSH		(1u << 2)
#define FSL_BT_C_SYNC		(1u << 3)
#define FSL_BT_C_QUEUE		(1u << 4)
#define FSL_BT_C_REQUEUE	(1u << 5)
#define FSL_BT_C_ISSUE		(1u << 6)
#define FSL_BT_C_COMPLETE	(1u << 7)
#define FSL_BT_C_FS		(1u << 8)
#define FSL_BT_C_PC		(1u << 9)
#define FSL_BT_C_NOTIFY		(1u << 10)
#define FSL_BT_C_AHEAD		(1u << 11)
#define FSL_BT_C_META		(1u << 12)
#define FSL_BT_C_DISCARD	(1u << 13)
#define FSL_BT_C_DRV_DATA	(1u << 14)
#define FSL_BT_C_FUA		(1u << 15)
#define FSL_BT_ACTION(code, cats)	((uint32_t)(code) | ((uint32_t)(cats) << 16))
#define FSL_BT_CODE(action)	((action) & 0xffffu)
#define FSL_BT_CATS(action)	((action) >> 16)

/* One record, host byte order. Field order is the file's. */
struct fsl_bt_rec {
	uint32_t magic;		/* FSL_BT_MAGIC | version */
	uint32_t sequence;	/* per-CPU, from 1; notify records carry 0 */
	uint64_t time;		/* ns, the kernel's monotonic clock */
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	uint32_t device;	/* kernel dev_t (MAJOR << 20 | MINOR) */
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len;	/* payload bytes following the record */
};

/* Write r as 48 bytes in little (big_endian = 0) or big endian order. */
void fsl_bt_encode(const struct fsl_bt_rec *r, unsigned char out[FSL_BT_REC_SIZE],
		   int big_endian);
/*
 * Decode 48 bytes. *big_endian < 0 on entry: detect from the magic and set
 * it; otherwise the given order is used. Returns 0, -EBADMSG (bad magic) or
 * -EPROTONOSUPPORT (a version other than 7).
 */
int fsl_bt_decode(const unsigned char in[FSL_BT_REC_SIZE], struct fsl_bt_rec *r,
		  int *big_endian);
/* fslens request flags (FSL_RQ_*) <-> blktrace category bits (direction part). */
uint32_t fsl_bt_cats_from_flags(uint32_t fsl_flags);
uint32_t fsl_bt_flags_from_cats(uint32_t cats);

/* ---- blktrace export ---- */

struct fsl_bt_export_opts {
	const char *dir;		/* output directory (must exist) */
	const char *name;		/* file base name; NULL: per device, see below */
	uint32_t only_dev;		/* export only this dev_t (0 = every device) */
	int big_endian;			/* write big-endian files (default: little) */
	int have_realtime;		/* realtime_offset_ns is known */
	int64_t realtime_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	/* dev_t -> base name (e.g. "sdb"); NULL or returning NULL: "MAJ:MIN" style */
	const char *(*dev_name)(void *ctx, uint32_t dev);
	void *dev_name_ctx;
};

/* What was written for one device. */
struct fsl_bt_dev_stats {
	uint32_t dev;
	char name[64];
	unsigned int ncpus;		/* files <name>.blktrace.0 .. ncpus-1 */
	uint64_t q, i, m, d, c;		/* records per action */
	uint64_t notify;
	uint64_t bytes_written;
	uint64_t g, f, r, x;		/* GETRQ, FRONTMERGE, REQUEUE, SPLIT */
	int bios;			/* Q, G, M, F from the trace's bio events */
};

struct fsl_bt_export;
struct fsl_bt_export *fsl_bt_export__new(const struct fsl_bt_export_opts *opts, int *err);
/*
 * Optional first pass over the whole trace (then rewind): learns which
 * devices have bio events (their Q, G, M and F are the bios', as blktrace
 * records them) and, on the others, which requests are merged into others,
 * so those get an M and no Q/I.
 */
int fsl_bt_export__scan(struct fsl_bt_export *x, const struct fsl_hdr *ev);
/* Feed every event (in time order); non-block, non-proc events are ignored. */
int fsl_bt_export__event(struct fsl_bt_export *x, const struct fsl_hdr *ev);
/* Write the missing (empty) per-CPU files and close everything. */
int fsl_bt_export__finish(struct fsl_bt_export *x);
size_t fsl_bt_export__ndevs(const struct fsl_bt_export *x);
const struct fsl_bt_dev_stats *fsl_bt_export__dev(const struct fsl_bt_export *x, size_t idx);
/*
 * Disk idx's line of what went to DIR (no newline), in buf: its files, its
 * Q/G/I/M/F/X/R/D/C counts, the blkparse command.
 */
const char *fsl_bt_export__summary(const struct fsl_bt_export *x, size_t idx, const char *dir,
				   char *buf, size_t len);
void fsl_bt_export__free(struct fsl_bt_export *x);

/* ---- blktrace import ---- */

struct fsl_bt_import_stats {
	uint64_t records;		/* trace records read (notify excluded) */
	uint64_t notify;
	uint64_t pdu_bytes_skipped;
	uint64_t q, i, m, d, c;		/* by action as read */
	uint64_t skipped;		/* actions with no fslens event (Q, G, P, U,
					 * bio merges...) */
	uint64_t events;		/* fslens records emitted */
	uint32_t ndevs;
	uint32_t devs[16];
	unsigned int max_cpu;
	int big_endian;			/* of the (first) file */
	int have_realtime;
	int64_t realtime_offset_ns;
	uint64_t first_ns, last_ns;
};

typedef int (*fsl_bt_emit_fn)(void *ctx, const struct fsl_hdr *ev);

/*
 * Read blktrace files (per-CPU files of one or more devices, either byte
 * order), merge them by time and emit fslens records (block_rq_insert/issue/
 * complete/merge, proc records for process notifies) in time order. Errors
 * return -errno with a one-line description, naming the file and the byte
 * offset, in errbuf.
 */
int fsl_bt_import(const char *const *files, size_t nfiles, fsl_bt_emit_fn emit, void *ctx,
		  struct fsl_bt_import_stats *st, char *errbuf, size_t errlen);

/* Maps a stack to a wait class name (NULL: unclassified). */
typedef const char *(*fsl_classify_fn)(void *ctx, const struct fsl_stack *st);

/* ---- Perfetto / Chrome trace JSON ---- */

struct fsl_pf_export;
struct fsl_pf_export *fsl_pf_export__new(FILE *out, const struct fsl_meta *meta, int *err);
/* Name off-CPU slices by wait class instead of "off-CPU". */
void fsl_pf_export__set_classifier(struct fsl_pf_export *x, fsl_classify_fn fn, void *ctx);
int fsl_pf_export__event(struct fsl_pf_export *x, const struct fsl_hdr *ev);
int fsl_pf_export__finish(struct fsl_pf_export *x);
void fsl_pf_export__free(struct fsl_pf_export *x);

/* ---- folded off-CPU stacks (flamegraph.pl) ---- */

struct fsl_folded_export;
struct fsl_folded_export *fsl_folded_export__new(const struct fsl_meta *meta,
						 fsl_classify_fn classify, void *cctx,
						 int *err);
int fsl_folded_export__event(struct fsl_folded_export *x, const struct fsl_hdr *ev);
/* Write "comm;outer;...;inner us" lines, sorted; class NULL = all classes. */
int fsl_folded_export__write(struct fsl_folded_export *x, FILE *out, const char *class_name);
/* Distinct (class, line) entries so far. */
size_t fsl_folded_export__nstacks(const struct fsl_folded_export *x);
/* Wait classes seen (for one file per class). */
size_t fsl_folded_export__nclasses(const struct fsl_folded_export *x);
/*
 * The stacks of class_name (NULL: all) drawn as a flame graph SVG of the
 * same lines fsl_folded_export__write gives, titled with trace.
 */
int fsl_folded_export__write_svg(struct fsl_folded_export *x, FILE *out, const char *class_name,
				 const char *trace);
/*
 * One file per class in dir: CLASS.folded, or CLASS.svg with svg; wrote(ctx,
 * path) after each. 0, or a -errno with the file's path in bad and *creating
 * set when it could not be made (else it could not be written).
 */
int fsl_folded_export__write_classes(struct fsl_folded_export *x, const char *dir, int svg,
				     const char *trace,
				     void (*wrote)(void *ctx, const char *path), void *ctx,
				     char *bad, size_t badsz, int *creating);
const char *fsl_folded_export__class(const struct fsl_folded_export *x, size_t idx);
void fsl_folded_export__free(struct fsl_folded_export *x);

/*
 * A self-contained, clickable flame graph SVG of folded lines ("a;b;c N\n"...,
 * len bytes) to out (analyzer/export/export_flamegraph.c). 0, -ENOMEM or -EIO.
 */
int fsl_flamegraph_svg(FILE *out, const char *folded, size_t len, const char *title,
		       const char *count_name);

/* ---- CSV tables ---- */

enum fsl_csv_table {
	FSL_CSV_OPS = 1,	/* path-based syscalls */
	FSL_CSV_IO,		/* block requests, one row per completed request */
	FSL_CSV_TXN,		/* jbd2 transactions (commit phases, run stats) */
	FSL_CSV_WAITS,		/* off-CPU waits */
	FSL_CSV_ALLOC,		/* ext4 block allocations */
};
/* "ops" -> FSL_CSV_OPS...; -EINVAL for an unknown name. */
int fsl_csv_table_parse(const char *name);

struct fsl_csv_export;
struct fsl_csv_export *fsl_csv_export__new(FILE *out, int table, const struct fsl_meta *meta,
					   int *err);
/* Fill the waits table's class column. */
void fsl_csv_export__set_classifier(struct fsl_csv_export *x, fsl_classify_fn fn, void *ctx);
/* Where t_s counts from (default: record.start_ns, else 0). */
void fsl_csv_export__set_origin(struct fsl_csv_export *x, uint64_t origin_ns);
int fsl_csv_export__event(struct fsl_csv_export *x, const struct fsl_hdr *ev);
int fsl_csv_export__finish(struct fsl_csv_export *x);
void fsl_csv_export__free(struct fsl_csv_export *x);

/* ---- one export of a trace (analyzer/export/export_trace.c) ---- */

enum fsl_export_format {
	FSL_EXPORT_BLKTRACE = 1,	/* per-CPU blktrace files in a directory */
	FSL_EXPORT_PERFETTO,		/* Chrome/Perfetto trace JSON */
	FSL_EXPORT_FOLDED,		/* off-CPU stacks, flamegraph.pl's folded lines */
	FSL_EXPORT_FLAMEGRAPH,		/* the same stacks drawn as an SVG */
	FSL_EXPORT_CSV,			/* one table */
};

/* What an export tells as it goes; the command words the lines' start. */
enum fsl_export_msg {
	FSL_EXPORT_INFO,	/* a line as is: what was written (quiet drops it) */
	FSL_EXPORT_NOTE,	/* "fslens export: ...": what the trace lacks (quiet drops it) */
	FSL_EXPORT_ERROR,	/* "fslens: ..." (what failed: why) */
	FSL_EXPORT_FATAL,	/* "fslens export: ..." (a failure said in full) */
};

struct fsl_export_opts {
	int format;			/* FSL_EXPORT_* */
	const char *trace;		/* the trace's path: messages, the SVG's title */
	/*
	 * The file (NULL or "-": standard output; OUT.gz: gzip), or for
	 * blktrace and per_class the directory (NULL: "."), made if missing.
	 */
	const char *out;
	int table;			/* csv: FSL_CSV_* */
	const char *name;		/* blktrace: fsl_bt_export_opts' name, */
	uint32_t only_dev;		/* only_dev */
	int big_endian;			/* and big_endian */
	int per_class;			/* folded, flamegraph: one file per wait class */
	uint64_t t0, t1;		/* the window, absolute ns (t1 0: to the end) */
	uint64_t origin;		/* csv: where t_s counts from */
	void (*msg)(void *ctx, enum fsl_export_msg kind, const char *line);
	void *msg_ctx;
};

/*
 * Export the trace r is open on (from its current position) as o says:
 * one session pass of the window into the format's exporter (two for
 * blktrace, which scans first), then its output written and closed. 0, or
 * a -errno said in an ERROR or FATAL line; unsaid are a failed write to
 * standard output (the command's end checks stdout) and an exporter's own
 * failure at its finish other than a write.
 */
int fsl_export_trace(struct fsl_reader *r, const struct fsl_export_opts *o);

/* ---- an export's output (analyzer/export/export_out.c) ---- */

/* Is path standard output (NULL or "-")? */
int fsl_export_is_stdout(const char *path);
/* The output file: path (gzip when it ends in .gz), or stdout; NULL with errno. */
FILE *fsl_export_out_open(const char *path);
/* Close it (stdout stays open): 0, or -errno when a write or the close failed. */
int fsl_export_out_close(FILE *f);
/* mkdir -p DIR (mode 0755): 0, or -ENOTDIR when DIR is there and not a directory, or -errno. */
int fsl_mkdir_p(const char *dir);

/* ---- helpers shared by the exporters (analyzer/export_util.c) ---- */

/* tid -> comm, learned from proc records. */
struct fsl_comms;
struct fsl_comms *fsl_comms__new(void);
void fsl_comms__free(struct fsl_comms *c);
/* Remember the comm (and tgid) of a proc record; other records are ignored. */
int fsl_comms__event(struct fsl_comms *c, const struct fsl_hdr *ev);
const char *fsl_comms__get(const struct fsl_comms *c, uint32_t tid);

/* Write s as one CSV field (quoted when it holds , " or a line break). */
void fsl_csv_str(FILE *f, const char *s, size_t len);
/* A frame's function name: fsl_frame_func (include/fslens/text.h). */
/*
 * Innermost frames that belong to the tracing itself (the tracepoint's
 * __traceiter_* caller, BPF glue): how many to skip when drawing a stack.
 */
unsigned int fsl_frames_skip_tracing(const struct fsl_stack *st);
/* blkparse-style rwbs letters of FSL_RQ_* flags ("WS", "RA", "FWFS"...). */
const char *fsl_rwbs(uint32_t flags, char buf[8]);

/* dump: one text line (or JSON object) per event of the families shown, on
 * stdout; tasks named from proc records (read them even when not shown). */
struct fsl_dump;
struct fsl_consumer;
struct fsl_dump *fsl_dump__new(struct fsl_reader *r, int json, uint32_t families);
struct fsl_consumer *fsl_dump__consumer(struct fsl_dump *d);
int fsl_dump__out_error(const struct fsl_dump *d);	/* stdout failed: the pass stopped */
void fsl_dump__free(struct fsl_dump *d);

#endif /* FSLENS_EXPORT_H */
