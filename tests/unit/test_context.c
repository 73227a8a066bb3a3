// SPDX-License-Identifier: GPL-2.0
/*
 * The session loop and its context stage: what the stage writes into each
 * event's context, waits split at cuts, windows that add up, and analyses
 * whose registration order does not change a byte of the report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../analyzer/an_set.h"
#include "fslens/report.h"
#include "fslens/session.h"
#include "an_fixture.h"
#include "t.h"

#define MS 1000000ull
#define S0 1000000000ull

static void ctx_meta(struct fx_meta *f)
{
	fx_init(f);
	fx_set(f, "record.root_pid", "100");
	fx_set(f, "record.start_ns", "1000000000");
	fx_stack_add(f, 1, "__schedule, schedule, wait_transaction_locked, "
			   "add_transaction_credits, start_this_handle, jbd2__journal_start, "
			   "__ext4_new_inode, ext4_mkdir");
	fx_stack_add(f, 2, "__schedule, schedule, io_schedule, bit_wait_io, "
			   "jbd2_journal_commit_transaction, kjournald2, kthread, ret_from_fork");
}

/* A consumer that writes down what it is given. */
struct probe {
	struct fsl_consumer c;
	unsigned int n, npart;
	struct { uint64_t ts, from, to; uint32_t flags, cls; int32_t role; } got[16], part[16];
};

static int probe_offcpu(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct probe *p = (struct probe *)c;

	if (p->n < 16)
		p->got[p->n++] = (typeof(p->got[0])){ ev->ts, c->ctx->from, c->ctx->to,
						      c->ctx->flags, c->ctx->cls, c->ctx->role };
	return 0;
}

static int probe_partial(struct fsl_consumer *c, const struct fsl_hdr *ev,
			 const struct fsl_evctx *x)
{
	struct probe *p = (struct probe *)c;

	if (p->npart < 16)
		p->part[p->npart++] = (typeof(p->part[0])){ ev->ts, x->from, x->to, x->flags,
							    x->cls, x->role };
	return 0;
}

static void ev_proc(struct fsl_ev_proc *e, uint64_t ts, uint32_t pid, uint32_t ppid,
		    unsigned int kind, unsigned int flags, const char *comm)
{
	memset(e, 0, sizeof(*e));
	fx_hdr(&e->hdr, FSL_EV_PROC, sizeof(*e), ts, pid, pid);
	e->ppid = ppid;
	e->kind = kind;
	e->flags = flags;
	snprintf(e->comm, sizeof(e->comm), "%s", comm);
}

static void ev_off(struct fsl_ev_offcpu *e, uint64_t ts, uint32_t pid, uint64_t dur, int32_t st)
{
	memset(e, 0, sizeof(*e));
	fx_hdr(&e->hdr, FSL_EV_OFFCPU, sizeof(*e), ts, pid, pid);
	e->dur_ns = dur;
	e->stack_id = st;
	e->state = FSL_OFFCPU_UNINTERRUPTIBLE;
}

/*
 * A session staged by cx (NULL: none made) with the probe on events of
 * type ev, begun on ctx_meta's fixture f; NULL if any step fails.
 */
static struct fsl_session *probe_session(struct fsl_context *cx, struct fx_meta *f,
					 struct probe *p, unsigned int ev, int split)
{
	struct fsl_session_opts so = { .split = split };
	struct fsl_session *s;

	if (!cx)
		return NULL;
	so.stage = fsl_context__stage(cx);
	s = fsl_session__new(&so, NULL);
	if (!s)
		return NULL;
	ctx_meta(f);
	p->c.handlers[ev] = probe_offcpu;
	if (fsl_session__add(s, &p->c) || fsl_session__begin(s, &f->m)) {
		fsl_session__free(s);
		return NULL;
	}
	return s;
}

TEST(context_stage_annotates_role_and_class)
{
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct probe p = { .c = { .name = "probe" } };
	struct fsl_session *s = probe_session(cx, &f, &p, FSL_EV_OFFCPU, 0);
	struct fsl_ev_proc pr;
	struct fsl_ev_offcpu off;

	REQUIRE(cx && s);
	ev_proc(&pr, S0, 100, 1, FSL_PROC_SEEN, 0, "xargs");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0 + 1, 101, 100, FSL_PROC_FORK, 0, "mkdir");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0 + 2, 200, 1, FSL_PROC_SEEN, 0, "bash");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_off(&off, S0 + 10 * MS, 101, 5 * MS, 1);	/* the workload, txn_locked */
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	ev_off(&off, S0 + 20 * MS, 300, 5 * MS, 2);	/* unnamed, its stack runs kthread() */
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	ev_off(&off, S0 + 30 * MS, 200, 5 * MS, 9);	/* not the workload; stack id absent */
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	off.state = 1;	/* TASK_INTERRUPTIBLE: not a stall */
	off.hdr.ts = S0 + 40 * MS;
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	CHECK_EQ(fsl_session__end(s), 0);

	REQUIRE(p.n == 4);
	CHECK_EQ(p.got[0].role, FSL_ROLE_WORKLOAD);
	CHECK_EQ(p.got[0].cls, FSL_WC_TXN_LOCKED);
	CHECK_EQ(p.got[0].flags, FSL_EVCTX_STALL);
	CHECK_U64(p.got[0].to - p.got[0].from, 5 * MS);
	CHECK_EQ(p.got[1].role, FSL_ROLE_KTHREAD);
	CHECK_EQ(p.got[2].role, FSL_ROLE_OTHER);
	CHECK_EQ(p.got[2].cls, FSL_WC_OTHER);
	CHECK_EQ(p.got[2].flags, FSL_EVCTX_STALL | FSL_EVCTX_NOSTACK);
	CHECK_EQ(p.got[3].flags, 0);
	CHECK_STR(fsl_context__comm(cx, 101), "mkdir");
	CHECK_U64(cx->last_wait_start[FSL_WC_TXN_LOCKED], S0 + 10 * MS);
	fsl_session__free(s);
	fsl_context__free(cx);
}

