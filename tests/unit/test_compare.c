// SPDX-License-Identifier: GPL-2.0
/*
 * compare in-process: the phase windows reach the analyses in ns as the
 * phase file gives them. The old path printed seconds with %.9f for a child
 * `fslens report --from --to`, whose parser then truncated v * 1e9: of the
 * 100,000 millisecond bounds below 100 s, 2,183 came back 1 ns short.
 */
#include <errno.h>
#include <stdlib.h>
#include "t.h"
#include "fslens/compare.h"
#include "../../scenarios/phases.h"

#ifndef FSL_TOP
#define FSL_TOP "."
#endif

#define ORIGIN	1000000000ull	/* golden.trace: record.start_ns */

/* The bounds the %.9f -> strtod -> (uint64_t)(v * 1e9) round trip broke. */
static unsigned int broken_bounds(uint64_t *out, unsigned int max)
{
	unsigned int n = 0, ms;

	for (ms = 0; ms < 100000; ms++) {
		uint64_t ns = (uint64_t)ms * 1000000;
		char buf[32];

		snprintf(buf, sizeof(buf), "%.9f", ns / 1e9);
		if ((uint64_t)(strtod(buf, NULL) * 1e9) != ns && n < max)
			out[n++] = ns;
	}
	return n;
}

static int copy_file(const char *from, const char *to)
{
	char buf[8192];
	FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
	size_t k;
	int err = 0;

	if (!a || !b)
		err = -errno;
	while (!err && (k = fread(buf, 1, sizeof(buf), a)) > 0)
		if (fwrite(buf, 1, k, b) != k)
			err = -EIO;
	if (a)
		fclose(a);
	if (b && fclose(b))
		err = -EIO;
	return err;
}

TEST(compare_bounds_exact_ns)
{
	static uint64_t b[4096];
	const char *top = getenv("TOP") ? getenv("TOP") : FSL_TOP;
	char golden[1024], trace[1024], phases[1024];
	const char *traces[1];
	struct fsl_decode_stats before, after;
	unsigned int n, first, i, exact = 0, windows = 0;
	uint64_t nev;

	n = broken_bounds(b, 4096);
	CHECK_EQ(n, 2183);
	snprintf(golden, sizeof(golden), "%s/tests/data/golden.trace", top);
	snprintf(trace, sizeof(trace), "%s", t_path("g.trace"));
	snprintf(phases, sizeof(phases), "%s", t_path("g.phases"));
	if (copy_file(golden, trace)) {
		t_skip("fixture %s not found (run from the source tree or set TOP)", golden);
		return;
	}
	{
		struct fsl_reader *r = fsl_reader__open(trace, NULL, NULL);

		REQUIRE(r);
		nev = fsl_reader__stats(r)->counts.events[0];
		for (i = 1; i < FSL_FAM__MAX; i++)
			nev += fsl_reader__stats(r)->counts.events[i];
		fsl_reader__close(r);
	}
	traces[0] = trace;
	/* phase i = [b[i], b[i + 1]): every broken bound is a start and an end */
	for (first = 0; first + 1 < n; first += FSL_COMPARE_MAX) {
		struct fsl_compare_opts o = { .causes = 1 };
		struct fsl_compare *c;
		FILE *f = fopen(phases, "w");
		int err = 0;

		CHECK(f != NULL);
		if (!f)
			return;
		fprintf(f, "# fslens phases 1\nscenario golden\nscale small\n");
		for (i = first; i + 1 < n && i < first + FSL_COMPARE_MAX; i++)
			fprintf(f, "phase 1 p%u %llu %llu 1 0\n", i - first,
				(unsigned long long)(ORIGIN + b[i]), (unsigned long long)(ORIGIN + b[i + 1]));
		CHECK_EQ(fclose(f), 0);
		c = fsl_compare__new(&o, &err);
		CHECK(c != NULL);
		if (!c)
			return;
		fsl_reader_decoded_total(&before);
		CHECK_EQ(fsl_compare__run(c, traces, 1), 0);
		fsl_reader_decoded_total(&after);
		/* one pass over the trace whatever the phases: every event decoded
		 * once, by the one reader (the process's count says no other read it) */
		CHECK_U64(fsl_compare__stats(c, 0, NULL)->decoded.events, nev);
		CHECK_U64(after.events - before.events, nev);
		CHECK_U64(after.chunks - before.chunks, fsl_compare__stats(c, 0, NULL)->decoded.chunks);
		/* every window's analysis set (64 of them but the last time) is on the
		 * pass's session and shares its context stage: the compare consumer
		 * and at least two consumers (analysis, stalls) per window */
		CHECK_EQ(fsl_compare__stats(c, 0, NULL)->windows,
			 n - 1 - first < FSL_COMPARE_MAX ? n - 1 - first : FSL_COMPARE_MAX);
		CHECK(fsl_compare__stats(c, 0, NULL)->consumers >=
		      1 + 2 * fsl_compare__stats(c, 0, NULL)->windows);
		for (i = first; i + 1 < n && i < first + FSL_COMPARE_MAX; i++) {
			uint64_t t0 = 0, t1 = 0;

			windows++;
			if (fsl_compare__window(c, i - first, 0, &t0, &t1))
				continue;
			if (t0 == ORIGIN + b[i] && t1 == ORIGIN + b[i + 1])
				exact++;
			else if (exact + 3 > windows)
				t_fail(__FILE__, __LINE__, "phase [%llu, %llu) analysed over [%llu, %llu)",
				       (unsigned long long)(ORIGIN + b[i]),
				       (unsigned long long)(ORIGIN + b[i + 1]),
				       (unsigned long long)t0, (unsigned long long)t1);
		}
		fsl_compare__free(c);
	}
	CHECK_EQ(windows, n - 1);
	CHECK_EQ(exact, n - 1);
}

