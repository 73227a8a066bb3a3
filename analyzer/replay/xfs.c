// SPDX-License-Identifier: GPL-2.0
/*
 * The replay of an XFS trace: inode placement inside each AG through the
 * model of model/xfsplace.c, "most recent chunk" against "front of the AG
 * to the back" (seed case 001). The AG is the kernel's and the data stay
 * where the kernel put them: what changes is which inode of the AG a
 * create gets, so what the policy does to the inode-to-data distance.
 *
 *  - one step at a time: before each create, each policy decides from the
 *    kernel's own chunks and inodes in use (start: xfs.inumbers.start; then
 *    every recorded create and free), and is compared with the kernel;
 *  - free run: each policy keeps its own inodes from the start state; when
 *    its chunks are full it takes the next chunk the kernel made in that AG
 *    (else the place after its newest chunk); a file's distance is counted
 *    once, when its first data block is known.
 */
#include <stdio.h>
#include "fslens/json.h"
#include "fslens/xfslayout.h"
#include "fslens/xfsplace.h"
#include "replay_int.h"

#define XR_BMAP_OTHER_FORKS	0x300	/* BMAP_ATTRFORK | BMAP_COWFORK */
#define XR_PENDING		64	/* kernel's new chunks a free run has not taken yet, per AG */

struct xr_create {
	uint64_t dir;
	char name[FSL_XFS_NAME_MAX];
};

/* A file created in the trace: its inode in each free run, and whether its data counted. */
struct xr_file {
	uint64_t mino[FSL_XFSPLACE__MAX];
	uint8_t counted;
};

struct xr_pending {
	uint32_t start[XR_PENDING];
	uint32_t n;
};

struct rp_xfs {
	struct fsl_xfs_addr x;
	uint64_t aginos;
	struct fsl_xfsplace *ks;			/* the kernel's chunks and inodes */
	struct fsl_xfsplace *step[FSL_XFSPLACE__MAX];	/* kernel state, deciding by policy */
	struct fsl_xfsplace *fr[FSL_XFSPLACE__MAX];	/* free runs */
	struct xr_pending *pend[FSL_XFSPLACE__MAX];	/* per AG */
	struct fsl_map creating;			/* tid -> xr_create */
	struct fsl_map files;				/* kernel ino -> xr_file */
	uint64_t creates, new_chunks, frees, exact[FSL_XFSPLACE__MAX];
	uint64_t model_chunks[FSL_XFSPLACE__MAX];	/* chunks the free runs made */
	uint64_t files_counted;
	double dist_kernel, dist[FSL_XFSPLACE__MAX];	/* summed sectors */
	uint64_t same_ag_chunk_back[FSL_XFSPLACE__MAX + 1];	/* creates below the previous (kernel last) */
	uint32_t *prev_start[FSL_XFSPLACE__MAX + 1];	/* per AG: the previous create's chunk + 1 */
	int keep_empty;
	int err;
};

static uint64_t ino_of(const struct rp_xfs *x, uint32_t agno, uint32_t agino)
{
	return (uint64_t)agno << (x->x.agblklog + x->x.inopblog) | agino;
}

static uint64_t ino_daddr(const struct rp_xfs *x, uint64_t ino)
{
	return fsl_xfs_agb_daddr(&x->x, fsl_xfs_ino_agno(&x->x, ino), fsl_xfs_ino_agbno(&x->x, ino));
}

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The chunks in use at the start, with their inodes, into every model. */
static void start_state(struct fsl_replay *r, const struct fsl_meta *m)
{
	struct rp_xfs *x = r->xfs;
	size_t len = 0;
	const char *t = fsl_meta__text(m, FSL_TEXT_XFS_INUMBERS_START, &len);
	const char *p = t, *end = t ? t + len : NULL;
	int i;

	if (!t)
		rp_note(r, "no xfs.inumbers.start in the trace: the inode placement model starts "
			"with no chunk in use%s", NULL);
	while (p && p < end) {
		unsigned long long ino, used;
		const char *nl = memchr(p, '\n', end - p);

		if (*p != '#' && sscanf(p, "%llu %llx", &ino, &used) == 2) {
			uint32_t agno = fsl_xfs_ino_agno(&x->x, ino);
			uint32_t agino = fsl_xfs_ino_agino(&x->x, ino);

			fsl_xfsplace__add_chunk(x->ks, agno, agino, used);
			for (i = 0; i < FSL_XFSPLACE__MAX; i++) {
				fsl_xfsplace__add_chunk(x->step[i], agno, agino, used);
				fsl_xfsplace__add_chunk(x->fr[i], agno, agino, used);
			}
		}
		p = nl ? nl + 1 : end;
	}
}

