// SPDX-License-Identifier: GPL-2.0
/*
 * Operations: path-based system calls per type (count, latency histogram),
 * completions over time (a collapsing create rate shows), a latency heatmap
 * and the hottest directories.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

#define AN_MAX_DIRS	4096	/* distinct directories tracked per window */

struct an_dir {
	char path[128];
	uint64_t ops, lat_ns, lookup_wait_ns;
};

#define AN_RING	8
/*
 * Thread states kept before the idle ones are forgotten: a live `top` sees
 * every short-lived process of a machine, and one that ended its last call
 * AN_THREAD_IDLE_NS ago has nothing left to match (its waits' pieces go to
 * the directory at the cut anyway).
 */
#define AN_MAX_THREADS		4096
#define AN_THREAD_IDLE_NS	2000000000ull

/*
 * Per thread: its latest path call and the pieces of directory-read waits
 * not yet matched to a call (with the session's split, a wait is delivered
 * at its end, before the call around it). A piece is the wait's time in the
 * current window; it goes to the call's directory at the call's end or at
 * the window's cut, whichever comes first, so it lands in its own window.
 */
struct an_tstate {
	uint64_t op_ts, op_end, op_dir;		/* op_dir: hash of the directory, 0 none */
	char op_path[128];			/* the directory, for its row */
	uint32_t nring;
	struct { uint64_t ts, ns; } ring[AN_RING];
};

struct an_ops {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map dirs;	/* hash(path) -> an_dir */
	struct fsl_map threads;	/* tid -> an_tstate */
	size_t prune_at;	/* threads counted when the idle ones are forgotten next */
	struct fsl_ops res;
};

static int is_create(unsigned int op)
{
	return op == FSL_OP_CREATE || op == FSL_OP_MKDIR || op == FSL_OP_MKNOD ||
	       op == FSL_OP_SYMLINK;
}

/* The directory an operation works in, as the call named it. */
static size_t op_dir(const struct fsl_ev_dirop *ev, char *buf, size_t len)
{
	size_t n = ev->path_len, i;
	const char *p = ev->paths;

	if (!n)
		return 0;
	while (n > 1 && p[n - 1] == '/')
		n--;
	for (i = n; i > 0 && p[i - 1] != '/'; i--)
		;
	if (i == 0) {
		if (ev->dirfd == -100)
			return snprintf(buf, len, "(cwd)");
		return snprintf(buf, len, "fd%d", ev->dirfd);
	}
	if (i > 1)
		i--;	/* drop the trailing slash, keep "/" itself */
	if (i >= len)
		i = len - 1;
	memcpy(buf, p, i);
	buf[i] = 0;
	return i;
}

static struct an_dir *dir_get(struct an_ops *s, uint64_t key, const char *dir, size_t n)
{
	struct an_dir *d = fsl_map__get(&s->dirs, key);

	if (!d && s->dirs.n < AN_MAX_DIRS) {
		d = fsl_map__put(&s->dirs, key, NULL);
		if (d && dir) {
			memcpy(d->path, dir, n + 1);
			fsl_text_sanitize(d->path);	/* printed by the reports */
		}
	}
	return d;
}

/* A directory-read wait's time in the window goes to the directory of the call around it. */
static void lookup_wait(struct an_ops *s, const struct an_tstate *t, uint64_t ns)
{
	struct an_dir *d;

	if (!ns)
		return;
	d = dir_get(s, t->op_dir, t->op_path, strlen(t->op_path));
	if (d)
		d->lookup_wait_ns += ns;
}

/* Forget the threads idle since before now - AN_THREAD_IDLE_NS. */
static void prune_threads(struct an_ops *s, uint64_t now)
{
	uint64_t key, *old;
	struct an_tstate *t;
	size_t it = 0, n = 0, i;

	old = malloc(fsl_map__count(&s->threads) * sizeof(*old));
	if (!old)
		return;
	while ((t = fsl_map__next(&s->threads, &it, &key))) {
		uint64_t last = t->op_end;

		for (i = 0; i < t->nring; i++)
			if (t->ring[i].ts > last)
				last = t->ring[i].ts;
		if (last + AN_THREAD_IDLE_NS < now)
			old[n++] = key;
	}
	for (i = 0; i < n; i++)	/* not while iterating: deletion moves slots */
		fsl_map__del(&s->threads, old[i]);
	free(old);
}

/*
 * The state of tid, made if new. Past AN_MAX_THREADS the idle ones go first;
 * the next pruning waits until the map doubles, so it costs O(1) a thread.
 */