/* A phase that starts before the trace's origin is analysed from the origin, as report does. */
TEST(compare_window_clamped_to_origin)
{
	const char *top = getenv("TOP") ? getenv("TOP") : FSL_TOP;
	char golden[1024], trace[1024];
	struct fsl_compare_opts o = { .causes = 1 };
	const char *traces[1];
	struct fsl_compare *c;
	uint64_t t0 = 0, t1 = 0;
	FILE *f;
	int err = 0;

	snprintf(golden, sizeof(golden), "%s/tests/data/golden.trace", top);
	snprintf(trace, sizeof(trace), "%s", t_path("g.trace"));
	if (copy_file(golden, trace)) {
		t_skip("fixture %s not found (run from the source tree or set TOP)", golden);
		return;
	}
	f = fopen(t_path("g.phases"), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "# fslens phases 1\nscenario golden\nscale small\n"
		"phase 1 early 500000000 2000000000 1 0\nphase 1 empty 3000000000 3000000000 1 0\n");
	fclose(f);
	traces[0] = trace;
	c = fsl_compare__new(&o, &err);
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK_EQ(fsl_compare__run(c, traces, 1), 0);
	CHECK_EQ(fsl_compare__window(c, 0, 0, &t0, &t1), 0);
	CHECK_U64(t0, ORIGIN);
	CHECK_U64(t1, 2000000000ull);
	/* an empty phase has no window, so no cause */
	CHECK_EQ(fsl_compare__window(c, 1, 0, &t0, &t1), -ENOENT);
	fsl_compare__free(c);
}

/* ---- the difference, on synthetic traces with known answers ---- */

#include <math.h>
#include "fslens/trace.h"

#define S0	1000000000ull
#define MS	1000000ull
#define DEV	FSL_MKDEV(7, 0)

struct tw {
	struct fsl_writer *w;
	int err;
};

static void tw_ev(struct tw *t, void *ev, unsigned int type, size_t size, uint64_t ts, uint32_t pid)
{
	struct fsl_hdr *h = ev;

	h->ts = ts;
	h->pid = pid;
	h->tid = pid;
	h->type = type;
	h->size = size;
	if (!t->err)
		t->err = fsl_writer__event(t->w, h);
}

/*
 * One phase "p" of one thread (the recorded command, pid 100) from S0 to
 * S0 + wall: on a CPU oncpu, runnable runq, and blocked in one wait for
 * journal log space of the rest; ncommits commits with logged blocks in
 * all, handles of ext4_dirty_inode dirtying dirtied blocks; a checkpoint by
 * the thread writing chp inode-table blocks home. The filesystem: 8 groups
 * of 1 KiB blocks with their tables where the group tables say.
 */
