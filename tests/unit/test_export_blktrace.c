// SPDX-License-Identifier: GPL-2.0
/* blktrace codec, exporter and importer, checked byte by byte. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "fslens/export.h"
#include "t.h"

#ifndef FSL_TOP
#define FSL_TOP "."
#endif

/* A D (issue) of a 4 KiB write at sector 2048 on 7:0, written out by hand. */
static const unsigned char rec_le[48] = {
	0x07, 0x74, 0x61, 0x65,				/* magic | version 7 */
	0x01, 0x00, 0x00, 0x00,				/* sequence 1 */
	0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,	/* time 1e9 ns */
	0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* sector 2048 */
	0x00, 0x10, 0x00, 0x00,				/* bytes 4096 */
	0x07, 0x00, 0x42, 0x01,				/* D | ISSUE, WRITE, FS */
	0xd2, 0x04, 0x00, 0x00,				/* pid 1234 */
	0x00, 0x00, 0x70, 0x00,				/* device 7:0 */
	0x01, 0x00, 0x00, 0x00,				/* cpu 1 */
	0xfb, 0xff,					/* error (u16)-5 */
	0x00, 0x00,					/* pdu_len */
};

static const unsigned char rec_be[48] = {
	0x65, 0x61, 0x74, 0x07,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x3b, 0x9a, 0xca, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00,
	0x00, 0x00, 0x10, 0x00,
	0x01, 0x42, 0x00, 0x07,
	0x00, 0x00, 0x04, 0xd2,
	0x00, 0x70, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0xff, 0xfb,
	0x00, 0x00,
};

static void check_rec(const struct fsl_bt_rec *r)
{
	CHECK_U64(r->magic, 0x65617407);
	CHECK_U64(r->sequence, 1);
	CHECK_U64(r->time, 1000000000);
	CHECK_U64(r->sector, 2048);
	CHECK_U64(r->bytes, 4096);
	CHECK_U64(FSL_BT_CODE(r->action), FSL_BT_A_ISSUE);
	CHECK_U64(FSL_BT_CATS(r->action), FSL_BT_C_ISSUE | FSL_BT_C_WRITE | FSL_BT_C_FS);
	CHECK_U64(r->pid, 1234);
	CHECK_U64(r->device, FSL_MKDEV(7, 0));
	CHECK_U64(r->cpu, 1);
	CHECK_EQ((int16_t)r->error, -5);
	CHECK_U64(r->pdu_len, 0);
}

TEST(bt_decode_both_endians)
{
	struct fsl_bt_rec r;
	int be = -1;

	CHECK_EQ(fsl_bt_decode(rec_le, &r, &be), 0);
	CHECK_EQ(be, 0);
	check_rec(&r);
	be = -1;
	memset(&r, 0, sizeof(r));
	CHECK_EQ(fsl_bt_decode(rec_be, &r, &be), 0);
	CHECK_EQ(be, 1);
	check_rec(&r);
}

TEST(bt_encode_matches_hand_bytes)
{
	struct fsl_bt_rec r = {
		.magic = 0x65617407, .sequence = 1, .time = 1000000000, .sector = 2048,
		.bytes = 4096,
		.action = FSL_BT_ACTION(FSL_BT_A_ISSUE, FSL_BT_C_ISSUE | FSL_BT_C_WRITE | FSL_BT_C_FS),
		.pid = 1234, .device = FSL_MKDEV(7, 0), .cpu = 1, .error = (uint16_t)-5,
	};
	unsigned char buf[48];

	fsl_bt_encode(&r, buf, 0);
	CHECK(!memcmp(buf, rec_le, 48));
	fsl_bt_encode(&r, buf, 1);
	CHECK(!memcmp(buf, rec_be, 48));
}

TEST(bt_decode_rejects)
{
	unsigned char b[48];
	struct fsl_bt_rec r;
	int be = -1;

	memcpy(b, rec_le, 48);
	b[0] = 0x06;	/* version 6 */
	CHECK_EQ(fsl_bt_decode(b, &r, &be), -EPROTONOSUPPORT);
	memcpy(b, rec_le, 48);
	b[2] = 0x62;	/* magic */
	be = -1;
	CHECK_EQ(fsl_bt_decode(b, &r, &be), -EBADMSG);
	/* a big-endian record where little endian was established */
	be = 0;
	CHECK_EQ(fsl_bt_decode(rec_be, &r, &be), -EBADMSG);
}

