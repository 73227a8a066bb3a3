// SPDX-License-Identifier: GPL-2.0
/* Folded stacks, CSV tables and Perfetto JSON from hand-built events. */
#include <errno.h>
#include <stdlib.h>
#include "fslens/export.h"
#include "fslens/trace.h"
#include "t.h"

/* Two stacks, innermost first as the trace stores them. */
static char *st0_frames[] = { "__schedule+0x2d1/0x7a0", "schedule+0x5a", "io_schedule+0x46",
			      "bit_wait_io+0x11", "do_get_write_access+0x2c4", "ext4_mkdir+0x1b0" };
static char *st1_frames[] = { "__schedule", "schedule", "jbd2_log_wait_commit",
			      "ext4_sync_file" };
static const struct fsl_stack stacks[2] = {
	{ 0, 6, st0_frames },
	{ 1, 4, st1_frames },
};

static const struct fsl_stack *fake_stack(const struct fsl_meta *m, int32_t id)
{
	return id >= 0 && id < 2 ? &stacks[id] : NULL;
}

static const struct fsl_meta fake_meta = { .stack = fake_stack };

static const char *fake_classify(void *ctx, const struct fsl_stack *st)
{
	return st->id == 0 ? "shadow" : "commit_wait";
}

static struct fsl_ev_proc proc(uint32_t pid, uint32_t tid, const char *comm)
{
	struct fsl_ev_proc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = FSL_EV_PROC;
	p.hdr.size = sizeof(p);
	p.hdr.pid = pid;
	p.hdr.tid = tid;
	strncpy(p.comm, comm, 15);
	return p;
}

static struct fsl_ev_offcpu wait_ev(uint64_t ts, uint32_t tid, uint64_t dur, int32_t stack)
{
	struct fsl_ev_offcpu o;

	memset(&o, 0, sizeof(o));
	o.hdr.type = FSL_EV_OFFCPU;
	o.hdr.size = sizeof(o);
	o.hdr.ts = ts;
	o.hdr.pid = o.hdr.tid = tid;
	o.dur_ns = dur;
	o.stack_id = stack;
	o.waker_pid = 7;
	o.state = FSL_OFFCPU_UNINTERRUPTIBLE;
	return o;
}

char *xt_slurp(const char *path);

/* The file's text (first 64 KiB), in a static buffer; NULL if unreadable. */
char *xt_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[65536];
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void feed_waits(int (*fn)(void *, const struct fsl_hdr *), void *x)
{
	struct fsl_ev_proc p = proc(10, 10, "mkdir");
	struct fsl_ev_offcpu o;

	CHECK_EQ(fn(x, &p.hdr), 0);
	p = proc(20, 21, "my app");	/* a space in a comm */
	CHECK_EQ(fn(x, &p.hdr), 0);
	o = wait_ev(1000, 10, 1500000, 0);
	CHECK_EQ(fn(x, &o.hdr), 0);
	o = wait_ev(5000000, 10, 2500400, 0);
	CHECK_EQ(fn(x, &o.hdr), 0);
	o = wait_ev(9000000, 10, 300000, 1);
	CHECK_EQ(fn(x, &o.hdr), 0);
	o = wait_ev(9100000, 21, 400, -1);	/* 0.4 us rounds to 0: dropped */
	CHECK_EQ(fn(x, &o.hdr), 0);
	o = wait_ev(9200000, 21, 12000, -1);
	o.hdr.pid = 20;
	CHECK_EQ(fn(x, &o.hdr), 0);
	o = wait_ev(9300000, 99, 2000, 1);	/* unknown task */
	CHECK_EQ(fn(x, &o.hdr), 0);
}

static int fold_ev(void *x, const struct fsl_hdr *ev)
{
	return fsl_folded_export__event(x, ev);
}

