/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writeback family: flusher work (start/written with reason), per-inode
 * writeback, inode dirtying, balance_dirty_pages throttling and the global
 * dirty state. Classic tracepoints. Writeback names the backing device by
 * its bdi name "MAJ:MIN", parsed here to a dev_t for the device filter.
 */
#ifndef FSL_WRITEBACK_BPF_H
#define FSL_WRITEBACK_BPF_H

#include "common.bpf.h"

/* "259:0" -> kernel dev_t; 0 if the name is not MAJ:MIN (e.g. "(unknown)"). */
static __always_inline __u32 bdi_dev(const char *ctx_name)
{
	__u32 maj = 0, min = 0, *cur = &maj;
	bool colon = false;
	char name[16];
	int i;

	/* the verifier refuses variable offsets into ctx: copy to the stack */
	if (bpf_probe_read_kernel(name, sizeof(name), ctx_name))
		return 0;

	for (i = 0; i < 16; i++) {
		char c = name[i];

		if (c >= '0' && c <= '9') {
			*cur = *cur * 10 + (c - '0');
		} else if (c == ':' && !colon) {
			colon = true;
			cur = &min;
		} else {
			break;
		}
	}
	if (!colon)
		return 0;
	return FSL_MKDEV(maj, min);
}

#define BDI_SKIP(d) (targ_blkdev && (d) != targ_blkdev)

static __always_inline int wb_work(struct trace_event_raw_writeback_work_class *ctx, __u16 type)
{
	struct fsl_ev_writeback_work *e;
	__u32 dev = bdi_dev(ctx->name);

	if (BDI_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_writeback_work, type, FSL_FAM_WRITEBACK);
	if (!e)
		return 0;
	e->dev = dev;
	e->sb_dev = ctx->sb_dev;
	e->nr_pages = ctx->nr_pages;
	e->sync_mode = ctx->sync_mode;
	e->for_kupdate = ctx->for_kupdate;
	e->range_cyclic = ctx->range_cyclic;
	e->for_background = ctx->for_background;
	e->reason = ctx->reason;
	e->cgroup_ino = ctx->cgroup_ino;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/writeback/writeback_start")
int tp_writeback_start(struct trace_event_raw_writeback_work_class *ctx)
{
	return wb_work(ctx, FSL_EV_WRITEBACK_START);
}

SEC("tracepoint/writeback/writeback_written")
int tp_writeback_written(struct trace_event_raw_writeback_work_class *ctx)
{
	return wb_work(ctx, FSL_EV_WRITEBACK_WRITTEN);
}

static __always_inline int wb_single(struct trace_event_raw_writeback_single_inode_template *ctx,
				     __u16 type)
{
	struct fsl_ev_writeback_single_inode *e;
	__u32 dev = bdi_dev(ctx->name);

	if (BDI_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_writeback_single_inode, type, FSL_FAM_WRITEBACK);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ctx->ino;
	e->state = ctx->state;
	e->dirtied_when = ctx->dirtied_when;
	e->writeback_index = ctx->writeback_index;
	e->nr_to_write = ctx->nr_to_write;
	e->wrote = ctx->wrote;
	e->cgroup_ino = ctx->cgroup_ino;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/writeback/writeback_single_inode_start")
int tp_writeback_single_inode_start(struct trace_event_raw_writeback_single_inode_template *ctx)
{
	return wb_single(ctx, FSL_EV_WRITEBACK_SINGLE_INODE_START);
}

SEC("tracepoint/writeback/writeback_single_inode")
int tp_writeback_single_inode(struct trace_event_raw_writeback_single_inode_template *ctx)
{
	return wb_single(ctx, FSL_EV_WRITEBACK_SINGLE_INODE);
}

SEC("tracepoint/writeback/writeback_dirty_inode")
int tp_writeback_dirty_inode(struct trace_event_raw_writeback_dirty_inode_template *ctx)
{
	struct fsl_ev_writeback_dirty_inode *e;
	__u32 dev = bdi_dev(ctx->name);

	if (BDI_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_writeback_dirty_inode, FSL_EV_WRITEBACK_DIRTY_INODE, FSL_FAM_WRITEBACK);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ctx->ino;
	e->state = ctx->state;
	e->flags = ctx->flags;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/writeback/balance_dirty_pages")
int tp_balance_dirty_pages(struct trace_event_raw_balance_dirty_pages *ctx)
{
	struct fsl_ev_balance_dirty_pages *e;
	__u32 dev = bdi_dev(ctx->bdi);

	if (BDI_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_balance_dirty_pages, FSL_EV_BALANCE_DIRTY_PAGES, FSL_FAM_WRITEBACK);
	if (!e)
		return 0;
	e->dev = dev;
	e->limit = ctx->limit;
	e->setpoint = ctx->setpoint;
	e->dirty = ctx->dirty;
	e->wb_setpoint = ctx->wb_setpoint;
	e->wb_dirty = ctx->wb_dirty;
	e->dirty_ratelimit = ctx->dirty_ratelimit;
	e->task_ratelimit = ctx->task_ratelimit;
	e->dirtied = ctx->dirtied;
	e->dirtied_pause = ctx->dirtied_pause;
	e->paused = ctx->paused;
	e->pause = ctx->pause;
	e->period = ctx->period;
	e->think = ctx->think;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/writeback/global_dirty_state")
int tp_global_dirty_state(struct trace_event_raw_global_dirty_state *ctx)
{
	struct fsl_ev_global_dirty_state *e;

	e = EV_NEW(fsl_ev_global_dirty_state, FSL_EV_GLOBAL_DIRTY_STATE, FSL_FAM_WRITEBACK);
	if (!e)
		return 0;
	e->nr_dirty = ctx->nr_dirty;
	e->nr_writeback = ctx->nr_writeback;
	e->background_thresh = ctx->background_thresh;
	e->dirty_thresh = ctx->dirty_thresh;
	e->dirty_limit = ctx->dirty_limit;
	e->nr_dirtied = ctx->nr_dirtied;
	e->nr_written = ctx->nr_written;
	EV_SUBMIT(e);
	return 0;
}

#endif
