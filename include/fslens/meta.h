/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace metadata as its consumers see it (lib/meta.c): every key the
 * recorder, the importer and the demo write is named here once, and read
 * through typed getters on struct fsl_meta, which is backed by a trace file
 * (fsl_meta_from_reader, lib/session.c), by the live collector (fslens top)
 * or by a test's table, so a consumer works the same on all three.
 *
 * KV values are text; numbers are decimal or 0x-hex. A getter given a
 * missing or malformed value returns the caller's default. Nothing here
 * prints. docs/record.md describes what each key means.
 */
#ifndef FSLENS_META_H
#define FSLENS_META_H

#include <stddef.h>
#include <stdint.h>

struct fsl_stack;
struct fsl_bitmap;
struct fsl_trace_stats;

/* ---- keys: machine and clocks (collector/meta.c) ---- */
#define FSL_KV_HOSTNAME		"host.name"
#define FSL_KV_KERNEL		"host.kernel"		/* uname -r */
#define FSL_KV_KERNEL_VERSION	"host.kernel_version"	/* uname -v */
#define FSL_KV_ARCH		"host.arch"
#define FSL_KV_HZ		"host.hz"
#define FSL_KV_HZ_SOURCE	"host.hz_source"	/* config | config.gz | measured */
#define FSL_KV_NCPUS		"host.ncpus"
#define FSL_KV_NCPUS_CONF	"host.ncpus_conf"
#define FSL_KV_PAGE_SIZE	"host.page_size"
#define FSL_KV_CMDLINE		"host.cmdline"
#define FSL_KV_MEM_KB		"host.mem_kb"
#define FSL_KV_REALTIME_OFFSET	"clock.realtime_offset_ns"	/* REALTIME - MONOTONIC */
#define FSL_KV_BOOTTIME_OFFSET	"clock.boottime_offset_ns"	/* BOOTTIME - MONOTONIC */
#define FSL_KV_CLOCK_SOURCE	"clock.source"

/* ---- keys: the target filesystem and its device ---- */
#define FSL_KV_MOUNT		"target.mount"
#define FSL_KV_DEV		"target.dev"		/* kernel dev_t of the fs, decimal */
#define FSL_KV_DEV_NAME		"target.dev_name"	/* "MAJ:MIN name" */
#define FSL_KV_DISK		"target.disk"		/* kernel dev_t of the disk under it */
#define FSL_KV_DISK_NAME	"target.disk_name"	/* "MAJ:MIN name" */
#define FSL_KV_FSTYPE		"target.fstype"
#define FSL_KV_SOURCE		"target.source"		/* mount source, /dev/loop0 */
#define FSL_KV_OPTIONS		"target.options"	/* mount options, comma list */
#define FSL_KV_MOUNTINFO	"target.mountinfo"	/* the /proc/self/mountinfo line */
#define FSL_KV_COMMIT_INTERVAL_S "target.commit_interval_s"	/* read only: not written today */
#define FSL_KV_QUEUE_PREFIX	"queue."		/* queue.<sysfs attr>: the disk's queue/ */
#define FSL_KV_QUEUE_STAT_PREFIX "queue.stat."		/* queue.stat.<when>: /sys/block/X/stat */
#define FSL_KV_QUEUE_STAT_START	"queue.stat.start"
#define FSL_KV_QUEUE_STAT_END	"queue.stat.end"
#define FSL_KV_QUEUE_STAT_START_NS "queue.stat.start_ns"	/* CLOCK_MONOTONIC just after the read */
#define FSL_KV_QUEUE_STAT_END_NS "queue.stat.end_ns"	/* CLOCK_MONOTONIC just before the read */
#define FSL_KV_LOOP_BACKING	"queue.loop_backing_file"
#define FSL_KV_LOOP_DIO		"queue.loop_dio"

