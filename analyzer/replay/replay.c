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
#include <sys/stat.h>
#include "fslens/event.h"
#include "fslens/json.h"
#include "fslens/replay.h"
#include "fslens/text.h"

#define MS 1000000ull
#define LONG_WAIT_NS (10 * MS)
#define NSCEN 2
#define NOTE_MAX 16

/* ---- small hash maps ---- */

struct u64kv {
	uint64_t k, v;
};

/*
 * Open addressing with a key and its value side by side (one cache miss per
 * lookup, not two). Keys are mostly inode numbers, allocated in runs: 16
 * consecutive keys share a 256-byte block of slots, the blocks are spread
 * by a multiplicative hash, so a run of new inodes stays in a few lines.
 * A key probes in strides of MAP_STEP + 1 slots (the next slot of the next
 * block): a full block is not a probe cluster, and as the stride is odd the
 * probe visits every slot, whatever the keys' low bits are.
 */
#define MAP_STEP	16
struct u64map {
	struct u64kv *e;
	uint32_t cap, n;
};

static uint32_t h64(uint64_t k, uint32_t cap)
{
	uint64_t blk = ((k / MAP_STEP) * 0x9e3779b97f4a7c15ull) >> 32;

	return (uint32_t)((blk * MAP_STEP) | (k & (MAP_STEP - 1))) & (cap - 1);
}

static int map_put(struct u64map *m, uint64_t k, uint64_t v)
{
	uint32_t h;

	if ((m->n + 1) * 2 > m->cap) {
		struct u64map n = { 0 };
		uint32_t i;

		n.cap = m->cap ? m->cap * 2 : 1024;
		n.e = calloc(n.cap, sizeof(*n.e));
		if (!n.e)
			return -ENOMEM;
		for (i = 0; i < m->cap; i++)
			if (m->e[i].k)
				map_put(&n, m->e[i].k, m->e[i].v);
		free(m->e);
		*m = n;
	}
	h = h64(k, m->cap);
	while (m->e[h].k && m->e[h].k != k)
		h = (h + MAP_STEP + 1) & (m->cap - 1);
	if (!m->e[h].k)
		m->n++;
	m->e[h].k = k;
	m->e[h].v = v;
	return 0;
}

static int map_get(const struct u64map *m, uint64_t k, uint64_t *v)
{
	uint32_t h;

	if (!m->cap || !k)
		return 0;
	h = h64(k, m->cap);
	while (m->e[h].k) {
		if (m->e[h].k == k) {
			*v = m->e[h].v;
			return 1;
		}
		h = (h + MAP_STEP + 1) & (m->cap - 1);
	}
	return 0;
}

static void map_free(struct u64map *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

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
	uint8_t kind;		/* 0 handle, 1 fsync, 2 sync */
	uint8_t type;
	uint8_t reader;		/* an inode-dirtying handle from a reading task (atime) */
	uint8_t has_wait;
	uint8_t has_stats;
};

struct rcommit {
	uint32_t tid;
	uint8_t sync;
	uint8_t have_stats;
	uint64_t start, locking, flushing, logging, end;
	uint32_t blocks, blocks_logged;
	uint64_t running_j;
};

struct scen {
	int active;
	struct fsl_geom g;
	struct fsl_tunables t;
	struct fsl_alloc *fr;
	struct fsl_ialloc *fia;
	struct u64map ino_map;		/* kernel ino -> model ino */
	struct fsl_journal *j;
	struct fsl_journal_cfg jc;
	struct fsl_disk *disk;
	const struct fsl_disk_profile *prof;
	int delalloc, noatime;
	uint32_t dir_bs;
	uint64_t alloc_fail;
	uint64_t idist_sum, idist_n;	/* inode-to-data distance, in groups */
	uint64_t dir_blocks;
};

struct dirent_acc {
	uint64_t h;
	uint64_t n, bytes;
};

struct fsl_replay {
	struct fsl_consumer cons;
	struct fsl_replay_opts o;
	struct fsl_replay_result res;
	struct fsl_replay_journal jr;
	char *notes[NOTE_MAX];
	size_t nnotes;
	int have_geom, new_cr_names;
	uint64_t hz;
	struct fsl_geom g;
	struct fsl_tunables t;
	struct fsl_alloc *ks;		/* kernel state */
	struct fsl_ialloc *ia;		/* kernel state */
	struct u64map imeta;		/* ino -> IM_* bits: size, type, created */
	struct thr *thr;
	uint32_t nthr, cthr;
	struct jin *jin;
	size_t njin, cjin;
	struct rcommit *rc;
	size_t nrc, crc;
	uint64_t rec_checkpoints;
	struct scen sc[NSCEN];
	int nscen;
	/* recorded device */
	struct u64map inflight;		/* rq -> issue ts */
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
	uint64_t max_txn;		/* from /proc/fs/jbd2/DEV/info, 0 unknown */
	/* geometry that does not fit the events: the replay stops and says why */
	char error[320];
	fsl_handler_fn checked[FSL_EV__MAX];	/* the handlers behind h_checked */
};

