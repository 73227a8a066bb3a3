// SPDX-License-Identifier: GPL-2.0
/*
 * collector/stream.c without BPF: a fake ring feeds raw records as the
 * kernel's ring buffer would (per-CPU runs, out of time order), a fake /proc
 * names tasks, a fake kallsyms symbolizes. What comes out must be in time
 * order, with SEEN records naming tasks (also one seen after its exit),
 * stacks symbolized without the probe's frames, and the ring's lost counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "t.h"
#include "fslens/event.h"
#include "fslens/stream.h"
#include "fslens/trace.h"

/* ---- the fake ring ---- */

#define FAKE_MAX 64

struct fake_ring {
	union {
		struct fsl_hdr hdr;
		struct fsl_ev_proc proc;
		struct fsl_ev_offcpu off;
		struct fsl_ev_ext4_journal_start js;
	} rec[FAKE_MAX];
	int n, next;
	int per_poll;		/* records per poll (0: all ready) */
	int stopped;
	uint64_t lost[FSL_FAM__MAX];
	int32_t stack_id;	/* the one stack the kernel map has */
	uint64_t ips[8];
	int nips;
};

static int fake_deliver(struct fake_ring *f, int max, fsl_event_fn fn, void *ctx)
{
	int n = 0, e;

	while (f->next < f->n && (!max || n < max)) {
		e = fn(ctx, &f->rec[f->next++].hdr);
		if (e)
			return e < 0 ? e : -ECANCELED;	/* what the collector returns */
		n++;
	}
	return n;
}

static int fake_poll(void *ring, int timeout_ms, fsl_event_fn fn, void *ctx)
{
	struct fake_ring *f = ring;

	return f->stopped ? 0 : fake_deliver(f, f->per_poll, fn, ctx);
}

static int fake_stop(void *ring, fsl_event_fn fn, void *ctx)
{
	struct fake_ring *f = ring;
	int n;

	f->stopped = 1;
	n = fake_deliver(f, 0, fn, ctx);
	return n < 0 ? n : 0;
}

static int fake_stack(void *ring, int32_t id, uint64_t *ips, int max)
{
	struct fake_ring *f = ring;
	int i;

	if (id != f->stack_id)
		return -ENOENT;
	for (i = 0; i < f->nips && i < max; i++)
		ips[i] = f->ips[i];
	return i;
}

static int fake_lost(void *ring, uint64_t lost[FSL_FAM__MAX])
{
	struct fake_ring *f = ring;

	memcpy(lost, f->lost, sizeof(f->lost));
	return 0;
}

static const struct fsl_ring_ops fake_ops = {
	.poll = fake_poll, .stop = fake_stop, .stack = fake_stack, .lost = fake_lost,
};

static struct fsl_hdr *add(struct fake_ring *f, uint16_t type, uint16_t size, uint64_t ts,
			   uint32_t pid, uint32_t tid, uint16_t cpu)
{
	struct fsl_hdr *h = &f->rec[f->n++].hdr;

	memset(h, 0, sizeof(f->rec[0]));
	h->type = type;
	h->size = size;
	h->ts = ts;
	h->pid = pid;
	h->tid = tid;
	h->cpu = cpu;
	return h;
}

static void add_block(struct fake_ring *f, uint64_t ts, uint32_t tid, uint16_t cpu)
{
	add(f, FSL_EV_BLOCK_RQ_ISSUE, sizeof(struct fsl_ev_block_rq), ts, tid, tid, cpu);
}

/* ---- what comes out ---- */

struct got {
	struct {
		uint64_t ts;
		uint32_t tid;
		uint16_t type, cpu;
		uint32_t kind, ppid, flags;
		char comm[16];
	} ev[FAKE_MAX * 2];
	int n;
	int fail_at;		/* return -EIO for the fail_at-th record (1-based), 0: never */
};

