/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which filesystem a completed path call acted on, decided in the kernel at
 * the call's exit when there is a target (record -m/-d), so that nothing
 * is left for a string test on the path afterwards. The first rule that
 * applies decides (docs/record.md, "Scope of path calls"):
 *  1. sync(): every filesystem, the target included;
 *  2. an open that returned an fd, and the fd calls (getdents64, fsync,
 *     syncfs): that file's superblock;
 *  3. a stat call that succeeded: the device it wrote to the caller's
 *     struct (st_dev, stx_dev_major/minor), read from user memory;
 *  4. a directory change the filesystem traced during the call (dir_act:
 *     ext4's EXT4_HT_DIR journal handles, XFS's namespace events): the
 *     create, remove, rename or link happened there, wherever the path led;
 *  5. else (a failed lookup, a create on a filesystem with no such
 *     tracepoint, tmpfs): the lookup walk. It starts where the kernel's
 *     does (the task's root for an absolute path, else the dirfd's file or
 *     the cwd), goes up for leading "..", and crosses every mount whose
 *     mount point the remaining components name, looking only at the
 *     mounts on the mount it is in (their mount points, climbed to the
 *     walk's dentry and compared by name), as the kernel does. Symlinks are
 *     not followed, "a/../b" is taken as "b", and the last component of a
 *     call that changes its parent directory (mkdir, unlink, rename...) is
 *     not crossed, as the kernel does not.
 * The task's root, cwd, dirfd and mount tree are its own, so chroot, mount
 * namespaces and bind mounts of the target come out right.
 */
#ifndef FSL_SCOPE_BPF_H
#define FSL_SCOPE_BPF_H

#include "common.bpf.h"

#define SCOPE_COMP_MAX		16	/* path components followed */
#define SCOPE_UP_MAX		24	/* dentries climbed from a mount point to the walk */
#define SCOPE_MOUNTS_MAX	64	/* mounts on one mount looked at */
#define SCOPE_DEPTH_MAX		6	/* mounts crossed, one inside another */
#define SCOPE_PATH		512	/* a power of two above FSL_DIROP_PATH_MAX */
#define SCOPE_NAME		256

struct scope_walk {
	char path[SCOPE_PATH];
	char name[SCOPE_NAME];		/* a mount point's dentry name */
	__u64 chain[SCOPE_COMP_MAX];	/* dentries from a mount point up to the walk's */
	__u16 off[SCOPE_COMP_MAX];	/* component i is path[off[i]..off[i] + len[i]) */
	__u16 len[SCOPE_COMP_MAX];
	__u64 root_mnt, root_dent;	/* the task's root (struct mount *, dentry *) */
	__u64 cur_mnt, cur_dent;	/* where the walk is */
	__u64 node, head;		/* cur_mnt's list of mounts, being looked at */
	__u64 best_mnt;			/* the mount crossed from cur_mnt, if any */
	__u64 d;			/* climbing: the dentry reached */
	__s32 start;			/* parsing: where the component being read began */
	__u32 plen, n, up, consumed, best_k, k, found;
	__u32 parent_op, inexact;
	__u32 cmp_off, cmp_ok;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scope_walk);
} scope_scratch SEC(".maps");

/* bpf_loop's context must be on the stack: it carries the map value. */
struct scope_ctx {
	struct scope_walk *w;
};

static __always_inline struct mount *scope_real_mount(struct vfsmount *m)
{
	return (struct mount *)((void *)m - bpf_core_field_offset(struct mount, mnt));
}

static __always_inline void scope_comp(struct scope_walk *w, __u32 s, __u32 l)
{
	__u32 n = w->n;

	if (l == 1 && w->path[s & (SCOPE_PATH - 1)] == '.')
		return;
	if (l == 2 && w->path[s & (SCOPE_PATH - 1)] == '.' &&
	    w->path[(s + 1) & (SCOPE_PATH - 1)] == '.') {
		if (n)
			w->n = n - 1;	/* lexical: symlinks are not followed */
		else
			w->up++;	/* above the start: climbed like the kernel */
		return;
	}
	if (n >= SCOPE_COMP_MAX) {
		w->inexact = 1;
		return;
	}
	w->off[n] = s;
	w->len[n] = l;
	w->n = n + 1;
}

