// SPDX-License-Identifier: GPL-2.0
/*
 * A model of the ext4 multi-block allocator (mballoc), written from the
 * kernel's documented behaviour (see docs/model.md). No I/O.
 *
 * Two bitmaps per group: "disk" (what the on-disk bitmap says) and "core"
 * (disk + blocks held by preallocations + blocks freed by a transaction that
 * has not committed yet); the search looks at core only, as the kernel's
 * buddy does. The buddy itself is not stored: a buddy chunk of order k is an
 * aligned run of 2^k free blocks that is not part of a free chunk of order
 * k+1, which is what the kernel's buddy holds, so it is derived from the
 * bitmap when needed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/hashmap.h"
#include "fslens/model.h"

#define NO_GROUP	0xffffffffu
#define LG_ORDERS	10	/* PREALLOC_TB_SIZE */

struct pa {
	uint64_t ino;		/* 0 for a locality-group PA */
	uint64_t pstart;
	uint32_t lstart;
	uint32_t len;
	uint32_t free;
	uint32_t cpu;
	uint8_t group_pa;
	uint8_t deleted;
	uint64_t lru;		/* inode PAs: most recently used = highest */
};

struct ext {
	uint32_t logical;
	uint32_t len;
	uint64_t pblk;
};

struct inode {
	uint64_t ino;
	uint32_t *pas;		/* indices into a->pa */
	uint32_t npas, cpas;
	struct ext *ext;	/* &ext1 while there is room for one extent */
	uint32_t next, cext;
	struct ext ext1;	/* most files have one extent: no malloc for it */
};

/*
 * Per-inode state lives in pages of IPAGE consecutive inode numbers (never
 * moved once made), found through a small open-addressed table keyed by
 * ino / IPAGE: inodes allocated one after another share pages and cache
 * lines, and the page table stays small enough to be cache resident.
 */
#define IPAGE_SHIFT	6
#define IPAGE		(1u << IPAGE_SHIFT)

struct ipage {
	uint64_t key;		/* ino >> IPAGE_SHIFT */
	struct inode in[IPAGE];
};

struct lg {
	uint32_t *list[LG_ORDERS];	/* PA indices, ordered by free ascending */
	uint32_t n[LG_ORDERS], cap[LG_ORDERS];
	uint32_t last;			/* PA used last (a lookup hint), NO_GROUP none */
};

struct grp {
	uint32_t free;
	uint32_t frags;
	uint32_t first_free;
	int32_t largest;	/* largest free buddy order, -1 none */
	uint32_t dfree;		/* free on disk (what group descriptors say) */
	uint8_t dirty;
	uint8_t ddirty;
	uint8_t loaded;
	uint8_t uninit;
};

struct pend {
	uint64_t blk;
	uint64_t len;
	uint32_t tid;
};

struct fsl_alloc {
	struct fsl_geom g;
	struct fsl_tunables t;
	uint32_t wpg;		/* 64-bit words per group */
	uint32_t max_order;	/* block_size_bits + 1 */
	uint64_t *disk;
	uint64_t *core;
	struct grp *grp;
	struct pa *pa;
	uint32_t npa, cpa;
	uint32_t *pa_freelist;	/* reusable slots */
	uint32_t nfreepa, cfreepa;
	struct fsl_map ipg;	/* ino >> IPAGE_SHIFT -> struct ipage * */
	struct lg *lg;
	uint32_t nlg;
	struct pend *pend;
	uint32_t npend, cpend;
	uint32_t last_group, last_start;	/* stream goal */
	/*
	 * From the kernels that trace a stream request's goal start as -1: one
	 * goal group per slot, the inode's number modulo nslots picks the slot
	 * (s_mb_last_groups). 0 slots: the one goal above, group and start.
	 */
	uint32_t nslots;
	uint32_t slot_group[FSL_ALLOC_MAX_SLOTS];
	uint64_t lru_clock;
	struct ipage *hint;	/* page of the inode looked up last (a cache) */
};

/* ---- small helpers ---- */

