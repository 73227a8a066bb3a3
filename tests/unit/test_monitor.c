// SPDX-License-Identifier: GPL-2.0
/*
 * collector/monitor_metrics.c: kernel aggregates -> metrics state -> the
 * Prometheus text, label escaping, histogram buckets, quantiles, trigger
 * expressions; and collector/flight.c's ring bound is exercised live.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include "t.h"
#include "fslens/fsmeta.h"
#include "fslens/monitor.h"

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

#define CHECK_LINE(text, line) do {						\
	if (!has_line(text, line))						\
		t_fail(__FILE__, __LINE__, "no line \"%s\"", line);		\
} while (0)

static void put(struct fsl_mon_metrics *mm, int kind, int tgt, int a, int b, int x, uint64_t cnt,
		uint64_t sum)
{
	struct mon_key k = { .kind = kind, .tgt = tgt, .a = a, .b = b, .x = x };
	struct mon_val v = { cnt, sum };

	fsl_mon_metrics__apply(mm, &k, &v, 0);
}

static int add_target(struct fsl_mon_metrics *mm, const char *label, const char *disk,
		      uint32_t dev, uint32_t blkdev, const char *fstype)
{
	struct fsl_mon_target t = { .label = label, .disk = disk, .fstype = fstype, .dev = dev,
				    .blkdev = blkdev, .commit_jiffies = 1250 };

	return fsl_mon_metrics__target(mm, &t);
}

/* Fine bucket of ns, as the kernel keys it. */
#define FB(ns) mon_fine_bucket(ns)

TEST(monitor_render_values)
{
	struct fsl_mon_metrics *mm = fsl_mon_metrics__new();
	char *text = NULL;
	size_t len = 0;

	REQUIRE(mm);
	mm->hz = 250;
	mm->start_time = 1700000000;
	CHECK_EQ(add_target(mm, "/srv/a\"b\\c\nd", "loop7", 7, 8, "ext4"), 0);
	/* creates: 3 of 1.5 us (bucket 11: [1024, 2048) ns), 1 of 3 ms (bucket 22) */
	put(mm, MON_OP_HIST, 0, FSL_OP_CREATE, 0, FB(1500), 3, 4500);
	put(mm, MON_OP_HIST, 0, FSL_OP_CREATE, 0, FB(3000000), 1, 3000000);
	/* a re-read adds what changed (kernel counters are cumulative) */
	put(mm, MON_OP_HIST, 0, FSL_OP_CREATE, 0, FB(3000000), 2, 6000000);
	put(mm, MON_DATA_BYTES, 0, MON_OP_WRITE, 0, 0, 5, 40960);
	/* commits by kick and evidence, decided as the report does */
	put(mm, MON_COMMITS, 0, FSL_TRIG_LOG_SPACE + 1, 0, 0, 10, 0);
	put(mm, MON_COMMITS, 0, 0, FSL_TRIGF_LOG_SPACE | FSL_TRIGF_FULL, 0, 7, 0);
	put(mm, MON_COMMITS, 0, 0, FSL_TRIGF_FULL | FSL_TRIGF_OLD, 0, 3, 0);
	put(mm, MON_COMMITS, 0, FSL_KICK_STOP, FSL_TRIGF_OLD, 0, 2, 0);
	put(mm, MON_THROTTLE, 0, 0, 0, 0, 3, 125);	/* 125 jiffies at HZ 250 */
	put(mm, MON_IO_BYTES, 0, MON_IO_READ, 0, 0, 4, 16384);
	put(mm, MON_SEEKS, 0, MON_IO_WRITE, 0, 0, 9, 0);
	put(mm, MON_AGG_FULL, 0, 0, 0, 0, 6, 0);
	put(mm, MON_COMMITS, 3, 0, 0, 0, 99, 0);	/* no such target: ignored */
	/* blocked time arrives as deltas and adds */
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_JOURNAL_LOG_SPACE, 0, 1500000000);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_JOURNAL_LOG_SPACE, 0, 250000000);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_KTHREAD, FSL_WC_OTHER_IO, 0, 1000);
	fsl_mon_metrics__blocked(mm, MON_TGT_OTHER, MON_ROLE_WORKLOAD, FSL_WC_PAGE_WAIT, 0, 2000000);
	CHECK_NEAR(fsl_mon_metrics__blocked_s(mm, 0, FSL_WC_JOURNAL_LOG_SPACE, -1), 1.75, 1e-9);

	REQUIRE(fsl_mon_metrics__render(mm, &text, &len) == 0);
	CHECK_EQ(strlen(text), len);
