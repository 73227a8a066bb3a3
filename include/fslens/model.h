/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fslens model: plain C, no I/O. An ext4 block allocator (mballoc
 * behaviour), an ext4 inode allocator (Orlov / near-parent / flex_bg, and an
 * XFS-like policy), a jbd2 journal and a disk service-time model. The replay
 * (analyzer/replay.c) feeds them recorded events; docs/model.md describes
 * what each part does and where it departs from the kernel.
 *
 * Units: blocks are filesystem blocks (bigalloc is not modelled: cluster ==
 * block), times are nanoseconds.
 */
#ifndef FSLENS_MODEL_H
#define FSLENS_MODEL_H

#include <stdint.h>
#include <stddef.h>
#include "meta.h"

/* ---- filesystem geometry and tunables (filled from trace KV metadata) ---- */

struct fsl_geom {
	uint64_t blocks_count;
	uint32_t first_data_block;	/* 1 for 1 KiB blocks, else 0 */
	uint32_t block_size;		/* bytes */
	uint32_t blocks_per_group;
	uint32_t ngroups;
	uint32_t inodes_per_group;
	uint32_t inode_size;
	uint32_t first_ino;		/* first non-reserved inode (11) */
	uint32_t flex_size;		/* groups per flex_bg (1 = no flex_bg) */
	uint32_t root_ino;		/* 2 */
	uint64_t journal_blocks;	/* journal size in fs blocks (0 = no journal) */
	uint32_t hash_seed[4];		/* s_hash_seed */
	int has_hash_seed;
	int delalloc;			/* mount option */
	int data_writeback;		/* data=writeback (frees reusable at once) */
};

struct fsl_tunables {
	uint32_t mb_stream_req;		/* 16 */
	uint32_t mb_group_prealloc;	/* 512 */
	uint32_t mb_order2_req;		/* 2 */
	uint32_t mb_min_to_scan;	/* 10 */
	uint32_t mb_max_to_scan;	/* 200 */
	uint32_t mb_max_inode_prealloc;	/* 512 */
	uint64_t commit_ns;		/* commit interval, 5 s */
	uint64_t max_batch_ns;		/* jbd2 batching of sync commits (unused = 0) */
};

void fsl_geom_defaults(struct fsl_geom *g);
void fsl_tunables_defaults(struct fsl_tunables *t);
/* Derive missing fields (ngroups, first_data_block...). 0 or -EINVAL. */
int fsl_geom_finish(struct fsl_geom *g);
/*
 * After fsl_geom_finish: do the values agree with each other (group count,
 * bitmap sizes, inode size)? 0, or -EINVAL and why names the key (one line).
 * The models index their arrays by these values: call it before them.
 */
int fsl_geom_check(const struct fsl_geom *g, char *why, size_t len);

/* ---- block allocator ---- */

/* EXT4_MB_* allocation hint flags as the tracepoints report them. */
#define FSL_MB_HINT_MERGE	0x0001
#define FSL_MB_HINT_RESERVED	0x0002
#define FSL_MB_HINT_METADATA	0x0004
#define FSL_MB_HINT_FIRST	0x0008
#define FSL_MB_HINT_BEST	0x0010
#define FSL_MB_HINT_DATA	0x0020
#define FSL_MB_HINT_NOPREALLOC	0x0040
#define FSL_MB_HINT_GROUP_ALLOC	0x0080
#define FSL_MB_HINT_GOAL_ONLY	0x0100
#define FSL_MB_HINT_TRY_GOAL	0x0200
#define FSL_MB_DELALLOC_RESERVED 0x0400
#define FSL_MB_STREAM_ALLOC	0x0800

