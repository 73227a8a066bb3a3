// SPDX-License-Identifier: GPL-2.0
/* The top screen drawn into the memory terminal from hand-made snapshots. */
#include <stdlib.h>
#include <string.h>
#include "fslens/analysis.h"
#include "t.h"
#include "../../tui/screen.h"

void top_stack_compact(const char *const *frames, unsigned int n, char *buf, size_t len);

static const char *const stack_a[] = {
	"__schedule+0x2a", "schedule+0x10", "io_schedule+0x12", "blk_mq_get_tag+0x100",
	"__flush_batch+0x40", "jbd2_log_do_checkpoint+0x90", "__jbd2_log_wait_for_space+0x70",
	"start_this_handle+0x120", "__ext4_new_inode+0x300", "ext4_mkdir+0x150",
};

static void make_snap(struct top_snap *s)
{
	static const struct { uint32_t pid; const char *comm; double ops, p99, jrnl, rd; } p[] = {
		{ 101, "mkdir", 500.0, 3.25, 700.0, 0.0 },
		{ 202, "kworker/u8:1", 0.0, 0.0, 0.0, 0.0 },
		{ 303, "tar", 1200.0, 0.5, 20.0, 12.5 },
		{ 404, "jbd2/loop0-8", 0.0, 0.0, 0.0, 0.0 },
		{ 505, "mkdir", 50.0, 1.0, 5.0, 0.0 },
	};
	unsigned int i;

	memset(s, 0, sizeof(*s));
	snprintf(s->hdr.target, sizeof(s->hdr.target), "/mnt/scratch");
	snprintf(s->hdr.dev, sizeof(s->hdr.dev), "7:0");
	snprintf(s->hdr.source, sizeof(s->hdr.source), "replay x1");
	s->hdr.elapsed_s = 12.34;
	s->hdr.window_s = 1.0;
	s->hdr.ops_s = 1750.0;
	s->hdr.creates_s = 550.0;
	s->hdr.iops = 321.0;
	s->hdr.write_mbs = 4.5;
	s->hdr.seeks_s = 12.0;
	s->hdr.commits_s = 5.0;
	s->hdr.commit_avg_ms = 12.5;
	s->nprocs = sizeof(p) / sizeof(p[0]);
	s->procs = calloc(s->nprocs, sizeof(*s->procs));
	for (i = 0; i < s->nprocs; i++) {
		s->procs[i].pid = p[i].pid;
		snprintf(s->procs[i].comm, sizeof(s->procs[i].comm), "%s", p[i].comm);
		s->procs[i].ops_s = p[i].ops;
		s->procs[i].p99_ms = p[i].p99;
		s->procs[i].blocked_ms_s[TOP_WG_JOURNAL] = p[i].jrnl;
		s->procs[i].blocked_total_ms_s = p[i].jrnl;	/* the only class blocked */
		s->procs[i].avg_ms = p[i].p99 / 2;
		s->procs[i].read_mbs = p[i].rd;
	}
	s->nstalls = 2;
	s->stalls = calloc(2, sizeof(*s->stalls));
	snprintf(s->stalls[0].cls, sizeof(s->stalls[0].cls), "txn_locked");
	s->stalls[0].ms_s = 25.0;
	snprintf(s->stalls[1].cls, sizeof(s->stalls[1].cls), "journal_log_space");
	s->stalls[1].ms_s = 700.0;
	s->stalls[1].frames = stack_a;
	s->stalls[1].nframes = sizeof(stack_a) / sizeof(stack_a[0]);
	for (i = 0; i < 8; i++)
		s->stalls[1].hist[i] = i * 100.0;
	s->stalls[1].nhist = 8;
}

/* Row of the screen that contains needle, or -1. */
static int find_row(struct tui_term *t, const char *needle)
{
	int y;

	for (y = 0; y < tui_term__rows(t); y++)
		if (strstr(tui_term__row_text(t, y), needle))
			return y;
	return -1;
}