TEST(bt_flags_map)
{
	CHECK_U64(fsl_bt_cats_from_flags(FSL_RQ_WRITE | FSL_RQ_SYNC | FSL_RQ_META | FSL_RQ_FUA),
		  FSL_BT_C_WRITE | FSL_BT_C_SYNC | FSL_BT_C_META | FSL_BT_C_FUA);
	CHECK_U64(fsl_bt_flags_from_cats(FSL_BT_C_READ | FSL_BT_C_AHEAD), FSL_RQ_READ | FSL_RQ_AHEAD);
	CHECK_U64(fsl_bt_flags_from_cats(FSL_BT_C_FLUSH), FSL_RQ_FLUSH | FSL_RQ_NONE);
}

/* ---- exporter -> files -> importer ---- */

static struct fsl_ev_block_rq brq(uint16_t type, uint64_t ts, uint16_t cpu, uint32_t tid,
				  uint64_t sector, uint32_t bytes, uint32_t flags, uint64_t rq)
{
	struct fsl_ev_block_rq b;

	memset(&b, 0, sizeof(b));
	b.hdr.ts = ts;
	b.hdr.pid = b.hdr.tid = tid;
	b.hdr.type = type;
	b.hdr.size = sizeof(b);
	b.hdr.cpu = cpu;
	b.dev = FSL_MKDEV(7, 3);
	b.sector = sector;
	b.bytes = bytes;
	b.nr_sector = bytes >> 9;
	b.flags = flags;
	b.rq = rq;
	return b;
}

#define NEV 9
static struct fsl_ev_block_rq evs[NEV];

static void make_events(void)
{
	/* write A: insert, issue, complete; read B: direct issue on cpu 2; C merged into A */
	evs[0] = brq(FSL_EV_BLOCK_RQ_INSERT, 5000000, 0, 100, 800, 4096, FSL_RQ_WRITE, 0xa);
	evs[1] = brq(FSL_EV_BLOCK_RQ_INSERT, 5000500, 0, 100, 808, 4096, FSL_RQ_WRITE, 0xc);
	evs[2] = brq(FSL_EV_BLOCK_RQ_MERGE, 5000700, 0, 100, 808, 4096, FSL_RQ_WRITE, 0xc);
	evs[3] = brq(FSL_EV_BLOCK_RQ_ISSUE, 5001000, 0, 100, 800, 8192, FSL_RQ_WRITE, 0xa);
	evs[4] = brq(FSL_EV_BLOCK_RQ_ISSUE, 5002000, 2, 200, 90000, 65536,
		     FSL_RQ_READ | FSL_RQ_AHEAD, 0xb);
	evs[5] = brq(FSL_EV_BLOCK_RQ_COMPLETE, 5100000, 1, 0, 800, 8192, FSL_RQ_WRITE, 0xa);
	evs[6] = brq(FSL_EV_BLOCK_RQ_COMPLETE, 5300000, 1, 0, 90000, 65536,
		     FSL_RQ_READ | FSL_RQ_AHEAD, 0xb);
	evs[6].error = -5;
	/* a cache flush: no data */
	evs[7] = brq(FSL_EV_BLOCK_RQ_ISSUE, 5400000, 2, 200, 0, 0, FSL_RQ_FLUSH | FSL_RQ_NONE, 0xf);
	evs[8] = brq(FSL_EV_BLOCK_RQ_COMPLETE, 5500000, 2, 0, 0, 0, FSL_RQ_FLUSH | FSL_RQ_NONE, 0xf);
}

struct collect {
	struct fsl_ev_block_rq b[64];
	struct fsl_ev_proc p[8];
	int nb, np;
};

static int collect_cb(void *ctx, const struct fsl_hdr *ev)
{
	struct collect *c = ctx;

	if (ev->type == FSL_EV_PROC && c->np < 8)
		memcpy(&c->p[c->np++], ev, sizeof(c->p[0]));
	else if (c->nb < 64)
		memcpy(&c->b[c->nb++], ev, sizeof(c->b[0]));
	return 0;
}

static long fsize(const char *p)
{
	struct stat st;

	return stat(p, &st) ? -1 : (long)st.st_size;
}

