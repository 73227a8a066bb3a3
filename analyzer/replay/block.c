// SPDX-License-Identifier: GPL-2.0
/*
 * Replay, block allocation: the one-step check against the kernel, the free
 * run, the recorded device.
 */
#include "replay_int.h"

/* ---- block allocation ---- */

/*
 * The kernel's path for a recorded allocation. ext4_mballoc_prealloc carries
 * no flags: which preallocation served it is found from the kernel state.
 */
static int kernel_path(struct fsl_replay *r, const struct thr *t,
		       const struct fsl_alloc_req *q, int kind)
{
	const struct fsl_ev_ext4_mballoc_alloc *mb = &t->mb;
	int cr = mb->cr;

	if (!t->has_mb)
		return -1;
	if (t->mb_prealloc) {
		if (kind)
			return kind == 2 ? FSL_PATH_GROUP_PA : FSL_PATH_INODE_PA;
		/* unknown: a small file goes to its locality group */
		return (uint64_t)q->logical + q->len <= r->t.mb_stream_req &&
		       q->isize_blocks <= r->t.mb_stream_req ? FSL_PATH_GROUP_PA
							     : FSL_PATH_INODE_PA;
	}
	if (!mb->groups && mb->found)
		return FSL_PATH_GOAL;
	return fsl_alloc_cr_path((unsigned int)cr, r->new_cr_names);
}

static void blk_div(struct fsl_replay *r, uint64_t ts, const struct fsl_alloc_req *q,
		    const struct fsl_alloc_res *m, uint64_t kp, uint32_t kl, int kpath,
		    uint64_t kgoal)
{
	struct fsl_replay_div *d;

	if (r->res.nblk_div >= FSL_REPLAY_MAX_DIV)
		return;
	d = &r->res.blk_div[r->res.nblk_div++];
	d->ts = ts;
	d->ino = q->ino;
	d->logical = q->logical;
	d->len = q->len;
	d->k_pblk = kp;
	d->k_len = kl;
	d->k_path = kpath;
	d->m_pblk = m->pblk;
	d->m_len = m->len;
	d->m_path = m->path;
	d->goal_k = kgoal;
	d->goal_m = m->goal;
}

static void fr_hist(struct fsl_replay *r, uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;
	int k = d == 0 ? 0 : d < 8 ? 1 : d < 64 ? 2 : d < 512 ? 3 : d < 4096 ? 4 :
		d < 32768 ? 5 : d < 262144 ? 6 : 7;

	r->res.fr_hist[k]++;
}

/* Free-run allocation of one recorded request in a scenario. */
static void scen_alloc(struct fsl_replay *r, struct scen *s, const struct fsl_alloc_req *kq,
		       uint64_t kp, uint32_t kl, int base)
{
	struct fsl_alloc_req q = *kq;
	struct fsl_alloc_res res;
	uint32_t done = 0;

	if (!s->fr)
		return;
	q.goal = 0;
	if (!s->delalloc && (q.flags & FSL_MB_HINT_DATA)) {
		/* nodelalloc: blocks are allocated page by page at write time */
		uint32_t i;

		q.flags &= ~FSL_MB_DELALLOC_RESERVED;
		q.closed = 0;	/* written now: the file is open for write */
		for (i = 0; i < kq->len; i++) {
			q.logical = kq->logical + i;
			q.len = 1;
			/*
			 * i_size grows with the writes (a copy writes in order):
			 * before block i is written the file has i blocks, so a
			 * file stays small-file (locality group) until it passes
			 * mb_stream_req, as the kernel decides at write time.
			 */
			q.isize_blocks = q.logical;
			fsl_alloc__neighbours(s->fr, &q);
			if (fsl_alloc__allocate(s->fr, &q, &res))
				s->alloc_fail++;
		}
		return;
	}
	/* cover what the kernel allocated: its next request starts after that */
	while (done < (kl ? kl : kq->len)) {
		q.logical = kq->logical + done;
		q.len = (kl ? kl : kq->len) - done;
		if (done == 0)
			q.len = kq->len;
		fsl_alloc__neighbours(s->fr, &q);
		if (fsl_alloc__allocate(s->fr, &q, &res)) {
			s->alloc_fail++;
			break;
		}
		if (base && done == 0 && kp) {
			int same = res.pblk == kp && res.len == kl;

			if (!r->res.fr_diverged) {
				if (same)
					r->res.fr_until_div++;
				else
					r->res.fr_diverged = 1;
			}
			if (r->g.blocks_per_group &&
			    (res.pblk - r->g.first_data_block) / r->g.blocks_per_group ==
			    (kp - r->g.first_data_block) / r->g.blocks_per_group)
				r->res.fr_group_match++;
			fr_hist(r, res.pblk, kp);
		}
		/* the kernel got it in one piece; the model may need more than one */
		done += res.len ? res.len : kq->len;
	}
	if (s->fia && kq->is_reg)
		fsl_ialloc__set_data_hint(s->fia, res.pblk);
}

