// SPDX-License-Identifier: GPL-2.0
/*
 * Files without extents (ext2/ext3 format on the ext4 driver): the block run
 * e2fsck walks for each, the data blocks (ext4_ind_map_blocks_exit) with
 * the indirect blocks between them where the block map puts them, and the
 * fragcheck lines `e2fsck -fn -E fragcheck` prints for it.
 *
 * A mapping that allocates (ext4_ind_map_blocks_enter, then the thread's
 * ext4_allocate_blocks, then the exit) first allocates the missing levels
 * of the path to its logical block, top down, one block each, then the
 * data: those other blocks are the path's lowest missing levels. e2fsck
 * (ext2fs_block_iterate3 without DEPTH_TRAVERSE) visits an indirect block
 * before what it maps: d0..d11, IND (blkcnt -1), its data, DIND (-2), its
 * first IND, that IND's data, ..., TIND (-3).
 *
 * Layout is state: a window [t0, t1) sees the files as of t1.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"
#include "fslens/indmap.h"

#define IM_DIRECT	12	/* EXT4_NDIR_BLOCKS */
#define IM_S_IFMT	0170000
#define IM_S_IFDIR	0040000
#define IM_S_IFREG	0100000
#define IM_MAP_MAPPED	0x10
#define IM_METAS	3	/* a path has at most TIND, DIND, IND */

struct im_ext {
	uint64_t lblk, pblk, len;
};

/* An indirect block: its place in the tree (level 1 IND, 2 DIND, 3 TIND; index under its parent). */
struct im_meta {
	uint64_t key;		/* see meta_key() */
	uint64_t pblk;
};

struct im_file {
	char kind;
	uint32_t n, cap, nm, capm;
	struct im_ext *ext;	/* sorted by lblk */
	struct im_meta *meta;
};

/* A mapping in progress on a thread: the blocks it allocated before its exit. */
struct im_call {
	uint64_t ino;
	uint32_t lblk;
	uint32_t nalloc;
	uint64_t alloc[IM_METAS + 1];
};

struct an_indmap {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map files;	/* ino -> im_file */
	struct fsl_map modes;	/* ino -> kind char */
	struct fsl_map calls;	/* tid -> im_call */
	struct fsl_ind_break *br;
	size_t nbr, capbr;
	uint64_t nfiles;
	int dirty;
};

static int in_window_end(const struct an_indmap *s, uint64_t ts)
{
	return !s->c->win.t1 || ts < s->c->win.t1;
}

static int target(const struct an_indmap *s, uint32_t dev)
{
	return !s->c->target_dev || dev == s->c->target_dev;
}

static uint64_t ptrs(const struct an_indmap *s)
{
	uint64_t bs = fsl_meta__u64(s->c->meta, FSL_KV_EXT4_BLOCK_SIZE, 4096);

	return bs / 4;
}

/*
 * The path to logical block l: depth 0 (direct) to 3 and, per level from
 * the top, a key naming that indirect block: level << 56 | the index of
 * the first data block it maps.
 */
static unsigned int path_of(uint64_t p, uint64_t l, uint64_t key[IM_METAS])
{
	uint64_t base = IM_DIRECT;

	if (l < base)
		return 0;
	if (l < base + p) {
		key[0] = 1ull << 56 | base;
		return 1;
	}
	base += p;
	if (l < base + p * p) {
		key[0] = 2ull << 56 | base;
		key[1] = 1ull << 56 | (base + (l - base) / p * p);
		return 2;
	}
	base += p * p;
	key[0] = 3ull << 56 | base;
	key[1] = 2ull << 56 | (base + (l - base) / (p * p) * p * p);
	key[2] = 1ull << 56 | (base + (l - base) / p * p);
	return 3;
}

static int grow(void **pp, uint32_t *cap, uint32_t n, size_t sz)
{
	uint32_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 8;
	q = realloc(*pp, c * sz);
	if (!q)
		return -ENOMEM;
	*pp = q;
	*cap = c;
	return 0;
}

