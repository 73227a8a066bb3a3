/* SPDX-License-Identifier: GPL-2.0 */
/*
 * block family on tp_btf (raw_tp fallback). Requests: block_rq_insert,
 * issue, complete, merge, requeue (the tracepoints pass the struct
 * request). Bios: block_bio_queue, block_getrq, block_bio_backmerge and
 * frontmerge, block_split, block_bio_complete (they pass the struct bio;
 * these are the prototypes of 5.11 and later, one bio argument). The
 * fields the classic tracepoints print (dev, sector, size, rwbs) are derived
 * here the way the kernel's trace point assign does, through CO-RE reads.
 * Every program drops what is not on the target's disk before reserving.
 */
#ifndef FSL_BLOCK_BPF_H
#define FSL_BLOCK_BPF_H

#include "common.bpf.h"

/* Kernels before 5.17 kept the disk in the request (rq->rq_disk). */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline __u32 rq_dev(struct request *rq)
{
	struct gendisk *disk = NULL;

	if (bpf_core_field_exists(struct request___old, rq_disk))
		disk = BPF_CORE_READ((struct request___old *)rq, rq_disk);
	else
		disk = BPF_CORE_READ(rq, q, disk);
	if (!disk)
		return 0;
	return FSL_MKDEV(BPF_CORE_READ(disk, major), BPF_CORE_READ(disk, first_minor));
}

/* Kernels before 5.12 named the bio's disk directly (bio->bi_disk). */
struct bio___old {
	struct gendisk *bi_disk;
} __attribute__((preserve_access_index));

/*
 * The disk of a bio, as the request events name it: a partition's bio
 * counts on its whole disk (bd_disk), where its requests are.
 */
static __always_inline __u32 bio_dev(struct bio *bio)
{
	struct gendisk *disk = NULL;

	if (bpf_core_field_exists(struct bio___old, bi_disk))
		disk = BPF_CORE_READ((struct bio___old *)bio, bi_disk);
	else
		disk = BPF_CORE_READ(bio, bi_bdev, bd_disk);
	if (!disk)
		return 0;
	return FSL_MKDEV(BPF_CORE_READ(disk, major), BPF_CORE_READ(disk, first_minor));
}

#define REQ_BIT(name) (1ULL << bpf_core_enum_value(enum req_flag_bits, name))

static __always_inline __u32 rq_flags(__u64 cf)
{
	__u32 op = cf & 0xff, f = 0;

	if (op == bpf_core_enum_value(enum req_op, REQ_OP_READ))
		f |= FSL_RQ_READ;
	else if (op == bpf_core_enum_value(enum req_op, REQ_OP_WRITE) ||
		 op == bpf_core_enum_value(enum req_op, REQ_OP_WRITE_ZEROES))
		f |= FSL_RQ_WRITE;
	else if (op == bpf_core_enum_value(enum req_op, REQ_OP_DISCARD) ||
		 op == bpf_core_enum_value(enum req_op, REQ_OP_SECURE_ERASE))
		f |= FSL_RQ_DISCARD;
	else if (op == bpf_core_enum_value(enum req_op, REQ_OP_FLUSH))
		f |= FSL_RQ_FLUSH | FSL_RQ_NONE;
	else
		f |= FSL_RQ_NONE;
	if (cf & REQ_BIT(__REQ_PREFLUSH))
		f |= FSL_RQ_FLUSH;
	if (cf & REQ_BIT(__REQ_FUA))
		f |= FSL_RQ_FUA;
	if (cf & REQ_BIT(__REQ_SYNC))
		f |= FSL_RQ_SYNC;
	if (cf & REQ_BIT(__REQ_META))
		f |= FSL_RQ_META;
	if (cf & REQ_BIT(__REQ_RAHEAD))
		f |= FSL_RQ_AHEAD;
	return f;
}

/* blk_status_t -> -errno, as blk_status_to_errno() does for the common ones. */
static __always_inline __s32 blk_errno(__u8 st)
{
	switch (st) {
	case 0: return 0;
	case 1: return -95;	/* NOTSUPP: -EOPNOTSUPP */
	case 2: return -110;	/* TIMEOUT: -ETIMEDOUT */
	case 3: return -28;	/* NOSPC */
	case 4: return -67;	/* TRANSPORT: -ENOLINK */
	case 5: return -121;	/* TARGET: -EREMOTEIO */
	case 7: return -61;	/* MEDIUM: -ENODATA */
	case 8: return -71;	/* PROTECTION: -EILSEQ */
	case 9: return -12;	/* RESOURCE: -ENOMEM */
	case 11: return -11;	/* AGAIN */
	default: return -5;	/* EIO */
	}
}

