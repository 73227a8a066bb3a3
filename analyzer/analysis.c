// SPDX-License-Identifier: GPL-2.0
/*
 * The set of analyses behind `fslens report` and `fslens top`: one context
 * (tasks, window, metadata), one consumer per analysis, one feed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "an_internal.h"

struct fsl_analysis {
	struct an_ctx c;
	struct fsl_analysis_opts opts;
	struct an_stalls *stalls;
	struct an_ops *ops;
	struct an_data *data;
	struct an_journal *journal;
	struct an_writeback *writeback;
	struct an_blockio *blockio;
	struct an_layout *layout;
	struct an_health *health;
	struct fsl_consumer *cons[10];
	unsigned int ncons;
	/* per event type: the handlers to call, in consumer order (built once) */
	struct route {
		unsigned char n;
		struct fsl_consumer *c[10];
	} route[FSL_EV__MAX];
	struct fsl_consumer *any[10];
	unsigned int nany;
	struct fsl_consumer self;
	struct fsl_proc_stat *procs;
	size_t procs_cap;
	int begun;
	struct fsl_jbd2_info jinfo[2];	/* start, end */
	/*
	 * Waits and path operations are recorded at their start (ts) but count
	 * where they end (ts + duration). In a trace sorted by ts they arrive
	 * early; they wait here, ordered by end, until the stream passes their
	 * end (or a result is read), so that a window set by reset() while
	 * replaying gets the same items as one set up front. Holds what is in
	 * flight at the current time, no more.
	 */
	struct pending *pend;
	size_t npend, cap_pend;
};

static void build_routes(struct fsl_analysis *a);

struct pending {
	uint64_t end;
	struct fsl_hdr *ev;	/* a copy */
};

static uint64_t item_end(const struct fsl_hdr *ev)
{
	if (ev->type == FSL_EV_OFFCPU && ev->size >= sizeof(struct fsl_ev_offcpu))
		return ev->ts + ((const struct fsl_ev_offcpu *)ev)->dur_ns;
	if (ev->type == FSL_EV_DIROP && ev->size >= sizeof(struct fsl_ev_dirop))
		return ev->ts + ((const struct fsl_ev_dirop *)ev)->lat_ns;
	if (ev->type == FSL_EV_DATA && ev->size >= sizeof(struct fsl_ev_data))
		return ev->ts + ((const struct fsl_ev_data *)ev)->lat_ns;
	return ev->ts;
}

static void pend_swap(struct pending *a, struct pending *b)
{
	struct pending t = *a;

	*a = *b;
	*b = t;
}

static int pend_push(struct fsl_analysis *a, const struct fsl_hdr *ev, uint64_t end)
{
	size_t i;

	if (a->npend == a->cap_pend) {
		size_t cap = a->cap_pend ? a->cap_pend * 2 : 64;
		struct pending *n = realloc(a->pend, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		a->pend = n;
		a->cap_pend = cap;
	}
	i = a->npend++;
	a->pend[i].end = end;
	a->pend[i].ev = malloc(ev->size);
	if (!a->pend[i].ev) {
		a->npend--;
		return -ENOMEM;
	}
	memcpy(a->pend[i].ev, ev, ev->size);
	while (i && a->pend[(i - 1) / 2].end > a->pend[i].end) {
		pend_swap(&a->pend[(i - 1) / 2], &a->pend[i]);
		i = (i - 1) / 2;
	}
	return 0;
}

/* Pop the earliest-ending item (caller frees ->ev). */
static struct pending pend_pop(struct fsl_analysis *a)
{
	struct pending top = a->pend[0];
	size_t i = 0;

	a->pend[0] = a->pend[--a->npend];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < a->npend && a->pend[l].end < a->pend[m].end)
			m = l;
		if (r < a->npend && a->pend[r].end < a->pend[m].end)
			m = r;
		if (m == i)
			break;
		pend_swap(&a->pend[i], &a->pend[m]);
		i = m;
	}
	return top;
}

static const char *const section_names[] = {
	"diagnosis", "ops", "journal", "writeback", "blockio", "layout", "health",
};

const char *fsl_section_name(unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < sizeof(section_names) / sizeof(section_names[0]); i++)
		if (bit == 1u << i)
			return section_names[i];
	return "?";
}

