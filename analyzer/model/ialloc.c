// SPDX-License-Identifier: GPL-2.0
/*
 * A model of ext4's inode allocator (find_group_orlov / find_group_other and
 * the first-free-bit search), plus an XFS-like policy for what-if runs.
 * Written from the kernel's documented behaviour; see docs/model.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/model.h"

#define NONE 0xffffffffu
#define XFS_CHUNK 64

struct dirinfo {
	uint64_t ino;
	uint32_t last_alloc_group;
	uint8_t topdir;
};

struct fsl_ialloc {
	struct fsl_geom g;
	int policy;
	uint32_t wpg;
	uint64_t *bits;		/* inode bitmap, bit (ino - 1) */
	uint8_t *is_dir;	/* per inode: allocated as a directory (known ones) */
	uint32_t *free_inodes;	/* per group */
	uint32_t *used_dirs;
	uint64_t *free_blocks;
	struct dirinfo *dirs;	/* open-addressed */
	uint32_t dcap, dn;
	uint64_t data_hint;
	uint64_t xfs_chunk;	/* first inode of the current chunk, 0 none */
};

static const char *const how_names[FSL_IHOW__MAX] = {
	"parent", "last_alloc", "orlov_top", "orlov", "fallback", "random", "xfs",
};

const char *fsl_ialloc_how_name(int how)
{
	return how >= 0 && how < FSL_IHOW__MAX ? how_names[how] : "?";
}

int fsl_ialloc_policy_parse(const char *s, int *policy)
{
	if (!strcmp(s, "ext4") || !strcmp(s, "orlov"))
		*policy = FSL_IALLOC_EXT4;
	else if (!strcmp(s, "xfs-newino") || !strcmp(s, "xfs"))
		*policy = FSL_IALLOC_XFS_NEWINO;
	else
		return -EINVAL;
	return 0;
}

const char *fsl_ialloc_policy_name(int policy)
{
	return policy == FSL_IALLOC_XFS_NEWINO ? "xfs-newino" : "ext4";
}

static int test_bit64(const uint64_t *w, uint64_t b)
{
	return (w[b >> 6] >> (b & 63)) & 1;
}

struct fsl_ialloc *fsl_ialloc__new(const struct fsl_geom *g, int policy, int *err)
{
	struct fsl_ialloc *ia = calloc(1, sizeof(*ia));
	struct fsl_geom gg = *g;
	uint64_t ninodes;
	uint32_t i;

	if (!ia) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = fsl_geom_finish(&gg);
	if (*err) {
		free(ia);
		return NULL;
	}
	ia->g = gg;
	ia->policy = policy;
	ninodes = (uint64_t)gg.ngroups * gg.inodes_per_group;
	ia->bits = calloc((ninodes + 63) / 64, 8);
	ia->is_dir = calloc(ninodes + 1, 1);
	ia->free_inodes = calloc(gg.ngroups, 4);
	ia->used_dirs = calloc(gg.ngroups, 4);
	ia->free_blocks = calloc(gg.ngroups, 8);
	ia->dcap = 1024;
	ia->dirs = calloc(ia->dcap, sizeof(*ia->dirs));
	if (!ia->bits || !ia->is_dir || !ia->free_inodes || !ia->used_dirs ||
	    !ia->free_blocks || !ia->dirs) {
		fsl_ialloc__free(ia);
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < gg.ngroups; i++) {
		ia->free_inodes[i] = gg.inodes_per_group;
		ia->free_blocks[i] = gg.blocks_per_group;
	}
	return ia;
}

void fsl_ialloc__free(struct fsl_ialloc *ia)
{
	if (!ia)
		return;
	free(ia->bits);
	free(ia->is_dir);
	free(ia->free_inodes);
	free(ia->used_dirs);
	free(ia->free_blocks);
	free(ia->dirs);
	free(ia);
}

