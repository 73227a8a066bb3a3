// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor's metrics state and its Prometheus text exposition (format
 * 0.0.4, what `promtool check metrics` reads). Fed by collector/monitor_bpf.c
 * from the in-kernel aggregates; no libbpf here, so it is unit-tested with
 * made-up aggregates. Kernel counters are cumulative and replace the copy
 * here; blocked time arrives as deltas (the kernel entries are deleted once
 * read) and is added.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fslens/monitor.h"
#include "fslens/text.h"
#include "fslens/schema.h"

#define LE_FIRST	10	/* first bucket rendered: le = 2^10 ns (about 1 us) */

struct fsl_mon_metrics *fsl_mon_metrics__new(void)
{
	struct fsl_mon_metrics *mm = calloc(1, sizeof(*mm));

	if (mm)
		mm->start_time = (double)time(NULL);
	return mm;
}

void fsl_mon_metrics__free(struct fsl_mon_metrics *mm)
{
	free(mm);
}

int fsl_mon_metrics__target(struct fsl_mon_metrics *mm, const char *label, const char *disk,
			    uint32_t dev, uint32_t blkdev, uint32_t commit_jiffies)
{
	struct fsl_mon_fs *f;

	if (mm->ntargets >= MON_TARGETS_MAX)
		return -ENOSPC;
	f = &mm->fs[mm->ntargets];
	snprintf(f->label, sizeof(f->label), "%s", label);
	snprintf(f->disk, sizeof(f->disk), "%s", disk);
	f->dev = dev;
	f->blkdev = blkdev;
	f->commit_jiffies = commit_jiffies;
	return mm->ntargets++;
}

void fsl_mon_metrics__apply(struct fsl_mon_metrics *mm, const struct mon_key *k,
			    const struct mon_val *v)
{
	struct fsl_mon_hist *h = NULL;
	struct fsl_mon_fs *f;

	if (k->kind == MON_AGG_FULL) {
		mm->agg_full = v->count;
		return;
	}
	if (k->tgt >= mm->ntargets)
		return;
	f = &mm->fs[k->tgt];
	switch (k->kind) {
	case MON_OP_HIST:
		if (k->a < MON_OPS)
			h = &f->op[k->a];
		break;
	case MON_DATA_BYTES:
		if (k->a == MON_OP_READ || k->a == MON_OP_WRITE)
			f->data_bytes[k->a - MON_OP_READ] = v->sum;
		break;
	case MON_COMMITS:
		if (k->a < MON_TRIGS)
			f->commits[k->a] = v->count;
		break;
	case MON_COMMIT_HIST:
		h = &f->commit;
		break;
	case MON_CHECKPOINTS:
		f->checkpoints = v->count;
		break;
	case MON_WB_PAGES:
		if (k->a < MON_WB__MAX)
			f->wb_pages[k->a] = v->sum;
		break;
	case MON_THROTTLE:
		f->throttle_jiffies = v->sum;
		break;
	case MON_IO_HIST:
		if (k->a < MON_IO__MAX && k->b < 2)
			h = &f->io[k->a][k->b];
		break;
	case MON_IO_BYTES:
		if (k->a < MON_IO__MAX)
			f->io_bytes[k->a] = v->sum;
		break;
	case MON_SEEKS:
		if (k->a < MON_IO__MAX)
			f->seeks[k->a] = v->count;
		break;
	}
	if (h && k->x >= 0 && k->x < MON_HIST_BUCKETS) {
		h->b[k->x] = v->count;
		h->s[k->x] = v->sum;
	}
}

void fsl_mon_metrics__blocked(struct fsl_mon_metrics *mm, unsigned int tgt, unsigned int role,
			      unsigned int cls, uint64_t ns)
{
	if (cls >= FSL_WC__MAX || role > 1)
		return;
	if (tgt < mm->ntargets)
		mm->fs[tgt].blocked_ns[cls][role] += ns;
	else
		mm->other_blocked_ns[cls][role] += ns;
}

double fsl_mon_metrics__blocked_s(const struct fsl_mon_metrics *mm, unsigned int tgt,
				  unsigned int cls, int role)
{
	const uint64_t *r;

	if (cls >= FSL_WC__MAX)
		return 0;
	r = tgt < mm->ntargets ? mm->fs[tgt].blocked_ns[cls] : mm->other_blocked_ns[cls];
	return (role < 0 ? r[0] + r[1] : r[role & 1]) / 1e9;
}

