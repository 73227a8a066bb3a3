/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data operations (dirops family): read/write and their p/v variants, the
 * fsync family, sync_file_range, fallocate, ftruncate, copy_file_range,
 * sendfile and splice. Followed through the dirops syscall table (entries
 * with data set) on the same sys_enter/sys_exit programs. At entry the fd
 * is resolved in the kernel (task -> files -> fdtable -> file -> inode ->
 * superblock): only regular files of the recorded filesystem (targ_dev)
 * are kept, so nothing of another filesystem is ever emitted. The record
 * is built at entry in the task's storage (a tid hash on raw_tp) and
 * emitted at exit with the return value and the latency.
 */
#ifndef FSL_DATA_BPF_H
#define FSL_DATA_BPF_H

#include "common.bpf.h"

const volatile __u32 targ_o_direct = 040000;	/* O_DIRECT on this arch */
const volatile __u32 targ_o_append = 02000;	/* O_APPEND on this arch */

#define S_IFMT_BITS	00170000
#define S_IFREG_BITS	0100000
#define DATA_IOV_MAX	16	/* iovecs summed for bytes asked */

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct fsl_ev_data);
} data_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct fsl_ev_data);
} data_inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fsl_ev_data);
} data_scratch SEC(".maps");

/* The struct file of fd in the current task, NULL if none. */
static __always_inline struct file *data_fd_file(__s32 fd)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fa, *f = NULL;

	if (!fdt || fd < 0 || (__u32)fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fa = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), fa + fd))
		return NULL;
	return f;
}

/*
 * Is f a regular file of the target? Fills dev, ino, flags and name of e.
 * Without a target (targ_dev 0) every regular file counts.
 */
static __always_inline bool data_file_ok(struct file *f, struct fsl_ev_data *e)
{
	struct inode *inode;
	const unsigned char *name;
	__u32 dev, fl;

	if (!f)
		return false;
	inode = BPF_CORE_READ(f, f_inode);
	if (!inode || (BPF_CORE_READ(inode, i_mode) & S_IFMT_BITS) != S_IFREG_BITS)
		return false;
	dev = BPF_CORE_READ(inode, i_sb, s_dev);
	e->dev = dev;	/* also when it is not the target's: offcpu.bpf.h reads it */
	if (DEV_SKIP(dev))
		return false;
	e->ino = BPF_CORE_READ(inode, i_ino);
	fl = BPF_CORE_READ(f, f_flags);
	if (fl & targ_o_direct)
		e->flags |= FSL_DATA_DIRECT;
	if (fl & targ_o_append)
		e->flags |= FSL_DATA_APPEND;
	name = BPF_CORE_READ(f, f_path.dentry, d_name.name);
	if (name)
		bpf_probe_read_kernel_str(e->name, sizeof(e->name), name);
	return true;
}

/*
 * The path of each file of the target, once (FSL_EV_FILE_PATH): the files
 * already described, forgotten oldest first past the map's size (then
 * described again).
 */
#define FILE_PATH_DEPTH	16	/* components followed up from the file */

struct file_key {
	__u64 ino;
	__u32 dev;
	__u32 _pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, struct file_key);
	__type(value, __u8);
} data_paths SEC(".maps");

struct path_scratch {
	struct fsl_ev_file_path ev;
	char buf[2 * FSL_FILE_PATH_MAX];	/* a name at any offset below FSL_FILE_PATH_MAX fits */
	__u64 d[FILE_PATH_DEPTH];		/* the file's dentry and its parents below the root */
	__u64 cur;
	__u32 n, pos;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct path_scratch);
} path_scratch SEC(".maps");

struct path_ctx {
	struct path_scratch *ps;
};

static long path_up_step(__u64 i, void *ctx)
{
	struct path_scratch *ps = ((struct path_ctx *)ctx)->ps;
	struct dentry *d = (struct dentry *)ps->cur, *p;

	p = BPF_CORE_READ(d, d_parent);
	if (!d || !p || p == d)
		return 1;	/* the filesystem's root */
	ps->d[i & (FILE_PATH_DEPTH - 1)] = (__u64)d;
	ps->n = i + 1;
	ps->cur = (__u64)p;
	return 0;
}

