// SPDX-License-Identifier: GPL-2.0
/*
 * The session loop (include/fslens/session.h): source -> ordering -> context
 * stage -> consumers. The ordering and the span hold are both lib/ordered.c:
 * one by timestamp within a window, one by the end of each span.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/ordered.h"
#include "fslens/session.h"

static const char *m_kv(const struct fsl_meta *m, const char *key)
{
	return fsl_reader__kv(m->priv, key);
}

static const struct fsl_stack *m_stack(const struct fsl_meta *m, int32_t id)
{
	return fsl_reader__stack(m->priv, id);
}

static const char *m_sym(const struct fsl_meta *m, uint64_t addr)
{
	return fsl_reader__sym(m->priv, addr);
}

static const struct fsl_bitmap *m_bitmap(const struct fsl_meta *m, unsigned int kind,
					 unsigned int when)
{
	return fsl_reader__bitmap(m->priv, kind, when);
}

static const struct fsl_trace_stats *m_stats(const struct fsl_meta *m)
{
	return fsl_reader__stats(m->priv);
}

static const char *m_text(const struct fsl_meta *m, const char *name, size_t *len)
{
	return fsl_reader__text(m->priv, name, len);
}

void fsl_meta_from_reader(struct fsl_meta *m, struct fsl_reader *r)
{
	m->priv = r;
	m->kv = m_kv;
	m->stack = m_stack;
	m->sym = m_sym;
	m->bitmap = m_bitmap;
	m->stats = m_stats;
	m->text = m_text;
}

int32_t fsl_ev_stack_id(const struct fsl_hdr *ev)
{
	if (ev->type == FSL_EV_OFFCPU && ev->size >= sizeof(struct fsl_ev_offcpu))
		return ((const struct fsl_ev_offcpu *)ev)->stack_id;
	if (ev->type == FSL_EV_JBD2_KICK && ev->size >= sizeof(struct fsl_ev_jbd2_kick))
		return ((const struct fsl_ev_jbd2_kick *)ev)->stack_id;
	if (ev->type == FSL_EV_CPU && ev->size >= sizeof(struct fsl_ev_cpu))
		return ((const struct fsl_ev_cpu *)ev)->stack_id;
	if (ev->type == FSL_EV_EXT4_WRITEPAGES_RESULT &&
	    ev->size >= sizeof(struct fsl_ev_ext4_writepages_result))
		return ((const struct fsl_ev_ext4_writepages_result *)ev)->stack_id;
	return -1;
}

uint64_t fsl_ev_end(const struct fsl_hdr *ev)
{
	if (ev->type == FSL_EV_OFFCPU && ev->size >= sizeof(struct fsl_ev_offcpu))
		return ev->ts + ((const struct fsl_ev_offcpu *)ev)->dur_ns;
	if (ev->type == FSL_EV_DIROP && ev->size >= sizeof(struct fsl_ev_dirop))
		return ev->ts + ((const struct fsl_ev_dirop *)ev)->lat_ns;
	if (ev->type == FSL_EV_DATA && ev->size >= sizeof(struct fsl_ev_data))
		return ev->ts + ((const struct fsl_ev_data *)ev)->lat_ns;
	if (ev->type == FSL_EV_CPU && ev->size >= sizeof(struct fsl_ev_cpu))
		return ((const struct fsl_ev_cpu *)ev)->flags & FSL_CPU_TS_END ? ev->ts :
		       ev->ts + ((const struct fsl_ev_cpu *)ev)->slot_ns;
	/* the tracepoint fires just before the task sleeps pause ms */
	if (ev->type == FSL_EV_BALANCE_DIRTY_PAGES &&
	    ev->size >= sizeof(struct fsl_ev_balance_dirty_pages) &&
	    ((const struct fsl_ev_balance_dirty_pages *)ev)->pause > 0)
		return ev->ts + (uint64_t)((const struct fsl_ev_balance_dirty_pages *)ev)->pause *
				1000000ull;
	return ev->ts;
}

uint64_t fsl_ev_start(const struct fsl_hdr *ev)
{
	const struct fsl_ev_cpu *c = (const void *)ev;

	if (ev->type == FSL_EV_CPU && ev->size >= sizeof(*c) && (c->flags & FSL_CPU_TS_END))
		return c->slot_ns < ev->ts ? ev->ts - c->slot_ns : 0;
	return ev->ts;
}

