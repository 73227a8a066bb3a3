// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback causes: the rule table against docs/writeback.md and real
 * stacks (tests/data/wbstacks.txt); the writeback analysis's data by cause
 * and the device's account of the same writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "fslens/report.h"
#include "an_fixture.h"
#include "t.h"

#define S0 1000000000ull
#define MS 1000000ull

static const char *cause_name(unsigned int c)
{
	return c == FSL_WBC__MAX ? "flusher" : fsl_wbcause_id(c);
}

TEST(wbcause_real_stacks)
{
	const char *top = getenv("TOP");
	char path[512], line[8192], *frames[128], *p, *tok, *save;
	int n = 0, rule;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/wbstacks.txt", top ? top : ".");
	f = fopen(path, "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		char *colon;
		unsigned int nf = 0, got;

		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#' || !(colon = strstr(line, ": ")))
			continue;
		*colon = 0;
		for (p = colon + 2; (tok = strtok_r(p, ",", &save)); p = NULL) {
			while (*tok == ' ')
				tok++;
			if (nf < 128)
				frames[nf++] = tok;
		}
		got = fsl_wbcause_of_frames((const char *const *)frames, nf, &rule);
		if (strcmp(cause_name(got), line))
			t_fail(__FILE__, __LINE__, "got %s (frame %d), want %s", cause_name(got),
			       rule, line);
		n++;
	}
	fclose(f);
	CHECK(n >= 9);
	/* no rule: other, and no deciding frame */
	frames[0] = "ext4_do_writepages+0x18a";
	frames[1] = "write_inode_now";
	CHECK_EQ(fsl_wbcause_of_frames((const char *const *)frames, 2, &rule), FSL_WBC_OTHER);
	CHECK_EQ(rule, -1);
	CHECK_EQ(fsl_wbcause_of_reason(3), FSL_WBC_PERIODIC);
	CHECK_EQ(fsl_wbcause_of_reason(5), FSL_WBC_FREE_SPACE);
	CHECK_EQ(fsl_wbcause_of_reason(1), FSL_WBC_RECLAIM);
	CHECK_EQ(fsl_wbcause_of_reason(6), FSL_WBC_FLUSHER_OTHER);
}

/* docs/writeback.md lists exactly the rules of the table, in order. */
TEST(wbcause_table_documented)
{
	const char *top = getenv("TOP");
	char path[512], line[512], want[512];
	const char *func;
	unsigned int idx = 0, cause;
	int in_table = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/docs/writeback.md", top ? top : ".");
	f = fopen(path, "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "| function | cause |")) {
			in_table = 1;
			continue;
		}
		if (!in_table || !strncmp(line, "|---", 4))
			continue;
		if (line[0] != '|')
			break;
		if (!fsl_wbcause_rule(idx, &func, &cause)) {
			t_fail(__FILE__, __LINE__, "doc has an extra rule: %s", line);
			break;
		}
		snprintf(want, sizeof(want), "| `%s` | `%s` |", func, cause_name(cause));
		if (strcmp(line, want)) {
			t_fail(__FILE__, __LINE__, "rule %u: doc '%s', table '%s'", idx, line, want);
			break;
		}
		idx++;
	}
	fclose(f);
	CHECK(in_table);
	CHECK(!fsl_wbcause_rule(idx, &func, &cause));
	CHECK(idx > 20);
}

/* The report's folded lines joined again: each newline and the indent after it one space. */
static void unfold(char *s)
{
	char *w = s, *r = s;

	while (*r) {
		if (*r == '\n') {
			while (r[1] == ' ')
				r++;
			*w++ = ' ';
			r++;
			continue;
		}
		*w++ = *r++;
	}
	*w = 0;
}

static int feed_wp(struct fsl_analysis *a, uint64_t ts, uint32_t tid, int pages, int32_t stack)
{
	struct fsl_ev_ext4_writepages_result ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_EXT4_WRITEPAGES_RESULT, sizeof(ev), ts, tid, tid);
	ev.dev = 7 << 20;
	ev.ino = 12;
	ev.pages_written = pages;
	ev.stack_id = stack;
	return fsl_analysis__feed(a, &ev.hdr);
}

