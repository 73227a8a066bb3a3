/* SPDX-License-Identifier: GPL-2.0 */
/*
 * alloc family: ext4 block and inode allocation, mballoc decisions and
 * preallocations, frees, extent-map results, delalloc writeback chunks,
 * bitmap and inode-table loads, fsync and unlink. Classic tracepoints.
 */
#ifndef FSL_ALLOC_BPF_H
#define FSL_ALLOC_BPF_H

#include "common.bpf.h"

#define ALLOC_NEW(T, evtype) EV_NEW(T, evtype, FSL_FAM_ALLOC)

static __always_inline int alloc_blocks(__u32 dev, __u64 ino, __u64 block, __u32 len,
					__u32 logical, __u32 lleft, __u32 lright, __u64 goal,
					__u64 pleft, __u64 pright, __u32 flags, __u16 type)
{
	struct fsl_ev_ext4_alloc_blocks *e;

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_alloc_blocks, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->block = block;
	e->len = len;
	e->logical = logical;
	e->lleft = lleft;
	e->lright = lright;
	e->goal = goal;
	e->pleft = pleft;
	e->pright = pright;
	e->flags = flags;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_request_blocks")
int tp_ext4_request_blocks(struct trace_event_raw_ext4_request_blocks *c)
{
	FSL_FLOOR();
	return alloc_blocks(c->dev, c->ino, 0, c->len, c->logical, c->lleft, c->lright,
			    c->goal, c->pleft, c->pright, c->flags, FSL_EV_EXT4_REQUEST_BLOCKS);
}

SEC("tracepoint/ext4/ext4_allocate_blocks")
int tp_ext4_allocate_blocks(struct trace_event_raw_ext4_allocate_blocks *c)
{
	FSL_FLOOR();
	return alloc_blocks(c->dev, c->ino, c->block, c->len, c->logical, c->lleft, c->lright,
			    c->goal, c->pleft, c->pright, c->flags, FSL_EV_EXT4_ALLOCATE_BLOCKS);
}

SEC("tracepoint/ext4/ext4_mballoc_alloc")
int tp_ext4_mballoc_alloc(struct trace_event_raw_ext4_mballoc_alloc *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_mballoc_alloc *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_mballoc_alloc, FSL_EV_EXT4_MBALLOC_ALLOC);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->orig_logical = c->orig_logical;
	e->orig_start = c->orig_start;
	e->orig_group = c->orig_group;
	e->orig_len = c->orig_len;
	e->goal_logical = c->goal_logical;
	e->goal_start = c->goal_start;
	e->goal_group = c->goal_group;
	e->goal_len = c->goal_len;
	e->result_logical = c->result_logical;
	e->result_start = c->result_start;
	e->result_group = c->result_group;
	e->result_len = c->result_len;
	e->found = c->found;
	e->groups = c->groups;
	e->buddy = c->buddy;
	e->flags = c->flags;
	e->tail = c->tail;
	e->cr = c->cr;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_mballoc_prealloc")
int tp_ext4_mballoc_prealloc(struct trace_event_raw_ext4_mballoc_prealloc *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_mballoc_alloc *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_mballoc_alloc, FSL_EV_EXT4_MBALLOC_PREALLOC);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->orig_logical = c->orig_logical;
	e->orig_start = c->orig_start;
	e->orig_group = c->orig_group;
	e->orig_len = c->orig_len;
	e->result_logical = c->result_logical;
	e->result_start = c->result_start;
	e->result_group = c->result_group;
	e->result_len = c->result_len;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int pa_ev(__u32 dev, __u64 ino, __u64 pstart, __u64 lstart, __u32 len,
				 __u16 type)
{
	struct fsl_ev_ext4_pa *e;

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_pa, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->pa_pstart = pstart;
	e->pa_lstart = lstart;
	e->pa_len = len;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_mb_new_inode_pa")
int tp_ext4_mb_new_inode_pa(struct trace_event_raw_ext4__mb_new_pa *c)
{
	FSL_FLOOR();
	return pa_ev(c->dev, c->ino, c->pa_pstart, c->pa_lstart, c->pa_len,
		     FSL_EV_EXT4_MB_NEW_INODE_PA);
}

SEC("tracepoint/ext4/ext4_mb_new_group_pa")
int tp_ext4_mb_new_group_pa(struct trace_event_raw_ext4__mb_new_pa *c)
{
	FSL_FLOOR();
	return pa_ev(c->dev, c->ino, c->pa_pstart, c->pa_lstart, c->pa_len,
		     FSL_EV_EXT4_MB_NEW_GROUP_PA);
}

SEC("tracepoint/ext4/ext4_mb_release_inode_pa")
int tp_ext4_mb_release_inode_pa(struct trace_event_raw_ext4_mb_release_inode_pa *c)
{
	FSL_FLOOR();
	return pa_ev(c->dev, c->ino, c->block, 0, c->count, FSL_EV_EXT4_MB_RELEASE_INODE_PA);
}

SEC("tracepoint/ext4/ext4_mb_release_group_pa")
int tp_ext4_mb_release_group_pa(struct trace_event_raw_ext4_mb_release_group_pa *c)
{
	FSL_FLOOR();
	return pa_ev(c->dev, 0, c->pa_pstart, 0, c->pa_len, FSL_EV_EXT4_MB_RELEASE_GROUP_PA);
}

SEC("tracepoint/ext4/ext4_free_blocks")
int tp_ext4_free_blocks(struct trace_event_raw_ext4_free_blocks *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_free_blocks *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_free_blocks, FSL_EV_EXT4_FREE_BLOCKS);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->block = c->block;
	e->count = c->count;
	e->flags = c->flags;
	e->mode = c->mode;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int mb_free(struct trace_event_raw_ext4__mballoc *c, __u16 type)
{
	struct fsl_ev_ext4_mballoc_free *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_mballoc_free, type);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->result_start = c->result_start;
	e->result_group = c->result_group;
	e->result_len = c->result_len;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_mballoc_free")
int tp_ext4_mballoc_free(struct trace_event_raw_ext4__mballoc *c)
{
	FSL_FLOOR();
	return mb_free(c, FSL_EV_EXT4_MBALLOC_FREE);
}

SEC("tracepoint/ext4/ext4_mballoc_discard")
int tp_ext4_mballoc_discard(struct trace_event_raw_ext4__mballoc *c)
{
	FSL_FLOOR();
	return mb_free(c, FSL_EV_EXT4_MBALLOC_DISCARD);
}

static __always_inline int inode_ev(__u32 dev, __u64 ino, __u64 dir, __u16 mode, __u32 uid,
				    __u32 gid, __u64 blocks, __u16 type)
{
	struct fsl_ev_ext4_inode *e;

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_inode, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->dir = dir;
	e->mode = mode;
	e->uid = uid;
	e->gid = gid;
	e->blocks = blocks;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_request_inode")
int tp_ext4_request_inode(struct trace_event_raw_ext4_request_inode *c)
{
	FSL_FLOOR();
	return inode_ev(c->dev, 0, c->dir, c->mode, 0, 0, 0, FSL_EV_EXT4_REQUEST_INODE);
}

SEC("tracepoint/ext4/ext4_allocate_inode")
int tp_ext4_allocate_inode(struct trace_event_raw_ext4_allocate_inode *c)
{
	FSL_FLOOR();
	return inode_ev(c->dev, c->ino, c->dir, c->mode, 0, 0, 0, FSL_EV_EXT4_ALLOCATE_INODE);
}

SEC("tracepoint/ext4/ext4_free_inode")
int tp_ext4_free_inode(struct trace_event_raw_ext4_free_inode *c)
{
	FSL_FLOOR();
	return inode_ev(c->dev, c->ino, 0, c->mode, c->uid, c->gid, c->blocks,
			FSL_EV_EXT4_FREE_INODE);
}

SEC("tracepoint/ext4/ext4_load_inode")
int tp_ext4_load_inode(struct trace_event_raw_ext4_load_inode *c)
{
	FSL_FLOOR();
	return inode_ev(c->dev, c->ino, 0, 0, 0, 0, 0, FSL_EV_EXT4_LOAD_INODE);
}

SEC("tracepoint/ext4/ext4_ext_map_blocks_exit")
int tp_ext4_ext_map_blocks_exit(struct trace_event_raw_ext4__map_blocks_exit *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_map_blocks *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_map_blocks, FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->flags = c->flags;
	e->pblk = c->pblk;
	e->lblk = c->lblk;
	e->len = c->len;
	e->mflags = c->mflags;
	e->ret = c->ret;
	EV_SUBMIT(e);
	return 0;
}

/*
 * Files without extents (ext2/ext3 format on the ext4 driver) map through
 * the indirect-block code: the same record as an extent mapping, its own
 * type; the enter names the logical block whose mapping may allocate
 * indirect blocks before the data (fragcheck counts them in the file's run).
 */
SEC("tracepoint/ext4/ext4_ind_map_blocks_exit")
int tp_ext4_ind_map_blocks_exit(struct trace_event_raw_ext4__map_blocks_exit *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_map_blocks *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_map_blocks, FSL_EV_EXT4_IND_MAP_BLOCKS_EXIT);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->flags = c->flags;
	e->pblk = c->pblk;
	e->lblk = c->lblk;
	e->len = c->len;
	e->mflags = c->mflags;
	e->ret = c->ret;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int map_enter(__u32 dev, __u64 ino, __u32 lblk, __u32 len, __u32 flags)
{
	struct fsl_ev_ext4_map_enter *e;

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_map_enter, FSL_EV_EXT4_IND_MAP_BLOCKS_ENTER);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->lblk = lblk;
	e->len = len;
	e->flags = flags;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_ind_map_blocks_enter")
int tp_ext4_ind_map_blocks_enter(struct trace_event_raw_ext4__map_blocks_enter *c)
{
	FSL_FLOOR();
	return map_enter(c->dev, c->ino, c->lblk, c->len, c->flags);
}

SEC("tracepoint/ext4/ext4_writepages")
int tp_ext4_writepages(struct trace_event_raw_ext4_writepages *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_writepages *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_writepages, FSL_EV_EXT4_WRITEPAGES);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->sync_mode = c->sync_mode;
	e->nr_to_write = c->nr_to_write;
	e->pages_skipped = c->pages_skipped;
	e->range_start = c->range_start;
	e->range_end = c->range_end;
	e->writeback_index = c->writeback_index;
	e->for_kupdate = c->for_kupdate;
	e->range_cyclic = c->range_cyclic;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_da_write_folios_start")
int tp_ext4_da_write_folios_start(struct trace_event_raw_ext4_da_write_folios_start *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_da_write *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_da_write, FSL_EV_EXT4_DA_WRITE_FOLIOS_START);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->start_pos = c->start_pos;
	e->next_pos = c->next_pos;
	e->nr_to_write = c->nr_to_write;
	e->sync_mode = c->sync_mode;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_da_write_folios_end")
int tp_ext4_da_write_folios_end(struct trace_event_raw_ext4_da_write_folios_end *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_da_write *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_da_write, FSL_EV_EXT4_DA_WRITE_FOLIOS_END);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->start_pos = c->start_pos;
	e->next_pos = c->next_pos;
	e->nr_to_write = c->nr_to_write;
	e->ret = c->ret;
	EV_SUBMIT(e);
	return 0;
}

/*
 * Kernels before 6.10 had ext4_da_write_pages (page indexes) instead of the
 * folio start/end pair; the collector loads whichever exists.
 */
struct trace_event_raw_ext4_da_write_pages___old {
	dev_t dev;
	ino_t ino;
	unsigned long first_page;
	long nr_to_write;
	int sync_mode;
} __attribute__((preserve_access_index));

SEC("tracepoint/ext4/ext4_da_write_pages")
int tp_ext4_da_write_pages(struct trace_event_raw_ext4_da_write_pages___old *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_da_write *e;
	__u32 dev = BPF_CORE_READ(c, dev);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_da_write, FSL_EV_EXT4_DA_WRITE_PAGES);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(c, ino);
	e->start_pos = (__s64)BPF_CORE_READ(c, first_page) << 12;	/* PAGE_SHIFT */
	e->nr_to_write = BPF_CORE_READ(c, nr_to_write);
	e->sync_mode = BPF_CORE_READ(c, sync_mode);
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_da_write_pages_extent")
int tp_ext4_da_write_pages_extent(struct trace_event_raw_ext4_da_write_pages_extent *c)
{
	FSL_FLOOR();
	struct fsl_ev_ext4_da_extent *e;

	if (DEV_SKIP(c->dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_da_extent, FSL_EV_EXT4_DA_WRITE_PAGES_EXTENT);
	if (!e)
		return 0;
	e->dev = c->dev;
	e->ino = c->ino;
	e->lblk = c->lblk;
	e->len = c->len;
	e->flags = c->flags;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int group_load(__u32 dev, __u32 group, __u8 prefetch, __u16 type)
{
	struct fsl_ev_ext4_group_load *e;

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_group_load, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->group = group;
	e->prefetch = prefetch;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_mb_bitmap_load")
int tp_ext4_mb_bitmap_load(struct trace_event_raw_ext4__bitmap_load *c)
{
	FSL_FLOOR();
	return group_load(c->dev, c->group, 0, FSL_EV_EXT4_MB_BITMAP_LOAD);
}

SEC("tracepoint/ext4/ext4_mb_buddy_bitmap_load")
int tp_ext4_mb_buddy_bitmap_load(struct trace_event_raw_ext4__bitmap_load *c)
{
	FSL_FLOOR();
	return group_load(c->dev, c->group, 0, FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD);
}

SEC("tracepoint/ext4/ext4_read_block_bitmap_load")
int tp_ext4_read_block_bitmap_load(struct trace_event_raw_ext4_read_block_bitmap_load *c)
{
	FSL_FLOOR();
	return group_load(c->dev, c->group, c->prefetch, FSL_EV_EXT4_READ_BLOCK_BITMAP_LOAD);
}

static __always_inline int file_op(__u32 dev, __u64 ino, __u64 parent, __s64 size,
				   __s32 datasync, __s32 ret, __u16 type)
{
	struct fsl_ev_ext4_file_op *e;

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_file_op, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = ino;
	e->parent = parent;
	e->size = size;
	e->datasync = datasync;
	e->ret = ret;
	EV_SUBMIT(e);
	return 0;
}

SEC("tracepoint/ext4/ext4_sync_file_enter")
int tp_ext4_sync_file_enter(struct trace_event_raw_ext4_sync_file_enter *c)
{
	FSL_FLOOR();
	return file_op(c->dev, c->ino, c->parent, 0, c->datasync, 0,
		       FSL_EV_EXT4_SYNC_FILE_ENTER);
}

SEC("tracepoint/ext4/ext4_sync_file_exit")
int tp_ext4_sync_file_exit(struct trace_event_raw_ext4_sync_file_exit *c)
{
	FSL_FLOOR();
	return file_op(c->dev, c->ino, 0, 0, 0, c->ret, FSL_EV_EXT4_SYNC_FILE_EXIT);
}

SEC("tracepoint/ext4/ext4_unlink_enter")
int tp_ext4_unlink_enter(struct trace_event_raw_ext4_unlink_enter *c)
{
	FSL_FLOOR();
	return file_op(c->dev, c->ino, c->parent, c->size, 0, 0, FSL_EV_EXT4_UNLINK_ENTER);
}

SEC("tracepoint/ext4/ext4_unlink_exit")
int tp_ext4_unlink_exit(struct trace_event_raw_ext4_unlink_exit *c)
{
	FSL_FLOOR();
	return file_op(c->dev, c->ino, 0, 0, 0, c->ret, FSL_EV_EXT4_UNLINK_EXIT);
}

/*
 * The same events on tp_btf/raw_tp, derived from the tracepoints' arguments
 * as the kernel's TP_fast_assign does; preferred over the classic programs
 * above, which stay as the fallback (see journal.bpf.h).
 */
static __always_inline __u32 inode_dev(struct inode *i)
{
	return BPF_CORE_READ(i, i_sb, s_dev);
}

static __always_inline int ar_blocks(struct ext4_allocation_request *ar, __u64 block, __u16 type)
{
	struct inode *inode = BPF_CORE_READ(ar, inode);

	return alloc_blocks(inode_dev(inode), BPF_CORE_READ(inode, i_ino), block,
			    BPF_CORE_READ(ar, len), BPF_CORE_READ(ar, logical),
			    BPF_CORE_READ(ar, lleft), BPF_CORE_READ(ar, lright),
			    BPF_CORE_READ(ar, goal), BPF_CORE_READ(ar, pleft),
			    BPF_CORE_READ(ar, pright), BPF_CORE_READ(ar, flags), type);
}

/* ext4_request_blocks(struct ext4_allocation_request *ar) */
static __always_inline int on_ext4_request_blocks(__u64 *ctx)
{
	return ar_blocks((void *)ctx[0], 0, FSL_EV_EXT4_REQUEST_BLOCKS);
}

/* ext4_allocate_blocks(struct ext4_allocation_request *ar, unsigned long long block) */
static __always_inline int on_ext4_allocate_blocks(__u64 *ctx)
{
	return ar_blocks((void *)ctx[0], ctx[1], FSL_EV_EXT4_ALLOCATE_BLOCKS);
}

static __always_inline int mballoc_raw(struct ext4_allocation_context *ac, __u16 type, int full)
{
	struct fsl_ev_ext4_mballoc_alloc *e;
	__u32 dev = BPF_CORE_READ(ac, ac_sb, s_dev);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_mballoc_alloc, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(ac, ac_inode, i_ino);
	e->orig_logical = BPF_CORE_READ(ac, ac_o_ex.fe_logical);
	e->orig_start = BPF_CORE_READ(ac, ac_o_ex.fe_start);
	e->orig_group = BPF_CORE_READ(ac, ac_o_ex.fe_group);
	e->orig_len = BPF_CORE_READ(ac, ac_o_ex.fe_len);
	/* mballoc_alloc reports the extent found (ac_f_ex), prealloc the best (ac_b_ex) */
	if (full) {
		e->result_logical = BPF_CORE_READ(ac, ac_f_ex.fe_logical);
		e->result_start = BPF_CORE_READ(ac, ac_f_ex.fe_start);
		e->result_group = BPF_CORE_READ(ac, ac_f_ex.fe_group);
		e->result_len = BPF_CORE_READ(ac, ac_f_ex.fe_len);
	} else {
		e->result_logical = BPF_CORE_READ(ac, ac_b_ex.fe_logical);
		e->result_start = BPF_CORE_READ(ac, ac_b_ex.fe_start);
		e->result_group = BPF_CORE_READ(ac, ac_b_ex.fe_group);
		e->result_len = BPF_CORE_READ(ac, ac_b_ex.fe_len);
	}
	if (full) {
		e->goal_logical = BPF_CORE_READ(ac, ac_g_ex.fe_logical);
		e->goal_start = BPF_CORE_READ(ac, ac_g_ex.fe_start);
		e->goal_group = BPF_CORE_READ(ac, ac_g_ex.fe_group);
		e->goal_len = BPF_CORE_READ(ac, ac_g_ex.fe_len);
		e->found = BPF_CORE_READ(ac, ac_found);
		e->flags = BPF_CORE_READ(ac, ac_flags);
		e->groups = BPF_CORE_READ(ac, ac_groups_scanned);
		e->buddy = BPF_CORE_READ(ac, ac_buddy);
		e->tail = BPF_CORE_READ(ac, ac_tail);
		e->cr = BPF_CORE_READ(ac, ac_criteria);
	}
	EV_SUBMIT(e);
	return 0;
}

/* ext4_mballoc_alloc(struct ext4_allocation_context *ac) */
static __always_inline int on_ext4_mballoc_alloc(__u64 *ctx)
{
	return mballoc_raw((void *)ctx[0], FSL_EV_EXT4_MBALLOC_ALLOC, 1);
}

/* ext4_mballoc_prealloc(struct ext4_allocation_context *ac) */
static __always_inline int on_ext4_mballoc_prealloc(__u64 *ctx)
{
	return mballoc_raw((void *)ctx[0], FSL_EV_EXT4_MBALLOC_PREALLOC, 0);
}

/* ext4_mb_new_{inode,group}_pa(struct ext4_allocation_context *ac, struct ext4_prealloc_space *pa) */
static __always_inline int new_pa_raw(__u64 *ctx, __u16 type)
{
	struct ext4_allocation_context *ac = (void *)ctx[0];
	struct ext4_prealloc_space *pa = (void *)ctx[1];

	return pa_ev(BPF_CORE_READ(ac, ac_sb, s_dev), BPF_CORE_READ(ac, ac_inode, i_ino),
		     BPF_CORE_READ(pa, pa_pstart), BPF_CORE_READ(pa, pa_lstart),
		     BPF_CORE_READ(pa, pa_len), type);
}

static __always_inline int on_ext4_mb_new_inode_pa(__u64 *ctx)
{
	return new_pa_raw(ctx, FSL_EV_EXT4_MB_NEW_INODE_PA);
}

static __always_inline int on_ext4_mb_new_group_pa(__u64 *ctx)
{
	return new_pa_raw(ctx, FSL_EV_EXT4_MB_NEW_GROUP_PA);
}

/* ext4_mb_release_inode_pa(struct ext4_prealloc_space *pa, unsigned long long block, unsigned int count) */
static __always_inline int on_ext4_mb_release_inode_pa(__u64 *ctx)
{
	struct ext4_prealloc_space *pa = (void *)ctx[0];
	struct inode *inode = BPF_CORE_READ(pa, pa_inode);

	return pa_ev(inode_dev(inode), BPF_CORE_READ(inode, i_ino), ctx[1], 0, (__u32)ctx[2],
		     FSL_EV_EXT4_MB_RELEASE_INODE_PA);
}

/* ext4_mb_release_group_pa(struct super_block *sb, struct ext4_prealloc_space *pa) */
static __always_inline int on_ext4_mb_release_group_pa(__u64 *ctx)
{
	struct super_block *sb = (void *)ctx[0];
	struct ext4_prealloc_space *pa = (void *)ctx[1];

	return pa_ev(BPF_CORE_READ(sb, s_dev), 0, BPF_CORE_READ(pa, pa_pstart), 0,
		     BPF_CORE_READ(pa, pa_len), FSL_EV_EXT4_MB_RELEASE_GROUP_PA);
}

/* ext4_free_blocks(struct inode *inode, __u64 block, unsigned long count, int flags) */
static __always_inline int on_ext4_free_blocks(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];
	struct fsl_ev_ext4_free_blocks *e;
	__u32 dev = inode_dev(inode);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_free_blocks, FSL_EV_EXT4_FREE_BLOCKS);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->block = ctx[1];
	e->count = ctx[2];
	e->flags = ctx[3];
	e->mode = BPF_CORE_READ(inode, i_mode);
	EV_SUBMIT(e);
	return 0;
}

/* ext4_mballoc_{free,discard}(struct super_block *sb, struct inode *inode, group, start, len) */
static __always_inline int mb_free_raw(__u64 *ctx, __u16 type)
{
	struct super_block *sb = (void *)ctx[0];
	struct inode *inode = (void *)ctx[1];
	struct fsl_ev_ext4_mballoc_free *e;
	__u32 dev = BPF_CORE_READ(sb, s_dev);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_mballoc_free, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = inode ? BPF_CORE_READ(inode, i_ino) : 0;
	e->result_group = ctx[2];
	e->result_start = ctx[3];
	e->result_len = ctx[4];
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int on_ext4_mballoc_free(__u64 *ctx)
{
	return mb_free_raw(ctx, FSL_EV_EXT4_MBALLOC_FREE);
}

static __always_inline int on_ext4_mballoc_discard(__u64 *ctx)
{
	return mb_free_raw(ctx, FSL_EV_EXT4_MBALLOC_DISCARD);
}

/* ext4_request_inode(struct inode *dir, int mode) */
static __always_inline int on_ext4_request_inode(__u64 *ctx, const int btf)
{
	struct inode *dir = (void *)ctx[0];

	return inode_ev(FSL_RD(btf, dir->i_sb->s_dev, dir, i_sb, s_dev), 0,
			FSL_RD(btf, dir->i_ino, dir, i_ino), ctx[1], 0, 0, 0,
			FSL_EV_EXT4_REQUEST_INODE);
}

/* ext4_allocate_inode(struct inode *inode, struct inode *dir, int mode) */
static __always_inline int on_ext4_allocate_inode(__u64 *ctx, const int btf)
{
	struct inode *inode = (void *)ctx[0];
	struct inode *dir = (void *)ctx[1];

	return inode_ev(FSL_RD(btf, inode->i_sb->s_dev, inode, i_sb, s_dev),
			FSL_RD(btf, inode->i_ino, inode, i_ino), FSL_RD(btf, dir->i_ino, dir, i_ino),
			ctx[2], 0, 0, 0, FSL_EV_EXT4_ALLOCATE_INODE);
}

/* ext4_free_inode(struct inode *inode) */
static __always_inline int on_ext4_free_inode(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];

	return inode_ev(inode_dev(inode), BPF_CORE_READ(inode, i_ino), 0,
			BPF_CORE_READ(inode, i_mode), BPF_CORE_READ(inode, i_uid.val),
			BPF_CORE_READ(inode, i_gid.val), BPF_CORE_READ(inode, i_blocks),
			FSL_EV_EXT4_FREE_INODE);
}

/* ext4_load_inode(struct super_block *sb, unsigned long ino) */
static __always_inline int on_ext4_load_inode(__u64 *ctx)
{
	struct super_block *sb = (void *)ctx[0];

	return inode_ev(BPF_CORE_READ(sb, s_dev), ctx[1], 0, 0, 0, 0, 0, FSL_EV_EXT4_LOAD_INODE);
}

/* ext4_{ext,ind}_map_blocks_exit(struct inode *inode, unsigned flags, struct ext4_map_blocks *map, int ret) */
static __always_inline int map_exit_raw(__u64 *ctx, __u16 type)
{
	struct inode *inode = (void *)ctx[0];
	struct ext4_map_blocks *map = (void *)ctx[2];
	struct fsl_ev_ext4_map_blocks *e;
	__u32 dev = inode_dev(inode);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_map_blocks, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->flags = ctx[1];
	e->pblk = BPF_CORE_READ(map, m_pblk);
	e->lblk = BPF_CORE_READ(map, m_lblk);
	e->len = BPF_CORE_READ(map, m_len);
	e->mflags = BPF_CORE_READ(map, m_flags);
	e->ret = ctx[3];
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int on_ext4_ext_map_blocks_exit(__u64 *ctx)
{
	return map_exit_raw(ctx, FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT);
}

static __always_inline int on_ext4_ind_map_blocks_exit(__u64 *ctx)
{
	return map_exit_raw(ctx, FSL_EV_EXT4_IND_MAP_BLOCKS_EXIT);
}

/* ext4_ind_map_blocks_enter(struct inode *inode, ext4_lblk_t lblk, unsigned int len, unsigned int flags) */
static __always_inline int on_ext4_ind_map_blocks_enter(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];

	return map_enter(inode_dev(inode), BPF_CORE_READ(inode, i_ino), ctx[1], ctx[2], ctx[3]);
}

/* ext4_writepages(struct inode *inode, struct writeback_control *wbc) */
static __always_inline int on_ext4_writepages(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];
	struct writeback_control *wbc = (void *)ctx[1];
	struct fsl_ev_ext4_writepages *e;
	__u32 dev = inode_dev(inode);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_writepages, FSL_EV_EXT4_WRITEPAGES);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->nr_to_write = BPF_CORE_READ(wbc, nr_to_write);
	e->pages_skipped = BPF_CORE_READ(wbc, pages_skipped);
	e->range_start = BPF_CORE_READ(wbc, range_start);
	e->range_end = BPF_CORE_READ(wbc, range_end);
	e->writeback_index = BPF_CORE_READ(inode, i_mapping, writeback_index);
	e->sync_mode = BPF_CORE_READ(wbc, sync_mode);
	e->for_kupdate = BPF_CORE_READ_BITFIELD_PROBED(wbc, for_kupdate);
	e->range_cyclic = BPF_CORE_READ_BITFIELD_PROBED(wbc, range_cyclic);
	EV_SUBMIT(e);
	return 0;
}

/* ext4_da_write_folios_{start,end}(struct inode *, loff_t start, loff_t next, wbc[, int ret]) */
static __always_inline int da_folios_raw(__u64 *ctx, __u16 type, int end)
{
	struct inode *inode = (void *)ctx[0];
	struct writeback_control *wbc = (void *)ctx[3];
	struct fsl_ev_ext4_da_write *e;
	__u32 dev = inode_dev(inode);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_da_write, type);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->start_pos = ctx[1];
	e->next_pos = ctx[2];
	e->nr_to_write = BPF_CORE_READ(wbc, nr_to_write);
	if (end)
		e->ret = ctx[4];
	else
		e->sync_mode = BPF_CORE_READ(wbc, sync_mode);
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int on_ext4_da_write_folios_start(__u64 *ctx)
{
	return da_folios_raw(ctx, FSL_EV_EXT4_DA_WRITE_FOLIOS_START, 0);
}

static __always_inline int on_ext4_da_write_folios_end(__u64 *ctx)
{
	return da_folios_raw(ctx, FSL_EV_EXT4_DA_WRITE_FOLIOS_END, 1);
}

/* ext4_da_write_pages_extent(struct inode *inode, struct ext4_map_blocks *map) */
static __always_inline int on_ext4_da_write_pages_extent(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];
	struct ext4_map_blocks *map = (void *)ctx[1];
	struct fsl_ev_ext4_da_extent *e;
	__u32 dev = inode_dev(inode);

	if (DEV_SKIP(dev))
		return 0;
	e = ALLOC_NEW(fsl_ev_ext4_da_extent, FSL_EV_EXT4_DA_WRITE_PAGES_EXTENT);
	if (!e)
		return 0;
	e->dev = dev;
	e->ino = BPF_CORE_READ(inode, i_ino);
	e->lblk = BPF_CORE_READ(map, m_lblk);
	e->len = BPF_CORE_READ(map, m_len);
	e->flags = BPF_CORE_READ(map, m_flags);
	EV_SUBMIT(e);
	return 0;
}

