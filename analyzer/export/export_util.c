// SPDX-License-Identifier: GPL-2.0
/* Helpers the exporters share: task names, JSON and CSV quoting, frame names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"
#include "fslens/text.h"
#include "fslens/hashmap.h"

/* tid -> comm (control bytes escaped: up to 15 x "\xNN"), in the one hash map */
#define FSL_COMM_ESC_LEN 64
struct fsl_comms {
	struct fsl_map map;
};

struct fsl_comms *fsl_comms__new(void)
{
	struct fsl_comms *c = calloc(1, sizeof(*c));

	if (c)
		fsl_map__init(&c->map, FSL_COMM_ESC_LEN);
	return c;
}

void fsl_comms__free(struct fsl_comms *c)
{
	if (!c)
		return;
	fsl_map__free(&c->map);
	free(c);
}

int fsl_comms__event(struct fsl_comms *c, const struct fsl_hdr *ev)
{
	const struct fsl_ev_proc *p = (const void *)ev;
	uint32_t tid;
	char *comm;

	if (ev->type != FSL_EV_PROC || ev->size < sizeof(*p))
		return 0;
	tid = ev->tid ? ev->tid : ev->pid;
	if (!tid || !p->comm[0])
		return 0;
	comm = fsl_map__put(&c->map, tid, NULL);
	if (!comm)
		return -ENOMEM;
	/* escaped once here: every exporter and dump print it as it is */
	fsl_text_escape(comm, FSL_COMM_ESC_LEN, p->comm, strnlen(p->comm, 15));
	return 0;
}

const char *fsl_comms__get(const struct fsl_comms *c, uint32_t tid)
{
	return c && tid ? fsl_map__get(&c->map, tid) : NULL;
}

static void csv_quote(FILE *f, const char *s, size_t len)
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

void fsl_csv_str(FILE *f, const char *s, size_t len)
{
	char buf[4 * 4096 + 1], *e = NULL;
	size_t i;

	/* control bytes as \xNN, as everywhere fslens prints a name or path */
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			break;
	if (i < len) {
		size_t cap = len * 4 + 1;

		e = cap <= sizeof(buf) ? buf : malloc(cap);
		if (!e) {	/* no memory: the start of it, escaped all the same */
			e = buf;
			cap = sizeof(buf);
		}
		len = fsl_text_escape(e, cap, s, len);
		s = e;
	}
	csv_quote(f, s, len);
	if (e && e != buf)
		free(e);
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

/*
 * The order of the kernel's blk_fill_rwbs(): preflush, the operation, then
 * FUA, readahead, sync, meta. Where more than one operation bit is set (an
 * imported blktrace discard carries its write bit too) the discard wins, as
 * in blkparse. A bare flush has no data operation: N, as blkparse prints it.
 */
const char *fsl_rwbs(uint32_t flags, char buf[8])
{
	int i = 0;

	if (flags & FSL_RQ_FLUSH)
		buf[i++] = 'F';
	if (flags & FSL_RQ_DISCARD)
		buf[i++] = 'D';
	else if (flags & FSL_RQ_WRITE)
		buf[i++] = 'W';
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
