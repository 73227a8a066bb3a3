/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc family: fork, exec and exit with the task's name, so every pid in a
 * trace has one. sched_process_fork also keeps the tracked map (the recorded
 * command's descendants) and is loaded for that even when the family is off.
 * Tasks already running are named by the collector on first sight.
 */
#ifndef FSL_PROC_BPF_H
#define FSL_PROC_BPF_H

#include "common.bpf.h"

static __always_inline void proc_ev(struct task_struct *t, __u32 ppid, __u32 kind, __s32 code)
{
	struct fsl_ev_proc *e = EV_NEW(fsl_ev_proc, FSL_EV_PROC, FSL_FAM_PROC);

	if (!e)
		return;
	e->hdr.pid = BPF_CORE_READ(t, tgid);
	e->hdr.tid = BPF_CORE_READ(t, pid);
	e->ppid = ppid;
	e->kind = kind;
	e->flags = (BPF_CORE_READ(t, flags) & PF_KTHREAD_BIT) ? FSL_PROC_KTHREAD : 0;
	e->exit_code = code;
	BPF_CORE_READ_STR_INTO(&e->comm, t, comm);
	/* the path is the recorder's to add (collector/stream.c) */
	e->cgroup_id = BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
	EV_SUBMIT(e);
}

/* sched_process_fork(struct task_struct *parent, struct task_struct *child) */
static __always_inline int on_process_fork(__u64 *ctx)
{
	struct task_struct *parent = (struct task_struct *)ctx[0];
	struct task_struct *child = (struct task_struct *)ctx[1];
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid == targ_self)
		return 0;
	if (targ_follow && ctgid != ptgid && bpf_map_lookup_elem(&tracked, &ptgid))
		bpf_map_update_elem(&tracked, &ctgid, &one, BPF_ANY);
	if (targ_proc && (tgid_wanted(ptgid) || tgid_wanted(ctgid)))
		proc_ev(child, ptgid, FSL_PROC_FORK, 0);
	return 0;
}

/* sched_process_exec(struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm) */
static __always_inline int on_process_exec(__u64 *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	__u32 tgid = BPF_CORE_READ(p, tgid);

	if (!targ_proc || tgid == targ_self || !tgid_wanted(tgid))
		return 0;
	proc_ev(p, BPF_CORE_READ(p, real_parent, tgid), FSL_PROC_EXEC, 0);
	return 0;
}

/* sched_process_exit(struct task_struct *p, ...) */
static __always_inline int on_process_exit(__u64 *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	__u32 tgid = BPF_CORE_READ(p, tgid);

	if (!targ_proc || tgid == targ_self || !tgid_wanted(tgid))
		return 0;
	proc_ev(p, BPF_CORE_READ(p, real_parent, tgid), FSL_PROC_EXIT,
		BPF_CORE_READ(p, exit_code));
	return 0;
}

FSL_RAW_TP(sched_process_fork, on_process_fork)
FSL_RAW_TP(sched_process_exec, on_process_exec)
FSL_RAW_TP(sched_process_exit, on_process_exit)

#endif