/* How a decision was reached (the "path"), for fidelity by path. */
enum fsl_alloc_path {
	FSL_PATH_INODE_PA = 0,	/* used an inode preallocation */
	FSL_PATH_GROUP_PA,	/* used a locality-group preallocation */
	FSL_PATH_GOAL,		/* find-by-goal hit */
	FSL_PATH_CR0,		/* CR_POWER2_ALIGNED (old cr 0) */
	FSL_PATH_CR1,		/* CR_GOAL_LEN_FAST (old cr 1) */
	FSL_PATH_CR1_5,		/* CR_BEST_AVAIL_LEN (6.x only) */
	FSL_PATH_CR2,		/* CR_GOAL_LEN_SLOW (old cr 2) */
	FSL_PATH_CR3,		/* CR_ANY_FREE (old cr 3) */
	FSL_PATH_BEST_FOUND,	/* after all passes, the best extent seen */
	FSL_PATH_FAIL,		/* ENOSPC */
	FSL_PATH__MAX,
};
const char *fsl_alloc_path_name(unsigned int path);	/* "inode_pa", "cr0"... */
const char *fsl_alloc_path_kname(unsigned int path);	/* 6.x name: "CR_POWER2_ALIGNED"... */
/*
 * The path of ext4_mballoc_alloc's cr: kernels from 6.5 number five passes
 * (CR_POWER2_ALIGNED .. CR_ANY_FREE), older ones four (0..3, no BEST_AVAIL).
 * -1 if out of range. new_names from fsl_kernel_new_cr_names(uname -r).
 */
int fsl_alloc_cr_path(unsigned int cr, int new_names);
int fsl_kernel_new_cr_names(const char *release);	/* 1 if NULL or unparsable */

/* One block request, as ext4_request_blocks reports it. */
struct fsl_alloc_req {
	uint64_t ino;
	uint32_t logical;
	uint32_t len;
	uint64_t goal;		/* 0 = let the model compute it */
	uint32_t flags;		/* FSL_MB_* from the caller */
	uint32_t lleft, lright;
	uint64_t pleft, pright;	/* 0 = no neighbour */
	uint32_t cpu;		/* locality group (per-CPU) */
	uint32_t pid;		/* for the nodelalloc goal colour */
	int is_reg;		/* regular file (else directory/other) */
	int closed;		/* trace says not open for write and fs not busy (-1 = unknown) */
	uint64_t isize_blocks;	/* known i_size in blocks (0 = unknown) */
};

struct fsl_alloc_res {
	uint64_t pblk;		/* first block, 0 on failure */
	uint32_t len;
	uint32_t path;		/* enum fsl_alloc_path */
	uint32_t flags;		/* ac_flags after group_or_file/normalize */
	uint64_t goal;		/* goal block the model used */
	uint32_t g_len;		/* normalized length */
	uint32_t g_logical;
	uint32_t groups_scanned;
	/* preallocation the decision creates (len 0 = none) */
	uint64_t pa_pstart;
	uint32_t pa_lstart, pa_len;
	int pa_group;		/* 1 = locality group PA */
	int consume_pa;		/* apply: the blocks come out of an existing PA */
};

struct fsl_alloc;

struct fsl_alloc *fsl_alloc__new(const struct fsl_geom *g, const struct fsl_tunables *t,
				 int *err);
void fsl_alloc__free(struct fsl_alloc *a);
/* Deep copy (free-run from a saved state). */
struct fsl_alloc *fsl_alloc__clone(const struct fsl_alloc *a);

/* Start state: mark [blk, blk+len) used on disk (metadata, existing files). */
void fsl_alloc__mark_used(struct fsl_alloc *a, uint64_t blk, uint64_t len);
void fsl_alloc__mark_free(struct fsl_alloc *a, uint64_t blk, uint64_t len);
int fsl_alloc__test_used(const struct fsl_alloc *a, uint64_t blk);	/* on-disk */
int fsl_alloc__test_incore(const struct fsl_alloc *a, uint64_t blk);	/* disk|PA|pending */
uint64_t fsl_alloc__free_blocks(const struct fsl_alloc *a, uint32_t group);	/* in core */
uint64_t fsl_alloc__disk_free(const struct fsl_alloc *a, uint32_t group);	/* on disk */

/* Buddy loaded ("initialised") state of a group, an input from the trace. */
void fsl_alloc__set_loaded(struct fsl_alloc *a, uint32_t group, int loaded);
void fsl_alloc__set_block_uninit(struct fsl_alloc *a, uint32_t group, int uninit);
void fsl_alloc__set_tunables(struct fsl_alloc *a, const struct fsl_tunables *t);
/*
 * The stream-allocation goal after a stream allocation of ino found group
 * (and start): s_mb_last_group/start, or with slots s_mb_last_groups[ino % n].
 */
