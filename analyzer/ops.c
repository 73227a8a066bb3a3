// SPDX-License-Identifier: GPL-2.0
/*
 * Operations: path-based system calls per type (count, latency histogram),
 * completions over time (a collapsing create rate shows), a latency heatmap
 * and the hottest directories.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "an_internal.h"

#define AN_MAX_DIRS	4096	/* distinct directories tracked per window */

struct an_dir {
	char path[128];
	uint64_t ops, lat_ns;
};

struct an_ops {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct an_map dirs;	/* hash(path) -> an_dir */
	struct fsl_ops res;
};

static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
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
	if (!an_in_window(&s->c->win, end))
		return 0;
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
	}

	n = op_dir(ev, dir, sizeof(dir));
	if (n) {
		uint64_t key = str_hash(dir, n);
		struct an_dir *d = an_map_get(&s->dirs, key);

		if (!d && s->dirs.n < AN_MAX_DIRS) {
			d = an_map_put(&s->dirs, key, NULL);
			if (!d)
				return -ENOMEM;
			memcpy(d->path, dir, n + 1);
		}
		if (d) {
			d->ops++;
			d->lat_ns += ev->lat_ns;
		} else {
			s->res.dirs_other_ops++;
		}
	}
	return 0;
}

struct an_ops *an_ops_new(struct an_ctx *c)
{
	struct an_ops *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	an_map_init(&s->dirs, sizeof(struct an_dir));
	s->cons.name = "ops";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_DIROP] = on_dirop;
	return s;
}

void an_ops_free(struct an_ops *s)
{
	if (!s)
		return;
	an_map_free(&s->dirs);
	free(s);
}

void an_ops_reset(struct an_ops *s)
{
	memset(&s->res, 0, sizeof(s->res));
	an_map_clear(&s->dirs);
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

	while ((d = an_map_next(&s->dirs, &it, NULL))) {
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
	}
	s->res.ndirs = n;
	return &s->res;
}
