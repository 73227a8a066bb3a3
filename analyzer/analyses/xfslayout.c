// SPDX-License-Identifier: GPL-2.0
/*
 * XFS layout (include/fslens/xfslayout.h). Each file's data extents are
 * rebuilt from XFS's extent mappings (xfs_map_blocks_* at writeback,
 * xfs_iomap_* for reads and direct I/O), trimmed by xfs_bunmap (truncate,
 * delete, blocks past EOF given back) and reset when a create reuses the
 * inode number, then merged where the file and the disk both run on, as
 * the bmap btree's records are: what `xfs_bmap -v` lists for a file the
 * trace wrote or read.
 *
 * Layout is state: a window [t0, t1) sees it as of t1, built from
 * everything before. The creates' inodes, the read seeks and the "touched"
 * mark of a file count in the window.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"
#include "fslens/xfslayout.h"

#define XL_BMAPI_ATTRFORK	0x4	/* XFS_BMAPI_ATTRFORK */
#define XL_BMAPI_COWFORK	0x100	/* XFS_BMAPI_COWFORK */
#define XL_BMAP_ATTRFORK	0x100	/* BMAP_ATTRFORK */
#define XL_BMAP_COWFORK		0x200	/* BMAP_COWFORK */
#define XL_INODES_PER_CHUNK	64
#define XL_FSMAP_OWN_FREE	0x1ull	/* FMR_OWN_FREE */
#define XL_FSMAP_SPECIAL	0x10u	/* FMR_OF_SPECIAL_OWNER */

/* One record of the inode's in-core extent list (delayed allocations too). */
struct xl_ext {
	uint64_t off, fsb, len;
	uint8_t unwritten;
};

struct xl_file {
	uint32_t n, cap;
	struct xl_ext *ext;	/* sorted by file offset, not overlapping */
	/*
	 * End of file in blocks, rounded up: xfs_bmap lists the records below
	 * it, not the blocks preallocated past it.
	 */
	uint64_t eof;
	uint8_t created;
	uint8_t touched;	/* in the window */
};

/* A create under way on a thread: the inode its entry names is the new one. */
struct xl_create {
	uint64_t dir;
	char name[FSL_XFS_NAME_MAX];
};

/* Per AG: the chunk of the previous create (+1; 0 none). */
struct xl_ag {
	struct fsl_xfs_ag_inodes st;
	uint64_t prev_chunk;
};

struct an_xfslayout {
	struct fsl_xfslayout res;	/* first: the result is this struct */
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_xfs_addr x;
	int x_state;			/* 0 not read, 1 geometry, -1 none */
	uint32_t disk;			/* the target's disk, for the reads */
	struct fsl_map files;		/* ino -> xl_file */
	struct fsl_map creating;	/* tid -> xl_create */
	struct fsl_map chunks_known;	/* (agno << 32 | chunk agino) -> 1: in use or seen */
	struct fsl_map chunks_win;	/* the same, used by a create in the window */
	struct xl_ag *ags;
	unsigned int nags_cap;
	uint64_t rd_prev_start, rd_prev_end;
	int rd_have;
	int chunks_read;		/* xfs.inumbers.start read into chunks_known */
	struct fsl_xfs_file *list;
	size_t nlist, cap_list;
	int dirty;
};

/* ---- geometry ---- */

static int geometry(struct an_xfslayout *s)
{
	if (!s->x_state)
		s->x_state = fsl_xfs_addr_init(&s->x, s->c->meta) ? -1 : 1;
	return s->x_state > 0;
}

/* ---- extents ---- */

