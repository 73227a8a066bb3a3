// SPDX-License-Identifier: GPL-2.0
/* The one hash map and the one string hash (include/fslens/hashmap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/hashmap.h"

struct map_slot {
	uint64_t key;
	uint64_t used;
	char val[];
};

static inline struct map_slot *map_slot(const struct fsl_map *m, size_t i)
{
	return (struct map_slot *)(m->slots + i * m->stride);
}

void fsl_map__init(struct fsl_map *m, size_t vsize)
{
	memset(m, 0, sizeof(*m));
	m->vsize = vsize;
	m->stride = sizeof(struct map_slot) + ((vsize + 7) & ~(size_t)7);
}

void fsl_map__free(struct fsl_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = m->last = 0;
}

void fsl_map__clear(struct fsl_map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		map_slot(m, i)->used = 0;
	m->n = 0;
}

static inline size_t map_hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k & (cap - 1);
}

void *fsl_map__get(const struct fsl_map *m, uint64_t key)
{
	struct map_slot *sl;
	size_t i;

	if (!m->cap)
		return NULL;
	sl = map_slot(m, m->last);
	if (sl->key == key && sl->used)
		return sl->val;
	for (i = map_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		sl = map_slot(m, i);
		if (!sl->used)
			return NULL;
		if (sl->key == key) {
			((struct fsl_map *)m)->last = i;
			return sl->val;
		}
	}
}

static int map_grow(struct fsl_map *m)
{
	struct fsl_map n;
	size_t i;

	fsl_map__init(&n, m->vsize);
	n.cap = m->cap ? m->cap * 2 : 64;
	n.slots = calloc(n.cap, n.stride);
	if (!n.slots)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++) {
		struct map_slot *o = map_slot(m, i), *d;
		size_t j;

		if (!o->used)
			continue;
		for (j = map_hash(o->key, n.cap); map_slot(&n, j)->used; j = (j + 1) & (n.cap - 1))
			;
		d = map_slot(&n, j);
		memcpy(d, o, m->stride);
	}
	n.n = m->n;
	n.last = 0;
	fsl_map__free(m);
	*m = n;
	return 0;
}

void *fsl_map__put(struct fsl_map *m, uint64_t key, int *fresh)
{
	void *v = fsl_map__get(m, key);
	struct map_slot *sl;
	size_t i;

	if (fresh)
		*fresh = 0;
	if (v)
		return v;
	if ((m->n + 1) * 4 > m->cap * 3 && map_grow(m))
		return NULL;
	for (i = map_hash(key, m->cap); map_slot(m, i)->used; i = (i + 1) & (m->cap - 1))
		;
	sl = map_slot(m, i);
	sl->used = 1;
	sl->key = key;
	m->n++;
	memset(sl->val, 0, m->vsize);
	if (fresh)
		*fresh = 1;
	return sl->val;
}

void fsl_map__del(struct fsl_map *m, uint64_t key)
{
	size_t i, j, k;

	if (!m->cap)
		return;
	for (i = map_hash(key, m->cap); map_slot(m, i)->used; i = (i + 1) & (m->cap - 1))
		if (map_slot(m, i)->key == key)
			break;
	if (!map_slot(m, i)->used)
		return;
	map_slot(m, i)->used = 0;
	m->n--;
	/* Backward-shift the cluster after i so lookups stay correct. */
	for (j = (i + 1) & (m->cap - 1); map_slot(m, j)->used; j = (j + 1) & (m->cap - 1)) {
		k = map_hash(map_slot(m, j)->key, m->cap);
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			memcpy(map_slot(m, i), map_slot(m, j), m->stride);
			map_slot(m, j)->used = 0;
			i = j;
		}
	}
}

void *fsl_map__next(const struct fsl_map *m, size_t *i, uint64_t *key)
{
	for (; *i < m->cap; (*i)++) {
		struct map_slot *sl = map_slot(m, *i);

		if (sl->used) {
			if (key)
				*key = sl->key;
			(*i)++;
			return sl->val;
		}
	}
	return NULL;
}

uint64_t fsl_hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ull ^ n, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	while (n--)
		h = (h ^ *s++) * 1099511628211ull;
	return h ? h : 1;
}

uint64_t fsl_hash_str(const char *s)
{
	return fsl_hash_bytes(s, strlen(s));
}