void fsl_alloc__set_stream_goal(struct fsl_alloc *a, uint64_t ino, uint32_t group,
				uint32_t start);
/*
 * Newer kernels keep n stream goals, group only, n = min(possible CPUs,
 * groups / 4 rounded up), and trace a stream request's goal start as -1;
 * 0 (the default) is the one global goal with its start. Resets the goals.
 */
#define FSL_ALLOC_MAX_SLOTS 1024
void fsl_alloc__set_stream_slots(struct fsl_alloc *a, uint32_t n);
uint32_t fsl_alloc_stream_slots(uint32_t possible_cpus, uint32_t ngroups);

/* The goal ext4_ext_find_goal/ext4_inode_to_goal_block would compute. */
uint64_t fsl_alloc__goal(const struct fsl_alloc *a, const struct fsl_alloc_req *r);

/*
 * Decide a request without changing state (one-step fidelity), or decide
 * and apply it (free run). Return 0, or -ENOSPC (res->path = FSL_PATH_FAIL).
 */
int fsl_alloc__decide(struct fsl_alloc *a, const struct fsl_alloc_req *r,
		      struct fsl_alloc_res *res);
int fsl_alloc__allocate(struct fsl_alloc *a, const struct fsl_alloc_req *r,
			struct fsl_alloc_res *res);

/*
 * Apply a decision someone else made (the kernel's recorded one): the PA
 * it created (res->pa_len), then the blocks [pblk, pblk+len). Blocks inside
 * an existing PA of the inode or of the CPU's locality group are consumed from it.
 */
void fsl_alloc__apply(struct fsl_alloc *a, const struct fsl_alloc_req *r,
		      const struct fsl_alloc_res *res);

/* Preallocations as the kernel reports them (one-step mode follows these). */
void fsl_alloc__pa_new(struct fsl_alloc *a, uint64_t ino, uint32_t cpu, uint64_t pstart,
		       uint32_t lstart, uint32_t len, int group_pa);
/* Release [pstart, pstart+len) of PAs: unused blocks become free in core. */
void fsl_alloc__pa_release(struct fsl_alloc *a, uint64_t ino, uint64_t pstart, uint32_t len,
			   int group_pa);
/* Is pblk inside a live PA of r's inode (1) or of a locality group (2)? 0 = no. */
int fsl_alloc__pa_holds(struct fsl_alloc *a, const struct fsl_alloc_req *r, uint64_t pblk);
/* Free blocks (in core) from blk on, at most max, within its group. */
uint32_t fsl_alloc__free_run(const struct fsl_alloc *a, uint64_t blk, uint32_t max);
/* Discard all PAs of an inode (truncate/close/evict). */
void fsl_alloc__discard_inode_pa(struct fsl_alloc *a, uint64_t ino);
unsigned int fsl_alloc__npa(const struct fsl_alloc *a, uint64_t ino);	/* 0 = group PAs */

/* Free blocks in transaction tid: usable again only after tid commits. */
void fsl_alloc__free_blocks_tid(struct fsl_alloc *a, uint64_t blk, uint64_t len, uint32_t tid);
/* Transaction tid committed: its freed blocks become allocatable. */
void fsl_alloc__commit(struct fsl_alloc *a, uint32_t tid);

/* Per-inode extent map kept by the model (free run uses it for neighbours). */
void fsl_alloc__map(struct fsl_alloc *a, uint64_t ino, uint32_t logical, uint64_t pblk,
		    uint32_t len);
/* Fill lleft/pleft/lright/pright of r from the model's extent map. */
void fsl_alloc__neighbours(const struct fsl_alloc *a, struct fsl_alloc_req *r);
/* Number of extents of ino in the model's map (merged when contiguous). */
unsigned int fsl_alloc__extents(const struct fsl_alloc *a, uint64_t ino);
/* First physical block of ino (0 if none). */
uint64_t fsl_alloc__first_block(const struct fsl_alloc *a, uint64_t ino);
/* Iterate mapped inodes: *cursor = 0 to start; returns 0 past the end. */
int fsl_alloc__inode_next(const struct fsl_alloc *a, size_t *cursor, uint64_t *ino,
			  unsigned int *extents);

