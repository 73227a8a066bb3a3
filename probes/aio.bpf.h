/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asynchronous data operations (dirops family) on files of the target: one
 * struct fsl_ev_data per request, emitted when it completes, with the
 * submitting thread, the submission time, the offset and bytes asked, the
 * result and the latency (docs/events.md).
 *
 * libaio: io_submit's iocbs are read from user memory at the call's entry
 * (fd -> file -> superblock as for the synchronous calls), kept by their
 * user address, dropped at exit if the kernel did not take them; the
 * io_getevents (io_pgetevents) that reaps one gives its result, read from
 * the io_event array the call filled. The kernel has no tracepoint where
 * an aio request completes, so the latency ends where the application
 * learns of it.
 *
 * io_uring: io_uring_submit_req (the request prepared: opcode, offset,
 * length in the io_kiocb) and io_uring_complete (its file now assigned:
 * the superblock is judged there; the CQE's res), both with the request.
 */
#ifndef FSL_AIO_BPF_H
#define FSL_AIO_BPF_H

#include "common.bpf.h"

#define AIO_SUBMIT_MAX	64	/* iocbs looked at per io_submit */
#define AIO_REAP_MAX	512	/* io_events looked at per io_getevents */

/* include/uapi/linux/aio_abi.h (little-endian order of aio_key/aio_rw_flags) */
struct fsl_iocb {
	__u64 aio_data;
	__u32 aio_key;
	__u32 aio_rw_flags;
	__u16 aio_lio_opcode;
	__s16 aio_reqprio;
	__u32 aio_fildes;
	__u64 aio_buf;
	__u64 aio_nbytes;
	__s64 aio_offset;
	__u64 aio_reserved2;
	__u32 aio_flags;
	__u32 aio_resfd;
};

struct fsl_io_event {
	__u64 data;
	__u64 obj;	/* the iocb's user address */
	__s64 res;
	__s64 res2;
};

#define IOCB_CMD_PREAD		0
#define IOCB_CMD_PWRITE		1
#define IOCB_CMD_FSYNC		2
#define IOCB_CMD_FDSYNC		3
#define IOCB_CMD_PREADV		7
#define IOCB_CMD_PWRITEV	8

struct aio_key {
	__u64 iocb;
	__u32 tgid;
	__u32 _pad;
};

/* Requests on the target in flight: the record, completed when reaped. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, struct aio_key);
	__type(value, struct fsl_ev_data);
} aio_inflight SEC(".maps");

/* A thread inside io_submit or io_getevents: the array its call passed. */
struct aio_call {
	__u64 arr;
	__u64 t0;
	__u32 nr;
	__u32 syscall;
	__u8 kind;		/* dirop_sc.async */
	__u8 _pad[7];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct aio_call);
} aio_calls SEC(".maps");

struct aio_loop {
	struct aio_call *call;
	__u32 tgid;
	__s64 ret;
};

/* One iocb of io_submit: a request on the target goes into aio_inflight. */
static long aio_submit_step(__u64 i, void *ctx)
{
	struct aio_loop *l = ctx;
	struct aio_key key = { .tgid = l->tgid };
	struct fsl_iocb cb;
	struct fsl_ev_data *e;
	struct file *f;
	__u32 zero = 0;
	__u16 op;

	if (bpf_probe_read_user(&key.iocb, sizeof(key.iocb), (void *)(l->call->arr + 8 * i)) ||
	    bpf_probe_read_user(&cb, sizeof(cb), (void *)key.iocb))
		return 0;
	switch (cb.aio_lio_opcode) {
	case IOCB_CMD_PREAD: case IOCB_CMD_PREADV:
		op = FSL_DATA_AIO_READ;
		break;
	case IOCB_CMD_PWRITE: case IOCB_CMD_PWRITEV:
		op = FSL_DATA_AIO_WRITE;
		break;
	case IOCB_CMD_FSYNC: case IOCB_CMD_FDSYNC:
		op = FSL_DATA_AIO_FSYNC;
		break;
	default:
		return 0;
	}
	e = bpf_map_lookup_elem(&data_scratch, &zero);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	f = data_fd_file((__s32)cb.aio_fildes);
	if (!data_file_ok(f, e))
		return 0;
	data_path_note(f, e->dev, e->ino);
	hdr_fill(&e->hdr, FSL_EV_DATA, sizeof(*e));
	e->hdr.ts = l->call->t0;
	e->op = op;
	e->syscall = l->call->syscall;
	e->fd = cb.aio_fildes;
	if (op == FSL_DATA_AIO_FSYNC) {
		e->offset = -1;
		if (cb.aio_lio_opcode == IOCB_CMD_FDSYNC)
			e->flags |= FSL_DATA_DATASYNC;
	} else {
		e->offset = cb.aio_offset;
		if (cb.aio_lio_opcode == IOCB_CMD_PREADV || cb.aio_lio_opcode == IOCB_CMD_PWRITEV) {
			e->flags |= FSL_DATA_VEC;
			e->bytes = data_iov_sum(cb.aio_buf, cb.aio_nbytes, &e->flags);
		} else {
			e->bytes = cb.aio_nbytes;
		}
	}
	bpf_map_update_elem(&aio_inflight, &key, e, BPF_ANY);
	return 0;
}