/* A consumer that writes down the scope the context stage gave each wait. */
struct scope_probe {
	struct fsl_consumer c;
	unsigned int n;
	struct { uint32_t flags, dev; int32_t role; } got[24];
};

static int scope_offcpu(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct scope_probe *p = (struct scope_probe *)c;

	(void)ev;
	if (p->n < 24)
		p->got[p->n++] = (typeof(p->got[0])){ c->ctx->flags, c->ctx->dev, c->ctx->role };
	return 0;
}

/*
 * Which filesystem a wait is on (docs/wait-classes.md): the kernel's marks,
 * the completion that woke it, the journal thread that woke it, the
 * process's other waits, the stack's filesystem, the target's own threads.
 */
TEST(context_stage_scopes_waits_to_the_target)
{
	static const struct { uint32_t pid, waker, state, wake_dev; int32_t stack;
			      uint32_t flags, dev; } w[] = {
		/* woken by a completion of the target's disk / of another disk */
		{ 100, 0, 0, FSL_MKDEV(7, 1), 1, FSL_EVCTX_STALL, 0 },
		{ 200, 0, 0, FSL_MKDEV(7, 2), 1, FSL_EVCTX_OTHERFS, FSL_MKDEV(7, 2) },
		/* no evidence: where the process's judged waits went */
		{ 200, 0, 0, 0, 1, FSL_EVCTX_OTHERFS, 0 },
		{ 100, 0, 0, 0, 1, FSL_EVCTX_STALL, 0 },
		/* another journal's thread woke it (by name: no kernel mark) */
		{ 100, 301, 0, 0, 1, FSL_EVCTX_OTHERFS, 0 },
		/* inside a data op on the target: the completion does not matter */
		{ 100, 0, FSL_OFFCPU_IN_DATA_OP, FSL_MKDEV(7, 2), 1, FSL_EVCTX_STALL, 0 },
		{ 100, 0, FSL_OFFCPU_HANDLE_OTHER, 0, 1, FSL_EVCTX_OTHERFS, 0 },
		{ 100, 0, FSL_OFFCPU_IN_OTHER_OP, 0, 1, FSL_EVCTX_OTHERFS, 0 },
		{ 100, 0, FSL_OFFCPU_WOKEN_JBD2_TARGET, 0, 1, FSL_EVCTX_STALL, 0 },
		{ 100, 300, FSL_OFFCPU_WOKEN_JBD2_OTHER, 0, 1, FSL_EVCTX_OTHERFS, 0 },
		/* a completion of another disk while the target's journal thread ran:
		 * a commit wait is the journal's, a folio wait the completion's */
		{ 100, 300, FSL_OFFCPU_WOKEN_JBD2_TARGET, FSL_MKDEV(254, 0), 5, FSL_EVCTX_STALL, 0 },
		{ 100, 300, FSL_OFFCPU_WOKEN_JBD2_TARGET, FSL_MKDEV(7, 2), 1, FSL_EVCTX_OTHERFS,
		  FSL_MKDEV(7, 2) },
		/* XFS code beside an ext4 target */
		{ 100, 0, 0, 0, 3, FSL_EVCTX_OTHERFS, 0 },
		/* journal threads: the target's, another's */
		{ 300, 0, 0, 0, 2, FSL_EVCTX_STALL, 0 },
		{ 301, 0, 0, FSL_MKDEV(7, 2), 2, FSL_EVCTX_OTHERFS, FSL_MKDEV(7, 2) },
		/* a named kworker woken by another disk; one woken by the target's */
		{ 400, 0, 0, FSL_MKDEV(254, 0), 4, FSL_EVCTX_OTHERFS, FSL_MKDEV(254, 0) },
		{ 400, 0, 0, FSL_MKDEV(7, 1), 4, FSL_EVCTX_STALL, 0 },
	};
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };
	struct fsl_session *s = fsl_session__new(&so, NULL);
	struct scope_probe p = { .c = { .name = "scope" } };
	struct fsl_ev_proc pr;
	struct fsl_ev_offcpu off;
	char v[32];
	unsigned int i;

	REQUIRE(cx && s);
	fx_init(&f);
	fx_set(&f, "record.start_ns", "1000000000");
	snprintf(v, sizeof(v), "%u", FSL_MKDEV(7, 1));
	fx_set(&f, "target.dev", v);
	fx_set(&f, "target.disk", v);
	fx_set(&f, "target.dev_name", "7:1 loop1");
	fx_set(&f, "target.fstype", "ext4");
	fx_stack_add(&f, 1, "__schedule, schedule, io_schedule, folio_wait_bit, "
			   "ext4_find_entry, ext4_lookup, path_openat");
	fx_stack_add(&f, 2, "__schedule, schedule, io_schedule, bit_wait_io, "
			   "jbd2_journal_commit_transaction, kjournald2, kthread, ret_from_fork");
	fx_stack_add(&f, 3, "__schedule, schedule, xlog_wait_on_iclog, xfs_log_force_seq, "
			   "xfs_file_fsync, do_fsync");
	fx_stack_add(&f, 5, "__schedule, schedule, jbd2_log_wait_commit, jbd2_log_do_checkpoint, "
			   "__jbd2_log_wait_for_space, add_transaction_credits, start_this_handle");
	fx_stack_add(&f, 4, "__schedule, schedule, io_schedule, blk_mq_get_tag, "
			   "submit_bio, process_one_work, worker_thread, kthread, ret_from_fork");
	p.c.handlers[FSL_EV_OFFCPU] = scope_offcpu;
	CHECK_EQ(fsl_session__add(s, &p.c), 0);
	CHECK_EQ(fsl_session__begin(s, &f.m), 0);
	ev_proc(&pr, S0, 100, 1, FSL_PROC_SEEN, 0, "tgt");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 200, 1, FSL_PROC_SEEN, 0, "oth");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 300, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop1-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 301, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop2-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 400, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "kworker/u8:1");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		ev_off(&off, S0 + (10 + i) * MS, w[i].pid, MS / 2, w[i].stack);
		off.waker_pid = w[i].waker;
		off.state |= w[i].state;
		off.wake_dev = w[i].wake_dev;
		CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	}
	CHECK_EQ(fsl_session__end(s), 0);
	REQUIRE(p.n == sizeof(w) / sizeof(w[0]));
	for (i = 0; i < p.n; i++) {
		/* the device is said of another filesystem's waits only */
		uint32_t dev = p.got[i].flags & FSL_EVCTX_OTHERFS ? p.got[i].dev : 0;

		if (p.got[i].flags != w[i].flags || dev != w[i].dev)
			fprintf(stderr, "  wait %u: flags %u dev %u, want %u %u\n", i,
				p.got[i].flags, dev, w[i].flags, w[i].dev);
		CHECK_EQ(p.got[i].flags, w[i].flags);
		CHECK_EQ(dev, w[i].dev);
	}
	fsl_session__free(s);
	fsl_context__free(cx);
}