static int ext_reserve(struct xl_file *f, uint32_t more)
{
	struct xl_ext *n;
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

/* The record starting at file block off, or f->n. */
static uint32_t ext_find(const struct xl_file *f, uint64_t off)
{
	uint32_t lo = 0, hi = f->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (f->ext[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->ext[lo].off == off ? lo : f->n;
}

static void ext_remove(struct xl_file *f, uint64_t off)
{
	uint32_t i = ext_find(f, off);

	if (i == f->n)
		return;
	memmove(&f->ext[i], &f->ext[i + 1], (f->n - i - 1) * sizeof(f->ext[0]));
	f->n--;
}

/* A record of the in-core list (replacing one that started at the same block). */
static int ext_insert(struct xl_file *f, uint64_t off, uint64_t fsb, uint64_t len, uint8_t unwritten)
{
	uint32_t i;

	ext_remove(f, off);
	if (ext_reserve(f, 1))
		return -ENOMEM;
	for (i = f->n; i > 0 && f->ext[i - 1].off > off; i--)
		;
	memmove(&f->ext[i + 1], &f->ext[i], (f->n - i) * sizeof(f->ext[0]));
	f->ext[i] = (struct xl_ext){ off, fsb, len, unwritten };
	f->n++;
	return 0;
}

static int in_window_end(const struct an_xfslayout *s, uint64_t ts)
{
	return !s->c->win.t1 || ts < s->c->win.t1;
}

static int target(const struct an_xfslayout *s, uint32_t dev)
{
	return !s->c->target_dev || dev == s->c->target_dev;
}

static struct xl_file *file_get(struct an_xfslayout *s, uint64_t ino)
{
	return fsl_map__put(&s->files, ino, NULL);
}

static uint64_t blocks_up(const struct an_xfslayout *s, uint64_t bytes)
{
	uint64_t bs = (uint64_t)s->x.sect_per_block * 512;

	return (bytes + bs - 1) / bs;
}

static void grow_eof(struct an_xfslayout *s, struct xl_file *f, uint64_t bytes)
{
	uint64_t b = blocks_up(s, bytes);

	if (b > f->eof) {
		f->eof = b;
		s->dirty = 1;
	}
}

/*
 * An I/O's or writeback's mapping: the file was touched in the window; its
 * size then (the on-disk size, or the end of a write that extends it).
 */
static int on_imap(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_xfs_imap *ev = (const void *)h;
	struct xl_file *f;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev) ||
	    !geometry(s) || ev->whichfork != 0)
		return 0;
	f = file_get(s, ev->ino);
	if (!f)
		return -ENOMEM;
	if (an_in_window(&s->c->win, h->ts) && !f->touched) {
		f->touched = 1;
		s->dirty = 1;
	}
	if (ev->size > 0)
		grow_eof(s, f, ev->size);
	if (h->type == FSL_EV_XFS_IOMAP_ALLOC && ev->offset >= 0)
		grow_eof(s, f, ev->offset + ev->count);
	return 0;
}

/* Blocks unmapped to the end of the file: a truncate (or a delete) moved EOF back. */
static int on_bunmap(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_xfs_bunmap *ev = (const void *)h;
	struct xl_file *f;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev) ||
	    (ev->flags & (XL_BMAPI_ATTRFORK | XL_BMAPI_COWFORK)))
		return 0;
	f = fsl_map__get(&s->files, ev->ino);
	if (f && ev->fileoff < f->eof && ev->fileoff + ev->len >= f->eof) {
		f->eof = ev->fileoff;
		s->dirty = 1;
	}
	return 0;
}

/*
 * The in-core extent list, record by record: an update's old record goes
 * (pre), its new one comes (post). Records of the attribute and CoW forks
 * are not the file's data.
 */
static int on_iext(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_xfs_iext *ev = (const void *)h;
	struct xl_file *f;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev) ||
	    (ev->bmap_state & (XL_BMAP_ATTRFORK | XL_BMAP_COWFORK)))
		return 0;
	f = file_get(s, ev->ino);
	if (!f)
		return -ENOMEM;
	s->dirty = 1;
	if (h->type == FSL_EV_XFS_IEXT_REMOVE || h->type == FSL_EV_XFS_BMAP_PRE_UPDATE) {
		ext_remove(f, ev->startoff);
		return 0;
	}
	return ext_insert(f, ev->startoff, ev->startblock, ev->blockcount, ev->state == 1);
}

static int on_data(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_data *ev = (const void *)h;
	struct xl_file *f;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev) ||
	    !geometry(s))
		return 0;
	f = file_get(s, ev->ino);
	if (!f)
		return -ENOMEM;
	if (an_in_window(&s->c->win, h->ts) && !f->touched) {
		f->touched = 1;
		s->dirty = 1;
	}
	/* what a write adds to the file: where it ended (O_APPEND: offset is the old end) */
	if ((ev->op == FSL_DATA_WRITE || ev->op == FSL_DATA_PWRITE) && ev->ret > 0 &&
	    ev->offset >= 0)
		grow_eof(s, f, ev->offset + ev->ret);
	return 0;
}

