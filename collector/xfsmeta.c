// SPDX-License-Identifier: GPL-2.0
/*
 * XFS geometry: what the XFS_IOC_FSGEOMETRY ioctl on the mount point says
 * (the kernel's in-memory superblock, so it is right while mounted), stored
 * as xfs.* keys. The inode-to-data distance needs the AG size and its log2
 * (agblklog: inode numbers and fsblocks put the AG number above it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
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
