// SPDX-License-Identifier: GPL-2.0
/*
 * The replay consumer fed with in-memory events through fsl_session_dispatch:
 * a synthetic 4-group filesystem where the kernel's decisions are written by
 * hand, some equal to what ext4 would do and one deliberately not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "t.h"
#include "fslens/event.h"
#include "fslens/replay.h"
#include "fslens/session.h"
#include "../../analyzer/replay/replay_int.h"

#define S 1000000000ull

static const char *const kvs[][2] = {
	{ "ext4.block_size", "4096" },
	{ "ext4.blocks_count", "131072" },
	{ "ext4.blocks_per_group", "32768" },
	{ "ext4.inodes_per_group", "8192" },
	{ "ext4.group_count", "4" },
	{ "ext4.first_data_block", "0" },
	{ "ext4.first_ino", "11" },
	{ "ext4.inode_size", "256" },
	{ "ext4.flex_bg_size", "1" },
	{ "ext4.journal_blocks", "4096" },
	{ "ext4.hash_seed", "3f2a9c1e-7b44-4d2e-9a61-0c5b8e7d1f20" },
	{ "ext4.used_dirs", "2,0,0,0" },
	{ "host.kernel", "6.18.0" },
	{ "host.hz", "250" },
	{ "target.options", "rw,relatime" },
	{ NULL, NULL },
};

static const char *m_kv(const struct fsl_meta *m, const char *key)
{
	int i;

	for (i = 0; kvs[i][0]; i++)
		if (!strcmp(kvs[i][0], key))
			return kvs[i][1];
	return NULL;
}

static uint64_t blk_runs[3] = { 0, 1000, 131072 - 1000 };
static uint64_t ino_runs[3] = { 0, 11, 4 * 8192 - 11 };
static struct fsl_bitmap bbm = { FSL_BITMAP_BLOCK, FSL_BITMAP_START, 0, 131072, 3, blk_runs };
static struct fsl_bitmap ibm = { FSL_BITMAP_INODE, FSL_BITMAP_START, 1, 4 * 8192, 3, ino_runs };

static const struct fsl_bitmap *m_bitmap(const struct fsl_meta *m, unsigned int kind,
					 unsigned int when)
{
	if (when != FSL_BITMAP_START)
		return NULL;
	return kind == FSL_BITMAP_BLOCK ? &bbm : &ibm;
}

static struct fsl_consumer *cons[1];
static uint64_t now;

static void hdr(struct fsl_hdr *h, unsigned int type, size_t size, uint32_t tid)
{
	h->ts = now;
	h->pid = tid;
	h->tid = tid;
	h->type = (uint16_t)type;
	h->size = (uint16_t)size;
	h->cpu = 0;
}

static int alloc(uint32_t tid, uint64_t ino, uint32_t lblk, uint32_t len, uint64_t goal,
		 uint64_t pleft, uint32_t lleft, uint64_t kblock, int prealloc, uint16_t mbflags,
		 uint8_t cr, uint16_t groups, uint64_t new_group_pa)
{
	struct fsl_ev_ext4_alloc_blocks rq = { 0 }, al;
	struct fsl_ev_ext4_mballoc_alloc mb = { 0 };
	struct fsl_ev_ext4_pa pa = { 0 };
	int err = 0;

	hdr(&rq.hdr, FSL_EV_EXT4_REQUEST_BLOCKS, sizeof(rq), tid);
	rq.ino = ino;
	rq.logical = lblk;
	rq.len = len;
	rq.goal = goal;
	rq.pleft = pleft;
	rq.lleft = lleft;
	rq.flags = 0x20 | 0x400;	/* HINT_DATA | DELALLOC_RESERVED */
	err |= fsl_session_dispatch(cons, 1, &rq.hdr);
	if (new_group_pa) {
		hdr(&pa.hdr, FSL_EV_EXT4_MB_NEW_GROUP_PA, sizeof(pa), tid);
		pa.pa_pstart = new_group_pa;
		pa.pa_lstart = new_group_pa;
		pa.pa_len = 512;
		err |= fsl_session_dispatch(cons, 1, &pa.hdr);
	}
	hdr(&mb.hdr, prealloc ? FSL_EV_EXT4_MBALLOC_PREALLOC : FSL_EV_EXT4_MBALLOC_ALLOC,
	    sizeof(mb), tid);
	mb.ino = ino;
	mb.flags = mbflags;
	mb.cr = cr;
	mb.groups = groups;
	mb.found = prealloc ? 0 : 1;
	mb.result_group = (uint32_t)(kblock / 32768);
	mb.result_start = (int32_t)(kblock % 32768);
	mb.result_len = (int32_t)len;
	err |= fsl_session_dispatch(cons, 1, &mb.hdr);
	al = rq;
	hdr(&al.hdr, FSL_EV_EXT4_ALLOCATE_BLOCKS, sizeof(al), tid);
	al.block = kblock;
	err |= fsl_session_dispatch(cons, 1, &al.hdr);
	now += 1000;
	return err;
}