static void export_events_scan(int big_endian, int scan, const struct fsl_bt_dev_stats **out_st,
			       struct fsl_bt_export **out_x);

static void export_events(int big_endian, const struct fsl_bt_dev_stats **out_st,
			  struct fsl_bt_export **out_x)
{
	export_events_scan(big_endian, 0, out_st, out_x);
}

static void export_events_scan(int big_endian, int scan, const struct fsl_bt_dev_stats **out_st,
			       struct fsl_bt_export **out_x)
{
	struct fsl_bt_export_opts o = { .dir = t_tmpdir(), .name = "vdx",
					.big_endian = big_endian, .have_realtime = 1,
					.realtime_offset_ns = 1700000000000000000ll };
	struct fsl_ev_proc p;
	struct fsl_bt_export *x;
	int err, i;

	make_events();
	x = fsl_bt_export__new(&o, &err);
	*out_x = x;
	if (!x)
		return;
	memset(&p, 0, sizeof(p));
	p.hdr.ts = 1000;
	p.hdr.pid = p.hdr.tid = 100;
	p.hdr.type = FSL_EV_PROC;
	p.hdr.size = sizeof(p);
	strcpy(p.comm, "fio");
	CHECK_EQ(fsl_bt_export__event(x, &p.hdr), 0);
	p.hdr.pid = p.hdr.tid = 200;
	strcpy(p.comm, "kworker/u8:1");
	CHECK_EQ(fsl_bt_export__event(x, &p.hdr), 0);
	for (i = 0; scan && i < NEV; i++)
		CHECK_EQ(fsl_bt_export__scan(x, &evs[i].hdr), 0);
	for (i = 0; i < NEV; i++)
		CHECK_EQ(fsl_bt_export__event(x, &evs[i].hdr), 0);
	CHECK_EQ(fsl_bt_export__finish(x), 0);
	CHECK_EQ(fsl_bt_export__ndevs(x), 1);
	*out_st = fsl_bt_export__dev(x, 0);
}

TEST(bt_export_counts_and_files)
{
	const struct fsl_bt_dev_stats *st = NULL;
	struct fsl_bt_export *x = NULL;

	export_events(0, &st, &x);
	REQUIRE(x && st);
	/* Q: 2 inserts + 2 direct issues (read, flush); I 2; M 1; D 3; C 3 */
	CHECK_U64(st->q, 4);
	CHECK_U64(st->i, 2);
	CHECK_U64(st->m, 1);
	CHECK_U64(st->d, 3);
	CHECK_U64(st->c, 3);
	CHECK_EQ(st->ncpus, 3);
	CHECK_STR(st->name, "vdx");
	/*
	 * cpu0: timestamp notify (48+8), notify fio (48+16), Q I Q I M D = 6*48
	 * cpu1: notify pid 0? no comm known -> no notify; C C = 2*48
	 * cpu2: notify kworker (48+16), Q D, Q D C = 5*48
	 */
	CHECK_EQ(fsize(t_path("vdx.blktrace.0")), 56 + 64 + 6 * 48);
	CHECK_EQ(fsize(t_path("vdx.blktrace.1")), 2 * 48);
	CHECK_EQ(fsize(t_path("vdx.blktrace.2")), 64 + 5 * 48);
	fsl_bt_export__free(x);
}

/* With a scan pass the request merged away shows as its M alone. */
TEST(bt_export_scan_merged_request)
{
	const struct fsl_bt_dev_stats *st = NULL;
	struct fsl_bt_export *x = NULL;

	export_events_scan(0, 1, &st, &x);
	REQUIRE(x && st);
	CHECK_U64(st->q, 3);
	CHECK_U64(st->i, 1);
	CHECK_U64(st->m, 1);
	CHECK_U64(st->d, 3);
	CHECK_U64(st->c, 3);
	CHECK_EQ(fsize(t_path("vdx.blktrace.0")), 56 + 64 + 4 * 48);
	fsl_bt_export__free(x);
}

