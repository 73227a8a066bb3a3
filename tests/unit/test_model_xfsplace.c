// SPDX-License-Identifier: GPL-2.0
/* XFS inode placement model: the newest chunk first against front to back (seed case 001). */
#include <errno.h>
#include "t.h"
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
