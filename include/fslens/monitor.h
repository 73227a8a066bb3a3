/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fslens monitor: the metrics state (collector/monitor_metrics.c, no libbpf)
 * and the in-kernel aggregates that feed it (collector/monitor_bpf.c).
 *
 *	mm = fsl_mon_metrics__new();			targets named with __target
 *	m = fsl_monitor__new(mm, &opts, &err);		load, fill the target maps
 *	fsl_monitor__start(m);				attach
 *	every interval: fsl_monitor__read(m);		kernel maps -> mm
 *	fsl_mon_metrics__render(mm, &buf, &len);	Prometheus text (0.0.4)
 *
 * Counters other than blocked time are cumulative in the kernel and copied;
 * blocked time is read and deleted per stack id, named with the wait-class
 * table (analyzer/waitclass.c) and added here. Nothing prints.
 */
#ifndef FSLENS_MONITOR_H
#define FSLENS_MONITOR_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "monitor_abi.h"
#include "analysis.h"

#define MON_OPS		34	/* dirop kinds, then MON_OP_READ, MON_OP_WRITE */
#define MON_TRIGS	6

/* Counts per bucket and the sum of the values in each (the kernel keys by bucket). */
struct fsl_mon_hist {
	uint64_t b[MON_HIST_BUCKETS];
	uint64_t s[MON_HIST_BUCKETS];
};

struct fsl_mon_fs {
	char label[512];	/* the fs label: its mount point */
	char disk[64];		/* the disk label: "loop0" */
	uint32_t dev, blkdev;
	uint32_t commit_jiffies;
	uint64_t blocked_ns[FSL_WC__MAX][2];	/* class, role */
	struct fsl_mon_hist op[MON_OPS];
	uint64_t data_bytes[2];			/* read, write */
	uint64_t commits[MON_TRIGS];
	struct fsl_mon_hist commit;
	uint64_t checkpoints;
	uint64_t wb_pages[MON_WB__MAX];
	uint64_t throttle_jiffies;
	struct fsl_mon_hist io[MON_IO__MAX][2];	/* op, stage (d2c, q2c) */
	uint64_t io_bytes[MON_IO__MAX];
	uint64_t seeks[MON_IO__MAX];
};

struct fsl_mon_metrics {
	unsigned int ntargets;
	struct fsl_mon_fs fs[MON_TARGETS_MAX];
	uint64_t other_blocked_ns[FSL_WC__MAX][2];	/* waits on no target fs */
	int hz;
	uint64_t lost[FSL_FAM__MAX];	/* flight recorder's ring, per family */
	uint64_t agg_full;		/* in-kernel updates dropped (map full) */
	uint64_t stacks_unnamed;	/* blocked entries whose stack was gone */
	uint64_t captures;		/* flight-recorder traces written */
	uint64_t captures_failed;
	uint64_t triggers_suppressed;	/* rate-limited */
	uint64_t scrapes;
	double start_time;		/* unix seconds */
};

struct fsl_mon_metrics *fsl_mon_metrics__new(void);
void fsl_mon_metrics__free(struct fsl_mon_metrics *mm);
/* Add a target; -ENOSPC past MON_TARGETS_MAX. Returns its index. */
int fsl_mon_metrics__target(struct fsl_mon_metrics *mm, const char *label, const char *disk,
			    uint32_t dev, uint32_t blkdev, uint32_t commit_jiffies);
/* One aggregate from the kernel (per-CPU values summed). */
void fsl_mon_metrics__apply(struct fsl_mon_metrics *mm, const struct mon_key *k,
			    const struct mon_val *v);
/* Blocked time of one stack id, already named (class). */
void fsl_mon_metrics__blocked(struct fsl_mon_metrics *mm, unsigned int tgt, unsigned int role,
			      unsigned int cls, uint64_t ns);
/* Blocked seconds of a target by class over both roles or one (role < 0 = both). */
double fsl_mon_metrics__blocked_s(const struct fsl_mon_metrics *mm, unsigned int tgt,
				  unsigned int cls, int role);
/*
 * p-quantile (0..1) in ns of the difference of two snapshots of a histogram
 * (prev may be NULL), by the bucket's upper bound; 0 if empty.
 */
uint64_t fsl_mon_hist_quantile(const struct fsl_mon_hist *cur, const struct fsl_mon_hist *prev,
			       double q);
/* Prometheus text exposition (version 0.0.4) into a malloc'd buffer. */
int fsl_mon_metrics__render(const struct fsl_mon_metrics *mm, char **buf, size_t *len);
/* A label value escaped per the exposition format (\\, \", \n) into out. */
size_t fsl_mon_label_escape(const char *in, char *out, size_t outsz);
/* "create", "read", ...; NULL for an index with no name. */
const char *fsl_mon_op_name(unsigned int op);
/* Bucket upper bound, seconds. */
double fsl_mon_bucket_le(unsigned int b);

/* --trigger EXPR: "wait>200ms", "commit>1s", "p99:create>50ms" (units ns, us, ms, s). */
enum { FSL_MON_TRIG_WAIT = 1, FSL_MON_TRIG_COMMIT, FSL_MON_TRIG_P99 };

struct fsl_mon_trigger {
	int kind;
	unsigned int op;	/* FSL_MON_TRIG_P99: the operation */
	uint64_t over_ns;
};

/* 0, or -EINVAL with a malformed expression. */
int fsl_mon_trigger_parse(const char *expr, struct fsl_mon_trigger *t);

/* ---- the in-kernel side (collector/monitor_bpf.c) ---- */
struct fsl_monitor;

struct fsl_monitor_opts {
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

struct fsl_monitor *fsl_monitor__new(struct fsl_mon_metrics *mm, const struct fsl_monitor_opts *o,
				     int *err);
int fsl_monitor__start(struct fsl_monitor *m);
int fsl_monitor__read(struct fsl_monitor *m);
void fsl_monitor__free(struct fsl_monitor *m);

#endif /* FSLENS_MONITOR_H */
