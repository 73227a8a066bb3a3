/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dirops family: path-based system calls, one record per completed call
 * with the path(s), flags, result and entry-to-exit latency. raw_syscalls
 * sys_enter/sys_exit on tp_btf (raw_tp fallback); which syscalls to follow
 * and where their arguments are comes from the dirop_sc table that the
 * collector fills for this architecture, so nothing here is arch-specific.
 * The path is copied at entry (bounded, truncation flagged); the record is
 * built in a per-thread hash entry and emitted at exit.
 */
#ifndef FSL_DIROPS_BPF_H
#define FSL_DIROPS_BPF_H

#include "common.bpf.h"
#include "cpupend.bpf.h"

/* Keep in sync with collector/dirops_table.c (struct fsl_dirop_sc). */
struct dirop_sc {
	__u8 op;		/* enum fsl_dirop_kind + 1; 0 = not followed */
	__s8 path;		/* argument index of each, -1 if none */
	__s8 path2;
	__s8 dirfd;
	__s8 dirfd2;
	__s8 flags;
	__s8 mode;
	__s8 fd;
	__u8 how;		/* openat2: flags are in struct open_how (arg flags) */
	__u8 creat;		/* creat(): implies O_CREAT */
	/* data operations (probes/data.bpf.h) */
	__u8 data;		/* enum fsl_data_kind + 1; 0 = not a data operation */
	__s8 count;		/* count or length; with iov: the iovec count */
	__s8 off;		/* offset (a loff_t pointer with offptr) */
	__s8 off2;		/* fd2's offset pointer */
	__s8 iov;		/* iovec array */
	__s8 fd2;		/* the other file of copy_file_range, sendfile, splice */
	__u8 offptr;		/* off and off2 are user loff_t pointers */
	__u8 aio;		/* 1: io_getevents-like (min_nr is count); 2: io_uring_enter */
	__s8 statbuf;		/* stat family: the struct the call fills, -1 if none */
	__u8 statx;		/* statbuf is a struct statx */
	__u8 async;		/* 1: io_submit (probes/aio.bpf.h); 2: io_getevents-like */
	__u8 _pad[3];
};

#define DIROP_NR_MAX	1024
#define DIROP_READ	(FSL_DIROP_PATH_MAX + 2)	/* one more than kept, to see truncation */
#define DIROP_BUF	(sizeof(struct fsl_ev_dirop) + FSL_DIROP_PATH_MAX + DIROP_READ + 16)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DIROP_NR_MAX);
	__type(key, __u32);
	__type(value, struct dirop_sc);
} dirop_sc SEC(".maps");

struct dirop_buf {
	__u8 raw[DIROP_BUF];
	__u8 held;		/* the cpu family holds a sample for this call (cpupend.bpf.h) */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct dirop_buf);
} dirop_inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dirop_buf);
} dirop_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct dirop_buf);
} dirop_task SEC(".maps");

/*
 * Argument i of the syscall whose saved user registers are regs. On tp_btf
 * regs is a typed kernel pointer, read directly; on raw_tp it is not, and
 * each register is read with a probe read.
 */
#define SC_ARG(n) (btf ? PT_REGS_PARM##n##_SYSCALL(regs) : PT_REGS_PARM##n##_CORE_SYSCALL(regs))
static __always_inline __u64 sc_arg(struct pt_regs *regs, int i, const int btf)
{
	switch (i) {
	case 0: return SC_ARG(1);
	case 1: return SC_ARG(2);
	case 2: return SC_ARG(3);
	case 3: return SC_ARG(4);
	case 4: return SC_ARG(5);
	default: return 0;
	}
}
#undef SC_ARG

#include "data.bpf.h"
#include "aio.bpf.h"

#define IORING_ENTER_GETEVENTS_BIT	1

/* Entering a call that may sleep until asynchronous I/O completes. */
static __always_inline void aio_enter(struct dirop_sc *sc, struct pt_regs *regs, __u32 tid,
				      const int btf)
{
	__u8 one = 1;

	if (!targ_aio)
		return;
	if (sc->aio == 1 && !sc_arg(regs, sc->count, btf))
		return;		/* min_nr 0: never sleeps */
	if (sc->aio == 2 && (!(sc_arg(regs, 3, btf) & IORING_ENTER_GETEVENTS_BIT) ||
			     !sc_arg(regs, 2, btf)))
		return;		/* no completions to wait for */
	bpf_map_update_elem(&aio_wait, &tid, &one, BPF_ANY);
}