static void dump(struct tui_term *t)
{
	int y;

	for (y = 0; y < tui_term__rows(t); y++)
		fprintf(stderr, "  |%s\n", tui_term__row_text(t, y));
}

/* The pids in the order the processes view shows them, as "101,303,...". */
static void proc_order(struct tui_term *t, char *buf, size_t n)
{
	int y, hdr = find_row(t, "PID COMM");

	if (hdr < 0)
		hdr = find_row(t, "PROCS COMM");	/* grouped by program: the counts */

	buf[0] = 0;
	for (y = hdr + 1; hdr >= 0 && y < tui_term__rows(t) - 1; y++) {
		const char *r = tui_term__row_text(t, y);
		unsigned int pid;

		if (sscanf(r, "%u", &pid) != 1)
			break;
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%u", buf[0] ? "," : "", pid);
	}
}

TEST(tui_header_80x24)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;
	int y;

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	top_screen__update(&s, &snap);
	top_screen__draw(&s, &snap);
	CHECK(strstr(tui_term__row_text(t, 0), "/mnt/scratch (7:0)"));
	CHECK(strstr(tui_term__row_text(t, 0), "elapsed 12.3s"));
	CHECK(find_row(t, "ops/s 1750.0") >= 1);
	CHECK(find_row(t, "creates/s 550.0") >= 1);
	CHECK(find_row(t, "IOPS 321.0") >= 1);
	CHECK(find_row(t, "write MB/s 4.50") >= 1);
	CHECK(find_row(t, "commits/s 5.00") >= 1);
	CHECK(find_row(t, "avg commit ms 12.50") >= 1);
	/* no global_dirty_state seen: shown as unknown, not as zero */
	CHECK(find_row(t, "dirty MB -") >= 1);
	y = find_row(t, "lost 0");
	CHECK(y >= 1);
	/* Header fits in two rows at 80 columns, every line within the width. */
	CHECK_EQ(top_screen__header_rows(&s, &snap), 3);
	CHECK(find_row(t, "1:procs") == 4);
	CHECK(find_row(t, "q quit") == 23);
	for (y = 0; y < 24; y++)
		CHECK(strlen(tui_term__row_text(t, y)) <= 80 * 3);
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

TEST(tui_lost_is_red)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;
	const char *r, *p;
	int y;

	REQUIRE(t);
	make_snap(&snap);
	snap.hdr.lost = 42;
	top_screen__init(&s, t);
	top_screen__update(&s, &snap);
	top_screen__draw(&s, &snap);
	y = find_row(t, "lost 42");
	REQUIRE(y >= 0);
	r = tui_term__row_text(t, y);
	p = strstr(r, "lost 42");
	CHECK_EQ(tui_term__attr_at(t, y, (int)(p - r) + 5), TUI_A_WARN);
	CHECK_EQ(tui_term__attr_at(t, y, (int)(p - r)), TUI_A_LABEL);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