static int on_create(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_xfs_create *ev = (const void *)h;
	struct xl_create *cr;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev))
		return 0;
	cr = fsl_map__put(&s->creating, h->tid, NULL);
	if (!cr)
		return -ENOMEM;
	cr->dir = ev->dir;
	memcpy(cr->name, ev->name, sizeof(cr->name));
	if (an_in_window(&s->c->win, h->ts))
		s->res.creates++;
	return 0;
}

static struct xl_ag *ag_get(struct an_xfslayout *s, uint32_t agno)
{
	if (agno >= s->nags_cap) {
		unsigned int n = agno + 1 > 2 * s->nags_cap ? agno + 1 : 2 * s->nags_cap;
		struct xl_ag *p = realloc(s->ags, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + s->nags_cap, 0, (n - s->nags_cap) * sizeof(*p));
		s->ags = p;
		s->nags_cap = n;
	}
	return &s->ags[agno];
}

/* The chunks in use at the start (xfs.inumbers.start): a create there is no new chunk. */
static void chunks_at_start(struct an_xfslayout *s)
{
	size_t len = 0;
	const char *t = fsl_meta__text(s->c->meta, FSL_TEXT_XFS_INUMBERS_START, &len);
	const char *p = t, *end = t ? t + len : NULL;

	while (p && p < end) {
		unsigned long long ino;
		const char *nl = memchr(p, '\n', end - p);

		if (*p != '#' && sscanf(p, "%llu", &ino) == 1)
			fsl_map__put(&s->chunks_known,
				     (uint64_t)fsl_xfs_ino_agno(&s->x, ino) << 32 |
				     (fsl_xfs_ino_agino(&s->x, ino) & ~(XL_INODES_PER_CHUNK - 1u)),
				     NULL);
		p = nl ? nl + 1 : end;
	}
}

/* A create's new inode: its AG, its chunk, new or not, before the previous one or not. */
static int new_inode(struct an_xfslayout *s, uint64_t ino, uint64_t ts)
{
	uint32_t agno = fsl_xfs_ino_agno(&s->x, ino);
	uint32_t chunk = fsl_xfs_ino_agino(&s->x, ino) & ~(XL_INODES_PER_CHUNK - 1u);
	uint64_t key = (uint64_t)agno << 32 | chunk;
	struct xl_file *f;
	struct xl_ag *ag;
	int fresh = 0;

	if (agno >= s->x.agcount)
		return 0;	/* no such AG: not an inode of this filesystem */
	/* a reused number is a new file: what the old one mapped is gone */
	f = file_get(s, ino);
	if (!f)
		return -ENOMEM;
	f->n = 0;
	f->eof = 0;
	f->created = 1;
	s->dirty = 1;
	if (!fsl_map__put(&s->chunks_known, key, &fresh))
		return -ENOMEM;
	if (!an_in_window(&s->c->win, ts))
		return 0;
	ag = ag_get(s, agno);
	if (!ag)
		return -ENOMEM;
	if (!ag->st.inodes)
		ag->st.first_agino = fsl_xfs_ino_agino(&s->x, ino);
	ag->st.agno = agno;
	ag->st.inodes++;
	ag->st.last_agino = fsl_xfs_ino_agino(&s->x, ino);
	ag->st.new_chunks += fresh;
	if (ag->prev_chunk && chunk + 1 < ag->prev_chunk)
		ag->st.backward++;
	ag->prev_chunk = chunk + 1;
	{
		int f2 = 0;

		if (!fsl_map__put(&s->chunks_win, key, &f2))
			return -ENOMEM;
		ag->st.chunks += f2;
	}
	return 0;
}