int fsl_session_dispatch(struct fsl_consumer **cons, unsigned int n, const struct fsl_hdr *ev)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		struct fsl_consumer *c = cons[i];

		if (ev->type < FSL_EV__MAX && c->handlers[ev->type]) {
			err = c->handlers[ev->type](c, ev);
			if (err < 0)
				return err;
		}
		if (c->any) {
			err = c->any(c, ev);
			if (err < 0)
				return err;
		}
	}
	return 0;
}

/* A list of consumers that grows (a compare of 64 phases attaches 64 sets of 8). */
struct cons_list {
	struct fsl_consumer **c;
	unsigned int n, cap;
};

static int cons_list__add(struct cons_list *l, struct fsl_consumer *c)
{
	if (l->n == l->cap) {
		unsigned int cap = l->cap ? 2 * l->cap : 8;
		struct fsl_consumer **nc = realloc(l->c, cap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		l->c = nc;
		l->cap = cap;
	}
	l->c[l->n++] = c;
	return 0;
}

struct fsl_session {
	struct fsl_session_opts o;
	struct cons_list cons;		/* registration order */
	unsigned int begun;
	/* per event type: the consumers with a handler, in registration order */
	struct cons_list route[FSL_EV__MAX];
	struct cons_list any;		/* the consumers with any() */
	const struct fsl_meta *meta;
	struct fsl_ordered *ord;	/* by ts within o.order_ns; NULL: in order */
	struct fsl_ordered *held;	/* spans by their end (o.split) */
	uint64_t last_cut, now;
	uint64_t horizon;	/* no cut comes before it (fsl_session__horizon) */
	int started;
};

struct fsl_session *fsl_session__new(const struct fsl_session_opts *opts, int *err)
{
	struct fsl_session *s = calloc(1, sizeof(*s));

	if (!s)
		goto nomem;
	if (opts)
		s->o = *opts;
	if (s->o.order_ns && !(s->ord = fsl_ordered__new(s->o.order_ns)))
		goto nomem;
	if (s->o.split && !(s->held = fsl_ordered__new(0)))
		goto nomem;
	return s;
nomem:
	fsl_session__free(s);
	if (err)
		*err = -ENOMEM;
	return NULL;
}

void fsl_session__free(struct fsl_session *s)
{
	unsigned int t;

	if (!s)
		return;
	fsl_ordered__free(s->ord);
	fsl_ordered__free(s->held);
	for (t = 0; t < FSL_EV__MAX; t++)
		free(s->route[t].c);
	free(s->any.c);
	free(s->cons.c);
	free(s);
}

int fsl_session__add(struct fsl_session *s, struct fsl_consumer *c)
{
	unsigned int t, i = s->cons.n;
	int err;

	if ((err = cons_list__add(&s->cons, c)))
		return err;
	for (t = 0; t < FSL_EV__MAX && !err; t++)
		if (c->handlers[t])
			err = cons_list__add(&s->route[t], c);
	if (!err && c->any)
		err = cons_list__add(&s->any, c);
	if (err) {
		/* not registered at all: take it back out of the lists it reached */
		for (; t-- > 0;)
			if (s->route[t].n && s->route[t].c[s->route[t].n - 1] == c)
				s->route[t].n--;
		s->cons.n--;
		return err;
	}
	/* added to a running session: begun at once */
	if (s->started && s->begun == i) {
		err = c->begin ? c->begin(c, s->meta) : 0;
		if (err < 0)
			return err;
		s->begun++;
	}
	return 0;
}

int fsl_session__begin(struct fsl_session *s, const struct fsl_meta *m)
{
	int err;

	s->meta = m;
	s->started = 1;
	if (s->o.stage && s->o.stage->begin && (err = s->o.stage->begin(s->o.stage, m)) < 0)
		return err;
	for (; s->begun < s->cons.n; s->begun++) {
		struct fsl_consumer *c = s->cons.c[s->begun];

		if (c->begin && (err = c->begin(c, m)) < 0)
			return err;
	}
	return 0;
}

/* Context, then the type's handlers and every any(), in registration order. */
static int deliver(struct fsl_session *s, const struct fsl_hdr *ev)
{
	struct fsl_evctx x = { .from = fsl_ev_start(ev), .to = ev->ts, .end = ev->ts };
	const struct cons_list *r;
	unsigned int i;
	int err = 0;

	if (s->o.split) {
		x.end = x.to = fsl_ev_end(ev);
		if (x.from < s->last_cut)
			x.from = s->last_cut < x.to ? s->last_cut : x.to;
	} else if (ev->type == FSL_EV_OFFCPU || ev->type == FSL_EV_DIROP ||
		   ev->type == FSL_EV_BALANCE_DIRTY_PAGES || ev->type == FSL_EV_CPU) {
		x.end = x.to = fsl_ev_end(ev);
	}
	if (s->o.stage && s->o.stage->annotate)
		s->o.stage->annotate(s->o.stage, ev, &x);
	if (ev->type < FSL_EV__MAX) {
		r = &s->route[ev->type];
		for (i = 0; i < r->n && !err; i++) {
			struct fsl_consumer *c = r->c[i];

			c->ctx = &x;
			err = c->handlers[ev->type](c, ev);
		}
	}
	for (i = 0; i < s->any.n && err >= 0; i++) {
		struct fsl_consumer *c = s->any.c[i];

		c->ctx = &x;
		err = c->any(c, ev);
	}
	return err < 0 ? err : 0;
}

static int deliver_cb(void *ctx, const struct fsl_hdr *ev)
{
	return deliver(ctx, ev);
}

/* Out of the ordering: the stage sees it, then a span waits for its end. */
static int ordered_out(void *ctx, const struct fsl_hdr *ev)
{
	struct fsl_session *s = ctx;
	int err;

	if (s->o.stage && s->o.stage->arrive && (err = s->o.stage->arrive(s->o.stage, ev)) < 0)
		return err;
	if (s->held) {
		uint64_t end = fsl_ev_end(ev);

		/* what ended by now goes first */
		if ((err = fsl_ordered__advance(s->held, ev->ts, deliver_cb, s)))
			return err;
		/* a span that ends before any cut can come needs no holding */
		if (end > ev->ts && end >= s->horizon)
			return fsl_ordered__hold(s->held, end, ev);
	}
	return deliver(s, ev);
}

int fsl_session__push(struct fsl_session *s, const struct fsl_hdr *ev)
{
	if (ev->ts > s->now)
		s->now = ev->ts;
	if (s->ord)
		return fsl_ordered__push(s->ord, ev, ordered_out, s);
	return ordered_out(s, ev);
}

int fsl_session__advance(struct fsl_session *s, uint64_t now)
{
	return s->ord ? fsl_ordered__advance(s->ord, now, ordered_out, s) : 0;
}

void fsl_session__horizon(struct fsl_session *s, uint64_t t)
{
	if (t > s->horizon)
		s->horizon = t;
}

struct cut_ctx {
	struct fsl_session *s;
	uint64_t t;
};

static int cut_one(void *ctx, const struct fsl_hdr *ev)
{
	struct cut_ctx *cc = ctx;
	struct fsl_session *s = cc->s;
	struct fsl_evctx x = { .from = fsl_ev_start(ev), .to = cc->t, .end = fsl_ev_end(ev),
			       .flags = FSL_EVCTX_PARTIAL };
	unsigned int i;
	int err;

	if (ev->ts >= cc->t)
		return 0;
	if (x.from < s->last_cut)
		x.from = s->last_cut;
	if (s->o.stage && s->o.stage->annotate)
		s->o.stage->annotate(s->o.stage, ev, &x);
	x.flags |= FSL_EVCTX_PARTIAL;
	for (i = 0; i < s->cons.n; i++) {
		struct fsl_consumer *c = s->cons.c[i];

		if (!c->partial)
			continue;
		c->ctx = &x;
		err = c->partial(c, ev, &x);
		if (err < 0)
			return err;
	}
	return 0;
}

int fsl_session__cut(struct fsl_session *s, uint64_t t)
{
	struct cut_ctx cc = { s, t };
	unsigned int i;
	int err;

	if (s->held) {
		/* what ends before t completes in the window that closes */
		if (t && (err = fsl_ordered__advance(s->held, t - 1, deliver_cb, s)))
			return err;
		if ((err = fsl_ordered__each(s->held, cut_one, &cc)))
			return err;
	}
	if (t > s->last_cut)
		s->last_cut = t;
	if (t < s->horizon)
		s->horizon = t;	/* a cut the horizon did not foresee: hold from here */
	for (i = 0; i < s->cons.n; i++)
		if (s->cons.c[i]->flush && (err = s->cons.c[i]->flush(s->cons.c[i], t)) < 0)
			return err;
	return 0;
}

int fsl_session__flush(struct fsl_session *s)
{
	int err;

	if (s->ord && (err = fsl_ordered__flush(s->ord, ordered_out, s)))
		return err;
	if (s->held && (err = fsl_ordered__flush(s->held, deliver_cb, s)))
		return err;
	return 0;
}

int fsl_session__end(struct fsl_session *s)
{
	unsigned int i;
	int err = fsl_session__flush(s), e;

	for (i = 0; i < s->begun; i++) {
		struct fsl_consumer *c = s->cons.c[i];

		if (c->end && (e = c->end(c, s->meta)) < 0 && !err)
			err = e;
	}
	s->begun = 0;
	return err;
}

unsigned int fsl_session__nconsumers(const struct fsl_session *s)
{
	return s->cons.n;
}

uint64_t fsl_session__now(const struct fsl_session *s)
{
	return s->now;
}

/*
 * Reading (zstd, decoding) and the consumers cost about the same per event,
 * so they run on two threads: the reader copies events into batches, the
 * session takes them in order. One producer, one consumer, a small ring.
 */
#define NBATCH		4
#define BATCH_BYTES	(1u << 20)

struct batch {
	size_t len;
	char *data;
};

struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch b[NBATCH];
	unsigned int head, tail, count;	/* filled batches: tail..head */
	int done, err;			/* reader finished (err: its result) */
	int stop;			/* consumer gave up */
	struct fsl_reader *r;
};

