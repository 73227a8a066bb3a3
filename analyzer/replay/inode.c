// SPDX-License-Identifier: GPL-2.0
/* Replay, inode allocation and directory entries. */
#include <sys/stat.h>
#include "replay_int.h"

/* ---- inode allocation ---- */

static const char *last_component(const char *p, size_t n, size_t *len)
{
	size_t e = n, s;

	while (e > 0 && p[e - 1] == '/')
		e--;
	s = e;
	while (s > 0 && p[s - 1] != '/')
		s--;
	*len = e - s;
	return p + s;
}

/*
 * A new entry name[nl] in directory dir (its inode: a path can be relative
 * to any working directory).
 */
static void dir_account(struct fsl_replay *r, uint64_t dir, const char *name, size_t nl)
{
	uint64_t h = dir;
	struct dirent_acc *d;
	uint32_t i;

	for (i = 0; i < r->ndirs; i++)
		if (r->dirs[i].h == h)
			break;
	if (i == r->ndirs) {
		if (r->ndirs == r->cdirs) {
			uint32_t c2 = r->cdirs ? r->cdirs * 2 : 64;
			struct dirent_acc *nd = realloc(r->dirs, c2 * sizeof(*nd));

			if (!nd)
				return;
			r->dirs = nd;
			r->cdirs = c2;
		}
		memset(&r->dirs[r->ndirs], 0, sizeof(r->dirs[0]));
		r->dirs[r->ndirs++].h = h;
	}
	d = &r->dirs[i];
	if (!name)
		return;
	if (d->n == d->cap) {
		uint32_t c2 = d->cap ? d->cap * 2 : 16;
		uint32_t *nh = realloc(d->hash, c2 * sizeof(*nh));
		uint8_t *nlen;

		if (!nh)
			return;
		d->hash = nh;
		nlen = realloc(d->len, c2);
		if (!nlen)
			return;
		d->len = nlen;
		d->cap = c2;
	}
	/* the filesystem's directory hash (half MD4 with its seed) places the entry */
	d->hash[d->n] = fsl_dirhash_half_md4(name, nl, r->g.has_hash_seed ? r->g.hash_seed : NULL,
					     0);
	d->len[d->n] = (uint8_t)(nl > 255 ? 255 : nl);
	d->n++;
	d->bytes += nl;
}

static int h_request_inode(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_inode *e = (const void *)ev;
	struct thr *t;

	if ((e->mode & 0170000) == 0100000) {
		if (!fsl_map__put(&r->creators, ev->tid, NULL))
			return -ENOMEM;
		r->cre_n++;
	}
	if (!r->have_geom)
		return 0;
	t = rp_thr_get(r, ev->tid);
	if (!t)
		return -ENOMEM;
	t->has_ireq = 1;
	t->idir = e->dir;
	return 0;
}

static int h_allocate_inode(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_inode *e = (const void *)ev;
	struct fsl_ialloc_req q = { 0 };
	struct fsl_ialloc_res m;
	struct thr *t;
	uint64_t mdir;
	int is_dir = S_ISDIR(e->mode), exact, i, existing;

	if (!r->have_geom)
		return 0;
	t = rp_thr_get(r, ev->tid);
	if (!t)
		return -ENOMEM;
	q.dir = e->dir;
	q.is_dir = is_dir;
	if (t->path_len && ev->ts >= t->path_ts && ev->ts <= t->path_end + MS &&
	    (t->path_op == FSL_OP_MKDIR || t->path_op == FSL_OP_CREATE ||
	     t->path_op == FSL_OP_MKNOD || t->path_op == FSL_OP_SYMLINK))
		q.name = last_component(t->path, t->path_len, &q.name_len);
	existing = !(imeta(r, e->dir) & IM_CREATED);
	rp_sync_free_blocks(r->ks, r->ia, r->g.ngroups);
	if (!fsl_ialloc__decide(r->ia, &q, &m)) {
		exact = m.ino == e->ino;
		if (m.how == FSL_IHOW_RANDOM) {
			r->res.ino_unpredictable++;
		} else {
			r->res.ino_requests++;
			r->res.ino_exact += exact;
			r->res.ino_by_how[m.how].n++;
			r->res.ino_by_how[m.how].exact += exact;
			if (!is_dir && existing) {
				r->res.ino_files_existing++;
				r->res.ino_files_existing_exact += exact;
			}
			if (!exact && r->res.nino_div < FSL_REPLAY_MAX_DIV) {
				struct fsl_replay_div *d = &r->res.ino_div[r->res.nino_div++];

				memset(d, 0, sizeof(*d));
				d->ts = ev->ts;
				d->ino = e->ino;
				d->m_pblk = m.ino;
				d->dir = e->dir;
				d->m_path = m.how;
				d->k_path = is_dir;
			}
		}
	}
	/* the directory gets an entry: named by the create/mkdir call that made it */
	if (q.name)
		dir_account(r, e->dir, q.name, q.name_len);
	/* a new directory takes its first block ("." and "..") even if left empty */
	if (is_dir)
		dir_account(r, e->ino, NULL, 0);
	fsl_ialloc__apply(r->ia, e->dir, e->ino, is_dir);
	rp_map_put(&r->imeta, e->ino, IM_CREATED |
		((uint64_t)(is_dir ? 2 : S_ISREG(e->mode) ? 1 : 3) << IM_TYPE_SHIFT));
	/* free-running inode allocators */
	for (i = 0; i < r->nscen; i++) {
		struct scen *s = &r->sc[i];
		struct fsl_ialloc_req fq = q;
		struct fsl_ialloc_res fm;

		if (!s->fia)
			continue;
		if (rp_map_get(&s->ino_map, e->dir, &mdir))
			fq.dir = mdir;
		if (s->fr)
			rp_sync_free_blocks(s->fr, s->fia, r->g.ngroups);
		if (!fsl_ialloc__allocate(s->fia, &fq, &fm)) {
			rp_map_put(&s->ino_map, e->ino, fm.ino);
			if (i == 0) {
				r->res.fr_ino_requests++;
				r->res.fr_ino_exact += fm.ino == e->ino;
			}
		}
	}
	t->has_ireq = 0;
	return 0;
}