/* ---- keys: the recording (collector/record.c) ---- */
#define FSL_KV_MIN_WAIT_US	"record.min_wait_us"
#define FSL_KV_CPU_FREQ		"record.cpu_freq"	/* cpu family: samples/s per CPU */
#define FSL_KV_PROBE_MODE	"record.probe_mode"	/* "tracepoint" | "tracepoint+fentry" */
#define FSL_KV_MISSING_TP	"record.missing"	/* comma list of tracepoints absent */
#define FSL_KV_COMMAND		"record.command"
#define FSL_KV_ROOT_PID		"record.root_pid"
#define FSL_KV_PID		"record.pid"		/* -p PID[,PID...] */
#define FSL_KV_TIDS		"record.tids"		/* --tid TID[,TID...] */
#define FSL_KV_CGROUP		"record.cgroup"		/* --cgroup PATH (cgroup v2) */
#define FSL_KV_START_NS		"record.start_ns"	/* CLOCK_MONOTONIC at start */
#define FSL_KV_END_NS		"record.end_ns"
#define FSL_KV_ATTACH		"record.attach"
#define FSL_KV_FENTRY		"record.fentry"
#define FSL_KV_OFFCPU_STATES	"record.offcpu_states"
#define FSL_KV_FAMILIES		"record.families"
/* "default" (the events only replay reads left out), or "full" (--full) */
#define FSL_KV_TIER		"record.tier"
#define FSL_KV_RING_BYTES	"record.ring_bytes"
#define FSL_KV_LATE		"record.late"
#define FSL_KV_REORDER_FORCED	"record.reorder_forced"
/* lost events by cause (include/fslens/loss.h) and the advice record gave */
#define FSL_KV_LOST_BEHIND	"record.lost_behind"
#define FSL_KV_LOST_BURST	"record.lost_burst"
#define FSL_KV_LOSS_ADVICE	"record.loss_advice"
#define FSL_KV_PROC_NAMED_LATE	"record.proc_named_late"
#define FSL_KV_PROC_UNNAMED	"record.proc_unnamed"

/* ---- keys: imported traces (cli/cmd_import.c) ---- */
#define FSL_KV_IMPORT_SOURCE	"import.source"		/* "blktrace" */
#define FSL_KV_IMPORT_SECTIONS	"import.sections"
#define FSL_KV_IMPORT_NOTE	"import.note"
#define FSL_KV_IMPORT_DEVICES	"import.devices"
#define FSL_KV_IMPORT_BYTE_ORDER "import.byte_order"
#define FSL_KV_IMPORT_SKIPPED	"import.skipped_actions"

/* ---- keys: XFS geometry, XFS_IOC_FSGEOMETRY on the mount (collector/xfsmeta.c) ---- */
#define FSL_KV_XFS_BLOCK_SIZE		"xfs.block_size"	/* bytes */
#define FSL_KV_XFS_AG_COUNT		"xfs.ag_count"
#define FSL_KV_XFS_AG_BLOCKS		"xfs.ag_blocks"		/* AG size in blocks */
#define FSL_KV_XFS_AG_BLOCK_LOG		"xfs.ag_block_log"	/* sb_agblklog: ceil(log2(ag_blocks)) */
#define FSL_KV_XFS_DATA_BLOCKS		"xfs.data_blocks"
#define FSL_KV_XFS_SECTOR_SIZE		"xfs.sector_size"
#define FSL_KV_XFS_INODE_SIZE		"xfs.inode_size"
#define FSL_KV_XFS_INODES_PER_BLOCK	"xfs.inodes_per_block"
#define FSL_KV_XFS_INODES_PER_CHUNK	"xfs.inodes_per_chunk"	/* 64: one inode allocation */
#define FSL_KV_XFS_IMAX_PCT		"xfs.imax_pct"
#define FSL_KV_XFS_LOG_BLOCKS		"xfs.log_blocks"
#define FSL_KV_XFS_LOG_START		"xfs.log_start"		/* fsblock; 0 = external log */
#define FSL_KV_XFS_LOG_SUNIT		"xfs.log_sunit"		/* bytes */
#define FSL_KV_XFS_STRIPE_UNIT		"xfs.stripe_unit"	/* blocks */
#define FSL_KV_XFS_STRIPE_WIDTH		"xfs.stripe_width"	/* blocks */
#define FSL_KV_XFS_DIR_BLOCK_SIZE	"xfs.dir_block_size"	/* bytes */
#define FSL_KV_XFS_RT_BLOCKS		"xfs.rt_blocks"
#define FSL_KV_XFS_VERSION		"xfs.geometry_version"
#define FSL_KV_XFS_FLAGS		"xfs.flags"		/* XFS_FSOP_GEOM_FLAGS_*, 0x hex */
#define FSL_KV_XFS_UUID			"xfs.uuid"