static int on_addname(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_xfs_dirname *ev = (const void *)h;
	struct xl_create *cr;
	int e;

	if (h->size < sizeof(*ev) || !in_window_end(s, h->ts) || !target(s, ev->dev) ||
	    !geometry(s))
		return 0;
	cr = fsl_map__get(&s->creating, h->tid);
	/* rename and link add entries too: only the entry of this thread's create names a new inode */
	if (!cr || cr->dir != ev->dir || memcmp(cr->name, ev->name, sizeof(cr->name)))
		return 0;
	fsl_map__del(&s->creating, h->tid);
	if (!s->chunks_read) {
		s->chunks_read = 1;
		chunks_at_start(s);
	}
	e = new_inode(s, ev->inumber, h->ts);
	return e;
}

static int on_issue(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_xfslayout *s = cons->priv;
	const struct fsl_ev_block_rq *ev = (const void *)h;
	uint64_t d, end;

	if (h->size < sizeof(*ev) || !(ev->flags & FSL_RQ_READ) || !ev->nr_sector ||
	    (s->disk && ev->dev != s->disk))
		return 0;
	end = ev->sector + ev->nr_sector;
	/* as btt measures D2D: forward from the previous end, backward from its start */
	if (!s->rd_have)
		d = ev->sector;
	else if (ev->sector >= s->rd_prev_end)
		d = ev->sector - s->rd_prev_end;
	else if (ev->sector < s->rd_prev_start)
		d = s->rd_prev_start - ev->sector;
	else
		d = 0;
	if (an_in_window(&s->c->win, h->ts)) {
		s->res.reads++;
		if (d) {
			s->res.read_seeks++;
			s->res.read_seek_total += d;
			fsl_hist_add(&s->res.read_seek, d);
			if (s->rd_have && ev->sector < s->rd_prev_start)
				s->res.backward_reads++;
		}
	}
	s->rd_have = 1;
	s->rd_prev_start = ev->sector;
	s->rd_prev_end = end;
	return 0;
}

static int xl_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct an_xfslayout *s = cons->priv;

	s->disk = (uint32_t)fsl_meta__u64(m, FSL_KV_DISK, fsl_meta__u64(m, FSL_KV_DEV, 0));
	return 0;
}

struct an_xfslayout *an_xfslayout_new(struct an_ctx *c)
{
	struct an_xfslayout *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->files, sizeof(struct xl_file));
	fsl_map__init(&s->creating, sizeof(struct xl_create));
	fsl_map__init(&s->chunks_known, 1);
	fsl_map__init(&s->chunks_win, 1);
	fsl_hist_reset(&s->res.read_seek);
	s->cons.name = "xfslayout";
	s->cons.priv = s;
	s->cons.begin = xl_begin;
	s->cons.handlers[FSL_EV_XFS_IOMAP_ALLOC] = on_imap;
	s->cons.handlers[FSL_EV_XFS_IOMAP_FOUND] = on_imap;
	s->cons.handlers[FSL_EV_XFS_MAP_BLOCKS_ALLOC] = on_imap;
	s->cons.handlers[FSL_EV_XFS_MAP_BLOCKS_FOUND] = on_imap;
	s->cons.handlers[FSL_EV_XFS_BUNMAP] = on_bunmap;
	s->cons.handlers[FSL_EV_XFS_IEXT_INSERT] = on_iext;
	s->cons.handlers[FSL_EV_XFS_IEXT_REMOVE] = on_iext;
	s->cons.handlers[FSL_EV_XFS_BMAP_PRE_UPDATE] = on_iext;
	s->cons.handlers[FSL_EV_XFS_BMAP_POST_UPDATE] = on_iext;
	s->cons.handlers[FSL_EV_XFS_CREATE] = on_create;
	s->cons.handlers[FSL_EV_XFS_DIR2_SF_ADDNAME] = on_addname;
	s->cons.handlers[FSL_EV_XFS_DIR2_BLOCK_ADDNAME] = on_addname;
	s->cons.handlers[FSL_EV_XFS_DIR2_LEAF_ADDNAME] = on_addname;
	s->cons.handlers[FSL_EV_XFS_DIR2_NODE_ADDNAME] = on_addname;
	s->cons.handlers[FSL_EV_DATA] = on_data;
	s->cons.handlers[FSL_EV_BLOCK_RQ_ISSUE] = on_issue;
	return s;
}

