// SPDX-License-Identifier: GPL-2.0
/*
 * The collector stream (include/fslens/stream.h): the one consumer of the
 * ring buffer. Each raw record is looked at once, in arrival order: a task
 * seen for the first time is named, stack ids and caller addresses are
 * remembered for symbolization, then the record goes into the ordering
 * service, which hands it to the caller in time order.
 *
 * No libbpf here: the real ring is reached through the collector's public
 * API, so the stream builds (and is unit-tested) without BPF.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fslens/text.h"
#include "fslens/collector.h"
#include "fslens/fsmeta.h"
#include "fslens/hashmap.h"
#include "fslens/ksyms.h"
#include "fslens/session.h"
#include "fslens/stream.h"
#include "fslens/trace.h"

#define STACK_MAX 64
/*
 * Bounds of the task tables (16 and 40 bytes an entry). Past TIDS_MAX the
 * tids named are forgotten, so a live task is named again (one more SEEN
 * record); past GONE_MAX a task seen after its exit is not held for a
 * later name and counts as unnamed.
 */
#define TIDS_MAX (1u << 20)
#define GONE_MAX (1u << 16)

/* Keys in the order first seen: what fsl_stream__symbols has still to give. */
struct keys {
	uint64_t *k;
	size_t n, cap;
};

static int keys_add(struct keys *ks, uint64_t key)
{
	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? 2 * ks->cap : 64;
		uint64_t *k = realloc(ks->k, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		ks->k = k;
		ks->cap = cap;
	}
	ks->k[ks->n++] = key;
	return 0;
}

struct cg_path {
	char path[FSL_PROC_CGROUP_MAX];
};

struct fsl_stream {
	const struct fsl_ring_ops *ops;
	void *ring;
	struct fsl_stream_opts o;
	char proc[256];
	struct fsl_ordered *ord;
	fsl_event_fn fn;		/* the caller's, during poll/stop */
	void *fn_ctx;
	int err;			/* the stream's own failure inside a poll */
	struct fsl_map tids;		/* tids named or being named (no value) */
	struct fsl_map gone;		/* tid -> struct fsl_hdr: first record, task gone */
	struct fsl_map stacks;		/* stack id -> struct fsl_stack * (NULL until used) */
	struct fsl_map ips;		/* caller addresses (no value) */
	struct fsl_map cgroups;		/* cgroup id -> struct cg_path, as /proc said */
	char cg2[256];			/* where a cgroup2 hierarchy is mounted, "" none */
	int cg2_tried;
	struct keys new_stacks;		/* seen in the ring, not yet given to a recorder */
	struct keys new_ips;
	uint64_t named_late;
	uint64_t taken;			/* records into the ordering (ring's and SEEN ones) */
	uint64_t gone_full;		/* gone tasks not held: the table was full */
	struct fsl_ksyms *ksyms;
	int ksyms_err;			/* 0: not tried or loaded; else why not */
	int ksyms_tried;
};

/* ---- the collector as a ring ---- */

static int coll_poll(void *ring, int timeout_ms, fsl_event_fn fn, void *ctx)
{
	return fsl_collector__poll(ring, timeout_ms, fn, ctx);
}

static int coll_stop(void *ring, fsl_event_fn fn, void *ctx)
{
	return fsl_collector__stop(ring, fn, ctx);
}

static int coll_stack(void *ring, int32_t id, uint64_t *ips, int max)
{
	return fsl_collector__stack(ring, id, ips, max);
}

static int coll_lost(void *ring, uint64_t lost[FSL_FAM__MAX])
{
	return fsl_collector__lost(ring, lost);
}

static int coll_fill(void *ring, uint64_t *used, uint64_t *size)
{
	return fsl_collector__fill(ring, used, size);
}

static const struct fsl_ring_ops collector_ring = {
	.fill = coll_fill,
	.poll = coll_poll,
	.stop = coll_stop,
	.stack = coll_stack,
	.lost = coll_lost,
};

