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

/*
 * The default tier (targ_hagg): a transaction's handles summed per handle
 * site, in the kernel. ext4_journal_start_* keeps its time and caller in the
 * task's storage; jbd2_handle_start adds the handle and its wait from that
 * start to its site's sums, jbd2_handle_stats its dirtied blocks. When the
 * transaction reaches T_FLUSH (jbd2_commit_flushing: every handle of it has
 * stopped) its sites go out as one jbd2_handle_agg record each and leave
 * the map; the collector writes those still running at the end. The map
 * holds only the running and committing transactions' sites, and the flush
 * walks all of its buckets, so it is kept small: with 4096 entries the
 * flushing program took about 20 us a commit, with 1024 about 6 us
 * (kernel.bpf_stats_enabled, 300 fsynced files); the collector sizes it
 * (256 with a target). A site that finds it full is a lost handle.
 */
struct hagg_key {
	__u32 dev, tid, type, line;
};

struct hagg_val {
	__u64 started, stopped, blocks, wait_ns, max_ns, ip;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct hagg_key);
	__type(value, struct hagg_val);
} hagg SEC(".maps");

static __always_inline struct hagg_val *hagg_get(__u32 dev, __u32 tid, __u32 type, __u32 line)
{
	struct hagg_key k = { .dev = dev, .tid = tid, .type = type, .line = line };
	struct hagg_val *v = bpf_map_lookup_elem(&hagg, &k), z = {};

	if (v)
		return v;
	bpf_map_update_elem(&hagg, &k, &z, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&hagg, &k);
	if (!v)
		lost_inc(FSL_FAM_JOURNAL);	/* the map is full: the handle is lost */
	return v;
}

static __always_inline void handle_start_rec(__u32 dev, __u32 tid, __u32 type, __u32 line,
					     __s32 req, __u32 flags)
{
	struct fsl_ev_jbd2_handle_start *e;

	e = EV_NEW(fsl_ev_jbd2_handle_start, FSL_EV_JBD2_HANDLE_START, FSL_FAM_JOURNAL);
	if (!e)
		return;
	e->dev = dev;
	e->tid = tid;
	e->type = type;
	e->line_no = line;
	e->requested_blocks = req;
	e->flags = flags;
	EV_SUBMIT(e);
}

static __always_inline int handle_start_ev(__u32 dev, __u32 tid, __u32 type, __u32 line,
					   __s32 req)
{
	struct dir_act *a;
	struct hagg_val *v;
	__u64 wait = 0, ip = 0;
	int seen = 0;

	if (DEV_SKIP(dev))
		return 0;
	if (!targ_hagg) {
		handle_start_rec(dev, tid, type, line, req, 0);
		return 0;
	}
	a = bpf_task_storage_get(&dir_act, bpf_get_current_task_btf(), 0, 0);
	if (a && a->js_ts) {
		__u64 now = bpf_ktime_get_ns();

		wait = now > a->js_ts ? now - a->js_ts : 0;
		ip = a->js_ip;
		a->js_ts = 0;
		seen = 1;
	}
	v = hagg_get(dev, tid, type, line);
	if (v) {
		__sync_fetch_and_add(&v->started, 1);
		if (seen) {
			__sync_fetch_and_add(&v->wait_ns, wait);
			if (wait > v->max_ns)
				v->max_ns = wait;
			if (!v->ip)
				v->ip = ip;
		}
	}
	/* out of a checkpoint: this handle start ends its writes (contents) */
	if (a && a->chp) {
		a->chp = 0;
		handle_start_rec(dev, tid, type, line, req, FSL_HS_IN_AGG);
	}
	return 0;
}