struct fsl_ialloc *fsl_ialloc__clone(const struct fsl_ialloc *ia)
{
	struct fsl_ialloc *c = malloc(sizeof(*c));
	uint64_t ninodes = (uint64_t)ia->g.ngroups * ia->g.inodes_per_group;

	if (!c)
		return NULL;
	*c = *ia;
	c->bits = malloc((ninodes + 63) / 64 * 8);
	c->is_dir = malloc(ninodes + 1);
	c->free_inodes = malloc(ia->g.ngroups * 4);
	c->used_dirs = malloc(ia->g.ngroups * 4);
	c->free_blocks = malloc(ia->g.ngroups * 8);
	c->dirs = malloc(ia->dcap * sizeof(*ia->dirs));
	if (!c->bits || !c->is_dir || !c->free_inodes || !c->used_dirs || !c->free_blocks ||
	    !c->dirs) {
		fsl_ialloc__free(c);
		return NULL;
	}
	memcpy(c->bits, ia->bits, (ninodes + 63) / 64 * 8);
	memcpy(c->is_dir, ia->is_dir, ninodes + 1);
	memcpy(c->free_inodes, ia->free_inodes, ia->g.ngroups * 4);
	memcpy(c->used_dirs, ia->used_dirs, ia->g.ngroups * 4);
	memcpy(c->free_blocks, ia->free_blocks, ia->g.ngroups * 8);
	memcpy(c->dirs, ia->dirs, ia->dcap * sizeof(*ia->dirs));
	return c;
}

static struct dirinfo *dir_get(struct fsl_ialloc *ia, uint64_t ino, int create)
{
	uint32_t h = (uint32_t)((ino * 0x9e3779b97f4a7c15ull) >> 40) & (ia->dcap - 1);

	while (ia->dirs[h].ino) {
		if (ia->dirs[h].ino == ino)
			return &ia->dirs[h];
		h = (h + 1) & (ia->dcap - 1);
	}
	if (!create)
		return NULL;
	if ((ia->dn + 1) * 2 > ia->dcap) {
		struct dirinfo *old = ia->dirs;
		uint32_t oc = ia->dcap, i;

		ia->dirs = calloc(oc * 2, sizeof(*old));
		if (!ia->dirs) {
			ia->dirs = old;
			return NULL;
		}
		ia->dcap = oc * 2;
		ia->dn = 0;
		for (i = 0; i < oc; i++)
			if (old[i].ino)
				*dir_get(ia, old[i].ino, 1) = old[i];
		free(old);
		return dir_get(ia, ino, 1);
	}
	ia->dirs[h].ino = ino;
	ia->dirs[h].last_alloc_group = NONE;
	ia->dn++;
	return &ia->dirs[h];
}

static uint32_t ino_group(const struct fsl_ialloc *ia, uint64_t ino)
{
	return (uint32_t)((ino - 1) / ia->g.inodes_per_group);
}

void fsl_ialloc__mark_used(struct fsl_ialloc *ia, uint64_t ino, int is_dir)
{
	uint64_t b = ino - 1;
	uint32_t g;

	if (!ino || ino > (uint64_t)ia->g.ngroups * ia->g.inodes_per_group)
		return;
	g = ino_group(ia, ino);
	if (!test_bit64(ia->bits, b)) {
		ia->bits[b >> 6] |= 1ull << (b & 63);
		ia->free_inodes[g]--;
	}
	if (is_dir && !ia->is_dir[ino]) {
		ia->is_dir[ino] = 1;
		ia->used_dirs[g]++;
	}
}

void fsl_ialloc__mark_free(struct fsl_ialloc *ia, uint64_t ino)
{
	uint64_t b = ino - 1;
	uint32_t g;

	if (!ino || ino > (uint64_t)ia->g.ngroups * ia->g.inodes_per_group)
		return;
	g = ino_group(ia, ino);
	if (test_bit64(ia->bits, b)) {
		ia->bits[b >> 6] &= ~(1ull << (b & 63));
		ia->free_inodes[g]++;
	}
	if (ia->is_dir[ino]) {
		ia->is_dir[ino] = 0;
		if (ia->used_dirs[g])
			ia->used_dirs[g]--;
	}
}