TEST(tui_sort_reverse_filter)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;
	char order[128];

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	s.views[0]->sort_col = s.views[0]->default_sort;
	s.views[0]->reverse = 0;
	top_screen__update(&s, &snap);
	top_screen__draw(&s, &snap);
	/* default: BLKms (blocked in every class) descending, ties in snapshot order */
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "101,303,505,202,404");
	CHECK(find_row(t, "sort BLKms") == 4);
	/* > : OPS/s */
	top_screen__key(&s, &snap, '>');
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "303,101,505,202,404");
	/* > : P99ms */
	top_screen__key(&s, &snap, '>');
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "101,505,303,202,404");
	/* r: reversed */
	top_screen__key(&s, &snap, 'r');
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "202,404,303,505,101");
	/* < < < : back over OPS/s and BLKms to COMM, names sort A..Z */
	top_screen__key(&s, &snap, '<');
	top_screen__key(&s, &snap, '<');
	top_screen__key(&s, &snap, '<');
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "404,202,101,505,303");
	CHECK(find_row(t, "sort COMM") == 4);
	/* f mkdir Enter: only the two mkdir */
	top_screen__key(&s, &snap, 'f');
	CHECK_EQ(s.overlay, TOP_OV_FILTER);
	top_screen__key(&s, &snap, 'm');
	top_screen__key(&s, &snap, 'k');
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "filter by comm or pid: mk_") == 23);
	top_screen__key(&s, &snap, 'd');
	top_screen__key(&s, &snap, 'i');
	top_screen__key(&s, &snap, 'r');
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "101,505");
	CHECK(find_row(t, "filter mkdir") == 4);
	/* a pid filter is exact: 30 matches nothing, 303 matches tar */
	top_screen__key(&s, &snap, 'f');
	top_screen__key(&s, &snap, TUI_KEY_BACKSPACE);
	top_screen__key(&s, &snap, TUI_KEY_BACKSPACE);
	top_screen__key(&s, &snap, TUI_KEY_BACKSPACE);
	top_screen__key(&s, &snap, TUI_KEY_BACKSPACE);
	top_screen__key(&s, &snap, TUI_KEY_BACKSPACE);
	top_screen__key(&s, &snap, '3');
	top_screen__key(&s, &snap, '0');
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "");
	CHECK(find_row(t, "no process did filesystem work") >= 0);
	/* the prompt starts empty: the pid is typed whole */
	top_screen__key(&s, &snap, 'f');
	top_screen__key(&s, &snap, '3');
	top_screen__key(&s, &snap, '0');
	top_screen__key(&s, &snap, '3');
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "303");
	/* a list of pids (top -p 101,303): any of them */
	top_screen__key(&s, &snap, 'f');
	for (const char *k = "101,303"; *k; k++)
		top_screen__key(&s, &snap, *k);
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "101,303");
	/* Esc clears the filter */
	top_screen__key(&s, &snap, TUI_KEY_ESC);
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "404,202,101,505,303");
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

TEST(tui_cursor_follows_row)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;
	const struct top_proc *p;

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	s.views[0]->sort_col = s.views[0]->default_sort;
	s.views[0]->reverse = 0;
	s.views[0]->sel = 0;
	s.views[0]->have_sel = 0;
	top_screen__update(&s, &snap);
	top_screen__draw(&s, &snap);
	top_screen__key(&s, &snap, TUI_KEY_DOWN);	/* 101 -> 303 */
	p = top_view__selected(s.views[0], &snap);
	REQUIRE(p);
	CHECK_EQ(p->pid, 303);
	/* 303 becomes the most blocked: it moves to the top and the cursor with it */
	snap.procs[2].blocked_total_ms_s = 5000;
	top_screen__update(&s, &snap);
	p = top_view__selected(s.views[0], &snap);
	REQUIRE(p);
	CHECK_EQ(p->pid, 303);
	CHECK_EQ(s.views[0]->sel, 0);
	/* Enter: details of that process */
	CHECK_EQ(top_screen__key(&s, &snap, TUI_KEY_ENTER), TOP_REDRAW_ALL);
	CHECK_EQ(s.overlay, TOP_OV_DETAILS);
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "process 303 (tar)") >= 0);
	CHECK(find_row(t, "journal                    20.0 ms/s") >= 0);
	top_screen__key(&s, &snap, TUI_KEY_ESC);
	CHECK_EQ(s.overlay, TOP_OV_NONE);
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