/* ---- keys: ext4 superblock and group state (collector/ext4meta.c) ---- */
#define FSL_KV_EXT4_BLOCK_SIZE		"ext4.block_size"
#define FSL_KV_EXT4_CLUSTER_SIZE	"ext4.cluster_size"
#define FSL_KV_EXT4_BLOCKS_COUNT	"ext4.blocks_count"
#define FSL_KV_EXT4_FREE_BLOCKS		"ext4.free_blocks"
#define FSL_KV_EXT4_RESERVED_BLOCKS	"ext4.reserved_blocks"
#define FSL_KV_EXT4_INODES_COUNT	"ext4.inodes_count"
#define FSL_KV_EXT4_FREE_INODES		"ext4.free_inodes"
#define FSL_KV_EXT4_FIRST_DATA_BLOCK	"ext4.first_data_block"
#define FSL_KV_EXT4_BLOCKS_PER_GROUP	"ext4.blocks_per_group"
#define FSL_KV_EXT4_INODES_PER_GROUP	"ext4.inodes_per_group"
#define FSL_KV_EXT4_GROUP_COUNT		"ext4.group_count"
#define FSL_KV_EXT4_INODE_SIZE		"ext4.inode_size"
#define FSL_KV_EXT4_FIRST_INO		"ext4.first_ino"
#define FSL_KV_EXT4_DESC_SIZE		"ext4.desc_size"
#define FSL_KV_EXT4_INODE_BLOCKS_PER_GROUP "ext4.inode_blocks_per_group"
#define FSL_KV_EXT4_RESERVED_GDT	"ext4.reserved_gdt_blocks"
#define FSL_KV_EXT4_LOG_GROUPS_PER_FLEX	"ext4.log_groups_per_flex"
#define FSL_KV_EXT4_FLEX_BG_SIZE	"ext4.flex_bg_size"
#define FSL_KV_EXT4_FEATURE_COMPAT	"ext4.feature_compat"	/* 0x hex */
#define FSL_KV_EXT4_FEATURE_INCOMPAT	"ext4.feature_incompat"
#define FSL_KV_EXT4_FEATURE_RO_COMPAT	"ext4.feature_ro_compat"
#define FSL_KV_EXT4_FEATURES		"ext4.features"		/* names, space separated */
#define FSL_KV_EXT4_UUID		"ext4.uuid"
#define FSL_KV_EXT4_HASH_SEED		"ext4.hash_seed"	/* UUID form */
#define FSL_KV_EXT4_DEF_HASH_VERSION	"ext4.def_hash_version"
#define FSL_KV_EXT4_DEFAULT_MOUNT_OPTS	"ext4.default_mount_opts"
#define FSL_KV_EXT4_MOUNT_OPTS		"ext4.mount_opts"
#define FSL_KV_EXT4_MIN_EXTRA_ISIZE	"ext4.min_extra_isize"
#define FSL_KV_EXT4_RAID_STRIDE		"ext4.raid_stride"
#define FSL_KV_EXT4_RAID_STRIPE_WIDTH	"ext4.raid_stripe_width"
#define FSL_KV_EXT4_JOURNAL_INUM	"ext4.journal_inum"
#define FSL_KV_EXT4_JOURNAL_BYTES	"ext4.journal_bytes"
#define FSL_KV_EXT4_JOURNAL_BLOCKS	"ext4.journal_blocks"
#define FSL_KV_EXT4_JOURNAL_START	"ext4.journal_start"	/* first block, when contiguous */
/* "LBLK:PBLK+LEN,..." when in more than one piece (at most 64 pieces) */
#define FSL_KV_EXT4_JOURNAL_EXTENTS	"ext4.journal_extents"
#define FSL_KV_EXT4_JOURNAL_DEV		"ext4.journal_dev"	/* external journal */
#define FSL_KV_EXT4_USED_DIRS		"ext4.used_dirs"	/* per group, comma list */
#define FSL_KV_EXT4_BLOCK_UNINIT	"ext4.block_uninit"	/* groups, comma list */
/* where each group's block bitmap, inode bitmap and inode table are (comma lists, group 0 first) */
#define FSL_KV_EXT4_GROUP_BLOCK_BITMAP	"ext4.group_block_bitmap"
#define FSL_KV_EXT4_GROUP_INODE_BITMAP	"ext4.group_inode_bitmap"
#define FSL_KV_EXT4_GROUP_INODE_TABLE	"ext4.group_inode_table"
#define FSL_KV_EXT4_MB_LOADED		"ext4.mb_loaded"	/* "all": buddies loaded at start */
#define FSL_KV_EXT4_TUNE_PREFIX		"ext4.tune."		/* /sys/fs/ext4/<dev>/<attr> */
#define FSL_KV_EXT4_TUNE_MB_STREAM_REQ	"ext4.tune.mb_stream_req"
#define FSL_KV_EXT4_TUNE_MB_GROUP_PREALLOC "ext4.tune.mb_group_prealloc"
#define FSL_KV_EXT4_TUNE_MB_ORDER2_REQ	"ext4.tune.mb_order2_req"
#define FSL_KV_EXT4_TUNE_MB_MIN_TO_SCAN	"ext4.tune.mb_min_to_scan"
#define FSL_KV_EXT4_TUNE_MB_MAX_TO_SCAN	"ext4.tune.mb_max_to_scan"
#define FSL_KV_EXT4_TUNE_MB_MAX_INODE_PREALLOC "ext4.tune.mb_max_inode_prealloc"

