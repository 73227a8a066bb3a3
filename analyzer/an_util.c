// SPDX-License-Identifier: GPL-2.0
/* Building blocks of the analyses: histogram, time base. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "an_internal.h"
#include "fslens/xfslayout.h"

/* ---- log-linear histogram ---- */

static unsigned int hist_index(uint64_t v)
{
	unsigned int e, sub;

	if (v < (1u << FSL_HIST_SUB_BITS))
		return v;
	e = 63 - __builtin_clzll(v);
	if (e > 47) {
		e = 47;
		v = (1ull << 48) - 1;
	}
	sub = (v >> (e - FSL_HIST_SUB_BITS)) & ((1u << FSL_HIST_SUB_BITS) - 1);
	return ((e - FSL_HIST_SUB_BITS + 1) << FSL_HIST_SUB_BITS) + sub;
}

/* Lowest value of bucket i and its width. */
static void hist_bucket(unsigned int i, uint64_t *lo, uint64_t *width)
{
	unsigned int e, sub;

	if (i < (1u << FSL_HIST_SUB_BITS)) {
		*lo = i;
		*width = 1;
		return;
	}
	e = (i >> FSL_HIST_SUB_BITS) + FSL_HIST_SUB_BITS - 1;
	sub = i & ((1u << FSL_HIST_SUB_BITS) - 1);
	*width = 1ull << (e - FSL_HIST_SUB_BITS);
	*lo = (1ull << e) + sub * *width;
}