/* One byte of the path (i == plen ends the last component). */
static long scope_parse_step(__u64 i, void *ctx)
{
	struct scope_walk *w = ((struct scope_ctx *)ctx)->w;
	char c = i < w->plen ? w->path[i & (SCOPE_PATH - 1)] : '/';

	if (c == '/') {
		if (w->start >= 0)
			scope_comp(w, w->start, i - w->start);
		w->start = -1;
	} else if (w->start < 0) {
		w->start = i;
	}
	return 0;
}

/* One leading "..": the parent, through the roots of mounts, never above the task's root. */
static long scope_up_step(__u64 i, void *ctx)
{
	struct scope_walk *w = ((struct scope_ctx *)ctx)->w;
	struct mount *m = (struct mount *)w->cur_mnt, *p;
	struct dentry *d = (struct dentry *)w->cur_dent;
	int j;

	for (j = 0; j < 4; j++) {
		if ((__u64)m == w->root_mnt && (__u64)d == w->root_dent)
			return 0;
		if (d != BPF_CORE_READ(m, mnt.mnt_root))
			break;
		p = BPF_CORE_READ(m, mnt_parent);
		if (!p || p == m)
			return 0;	/* the namespace's root: ".." stays */
		d = BPF_CORE_READ(m, mnt_mountpoint);
		m = p;
	}
	w->cur_mnt = (__u64)m;
	w->cur_dent = (__u64)BPF_CORE_READ(d, d_parent);
	return 0;
}

/* Climb one dentry from a mount point towards the walk's dentry. */
static long scope_climb_step(__u64 i, void *ctx)
{
	struct scope_walk *w = ((struct scope_ctx *)ctx)->w;
	struct dentry *d = (struct dentry *)w->d;
	struct mount *m = (struct mount *)w->cur_mnt;

	if (w->d == w->cur_dent) {
		w->found = 1;
		return 1;
	}
	if (d == BPF_CORE_READ(m, mnt.mnt_root) || w->k >= SCOPE_COMP_MAX)
		return 1;	/* not below the walk's dentry (or too deep) */
	w->chain[w->k & (SCOPE_COMP_MAX - 1)] = w->d;
	w->k++;
	w->d = (__u64)BPF_CORE_READ(d, d_parent);
	return 0;
}

static long scope_byte_step(__u64 i, void *ctx)
{
	struct scope_walk *w = ((struct scope_ctx *)ctx)->w;

	if (w->name[i & (SCOPE_NAME - 1)] != w->path[(w->cmp_off + i) & (SCOPE_PATH - 1)]) {
		w->cmp_ok = 0;
		return 1;
	}
	return 0;
}

/* Does the name of chain dentry k - 1 - j equal component consumed + j? */
static long scope_name_step(__u64 j, void *ctx)
{
	struct scope_walk *w = ((struct scope_ctx *)ctx)->w;
	struct dentry *d = (struct dentry *)w->chain[(w->k - 1 - j) & (SCOPE_COMP_MAX - 1)];
	__u32 c = (w->consumed + j) & (SCOPE_COMP_MAX - 1);
	__u32 len = BPF_CORE_READ(d, d_name.len);
	const unsigned char *name = BPF_CORE_READ(d, d_name.name);

	if (len != w->len[c] || !len || len >= SCOPE_NAME) {
		w->cmp_ok = 0;
		return 1;
	}
	/* the compiler knows len < SCOPE_NAME; the verifier must see the mask */
	barrier_var(len);
	if (bpf_probe_read_kernel(w->name, len & (SCOPE_NAME - 1), name)) {
		w->cmp_ok = 0;
		return 1;
	}
	w->cmp_off = w->off[c];
	bpf_loop(len, scope_byte_step, ctx, 0);
	return w->cmp_ok ? 0 : 1;
}

