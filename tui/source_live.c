// SPDX-License-Identifier: GPL-2.0
/*
 * The live collector as fslens top's event source. No libbpf here: the
 * collector's public API (include/fslens/collector.h) does the BPF side.
 *
 * Events come off the ring buffer nearly, not exactly, in time order (CPUs
 * race to reserve; dirops and off-CPU records carry their start time and
 * arrive at their end). The analyses want time order, so events wait in the
 * ordering service (lib/ordered.c) until the clock the main loop passes to
 * pump has passed them, and leave it sorted. The main loop runs that clock
 * TOP_LIVE_LAG_NS behind the real one, which is the window late records
 * have to sort in.
 *
 * The ring is read through the collector stream (include/fslens/stream.h),
 * the one `fslens record` writes its trace from: the same task naming and
 * the same symbolizer (stacks on first use). Metadata for the analyses (HZ,
 * target device) is gathered here the way `fslens record` gathers it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fslens/collector.h"
#include "fslens/fsmeta.h"
#include "fslens/text.h"
#include "fslens/trace.h"
#include "fslens/stream.h"
#include "source.h"

struct live {
	struct top_source src;
	struct fsl_collector *c;
	struct fsl_stream *stream;	/* named, symbolized; held until the clock passes */
	struct fsl_meta_store store;	/* key-values and texts, as a trace holds them */
};

/* ---- metadata ---- */

static int kv_put(void *ctx, const char *key, const char *value)
{
	struct live *l = ctx;

	return fsl_meta_store__kv(&l->store, key, value);
}

static int text_put(void *ctx, const char *name, const void *data, size_t len)
{
	struct live *l = ctx;

	return fsl_meta_store__text(&l->store, name, data, len);
}

static int bitmap_drop(void *ctx, const struct fsl_bitmap *bm)
{
	return 0;
}

static const char *meta_kv(const struct fsl_meta *m, const char *key)
{
	struct live *l = m->priv;

	return fsl_meta_store__get_kv(&l->store, key);
}

static const char *meta_text(const struct fsl_meta *m, const char *name, size_t *len)
{
	struct live *l = m->priv;

	return fsl_meta_store__get_text(&l->store, name, len);
}

static const struct fsl_stack *meta_stack(const struct fsl_meta *m, int32_t id)
{
	struct live *l = m->priv;

	return fsl_stream__stack(l->stream, id);
}

static const char *meta_sym(const struct fsl_meta *m, uint64_t addr)
{
	static char name[512];
	struct live *l = m->priv;

	return fsl_stream__sym(l->stream, addr, name, sizeof(name));
}

/* ---- events ---- */

struct pump_ctx {
	top_event_fn fn;
	void *ctx;
	unsigned int max, n;
};

/* fn's negative return stops the release; so does reaching max (1). */
static int deliver(void *ctx, const struct fsl_hdr *ev)
{
	struct pump_ctx *p = ctx;
	int rc = p->fn(p->ctx, ev);

	if (rc < 0)
		return rc;
	return p->max && ++p->n >= p->max;
}

static int live_pump(struct top_source *s, uint64_t until, unsigned int max, top_event_fn fn,
		     void *ctx)
{
	struct live *l = (struct live *)s;
	struct pump_ctx p = { fn, ctx, max, 0 };
	int rc;

	/* Drain the ring unless a backlog is already waiting. */
	if (!max || fsl_stream__pending(l->stream) < max) {
		rc = fsl_stream__poll(l->stream, 0, NULL, NULL);
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
	/* The stream's window is 1 ns, so the clock at until releases ts < until. */
	rc = fsl_stream__advance(l->stream, until, deliver, &p);
	return rc < 0 ? rc : 0;
}

static uint64_t live_lost(struct top_source *s)
{
	struct live *l = (struct live *)s;
	struct fsl_stream_stats st;

	fsl_stream__stats(l->stream, &st);
	return st.lost_total;
}

static int live_comm(struct top_source *s, uint32_t pid, char *buf, size_t len)
{
	struct live *l = (struct live *)s;

	int err = fsl_stream__comm(l->stream, pid, buf, len);

	if (!err)
		fsl_text_sanitize(buf);	/* a task can name itself with terminal escapes */
	return err;
}

static int drop_event(void *ctx, const struct fsl_hdr *ev)
{
	return 0;
}

static void live_free(struct top_source *s)
{
	struct live *l = (struct live *)s;

	if (l->stream)
		fsl_stream__stop(l->stream, drop_event, NULL);
	else if (l->c)
		fsl_collector__stop(l->c, drop_event, NULL);
	fsl_stream__free(l->stream);
	fsl_collector__free(l->c);
	fsl_meta_store__fini(&l->store);
	free(l);
}

static const struct top_source_ops live_ops = {
	.pump = live_pump,
	.lost = live_lost,
	.comm = live_comm,
	.free = live_free,
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

struct top_source *top_source__live(const struct top_live_opts *o, int *err)
{
	struct fsl_meta_sink sink = { NULL, kv_put, text_put, bitmap_drop };
	struct fsl_collector_opts co = { 0 };
	struct fsl_stream_opts so = { 0 };
	struct live *l = calloc(1, sizeof(*l));
	char v[32];

	if (!l) {
		*err = -ENOMEM;
		return NULL;
	}
	l->src.ops = &live_ops;
	l->src.live = 1;
	l->src.meta.priv = l;
	l->src.meta.kv = meta_kv;
	l->src.meta.stack = meta_stack;
	l->src.meta.sym = meta_sym;
	l->src.meta.text = meta_text;
	fsl_meta_store__init(&l->store);
	sink.ctx = l;
	fsl_meta_host(&sink);
	if (o->target) {
		fsl_meta_target(&sink, o->target);
		/* the journal's state now, as record stores it at its start */
		fsl_meta_jbd2(&sink, o->target, "start");
		co.dev = o->target->dev;
		co.blkdev = o->target->blkdev;
		co.families = o->families;
		co.fs = o->fs;
	}
	co.min_wait_ns = o->min_wait_ns;
	co.ring_bytes = TOP_LIVE_RING_BYTES;
	co.pids = o->pids;
	co.npids = o->npids;
	co.tids = o->tids;
	co.ntids = o->ntids;
	co.cgroup = o->cgroup;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)(o->min_wait_ns / 1000));
	kv_put(l, FSL_KV_MIN_WAIT_US, v);
	l->c = fsl_collector__new(&co, err);
	if (!l->c)
		goto fail;
	/* Without kallsyms stacks stay addresses; everything else still works. */
	so.symbols_now = 1;
	so.by_clock = 1;
	so.name_tasks = !o->families || (o->families & (1u << FSL_FAM_PROC));
	l->stream = fsl_stream__new_collector(l->c, &so, err);
	if (!l->stream)
		goto fail;
	*err = fsl_collector__start(l->c);
	if (*err)
		goto fail;
	l->src.start_ns = mono_ns();
	snprintf(v, sizeof(v), "%llu", (unsigned long long)l->src.start_ns);
	kv_put(l, FSL_KV_START_NS, v);
	snprintf(l->src.desc, sizeof(l->src.desc), "live %s", fsl_collector__mode(l->c));
	return &l->src;
fail:
	live_free(&l->src);
	return NULL;
}

const char *top_source__live_missing(struct top_source *s)
{
	struct live *l = (struct live *)s;

	return s->live && l->c ? fsl_collector__missing(l->c) : "";
}
