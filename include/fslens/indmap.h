/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files without extents (ext2/ext3 format, mounted by the ext4 driver):
 * the fragcheck lines `e2fsck -fn -E fragcheck` prints for them, from the
 * indirect-block mappings (analyzer/analyses/indmap.c): for every block of a
 * file's run in e2fsck's order (indirect blocks before what they map) that
 * does not follow the previous one, "INO(K): expecting EXPECT got phys PHYS
 * (blkcnt N)", N the logical block, or -1 / -2 / -3 for an indirect, double
 * or triple indirect block.
 */
#ifndef FSLENS_INDMAP_H
#define FSLENS_INDMAP_H

#include <stdint.h>
#include "analysis.h"

struct fsl_ind_break {
	uint64_t ino;
	char kind;		/* 'f', 'd', '?' as e2fsck prints it */
	uint64_t expect;	/* the previous block + 1 */
	uint64_t phys;
	int64_t blkcnt;
	uint32_t seq;		/* its place in the file's walk */
};

/*
 * The lines, by inode and in the walk's order within a file (array owned by
 * a, valid until the next feed); *files: files without extents with blocks.
 * 0 when the layout section is off.
 */
unsigned int fsl_analysis__ind_breaks(struct fsl_analysis *a, const struct fsl_ind_break **out,
				      uint64_t *files);

#endif /* FSLENS_INDMAP_H */
