/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing hash map, u64 key -> fixed-size value (lib/hashmap.c).
 * One array of slots, each { u64 key, u64 used, value }, so a lookup touches
 * one cache line, not three (keys, used flags, values). Linear probing,
 * grown at 3/4 load, deletion by backward shift (no tombstones), so a map
 * that sees many inserts and deletes of short-lived keys (I/O requests,
 * handles) stays short. Any key is allowed, 0 and ~0 included. Values move
 * when the map grows: a pointer from get/put is valid until the next put.
 */
#ifndef FSLENS_HASHMAP_H
#define FSLENS_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct fsl_map {
	char *slots;
	size_t vsize, stride, cap, n;
	size_t last;		/* slot of the last hit: runs of one key are common */
};

void fsl_map__init(struct fsl_map *m, size_t vsize);
/* Free the slots (the map stays usable, empty). */
void fsl_map__free(struct fsl_map *m);
/* Remove every key, keep the memory. */
void fsl_map__clear(struct fsl_map *m);
void *fsl_map__get(const struct fsl_map *m, uint64_t key);
/* Find or insert (zeroed); NULL only on ENOMEM. *fresh = 1 when inserted. */
void *fsl_map__put(struct fsl_map *m, uint64_t key, int *fresh);
void fsl_map__del(struct fsl_map *m, uint64_t key);
/* Iterate: i from 0; returns the next used slot's value or NULL at the end. */
void *fsl_map__next(const struct fsl_map *m, size_t *i, uint64_t *key);

static inline size_t fsl_map__count(const struct fsl_map *m)
{
	return m->n;
}

/*
 * The one string hash, for keying a map by a name or a path (the map mixes
 * the bits again) and for telling names apart: FNV-1a over 8-byte words,
 * the tail byte by byte, seeded with the length. Never 0, so 0 can mean
 * "none". Equal hashes are not equal strings: a map keyed by one keeps the
 * string to compare, or accepts a merge one time in 2^64.
 */
uint64_t fsl_hash_bytes(const void *p, size_t n);
uint64_t fsl_hash_str(const char *s);

#endif /* FSLENS_HASHMAP_H */
