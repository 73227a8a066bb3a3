// SPDX-License-Identifier: GPL-2.0
/* Whole time: the workload's wall split into on-CPU, runnable, blocked by class, sleep. */
#include <stdio.h>
#include "fslens/report.h"
#include "an_fixture.h"
#include "t.h"

#define MS 1000000ull
#define S0 1000000000ull

static int fx_tasktime(struct fsl_analysis *a, uint64_t first, uint64_t end, uint32_t pid,
		       uint32_t tid, uint64_t oncpu, uint64_t runq, uint64_t blocked,
		       uint64_t sleep, uint32_t flags)
{
	struct fsl_ev_tasktime ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_TASKTIME, sizeof(ev), end, pid, tid);
	ev.first_ts = first;
	ev.oncpu_ns = oncpu;
	ev.runq_ns = runq;
	ev.blocked_ns = blocked;
	ev.sleep_ns = sleep;
	ev.flags = flags;
	return fsl_analysis__feed(a, &ev.hdr);
}

static int fx_wait(struct fsl_analysis *a, uint64_t ts, uint32_t pid, uint64_t dur, uint64_t runq,
		   int32_t stack)
{
	struct fsl_ev_offcpu ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_OFFCPU, sizeof(ev), ts, pid, pid);
	ev.dur_ns = dur;
	ev.runq_ns = runq;
	ev.stack_id = stack;
	ev.state = FSL_OFFCPU_UNINTERRUPTIBLE;
	return fsl_analysis__feed(a, &ev.hdr);
}

/* The text with each run of blanks and newlines as one space (lines are wrapped). */
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

static struct fsl_analysis *setup(struct fx_meta *f)
{
	struct fsl_analysis *a;
	int err = 0;

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
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	if (a && fsl_analysis__begin(a, &f->m))
		return NULL;
	return a;
}

/*
 * Command 100 (a shell waiting 10 s for its child) and its child 101, two
 * threads (101, 102): known parts, waits of 101 with run-queue delays that
 * must count as runnable, not blocked, and 0.3 s of waits too short to be
 * recorded. A task outside the command and a kernel thread are not counted.
 */
