// SPDX-License-Identifier: GPL-2.0
/*
 * Folded off-CPU stacks for flamegraph.pl: one line per distinct
 * "comm;outermost;...;innermost" with the microseconds spent blocked there
 * (the format of bcc's offcputime -f). Frame offsets are dropped so the same
 * function merges, and the tracing's own innermost frames (__traceiter_*)
 * are left out; a wait with no stack is "comm;[no stack]". With a
 * classifier, every line also belongs to a wait class so one file per class
 * can be written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"
#include "fslens/hashmap.h"

struct fold_ent {
	char *line;
	const char *cls;		/* interned in classes[] */
	uint64_t ns;
	struct fold_ent *next;		/* another line with the same hash */
};

struct fsl_folded_export {
	const struct fsl_meta *meta;
	fsl_classify_fn classify;
	void *cctx;
	struct fsl_comms *comms;
	struct fsl_map by_hash;		/* hash of (line, class) -> struct fold_ent * */
	struct fold_ent **ents;		/* every line, in the order first seen */
	size_t n, cap;
	char **classes;
	size_t nclasses;
};

struct fsl_folded_export *fsl_folded_export__new(const struct fsl_meta *meta,
						 fsl_classify_fn classify, void *cctx,
						 int *err)
{
	struct fsl_folded_export *x = calloc(1, sizeof(*x));

	if (!x || !(x->comms = fsl_comms__new())) {
		free(x);
		*err = -ENOMEM;
		return NULL;
	}
	fsl_map__init(&x->by_hash, sizeof(struct fold_ent *));
	x->meta = meta;
	x->classify = classify;
	x->cctx = cctx;
	*err = 0;
	return x;
}

static uint64_t line_hash(const char *line, const char *cls)
{
	return fsl_hash_str(line) ^ (cls ? fsl_hash_str(cls) * 0x9e3779b97f4a7c15ull : 0);
}

static const char *intern_class(struct fsl_folded_export *x, const char *cls)
{
	size_t i;
	char **n;

	if (!cls)
		cls = "unclassified";
	for (i = 0; i < x->nclasses; i++)
		if (!strcmp(x->classes[i], cls))
			return x->classes[i];
	n = realloc(x->classes, (x->nclasses + 1) * sizeof(*n));
	if (!n)
		return NULL;
	x->classes = n;
	n[x->nclasses] = strdup(cls);
	if (!n[x->nclasses])
		return NULL;
	return n[x->nclasses++];
}

/* Build "comm;outer;...;inner" into a malloc'ed string. */
static char *fold_line(struct fsl_folded_export *x, const struct fsl_hdr *ev,
		       const struct fsl_stack *st)
{
	const char *comm = fsl_comms__get(x->comms, ev->tid);
	size_t cap = 256, len = 0, k;
	char *s = malloc(cap), fb[128], cb[32];

	if (!s)
		return NULL;
	if (!comm) {
		snprintf(cb, sizeof(cb), "[%u]", ev->tid);
		comm = cb;
	}
	len = snprintf(s, cap, "%s", comm);
	/* ';' and ' ' separate frames and the count: keep them out of comm */
	for (k = 0; k < len; k++)
		if (s[k] == ';' || s[k] == ' ')
			s[k] = '_';
	if (!st || !st->nframes) {
		const char *ns = ";[no stack]";

		if (len + strlen(ns) + 1 > cap) {
			char *n = realloc(s, cap = len + strlen(ns) + 1);

			if (!n) {
				free(s);
				return NULL;
			}
			s = n;
		}
		strcpy(s + len, ns);
		return s;
	}
	for (k = st->nframes; k-- > fsl_frames_skip_tracing(st);) {
		const char *fr = fsl_frame_func(st->frames[k], fb, sizeof(fb));
		size_t fl = strlen(fr);

		if (len + fl + 2 > cap) {
			char *n;

			cap = (len + fl + 2) * 2;
			n = realloc(s, cap);
			if (!n) {
				free(s);
				return NULL;
			}
			s = n;
		}
		s[len++] = ';';
		memcpy(s + len, fr, fl + 1);
		len += fl;
	}
	return s;
}