static void roundtrip(int big_endian)
{
	const struct fsl_bt_dev_stats *st = NULL;
	struct fsl_bt_export *x = NULL;
	struct fsl_bt_import_stats is;
	static struct collect c;
	char eb[256];
	const char *files[3];
	int i, err;

	export_events(big_endian, &st, &x);
	REQUIRE(x && st);
	fsl_bt_export__free(x);
	files[0] = strdup(t_path("vdx.blktrace.0"));
	files[1] = strdup(t_path("vdx.blktrace.1"));
	files[2] = strdup(t_path("vdx.blktrace.2"));
	memset(&c, 0, sizeof(c));
	err = fsl_bt_import(files, 3, collect_cb, &c, &is, eb, sizeof(eb));
	for (i = 0; i < 3; i++)
		free((void *)files[i]);
	CHECK_EQ(err, 0);
	CHECK_EQ(is.big_endian, big_endian);
	CHECK_U64(is.q, 4);
	CHECK_U64(is.d, 3);
	CHECK_U64(is.c, 3);
	CHECK_EQ(is.have_realtime, 1);
	CHECK_EQ(is.realtime_offset_ns, 1700000000000000000ll);
	CHECK_EQ(c.np, 2);
	CHECK_STR(c.p[0].comm, "fio");
	CHECK_EQ(c.p[0].hdr.tid, 100);
	CHECK_STR(c.p[1].comm, "kworker/u8:1");
	/* every fslens block event comes back, in time order, same fields */
	REQUIRE(c.nb == NEV);
	for (i = 0; i < NEV; i++) {
		CHECK_EQ(c.b[i].hdr.type, evs[i].hdr.type);
		CHECK_U64(c.b[i].hdr.ts, evs[i].hdr.ts);
		CHECK_EQ(c.b[i].hdr.cpu, evs[i].hdr.cpu);
		CHECK_EQ(c.b[i].hdr.tid, evs[i].hdr.tid);
		CHECK_U64(c.b[i].sector, evs[i].sector);
		CHECK_U64(c.b[i].bytes, evs[i].bytes);
		CHECK_U64(c.b[i].nr_sector, evs[i].nr_sector);
		CHECK_U64(c.b[i].flags, evs[i].flags);
		CHECK_U64(c.b[i].dev, evs[i].dev);
		CHECK_EQ(c.b[i].error, evs[i].error);
	}
	/* made-up request ids pair insert/issue/complete of one request */
	CHECK_U64(c.b[0].rq, c.b[3].rq);
	CHECK_U64(c.b[3].rq, c.b[5].rq);
	CHECK_U64(c.b[1].rq, c.b[2].rq);
	CHECK_U64(c.b[4].rq, c.b[6].rq);
	CHECK(c.b[0].rq != c.b[4].rq);
}

TEST(bt_roundtrip_little_endian)
{
	roundtrip(0);
}

TEST(bt_roundtrip_big_endian)
{
	roundtrip(1);
}

static const char *fixture(const char *name)
{
	static char p[8][1024];
	static int slot;
	char *b = p[slot++ % 8];

	snprintf(b, 1024, "%s/tests/data/blktrace/%s", getenv("TOP") ? getenv("TOP") : FSL_TOP,
		 name);
	return b;
}

static void check_fixture(const char *name, int want_be)
{
	struct fsl_bt_import_stats is;
	static struct collect c;
	const char *f = fixture(name);
	char eb[256];

	memset(&c, 0, sizeof(c));
	if (fsize(f) < 0)
		SKIP("fixture %s not found (run from the source tree or set TOP)", f);
	CHECK_EQ(fsl_bt_import(&f, 1, collect_cb, &c, &is, eb, sizeof(eb)), 0);
	CHECK_EQ(is.big_endian, want_be);
	CHECK_U64(is.notify, 3);
	CHECK_U64(is.records, 8);
	CHECK_U64(is.pdu_bytes_skipped, 16);	/* the PC issue's payload */
	CHECK_U64(is.q, 2);
	CHECK_U64(is.i, 1);
	CHECK_U64(is.d, 3);
	CHECK_U64(is.c, 2);
	CHECK_EQ(is.have_realtime, 1);
	CHECK_EQ(is.realtime_offset_ns, 1700000000000000500ll - 1000000000ll);
	REQUIRE(c.np == 1);
	CHECK_STR(c.p[0].comm, "dd");
	CHECK_EQ(c.p[0].hdr.pid, 1234);
	/* I D D(pc) C D C: the PC issue is an issue with no data */
	REQUIRE(c.nb == 6);
	CHECK_EQ(c.b[0].hdr.type, FSL_EV_BLOCK_RQ_INSERT);
	CHECK_U64(c.b[0].hdr.ts, 1000002000);
	CHECK_U64(c.b[0].sector, 2048);
	CHECK_U64(c.b[0].bytes, 4096);
	CHECK_U64(c.b[0].flags, FSL_RQ_WRITE | FSL_RQ_SYNC);
	CHECK_U64(c.b[0].dev, FSL_MKDEV(8, 16));
	CHECK_EQ(c.b[1].hdr.type, FSL_EV_BLOCK_RQ_ISSUE);
	CHECK_U64(c.b[1].rq, c.b[0].rq);
	CHECK_EQ(c.b[3].hdr.type, FSL_EV_BLOCK_RQ_COMPLETE);
	CHECK_U64(c.b[3].rq, c.b[0].rq);
	CHECK_EQ(c.b[5].hdr.type, FSL_EV_BLOCK_RQ_COMPLETE);
	CHECK_U64(c.b[5].sector, 4096);
	CHECK_U64(c.b[5].bytes, 8192);
	CHECK_U64(c.b[5].flags, FSL_RQ_READ);
	CHECK_EQ(c.b[5].error, -5);
	CHECK_U64(c.b[5].rq, c.b[4].rq);
}

