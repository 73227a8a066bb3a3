// SPDX-License-Identifier: GPL-2.0
/*
 * Data operations on the target's files: per operation a count, bytes asked
 * and done and a latency histogram (ext4dist), the slowest calls with their
 * file's path (ext4slower), and bytes per file and per process (filetop).
 * A record counts where the call ends, like the path operations. Records of
 * another filesystem than the target's (a trace recorded without -m, then
 * read with one) are counted in outside and nothing else. In the byte
 * tables a copy (copy_file_range, sendfile, splice) reads its input file
 * and writes its output file, each where it is the target's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyses.h"

#define AN_DATA_MAX_FILES	65536	/* distinct files tracked per window */

struct an_data {
	struct fsl_consumer cons;
	struct an_ctx *c;
	struct fsl_map files;	/* dev:ino -> fsl_data_top */
	struct fsl_map procs;	/* tgid -> fsl_data_top */
	struct fsl_map paths;	/* dev:ino -> an_path, from file_path records */
	struct fsl_data res;
};

struct an_path {
	char path[FSL_FILE_PATH_MAX + 1];
};

static int is_read(unsigned int op)
{
	return op == FSL_DATA_READ || op == FSL_DATA_PREAD || op == FSL_DATA_AIO_READ ||
	       op == FSL_DATA_URING_READ;
}

static int is_write(unsigned int op)
{
	return op == FSL_DATA_WRITE || op == FSL_DATA_PWRITE || op == FSL_DATA_AIO_WRITE ||
	       op == FSL_DATA_URING_WRITE;
}

static int is_copy(unsigned int op)
{
	return op == FSL_DATA_COPY_RANGE || op == FSL_DATA_SENDFILE || op == FSL_DATA_SPLICE;
}

/* Does the record read (write) the file it names, ino? */
static int reads_file(const struct fsl_ev_data *ev)
{
	return is_read(ev->op) || (is_copy(ev->op) && !(ev->flags & FSL_DATA_OUT));
}

static int writes_file(const struct fsl_ev_data *ev)
{
	return is_write(ev->op) || (is_copy(ev->op) && (ev->flags & FSL_DATA_OUT));
}

/* A copy whose output file (ino2) is the target's too. */
static int writes_file2(const struct fsl_ev_data *ev)
{
	return is_copy(ev->op) && (ev->flags & FSL_DATA_BOTH) && !(ev->flags & FSL_DATA_OUT);
}

static uint64_t file_key(uint32_t dev, uint64_t ino)
{
	uint64_t k = ino * 0x9e3779b97f4a7c15ull ^ dev;

	return k ? k : 1;
}

/* Add the record to a table row: rd, wr say which of its sides the row takes. */
static void top_add(struct fsl_data_top *t, const struct fsl_ev_data *ev, int rd, int wr)
{
	uint64_t done = ev->ret > 0 ? (uint64_t)ev->ret : 0;

	if (rd) {
		t->reads++;
		t->read_bytes += done;
	}
	if (wr) {
		t->writes++;
		t->write_bytes += done;
	}
	t->lat_ns += ev->lat_ns;
}

/* The row of file dev:ino, made if there is room; NULL past AN_DATA_MAX_FILES. */
static struct fsl_data_top *file_row(struct an_data *s, uint32_t dev, uint64_t ino,
				     const char *name)
{
	struct fsl_data_top *t = fsl_map__get(&s->files, file_key(dev, ino));
	int fresh;

	if (t || s->files.n >= AN_DATA_MAX_FILES)
		return t;
	t = fsl_map__put(&s->files, file_key(dev, ino), &fresh);
	if (!t)
		return NULL;
	t->ino = ino;
	t->dev = dev;
	memcpy(t->name, name, sizeof(t->name));
	t->name[sizeof(t->name) - 1] = 0;
	return t;
}

