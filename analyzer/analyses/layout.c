// SPDX-License-Identifier: GPL-2.0
/*
 * Layout: each file's extents rebuilt from ext4_ext_map_blocks results (and
 * trimmed by frees), the breaks e2fsck -E fragcheck would print, and for each
 * break the allocation that holds the block the file expected: which inode,
 * when, through which path (delalloc writeback, its preallocation, the
 * small-file group preallocation, metadata).
 *
 * Layout is state, not a count: a window [t0, t1) sees the layout as of t1
 * (events after t1 are ignored), built from everything before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"
#include "fslens/model.h"

/* ext4 flags as the tracepoints report them (fs/ext4/ext4.h). */
#define AN_MAP_NEW		0x20	/* 1 << BH_New */
#define AN_MAP_MAPPED		0x10	/* 1 << BH_Mapped */
#define AN_MAP_UNWRITTEN	0x800	/* 1 << BH_Unwritten */
#define AN_MB_HINT_METADATA	0x0004
#define AN_MB_HINT_DATA		0x0020
#define AN_MB_HINT_GROUP_ALLOC	0x0080
#define AN_MB_DELALLOC_RESERVED	0x0400
#define AN_S_IFMT		0170000
#define AN_S_IFDIR		0040000
#define AN_S_IFREG		0100000

struct an_ext {
	uint64_t lblk, pblk, len;
	uint64_t ts;		/* when this mapping first appeared */
	uint8_t lookup;		/* seen only by lookups (not EXT4_MAP_NEW): predates the trace */
};

struct an_file {
	char kind;		/* 'f', 'd', '?' */
	uint8_t kind_known;	/* from the inode's mode */
	uint64_t nodata_pblk;	/* last allocation without EXT4_MB_HINT_DATA */
	uint32_t n, cap;
	struct an_ext *ext;	/* sorted by lblk, non-overlapping */
};

struct an_alloc {
	uint64_t pblk, len, ino, ts;
	uint8_t how;
	uint8_t nodata;		/* no EXT4_MB_HINT_DATA: extent tree or directory */
	uint64_t freed_ts;	/* nodata records: freed then (0: still held) */
};

/* A new inode or group preallocation: its range as created, who made it. */
struct an_pa {
	uint64_t pstart, len, ino, ts, released;
	uint8_t group;
};

/* One ext4_mballoc_alloc: what was asked, normalized, found and how. */
struct an_mb {
	uint64_t ino, ts;
	uint32_t lblk, olen;
	uint32_t ogroup, ngroup, rgroup;
	int32_t ostart, nstart, rstart;
	uint32_t nlen, rlen;
	uint32_t offer;		/* index in offers + 1 (0: none taken) */
	uint16_t groups;
	uint8_t cr;
};

/*
 * A preallocation a task's request just made: ext4_mb_new_*_pa comes before
 * that request's ext4_mballoc_alloc, so what the decision was offered is the
 * state without it.
 */
struct an_pa_new {
	uint64_t pstart, len;
};

struct an_layout_s;

struct an_layout {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map files;		/* ino -> an_file */
	struct fsl_map modes;		/* ino -> mode (from inode events) */
	struct fsl_map pa_hint;		/* tid -> how of the last prealloc use */
	struct fsl_map pa_new;		/* tid -> an_pa_new: made by the request under way */
	struct an_alloc *allocs;	/* every allocation seen, append order */
	size_t nallocs, cap_allocs;
	uint64_t max_alloc_len;		/* longest allocation: bounds the search back */
	struct an_alloc *metas;		/* allocations without HINT_DATA, append order */
	size_t nmetas, cap_metas;
	struct an_pa *pas;		/* preallocations, creation order */
	size_t npas, cap_pas;
	uint64_t max_pa_len;
	struct an_mb *mbs;		/* allocator decisions, time order */
	size_t nmbs, cap_mbs;
	/*
	 * The filesystem's free space in core as the events go (1 = in use):
	 * the recorded start bitmap, then allocations and new preallocations
	 * set, releases and frees clear. core_state 0 not read yet, 1 ready,
	 * -1 no start bitmap (no offers then).
	 */
	uint64_t *core;
	uint64_t core_first, core_bits;
	int core_state;
	struct fsl_goal_offer *offers;	/* for decisions that left their goal */
	size_t noffers, cap_offers;
	struct an_alloc *owners;	/* query: every file's extents at the end, by pblk */
	size_t nowners, cap_owners;
	struct fsl_break_pos pos;
	/* query results */
	struct fsl_frag_break *breaks;
	size_t nbreaks, cap_breaks;
	uint64_t nfiles, nfrag;
	int dirty;
	/* readdir streams: (pid << 32 | fd) -> an_rd_stream while open */
	struct fsl_map rd_open;
	struct fsl_map rd_paths;		/* (pid << 32 | fd) -> an_rd_path */
	struct fsl_readdir_dir *rd_done, *rd_out;
	size_t nrd_done, cap_rd_done, nrd_out;
	struct fsl_readdir_dir rd_total;
	struct fsl_map rd_blocks;		/* inode-table blocks of ended streams (a set) */
	int rd_geometry;
};

struct an_rd_stream {
	uint32_t pid;
	int32_t fd;
	uint64_t ts;
	uint64_t *ino;
	uint32_t n, cap;
	uint32_t flags;
	char path[64];
};

/* The path an fd of a process was last opened with (its tail if long). */
struct an_rd_path {
	char path[64];
};

const char *fsl_alloc_how_name(unsigned int how)
{
	static const char *const n[] = {
		"unknown", "writeback", "direct", "inode_pa", "group_pa", "metadata",
	};

	return how < sizeof(n) / sizeof(n[0]) ? n[how] : "?";
}

const char *fsl_taker_kind_name(unsigned int kind)
{
	static const char *const n[] = {
		"unknown", "file", "extent_tree", "superblock_backup", "group_descriptors",
		"reserved_gdt", "block_bitmap", "inode_bitmap", "inode_table", "free",
	};

	return kind < sizeof(n) / sizeof(n[0]) ? n[kind] : "?";
}