int rp_xfs__begin(struct fsl_replay *r, const struct fsl_meta *m)
{
	struct rp_xfs *x;
	int i, err = 0;

	if (r->have_geom)
		return 0;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	if (fsl_xfs_addr_init(&x->x, m) || !x->x.agcount) {
		free(x);
		return 0;	/* neither ext4 nor XFS geometry: the ext4 notes say so */
	}
	r->xfs = x;
	x->aginos = 1ull << (x->x.agblklog + x->x.inopblog);
	x->keep_empty = fsl_meta__mount_opt(m, "ikeep") != NULL;
	fsl_map__init(&x->creating, sizeof(struct xr_create));
	fsl_map__init(&x->files, sizeof(struct xr_file));
	x->ks = fsl_xfsplace__new(x->x.agcount, x->aginos, 0, x->keep_empty, &err);
	for (i = 0; x->ks && i < FSL_XFSPLACE__MAX; i++) {
		x->step[i] = fsl_xfsplace__new(x->x.agcount, x->aginos, i, x->keep_empty, &err);
		x->fr[i] = fsl_xfsplace__new(x->x.agcount, x->aginos, i, x->keep_empty, &err);
		x->pend[i] = calloc(x->x.agcount, sizeof(*x->pend[i]));
		if (!x->step[i] || !x->fr[i] || !x->pend[i])
			return err ? err : -ENOMEM;
	}
	for (i = 0; i <= FSL_XFSPLACE__MAX; i++)
		if (!(x->prev_start[i] = calloc(x->x.agcount, sizeof(uint32_t))))
			return -ENOMEM;
	if (!x->ks)
		return err;
	start_state(r, m);
	return 0;
}

static int target(const struct fsl_replay *r, uint32_t dev)
{
	return !r->target_dev || dev == r->target_dev;
}

static int h_create(struct fsl_consumer *c, const struct fsl_hdr *h)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_xfs_create *ev = (const void *)h;
	struct xr_create *cr;

	if (!r->xfs || h->size < sizeof(*ev) || !target(r, ev->dev))
		return 0;
	cr = fsl_map__put(&r->xfs->creating, h->tid, NULL);
	if (!cr)
		return -ENOMEM;
	cr->dir = ev->dir;
	memcpy(cr->name, ev->name, sizeof(cr->name));
	return 0;
}

/* A create below the previous one's chunk in its AG: filling the AG from the back. */
static void order(struct rp_xfs *x, int who, uint32_t agno, uint32_t agino)
{
	uint32_t start = agino & ~(FSL_XFSPLACE_CHUNK - 1u);

	if (x->prev_start[who][agno] && start + 1 < x->prev_start[who][agno])
		x->same_ag_chunk_back[who]++;
	x->prev_start[who][agno] = start + 1;
}

/* Free run of policy i: its inode for a create in AG agno. */
static int free_run(struct rp_xfs *x, int i, uint32_t agno, uint64_t *mino)
{
	struct xr_pending *pd = &x->pend[i][agno];
	uint32_t agino;

	while (fsl_xfsplace__decide(x->fr[i], agno, &agino)) {
		/* full: the next chunk the kernel made here, else after its own newest */
		uint32_t start;

		if (pd->n) {
			start = pd->start[0];
			memmove(pd->start, pd->start + 1, --pd->n * sizeof(pd->start[0]));
			if (fsl_xfsplace__has_chunk(x->fr[i], agno, start))
				continue;
		} else {
			start = fsl_xfsplace__next(x->fr[i], agno);
		}
		if (start + FSL_XFSPLACE_CHUNK > x->aginos)
			return -ENOSPC;
		agino = start;
		x->model_chunks[i]++;
		break;
	}
	*mino = ino_of(x, agno, agino);
	order(x, i, agno, agino);
	return fsl_xfsplace__use(x->fr[i], agno, agino);
}