static int synth(const char *path, const char *atime, uint64_t wall, uint64_t oncpu, uint64_t runq,
		 unsigned int ncommits, uint32_t logged, uint32_t dirtied, unsigned int chp)
{
	char frames_s[][48] = { "__schedule", "schedule", "io_schedule", "__flush_batch",
				"jbd2_log_do_checkpoint", "__jbd2_log_wait_for_space",
				"add_transaction_credits", "start_this_handle",
				"jbd2__journal_start", "ext4_dirty_inode" };
	char *frames[10];
	struct fsl_stack st = { 1, 10, frames };
	struct fsl_writer_opts wo = { .force = 1, .no_compress = 1 };
	char ph[1100];
	struct tw t = { 0 };
	uint64_t blocked = wall - oncpu - runq, ts;
	unsigned int i;
	FILE *f;
	int e;

	for (i = 0; i < 10; i++)
		frames[i] = frames_s[i];
	t.w = fsl_writer__open(path, &wo, &e);
	if (!t.w)
		return e;
	fsl_writer__kv(t.w, FSL_KV_HZ, "250");
	fsl_writer__kv(t.w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(t.w, FSL_KV_DEV, "%u", DEV);
	fsl_writer__kv(t.w, FSL_KV_DISK, "%u", DEV);
	fsl_writer__kv(t.w, FSL_KV_MOUNT, "/mnt");
	fsl_writer__kv(t.w, FSL_KV_ROOT_PID, "100");
	fsl_writer__kv(t.w, FSL_KV_START_NS, "%llu", S0);
	fsl_writer__kv(t.w, FSL_KV_END_NS, "%llu", S0 + wall + 1);
	fsl_writer__kv(t.w, FSL_KV_EXT4_BLOCK_SIZE, "1024");
	fsl_writer__kv(t.w, FSL_KV_EXT4_BLOCKS_COUNT, "65536");
	fsl_writer__kv(t.w, FSL_KV_EXT4_BLOCKS_PER_GROUP, "8192");
	fsl_writer__kv(t.w, FSL_KV_EXT4_INODES_PER_GROUP, "2048");
	fsl_writer__kv(t.w, FSL_KV_EXT4_GROUP_COUNT, "8");
	fsl_writer__kv(t.w, FSL_KV_EXT4_FIRST_DATA_BLOCK, "1");
	fsl_writer__kv(t.w, FSL_KV_EXT4_INODE_SIZE, "256");
	fsl_writer__kv(t.w, FSL_KV_EXT4_INODE_BLOCKS_PER_GROUP, "512");
	fsl_writer__kv(t.w, FSL_KV_EXT4_GROUP_BLOCK_BITMAP, "3,4,5,6,7,8,9,10");
	fsl_writer__kv(t.w, FSL_KV_EXT4_GROUP_INODE_BITMAP, "11,12,13,14,15,16,17,18");
	fsl_writer__kv(t.w, FSL_KV_EXT4_GROUP_INODE_TABLE, "19,531,1043,1555,2067,2579,3091,3603");
	fsl_writer__stack(t.w, &st);
	fsl_writer__sym(t.w, 0xffffffff81000100ull, "ext4_dirty_inode+0x34");
	{
		struct fsl_ev_proc p = { .ppid = 1, .kind = FSL_PROC_SEEN, .comm = "wl" };

		tw_ev(&t, &p, FSL_EV_PROC, sizeof(p), S0, 100);
	}
	/* the wait, and the thread's account at its end */
	{
		struct fsl_ev_offcpu o = { .dur_ns = blocked, .stack_id = 1,
					   .state = FSL_OFFCPU_UNINTERRUPTIBLE };
		struct fsl_ev_tasktime tt = { .first_ts = S0, .oncpu_ns = oncpu, .runq_ns = runq,
					      .blocked_ns = blocked, .flags = FSL_TASKTIME_EXIT,
					      .last_state = FSL_TT_ONCPU, .last_since = S0 + wall - 1 };

		tw_ev(&t, &o, FSL_EV_OFFCPU, sizeof(o), S0 + 10 * MS, 100);
		tw_ev(&t, &tt, FSL_EV_TASKTIME, sizeof(tt), S0 + wall, 100);
	}
	/* handles of ext4_dirty_inode, all in the first transaction */
	for (i = 0; i < 4; i++) {
		struct fsl_ev_ext4_journal_start js = { .dev = DEV, .ip = 0xffffffff81000100ull,
							.type = 1 };
		struct fsl_ev_jbd2_handle_start hs = { .dev = DEV, .tid = 1, .type = 1,
						       .line_no = 6620 };
		struct fsl_ev_jbd2_handle_stats hst = { .dev = DEV, .tid = 1, .type = 1,
							.line_no = 6620,
							.dirtied_blocks = dirtied / 4 };

		ts = S0 + (20 + i) * MS;
		tw_ev(&t, &js, FSL_EV_EXT4_JOURNAL_START_INODE, sizeof(js), ts, 100);
		tw_ev(&t, &hs, FSL_EV_JBD2_HANDLE_START, sizeof(hs), ts + 1000, 100);
		tw_ev(&t, &hst, FSL_EV_JBD2_HANDLE_STATS, sizeof(hst), ts + 2000, 100);
	}
	/* the commits, each with its share of the logged blocks */
	for (i = 0; i < ncommits; i++) {
		struct fsl_ev_jbd2_commit c = { .dev = DEV, .transaction = i + 1 };
		struct fsl_ev_jbd2_run_stats rs = { .dev = DEV, .tid = i + 1, .handle_count = 1,
						    .blocks = logged / ncommits,
						    .blocks_logged = logged / ncommits };

		ts = S0 + 100 * MS + i * MS;
		tw_ev(&t, &c, FSL_EV_JBD2_START_COMMIT, sizeof(c), ts, 300);
		tw_ev(&t, &c, FSL_EV_JBD2_END_COMMIT, sizeof(c), ts + 500000, 300);
		tw_ev(&t, &rs, FSL_EV_JBD2_RUN_STATS, sizeof(rs), ts + 600000, 300);
	}
	/* a checkpoint by the thread: chp inode-table blocks of group 0 written home */
	if (chp) {
		struct fsl_ev_jbd2_checkpoint cp = { .dev = DEV, .result = 1 };
		struct fsl_ev_jbd2_checkpoint_stats cs = { .dev = DEV, .tid = 1, .written = chp };

		ts = S0 + 200 * MS;
		tw_ev(&t, &cp, FSL_EV_JBD2_CHECKPOINT, sizeof(cp), ts, 100);
		for (i = 0; i < chp; i++) {
			struct fsl_ev_block_rq rq = { .dev = DEV, .nr_sector = 2,
						      .sector = (uint64_t)(19 + 2 * i) * 2,
						      .bytes = 1024, .flags = FSL_RQ_WRITE,
						      .rq = 0x1000 + i };

			tw_ev(&t, &rq, FSL_EV_BLOCK_RQ_ISSUE, sizeof(rq), ts + (i + 1) * 1000, 100);
			tw_ev(&t, &rq, FSL_EV_BLOCK_RQ_COMPLETE, sizeof(rq), ts + (i + 1) * 1000 + 500,
			      100);
		}
		tw_ev(&t, &cs, FSL_EV_JBD2_CHECKPOINT_STATS, sizeof(cs), ts + 10 * MS, 100);
	}
	e = t.err ? t.err : fsl_writer__close(t.w);
	if (t.err)
		fsl_writer__abort(t.w);
	if (e)
		return e;
	fsl_phases_path(ph, sizeof(ph), path);
	f = fopen(ph, "w");
	if (!f)
		return -errno;
	fprintf(f, "# fslens phases 1\nscenario synth\nscale small\nparam blocksize=1024\n"
		"param atime=%s\nphase 1 p %llu %llu 1000 0\n", atime, S0, S0 + wall);
	return fclose(f) ? -EIO : 0;
}

static char *run_compare(const char *const *traces, unsigned int n, int json)
{
	struct fsl_compare_opts o = { .causes = 1 };
	struct fsl_compare *c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err = 0;

	c = fsl_compare__new(&o, &err);
	if (!c)
		return NULL;
	if (fsl_compare__run(c, traces, n)) {
		fprintf(stderr, "%s\n", fsl_compare__error(c));
		fsl_compare__free(c);
		return NULL;
	}
	f = open_memstream(&buf, &len);
	if (f) {
		if (json)
			fsl_compare__json(c, f);
		else
			fsl_compare__text(c, f);
		fclose(f);
	}
	fsl_compare__free(c);
	return buf;
}

/* The text with each run of blanks and newlines as one space (sentences are wrapped). */
static void squeeze(char *s)
{
	char *o = s, *start = s;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n') {
			if (o == start || o[-1] != ' ')
				*o++ = ' ';
			continue;
		}
		*o++ = *s;
	}
	*o = 0;
}