TEST(folded_lines)
{
	struct fsl_folded_export *x;
	const char *p = t_path("out.folded");
	FILE *f;
	int err;

	x = fsl_folded_export__new(&fake_meta, fake_classify, NULL, &err);
	REQUIRE(x);
	feed_waits(fold_ev, x);
	f = fopen(p, "w");
	REQUIRE(f);
	CHECK_EQ(fsl_folded_export__write(x, f, NULL), 0);
	fclose(f);
	CHECK_STR(xt_slurp(p),
		  "[99];ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule 2\n"
		  "mkdir;ext4_mkdir;do_get_write_access;bit_wait_io;io_schedule;schedule;__schedule 4000\n"
		  "mkdir;ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule 300\n"
		  "my_app;[no stack] 12\n");
	/* one class alone */
	CHECK_EQ(fsl_folded_export__nclasses(x), 3);
	f = fopen(p, "w");
	REQUIRE(f);
	CHECK_EQ(fsl_folded_export__write(x, f, "commit_wait"), 0);
	fclose(f);
	CHECK_STR(xt_slurp(p),
		  "[99];ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule 2\n"
		  "mkdir;ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule 300\n");
	fsl_folded_export__free(x);
}

static int csv_ev(void *x, const struct fsl_hdr *ev)
{
	return fsl_csv_export__event(x, ev);
}

TEST(csv_waits_table)
{
	struct fsl_csv_export *x;
	const char *p = t_path("waits.csv");
	FILE *f = fopen(p, "w");
	int err;

	REQUIRE(f);
	CHECK_EQ(fsl_csv_table_parse("waits"), FSL_CSV_WAITS);
	CHECK_EQ(fsl_csv_table_parse("nope"), -EINVAL);
	x = fsl_csv_export__new(f, FSL_CSV_WAITS, &fake_meta, &err);
	REQUIRE(x);
	fsl_csv_export__set_classifier(x, fake_classify, NULL);
	feed_waits(csv_ev, x);
	CHECK_EQ(fsl_csv_export__finish(x), 0);
	fsl_csv_export__free(x);
	fclose(f);
	CHECK_STR(xt_slurp(p),
		  "ts_ns,pid,tid,comm,dur_ns,runq_ns,waker,class,stack,t_s,realtime\n"
		  "1000,10,10,mkdir,1500000,0,7,shadow,ext4_mkdir;do_get_write_access;bit_wait_io;io_schedule;schedule;__schedule,0.000001000,\n"
		  "5000000,10,10,mkdir,2500400,0,7,shadow,ext4_mkdir;do_get_write_access;bit_wait_io;io_schedule;schedule;__schedule,0.005000000,\n"
		  "9000000,10,10,mkdir,300000,0,7,commit_wait,ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule,0.009000000,\n"
		  "9100000,21,21,my app,400,0,7,,,0.009100000,\n"
		  "9200000,20,21,my app,12000,0,7,,,0.009200000,\n"
		  "9300000,99,99,,2000,0,7,commit_wait,ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule,0.009300000,\n");
}

static struct fsl_ev_block_rq rq(uint16_t type, uint64_t ts, uint32_t tid, uint64_t sector,
				 uint32_t bytes, uint32_t flags, uint64_t id)
{
	struct fsl_ev_block_rq b;

	memset(&b, 0, sizeof(b));
	b.hdr.type = type;
	b.hdr.size = sizeof(b);
	b.hdr.ts = ts;
	b.hdr.pid = b.hdr.tid = tid;
	b.dev = FSL_MKDEV(7, 1);
	b.sector = sector;
	b.bytes = bytes;
	b.nr_sector = bytes / 512;
	b.flags = flags;
	b.rq = id;
	return b;
}

static struct fsl_ev_jbd2_commit commit_ev(uint16_t type, uint64_t ts, uint32_t txn)
{
	struct fsl_ev_jbd2_commit c;

	memset(&c, 0, sizeof(c));
	c.hdr.type = type;
	c.hdr.size = sizeof(c);
	c.hdr.ts = ts;
	c.hdr.pid = c.hdr.tid = 300;	/* jbd2/loop1-8 */
	c.dev = FSL_MKDEV(7, 1);
	c.transaction = txn;
	return c;
}