#define FS "fs=\"/srv/a\\\"b\\\\c\\nd\""
	CHECK_LINE(text, "fslens_blocked_seconds_total{" FS ",class=\"journal_log_space\","
		   "role=\"workload\"} 1.750000000");
	CHECK_LINE(text, "fslens_blocked_seconds_total{" FS ",class=\"other_io\",role=\"kthread\"} "
		   "0.000001000");
	CHECK_LINE(text, "fslens_blocked_seconds_total{fs=\"other\",class=\"page_wait\","
		   "role=\"workload\"} 0.002000000");
	CHECK_LINE(text, "# TYPE fslens_op_latency_seconds histogram");
	CHECK_LINE(text, "fslens_op_latency_seconds_bucket{" FS ",op=\"create\",le=\"1.024e-06\"} 0");
	CHECK_LINE(text, "fslens_op_latency_seconds_bucket{" FS ",op=\"create\",le=\"2.048e-06\"} 3");
	CHECK_LINE(text, "fslens_op_latency_seconds_bucket{" FS ",op=\"create\",le=\"0.00209715\"} 3");
	CHECK_LINE(text, "fslens_op_latency_seconds_bucket{" FS ",op=\"create\",le=\"0.0041943\"} 5");
	CHECK_LINE(text, "fslens_op_latency_seconds_bucket{" FS ",op=\"create\",le=\"+Inf\"} 5");
	CHECK_LINE(text, "fslens_op_latency_seconds_count{" FS ",op=\"create\"} 5");
	CHECK_LINE(text, "fslens_op_latency_seconds_sum{" FS ",op=\"create\"} 0.006004500");
	CHECK(!strstr(text, "op=\"mkdir\""));	/* no mkdir seen: no series */
	CHECK_LINE(text, "fslens_data_bytes_total{" FS ",op=\"write\"} 40960");
	CHECK_LINE(text, "fslens_journal_commits_total{" FS ",trigger=\"log_space\"} 17");
	CHECK_LINE(text, "fslens_journal_commits_total{" FS ",trigger=\"full\"} 3");
	CHECK_LINE(text, "fslens_journal_commits_total{" FS ",trigger=\"timer\"} 2");
	CHECK_LINE(text, "fslens_journal_commits_total{" FS ",trigger=\"fsync\"} 0");
	CHECK_LINE(text, "fslens_throttle_seconds_total{" FS "} 0.500000000");
	CHECK_LINE(text, "fslens_io_bytes_total{dev=\"loop7\",op=\"read\"} 16384");
	CHECK_LINE(text, "fslens_seeks_total{dev=\"loop7\",op=\"write\"} 9");
	CHECK_LINE(text, "fslens_lost_events_total{family=\"monitor\"} 6");
	CHECK_LINE(text, "fslens_start_time_seconds 1700000000");
	CHECK(!strstr(text, " 99\n"));

	/* the format's own checker, where it is installed */
	if (access("/usr/bin/promtool", X_OK) == 0) {
		FILE *p = popen("/usr/bin/promtool check metrics >/dev/null 2>&1", "w");

		REQUIRE(p);
		fwrite(text, 1, len, p);
		CHECK_EQ(pclose(p), 0);
	}
	free(text);
	fsl_mon_metrics__free(mm);
}

