// SPDX-License-Identifier: GPL-2.0
/*
 * Block classes of the target's ext4 blocks (blockclass.h).
 *
 * Static: the recorded group tables (ext4.group_*) give each group's block
 * bitmap, inode bitmap and inode table wherever they are, so flex_bg,
 * no flex_bg and resized filesystems are classed alike; superblocks, group
 * descriptors and the journal come from the geometry (an_ext4_block_class,
 * which also lays the tables out as mke2fs does when the trace has no
 * tables).
 *
 * Dynamic: ext4 allocates a regular file's blocks with EXT4_MB_HINT_DATA and
 * everything else (directory blocks, extent-tree blocks) without it
 * (ext4_ext_map_blocks, ext4_ext_new_meta_block); a mapping
 * (ext4_ext_map_blocks_exit) then says which inode's logical blocks they
 * are. So an allocation without the hint is an extent-tree block until a
 * mapping of a directory (or of an inode whose new mapping it is, which
 * makes that inode a directory) covers it; a mapping of a regular file is
 * data. Inode kinds come from the inode events' modes (allocate, free) and
 * from those allocations. Frees forget the blocks. Owners are kept four bits
 * a block, sixteen blocks per map entry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "blockclass.h"
#include "an_internal.h"
#include "fslens/hashmap.h"

#define BC_S_IFMT		0170000
#define BC_S_IFDIR		0040000
#define BC_S_IFREG		0100000
#define BC_MB_HINT_DATA		0x0020
#define BC_MAP_NEW		0x20	/* 1 << BH_New */

struct bc_range {
	uint64_t start, len;
	uint8_t cls;
};

struct fsl_blockclass {
	struct fsl_ext4_geometry g;
	int ready;
	uint32_t dev;			/* the target's fs dev_t: other filesystems' events are not ours */
	struct bc_range *tables;	/* the group tables, sorted by start */
	size_t ntables;
	struct fsl_map owners;		/* blk >> 4 -> 16 classes of 4 bits */
	struct fsl_map kinds;		/* ino -> 'd' / 'f' */
};

struct fsl_blockclass *fsl_blockclass__new(void)
{
	struct fsl_blockclass *bc = calloc(1, sizeof(*bc));

	if (!bc)
		return NULL;
	fsl_map__init(&bc->owners, sizeof(uint64_t));
	fsl_map__init(&bc->kinds, sizeof(uint8_t));
	return bc;
}

void fsl_blockclass__free(struct fsl_blockclass *bc)
{
	if (!bc)
		return;
	fsl_map__free(&bc->owners);
	fsl_map__free(&bc->kinds);
	free(bc->tables);
	free(bc);
}

static int range_cmp(const void *x, const void *y)
{
	const struct bc_range *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static void load_tables(struct fsl_blockclass *bc, const struct fsl_meta *m)
{
	uint32_t n = bc->g.group_count, i;
	uint64_t *v;

	free(bc->tables);
	bc->tables = NULL;
	bc->ntables = 0;
	if (!n || n > (1u << 24) || !bc->g.inode_blocks_per_group)
		return;
	v = calloc(3 * (size_t)n, sizeof(*v));
	bc->tables = calloc(3 * (size_t)n, sizeof(*bc->tables));
	if (!v || !bc->tables || fsl_meta__ext4_group_tables(m, n, v, v + n, v + 2 * n)) {
		free(v);
		free(bc->tables);
		bc->tables = NULL;
		return;
	}
	for (i = 0; i < n; i++) {
		bc->tables[3 * i] = (struct bc_range){ v[i], 1, FSL_BC_BBITMAP };
		bc->tables[3 * i + 1] = (struct bc_range){ v[n + i], 1, FSL_BC_IBITMAP };
		bc->tables[3 * i + 2] = (struct bc_range){ v[2 * n + i], bc->g.inode_blocks_per_group,
							   FSL_BC_ITABLE };
	}
	bc->ntables = 3 * (size_t)n;
	qsort(bc->tables, bc->ntables, sizeof(*bc->tables), range_cmp);
	free(v);
}

static void owner_set(struct fsl_blockclass *bc, uint64_t start, uint64_t len, unsigned int cls);

/* The directories there were at the start (and their extent-tree blocks). */
static void load_dirs(struct fsl_blockclass *bc, const struct fsl_meta *m)
{
	size_t len = 0;
	const char *t = fsl_meta__text(m, FSL_TEXT_EXT4_DIR_BLOCKS, &len), *end = t + len;
	unsigned long long a, n;
	char kind, line[96];

	while (t && t < end) {
		const char *nl = memchr(t, '\n', end - t);
		size_t l = (nl ? nl : end) - t;

		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1), t);
		if (sscanf(line, "%c %llu %llu", &kind, &a, &n) == 3 && (kind == 'D' || kind == 'E'))
			owner_set(bc, a, n, kind == 'D' ? FSL_BC_DIR : FSL_BC_EXTENT);
		t = nl ? nl + 1 : end;
	}
}

