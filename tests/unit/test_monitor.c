// SPDX-License-Identifier: GPL-2.0
/*
 * collector/monitor_metrics.c: kernel aggregates -> metrics state -> the
 * Prometheus text, label escaping, histogram buckets, quantiles, trigger
 * expressions; and collector/flight.c's ring bound is exercised live.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "t.h"
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

	fsl_mon_metrics__apply(mm, &k, &v);
}

TEST(monitor_render_values)
{
	struct fsl_mon_metrics *mm = fsl_mon_metrics__new();
	char *text = NULL;
	size_t len = 0;

	REQUIRE(mm);
	mm->hz = 250;
	mm->start_time = 1700000000;
	CHECK_EQ(fsl_mon_metrics__target(mm, "/srv/a\"b\\c\nd", "loop7", 7, 8, 1250), 0);
	/* creates: 3 of ~1.5 us (bucket 11: [1024, 2048) ns), 1 of 3 ms (bucket 22) */
	put(mm, MON_OP_HIST, 0, FSL_OP_CREATE, 0, 11, 3, 4500);
	put(mm, MON_OP_HIST, 0, FSL_OP_CREATE, 0, 22, 1, 3000000);
	/* a re-read replaces (kernel counters are cumulative) */
	put(mm, MON_OP_HIST, 0, FSL_OP_CREATE, 0, 22, 2, 6000000);
	put(mm, MON_DATA_BYTES, 0, MON_OP_WRITE, 0, 0, 5, 40960);
	put(mm, MON_COMMITS, 0, MON_TRIG_LOG_SPACE, 0, 0, 17, 0);
	put(mm, MON_COMMITS, 0, MON_TRIG_TIMER, 0, 0, 2, 0);
	put(mm, MON_THROTTLE, 0, 0, 0, 0, 3, 125);	/* 125 jiffies at HZ 250 */
	put(mm, MON_IO_BYTES, 0, MON_IO_READ, 0, 0, 4, 16384);
	put(mm, MON_SEEKS, 0, MON_IO_WRITE, 0, 0, 9, 0);
	put(mm, MON_AGG_FULL, 0, 0, 0, 0, 6, 0);
	put(mm, MON_COMMITS, 3, 0, 0, 0, 99, 0);	/* no such target: ignored */
	/* blocked time arrives as deltas and adds */
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_JOURNAL_LOG_SPACE, 1500000000);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_WORKLOAD, FSL_WC_JOURNAL_LOG_SPACE, 250000000);
	fsl_mon_metrics__blocked(mm, 0, MON_ROLE_KTHREAD, FSL_WC_OTHER_IO, 1000);
	fsl_mon_metrics__blocked(mm, MON_TGT_OTHER, MON_ROLE_WORKLOAD, FSL_WC_PAGE_WAIT, 2000000);
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

TEST(monitor_quantile)
{
	struct fsl_mon_hist cur = { 0 }, prev = { 0 };

	CHECK_U64(fsl_mon_hist_quantile(&cur, NULL, 0.99), 0);
	cur.b[10] = 98;		/* < 1 us */
	cur.b[20] = 2;		/* ~1 ms */
	CHECK_U64(fsl_mon_hist_quantile(&cur, NULL, 0.99), 1ull << 20);
	CHECK_U64(fsl_mon_hist_quantile(&cur, NULL, 0.98), 1ull << 10);
	/* the interval's own: only what changed since prev */
	prev = cur;
	cur.b[10] += 1000;
	CHECK_U64(fsl_mon_hist_quantile(&cur, &prev, 0.99), 1ull << 10);
	CHECK_NEAR(fsl_mon_bucket_le(10), 1.024e-6, 1e-15);
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