TEST(wholetime_split)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup(&f);
	const struct fsl_wholetime *w;
	struct fsl_diagnosis *d = calloc(1, sizeof(*d));
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	REQUIRE(a);
	REQUIRE(d);
	CHECK_EQ(fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "sh"), 0);
	CHECK_EQ(fx_proc(a, S0, 200, 1, FSL_PROC_SEEN, 0, "bash"), 0);
	CHECK_EQ(fx_proc(a, S0, 300, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop0-8"), 0);
	CHECK_EQ(fx_proc(a, S0 + 1, 101, 100, FSL_PROC_FORK, 0, "mkdir"), 0);
	/* journal_log_space: 1.5 s off CPU of which 0.2 s runnable after the wakeup */
	CHECK_EQ(fx_wait(a, S0 + 1000 * MS, 101, 1500 * MS, 200 * MS, 1), 0);
	/* txn_locked: 0.5 s of which 0.1 s runnable */
	CHECK_EQ(fx_wait(a, S0 + 3000 * MS, 101, 500 * MS, 100 * MS, 2), 0);
	/* not the workload's */
	CHECK_EQ(fx_wait(a, S0 + 3000 * MS, 200, 500 * MS, 0, 2), 0);
	/* 101: 10 s = 6 on CPU + 1 runnable + 2 blocked + 1 sleep */
	CHECK_EQ(fx_tasktime(a, S0, S0 + 10000 * MS, 101, 101, 6000 * MS, 1000 * MS, 2000 * MS,
			     1000 * MS, FSL_TASKTIME_EXIT), 0);
	/* thread 102 of 101: 4 s on CPU, still alive at the end */
	CHECK_EQ(fx_tasktime(a, S0 + 6000 * MS, S0 + 10000 * MS, 101, 102, 4000 * MS, 0, 0, 0,
			     0), 0);
	/* the shell: 10 s asleep in wait4 */
	CHECK_EQ(fx_tasktime(a, S0, S0 + 10000 * MS, 100, 100, 0, 0, 0, 10000 * MS,
			     FSL_TASKTIME_EXIT), 0);
	CHECK_EQ(fx_tasktime(a, S0, S0 + 10000 * MS, 200, 200, 5000 * MS, 0, 0, 5000 * MS,
			     FSL_TASKTIME_EXIT), 0);
	CHECK_EQ(fx_tasktime(a, S0, S0 + 10000 * MS, 300, 300, 5000 * MS, 0, 0, 5000 * MS,
			     FSL_TASKTIME_EXIT), 0);

	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_EQ(w->threads, 3);
	CHECK_EQ(w->alive, 1);
	CHECK_U64(w->wall_ns, 24000 * MS);
	CHECK_U64(w->oncpu_ns, 10000 * MS);
	CHECK_U64(w->runq_ns, 1000 * MS);
	CHECK_U64(w->blocked_ns, 2000 * MS);
	CHECK_U64(w->sleep_ns, 11000 * MS);
	CHECK_U64(w->oncpu_ns + w->runq_ns + w->blocked_ns + w->sleep_ns, w->wall_ns);
	CHECK_U64(w->cls_ns[FSL_WC_JOURNAL_LOG_SPACE], 1300 * MS);
	CHECK_U64(w->cls_ns[FSL_WC_TXN_LOCKED], 400 * MS);
	CHECK_U64(w->classified_ns, 1700 * MS);
	CHECK_U64(w->short_ns, 300 * MS);

	fsl_analysis__diagnose(a, d);
	CHECK_U64(d->whole.wall_ns, 24000 * MS);
	out = open_memstream(&buf, &len);
	REQUIRE(out);
	fsl_report__text(out, a, NULL);
	fclose(out);
	REQUIRE(buf);
	squeeze(buf);
	/* 10/24, 1/24, 2/24 (1.3/24, 0.4/24, 0.3/24), 11/24 */
	CHECK(strstr(buf, "whole time: wall 24.00 s over 3 threads: on-CPU 41.7%, runnable 4.2%, "
			  "blocked 8.3% (journal_log_space 5.4%, txn_locked 1.7%, short waits 1.2%), "
			  "other sleep 45.8%") != NULL ||
	      (fprintf(stderr, "%s", buf), 0));
	CHECK(strstr(buf, "mostly not blocked") != NULL);
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	REQUIRE(out);
	fsl_report__json(out, a, NULL);
	fclose(out);
	REQUIRE(buf);
	CHECK(strstr(buf, "\"wall_ns\":24000000000") != NULL || strstr(buf, "\"wall_ns\": 24000000000"));
	CHECK(strstr(buf, "\"journal_log_space\":1300000000") != NULL ||
	      strstr(buf, "\"journal_log_space\": 1300000000"));
	free(buf);
	free(d);
	fsl_analysis__free(a);
}

/*
 * A shell that posix_spawn()s its child waits in kernel_clone for the child's
 * exec, uninterruptible (TASK_KILLABLE): the kernel counts it as blocked, but
 * it is a parent waiting, like a waitpid(). It is sleep, in no wait class and
 * among no causes (on XFS a shell's waits for each dd ranked above the log
 * forces). 101 waits 0.4 s for its child, then 0.5 s for a transaction.
 */
TEST(wholetime_vfork_wait_is_sleep)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_wholetime *w;
	const struct fsl_stalls *st;
	int err = 0;

	fx_init(&f);
	fx_set(&f, "record.root_pid", "100");
	fx_set(&f, "record.start_ns", "1000000000");
	fx_stack_add(&f, 2, "__schedule, schedule, wait_transaction_locked, "
			    "add_transaction_credits, start_this_handle, jbd2__journal_start, "
			    "__ext4_new_inode, ext4_mkdir");
	fx_stack_add(&f, 3, "__schedule+0x628, schedule+0x23, schedule_timeout+0x100, "
			    "__wait_for_common+0x7d, wait_for_completion_state+0x1d, "
			    "kernel_clone+0x1d3, __do_sys_clone3+0x139, do_syscall_64+0x71");
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	REQUIRE(a && !fsl_analysis__begin(a, &f.m));
	CHECK_EQ(fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "sh"), 0);
	CHECK_EQ(fx_wait(a, S0 + 1000 * MS, 100, 400 * MS, 0, 3), 0);
	CHECK_EQ(fx_wait(a, S0 + 2000 * MS, 100, 500 * MS, 0, 2), 0);
	/* 10 s: 8.1 on CPU, 0.9 blocked (as the kernel counts it), 1 asleep */
	CHECK_EQ(fx_tasktime(a, S0, S0 + 10000 * MS, 100, 100, 8100 * MS, 0, 900 * MS,
			     1000 * MS, FSL_TASKTIME_EXIT), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_U64(w->blocked_ns, 500 * MS);
	CHECK_U64(w->sleep_ns, 1400 * MS);
	CHECK_U64(w->child_wait_ns, 400 * MS);
	CHECK_U64(w->oncpu_ns + w->runq_ns + w->blocked_ns + w->sleep_ns, w->wall_ns);
	CHECK_U64(w->cls_ns[FSL_WC_OTHER], 0);
	CHECK_U64(w->cls_ns[FSL_WC_TXN_LOCKED], 500 * MS);
	CHECK_U64(w->short_ns, 0);
	/* asked again, the same (the move is made once) */
	w = fsl_analysis__wholetime(a);
	CHECK_U64(w->blocked_ns, 500 * MS);
	CHECK_U64(w->sleep_ns, 1400 * MS);
	st = fsl_analysis__stalls(a);
	REQUIRE(st);
	CHECK_U64(st->cls[FSL_WC_OTHER].ns[FSL_ROLE_WORKLOAD], 0);
	CHECK_U64(st->cls[FSL_WC_TXN_LOCKED].ns[FSL_ROLE_WORKLOAD], 500 * MS);
	fsl_analysis__free(a);
}

