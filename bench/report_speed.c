// SPDX-License-Identifier: GPL-2.0
/*
 * Speed and memory of the report's analyses (issue #4's bench):
 *   report_speed gen FILE N      write a synthetic N-event trace (a mix like a
 *                                create storm: block Q/D/C, journal handles and
 *                                commits, writeback, allocations, dirops,
 *                                off-CPU waits, with bounded in-flight state)
 *   report_speed feed N          feed N synthetic events from memory straight
 *                                into fsl_analysis (the analyses alone)
 *   report_speed read FILE       read FILE with the reader alone, then through
 *                                the analyses: splits reader and analysis cost
 * Prints events/s and the peak RSS (getrusage), so runs at N and 10 N show
 * that memory follows live objects, not trace length.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "fslens/analysis.h"
#include "fslens/trace.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static long peak_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Event generator: a deterministic mix; call next() for each event. */
struct gen {
	uint64_t i, ts, seed;
	union {
		struct fsl_hdr h;
		struct fsl_ev_block_rq rq;
		struct fsl_ev_jbd2_commit jc;
		struct fsl_ev_jbd2_handle_start hs;
		struct fsl_ev_ext4_journal_start js;
		struct fsl_ev_ext4_map_blocks mb;
		struct fsl_ev_ext4_alloc_blocks ab;
		struct fsl_ev_offcpu off;
		struct fsl_ev_writeback_single_inode wsi;
		char dirop[sizeof(struct fsl_ev_dirop) + 64];
	} u;
};

static uint64_t rnd(struct gen *g)
{
	g->seed ^= g->seed << 13;
	g->seed ^= g->seed >> 7;
	g->seed ^= g->seed << 17;
	return g->seed;
}

static void hdr(struct gen *g, unsigned int type, size_t size, uint32_t pid)
{
	memset(&g->u, 0, size);
	g->u.h.ts = g->ts;
	g->u.h.pid = pid;
	g->u.h.tid = pid;
	g->u.h.type = type;
	g->u.h.size = size;
}