static long path_put_step(__u64 i, void *ctx)
{
	struct path_scratch *ps = ((struct path_ctx *)ctx)->ps;
	struct dentry *d = (struct dentry *)ps->d[(ps->n - 1 - i) & (FILE_PATH_DEPTH - 1)];
	__u32 pos = ps->pos;
	long n;

	if (pos >= FSL_FILE_PATH_MAX - 1) {
		ps->ev.flags |= FSL_FILE_PATH_TRUNC;
		return 1;
	}
	barrier_var(pos);	/* keep the masks: the verifier bounds the offsets by them */
	ps->buf[pos & (FSL_FILE_PATH_MAX - 1)] = '/';
	pos++;
	barrier_var(pos);
	n = bpf_probe_read_kernel_str(&ps->buf[pos & (FSL_FILE_PATH_MAX - 1)], FSL_FILE_PATH_MAX,
				      BPF_CORE_READ(d, d_name.name));
	if (n > 1)
		pos += n - 1;
	ps->pos = pos;
	return 0;
}

/*
 * The file each CPU described or found described last: a loop of calls on
 * one file (the data operations' worst case) then costs an array lookup a
 * call, not a hash lookup.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct file_key);
} data_path_last SEC(".maps");

/* Describe file f (dev, ino) of the target if not done already. */
static __always_inline void data_path_note(struct file *f, __u32 dev, __u64 ino)
{
	struct file_key key = { .ino = ino, .dev = dev }, *last;
	struct path_ctx ctx;
	struct path_scratch *ps;
	__u32 zero = 0;
	__u8 one = 1;

	last = bpf_map_lookup_elem(&data_path_last, &zero);
	if (last && last->ino == ino && last->dev == dev)
		return;
	if (last) {
		last->ino = ino;
		last->dev = dev;
	}
	if (bpf_map_lookup_elem(&data_paths, &key))
		return;
	ps = bpf_map_lookup_elem(&path_scratch, &zero);
	if (!ps)
		return;
	bpf_map_update_elem(&data_paths, &key, &one, BPF_ANY);
	ctx.ps = ps;
	__builtin_memset(&ps->ev, 0, sizeof(ps->ev));
	hdr_fill(&ps->ev.hdr, FSL_EV_FILE_PATH, sizeof(ps->ev));
	ps->ev.ino = ino;
	ps->ev.dev = dev;
	ps->cur = (__u64)BPF_CORE_READ(f, f_path.dentry);
	ps->n = ps->pos = 0;
	bpf_loop(FILE_PATH_DEPTH, path_up_step, &ctx, 0);
	if (ps->n == FILE_PATH_DEPTH) {
		struct dentry *top = (struct dentry *)ps->cur;

		if (BPF_CORE_READ(top, d_parent) != top)
			ps->ev.flags |= FSL_FILE_PATH_TRUNC;
	}
	bpf_loop(ps->n, path_put_step, &ctx, 0);
	if (ps->pos > FSL_FILE_PATH_MAX) {
		ps->pos = FSL_FILE_PATH_MAX;
		ps->ev.flags |= FSL_FILE_PATH_TRUNC;
	}
	ps->ev.path_len = ps->pos;
	bpf_probe_read_kernel(ps->ev.path, FSL_FILE_PATH_MAX, ps->buf);
	if (bpf_ringbuf_output(&events, &ps->ev, sizeof(ps->ev), rb_flags()))
		lost_inc(FSL_FAM_DIROPS);
}

/* Sum of the lengths of n user iovecs (at most DATA_IOV_MAX). */
static __always_inline __u64 data_iov_sum(__u64 uiov, __u64 n, __u16 *flags)
{
	struct { __u64 base, len; } v;
	__u64 sum = 0;
	int i;

	if (n > DATA_IOV_MAX)
		*flags |= FSL_DATA_IOV_TRUNC;
	for (i = 0; i < DATA_IOV_MAX; i++) {
		if (i >= n)
			break;
		if (bpf_probe_read_user(&v, sizeof(v), (void *)(uiov + 16 * i))) {
			*flags |= FSL_DATA_IOV_TRUNC;
			break;
		}
		sum += v.len;
	}
	return sum;
}

/* The offset a call starts at: its argument, a user loff_t, or f_pos. */
static __always_inline __s64 data_offset(struct dirop_sc *sc, struct pt_regs *regs, struct file *f,
					 __s8 arg, const int btf)
{
	__s64 off;

	if (arg >= 0) {
		off = (__s64)sc_arg(regs, arg, btf);
		if (sc->offptr) {
			__u64 p = (__u64)off;

			if (!p)
				return BPF_CORE_READ(f, f_pos);
			if (bpf_probe_read_user(&off, sizeof(off), (void *)p))
				return -1;
			return off;
		}
		/* preadv2/pwritev2 with offset -1: the file position */
		if (off == -1 && (sc->data - 1 == FSL_DATA_PREAD || sc->data - 1 == FSL_DATA_PWRITE))
			return BPF_CORE_READ(f, f_pos);
		return off;
	}
	switch (sc->data - 1) {
	case FSL_DATA_READ: case FSL_DATA_WRITE: case FSL_DATA_COPY_RANGE:
	case FSL_DATA_SENDFILE: case FSL_DATA_SPLICE:
		return BPF_CORE_READ(f, f_pos);
	}
	return -1;
}