static int feed_work(struct fsl_analysis *a, unsigned int type, uint64_t ts, uint32_t tid,
		     int reason)
{
	struct fsl_ev_writeback_work ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, type, sizeof(ev), ts, tid, tid);
	ev.dev = 7 << 20;
	ev.reason = reason;
	return fsl_analysis__feed(a, &ev.hdr);
}

static int feed_done(struct fsl_analysis *a, uint64_t ts, uint64_t block, uint32_t blocks,
		     uint32_t flags, int32_t error)
{
	struct fsl_ev_block_rq ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_BLOCK_RQ_COMPLETE, sizeof(ev), ts, 0, 0);
	ev.dev = 7 << 20;
	ev.sector = block * 8;
	ev.nr_sector = blocks * 8;
	ev.bytes = blocks * 4096;
	ev.flags = flags;
	ev.error = error;
	ev.rq = block + 1;
	return fsl_analysis__feed(a, &ev.hdr);
}

/*
 * A flusher work (periodic) and calls in it, one after it, one without a
 * stack inside a background work; fsync, O_SYNC, the journal, an unknown
 * caller and a direct write. On a 4 KiB-block filesystem of one group
 * (bitmaps at 2 and 3, inode table 4..515, journal 1000..2023), the
 * completions: 13 data blocks, a REQ_META directory block, an inode-table
 * block and two journal blocks; a read and a failed write count nowhere.
 */
