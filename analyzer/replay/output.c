// SPDX-License-Identifier: GPL-2.0
/* Replay, the results as text and JSON (docs/replay-json.md). */
#include "fslens/json.h"
#include "replay_int.h"

/* ---- output ---- */

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static double scen_extents(const struct scen *s, uint64_t *files, uint64_t *frag)
{
	size_t idx = 0;
	uint64_t ino, n = 0, sum = 0, nf = 0;
	unsigned int e;

	if (!s->fr)
		return 0;
	while (fsl_alloc__inode_next(s->fr, &idx, &ino, &e)) {
		sum += e;
		nf += e > 1;
		n++;
	}
	if (files)
		*files = n;
	if (frag)
		*frag = nf;
	return n ? (double)sum / n : 0;
}

/*
 * What-ifs the model cannot answer: the reason (NULL when it can). Layout:
 * extents and fragmented files; journal: commits, checkpoints, stalls.
 */
static const char *refuse_layout(const struct fsl_replay *r, char *buf, size_t sz)
{
	const struct scen *w = &r->sc[1];

	if (!r->whatif)
		return NULL;
	if (r->w_block_size && r->w_block_size != r->g.block_size)
		return "the recorded requests are not rescaled to another block size";
	/*
	 * nodelalloc allocates in the order pages are written; a delalloc trace
	 * has the writeback order only, which is the same for one writer at a
	 * time but not for writers taking turns (their pages interleave).
	 */
	if (!w->delalloc && r->g.delalloc && r->wr_returns >= 3 &&
	    r->wr_returns * 100 > r->wr_events) {
		snprintf(buf, sz, "%llu files written by writers taking turns (%llu turns in %llu "
			 "inode updates): a delalloc trace has their writeback order, not the order "
			 "their pages were written", (unsigned long long)r->cre_n,
			 (unsigned long long)r->wr_returns, (unsigned long long)r->wr_events);
		return buf;
	}
	return NULL;
}

/*
 * Models that did not run, so their figures are not printed (the reason
 * is): NULL when the model behind the figures ran.
 */
static const char *skip_layout(const struct fsl_replay *r)
{
	if (!r->have_geom)
		return "no ext4 geometry in the trace (ext4.block_size, blocks_count, "
		       "blocks_per_group, inodes_per_group)";
	if (r->no_alloc_events)
		return "the trace has no allocation events (recorded without -e alloc)";
	if (r->default_tier)
		return "the trace has no allocator requests (ext4_request_inode, "
		       "ext4_request_blocks, ext4_mballoc_free): record with 'fslens record --full' "
		       "to replay the layout";
	return NULL;
}

static const char *skip_dirs(const struct fsl_replay *r)
{
	if (!r->g.block_size && !r->w_block_size)
		return "no ext4.block_size in the trace";
	if (r->no_dirops)
		return "the trace has no directory operations (recorded without -e dirops)";
	return NULL;
}

static const char *skip_journal(const struct scen *s)
{
	return s->j ? NULL : s->jskip[0] ? s->jskip : "the journal model could not run";
}

/* The wait class (enum fsl_wclass) of each of the journal model's waits. */
static const int jw_class[FSL_JWAIT__MAX] = {
	FSL_WC_JOURNAL_LOG_SPACE, FSL_WC_TXN_LOCKED, FSL_WC_BUFFER_UNDER_COMMIT, FSL_WC_COMMIT_WAIT,
};

static const char *skip_waits(const struct fsl_replay *r)
{
	if (r->no_offcpu)
		return "the trace has no off-CPU waits (recorded without -e offcpu)";
	if (!r->rec_blocked_ns)
		return "no blocked time of the workload recorded";
	return NULL;
}

/*
 * The journal model's waits are used only where, with the recorded
 * settings, they come within 10% (or 2 ms) of the waits recorded in each
 * class: else the cost of a checkpoint or a commit on this device is not
 * what the model charges, and a changed setting's waits would be as wrong.
 */
static const char *refuse_waits(const struct fsl_replay *r, const struct fsl_journal_stats *bs,
				char *buf, size_t sz)
{
	int k;

	for (k = 0; k < FSL_JWAIT__MAX; k++) {
		uint64_t rec = r->rec_wait_ns[jw_class[k]], m = bs->stall_ns[k];
		uint64_t d = m > rec ? m - rec : rec - m;

		if (d * 10 <= rec || d <= 2 * MS)
			continue;
		snprintf(buf, sz, "with the recorded settings the model's %s waits are %.1f ms "
			 "against %.1f ms recorded: what a %s costs on this device (its writes, "
			 "cache flushes and journal superblock update) is not modelled well enough "
			 "to predict them", fsl_jwait_name(k), m / 1e6, rec / 1e6,
			 k == FSL_JWAIT_LOG_SPACE ? "checkpoint" : "commit");
		return buf;
	}
	return NULL;
}