TEST(monitor_label_escape)
{
	char out[16];

	fsl_mon_label_escape("a\"b\\c\nd", out, sizeof(out));
	CHECK_STR(out, "a\\\"b\\\\c\\nd");
	/* bounded: never a half escape at the end */
	CHECK_EQ(fsl_mon_label_escape("\"\"\"\"\"\"\"\"\"\"", out, 8), 6);
	CHECK_STR(out, "\\\"\\\"\\\"");
}

static void hist_put(struct fsl_mon_hist *h, uint64_t ns, uint64_t n)
{
	h->n[FB(ns)] += n;
	h->s[FB(ns)] += n * ns;
}

TEST(monitor_quantile)
{
	struct fsl_mon_hist cur = { 0 }, prev = { 0 };

	CHECK_U64(fsl_mon_hist_quantile(&cur, NULL, 0.99), 0);
	hist_put(&cur, 700, 98);	/* < 1 us */
	hist_put(&cur, 1000000, 2);	/* 1 ms */
	CHECK_U64(fsl_mon_hist_quantile(&cur, NULL, 0.99), 1000000);
	CHECK_U64(fsl_mon_hist_quantile(&cur, NULL, 0.98), 700);
	/* the interval's own: only what changed since prev */
	prev = cur;
	hist_put(&cur, 700, 1000);
	CHECK_U64(fsl_mon_hist_quantile(&cur, &prev, 0.99), 700);
	CHECK_NEAR(fsl_mon_bucket_le(10), 1.024e-06, 1e-15);
	/* fine buckets: 8 per power of two, each in its power-of-two bucket */
	CHECK_EQ(FB(0), 0);
	CHECK_EQ(FB(1024) / MON_FINE_SUB, 11);
	CHECK_EQ(FB(2047) / MON_FINE_SUB, 11);
	CHECK_EQ(FB(1024) % MON_FINE_SUB, 0);
	CHECK_EQ(FB(1024 + 128) % MON_FINE_SUB, 1);
	CHECK_EQ(FB(2047) % MON_FINE_SUB, 7);
	CHECK_EQ(FB(1ull << 50), MON_FINE_BUCKETS - 1);
}

/*
 * The p99 trigger at its boundary: a power-of-two bucket's top (what the
 * quantile was) is up to 2x the values in it, so 33 ms creates fired a
 * 50 ms trigger. Now the estimate is within 1/16 of the value.
 */
TEST(monitor_p99_trigger_boundary)
{
	struct fsl_mon_metrics *mm = fsl_mon_metrics__new();
	struct fsl_mon_hist (*prev)[MON_OPS] = calloc(MON_TARGETS_MAX, sizeof(*prev));
	struct fsl_mon_trigger t;
	uint64_t p = 0, lo, hi;
	unsigned int k;

	REQUIRE(mm && prev);
	CHECK_EQ(add_target(mm, "/a", "loop0", 7, 7, "ext4"), 0);
	CHECK_EQ(fsl_mon_trigger_parse("p99:create>50ms", &t), 0);
	/* 1000 creates of 34 ms: in [2^25, 2^26) ns, whose top is 67 ms */
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 34000000, 1000);
	CHECK_EQ(fsl_mon_p99_over(mm, prev, &t, &p), -1);
	CHECK_U64(p, 34000000);
	/* just under and just over the threshold, equal values: exact */
	memcpy(prev[0], mm->fs[0].op, sizeof(prev[0]));
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 49500000, 1000);
	CHECK_EQ(fsl_mon_p99_over(mm, prev, &t, &p), -1);
	memcpy(prev[0], mm->fs[0].op, sizeof(prev[0]));
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 50500000, 1000);
	CHECK_EQ(fsl_mon_p99_over(mm, prev, &t, &p), 0);
	CHECK_U64(p, 50500000);
	/* 2% over among fast ones: the p99 is theirs */
	memcpy(prev[0], mm->fs[0].op, sizeof(prev[0]));
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 2000000, 980);
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 60000000, 20);
	CHECK_EQ(fsl_mon_p99_over(mm, prev, &t, &p), 0);
	/* 0.5% over: the p99 is the fast ones' */
	memcpy(prev[0], mm->fs[0].op, sizeof(prev[0]));
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 2000000, 995);
	hist_put(&mm->fs[0].op[FSL_OP_CREATE], 60000000, 5);
	CHECK_EQ(fsl_mon_p99_over(mm, prev, &t, &p), -1);
	/* spread values: within half a fine bucket of the true p99 */
	memset(&mm->fs[0].op[FSL_OP_CREATE], 0, sizeof(mm->fs[0].op[FSL_OP_CREATE]));
	memset(prev, 0, MON_TARGETS_MAX * sizeof(*prev));
	for (k = 1; k <= 1000; k++)
		hist_put(&mm->fs[0].op[FSL_OP_CREATE], 40000000 + k * 20000, 1);
	fsl_mon_p99_over(mm, prev, &t, &p);
	/* true p99 = 40 ms + 990 x 20 us = 59.8 ms */
	lo = 59800000 - 59800000 / 16;
	hi = 59800000 + 59800000 / 16;
	CHECK(p >= lo && p <= hi);
	free(prev);
	fsl_mon_metrics__free(mm);
}

