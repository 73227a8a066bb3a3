/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One configuration of `fslens demo` (a cell of its matrix), apart from the
 * command's printing: every cell's settings checked before any runs, the
 * scenario's parameters with the cell's settings and the defaults a
 * configuration implies, the scratch filesystem's mkfs and mount options,
 * the vm.dirty_* tunables it asks for, and the child processes (recorder,
 * workload, report) run in their own process group.
 */
#ifndef FSL_CELL_H
#define FSL_CELL_H

#include <signal.h>
#include <sys/types.h>
#include "matrix.h"
#include "scenario.h"
#include "scratch.h"

#define FSL_CELL_SETS (FSL_PARAMS_MAX * 2)

struct fsl_cell {
	struct fsl_params p;
	struct fsl_scratch_opts so;
	char notes[256];		/* what the scratch options were made to do otherwise */
	/* KEY=VALUE as given, then those the configuration implies (its label) */
	char sets[FSL_CELL_SETS][192];	/* KEY (63) = VALUE (127), as the matrix makes them */
	unsigned int nsets;
	const char *bad;		/* prepare's -EINVAL/-ENOENT: the setting at fault */
};

/*
 * sets[], then the settings of each cell of m in walk order, over the
 * scenario's parameters at scale: checked before anything is made, so that
 * a bad value in the last configuration does not cost the runs before it.
 * 0, or the fsl_params__set error with *bad the setting at fault (one of
 * sets[], or a matrix setting copied to buf).
 */
int fsl_cell__check(const struct fsl_scenario *sc, enum fsl_scale scale, const char *const *sets,
		    unsigned int nsets, const struct fsl_matrix *m, const char **bad, char *buf,
		    size_t len);

/*
 * The cell's parameters: sets[] then extra[] over the scenario's defaults
 * at scale, then what they imply (createmany's inodes= for n names, the
 * journal size mkfs is asked for), then the scratch options. 0; the
 * fsl_params__set error with c->bad set; or -EBADF for parameters no
 * scratch filesystem can be made of (fs, fs_size, blocksize, atime, an XFS
 * with ext4's options).
 */
int fsl_cell__prepare(struct fsl_cell *c, const struct fsl_scenario *sc, enum fsl_scale scale,
		      const char *const *sets, unsigned int nsets, const char *const *extra,
		      unsigned int nextra);

/*
 * The vm.dirty_* parameters of p set for this run (saved in vm, restored by
 * fsl_vm__restore). said(ctx, 1, KEY, VALUE) before blocking on another
 * run's lock, said(ctx, 0, KEY, VALUE) once it is set. 0, or -errno with
 * errmsg saying which setting.
 */
int fsl_cell__apply_vm(struct fsl_vm_saved *vm, const struct fsl_params *p,
		       void (*said)(void *ctx, int waiting, const char *key, const char *value), void *ctx,
		       char *errmsg, size_t errlen);
/*
 * fsl_vm__restore, with errmsg giving the saved values (to put back by hand)
 * when it fails. 0 or -errno.
 */
int fsl_cell__restore_vm(struct fsl_vm_saved *vm, char *errmsg, size_t errlen);

/* A child in its own process group, so that a signal reaches all of it through us. */
struct fsl_child {
	pid_t pid;
	int signalled;
};

/* Start argv (argv[0] a path) with stdout on out_fd (-1: ours). 0 or -errno. */
int fsl_child__spawn(struct fsl_child *ch, char *const argv[], int out_fd);
/*
 * Wait for it; once *stop is set, pass SIGINT on to its group once, then
 * SIGKILL after 10 s. What the group left behind is killed. Its exit
 * status, 128 + signal, or -errno.
 */
int fsl_child__reap(struct fsl_child *ch, const volatile sig_atomic_t *stop);

#endif
