// SPDX-License-Identifier: GPL-2.0
/* jbd2 model: commit triggers, checkpoint stalls, shadow waits (hand-computed). */
#include <math.h>
#include "t.h"
#include "fslens/model.h"

#define S 1000000000ull
#define MS 1000000ull
#define US 1000ull

static struct fsl_journal *mk(uint64_t commit_ns)
{
	struct fsl_journal_cfg c = {
		.journal_blocks = 4096, .block_size = 4096, .commit_ns = commit_ns,
		.write_block_ns = 100 * US, .flush_ns = 1 * MS,
		.checkpoint_block_ns = 5 * MS, .locked_ns = 10 * US,
		.max_txn_blocks = 1024,
	};
	int err = 0;

	return fsl_journal__new(&c, 100, &err);
}

TEST(model_journal_timer_commits)
{
	struct fsl_journal *j = mk(5 * S);
	const struct fsl_journal_stats *st;
	const struct fsl_journal_commit *c;
	uint64_t w;
	uint32_t tid[13];
	int i;

	REQUIRE(j);
	for (i = 1; i <= 12; i++)
		tid[i] = fsl_journal__handle(j, i * S, 2, 1, 0, &w, NULL);
	fsl_journal__finish(j, 20 * S);
	st = fsl_journal__stats(j);
	/*
	 * txn 100 starts at 1 s and expires at 6 s; the handle at 6 s joins it
	 * and, stopping at its expiry, asks for the commit (jbd2_journal_stop),
	 * before the timer rounded up to a whole second would. txn 101 opens
	 * at 7 s and the handle at 12 s commits it the same way.
	 */
	CHECK_EQ(st->commits, 2);
	CHECK_EQ(st->commits_by_reason[FSL_COMMIT_TIMER], 2);
	CHECK_EQ(tid[5], 100);
	CHECK_EQ(tid[6], 100);
	CHECK_EQ(tid[7], 101);
	CHECK_EQ(tid[12], 101);
	c = fsl_journal__commit_at(j, 0);
	REQUIRE(c);
	CHECK_U64(c->start_ns, 6 * S);
	CHECK_EQ(c->handles, 6);
	CHECK_EQ(c->blocks, 6);
	/* 6 blocks + 1 descriptor + 1 commit block at 100 us, +1 ms flush, +10 us locked */
	CHECK_U64(c->end_ns, 6 * S + 10 * US + 8 * 100 * US + 1 * MS);
	CHECK_U64(fsl_journal__commit_at(j, 1)->start_ns, 12 * S);
	fsl_journal__free(j);
}

/*
 * With no handle after the expiry the timer commits: jbd2 arms it at
 * round_jiffies_up(expiry), the next whole second of jiffies. Its phase in
 * trace time known (0.3 s): at 6.3 s; unknown: half a second late, 6.5 s.
 */
TEST(model_journal_timer_rounded_up)
{
	struct fsl_journal_cfg c = {
		.journal_blocks = 4096, .block_size = 4096, .commit_ns = 5 * S,
		.write_block_ns = 100 * US, .flush_ns = 1 * MS, .checkpoint_block_ns = 5 * MS,
		.locked_ns = 10 * US, .max_txn_blocks = 1024,
		.timer_phase_ns = 300 * MS, .timer_phase_known = 1,
	};
	struct fsl_journal *j;
	uint64_t w;
	int err = 0, known;

	for (known = 1; known >= 0; known--) {
		c.timer_phase_known = known;
		j = fsl_journal__new(&c, 100, &err);
		REQUIRE(j);
		fsl_journal__handle(j, 1 * S, 2, 1, 0, &w, NULL);
		fsl_journal__handle(j, 1 * S + 200 * MS, 2, 1, 0, &w, NULL);
		fsl_journal__finish(j, 20 * S);
		REQUIRE(fsl_journal__ncommits(j) == 1);
		CHECK_U64(fsl_journal__commit_at(j, 0)->start_ns,
			  known ? 6 * S + 300 * MS : 6 * S + 500 * MS);
		fsl_journal__free(j);
	}
}

/*
 * Credits reserved for a later handle (ext4 writeback reserving the
 * unwritten-extent conversion) count in every running transaction until
 * the reserved handle starts: with 500 reserved, 5 handles of 100 fill the
 * 1024-block transaction (5 descriptors + 10 + 500 + 500 = 1015); the 6th
 * commits it with 510 blocks of its own (the reservation moves on to the
 * next transaction, which starts with 5 + 500). The reserved handle then
 * starts without waiting, dirtying 20 of its 500: 5 + 100 + 20 remain.
 */