void fsl_blockclass__begin(struct fsl_blockclass *bc, const struct fsl_meta *m)
{
	uint8_t *k;

	fsl_map__clear(&bc->owners);
	fsl_map__clear(&bc->kinds);
	bc->ready = !fsl_meta__ext4_geometry(m, &bc->g) && bc->g.block_size;
	bc->dev = (uint32_t)fsl_meta__u64(m, FSL_KV_DEV, 0);
	if (!bc->ready)
		return;
	load_tables(bc, m);
	load_dirs(bc, m);
	/* the root directory (EXT2_ROOT_INO) is one, whatever the trace saw */
	if ((k = fsl_map__put(&bc->kinds, 2, NULL)))
		*k = 'd';
}

int fsl_blockclass__ready(const struct fsl_blockclass *bc)
{
	return bc && bc->ready;
}

uint32_t fsl_blockclass__block_size(const struct fsl_blockclass *bc)
{
	return bc && bc->ready ? bc->g.block_size : 0;
}

static unsigned int owner_get(const struct fsl_blockclass *bc, uint64_t blk)
{
	const uint64_t *v = fsl_map__get(&bc->owners, blk >> 4);

	return v ? (*v >> ((blk & 15) * 4)) & 15 : 0;
}

static void owner_set(struct fsl_blockclass *bc, uint64_t start, uint64_t len, unsigned int cls)
{
	uint64_t b, *v;

	if (len > bc->g.blocks_count && bc->g.blocks_count)
		len = bc->g.blocks_count;	/* a bogus record must not spin */
	for (b = start; b < start + len; b++) {
		v = cls ? fsl_map__put(&bc->owners, b >> 4, NULL) : fsl_map__get(&bc->owners, b >> 4);
		if (!v)
			continue;
		*v = (*v & ~(15ull << ((b & 15) * 4))) | ((uint64_t)cls << ((b & 15) * 4));
		if (!*v)
			fsl_map__del(&bc->owners, b >> 4);
	}
}

static unsigned int table_class(const struct fsl_blockclass *bc, uint64_t blk)
{
	size_t lo = 0, hi = bc->ntables;

	/* the last range starting at or before blk */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (bc->tables[mid].start <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && blk - bc->tables[lo - 1].start < bc->tables[lo - 1].len)
		return bc->tables[lo - 1].cls;
	return FSL_BC_OTHER;
}

unsigned int fsl_blockclass__class(const struct fsl_blockclass *bc, uint64_t blk)
{
	unsigned int cls, own;

	if (!bc || !bc->ready)
		return FSL_BC_OTHER;
	cls = an_ext4_block_class(&bc->g, blk);
	if (bc->ntables) {
		/* the recorded tables decide the bitmaps and tables; the geometry the rest */
		if (cls == FSL_BC_BBITMAP || cls == FSL_BC_IBITMAP || cls == FSL_BC_ITABLE)
			cls = FSL_BC_OTHER;
		if (cls == FSL_BC_OTHER)
			cls = table_class(bc, blk);
	}
	if (cls != FSL_BC_OTHER)
		return cls;
	own = owner_get(bc, blk);
	return own < FSL_BC__MAX ? own : FSL_BC_OTHER;
}

