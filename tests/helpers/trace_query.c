// SPDX-License-Identifier: GPL-2.0
/*
 * trace_query: read a trace with the real reader and print what the live
 * record tests compare against independent truth.
 *
 *   trace_query TRACE stats              complete, events and lost per family
 *   trace_query TRACE kv KEY             one metadata value
 *   trace_query TRACE text NAME          one text section
 *   trace_query TRACE events NAME        every event of that schema name, "field=value ..."
 *   trace_query TRACE offcpu             "tid dur_ns stack_id frame,frame,... wake=DEV" per wait
 *   trace_query TRACE bitmap block|inode start|end   "first nbits" then the runs
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/schema.h"
#include "fslens/trace.h"

static void print_event(const struct fsl_event_desc *d, const struct fsl_hdr *ev)
{
	unsigned int i;

	printf("ts=%" PRIu64 " pid=%u tid=%u", (uint64_t)ev->ts, ev->pid, ev->tid);
	for (i = 0; i < d->nfields; i++) {
		const struct fsl_field *f = &d->fields[i];

		if (f->kind == FSL_F_COMM) {
			printf(" %s=%.16s", f->name, (const char *)ev + f->offset);
		} else if (f->kind == FSL_F_PATHS) {
			const struct fsl_ev_dirop *o = (const void *)ev;

			printf(" path=%.*s path2=%.*s", o->path_len, o->paths, o->path2_len,
			       o->paths + o->path_len);
		} else if (f->kind == FSL_F_INOS && ev->size >= sizeof(struct fsl_ev_dirents)) {
			const struct fsl_ev_dirents *de = (const void *)ev;
			unsigned int k;

			printf(" ino=");
			for (k = 0; k < de->count; k++)
				printf("%s%llu", k ? "," : "", (unsigned long long)de->ino[k]);
		} else if (f->offset + f->size <= ev->size) {
			printf(" %s=%" PRId64, f->name, fsl_field_get(f, ev));
		}
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	const struct fsl_event_desc *all;
	const struct fsl_hdr *ev;
	struct fsl_reader *r;
	unsigned int i, n;
	int err = 0, rc;

	if (argc < 3) {
		fprintf(stderr, "usage: trace_query TRACE stats|kv|text|events|offcpu|bitmap ...\n");
		return 2;
	}
	r = fsl_reader__open(argv[1], NULL, &err);
	if (!r) {
		fprintf(stderr, "trace_query: cannot open '%s': %s\n", argv[1], strerror(-err));
		return 1;
	}
	if (!strcmp(argv[2], "stats")) {
		const struct fsl_trace_stats *s = fsl_reader__stats(r);
		uint64_t total = 0;

		/* count by reading every event: the reader must get through the whole file */
		while ((rc = fsl_reader__next(r, &ev)) == 1)
			total++;
		printf("complete=%d read=%" PRIu64 " read_error=%d bad_chunks=%" PRIu64
		       " warnings=%zu\n", s->complete, total, rc, s->bad_chunks,
		       fsl_reader__nwarnings(r));
		for (i = 0; i < FSL_FAM__MAX; i++)
			printf("%s events=%" PRIu64 " lost=%" PRIu64 "\n", fsl_family_name(i),
			       s->counts.events[i], s->counts.lost[i]);
	} else if (!strcmp(argv[2], "kv") && argc > 3) {
		const char *v = fsl_reader__kv(r, argv[3]);

		if (!v)
			return 1;
		printf("%s\n", v);
	} else if (!strcmp(argv[2], "text") && argc > 3) {
		size_t len;
		const char *v = fsl_reader__text(r, argv[3], &len);

		if (!v)
			return 1;
		fwrite(v, 1, len, stdout);
		putchar('\n');
	} else if (!strcmp(argv[2], "events") && argc > 3) {
		const struct fsl_event_desc *d = NULL;

		n = fsl_schema_builtin_all(&all);
		for (i = 0; i < n; i++)
			if (!strcmp(all[i].name, argv[3]))
				d = &all[i];
		if (!d) {
			fprintf(stderr, "trace_query: no event type '%s'\n", argv[3]);
			return 2;
		}
		while ((rc = fsl_reader__next(r, &ev)) == 1)
			if (ev->type == d->type)
				print_event(d, ev);
		if (rc < 0)
			return 1;
	} else if (!strcmp(argv[2], "offcpu")) {
		while ((rc = fsl_reader__next(r, &ev)) == 1) {
			const struct fsl_ev_offcpu *o = (const void *)ev;
			const struct fsl_stack *st;

			if (ev->type != FSL_EV_OFFCPU)
				continue;
			printf("%u %" PRIu64 " %d ", ev->tid, (uint64_t)o->dur_ns, o->stack_id);
			st = fsl_reader__stack(r, o->stack_id);
			for (i = 0; st && i < st->nframes; i++)
				printf("%s%s", i ? "," : "", st->frames[i]);
			if (!st || !st->nframes)
				putchar('-');
			printf(" wake=%u\n", o->wake_dev);
		}
		if (rc < 0)
			return 1;
	} else if (!strcmp(argv[2], "bitmap") && argc > 4) {
		unsigned int kind = !strcmp(argv[3], "inode") ? FSL_BITMAP_INODE : FSL_BITMAP_BLOCK;
		unsigned int when = !strcmp(argv[4], "end") ? FSL_BITMAP_END : FSL_BITMAP_START;
		const struct fsl_bitmap *bm = fsl_reader__bitmap(r, kind, when);
		uint64_t k;

		if (!bm)
			return 1;
		printf("%" PRIu64 " %" PRIu64 "\n", bm->first, bm->nbits);
		for (k = 0; k < bm->nruns; k++)
			printf("%" PRIu64 "\n", bm->runs[k]);
	} else {
		fprintf(stderr, "trace_query: unknown query '%s'\n", argv[2]);
		return 2;
	}
	fsl_reader__close(r);
	return fflush(stdout) ? 1 : 0;
}