static void apply_pa_events(struct fsl_replay *r, struct thr *t, int releases)
{
	int i;

	for (i = 0; i < t->npa; i++) {
		struct pa_ev *p = &t->pa[i];
		int is_rel = p->type == FSL_EV_EXT4_MB_RELEASE_INODE_PA ||
			     p->type == FSL_EV_EXT4_MB_RELEASE_GROUP_PA;

		if (is_rel != releases)
			continue;
		switch (p->type) {
		case FSL_EV_EXT4_MB_NEW_INODE_PA:
			fsl_alloc__pa_new(r->ks, p->ino, p->cpu, p->pstart, p->lstart, p->len, 0);
			break;
		case FSL_EV_EXT4_MB_NEW_GROUP_PA:
			fsl_alloc__pa_new(r->ks, 0, p->cpu, p->pstart, (uint32_t)p->pstart,
					  p->len, 1);
			break;
		case FSL_EV_EXT4_MB_RELEASE_INODE_PA:
			fsl_alloc__pa_release(r->ks, p->ino, p->pstart, p->len, 0);
			break;
		case FSL_EV_EXT4_MB_RELEASE_GROUP_PA:
			fsl_alloc__pa_release(r->ks, 0, p->pstart, p->len, 1);
			break;
		}
	}
}

/*
 * A stream request traced with goal start -1 is from a kernel with one
 * stream goal group per slot (s_mb_last_groups, fs/ext4/mballoc.c), picked
 * by the inode number: the kernel state and the free runs switch to it at
 * the first one, before any stream goal was used.
 */
static void stream_slots(struct fsl_replay *r, const struct thr *t)
{
	uint32_t n;
	int i;

	if (r->stream_slots || !t->has_mb || t->mb_prealloc ||
	    !(t->mb.flags & FSL_MB_STREAM_ALLOC) || t->mb.goal_start != -1)
		return;
	n = fsl_alloc_stream_slots(r->possible_cpus, r->g.ngroups);
	r->stream_slots = n;
	fsl_alloc__set_stream_slots(r->ks, n);
	for (i = 0; i < r->nscen; i++)
		if (r->sc[i].fr)
			fsl_alloc__set_stream_slots(r->sc[i].fr, n);
}

