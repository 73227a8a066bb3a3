// SPDX-License-Identifier: GPL-2.0
/*
 * The export command on a synthetic trace written with the trace writer:
 * stacks come from the file's stack table, comms from proc records, and
 * every format's output is checked against hand-computed values.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "fslens/export.h"
#include "fslens/trace.h"
#include "../../cli/cli.h"
#include "t.h"

static char *frames_a[] = { "__schedule+0x10/0x20", "schedule+0x5", "io_schedule+0x9",
			    "bit_wait_io+0x1", "__wait_on_bit+0x2", "do_get_write_access+0x30",
			    "jbd2_journal_get_write_access+0x4", "ext4_mkdir+0x100" };

static void put(struct fsl_writer *w, void *ev)
{
	CHECK_EQ(fsl_writer__event(w, ev), 0);
}

static const char *make_trace(void)
{
	const char *path = t_path("synthetic.trace");
	struct fsl_stack st = { 3, 8, frames_a };
	struct fsl_writer_opts wo = { 0 };
	struct fsl_writer *w;
	struct fsl_ev_proc p;
	struct fsl_ev_offcpu o;
	struct fsl_ev_block_rq b;
	struct {
		struct fsl_ev_dirop d;
		char tail[16];
	} op;
	int err, i;

	w = fsl_writer__open(path, &wo, &err);
	if (!w)
		return NULL;
	fsl_writer__kv(w, FSL_KV_REALTIME_OFFSET, "%lld", 1700000000000000000ll);
	fsl_writer__kv(w, "target.disk_name", "7:5 loop5");
	CHECK_EQ(fsl_writer__stack(w, &st), 0);
	memset(&p, 0, sizeof(p));
	p.hdr.type = FSL_EV_PROC;
	p.hdr.size = sizeof(p);
	p.hdr.ts = 1000;
	p.hdr.pid = p.hdr.tid = 77;
	strcpy(p.comm, "mkdir");
	put(w, &p);
	/* 3 mkdirs of 2 ms, each with a 1.5 ms wait on stack 3 */
	for (i = 0; i < 3; i++) {
		uint64_t t = 1000000 + i * 10000000ull;

		memset(&op, 0, sizeof(op));
		op.d.hdr.type = FSL_EV_DIROP;
		op.d.hdr.size = fsl_dirop_size(4, 0);
		op.d.hdr.ts = t;
		op.d.hdr.pid = op.d.hdr.tid = 77;
		op.d.op = FSL_OP_MKDIR;
		op.d.lat_ns = 2000000;
		op.d.path_len = 4;
		memcpy(op.d.paths, "d/x", 3);
		op.d.paths[3] = '0' + i;
		put(w, &op.d);
		memset(&o, 0, sizeof(o));
		o.hdr.type = FSL_EV_OFFCPU;
		o.hdr.size = sizeof(o);
		o.hdr.ts = t + 100000;
		o.hdr.pid = o.hdr.tid = 77;
		o.dur_ns = 1500000;
		o.stack_id = 3;
		o.state = FSL_OFFCPU_UNINTERRUPTIBLE;
		put(w, &o);
		/* a 4 KiB write issued by mkdir's task, done 1 ms later */
		memset(&b, 0, sizeof(b));
		b.hdr.type = FSL_EV_BLOCK_RQ_ISSUE;
		b.hdr.size = sizeof(b);
		b.hdr.ts = t + 200000;
		b.hdr.pid = b.hdr.tid = 77;
		b.hdr.cpu = i;
		b.dev = FSL_MKDEV(7, 5);
		b.sector = 1000 + 8 * i;
		b.bytes = 4096;
		b.nr_sector = 8;
		b.flags = FSL_RQ_WRITE;
		b.rq = 0x100 + i;
		put(w, &b);
		b.hdr.type = FSL_EV_BLOCK_RQ_COMPLETE;
		b.hdr.ts = t + 1200000;
		b.hdr.pid = b.hdr.tid = 0;
		put(w, &b);
	}
	err = fsl_writer__close(w);
	CHECK_EQ(err, 0);
	return err ? NULL : path;
}

static int run_export(const char *trace, const char *fmt, const char *extra, const char *out)
{
	char *argv[12];
	int argc = 0;

	argv[argc++] = "export";
	argv[argc++] = (char *)trace;
	argv[argc++] = "--format";
	argv[argc++] = (char *)fmt;
	argv[argc++] = "-o";
	argv[argc++] = (char *)out;
	argv[argc++] = "-q";
	if (extra) {
		argv[argc++] = "--table";
		argv[argc++] = (char *)extra;
	}
	argv[argc] = NULL;
	return cmd_export(argc, argv);
}