static const struct fsl_hdr *next(struct gen *g)
{
	uint64_t k = g->i++, slot = k % 16, n = k / 16;
	uint32_t pid = 1000 + (n % 4);

	g->ts += 500;	/* 2M events per simulated second */
	switch (slot) {
	case 0: case 1: case 2: {	/* block: Q, D, C of request n (one in flight) */
		static const unsigned int t[] = { FSL_EV_BLOCK_RQ_INSERT, FSL_EV_BLOCK_RQ_ISSUE,
						  FSL_EV_BLOCK_RQ_COMPLETE };
		hdr(g, t[slot], sizeof(g->u.rq), slot == 2 ? 0 : pid);
		g->u.rq.dev = FSL_MKDEV(7, 0);
		g->u.rq.sector = (n * 8) + ((n % 7) ? 0 : rnd(g) % 1000000);
		g->u.rq.nr_sector = 8;
		g->u.rq.bytes = 4096;
		g->u.rq.flags = FSL_RQ_WRITE | ((n & 1) ? FSL_RQ_META : 0);
		g->u.rq.rq = 0xffff000000000000ull + (n % 64) * 256;
		break;
	}
	case 3:
		hdr(g, FSL_EV_EXT4_JOURNAL_START_INODE, sizeof(g->u.js), pid);
		g->u.js.type = 4;
		g->u.js.ip = 0xffffffff81000000ull + (n % 5) * 16;
		break;
	case 4:
		hdr(g, FSL_EV_JBD2_HANDLE_START, sizeof(g->u.hs), pid);
		g->u.hs.type = 4;
		g->u.hs.line_no = 100 + n % 5;
		g->u.hs.tid = n / 128;
		break;
	case 5: case 6: {	/* a commit every 128 rounds: start .. end */
		uint32_t tid = n / 128;

		if (slot == 5 && n % 128 == 0) {
			hdr(g, FSL_EV_JBD2_START_COMMIT, sizeof(g->u.jc), 50);
			g->u.jc.transaction = tid;
		} else if (slot == 6 && n % 128 == 64) {
			hdr(g, FSL_EV_JBD2_END_COMMIT, sizeof(g->u.jc), 50);
			g->u.jc.transaction = tid;
		} else {
			hdr(g, FSL_EV_WRITEBACK_SINGLE_INODE, sizeof(g->u.wsi), 60);
			g->u.wsi.ino = 12 + n % 1000;
			g->u.wsi.wrote = 4;
			break;
		}
		g->u.jc.dev = FSL_MKDEV(7, 0);
		break;
	}
	case 7: case 8:	/* 10,000 files written interleaved in 64-block chunks */
		if (slot == 7) {
			hdr(g, FSL_EV_EXT4_ALLOCATE_BLOCKS, sizeof(g->u.ab), pid);
			g->u.ab.dev = FSL_MKDEV(7, 0);
			g->u.ab.ino = 12 + (n / 64) % 10000;
			g->u.ab.block = 10000 + n;
			g->u.ab.len = 1;
			g->u.ab.logical = (n / 640000) * 64 + n % 64;
			g->u.ab.flags = 0x420;
		} else {
			hdr(g, FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT, sizeof(g->u.mb), pid);
			g->u.mb.dev = FSL_MKDEV(7, 0);
			g->u.mb.ino = 12 + (n / 64) % 10000;
			g->u.mb.pblk = 10000 + n;
			g->u.mb.lblk = (n / 640000) * 64 + n % 64;
			g->u.mb.len = 1;
			g->u.mb.ret = 1;
			g->u.mb.mflags = 0x30;
		}
		break;
	case 9: case 10: case 11: {	/* path ops: mkdir in 8 directories */
		struct fsl_ev_dirop *d = (void *)g->u.dirop;
		char path[48];
		int len = snprintf(path, sizeof(path), "/mnt/d%" PRIu64 "/f%" PRIu64, n % 8, n);

		hdr(g, FSL_EV_DIROP, fsl_dirop_size(len, 0), pid);
		d->lat_ns = 2000 + rnd(g) % 50000;
		d->op = FSL_OP_MKDIR;
		d->dirfd = -100;
		d->path_len = len;
		memcpy(d->paths, path, len);
		break;
	}
	default:	/* off-CPU waits on 8 stacks */
		hdr(g, FSL_EV_OFFCPU, sizeof(g->u.off), pid);
		g->u.off.dur_ns = 1000 + rnd(g) % 100000;
		g->u.off.stack_id = n % 8;
		g->u.off.state = FSL_OFFCPU_UNINTERRUPTIBLE;
		break;
	}
	g->u.h.ts = g->ts;
	return &g->u.h;
}

static const char *const stacks[8][6] = {
	{ "schedule", "io_schedule", "blk_mq_get_tag", "jbd2_log_do_checkpoint",
	  "__jbd2_log_wait_for_space", "start_this_handle" },
	{ "schedule", "wait_transaction_locked", "add_transaction_credits", "start_this_handle",
	  "jbd2__journal_start", "ext4_mkdir" },
	{ "schedule", "io_schedule", "bit_wait_io", "do_get_write_access",
	  "jbd2_journal_get_write_access", "ext4_mkdir" },
	{ "schedule", "jbd2_log_wait_commit", "ext4_sync_file", "do_fsync", "x", "y" },
	{ "schedule", "io_schedule", "bit_wait_io", "ext4_read_bh", "__ext4_find_entry", "ext4_lookup" },
	{ "schedule", "balance_dirty_pages", "generic_perform_write", "vfs_write", "x", "y" },
	{ "schedule", "io_schedule", "folio_wait_bit", "filemap_fault", "x", "y" },
	{ "schedule", "do_nanosleep", "x", "y", "z", "w" },
};

