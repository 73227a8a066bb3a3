/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu family: a timer-driven perf event on every CPU (cpu-clock, the
 * collector opens it at --cpu-freq) samples the task on the CPU. A sample
 * of a recorded task is counted in the kernel per (thread, kernel stack,
 * marks, slot of time); the collector drains finished slots into one
 * struct fsl_ev_cpu each. Nothing goes through the ring per sample, so
 * the cost is a stack walk and a hash update per tick of a recorded task.
 *
 * The stack's frames are part of the key, not an id in the shared stack
 * map: on-CPU stacks differ by every instruction they were caught at, and
 * a long recording's samples would fill the map the off-CPU waits need.
 * The collector gives each distinct stack its id when it drains.
 *
 * Marks say what the thread was inside when sampled, as for its waits
 * (offcpu.bpf.h): a data call on the target or on another filesystem, a
 * jbd2 handle of the target or of another journal, a path walk standing in
 * the target's directories or another filesystem's. The context stage
 * judges the sample's filesystem from them as it judges a wait's.
 */
#ifndef FSL_CPU_BPF_H
#define FSL_CPU_BPF_H

#include "common.bpf.h"
#include "offcpu.bpf.h"
#include "dirops.bpf.h"
#include "cpupend.bpf.h"

/* log2 of the slot length in ns: 2^27 ns = 134 ms */
const volatile __u32 targ_cpu_slot_shift = 27;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_pend);
} cpu_scratch SEC(".maps");

/* The record of t's followed path call in flight, or NULL. */
static __always_inline struct dirop_buf *cpu_path_call(struct task_struct *t, __u32 tid)
{
	struct dirop_buf *b = bpf_task_storage_get(&dirop_task, t, 0, 0);

	if (b && ((struct fsl_ev_dirop *)b->raw)->hdr.type == FSL_EV_DIROP)
		return b;
	return bpf_map_lookup_elem(&dirop_inflight, &tid);
}

SEC("perf_event")
int cpu_sample(struct bpf_perf_event_data *ctx)
{
	FSL_FLOOR();
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, zero = 0;
	struct cpu_pend *p;
	struct cpu_key *k;
	long n;

	/* the idle task, and the recorder itself */
	if (!(__u32)id || !offcpu_wanted(t, tgid, 1))
		return 0;
	p = bpf_map_lookup_elem(&cpu_scratch, &zero);
	if (!p)
		return 0;
	k = &p->k;
	__builtin_memset(k, 0, sizeof(*k));
	k->slot = bpf_ktime_get_ns() >> targ_cpu_slot_shift;
	k->tid = (__u32)id;
	k->tgid = tgid;
	/* kernel addresses are the upper half on every arch fslens builds for */
	if ((long)PT_REGS_IP(&ctx->regs) < 0) {
		n = bpf_get_stack(ctx, k->ips, sizeof(k->ips), 0);
		k->nframes = n > 0 ? n / sizeof(__u64) : 0;
	} else {
		k->flags = FSL_CPU_USER;
	}
	k->flags |= offcpu_in_data_op(t, k->tid, 1) | offcpu_handle(t) | offcpu_walk(t);
	/*
	 * In a path call, outside its walk, in the kernel: held for the call's
	 * verdict (cpupend.bpf.h), unless the thread holds one already.
	 */
	if (targ_cpu_pend && !(k->flags & (FSL_CPU_USER | FSL_OFFCPU_WALK_TARGET |
					   FSL_OFFCPU_WALK_OTHER | FSL_OFFCPU_IN_DATA_OP |
					   FSL_OFFCPU_IN_OTHER_OP))) {
		struct dirop_buf *b = cpu_path_call(t, k->tid);
		struct cpu_pend *old;

		if (b && !b->held) {
			/*
			 * What the thread still holds, with this call holding
			 * none, is an earlier call's that its exit did not
			 * count (a sample taken inside the exit's own program,
			 * or an exit not seen): counted now, unmarked.
			 */
			old = bpf_map_lookup_elem(&cpu_pend, &k->tid);
			if (old && old->n) {
				cpu_count_add(&old->k, old->n);
				old->n = 0;
			}
			p->n = 1;
			if (!bpf_map_update_elem(&cpu_pend, &k->tid, p, BPF_ANY)) {
				b->held = 1;
				return 0;
			}
		}
	}
	cpu_count_add(k, 1);
	return 0;
}

#endif /* FSL_CPU_BPF_H */