static int new_inode(struct fsl_replay *r, uint64_t ino)
{
	struct rp_xfs *x = r->xfs;
	uint32_t agno = fsl_xfs_ino_agno(&x->x, ino), agino = fsl_xfs_ino_agino(&x->x, ino);
	uint32_t start = agino & ~(FSL_XFSPLACE_CHUNK - 1u);
	struct xr_file *f;
	int i, e;

	if (agno >= x->x.agcount)
		return 0;
	x->creates++;
	if (!fsl_xfsplace__has_chunk(x->ks, agno, start)) {
		x->new_chunks++;
		for (i = 0; i < FSL_XFSPLACE__MAX; i++) {
			struct xr_pending *pd = &x->pend[i][agno];

			if (pd->n < XR_PENDING)
				pd->start[pd->n++] = start;
		}
	}
	for (i = 0; i < FSL_XFSPLACE__MAX; i++) {
		uint32_t d;

		/* one step: decided on the kernel's state, then the kernel's choice applied */
		if (!fsl_xfsplace__decide(x->step[i], agno, &d) && d == agino)
			x->exact[i]++;
		if ((e = fsl_xfsplace__use(x->step[i], agno, agino)))
			return e;
	}
	order(x, FSL_XFSPLACE__MAX, agno, agino);
	if ((e = fsl_xfsplace__use(x->ks, agno, agino)))
		return e;
	f = fsl_map__put(&x->files, ino, NULL);
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		if ((e = free_run(x, i, agno, &f->mino[i])) && e != -ENOSPC)
			return e;
	return 0;
}

static int h_addname(struct fsl_consumer *c, const struct fsl_hdr *h)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_xfs_dirname *ev = (const void *)h;
	struct xr_create *cr;

	if (!r->xfs || h->size < sizeof(*ev) || !target(r, ev->dev))
		return 0;
	cr = fsl_map__get(&r->xfs->creating, h->tid);
	if (!cr || cr->dir != ev->dir || memcmp(cr->name, ev->name, sizeof(cr->name)))
		return 0;
	fsl_map__del(&r->xfs->creating, h->tid);
	return new_inode(r, ev->inumber);
}

static int h_iunlink_remove(struct fsl_consumer *c, const struct fsl_hdr *h)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_xfs_agino *ev = (const void *)h;
	struct rp_xfs *x = r->xfs;
	struct xr_file *f;
	uint64_t ino;
	int i;

	if (!x || h->size < sizeof(*ev) || !target(r, ev->dev) || ev->agno >= x->x.agcount)
		return 0;
	ino = ino_of(x, ev->agno, ev->agino);
	/* the kernel traces a free twice (off the bucket, then the list): once counts */
	if (!fsl_xfsplace__used(x->ks, ev->agno, ev->agino))
		return 0;
	x->frees++;
	fsl_xfsplace__release(x->ks, ev->agno, ev->agino);
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		fsl_xfsplace__release(x->step[i], ev->agno, ev->agino);
	f = fsl_map__get(&x->files, ino);
	if (!f)
		return 0;
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		if (f->mino[i])
			fsl_xfsplace__release(x->fr[i], fsl_xfs_ino_agno(&x->x, f->mino[i]),
					      fsl_xfs_ino_agino(&x->x, f->mino[i]));
	fsl_map__del(&x->files, ino);
	return 0;
}

/* A created file's first data block: its distance from the kernel's inode and from each model's. */
static int h_iext(struct fsl_consumer *c, const struct fsl_hdr *h)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_xfs_iext *ev = (const void *)h;
	struct rp_xfs *x = r->xfs;
	struct xr_file *f;
	uint64_t dd;
	int i;

	if (!x || h->size < sizeof(*ev) || !target(r, ev->dev) ||
	    (ev->bmap_state & XR_BMAP_OTHER_FORKS) || !fsl_xfs_fsb_valid(&x->x, ev->startblock))
		return 0;
	f = fsl_map__get(&x->files, ev->ino);
	if (!f || f->counted)
		return 0;
	f->counted = 1;
	dd = fsl_xfs_agb_daddr(&x->x, fsl_xfs_fsb_agno(&x->x, ev->startblock),
			       fsl_xfs_fsb_agbno(&x->x, ev->startblock));
	x->files_counted++;
	x->dist_kernel += dist(ino_daddr(x, ev->ino), dd);
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		x->dist[i] += dist(f->mino[i] ? ino_daddr(x, f->mino[i]) : ino_daddr(x, ev->ino), dd);
	return 0;
}

void rp_xfs__handlers(struct fsl_consumer *c)
{
	c->handlers[FSL_EV_XFS_CREATE] = h_create;
	c->handlers[FSL_EV_XFS_DIR2_SF_ADDNAME] = h_addname;
	c->handlers[FSL_EV_XFS_DIR2_BLOCK_ADDNAME] = h_addname;
	c->handlers[FSL_EV_XFS_DIR2_LEAF_ADDNAME] = h_addname;
	c->handlers[FSL_EV_XFS_DIR2_NODE_ADDNAME] = h_addname;
	c->handlers[FSL_EV_XFS_IUNLINK_REMOVE] = h_iunlink_remove;
	c->handlers[FSL_EV_XFS_IEXT_INSERT] = h_iext;
	c->handlers[FSL_EV_XFS_BMAP_POST_UPDATE] = h_iext;
}