int fsl_ialloc__test_used(const struct fsl_ialloc *ia, uint64_t ino)
{
	if (!ino || ino > (uint64_t)ia->g.ngroups * ia->g.inodes_per_group)
		return 1;
	return test_bit64(ia->bits, ino - 1);
}

void fsl_ialloc__set_free_blocks(struct fsl_ialloc *ia, uint32_t group, uint64_t free)
{
	if (group < ia->g.ngroups)
		ia->free_blocks[group] = free;
}

void fsl_ialloc__set_used_dirs(struct fsl_ialloc *ia, uint32_t group, uint32_t ndirs)
{
	if (group < ia->g.ngroups)
		ia->used_dirs[group] = ndirs;
}

void fsl_ialloc__set_topdir(struct fsl_ialloc *ia, uint64_t dir_ino)
{
	struct dirinfo *d = dir_get(ia, dir_ino, 1);

	if (d)
		d->topdir = 1;
}

void fsl_ialloc__set_policy(struct fsl_ialloc *ia, int policy)
{
	ia->policy = policy;
}

void fsl_ialloc__set_data_hint(struct fsl_ialloc *ia, uint64_t blk)
{
	ia->data_hint = blk;
}

struct ostats {
	uint64_t free_inodes, free_blocks, used_dirs;
};

/* Sum of a flex group's counters (get_orlov_stats). */
static void flex_stats(const struct fsl_ialloc *ia, uint32_t fg, uint32_t fs, struct ostats *s)
{
	uint32_t g;

	memset(s, 0, sizeof(*s));
	for (g = fg * fs; g < (fg + 1) * fs && g < ia->g.ngroups; g++) {
		s->free_inodes += ia->free_inodes[g];
		s->free_blocks += ia->free_blocks[g];
		s->used_dirs += ia->used_dirs[g];
	}
}

static int orlov(struct fsl_ialloc *ia, const struct fsl_ialloc_req *r, uint32_t *group,
		 int *how)
{
	uint32_t fs = ia->g.flex_size > 1 ? ia->g.flex_size : 1;
	uint32_t real_ngroups = ia->g.ngroups, ngroups = (real_ngroups + fs - 1) / fs;
	uint32_t parent_group = ino_group(ia, r->dir), i, g, grp = 0;
	uint64_t freei = 0, freeb = 0, ndirs = 0, avefreei, avefreeb;
	struct dirinfo *pd = dir_get(ia, r->dir, 0);
	struct ostats st;
	int found = 0;

	for (i = 0; i < real_ngroups; i++) {
		freei += ia->free_inodes[i];
		freeb += ia->free_blocks[i];
		ndirs += ia->used_dirs[i];
	}
	avefreei = freei / ngroups;
	avefreeb = freeb / ngroups;
	if (fs > 1)
		parent_group /= fs;

	if (r->is_dir && (r->dir == ia->g.root_ino || (pd && pd->topdir))) {
		uint64_t best_ndir = ia->g.inodes_per_group;
		uint32_t h;

		if (r->name && ia->g.has_hash_seed) {
			h = fsl_dirhash_half_md4(r->name, r->name_len, ia->g.hash_seed, 0);
			*how = FSL_IHOW_ORLOV_TOP;
		} else {
			/* the kernel uses a random start here when it has no name */
			h = 0;
			*how = FSL_IHOW_RANDOM;
		}
		parent_group = h % ngroups;
		for (i = 0; i < ngroups; i++) {
			g = (parent_group + i) % ngroups;
			flex_stats(ia, g, fs, &st);
			if (!st.free_inodes || st.used_dirs >= best_ndir ||
			    st.free_inodes < avefreei || st.free_blocks < avefreeb)
				continue;
			grp = g;
			found = 1;
			best_ndir = st.used_dirs;
		}
		if (!found)
			goto fallback;
		goto found_flex;
	}
	{
		uint64_t max_dirs = ndirs / ngroups + (uint64_t)ia->g.inodes_per_group * fs / 16;
		int64_t min_inodes = (int64_t)avefreei - (int64_t)ia->g.inodes_per_group * fs / 4;
		int64_t min_blocks = (int64_t)avefreeb - (int64_t)ia->g.blocks_per_group * fs / 4;

		if (min_inodes < 1)
			min_inodes = 1;
		*how = FSL_IHOW_ORLOV;
		if (pd && pd->last_alloc_group != NONE)
			parent_group = fs > 1 ? pd->last_alloc_group / fs : pd->last_alloc_group;
		for (i = 0; i < ngroups; i++) {
			grp = (parent_group + i) % ngroups;
			flex_stats(ia, grp, fs, &st);
			if (st.used_dirs >= max_dirs || (int64_t)st.free_inodes < min_inodes ||
			    (int64_t)st.free_blocks < min_blocks)
				continue;
			goto found_flex;
		}
		goto fallback;
	}
found_flex:
	if (fs == 1) {
		*group = grp;
		return 0;
	}
	for (i = 0; i < fs && grp * fs + i < real_ngroups; i++)
		if (ia->free_inodes[grp * fs + i]) {
			*group = grp * fs + i;
			return 0;
		}
fallback:
	*how = FSL_IHOW_FALLBACK;
	avefreei = freei / real_ngroups;
	parent_group = ino_group(ia, r->dir);
	for (;;) {
		for (i = 0; i < real_ngroups; i++) {
			g = (parent_group + i) % real_ngroups;
			if (ia->free_inodes[g] && ia->free_inodes[g] >= avefreei) {
				*group = g;
				return 0;
			}
		}
		if (!avefreei)
			return -ENOSPC;
		avefreei = 0;
	}
}

