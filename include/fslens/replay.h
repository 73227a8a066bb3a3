/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fslens replay: a session consumer that feeds recorded events through the
 * model (include/fslens/model.h) and measures how often the model decides
 * what the kernel decided (fidelity), and what a changed setting would do
 * (what-if). Output schema: docs/replay-json.md.
 */
#ifndef FSLENS_REPLAY_H
#define FSLENS_REPLAY_H

#include <stdint.h>
#include <stdio.h>
#include "session.h"
#include "model.h"

#define FSL_REPLAY_MAX_SET	16
#define FSL_REPLAY_MAX_DIV	10	/* divergences listed */

struct fsl_replay_opts {
	int free_run;			/* also run the allocators open loop */
	int ialloc_policy;		/* for the what-if / free-run inode allocator */
	int ialloc_set;			/* --ialloc given */
	const char *disk;		/* --disk profile name, NULL = none */
	unsigned int nset;
	char set_key[FSL_REPLAY_MAX_SET][32];
	char set_val[FSL_REPLAY_MAX_SET][64];
};

/* Parse "KEY=VALUE" into opts (validates the key and value). 0 or -EINVAL, *why set. */
int fsl_replay_opts_add_set(struct fsl_replay_opts *o, const char *kv, const char **why);

struct fsl_replay_div {
	uint64_t ts;
	uint64_t ino;
	uint32_t logical, len;
	uint64_t k_pblk, m_pblk;
	uint32_t k_len, m_len;
	int k_path, m_path;		/* enum fsl_alloc_path / fsl_ialloc_how */
	uint64_t goal_k, goal_m;
	uint64_t dir;			/* inode divergences */
};

struct fsl_replay_pathstat {
	uint64_t n, exact;
};

struct fsl_replay_result {
	/* block placement, one step at a time */
	uint64_t blk_requests, blk_exact, blk_goal_match, blk_skipped;
	uint64_t blk_unknown_pa;	/* served from a preallocation made before the trace */
	struct fsl_replay_pathstat blk_by_path[FSL_PATH__MAX];
	struct fsl_replay_div blk_div[FSL_REPLAY_MAX_DIV];
	unsigned int nblk_div;
	/* inode placement */
	uint64_t ino_requests, ino_exact;
	uint64_t ino_files_existing, ino_files_existing_exact;
	uint64_t ino_unpredictable;	/* top-level directories without a name */
	struct fsl_replay_pathstat ino_by_how[FSL_IHOW__MAX];
	struct fsl_replay_div ino_div[FSL_REPLAY_MAX_DIV];
	unsigned int nino_div;
	/* free run */
	uint64_t fr_until_div;		/* allocations before the first divergence */
	int fr_diverged;
	uint64_t fr_group_match;
	uint64_t fr_hist[8];		/* |physical difference|: 0, <8, <64, <512, <4K, <32K, <256K, more */
	uint64_t fr_files;
	double fr_extents_err;		/* mean |model extents - kernel extents| per file */
	double fr_extents_model, fr_extents_kernel;	/* mean extents per file */
	uint64_t fr_ino_exact, fr_ino_requests;
	/* the kernel-state model's on-disk bitmap at the end vs the recorded end bitmap */
	int end_checked;
	uint64_t end_blocks, end_mismatch;
	/*
	 * The free-running model's bitmap at the end vs the recorded end bitmap,
	 * over the blocks the run changed (start != end in the kernel or in
	 * the model): how many of them agree. fr_frag_*: files with > 1 extent.
	 */
	uint64_t fr_map_changed, fr_map_agree;
	uint64_t fr_frag_kernel, fr_frag_model;
};

struct fsl_replay;

struct fsl_replay *fsl_replay__new(const struct fsl_replay_opts *o, int *err);
void fsl_replay__free(struct fsl_replay *r);
/* The consumer to hand to fsl_session_run / fsl_session_dispatch. */
struct fsl_consumer *fsl_replay__consumer(struct fsl_replay *r);
/*
 * Replay every event of rd through a session with the context stage (who
 * is the workload, wait classes). 0 or -errno; *from_reader = 1 when the
 * error is the reader's.
 */
int fsl_replay__run(struct fsl_replay *r, struct fsl_reader *rd, int *from_reader);
const struct fsl_replay_result *fsl_replay__result(const struct fsl_replay *r);
/* Problems worth telling the user (missing metadata, no events): one line each. */
size_t fsl_replay__nnotes(const struct fsl_replay *r);
/*
 * Why the replay stopped with -EINVAL: metadata that contradicts itself or
 * the events (the key is named). NULL when it did not.
 */
const char *fsl_replay__error(const struct fsl_replay *r);
const char *fsl_replay__note(const struct fsl_replay *r, size_t i);

/* Journal figures (valid after the session ended). */
struct fsl_replay_journal {
	uint64_t handles;
	uint64_t commits_recorded, commits_predicted;
	uint64_t rec_by_reason[FSL_COMMIT__MAX], pred_by_reason[FSL_COMMIT__MAX];
	uint64_t same_txn, same_txn_n;		/* boundary agreement */
	uint64_t waits_rec, waits_pred, waits_tp;	/* handle waits > 10 ms */
	double rec_phase_ms[3], pred_phase_ms[3];	/* locked, flushing, logging means */
	uint64_t checkpoints_recorded, checkpoints_predicted;
	/*
	 * Recorded commits another task's sync or fsync asked for (a jbd2_kick
	 * from a task outside the workload): not the workload's, not predicted.
	 */
	uint64_t commits_by_others;
	uint64_t stall_ns[FSL_JWAIT__MAX];
	double rec_wait_ms_total;
};
const struct fsl_replay_journal *fsl_replay__journal(const struct fsl_replay *r);

/* Render (the caller owns the stream). 0 or -errno of a failed write. */
int fsl_replay__write_text(const struct fsl_replay *r, FILE *f);
int fsl_replay__write_json(const struct fsl_replay *r, FILE *f);

#endif