static int inode(uint32_t tid, uint64_t dir, uint64_t ino, uint16_t mode, const char *mkdir_name)
{
	struct fsl_ev_ext4_inode rq = { 0 }, al;
	char buf[sizeof(struct fsl_ev_dirop) + 64];
	struct fsl_ev_dirop *d = (void *)buf;
	int err = 0;

	if (mkdir_name) {
		memset(buf, 0, sizeof(buf));
		hdr(&d->hdr, FSL_EV_DIROP, fsl_dirop_size(strlen(mkdir_name), 0), tid);
		d->op = FSL_OP_MKDIR;
		d->lat_ns = 5000;
		d->path_len = (uint16_t)strlen(mkdir_name);
		memcpy(d->paths, mkdir_name, strlen(mkdir_name));
		err |= fsl_session_dispatch(cons, 1, &d->hdr);
	}
	hdr(&rq.hdr, FSL_EV_EXT4_REQUEST_INODE, sizeof(rq), tid);
	rq.dir = dir;
	rq.mode = mode;
	err |= fsl_session_dispatch(cons, 1, &rq.hdr);
	al = rq;
	hdr(&al.hdr, FSL_EV_EXT4_ALLOCATE_INODE, sizeof(al), tid);
	al.ino = ino;
	err |= fsl_session_dispatch(cons, 1, &al.hdr);
	now += 1000;
	return err;
}

static int handle(uint32_t thr, uint32_t tid, uint64_t at, uint64_t waited)
{
	struct fsl_ev_ext4_journal_start js = { 0 };
	struct fsl_ev_jbd2_handle_start hs = { 0 };
	int err;

	now = at;
	hdr(&js.hdr, FSL_EV_EXT4_JOURNAL_START_INODE, sizeof(js), thr);
	js.blocks = 8;
	js.ino = 12;
	err = fsl_session_dispatch(cons, 1, &js.hdr);
	now = at + waited;
	hdr(&hs.hdr, FSL_EV_JBD2_HANDLE_START, sizeof(hs), thr);
	hs.tid = tid;
	hs.requested_blocks = 8;
	hs.type = 3;
	return err | fsl_session_dispatch(cons, 1, &hs.hdr);
}

static int commit(uint32_t tid, uint64_t at)
{
	static const unsigned int types[] = {
		FSL_EV_JBD2_START_COMMIT, FSL_EV_JBD2_COMMIT_LOCKING, FSL_EV_JBD2_COMMIT_FLUSHING,
		FSL_EV_JBD2_COMMIT_LOGGING, FSL_EV_JBD2_END_COMMIT,
	};
	struct fsl_ev_jbd2_commit c = { 0 };
	unsigned int i;
	int err = 0;

	for (i = 0; i < 5; i++) {
		now = at + i * 100000;
		hdr(&c.hdr, types[i], sizeof(c), 99);
		c.transaction = tid;
		err |= fsl_session_dispatch(cons, 1, &c.hdr);
	}
	return err;
}