struct fsl_stream *fsl_stream__new_collector(struct fsl_collector *c,
					     const struct fsl_stream_opts *o, int *err)
{
	return fsl_stream__new(&collector_ring, c, o, err);
}

/* ---- life ---- */

static int ksyms_load(struct fsl_stream *s)
{
	if (!s->ksyms_tried) {
		s->ksyms_tried = 1;
		s->ksyms = fsl_ksyms__load(s->o.kallsyms, &s->ksyms_err);
		if (!s->ksyms && !s->ksyms_err)
			s->ksyms_err = -ENOENT;
	}
	return s->ksyms ? 0 : s->ksyms_err;
}

struct fsl_stream *fsl_stream__new(const struct fsl_ring_ops *ops, void *ring,
				   const struct fsl_stream_opts *o, int *err)
{
	struct fsl_stream *s = calloc(1, sizeof(*s));

	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	s->ops = ops;
	s->ring = ring;
	s->o = *o;
	snprintf(s->proc, sizeof(s->proc), "%s", o->proc ? o->proc : "/proc");
	s->o.proc = s->proc;
	s->o.kallsyms = NULL;
	if (o->kallsyms) {
		s->o.kallsyms = strdup(o->kallsyms);
		if (!s->o.kallsyms) {
			free(s);
			*err = -ENOMEM;
			return NULL;
		}
	}
	/* the service needs a window of at least 1 ns: ts < clock is released */
	s->ord = fsl_ordered__new(o->window_ns ? o->window_ns : 1);
	if (!s->ord) {
		free((char *)s->o.kallsyms);
		free(s);
		*err = -ENOMEM;
		return NULL;
	}
	fsl_ordered__set_limit(s->ord, o->hold_bytes);
	fsl_map__init(&s->tids, 0);
	fsl_map__init(&s->gone, sizeof(struct fsl_hdr));
	fsl_map__init(&s->stacks, sizeof(struct fsl_stack *));
	fsl_map__init(&s->ips, 0);
	fsl_map__init(&s->cgroups, sizeof(struct cg_path));
	if (o->symbols_now)
		ksyms_load(s);	/* without kallsyms stacks stay addresses */
	*err = 0;
	return s;
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

void fsl_stream__free(struct fsl_stream *s)
{
	struct fsl_stack **st;
	size_t i = 0;

	if (!s)
		return;
	while ((st = fsl_map__next(&s->stacks, &i, NULL)))
		stack_free(*st);
	fsl_map__free(&s->stacks);
	fsl_map__free(&s->tids);
	fsl_map__free(&s->gone);
	fsl_map__free(&s->ips);
	fsl_map__free(&s->cgroups);
	free(s->new_stacks.k);
	free(s->new_ips.k);
	fsl_ordered__free(s->ord);
	fsl_ksyms__free(s->ksyms);
	free((char *)s->o.kallsyms);
	free(s);
}

/* ---- task naming ---- */

/* ---- cgroups: the path of a proc record's cgroup id ---- */

/* p, or "..." and its tail if it is longer than the record holds */
static void cg_copy(char out[FSL_PROC_CGROUP_MAX], const char *p)
{
	size_t n = strlen(p);

	if (n < FSL_PROC_CGROUP_MAX)
		memcpy(out, p, n + 1);
	else
		snprintf(out, FSL_PROC_CGROUP_MAX, "...%s", p + n - (FSL_PROC_CGROUP_MAX - 4));
}

/* The task's cgroup v2 path ("0::/a/b" in /proc/PID/task/TID/cgroup); 0 or -ENOENT. */
static int proc_cgroup(const struct fsl_stream *s, uint32_t pid, uint32_t tid,
		       char out[FSL_PROC_CGROUP_MAX])
{
	char path[320], line[4200];
	int e = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u/task/%u/cgroup", s->proc, pid, tid);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	while (e && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		cg_copy(out, line + 3);
		e = 0;
	}
	fclose(f);
	return e;
}