/*
 * A wait with no evidence of its own (fsl_scope_majority): the process's
 * judged waits and operations on the target, else its parent's; with
 * neither, in a trace that would show its work on the target (dirops
 * recorded, no command), another filesystem's. Without dirops recorded,
 * nothing can be said of it: the target's.
 */
TEST(context_stage_scopes_waits_by_parent_and_ops)
{
	static const struct { uint32_t pid, wake_dev, ops_flags, no_ops_flags; } w[] = {
		/* judged by their completions: 100 the target's, 200 another's */
		{ 100, FSL_MKDEV(7, 1), FSL_EVCTX_STALL, FSL_EVCTX_STALL },
		{ 200, FSL_MKDEV(7, 2), FSL_EVCTX_OTHERFS, FSL_EVCTX_OTHERFS },
		/* children with none of their own go by their parents */
		{ 101, 0, FSL_EVCTX_STALL, FSL_EVCTX_STALL },
		{ 201, 0, FSL_EVCTX_OTHERFS, FSL_EVCTX_OTHERFS },
		/* nothing of its own nor of its parent's: no work on the target */
		{ 300, 0, FSL_EVCTX_OTHERFS, FSL_EVCTX_STALL },
		/* a data operation on the target (pushed before): it works there */
		{ 400, 0, FSL_EVCTX_STALL, FSL_EVCTX_STALL },
	};
	static const struct { uint32_t pid, ppid; const char *comm; } procs[] = {
		{ 100, 1, "job" }, { 101, 100, "job-child" }, { 200, 1, "oth" },
		{ 201, 200, "oth-child" }, { 300, 1, "storm" }, { 400, 1, "reader" },
	};
	unsigned int pass, i;

	for (pass = 0; pass < 2; pass++) {
		struct fx_meta f;
		struct fsl_context *cx = fsl_context__new(-1, NULL);
		struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };
		struct fsl_session *s = fsl_session__new(&so, NULL);
		struct scope_probe p = { .c = { .name = "scope" } };
		struct fsl_ev_offcpu off;
		struct fsl_ev_proc pr;
		struct fsl_ev_data d;
		char v[32];

		REQUIRE(cx && s);
		fx_init(&f);
		fx_set(&f, "record.start_ns", "1000000000");
		fx_set(&f, "record.families", pass ? "offcpu,proc" : "dirops,offcpu,proc");
		snprintf(v, sizeof(v), "%u", FSL_MKDEV(7, 1));
		fx_set(&f, "target.dev", v);
		fx_set(&f, "target.disk", v);
		fx_set(&f, "target.dev_name", "7:1 loop1");
		fx_set(&f, "target.fstype", "ext4");
		/* a mutex's wait in a pipe write: no filesystem in it (a fork's
		 * vfork wait, the fixture before, is no stall now: FSL_EVCTX_CHILD) */
		fx_stack_add(&f, 1, "__schedule, schedule, schedule_preempt_disabled, "
				   "__mutex_lock, pipe_write, vfs_write, ksys_write");
		p.c.handlers[FSL_EV_OFFCPU] = scope_offcpu;
		CHECK_EQ(fsl_session__add(s, &p.c), 0);
		CHECK_EQ(fsl_session__begin(s, &f.m), 0);
		for (i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
			ev_proc(&pr, S0, procs[i].pid, procs[i].ppid, FSL_PROC_SEEN, 0,
				procs[i].comm);
			CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
		}
		memset(&d, 0, sizeof(d));
		fx_hdr(&d.hdr, FSL_EV_DATA, sizeof(d), S0 + MS, 400, 400);
		d.op = FSL_DATA_READ;
		d.dev = FSL_MKDEV(7, 1);
		d.bytes = 4096;
		d.ret = 4096;
		CHECK_EQ(fsl_session__push(s, &d.hdr), 0);
		for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
			ev_off(&off, S0 + (10 + i) * MS, w[i].pid, MS / 2, 1);
			off.wake_dev = w[i].wake_dev;
			CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
		}
		CHECK_EQ(fsl_session__end(s), 0);
		REQUIRE(p.n == sizeof(w) / sizeof(w[0]));
		for (i = 0; i < p.n; i++) {
			uint32_t want = pass ? w[i].no_ops_flags : w[i].ops_flags;

			if (p.got[i].flags != want)
				fprintf(stderr, "  pass %u wait %u: flags %u, want %u\n", pass, i,
					p.got[i].flags, want);
			CHECK_EQ(p.got[i].flags, want);
		}
		/* the one judged with no evidence at all names no device */
		CHECK_EQ(p.got[4].dev, 0);
		fsl_session__free(s);
		fsl_context__free(cx);
	}
}

