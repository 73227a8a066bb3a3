/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSL_COPYTREE_H
#define FSL_COPYTREE_H

#include "scenario.h"

/*
 * Build copytree's deterministic source tree in src (files of the sizes the
 * parameters give, contents from the seeded generator). An existing tree of
 * the same shape is reused; one of another shape is an error (-EEXIST).
 */
int fsl_copytree_prepare(struct fsl_wl *wl, const char *src);
/* Delete the tree in src once its run is over. 0 or -errno. */
int fsl_copytree_remove(const char *src);

#endif