TEST(replay_one_step_fidelity_synthetic)
{
	struct fsl_meta meta = { .kv = m_kv, .bitmap = m_bitmap };
	struct fsl_replay_opts o = { 0 };
	const struct fsl_replay_result *res;
	const struct fsl_replay_journal *jr;
	struct fsl_replay *r;
	FILE *f;
	char *buf = NULL;
	size_t n = 0;
	int err = 0;

	o.free_run = 1;
	r = fsl_replay__new(&o, &err);
	REQUIRE(r);
	cons[0] = fsl_replay__consumer(r);
	now = 1 * S;
	REQUIRE(cons[0]->begin(cons[0], &meta) == 0);
	CHECK_EQ(fsl_replay__nnotes(r), 0);
	/* inode 12 in the root: group 0, first free bit after the reserved 11 */
	CHECK_EQ(inode(100, 2, 12, S_IFREG | 0644, NULL), 0);
	/* mkdir /src: Orlov by hash("src") -> group 0 below average -> group 1 */
	CHECK_EQ(inode(100, 2, 8193, S_IFDIR | 0755, "src"), 0);
	/* a 2 MiB stream write: cr0 finds [1024,2048) (order 10) first, keeps 512 */
	CHECK_EQ(alloc(100, 12, 0, 512, 0, 0, 0, 1024, 0, 0x20 | 0x400 | 0x800, 0, 1, 0), 0);
	/* appending: find-by-goal at 1536 */
	CHECK_EQ(alloc(100, 12, 512, 512, 1536, 1535, 511, 1536, 0, 0x20 | 0x400 | 0x800 | 0x200,
		       0, 0, 0), 0);
	/* a small file: the model says 2048 (order-11 chunk); this "kernel" took 5000 */
	CHECK_EQ(alloc(100, 13, 0, 1, 0, 0, 0, 5000, 0, 0x20 | 0x400 | 0x80, 0, 1, 5000), 0);
	/* the next small file on the same CPU: from the kernel's group PA, 5001 */
	CHECK_EQ(alloc(100, 14, 0, 1, 0, 0, 0, 5001, 1, 0x20 | 0x400 | 0x80, 0, 0, 0), 0);
	/* journal: two handles in tid 5, commit at 6 s, one handle in tid 6 (waited 20 ms) */
	CHECK_EQ(handle(100, 5, 1 * S, 1000), 0);
	CHECK_EQ(handle(101, 5, 1 * S + S / 10, 1000), 0);
	CHECK_EQ(commit(5, 6 * S), 0);
	CHECK_EQ(handle(100, 6, 7 * S, 20000000), 0);
	CHECK_EQ(commit(6, 12 * S), 0);
	/* the trace goes on to 20 s: the model's timer for tid 6 fires before */
	{
		struct fsl_ev_block_rq rq = { 0 };

		now = 20 * S;
		hdr(&rq.hdr, FSL_EV_BLOCK_RQ_COMPLETE, sizeof(rq), 99);
		CHECK_EQ(fsl_session_dispatch(cons, 1, &rq.hdr), 0);
	}
	REQUIRE(cons[0]->end(cons[0], &meta) == 0);

	res = fsl_replay__result(r);
	CHECK_EQ(res->blk_requests, 4);
	CHECK_EQ(res->blk_exact, 3);
	CHECK_EQ(res->blk_by_path[FSL_PATH_CR0].n, 2);
	CHECK_EQ(res->blk_by_path[FSL_PATH_CR0].exact, 1);
	CHECK_EQ(res->blk_by_path[FSL_PATH_GOAL].exact, 1);
	CHECK_EQ(res->blk_by_path[FSL_PATH_GROUP_PA].exact, 1);
	REQUIRE(res->nblk_div == 1);
	CHECK_U64(res->blk_div[0].k_pblk, 5000);
	CHECK_U64(res->blk_div[0].m_pblk, 2048);
	CHECK_EQ(res->ino_requests, 2);
	CHECK_EQ(res->ino_exact, 2);
	CHECK_EQ(res->ino_files_existing, 1);
	CHECK_EQ(res->ino_by_how[FSL_IHOW_ORLOV_TOP].exact, 1);
	/* free run: the first two match, then the model's own choice for ino 13 */
	CHECK_EQ(res->fr_until_div, 2);
	jr = fsl_replay__journal(r);
	CHECK_EQ(jr->handles, 3);
	CHECK_EQ(jr->commits_recorded, 2);
	CHECK_EQ(jr->commits_predicted, 2);
	CHECK_EQ(jr->same_txn_n, 2);
	CHECK_EQ(jr->same_txn, 2);
	CHECK_EQ(jr->waits_rec, 1);

	f = open_memstream(&buf, &n);
	REQUIRE(f);
	CHECK_EQ(fsl_replay__write_json(r, f), 0);
	fclose(f);
	CHECK(buf && strstr(buf, "\"exact_pct\": 75"));
	CHECK(buf && strstr(buf, "\"commits_recorded\": 2"));
	CHECK(buf && strstr(buf, "\"whatif\": null"));
	free(buf);
	fsl_replay__free(r);
}

