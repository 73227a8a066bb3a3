// SPDX-License-Identifier: GPL-2.0
/* XFS inode placement model: the newest chunk first against front to back (seed case 001). */
#include <errno.h>
#include "t.h"
#include "fslens/xfslayout.h"
#include "fslens/xfsplace.h"

/*
 * The seed's aging: an AG whose chunks at the front were emptied by a run's
 * deletes, while the last chunk made is at the back. "Most recent chunk"
 * keeps taking the back chunk; "front to back" goes to the front.
 */
TEST(model_xfsplace_newest_vs_front)
{
	struct fsl_xfsplace *p[2];
	uint32_t ino, k;
	int err = 0, i;

	for (i = 0; i < 2; i++) {
		p[i] = fsl_xfsplace__new(1, 1u << 20, i, 1, &err);
		REQUIRE(p[i]);
		/* a full chunk at 128 (root and friends), chunks made at 1024 then 4096 */
		REQUIRE(fsl_xfsplace__add_chunk(p[i], 0, 128, ~0ull) == 0);
		REQUIRE(fsl_xfsplace__use(p[i], 0, 1024) == 0);
		REQUIRE(fsl_xfsplace__use(p[i], 0, 4096) == 0);
		CHECK_EQ(fsl_xfsplace__chunks(p[i], 0), 3);
	}
	/* the newest chunk (4096) has free inodes: newest takes 4097, front 1025 */
	REQUIRE(fsl_xfsplace__decide(p[0], 0, &ino) == 0);
	CHECK_EQ(ino, 4097);
	REQUIRE(fsl_xfsplace__decide(p[1], 0, &ino) == 0);
	CHECK_EQ(ino, 1025);
	/* fill the newest chunk: newest goes back to the front (1025) */
	for (k = 4097; k < 4096 + 64; k++)
		REQUIRE(fsl_xfsplace__use(p[0], 0, k) == 0);
	REQUIRE(fsl_xfsplace__decide(p[0], 0, &ino) == 0);
	CHECK_EQ(ino, 1025);
	/* a freed inode at the front is where front-to-back goes next */
	CHECK(fsl_xfsplace__used(p[1], 0, 1024));
	fsl_xfsplace__release(p[1], 0, 1024);
	CHECK(!fsl_xfsplace__used(p[1], 0, 1024));
	REQUIRE(fsl_xfsplace__decide(p[1], 0, &ino) == 0);
	CHECK_EQ(ino, 1024);
	fsl_xfsplace__free(p[0]);
	fsl_xfsplace__free(p[1]);
}

/* Full chunks: -ENOSPC, a new chunk's place follows the newest; empty chunks go (noikeep). */
TEST(model_xfsplace_new_chunks)
{
	struct fsl_xfsplace *p;
	uint32_t ino, k;
	int err = 0;

	p = fsl_xfsplace__new(2, 1u << 16, FSL_XFSPLACE_NEWEST, 0, &err);
	REQUIRE(p);
	CHECK(fsl_xfsplace__decide(p, 1, &ino) == -ENOSPC);
	CHECK_EQ(fsl_xfsplace__next(p, 1), 0);
	REQUIRE(fsl_xfsplace__use(p, 1, 64) == 0);
	for (k = 65; k < 128; k++)
		REQUIRE(fsl_xfsplace__use(p, 1, k) == 0);
	CHECK(fsl_xfsplace__decide(p, 1, &ino) == -ENOSPC);
	CHECK_EQ(fsl_xfsplace__next(p, 1), 128);	/* contiguous with the newest, as the kernel tries */
	/* every inode freed: the chunk is given back */
	for (k = 64; k < 128; k++)
		fsl_xfsplace__release(p, 1, k);
	CHECK_EQ(fsl_xfsplace__chunks(p, 1), 0);
	CHECK(!fsl_xfsplace__has_chunk(p, 1, 64));
	CHECK(fsl_xfsplace__use(p, 2, 0) == -EINVAL);	/* no AG 2 */
	CHECK(fsl_xfsplace__new(1, 1u << 16, 7, 0, &err) == NULL);
	fsl_xfsplace__free(p);
	fsl_xfsplace__free(NULL);
}

/* The address arithmetic of xfs_bmap and xfs_db, and a damaged geometry refused. */
TEST(xfs_addr_from_geometry)
{
	struct fsl_meta_store st;
	struct fsl_xfs_addr x;
	struct fsl_meta m = { 0 };

	fsl_meta_store__init(&st);
	fsl_meta_store__view(&st, &m);
	fsl_meta_store__kv(&st, FSL_KV_XFS_BLOCK_SIZE, "4096");
	fsl_meta_store__kv(&st, FSL_KV_XFS_AG_COUNT, "4");
	fsl_meta_store__kv(&st, FSL_KV_XFS_AG_BLOCKS, "20480");
	fsl_meta_store__kv(&st, FSL_KV_XFS_AG_BLOCK_LOG, "15");
	fsl_meta_store__kv(&st, FSL_KV_XFS_INODE_SIZE, "512");
	fsl_meta_store__kv(&st, FSL_KV_XFS_INODES_PER_BLOCK, "8");
	REQUIRE(fsl_xfs_addr_init(&x, &m) == 0);
	/* inode 393344 = 1 << 18 | 131200: AG 1, agino 131200, AG block 16400 (xfs_db convert) */
	CHECK_EQ(fsl_xfs_ino_agno(&x, 393344), 1);
	CHECK_EQ(fsl_xfs_ino_agbno(&x, (1ull << 18) | 131200), 16400);
	CHECK_EQ(fsl_xfs_ino_agino(&x, (1ull << 18) | 131200), 131200);
	CHECK_EQ(fsl_xfs_agb_daddr(&x, 1, 16400), (20480 + 16400) * 8);
	CHECK(fsl_xfs_fsb_valid(&x, (2ull << 15) | 100));
	CHECK(!fsl_xfs_fsb_valid(&x, (2ull << 15) | 20480));	/* past the AG's end */
	CHECK(!fsl_xfs_fsb_valid(&x, 0xffffffffe0005ull));	/* a delayed allocation */
	fsl_meta_store__kv(&st, FSL_KV_XFS_AG_BLOCK_LOG, "60");
	CHECK(fsl_xfs_addr_init(&x, &m) < 0);
	fsl_meta_store__kv(&st, FSL_KV_XFS_AG_BLOCK_LOG, "15");
	fsl_meta_store__kv(&st, FSL_KV_XFS_INODES_PER_BLOCK, "4294967295");
	CHECK(fsl_xfs_addr_init(&x, &m) < 0);
	fsl_meta_store__fini(&st);
}