/* What the replay knows of an inode, packed in one map value. */
#define IM_SIZE_MASK	((1ull << 40) - 1)	/* known size in blocks */
#define IM_TYPE_SHIFT	40			/* 1 regular, 2 directory, 3 other */
#define IM_TYPE_MASK	(3ull << IM_TYPE_SHIFT)
#define IM_CREATED	(1ull << 42)		/* allocated during the trace */

static uint64_t imeta(const struct fsl_replay *r, uint64_t ino)
{
	uint64_t v = 0;

	map_get(&r->imeta, ino, &v);
	return v;
}

static void note(struct fsl_replay *r, const char *fmt, const char *arg)
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

static struct thr *thr_get(struct fsl_replay *r, uint32_t tid)
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
	have = !fsl_meta__ext4_geometry(m, &eg);
	g->block_size = eg.block_size;
	g->blocks_count = eg.blocks_count;
	g->blocks_per_group = eg.blocks_per_group;
	g->inodes_per_group = eg.inodes_per_group;
	g->first_data_block = eg.first_data_block;
	g->ngroups = eg.group_count;
	g->inode_size = eg.inode_size ? eg.inode_size : 256;
	g->first_ino = eg.first_ino ? eg.first_ino : 11;
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
	if (v) {
		int maj = 0, min = 0;

		sscanf(v, "%d.%d", &maj, &min);
		r->new_cr_names = maj > 6 || (maj == 6 && min >= 5);
	} else {
		r->new_cr_names = 1;
	}
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
	if (!r->have_geom)
		note(r, "no ext4 geometry in the trace (ext4.block_size, blocks_count, "
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
		note(r, "no start block bitmap in the trace: the model starts from an empty "
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
		note(r, "no start inode bitmap in the trace%s", NULL);
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
		note(r, "no ext4.used_dirs in the trace: Orlov sees only root and "
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

static void sync_free_blocks(struct fsl_alloc *a, struct fsl_ialloc *ia, uint32_t ngroups)
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
		sync_free_blocks(r->ks, r->ia, r->g.ngroups);
	}

	for (i = 0; i < r->nscen; i++) {
		err = scen_init(r, &r->sc[i], i == 1);
		if (err)
			return err;
	}
	return 0;
}

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
	if (r->new_cr_names) {
		static const int map6[] = { FSL_PATH_CR0, FSL_PATH_CR1, FSL_PATH_CR1_5,
					    FSL_PATH_CR2, FSL_PATH_CR3 };

		return cr < 5 ? map6[cr] : -1;
	}
	return cr < 4 ? FSL_PATH_CR0 + (cr >= 2 ? cr + 1 : cr) : -1;
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
		for (i = 0; i < kq->len; i++) {
			q.logical = kq->logical + i;
			q.len = 1;
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
		fsl_alloc__set_stream_goal(r->ks, t->mb.result_group,
					   (uint32_t)t->mb.result_start);
	apply_pa_events(r, t, 1);
	for (i = 0; i < r->nscen; i++)
		scen_alloc(r, &r->sc[i], &q, kp, kl, i == 0);
	if (end > isz)
		map_put(&r->imeta, q.ino, (im & ~IM_SIZE_MASK) | (end & IM_SIZE_MASK));
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
	t = thr_get(r, ev->tid);
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
			map_put(&r->imeta, e->ino, im);
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
	struct thr *t = r->have_geom ? thr_get(r, ev->tid) : NULL;
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
	t = thr_get(r, ev->tid);
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
	t = thr_get(r, ev->tid);
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
	struct thr *t = thr_get(r, tid);

	if (t && t->last_htid)
		return t->last_htid;
	return r->nrc ? r->rc[r->nrc - 1].tid + 1 : 0;
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

static int h_request_inode(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_inode *e = (const void *)ev;
	struct thr *t;

	if (!r->have_geom)
		return 0;
	t = thr_get(r, ev->tid);
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
	t = thr_get(r, ev->tid);
	if (!t)
		return -ENOMEM;
	q.dir = e->dir;
	q.is_dir = is_dir;
	if (t->path_len && ev->ts >= t->path_ts && ev->ts <= t->path_end + MS &&
	    (t->path_op == FSL_OP_MKDIR || t->path_op == FSL_OP_CREATE ||
	     t->path_op == FSL_OP_MKNOD || t->path_op == FSL_OP_SYMLINK))
		q.name = last_component(t->path, t->path_len, &q.name_len);
	existing = !(imeta(r, e->dir) & IM_CREATED);
	sync_free_blocks(r->ks, r->ia, r->g.ngroups);
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
	fsl_ialloc__apply(r->ia, e->dir, e->ino, is_dir);
	map_put(&r->imeta, e->ino, IM_CREATED |
		((uint64_t)(is_dir ? 2 : S_ISREG(e->mode) ? 1 : 3) << IM_TYPE_SHIFT));
	/* free-running inode allocators */
	for (i = 0; i < r->nscen; i++) {
		struct scen *s = &r->sc[i];
		struct fsl_ialloc_req fq = q;
		struct fsl_ialloc_res fm;

		if (!s->fia)
			continue;
		if (map_get(&s->ino_map, e->dir, &mdir))
			fq.dir = mdir;
		if (s->fr)
			sync_free_blocks(s->fr, s->fia, r->g.ngroups);
		if (!fsl_ialloc__allocate(s->fia, &fq, &fm)) {
			map_put(&s->ino_map, e->ino, fm.ino);
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
					      map_get(&r->sc[i].ino_map, e->ino, &mino) ? mino
											: e->ino);
	return 0;
}

/* ---- journal inputs ---- */

static struct jin *jin_push(struct fsl_replay *r)
{
	if (r->njin == r->cjin) {
		size_t n = r->cjin ? r->cjin * 2 : 4096;
		struct jin *p = realloc(r->jin, n * sizeof(*p));

		if (!p)
			return NULL;
		r->jin = p;
		r->cjin = n;
	}
	memset(&r->jin[r->njin], 0, sizeof(struct jin));
	return &r->jin[r->njin++];
}

static int h_journal_start(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_ext4_journal_start *e = (const void *)ev;
	struct thr *t = thr_get(r, ev->tid);

	if (!t)
		return -ENOMEM;
	t->has_js = 1;
	t->js_ts = ev->ts;
	t->js_ino = e->ino;
	t->js_type = e->type;
	return 0;
}

static int h_handle_start(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_handle_start *e = (const void *)ev;
	struct thr *t = thr_get(r, ev->tid);
	struct jin *j;

	if (!t)
		return -ENOMEM;
	j = jin_push(r);
	if (!j)
		return -ENOMEM;
	j->ts = ev->ts;
	j->thread = ev->tid;
	j->ktid = e->tid;
	j->credits = e->requested_blocks > 0 ? (uint32_t)e->requested_blocks : 1;
	j->type = (uint8_t)e->type;
	if (t->has_js && ev->ts >= t->js_ts && ev->ts - t->js_ts < 600000 * MS) {
		j->rec_wait = ev->ts - t->js_ts;
		j->has_wait = 1;
		j->ts = t->js_ts;	/* the handle asked at journal-start time */
		if (t->js_ino && r->g.inode_size && r->g.block_size >= r->g.inode_size)
			j->key = 1 + (t->js_ino - 1) / (r->g.block_size / r->g.inode_size);
	}
	/* an inode-dirtying handle (EXT4_HT_INODE) of a task reading (atime) */
	j->reader = e->type == 1 &&
		    (t->path_op == FSL_OP_STAT || t->path_op == FSL_OP_READDIR ||
		     t->path_op == FSL_OP_OPEN);
	t->has_js = 0;
	t->last_htid = e->tid;
	t->last_hidx = (int64_t)(r->njin - 1);
	return 0;
}

static int h_handle_stats(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_handle_stats *e = (const void *)ev;
	struct thr *t = thr_get(r, ev->tid);

	if (t && t->last_hidx >= 0 && (size_t)t->last_hidx < r->njin &&
	    r->jin[t->last_hidx].ktid == e->tid && e->dirtied_blocks >= 0) {
		r->jin[t->last_hidx].dirtied = (uint32_t)e->dirtied_blocks;
		r->jin[t->last_hidx].has_stats = 1;
	}
	return 0;
}

static struct rcommit *rc_find(struct fsl_replay *r, uint32_t tid, int create)
{
	size_t i;

	for (i = r->nrc; i-- > 0 && i + 16 >= r->nrc;)
		if (r->rc[i].tid == tid)
			return &r->rc[i];
	if (!create)
		return NULL;
	if (r->nrc == r->crc) {
		size_t n = r->crc ? r->crc * 2 : 256;
		struct rcommit *p = realloc(r->rc, n * sizeof(*p));

		if (!p)
			return NULL;
		r->rc = p;
		r->crc = n;
	}
	memset(&r->rc[r->nrc], 0, sizeof(struct rcommit));
	r->rc[r->nrc].tid = tid;
	return &r->rc[r->nrc++];
}

static int h_commit(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_commit *e = (const void *)ev;
	struct rcommit *rc = rc_find(r, e->transaction, ev->type == FSL_EV_JBD2_START_COMMIT);
	int i;

	if (!rc)
		return 0;
	switch (ev->type) {
	case FSL_EV_JBD2_START_COMMIT:
		rc->start = ev->ts;
		rc->sync = e->sync_commit;
		break;
	case FSL_EV_JBD2_COMMIT_LOCKING:
		rc->locking = ev->ts;
		break;
	case FSL_EV_JBD2_COMMIT_FLUSHING:
		rc->flushing = ev->ts;
		break;
	case FSL_EV_JBD2_COMMIT_LOGGING:
		rc->logging = ev->ts;
		break;
	case FSL_EV_JBD2_END_COMMIT:
		rc->end = ev->ts;
		/* blocks this transaction freed are allocatable from now on */
		if (r->have_geom) {
			fsl_alloc__commit(r->ks, e->transaction);
			for (i = 0; i < r->nscen; i++)
				if (r->sc[i].fr)
					fsl_alloc__commit(r->sc[i].fr, e->transaction);
		}
		break;
	}
	return 0;
}

static int h_run_stats(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_jbd2_run_stats *e = (const void *)ev;
	struct rcommit *rc = rc_find(r, e->tid, 0);

	if (rc) {
		rc->have_stats = 1;
		rc->blocks = e->blocks;
		rc->blocks_logged = e->blocks_logged;
		rc->running_j = e->running;
	}
	return 0;
}

static int h_checkpoint(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;

	r->rec_checkpoints++;
	return 0;
}

static int h_sync_file(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	struct jin *j = jin_push(r);

	if (!j)
		return -ENOMEM;
	j->ts = ev->ts;
	j->thread = ev->tid;
	j->kind = 1;
	return 0;
}

static void dir_account(struct fsl_replay *r, const char *p, size_t n)
{
	size_t nl, dl;
	const char *name = last_component(p, n, &nl);
	uint64_t h = 1469598103934665603ull;
	uint32_t i;

	dl = (size_t)(name - p);
	for (i = 0; i < dl; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	for (i = 0; i < r->ndirs; i++)
		if (r->dirs[i].h == h)
			break;
	if (i == r->ndirs) {
		if (r->ndirs == r->cdirs) {
			uint32_t c2 = r->cdirs ? r->cdirs * 2 : 64;
			struct dirent_acc *d = realloc(r->dirs, c2 * sizeof(*d));

			if (!d)
				return;
			r->dirs = d;
			r->cdirs = c2;
		}
		r->dirs[r->ndirs++] = (struct dirent_acc){ h, 0, 0 };
	}
	r->dirs[i].n++;
	r->dirs[i].bytes += nl;
}

static int h_dirop(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;
	const struct fsl_ev_dirop *e = (const void *)ev;
	struct thr *t = thr_get(r, ev->tid);
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
	if (e->ret >= 0 && n && (e->op == FSL_OP_CREATE || e->op == FSL_OP_MKDIR ||
				 e->op == FSL_OP_MKNOD || e->op == FSL_OP_SYMLINK))
		dir_account(r, t->path, n);
	if (e->op == FSL_OP_SYNC || e->op == FSL_OP_SYNCFS) {
		struct jin *j = jin_push(r);

		if (!j)
			return -ENOMEM;
		j->ts = ev->ts;
		j->thread = ev->tid;
		j->kind = 2;
	}
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
		map_put(&r->inflight, key, ev->ts | (e->flags & FSL_RQ_WRITE ? 1ull << 63 : 0));
		for (i = 0; i < r->nscen; i++)
			if (r->sc[i].disk)
				fsl_disk__service(r->sc[i].disk, e->sector,
						  e->bytes ? e->bytes : e->nr_sector * 512,
						  !!(e->flags & FSL_RQ_WRITE));
	} else if (ev->type == FSL_EV_BLOCK_RQ_COMPLETE) {
		if (!map_get(&r->inflight, key, &t0) || !t0)
			return 0;
		map_put(&r->inflight, key, 0);
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

static int h_any(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_replay *r = c->priv;

	if (!r->first_ts)
		r->first_ts = ev->ts;
	r->last_ts = ev->ts;
	return 0;
}

/* ---- end: journal models, free-run summaries ---- */

static void journal_costs(struct fsl_replay *r, const struct fsl_disk_profile *p,
			  struct fsl_journal_cfg *jc)
{
	uint64_t lg = 0, lb = 0, lk = 0, nk = 0;
	size_t i;

	/* calibrated on the recorded commits */
	for (i = 0; i < r->nrc; i++) {
		const struct rcommit *c = &r->rc[i];

		if (c->logging && c->end > c->logging && c->blocks_logged) {
			lg += c->end - c->logging;
			lb += c->blocks_logged;
		}
		if (c->locking && c->flushing > c->locking) {
			lk += c->flushing - c->locking;
			nk++;
		}
	}
	jc->write_block_ns = lb ? lg / lb : 50000;
	jc->flush_ns = 0;
	jc->locked_ns = nk ? lk / nk : 20000;
	/*
	 * a checkpoint writes its buffers in batches, many in flight: cost a
	 * block at the device's recorded throughput, not at one request's latency
	 */
	jc->checkpoint_block_ns = r->rec_bytes ? (uint64_t)((double)r->busy_ns * jc->block_size /
							    (double)r->rec_bytes) : 100000;
	if (p && p->transfer_mbs) {
		double bs = jc->block_size, rot = p->rpm ? 60000.0 / p->rpm : 0;
		double fsb = (double)r->g.blocks_count * bs;

		jc->write_block_ns = (uint64_t)(bs / (p->transfer_mbs * 1e6) * 1e9);
		if (p->rotational) {
			jc->flush_ns = (uint64_t)((p->cmd_overhead_ms + rot / 2) * 1e6);
			jc->checkpoint_block_ns = (uint64_t)((p->cmd_overhead_ms +
				fsl_disk_seek_ms(p, (uint64_t)(fsb / 3)) + rot / 2) * 1e6) +
				jc->write_block_ns;
		} else {
			jc->flush_ns = (uint64_t)(p->ssd_write_us * 1e3);
			jc->checkpoint_block_ns = (uint64_t)(p->ssd_write_us * 1e3) +
						  jc->write_block_ns;
		}
	} else if (p) {		/* ram */
		jc->write_block_ns = jc->flush_ns = jc->checkpoint_block_ns = 0;
	}
}

static void run_journal(struct fsl_replay *r, struct scen *s, int base)
{
	struct fsl_journal_cfg jc = { 0 };
	uint32_t first_tid = 1, prev_m = 0, prev_k = 0;
	uint64_t w, shadow0, avg_dirtied[16] = { 0 }, n_dirtied[16] = { 0 }, last_ts = 0;
	struct u64map shift = { 0 };
	size_t i;
	int err = 0, cls;

	jc.journal_blocks = r->g.journal_blocks;
	jc.block_size = r->g.block_size ? r->g.block_size : 4096;
	if (!base && r->w_journal_bytes)
		jc.journal_blocks = r->w_journal_bytes / (r->w_block_size ? r->w_block_size
									   : jc.block_size);
	if (!base && r->w_block_size) {
		/* same bytes of journal, counted in the new block size */
		if (!r->w_journal_bytes)
			jc.journal_blocks = jc.journal_blocks * jc.block_size / r->w_block_size;
		jc.block_size = r->w_block_size;
	}
	jc.commit_ns = s->t.commit_ns;
	if (r->max_txn && r->g.journal_blocks)
		jc.max_txn_blocks = (uint32_t)(jc.journal_blocks * r->max_txn / r->g.journal_blocks);
	journal_costs(r, base ? NULL : s->prof, &jc);
	if (jc.journal_blocks < 1024)
		return;
	for (i = 0; i < r->njin; i++)
		if (r->jin[i].kind == 0) {
			first_tid = r->jin[i].ktid;
			break;
		}
	s->j = fsl_journal__new(&jc, first_tid, &err);
	if (!s->j)
		return;
	s->jc = jc;
	/* handles whose stats were lost: the mean dirtied count of their type */
	for (i = 0; i < r->njin; i++)
		if (r->jin[i].kind == 0 && r->jin[i].has_stats) {
			avg_dirtied[r->jin[i].type & 15] += r->jin[i].dirtied;
			n_dirtied[r->jin[i].type & 15]++;
		}
	/*
	 * Closed loop: a task that the model makes wait longer (or shorter)
	 * than the kernel did issues its later requests that much later.
	 */
	for (i = 0; i < r->njin; i++) {
		const struct jin *in = &r->jin[i];
		uint32_t d = in->dirtied, mt;
		uint64_t off = 0, ts;

		map_get(&shift, (uint64_t)in->thread + 1, &off);
		ts = in->ts + off;
		if (ts < last_ts)	/* keep the model's clock monotonic */
			ts = last_ts;
		last_ts = ts;
		if (in->kind == 1 || in->kind == 2) {
			fsl_journal__force(s->j, ts, in->kind == 1 ? FSL_COMMIT_FSYNC
								 : FSL_COMMIT_SYNC, &w);
			continue;
		}
		if (s->noatime && in->reader)
			continue;
		if (!in->has_stats)
			d = n_dirtied[in->type & 15] ?
			    (uint32_t)(avg_dirtied[in->type & 15] / n_dirtied[in->type & 15]) :
			    FSL_JOURNAL_UNKNOWN;
		shadow0 = fsl_journal__stats(s->j)->stall_ns[FSL_JWAIT_SHADOW];
		mt = fsl_journal__handle(s->j, ts, in->credits, d, in->key, &w, &cls);
		if (w > in->rec_wait)
			map_put(&shift, (uint64_t)in->thread + 1, off + (w - in->rec_wait));
		/*
		 * the recorded wait (journal start -> handle start) covers waits in
		 * start_this_handle only; a shadow wait comes later, inside the handle
		 */
		w -= fsl_journal__stats(s->j)->stall_ns[FSL_JWAIT_SHADOW] - shadow0;
		if (base) {
			if (i > 0 && prev_k) {
				r->jr.same_txn_n++;
				r->jr.same_txn += (prev_k == in->ktid) == (prev_m == mt);
			}
			prev_k = in->ktid;
			prev_m = mt;
			if (in->has_wait) {
				int rec = in->rec_wait > LONG_WAIT_NS, pred = w > LONG_WAIT_NS;

				r->jr.waits_rec += rec;
				r->jr.waits_pred += pred;
				r->jr.waits_tp += rec && pred;
				r->jr.rec_wait_ms_total += in->rec_wait / 1e6;
			}
			r->jr.handles++;
		}
	}
	fsl_journal__finish(s->j, r->last_ts > last_ts ? r->last_ts : last_ts);
	map_free(&shift);
}

static void journal_summary(struct fsl_replay *r)
{
	struct fsl_replay_journal *jr = &r->jr;
	const struct fsl_journal_stats *st;
	double ph[3] = { 0 }, pp[3] = { 0 };
	uint64_t nph = 0, npp = 0;
	uint64_t max_txn = r->max_txn ? r->max_txn : r->g.journal_blocks / 3;
	size_t i;

	for (i = 0; i < r->nrc; i++) {
		const struct rcommit *c = &r->rc[i];
		int reason;

		if (!c->start)
			continue;
		jr->commits_recorded++;
		if (c->sync)
			reason = FSL_COMMIT_FSYNC;
		else if (c->have_stats && max_txn &&
			 (c->blocks * 5 >= max_txn * 4 || c->blocks + 128 >= max_txn))
			/* full: the next handle's credits would not have fitted */
			reason = FSL_COMMIT_SIZE;
		else if (c->have_stats && r->hz &&
			 c->running_j * 1000000000ull / r->hz >= r->t.commit_ns * 9 / 10)
			reason = FSL_COMMIT_TIMER;
		else
			reason = FSL_COMMIT_SYNC;	/* forced: sync, log space, unmount */
		jr->rec_by_reason[reason]++;
		if (c->locking && c->flushing && c->logging && c->end) {
			ph[0] += (c->flushing - c->locking) / 1e6;
			ph[1] += (c->logging - c->flushing) / 1e6;
			ph[2] += (c->end - c->logging) / 1e6;
			nph++;
		}
	}
	jr->checkpoints_recorded = r->rec_checkpoints;
	if (!r->sc[0].j)
		return;
	st = fsl_journal__stats(r->sc[0].j);
	jr->commits_predicted = st->commits;
	memcpy(jr->pred_by_reason, st->commits_by_reason, sizeof(jr->pred_by_reason));
	jr->checkpoints_predicted = st->checkpoints;
	memcpy(jr->stall_ns, st->stall_ns, sizeof(jr->stall_ns));
	for (i = 0; i < fsl_journal__ncommits(r->sc[0].j); i++) {
		const struct fsl_journal_commit *c = fsl_journal__commit_at(r->sc[0].j, i);

		pp[0] += (c->locked_end_ns - c->start_ns) / 1e6;
		pp[1] += (c->flush_end_ns - c->locked_end_ns) / 1e6;
		pp[2] += (c->end_ns - c->flush_end_ns) / 1e6;
		npp++;
	}
	for (i = 0; i < 3; i++) {
		jr->rec_phase_ms[i] = nph ? ph[i] / nph : 0;
		jr->pred_phase_ms[i] = npp ? pp[i] / npp : 0;
	}
}

static void freerun_summary(struct fsl_replay *r)
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

			map_get(&s->ino_map, ino, &mino);
			if (!first || !r->g.blocks_per_group || !r->g.inodes_per_group)
				continue;
			dg = (first - r->g.first_data_block) / r->g.blocks_per_group;
			ig = (mino - 1) / r->g.inodes_per_group;
			s->idist_sum += dg > ig ? dg - ig : ig - dg;
			s->idist_n++;
		}
	}
}

static void dir_summary(struct fsl_replay *r)
{
	uint32_t i;
	int k;

	for (k = 0; k < r->nscen; k++) {
		struct scen *s = &r->sc[k];

		s->dir_blocks = 0;
		for (i = 0; i < r->ndirs; i++)
			s->dir_blocks += fsl_dir_blocks(r->dirs[i].n, r->dirs[i].bytes,
							s->dir_bs ? s->dir_bs : 4096);
	}
}

/* Does the state the replay kept agree with the bitmap read after the run? */
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

static int replay_end(struct fsl_consumer *c, const struct fsl_meta *m)
{
	struct fsl_replay *r = c->priv;
	int i;

	end_state_check(r, m);
	if (r->ninflight)
		r->busy_ns += r->last_ts - r->busy_start;
	if (!r->g.journal_blocks)
		note(r, "no ext4.journal_blocks in the trace: journal model skipped%s", NULL);
	for (i = 0; i < r->nscen; i++)
		run_journal(r, &r->sc[i], i == 0);
	journal_summary(r);
	freerun_summary(r);
	dir_summary(r);
	if (!r->njin && !r->res.blk_requests && !r->res.ino_requests)
		note(r, "the trace has no allocation or journal events (record with -e alloc,journal)%s",
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

		err = ev_range(r, ev, "inode", e->ino, ni, ki);
		if (!err)
			err = ev_range(r, ev, "goal block", e->goal, nb, kb);
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
	r->cons.handlers[FSL_EV_EXT4_REQUEST_BLOCKS] = h_request_blocks;
	r->cons.handlers[FSL_EV_EXT4_ALLOCATE_BLOCKS] = h_allocate_blocks;
	r->cons.handlers[FSL_EV_EXT4_MBALLOC_ALLOC] = h_mballoc;
	r->cons.handlers[FSL_EV_EXT4_MBALLOC_PREALLOC] = h_mballoc;
	r->cons.handlers[FSL_EV_EXT4_MB_NEW_INODE_PA] = h_pa;
	r->cons.handlers[FSL_EV_EXT4_MB_NEW_GROUP_PA] = h_pa;
	r->cons.handlers[FSL_EV_EXT4_MB_RELEASE_INODE_PA] = h_pa;
	r->cons.handlers[FSL_EV_EXT4_MB_RELEASE_GROUP_PA] = h_pa;
	r->cons.handlers[FSL_EV_EXT4_MBALLOC_FREE] = h_mballoc_free;
	r->cons.handlers[FSL_EV_EXT4_MB_BITMAP_LOAD] = h_group_load;
	r->cons.handlers[FSL_EV_EXT4_MB_BUDDY_BITMAP_LOAD] = h_group_load;
	r->cons.handlers[FSL_EV_EXT4_REQUEST_INODE] = h_request_inode;
	r->cons.handlers[FSL_EV_EXT4_ALLOCATE_INODE] = h_allocate_inode;
	r->cons.handlers[FSL_EV_EXT4_FREE_INODE] = h_free_inode;
	r->cons.handlers[FSL_EV_EXT4_JOURNAL_START_INODE] = h_journal_start;
	r->cons.handlers[FSL_EV_EXT4_JOURNAL_START_SB] = h_journal_start;
	r->cons.handlers[FSL_EV_JBD2_HANDLE_START] = h_handle_start;
	r->cons.handlers[FSL_EV_JBD2_HANDLE_STATS] = h_handle_stats;
	r->cons.handlers[FSL_EV_JBD2_START_COMMIT] = h_commit;
	r->cons.handlers[FSL_EV_JBD2_COMMIT_LOCKING] = h_commit;
	r->cons.handlers[FSL_EV_JBD2_COMMIT_FLUSHING] = h_commit;
	r->cons.handlers[FSL_EV_JBD2_COMMIT_LOGGING] = h_commit;
	r->cons.handlers[FSL_EV_JBD2_END_COMMIT] = h_commit;
	r->cons.handlers[FSL_EV_JBD2_RUN_STATS] = h_run_stats;
	r->cons.handlers[FSL_EV_JBD2_CHECKPOINT] = h_checkpoint;
	r->cons.handlers[FSL_EV_EXT4_SYNC_FILE_ENTER] = h_sync_file;
	r->cons.handlers[FSL_EV_DIROP] = h_dirop;
	r->cons.handlers[FSL_EV_BLOCK_RQ_ISSUE] = h_block;
	r->cons.handlers[FSL_EV_BLOCK_RQ_COMPLETE] = h_block;
	check_handlers(r);
	return r;
}

void fsl_replay__free(struct fsl_replay *r)
{
	size_t i;

	if (!r)
		return;
	fsl_alloc__free(r->ks);
	fsl_ialloc__free(r->ia);
	for (i = 0; i < NSCEN; i++) {
		fsl_alloc__free(r->sc[i].fr);
		fsl_ialloc__free(r->sc[i].fia);
		fsl_journal__free(r->sc[i].j);
		fsl_disk__free(r->sc[i].disk);
		map_free(&r->sc[i].ino_map);
	}
	map_free(&r->imeta);
	map_free(&r->inflight);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->thr);
	free(r->jin);
	free(r->rc);
	free(r->dirs);
	free(r);
}

struct fsl_consumer *fsl_replay__consumer(struct fsl_replay *r)
{
	return &r->cons;
}

const struct fsl_replay_result *fsl_replay__result(const struct fsl_replay *r)
{
	return &r->res;
}

const struct fsl_replay_journal *fsl_replay__journal(const struct fsl_replay *r)
{
	return &r->jr;
}

/* ---- output ---- */

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static double scen_extents(const struct scen *s, uint64_t *files)
{
	size_t idx = 0;
	uint64_t ino, n = 0, sum = 0;
	unsigned int e;

	if (!s->fr)
		return 0;
	while (fsl_alloc__inode_next(s->fr, &idx, &ino, &e)) {
		sum += e;
		n++;
	}
	if (files)
		*files = n;
	return n ? (double)sum / n : 0;
}

static void json_scen(const struct fsl_replay *r, const struct scen *s, struct fsl_json *j)
{
	const struct fsl_journal_stats *st = s->j ? fsl_journal__stats(s->j) : NULL;
	uint64_t files = 0;
	int k;

	fsl_json__obj_begin(j);
	if (st) {
		fsl_json__kv_u64(j, "journal_blocks", s->jc.journal_blocks);
		fsl_json__kv_double(j, "commit_s", s->jc.commit_ns / 1e9);
		fsl_json__kv_u64(j, "commits", st->commits);
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
	}
	if (s->fr) {
		fsl_json__kv_double(j, "extents_per_file", scen_extents(s, &files));
		fsl_json__kv_u64(j, "files", files);
		fsl_json__kv_u64(j, "alloc_failures", s->alloc_fail);
		fsl_json__kv_double(j, "inode_to_data_groups",
				    s->idist_n ? (double)s->idist_sum / s->idist_n : 0);
	}
	fsl_json__kv_u64(j, "dir_blocks", s->dir_blocks);
	fsl_json__kv_u64(j, "dir_block_size", s->dir_bs);
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

	fsl_json__init(&j, f, 1);
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "schema", 1);
	fsl_json__key(&j, "notes");
	fsl_json__arr_begin(&j);
	for (i = 0; i < r->nnotes; i++)
		fsl_json__str(&j, r->notes[i]);
	fsl_json__arr_end(&j);
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
		fsl_json__obj_end(&j);
	}
	fsl_json__obj_end(&j);	/* fidelity */

	fsl_json__key(&j, "journal");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "handles", jr->handles);
	fsl_json__kv_u64(&j, "commits_recorded", jr->commits_recorded);
	fsl_json__kv_u64(&j, "commits_predicted", jr->commits_predicted);
	fsl_json__kv_double(&j, "commit_count_error_pct",
			    jr->commits_recorded ?
			    100.0 * ((double)jr->commits_predicted - (double)jr->commits_recorded) /
			    (double)jr->commits_recorded : 0);
	fsl_json__key(&j, "commits_by_reason_recorded");
	fsl_json__obj_begin(&j);
	for (k = 0; k < FSL_COMMIT__MAX; k++)
		fsl_json__kv_u64(&j, fsl_commit_reason_name(k), jr->rec_by_reason[k]);
	fsl_json__obj_end(&j);
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
	fsl_json__kv_u64(&j, "checkpoints_recorded", jr->checkpoints_recorded);
	fsl_json__kv_u64(&j, "checkpoints_predicted", jr->checkpoints_predicted);
	fsl_json__key(&j, "stall_ms_predicted");
	fsl_json__obj_begin(&j);
	for (k = 0; k < FSL_JWAIT__MAX; k++)
		fsl_json__kv_double(&j, fsl_jwait_name(k), jr->stall_ns[k] / 1e6);
	fsl_json__obj_end(&j);
	fsl_json__kv_double(&j, "handle_wait_ms_recorded", jr->rec_wait_ms_total);
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
		fsl_json__kv_u64(&j, "commits", jr->commits_recorded);
		fsl_json__kv_u64(&j, "checkpoints", jr->checkpoints_recorded);
		fsl_json__kv_double(&j, "extents_per_file", s->fr_extents_kernel);
		fsl_json__kv_double(&j, "handle_wait_ms", jr->rec_wait_ms_total);
		fsl_json__kv_u64(&j, "requests", r->rec_rqs);
		fsl_json__kv_double(&j, "device_busy_ms", r->busy_ns / 1e6);
		fsl_json__obj_end(&j);
		fsl_json__key(&j, "baseline");
		json_scen(r, &r->sc[0], &j);
		fsl_json__key(&j, "predicted");
		json_scen(r, &r->sc[1], &j);
		fsl_json__obj_end(&j);
	} else {
		fsl_json__null(&j);
	}
	fsl_json__obj_end(&j);
	fsl_json__newline(&j);
	return fsl_json__error(&j);
}

