// SPDX-License-Identifier: GPL-2.0
/* Trace format: round trips, metadata, corruption, truncation. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fslens/text.h"
#include "t.h"
#include "trace_gen.h"

/* Every event type of the builtin schema, several times, field by field. */
TEST(trace_roundtrip_all_types)
{
	const struct fsl_event_desc *all;
	unsigned int n = fsl_schema_builtin_all(&all), i, rep;
	static const size_t plen[][2] = { { 0, 0 }, { 1, 0 }, { 7, 0 }, { 8, 3 }, { 255, 0 },
					  { 256, 256 }, { 13, 200 } };
	const unsigned int nrep = sizeof(plen) / sizeof(plen[0]);
	static unsigned char recs[128 * 8][1024];
	unsigned int nrec = 0, got = 0;
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t seed = 42, ts = 1000000;
	int err = 0, rc;

	w = fsl_writer__open(t_path("rt.trace"), NULL, &err);
	REQUIRE(w);
	for (rep = 0; rep < nrep; rep++) {
		for (i = 0; i < n; i++) {
			REQUIRE(nrec < sizeof(recs) / sizeof(recs[0]));
			ts += 1 + tg_rand(&seed) % 100000;
			tg_fill(recs[nrec], &all[i], &seed, ts, plen[rep][0], plen[rep][1]);
			CHECK_EQ(fsl_writer__event(w, (struct fsl_hdr *)recs[nrec]), 0);
			nrec++;
		}
	}
	CHECK_EQ(fsl_writer__events(w), nrec);
	CHECK_EQ(fsl_writer__close(w), 0);

	r = fsl_reader__open(t_path("rt.trace"), NULL, &err);
	REQUIRE(r);
	while ((rc = fsl_reader__next(r, &ev)) == 1) {
		const struct fsl_hdr *want = (const struct fsl_hdr *)recs[got];
		const struct fsl_event_desc *d;
		unsigned int k;

		REQUIRE(got < nrec);
		d = fsl_schema_builtin(want->type);
		CHECK_U64(ev->ts, want->ts);
		CHECK_EQ(ev->type, want->type);
		CHECK_EQ(ev->size, want->size);
		CHECK_EQ(ev->pid, want->pid);
		CHECK_EQ(ev->tid, want->tid);
		CHECK_EQ(ev->cpu, want->cpu);
		for (k = 0; d && k < d->nfields; k++) {
			if (d->fields[k].kind == FSL_F_PATHS || d->fields[k].kind == FSL_F_COMM ||
			    d->fields[k].kind == FSL_F_INOS)
				continue;
			if (fsl_field_get(&d->fields[k], ev) != fsl_field_get(&d->fields[k], want))
				t_fail(__FILE__, __LINE__, "%s.%s: %lld != %lld", d->name,
				       d->fields[k].name,
				       (long long)fsl_field_get(&d->fields[k], ev),
				       (long long)fsl_field_get(&d->fields[k], want));
		}
		if (ev->size == want->size && memcmp(ev, want, want->size))
			t_fail(__FILE__, __LINE__, "record %u (%s) differs", got, d ? d->name : "?");
		got++;
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(got, nrec);
	CHECK_EQ(fsl_reader__nwarnings(r), 0);
	CHECK_EQ(fsl_reader__stats(r)->complete, 1);
	fsl_reader__close(r);
}

/* KV, text, bitmaps, stacks and symbols come back as written. */
TEST(trace_meta_roundtrip)
{
	struct fsl_writer *w;
	struct fsl_reader *r;
	uint64_t runs1[] = { 10, 5, 1, 84 }, runs2[] = { 100 };
	struct fsl_bitmap bm1 = { FSL_BITMAP_BLOCK, FSL_BITMAP_START, 1, 100, 4, runs1 };
	struct fsl_bitmap bm2 = { FSL_BITMAP_INODE, FSL_BITMAP_END, 1, 100, 1, runs2 };
	char *frames[] = { "__schedule", "io_schedule+0x12", "jbd2_log_wait_commit+0x9a" };
	struct fsl_stack st = { 7, 3, frames }, st2 = { -5, 0, NULL };
	const struct fsl_stack *gs;
	const struct fsl_bitmap *gb;
	const char *k, *v, *txt;
	size_t len;
	int err = 0;
	static const char blob[] = "Transactions: 12\n\0binary\x01\xff";

	w = fsl_writer__open(t_path("m.trace"), NULL, &err);
	REQUIRE(w);
	CHECK_EQ(fsl_writer__kv(w, FSL_KV_HOSTNAME, "%s", "box1"), 0);
	CHECK_EQ(fsl_writer__kv(w, FSL_KV_HZ, "%d", 250), 0);
	CHECK_EQ(fsl_writer__kv(w, "odd", "%s", "line1\nline2\\end"), 0);
	CHECK_EQ(fsl_writer__kv(w, "bad=key", "x"), -EINVAL);
	CHECK_EQ(fsl_writer__text(w, "jbd2.info", blob, sizeof(blob)), 0);
	CHECK_EQ(fsl_writer__bitmap(w, &bm1), 0);
	runs1[3] = 83;
	CHECK_EQ(fsl_writer__bitmap(w, &bm1), -EINVAL);	/* runs do not sum to nbits */
	runs1[3] = 84;
	CHECK_EQ(fsl_writer__stack(w, &st), 0);
	CHECK_EQ(fsl_writer__stack(w, &st2), 0);
	CHECK_EQ(fsl_writer__sym(w, 0xffffffff81234567ull, "ext4_mkdir+0x1a3"), 0);
	CHECK_EQ(fsl_writer__lost(w, FSL_FAM_OFFCPU, 17), 0);
	CHECK_EQ(fsl_writer__lost(w, FSL_FAM_BLOCK, 3), 0);
	/* metadata known only at the end comes after the chunks */
	CHECK_EQ(fsl_writer__flush(w), 0);
	CHECK_EQ(fsl_writer__bitmap(w, &bm2), 0);
	CHECK_EQ(fsl_writer__kv(w, FSL_KV_HZ, "%d", 1000), 0);	/* later overrides */
	CHECK_EQ(fsl_writer__close(w), 0);

	r = fsl_reader__open(t_path("m.trace"), NULL, &err);
	REQUIRE(r);
	CHECK_STR(fsl_reader__kv(r, FSL_KV_HOSTNAME), "box1");
	CHECK_STR(fsl_reader__kv(r, FSL_KV_HZ), "1000");
	CHECK_STR(fsl_reader__kv(r, "odd"), "line1\nline2\\end");
	CHECK(fsl_reader__kv(r, "bad") == NULL);
	CHECK_EQ(fsl_reader__kv_at(r, 0, &k, &v), 1);
	CHECK_STR(k, FSL_KV_HOSTNAME);
	txt = fsl_reader__text(r, "jbd2.info", &len);
	REQUIRE(txt);
	CHECK_EQ(len, sizeof(blob));
	CHECK(!memcmp(txt, blob, sizeof(blob)));
	gb = fsl_reader__bitmap(r, FSL_BITMAP_BLOCK, FSL_BITMAP_START);
	REQUIRE(gb);
	CHECK_EQ(gb->nbits, 100);
	CHECK_EQ(gb->nruns, 4);
	CHECK_EQ(gb->runs[2], 1);
	CHECK_EQ(fsl_bitmap_test(gb, 1), 0);	/* bit 1 is the first of run 0 (free) */
	CHECK_EQ(fsl_bitmap_test(gb, 11), 1);	/* bits 11..15 used */
	CHECK_EQ(fsl_bitmap_test(gb, 15), 1);
	CHECK_EQ(fsl_bitmap_test(gb, 16), 0);
	CHECK_EQ(fsl_bitmap_test(gb, 17), 1);
	CHECK_EQ(fsl_bitmap_test(gb, 100), 1);	/* last bit, in the used run */
	CHECK_EQ(fsl_bitmap_test(gb, 101), -ERANGE);
	gb = fsl_reader__bitmap(r, FSL_BITMAP_INODE, FSL_BITMAP_END);
	REQUIRE(gb);
	CHECK_EQ(gb->runs[0], 100);
	CHECK(fsl_reader__bitmap(r, FSL_BITMAP_INODE, FSL_BITMAP_START) == NULL);
	gs = fsl_reader__stack(r, 7);
	REQUIRE(gs);
	CHECK_EQ(gs->nframes, 3);
	CHECK_STR(gs->frames[2], "jbd2_log_wait_commit+0x9a");
	gs = fsl_reader__stack(r, -5);
	REQUIRE(gs);
	CHECK_EQ(gs->nframes, 0);
	CHECK(fsl_reader__stack(r, 8) == NULL);
	CHECK_STR(fsl_reader__sym(r, 0xffffffff81234567ull), "ext4_mkdir+0x1a3");
	CHECK(fsl_reader__sym(r, 0xffffffff81234568ull) == NULL);
	CHECK_U64(fsl_reader__stats(r)->counts.lost[FSL_FAM_OFFCPU], 17);
	CHECK_U64(fsl_reader__stats(r)->counts.lost[FSL_FAM_BLOCK], 3);
	CHECK_STR(fsl_reader__schema(r, FSL_EV_JBD2_RUN_STATS)->name, "jbd2_run_stats");
	CHECK_EQ(fsl_reader__schema(r, FSL_EV_JBD2_RUN_STATS)->nfields, 11);
	CHECK_EQ(fsl_reader__nwarnings(r), 0);
	fsl_reader__close(r);
}

/* Events arriving out of order within the window come back sorted. */
TEST(trace_reorder_window)
{
	struct fsl_writer_opts o = { .chunk_events = 100, .reorder_ns = 1000000 };
	struct fsl_ev_jbd2_commit e = { .hdr = { .type = FSL_EV_JBD2_START_COMMIT,
						 .size = sizeof(e) } };
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t prev = 0, seed = 1, n = 0, i;
	int err = 0, sorted = 1;

	w = fsl_writer__open(t_path("o.trace"), &o, &err);
	REQUIRE(w);
	for (i = 0; i < 50000; i++) {
		/* two "ring buffers" drained alternately, each in order */
		e.hdr.ts = 10000000 + i * 1000 - (i & 1) * 500000 + tg_rand(&seed) % 300;
		e.transaction = i;
		CHECK_EQ(fsl_writer__event(w, &e.hdr), 0);
	}
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("o.trace"), NULL, &err);
	REQUIRE(r);
	while (fsl_reader__next(r, &ev) == 1) {
		if (ev->ts < prev)
			sorted = 0;
		prev = ev->ts;
		n++;
	}
	CHECK(sorted);
	CHECK_EQ(n, 50000);
	CHECK_EQ(fsl_reader__stats(r)->chunks, 500);
	CHECK_EQ(fsl_reader__stats(r)->counts.events[FSL_FAM_JOURNAL], 50000);
	CHECK_EQ(fsl_reader__stats(r)->late_events, 0);
	fsl_reader__close(r);
}