static int gen_file(const char *path, uint64_t n)
{
	struct fsl_writer_opts o = { .force = 1 };
	struct fsl_writer *w;
	struct gen g = { .ts = 1000000000ull, .seed = 88172645463325252ull };
	struct fsl_stack st;
	uint64_t i;
	int err = 0, k;

	w = fsl_writer__open(path, &o, &err);
	if (!w) {
		fprintf(stderr, "report_speed: cannot create '%s': %s\n", path, strerror(-err));
		return 1;
	}
	fsl_writer__kv(w, FSL_KV_START_NS, "%d", 1000000000);
	fsl_writer__kv(w, FSL_KV_DEV, "%u", FSL_MKDEV(7, 0));
	for (k = 0; k < 8; k++) {
		st = (struct fsl_stack){ k, 6, (char **)stacks[k] };
		err |= fsl_writer__stack(w, &st);
	}
	for (i = 0; i < n && !err; i++)
		err = fsl_writer__event(w, next(&g));
	if (err || (err = fsl_writer__close(w))) {
		fprintf(stderr, "report_speed: writing '%s': %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

/* A fake meta with the 8 stacks, for the in-memory feed. */
static const struct fsl_stack *m_stack(const struct fsl_meta *m, int32_t id)
{
	static struct fsl_stack st[8];

	if (id < 0 || id >= 8)
		return NULL;
	st[id] = (struct fsl_stack){ id, 6, (char **)stacks[id] };
	return &st[id];
}

static int feed(uint64_t n)
{
	struct fsl_meta m = { .stack = m_stack };
	struct fsl_analysis *a = fsl_analysis__new(NULL, NULL);
	struct gen g = { .ts = 1000000000ull, .seed = 88172645463325252ull };
	struct fsl_diagnosis d;
	double t0, t1, c0, c1, g0, g1;
	uint64_t i;

	if (!a || fsl_analysis__begin(a, &m))
		return 1;
	/* the generator's own cost, measured apart and subtracted */
	g0 = cpu();
	for (i = 0; i < n; i++)
		next(&g);
	g1 = cpu();
	g = (struct gen){ .ts = 1000000000ull, .seed = 88172645463325252ull };
	c0 = cpu();
	t0 = now();
	for (i = 0; i < n; i++)
		if (fsl_analysis__feed(a, next(&g)))
			return 1;
	fsl_analysis__diagnose(a, &d);
	t1 = now();
	c1 = cpu();
	printf("feed: %" PRIu64 " events, %.2f s CPU (%.2f s wall) less %.2f s generating = "
	       "%.1f M events/s, peak RSS %ld KiB (%u causes, %" PRIu64 " I/Os)\n", n, c1 - c0,
	       t1 - t0, g1 - g0, n / ((c1 - c0) - (g1 - g0)) / 1e6, peak_rss_kb(), d.ncauses,
	       fsl_analysis__blockio(a)->devs[0].completed);
	fsl_analysis__free(a);
	return 0;
}

/* Read FILE twice: events only, then events through every analysis. */
static int read_file(const char *path)
{
	struct fsl_analysis *a;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	struct fsl_meta m;
	double c0, c1, c2;
	uint64_t n = 0, sum = 0;
	int err = 0;

	r = fsl_reader__open(path, NULL, &err);
	if (!r) {
		fprintf(stderr, "report_speed: cannot open '%s': %s\n", path, strerror(-err));
		return 1;
	}
	c0 = cpu();
	while (fsl_reader__next(r, &ev) > 0) {
		sum += ev->ts;
		n++;
	}
	c1 = cpu();
	fsl_reader__rewind(r);
	fsl_meta_from_reader(&m, r);
	a = fsl_analysis__new(NULL, &err);
	if (!a || fsl_analysis__begin(a, &m))
		return 1;
	while (fsl_reader__next(r, &ev) > 0)
		if (fsl_analysis__feed(a, ev))
			return 1;
	fsl_analysis__stalls(a);
	c2 = cpu();
	printf("read: %" PRIu64 " events: reader alone %.2f s CPU (%.1f M/s); reader + analyses "
	       "%.2f s CPU (%.1f M/s); analyses alone %.1f M events/s; peak RSS %ld KiB (%" PRIu64 ")\n",
	       n, c1 - c0, n / (c1 - c0) / 1e6, c2 - c1, n / (c2 - c1) / 1e6,
	       n / ((c2 - c1) - (c1 - c0)) / 1e6, peak_rss_kb(), sum & 1);
	fsl_analysis__free(a);
	fsl_reader__close(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "read"))
		return read_file(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "gen"))
		return gen_file(argv[2], strtoull(argv[3], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "feed"))
		return feed(strtoull(argv[2], NULL, 10));
	fprintf(stderr, "usage: report_speed gen FILE N | feed N | read FILE\n");
	return 2;
}
