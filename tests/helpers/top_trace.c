// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a synthetic trace with a known, steady workload for the top tests
 * and the top cost bench:
 *
 *   top_trace OUT [SECONDS [SCALE [ramp|procstack|manyrm]]]
 *
 * Per second of trace time (times SCALE):
 *   pid 1001 "mkdir":  100 mkdir in /mnt/t/a (1 ms each), 20 off-CPU waits of
 *                      5 ms on the journal-log-space stack (id 1)
 *   pid 1002 "tar":     50 creates in /mnt/t/b (0.2 ms), 30 stats in /mnt/t/b,
 *                      10 waits of 2 ms on a directory-block-read stack (id 2),
 *                      10 reads of 16 KiB at scattered sectors
 *   pid 200 "jbd2/loop0-8" (kernel thread): 20 sequential 4 KiB writes,
 *                      one commit (tid counts up) of 4 ms, with run stats
 *   one global_dirty_state (12800 dirty pages, 256 under writeback)
 * and 7 lost off-CPU events. Everything is on dev 7:0 mounted at /mnt/t.
 * With "ramp", second s (from 0) holds s + 1 times the calls, waits and
 * I/O, so windows differ from one another. With "procstack", see
 * frames_unlink. With "manyrm", every second also holds 30 short-lived "rm"
 * processes (pids 3000 + 30 s + i, each seen, 3 unlinks of 0.2 ms, one 4 ms
 * wait for log space on stack 3, exit: 120 ms/s together) and pid 1004
 * "sync" waits 300 ms for a commit (stack 4). The trace spans [1 s, 1 s +
 * SECONDS] of CLOCK_MONOTONIC; the tests derive every expected number from
 * the rates above.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/ordered.h"
#include "fslens/trace.h"

#define T0 1000000000ull
#define NS 1000000000ull
#define DEV FSL_MKDEV(7, 0)

static struct fsl_writer *w;
/*
 * The loops below make a second's events kind by kind; the recorder writes
 * a trace in time order (its ordering service), so these go out the same way.
 */
static struct fsl_ordered *ord;

static void die(const char *what, int err)
{
	fprintf(stderr, "top_trace: %s: %s\n", what, strerror(-err));
	exit(1);
}

static int write_ev(void *ctx, const struct fsl_hdr *ev)
{
	(void)ctx;
	return fsl_writer__event(w, ev);
}

static void put(const void *ev)
{
	int rc = fsl_ordered__push(ord, ev, write_ev, NULL);

	if (rc)
		die("writing an event", rc);
}

static void hdr(struct fsl_hdr *h, unsigned int type, size_t size, uint64_t ts, uint32_t pid)
{
	h->ts = ts;
	h->pid = pid;
	h->tid = pid;
	h->type = type;
	h->size = size;
}

static void proc_kind(uint64_t ts, uint32_t pid, const char *comm, uint32_t flags,
		      unsigned int kind)
{
	struct fsl_ev_proc p;

	memset(&p, 0, sizeof(p));
	hdr(&p.hdr, FSL_EV_PROC, sizeof(p), ts, pid);
	p.kind = kind;
	p.flags = flags;
	p.ppid = 1;
	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	put(&p);
}

static void proc(uint64_t ts, uint32_t pid, const char *comm, uint32_t flags)
{
	proc_kind(ts, pid, comm, flags, FSL_PROC_SEEN);
}

static void dirop(uint64_t ts, uint32_t pid, unsigned int op, const char *path, uint64_t lat)
{
	union {
		struct fsl_ev_dirop d;
		char buf[512];
	} u;
	size_t len = strlen(path);

	memset(&u, 0, sizeof(u));
	hdr(&u.d.hdr, FSL_EV_DIROP, fsl_dirop_size(len, 0), ts, pid);
	u.d.lat_ns = lat;
	u.d.dirfd = -100;
	u.d.dirfd2 = -100;
	u.d.fd = -1;
	u.d.op = op;
	u.d.path_len = len;
	if (op == FSL_OP_CREATE)
		u.d.flags = 0100 | 01;	/* O_CREAT | O_WRONLY */
	memcpy(u.d.paths, path, len);
	put(&u);
}