/*
 * More events than the reorder ring holds (it wraps many times) with a
 * window so large that the memory bound, not the window, releases them:
 * every event comes back once, in ts order, none counted late.
 */
TEST(trace_reorder_ring_wraps)
{
	struct fsl_writer_opts o = { .reorder_ns = 1000000000000ull };
	struct fsl_ev_block_rq e = { .hdr = { .type = FSL_EV_BLOCK_RQ_ISSUE, .size = sizeof(e) } };
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t prev = 0, seed = 9, n = 0, i, sum = 0, want = 0;
	const uint64_t total = 1200000;
	int err = 0, sorted = 1;

	w = fsl_writer__open(t_path("wrap.trace"), &o, &err);
	REQUIRE(w);
	for (i = 0; i < total; i++) {
		e.hdr.ts = 1000000 + i * 1000 + tg_rand(&seed) % 5000;	/* jitter 5 us */
		e.sector = i;
		want += i;
		if ((err = fsl_writer__event(w, &e.hdr)))
			break;
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("wrap.trace"), NULL, &err);
	REQUIRE(r);
	while (fsl_reader__next(r, &ev) == 1) {
		if (ev->ts < prev)
			sorted = 0;
		prev = ev->ts;
		sum += ((const struct fsl_ev_block_rq *)ev)->sector;
		n++;
	}
	CHECK(sorted);
	CHECK_EQ(n, total);
	CHECK_U64(sum, want);
	CHECK_EQ(fsl_reader__stats(r)->late_events, 0);
	fsl_reader__close(r);
}

