// SPDX-License-Identifier: GPL-2.0
/* lib/text.c (sizes, seconds, bytes, frame names, wrapped prose) and cli/util.c's capability check. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "t.h"
#include "fslens/text.h"
#include "../../cli/cli.h"

TEST(text_parse_size)
{
	uint64_t v = 7;

	CHECK_EQ(fsl_parse_size("4096", &v), 0);
	CHECK_U64(v, 4096);
	CHECK_EQ(fsl_parse_size("64M", &v), 0);
	CHECK_U64(v, 64ull << 20);
	CHECK_EQ(fsl_parse_size("64MiB", &v), 0);
	CHECK_U64(v, 64ull << 20);
	CHECK_EQ(fsl_parse_size("1k", &v), 0);
	CHECK_U64(v, 1024);
	CHECK_EQ(fsl_parse_size("3G", &v), 0);
	CHECK_U64(v, 3ull << 30);
	CHECK_EQ(fsl_parse_size("2TB", &v), 0);
	CHECK_U64(v, 2ull << 40);
	CHECK_EQ(fsl_parse_size("512B", &v), 0);
	CHECK_U64(v, 512);
	CHECK_EQ(fsl_parse_size("0", &v), 0);
	CHECK_U64(v, 0);
	v = 7;
	CHECK_EQ(fsl_parse_size("", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("M", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("-1", &v), -EINVAL);	/* strtoull would wrap it */
	CHECK_EQ(fsl_parse_size(" 5", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("5X", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("5MM", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("4096i", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("1.5G", &v), -EINVAL);
	CHECK_EQ(fsl_parse_size("16777216T", &v), -ERANGE);	/* 2^24 TiB = 2^64 */
	CHECK_EQ(fsl_parse_size("18446744073709551616", &v), -ERANGE);
	CHECK_U64(v, 7);				/* untouched on error */
	CHECK_EQ(fsl_parse_size("16777215T", &v), 0);
	CHECK_U64(v, 16777215ull << 40);
}

TEST(text_parse_seconds)
{
	uint64_t ns = 7;
	unsigned int ms;
	char buf[32];

	CHECK_EQ(fsl_parse_seconds("2", &ns), 0);
	CHECK_U64(ns, 2000000000ull);
	CHECK_EQ(fsl_parse_seconds("1.5", &ns), 0);
	CHECK_U64(ns, 1500000000ull);
	CHECK_EQ(fsl_parse_seconds(".25", &ns), 0);
	CHECK_U64(ns, 250000000ull);
	CHECK_EQ(fsl_parse_seconds("3.", &ns), 0);
	CHECK_U64(ns, 3000000000ull);
	/* (uint64_t)(0.3 * 1e9) is 299999999: the text says 300 ms */
	CHECK_EQ(fsl_parse_seconds("0.3", &ns), 0);
	CHECK_U64(ns, 300000000ull);
	CHECK_EQ(fsl_parse_seconds("0.000000001", &ns), 0);
	CHECK_U64(ns, 1);
	CHECK_EQ(fsl_parse_seconds("1.0000000019", &ns), 0);	/* past ns: truncated */
	CHECK_U64(ns, 1000000001ull);
	CHECK_EQ(fsl_parse_seconds("1e-3", &ns), 0);
	CHECK_U64(ns, 1000000ull);
	CHECK_EQ(fsl_parse_seconds("2.5E1", &ns), 0);
	CHECK_U64(ns, 25000000000ull);
	/* every millisecond bound printed with %.9f reads back exactly */
	for (ms = 0; ms < 100000; ms++) {
		snprintf(buf, sizeof(buf), "%.9f", ms / 1000.0);
		if (fsl_parse_seconds(buf, &ns) || ns != ms * 1000000ull) {
			CHECK_U64(ns, ms * 1000000ull);
			break;
		}
	}
	CHECK_EQ(fsl_parse_seconds("18446744073.709551615", &ns), 0);
	CHECK_U64(ns, UINT64_MAX);
	ns = 7;
	CHECK_EQ(fsl_parse_seconds("18446744073.709551616", &ns), -ERANGE);
	CHECK_EQ(fsl_parse_seconds("99999999999999999999", &ns), -ERANGE);
	CHECK_EQ(fsl_parse_seconds("", &ns), -EINVAL);
	CHECK_EQ(fsl_parse_seconds(".", &ns), -EINVAL);
	CHECK_EQ(fsl_parse_seconds("-1", &ns), -EINVAL);
	CHECK_EQ(fsl_parse_seconds("-1e3", &ns), -EINVAL);
	CHECK_EQ(fsl_parse_seconds("1s", &ns), -EINVAL);
	CHECK_EQ(fsl_parse_seconds("1.2.3", &ns), -EINVAL);
	CHECK_EQ(fsl_parse_seconds("nan", &ns), -EINVAL);
	CHECK_U64(ns, 7);
}

TEST(text_fmt_bytes)
{
	char b[32];

	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 0), "0 B");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 10239), "10239 B");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 10240), "10.0 KiB");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 1536000), "1500.0 KiB");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 10485760), "10.0 MiB");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 3221225472ull), "3072.0 MiB");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 10737418240ull), "10.00 GiB");
	CHECK_STR(fsl_fmt_bytes(b, sizeof(b), 13421772800ull), "12.50 GiB");
	CHECK_STR(fsl_fmt_bytes(b, 4, 123456), "120");	/* truncated, terminated */
	/* the short form of table cells (compare): whole units, from 10 of each */
	CHECK_STR(fsl_fmt_bytes_short(b, sizeof(b), 0), "0");
	CHECK_STR(fsl_fmt_bytes_short(b, sizeof(b), 10239), "10239");
	CHECK_STR(fsl_fmt_bytes_short(b, sizeof(b), 10240), "10K");
	CHECK_STR(fsl_fmt_bytes_short(b, sizeof(b), 114294784), "109M");
	CHECK_STR(fsl_fmt_bytes_short(b, sizeof(b), 10737418240ull), "10G");
}

