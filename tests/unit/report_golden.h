/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The golden synthetic trace of the report tests (tests/data/golden.trace):
 * small, with every section's expected numbers computed by hand in
 * docs/report-json.md's example and in test_report_golden.c.
 *
 * Timeline (s from record.start_ns = 1 s; the trace spans 10 s):
 *  procs: sh 100 -> mkdir 101 (the workload, root_pid 100); bash 200;
 *         jbd2/loop0-8 300 and kworker/u8:1 301 (kernel threads)
 *  waits: mkdir 600+200+100 ms journal_log_space, 100 ms txn_locked;
 *         jbd2 400 ms other_io; bash 50 ms dir_block_read
 *  ops:   4 mkdir (100 us, 200 us, 300 us, 10 ms) in /mnt/golden/d,
 *         1 failing stat (50 us) in /mnt/golden, bash's 70 ms stat in
 *         /mnt/golden/big holding its 50 ms directory read, 1 stat outside
 *         the mount (not counted)
 *  journal: tids 11-14 (at 0.5, 2, 3, 4 s), commits of 2/4/6/8 ms triggered by timer, log space,
 *         fsync, full; jbd2 info start 10 txns avg 2000 us, end 14 txns 4393 us (the kernel times each commit from its flushing phase to run_stats: c - 201 us)
 *  writeback: 24 pages periodic, 100 background; ino 12 64 pages, ino 13 60;
 *         mkdir throttled 20 + 30 ms
 *  block: 4 requests with data on 7:0 (Q2C 1.1/2/4/1 ms), one completing twice
 *         (preflush), and a 2.5 ms cache flush; btt's D2D distances from
 *         sector 0: 1000, 0 (touching), -508 (from the previous start), 1484
 *  layout: inodes 12 and 13 interleaved at 5000..5028, two fragcheck breaks
 */
#ifndef FSL_REPORT_GOLDEN_H
#define FSL_REPORT_GOLDEN_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "fslens/trace.h"

#define G_S0	1000000000ull
#define G_MS	1000000ull
#define G_US	1000ull
#define G_T(s_ms) (G_S0 + (uint64_t)(s_ms) * G_MS)	/* time from ms after start */
#define G_DEV	FSL_MKDEV(7, 0)

static const char g_jbd2_start[] =
	"10 transactions (10 requested), each up to 256 blocks\n"
	"average: \n"
	"  0ms waiting for transaction\n"
	"  0ms request delay\n"
	"  5000ms running transaction\n"
	"  0ms transaction was being locked\n"
	"  0ms flushing data (in ordered mode)\n"
	"  4ms logging transaction\n"
	"  2000us average transaction commit time\n"
	"  10 handles per transaction\n"
	"  20 blocks per transaction\n"
	"  22 logged blocks per transaction\n";
static const char g_jbd2_end[] =
	"14 transactions (14 requested), each up to 256 blocks\n"
	"average: \n"
	"  0ms waiting for transaction\n"
	"  0ms request delay\n"
	"  2500ms running transaction\n"
	"  0ms transaction was being locked\n"
	"  0ms flushing data (in ordered mode)\n"
	"  4ms logging transaction\n"
	"  4393us average transaction commit time\n"
	"  16 handles per transaction\n"
	"  48 blocks per transaction\n"
	"  50 logged blocks per transaction\n";

static int g_ev(struct fsl_writer *w, void *ev, unsigned int type, size_t size, uint64_t ts,
		uint32_t pid, uint32_t tid)
{
	struct fsl_hdr *h = ev;

	h->ts = ts;
	h->pid = pid;
	h->tid = tid;
	h->type = type;
	h->size = size;
	return fsl_writer__event(w, h);
}

static int g_proc(struct fsl_writer *w, uint64_t ts, uint32_t pid, uint32_t ppid, unsigned int kind,
		  unsigned int flags, const char *comm)
{
	struct fsl_ev_proc e;

	memset(&e, 0, sizeof(e));
	e.ppid = ppid;
	e.kind = kind;
	e.flags = flags;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	return g_ev(w, &e, FSL_EV_PROC, sizeof(e), ts, pid, pid);
}

static int g_wait(struct fsl_writer *w, uint64_t ts, uint32_t pid, uint64_t dur, int32_t stack)
{
	struct fsl_ev_offcpu e;

	memset(&e, 0, sizeof(e));
	e.dur_ns = dur;
	e.stack_id = stack;
	e.state = FSL_OFFCPU_UNINTERRUPTIBLE;
	return g_ev(w, &e, FSL_EV_OFFCPU, sizeof(e), ts, pid, pid);
}

