/* SPDX-License-Identifier: GPL-2.0 */
/* Collector internals shared by the collector sources and their unit tests. */
#ifndef FSL_COLLECTOR_INT_H
#define FSL_COLLECTOR_INT_H

#include <stddef.h>
#include <stdint.h>

/* Where a followed syscall's arguments are; same layout as probes/dirops.bpf.h. */
struct fsl_dirop_sc {
	uint8_t op;		/* enum fsl_dirop_kind + 1 */
	int8_t path, path2, dirfd, dirfd2, flags, mode, fd;
	uint8_t how, creat;
	uint8_t data;		/* enum fsl_data_kind + 1; 0 = not a data operation */
	int8_t count, off, off2, iov, fd2;
	uint8_t offptr;
	uint8_t aio;		/* 1: io_getevents-like, 2: io_uring_enter */
	int8_t statbuf;		/* stat family: the struct the call fills, -1 if none */
	uint8_t statx;		/* statbuf is a struct statx */
	uint8_t async;		/* 1: io_submit, 2: io_getevents-like (the events it reaps) */
	uint8_t _pad[3];
};

struct fsl_dirop_sc_entry {
	unsigned int nr;
	const char *name;
	struct fsl_dirop_sc sc;
};

/* The path-based syscalls of this architecture; returns the count. */
unsigned int fsl_dirop_table(const struct fsl_dirop_sc_entry **out);

#include "fslens/ksyms.h"

struct bpf_program;
struct bpf_link;
/*
 * Attach prog to a cpu-clock event on every online CPU sampling each
 * period_ns; each link goes to add (which owns it from then, also on its
 * error). Returns the CPUs attached, or -errno (what was added stays added).
 */
int fsl_attach_cpu_clock(struct bpf_program *prog, uint64_t period_ns,
			 int (*add)(void *ctx, struct bpf_link *l), void *ctx);
#include "fslens/collector.h"

#endif
