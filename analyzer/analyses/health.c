// SPDX-License-Identifier: GPL-2.0
/*
 * Trace health: events per family, lost events, the recording threshold,
 * probe mode and what the kernel lacked, so a report never hides a hole.
 */
#include <stdlib.h>
#include <string.h>
#include "analyses.h"
#include "fslens/schema.h"

struct an_health {
	struct fsl_consumer cons;
	struct an_ctx *c;
	int8_t fam[FSL_EV__MAX];	/* family of each known type, -1 unknown */
	struct fsl_health res;
};

static int on_any(struct fsl_consumer *cons, const struct fsl_hdr *h)
{
	struct an_health *s = cons->priv;
	const struct fsl_evctx *x = cons->ctx;

	/* a stall whose stack the trace lacks, counted where it ends, as its wait is */
	if (x && (x->flags & FSL_EVCTX_STALL) && (x->flags & FSL_EVCTX_NOSTACK) &&
	    an_in_window(&s->c->win, x->end))
		s->res.unknown_stacks++;
	if (!an_in_window(&s->c->win, h->ts))
		return 0;
	if (!s->res.first_ts || h->ts < s->res.first_ts)
		s->res.first_ts = h->ts;
	if (h->ts > s->res.last_ts)
		s->res.last_ts = h->ts;
	if (h->type >= FSL_EV__MAX || s->fam[h->type] < 0) {
		s->res.unknown_events++;
		return 0;
	}
	s->res.events[s->fam[h->type]]++;
	return 0;
}

struct an_health *an_health_new(struct an_ctx *c)
{
	struct an_health *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s)
		return NULL;
	s->c = c;
	for (i = 0; i < FSL_EV__MAX; i++) {
		const struct fsl_event_desc *d = fsl_schema_builtin(i);

		s->fam[i] = d ? d->family : -1;
	}
	s->cons.name = "health";
	s->cons.priv = s;
	s->cons.any = on_any;
	return s;
}

void an_health_free(struct an_health *s)
{
	free(s);
}

void an_health_reset(struct an_health *s)
{
	memset(&s->res, 0, sizeof(s->res));
}

struct fsl_consumer *an_health_consumer(struct an_health *s)
{
	return &s->cons;
}

/* What record.families and the target say of the families (struct fsl_health). */
static void families_of(const struct fsl_meta *m, struct fsl_health *h)
{
	const char *fams = fsl_meta_kv(m, FSL_KV_FAMILIES), *fstype = fsl_meta_kv(m, FSL_KV_FSTYPE);
	const char *bad = NULL;
	uint32_t rec = 0;
	uint64_t dev;

	h->fam_recorded = h->fam_no_disk = h->fam_no_fs = 0;
	/* "" is a valid answer (nothing recorded), a list must parse whole */
	if (!fams || (fams[0] && fsl_family_parse(fams, &rec, &bad)))
		return;
	h->fam_recorded = rec;
	if (fsl_meta__get_u64(m, FSL_KV_DEV, &dev))
		return;		/* no target: every family applies */
	if (!fsl_meta__u64(m, FSL_KV_DISK, 0))
		h->fam_no_disk = ((1u << FSL_FAM_BLOCK) | (1u << FSL_FAM_WRITEBACK)) & ~rec;
	if (fstype && strcmp(fstype, "ext4") && strcmp(fstype, "xfs"))
		h->fam_no_fs = ((1u << FSL_FAM_JOURNAL) | (1u << FSL_FAM_ALLOC)) & ~rec;
}

const struct fsl_health *an_health_result(struct an_health *s)
{
	const struct fsl_meta *m = s->c->meta;
	const struct fsl_trace_stats *st = m && m->stats ? m->stats(m) : NULL;

	/* Lost events are only known per trace (footer) or per live session. */
	if (st)
		memcpy(s->res.lost, st->counts.lost, sizeof(s->res.lost));
	s->res.min_wait_us = fsl_meta__u64(m, FSL_KV_MIN_WAIT_US, 0);
	s->res.probe_mode = fsl_meta_kv(m, FSL_KV_PROBE_MODE);
	s->res.missing = fsl_meta_kv(m, FSL_KV_MISSING_TP);
	s->res.loss_advice = fsl_meta_kv(m, FSL_KV_LOSS_ADVICE);
	s->res.lost_behind = fsl_meta__u64(m, FSL_KV_LOST_BEHIND, 0);
	s->res.lost_burst = fsl_meta__u64(m, FSL_KV_LOST_BURST, 0);
	families_of(m, &s->res);
	return &s->res;
}