/*
 * noatime: 1 s = 0.6 on CPU, 0.1 runnable, 0.3 waiting for log space; 2
 * commits, 100 blocks. strictatime: 1.5 s = 0.6 + 0.1 + 0.8; 12 commits,
 * 26,100 blocks, 26,000 of them dirtied by ext4_dirty_inode, a checkpoint
 * writing 40 inode-table blocks. The difference: +0.5 s, all of it log
 * space, explained by the commits, the journal blocks and the checkpoint.
 */
TEST(compare_decomposition_known)
{
	char a[1024], b[1024], *txt, *js;
	const char *traces[2];

	snprintf(a, sizeof(a), "%s", t_path("noatime.trace"));
	snprintf(b, sizeof(b), "%s", t_path("strict.trace"));
	REQUIRE(synth(a, "noatime", 1000 * MS, 600 * MS, 100 * MS, 2, 100, 100, 0) == 0);
	REQUIRE(synth(b, "strictatime", 1500 * MS, 600 * MS, 100 * MS, 12, 26100, 26000, 40) == 0);
	traces[0] = a;
	traces[1] = b;
	txt = run_compare(traces, 2, 0);
	REQUIRE(txt);
	squeeze(txt);
	CHECK(strstr(txt, "p: atime=strictatime is 0.50 s slower than atime=noatime (1.50 s vs "
			  "1.00 s): +10 commits, +26,000 journal blocks, 100% inode-table blocks "
			  "dirtied by ext4_dirty_inode (atime updates) and +40 blocks written home "
			  "by checkpoints; the tasks waited 0.50 s more for journal log space "
			  "(checkpoint).") || (fprintf(stderr, "%s\n", txt), 0));
	/* the parts: log space +0.5, on CPU and runnable unchanged */
	CHECK(strstr(txt, "blocked:journal_log_space 0.300 0.800 +0.500") != NULL);
	CHECK(strstr(txt, "on_cpu 0.600 0.600 +0.000") != NULL);
	free(txt);
	js = run_compare(traces, 2, 1);
	REQUIRE(js);
	squeeze(js);
	CHECK(strstr(js, "\"delta_s\": 0.5") != NULL);
	CHECK(strstr(js, "\"part\": \"blocked:journal_log_space\", \"base_s\": 0.3, \"seconds\": 0.8, "
			 "\"delta_s\": 0.5") != NULL || (fprintf(stderr, "%s\n", js), 0));
	CHECK(strstr(js, "\"name\": \"commits\", \"base\": 2, \"value\": 12, \"delta\": 10, "
			 "\"explains\": \"blocked:journal_log_space\", \"contribution_s\": 0.5, "
			 "\"detail\": \"unknown +10\"") != NULL);
	CHECK(strstr(js, "\"checkpoint_by_class\": { \"other\": 0, \"superblock\": 0, "
			 "\"block_bitmap\": 0, \"inode_bitmap\": 0, \"inode_table\": 40") != NULL);
	free(js);
}

