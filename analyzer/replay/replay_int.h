/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to analyzer/replay/: the replay's state, shared by its parts.
 *   replay.c   the core: options, metadata and start state, the consumer, end
 *   block.c    block allocation (one-step check, free run) and the recorded device
 *   inode.c    inode allocation and directory entries
 *   journal.c  journal inputs and the journal models run at the end
 *   output.c   text and JSON
 */
#ifndef FSL_REPLAY_INT_H
#define FSL_REPLAY_INT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/analysis.h"
#include "fslens/event.h"
#include "fslens/hashmap.h"
#include "fslens/replay.h"

#define MS 1000000ull
#define LONG_WAIT_NS (10 * MS)
#define NSCEN 2
#define NOTE_MAX 16

/* ---- per-thread state ---- */

struct pa_ev {
	uint16_t type;
	uint64_t ino, pstart;
	uint32_t lstart, len, cpu;
};

struct thr {
	uint32_t tid;
	int has_req;
	struct fsl_alloc_req req;
	uint64_t req_goal_k;
	uint64_t req_im;		/* imeta of req.ino when the request came */
	int has_mb, mb_prealloc;
	struct fsl_ev_ext4_mballoc_alloc mb;
	struct pa_ev pa[16];
	int npa;
	int has_ireq;
	uint64_t idir;
	int has_js;
	uint64_t js_ts, js_ino;
	int js_type;
	uint32_t js_rsv;
	uint32_t last_htid;
	int64_t last_hidx;
	char path[FSL_DIROP_PATH_MAX];
	uint16_t path_len;
	uint64_t path_ts, path_end;
	int path_op;
};

/* one journal input, replayed through the journal models at the end */
struct jin {
	uint64_t ts;
	uint64_t key;
	uint64_t rec_wait;
	uint32_t thread;
	uint32_t ktid;
	uint32_t credits;
	uint32_t dirtied;
	uint32_t rsv;		/* credits it reserved for a later handle (rsv_blocks) */
	/*
	 * 0 handle, 1 fsync, 2 the workload's sync asking for a commit (its
	 * jbd2_kick), 3 another task's sync, 4 a sync(2)/syncfs call: its
	 * commit is asked for after its writeback, by the end (rec_wait) at the
	 * latest when no kick of it was recorded
	 */
	uint8_t kind;
	uint8_t reserved;	/* the start of a handle reserved earlier (no credit wait) */
	uint8_t type;
	uint8_t reader;		/* an inode-dirtying handle from a reading task (atime) */
	uint8_t has_wait;
	uint8_t has_stats;
};

struct rcommit {
	uint32_t tid;
	uint8_t sync;
	uint8_t by_other;	/* another task's sync asked for it */
	uint8_t have_stats;
	uint64_t start, locking, flushing, logging, end;
	uint32_t blocks, blocks_logged;
	uint64_t running_j;
};

/*
 * The recorded commits, summed as they leave the ring of the last RC_KEEP
 * (events name only the last 17 transactions, see rc_find).
 */
#define RC_KEEP 32
struct rc_sum {
	uint64_t lg, lb, lk, nk;	/* logging ns, blocks logged; locked ns, commits */
	uint64_t recorded, by_reason[FSL_COMMIT__MAX];
	uint64_t by_others;		/* of recorded: asked for by another task's sync */
	double ph[3];			/* phases in ms: flush, log, end */
	uint64_t nph;
	size_t folded;			/* commits summed, in order */
};

struct scen {
	int active;
	struct fsl_geom g;
	struct fsl_tunables t;
	struct fsl_alloc *fr;
	struct fsl_ialloc *fia;
	struct fsl_map ino_map;		/* kernel ino -> model ino */
	struct fsl_journal *j;
	struct fsl_journal_cfg jc;
	struct fsl_disk *disk;
	const struct fsl_disk_profile *prof;
	int delalloc, noatime;
	uint32_t dir_bs;
	uint64_t alloc_fail;
	uint64_t idist_sum, idist_n;	/* inode-to-data distance, in groups */
	uint64_t dir_blocks;
	/*
	 * Why a model behind this scenario's figures did not run (empty when
	 * it did): its figures are then not printed, the reason is.
	 */
	char jskip[160];
};

