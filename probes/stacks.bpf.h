/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel stack table every family that keeps a stack id shares (the
 * offcpu waits, the jbd2 kicks, the writeback calls): one pair of stack
 * maps, drained and symbolized by the collector into the trace's stacks.
 */
#ifndef FSL_STACKS_BPF_H
#define FSL_STACKS_BPF_H

#include "common.bpf.h"

#define OFFCPU_STACK_DEPTH		64

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, OFFCPU_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/*
 * Where a stack goes when its bucket in `stacks` holds another one. The
 * kernel hashes the frames with a fixed seed, so with one map two stacks
 * that collide do so on every wait of the boot: the later one would be lost
 * for the whole recording, and the wait with it (a mkdir storm's
 * log-space stack read as "other"). Taken one frame shorter at the top (the
 * program's own frame), its hash differs, so the colliding pair lands apart.
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 4096);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, OFFCPU_STACK_DEPTH * sizeof(__u64));
} stacks2 SEC(".maps");

#define FSL_EEXIST	17

static __always_inline __s32 offcpu_stack_id(void *ctx)
{
	long id = bpf_get_stackid(ctx, &stacks, 0);

	if (id != -FSL_EEXIST)
		return id;
	id = bpf_get_stackid(ctx, &stacks2, 1 & BPF_F_SKIP_FIELD_MASK);
	return id < 0 ? id : id + FSL_STACK2_BASE;
}

#endif