/* No tasktime records (an older trace): nothing said, JSON null. */
TEST(wholetime_absent)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup(&f);
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	REQUIRE(a);
	CHECK_EQ(fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "sh"), 0);
	CHECK_EQ(fx_wait(a, S0 + 1000 * MS, 100, 1500 * MS, 200 * MS, 1), 0);
	CHECK_EQ(fsl_analysis__wholetime(a)->threads, 0);
	out = open_memstream(&buf, &len);
	REQUIRE(out);
	fsl_report__text(out, a, NULL);
	fclose(out);
	REQUIRE(buf);
	CHECK(strstr(buf, "whole time:") == NULL);
	free(buf);
	fsl_analysis__free(a);
}

/* A snapshot (or end) record with the state it left and since when. */
static int fx_snap(struct fsl_analysis *a, uint64_t ts, uint32_t tid, const uint64_t cum[4],
		   unsigned int left, uint64_t since, unsigned int entered, uint32_t flags)
{
	struct fsl_ev_tasktime ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_TASKTIME, sizeof(ev), ts, 101, tid);
	ev.first_ts = S0;
	ev.oncpu_ns = cum[0];
	ev.runq_ns = cum[1];
	ev.blocked_ns = cum[2];
	ev.sleep_ns = cum[3];
	ev.flags = flags;
	ev.last_state = left;
	ev.state = entered;
	ev.last_since = since;
	return fsl_analysis__feed(a, &ev.hdr);
}

static struct fsl_analysis *setup_window(struct fx_meta *f, uint64_t t0, uint64_t t1, int hold)
{
	struct fsl_analysis_opts o = { .root_pid = -1, .t0 = t0, .t1 = t1, .hold = hold };
	struct fsl_analysis *a;
	int err = 0;

	fx_init(f);
	fx_set(f, "record.root_pid", "100");
	fx_set(f, "record.start_ns", "1000000000");
	a = fsl_analysis__new(&o, &err);
	if (!a || fsl_analysis__begin(a, &f->m))
		return NULL;
	fx_proc(a, S0, 100, 1, FSL_PROC_SEEN, 0, "sh");
	fx_proc(a, S0, 101, 100, FSL_PROC_FORK, 0, "mkdir");
	return a;
}

/*
 * Every state change recorded (snapshots at each): a window cut anywhere
 * gets its parts exactly. On CPU [0, 100 ms), blocked [100, 400), runnable
 * [400, 420), on CPU [420, 1000), then the end.
 */
