// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for replay (`make fuzz`): the input is a trace file (as
 * in fuzz_reader) run through the session into the replay consumer, one
 * step at a time and then free-running with a what-if. Whatever geometry
 * and events the file holds, replay may stop with an error, never crash,
 * hang, leak or read out of bounds. Seeds: the reader's corpus and
 * tests/robust's hostile traces.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fslens/replay.h"
#include "fslens/session.h"
#include "fslens/trace.h"
#include "../../lib/trace_internal.h"

static void quiet(void *ctx, const char *msg)
{
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsl_reader_opts ro = { .warn = quiet };
	char path[64];
	int fd, err = 0, pass;
	FILE *null;

	fsl__trace_fuzz_skip_crc = size & 1;
	fd = memfd_create("fuzz-replay", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	null = fopen("/dev/null", "w");
	for (pass = 0; pass < 2 && null; pass++) {
		struct fsl_replay_opts o = { 0 };
		struct fsl_consumer *cons[1];
		struct fsl_reader *r;
		struct fsl_replay *rp;
		const char *why;

		if (pass) {
			o.free_run = 1;
			fsl_replay_opts_add_set(&o, "journal_size=64M", &why);
			o.disk = "sata-7200";
		}
		r = fsl_reader__open(path, &ro, &err);
		if (!r)
			break;
		rp = fsl_replay__new(&o, &err);
		if (rp) {
			cons[0] = fsl_replay__consumer(rp);
			if (!fsl_session_run(r, cons, 1)) {
				fsl_replay__write_text(rp, null);
				fsl_replay__write_json(rp, null);
			}
			fsl_replay__free(rp);
		}
		fsl_reader__close(r);
	}
	if (null)
		fclose(null);
	close(fd);
	return 0;
}
