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
	FSL_FLOOR();									\
	return jbd2_commit_ev(ctx->dev, ctx->transaction, ctx->sync_commit, 0, evtype); \
}

JBD2_COMMIT_TP(jbd2_start_commit, FSL_EV_JBD2_START_COMMIT)
JBD2_COMMIT_TP(jbd2_commit_locking, FSL_EV_JBD2_COMMIT_LOCKING)
JBD2_COMMIT_TP(jbd2_commit_flushing, FSL_EV_JBD2_COMMIT_FLUSHING)
JBD2_COMMIT_TP(jbd2_commit_logging, FSL_EV_JBD2_COMMIT_LOGGING)

SEC("tracepoint/jbd2/jbd2_end_commit")
int tp_jbd2_end_commit(struct trace_event_raw_jbd2_end_commit *ctx)
{
	FSL_FLOOR();
	return jbd2_commit_ev(ctx->dev, ctx->transaction, ctx->sync_commit, ctx->head,
			      FSL_EV_JBD2_END_COMMIT);
}

SEC("tracepoint/jbd2/jbd2_run_stats")
int tp_jbd2_run_stats(struct trace_event_raw_jbd2_run_stats *ctx)
{
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
	struct fsl_ev_ext4_journal_start *e;

	if (ctx->type == EXT4_HT_DIR)
		dir_act_mark(ctx->dev);
	if (!targ_journal || DEV_SKIP(ctx->dev))
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
	FSL_FLOOR();
	struct fsl_ev_ext4_journal_start *e;

	if (ctx->type == EXT4_HT_DIR)
		dir_act_mark(ctx->dev);
	if (!targ_journal || DEV_SKIP(ctx->dev))
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

/*
 * The same events on tp_btf/raw_tp: the tracepoints' own arguments, the
 * fields derived as the kernel's TP_fast_assign does. Preferred over the
 * classic tracepoints above (no perf-buffer record to build per event, and
 * a detach that does not wait for a grace period); those stay as the
 * fallback. tests/live/record_vs_ftrace.sh compares both with the kernel's
 * own output.
 */
static __always_inline __u32 journal_dev(journal_t *j)
{
	return BPF_CORE_READ(j, j_fs_dev, bd_dev);
}

static __always_inline int commit_raw(__u64 *ctx, __u16 type, int end)
{
	journal_t *j = (journal_t *)ctx[0];
	transaction_t *t = (transaction_t *)ctx[1];

	return jbd2_commit_ev(journal_dev(j), BPF_CORE_READ(t, t_tid),
			      BPF_CORE_READ_BITFIELD_PROBED(t, t_synchronous_commit),
			      end ? BPF_CORE_READ(j, j_tail_sequence) : 0, type);
}

static __always_inline int on_jbd2_start_commit(__u64 *ctx)
{
	return commit_raw(ctx, FSL_EV_JBD2_START_COMMIT, 0);
}
static __always_inline int on_jbd2_commit_locking(__u64 *ctx)
{
	return commit_raw(ctx, FSL_EV_JBD2_COMMIT_LOCKING, 0);
}
static __always_inline int on_jbd2_commit_flushing(__u64 *ctx)
{
	return commit_raw(ctx, FSL_EV_JBD2_COMMIT_FLUSHING, 0);
}
static __always_inline int on_jbd2_commit_logging(__u64 *ctx)
{
	return commit_raw(ctx, FSL_EV_JBD2_COMMIT_LOGGING, 0);
}
static __always_inline int on_jbd2_end_commit(__u64 *ctx)
{
	return commit_raw(ctx, FSL_EV_JBD2_END_COMMIT, 1);
}

/* jbd2_run_stats(dev_t dev, tid_t tid, struct transaction_run_stats_s *stats) */
static __always_inline int on_jbd2_run_stats(__u64 *ctx)
{
	struct transaction_run_stats_s *st = (void *)ctx[2];
	struct fsl_ev_jbd2_run_stats *e;
	__u32 dev = ctx[0];

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_run_stats, FSL_EV_JBD2_RUN_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->tid = ctx[1];
	e->wait = BPF_CORE_READ(st, rs_wait);
	e->request_delay = BPF_CORE_READ(st, rs_request_delay);
	e->running = BPF_CORE_READ(st, rs_running);
	e->locked = BPF_CORE_READ(st, rs_locked);
	e->flushing = BPF_CORE_READ(st, rs_flushing);
	e->logging = BPF_CORE_READ(st, rs_logging);
	e->handle_count = BPF_CORE_READ(st, rs_handle_count);
	e->blocks = BPF_CORE_READ(st, rs_blocks);
	e->blocks_logged = BPF_CORE_READ(st, rs_blocks_logged);
	EV_SUBMIT(e);
	return 0;
}

/* jbd2_handle_start(dev_t dev, tid_t tid, unsigned type, unsigned line_no, int requested) */
static __always_inline int on_jbd2_handle_start(__u64 *ctx)
{
	struct fsl_ev_jbd2_handle_start *e;
	__u32 dev = ctx[0];

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_handle_start, FSL_EV_JBD2_HANDLE_START, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->tid = ctx[1];
	e->type = ctx[2];
	e->line_no = ctx[3];
	e->requested_blocks = ctx[4];
	EV_SUBMIT(e);
	return 0;
}

/* jbd2_handle_stats(dev, tid, type, line_no, interval, sync, requested, dirtied) */
static __always_inline int on_jbd2_handle_stats(__u64 *ctx)
{
	struct fsl_ev_jbd2_handle_stats *e;
	__u32 dev = ctx[0];

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_handle_stats, FSL_EV_JBD2_HANDLE_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->tid = ctx[1];
	e->type = ctx[2];
	e->line_no = ctx[3];
	e->interval = ctx[4];
	e->sync = ctx[5];
	e->requested_blocks = ctx[6];
	e->dirtied_blocks = ctx[7];
	EV_SUBMIT(e);
	return 0;
}

/* jbd2_checkpoint(journal_t *journal, int result) */
static __always_inline int on_jbd2_checkpoint(__u64 *ctx)
{
	struct fsl_ev_jbd2_checkpoint *e;
	__u32 dev = journal_dev((journal_t *)ctx[0]);

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_checkpoint, FSL_EV_JBD2_CHECKPOINT, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->result = ctx[1];
	EV_SUBMIT(e);
	return 0;
}

/* jbd2_checkpoint_stats(dev_t dev, tid_t tid, struct transaction_chp_stats_s *stats) */
static __always_inline int on_jbd2_checkpoint_stats(__u64 *ctx)
{
	struct transaction_chp_stats_s *st = (void *)ctx[2];
	struct fsl_ev_jbd2_checkpoint_stats *e;
	__u32 dev = ctx[0];

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_checkpoint_stats, FSL_EV_JBD2_CHECKPOINT_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->tid = ctx[1];
	e->chp_time = BPF_CORE_READ(st, cs_chp_time);
	e->forced_to_close = BPF_CORE_READ(st, cs_forced_to_close);
	e->written = BPF_CORE_READ(st, cs_written);
	e->dropped = BPF_CORE_READ(st, cs_dropped);
	EV_SUBMIT(e);
	return 0;
}

/* jbd2_lock_buffer_stall(dev_t dev, unsigned long stall_ms) */
static __always_inline int on_jbd2_lock_buffer_stall(__u64 *ctx)
{
	struct fsl_ev_jbd2_lock_buffer_stall *e;
	__u32 dev = ctx[0];

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_lock_buffer_stall, FSL_EV_JBD2_LOCK_BUFFER_STALL, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->stall_ms = ctx[1];
	EV_SUBMIT(e);
	return 0;
}

/* jbd2_update_log_tail(journal_t *journal, tid_t first_tid, unsigned long block_nr, unsigned long freed) */
static __always_inline int on_jbd2_update_log_tail(__u64 *ctx)
{
	journal_t *j = (journal_t *)ctx[0];
	struct fsl_ev_jbd2_update_log_tail *e;
	__u32 dev = journal_dev(j);

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_update_log_tail, FSL_EV_JBD2_UPDATE_LOG_TAIL, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->tail_sequence = BPF_CORE_READ(j, j_tail_sequence);
	e->first_tid = ctx[1];
	e->block_nr = ctx[2];
	e->freed = ctx[3];
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int jstart(__u32 dev, __u64 ino, __u64 *ctx, __u16 type)
{
	struct fsl_ev_ext4_journal_start *e;

	if ((int)ctx[4] == EXT4_HT_DIR)
		dir_act_mark(dev);
	if (!targ_journal || DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_ext4_journal_start, type, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->blocks = ctx[1];
	e->rsv_blocks = ctx[2];
	e->revoke_creds = ctx[3];
	e->type = ctx[4];
	e->ip = ctx[5];
	EV_SUBMIT(e);
	return 0;
}

/* ext4_journal_start_inode(struct inode *, int blocks, int rsv, int revoke, int type, unsigned long IP) */
static __always_inline int on_ext4_journal_start_inode(__u64 *ctx, const int btf)
{
	struct inode *inode = (struct inode *)ctx[0];

	return jstart(FSL_RD(btf, inode->i_sb->s_dev, inode, i_sb, s_dev),
		      FSL_RD(btf, inode->i_ino, inode, i_ino), ctx,
		      FSL_EV_EXT4_JOURNAL_START_INODE);
}

/* ext4_journal_start_sb(struct super_block *, int blocks, int rsv, int revoke, int type, unsigned long IP) */
static __always_inline int on_ext4_journal_start_sb(__u64 *ctx, const int btf)
{
	struct super_block *sb = (struct super_block *)ctx[0];

	return jstart(FSL_RD(btf, sb->s_dev, sb, s_dev), 0, ctx, FSL_EV_EXT4_JOURNAL_START_SB);
}

FSL_RAW_TP(jbd2_start_commit, on_jbd2_start_commit)
FSL_RAW_TP(jbd2_commit_locking, on_jbd2_commit_locking)
FSL_RAW_TP(jbd2_commit_flushing, on_jbd2_commit_flushing)
FSL_RAW_TP(jbd2_commit_logging, on_jbd2_commit_logging)
FSL_RAW_TP(jbd2_end_commit, on_jbd2_end_commit)
FSL_RAW_TP(jbd2_run_stats, on_jbd2_run_stats)
FSL_RAW_TP(jbd2_handle_start, on_jbd2_handle_start)
FSL_RAW_TP(jbd2_handle_stats, on_jbd2_handle_stats)
FSL_RAW_TP(jbd2_checkpoint, on_jbd2_checkpoint)
FSL_RAW_TP(jbd2_checkpoint_stats, on_jbd2_checkpoint_stats)
FSL_RAW_TP(jbd2_lock_buffer_stall, on_jbd2_lock_buffer_stall)
FSL_RAW_TP(jbd2_update_log_tail, on_jbd2_update_log_tail)
FSL_RAW_TP_BTF(ext4_journal_start_inode, on_ext4_journal_start_inode)
FSL_RAW_TP_BTF(ext4_journal_start_sb, on_ext4_journal_start_sb)

#endif