/* Pure helpers, exposed for tests. */
/* Normalized [start, start+size) for a request of an inode (no PAs, no neighbours). */
void fsl_alloc_normalize_size(uint32_t block_size, uint32_t logical, uint32_t len,
			      uint64_t isize_blocks, uint32_t *start, uint32_t *size);

/* ---- inode allocator ---- */

enum fsl_ialloc_policy {
	FSL_IALLOC_EXT4 = 0,	/* Orlov for directories, near parent for files */
	FSL_IALLOC_XFS_NEWINO,	/* reuse the newest inode chunk; new chunks near free space */
};
int fsl_ialloc_policy_parse(const char *s, int *policy);
const char *fsl_ialloc_policy_name(int policy);

struct fsl_ialloc;

struct fsl_ialloc *fsl_ialloc__new(const struct fsl_geom *g, int policy, int *err);
void fsl_ialloc__free(struct fsl_ialloc *ia);
struct fsl_ialloc *fsl_ialloc__clone(const struct fsl_ialloc *ia);
void fsl_ialloc__mark_used(struct fsl_ialloc *ia, uint64_t ino, int is_dir);
void fsl_ialloc__mark_free(struct fsl_ialloc *ia, uint64_t ino);
int fsl_ialloc__test_used(const struct fsl_ialloc *ia, uint64_t ino);
/* Free blocks per group (Orlov looks at them): set from the block model. */
void fsl_ialloc__set_free_blocks(struct fsl_ialloc *ia, uint32_t group, uint64_t free);
/* Directories per group at start (bg_used_dirs_count). */
void fsl_ialloc__set_used_dirs(struct fsl_ialloc *ia, uint32_t group, uint32_t ndirs);
void fsl_ialloc__set_topdir(struct fsl_ialloc *ia, uint64_t dir_ino);
void fsl_ialloc__set_policy(struct fsl_ialloc *ia, int policy);
/* For the XFS policy: where data is being allocated now (a block number). */
void fsl_ialloc__set_data_hint(struct fsl_ialloc *ia, uint64_t blk);

struct fsl_ialloc_req {
	uint64_t dir;		/* parent directory inode */
	int is_dir;
	const char *name;	/* last path component, NULL if unknown */
	size_t name_len;
};

struct fsl_ialloc_res {
	uint64_t ino;		/* 0 on failure */
	uint32_t group;
	int how;		/* enum fsl_ialloc_how */
};

enum fsl_ialloc_how {
	FSL_IHOW_PARENT = 0,	/* files: parent's group / flex group */
	FSL_IHOW_LAST_ALLOC,	/* files: parent's last-allocation flex group */
	FSL_IHOW_ORLOV_TOP,	/* directory under root/topdir: spread by name hash */
	FSL_IHOW_ORLOV,		/* directory elsewhere: Orlov from the parent */
	FSL_IHOW_FALLBACK,	/* Orlov fallback: first group with enough free inodes */
	FSL_IHOW_RANDOM,	/* top-level spread without the name: unpredictable */
	FSL_IHOW_XFS,
	FSL_IHOW__MAX,
};
const char *fsl_ialloc_how_name(int how);

int fsl_ialloc__decide(struct fsl_ialloc *ia, const struct fsl_ialloc_req *r,
		       struct fsl_ialloc_res *res);
int fsl_ialloc__allocate(struct fsl_ialloc *ia, const struct fsl_ialloc_req *r,
			 struct fsl_ialloc_res *res);
/* Apply the kernel's recorded allocation. */
void fsl_ialloc__apply(struct fsl_ialloc *ia, uint64_t dir, uint64_t ino, int is_dir);

/* ext4's half-MD4 directory hash (DX_HASH_HALF_MD4) of a name with a seed. */
uint32_t fsl_dirhash_half_md4(const char *name, size_t len, const uint32_t seed[4],
			      int unsigned_chars);