/* Log-space share of the workload's blocked time, the other waits as recorded. */
static double ls_share(const struct fsl_replay *r, const struct fsl_journal_stats *st)
{
	uint64_t rest = r->rec_blocked_ns, jw = 0;
	int k;

	for (k = 0; k < FSL_JWAIT__MAX; k++) {
		rest -= r->rec_wait_ns[jw_class[k]] < rest ? r->rec_wait_ns[jw_class[k]] : rest;
		jw += st->stall_ns[k];
	}
	return rest + jw ? 100.0 * (double)st->stall_ns[FSL_JWAIT_LOG_SPACE] / (double)(rest + jw)
			 : 0;
}

/*
 * A handle's dirtied count is of buffers new to its recorded transaction. In
 * transactions much longer than the recorded ones, a directory, bitmap or
 * inode-table block that several recorded transactions each counted is one
 * block, and the model, not knowing which buffers are the same, counts them
 * all: its size-limited commits run high (6,000 mkdir, 1 MiB journal: at 2
 * MiB 15 commits predicted for 14 real; 12,000 mkdir at 4 MiB, 17 for 14).
 * Past 2.5 times the recorded length it says so instead.
 */
#define TXN_GROWTH_MAX 2.5

static const char *refuse_txn(const struct fsl_replay *r, char *buf, size_t sz)
{
	const struct fsl_journal_stats *bs, *ws;
	double lb, lw;

	if (!r->whatif || !r->sc[0].j || !r->sc[1].j)
		return NULL;
	bs = fsl_journal__stats(r->sc[0].j);
	ws = fsl_journal__stats(r->sc[1].j);
	if (!bs->commits || !ws->commits ||
	    ws->commits_by_reason[FSL_COMMIT_SIZE] * 2 < ws->commits)
		return NULL;
	lb = (double)bs->handles / (double)bs->commits;
	lw = (double)ws->handles / (double)ws->commits;
	if (lw <= lb * TXN_GROWTH_MAX)
		return NULL;
	snprintf(buf, sz, "transactions %.1f times as long as the recorded ones: the "
		 "buffers each recorded transaction counted as its own (directory, bitmap and "
		 "inode-table blocks dirtied again) would be shared, and the model does not know "
		 "which are the same", lw / lb);
	return buf;
}

static const char *refuse_journal(const struct fsl_replay *r, char *buf, size_t sz)
{
	if (r->whatif && r->sc[1].delalloc != r->g.delalloc)
		return "the recorded handles journal what this delalloc setting dirtied; the other "
		       "setting journals other blocks at other times";
	/*
	 * a handle's dirtied count is of new buffers in its transaction: with
	 * another block size more inodes, bitmap bits and entries share a
	 * block, so the transactions hold other counts of blocks
	 */
	if (r->whatif && r->w_block_size && r->w_block_size != r->g.block_size)
		return "the recorded handles dirtied blocks of the recorded size; with another "
		       "block size more or fewer inodes and entries share each block, which the "
		       "model does not recount";
	return refuse_txn(r, buf, sz);
}

/* A model's commits of the workload (those other tasks' syncs forced apart). */
static uint64_t wl_commits(const struct fsl_journal_stats *st)
{
	return st->commits - st->commits_by_reason[FSL_COMMIT_OTHER];
}

static void json_scen(const struct fsl_replay *r, const struct scen *s, struct fsl_json *j)
{
	const struct fsl_journal_stats *st = s->j ? fsl_journal__stats(s->j) : NULL;
	uint64_t files = 0, frag = 0;
	int k;

	fsl_json__obj_begin(j);
	if (st) {
		fsl_json__kv_u64(j, "journal_blocks", s->jc.journal_blocks);
		fsl_json__kv_double(j, "commit_s", s->jc.commit_ns / 1e9);
		fsl_json__kv_u64(j, "commits", wl_commits(st));
		fsl_json__kv_u64(j, "commits_by_others", st->commits_by_reason[FSL_COMMIT_OTHER]);
		fsl_json__key(j, "commits_by_reason");
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_COMMIT__MAX; k++)
			fsl_json__kv_u64(j, fsl_commit_reason_name(k), st->commits_by_reason[k]);
		fsl_json__obj_end(j);
		fsl_json__kv_u64(j, "checkpoints", st->checkpoints);
		fsl_json__key(j, "stall_ms");
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_JWAIT__MAX; k++)
			fsl_json__kv_double(j, fsl_jwait_name(k), st->stall_ns[k] / 1e6);
		fsl_json__obj_end(j);
		if (!skip_waits(r))
			fsl_json__kv_double(j, "log_space_share_pct", ls_share(r, st));
	}
	if (s->fr) {
		fsl_json__kv_double(j, "extents_per_file", scen_extents(s, &files, &frag));
		fsl_json__kv_u64(j, "files", files);
		fsl_json__kv_u64(j, "fragmented_files", frag);
		fsl_json__kv_u64(j, "alloc_failures", s->alloc_fail);
		fsl_json__kv_double(j, "inode_to_data_groups",
				    s->idist_n ? (double)s->idist_sum / s->idist_n : 0);
	}
	if (!skip_dirs(r)) {
		fsl_json__kv_u64(j, "dir_blocks", s->dir_blocks);
		fsl_json__kv_u64(j, "dir_block_size", s->dir_bs);
	}
	if (s->disk) {
		const struct fsl_disk_stats *ds = fsl_disk__stats(s->disk);

		fsl_json__kv_str(j, "disk", s->prof->name);
		fsl_json__kv_u64(j, "requests", ds->requests);
		fsl_json__kv_u64(j, "seeks", ds->seeks);
		fsl_json__kv_double(j, "device_ms", ds->busy_ns / 1e6);
		fsl_json__kv_double(j, "seek_ms", ds->seek_ns / 1e6);
		fsl_json__kv_double(j, "rotation_ms", ds->rot_ns / 1e6);
		fsl_json__kv_double(j, "transfer_ms", ds->xfer_ns / 1e6);
	}
	fsl_json__obj_end(j);
}