static void offcpu(uint64_t ts, uint32_t pid, uint64_t dur, int32_t stack)
{
	struct fsl_ev_offcpu o;

	memset(&o, 0, sizeof(o));
	hdr(&o.hdr, FSL_EV_OFFCPU, sizeof(o), ts, pid);
	o.dur_ns = dur;
	o.stack_id = stack;
	o.state = FSL_OFFCPU_UNINTERRUPTIBLE;
	put(&o);
}

static void blockrq(unsigned int type, uint64_t ts, uint32_t pid, uint64_t sector,
		    uint32_t bytes, uint32_t flags, uint64_t rq)
{
	struct fsl_ev_block_rq b;

	memset(&b, 0, sizeof(b));
	hdr(&b.hdr, type, sizeof(b), ts, pid);
	b.dev = DEV;
	b.sector = sector;
	b.nr_sector = bytes / 512;
	b.bytes = type == FSL_EV_BLOCK_RQ_COMPLETE ? bytes : bytes;
	b.flags = flags;
	b.rq = rq;
	put(&b);
}

/* Q, D, C of one request: queued at ts, issued 0.1 ms later, done after dur. */
static void io(uint64_t ts, uint32_t pid, uint64_t sector, uint32_t bytes, uint32_t flags,
	       uint64_t dur, uint64_t rq)
{
	blockrq(FSL_EV_BLOCK_RQ_INSERT, ts, pid, sector, bytes, flags, rq);
	blockrq(FSL_EV_BLOCK_RQ_ISSUE, ts + 100000, pid, sector, bytes, flags, rq);
	blockrq(FSL_EV_BLOCK_RQ_COMPLETE, ts + 100000 + dur, 0, sector, bytes, flags, rq);
}

static void commit_phase(unsigned int type, uint64_t ts, uint32_t tid)
{
	struct fsl_ev_jbd2_commit c;

	memset(&c, 0, sizeof(c));
	hdr(&c.hdr, type, sizeof(c), ts, 200);
	c.dev = DEV;
	c.transaction = tid;
	c.head = tid;
	put(&c);
}

static void commit(uint64_t ts, uint32_t tid)
{
	struct fsl_ev_jbd2_run_stats r;

	commit_phase(FSL_EV_JBD2_START_COMMIT, ts, tid);
	commit_phase(FSL_EV_JBD2_COMMIT_LOCKING, ts + 500000, tid);
	commit_phase(FSL_EV_JBD2_COMMIT_FLUSHING, ts + 1000000, tid);
	commit_phase(FSL_EV_JBD2_COMMIT_LOGGING, ts + 1500000, tid);
	memset(&r, 0, sizeof(r));
	hdr(&r.hdr, FSL_EV_JBD2_RUN_STATS, sizeof(r), ts + 3999000, 200);
	r.dev = DEV;
	r.tid = tid;
	r.running = 250;	/* jiffies at HZ 250: 1 s */
	r.locked = 0;
	r.flushing = 0;
	r.logging = 1;
	r.handle_count = 150;
	r.blocks = 40;
	r.blocks_logged = 42;
	put(&r);
	commit_phase(FSL_EV_JBD2_END_COMMIT, ts + 4000000, tid);
}

static void dirty_state(uint64_t ts)
{
	struct fsl_ev_global_dirty_state g;

	memset(&g, 0, sizeof(g));
	hdr(&g.hdr, FSL_EV_GLOBAL_DIRTY_STATE, sizeof(g), ts, 1002);
	g.nr_dirty = 12800;
	g.nr_writeback = 256;
	g.background_thresh = 100000;
	g.dirty_thresh = 200000;
	g.dirty_limit = 200000;
	put(&g);
}

static char *frames_log_space[] = {
	"__schedule+0x2a", "schedule+0x10", "io_schedule+0x12", "blk_mq_get_tag+0x100",
	"__blk_mq_alloc_requests+0x80", "blk_mq_submit_bio+0x200", "__submit_bio+0x90",
	"submit_bio_noacct_nocheck+0x150", "__flush_batch+0x40", "jbd2_log_do_checkpoint+0x90",
	"__jbd2_log_wait_for_space+0x70", "add_transaction_credits+0x1a0",
	"start_this_handle+0x120", "jbd2__journal_start+0xf0", "__ext4_new_inode+0x300",
	"ext4_mkdir+0x150",
};

