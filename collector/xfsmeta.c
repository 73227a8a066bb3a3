// SPDX-License-Identifier: GPL-2.0
/*
 * XFS geometry: what the XFS_IOC_FSGEOMETRY ioctl on the mount point says
 * (the kernel's in-memory superblock, so it is right while mounted), stored
 * as xfs.* keys. The inode-to-data distance needs the AG size and its log2
 * (agblklog: inode numbers and fsblocks put the AG number above it).
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/fsmap.h>
#include "fslens/fsmeta.h"
#include "fslens/meta.h"

/*
 * The ioctl's argument, struct xfs_fsop_geom of the kernel's UAPI
 * (fs/xfs/libxfs/xfs_fs.h): 112 bytes up to logsunit (the v4 layout),
 * 256 in all. Spelled here so the build needs no xfslibs-dev.
 */
struct fsl_xfs_fsop_geom {
	uint32_t blocksize;
	uint32_t rtextsize;
	uint32_t agblocks;
	uint32_t agcount;
	uint32_t logblocks;
	uint32_t sectsize;
	uint32_t inodesize;
	uint32_t imaxpct;
	uint64_t datablocks;
	uint64_t rtblocks;
	uint64_t rtextents;
	uint64_t logstart;
	unsigned char uuid[16];
	uint32_t sunit;
	uint32_t swidth;
	int32_t version;
	uint32_t flags;
	uint32_t logsectsize;
	uint32_t rtsectsize;
	uint32_t dirblocksize;
	uint32_t logsunit;
	uint32_t sick;
	uint32_t checked;
	uint64_t reserved[17];
};

_Static_assert(sizeof(struct fsl_xfs_fsop_geom) == 256, "xfs_fsop_geom is 256 bytes");

#define FSL_XFS_IOC_FSGEOMETRY		_IOR('X', 126, struct fsl_xfs_fsop_geom)
#define FSL_XFS_IOC_FSGEOMETRY_V4	_IOR('X', 124, char[112])
#define FSL_XFS_INODES_PER_CHUNK	64	/* XFS_INODES_PER_CHUNK: an inode chunk */

/* ceil(log2(x)): the kernel's sb_agblklog (xfs_highbit32(agblocks - 1) + 1). */
static unsigned int log2_up(uint32_t x)
{
	unsigned int l = 0;

	while (l < 32 && (1ull << l) < x)
		l++;
	return l;
}