TEST(wholetime_window_exact)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup_window(&f, S0 + 50 * MS, S0 + 410 * MS, 0);
	const struct fsl_wholetime *w;

	REQUIRE(a);
	CHECK_EQ(fx_snap(a, S0 + 100 * MS, 101, (uint64_t[]){ 100 * MS, 0, 0, 0 }, FSL_TT_ONCPU,
			 S0, FSL_TT_BLOCKED, FSL_TASKTIME_SNAP), 0);
	CHECK_EQ(fx_snap(a, S0 + 400 * MS, 101, (uint64_t[]){ 100 * MS, 0, 300 * MS, 0 },
			 FSL_TT_BLOCKED, S0 + 100 * MS, FSL_TT_RUNQ, FSL_TASKTIME_SNAP), 0);
	CHECK_EQ(fx_snap(a, S0 + 420 * MS, 101, (uint64_t[]){ 100 * MS, 20 * MS, 300 * MS, 0 },
			 FSL_TT_RUNQ, S0 + 400 * MS, FSL_TT_ONCPU, FSL_TASKTIME_SNAP), 0);
	CHECK_EQ(fx_snap(a, S0 + 1000 * MS, 101, (uint64_t[]){ 680 * MS, 20 * MS, 300 * MS, 0 },
			 FSL_TT_ONCPU, S0 + 420 * MS, FSL_TT_ONCPU, FSL_TASKTIME_EXIT), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_EQ(w->threads, 1);
	CHECK_EQ(w->alive, 1);		/* it ended after the window */
	CHECK_U64(w->oncpu_ns, 50 * MS);
	CHECK_U64(w->blocked_ns, 300 * MS);
	CHECK_U64(w->runq_ns, 10 * MS);
	CHECK_U64(w->sleep_ns, 0);
	CHECK_U64(w->wall_ns, 360 * MS);
	fsl_analysis__free(a);
}

/*
 * Changes inside the snapshot period are not recorded: a snapshot at 100
 * (entering blocked), runnable at 105 and on CPU at 106 unseen, the next
 * record at 500 (on CPU since 106). A window from 103: the tail [106, 500)
 * is on CPU, exactly; the 6 ms before it (5 blocked, 1 runnable) are shared
 * out in proportion, half of them in the window.
 */
TEST(wholetime_window_between_snapshots)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup_window(&f, S0 + 103 * MS, S0 + 600 * MS, 0);
	const struct fsl_wholetime *w;

	REQUIRE(a);
	CHECK_EQ(fx_snap(a, S0 + 100 * MS, 101, (uint64_t[]){ 100 * MS, 0, 0, 0 }, FSL_TT_ONCPU,
			 S0, FSL_TT_BLOCKED, FSL_TASKTIME_SNAP), 0);
	CHECK_EQ(fx_snap(a, S0 + 500 * MS, 101, (uint64_t[]){ 494 * MS, 1 * MS, 5 * MS, 0 },
			 FSL_TT_ONCPU, S0 + 106 * MS, FSL_TT_SLEEP, FSL_TASKTIME_SNAP), 0);
	CHECK_EQ(fx_snap(a, S0 + 900 * MS, 101, (uint64_t[]){ 494 * MS, 1 * MS, 5 * MS, 400 * MS },
			 FSL_TT_SLEEP, S0 + 500 * MS, FSL_TT_ONCPU, 0), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_U64(w->oncpu_ns, 394 * MS);
	CHECK_U64(w->blocked_ns, 2500 * 1000);
	CHECK_U64(w->runq_ns, 500 * 1000);
	CHECK_U64(w->sleep_ns, 100 * MS);
	CHECK_U64(w->wall_ns, 497 * MS);
	CHECK_EQ(w->alive, 1);		/* alive at the end of the recording */
	fsl_analysis__free(a);
}