/* An iocb io_submit did not take (past its return value): forget it. */
static long aio_unsubmit_step(__u64 i, void *ctx)
{
	struct aio_loop *l = ctx;
	struct aio_key key = { .tgid = l->tgid };
	__u64 k = (l->ret > 0 ? l->ret : 0) + i;

	if (!bpf_probe_read_user(&key.iocb, sizeof(key.iocb), (void *)(l->call->arr + 8 * k)))
		bpf_map_delete_elem(&aio_inflight, &key);
	return 0;
}

/* One io_event reaped: the request's record is complete. */
static long aio_reap_step(__u64 i, void *ctx)
{
	struct aio_loop *l = ctx;
	struct aio_key key = { .tgid = l->tgid };
	struct fsl_io_event ev;
	struct fsl_ev_data *e;

	if (bpf_probe_read_user(&ev, sizeof(ev), (void *)(l->call->arr + sizeof(ev) * i)))
		return 1;
	key.iocb = ev.obj;
	e = bpf_map_lookup_elem(&aio_inflight, &key);
	if (!e)
		return 0;
	e->ret = ev.res;
	e->lat_ns = bpf_ktime_get_ns() - e->hdr.ts;
	if (bpf_ringbuf_output(&events, e, sizeof(*e), rb_flags()))
		lost_inc(FSL_FAM_DIROPS);
	bpf_map_delete_elem(&aio_inflight, &key);
	return 0;
}

/* Entry of io_submit (async 1: ctx, nr, iocbpp) or io_getevents (2: ..., nr, events). */
static __always_inline void aio_call_enter(struct dirop_sc *sc, struct pt_regs *regs, __u32 nr,
					   const int btf)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct aio_call c = {};
	struct aio_loop l = { .tgid = id >> 32 };
	__s64 n = (__s64)sc_arg(regs, 1, btf);

	c.t0 = bpf_ktime_get_ns();
	c.kind = sc->async;
	c.syscall = nr;
	if (sc->async == 1) {
		c.arr = sc_arg(regs, 2, btf);
		c.nr = n < 0 ? 0 : n > AIO_SUBMIT_MAX ? AIO_SUBMIT_MAX : n;
	} else {
		c.arr = sc_arg(regs, 3, btf);
		c.nr = (__s64)sc_arg(regs, 2, btf) > 0 ? AIO_REAP_MAX : 0;
	}
	if (!c.arr || !c.nr)
		return;
	if (bpf_map_update_elem(&aio_calls, &tid, &c, BPF_ANY))
		return;
	if (sc->async == 1) {
		l.call = bpf_map_lookup_elem(&aio_calls, &tid);
		if (l.call)
			bpf_loop(c.nr, aio_submit_step, &l, 0);
	}
}

/* Exit of a thread's system call: if it was io_submit or io_getevents, settle its requests. */
static __always_inline void aio_call_exit(__s64 ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct aio_loop l = { .tgid = id >> 32, .ret = ret };
	struct aio_call *c = bpf_map_lookup_elem(&aio_calls, &tid);

	if (!c)
		return;
	l.call = c;
	if (c->kind == 1 && ret < c->nr)
		bpf_loop(c->nr - (ret > 0 ? ret : 0), aio_unsubmit_step, &l, 0);
	else if (c->kind == 2 && ret > 0)
		bpf_loop(ret < AIO_REAP_MAX ? ret : AIO_REAP_MAX, aio_reap_step, &l, 0);
	bpf_map_delete_elem(&aio_calls, &tid);
}