/* Build the data record of sys_enter(regs, nr) in e; false if not the target's. */
static __always_inline bool data_fill(struct fsl_ev_data *e, struct dirop_sc *sc,
				      struct pt_regs *regs, __u32 nr, const int btf)
{
	__u64 t0 = bpf_ktime_get_ns();	/* the entry, before the lookups below */
	__s32 fd = (__s32)sc_arg(regs, sc->fd, btf);
	struct file *f;
	__s8 offarg = sc->off;

	__builtin_memset(e, 0, sizeof(*e));
	f = data_fd_file(fd);
	if (!data_file_ok(f, e)) {
		if (sc->fd2 < 0)
			return false;
		__builtin_memset(e, 0, sizeof(*e));
		fd = (__s32)sc_arg(regs, sc->fd2, btf);
		f = data_fd_file(fd);
		if (!data_file_ok(f, e))
			return false;
		e->flags |= FSL_DATA_OUT;
		offarg = sc->off2;
	}
	data_path_note(f, e->dev, e->ino);
	/* copy_file_range, sendfile: both files may be the target's */
	if (!(e->flags & FSL_DATA_OUT) && sc->fd2 >= 0) {
		struct file *f2 = data_fd_file((__s32)sc_arg(regs, sc->fd2, btf));
		struct inode *i2 = f2 ? BPF_CORE_READ(f2, f_inode) : NULL;
		const unsigned char *n2;

		if (i2 && (BPF_CORE_READ(i2, i_mode) & S_IFMT_BITS) == S_IFREG_BITS &&
		    BPF_CORE_READ(i2, i_sb, s_dev) == e->dev) {
			e->flags |= FSL_DATA_BOTH;
			e->ino2 = BPF_CORE_READ(i2, i_ino);
			n2 = BPF_CORE_READ(f2, f_path.dentry, d_name.name);
			if (n2)
				bpf_probe_read_kernel_str(e->name2, sizeof(e->name2), n2);
			data_path_note(f2, e->dev, e->ino2);
		}
	}
	hdr_fill(&e->hdr, FSL_EV_DATA, sizeof(*e));
	e->hdr.ts = t0;
	e->op = sc->data - 1;
	e->syscall = nr;
	e->fd = fd;
	if (sc->iov >= 0) {
		e->flags |= FSL_DATA_VEC;
		e->bytes = data_iov_sum(sc_arg(regs, sc->iov, btf), sc_arg(regs, sc->count, btf),
					&e->flags);
	} else if (sc->count >= 0) {
		e->bytes = sc_arg(regs, sc->count, btf);
	}
	e->offset = data_offset(sc, regs, f, offarg, btf);
	return true;
}

static __always_inline void data_emit(struct fsl_ev_data *e, __s64 ret)
{
	e->ret = ret;
	e->lat_ns = bpf_ktime_get_ns() - e->hdr.ts;
	if (bpf_ringbuf_output(&events, e, sizeof(*e), rb_flags()))
		lost_inc(FSL_FAM_DIROPS);
}

static __always_inline void data_task_enter(struct task_struct *task, struct pt_regs *regs,
					    struct dirop_sc *sc, __u32 nr)
{
	struct fsl_ev_data *e;

	e = bpf_task_storage_get(&data_task, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (e && !data_fill(e, sc, regs, nr, 1))
		e->hdr.type = 0;
}

static __always_inline void data_task_exit(struct task_struct *task, __s64 ret)
{
	struct fsl_ev_data *e = bpf_task_storage_get(&data_task, task, 0, 0);

	if (e && e->hdr.type != FSL_EV_DATA)
		e->dev = 0;	/* the call on another filesystem's file is over */
	if (!e || e->hdr.type != FSL_EV_DATA)
		return;
	data_emit(e, ret);
	e->hdr.type = 0;
}

static __always_inline void data_raw_enter(struct pt_regs *regs, struct dirop_sc *sc, __u32 nr,
					   __u32 tid)
{
	struct fsl_ev_data *e;
	__u32 zero = 0;

	e = bpf_map_lookup_elem(&data_scratch, &zero);
	if (e && data_fill(e, sc, regs, nr, 0))
		bpf_map_update_elem(&data_inflight, &tid, e, BPF_ANY);
}

static __always_inline void data_raw_exit(__u32 tid, __s64 ret)
{
	struct fsl_ev_data *e = bpf_map_lookup_elem(&data_inflight, &tid);

	if (!e)
		return;
	data_emit(e, ret);
	bpf_map_delete_elem(&data_inflight, &tid);
}

#endif
