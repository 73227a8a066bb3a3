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

/* Per thread: its latest path call and the directory-read waits not yet
 * matched to a call (a live stream delivers the waits before the call). */
struct an_tstate {
	uint64_t op_ts, op_end, op_dir;		/* op_dir: hash of the directory, 0 none */
	uint32_t nring;
	struct { uint64_t ts, dur; } ring[AN_RING];
};

struct an_ops {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map dirs;	/* hash(path) -> an_dir */
	struct fsl_map threads;	/* tid -> an_tstate */
	struct fsl_ops res;
};

/* 8 bytes at a time; the map mixes the bits again. */
static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull ^ n, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h ? h : 1;	/* 0 means "no directory" */
}

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

static void lookup_wait(struct an_ops *s, uint64_t key, uint64_t ts, uint64_t dur)
{
	struct an_dir *d;

	if (!an_in_window(&s->c->win, ts + dur))
		return;
	d = fsl_map__get(&s->dirs, key);
	if (d)
		d->lookup_wait_ns += dur;
}

/* Remember the thread's call; give its directory the waits that happened inside it. */
static int track_thread(struct an_ops *s, const struct fsl_hdr *h, uint64_t key, uint64_t end)
{
	struct an_tstate *t = fsl_map__put(&s->threads, h->tid, NULL);
	uint32_t i, k;

	if (!t)
		return -ENOMEM;
	t->op_ts = h->ts;
	t->op_end = end;
	t->op_dir = key;
	if (!key || !t->nring)
		return 0;
	for (i = 0, k = 0; i < t->nring; i++) {
		if (t->ring[i].ts >= h->ts && t->ring[i].ts < end)
			lookup_wait(s, key, t->ring[i].ts, t->ring[i].dur);
		else if (t->ring[i].ts >= h->ts)
			t->ring[k++] = t->ring[i];	/* a later call may own it */
	}
	t->nring = k;
	return 0;
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

	if (ev->op >= FSL_OP__MAX || h->size < sizeof(*ev) ||
	    sizeof(*ev) + ev->path_len + ev->path2_len > h->size)
		return 0;
	/* Calls on other filesystems (absolute paths outside the mount) are not ours. */
	if (s->c->mount && ev->path_len && ev->paths[0] == '/' &&
	    !(ev->path_len >= s->c->mount_len && !memcmp(ev->paths, s->c->mount, s->c->mount_len) &&
	      (ev->path_len == s->c->mount_len || ev->paths[s->c->mount_len] == '/' ||
	       s->c->mount_len == 1))) {
		if (an_in_window(&s->c->win, end))
			s->res.outside++;
		return 0;
	}
	n = op_dir(ev, dir, sizeof(dir));
	if (!an_in_window(&s->c->win, end))
		return track_thread(s, h, n ? str_hash(dir, n) : 0, end);
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

	ps = an_proc(s->c, h->pid);
	if (ps) {
		ps->ops++;
		ps->op_lat_ns += ev->lat_ns;
		fsl_hist_add(&ps->op_lat, ev->lat_ns);
	}

	if (n) {
		struct an_dir *d = dir_get(s, str_hash(dir, n), dir, n);

		if (d) {
			d->ops++;
			d->lat_ns += ev->lat_ns;
		} else {
			s->res.dirs_other_ops++;
		}
	}
	return track_thread(s, h, n ? str_hash(dir, n) : 0, end);
}

/* A directory-read wait of a thread: inside its current call, or kept until the call arrives. */
static int on_offcpu(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_ops *s = cons->priv;
	const struct fsl_ev_offcpu *ev = (const void *)h;
	struct an_tstate *t;

	/* the context stage classified the wait */
	if (!(cons->ctx->flags & FSL_EVCTX_STALL) || cons->ctx->cls != FSL_WC_DIR_BLOCK_READ)
		return 0;
	t = fsl_map__put(&s->threads, h->tid, NULL);
	if (!t)
		return -ENOMEM;
	if (t->op_dir && h->ts >= t->op_ts && h->ts < t->op_end) {
		lookup_wait(s, t->op_dir, h->ts, ev->dur_ns);
		return 0;
	}
	if (t->nring == AN_RING) {
		memmove(&t->ring[0], &t->ring[1], (AN_RING - 1) * sizeof(t->ring[0]));
		t->nring--;
	}
	t->ring[t->nring].ts = h->ts;
	t->ring[t->nring].dur = ev->dur_ns;
	t->nring++;
	return 0;
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
