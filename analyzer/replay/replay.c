// SPDX-License-Identifier: GPL-2.0
/*
 * fslens replay: recorded events -> model -> fidelity and what-if.
 *
 * One step at a time: a "kernel state" allocator (ks) holds what the kernel
 * held before each recorded decision (start bitmaps, every earlier recorded
 * result, preallocation and commit-time free); at each recorded allocation
 * the model decides from that state and is compared with the kernel, then
 * the kernel's decision is applied. Free run: per scenario, allocators that
 * only ever apply their own decisions. The journal model runs at the end
 * over the recorded handle stream (so its costs can be calibrated on the
 * recorded commits). docs/model.md and docs/replay-json.md describe it all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/analysis.h"
#include "fslens/text.h"
#include "replay_int.h"

void rp_note(struct fsl_replay *r, const char *fmt, const char *arg)
{
	char buf[256];

	if (r->nnotes >= NOTE_MAX)
		return;
	snprintf(buf, sizeof(buf), fmt, arg ? arg : "");
	r->notes[r->nnotes] = strdup(buf);
	if (r->notes[r->nnotes])
		r->nnotes++;
}

size_t fsl_replay__nnotes(const struct fsl_replay *r)
{
	return r->nnotes;
}

const char *fsl_replay__note(const struct fsl_replay *r, size_t i)
{
	return i < r->nnotes ? r->notes[i] : NULL;
}

struct thr *rp_thr_get(struct fsl_replay *r, uint32_t tid)
{
	uint32_t i;

	for (i = r->nthr; i-- > 0;)
		if (r->thr[i].tid == tid) {
			if (i + 8 < r->nthr) {	/* keep busy threads near the end */
				struct thr t = r->thr[i];

				r->thr[i] = r->thr[r->nthr - 1];
				r->thr[r->nthr - 1] = t;
				return &r->thr[r->nthr - 1];
			}
			return &r->thr[i];
		}
	if (r->nthr == r->cthr) {
		uint32_t n = r->cthr ? r->cthr * 2 : 64;
		struct thr *p = realloc(r->thr, n * sizeof(*p));

		if (!p)
			return NULL;
		r->thr = p;
		r->cthr = n;
	}
	memset(&r->thr[r->nthr], 0, sizeof(struct thr));
	r->thr[r->nthr].tid = tid;
	r->thr[r->nthr].last_hidx = -1;
	return &r->thr[r->nthr++];
}

/* ---- options ---- */

int fsl_replay_opts_add_set(struct fsl_replay_opts *o, const char *kv, const char **why)
{
	static const char *const keys[] = {
		"journal_size", "blocksize", "commit", "delalloc", "noatime",
		"mb_stream_req", "mb_group_prealloc", NULL,
	};
	const char *eq = strchr(kv, '=');
	size_t kl;
	uint64_t v;
	int i;

	*why = NULL;
	if (!eq || eq == kv || !eq[1]) {
		*why = "expected KEY=VALUE";
		return -EINVAL;
	}
	kl = (size_t)(eq - kv);
	for (i = 0; keys[i]; i++)
		if (strlen(keys[i]) == kl && !strncmp(keys[i], kv, kl))
			break;
	if (!keys[i]) {
		*why = "unknown key (journal_size, blocksize, commit, delalloc, noatime, "
		       "mb_stream_req, mb_group_prealloc)";
		return -EINVAL;
	}
	if (fsl_parse_size(eq + 1, &v)) {
		*why = "value is not a number";
		return -EINVAL;
	}
	if (i == 0 && (v < (1 << 20) || v > (1ull << 32))) {
		*why = "journal_size must be between 1M and 4G";
		return -EINVAL;
	}
	if (i == 1 && v != 1024 && v != 2048 && v != 4096 && v != 65536) {
		*why = "blocksize must be 1024, 2048, 4096 or 65536";
		return -EINVAL;
	}
	if (i == 2 && (v < 1 || v > 3600)) {
		*why = "commit is in seconds, 1..3600";
		return -EINVAL;
	}
	if ((i == 3 || i == 4) && v > 1) {
		*why = "expected 0 or 1";
		return -EINVAL;
	}
	if ((i == 5 || i == 6) && v > (1u << 20)) {
		*why = "value too large";
		return -EINVAL;
	}
	if (o->nset >= FSL_REPLAY_MAX_SET) {
		*why = "too many --set";
		return -EINVAL;
	}
	snprintf(o->set_key[o->nset], sizeof(o->set_key[0]), "%s", keys[i]);
	snprintf(o->set_val[o->nset], sizeof(o->set_val[0]), "%s", eq + 1);
	o->nset++;
	return 0;
}