TEST(wbcause_analysis)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	const struct fsl_writeback *w;
	struct fsl_ev_dio_write dio;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int err = 0;

	fx_init(&f);
	fx_set(&f, "target.dev", "7340032");
	fx_set(&f, "record.start_ns", "1000000000");
	fx_set(&f, "ext4.block_size", "4096");
	fx_set(&f, "ext4.blocks_count", "32768");
	fx_set(&f, "ext4.blocks_per_group", "32768");
	fx_set(&f, "ext4.inodes_per_group", "8192");
	fx_set(&f, "ext4.group_count", "1");
	fx_set(&f, "ext4.inode_blocks_per_group", "512");
	fx_set(&f, "ext4.journal_start", "1000");
	fx_set(&f, "ext4.journal_blocks", "1024");
	fx_stack_add(&f, 1, "ext4_do_writepages, ext4_writepages, do_writepages, "
			    "__writeback_single_inode, writeback_sb_inodes, __writeback_inodes_wb, "
			    "wb_writeback, wb_workfn, process_one_work, worker_thread, kthread");
	fx_stack_add(&f, 2, "ext4_do_writepages, ext4_writepages, do_writepages, "
			    "filemap_fdatawrite_wbc, __filemap_fdatawrite_range, "
			    "file_write_and_wait_range, ext4_sync_file, do_fsync, __x64_sys_fsync");
	fx_stack_add(&f, 3, "ext4_do_writepages, ext4_writepages, do_writepages, "
			    "filemap_fdatawrite_wbc, __filemap_fdatawrite_range, "
			    "file_write_and_wait_range, ext4_sync_file, ext4_buffered_write_iter, "
			    "vfs_write, ksys_write");
	fx_stack_add(&f, 4, "ext4_do_writepages, ext4_normal_submit_inode_data_buffers, "
			    "jbd2_journal_commit_transaction, kjournald2, kthread");
	fx_stack_add(&f, 5, "ext4_do_writepages, ext4_writepages, do_writepages, "
			    "__writeback_single_inode, write_inode_now, iput");
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	REQUIRE(a);
	REQUIRE(fsl_analysis__begin(a, &f.m) == 0);

	CHECK_EQ(feed_work(a, FSL_EV_WRITEBACK_START, S0 + 1 * MS, 301, 3), 0);
	CHECK_EQ(feed_wp(a, S0 + 2 * MS, 301, 4, 1), 0);
	CHECK_EQ(feed_work(a, FSL_EV_WRITEBACK_WRITTEN, S0 + 3 * MS, 301, 3), 0);
	CHECK_EQ(feed_wp(a, S0 + 4 * MS, 301, 2, 1), 0);	/* the flusher, no work seen */
	CHECK_EQ(feed_work(a, FSL_EV_WRITEBACK_START, S0 + 5 * MS, 301, 0), 0);
	CHECK_EQ(feed_wp(a, S0 + 6 * MS, 301, 2, -1), 0);	/* no stack, in the work */
	CHECK_EQ(feed_work(a, FSL_EV_WRITEBACK_WRITTEN, S0 + 7 * MS, 301, 0), 0);
	CHECK_EQ(feed_wp(a, S0 + 8 * MS, 101, 8, 2), 0);
	CHECK_EQ(feed_wp(a, S0 + 9 * MS, 101, 1, 3), 0);
	CHECK_EQ(feed_wp(a, S0 + 10 * MS, 300, 3, 4), 0);
	CHECK_EQ(feed_wp(a, S0 + 11 * MS, 101, 1, 5), 0);
	CHECK_EQ(feed_wp(a, S0 + 12 * MS, 101, 0, 2), 0);	/* wrote nothing: not a call */
	{
		/* a large folio of 8 pages with 2 dirty blocks: its bios say 8 KiB */
		struct fsl_ev_ext4_writepages_result ev;

		memset(&ev, 0, sizeof(ev));
		fx_hdr(&ev.hdr, FSL_EV_EXT4_WRITEPAGES_RESULT, sizeof(ev), S0 + 12 * MS, 101, 101);
		ev.dev = 7 << 20;
		ev.pages_written = 8;
		ev.stack_id = 2;
		ev.bytes = 8192;
		ev.bios = 1;
		ev.flags = FSL_WP_COUNTED;
		CHECK_EQ(fsl_analysis__feed(a, &ev.hdr), 0);
		/* the journal's call that put its 3 folios back dirty wrote nothing */
		fx_hdr(&ev.hdr, FSL_EV_EXT4_WRITEPAGES_RESULT, sizeof(ev), S0 + 12 * MS, 300, 300);
		ev.pages_written = 3;
		ev.pages_skipped = 3;
		ev.stack_id = 4;
		ev.bytes = 0;
		ev.flags = 0;
		CHECK_EQ(fsl_analysis__feed(a, &ev.hdr), 0);
		/*
		 * a call the probe saw inside the thread's fsync(2): no stack,
		 * fsync by its flag (on a thread that had a flusher work too)
		 */
		fx_hdr(&ev.hdr, FSL_EV_EXT4_WRITEPAGES_RESULT, sizeof(ev), S0 + 12 * MS, 301, 301);
		ev.pages_written = 1;
		ev.pages_skipped = 0;
		ev.stack_id = -1;
		ev.bytes = 4096;
		ev.flags = FSL_WP_COUNTED | FSL_WP_FSYNC_CALL;
		CHECK_EQ(fsl_analysis__feed(a, &ev.hdr), 0);
	}
	memset(&dio, 0, sizeof(dio));
	fx_hdr(&dio.hdr, FSL_EV_DIO_WRITE, sizeof(dio), S0 + 13 * MS, 0, 0);
	dio.dev = 7 << 20;
	dio.ret = 65536;
	dio.tid = 102;
	dio.aio = 1;
	CHECK_EQ(fsl_analysis__feed(a, &dio.hdr), 0);
	dio.ret = -5;	/* failed: nothing written */
	dio.hdr.ts += MS;
	CHECK_EQ(fsl_analysis__feed(a, &dio.hdr), 0);

	CHECK_EQ(feed_done(a, S0 + 20 * MS, 5000, 8, FSL_RQ_WRITE, 0), 0);
	CHECK_EQ(feed_done(a, S0 + 21 * MS, 5100, 5, FSL_RQ_WRITE | FSL_RQ_SYNC, 0), 0);
	CHECK_EQ(feed_done(a, S0 + 22 * MS, 6000, 1, FSL_RQ_WRITE | FSL_RQ_META, 0), 0);
	CHECK_EQ(feed_done(a, S0 + 23 * MS, 4, 1, FSL_RQ_WRITE, 0), 0);
	CHECK_EQ(feed_done(a, S0 + 24 * MS, 1010, 2, FSL_RQ_WRITE | FSL_RQ_META, 0), 0);
	CHECK_EQ(feed_done(a, S0 + 25 * MS, 7000, 4, FSL_RQ_READ, 0), 0);
	CHECK_EQ(feed_done(a, S0 + 26 * MS, 7100, 4, FSL_RQ_WRITE, -5), 0);

	w = fsl_analysis__writeback(a);
	REQUIRE(w);
	CHECK_EQ(w->page_size, 4096);
	CHECK_U64(w->cause_pages[FSL_WBC_PERIODIC], 4);
	CHECK_U64(w->cause_pages[FSL_WBC_FLUSHER_OTHER], 2);
	CHECK_U64(w->cause_pages[FSL_WBC_BACKGROUND], 2);
	CHECK_U64(w->cause_pages[FSL_WBC_FSYNC], 17);
	CHECK_U64(w->cause_bytes[FSL_WBC_FSYNC], 8 * 4096 + 8192 + 4096);
	CHECK_U64(w->cause_calls[FSL_WBC_FSYNC], 3);
	CHECK_U64(w->cause_pages[FSL_WBC_SYNC_WRITE], 1);
	CHECK_U64(w->cause_pages[FSL_WBC_JOURNAL], 3);
	CHECK_U64(w->cause_pages[FSL_WBC_OTHER], 1);
	CHECK_U64(w->cause_bytes[FSL_WBC_DIRECT], 65536);
	CHECK_U64(w->cause_calls[FSL_WBC_DIRECT], 1);
	CHECK_U64(w->cause_calls[FSL_WBC_JOURNAL], 1);
	CHECK_U64(w->data_bytes, 24 * 4096 + 65536);
	CHECK(w->have_device);
	CHECK_U64(w->dev_data_bytes, 13 * 4096);
	CHECK_U64(w->dev_meta_bytes, 2 * 4096);
	CHECK_U64(w->dev_journal_bytes, 2 * 4096);

	out = open_memstream(&buf, &len);
	REQUIRE(out);
	fsl_report__text(out, a, &(struct fsl_report_info){ .trace_path = "t" });
	fclose(out);
	unfold(buf);
	CHECK(strstr(buf, "the device's data writes: 52.0 KiB (metadata 8192 B, journal 8192 B); "
			"the causes account for 307.7% of them"));
	CHECK(strstr(buf, "fsync") && strstr(buf, "fsync/fdatasync: the file's own data"));
	free(buf);
	fsl_analysis__free(a);
}

