/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cpu family's counts (cpu.bpf.h), and its samples held for a path
 * call's verdict.
 *
 * A sample inside a path call but outside its walk (the path's copy from
 * user memory, stat's getattr and copy-out after the walk) has nothing of
 * its own that says which filesystem the call acts on: current->nameidata
 * is set only while the walk stands in a directory. The call is known from
 * its sys_enter on: a sample at the syscall's entry before it is not held.
 * The call's scope is judged at its exit (scope.bpf.h), so such a sample is
 * held in cpu_pend, one per thread, and counted when the call returns,
 * marked with the verdict as a walk would be: FSL_OFFCPU_WALK_TARGET for a
 * call on the target, _OTHER for one on another filesystem. The call's
 * record (struct dirop_buf, dirops.bpf.h) says it holds one. A second
 * sample in the same call (a call on the CPU for a whole sampling period)
 * is counted at once, unmarked. What a thread holds when its call never
 * returns (exit_group, the recording's end) is counted unmarked by the
 * collector's last drain, or by the thread's next held sample.
 */
#ifndef FSL_CPUPEND_BPF_H
#define FSL_CPUPEND_BPF_H

#include "common.bpf.h"

#define CPU_STACK_DEPTH		48

/* Samples are held for a verdict only with a target and the cpu family on. */
const volatile __u8 targ_cpu_pend = 0;

struct cpu_key {
	__u64 slot;		/* ts >> targ_cpu_slot_shift */
	__u32 tid;
	__u32 tgid;
	__u32 flags;		/* FSL_CPU_USER | marks */
	__u32 nframes;
	__u64 ips[CPU_STACK_DEPTH];	/* innermost first, zero past nframes */
};

/* A sample's key and its count; held in cpu_pend until its call's exit. */
struct cpu_pend {
	struct cpu_key k;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct cpu_key);
	__type(value, __u64);
} cpu_counts SEC(".maps");

/*
 * Not an LRU: an entry is never dropped unsaid. When full (4096 threads in
 * a path call with a sample held) the sample counts at once, unmarked.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);		/* tid */
	__type(value, struct cpu_pend);
} cpu_pend SEC(".maps");

static __always_inline void cpu_count_add(struct cpu_key *k, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&cpu_counts, k);

	if (v) {
		__sync_fetch_and_add(v, n);
	} else if (bpf_map_update_elem(&cpu_counts, k, &n, BPF_NOEXIST)) {
		/* another CPU added it first (or the map is full) */
		v = bpf_map_lookup_elem(&cpu_counts, k);
		if (v)
			__sync_fetch_and_add(v, n);
		else
			lost_inc(FSL_FAM_CPU);
	}
}

/*
 * The path call of the current thread returned; mark is its verdict
 * (FSL_OFFCPU_WALK_TARGET or _OTHER): the sample it held counts with it.
 */
static __always_inline void cpu_pend_commit(__u32 mark)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct cpu_pend *p;

	if (!targ_cpu_pend)
		return;
	p = bpf_map_lookup_elem(&cpu_pend, &tid);
	if (!p)
		return;
	if (p->n) {
		p->k.flags |= mark;
		cpu_count_add(&p->k, p->n);
	}
	bpf_map_delete_elem(&cpu_pend, &tid);
}

#endif /* FSL_CPUPEND_BPF_H */
