/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which filesystem a wait belongs to (design.md, scope and accounting):
 * the rules, once, for both places that judge waits. The context stage
 * (analyzer/context.c) gathers the evidence from a trace's records and
 * tables; `fslens monitor` (collector/monitor_bpf.c) from the marks its
 * probes keep in the kernel. Both hand it here, with what the wait's
 * kernel stack says, and get the same verdict.
 *
 * Pure functions, no state, no I/O (analyzer/scope.c).
 */
#ifndef FSLENS_SCOPE_H
#define FSLENS_SCOPE_H

#include <stdint.h>

/* Filesystems a stack can name by its frames (the code it waits in). */
enum fsl_ctx_fs { FSL_CTX_FS_NONE = 0, FSL_CTX_FS_EXT4, FSL_CTX_FS_XFS, FSL_CTX_FS_BTRFS,
		  FSL_CTX_FS_OTHER };
/* A target none of whose code a stack can name (tmpfs): no frame is its. */
#define FSL_CTX_FS_TARGET_ELSE	0xff

/* What a wait's kernel stack says about its scope. */
struct fsl_scope_stack {
	uint8_t kthread;	/* the stack runs from kthread() */
	uint8_t fs;		/* enum fsl_ctx_fs of its outermost filesystem frame */
	uint8_t loop;		/* a loop device's worker (loop_process_work) */
	uint8_t flush;		/* a flusher's work (wb_workfn) */
	uint8_t jwait;		/* waits for the journal thread (jbd2_log_wait_commit, ...) */
};

/* Frames innermost first, as "func+0x1a" or "func"; frames above kthread() are not read. */
void fsl_scope_stack_of_frames(const char *const *frames, unsigned int nframes,
			       struct fsl_scope_stack *out);
/* enum fsl_ctx_fs of a filesystem type name ("ext4", "xfs"); FSL_CTX_FS_TARGET_ELSE otherwise. */
unsigned int fsl_scope_fs_of_type(const char *fstype);

/* One piece of evidence: absent, points at the target, points elsewhere. */
enum { FSL_SCOPE_NONE = 0, FSL_SCOPE_TARGET, FSL_SCOPE_OTHER };

struct fsl_scope_evidence {
	uint8_t op;		/* inside a data/path operation, holding a jbd2 handle, or
				   waiting on a folio's writeback: of whom */
	uint8_t kthread;	/* the waiter is judged as a kernel thread */
	uint8_t jbd2;		/* it is a journal thread: the target's or another's */
	uint8_t flush;		/* TARGET: it is the target's flusher at work now */
	uint8_t loop;		/* TARGET: it is a worker of the target's loop device */
	uint8_t named;		/* a kernel thread of known name (not a journal thread) */
	uint8_t worked;		/* TARGET: a kernel thread seen working for the target (its
				   flusher or loop worker, now or before); samples only */
	uint8_t wake;		/* woken by a request completion: of the target's disk or another */
	uint8_t woken_jbd2;	/* woken while a journal thread ran (the probes' mark) */
	uint8_t waker_jbd2;	/* the waker is a journal thread (by its name) */
};

/* The evidence that decided (or none). */
enum fsl_scope_rule {
	FSL_SCOPE_RULE_NONE = 0,
	FSL_SCOPE_RULE_OP,
	FSL_SCOPE_RULE_JBD2,
	FSL_SCOPE_RULE_FLUSH,
	FSL_SCOPE_RULE_LOOP,
	FSL_SCOPE_RULE_KTHREAD_WAKE,
	FSL_SCOPE_RULE_WAKE,
	FSL_SCOPE_RULE_WOKEN_JBD2,
	FSL_SCOPE_RULE_WAKER_JBD2,
	FSL_SCOPE_RULE_FRAMES,
	FSL_SCOPE_RULE_KTHREAD,		/* a sample's kernel thread, by what it is */
};

/*
 * Does this wait wait on the target? 0 the target's, 1 another
 * filesystem's, -1 no evidence either way (the caller decides: the
 * context stage by the process's other waits, the monitor by the system
 * call the task is in). target_fs: the target's enum fsl_ctx_fs.
 */
int fsl_scope_decide(const struct fsl_scope_evidence *e, const struct fsl_scope_stack *st,
		     unsigned int target_fs, enum fsl_scope_rule *rule);

/*
 * Is an on-CPU sample another filesystem's work? The same evidence less
 * what only a wait has (a completion or a journal thread waking it): the
 * kernel's marks, then a kernel thread's identity (its journal thread, its
 * flusher or loop worker at that work, one seen working for the target;
 * any other named kernel thread is not the target's), then the
 * filesystem code the stack runs in. 0, 1, or -1 as fsl_scope_decide().
 */
int fsl_scope_decide_sample(const struct fsl_scope_evidence *e, const struct fsl_scope_stack *st,
			    unsigned int target_fs, enum fsl_scope_rule *rule);

/* What a process was judged to do: its waits, and its operations on the target. */
struct fsl_scope_tally {
	uint32_t target, other;
};

/*
 * No evidence of its own: where most of the process's judged waits and
 * operations went (1: another filesystem; a tie is the target's). A
 * process with none yet goes by its parent's (a job's shell forks a child
 * that waits only in fork or exec: it is the job's); dflt when neither has
 * any. self and parent may be NULL (nothing known).
 */
int fsl_scope_majority(const struct fsl_scope_tally *self, const struct fsl_scope_tally *parent,
		       int dflt);

#endif /* FSLENS_SCOPE_H */