/*
 * Which filesystem a wait is on, from its key's evidence (the monitor's
 * kernel side) and its stack, by the scope rules the report uses.
 */
TEST(monitor_wait_scope)
{
	struct fsl_mon_metrics *mm = fsl_mon_metrics__new();
	struct fsl_scope_stack none = { 0 }, flush = { .flush = 1 }, loop = { .loop = 1 };
	struct fsl_scope_stack jwait = { .jwait = 1, .fs = FSL_CTX_FS_EXT4 };
	struct fsl_scope_stack xfs = { .fs = FSL_CTX_FS_XFS };
	struct mon_key k = { .kind = MON_BLOCKED };

	REQUIRE(mm);
	CHECK_EQ(add_target(mm, "/a", "loop0", 7, 7, "ext4"), 0);
	CHECK_EQ(add_target(mm, "/b", "loop1", 8, 8, "ext4"), 1);
#define WT(tgt_, a_, b_, st) (k.tgt = (tgt_), k.a = (a_), k.b = (b_), \
			      fsl_mon_wait_target(mm, &k, &(st)))
	/* a task: in an operation on B; holding nothing, hinted at A but woken by B's disk */
	CHECK_EQ(WT(MON_EV_TGT(1), MON_A(0, 0, MON_EV_TGT(0)), 0, none), 1);
	CHECK_EQ(WT(0, MON_A(0, 0, MON_EV_TGT(0)), MON_B(MON_EV_TGT(1), 0), none), 1);
	/* woken by another disk: another filesystem's, whatever the hint */
	CHECK_EQ(WT(0, MON_A(0, 0, MON_EV_TGT(0)), MON_B(MON_EV_OTHER, 0), none), MON_TGT_OTHER);
	/* woken by B's journal thread */
	CHECK_EQ(WT(0, MON_A(0, 0, 0), MON_B(0, MON_EV_TGT(1)), none), 1);
	/* a completion woke it while A's journal thread ran: a journal wait is the journal's */
	CHECK_EQ(WT(0, MON_A(0, 0, 0), MON_B(MON_EV_OTHER, MON_EV_TGT(0)), jwait), 0);
	CHECK_EQ(WT(0, MON_A(0, 0, 0), MON_B(MON_EV_OTHER, MON_EV_TGT(0)), none), MON_TGT_OTHER);
	/* no evidence: the call's target; none at all: another's */
	CHECK_EQ(WT(0, MON_A(0, 0, MON_EV_TGT(1)), 0, none), 1);
	CHECK_EQ(WT(0, MON_A(0, 0, 0), 0, none), MON_TGT_OTHER);
	/* an XFS stack while working on ext4 A: not A's */
	CHECK_EQ(WT(0, MON_A(0, 0, MON_EV_TGT(0)), 0, xfs), MON_TGT_OTHER);
	/*
	 * Kernel threads have no hint: one that once touched A (the old
	 * rule's never-cleared hint) is not A's. A's journal thread, A's
	 * flusher at work, A's loop worker are; a flusher stack of a thread
	 * not flushing a target, or one of another's, is not.
	 */
	CHECK_EQ(WT(0, MON_A(1, 0, 0), 0, none), MON_TGT_OTHER);
	CHECK_EQ(WT(MON_EV_TGT(0), MON_A(1, 0, 0), 0, none), 0);
	CHECK_EQ(WT(MON_EV_OTHER, MON_A(1, 0, 0), MON_B(MON_EV_TGT(0), 0), none), MON_TGT_OTHER);
	CHECK_EQ(WT(0, MON_A(1, MON_KT_FLUSH, 0), MON_B(0, MON_EV_TGT(1)), flush), 1);
	CHECK_EQ(WT(0, MON_A(1, 0, 0), MON_B(MON_EV_TGT(1), 0), flush), MON_TGT_OTHER);
	CHECK_EQ(WT(0, MON_A(1, MON_KT_LOOP, 0), MON_B(0, MON_EV_TGT(0)), loop), 0);
	CHECK_EQ(WT(0, MON_A(1, MON_KT_FLUSH, 0), MON_B(0, MON_EV_TGT(0)), loop), MON_TGT_OTHER);
	/* any other kernel thread: only a completion of a target's disk */
	CHECK_EQ(WT(0, MON_A(1, 0, 0), MON_B(MON_EV_TGT(1), 0), none), 1);