TEST(csv_io_and_txn_tables)
{
	struct fsl_ev_block_rq b[6];
	struct fsl_ev_jbd2_commit c;
	struct fsl_ev_jbd2_run_stats rs;
	struct fsl_csv_export *x;
	const char *p = t_path("io.csv");
	FILE *f = fopen(p, "w");
	int err, i;

	REQUIRE(f);
	x = fsl_csv_export__new(f, FSL_CSV_IO, NULL, &err);
	REQUIRE(x);
	b[0] = rq(FSL_EV_BLOCK_RQ_INSERT, 1000, 300, 100, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 1);
	b[1] = rq(FSL_EV_BLOCK_RQ_ISSUE, 1500, 300, 100, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 1);
	b[2] = rq(FSL_EV_BLOCK_RQ_ISSUE, 1600, 42, 900, 512, FSL_RQ_READ | FSL_RQ_META, 2);
	b[3] = rq(FSL_EV_BLOCK_RQ_COMPLETE, 9000, 0, 900, 512, FSL_RQ_READ | FSL_RQ_META, 2);
	b[4] = rq(FSL_EV_BLOCK_RQ_COMPLETE, 9500, 0, 100, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 1);
	b[5] = rq(FSL_EV_BLOCK_RQ_COMPLETE, 9600, 0, 5, 4096, FSL_RQ_WRITE, 3);	/* never issued */
	b[4].error = -5;
	for (i = 0; i < 6; i++)
		CHECK_EQ(fsl_csv_export__event(x, &b[i].hdr), 0);
	CHECK_EQ(fsl_csv_export__finish(x), 0);
	fsl_csv_export__free(x);
	fclose(f);
	CHECK_STR(xt_slurp(p),
		  "dev,rwbs,sector,bytes,insert_ns,issue_ns,complete_ns,q2d_ns,d2c_ns,q2c_ns,error,issuer_tid,issuer,t_s,realtime\n"
		  "7:1,RM,900,512,,1600,9000,,7400,,0,42,,0.000009000,\n"
		  "7:1,WS,100,4096,1000,1500,9500,500,8000,8500,-5,300,,0.000009500,\n");

	f = fopen(p, "w");
	REQUIRE(f);
	x = fsl_csv_export__new(f, FSL_CSV_TXN, NULL, &err);
	REQUIRE(x);
	c = commit_ev(FSL_EV_JBD2_START_COMMIT, 100, 5);
	CHECK_EQ(fsl_csv_export__event(x, &c.hdr), 0);
	c = commit_ev(FSL_EV_JBD2_COMMIT_LOCKING, 110, 5);
	CHECK_EQ(fsl_csv_export__event(x, &c.hdr), 0);
	c = commit_ev(FSL_EV_JBD2_COMMIT_FLUSHING, 150, 5);
	CHECK_EQ(fsl_csv_export__event(x, &c.hdr), 0);
	c = commit_ev(FSL_EV_JBD2_COMMIT_LOGGING, 200, 5);
	CHECK_EQ(fsl_csv_export__event(x, &c.hdr), 0);
	memset(&rs, 0, sizeof(rs));
	rs.hdr.type = FSL_EV_JBD2_RUN_STATS;
	rs.hdr.size = sizeof(rs);
	rs.hdr.ts = 990;
	rs.dev = FSL_MKDEV(7, 1);
	rs.tid = 5;
	rs.handle_count = 12;
	rs.blocks = 30;
	rs.blocks_logged = 32;
	CHECK_EQ(fsl_csv_export__event(x, &rs.hdr), 0);
	c = commit_ev(FSL_EV_JBD2_END_COMMIT, 1000, 5);
	CHECK_EQ(fsl_csv_export__event(x, &c.hdr), 0);
	c = commit_ev(FSL_EV_JBD2_START_COMMIT, 2000, 6);	/* unfinished: no row */
	CHECK_EQ(fsl_csv_export__event(x, &c.hdr), 0);
	CHECK_EQ(fsl_csv_export__finish(x), 0);
	fsl_csv_export__free(x);
	fclose(f);
	CHECK_STR(xt_slurp(p),
		  "dev,tid,start_ns,locking_ns,flushing_ns,logging_ns,end_ns,commit_ns,sync,handles,blocks,blocks_logged,t_s,realtime\n"
		  "7:1,5,100,110,150,200,1000,900,0,12,30,32,0.000000100,\n");
}