TEST(tui_stalls_view_and_stack)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;
	int y;

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	top_screen__key(&s, &snap, '2');
	s.views[1]->sel = 0;
	s.views[1]->have_sel = 0;
	top_screen__update(&s, &snap);
	top_screen__draw(&s, &snap);
	y = find_row(t, "journal_log_space");
	CHECK(y >= 0);
	CHECK(find_row(t, "txn_locked") == y + 1);
	/* compact stack skips the scheduler frames and drops offsets */
	CHECK(strstr(tui_term__row_text(t, y), "blk_mq_get_tag<__flush_b"));
	{
		char buf[512];

		top_stack_compact(stack_a, 10, buf, sizeof(buf));
		CHECK_STR(buf, "blk_mq_get_tag<__flush_batch<jbd2_log_do_checkpoint<"
			  "__jbd2_log_wait_for_space<start_this_handle<__ext4_new_inode<ext4_mkdir");
		top_stack_compact(stack_a, 3, buf, sizeof(buf));
		CHECK_STR(buf, "__schedule<schedule<io_schedule");
		top_stack_compact(stack_a, 10, buf, 12);
		CHECK_STR(buf, "blk_mq_get_");
	}
	/* sparkline: 8 values 0..700, newest right; 0 is blank, 700 a full block */
	CHECK(strstr(tui_term__row_text(t, y),
		     "     \u2582\u2583\u2584\u2585\u2586\u2587\u2588 "));
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "wait class journal_log_space") >= 0);
	CHECK(find_row(t, " 0  __schedule+0x2a") >= 0);
	CHECK(find_row(t, " 9  ext4_mkdir+0x150") >= 0);
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

TEST(tui_help_and_resize)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	top_screen__key(&s, &snap, '1');
	top_screen__key(&s, &snap, 'h');
	top_screen__draw(&s, &snap);
	CHECK_EQ(s.overlay, TOP_OV_HELP);
	CHECK(find_row(t, "processes view columns (blocked ms/s by cause):") >= 0);
	CHECK(find_row(t, "space       pause") >= 0);
	/* the column lines are further down: PgDn scrolls the help */
	CHECK(find_row(t, "P99ms        99th percentile latency") < 0);
	top_screen__key(&s, &snap, TUI_KEY_PGDN);
	top_screen__draw(&s, &snap);
	CHECK_EQ(s.overlay, TOP_OV_HELP);
	CHECK(find_row(t, "P99ms        99th percentile latency") >= 0);
	/* q in help goes back, it does not quit */
	top_screen__key(&s, &snap, 'q');
	CHECK_EQ(s.overlay, TOP_OV_NONE);
	CHECK_EQ(s.quit, 0);
	/* narrow: the header flows onto more rows, tabs and footer stay inside */
	tui_term__resize(t, 24, 50);
	top_screen__draw(&s, &snap);
	CHECK(top_screen__header_rows(&s, &snap) >= 3);
	CHECK(find_row(t, "ops/s 1750.0") >= 1);
	CHECK(find_row(t, "lost 0") >= 1);
	CHECK(find_row(t, "q quit") == 23);
	/* too small: says so instead of drawing garbage */
	tui_term__resize(t, 8, 30);
	top_screen__draw(&s, &snap);
	CHECK(strstr(tui_term__row_text(t, 0), "terminal too small (30x8)"));
	top_screen__key(&s, &snap, 'q');
	CHECK_EQ(s.quit, 1);
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

TEST(tui_fmt_num)
{
	char b[32];

	top_fmt_num(b, sizeof(b), 12.345, 6, 2);
	CHECK_STR(b, " 12.35");
	top_fmt_num(b, sizeof(b), 1234.5, 6, 2);
	CHECK_STR(b, "1234.5");
	top_fmt_num(b, sizeof(b), 123456.0, 6, 1);
	CHECK_STR(b, "123456");
	top_fmt_num(b, sizeof(b), 1234567.0, 6, 1);
	CHECK_STR(b, " 1235k");
	top_fmt_num(b, sizeof(b), 0, 5, 0);
	CHECK_STR(b, "    0");
}

