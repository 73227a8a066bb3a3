// SPDX-License-Identifier: GPL-2.0
/*
 * Who took the block a fragmented file expected (layout breaks), on a
 * synthetic trace laid out by hand on the geometry of a 512 MiB ext4 with
 * 4 KiB blocks (4 groups of 32768, flex_bg 16, 63 reserved GDT blocks: group
 * 0 holds superblock 0, descriptors 1, reserved 2-64, block bitmaps 65-68,
 * inode bitmaps 69-72, inode tables 73-2120; group 1 a backup at 32768).
 *
 * The answer is the block's owner at the end of the trace, what debugfs
 * icheck names, not whoever reserved it first: the case is inode 572
 * creating the group preallocation 33792+512 and 574 getting 33812 from it
 * after 573 (which expected it) had gone elsewhere.
 */
#include "an_fixture.h"
#include "t.h"

#define DATA	0x20	/* EXT4_MB_HINT_DATA */

static int fx_pa(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint64_t ino,
		 uint64_t pstart, uint32_t len)
{
	struct fsl_ev_ext4_pa ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, type, sizeof(ev), ts, 1, 1);
	ev.dev = 1;
	ev.ino = ino;
	ev.pa_pstart = pstart;
	ev.pa_len = len;
	return fsl_analysis__feed(a, &ev.hdr);
}

/* ext4_mballoc_alloc: goal (group 1 offset goff) asked for olen, normalized to nlen, found at r */
static int fx_mb(struct fsl_analysis *a, uint64_t ts, uint64_t ino, uint32_t lblk, int32_t goff,
		 int32_t olen, int32_t nlen, uint32_t rgroup, int32_t roff, int32_t rlen, uint8_t cr)
{
	struct fsl_ev_ext4_mballoc_alloc ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_EXT4_MBALLOC_ALLOC, sizeof(ev), ts, 1, 1);
	ev.dev = 1;
	ev.ino = ino;
	ev.orig_logical = lblk;
	ev.orig_group = 1;
	ev.orig_start = goff;
	ev.orig_len = olen;
	ev.goal_group = 1;
	ev.goal_start = goff;
	ev.goal_len = nlen;
	ev.result_logical = lblk;
	ev.result_group = rgroup;
	ev.result_start = roff;
	ev.result_len = rlen;
	ev.cr = cr;
	return fsl_analysis__feed(a, &ev.hdr);
}

static int fx_ino(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint64_t ino)
{
	struct fsl_ev_ext4_inode ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, type, sizeof(ev), ts, 1, 1);
	ev.dev = 1;
	ev.ino = ino;
	ev.mode = 0100644;
	return fsl_analysis__feed(a, &ev.hdr);
}

static int fx_free(struct fsl_analysis *a, uint64_t ts, uint64_t ino, uint64_t block,
		   uint64_t count)
{
	struct fsl_ev_ext4_free_blocks ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_EXT4_FREE_BLOCKS, sizeof(ev), ts, 1, 1);
	ev.dev = 1;
	ev.ino = ino;
	ev.block = block;
	ev.count = count;
	return fsl_analysis__feed(a, &ev.hdr);
}

/* A file's blocks: the allocation and the mapping it produced. */
static void put(struct fsl_analysis *a, uint64_t ts, uint64_t ino, uint32_t l, uint64_t p,
		uint32_t len)
{
	fx_alloc(a, ts, 1, ino, l, p, len, DATA);
	fx_map(a, ts + 1, 1, ino, l, p, (int32_t)len);
}

static void geometry(struct fx_meta *fx)
{
	fx_init(fx);
	fx_set(fx, "ext4.block_size", "4096");
	fx_set(fx, "ext4.blocks_count", "131072");
	fx_set(fx, "ext4.blocks_per_group", "32768");
	fx_set(fx, "ext4.inodes_per_group", "8192");
	fx_set(fx, "ext4.group_count", "4");
	fx_set(fx, "ext4.first_data_block", "0");
	fx_set(fx, "ext4.inode_size", "256");
	fx_set(fx, "ext4.desc_size", "64");
	fx_set(fx, "ext4.reserved_gdt_blocks", "63");
	fx_set(fx, "ext4.inode_blocks_per_group", "512");
	fx_set(fx, "ext4.flex_bg_size", "16");
	fx_set(fx, "ext4.feature_incompat", "0x2c2");	/* filetype extent flex_bg 64bit */
	fx_set(fx, "ext4.feature_ro_compat", "0x1");	/* sparse_super */
}

