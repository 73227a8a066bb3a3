// SPDX-License-Identifier: GPL-2.0
/* Stalls: wait classes, workload vs kernel threads, windows, timeline. */
#include "an_fixture.h"
#include "t.h"

#define MS 1000000ull
#define S0 1000000000ull	/* record.start_ns of the fixtures */

static void stall_meta(struct fx_meta *f)
{
	fx_init(f);
	fx_set(f, "record.root_pid", "100");
	fx_set(f, "record.start_ns", "1000000000");
	fx_stack_add(f, 1, "__schedule, schedule, io_schedule, blk_mq_get_tag, "
			   "__blk_mq_alloc_requests, blk_mq_submit_bio, __submit_bio, "
			   "__flush_batch, jbd2_log_do_checkpoint, __jbd2_log_wait_for_space, "
			   "add_transaction_credits, start_this_handle, jbd2__journal_start, "
			   "__ext4_new_inode, ext4_mkdir");
	fx_stack_add(f, 2, "__schedule, schedule, wait_transaction_locked, "
			   "add_transaction_credits, start_this_handle, jbd2__journal_start, "
			   "__ext4_new_inode, ext4_mkdir");
	fx_stack_add(f, 3, "__schedule, schedule, io_schedule, bit_wait_io, "
			   "jbd2_journal_commit_transaction, kjournald2, kthread, ret_from_fork");
	fx_stack_add(f, 4, "__schedule, io_schedule, bit_wait_io, ext4_read_bh, ext4_bread, "
			   "__ext4_read_dirblock, ext4_dx_find_entry, __ext4_find_entry, ext4_lookup");
}

/* xargs (100) -> mkdir (101); bash (200) unrelated; jbd2 (300) kernel thread. */
static void feed_basic(struct fsl_analysis *a)
{
	CHECK_EQ(fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "xargs"), 0);
	CHECK_EQ(fx_proc(a, S0, 200, 1, FSL_PROC_SEEN, 0, "bash"), 0);
	CHECK_EQ(fx_proc(a, S0, 300, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop0-8"), 0);
	CHECK_EQ(fx_proc(a, S0 + 1, 101, 100, FSL_PROC_FORK, 0, "mkdir"), 0);
	CHECK_EQ(fx_offcpu(a, S0 + 0, 101, 900 * MS, 1), 0);	/* ends 1.9 s */
	CHECK_EQ(fx_offcpu(a, S0 + 500 * MS, 300, 400 * MS, 3), 0);	/* ends 1.9 s */
	CHECK_EQ(fx_offcpu(a, S0 + 1000 * MS, 101, 100 * MS, 2), 0);	/* ends 2.1 s */
	CHECK_EQ(fx_offcpu(a, S0 + 1200 * MS, 200, 50 * MS, 4), 0);	/* ends 2.25 s */
}

TEST(stalls_shares_by_role)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_stalls *s;
	struct fsl_ev_offcpu ev;
	int err = 0;

	stall_meta(&f);
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	feed_basic(a);
	/* An interruptible sleep is not blocked time. */
	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_OFFCPU, sizeof(ev), S0 + 3000 * MS, 101, 101);
	ev.dur_ns = 5000 * MS;
	ev.stack_id = 2;
	ev.state = 1;
	CHECK_EQ(fsl_analysis__feed(a, &ev.hdr), 0);

	s = fsl_analysis__stalls(a);
	REQUIRE(s);
	CHECK_U64(s->waits, 4);
	CHECK_U64(s->ns[FSL_ROLE_WORKLOAD], 1000 * MS);
	CHECK_U64(s->ns[FSL_ROLE_KTHREAD], 400 * MS);
	CHECK_U64(s->ns[FSL_ROLE_OTHER], 50 * MS);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].ns[FSL_ROLE_WORKLOAD], 900 * MS);
	CHECK_U64(s->cls[FSL_WC_TXN_LOCKED].ns[FSL_ROLE_WORKLOAD], 100 * MS);
	CHECK_U64(s->cls[FSL_WC_OTHER_IO].ns[FSL_ROLE_KTHREAD], 400 * MS);
	CHECK_U64(s->cls[FSL_WC_DIR_BLOCK_READ].ns[FSL_ROLE_OTHER], 50 * MS);
	CHECK_U64(s->cls[FSL_WC_DIR_BLOCK_READ].ns[FSL_ROLE_WORKLOAD], 0);
	CHECK_EQ(s->cls[FSL_WC_JOURNAL_LOG_SPACE].top_stack[0], 1);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].top_stack_ns[0], 900 * MS);
	CHECK_STR(s->cls[FSL_WC_JOURNAL_LOG_SPACE].top_comm[0], "mkdir");
	CHECK_EQ(s->cls[FSL_WC_JOURNAL_LOG_SPACE].top_stack[1], -1);
	/* Timeline: bins of 10 ms from record.start_ns, each wait over the bins it spans. */
	CHECK_U64(s->tb.t0, S0);
	CHECK_U64(s->tb.width_ns, 10 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][0], 10 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][89], 10 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][90], 0);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][99], 0);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][100], 10 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][109], 10 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][110], 0);
	fsl_analysis__free(a);
}