TEST(bt_import_fixture_le)
{
	check_fixture("le.blktrace.0", 0);
}

TEST(bt_import_fixture_be)
{
	check_fixture("be.blktrace.0", 1);
}

TEST(bt_import_truncated_and_corrupt)
{
	struct fsl_bt_import_stats is;
	static struct collect c;
	const char *f;
	char eb[256];

	f = fixture("trunc.blktrace.0");
	if (fsize(f) < 0)
		SKIP("fixtures not found");
	memset(&c, 0, sizeof(c));
	CHECK_EQ(fsl_bt_import(&f, 1, collect_cb, &c, &is, eb, sizeof(eb)), -EBADMSG);
	CHECK(strstr(eb, "truncated record at offset 176 (20 of 48 bytes)") != NULL);
	CHECK(strstr(eb, "trunc.blktrace.0") != NULL);
	f = fixture("badmagic.blktrace.0");
	memset(&c, 0, sizeof(c));
	CHECK_EQ(fsl_bt_import(&f, 1, collect_cb, &c, &is, eb, sizeof(eb)), -EBADMSG);
	CHECK(strstr(eb, "bad magic 0xdeadbeef at offset 224") != NULL);
	f = fixture("no-such-file");
	CHECK_EQ(fsl_bt_import(&f, 1, collect_cb, &c, &is, eb, sizeof(eb)), -ENOENT);
	CHECK(strstr(eb, "No such file") != NULL);
}

/* Records with cgroup ids: the id leads each payload and is skipped. */
TEST(bt_import_fixture_cgroup)
{
	struct fsl_bt_import_stats is;
	static struct collect c;
	const char *f = fixture("cgroup.blktrace.0");
	char eb[256];

	memset(&c, 0, sizeof(c));
	if (fsize(f) < 0)
		SKIP("fixture %s not found (run from the source tree or set TOP)", f);
	CHECK_EQ(fsl_bt_import(&f, 1, collect_cb, &c, &is, eb, sizeof(eb)), 0);
	CHECK_U64(is.notify, 1);
	CHECK_U64(is.d, 1);
	CHECK_U64(is.c, 1);
	CHECK_U64(is.pdu_bytes_skipped, 16);	/* the D's and C's cgroup ids */
	REQUIRE(c.np == 1);
	CHECK_STR(c.p[0].comm, "kworker/0:1");
	CHECK_EQ(c.p[0].hdr.tid, 77);
	REQUIRE(c.nb == 2);
	CHECK_EQ(c.b[0].hdr.type, FSL_EV_BLOCK_RQ_ISSUE);
	CHECK_U64(c.b[0].sector, 4096);
	CHECK_U64(c.b[0].flags, FSL_RQ_WRITE);
	CHECK_EQ(c.b[1].hdr.type, FSL_EV_BLOCK_RQ_COMPLETE);
	CHECK_U64(c.b[1].hdr.ts - c.b[0].hdr.ts, 50000);
	CHECK_U64(c.b[1].rq, c.b[0].rq);
}