TEST(replay_opts_set_validation)
{
	struct fsl_replay_opts o = { 0 };
	const char *why;

	CHECK_EQ(fsl_replay_opts_add_set(&o, "journal_size=64M", &why), 0);
	CHECK_EQ(fsl_replay_opts_add_set(&o, "commit=30", &why), 0);
	CHECK_EQ(fsl_replay_opts_add_set(&o, "blocksize=4096", &why), 0);
	CHECK(fsl_replay_opts_add_set(&o, "blocksize=3000", &why) < 0 && why);
	CHECK(fsl_replay_opts_add_set(&o, "nosuch=1", &why) < 0 && why);
	CHECK(fsl_replay_opts_add_set(&o, "commit", &why) < 0);
	CHECK(fsl_replay_opts_add_set(&o, "delalloc=2", &why) < 0);
	CHECK_EQ(o.nset, 3);
	CHECK_STR(o.set_val[0], "64M");
}

static const char *no_kv(const struct fsl_meta *m, const char *key)
{
	return NULL;
}

/* A trace without ext4 metadata: notes, no crash, journal handles still counted. */
TEST(replay_without_metadata)
{
	struct fsl_meta meta = { .kv = no_kv };
	struct fsl_replay_opts o = { 0 };
	const char *why;
	struct fsl_replay *r;
	int err = 0;

	CHECK_EQ(fsl_replay_opts_add_set(&o, "journal_size=64M", &why), 0);
	o.disk = "sata-7200";
	r = fsl_replay__new(&o, &err);
	REQUIRE(r);
	cons[0] = fsl_replay__consumer(r);
	now = 1 * S;
	REQUIRE(cons[0]->begin(cons[0], &meta) == 0);
	CHECK_EQ(handle(100, 5, 1 * S, 1000), 0);
	CHECK_EQ(alloc(100, 12, 0, 1, 0, 0, 0, 5000, 0, 0x20, 0, 1, 0), 0);
	REQUIRE(cons[0]->end(cons[0], &meta) == 0);
	CHECK(fsl_replay__nnotes(r) >= 2);
	CHECK_EQ(fsl_replay__result(r)->blk_requests, 0);
	CHECK_EQ(fsl_replay__journal(r)->commits_predicted, 0);
	fsl_replay__free(r);
	o.disk = "floppy";
	CHECK(fsl_replay__new(&o, &err) == NULL && err == -EINVAL);
}

static const char *dev_kv(const struct fsl_meta *m, const char *key)
{
	(void)m;
	if (!strcmp(key, "target.dev"))
		return "7340032";	/* 7:0 */
	return m_kv(m, key);
}

/* Another filesystem's journal events (another loop device) are not the target's. */
TEST(replay_journal_events_of_other_devices)
{
	struct fsl_meta meta = { .kv = dev_kv, .bitmap = m_bitmap };
	struct fsl_replay_opts o = { 0 };
	struct fsl_ev_jbd2_checkpoint cp = { 0 };
	struct fsl_ev_jbd2_commit c = { 0 };
	const struct fsl_replay_journal *jr;
	struct fsl_replay *r;
	int err = 0, i;

	r = fsl_replay__new(&o, &err);
	REQUIRE(r);
	cons[0] = fsl_replay__consumer(r);
	now = 1 * S;
	REQUIRE(cons[0]->begin(cons[0], &meta) == 0);
	for (i = 0; i < 5; i++) {
		now = (2 + (uint64_t)i) * S;
		hdr(&cp.hdr, FSL_EV_JBD2_CHECKPOINT, sizeof(cp), 99);
		cp.dev = i < 2 ? 7340032 : 7340033;
		CHECK_EQ(fsl_session_dispatch(cons, 1, &cp.hdr), 0);
	}
	/* a commit of 7:1 with a tid of our own must not count as one of ours */
	now = 8 * S;
	hdr(&c.hdr, FSL_EV_JBD2_START_COMMIT, sizeof(c), 99);
	c.dev = 7340033;
	c.transaction = 5;
	CHECK_EQ(fsl_session_dispatch(cons, 1, &c.hdr), 0);
	hdr(&c.hdr, FSL_EV_JBD2_END_COMMIT, sizeof(c), 99);
	CHECK_EQ(fsl_session_dispatch(cons, 1, &c.hdr), 0);
	REQUIRE(cons[0]->end(cons[0], &meta) == 0);
	jr = fsl_replay__journal(r);
	CHECK_U64(jr->checkpoints_recorded, 2);
	CHECK_U64(jr->commits_recorded, 0);
	fsl_replay__free(r);
}