TEST(tui_spark_and_text_without_utf8)
{
	static const double v[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct tui_term *t = tui_term__new_memory(3, 20);

	REQUIRE(t);
	top_draw_spark(t, 0, 0, 9, v, 9, 8, TUI_A_BAR);
	CHECK_STR(tui_term__row_text(t, 0), " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588");
	/* wider than the values: right-aligned; narrower: the newest ones */
	top_draw_spark(t, 1, 0, 4, v, 9, 8, TUI_A_BAR);
	CHECK_STR(tui_term__row_text(t, 1), "\u2585\u2586\u2587\u2588");
	tui_term__set_utf8(t, 0);
	tui_term__clear(t);
	top_draw_spark(t, 0, 0, 12, v, 9, 8, TUI_A_BAR);
	CHECK_STR(tui_term__row_text(t, 0), "    .:-=+*#@");
	/* any value above zero shows; no values: blank */
	top_draw_spark(t, 1, 0, 3, (const double[]){ 0.001, 0, 8 }, 3, 8, TUI_A_BAR);
	CHECK_STR(tui_term__row_text(t, 1), ". @");
	/* bytes that are not printable ASCII become '?', one column each */
	CHECK_EQ(tui_term__put(t, 2, 0, TUI_A_NORMAL, "a\u2588b\tc", -1), 5);
	CHECK_STR(tui_term__row_text(t, 2), "a?b?c");
	CHECK_EQ(tui_term__attr_at(t, 0, 5), TUI_A_BAR);
	tui_term__free(t);
}

/* p: one row per program; the two mkdir add up, P99ms is the higher one's. */
TEST(tui_group_by_program)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;
	char order[128];
	int y;

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	s.views[0]->sort_col = s.views[0]->default_sort;
	s.views[0]->reverse = 0;
	top_screen__update(&s, &snap);
	CHECK_EQ(top_screen__key(&s, &snap, 'p'), TOP_REDRAW_ALL);
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "  PROCS COMM") == 5);
	CHECK(find_row(t, "1:progs") == 4);
	/* mkdir 101 + 505: 700 + 5 ms/s blocked, 500 + 50 ops/s, p99 max(3.25, 1.00) */
	y = find_row(t, "      2 mkdir             705    550  3.25   705     0     0     0    0.0    0.0");
	CHECK(y == 6);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "2,1,1,1");
	CHECK(find_row(t, "      1 tar                20   1200  0.50    20     0     0     0   12.5    0.0") == 7);
	/* the filter is by name: "mk" keeps the group */
	top_screen__key(&s, &snap, 'f');
	top_screen__key(&s, &snap, 'm');
	top_screen__key(&s, &snap, 'k');
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "2");
	/* Enter: the group's details; weighted average latency (500*1.625 + 50*0.5) / 550 */
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "program mkdir (2 processes)") >= 0);
	CHECK(find_row(t, "call latency average        1.523 ms") >= 0);
	top_screen__key(&s, &snap, TUI_KEY_ESC);
	top_screen__key(&s, &snap, TUI_KEY_ESC);	/* clears the filter */
	/* p again: one row per process */
	top_screen__key(&s, &snap, 'p');
	top_screen__draw(&s, &snap);
	proc_order(t, order, sizeof(order));
	CHECK_STR(order, "101,303,505,202,404");
	CHECK(find_row(t, "    PID COMM") == 5);
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

/* The filter prompt starts empty, not with the filter in force. */
TEST(tui_filter_prompt_starts_empty)
{
	struct tui_term *t = tui_term__new_memory(24, 80);
	struct top_screen s;
	struct top_snap snap;

	REQUIRE(t);
	make_snap(&snap);
	top_screen__init(&s, t);
	top_screen__update(&s, &snap);
	top_screen__key(&s, &snap, 'f');
	top_screen__key(&s, &snap, 't');
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__key(&s, &snap, 'f');
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "filter by comm or pid: _") == 23);
	/* Enter on nothing clears the filter */
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	CHECK_STR(s.filter, "");
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

/* Enter on a process: each class it waited in, most first, with that class's stack. */
static const char *const stack_b[] = {
	"__schedule+0x2a", "schedule+0x10", "__jbd2_log_wait_for_space+0x70",
	"start_this_handle+0x120", "__ext4_unlink+0x90", "ext4_unlink+0x40",
};