/* Uncompressed blocks (opts.no_compress) read back the same. */
TEST(trace_no_compress)
{
	const struct fsl_event_desc *all;
	unsigned int n = fsl_schema_builtin_all(&all), i, got = 0;
	struct fsl_writer_opts o = { .no_compress = 1 };
	static unsigned char recs[FSL_EV__MAX][1024];
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t seed = 5;
	int err = 0;

	w = fsl_writer__open(t_path("nc.trace"), &o, &err);
	REQUIRE(w);
	for (i = 0; i < n && i < FSL_EV__MAX; i++) {
		tg_fill(recs[i], &all[i], &seed, 1000 + i, 5, 2);
		CHECK_EQ(fsl_writer__event(w, (struct fsl_hdr *)recs[i]), 0);
	}
	CHECK_EQ(fsl_writer__kv(w, "k", "v"), 0);
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("nc.trace"), NULL, &err);
	REQUIRE(r);
	while (fsl_reader__next(r, &ev) == 1) {
		REQUIRE(got < n);
		CHECK(!memcmp(ev, recs[got], ((struct fsl_hdr *)recs[got])->size));
		got++;
	}
	CHECK_EQ(got, n);
	CHECK_STR(fsl_reader__kv(r, "k"), "v");
	/* uncompressed: the chunk is as large as its encoded records */
	CHECK(fsl_reader__stats(r)->compressed_bytes > 0);
	fsl_reader__close(r);
}