/* Copy a user path to dst; returns the kept length, flags truncation/fault. */
static __always_inline __u16 copy_path(char *dst, const char *src, __u16 *pflags,
				       __u16 trunc_flag)
{
	long n = bpf_probe_read_user_str(dst, DIROP_READ, src);

	if (n <= 0) {
		*pflags |= FSL_DIROP_FAULT;
		return 0;
	}
	n -= 1;		/* the NUL */
	if (n > FSL_DIROP_PATH_MAX) {
		*pflags |= trunc_flag;
		n = FSL_DIROP_PATH_MAX;
	}
	return n;
}

/* The table entry of a followed syscall, else NULL. */
static __always_inline struct dirop_sc *dirop_sc_of(__u32 nr)
{
	struct dirop_sc *sc;

	if (nr >= DIROP_NR_MAX)
		return NULL;
	sc = bpf_map_lookup_elem(&dirop_sc, &nr);
	return sc && (sc->op || sc->data || sc->aio || sc->async) ? sc : NULL;
}

/* The table entry of a followed syscall by a wanted task, else NULL. */
static __always_inline struct dirop_sc *dirop_followed(__u32 nr, __u64 id)
{
	struct dirop_sc *sc = dirop_sc_of(nr);	/* the cheap test first */

	if (!sc || (id >> 32) == targ_self || !tgid_wanted(id >> 32))
		return NULL;
	return sc;
}

/* Filesystem of the file fd of the current task, 0 if none. */
static __always_inline __u32 fd_dev(__s32 fd)
{
	struct file *f = data_fd_file(fd);

	return f ? BPF_CORE_READ(f, f_inode, i_sb, s_dev) : 0;
}

#include "scope.bpf.h"

/* Build the record of sys_enter(regs, nr) in b (header type set last). */
static __always_inline void dirop_fill(struct dirop_buf *b, struct dirop_sc *sc,
				       struct pt_regs *regs, __u32 nr, const int btf)
{
	struct fsl_ev_dirop *e = (struct fsl_ev_dirop *)b->raw;
	__u16 len, off;

	__builtin_memset(e, 0, sizeof(*e));
	b->held = 0;
	hdr_fill(&e->hdr, FSL_EV_DIROP, 0);
	e->op = sc->op - 1;
	e->syscall = nr;
	e->dirfd = sc->dirfd >= 0 ? (__s32)sc_arg(regs, sc->dirfd, btf) : -100;
	e->dirfd2 = sc->dirfd2 >= 0 ? (__s32)sc_arg(regs, sc->dirfd2, btf) : -100;
	e->fd = sc->fd >= 0 ? (__s32)sc_arg(regs, sc->fd, btf) : -1;
	if (sc->flags >= 0) {
		__u64 f = sc_arg(regs, sc->flags, btf);

		if (sc->how) {
			__u64 how_flags = 0;

			bpf_probe_read_user(&how_flags, sizeof(how_flags), (void *)f);
			f = how_flags;
		}
		e->flags = (__u32)f;
	}
	if (sc->creat)
		e->flags |= targ_o_creat;
	if (sc->mode >= 0)
		e->mode = (__u32)sc_arg(regs, sc->mode, btf);
	if (e->op == FSL_OP_OPEN && (e->flags & targ_o_creat))
		e->op = FSL_OP_CREATE;
	if (e->op == FSL_OP_UNLINK && (e->flags & 0x200))	/* AT_REMOVEDIR */
		e->op = FSL_OP_RMDIR;
	if (sc->path >= 0) {
		len = copy_path(e->paths, (const char *)sc_arg(regs, sc->path, btf), &e->pflags,
				FSL_DIROP_TRUNC1);
		e->path_len = len;
	}
	if (sc->path2 >= 0) {
		off = e->path_len;
		if (off > FSL_DIROP_PATH_MAX)
			off = FSL_DIROP_PATH_MAX;
		len = copy_path(e->paths + off, (const char *)sc_arg(regs, sc->path2, btf),
				&e->pflags, FSL_DIROP_TRUNC2);
		e->path2_len = len;
	}
}