/* With "procstack": pid 1003 "rm" waits 10 x 3 ms a second for log space
 * on this stack of its own (the class's costliest stays mkdir's, id 1). */
static char *frames_unlink[] = {
	"__schedule+0x2a", "schedule+0x10", "__jbd2_log_wait_for_space+0x70",
	"add_transaction_credits+0x1a0", "start_this_handle+0x120",
	"jbd2__journal_start+0xf0", "__ext4_unlink+0x90", "ext4_unlink+0x40",
};

/* With "manyrm": sync(1) waiting for the journal to commit. */
static char *frames_sync[] = {
	"__schedule+0x2a", "schedule+0x10", "jbd2_log_wait_commit+0xa1",
	"ext4_sync_fs+0x70", "sync_filesystem+0x30", "ksys_sync+0x60",
};

static char *frames_dir_read[] = {
	"__schedule+0x2a", "schedule+0x10", "io_schedule+0x12", "bit_wait_io+0x10",
	"__wait_on_bit+0x40", "out_of_line_wait_on_bit+0x90", "__wait_on_buffer+0x30",
	"ext4_bread_batch+0x150", "__ext4_find_entry+0x1d0", "ext4_lookup+0x80",
	"__lookup_slow+0x90", "walk_component+0x110", "path_lookupat+0x70",
	"filename_lookup+0xd0", "vfs_statx+0x80",
};