/* ---- keys: the journal ---- */
#define FSL_KV_JBD2_INFO_START_NS	"jbd2.info.start_ns"	/* when the start text was read */
#define FSL_KV_JBD2_INFO_END_NS		"jbd2.info.end_ns"
#define FSL_KV_JBD2_MAX_TXN_BUFFERS	"jbd2.max_transaction_buffers"	/* read only: not written today */

/* ---- named text sections (FSL_META_TEXT) ---- */
#define FSL_TEXT_JBD2_INFO_PREFIX	"jbd2.info."		/* + "start" | "end" */
#define FSL_TEXT_JBD2_INFO_START	"jbd2.info.start"	/* /proc/fs/jbd2/<dev>/info */
#define FSL_TEXT_JBD2_INFO_END		"jbd2.info.end"
/*
 * GETFSMAP at the start and the end (collector/xfsmeta.c): "# ..." comment
 * lines, then "DEVICE PHYSICAL LENGTH OWNER FLAGS" (bytes; OWNER 0x-hex for
 * a special owner, FMR_OF_* flags) for every special owner's record, then
 * "files COUNT BYTES" (file data summed), maybe "truncated N".
 */
#define FSL_TEXT_FSMAP_PREFIX		"fsmap."
#define FSL_TEXT_FSMAP_START		"fsmap.start"
#define FSL_TEXT_FSMAP_END		"fsmap.end"
/* XFS inode chunks in use: "STARTINO 0xALLOCMASK" lines (XFS_IOC_FSINUMBERS). */
#define FSL_TEXT_XFS_INUMBERS_PREFIX	"xfs.inumbers."
#define FSL_TEXT_XFS_INUMBERS_START	"xfs.inumbers.start"
#define FSL_TEXT_XFS_INUMBERS_END	"xfs.inumbers.end"
/*
 * Directory blocks at the start: lines "D START LEN" (directory blocks) and
 * "E START LEN" (their extent-tree blocks), so writes of directories made
 * before the recording are classed (analyzer/blockclass.c).
 */
#define FSL_TEXT_EXT4_DIR_BLOCKS	"ext4.dir_blocks.start"
/*
 * Indexed directories at the end: lines "INO BLOCKS LEVELS INDEX_BLOCKS
 * PATH": blocks in all, htree levels below the root (dx_root's
 * indirect_levels + 1), index blocks (the root and the interior nodes).
 */
#define FSL_TEXT_EXT4_HTREE		"ext4.htree.end"

/* Metadata as consumers see it: file-backed, live, or a test's table. */
struct fsl_meta {
	void *priv;
	const char *(*kv)(const struct fsl_meta *m, const char *key);
	const struct fsl_stack *(*stack)(const struct fsl_meta *m, int32_t id);
	const char *(*sym)(const struct fsl_meta *m, uint64_t addr);
	const struct fsl_bitmap *(*bitmap)(const struct fsl_meta *m, unsigned int kind,
					   unsigned int when);
	const struct fsl_trace_stats *(*stats)(const struct fsl_meta *m);
	/* A named text section (not NUL-terminated necessarily: use *len). */
	const char *(*text)(const struct fsl_meta *m, const char *name, size_t *len);
};

/* The raw value of key, NULL if absent (m or its kv may be NULL). */
const char *fsl_meta__str(const struct fsl_meta *m, const char *key);
/* 0 and *out, -ENOENT (absent or empty) or -EINVAL (not a whole number). */
int fsl_meta__get_u64(const struct fsl_meta *m, const char *key, uint64_t *out);
/* The number under key, dflt if absent or malformed. */
uint64_t fsl_meta__u64(const struct fsl_meta *m, const char *key, uint64_t dflt);
/* A named text section and its length, NULL if absent. */
const char *fsl_meta__text(const struct fsl_meta *m, const char *name, size_t *len);