#undef WT
	fsl_mon_metrics__free(mm);
}

/* --cgroup-label: series per cgroup, named by path; past the table, "other". */
TEST(monitor_cgroup_series)
{
	struct fsl_mon_metrics *mm = fsl_mon_metrics__new();
	char tmpl[] = "/tmp/fslens-cg.XXXXXX", sub[600];
	struct mon_key k = { .kind = MON_OP_HIST, .tgt = 0, .a = FSL_OP_MKDIR };
	struct mon_val v = { 2, 2000 };
	char *text = NULL, line[800];
	struct stat st;
	size_t len;
	unsigned int i;

	REQUIRE(mm && mkdtemp(tmpl));
	snprintf(sub, sizeof(sub), "%s/job.slice", tmpl);
	REQUIRE(mkdir(sub, 0755) == 0 && stat(sub, &st) == 0);
	mm->cgroups = 1;
	snprintf(mm->cgroup_root, sizeof(mm->cgroup_root), "%s", tmpl);
	CHECK_EQ(add_target(mm, "/a", "loop0", 7, 7, "ext4"), 0);
	k.cg = st.st_ino;
	k.x = FB(1000);
	fsl_mon_metrics__apply(mm, &k, &v, 0);
	v.count = 5;	/* cumulative: 3 more */
	v.sum = 5000;
	fsl_mon_metrics__apply(mm, &k, &v, 0);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_TXN_LOCKED, st.st_ino, 1000000);
	/* fill the table, then one more: "other" */
	for (i = 1; i < MON_CGROUPS_MAX; i++)
		CHECK_EQ(fsl_mon_metrics__cg_slot(mm, 1000000 + i), i);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_TXN_LOCKED, 999, 3000000);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_TXN_LOCKED, 998, 1000000);
	REQUIRE(fsl_mon_metrics__render(mm, &text, &len) == 0);
	CHECK_LINE(text, "fslens_op_latency_seconds_count{fs=\"/a\",op=\"mkdir\","
		   "cgroup=\"/job.slice\"} 5");
	CHECK_LINE(text, "fslens_blocked_seconds_total{fs=\"/a\",class=\"txn_locked\","
		   "role=\"workload\",cgroup=\"/job.slice\"} 0.001000000");
	CHECK_LINE(text, "fslens_blocked_seconds_total{fs=\"/a\",class=\"txn_locked\","
		   "role=\"workload\",cgroup=\"other\"} 0.004000000");
	CHECK_LINE(text, "fslens_cgroups_folded_total 2");
	snprintf(line, sizeof(line), "cgroup=\"id:%u\"", 1000001);
	CHECK(!strstr(text, line));	/* no series: nothing was counted in it */
	/* no unlabelled series beside the labelled ones: sums stay right */
	CHECK(!strstr(text, "op=\"mkdir\"} "));
	if (access("/usr/bin/promtool", X_OK) == 0) {
		FILE *p = popen("/usr/bin/promtool check metrics >/dev/null 2>&1", "w");

		REQUIRE(p);
		fwrite(text, 1, len, p);
		CHECK_EQ(pclose(p), 0);
	}
	free(text);
	rmdir(sub);
	rmdir(tmpl);
	fsl_mon_metrics__free(mm);
}