int main(int argc, char **argv)
{
	struct fsl_writer_opts wo = { .force = 1 };
	struct fsl_stack st;
	unsigned int seconds = 10, scale = 1, s, i, k, ramp = 0, procstack = 0, manyrm = 0;
	uint64_t rq = 0x1000, jsector = 100000;
	int err = 0;

	if (argc < 2 || argc > 5 ||
	    (argc == 5 && strcmp(argv[4], "ramp") && strcmp(argv[4], "procstack") &&
	     strcmp(argv[4], "manyrm"))) {
		fprintf(stderr, "usage: top_trace OUT [SECONDS [SCALE [ramp|procstack|manyrm]]]\n");
		return 2;
	}
	if (argc > 2)
		seconds = (unsigned int)strtoul(argv[2], NULL, 10);
	if (argc > 3)
		scale = (unsigned int)strtoul(argv[3], NULL, 10);
	ramp = argc == 5 && !strcmp(argv[4], "ramp");
	procstack = argc == 5 && !strcmp(argv[4], "procstack");
	manyrm = argc == 5 && !strcmp(argv[4], "manyrm");
	if (!seconds || !scale)
		return 2;
	/* a second's events are made a second apart at most */
	ord = fsl_ordered__new(2 * NS);
	if (!ord)
		die("ordering the events", -ENOMEM);
	w = fsl_writer__open(argv[1], &wo, &err);
	if (!w)
		die(argv[1], err);
	fsl_writer__kv(w, FSL_KV_HOSTNAME, "synthetic");
	fsl_writer__kv(w, FSL_KV_KERNEL, "6.18.0-synthetic");
	fsl_writer__kv(w, FSL_KV_HZ, "250");
	fsl_writer__kv(w, FSL_KV_NCPUS, "2");
	fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/t");
	fsl_writer__kv(w, FSL_KV_DEV, "%u", DEV);
	fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(w, FSL_KV_START_NS, "%llu", T0);
	fsl_writer__kv(w, FSL_KV_END_NS, "%llu", T0 + seconds * NS);
	st = (struct fsl_stack){ 1, sizeof(frames_log_space) / sizeof(char *), frames_log_space };
	fsl_writer__stack(w, &st);
	st = (struct fsl_stack){ 2, sizeof(frames_dir_read) / sizeof(char *), frames_dir_read };
	fsl_writer__stack(w, &st);
	if (procstack || manyrm) {
		st = (struct fsl_stack){ 3, sizeof(frames_unlink) / sizeof(char *), frames_unlink };
		fsl_writer__stack(w, &st);
	}
	if (procstack)
		proc(T0, 1003, "rm", 0);
	if (manyrm) {
		st = (struct fsl_stack){ 4, sizeof(frames_sync) / sizeof(char *), frames_sync };
		fsl_writer__stack(w, &st);
		proc(T0, 1004, "sync", 0);
	}

	proc(T0, 1001, "mkdir", 0);
	proc(T0, 1002, "tar", 0);
	proc(T0, 200, "jbd2/loop0-8", FSL_PROC_KTHREAD);
	for (s = 0; s < seconds; s++) {
		uint64_t base = T0 + s * NS;
		char path[64];

		k = scale * (ramp ? s + 1 : 1);
		dirty_state(base + 1000);
		/* One commit per second, done well inside the second. */
		commit(base + 500 * 1000000ull, s + 1);
		for (i = 0; i < 100 * k; i++) {
			uint64_t t = base + 2000 + (uint64_t)i * (NS / (100 * k));

			snprintf(path, sizeof(path), "/mnt/t/a/d%u_%u", s, i);
			dirop(t, 1001, FSL_OP_MKDIR, path, 1000000);
		}
		for (i = 0; i < 50 * k; i++) {
			uint64_t t = base + 3000 + (uint64_t)i * (NS / (50 * k));

			snprintf(path, sizeof(path), "/mnt/t/b/f%u_%u", s, i);
			dirop(t, 1002, FSL_OP_CREATE, path, 200000);
		}
		for (i = 0; i < 30 * k; i++) {
			uint64_t t = base + 4000 + (uint64_t)i * (NS / (30 * k));

			snprintf(path, sizeof(path), "/mnt/t/b/f%u_%u", s, i);
			dirop(t, 1002, FSL_OP_STAT, path, 100000);
		}
		for (i = 0; i < 20 * k; i++) {
			uint64_t t = base + 5000 + (uint64_t)i * (NS / (20 * k));

			offcpu(t, 1001, 5000000, 1);
		}
		for (i = 0; procstack && i < 10; i++)
			offcpu(base + 7000 + (uint64_t)i * (NS / 10), 1003, 3000000, 3);
		for (i = 0; manyrm && i < 30; i++) {
			uint64_t t = base + 9000 + (uint64_t)i * (NS / 30);
			uint32_t pid = 3000 + 30 * s + i;
			unsigned int u;

			proc(t, pid, "rm", 0);
			for (u = 0; u < 3; u++) {
				snprintf(path, sizeof(path), "/mnt/t/b/f%u_%u", s, 3 * i + u);
				dirop(t + 1000 + u * 300000, pid, FSL_OP_UNLINK, path, 200000);
			}
			offcpu(t + 1000000, pid, 4000000, 3);
			proc_kind(t + 6000000, pid, "rm", 0, FSL_PROC_EXIT);
		}
		if (manyrm)
			offcpu(base + 600 * 1000000ull, 1004, 300000000, 4);
		for (i = 0; i < 10 * k; i++) {
			uint64_t t = base + 6000 + (uint64_t)i * (NS / (10 * k));

			offcpu(t, 1002, 2000000, 2);
			/* 16 KiB reads 1 GiB apart: every one is a seek */
			io(t + 7000, 1002, 2000000ull * (i + 1) + s * 64, 16384,
			   FSL_RQ_READ | FSL_RQ_SYNC, 1000000, rq++);
		}
		for (i = 0; i < 20 * k; i++) {
			uint64_t t = base + 8000 + (uint64_t)i * (NS / (20 * k));

			io(t, 200, jsector, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC | FSL_RQ_META, 200000,
			   rq++);
			jsector += 8;
		}
	}
	err = fsl_ordered__flush(ord, write_ev, NULL);
	if (err)
		die("writing an event", err);
	fsl_ordered__free(ord);
	fsl_writer__lost(w, FSL_FAM_OFFCPU, 7);
	err = fsl_writer__close(w);
	if (err)
		die("closing the trace", err);
	return 0;
}
