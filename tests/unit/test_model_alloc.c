// SPDX-License-Identifier: GPL-2.0
/*
 * Block allocator model: hand-computed placements on a small synthetic
 * filesystem (4 KiB blocks, 32768 blocks per group, no flex_bg unless said).
 */
#include <errno.h>
#include <stdlib.h>
#include "t.h"
#include "fslens/model.h"

static struct fsl_alloc *small_fs(uint32_t flex)
{
	struct fsl_geom g;
	struct fsl_alloc *a;
	int err = 0;

	fsl_geom_defaults(&g);
	g.blocks_count = 4 * 32768;
	g.inodes_per_group = 8192;
	g.flex_size = flex;
	g.journal_blocks = 4096;
	a = fsl_alloc__new(&g, NULL, &err);
	if (a)
		fsl_alloc__mark_used(a, 0, 1000);	/* group 0 metadata */
	return a;
}

static struct fsl_alloc_req data_req(uint64_t ino, uint32_t logical, uint32_t len,
				     uint64_t isize)
{
	struct fsl_alloc_req r = { 0 };

	r.ino = ino;
	r.logical = logical;
	r.len = len;
	r.flags = FSL_MB_HINT_DATA | FSL_MB_DELALLOC_RESERVED;
	r.is_reg = 1;
	r.closed = 0;
	r.isize_blocks = isize;
	return r;
}

TEST(model_alloc_normalize_buckets)
{
	uint32_t s, n;

	fsl_alloc_normalize_size(4096, 0, 1, 1, &s, &n);
	CHECK_EQ(s, 0); CHECK_EQ(n, 4);			/* 16 KiB */
	fsl_alloc_normalize_size(4096, 0, 100, 0, &s, &n);
	CHECK_EQ(s, 0); CHECK_EQ(n, 128);		/* 400 KiB -> 512 KiB */
	fsl_alloc_normalize_size(4096, 0, 300, 0, &s, &n);
	CHECK_EQ(s, 0); CHECK_EQ(n, 512);		/* 1.2 MiB -> 2 MiB window */
	fsl_alloc_normalize_size(4096, 1000, 10, 0, &s, &n);
	CHECK_EQ(s, 512); CHECK_EQ(n, 512);		/* 1010 blocks < 4 MiB: 2 MiB window */
	fsl_alloc_normalize_size(4096, 1500, 10, 0, &s, &n);
	CHECK_EQ(s, 1024); CHECK_EQ(n, 1024);		/* 5.9 MiB: 4 MiB window */
	fsl_alloc_normalize_size(4096, 3000, 2048, 0, &s, &n);
	CHECK_EQ(s, 2048); CHECK_EQ(n, 2048);		/* 8 MiB window */
	fsl_alloc_normalize_size(4096, 0, 2048, 0, &s, &n);
	CHECK_EQ(n, 1024);				/* exactly 8 MiB: the 4 MiB bucket */
	fsl_alloc_normalize_size(1024, 5000, 10, 0, &s, &n);
	CHECK_EQ(s, 4096); CHECK_EQ(n, 2048);		/* 1 KiB blocks: always 2 MiB */
	/* 4 KiB blocks: max (2 << 12) <= 8 KiB, so anything larger is an 8 MiB window */
	fsl_alloc_normalize_size(4096, 10000, 4096, 0, &s, &n);
	CHECK_EQ(s, 8192); CHECK_EQ(n, 2048);
	/* 64 KiB blocks: max = 128 KiB > 8 KiB, a large request is taken as asked */
	fsl_alloc_normalize_size(65536, 1000, 600, 0, &s, &n);
	CHECK_EQ(s, 1000); CHECK_EQ(n, 600);
}

