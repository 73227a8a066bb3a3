/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the analyses (the files of analyzer/, not the model): the
 * time base folding, the window, and what one set of analyses shares. The
 * analyses' constructors are analyses/analyses.h; tasks and wait classes are
 * the context stage's (context.h). Their hash map is include/fslens/hashmap.h.
 */
#ifndef FSL_AN_INTERNAL_H
#define FSL_AN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "fslens/analysis.h"
#include "fslens/hashmap.h"
#include "fslens/text.h"
#include "context.h"

/* ---- time base ---- */
/*
 * Bin of time t on tb (setting t0 = origin on first use), folding when t is
 * past the last bin: *folds gets how many times the caller must halve its
 * series (an_fold_*). Times before t0 go to bin 0.
 */
unsigned int an_tb_bin(struct fsl_timebase *tb, uint64_t origin, uint64_t t, unsigned int *folds);
/*
 * Add the duration [from, to) to the series s on tb, each bin getting the
 * part that overlaps it (the window rule, docs/report-json.md, applied to
 * bins: a 600 ms wait is never one task blocked 30 times over in a 20 ms
 * bin). Call after an_tb_bin() for to - 1 has folded the series, so every
 * bin it touches exists. Time before tb->t0 goes to bin 0, as a point does.
 */
void an_tb_spread(const struct fsl_timebase *tb, uint64_t *s, uint64_t from, uint64_t to);
void an_fold_sum(uint64_t *s, unsigned int folds);
void an_fold_max(uint64_t *s, unsigned int folds);
void an_fold_sum32(uint32_t *s, size_t stride, unsigned int folds);

/* ---- ext4 geometry ---- */
/* enum fsl_block_class of block blk (include/fslens/analysis.h). */
int an_ext4_block_class(const struct fsl_ext4_geometry *g, uint64_t blk);
/* Which static metadata holds blk, finer than the block class. */
enum an_meta_kind {
	AN_META_OTHER = 0,	/* data, directories, extent-tree blocks, free */
	AN_META_SUPER,		/* the primary superblock (group 0) */
	AN_META_SUPER_BACKUP,	/* a backup superblock (sparse_super groups) */
	AN_META_GDT,		/* group descriptors (or their backup) */
	AN_META_RESERVED_GDT,	/* reserved GDT blocks (the resize inode's, 7) */
	AN_META_BBITMAP,
	AN_META_IBITMAP,
	AN_META_ITABLE,
	AN_META_JOURNAL,
};
int an_ext4_meta_kind(const struct fsl_ext4_geometry *g, uint64_t blk);

/* ---- journal ---- */
/*
 * Who asked for a commit, from the stack of a jbd2_kick (the task that woke
 * the jbd2 thread): FSL_TRIG_* + 1, AN_KICK_STOP (a handle stopping past its
 * transaction's expiry or synchronous), or AN_KICK_NONE (no rule matched).
 */
enum { AN_KICK_NONE = 0, AN_KICK_STOP = FSL_KICK_STOP };
uint8_t an_kick_of_stack(const struct fsl_stack *st);

/* ---- window ---- */
struct an_window {
	uint64_t t0, t1;	/* t1 = 0: open */
};
static inline int an_in_window(const struct an_window *w, uint64_t t)
{
	return t >= w->t0 && (!w->t1 || t < w->t1);
}

/*
 * On-CPU time of the workload by CPU class in the window: a table filled by
 * whoever provides CPU classes (an analysis of on-CPU samples calls
 * an_oncpu_add() per sample or per class), read by the whole time, which
 * splits its on-CPU part by it. Cleared with the window. Past
 * FSL_WT_CPU_CLASSES names the rest go to the last.
 */
struct an_oncpu_split {
	unsigned int n;
	uint64_t sampled_ns;
	struct {
		char id[24];
		uint64_t ns;
	} cls[FSL_WT_CPU_CLASSES];
};

/* What every analysis of one set shares: the window, the metadata and the
 * context stage (tasks, roles, classes, this window's per-process totals). */
struct an_ctx {
	const struct fsl_meta *meta;
	struct fsl_context *cx;	/* the context stage (analyzer/context.h) */
	struct an_window win;
	uint64_t origin;	/* time base origin: window t0, else first event */
	uint64_t hz;		/* host.hz, default 250 */
	uint32_t target_dev;
	uint64_t now;
	struct fsl_ctx_procs procs;	/* the window's per-process totals (context.h) */
	const char *mount;		/* target.mount, or NULL */
	size_t mount_len;
	struct an_oncpu_split oncpu;	/* the window's on-CPU time by CPU class */
};

/* Add ns of on-CPU time in CPU class cls ("cpu_dirent_scan") to the window's split. */
void an_oncpu_add(struct an_ctx *c, const char *cls, uint64_t ns);

static inline uint64_t an_jiffies_ns(const struct an_ctx *c, uint64_t j)
{
	return j * (1000000000ull / (c->hz ? c->hz : 250));
}

static inline void an_comm_copy(char dst[16], const char *src)
{
	size_t n = src ? strnlen(src, 15) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = 0;
	fsl_text_sanitize(dst);	/* a task can name itself with terminal escapes */
}

/* Overlap of [from, to] with the window, in ns (durations split at edges). */
static inline uint64_t an_overlap(const struct an_window *w, uint64_t from, uint64_t to)
{
	uint64_t a = from > w->t0 ? from : w->t0, b = to;

	if (w->t1 && b > w->t1)
		b = w->t1;
	return b > a ? b - a : 0;
}

#endif
