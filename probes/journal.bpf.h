/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journal family: jbd2 commit phases, run/handle/checkpoint statistics,
 * lock-buffer stalls, log tail moves, and ext4's journal-start events (the
 * gap from ext4_journal_start_* to jbd2_handle_start on the same task is the
 * time spent waiting to join a transaction). Classic tracepoints: their
 * records already hold the fields, in a format the kernel keeps stable.
 */
#ifndef FSL_JOURNAL_BPF_H
#define FSL_JOURNAL_BPF_H

#include "common.bpf.h"

static __always_inline int jbd2_commit_ev(__u32 dev, __u32 tid, __u8 sync, __u32 head,
					  __u16 type)
{
	struct fsl_ev_jbd2_commit *e;

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_commit, type, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->transaction = tid;
	e->sync_commit = sync;
	e->head = head;
	EV_SUBMIT(e);
	return 0;
}

#define JBD2_COMMIT_TP(tp, evtype)						\
SEC("tracepoint/jbd2/" #tp)							\
int tp_##tp(struct trace_event_raw_jbd2_commit *ctx)				\
{										\
	return jbd2_commit_ev(ctx->dev, ctx->transaction, ctx->sync_commit, 0, evtype); \
}

JBD2_COMMIT_TP(jbd2_start_commit, FSL_EV_JBD2_START_COMMIT)
JBD2_COMMIT_TP(jbd2_commit_locking, FSL_EV_JBD2_COMMIT_LOCKING)
JBD2_COMMIT_TP(jbd2_commit_flushing, FSL_EV_JBD2_COMMIT_FLUSHING)
JBD2_COMMIT_TP(jbd2_commit_logging, FSL_EV_JBD2_COMMIT_LOGGING)

SEC("tracepoint/jbd2/jbd2_end_commit")
int tp_jbd2_end_commit(struct trace_event_raw_jbd2_end_commit *ctx)
{
	return jbd2_commit_ev(ctx->dev, ctx->transaction, ctx->sync_commit, ctx->head,
			      FSL_EV_JBD2_END_COMMIT);
}

SEC("tracepoint/jbd2/jbd2_run_stats")
int tp_jbd2_run_stats(struct trace_event_raw_jbd2_run_stats *ctx)
{
	struct fsl_ev_jbd2_run_stats *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_run_stats, FSL_EV_JBD2_RUN_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->tid = ctx->tid;
	e->wait = ctx->wait;
	e->request_delay = ctx->request_delay;
	e->running = ctx->running;
	e->locked = ctx->locked;
	e->flushing = ctx->flushing;
	e->logging = ctx->logging;
	e->handle_count = ctx->handle_count;
	e->blocks = ctx->blocks;
	e->blocks_logged = ctx->blocks_logged;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/jbd2/jbd2_handle_start")
int tp_jbd2_handle_start(struct trace_event_raw_jbd2_handle_start_class *ctx)
{
	struct fsl_ev_jbd2_handle_start *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_handle_start, FSL_EV_JBD2_HANDLE_START, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->tid = ctx->tid;
	e->type = ctx->type;
	e->line_no = ctx->line_no;
	e->requested_blocks = ctx->requested_blocks;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/jbd2/jbd2_handle_stats")
int tp_jbd2_handle_stats(struct trace_event_raw_jbd2_handle_stats *ctx)
{
	struct fsl_ev_jbd2_handle_stats *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_handle_stats, FSL_EV_JBD2_HANDLE_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->tid = ctx->tid;
	e->type = ctx->type;
	e->line_no = ctx->line_no;
	e->interval = ctx->interval;
	e->sync = ctx->sync;
	e->requested_blocks = ctx->requested_blocks;
	e->dirtied_blocks = ctx->dirtied_blocks;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/jbd2/jbd2_checkpoint")
int tp_jbd2_checkpoint(struct trace_event_raw_jbd2_checkpoint *ctx)
{
	struct fsl_ev_jbd2_checkpoint *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_checkpoint, FSL_EV_JBD2_CHECKPOINT, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->result = ctx->result;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/jbd2/jbd2_checkpoint_stats")
int tp_jbd2_checkpoint_stats(struct trace_event_raw_jbd2_checkpoint_stats *ctx)
{
	struct fsl_ev_jbd2_checkpoint_stats *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_checkpoint_stats, FSL_EV_JBD2_CHECKPOINT_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->tid = ctx->tid;
	e->chp_time = ctx->chp_time;
	e->forced_to_close = ctx->forced_to_close;
	e->written = ctx->written;
	e->dropped = ctx->dropped;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/jbd2/jbd2_lock_buffer_stall")
int tp_jbd2_lock_buffer_stall(struct trace_event_raw_jbd2_lock_buffer_stall *ctx)
{
	struct fsl_ev_jbd2_lock_buffer_stall *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_lock_buffer_stall, FSL_EV_JBD2_LOCK_BUFFER_STALL, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->stall_ms = ctx->stall_ms;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/jbd2/jbd2_update_log_tail")
int tp_jbd2_update_log_tail(struct trace_event_raw_jbd2_update_log_tail *ctx)
{
	struct fsl_ev_jbd2_update_log_tail *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_update_log_tail, FSL_EV_JBD2_UPDATE_LOG_TAIL, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->tail_sequence = ctx->tail_sequence;
	e->first_tid = ctx->first_tid;
	e->block_nr = ctx->block_nr;
	e->freed = ctx->freed;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_journal_start_inode")
int tp_ext4_journal_start_inode(struct trace_event_raw_ext4_journal_start_inode *ctx)
{
	struct fsl_ev_ext4_journal_start *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_ext4_journal_start, FSL_EV_EXT4_JOURNAL_START_INODE, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ino = ctx->ino;
	e->ip = ctx->ip;
	e->blocks = ctx->blocks;
	e->rsv_blocks = ctx->rsv_blocks;
	e->revoke_creds = ctx->revoke_creds;
	e->type = ctx->type;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_journal_start_sb")
int tp_ext4_journal_start_sb(struct trace_event_raw_ext4_journal_start_sb *ctx)
{
	struct fsl_ev_ext4_journal_start *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_ext4_journal_start, FSL_EV_EXT4_JOURNAL_START_SB, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ip = ctx->ip;
	e->blocks = ctx->blocks;
	e->rsv_blocks = ctx->rsv_blocks;
	e->revoke_creds = ctx->revoke_creds;
	e->type = ctx->type;
	EV_SUBMIT(e);
	return 0;
}

#endif
