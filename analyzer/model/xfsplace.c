// SPDX-License-Identifier: GPL-2.0
/*
 * XFS inode placement in an AG (include/fslens/xfsplace.h), written from
 * the behaviour the seed case describes and xfs_dialloc_ag's documented
 * order (the newest chunk, agi_newino, before a search from the front),
 * not from the kernel's code. Chunks are kept sorted by their first agino,
 * each with a 64-bit mask of the inodes in use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/xfsplace.h"

struct xp_chunk {
	uint32_t start;
	uint64_t used;
};

struct xp_ag {
	struct xp_chunk *c;
	uint32_t n, cap;
	uint32_t newest;	/* start of the chunk made last, + 1 (0: none) */
};

struct fsl_xfsplace {
	uint32_t agcount;
	uint64_t aginos;
	int policy;
	int keep_empty;
	struct xp_ag *ag;
};

const char *fsl_xfsplace_policy_name(int policy)
{
	switch (policy) {
	case FSL_XFSPLACE_NEWEST:
		return "most recent chunk";
	case FSL_XFSPLACE_FRONT:
		return "front of the AG to the back";
	default:
		return "?";
	}
}

struct fsl_xfsplace *fsl_xfsplace__new(uint32_t agcount, uint64_t aginos, int policy,
				       int keep_empty, int *err)
{
	struct fsl_xfsplace *p;

	if (!agcount || aginos < FSL_XFSPLACE_CHUNK || policy < 0 ||
	    policy >= FSL_XFSPLACE__MAX) {
		*err = -EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p)
		p->ag = calloc(agcount, sizeof(*p->ag));
	if (!p || !p->ag) {
		free(p);
		*err = -ENOMEM;
		return NULL;
	}
	p->agcount = agcount;
	p->aginos = aginos;
	p->policy = policy;
	p->keep_empty = keep_empty;
	return p;
}

void fsl_xfsplace__free(struct fsl_xfsplace *p)
{
	uint32_t i;

	if (!p)
		return;
	for (i = 0; i < p->agcount; i++)
		free(p->ag[i].c);
	free(p->ag);
	free(p);
}

/* Index of the first chunk starting at or after start. */
static uint32_t lower(const struct xp_ag *a, uint32_t start)
{
	uint32_t lo = 0, hi = a->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (a->c[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct xp_chunk *find(const struct xp_ag *a, uint32_t start)
{
	uint32_t i = lower(a, start);

	return i < a->n && a->c[i].start == start ? &a->c[i] : NULL;
}

int fsl_xfsplace__has_chunk(const struct fsl_xfsplace *p, uint32_t agno, uint32_t start)
{
	return agno < p->agcount && find(&p->ag[agno], start & ~(FSL_XFSPLACE_CHUNK - 1u)) != NULL;
}

int fsl_xfsplace__used(const struct fsl_xfsplace *p, uint32_t agno, uint32_t agino)
{
	const struct xp_chunk *c;

	if (agno >= p->agcount)
		return 0;
	c = find(&p->ag[agno], agino & ~(FSL_XFSPLACE_CHUNK - 1u));
	return c && (c->used >> (agino & (FSL_XFSPLACE_CHUNK - 1u)) & 1);
}

uint32_t fsl_xfsplace__chunks(const struct fsl_xfsplace *p, uint32_t agno)
{
	return agno < p->agcount ? p->ag[agno].n : 0;
}

int fsl_xfsplace__add_chunk(struct fsl_xfsplace *p, uint32_t agno, uint32_t start, uint64_t used)
{
	struct xp_ag *a;
	uint32_t i;

	start &= ~(FSL_XFSPLACE_CHUNK - 1u);
	if (agno >= p->agcount || start >= p->aginos)
		return -EINVAL;
	a = &p->ag[agno];
	i = lower(a, start);
	if (i < a->n && a->c[i].start == start) {
		a->c[i].used |= used;
		return 0;
	}
	if (a->n == a->cap) {
		uint32_t cap = a->cap ? 2 * a->cap : 16;
		struct xp_chunk *c = realloc(a->c, cap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		a->c = c;
		a->cap = cap;
	}
	memmove(&a->c[i + 1], &a->c[i], (a->n - i) * sizeof(*a->c));
	a->c[i].start = start;
	a->c[i].used = used;
	a->n++;
	return 0;
}

uint32_t fsl_xfsplace__next(const struct fsl_xfsplace *p, uint32_t agno)
{
	const struct xp_ag *a = &p->ag[agno < p->agcount ? agno : 0];
	uint64_t s;

	if (a->newest)
		s = a->newest - 1 + FSL_XFSPLACE_CHUNK;
	else if (a->n)
		s = a->c[a->n - 1].start + FSL_XFSPLACE_CHUNK;
	else
		s = 0;
	while (s + FSL_XFSPLACE_CHUNK <= p->aginos && find(a, (uint32_t)s))
		s += FSL_XFSPLACE_CHUNK;
	if (s + FSL_XFSPLACE_CHUNK > p->aginos)	/* the AG's end: the first hole from the front */
		for (s = 0; s + FSL_XFSPLACE_CHUNK <= p->aginos && find(a, (uint32_t)s);)
			s += FSL_XFSPLACE_CHUNK;
	return (uint32_t)s;
}

static int first_free(const struct xp_chunk *c, uint32_t *agino)
{
	if (c->used == ~0ull)
		return 0;
	*agino = c->start + __builtin_ctzll(~c->used);
	return 1;
}

int fsl_xfsplace__decide(const struct fsl_xfsplace *p, uint32_t agno, uint32_t *agino)
{
	const struct xp_ag *a;
	const struct xp_chunk *c;
	uint32_t i;

	if (agno >= p->agcount)
		return -EINVAL;
	a = &p->ag[agno];
	if (p->policy == FSL_XFSPLACE_NEWEST && a->newest && (c = find(a, a->newest - 1)) &&
	    first_free(c, agino))
		return 0;
	for (i = 0; i < a->n; i++)
		if (first_free(&a->c[i], agino))
			return 0;
	return -ENOSPC;
}

int fsl_xfsplace__use(struct fsl_xfsplace *p, uint32_t agno, uint32_t agino)
{
	uint32_t start = agino & ~(FSL_XFSPLACE_CHUNK - 1u);
	struct xp_chunk *c;
	int e;

	if (agno >= p->agcount || agino >= p->aginos)
		return -EINVAL;
	c = find(&p->ag[agno], start);
	if (!c) {
		/* a chunk made for this inode is the AG's newest (agi_newino) */
		e = fsl_xfsplace__add_chunk(p, agno, start, 0);
		if (e)
			return e;
		p->ag[agno].newest = start + 1;
		c = find(&p->ag[agno], start);
	}
	c->used |= 1ull << (agino - start);
	return 0;
}

void fsl_xfsplace__release(struct fsl_xfsplace *p, uint32_t agno, uint32_t agino)
{
	uint32_t start = agino & ~(FSL_XFSPLACE_CHUNK - 1u);
	struct xp_ag *a;
	struct xp_chunk *c;

	if (agno >= p->agcount)
		return;
	a = &p->ag[agno];
	c = find(a, start);
	if (!c)
		return;
	c->used &= ~(1ull << (agino - start));
	if (c->used || p->keep_empty)
		return;
	/* its last inode gone, the chunk is freed; agi_newino keeps pointing at it */
	memmove(c, c + 1, (a->n - (uint32_t)(c - a->c) - 1) * sizeof(*c));
	a->n--;
}