/* io_uring requests submitted by a recorded task, by their io_kiocb. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, struct fsl_ev_data);
} uring_inflight SEC(".maps");

/* include/uapi/linux/io_uring.h: stable numbers */
#define IORING_OP_READV		1
#define IORING_OP_WRITEV	2
#define IORING_OP_FSYNC		3
#define IORING_OP_READ_FIXED	4
#define IORING_OP_WRITE_FIXED	5
#define IORING_OP_READ		22
#define IORING_OP_WRITE		23
#define IORING_OP_READV_FIXED	60
#define IORING_OP_WRITEV_FIXED	61
#define IORING_FSYNC_DATASYNC	1

/* io_uring_submit_req(struct io_kiocb *req): prepared, in the submitting task. */
static __always_inline int on_uring_submit(__u64 *ctx)
{
	struct io_kiocb *req = (struct io_kiocb *)ctx[0];
	__u64 id = bpf_get_current_pid_tgid(), key = (__u64)req;
	struct fsl_ev_data *e;
	__u32 zero = 0;
	__u8 opc;
	__u16 op;

	if (targ_floor || (id >> 32) == targ_self || !tgid_wanted(id >> 32))
		return 0;
	opc = BPF_CORE_READ(req, opcode);
	switch (opc) {
	case IORING_OP_READ: case IORING_OP_READV: case IORING_OP_READ_FIXED:
	case IORING_OP_READV_FIXED:
		op = FSL_DATA_URING_READ;
		break;
	case IORING_OP_WRITE: case IORING_OP_WRITEV: case IORING_OP_WRITE_FIXED:
	case IORING_OP_WRITEV_FIXED:
		op = FSL_DATA_URING_WRITE;
		break;
	case IORING_OP_FSYNC:
		op = FSL_DATA_URING_FSYNC;
		break;
	default:
		return 0;
	}
	e = bpf_map_lookup_elem(&data_scratch, &zero);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	hdr_fill(&e->hdr, FSL_EV_DATA, sizeof(*e));
	e->op = op;
	e->syscall = opc;	/* io_uring: the IORING_OP_* opcode */
	e->fd = BPF_CORE_READ(req, cqe.fd);
	if (op == FSL_DATA_URING_FSYNC) {
		/* struct io_sync in the request's command area */
		struct io_sync *s = (void *)req + bpf_core_field_offset(struct io_kiocb, cmd);

		e->offset = BPF_CORE_READ(s, off);
		e->bytes = BPF_CORE_READ(s, len);
		if (BPF_CORE_READ(s, flags) & IORING_FSYNC_DATASYNC)
			e->flags |= FSL_DATA_DATASYNC;
	} else if (bpf_core_type_exists(struct io_rw)) {
		struct io_rw *rw = (void *)req + bpf_core_field_offset(struct io_kiocb, cmd);
		__u64 addr = BPF_CORE_READ(rw, addr);
		__u32 len = BPF_CORE_READ(rw, len);

		e->offset = BPF_CORE_READ(rw, kiocb.ki_pos);
		if (opc == IORING_OP_READV || opc == IORING_OP_WRITEV ||
		    opc == IORING_OP_READV_FIXED || opc == IORING_OP_WRITEV_FIXED) {
			e->flags |= FSL_DATA_VEC;
			e->bytes = data_iov_sum(addr, len, &e->flags);
		} else {
			e->bytes = len;
		}
	}
	bpf_map_update_elem(&uring_inflight, &key, e, BPF_ANY);
	return 0;
}

/* io_uring_complete(ctx, void *req, struct io_uring_cqe *cqe): req NULL for extra CQEs. */
static __always_inline int on_uring_complete(__u64 *ctx)
{
	struct io_kiocb *req = (struct io_kiocb *)ctx[1];
	struct io_uring_cqe *cqe = (struct io_uring_cqe *)ctx[2];
	__u64 key = (__u64)req;
	struct fsl_ev_data *e;
	struct file *f;

	if (!req)
		return 0;
	e = bpf_map_lookup_elem(&uring_inflight, &key);
	if (!e)
		return 0;
	f = BPF_CORE_READ(req, file);
	if (data_file_ok(f, e)) {
		data_path_note(f, e->dev, e->ino);
		e->ret = BPF_CORE_READ(cqe, res);
		e->lat_ns = bpf_ktime_get_ns() - e->hdr.ts;
		if (bpf_ringbuf_output(&events, e, sizeof(*e), rb_flags()))
			lost_inc(FSL_FAM_DIROPS);
	}
	bpf_map_delete_elem(&uring_inflight, &key);
	return 0;
}

FSL_RAW_TP(io_uring_submit_req, on_uring_submit)
FSL_RAW_TP(io_uring_complete, on_uring_complete)

#endif
