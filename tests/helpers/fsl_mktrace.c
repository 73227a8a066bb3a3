// SPDX-License-Identifier: GPL-2.0
/*
 * Write test traces for the CLI tests.
 *   fsl_mktrace OUT known        the small trace tests/cli/trace_*.sh check value by value
 *   fsl_mktrace OUT mix N [C]    N events of the synthetic block-I/O + journal mix,
 *                                C events per chunk (default: the writer's)
 *   fsl_mktrace OUT edges        directory-read waits, dirty-limit pauses and data calls
 *                                that cross 0.5 s window edges (tests/tui/top_window.sh,
 *                                edges())
 *   fsl_mktrace OUT readdir N    N readdir streams (pid 1000 + i / 1000, fd 3 + i % 1000),
 *                                stream i with 1 + i % 7 entries: a long JSON list
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

static int dirop(struct fsl_writer *w, uint64_t ts, uint32_t pid, uint64_t lat, const char *path)
{
	union { struct fsl_ev_dirop d; unsigned char b[256]; } op = { 0 };
	size_t n = strlen(path);

	op.d.hdr = (struct fsl_hdr){ .ts = ts, .pid = pid, .tid = pid, .type = FSL_EV_DIROP,
				     .size = fsl_dirop_size(n, 0) };
	op.d.lat_ns = lat;
	op.d.dirfd = -100;
	op.d.fd = -1;
	op.d.op = FSL_OP_STAT;
	op.d.syscall = 4;
	op.d.path_len = n;
	memcpy(op.d.paths, path, n);
	EV(w, op.d);
	return 0;
}

static int dirread(struct fsl_writer *w, uint64_t ts, uint32_t pid, uint64_t dur)
{
	struct fsl_ev_offcpu oc = { .hdr = { .ts = ts, .pid = pid, .tid = pid,
					     .type = FSL_EV_OFFCPU, .size = sizeof(oc) },
				    .dur_ns = dur, .stack_id = 1,
				    .state = FSL_OFFCPU_UNINTERRUPTIBLE };

	EV(w, oc);
	return 0;
}

static int pause_ms(struct fsl_writer *w, uint64_t ts, uint32_t pid, int64_t ms)
{
	struct fsl_ev_balance_dirty_pages b = { .hdr = { .ts = ts, .pid = pid, .tid = pid,
							 .type = FSL_EV_BALANCE_DIRTY_PAGES,
							 .size = sizeof(b) },
						.dev = FSL_MKDEV(7, 0), .pause = ms };

	EV(w, b);
	return 0;
}

/* A data operation of pid on the target's file name (inode ino). */
static int data_op(struct fsl_writer *w, uint64_t ts, uint32_t pid, unsigned int op, uint64_t ino,
		   const char *name, uint64_t bytes, uint64_t lat)
{
	struct fsl_ev_data d = { .hdr = { .ts = ts, .pid = pid, .tid = pid, .type = FSL_EV_DATA,
					  .size = sizeof(d) },
				 .lat_ns = lat, .ret = (int64_t)bytes, .bytes = bytes, .ino = ino,
				 .dev = FSL_MKDEV(7, 0), .fd = 3, .op = op };

	snprintf(d.name, sizeof(d.name), "%s", name);
	EV(w, d);
	return 0;
}

/*
 * Trace time from 1 s to 5 s (0 to 4 s relative). find (pid 100) stats in
 * /mnt/e/big from 0.1 s to 0.9 s and waits on a directory block from 0.2 s
 * to 0.8 s (600 ms across the 0.5 s edge: 300 + 300); a second call from
 * 1.9 s to 2.05 s waits 1.95 s to 2.04 s (50 + 40) and a third, in
 * /mnt/e/small, is inside one window (2.6 s, wait 2.65 s for 100 ms). dd
 * (pid 101) sleeps in balance_dirty_pages 800 ms from 1.3 s (200 + 500 +
 * 100) and 20 ms from 3.49 s (10 + 10). find also reads /mnt/e/big/data
 * (inode 20): 4096 bytes at 0.3 s in 100 us, 8192 bytes from 0.7 s to 1.0 s
 * (done in the third window); and writes 1000 bytes to log (inode 21) at
 * 2.2 s in 10 ms, then fsyncs it from 2.3 s to 2.7 s (the sixth window).
 */