static inline const char *fsl_meta_kv(const struct fsl_meta *m, const char *key)
{
	return fsl_meta__str(m, key);
}

/* Parse a UUID-form hash seed (32 hex digits, dashes anywhere) into s_hash_seed words. */
int fsl_hash_seed_parse(const char *s, uint32_t seed[4]);

/*
 * The ext4 geometry the trace recorded, parsed once. Fields whose key is
 * absent are 0, except flex_bg_size (groups per flex group, from
 * ext4.flex_bg_size or 1 << ext4.log_groups_per_flex; 1 when neither is
 * there). Returns 0 when block_size, blocks_count, blocks_per_group and
 * inodes_per_group are all present, else -ENOENT (g still filled).
 */
struct fsl_ext4_geometry {
	uint32_t block_size;		/* bytes */
	uint32_t cluster_size;
	uint64_t blocks_count;
	uint64_t inodes_count;
	uint32_t blocks_per_group;
	uint32_t inodes_per_group;
	uint32_t group_count;
	uint32_t first_data_block;	/* 1 on 1 KiB-block filesystems */
	uint32_t inode_size;
	uint32_t first_ino;		/* first non-reserved inode */
	uint32_t flex_bg_size;
	uint32_t desc_size;
	uint32_t inode_blocks_per_group;
	uint32_t reserved_gdt_blocks;
	uint32_t feature_compat, feature_incompat, feature_ro_compat;
	const char *features;		/* names (valid while m is), NULL if absent */
	uint64_t journal_blocks;	/* 0: no internal journal recorded */
	uint64_t journal_start;		/* its first block when in one piece, else 0 */
	uint64_t journal_bytes;
	uint32_t hash_seed[4];
	int has_hash_seed;
};
int fsl_meta__ext4_geometry(const struct fsl_meta *m, struct fsl_ext4_geometry *g);
/* An indexed directory at the end of the recording (FSL_TEXT_EXT4_HTREE). */
struct fsl_htree_dir {
	uint64_t ino, blocks;
	uint32_t levels;		/* index levels (dx_root's indirect_levels + 1) */
	uint32_t index_blocks;		/* the root and the interior index blocks */
	char path[128];			/* from the filesystem root ("?" unknown) */
};
/* Up to max of them, largest first; the count (0 when the trace has none). */
unsigned int fsl_meta__ext4_htree(const struct fsl_meta *m, struct fsl_htree_dir *out,
				  unsigned int max);

/*
 * The group tables' locations (ext4.group_*): n entries each into bb, ib,
 * it. 0, or -ENOENT when the trace has none or not n of each.
 */
int fsl_meta__ext4_group_tables(const struct fsl_meta *m, uint32_t n, uint64_t *bb, uint64_t *ib,
				uint64_t *it);

/* The xfs.* geometry keys, typed. 0, or -ENOENT when the trace has none. */
struct fsl_xfs_geometry {
	uint32_t block_size;		/* bytes */
	uint32_t ag_count;
	uint32_t ag_blocks;
	uint32_t ag_block_log;		/* AG number shift in fsblocks (and agino bits + inopblog in inodes) */
	uint64_t data_blocks;
	uint32_t inode_size;
	uint32_t inodes_per_block;
	uint32_t inodes_per_chunk;
	uint32_t log_blocks;
	uint64_t log_start;
	uint32_t stripe_unit, stripe_width;	/* blocks */
};
int fsl_meta__xfs_geometry(const struct fsl_meta *m, struct fsl_xfs_geometry *g);

/*
 * /sys/block/<disk>/stat (Documentation/block/stat.rst), as the recorder
 * stored it at the start or the end (FSL_KV_QUEUE_STAT_START/END). Counters
 * by the kernel's stat group: I/Os completed, merges, sectors, ms spent;
 * flush has I/Os and ms only. Older kernels print 11 or 15 fields: the rest
 * stay 0 and nfields says how many there were.
 */
enum fsl_stat_group {
	FSL_SG_READ = 0,
	FSL_SG_WRITE,
	FSL_SG_DISCARD,
	FSL_SG_FLUSH,
	FSL_SG__MAX,
};