/*
 * getdents64: the entries the call put in the caller's buffer, in readdir
 * order. Walked at exit with bpf_loop (one linux_dirent64 header per step:
 * d_ino u64, d_off s64, d_reclen u16, d_type u8), FSL_DIRENTS_MAX inode
 * numbers per record, at most DIRENTS_WALK_MAX entries per call.
 */
#define DIRENTS_WALK_MAX	8192
#define DIRENTS_HDR		19	/* offsetof(struct linux_dirent64, d_name) */
#define DIRENTS_BUF		(sizeof(struct fsl_ev_dirents) + 8 * FSL_DIRENTS_MAX)

struct dirents_buf {
	__u8 raw[DIRENTS_BUF];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dirents_buf);
} dirents_scratch SEC(".maps");

struct dirents_walk {
	__u64 ubuf;		/* the user buffer */
	__u32 off;		/* bytes walked */
	__u32 len;		/* bytes the call filled */
	__u32 seq;		/* entries emitted before the current record */
	__u16 flags;
};

struct dirent64_head {
	__u64 d_ino;
	__s64 d_off;
	__u16 d_reclen;
	__u8 d_type;
	__u8 _pad[5];
};

static __always_inline void dirents_emit(struct fsl_ev_dirents *e)
{
	__u64 size = fsl_dirents_size(e->count);

	if (size > DIRENTS_BUF)
		size = DIRENTS_BUF;
	e->hdr.size = size;
	if (bpf_ringbuf_output(&events, e, size, rb_flags()))
		lost_inc(FSL_FAM_DIROPS);
}

static long dirents_step(__u64 i, void *ctx)
{
	struct dirents_walk *w = ctx;
	struct dirent64_head d = {};
	struct fsl_ev_dirents *e;
	struct dirents_buf *b;
	__u32 zero = 0, n;

	if (w->off >= w->len)
		return 1;
	b = bpf_map_lookup_elem(&dirents_scratch, &zero);
	if (!b)
		return 1;
	e = (struct fsl_ev_dirents *)b->raw;
	if (w->len - w->off < DIRENTS_HDR ||
	    bpf_probe_read_user(&d, DIRENTS_HDR, (void *)(w->ubuf + w->off)) ||
	    d.d_reclen < DIRENTS_HDR || d.d_reclen > w->len - w->off) {
		w->flags |= FSL_DIRENTS_FAULT;
		return 1;
	}
	n = e->count;
	if (n >= FSL_DIRENTS_MAX)
		return 1;	/* cannot happen: emitted when full */
	e->ino[n] = d.d_ino;
	e->type[n] = d.d_type;
	e->count = n + 1;
	w->off += d.d_reclen;
	if (e->count == FSL_DIRENTS_MAX) {
		e->seq = w->seq;
		e->flags = 0;
		dirents_emit(e);
		w->seq += FSL_DIRENTS_MAX;
		e->count = 0;
	}
	return 0;
}

static __always_inline void dirents_walk(struct pt_regs *regs, __s32 fd, __s64 ret)
{
	struct dirents_walk w = {};
	struct fsl_ev_dirents *e;
	struct dirents_buf *b;
	__u32 zero = 0;

	b = bpf_map_lookup_elem(&dirents_scratch, &zero);
	if (!b)
		return;
	e = (struct fsl_ev_dirents *)b->raw;
	__builtin_memset(e, 0, sizeof(*e));
	hdr_fill(&e->hdr, FSL_EV_DIRENTS, 0);
	e->fd = fd;
	/* the saved user registers still hold the arguments at exit */
	w.ubuf = sc_arg(regs, 1, 0);
	w.len = ret;
	bpf_loop(DIRENTS_WALK_MAX, dirents_step, &w, 0);
	if (w.off < w.len && !(w.flags & FSL_DIRENTS_FAULT))
		w.flags |= FSL_DIRENTS_TRUNC;
	if (e->count || w.flags) {
		e->seq = w.seq;
		e->flags = w.flags;
		dirents_emit(e);
	}
}

