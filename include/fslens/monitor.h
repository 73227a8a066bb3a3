/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fslens monitor: the metrics state (collector/monitor_metrics.c, no libbpf)
 * and the in-kernel aggregates that feed it (collector/monitor_bpf.c).
 *
 *	mm = fsl_mon_metrics__new();			targets named with __target
 *	m = fsl_monitor__new(mm, &opts, &err);		load, fill the target maps
 *	fsl_monitor__start(m);				attach
 *	every interval: fsl_monitor__read(m);		kernel maps -> mm
 *	every second too: fsl_monitor__read_cpu(m);	on-CPU samples -> mm
 *	fsl_mon_metrics__render(mm, &buf, &len);	Prometheus text (0.0.4)
 *
 * Counters other than blocked time are cumulative in the kernel; what each
 * kernel key gained since it was last read is added here. Blocked time is
 * read and deleted per key (stack id and scope evidence), named with the
 * wait-class table (analyzer/waitclass.c), judged with the scope rules
 * (analyzer/scope.c) and added. Nothing prints.
 */
#ifndef FSLENS_MONITOR_H
#define FSLENS_MONITOR_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "monitor_abi.h"
#include "analysis.h"
#include "hashmap.h"
#include "scope.h"

#define MON_TRIGS	6
#define MON_CGROUPS_MAX	64	/* --cgroup-label: cgroups named; the rest are "other" */
#define MON_CG_OTHER	MON_CGROUPS_MAX
#define MON_CG_HISTS	256	/* per-cgroup op histograms kept; more are counted as dropped */

/* Counts per fine bucket and the sum of the values in each (the kernel keys by bucket). */
struct fsl_mon_hist {
	uint64_t n[MON_FINE_BUCKETS];
	uint64_t s[MON_FINE_BUCKETS];
};

/* A target as the command resolved it. */
struct fsl_mon_target {
	const char *label;	/* its mount point */
	const char *disk;	/* "loop0" */
	const char *fstype;	/* "ext4" */
	const char *devname;	/* the fs device's kernel name: its journal thread is jbd2/NAME-N */
	uint32_t dev, blkdev;
	uint32_t commit_jiffies;	/* the journal's commit interval */
	uint32_t max_txn_blocks;	/* jbd2's transaction size limit, 0 unknown */
};