TEST(model_alloc_group_pa_small_files)
{
	struct fsl_alloc *a = small_fs(1);
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;

	REQUIRE(a);
	/* 1 block, closed=0, size 1 <= mb_stream_req: locality group, normalized to 512 */
	r = data_req(12, 0, 1, 1);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK(res.flags & FSL_MB_HINT_GROUP_ALLOC);
	CHECK_EQ(res.g_len, 512);
	CHECK_EQ(res.path, FSL_PATH_CR0);
	/* free run [1000,32768): first buddy chunk of order >= 9 is [1024,2048) (order 10) */
	CHECK_U64(res.pblk, 1024);
	CHECK_EQ(res.len, 1);
	CHECK_EQ(res.pa_group, 1);
	CHECK_U64(res.pa_pstart, 1024);
	CHECK_EQ(res.pa_len, 512);
	/* the whole 512 are held in core, only one block on disk */
	CHECK(fsl_alloc__test_incore(a, 1535));
	CHECK(!fsl_alloc__test_used(a, 1030));
	CHECK(fsl_alloc__test_used(a, 1024));
	/* the next small file on the same CPU takes the next block of the group PA */
	r = data_req(13, 0, 2, 2);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_EQ(res.path, FSL_PATH_GROUP_PA);
	CHECK_U64(res.pblk, 1025);
	CHECK_EQ(res.len, 2);
	/* another CPU has its own locality group: new PA right after ours */
	r = data_req(14, 0, 1, 1);
	r.cpu = 1;
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_EQ(res.path, FSL_PATH_CR0);
	CHECK_U64(res.pblk, 1536);	/* [1536,2048) is now an order-9 chunk */
	fsl_alloc__free(a);
}

TEST(model_alloc_stream_and_goal)
{
	struct fsl_alloc *a = small_fs(1);
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;

	REQUIRE(a);
	r = data_req(12, 0, 512, 512);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK(res.flags & FSL_MB_STREAM_ALLOC);
	CHECK_EQ(res.g_len, 512);
	CHECK_U64(res.pblk, 1024);
	CHECK_EQ(res.len, 512);
	CHECK_EQ(res.pa_len, 0);
	/* append: goal = pleft + 1, normalized window starts after lleft -> find_by_goal */
	r = data_req(12, 512, 512, 1024);
	fsl_alloc__neighbours(a, &r);
	CHECK_EQ(r.lleft, 511);
	CHECK_U64(r.pleft, 1535);
	CHECK_U64(fsl_alloc__goal(a, &r), 1536);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_EQ(res.path, FSL_PATH_GOAL);
	CHECK(res.flags & FSL_MB_HINT_TRY_GOAL);
	CHECK_U64(res.pblk, 1536);
	CHECK_EQ(res.len, 512);
	CHECK_EQ(fsl_alloc__extents(a, 12), 1);	/* merged: one extent */
	fsl_alloc__free(a);
}

TEST(model_alloc_inode_pa)
{
	struct fsl_alloc *a = small_fs(1);
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;
	uint64_t first;

	REQUIRE(a);
	/* 8 blocks of a file that will be 100 blocks: stream, inode PA of 128 (512 KiB) */
	r = data_req(20, 0, 8, 100);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_EQ(res.g_len, 128);
	CHECK_EQ(res.pa_group, 0);
	CHECK_EQ(res.pa_len, 128);
	CHECK_EQ(res.pa_lstart, 0);
	/* order-7 request: first order>=7 chunk in [1000,32768) is [1024,2048) (order 10) */
	CHECK_U64(res.pa_pstart, 1024);
	first = res.pblk;
	CHECK_U64(first, 1024);
	CHECK_EQ(fsl_alloc__npa(a, 20), 1);
	r = data_req(20, 8, 8, 100);
	fsl_alloc__neighbours(a, &r);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_EQ(res.path, FSL_PATH_INODE_PA);
	CHECK_U64(res.pblk, first + 8);
	/* discarding the inode's PA frees its unused 112 blocks in core */
	CHECK(fsl_alloc__test_incore(a, first + 50));
	fsl_alloc__discard_inode_pa(a, 20);
	CHECK(!fsl_alloc__test_incore(a, first + 50));
	CHECK(fsl_alloc__test_incore(a, first + 15));
	CHECK_EQ(fsl_alloc__npa(a, 20), 0);
	fsl_alloc__free(a);
}

