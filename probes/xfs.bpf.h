/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xfs: XFS's own tracepoints, filtered to the target's s_dev in the kernel.
 * Log forces, iclog waits and writes, log-space (grant head) waits, AIL
 * pushes, metadata buffer reads and lock sleeps and fsync entries belong
 * to the journal family; extent allocation results, AGI reads (inode
 * allocation) and extent mappings (I/O and writeback) to the alloc family,
 * with what the layout analysis needs: the inode a directory entry is
 * added for (a create's new inode), sparse chunk merges, extents unmapped.
 * The collector loads them only for an XFS target (or no target) and the
 * ext4/jbd2 programs of those families only for ext4.
 *
 * Classic tracepoints: their records hold every field already, in the
 * layout the kernel publishes in tracefs; fields that are not on every
 * kernel are read behind bpf_core_field_exists().
 */
#ifndef FSL_XFS_BPF_H
#define FSL_XFS_BPF_H

#include "common.bpf.h"

SEC("tracepoint/xfs/xfs_log_force")
int tp_xfs_log_force(struct trace_event_raw_xfs_log_force *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_log_force *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_log_force, FSL_EV_XFS_LOG_FORCE, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->lsn = ctx->lsn;
	e->caller_ip = ctx->caller_ip;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int xlog_iclog_ev(struct trace_event_raw_xlog_iclog_class *ctx,
					 __u16 type)
{
	struct fsl_ev_xlog_iclog *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xlog_iclog, type, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->state = ctx->state;
	e->refcount = ctx->refcount;
	e->offset = ctx->offset;
	e->flags = ctx->flags;
	e->lsn = ctx->lsn;
	e->caller_ip = ctx->caller_ip;
	EV_SUBMIT(e);
	return 0;
}

#define XLOG_ICLOG_TP(tp, evtype)						\
SEC("tracepoint/xfs/" #tp)							\
int tp_##tp(struct trace_event_raw_xlog_iclog_class *ctx)			\
{										\
	FSL_FLOOR();									\
	return xlog_iclog_ev(ctx, evtype);					\
}

XLOG_ICLOG_TP(xlog_iclog_wait_on, FSL_EV_XLOG_ICLOG_WAIT_ON)
XLOG_ICLOG_TP(xlog_iclog_sync, FSL_EV_XLOG_ICLOG_SYNC)
XLOG_ICLOG_TP(xlog_iclog_sync_done, FSL_EV_XLOG_ICLOG_SYNC_DONE)

static __always_inline int xfs_grant_ev(struct trace_event_raw_xfs_loggrant_class *ctx,
					__u16 type)
{
	struct fsl_ev_xfs_log_grant *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_log_grant, type, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ocnt = ctx->ocnt;
	e->cnt = ctx->cnt;
	e->curr_res = ctx->curr_res;
	e->unit_res = ctx->unit_res;
	e->flags = ctx->flags;
	e->reserveq = ctx->reserveq;
	e->writeq = ctx->writeq;
	e->grant_reserve_bytes = ctx->grant_reserve_bytes;
	e->grant_write_bytes = ctx->grant_write_bytes;
	/* not in every kernel's record of this class */
	if (bpf_core_field_exists(ctx->tail_space))
		e->tail_space = ctx->tail_space;
	e->curr_cycle = ctx->curr_cycle;
	e->curr_block = ctx->curr_block;
	e->tail_lsn = ctx->tail_lsn;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/xfs/xfs_log_grant_sleep")
int tp_xfs_log_grant_sleep(struct trace_event_raw_xfs_loggrant_class *ctx)
{
	FSL_FLOOR();
	return xfs_grant_ev(ctx, FSL_EV_XFS_LOG_GRANT_SLEEP);
}

SEC("tracepoint/xfs/xfs_log_grant_wake")
int tp_xfs_log_grant_wake(struct trace_event_raw_xfs_loggrant_class *ctx)
{
	FSL_FLOOR();
	return xfs_grant_ev(ctx, FSL_EV_XFS_LOG_GRANT_WAKE);
}

/*
 * Before xfs_ail_push_class these events used the log item class, whose
 * record also has the item's address (lip) before type. The fields are
 * read with CO-RE probe reads: the verifier refuses a ctx access at an
 * offset chosen at run time.
 */
struct trace_event_raw_xfs_log_item_class___o {
	struct trace_entry ent;
	dev_t dev;
	void *lip;
	uint type;
	unsigned long flags;
	xfs_lsn_t lsn;
} __attribute__((preserve_access_index));

static __always_inline int xfs_ail_ev(void *ctx, __u16 type)
{
	struct trace_event_raw_xfs_ail_push_class *n = ctx;
	struct trace_event_raw_xfs_log_item_class___o *o = ctx;
	struct fsl_ev_xfs_ail *e;
	__u32 dev;

	if (bpf_core_type_exists(struct trace_event_raw_xfs_ail_push_class))
		dev = BPF_CORE_READ(n, dev);
	else
		dev = BPF_CORE_READ(o, dev);
	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_ail, type, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = dev;
	if (bpf_core_type_exists(struct trace_event_raw_xfs_ail_push_class)) {
		e->type = BPF_CORE_READ(n, type);
		e->flags = BPF_CORE_READ(n, flags);
		e->lsn = BPF_CORE_READ(n, lsn);
	} else {
		e->type = BPF_CORE_READ(o, type);
		e->flags = BPF_CORE_READ(o, flags);
		e->lsn = BPF_CORE_READ(o, lsn);
	}
	EV_SUBMIT(e);
	return 0;
}

#define XFS_AIL_TP(tp, evtype)							\
SEC("tracepoint/xfs/" #tp)							\
int tp_##tp(void *ctx)								\
{										\
	FSL_FLOOR();									\
	return xfs_ail_ev(ctx, evtype);						\
}

XFS_AIL_TP(xfs_ail_push, FSL_EV_XFS_AIL_PUSH)
XFS_AIL_TP(xfs_ail_pinned, FSL_EV_XFS_AIL_PINNED)
XFS_AIL_TP(xfs_ail_locked, FSL_EV_XFS_AIL_LOCKED)
XFS_AIL_TP(xfs_ail_flushing, FSL_EV_XFS_AIL_FLUSHING)

SEC("tracepoint/xfs/xfs_buf_read")
int tp_xfs_buf_read(struct trace_event_raw_xfs_buf_flags_class *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_buf *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_buf, FSL_EV_XFS_BUF_READ, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->bno = ctx->bno;
	e->length = ctx->length;
	e->hold = ctx->hold;
	e->pincount = ctx->pincount;
	e->lockval = ctx->lockval;
	e->flags = ctx->flags;
	e->caller_ip = ctx->caller_ip;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int xfs_buf_ev(struct trace_event_raw_xfs_buf_class *ctx, __u16 type)
{
	struct fsl_ev_xfs_buf *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_buf, type, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->bno = ctx->bno;
	e->length = ctx->nblks;
	e->hold = ctx->hold;
	e->pincount = ctx->pincount;
	e->lockval = ctx->lockval;
	e->flags = ctx->flags;
	e->caller_ip = ctx->caller_ip;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/xfs/xfs_buf_lock")
int tp_xfs_buf_lock(struct trace_event_raw_xfs_buf_class *ctx)
{
	FSL_FLOOR();
	return xfs_buf_ev(ctx, FSL_EV_XFS_BUF_LOCK);
}

SEC("tracepoint/xfs/xfs_buf_lock_done")
int tp_xfs_buf_lock_done(struct trace_event_raw_xfs_buf_class *ctx)
{
	FSL_FLOOR();
	return xfs_buf_ev(ctx, FSL_EV_XFS_BUF_LOCK_DONE);
}

SEC("tracepoint/xfs/xfs_file_fsync")
int tp_xfs_file_fsync(struct trace_event_raw_xfs_inode_class *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_inode *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_inode, FSL_EV_XFS_FILE_FSYNC, FSL_FAM_JOURNAL);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ino = ctx->ino;
	e->iflags = ctx->iflags;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/xfs/xfs_alloc_vextent_finish")
int tp_xfs_alloc_vextent_finish(struct trace_event_raw_xfs_alloc_class *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_alloc *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_alloc, FSL_EV_XFS_ALLOC_VEXTENT_FINISH, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->agno = ctx->agno;
	e->agbno = ctx->agbno;
	e->minlen = ctx->minlen;
	e->maxlen = ctx->maxlen;
	e->len = ctx->len;
	e->total = ctx->total;
	e->alignment = ctx->alignment;
	e->resv = ctx->resv;
	e->datatype = ctx->datatype;
	e->wasdel = ctx->wasdel;
	e->wasfromfl = ctx->wasfromfl;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/xfs/xfs_ialloc_read_agi")
int tp_xfs_ialloc_read_agi(struct trace_event_raw_xfs_ag_class *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_ag *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_ag, FSL_EV_XFS_IALLOC_READ_AGI, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->agno = ctx->agno;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int xfs_imap_ev(struct trace_event_raw_xfs_imap_class *ctx, __u16 type)
{
	struct fsl_ev_xfs_imap *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_imap, type, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ino = ctx->ino;
	e->size = ctx->size;
	e->offset = ctx->offset;
	e->count = ctx->count;
	e->whichfork = ctx->whichfork;
	e->startoff = ctx->startoff;
	e->startblock = ctx->startblock;
	e->blockcount = ctx->blockcount;
	EV_SUBMIT(e);
	return 0;
}

#define XFS_IMAP_TP(tp, evtype)							\
SEC("tracepoint/xfs/" #tp)							\
int tp_##tp(struct trace_event_raw_xfs_imap_class *ctx)				\
{										\
	FSL_FLOOR();									\
	return xfs_imap_ev(ctx, evtype);					\
}

XFS_IMAP_TP(xfs_iomap_alloc, FSL_EV_XFS_IOMAP_ALLOC)
XFS_IMAP_TP(xfs_iomap_found, FSL_EV_XFS_IOMAP_FOUND)
XFS_IMAP_TP(xfs_map_blocks_alloc, FSL_EV_XFS_MAP_BLOCKS_ALLOC)
XFS_IMAP_TP(xfs_map_blocks_found, FSL_EV_XFS_MAP_BLOCKS_FOUND)

/*
 * Directory entries and creates carry a name, which the classic records
 * hold as a __data_loc string; the raw arguments (struct xfs_da_args,
 * struct xfs_name) are read instead, through BTF or CO-RE probe reads.
 * The copy keeps the first FSL_XFS_NAME_MAX bytes (the record was zeroed:
 * a shorter name stays NUL padded).
 */
static __always_inline void xfs_name_copy(const void *name, int namelen, char *dst)
{
	int i;

	/* a constant size the verifier accepts; what follows the name is cleared */
	if (bpf_probe_read_kernel(dst, FSL_XFS_NAME_MAX, name))
		return;
	for (i = 0; i < FSL_XFS_NAME_MAX; i++)
		if (i >= namelen)
			dst[i] = 0;
}

static __always_inline __u32 xfs_inode_dev(struct xfs_inode *ip)
{
	return BPF_CORE_READ(ip, i_mount, m_super, s_dev);
}

/* xfs_dir2_{sf,block,leaf,node}_addname(struct xfs_da_args *args) */
static __always_inline int xfs_dirname_raw(__u64 *ctx, __u16 type)
{
	struct xfs_da_args *args = (void *)ctx[0];
	struct fsl_ev_xfs_dirname *e;
	struct xfs_inode *dp = BPF_CORE_READ(args, dp);
	__u32 dev = xfs_inode_dev(dp);

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_dirname, type, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = dev;
	e->dir = BPF_CORE_READ(dp, i_ino);
	e->inumber = BPF_CORE_READ(args, inumber);
	e->hashval = BPF_CORE_READ(args, hashval);
	e->op_flags = BPF_CORE_READ(args, op_flags);
	e->namelen = BPF_CORE_READ(args, namelen);
	xfs_name_copy(BPF_CORE_READ(args, name), e->namelen, e->name);
	EV_SUBMIT(e);
	return 0;
}

/* Which of the four a directory uses depends on its size (short form in the inode, block, leaf, node). */
static __always_inline int on_xfs_dir2_sf_addname(__u64 *ctx)
{
	return xfs_dirname_raw(ctx, FSL_EV_XFS_DIR2_SF_ADDNAME);
}

static __always_inline int on_xfs_dir2_block_addname(__u64 *ctx)
{
	return xfs_dirname_raw(ctx, FSL_EV_XFS_DIR2_BLOCK_ADDNAME);
}

static __always_inline int on_xfs_dir2_leaf_addname(__u64 *ctx)
{
	return xfs_dirname_raw(ctx, FSL_EV_XFS_DIR2_LEAF_ADDNAME);
}

static __always_inline int on_xfs_dir2_node_addname(__u64 *ctx)
{
	return xfs_dirname_raw(ctx, FSL_EV_XFS_DIR2_NODE_ADDNAME);
}

/* xfs_create(struct xfs_inode *dp, const struct xfs_name *name) */
static __always_inline int on_xfs_create(__u64 *ctx)
{
	struct xfs_inode *dp = (void *)ctx[0];
	const struct xfs_name *name = (void *)ctx[1];
	struct fsl_ev_xfs_create *e;
	__u32 dev = xfs_inode_dev(dp);

	if (DEV_SKIP(dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_create, FSL_EV_XFS_CREATE, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = dev;
	e->dir = BPF_CORE_READ(dp, i_ino);
	e->namelen = BPF_CORE_READ(name, len);
	xfs_name_copy(BPF_CORE_READ(name, name), e->namelen, e->name);
	EV_SUBMIT(e);
	return 0;
}

FSL_RAW_TP(xfs_dir2_sf_addname, on_xfs_dir2_sf_addname)
FSL_RAW_TP(xfs_dir2_block_addname, on_xfs_dir2_block_addname)
FSL_RAW_TP(xfs_dir2_leaf_addname, on_xfs_dir2_leaf_addname)
FSL_RAW_TP(xfs_dir2_node_addname, on_xfs_dir2_node_addname)
FSL_RAW_TP(xfs_create, on_xfs_create)

SEC("tracepoint/xfs/xfs_irec_merge_pre")
int tp_xfs_irec_merge_pre(struct trace_event_raw_xfs_irec_merge_pre *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_irec *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_irec, FSL_EV_XFS_IREC_MERGE_PRE, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->agno = ctx->agno;
	e->agino = ctx->agino;
	e->holemask = ctx->holemask;
	e->nagino = ctx->nagino;
	e->nholemask = ctx->nholemask;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/xfs/xfs_irec_merge_post")
int tp_xfs_irec_merge_post(struct trace_event_raw_xfs_irec_merge_post *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_irec *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_irec, FSL_EV_XFS_IREC_MERGE_POST, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->agno = ctx->agno;
	e->agino = ctx->agino;
	e->holemask = ctx->holemask;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/xfs/xfs_bunmap")
int tp_xfs_bunmap(struct trace_event_raw_xfs_bunmap *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_bunmap *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_bunmap, FSL_EV_XFS_BUNMAP, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ino = ctx->ino;
	e->size = ctx->size;
	e->fileoff = ctx->fileoff;
	e->len = ctx->len;
	e->flags = ctx->flags;
	e->caller_ip = ctx->caller_ip;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int xfs_iext_ev(struct trace_event_raw_xfs_bmap_class *ctx, __u16 type)
{
	struct fsl_ev_xfs_iext *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_iext, type, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->ino = ctx->ino;
	e->pos = ctx->pos;
	e->startoff = ctx->startoff;
	e->startblock = ctx->startblock;
	e->blockcount = ctx->blockcount;
	e->state = ctx->state;
	e->bmap_state = ctx->bmap_state;
	e->caller_ip = ctx->caller_ip;
	EV_SUBMIT(e);
	return 0;
}

/*
 * The in-core extent list: every record inserted (also as the list is read
 * from disk), removed or updated. The mappings traced at writeback show the
 * delayed allocation before it is converted; these show the blocks it got.
 */
#define XFS_IEXT_TP(tp, evtype)							\
SEC("tracepoint/xfs/" #tp)							\
int tp_##tp(struct trace_event_raw_xfs_bmap_class *ctx)				\
{										\
	FSL_FLOOR();									\
	return xfs_iext_ev(ctx, evtype);					\
}

XFS_IEXT_TP(xfs_iext_insert, FSL_EV_XFS_IEXT_INSERT)
XFS_IEXT_TP(xfs_iext_remove, FSL_EV_XFS_IEXT_REMOVE)
XFS_IEXT_TP(xfs_bmap_pre_update, FSL_EV_XFS_BMAP_PRE_UPDATE)
XFS_IEXT_TP(xfs_bmap_post_update, FSL_EV_XFS_BMAP_POST_UPDATE)

/* An inode freed: what the inode placement model gives back to its chunk. */
SEC("tracepoint/xfs/xfs_iunlink_remove")
int tp_xfs_iunlink_remove(struct trace_event_raw_xfs_ag_inode_class *ctx)
{
	FSL_FLOOR();
	struct fsl_ev_xfs_agino *e;

	if (DEV_SKIP(ctx->dev))
		return 0;
	e = EV_NEW(fsl_ev_xfs_agino, FSL_EV_XFS_IUNLINK_REMOVE, FSL_FAM_ALLOC);
	if (!e)
		return 0;
	e->dev = ctx->dev;
	e->agno = ctx->agno;
	e->agino = ctx->agino;
	EV_SUBMIT(e);
	return 0;
}

#endif /* FSL_XFS_BPF_H */