/* ext4_mb_bitmap_load / ext4_mb_buddy_bitmap_load(struct super_block *sb, unsigned long group) */
static __always_inline int on_ext4_mb_bitmap_load(__u64 *ctx)
{
	return group_load(BPF_CORE_READ((struct super_block *)ctx[0], s_dev), ctx[1], 0,
			  FSL_EV_EXT4_MB_BITMAP_LOAD);
}

static __always_inline int on_ext4_mb_buddy_bitmap_load(__u64 *ctx)
{
	return group_load(BPF_CORE_READ((struct super_block *)ctx[0], s_dev), ctx[1], 0,
			  FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD);
}

/* ext4_read_block_bitmap_load(struct super_block *sb, unsigned long group, bool prefetch) */
static __always_inline int on_ext4_read_block_bitmap_load(__u64 *ctx)
{
	return group_load(BPF_CORE_READ((struct super_block *)ctx[0], s_dev), ctx[1],
			  (__u8)ctx[2], FSL_EV_EXT4_READ_BLOCK_BITMAP_LOAD);
}

/* ext4_sync_file_enter(struct file *file, int datasync) */
static __always_inline int on_ext4_sync_file_enter(__u64 *ctx)
{
	struct dentry *d = BPF_CORE_READ((struct file *)ctx[0], f_path.dentry);

	return file_op(BPF_CORE_READ(d, d_sb, s_dev), BPF_CORE_READ(d, d_inode, i_ino),
		       BPF_CORE_READ(d, d_parent, d_inode, i_ino), 0, ctx[1], 0,
		       FSL_EV_EXT4_SYNC_FILE_ENTER);
}