void fsl_hist_reset(struct fsl_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void fsl_hist_add(struct fsl_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->b[hist_index(v)]++;
}

void fsl_hist_merge(struct fsl_hist *dst, const struct fsl_hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (i = 0; i < FSL_HIST_NBUCKETS; i++)
		dst->b[i] += src->b[i];
}

uint64_t fsl_hist_quantile(const struct fsl_hist *h, double q)
{
	uint64_t rank, cum = 0, lo, width, v;
	unsigned int i;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)(q * h->count);
	if ((double)rank < q * h->count)
		rank++;
	if (!rank)
		rank = 1;
	for (i = 0; i < FSL_HIST_NBUCKETS; i++) {
		cum += h->b[i];
		if (cum >= rank)
			break;
	}
	if (i == FSL_HIST_NBUCKETS)
		return h->max;
	hist_bucket(i, &lo, &width);
	v = lo + width / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

void fsl_hist_log2_div(const struct fsl_hist *h, uint64_t div, uint64_t out[64])
{
	uint64_t lo, width;
	unsigned int i;

	memset(out, 0, 64 * sizeof(out[0]));
	for (i = 0; i < FSL_HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		hist_bucket(i, &lo, &width);
		lo /= div ? div : 1;
		out[lo ? 63 - __builtin_clzll(lo) : 0] += h->b[i];
	}
}

void fsl_hist_log2(const struct fsl_hist *h, uint64_t out[64])
{
	fsl_hist_log2_div(h, 1, out);
}

/* ---- time base ---- */

unsigned int an_tb_bin(struct fsl_timebase *tb, uint64_t origin, uint64_t t, unsigned int *folds)
{
	uint64_t bin;

	*folds = 0;
	if (!tb->width_ns) {
		tb->t0 = origin ? origin : t;
		tb->width_ns = FSL_SERIES_MIN_WIDTH;
		tb->nbins = 0;
	}
	bin = t < tb->t0 ? 0 : (t - tb->t0) / tb->width_ns;
	while (bin >= FSL_SERIES_BINS) {
		tb->width_ns *= 2;
		tb->nbins = (tb->nbins + 1) / 2;
		(*folds)++;
		bin = (t - tb->t0) / tb->width_ns;
	}
	if (bin + 1 > tb->nbins)
		tb->nbins = bin + 1;
	return bin;
}

void an_tb_spread(const struct fsl_timebase *tb, uint64_t *s, uint64_t from, uint64_t to)
{
	uint64_t bin, end;

	if (to <= from || !tb->width_ns)
		return;
	/* before the first bin: bin 0, as an_tb_bin() places a point there */
	if (from < tb->t0) {
		end = to < tb->t0 ? to : tb->t0;
		s[0] += end - from;
		from = end;
	}
	for (bin = (from - tb->t0) / tb->width_ns; from < to; bin++) {
		end = tb->t0 + (bin + 1) * tb->width_ns;
		if (end > to)
			end = to;
		s[bin] += end - from;
		from = end;
	}
}

void an_fold_sum(uint64_t *s, unsigned int folds)
{
	unsigned int i;

	while (folds--) {
		for (i = 0; i < FSL_SERIES_BINS / 2; i++)
			s[i] = s[2 * i] + s[2 * i + 1];
		memset(s + FSL_SERIES_BINS / 2, 0, FSL_SERIES_BINS / 2 * sizeof(*s));
	}
}

void an_fold_max(uint64_t *s, unsigned int folds)
{
	unsigned int i;

	while (folds--) {
		for (i = 0; i < FSL_SERIES_BINS / 2; i++)
			s[i] = s[2 * i] > s[2 * i + 1] ? s[2 * i] : s[2 * i + 1];
		memset(s + FSL_SERIES_BINS / 2, 0, FSL_SERIES_BINS / 2 * sizeof(*s));
	}
}

/* s is [FSL_SERIES_BINS][stride] */
void an_fold_sum32(uint32_t *s, size_t stride, unsigned int folds)
{
	unsigned int i, j;

	while (folds--) {
		for (i = 0; i < FSL_SERIES_BINS / 2; i++)
			for (j = 0; j < stride; j++)
				s[i * stride + j] = s[2 * i * stride + j] + s[(2 * i + 1) * stride + j];
		memset(s + FSL_SERIES_BINS / 2 * stride, 0,
		       FSL_SERIES_BINS / 2 * stride * sizeof(*s));
	}
}


static int group_has_super(const struct fsl_ext4_geometry *g, uint64_t grp)
{
	uint64_t p;
	unsigned int b;

	if (!(g->feature_ro_compat & 0x1))	/* RO_COMPAT_SPARSE_SUPER */
		return 1;
	if (grp <= 1)
		return 1;
	for (b = 3; b <= 7; b += 2) {
		for (p = b; p < grp; p *= b)
			;
		if (p == grp)
			return 1;
	}
	return 0;
}

/*
 * Which static metadata holds blk, from the geometry alone, as mke2fs lays
 * out a fresh filesystem (dumpe2fs shows the same): a superblock (the
 * primary in group 0, a backup in the sparse_super groups), the group
 * descriptors and the reserved GDT blocks after it; the internal journal;
 * the block bitmaps, inode bitmaps and inode tables, with flex_bg packed at
 * the start of each flex group (n block bitmaps, n inode bitmaps, n tables
 * for its n groups), without it at the start of each group after its
 * superblock copy. A trace that recorded the group tables (ext4.group_*) is
 * classed through them instead (blockclass.c).
 */
int an_ext4_meta_kind(const struct fsl_ext4_geometry *g, uint64_t blk)
{
	uint64_t grp, off, gdt, flex, first, n, base, dsz;
	int super;

	if (!g->blocks_per_group || !g->block_size || blk < g->first_data_block)
		return AN_META_OTHER;
	if (g->journal_start && blk >= g->journal_start &&
	    blk - g->journal_start < g->journal_blocks)
		return AN_META_JOURNAL;
	/* 64-byte descriptors with the 64bit feature, else 32 */
	dsz = g->desc_size ? g->desc_size : 32;
	gdt = (g->group_count * dsz + g->block_size - 1) / g->block_size;
	grp = (blk - g->first_data_block) / g->blocks_per_group;
	off = (blk - g->first_data_block) % g->blocks_per_group;
	super = group_has_super(g, grp);
	if (super && off == 0)
		return grp ? AN_META_SUPER_BACKUP : AN_META_SUPER;
	if (super && off < 1 + gdt)
		return AN_META_GDT;
	if (super && off < 1 + gdt + g->reserved_gdt_blocks)
		return AN_META_RESERVED_GDT;
	base = super ? 1 + gdt + g->reserved_gdt_blocks : 0;
	flex = g->flex_bg_size;
	if (!(g->feature_incompat & 0x200) || flex <= 1) {	/* INCOMPAT_FLEX_BG */
		/* each group its own: block bitmap, inode bitmap, inode table */
		if (off == base)
			return AN_META_BBITMAP;
		if (off == base + 1)
			return AN_META_IBITMAP;
		if (off >= base + 2 && off < base + 2 + g->inode_blocks_per_group)
			return AN_META_ITABLE;
		return AN_META_OTHER;
	}
	first = grp - grp % flex;
	if (grp != first || off < base)
		return AN_META_OTHER;
	n = g->group_count - first < flex ? g->group_count - first : flex;
	if (off < base + n)
		return AN_META_BBITMAP;
	if (off < base + 2 * n)
		return AN_META_IBITMAP;
	if (off < base + 2 * n + n * g->inode_blocks_per_group)
		return AN_META_ITABLE;
	return AN_META_OTHER;
}

int an_ext4_block_class(const struct fsl_ext4_geometry *g, uint64_t blk)
{
	switch (an_ext4_meta_kind(g, blk)) {
	case AN_META_SUPER:
	case AN_META_SUPER_BACKUP:
		return FSL_BC_SUPER;
	case AN_META_GDT:
	case AN_META_RESERVED_GDT:
		return FSL_BC_GDT;
	case AN_META_BBITMAP:
		return FSL_BC_BBITMAP;
	case AN_META_IBITMAP:
		return FSL_BC_IBITMAP;
	case AN_META_ITABLE:
		return FSL_BC_ITABLE;
	case AN_META_JOURNAL:
		return blk == g->journal_start ? FSL_BC_JSB : FSL_BC_JOURNAL;
	default:
		return FSL_BC_OTHER;
	}
}

const char *fsl_block_class_name(unsigned int cls)
{
	static const char *const n[FSL_BC__MAX] = {
		"other", "superblock", "block_bitmap", "inode_bitmap", "inode_table", "journal",
		"group_desc", "journal_super", "directory", "extent_tree", "data",
	};

	return cls < FSL_BC__MAX ? n[cls] : "?";
}

/*
 * What asked for a commit, from the stack of the task that woke the jbd2
 * thread (jbd2 starts a commit only when asked, fs/jbd2/journal.c
 * kjournald2): __jbd2_log_start_commit from a checkpoint that found a
 * buffer of the running transaction (log space), from start_this_handle
 * finding the transaction full (add_transaction_credits), from fsync
 * (ext4_sync_file), from sync(2)/syncfs/unmount (ext4_sync_fs,
 * jbd2_journal_flush), or the commit timer (commit_timeout, the only
 * timer jbd2 arms: j_commit_interval). A handle
 * stopping past its transaction's expiry or with h_sync also asks
 * (jbd2_journal_stop): the timer or a synchronous handle, told apart by
 * the transaction's age. The cause nearest the request wins: a sync whose
 * writeback found the transaction full is "full".
 */
static const struct fsl_kick_rule kick_rules[] = {
	{ "jbd2_log_do_checkpoint",	FSL_TRIG_LOG_SPACE,	5 },
	{ "__jbd2_log_wait_for_space",	FSL_TRIG_LOG_SPACE,	5 },
	{ "add_transaction_credits",	FSL_TRIG_FULL,		4 },
	{ "wait_transaction_locked",	FSL_TRIG_FULL,		4 },
	{ "jbd2__journal_restart",	FSL_TRIG_FULL,		4 },
	{ "ext4_sync_file",		FSL_TRIG_FSYNC,		3 },
	{ "ext4_fsync_journal",		FSL_TRIG_FSYNC,		3 },
	{ "ext4_sync_fs",		FSL_TRIG_SYNC,		2 },
	{ "sync_filesystem",		FSL_TRIG_SYNC,		2 },
	{ "jbd2_journal_flush",		FSL_TRIG_SYNC,		2 },
	{ "commit_timeout",		FSL_TRIG_TIMER,		1 },
	/* commit_timeout ends in a tail call: only the timer frame is left */
	{ "call_timer_fn",		FSL_TRIG_TIMER,		1 },
	{ "jbd2_journal_stop",		FSL_KICK_STOP,		0 },
};

/* The monitor resolves the same table to addresses and decides in the kernel. */
const struct fsl_kick_rule *fsl_kick_rules(unsigned int *n)
{
	*n = sizeof(kick_rules) / sizeof(kick_rules[0]);
	return kick_rules;
}

uint8_t an_kick_of_stack(const struct fsl_stack *st)
{
	unsigned int i, k;
	int best = -1;
	uint8_t kick = AN_KICK_NONE;
	char f[96];

	for (i = 0; st && i < st->nframes; i++) {
		fsl_frame_func(st->frames[i], f, sizeof(f));
		for (k = 0; k < sizeof(kick_rules) / sizeof(kick_rules[0]); k++) {
			if (strcmp(f, kick_rules[k].func) || kick_rules[k].rank <= best)
				continue;
			best = kick_rules[k].rank;
			kick = kick_rules[k].trig == FSL_KICK_STOP ? AN_KICK_STOP
								   : kick_rules[k].trig + 1;
		}
	}
	return kick;
}

/* ---- XFS addresses (the layout analysis and the placement model share them) ---- */

int fsl_xfs_addr_init(struct fsl_xfs_addr *x, const struct fsl_meta *m)
{
	struct fsl_xfs_geometry g;
	uint32_t l = 0;

	memset(x, 0, sizeof(*x));
	if (fsl_meta__xfs_geometry(m, &g) || !g.ag_blocks || !g.block_size || !g.inodes_per_block)
		return -ENOENT;
	while (l < 16 && (1u << l) < g.inodes_per_block)
		l++;
	/*
	 * A geometry XFS can have (AGs of at most 2^31 blocks, 2^agblklog the
	 * AG size rounded up to a power of two): numbers from a damaged trace
	 * must not make the address arithmetic shift past 64 bits.
	 */
	if (g.ag_block_log < 1 || g.ag_block_log > 31 || l > 8 || !g.ag_count ||
	    g.ag_count > (1u << 24) || g.ag_blocks > (1ull << g.ag_block_log) ||
	    g.ag_blocks <= (1ull << (g.ag_block_log - 1)) || g.block_size < 512) {
		memset(x, 0, sizeof(*x));
		return -EINVAL;
	}
	x->inopblog = l;
	x->agblklog = g.ag_block_log;
	x->agblocks = g.ag_blocks;
	x->agcount = g.ag_count;
	x->sect_per_block = g.block_size / 512;
	return 0;
}