static const struct fsl_frag_break *find(const struct fsl_frag_break *br, unsigned int n,
					 uint64_t ino)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (br[i].ino == ino)
			return &br[i];
	return NULL;
}

TEST(layout_taker_is_end_owner)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	const struct fsl_frag_break *br, *b;
	struct fsl_break_pos pos;
	struct fsl_analysis *a;
	struct fx_meta fx;
	unsigned int n;

	geometry(&fx);
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	/* 572 creates the group preallocation and uses 8 of it; 573 the next 12 */
	fx_pa(a, FSL_EV_EXT4_MB_NEW_GROUP_PA, 33045, 572, 33792, 512);
	put(a, 33046, 572, 0, 33792, 8);
	put(a, 33100, 573, 0, 33800, 12);
	/* 573 reaches mb_stream_req: block 12 goes elsewhere (goal 33812, normalized to 16) */
	fx_mb(a, 34000, 573, 12, 33812 - 32768, 1, 16, 1, 80, 16, 0);
	put(a, 34001, 573, 12, 32848, 4);
	/* ...and 574 gets 33812 from 572's preallocation afterwards */
	put(a, 34170, 574, 0, 33812, 4);

	/* 600: its extent-tree block lands between its data */
	put(a, 40000, 600, 0, 40000, 10);
	fx_alloc(a, 40100, 1, 600, 0, 40010, 1, 0);
	put(a, 40200, 600, 10, 40011, 5);
	/* 601 runs into group 1's backup superblock and descriptors */
	put(a, 41000, 601, 0, 32760, 8);
	put(a, 41100, 601, 8, 32833, 8);
	/* 602 into the flex group's bitmaps (as mke2fs packs them), 603 an inode table */
	put(a, 42000, 602, 0, 60, 5);
	put(a, 42100, 602, 5, 3000, 5);
	put(a, 42200, 603, 0, 2110, 10);
	put(a, 42300, 603, 10, 3100, 5);
	/* 604: the next block stays free */
	put(a, 43000, 604, 0, 50000, 5);
	put(a, 43100, 604, 5, 60000, 5);
	/* 605: 606 took the block, then was deleted: free at the end, not 606's */
	put(a, 44000, 605, 0, 50100, 5);
	put(a, 44050, 606, 0, 50105, 3);
	put(a, 44100, 605, 5, 60100, 5);
	fx_free(a, 44200, 606, 50105, 3);
	fx_ino(a, FSL_EV_EXT4_FREE_INODE, 44201, 606);
	/* 609 runs into 607's own inode preallocation */
	fx_pa(a, FSL_EV_EXT4_MB_NEW_INODE_PA, 45000, 607, 70000, 64);
	put(a, 45001, 607, 0, 70000, 8);
	put(a, 45100, 609, 0, 69990, 10);
	put(a, 45200, 609, 10, 60200, 5);

	n = fsl_layout__breaks(fsl_analysis__layout(a), &br);
	CHECK_EQ(n, 8);

	b = find(br, n, 573);
	REQUIRE(b);
	CHECK_U64(b->expect, 33812);
	CHECK_U64(b->log, 12);
	CHECK_EQ(b->taker_kind, FSL_TAKER_FILE);
	CHECK_U64(b->taker_ino, 574);		/* not 572, the preallocation's creator */
	CHECK_EQ(b->taker_how, FSL_HOW_GROUP_PA);
	CHECK_U64(b->pa_ino, 572);
	CHECK_U64(b->pa_ts, 33045);
	CHECK_U64(b->pa_start, 33792);
	CHECK_U64(b->pa_len, 512);
	CHECK_U64(b->taker_ts, 34170);
	CHECK_EQ(b->taker_later, 1);		/* 573 went elsewhere at 34001 */
	CHECK_EQ(b->pa_reserved, 1);		/* held in the preallocation then */
	CHECK_EQ(b->have_decision, 1);
	CHECK_U64(b->goal, 33812);
	CHECK_U64(b->req_len, 1);
	CHECK_U64(b->norm_len, 16);
	CHECK_EQ(b->cr, 0);

	b = find(br, n, 600);
	REQUIRE(b);
	CHECK_U64(b->expect, 40010);
	CHECK_EQ(b->taker_kind, FSL_TAKER_EXTENT_TREE);
	CHECK_U64(b->taker_ino, 600);
	CHECK_EQ(b->have_decision, 0);

	b = find(br, n, 601);
	REQUIRE(b);
	CHECK_U64(b->expect, 32768);
	CHECK_EQ(b->taker_kind, FSL_TAKER_SUPER);
	CHECK_U64(b->taker_ino, 0);

	b = find(br, n, 602);
	REQUIRE(b);
	CHECK_U64(b->expect, 65);
	CHECK_EQ(b->taker_kind, FSL_TAKER_BBITMAP);
	b = find(br, n, 603);
	REQUIRE(b);
	CHECK_U64(b->expect, 2120);
	CHECK_EQ(b->taker_kind, FSL_TAKER_ITABLE);

	b = find(br, n, 604);
	REQUIRE(b);
	CHECK_EQ(b->taker_kind, FSL_TAKER_FREE);
	CHECK_U64(b->taker_ino, 0);
	b = find(br, n, 605);
	REQUIRE(b);
	CHECK_EQ(b->taker_kind, FSL_TAKER_FREE);	/* 606's blocks were freed */
	CHECK_U64(b->taker_ino, 0);

	b = find(br, n, 609);
	REQUIRE(b);
	CHECK_U64(b->expect, 70000);
	CHECK_EQ(b->taker_kind, FSL_TAKER_FILE);
	CHECK_U64(b->taker_ino, 607);
	CHECK_EQ(b->taker_how, FSL_HOW_INODE_PA);
	CHECK_U64(b->pa_ino, 607);
	CHECK_EQ(b->taker_later, 0);

	/* positions: 573 at 12, 600 at 10, 601 at 8, 602 at 5, ... none at 15/16 or 2048 */
	fsl_layout__break_pos(fsl_analysis__layout(a), &pos);
	CHECK_U64(pos.breaks, 8);
	CHECK_U64(pos.wb_limit, 0);
	CHECK_U64(pos.stream_req, 0);
	CHECK_U64(pos.other, 8);
	CHECK_EQ(pos.wb_len, 2048);
	CHECK_EQ(pos.stream_len, 16);
	fsl_analysis__free(a);
}