/* The entries a directory got in the trace, in order: their hash and name length. */
struct dirent_acc {
	uint64_t h;
	uint64_t n, bytes;
	uint32_t *hash;
	uint8_t *len;
	uint32_t cap;
};

struct fsl_replay {
	struct fsl_consumer cons;
	struct fsl_replay_opts o;
	struct fsl_replay_result res;
	struct fsl_replay_journal jr;
	char *notes[NOTE_MAX];
	size_t nnotes;
	int have_geom, new_cr_names;
	uint32_t possible_cpus;		/* sysconf's configured CPUs, for the stream slots */
	uint32_t stream_slots;		/* 0 until a stream request shows the kernel has them */
	uint64_t hz;
	struct fsl_geom g;
	struct fsl_tunables t;
	struct fsl_alloc *ks;		/* kernel state */
	struct fsl_ialloc *ia;		/* kernel state */
	struct fsl_map imeta;		/* ino -> IM_* bits: size, type, created */
	struct thr *thr;
	uint32_t nthr, cthr;
	/*
	 * The journal inputs, read back in order by the journal models at the
	 * end: the last cjin of them in memory (r->jin[0] is input jbase), the
	 * older ones spilled to the unlinked temporary file jfd, so memory stays
	 * bounded however long the trace.
	 */
	struct jin *jin;
	size_t njin, cjin, jbase, jwin;
	int jfd;
	struct rcommit rc[RC_KEEP];	/* commit i at rc[i % RC_KEEP] */
	size_t nrc;
	struct rc_sum rcs;
	uint64_t rec_checkpoints;
	/* the last jbd2_kick before the next commit was another task's sync or fsync */
	int kick_by_other;
	/* a kick whose stack was lost, from a task outside the workload */
	int kick_lost_other;
	/* the recorded running transaction: its tid and first handle's time */
	uint32_t txn_tid;
	uint64_t txn_start;
	/* where jbd2's commit timer fires, ns mod 1 s (a recorded timer kick) */
	uint64_t timer_phase_ns;
	int timer_phase_known;
	const struct fsl_meta *meta;	/* during the run: stacks of kicks */
	struct scen sc[NSCEN];
	int nscen;
	/* recorded device */
	struct fsl_map inflight;		/* rq -> issue ts */
	uint64_t busy_start, busy_ns, rec_rqs, rec_wr_ns, rec_wr_n, rec_bytes;
	uint32_t ninflight;
	uint64_t first_ts, last_ts;
	struct dirent_acc *dirs;
	uint32_t ndirs, cdirs;
	/* whatif settings */
	uint64_t w_journal_bytes, w_commit_s;
	uint32_t w_block_size;
	int w_delalloc, w_noatime, w_stream_req, w_group_prealloc;
	int whatif;
	/*
	 * Writers taking turns: among the tasks that created regular files, how
	 * often one journals an inode update again after another did in between.
	 */
	struct fsl_map creators, wr_seen;	/* tid -> (nothing) */
	uint64_t cre_n, wr_events, wr_returns;
	uint32_t wr_last_tid;
	uint64_t max_txn;
	uint32_t target_dev;		/* the recorded filesystem's dev_t (0: unknown, take all) */
	/* record.families lacks them (old traces say nothing: taken as recorded) */
	int no_journal_events, no_dirops, no_alloc_events, no_offcpu;
	uint64_t handle_aggs;	/* jbd2_handle_agg records: the default tier's summed handles */
	uint64_t handle_starts;	/* jbd2_handle_start records */
	int default_tier;	/* record.tier "default": no allocator requests or frees */
	int meta_csum;			/* metadata_csum: directory blocks end in a tail */
	/* the workload's recorded blocked time, by wait class (enum fsl_wclass) */
	uint64_t rec_wait_ns[FSL_WC__MAX], rec_blocked_ns;
	/* geometry that does not fit the events: the replay stops and says why */
	char error[320];
	fsl_handler_fn checked[FSL_EV__MAX];	/* the handlers behind h_checked */
	struct rp_xfs *xfs;		/* an XFS trace: its inode placement replay (xfs.c) */
};

