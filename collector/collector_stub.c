// SPDX-License-Identifier: GPL-2.0
/*
 * The collector API in a build without BPF (no clang, bpftool, libbpf or
 * BTF at build time): every call says "not supported", so `fslens record`
 * and `fslens top` can tell the user plainly instead of failing to link.
 */
#ifndef FSL_HAVE_BPF
#include <errno.h>
#include <stddef.h>
#include "fslens/collector.h"

int fsl_collector_built_in(void)
{
	return 0;
}

struct fsl_collector *fsl_collector__new(const struct fsl_collector_opts *opts, int *err)
{
	*err = -EOPNOTSUPP;
	return NULL;
}

int fsl_collector__start(struct fsl_collector *c) { return -EOPNOTSUPP; }
int fsl_collector__track(struct fsl_collector *c, uint32_t tgid) { return -EOPNOTSUPP; }
int fsl_collector__poll(struct fsl_collector *c, int timeout_ms, fsl_collector_event_fn fn,
			void *ctx) { return -EOPNOTSUPP; }
int fsl_collector__stop(struct fsl_collector *c, fsl_collector_event_fn fn, void *ctx)
{
	return -EOPNOTSUPP;
}
void fsl_collector__free(struct fsl_collector *c) { }
int fsl_collector__lost(struct fsl_collector *c, uint64_t lost[FSL_FAM__MAX]) { return -EOPNOTSUPP; }
int fsl_collector__fill(struct fsl_collector *c, uint64_t *used, uint64_t *size) { return -EOPNOTSUPP; }
int fsl_collector__stack(struct fsl_collector *c, int32_t id, uint64_t *ips, int max)
{
	return -EOPNOTSUPP;
}
const char *fsl_collector__mode(const struct fsl_collector *c) { return "none"; }
const char *fsl_collector__attach_counts(const struct fsl_collector *c) { return ""; }
int fsl_collector__fentry(const struct fsl_collector *c) { return 0; }
const char *fsl_collector__missing(const struct fsl_collector *c) { return ""; }
uint32_t fsl_collector__families(const struct fsl_collector *c) { return 0; }
#endif
