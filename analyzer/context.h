/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context stage (perf's machine/thread layer), as the analyses see it.
 * It owns the tasks (names, roles, the process tree from proc records), the
 * per-process totals of each window, the wait class of each stack and when
 * the latest wait of each class began; it
 * annotates every event (struct fsl_evctx: role, class) before any analysis
 * sees it. Analyses read it, never each other. Public half: analysis.h.
 */
#ifndef FSL_CONTEXT_H
#define FSL_CONTEXT_H

#include <stdint.h>
#include "fslens/analysis.h"
#include "fslens/hashmap.h"
#include "fslens/scope.h"
#include "fslens/session.h"
#include "blockclass.h"

struct fsl_ctx_stack {
	uint8_t cls;
	uint8_t ccls;		/* enum fsl_cclass, for an on-CPU sample's stack */
	uint8_t missing;	/* the id is not in the trace's stack table */
	uint8_t child;		/* a parent's wait for its vfork child (FSL_EVCTX_CHILD) */
	struct fsl_scope_stack sc;	/* what its frames say about scope */
};

struct fsl_context {
	struct fsl_stage stage;
	const struct fsl_meta *meta;
	int64_t root_opt;	/* -1: record.root_pid from the metadata */
	int64_t root_pid;	/* 0: no root, every user task is the workload */
	struct fsl_map tasks;	/* tgid -> struct fsl_ctx_task */
	size_t prune_at;	/* tasks counted when the long-exited ones are forgotten next */
	struct fsl_map classes;	/* stack id -> struct fsl_ctx_stack */
	/* Start of the latest stall of each class, any task (journal: why a commit began). */
	uint64_t last_wait_start[FSL_WC__MAX];
	int32_t last_id;		/* the stack arrive() looked up last... */
	struct fsl_ctx_stack last;	/* ...and what it is */
	/* "jbd2/loop0-": the target's journal thread's name up to its number; "" = no target */
	char jbd2_prefix[48];
	/*
	 * Scope of waits (design.md, scope and accounting): set when the
	 * trace has a target. disk: the device under it; fs: its type.
	 */
	int scoped;
	uint32_t disk;
	uint8_t fs;
	/*
	 * The trace holds the target's path and data operations (dirops
	 * recorded with a target): a process that made none, and had no wait
	 * judged, has shown no work on the target.
	 */
	uint8_t ops_known;
	struct fsl_map own_kthreads;	/* tid -> u8: the target's flusher or loop worker */
	struct fsl_map scope_cache;	/* tid -> struct fsl_ctx_scope: its current wait's verdict */
	struct fsl_map jbd2_dev;	/* jbd2 thread's tid -> the disk its own waits were woken by */
	struct fsl_map proc_seen;	/* tgid -> struct fsl_scope_tally: its judged waits, ops */
	struct fsl_blockclass *bc;	/* what each block of the target holds (blockclass.h) */
};

/*
 * Per-process totals of one window (tgid -> struct fsl_proc_stat): each set
 * of analyses keeps one for its window (windows differ between the sets on
 * one session: top's interval and totals, compare's phases), its analyses
 * add what they count, and the set reads them sorted. The context stage
 * owns them, as it owns the tasks they are of: an entry starts with the
 * task's role and name, and no analysis calls back into the set for it.
 *
 * Bounded when max is set (a live top sees every short process of the
 * machine go by; a report keeps them all): a new process past max sums the
 * half that did least, exited ones first, into one row, pid 0
 * "(evicted)" (key FSL_CTX_PROCS_EVICTED), nothing lost. off: nobody reads
 * them (no section shows processes), so none are kept. The owner sets
 * both after __init.
 */
struct fsl_ctx_procs {
	struct fsl_context *cx;
	struct fsl_map map;
	struct fsl_proc_stat *sorted;	/* what fsl_ctx_procs__sorted() returned */
	size_t cap;
	unsigned int max;		/* at most this many processes (0: no bound) */
	int off;			/* keep none: __get() returns NULL */
	uint64_t evicted;		/* processes summed into the evicted row this window */
};

/* The key of the row evicted processes are summed into (no tgid is this). */
#define FSL_CTX_PROCS_EVICTED	(1ull << 32)

void fsl_ctx_procs__init(struct fsl_ctx_procs *p, struct fsl_context *cx);
void fsl_ctx_procs__free(struct fsl_ctx_procs *p);
/* A new window: every total gone, the evicted count too. */
void fsl_ctx_procs__clear(struct fsl_ctx_procs *p);
/*
 * The totals of tgid pid (made with its role and name, evicting first when
 * the table is full); NULL when off, or on ENOMEM.
 */
struct fsl_proc_stat *fsl_ctx_procs__get(struct fsl_ctx_procs *p, uint32_t pid);
/*
 * Every process with totals, most blocked first (then most operations,
 * then by pid), each named as it is called now (exec and comm changes come
 * after its first event). *out is valid until the next call or clear.
 */
unsigned int fsl_ctx_procs__sorted(struct fsl_ctx_procs *p, const struct fsl_proc_stat **out);

/* Role of tgid; kthread_hint = 1 when its stack says it runs from kthread(). */
int fsl_context__role(struct fsl_context *cx, uint32_t pid, int kthread_hint);
/* Name of tgid as the proc records gave it, NULL if unknown. */
const char *fsl_context__comm(const struct fsl_context *cx, uint32_t pid);
/* Its cgroup v2 path as the proc records gave it, NULL if unknown. */
const char *fsl_context__cgroup(const struct fsl_context *cx, uint32_t pid);
/* When tgid exited (its exit record's time), 0 if it has not (or is unknown). */
uint64_t fsl_context__exited(const struct fsl_context *cx, uint32_t pid);
/* CPU class of a sample's stack id (cached; FSL_CC_KERNEL_OTHER for an unknown id). */
unsigned int fsl_context__cpu_class(struct fsl_context *cx, int32_t stack_id);
/* The block classes of the target, as of the event being handled. */
static inline const struct fsl_blockclass *fsl_context__blocks(const struct fsl_context *cx)
{
	return cx->bc;
}
/* Wait class of a stack id (cached; FSL_WC_OTHER for -1 or an unknown id). */
unsigned int fsl_context__class(struct fsl_context *cx, int32_t stack_id);

#endif