static void free_space_fini(struct fsl_xfs_free *fr)
{
	free(fr->ag_bytes);
	memset(fr, 0, sizeof(*fr));
}

void an_xfslayout_free(struct an_xfslayout *s)
{
	struct xl_file *f;
	size_t it = 0;

	if (!s)
		return;
	while ((f = fsl_map__next(&s->files, &it, NULL)))
		free(f->ext);
	fsl_map__free(&s->files);
	fsl_map__free(&s->creating);
	fsl_map__free(&s->chunks_known);
	fsl_map__free(&s->chunks_win);
	free_space_fini(&s->res.free[0]);
	free_space_fini(&s->res.free[1]);
	free(s->ags);
	free(s->res.ags);
	free(s->list);
	free(s);
}

/* A new window: its counts start over, the layout and the read head position stay. */
void an_xfslayout_reset(struct an_xfslayout *s)
{
	struct xl_file *f;
	size_t it = 0;

	while ((f = fsl_map__next(&s->files, &it, NULL)))
		f->touched = 0;
	s->res.creates = s->res.creates_unmatched = 0;
	s->res.reads = s->res.read_seeks = s->res.read_seek_total = s->res.backward_reads = 0;
	fsl_hist_reset(&s->res.read_seek);
	if (s->ags)
		memset(s->ags, 0, s->nags_cap * sizeof(*s->ags));
	fsl_map__clear(&s->chunks_win);
	s->dirty = 1;
}

struct fsl_consumer *an_xfslayout_consumer(struct an_xfslayout *s)
{
	return &s->cons;
}

/* ---- the result ---- */

static void dist_add(struct fsl_xfs_dist *d, uint32_t ags, uint64_t sectors)
{
	unsigned int row = ags ? 32 - __builtin_clz(ags) : 0;

	d->files++;
	d->same_ag += !ags;
	d->ags_log2[row < 15 ? row : 15]++;
	d->mean_ags += ags;	/* a sum until dist_end */
	fsl_hist_add(&d->sectors, sectors);
}

static void dist_end(struct fsl_xfs_dist *d)
{
	d->mean_ags = d->files ? d->mean_ags / d->files : 0;
}

/* The recorded space map's free space, in total and per AG. */
static void free_space(struct an_xfslayout *s, const char *name, struct fsl_xfs_free *fr)
{
	size_t len = 0;
	const char *t = fsl_meta__text(s->c->meta, name, &len);
	const char *p = t, *end = t ? t + len : NULL;
	uint64_t agbytes = (uint64_t)s->x.agblocks * s->x.sect_per_block * 512;

	free_space_fini(fr);
	if (!t)
		return;
	fr->have = 1;
	fr->nags = s->x.agcount;
	fr->ag_bytes = fr->nags ? calloc(fr->nags, sizeof(*fr->ag_bytes)) : NULL;
	while (p < end) {
		unsigned long long phys, l, owner;
		unsigned int dev, flags;
		const char *nl = memchr(p, '\n', end - p);

		if (*p != '#' && sscanf(p, "%u %llu %llu %llx %x", &dev, &phys, &l, &owner,
					&flags) == 5 &&
		    (flags & XL_FSMAP_SPECIAL) && owner == XL_FSMAP_OWN_FREE) {
			fr->bytes += l;
			fr->extents++;
			if (l > fr->largest)
				fr->largest = l;
			if (fr->ag_bytes && agbytes && phys / agbytes < fr->nags)
				fr->ag_bytes[phys / agbytes] += l;
		}
		p = nl ? nl + 1 : end;
	}
}

