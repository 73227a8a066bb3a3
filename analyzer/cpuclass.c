// SPDX-License-Identifier: GPL-2.0
/*
 * CPU classes: an on-CPU kernel stack (a sample of the cpu family) -> where
 * the time went.
 *
 * The rules are data (the table below, documented in docs/wait-classes.md).
 * A rule names a kernel function ("f" exact, "f*" a prefix, "*f*" a part of
 * the name) and a class. Frames are read innermost first, and the first
 * frame a strong rule names decides: on-CPU, the innermost code is what
 * burns the time (crc32c under an inode update is checksum time; a
 * directory-entry compare under a lookup is the scan). Within one frame the
 * first rule of the table that matches wins, so narrow rules come before
 * broad ones. Weak rules (the catch-alls for ext4's and XFS's other code)
 * only give the class when no strong rule names an outer frame: an ext4
 * helper called from the block allocator is allocator time. Frames no rule
 * names (memcpy, spin unlocks) pass the question outward. No match at all:
 * kernel_other; a sample taken in user mode: user.
 *
 * One exception reads the whole stack first: a sample inside a BPF program
 * or the tracing glue that runs it is the recorder's own cost, whatever the
 * program was copying (a path read by the syscall probe is not a path walk).
 */
#include <errno.h>
#include <string.h>
#include "an_internal.h"

struct cc_rule {
	const char *func;
	unsigned char cls;
	unsigned char weak;
};

static const char *const recorder_frames[] = {
	"bpf_prog_*", "bpf_trace_run*", "__bpf_trace_*", "bpf_probe_read*", "__traceiter_*",
	"trace_call_bpf", "bpf_ringbuf_*", "bpf_get_stack*", "__bpf_get_stack*",
	"syscall_trace_enter", "syscall_exit_work", "perf_trace_*", "perf_syscall_*",
	"bpf_task_storage_*", "bpf_map_*", "htab_map_*", "__htab_map_*",
};