/* in test_export_text.c */
char *xt_slurp(const char *path);

TEST(cmd_export_folded_from_trace)
{
	const char *trace = make_trace(), *out = t_path("o.folded");

	REQUIRE(trace);
	CHECK_EQ(run_export(trace, "folded", NULL, out), 0);
	CHECK_STR(xt_slurp(out), "mkdir;ext4_mkdir;jbd2_journal_get_write_access;do_get_write_access;"
		  "__wait_on_bit;bit_wait_io;io_schedule;schedule;__schedule 4500\n");
}

TEST(cmd_export_csv_from_trace)
{
	const char *trace = make_trace(), *out = t_path("ops.csv");

	REQUIRE(trace);
	CHECK_EQ(run_export(trace, "csv", "ops", out), 0);
	/*
	 * t_s from the trace's first event (ts 1000: no record.start_ns), realtime
	 * from clock.realtime_offset_ns 1.7e18 = 2023-11-14T22:13:20Z
	 */
	CHECK_STR(xt_slurp(out), "ts_ns,pid,tid,comm,op,path,path2,ret,lat_ns,t_s,realtime\n"
		  "1000000,77,77,mkdir,mkdir,d/x0,,0,2000000,0.000999000,"
		  "2023-11-14T22:13:20.001000000Z\n"
		  "11000000,77,77,mkdir,mkdir,d/x1,,0,2000000,0.010999000,"
		  "2023-11-14T22:13:20.011000000Z\n"
		  "21000000,77,77,mkdir,mkdir,d/x2,,0,2000000,0.020999000,"
		  "2023-11-14T22:13:20.021000000Z\n");
	out = t_path("io.csv");
	CHECK_EQ(run_export(trace, "csv", "io", out), 0);
	CHECK_STR(xt_slurp(out), "dev,rwbs,sector,bytes,insert_ns,issue_ns,complete_ns,q2d_ns,"
		  "d2c_ns,q2c_ns,error,issuer_tid,issuer,t_s,realtime\n"
		  "7:5,W,1000,4096,,1200000,2200000,,1000000,,0,77,mkdir,0.002199000,"
		  "2023-11-14T22:13:20.002200000Z\n"
		  "7:5,W,1008,4096,,11200000,12200000,,1000000,,0,77,mkdir,0.012199000,"
		  "2023-11-14T22:13:20.012200000Z\n"
		  "7:5,W,1016,4096,,21200000,22200000,,1000000,,0,77,mkdir,0.022199000,"
		  "2023-11-14T22:13:20.022200000Z\n");
	/* usage errors */
	CHECK_EQ(run_export(trace, "csv", "nope", out), EXIT_USAGE);
	CHECK_EQ(run_export(trace, "nope", NULL, out), EXIT_USAGE);
	CHECK_EQ(run_export(t_path("missing.trace"), "csv", "io", out), 1);
}

TEST(cmd_export_blktrace_from_trace)
{
	const char *trace = make_trace(), *dir = t_path("bt");
	struct stat st;
	unsigned char rec[48 + 16];
	struct fsl_bt_rec r;
	int be = -1;
	FILE *f;

	REQUIRE(trace);
	CHECK_EQ(run_export(trace, "blktrace", NULL, dir), 0);
	/* named after the device the trace recorded; cpus 0, 1, 2 */
	CHECK_EQ(stat(t_path("bt/loop5.blktrace.2"), &st), 0);
	/* cpu 0: timestamp notify (48+8), process notify mkdir (48+16), Q D C ... */
	f = fopen(t_path("bt/loop5.blktrace.0"), "rb");
	REQUIRE(f);
	CHECK_EQ(fread(rec, 1, 48 + 8, f), 56);
	CHECK_EQ(fsl_bt_decode(rec, &r, &be), 0);
	CHECK_U64(r.action, FSL_BT_ACTION(FSL_BT_N_TIMESTAMP, FSL_BT_C_NOTIFY));
	CHECK_U64(r.time, 1200000);
	/* wall clock of that instant: offset + ts, seconds and ns */
	CHECK_U64(rec[48] | rec[49] << 8 | rec[50] << 16 | (uint32_t)rec[51] << 24, 1700000000);
	CHECK_U64(rec[52] | rec[53] << 8 | rec[54] << 16 | (uint32_t)rec[55] << 24, 1200000);
	CHECK_EQ(fread(rec, 1, 48 + 16, f), 64);
	CHECK_EQ(fsl_bt_decode(rec, &r, &be), 0);
	CHECK_U64(r.action, FSL_BT_ACTION(FSL_BT_N_PROCESS, FSL_BT_C_NOTIFY));
	CHECK_U64(r.pid, 77);
	CHECK_STR((char *)rec + 48, "mkdir");
	fclose(f);
}

