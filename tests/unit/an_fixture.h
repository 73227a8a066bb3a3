/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the analysis tests: build events in memory and a fake
 * fsl_meta (key-values and a stack table), feed them to an analysis.
 */
#ifndef FSL_AN_FIXTURE_H
#define FSL_AN_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "fslens/analysis.h"

#define FX_MAX_KV	32
#define FX_MAX_STACKS	32

struct fx_meta {
	struct fsl_meta m;
	const char *keys[FX_MAX_KV], *vals[FX_MAX_KV];
	unsigned int nkv;
	struct fsl_stack stacks[FX_MAX_STACKS];
	char *frames[FX_MAX_STACKS][64];
	char store[FX_MAX_STACKS][2048];
};

static inline const char *fx_kv(const struct fsl_meta *m, const char *key)
{
	const struct fx_meta *f = m->priv;
	unsigned int i;

	for (i = f->nkv; i-- > 0;)
		if (!strcmp(f->keys[i], key))
			return f->vals[i];
	return NULL;
}

static inline const struct fsl_stack *fx_stack(const struct fsl_meta *m, int32_t id)
{
	const struct fx_meta *f = m->priv;

	if (id < 0 || id >= FX_MAX_STACKS || !f->stacks[id].nframes)
		return NULL;
	return &f->stacks[id];
}

static inline void fx_init(struct fx_meta *f)
{
	memset(f, 0, sizeof(*f));
	f->m.priv = f;
	f->m.kv = fx_kv;
	f->m.stack = fx_stack;
}

static inline void fx_set(struct fx_meta *f, const char *k, const char *v)
{
	f->keys[f->nkv] = k;
	f->vals[f->nkv++] = v;
}

/* Stack id from "a, b, c" (innermost first). */
static inline void fx_stack_add(struct fx_meta *f, int32_t id, const char *frames)
{
	char *p, *save, *tok;
	unsigned int n = 0;

	snprintf(f->store[id], sizeof(f->store[id]), "%s", frames);
	for (p = f->store[id]; (tok = strtok_r(p, ", ", &save)); p = NULL)
		f->frames[id][n++] = tok;
	f->stacks[id].id = id;
	f->stacks[id].nframes = n;
	f->stacks[id].frames = f->frames[id];
}

static inline void fx_hdr(struct fsl_hdr *h, unsigned int type, size_t size, uint64_t ts,
			  uint32_t pid, uint32_t tid)
{
	h->ts = ts;
	h->pid = pid;
	h->tid = tid;
	h->type = type;
	h->size = size;
	h->cpu = 0;
	h->_pad = 0;
}

static inline int fx_proc(struct fsl_analysis *a, uint64_t ts, uint32_t pid, uint32_t ppid,
			  unsigned int kind, unsigned int flags, const char *comm)
{
	struct fsl_ev_proc ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_PROC, sizeof(ev), ts, pid, pid);
	ev.ppid = ppid;
	ev.kind = kind;
	ev.flags = flags;
	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	return fsl_analysis__feed(a, &ev.hdr);
}

static inline int fx_offcpu(struct fsl_analysis *a, uint64_t ts, uint32_t pid, uint64_t dur,
			    int32_t stack)
{
	struct fsl_ev_offcpu ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_OFFCPU, sizeof(ev), ts, pid, pid);
	ev.dur_ns = dur;
	ev.stack_id = stack;
	ev.state = FSL_OFFCPU_UNINTERRUPTIBLE;
	return fsl_analysis__feed(a, &ev.hdr);
}

