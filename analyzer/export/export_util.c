// SPDX-License-Identifier: GPL-2.0
/* Helpers the exporters share: task names, JSON and CSV quoting, frame names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"

struct comm_ent {
	uint32_t tid;
	char comm[16];
};

struct fsl_comms {
	struct comm_ent *tab;
	size_t cap, n;
};

struct fsl_comms *fsl_comms__new(void)
{
	return calloc(1, sizeof(struct fsl_comms));
}

void fsl_comms__free(struct fsl_comms *c)
{
	if (!c)
		return;
	free(c->tab);
	free(c);
}

static size_t slot(uint32_t tid, size_t cap)
{
	return (size_t)(tid * 2654435761u) & (cap - 1);
}

static int grow(struct fsl_comms *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 1024, i, j;
	struct comm_ent *nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (i = 0; i < c->cap; i++) {
		if (!c->tab[i].tid)
			continue;
		for (j = slot(c->tab[i].tid, ncap); nt[j].tid; j = (j + 1) & (ncap - 1))
			;
		nt[j] = c->tab[i];
	}
	free(c->tab);
	c->tab = nt;
	c->cap = ncap;
	return 0;
}

int fsl_comms__event(struct fsl_comms *c, const struct fsl_hdr *ev)
{
	const struct fsl_ev_proc *p = (const void *)ev;
	uint32_t tid;
	size_t j;

	if (ev->type != FSL_EV_PROC || ev->size < sizeof(*p))
		return 0;
	tid = ev->tid ? ev->tid : ev->pid;
	if (!tid || !p->comm[0])
		return 0;
	if ((c->n + 1) * 2 > c->cap && grow(c))
		return -ENOMEM;
	j = slot(tid, c->cap);
	while (c->tab[j].tid && c->tab[j].tid != tid)
		j = (j + 1) & (c->cap - 1);
	if (!c->tab[j].tid)
		c->n++;
	c->tab[j].tid = tid;
	memcpy(c->tab[j].comm, p->comm, 15);
	c->tab[j].comm[15] = 0;
	return 0;
}

const char *fsl_comms__get(const struct fsl_comms *c, uint32_t tid)
{
	size_t j;

	if (!c || !c->cap || !tid)
		return NULL;
	for (j = slot(tid, c->cap); c->tab[j].tid; j = (j + 1) & (c->cap - 1))
		if (c->tab[j].tid == tid)
			return c->tab[j].comm;
	return NULL;
}

void fsl_csv_str(FILE *f, const char *s, size_t len)
{
	size_t i;

	if (!memchr(s, ',', len) && !memchr(s, '"', len) && !memchr(s, '\n', len) &&
	    !memchr(s, '\r', len)) {
		fwrite(s, 1, len, f);
		return;
	}
	fputc('"', f);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

const char *fsl_frame_name(const char *frame, char *buf, size_t len)
{
	size_t n = strcspn(frame, "+/ ");

	if (n >= len)
		n = len - 1;
	memcpy(buf, frame, n);
	buf[n] = 0;
	return buf;
}

unsigned int fsl_frames_skip_tracing(const struct fsl_stack *st)
{
	unsigned int k = 0;

	while (k < st->nframes && (!strncmp(st->frames[k], "__traceiter_", 12) ||
				   !strncmp(st->frames[k], "__bpf_trace_", 12) ||
				   !strncmp(st->frames[k], "bpf_trace_run", 13)))
		k++;
	return k;
}

const char *fsl_rwbs(uint32_t flags, char buf[8])
{
	int i = 0;

	if (flags & FSL_RQ_FLUSH)
		buf[i++] = 'F';
	if (flags & FSL_RQ_WRITE)
		buf[i++] = 'W';
	else if (flags & FSL_RQ_DISCARD)
		buf[i++] = 'D';
	else if (flags & FSL_RQ_READ)
		buf[i++] = 'R';
	else
		buf[i++] = 'N';
	if (flags & FSL_RQ_FUA)
		buf[i++] = 'F';
	if (flags & FSL_RQ_AHEAD)
		buf[i++] = 'A';
	if (flags & FSL_RQ_SYNC)
		buf[i++] = 'S';
	if (flags & FSL_RQ_META)
		buf[i++] = 'M';
	buf[i] = 0;
	return buf;
}