/* Where the cgroup v2 hierarchy is mounted (the first cgroup2 mount), once. */
static const char *cg2_mount(struct fsl_stream *s)
{
	char path[320];

	if (s->cg2_tried)
		return s->cg2[0] ? s->cg2 : NULL;
	s->cg2_tried = 1;
	snprintf(path, sizeof(path), "%s/self/mounts", s->proc);
	fsl_cgroup2_mount(path, s->cg2, sizeof(s->cg2));
	return s->cg2[0] ? s->cg2 : NULL;
}

/* The id of the cgroup at path below the v2 hierarchy: its directory's inode; 0 unknown. */
static uint64_t cg_id(struct fsl_stream *s, const char *cg)
{
	const char *root = cg2_mount(s);
	char path[600];
	struct stat st;

	if (!root || !strncmp(cg, "...", 3))
		return 0;
	snprintf(path, sizeof(path), "%s%s", root, cg);
	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

/*
 * The cgroup whose id (its directory's inode) is id, searched under dir
 * (rel its path from the hierarchy's root): 0 found (in out), else -ENOENT.
 * At most depth levels and *budget directories.
 */
static int cg_search(const char *dir, const char *rel, uint64_t id, int depth, int *budget,
		     char out[FSL_PROC_CGROUP_MAX])
{
	char path[600], sub[600];
	struct dirent *d;
	struct stat st;
	int e = -ENOENT;
	DIR *dp;

	if (depth <= 0 || --*budget < 0 || !(dp = opendir(dir)))
		return -ENOENT;
	while (e && (d = readdir(dp))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		snprintf(sub, sizeof(sub), "%s/%s", rel, d->d_name);
		if (stat(path, &st))
			continue;
		if ((uint64_t)st.st_ino == id) {
			cg_copy(out, sub);
			e = 0;
		} else {
			e = cg_search(path, sub, id, depth - 1, budget, out);
		}
	}
	closedir(dp);
	return e;
}

/*
 * Fill the cgroup path of a proc record (the kernel gave only the id): the
 * path known for that id, else what /proc says of the task now, which is
 * then known for the id, else the hierarchy's directory of that id (a task
 * gone before the collector read its record: a short one on a busy
 * machine). Left "" if none.
 */
static void cg_fill(struct fsl_stream *s, struct fsl_ev_proc *p)
{
	struct cg_path *c = p->cgroup_id ? fsl_map__get(&s->cgroups, p->cgroup_id) : NULL;

	if (c) {
		memcpy(p->cgroup, c->path, sizeof(p->cgroup));
		return;
	}
	if (proc_cgroup(s, p->hdr.pid, p->hdr.tid, p->cgroup)) {
		const char *root = cg2_mount(s);
		int budget = 4096;

		if (!p->cgroup_id || !root ||
		    cg_search(root, "", p->cgroup_id, 8, &budget, p->cgroup))
			return;
		if ((c = fsl_map__put(&s->cgroups, p->cgroup_id, NULL)))
			memcpy(c->path, p->cgroup, sizeof(c->path));
		return;
	}
	if (!p->cgroup_id)
		p->cgroup_id = cg_id(s, p->cgroup);
	/* an id moved to since (or a failed stat) must not name it: check the id */
	if (p->cgroup_id && p->cgroup_id == cg_id(s, p->cgroup) &&
	    (c = fsl_map__put(&s->cgroups, p->cgroup_id, NULL)))
		memcpy(c->path, p->cgroup, sizeof(c->path));
}

static int push(struct fsl_stream *s, const struct fsl_hdr *ev)
{
	s->taken++;
	if (s->o.by_clock)	/* released by the caller's clock, or by the limit */
		return fsl_ordered__push_held(s->ord, ev, s->fn, s->fn_ctx);
	return fsl_ordered__push(s->ord, ev, s->fn, s->fn_ctx);
}

/*
 * Name a task on first sight (it existed before the start, or its fork was
 * not seen): 0, 1 if it is gone already, or what the push returned.
 */
static int task_seen(struct fsl_stream *s, const struct fsl_hdr *ev)
{
	struct fsl_ev_proc p;
	char path[320], buf[512], *open, *close;
	FILE *f;
	size_t n;
	int ppid = 0;

	memset(&p, 0, sizeof(p));
	snprintf(path, sizeof(path), "%s/%u/task/%u/stat", s->proc, ev->pid, ev->tid);
	f = fopen(path, "re");
	if (!f)
		return 1;	/* gone already: its later proc record (if any) names it */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* the comm may hold ')' and spaces: it ends at the last ')' */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return 0;
	snprintf(p.comm, sizeof(p.comm), "%.*s", (int)(close - open - 1), open + 1);
	sscanf(close + 1, " %*c %d", &ppid);
	p.hdr.ts = ev->ts;
	p.hdr.pid = ev->pid;
	p.hdr.tid = ev->tid;
	p.hdr.type = FSL_EV_PROC;
	p.hdr.size = sizeof(p);
	p.hdr.cpu = ev->cpu;
	p.ppid = ppid;
	p.kind = FSL_PROC_SEEN;
	/* kernel threads are children of kthreadd (pid 2) */
	p.flags = (ppid == 2 || ev->pid == 2) ? FSL_PROC_KTHREAD : 0;
	cg_fill(s, &p);
	return push(s, &p.hdr);
}

/*
 * A proc record (fork, exec, exit) of a task seen only after it was gone:
 * name it from its first sight on, with a SEEN record at that time.
 */
static int gone_name(struct fsl_stream *s, const struct fsl_ev_proc *p)
{
	struct fsl_hdr *first = fsl_map__get(&s->gone, p->hdr.tid);
	struct fsl_ev_proc q;

	if (!first || !p->comm[0])
		return 0;
	q = *p;
	q.hdr = *first;
	q.hdr.type = FSL_EV_PROC;
	q.hdr.size = sizeof(q);
	q.hdr._pad = 0;
	q.kind = FSL_PROC_SEEN;
	q.exit_code = 0;
	fsl_map__del(&s->gone, p->hdr.tid);
	s->named_late++;
	return push(s, &q.hdr);
}

static int name_task(struct fsl_stream *s, const struct fsl_hdr *ev)
{
	int fresh = 0, e;

	if (ev->type == FSL_EV_PROC) {
		if (!fsl_map__put(&s->tids, ev->tid, &fresh))
			return -ENOMEM;
		if (fsl_map__count(&s->gone) && ev->size >= sizeof(struct fsl_ev_proc))
			return gone_name(s, (const struct fsl_ev_proc *)ev);
		return 0;
	}
	if (!ev->tid || !s->o.name_tasks)
		return 0;
	if (fsl_map__count(&s->tids) >= TIDS_MAX) {
		fsl_map__free(&s->tids);
		fsl_map__init(&s->tids, 0);
	}
	if (!fsl_map__put(&s->tids, ev->tid, &fresh))
		return -ENOMEM;
	if (!fresh)
		return 0;
	e = task_seen(s, ev);
	if (e == 1 && fsl_map__count(&s->gone) >= GONE_MAX) {
		s->gone_full++;
		e = 0;
	} else if (e == 1) {
		struct fsl_hdr *first = fsl_map__put(&s->gone, ev->tid, &fresh);

		if (!first)
			return -ENOMEM;
		*first = *ev;
		e = 0;
	}
	return e;
}

/* Every record from the ring: name its task, note what to symbolize, order it. */
static int on_ring(void *ctx, const struct fsl_hdr *ev)
{
	struct fsl_stream *s = ctx;
	int fresh, e;

	e = name_task(s, ev);
	if (e)
		goto fail;
	if (ev->type == FSL_EV_PROC && ev->size >= sizeof(struct fsl_ev_proc) &&
	    !((const struct fsl_ev_proc *)ev)->cgroup[0]) {
		struct fsl_ev_proc q = *(const struct fsl_ev_proc *)ev;

		cg_fill(s, &q);
		e = push(s, &q.hdr);
		if (!e)
			return 0;
		goto fail;
	}
	if (ev->type == FSL_EV_OFFCPU || ev->type == FSL_EV_JBD2_KICK || ev->type == FSL_EV_CPU ||
	    ev->type == FSL_EV_EXT4_WRITEPAGES_RESULT) {
		int32_t sid = fsl_ev_stack_id(ev);
		uint32_t id = (uint32_t)sid;

		/* no stack taken (< 0): nothing to symbolize */
		if (sid >= 0 && (!fsl_map__put(&s->stacks, id, &fresh) ||
				 (fresh && keys_add(&s->new_stacks, id)))) {
			e = -ENOMEM;
			goto fail;
		}
	} else if (((ev->type == FSL_EV_EXT4_JOURNAL_START_INODE ||
		     ev->type == FSL_EV_EXT4_JOURNAL_START_SB) &&
		    ev->size >= sizeof(struct fsl_ev_ext4_journal_start)) ||
		   (ev->type == FSL_EV_JBD2_HANDLE_AGG &&
		    ev->size >= sizeof(struct fsl_ev_jbd2_handle_agg))) {
		uint64_t ip = ev->type == FSL_EV_JBD2_HANDLE_AGG ?
			      ((const struct fsl_ev_jbd2_handle_agg *)ev)->ip :
			      ((const struct fsl_ev_ext4_journal_start *)ev)->ip;

		if (!fsl_map__put(&s->ips, ip, &fresh) || (fresh && keys_add(&s->new_ips, ip))) {
			e = -ENOMEM;
			goto fail;
		}
	}
	e = push(s, ev);
	if (!e)
		return 0;
fail:
	/* a failure of the stream itself (not the caller's fn) is kept to return */
	if (e < 0 && !s->err)
		s->err = e;
	return e;
}

static int take(struct fsl_stream *s, int stop, int timeout_ms, fsl_event_fn fn, void *ctx)
{
	int n;

	s->fn = fn;
	s->fn_ctx = ctx;
	s->err = 0;
	if (stop)
		n = s->ops->stop ? s->ops->stop(s->ring, on_ring, s) : 0;
	else
		n = s->ops->poll(s->ring, timeout_ms, on_ring, s);
	s->fn = NULL;
	s->fn_ctx = NULL;
	return s->err && n < 0 ? s->err : n;
}

int fsl_stream__poll(struct fsl_stream *s, int timeout_ms, fsl_event_fn fn, void *ctx)
{
	return take(s, 0, timeout_ms, fn, ctx);
}

int fsl_stream__stop(struct fsl_stream *s, fsl_event_fn fn, void *ctx)
{
	return take(s, 1, 0, fn, ctx);
}

int fsl_stream__advance(struct fsl_stream *s, uint64_t now, fsl_event_fn fn, void *ctx)
{
	return fsl_ordered__advance(s->ord, now, fn, ctx);
}

int fsl_stream__flush(struct fsl_stream *s, fsl_event_fn fn, void *ctx)
{
	return fsl_ordered__flush(s->ord, fn, ctx);
}

size_t fsl_stream__pending(const struct fsl_stream *s)
{
	return fsl_ordered__pending(s->ord);
}

void fsl_stream__stats(const struct fsl_stream *s, struct fsl_stream_stats *st)
{
	unsigned int i;

	memset(st, 0, sizeof(*st));
	st->late = fsl_ordered__late(s->ord);
	st->forced = fsl_ordered__forced(s->ord);
	st->taken = s->taken;
	st->named_late = s->named_late;
	st->unnamed = fsl_map__count(&s->gone) + s->gone_full;
	st->lost_err = s->ops->lost ? s->ops->lost(s->ring, st->lost) : -EOPNOTSUPP;
	if (st->lost_err)
		memset(st->lost, 0, sizeof(st->lost));
	for (i = 0; i < FSL_FAM__MAX; i++)
		st->lost_total += st->lost[i];
}

int fsl_stream__fill(const struct fsl_stream *s, uint64_t *used, uint64_t *size)
{
	return s->ops->fill ? s->ops->fill(s->ring, used, size) : -EOPNOTSUPP;
}

int fsl_stream__comm(struct fsl_stream *s, uint32_t pid, char *buf, size_t len)
{
	char path[320];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%u/comm", s->proc, pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	return n ? 0 : -ENOENT;
}

/* ---- symbolization ---- */

const char *fsl_stream__sym(struct fsl_stream *s, uint64_t addr, char *buf, size_t len)
{
	if (ksyms_load(s))
		return NULL;
	return fsl_ksyms__name(s->ksyms, addr, buf, len);
}

/* The stack of id from the ring, symbolized (addresses where kallsyms cannot say). */
static struct fsl_stack *symbolize(struct fsl_stream *s, int32_t id)
{
	uint64_t ips[STACK_MAX];
	char name[512];
	struct fsl_stack *st;
	int n, j;

	n = s->ops->stack ? s->ops->stack(s->ring, id, ips, STACK_MAX) : -ENOENT;
	if (n <= 0)
		return NULL;
	ksyms_load(s);
	st = calloc(1, sizeof(*st));
	if (!st || !(st->frames = calloc(n, sizeof(char *)))) {
		free(st);
		return NULL;
	}
	st->id = id;
	for (j = 0; j < n; j++) {
		const char *f = s->ksyms ? fsl_ksyms__name(s->ksyms, ips[j], name, sizeof(name))
					 : NULL;

		if (!f) {
			snprintf(name, sizeof(name), "0x%llx", (unsigned long long)ips[j]);
			f = name;
		}
		/* the recorder's own frames (program, tracepoint glue) are not the wait */
		if (!st->nframes && fsl_frame_is_recorder(f))
			continue;
		st->frames[st->nframes] = strdup(f);
		if (!st->frames[st->nframes]) {
			stack_free(st);
			return NULL;
		}
		st->nframes++;
	}
	return st;
}

const struct fsl_stack *fsl_stream__stack(struct fsl_stream *s, int32_t id)
{
	struct fsl_stack **slot;
	int fresh;

	if (id < 0)
		return NULL;
	slot = fsl_map__put(&s->stacks, (uint32_t)id, &fresh);
	if (!slot)
		return NULL;
	if (!*slot)
		*slot = symbolize(s, id);	/* a miss is tried again next time */
	return *slot;
}

int fsl_stream__symbols(struct fsl_stream *s,
			int (*on_stack)(void *ctx, const struct fsl_stack *st),
			int (*on_sym)(void *ctx, uint64_t addr, const char *name),
			void *ctx, int *nstacks)
{
	struct keys *ks = &s->new_stacks;
	char name[512];
	size_t i, kept = 0;
	int e = 0;

	*nstacks = 0;
	e = ksyms_load(s);
	if (e)
		return e;	/* everything stays to give, should kallsyms come */
	for (i = 0; i < ks->n; i++) {
		struct fsl_stack **slot = fsl_map__get(&s->stacks, ks->k[i]);
		struct fsl_stack *st = NULL;

		if (!e && slot)
			st = *slot ? *slot : symbolize(s, (int32_t)(uint32_t)ks->k[i]);
		if (!st) {
			/* a miss (or not reached after a failure) is tried again next time */
			ks->k[kept++] = ks->k[i];
			continue;
		}
		e = on_stack(ctx, st);
		if (st != *slot)
			stack_free(st);	/* a recorder's stacks are written once */
		if (e)
			ks->k[kept++] = ks->k[i];
		else
			(*nstacks)++;
	}
	ks->n = kept;
	if (e)
		return e;
	ks = &s->new_ips;
	for (i = 0; i < ks->n; i++)
		if (fsl_ksyms__name(s->ksyms, ks->k[i], name, sizeof(name)) &&
		    (e = on_sym(ctx, ks->k[i], name)))
			break;
	/* those kallsyms cannot name never will be; a failed one is given again */
	memmove(ks->k, ks->k + i, (ks->n - i) * sizeof(*ks->k));
	ks->n -= i;
	return e;
}