TEST(stalls_no_root_means_all_user_tasks)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_stalls *s;

	stall_meta(&f);
	f.nkv = 0;	/* no record.root_pid */
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, NULL);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	feed_basic(a);
	/* A task with no proc record whose stack runs from kthread() is a kernel thread. */
	CHECK_EQ(fx_offcpu(a, S0 + 1300 * MS, 777, 30 * MS, 3), 0);
	s = fsl_analysis__stalls(a);
	CHECK_U64(s->ns[FSL_ROLE_WORKLOAD], 1050 * MS);
	CHECK_U64(s->ns[FSL_ROLE_KTHREAD], 430 * MS);
	CHECK_U64(s->ns[FSL_ROLE_OTHER], 0);
	fsl_analysis__free(a);
}

TEST(stalls_window_by_end_time)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_stalls *s;
	const struct fsl_proc_stat *ps;
	unsigned int n;

	stall_meta(&f);
	/* [2.0 s, 2.2 s): only the 100 ms txn_locked wait ends inside. */
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1, .t0 = S0 + 1000 * MS,
							  .t1 = S0 + 1200 * MS }, NULL);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	feed_basic(a);
	s = fsl_analysis__stalls(a);
	CHECK_U64(s->waits, 1);
	CHECK_U64(s->ns[FSL_ROLE_WORKLOAD], 100 * MS);
	CHECK_U64(s->cls[FSL_WC_TXN_LOCKED].ns[FSL_ROLE_WORKLOAD], 100 * MS);
	/* the window's own time base: the wait over its first ten bins */
	CHECK_U64(s->tb.t0, S0 + 1000 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][0], 10 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][9], 10 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][10], 0);
	n = fsl_analysis__procs(a, &ps);
	CHECK_EQ(n, 1);
	CHECK_EQ(ps[0].pid, 101);
	CHECK_STR(ps[0].comm, "mkdir");
	CHECK_U64(ps[0].ns[FSL_WC_TXN_LOCKED], 100 * MS);

	/* top's step: a new window keeps the task table. */
	fsl_analysis__reset(a, S0 + 2000 * MS, 0);
	CHECK_EQ(fx_offcpu(a, S0 + 2500 * MS, 101, 20 * MS, 1), 0);
	s = fsl_analysis__stalls(a);
	CHECK_U64(s->waits, 1);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].ns[FSL_ROLE_WORKLOAD], 20 * MS);
	CHECK_U64(s->cls[FSL_WC_TXN_LOCKED].ns[FSL_ROLE_WORKLOAD], 0);
	fsl_analysis__free(a);
}

TEST(stalls_timeline_folds)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_stalls *s;
	uint64_t sum = 0;
	unsigned int i;

	stall_meta(&f);
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, NULL);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	CHECK_EQ(fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "xargs"), 0);
	/* 1 ms waits ending every 100 ms for 10 s: 240 x 10 ms bins fold to 80 ms, then 160 ms */
	for (i = 0; i < 100; i++)
		CHECK_EQ(fx_offcpu(a, S0 + i * 100 * MS, 100, 1 * MS, 2), 0);
	s = fsl_analysis__stalls(a);
	CHECK_U64(s->tb.width_ns, 80 * MS);
	for (i = 0; i < FSL_SERIES_BINS; i++)
		sum += s->series[FSL_WC_TXN_LOCKED][i];
	CHECK_U64(sum, 100 * MS);
	/* waits at 0.000, 0.100, ... 0.700 s: the first 80 ms bin holds one (0.000 s) */
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][0], 1 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][1], 1 * MS);	/* 0.101 */
	CHECK_EQ(s->tb.nbins, 9901 / 80 + 1);
	fsl_analysis__free(a);
}

