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
 * bytes, dirents path_len entries. Returns the record.
 */
static inline struct fsl_hdr *tg_fill(void *buf, const struct fsl_event_desc *d, uint64_t *seed,
				      uint64_t ts, size_t path_len, size_t path2_len)
{
	struct fsl_hdr *h = buf;
	unsigned int k;
	size_t size = d->size;

	if (d->type == FSL_EV_DIROP)
		size = fsl_dirop_size(path_len, path2_len);
	if (d->type == FSL_EV_DIRENTS)	/* path_len entries */
		size = fsl_dirents_size(path_len < FSL_DIRENTS_MAX ? path_len : FSL_DIRENTS_MAX);
	memset(buf, 0, size);
	for (k = 0; k < d->nfields; k++) {
		const struct fsl_field *f = &d->fields[k];
		uint64_t v = tg_rand(seed);

		if (f->kind == FSL_F_PATHS || f->kind == FSL_F_INOS)
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
	if (d->type == FSL_EV_DIRENTS) {
		struct fsl_ev_dirents *de = buf;
		size_t i;

		de->count = (size - sizeof(*de)) / 8;
		for (i = 0; i < de->count; i++) {
			de->ino[i] = tg_rand(seed) >> (tg_rand(seed) % 64);
			de->type[i] = tg_rand(seed) % 15;
		}
	}
	return h;
}

#endif

/*
 * A synthetic block-I/O + journal event mix, in time order, for benchmarks
 * and large test traces: requests (insert, issue, complete) from a few
 * sequential streams with random jumps and up to ~10 in flight; ext4
 * journal handles (journal_start, handle_start, handle_stats); a jbd2
 * commit (5 phases + run_stats) every 200 handles.
 */
struct tg_mix {
	uint64_t seed;
	uint64_t next_io, next_handle;
	uint64_t stream[4];
	uint32_t tid;
	unsigned int handles, ino;
	unsigned int nq;
	struct { uint64_t ts; uint32_t size; unsigned char rec[128] __attribute__((aligned(8))); } q[64];
};

static inline void tg_mix_init(struct tg_mix *m, uint64_t seed)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->seed = seed;
	m->next_io = 1000000000ull;
	m->next_handle = 1000000000ull + 7000;
	for (i = 0; i < 4; i++)
		m->stream[i] = 2048 + (tg_rand(&m->seed) % 100000000) * 8;
	m->tid = 1000;
	m->ino = 5000;
}

static inline void *tg_q_add(struct tg_mix *m, uint64_t ts, unsigned int type, unsigned int size,
			     uint32_t pid, uint16_t cpu)
{
	struct fsl_hdr *h;

	if (m->nq >= 64)
		return NULL;
	h = (struct fsl_hdr *)m->q[m->nq].rec;
	memset(h, 0, size);
	h->ts = ts;
	h->type = type;
	h->size = size;
	h->pid = pid;
	h->tid = pid;
	h->cpu = cpu;
	m->q[m->nq].ts = ts;
	m->q[m->nq].size = size;
	m->nq++;
	return h;
}

static inline void tg_mix_io(struct tg_mix *m)
{
	static const uint32_t sizes[] = { 8, 8, 8, 16, 32, 64, 256, 8 };
	uint64_t t = m->next_io, r = tg_rand(&m->seed);
	unsigned int s = r % 4, nr = sizes[(r >> 8) % 8], tag = (r >> 16) % 32, k;
	uint32_t pid = (r >> 24) % 4 ? 1234 + s : 300;
	uint16_t cpu = (r >> 32) % 8;
	uint32_t flags = (r >> 40) % 3 ? FSL_RQ_WRITE | FSL_RQ_SYNC : FSL_RQ_READ;
	uint64_t lat = 80000 + (r >> 44) % 900000;

	if ((r >> 56) % 10 == 0)
		m->stream[s] = 2048 + (tg_rand(&m->seed) % 100000000) * 8;
	for (k = 0; k < 3; k++) {
		static const unsigned int types[] = { FSL_EV_BLOCK_RQ_INSERT, FSL_EV_BLOCK_RQ_ISSUE,
						      FSL_EV_BLOCK_RQ_COMPLETE };
		uint64_t ts = t + (k == 1 ? 3000 + (r >> 48) % 5000 : k == 2 ? lat : 0);
		struct fsl_ev_block_rq *e = tg_q_add(m, ts, types[k], sizeof(*e),
						     k == 2 ? 0 : pid, k == 2 ? (cpu + 1) % 8 : cpu);

		if (!e)
			break;
		e->dev = FSL_MKDEV(259, 0);
		e->sector = m->stream[s];
		e->nr_sector = nr;
		e->bytes = nr * 512;
		e->flags = flags;
		e->rq = 0xffff888104a00000ull + tag * 0x180;
	}
	m->stream[s] += nr;
	m->next_io = t + 10000 + tg_rand(&m->seed) % 60000;
}