static void on_allocated(struct fsl_replay *r, const struct fsl_hdr *ev, struct thr *t,
			 uint64_t kp, uint32_t kl)
{
	struct fsl_alloc_req q = t->req;
	struct fsl_alloc_res m, k;
	int kpath, i, exact;
	uint64_t end, isz = 0, im;
	int pa_kind;

	end = (uint64_t)q.logical + q.len;
	im = t->req_im;		/* looked up when the request came */
	isz = im & IM_SIZE_MASK;
	if (isz > end)
		q.isize_blocks = isz;
	else
		q.isize_blocks = end;
	/*
	 * i_size at writeback is not in the trace (writes are not recorded):
	 * when the kernel's inode-normalized window reaches past what we know,
	 * take the smallest size whose size bucket covers that window.
	 */
	if (t->has_mb && !t->mb_prealloc && !(t->mb.flags & FSL_MB_HINT_GROUP_ALLOC) &&
	    (q.flags & FSL_MB_HINT_DATA) && t->mb.goal_len > 0) {
		uint64_t wend = (uint64_t)t->mb.goal_logical + (uint32_t)t->mb.goal_len;
		uint64_t cand[3] = { q.isize_blocks, wend, wend + 1 };
		uint32_t st, sz;
		int c;

		for (c = 0; c < 3; c++) {
			if (cand[c] < q.isize_blocks)
				continue;
			fsl_alloc_normalize_size(r->g.block_size, q.logical, q.len, cand[c], &st, &sz);
			if (st <= t->mb.goal_logical && (uint64_t)st + sz >= wend) {
				q.isize_blocks = cand[c];
				break;
			}
		}
	}
	/* open-for-write / busy: the kernel's NOPREALLOC decision is the input */
	q.closed = t->has_mb && (t->mb.flags & FSL_MB_HINT_NOPREALLOC) &&
		   !(q.flags & FSL_MB_HINT_NOPREALLOC);
	pa_kind = t->mb_prealloc && kp ? fsl_alloc__pa_holds(r->ks, &q, kp) : 0;
	kpath = kernel_path(r, t, &q, pa_kind);
	if (!kp || !kl) {
		r->res.blk_skipped++;
		goto apply;
	}
	/*
	 * Served from a preallocation the kernel made before the trace started
	 * (they live only in memory, the start bitmap cannot show them): learn
	 * it, as far as the free space around the result says, and do not count
	 * this decision.
	 */
	if (t->mb_prealloc && !t->npa && !pa_kind) {
		int grp = kpath == FSL_PATH_GROUP_PA;
		uint32_t len = fsl_alloc__free_run(r->ks, kp, grp ? r->t.mb_group_prealloc : 2048);


		if (len) {
			fsl_alloc__pa_new(r->ks, q.ino, q.cpu, kp, grp ? (uint32_t)kp : q.logical,
					  len, grp);
			for (i = 0; i < r->nscen; i++)
				if (r->sc[i].fr)
					fsl_alloc__pa_new(r->sc[i].fr, q.ino, q.cpu, kp,
							  grp ? (uint32_t)kp : q.logical, len, grp);
		}
		r->res.blk_unknown_pa++;
		goto apply;
	}
	stream_slots(r, t);
	q.goal = 0;
	fsl_alloc__decide(r->ks, &q, &m);
	exact = m.pblk == kp && m.len == kl;
	r->res.blk_requests++;
	r->res.blk_exact += exact;
	r->res.blk_goal_match += m.goal == t->req_goal_k;
	if (kpath >= 0 && kpath < FSL_PATH__MAX) {
		r->res.blk_by_path[kpath].n++;
		r->res.blk_by_path[kpath].exact += exact;
	}
	if (!exact)
		blk_div(r, ev->ts, &q, &m, kp, kl, kpath, t->req_goal_k);
apply:
	/* the kernel's decision becomes the state */
	apply_pa_events(r, t, 0);
	memset(&k, 0, sizeof(k));
	k.pblk = kp;
	k.len = kl;
	k.flags = t->has_mb ? t->mb.flags : q.flags;
	k.path = kpath >= 0 ? kpath : FSL_PATH_CR1;
	k.consume_pa = t->npa > 0 || kpath < 0;
	fsl_alloc__apply(r->ks, &q, &k);
	if (t->has_mb && (t->mb.flags & FSL_MB_STREAM_ALLOC) && !t->mb_prealloc &&
	    t->mb.result_len > 0)
		fsl_alloc__set_stream_goal(r->ks, q.ino, t->mb.result_group,
					   (uint32_t)t->mb.result_start);
	apply_pa_events(r, t, 1);
	for (i = 0; i < r->nscen; i++)
		scen_alloc(r, &r->sc[i], &q, kp, kl, i == 0);
	if (end > isz)
		rp_map_put(&r->imeta, q.ino, (im & ~IM_SIZE_MASK) | (end & IM_SIZE_MASK));
}