/*
 * xargs (the workload) waits 5 .. 47 ms on log space and 100 ms .. 1.3 s on
 * a locked transaction; the analysis over [t0, t1) (0, 0: the whole).
 */
static struct fsl_analysis *two_waits(struct fx_meta *f, uint64_t t0, uint64_t t1)
{
	struct fsl_analysis *a;

	stall_meta(f);
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1, .t0 = t0, .t1 = t1 },
			      NULL);
	if (!a || fsl_analysis__begin(a, &f->m) ||
	    fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "xargs") ||
	    fx_offcpu(a, S0 + 5 * MS, 100, 42 * MS, 1) ||
	    fx_offcpu(a, S0 + 100 * MS, 100, 1200 * MS, 2)) {
		fsl_analysis__free(a);
		return NULL;
	}
	return a;
}

/* Every class's series summed; fails a bin above one thread's time. */
static uint64_t series_sum(const struct fsl_stalls *s)
{
	uint64_t sum = 0, v;
	unsigned int i, c;

	for (i = 0; i < FSL_SERIES_BINS; i++) {
		for (c = 0, v = 0; c < FSL_WC__MAX; c++)
			v += s->series[c][i];
		if (v > s->tb.width_ns)
			t_fail(__FILE__, __LINE__, "bin %u: %" PRIu64 " ns blocked, one thread", i, v);
		sum += v;
	}
	return sum;
}

/*
 * A wait's time goes to the bins it overlaps, not all to the bin where it
 * ends (the window rule applied to bins): one thread is never more than
 * one task blocked in a bin, and the bins add up to the blocked time.
 */
TEST(stalls_timeline_splits_by_overlap)
{
	struct fx_meta f;
	struct fsl_analysis *a = two_waits(&f, 0, 0);
	const struct fsl_stalls *s;

	REQUIRE(a);
	s = fsl_analysis__stalls(a);
	CHECK_U64(s->tb.width_ns, 10 * MS);
	/* 5 ms .. 47 ms: 5 + 10 + 10 + 10 + 7 ms over bins 0..4 */
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][0], 5 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][1], 10 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][3], 10 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][4], 7 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][5], 0);
	/* 100 ms .. 1.3 s: 10 ms in each of bins 10..129 */
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][9], 0);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][10], 10 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][129], 10 * MS);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][130], 0);
	CHECK_EQ(s->tb.nbins, 130);
	CHECK_U64(series_sum(s), s->ns[FSL_ROLE_WORKLOAD]);
	CHECK_U64(series_sum(s), 1242 * MS);
	fsl_analysis__free(a);

	/* A window [30 ms, 1.005 s): only the pieces inside, on the window's bins. */
	a = two_waits(&f, S0 + 30 * MS, S0 + 1005 * MS);
	REQUIRE(a);
	s = fsl_analysis__stalls(a);
	CHECK_U64(s->tb.t0, S0 + 30 * MS);
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][0], 10 * MS);	/* 30..40 ms */
	CHECK_U64(s->series[FSL_WC_JOURNAL_LOG_SPACE][1], 7 * MS);	/* 40..47 ms */
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][6], 0);
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][7], 10 * MS);		/* 100..110 ms */
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][97], 5 * MS);		/* 1.0..1.005 s */
	CHECK_U64(s->series[FSL_WC_TXN_LOCKED][98], 0);
	CHECK_U64(series_sum(s), s->ns[FSL_ROLE_WORKLOAD]);
	CHECK_U64(series_sum(s), (17 + 905) * MS);
	fsl_analysis__free(a);
}

/*
 * Per process, per class: the stack that process was blocked on longest in
 * the window, not the class's costliest over all tasks; ties to the lower id.
 */