/* Dirop path lengths that overrun their record are cut by the writer and flagged. */
TEST(trace_dirop_lengths_clamped)
{
	union { struct fsl_ev_dirop d; unsigned char b[256]; } op = { 0 };
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	const struct fsl_ev_dirop *got;
	int err = 0;

	op.d.hdr.type = FSL_EV_DIROP;
	op.d.hdr.size = fsl_dirop_size(10, 0);	/* 96: 20 bytes of room after paths[] */
	op.d.hdr.ts = 1;
	op.d.path_len = 300;
	op.d.path2_len = 7;
	memcpy(op.d.paths, "/mnt/x/abc", 10);
	w = fsl_writer__open(t_path("d.trace"), NULL, &err);
	REQUIRE(w);
	CHECK_EQ(fsl_writer__event(w, &op.d.hdr), 0);
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("d.trace"), NULL, &err);
	REQUIRE(r);
	REQUIRE(fsl_reader__next(r, &ev) == 1);
	got = (const struct fsl_ev_dirop *)ev;
	CHECK_EQ(ev->size, 96);
	CHECK_EQ(got->path_len, 96 - offsetof(struct fsl_ev_dirop, paths));
	CHECK_EQ(got->path2_len, 0);
	CHECK_EQ(got->pflags, FSL_DIROP_TRUNC1 | FSL_DIROP_TRUNC2);
	CHECK(!memcmp(got->paths, "/mnt/x/abc", 10));
	fsl_reader__close(r);
}

/* Bit arrays to runs and back; runs start with a free run (possibly empty). */
TEST(trace_bitmap_bits)
{
	uint64_t words[4] = { 0 }, back[4];
	struct fsl_bitmap bm;
	unsigned int i;

	/* used: bits 0..2, 70..199 (crossing words), 255 */
	for (i = 0; i < 256; i++)
		if (i < 3 || (i >= 70 && i < 200) || i == 255)
			words[i / 64] |= 1ull << (i % 64);
	REQUIRE(fsl_bitmap_from_bits(&bm, words, 256, 1, FSL_BITMAP_BLOCK, FSL_BITMAP_START) == 0);
	CHECK_EQ(bm.nruns, 6);
	CHECK_EQ(bm.runs[0], 0);	/* no free bits first */
	CHECK_EQ(bm.runs[1], 3);
	CHECK_EQ(bm.runs[2], 67);
	CHECK_EQ(bm.runs[3], 130);
	CHECK_EQ(bm.runs[4], 55);
	CHECK_EQ(bm.runs[5], 1);
	CHECK_EQ(fsl_bitmap_test(&bm, 1), 1);	/* bit number 1 = index 0 */
	CHECK_EQ(fsl_bitmap_test(&bm, 4), 0);
	CHECK_EQ(fsl_bitmap_test(&bm, 71), 1);
	CHECK_EQ(fsl_bitmap_test(&bm, 256), 1);
	CHECK_EQ(fsl_bitmap_to_bits(&bm, back, 4), 0);
	CHECK(!memcmp(back, words, sizeof(words)));
	CHECK_EQ(fsl_bitmap_to_bits(&bm, back, 3), -ENOSPC);
	fsl_bitmap_free(&bm);
	/* a length that is not a multiple of 64, all free */
	memset(words, 0, sizeof(words));
	REQUIRE(fsl_bitmap_from_bits(&bm, words, 100, 0, FSL_BITMAP_INODE, FSL_BITMAP_END) == 0);
	CHECK_EQ(bm.nruns, 1);
	CHECK_EQ(bm.runs[0], 100);
	fsl_bitmap_free(&bm);
}