static void json_pathstats(struct fsl_json *j, const struct fsl_replay_pathstat *ps, int n,
			   const char *(*name)(int))
{
	int k;

	fsl_json__obj_begin(j);
	for (k = 0; k < n; k++) {
		if (!ps[k].n)
			continue;
		fsl_json__key(j, name(k));
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "n", ps[k].n);
		fsl_json__kv_u64(j, "exact", ps[k].exact);
		fsl_json__kv_double(j, "exact_pct", pct(ps[k].exact, ps[k].n));
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
}

static const char *path_name_i(int p)
{
	return fsl_alloc_path_name((unsigned int)p);
}

int fsl_replay__write_json(const struct fsl_replay *r, FILE *f)
{
	const struct fsl_replay_result *s = &r->res;
	const struct fsl_replay_journal *jr = &r->jr;
	struct fsl_json j;
	unsigned int i;
	int k;

	/* the workload's commits: what the models, fed its requests, predict */
	uint64_t rec_wl = jr->commits_recorded - jr->commits_by_others;

	fsl_json__init(&j, f, 1);
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "schema", 1);
	fsl_json__key(&j, "notes");
	fsl_json__arr_begin(&j);
	for (i = 0; i < r->nnotes; i++)
		fsl_json__str(&j, r->notes[i]);
	fsl_json__arr_end(&j);
	/* an XFS trace: its inode placement, and nothing of the ext4 models */
	if (r->xfs) {
		rp_xfs__write_json(r, &j);
		fsl_json__obj_end(&j);
		fsl_json__newline(&j);
		return fsl_json__error(&j) ? fsl_json__error(&j) : (ferror(f) ? -EIO : 0);
	}
	fsl_json__key(&j, "geometry");
	fsl_json__obj_begin(&j);
	fsl_json__kv_bool(&j, "known", r->have_geom);
	fsl_json__kv_u64(&j, "block_size", r->g.block_size);
	fsl_json__kv_u64(&j, "blocks_count", r->g.blocks_count);
	fsl_json__kv_u64(&j, "blocks_per_group", r->g.blocks_per_group);
	fsl_json__kv_u64(&j, "groups", r->g.ngroups);
	fsl_json__kv_u64(&j, "inodes_per_group", r->g.inodes_per_group);
	fsl_json__kv_u64(&j, "flex_bg_size", r->g.flex_size);
	fsl_json__kv_u64(&j, "journal_blocks", r->g.journal_blocks);
	fsl_json__kv_u64(&j, "mb_stream_req", r->t.mb_stream_req);
	fsl_json__kv_u64(&j, "mb_group_prealloc", r->t.mb_group_prealloc);
	fsl_json__kv_double(&j, "commit_s", r->t.commit_ns / 1e9);
	fsl_json__kv_bool(&j, "delalloc", r->g.delalloc);
	fsl_json__obj_end(&j);

	fsl_json__key(&j, "fidelity");
	fsl_json__obj_begin(&j);
	fsl_json__key(&j, "block");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "requests", s->blk_requests);
	fsl_json__kv_u64(&j, "exact", s->blk_exact);
	fsl_json__kv_double(&j, "exact_pct", pct(s->blk_exact, s->blk_requests));
	fsl_json__kv_double(&j, "goal_match_pct", pct(s->blk_goal_match, s->blk_requests));
	fsl_json__kv_u64(&j, "skipped", s->blk_skipped);
	fsl_json__kv_u64(&j, "from_unknown_prealloc", s->blk_unknown_pa);
	if (s->end_checked)
		fsl_json__kv_u64(&j, "end_state_mismatch_blocks", s->end_mismatch);
	else
		fsl_json__kv_null(&j, "end_state_mismatch_blocks");
	fsl_json__key(&j, "by_path");
	json_pathstats(&j, s->blk_by_path, FSL_PATH__MAX, path_name_i);
	fsl_json__key(&j, "divergences");
	fsl_json__arr_begin(&j);
	for (i = 0; i < s->nblk_div; i++) {
		const struct fsl_replay_div *d = &s->blk_div[i];

		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "ts", d->ts);
		fsl_json__kv_u64(&j, "ino", d->ino);
		fsl_json__kv_u64(&j, "logical", d->logical);
		fsl_json__kv_u64(&j, "len", d->len);
		fsl_json__key(&j, "kernel");
		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "block", d->k_pblk);
		fsl_json__kv_u64(&j, "len", d->k_len);
		fsl_json__kv_str(&j, "path", d->k_path >= 0 ? fsl_alloc_path_name(d->k_path) : "?");
		fsl_json__kv_u64(&j, "goal", d->goal_k);
		fsl_json__obj_end(&j);
		fsl_json__key(&j, "model");
		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "block", d->m_pblk);
		fsl_json__kv_u64(&j, "len", d->m_len);
		fsl_json__kv_str(&j, "path", fsl_alloc_path_name(d->m_path));
		fsl_json__kv_u64(&j, "goal", d->goal_m);
		fsl_json__obj_end(&j);
		fsl_json__obj_end(&j);
	}
	fsl_json__arr_end(&j);
	fsl_json__obj_end(&j);

	fsl_json__key(&j, "inode");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "requests", s->ino_requests);
	fsl_json__kv_u64(&j, "exact", s->ino_exact);
	fsl_json__kv_double(&j, "exact_pct", pct(s->ino_exact, s->ino_requests));
	fsl_json__kv_u64(&j, "files_in_existing_dirs", s->ino_files_existing);
	fsl_json__kv_double(&j, "files_in_existing_dirs_exact_pct",
			    pct(s->ino_files_existing_exact, s->ino_files_existing));
	fsl_json__kv_u64(&j, "unpredictable", s->ino_unpredictable);
	fsl_json__key(&j, "by_how");
	json_pathstats(&j, s->ino_by_how, FSL_IHOW__MAX, fsl_ialloc_how_name);
	fsl_json__key(&j, "divergences");
	fsl_json__arr_begin(&j);
	for (i = 0; i < s->nino_div; i++) {
		const struct fsl_replay_div *d = &s->ino_div[i];

		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "ts", d->ts);
		fsl_json__kv_u64(&j, "dir", d->dir);
		fsl_json__kv_bool(&j, "is_dir", d->k_path);
		fsl_json__kv_u64(&j, "kernel", d->ino);
		fsl_json__kv_u64(&j, "model", d->m_pblk);
		fsl_json__kv_str(&j, "how", fsl_ialloc_how_name(d->m_path));
		fsl_json__obj_end(&j);
	}
	fsl_json__arr_end(&j);
	fsl_json__obj_end(&j);

	if (r->o.free_run) {
		static const char *const hist[8] = {
			"0", "1-7", "8-63", "64-511", "512-4095", "4096-32767", "32768-262143",
			"262144+",
		};
		uint64_t n = 0;

		for (k = 0; k < 8; k++)
			n += s->fr_hist[k];
		fsl_json__key(&j, "free_run");
		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "allocations", n);
		fsl_json__kv_u64(&j, "until_first_divergence", s->fr_until_div);
		fsl_json__kv_double(&j, "group_match_pct", pct(s->fr_group_match, n));
		fsl_json__key(&j, "abs_block_diff");
		fsl_json__obj_begin(&j);
		for (k = 0; k < 8; k++)
			fsl_json__kv_u64(&j, hist[k], s->fr_hist[k]);
		fsl_json__obj_end(&j);
		fsl_json__kv_u64(&j, "files", s->fr_files);
		fsl_json__kv_double(&j, "extents_per_file_kernel", s->fr_extents_kernel);
		fsl_json__kv_double(&j, "extents_per_file_model", s->fr_extents_model);
		fsl_json__kv_double(&j, "extents_per_file_abs_error", s->fr_extents_err);
		fsl_json__kv_double(&j, "inode_exact_pct", pct(s->fr_ino_exact, s->fr_ino_requests));
		fsl_json__kv_u64(&j, "fragmented_files_kernel", s->fr_frag_kernel);
		fsl_json__kv_u64(&j, "fragmented_files_model", s->fr_frag_model);
		fsl_json__kv_u64(&j, "end_map_changed_blocks", s->fr_map_changed);
		fsl_json__kv_u64(&j, "end_map_agree_blocks", s->fr_map_agree);
		fsl_json__kv_double(&j, "end_map_agree_pct", pct(s->fr_map_agree, s->fr_map_changed));
		fsl_json__obj_end(&j);
	}
	fsl_json__obj_end(&j);	/* fidelity */

	fsl_json__key(&j, "journal");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "handles", jr->handles);
	fsl_json__kv_u64(&j, "commits_recorded", jr->commits_recorded);
	fsl_json__kv_u64(&j, "commits_by_others", jr->commits_by_others);
	fsl_json__key(&j, "commits_by_reason_recorded");
	fsl_json__obj_begin(&j);
	for (k = 0; k < FSL_COMMIT__MAX; k++)
		fsl_json__kv_u64(&j, fsl_commit_reason_name(k), jr->rec_by_reason[k]);
	fsl_json__obj_end(&j);
	fsl_json__kv_u64(&j, "checkpoints_recorded", jr->checkpoints_recorded);
	fsl_json__kv_double(&j, "handle_wait_ms_recorded", jr->rec_wait_ms_total);
	if (skip_journal(&r->sc[0])) {
		/* no model ran: no predicted figure, the reason instead */
		fsl_json__kv_str(&j, "skipped", skip_journal(&r->sc[0]));
		fsl_json__kv_null(&j, "commits_predicted");
		fsl_json__kv_null(&j, "checkpoints_predicted");
	} else {
		fsl_json__kv_u64(&j, "commits_predicted", jr->commits_predicted);
		fsl_json__kv_double(&j, "commit_count_error_pct", rec_wl ?
				    100.0 * ((double)jr->commits_predicted - (double)rec_wl) /
				    (double)rec_wl : 0);
		fsl_json__key(&j, "commits_by_reason_predicted");
		fsl_json__obj_begin(&j);
		for (k = 0; k < FSL_COMMIT__MAX; k++)
			fsl_json__kv_u64(&j, fsl_commit_reason_name(k), jr->pred_by_reason[k]);
		fsl_json__obj_end(&j);
		fsl_json__kv_double(&j, "same_transaction_pct", pct(jr->same_txn, jr->same_txn_n));
		fsl_json__key(&j, "waits_over_10ms");
		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "recorded", jr->waits_rec);
		fsl_json__kv_u64(&j, "predicted", jr->waits_pred);
		fsl_json__kv_u64(&j, "both", jr->waits_tp);
		fsl_json__kv_double(&j, "precision_pct", pct(jr->waits_tp, jr->waits_pred));
		fsl_json__kv_double(&j, "recall_pct", pct(jr->waits_tp, jr->waits_rec));
		fsl_json__obj_end(&j);
		fsl_json__key(&j, "phase_ms");
		fsl_json__obj_begin(&j);
		{
			static const char *const ph[3] = { "locked", "flushing", "logging" };

			for (k = 0; k < 3; k++) {
				fsl_json__key(&j, ph[k]);
				fsl_json__obj_begin(&j);
				fsl_json__kv_double(&j, "recorded", jr->rec_phase_ms[k]);
				fsl_json__kv_double(&j, "predicted", jr->pred_phase_ms[k]);
				fsl_json__obj_end(&j);
			}
		}
		fsl_json__obj_end(&j);
		fsl_json__kv_u64(&j, "checkpoints_predicted", jr->checkpoints_predicted);
		fsl_json__key(&j, "stall_ms_predicted");
		fsl_json__obj_begin(&j);
		for (k = 0; k < FSL_JWAIT__MAX; k++)
			fsl_json__kv_double(&j, fsl_jwait_name(k), jr->stall_ns[k] / 1e6);
		fsl_json__obj_end(&j);
	}
	fsl_json__obj_end(&j);

	fsl_json__key(&j, "device");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "requests_recorded", r->rec_rqs);
	fsl_json__kv_double(&j, "busy_ms_recorded", r->busy_ns / 1e6);
	fsl_json__obj_end(&j);

	fsl_json__key(&j, "whatif");
	if (r->whatif) {
		fsl_json__obj_begin(&j);
		fsl_json__key(&j, "settings");
		fsl_json__obj_begin(&j);
		for (i = 0; i < r->o.nset; i++)
			fsl_json__kv_str(&j, r->o.set_key[i], r->o.set_val[i]);
		if (r->o.disk)
			fsl_json__kv_str(&j, "disk", r->o.disk);
		if (r->o.ialloc_set)
			fsl_json__kv_str(&j, "ialloc", fsl_ialloc_policy_name(r->o.ialloc_policy));
		fsl_json__obj_end(&j);
		fsl_json__key(&j, "recorded");
		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "commits", rec_wl);
		fsl_json__kv_u64(&j, "commits_by_others", jr->commits_by_others);
		fsl_json__kv_u64(&j, "checkpoints", jr->checkpoints_recorded);
		if (!skip_layout(r)) {
			fsl_json__kv_double(&j, "extents_per_file", s->fr_extents_kernel);
			fsl_json__kv_u64(&j, "fragmented_files", s->fr_frag_kernel);
		}
		fsl_json__kv_double(&j, "handle_wait_ms", jr->rec_wait_ms_total);
		if (!skip_waits(r)) {
			fsl_json__key(&j, "wait_ms");
			fsl_json__obj_begin(&j);
			for (k = 0; k < FSL_JWAIT__MAX; k++)
				fsl_json__kv_double(&j, fsl_jwait_name(k),
						    r->rec_wait_ns[jw_class[k]] / 1e6);
			fsl_json__obj_end(&j);
			fsl_json__kv_double(&j, "blocked_ms", r->rec_blocked_ns / 1e6);
			fsl_json__kv_double(&j, "log_space_share_pct",
					    100.0 * r->rec_wait_ns[FSL_WC_JOURNAL_LOG_SPACE] /
					    (double)r->rec_blocked_ns);
		}
		fsl_json__kv_u64(&j, "requests", r->rec_rqs);
		fsl_json__kv_double(&j, "device_busy_ms", r->busy_ns / 1e6);
		fsl_json__obj_end(&j);
		/* the models that did not run: no figures of theirs above */
		fsl_json__key(&j, "skipped");
		fsl_json__obj_begin(&j);
		if (skip_layout(r))
			fsl_json__kv_str(&j, "layout", skip_layout(r));
		if (skip_journal(&r->sc[0]))
			fsl_json__kv_str(&j, "journal", skip_journal(&r->sc[0]));
		else if (skip_journal(&r->sc[1]))
			fsl_json__kv_str(&j, "journal", skip_journal(&r->sc[1]));
		if (skip_dirs(r))
			fsl_json__kv_str(&j, "dir_blocks", skip_dirs(r));
		fsl_json__obj_end(&j);
		fsl_json__key(&j, "baseline");
		json_scen(r, &r->sc[0], &j);
		fsl_json__key(&j, "predicted");
		json_scen(r, &r->sc[1], &j);
		{
			char buf[400], jbuf[320];
			const char *lay = refuse_layout(r, buf, sizeof(buf));
			const char *jn = refuse_journal(r, jbuf, sizeof(jbuf));

			/* the predicted figures these name are not to be used */
			fsl_json__key(&j, "not_modelled");
			fsl_json__obj_begin(&j);
			if (lay)
				fsl_json__kv_str(&j, "layout", lay);
			if (jn)
				fsl_json__kv_str(&j, "journal", jn);
			if (!jn && !skip_waits(r) && r->sc[0].j &&
			    refuse_waits(r, fsl_journal__stats(r->sc[0].j), buf, sizeof(buf)))
				fsl_json__kv_str(&j, "waits", buf);
			fsl_json__obj_end(&j);
		}
		fsl_json__obj_end(&j);
	} else {
		fsl_json__null(&j);
	}
	fsl_json__obj_end(&j);
	fsl_json__newline(&j);
	return fsl_json__error(&j);
}