static int edges(struct fsl_writer *w)
{
	struct fsl_ev_proc pr = { .hdr = { .ts = 1000000000, .pid = 100, .tid = 100,
					   .type = FSL_EV_PROC, .size = sizeof(pr) },
				  .ppid = 1, .kind = FSL_PROC_SEEN, .comm = "find" };
	char *frames[] = { "__schedule", "io_schedule", "bit_wait_io", "ext4_read_bh",
			   "ext4_bread", "__ext4_read_dirblock", "ext4_dx_find_entry",
			   "__ext4_find_entry", "ext4_lookup" };
	struct fsl_stack st = { 1, 9, frames };
	const uint64_t S = 1000000000ull, MS = 1000000ull;

	fsl_writer__kv(w, FSL_KV_HOSTNAME, "edgehost");
	fsl_writer__kv(w, FSL_KV_KERNEL, "6.18.0-test");
	fsl_writer__kv(w, FSL_KV_NCPUS, "2");
	fsl_writer__kv(w, FSL_KV_HZ, "250");
	fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(w, FSL_KV_DEV, "%u", FSL_MKDEV(7, 0));
	fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/e");
	fsl_writer__kv(w, FSL_KV_START_NS, "1000000000");
	fsl_writer__kv(w, FSL_KV_END_NS, "5000000000");
	fsl_writer__stack(w, &st);
	EV(w, pr);
	pr.hdr.pid = pr.hdr.tid = 101;
	memcpy(pr.comm, "dd", 3);
	EV(w, pr);
	if (dirop(w, S + 100 * MS, 100, 800 * MS, "/mnt/e/big/x") ||
	    dirread(w, S + 200 * MS, 100, 600 * MS) ||
	    data_op(w, S + 300 * MS, 100, FSL_DATA_READ, 20, "data", 4096, MS / 10) ||
	    data_op(w, S + 700 * MS, 100, FSL_DATA_READ, 20, "data", 8192, 300 * MS) ||
	    pause_ms(w, S + 1300 * MS, 101, 800) ||
	    dirop(w, S + 1900 * MS, 100, 150 * MS, "/mnt/e/big/y") ||
	    dirread(w, S + 1950 * MS, 100, 90 * MS) ||
	    data_op(w, S + 2200 * MS, 100, FSL_DATA_PWRITE, 21, "log", 1000, 10 * MS) ||
	    data_op(w, S + 2300 * MS, 100, FSL_DATA_FSYNC, 21, "log", 0, 400 * MS) ||
	    dirop(w, S + 2600 * MS, 100, 200 * MS, "/mnt/e/small/z") ||
	    dirread(w, S + 2650 * MS, 100, 100 * MS) ||
	    pause_ms(w, S + 3490 * MS, 101, 20))
		return 1;
	return 0;
}

static int readdirs(struct fsl_writer *w, unsigned long n)
{
	union { struct fsl_ev_dirents d; unsigned char b[sizeof(struct fsl_ev_dirents) + 64]; } de;
	unsigned long i;
	unsigned int k;

	fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(w, FSL_KV_DEV, "%u", FSL_MKDEV(7, 0));
	fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/r");
	fsl_writer__kv(w, FSL_KV_START_NS, "1000000000");
	fsl_writer__kv(w, FSL_KV_END_NS, "%llu", 2000000000ull + n * 1000);
	for (i = 0; i < n; i++) {
		memset(&de, 0, sizeof(de));
		de.d.hdr = (struct fsl_hdr){ .ts = 1000000000ull + i * 1000, .pid = 1000 + i / 1000,
					     .tid = 1000 + i / 1000, .type = FSL_EV_DIRENTS };
		de.d.fd = 3 + i % 1000;
		de.d.count = 1 + i % 7;
		de.d.hdr.size = fsl_dirents_size(de.d.count);
		for (k = 0; k < de.d.count; k++)
			de.d.ino[k] = 12 + (i * 7 + k * 13) % 5000;
		EV(w, de.d);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fsl_writer *w;
	int err = 0, rc = 0;

	struct fsl_writer_opts o = { .force = 1 };

	if (argc < 3 || (strcmp(argv[2], "known") && strcmp(argv[2], "edges") &&
			 (strcmp(argv[2], "readdir") || argc != 4) &&
			 (strcmp(argv[2], "mix") || argc < 4 || argc > 5))) {
		fprintf(stderr, "usage: fsl_mktrace OUT known|edges | fsl_mktrace OUT readdir N | "
			"fsl_mktrace OUT mix N [CHUNK]\n");
		return 2;
	}
	if (argc == 5 && !strcmp(argv[2], "mix"))
		o.chunk_events = strtoul(argv[4], NULL, 10);
	w = fsl_writer__open(argv[1], &o, &err);
	if (!w)
		return die(argv[1], err);
	if (!strcmp(argv[2], "known")) {
		rc = known(w);
	} else if (!strcmp(argv[2], "edges")) {
		rc = edges(w);
	} else if (!strcmp(argv[2], "readdir")) {
		rc = readdirs(w, strtoul(argv[3], NULL, 10));
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