static int other(struct fsl_ialloc *ia, const struct fsl_ialloc_req *r, uint32_t *group,
		 int *how)
{
	uint32_t fs = ia->g.flex_size, ngroups = ia->g.ngroups;
	uint32_t parent_group = ino_group(ia, r->dir), i, last;
	struct dirinfo *pd = dir_get(ia, r->dir, 0);
	int retry = 0;

	*how = FSL_IHOW_PARENT;
	if (fs > 1) {
again:
		parent_group &= ~(fs - 1);
		last = parent_group + fs;
		if (last > ngroups)
			last = ngroups;
		for (i = parent_group; i < last; i++)
			if (ia->free_inodes[i]) {
				*group = i;
				return 0;
			}
		if (!retry && pd && pd->last_alloc_group != NONE) {
			retry = 1;
			*how = FSL_IHOW_LAST_ALLOC;
			parent_group = pd->last_alloc_group;
			goto again;
		}
		{
			struct fsl_ialloc_req rr = *r;

			rr.is_dir = 0;
			return orlov(ia, &rr, group, how);
		}
	}
	*group = parent_group;
	if (ia->free_inodes[*group] && ia->free_blocks[*group])
		return 0;
	*group = (uint32_t)((*group + r->dir) % ngroups);
	for (i = 1; i < ngroups; i <<= 1) {
		*group += i;
		if (*group >= ngroups)
			*group -= ngroups;
		if (ia->free_inodes[*group] && ia->free_blocks[*group])
			return 0;
	}
	*group = parent_group;
	for (i = 0; i < ngroups; i++) {
		if (++*group >= ngroups)
			*group = 0;
		if (ia->free_inodes[*group])
			return 0;
	}
	return -ENOSPC;
}

