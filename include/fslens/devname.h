/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block devices by name (lib/devname.c): what `-d` accepts ("loop0",
 * "/dev/loop0", "7:0") and the kernel's name for a device number, so users
 * see "loop0" where the kernel gave 7:0. Reads sysfs; no libbpf.
 */
#ifndef FSLENS_DEVNAME_H
#define FSLENS_DEVNAME_H

#include <stddef.h>
#include <stdint.h>

struct fsl_meta;

/*
 * Resolve s, a device node path, a kernel name ("sda1") or "MAJ:MIN", to a
 * dev_t (FSL_MKDEV encoding) and a device node path for it ("/dev/sda1").
 * -ENOENT: no such block device; -ENOTBLK: s is a file that is not one.
 */
int fsl_dev_lookup(const char *s, uint32_t *dev, char *node, size_t len);

/* The kernel's name of dev from sysfs ("loop0"); NULL if this machine has none. */
const char *fsl_dev_kname(uint32_t dev, char *buf, size_t len);

/*
 * A label for dev as a user reads it: the name the trace recorded, else (a
 * trace of this machine's running kernel) the kernel's name, else "MAJ:MIN".
 * Always returns buf.
 */
const char *fsl_dev_label(const struct fsl_meta *m, uint32_t dev, char *buf, size_t len);
#endif