TEST(model_journal_reserved_credits)
{
	struct fsl_journal *j = mk(100 * S);
	const struct fsl_journal_commit *c;
	uint64_t w;
	uint32_t t1, t7, tr;
	int i;

	REQUIRE(j);
	t1 = fsl_journal__handle_rsv(j, 1 * S, 10, 500, 10, 0, &w, NULL);
	for (i = 0; i < 5; i++)
		fsl_journal__handle(j, (2 + (uint64_t)i) * S, 100, 100, 0, &w, NULL);
	CHECK_EQ(fsl_journal__ncommits(j), 0);
	t7 = fsl_journal__handle(j, 8 * S, 100, 100, 0, &w, NULL);
	CHECK_EQ(t1, 100);
	CHECK_EQ(t7, 101);
	tr = fsl_journal__reserved_start(j, 9 * S, 500, 20);
	CHECK_EQ(tr, 101);
	fsl_journal__finish(j, 10 * S);
	c = fsl_journal__commit_at(j, 0);
	REQUIRE(c);
	CHECK_EQ(c->reason, FSL_COMMIT_SIZE);
	CHECK_EQ(c->blocks, 510);
	/* the rest is the next transaction's: 5 + 100 + 20; 8 more of 100 fit, the 9th commits */
	for (i = 0; i < 9; i++)
		fsl_journal__handle(j, (11 + (uint64_t)i) * S, 100, 100, 0, &w, NULL);
	fsl_journal__finish(j, 30 * S);
	REQUIRE(fsl_journal__ncommits(j) == 2);
	CHECK_EQ(fsl_journal__commit_at(j, 1)->blocks, 120 + 8 * 100);
	fsl_journal__free(j);
}

TEST(model_journal_size_commit_and_checkpoint_stall)
{
	struct fsl_journal *j = mk(100 * S);
	const struct fsl_journal_stats *st;
	uint64_t w = 0, w41 = 0, w42 = 0;
	int i, cls = -1;

	REQUIRE(j);
	/*
	 * max transaction 1024 blocks; a transaction starts with 5 credits for
	 * its descriptor blocks (1024 / 255 tags per 4 KiB block); handles of
	 * 100 blocks, 1 s apart: the 11th does not fit (5 + 1000 + 100 > 1024)
	 */
	for (i = 0; i <= 42; i++) {
		fsl_journal__handle(j, (uint64_t)(i + 1) * S, 100, 100, 0, &w, &cls);
		if (i == 10)
			CHECK_U64(w, 10 * US);	/* waits for the full transaction to lock */
		if (i == 41) {
			w41 = w;
			CHECK_EQ(cls, FSL_JWAIT_LOG_SPACE);
		}
		if (i == 42)
			w42 = w;
	}
	st = fsl_journal__stats(j);
	CHECK_EQ(st->commits_by_reason[FSL_COMMIT_SIZE], 4);
	CHECK_EQ(fsl_journal__commit_at(j, 0)->blocks, 1000);
	/*
	 * 4 commits of 1000 blocks use 4 * 1005 log blocks: 76 free, less 32
	 * reserved, < 1024, so the next handle checkpoints the oldest transaction:
	 * 1000 blocks at 5 ms = 5 s, and the one after waits for that checkpoint.
	 */
	CHECK_EQ(st->checkpoints, 1);
	CHECK_EQ(st->checkpoint_blocks, 1000);
	CHECK_U64(w41, 5 * S);
	CHECK_U64(w42, 4 * S);
	CHECK_EQ(st->stalls[FSL_JWAIT_LOG_SPACE], 2);
	CHECK_U64(st->stall_ns[FSL_JWAIT_LOG_SPACE], 9 * S);
	fsl_journal__free(j);
}

TEST(model_journal_bigger_journal_fewer_checkpoints)
{
	struct fsl_journal_cfg c = {
		.journal_blocks = 4096, .block_size = 4096, .commit_ns = 100 * S,
		.write_block_ns = 100 * US, .flush_ns = 1 * MS,
		.checkpoint_block_ns = 5 * MS, .locked_ns = 10 * US,
	};
	struct fsl_journal *small, *big;
	uint64_t w;
	int i, err = 0;

	small = fsl_journal__new(&c, 1, &err);
	c.journal_blocks *= 4;
	big = fsl_journal__new(&c, 1, &err);
	REQUIRE(small && big);
	for (i = 0; i < 200; i++) {
		fsl_journal__handle(small, (uint64_t)(i + 1) * S / 10, 100, 100, 0, &w, NULL);
		fsl_journal__handle(big, (uint64_t)(i + 1) * S / 10, 100, 100, 0, &w, NULL);
	}
	CHECK(fsl_journal__stats(small)->checkpoints > 0);
	CHECK(fsl_journal__stats(big)->checkpoints <= fsl_journal__stats(small)->checkpoints);
	CHECK(fsl_journal__stats(big)->stall_ns[FSL_JWAIT_LOG_SPACE] <=
	      fsl_journal__stats(small)->stall_ns[FSL_JWAIT_LOG_SPACE]);
	fsl_journal__free(small);
	fsl_journal__free(big);
}

