/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole recording (collector/record.c): resolve the target, write its
 * metadata, load and attach the probes, run the workload command (held at
 * a gate until it is tracked), drain the collector stream into the trace
 * with a crash-safe flush every second, stop on the command's exit, the
 * duration, or SIGINT/SIGTERM/SIGHUP (forwarded to the command), then the
 * end state, lost counts and symbols. Everything `fslens record` does but
 * parsing options and printing: lines for the user go to the msg callback.
 */
#ifndef FSLENS_RECORD_H
#define FSLENS_RECORD_H

#include <stdint.h>
#include "event.h"

struct fsl_record_opts {
	const char *mount, *dev;	/* the target (-m / -d), or neither: every fs */
	const char *out;		/* trace file */
	int force;			/* overwrite out */
	uint32_t families;		/* mask of 1 << FSL_FAM_*; 0 = all */
	uint32_t pid;			/* -p (one pid) */
	const uint32_t *pids;		/* -p A,B,...: npids tgids */
	unsigned int npids;
	const uint32_t *tids;		/* --tid: only these threads */
	unsigned int ntids;
	const char *cgroup;		/* --cgroup: a cgroup v2 directory */
	char **cmd;			/* NULL-terminated command to run, or NULL */
	uint64_t duration_ns;		/* 0: until the command exits or a signal */
	uint64_t min_wait_us;
	uint64_t ring_bytes;		/* 0: the collector's default */
	int offcpu_all, force_raw_tp, force_classic, syscall_tp;
	int floor;			/* --bench-floor[=syscalls]: FSL_FLOOR_* */
	int full;			/* --full: also the events only replay reads */
	unsigned int cpu_freq;		/* --cpu-freq: cpu family samples/s per CPU; 0 = default */
	int verbose;			/* pass libbpf's messages to msg */
};

enum fsl_record_msg {
	FSL_RECORD_NOTE,	/* "fslens record: ..." (progress, notes) */
	FSL_RECORD_WARNING,	/* "fslens record: warning: ..." */
	FSL_RECORD_ERROR,	/* "fslens: ..." (what failed: why) */
	FSL_RECORD_FATAL,	/* "fslens record: ..." (a failure said in full) */
	FSL_RECORD_LIBBPF,	/* a libbpf line, as is (verbose) */
};

struct fsl_record_cb {
	void *ctx;
	void (*msg)(void *ctx, enum fsl_record_msg kind, const char *line);
};

/* The end summary. */
struct fsl_record_result {
	double secs;
	uint64_t nevents, bytes;
	uint64_t events[FSL_FAM__MAX], lost[FSL_FAM__MAX];
	uint32_t families;		/* requested, less what the target cannot have */
	int nstacks;			/* kernel stacks symbolized */
	int exit_code;			/* the command's (128 + signal), else 0 */
	int written;			/* the trace is complete: the summary holds */
	char loss_advice[512];		/* why events were lost and what to do; "" if none */
};

/*
 * Record. 0 (res filled), or -errno after a FATAL or ERROR message. The
 * trace is removed if the probes never loaded; once they are attached it
 * is completed even after a failure (res->written), unless a write failed:
 * then the chunks written so far stay readable.
 */
int fsl_record__run(const struct fsl_record_opts *o, const struct fsl_record_cb *cb,
		    struct fsl_record_result *res);

#endif /* FSLENS_RECORD_H */