/* A dirop on fd (readdir's directory fd); path NULL for none. */
static inline int fx_dirop_fd(struct fsl_analysis *a, uint64_t ts, uint32_t pid, unsigned int op,
			      uint64_t lat, int64_t ret, int32_t fd, const char *path)
{
	union {
		struct fsl_ev_dirop ev;
		char buf[sizeof(struct fsl_ev_dirop) + 264];
	} u;
	size_t n = path ? strlen(path) : 0;

	memset(&u, 0, sizeof(u));
	fx_hdr(&u.ev.hdr, FSL_EV_DIROP, fsl_dirop_size(n, 0), ts, pid, pid);
	u.ev.lat_ns = lat;
	u.ev.ret = ret;
	u.ev.dirfd = -100;
	u.ev.fd = fd;
	u.ev.op = op;
	u.ev.path_len = n;
	if (n)
		memcpy(u.ev.paths, path, n);
	return fsl_analysis__feed(a, &u.ev.hdr);
}

static inline int fx_dirop(struct fsl_analysis *a, uint64_t ts, uint32_t pid, unsigned int op,
			   uint64_t lat, int64_t ret, const char *path)
{
	return fx_dirop_fd(a, ts, pid, op, lat, ret, 0, path);
}

static inline int fx_commit(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint32_t dev,
			    uint32_t tid, int sync)
{
	struct fsl_ev_jbd2_commit ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, type, sizeof(ev), ts, 900, 900);
	ev.dev = dev;
	ev.transaction = tid;
	ev.sync_commit = sync;
	return fsl_analysis__feed(a, &ev.hdr);
}

static inline int fx_rq(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint32_t pid,
			uint32_t dev, uint64_t sector, uint32_t nr, uint32_t flags, uint64_t rq)
{
	struct fsl_ev_block_rq ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, type, sizeof(ev), ts, pid, pid);
	ev.dev = dev;
	ev.sector = sector;
	ev.nr_sector = nr;
	ev.bytes = nr * 512;
	ev.flags = flags;
	ev.rq = rq;
	return fsl_analysis__feed(a, &ev.hdr);
}

/* A bio event (block_bio_queue, block_getrq, merges, block_bio_complete). */
static inline int fx_bio(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint32_t pid,
			 uint32_t dev, uint64_t sector, uint32_t nr, uint32_t flags)
{
	struct fsl_ev_block_bio ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, type, sizeof(ev), ts, pid, pid);
	ev.dev = dev;
	ev.sector = sector;
	ev.nr_sector = nr;
	ev.flags = flags;
	return fsl_analysis__feed(a, &ev.hdr);
}

static inline int fx_split(struct fsl_analysis *a, uint64_t ts, uint32_t dev, uint64_t sector,
			   uint32_t nr, uint64_t new_sector)
{
	struct fsl_ev_block_split ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_BLOCK_SPLIT, sizeof(ev), ts, 1, 1);
	ev.dev = dev;
	ev.sector = sector;
	ev.nr_sector = nr;
	ev.flags = FSL_RQ_WRITE;
	ev.new_sector = new_sector;
	return fsl_analysis__feed(a, &ev.hdr);
}

static inline int fx_map(struct fsl_analysis *a, uint64_t ts, uint32_t dev, uint64_t ino,
			 uint32_t lblk, uint64_t pblk, int32_t len)
{
	struct fsl_ev_ext4_map_blocks ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT, sizeof(ev), ts, 1, 1);
	ev.dev = dev;
	ev.ino = ino;
	ev.lblk = lblk;
	ev.pblk = pblk;
	ev.len = len;
	ev.ret = len;
	ev.mflags = 0x20 | 0x10;	/* NEW | MAPPED */
	return fsl_analysis__feed(a, &ev.hdr);
}

static inline int fx_alloc(struct fsl_analysis *a, uint64_t ts, uint32_t dev, uint64_t ino,
			   uint32_t logical, uint64_t block, uint32_t len, uint32_t flags)
{
	struct fsl_ev_ext4_alloc_blocks ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_EXT4_ALLOCATE_BLOCKS, sizeof(ev), ts, 1, 1);
	ev.dev = dev;
	ev.ino = ino;
	ev.logical = logical;
	ev.block = block;
	ev.len = len;
	ev.flags = flags;
	return fsl_analysis__feed(a, &ev.hdr);
}

#endif