double fsl_mon_bucket_le(unsigned int b)
{
	return ldexp(1.0, (int)b) / 1e9;
}

uint64_t fsl_mon_hist_quantile(const struct fsl_mon_hist *cur, const struct fsl_mon_hist *prev,
			       double q)
{
	uint64_t n = 0, acc = 0, d[MON_HIST_BUCKETS];
	unsigned int b;

	for (b = 0; b < MON_HIST_BUCKETS; b++) {
		d[b] = cur->b[b] - (prev ? prev->b[b] : 0);
		n += d[b];
	}
	if (!n)
		return 0;
	for (b = 0; b < MON_HIST_BUCKETS; b++) {
		acc += d[b];
		if ((double)acc >= q * (double)n)
			return 1ull << b;
	}
	return 1ull << (MON_HIST_BUCKETS - 1);
}

static const char *const op_names[MON_OPS] = {
	[MON_OP_READ] = "read", [MON_OP_WRITE] = "write",
};

const char *fsl_mon_op_name(unsigned int op)
{
	if (op < FSL_OP__MAX)
		return fsl_dirop_name(op);
	return op < MON_OPS ? op_names[op] : NULL;
}

/*
 * "10ms", "1.5s", "200us", "5000ns": a decimal read as seconds are
 * (lib/text.c, exact), then its unit. The number can be at most
 * 18446744073 (the seconds that fit in ns), so a threshold in ns is at most
 * about 18 s; longer ones are written in ms or s.
 */
static int parse_dur(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t div;
	} u[] = { { "ns", 1000000000 }, { "us", 1000000 }, { "ms", 1000 }, { "s", 1 } };
	size_t n = strspn(s, "0123456789.eE+-");
	unsigned int i;
	char num[32];
	uint64_t v;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = 0;
	if (fsl_parse_seconds(num, &v))
		return -EINVAL;
	for (i = 0; i < 4; i++)
		if (!strcmp(s + n, u[i].unit)) {
			/* v is the number times 1e9: scaled to ns, rounded */
			*ns = v / u[i].div + (v % u[i].div >= (u[i].div + 1) / 2);
			return *ns ? 0 : -EINVAL;
		}
	return -EINVAL;
}

int fsl_mon_trigger_parse(const char *expr, struct fsl_mon_trigger *t)
{
	const char *gt = strchr(expr, '>');
	char what[32];
	size_t n;
	unsigned int op;

	memset(t, 0, sizeof(*t));
	if (!gt || (n = gt - expr) == 0 || n >= sizeof(what))
		return -EINVAL;
	memcpy(what, expr, n);
	what[n] = 0;
	if (parse_dur(gt + 1, &t->over_ns))
		return -EINVAL;
	if (!strcmp(what, "wait")) {
		t->kind = FSL_MON_TRIG_WAIT;
		return 0;
	}
	if (!strcmp(what, "commit")) {
		t->kind = FSL_MON_TRIG_COMMIT;
		return 0;
	}
	if (!strncmp(what, "p99:", 4)) {
		for (op = 0; op < MON_OPS; op++)
			if (fsl_mon_op_name(op) && !strcmp(fsl_mon_op_name(op), what + 4)) {
				t->kind = FSL_MON_TRIG_P99;
				t->op = op;
				return 0;
			}
	}
	return -EINVAL;
}

size_t fsl_mon_label_escape(const char *in, char *out, size_t outsz)
{
	size_t n = 0;

	if (!outsz)
		return 0;
	for (; *in && n + 2 < outsz; in++) {
		if (*in == '\\' || *in == '"') {
			out[n++] = '\\';
			out[n++] = *in;
		} else if (*in == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else {
			out[n++] = *in;
		}
	}
	out[n] = 0;
	return n;
}

/* ---- rendering ---- */

struct out {
	char *buf;
	size_t len, cap;
	int err;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->err = -EINVAL;
			return;
		}
		if (o->len + n < o->cap)
			break;
		{
			size_t cap = (o->cap ? o->cap * 2 : 65536) + n;
			char *b = realloc(o->buf, cap);

			if (!b) {
				o->err = -ENOMEM;
				return;
			}
			o->buf = b;
			o->cap = cap;
		}
	}
	o->len += n;
}