/* Emit the record kept in b at sys_exit(regs, ret). */
static __always_inline void dirop_emit(struct dirop_buf *b, struct pt_regs *regs, __s64 ret)
{
	struct fsl_ev_dirop *e = (struct fsl_ev_dirop *)b->raw;
	__u64 size, now = bpf_ktime_get_ns();
	__u32 dev, how;

	/* Scope (-m/-d): only a call that acted on the target is recorded. */
	if (targ_dev) {
		how = scope_judge(e, regs, ret, &dev);
		/* a sample held in the call counts with its verdict (sync: every filesystem's) */
		if (b->held) {
			cpu_pend_commit(how == FSL_DIROP_SCOPE_ALL ? 0 :
					dev == targ_dev ? FSL_OFFCPU_WALK_TARGET :
					FSL_OFFCPU_WALK_OTHER);
			/* after: a sample inside the commit counts at once */
			b->held = 0;
		}
		if (how != FSL_DIROP_SCOPE_ALL && dev != targ_dev)
			return;
		e->pflags |= how << FSL_DIROP_SCOPE_SHIFT;
	}
	e->ret = ret;
	e->lat_ns = now - e->hdr.ts;
	size = (sizeof(struct fsl_ev_dirop) + (__u64)e->path_len + e->path2_len + 7) & ~7ULL;
	if (size > DIROP_BUF)
		size = DIROP_BUF;
	e->hdr.size = size;
	if (bpf_ringbuf_output(&events, b->raw, size, rb_flags()))
		lost_inc(FSL_FAM_DIROPS);
	if (e->op == FSL_OP_READDIR && e->ret > 0)
		dirents_walk(regs, e->fd, e->ret);
}

/*
 * tp_btf and per-syscall tracepoints: the record in flight lives in the
 * task's own storage, created at the task's first followed call and
 * reused; hdr.type marks it pending. Measured (bpf_stats,
 * run_time_ns/run_cnt) this is cheaper than the hash below: no 600-byte
 * copy into a hash entry and no delete per call, and sys_exit of a task
 * that never made a followed call is one pointer test.
 */
static __always_inline void task_enter(struct task_struct *task, struct pt_regs *regs,
				       struct dirop_sc *sc, __u32 nr)
{
	struct dirop_buf *b;

	if (sc->aio)
		aio_enter(sc, regs, (__u32)bpf_get_current_pid_tgid(), 1);
	if (sc->data)
		data_task_enter(task, regs, sc, nr);
	if (sc->async)
		aio_call_enter(sc, regs, nr, 1);
	if (!sc->op)
		return;
	b = bpf_task_storage_get(&dirop_task, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (b)
		dirop_fill(b, sc, regs, nr, 1);
}

/* sc: the call's table entry, or NULL when the syscall number is not known here. */
static __always_inline void task_exit(struct task_struct *task, struct pt_regs *regs, __s64 ret,
				      struct dirop_sc *sc)
{
	struct dirop_buf *b;
	struct fsl_ev_dirop *e;

