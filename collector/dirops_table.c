// SPDX-License-Identifier: GPL-2.0
/*
 * The path-based system calls the dirops probe follows, with the argument
 * index of each path, fd and flag. Syscall numbers come from this
 * architecture's <asm/unistd.h>, so the BPF side stays arch-neutral.
 */
#include <asm/unistd.h>
#include "fslens/event.h"
#include "collector_int.h"

#define N -1
#define SC(nr_, op_, p, p2, dfd, dfd2, fl, md, fd_, how_, creat_)		\
	{ nr_, #nr_ + 5, { (op_) + 1, p, p2, dfd, dfd2, fl, md, fd_, how_, creat_, 0,	\
			   N, N, N, N, N, 0, 0, N, 0, 0, { 0 } } }
/* A stat call: buf_ is the struct it fills (statx_: a struct statx), read at exit for its dev */
#define STC(nr_, p, dfd, fl, md, buf_, statx_)					\
	{ nr_, #nr_ + 5, { FSL_OP_STAT + 1, p, N, dfd, N, fl, md, N, 0, 0, 0,		\
			   N, N, N, N, N, 0, 0, buf_, statx_, 0, { 0 } } }
/* A data operation (probes/data.bpf.h); dop_ is also a dirop kind + 1, or 0. */
#define DSC(nr_, dop_, kind, fd_, cnt, off_, off2_, iov_, fd2_, ptr)		\
	{ nr_, #nr_ + 5, { dop_, N, N, N, N, N, N, fd_, 0, 0, (kind) + 1,		\
			   cnt, off_, off2_, iov_, fd2_, ptr, 0, N, 0, 0, { 0 } } }
/*
 * A call that may sleep until asynchronous I/O completes; min_ = min_nr's
 * argument; async_: 2 if it returns the events it reaped (probes/aio.bpf.h).
 */
#define ASC(nr_, kind, min_, async_)						\
	{ nr_, #nr_ + 5, { 0, N, N, N, N, N, N, N, 0, 0, 0, min_, N, N, N, N, 0, kind, N, 0,	\
			   async_, { 0 } } }