/* The what-if's journal waits: recorded | model as recorded | model with the change. */
static void text_waits(const struct fsl_replay *r, const struct fsl_journal_stats *bs,
		       const struct fsl_journal_stats *ws, FILE *f)
{
	const char *why = skip_waits(r), *nw;
	char buf[400];
	int k;

	if (why) {
		fprintf(f, "  journal waits skipped: %s\n", why);
		return;
	}
	nw = refuse_waits(r, bs, buf, sizeof(buf));
	for (k = 0; k < FSL_JWAIT__MAX; k++) {
		fprintf(f, "  %-20s %8.1f ms | %8.1f ms | ", fsl_jwait_name(k),
			r->rec_wait_ns[jw_class[k]] / 1e6, bs->stall_ns[k] / 1e6);
		if (nw)
			fprintf(f, "not modelled\n");
		else
			fprintf(f, "%8.1f ms\n", ws->stall_ns[k] / 1e6);
	}
	fprintf(f, "  log-space wait share %7.1f%% | %7.1f%% | ",
		100.0 * r->rec_wait_ns[FSL_WC_JOURNAL_LOG_SPACE] / (double)r->rec_blocked_ns,
		ls_share(r, bs));
	if (nw)
		fprintf(f, "not modelled\n  journal waits not modelled: %s\n", nw);
	else
		fprintf(f, "%7.1f%%\n", ls_share(r, ws));
}