static __always_inline int handle_stats_ev(__u32 dev, __u32 tid, __u32 type, __u32 line,
					   __s32 interval, __s32 sync, __s32 req, __s32 dirtied)
{
	struct fsl_ev_jbd2_handle_stats *e;
	struct hagg_val *v;

	if (DEV_SKIP(dev))
		return 0;
	if (targ_hagg) {
		v = hagg_get(dev, tid, type, line);
		if (v) {
			__sync_fetch_and_add(&v->stopped, 1);
			if (dirtied > 0)
				__sync_fetch_and_add(&v->blocks, dirtied);
		}
		return 0;
	}
	e = EV_NEW(fsl_ev_jbd2_handle_stats, FSL_EV_JBD2_HANDLE_STATS, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->tid = tid;
	e->type = type;
	e->line_no = line;
	e->interval = interval;
	e->sync = sync;
	e->requested_blocks = req;
	e->dirtied_blocks = dirtied;
	EV_SUBMIT(e);
	return 0;
}

struct hagg_flush {
	__u32 dev, tid;
};

static long hagg_emit(struct bpf_map *map, struct hagg_key *k, struct hagg_val *v,
		      struct hagg_flush *f)
{
	struct fsl_ev_jbd2_handle_agg *e;

	if (k->dev != f->dev || k->tid != f->tid)
		return 0;
	e = EV_NEW(fsl_ev_jbd2_handle_agg, FSL_EV_JBD2_HANDLE_AGG, FSL_FAM_JOURNAL);
	if (e) {
		e->dev = k->dev;
		e->tid = k->tid;
		e->type = k->type;
		e->line_no = k->line;
		e->started = v->started;
		e->stopped = v->stopped;
		e->blocks = v->blocks;
		e->wait_ns = v->wait_ns;
		e->max_ns = v->max_ns;
		e->ip = v->ip;
		EV_SUBMIT(e);
	}
	bpf_map_delete_elem(map, k);
	return 0;
}

/* The transaction's handles are all stopped: its sites' sums go out. */
static __always_inline void hagg_flush(__u32 dev, __u32 tid)
{
	struct hagg_flush f = { .dev = dev, .tid = tid };

	if (targ_hagg)
		bpf_for_each_map_elem(&hagg, hagg_emit, &f, 0);
}

/* A task whose checkpoint had work: its next handle start is recorded whole. */
static __always_inline void hagg_checkpoint(int result)
{
	struct dir_act *a;

	if (!targ_hagg || result <= 0)
		return;
	a = bpf_task_storage_get(&dir_act, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (a)
		a->chp = 1;
}

static __always_inline int jbd2_commit_ev(__u32 dev, __u32 tid, __u8 sync, __u32 head,
					  __u16 type)
{
	struct fsl_ev_jbd2_commit *e;

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_jbd2_commit, type, FSL_FAM_JOURNAL);
	if (e) {
		e->dev = dev;
		e->transaction = tid;
		e->sync_commit = sync;
		e->head = head;
		EV_SUBMIT(e);
	}
	if (type == FSL_EV_JBD2_COMMIT_FLUSHING)
		hagg_flush(dev, tid);
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
	return handle_start_ev(ctx->dev, ctx->tid, ctx->type, ctx->line_no,
			       ctx->requested_blocks);
}

SEC("tracepoint/jbd2/jbd2_handle_stats")
int tp_jbd2_handle_stats(struct trace_event_raw_jbd2_handle_stats *ctx)
{
	FSL_FLOOR();
	return handle_stats_ev(ctx->dev, ctx->tid, ctx->type, ctx->line_no, ctx->interval,
			       ctx->sync, ctx->requested_blocks, ctx->dirtied_blocks);
}

SEC("tracepoint/jbd2/jbd2_checkpoint")
int tp_jbd2_checkpoint(struct trace_event_raw_jbd2_checkpoint *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_jbd2_checkpoint *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	hagg_checkpoint(ctx->result);
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

/*
 * ext4_journal_start_*: the scope rules' directory mark (EXT4_HT_DIR), and
 * the journal's record of it; in the default tier only its time and caller,
 * kept for the handle start that follows on the task.
 */
static __always_inline int jstart_ev(__u32 dev, __u64 ino, int blocks, int rsv, int revoke,
				     int type, __u64 ip, __u16 evtype)
{
	struct fsl_ev_ext4_journal_start *e;
	struct dir_act *a;

	if (!targ_journal || DEV_SKIP(dev)) {
		if (type == EXT4_HT_DIR)
			dir_act_mark(dev);
		return 0;
	}
	if (targ_hagg) {
		a = bpf_task_storage_get(&dir_act, bpf_get_current_task_btf(), 0,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (a) {
			a->js_ts = bpf_ktime_get_ns();
			a->js_ip = ip;
			if (type == EXT4_HT_DIR && targ_dev && dev) {
				a->ts = a->js_ts;
				a->dev = dev;
			}
		}
		return 0;
	}
	if (type == EXT4_HT_DIR)
		dir_act_mark(dev);
	e = EV_NEW(fsl_ev_ext4_journal_start, evtype, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->ip = ip;
	e->blocks = blocks;
	e->rsv_blocks = rsv;
	e->revoke_creds = revoke;
	e->type = type;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_journal_start_inode")
int tp_ext4_journal_start_inode(struct trace_event_raw_ext4_journal_start_inode *ctx)
{
	FSL_FLOOR();
	return jstart_ev(ctx->dev, ctx->ino, ctx->blocks, ctx->rsv_blocks, ctx->revoke_creds,
			 ctx->type, ctx->ip, FSL_EV_EXT4_JOURNAL_START_INODE);
}

SEC("tracepoint/ext4/ext4_journal_start_sb")
int tp_ext4_journal_start_sb(struct trace_event_raw_ext4_journal_start_sb *ctx)
{
	FSL_FLOOR();
	return jstart_ev(ctx->dev, 0, ctx->blocks, ctx->rsv_blocks, ctx->revoke_creds,
			 ctx->type, ctx->ip, FSL_EV_EXT4_JOURNAL_START_SB);
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
	return handle_start_ev(ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]);
}

/* jbd2_handle_stats(dev, tid, type, line_no, interval, sync, requested, dirtied) */
static __always_inline int on_jbd2_handle_stats(__u64 *ctx)
{
	return handle_stats_ev(ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6], ctx[7]);
}

/* jbd2_checkpoint(journal_t *journal, int result) */
static __always_inline int on_jbd2_checkpoint(__u64 *ctx)
{
	struct fsl_ev_jbd2_checkpoint *e;
	__u32 dev = journal_dev((journal_t *)ctx[0]);

	if (DEV_SKIP(dev))
		return 0;
	hagg_checkpoint(ctx[1]);
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

/* ext4_journal_start_inode(struct inode *, int blocks, int rsv, int revoke, int type, unsigned long IP) */
static __always_inline int on_ext4_journal_start_inode(__u64 *ctx, const int btf)
{
	struct inode *inode = (struct inode *)ctx[0];

	return jstart_ev(FSL_RD(btf, inode->i_sb->s_dev, inode, i_sb, s_dev),
			 FSL_RD(btf, inode->i_ino, inode, i_ino), ctx[1], ctx[2], ctx[3], ctx[4],
			 ctx[5], FSL_EV_EXT4_JOURNAL_START_INODE);
}

/* ext4_journal_start_sb(struct super_block *, int blocks, int rsv, int revoke, int type, unsigned long IP) */
static __always_inline int on_ext4_journal_start_sb(__u64 *ctx, const int btf)
{
	struct super_block *sb = (struct super_block *)ctx[0];

	return jstart_ev(FSL_RD(btf, sb->s_dev, sb, s_dev), 0, ctx[1], ctx[2], ctx[3], ctx[4],
			 ctx[5], FSL_EV_EXT4_JOURNAL_START_SB);
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