/* Breaks at 15/16 blocks (mb_stream_req) and at multiples of 2048 (writeback) are told apart. */
/*
 * Metadata without flex_bg (mkfs.ext4 -O ^flex_bg, as dumpe2fs lays out a
 * 512 MiB filesystem with 4 KiB blocks): every group has its own bitmaps and
 * inode table after its superblock copy. Groups 1 and 3: backup superblock
 * at +0, descriptors +1, reserved GDT +2..+64 (the resize inode's), block
 * bitmap +65, inode bitmap +66, inode table +67..+578; group 2 (no backup):
 * block bitmap 65536, inode bitmap 65537, inode table 65538-66049.
 */
TEST(layout_taker_metadata_without_flex_bg)
{
	static const struct { uint64_t expect; int kind; uint64_t ino; } want[] = {
		{ 98304, FSL_TAKER_SUPER, 0 },
		{ 32769, FSL_TAKER_GDT, 0 },
		{ 32800, FSL_TAKER_RESERVED_GDT, 7 },
		{ 32833, FSL_TAKER_BBITMAP, 0 },
		{ 98370, FSL_TAKER_IBITMAP, 0 },
		{ 33000, FSL_TAKER_ITABLE, 0 },
		{ 65536, FSL_TAKER_BBITMAP, 0 },
		{ 66049, FSL_TAKER_ITABLE, 0 },
		{ 70000, FSL_TAKER_FREE, 0 },
	};
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	const struct fsl_frag_break *br, *b;
	struct fsl_analysis *a;
	struct fx_meta fx;
	unsigned int n, i;

	geometry(&fx);
	fx_set(&fx, "ext4.flex_bg_size", "0");
	fx_set(&fx, "ext4.feature_incompat", "0xc2");	/* filetype extent 64bit */
	fx_set(&fx, "ext4.feature_compat", "0x10");	/* resize_inode */
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	/*
	 * file 700 + i: one block just before want[i] (synthetic: some sit on
	 * metadata, no expected block is another file's), then 4 far away
	 */
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		put(a, 1000 + i * 100, 700 + i, 0, want[i].expect - 1, 1);
		put(a, 1050 + i * 100, 700 + i, 4, 90000 + i * 16, 4);
	}
	n = fsl_layout__breaks(fsl_analysis__layout(a), &br);
	CHECK_EQ(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		b = find(br, n, 700 + i);
		REQUIRE(b);
		CHECK_U64(b->expect, want[i].expect);
		CHECK_STR(fsl_taker_kind_name(b->taker_kind), fsl_taker_kind_name(want[i].kind));
		CHECK_U64(b->taker_ino, want[i].ino);
	}
	fsl_analysis__free(a);
}