static int got_ev(void *ctx, const struct fsl_hdr *ev)
{
	struct got *g = ctx;

	if (g->fail_at && g->n + 1 == g->fail_at) {
		g->fail_at = 0;
		return -EIO;
	}
	if (g->n >= FAKE_MAX * 2)
		return -ENOSPC;
	g->ev[g->n].ts = ev->ts;
	g->ev[g->n].tid = ev->tid;
	g->ev[g->n].type = ev->type;
	g->ev[g->n].cpu = ev->cpu;
	if (ev->type == FSL_EV_PROC) {
		const struct fsl_ev_proc *p = (const void *)ev;

		g->ev[g->n].kind = p->kind;
		g->ev[g->n].ppid = p->ppid;
		g->ev[g->n].flags = p->flags;
		memcpy(g->ev[g->n].comm, p->comm, 16);
	}
	g->n++;
	return 0;
}

static int sorted(const struct got *g)
{
	int i;

	for (i = 1; i < g->n; i++)
		if (g->ev[i].ts < g->ev[i - 1].ts)
			return 0;
	return 1;
}

/* A fake /proc/<pid>/task/<tid>/stat (and /proc/<pid>/comm). */
static void fake_task(const char *root, unsigned int pid, unsigned int tid, const char *comm,
		      unsigned int ppid)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%u", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%u/comm", root, pid);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%s\n", comm);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/%u/task", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%u/task/%u", root, pid, tid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%u/task/%u/stat", root, pid, tid);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%u (%s) S %u %u %u 0 -1 4194560 120 0 0 0 0 0\n", tid, comm, ppid,
			pid, pid);
		fclose(f);
	}
}

/* ---- ordering ---- */

TEST(stream_orders_across_cpus)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .window_ns = 1000 };
	struct fsl_stream_stats st;
	struct fsl_stream *s;
	int e, i;

	REQUIRE(f && g);
	/* the ring hands over CPU 0's run, then CPU 1's, older, then a late one */
	add_block(f, 100, 1, 0);
	add_block(f, 300, 1, 0);
	add_block(f, 500, 1, 0);
	add_block(f, 200, 2, 1);
	add_block(f, 400, 2, 1);
	add_block(f, 2000, 2, 1);	/* releases everything a window older: ts < 1000 */
	add_block(f, 150, 3, 1);	/* older than what was passed on: late */
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__poll(s, 0, got_ev, g), 7);
	/* the late one is passed on at once, counted */
	CHECK_EQ(g->n, 6);
	CHECK_EQ(fsl_stream__pending(s), 1);
	CHECK_U64(g->ev[0].ts, 100);
	CHECK_U64(g->ev[1].ts, 200);
	CHECK_EQ(g->ev[1].cpu, 1);
	CHECK_U64(g->ev[4].ts, 500);
	CHECK_U64(g->ev[5].ts, 150);
	CHECK_EQ(fsl_stream__flush(s, got_ev, g), 0);
	CHECK_EQ(g->n, 7);
	CHECK_U64(g->ev[6].ts, 2000);
	for (i = 1; i < 5; i++)
		CHECK(g->ev[i].ts > g->ev[i - 1].ts);
	fsl_stream__stats(s, &st);
	CHECK_U64(st.late, 1);
	fsl_stream__free(s);
	free(f);
	free(g);
}

TEST(stream_by_clock_holds_until_advanced)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .by_clock = 1 };
	struct fsl_stream *s;
	int e;

	REQUIRE(f && g);
	add_block(f, 300, 1, 0);
	add_block(f, 100, 2, 1);
	add_block(f, 900, 1, 0);
	add_block(f, 200, 2, 1);
	f->per_poll = 2;
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	/* live: nothing leaves until the clock says so, however new the records */
	CHECK_EQ(fsl_stream__poll(s, 0, NULL, NULL), 2);
	CHECK_EQ(fsl_stream__poll(s, 0, NULL, NULL), 2);
	CHECK_EQ(fsl_stream__pending(s), 4);
	CHECK_EQ(fsl_stream__advance(s, 300, got_ev, g), 0);
	CHECK_EQ(g->n, 2);	/* ts < 300 */
	CHECK_U64(g->ev[0].ts, 100);
	CHECK_U64(g->ev[1].ts, 200);
	CHECK_EQ(fsl_stream__advance(s, 1000, got_ev, g), 0);
	CHECK_EQ(g->n, 4);
	CHECK(sorted(g));
	fsl_stream__free(s);
	free(f);
	free(g);
}