struct fsl_mon_fs {
	char label[512];	/* the fs label: its mount point */
	char disk[64];		/* the disk label: "loop0" */
	char devname[64];	/* the fs device: "loop0", "sda1" */
	uint32_t dev, blkdev;
	uint32_t commit_jiffies, max_txn_blocks;
	uint8_t fs;		/* enum fsl_ctx_fs of its type (include/fslens/scope.h) */
	uint64_t blocked_ns[FSL_WC__MAX][2];	/* class, role */
	uint64_t cpu_ns[FSL_CC__MAX][2];	/* on-CPU samples x period: class, role */
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

struct fsl_mon_cgroup {
	uint64_t id;		/* cgroup v2 id (the inode of its directory) */
	char path[256];		/* under the cgroup2 root ("/" the root), or "id:N" */
};

struct fsl_mon_metrics {
	unsigned int ntargets;
	struct fsl_mon_fs fs[MON_TARGETS_MAX];
	uint64_t other_blocked_ns[FSL_WC__MAX][2];	/* waits on no target fs */
	int hz;
	unsigned int cpu_hz;		/* the on-CPU samples' rate, 0: not sampled */
	uint64_t cpu_samples_unnamed;	/* samples whose stack was not kept (map full, gone) */
	uint64_t lost[FSL_FAM__MAX];	/* flight recorder's ring, per family */
	uint64_t agg_full;		/* in-kernel updates dropped (map full) */
	uint64_t stacks_unnamed;	/* blocked entries whose stack was gone */
	uint64_t captures;		/* flight-recorder traces written */
	uint64_t captures_failed;
	uint64_t triggers_suppressed;	/* rate-limited */
	uint64_t scrapes;
	double start_time;		/* unix seconds */
	/* --cgroup-label: the blocked and op families per cgroup too */
	int cgroups;
	char cgroup_root[256];		/* the cgroup2 mount the paths are under, "" none */
	unsigned int ncg;
	struct fsl_mon_cgroup cg[MON_CGROUPS_MAX];
	uint64_t cg_folded;		/* updates of cgroups past MON_CGROUPS_MAX ("other") */
	uint64_t cg_hists_dropped;	/* op updates past MON_CG_HISTS series */
	struct fsl_map cg_series;	/* packed series key -> struct fsl_mon_cg_series */
	unsigned int cg_nhists;
	/* the last cumulative value of each kernel key: slot 0 no cgroup, i + 1 cgroup i */
	struct fsl_map last[MON_CGROUPS_MAX + 1];
};

struct fsl_mon_metrics *fsl_mon_metrics__new(void);
void fsl_mon_metrics__free(struct fsl_mon_metrics *mm);
/* Add a target; -ENOSPC past MON_TARGETS_MAX. Returns its index. */
int fsl_mon_metrics__target(struct fsl_mon_metrics *mm, const struct fsl_mon_target *t);
/*
 * One aggregate from the kernel (per-CPU values summed). Kernel counters
 * are cumulative: what changed since the key's last value is added. With
 * deleted set the kernel entry was read and deleted: all of it is new.
 */
void fsl_mon_metrics__apply(struct fsl_mon_metrics *mm, const struct mon_key *k,
			    const struct mon_val *v, int deleted);
/* Forget a kernel key's last value (its entry was deleted). */
void fsl_mon_metrics__forget(struct fsl_mon_metrics *mm, const struct mon_key *k);
/*
 * The cgroup slot of a cgroup v2 id: its index, named on first sight (its
 * path under cgroup_root), or MON_CG_OTHER when the table is full.
 */
unsigned int fsl_mon_metrics__cg_slot(struct fsl_mon_metrics *mm, uint64_t id);
/*
 * Which filesystem a blocked entry's wait was on: a target's index or
 * MON_TGT_OTHER, by the scope rules (include/fslens/scope.h) from the
 * evidence in its key and what its stack says.
 */
unsigned int fsl_mon_wait_target(const struct fsl_mon_metrics *mm, const struct mon_key *k,
				 const struct fsl_scope_stack *st);
/* Blocked time of one stack id, already named (class) and judged (tgt); cg 0 none. */
void fsl_mon_metrics__blocked(struct fsl_mon_metrics *mm, unsigned int tgt, unsigned int role,
			      unsigned int cls, uint64_t cg, uint64_t ns);
/* On-CPU time of samples judged tgt's (MON_TGT_OTHER: dropped), of a CPU class; cg 0 none. */
void fsl_mon_metrics__cpu(struct fsl_mon_metrics *mm, unsigned int tgt, unsigned int role,
			  unsigned int cls, uint64_t cg, uint64_t ns);
/* Blocked seconds of a target by class over both roles or one (role < 0 = both). */
double fsl_mon_metrics__blocked_s(const struct fsl_mon_metrics *mm, unsigned int tgt,
				  unsigned int cls, int role);
/*
 * p-quantile (0..1) in ns of the difference of two snapshots of a histogram
 * (prev may be NULL), 0 if empty: the mean of the fine bucket the rank falls
 * in, so within half a fine bucket (1/16 of the value) of the true one, and
 * exact when that bucket's values are equal.
 */
uint64_t fsl_mon_hist_quantile(const struct fsl_mon_hist *cur, const struct fsl_mon_hist *prev,
			       double q);
/* Prometheus text exposition (version 0.0.4) into a malloc'd buffer. */
int fsl_mon_metrics__render(const struct fsl_mon_metrics *mm, char **buf, size_t *len);
/* A label value escaped per the exposition format (\\, \", \n) into out. */
size_t fsl_mon_label_escape(const char *in, char *out, size_t outsz);
/* "create", "read", ...; NULL for an index with no name. */
const char *fsl_mon_op_name(unsigned int op);
/* Power-of-two bucket upper bound, seconds. */
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
/*
 * A p99 trigger (kind FSL_MON_TRIG_P99) over the interval since prev (the
 * targets' op histograms then): the first target whose p99 of t->op is over
 * t->over_ns, its p99 in *p99; -1 if none.
 */
int fsl_mon_p99_over(const struct fsl_mon_metrics *mm, const struct fsl_mon_hist (*prev)[MON_OPS],
		     const struct fsl_mon_trigger *t, uint64_t *p99);

/*
 * The HTTP side (collector/monitor_http.c). listen_parse: "ADDR:PORT"
 * (IPv4; ":PORT" is every address) into network-order addr_be and port; 0
 * or -EINVAL. start: GET /metrics serves the page last published, POST
 * /trigger is taken once by take_trigger; NULL with -EADDRINUSE when it
 * cannot listen, -EOPNOTSUPP in a build without libmicrohttpd. publish
 * renders mm into the page served from then on.
 */
struct fsl_mon_http;
int fsl_mon_listen_parse(const char *listen, uint32_t *addr_be, uint16_t *port);
struct fsl_mon_http *fsl_mon_http__start(uint32_t addr_be, uint16_t port, int *err);
int fsl_mon_http__publish(struct fsl_mon_http *h, const struct fsl_mon_metrics *mm);
int fsl_mon_http__take_trigger(struct fsl_mon_http *h);
void fsl_mon_http__stop(struct fsl_mon_http *h);

/* ---- the in-kernel side (collector/monitor_bpf.c) ---- */
/*
 * Set-up (collector/monitor_setup.c). commit=N of the mount options (else
 * ext4's 5 s) in kernel jiffies. add_mount resolves MOUNT into t and adds it
 * (-ENOSPC past MON_TARGETS_MAX, else fsl_target_resolve's -errno);
 * add_all_ext4 adds every ext4 mounted in mounts_file (/proc/self/mounts),
 * each filesystem once, into tg[]: how many, or -errno.
 */
struct fsl_target;
uint32_t fsl_mon_commit_jiffies(const char *mount_options, int hz);
int fsl_mon_add_mount(struct fsl_mon_metrics *mm, const char *mount, int hz, struct fsl_target *t);
/*
 * The targets: each of mounts[0..n), or without any every ext4 mounted.
 * 0, or a -errno: of mounts[*bad] (-ENOSPC past MON_TARGETS_MAX); with
 * *bad -1, reading /proc/self/mounts, or -ENOENT: no ext4 is mounted.
 */
int fsl_mon_add_targets(struct fsl_mon_metrics *mm, const char *const *mounts, unsigned int n,
			int hz, struct fsl_target *tg, int *bad);
int fsl_mon_add_all_ext4(struct fsl_mon_metrics *mm, const char *mounts_file, int hz,
			 struct fsl_target *tg);

/*
 * The capture gate: a trigger taken becomes a capture after_ns later (the
 * capture holds that much after it); at most one capture per gap_ns, and a
 * trigger while one is pending or within the gap is suppressed.
 * offer: 1 taken, 0 suppressed. due: the pending capture's time has come
 * (why, tgt say which; tgt -1: every target); done clears it.
 */
struct fsl_mon_gate {
	int64_t gap_ns, after_ns;
	char why[160];
	int tgt;
	int64_t at, last;
	int have_last;
};
int fsl_mon_gate__offer(struct fsl_mon_gate *g, int64_t now, const char *why, int tgt);
int fsl_mon_gate__due(const struct fsl_mon_gate *g, int64_t now);
void fsl_mon_gate__done(struct fsl_mon_gate *g);

struct fsl_monitor;

struct fsl_monitor_opts {
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
	unsigned int cpu_hz;	/* on-CPU samples per second and CPU; 0: none */
	int floor;		/* benchmarks: FSL_FLOOR_ALL, FSL_FLOOR_SYSCALLS (as record), or 0 */
};

struct fsl_monitor *fsl_monitor__new(struct fsl_mon_metrics *mm, const struct fsl_monitor_opts *o,
				     int *err);
int fsl_monitor__start(struct fsl_monitor *m);
int fsl_monitor__read(struct fsl_monitor *m);
/*
 * The on-CPU samples only, at least every FSL_MON_CPU_READ_NS whatever the
 * interval: their stacks are unique at almost every sample (the leaf
 * instruction) and the stack map is emptied as it is read.
 */
#define FSL_MON_CPU_READ_NS	1000000000ull
int fsl_monitor__read_cpu(struct fsl_monitor *m);
/* The on-CPU stack map's entries for ncpus sampled at hz. */
unsigned int fsl_mon_cpu_stacks(unsigned int ncpus, unsigned int hz);
void fsl_monitor__free(struct fsl_monitor *m);

/* ---- the daemon's steps (collector/monitor_daemon.c) ---- */

struct fsl_flight;

struct fsl_mon_flight_cfg {
	uint64_t window_ns;		/* --flight */
	uint64_t max_bytes;		/* --flight-max, shared out among the targets */
	const char *dir;		/* -o */
	const struct fsl_mon_trigger *trigs;	/* wait> and commit> go to every recorder */
	unsigned int ntrigs;
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

/*
 * One flight recorder per target (fl[i] of mm's target i), each scoped as
 * `fslens record -m` would be. *made: how many were made (free them on
 * error too). 0, or the -errno of recorder *made.
 */
int fsl_mon_flights_new(const struct fsl_mon_metrics *mm, const struct fsl_target *tg,
			const struct fsl_mon_flight_cfg *cfg, struct fsl_flight **fl,
			unsigned int *made);
/*
 * An interval's end: the kernel's maps read into mm, the recorders' losses
 * summed into mm->lost, the p99 triggers checked against prev_op (the
 * histograms at the interval's start, then updated). The target whose p99
 * trigger fired (its line in trig), or -1.
 */
int fsl_mon_interval(struct fsl_monitor *km, struct fsl_flight **fl, unsigned int nfl,
		     struct fsl_mon_metrics *mm, struct fsl_mon_hist (*prev_op)[MON_OPS],
		     const struct fsl_mon_trigger *trigs, unsigned int ntrigs,
		     char *trig, size_t trigsz);
/*
 * The gate's capture: of its target's recorder, or of every one (tgt -1);
 * counted in mm; done(trace) after each trace written.
 */
void fsl_mon_capture(struct fsl_flight **fl, unsigned int nfl, const struct fsl_mon_gate *g,
		     struct fsl_mon_metrics *mm, void (*done)(const char *trace));

#endif /* FSLENS_MONITOR_H */