/* A consumer that writes down the scope the context stage gave each on-CPU sample. */
static int scope_cpu(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	return scope_offcpu(c, ev);
}

/*
 * Which filesystem an on-CPU sample is on (docs/cpu-classes.md): the
 * kernel's marks (a path walk's position among them), the
 * waits' rules (analyzer/scope.c) less the waker, a kernel thread always
 * decided by what it is, then the process's judged waits, or its
 * parent's; a process with none is not the target's when the trace has no
 * command.
 */
TEST(context_stage_scopes_samples_as_waits)
{
	static const struct { uint32_t pid, flags; int32_t stack; uint32_t want; } c[] = {
		/* the kernel's marks */
		{ 100, FSL_OFFCPU_IN_OTHER_OP, 6, FSL_EVCTX_OTHERFS },
		{ 200, FSL_OFFCPU_IN_DATA_OP, 6, FSL_EVCTX_ONCPU },
		{ 200, FSL_OFFCPU_HANDLE_TARGET, 6, FSL_EVCTX_ONCPU },
		/* a path walk standing in another filesystem's directory, in the target's */
		{ 100, FSL_OFFCPU_WALK_OTHER, 6, FSL_EVCTX_OTHERFS },
		{ 200, FSL_OFFCPU_WALK_TARGET, 6, FSL_EVCTX_ONCPU },
		/* XFS code beside an ext4 target, whatever the process */
		{ 100, 0, 3, FSL_EVCTX_OTHERFS },
		/* no evidence: the process's judged waits, none at all is not the target's */
		{ 100, 0, 6, FSL_EVCTX_ONCPU },
		{ 200, 0, 6, FSL_EVCTX_OTHERFS },
		{ 500, FSL_CPU_USER, -1, FSL_EVCTX_OTHERFS },
		/* journal threads: the target's, another's */
		{ 300, 0, 7, FSL_EVCTX_ONCPU },
		{ 301, 0, 7, FSL_EVCTX_OTHERFS },
		/* a named kworker: not the target's, unless seen working for it */
		{ 400, 0, 7, FSL_EVCTX_OTHERFS },
		{ 401, 0, 7, FSL_EVCTX_ONCPU },
		/* a flusher's stack: the target's only while it writes back the target */
		{ 401, 0, 8, FSL_EVCTX_OTHERFS },
		/* a kernel thread of no known name (its stack says kthread) */
		{ 402, 0, 7, FSL_EVCTX_ONCPU },
		/* children with no waits of their own go by their parents' */
		{ 101, FSL_CPU_USER, -1, FSL_EVCTX_ONCPU },
		{ 201, FSL_CPU_USER, -1, FSL_EVCTX_OTHERFS },
	};
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };
	struct fsl_session *s = fsl_session__new(&so, NULL);
	struct scope_probe p = { .c = { .name = "scope" } };
	struct fsl_ev_block_rq rq;
	struct fsl_ev_offcpu off;
	struct fsl_ev_proc pr;
	struct fsl_ev_cpu cpu;
	char v[32];
	unsigned int i;

	REQUIRE(cx && s);
	fx_init(&f);
	fx_set(&f, "record.start_ns", "1000000000");
	snprintf(v, sizeof(v), "%u", FSL_MKDEV(7, 1));
	fx_set(&f, "target.dev", v);
	fx_set(&f, "target.disk", v);
	fx_set(&f, "target.dev_name", "7:1 loop1");
	fx_set(&f, "target.fstype", "ext4");
	fx_stack_add(&f, 1, "__schedule, schedule, io_schedule, folio_wait_bit, "
			   "ext4_find_entry, ext4_lookup, path_openat");
	fx_stack_add(&f, 3, "xlog_cil_push_now, xlog_cil_force_seq, xfs_log_force_seq, "
			   "xfs_file_fsync, do_fsync");
	fx_stack_add(&f, 6, "ext4_readdir, iterate_dir, __x64_sys_getdents64");
	fx_stack_add(&f, 7, "memcpy, process_one_work, worker_thread, kthread, ret_from_fork");
	fx_stack_add(&f, 8, "ext4_writepages, do_writepages, __writeback_single_inode, "
			   "writeback_sb_inodes, wb_writeback, wb_workfn, process_one_work, "
			   "worker_thread, kthread, ret_from_fork");
	p.c.handlers[FSL_EV_CPU] = scope_cpu;
	CHECK_EQ(fsl_session__add(s, &p.c), 0);
	CHECK_EQ(fsl_session__begin(s, &f.m), 0);
	ev_proc(&pr, S0, 100, 1, FSL_PROC_SEEN, 0, "tgt");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 200, 1, FSL_PROC_SEEN, 0, "oth");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 300, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop1-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 301, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop2-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 400, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "kworker/u8:1");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 401, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "kworker/u8:2");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 101, 100, FSL_PROC_FORK, 0, "tgt-child");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 201, 200, FSL_PROC_FORK, 0, "oth-child");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	/* 401 completes a request of the target's disk (a loop worker) */
	memset(&rq, 0, sizeof(rq));
	fx_hdr(&rq.hdr, FSL_EV_BLOCK_RQ_COMPLETE, sizeof(rq), S0 + MS, 401, 401);
	rq.dev = FSL_MKDEV(7, 1);
	CHECK_EQ(fsl_session__push(s, &rq.hdr), 0);
	/* 100 waited on the target's disk, 200 on another */
	ev_off(&off, S0 + 2 * MS, 100, MS / 2, 1);
	off.wake_dev = FSL_MKDEV(7, 1);
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	ev_off(&off, S0 + 3 * MS, 200, MS / 2, 1);
	off.wake_dev = FSL_MKDEV(7, 2);
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&cpu, 0, sizeof(cpu));
		fx_hdr(&cpu.hdr, FSL_EV_CPU, sizeof(cpu), S0 + (10 + i) * MS, c[i].pid, c[i].pid);
		cpu.slot_ns = MS;
		cpu.period_ns = MS;
		cpu.count = 1;
		cpu.stack_id = c[i].stack;
		cpu.flags = c[i].flags;
		CHECK_EQ(fsl_session__push(s, &cpu.hdr), 0);
	}
	CHECK_EQ(fsl_session__end(s), 0);
	REQUIRE(p.n == sizeof(c) / sizeof(c[0]));
	for (i = 0; i < p.n; i++) {
		uint32_t got = p.got[i].flags & (FSL_EVCTX_OTHERFS | FSL_EVCTX_ONCPU);

		if (got != c[i].want)
			fprintf(stderr, "  sample %u: flags %u, want %u\n", i, got, c[i].want);
		CHECK_EQ(got, c[i].want);
	}
	fsl_session__free(s);
	fsl_context__free(cx);
}