int fsl_meta_xfs(const struct fsl_meta_sink *s, const struct fsl_target *t)
{
	struct fsl_xfs_fsop_geom g;
	char u[40];
	int fd, err = 0, i, n;

	if (!t->mount[0])
		return -ENODEV;
	fd = open(t->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&g, 0, sizeof(g));
	/* kernels before the v5 geometry (4.20) know only the 112-byte form */
	if (ioctl(fd, FSL_XFS_IOC_FSGEOMETRY, &g) && ioctl(fd, FSL_XFS_IOC_FSGEOMETRY_V4, &g)) {
		err = -errno;
		close(fd);
		return err;
	}
	close(fd);
	if (!g.blocksize || !g.agblocks || !g.inodesize)
		return -EINVAL;
	for (i = 0, n = 0; i < 16; i++)
		n += snprintf(u + n, sizeof(u) - n, "%s%02x",
			      i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", g.uuid[i]);
	err |= fsl_sink_kv(s, FSL_KV_XFS_BLOCK_SIZE, "%u", g.blocksize);
	err |= fsl_sink_kv(s, FSL_KV_XFS_AG_COUNT, "%u", g.agcount);
	err |= fsl_sink_kv(s, FSL_KV_XFS_AG_BLOCKS, "%u", g.agblocks);
	err |= fsl_sink_kv(s, FSL_KV_XFS_AG_BLOCK_LOG, "%u", log2_up(g.agblocks));
	err |= fsl_sink_kv(s, FSL_KV_XFS_DATA_BLOCKS, "%llu", (unsigned long long)g.datablocks);
	err |= fsl_sink_kv(s, FSL_KV_XFS_SECTOR_SIZE, "%u", g.sectsize);
	err |= fsl_sink_kv(s, FSL_KV_XFS_INODE_SIZE, "%u", g.inodesize);
	err |= fsl_sink_kv(s, FSL_KV_XFS_INODES_PER_BLOCK, "%u", g.blocksize / g.inodesize);
	err |= fsl_sink_kv(s, FSL_KV_XFS_INODES_PER_CHUNK, "%u", FSL_XFS_INODES_PER_CHUNK);
	err |= fsl_sink_kv(s, FSL_KV_XFS_IMAX_PCT, "%u", g.imaxpct);
	err |= fsl_sink_kv(s, FSL_KV_XFS_LOG_BLOCKS, "%u", g.logblocks);
	err |= fsl_sink_kv(s, FSL_KV_XFS_LOG_START, "%llu", (unsigned long long)g.logstart);
	err |= fsl_sink_kv(s, FSL_KV_XFS_LOG_SUNIT, "%u", g.logsunit);
	err |= fsl_sink_kv(s, FSL_KV_XFS_STRIPE_UNIT, "%u", g.sunit);
	err |= fsl_sink_kv(s, FSL_KV_XFS_STRIPE_WIDTH, "%u", g.swidth);
	err |= fsl_sink_kv(s, FSL_KV_XFS_DIR_BLOCK_SIZE, "%u", g.dirblocksize);
	err |= fsl_sink_kv(s, FSL_KV_XFS_RT_BLOCKS, "%llu", (unsigned long long)g.rtblocks);
	err |= fsl_sink_kv(s, FSL_KV_XFS_VERSION, "%d", g.version);
	err |= fsl_sink_kv(s, FSL_KV_XFS_FLAGS, "0x%x", g.flags);
	err |= fsl_sink_kv(s, FSL_KV_XFS_UUID, "%s", u);
	return err ? -EIO : 0;
}

/* A text section built in memory (sections are written whole). */
struct tbuf {
	char *p;
	size_t n, cap;
	int err;
};

static void tb_printf(struct tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tb_printf(struct tbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->err = -EINVAL;
			return;
		}
		if (b->p && b->n + k < b->cap) {
			b->n += k;
			return;
		}
		{
			size_t c = b->cap ? b->cap * 2 : 65536;
			char *q;

			while (c < b->n + k + 1)
				c *= 2;
			q = realloc(b->p, c);
			if (!q) {
				b->err = -ENOMEM;
				return;
			}
			b->p = q;
			b->cap = c;
		}
	}
}

/*
 * Records of special owners (free space, static metadata, log, inode
 * chunks, btrees) are stored one a line; file data are summed (an aged
 * filesystem has millions of them, and the free space is what is asked).
 */
#define FSMAP_BATCH	1024
#define FSMAP_MAX_LINES	(1u << 20)

