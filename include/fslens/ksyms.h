/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols from /proc/kallsyms (collector/ksyms.c): the table the
 * collector stream (include/fslens/stream.h) symbolizes stacks and caller
 * addresses with, for `fslens record` and live `fslens top` alike.
 */
#ifndef FSLENS_KSYMS_H
#define FSLENS_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct fsl_ksyms;

/* Load text symbols of path (NULL = /proc/kallsyms). -EPERM if addresses are hidden. */
struct fsl_ksyms *fsl_ksyms__load(const char *path, int *err);
void fsl_ksyms__free(struct fsl_ksyms *k);
/* "func+0xoff" (or "func") for addr into buf; returns buf, or NULL below every symbol. */
const char *fsl_ksyms__name(const struct fsl_ksyms *k, uint64_t addr, char *buf, size_t len);
size_t fsl_ksyms__count(const struct fsl_ksyms *k);
/*
 * Address ranges [lo, hi) of the text symbols named name (a static function
 * may have several), up to max of them; returns how many were found.
 */
size_t fsl_ksyms__ranges(const struct fsl_ksyms *k, const char *name, uint64_t (*r)[2],
			 size_t max);

#endif /* FSLENS_KSYMS_H */
