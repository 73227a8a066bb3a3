/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the analyses (the files of analyzer/, not the model): the
 * time base folding, the task table, and the per-analysis constructors the set
 * in analysis.c wires together. Their hash map is include/fslens/hashmap.h.
 */
#ifndef FSL_AN_INTERNAL_H
#define FSL_AN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "fslens/analysis.h"
#include "fslens/hashmap.h"
#include "fslens/text.h"

/* ---- time base ---- */
/*
 * Bin of time t on tb (setting t0 = origin on first use), folding when t is
 * past the last bin: *folds gets how many times the caller must halve its
 * series (an_fold_*). Times before t0 go to bin 0.
 */
unsigned int an_tb_bin(struct fsl_timebase *tb, uint64_t origin, uint64_t t, unsigned int *folds);
void an_fold_sum(uint64_t *s, unsigned int folds);
void an_fold_max(uint64_t *s, unsigned int folds);
void an_fold_sum32(uint32_t *s, size_t stride, unsigned int folds);

/* ---- window ---- */
struct an_window {
	uint64_t t0, t1;	/* t1 = 0: open */
};
static inline int an_in_window(const struct an_window *w, uint64_t t)
{
	return t >= w->t0 && (!w->t1 || t < w->t1);
}

/* ---- task table (tgid -> role, comm), shared by every analysis ---- */
struct an_task {
	uint32_t ppid;
	uint32_t flags;		/* FSL_PROC_* */
	int8_t role;		/* enum fsl_task_role, -1 = not computed */
	uint8_t known;		/* a proc record was seen */
	char comm[16];
};

struct an_tasks {
	struct fsl_map map;	/* tgid -> struct an_task */
	int64_t root_pid;	/* 0: no root */
};

void an_tasks_init(struct an_tasks *t);
void an_tasks_free(struct an_tasks *t);
void an_tasks_event(struct an_tasks *t, const struct fsl_ev_proc *ev);
/* Role of tgid; kthread_hint = 1 when something else says it is a kernel thread. */
int an_tasks_role(struct an_tasks *t, uint32_t pid, int kthread_hint);
const char *an_tasks_comm(const struct an_tasks *t, uint32_t pid);

/* Context every analysis gets. */
struct an_ctx {
	const struct fsl_meta *meta;
	struct an_tasks tasks;
	struct an_window win;
	uint64_t origin;	/* time base origin: window t0, else first event */
	uint64_t hz;		/* host.hz, default 250 */
	uint32_t target_dev;
	uint64_t now;
	struct fsl_map procs;	/* tgid -> struct fsl_proc_stat (window) */
	/* Start of the latest wait of each class, any task, any window: the
	 * journal reads it to tell why a commit started. */
	uint64_t last_wait_start[FSL_WC__MAX];
	uint64_t waits_without_stack;	/* in the window: stack id absent from the trace */
	struct an_stalls *stalls;	/* for the class of a stack (ops' lookup waits) */
	const struct fsl_hdr *cur_wait;	/* the off-CPU event stalls just classified... */
	unsigned int cur_cls;		/* ...and its class */
	const char *mount;		/* target.mount, or NULL */
	size_t mount_len;
};

struct fsl_proc_stat *an_proc(struct an_ctx *c, uint32_t pid);

static inline uint64_t an_jiffies_ns(const struct an_ctx *c, uint64_t j)
{
	return j * (1000000000ull / (c->hz ? c->hz : 250));
}

static inline void an_comm_copy(char dst[16], const char *src)
{
	size_t n = src ? strnlen(src, 15) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = 0;
	fsl_text_sanitize(dst);	/* a task can name itself with terminal escapes */
}

/* ---- the analyses: each has new/free/reset and a consumer ---- */
struct an_stalls;
struct an_stalls *an_stalls_new(struct an_ctx *c);
void an_stalls_free(struct an_stalls *s);
void an_stalls_reset(struct an_stalls *s);
struct fsl_consumer *an_stalls_consumer(struct an_stalls *s);
const struct fsl_stalls *an_stalls_result(struct an_stalls *s);
/* Wait class of a stack id (cached). */
unsigned int an_stalls_class(struct an_stalls *s, int32_t stack_id);
/* A wait was fed (its effect comes at its end): note when it began. */
void an_stalls_note_start(struct an_stalls *s, const struct fsl_hdr *ev);

struct an_ops;
struct an_ops *an_ops_new(struct an_ctx *c);
void an_ops_free(struct an_ops *s);
void an_ops_reset(struct an_ops *s);
struct fsl_consumer *an_ops_consumer(struct an_ops *s);
const struct fsl_ops *an_ops_result(struct an_ops *s);

struct an_journal;
struct an_journal *an_journal_new(struct an_ctx *c);
void an_journal_free(struct an_journal *s);
void an_journal_reset(struct an_journal *s);
struct fsl_consumer *an_journal_consumer(struct an_journal *s);
const struct fsl_journal *an_journal_result(struct an_journal *s);

struct an_writeback;
struct an_writeback *an_writeback_new(struct an_ctx *c);
void an_writeback_free(struct an_writeback *s);
void an_writeback_reset(struct an_writeback *s);
struct fsl_consumer *an_writeback_consumer(struct an_writeback *s);
const struct fsl_writeback *an_writeback_result(struct an_writeback *s);

struct an_blockio;
struct an_blockio *an_blockio_new(struct an_ctx *c);
void an_blockio_free(struct an_blockio *s);
void an_blockio_reset(struct an_blockio *s);
struct fsl_consumer *an_blockio_consumer(struct an_blockio *s);
const struct fsl_blockio *an_blockio_result(struct an_blockio *s);

struct an_layout;
struct an_layout *an_layout_new(struct an_ctx *c);
void an_layout_free(struct an_layout *s);
void an_layout_reset(struct an_layout *s);
struct fsl_consumer *an_layout_consumer(struct an_layout *s);
const struct fsl_layout *an_layout_result(struct an_layout *s);

struct an_health;
struct an_health *an_health_new(struct an_ctx *c);
void an_health_free(struct an_health *s);
void an_health_reset(struct an_health *s);
struct fsl_consumer *an_health_consumer(struct an_health *s);
const struct fsl_health *an_health_result(struct an_health *s);

/* Diagnosis inputs (analysis.c): every analysis, sections or not. */
const struct fsl_ops *an_analysis_ops(struct fsl_analysis *a);
const struct fsl_journal *an_analysis_journal(struct fsl_analysis *a);
const struct fsl_writeback *an_analysis_writeback(struct fsl_analysis *a);
const struct fsl_blockio *an_analysis_blockio(struct fsl_analysis *a);
const struct an_ctx *an_analysis_ctx(struct fsl_analysis *a);

#endif