TEST(text_frame_func)
{
	char b[64];

	CHECK_STR(fsl_frame_func("io_schedule+0x42", b, sizeof(b)), "io_schedule");
	CHECK_STR(fsl_frame_func("ext4_da_write_begin+0x1a/0x40", b, sizeof(b)),
		  "ext4_da_write_begin");
	CHECK_STR(fsl_frame_func("jbd2_log_wait_commit [jbd2]", b, sizeof(b)),
		  "jbd2_log_wait_commit");
	CHECK_STR(fsl_frame_func("ext4_map_blocks[ext4]", b, sizeof(b)), "ext4_map_blocks");
	CHECK_STR(fsl_frame_func("kthread", b, sizeof(b)), "kthread");
	/* compiler suffixes are part of the name */
	CHECK_STR(fsl_frame_func("__ext4_find_entry.isra.0+0x10", b, sizeof(b)),
		  "__ext4_find_entry.isra.0");
	CHECK_STR(fsl_frame_func("0xffffffff81000000", b, sizeof(b)), "0xffffffff81000000");
	CHECK_STR(fsl_frame_func("", b, sizeof(b)), "");
	CHECK_STR(fsl_frame_func("schedule_timeout+0x1", b, 6), "sched");
	CHECK_U64(fsl_frame_func_len("do_sys_openat2+0x9b/0x160"), 14);
}

TEST(cli_bpf_caps)
{
	static const char status[] =
		"Name:\tfslens\nUmask:\t0022\nState:\tR (running)\n"
		"CapInh:\t0000000000000000\nCapPrm:\t000000c000000000\n"
		"CapEff:\t000000c000000000\nCapBnd:\t000001ffffffffff\n";
	uint64_t eff = 1;
	char buf[8192];
	FILE *f;
	size_t n;

	CHECK_EQ(fsl_status_cap_eff(status, &eff), 0);
	CHECK_U64(eff, 0xc000000000ull);		/* CAP_PERFMON (38) + CAP_BPF (39) */
	CHECK(fsl_bpf_caps_ok(eff, 1000));
	CHECK(!fsl_bpf_caps_ok(1ull << 39, 1000));	/* CAP_BPF alone cannot read stacks */
	CHECK(!fsl_bpf_caps_ok(1ull << 38, 1000));
	CHECK(fsl_bpf_caps_ok(1ull << 21, 1000));	/* CAP_SYS_ADMIN covers both */
	CHECK(!fsl_bpf_caps_ok(0, 1000));
	CHECK(fsl_bpf_caps_ok(0, 0));			/* root */
	CHECK_EQ(fsl_status_cap_eff("Name:\tx\nCapPrm:\t0\n", &eff), -ENOENT);
	/* this process: the same answer as the rule applied to its own status */
	f = fopen("/proc/self/status", "re");
	if (!f)
		SKIP("no /proc/self/status");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	REQUIRE(fsl_status_cap_eff(buf, &eff) == 0);
	CHECK_EQ(fsl_have_bpf_caps(), fsl_bpf_caps_ok(eff, (unsigned int)geteuid()));
}