TEST(stalls_proc_stack_per_class)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_stalls *s;
	uint64_t ns = 1;

	stall_meta(&f);
	/* a second journal_log_space stack, from unlink */
	fx_stack_add(&f, 5, "__schedule, schedule, __jbd2_log_wait_for_space, "
			   "add_transaction_credits, start_this_handle, jbd2__journal_start, "
			   "__ext4_unlink, ext4_unlink");
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, NULL);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	feed_basic(a);			/* 101 mkdir: 900 ms on stack 1 */
	CHECK_EQ(fx_proc(a, S0 + 2, 102, 100, FSL_PROC_FORK, 0, "rm"), 0);
	CHECK_EQ(fx_proc(a, S0 + 3, 103, 100, FSL_PROC_FORK, 0, "rm"), 0);
	CHECK_EQ(fx_offcpu(a, S0 + 2000 * MS, 102, 300 * MS, 5), 0);
	CHECK_EQ(fx_offcpu(a, S0 + 2400 * MS, 102, 100 * MS, 1), 0);
	CHECK_EQ(fx_offcpu(a, S0 + 2600 * MS, 103, 50 * MS, 5), 0);
	CHECK_EQ(fx_offcpu(a, S0 + 2700 * MS, 103, 50 * MS, 1), 0);
	s = fsl_analysis__stalls(a);
	REQUIRE(s);
	CHECK_EQ(fsl_wclass_of_frames((const char *const *)f.m.stack(&f.m, 5)->frames,
				      f.m.stack(&f.m, 5)->nframes, NULL), FSL_WC_JOURNAL_LOG_SPACE);
	/* the class's costliest over all tasks stays stack 1 (900+100+50 ms) */
	CHECK_EQ(s->cls[FSL_WC_JOURNAL_LOG_SPACE].top_stack[0], 1);
	CHECK_U64(s->cls[FSL_WC_JOURNAL_LOG_SPACE].top_stack_ns[0], 1050 * MS);
	CHECK_EQ(fsl_analysis__proc_stack(a, 101, FSL_WC_JOURNAL_LOG_SPACE, &ns), 1);
	CHECK_U64(ns, 900 * MS);
	CHECK_EQ(fsl_analysis__proc_stack(a, 102, FSL_WC_JOURNAL_LOG_SPACE, &ns), 5);
	CHECK_U64(ns, 300 * MS);
	CHECK_EQ(fsl_analysis__proc_stack(a, 103, FSL_WC_JOURNAL_LOG_SPACE, &ns), 1);	/* tie */
	CHECK_U64(ns, 50 * MS);
	CHECK_EQ(fsl_analysis__proc_stack(a, 101, FSL_WC_TXN_LOCKED, &ns), 2);
	CHECK_U64(ns, 100 * MS);
	CHECK_EQ(fsl_analysis__proc_stack(a, 102, FSL_WC_TXN_LOCKED, &ns), -1);
	CHECK_U64(ns, 0);
	CHECK_EQ(fsl_analysis__proc_stack(a, 999, FSL_WC_JOURNAL_LOG_SPACE, NULL), -1);
	CHECK_EQ(fsl_analysis__proc_stack(a, 101, FSL_WC__MAX, NULL), -1);

	/* a new window: only what falls in it */
	fsl_analysis__reset(a, S0 + 3000 * MS, 0);
	CHECK_EQ(fsl_analysis__proc_stack(a, 102, FSL_WC_JOURNAL_LOG_SPACE, NULL), -1);
	CHECK_EQ(fx_offcpu(a, S0 + 3100 * MS, 102, 20 * MS, 1), 0);
	CHECK_EQ(fsl_analysis__proc_stack(a, 102, FSL_WC_JOURNAL_LOG_SPACE, &ns), 1);
	CHECK_U64(ns, 20 * MS);
	fsl_analysis__free(a);
}

static int off_dev(struct fsl_analysis *a, uint64_t ts, uint32_t pid, uint64_t dur, int32_t st,
		   uint32_t wake_dev)
{
	struct fsl_ev_offcpu ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_OFFCPU, sizeof(ev), ts, pid, pid);
	ev.dur_ns = dur;
	ev.stack_id = st;
	ev.state = FSL_OFFCPU_UNINTERRUPTIBLE;
	ev.wake_dev = wake_dev;
	return fsl_analysis__feed(a, &ev.hdr);
}

/*
 * With a target, waits on other filesystems are summed per device and reach
 * no class, stack or process: bash (200) waits only on other disks.
 */