/* The request as ext4_request_blocks / ext4_allocate_blocks both carry it. */
static void req_from_event(struct thr *t, const struct fsl_hdr *ev,
			   const struct fsl_ev_ext4_alloc_blocks *e)
{
	memset(&t->req, 0, sizeof(t->req));
	t->req.ino = e->ino;
	t->req.logical = e->logical;
	t->req.len = e->len;
	t->req.flags = e->flags;
	t->req.cpu = ev->cpu;
	t->req.is_reg = !!(e->flags & FSL_MB_HINT_DATA);
}

static int h_request_blocks(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_alloc_blocks *e = (const void *)ev;
	struct thr *t;

	if (!r->have_geom)
		return 0;
	t = rp_thr_get(r, ev->tid);
	if (!t)
		return -ENOMEM;
	req_from_event(t, ev, e);
	t->req.lleft = e->lleft;
	t->req.lright = e->lright;
	t->req.pleft = e->pleft;
	t->req.pright = e->pright;
	t->req.pid = ev->pid;
	{
		uint64_t im = imeta(r, e->ino), ty = (im & IM_TYPE_MASK) >> IM_TYPE_SHIFT;

		/* metadata blocks of a regular file still take a regular file's goal */
		if (ty) {
			t->req.is_reg = ty == 1;
		} else if (e->flags & FSL_MB_HINT_DATA) {
			im |= 1ull << IM_TYPE_SHIFT;
			rp_map_put(&r->imeta, e->ino, im);
		} else {
			t->req.is_reg = 1;	/* unknown: most inodes are files */
		}
		t->req_im = im;
	}
	t->req.closed = -1;
	t->req_goal_k = e->goal;
	t->has_req = 1;
	t->has_mb = 0;
	t->npa = 0;
	return 0;
}

static int h_mballoc(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	struct thr *t = r->have_geom ? rp_thr_get(r, ev->tid) : NULL;
	size_t n = ev->size < sizeof(t->mb) ? ev->size : sizeof(t->mb);

	if (!t || !t->has_req)
		return 0;
	if (n == sizeof(t->mb)) {
		memcpy(&t->mb, ev, sizeof(t->mb));	/* fixed size: inline moves */
	} else {
		memset(&t->mb, 0, sizeof(t->mb));
		memcpy(&t->mb, ev, n);
	}
	t->has_mb = 1;
	t->mb_prealloc = ev->type == FSL_EV_EXT4_MBALLOC_PREALLOC;
	return 0;
}

static int h_pa(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_pa *e = (const void *)ev;
	struct thr *t;
	int i;

	if (!r->have_geom)
		return 0;
	t = rp_thr_get(r, ev->tid);
	if (!t)
		return -ENOMEM;
	if (t->has_req && t->npa < 16) {
		/* inside an allocation: applied after the decision is compared */
		t->pa[t->npa++] = (struct pa_ev){ ev->type, e->ino, e->pa_pstart,
						  (uint32_t)e->pa_lstart, e->pa_len, ev->cpu };
		return 0;
	}
	switch (ev->type) {
	case FSL_EV_EXT4_MB_NEW_INODE_PA:
		fsl_alloc__pa_new(r->ks, e->ino, ev->cpu, e->pa_pstart, (uint32_t)e->pa_lstart,
				  e->pa_len, 0);
		break;
	case FSL_EV_EXT4_MB_NEW_GROUP_PA:
		fsl_alloc__pa_new(r->ks, 0, ev->cpu, e->pa_pstart, (uint32_t)e->pa_pstart,
				  e->pa_len, 1);
		break;
	case FSL_EV_EXT4_MB_RELEASE_INODE_PA:
		fsl_alloc__pa_release(r->ks, e->ino, e->pa_pstart, e->pa_len, 0);
		/* the file was closed or truncated: the free-running models drop its PAs too */
		for (i = 0; i < r->nscen; i++)
			if (r->sc[i].fr)
				fsl_alloc__discard_inode_pa(r->sc[i].fr, e->ino);
		break;
	case FSL_EV_EXT4_MB_RELEASE_GROUP_PA:
		fsl_alloc__pa_release(r->ks, 0, e->pa_pstart, e->pa_len, 1);
		break;
	}
	return 0;
}