void rp_xfs__end(struct fsl_replay *r)
{
	struct rp_xfs *x = r->xfs;

	if (!x->creates)
		rp_note(r, "no XFS create named its new inode (record with -e alloc on an XFS "
			"target): inode placement not modelled%s", NULL);
}

void rp_xfs__free(struct fsl_replay *r)
{
	struct rp_xfs *x = r->xfs;
	int i;

	if (!x)
		return;
	fsl_xfsplace__free(x->ks);
	for (i = 0; i < FSL_XFSPLACE__MAX; i++) {
		fsl_xfsplace__free(x->step[i]);
		fsl_xfsplace__free(x->fr[i]);
		free(x->pend[i]);
	}
	for (i = 0; i <= FSL_XFSPLACE__MAX; i++)
		free(x->prev_start[i]);
	fsl_map__free(&x->creating);
	fsl_map__free(&x->files);
	free(x);
	r->xfs = NULL;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * a / b : 0;
}

static double mean(double sum, uint64_t n)
{
	return n ? sum / n : 0;
}

int rp_xfs__write_text(const struct fsl_replay *r, FILE *f)
{
	const struct rp_xfs *x = r->xfs;
	int i;

	fprintf(f, "XFS inode placement (model/xfsplace.c): each create's inode in the AG the "
		"kernel chose, its data where the kernel put it%s\n",
		x->keep_empty ? "; empty chunks kept (ikeep)" : "");
	fprintf(f, "  %llu creates, %llu frees; the kernel made %llu new chunks, %.1f%% of its "
		"creates went to a chunk before the previous one in the AG\n",
		(unsigned long long)x->creates, (unsigned long long)x->frees,
		(unsigned long long)x->new_chunks,
		pct(x->same_ag_chunk_back[FSL_XFSPLACE__MAX], x->creates));
	fprintf(f, "  one step at a time from the kernel's state, the same inode as the kernel:");
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		fprintf(f, "%s %s %.1f%%", i ? ";" : "", fsl_xfsplace_policy_name(i),
			pct(x->exact[i], x->creates));
	fprintf(f, "\n  inode-to-data distance, mean over %llu files (sectors): recorded %.0f",
		(unsigned long long)x->files_counted, mean(x->dist_kernel, x->files_counted));
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		fprintf(f, "; %s %.0f", fsl_xfsplace_policy_name(i), mean(x->dist[i],
									 x->files_counted));
	fputc('\n', f);
	for (i = 0; i < FSL_XFSPLACE__MAX; i++)
		fprintf(f, "  free run, %s: %llu chunks made, %.1f%% of creates before the previous "
			"one's chunk\n", fsl_xfsplace_policy_name(i),
			(unsigned long long)x->model_chunks[i],
			pct(x->same_ag_chunk_back[i], x->creates));
	return ferror(f) ? -EIO : 0;
}

void rp_xfs__write_json(const struct fsl_replay *r, struct fsl_json *j)
{
	const struct rp_xfs *x = r->xfs;
	static const char *const key[FSL_XFSPLACE__MAX] = { "most_recent_chunk", "front_to_back" };
	int i;

	fsl_json__key(j, "xfs_placement");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "creates", x->creates);
	fsl_json__kv_u64(j, "frees", x->frees);
	fsl_json__kv_u64(j, "kernel_new_chunks", x->new_chunks);
	fsl_json__kv_bool(j, "keep_empty_chunks", x->keep_empty);
	fsl_json__kv_u64(j, "files", x->files_counted);
	fsl_json__kv_double(j, "recorded_mean_sectors", mean(x->dist_kernel, x->files_counted));
	fsl_json__kv_double(j, "recorded_backward_pct",
			    pct(x->same_ag_chunk_back[FSL_XFSPLACE__MAX], x->creates));
	for (i = 0; i < FSL_XFSPLACE__MAX; i++) {
		fsl_json__key(j, key[i]);
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "exact", x->exact[i]);
		fsl_json__kv_double(j, "exact_pct", pct(x->exact[i], x->creates));
		fsl_json__kv_double(j, "mean_sectors", mean(x->dist[i], x->files_counted));
		fsl_json__kv_u64(j, "chunks_made", x->model_chunks[i]);
		fsl_json__kv_double(j, "backward_pct", pct(x->same_ag_chunk_back[i], x->creates));
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
}