static int list_cmp(const void *a, const void *b)
{
	const struct fsl_xfs_file *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static void compute(struct an_xfslayout *s)
{
	struct fsl_xfslayout *r = &s->res;
	struct xl_file *f;
	uint64_t ino;
	size_t it = 0;
	unsigned int i, n;

	if (!s->dirty && r->geometry)
		return;
	r->geometry = geometry(s);
	if (!r->geometry)
		return;
	r->files = r->fragmented = r->extents = r->blocks = 0;
	memset(r->extents_log2, 0, sizeof(r->extents_log2));
	memset(&r->dist, 0, sizeof(r->dist));
	memset(&r->dist_win, 0, sizeof(r->dist_win));
	fsl_hist_reset(&r->dist.sectors);
	fsl_hist_reset(&r->dist_win.sectors);
	s->nlist = 0;
	while ((f = fsl_map__next(&s->files, &it, &ino))) {
		const struct xl_ext *e0 = NULL;
		struct fsl_xfs_file *o;
		uint64_t di, dd;
		uint32_t real = 0;

		/* records with disk blocks (a delayed allocation has none yet) below EOF */
		for (i = 0; i < f->n && f->ext[i].off < f->eof; i++)
			if (fsl_xfs_fsb_valid(&s->x, f->ext[i].fsb)) {
				if (!real++)
					e0 = &f->ext[i];
			}
		if (!real)
			continue;
		if (s->nlist == s->cap_list) {
			size_t c = s->cap_list ? 2 * s->cap_list : 256;
			struct fsl_xfs_file *p = realloc(s->list, c * sizeof(*p));

			if (!p)
				break;
			s->list = p;
			s->cap_list = c;
		}
		o = &s->list[s->nlist++];
		memset(o, 0, sizeof(*o));
		o->ino = ino;
		o->extents = real;
		for (i = 0; i < f->n && f->ext[i].off < f->eof; i++)
			if (fsl_xfs_fsb_valid(&s->x, f->ext[i].fsb))
				o->blocks += f->ext[i].len;
		o->ino_agno = fsl_xfs_ino_agno(&s->x, ino);
		o->ino_agbno = fsl_xfs_ino_agbno(&s->x, ino);
		o->data_agno = fsl_xfs_fsb_agno(&s->x, e0->fsb);
		o->data_agbno = fsl_xfs_fsb_agbno(&s->x, e0->fsb);
		o->dist_ags = o->ino_agno > o->data_agno ? o->ino_agno - o->data_agno :
			      o->data_agno - o->ino_agno;
		di = fsl_xfs_agb_daddr(&s->x, o->ino_agno, o->ino_agbno);
		dd = fsl_xfs_agb_daddr(&s->x, o->data_agno, o->data_agbno);
		o->dist_sectors = di > dd ? di - dd : dd - di;
		o->created = f->created;
		o->touched = f->touched;
		r->files++;
		r->fragmented += real > 1;
		r->extents += real;
		r->blocks += o->blocks;
		n = 31 - __builtin_clz(real);
		r->extents_log2[n < 15 ? n : 15]++;
		dist_add(&r->dist, o->dist_ags, o->dist_sectors);
		if (f->touched)
			dist_add(&r->dist_win, o->dist_ags, o->dist_sectors);
	}
	dist_end(&r->dist);
	dist_end(&r->dist_win);
	if (s->nlist)
		qsort(s->list, s->nlist, sizeof(*s->list), list_cmp);
	/* the AGs the window's creates went to */
	free(r->ags);
	r->ags = NULL;
	r->nags = 0;
	r->creates_unmatched = r->creates;
	for (i = 0; i < s->nags_cap; i++) {
		r->nags += s->ags[i].st.inodes > 0;
		r->creates_unmatched -= r->creates_unmatched > s->ags[i].st.inodes ?
					s->ags[i].st.inodes : r->creates_unmatched;
	}
	if (r->nags && (r->ags = calloc(r->nags, sizeof(*r->ags)))) {
		for (n = 0, i = 0; i < s->nags_cap; i++)
			if (s->ags[i].st.inodes)
				r->ags[n++] = s->ags[i].st;
	} else {
		r->nags = 0;
	}
	free_space(s, FSL_TEXT_FSMAP_START, &r->free[0]);
	free_space(s, FSL_TEXT_FSMAP_END, &r->free[1]);
	s->dirty = 0;
}

const struct fsl_xfslayout *an_xfslayout_result(struct an_xfslayout *s)
{
	compute(s);
	return &s->res;
}

unsigned int fsl_xfslayout__files(const struct fsl_xfslayout *l, const struct fsl_xfs_file **out)
{
	const struct an_xfslayout *s = (const void *)l;

	*out = s->list;
	return l->geometry ? (unsigned int)s->nlist : 0;
}