/* Wait for a free batch; NULL when the consumer gave up. */
static struct batch *free_batch(struct pipe *p)
{
	struct batch *b = NULL;

	pthread_mutex_lock(&p->mu);
	while (p->count == NBATCH && !p->stop)
		pthread_cond_wait(&p->cv, &p->mu);
	if (!p->stop)
		b = &p->b[p->head];
	pthread_mutex_unlock(&p->mu);
	return b;
}

static void *reader_main(void *arg)
{
	struct pipe *p = arg;
	const struct fsl_hdr *ev;
	struct batch *cur;
	int rc;

	if (!(cur = free_batch(p)))
		return NULL;
	cur->len = 0;
	for (;;) {
		rc = fsl_reader__next(p->r, &ev);
		if (rc > 0 && cur->len + ev->size <= BATCH_BYTES) {
			memcpy(cur->data + cur->len, ev, ev->size);
			cur->len += ev->size;
			continue;
		}
		/* full, or the end: publish this batch */
		pthread_mutex_lock(&p->mu);
		p->head = (p->head + 1) % NBATCH;
		p->count++;
		if (rc <= 0) {
			p->done = 1;
			p->err = rc;
		}
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (rc <= 0 || !(cur = free_batch(p)))
			return NULL;
		/* the event that did not fit starts the next batch */
		memcpy(cur->data, ev, ev->size);
		cur->len = ev->size;
	}
}

