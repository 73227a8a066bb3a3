/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block classes (part of the context stage, analyzer/blockclass.c): what an
 * ext4 block of the target holds, enum fsl_block_class. The static metadata
 * comes from the recorded geometry and group tables; directory, extent-tree
 * and data blocks from the allocations and mappings the trace saw, kept as
 * the stream goes, so a write is classed by what its blocks held when it
 * was issued. Every analysis of a session asks the same table.
 */
#ifndef FSL_BLOCKCLASS_H
#define FSL_BLOCKCLASS_H

#include <stdint.h>
#include "fslens/analysis.h"
#include "fslens/meta.h"

struct fsl_blockclass;

struct fsl_blockclass *fsl_blockclass__new(void);
void fsl_blockclass__free(struct fsl_blockclass *bc);
/* Geometry and group tables of m's ext4 target; owners cleared. */
void fsl_blockclass__begin(struct fsl_blockclass *bc, const struct fsl_meta *m);
/* An ext4 allocation, mapping, free or inode event (others are ignored). */
void fsl_blockclass__event(struct fsl_blockclass *bc, const struct fsl_hdr *h);
/* 1 when the trace has the ext4 geometry the classes need. */
int fsl_blockclass__ready(const struct fsl_blockclass *bc);
/* The filesystem's block size (0 without geometry). */
uint32_t fsl_blockclass__block_size(const struct fsl_blockclass *bc);
/* The class of block blk now. */
unsigned int fsl_blockclass__class(const struct fsl_blockclass *bc, uint64_t blk);

#endif