	if (targ_aio && (!sc || sc->aio)) {
		__u32 tid = (__u32)bpf_get_current_pid_tgid();

		bpf_map_delete_elem(&aio_wait, &tid);
	}
	if (!sc || sc->data)
		data_task_exit(task, ret);
	if (!sc || sc->async)
		aio_call_exit(ret);
	if (!sc || sc->op) {
		b = bpf_task_storage_get(&dirop_task, task, 0, 0);
		e = b ? (struct fsl_ev_dirop *)b->raw : NULL;
		if (e && e->hdr.type == FSL_EV_DIROP) {
			dirop_emit(b, regs, ret);
			e->hdr.type = 0;
		}
	}
}

SEC("tp_btf/sys_enter")
int btf_on_sys_enter(__u64 *ctx)
{
	FSL_FLOOR();
	__u32 nr = (__u32)ctx[1];
	struct dirop_sc *sc;

	if (targ_floor)
		return 0;
	sc = dirop_followed(nr, bpf_get_current_pid_tgid());
	if (sc)
		task_enter(bpf_get_current_task_btf(), (struct pt_regs *)ctx[0], sc, nr);
	return 0;
}

SEC("tp_btf/sys_exit")
int btf_on_sys_exit(__u64 *ctx)
{
	FSL_FLOOR();
	struct dirop_sc *sc = NULL;

	if (targ_floor)
		return 0;
#if defined(__TARGET_ARCH_x86)
	/*
	 * Most syscalls are not followed: tell from the syscall number (still
	 * in the saved registers) before the task storage lookup, a helper call.
	 */
	sc = dirop_sc_of(((struct pt_regs *)ctx[0])->orig_ax);
	if (!sc)
		return 0;
#endif
	task_exit(bpf_get_current_task_btf(), (struct pt_regs *)ctx[0], (__s64)ctx[1], sc);
	return 0;
}

/*
 * Per-syscall tracepoints (syscalls/sys_enter_<name>, sys_exit_<name>;
 * record --syscall-tp): the collector attaches these two programs to the
 * followed syscalls only, so every other system call runs no program at
 * all (with raw_syscalls each runs two). The arguments come from the
 * task's saved user registers, so the programs read nothing of the
 * tracepoint record past its syscall number and return value, which every
 * syscall's record has: what the kernel lets a program read of
 * sys_enter_sync, which has no arguments, ends after nr.
 */
struct sc_tp_head {
	__u64 common;
	int nr;
};

struct sc_tp_exit {
	__u64 common;
	int nr;
	int _pad;
	long ret;
};

SEC("tracepoint")
int tp_dirop_enter(struct sc_tp_head *ctx)
{
	FSL_FLOOR();
	struct dirop_sc *sc;
	struct task_struct *task;

	if (targ_floor)
		return 0;
	sc = dirop_followed(ctx->nr, bpf_get_current_pid_tgid());
	if (sc) {
		task = bpf_get_current_task_btf();
		task_enter(task, (struct pt_regs *)bpf_task_pt_regs(task), sc, ctx->nr);
	}
	return 0;
}

SEC("tracepoint")
int tp_dirop_exit(struct sc_tp_exit *ctx)
{
	FSL_FLOOR();
	struct task_struct *task;

	if (targ_floor)
		return 0;
	task = bpf_get_current_task_btf();
	task_exit(task, (struct pt_regs *)bpf_task_pt_regs(task), ctx->ret, dirop_sc_of(ctx->nr));
	return 0;
}

/* raw_tp (kernels without tp_btf or task storage for tracing): a tid hash. */
SEC("raw_tp/sys_enter")
int raw_on_sys_enter(__u64 *ctx)
{
	FSL_FLOOR();
	__u32 nr = (__u32)ctx[1], zero = 0;
	__u64 id = bpf_get_current_pid_tgid();
	struct dirop_sc *sc = targ_floor ? NULL : dirop_followed(nr, id);
	struct dirop_buf *b;
	__u32 tid = (__u32)id;

	if (!sc)
		return 0;
	if (sc->aio)
		aio_enter(sc, (struct pt_regs *)ctx[0], tid, 0);
	if (sc->data)
		data_raw_enter((struct pt_regs *)ctx[0], sc, nr, tid);
	if (sc->async)
		aio_call_enter(sc, (struct pt_regs *)ctx[0], nr, 0);
	if (!sc->op)
		return 0;
	b = bpf_map_lookup_elem(&dirop_scratch, &zero);
	if (!b)
		return 0;
	dirop_fill(b, sc, (struct pt_regs *)ctx[0], nr, 0);
	bpf_map_update_elem(&dirop_inflight, &tid, b, BPF_ANY);
	return 0;
}

SEC("raw_tp/sys_exit")
int raw_on_sys_exit(__u64 *ctx)
{
	FSL_FLOOR();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct dirop_buf *b;

	if (targ_floor)
		return 0;
	if (targ_aio)
		bpf_map_delete_elem(&aio_wait, &tid);
	data_raw_exit(tid, (__s64)ctx[1]);
	aio_call_exit((__s64)ctx[1]);
	b = bpf_map_lookup_elem(&dirop_inflight, &tid);
	if (!b)
		return 0;
	dirop_emit(b, (struct pt_regs *)ctx[0], (__s64)ctx[1]);
	bpf_map_delete_elem(&dirop_inflight, &tid);
	return 0;
}

#endif