int fsl_section_parse(const char *list, uint32_t *mask, const char **bad)
{
	static char badbuf[64];
	const char *p = list;

	*mask = 0;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		unsigned int i, found = 0;

		if (n == 3 && !strncmp(p, "all", 3)) {
			*mask |= FSL_SEC_ALL;
			found = 1;
		}
		for (i = 0; !found && i < sizeof(section_names) / sizeof(section_names[0]); i++)
			if (strlen(section_names[i]) == n && !strncmp(p, section_names[i], n)) {
				*mask |= 1u << i;
				found = 1;
			}
		/* Aliases users type. */
		if (!found && ((n == 6 && !strncmp(p, "stalls", 6)) || (n == 6 && !strncmp(p, "causes", 6)))) {
			*mask |= FSL_SEC_DIAGNOSIS;
			found = 1;
		}
		if (!found && n == 5 && !strncmp(p, "trace", 5)) {
			*mask |= FSL_SEC_HEALTH;
			found = 1;
		}
		if (!found && n > 0) {
			snprintf(badbuf, sizeof(badbuf), "%.*s", (int)(n < 60 ? n : 60), p);
			if (bad)
				*bad = badbuf;
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*mask) {
		if (bad)
			*bad = "";
		return -EINVAL;
	}
	return 0;
}

struct fsl_proc_stat *an_proc(struct an_ctx *c, uint32_t pid)
{
	int fresh;
	struct fsl_proc_stat *p = fsl_map__put(&c->procs, pid, &fresh);

	if (p && fresh) {
		p->pid = pid;
		p->role = an_tasks_role(&c->tasks, pid, 0);
		an_comm_copy(p->comm, an_tasks_comm(&c->tasks, pid));
	}
	return p;
}

static int self_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	return fsl_analysis__begin(cons->priv, m);
}

static int self_any(struct fsl_consumer *cons, const struct fsl_hdr *ev)
{
	return fsl_analysis__feed(cons->priv, ev);
}

struct fsl_analysis *fsl_analysis__new(const struct fsl_analysis_opts *opts, int *err)
{
	struct fsl_analysis *a = calloc(1, sizeof(*a));
	uint32_t sec;

	if (!a)
		goto nomem;
	if (opts)
		a->opts = *opts;
	else
		a->opts.root_pid = -1;
	sec = a->opts.sections ? a->opts.sections : FSL_SEC_ALL;
	a->opts.sections = sec;
	an_tasks_init(&a->c.tasks);
	fsl_map__init(&a->c.procs, sizeof(struct fsl_proc_stat));
	a->c.win.t0 = a->opts.t0;
	a->c.win.t1 = a->opts.t1;
	a->c.origin = a->opts.t0;
	a->c.hz = 250;
	a->c.target_dev = a->opts.dev;
	a->c.tasks.root_pid = a->opts.root_pid > 0 ? a->opts.root_pid : 0;

	/* The task table is fed by stalls, so it comes first and always runs. */
	if (!(a->stalls = an_stalls_new(&a->c)))
		goto nomem;
	a->c.stalls = a->stalls;
	a->cons[a->ncons++] = an_stalls_consumer(a->stalls);
	if (sec & (FSL_SEC_OPS | FSL_SEC_DIAGNOSIS)) {
		if (!(a->ops = an_ops_new(&a->c)))
			goto nomem;
		a->cons[a->ncons++] = an_ops_consumer(a->ops);
		if (!(a->data = an_data_new(&a->c)))
			goto nomem;
		a->cons[a->ncons++] = an_data_consumer(a->data);
	}
	if (sec & (FSL_SEC_JOURNAL | FSL_SEC_DIAGNOSIS)) {
		if (!(a->journal = an_journal_new(&a->c)))
			goto nomem;
		a->cons[a->ncons++] = an_journal_consumer(a->journal);
	}
	if (sec & (FSL_SEC_WRITEBACK | FSL_SEC_DIAGNOSIS)) {
		if (!(a->writeback = an_writeback_new(&a->c)))
			goto nomem;
		a->cons[a->ncons++] = an_writeback_consumer(a->writeback);
	}
	if (sec & (FSL_SEC_BLOCKIO | FSL_SEC_DIAGNOSIS)) {
		if (!(a->blockio = an_blockio_new(&a->c)))
			goto nomem;
		a->cons[a->ncons++] = an_blockio_consumer(a->blockio);
	}
	if (sec & FSL_SEC_LAYOUT) {
		if (!(a->layout = an_layout_new(&a->c)))
			goto nomem;
		a->cons[a->ncons++] = an_layout_consumer(a->layout);
	}
	if (!(a->health = an_health_new(&a->c)))
		goto nomem;
	a->cons[a->ncons++] = an_health_consumer(a->health);

	build_routes(a);
	a->self.name = "analysis";
	a->self.priv = a;
	a->self.begin = self_begin;
	a->self.any = self_any;
	return a;
nomem:
	fsl_analysis__free(a);
	if (err)
		*err = -ENOMEM;
	return NULL;
}