TEST(cmd_export_perfetto_from_trace)
{
	const char *trace = make_trace(), *out = t_path("o.json");
	char cmd[1024];

	REQUIRE(trace);
	CHECK_EQ(run_export(trace, "perfetto", NULL, out), 0);
	if (system("python3 -c 'import json' >/dev/null 2>&1"))
		SKIP("python3 not available");
	snprintf(cmd, sizeof(cmd),
		 "python3 -c \"import json,sys; d=json.load(open('%s'))['traceEvents'];"
		 "x=[e for e in d if e['ph']=='X' and e['cat']=='syscall'];"
		 "w=[e for e in d if e['ph']=='X' and e['cat']=='offcpu'];"
		 "b=[e for e in d if e['ph']=='b'];"
		 "assert [e['args']['path'] for e in x]==['d/x0','d/x1','d/x2'], x;"
		 "assert all(e['dur']==1500.0 and 'do_get_write_access' in e['args']['stack'] for e in w), w;"
		 "assert len(b)==3 and len({e['id'] for e in b})==3, b\"", out);
	CHECK_EQ(system(cmd), 0);
}

/* The lines an export says, one "K line" each (K: I, N, E or F, the kind's initial). */
static void collect(void *ctx, enum fsl_export_msg kind, const char *line)
{
	static const char initial[] = "INEF";
	char *said = ctx;
	size_t n = strlen(said);

	snprintf(said + n, 4096 - n, "%c %s\n", initial[kind], line);
}

/* fsl_export_trace of a fresh reader on trace; what it said in said. */
static int export_in_process(const char *trace, struct fsl_export_opts *o, char *said)
{
	struct fsl_reader_opts ro = { 0 };
	struct fsl_reader *r;
	int err;

	r = fsl_reader__open(trace, &ro, &err);
	if (!r)
		return err;
	said[0] = 0;
	o->trace = trace;
	o->msg = collect;
	o->msg_ctx = said;
	err = fsl_export_trace(r, o);
	fsl_reader__close(r);
	return err;
}

TEST(export_trace_says_what_it_wrote_and_what_failed)
{
	const char *trace = make_trace();
	char said[4096], want[4096], dir[512];
	struct fsl_export_opts o = { .format = FSL_EXPORT_BLKTRACE };

	REQUIRE(trace);
	/* three direct issues (Q and D each, no insert) on cpus 0-2, each completed */
	snprintf(dir, sizeof(dir), "%s", t_path("bt/sub"));
	o.out = dir;
	CHECK_EQ(export_in_process(trace, &o, said), 0);
	snprintf(want, sizeof(want), "I %s/loop5.blktrace.{0..2}: 7,5  Q 3  I 0  M 0  D 3  C 3  "
		 "(blkparse -i %s/loop5)\n", dir, dir);
	CHECK_STR(said, want);
	o.only_dev = FSL_MKDEV(8, 0);
	CHECK_EQ(export_in_process(trace, &o, said), -ENODATA);
	snprintf(want, sizeof(want), "F no block events in '%s' for that device\n", trace);
	CHECK_STR(said, want);

	/* nothing off-CPU after 1 s: said, and an empty file still written */
	o = (struct fsl_export_opts){ .format = FSL_EXPORT_FOLDED, .t0 = 1000000000 };
	o.out = t_path("late.folded");
	CHECK_EQ(export_in_process(trace, &o, said), 0);
	snprintf(want, sizeof(want), "N no off-CPU waits in '%s' (recorded without -e offcpu?)\n",
		 trace);
	CHECK_STR(said, want);
	CHECK_STR(xt_slurp(o.out), "");

	/* the output cannot be made: ERROR, the export's -errno */
	o = (struct fsl_export_opts){ .format = FSL_EXPORT_CSV, .table = FSL_CSV_IO };
	o.out = t_path("nodir/io.csv");
	CHECK_EQ(export_in_process(trace, &o, said), -ENOENT);
	snprintf(want, sizeof(want), "E cannot create '%s': No such file or directory\n", o.out);
	CHECK_STR(said, want);
}