static struct im_file *file_get(struct an_indmap *s, uint64_t ino)
{
	int fresh;
	struct im_file *f = fsl_map__put(&s->files, ino, &fresh);

	if (f && fresh) {
		const char *k = fsl_map__get(&s->modes, ino);

		f->kind = k ? *k : 'f';
	}
	return f;
}

static int meta_set(struct im_file *f, uint64_t key, uint64_t pblk)
{
	uint32_t i;

	for (i = 0; i < f->nm; i++)
		if (f->meta[i].key == key) {
			f->meta[i].pblk = pblk;
			return 0;
		}
	if (grow((void **)&f->meta, &f->capm, f->nm, sizeof(*f->meta)))
		return -ENOMEM;
	f->meta[f->nm++] = (struct im_meta){ key, pblk };
	return 0;
}

/* Data blocks [l, l + len) at p (replacing what mapped there; merged with neighbours). */
static int data_add(struct im_file *f, uint64_t l, uint64_t p, uint64_t len)
{
	uint32_t i;

	for (i = 0; i < f->n; i++) {
		struct im_ext *e = &f->ext[i];

		if (l >= e->lblk && l + len <= e->lblk + e->len && p == e->pblk + (l - e->lblk))
			return 0;	/* a lookup of what is known */
	}
	if (f->n && l == f->ext[f->n - 1].lblk + f->ext[f->n - 1].len &&
	    p == f->ext[f->n - 1].pblk + f->ext[f->n - 1].len) {
		f->ext[f->n - 1].len += len;
		return 0;
	}
	if (grow((void **)&f->ext, &f->cap, f->n, sizeof(*f->ext)))
		return -ENOMEM;
	for (i = f->n; i > 0 && f->ext[i - 1].lblk > l; i--)
		;
	memmove(&f->ext[i + 1], &f->ext[i], (f->n - i) * sizeof(*f->ext));
	f->ext[i] = (struct im_ext){ l, p, len };
	f->n++;
	return 0;
}

static int on_enter(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_indmap *s = cons->priv;
	const struct fsl_ev_ext4_map_enter *ev = (const void *)h;
	struct im_call *cl;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev))
		return 0;
	cl = fsl_map__put(&s->calls, h->tid, NULL);
	if (!cl)
		return -ENOMEM;
	memset(cl, 0, sizeof(*cl));
	cl->ino = ev->ino;
	cl->lblk = ev->lblk;
	return 0;
}

static int on_allocate(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_indmap *s = cons->priv;
	const struct fsl_ev_ext4_alloc_blocks *ev = (const void *)h;
	struct im_call *cl = fsl_map__get(&s->calls, h->tid);

	if (!cl || h->size < sizeof(*ev) || ev->ino != cl->ino || !ev->len)
		return 0;
	if (cl->nalloc <= IM_METAS)
		cl->alloc[cl->nalloc++] = ev->block;
	return 0;
}

static int on_exit_map(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_indmap *s = cons->priv;
	const struct fsl_ev_ext4_map_blocks *ev = (const void *)h;
	struct im_call *cl = fsl_map__get(&s->calls, h->tid);
	uint64_t key[IM_METAS], metas[IM_METAS];
	unsigned int depth, nm = 0, i;
	struct im_file *f;
	int e;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev))
		return 0;
	if (ev->ret <= 0 || !ev->pblk || !(ev->mflags & IM_MAP_MAPPED)) {
		if (cl && cl->ino == ev->ino)
			fsl_map__del(&s->calls, h->tid);
		return 0;
	}
	f = file_get(s, ev->ino);
	if (!f)
		return -ENOMEM;
	s->dirty = 1;
	if ((e = data_add(f, ev->lblk, ev->pblk, (uint64_t)ev->ret)))
		return e;
	if (!cl || cl->ino != ev->ino)
		return 0;
	/* the blocks allocated before the data, in order: the path's lowest missing levels */
	for (i = 0; i < cl->nalloc; i++)
		if (cl->alloc[i] < ev->pblk || cl->alloc[i] >= ev->pblk + (uint64_t)ev->ret)
			if (nm < IM_METAS)
				metas[nm++] = cl->alloc[i];
	depth = path_of(ptrs(s), ev->lblk, key);
	for (i = 0; i < nm && i < depth; i++)
		if ((e = meta_set(f, key[depth - nm + i], metas[i])))
			return e;
	fsl_map__del(&s->calls, h->tid);
	return 0;
}