/*
 * A CPU slot is stamped at its end (FSL_CPU_TS_END): in time order it comes
 * after the fork of a task that lived inside it, so the task is the
 * workload's when its samples are judged; its span is [ts - slot, ts).
 * Stamped at its start (older traces), the same record came before the
 * fork and counted as another process's (a 0.1 s du kept 8 of 39 samples).
 */
TEST(cpu_slot_stamped_at_end_knows_its_tasks)
{
	static const int32_t stamp_end[] = { 1, 0 };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		struct fx_meta f;
		struct fsl_context *cx = fsl_context__new(100, NULL);
		struct probe p = { .c = { .name = "probe" } };
		struct fsl_session *s = probe_session(cx, &f, &p, FSL_EV_CPU, 0);
		struct fsl_ev_proc pr;
		struct fsl_ev_cpu cpu;

		REQUIRE(cx && s);
		ev_proc(&pr, S0, 100, 1, FSL_PROC_SEEN, 0, "sh");
		CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
		memset(&cpu, 0, sizeof(cpu));
		/* the slot [S0 + 1 ms, S0 + 135 ms): pid 150 forked 10 ms into it */
		fx_hdr(&cpu.hdr, FSL_EV_CPU, sizeof(cpu),
		       stamp_end[k] ? S0 + 135 * MS : S0 + 1 * MS, 150, 150);
		cpu.slot_ns = 134 * MS;
		cpu.period_ns = 2 * MS;
		cpu.count = 5;
		cpu.stack_id = -1;
		cpu.flags = FSL_CPU_USER | (stamp_end[k] ? FSL_CPU_TS_END : 0);
		ev_proc(&pr, S0 + 11 * MS, 150, 100, FSL_PROC_FORK, 0, "du");
		if (!stamp_end[k])
			CHECK_EQ(fsl_session__push(s, &cpu.hdr), 0);
		CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
		if (stamp_end[k])
			CHECK_EQ(fsl_session__push(s, &cpu.hdr), 0);
		CHECK_EQ(fsl_session__end(s), 0);
		REQUIRE(p.n == 1);
		CHECK_U64(p.got[0].from, S0 + 1 * MS);
		CHECK_U64(p.got[0].to, S0 + 135 * MS);
		CHECK_EQ(p.got[0].role, stamp_end[k] ? FSL_ROLE_WORKLOAD : FSL_ROLE_OTHER);
		fsl_session__free(s);
		fsl_context__free(cx);
	}
}