TEST(monitor_trigger_parse)
{
	struct fsl_mon_trigger t;

	CHECK_EQ(fsl_mon_trigger_parse("wait>200ms", &t), 0);
	CHECK_EQ(t.kind, FSL_MON_TRIG_WAIT);
	CHECK_U64(t.over_ns, 200000000);
	CHECK_EQ(fsl_mon_trigger_parse("commit>1.5s", &t), 0);
	CHECK_EQ(t.kind, FSL_MON_TRIG_COMMIT);
	CHECK_U64(t.over_ns, 1500000000);
	CHECK_EQ(fsl_mon_trigger_parse("p99:create>50us", &t), 0);
	CHECK_EQ(t.kind, FSL_MON_TRIG_P99);
	CHECK_EQ(t.op, FSL_OP_CREATE);
	CHECK_U64(t.over_ns, 50000);
	CHECK_EQ(fsl_mon_trigger_parse("p99:write>1ms", &t), 0);
	CHECK_EQ(t.op, MON_OP_WRITE);
	/* decimals read exactly (lib/text.c's seconds), then scaled to the unit, rounded */
	CHECK_EQ(fsl_mon_trigger_parse("wait>0.3s", &t), 0);
	CHECK_U64(t.over_ns, 300000000);
	CHECK_EQ(fsl_mon_trigger_parse("wait>1.5ns", &t), 0);
	CHECK_U64(t.over_ns, 2);
	CHECK_EQ(fsl_mon_trigger_parse("wait>2.0004us", &t), 0);
	CHECK_U64(t.over_ns, 2000);
	CHECK_EQ(fsl_mon_trigger_parse("wait>1e-3s", &t), 0);
	CHECK_U64(t.over_ns, 1000000);
	CHECK_EQ(fsl_mon_trigger_parse("wait>-1ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("wait>1.5.2ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("wait>ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("wait>1msx", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("wait>200", &t), -EINVAL);	/* a unit is required */
	CHECK_EQ(fsl_mon_trigger_parse("wait>0ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("p99:frobnicate>1ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("latency>1ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse(">1ms", &t), -EINVAL);
	CHECK_EQ(fsl_mon_trigger_parse("wait", &t), -EINVAL);
}

/* --listen ADDR:PORT: network order out, one -EINVAL for anything else */
TEST(monitor_listen_parse)
{
	uint32_t a;
	uint16_t port;

	CHECK_EQ(fsl_mon_listen_parse("127.0.0.1:9477", &a, &port), 0);
	CHECK_U64(a, htonl(0x7f000001));
	CHECK_EQ(port, 9477);
	CHECK_EQ(fsl_mon_listen_parse(":80", &a, &port), 0);
	CHECK_U64(a, 0);
	CHECK_EQ(port, 80);
	CHECK_EQ(fsl_mon_listen_parse("10.1.2.3:65535", &a, &port), 0);
	CHECK_U64(a, htonl(0x0a010203));
	CHECK_EQ(fsl_mon_listen_parse("10.1.2.3:65536", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("10.1.2.3:0", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("10.1.2.3:", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("10.1.2.3:80x", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("9477", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("localhost:9477", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("::1:9477", &a, &port), -EINVAL);
	CHECK_EQ(fsl_mon_listen_parse("1234567890.1234567890:1", &a, &port), -EINVAL);
}

#define NS 1000000000ll

/*
 * The capture gate (--trigger-gap): a trigger taken is captured a second
 * later; another while that one is pending, or within the gap after it, is
 * suppressed; after the gap the next is taken.
 */
TEST(monitor_gate_rate_limits)
{
	struct fsl_mon_gate g = { .tgt = -1, .gap_ns = 60 * NS, .after_ns = NS };
	int64_t t0 = 1000 * NS;

	CHECK(!fsl_mon_gate__due(&g, t0));
	CHECK_EQ(fsl_mon_gate__offer(&g, t0, "wait>200ms on /mnt", 1), 1);
	CHECK_EQ(fsl_mon_gate__offer(&g, t0 + NS / 2, "SIGUSR1", -1), 0);	/* pending */
	CHECK(!fsl_mon_gate__due(&g, t0 + NS - 1));
	CHECK(fsl_mon_gate__due(&g, t0 + NS));
	CHECK_STR(g.why, "wait>200ms on /mnt");
	CHECK_EQ(g.tgt, 1);
	fsl_mon_gate__done(&g);
	CHECK(!fsl_mon_gate__due(&g, t0 + 2 * NS));
	/* within the gap of the last capture's trigger */
	CHECK_EQ(fsl_mon_gate__offer(&g, t0 + 59 * NS, "POST /trigger", -1), 0);
	CHECK(!fsl_mon_gate__due(&g, t0 + 61 * NS));
	/* the gap is over */
	CHECK_EQ(fsl_mon_gate__offer(&g, t0 + 60 * NS, "POST /trigger", -1), 1);
	CHECK(fsl_mon_gate__due(&g, t0 + 61 * NS));
	CHECK_EQ(g.tgt, -1);
	/* a gap of 0: every trigger once the last is captured */
	fsl_mon_gate__done(&g);
	g.gap_ns = 0;
	CHECK_EQ(fsl_mon_gate__offer(&g, t0 + 62 * NS, "SIGUSR1", -1), 1);
}

/* commit=N of the mount options in jiffies; ext4's default 5 s without it. */
TEST(monitor_commit_jiffies)
{
	CHECK_EQ(fsl_mon_commit_jiffies("rw,relatime", 250), 1250);
	CHECK_EQ(fsl_mon_commit_jiffies("rw,commit=30,data=ordered", 1000), 30000);
	CHECK_EQ(fsl_mon_commit_jiffies("rw,commit=0", 250), 1250);
	CHECK_EQ(fsl_mon_commit_jiffies("", 0), 1250);	/* HZ unknown: 250 */
}

/* The cgroup label's root: the first cgroup2 mount of the mounts file. */
TEST(monitor_cgroup2_root)
{
	const char *path = t_path("mounts");
	char root[256];
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("sysfs /sys sysfs rw 0 0\n"
	      "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n"
	      "none /tmp/cg2 cgroup2 rw,relatime 0 0\n"
	      "none /other cgroup2 rw 0 0\n", f);
	fclose(f);
	fsl_cgroup2_mount(path, root, sizeof(root));
	CHECK_STR(root, "/tmp/cg2");
	fsl_cgroup2_mount(t_path("none"), root, sizeof(root));
	CHECK_STR(root, "");
}