TEST(model_journal_fsync_and_shadow)
{
	struct fsl_journal *j = mk(5 * S);
	uint64_t w;
	int cls = -1;

	REQUIRE(j);
	fsl_journal__handle(j, 1 * S, 2, 1, 0, &w, NULL);
	fsl_journal__handle(j, 1 * S, 2, 1, 0, &w, NULL);
	fsl_journal__handle(j, 1 * S, 2, 1, 0xabc, &w, NULL);
	fsl_journal__force(j, 1 * S + 500 * MS, FSL_COMMIT_FSYNC, &w);
	/* 3 blocks -> 5 log blocks: 10 us + 500 us + 1 ms */
	CHECK_U64(w, 10 * US + 500 * US + 1 * MS);
	fsl_journal__advance(j, 1600 * MS);
	CHECK_EQ(fsl_journal__stats(j)->commits_by_reason[FSL_COMMIT_FSYNC], 1);
	/* next transaction dirties 0xabc, committed at 2 s: a handle touching it during logging waits */
	fsl_journal__handle(j, 1800 * MS, 2, 1, 0xabc, &w, NULL);
	fsl_journal__force(j, 2 * S, FSL_COMMIT_FSYNC, &w);
	fsl_journal__handle(j, 2 * S + 100 * US, 2, 1, 0x123, &w, &cls);
	CHECK_U64(w, 0);
	fsl_journal__handle(j, 2 * S + 100 * US, 2, 1, 0xabc, &w, &cls);
	/* commit of 1 block: end = 2 s + 10 us + 3 * 100 us + 1 ms */
	CHECK_U64(w, 10 * US + 300 * US + 1 * MS - 100 * US);
	CHECK_EQ(cls, FSL_JWAIT_SHADOW);
	fsl_journal__free(j);
}

/*
 * Memory stays bounded (issue 19 item 10): past FSL_JOURNAL_KEEP_COMMITS the
 * commit list stops growing, while the stats and the phase sums count every
 * commit. One 1-block handle every 10 s, timer 5 s: commit k starts at
 * 10 (k + 1) + 5 s and takes 10 us locked + 3 log blocks at 100 us + 1 ms.
 */
TEST(model_journal_commit_list_bounded)
{
	struct fsl_journal_cfg c = {
		.journal_blocks = 1 << 20, .block_size = 4096, .commit_ns = 5 * S,
		.write_block_ns = 100 * US, .flush_ns = 1 * MS,
		.checkpoint_block_ns = 5 * MS, .locked_ns = 10 * US,
		.max_txn_blocks = 1024,
	};
	const unsigned int n = FSL_JOURNAL_KEEP_COMMITS + 904;
	const struct fsl_journal_stats *st;
	struct fsl_journal *j;
	uint64_t w;
	unsigned int i;
	int err = 0;

	j = fsl_journal__new(&c, 100, &err);
	REQUIRE(j);
	for (i = 1; i <= n; i++)
		fsl_journal__handle(j, i * 10 * S, 1, 1, 0, &w, NULL);
	fsl_journal__finish(j, (n + 1) * 10 * S);
	st = fsl_journal__stats(j);
	CHECK_EQ(st->commits, n);
	CHECK_EQ(st->phased, n);
	CHECK_EQ(fsl_journal__ncommits(j), FSL_JOURNAL_KEEP_COMMITS);
	REQUIRE(fsl_journal__commit_at(j, FSL_JOURNAL_KEEP_COMMITS - 1));
	CHECK(!fsl_journal__commit_at(j, FSL_JOURNAL_KEEP_COMMITS));
	/* each by its timer, half a second after the expiry (the phase unknown) */
	CHECK_U64(fsl_journal__commit_at(j, 0)->start_ns, 15 * S + S / 2);
	CHECK_U64(fsl_journal__commit_at(j, FSL_JOURNAL_KEEP_COMMITS - 1)->start_ns,
		  (10ull * FSL_JOURNAL_KEEP_COMMITS + 5) * S + S / 2);
	CHECK(fabs(st->phase_ms[0] - n * 0.010) < 1e-6 * n);
	CHECK(fabs(st->phase_ms[0] + st->phase_ms[1] + st->phase_ms[2] - n * 1.310) < 1e-6 * n);
	fsl_journal__free(j);
}