/* A trace against itself: no difference, no mechanism, no part that moved. */
TEST(compare_self_no_difference)
{
	char a[1024], *txt, *js;
	const char *traces[2];

	snprintf(a, sizeof(a), "%s", t_path("s.trace"));
	REQUIRE(synth(a, "strictatime", 1500 * MS, 600 * MS, 100 * MS, 12, 26100, 26000, 40) == 0);
	traces[0] = traces[1] = a;
	txt = run_compare(traces, 2, 0);
	REQUIRE(txt);
	squeeze(txt);
	CHECK(strstr(txt, "p: no difference between s.trace run 1 (#2) and s.trace run 1 (#1).") ||
	      (fprintf(stderr, "%s\n", txt), 0));
	CHECK(strstr(txt, "mechanisms that moved") == NULL);
	free(txt);
	js = run_compare(traces, 2, 1);
	REQUIRE(js);
	squeeze(js);
	CHECK(strstr(js, "\"delta_s\": 0, \"same\": true, \"slower\": null") != NULL ||
	      (fprintf(stderr, "%s\n", js), 0));
	CHECK(strstr(js, "\"mechanisms\": [ ]") != NULL || strstr(js, "\"mechanisms\": []") != NULL);
	free(js);
}

#include "../../analyzer/report/compare_int.h"