TEST(stream_consumer_error_stops_and_is_returned)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .window_ns = 1 };
	struct fsl_stream *s;
	int e;

	REQUIRE(f && g);
	add_block(f, 10, 1, 0);
	add_block(f, 20, 1, 0);
	add_block(f, 30, 1, 0);
	add_block(f, 40, 1, 0);
	g->fail_at = 2;		/* the writer fails on the second record (disk full) */
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__poll(s, 0, got_ev, g), -EIO);
	CHECK_EQ(g->n, 1);
	CHECK_EQ(f->next, 3);	/* the ring stopped at the record that released it */
	fsl_stream__free(s);
	free(f);
	free(g);
}

/* ---- task naming ---- */

TEST(stream_names_tasks_and_exited_ones)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .window_ns = 10000, .name_tasks = 1 };
	struct fsl_stream_stats st;
	struct fsl_ev_proc *p;
	struct fsl_stream *s;
	char comm[32];
	int e, i, seen100 = -1, seen200 = -1, exit200 = -1, kt = -1;

	REQUIRE(f && g);
	o.proc = t_tmpdir();
	fake_task(o.proc, 100, 101, "my) prog", 1);	/* a comm with ") " in it */
	fake_task(o.proc, 7, 7, "kworker/0:1", 2);
	add_block(f, 1000, 101, 0);
	f->rec[0].hdr.pid = 100;
	add_block(f, 1100, 101, 0);			/* named once only */
	f->rec[1].hdr.pid = 100;
	add_block(f, 1200, 200, 1);			/* gone before it could be read */
	add_block(f, 1300, 7, 1);
	add_block(f, 1400, 300, 0);			/* gone, and never named */
	p = (struct fsl_ev_proc *)add(f, FSL_EV_PROC, sizeof(*p), 1500, 200, 200, 1);
	p->kind = FSL_PROC_EXIT;
	p->ppid = 100;
	p->exit_code = 3;
	snprintf(p->comm, sizeof(p->comm), "shortlived");
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__stop(s, got_ev, g), 0);
	CHECK_EQ(fsl_stream__flush(s, got_ev, g), 0);
	/* 6 records + SEEN for 101, for 7, and for 200 named late */
	CHECK_EQ(g->n, 9);
	for (i = 0; i < g->n; i++) {
		if (g->ev[i].type == FSL_EV_PROC && g->ev[i].kind == FSL_PROC_SEEN) {
			if (g->ev[i].tid == 101)
				seen100 = i;
			else if (g->ev[i].tid == 200)
				seen200 = i;
			else if (g->ev[i].tid == 7)
				kt = i;
		} else if (g->ev[i].tid == 200 && g->ev[i].type == FSL_EV_PROC) {
			exit200 = i;
		}
	}
	REQUIRE(seen100 >= 0 && seen200 >= 0 && kt >= 0 && exit200 >= 0);
	CHECK_EQ(seen100, 0);	/* before the task's first record, at its time */
	CHECK_U64(g->ev[seen100].ts, 1000);
	CHECK_STR(g->ev[seen100].comm, "my) prog");
	CHECK_EQ(g->ev[seen100].ppid, 1);
	CHECK_EQ(g->ev[seen100].flags, 0);
	CHECK_EQ(g->ev[kt].flags, FSL_PROC_KTHREAD);
	CHECK_STR(g->ev[kt].comm, "kworker/0:1");
	/*
	 * The exited task is named from its exit record, at its first sight:
	 * same ts as that first record, after it (it arrived later).
	 */
	CHECK_U64(g->ev[seen200].ts, 1200);
	CHECK_STR(g->ev[seen200].comm, "shortlived");
	CHECK_EQ(g->ev[seen200].ppid, 100);
	CHECK_EQ(g->ev[seen200].kind, FSL_PROC_SEEN);
	CHECK_EQ(g->ev[exit200].kind, FSL_PROC_EXIT);
	CHECK_U64(g->ev[seen200 - 1].ts, 1200);
	CHECK_EQ(g->ev[seen200 - 1].type, FSL_EV_BLOCK_RQ_ISSUE);
	CHECK(seen200 < exit200);
	CHECK(sorted(g));
	fsl_stream__stats(s, &st);
	CHECK_U64(st.named_late, 1);
	CHECK_U64(st.unnamed, 1);	/* tid 300 */
	CHECK_EQ(fsl_stream__comm(s, 100, comm, sizeof(comm)), 0);
	CHECK_STR(comm, "my) prog");
	CHECK(fsl_stream__comm(s, 300, comm, sizeof(comm)) < 0);
	fsl_stream__free(s);
	free(f);
	free(g);
}