static struct an_tstate *thread_get(struct an_ops *s, uint32_t tid, uint64_t now)
{
	if (fsl_map__count(&s->threads) >= (s->prune_at ? s->prune_at : AN_MAX_THREADS) &&
	    !fsl_map__get(&s->threads, tid)) {
		prune_threads(s, now);
		s->prune_at = 2 * fsl_map__count(&s->threads);
		if (s->prune_at < AN_MAX_THREADS)
			s->prune_at = AN_MAX_THREADS;
	}
	return fsl_map__put(&s->threads, tid, NULL);
}

/* The thread is in (or has ended) this call; give its directory the pieces inside it. */
static int track_thread(struct an_ops *s, const struct fsl_hdr *h, const char *dir, size_t n,
			uint64_t end)
{
	struct an_tstate *t;
	uint32_t i, k;

	t = thread_get(s, h->tid, h->ts);
	if (!t)
		return -ENOMEM;
	t->op_ts = h->ts;
	t->op_end = end;
	t->op_dir = n ? fsl_hash_bytes(dir, n) : 0;
	memcpy(t->op_path, dir, n);
	t->op_path[n] = 0;
	if (!t->op_dir || !t->nring)
		return 0;
	for (i = 0, k = 0; i < t->nring; i++) {
		if (t->ring[i].ts >= h->ts && t->ring[i].ts < end)
			lookup_wait(s, t, t->ring[i].ns);
		else if (t->ring[i].ts >= h->ts)
			t->ring[k++] = t->ring[i];	/* a later call may own it */
	}
	t->nring = k;
	return 0;
}

/*
 * Calls on other filesystems are not ours. A trace recorded with a target
 * holds only the calls the kernel judged to be on it (pflags' scope bits,
 * probes/scope.bpf.h); one from an fslens before that is judged here, by
 * the absolute paths that do not lead under the mount point.
 */
static int outside(const struct an_ops *s, const struct fsl_ev_dirop *ev)
{
	const struct an_ctx *c = s->c;

	if (ev->pflags & FSL_DIROP_SCOPE_MASK)
		return 0;
	return c->mount && ev->path_len && ev->paths[0] == '/' &&
	       !(ev->path_len >= c->mount_len && !memcmp(ev->paths, c->mount, c->mount_len) &&
		 (ev->path_len == c->mount_len || ev->paths[c->mount_len] == '/' ||
		  c->mount_len == 1));
}

static int dirop_valid(const struct fsl_hdr *h)
{
	const struct fsl_ev_dirop *ev = (const void *)h;

	return h->size >= sizeof(*ev) && ev->op < FSL_OP__MAX &&
	       sizeof(*ev) + ev->path_len + ev->path2_len <= h->size;
}

static int on_dirop(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_ops *s = cons->priv;
	const struct fsl_ev_dirop *ev = (const void *)h;
	uint64_t end = h->ts + ev->lat_ns, us;
	struct fsl_op_stat *os;
	struct fsl_proc_stat *ps;
	unsigned int bin, folds, row;
	char dir[128];
	size_t n;

	if (!dirop_valid(h))
		return 0;
	if (outside(s, ev)) {
		if (an_in_window(&s->c->win, end))
			s->res.outside++;
		return 0;
	}
	n = op_dir(ev, dir, sizeof(dir));
	if (!an_in_window(&s->c->win, end))
		return track_thread(s, h, dir, n, end);
	os = &s->res.op[ev->op];
	os->count++;
	if (ev->ret < 0)
		os->errors++;
	fsl_hist_add(&os->lat, ev->lat_ns);
	s->res.total++;

	bin = an_tb_bin(&s->res.tb, s->c->origin, end, &folds);
	if (folds) {
		an_fold_sum(s->res.series_all, folds);
		an_fold_sum(s->res.series_create, folds);
		an_fold_sum32(&s->res.heat[0][0], 24, folds);
	}
	s->res.series_all[bin]++;
	if (is_create(ev->op))
		s->res.series_create[bin]++;
	us = ev->lat_ns / 1000;
	row = us ? 64 - __builtin_clzll(us) : 0;
	if (row > 23)
		row = 23;
	s->res.heat[bin][row]++;

	ps = fsl_ctx_procs__get(&s->c->procs, h->pid);
	if (ps) {
		ps->ops++;
		ps->op_lat_ns += ev->lat_ns;
		fsl_hist_add(&ps->op_lat, ev->lat_ns);
	}

	if (n) {
		struct an_dir *d = dir_get(s, fsl_hash_bytes(dir, n), dir, n);

		if (d) {
			d->ops++;
			d->lat_ns += ev->lat_ns;
		} else {
			s->res.dirs_other_ops++;
		}
	}
	return track_thread(s, h, dir, n, end);
}