/*
 * With on-CPU time split by CPU class (a provider filled the windows'
 * tables), the difference is split by class too: 0.3 + 0.2 s on CPU against
 * 0.7 + 0.2 s is +0.4 s of dir_entry_scan, nothing of htree_probe.
 */
TEST(compare_oncpu_by_class)
{
	static struct cmp_cell a, b;
	static struct cmp_diff d;
	unsigned int k, found = 0;

	a.present = b.present = 1;
	a.secs = 1.0;
	b.secs = 1.4;
	a.have_whole = b.have_whole = 1;
	a.wt.threads = b.wt.threads = 1;
	a.wt.oncpu_ns = 500 * MS;
	a.wt.sleep_ns = 500 * MS;
	b.wt.oncpu_ns = 900 * MS;
	b.wt.sleep_ns = 500 * MS;
	a.wt.ncpu = b.wt.ncpu = 2;
	snprintf(a.wt.cpu_cls[0].id, 24, "dir_entry_scan");
	snprintf(a.wt.cpu_cls[1].id, 24, "htree_probe");
	b.wt.cpu_cls[0] = a.wt.cpu_cls[0];
	b.wt.cpu_cls[1] = a.wt.cpu_cls[1];
	/* samples stand for the on-CPU time in proportion: 3:2 and 7:2 */
	a.wt.cpu_cls[0].ns = 3;
	a.wt.cpu_cls[1].ns = 2;
	a.wt.cpu_sampled_ns = 5;
	b.wt.cpu_cls[0].ns = 7;
	b.wt.cpu_cls[1].ns = 2;
	b.wt.cpu_sampled_ns = 9;
	cmp_diff(&a, &b, "p", "A", "B", "", &d);
	CHECK_NEAR(d.delta, 0.4, 1e-9);
	REQUIRE(d.nparts >= 3);
	CHECK_STR(d.parts[0].id, "on_cpu:dir_entry_scan");
	CHECK_NEAR(d.parts[0].delta, 0.4, 1e-9);
	for (k = 0; k < d.nparts; k++)
		if (!strcmp(d.parts[k].id, "on_cpu:htree_probe")) {
			found = 1;
			CHECK_NEAR(d.parts[k].delta, 0, 1e-9);
		}
	CHECK(found);
	CHECK(strstr(d.sentence, "p: B is 0.40 s slower than A (1.40 s vs 1.00 s); the tasks ran "
				 "0.40 s more on a CPU in dir_entry_scan.") ||
	      (fprintf(stderr, "%s\n", d.sentence), 0));
}

/*
 * Two lookup phases, one waiter each, on htrees of 2 and 3 levels (124 and
 * 135 index blocks): their seconds, on-CPU time and directory-read waits.
 */
static void htree_cells(struct cmp_cell *a, struct cmp_cell *b, double secs_a, double secs_b,
			uint64_t cpu_a, uint64_t cpu_b, uint64_t read_a, uint64_t read_b)
{
	a->present = b->present = 1;
	a->secs = secs_a;
	b->secs = secs_b;
	a->have_whole = b->have_whole = 1;
	a->have_htree = b->have_htree = 1;
	a->htree.levels = 2;
	b->htree.levels = 3;
	a->htree.index_blocks = 124;
	b->htree.index_blocks = 135;
	a->wt.threads = b->wt.threads = 1;
	a->wt.oncpu_ns = cpu_a;
	b->wt.oncpu_ns = cpu_b;
	a->wt.cls_ns[FSL_WC_DIR_BLOCK_READ] = a->wt.blocked_ns = read_a;
	b->wt.cls_ns[FSL_WC_DIR_BLOCK_READ] = b->wt.blocked_ns = read_b;
}

/* The htree_levels mechanism of d, or NULL. */
static const struct cmp_mech *htree_levels(const struct cmp_diff *d)
{
	unsigned int k;

	for (k = 0; k < d->nmech; k++)
		if (!strcmp(d->mech[k].name, "htree_levels"))
			return &d->mech[k];
	return NULL;
}