static int h_free_inode(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_inode *e = (const void *)ev;
	uint64_t mino;
	int i;

	if (!r->have_geom)
		return 0;
	fsl_ialloc__mark_free(r->ia, e->ino);
	for (i = 0; i < r->nscen; i++)
		if (r->sc[i].fia)
			fsl_ialloc__mark_free(r->sc[i].fia,
					      rp_map_get(&r->sc[i].ino_map, e->ino, &mino) ? mino
											: e->ino);
	return 0;
}

static int h_dirop(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_dirop *e = (const void *)ev;
	struct thr *t = rp_thr_get(r, ev->tid);
	size_t n = e->path_len;

	if (!t)
		return -ENOMEM;
	if (sizeof(*e) + n > ev->size)
		n = ev->size > sizeof(*e) ? ev->size - sizeof(*e) : 0;
	if (n > sizeof(t->path))
		n = sizeof(t->path);
	memcpy(t->path, e->paths, n);
	t->path_len = (uint16_t)n;
	t->path_ts = ev->ts;
	t->path_end = ev->ts + e->lat_ns;
	t->path_op = e->op;
	if (e->op == FSL_OP_SYNC || e->op == FSL_OP_SYNCFS) {
		struct jin *j = rp_jin_push(r);

		if (!j)
			return -ENOMEM;
		j->ts = ev->ts;
		j->thread = ev->tid;
		j->kind = 4;
		j->rec_wait = e->lat_ns;
	}
	return 0;
}

/* An inode update journaled by tid: count the file creators' turns. */
void rp_inode__note_write(struct fsl_replay *r, uint32_t tid)
{
	if (!fsl_map__get(&r->creators, tid))
		return;
	r->wr_events++;
	if (tid == r->wr_last_tid)
		return;
	if (r->wr_last_tid && fsl_map__get(&r->wr_seen, tid))
		r->wr_returns++;
	fsl_map__put(&r->wr_seen, tid, NULL);
	r->wr_last_tid = tid;
}

void rp_inode__dir_summary(struct fsl_replay *r)
{
	uint32_t i, e;
	int k;

	for (k = 0; k < r->nscen; k++) {
		struct scen *s = &r->sc[k];

		s->dir_blocks = 0;
		for (i = 0; i < r->ndirs; i++) {
			struct fsl_dir_sim *d = fsl_dir_sim__new(s->dir_bs ? s->dir_bs : 4096,
								 r->meta_csum);

			if (!d)
				continue;
			for (e = 0; e < r->dirs[i].n; e++)
				if (fsl_dir_sim__add(d, r->dirs[i].hash[e], r->dirs[i].len[e]))
					break;
			s->dir_blocks += fsl_dir_sim__blocks(d);
			fsl_dir_sim__free(d);
		}
	}
}

/* Does the state the replay kept agree with the bitmap read after the run? */

void rp_inode__handlers(struct fsl_consumer *c)
{
	c->handlers[FSL_EV_EXT4_REQUEST_INODE] = h_request_inode;
	c->handlers[FSL_EV_EXT4_ALLOCATE_INODE] = h_allocate_inode;
	c->handlers[FSL_EV_EXT4_FREE_INODE] = h_free_inode;
	c->handlers[FSL_EV_DIROP] = h_dirop;
}