/* First free inode from group on, wrapping (the loop in __ext4_new_inode). */
static uint64_t first_free(const struct fsl_ialloc *ia, uint32_t group)
{
	uint32_t ipg = ia->g.inodes_per_group, n;

	for (n = 0; n < ia->g.ngroups; n++, group = group + 1 >= ia->g.ngroups ? 0 : group + 1) {
		uint64_t b = (uint64_t)group * ipg, end = b + ipg;

		if (!ia->free_inodes[group])
			continue;
		if (b + 1 < ia->g.first_ino)
			b = ia->g.first_ino - 1;
		while (b < end) {
			uint64_t w = ~ia->bits[b >> 6] & (~0ull << (b & 63));

			if (w) {
				b = (b & ~63ull) + (uint64_t)__builtin_ctzll(w);
				if (b < end)
					return b + 1;
				break;
			}
			b = (b & ~63ull) + 64;
		}
	}
	return 0;
}

static int xfs_newino(struct fsl_ialloc *ia, struct fsl_ialloc_res *res)
{
	uint32_t ipg = ia->g.inodes_per_group, g0, n, g, c;
	uint64_t ino, i;

	res->how = FSL_IHOW_XFS;
	if (ia->xfs_chunk) {
		for (i = 0; i < XFS_CHUNK; i++) {
			ino = ia->xfs_chunk + i;
			if (ino >= ia->g.first_ino && !fsl_ialloc__test_used(ia, ino)) {
				res->ino = ino;
				res->group = ino_group(ia, ino);
				return 0;
			}
		}
	}
	/* a new chunk where data is being written now */
	g0 = ia->data_hint > ia->g.first_data_block ?
		(uint32_t)((ia->data_hint - ia->g.first_data_block) / ia->g.blocks_per_group) : 0;
	if (g0 >= ia->g.ngroups)
		g0 = 0;
	for (n = 0, g = g0; n < ia->g.ngroups; n++, g = g + 1 >= ia->g.ngroups ? 0 : g + 1) {
		if (ia->free_inodes[g] < XFS_CHUNK)
			continue;
		for (c = 0; c + XFS_CHUNK <= ipg; c += XFS_CHUNK) {
			uint64_t first = (uint64_t)g * ipg + c + 1;
			int ok = first >= ia->g.first_ino;

			for (i = 0; ok && i < XFS_CHUNK; i++)
				ok = !test_bit64(ia->bits, first - 1 + i);
			if (ok) {
				ia->xfs_chunk = first;
				res->ino = first;
				res->group = g;
				return 0;
			}
		}
	}
	return -ENOSPC;
}

int fsl_ialloc__decide(struct fsl_ialloc *ia, const struct fsl_ialloc_req *r,
		       struct fsl_ialloc_res *res)
{
	uint32_t group = 0;
	int how = 0, err;

	memset(res, 0, sizeof(*res));
	/* the parent's group indexes the per-group arrays */
	if (!r->dir || (r->dir - 1) / ia->g.inodes_per_group >= ia->g.ngroups)
		return -ERANGE;
	if (ia->policy == FSL_IALLOC_XFS_NEWINO) {
		uint64_t saved = ia->xfs_chunk;

		err = xfs_newino(ia, res);
		ia->xfs_chunk = saved;
		return err;
	}
	err = r->is_dir ? orlov(ia, r, &group, &how) : other(ia, r, &group, &how);
	if (err)
		return err;
	res->how = how;
	res->ino = first_free(ia, group);
	if (!res->ino)
		return -ENOSPC;
	res->group = ino_group(ia, res->ino);
	return 0;
}

void fsl_ialloc__apply(struct fsl_ialloc *ia, uint64_t dir, uint64_t ino, int is_dir)
{
	struct dirinfo *d;

	fsl_ialloc__mark_used(ia, ino, is_dir);
	d = dir_get(ia, dir, 1);
	if (d)
		d->last_alloc_group = ino_group(ia, ino);
}

int fsl_ialloc__allocate(struct fsl_ialloc *ia, const struct fsl_ialloc_req *r,
			 struct fsl_ialloc_res *res)
{
	int err;

	if (ia->policy == FSL_IALLOC_XFS_NEWINO)
		err = xfs_newino(ia, res);
	else
		err = fsl_ialloc__decide(ia, r, res);
	if (err)
		return err;
	fsl_ialloc__apply(ia, r->dir, res->ino, r->is_dir);
	return 0;
}