TEST(csv_quotes_paths)
{
	struct {
		struct fsl_ev_dirop d;
		char tail[32];
	} ev;
	struct fsl_csv_export *x;
	const char *p = t_path("ops.csv");
	FILE *f = fopen(p, "w");
	int err;

	REQUIRE(f);
	memset(&ev, 0, sizeof(ev));
	ev.d.hdr.type = FSL_EV_DIROP;
	ev.d.hdr.ts = 77;
	ev.d.hdr.pid = ev.d.hdr.tid = 5;
	ev.d.op = FSL_OP_RENAME;
	ev.d.lat_ns = 1234;
	memcpy(ev.d.paths, "a,\"b\"" "new", 8);
	ev.d.path_len = 5;
	ev.d.path2_len = 3;
	ev.d.hdr.size = fsl_dirop_size(5, 3);
	x = fsl_csv_export__new(f, FSL_CSV_OPS, NULL, &err);
	REQUIRE(x);
	CHECK_EQ(fsl_csv_export__event(x, &ev.d.hdr), 0);
	CHECK_EQ(fsl_csv_export__finish(x), 0);
	fsl_csv_export__free(x);
	fclose(f);
	CHECK_STR(xt_slurp(p), "ts_ns,pid,tid,comm,op,path,path2,ret,lat_ns,t_s,realtime\n"
		  "77,5,5,,rename,\"a,\"\"b\"\"\",new,0,1234,0.000000077,\n");
}

/* Perfetto: nesting, async I/Os, commit phases and flows, checked with Python's json. */
static const char pf_check[] =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"ev = d['traceEvents']\n"
	"def one(**kw):\n"
	"    r = [e for e in ev if all(e.get(k) == v for k, v in kw.items())]\n"
	"    assert len(r) == 1, (kw, r)\n"
	"    return r[0]\n"
	"fs = one(ph='X', name='fsync', tid=50)\n"
	"assert fs['ts'] == 1000.0 and fs['dur'] == 5000.0, fs\n"
	"w = one(ph='X', cat='offcpu', tid=50)\n"
	"assert w['name'] == 'commit_wait' and w['ts'] == 1200.0 and w['dur'] == 4800.0, w\n"
	"assert w['args']['stack'] == 'ext4_sync_file;jbd2_log_wait_commit;schedule;__schedule', w\n"
	"c = one(ph='X', name='commit 5')\n"
	"assert c['ts'] == 1500.0 and c['dur'] == 4000.0 and c['bind_id'] == 'commit0' and c['flow_out'], c\n"
	"assert c['args']['blocks_logged'] == 32, c\n"
	"for n, ts, dur in (('locking', 1510.0, 90.0), ('flushing', 1600.0, 400.0), ('logging', 2000.0, 3500.0)):\n"
	"    p = one(ph='X', name=n)\n"
	"    assert p['ts'] == ts and p['dur'] == dur and p['pid'] == c['pid'], p\n"
	"b = sorted([e for e in ev if e['ph'] == 'b'], key=lambda e: e['ts'])\n"
	"e = {x['id']: x for x in ev if x['ph'] == 'e'}\n"
	"assert len(b) == 3 and len(e) == 3, (b, e)\n"
	"assert len({x['id'] for x in b}) == 3\n"
	"assert [x.get('bind_id') for x in b] == ['commit0', 'commit0', None], b\n"
	"assert all(x.get('flow_in') for x in b[:2])\n"
	"assert [(x['ts'], e[x['id']]['ts']) for x in b] == [(2100.0, 3000.0), (2200.0, 2900.0), (2300.0, 7000.0)]\n"
	"assert b[0]['name'] == 'write' and b[0]['args']['q2d_us'] == 100.0 and b[0]['args']['rwbs'] == 'WS', b[0]\n"
	"s = one(ph='s'); f = one(ph='f')\n"
	"assert s['id'] == f['id'] and s['tid'] == 50 and s['ts'] == 1000.001, s\n"
	"assert f['pid'] == c['pid'] and f['tid'] == c['tid'] and f['ts'] == 1500.001 and f['bp'] == 'e', f\n"
	"names = {(x['pid'], x['tid']): x['args']['name'] for x in ev if x['ph'] == 'M' and x['name'] == 'thread_name'}\n"
	"assert names[(50, 50)] == 'fsync-app', names\n"
	"cm = [x for x in ev if x['ph'] == 'C' and x['name'] == 'commits']\n"
	"assert [(x['ts'], x['args']['total']) for x in cm] == [(5500.0, 1)], cm\n"
	"io = [x['args']['completed/s'] for x in ev if x['ph'] == 'C' and x['name'] == 'IOPS']\n"
	"assert io == [30.0], io\n"
	"dm = [x for x in ev if x['ph'] == 'C' and x['name'] == 'dirty MiB']\n"
	"assert [x['args'] for x in dm] == [{'dirty': 2.0}, {'writeback': 1.0}], dm\n"
	"print('ok')\n";