/* Blocks freed (truncate, delete): no longer the file's data or map. */
static int on_free_blocks(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_indmap *s = cons->priv;
	const struct fsl_ev_ext4_free_blocks *ev = (const void *)h;
	struct im_file *f;
	uint32_t i;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev))
		return 0;
	f = fsl_map__get(&s->files, ev->ino);
	if (!f)
		return 0;
	s->dirty = 1;
	for (i = 0; i < f->nm; i++)
		if (f->meta[i].pblk >= ev->block && f->meta[i].pblk < ev->block + ev->count)
			f->meta[i--] = f->meta[--f->nm];
	for (i = 0; i < f->n; i++) {
		struct im_ext *x = &f->ext[i];
		uint64_t lo = ev->block > x->pblk ? ev->block : x->pblk;
		uint64_t hi = ev->block + ev->count < x->pblk + x->len ? ev->block + ev->count :
			      x->pblk + x->len;

		if (lo >= hi)
			continue;
		if (lo == x->pblk && hi == x->pblk + x->len) {
			memmove(x, x + 1, (f->n - i - 1) * sizeof(*x));
			f->n--;
			i--;
		} else if (lo == x->pblk) {
			x->lblk += hi - lo;
			x->len -= hi - lo;
			x->pblk = hi;
		} else if (hi == x->pblk + x->len) {
			x->len -= hi - lo;
		} else {	/* a hole in the middle: keep the head, the tail comes back on a lookup */
			x->len = lo - x->pblk;
		}
	}
	return 0;
}

static void file_drop(struct an_indmap *s, uint64_t ino)
{
	struct im_file *f = fsl_map__get(&s->files, ino);

	if (!f)
		return;
	free(f->ext);
	free(f->meta);
	fsl_map__del(&s->files, ino);
	s->dirty = 1;
}

static int on_inode(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_indmap *s = cons->priv;
	const struct fsl_ev_ext4_inode *ev = (const void *)h;
	char *k;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev) || !ev->ino)
		return 0;
	/* freed, or its number given to a new file: what the old one had is gone */
	file_drop(s, ev->ino);
	if (h->type != FSL_EV_EXT4_ALLOCATE_INODE)
		return 0;
	k = fsl_map__put(&s->modes, ev->ino, NULL);
	if (!k)
		return -ENOMEM;
	*k = (ev->mode & IM_S_IFMT) == IM_S_IFDIR ? 'd' :
	     (ev->mode & IM_S_IFMT) == IM_S_IFREG ? 'f' : '?';
	return 0;
}

struct an_indmap *an_indmap_new(struct an_ctx *c)
{
	struct an_indmap *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->files, sizeof(struct im_file));
	fsl_map__init(&s->modes, 1);
	fsl_map__init(&s->calls, sizeof(struct im_call));
	s->cons.name = "indmap";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_EXT4_IND_MAP_BLOCKS_ENTER] = on_enter;
	s->cons.handlers[FSL_EV_EXT4_IND_MAP_BLOCKS_EXIT] = on_exit_map;
	s->cons.handlers[FSL_EV_EXT4_ALLOCATE_BLOCKS] = on_allocate;
	s->cons.handlers[FSL_EV_EXT4_FREE_BLOCKS] = on_free_blocks;
	s->cons.handlers[FSL_EV_EXT4_ALLOCATE_INODE] = on_inode;
	s->cons.handlers[FSL_EV_EXT4_FREE_INODE] = on_inode;
	return s;
}

