// SPDX-License-Identifier: GPL-2.0
/*
 * Readdir order vs inode order (layout.readdir) on a synthetic trace whose
 * figures are worked out by hand below: 256-byte inodes in 1 KiB blocks, so
 * inode-table block L(ino) = (ino - 1) / 4.
 */
#include "an_fixture.h"
#include "t.h"

static int feed_dirents(struct fsl_analysis *a, uint64_t ts, uint32_t pid, int32_t fd,
			const uint64_t *ino, unsigned int n)
{
	union {
		struct fsl_ev_dirents ev;
		char buf[sizeof(struct fsl_ev_dirents) + 8 * FSL_DIRENTS_MAX];
	} u;

	memset(&u, 0, sizeof(u));
	fx_hdr(&u.ev.hdr, FSL_EV_DIRENTS, fsl_dirents_size(n), ts, pid, pid);
	u.ev.fd = fd;
	u.ev.count = n;
	memcpy(u.ev.ino, ino, n * sizeof(*ino));
	return fsl_analysis__feed(a, &u.ev.hdr);
}

static struct fsl_analysis *run(struct fx_meta *fx)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	static const uint64_t a1[] = { 9, 2, 14 }, a2[] = { 5, 6, 21 };
	static const uint64_t b[] = { 3, 4 }, c1[] = { 30 }, c2[] = { 40, 33 };
	struct fsl_analysis *a = fsl_analysis__new(&o, NULL);

	if (!a || fsl_analysis__begin(a, &fx->m))
		return NULL;
	/* A: pid 10 fd 3, two records of one call, then the end (ret 0) */
	fx_dirop_fd(a, 100, 10, FSL_OP_READDIR, 1000, 200, 3, NULL);
	feed_dirents(a, 101, 10, 3, a1, 3);
	feed_dirents(a, 101, 10, 3, a2, 3);
	fx_dirop_fd(a, 120, 10, FSL_OP_READDIR, 1000, 0, 3, NULL);
	/* B: fd 4, never ended */
	feed_dirents(a, 130, 10, 4, b, 2);
	/* C1: fd 3 again, ended by an open that returns fd 3; C2 after it */
	feed_dirents(a, 140, 10, 3, c1, 1);
	fx_dirop(a, 150, 10, FSL_OP_OPEN, 1000, 3, "/d");
	feed_dirents(a, 160, 10, 3, c2, 2);
	/* another process's end of its fd 3 ends nothing of pid 10 */
	fx_dirop_fd(a, 170, 11, FSL_OP_READDIR, 1000, 0, 3, NULL);
	return a;
}

static void check_cost(const struct fsl_readdir_cost *c, uint64_t changes, uint64_t travel,
		       uint64_t first, uint64_t back)
{
	CHECK_U64(c->changes, changes);
	CHECK_U64(c->travel, travel);
	CHECK_U64(c->first_travel, first);
	CHECK_U64(c->backward, back);
}

TEST(layout_readdir_order_hand_computed)
{
	const struct fsl_readdir_dir *d;
	struct fsl_readdir_dir t;
	struct fsl_analysis *a;
	struct fx_meta fx;
	unsigned int n;
	int geo = -1;

	fx_init(&fx);
	fx_set(&fx, "ext4.inode_size", "256");
	fx_set(&fx, "ext4.block_size", "1024");
	a = run(&fx);
	REQUIRE(a);
	n = fsl_layout__readdir(fsl_analysis__layout(a), &d, &t, &geo);
	CHECK_EQ(n, 4);
	CHECK_EQ(geo, 1);
	REQUIRE(n == 4);
	/*
	 * A: 9 2 14 5 6 21 -> blocks 2 0 3 1 1 5. Ascending pairs 2->14,
	 * 5->6, 6->21: 3 of 5. Readdir order: changes 4, travel 2+3+2+0+4 =
	 * 11; first touches 2 0 3 1 5: travel 11, backward 2 (0<2, 1<3).
	 * Inode order 2 5 6 9 14 21 -> 0 1 1 2 3 5: changes 4, travel 5.
	 */
	CHECK_EQ(d[0].pid, 10);
	CHECK_EQ(d[0].fd, 3);
	CHECK_U64(d[0].entries, 6);
	CHECK_U64(d[0].pairs, 5);
	CHECK_U64(d[0].ascending, 3);
	CHECK_U64(d[0].blocks, 5);
	CHECK_EQ(d[0].flags & FSL_READDIR_OPEN, 0);
	check_cost(&d[0].rd, 4, 11, 11, 2);
	check_cost(&d[0].io, 4, 5, 5, 0);
	/* B: 3 4 -> blocks 0 0; still open. Sorted before C2 (same size, earlier) */
	CHECK_EQ(d[1].fd, 4);
	CHECK_U64(d[1].entries, 2);
	CHECK_U64(d[1].ascending, 1);
	CHECK_U64(d[1].blocks, 1);
	CHECK(d[1].flags & FSL_READDIR_OPEN);
	check_cost(&d[1].rd, 0, 0, 0, 0);
	/* C2: 40 33 -> blocks 9 8: one backward step; inode order 8 9 */
	CHECK_EQ(d[2].fd, 3);
	CHECK_U64(d[2].ts, 160);
	CHECK_U64(d[2].entries, 2);
	CHECK_U64(d[2].ascending, 0);
	CHECK(d[2].flags & FSL_READDIR_OPEN);
	CHECK_STR(d[2].path, "/d");	/* the open that returned its fd */
	CHECK_STR(d[0].path, "");
	check_cost(&d[2].rd, 1, 1, 1, 1);
	check_cost(&d[2].io, 1, 1, 1, 0);
	/* C1: a single entry, ended by the open that reused fd 3 */
	CHECK_U64(d[3].ts, 140);
	CHECK_U64(d[3].entries, 1);
	CHECK_U64(d[3].pairs, 0);
	CHECK_EQ(d[3].flags & FSL_READDIR_OPEN, 0);
	/* totals */
	CHECK_U64(t.entries, 11);
	CHECK_U64(t.pairs, 7);
	CHECK_U64(t.ascending, 4);
	/* distinct over all streams: {0,1,2,3,5} {0} {8,9} {7} -> 8, not 5+1+2+1 */
	CHECK_U64(t.blocks, 8);
	check_cost(&t.rd, 5, 12, 12, 3);
	check_cost(&t.io, 5, 6, 6, 0);
	fsl_analysis__free(a);
}

/* Without the geometry the order figures stay, the inode-table costs do not. */
TEST(layout_readdir_no_geometry)
{
	const struct fsl_readdir_dir *d;
	struct fsl_readdir_dir t;
	struct fsl_analysis *a;
	struct fx_meta fx;
	int geo = -1;

	fx_init(&fx);
	a = run(&fx);
	REQUIRE(a);
	CHECK_EQ(fsl_layout__readdir(fsl_analysis__layout(a), &d, &t, &geo), 4);
	CHECK_EQ(geo, 0);
	CHECK_U64(t.ascending, 4);
	CHECK_U64(t.pairs, 7);
	CHECK_U64(t.blocks, 0);
	check_cost(&t.rd, 0, 0, 0, 0);
	fsl_analysis__free(a);
}
