// SPDX-License-Identifier: GPL-2.0
/* Inode allocator model: hash against debugfs, Orlov spread, near-parent, XFS policy. */
#include <errno.h>
#include <string.h>
#include "t.h"
#include "fslens/model.h"

/* Expected values printed by `debugfs -R "dx_hash -h half_md4 -s SEED name"` (e2fsprogs 1.47). */
TEST(model_dirhash_matches_debugfs)
{
	uint32_t seed[4], zero[4] = { 0 };

	REQUIRE(fsl_hash_seed_parse("3f2a9c1e-7b44-4d2e-9a61-0c5b8e7d1f20", seed) == 0);
	CHECK_U64(seed[0], 0x1e9c2a3f);
	CHECK_U64(seed[3], 0x201f7d8e);
	CHECK_U64(fsl_dirhash_half_md4("a", 1, seed, 0), 0xd4b15770);
	CHECK_U64(fsl_dirhash_half_md4("src", 3, seed, 0), 0x0806913c);
	CHECK_U64(fsl_dirhash_half_md4("linux-6.18", 10, seed, 0), 0xcee99478);
	CHECK_U64(fsl_dirhash_half_md4("abcdefghijklmnopqrstuvwxyz0123456789ABCDEF", 42, seed, 0),
		  0x40c45b6a);
	/* no seed: the MD4 initial values */
	CHECK_U64(fsl_dirhash_half_md4("a", 1, zero, 0), 0xd5fa7d7a);
	CHECK_U64(fsl_dirhash_half_md4(".hidden", 7, zero, 0), 0x13b230c0);
	CHECK(fsl_hash_seed_parse("xyz", seed) < 0);
}

static struct fsl_ialloc *fs8(uint32_t flex, int policy)
{
	struct fsl_geom g;
	struct fsl_ialloc *ia;
	int err = 0;
	uint64_t i;

	fsl_geom_defaults(&g);
	g.blocks_count = 8 * 32768;
	g.inodes_per_group = 1024;
	g.flex_size = flex;
	g.has_hash_seed = 1;
	fsl_hash_seed_parse("3f2a9c1e-7b44-4d2e-9a61-0c5b8e7d1f20", g.hash_seed);
	ia = fsl_ialloc__new(&g, policy, &err);
	if (!ia)
		return NULL;
	for (i = 1; i < 11; i++)
		fsl_ialloc__mark_used(ia, i, i == 2);
	fsl_ialloc__mark_used(ia, 11, 1);		/* lost+found */
	for (i = 0; i < 8; i++)
		fsl_ialloc__set_free_blocks(ia, (uint32_t)i, i ? 32768 : 20000);
	return ia;
}

TEST(model_ialloc_orlov_top_level_spread)
{
	struct fsl_ialloc *ia = fs8(1, FSL_IALLOC_EXT4);
	struct fsl_ialloc_req r = { .dir = 2, .is_dir = 1, .name = "src", .name_len = 3 };
	struct fsl_ialloc_res res;

	REQUIRE(ia);
	/* hash("src") = 0x0806913c, % 8 groups = 4; groups 4..7,1..3 have 0 dirs: 4 wins */
	CHECK_EQ(fsl_ialloc__allocate(ia, &r, &res), 0);
	CHECK_EQ(res.how, FSL_IHOW_ORLOV_TOP);
	CHECK_EQ(res.group, 4);
	CHECK_U64(res.ino, 4 * 1024 + 1);
	/* "a": 0xd4b15770 % 8 = 0 -> group 0 is below average, 1 has 0 dirs: group 1 */
	r.name = "a";
	r.name_len = 1;
	CHECK_EQ(fsl_ialloc__allocate(ia, &r, &res), 0);
	CHECK_EQ(res.group, 1);
	/* no name: the kernel would pick a random start */
	r.name = NULL;
	CHECK_EQ(fsl_ialloc__decide(ia, &r, &res), 0);
	CHECK_EQ(res.how, FSL_IHOW_RANDOM);
	fsl_ialloc__free(ia);
}

TEST(model_ialloc_near_parent)
{
	struct fsl_ialloc *ia = fs8(1, FSL_IALLOC_EXT4);
	struct fsl_ialloc_req r = { .dir = 4097, .is_dir = 0 };
	struct fsl_ialloc_res res;

	REQUIRE(ia);
	fsl_ialloc__apply(ia, 2, 4097, 1);
	/* a file goes to its parent's group, first free bit */
	CHECK_EQ(fsl_ialloc__allocate(ia, &r, &res), 0);
	CHECK_EQ(res.how, FSL_IHOW_PARENT);
	CHECK_U64(res.ino, 4098);
	/* a subdirectory (not top level): Orlov from the parent's last group */
	r.is_dir = 1;
	CHECK_EQ(fsl_ialloc__allocate(ia, &r, &res), 0);
	CHECK_EQ(res.how, FSL_IHOW_ORLOV);
	CHECK_U64(res.ino, 4099);
	/* parent's group full of inodes: quadratic probe from (group + dir ino) */
	for (uint64_t i = 4100; i <= 5 * 1024; i++)
		fsl_ialloc__mark_used(ia, i, 0);
	r.is_dir = 0;
	CHECK_EQ(fsl_ialloc__decide(ia, &r, &res), 0);
	/* (4 + 4097) % 8 = 5, +1 -> 6 */
	CHECK_EQ(res.group, 6);
	fsl_ialloc__free(ia);
}

TEST(model_ialloc_flex_and_xfs)
{
	struct fsl_ialloc *ia = fs8(4, FSL_IALLOC_EXT4), *x = fs8(4, FSL_IALLOC_XFS_NEWINO);
	struct fsl_ialloc_req r = { .dir = 5 * 1024 + 7, .is_dir = 0 };
	struct fsl_ialloc_res res;

	REQUIRE(ia && x);
	fsl_ialloc__mark_used(ia, r.dir, 1);
	/* dir in group 5, flex of 4: first group of its flex (4) with a free inode */
	CHECK_EQ(fsl_ialloc__allocate(ia, &r, &res), 0);
	CHECK_EQ(res.group, 4);
	CHECK_U64(res.ino, 4 * 1024 + 1);
	/* XFS policy: a new 64-inode chunk where data goes (group 6), then reuse it */
	fsl_ialloc__set_data_hint(x, 6 * 32768 + 100);
	CHECK_EQ(fsl_ialloc__allocate(x, &r, &res), 0);
	CHECK_U64(res.ino, 6 * 1024 + 1);
	fsl_ialloc__set_data_hint(x, 2 * 32768);
	CHECK_EQ(fsl_ialloc__allocate(x, &r, &res), 0);
	CHECK_U64(res.ino, 6 * 1024 + 2);
	fsl_ialloc__free(ia);
	fsl_ialloc__free(x);
}