TEST(layout_break_positions)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	struct fsl_break_pos pos;
	struct fsl_analysis *a;
	struct fx_meta fx;

	geometry(&fx);
	fx_set(&fx, "ext4.tune.mb_stream_req", "32");
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	put(a, 100, 20, 0, 10000, 2048);
	put(a, 200, 20, 2048, 20000, 2048);
	put(a, 300, 20, 4096, 30000, 10);	/* 2 breaks at 2048, 4096 */
	put(a, 400, 21, 0, 40000, 31);
	put(a, 500, 21, 31, 41000, 1);	/* at 31 = mb_stream_req - 1 */
	put(a, 600, 21, 32, 42000, 1);	/* at 32 */
	put(a, 700, 22, 0, 43000, 512);
	put(a, 800, 22, 512, 44000, 1);	/* 512: mb_group_prealloc */
	put(a, 900, 23, 0, 45000, 3);
	put(a, 1000, 23, 3, 46000, 1);	/* elsewhere */
	fsl_layout__break_pos(fsl_analysis__layout(a), &pos);
	CHECK_U64(pos.breaks, 6);
	CHECK_U64(pos.wb_limit, 2);
	CHECK_U64(pos.stream_req, 2);
	CHECK_EQ(pos.stream_len, 32);
	CHECK_U64(pos.group_pa, 1);
	CHECK_U64(pos.other, 1);
	CHECK_U64(pos.other_log[0], 3);
	CHECK_U64(pos.other_n[0], 1);
	CHECK_U64(pos.other_n[1], 0);
	fsl_analysis__free(a);
}

static int fx_map_flags(struct fsl_analysis *a, uint64_t ts, uint64_t ino, uint32_t lblk,
			uint64_t pblk, int32_t len, uint32_t mflags)
{
	struct fsl_ev_ext4_map_blocks ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT, sizeof(ev), ts, 1, 1);
	ev.dev = 1;
	ev.ino = ino;
	ev.lblk = lblk;
	ev.pblk = pblk;
	ev.len = len;
	ev.ret = len;
	ev.mflags = mflags;
	return fsl_analysis__feed(a, &ev.hdr);
}

/*
 * The journal inode (one extent 131072+4096, as debugfs ex <8> shows) seen
 * only through jbd2's one-block lookups at logical 0..635 and 1896: nothing
 * is known between them, so no fragcheck line (e2fsck prints none). A sparse
 * file whose blocks were allocated in the trace breaks across its hole as
 * e2fsck says, even when the physical gap equals the logical one.
 */
TEST(layout_lookup_holes_are_not_breaks)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	const struct fsl_frag_break *br;
	struct fsl_analysis *a;
	struct fx_meta fx;
	uint64_t hist[16];
	unsigned int n, l;

	geometry(&fx);
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	for (l = 0; l < 636; l++)
		fx_map_flags(a, 100 + l, 8, l, 131072 + l, 1, 0x10);	/* MAPPED, not NEW */
	fx_map_flags(a, 1000, 8, 1896, 132968, 1, 0x10);
	/* sparse file 700: 0..3 then 100..103, both allocated here, gap 96 = 96 */
	fx_map_flags(a, 2000, 700, 0, 90000, 4, 0x30);
	fx_map_flags(a, 2100, 700, 100, 90100, 4, 0x30);
	n = fsl_layout__breaks(fsl_analysis__layout(a), &br);
	REQUIRE(n == 1);
	CHECK_U64(br[0].ino, 700);
	CHECK_U64(br[0].expect, 90004);
	CHECK_U64(br[0].phys, 90100);
	CHECK_U64(br[0].log, 100);
	CHECK_U64(fsl_layout__fragmented(fsl_analysis__layout(a)), 1);
	fsl_layout__extent_hist(fsl_analysis__layout(a), hist);
	CHECK_U64(hist[0], 1);	/* the journal: one extent */
	CHECK_U64(hist[1], 1);	/* file 700: two */
	fsl_analysis__free(a);
}