TEST(stalls_other_filesystems_apart)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_stalls *s;
	const struct fsl_proc_stat *ps;
	unsigned int i, n;
	char v[32];
	int err = 0;

	stall_meta(&f);
	snprintf(v, sizeof(v), "%u", FSL_MKDEV(7, 0));
	fx_set(&f, "target.dev", v);
	fx_set(&f, "target.disk", v);
	fx_set(&f, "target.dev_name", "7:0 loop0");
	fx_set(&f, "target.fstype", "ext4");
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	CHECK_EQ(fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "xargs"), 0);
	CHECK_EQ(fx_proc(a, S0, 200, 1, FSL_PROC_SEEN, 0, "bash"), 0);
	CHECK_EQ(fx_proc(a, S0 + 1, 101, 100, FSL_PROC_FORK, 0, "mkdir"), 0);
	CHECK_EQ(off_dev(a, S0, 101, 900 * MS, 1, FSL_MKDEV(7, 0)), 0);
	CHECK_EQ(off_dev(a, S0 + 100 * MS, 200, 30 * MS, 4, FSL_MKDEV(7, 1)), 0);
	CHECK_EQ(off_dev(a, S0 + 200 * MS, 200, 20 * MS, 4, FSL_MKDEV(7, 1)), 0);
	CHECK_EQ(off_dev(a, S0 + 300 * MS, 200, 5 * MS, 4, FSL_MKDEV(254, 0)), 0);
	CHECK_EQ(off_dev(a, S0 + 400 * MS, 200, 7 * MS, 4, 0), 0);	/* bash: its waits went out */
	s = fsl_analysis__stalls(a);
	REQUIRE(s);
	CHECK_U64(s->waits, 1);
	CHECK_U64(s->ns[FSL_ROLE_OTHER], 0);
	CHECK_U64(s->cls[FSL_WC_DIR_BLOCK_READ].ns[FSL_ROLE_OTHER], 0);
	CHECK_U64(s->cls[FSL_WC_DIR_BLOCK_READ].top_stack_ns[0], 0);
	CHECK_U64(s->other_fs.waits, 4);
	CHECK_U64(s->other_fs.ns[FSL_ROLE_OTHER], 62 * MS);
	REQUIRE(s->other_fs.ndev == 3);
	CHECK_EQ(s->other_fs.dev[0].dev, FSL_MKDEV(7, 1));	/* most blocked first */
	CHECK_U64(s->other_fs.dev[0].ns, 50 * MS);
	CHECK_U64(s->other_fs.dev[0].waits, 2);
	CHECK_EQ(s->other_fs.dev[1].dev, 0);
	CHECK_U64(s->other_fs.dev[1].ns, 7 * MS);
	CHECK_EQ(s->other_fs.dev[2].dev, FSL_MKDEV(254, 0));
	n = fsl_analysis__procs(a, &ps);
	for (i = 0; i < n; i++)
		CHECK(ps[i].pid != 200 || !ps[i].blocked_ns);
	fsl_analysis__free(a);
}

/*
 * A bounded process table (opts.max_procs, live top): 5000 short processes,
 * each one wait, leave at most the bound, the rest summed in "(evicted)"
 * with nothing lost; exited ones go first, so the live heavy one stays.
 */
TEST(stalls_procs_bounded)
{
	struct fsl_analysis_opts o = { .root_pid = -1, .max_procs = 64 };
	const struct fsl_proc_stat *p;
	struct fx_meta f;
	struct fsl_analysis *a;
	uint64_t sum = 0, evicted_ns = 0;
	unsigned int n, i, heavy = 0;
	int err = 0;

	stall_meta(&f);
	a = fsl_analysis__new(&o, &err);
	REQUIRE(a);
	CHECK_EQ(fsl_analysis__begin(a, &f.m), 0);
	/* one long-lived process with a heavy wait, never exiting */
	CHECK_EQ(fx_proc(a, S0, 50, 1, FSL_PROC_SEEN, 0, "server"), 0);
	CHECK_EQ(fx_offcpu(a, S0, 50, 500 * MS, 1), 0);
	for (i = 0; i < 5000; i++) {
		uint64_t t = S0 + (i + 1) * MS;

		CHECK_EQ(fx_proc(a, t, 1000 + i, 50, FSL_PROC_FORK, 0, "touch"), 0);
		CHECK_EQ(fx_offcpu(a, t, 1000 + i, 100000, 1), 0);
		CHECK_EQ(fx_proc(a, t + 200000, 1000 + i, 50, FSL_PROC_EXIT, 0, "touch"), 0);
	}

	n = fsl_analysis__procs(a, &p);
	CHECK(n <= 64 + 1);
	CHECK(fsl_analysis__procs_evicted(a) >= 5000 - 64);
	for (i = 0; i < n; i++) {
		sum += p[i].blocked_ns;
		if (p[i].pid == 50)
			heavy = 1;
		if (!p[i].pid && !strcmp(p[i].comm, "(evicted)"))
			evicted_ns = p[i].blocked_ns;
	}
	CHECK(heavy);
	CHECK_U64(sum, 500 * MS + 5000 * 100000ull);
	CHECK_U64(evicted_ns, fsl_analysis__procs_evicted(a) * 100000ull);
	fsl_analysis__free(a);
}