void an_indmap_free(struct an_indmap *s)
{
	struct im_file *f;
	size_t it = 0;

	if (!s)
		return;
	while ((f = fsl_map__next(&s->files, &it, NULL))) {
		free(f->ext);
		free(f->meta);
	}
	fsl_map__free(&s->files);
	fsl_map__free(&s->modes);
	fsl_map__free(&s->calls);
	free(s->br);
	free(s);
}

void an_indmap_reset(struct an_indmap *s)
{
	s->dirty = 1;	/* state: only the window's end moved */
}

struct fsl_consumer *an_indmap_consumer(struct an_indmap *s)
{
	return &s->cons;
}

/* ---- e2fsck's walk ---- */

struct walk {
	struct an_indmap *s;
	uint64_t ino;
	char kind;
	uint64_t prev;
	int err;
};

static void visit(struct walk *w, uint64_t blk, int64_t blkcnt)
{
	struct an_indmap *s = w->s;
	struct fsl_ind_break *b;

	if (w->prev && w->prev + 1 != blk && !w->err) {
		if (s->nbr == s->capbr) {
			size_t c = s->capbr ? 2 * s->capbr : 64;
			struct fsl_ind_break *p = realloc(s->br, c * sizeof(*p));

			if (!p) {
				w->err = -ENOMEM;
				return;
			}
			s->br = p;
			s->capbr = c;
		}
		b = &s->br[s->nbr++];
		b->ino = w->ino;
		b->kind = w->kind;
		b->expect = w->prev + 1;
		b->phys = blk;
		b->blkcnt = blkcnt;
		b->seq = (uint32_t)s->nbr;
	}
	w->prev = blk;
}

static const struct im_meta *meta_find(const struct im_file *f, uint64_t key)
{
	uint32_t i;

	for (i = 0; i < f->nm; i++)
		if (f->meta[i].key == key)
			return &f->meta[i];
	return NULL;
}

static int br_cmp(const void *x, const void *y)
{
	const struct fsl_ind_break *a = x, *b = y;

	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void compute(struct an_indmap *s)
{
	uint64_t p = ptrs(s), ino;
	struct im_file *f;
	size_t it = 0;

	if (!s->dirty)
		return;
	s->nbr = 0;
	s->nfiles = 0;
	while ((f = fsl_map__next(&s->files, &it, &ino))) {
		struct walk w = { s, ino, f->kind, 0, 0 };
		uint64_t shown[IM_METAS] = { 0 }, key[IM_METAS];
		uint32_t i;

		if (!f->n)
			continue;
		s->nfiles++;
		for (i = 0; i < f->n; i++) {
			const struct im_ext *x = &f->ext[i];
			uint64_t l = x->lblk, end = x->lblk + x->len;

			while (l < end) {
				unsigned int depth = path_of(p, l, key), d;
				uint64_t run = end - l;

				/* the indirect blocks on the way down not yet walked, top first */
				for (d = 0; d < depth; d++) {
					const struct im_meta *m;

					if (shown[d] == key[d] + 1)
						continue;
					shown[d] = key[d] + 1;
					memset(shown + d + 1, 0, (IM_METAS - d - 1) * sizeof(shown[0]));
					m = meta_find(f, key[d]);
					if (m)
						visit(&w, m->pblk, -(int64_t)(key[d] >> 56));
				}
				/* the data up to the end of this indirect block's range */
				if (depth) {
					uint64_t lim = (key[depth - 1] & ((1ull << 56) - 1)) + p;

					if (lim - l < run)
						run = lim - l;
				} else if (IM_DIRECT - l < run) {
					run = IM_DIRECT - l;
				}
				visit(&w, x->pblk + (l - x->lblk), (int64_t)l);
				w.prev = x->pblk + (l - x->lblk) + run - 1;
				l += run;
			}
		}
	}
	if (s->nbr)
		qsort(s->br, s->nbr, sizeof(*s->br), br_cmp);
	s->dirty = 0;
}

unsigned int an_indmap_breaks(struct an_indmap *s, const struct fsl_ind_break **out,
			      uint64_t *files)
{
	compute(s);
	*out = s->br;
	if (files)
		*files = s->nfiles;
	return (unsigned int)s->nbr;
}