/* A block of the journal (never allocated in the trace) is inode 8's, as icheck says. */
TEST(layout_taker_journal_blocks)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	const struct fsl_frag_break *br;
	struct fsl_analysis *a;
	struct fx_meta fx;

	geometry(&fx);
	fx_set(&fx, "ext4.journal_inum", "8");
	fx_set(&fx, "ext4.journal_blocks", "4096");
	fx_set(&fx, "ext4.journal_start", "65536");
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	put(a, 100, 13, 0, 63488, 2048);
	put(a, 200, 13, 2048, 69632, 2048);
	REQUIRE(fsl_layout__breaks(fsl_analysis__layout(a), &br) == 1);
	CHECK_U64(br[0].expect, 65536);
	CHECK_EQ(br[0].taker_kind, FSL_TAKER_FILE);
	CHECK_U64(br[0].taker_ino, 8);
	CHECK_EQ(br[0].taker_how, FSL_HOW_UNKNOWN);
	fsl_analysis__free(a);
}

/*
 * The start state of the goal-offer test: group 0's metadata in use
 * (0..2120), group 1's backup superblock and descriptors (32768..32999).
 */
static uint64_t start_runs[] = { 0, 2121, 30647, 232, 98072 };
static const struct fsl_bitmap start_bm = { FSL_BITMAP_BLOCK, FSL_BITMAP_START, 0, 131072, 5,
					    start_runs };

static const struct fsl_bitmap *fx_bitmap(const struct fsl_meta *m, unsigned int kind,
					  unsigned int when)
{
	(void)m;
	return kind == FSL_BITMAP_BLOCK && when == FSL_BITMAP_START ? &start_bm : NULL;
}

static int fx_release(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint64_t pstart,
		      uint32_t len)
{
	return fx_pa(a, type, ts, 0, pstart, len);
}

/*
 * A break whose expected block stayed free: 700 ends at 40009 and asks for
 * goal 40010 normalized to 8 blocks, but 702's group preallocation at 40014
 * leaves only 40010..40013, so the request goes to 41000 (cr 1). The goal
 * group's free space at that step is rebuilt from the start bitmap, 700's
 * blocks, the preallocation as created (512) less the tail it gave back
 * before the decision (40100+426), and 704's blocks freed again.
 */
/*
 * A journal in three pieces (mke2fs without flex_bg splits it around the
 * groups' metadata; ext4.journal_extents as the recorder reads its map): its
 * breaks are fragcheck lines, as e2fsck prints them, though the trace only
 * looked some of its blocks up; the block it expected is a block bitmap.
 */
TEST(layout_journal_in_pieces)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	const struct fsl_frag_break *br;
	struct fsl_analysis *a;
	struct fx_meta fx;

	geometry(&fx);
	fx_set(&fx, "ext4.flex_bg_size", "0");
	fx_set(&fx, "ext4.feature_incompat", "0xc2");
	fx_set(&fx, "ext4.journal_inum", "8");
	fx_set(&fx, "ext4.journal_blocks", "8192");
	fx_set(&fx, "ext4.journal_extents", "0:62000+3536,3536:66050+4000,7536:98883+656");
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	/* jbd2 maps one block at a time: a lookup, not a new mapping */
	fx_map(a, 100, 1, 8, 10, 62010, 1);
	REQUIRE(fsl_layout__breaks(fsl_analysis__layout(a), &br) == 2);
	CHECK_U64(br[0].ino, 8);
	CHECK_U64(br[0].expect, 65536);
	CHECK_U64(br[0].phys, 66050);
	CHECK_U64(br[0].log, 3536);
	CHECK_EQ(br[0].taker_kind, FSL_TAKER_BBITMAP);
	CHECK_U64(br[1].expect, 70050);
	CHECK_EQ(br[1].taker_kind, FSL_TAKER_FREE);
	fsl_analysis__free(a);
}

