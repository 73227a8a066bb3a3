/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writeback family: flusher work (start/written with reason), per-inode
 * writeback, inode dirtying, balance_dirty_pages throttling and the global
 * dirty state (classic tracepoints: writeback names the backing device by
 * its bdi name "MAJ:MIN", parsed here to a dev_t for the device filter);
 * and who wrote the filesystem's data: every ext4 writeback call with the
 * stack it returned through, and every direct-I/O write (tp_btf, raw_tp
 * fallback).
 */
#ifndef FSL_WRITEBACK_BPF_H
#define FSL_WRITEBACK_BPF_H

#include "common.bpf.h"
#include "block.bpf.h"	/* rq_flags: a bio's direction and REQ_META */
#include "stacks.bpf.h"

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
	FSL_FLOOR();
	return wb_work(ctx, FSL_EV_WRITEBACK_START);
}

SEC("tracepoint/writeback/writeback_written")
int tp_writeback_written(struct trace_event_raw_writeback_work_class *ctx)
{
	FSL_FLOOR();
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
	FSL_FLOOR();
	return wb_single(ctx, FSL_EV_WRITEBACK_SINGLE_INODE_START);
}

SEC("tracepoint/writeback/writeback_single_inode")
int tp_writeback_single_inode(struct trace_event_raw_writeback_single_inode_template *ctx)
{
	FSL_FLOOR();
	return wb_single(ctx, FSL_EV_WRITEBACK_SINGLE_INODE);
}

SEC("tracepoint/writeback/writeback_dirty_inode")
int tp_writeback_dirty_inode(struct trace_event_raw_writeback_dirty_inode_template *ctx)
{
	FSL_FLOOR();
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
	FSL_FLOOR();
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
	FSL_FLOOR();
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

/*
 * ext4 writeback calls in progress: thread -> the write bios it submitted
 * since the call's ext4_writepages. ext4 submits every bio of a call from
 * the calling thread before ext4_writepages_result (block_bio_queue runs
 * in the submitter, before any plug or merge), so their bytes are exactly
 * what the call wrote; pages_written is not (large folios, redirtied ones).
 */
struct wb_call {
	__u64 bytes;
	__u32 bios;
	__u32 _pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct wb_call);
} wb_calls SEC(".maps");

/* ext4_writepages(struct inode *inode, struct writeback_control *wbc): a call starts */
static __always_inline int on_wbcount_enter(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct wb_call zero = {};

	if (DEV_SKIP(BPF_CORE_READ(inode, i_sb, s_dev)))
		return 0;
	bpf_map_update_elem(&wb_calls, &tid, &zero, BPF_ANY);
	return 0;
}

/*
 * block_bio_queue(struct bio *bio): a bio submitted by a thread inside an
 * ext4 writeback call. Its direction and REQ_META are read as the block
 * family reads them (rq_flags), its size as the tracepoint prints it.
 */
static __always_inline int on_wbcount_bio(__u64 *ctx)
{
	struct bio *bio = (struct bio *)ctx[0];
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct wb_call *w = bpf_map_lookup_elem(&wb_calls, &tid);
	__u32 f;

	if (!w)
		return 0;
	f = rq_flags(BPF_CORE_READ(bio, bi_opf));
	/* metadata an ext4 call writes is not its data (none is expected) */
	if (!(f & FSL_RQ_WRITE) || (f & FSL_RQ_META))
		return 0;
	w->bytes += BPF_CORE_READ(bio, bi_iter.bi_size);
	w->bios++;
	return 0;
}

/*
 * ext4_writepages_result(struct inode *inode, struct writeback_control *wbc,
 *			  int ret, int pages_written)
 * The stack is taken here, at the end of the call: it runs through whoever
 * asked for the writeback, which is the cause the analysis names.
 */
/*
 * The current thread is in fsync(2) or fdatasync(2): the syscall number in
 * its saved user registers (x86; elsewhere the stack says it). Its
 * writeback calls are the fsync's (do_fsync is the outermost frame the
 * cause rules name on such a stack), so no stack is needed to say so.
 * Kernel threads' saved registers are zeroed: never a match.
 */
static __always_inline int in_fsync_call(void)
{
#if defined(__TARGET_ARCH_x86)
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	long nr = BPF_CORE_READ(regs, orig_ax);

	return nr >= 0 && (nr == targ_nr_fsync || nr == targ_nr_fdatasync);
#else
	return 0;
#endif
}