static int grow(void **p, uint32_t *cap, uint32_t need, size_t sz)
{
	uint32_t n;
	void *q;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)n * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static int fls32(uint32_t x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static uint32_t blk_group(const struct fsl_alloc *a, uint64_t blk)
{
	return (uint32_t)((blk - a->g.first_data_block) / a->g.blocks_per_group);
}

static uint32_t blk_off(const struct fsl_alloc *a, uint64_t blk)
{
	return (uint32_t)((blk - a->g.first_data_block) % a->g.blocks_per_group);
}

static uint64_t grp_blk(const struct fsl_alloc *a, uint32_t g, uint32_t off)
{
	return a->g.first_data_block + (uint64_t)g * a->g.blocks_per_group + off;
}

static uint64_t *gw(const struct fsl_alloc *a, uint64_t *base, uint32_t g)
{
	return base + (size_t)g * a->wpg;
}

static int bit_test(const uint64_t *w, uint32_t b)
{
	return (w[b >> 6] >> (b & 63)) & 1;
}

static void bits_set(uint64_t *w, uint32_t b, uint32_t n)
{
	while (n) {
		uint32_t off = b & 63, k = 64 - off < n ? 64 - off : n;
		uint64_t m = (k == 64 ? ~0ull : ((1ull << k) - 1)) << off;

		w[b >> 6] |= m;
		b += k;
		n -= k;
	}
}

static void bits_clear(uint64_t *w, uint32_t b, uint32_t n)
{
	while (n) {
		uint32_t off = b & 63, k = 64 - off < n ? 64 - off : n;
		uint64_t m = (k == 64 ? ~0ull : ((1ull << k) - 1)) << off;

		w[b >> 6] &= ~m;
		b += k;
		n -= k;
	}
}

/* First bit >= b with value v (0/1), or max. */
static uint32_t bit_next(const uint64_t *w, uint32_t max, uint32_t b, int v)
{
	while (b < max) {
		uint64_t x = w[b >> 6];

		if (!v)
			x = ~x;
		x &= ~0ull << (b & 63);
		if (x) {
			b = (b & ~63u) + __builtin_ctzll(x);
			return b < max ? b : max;
		}
		b = (b & ~63u) + 64;
	}
	return max;
}

/* Are bits [b, b+n) all clear? */
static int range_free(const uint64_t *w, uint32_t b, uint32_t n)
{
	return bit_next(w, b + n, b, 1) >= b + n;
}

/* ---- group statistics (lazy) ---- */

static void grp_stats(struct fsl_alloc *a, uint32_t g)
{
	struct grp *gr = &a->grp[g];
	const uint64_t *w = gw(a, a->core, g);
	uint32_t bpg = a->g.blocks_per_group, b = 0, s, e;
	int k;

	if (!gr->dirty)
		return;
	gr->free = gr->frags = 0;
	gr->largest = -1;
	gr->first_free = bit_next(w, bpg, 0, 0);
	b = gr->first_free;
	while (b < bpg) {
		s = b;
		e = bit_next(w, bpg, s, 1);
		gr->free += e - s;
		gr->frags++;
		for (k = a->max_order; k > gr->largest; k--) {
			uint64_t sz = 1ull << k;
			uint64_t al = (s + sz - 1) & ~(sz - 1);

			if (al + sz <= e) {
				gr->largest = k;
				break;
			}
		}
		b = bit_next(w, bpg, e, 0);
	}
	gr->dirty = 0;
}

/*
 * Mark [blk, blk+len) used or free in one of the two bitmaps (a->core, the
 * in-core state the buddy is derived from, or a->disk, the on-disk state
 * that frees reach only at commit), flagging the groups touched.
 */
static void bitmap_set(struct fsl_alloc *a, uint64_t *map, uint64_t blk, uint64_t len, int used)
{
	while (len) {
		uint32_t g = blk_group(a, blk), off = blk_off(a, blk);
		uint32_t n = a->g.blocks_per_group - off < len ? a->g.blocks_per_group - off
							       : (uint32_t)len;

		if (g >= a->g.ngroups)
			return;
		if (used)
			bits_set(gw(a, map, g), off, n);
		else
			bits_clear(gw(a, map, g), off, n);
		if (map == a->core)
			a->grp[g].dirty = 1;
		else
			a->grp[g].ddirty = 1;
		blk += n;
		len -= n;
	}
}

static void core_set(struct fsl_alloc *a, uint64_t blk, uint64_t len, int used)
{
	bitmap_set(a, a->core, blk, len, used);
}

static void disk_set(struct fsl_alloc *a, uint64_t blk, uint64_t len, int used)
{
	bitmap_set(a, a->disk, blk, len, used);
}

/* ---- geometry ---- */

void fsl_geom_defaults(struct fsl_geom *g)
{
	memset(g, 0, sizeof(*g));
	g->block_size = 4096;
	g->blocks_per_group = 32768;
	g->inodes_per_group = 8192;
	g->inode_size = 256;
	g->first_ino = 11;
	g->flex_size = 16;
	g->root_ino = 2;
	g->delalloc = 1;
}

void fsl_tunables_defaults(struct fsl_tunables *t)
{
	memset(t, 0, sizeof(*t));
	t->mb_stream_req = 16;
	t->mb_group_prealloc = 512;
	t->mb_order2_req = 2;
	t->mb_min_to_scan = 10;
	t->mb_max_to_scan = 200;
	t->mb_max_inode_prealloc = 512;
	t->commit_ns = 5000000000ull;
}

int fsl_geom_finish(struct fsl_geom *g)
{
	if (!g->block_size || (g->block_size & (g->block_size - 1)) ||
	    g->block_size < 1024 || g->block_size > 65536)
		return -EINVAL;
	if (!g->blocks_per_group || g->blocks_per_group % 8 || !g->blocks_count)
		return -EINVAL;
	if (!g->first_data_block && g->block_size == 1024 && g->blocks_per_group == 8192)
		g->first_data_block = 1;
	if (g->first_data_block >= g->blocks_count)
		return -EINVAL;
	if (!g->ngroups)
		g->ngroups = (uint32_t)((g->blocks_count - g->first_data_block +
					 g->blocks_per_group - 1) / g->blocks_per_group);
	if (!g->flex_size)
		g->flex_size = 1;
	if (!g->inodes_per_group)
		return -EINVAL;
	if (!g->first_ino)
		g->first_ino = 11;
	if (!g->root_ino)
		g->root_ino = 2;
	if (!g->inode_size)
		g->inode_size = 256;
	return 0;
}

int fsl_geom_check(const struct fsl_geom *g, char *why, size_t len)
{
	uint64_t want = (g->blocks_count - g->first_data_block + g->blocks_per_group - 1) /
			g->blocks_per_group;

	if (g->blocks_per_group > 8ull * g->block_size) {
		snprintf(why, len, "ext4.blocks_per_group=%u is more than one bitmap block of "
			 "ext4.block_size=%u holds (%u)", g->blocks_per_group, g->block_size,
			 8 * g->block_size);
		return -EINVAL;
	}
	if (g->ngroups != want) {
		snprintf(why, len, "ext4.group_count=%u does not match ext4.blocks_count=%llu, "
			 "ext4.first_data_block=%u and ext4.blocks_per_group=%u (%llu groups)",
			 g->ngroups, (unsigned long long)g->blocks_count, g->first_data_block,
			 g->blocks_per_group, (unsigned long long)want);
		return -EINVAL;
	}
	if (g->inodes_per_group > 8ull * g->block_size || g->inodes_per_group % 8) {
		snprintf(why, len, "ext4.inodes_per_group=%u is not a multiple of 8 up to one "
			 "bitmap block of ext4.block_size=%u (%u)", g->inodes_per_group,
			 g->block_size, 8 * g->block_size);
		return -EINVAL;
	}
	if ((uint64_t)g->inodes_per_group * g->ngroups > UINT32_MAX) {
		snprintf(why, len, "ext4.inodes_per_group=%u times ext4.group_count=%u is past "
			 "the 2^32 inodes ext4 can have", g->inodes_per_group, g->ngroups);
		return -EINVAL;
	}
	if (g->inode_size < 128 || g->inode_size > g->block_size ||
	    (g->inode_size & (g->inode_size - 1))) {
		snprintf(why, len, "ext4.inode_size=%u is not a power of two from 128 to "
			 "ext4.block_size=%u", g->inode_size, g->block_size);
		return -EINVAL;
	}
	if (g->first_ino <= g->root_ino || g->first_ino > g->inodes_per_group) {
		snprintf(why, len, "ext4.first_ino=%u is not inside the first group's %u inodes",
			 g->first_ino, g->inodes_per_group);
		return -EINVAL;
	}
	if (!g->flex_size || (g->flex_size & (g->flex_size - 1))) {
		snprintf(why, len, "ext4.flex_bg_size=%u is not a power of two", g->flex_size);
		return -EINVAL;
	}
	return 0;
}

const char *fsl_alloc_path_name(unsigned int path)
{
	static const char *const n[FSL_PATH__MAX] = {
		"inode_pa", "group_pa", "goal", "cr0", "cr1", "cr1.5", "cr2", "cr3",
		"best_found", "fail",
	};
	return path < FSL_PATH__MAX ? n[path] : "?";
}

const char *fsl_alloc_path_kname(unsigned int path)
{
	static const char *const n[FSL_PATH__MAX] = {
		"inode PA", "group PA", "find_by_goal", "CR_POWER2_ALIGNED",
		"CR_GOAL_LEN_FAST", "CR_BEST_AVAIL_LEN", "CR_GOAL_LEN_SLOW", "CR_ANY_FREE",
		"best found", "ENOSPC",
	};
	return path < FSL_PATH__MAX ? n[path] : "?";
}

int fsl_alloc_cr_path(unsigned int cr, int new_names)
{
	static const int map6[] = { FSL_PATH_CR0, FSL_PATH_CR1, FSL_PATH_CR1_5, FSL_PATH_CR2,
				    FSL_PATH_CR3 };
	static const int map4[] = { FSL_PATH_CR0, FSL_PATH_CR1, FSL_PATH_CR2, FSL_PATH_CR3 };

	if (new_names)
		return cr < 5 ? map6[cr] : -1;
	return cr < 4 ? map4[cr] : -1;
}

int fsl_kernel_new_cr_names(const char *release)
{
	int maj = 0, min = 0;

	if (!release || sscanf(release, "%d.%d", &maj, &min) != 2)
		return 1;
	return maj > 6 || (maj == 6 && min >= 5);
}

/* ---- construction ---- */

struct fsl_alloc *fsl_alloc__new(const struct fsl_geom *g, const struct fsl_tunables *t,
				 int *err)
{
	struct fsl_alloc *a;
	struct fsl_geom gg = *g;
	uint32_t i, bits = 0;
	size_t words;
	int e;

	e = fsl_geom_finish(&gg);
	if (e) {
		*err = e;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		goto nomem;
	fsl_map__init(&a->ipg, sizeof(struct ipage *));
	a->g = gg;
	if (t)
		a->t = *t;
	else
		fsl_tunables_defaults(&a->t);
	while ((1u << bits) < gg.block_size)
		bits++;
	a->max_order = bits + 1;
	a->wpg = (gg.blocks_per_group + 63) / 64;
	words = (size_t)a->wpg * gg.ngroups;
	a->disk = calloc(words, 8);
	a->core = calloc(words, 8);
	a->grp = calloc(gg.ngroups, sizeof(*a->grp));
	a->nlg = 256;
	a->lg = calloc(a->nlg, sizeof(*a->lg));
	if (!a->disk || !a->core || !a->grp || !a->lg)
		goto nomem_free;
	for (i = 0; i < gg.ngroups; i++) {
		uint64_t first = grp_blk(a, i, 0);
		uint64_t n = gg.blocks_count - first;

		a->grp[i].dirty = 1;
		a->grp[i].ddirty = 1;
		a->grp[i].loaded = 1;
		/* Bits past the end of the last group, or past blocks_per_group, are used. */
		if (n > gg.blocks_per_group)
			n = gg.blocks_per_group;
		if ((uint64_t)a->wpg * 64 > n) {
			bits_set(gw(a, a->disk, i), (uint32_t)n, (uint32_t)(a->wpg * 64 - n));
			bits_set(gw(a, a->core, i), (uint32_t)n, (uint32_t)(a->wpg * 64 - n));
		}
	}
	a->last_group = 0;
	a->last_start = 0;
	return a;
nomem_free:
	fsl_alloc__free(a);
nomem:
	*err = -ENOMEM;
	return NULL;
}

void fsl_alloc__free(struct fsl_alloc *a)
{
	struct ipage **pp;
	size_t it = 0;
	uint32_t i, k;

	if (!a)
		return;
	free(a->disk);
	free(a->core);
	free(a->grp);
	free(a->pa);
	free(a->pa_freelist);
	while ((pp = fsl_map__next(&a->ipg, &it, NULL))) {
		struct ipage *p = *pp;

		for (k = 0; k < IPAGE; k++) {
			free(p->in[k].pas);
			if (p->in[k].ext != &p->in[k].ext1)
				free(p->in[k].ext);
		}
		free(p);
	}
	fsl_map__free(&a->ipg);
	if (a->lg)
		for (i = 0; i < a->nlg; i++)
			for (k = 0; k < LG_ORDERS; k++)
				free(a->lg[i].list[k]);
	free(a->lg);
	free(a->pend);
	free(a);
}

static void *dup_mem(const void *p, size_t n)
{
	void *q;

	if (!n)
		return NULL;
	q = malloc(n);
	if (q)
		memcpy(q, p, n);
	return q;
}

struct fsl_alloc *fsl_alloc__clone(const struct fsl_alloc *a)
{
	struct fsl_alloc *c = calloc(1, sizeof(*c));
	size_t words = (size_t)a->wpg * a->g.ngroups, it = 0;
	struct ipage *const *pp;
	uint64_t key;
	uint32_t i, k;

	if (!c)
		return NULL;
	*c = *a;
	c->disk = dup_mem(a->disk, words * 8);
	c->core = dup_mem(a->core, words * 8);
	c->grp = dup_mem(a->grp, a->g.ngroups * sizeof(*a->grp));
	c->pa = dup_mem(a->pa, (size_t)a->cpa * sizeof(*a->pa));
	c->pa_freelist = dup_mem(a->pa_freelist, (size_t)a->cfreepa * 4);
	c->pend = dup_mem(a->pend, (size_t)a->cpend * sizeof(*a->pend));
	c->hint = NULL;
	fsl_map__init(&c->ipg, sizeof(struct ipage *));
	c->lg = calloc(a->nlg, sizeof(*c->lg));
	if (!c->lg) {
		fsl_alloc__free(c);
		return NULL;
	}
	while ((pp = fsl_map__next(&a->ipg, &it, &key))) {
		const struct ipage *p = *pp;
		struct ipage *q = malloc(sizeof(*q)), **qq;

		qq = q ? fsl_map__put(&c->ipg, key, NULL) : NULL;
		if (!qq) {
			free(q);
			fsl_alloc__free(c);
			return NULL;
		}
		*qq = q;
		*q = *p;
		for (k = 0; k < IPAGE; k++) {
			const struct inode *s = &p->in[k];
			struct inode *d = &q->in[k];

			d->pas = dup_mem(s->pas, (size_t)s->cpas * 4);
			if (s->ext == &s->ext1)
				d->ext = &d->ext1;
			else
				d->ext = dup_mem(s->ext, (size_t)s->cext * sizeof(struct ext));
		}
	}
	for (i = 0; i < a->nlg; i++) {
		c->lg[i] = a->lg[i];
		for (k = 0; k < LG_ORDERS; k++)
			c->lg[i].list[k] = dup_mem(a->lg[i].list[k], (size_t)a->lg[i].cap[k] * 4);
	}
	return c;
}

/*
 * ---- inode table: pages of IPAGE inodes in the one hash map ----
 * bench/replay.sh (300,000 files, median CPU of 7 runs, twice): 0.311 and
 * 0.330 s against 0.309 and 0.344 s with the open-addressed table of page
 * pointers it replaced: the hint below answers most lookups, so the table
 * behind it does not show.
 */

static struct ipage *ipg_find(const struct fsl_alloc *a, uint64_t key)
{
	struct ipage **pp;

	/* one allocation looks its inode up several times, its neighbours next */
	if (a->hint && a->hint->key == key)
		return a->hint;
	pp = fsl_map__get(&a->ipg, key);
	return pp ? (((struct fsl_alloc *)a)->hint = *pp) : NULL;
}

static struct inode *ino_find(const struct fsl_alloc *a, uint64_t ino)
{
	struct ipage *p = ipg_find(a, ino >> IPAGE_SHIFT);
	struct inode *in;

	if (!p)
		return NULL;
	in = &p->in[ino & (IPAGE - 1)];
	return in->ino == ino && ino ? in : NULL;
}

static int ipg_insert(struct fsl_alloc *a, struct ipage *p)
{
	struct ipage **pp = fsl_map__put(&a->ipg, p->key, NULL);

	if (!pp)
		return -ENOMEM;
	*pp = p;
	return 0;
}

static struct inode *ino_get(struct fsl_alloc *a, uint64_t ino)
{
	uint64_t key = ino >> IPAGE_SHIFT;
	struct ipage *p;
	struct inode *in;

	if (!ino)
		return NULL;
	p = ipg_find(a, key);
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->key = key;
		if (ipg_insert(a, p)) {
			free(p);
			return NULL;
		}
	}
	a->hint = p;
	in = &p->in[ino & (IPAGE - 1)];
	if (!in->ino) {
		in->ino = ino;
		in->ext = &in->ext1;
		in->cext = 1;
	}
	return in;
}

/* ---- bitmaps from outside ---- */

void fsl_alloc__mark_used(struct fsl_alloc *a, uint64_t blk, uint64_t len)
{
	disk_set(a, blk, len, 1);
	core_set(a, blk, len, 1);
}

void fsl_alloc__mark_free(struct fsl_alloc *a, uint64_t blk, uint64_t len)
{
	disk_set(a, blk, len, 0);
	core_set(a, blk, len, 0);
}

int fsl_alloc__test_used(const struct fsl_alloc *a, uint64_t blk)
{
	if (blk < a->g.first_data_block || blk >= a->g.blocks_count)
		return 1;
	return bit_test(gw(a, a->disk, blk_group(a, blk)), blk_off(a, blk));
}

int fsl_alloc__test_incore(const struct fsl_alloc *a, uint64_t blk)
{
	if (blk < a->g.first_data_block || blk >= a->g.blocks_count)
		return 1;
	return bit_test(gw(a, a->core, blk_group(a, blk)), blk_off(a, blk));
}

uint64_t fsl_alloc__free_blocks(const struct fsl_alloc *a, uint32_t group)
{
	if (group >= a->g.ngroups)
		return 0;
	grp_stats((struct fsl_alloc *)a, group);
	return a->grp[group].free;
}

uint64_t fsl_alloc__disk_free(const struct fsl_alloc *a, uint32_t group)
{
	struct grp *gr;
	const uint64_t *w;
	uint32_t i, used = 0;

	if (group >= a->g.ngroups)
		return 0;
	gr = &a->grp[group];
	if (gr->ddirty) {
		w = gw(a, a->disk, group);
		for (i = 0; i < a->wpg; i++)
			used += (uint32_t)__builtin_popcountll(w[i]);
		gr->dfree = a->wpg * 64 - used;
		gr->ddirty = 0;
	}
	return gr->dfree;
}

void fsl_alloc__set_loaded(struct fsl_alloc *a, uint32_t group, int loaded)
{
	if (group < a->g.ngroups)
		a->grp[group].loaded = !!loaded;
}

void fsl_alloc__set_block_uninit(struct fsl_alloc *a, uint32_t group, int uninit)
{
	if (group < a->g.ngroups)
		a->grp[group].uninit = !!uninit;
}

void fsl_alloc__set_tunables(struct fsl_alloc *a, const struct fsl_tunables *t)
{
	a->t = *t;
}

void fsl_alloc__set_stream_goal(struct fsl_alloc *a, uint64_t ino, uint32_t group,
				uint32_t start)
{
	if (group >= a->g.ngroups)
		return;
	if (a->nslots) {
		a->slot_group[ino % a->nslots] = group;
	} else {
		a->last_group = group;
		a->last_start = start;
	}
}

uint32_t fsl_alloc_stream_slots(uint32_t possible_cpus, uint32_t ngroups)
{
	uint32_t q = (ngroups + 3) / 4;

	if (!possible_cpus)
		possible_cpus = 1;
	return possible_cpus < q ? possible_cpus : q ? q : 1;
}

void fsl_alloc__set_stream_slots(struct fsl_alloc *a, uint32_t n)
{
	if (n > FSL_ALLOC_MAX_SLOTS)
		n = FSL_ALLOC_MAX_SLOTS;
	if (n == a->nslots)
		return;
	a->nslots = n;
	memset(a->slot_group, 0, sizeof(a->slot_group));
}

/* ---- extent map ---- */

void fsl_alloc__map(struct fsl_alloc *a, uint64_t ino, uint32_t logical, uint64_t pblk,
		    uint32_t len)
{
	struct inode *in = ino_get(a, ino);
	uint32_t i, j;
	struct ext *e;

	if (!in || !len)
		return;
	/* Drop whatever the new range overlaps (rewrites of a mapping). */
	for (i = 0, j = 0; i < in->next; i++) {
		e = &in->ext[i];
		if (e->logical + e->len <= logical || e->logical >= logical + len)
			in->ext[j++] = *e;
	}
	in->next = j;
	for (i = 0; i < in->next && in->ext[i].logical < logical; i++)
		;
	if (i > 0) {
		e = &in->ext[i - 1];
		if (e->logical + e->len == logical && e->pblk + e->len == pblk) {
			e->len += len;
			if (i < in->next && in->ext[i].logical == logical + len &&
			    in->ext[i].pblk == pblk + len) {
				e->len += in->ext[i].len;
				memmove(&in->ext[i], &in->ext[i + 1],
					(in->next - i - 1) * sizeof(*e));
				in->next--;
			}
			return;
		}
	}
	if (i < in->next && in->ext[i].logical == logical + len && in->ext[i].pblk == pblk + len) {
		in->ext[i].logical = logical;
		in->ext[i].pblk = pblk;
		in->ext[i].len += len;
		return;
	}
	if (in->next + 1 > in->cext) {
		uint32_t n = in->cext * 2 > 8 ? in->cext * 2 : 8;
		struct ext *x;

		while (n < in->next + 1)
			n *= 2;
		x = in->ext == &in->ext1 ? malloc((size_t)n * sizeof(*x))
					 : realloc(in->ext, (size_t)n * sizeof(*x));
		if (!x)
			return;
		if (in->ext == &in->ext1 && in->next)
			x[0] = in->ext1;
		in->ext = x;
		in->cext = n;
	}
	memmove(&in->ext[i + 1], &in->ext[i], (in->next - i) * sizeof(*e));
	in->ext[i] = (struct ext){ logical, len, pblk };
	in->next++;
}

void fsl_alloc__neighbours(const struct fsl_alloc *a, struct fsl_alloc_req *r)
{
	const struct inode *in = ino_find(a, r->ino);
	uint32_t i;

	r->lleft = r->lright = 0;
	r->pleft = r->pright = 0;
	if (!in)
		return;
	for (i = 0; i < in->next; i++) {
		const struct ext *e = &in->ext[i];

		if (e->logical + e->len <= r->logical) {
			r->lleft = e->logical + e->len - 1;
			r->pleft = e->pblk + e->len - 1;
		} else if (e->logical > r->logical) {
			r->lright = e->logical;
			r->pright = e->pblk;
			break;
		}
	}
}

unsigned int fsl_alloc__extents(const struct fsl_alloc *a, uint64_t ino)
{
	const struct inode *in = ino_find(a, ino);

	return in ? in->next : 0;
}

uint64_t fsl_alloc__first_block(const struct fsl_alloc *a, uint64_t ino)
{
	const struct inode *in = ino_find(a, ino);

	return in && in->next ? in->ext[0].pblk : 0;
}

int fsl_alloc__inode_next(const struct fsl_alloc *a, size_t *cursor, uint64_t *ino,
			  unsigned int *extents)
{
	/* cursor = map slot * IPAGE + inode within the page */
	size_t slot = *cursor / IPAGE, k = *cursor % IPAGE, it = slot;
	struct ipage *const *pp;

	while ((pp = fsl_map__next(&a->ipg, &it, NULL))) {
		const struct ipage *p = *pp;

		if (it - 1 != slot)
			k = 0;	/* a later page: from its first inode */
		slot = it - 1;
		for (; k < IPAGE; k++) {
			const struct inode *in = &p->in[k];

			if (!in->ino || !in->next)
				continue;
			*ino = in->ino;
			*extents = in->next;
			*cursor = slot * IPAGE + k + 1;
			return 1;
		}
	}
	*cursor = it * IPAGE;
	return 0;
}

/* ---- preallocations ---- */

static uint32_t pa_alloc(struct fsl_alloc *a)
{
	if (a->nfreepa)
		return a->pa_freelist[--a->nfreepa];
	if (grow((void **)&a->pa, &a->cpa, a->npa + 1, sizeof(*a->pa)))
		return NO_GROUP;
	return a->npa++;
}

static void pa_slot_free(struct fsl_alloc *a, uint32_t id)
{
	if (grow((void **)&a->pa_freelist, &a->cfreepa, a->nfreepa + 1, 4))
		return;
	a->pa_freelist[a->nfreepa++] = id;
}

static void lg_remove(struct fsl_alloc *a, uint32_t id)
{
	struct lg *l = &a->lg[a->pa[id].cpu % a->nlg];
	uint32_t k, i;

	for (k = 0; k < LG_ORDERS; k++)
		for (i = 0; i < l->n[k]; i++)
			if (l->list[k][i] == id) {
				memmove(&l->list[k][i], &l->list[k][i + 1],
					(l->n[k] - i - 1) * 4);
				l->n[k]--;
				return;
			}
}

static void ino_pa_remove(struct fsl_alloc *a, uint32_t id)
{
	struct inode *in = ino_find(a, a->pa[id].ino);
	uint32_t i;

	if (!in)
		return;
	for (i = 0; i < in->npas; i++)
		if (in->pas[i] == id) {
			in->pas[i] = in->pas[--in->npas];
			return;
		}
}

/* Drop a PA: its unused blocks go back to the free space in core. */
static void pa_discard(struct fsl_alloc *a, uint32_t id)
{
	struct pa *p = &a->pa[id];
	uint64_t b;

	if (p->deleted)
		return;
	if (p->group_pa) {
		/* Group PAs are consumed from the front: what is left is free. */
		if (p->len)
			core_set(a, p->pstart, p->len, 0);
		lg_remove(a, id);
	} else {
		/* Free in core whatever the on-disk bitmap does not hold. */
		for (b = p->pstart; b < p->pstart + p->len; b++)
			if (!fsl_alloc__test_used(a, b))
				core_set(a, b, 1, 0);
		ino_pa_remove(a, id);
	}
	p->deleted = 1;
	pa_slot_free(a, id);
}

/* Insert a group PA into its locality group's list for its free count. */
static void lg_add_n_trim(struct fsl_alloc *a, uint32_t id, uint32_t in_use)
{
	struct pa *p = &a->pa[id];
	struct lg *l = &a->lg[p->cpu % a->nlg];
	int order = fls32(p->free) - 1;
	uint32_t i, pos, count;

	if (order < 0)
		return;
	if (order > LG_ORDERS - 1)
		order = LG_ORDERS - 1;
	for (pos = 0; pos < l->n[order]; pos++)
		if (p->free < a->pa[l->list[order][pos]].free)
			break;
	if (grow((void **)&l->list[order], &l->cap[order], l->n[order] + 1, 4))
		return;
	memmove(&l->list[order][pos + 1], &l->list[order][pos], (l->n[order] - pos) * 4);
	l->list[order][pos] = id;
	l->n[order]++;
	count = l->n[order];
	if (count <= 8)
		return;
	/* Trim: discard PAs from the head of this list, keeping at most 5. */
	for (i = 0; i < l->n[order] && count > 5;) {
		uint32_t victim = l->list[order][i];

		if (victim == in_use) {
			i++;
			continue;
		}
		pa_discard(a, victim);	/* removes it from the list */
		count--;
	}
}

void fsl_alloc__pa_new(struct fsl_alloc *a, uint64_t ino, uint32_t cpu, uint64_t pstart,
		       uint32_t lstart, uint32_t len, int group_pa)
{
	uint32_t id = pa_alloc(a);
	struct pa *p;
	struct inode *in;

	if (id == NO_GROUP || !len)
		return;
	p = &a->pa[id];
	*p = (struct pa){ .ino = group_pa ? 0 : ino, .pstart = pstart, .lstart = lstart,
			  .len = len, .free = len, .cpu = cpu, .group_pa = !!group_pa,
			  .lru = ++a->lru_clock };
	core_set(a, pstart, len, 1);
	if (group_pa) {
		lg_add_n_trim(a, id, id);
	} else {
		in = ino_get(a, ino);
		if (!in || grow((void **)&in->pas, &in->cpas, in->npas + 1, 4))
			return;
		in->pas[in->npas++] = id;
	}
}

void fsl_alloc__pa_release(struct fsl_alloc *a, uint64_t ino, uint64_t pstart, uint32_t len,
			   int group_pa)
{
	uint32_t i;

	for (i = 0; i < a->npa; i++) {
		struct pa *p = &a->pa[i];

		if (p->deleted || !!p->group_pa != !!group_pa)
			continue;
		if (!group_pa && p->ino != ino)
			continue;
		if (pstart + len <= p->pstart || pstart >= p->pstart + (p->len ? p->len : 1))
			continue;
		pa_discard(a, i);
	}
	/* Whatever the kernel says it released is free in core (not on disk). */
	for (uint64_t b = pstart; b < pstart + len; b++)
		if (!fsl_alloc__test_used(a, b))
			core_set(a, b, 1, 0);
}

void fsl_alloc__discard_inode_pa(struct fsl_alloc *a, uint64_t ino)
{
	struct inode *in = ino_find(a, ino);

	while (in && in->npas)
		pa_discard(a, in->pas[0]);
}

unsigned int fsl_alloc__npa(const struct fsl_alloc *a, uint64_t ino)
{
	uint32_t i, n = 0;

	for (i = 0; i < a->npa; i++)
		if (!a->pa[i].deleted && a->pa[i].ino == ino)
			n++;
	return n;
}

/* ---- frees and commits ---- */

void fsl_alloc__free_blocks_tid(struct fsl_alloc *a, uint64_t blk, uint64_t len, uint32_t tid)
{
	disk_set(a, blk, len, 0);
	if (a->g.data_writeback || !a->g.journal_blocks) {
		core_set(a, blk, len, 0);
		return;
	}
	if (grow((void **)&a->pend, &a->cpend, a->npend + 1, sizeof(*a->pend)))
		return;
	a->pend[a->npend++] = (struct pend){ blk, len, tid };
}

void fsl_alloc__commit(struct fsl_alloc *a, uint32_t tid)
{
	uint32_t i, j;

	for (i = 0, j = 0; i < a->npend; i++) {
		struct pend *p = &a->pend[i];

		/* tids wrap; compare as the kernel does (tid_geq) */
		if ((int32_t)(tid - p->tid) >= 0) {
			uint64_t b;

			for (b = p->blk; b < p->blk + p->len; b++)
				if (!fsl_alloc__test_used(a, b))
					core_set(a, b, 1, 0);
		} else {
			a->pend[j++] = *p;
		}
	}
	a->npend = j;
}

/* ---- the allocator ---- */

struct fex {			/* a free extent: group, start in group, length */
	uint32_t group;
	uint32_t start;
	uint32_t len;
	uint32_t logical;
};

struct ac {
	struct fsl_alloc *a;
	const struct fsl_alloc_req *r;
	uint32_t flags;
	struct fex o, g, b;	/* original, goal (normalized), best */
	uint32_t orig_goal_len;
	int two_order;
	int found;		/* extents measured */
	int status;		/* 0 continue, 1 found, 2 break */
	int cr;
	uint32_t groups_scanned;
	int pa_id;		/* PA used (-1 none) */
	uint32_t load_group;	/* a group the search loaded (NO_GROUP none) */
};

uint64_t fsl_alloc__goal(const struct fsl_alloc *a, const struct fsl_alloc_req *r)
{
	uint32_t grp, ipg = a->g.inodes_per_group;
	uint64_t start, last;

	if (r->pleft && r->logical > r->lleft)
		return r->pleft + (r->logical - r->lleft);
	if (r->pright && r->lright > r->logical && r->pright > r->lright - r->logical)
		return r->pright - (r->lright - r->logical);
	/* No neighbour: the start of the inode's group (flex_bg: see docs). */
	grp = r->ino ? (uint32_t)((r->ino - 1) / ipg) : 0;
	if (a->g.flex_size >= 4) {
		grp &= ~(a->g.flex_size - 1);
		if (r->is_reg)
			grp++;
	}
	if (grp >= a->g.ngroups)
		grp = a->g.ngroups - 1;
	start = grp_blk(a, grp, 0);
	if (a->g.delalloc)
		return start;
	last = a->g.blocks_count - 1;
	if (start + a->g.blocks_per_group <= last)
		return start + (r->pid % 16) * (a->g.blocks_per_group / 16);
	return start + (r->pid % 16) * ((last - start) / 16);
}

/*
 * Order of the buddy chunk holding free block b: the largest k such that the
 * aligned 2^k range around b is free (0 if only b itself).
 */
static int order_for_block(struct ac *ac, const uint64_t *w, uint32_t b)
{
	int k;

	for (k = 1; k <= (int)ac->a->max_order; k++) {
		uint32_t sz = 1u << k, s = b & ~(sz - 1);

		if (s + sz > ac->a->g.blocks_per_group || !range_free(w, s, sz))
			return k - 1;
	}
	return ac->a->max_order;
}

/* mb_find_extent: free extent starting at block, grown by buddy chunks. */
static uint32_t find_extent(struct ac *ac, uint32_t group, uint32_t block, uint32_t needed,
			    struct fex *ex)
{
	const uint64_t *w = gw(ac->a, ac->a->core, group);
	uint32_t bpg = ac->a->g.blocks_per_group, next, chunk, len;
	int order;

	ex->group = group;
	ex->start = block;
	ex->len = 0;
	if (block >= bpg || bit_test(w, block))
		return 0;
	order = order_for_block(ac, w, block);
	chunk = block >> order;
	len = (1u << order) - (block - (chunk << order));
	while (needed > len && order <= (int)ac->a->max_order) {
		if (chunk + 1 >= ((ac->a->wpg * 64) >> order))
			break;
		next = (chunk + 1) << order;
		if (next >= bpg || bit_test(w, next))
			break;
		order = order_for_block(ac, w, next);
		chunk = next >> order;
		len += 1u << order;
	}
	if (block + len > bpg)
		len = bpg - block;
	ex->len = len;
	return len;
}

static void use_best_found(struct ac *ac)
{
	if (ac->b.len > ac->g.len)
		ac->b.len = ac->g.len;
	ac->b.logical = ac->g.logical;
	ac->status = 1;
}

static int find_by_goal(struct ac *ac)
{
	struct fex ex;
	uint32_t max;

	if (!(ac->flags & (FSL_MB_HINT_TRY_GOAL | FSL_MB_HINT_GOAL_ONLY)))
		return 0;
	if (ac->g.group >= ac->a->g.ngroups)
		return 0;
	grp_stats(ac->a, ac->g.group);
	if (!ac->a->grp[ac->g.group].free)
		return 0;
	ac->load_group = ac->g.group;
	max = find_extent(ac, ac->g.group, ac->g.start, ac->g.len, &ex);
	if (max >= ac->g.len || (max > 0 && (ac->flags & FSL_MB_HINT_MERGE))) {
		ac->found++;
		ac->b = ex;
		use_best_found(ac);
		return 1;
	}
	return 0;
}

/* ext4_mb_good_group (+ the unloaded-group rule of good_group_nolock). */
static int good_group(struct ac *ac, uint32_t group, int cr)
{
	struct fsl_alloc *a = ac->a;
	struct grp *gr = &a->grp[group];
	uint32_t fs = a->g.flex_size;

	grp_stats(a, group);
	if (!gr->free || !gr->frags)
		return 0;
	if (cr <= FSL_PATH_CR2 && gr->free < ac->g.len)
		return 0;
	/* Fast passes do not read bitmaps that are not in memory yet. */
	if (cr < FSL_PATH_CR2 && !gr->loaded && (fs <= 1 || group % fs) && !gr->uninit)
		return 0;
	switch (cr) {
	case FSL_PATH_CR0:
		if ((ac->flags & FSL_MB_HINT_DATA) && fs >= 4 && group % fs == 0)
			return 0;
		if (ac->two_order > (int)a->max_order)
			return 1;
		return gr->largest >= ac->two_order;
	case FSL_PATH_CR1:
	case FSL_PATH_CR1_5:
		return gr->free / gr->frags >= ac->g.len;
	case FSL_PATH_CR2:
		return gr->free >= ac->g.len;
	default:
		return 1;
	}
}

/* cr0: take the first buddy chunk of the smallest order >= 2order. */
static void simple_scan(struct ac *ac, uint32_t group)
{
	struct fsl_alloc *a = ac->a;
	const uint64_t *w = gw(a, a->core, group);
	uint32_t bpg = a->g.blocks_per_group, s, e, p;
	uint32_t first[32];
	int have[32] = { 0 }, k, i;

	s = bit_next(w, bpg, 0, 0);
	while (s < bpg) {
		e = bit_next(w, bpg, s, 1);
		/* canonical buddy decomposition of the free run [s, e) */
		p = s;
		while (p < e) {
			for (k = a->max_order; k > 0; k--) {
				uint32_t sz = 1u << k;

				if (!(p & (sz - 1)) && p + sz <= e)
					break;
			}
			if (k >= ac->two_order && !have[k]) {
				have[k] = 1;
				first[k] = p;
			}
			p += 1u << k;
		}
		s = bit_next(w, bpg, e, 0);
	}
	for (i = ac->two_order; i <= (int)a->max_order; i++) {
		if (!have[i])
			continue;
		ac->found++;
		ac->b = (struct fex){ group, first[i], 1u << i, 0 };
		use_best_found(ac);
		return;
	}
}

static void check_limits(struct ac *ac, uint32_t group, int finish)
{
	struct fex ex;

	if (ac->status)
		return;
	if (ac->found > (int)ac->a->t.mb_max_to_scan && !(ac->flags & FSL_MB_HINT_FIRST)) {
		ac->status = 2;
		return;
	}
	if (ac->b.len < ac->g.len)
		return;
	if ((finish || ac->found > (int)ac->a->t.mb_min_to_scan) && ac->b.group == group) {
		if (find_extent(ac, group, ac->b.start, ac->g.len, &ex) >= ac->g.len)
			use_best_found(ac);
	}
}

static void measure(struct ac *ac, const struct fex *ex, uint32_t group)
{
	ac->found++;
	if ((ac->flags & FSL_MB_HINT_FIRST) || ex->len == ac->g.len) {
		ac->b = *ex;
		use_best_found(ac);
		return;
	}
	if (ac->b.len == 0) {
		ac->b = *ex;
		return;
	}
	if (ac->b.len < ac->g.len) {
		if (ex->len > ac->b.len)
			ac->b = *ex;
	} else if (ex->len > ac->g.len) {
		if (ex->len < ac->b.len)
			ac->b = *ex;
	}
	check_limits(ac, group, 0);
}

static void complex_scan(struct ac *ac, uint32_t group)
{
	struct fsl_alloc *a = ac->a;
	const uint64_t *w = gw(a, a->core, group);
	uint32_t bpg = a->g.blocks_per_group, i, free;
	struct fex ex;

	grp_stats(a, group);
	free = a->grp[group].free;
	i = a->grp[group].first_free;
	while (free && !ac->status) {
		i = bit_next(w, bpg, i, 0);
		if (i >= bpg)
			break;
		if (!find_extent(ac, group, i, ac->g.len, &ex))
			break;
		if (free < ex.len)
			break;
		measure(ac, &ex, group);
		i += ex.len;
		free -= ex.len;
	}
	check_limits(ac, group, 1);
}

static void regular_allocator(struct ac *ac)
{
	struct fsl_alloc *a = ac->a;
	uint32_t ngroups = a->g.ngroups, group, n;
	int i, cr;

	if (find_by_goal(ac)) {
		ac->cr = FSL_PATH_GOAL;
		return;
	}
	if (ac->flags & FSL_MB_HINT_GOAL_ONLY)
		return;
	i = fls32(ac->g.len);
	ac->two_order = 0;
	if (i >= (int)a->t.mb_order2_req && i <= (int)a->max_order + 1 &&
	    !(ac->g.len & ~(1u << (i - 1))))
		ac->two_order = i - 1;
	if ((ac->flags & FSL_MB_STREAM_ALLOC) && a->nslots) {
		ac->g.group = a->slot_group[ac->r->ino % a->nslots];
		ac->g.start = 0;	/* the kernel's -1: a group, no start */
		ac->flags &= ~FSL_MB_HINT_TRY_GOAL;
	} else if (ac->flags & FSL_MB_STREAM_ALLOC) {
		ac->g.group = a->last_group;
		ac->g.start = a->last_start;
	}
	cr = ac->two_order ? FSL_PATH_CR0 : FSL_PATH_CR1;
repeat:
	for (; cr <= FSL_PATH_CR3 && !ac->status; cr++) {
		/* CR_BEST_AVAIL_LEN only differs with mb_optimize_scan; linear scan repeats cr1 */
		if (cr == FSL_PATH_CR1_5)
			continue;
		ac->cr = cr;
		group = ac->g.group;
		for (n = 0; n < ngroups; n++, group = group + 1 >= ngroups ? 0 : group + 1) {
			if (!good_group(ac, group, cr))
				continue;
			ac->groups_scanned++;
			if (cr >= FSL_PATH_CR2 || a->grp[group].loaded)
				ac->load_group = group;
			if (cr == FSL_PATH_CR0)
				simple_scan(ac, group);
			else
				complex_scan(ac, group);
			if (ac->status)
				break;
		}
	}
	if (ac->b.len > 0 && ac->status != 1 && !(ac->flags & FSL_MB_HINT_FIRST)) {
		struct fex ex;

		if (find_extent(ac, ac->b.group, ac->b.start, ac->b.len, &ex) > 0) {
			ac->b = ex;
			use_best_found(ac);
			ac->cr = FSL_PATH_BEST_FOUND;
		} else {
			ac->b = (struct fex){ 0 };
			ac->status = 0;
			ac->flags |= FSL_MB_HINT_FIRST;
			cr = FSL_PATH_CR3;
			goto repeat;
		}
	}
}

/* ext4_mb_group_or_file */
static void group_or_file(struct ac *ac)
{
	const struct fsl_alloc_req *r = ac->r;
	struct fsl_alloc *a = ac->a;
	uint64_t size, isize;
	int inode_pa_ok = 1, group_pa_ok = a->t.mb_group_prealloc > 0;

	if (!(ac->flags & FSL_MB_HINT_DATA) || (ac->flags & FSL_MB_HINT_GOAL_ONLY))
		return;
	size = (uint64_t)ac->o.logical + ac->o.len;
	isize = r->isize_blocks;
	/* No inode PA for a file that is closed when its last block is allocated. */
	if (size == isize && r->closed == 1)
		inode_pa_ok = 0;
	if (isize > size)
		size = isize;
	if (size > a->t.mb_stream_req)
		group_pa_ok = 0;
	if (!group_pa_ok) {
		ac->flags |= inode_pa_ok ? FSL_MB_STREAM_ALLOC : FSL_MB_HINT_NOPREALLOC;
		return;
	}
	ac->flags |= FSL_MB_HINT_GROUP_ALLOC;
}

void fsl_alloc_normalize_size(uint32_t block_size, uint32_t logical, uint32_t len,
			      uint64_t isize_blocks, uint32_t *startp, uint32_t *sizep)
{
	int bits = 0;
	uint64_t size, start_off = 0, max;

	while ((1u << bits) < block_size)
		bits++;
	size = ((uint64_t)logical + len) << bits;
	if (size < (isize_blocks << bits))
		size = isize_blocks << bits;
	max = 2ull << bits;
#define NRL_OK(req, sz, chunk) ((req) <= (sz) || max <= (chunk))
	if (size <= 16 * 1024)
		size = 16 * 1024;
	else if (size <= 32 * 1024)
		size = 32 * 1024;
	else if (size <= 64 * 1024)
		size = 64 * 1024;
	else if (size <= 128 * 1024)
		size = 128 * 1024;
	else if (size <= 256 * 1024)
		size = 256 * 1024;
	else if (size <= 512 * 1024)
		size = 512 * 1024;
	else if (size <= 1024 * 1024)
		size = 1024 * 1024;
	else if (NRL_OK(size, 4ull << 20, 2 * 1024)) {
		start_off = ((uint64_t)logical >> (21 - bits)) << 21;
		size = 2ull << 20;
	} else if (NRL_OK(size, 8ull << 20, 4 * 1024)) {
		start_off = ((uint64_t)logical >> (22 - bits)) << 22;
		size = 4ull << 20;
	} else if (NRL_OK((uint64_t)len, (8ull << 20) >> bits, 8 * 1024)) {
		start_off = ((uint64_t)logical >> (23 - bits)) << 23;
		size = 8ull << 20;
	} else {
		start_off = (uint64_t)logical << bits;
		size = (uint64_t)len << bits;
	}
#undef NRL_OK
	*startp = (uint32_t)(start_off >> bits);
	*sizep = (uint32_t)(size >> bits);
}

/* ext4_mb_normalize_request */
static void normalize(struct ac *ac)
{
	struct fsl_alloc *a = ac->a;
	const struct fsl_alloc_req *r = ac->r;
	uint32_t start, size, bpg = a->g.blocks_per_group, i;
	uint64_t end;
	struct inode *in;

	if (!(ac->flags & FSL_MB_HINT_DATA) || (ac->flags & FSL_MB_HINT_GOAL_ONLY) ||
	    (ac->flags & FSL_MB_HINT_NOPREALLOC))
		return;
	if (ac->flags & FSL_MB_HINT_GROUP_ALLOC) {
		ac->g.len = a->t.mb_group_prealloc;
		return;
	}
	fsl_alloc_normalize_size(a->g.block_size, ac->o.logical, ac->o.len, r->isize_blocks,
				 &start, &size);
	/* tiny groups: do not let the alignment move us to another group's worth */
	if (start < ac->o.logical - ac->o.logical % bpg)
		start = ac->o.logical - ac->o.logical % bpg;
	/* do not cover blocks already mapped on either side */
	if (r->pleft && start <= r->lleft) {
		size -= r->lleft + 1 - start;
		start = r->lleft + 1;
	}
	if (r->pright && (uint64_t)start + size - 1 >= r->lright)
		size -= start + size - r->lright;
	if (size > bpg)
		size = bpg;
	end = (uint64_t)start + size;
	/* nor the ranges of existing inode PAs */
	in = ino_find(a, r->ino);
	for (i = 0; in && i < in->npas; i++) {
		const struct pa *p = &a->pa[in->pas[i]];
		uint64_t pend = (uint64_t)p->lstart + p->len;

		if (p->deleted || p->lstart >= end || pend <= start)
			continue;
		if (pend <= ac->o.logical)
			start = (uint32_t)pend;
		else if (p->lstart > ac->o.logical)
			end = p->lstart;
	}
	size = (uint32_t)(end - start);
	if ((uint64_t)start + size <= ac->o.logical || start > ac->o.logical || !size) {
		/* the kernel BUGs here; keep the original request */
		start = ac->o.logical;
		size = ac->o.len;
	}
	ac->g.logical = start;
	ac->g.len = size;
	ac->orig_goal_len = size;
	if (r->pright && r->lright == start + size && r->pright >= size &&
	    r->pright - size >= a->g.first_data_block) {
		ac->g.group = blk_group(a, r->pright - size);
		ac->g.start = blk_off(a, r->pright - size);
		ac->flags |= FSL_MB_HINT_TRY_GOAL;
	}
	if (r->pleft && r->lleft + 1 == start && r->pleft + 1 < a->g.blocks_count) {
		ac->g.group = blk_group(a, r->pleft + 1);
		ac->g.start = blk_off(a, r->pleft + 1);
		ac->flags |= FSL_MB_HINT_TRY_GOAL;
	}
}

/* ext4_mb_use_preallocated: returns the PA id used, or -1. */
static int use_preallocated(struct ac *ac, struct fsl_alloc_res *res)
{
	struct fsl_alloc *a = ac->a;
	struct inode *in;
	uint32_t i, k;
	int order, best = -1;
	uint64_t goal_blk, bestd = 0;

	if (!(ac->flags & FSL_MB_HINT_DATA))
		return -1;
	in = ino_find(a, ac->r->ino);
	for (i = 0; in && i < in->npas; i++) {
		struct pa *p = &a->pa[in->pas[i]];
		uint64_t start, end;

		if (p->deleted || !p->free || ac->o.logical < p->lstart ||
		    ac->o.logical >= (uint64_t)p->lstart + p->len)
			continue;
		start = p->pstart + (ac->o.logical - p->lstart);
		end = p->pstart + p->len;
		if (start + ac->o.len < end)
			end = start + ac->o.len;
		res->pblk = start;
		res->len = (uint32_t)(end - start);
		res->path = FSL_PATH_INODE_PA;
		return (int)in->pas[i];
	}
	if (!(ac->flags & FSL_MB_HINT_GROUP_ALLOC))
		return -1;
	order = fls32(ac->o.len) - 1;
	if (order > LG_ORDERS - 1)
		order = LG_ORDERS - 1;
	goal_blk = grp_blk(a, ac->g.group, ac->g.start);
	{
		struct lg *l = &a->lg[ac->r->cpu % a->nlg];

		for (k = order; k < LG_ORDERS; k++)
			for (i = 0; i < l->n[k]; i++) {
				struct pa *p = &a->pa[l->list[k][i]];
				uint64_t d;

				if (p->deleted || p->free < ac->o.len)
					continue;
				d = goal_blk > p->pstart ? goal_blk - p->pstart : p->pstart - goal_blk;
				if (best < 0 || d < bestd) {
					best = (int)l->list[k][i];
					bestd = d;
				}
			}
	}
	if (best < 0)
		return -1;
	res->pblk = a->pa[best].pstart;
	res->len = ac->o.len;
	res->path = FSL_PATH_GROUP_PA;
	return best;
}

static void ac_init(struct ac *ac, struct fsl_alloc *a, const struct fsl_alloc_req *r)
{
	uint64_t goal = r->goal ? r->goal : fsl_alloc__goal(a, r);
	uint32_t len = r->len;

	memset(ac, 0, sizeof(*ac));
	ac->a = a;
	ac->r = r;
	ac->pa_id = -1;
	ac->load_group = NO_GROUP;
	if (len >= a->g.blocks_per_group)
		len = a->g.blocks_per_group;
	if (goal < a->g.first_data_block || goal >= a->g.blocks_count)
		goal = a->g.first_data_block;
	ac->o = (struct fex){ blk_group(a, goal), blk_off(a, goal), len, r->logical };
	ac->g = ac->o;
	ac->flags = r->flags;
	group_or_file(ac);
}

/*
 * The decision, without touching the state. Fills res (result, path, PA to
 * create) from ac after the search.
 */
static int decide(struct fsl_alloc *a, const struct fsl_alloc_req *r, struct ac *ac,
		  struct fsl_alloc_res *res)
{
	memset(res, 0, sizeof(*res));
	ac_init(ac, a, r);
	res->goal = grp_blk(a, ac->o.group, ac->o.start);
	if (!r->len)
		return -EINVAL;
	ac->pa_id = use_preallocated(ac, res);
	if (ac->pa_id >= 0) {
		res->flags = ac->flags;
		res->g_len = ac->o.len;
		res->g_logical = ac->o.logical;
		return 0;
	}
	normalize(ac);
	regular_allocator(ac);
	res->flags = ac->flags;
	res->g_len = ac->g.len;
	res->g_logical = ac->g.logical;
	res->groups_scanned = ac->groups_scanned;
	if (ac->status != 1 || !ac->b.len) {
		res->path = FSL_PATH_FAIL;
		return -ENOSPC;
	}
	res->path = ac->cr;
	if (ac->o.len < ac->b.len) {
		/* more than asked for: the rest becomes a preallocation */
		uint64_t bstart = grp_blk(a, ac->b.group, ac->b.start);

		if (ac->flags & FSL_MB_HINT_GROUP_ALLOC) {
			res->pa_group = 1;
			res->pa_pstart = bstart;
			res->pa_lstart = (uint32_t)bstart;
			res->pa_len = ac->b.len;
			res->pblk = bstart;
			res->len = ac->o.len;
		} else {
			uint32_t lstart = ac->b.logical;

			if (ac->b.len < ac->orig_goal_len) {
				uint64_t goal_end = (uint64_t)ac->g.logical + ac->orig_goal_len;
				uint64_t o_end = (uint64_t)ac->o.logical + ac->o.len;

				lstart = (uint32_t)(goal_end - ac->b.len);
				if (ac->o.logical < lstart) {
					lstart = ac->g.logical;
					if (o_end > (uint64_t)lstart + ac->b.len)
						lstart = ac->o.logical;
				}
			}
			res->pa_pstart = bstart;
			res->pa_lstart = lstart;
			res->pa_len = ac->b.len;
			res->pblk = bstart + (ac->o.logical - lstart);
			res->len = ac->o.len;
			if (res->pblk + res->len > bstart + ac->b.len)
				res->len = (uint32_t)(bstart + ac->b.len - res->pblk);
		}
	} else {
		res->pblk = grp_blk(a, ac->b.group, ac->b.start);
		res->len = ac->b.len;
	}
	return 0;
}

int fsl_alloc__decide(struct fsl_alloc *a, const struct fsl_alloc_req *r,
		      struct fsl_alloc_res *res)
{
	struct ac ac;

	return decide(a, r, &ac, res);
}

/* Find the live PA (inode's or the CPU's group PA) that holds pblk. */
static int pa_holding(struct fsl_alloc *a, const struct fsl_alloc_req *r, uint64_t pblk)
{
	struct inode *in = ino_find(a, r->ino);
	struct lg *l = &a->lg[r->cpu % a->nlg];
	uint32_t i, k;

	for (i = 0; in && i < in->npas; i++) {
		struct pa *p = &a->pa[in->pas[i]];

		if (!p->deleted && pblk >= p->pstart && pblk < p->pstart + p->len)
			return (int)in->pas[i];
	}
	/* consecutive small files on one CPU take from the same group PA */
	if (l->last < a->npa && !a->pa[l->last].deleted && a->pa[l->last].group_pa &&
	    a->pa[l->last].pstart == pblk)
		return (int)l->last;
	for (k = 0; k < LG_ORDERS; k++)
		for (i = 0; i < l->n[k]; i++) {
			struct pa *p = &a->pa[l->list[k][i]];

			if (!p->deleted && pblk == p->pstart)
				return (int)l->list[k][i];
		}
	/* another CPU's group PA (the writer migrated): look everywhere */
	for (i = 0; i < a->npa; i++) {
		struct pa *p = &a->pa[i];

		if (!p->deleted && p->group_pa && pblk == p->pstart)
			return (int)i;
	}
	return -1;
}

int fsl_alloc__pa_holds(struct fsl_alloc *a, const struct fsl_alloc_req *r, uint64_t pblk)
{
	int id = pa_holding(a, r, pblk);

	return id < 0 ? 0 : a->pa[id].group_pa ? 2 : 1;
}

uint32_t fsl_alloc__free_run(const struct fsl_alloc *a, uint64_t blk, uint32_t max)
{
	uint32_t g, off, end;

	if (blk < a->g.first_data_block || blk >= a->g.blocks_count)
		return 0;
	g = blk_group(a, blk);
	off = blk_off(a, blk);
	end = off + max < a->g.blocks_per_group ? off + max : a->g.blocks_per_group;
	return bit_next(gw(a, a->core, g), end, off, 1) - off;
}

/* Consume res from PA id (ext4_mb_release_context bookkeeping). */
static void pa_consume(struct fsl_alloc *a, int id, uint32_t len)
{
	struct pa *p = &a->pa[id];

	if (p->group_pa) {
		a->lg[p->cpu % a->nlg].last = (uint32_t)id;
		p->pstart += len;
		p->lstart += len;
		p->free = p->free > len ? p->free - len : 0;
		p->len = p->len > len ? p->len - len : 0;
		lg_remove(a, id);
		if (p->free)
			lg_add_n_trim(a, id, id);
		else {
			p->deleted = 1;
			pa_slot_free(a, id);
		}
	} else {
		p->free = p->free > len ? p->free - len : 0;
		p->lru = ++a->lru_clock;
		if (!p->free) {
			ino_pa_remove(a, id);
			p->deleted = 1;
			pa_slot_free(a, id);
		}
	}
}

void fsl_alloc__apply(struct fsl_alloc *a, const struct fsl_alloc_req *r,
		      const struct fsl_alloc_res *res)
{
	int id;

	if (res->pa_len)
		fsl_alloc__pa_new(a, r->ino, r->cpu, res->pa_pstart, res->pa_lstart,
				  res->pa_len, res->pa_group);
	if (!res->len || !res->pblk)
		return;
	/* only PA paths (or a PA made by this very allocation) take blocks from one */
	if (res->path <= FSL_PATH_GROUP_PA || res->pa_len || res->consume_pa) {
		id = pa_holding(a, r, res->pblk);
		if (id >= 0)
			pa_consume(a, id, res->len);
	}
	disk_set(a, res->pblk, res->len, 1);
	core_set(a, res->pblk, res->len, 1);
	/* data blocks only: extent-tree blocks have no logical position */
	if (r->flags & FSL_MB_HINT_DATA)
		fsl_alloc__map(a, r->ino, r->logical, res->pblk, res->len);
	if (res->flags & FSL_MB_STREAM_ALLOC && res->path > FSL_PATH_GROUP_PA) {
		uint64_t s = res->pa_len ? res->pa_pstart : res->pblk;

		if (a->nslots) {
			a->slot_group[r->ino % a->nslots] = blk_group(a, s);
		} else {
			a->last_group = blk_group(a, s);
			a->last_start = blk_off(a, s);
		}
	}
	a->grp[blk_group(a, res->pblk)].loaded = 1;
}

int fsl_alloc__allocate(struct fsl_alloc *a, const struct fsl_alloc_req *r,
			struct fsl_alloc_res *res)
{
	struct ac ac;
	int err = decide(a, r, &ac, res);

	if (ac.load_group != NO_GROUP)
		a->grp[ac.load_group].loaded = 1;
	if (err)
		return err;
	fsl_alloc__apply(a, r, res);
	return 0;
}
