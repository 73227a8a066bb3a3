// SPDX-License-Identifier: GPL-2.0
/*
 * Write test traces for the CLI tests.
 *   fsl_mktrace OUT known        the small trace tests/cli/trace_*.sh check value by value
 *   fsl_mktrace OUT mix N [C]    N events of the synthetic block-I/O + journal mix,
 *                                C events per chunk (default: the writer's)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/trace.h"
#include "trace_gen.h"

static int die(const char *what, int err)
{
	fprintf(stderr, "fsl_mktrace: %s: %s\n", what, strerror(-err));
	return 1;
}

#define EV(w, e) do { int _e = fsl_writer__event(w, &(e).hdr); if (_e) return die("event", _e); } while (0)

/* Ten events, one or more of every family; values documented in tests/cli/trace_dump.sh. */
static int known(struct fsl_writer *w)
{
	struct fsl_ev_proc pr = { .hdr = { .ts = 1000000000, .pid = 100, .tid = 100,
					   .type = FSL_EV_PROC, .size = sizeof(pr), .cpu = 1 },
				  .ppid = 1, .kind = FSL_PROC_SEEN, .comm = "mkdir" };
	union { struct fsl_ev_dirop d; unsigned char b[256]; } op = { 0 };
	struct fsl_ev_block_rq rq = { .hdr = { .pid = 100, .tid = 100, .size = sizeof(rq), .cpu = 1 },
				      .dev = FSL_MKDEV(7, 0), .nr_sector = 8, .sector = 2048,
				      .bytes = 4096, .flags = FSL_RQ_WRITE | FSL_RQ_SYNC,
				      .rq = 0xffff888100001000ull };
	struct fsl_ev_jbd2_commit jc = { .hdr = { .pid = 300, .tid = 300, .size = sizeof(jc) },
					 .dev = FSL_MKDEV(7, 0), .transaction = 42 };
	struct fsl_ev_jbd2_run_stats rs = { .hdr = { .ts = 1000600000, .pid = 300, .tid = 300,
						     .type = FSL_EV_JBD2_RUN_STATS,
						     .size = sizeof(rs) },
					    .dev = FSL_MKDEV(7, 0), .tid = 42, .running = 1250,
					    .locked = 1, .logging = 3, .handle_count = 7,
					    .blocks = 12, .blocks_logged = 14 };
	struct fsl_ev_ext4_journal_start js = { .hdr = { .ts = 1000050000, .pid = 100, .tid = 100,
							 .type = FSL_EV_EXT4_JOURNAL_START_SB,
							 .size = sizeof(js) },
						.dev = FSL_MKDEV(7, 0), .blocks = 2,
						.ip = 0xffffffff81234567ull, .type = 4 };
	struct fsl_ev_offcpu oc = { .hdr = { .ts = 1000200000, .pid = 100, .tid = 100,
					     .type = FSL_EV_OFFCPU, .size = sizeof(oc) },
				    .dur_ns = 350000, .stack_id = 1, .waker_pid = 300,
				    .state = FSL_OFFCPU_UNINTERRUPTIBLE };
	char *frames[] = { "io_schedule+0x12", "bit_wait_io+0x9", "jbd2_log_wait_commit+0xa1" };
	struct fsl_stack st = { 1, 3, frames };
	static const char path[] = "/mnt/scratch/d1";

	fsl_writer__kv(w, FSL_KV_HOSTNAME, "testhost");
	fsl_writer__kv(w, FSL_KV_KERNEL, "6.18.0-test");
	fsl_writer__kv(w, FSL_KV_NCPUS, "2");
	fsl_writer__kv(w, FSL_KV_HZ, "250");
	fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(w, FSL_KV_DEV, "%u", FSL_MKDEV(7, 0));
	fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/scratch");
	fsl_writer__kv(w, FSL_KV_START_NS, "1000000000");
	fsl_writer__kv(w, FSL_KV_END_NS, "3000000000");
	fsl_writer__stack(w, &st);
	fsl_writer__sym(w, 0xffffffff81234567ull, "ext4_mkdir+0x1a3");
	fsl_writer__lost(w, FSL_FAM_BLOCK, 3);
	fsl_writer__text(w, "jbd2.info", "4 transactions\n", 15);

	EV(w, pr);
	op.d.hdr = (struct fsl_hdr){ .ts = 1000100000, .pid = 100, .tid = 100,
				     .type = FSL_EV_DIROP, .size = fsl_dirop_size(sizeof(path) - 1, 0) };
	op.d.lat_ns = 5000;
	op.d.ret = 0;
	op.d.dirfd = -100;
	op.d.fd = -1;
	op.d.mode = 0755;
	op.d.op = FSL_OP_MKDIR;
	op.d.syscall = 83;
	op.d.path_len = sizeof(path) - 1;
	memcpy(op.d.paths, path, sizeof(path) - 1);
	EV(w, op.d);
	EV(w, js);
	EV(w, oc);
	rq.hdr.type = FSL_EV_BLOCK_RQ_INSERT;
	rq.hdr.ts = 1000300000;
	EV(w, rq);
	rq.hdr.type = FSL_EV_BLOCK_RQ_ISSUE;
	rq.hdr.ts = 1000310000;
	EV(w, rq);
	rq.hdr.type = FSL_EV_BLOCK_RQ_COMPLETE;
	rq.hdr.ts = 1000500000;
	rq.hdr.pid = rq.hdr.tid = 0;
	EV(w, rq);
	jc.hdr.type = FSL_EV_JBD2_START_COMMIT;
	jc.hdr.ts = 1000400000;
	EV(w, jc);
	jc.hdr.type = FSL_EV_JBD2_END_COMMIT;
	jc.hdr.ts = 1000590000;
	jc.head = 40;
	EV(w, jc);
	EV(w, rs);
	return 0;
}

int main(int argc, char **argv)
{
	struct fsl_writer *w;
	int err = 0, rc = 0;

	struct fsl_writer_opts o = { .force = 1 };

	if (argc < 3 || (strcmp(argv[2], "known") &&
			 (strcmp(argv[2], "mix") || argc < 4 || argc > 5))) {
		fprintf(stderr, "usage: fsl_mktrace OUT known | fsl_mktrace OUT mix N [CHUNK]\n");
		return 2;
	}
	if (argc == 5)
		o.chunk_events = strtoul(argv[4], NULL, 10);
	w = fsl_writer__open(argv[1], &o, &err);
	if (!w)
		return die(argv[1], err);
	if (!strcmp(argv[2], "known")) {
		rc = known(w);
	} else {
		unsigned long long n = strtoull(argv[3], NULL, 10), i;
		unsigned char rec[256];
		struct tg_mix m;

		tg_mix_init(&m, 1);
		fsl_writer__kv(w, FSL_KV_HOSTNAME, "mixhost");
		for (i = 0; i < n && !rc; i++) {
			err = fsl_writer__event(w, tg_mix_next(&m, rec));
			if (err)
				rc = die("event", err);
		}
	}
	err = fsl_writer__close(w);
	if (err && !rc)
		rc = die("close", err);
	return rc;
}