/*
 * A checkpointed block costs busy time x block size / bytes, in integers: a
 * valid trace with one 512-byte request of 9e18 ns made the double product
 * overflow uint64_t (UBSan float-cast-overflow at journal.c).
 */
TEST(replay_checkpoint_block_cost)
{
	/* 2 s busy for 8 MiB: 4096 / 8388608 of 2 s */
	CHECK_U64(rp_checkpoint_block_ns(2 * S, 4096, 8388608), 976562);
	CHECK_U64(rp_checkpoint_block_ns(2 * S, 1024, 8388608), 244140);
	/* no bytes recorded: the default */
	CHECK_U64(rp_checkpoint_block_ns(0, 4096, 0), 100000);
	CHECK_U64(rp_checkpoint_block_ns(5 * S, 4096, 0), 100000);
	/* less than a block seen: the whole busy time, never more */
	CHECK_U64(rp_checkpoint_block_ns(8999999999000000000ull, 4096, 512), 8999999999000000000ull);
	CHECK_U64(rp_checkpoint_block_ns(UINT64_MAX, 65536, 4096), UINT64_MAX);
	/* the product needs more than 64 bits; the result does not */
	CHECK_U64(rp_checkpoint_block_ns(UINT64_MAX, 4096, 8192), UINT64_MAX / 2);
	CHECK_U64(rp_checkpoint_block_ns(8999999999000000000ull, 4096, 1ull << 40),
		  33527612682ull);
}

/*
 * A what-if whose journal jbd2 would refuse (1 MiB at 4 KiB blocks: 256
 * blocks, below its 1024-block minimum) prints no predicted journal figure:
 * the recorded settings' figures stay, the change's column says why.
 */
TEST(replay_whatif_journal_below_minimum)
{
	struct fsl_meta meta = { .kv = m_kv, .bitmap = m_bitmap };
	struct fsl_replay_opts o = { 0 };
	struct fsl_replay *r;
	const char *why;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;
	int err = 0;

	CHECK_EQ(fsl_replay_opts_add_set(&o, "journal_size=1M", &why), 0);
	r = fsl_replay__new(&o, &err);
	REQUIRE(r);
	cons[0] = fsl_replay__consumer(r);
	now = 1 * S;
	REQUIRE(cons[0]->begin(cons[0], &meta) == 0);
	CHECK_EQ(handle(100, 5, 1 * S, 1000), 0);
	/* the timer rounded up to a whole second of jiffies: 6 s expiry, 7 s here */
	CHECK_EQ(commit(5, 7 * S), 0);
	REQUIRE(cons[0]->end(cons[0], &meta) == 0);
	f = open_memstream(&buf, &n);
	REQUIRE(f);
	CHECK_EQ(fsl_replay__write_text(r, f), 0);
	fclose(f);
	REQUIRE(buf);
	CHECK(strstr(buf, "commits                 1 |        1 | skipped\n") != NULL);
	CHECK(strstr(buf, "journal with the change skipped: a journal of 256 blocks is below "
		      "jbd2's 1024-block minimum") != NULL);
	CHECK(strstr(buf, "checkpoints      ") == NULL);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	REQUIRE(f);
	CHECK_EQ(fsl_replay__write_json(r, f), 0);
	fclose(f);
	REQUIRE(buf);
	CHECK(strstr(buf, "\"journal\": \"a journal of 256 blocks") != NULL);
	free(buf);
	fsl_replay__free(r);
}