TEST(session_cut_splits_waits_in_flight)
{
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct probe p = { .c = { .name = "probe", .partial = probe_partial } };
	struct fsl_session *s = probe_session(cx, &f, &p, FSL_EV_OFFCPU, 1);
	struct fsl_ev_offcpu a, b;
	struct fsl_ev_proc pr;

	REQUIRE(cx && s);
	ev_off(&a, S0 + 100 * MS, 101, 600 * MS, 1);	/* 0.1 .. 0.7 s */
	ev_off(&b, S0 + 200 * MS, 101, 50 * MS, 1);	/* 0.2 .. 0.25 s */
	CHECK_EQ(fsl_session__push(s, &a.hdr), 0);
	CHECK_EQ(fsl_session__push(s, &b.hdr), 0);
	/* held to their end: a wait that began is known (journal), not yet delivered */
	CHECK_EQ(p.n, 0);
	CHECK_U64(cx->last_wait_start[FSL_WC_TXN_LOCKED], S0 + 200 * MS);
	CHECK_EQ(fsl_session__cut(s, S0 + 500 * MS), 0);
	/* b ended before the cut: delivered whole; a gave its part up to the cut */
	REQUIRE(p.n == 1);
	CHECK_U64(p.got[0].ts, S0 + 200 * MS);
	CHECK_U64(p.got[0].to - p.got[0].from, 50 * MS);
	REQUIRE(p.npart == 1);
	CHECK_U64(p.part[0].from, S0 + 100 * MS);
	CHECK_U64(p.part[0].to, S0 + 500 * MS);
	CHECK(p.part[0].flags & FSL_EVCTX_PARTIAL);
	CHECK_EQ(p.part[0].cls, FSL_WC_TXN_LOCKED);
	/* the stream passes a's end: the rest, from the cut */
	ev_proc(&pr, S0 + 800 * MS, 100, 1, FSL_PROC_SEEN, 0, "xargs");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	REQUIRE(p.n == 2);
	CHECK_U64(p.got[1].from, S0 + 500 * MS);
	CHECK_U64(p.got[1].to, S0 + 700 * MS);
	CHECK(!(p.got[1].flags & FSL_EVCTX_PARTIAL));
	/* no cut before 1.5 s (top -b pumps to its next cut): what ends before is not held */
	fsl_session__horizon(s, S0 + 1500 * MS);
	ev_off(&a, S0 + 900 * MS, 101, 100 * MS, 1);
	CHECK_EQ(fsl_session__push(s, &a.hdr), 0);
	REQUIRE(p.n == 3);
	CHECK_U64(p.got[2].from, S0 + 900 * MS);
	ev_off(&a, S0 + 1000 * MS, 101, 600 * MS, 1);	/* ends past it: held */
	CHECK_EQ(fsl_session__push(s, &a.hdr), 0);
	CHECK_EQ(p.n, 3);
	CHECK_EQ(fsl_session__end(s), 0);
	CHECK_EQ(p.n, 4);
	fsl_session__free(s);
	fsl_context__free(cx);
}

/*
 * Windows stepped with reset() on a held stream add up to one window over
 * their union, and one thread's blocked time never exceeds a window.
 */
TEST(session_windows_add_up)
{
	static const uint64_t edges[] = { 0, 250, 500, 750, 1000, 1250 };
	struct fx_meta f;
	struct fsl_analysis *step, *whole, *both[2];
	uint64_t sum = 0, count = 0, t;
	unsigned int k, i;

	ctx_meta(&f);
	step = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1, .hold = 1 }, NULL);
	whole = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1, .t0 = S0,
							      .t1 = S0 + 1250 * MS }, NULL);
	REQUIRE(step && whole);
	both[0] = step;
	both[1] = whole;
	CHECK_EQ(fsl_analysis__begin(step, &f.m), 0);
	CHECK_EQ(fsl_analysis__begin(whole, &f.m), 0);
	for (k = 1; k < sizeof(edges) / sizeof(edges[0]); k++) {
		const struct fsl_stalls *st;
		const struct fsl_proc_stat *ps;
		uint64_t w = (edges[k] - edges[k - 1]) * MS;

		fsl_analysis__reset(step, S0 + edges[k - 1] * MS, S0 + edges[k] * MS);
		/* one thread: 600 ms from 0.1 s and 300 ms from 0.8 s, two edges each */
		for (t = S0 + edges[k - 1] * MS; t < S0 + edges[k] * MS; t += 50 * MS)
			for (i = 0; i < 2; i++) {
				if (t == S0 + 100 * MS)
					CHECK_EQ(fx_offcpu(both[i], t, 101, 600 * MS, 1), 0);
				else if (t == S0 + 800 * MS)
					CHECK_EQ(fx_offcpu(both[i], t, 101, 300 * MS, 1), 0);
				else if (t == S0)
					CHECK_EQ(fx_proc(both[i], t, 101, 100, FSL_PROC_FORK, 0,
							 "mkdir"), 0);
				else
					CHECK_EQ(fx_proc(both[i], t, 100, 1, FSL_PROC_SEEN, 0, "x"), 0);
			}
		st = fsl_analysis__stalls(step);
		sum += st->cls[FSL_WC_TXN_LOCKED].ns[FSL_ROLE_WORKLOAD];
		count += st->cls[FSL_WC_TXN_LOCKED].count[FSL_ROLE_WORKLOAD];
		if (fsl_analysis__procs(step, &ps))
			CHECK(ps[0].blocked_ns <= w);
		/* [0.5, 0.75): the first wait's last 200 ms, and it ends here */
		if (k == 3) {
			CHECK_U64(st->ns[FSL_ROLE_WORKLOAD], 200 * MS);
			CHECK_U64(st->cls[FSL_WC_TXN_LOCKED].count[FSL_ROLE_WORKLOAD], 1);
		}
		/* [0.75, 1.0): the second's first 200 ms; it ends later */
		if (k == 4) {
			CHECK_U64(st->ns[FSL_ROLE_WORKLOAD], 200 * MS);
			CHECK_U64(st->cls[FSL_WC_TXN_LOCKED].count[FSL_ROLE_WORKLOAD], 0);
		}
	}
	CHECK_U64(sum, 900 * MS);
	CHECK_U64(count, 2);
	CHECK_U64(fsl_analysis__stalls(whole)->cls[FSL_WC_TXN_LOCKED].ns[FSL_ROLE_WORKLOAD],
		  900 * MS);
	CHECK_U64(fsl_analysis__stalls(whole)->cls[FSL_WC_TXN_LOCKED].count[FSL_ROLE_WORKLOAD], 2);
	fsl_analysis__free(step);
	fsl_analysis__free(whole);
}