TEST(model_alloc_free_waits_for_commit)
{
	struct fsl_alloc *a = small_fs(1);
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;

	REQUIRE(a);
	/* everything in group 0 used except [5120,5632) which is freed in tid 7 */
	fsl_alloc__mark_used(a, 1000, 31768);
	fsl_alloc__free_blocks_tid(a, 5120, 512, 7);
	CHECK(!fsl_alloc__test_used(a, 5120));
	CHECK(fsl_alloc__test_incore(a, 5120));
	r = data_req(12, 0, 512, 512);
	CHECK_EQ(fsl_alloc__decide(a, &r, &res), 0);
	CHECK(res.pblk >= 32768);		/* not the uncommitted blocks */
	fsl_alloc__commit(a, 6);
	CHECK(fsl_alloc__test_incore(a, 5120));
	fsl_alloc__commit(a, 7);
	CHECK(!fsl_alloc__test_incore(a, 5120));
	CHECK_EQ(fsl_alloc__decide(a, &r, &res), 0);
	CHECK_U64(res.pblk, 5120);		/* an aligned order-9 chunk: cr0 takes it */
	CHECK_EQ(res.path, FSL_PATH_CR0);
	/* the same hole one block off alignment has no order-9 chunk: cr0 skips it */
	fsl_alloc__mark_used(a, 5120, 512);
	fsl_alloc__mark_free(a, 5121, 512);
	CHECK_EQ(fsl_alloc__decide(a, &r, &res), 0);
	CHECK_U64(res.pblk, 32768);
	fsl_alloc__free(a);
}

TEST(model_alloc_flex_goal_and_first_group_skip)
{
	struct fsl_alloc *a = small_fs(4);
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;

	REQUIRE(a);
	/* inode 8200 is in group 1; with flex_bg of 4 a regular file's goal is group 1 */
	r = data_req(8200, 0, 512, 512);
	CHECK_U64(fsl_alloc__goal(a, &r), 32768);
	r.is_reg = 0;
	CHECK_U64(fsl_alloc__goal(a, &r), 0);	/* directories: first group of the flex */
	/* a data request whose goal is group 0 skips it at cr0 (first group of a flex) */
	r = data_req(12, 0, 512, 512);
	r.goal = 1000;
	CHECK_EQ(fsl_alloc__decide(a, &r, &res), 0);
	CHECK_EQ(res.path, FSL_PATH_CR0);
	CHECK_U64(res.pblk, 32768);	/* group 1 is all order-13 chunks: the first one */
	fsl_alloc__free(a);
}

TEST(model_alloc_enospc_and_clone)
{
	struct fsl_alloc *a = small_fs(1), *c;
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;

	REQUIRE(a);
	fsl_alloc__mark_used(a, 0, 4 * 32768);
	c = fsl_alloc__clone(a);
	REQUIRE(c);
	fsl_alloc__mark_free(c, 40000, 3);
	r = data_req(12, 0, 1, 1);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), -ENOSPC);
	CHECK_EQ(res.path, FSL_PATH_FAIL);
	CHECK_EQ(fsl_alloc__allocate(c, &r, &res), 0);
	CHECK_U64(res.pblk, 40000);
	/* only 3 free blocks: cr3 measures them and the best found is used */
	CHECK_EQ(res.path, FSL_PATH_BEST_FOUND);
	CHECK_EQ(res.pa_len, 3);
	fsl_alloc__free(a);
	fsl_alloc__free(c);
}

/*
 * Per-inode state: inodes spread over many pages of the inode table and
 * packed in runs, one to three extents each (inline first extent, then the
 * heap), looked up, iterated once each, and cloned deeply.
 */