/* Rewind reads the same events again. */
TEST(trace_rewind)
{
	struct fsl_ev_jbd2_commit c = { .hdr = { .type = FSL_EV_JBD2_END_COMMIT, .size = sizeof(c) } };
	struct fsl_writer_opts o = { .chunk_events = 7 };
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t sum1 = 0, sum2 = 0;
	int err = 0, i, pass;

	w = fsl_writer__open(t_path("rw.trace"), &o, &err);
	REQUIRE(w);
	for (i = 0; i < 100; i++) {
		c.hdr.ts = 10 + i;
		c.transaction = i * i;
		fsl_writer__event(w, &c.hdr);
	}
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("rw.trace"), NULL, &err);
	REQUIRE(r);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < 40 && fsl_reader__next(r, &ev) == 1; i++)
			;
		CHECK_EQ(fsl_reader__rewind(r), 0);
		while (fsl_reader__next(r, &ev) == 1)
			*(pass ? &sum2 : &sum1) += ((const struct fsl_ev_jbd2_commit *)ev)->transaction;
	}
	CHECK_U64(sum1, 328350);	/* sum of i^2, i < 100 */
	CHECK_U64(sum2, 328350);
	CHECK_EQ(fsl_reader__stats(r)->chunks, 15);
	fsl_reader__close(r);
}

/* A family filter returns exactly that family, also when whole chunks lack it. */
TEST(trace_family_filter_chunks)
{
	struct fsl_writer_opts o = { .chunk_events = 100 };
	struct fsl_ev_block_rq b = { .hdr = { .type = FSL_EV_BLOCK_RQ_ISSUE, .size = sizeof(b) } };
	struct fsl_ev_jbd2_commit c = { .hdr = { .type = FSL_EV_JBD2_START_COMMIT, .size = sizeof(c) } };
	struct fsl_reader_opts ro = { .families = 1u << FSL_FAM_JOURNAL };
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t ts = 1, sum = 0;
	int err = 0, i, n = 0, other = 0;

	w = fsl_writer__open(t_path("ff.trace"), &o, &err);
	REQUIRE(w);
	/* 1000 block events (10 chunks), 150 commits, 1000 block, 150 commits */
	for (i = 0; i < 2300; i++) {
		int k = i % 1150;

		if (k < 1000) {
			b.hdr.ts = ts++;
			CHECK_EQ(fsl_writer__event(w, &b.hdr), 0);
		} else {
			c.hdr.ts = ts++;
			c.transaction = i;
			CHECK_EQ(fsl_writer__event(w, &c.hdr), 0);
		}
	}
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("ff.trace"), &ro, &err);
	REQUIRE(r);
	while (fsl_reader__next(r, &ev) == 1) {
		if (ev->type != FSL_EV_JBD2_START_COMMIT)
			other++;
		else
			sum += ((const struct fsl_ev_jbd2_commit *)ev)->transaction;
		n++;
	}
	CHECK_EQ(n, 300);
	CHECK_EQ(other, 0);
	/* transactions 1000..1149 and 2150..2299 */
	CHECK_U64(sum, 150 * (1000 + 1149) / 2 + 150 * (2150 + 2299) / 2);
	CHECK_EQ(fsl_reader__nwarnings(r), 0);
	fsl_reader__close(r);
}

/*
 * A trace from an older recorder stored its own frames innermost (the BPF
 * program as a JIT address misnamed _einittext+0x..., the tracepoint glue):
 * the reader drops that leading run, and only it.
 */