static int h_allocate_blocks(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_alloc_blocks *e = (const void *)ev;
	struct thr *t;

	if (!r->have_geom)
		return 0;
	t = rp_thr_get(r, ev->tid);
	if (!t)
		return -ENOMEM;
	if (!t->has_req || t->req.ino != e->ino) {
		/* no request seen (lost event): keep the state right anyway */
		req_from_event(t, ev, e);
		t->req_im = imeta(r, e->ino);
		t->has_mb = 0;
		if (e->block && e->len) {
			struct fsl_alloc_res k = { .pblk = e->block, .len = e->len,
						   .path = FSL_PATH_CR1, .consume_pa = 1 };

			apply_pa_events(r, t, 0);
			fsl_alloc__apply(r->ks, &t->req, &k);
			apply_pa_events(r, t, 1);
		}
		r->res.blk_skipped++;
		t->has_req = 0;
		t->npa = 0;
		return 0;
	}
	on_allocated(r, ev, t, e->block, e->len);
	t->has_req = 0;
	t->has_mb = 0;
	t->npa = 0;
	return 0;
}

static uint32_t running_tid(struct fsl_replay *r, uint32_t tid)
{
	struct thr *t = rp_thr_get(r, tid);

	if (t && t->last_htid)
		return t->last_htid;
	return r->nrc ? r->rc[(r->nrc - 1) % RC_KEEP].tid + 1 : 0;
}

static int h_mballoc_free(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_mballoc_free *e = (const void *)ev;
	uint64_t blk;
	uint32_t tid;
	int i;

	if (!r->have_geom || e->result_len <= 0 || e->result_group >= r->g.ngroups)
		return 0;
	blk = r->g.first_data_block + (uint64_t)e->result_group * r->g.blocks_per_group +
	      (uint32_t)e->result_start;
	tid = running_tid(r, ev->tid);
	fsl_alloc__free_blocks_tid(r->ks, blk, (uint64_t)e->result_len, tid);
	for (i = 0; i < r->nscen; i++)
		if (r->sc[i].fr)
			fsl_alloc__free_blocks_tid(r->sc[i].fr, blk, (uint64_t)e->result_len, tid);
	return 0;
}

static int h_group_load(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_group_load *e = (const void *)ev;
	int i;

	if (!r->have_geom)
		return 0;
	fsl_alloc__set_loaded(r->ks, e->group, 1);
	for (i = 0; i < r->nscen; i++)
		if (r->sc[i].fr)
			fsl_alloc__set_loaded(r->sc[i].fr, e->group, 1);
	return 0;
}

/* ---- block device ---- */