/* Keep the FSL_DATA_SLOWEST slowest, slowest first; ties: earlier first. */
static void slow_add(struct an_data *s, const struct fsl_ev_data *ev)
{
	struct fsl_data *r = &s->res;
	struct fsl_data_slow *d;
	unsigned int i;

	for (i = 0; i < r->nslow && r->slow[i].lat_ns >= ev->lat_ns; i++)
		;
	if (i >= FSL_DATA_SLOWEST)
		return;
	if (r->nslow < FSL_DATA_SLOWEST)
		r->nslow++;
	memmove(&r->slow[i + 1], &r->slow[i], (r->nslow - 1 - i) * sizeof(r->slow[0]));
	d = &r->slow[i];
	memset(d, 0, sizeof(*d));
	d->ts = ev->hdr.ts;
	d->lat_ns = ev->lat_ns;
	d->ino = ev->ino;
	d->bytes = ev->bytes;
	d->offset = ev->offset;
	d->ret = ev->ret;
	d->pid = ev->hdr.pid;
	d->tid = ev->hdr.tid;
	d->dev = ev->dev;
	d->op = ev->op;
	d->flags = ev->flags;
	an_comm_copy(d->comm, fsl_context__comm(s->c->cx, ev->hdr.pid));
	memcpy(d->name, ev->name, sizeof(d->name));
	d->name[sizeof(d->name) - 1] = 0;
}

static int on_data(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_data *s = cons->priv;
	const struct fsl_ev_data *ev = (const void *)h;
	uint64_t done;
	struct fsl_data_op_stat *os;
	struct fsl_data_top *t;
	struct fsl_proc_stat *ps;
	int fresh, rd, wr;

	if (h->size < sizeof(*ev) || ev->op >= FSL_DATA__MAX)
		return 0;
	if (!an_in_window(&s->c->win, h->ts + ev->lat_ns))
		return 0;
	if (s->c->target_dev && ev->dev != s->c->target_dev) {
		s->res.outside++;
		return 0;
	}
	done = ev->ret > 0 ? (uint64_t)ev->ret : 0;
	os = &s->res.op[ev->op];
	os->count++;
	if (ev->ret < 0)
		os->errors++;
	os->bytes_asked += ev->bytes;
	if (is_read(ev->op) || is_write(ev->op) || is_copy(ev->op))
		os->bytes_done += done;
	fsl_hist_add(&os->lat, ev->lat_ns);
	s->res.total++;
	rd = reads_file(ev);
	wr = writes_file(ev) || writes_file2(ev);
	if (rd)
		s->res.read_bytes += done;
	if (wr)
		s->res.write_bytes += done;
	slow_add(s, ev);

	t = file_row(s, ev->dev, ev->ino, ev->name);
	if (t)
		top_add(t, ev, rd, writes_file(ev));
	else
		s->res.files_other++;
	if (writes_file2(ev)) {
		t = file_row(s, ev->dev, ev->ino2, ev->name2);
		if (t)
			top_add(t, ev, 0, 1);
		else
			s->res.files_other++;
	}
	t = fsl_map__put(&s->procs, h->pid, &fresh);
	if (!t)
		return -ENOMEM;
	t->pid = h->pid;
	top_add(t, ev, rd, wr);

	ps = fsl_ctx_procs__get(&s->c->procs, h->pid);
	if (ps) {
		if (rd) {
			ps->data_reads++;
			ps->data_read_bytes += done;
		}
		if (wr) {
			ps->data_writes++;
			ps->data_write_bytes += done;
		}
	}
	return 0;
}

/* A file's path: kept whatever the window, as it comes once before the file's records. */
static int on_file_path(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_data *s = cons->priv;
	const struct fsl_ev_file_path *ev = (const void *)h;
	unsigned int n = fsl_file_path_len(ev);
	struct an_path *p;

	if (h->size < sizeof(*ev) || (s->c->target_dev && ev->dev != s->c->target_dev))
		return 0;
	p = fsl_map__get(&s->paths, file_key(ev->dev, ev->ino));
	if (!p && fsl_map__count(&s->paths) >= AN_DATA_MAX_FILES)
		return 0;
	if (!p && !(p = fsl_map__put(&s->paths, file_key(ev->dev, ev->ino), NULL)))
		return -ENOMEM;
	memcpy(p->path, ev->path, n);
	p->path[n] = 0;
	fsl_text_sanitize(p->path);	/* printed by the reports */
	return 0;
}