TEST(stream_names_nothing_without_the_proc_family)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .window_ns = 1 };
	struct fsl_stream *s;
	int e;

	REQUIRE(f && g);
	o.proc = t_tmpdir();
	fake_task(o.proc, 100, 100, "prog", 1);
	add_block(f, 1000, 100, 0);
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__poll(s, 0, got_ev, g), 1);
	CHECK_EQ(fsl_stream__flush(s, got_ev, g), 0);
	CHECK_EQ(g->n, 1);
	CHECK_EQ(g->ev[0].type, FSL_EV_BLOCK_RQ_ISSUE);
	fsl_stream__free(s);
	free(f);
	free(g);
}

/* ---- symbols and lost counts ---- */

struct syms {
	int nstacks, nsyms;
	int32_t id;
	char frames[8][64];
	uint32_t nframes;
	uint64_t addr;
	char sym[64];
	int fail;		/* on_stack fails (a full disk) */
};

static int on_stack(void *ctx, const struct fsl_stack *st)
{
	struct syms *y = ctx;
	uint32_t i;

	if (y->fail)
		return -ENOSPC;
	y->nstacks++;
	y->id = st->id;
	y->nframes = st->nframes;
	for (i = 0; i < st->nframes && i < 8; i++)
		snprintf(y->frames[i], 64, "%s", st->frames[i]);
	return 0;
}

static int on_sym(void *ctx, uint64_t addr, const char *name)
{
	struct syms *y = ctx;

	y->nsyms++;
	y->addr = addr;
	snprintf(y->sym, sizeof(y->sym), "%s", name);
	return 0;
}