static int read_inline(struct fsl_session *s, struct fsl_reader *r, int *from_reader)
{
	const struct fsl_hdr *ev;
	int err;

	while ((err = fsl_reader__next(r, &ev)) > 0)
		if ((err = fsl_session__push(s, ev)) < 0)
			return err;
	*from_reader = err < 0;
	return err;
}

int fsl_session__read(struct fsl_session *s, struct fsl_reader *r, int *from_reader)
{
	struct pipe p = { .r = r };
	pthread_t th;
	unsigned int i;
	int err = 0;

	*from_reader = 0;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (i = 0; i < NBATCH; i++)
		if (!(p.b[i].data = malloc(BATCH_BYTES)))
			err = -ENOMEM;
	if (!err && getenv("FSLENS_REPORT_NO_THREAD"))
		err = -EAGAIN;	/* for comparison (bench/report.sh) */
	if (!err && pthread_create(&th, NULL, reader_main, &p))
		err = -EAGAIN;
	if (err) {
		/* no thread: read and consume in turn */
		err = read_inline(s, r, from_reader);
		goto out;
	}
	for (;;) {
		struct batch *b;
		size_t off;
		int last;

		pthread_mutex_lock(&p.mu);
		while (!p.count)
			pthread_cond_wait(&p.cv, &p.mu);
		b = &p.b[p.tail];
		last = p.done && p.count == 1;
		pthread_mutex_unlock(&p.mu);
		for (off = 0; off < b->len && !err;) {
			const struct fsl_hdr *ev = (const void *)(b->data + off);

			err = fsl_session__push(s, ev);
			off += ev->size;
		}
		pthread_mutex_lock(&p.mu);
		p.tail = (p.tail + 1) % NBATCH;
		p.count--;
		if (err)
			p.stop = 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		if (err || last)
			break;
	}
	pthread_join(th, NULL);
	if (!err && p.err < 0) {
		err = p.err;
		*from_reader = 1;
	}
out:
	for (i = 0; i < NBATCH; i++)
		free(p.b[i].data);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return err < 0 ? err : 0;
}