static inline void tg_mix_handle(struct tg_mix *m)
{
	static const uint64_t ips[] = { 0xffffffff813a1c20ull, 0xffffffff813a5e11ull,
					0xffffffff813b0240ull, 0xffffffff813c7f0aull };
	static const uint32_t lines[] = { 2345, 2801, 1190, 5512 };
	uint64_t t = m->next_handle, r = tg_rand(&m->seed);
	unsigned int site = r % 4, k;
	uint32_t pid = 1234 + (r >> 8) % 4;
	uint16_t cpu = (r >> 16) % 8;
	struct fsl_ev_ext4_journal_start *js;
	struct fsl_ev_jbd2_handle_start *hs;
	struct fsl_ev_jbd2_handle_stats *st;

	if ((r >> 24) % 4 == 0)
		m->ino++;
	js = tg_q_add(m, t, FSL_EV_EXT4_JOURNAL_START_INODE, sizeof(*js), pid, cpu);
	if (js) {
		js->dev = FSL_MKDEV(259, 1);
		js->blocks = 1 + site * 2;
		js->ino = m->ino;
		js->ip = ips[site];
		js->type = 1 + site;
	}
	hs = tg_q_add(m, t + 400, FSL_EV_JBD2_HANDLE_START, sizeof(*hs), pid, cpu);
	if (hs) {
		hs->dev = FSL_MKDEV(259, 1);
		hs->tid = m->tid;
		hs->type = 1 + site;
		hs->line_no = lines[site];
		hs->requested_blocks = 1 + site * 2;
	}
	st = tg_q_add(m, t + 2000 + (r >> 32) % 3000, FSL_EV_JBD2_HANDLE_STATS, sizeof(*st),
		      pid, cpu);
	if (st) {
		st->dev = FSL_MKDEV(259, 1);
		st->tid = m->tid;
		st->type = 1 + site;
		st->line_no = lines[site];
		st->requested_blocks = 1 + site * 2;
		st->dirtied_blocks = (r >> 40) % (2 + site * 2);
	}
	if (++m->handles % 200 == 0) {
		static const unsigned int ph[] = { FSL_EV_JBD2_START_COMMIT, FSL_EV_JBD2_COMMIT_LOCKING,
						   FSL_EV_JBD2_COMMIT_FLUSHING,
						   FSL_EV_JBD2_COMMIT_LOGGING, FSL_EV_JBD2_END_COMMIT };
		struct fsl_ev_jbd2_run_stats *rs;

		for (k = 0; k < 5; k++) {
			struct fsl_ev_jbd2_commit *c = tg_q_add(m, t + 100 + k * 20000,
								FSL_EV_JBD2_COMMIT_LOCKING,
								sizeof(*c), 300, 3);

			if (!c)
				break;
			c->hdr.type = ph[k];
			c->dev = FSL_MKDEV(259, 1);
			c->transaction = m->tid;
			c->head = k == 4 ? m->tid - 3 : 0;
		}
		rs = tg_q_add(m, t + 100 + 5 * 20000, FSL_EV_JBD2_RUN_STATS, sizeof(*rs), 300, 3);
		if (rs) {
			rs->dev = FSL_MKDEV(259, 1);
			rs->tid = m->tid;
			rs->running = 5000 + (r >> 48) % 100;
			rs->locked = (r >> 50) % 3;
			rs->flushing = (r >> 52) % 4;
			rs->logging = 2 + (r >> 54) % 5;
			rs->handle_count = 200;
			rs->blocks = 300 + (r >> 56) % 200;
			rs->blocks_logged = rs->blocks + 4;
		}
		m->tid++;
	}
	m->next_handle = t + 5000 + tg_rand(&m->seed) % 40000;
}

/* Next event of the mix, in time order; returns it (valid until the next call). */
static inline const struct fsl_hdr *tg_mix_next(struct tg_mix *m, void *out)
{
	for (;;) {
		unsigned int i, best = 0;
		uint64_t horizon = m->next_io < m->next_handle ? m->next_io : m->next_handle;

		for (i = 1; i < m->nq; i++)
			if (m->q[i].ts < m->q[best].ts)
				best = i;
		if (m->nq && (m->q[best].ts <= horizon || m->nq > 40)) {
			memcpy(out, m->q[best].rec, m->q[best].size);
			m->q[best] = m->q[--m->nq];
			return out;
		}
		if (m->next_io <= m->next_handle)
			tg_mix_io(m);
		else
			tg_mix_handle(m);
	}
}