/* The path of dev:ino as shown (mount point + path in the filesystem) into out, or "". */
static void path_of(struct an_data *s, uint32_t dev, uint64_t ino, char *out, size_t len)
{
	const struct an_path *p = fsl_map__get(&s->paths, file_key(dev, ino));
	const char *m = s->c->mount;

	out[0] = 0;
	if (!p)
		return;
	if (m && s->c->mount_len > 1)
		snprintf(out, len, "%.*s%s", (int)s->c->mount_len, m, p->path);
	else
		snprintf(out, len, "%s", p->path);
}

struct an_data *an_data_new(struct an_ctx *c)
{
	struct an_data *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	fsl_map__init(&s->files, sizeof(struct fsl_data_top));
	fsl_map__init(&s->procs, sizeof(struct fsl_data_top));
	fsl_map__init(&s->paths, sizeof(struct an_path));
	s->cons.name = "data";
	s->cons.priv = s;
	s->cons.handlers[FSL_EV_DATA] = on_data;
	s->cons.handlers[FSL_EV_FILE_PATH] = on_file_path;
	return s;
}

void an_data_free(struct an_data *s)
{
	if (!s)
		return;
	fsl_map__free(&s->files);
	fsl_map__free(&s->procs);
	fsl_map__free(&s->paths);
	free(s);
}

void an_data_reset(struct an_data *s)
{
	memset(&s->res, 0, sizeof(s->res));
	fsl_map__clear(&s->files);
	fsl_map__clear(&s->procs);
}

struct fsl_consumer *an_data_consumer(struct an_data *s)
{
	return &s->cons;
}

static int top_better(const struct fsl_data_top *a, const struct fsl_data_top *b)
{
	uint64_t x = a->read_bytes + a->write_bytes, y = b->read_bytes + b->write_bytes;

	if (x != y)
		return x > y;
	if (a->reads + a->writes != b->reads + b->writes)
		return a->reads + a->writes > b->reads + b->writes;
	if (a->ino != b->ino)
		return a->ino < b->ino;
	return a->pid < b->pid;
}

/* The FSL_DATA_TOP best of map m into out (best first); returns the count. */
static unsigned int top_of(const struct fsl_map *m, struct fsl_data_top *out)
{
	struct fsl_data_top *t;
	size_t it = 0;
	unsigned int i, n = 0;

	while ((t = fsl_map__next(m, &it, NULL))) {
		for (i = 0; i < n && !top_better(t, &out[i]); i++)
			;
		if (i >= FSL_DATA_TOP)
			continue;
		if (n < FSL_DATA_TOP)
			n++;
		memmove(&out[i + 1], &out[i], (n - 1 - i) * sizeof(out[0]));
		out[i] = *t;
	}
	return n;
}

const struct fsl_data *an_data_result(struct an_data *s)
{
	unsigned int i;

	s->res.nfiles = top_of(&s->files, s->res.files);
	s->res.nprocs = top_of(&s->procs, s->res.procs);
	for (i = 0; i < s->res.nslow; i++)
		path_of(s, s->res.slow[i].dev, s->res.slow[i].ino, s->res.slow[i].path,
			sizeof(s->res.slow[i].path));
	for (i = 0; i < s->res.nfiles; i++)
		path_of(s, s->res.files[i].dev, s->res.files[i].ino, s->res.file_path[i],
			sizeof(s->res.file_path[i]));
	/* the current names: exec and comm changes come after the first event */
	for (i = 0; i < s->res.nprocs; i++)
		an_comm_copy(s->res.procs[i].name, fsl_context__comm(s->c->cx, s->res.procs[i].pid));
	return &s->res;
}