/* What the replay knows of an inode, packed in one map value. */
#define IM_SIZE_MASK	((1ull << 40) - 1)	/* known size in blocks */
#define IM_TYPE_SHIFT	40			/* 1 regular, 2 directory, 3 other */
#define IM_TYPE_MASK	(3ull << IM_TYPE_SHIFT)
#define IM_CREATED	(1ull << 42)		/* allocated during the trace */

/*
 * u64 -> u64 on fsl_map (maps set up with fsl_map__init(m, 8)). Key 0 is
 * never stored: the replay's keys (inodes, requests, threads + 1) are not 0.
 */
static inline int rp_map_put(struct fsl_map *m, uint64_t k, uint64_t v)
{
	uint64_t *p;

	if (!k)
		return 0;
	p = fsl_map__put(m, k, NULL);
	if (!p)
		return -ENOMEM;
	*p = v;
	return 0;
}

static inline int rp_map_get(const struct fsl_map *m, uint64_t k, uint64_t *v)
{
	const uint64_t *p = k ? fsl_map__get(m, k) : NULL;

	if (!p)
		return 0;
	*v = *p;
	return 1;
}

static inline uint64_t imeta(const struct fsl_replay *r, uint64_t ino)
{
	uint64_t v = 0;

	rp_map_get(&r->imeta, ino, &v);
	return v;
}

/* replay.c */
void rp_note(struct fsl_replay *r, const char *fmt, const char *arg);
struct thr *rp_thr_get(struct fsl_replay *r, uint32_t tid);
/* The free-block counts of the inode allocator's groups, from the block allocator's. */
void rp_sync_free_blocks(struct fsl_alloc *a, struct fsl_ialloc *ia, uint32_t ngroups);

/* journal.c: one more recorded journal input (NULL on ENOMEM). */
struct jin *rp_jin_push(struct fsl_replay *r);
/* Journal inputs kept in memory at most (the rest go to a temporary file). */
#define RP_JIN_WINDOW 32768
void rp_jin_free(struct fsl_replay *r);

/* Each part sets the handlers of the events it follows. */
void rp_block__handlers(struct fsl_consumer *c);
void rp_inode__handlers(struct fsl_consumer *c);
void rp_journal__handlers(struct fsl_consumer *c);

/* At the end, in this order (replay_end). */
void rp_journal__run(struct fsl_replay *r, struct scen *s, int base);
/* ns to write one checkpointed block, from the recorded device (busy ns, bytes). */
uint64_t rp_checkpoint_block_ns(uint64_t busy_ns, uint32_t block_size, uint64_t bytes);
void rp_journal__summary(struct fsl_replay *r);
void rp_block__freerun_summary(struct fsl_replay *r);
void rp_inode__dir_summary(struct fsl_replay *r);
void rp_inode__note_write(struct fsl_replay *r, uint32_t tid);

/*
 * xfs.c: an XFS trace (no ext4 geometry, XFS's) replays its inode
 * placement instead of the ext4 models; r->xfs is set by begin.
 */
struct fsl_json;
int rp_xfs__begin(struct fsl_replay *r, const struct fsl_meta *m);
void rp_xfs__handlers(struct fsl_consumer *c);
void rp_xfs__end(struct fsl_replay *r);
void rp_xfs__free(struct fsl_replay *r);
int rp_xfs__write_text(const struct fsl_replay *r, FILE *f);
void rp_xfs__write_json(const struct fsl_replay *r, struct fsl_json *j);

#endif /* FSL_REPLAY_INT_H */