void fsl_analysis__free(struct fsl_analysis *a)
{
	if (!a)
		return;
	an_stalls_free(a->stalls);
	an_ops_free(a->ops);
	an_data_free(a->data);
	an_journal_free(a->journal);
	an_writeback_free(a->writeback);
	an_blockio_free(a->blockio);
	an_layout_free(a->layout);
	an_health_free(a->health);
	an_tasks_free(&a->c.tasks);
	fsl_map__free(&a->c.procs);
	free(a->procs);
	while (a->npend)
		free(pend_pop(a).ev);
	free(a->pend);
	free(a);
}

int fsl_analysis__begin(struct fsl_analysis *a, const struct fsl_meta *m)
{
	unsigned int i;
	int err;

	a->c.meta = m;
	a->c.hz = fsl_meta__u64(m, FSL_KV_HZ, 250);
	if (!a->c.hz)
		a->c.hz = 250;
	if (!a->c.target_dev)
		a->c.target_dev = fsl_meta__u64(m, FSL_KV_DEV, 0);
	if (a->opts.root_pid < 0)
		a->c.tasks.root_pid = fsl_meta__u64(m, FSL_KV_ROOT_PID, 0);
	if (!a->c.origin)
		a->c.origin = fsl_meta__u64(m, FSL_KV_START_NS, 0);
	a->c.mount = fsl_meta__mount(m, &a->c.mount_len);
	fsl_meta__jbd2_info(m, FSL_JBD2_START, &a->jinfo[0]);
	fsl_meta__jbd2_info(m, FSL_JBD2_END, &a->jinfo[1]);
	for (i = 0; i < a->ncons; i++)
		if (a->cons[i]->begin && (err = a->cons[i]->begin(a->cons[i], m)) < 0)
			return err;
	a->begun = 1;
	return 0;
}

static void build_routes(struct fsl_analysis *a)
{
	unsigned int i, t;

	memset(a->route, 0, sizeof(a->route));
	a->nany = 0;
	for (i = 0; i < a->ncons; i++) {
		for (t = 0; t < FSL_EV__MAX; t++)
			if (a->cons[i]->handlers[t])
				a->route[t].c[a->route[t].n++] = a->cons[i];
		if (a->cons[i]->any)
			a->any[a->nany++] = a->cons[i];
	}
}

/* Handlers of the event's type (consumer order), then every any(). */
static int dispatch(struct fsl_analysis *a, const struct fsl_hdr *ev)
{
	unsigned int i;
	int err;

	if (ev->type < FSL_EV__MAX) {
		const struct route *r = &a->route[ev->type];

		for (i = 0; i < r->n; i++)
			if ((err = r->c[i]->handlers[ev->type](r->c[i], ev)) < 0)
				return err;
	}
	for (i = 0; i < a->nany; i++)
		if ((err = a->any[i]->any(a->any[i], ev)) < 0)
			return err;
	return 0;
}

/* Apply the held items that end before `until` (all of them: UINT64_MAX). */
static int release(struct fsl_analysis *a, uint64_t until)
{
	int err = 0;

	while (a->npend && a->pend[0].end < until) {
		struct pending p = pend_pop(a);

		if (!err)
			err = dispatch(a, p.ev);
		free(p.ev);
	}
	return err;
}

int fsl_analysis__feed(struct fsl_analysis *a, const struct fsl_hdr *ev)
{
	uint64_t end;
	int err;

	if (!a->c.origin)
		a->c.origin = ev->ts;
	if (ev->ts > a->c.now)
		a->c.now = ev->ts;
	if (a->npend && (err = release(a, ev->ts + 1)) < 0)
		return err;
	end = a->opts.hold ? item_end(ev) : ev->ts;
	if (end > ev->ts) {
		/* the journal needs to know a wait began (see journal.c) */
		if (ev->type == FSL_EV_OFFCPU)
			an_stalls_note_start(a->stalls, ev);
		return pend_push(a, ev, end);
	}
	if (ev->type == FSL_EV_OFFCPU)
		an_stalls_note_start(a->stalls, ev);
	return dispatch(a, ev);
}

struct fsl_consumer *fsl_analysis__consumer(struct fsl_analysis *a)
{
	return &a->self;
}

void fsl_analysis__reset(struct fsl_analysis *a, uint64_t t0, uint64_t t1)
{
	/* What ends before the new window belongs to the old one. */
	release(a, t0);
	a->c.win.t0 = t0;
	a->c.win.t1 = t1;
	a->c.origin = t0;
	fsl_map__clear(&a->c.procs);
	a->c.waits_without_stack = 0;
	an_stalls_reset(a->stalls);
	if (a->ops)
		an_ops_reset(a->ops);
	if (a->data)
		an_data_reset(a->data);
	if (a->journal)
		an_journal_reset(a->journal);
	if (a->writeback)
		an_writeback_reset(a->writeback);
	if (a->blockio)
		an_blockio_reset(a->blockio);
	if (a->layout)
		an_layout_reset(a->layout);
	an_health_reset(a->health);
}

