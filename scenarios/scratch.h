/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scratch filesystem: a sparse image in a fresh temporary directory,
 * mkfs.ext4, mkfs.ext3 or mkfs.xfs (run as a child), a loop device (LOOP_CTL_GET_FREE +
 * LOOP_CONFIGURE), a mount. fsl_scratch__free() always unmounts, detaches
 * and deletes what was made, whatever state setup reached; the caller calls
 * it on every path (also after a signal: handlers only set a flag).
 * With a real device (opts.device) nothing is created but the mount point,
 * and the device is overwritten: refused unless opts.force.
 */
#ifndef FSL_SCRATCH_H
#define FSL_SCRATCH_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include "scenario.h"

#define FSL_SCRATCH_ARGS_MAX 32

struct fsl_scratch_opts {
	uint64_t size;			/* image bytes */
	char fstype[16];		/* ext4 (""), ext3 or xfs: the mkfs and the mount type */
	const char *mkfs_args[FSL_SCRATCH_ARGS_MAX];	/* after "mkfs.TYPE -q -F" ("-q -f" for xfs) */
	unsigned int nmkfs;
	char mount_opts[512];		/* comma list: VFS flags (noatime, ...) and ext4 options */
	const char *device;		/* a block device to use (and wipe) instead of an image */
	int force;			/* required with device */
	int keep;			/* keep the image (unmounted, detached) */
	int direct_io;			/* loop device with LO_FLAGS_DIRECT_IO */
	const char *tmpdir;		/* parent of the temporary directory; NULL: $TMPDIR or /tmp */
	uint64_t journal_mib;		/* set by from_params: the journal size asked of mkfs (0: default) */
	char storage[FSL_SCRATCH_ARGS_MAX][128];	/* backing store for mkfs_args */
};

struct fsl_scratch {
	char dir[PATH_MAX - 32];		/* temporary directory (image, mount point) */
	char img[PATH_MAX];
	char mnt[PATH_MAX];
	char dev[64];			/* /dev/loopN or the given device */
	int loop_fd;			/* held while attached; -1 when none */
	int mounted;
	int keep;
	int own_img;
	char errmsg[1024];
	char notes[256];		/* what mkfs was made to do otherwise, e.g. a larger XFS log */
};

/*
 * Make, attach and mount. On failure returns -errno with *out set (when it
 * could allocate) so the caller can read errmsg and must still call
 * fsl_scratch__free(*out).
 */
int fsl_scratch__new(const struct fsl_scratch_opts *o, struct fsl_scratch **out);
/* Unmount only (for e2fsck/debugfs on the image). Idempotent. */
int fsl_scratch__umount(struct fsl_scratch *s);
/* Unmount, detach, delete (the image stays with keep). NULL is a no-op. */
int fsl_scratch__free(struct fsl_scratch *s);

/* mkfs arguments and mount options from scenario parameters; notes (may be
 * empty) says what was adjusted, e.g. a journal raised to the 1024-block minimum. */
int fsl_scratch_opts__from_params(struct fsl_scratch_opts *o, const struct fsl_params *p,
				  char *notes, size_t notes_len);

/*
 * Temporary vm.* tunables (dirty_bytes, dirty_background_bytes, the ratios,
 * dirty_expire_centisecs, dirty_writeback_centisecs). fsl_vm__set() saves
 * all the originals the first time; fsl_vm__restore() puts them back (each
 * bytes/ratio pair as it was).
 * Between the two an exclusive flock on FSL_VM_LOCK is held, so two runs
 * never take each other's lowered values for the originals (the second
 * waits; -EINTR if a signal comes meanwhile).
 */
#define FSL_VM_LOCK "/run/lock/fslens-vm.lock"

struct fsl_vm_saved {
	int saved;
	int lock_fd;			/* 0: not taken (fd 0 is never the lock) */
	char dirty_bytes[32], dirty_ratio[32];
	char bg_bytes[32], bg_ratio[32];
	char expire[32], writeback[32];	/* dirty_expire_centisecs, dirty_writeback_centisecs */
};
/* Take the lock now: -EWOULDBLOCK without wait when another run holds it. */
int fsl_vm__lock(struct fsl_vm_saved *s, int wait);
int fsl_vm__set(struct fsl_vm_saved *s, const char *name, const char *value);
/* Set by the caller to its signal flag: a wait for the lock gives up when it is set. */
extern volatile sig_atomic_t *fsl_vm_stop;
int fsl_vm__restore(struct fsl_vm_saved *s);

#endif