/*
 * A mechanism is tied to the parts of its own code: the htree's extra level
 * explains the directory-block reads (or the htree's CPU), not the block
 * layer's CPU that grew more (live/compare_createmany saw "on_cpu:cpu_block"
 * when any CPU class stood for the directory's CPU).
 */
TEST(compare_mechanism_own_parts)
{
	static struct cmp_cell a, b;
	static struct cmp_diff d;
	const struct cmp_mech *m;

	htree_cells(&a, &b, 1.0, 1.5, 500 * MS, 800 * MS, 500 * MS, 700 * MS);
	a.wt.ncpu = b.wt.ncpu = 2;
	snprintf(a.wt.cpu_cls[0].id, 24, "cpu_block");
	snprintf(a.wt.cpu_cls[1].id, 24, "cpu_htree");
	b.wt.cpu_cls[0] = a.wt.cpu_cls[0];
	b.wt.cpu_cls[1] = a.wt.cpu_cls[1];
	a.wt.cpu_cls[0].ns = 4;		/* 0.4 s -> 0.7 s of block layer */
	a.wt.cpu_cls[1].ns = 1;		/* 0.1 s -> 0.1 s of htree */
	a.wt.cpu_sampled_ns = 5;
	b.wt.cpu_cls[0].ns = 7;
	b.wt.cpu_cls[1].ns = 1;
	b.wt.cpu_sampled_ns = 8;
	cmp_diff(&a, &b, "lookup", "A", "B", "", &d);
	m = htree_levels(&d);
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->part, "blocked:dir_block_read");
		CHECK_NEAR(m->contribution, 0.2, 1e-6);
	}
}

/*
 * A mechanism explains only a part that moved its way: B's extra htree level
 * with B's directory-block reads 20 ms shorter (live/compare_createmany, a
 * quiet run) is named with no time, not as the cause of 20 ms less, and the
 * sentence on A's longer reads does not blame it; B's htree CPU that grew
 * is the part it explains when that moved.
 */
TEST(compare_mechanism_part_moved_its_way)
{
	static struct cmp_cell a, b;
	static struct cmp_diff d;
	const struct cmp_mech *m;

	/* B 0.98 s: the 20 ms of reads B did not wait */
	htree_cells(&a, &b, 1.0, 0.98, 500 * MS, 500 * MS, 500 * MS, 480 * MS);
	cmp_diff(&a, &b, "lookup", "A", "B", "", &d);
	m = htree_levels(&d);
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->part, "blocked:dir_block_read");
		CHECK_NEAR(m->contribution, 0, 1e-9);
	}
	/* A, the slower, waited longer for the reads: the htree is not why */
	CHECK_STR(d.sentence, "lookup: A is 0.02 s slower than B (1.00 s vs 0.98 s); the tasks "
		  "waited 0.02 s more for directory block read.");

	/* the htree's CPU grew by 0.1 s: that is the part the level explains */
	a.wt.ncpu = b.wt.ncpu = 1;
	snprintf(a.wt.cpu_cls[0].id, 24, "cpu_htree");
	b.wt.cpu_cls[0] = a.wt.cpu_cls[0];
	a.wt.cpu_cls[0].ns = b.wt.cpu_cls[0].ns = 5;	/* every sample in the htree */
	a.wt.cpu_sampled_ns = b.wt.cpu_sampled_ns = 5;
	a.wt.oncpu_ns = 500 * MS;
	b.wt.oncpu_ns = 600 * MS;
	b.secs = 1.08;
	memset(&d, 0, sizeof(d));
	cmp_diff(&a, &b, "lookup", "A", "B", "", &d);
	m = htree_levels(&d);
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->part, "on_cpu:cpu_htree");
		CHECK_NEAR(m->contribution, 0.1, 1e-6);
	}
}

/*
 * The slower one's reason, then what the faster one lost to a mechanism of
 * its own (live/compare_createmany in CI: large_dir=0 slower on inode-table
 * reads, large_dir=1's extra htree level costing it 30 ms of directory-block
 * reads the sentence did not tell).
 */
