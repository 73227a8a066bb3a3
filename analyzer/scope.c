// SPDX-License-Identifier: GPL-2.0
/*
 * The wait-scope rules (include/fslens/scope.h), shared by the context
 * stage and the monitor so that a report and a Prometheus series say the
 * same thing about the same wait.
 */
#include <string.h>
#include "fslens/scope.h"
#include "fslens/text.h"

static int has_prefix(const char *s, const char *const *pre)
{
	for (; *pre; pre++)
		if (!strncmp(s, *pre, strlen(*pre)))
			return 1;
	return 0;
}

/* The filesystem whose code a function is (enum fsl_ctx_fs), by its name. */
static unsigned int frame_fs(const char *f)
{
	static const char *const ext4[] = { "ext4_", "__ext4_", "jbd2_", "__jbd2_", "jbd2__", NULL };
	static const char *const xfs[] = { "xfs_", "__xfs_", "xlog_", "xlog", NULL };
	static const char *const btrfs[] = { "btrfs_", "__btrfs_", NULL };
	static const char *const other[] = { "nfs_", "nfs4_", "fuse_", "f2fs_", NULL };

	if (has_prefix(f, ext4))
		return FSL_CTX_FS_EXT4;
	if (has_prefix(f, xfs))
		return FSL_CTX_FS_XFS;
	if (has_prefix(f, btrfs))
		return FSL_CTX_FS_BTRFS;
	if (has_prefix(f, other))
		return FSL_CTX_FS_OTHER;
	return FSL_CTX_FS_NONE;
}

unsigned int fsl_scope_fs_of_type(const char *t)
{
	if (!t)
		return FSL_CTX_FS_TARGET_ELSE;
	if (!strcmp(t, "ext4") || !strcmp(t, "ext3") || !strcmp(t, "ext2"))
		return FSL_CTX_FS_EXT4;
	if (!strcmp(t, "xfs"))
		return FSL_CTX_FS_XFS;
	if (!strcmp(t, "btrfs"))
		return FSL_CTX_FS_BTRFS;
	if (!strncmp(t, "nfs", 3) || !strncmp(t, "fuse", 4) || !strcmp(t, "f2fs"))
		return FSL_CTX_FS_OTHER;
	return FSL_CTX_FS_TARGET_ELSE;
}

void fsl_scope_stack_of_frames(const char *const *frames, unsigned int nframes,
			       struct fsl_scope_stack *out)
{
	unsigned int i, fs;
	char f[64];

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nframes; i++) {
		fsl_frame_func(frames[i], f, sizeof(f));
		if (!strcmp(f, "kthread")) {
			out->kthread = 1;
			break;
		}
		/* innermost first: the last one found is the outermost */
		fs = frame_fs(f);
		if (fs)
			out->fs = fs;
		if (!strcmp(f, "loop_process_work") || !strcmp(f, "loop_workfn"))
			out->loop = 1;
		if (!strcmp(f, "wb_workfn") || !strcmp(f, "wb_writeback"))
			out->flush = 1;
		if (!strcmp(f, "jbd2_log_wait_commit") || !strcmp(f, "wait_transaction_locked") ||
		    !strcmp(f, "wait_transaction_switching"))
			out->jwait = 1;
	}
}

/* The kernel marks a call or a jbd2 handle with its filesystem: that decides. */
static int op_rule(const struct fsl_scope_evidence *e, enum fsl_scope_rule *rule)
{
	if (!e->op)
		return -1;
	*rule = FSL_SCOPE_RULE_OP;
	return e->op == FSL_SCOPE_OTHER;
}

/* A kernel thread by what it is: a journal thread, a flusher or loop worker at work. */
static int kthread_rule(const struct fsl_scope_evidence *e, const struct fsl_scope_stack *st,
			enum fsl_scope_rule *rule)
{
	if (e->jbd2) {
		*rule = FSL_SCOPE_RULE_JBD2;
		return e->jbd2 == FSL_SCOPE_OTHER;
	}
	if (st->flush) {
		*rule = FSL_SCOPE_RULE_FLUSH;
		return e->flush != FSL_SCOPE_TARGET;
	}
	if (st->loop) {
		*rule = FSL_SCOPE_RULE_LOOP;
		return e->loop != FSL_SCOPE_TARGET;
	}
	return -1;
}

/* A stack in another filesystem's code is that filesystem's. */
static int frames_rule(const struct fsl_scope_stack *st, unsigned int target_fs,
		       enum fsl_scope_rule *rule)
{
	if (st->fs == FSL_CTX_FS_NONE || st->fs == target_fs)
		return -1;
	*rule = FSL_SCOPE_RULE_FRAMES;
	return 1;
}

/*
 * Evidence in order: inside an operation on the target or holding a jbd2
 * handle of its journal or of another (the kernel says so); a kernel
 * thread is the target's when it is its jbd2 thread, its flusher at work,
 * its loop worker, or woken by a completion of its disk; the disk whose
 * completion woke it; the journal thread that woke it; a stack in another
 * filesystem's code.
 */
int fsl_scope_decide(const struct fsl_scope_evidence *e, const struct fsl_scope_stack *st,
		     unsigned int target_fs, enum fsl_scope_rule *rule)
{
	int v;

	*rule = FSL_SCOPE_RULE_NONE;
	if ((v = op_rule(e, rule)) >= 0)
		return v;
	if (e->kthread) {
		if ((v = kthread_rule(e, st, rule)) >= 0)
			return v;
		/* another named thread: only a completion of the target's disk makes it ours */
		if (e->named) {
			*rule = FSL_SCOPE_RULE_KTHREAD_WAKE;
			return e->wake != FSL_SCOPE_TARGET;
		}
	}
	/*
	 * Woken by a completion while a journal thread ran: a wait for the
	 * journal thread is its (the completion interrupted it a moment
	 * before), any other the completion's.
	 */
	if (e->wake && !(e->woken_jbd2 && st->jwait)) {
		*rule = FSL_SCOPE_RULE_WAKE;
		return e->wake == FSL_SCOPE_OTHER;
	}
	if (e->woken_jbd2) {
		*rule = FSL_SCOPE_RULE_WOKEN_JBD2;
		return e->woken_jbd2 == FSL_SCOPE_OTHER;
	}
	if (e->waker_jbd2) {
		*rule = FSL_SCOPE_RULE_WAKER_JBD2;
		return e->waker_jbd2 == FSL_SCOPE_OTHER;
	}
	return frames_rule(st, target_fs, rule);
}

/*
 * A kernel thread is always decided here (what it runs is its own work,
 * not a process's): no waker to ask, and a thread of no known name is
 * taken for the target's, as the kernel at large.
 */
int fsl_scope_decide_sample(const struct fsl_scope_evidence *e, const struct fsl_scope_stack *st,
			    unsigned int target_fs, enum fsl_scope_rule *rule)
{
	int v;

	*rule = FSL_SCOPE_RULE_NONE;
	if ((v = op_rule(e, rule)) >= 0)
		return v;
	if (e->kthread) {
		if ((v = kthread_rule(e, st, rule)) >= 0)
			return v;
		*rule = FSL_SCOPE_RULE_KTHREAD;
		return e->worked != FSL_SCOPE_TARGET && e->named;
	}
	return frames_rule(st, target_fs, rule);
}

int fsl_scope_majority(const struct fsl_scope_tally *self, const struct fsl_scope_tally *parent,
		       int dflt)
{
	const struct fsl_scope_tally *by = self;

	if ((!by || (!by->target && !by->other)) && parent)
		by = parent;
	if (!by || (!by->target && !by->other))
		return dflt;
	return by->other > by->target;
}