TEST(perfetto_json)
{
	struct fsl_pf_export *x;
	const char *out = t_path("trace.json"), *py = t_path("check.py");
	struct fsl_ev_proc p;
	struct fsl_ev_offcpu o;
	struct fsl_ev_jbd2_commit c;
	struct fsl_ev_jbd2_run_stats rs;
	struct fsl_ev_global_dirty_state g;
	struct fsl_ev_block_rq b;
	struct {
		struct fsl_ev_dirop d;
		char tail[8];
	} fs;
	char cmd[2048];
	FILE *f, *pf;
	int err;

	if (system("python3 -c 'import json' >/dev/null 2>&1"))
		SKIP("python3 not available");
	f = fopen(out, "w");
	REQUIRE(f);
	x = fsl_pf_export__new(f, &fake_meta, &err);
	REQUIRE(x);
	fsl_pf_export__set_classifier(x, fake_classify, NULL);
#define FEED(e) CHECK_EQ(fsl_pf_export__event(x, &(e).hdr), 0)
	p = proc(50, 50, "fsync-app");
	FEED(p);
	p = proc(300, 300, "jbd2/loop1-8");
	FEED(p);
	memset(&fs, 0, sizeof(fs));
	fs.d.hdr.type = FSL_EV_DIROP;
	fs.d.hdr.size = fsl_dirop_size(0, 0);
	fs.d.hdr.ts = 1000000;
	fs.d.hdr.pid = fs.d.hdr.tid = 50;
	fs.d.op = FSL_OP_FSYNC;
	fs.d.fd = 3;
	fs.d.lat_ns = 5000000;
	FEED(fs.d);
	o = wait_ev(1200000, 50, 4900000, 1);
	FEED(o);
	c = commit_ev(FSL_EV_JBD2_START_COMMIT, 1500000, 5);
	FEED(c);
	c = commit_ev(FSL_EV_JBD2_COMMIT_LOCKING, 1510000, 5);
	FEED(c);
	c = commit_ev(FSL_EV_JBD2_COMMIT_FLUSHING, 1600000, 5);
	FEED(c);
	c = commit_ev(FSL_EV_JBD2_COMMIT_LOGGING, 2000000, 5);
	FEED(c);
	b = rq(FSL_EV_BLOCK_RQ_INSERT, 2000000, 300, 100, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 1);
	FEED(b);
	b = rq(FSL_EV_BLOCK_RQ_ISSUE, 2100000, 300, 100, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 1);
	FEED(b);
	b = rq(FSL_EV_BLOCK_RQ_ISSUE, 2200000, 300, 108, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 2);
	FEED(b);
	b = rq(FSL_EV_BLOCK_RQ_ISSUE, 2300000, 42, 5000, 8192, FSL_RQ_READ, 3);
	FEED(b);
	memset(&g, 0, sizeof(g));
	g.hdr.type = FSL_EV_GLOBAL_DIRTY_STATE;
	g.hdr.size = sizeof(g);
	g.hdr.ts = 2500000;
	g.nr_dirty = 512;
	g.nr_writeback = 256;
	FEED(g);
	b = rq(FSL_EV_BLOCK_RQ_COMPLETE, 2900000, 0, 108, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 2);
	FEED(b);
	b = rq(FSL_EV_BLOCK_RQ_COMPLETE, 3000000, 0, 100, 4096, FSL_RQ_WRITE | FSL_RQ_SYNC, 1);
	FEED(b);
	memset(&rs, 0, sizeof(rs));
	rs.hdr.type = FSL_EV_JBD2_RUN_STATS;
	rs.hdr.size = sizeof(rs);
	rs.hdr.ts = 5400000;
	rs.dev = FSL_MKDEV(7, 1);
	rs.tid = 5;
	rs.blocks_logged = 32;
	FEED(rs);
	c = commit_ev(FSL_EV_JBD2_END_COMMIT, 5500000, 5);
	FEED(c);
	b = rq(FSL_EV_BLOCK_RQ_COMPLETE, 7000000, 0, 5000, 8192, FSL_RQ_READ, 3);
	FEED(b);
#undef FEED
	CHECK_EQ(fsl_pf_export__finish(x), 0);
	fsl_pf_export__free(x);
	fclose(f);
	pf = fopen(py, "w");
	REQUIRE(pf);
	fputs(pf_check, pf);
	fclose(pf);
	snprintf(cmd, sizeof(cmd), "python3 %s %s > %s 2>&1", py, out, t_path("py.out"));
	err = system(cmd);
	if (err)
		t_fail(__FILE__, __LINE__, "perfetto check: %s", xt_slurp(t_path("py.out")));
}