struct fsl_disk_stat {
	uint64_t ios[FSL_SG__MAX];
	uint64_t merges[FSL_SG__MAX];
	uint64_t sectors[FSL_SG__MAX];
	uint64_t ticks_ms[FSL_SG__MAX];
	uint64_t in_flight, io_ticks_ms, time_in_queue_ms;
	unsigned int nfields;
	uint64_t ts;		/* when it was read (CLOCK_MONOTONIC), 0 unknown */
};

/* Parse one stat line. 0, or -EINVAL when it has fewer than 11 numbers. */
int fsl_disk_stat_parse(const char *line, struct fsl_disk_stat *o);
/* The stored stat of when (0 start, 1 end). 0, -ENOENT or -EINVAL. */
int fsl_meta__disk_stat(const struct fsl_meta *m, int end, struct fsl_disk_stat *o);

/*
 * /proc/fs/jbd2/<dev>/info as recorded at the start or the end
 * (FSL_TEXT_JBD2_INFO_START/END), parsed.
 */
enum fsl_jbd2_when { FSL_JBD2_START = 0, FSL_JBD2_END = 1 };

struct fsl_jbd2_info {
	int valid;
	uint64_t transactions, requested, max_blocks;
	uint64_t wait_ms, request_delay_ms, running_ms, locked_ms, flushing_ms, logging_ms;
	uint64_t avg_commit_us;		/* the kernel's running average (3/4 old + 1/4 new) */
	uint64_t handles, blocks, logged_blocks;	/* per transaction */
};

/* Parse the text of /proc/fs/jbd2/<dev>/info (len bytes). 0 or -EINVAL (o zeroed). */
int fsl_jbd2_info_parse(const char *text, size_t len, struct fsl_jbd2_info *o);
/* The recorded info of when, parsed: 0, -ENOENT (not recorded) or -EINVAL. */
int fsl_meta__jbd2_info(const struct fsl_meta *m, enum fsl_jbd2_when when,
			struct fsl_jbd2_info *o);

/*
 * The mount point the trace recorded, if absolute, with trailing slashes
 * not counted in *len (NULL if absent or relative).
 */
const char *fsl_meta__mount(const struct fsl_meta *m, size_t *len);
/*
 * Is mount option opt set (in target.options, else the mountinfo line)?
 * Returns the text just past its name ("=value,...", ",next..." or ""),
 * NULL if unset.
 */
const char *fsl_meta__mount_opt(const struct fsl_meta *m, const char *opt);
/*
 * The kernel name ("sda", "loop0") the trace recorded for device dev
 * (target.disk_name, then target.dev_name), copied into buf; NULL if none.
 */
const char *fsl_meta__dev_name(const struct fsl_meta *m, uint32_t dev, char *buf, size_t len);
/*
 * The other way: a device given as MAJ:MIN (or blkparse's MAJ,MIN), or as a
 * kernel name the trace recorded ("loop0", "/dev/loop0"), into *dev.
 * -ENOENT: neither.
 */
int fsl_meta__dev_parse(const struct fsl_meta *m, const char *s, uint32_t *dev);

/*
 * An in-memory metadata store for sources that are not a file (live top,
 * tests): key-values and named texts, set with fsl_meta_store__kv/__text,
 * seen through fsl_meta_store__view (stack, sym, bitmap, stats stay NULL
 * for the owner to fill).
 */
struct fsl_meta_store {
	struct fsl_meta_store_item *items;
	size_t n, cap;
};
struct fsl_meta_store_item {
	char *name;
	char *value;
	size_t len;
	int is_text;
};
void fsl_meta_store__init(struct fsl_meta_store *s);
void fsl_meta_store__fini(struct fsl_meta_store *s);
/* Set (or replace) a key's value / a text's bytes. 0 or -ENOMEM. */
int fsl_meta_store__kv(struct fsl_meta_store *s, const char *key, const char *value);
int fsl_meta_store__text(struct fsl_meta_store *s, const char *name, const void *data, size_t len);
/* Point m's kv and text at s (m->priv = s; other members untouched). */
void fsl_meta_store__view(struct fsl_meta_store *s, struct fsl_meta *m);
const char *fsl_meta_store__get_kv(const struct fsl_meta_store *s, const char *key);
const char *fsl_meta_store__get_text(const struct fsl_meta_store *s, const char *name,
				     size_t *len);

#endif /* FSLENS_META_H */
