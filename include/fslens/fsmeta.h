/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metadata capture for a recording (collector/meta.c, collector/ext4meta.c):
 * the machine, the target filesystem and its device, ext4 geometry and
 * free-space bitmaps. Plain C (no libbpf), written into a sink so it can be
 * tested without a trace writer. Keys are named in include/fslens/meta.h and
 * described in docs/record.md.
 */
#ifndef FSLENS_FSMETA_H
#define FSLENS_FSMETA_H

#include <stddef.h>
#include <stdint.h>
#include "trace.h"

struct fsl_meta_sink {
	void *ctx;
	int (*kv)(void *ctx, const char *key, const char *value);
	int (*text)(void *ctx, const char *name, const void *data, size_t len);
	int (*bitmap)(void *ctx, const struct fsl_bitmap *bm);
};

/* printf a value into s->kv(key); what the sink's kv returns. */
int fsl_sink_kv(const struct fsl_meta_sink *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What `-m MOUNT` or `-d DEV` resolves to. */
struct fsl_target {
	char mount[4096];	/* mount point ("" if the device is not mounted) */
	char source[4096];	/* mount source, e.g. /dev/loop0 */
	char fstype[64];
	char options[1024];	/* mount options (per-mount and superblock) */
	char devname[64];	/* kernel name of the fs device: "loop0", "sda1" */
	char diskname[64];	/* the whole disk under it: "loop0", "sda" */
	char bdev[4200];	/* a device node for the fs device (libext2fs opens it) */
	uint32_t dev;		/* fs dev_t, kernel encoding (FSL_MKDEV) */
	uint32_t blkdev;	/* disk dev_t, kernel encoding */
	char mountinfo[4096];	/* the mountinfo line */
};

/* Resolve a mount point or a block device. -ENOENT: not found/not mounted. */
int fsl_target_resolve(const char *mount, const char *dev, struct fsl_target *t);

/*
 * Is the target served by the ext4 driver (ext4, or ext2/ext3 mounted by
 * it)? Its ext4 and jbd2 tracepoints, geometry and journal then apply.
 */
int fsl_target_is_ext4(const struct fsl_target *t);

/*
 * The first cgroup2 mount point in mounts_file (/proc/self/mounts, or
 * another /proc's): where cgroup v2 paths are read. "" with none.
 */
void fsl_cgroup2_mount(const char *mounts_file, char *out, size_t n);

/* Kernel HZ and where it came from ("config", "config.gz", "measured"). */
int fsl_kernel_hz(const char **source);

/* host.*, clock.* keys. */
int fsl_meta_host(const struct fsl_meta_sink *s);
/* target.*, ext4.tune.*, queue.* keys. */
int fsl_meta_target(const struct fsl_meta_sink *s, const struct fsl_target *t);
/* /proc/fs/jbd2/<dev>-N/info as text "jbd2.info.<when>"; -ENOENT if no journal. */
int fsl_meta_jbd2(const struct fsl_meta_sink *s, const struct fsl_target *t, const char *when);

/* xfs.* geometry keys from XFS_IOC_FSGEOMETRY on the mount point. */
int fsl_meta_xfs(const struct fsl_meta_sink *s, const struct fsl_target *t);
/*
 * The kernel's space map of the mounted filesystem (FS_IOC_GETFSMAP, what
 * `xfs_io -c fsmap` prints) as text "fsmap.<when>": free space and the
 * other special owners one a line, file data summed. -errno (EOPNOTSUPP:
 * the filesystem has no GETFSMAP).
 */
int fsl_meta_fsmap(const struct fsl_meta_sink *s, const struct fsl_target *t, const char *when);
/* XFS inode chunks in use (XFS_IOC_FSINUMBERS) as text "xfs.inumbers.<when>". */
int fsl_meta_xfs_inumbers(const struct fsl_meta_sink *s, const struct fsl_target *t,
			  const char *when);
/* ext4.* superblock keys read with libext2fs (-EOPNOTSUPP without it). */
int fsl_meta_ext4(const struct fsl_meta_sink *s, const struct fsl_target *t);
/*
 * Per-group descriptor state (libext2fs; the caller syncs first):
 * ext4.used_dirs (directories per group, comma list) and ext4.block_uninit
 * (the groups flagged BLOCK_UNINIT, comma list, may be empty).
 */
int fsl_meta_ext4_groups(const struct fsl_meta_sink *s, const char *bdev);
/*
 * Directories, from one inode scan (libext2fs; the caller syncs first):
 * at FSL_BITMAP_START the text FSL_TEXT_EXT4_DIR_BLOCKS, at FSL_BITMAP_END
 * FSL_TEXT_EXT4_HTREE (indexed directories of 2 blocks or more, largest
 * first, at most 64). Skipped (-E2BIG) past 2,000,000 inodes in use.
 */
int fsl_meta_ext4_dirs(const struct fsl_meta_sink *s, const char *bdev, unsigned int when);
/*
 * Read /proc/fs/ext4/<dev>/mb_groups through, which makes the kernel load
 * every group's buddy, then store ext4.mb_loaded=all; -errno if unreadable.
 */
int fsl_meta_mb_loaded(const struct fsl_meta_sink *s, const struct fsl_target *t);
/*
 * Block and inode bitmaps of the device (read-only, libext2fs) as run
 * lengths; the caller syncs the filesystem first. when: FSL_BITMAP_START/END.
 */
int fsl_meta_bitmaps(const struct fsl_meta_sink *s, const char *bdev, unsigned int when);
/* Same, into caller-owned bitmaps (free with fsl_bitmap_free). */
int fsl_ext4_read_bitmaps(const char *bdev, struct fsl_bitmap *blocks, struct fsl_bitmap *inodes);

#endif /* FSLENS_FSMETA_H */