/* ---- metadata ---- */

/* Was family recorded? A trace without record.families (older) is taken as yes. */
static int family_recorded(const struct fsl_meta *m, const char *family)
{
	const char *v = fsl_meta_kv(m, FSL_KV_FAMILIES), *p;
	size_t n = strlen(family);

	if (!v)
		return 1;
	for (p = v; (p = strstr(p, family)); p += n)
		if ((p == v || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static void read_geometry(struct fsl_replay *r, const struct fsl_meta *m)
{
	struct fsl_geom *g = &r->g;
	struct fsl_tunables *t = &r->t;
	struct fsl_ext4_geometry eg;
	struct fsl_jbd2_info ji;
	const char *v;
	int have;

	fsl_geom_defaults(g);
	fsl_tunables_defaults(t);
	r->target_dev = (uint32_t)fsl_meta__u64(m, FSL_KV_DEV, 0);
	r->no_journal_events = !family_recorded(m, "journal");
	r->no_dirops = !family_recorded(m, "dirops");
	r->no_alloc_events = !family_recorded(m, "alloc");
	r->no_offcpu = !family_recorded(m, "offcpu");
	v = fsl_meta_kv(m, FSL_KV_TIER);
	r->default_tier = v && !strcmp(v, "default");
	have = !fsl_meta__ext4_geometry(m, &eg);
	g->block_size = eg.block_size;
	g->blocks_count = eg.blocks_count;
	g->blocks_per_group = eg.blocks_per_group;
	g->inodes_per_group = eg.inodes_per_group;
	g->first_data_block = eg.first_data_block;
	g->ngroups = eg.group_count;
	g->inode_size = eg.inode_size ? eg.inode_size : 256;
	g->first_ino = eg.first_ino ? eg.first_ino : 11;
	r->meta_csum = !!(eg.feature_ro_compat & 0x400);	/* RO_COMPAT_METADATA_CSUM */
	g->flex_size = eg.flex_bg_size;
	g->journal_blocks = eg.journal_blocks;
	memcpy(g->hash_seed, eg.hash_seed, sizeof(g->hash_seed));
	g->has_hash_seed = eg.has_hash_seed;
	g->delalloc = !fsl_meta__mount_opt(m, "nodelalloc");
	v = fsl_meta__mount_opt(m, "data");
	g->data_writeback = v && !strncmp(v, "=writeback", 10);
	v = fsl_meta__mount_opt(m, "commit");
	if (v && *v == '=' && atoi(v + 1) > 0)
		t->commit_ns = (uint64_t)atoi(v + 1) * 1000000000ull;
	t->mb_stream_req = (uint32_t)fsl_meta__u64(m, FSL_KV_EXT4_TUNE_MB_STREAM_REQ,
						   t->mb_stream_req);
	t->mb_group_prealloc = (uint32_t)fsl_meta__u64(m, FSL_KV_EXT4_TUNE_MB_GROUP_PREALLOC,
						       t->mb_group_prealloc);
	t->mb_order2_req = (uint32_t)fsl_meta__u64(m, FSL_KV_EXT4_TUNE_MB_ORDER2_REQ,
						   t->mb_order2_req);
	t->mb_min_to_scan = (uint32_t)fsl_meta__u64(m, FSL_KV_EXT4_TUNE_MB_MIN_TO_SCAN,
						    t->mb_min_to_scan);
	t->mb_max_to_scan = (uint32_t)fsl_meta__u64(m, FSL_KV_EXT4_TUNE_MB_MAX_TO_SCAN,
						    t->mb_max_to_scan);
	t->mb_max_inode_prealloc = (uint32_t)fsl_meta__u64(m,
			FSL_KV_EXT4_TUNE_MB_MAX_INODE_PREALLOC, t->mb_max_inode_prealloc);
	/* the journal's transaction limit: the end's value wins, as it is the later */
	if (!fsl_meta__jbd2_info(m, FSL_JBD2_END, &ji) ||
	    !fsl_meta__jbd2_info(m, FSL_JBD2_START, &ji))
		r->max_txn = ji.max_blocks;
	r->hz = fsl_meta__u64(m, FSL_KV_HZ, 250);
	v = fsl_meta_kv(m, FSL_KV_KERNEL);
	r->new_cr_names = fsl_kernel_new_cr_names(v);
	r->possible_cpus = (uint32_t)fsl_meta__u64(m, FSL_KV_NCPUS_CONF,
						   fsl_meta__u64(m, FSL_KV_NCPUS, 1));
	r->have_geom = have && !fsl_geom_finish(g);
	if (r->have_geom && !fsl_geom_check(g, r->error, sizeof(r->error))) {
		uint64_t ic = fsl_meta__u64(m, FSL_KV_EXT4_INODES_COUNT, 0);

		if (ic && ic != (uint64_t)g->ngroups * g->inodes_per_group)
			snprintf(r->error, sizeof(r->error), "ext4.inodes_count=%llu does not match "
				 "ext4.inodes_per_group=%u times ext4.group_count=%u",
				 (unsigned long long)ic, g->inodes_per_group, g->ngroups);
	}
	if (r->have_geom && !r->error[0]) {
		const struct fsl_bitmap *b = m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK,
								   FSL_BITMAP_START) : NULL;
		const struct fsl_bitmap *ib = m->bitmap ? m->bitmap(m, FSL_BITMAP_INODE,
								    FSL_BITMAP_START) : NULL;

		if (b && (b->first > g->blocks_count || b->nbits > g->blocks_count - b->first))
			snprintf(r->error, sizeof(r->error), "the start block bitmap (blocks %llu "
				 "to %llu) runs past ext4.blocks_count=%llu",
				 (unsigned long long)b->first,
				 (unsigned long long)(b->first + b->nbits),
				 (unsigned long long)g->blocks_count);
		else if (ib && (ib->first != 1 || ib->nbits >
				(uint64_t)g->ngroups * g->inodes_per_group))
			snprintf(r->error, sizeof(r->error), "the start inode bitmap (inodes %llu "
				 "to %llu) is not inside ext4.inodes_per_group=%u times "
				 "ext4.group_count=%u", (unsigned long long)ib->first,
				 (unsigned long long)(ib->first + ib->nbits - 1),
				 g->inodes_per_group, g->ngroups);
	}
	/* an XFS trace has no ext4 geometry to miss: its own replay runs (xfs.c) */
	if (!r->have_geom && fsl_meta__str(m, FSL_KV_XFS_AG_BLOCKS) == NULL)
		rp_note(r, "no ext4 geometry in the trace (ext4.block_size, blocks_count, "
			"blocks_per_group, inodes_per_group): allocator fidelity skipped%s", NULL);
}

static void load_bitmaps(struct fsl_replay *r, const struct fsl_meta *m)
{
	const struct fsl_bitmap *b = m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK, FSL_BITMAP_START)
					       : NULL;
	const struct fsl_bitmap *ib = m->bitmap ? m->bitmap(m, FSL_BITMAP_INODE, FSL_BITMAP_START)
						: NULL;
	uint64_t pos, i;
	const char *v;

	if (b) {
		pos = b->first;
		for (i = 0; i < b->nruns; i++) {
			if (i & 1)
				fsl_alloc__mark_used(r->ks, pos, b->runs[i]);
			pos += b->runs[i];
		}
		/* blocks before first_data_block do not exist for the allocator */
	} else {
		rp_note(r, "no start block bitmap in the trace: the model starts from an empty "
			"filesystem%s", NULL);
	}
	if (ib) {
		pos = ib->first;
		for (i = 0; i < ib->nruns; i++) {
			if (i & 1) {
				uint64_t k;

				for (k = 0; k < ib->runs[i]; k++)
					fsl_ialloc__mark_used(r->ia, pos + k, 0);
			}
			pos += ib->runs[i];
		}
	} else {
		for (i = 1; i < r->g.first_ino; i++)
			fsl_ialloc__mark_used(r->ia, i, 0);
		rp_note(r, "no start inode bitmap in the trace%s", NULL);
	}
	/* directories per group (bg_used_dirs_count): "ext4.used_dirs" = comma list */
	v = fsl_meta_kv(m, FSL_KV_EXT4_USED_DIRS);
	if (v) {
		uint32_t gidx = 0;

		while (*v && gidx < r->g.ngroups) {
			fsl_ialloc__set_used_dirs(r->ia, gidx++, (uint32_t)strtoul(v, NULL, 10));
			v = strchr(v, ',');
			if (!v)
				break;
			v++;
		}
	} else {
		fsl_ialloc__set_used_dirs(r->ia, 0, 2);	/* root and lost+found */
		rp_note(r, "no ext4.used_dirs in the trace: Orlov sees only root and "
			"lost+found as existing directories%s", NULL);
	}
	fsl_ialloc__set_topdir(r->ia, r->g.root_ino);
	v = fsl_meta_kv(m, FSL_KV_EXT4_BLOCK_UNINIT);
	while (v && *v) {
		fsl_alloc__set_block_uninit(r->ks, (uint32_t)strtoul(v, NULL, 10), 1);
		v = strchr(v, ',');
		if (v)
			v++;
	}
	v = fsl_meta_kv(m, FSL_KV_EXT4_MB_LOADED);
	if (v && strcmp(v, "all")) {
		uint32_t gi;

		for (gi = 0; gi < r->g.ngroups; gi++)
			fsl_alloc__set_loaded(r->ks, gi, 0);
		while (*v && strcmp(v, "none")) {
			fsl_alloc__set_loaded(r->ks, (uint32_t)strtoul(v, NULL, 10), 1);
			v = strchr(v, ',');
			if (!v)
				break;
			v++;
		}
	}
}

void rp_sync_free_blocks(struct fsl_alloc *a, struct fsl_ialloc *ia, uint32_t ngroups)
{
	uint32_t g;

	for (g = 0; g < ngroups; g++)
		fsl_ialloc__set_free_blocks(ia, g, fsl_alloc__disk_free(a, g));
}

static void apply_whatif(struct fsl_replay *r, struct scen *s)
{
	unsigned int i;
	uint64_t v;

	s->dir_bs = s->g.block_size;
	for (i = 0; i < r->o.nset; i++) {
		const char *k = r->o.set_key[i];

		fsl_parse_size(r->o.set_val[i], &v);
		if (!strcmp(k, "journal_size"))
			r->w_journal_bytes = v;
		else if (!strcmp(k, "blocksize"))
			r->w_block_size = (uint32_t)v;
		else if (!strcmp(k, "commit"))
			s->t.commit_ns = v * 1000000000ull;
		else if (!strcmp(k, "delalloc"))
			s->delalloc = (int)v;
		else if (!strcmp(k, "noatime"))
			s->noatime = (int)v;
		else if (!strcmp(k, "mb_stream_req"))
			s->t.mb_stream_req = (uint32_t)v;
		else if (!strcmp(k, "mb_group_prealloc"))
			s->t.mb_group_prealloc = (uint32_t)v;
	}
	if (r->w_block_size)
		s->dir_bs = r->w_block_size;
}

static int scen_init(struct fsl_replay *r, struct scen *s, int whatif)
{
	s->active = 1;
	s->g = r->g;
	s->t = r->t;
	s->delalloc = r->g.delalloc;
	s->dir_bs = r->g.block_size;
	if (whatif)
		apply_whatif(r, s);
	/* the open-loop allocators cost as much as the one-step check: only when asked */
	if (r->have_geom && (r->o.free_run || r->whatif)) {
		s->fr = fsl_alloc__clone(r->ks);
		s->fia = fsl_ialloc__clone(r->ia);
		if (!s->fr || !s->fia)
			return -ENOMEM;
		/* a what-if allocator: same start state, other tunables */
		if (whatif)
			fsl_alloc__set_tunables(s->fr, &s->t);
	}
	if (whatif && r->o.ialloc_set && s->fia)
		fsl_ialloc__set_policy(s->fia, r->o.ialloc_policy);
	if (whatif && r->o.disk) {
		s->prof = fsl_disk_profile_find(r->o.disk);
		s->disk = s->prof ? fsl_disk__new(s->prof) : NULL;
	}
	return 0;
}

static int replay_begin(struct fsl_consumer *c, const struct fsl_meta *m)
{
	struct fsl_replay *r = c->priv;
	int err = 0, i;

	r->meta = m;
	read_geometry(r, m);
	if (r->error[0])
		return -EINVAL;
	r->whatif = r->o.nset || r->o.disk || r->o.ialloc_set;
	r->nscen = r->whatif ? 2 : 1;
	if (r->have_geom) {
		r->ks = fsl_alloc__new(&r->g, &r->t, &err);
		if (!r->ks)
			return err;
		r->ia = fsl_ialloc__new(&r->g, FSL_IALLOC_EXT4, &err);
		if (!r->ia)
			return err;
		load_bitmaps(r, m);
		rp_sync_free_blocks(r->ks, r->ia, r->g.ngroups);
	} else if ((err = rp_xfs__begin(r, m))) {
		return err;
	}

	for (i = 0; i < r->nscen; i++) {
		err = scen_init(r, &r->sc[i], i == 1);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The workload's own waits, by the class the context stage gave them: what
 * the journal models' waits are checked against, and the share they are of.
 */
static int h_offcpu(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_offcpu *e = (const void *)ev;
	const struct fsl_evctx *x = c->ctx;

	if (!x || ev->size < sizeof(*e) || !(x->flags & FSL_EVCTX_STALL) ||
	    x->role != FSL_ROLE_WORKLOAD || x->cls >= FSL_WC__MAX)
		return 0;
	r->rec_wait_ns[x->cls] += e->dur_ns;
	r->rec_blocked_ns += e->dur_ns;
	return 0;
}

static int h_any(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;

	if (!r->first_ts)
		r->first_ts = ev->ts;
	r->last_ts = ev->ts;
	return 0;
}

static void end_state_check(struct fsl_replay *r, const struct fsl_meta *m)
{
	const struct fsl_bitmap *b = m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK, FSL_BITMAP_END)
					       : NULL;
	uint64_t pos, i, k;

	if (!b || !r->ks)
		return;
	r->res.end_checked = 1;
	pos = b->first;
	for (i = 0; i < b->nruns; i++) {
		for (k = 0; k < b->runs[i]; k++) {
			if (pos + k >= r->g.blocks_count)
				break;
			r->res.end_mismatch += fsl_alloc__test_used(r->ks, pos + k) != (int)(i & 1);
		}
		pos += b->runs[i];
	}
	r->res.end_blocks = pos - b->first;
}

/* Bit blk of a run-length bitmap, walking a cursor forward (blk never decreases). */
static int bm_cursor(const struct fsl_bitmap *b, uint64_t *i, uint64_t *pos, uint64_t blk)
{
	while (*i < b->nruns && blk >= *pos + b->runs[*i])
		*pos += b->runs[(*i)++];
	return *i < b->nruns ? (int)(*i & 1) : -1;
}

/*
 * The free run's end bitmap against the recorded one: from the same start
 * state with only the workload's requests, which of the blocks that changed
 * (in the kernel or in the model) ended in the same state.
 */
static void freerun_map_check(struct fsl_replay *r, const struct fsl_meta *m)
{
	const struct fsl_bitmap *e = m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK, FSL_BITMAP_END) : NULL;
	const struct fsl_bitmap *b = m->bitmap ? m->bitmap(m, FSL_BITMAP_BLOCK, FSL_BITMAP_START)
					       : NULL;
	uint64_t ei = 0, epos, si = 0, spos, blk;

	if (!e || !b || !r->sc[0].fr || e->first != b->first)
		return;
	epos = e->first;
	spos = b->first;
	for (blk = e->first; blk < e->first + e->nbits && blk < r->g.blocks_count; blk++) {
		int end = bm_cursor(e, &ei, &epos, blk), start = bm_cursor(b, &si, &spos, blk);
		int model = fsl_alloc__test_used(r->sc[0].fr, blk);

		if (end < 0 || start < 0)
			break;
		if (start == end && model == start)
			continue;
		r->res.fr_map_changed++;
		r->res.fr_map_agree += model == end;
	}
}

static int replay_end(struct fsl_consumer *c, const struct fsl_meta *m)
{
	struct fsl_replay *r = c->priv;
	int i;

	r->meta = NULL;
	if (r->xfs) {
		rp_xfs__end(r);
		return 0;
	}
	end_state_check(r, m);
	if (r->o.free_run)
		freerun_map_check(r, m);
	if (r->ninflight)
		r->busy_ns += r->last_ts - r->busy_start;
	if (!r->g.journal_blocks)
		rp_note(r, "no ext4.journal_blocks in the trace: journal model skipped%s", NULL);
	for (i = 0; i < r->nscen; i++)
		rp_journal__run(r, &r->sc[i], i == 0);
	rp_journal__summary(r);
	rp_block__freerun_summary(r);
	rp_inode__dir_summary(r);
	if (!r->njin && !r->res.blk_requests && !r->res.ino_requests)
		rp_note(r, "the trace has no allocation or journal events (record with -e alloc,journal)%s",
		     NULL);
	return 0;
}

/* ---- construction ---- */

/*
 * Every number an allocation event gives is checked against the geometry
 * before the models index by it: a trace whose metadata does not fit its
 * events stops with a line naming the key, not a read past an array.
 */
static int ev_range(struct fsl_replay *r, const struct fsl_hdr *ev, const char *what,
		    uint64_t v, uint64_t end, const char *key)
{
	const struct fsl_event_desc *d = fsl_schema_builtin(ev->type);

	if (v < end)
		return 0;
	snprintf(r->error, sizeof(r->error), "event %s at ts %.6f s: %s %llu is out of range "
		 "(at most %llu by %s): the trace's geometry does not fit its events",
		 d ? d->name : "?", (double)ev->ts / 1e9, what, (unsigned long long)v,
		 (unsigned long long)end - 1, key);
	return -EINVAL;
}

static int h_checked(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	uint64_t nb = r->g.blocks_count, ni = (uint64_t)r->g.ngroups * r->g.inodes_per_group + 1;
	const char *kb = "ext4.blocks_count", *ki = "ext4.inodes_per_group x ext4.group_count";
	const char *kg = "ext4.group_count";
	int err = 0;

	if (!r->have_geom)
		return r->checked[ev->type](c, ev);
	switch (ev->type) {
	case FSL_EV_EXT4_REQUEST_BLOCKS:
	case FSL_EV_EXT4_ALLOCATE_BLOCKS: {
		const struct fsl_ev_ext4_alloc_blocks *e = (const void *)ev;

		/* the goal is not checked: the kernel passes its hint as found
		 * (one past the last block when the file ends at the disk's end)
		 * and mballoc sets an out-of-range goal to the first data block,
		 * as the model does (model/alloc.c) */
		err = ev_range(r, ev, "inode", e->ino, ni, ki);
		if (!err)
			err = ev_range(r, ev, "left neighbour block", e->pleft, nb, kb);
		if (!err)
			err = ev_range(r, ev, "right neighbour block", e->pright, nb, kb);
		if (!err && ev->type == FSL_EV_EXT4_ALLOCATE_BLOCKS)
			err = ev_range(r, ev, "end of the allocated blocks",
				       e->block + e->len, nb + 1, kb);
		break;
	}
	case FSL_EV_EXT4_MBALLOC_ALLOC:
	case FSL_EV_EXT4_MBALLOC_PREALLOC: {
		const struct fsl_ev_ext4_mballoc_alloc *e = (const void *)ev;

		err = ev_range(r, ev, "inode", e->ino, ni, ki);
		if (!err && e->result_len > 0)
			err = ev_range(r, ev, "result group", e->result_group, r->g.ngroups, kg);
		if (!err && e->goal_len > 0)
			err = ev_range(r, ev, "goal group", e->goal_group, r->g.ngroups, kg);
		if (!err && e->orig_len > 0)
			err = ev_range(r, ev, "request group", e->orig_group, r->g.ngroups, kg);
		if (!err && e->result_len > 0)
			err = ev_range(r, ev, "end of the result in its group",
				       (uint64_t)(uint32_t)e->result_start + (uint32_t)e->result_len,
				       (uint64_t)r->g.blocks_per_group + 1,
				       "ext4.blocks_per_group");
		break;
	}
	case FSL_EV_EXT4_MB_NEW_INODE_PA:
	case FSL_EV_EXT4_MB_NEW_GROUP_PA:
	case FSL_EV_EXT4_MB_RELEASE_INODE_PA:
	case FSL_EV_EXT4_MB_RELEASE_GROUP_PA: {
		const struct fsl_ev_ext4_pa *e = (const void *)ev;

		err = ev_range(r, ev, "end of the preallocation", e->pa_pstart + e->pa_len,
			       nb + 1, kb);
		break;
	}
	case FSL_EV_EXT4_MB_BITMAP_LOAD:
	case FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD: {
		const struct fsl_ev_ext4_group_load *e = (const void *)ev;

		err = ev_range(r, ev, "group", e->group, r->g.ngroups, kg);
		break;
	}
	case FSL_EV_EXT4_REQUEST_INODE:
	case FSL_EV_EXT4_ALLOCATE_INODE:
	case FSL_EV_EXT4_FREE_INODE: {
		const struct fsl_ev_ext4_inode *e = (const void *)ev;

		err = ev_range(r, ev, "inode", e->ino, ni, ki);
		if (!err)
			err = ev_range(r, ev, "parent directory inode", e->dir, ni, ki);
		break;
	}
	}
	return err ? err : r->checked[ev->type](c, ev);
}

/* Put h_checked in front of every handler that feeds the allocator models. */
static void check_handlers(struct fsl_replay *r)
{
	static const unsigned int types[] = {
		FSL_EV_EXT4_REQUEST_BLOCKS, FSL_EV_EXT4_ALLOCATE_BLOCKS, FSL_EV_EXT4_MBALLOC_ALLOC,
		FSL_EV_EXT4_MBALLOC_PREALLOC, FSL_EV_EXT4_MB_NEW_INODE_PA,
		FSL_EV_EXT4_MB_NEW_GROUP_PA, FSL_EV_EXT4_MB_RELEASE_INODE_PA,
		FSL_EV_EXT4_MB_RELEASE_GROUP_PA, FSL_EV_EXT4_MB_BITMAP_LOAD,
		FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD, FSL_EV_EXT4_REQUEST_INODE,
		FSL_EV_EXT4_ALLOCATE_INODE, FSL_EV_EXT4_FREE_INODE,
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		unsigned int t = types[i];

		if (!r->cons.handlers[t])
			continue;
		r->checked[t] = r->cons.handlers[t];
		r->cons.handlers[t] = h_checked;
	}
}

const char *fsl_replay__error(const struct fsl_replay *r)
{
	return r->error[0] ? r->error : NULL;
}

struct fsl_replay *fsl_replay__new(const struct fsl_replay_opts *o, int *err)
{
	struct fsl_replay *r = calloc(1, sizeof(*r));
	int i;

	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	if (o)
		r->o = *o;
	if (r->o.disk && !fsl_disk_profile_find(r->o.disk)) {
		free(r);
		*err = -EINVAL;
		return NULL;
	}
	r->cons.name = "replay";
	r->cons.priv = r;
	r->cons.begin = replay_begin;
	r->cons.end = replay_end;
	r->cons.any = h_any;
	r->jfd = -1;
	r->jwin = RP_JIN_WINDOW;
	if (getenv("FSLENS_REPLAY_JIN_WINDOW"))	/* tests: spill early */
		r->jwin = strtoul(getenv("FSLENS_REPLAY_JIN_WINDOW"), NULL, 10) ? : 1;
	fsl_map__init(&r->imeta, sizeof(uint64_t));
	fsl_map__init(&r->creators, 1);
	fsl_map__init(&r->wr_seen, 1);
	fsl_map__init(&r->inflight, sizeof(uint64_t));
	for (i = 0; i < NSCEN; i++)
		fsl_map__init(&r->sc[i].ino_map, sizeof(uint64_t));
	r->cons.handlers[FSL_EV_OFFCPU] = h_offcpu;
	rp_block__handlers(&r->cons);
	rp_inode__handlers(&r->cons);
	rp_journal__handlers(&r->cons);
	rp_xfs__handlers(&r->cons);
	check_handlers(r);
	return r;
}

void fsl_replay__free(struct fsl_replay *r)
{
	size_t i;

	if (!r)
		return;
	rp_xfs__free(r);
	fsl_alloc__free(r->ks);
	fsl_ialloc__free(r->ia);
	for (i = 0; i < NSCEN; i++) {
		fsl_alloc__free(r->sc[i].fr);
		fsl_ialloc__free(r->sc[i].fia);
		fsl_journal__free(r->sc[i].j);
		fsl_disk__free(r->sc[i].disk);
		fsl_map__free(&r->sc[i].ino_map);
	}
	fsl_map__free(&r->imeta);
	fsl_map__free(&r->creators);
	fsl_map__free(&r->wr_seen);
	fsl_map__free(&r->inflight);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->thr);
	rp_jin_free(r);
	for (i = 0; i < r->ndirs; i++) {
		free(r->dirs[i].hash);
		free(r->dirs[i].len);
	}
	free(r->dirs);
	free(r);
}

