// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trace reader (`make fuzz`). The input becomes a
 * file (memfd); the reader opens it, loads the metadata, reads every event
 * and answers every lookup. Nothing may crash, hang, leak or read out of
 * bounds; seeds come from `build/tests/unit --make-corpus DIR`.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fslens/session.h"
#include "fslens/trace.h"
#include "../../lib/trace_internal.h"

static void quiet(void *ctx, const char *msg)
{
	(*(unsigned long *)ctx)++;
}

/* Touch what consumers touch: every schema field inside the record, dirop paths. */
static uint64_t touch(struct fsl_reader *r, const struct fsl_hdr *ev)
{
	const struct fsl_event_desc *d = fsl_schema_builtin(ev->type);
	uint64_t acc = ev->ts ^ ev->pid;
	unsigned int k;

	if (!d)
		d = fsl_reader__schema(r, ev->type);
	for (k = 0; d && k < d->nfields; k++) {
		const struct fsl_field *f = &d->fields[k];

		if (f->kind == FSL_F_PATHS || f->kind == FSL_F_INOS || (uint32_t)f->offset + f->size > ev->size)
			continue;
		acc += (uint64_t)fsl_field_get(f, ev);
	}
	if (ev->type == FSL_EV_DIROP && ev->size >= sizeof(struct fsl_ev_dirop)) {
		const struct fsl_ev_dirop *op = (const void *)ev;
		size_t i;

		for (i = 0; i < (size_t)op->path_len + op->path2_len; i++)
			acc += (unsigned char)op->paths[i];
	}
	if (ev->type == FSL_EV_OFFCPU && ev->size >= sizeof(struct fsl_ev_offcpu)) {
		const struct fsl_stack *st = fsl_reader__stack(r, ((const struct fsl_ev_offcpu *)ev)->stack_id);
		uint32_t i;

		for (i = 0; st && i < st->nframes; i++)
			acc += strlen(st->frames[i]);
	}
	return acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile uint64_t sink;
	unsigned long nwarn = 0;
	struct fsl_reader_opts ro = { .warn = quiet, .warn_ctx = &nwarn };
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	const struct fsl_bitmap *bm;
	const char *k, *v, *name, *txt;
	char path[64];
	size_t i, len;
	int fd, err = 0, pass;

	/*
	 * Odd-sized inputs skip checksum checks so mutations reach the block,
	 * metadata and record decoders; even-sized ones exercise the checks.
	 */
	fsl__trace_fuzz_skip_crc = size & 1;
	fd = memfd_create("fuzz-trace", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (pass = 0; pass < 2; pass++) {
		/* second pass: a family filter */
		ro.families = pass ? (1u << FSL_FAM_BLOCK | 1u << FSL_FAM_DIROPS) : 0;
		r = fsl_reader__open(path, &ro, &err);
		if (!r)
			break;
		while (fsl_reader__next(r, &ev) == 1)
			sink += touch(r, ev);
		fsl_reader__rewind(r);
		if (fsl_reader__next(r, &ev) == 1)
			sink += ev->ts;
		for (i = 0; fsl_reader__kv_at(r, i, &k, &v); i++)
			sink += strlen(k) + strlen(v);
		for (i = 0; fsl_reader__text_at(r, i, &name, &txt, &len); i++)
			sink += len + (len ? (unsigned char)txt[len - 1] : 0);
		for (i = 1; i <= 2; i++) {
			bm = fsl_reader__bitmap(r, i, 1);
			if (bm && bm->nbits)
				sink += fsl_bitmap_test(bm, bm->first + bm->nbits - 1);
		}
		sink += fsl_reader__stats(r)->chunks;
		sink += fsl_reader__sym(r, 0xffffffff81234567ull) != NULL;
		fsl_reader__close(r);
	}
	close(fd);
	return 0;
}