/*
 * A directory-read wait of a thread, or its piece up to a cut (x): its time
 * in the window goes to the directory of its call now if the call is known,
 * else it is kept until the call or the cut arrives.
 */
static int add_wait(struct an_ops *s, const struct fsl_hdr *h, const struct fsl_evctx *x)
{
	uint64_t ns = an_overlap(&s->c->win, x->from, x->to);
	struct an_tstate *t;

	/* the context stage classified the wait */
	if (!(x->flags & FSL_EVCTX_STALL) || x->cls != FSL_WC_DIR_BLOCK_READ || !ns)
		return 0;
	t = thread_get(s, h->tid, h->ts);
	if (!t)
		return -ENOMEM;
	if (t->op_dir && h->ts >= t->op_ts && h->ts < t->op_end) {
		lookup_wait(s, t, ns);
		return 0;
	}
	if (t->nring == AN_RING) {
		memmove(&t->ring[0], &t->ring[1], (AN_RING - 1) * sizeof(t->ring[0]));
		t->nring--;
	}
	t->ring[t->nring].ts = h->ts;
	t->ring[t->nring].ns = ns;
	t->nring++;
	return 0;
}

static int on_offcpu(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	return add_wait(cons->priv, h, cons->ctx);
}

/*
 * At a cut: a wait in flight gives its piece; a call in flight takes the
 * pieces of the waits inside it so far, which belong to the closing window.
 */
static int on_partial(struct fsl_consumer *cons, const struct fsl_hdr *h,
		      const struct fsl_evctx *x)
{
	struct an_ops *s = cons->priv;
	const struct fsl_ev_dirop *ev = (const void *)h;
	char dir[128];

	if (h->type == FSL_EV_OFFCPU)
		return add_wait(s, h, x);
	if (h->type != FSL_EV_DIROP || !dirop_valid(h) || outside(s, ev))
		return 0;
	return track_thread(s, h, dir, op_dir(ev, dir, sizeof(dir)), x->end);
}

struct an_ops *an_ops_new(struct an_ctx *c)
{
	struct an_ops *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->dirs, sizeof(struct an_dir));
	fsl_map__init(&s->threads, sizeof(struct an_tstate));
	s->cons.name = "ops";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_DIROP] = on_dirop;
	s->cons.handlers[FSL_EV_OFFCPU] = on_offcpu;
	s->cons.partial = on_partial;
	return s;
}

void an_ops_free(struct an_ops *s)
{
	if (!s)
		return;
	fsl_map__free(&s->dirs);
	fsl_map__free(&s->threads);
	free(s);
}

void an_ops_reset(struct an_ops *s)
{
	memset(&s->res, 0, sizeof(s->res));
	fsl_map__clear(&s->dirs);
}

struct fsl_consumer *an_ops_consumer(struct an_ops *s)
{
	return &s->cons;
}

static int dir_better(const struct an_dir *a, const struct fsl_dir_stat *b)
{
	if (a->ops != b->ops)
		return a->ops > b->ops;
	if (a->lat_ns != b->lat_ns)
		return a->lat_ns > b->lat_ns;
	return strcmp(a->path, b->path) < 0;
}

const struct fsl_ops *an_ops_result(struct an_ops *s)
{
	struct an_dir *d;
	size_t it = 0;
	unsigned int i, n = 0;

	while ((d = fsl_map__next(&s->dirs, &it, NULL))) {
		for (i = 0; i < n && !dir_better(d, &s->res.dirs[i]); i++)
			;
		if (i >= FSL_TOP_DIRS)
			continue;
		if (n < FSL_TOP_DIRS)
			n++;
		memmove(&s->res.dirs[i + 1], &s->res.dirs[i], (n - 1 - i) * sizeof(s->res.dirs[0]));
		memcpy(s->res.dirs[i].path, d->path, sizeof(d->path));
		s->res.dirs[i].ops = d->ops;
		s->res.dirs[i].lat_ns = d->lat_ns;
		s->res.dirs[i].lookup_wait_ns = d->lookup_wait_ns;
	}
	s->res.ndirs = n;
	return &s->res;
}