struct fsl_consumer *fsl_replay__consumer(struct fsl_replay *r)
{
	return &r->cons;
}

int fsl_replay__run(struct fsl_replay *r, struct fsl_reader *rd, int *from_reader)
{
	struct fsl_session *sess = NULL;
	struct fsl_context *cx;
	struct fsl_meta m;
	int err = 0, e;

	*from_reader = 0;
	/* root pid -1: the recorded command's, from the metadata */
	cx = fsl_context__new(-1, &err);
	if (cx) {
		struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };

		sess = fsl_session__new(&so, &err);
	}
	if (!sess)
		goto out;
	fsl_meta_from_reader(&m, rd);
	err = fsl_session__add(sess, &r->cons);
	if (!err)
		err = fsl_session__begin(sess, &m);
	if (!err)
		err = fsl_session__read(sess, rd, from_reader);
	e = fsl_session__end(sess);
	if (e < 0 && !err)
		err = e;
out:
	fsl_session__free(sess);
	fsl_context__free(cx);
	return err < 0 ? err : 0;
}

const struct fsl_replay_result *fsl_replay__result(const struct fsl_replay *r)
{
	return &r->res;
}

const struct fsl_replay_journal *fsl_replay__journal(const struct fsl_replay *r)
{
	return &r->jr;
}

