// SPDX-License-Identifier: GPL-2.0
/* One pass over an event stream, dispatched to consumers (include/fslens/session.h). */
#include <errno.h>
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

/*
 * begin() of every consumer, then every event, then end() of every consumer
 * whose begin() succeeded (also after an error, so they can free what they
 * hold). Returns the first error.
 */
int fsl_session_run(struct fsl_reader *r, struct fsl_consumer **cons, unsigned int n)
{
	struct fsl_meta m;
	const struct fsl_hdr *ev;
	unsigned int i, begun = 0;
	int err = 0, e;

	fsl_meta_from_reader(&m, r);
	for (i = 0; i < n && !err; i++) {
		if (cons[i]->begin)
			err = cons[i]->begin(cons[i], &m);
		if (!err)
			begun++;
	}
	while (!err) {
		e = fsl_reader__next(r, &ev);
		if (e <= 0) {
			err = e;
			break;
		}
		err = fsl_session_dispatch(cons, n, ev);
	}
	for (i = 0; i < begun; i++) {
		if (!cons[i]->end)
			continue;
		e = cons[i]->end(cons[i], &m);
		if (e < 0 && !err)
			err = e;
	}
	return err;
}
