// SPDX-License-Identifier: GPL-2.0
/*
 * How many blocks an ext4 directory takes after a sequence of inserts, by
 * replaying them through the directory's layout as fs/ext4/namei.c builds
 * it (written from its documented behaviour): a linear block 0 until it is
 * full; then, with dir_index, make_indexed_dir turns block 0 into the htree
 * root, moves the entries to block 1 and splits it at once; a full leaf
 * splits by hash with do_split (entries of the highest hashes move to a new
 * block until they fill half of it); a full root moves its entries to an
 * index node, a full node splits in half. Entries take ext4_dir_rec_len:
 * 8 bytes + the name rounded up to 4. With metadata_csum each leaf ends in
 * a 12-byte tail and each index block in an 8-byte one. Leaves fill to
 * about ln 2 under random hashes, but at tens of leaves it swings with when
 * the last splits came: hence a replay of the names, not a formula.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/model.h"

struct ds_ent {
	uint32_t hash;
	uint16_t size;
};

struct ds_leaf {
	uint32_t start;		/* lowest hash it holds (its index entry) */
	uint32_t used;		/* bytes of its entries */
	uint32_t n, cap;
	struct ds_ent *e;
};

struct fsl_dir_sim {
	uint32_t bs, usable;	/* block size; room for entries in a leaf */
	uint32_t root_cap, node_cap;	/* index entries in the root, in a node */
	int indexed;
	uint32_t linear_used;	/* block 0 before it became the root */
	struct ds_ent *lin;
	uint32_t nlin, clin;
	struct ds_leaf *leaf;	/* by start hash */
	uint32_t nleaf, cleaf;
	/* index nodes below the root, in hash order: leaves under each */
	uint32_t *node;
	uint32_t nnode, cnode;
	int err;
};

static uint16_t rec_len(uint32_t name_len)
{
	return (uint16_t)((8 + name_len + 3) & ~3u);
}

struct fsl_dir_sim *fsl_dir_sim__new(uint32_t block_size, int csum)
{
	struct fsl_dir_sim *d;

	if (block_size < 1024)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->bs = block_size;
	d->usable = block_size - (csum ? 12 : 0);
	/* dx_root_limit: after the "." and ".." entries and dx_root_info */
	d->root_cap = (block_size - 32 - (csum ? 8 : 0)) / 8;
	/* dx_node_limit: after an 8-byte fake entry */
	d->node_cap = (block_size - 8 - (csum ? 8 : 0)) / 8;
	/* "." and ".." */
	d->linear_used = 2 * rec_len(2);
	return d;
}

void fsl_dir_sim__free(struct fsl_dir_sim *d)
{
	uint32_t i;

	if (!d)
		return;
	for (i = 0; i < d->nleaf; i++)
		free(d->leaf[i].e);
	free(d->leaf);
	free(d->lin);
	free(d->node);
	free(d);
}