/* ext4_sync_file_exit(struct inode *inode, int ret) */
static __always_inline int on_ext4_sync_file_exit(__u64 *ctx)
{
	struct inode *inode = (void *)ctx[0];

	return file_op(inode_dev(inode), BPF_CORE_READ(inode, i_ino), 0, 0, 0, ctx[1],
		       FSL_EV_EXT4_SYNC_FILE_EXIT);
}

/* ext4_unlink_enter(struct inode *parent, struct dentry *dentry) */
static __always_inline int on_ext4_unlink_enter(__u64 *ctx)
{
	struct inode *parent = (void *)ctx[0];
	struct dentry *d = (void *)ctx[1];

	return file_op(BPF_CORE_READ(d, d_sb, s_dev), BPF_CORE_READ(d, d_inode, i_ino),
		       BPF_CORE_READ(parent, i_ino), BPF_CORE_READ(d, d_inode, i_size), 0, 0,
		       FSL_EV_EXT4_UNLINK_ENTER);
}

/* ext4_unlink_exit(struct dentry *dentry, int ret) */
static __always_inline int on_ext4_unlink_exit(__u64 *ctx)
{
	struct dentry *d = (void *)ctx[0];

	return file_op(BPF_CORE_READ(d, d_sb, s_dev), BPF_CORE_READ(d, d_inode, i_ino), 0, 0, 0,
		       ctx[1], FSL_EV_EXT4_UNLINK_EXIT);
}