static const struct fsl_dirop_sc_entry table[] = {
	/*  nr                 op             path p2 dfd dfd2 flags mode fd how creat */
#ifdef __NR_open
	SC(__NR_open,        FSL_OP_OPEN,     0,  N,  N,  N,   1,    2,   N, 0, 0),
#endif
	SC(__NR_openat,      FSL_OP_OPEN,     1,  N,  0,  N,   2,    3,   N, 0, 0),
#ifdef __NR_openat2
	SC(__NR_openat2,     FSL_OP_OPEN,     1,  N,  0,  N,   2,    N,   N, 1, 0),
#endif
#ifdef __NR_creat
	SC(__NR_creat,       FSL_OP_OPEN,     0,  N,  N,  N,   N,    1,   N, 0, 1),
#endif
#ifdef __NR_mkdir
	SC(__NR_mkdir,       FSL_OP_MKDIR,    0,  N,  N,  N,   N,    1,   N, 0, 0),
#endif
	SC(__NR_mkdirat,     FSL_OP_MKDIR,    1,  N,  0,  N,   N,    2,   N, 0, 0),
#ifdef __NR_mknod
	SC(__NR_mknod,       FSL_OP_MKNOD,    0,  N,  N,  N,   N,    1,   N, 0, 0),
#endif
	SC(__NR_mknodat,     FSL_OP_MKNOD,    1,  N,  0,  N,   N,    2,   N, 0, 0),
#ifdef __NR_unlink
	SC(__NR_unlink,      FSL_OP_UNLINK,   0,  N,  N,  N,   N,    N,   N, 0, 0),
#endif
	SC(__NR_unlinkat,    FSL_OP_UNLINK,   1,  N,  0,  N,   2,    N,   N, 0, 0),
#ifdef __NR_rmdir
	SC(__NR_rmdir,       FSL_OP_RMDIR,    0,  N,  N,  N,   N,    N,   N, 0, 0),
#endif
#ifdef __NR_rename
	SC(__NR_rename,      FSL_OP_RENAME,   0,  1,  N,  N,   N,    N,   N, 0, 0),
#endif
#ifdef __NR_renameat
	SC(__NR_renameat,    FSL_OP_RENAME,   1,  3,  0,  2,   N,    N,   N, 0, 0),
#endif
	SC(__NR_renameat2,   FSL_OP_RENAME,   1,  3,  0,  2,   4,    N,   N, 0, 0),
#ifdef __NR_link
	SC(__NR_link,        FSL_OP_LINK,     0,  1,  N,  N,   N,    N,   N, 0, 0),
#endif
	SC(__NR_linkat,      FSL_OP_LINK,     1,  3,  0,  2,   4,    N,   N, 0, 0),
	/* symlink: path is the new name, path2 the target it points to */
#ifdef __NR_symlink
	SC(__NR_symlink,     FSL_OP_SYMLINK,  1,  0,  N,  N,   N,    N,   N, 0, 0),
#endif
	SC(__NR_symlinkat,   FSL_OP_SYMLINK,  2,  0,  1,  N,   N,    N,   N, 0, 0),
	/*   nr                 path dfd flags mode buf statx */
#ifdef __NR_stat
	STC(__NR_stat,        0,  N,  N,    N,   1,  0),
#endif
#ifdef __NR_lstat
	STC(__NR_lstat,       0,  N,  N,    N,   1,  0),
#endif
#ifdef __NR_newfstatat
	STC(__NR_newfstatat,  1,  0,  3,    N,   2,  0),
#endif
#ifdef __NR_statx
	/* statx's mask goes in mode */
	STC(__NR_statx,       1,  0,  2,    3,   4,  1),
#endif
	SC(__NR_getdents64,  FSL_OP_READDIR,  N,  N,  N,  N,   N,    N,   0, 0, 0),
	/* fsync and fdatasync are both: a dirop record and a data record */
	DSC(__NR_fsync,      FSL_OP_FSYNC + 1, FSL_DATA_FSYNC,     0, N, N, N, N, N, 0),
	DSC(__NR_fdatasync,  FSL_OP_FDATASYNC + 1, FSL_DATA_FDATASYNC, 0, N, N, N, N, N, 0),
	SC(__NR_syncfs,      FSL_OP_SYNCFS,   N,  N,  N,  N,   N,    N,   0, 0, 0),
	SC(__NR_sync,        FSL_OP_SYNC,     N,  N,  N,  N,   N,    N,   N, 0, 0),

	/*   nr                      kind                fd cnt off off2 iov fd2 offptr */
	DSC(__NR_read,            0, FSL_DATA_READ,       0, 2,  N,  N,   N,  N,  0),
	DSC(__NR_write,           0, FSL_DATA_WRITE,      0, 2,  N,  N,   N,  N,  0),
	DSC(__NR_pread64,         0, FSL_DATA_PREAD,      0, 2,  3,  N,   N,  N,  0),
	DSC(__NR_pwrite64,        0, FSL_DATA_PWRITE,     0, 2,  3,  N,   N,  N,  0),
	DSC(__NR_readv,           0, FSL_DATA_READ,       0, 2,  N,  N,   1,  N,  0),
	DSC(__NR_writev,          0, FSL_DATA_WRITE,      0, 2,  N,  N,   1,  N,  0),
	/* preadv(fd, iov, cnt, pos_l, pos_h): pos_l holds all of it on 64-bit */
	DSC(__NR_preadv,          0, FSL_DATA_PREAD,      0, 2,  3,  N,   1,  N,  0),
	DSC(__NR_pwritev,         0, FSL_DATA_PWRITE,     0, 2,  3,  N,   1,  N,  0),
	DSC(__NR_preadv2,         0, FSL_DATA_PREAD,      0, 2,  3,  N,   1,  N,  0),
	DSC(__NR_pwritev2,        0, FSL_DATA_PWRITE,     0, 2,  3,  N,   1,  N,  0),
	DSC(__NR_sync_file_range, 0, FSL_DATA_SYNC_RANGE, 0, 2,  1,  N,   N,  N,  0),
	DSC(__NR_fallocate,       0, FSL_DATA_FALLOCATE,  0, 3,  2,  N,   N,  N,  0),
	DSC(__NR_ftruncate,       0, FSL_DATA_FTRUNCATE,  0, 1,  N,  N,   N,  N,  0),
	/* (fd_in, off_in *, fd_out, off_out *, len, flags) */
	DSC(__NR_copy_file_range, 0, FSL_DATA_COPY_RANGE, 0, 4,  1,  3,   N,  2,  1),
	DSC(__NR_splice,          0, FSL_DATA_SPLICE,     0, 4,  1,  3,   N,  2,  1),
	/* sendfile(out_fd, in_fd, offset *, count): the file read is in_fd */
	DSC(__NR_sendfile,        0, FSL_DATA_SENDFILE,   1, 3,  2,  N,   N,  0,  1),

	/* libaio's requests: (ctx, nr, iocbpp), read at entry (probes/aio.bpf.h) */
	ASC(__NR_io_submit,       0, N, 1),
	/* waiting for asynchronous I/O: (ctx, min_nr, nr, events, timeout) */
	ASC(__NR_io_getevents,    1, 1, 2),
#ifdef __NR_io_pgetevents
	ASC(__NR_io_pgetevents,   1, 1, 2),
#endif
	/* (fd, to_submit, min_complete, flags, ...): waits with IORING_ENTER_GETEVENTS */
#ifdef __NR_io_uring_enter
	ASC(__NR_io_uring_enter,  2, 2, 0),
#endif
};

unsigned int fsl_dirop_table(const struct fsl_dirop_sc_entry **out)
{
	*out = table;
	return sizeof(table) / sizeof(table[0]);
}