/* The report over one trace, with the analyses registered in some order. */
static char *report_json(int reverse)
{
	struct fsl_report_info info = { .trace_path = "golden" };
	struct fsl_analysis_opts o = { .root_pid = -1 };
	struct fsl_reader *r = fsl_reader__open("tests/data/golden.trace", NULL, NULL);
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };
	struct fsl_session *s = fsl_session__new(&so, NULL);
	struct fsl_analysis *a;
	struct fsl_meta m;
	char *buf = NULL;
	size_t len = 0;
	int from_reader;
	FILE *f;

	if (!r || !cx || !s)
		return NULL;
	o.context = cx;
	a = fsl_analysis__new(&o, NULL);
	fsl_meta_from_reader(&m, r);
	if (!a || an_analysis_attach_order(a, s, reverse) || fsl_session__begin(s, &m) ||
	    fsl_session__read(s, r, &from_reader) || fsl_session__end(s))
		return NULL;
	f = open_memstream(&buf, &len);
	if (f) {
		fsl_report__json(f, a, &info);
		fsl_report__text(f, a, &info);
		fclose(f);
	}
	fsl_session__free(s);
	fsl_analysis__free(a);
	fsl_context__free(cx);
	fsl_reader__close(r);
	return buf;
}

TEST(session_consumer_order_does_not_matter)
{
	char *fwd = report_json(0), *rev = report_json(1);

	REQUIRE(fwd && rev);
	CHECK(strlen(fwd) > 1000);
	CHECK(strstr(fwd, "journal_log_space") != NULL);
	CHECK_STR(rev, fwd);
	free(fwd);
	free(rev);
}

/* Kernel-thread evidence is the target's own: another fs's jbd2 thread is "other". */
TEST(context_other_fs_journal_thread)
{
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };
	struct fsl_session *s = fsl_session__new(&so, NULL);
	struct fsl_ev_proc pr;

	REQUIRE(cx && s);
	ctx_meta(&f);
	fx_set(&f, "target.dev_name", "7:1 loop1");
	CHECK_EQ(fsl_session__begin(s, &f.m), 0);
	ev_proc(&pr, S0, 500, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop1-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 501, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop0-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 502, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop10-8");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0, 503, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "kworker/u8:1");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	CHECK_EQ(fsl_session__end(s), 0);
	CHECK_EQ(fsl_context__role(cx, 500, 0), FSL_ROLE_KTHREAD);
	CHECK_EQ(fsl_context__role(cx, 501, 0), FSL_ROLE_OTHER);
	CHECK_EQ(fsl_context__role(cx, 502, 0), FSL_ROLE_OTHER);	/* loop10 is not loop1 */
	CHECK_EQ(fsl_context__role(cx, 503, 0), FSL_ROLE_KTHREAD);
	fsl_session__free(s);
	fsl_context__free(cx);
}

/*
 * Per-process totals belong to the context stage, one table per window:
 * two sets of analyses on one session and one stage (top's interval and
 * its totals, compare's phases) each see their own window's totals, named
 * and given roles from the stage's task table (the name as it is now, after
 * a rename), and the waits whose stack is missing are counted per window
 * from the stage's annotation, not from another analysis.
 */
TEST(context_procs_per_window)
{
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct fsl_session_opts so = { .stage = fsl_context__stage(cx), .split = 1 };
	struct fsl_session *s = fsl_session__new(&so, NULL);
	struct fsl_analysis *a, *b;
	const struct fsl_proc_stat *ps;
	struct fsl_ev_proc pr;
	struct fsl_ev_offcpu off;
	struct fsl_ctx_procs own;

	REQUIRE(cx && s);
	ctx_meta(&f);
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1, .context = cx,
							  .t0 = S0, .t1 = S0 + 60 * MS }, NULL);
	b = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1, .context = cx,
							  .t0 = S0 + 60 * MS, .t1 = S0 + 200 * MS },
			      NULL);
	REQUIRE(a && b);
	CHECK_EQ(fsl_analysis__attach(a, s), 0);
	CHECK_EQ(fsl_analysis__attach(b, s), 0);
	CHECK_EQ(fsl_session__begin(s, &f.m), 0);
	ev_proc(&pr, S0, 100, 1, FSL_PROC_SEEN, 0, "xargs");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0 + 1, 101, 100, FSL_PROC_FORK, 0, "mkdir");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_proc(&pr, S0 + 2, 200, 1, FSL_PROC_SEEN, 0, "bash");
	snprintf(pr.cgroup, sizeof(pr.cgroup), "/jobs/b");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	ev_off(&off, S0 + 10 * MS, 101, 40 * MS, 1);	/* A: 40 ms txn_locked */
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	ev_off(&off, S0 + 40 * MS, 200, 30 * MS, 1);	/* 20 ms in A, 10 ms in B, counted in B */
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	ev_off(&off, S0 + 100 * MS, 101, 20 * MS, 9);	/* B: stack absent from the trace */
	CHECK_EQ(fsl_session__push(s, &off.hdr), 0);
	ev_proc(&pr, S0 + 150 * MS, 101, 100, FSL_PROC_COMM, 0, "mkdir-renamed");
	CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	CHECK_EQ(fsl_session__end(s), 0);

	REQUIRE(fsl_analysis__procs(a, &ps) == 2);
	CHECK_EQ(ps[0].pid, 101);
	CHECK_STR(ps[0].comm, "mkdir-renamed");
	CHECK_EQ(ps[0].role, FSL_ROLE_WORKLOAD);
	CHECK_U64(ps[0].blocked_ns, 40 * MS);
	CHECK_U64(ps[0].ns[FSL_WC_TXN_LOCKED], 40 * MS);
	CHECK_EQ(ps[1].pid, 200);
	CHECK_EQ(ps[1].role, FSL_ROLE_OTHER);
	CHECK_U64(ps[1].blocked_ns, 20 * MS);
	CHECK_STR(ps[0].cgroup, "");
	CHECK_STR(ps[1].cgroup, "/jobs/b");
	CHECK_U64(fsl_analysis__health(a)->unknown_stacks, 0);

	REQUIRE(fsl_analysis__procs(b, &ps) == 2);
	CHECK_EQ(ps[0].pid, 101);
	CHECK_U64(ps[0].blocked_ns, 20 * MS);
	CHECK_U64(ps[0].ns[FSL_WC_OTHER], 20 * MS);
	CHECK_U64(ps[0].ns[FSL_WC_TXN_LOCKED], 0);
	CHECK_EQ(ps[1].pid, 200);
	CHECK_U64(ps[1].blocked_ns, 10 * MS);
	CHECK_U64(fsl_analysis__health(b)->unknown_stacks, 1);

	/* a table of its own on the same stage starts empty and names from the tasks */
	fsl_ctx_procs__init(&own, cx);
	CHECK(fsl_ctx_procs__sorted(&own, &ps) == 0);
	fsl_ctx_procs__get(&own, 200)->ops = 3;
	REQUIRE(fsl_ctx_procs__sorted(&own, &ps) == 1);
	CHECK_STR(ps[0].comm, "bash");
	CHECK_STR(ps[0].cgroup, "/jobs/b");
	CHECK_U64(ps[0].ops, 3);
	fsl_ctx_procs__clear(&own);
	CHECK(fsl_ctx_procs__sorted(&own, &ps) == 0);
	fsl_ctx_procs__free(&own);

	fsl_session__free(s);
	fsl_analysis__free(a);
	fsl_analysis__free(b);
	fsl_context__free(cx);
}