static int g_dirop(struct fsl_writer *w, uint64_t ts, uint32_t pid, unsigned int op, uint64_t lat,
		   int64_t ret, const char *path)
{
	union {
		struct fsl_ev_dirop e;
		char b[sizeof(struct fsl_ev_dirop) + 264];
	} u;
	size_t n = strlen(path);

	memset(&u, 0, sizeof(u));
	u.e.lat_ns = lat;
	u.e.ret = ret;
	u.e.dirfd = -100;
	u.e.op = op;
	u.e.path_len = n;
	memcpy(u.e.paths, path, n);
	return g_ev(w, &u.e, FSL_EV_DIROP, fsl_dirop_size(n, 0), ts, pid, pid);
}

static int g_commit(struct fsl_writer *w, unsigned int type, uint64_t ts, uint32_t tid, int sync)
{
	struct fsl_ev_jbd2_commit e;

	memset(&e, 0, sizeof(e));
	e.dev = G_DEV;
	e.transaction = tid;
	e.sync_commit = sync;
	return g_ev(w, &e, type, sizeof(e), ts, 300, 300);
}

/* One transaction: phases at start + 0.1/0.2/0.5 ms, end at start + commit_ms. */
static int g_txn(struct fsl_writer *w, uint64_t start, uint32_t tid, uint64_t commit_ms, int sync,
		 uint64_t running_j, uint32_t handles, uint32_t blocks, uint32_t logged)
{
	struct fsl_ev_jbd2_run_stats rs;
	int err = 0;

	err |= g_commit(w, FSL_EV_JBD2_START_COMMIT, start, tid, sync);
	err |= g_commit(w, FSL_EV_JBD2_COMMIT_LOCKING, start + 100 * G_US, tid, sync);
	err |= g_commit(w, FSL_EV_JBD2_COMMIT_FLUSHING, start + 200 * G_US, tid, sync);
	err |= g_commit(w, FSL_EV_JBD2_COMMIT_LOGGING, start + 500 * G_US, tid, sync);
	memset(&rs, 0, sizeof(rs));
	rs.dev = G_DEV;
	rs.tid = tid;
	rs.running = running_j;
	rs.logging = 1;
	rs.handle_count = handles;
	rs.blocks = blocks;
	rs.blocks_logged = logged;
	err |= g_ev(w, &rs, FSL_EV_JBD2_RUN_STATS, sizeof(rs), start + commit_ms * G_MS - 1000, 300, 300);
	err |= g_commit(w, FSL_EV_JBD2_END_COMMIT, start + commit_ms * G_MS, tid, sync);
	return err;
}

static int g_jstart(struct fsl_writer *w, uint64_t ts, uint64_t wait, int type, uint32_t line)
{
	struct fsl_ev_ext4_journal_start js;
	struct fsl_ev_jbd2_handle_start hs;
	int err = 0;

	memset(&js, 0, sizeof(js));
	js.dev = G_DEV;
	js.blocks = 8;
	js.ino = 14;
	js.ip = 0xffffffff81234560ull;
	js.type = type;
	err |= g_ev(w, &js, FSL_EV_EXT4_JOURNAL_START_INODE, sizeof(js), ts, 101, 101);
	memset(&hs, 0, sizeof(hs));
	hs.dev = G_DEV;
	hs.tid = 11;
	hs.type = type;
	hs.line_no = line;
	hs.requested_blocks = 8;
	err |= g_ev(w, &hs, FSL_EV_JBD2_HANDLE_START, sizeof(hs), ts + wait, 101, 101);
	return err;
}

static int g_rq(struct fsl_writer *w, unsigned int type, uint64_t ts, uint32_t pid, uint64_t sector,
		uint32_t nr, uint32_t flags, uint64_t rq)
{
	struct fsl_ev_block_rq e;

	memset(&e, 0, sizeof(e));
	e.dev = G_DEV;
	e.sector = sector;
	e.nr_sector = nr;
	e.bytes = nr * 512;
	e.flags = flags;
	e.rq = rq;
	return g_ev(w, &e, type, sizeof(e), ts, pid, pid);
}