void fsl_analysis__window(const struct fsl_analysis *a, uint64_t *t0, uint64_t *t1)
{
	*t0 = a->c.win.t0;
	*t1 = a->c.win.t1;
}

uint64_t fsl_analysis__now(const struct fsl_analysis *a)
{
	return a->c.now;
}

const struct fsl_meta *fsl_analysis__meta(const struct fsl_analysis *a)
{
	return a->c.meta;
}

const struct fsl_stalls *fsl_analysis__stalls(struct fsl_analysis *a)
{
	release(a, UINT64_MAX);
	struct fsl_stalls *s = (struct fsl_stalls *)an_stalls_result(a->stalls);

	s->min_wait_ns = fsl_meta__u64(a->c.meta, FSL_KV_MIN_WAIT_US, 0) * 1000;
	return s;
}

const struct fsl_ops *fsl_analysis__ops(struct fsl_analysis *a)
{
	release(a, UINT64_MAX);
	return a->ops && (a->opts.sections & FSL_SEC_OPS) ? an_ops_result(a->ops) : NULL;
}

const struct fsl_data *fsl_analysis__data(struct fsl_analysis *a)
{
	release(a, UINT64_MAX);
	return a->data && (a->opts.sections & FSL_SEC_OPS) ? an_data_result(a->data) : NULL;
}

const struct fsl_journal *fsl_analysis__journal(struct fsl_analysis *a)
{
	return a->journal && (a->opts.sections & FSL_SEC_JOURNAL) ? an_journal_result(a->journal) : NULL;
}

const struct fsl_writeback *fsl_analysis__writeback(struct fsl_analysis *a)
{
	return a->writeback && (a->opts.sections & FSL_SEC_WRITEBACK) ?
		an_writeback_result(a->writeback) : NULL;
}

const struct fsl_blockio *fsl_analysis__blockio(struct fsl_analysis *a)
{
	return a->blockio && (a->opts.sections & FSL_SEC_BLOCKIO) ? an_blockio_result(a->blockio) : NULL;
}

const struct fsl_layout *fsl_analysis__layout(struct fsl_analysis *a)
{
	return a->layout ? an_layout_result(a->layout) : NULL;
}

const struct fsl_health *fsl_analysis__health(struct fsl_analysis *a)
{
	return an_health_result(a->health);
}


const struct fsl_ops *an_analysis_ops(struct fsl_analysis *a)
{
	release(a, UINT64_MAX);
	return a->ops ? an_ops_result(a->ops) : NULL;
}

const struct fsl_journal *an_analysis_journal(struct fsl_analysis *a)
{
	return a->journal ? an_journal_result(a->journal) : NULL;
}

const struct fsl_writeback *an_analysis_writeback(struct fsl_analysis *a)
{
	return a->writeback ? an_writeback_result(a->writeback) : NULL;
}

const struct fsl_blockio *an_analysis_blockio(struct fsl_analysis *a)
{
	return a->blockio ? an_blockio_result(a->blockio) : NULL;
}

const struct an_ctx *an_analysis_ctx(struct fsl_analysis *a)
{
	return &a->c;
}

static int proc_cmp(const void *x, const void *y)
{
	const struct fsl_proc_stat *a = x, *b = y;

	if (a->blocked_ns != b->blocked_ns)
		return a->blocked_ns < b->blocked_ns ? 1 : -1;
	if (a->ops != b->ops)
		return a->ops < b->ops ? 1 : -1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

unsigned int fsl_analysis__procs(struct fsl_analysis *a, const struct fsl_proc_stat **out)
{
	struct fsl_proc_stat *p;
	size_t it = 0, n = 0;

	release(a, UINT64_MAX);
	if (a->procs_cap < a->c.procs.n) {
		struct fsl_proc_stat *np = realloc(a->procs, a->c.procs.n * sizeof(*np));

		if (!np) {
			*out = NULL;
			return 0;
		}
		a->procs = np;
		a->procs_cap = a->c.procs.n;
	}
	while ((p = fsl_map__next(&a->c.procs, &it, NULL))) {
		/* the current name: exec and comm changes come after the first event */
		const char *comm = an_tasks_comm(&a->c.tasks, p->pid);

		if (comm)
			an_comm_copy(p->comm, comm);
		a->procs[n++] = *p;
	}
	if (n)
		qsort(a->procs, n, sizeof(*a->procs), proc_cmp);
	*out = a->procs;
	return n;
}

const struct fsl_jbd2_info *fsl_analysis__jbd2_start(const struct fsl_analysis *a)
{
	return a->jinfo[0].valid ? &a->jinfo[0] : NULL;
}

const struct fsl_jbd2_info *fsl_analysis__jbd2_end(const struct fsl_analysis *a)
{
	return a->jinfo[1].valid ? &a->jinfo[1] : NULL;
}