/* Grow *p (elements of size sz) to hold one more; -ENOMEM. */
static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 256;
	q = realloc(*p, c * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

static struct an_file *file_get(struct an_layout *s, uint64_t ino)
{
	int fresh;
	struct an_file *f = fsl_map__put(&s->files, ino, &fresh);

	if (f && fresh) {
		uint64_t *mode = fsl_map__get(&s->modes, ino);

		f->kind = 'f';
		f->kind_known = mode && (*mode & AN_S_IFMT);
		if (mode && (*mode & AN_S_IFMT) == AN_S_IFDIR)
			f->kind = 'd';
		else if (mode && (*mode & AN_S_IFMT) && (*mode & AN_S_IFMT) != AN_S_IFREG)
			f->kind = '?';
	}
	return f;
}

static int ext_reserve(struct an_file *f, uint32_t more)
{
	struct an_ext *n;
	uint32_t cap;

	if (f->n + more <= f->cap)
		return 0;
	cap = f->cap ? f->cap * 2 : 4;
	while (cap < f->n + more)
		cap *= 2;
	n = realloc(f->ext, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->ext = n;
	f->cap = cap;
	return 0;
}

/* Index of the last extent starting at or before l (0 if none). */
static uint32_t ext_find(const struct an_file *f, uint64_t l)
{
	uint32_t lo = 0, hi = f->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (f->ext[mid].lblk <= l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* Remove logical range [l, l+len) from f (splitting extents as needed). */
static int ext_punch_logical(struct an_file *f, uint64_t l, uint64_t len)
{
	uint32_t i;
	uint64_t e = l + len;

	for (i = ext_find(f, l); i < f->n; i++) {
		struct an_ext *x = &f->ext[i];
		uint64_t xe = x->lblk + x->len;

		if (x->lblk >= e)
			break;
		if (xe <= l)
			continue;
		if (x->lblk < l && xe > e) {	/* split in two */
			if (ext_reserve(f, 1))
				return -ENOMEM;
			x = &f->ext[i];
			memmove(&f->ext[i + 2], &f->ext[i + 1], (f->n - i - 1) * sizeof(*x));
			f->ext[i + 1] = *x;
			f->ext[i + 1].pblk += e - x->lblk;
			f->ext[i + 1].len = xe - e;
			f->ext[i + 1].lblk = e;
			x->len = l - x->lblk;
			f->n++;
			return 0;
		}
		if (x->lblk < l) {
			x->len = l - x->lblk;
		} else if (xe > e) {
			x->pblk += e - x->lblk;
			x->len = xe - e;
			x->lblk = e;
		} else {
			memmove(x, x + 1, (f->n - i - 1) * sizeof(*x));
			f->n--;
			i--;
		}
	}
	return 0;
}

/* Add mapping l -> p for len blocks, replacing whatever mapped there. */
static int ext_add(struct an_file *f, uint64_t l, uint64_t p, uint64_t len, uint64_t ts,
		   uint8_t lookup)
{
	uint32_t i;

	/* Already known exactly (a lookup of an existing mapping)? */
	i = ext_find(f, l);
	if (i < f->n) {
		struct an_ext *x = &f->ext[i];

		if (l >= x->lblk && l + len <= x->lblk + x->len && p == x->pblk + (l - x->lblk))
			return 0;
	}
	/* The common case: the file grows at its end, contiguously. */
	if (f->n && l == f->ext[f->n - 1].lblk + f->ext[f->n - 1].len &&
	    p == f->ext[f->n - 1].pblk + f->ext[f->n - 1].len) {
		f->ext[f->n - 1].len += len;
		f->ext[f->n - 1].lookup &= lookup;
		return 0;
	}
	if (ext_punch_logical(f, l, len) || ext_reserve(f, 1))
		return -ENOMEM;
	for (i = ext_find(f, l); i < f->n && f->ext[i].lblk < l; i++)
		;
	memmove(&f->ext[i + 1], &f->ext[i], (f->n - i) * sizeof(f->ext[0]));
	f->ext[i] = (struct an_ext){ l, p, len, ts, lookup };
	f->n++;
	/* Merge with neighbours contiguous logically and physically. */
	if (i + 1 < f->n && f->ext[i].lblk + f->ext[i].len == f->ext[i + 1].lblk &&
	    f->ext[i].pblk + f->ext[i].len == f->ext[i + 1].pblk) {
		f->ext[i].len += f->ext[i + 1].len;
		f->ext[i].lookup &= f->ext[i + 1].lookup;
		memmove(&f->ext[i + 1], &f->ext[i + 2], (f->n - i - 2) * sizeof(f->ext[0]));
		f->n--;
	}
	if (i > 0 && f->ext[i - 1].lblk + f->ext[i - 1].len == f->ext[i].lblk &&
	    f->ext[i - 1].pblk + f->ext[i - 1].len == f->ext[i].pblk) {
		f->ext[i - 1].len += f->ext[i].len;
		f->ext[i - 1].lookup &= f->ext[i].lookup;
		memmove(&f->ext[i], &f->ext[i + 1], (f->n - i - 1) * sizeof(f->ext[0]));
		f->n--;
	}
	return 0;
}

/* Remove physical range [p, p+count) from f. */
static int ext_free_phys(struct an_file *f, uint64_t p, uint64_t count)
{
	uint32_t i;

	for (i = 0; i < f->n; i++) {
		struct an_ext *x = &f->ext[i];
		uint64_t lo = p > x->pblk ? p : x->pblk;
		uint64_t hi = p + count < x->pblk + x->len ? p + count : x->pblk + x->len;

		if (lo >= hi)
			continue;
		if (ext_punch_logical(f, x->lblk + (lo - x->pblk), hi - lo))
			return -ENOMEM;
		i = (uint32_t)-1;	/* the array changed: rescan */
	}
	return 0;
}

static int in_window_end(struct an_layout *s, uint64_t ts)
{
	return !s->c->win.t1 || ts < s->c->win.t1;
}

static int on_map(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_map_blocks *ev = (const void *)h;
	struct an_file *f;

	if (!in_window_end(s, h->ts) || ev->ret <= 0 || !ev->pblk ||
	    !(ev->mflags & (AN_MAP_MAPPED | AN_MAP_UNWRITTEN)))
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	f = file_get(s, ev->ino);
	if (!f)
		return -ENOMEM;
	s->dirty = 1;
	/*
	 * ext4 asks the allocator for data blocks with EXT4_MB_HINT_DATA only
	 * for regular files: a mapped block allocated without it belongs to a
	 * directory (the inode's mode is unknown if it predates the trace).
	 */
	if (!f->kind_known && f->nodata_pblk && f->nodata_pblk == ev->pblk)
		f->kind = 'd';
	return ext_add(f, ev->lblk, ev->pblk, (uint64_t)ev->ret, h->ts, !(ev->mflags & AN_MAP_NEW));
}

static int on_prealloc(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	uint8_t *how = fsl_map__put(&s->pa_hint, h->tid, NULL);

	if (!how)
		return -ENOMEM;
	*how = FSL_HOW_INODE_PA;	/* refined by the allocation's flags */
	return 0;
}

/* ---- free space in core, for what a goal group offered ---- */

/* Build the in-core bitmap from the recorded start bitmap (once). */
static int core_ready(struct an_layout *s)
{
	const struct fsl_meta *m = s->c->meta;
	const struct fsl_bitmap *b;
	uint64_t pos, i, k;

	if (s->core_state)
		return s->core_state > 0;
	s->core_state = -1;
	b = m && m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK, FSL_BITMAP_START) : NULL;
	if (!b || !b->nbits)
		return 0;
	s->core = calloc((b->nbits + 63) / 64, sizeof(*s->core));
	if (!s->core)
		return 0;
	s->core_first = b->first;
	s->core_bits = b->nbits;
	for (pos = 0, i = 0; i < b->nruns; pos += b->runs[i++]) {
		if (!(i & 1))
			continue;	/* runs alternate free, used, free... */
		for (k = pos; k < pos + b->runs[i] && k < b->nbits; k++)
			s->core[k / 64] |= 1ull << (k % 64);
	}
	s->core_state = 1;
	return 1;
}

static void core_mark(struct an_layout *s, uint64_t blk, uint64_t len, int used)
{
	uint64_t k, e;

	if (!core_ready(s) || blk < s->core_first)
		return;
	k = blk - s->core_first;
	e = k + len < s->core_bits ? k + len : s->core_bits;
	for (; k < e; k++) {
		if (used)
			s->core[k / 64] |= 1ull << (k % 64);
		else
			s->core[k / 64] &= ~(1ull << (k % 64));
	}
}

static int core_used(const struct an_layout *s, uint64_t k)
{
	return (s->core[k / 64] >> (k % 64)) & 1;
}

/* From bit k (< end), the first bit equal to v, or end. */
static uint64_t core_next(const struct an_layout *s, uint64_t k, uint64_t end, int v)
{
	while (k < end) {
		uint64_t w = s->core[k / 64];

		w = (v ? w : ~w) >> (k % 64);
		if (w) {
			k += (uint64_t)__builtin_ctzll(w);
			return k < end ? k : end;
		}
		k = (k / 64 + 1) * 64;
	}
	return end;
}

/*
 * What group grp offered a request with goal `goal` normalized to
 * [nstart, nstart + nlen): its free extents as they are now, before the
 * decision's own blocks are marked (ext4_mballoc_alloc comes first).
 */
static void core_offer(const struct an_layout *s, const struct fsl_ext4_geometry *g, uint32_t grp,
		       uint64_t goal, uint64_t nstart, uint64_t nlen, struct fsl_goal_offer *o)
{
	uint64_t gs = (uint64_t)grp * g->blocks_per_group + g->first_data_block;
	uint64_t ge = gs + g->blocks_per_group, k, e, d, dist[3];
	unsigned int i, j;

	memset(o, 0, sizeof(*o));
	if (gs < s->core_first || ge - s->core_first > s->core_bits || goal < gs || goal >= ge)
		return;
	o->have = 1;
	o->group = grp;
	gs -= s->core_first;
	ge -= s->core_first;
	goal -= s->core_first;
	o->goal_free = !core_used(s, goal);
	for (k = core_next(s, gs, ge, 0); k < ge; k = core_next(s, e, ge, 0)) {
		e = core_next(s, k, ge, 1);
		o->free += e - k;
		o->extents++;
		if (e - k > o->largest_len) {
			o->largest_start = k + s->core_first;
			o->largest_len = e - k;
		}
		d = goal < k ? k - goal : goal >= e ? goal - (e - 1) : 0;
		for (i = 0; i < o->nnear && dist[i] <= d; i++)
			;
		if (i >= 3)
			continue;
		for (j = o->nnear < 3 ? o->nnear++ : 2; j > i; j--) {
			dist[j] = dist[j - 1];
			o->near_start[j] = o->near_start[j - 1];
			o->near_len[j] = o->near_len[j - 1];
		}
		dist[i] = d;
		o->near_start[i] = k + s->core_first;
		o->near_len[i] = e - k;
	}
	if (nstart >= gs + s->core_first && nstart < ge + s->core_first) {
		k = nstart - s->core_first;
		o->at_norm = core_used(s, k) ? 0 : core_next(s, k, ge, 1) - k;
	}
	o->fit_at_goal = nlen && o->at_norm >= nlen;
	o->fit_in_group = nlen && o->largest_len >= nlen;
}

static int add_alloc(struct an_layout *s, uint64_t pblk, uint64_t len, uint64_t ino, uint64_t ts,
		     uint8_t how, uint8_t nodata)
{
	struct an_alloc *a = s->nallocs ? &s->allocs[s->nallocs - 1] : NULL;

	if (nodata) {
		if (grow((void **)&s->metas, &s->cap_metas, s->nmetas, sizeof(*s->metas)))
			return -ENOMEM;
		s->metas[s->nmetas++] = (struct an_alloc){ pblk, len, ino, ts, how, 1, 0 };
		s->dirty = 1;
		return 0;
	}
	/* A file growing block after block stays one record. */
	if (a && a->ino == ino && a->how == how && a->pblk + a->len == pblk) {
		a->len += len;
		if (a->len > s->max_alloc_len)
			s->max_alloc_len = a->len;
		s->dirty = 1;
		return 0;
	}
	if (s->nallocs == s->cap_allocs) {
		size_t cap = s->cap_allocs ? s->cap_allocs * 2 : 256;
		struct an_alloc *n = realloc(s->allocs, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->allocs = n;
		s->cap_allocs = cap;
	}
	a = &s->allocs[s->nallocs++];
	if (len > s->max_alloc_len)
		s->max_alloc_len = len;
	a->pblk = pblk;
	a->len = len;
	a->ino = ino;
	a->ts = ts;
	a->how = how;
	a->nodata = nodata;
	a->freed_ts = 0;
	s->dirty = 1;
	return 0;
}

static int on_allocate(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_alloc_blocks *ev = (const void *)h;
	uint8_t *pa = fsl_map__get(&s->pa_hint, h->tid);
	uint8_t how;

	if (!in_window_end(s, h->ts) || !ev->len || !ev->block)
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	/*
	 * Which preallocation served it is decided at query time from the
	 * preallocations covering the block (ar->flags, which the tracepoint
	 * prints, never carries the locality-group bit: that is set on the
	 * allocation context only).
	 */
	if (ev->flags & AN_MB_HINT_METADATA)
		how = FSL_HOW_METADATA;
	else if (pa)
		how = (ev->flags & AN_MB_HINT_GROUP_ALLOC) ? FSL_HOW_GROUP_PA : FSL_HOW_INODE_PA;
	else if (ev->flags & AN_MB_HINT_GROUP_ALLOC)
		how = FSL_HOW_GROUP_PA;
	else if (ev->flags & AN_MB_DELALLOC_RESERVED)
		how = FSL_HOW_WRITEBACK;
	else
		how = FSL_HOW_DIRECT;
	if (add_alloc(s, ev->block, ev->len, ev->ino, h->ts, how,
		      !(ev->flags & AN_MB_HINT_DATA)))
		return -ENOMEM;
	core_mark(s, ev->block, ev->len, 1);
	fsl_map__del(&s->pa_new, h->tid);	/* the request is done */
	if (pa)
		fsl_map__del(&s->pa_hint, h->tid);
	if (!(ev->flags & (AN_MB_HINT_DATA | AN_MB_HINT_METADATA))) {
		struct an_file *f = file_get(s, ev->ino);

		if (!f)
			return -ENOMEM;
		f->nodata_pblk = ev->block;
	}
	s->dirty = 1;
	return 0;
}

/* A new inode or group preallocation reserves its range; its creator is ev->ino. */
static int on_new_pa(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_pa *ev = (const void *)h;
	struct an_pa *pa;

	if (!in_window_end(s, h->ts) || !ev->pa_len || !ev->pa_pstart)
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	if (grow((void **)&s->pas, &s->cap_pas, s->npas, sizeof(*s->pas)))
		return -ENOMEM;
	pa = &s->pas[s->npas++];
	pa->pstart = ev->pa_pstart;
	pa->len = ev->pa_len;
	pa->ino = ev->ino;
	pa->ts = h->ts;
	pa->released = 0;
	pa->group = h->type == FSL_EV_EXT4_MB_NEW_GROUP_PA;
	if (pa->len > s->max_pa_len)
		s->max_pa_len = pa->len;
	/* in core a preallocation is in use whole until released (mb_mark_used) */
	core_mark(s, pa->pstart, pa->len, 1);
	if (s->core_state > 0) {
		struct an_pa_new *pn = fsl_map__put(&s->pa_new, h->tid, NULL);

		if (!pn)
			return -ENOMEM;
		pn->pstart = pa->pstart;
		pn->len = pa->len;
	}
	s->dirty = 1;
	return 0;
}

/*
 * A released preallocation gives back what is left of it (its pstart has
 * moved on as it was used): the live one of that kind containing pstart.
 */
static int on_release_pa(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_pa *ev = (const void *)h;
	uint8_t group = h->type == FSL_EV_EXT4_MB_RELEASE_GROUP_PA;
	size_t i;

	if (!in_window_end(s, h->ts) || !ev->pa_pstart)
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	/* the range given back: a group PA's unused tail, an inode PA's free runs */
	core_mark(s, ev->pa_pstart, ev->pa_len, 0);
	for (i = s->npas; i-- > 0;) {
		struct an_pa *pa = &s->pas[i];

		if (!pa->released && pa->group == group && ev->pa_pstart >= pa->pstart &&
		    ev->pa_pstart <= pa->pstart + pa->len) {
			pa->released = h->ts;
			s->dirty = 1;
			break;
		}
	}
	return 0;
}

/*
 * A decision that did not continue its file where the previous logical block
 * lies (a break to be): what its goal group offered, kept for the query.
 */
static int mb_offer(struct an_layout *s, struct an_mb *m, uint16_t flags, uint32_t tid)
{
	struct fsl_ext4_geometry g;
	const struct an_file *f;
	const struct an_ext *x;
	uint64_t expect, res, goal, nstart, k;
	struct fsl_goal_offer *o;

	const struct an_pa_new *pn;

	if (!m->lblk || m->ostart < 0 || m->rstart < 0 || !core_ready(s))
		return 0;
	f = fsl_map__get(&s->files, m->ino);
	if (!f || !f->n)
		return 0;
	x = &f->ext[ext_find(f, m->lblk - 1)];
	if (x->lblk > m->lblk - 1 || x->lblk + x->len <= m->lblk - 1)
		return 0;
	fsl_meta__ext4_geometry(s->c->meta, &g);
	if (!g.blocks_per_group)
		return 0;
	expect = x->pblk + (m->lblk - x->lblk);
	res = (uint64_t)m->rgroup * g.blocks_per_group + g.first_data_block + (uint64_t)m->rstart;
	if (res == expect)
		return 0;
	goal = (uint64_t)m->ogroup * g.blocks_per_group + g.first_data_block + (uint64_t)m->ostart;
	/* a normalized start of -1: the trace does not say where (from the goal then) */
	nstart = m->nstart < 0 ? goal : (uint64_t)m->ngroup * g.blocks_per_group +
					 g.first_data_block + (uint64_t)m->nstart;
	if (grow((void **)&s->offers, &s->cap_offers, s->noffers, sizeof(*s->offers)))
		return -ENOMEM;
	o = &s->offers[s->noffers];
	pn = fsl_map__get(&s->pa_new, tid);
	if (pn)
		core_mark(s, pn->pstart, pn->len, 0);
	core_offer(s, &g, m->ogroup, goal, nstart, m->nlen, o);
	o->norm_known = m->nstart >= 0;
	if (!o->have || res < s->core_first) {
		if (pn)
			core_mark(s, pn->pstart, pn->len, 1);
		return 0;
	}
	o->goal_tried = !!(flags & FSL_MB_HINT_TRY_GOAL);
	o->result_len = m->rlen;
	for (k = res - s->core_first; k < res - s->core_first + m->rlen && k < s->core_bits; k++)
		o->result_free += !core_used(s, k);
	if (pn)
		core_mark(s, pn->pstart, pn->len, 1);
	m->offer = (uint32_t)++s->noffers;
	return 0;
}

static int on_mballoc(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_mballoc_alloc *ev = (const void *)h;
	struct an_mb *m;

	if (!in_window_end(s, h->ts) || ev->result_len <= 0)
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	if (grow((void **)&s->mbs, &s->cap_mbs, s->nmbs, sizeof(*s->mbs)))
		return -ENOMEM;
	m = &s->mbs[s->nmbs++];
	m->ino = ev->ino;
	m->ts = h->ts;
	m->lblk = ev->orig_logical;
	m->olen = ev->orig_len > 0 ? (uint32_t)ev->orig_len : 0;
	m->ogroup = ev->orig_group;
	m->ostart = ev->orig_start;
	m->ngroup = ev->goal_group;
	m->nstart = ev->goal_start;
	m->nlen = ev->goal_len > 0 ? (uint32_t)ev->goal_len : 0;
	m->rgroup = ev->result_group;
	m->rstart = ev->result_start;
	m->rlen = (uint32_t)ev->result_len;
	m->cr = ev->cr;
	m->groups = ev->groups;
	m->offer = 0;
	return mb_offer(s, m, ev->flags, h->tid);
}

static int on_free_blocks(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_free_blocks *ev = (const void *)h;
	struct an_file *f;

	size_t i;

	if (!in_window_end(s, h->ts))
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev)
		return 0;
	/*
	 * Free for the offers from now (the kernel's buddy takes them back only
	 * when the freeing transaction commits: an offer after a free and before
	 * that commit counts them free too early).
	 */
	core_mark(s, ev->block, ev->count, 0);
	/* an extent-tree block freed: no longer that inode's (few records, newest last) */
	for (i = s->nmetas; i-- > 0;) {
		struct an_alloc *a = &s->metas[i];

		if (a->nodata && !a->freed_ts && a->ino == ev->ino && a->pblk < ev->block + ev->count &&
		    ev->block < a->pblk + a->len) {
			a->freed_ts = h->ts;
			s->dirty = 1;
		}
	}
	f = fsl_map__get(&s->files, ev->ino);
	if (!f)
		return 0;
	s->dirty = 1;
	return ext_free_phys(f, ev->block, ev->count);
}

static int on_inode(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_ext4_inode *ev = (const void *)h;
	struct an_file *f;
	uint64_t *mode;

	if (!in_window_end(s, h->ts) || !ev->ino)
		return 0;
	if (h->type == FSL_EV_EXT4_FREE_INODE) {
		f = fsl_map__get(&s->files, ev->ino);
		if (f) {
			free(f->ext);
			fsl_map__del(&s->files, ev->ino);
			s->dirty = 1;
		}
		fsl_map__del(&s->modes, ev->ino);
		return 0;
	}
	if (h->type != FSL_EV_EXT4_ALLOCATE_INODE || !ev->mode)
		return 0;
	mode = fsl_map__put(&s->modes, ev->ino, NULL);
	if (!mode)
		return -ENOMEM;
	*mode = ev->mode;
	f = fsl_map__get(&s->files, ev->ino);
	if (f) {
		f->kind = (ev->mode & AN_S_IFMT) == AN_S_IFDIR ? 'd' : 'f';
		f->kind_known = 1;
	}
	return 0;
}

/* ------------------------------------------------------ readdir order */

static uint64_t rd_key(uint32_t pid, int32_t fd)
{
	return (uint64_t)pid << 32 | (uint32_t)fd;
}

/* Inode size / block size from the trace, 0 if unknown. */
static void rd_geometry(const struct an_layout *s, uint64_t *isz, uint64_t *bsz)
{
	struct fsl_ext4_geometry g;

	fsl_meta__ext4_geometry(s->c->meta, &g);
	*isz = g.inode_size;
	*bsz = g.block_size;
	if (!*isz || !*bsz)
		*isz = *bsz = 0;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static uint64_t udist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* Walk blocks blk[0..n) in order: changes, travel, first-touch travel. */
static void rd_cost(const uint64_t *blk, uint32_t n, const uint64_t *uniq, uint32_t nu,
		    uint8_t *seen, struct fsl_readdir_cost *c)
{
	uint64_t last_first = 0;
	int have_first = 0;
	uint32_t i;

	memset(c, 0, sizeof(*c));
	memset(seen, 0, nu);
	for (i = 0; i < n; i++) {
		const uint64_t *u = bsearch(&blk[i], uniq, nu, sizeof(*uniq), u64_cmp);

		if (i && blk[i] != blk[i - 1]) {
			c->changes++;
			c->travel += udist(blk[i], blk[i - 1]);
		}
		if (u && !seen[u - uniq]) {
			seen[u - uniq] = 1;
			if (have_first) {
				c->first_travel += udist(blk[i], last_first);
				c->backward += blk[i] < last_first;
			}
			last_first = blk[i];
			have_first = 1;
		}
	}
}

/* The figures of one stream; -ENOMEM on allocation failure. */
static int rd_summarise(const struct an_layout *s, const struct an_rd_stream *st,
			struct fsl_readdir_dir *d)
{
	uint64_t isz, bsz, *blk = NULL, *sorted = NULL, *uniq = NULL;
	uint8_t *seen = NULL;
	uint32_t i, nu = 0;
	int err = 0;

	memset(d, 0, sizeof(*d));
	d->pid = st->pid;
	d->fd = st->fd;
	d->ts = st->ts;
	d->flags = st->flags;
	memcpy(d->path, st->path, sizeof(d->path));
	d->entries = st->n;
	d->pairs = st->n ? st->n - 1 : 0;
	for (i = 1; i < st->n; i++)
		d->ascending += st->ino[i] > st->ino[i - 1];
	rd_geometry(s, &isz, &bsz);
	if (!bsz || !st->n)
		return 0;
	blk = malloc(st->n * sizeof(*blk));
	sorted = malloc(st->n * sizeof(*sorted));
	uniq = malloc(st->n * sizeof(*uniq));
	seen = malloc(st->n);
	if (!blk || !sorted || !uniq || !seen) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < st->n; i++)
		blk[i] = st->ino[i] ? (st->ino[i] - 1) * isz / bsz : 0;
	memcpy(sorted, st->ino, st->n * sizeof(*sorted));
	qsort(sorted, st->n, sizeof(*sorted), u64_cmp);
	for (i = 0; i < st->n; i++)
		sorted[i] = sorted[i] ? (sorted[i] - 1) * isz / bsz : 0;
	for (i = 0; i < st->n; i++)
		if (!nu || uniq[nu - 1] != sorted[i])
			uniq[nu++] = sorted[i];
	d->blocks = nu;
	rd_cost(blk, st->n, uniq, nu, seen, &d->rd);
	rd_cost(sorted, st->n, uniq, nu, seen, &d->io);
out:
	free(blk);
	free(sorted);
	free(uniq);
	free(seen);
	return err;
}

/* Add the inode-table blocks of st to set (keys are block + 1); 0 or -ENOMEM. */
static int rd_add_blocks(const struct an_layout *s, const struct an_rd_stream *st,
			 struct fsl_map *set)
{
	uint64_t isz, bsz;
	uint32_t i;

	rd_geometry(s, &isz, &bsz);
	if (!bsz)
		return 0;
	for (i = 0; i < st->n; i++)
		if (st->ino[i] && !fsl_map__put(set, (st->ino[i] - 1) * isz / bsz + 1, NULL))
			return -ENOMEM;
	return 0;
}

/* The stream ended (end of directory or fd reused): keep its figures. */
static int rd_close(struct an_layout *s, uint64_t key)
{
	struct an_rd_stream *st = fsl_map__get(&s->rd_open, key);
	int err = 0;

	if (!st)
		return 0;
	if (st->n) {
		if (s->nrd_done == s->cap_rd_done) {
			size_t cap = s->cap_rd_done ? s->cap_rd_done * 2 : 16;
			struct fsl_readdir_dir *n = realloc(s->rd_done, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			s->rd_done = n;
			s->cap_rd_done = cap;
		}
		err = rd_summarise(s, st, &s->rd_done[s->nrd_done]);
		if (!err)
			s->nrd_done++;
		if (!err)
			err = rd_add_blocks(s, st, &s->rd_blocks);
	}
	free(st->ino);
	fsl_map__del(&s->rd_open, key);
	s->dirty = 1;
	return err;
}

static int on_dirents(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_dirents *ev = (const void *)h;
	struct an_rd_stream *st;
	uint32_t n, i;
	int fresh;

	if (!in_window_end(s, h->ts) || h->size < sizeof(*ev))
		return 0;
	n = ev->count;
	if (n > (h->size - sizeof(*ev)) / 8)
		n = (h->size - sizeof(*ev)) / 8;
	st = fsl_map__put(&s->rd_open, rd_key(h->pid, ev->fd), &fresh);
	if (!st)
		return -ENOMEM;
	if (fresh) {
		const struct an_rd_path *p = fsl_map__get(&s->rd_paths, rd_key(h->pid, ev->fd));

		memset(st, 0, sizeof(*st));
		st->pid = h->pid;
		st->fd = ev->fd;
		st->ts = h->ts;
		if (p)
			memcpy(st->path, p->path, sizeof(st->path));
	}
	if (st->n + n > st->cap) {
		uint32_t cap = st->cap ? st->cap : 256;
		uint64_t *p;

		while (cap < st->n + n)
			cap *= 2;
		p = realloc(st->ino, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		st->ino = p;
		st->cap = cap;
	}
	for (i = 0; i < n; i++)
		st->ino[st->n++] = ev->ino[i];
	st->flags |= ev->flags;
	s->dirty = 1;
	return 0;
}

/* A readdir returning 0 ends its stream; an open returning fd reuses fd. */
static int on_dirop(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_layout *s = cons->priv;
	const struct fsl_ev_dirop *op = (const void *)h;

	if (!in_window_end(s, h->ts) || h->size < sizeof(*op))
		return 0;
	if (op->op == FSL_OP_READDIR && op->ret <= 0)
		return rd_close(s, rd_key(h->pid, op->fd));
	if ((op->op == FSL_OP_OPEN || op->op == FSL_OP_CREATE) && op->ret >= 0) {
		uint64_t key = rd_key(h->pid, (int32_t)op->ret);
		size_t len = op->path_len, room = h->size - sizeof(*op), skip;
		struct an_rd_path *p;
		int err = rd_close(s, key);

		if (err)
			return err;
		if (len > room)
			len = room;
		p = fsl_map__put(&s->rd_paths, key, NULL);
		if (!p)
			return -ENOMEM;
		/* keep the tail: the directory's own name is at the end */
		skip = len >= sizeof(p->path) ? len - (sizeof(p->path) - 1) : 0;
		memcpy(p->path, op->paths + skip, len - skip);
		p->path[len - skip] = 0;
		fsl_text_sanitize(p->path);	/* printed by the reports */
	}
	return 0;
}

static int rd_entries_cmp(const void *x, const void *y)
{
	const struct fsl_readdir_dir *a = x, *b = y;

	if (a->entries != b->entries)
		return a->entries > b->entries ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static void cost_add(struct fsl_readdir_cost *t, const struct fsl_readdir_cost *c)
{
	t->changes += c->changes;
	t->travel += c->travel;
	t->first_travel += c->first_travel;
	t->backward += c->backward;
}

/* Finished streams plus the still open ones, as of now. */
static void rd_compute(struct an_layout *s)
{
	struct fsl_readdir_dir *t = &s->rd_total;
	size_t n = s->nrd_done + s->rd_open.n, i, it = 0;
	struct an_rd_stream *st;
	struct fsl_map extra;
	uint64_t isz, bsz;

	rd_geometry(s, &isz, &bsz);
	s->rd_geometry = bsz != 0;
	free(s->rd_out);
	s->rd_out = NULL;
	s->nrd_out = 0;
	memset(t, 0, sizeof(*t));
	if (!n || !(s->rd_out = calloc(n, sizeof(*s->rd_out))))
		return;
	if (s->nrd_done)	/* rd_done is NULL until a directory read is done */
		memcpy(s->rd_out, s->rd_done, s->nrd_done * sizeof(*s->rd_out));
	s->nrd_out = s->nrd_done;
	fsl_map__init(&extra, 1);
	while ((st = fsl_map__next(&s->rd_open, &it, NULL))) {
		uint32_t k;

		if (!st->n || rd_summarise(s, st, &s->rd_out[s->nrd_out]))
			continue;
		s->rd_out[s->nrd_out++].flags |= FSL_READDIR_OPEN;
		for (k = 0; bsz && k < st->n; k++) {
			uint64_t key = st->ino[k] ? (st->ino[k] - 1) * isz / bsz + 1 : 0;

			if (key && !fsl_map__get(&s->rd_blocks, key))
				fsl_map__put(&extra, key, NULL);
		}
	}
	/* distinct over all streams: a block two streams visit counts once */
	t->blocks = s->rd_blocks.n + extra.n;
	fsl_map__free(&extra);
	qsort(s->rd_out, s->nrd_out, sizeof(*s->rd_out), rd_entries_cmp);
	for (i = 0; i < s->nrd_out; i++) {
		const struct fsl_readdir_dir *d = &s->rd_out[i];

		t->entries += d->entries;
		t->pairs += d->pairs;
		t->ascending += d->ascending;
		t->flags |= d->flags;
		cost_add(&t->rd, &d->rd);
		cost_add(&t->io, &d->io);
	}
}

unsigned int fsl_layout__readdir(const struct fsl_layout *l, const struct fsl_readdir_dir **out,
				 struct fsl_readdir_dir *total, int *geometry)
{
	const struct an_layout *s = (const void *)l;

	*out = s->rd_out;
	if (total)
		*total = s->rd_total;
	if (geometry)
		*geometry = s->rd_geometry;
	return s->nrd_out;
}

struct an_layout *an_layout_new(struct an_ctx *c)
{
	struct an_layout *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->files, sizeof(struct an_file));
	fsl_map__init(&s->modes, sizeof(uint64_t));
	fsl_map__init(&s->pa_hint, sizeof(uint8_t));
	fsl_map__init(&s->pa_new, sizeof(struct an_pa_new));
	s->cons.name = "layout";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT] = on_map;
	s->cons.handlers[FSL_EV_EXT4_ALLOCATE_BLOCKS] = on_allocate;
	s->cons.handlers[FSL_EV_EXT4_MBALLOC_PREALLOC] = on_prealloc;
	s->cons.handlers[FSL_EV_EXT4_FREE_BLOCKS] = on_free_blocks;
	s->cons.handlers[FSL_EV_EXT4_MB_NEW_INODE_PA] = on_new_pa;
	s->cons.handlers[FSL_EV_EXT4_MB_NEW_GROUP_PA] = on_new_pa;
	s->cons.handlers[FSL_EV_EXT4_MB_RELEASE_INODE_PA] = on_release_pa;
	s->cons.handlers[FSL_EV_EXT4_MB_RELEASE_GROUP_PA] = on_release_pa;
	s->cons.handlers[FSL_EV_EXT4_MBALLOC_ALLOC] = on_mballoc;
	s->cons.handlers[FSL_EV_EXT4_ALLOCATE_INODE] = on_inode;
	s->cons.handlers[FSL_EV_EXT4_FREE_INODE] = on_inode;
	s->cons.handlers[FSL_EV_DIRENTS] = on_dirents;
	s->cons.handlers[FSL_EV_DIROP] = on_dirop;
	fsl_map__init(&s->rd_open, sizeof(struct an_rd_stream));
	fsl_map__init(&s->rd_paths, sizeof(struct an_rd_path));
	fsl_map__init(&s->rd_blocks, 1);
	return s;
}

void an_layout_free(struct an_layout *s)
{
	struct an_rd_stream *st;
	struct an_file *f;
	size_t it = 0;

	if (!s)
		return;
	while ((f = fsl_map__next(&s->files, &it, NULL)))
		free(f->ext);
	fsl_map__free(&s->files);
	fsl_map__free(&s->modes);
	fsl_map__free(&s->pa_hint);
	fsl_map__free(&s->pa_new);
	it = 0;
	while ((st = fsl_map__next(&s->rd_open, &it, NULL)))
		free(st->ino);
	fsl_map__free(&s->rd_open);
	fsl_map__free(&s->rd_paths);
	fsl_map__free(&s->rd_blocks);
	free(s->rd_done);
	free(s->rd_out);
	free(s->allocs);
	free(s->metas);
	free(s->pas);
	free(s->mbs);
	free(s->core);
	free(s->offers);
	free(s->owners);
	free(s->breaks);
	free(s);
}

void an_layout_reset(struct an_layout *s)
{
	s->dirty = 1;	/* state carries over; only the end of the window moved */
}

struct fsl_consumer *an_layout_consumer(struct an_layout *s)
{
	return &s->cons;
}

static int alloc_cmp(const void *x, const void *y)
{
	const struct an_alloc *a = x, *b = y;

	if (a->pblk != b->pblk)
		return a->pblk < b->pblk ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int pa_cmp(const void *x, const void *y)
{
	const struct an_pa *a = x, *b = y;

	if (a->pstart != b->pstart)
		return a->pstart < b->pstart ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int break_cmp(const void *x, const void *y)
{
	const struct fsl_frag_break *a = x, *b = y;

	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return a->log < b->log ? -1 : a->log > b->log;
}

/*
 * In arr[0..n) sorted by pblk, the latest record holding blk, of inode ino
 * (any inode if ino is 0); maxlen (the longest record) bounds the scan back.
 */
static const struct an_alloc *held_by(const struct an_alloc *arr, size_t n, uint64_t maxlen,
				      uint64_t blk, uint64_t ino)
{
	const struct an_alloc *best = NULL;
	size_t lo = 0, hi = n, i;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (arr[mid].pblk <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0;) {
		const struct an_alloc *a = &arr[i];

		if (blk - a->pblk >= maxlen)
			break;
		if (a->pblk + a->len > blk && (!ino || a->ino == ino) && (!best || a->ts > best->ts))
			best = a;
	}
	return best;
}

/* The preallocation (sorted by pstart) holding blk, alive at ts, newest. */
static const struct an_pa *pa_at(const struct an_pa *arr, size_t n, uint64_t maxlen, uint64_t blk,
				 uint64_t ts)
{
	const struct an_pa *best = NULL;
	size_t lo = 0, hi = n, i;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (arr[mid].pstart <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0;) {
		const struct an_pa *p = &arr[i];

		if (blk - p->pstart >= maxlen)
			break;
		if (p->pstart + p->len > blk && p->ts <= ts && (!p->released || p->released >= ts) &&
		    (!best || p->ts > best->ts))
			best = p;
	}
	return best;
}

static int taker_of_meta(int kind)
{
	switch (kind) {
	case AN_META_SUPER:
	case AN_META_SUPER_BACKUP:
		return FSL_TAKER_SUPER;
	case AN_META_GDT:
		return FSL_TAKER_GDT;
	case AN_META_RESERVED_GDT:
		return FSL_TAKER_RESERVED_GDT;
	case AN_META_BBITMAP:
		return FSL_TAKER_BBITMAP;
	case AN_META_IBITMAP:
		return FSL_TAKER_IBITMAP;
	case AN_META_ITABLE:
		return FSL_TAKER_ITABLE;
	default:
		return FSL_TAKER_UNKNOWN;
	}
}

/* Every file's extents as of now, sorted by pblk: who holds a block at the end. */
static uint64_t build_owners(struct an_layout *s)
{
	struct an_file *f;
	uint64_t ino, maxlen = 1;
	size_t it = 0;
	uint32_t i;

	s->nowners = 0;
	while ((f = fsl_map__next(&s->files, &it, &ino))) {
		for (i = 0; i < f->n; i++) {
			if (grow((void **)&s->owners, &s->cap_owners, s->nowners, sizeof(*s->owners)))
				return 0;
			s->owners[s->nowners++] = (struct an_alloc){
				f->ext[i].pblk, f->ext[i].len, ino, f->ext[i].ts, 0, 0, 0 };
			if (f->ext[i].len > maxlen)
				maxlen = f->ext[i].len;
		}
	}
	if (s->nowners)
		qsort(s->owners, s->nowners, sizeof(*s->owners), alloc_cmp);
	return maxlen;
}

/* The allocator's decision for ino's extent at pblk made at or before ts. */
static const struct an_mb *decision_of(const struct an_layout *s, const struct fsl_ext4_geometry *g,
				       uint64_t ino, uint64_t pblk, uint64_t ts)
{
	size_t i;

	if (!g->blocks_per_group)
		return NULL;
	for (i = s->nmbs; i-- > 0;) {
		const struct an_mb *m = &s->mbs[i];
		uint64_t r = (uint64_t)m->rgroup * g->blocks_per_group + g->first_data_block +
			     (uint64_t)(m->rstart > 0 ? m->rstart : 0);

		if (m->ts > ts || m->ino != ino)
			continue;
		if (pblk >= r && pblk < r + m->rlen)
			return m;
	}
	return NULL;
}

/* Block blk in the recorded end bitmap: 1 used, 0 free, -1 not recorded. */
static int end_bitmap_used(const struct fsl_meta *m, uint64_t blk)
{
	const struct fsl_bitmap *b = m && m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK, FSL_BITMAP_END)
						    : NULL;
	uint64_t pos, i;

	if (!b || blk < b->first || blk >= b->first + b->nbits)
		return -1;
	for (pos = b->first, i = 0; i < b->nruns; pos += b->runs[i++])
		if (blk < pos + b->runs[i])
			return (int)(i & 1);
	return -1;
}

/*
 * Explain one break: what holds the expected block at the end (the owner
 * debugfs icheck names), how the owner got it (its own or a group
 * preallocation, and the preallocation's creator), whether it was still free
 * when this extent was placed, and the allocator's decision for this extent.
 */
static void explain(struct an_layout *s, const struct fsl_ext4_geometry *g, const struct an_pa *pas,
		    uint64_t omax, uint64_t mmax, struct fsl_frag_break *b, const struct an_ext *x)
{
	const struct an_alloc *o = held_by(s->owners, s->nowners, omax, b->expect, 0);
	const struct an_alloc *a = NULL;
	uint64_t jstart = fsl_meta__u64(s->c->meta, FSL_KV_EXT4_JOURNAL_START, 0);
	const struct an_mb *m;
	int path;

	b->ts = x->ts;
	if (o) {
		b->taker_kind = FSL_TAKER_FILE;
		b->taker_ino = o->ino;
		a = held_by(s->allocs, s->nallocs, s->max_alloc_len ? s->max_alloc_len : 1,
			    b->expect, o->ino);
		if (!a)
			a = held_by(s->metas, s->nmetas, mmax, b->expect, o->ino);
		b->taker_ts = a ? a->ts : o->ts;
		b->taker_how = a ? a->how : FSL_HOW_UNKNOWN;
	} else {
		const struct an_alloc *t = held_by(s->metas, s->nmetas, mmax, b->expect, 0);

		if (t && !t->freed_ts) {
			b->taker_kind = FSL_TAKER_EXTENT_TREE;
			b->taker_ino = t->ino;
			b->taker_ts = t->ts;
			b->taker_how = FSL_HOW_METADATA;
			a = t;
		} else if (jstart && b->expect >= jstart && b->expect < jstart + g->journal_blocks) {
			/* the journal inode's blocks, from the recorded start (never allocated here) */
			b->taker_kind = FSL_TAKER_FILE;
			b->taker_ino = fsl_meta__u64(s->c->meta, FSL_KV_EXT4_JOURNAL_INUM, 8);
			b->taker_how = FSL_HOW_UNKNOWN;
		} else {
			b->taker_kind = taker_of_meta(an_ext4_meta_kind(g, b->expect));
			/* reserved GDT blocks belong to the resize inode (icheck names it) */
			if (b->taker_kind == FSL_TAKER_RESERVED_GDT && (g->feature_compat & 0x10))
				b->taker_ino = 7;
			if (b->taker_kind == FSL_TAKER_UNKNOWN &&
			    end_bitmap_used(s->c->meta, b->expect) != 1)
				b->taker_kind = FSL_TAKER_FREE;
		}
	}
	b->taker_block = b->expect;
	if (a) {
		const struct an_pa *p = pa_at(pas, s->npas, s->max_pa_len ? s->max_pa_len : 1,
					      b->expect, a->ts);

		if (p && (p->group || p->ino == a->ino)) {
			b->taker_how = p->group ? FSL_HOW_GROUP_PA : FSL_HOW_INODE_PA;
			b->pa_ino = p->ino;
			b->pa_ts = p->ts;
			b->pa_start = p->pstart;
			b->pa_len = p->len;
		} else if (b->taker_how == FSL_HOW_GROUP_PA || b->taker_how == FSL_HOW_INODE_PA) {
			b->taker_how = FSL_HOW_DIRECT;	/* no preallocation of it seen */
		}
		b->taker_later = a->ts > x->ts;
		b->pa_reserved = b->taker_later && p && p->ts <= x->ts;
	}
	m = decision_of(s, g, b->ino, b->phys, x->ts);
	if (m && g->blocks_per_group) {
		b->have_decision = 1;
		b->goal = (uint64_t)m->ogroup * g->blocks_per_group + g->first_data_block +
			  (uint64_t)(m->ostart > 0 ? m->ostart : 0);
		b->norm_known = m->nstart >= 0;
		b->norm_start = b->norm_known ? (uint64_t)m->ngroup * g->blocks_per_group +
						g->first_data_block + (uint64_t)m->nstart : 0;
		b->norm_len = m->nlen;
		b->req_len = m->olen;
		b->cr = m->cr;
		b->groups_scanned = m->groups;
		path = fsl_alloc_cr_path(m->cr, fsl_kernel_new_cr_names(
						fsl_meta_kv(s->c->meta, FSL_KV_KERNEL)));
		b->cr_name = path >= 0 ? fsl_alloc_path_kname((unsigned int)path) : NULL;
		if (m->offer && (b->taker_later || b->taker_kind == FSL_TAKER_FREE))
			b->offer = s->offers[m->offer - 1];
	}
}

/*
 * Whether e2fsck -E fragcheck prints a line between extents p and x: the
 * physical block does not follow on. But a logical hole next to a mapping
 * only looked up (a file that predates the trace, e.g. jbd2 mapping the
 * journal inode's blocks one at a time) hides what lies between, so the
 * break is not known. Holes between blocks allocated in the trace are sparse
 * files and break as e2fsck says.
 */
static int is_break(const struct an_ext *p, const struct an_ext *x)
{
	if (p->pblk + p->len == x->pblk)
		return 0;
	return x->lblk == p->lblk + p->len || (!p->lookup && !x->lookup);
}

/* The lengths the positions are tested against: the kernel's and the recorded tunables. */
static void pos_lengths(const struct an_layout *s, struct fsl_break_pos *p)
{
	p->wb_len = 2048;	/* MAX_WRITEPAGES_EXTENT_LEN, fs/ext4/inode.c */
	p->stream_len = (uint32_t)fsl_meta__u64(s->c->meta, FSL_KV_EXT4_TUNE_MB_STREAM_REQ, 16);
	p->group_len = (uint32_t)fsl_meta__u64(s->c->meta, FSL_KV_EXT4_TUNE_MB_GROUP_PREALLOC, 512);
}

static void pos_count(struct an_layout *s, const struct fsl_frag_break *b, struct fsl_map *other)
{
	struct fsl_break_pos *p = &s->pos;
	uint64_t *n;

	p->breaks++;
	if (b->log && p->wb_len && b->log % p->wb_len == 0)
		p->wb_limit++;
	else if (p->stream_len && (b->log == p->stream_len || b->log + 1 == p->stream_len))
		p->stream_req++;
	else if (b->log && p->group_len && b->log % p->group_len == 0)
		p->group_pa++;
	else {
		p->other++;
		n = fsl_map__put(other, b->log, NULL);
		if (n)
			(*n)++;
	}
}

/* The three most common other positions (ties: the lower block first). */
static void pos_top(struct fsl_break_pos *p, const struct fsl_map *other)
{
	uint64_t log, *n;
	size_t it = 0;
	int i, k;

	while ((n = fsl_map__next(other, &it, &log))) {
		for (i = 0; i < 3; i++)
			if (*n > p->other_n[i] || (*n == p->other_n[i] && p->other_n[i] &&
						   log < p->other_log[i]))
				break;
		if (i == 3)
			continue;
		for (k = 2; k > i; k--) {
			p->other_n[k] = p->other_n[k - 1];
			p->other_log[k] = p->other_log[k - 1];
		}
		p->other_n[i] = *n;
		p->other_log[i] = log;
	}
}

/*
 * The journal inode in more than one piece (ext4.journal_extents, from the
 * recorder's read of its block map): its whole map, as e2fsck sees it. jbd2
 * only looks its blocks up one at a time, which cannot show the breaks.
 */
static void journal_extents(struct an_layout *s)
{
	const char *v = fsl_meta_kv(s->c->meta, FSL_KV_EXT4_JOURNAL_EXTENTS);
	unsigned long long l, p, n;
	struct an_file *f;
	int used;

	if (!v)
		return;
	f = file_get(s, fsl_meta__u64(s->c->meta, FSL_KV_EXT4_JOURNAL_INUM, 8));
	if (!f)
		return;
	f->n = 0;
	while (sscanf(v, "%llu:%llu+%llu%n", &l, &p, &n, &used) == 3) {
		if (ext_add(f, l, p, n, 0, 0))
			return;
		v += used;
		if (*v != ',')
			break;
		v++;
	}
}

static void layout_compute(struct an_layout *s)
{
	struct fsl_ext4_geometry g;
	struct an_pa *pas = NULL;
	struct fsl_map other;
	struct an_file *f;
	uint64_t ino, omax, mmax = 1;
	size_t it = 0;
	uint32_t i;

	if (!s->dirty)
		return;
	fsl_meta__ext4_geometry(s->c->meta, &g);
	if (s->nallocs)
		qsort(s->allocs, s->nallocs, sizeof(*s->allocs), alloc_cmp);
	if (s->nmetas)
		qsort(s->metas, s->nmetas, sizeof(*s->metas), alloc_cmp);
	for (it = 0; it < s->nmetas; it++)
		if (s->metas[it].len > mmax)
			mmax = s->metas[it].len;
	/* a sorted copy: on_release_pa wants the creation order kept */
	if (s->npas && (pas = malloc(s->npas * sizeof(*pas)))) {
		memcpy(pas, s->pas, s->npas * sizeof(*pas));
		qsort(pas, s->npas, sizeof(*pas), pa_cmp);
	}
	journal_extents(s);
	omax = build_owners(s);
	memset(&s->pos, 0, sizeof(s->pos));
	pos_lengths(s, &s->pos);
	s->nbreaks = 0;
	s->nfiles = s->nfrag = 0;
	fsl_map__init(&other, sizeof(uint64_t));
	it = 0;
	while ((f = fsl_map__next(&s->files, &it, &ino))) {
		int frag = 0;

		if (!f->n)
			continue;
		s->nfiles++;
		for (i = 1; i < f->n; i++) {
			const struct an_ext *p = &f->ext[i - 1], *x = &f->ext[i];
			struct fsl_frag_break *b;

			if (!is_break(p, x))
				continue;
			frag = 1;
			if (grow((void **)&s->breaks, &s->cap_breaks, s->nbreaks, sizeof(*s->breaks)))
				break;
			b = &s->breaks[s->nbreaks++];
			memset(b, 0, sizeof(*b));
			b->ino = ino;
			b->kind = f->kind;
			b->expect = p->pblk + p->len;
			b->phys = x->pblk;
			b->log = x->lblk;
			b->len = x->len;
			if (pas || !s->npas)
				explain(s, &g, pas, omax, mmax, b, x);
			pos_count(s, b, &other);
		}
		s->nfrag += frag;
	}
	free(pas);
	pos_top(&s->pos, &other);
	fsl_map__free(&other);
	if (s->nbreaks)
		qsort(s->breaks, s->nbreaks, sizeof(*s->breaks), break_cmp);
	rd_compute(s);
	s->dirty = 0;
}

void fsl_layout__break_pos(const struct fsl_layout *l, struct fsl_break_pos *out)
{
	const struct an_layout *s = (const void *)l;

	*out = s->pos;
	pos_lengths(s, out);
}

const struct fsl_layout *an_layout_result(struct an_layout *s)
{
	layout_compute(s);
	return (const struct fsl_layout *)s;
}

uint64_t fsl_layout__files(const struct fsl_layout *l)
{
	return ((const struct an_layout *)l)->nfiles;
}

uint64_t fsl_layout__fragmented(const struct fsl_layout *l)
{
	return ((const struct an_layout *)l)->nfrag;
}

unsigned int fsl_layout__breaks(const struct fsl_layout *l, const struct fsl_frag_break **out)
{
	const struct an_layout *s = (const void *)l;

	*out = s->breaks;
	return s->nbreaks;
}

unsigned int fsl_layout__worst(const struct fsl_layout *l, struct fsl_layout_file *out,
			       unsigned int max)
{
	const struct an_layout *s = (const void *)l;
	struct an_file *f;
	uint64_t ino;
	size_t it = 0;
	unsigned int n = 0, i, j;

	while ((f = fsl_map__next(&s->files, &it, &ino))) {
		struct fsl_layout_file cur = { .ino = ino, .kind = f->kind };
		uint64_t blocks = 0;

		/* extents as fragcheck counts them: physically contiguous runs */
		for (j = 0; j < f->n; j++) {
			blocks += f->ext[j].len;
			if (!j || is_break(&f->ext[j - 1], &f->ext[j]))
				cur.extents++;
		}
		cur.blocks = blocks;
		if (cur.extents < 2)
			continue;
		for (i = 0; i < n && (out[i].extents > cur.extents ||
				      (out[i].extents == cur.extents && out[i].ino < ino)); i++)
			;
		if (i >= max)
			continue;
		if (n < max)
			n++;
		memmove(&out[i + 1], &out[i], (n - 1 - i) * sizeof(*out));
		out[i] = cur;
	}
	return n;
}

void fsl_layout__extent_hist(const struct fsl_layout *l, uint64_t out[16])
{
	const struct an_layout *s = (const void *)l;
	struct an_file *f;
	size_t it = 0;
	uint32_t j, runs;

	memset(out, 0, 16 * sizeof(out[0]));
	while ((f = fsl_map__next(&s->files, &it, NULL))) {
		if (!f->n)
			continue;
		for (runs = 0, j = 0; j < f->n; j++)
			if (!j || is_break(&f->ext[j - 1], &f->ext[j]))
				runs++;
		j = 31 - __builtin_clz(runs);
		out[j < 15 ? j : 15]++;
	}
}

uint64_t fsl_layout__inode_distance(const struct fsl_layout *l, uint64_t out[16], double *mean)
{
	const struct an_layout *s = (const void *)l;
	const struct fsl_meta *m = s->c->meta;
	struct fsl_ext4_geometry g;
	uint64_t ipg, bpg, fdb, n = 0, sum = 0;
	struct an_file *f;
	uint64_t ino;
	size_t it = 0;

	fsl_meta__ext4_geometry(m, &g);
	ipg = g.inodes_per_group;
	bpg = g.blocks_per_group;
	fdb = g.first_data_block;
	memset(out, 0, 16 * sizeof(out[0]));
	*mean = 0;
	if (!ipg || !bpg)
		return 0;
	while ((f = fsl_map__next(&s->files, &it, &ino))) {
		uint64_t gi, gd, d;
		unsigned int row;

		if (!f->n || !ino || f->ext[0].pblk < fdb)
			continue;
		gi = (ino - 1) / ipg;
		gd = (f->ext[0].pblk - fdb) / bpg;
		d = gi > gd ? gi - gd : gd - gi;
		row = d ? 64 - __builtin_clzll(d) : 0;
		out[row < 15 ? row : 15]++;
		sum += d;
		n++;
	}
	*mean = n ? (double)sum / n : 0;
	return n;
}

uint64_t fsl_layout__inode_distance_sectors(const struct fsl_layout *l, double *mean_sectors,
					    uint64_t *median_sectors)
{
	const struct an_layout *s = (const void *)l;
	struct fsl_ext4_geometry g;
	uint64_t *bb = NULL, *ib = NULL, *it = NULL, *d = NULL, ino, n = 0, sum = 0, spb;
	size_t i = 0, cap = 0;
	struct an_file *f;

	*mean_sectors = 0;
	*median_sectors = 0;
	fsl_meta__ext4_geometry(s->c->meta, &g);
	if (!g.inodes_per_group || !g.group_count || !g.block_size || !g.inode_size)
		return 0;
	spb = g.block_size / 512;
	bb = calloc(g.group_count, sizeof(*bb));
	ib = calloc(g.group_count, sizeof(*ib));
	it = calloc(g.group_count, sizeof(*it));
	if (!bb || !ib || !it || fsl_meta__ext4_group_tables(s->c->meta, g.group_count, bb, ib, it))
		goto out;
	while ((f = fsl_map__next(&s->files, &i, &ino))) {
		uint64_t grp, blk, dist;

		/* a file's: not a directory, nor a reserved inode (the root's blocks are mapped by lookups) */
		if (!f->n || !ino || f->kind != 'f' || (g.first_ino && ino < g.first_ino))
			continue;
		grp = (ino - 1) / g.inodes_per_group;
		if (grp >= g.group_count || !it[grp])
			continue;
		blk = it[grp] + (ino - 1) % g.inodes_per_group * g.inode_size / g.block_size;
		dist = (blk > f->ext[0].pblk ? blk - f->ext[0].pblk : f->ext[0].pblk - blk) * spb;
		if (n == cap) {
			size_t c = cap ? 2 * cap : 256;
			uint64_t *p = realloc(d, c * sizeof(*p));

			if (!p)
				break;
			d = p;
			cap = c;
		}
		d[n++] = dist;
		sum += dist;
	}
	if (n) {
		qsort(d, n, sizeof(*d), u64_cmp);
		*mean_sectors = (double)sum / n;
		*median_sectors = d[(n - 1) / 2];
	}
out:
	free(bb);
	free(ib);
	free(it);
	free(d);
	return n;
}