static const struct cc_rule cc_rules[] = {
	/* contended locks: the spinning, whatever the lock protects */
	{ "native_queued_spin_lock_slowpath",	FSL_CC_LOCK_SPIN, 0 },
	{ "queued_spin_lock_slowpath",		FSL_CC_LOCK_SPIN, 0 },
	{ "__pv_queued_spin_lock_slowpath",	FSL_CC_LOCK_SPIN, 0 },
	{ "queued_read_lock_slowpath",		FSL_CC_LOCK_SPIN, 0 },
	{ "queued_write_lock_slowpath",		FSL_CC_LOCK_SPIN, 0 },
	{ "osq_lock",				FSL_CC_LOCK_SPIN, 0 },
	{ "rwsem_spin_on_owner",		FSL_CC_LOCK_SPIN, 0 },
	{ "rwsem_optimistic_spin",		FSL_CC_LOCK_SPIN, 0 },
	{ "mutex_spin_on_owner",		FSL_CC_LOCK_SPIN, 0 },
	{ "__mutex_lock*",			FSL_CC_LOCK_SPIN, 0 },
	{ "bit_spin_lock*",			FSL_CC_LOCK_SPIN, 0 },
	/* checksums of metadata blocks, inodes, journal blocks */
	{ "crc32c*",				FSL_CC_CHECKSUM, 0 },
	{ "__crc32c*",				FSL_CC_CHECKSUM, 0 },
	{ "crc32_*",				FSL_CC_CHECKSUM, 0 },
	{ "crc32c_le*",				FSL_CC_CHECKSUM, 0 },
	{ "chksum_update",			FSL_CC_CHECKSUM, 0 },
	{ "ext4_chksum",			FSL_CC_CHECKSUM, 0 },
	{ "*_csum*",				FSL_CC_CHECKSUM, 0 },
	/* linear directory entry scan (a block of entries, name by name) */
	{ "ext4_search_dir",			FSL_CC_DIRENT_SCAN, 0 },
	{ "__ext4_check_dir_entry",		FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_find_dest_de",			FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_match",				FSL_CC_DIRENT_SCAN, 0 },
	{ "fscrypt_match_name",			FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_insert_dentry",			FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_generic_delete_entry",		FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_readdir",			FSL_CC_DIRENT_SCAN, 0 },
	{ "htree_dirblock_to_tree",		FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_htree_store_dirent",		FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_htree_fill_tree",		FSL_CC_DIRENT_SCAN, 0 },
	{ "call_filldir",			FSL_CC_DIRENT_SCAN, 0 },
	{ "filldir*",				FSL_CC_DIRENT_SCAN, 0 },
	{ "add_dirent_to_buf",			FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_add_entry",			FSL_CC_DIRENT_SCAN, 0 },
	{ "__ext4_find_entry",			FSL_CC_DIRENT_SCAN, 0 },
	{ "ext4_bread_batch",			FSL_CC_DIRENT_SCAN, 0 },
	{ "xfs_dir2_*",				FSL_CC_DIRENT_SCAN, 0 },
	{ "xfs_dir3_*",				FSL_CC_DIRENT_SCAN, 0 },
	{ "xfs_da_*",				FSL_CC_HTREE, 0 },
	{ "xfs_da3_*",				FSL_CC_HTREE, 0 },
	/* htree: name hashing, index probing, block splits */
	{ "dx_*",				FSL_CC_HTREE, 0 },
	{ "ext4_dx_*",				FSL_CC_HTREE, 0 },
	{ "ext4fs_dirhash",			FSL_CC_HTREE, 0 },
	{ "__ext4fs_dirhash",			FSL_CC_HTREE, 0 },
	{ "str2hashbuf*",			FSL_CC_HTREE, 0 },
	{ "TEA_transform",			FSL_CC_HTREE, 0 },
	{ "half_md4_transform",			FSL_CC_HTREE, 0 },
	{ "do_split",				FSL_CC_HTREE, 0 },
	{ "make_indexed_dir",			FSL_CC_HTREE, 0 },
	{ "ext4_htree_next_block",		FSL_CC_HTREE, 0 },
	/* block allocator */
	{ "ext4_mb_*",				FSL_CC_MBALLOC, 0 },
	{ "mb_find_*",				FSL_CC_MBALLOC, 0 },
	{ "mb_mark_used",			FSL_CC_MBALLOC, 0 },
	{ "mb_free_blocks",			FSL_CC_MBALLOC, 0 },
	{ "mb_set_largest_free_order",		FSL_CC_MBALLOC, 0 },
	{ "ext4_new_meta_blocks",		FSL_CC_MBALLOC, 0 },
	{ "ext4_discard_preallocations",	FSL_CC_MBALLOC, 0 },
	{ "ext4_free_blocks",			FSL_CC_MBALLOC, 0 },
	{ "xfs_alloc_*",			FSL_CC_MBALLOC, 0 },
	{ "xfs_bmap_btalloc*",			FSL_CC_MBALLOC, 0 },
	/* inode allocator */
	{ "find_inode_bit",			FSL_CC_IALLOC, 0 },
	{ "find_group_orlov",			FSL_CC_IALLOC, 0 },
	{ "find_group_other",			FSL_CC_IALLOC, 0 },
	{ "get_orlov_stats",			FSL_CC_IALLOC, 0 },
	{ "recently_deleted",			FSL_CC_IALLOC, 0 },
	{ "ext4_free_inode",			FSL_CC_IALLOC, 0 },
	{ "__ext4_new_inode",			FSL_CC_IALLOC, 0 },
	{ "xfs_dialloc*",			FSL_CC_IALLOC, 0 },
	{ "xfs_difree*",			FSL_CC_IALLOC, 0 },
	{ "xfs_ialloc_*",			FSL_CC_IALLOC, 0 },
	/* extents: the tree, the extent status cache, block mapping */
	{ "ext4_ext_*",				FSL_CC_EXTENT, 0 },
	{ "ext4_es_*",				FSL_CC_EXTENT, 0 },
	{ "__es_*",				FSL_CC_EXTENT, 0 },
	{ "ext4_find_extent",			FSL_CC_EXTENT, 0 },
	{ "ext4_map_blocks",			FSL_CC_EXTENT, 0 },
	{ "ext4_ind_map_blocks",		FSL_CC_EXTENT, 0 },
	{ "ext4_get_branch",			FSL_CC_EXTENT, 0 },
	{ "ext4_da_get_block_prep",		FSL_CC_EXTENT, 0 },
	{ "ext4_da_map_blocks*",		FSL_CC_EXTENT, 0 },
	{ "ext4_convert_unwritten_*",		FSL_CC_EXTENT, 0 },
	{ "xfs_bmap*",				FSL_CC_EXTENT, 0 },
	{ "xfs_iext_*",				FSL_CC_EXTENT, 0 },
	{ "xfs_bmapi_*",			FSL_CC_EXTENT, 0 },
	/* journal bookkeeping */
	{ "jbd2*",				FSL_CC_JOURNAL, 0 },
	{ "__jbd2*",				FSL_CC_JOURNAL, 0 },
	{ "do_get_write_access",		FSL_CC_JOURNAL, 0 },
	{ "start_this_handle",			FSL_CC_JOURNAL, 0 },
	{ "add_transaction_credits",		FSL_CC_JOURNAL, 0 },
	{ "__ext4_journal_*",			FSL_CC_JOURNAL, 0 },
	{ "__ext4_handle_dirty_metadata",	FSL_CC_JOURNAL, 0 },
	{ "ext4_journal_check_start",		FSL_CC_JOURNAL, 0 },
	{ "xlog_*",				FSL_CC_JOURNAL, 0 },
	{ "xfs_log_*",				FSL_CC_JOURNAL, 0 },
	{ "xfs_trans_*",			FSL_CC_JOURNAL, 0 },
	{ "xfs_cil_*",				FSL_CC_JOURNAL, 0 },
	/* inodes: updates into the inode table, the inode cache */
	{ "ext4_mark_iloc_dirty",		FSL_CC_INODE, 0 },
	{ "__ext4_mark_inode_dirty",		FSL_CC_INODE, 0 },
	{ "file_modified",			FSL_CC_INODE, 0 },
	{ "file_remove_privs*",			FSL_CC_INODE, 0 },
	{ "ext4_do_update_inode*",		FSL_CC_INODE, 0 },
	{ "ext4_fill_raw_inode",		FSL_CC_INODE, 0 },
	{ "ext4_reserve_inode_write",		FSL_CC_INODE, 0 },
	{ "__ext4_get_inode_loc*",		FSL_CC_INODE, 0 },
	{ "ext4_get_inode_loc",			FSL_CC_INODE, 0 },
	{ "ext4_dirty_inode",			FSL_CC_INODE, 0 },
	{ "__ext4_iget",			FSL_CC_INODE, 0 },
	{ "ext4_iget*",				FSL_CC_INODE, 0 },
	{ "ext4_alloc_inode",			FSL_CC_INODE, 0 },
	{ "ext4_evict_inode",			FSL_CC_INODE, 0 },
	{ "ext4_free_in_core_inode",		FSL_CC_INODE, 0 },
	{ "iget_locked",			FSL_CC_INODE, 0 },
	{ "iget5_locked",			FSL_CC_INODE, 0 },
	{ "find_inode*",			FSL_CC_INODE, 0 },
	{ "inode_init_*",			FSL_CC_INODE, 0 },
	{ "alloc_inode",			FSL_CC_INODE, 0 },
	{ "new_inode*",				FSL_CC_INODE, 0 },
	{ "iput",				FSL_CC_INODE, 0 },
	{ "evict",				FSL_CC_INODE, 0 },
	{ "destroy_inode",			FSL_CC_INODE, 0 },
	{ "__mark_inode_dirty",			FSL_CC_INODE, 0 },
	{ "touch_atime",			FSL_CC_INODE, 0 },
	{ "file_update_time",			FSL_CC_INODE, 0 },
	{ "xfs_iget*",				FSL_CC_INODE, 0 },
	{ "xfs_inode_*",			FSL_CC_INODE, 0 },
	{ "xfs_iflush*",			FSL_CC_INODE, 0 },
	/* data between user space and the page cache */
	{ "copy_page_to_iter*",			FSL_CC_PAGE_COPY, 0 },
	{ "copy_page_from_iter*",		FSL_CC_PAGE_COPY, 0 },
	{ "copy_folio_*",			FSL_CC_PAGE_COPY, 0 },
	{ "_copy_to_iter",			FSL_CC_PAGE_COPY, 0 },
	{ "_copy_from_iter*",			FSL_CC_PAGE_COPY, 0 },
	{ "copy_user_*",			FSL_CC_PAGE_COPY, 0 },
	{ "rep_movs_alternative",		FSL_CC_PAGE_COPY, 0 },
	{ "_copy_to_user",			FSL_CC_PAGE_COPY, 0 },
	{ "_copy_from_user",			FSL_CC_PAGE_COPY, 0 },
	{ "iov_iter_zero",			FSL_CC_PAGE_COPY, 0 },
	/* writeback: dirty pages turned into I/O */
	{ "ext4_writepages",			FSL_CC_WRITEBACK, 0 },
	{ "ext4_do_writepages",			FSL_CC_WRITEBACK, 0 },
	{ "mpage_*",				FSL_CC_WRITEBACK, 0 },
	{ "ext4_bio_write_folio",		FSL_CC_WRITEBACK, 0 },
	{ "ext4_bio_write_page",		FSL_CC_WRITEBACK, 0 },
	{ "write_cache_pages",			FSL_CC_WRITEBACK, 0 },
	{ "writeback_iter",			FSL_CC_WRITEBACK, 0 },
	{ "writeback_sb_inodes",		FSL_CC_WRITEBACK, 0 },
	{ "__writeback_single_inode",		FSL_CC_WRITEBACK, 0 },
	{ "wb_writeback",			FSL_CC_WRITEBACK, 0 },
	{ "xfs_vm_writepages",			FSL_CC_WRITEBACK, 0 },
	{ "ext4_end_io*",			FSL_CC_WRITEBACK, 0 },
	{ "ext4_finish_bio",			FSL_CC_WRITEBACK, 0 },
	{ "ext4_release_io_end",		FSL_CC_WRITEBACK, 0 },
	{ "iomap_writepages",			FSL_CC_WRITEBACK, 0 },
	{ "iomap_writepage*",			FSL_CC_WRITEBACK, 0 },
	/* LRU lists: anonymous memory as much as the page cache */
	{ "folio_batch_*",			FSL_CC_MEMORY, 0 },
	{ "__folio_batch_*",			FSL_CC_MEMORY, 0 },
	{ "lru_*",				FSL_CC_MEMORY, 0 },
	/* the page and buffer cache */
	{ "filemap_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "drop_pagecache_sb",			FSL_CC_PAGE_CACHE, 0 },
	{ "mapping_try_invalidate",		FSL_CC_PAGE_CACHE, 0 },
	{ "invalidate_mapping_pages",		FSL_CC_PAGE_CACHE, 0 },
	{ "__remove_mapping",			FSL_CC_PAGE_CACHE, 0 },
	{ "remove_mapping",			FSL_CC_PAGE_CACHE, 0 },
	{ "__filemap_*",			FSL_CC_PAGE_CACHE, 0 },
	{ "find_get_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "find_lock_*",			FSL_CC_PAGE_CACHE, 0 },
	{ "pagecache_get_page",			FSL_CC_PAGE_CACHE, 0 },
	{ "folio_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "__folio_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "xas_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "xa_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "truncate_inode_*",			FSL_CC_PAGE_CACHE, 0 },
	{ "mark_buffer_dirty*",			FSL_CC_PAGE_CACHE, 0 },
	{ "__getblk*",				FSL_CC_PAGE_CACHE, 0 },
	{ "bdev_getblk",			FSL_CC_PAGE_CACHE, 0 },
	{ "__find_get_block*",			FSL_CC_PAGE_CACHE, 0 },
	{ "__bread*",				FSL_CC_PAGE_CACHE, 0 },
	{ "__brelse",				FSL_CC_PAGE_CACHE, 0 },
	{ "__block_write_begin*",		FSL_CC_PAGE_CACHE, 0 },
	{ "block_write_end",			FSL_CC_PAGE_CACHE, 0 },
	{ "generic_perform_write",		FSL_CC_PAGE_CACHE, 0 },
	{ "ext4_da_write_begin",		FSL_CC_PAGE_CACHE, 0 },
	{ "ext4_da_write_end",			FSL_CC_PAGE_CACHE, 0 },
	{ "ext4_write_begin",			FSL_CC_PAGE_CACHE, 0 },
	{ "ext4_write_end",			FSL_CC_PAGE_CACHE, 0 },
	{ "iomap_*",				FSL_CC_PAGE_CACHE, 0 },
	{ "page_cache_*",			FSL_CC_PAGE_CACHE, 0 },
	{ "release_pages",			FSL_CC_PAGE_CACHE, 0 },
	/* the block layer and the device driver */
	{ "submit_bio*",			FSL_CC_BLOCK, 0 },
	{ "__submit_bio*",			FSL_CC_BLOCK, 0 },
	{ "blk_*",				FSL_CC_BLOCK, 0 },
	{ "__blk_*",				FSL_CC_BLOCK, 0 },
	{ "bio_*",				FSL_CC_BLOCK, 0 },
	{ "virtio_queue_rq",			FSL_CC_BLOCK, 0 },
	{ "virtblk_*",				FSL_CC_BLOCK, 0 },
	{ "virtqueue_*",			FSL_CC_BLOCK, 0 },
	{ "vp_notify",				FSL_CC_BLOCK, 0 },
	{ "loop_*",				FSL_CC_BLOCK, 0 },
	{ "lo_*",				FSL_CC_BLOCK, 0 },
	{ "nvme_*",				FSL_CC_BLOCK, 0 },
	{ "scsi_*",				FSL_CC_BLOCK, 0 },
	{ "dd_*",				FSL_CC_BLOCK, 0 },
	{ "bfq_*",				FSL_CC_BLOCK, 0 },
	{ "wbt_*",				FSL_CC_BLOCK, 0 },
	/* path walk and the dentry cache */
	{ "link_path_walk*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "path_lookupat*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "path_openat",			FSL_CC_PATH_LOOKUP, 1 },
	{ "do_filp_open",			FSL_CC_PATH_LOOKUP, 1 },
	{ "path_parentat*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "walk_component",			FSL_CC_PATH_LOOKUP, 0 },
	{ "lookup_fast",			FSL_CC_PATH_LOOKUP, 0 },
	{ "lookup_one*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "__lookup_*",				FSL_CC_PATH_LOOKUP, 0 },
	{ "filename_*",				FSL_CC_PATH_LOOKUP, 0 },
	{ "step_into",				FSL_CC_PATH_LOOKUP, 0 },
	{ "__d_lookup*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "d_alloc*",				FSL_CC_PATH_LOOKUP, 0 },
	{ "__d_alloc",				FSL_CC_PATH_LOOKUP, 0 },
	{ "d_splice_alias*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "__d_rehash",				FSL_CC_PATH_LOOKUP, 0 },
	{ "putname",				FSL_CC_PATH_LOOKUP, 0 },
	{ "d_instantiate*",			FSL_CC_PATH_LOOKUP, 0 },
	{ "dput",				FSL_CC_PATH_LOOKUP, 0 },
	{ "__dentry_kill",			FSL_CC_PATH_LOOKUP, 0 },
	{ "inode_permission",			FSL_CC_PATH_LOOKUP, 0 },
	{ "generic_permission",			FSL_CC_PATH_LOOKUP, 0 },
	{ "getname*",				FSL_CC_PATH_LOOKUP, 0 },
	{ "strncpy_from_user",			FSL_CC_PATH_LOOKUP, 0 },
	{ "complete_walk",			FSL_CC_PATH_LOOKUP, 0 },
	{ "terminate_walk",			FSL_CC_PATH_LOOKUP, 0 },
	{ "try_to_unlazy*",			FSL_CC_PATH_LOOKUP, 0 },
	/* memory: allocation, freeing, faults */
	{ "kmem_cache_*",			FSL_CC_MEMORY, 0 },
	{ "__kmem_cache_*",			FSL_CC_MEMORY, 0 },
	{ "__kmalloc*",				FSL_CC_MEMORY, 0 },
	{ "kmalloc*",				FSL_CC_MEMORY, 0 },
	{ "kfree*",				FSL_CC_MEMORY, 0 },
	{ "___slab_alloc",			FSL_CC_MEMORY, 0 },
	{ "__slab_*",				FSL_CC_MEMORY, 0 },
	{ "slab_*",				FSL_CC_MEMORY, 0 },
	{ "alloc_pages*",			FSL_CC_MEMORY, 0 },
	{ "__alloc_pages*",			FSL_CC_MEMORY, 0 },
	{ "__alloc_frozen_pages*",		FSL_CC_MEMORY, 0 },
	{ "get_page_from_freelist",		FSL_CC_MEMORY, 0 },
	{ "free_unref_*",			FSL_CC_MEMORY, 0 },
	{ "__free_pages*",			FSL_CC_MEMORY, 0 },
	{ "__free_frozen_pages*",		FSL_CC_MEMORY, 0 },
	{ "free_frozen_page*",			FSL_CC_MEMORY, 0 },
	{ "mas_*",				FSL_CC_MEMORY, 0 },
	{ "__mmap_region",			FSL_CC_MEMORY, 0 },
	{ "do_mmap",				FSL_CC_MEMORY, 0 },
	{ "free_pages*",			FSL_CC_MEMORY, 0 },
	{ "__memcg_*",				FSL_CC_MEMORY, 0 },
	{ "memcg_*",				FSL_CC_MEMORY, 0 },
	{ "__mem_cgroup_*",			FSL_CC_MEMORY, 0 },
	{ "mem_cgroup_*",			FSL_CC_MEMORY, 0 },
	{ "clear_page*",			FSL_CC_MEMORY, 0 },
	{ "exc_page_fault",			FSL_CC_MEMORY, 0 },
	{ "handle_mm_fault",			FSL_CC_MEMORY, 0 },
	{ "__handle_mm_fault",			FSL_CC_MEMORY, 0 },
	{ "do_user_addr_fault",			FSL_CC_MEMORY, 0 },
	{ "do_anonymous_page",			FSL_CC_MEMORY, 0 },
	{ "do_fault",				FSL_CC_MEMORY, 0 },
	{ "do_wp_page",				FSL_CC_MEMORY, 0 },
	{ "shrink_*",				FSL_CC_MEMORY, 0 },
	{ "zap_*",				FSL_CC_MEMORY, 0 },
	{ "unmap_*",				FSL_CC_MEMORY, 0 },
	{ "vma_*",				FSL_CC_MEMORY, 0 },
	/* processes */
	{ "copy_process",			FSL_CC_PROCESS, 0 },
	{ "dup_mm*",				FSL_CC_PROCESS, 0 },
	{ "copy_page_range",			FSL_CC_PROCESS, 0 },
	{ "do_execveat_common*",		FSL_CC_PROCESS, 0 },
	{ "bprm_execve",			FSL_CC_PROCESS, 0 },
	{ "load_elf_binary",			FSL_CC_PROCESS, 0 },
	{ "begin_new_exec",			FSL_CC_PROCESS, 0 },
	{ "exec_binprm",			FSL_CC_PROCESS, 0 },
	{ "copy_strings*",			FSL_CC_PROCESS, 0 },
	{ "exit_mmap",				FSL_CC_PROCESS, 0 },
	{ "__mmput",				FSL_CC_PROCESS, 0 },
	{ "do_exit",				FSL_CC_PROCESS, 0 },
	{ "do_group_exit",			FSL_CC_PROCESS, 0 },
	{ "release_task",			FSL_CC_PROCESS, 0 },
	{ "schedule_tail",			FSL_CC_PROCESS, 0 },
	/* the scheduler */
	{ "__schedule",				FSL_CC_SCHED, 0 },
	{ "finish_task_switch*",		FSL_CC_SCHED, 0 },
	{ "__switch_to*",			FSL_CC_SCHED, 0 },
	{ "pick_next_*",			FSL_CC_SCHED, 0 },
	{ "enqueue_*",				FSL_CC_SCHED, 0 },
	{ "dequeue_*",				FSL_CC_SCHED, 0 },
	{ "update_curr",			FSL_CC_SCHED, 0 },
	{ "try_to_wake_up",			FSL_CC_SCHED, 0 },
	{ "schedule_idle",			FSL_CC_SCHED, 0 },
	/* interrupts */
	{ "__do_softirq",			FSL_CC_IRQ, 0 },
	{ "handle_softirqs",			FSL_CC_IRQ, 0 },
	{ "irq_exit*",				FSL_CC_IRQ, 0 },
	{ "__irq_exit_rcu",			FSL_CC_IRQ, 0 },
	{ "common_interrupt",			FSL_CC_IRQ, 0 },
	{ "asm_common_interrupt",		FSL_CC_IRQ, 0 },
	{ "sysvec_*",				FSL_CC_IRQ, 0 },
	{ "__sysvec_*",				FSL_CC_IRQ, 0 },
	{ "asm_sysvec_*",			FSL_CC_IRQ, 0 },
	{ "handle_irq_event*",			FSL_CC_IRQ, 0 },
	{ "net_rx_action",			FSL_CC_IRQ, 0 },
	{ "rcu_core*",				FSL_CC_IRQ, 0 },
	{ "run_timer_softirq",			FSL_CC_IRQ, 0 },
	/* the rest of each filesystem's code, only where nothing outer is named */
	{ "ext4*",				FSL_CC_EXT4_OTHER, 1 },
	{ "__ext4*",				FSL_CC_EXT4_OTHER, 1 },
	{ "xfs*",				FSL_CC_XFS, 1 },
	{ "__xfs*",				FSL_CC_XFS, 1 },
};

static const struct {
	const char *id, *label;
} cc_names[FSL_CC__MAX] = {
	[FSL_CC_DIRENT_SCAN]	= { "cpu_dirent_scan", "CPU: directory entry scan" },
	[FSL_CC_HTREE]		= { "cpu_htree", "CPU: htree index (hash, probe, split)" },
	[FSL_CC_CHECKSUM]	= { "cpu_checksum", "CPU: metadata checksums" },
	[FSL_CC_MBALLOC]	= { "cpu_block_alloc", "CPU: block allocator" },
	[FSL_CC_IALLOC]		= { "cpu_ialloc", "CPU: inode allocator" },
	[FSL_CC_EXTENT]		= { "cpu_extent", "CPU: extent tree and mapping" },
	[FSL_CC_JOURNAL]	= { "cpu_journal", "CPU: journal bookkeeping" },
	[FSL_CC_INODE]		= { "cpu_inode", "CPU: inode updates and inode cache" },
	[FSL_CC_PAGE_COPY]	= { "cpu_page_copy", "CPU: page-cache copy to/from user" },
	[FSL_CC_PAGE_CACHE]	= { "cpu_page_cache", "CPU: page and buffer cache" },
	[FSL_CC_WRITEBACK]	= { "cpu_writeback", "CPU: writeback (dirty pages to I/O)" },
	[FSL_CC_BLOCK]		= { "cpu_block", "CPU: block layer and driver" },
	[FSL_CC_PATH_LOOKUP]	= { "cpu_path_lookup", "CPU: path walk and dentry cache" },
	[FSL_CC_XFS]		= { "cpu_xfs", "CPU: other XFS code" },
	[FSL_CC_EXT4_OTHER]	= { "cpu_ext4", "CPU: other ext4 code" },
	[FSL_CC_LOCK_SPIN]	= { "cpu_lock_spin", "CPU: spinning on contended locks" },
	[FSL_CC_MEMORY]		= { "cpu_memory", "CPU: memory allocation and faults" },
	[FSL_CC_PROCESS]	= { "cpu_process", "CPU: fork, exec, exit" },
	[FSL_CC_SCHED]		= { "cpu_sched", "CPU: scheduler and context switches" },
	[FSL_CC_IRQ]		= { "cpu_irq", "CPU: interrupts and softirqs" },
	[FSL_CC_KERNEL_OTHER]	= { "cpu_kernel_other", "CPU: other kernel code" },
	[FSL_CC_USER]		= { "cpu_user", "CPU: user space" },
	[FSL_CC_RECORDER]	= { "cpu_recorder", "CPU: the recorder's own probes" },
};

const char *fsl_cclass_id(unsigned int cls)
{
	return cls < FSL_CC__MAX ? cc_names[cls].id : "?";
}

const char *fsl_cclass_label(unsigned int cls)
{
	return cls < FSL_CC__MAX ? cc_names[cls].label : "?";
}

int fsl_cclass_parse(const char *id)
{
	unsigned int i;

	for (i = 0; i < FSL_CC__MAX; i++)
		if (!strcmp(id, cc_names[i].id))
			return i;
	return -EINVAL;
}

static int cc_match(const char *pat, const char *func)
{
	size_t n = strlen(pat);

	if (n > 2 && pat[0] == '*' && pat[n - 1] == '*') {
		char part[64];

		if (n - 2 >= sizeof(part))
			return 0;
		memcpy(part, pat + 1, n - 2);
		part[n - 2] = 0;
		return strstr(func, part) != NULL;
	}
	if (n && pat[n - 1] == '*')
		return !strncmp(pat, func, n - 1);
	return !strcmp(pat, func);
}

unsigned int fsl_cclass_of_frames(const char *const *frames, unsigned int nframes,
				  int *rule_frame)
{
	unsigned int cls = FSL_CC_KERNEL_OTHER, r, i;
	int weak = -1;
	char func[128];

	if (rule_frame)
		*rule_frame = -1;
	for (i = 0; i < nframes; i++) {
		if (!frames[i])
			continue;
		fsl_frame_func(frames[i], func, sizeof(func));
		for (r = 0; r < sizeof(recorder_frames) / sizeof(recorder_frames[0]); r++)
			if (cc_match(recorder_frames[r], func)) {
				if (rule_frame)
					*rule_frame = (int)i;
				return FSL_CC_RECORDER;
			}
	}
	for (i = 0; i < nframes; i++) {
		if (!frames[i])
			continue;
		fsl_frame_func(frames[i], func, sizeof(func));
		for (r = 0; r < sizeof(cc_rules) / sizeof(cc_rules[0]); r++) {
			if (!cc_match(cc_rules[r].func, func))
				continue;
			if (!cc_rules[r].weak) {
				if (rule_frame)
					*rule_frame = (int)i;
				return cc_rules[r].cls;
			}
			if (weak < 0) {
				weak = (int)i;
				cls = cc_rules[r].cls;
			}
			break;
		}
	}
	if (rule_frame)
		*rule_frame = weak;
	return cls;
}

int fsl_cclass_rule(unsigned int idx, const char **func, unsigned int *cls, int *weak)
{
	if (idx >= sizeof(cc_rules) / sizeof(cc_rules[0]))
		return 0;
	*func = cc_rules[idx].func;
	*cls = cc_rules[idx].cls;
	*weak = cc_rules[idx].weak;
	return 1;
}

const char *fsl_cclass_recorder_frame(unsigned int idx)
{
	return idx < sizeof(recorder_frames) / sizeof(recorder_frames[0]) ? recorder_frames[idx] :
									   NULL;
}