static void family(struct out *o, const char *name, const char *type, const char *help)
{
	put(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* labels: a preformatted `k="v",...` string (escaped), without braces */
static void hist(struct out *o, const char *name, const char *labels, const struct fsl_mon_hist *h)
{
	uint64_t acc = 0, sum = 0;
	unsigned int b;

	for (b = 0; b < MON_HIST_BUCKETS; b++) {
		acc += h->b[b];
		sum += h->s[b];
		if (b < LE_FIRST)
			continue;
		put(o, "%s_bucket{%s,le=\"%.6g\"} %" PRIu64 "\n", name, labels,
		    fsl_mon_bucket_le(b), acc);
	}
	put(o, "%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", name, labels, acc);
	put(o, "%s_sum{%s} %.9f\n", name, labels, sum / 1e9);
	put(o, "%s_count{%s} %" PRIu64 "\n", name, labels, acc);
}

static uint64_t hist_n(const struct fsl_mon_hist *h)
{
	uint64_t n = 0;
	unsigned int b;

	for (b = 0; b < MON_HIST_BUCKETS; b++)
		n += h->b[b];
	return n;
}

static const char *const trig_names[MON_TRIGS] = {
	"unknown", "timer", "fsync", "full", "log_space", "sync",
};
static const char *const wb_names[MON_WB__MAX] = {
	"periodic", "background", "sync", "integrity", "other",
};
static const char *const io_names[MON_IO__MAX] = {
	"read", "write", "flush", "discard", "other",
};

int fsl_mon_metrics__render(const struct fsl_mon_metrics *mm, char **buf, size_t *len)
{
	static const char *const roles[2] = { "workload", "kthread" };
	char fsl[MON_TARGETS_MAX][1100], dl[MON_TARGETS_MAX][1100], lab[9000];
	struct out o = { 0 };
	unsigned int i, c, r, op, s;

	for (i = 0; i < mm->ntargets; i++) {
		char esc[1040];

		fsl_mon_label_escape(mm->fs[i].label, esc, sizeof(esc));
		snprintf(fsl[i], sizeof(fsl[i]), "fs=\"%s\"", esc);
		fsl_mon_label_escape(mm->fs[i].disk, esc, 140);
		snprintf(dl[i], sizeof(dl[i]), "dev=\"%s\"", esc);
	}

	family(&o, "fslens_blocked_seconds_total", "counter",
	       "Time tasks spent blocked (uninterruptible), by filesystem, wait class and role.");
	for (i = 0; i <= mm->ntargets; i++)
		for (c = 0; c < FSL_WC__MAX; c++)
			for (r = 0; r < 2; r++) {
				uint64_t ns = i < mm->ntargets ? mm->fs[i].blocked_ns[c][r] :
						       mm->other_blocked_ns[c][r];

				if (!ns)
					continue;
				put(&o, "fslens_blocked_seconds_total{%s,class=\"%s\",role=\"%s\"} "
				    "%.9f\n", i < mm->ntargets ? fsl[i] : "fs=\"other\"",
				    fsl_wclass_id(c), roles[r], ns / 1e9);
			}

	family(&o, "fslens_op_latency_seconds", "histogram",
	       "Latency of filesystem system calls on the target, entry to exit.");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < MON_OPS; op++) {
			if (!fsl_mon_op_name(op) || !hist_n(&mm->fs[i].op[op]))
				continue;
			snprintf(lab, sizeof(lab), "%s,op=\"%s\"", fsl[i], fsl_mon_op_name(op));
			hist(&o, "fslens_op_latency_seconds", lab, &mm->fs[i].op[op]);
		}

	family(&o, "fslens_data_bytes_total", "counter",
	       "Bytes read and written by read/write system calls on the target's files.");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < 2; op++)
			put(&o, "fslens_data_bytes_total{%s,op=\"%s\"} %" PRIu64 "\n", fsl[i],
			    op ? "write" : "read", mm->fs[i].data_bytes[op]);

	family(&o, "fslens_journal_commits_total", "counter",
	       "jbd2 commits of the target's journal, by what triggered them.");
	for (i = 0; i < mm->ntargets; i++)
		for (s = 0; s < MON_TRIGS; s++)
			put(&o, "fslens_journal_commits_total{%s,trigger=\"%s\"} %" PRIu64 "\n",
			    fsl[i], trig_names[s], mm->fs[i].commits[s]);

	family(&o, "fslens_journal_commit_seconds", "histogram",
	       "Duration of jbd2 commits, start_commit to end_commit.");
	for (i = 0; i < mm->ntargets; i++)
		hist(&o, "fslens_journal_commit_seconds", fsl[i], &mm->fs[i].commit);

	family(&o, "fslens_journal_checkpoints_total", "counter",
	       "jbd2 checkpoints of the target's journal.");
	for (i = 0; i < mm->ntargets; i++)
		put(&o, "fslens_journal_checkpoints_total{%s} %" PRIu64 "\n", fsl[i],
		    mm->fs[i].checkpoints);

	family(&o, "fslens_writeback_pages_total", "counter",
	       "Pages written back from the target's inodes, by reason.");
	for (i = 0; i < mm->ntargets; i++)
		for (s = 0; s < MON_WB__MAX; s++)
			put(&o, "fslens_writeback_pages_total{%s,reason=\"%s\"} %" PRIu64 "\n",
			    fsl[i], wb_names[s], mm->fs[i].wb_pages[s]);

	family(&o, "fslens_throttle_seconds_total", "counter",
	       "Time writers were paused by balance_dirty_pages on the target's disk.");
	for (i = 0; i < mm->ntargets; i++)
		put(&o, "fslens_throttle_seconds_total{%s} %.9f\n", fsl[i],
		    mm->hz > 0 ? (double)mm->fs[i].throttle_jiffies / mm->hz : 0.0);

	family(&o, "fslens_io_latency_seconds", "histogram",
	       "Block request latency on the target's disk: d2c (issue to complete), "
	       "q2c (bio queued to complete).");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < MON_IO__MAX; op++)
			for (s = 0; s < 2; s++) {
				if (!hist_n(&mm->fs[i].io[op][s]))
					continue;
				snprintf(lab, sizeof(lab), "%s,op=\"%s\",stage=\"%s\"", dl[i],
					 io_names[op], s ? "q2c" : "d2c");
				hist(&o, "fslens_io_latency_seconds", lab, &mm->fs[i].io[op][s]);
			}

	family(&o, "fslens_io_bytes_total", "counter", "Bytes completed on the target's disk.");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < MON_IO__MAX; op++)
			put(&o, "fslens_io_bytes_total{%s,op=\"%s\"} %" PRIu64 "\n", dl[i],
			    io_names[op], mm->fs[i].io_bytes[op]);

	family(&o, "fslens_seeks_total", "counter",
	       "Requests issued on the target's disk not starting where the previous one "
	       "of the same op ended.");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < 2; op++)
			put(&o, "fslens_seeks_total{%s,op=\"%s\"} %" PRIu64 "\n", dl[i],
			    io_names[op], mm->fs[i].seeks[op]);

	family(&o, "fslens_lost_events_total", "counter",
	       "Events lost: the flight recorder's ring full (per family), or the in-kernel "
	       "aggregate map full (family monitor).");
	for (i = 0; i < FSL_FAM__MAX; i++)
		put(&o, "fslens_lost_events_total{family=\"%s\"} %" PRIu64 "\n", fsl_family_name(i),
		    mm->lost[i]);
	put(&o, "fslens_lost_events_total{family=\"monitor\"} %" PRIu64 "\n", mm->agg_full);

	family(&o, "fslens_flight_captures_total", "counter",
	       "Flight-recorder traces written (result ok) or failed.");
	put(&o, "fslens_flight_captures_total{result=\"ok\"} %" PRIu64 "\n", mm->captures);
	put(&o, "fslens_flight_captures_total{result=\"failed\"} %" PRIu64 "\n",
	    mm->captures_failed);
	family(&o, "fslens_flight_triggers_suppressed_total", "counter",
	       "Flight-recorder triggers dropped by the rate limit.");
	put(&o, "fslens_flight_triggers_suppressed_total %" PRIu64 "\n", mm->triggers_suppressed);
	family(&o, "fslens_unnamed_stacks_total", "counter",
	       "Blocked-time entries whose kernel stack was no longer available (class other).");
	put(&o, "fslens_unnamed_stacks_total %" PRIu64 "\n", mm->stacks_unnamed);
	family(&o, "fslens_start_time_seconds", "gauge", "When this monitor started, unix time.");
	put(&o, "fslens_start_time_seconds %.0f\n", mm->start_time);
	if (o.err) {
		free(o.buf);
		return o.err;
	}
	*buf = o.buf;
	*len = o.len;
	return 0;
}