TEST(compare_sentence_against_that)
{
	static struct cmp_cell a, b;
	static struct cmp_diff d;
	const struct cmp_mech *m;

	htree_cells(&a, &b, 1.0, 0.95, 500 * MS, 500 * MS, 300 * MS, 330 * MS);
	a.wt.cls_ns[FSL_WC_INODE_TABLE_READ] = 200 * MS;
	b.wt.cls_ns[FSL_WC_INODE_TABLE_READ] = 120 * MS;
	a.wt.blocked_ns += 200 * MS;
	b.wt.blocked_ns += 120 * MS;
	cmp_diff(&a, &b, "lookup", "A", "B", "", &d);
	m = htree_levels(&d);
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->part, "blocked:dir_block_read");
		CHECK_NEAR(m->contribution, 0.03, 1e-6);
	}
	CHECK_STR(d.sentence, "lookup: A is 0.05 s slower than B (1.00 s vs 0.95 s); the tasks "
		  "waited 0.08 s more for inode table read; against that, B waited 0.03 s more "
		  "for directory block read: htree 3 levels vs 2.");
}

/*
 * A mechanism whose part the slower one spent less time in is not its
 * reason: B slower on the block layer's CPU with an extra htree level but
 * 20 ms less of directory-block reads (live/compare_createmany told "htree
 * 3 levels vs 2" as B's reason).
 */
TEST(compare_sentence_not_a_part_that_shrank)
{
	static struct cmp_cell a, b;
	static struct cmp_diff d;

	htree_cells(&a, &b, 1.0, 1.1, 500 * MS, 620 * MS, 500 * MS, 480 * MS);
	a.wt.ncpu = b.wt.ncpu = 1;
	snprintf(a.wt.cpu_cls[0].id, 24, "cpu_block");
	b.wt.cpu_cls[0] = a.wt.cpu_cls[0];
	a.wt.cpu_cls[0].ns = b.wt.cpu_cls[0].ns = 5;
	a.wt.cpu_sampled_ns = b.wt.cpu_sampled_ns = 5;
	cmp_diff(&a, &b, "lookup", "A", "B", "", &d);
	CHECK(htree_levels(&d) != NULL);
	CHECK_STR(d.sentence, "lookup: B is 0.10 s slower than A (1.10 s vs 1.00 s); the tasks "
		  "ran 0.12 s more on a CPU in cpu_block.");
}

/*
 * The inode-to-data distance is a mechanism (XFS's aging, ext4's spread):
 * run 2's inodes four times farther from their data, its reads waiting
 * 0.3 s more, are named, tied to those reads and told in the sentence.
 */
TEST(compare_inode_distance_mechanism)
{
	static struct cmp_cell a, b;
	static struct cmp_diff d;
	unsigned int k;
	int found = 0;

	a.present = b.present = 1;
	a.secs = 1.0;
	b.secs = 1.3;
	a.have_whole = b.have_whole = 1;
	a.wt.threads = b.wt.threads = 1;
	a.wt.oncpu_ns = b.wt.oncpu_ns = 500 * MS;
	a.wt.cls_ns[FSL_WC_PAGE_WAIT] = 500 * MS;
	b.wt.cls_ns[FSL_WC_PAGE_WAIT] = 800 * MS;
	a.wt.blocked_ns = 500 * MS;
	b.wt.blocked_ns = 800 * MS;
	a.have_idist = b.have_idist = 1;
	a.id_files = b.id_files = 1000;
	a.id_mean_sectors = 2400;
	b.id_mean_sectors = 9600;
	cmp_diff(&a, &b, "read", "run 1", "run 2", "", &d);
	for (k = 0; k < d.nmech; k++)
		if (!strcmp(d.mech[k].name, "inode_data_distance_sectors")) {
			found = 1;
			CHECK_STR(d.mech[k].part, "blocked:page_wait");
			CHECK_NEAR(d.mech[k].delta, 7200, 1e-6);
		}
	CHECK(found);
	CHECK(strstr(d.sentence, "inodes 9,600 vs 2,400 sectors from their data") ||
	      (fprintf(stderr, "%s\n", d.sentence), 0));
	/* XFS's figure (the phase's files) is used when both have it */
	memset(&d, 0, sizeof(d));
	a.have_xfs = b.have_xfs = 1;
	a.xd_files = b.xd_files = 10;
	a.xd_mean_sectors = b.xd_mean_sectors = 5000;
	cmp_diff(&a, &b, "read", "run 1", "run 2", "", &d);
	for (k = 0; k < d.nmech; k++)
		CHECK(strcmp(d.mech[k].name, "inode_data_distance_sectors") != 0);
}