int fsl_meta_fsmap(const struct fsl_meta_sink *s, const struct fsl_target *t, const char *when)
{
	struct fsmap_head *h;
	struct tbuf b = { 0 };
	uint64_t files = 0, file_bytes = 0, lines = 0;
	char name[64];
	int fd, err = 0, last = 0;

	if (!t->mount[0])
		return -ENODEV;
	fd = open(t->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	h = calloc(1, fsmap_sizeof(FSMAP_BATCH));
	if (!h) {
		close(fd);
		return -ENOMEM;
	}
	/* the whole key space: the high key all ones (its reserved words stay 0) */
	h->fmh_keys[1].fmr_device = UINT32_MAX;
	h->fmh_keys[1].fmr_flags = UINT32_MAX;
	h->fmh_keys[1].fmr_physical = UINT64_MAX;
	h->fmh_keys[1].fmr_owner = UINT64_MAX;
	h->fmh_keys[1].fmr_offset = UINT64_MAX;
	tb_printf(&b, "# GETFSMAP: device physical length owner flags (bytes; owner 0x.. special, else inode)\n");
	while (!last && !err) {
		unsigned int i;

		h->fmh_count = FSMAP_BATCH;
		if (ioctl(fd, FS_IOC_GETFSMAP, h)) {
			err = -errno;
			break;
		}
		if (!h->fmh_entries)
			break;
		for (i = 0; i < h->fmh_entries; i++) {
			const struct fsmap *r = &h->fmh_recs[i];

			last |= !!(r->fmr_flags & FMR_OF_LAST);
			if (!(r->fmr_flags & FMR_OF_SPECIAL_OWNER)) {
				files++;
				file_bytes += r->fmr_length;
				continue;
			}
			if (++lines > FSMAP_MAX_LINES)
				continue;
			tb_printf(&b, "%u %llu %llu 0x%llx 0x%x\n", r->fmr_device,
				  (unsigned long long)r->fmr_physical,
				  (unsigned long long)r->fmr_length,
				  (unsigned long long)r->fmr_owner, r->fmr_flags);
		}
		fsmap_advance(h);
	}
	tb_printf(&b, "files %llu %llu\n", (unsigned long long)files,
		  (unsigned long long)file_bytes);
	if (lines > FSMAP_MAX_LINES)
		tb_printf(&b, "truncated %llu\n", (unsigned long long)(lines - FSMAP_MAX_LINES));
	free(h);
	close(fd);
	if (!err)
		err = b.err;
	if (!err) {
		snprintf(name, sizeof(name), "%s%s", FSL_TEXT_FSMAP_PREFIX, when);
		err = s->text(s->ctx, name, b.p, b.n) ? -EIO : 0;
	}
	free(b.p);
	return err;
}

/* XFS_IOC_FSINUMBERS (v1): the inode chunks and which of their inodes are in use. */
struct fsl_xfs_inogrp {
	uint64_t xi_startino;
	int32_t xi_alloccount;
	uint64_t xi_allocmask;
};

struct fsl_xfs_bulkreq {
	uint64_t *lastip;
	int32_t icount;
	void *ubuffer;
	int32_t *ocount;
};

#define FSL_XFS_IOC_FSINUMBERS	_IOWR('X', 103, struct fsl_xfs_bulkreq)

int fsl_meta_xfs_inumbers(const struct fsl_meta_sink *s, const struct fsl_target *t,
			  const char *when)
{
	struct fsl_xfs_inogrp g[512];
	struct fsl_xfs_bulkreq rq;
	struct tbuf b = { 0 };
	uint64_t last = 0;
	int32_t n = 0;
	char name[64];
	int fd, err = 0, i;

	if (!t->mount[0])
		return -ENODEV;
	fd = open(t->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	tb_printf(&b, "# XFS_IOC_FSINUMBERS: startino allocmask (bit i: startino + i in use)\n");
	for (;;) {
		rq.lastip = &last;
		rq.icount = sizeof(g) / sizeof(g[0]);
		rq.ubuffer = g;
		rq.ocount = &n;
		if (ioctl(fd, FSL_XFS_IOC_FSINUMBERS, &rq)) {
			err = -errno;
			break;
		}
		if (n <= 0)
			break;
		for (i = 0; i < n; i++)
			tb_printf(&b, "%llu 0x%llx\n", (unsigned long long)g[i].xi_startino,
				  (unsigned long long)g[i].xi_allocmask);
	}
	close(fd);
	if (!err)
		err = b.err;
	if (!err) {
		snprintf(name, sizeof(name), "%s%s", FSL_TEXT_XFS_INUMBERS_PREFIX, when);
		err = s->text(s->ctx, name, b.p, b.n) ? -EIO : 0;
	}
	free(b.p);
	return err;
}
