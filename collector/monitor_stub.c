// SPDX-License-Identifier: GPL-2.0
/* The monitor's in-kernel side in a build without BPF: not supported. */
#ifndef FSL_HAVE_BPF
#include <errno.h>
#include <stddef.h>
#include "fslens/monitor.h"

struct fsl_monitor *fsl_monitor__new(struct fsl_mon_metrics *mm, const struct fsl_monitor_opts *o,
				     int *err)
{
	*err = -EOPNOTSUPP;
	return NULL;
}

int fsl_monitor__start(struct fsl_monitor *m)
{
	return -EOPNOTSUPP;
}

int fsl_monitor__read(struct fsl_monitor *m)
{
	return -EOPNOTSUPP;
}

int fsl_monitor__read_cpu(struct fsl_monitor *m)
{
	return -EOPNOTSUPP;
}

void fsl_monitor__free(struct fsl_monitor *m)
{
}
#endif