static int g_map_alloc(struct fsl_writer *w, uint64_t ts, uint64_t ino, uint32_t lblk, uint64_t pblk,
		       uint32_t len, uint32_t aflags, int via_pa)
{
	struct fsl_ev_ext4_alloc_blocks ab;
	struct fsl_ev_ext4_mballoc_alloc pa;
	struct fsl_ev_ext4_map_blocks mb;
	int err = 0;

	if (via_pa) {
		memset(&pa, 0, sizeof(pa));
		pa.dev = G_DEV;
		pa.ino = ino;
		pa.result_start = pblk;
		pa.result_len = len;
		err |= g_ev(w, &pa, FSL_EV_EXT4_MBALLOC_PREALLOC, sizeof(pa), ts, 301, 301);
	}
	if (aflags != ~0u) {
		memset(&ab, 0, sizeof(ab));
		ab.dev = G_DEV;
		ab.ino = ino;
		ab.logical = lblk;
		ab.block = pblk;
		ab.len = len;
		ab.flags = aflags;
		err |= g_ev(w, &ab, FSL_EV_EXT4_ALLOCATE_BLOCKS, sizeof(ab), ts + 1, 301, 301);
	}
	memset(&mb, 0, sizeof(mb));
	mb.dev = G_DEV;
	mb.ino = ino;
	mb.lblk = lblk;
	mb.pblk = pblk;
	mb.len = len;
	mb.ret = len;
	mb.mflags = 0x20 | 0x10;
	err |= g_ev(w, &mb, FSL_EV_EXT4_EXT_MAP_BLOCKS_EXIT, sizeof(mb), ts + 2, 301, 301);
	return err;
}

static int g_inode(struct fsl_writer *w, unsigned int type, uint64_t ts, uint64_t ino, uint16_t mode)
{
	struct fsl_ev_ext4_inode e;

	memset(&e, 0, sizeof(e));
	e.dev = G_DEV;
	e.ino = ino;
	e.dir = 2;
	e.mode = mode;
	return g_ev(w, &e, type, sizeof(e), ts, 101, 101);
}

