// SPDX-License-Identifier: GPL-2.0
/*
 * The set of analyses behind `fslens report` and `fslens top`: one window
 * and metadata (struct an_ctx), the context stage they share, and one
 * session consumer per analysis; the session dispatches, no second loop.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "an_set.h"
#include "analyses/analyses.h"
#include "fslens/indmap.h"

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
	struct an_wholetime *wholetime;
	struct an_xfslayout *xfslayout;
	struct an_indmap *indmap;
	struct an_cpu *cpu;
	struct an_contents *contents;
	struct an_allocstat *allocstat;
	/* set (the metadata at begin) first, then one consumer per analysis */
	struct fsl_consumer set;
	struct fsl_consumer *cons[16];
	unsigned int ncons;
	struct fsl_context *own_cx;	/* opts.context NULL: the set's own */
	struct fsl_session *own;	/* the session behind fsl_analysis__feed() */
	struct fsl_session *sess;	/* the session it is attached to */
	struct fsl_jbd2_info jinfo[2];	/* start, end */
};

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

void an_oncpu_add(struct an_ctx *c, const char *cls, uint64_t ns)
{
	struct an_oncpu_split *s = &c->oncpu;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strncmp(s->cls[i].id, cls, sizeof(s->cls[i].id) - 1))
			break;
	if (i == s->n) {
		if (s->n < FSL_WT_CPU_CLASSES)
			snprintf(s->cls[s->n++].id, sizeof(s->cls[0].id), "%s", cls);
		else
			i = FSL_WT_CPU_CLASSES - 1;	/* the last row takes the rest */
	}
	s->cls[i].ns += ns;
	s->sampled_ns += ns;
}

/* The set's own consumer, first on the session: metadata, origin, clock. */
static int set_begin(struct fsl_consumer *cons, const struct fsl_meta *m)
{
	struct fsl_analysis *a = cons->priv;

	a->c.meta = m;
	a->c.hz = fsl_meta__u64(m, FSL_KV_HZ, 250);
	if (!a->c.hz)
		a->c.hz = 250;
	if (!a->c.target_dev)
		a->c.target_dev = fsl_meta__u64(m, FSL_KV_DEV, 0);
	if (!a->c.origin)
		a->c.origin = fsl_meta__u64(m, FSL_KV_START_NS, 0);
	/* a trace without the recording's start: its first event */
	if (!a->c.origin && m->stats && m->stats(m))
		a->c.origin = m->stats(m)->first_ts;
	a->c.mount = fsl_meta__mount(m, &a->c.mount_len);
	fsl_meta__jbd2_info(m, FSL_JBD2_START, &a->jinfo[0]);
	fsl_meta__jbd2_info(m, FSL_JBD2_END, &a->jinfo[1]);
	return 0;
}


int an_analysis_attach_order(struct fsl_analysis *a, struct fsl_session *s, int reverse)
{
	unsigned int i;
	int err = fsl_session__add(s, &a->set);

	a->sess = s;

	for (i = 0; i < a->ncons && !err; i++)
		err = fsl_session__add(s, a->cons[reverse ? a->ncons - 1 - i : i]);
	return err;
}

int fsl_analysis__attach(struct fsl_analysis *a, struct fsl_session *s)
{
	return an_analysis_attach_order(a, s, 0);
}

struct fsl_analysis *fsl_analysis__new(const struct fsl_analysis_opts *opts, int *err)
{
	struct fsl_analysis *a = calloc(1, sizeof(*a));
	uint32_t sec;
	int e = -ENOMEM;

	if (!a)
		goto fail;
	if (opts)
		a->opts = *opts;
	else
		a->opts.root_pid = -1;
	sec = a->opts.sections ? a->opts.sections : FSL_SEC_ALL;
	a->opts.sections = sec;
	a->c.win.t0 = a->opts.t0;
	a->c.win.t1 = a->opts.t1;
	a->c.origin = a->opts.t0;
	a->c.hz = 250;
	a->c.target_dev = a->opts.dev;
	a->c.cx = a->opts.context;
	if (!a->c.cx && !(a->c.cx = a->own_cx = fsl_context__new(a->opts.root_pid, &e)))
		goto fail;
	fsl_ctx_procs__init(&a->c.procs, a->c.cx);
	a->c.procs.max = a->opts.max_procs;
	/* the process table is the diagnosis's, the operations' and block I/O's */
	a->c.procs.off = !(sec & (FSL_SEC_DIAGNOSIS | FSL_SEC_OPS | FSL_SEC_BLOCKIO));