TEST(stream_symbolizes_and_passes_lost_counts)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .window_ns = 1 };
	struct fsl_stream_stats st;
	const struct fsl_stack *k;
	struct fsl_ev_offcpu *off;
	struct fsl_ev_ext4_journal_start *js;
	struct fsl_stream *s;
	struct syms y = { 0 };
	char buf[64];
	FILE *kf;
	int e, n = -1;

	REQUIRE(f && g);
	o.kallsyms = t_path("kallsyms");
	kf = fopen(o.kallsyms, "w");
	REQUIRE(kf);
	fprintf(kf, "ffffffff81000000 T bpf_prog_6deef7357e7b4530_on_switch\n"
		    "ffffffff81001000 T __bpf_trace_run\n"
		    "ffffffff81002000 T bpf_trace_run4\n"
		    "ffffffff81003000 T __traceiter_sched_switch\n"
		    "ffffffff81100000 t __schedule\n"
		    "ffffffff81200000 T io_schedule\n"
		    "ffffffff81300000 T ext4_journal_start_sb_x\n");
	fclose(kf);
	f->stack_id = 5;
	f->ips[0] = 0xffffffff81000010ull;	/* the probe */
	f->ips[1] = 0xffffffff81001020ull;
	f->ips[2] = 0xffffffff81002072ull;	/* the tracepoint glue */
	f->ips[3] = 0xffffffff8100303eull;
	f->ips[4] = 0xffffffff81100628ull;
	f->ips[5] = 0xffffffff81200023ull;
	f->ips[6] = 0xffffffff80000001ull;	/* below every symbol */
	f->nips = 7;
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 100, 9, 9, 0);
	off->stack_id = 5;
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 110, 9, 9, 0);
	off->stack_id = 6;			/* the kernel map lost it */
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 120, 9, 9, 0);
	off->stack_id = 5;
	js = (struct fsl_ev_ext4_journal_start *)add(f, FSL_EV_EXT4_JOURNAL_START_SB,
						       sizeof(*js), 130, 9, 9, 1);
	js->ip = 0xffffffff81300042ull;
	f->lost[FSL_FAM_OFFCPU] = 17;
	f->lost[FSL_FAM_BLOCK] = 4;
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__poll(s, 0, got_ev, g), 4);
	CHECK_EQ(fsl_stream__flush(s, got_ev, g), 0);
	CHECK_EQ(g->n, 4);
	/* a recorder's end: every stack and address seen, once each */
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), 0);
	CHECK_EQ(n, 1);
	CHECK_EQ(y.nstacks, 1);
	CHECK_EQ(y.id, 5);
	CHECK_EQ(y.nframes, 3);
	CHECK_STR(y.frames[0], "__schedule+0x628");
	CHECK_STR(y.frames[1], "io_schedule+0x23");
	CHECK_STR(y.frames[2], "0xffffffff80000001");
	CHECK_EQ(y.nsyms, 1);
	CHECK_U64(y.addr, 0xffffffff81300042ull);
	CHECK_STR(y.sym, "ext4_journal_start_sb_x+0x42");
	/* a live viewer's: the same symbolizer, cached */
	k = fsl_stream__stack(s, 5);
	REQUIRE(k);
	CHECK_EQ(k->nframes, 3);
	CHECK_STR(k->frames[0], "__schedule+0x628");
	CHECK(fsl_stream__stack(s, 5) == k);
	CHECK(fsl_stream__stack(s, 6) == NULL);
	CHECK(fsl_stream__stack(s, -1) == NULL);
	CHECK_STR(fsl_stream__sym(s, 0xffffffff81200000ull, buf, sizeof(buf)), "io_schedule");
	fsl_stream__stats(s, &st);
	CHECK_EQ(st.lost_err, 0);
	CHECK_U64(st.lost[FSL_FAM_OFFCPU], 17);
	CHECK_U64(st.lost[FSL_FAM_BLOCK], 4);
	CHECK_U64(st.lost_total, 21);
	fsl_stream__free(s);
	free(f);
	free(g);
}

/*
 * A recorder calls fsl_stream__symbols at every flush (issue 19, item 3: a
 * killed recording keeps its stacks): each call gives only what is new
 * since the last, a stack the ring did not have yet is given once it has
 * it, and what a failed write did not take is given again.
 */