static int g_write_golden(const char *path)
{
	static const char *const st1[] = {
		"__schedule+0x2e4/0x8a0", "schedule+0x27/0xa0", "io_schedule+0x46/0x70",
		"blk_mq_get_tag+0x11e/0x2a0", "__blk_mq_alloc_requests+0x1a6/0x3b0",
		"blk_mq_submit_bio+0x2c6/0x750", "__submit_bio+0x8f/0x1c0", "__flush_batch+0x5d/0xa0",
		"jbd2_log_do_checkpoint+0x2e1/0x430", "__jbd2_log_wait_for_space+0x9b/0x200",
		"add_transaction_credits+0x2a8/0x2f0", "start_this_handle+0xef/0x520",
		"jbd2__journal_start+0xfb/0x200", "__ext4_new_inode+0x721/0x1580",
		"ext4_mkdir+0xe3/0x330", "vfs_mkdir+0x19b/0x230", "do_mkdirat+0x13b/0x160",
		"__x64_sys_mkdir+0x2c/0x40", "do_syscall_64+0x5d/0x170",
	};
	static const char *const st2[] = {
		"__schedule", "schedule", "wait_transaction_locked", "add_transaction_credits",
		"start_this_handle", "jbd2__journal_start", "__ext4_new_inode", "ext4_mkdir",
	};
	static const char *const st3[] = {
		"__schedule", "schedule", "io_schedule", "bit_wait_io", "__wait_on_bit",
		"jbd2_journal_commit_transaction", "kjournald2", "kthread", "ret_from_fork",
	};
	static const char *const st4[] = {
		"__schedule", "io_schedule", "bit_wait_io", "ext4_read_bh", "ext4_bread",
		"__ext4_read_dirblock", "ext4_dx_find_entry", "__ext4_find_entry", "ext4_lookup",
	};
	/* written section by section, not in time order: one window over all of it */
	struct fsl_writer_opts wo = { .force = 1, .reorder_ns = 3600 * G_S0 };
	struct fsl_stack st;
	struct fsl_writer *w;
	int err = 0;

	w = fsl_writer__open(path, &wo, &err);
	if (!w)
		return err;
	err |= fsl_writer__kv(w, FSL_KV_HOSTNAME, "golden");
	err |= fsl_writer__kv(w, FSL_KV_KERNEL, "6.18.0-golden");
	err |= fsl_writer__kv(w, FSL_KV_HZ, "250");
	err |= fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/golden");
	err |= fsl_writer__kv(w, FSL_KV_DEV, "%u", G_DEV);
	err |= fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	err |= fsl_writer__kv(w, FSL_KV_MIN_WAIT_US, "10");
	err |= fsl_writer__kv(w, FSL_KV_PROBE_MODE, "tracepoint");
	err |= fsl_writer__kv(w, FSL_KV_COMMAND, "sh -c 'mkdir d/1 d/2 d/3 d/4'");
	err |= fsl_writer__kv(w, FSL_KV_ROOT_PID, "100");
	err |= fsl_writer__kv(w, FSL_KV_START_NS, "%llu", (unsigned long long)G_S0);
	err |= fsl_writer__kv(w, FSL_KV_END_NS, "%llu", (unsigned long long)(G_S0 + 10000 * G_MS));
	err |= fsl_writer__kv(w, "ext4.journal_bytes", "%u", 1048576);
	err |= fsl_writer__kv(w, "ext4.inodes_per_group", "%u", 8);
	err |= fsl_writer__kv(w, "ext4.blocks_per_group", "%u", 1024);
	err |= fsl_writer__kv(w, "ext4.first_data_block", "%u", 0);
	err |= fsl_writer__text(w, "jbd2.info.start", g_jbd2_start, sizeof(g_jbd2_start) - 1);
	err |= fsl_writer__text(w, "jbd2.info.end", g_jbd2_end, sizeof(g_jbd2_end) - 1);
	st = (struct fsl_stack){ 1, sizeof(st1) / sizeof(st1[0]), (char **)st1 };
	err |= fsl_writer__stack(w, &st);
	st = (struct fsl_stack){ 2, sizeof(st2) / sizeof(st2[0]), (char **)st2 };
	err |= fsl_writer__stack(w, &st);
	st = (struct fsl_stack){ 3, sizeof(st3) / sizeof(st3[0]), (char **)st3 };
	err |= fsl_writer__stack(w, &st);
	st = (struct fsl_stack){ 4, sizeof(st4) / sizeof(st4[0]), (char **)st4 };
	err |= fsl_writer__stack(w, &st);
	err |= fsl_writer__sym(w, 0xffffffff81234560ull, "ext4_mkdir+0x120");

	/* tasks */
	err |= g_proc(w, G_T(0), 100, 1, FSL_PROC_SEEN, 0, "sh");
	err |= g_proc(w, G_T(0), 200, 1, FSL_PROC_SEEN, 0, "bash");
	err |= g_proc(w, G_T(0), 300, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "jbd2/loop0-8");
	err |= g_proc(w, G_T(0), 301, 2, FSL_PROC_SEEN, FSL_PROC_KTHREAD, "kworker/u8:1");
	err |= g_proc(w, G_T(1), 101, 100, FSL_PROC_FORK, 0, "mkdir");

	/* dirops (entry times; they complete at ts + lat) */
	err |= g_dirop(w, G_T(100), 101, FSL_OP_MKDIR, 100 * G_US, 0, "/mnt/golden/d/1");
	err |= g_dirop(w, G_T(200), 101, FSL_OP_MKDIR, 200 * G_US, 0, "/mnt/golden/d/2");
	err |= g_dirop(w, G_T(300), 101, FSL_OP_MKDIR, 300 * G_US, 0, "/mnt/golden/d/3");
	err |= g_dirop(w, G_T(400), 101, FSL_OP_MKDIR, 10 * G_MS, 0, "/mnt/golden/d/4");
	err |= g_dirop(w, G_T(450), 101, FSL_OP_STAT, 50 * G_US, -2, "/mnt/golden/x");
	/* bash's stat holds its 50 ms directory read; a call on another fs */
	err |= g_dirop(w, G_T(4990), 200, FSL_OP_STAT, 70 * G_MS, 0, "/mnt/golden/big/x");
	err |= g_dirop(w, G_T(4995), 101, FSL_OP_STAT, 10 * G_US, 0, "/usr/lib/locale/x");

	/* handle starts: dir/123 waits 0.5 ms and 1.5 ms, inode/77 none */
	err |= g_jstart(w, G_T(110), 500 * G_US, 4, 123);
	err |= g_jstart(w, G_T(210), 1500 * G_US, 4, 123);
	err |= g_jstart(w, G_T(310), 0, 1, 77);

	/* waits */
	err |= g_wait(w, G_T(1000), 101, 600 * G_MS, 1);
	err |= g_wait(w, G_T(1500), 300, 400 * G_MS, 3);
	err |= g_wait(w, G_T(2000), 101, 200 * G_MS, 1);
	err |= g_wait(w, G_T(3000), 101, 100 * G_MS, 1);
	err |= g_wait(w, G_T(4000), 101, 100 * G_MS, 2);
	err |= g_wait(w, G_T(5000), 200, 50 * G_MS, 4);

	/* journal: timer, log space (a checkpoint before), fsync (in flight), full */
	err |= g_txn(w, G_T(500), 11, 2, 0, 1250, 10, 20, 22);
	{
		struct fsl_ev_jbd2_checkpoint cp = { .dev = G_DEV, .result = 0 };
		struct fsl_ev_jbd2_checkpoint_stats cs = { .dev = G_DEV, .tid = 10, .chp_time = 2,
							    .written = 16 };
		struct fsl_ev_jbd2_lock_buffer_stall lb = { .dev = G_DEV, .stall_ms = 3 };

		err |= g_ev(w, &cp, FSL_EV_JBD2_CHECKPOINT, sizeof(cp), G_T(2900), 101, 101);
		err |= g_ev(w, &cs, FSL_EV_JBD2_CHECKPOINT_STATS, sizeof(cs), G_T(2950), 101, 101);
		err |= g_ev(w, &lb, FSL_EV_JBD2_LOCK_BUFFER_STALL, sizeof(lb), G_T(2960), 300, 300);
	}
	err |= g_txn(w, G_T(3000), 12, 4, 0, 250, 30, 60, 64);
	{
		struct fsl_ev_ext4_file_op fo = { .dev = G_DEV, .ino = 12, .parent = 2 };

		err |= g_ev(w, &fo, FSL_EV_EXT4_SYNC_FILE_ENTER, sizeof(fo), G_T(3990), 101, 101);
		err |= g_txn(w, G_T(4000), 13, 6, 1, 100, 5, 8, 10);
		err |= g_ev(w, &fo, FSL_EV_EXT4_SYNC_FILE_EXIT, sizeof(fo), G_T(4010), 101, 101);
	}
	err |= g_txn(w, G_T(5000), 14, 8, 0, 50, 40, 240, 244);

	/* writeback: flusher 301 */
	{
		struct fsl_ev_writeback_work ww;
		struct fsl_ev_writeback_single_inode si;
		struct fsl_ev_balance_dirty_pages bd;
		struct fsl_ev_global_dirty_state gd;

		memset(&ww, 0, sizeof(ww));
		ww.dev = G_DEV;
		ww.reason = 3;
		ww.nr_pages = 1024;
		err |= g_ev(w, &ww, FSL_EV_WRITEBACK_START, sizeof(ww), G_T(6000), 301, 301);
		memset(&si, 0, sizeof(si));
		si.dev = G_DEV;
		si.ino = 12;
		si.wrote = 24;
		err |= g_ev(w, &si, FSL_EV_WRITEBACK_SINGLE_INODE, sizeof(si), G_T(6050), 301, 301);
		ww.nr_pages = 1000;
		err |= g_ev(w, &ww, FSL_EV_WRITEBACK_WRITTEN, sizeof(ww), G_T(6100), 301, 301);
		ww.reason = 0;
		ww.nr_pages = LONG_MAX;
		err |= g_ev(w, &ww, FSL_EV_WRITEBACK_START, sizeof(ww), G_T(7000), 301, 301);
		si.ino = 13;
		si.wrote = 60;
		err |= g_ev(w, &si, FSL_EV_WRITEBACK_SINGLE_INODE, sizeof(si), G_T(7100), 301, 301);
		si.ino = 12;
		si.wrote = 40;
		err |= g_ev(w, &si, FSL_EV_WRITEBACK_SINGLE_INODE, sizeof(si), G_T(7110), 301, 301);
		ww.nr_pages = LONG_MAX - 100;
		err |= g_ev(w, &ww, FSL_EV_WRITEBACK_WRITTEN, sizeof(ww), G_T(7200), 301, 301);
		memset(&bd, 0, sizeof(bd));
		bd.dev = G_DEV;
		bd.pause = 20;
		err |= g_ev(w, &bd, FSL_EV_BALANCE_DIRTY_PAGES, sizeof(bd), G_T(7500), 101, 101);
		bd.pause = 30;
		err |= g_ev(w, &bd, FSL_EV_BALANCE_DIRTY_PAGES, sizeof(bd), G_T(7600), 101, 101);
		bd.pause = 0;
		err |= g_ev(w, &bd, FSL_EV_BALANCE_DIRTY_PAGES, sizeof(bd), G_T(7700), 100, 100);
		memset(&gd, 0, sizeof(gd));
		gd.nr_dirty = 5000;
		gd.nr_writeback = 200;
		gd.background_thresh = 2560;
		gd.dirty_thresh = 5120;
		err |= g_ev(w, &gd, FSL_EV_GLOBAL_DIRTY_STATE, sizeof(gd), G_T(7500), 101, 101);
	}

	/* block I/O on 7:0 (times in us after 6 s) */
#define U(us) (G_T(6000) + (uint64_t)(us) * G_US)
	err |= g_rq(w, FSL_EV_BLOCK_RQ_INSERT, U(0), 301, 1000, 8, FSL_RQ_WRITE, 1);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_ISSUE, U(100), 301, 1000, 8, FSL_RQ_WRITE, 1);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_COMPLETE, U(1100), 0, 1000, 8, FSL_RQ_WRITE, 1);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_ISSUE, U(2000), 300, 1008, 8, FSL_RQ_WRITE | FSL_RQ_META, 2);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_COMPLETE, U(4000), 0, 1008, 8, FSL_RQ_WRITE | FSL_RQ_META, 2);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_INSERT, U(5000), 101, 500, 16, FSL_RQ_READ, 3);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_ISSUE, U(6000), 101, 500, 16, FSL_RQ_READ, 3);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_COMPLETE, U(9000), 0, 500, 16, FSL_RQ_READ, 3);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_ISSUE, U(10000), 300, 2000, 8, FSL_RQ_WRITE | FSL_RQ_FLUSH, 4);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_MERGE, U(10500), 300, 2008, 8, FSL_RQ_WRITE, 99);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_COMPLETE, U(11000), 0, 2000, 8, FSL_RQ_WRITE | FSL_RQ_FLUSH, 4);
	/* the kernel's second, zero-byte completion of a preflush request */
	err |= g_rq(w, FSL_EV_BLOCK_RQ_COMPLETE, U(11200), 0, 2000, 0, FSL_RQ_WRITE, 4);
	/* a cache flush: no data, sector -1 as the kernel traces it, 2.5 ms */
	err |= g_rq(w, FSL_EV_BLOCK_RQ_ISSUE, U(12000), 300, UINT64_MAX, 0, FSL_RQ_FLUSH | FSL_RQ_NONE, 5);
	err |= g_rq(w, FSL_EV_BLOCK_RQ_COMPLETE, U(14500), 0, UINT64_MAX, 0, FSL_RQ_FLUSH | FSL_RQ_NONE, 5);