	a->set.name = "analysis";
	a->set.priv = a;
	a->set.begin = set_begin;
	if (!(a->stalls = an_stalls_new(&a->c)))
		goto fail;
	a->cons[a->ncons++] = an_stalls_consumer(a->stalls);
	if (sec & (FSL_SEC_OPS | FSL_SEC_DIAGNOSIS)) {
		if (!(a->ops = an_ops_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_ops_consumer(a->ops);
		if (!(a->data = an_data_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_data_consumer(a->data);
	}
	if (sec & (FSL_SEC_JOURNAL | FSL_SEC_DIAGNOSIS)) {
		if (!(a->journal = an_journal_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_journal_consumer(a->journal);
	}
	if (sec & (FSL_SEC_WRITEBACK | FSL_SEC_DIAGNOSIS)) {
		if (!(a->writeback = an_writeback_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_writeback_consumer(a->writeback);
	}
	if (sec & (FSL_SEC_BLOCKIO | FSL_SEC_DIAGNOSIS)) {
		if (!(a->blockio = an_blockio_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_blockio_consumer(a->blockio);
	}
	if (sec & (FSL_SEC_JOURNAL | FSL_SEC_BLOCKIO)) {
		if (!(a->contents = an_contents_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_contents_consumer(a->contents);
	}
	if (sec & (FSL_SEC_LAYOUT | FSL_SEC_OPS)) {
		if (!(a->allocstat = an_allocstat_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_allocstat_consumer(a->allocstat);
	}
	if (sec & FSL_SEC_LAYOUT) {
		if (!(a->layout = an_layout_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_layout_consumer(a->layout);
		if (!(a->indmap = an_indmap_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_indmap_consumer(a->indmap);
	}
	/* XFS's layout and reads' own seeks: with either of the sections it reports into */
	if (sec & (FSL_SEC_LAYOUT | FSL_SEC_BLOCKIO)) {
		if (!(a->xfslayout = an_xfslayout_new(&a->c)))
			goto fail;
		a->cons[a->ncons++] = an_xfslayout_consumer(a->xfslayout);
	}
	if (!(a->health = an_health_new(&a->c)))
		goto fail;
	a->cons[a->ncons++] = an_health_consumer(a->health);
	if (!(a->wholetime = an_wholetime_new(&a->c)))
		goto fail;
	a->cons[a->ncons++] = an_wholetime_consumer(a->wholetime);
	if (!(a->cpu = an_cpu_new(&a->c)))
		goto fail;
	a->cons[a->ncons++] = an_cpu_consumer(a->cpu);

	/* Fed event by event (tests, benches): a session of its own. */
	if (!a->opts.context) {
		struct fsl_session_opts so = { .split = a->opts.hold,
					       .stage = fsl_context__stage(a->own_cx) };

		if (!(a->own = fsl_session__new(&so, &e)) || (e = fsl_analysis__attach(a, a->own)))
			goto fail;
	}
	return a;
fail:
	fsl_analysis__free(a);
	if (err)
		*err = e;
	return NULL;
}

void fsl_analysis__free(struct fsl_analysis *a)
{
	if (!a)
		return;
	fsl_session__free(a->own);
	an_stalls_free(a->stalls);
	an_ops_free(a->ops);
	an_data_free(a->data);
	an_journal_free(a->journal);
	an_writeback_free(a->writeback);
	an_blockio_free(a->blockio);
	an_layout_free(a->layout);
	an_xfslayout_free(a->xfslayout);
	an_indmap_free(a->indmap);
	an_health_free(a->health);
	an_wholetime_free(a->wholetime);
	an_cpu_free(a->cpu);
	fsl_ctx_procs__free(&a->c.procs);
	an_contents_free(a->contents);
	an_allocstat_free(a->allocstat);
	fsl_context__free(a->own_cx);
	free(a);
}

int fsl_analysis__begin(struct fsl_analysis *a, const struct fsl_meta *m)
{
	/* on a shared session, its begin (or the attach, once begun) does this */
	return a->own ? fsl_session__begin(a->own, m) : 0;
}

int fsl_analysis__feed(struct fsl_analysis *a, const struct fsl_hdr *ev)
{
	return a->own ? fsl_session__push(a->own, ev) : -EINVAL;
}

/*
 * Results are read. Stepping (opts.hold), the waits in flight give their
 * part up to the window's end (or the newest event): a cut, so the next
 * window still gets the rest.
 */
static void release(struct fsl_analysis *a)
{
	if (!a->own)
		return;
	if (a->opts.hold)
		fsl_session__cut(a->own, a->c.win.t1 ? a->c.win.t1 : fsl_session__now(a->own));
	else
		fsl_session__flush(a->own);
}

void fsl_analysis__reset(struct fsl_analysis *a, uint64_t t0, uint64_t t1)
{
	/* What ends before the new window belongs to the old one; spans in
	 * flight give it their part up to t0 (on a shared session, its owner
	 * cuts before resetting). */
	if (a->own)
		fsl_session__cut(a->own, t0);
	a->c.win.t0 = t0;
	a->c.win.t1 = t1;
	a->c.origin = t0;
	fsl_ctx_procs__clear(&a->c.procs);
	memset(&a->c.oncpu, 0, sizeof(a->c.oncpu));
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
	if (a->xfslayout)
		an_xfslayout_reset(a->xfslayout);
	if (a->indmap)
		an_indmap_reset(a->indmap);
	an_health_reset(a->health);
	an_wholetime_reset(a->wholetime);
	an_cpu_reset(a->cpu);
	if (a->contents)
		an_contents_reset(a->contents);
	if (a->allocstat)
		an_allocstat_reset(a->allocstat);
}

void fsl_analysis__window(const struct fsl_analysis *a, uint64_t *t0, uint64_t *t1)
{
	*t0 = a->c.win.t0;
	*t1 = a->c.win.t1;
}

uint64_t fsl_analysis__now(const struct fsl_analysis *a)
{
	return a->sess ? fsl_session__now(a->sess) : 0;
}

const struct fsl_meta *fsl_analysis__meta(const struct fsl_analysis *a)
{
	return a->c.meta;
}

const struct fsl_stalls *fsl_analysis__stalls(struct fsl_analysis *a)
{
	release(a);
	struct fsl_stalls *s = (struct fsl_stalls *)an_stalls_result(a->stalls);

	s->min_wait_ns = fsl_meta__u64(a->c.meta, FSL_KV_MIN_WAIT_US, 0) * 1000;
	return s;
}

int32_t fsl_analysis__proc_stack(struct fsl_analysis *a, uint32_t pid, unsigned int cls,
				 uint64_t *ns)
{
	release(a);
	return an_stalls_proc_stack(a->stalls, pid, cls, ns);
}

const struct fsl_wholetime *fsl_analysis__wholetime(struct fsl_analysis *a)
{
	release(a);
	return an_wholetime_result(a->wholetime);
}

const struct fsl_cpu *fsl_analysis__cpu(struct fsl_analysis *a)
{
	release(a);
	return an_cpu_result(a->cpu);
}

const struct fsl_ops *fsl_analysis__ops(struct fsl_analysis *a)
{
	release(a);
	return a->ops && (a->opts.sections & FSL_SEC_OPS) ? an_ops_result(a->ops) : NULL;
}

const struct fsl_data *fsl_analysis__data(struct fsl_analysis *a)
{
	release(a);
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

const struct fsl_allocstat *fsl_analysis__allocstat(struct fsl_analysis *a)
{
	return a->allocstat ? an_allocstat_result(a->allocstat) : NULL;
}

const struct fsl_contents *fsl_analysis__contents(struct fsl_analysis *a)
{
	return a->contents ? an_contents_result(a->contents) : NULL;
}

const struct fsl_layout *fsl_analysis__layout(struct fsl_analysis *a)
{
	return a->layout ? an_layout_result(a->layout) : NULL;
}

unsigned int fsl_analysis__ind_breaks(struct fsl_analysis *a, const struct fsl_ind_break **out,
				      uint64_t *files)
{
	*out = NULL;
	if (files)
		*files = 0;
	return a->indmap ? an_indmap_breaks(a->indmap, out, files) : 0;
}

const struct fsl_xfslayout *fsl_analysis__xfslayout(struct fsl_analysis *a)
{
	return a->xfslayout ? an_xfslayout_result(a->xfslayout) : NULL;
}

const struct fsl_health *fsl_analysis__health(struct fsl_analysis *a)
{
	return an_health_result(a->health);
}


const struct fsl_ops *an_analysis_ops(struct fsl_analysis *a)
{
	release(a);
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
	a->c.now = fsl_analysis__now(a);
	return &a->c;
}

unsigned int fsl_analysis__procs(struct fsl_analysis *a, const struct fsl_proc_stat **out)
{
	release(a);
	return fsl_ctx_procs__sorted(&a->c.procs, out);
}

uint64_t fsl_analysis__procs_evicted(const struct fsl_analysis *a)
{
	return a->c.procs.evicted;
}

const struct fsl_jbd2_info *fsl_analysis__jbd2_start(const struct fsl_analysis *a)
{
	return a->jinfo[0].valid ? &a->jinfo[0] : NULL;
}

const struct fsl_jbd2_info *fsl_analysis__jbd2_end(const struct fsl_analysis *a)
{
	return a->jinfo[1].valid ? &a->jinfo[1] : NULL;
}