TEST(layout_goal_group_offer)
{
	struct fsl_analysis_opts o = { .root_pid = 0, .sections = FSL_SEC_LAYOUT };
	struct fsl_ev_ext4_mballoc_alloc mb;
	struct fsl_ev_ext4_pa pa;
	const struct fsl_frag_break *br;
	const struct fsl_goal_offer *of;
	struct fsl_analysis *a;
	struct fx_meta fx;

	geometry(&fx);
	fx_set(&fx, "host.kernel", "6.18.0");
	fx.m.bitmap = fx_bitmap;
	a = fsl_analysis__new(&o, NULL);
	REQUIRE(a && !fsl_analysis__begin(a, &fx.m));
	put(a, 50, 704, 0, 50000, 100);
	fx_free(a, 60, 704, 50000, 100);
	put(a, 80, 700, 0, 40000, 10);
	fx_pa(a, FSL_EV_EXT4_MB_NEW_GROUP_PA, 100, 702, 40014, 512);
	fx_release(a, FSL_EV_EXT4_MB_RELEASE_GROUP_PA, 150, 40100, 426);
	/*
	 * 700's request (task 2) makes its own inode preallocation 41000+8
	 * first, as the kernel traces it: not in what the decision was offered
	 */
	memset(&pa, 0, sizeof(pa));
	fx_hdr(&pa.hdr, FSL_EV_EXT4_MB_NEW_INODE_PA, sizeof(pa), 199, 2, 2);
	pa.dev = 1;
	pa.ino = 700;
	pa.pa_pstart = 41000;
	pa.pa_len = 8;
	REQUIRE(!fsl_analysis__feed(a, &pa.hdr));
	memset(&mb, 0, sizeof(mb));
	fx_hdr(&mb.hdr, FSL_EV_EXT4_MBALLOC_ALLOC, sizeof(mb), 200, 2, 2);
	mb.dev = 1;
	mb.ino = 700;
	mb.orig_logical = mb.goal_logical = mb.result_logical = 10;
	mb.orig_group = mb.goal_group = mb.result_group = 1;
	mb.orig_start = mb.goal_start = 40010 - 32768;
	mb.orig_len = 1;
	mb.goal_len = 8;
	mb.result_start = 41000 - 32768;
	mb.result_len = 8;
	mb.groups = 1;
	mb.flags = 0x0200 | 0x0020;	/* TRY_GOAL | DATA */
	mb.cr = 1;
	REQUIRE(!fsl_analysis__feed(a, &mb.hdr));
	put(a, 201, 700, 10, 41000, 8);
	/* blocks taken after the decision are not in what it was offered */
	put(a, 300, 705, 0, 40010, 2);
	fx_free(a, 400, 705, 40010, 2);

	REQUIRE(fsl_layout__breaks(fsl_analysis__layout(a), &br) == 1);
	CHECK_U64(br[0].ino, 700);
	CHECK_U64(br[0].expect, 40010);
	CHECK_EQ(br[0].taker_kind, FSL_TAKER_FREE);
	REQUIRE(br[0].have_decision);
	CHECK_U64(br[0].norm_len, 8);
	CHECK_EQ(br[0].norm_known, 1);
	CHECK_U64(br[0].norm_start, 40010);
	CHECK_EQ(br[0].groups_scanned, 1);
	REQUIRE(br[0].cr_name);
	CHECK_STR(br[0].cr_name, "CR_GOAL_LEN_FAST");
	of = &br[0].offer;
	REQUIRE(of->have);
	CHECK_EQ(of->group, 1);
	CHECK_EQ(of->goal_free, 1);
	CHECK_EQ(of->goal_tried, 1);
	CHECK_U64(of->at_norm, 4);		/* 40010..40013, then the preallocation */
	CHECK_EQ(of->fit_at_goal, 0);
	CHECK_EQ(of->fit_in_group, 1);
	/* 32768 - 232 (backup) - 10 (700) - 86 (what is left of the preallocation) */
	CHECK_U64(of->free, 32440);
	CHECK_U64(of->extents, 3);		/* 33000+7000, 40010+4, 40100+25436 */
	CHECK_U64(of->largest_start, 40100);
	CHECK_U64(of->largest_len, 25436);
	REQUIRE(of->nnear == 3);
	CHECK_U64(of->near_start[0], 40010);
	CHECK_U64(of->near_len[0], 4);
	CHECK_U64(of->near_start[1], 33000);	/* ends 11 blocks before the goal */
	CHECK_U64(of->near_len[1], 7000);
	CHECK_U64(of->near_start[2], 40100);	/* starts 90 after */
	CHECK_U64(of->result_len, 8);
	CHECK_U64(of->result_free, 8);		/* 41000+8 was free, as the kernel found */
	CHECK_EQ(of->norm_known, 1);
	fsl_analysis__free(a);
}