int fsl_replay__write_text(const struct fsl_replay *r, FILE *f)
{
	const struct fsl_replay_result *s = &r->res;
	const struct fsl_replay_journal *jr = &r->jr;
	uint64_t rec_wl = jr->commits_recorded - jr->commits_by_others;
	unsigned int i;
	int k;

	if (r->xfs)
		return rp_xfs__write_text(r, f);
	if (skip_layout(r)) {
		fprintf(f, "Block and inode placement skipped: %s\n", skip_layout(r));
		goto journal;
	}
	fprintf(f, "Block placement, one step at a time: %llu of %llu exact (%.1f%%), "
		"goal computed as the kernel did: %.1f%%\n",
		(unsigned long long)s->blk_exact, (unsigned long long)s->blk_requests,
		pct(s->blk_exact, s->blk_requests), pct(s->blk_goal_match, s->blk_requests));
	if (s->blk_unknown_pa)
		fprintf(f, "  %llu allocations came from preallocations made before the trace "
			"(learnt, not counted)\n", (unsigned long long)s->blk_unknown_pa);
	if (s->end_checked)
		fprintf(f, "  state check: %llu of %llu blocks differ from the bitmap read after the run\n",
			(unsigned long long)s->end_mismatch, (unsigned long long)s->end_blocks);
	for (k = 0; k < FSL_PATH__MAX; k++)
		if (s->blk_by_path[k].n)
			fprintf(f, "  %-10s %-18s %8llu  %5.1f%% exact\n", fsl_alloc_path_name(k),
				fsl_alloc_path_kname(k), (unsigned long long)s->blk_by_path[k].n,
				pct(s->blk_by_path[k].exact, s->blk_by_path[k].n));
	if (s->nblk_div) {
		fprintf(f, "  first divergences (kernel | model):\n");
		for (i = 0; i < s->nblk_div; i++) {
			const struct fsl_replay_div *d = &s->blk_div[i];

			fprintf(f, "    ino %llu lblk %u+%u: %llu+%u %s | %llu+%u %s (goal %llu | %llu)\n",
				(unsigned long long)d->ino, d->logical, d->len,
				(unsigned long long)d->k_pblk, d->k_len,
				d->k_path >= 0 ? fsl_alloc_path_name(d->k_path) : "?",
				(unsigned long long)d->m_pblk, d->m_len,
				fsl_alloc_path_name(d->m_path), (unsigned long long)d->goal_k,
				(unsigned long long)d->goal_m);
		}
	}
	fprintf(f, "Inode placement: %llu of %llu exact (%.1f%%); files in existing directories "
		"%.1f%% of %llu; %llu top-level directories without a name (unpredictable)\n",
		(unsigned long long)s->ino_exact, (unsigned long long)s->ino_requests,
		pct(s->ino_exact, s->ino_requests),
		pct(s->ino_files_existing_exact, s->ino_files_existing),
		(unsigned long long)s->ino_files_existing, (unsigned long long)s->ino_unpredictable);
	for (i = 0; i < s->nino_div && i < 5; i++)
		fprintf(f, "    %s in dir %llu: kernel %llu | model %llu (%s)\n",
			s->ino_div[i].k_path ? "mkdir" : "file",
			(unsigned long long)s->ino_div[i].dir, (unsigned long long)s->ino_div[i].ino,
			(unsigned long long)s->ino_div[i].m_pblk,
			fsl_ialloc_how_name(s->ino_div[i].m_path));
	if (r->o.free_run) {
		uint64_t n = 0;

		for (k = 0; k < 8; k++)
			n += s->fr_hist[k];
		fprintf(f, "Free run: %llu allocations match before the first divergence; same group "
			"%.1f%%; same block %.1f%%; extents per file %.2f (kernel %.2f), mean error %.2f "
			"over %llu files\n",
			(unsigned long long)s->fr_until_div, pct(s->fr_group_match, n),
			pct(s->fr_hist[0], n), s->fr_extents_model, s->fr_extents_kernel,
			s->fr_extents_err, (unsigned long long)s->fr_files);
		if (s->fr_map_changed)
			fprintf(f, "  end bitmap: %llu of the %llu blocks the run changed end as the "
				"kernel's (%.1f%%); fragmented files %llu (kernel %llu)\n",
				(unsigned long long)s->fr_map_agree,
				(unsigned long long)s->fr_map_changed,
				pct(s->fr_map_agree, s->fr_map_changed),
				(unsigned long long)s->fr_frag_model,
				(unsigned long long)s->fr_frag_kernel);
	}
journal:
	if (skip_journal(&r->sc[0])) {
		fprintf(f, "Journal: %llu handles; commits recorded %llu, checkpoints recorded "
			"%llu; model skipped: %s\n", (unsigned long long)jr->handles,
			(unsigned long long)jr->commits_recorded,
			(unsigned long long)jr->checkpoints_recorded, skip_journal(&r->sc[0]));
		goto whatif;
	}
	if (jr->commits_by_others)
		fprintf(f, "Journal: %llu more commits recorded were asked for by other tasks' "
			"sync or fsync (not the workload's: left out)\n",
			(unsigned long long)jr->commits_by_others);
	fprintf(f, "Journal: %llu handles; commits recorded %llu, predicted %llu; same transaction "
		"boundaries %.1f%%; waits > 10 ms recorded %llu, predicted %llu (precision %.0f%%, "
		"recall %.0f%%); checkpoints recorded %llu, predicted %llu\n",
		(unsigned long long)jr->handles, (unsigned long long)rec_wl,
		(unsigned long long)jr->commits_predicted, pct(jr->same_txn, jr->same_txn_n),
		(unsigned long long)jr->waits_rec, (unsigned long long)jr->waits_pred,
		pct(jr->waits_tp, jr->waits_pred), pct(jr->waits_tp, jr->waits_rec),
		(unsigned long long)jr->checkpoints_recorded,
		(unsigned long long)jr->checkpoints_predicted);
	fprintf(f, "  phases (ms, mean): locked %.2f/%.2f, flushing %.2f/%.2f, logging %.2f/%.2f "
		"(recorded/predicted)\n", jr->rec_phase_ms[0], jr->pred_phase_ms[0],
		jr->rec_phase_ms[1], jr->pred_phase_ms[1], jr->rec_phase_ms[2], jr->pred_phase_ms[2]);
whatif:
	if (r->whatif) {
		const struct scen *b = &r->sc[0], *w = &r->sc[1];
		const struct fsl_journal_stats *bs = b->j ? fsl_journal__stats(b->j) : NULL;
		const struct fsl_journal_stats *ws = w->j ? fsl_journal__stats(w->j) : NULL;

		fprintf(f, "What if");
		for (i = 0; i < r->o.nset; i++)
			fprintf(f, " %s=%s", r->o.set_key[i], r->o.set_val[i]);
		if (r->o.disk)
			fprintf(f, " disk=%s", r->o.disk);
		if (r->o.ialloc_set)
			fprintf(f, " ialloc=%s", fsl_ialloc_policy_name(r->o.ialloc_policy));
		fprintf(f, " (recorded | model as recorded | model with the change):\n");
		char buf[256];
		char jbuf[320];
		const char *lay = refuse_layout(r, buf, sizeof(buf));
		const char *jn = refuse_journal(r, jbuf, sizeof(jbuf));
		const char *why;

		if (!bs) {
			fprintf(f, "  journal (commits, checkpoints, stalls) skipped: %s\n",
				skip_journal(b));
		} else if (!ws) {
			fprintf(f, "  commits          %8llu | %8llu | skipped\n",
				(unsigned long long)rec_wl,
				(unsigned long long)wl_commits(bs));
			fprintf(f, "  journal with the change skipped: %s\n", skip_journal(w));
		} else if (jn) {
			fprintf(f, "  commits          %8llu | %8llu | not modelled\n",
				(unsigned long long)rec_wl,
				(unsigned long long)wl_commits(bs));
			fprintf(f, "  journal (commits, checkpoints, stalls) not modelled: %s\n", jn);
		} else {
			fprintf(f, "  commits          %8llu | %8llu | %8llu\n",
				(unsigned long long)rec_wl,
				(unsigned long long)wl_commits(bs),
				(unsigned long long)wl_commits(ws));
			fprintf(f, "  checkpoints      %8llu | %8llu | %8llu\n",
				(unsigned long long)jr->checkpoints_recorded,
				(unsigned long long)bs->checkpoints,
				(unsigned long long)ws->checkpoints);
			text_waits(r, bs, ws, f);
		}
		if ((why = skip_layout(r))) {
			fprintf(f, "  layout (extents, fragmented files, inode-to-data distance) "
				"skipped: %s\n", why);
		} else if (lay) {
			uint64_t fb = 0;
			double eb = scen_extents(b, NULL, &fb);

			fprintf(f, "  extents per file %8.2f | %8.2f | not modelled\n",
				s->fr_extents_kernel, eb);
			fprintf(f, "  fragmented files %8llu | %8llu | not modelled\n",
				(unsigned long long)s->fr_frag_kernel, (unsigned long long)fb);
			fprintf(f, "  layout (extents, fragmented files) not modelled: %s\n", lay);
		} else {
			uint64_t fb = 0, fw = 0;
			double eb = scen_extents(b, NULL, &fb), ew = scen_extents(w, NULL, &fw);

			fprintf(f, "  extents per file %8.2f | %8.2f | %8.2f\n", s->fr_extents_kernel,
				eb, ew);
			fprintf(f, "  fragmented files %8llu | %8llu | %8llu\n",
				(unsigned long long)s->fr_frag_kernel, (unsigned long long)fb,
				(unsigned long long)fw);
		}
		if ((why = skip_dirs(r)))
			fprintf(f, "  directory blocks skipped: %s\n", why);
		else
			fprintf(f, "  directory blocks        - | %8llu | %8llu (%u-byte blocks)\n",
				(unsigned long long)b->dir_blocks,
				(unsigned long long)w->dir_blocks,
				w->dir_bs);
		if (!skip_layout(r))
			fprintf(f, "  inode-to-data distance  - | %8.2f | %8.2f block groups\n",
				b->idist_n ? (double)b->idist_sum / b->idist_n : 0,
				w->idist_n ? (double)w->idist_sum / w->idist_n : 0);
		if (w->disk) {
			const struct fsl_disk_stats *ds = fsl_disk__stats(w->disk);

			fprintf(f, "  device time on %s: %.1f ms for %llu requests (%llu seeks); "
				"recorded busy %.1f ms\n", w->prof->name, ds->busy_ns / 1e6,
				(unsigned long long)ds->requests, (unsigned long long)ds->seeks,
				r->busy_ns / 1e6);
		}
	}
	return ferror(f) ? -EIO : 0;
}