/* An older trace (one shorter record per thread at its end): its life spread evenly. */
TEST(wholetime_window_old_records)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup_window(&f, S0 + 2000 * MS, S0 + 4000 * MS, 0);
	const struct fsl_wholetime *w;
	struct fsl_ev_tasktime ev;

	REQUIRE(a);
	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_TASKTIME, offsetof(struct fsl_ev_tasktime, last_state),
	       S0 + 10000 * MS, 101, 101);
	ev.first_ts = S0;
	ev.oncpu_ns = 6000 * MS;
	ev.blocked_ns = 4000 * MS;
	ev.flags = FSL_TASKTIME_EXIT;
	CHECK_EQ(fsl_analysis__feed(a, &ev.hdr), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_EQ(w->threads, 1);
	CHECK_U64(w->oncpu_ns, 1200 * MS);
	CHECK_U64(w->blocked_ns, 800 * MS);
	CHECK_U64(w->wall_ns, 2000 * MS);
	fsl_analysis__free(a);
}

/*
 * Live windows (top): at a cut the open stretch goes to the state entered at
 * the last record; the next record gives the rest to the next window, and
 * the two windows add up to the thread's account.
 */
TEST(wholetime_window_cut)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup_window(&f, S0, S0 + 1000 * MS, 1);
	const struct fsl_wholetime *w;
	uint64_t sleep1;

	REQUIRE(a);
	/* on CPU to 200 ms, then asleep until 1500 ms */
	CHECK_EQ(fx_snap(a, S0 + 200 * MS, 101, (uint64_t[]){ 200 * MS, 0, 0, 0 }, FSL_TT_ONCPU,
			 S0, FSL_TT_SLEEP, FSL_TASKTIME_SNAP), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_U64(w->oncpu_ns, 200 * MS);
	sleep1 = w->sleep_ns;
	CHECK_U64(sleep1, 800 * MS);
	fsl_analysis__reset(a, S0 + 1000 * MS, S0 + 2000 * MS);
	CHECK_EQ(fx_snap(a, S0 + 1500 * MS, 101, (uint64_t[]){ 200 * MS, 0, 0, 1300 * MS },
			 FSL_TT_SLEEP, S0 + 200 * MS, FSL_TT_RUNQ, FSL_TASKTIME_SNAP), 0);
	CHECK_EQ(fx_snap(a, S0 + 1600 * MS, 101, (uint64_t[]){ 200 * MS, 100 * MS, 0, 1300 * MS },
			 FSL_TT_RUNQ, S0 + 1500 * MS, FSL_TT_ONCPU, FSL_TASKTIME_EXIT), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_U64(w->sleep_ns, 500 * MS);
	CHECK_U64(w->runq_ns, 100 * MS);
	CHECK_U64(w->oncpu_ns, 0);
	CHECK_U64(w->sleep_ns + sleep1, 1300 * MS);
	CHECK_EQ(w->alive, 0);
	fsl_analysis__free(a);
}

/*
 * The on-CPU-by-class hook: what a provider of CPU classes adds to the
 * window's table comes out with the whole time, and goes with the window.
 */
#include "../../analyzer/an_set.h"

TEST(wholetime_oncpu_classes_hook)
{
	struct fx_meta f;
	struct fsl_analysis *a = setup_window(&f, S0, S0 + 1000 * MS, 0);
	struct an_ctx *c;
	const struct fsl_wholetime *w;

	REQUIRE(a);
	c = (struct an_ctx *)an_analysis_ctx(a);
	an_oncpu_add(c, "dir_entry_scan", 30 * MS);
	an_oncpu_add(c, "htree_probe", 10 * MS);
	an_oncpu_add(c, "dir_entry_scan", 20 * MS);
	CHECK_EQ(fx_snap(a, S0 + 1000 * MS, 101, (uint64_t[]){ 800 * MS, 0, 200 * MS, 0 },
			 FSL_TT_ONCPU, S0 + 900 * MS, FSL_TT_ONCPU, FSL_TASKTIME_EXIT), 0);
	w = fsl_analysis__wholetime(a);
	REQUIRE(w);
	CHECK_EQ(w->ncpu, 2);
	CHECK_STR(w->cpu_cls[0].id, "dir_entry_scan");
	CHECK_U64(w->cpu_cls[0].ns, 50 * MS);
	CHECK_U64(w->cpu_cls[1].ns, 10 * MS);
	CHECK_U64(w->cpu_sampled_ns, 60 * MS);
	fsl_analysis__reset(a, S0 + 1000 * MS, 0);
	CHECK_EQ(fsl_analysis__wholetime(a)->ncpu, 0);
	fsl_analysis__free(a);
}