/* fsl_hash_seed_parse (the hash seed as the trace stores it): include/fslens/meta.h. */

/*
 * A directory's blocks after a sequence of inserts (analyzer/model/dirsim.c):
 * ext4's linear block, then its htree (dir_index), leaf splits by hash.
 * csum: metadata_csum (block tails). NULL on a block size below 1024 or ENOMEM.
 */
struct fsl_dir_sim;
struct fsl_dir_sim *fsl_dir_sim__new(uint32_t block_size, int csum);
void fsl_dir_sim__free(struct fsl_dir_sim *d);
/* One new entry: its name's hash and length. 0 or -ENOMEM. */
int fsl_dir_sim__add(struct fsl_dir_sim *d, uint32_t hash, uint32_t name_len);
uint64_t fsl_dir_sim__blocks(const struct fsl_dir_sim *d);

/* ---- journal (jbd2) ---- */

enum fsl_commit_reason {
	FSL_COMMIT_TIMER = 0,	/* commit interval expired */
	FSL_COMMIT_SIZE,	/* transaction reached max size (journal / 4) */
	FSL_COMMIT_FSYNC,
	FSL_COMMIT_SYNC,	/* sync/syncfs */
	FSL_COMMIT_SPACE,	/* log space short: forced to make room */
	FSL_COMMIT_END,		/* end of the trace (not a real trigger) */
	FSL_COMMIT_OTHER,	/* another task's sync or fsync (not the workload's) */
	FSL_COMMIT__MAX,
};
const char *fsl_commit_reason_name(int r);

enum fsl_jwait_class {
	FSL_JWAIT_LOG_SPACE = 0,	/* checkpoint: every handle starter stalls */
	FSL_JWAIT_LOCKED,		/* transaction locked for commit */
	FSL_JWAIT_SHADOW,		/* buffer being written by the commit */
	FSL_JWAIT_COMMIT,		/* fsync/sync waiting for the commit */
	FSL_JWAIT__MAX,
};
const char *fsl_jwait_name(int c);

struct fsl_journal_cfg {
	uint64_t journal_blocks;	/* log size */
	uint32_t block_size;
	uint64_t commit_ns;		/* commit interval */
	uint32_t max_txn_blocks;	/* 0 = journal/3 (6.x; older kernels: /4) */
	/* Device costs (ns) for commit phases; from the disk model. */
	uint64_t write_block_ns;	/* one journal block, sequential */
	uint64_t flush_ns;		/* cache flush + commit block (FUA) */
	uint64_t checkpoint_block_ns;	/* one checkpointed block, written in place */
	uint64_t locked_ns;		/* time to drain running handles */
	/*
	 * jbd2 arms its commit timer at round_jiffies_up(expiry): a whole
	 * second of jiffies. Where those seconds fall in trace time (ns mod
	 * 1 s), learnt from a recorded timer kick; timer_phase_known 0: half
	 * a second after the expiry, the rounding's mean.
	 */
	uint64_t timer_phase_ns;
	int timer_phase_known;
};

struct fsl_journal_commit {
	uint32_t tid;
	int reason;
	uint64_t start_ns, locked_end_ns, flush_end_ns, end_ns;
	uint32_t handles;
	uint32_t blocks;		/* metadata blocks logged */
};

struct fsl_journal_stats {
	uint64_t commits;
	uint64_t commits_by_reason[FSL_COMMIT__MAX];
	uint64_t checkpoints;		/* log-space checkpoints forced */
	uint64_t checkpoint_blocks;
	uint64_t stall_ns[FSL_JWAIT__MAX];
	uint64_t stalls[FSL_JWAIT__MAX];	/* waits counted */
	uint64_t handles;
	uint64_t long_waits;		/* handle waits > 10 ms */
	/* commit phases summed over all commits, in ms: locked, flush, log */
	double phase_ms[3];
	uint64_t phased;		/* commits in phase_ms */
};

struct fsl_journal;

struct fsl_journal *fsl_journal__new(const struct fsl_journal_cfg *cfg, uint32_t first_tid,
				     int *err);
void fsl_journal__free(struct fsl_journal *j);