int fsl_replay__write_text(const struct fsl_replay *r, FILE *f)
{
	const struct fsl_replay_result *s = &r->res;
	const struct fsl_replay_journal *jr = &r->jr;
	unsigned int i;
	int k;

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
	}
	fprintf(f, "Journal: %llu handles; commits recorded %llu, predicted %llu; same transaction "
		"boundaries %.1f%%; waits > 10 ms recorded %llu, predicted %llu (precision %.0f%%, "
		"recall %.0f%%); checkpoints recorded %llu, predicted %llu\n",
		(unsigned long long)jr->handles, (unsigned long long)jr->commits_recorded,
		(unsigned long long)jr->commits_predicted, pct(jr->same_txn, jr->same_txn_n),
		(unsigned long long)jr->waits_rec, (unsigned long long)jr->waits_pred,
		pct(jr->waits_tp, jr->waits_pred), pct(jr->waits_tp, jr->waits_rec),
		(unsigned long long)jr->checkpoints_recorded,
		(unsigned long long)jr->checkpoints_predicted);
	fprintf(f, "  phases (ms, mean): locked %.2f/%.2f, flushing %.2f/%.2f, logging %.2f/%.2f "
		"(recorded/predicted)\n", jr->rec_phase_ms[0], jr->pred_phase_ms[0],
		jr->rec_phase_ms[1], jr->pred_phase_ms[1], jr->rec_phase_ms[2], jr->pred_phase_ms[2]);
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
		if (bs && ws) {
			fprintf(f, "  commits          %8llu | %8llu | %8llu\n",
				(unsigned long long)jr->commits_recorded,
				(unsigned long long)bs->commits, (unsigned long long)ws->commits);
			fprintf(f, "  checkpoints      %8llu | %8llu | %8llu\n",
				(unsigned long long)jr->checkpoints_recorded,
				(unsigned long long)bs->checkpoints,
				(unsigned long long)ws->checkpoints);
			for (k = 0; k < FSL_JWAIT__MAX; k++)
				fprintf(f, "  %-20s stall   - | %8.1f ms | %8.1f ms\n",
					fsl_jwait_name(k), bs->stall_ns[k] / 1e6, ws->stall_ns[k] / 1e6);
		}
		fprintf(f, "  extents per file %8.2f | %8.2f | %8.2f\n", s->fr_extents_kernel,
			scen_extents(b, NULL), scen_extents(w, NULL));
		fprintf(f, "  directory blocks        - | %8llu | %8llu (%u-byte blocks)\n",
			(unsigned long long)b->dir_blocks, (unsigned long long)w->dir_blocks,
			w->dir_bs);
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