static __always_inline int block_ev(struct request *rq, __u16 type, int complete,
				    __u8 status, __u32 nr_bytes)
{
	struct fsl_ev_block_rq *e;
	__u32 dev = rq_dev(rq), zero = 0;
	struct wake_dev_mark *m;

	if (complete) {
		m = bpf_map_lookup_elem(&wake_dev_cpu, &zero);
		if (m) {
			m->ts = bpf_ktime_get_ns();
			m->dev = dev;
		}
	}
	if (targ_blkdev && dev != targ_blkdev)
		return 0;
	e = EV_NEW(fsl_ev_block_rq, type, FSL_FAM_BLOCK);
	if (!e)
		return 0;
	e->dev = dev;
	e->sector = BPF_CORE_READ(rq, __sector);
	if (e->sector == (__u64)-1)	/* no start sector (a flush): 0, as blktrace has it */
		e->sector = 0;
	e->bytes = complete ? nr_bytes : BPF_CORE_READ(rq, __data_len);
	e->nr_sector = e->bytes >> 9;
	e->flags = rq_flags(BPF_CORE_READ(rq, cmd_flags));
	e->error = complete ? blk_errno(status) : 0;
	e->rq = (__u64)rq;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int bio_ev(struct bio *bio, __u16 type, __s32 error)
{
	struct fsl_ev_block_bio *e;
	__u32 dev = bio_dev(bio);

	if (targ_blkdev && dev != targ_blkdev)
		return 0;
	e = EV_NEW(fsl_ev_block_bio, type, FSL_FAM_BLOCK);
	if (!e)
		return 0;
	e->dev = dev;
	e->sector = BPF_CORE_READ(bio, bi_iter.bi_sector);
	e->nr_sector = BPF_CORE_READ(bio, bi_iter.bi_size) >> 9;
	e->flags = rq_flags(BPF_CORE_READ(bio, bi_opf));
	e->error = error;
	EV_SUBMIT(e);
	return 0;
}

static __always_inline int on_rq_insert(__u64 *ctx)
{
	return block_ev((struct request *)ctx[0], FSL_EV_BLOCK_RQ_INSERT, 0, 0, 0);
}
static __always_inline int on_rq_issue(__u64 *ctx)
{
	return block_ev((struct request *)ctx[0], FSL_EV_BLOCK_RQ_ISSUE, 0, 0, 0);
}
static __always_inline int on_rq_merge(__u64 *ctx)
{
	return block_ev((struct request *)ctx[0], FSL_EV_BLOCK_RQ_MERGE, 0, 0, 0);
}
/* block_rq_complete(struct request *rq, blk_status_t error, unsigned int nr_bytes) */
static __always_inline int on_rq_complete(__u64 *ctx)
{
	return block_ev((struct request *)ctx[0], FSL_EV_BLOCK_RQ_COMPLETE, 1,
			(__u8)ctx[1], (__u32)ctx[2]);
}

static __always_inline int on_rq_requeue(__u64 *ctx)
{
	return block_ev((struct request *)ctx[0], FSL_EV_BLOCK_RQ_REQUEUE, 0, 0, 0);
}

/* block_bio_queue(struct bio *bio): blktrace's Q, once per bio */
static __always_inline int on_bio_queue(__u64 *ctx)
{
	return bio_ev((struct bio *)ctx[0], FSL_EV_BLOCK_BIO_QUEUE, 0);
}
/* block_getrq(struct bio *bio): G, a request made for this bio */
static __always_inline int on_getrq(__u64 *ctx)
{
	return bio_ev((struct bio *)ctx[0], FSL_EV_BLOCK_GETRQ, 0);
}
static __always_inline int on_bio_backmerge(__u64 *ctx)
{
	return bio_ev((struct bio *)ctx[0], FSL_EV_BLOCK_BIO_BACKMERGE, 0);
}
static __always_inline int on_bio_frontmerge(__u64 *ctx)
{
	return bio_ev((struct bio *)ctx[0], FSL_EV_BLOCK_BIO_FRONTMERGE, 0);
}
/* block_bio_complete(struct request_queue *q, struct bio *bio) */
static __always_inline int on_bio_complete(__u64 *ctx)
{
	struct bio *bio = (struct bio *)ctx[1];

	return bio_ev(bio, FSL_EV_BLOCK_BIO_COMPLETE, blk_errno(BPF_CORE_READ(bio, bi_status)));
}
/* block_split(struct bio *bio, unsigned int new_sector) */
static __always_inline int on_split(__u64 *ctx)
{
	struct bio *bio = (struct bio *)ctx[0];
	struct fsl_ev_block_split *e;
	__u32 dev = bio_dev(bio);

	if (targ_blkdev && dev != targ_blkdev)
		return 0;
	e = EV_NEW(fsl_ev_block_split, FSL_EV_BLOCK_SPLIT, FSL_FAM_BLOCK);
	if (!e)
		return 0;
	e->dev = dev;
	e->sector = BPF_CORE_READ(bio, bi_iter.bi_sector);
	e->nr_sector = BPF_CORE_READ(bio, bi_iter.bi_size) >> 9;
	e->flags = rq_flags(BPF_CORE_READ(bio, bi_opf));
	e->new_sector = (__u32)ctx[1];
	EV_SUBMIT(e);
	return 0;
}

FSL_RAW_TP(block_rq_insert, on_rq_insert)
FSL_RAW_TP(block_rq_issue, on_rq_issue)
FSL_RAW_TP(block_rq_merge, on_rq_merge)
FSL_RAW_TP(block_rq_complete, on_rq_complete)
FSL_RAW_TP(block_rq_requeue, on_rq_requeue)
FSL_RAW_TP(block_bio_queue, on_bio_queue)
FSL_RAW_TP(block_getrq, on_getrq)
FSL_RAW_TP(block_bio_backmerge, on_bio_backmerge)
FSL_RAW_TP(block_bio_frontmerge, on_bio_frontmerge)
FSL_RAW_TP(block_bio_complete, on_bio_complete)
FSL_RAW_TP(block_split, on_split)

#endif