FSL_RAW_TP(ext4_request_blocks, on_ext4_request_blocks)
FSL_RAW_TP(ext4_allocate_blocks, on_ext4_allocate_blocks)
FSL_RAW_TP(ext4_mballoc_alloc, on_ext4_mballoc_alloc)
FSL_RAW_TP(ext4_mballoc_prealloc, on_ext4_mballoc_prealloc)
FSL_RAW_TP(ext4_mb_new_inode_pa, on_ext4_mb_new_inode_pa)
FSL_RAW_TP(ext4_mb_new_group_pa, on_ext4_mb_new_group_pa)
FSL_RAW_TP(ext4_mb_release_inode_pa, on_ext4_mb_release_inode_pa)
FSL_RAW_TP(ext4_mb_release_group_pa, on_ext4_mb_release_group_pa)
FSL_RAW_TP(ext4_free_blocks, on_ext4_free_blocks)
FSL_RAW_TP(ext4_mballoc_free, on_ext4_mballoc_free)
FSL_RAW_TP(ext4_mballoc_discard, on_ext4_mballoc_discard)
FSL_RAW_TP_BTF(ext4_request_inode, on_ext4_request_inode)
FSL_RAW_TP_BTF(ext4_allocate_inode, on_ext4_allocate_inode)
FSL_RAW_TP(ext4_free_inode, on_ext4_free_inode)
FSL_RAW_TP(ext4_load_inode, on_ext4_load_inode)
FSL_RAW_TP(ext4_ext_map_blocks_exit, on_ext4_ext_map_blocks_exit)
FSL_RAW_TP(ext4_ind_map_blocks_enter, on_ext4_ind_map_blocks_enter)
FSL_RAW_TP(ext4_ind_map_blocks_exit, on_ext4_ind_map_blocks_exit)
FSL_RAW_TP(ext4_writepages, on_ext4_writepages)
FSL_RAW_TP(ext4_da_write_folios_start, on_ext4_da_write_folios_start)
FSL_RAW_TP(ext4_da_write_folios_end, on_ext4_da_write_folios_end)
FSL_RAW_TP(ext4_da_write_pages_extent, on_ext4_da_write_pages_extent)
FSL_RAW_TP(ext4_mb_bitmap_load, on_ext4_mb_bitmap_load)
FSL_RAW_TP(ext4_mb_buddy_bitmap_load, on_ext4_mb_buddy_bitmap_load)
FSL_RAW_TP(ext4_read_block_bitmap_load, on_ext4_read_block_bitmap_load)
FSL_RAW_TP(ext4_sync_file_enter, on_ext4_sync_file_enter)
FSL_RAW_TP(ext4_sync_file_exit, on_ext4_sync_file_exit)
FSL_RAW_TP(ext4_unlink_enter, on_ext4_unlink_enter)
FSL_RAW_TP(ext4_unlink_exit, on_ext4_unlink_exit)

#endif