static int grow(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
	uint32_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 8;
	q = realloc(*p, (size_t)c * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

static int leaf_put(struct ds_leaf *l, struct ds_ent e)
{
	if (grow((void **)&l->e, &l->cap, l->n, sizeof(*l->e)))
		return -ENOMEM;
	l->e[l->n++] = e;
	l->used += e.size;
	return 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ds_ent *x = a, *y = b;

	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

/* The leaf whose hash range holds h: the last one starting at or below it. */
static uint32_t leaf_of(const struct fsl_dir_sim *d, uint32_t h)
{
	uint32_t lo = 0, hi = d->nleaf;

	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (d->leaf[mid].start <= h)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* One more index entry (leaf li was split): the root, or the node holding li. */
static int index_add(struct fsl_dir_sim *d, uint32_t li)
{
	uint32_t k, before = 0;

	if (!d->nnode) {
		if (d->nleaf <= d->root_cap)
			return 0;
		/* the root is full: its entries move to a first index node */
		if (grow((void **)&d->node, &d->cnode, 0, sizeof(*d->node)))
			return -ENOMEM;
		d->node[d->nnode++] = d->nleaf;
		return 0;
	}
	for (k = 0; k < d->nnode; k++) {
		if (li < before + d->node[k])
			break;
		before += d->node[k];
	}
	if (k == d->nnode)
		k--;
	d->node[k]++;
	if (d->node[k] <= d->node_cap)
		return 0;
	/* a full node splits in half; the root gets an entry for the new one */
	if (grow((void **)&d->node, &d->cnode, d->nnode, sizeof(*d->node)))
		return -ENOMEM;
	memmove(&d->node[k + 2], &d->node[k + 1], (d->nnode - k - 1) * sizeof(*d->node));
	d->node[k + 1] = d->node[k] - d->node[k] / 2;
	d->node[k] /= 2;
	d->nnode++;
	return 0;
}

/*
 * do_split: sort the full leaf's entries by hash, move those of the highest
 * hashes to a new leaf until more than half of an entry would pass half the
 * block (split in half by count if they all would), then put e where its
 * hash belongs.
 */
static int leaf_split(struct fsl_dir_sim *d, uint32_t li, struct ds_ent e)
{
	struct ds_leaf *l = &d->leaf[li], nl = { 0 };
	uint32_t size = 0, move = 0, split, i;
	int64_t k;

	qsort(l->e, l->n, sizeof(*l->e), ent_cmp);
	for (k = (int64_t)l->n - 1; k >= 0; k--) {
		if (size + l->e[k].size / 2 > d->bs / 2)
			break;
		size += l->e[k].size;
		move++;
	}
	split = k > 0 ? l->n - move : l->n / 2;
	nl.start = l->e[split].hash;
	for (i = split; i < l->n; i++)
		if (leaf_put(&nl, l->e[i]))
			return -ENOMEM;
	l->n = split;
	l->used = 0;
	for (i = 0; i < l->n; i++)
		l->used += l->e[i].size;
	if (grow((void **)&d->leaf, &d->cleaf, d->nleaf, sizeof(*d->leaf))) {
		free(nl.e);
		return -ENOMEM;
	}
	memmove(&d->leaf[li + 2], &d->leaf[li + 1], (d->nleaf - li - 1) * sizeof(*d->leaf));
	d->leaf[li + 1] = nl;
	d->nleaf++;
	if (index_add(d, li))
		return -ENOMEM;
	return leaf_put(&d->leaf[e.hash >= d->leaf[li + 1].start ? li + 1 : li], e);
}

int fsl_dir_sim__add(struct fsl_dir_sim *d, uint32_t hash, uint32_t name_len)
{
	struct ds_ent e = { hash, rec_len(name_len) };
	uint32_t li, i;

	if (d->err)
		return d->err;
	if (!d->indexed) {
		if (d->linear_used + e.size <= d->usable) {
			if (grow((void **)&d->lin, &d->clin, d->nlin, sizeof(*d->lin)))
				return d->err = -ENOMEM;
			d->lin[d->nlin++] = e;
			d->linear_used += e.size;
			return 0;
		}
		/*
		 * make_indexed_dir: block 0 becomes the root, its entries go to
		 * block 1, which is split at once for the new entry
		 */
		d->indexed = 1;
		if (grow((void **)&d->leaf, &d->cleaf, 0, sizeof(*d->leaf)))
			return d->err = -ENOMEM;
		memset(&d->leaf[0], 0, sizeof(d->leaf[0]));
		d->nleaf = 1;
		for (i = 0; i < d->nlin; i++)
			if (leaf_put(&d->leaf[0], d->lin[i]))
				return d->err = -ENOMEM;
		free(d->lin);
		d->lin = NULL;
		d->nlin = d->clin = 0;
		return d->err = leaf_split(d, 0, e);
	}
	li = leaf_of(d, hash);
	if (d->leaf[li].used + e.size <= d->usable)
		return d->err = leaf_put(&d->leaf[li], e);
	return d->err = leaf_split(d, li, e);
}

uint64_t fsl_dir_sim__blocks(const struct fsl_dir_sim *d)
{
	/* block 0 (linear, or the root), the leaves, the index nodes */
	return d->indexed ? 1 + (uint64_t)d->nleaf + d->nnode : 1;
}