static __always_inline int on_ext4_writepages_result(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];
	struct writeback_control *wbc = (void *)ctx[1];
	struct fsl_ev_ext4_writepages_result *e;
	__u32 dev = BPF_CORE_READ(inode, i_sb, s_dev);
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct wb_call *w;

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_ext4_writepages_result, FSL_EV_EXT4_WRITEPAGES_RESULT,
		   FSL_FAM_WRITEBACK);
	if (!e)
		return 0;
	w = bpf_map_lookup_elem(&wb_calls, &tid);
	if (w) {
		e->bytes = w->bytes;
		e->bios = w->bios;
		e->flags = FSL_WP_COUNTED;
		bpf_map_delete_elem(&wb_calls, &tid);
	}
	e->dev = dev;
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->ret = (int)ctx[2];
	e->pages_written = (int)ctx[3];
	e->pages_skipped = BPF_CORE_READ(wbc, pages_skipped);
	e->sync_mode = BPF_CORE_READ(wbc, sync_mode);
	e->writeback_index = BPF_CORE_READ(inode, i_mapping, writeback_index);
	/* the stack walk is most of this program's cost (2-7 us a call) */
	if (in_fsync_call()) {
		e->flags |= FSL_WP_FSYNC_CALL;
		e->stack_id = -1;
	} else {
		e->stack_id = offcpu_stack_id(ctx);
	}
	EV_SUBMIT(e);
	return 0;
}

/*
 * Direct-I/O writes in flight: iocb -> where and by whom, from
 * iomap_dio_rw_begin to iomap_dio_complete. The completion carries no
 * direction (a synchronous write's kiocb has no IOCB_WRITE), the begin's
 * iov_iter does. An entry a begin leaves behind (the call failed or fell
 * back to buffered I/O before any dio existed) is replaced by the next
 * begin of the same kiocb, or aged out.
 */
struct dio_start {
	__s64 pos;
	__u32 tid;
	__u32 aio;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct dio_start);
} dio_writes SEC(".maps");

/* Before 6.0 the direction was a bit of iov_iter.type (WRITE = 1). */
struct iov_iter___o {
	unsigned int type;
} __attribute__((preserve_access_index));

/* iomap_dio_rw_begin(struct kiocb *iocb, struct iov_iter *iter, unsigned int dio_flags, size_t done_before) */
static __always_inline int on_iomap_dio_rw_begin(__u64 *ctx)
{
	struct kiocb *iocb = (void *)ctx[0];
	struct iov_iter *iter = (void *)ctx[1];
	__u64 key = (__u64)iocb;
	struct dio_start v = {};
	bool write;

	if (DEV_SKIP(BPF_CORE_READ(iocb, ki_filp, f_inode, i_sb, s_dev)))
		return 0;
	if (bpf_core_field_exists(iter->data_source))
		write = BPF_CORE_READ(iter, data_source);
	else
		write = BPF_CORE_READ((struct iov_iter___o *)iter, type) & 1;
	if (!write) {
		bpf_map_delete_elem(&dio_writes, &key);
		return 0;
	}
	v.pos = BPF_CORE_READ(iocb, ki_pos);
	v.tid = (__u32)bpf_get_current_pid_tgid();
	v.aio = !!BPF_CORE_READ(iocb, ki_complete);
	bpf_map_update_elem(&dio_writes, &key, &v, BPF_ANY);
	return 0;
}

/* iomap_dio_complete(struct kiocb *iocb, int error, ssize_t ret) */
static __always_inline int on_iomap_dio_complete(__u64 *ctx)
{
	struct kiocb *iocb = (void *)ctx[0];
	__u64 key = (__u64)iocb;
	struct fsl_ev_dio_write *e;
	struct dio_start *v = bpf_map_lookup_elem(&dio_writes, &key);
	struct inode *inode;

	if (!v)
		return 0;
	e = EV_NEW(fsl_ev_dio_write, FSL_EV_DIO_WRITE, FSL_FAM_WRITEBACK);
	if (e) {
		inode = BPF_CORE_READ(iocb, ki_filp, f_inode);
		e->dev = BPF_CORE_READ(inode, i_sb, s_dev);
		e->ino = BPF_CORE_READ(inode, i_ino);
		e->error = (int)ctx[1];
		e->ret = (__s64)ctx[2];
		e->pos = v->pos;
		e->tid = v->tid;
		e->aio = v->aio;
		EV_SUBMIT(e);
	}
	bpf_map_delete_elem(&dio_writes, &key);
	return 0;
}

FSL_RAW_TP(ext4_writepages, on_wbcount_enter)
FSL_RAW_TP(block_bio_queue, on_wbcount_bio)
FSL_RAW_TP(ext4_writepages_result, on_ext4_writepages_result)
FSL_RAW_TP(iomap_dio_rw_begin, on_iomap_dio_rw_begin)
FSL_RAW_TP(iomap_dio_complete, on_iomap_dio_complete)

#endif