/*
 * A bounded table (a live top): past max a new process sums the half that
 * did least into the pid 0 "(evicted)" row, exited processes first even
 * when they did more; nothing is lost, and a new window starts the count
 * again. Off, it keeps none.
 */
TEST(context_procs_bounded_exited_first)
{
	struct fx_meta f;
	struct fsl_context *cx = fsl_context__new(-1, NULL);
	struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };
	struct fsl_session *s = fsl_session__new(&so, NULL);
	const struct fsl_proc_stat *ps;
	struct fsl_ctx_procs t;
	struct fsl_ev_proc pr;
	uint64_t sum = 0;
	uint32_t pid;
	unsigned int i, n;

	REQUIRE(cx && s);
	ctx_meta(&f);
	CHECK_EQ(fsl_session__begin(s, &f.m), 0);
	for (pid = 10; pid <= 14; pid++) {
		ev_proc(&pr, S0, pid, 1, FSL_PROC_SEEN, 0, "p");
		CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	}
	for (pid = 10; pid <= 11; pid++) {
		ev_proc(&pr, S0 + MS, pid, 1, FSL_PROC_EXIT, 0, "p");
		CHECK_EQ(fsl_session__push(s, &pr.hdr), 0);
	}
	CHECK_EQ(fsl_session__end(s), 0);
	CHECK(fsl_context__exited(cx, 10) == S0 + MS);
	CHECK(fsl_context__exited(cx, 12) == 0);

	fsl_ctx_procs__init(&t, cx);
	t.max = 4;
	fsl_ctx_procs__get(&t, 10)->blocked_ns = 1000 * MS;	/* exited, did the most */
	fsl_ctx_procs__get(&t, 11)->blocked_ns = 5 * MS;	/* exited */
	fsl_ctx_procs__get(&t, 12)->blocked_ns = 1 * MS;
	fsl_ctx_procs__get(&t, 13)->ops = 7;
	fsl_ctx_procs__get(&t, 13)->op_lat_ns = 2 * MS;
	REQUIRE(fsl_ctx_procs__get(&t, 14) != NULL);	/* full: 10 and 11 go */
	fsl_ctx_procs__get(&t, 14)->blocked_ns = 3 * MS;
	CHECK_U64(t.evicted, 2);
	n = fsl_ctx_procs__sorted(&t, &ps);
	REQUIRE(n == 4);
	CHECK_EQ(ps[0].pid, 0);
	CHECK_STR(ps[0].comm, "(evicted)");
	CHECK_EQ(ps[0].role, FSL_ROLE_OTHER);
	CHECK_U64(ps[0].blocked_ns, 1005 * MS);
	CHECK_EQ(ps[1].pid, 14);
	CHECK_EQ(ps[2].pid, 12);
	CHECK_EQ(ps[3].pid, 13);
	CHECK_U64(ps[3].ops, 7);
	for (i = 0; i < n; i++)
		sum += ps[i].blocked_ns;
	CHECK_U64(sum, 1009 * MS);

	fsl_ctx_procs__clear(&t);
	CHECK_U64(t.evicted, 0);
	CHECK(fsl_ctx_procs__sorted(&t, &ps) == 0);
	t.off = 1;
	CHECK(fsl_ctx_procs__get(&t, 12) == NULL);
	CHECK(fsl_ctx_procs__sorted(&t, &ps) == 0);
	fsl_ctx_procs__free(&t);
	fsl_session__free(s);
	fsl_context__free(cx);
}