TEST(stream_symbols_incremental)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct got *g = calloc(1, sizeof(*g));
	struct fsl_stream_opts o = { .window_ns = 1 };
	struct fsl_ev_offcpu *off;
	struct fsl_ev_ext4_journal_start *js;
	struct fsl_stream *s;
	struct syms y = { 0 };
	FILE *kf;
	int e, n = -1;

	REQUIRE(f && g);
	o.kallsyms = t_path("kallsyms-inc");
	kf = fopen(o.kallsyms, "w");
	REQUIRE(kf);
	fprintf(kf, "ffffffff81100000 t __schedule\n"
		    "ffffffff81200000 T jbd2_log_wait_commit\n"
		    "ffffffff81300000 T ext4_create\n"
		    "ffffffff81400000 T ext4_unlink\n");
	fclose(kf);
	f->stack_id = 5;
	f->ips[0] = 0xffffffff81100628ull;
	f->ips[1] = 0xffffffff8120009aull;
	f->nips = 2;
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 100, 9, 9, 0);
	off->stack_id = 5;
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 110, 9, 9, 0);
	off->stack_id = 6;			/* not in the kernel map (yet) */
	js = (struct fsl_ev_ext4_journal_start *)add(f, FSL_EV_EXT4_JOURNAL_START_SB,
						       sizeof(*js), 120, 9, 9, 0);
	js->ip = 0xffffffff81300010ull;
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__poll(s, 0, got_ev, g), 3);
	/* the first flush: stack 5 and the caller */
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), 0);
	CHECK_EQ(n, 1);
	CHECK_EQ(y.nstacks, 1);
	CHECK_EQ(y.id, 5);
	CHECK_EQ(y.nframes, 2);
	CHECK_STR(y.frames[1], "jbd2_log_wait_commit+0x9a");
	CHECK_EQ(y.nsyms, 1);
	CHECK_STR(y.sym, "ext4_create+0x10");
	/* nothing new: nothing given */
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(y.nstacks, 1);
	CHECK_EQ(y.nsyms, 1);
	/* the same ids again, and stack 6 now in the map: only 6 and the new caller */
	f->stack_id = 6;
	f->ips[0] = 0xffffffff81400020ull;
	f->nips = 1;
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 130, 9, 9, 0);
	off->stack_id = 5;
	off = (struct fsl_ev_offcpu *)add(f, FSL_EV_OFFCPU, sizeof(*off), 140, 9, 9, 0);
	off->stack_id = 6;
	js = (struct fsl_ev_ext4_journal_start *)add(f, FSL_EV_EXT4_JOURNAL_START_SB,
						       sizeof(*js), 150, 9, 9, 0);
	js->ip = 0xffffffff81300010ull;
	js = (struct fsl_ev_ext4_journal_start *)add(f, FSL_EV_EXT4_JOURNAL_START_SB,
						       sizeof(*js), 160, 9, 9, 0);
	js->ip = 0xffffffff81400030ull;
	CHECK_EQ(fsl_stream__poll(s, 0, got_ev, g), 4);
	/* a failed write takes nothing; the next call gives it again */
	y.fail = 1;
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), -ENOSPC);
	CHECK_EQ(n, 0);
	CHECK_EQ(y.nsyms, 1);
	y.fail = 0;
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), 0);
	CHECK_EQ(n, 1);
	CHECK_EQ(y.nstacks, 2);
	CHECK_EQ(y.id, 6);
	CHECK_EQ(y.nframes, 1);
	CHECK_STR(y.frames[0], "ext4_unlink+0x20");
	CHECK_EQ(y.nsyms, 2);
	CHECK_STR(y.sym, "ext4_unlink+0x30");
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(y.nstacks, 2);
	CHECK_EQ(y.nsyms, 2);
	fsl_stream__free(s);
	free(f);
	free(g);
}

TEST(stream_without_kallsyms_says_why)
{
	struct fake_ring *f = calloc(1, sizeof(*f));
	struct fsl_stream_opts o = { .window_ns = 1 };
	struct fsl_stream *s;
	struct syms y = { 0 };
	const struct fsl_stack *k;
	int e, n = -1;

	REQUIRE(f);
	o.kallsyms = t_path("no-kallsyms");
	f->stack_id = 1;
	f->ips[0] = 0xffffffff81100628ull;
	f->nips = 1;
	s = fsl_stream__new(&fake_ops, f, &o, &e);
	REQUIRE(s);
	CHECK_EQ(fsl_stream__symbols(s, on_stack, on_sym, &y, &n), -ENOENT);
	CHECK_EQ(n, 0);
	/* live: addresses instead of names, everything else works */
	k = fsl_stream__stack(s, 1);
	REQUIRE(k);
	CHECK_EQ(k->nframes, 1);
	CHECK_STR(k->frames[0], "0xffffffff81100628");
	fsl_stream__free(s);
	free(f);
}