TEST(model_alloc_inode_table)
{
	enum { N = 3000 };
	struct fsl_alloc *a = small_fs(1), *c;
	struct fsl_alloc_req r;
	static unsigned char seen[N];
	uint64_t ino, sum = 0, n = 0;
	unsigned int ext;
	size_t cur = 0;
	uint32_t i, k;

	REQUIRE(a);
	/* i < 1000: consecutive inodes 12..1011; then every 37th from 5000 */
#define INO(i) ((i) < 1000 ? 12ull + (i) : 5000ull + 37ull * (i))
	for (i = 0; i < N; i++)
		for (k = 0; k <= i % 3; k++)	/* not contiguous: never merged */
			fsl_alloc__map(a, INO(i), 10 * k, 2000 + 100ull * i + 30 * k + 1, 2);
	for (i = 0; i < N; i++) {
		CHECK_EQ(fsl_alloc__extents(a, INO(i)), i % 3 + 1);
		CHECK_U64(fsl_alloc__first_block(a, INO(i)), 2000 + 100ull * i + 1);
	}
	CHECK_EQ(fsl_alloc__extents(a, 0), 0);
	CHECK_EQ(fsl_alloc__extents(a, 11), 0);
	CHECK_EQ(fsl_alloc__extents(a, 1012), 0);
	CHECK_EQ(fsl_alloc__extents(a, INO(1000) + 1), 0);
	c = fsl_alloc__clone(a);
	REQUIRE(c);
	/* the original changes after the clone; the clone must not */
	fsl_alloc__map(a, INO(0), 50, 900000, 1);
	/* INO(2): 0-1 at 2201, 10-11 at 2231, 20-21 at 2261; 2-9 at 2203 grows the first */
	fsl_alloc__map(a, INO(2), 2, 2203, 8);
	CHECK_EQ(fsl_alloc__extents(a, INO(0)), 2);
	CHECK_EQ(fsl_alloc__extents(a, INO(2)), 3);
	CHECK_EQ(fsl_alloc__extents(c, INO(0)), 1);
	CHECK_EQ(fsl_alloc__extents(c, INO(2)), 3);
	r = data_req(INO(2), 10, 1, 22);
	fsl_alloc__neighbours(a, &r);
	CHECK_EQ(r.lleft, 9);
	CHECK_U64(r.pleft, 2210);
	CHECK_EQ(r.lright, 20);
	CHECK_U64(r.pright, 2261);
	fsl_alloc__free(a);	/* the clone's extents are its own */
	fsl_alloc__neighbours(c, &r);
	CHECK_EQ(r.lleft, 1);
	CHECK_U64(r.pleft, 2202);
	for (i = 0; i < N; i++)
		CHECK_U64(fsl_alloc__first_block(c, INO(i)), 2000 + 100ull * i + 1);
	while (fsl_alloc__inode_next(c, &cur, &ino, &ext)) {
		uint32_t idx = ino < 1012 ? (uint32_t)(ino - 12) : (uint32_t)((ino - 5000) / 37);

		REQUIRE(idx < N && INO(idx) == ino);
		CHECK_EQ(seen[idx], 0);
		seen[idx] = 1;
		CHECK_EQ(ext, idx % 3 + 1);
		sum += ext;
		n++;
	}
#undef INO
	CHECK_U64(n, N);
	CHECK_U64(sum, N / 3 * (1 + 2 + 3));
	fsl_alloc__free(c);
}

/*
 * Kernels with s_mb_last_groups (stream requests traced with goal start -1)
 * keep one stream goal group per slot, inode number modulo the slot count;
 * min(possible CPUs, groups / 4 rounded up) slots.
 */
TEST(model_alloc_stream_goal_slots)
{
	struct fsl_alloc *a = small_fs(1);
	struct fsl_alloc_req r;
	struct fsl_alloc_res res;

	CHECK_EQ(fsl_alloc_stream_slots(2, 4), 1);
	CHECK_EQ(fsl_alloc_stream_slots(2, 16), 2);
	CHECK_EQ(fsl_alloc_stream_slots(8, 16), 4);
	CHECK_EQ(fsl_alloc_stream_slots(0, 5), 1);
	REQUIRE(a);
	fsl_alloc__set_stream_slots(a, 2);
	fsl_alloc__set_stream_goal(a, 998, 2, 0);	/* slot 0 */
	fsl_alloc__set_stream_goal(a, 997, 1, 0);	/* slot 1 */
	r = data_req(1000, 0, 512, 512);		/* slot 0: group 2 */
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK(res.flags & FSL_MB_STREAM_ALLOC);
	CHECK_U64(res.pblk, 2 * 32768);
	r = data_req(1001, 0, 512, 512);		/* slot 1: group 1, not the last one used */
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_U64(res.pblk, 32768);
	/* one global goal: the last stream allocation's group for every inode */
	fsl_alloc__set_stream_slots(a, 0);
	fsl_alloc__set_stream_goal(a, 1001, 1, 512);
	r = data_req(1002, 0, 512, 512);
	CHECK_EQ(fsl_alloc__allocate(a, &r, &res), 0);
	CHECK_U64(res.pblk, 32768 + 512);	/* after 1001's 512 */
	fsl_alloc__free(a);
}