TEST(trace_stack_recorder_frames_dropped)
{
	char *frames[] = { "_einittext+0x3c83b814", "bpf_trace_run4+0x72/0xf0",
			   "__bpf_trace_sched_switch+0x10", "__traceiter_sched_switch+0x3e",
			   "__schedule+0x3f1", "schedule+0x27", "jbd2_log_wait_commit+0x9a",
			   "ext4_sync_file+0x1c2" };
	char *jit[] = { "bpf_prog_6deef7357e7b4530_fslens_switch", "[bpf]", "0xffffffffc0123456" };
	struct fsl_stack st = { 3, 8, frames }, st2 = { 4, 3, jit };	/* a bare address stays */
	const struct fsl_stack *gs;
	struct fsl_writer *w;
	struct fsl_reader *r;
	int err = 0;

	w = fsl_writer__open(t_path("s.trace"), NULL, &err);
	REQUIRE(w);
	CHECK_EQ(fsl_writer__stack(w, &st), 0);
	CHECK_EQ(fsl_writer__stack(w, &st2), 0);
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("s.trace"), NULL, &err);
	REQUIRE(r);
	gs = fsl_reader__stack(r, 3);
	REQUIRE(gs);
	CHECK_EQ(gs->nframes, 4);
	CHECK_STR(gs->frames[0], "__schedule+0x3f1");
	CHECK_STR(gs->frames[3], "ext4_sync_file+0x1c2");
	gs = fsl_reader__stack(r, 4);
	REQUIRE(gs);
	CHECK_EQ(gs->nframes, 1);
	CHECK_STR(gs->frames[0], "0xffffffffc0123456");
	fsl_reader__close(r);
	CHECK(!fsl_frame_is_recorder("ext4_sync_file+0x1c2"));
	CHECK(fsl_frame_is_recorder("__traceiter_sched_switch"));
}

/*
 * A recorder writes the stacks and symbols first seen since its last flush
 * at every flush (issue 19, item 3): several STACKS and SYMS blocks between
 * chunks, an id written again (the later wins), and a writer killed after
 * its second flush still has every stack and symbol flushed before.
 */
TEST(trace_stacks_in_every_flush_survive_a_kill)
{
	struct fsl_ev_jbd2_commit c = { .hdr = { .type = FSL_EV_JBD2_START_COMMIT,
						 .size = sizeof(c) } };
	char *f1[] = { "__schedule+0x3f1", "jbd2_log_wait_commit+0x9a" };
	char *f1b[] = { "__schedule+0x3f1", "add_transaction_credits+0x2c4" };
	char *f2[] = { "__schedule+0x3f1", "io_schedule+0x16", "bit_wait_io+0x11" };
	char *f3[] = { "__schedule+0x3f1" };
	struct fsl_stack s1 = { 1, 2, f1 }, s1b = { 1, 2, f1b }, s2 = { 2, 3, f2 },
			 s3 = { 3, 1, f3 };
	const struct fsl_stack *gs;
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	int err = 0, i, n = 0;

	w = fsl_writer__open(t_path("inc.trace"), NULL, &err);
	REQUIRE(w);
	for (i = 0; i < 300; i++) {
		c.hdr.ts = 1000 + i;
		CHECK_EQ(fsl_writer__event(w, &c.hdr), 0);
		if (i == 99) {			/* the first flush */
			CHECK_EQ(fsl_writer__stack(w, &s1), 0);
			CHECK_EQ(fsl_writer__sym(w, 0xffffffff81000010ull, "ext4_create+0x10"), 0);
			CHECK_EQ(fsl_writer__flush(w), 0);
		}
		if (i == 199) {			/* the second: new ones, and id 1 again */
			CHECK_EQ(fsl_writer__stack(w, &s2), 0);
			CHECK_EQ(fsl_writer__stack(w, &s1b), 0);
			CHECK_EQ(fsl_writer__sym(w, 0xffffffff81000020ull, "ext4_unlink+0x20"), 0);
			CHECK_EQ(fsl_writer__sym(w, 0xffffffff81000010ull, "ext4_mkdir+0x10"), 0);
			CHECK_EQ(fsl_writer__flush(w), 0);
		}
	}
	CHECK_EQ(fsl_writer__stack(w, &s3), 0);	/* never flushed */
	fsl_writer__abort(w);				/* like SIGKILL */

	r = fsl_reader__open(t_path("inc.trace"), NULL, &err);
	REQUIRE(r);
	while (fsl_reader__next(r, &ev) > 0)
		n++;
	CHECK_EQ(n, 200);
	gs = fsl_reader__stack(r, 1);
	REQUIRE(gs);
	CHECK_EQ(gs->nframes, 2);
	CHECK_STR(gs->frames[1], "add_transaction_credits+0x2c4");
	gs = fsl_reader__stack(r, 2);
	REQUIRE(gs);
	CHECK_EQ(gs->nframes, 3);
	CHECK_STR(gs->frames[2], "bit_wait_io+0x11");
	CHECK(fsl_reader__stack(r, 3) == NULL);
	CHECK_STR(fsl_reader__sym(r, 0xffffffff81000010ull), "ext4_mkdir+0x10");
	CHECK_STR(fsl_reader__sym(r, 0xffffffff81000020ull), "ext4_unlink+0x20");
	fsl_reader__close(r);
}
