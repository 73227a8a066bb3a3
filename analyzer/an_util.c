// SPDX-License-Identifier: GPL-2.0
/* Building blocks of the analyses: histogram, time base. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "an_internal.h"

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
 * out a fresh filesystem (dumpe2fs shows the same): a superblock and group
 * descriptors (with reserved GDT blocks) in the groups that have them, the
 * internal journal (its first block its superblock), and the bitmaps and
 * inode tables: with flex_bg packed at the start of each flex group (n
 * block bitmaps, n inode bitmaps, n tables for its n groups), without it in
 * each group after its superblock copy. A trace that recorded the group
 * tables (ext4.group_*) is classed through them instead (blockclass.c).
 */
int an_ext4_block_class(const struct fsl_ext4_geometry *g, uint64_t blk)
{
	uint64_t grp, off, sbgdt, flex, first, n, base, dsz;
	int sb;

	if (!g->blocks_per_group || !g->block_size || blk < g->first_data_block)
		return FSL_BC_OTHER;
	if (g->journal_start && blk >= g->journal_start &&
	    blk - g->journal_start < g->journal_blocks)
		return blk == g->journal_start ? FSL_BC_JSB : FSL_BC_JOURNAL;
	dsz = g->desc_size ? g->desc_size : 32;
	sbgdt = 1 + (g->group_count * dsz + g->block_size - 1) / g->block_size +
		g->reserved_gdt_blocks;
	grp = (blk - g->first_data_block) / g->blocks_per_group;
	off = (blk - g->first_data_block) % g->blocks_per_group;
	sb = group_has_super(g, grp);
	if (sb && off < sbgdt)
		return off ? FSL_BC_GDT : FSL_BC_SUPER;
	flex = g->flex_bg_size;
	if (!(g->feature_incompat & 0x200) || !flex) {	/* INCOMPAT_FLEX_BG */
		base = sb ? sbgdt : 0;
		if (off == base)
			return FSL_BC_BBITMAP;
		if (off == base + 1)
			return FSL_BC_IBITMAP;
		if (off >= base + 2 && off < base + 2 + g->inode_blocks_per_group)
			return FSL_BC_ITABLE;
		return FSL_BC_OTHER;
	}
	first = grp - grp % flex;
	if (grp != first)
		return FSL_BC_OTHER;
	n = g->group_count - first < flex ? g->group_count - first : flex;
	base = group_has_super(g, first) ? sbgdt : 0;
	if (off < base)
		return FSL_BC_OTHER;
	if (off < base + n)
		return FSL_BC_BBITMAP;
	if (off < base + 2 * n)
		return FSL_BC_IBITMAP;
	if (off < base + 2 * n + n * g->inode_blocks_per_group)
		return FSL_BC_ITABLE;
	return FSL_BC_OTHER;
}

const char *fsl_block_class_name(unsigned int cls)
{
	static const char *const n[FSL_BC__MAX] = {
		"other", "superblock", "block_bitmap", "inode_bitmap", "inode_table", "journal",
		"group_desc", "journal_super", "directory", "extent_tree", "data",
	};

	return cls < FSL_BC__MAX ? n[cls] : "?";
}