TEST(frames_skip_tracing)
{
	char *fr[] = { "__traceiter_sched_switch+0x40/0x60", "__schedule+0x10", "schedule" };
	struct fsl_stack st = { 1, 3, fr };
	struct fsl_stack none = { 2, 2, fr + 1 };

	CHECK_EQ(fsl_frames_skip_tracing(&st), 1);
	CHECK_EQ(fsl_frames_skip_tracing(&none), 0);
}

TEST(csv_alloc_table)
{
	struct fsl_ev_ext4_alloc_blocks a;
	struct fsl_ev_proc p = proc(9, 9, "cp");
	struct fsl_csv_export *x;
	const char *path = t_path("alloc.csv");
	FILE *f = fopen(path, "w");
	int err;

	REQUIRE(f);
	x = fsl_csv_export__new(f, FSL_CSV_ALLOC, NULL, &err);
	REQUIRE(x);
	CHECK_EQ(fsl_csv_export__event(x, &p.hdr), 0);
	memset(&a, 0, sizeof(a));
	a.hdr.type = FSL_EV_EXT4_REQUEST_BLOCKS;	/* a request, not a result: no row */
	a.hdr.size = sizeof(a);
	CHECK_EQ(fsl_csv_export__event(x, &a.hdr), 0);
	a.hdr.type = FSL_EV_EXT4_ALLOCATE_BLOCKS;
	a.hdr.ts = 123;
	a.hdr.pid = a.hdr.tid = 9;
	a.dev = FSL_MKDEV(7, 2);
	a.ino = 12;
	a.block = 34816;
	a.len = 8;
	a.logical = 16;
	a.lleft = 15;
	a.lright = 0;
	a.goal = 34808;
	a.pleft = 34815;
	a.pright = 0;
	a.flags = 0x24;
	CHECK_EQ(fsl_csv_export__event(x, &a.hdr), 0);
	CHECK_EQ(fsl_csv_export__finish(x), 0);
	fsl_csv_export__free(x);
	fclose(f);
	CHECK_STR(xt_slurp(path), "ts_ns,pid,tid,comm,dev,ino,logical,len,goal,block,lleft,lright,"
		  "pleft,pright,flags,t_s,realtime\n"
		  "123,9,9,cp,7:2,12,16,8,34808,34816,15,0,34815,0,0x24,0.000000123,\n");
}