/* One mount on cur_mnt: is its mount point named by the next components? */
static long scope_child_step(__u64 i, void *ctx)
{
	struct scope_walk *w = ((struct scope_ctx *)ctx)->w;
	struct list_head *node = (struct list_head *)w->node;
	struct mount *m;
	__u32 end;

	if (w->node == w->head)
		return 1;
	w->node = (__u64)BPF_CORE_READ(node, next);
	m = (struct mount *)((void *)node - bpf_core_field_offset(struct mount, mnt_child));
	w->d = (__u64)BPF_CORE_READ(m, mnt_mountpoint);
	w->k = 0;
	w->found = 0;
	bpf_loop(SCOPE_UP_MAX, scope_climb_step, ctx, 0);
	end = w->consumed + w->k;
	/* k 0: mounted on the walk's own dentry, which the kernel does not cross back into */
	if (!w->found || !w->k || w->k <= w->best_k || end > w->n ||
	    (w->parent_op && end == w->n))
		return 0;
	w->cmp_ok = 1;
	bpf_loop(w->k, scope_name_step, ctx, 0);
	if (w->cmp_ok) {
		w->best_k = w->k;
		w->best_mnt = (__u64)m;
	}
	return 0;
}

/*
 * The filesystem (s_dev) that the path of e, looked up by the current task,
 * lands on; 0 if its start cannot be found (a bad dirfd: no filesystem).
 * Sets *inexact when a bound was met.
 */
static __always_inline __u32 scope_walk(struct fsl_ev_dirop *e, __u32 *inexact)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct scope_ctx ctx;
	struct scope_walk *w;
	struct vfsmount *vm;
	struct mount *m;
	struct file *f;
	__u32 zero = 0, level;

	w = bpf_map_lookup_elem(&scope_scratch, &zero);
	if (!w)
		return 0;
	ctx.w = w;
	w->plen = e->path_len > FSL_DIROP_PATH_MAX ? FSL_DIROP_PATH_MAX : e->path_len;
	if (bpf_probe_read_kernel(w->path, FSL_DIROP_PATH_MAX, e->paths))
		return 0;
	w->n = w->up = w->consumed = w->inexact = 0;
	w->start = -1;
	w->parent_op = e->op == FSL_OP_MKDIR || e->op == FSL_OP_MKNOD || e->op == FSL_OP_UNLINK ||
		       e->op == FSL_OP_RMDIR || e->op == FSL_OP_RENAME || e->op == FSL_OP_LINK ||
		       e->op == FSL_OP_SYMLINK;
	if (e->pflags & FSL_DIROP_TRUNC1)
		w->inexact = 1;

	vm = BPF_CORE_READ(t, fs, root.mnt);
	w->root_mnt = (__u64)scope_real_mount(vm);
	w->root_dent = (__u64)BPF_CORE_READ(t, fs, root.dentry);
	if (w->plen && w->path[0] == '/') {
		w->cur_mnt = w->root_mnt;
		w->cur_dent = w->root_dent;
	} else if (e->dirfd == -100) {
		vm = BPF_CORE_READ(t, fs, pwd.mnt);
		w->cur_mnt = (__u64)scope_real_mount(vm);
		w->cur_dent = (__u64)BPF_CORE_READ(t, fs, pwd.dentry);
	} else {
		f = data_fd_file(e->dirfd);
		if (!f)
			return 0;
		vm = BPF_CORE_READ(f, f_path.mnt);
		w->cur_mnt = (__u64)scope_real_mount(vm);
		w->cur_dent = (__u64)BPF_CORE_READ(f, f_path.dentry);
	}
	bpf_loop(w->plen + 1, scope_parse_step, &ctx, 0);
	if (w->up > SCOPE_UP_MAX) {
		w->up = SCOPE_UP_MAX;
		w->inexact = 1;
	}
	bpf_loop(w->up, scope_up_step, &ctx, 0);

	for (level = 0; level < SCOPE_DEPTH_MAX; level++) {
		m = (struct mount *)w->cur_mnt;
		w->head = (__u64)m + bpf_core_field_offset(struct mount, mnt_mounts);
		w->node = (__u64)BPF_CORE_READ(m, mnt_mounts.next);
		w->best_k = 0;
		bpf_loop(SCOPE_MOUNTS_MAX, scope_child_step, &ctx, 0);
		if (w->node != w->head)
			w->inexact = 1;
		if (!w->best_k)
			break;
		m = (struct mount *)w->best_mnt;
		w->cur_mnt = w->best_mnt;
		w->cur_dent = (__u64)BPF_CORE_READ(m, mnt.mnt_root);
		w->consumed += w->best_k;
	}
	if (level == SCOPE_DEPTH_MAX)
		w->inexact = 1;
	*inexact = w->inexact;
	m = (struct mount *)w->cur_mnt;
	return BPF_CORE_READ(m, mnt.mnt_sb, s_dev);
}

