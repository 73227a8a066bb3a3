/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XFS inode placement inside an AG (analyzer/model/xfsplace.c): plain C, no
 * I/O. An AG's inode chunks (64 inodes, aligned) with the inodes in use,
 * and two policies for the next inode, the two of seed case 001:
 *
 *  - newest: the most recently allocated chunk while it has a free inode
 *    (agi_newino), else the first chunk with one from the front of the AG;
 *    the rule that filled an AG from the back while data went front first;
 *  - front: always the first free inode from the front of the AG to the
 *    back (the seed's patch: lookup from agino 0).
 *
 * A chunk whose inodes are all free is given back (the default noikeep)
 * unless keep_empty. When no chunk has a free inode, -ENOSPC: the caller
 * adds the chunk (where the kernel made its next one, or fsl_xfsplace__next).
 */
#ifndef FSLENS_XFSPLACE_H
#define FSLENS_XFSPLACE_H

#include <stdint.h>

#define FSL_XFSPLACE_CHUNK	64	/* XFS_INODES_PER_CHUNK */

enum fsl_xfsplace_policy {
	FSL_XFSPLACE_NEWEST = 0,	/* most recent chunk, then from the front */
	FSL_XFSPLACE_FRONT,		/* front of the AG to the back */
	FSL_XFSPLACE__MAX,
};

const char *fsl_xfsplace_policy_name(int policy);

struct fsl_xfsplace;

/* agcount AGs of aginos inode numbers each (2^(agblklog + inopblog)). NULL: *err. */
struct fsl_xfsplace *fsl_xfsplace__new(uint32_t agcount, uint64_t aginos, int policy,
				       int keep_empty, int *err);
void fsl_xfsplace__free(struct fsl_xfsplace *p);

/* A chunk (first agino, a multiple of 64) with the inodes of used in use; 0 or -errno. */
int fsl_xfsplace__add_chunk(struct fsl_xfsplace *p, uint32_t agno, uint32_t start, uint64_t used);
int fsl_xfsplace__has_chunk(const struct fsl_xfsplace *p, uint32_t agno, uint32_t start);
/*
 * Where a new chunk would go when the kernel's place is unknown: right after
 * the newest chunk (the kernel's first try), else after the last one, else
 * at the front; the first such place with no chunk.
 */
uint32_t fsl_xfsplace__next(const struct fsl_xfsplace *p, uint32_t agno);

/* The inode the policy picks in AG agno, without taking it: 0, or -ENOSPC. */
int fsl_xfsplace__decide(const struct fsl_xfsplace *p, uint32_t agno, uint32_t *agino);
/* Take inode agino (its chunk is added if missing, and becomes the newest); 0 or -errno. */
int fsl_xfsplace__use(struct fsl_xfsplace *p, uint32_t agno, uint32_t agino);
/* Give inode agino back; its chunk goes with its last inode unless keep_empty. */
void fsl_xfsplace__release(struct fsl_xfsplace *p, uint32_t agno, uint32_t agino);

/* Is inode agino of AG agno in use? */
int fsl_xfsplace__used(const struct fsl_xfsplace *p, uint32_t agno, uint32_t agino);
/* Chunks now in AG agno (tests, summaries). */
uint32_t fsl_xfsplace__chunks(const struct fsl_xfsplace *p, uint32_t agno);

#endif /* FSLENS_XFSPLACE_H */