#undef U

	/* layout: files 12 and 13 interleaved by writeback, dir 14, 15 freed */
	err |= g_inode(w, FSL_EV_EXT4_ALLOCATE_INODE, G_T(50), 12, 0100644);
	err |= g_inode(w, FSL_EV_EXT4_ALLOCATE_INODE, G_T(51), 13, 0100644);
	err |= g_inode(w, FSL_EV_EXT4_ALLOCATE_INODE, G_T(52), 14, 040755);
	err |= g_map_alloc(w, G_T(6050), 12, 0, 5000, 8, 0x420, 0);
	err |= g_map_alloc(w, G_T(6060), 13, 0, 5008, 8, 0x420, 0);
	err |= g_map_alloc(w, G_T(6070), 12, 8, 5016, 8, 0x420, 0);
	err |= g_map_alloc(w, G_T(6080), 13, 8, 5024, 4, 0x4a0, 1);
	err |= g_map_alloc(w, G_T(6090), 14, 0, 9000, 1, 0x4, 0);
	err |= g_map_alloc(w, G_T(6091), 14, 1, 9001, 1, 0x4, 0);
	err |= g_map_alloc(w, G_T(6092), 15, 0, 7000, 4, ~0u, 0);
	{
		struct fsl_ev_ext4_free_blocks fb = { .dev = G_DEV, .ino = 15, .block = 7000, .count = 4 };

		err |= g_ev(w, &fb, FSL_EV_EXT4_FREE_BLOCKS, sizeof(fb), G_T(6093), 101, 101);
	}
	err |= fsl_writer__lost(w, FSL_FAM_OFFCPU, 3);
	if (err) {
		fsl_writer__abort(w);
		return -EIO;
	}
	return fsl_writer__close(w);
}

#endif