/* Enter on a process: its classes, each with that process's own stack. */
TEST(tui_process_details_per_class)
{
	struct tui_term *t = tui_term__new_memory(40, 80);
	struct top_screen s;
	struct top_snap snap;
	int y, y2;

	REQUIRE(t);
	make_snap(&snap);
	/* 101 waited 600 ms/s for log space and 100 ms/s on a locked transaction */
	snap.procs[0].class_ms_s[FSL_WC_JOURNAL_LOG_SPACE] = 600;
	snap.procs[0].class_ms_s[FSL_WC_TXN_LOCKED] = 100;
	snap.procs[0].class_stack[FSL_WC_JOURNAL_LOG_SPACE] =
		(struct top_proc_stack){ stack_a, sizeof(stack_a) / sizeof(stack_a[0]), 6, 420 };
	/* 303 waited for log space too, on another stack */
	snap.procs[2].class_ms_s[FSL_WC_JOURNAL_LOG_SPACE] = 20;
	snap.procs[2].class_stack[FSL_WC_JOURNAL_LOG_SPACE] =
		(struct top_proc_stack){ stack_b, sizeof(stack_b) / sizeof(stack_b[0]), 2, 20 };
	/* the class's costliest over all tasks is neither one's */
	snap.stalls[1].frames = stack_b + 4;
	snap.stalls[1].nframes = 2;
	snap.stalls[1].top_stack_ms = 999;
	top_screen__init(&s, t);
	s.views[0]->sort_col = s.views[0]->default_sort;
	s.views[0]->reverse = 0;
	s.views[0]->have_sel = 0;
	s.views[0]->sel = 0;
	top_screen__update(&s, &snap);
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "process 101 (mkdir)") >= 0);
	y = find_row(t, "journal_log_space           600.0 ms/s");
	y2 = find_row(t, "txn_locked                  100.0 ms/s");
	CHECK(y > 0);
	CHECK(y2 > y);
	CHECK(find_row(t, "  its costliest stack (420.0 ms):") == y + 1);
	CHECK(find_row(t, "      0  __schedule+0x2a") == y + 2);
	CHECK(find_row(t, "   =>  6  __jbd2_log_wait_for_space+0x70") == y + 8);
	CHECK(find_row(t, "__ext4_unlink") < 0);
	CHECK(find_row(t, "999.0") < 0);
	/* no stack known for txn_locked: the class line alone */
	CHECK(find_row(t, "its costliest stack") == y + 1);
	CHECK(find_row(t, "ext4_mkdir+0x150") == y2 - 2);
	if (t_failed())
		dump(t);

	top_screen__key(&s, &snap, TUI_KEY_ESC);
	top_screen__key(&s, &snap, TUI_KEY_DOWN);	/* 101 -> 303 */
	top_screen__key(&s, &snap, TUI_KEY_ENTER);
	top_screen__draw(&s, &snap);
	CHECK(find_row(t, "process 303 (tar)") >= 0);
	y = find_row(t, "journal_log_space            20.0 ms/s");
	CHECK(y > 0);
	CHECK(find_row(t, "  its costliest stack (20.0 ms):") == y + 1);
	CHECK(find_row(t, "   =>  2  __jbd2_log_wait_for_space+0x70") == y + 4);
	CHECK(find_row(t, "      4  __ext4_unlink+0x90") == y + 6);
	CHECK(find_row(t, "ext4_mkdir") < 0);
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}

/* The processes view's last column is the cgroup, the rest of the line. */
TEST(tui_cgroup_column)
{
	struct tui_term *t = tui_term__new_memory(24, 140);
	struct top_screen s;
	struct top_snap snap;
	int hdr, row;

	REQUIRE(t);
	make_snap(&snap);
	snprintf(snap.procs[2].cgroup, sizeof(snap.procs[2].cgroup), "/fsl/inner");
	top_screen__init(&s, t);
	top_screen__update(&s, &snap);
	top_screen__draw(&s, &snap);
	hdr = find_row(t, "CGROUP");
	row = find_row(t, "/fsl/inner");
	CHECK(hdr >= 0);
	CHECK(row > hdr);
	CHECK(row == find_row(t, "  303 tar"));
	if (t_failed())
		dump(t);
	top_screen__fini(&s);
	top_snap__clear(&snap);
	tui_term__free(t);
}