/* The device of a struct stat / statx the call filled, as a kernel dev_t; 0 unknown. */
static __always_inline __u32 scope_stat_dev(struct dirop_sc *sc, struct pt_regs *regs)
{
	__u64 buf = sc_arg(regs, sc->statbuf, 0), v = 0;
	__u32 mm[2] = {};

	if (!buf)
		return 0;
	if (sc->statx) {
		/* struct statx: stx_dev_major, stx_dev_minor at 136 */
		if (bpf_probe_read_user(mm, sizeof(mm), (void *)(buf + 136)))
			return 0;
		return mm[0] << 20 | mm[1];
	}
	/* struct stat: st_dev first, new_encode_dev()'s encoding */
	if (bpf_probe_read_user(&v, sizeof(v), (void *)buf))
		return 0;
	return ((v >> 8) & 0xfff) << 20 | (v & 0xff) | ((v >> 12) & 0xfff00);
}

/*
 * How the call in e, returning ret, was judged (enum fsl_dirop_scope) and
 * on which filesystem (*dev) it acted.
 */
static __always_inline __u32 scope_judge(struct fsl_ev_dirop *e, struct pt_regs *regs, __s64 ret,
					 __u32 *dev)
{
	struct dirop_sc *sc;
	struct dir_act *a;
	__u32 inexact = 0;

	*dev = 0;
	if (e->op == FSL_OP_SYNC)
		return FSL_DIROP_SCOPE_ALL;
	if ((e->op == FSL_OP_OPEN || e->op == FSL_OP_CREATE) && ret >= 0) {
		*dev = fd_dev((__s32)ret);
		return FSL_DIROP_SCOPE_FD;
	}
	if (!e->path_len && e->fd >= 0) {
		*dev = fd_dev(e->fd);
		return FSL_DIROP_SCOPE_FD;
	}
	if (e->op == FSL_OP_STAT && ret == 0) {
		sc = dirop_sc_of(e->syscall);
		if (sc && sc->statbuf >= 0) {
			*dev = scope_stat_dev(sc, regs);
			if (*dev)
				return FSL_DIROP_SCOPE_STAT;
		}
	}
	a = bpf_task_storage_get(&dir_act, bpf_get_current_task_btf(), 0, 0);
	if (a && a->ts >= e->hdr.ts) {
		*dev = a->dev;
		return FSL_DIROP_SCOPE_DIR_EVENT;
	}
	*dev = scope_walk(e, &inexact);
	if (inexact)
		e->pflags |= FSL_DIROP_WALK_INEXACT;
	return FSL_DIROP_SCOPE_WALK;
}

/*
 * XFS's namespace events (a name created, removed, renamed or linked in a
 * directory of dev): loaded with a target for rule 4 only. Their record
 * starts with the common fields, then dev, on every kernel that has them;
 * a struct of our own keeps the XFS module's BTF out of it.
 */
struct scope_xfs_tp {
	__u64 common;
	__u32 dev;
};

SEC("tracepoint/xfs/xfs_create")
int tp_scope_xfs_create(struct scope_xfs_tp *ctx)
{
	FSL_FLOOR();
	dir_act_mark(ctx->dev);
	return 0;
}

SEC("tracepoint/xfs/xfs_remove")
int tp_scope_xfs_remove(struct scope_xfs_tp *ctx)
{
	FSL_FLOOR();
	dir_act_mark(ctx->dev);
	return 0;
}

SEC("tracepoint/xfs/xfs_rename")
int tp_scope_xfs_rename(struct scope_xfs_tp *ctx)
{
	FSL_FLOOR();
	dir_act_mark(ctx->dev);
	return 0;
}

SEC("tracepoint/xfs/xfs_link")
int tp_scope_xfs_link(struct scope_xfs_tp *ctx)
{
	FSL_FLOOR();
	dir_act_mark(ctx->dev);
	return 0;
}

SEC("tracepoint/xfs/xfs_symlink")
int tp_scope_xfs_symlink(struct scope_xfs_tp *ctx)
{
	FSL_FLOOR();
	dir_act_mark(ctx->dev);
	return 0;
}

#endif