static int h_block(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_block_rq *e = (const void *)ev;
	uint64_t key = e->rq ? e->rq : e->sector + 1, t0;
	int i;

	if (ev->type == FSL_EV_BLOCK_RQ_ISSUE) {
		if (!e->nr_sector && !e->bytes)
			return 0;
		r->rec_rqs++;
		r->rec_bytes += e->bytes ? e->bytes : (uint64_t)e->nr_sector * 512;
		if (!r->ninflight++)
			r->busy_start = ev->ts;
		rp_map_put(&r->inflight, key, ev->ts | (e->flags & FSL_RQ_WRITE ? 1ull << 63 : 0));
		for (i = 0; i < r->nscen; i++)
			if (r->sc[i].disk)
				fsl_disk__service(r->sc[i].disk, e->sector,
						  e->bytes ? e->bytes : e->nr_sector * 512,
						  !!(e->flags & FSL_RQ_WRITE));
	} else if (ev->type == FSL_EV_BLOCK_RQ_COMPLETE) {
		if (!rp_map_get(&r->inflight, key, &t0) || !t0)
			return 0;
		fsl_map__del(&r->inflight, key);	/* done: per-request state goes */
		if (t0 >> 63) {
			t0 &= ~(1ull << 63);
			if (ev->ts > t0) {
				r->rec_wr_ns += ev->ts - t0;
				r->rec_wr_n++;
			}
		}
		if (r->ninflight && !--r->ninflight)
			r->busy_ns += ev->ts - r->busy_start;
	}
	return 0;
}

void rp_block__freerun_summary(struct fsl_replay *r)
{
	size_t idx = 0;
	uint64_t ino;
	unsigned int kext;
	double err = 0, me = 0, ke = 0;
	uint64_t n = 0;
	int i;

	if (!r->ks || !r->sc[0].fr)
		return;
	while (fsl_alloc__inode_next(r->ks, &idx, &ino, &kext)) {
		unsigned int mext = fsl_alloc__extents(r->sc[0].fr, ino);

		if (!imeta(r, ino))
			continue;
		err += mext > kext ? mext - kext : kext - mext;
		r->res.fr_frag_kernel += kext > 1;
		r->res.fr_frag_model += mext > 1;
		me += mext;
		ke += kext;
		n++;
	}
	r->res.fr_files = n;
	r->res.fr_extents_err = n ? err / n : 0;
	r->res.fr_extents_model = n ? me / n : 0;
	r->res.fr_extents_kernel = n ? ke / n : 0;
	/* inode-to-data distance per scenario, in block groups */
	for (i = 0; i < r->nscen; i++) {
		struct scen *s = &r->sc[i];

		idx = 0;
		if (!s->fr)
			continue;
		while (fsl_alloc__inode_next(s->fr, &idx, &ino, &kext)) {
			uint64_t mino = ino, first = fsl_alloc__first_block(s->fr, ino), dg, ig;

			rp_map_get(&s->ino_map, ino, &mino);
			if (!first || !r->g.blocks_per_group || !r->g.inodes_per_group)
				continue;
			dg = (first - r->g.first_data_block) / r->g.blocks_per_group;
			ig = (mino - 1) / r->g.inodes_per_group;
			s->idist_sum += dg > ig ? dg - ig : ig - dg;
			s->idist_n++;
		}
	}
}


void rp_block__handlers(struct fsl_consumer *c)
{
	c->handlers[FSL_EV_EXT4_REQUEST_BLOCKS] = h_request_blocks;
	c->handlers[FSL_EV_EXT4_ALLOCATE_BLOCKS] = h_allocate_blocks;
	c->handlers[FSL_EV_EXT4_MBALLOC_ALLOC] = h_mballoc;
	c->handlers[FSL_EV_EXT4_MBALLOC_PREALLOC] = h_mballoc;
	c->handlers[FSL_EV_EXT4_MB_NEW_INODE_PA] = h_pa;
	c->handlers[FSL_EV_EXT4_MB_NEW_GROUP_PA] = h_pa;
	c->handlers[FSL_EV_EXT4_MB_RELEASE_INODE_PA] = h_pa;
	c->handlers[FSL_EV_EXT4_MB_RELEASE_GROUP_PA] = h_pa;
	c->handlers[FSL_EV_EXT4_MBALLOC_FREE] = h_mballoc_free;
	c->handlers[FSL_EV_EXT4_MB_BITMAP_LOAD] = h_group_load;
	c->handlers[FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD] = h_group_load;
	c->handlers[FSL_EV_BLOCK_RQ_ISSUE] = h_block;
	c->handlers[FSL_EV_BLOCK_RQ_COMPLETE] = h_block;
}