/*
 * begin() of every consumer, then every event, then end() of every consumer
 * whose begin() succeeded (also after an error, so they can free what they
 * hold). Returns the first error.
 */
int fsl_session_run(struct fsl_reader *r, struct fsl_consumer **cons, unsigned int n)
{
	struct fsl_session *s;
	struct fsl_meta m;
	unsigned int i;
	int err = 0, e, from_reader;

	fsl_meta_from_reader(&m, r);
	if (!(s = fsl_session__new(NULL, &err)))
		return err;
	for (i = 0; i < n && !err; i++)
		err = fsl_session__add(s, cons[i]);
	if (!err)
		err = fsl_session__begin(s, &m);
	if (!err)
		err = read_inline(s, r, &from_reader);
	e = fsl_session__end(s);
	if (e < 0 && !err)
		err = e;
	fsl_session__free(s);
	return err < 0 ? err : 0;
}

struct window_pass {
	struct fsl_consumer cons;
	uint64_t t0, t1;
	int (*fn)(void *, const struct fsl_hdr *);
	void *x;
	int *failed;
	uint64_t *failed_ts;
};

static int window_any(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct window_pass *p = c->priv;
	int ret;

	if (ev->type != FSL_EV_PROC && (ev->ts < p->t0 || (p->t1 && ev->ts >= p->t1)))
		return 0;
	ret = p->fn(p->x, ev);
	if (ret < 0) {
		*p->failed = 1;
		*p->failed_ts = ev->ts;
	}
	return ret;
}

int fsl_session_run_window(struct fsl_reader *r, uint64_t t0, uint64_t t1,
			   int (*fn)(void *x, const struct fsl_hdr *ev), void *x,
			   int *failed, uint64_t *failed_ts)
{
	struct window_pass p = { .t0 = t0, .t1 = t1, .fn = fn, .x = x, .failed = failed,
				 .failed_ts = failed_ts };
	struct fsl_consumer *cons[1] = { &p.cons };

	*failed = 0;
	*failed_ts = 0;
	p.cons.name = "window";
	p.cons.priv = &p;
	p.cons.any = window_any;
	return fsl_session_run(r, cons, 1);
}

struct fsl_trace_pump {
	struct fsl_reader *r;
	/* The first event past the last pump's limit, kept for the next pump. */
	union {
		struct fsl_hdr hdr;
		uint64_t align;
		char bytes[65536];
	} pending;
	int have_pending;
	int eof;
};

struct fsl_trace_pump *fsl_trace_pump__new(struct fsl_reader *r)
{
	struct fsl_trace_pump *p = calloc(1, sizeof(*p));

	if (p)
		p->r = r;
	return p;
}

void fsl_trace_pump__free(struct fsl_trace_pump *p)
{
	free(p);
}

int fsl_trace_pump__pump(struct fsl_trace_pump *p, uint64_t until, unsigned int max,
			 int (*fn)(void *ctx, const struct fsl_hdr *ev), void *ctx)
{
	const struct fsl_hdr *ev;
	unsigned int n = 0;
	int rc;

	if (p->have_pending) {
		if (p->pending.hdr.ts >= until)
			return 0;
		p->have_pending = 0;
		if ((rc = fn(ctx, &p->pending.hdr)) < 0)
			return rc;
		n++;
	}
	while (!p->eof) {
		if (max && n >= max)
			return 0;
		rc = fsl_reader__next(p->r, &ev);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			p->eof = 1;
			break;
		}
		if (ev->ts >= until) {
			/* hdr.size is a u16: the buffer always holds the record. */
			memcpy(p->pending.bytes, ev, ev->size);
			p->have_pending = 1;
			return 0;
		}
		if ((rc = fn(ctx, ev)) < 0)
			return rc;
		n++;
	}
	return 1;
}