TEST(text_parse_id_list)
{
	uint32_t v[4];
	const char *bad = NULL;

	CHECK_EQ(fsl_parse_id_list("123", v, 4, &bad), 1);
	CHECK_EQ(v[0], 123);
	CHECK_EQ(fsl_parse_id_list("1,2,3", v, 4, &bad), 3);
	CHECK_EQ(v[0], 1);
	CHECK_EQ(v[2], 3);
	CHECK_EQ(fsl_parse_id_list("2147483647", v, 4, &bad), 1);
	CHECK_EQ(fsl_parse_id_list("2147483648", v, 4, &bad), -EINVAL);
	CHECK_EQ(fsl_parse_id_list("1,,2", v, 4, &bad), -EINVAL);
	CHECK_STR(bad, "");
	CHECK_EQ(fsl_parse_id_list("1,x2", v, 4, &bad), -EINVAL);
	CHECK_STR(bad, "x2");
	CHECK_EQ(fsl_parse_id_list("1,", v, 4, &bad), -EINVAL);
	CHECK_EQ(fsl_parse_id_list("0", v, 4, &bad), -EINVAL);
	CHECK_EQ(fsl_parse_id_list("", v, 4, &bad), -EINVAL);
	CHECK_EQ(fsl_parse_id_list("1,2,3,4,5", v, 4, &bad), -E2BIG);
}

/* compare's sentences and demo's seed note: 100 columns, later lines 2 further in. */
TEST(text_wrap_at_100_columns)
{
	char text[512], *buf = NULL, *nl;
	size_t len = 0;
	FILE *f;
	int i, o = 0;

	/* 40 words of 9 letters, two spaces apart: 9 fit in 100 columns either side of the break */
	for (i = 0; i < 40; i++)
		o += snprintf(text + o, sizeof(text) - o, "%s%c%08d", i ? "  " : "", 'a' + i % 26, i);
	f = open_memstream(&buf, &len);
	REQUIRE(f);
	fsl_text_wrap(f, 2, "", 4, text);
	fclose(f);
	REQUIRE(buf);
	nl = strchr(buf, '\n');
	REQUIRE(nl);
	CHECK_EQ(nl - buf, 2 + 9 * 9 + 8);
	CHECK(!strncmp(buf, "  a00000000 b00000001 ", 22));	/* a run of spaces is one */
	CHECK(!strncmp(nl, "\n    j00000009 k00000010 ", 25));
	CHECK_EQ(strchr(nl + 1, '\n') - nl - 1, 4 + 9 * 9 + 8);
	CHECK_EQ(buf[len - 1], '\n');
	free(buf);

	/* the report's "lead: text", later lines under the text; a long word is not cut */
	buf = NULL;
	f = open_memstream(&buf, &len);
	REQUIRE(f);
	memset(text, 'x', 120);
	text[120] = 0;
	fsl_text_wrap(f, 4, "why: ", 9, "short");
	fsl_text_wrap(f, 4, "why: ", 9, text);
	fsl_text_wrap(f, 0, "", 2, "a b");
	fclose(f);
	REQUIRE(buf);
	CHECK(!strncmp(buf, "    why: short\n    why: xxxxxxxxxx", 34));
	CHECK_EQ(len, 15 + 9 + 120 + 1 + 4);
	CHECK_STR(buf + len - 4, "a b\n");
	free(buf);
}