/*
 * The text report fits 100 columns whatever its figures: the dirty line of
 * a machine with gigabytes dirty, which a CI run's report_journal caught
 * past 100 (the line was 99 with "dirty 520.0 KiB").
 */
TEST(wbcause_text_width)
{
	struct fx_meta f;
	struct fsl_analysis *a;
	struct fsl_ev_global_dirty_state ev;
	char *buf = NULL, *p, *nl;
	size_t len = 0, longest = 0;
	FILE *out;
	int err = 0;

	fx_init(&f);
	fx_set(&f, "target.dev", "7340032");
	fx_set(&f, "record.start_ns", "1000000000");
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	REQUIRE(a);
	REQUIRE(fsl_analysis__begin(a, &f.m) == 0);
	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_GLOBAL_DIRTY_STATE, sizeof(ev), S0 + MS, 301, 301);
	ev.nr_dirty = 300000000;	/* 1144.41 GiB: a 103-column line */
	ev.nr_writeback = 250000000;
	ev.dirty_thresh = 1234567890;
	ev.background_thresh = 617283945;
	CHECK_EQ(fsl_analysis__feed(a, &ev.hdr), 0);
	out = open_memstream(&buf, &len);
	REQUIRE(out);
	CHECK_EQ(fsl_report__text(out, a, &(struct fsl_report_info){ .trace_path = "t" }), 0);
	fclose(out);
	REQUIRE(buf);
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		if ((size_t)(nl - p) > longest)
			longest = (size_t)(nl - p);
	}
	CHECK(longest <= 100);
	/* folded, not cut: the line's words all there, the rest 4 columns further in */
	CHECK(strstr(buf, "\n  dirty 1144.41 GiB, writeback 953.67 GiB; limits: dirty 4709.50 GiB, "
			  "background 2354.75 GiB (last\n      seen)\n"));
	free(buf);
	fsl_analysis__free(a);
}
