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
 * Metadata for the analyses (HZ, target device, stacks) is gathered here the
 * way `fslens record` gathers it, and stacks are symbolized on first use.
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
#include "fslens/ksyms.h"
#include "fslens/ordered.h"
#include "source.h"

struct live {
	struct top_source src;
	struct fsl_collector *c;
	struct fsl_ksyms *ksyms;
	struct fsl_meta_store store;	/* key-values and texts, as a trace holds them */
	struct fsl_stack **stacks;	/* by id, symbolized on first use */
	size_t nstacks;
	struct fsl_ordered *held;	/* events waiting for the clock */
	int err;
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

static void stack_free(struct fsl_stack *st)
{
	uint32_t i;

	if (!st)
		return;
	for (i = 0; i < st->nframes; i++)
		free(st->frames[i]);
	free(st->frames);
	free(st);
}

static struct fsl_stack *symbolize(struct live *l, int32_t id)
{
	uint64_t ips[64];
	char name[512];
	struct fsl_stack *st;
	int n, j;

	n = fsl_collector__stack(l->c, id, ips, 64);
	if (n <= 0)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st || !(st->frames = calloc(n, sizeof(char *)))) {
		free(st);
		return NULL;
	}
	st->id = id;
	for (j = 0; j < n; j++) {
		const char *s = l->ksyms ? fsl_ksyms__name(l->ksyms, ips[j], name, sizeof(name))
					 : NULL;

		if (!s) {
			snprintf(name, sizeof(name), "0x%llx", (unsigned long long)ips[j]);
			s = name;
		}
		/* the probe's own frames are not part of the wait (as record drops them) */
		if (!st->nframes && (!strncmp(s, "bpf_", 4) || !strncmp(s, "__bpf_", 6)))
			continue;
		st->frames[st->nframes] = strdup(s);
		if (!st->frames[st->nframes])
			break;
		st->nframes++;
	}
	return st;
}

static const struct fsl_stack *meta_stack(const struct fsl_meta *m, int32_t id)
{
	struct live *l = m->priv;

	if (id < 0 || id > (1 << 24))
		return NULL;
	if ((size_t)id >= l->nstacks) {
		size_t n = (size_t)id + 64;
		struct fsl_stack **s = realloc(l->stacks, n * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + l->nstacks, 0, (n - l->nstacks) * sizeof(*s));
		l->stacks = s;
		l->nstacks = n;
	}
	if (!l->stacks[id])
		l->stacks[id] = symbolize(l, id);
	return l->stacks[id];
}

static const char *meta_sym(const struct fsl_meta *m, uint64_t addr)
{
	static char name[512];
	struct live *l = m->priv;

	return l->ksyms ? fsl_ksyms__name(l->ksyms, addr, name, sizeof(name)) : NULL;
}

/* ---- events ---- */

static int stash(void *ctx, const struct fsl_hdr *ev)
{
	struct live *l = ctx;

	/* Held only: pump releases them by the clock, not by newer records. */
	l->err = fsl_ordered__push(l->held, ev, NULL, NULL);
	return l->err ? 1 : 0;
}

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
	if (!max || fsl_ordered__pending(l->held) < max) {
		rc = fsl_collector__poll(l->c, 0, stash, l);
		if (l->err)
			return l->err;
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
	/* The service's window is 1 ns, so the clock at until releases ts < until. */
	rc = fsl_ordered__advance(l->held, until, deliver, &p);
	return rc < 0 ? rc : 0;
}

static uint64_t live_lost(struct top_source *s)
{
	struct live *l = (struct live *)s;
	uint64_t lost[FSL_FAM__MAX], sum = 0;
	unsigned int i;

	if (fsl_collector__lost(l->c, lost))
		return 0;
	for (i = 0; i < FSL_FAM__MAX; i++)
		sum += lost[i];
	return sum;
}

static int live_comm(struct top_source *s, uint32_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	fsl_text_sanitize(buf);
	return n ? 0 : -ENOENT;
}

static int drop_event(void *ctx, const struct fsl_hdr *ev)
{
	return 0;
}

static void live_free(struct top_source *s)
{
	struct live *l = (struct live *)s;
	size_t i;

	if (l->c) {
		fsl_collector__stop(l->c, drop_event, NULL);
		fsl_collector__free(l->c);
	}
	fsl_ksyms__free(l->ksyms);
	fsl_meta_store__fini(&l->store);
	for (i = 0; i < l->nstacks; i++)
		stack_free(l->stacks[i]);
	free(l->stacks);
	fsl_ordered__free(l->held);
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
	struct live *l = calloc(1, sizeof(*l));
	char v[32];
	int e = 0;

	if (!l) {
		*err = -ENOMEM;
		return NULL;
	}
	l->src.ops = &live_ops;
	l->src.live = 1;
	l->held = fsl_ordered__new(1);
	if (!l->held) {
		free(l);
		*err = -ENOMEM;
		return NULL;
	}
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
	}
	co.min_wait_ns = o->min_wait_ns;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)(o->min_wait_ns / 1000));
	kv_put(l, FSL_KV_MIN_WAIT_US, v);
	/* Without kallsyms stacks stay addresses; everything else still works. */
	l->ksyms = fsl_ksyms__load(NULL, &e);
	l->c = fsl_collector__new(&co, err);
	if (!l->c)
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