int fsl_folded_export__event(struct fsl_folded_export *x, const struct fsl_hdr *ev)
{
	const struct fsl_ev_offcpu *o = (const void *)ev;
	const struct fsl_stack *st = NULL;
	const char *cls = NULL;
	struct fold_ent *e, **head;
	char *line;

	if (ev->type == FSL_EV_PROC)
		return fsl_comms__event(x->comms, ev);
	if (ev->type != FSL_EV_OFFCPU || ev->size < sizeof(*o))
		return 0;
	if (o->stack_id >= 0 && x->meta && x->meta->stack)
		st = x->meta->stack(x->meta, o->stack_id);
	if (x->classify) {
		cls = intern_class(x, st ? x->classify(x->cctx, st) : NULL);
		if (!cls)
			return -ENOMEM;
	}
	line = fold_line(x, ev, st);
	if (!line)
		return -ENOMEM;
	head = fsl_map__put(&x->by_hash, line_hash(line, cls), NULL);
	if (!head) {
		free(line);
		return -ENOMEM;
	}
	for (e = *head; e; e = e->next)
		if (e->cls == cls && !strcmp(e->line, line))
			break;
	if (e) {
		free(line);
	} else {
		if (x->n == x->cap) {
			size_t cap = x->cap ? 2 * x->cap : 256;
			struct fold_ent **ne = realloc(x->ents, cap * sizeof(*ne));

			if (!ne) {
				free(line);
				return -ENOMEM;
			}
			x->ents = ne;
			x->cap = cap;
		}
		e = calloc(1, sizeof(*e));
		if (!e) {
			free(line);
			return -ENOMEM;
		}
		e->line = line;
		e->cls = cls;
		e->next = *head;
		*head = e;
		x->ents[x->n++] = e;
	}
	e->ns += o->dur_ns;
	return 0;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct fold_ent *x = *(const struct fold_ent *const *)a;
	const struct fold_ent *y = *(const struct fold_ent *const *)b;

	return strcmp(x->line, y->line);
}

int fsl_folded_export__write(struct fsl_folded_export *x, FILE *out, const char *class_name)
{
	struct fold_ent **v = malloc((x->n + 1) * sizeof(*v)), *e;
	size_t n = 0, i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < x->n; i++) {
		e = x->ents[i];
		if (!class_name || (e->cls && !strcmp(e->cls, class_name)))
			v[n++] = e;
	}
	qsort(v, n, sizeof(*v), cmp_ent);
	for (i = 0; i < n; i++) {
		/* the same line may sit in two classes; merged when no class is asked for */
		uint64_t ns = v[i]->ns;

		while (!class_name && i + 1 < n && !strcmp(v[i + 1]->line, v[i]->line))
			ns += v[++i]->ns;
		if ((ns + 500) / 1000)
			fprintf(out, "%s %" PRIu64 "\n", v[i]->line, (ns + 500) / 1000);
	}
	free(v);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

size_t fsl_folded_export__nstacks(const struct fsl_folded_export *x)
{
	return x->n;
}

size_t fsl_folded_export__nclasses(const struct fsl_folded_export *x)
{
	return x->nclasses;
}

const char *fsl_folded_export__class(const struct fsl_folded_export *x, size_t idx)
{
	return idx < x->nclasses ? x->classes[idx] : NULL;
}

void fsl_folded_export__free(struct fsl_folded_export *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++) {
		free(x->ents[i]->line);
		free(x->ents[i]);
	}
	free(x->ents);
	fsl_map__free(&x->by_hash);
	for (i = 0; i < x->nclasses; i++)
		free(x->classes[i]);
	free(x->classes);
	fsl_comms__free(x->comms);
	free(x);
}

int fsl_folded_export__write_svg(struct fsl_folded_export *x, FILE *out, const char *class_name,
				 const char *trace)
{
	char title[256], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int err;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -ENOMEM;
	err = fsl_folded_export__write(x, mem, class_name);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	snprintf(title, sizeof(title), "Off-CPU time%s%s: %s", class_name ? ", " : "",
		 class_name ? class_name : "", trace);
	if (!err)
		err = fsl_flamegraph_svg(out, buf, len, title, "us");
	free(buf);
	return err;
}

int fsl_folded_export__write_classes(struct fsl_folded_export *x, const char *dir, int svg,
				     const char *trace,
				     void (*wrote)(void *ctx, const char *path), void *ctx,
				     char *bad, size_t badsz, int *creating)
{
	size_t i;
	int err;
	FILE *f;

	for (i = 0; i < fsl_folded_export__nclasses(x); i++) {
		const char *cls = fsl_folded_export__class(x, i);

		snprintf(bad, badsz, "%s/%s.%s", dir, cls, svg ? "svg" : "folded");
		*creating = 1;
		f = fopen(bad, "w");
		if (!f)
			return -errno;
		*creating = 0;
		err = svg ? fsl_folded_export__write_svg(x, f, cls, trace) :
			    fsl_folded_export__write(x, f, cls);
		if (fclose(f) && !err)
			err = -errno;
		if (err)
			return err;
		if (wrote)
			wrote(ctx, bad);
	}
	return 0;
}