#define FSL_JOURNAL_UNKNOWN 0xffffffffu
/*
 * A handle starts at ts asking for credits blocks and will dirty dirtied
 * new blocks (FSL_JOURNAL_UNKNOWN = credits/2); key identifies a metadata buffer it modifies (an
 * inode-table block, 0 = none) for shadow waits. Returns the tid the model
 * put it in and *wait_ns the stall before it could start.
 */
uint32_t fsl_journal__handle(struct fsl_journal *j, uint64_t ts, uint32_t credits,
			     uint32_t dirtied, uint64_t key, uint64_t *wait_ns,
			     int *wait_class);
/*
 * The same, for a handle that also reserves rsv credits for a later handle
 * (ext4's writeback reserves the unwritten-extent conversion at end of I/O:
 * jbd2__journal_start's rsv_blocks). Reserved credits count in every
 * running transaction's size until the reserved handle starts.
 */
uint32_t fsl_journal__handle_rsv(struct fsl_journal *j, uint64_t ts, uint32_t credits,
				 uint32_t rsv, uint32_t dirtied, uint64_t key, uint64_t *wait_ns,
				 int *wait_class);
/*
 * A reserved handle starts (jbd2_journal_start_reserved): its credits
 * leave the reservation and it joins the running transaction, with no wait
 * for size or log space (they were counted when reserved).
 */
uint32_t fsl_journal__reserved_start(struct fsl_journal *j, uint64_t ts, uint32_t credits,
				     uint32_t dirtied);
/* fsync/sync at ts: force a commit of the running transaction. */
void fsl_journal__force(struct fsl_journal *j, uint64_t ts, int reason, uint64_t *wait_ns);
/* Advance time: fire timers, finish commits. */
void fsl_journal__advance(struct fsl_journal *j, uint64_t ts);
void fsl_journal__finish(struct fsl_journal *j, uint64_t ts);
uint32_t fsl_journal__running_tid(const struct fsl_journal *j);
const struct fsl_journal_stats *fsl_journal__stats(const struct fsl_journal *j);
/* The first FSL_JOURNAL_KEEP_COMMITS commits are kept, in order (the stats count all). */
#define FSL_JOURNAL_KEEP_COMMITS 4096
size_t fsl_journal__ncommits(const struct fsl_journal *j);
const struct fsl_journal_commit *fsl_journal__commit_at(const struct fsl_journal *j, size_t i);

/* ---- disk ---- */

struct fsl_disk_profile {
	const char *name;
	int rotational;
	uint32_t rpm;
	double track_to_track_ms;
	double avg_seek_ms;
	double full_seek_ms;
	double transfer_mbs;		/* sustained media rate, MB/s (10^6) */
	uint64_t capacity_bytes;
	uint32_t track_kib;		/* bytes per track (read-ahead segment) */
	uint32_t cache_kib;		/* track buffer */
	double cmd_overhead_ms;		/* per request controller overhead */
	double ssd_read_us, ssd_write_us;	/* SSD access latency */
	const char *source;		/* where the figures come from */
};

const struct fsl_disk_profile *fsl_disk_profile_find(const char *name);
/* NULL-terminated list of presets. */
const struct fsl_disk_profile *const *fsl_disk_profiles(void);

struct fsl_disk;
struct fsl_disk *fsl_disk__new(const struct fsl_disk_profile *p);
void fsl_disk__free(struct fsl_disk *d);
/* Service time of one request (queue depth 1, in issue order). */
uint64_t fsl_disk__service(struct fsl_disk *d, uint64_t sector, uint32_t bytes, int write);
/* Seek time for a distance in bytes (0 = no seek). */
double fsl_disk_seek_ms(const struct fsl_disk_profile *p, uint64_t dist_bytes);

struct fsl_disk_stats {
	uint64_t requests;
	uint64_t seeks;			/* requests not contiguous with the previous */
	uint64_t busy_ns;
	uint64_t seek_ns, rot_ns, xfer_ns;
	uint64_t buffer_hits;
	uint64_t bytes;
};
const struct fsl_disk_stats *fsl_disk__stats(const struct fsl_disk *d);

#endif /* FSLENS_MODEL_H */
