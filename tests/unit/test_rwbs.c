// SPDX-License-Identifier: GPL-2.0
/*
 * The one rwbs encoder (fsl_rwbs) against the kernel's blk_fill_rwbs()
 * (kernel/trace/blktrace.c), fed through the probe's op/flag decoding
 * (probes/block.bpf.h rq_flags), for every operation and flag combination.
 */
#include "t.h"
#include "fslens/event.h"
#include "fslens/export.h"

/* enum req_op values and __REQ_* flag bits the kernel uses */
enum { K_READ = 0, K_WRITE = 1, K_FLUSH = 2, K_DISCARD = 3, K_SECURE_ERASE = 5,
       K_WRITE_ZEROES = 9, K_DRV_IN = 34 };
#define K_PREFLUSH	(1u << 0)
#define K_FUA		(1u << 1)
#define K_RAHEAD	(1u << 2)
#define K_SYNC		(1u << 3)
#define K_META		(1u << 4)

/* blk_fill_rwbs(), as of Linux 6.x, for the ops above */
static void kernel_rwbs(char *rwbs, unsigned int op, unsigned int fl)
{
	int i = 0;

	if (fl & K_PREFLUSH)
		rwbs[i++] = 'F';
	switch (op) {
	case K_WRITE:
		rwbs[i++] = 'W';
		break;
	case K_DISCARD:
		rwbs[i++] = 'D';
		break;
	case K_SECURE_ERASE:
		rwbs[i++] = 'D';
		rwbs[i++] = 'E';
		break;
	case K_FLUSH:
		rwbs[i++] = 'F';
		break;
	case K_READ:
		rwbs[i++] = 'R';
		break;
	default:
		rwbs[i++] = 'N';
	}
	if (fl & K_FUA)
		rwbs[i++] = 'F';
	if (fl & K_RAHEAD)
		rwbs[i++] = 'A';
	if (fl & K_SYNC)
		rwbs[i++] = 'S';
	if (fl & K_META)
		rwbs[i++] = 'M';
	rwbs[i] = 0;
}

/* What the block probe stores in fsl_ev_block_rq.flags */
static uint32_t probe_flags(unsigned int op, unsigned int fl)
{
	uint32_t f = 0;

	if (op == K_READ)
		f |= FSL_RQ_READ;
	else if (op == K_WRITE || op == K_WRITE_ZEROES)
		f |= FSL_RQ_WRITE;
	else if (op == K_DISCARD || op == K_SECURE_ERASE)
		f |= FSL_RQ_DISCARD;
	else if (op == K_FLUSH)
		f |= FSL_RQ_FLUSH | FSL_RQ_NONE;
	else
		f |= FSL_RQ_NONE;
	if (fl & K_PREFLUSH)
		f |= FSL_RQ_FLUSH;
	if (fl & K_FUA)
		f |= FSL_RQ_FUA;
	if (fl & K_SYNC)
		f |= FSL_RQ_SYNC;
	if (fl & K_META)
		f |= FSL_RQ_META;
	if (fl & K_RAHEAD)
		f |= FSL_RQ_AHEAD;
	return f;
}

TEST(rwbs_matches_blk_fill_rwbs)
{
	static const unsigned int ops[] = { K_READ, K_WRITE, K_DISCARD, K_DRV_IN };
	char want[16], got[8];
	unsigned int i, fl, n = 0;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (fl = 0; fl < 32; fl++) {
			kernel_rwbs(want, ops[i], fl);
			fsl_rwbs(probe_flags(ops[i], fl), got);
			CHECK_STR(got, want);
			n++;
		}
	CHECK_EQ(n, 128);
	/* spot values a reader knows from blkparse / the tracepoints */
	CHECK_STR(fsl_rwbs(FSL_RQ_WRITE | FSL_RQ_SYNC, got), "WS");
	CHECK_STR(fsl_rwbs(FSL_RQ_READ | FSL_RQ_AHEAD, got), "RA");
	CHECK_STR(fsl_rwbs(FSL_RQ_FLUSH | FSL_RQ_WRITE | FSL_RQ_FUA | FSL_RQ_SYNC, got), "FWFS");
	CHECK_STR(fsl_rwbs(FSL_RQ_WRITE | FSL_RQ_SYNC | FSL_RQ_META, got), "WSM");
}

/*
 * Where the event cannot say what the kernel said: the probe folds
 * secure erase into discard and write-zeroes into write, and a bare flush
 * (REQ_OP_FLUSH, the kernel's "F"/"FF") has no data direction: "FN", which
 * is what blkparse prints for it.
 */
TEST(rwbs_lossy_ops)
{
	char want[16], got[8];

	kernel_rwbs(want, K_SECURE_ERASE, K_SYNC);
	CHECK_STR(want, "DES");
	CHECK_STR(fsl_rwbs(probe_flags(K_SECURE_ERASE, K_SYNC), got), "DS");
	CHECK_STR(fsl_rwbs(probe_flags(K_WRITE_ZEROES, 0), got), "W");
	kernel_rwbs(want, K_FLUSH, K_PREFLUSH);
	CHECK_STR(want, "FF");
	CHECK_STR(fsl_rwbs(probe_flags(K_FLUSH, K_PREFLUSH), got), "FN");
	CHECK_STR(fsl_rwbs(probe_flags(K_FLUSH, 0), got), "FN");
}

/*
 * An imported blktrace discard carries BLK_TC_WRITE and BLK_TC_DISCARD
 * (the kernel marks discards as writes): D, as blkparse's fill_rwbs prints
 * it. The two encoders this one replaced both said W here, and disagreed
 * on read + discard (dump R, export D).
 */
TEST(rwbs_imported_discard)
{
	char got[8];
	uint32_t f = fsl_bt_flags_from_cats(fsl_bt_cats_from_flags(FSL_RQ_WRITE | FSL_RQ_DISCARD |
								    FSL_RQ_SYNC));

	CHECK_STR(fsl_rwbs(f, got), "DS");
	CHECK_STR(fsl_rwbs(FSL_RQ_READ | FSL_RQ_DISCARD, got), "D");
	CHECK_STR(fsl_rwbs(fsl_bt_flags_from_cats(0), got), "N");
}
