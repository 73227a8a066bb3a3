/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XFS layout (analyzer/analyses/xfslayout.c): each file's extents as
 * `xfs_bmap -v` lists them, rebuilt from XFS's own extent-mapping events;
 * the distance from each inode to its data in AGs and in disk addresses;
 * which inode chunks the creates used, AG by AG; free space from the
 * recorded GETFSMAP at the start and the end; and the seek distances of
 * reads on their own (each from the previous read, writes between left
 * out). Results of struct fsl_analysis (fsl_analysis__xfslayout); the
 * address arithmetic below is shared with the inode placement model.
 */
#ifndef FSLENS_XFSLAYOUT_H
#define FSLENS_XFSLAYOUT_H

#include <stdint.h>
#include "analysis.h"
#include "meta.h"

/*
 * XFS addresses from the recorded geometry: an inode number is
 * agno << (agblklog + inopblog) | agbno << inopblog | index in its block;
 * an fsblock (startblock) agno << agblklog | agbno; a daddr is a 512-byte
 * sector of the data device: (agno * agblocks + agbno) * blocksize / 512.
 */
struct fsl_xfs_addr {
	uint32_t agblklog, inopblog;
	uint32_t agblocks, agcount;
	uint32_t sect_per_block;	/* block size / 512 */
};

/* 0, or -ENOENT when the trace has no XFS geometry (a zeroed x). */
int fsl_xfs_addr_init(struct fsl_xfs_addr *x, const struct fsl_meta *m);

static inline uint32_t fsl_xfs_ino_agno(const struct fsl_xfs_addr *x, uint64_t ino)
{
	return (uint32_t)(ino >> (x->agblklog + x->inopblog));
}

static inline uint32_t fsl_xfs_ino_agbno(const struct fsl_xfs_addr *x, uint64_t ino)
{
	return (uint32_t)((ino >> x->inopblog) & ((1ull << x->agblklog) - 1));
}

/* The inode's number inside its AG (agino); its chunk starts at agino & ~63. */
static inline uint32_t fsl_xfs_ino_agino(const struct fsl_xfs_addr *x, uint64_t ino)
{
	return (uint32_t)(ino & ((1ull << (x->agblklog + x->inopblog)) - 1));
}

static inline uint32_t fsl_xfs_fsb_agno(const struct fsl_xfs_addr *x, uint64_t fsb)
{
	return (uint32_t)(fsb >> x->agblklog);
}

static inline uint32_t fsl_xfs_fsb_agbno(const struct fsl_xfs_addr *x, uint64_t fsb)
{
	return (uint32_t)(fsb & ((1ull << x->agblklog) - 1));
}

static inline uint64_t fsl_xfs_agb_daddr(const struct fsl_xfs_addr *x, uint32_t agno,
					 uint32_t agbno)
{
	return ((uint64_t)agno * x->agblocks + agbno) * x->sect_per_block;
}

/* A real block of the data device (not a delayed allocation, not past an AG). */
static inline int fsl_xfs_fsb_valid(const struct fsl_xfs_addr *x, uint64_t fsb)
{
	return x->agblocks && fsl_xfs_fsb_agno(x, fsb) < x->agcount &&
	       fsl_xfs_fsb_agbno(x, fsb) < x->agblocks;
}

/* One file with mapped data: its extents and how far its inode is from them. */
struct fsl_xfs_file {
	uint64_t ino;
	uint32_t extents;		/* xfs_bmap's lines that are not holes */
	uint64_t blocks;
	uint32_t ino_agno, ino_agbno;	/* where the inode is */
	uint32_t data_agno, data_agbno;	/* its first extent (lowest file offset) */
	uint32_t dist_ags;		/* |ino_agno - data_agno| */
	uint64_t dist_sectors;		/* |daddr of the inode's block - daddr of the data| */
	uint8_t created;		/* allocated in the trace (a create seen) */
	uint8_t touched;		/* mapped, read or written in the window */
};

/* Free space in the recorded space map (GETFSMAP), at the start or the end. */
struct fsl_xfs_free {
	int have;
	uint64_t bytes, extents, largest;
	unsigned int nags;
	uint64_t *ag_bytes;		/* per AG (nags), owned by the result */
};

/* The inodes the trace's creates were given, in one AG. */
struct fsl_xfs_ag_inodes {
	uint32_t agno;
	uint64_t inodes;		/* creates whose inode is in this AG */
	uint64_t chunks;		/* distinct 64-inode chunks they used */
	uint64_t new_chunks;		/* of which not in use at the start nor seen before */
	uint64_t backward;		/* a chunk before the previous create's (same AG) */
	uint64_t first_agino, last_agino;
};

/* The inode-to-data distance of a set of files. */
struct fsl_xfs_dist {
	uint64_t files;
	uint64_t same_ag;
	uint64_t ags_log2[16];		/* row 0 same AG, row i: 2^(i-1) .. 2^i - 1 AGs apart */
	double mean_ags;
	struct fsl_hist sectors;	/* |distance| in 512-byte sectors */
};

struct fsl_xfslayout {
	int geometry;			/* 0: no XFS geometry in the trace (nothing below) */
	uint64_t files, fragmented, extents, blocks;
	uint64_t extents_log2[16];	/* files with 2^i .. 2^(i+1) - 1 extents */
	struct fsl_xfs_dist dist;	/* every file with data (the layout as of the window's end) */
	struct fsl_xfs_dist dist_win;	/* the files mapped, read or written in the window */
	/* creates in the window: their inodes, per AG with any */
	uint64_t creates, creates_unmatched;	/* unmatched: no entry named the new inode */
	unsigned int nags;
	struct fsl_xfs_ag_inodes *ags;
	struct fsl_xfs_free free[2];	/* the recorded start and end */
	/* reads dispatched to the target's disk in the window, each from the previous read */
	uint64_t reads, read_seeks, read_seek_total, backward_reads;
	struct fsl_hist read_seek;	/* |distance| of the reads that seeked, sectors */
};

/* The XFS layout of the window; NULL when neither the layout nor the blockio section is on. */
const struct fsl_xfslayout *fsl_analysis__xfslayout(struct fsl_analysis *a);

/* Files with data, by inode number (array owned by l, valid until the next feed). */
unsigned int fsl_xfslayout__files(const struct fsl_xfslayout *l, const struct fsl_xfs_file **out);

#endif /* FSLENS_XFSLAYOUT_H */
