// SPDX-License-Identifier: GPL-2.0
/*
 * Write a synthetic trace for bench/replay.sh: N files created one at a time
 * and written (1-3 blocks each, plus every 1024th file 8 MiB in 2048-block
 * writeback chunks), with the inode, block, preallocation and jbd2 events
 * the kernel would emit. The "kernel" decisions come from the model itself,
 * so the replay does its full work (decide + compare + apply) on every one.
 *   replay_gen OUT N
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fslens/model.h"
#include "fslens/trace.h"

static uint64_t now = 1000000000ull;

static void hdr(struct fsl_hdr *h, unsigned int type, size_t size)
{
	h->ts = now;
	now += 2000;
	h->pid = h->tid = 4242;
	h->type = (uint16_t)type;
	h->size = (uint16_t)size;
	h->cpu = 0;
}

static int put(struct fsl_writer *w, struct fsl_hdr *h)
{
	int e = fsl_writer__event(w, h);

	if (e)
		fprintf(stderr, "replay_gen: write: %s\n", strerror(-e));
	return e;
}

static int alloc(struct fsl_writer *w, struct fsl_alloc *a, uint64_t ino, uint32_t lblk,
		 uint32_t len, uint64_t isize, uint64_t *nev)
{
	struct fsl_ev_ext4_alloc_blocks rq = { 0 };
	struct fsl_ev_ext4_mballoc_alloc mb = { 0 };
	struct fsl_ev_ext4_pa pa = { 0 };
	struct fsl_alloc_req q = { .ino = ino, .logical = lblk, .len = len, .is_reg = 1,
				   .flags = FSL_MB_HINT_DATA | FSL_MB_DELALLOC_RESERVED,
				   .isize_blocks = isize };
	struct fsl_alloc_res res;
	int e = 0;

	fsl_alloc__neighbours(a, &q);
	q.goal = fsl_alloc__goal(a, &q);
	hdr(&rq.hdr, FSL_EV_EXT4_REQUEST_BLOCKS, sizeof(rq));
	rq.ino = ino;
	rq.logical = lblk;
	rq.len = len;
	rq.goal = q.goal;
	rq.flags = q.flags;
	rq.lleft = q.lleft;
	rq.pleft = q.pleft;
	rq.lright = q.lright;
	rq.pright = q.pright;
	q.goal = 0;
	if (fsl_alloc__allocate(a, &q, &res))
		return -ENOSPC;
	e |= put(w, &rq.hdr);
	if (res.pa_len) {
		hdr(&pa.hdr, res.pa_group ? FSL_EV_EXT4_MB_NEW_GROUP_PA : FSL_EV_EXT4_MB_NEW_INODE_PA,
		    sizeof(pa));
		pa.ino = ino;
		pa.pa_pstart = res.pa_pstart;
		pa.pa_lstart = res.pa_group ? res.pa_pstart : res.pa_lstart;
		pa.pa_len = res.pa_len;
		e |= put(w, &pa.hdr);
		(*nev)++;
	}
	hdr(&mb.hdr, res.path <= FSL_PATH_GROUP_PA ? FSL_EV_EXT4_MBALLOC_PREALLOC
						   : FSL_EV_EXT4_MBALLOC_ALLOC, sizeof(mb));
	mb.ino = ino;
	mb.flags = (uint16_t)res.flags;
	mb.cr = res.path >= FSL_PATH_CR0 ? (uint8_t)(res.path - FSL_PATH_CR0) : 0;
	mb.groups = (uint16_t)res.groups_scanned;
	mb.found = res.path == FSL_PATH_GOAL;
	mb.goal_logical = res.g_logical;
	mb.goal_len = (int32_t)res.g_len;
	e |= put(w, &mb.hdr);
	rq.block = res.pblk;
	rq.len = res.len;
	hdr(&rq.hdr, FSL_EV_EXT4_ALLOCATE_BLOCKS, sizeof(rq));
	e |= put(w, &rq.hdr);
	*nev += 3;
	return e ? -EIO : 0;
}

int main(int argc, char **argv)
{
	struct fsl_writer_opts wo = { .force = 1 };
	struct fsl_geom g;
	struct fsl_alloc *a;
	struct fsl_writer *w;
	struct fsl_bitmap bm;
	uint64_t runs[3], n, i, nev = 0, nalloc = 0, ino;
	int err = 0;

	if (argc != 3 || !(n = strtoull(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: replay_gen OUT N\n");
		return 2;
	}
	fsl_geom_defaults(&g);
	g.blocks_count = 256ull * 32768;	/* 32 GiB of 4 KiB blocks */
	g.inodes_per_group = 16384;
	g.flex_size = 16;
	g.journal_blocks = 32768;
	a = fsl_alloc__new(&g, NULL, &err);
	w = fsl_writer__open(argv[1], &wo, &err);
	if (!a || !w) {
		fprintf(stderr, "replay_gen: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	fsl_writer__kv(w, "host.kernel", "6.18.0-bench");
	fsl_writer__kv(w, "ext4.block_size", "4096");
	fsl_writer__kv(w, "ext4.blocks_count", "%llu", (unsigned long long)g.blocks_count);
	fsl_writer__kv(w, "ext4.blocks_per_group", "32768");
	fsl_writer__kv(w, "ext4.inodes_per_group", "16384");
	fsl_writer__kv(w, "ext4.group_count", "256");
	fsl_writer__kv(w, "ext4.flex_bg_size", "16");
	fsl_writer__kv(w, "ext4.journal_blocks", "32768");
	/* metadata at the start of each flex group */
	runs[0] = 0;
	runs[1] = 40000;
	runs[2] = g.blocks_count - 40000;
	fsl_alloc__mark_used(a, 0, 40000);
	bm = (struct fsl_bitmap){ FSL_BITMAP_BLOCK, FSL_BITMAP_START, 0, g.blocks_count, 3, runs };
	fsl_writer__bitmap(w, &bm);
	for (i = 0, ino = 12; i < n && !err; i++, ino++) {
		if (i % 1024 == 1023) {
			uint32_t l;

			/* 8 MiB in 512-block writeback chunks */
			for (l = 0; l < 2048 && !err; l += 512) {
				err = alloc(w, a, ino, l, 512, 2048, &nev);
				nalloc++;
			}
		} else {
			err = alloc(w, a, ino, 0, 1 + (uint32_t)(i % 3), 1 + i % 3, &nev);
			nalloc++;
		}
	}
	if (err) {
		fprintf(stderr, "replay_gen: stopped after %llu files: %s\n",
			(unsigned long long)i, strerror(-err));
		fsl_writer__abort(w);
		return 1;
	}
	err = fsl_writer__close(w);
	if (err) {
		fprintf(stderr, "replay_gen: close: %s\n", strerror(-err));
		return 1;
	}
	printf("%llu allocations, %llu alloc events\n", (unsigned long long)nalloc,
	       (unsigned long long)nev);
	fsl_alloc__free(a);
	return 0;
}
