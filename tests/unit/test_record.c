// SPDX-License-Identifier: GPL-2.0
/*
 * collector/record.c in-process, on the paths that end before the probes
 * load (so no BPF is needed): what failed reaches the caller as one message
 * of the right kind, nothing is printed, nothing is left behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "t.h"
#include "fslens/record.h"

struct msgs {
	int n;
	enum fsl_record_msg kind[8];
	char line[8][512];
};

static void keep_msg(void *ctx, enum fsl_record_msg kind, const char *line)
{
	struct msgs *m = ctx;

	if (m->n < 8) {
		m->kind[m->n] = kind;
		snprintf(m->line[m->n], sizeof(m->line[0]), "%s", line);
	}
	m->n++;
}

TEST(record_bad_mount_is_one_error)
{
	struct msgs m = { 0 };
	struct fsl_record_cb cb = { &m, keep_msg };
	struct fsl_record_opts o = { .mount = "/nonexistent", .out = t_path("bad.trace") };
	struct fsl_record_result res;

	CHECK_EQ(fsl_record__run(&o, &cb, &res), -ENOENT);
	CHECK_EQ(m.n, 1);
	CHECK_EQ(m.kind[0], FSL_RECORD_ERROR);
	CHECK_STR(m.line[0], "cannot use '/nonexistent': No such file or directory");
	CHECK_EQ(res.written, 0);
	CHECK(access(o.out, F_OK) != 0);
}

TEST(record_never_overwrites_without_force)
{
	struct msgs m = { 0 };
	struct fsl_record_cb cb = { &m, keep_msg };
	struct fsl_record_opts o = { .out = t_path("exists.trace") };
	struct fsl_record_result res;
	char buf[16] = "";
	FILE *f = fopen(o.out, "w");

	REQUIRE(f);
	fputs("keep", f);
	fclose(f);
	CHECK_EQ(fsl_record__run(&o, &cb, &res), -EEXIST);
	CHECK_EQ(m.n, 1);
	CHECK_EQ(m.kind[0], FSL_RECORD_FATAL);
	CHECK(strstr(m.line[0], "exists.trace' exists; use -f to overwrite it") != NULL);
	CHECK_EQ(m.line[0][0], '\'');
	f = fopen(o.out, "r");
	REQUIRE(f);
	CHECK(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	CHECK_STR(buf, "keep");
}

TEST(record_unwritable_trace_says_where)
{
	struct msgs m = { 0 };
	struct fsl_record_cb cb = { &m, keep_msg };
	struct fsl_record_opts o = { .out = "/proc/nope/x.trace" };
	struct fsl_record_result res;

	CHECK(fsl_record__run(&o, &cb, &res) < 0);
	CHECK_EQ(m.n, 1);
	CHECK_EQ(m.kind[0], FSL_RECORD_ERROR);
	CHECK(!strncmp(m.line[0], "cannot create '/proc/nope/x.trace': ", 36));
}
