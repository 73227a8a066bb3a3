/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector: loads the probes, attaches them, drains the ring buffer
 * into a callback per event, and keeps the lost counters. Read through
 * the collector stream (stream.h) by `fslens record` and live `fslens top`.
 *
 *	c = fsl_collector__new(&opts, &err);	open + configure + load
 *	fsl_collector__start(c);		attach
 *	while (...) fsl_collector__poll(c, 100, on_event, ctx);
 *	fsl_collector__stop(c);			detach, then drain what is left
 *	fsl_collector__free(c);
 *
 * Functions return 0 / -errno and never print; problems worth telling the
 * user (a missing tracepoint, the attach mode) are in the warnings list.
 * In a build without BPF every call fails with -EOPNOTSUPP and
 * fsl_collector_built_in() is 0.
 */
#ifndef FSLENS_COLLECTOR_H
#define FSLENS_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "trace.h"

struct fsl_collector;

/*
 * The target's filesystem type: the journal and alloc families are ext4's
 * and jbd2's tracepoints on ext4, XFS's own on XFS (both with no target).
 */
enum fsl_collector_fs {
	FSL_COLLECTOR_FS_ANY = 0,	/* no target: every family's programs */
	FSL_COLLECTOR_FS_EXT4,
	FSL_COLLECTOR_FS_XFS,
	FSL_COLLECTOR_FS_OTHER,		/* neither: no journal or alloc programs */
};

/* --bench-floor: which programs attach and return at once (the floor of their cost) */
enum { FSL_FLOOR_NONE = 0, FSL_FLOOR_ALL, FSL_FLOOR_SYSCALLS };

struct fsl_collector_opts {
	uint32_t families;	/* mask of 1 << FSL_FAM_*; 0 = all */
	int fs;			/* enum fsl_collector_fs of the target */
	uint32_t dev;		/* fs dev_t (kernel encoding, FSL_MKDEV); 0 = any fs */
	uint32_t blkdev;	/* disk under the fs (block/writeback filter); 0 = any */
	uint32_t pid;		/* tgid to record (-p); 0 = none */
	const uint32_t *pids;	/* more tgids to record (-p A,B,...), npids of them */
	unsigned int npids;
	const uint32_t *tids;	/* only these threads (--tid), ntids of them; 0 = any */
	unsigned int ntids;
	const char *cgroup;	/* only tasks in this cgroup v2 directory or below; NULL = any */
	int follow;		/* record only tracked tgids and their descendants */
	uint64_t min_wait_ns;	/* off-CPU waits shorter than this are dropped in the kernel */
	int offcpu_all;		/* every sleep, not only uninterruptible */
	/* a live thread's whole-time snapshot at most this often; 0 = the default */
	uint64_t tasktime_period_ns;
	uint64_t ring_bytes;	/* ring buffer size; 0 = FSL_COLLECTOR_RING_DEFAULT */
	int force_raw_tp;	/* use raw_tp even where tp_btf is available */
	int force_classic;	/* classic tracepoints for ext4/jbd2 (their fallback) */
	int syscall_tp;		/* dirops on per-syscall tracepoints, not raw_syscalls */
	int floor;		/* benchmarks: FSL_FLOOR_*: programs attach and return at once */
	int full;		/* --full: also the events only replay reads (fsl_replay_only_tp) */
	unsigned int cpu_freq;	/* cpu family: samples per second per CPU; 0 = default */
	/* libbpf's messages go here (NULL = dropped). */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

#define FSL_COLLECTOR_RING_DEFAULT	(64ull << 20)
#define FSL_COLLECTOR_MIN_WAIT_DEFAULT	(100 * 1000ull)	/* ns */
/* Odd, so the samples do not run in step with the kernel's own periodic work. */
#define FSL_COLLECTOR_CPU_FREQ_DEFAULT	499
/*
 * Whole time per window: a thread's account snapshot at its first state
 * change 10 ms after its last record. A window edge then falls in a stretch
 * of at most 10 ms whose parts are shared out in proportion (docs/record.md).
 */
#define FSL_COLLECTOR_TT_PERIOD_DEFAULT	(10 * 1000000ull)	/* ns */

/* One event; the record is valid only during the call. Non-zero stops poll. */
typedef int (*fsl_collector_event_fn)(void *ctx, const struct fsl_hdr *ev);

/* 1 if this binary was built with the BPF collector. */
int fsl_collector_built_in(void);
/* A tracepoint whose events only replay reads: attached with --full only. */
int fsl_replay_only_tp(const char *tp);

struct fsl_collector *fsl_collector__new(const struct fsl_collector_opts *opts, int *err);
int fsl_collector__start(struct fsl_collector *c);
/* Add a tgid to the tracked set (with opts.follow; its children follow). */
int fsl_collector__track(struct fsl_collector *c, uint32_t tgid);
/*
 * Wait up to timeout_ms for events and deliver all that are ready.
 * Returns the number delivered, or -errno (-EINTR when interrupted).
 */
int fsl_collector__poll(struct fsl_collector *c, int timeout_ms, fsl_collector_event_fn fn,
			void *ctx);
/* Detach every probe and deliver what is still in the ring. */
int fsl_collector__stop(struct fsl_collector *c, fsl_collector_event_fn fn, void *ctx);
void fsl_collector__free(struct fsl_collector *c);

/* Lost events per family so far (ring full), summed over CPUs. */
int fsl_collector__lost(struct fsl_collector *c, uint64_t lost[FSL_FAM__MAX]);
/*
 * Bytes in the ring not yet consumed, and its size: how far the drain is
 * behind the probes right now. 0 or -errno.
 */
int fsl_collector__fill(struct fsl_collector *c, uint64_t *used, uint64_t *size);
/*
 * Kernel stack of an off-CPU record: up to max addresses, innermost first.
 * Returns the number of frames or -errno (-ENOENT if the id is unknown).
 */
int fsl_collector__stack(struct fsl_collector *c, int32_t id, uint64_t *ips, int max);

/* How the probes were attached: "tp_btf", "raw_tp", "tracepoint" joined by '+'. */
const char *fsl_collector__mode(const struct fsl_collector *c);
/* "tp_btf N, raw_tp N, tracepoint N": programs attached each way. */
const char *fsl_collector__attach_counts(const struct fsl_collector *c);
/* 1 if the kernel accepted an fentry program at start (used only as an extra). */
int fsl_collector__fentry(const struct fsl_collector *c);
/* Tracepoints this kernel does not have, comma separated ("" if none). */
const char *fsl_collector__missing(const struct fsl_collector *c);
/* The families actually loaded (a requested family may lose every probe). */
uint32_t fsl_collector__families(const struct fsl_collector *c);

#endif /* FSLENS_COLLECTOR_H */