static void set_kind(struct fsl_blockclass *bc, uint64_t ino, uint16_t mode)
{
	uint8_t *k;

	if ((mode & BC_S_IFMT) != BC_S_IFDIR && (mode & BC_S_IFMT) != BC_S_IFREG)
		return;
	k = fsl_map__put(&bc->kinds, ino, NULL);
	if (k)
		*k = (mode & BC_S_IFMT) == BC_S_IFDIR ? 'd' : 'f';
}

static uint8_t kind_of(const struct fsl_blockclass *bc, uint64_t ino)
{
	const uint8_t *k = fsl_map__get(&bc->kinds, ino);

	return k ? *k : 0;
}

static void on_map(struct fsl_blockclass *bc, const struct fsl_ev_ext4_map_blocks *ev)
{
	uint8_t kind = kind_of(bc, ev->ino), *k;
	unsigned int cur;

	if (ev->ret <= 0 || !ev->pblk || !ev->len)
		return;
	cur = owner_get(bc, ev->pblk);
	if (!kind && (ev->mflags & BC_MAP_NEW) && (cur == FSL_BC_EXTENT || cur == FSL_BC_DATA)) {
		/* its own new blocks: allocated without the data hint, a directory */
		kind = cur == FSL_BC_EXTENT ? 'd' : 'f';
		if ((k = fsl_map__put(&bc->kinds, ev->ino, NULL)))
			*k = kind;
	}
	if (kind)
		owner_set(bc, ev->pblk, ev->len, kind == 'd' ? FSL_BC_DIR : FSL_BC_DATA);
}

void fsl_blockclass__event(struct fsl_blockclass *bc, const struct fsl_hdr *h)
{
	if (!bc || !bc->ready)
		return;
	switch (h->type) {
	case FSL_EV_EXT4_ALLOCATE_BLOCKS: {
		const struct fsl_ev_ext4_alloc_blocks *ev = (const void *)h;

		if (h->size < sizeof(*ev) || (bc->dev && ev->dev != bc->dev))
			return;
		owner_set(bc, ev->block, ev->len,
			  ev->flags & BC_MB_HINT_DATA ? FSL_BC_DATA : FSL_BC_EXTENT);
		return;
	}
	case FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT: {
		const struct fsl_ev_ext4_map_blocks *ev = (const void *)h;

		if (h->size >= sizeof(*ev) && (!bc->dev || ev->dev == bc->dev))
			on_map(bc, ev);
		return;
	}
	case FSL_EV_EXT4_FREE_BLOCKS: {
		const struct fsl_ev_ext4_free_blocks *ev = (const void *)h;

		if (h->size < sizeof(*ev) || (bc->dev && ev->dev != bc->dev))
			return;
		set_kind(bc, ev->ino, ev->mode);
		owner_set(bc, ev->block, ev->count, 0);
		return;
	}
	case FSL_EV_EXT4_ALLOCATE_INODE: {
		const struct fsl_ev_ext4_inode *ev = (const void *)h;

		if (h->size >= sizeof(*ev) && (!bc->dev || ev->dev == bc->dev))
			set_kind(bc, ev->ino, ev->mode);
		return;
	}
	case FSL_EV_EXT4_FREE_INODE: {
		const struct fsl_ev_ext4_inode *ev = (const void *)h;

		if (h->size >= sizeof(*ev) && (!bc->dev || ev->dev == bc->dev))
			fsl_map__del(&bc->kinds, ev->ino);
		return;
	}
	}
}
