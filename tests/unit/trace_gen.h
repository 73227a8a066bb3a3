/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic events for the trace-format tests, fuzz corpus and benchmarks. */
#ifndef FSL_TRACE_GEN_H
#define FSL_TRACE_GEN_H

#include <stdint.h>
#include <string.h>
#include "fslens/event.h"
#include "fslens/schema.h"
#include "fslens/trace.h"

static inline uint64_t tg_rand(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Fill buf (>= 1024 bytes) with a record of desc's type whose every schema
 * field holds a pseudo-random value; dirops get paths of path_len/path2_len
 * bytes. Returns the record.
 */
static inline struct fsl_hdr *tg_fill(void *buf, const struct fsl_event_desc *d, uint64_t *seed,
				      uint64_t ts, size_t path_len, size_t path2_len)
{
	struct fsl_hdr *h = buf;
	unsigned int k;
	size_t size = d->size;

	if (d->type == FSL_EV_DIROP)
		size = fsl_dirop_size(path_len, path2_len);
	memset(buf, 0, size);
	for (k = 0; k < d->nfields; k++) {
		const struct fsl_field *f = &d->fields[k];
		uint64_t v = tg_rand(seed);

		if (f->kind == FSL_F_PATHS)
			continue;
		if (f->kind == FSL_F_COMM) {
			unsigned int i, n = 1 + v % 15;

			for (i = 0; i < n; i++)
				((char *)buf)[f->offset + i] = 'a' + (tg_rand(seed) % 26);
			continue;
		}
		memcpy((char *)buf + f->offset, &v, f->size);
	}
	h->ts = ts;
	h->pid = 1000 + tg_rand(seed) % 5000;
	h->tid = h->pid + tg_rand(seed) % 4;
	h->cpu = tg_rand(seed) % 64;
	h->type = d->type;
	h->size = size;
	if (d->type == FSL_EV_DIROP) {
		struct fsl_ev_dirop *op = buf;
		size_t i;

		op->op = tg_rand(seed) % FSL_OP__MAX;
		op->path_len = path_len;
		op->path2_len = path2_len;
		for (i = 0; i < path_len + path2_len; i++)
			op->paths[i] = i % 17 == 0 ? '/' : 'a' + (tg_rand(seed) % 26);
	}
	return h;
}

#endif
