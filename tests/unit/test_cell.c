// SPDX-License-Identifier: GPL-2.0
/*
 * demo's configuration (scenarios/cell.c): the settings as given and those
 * they imply, the mkfs options they make, the setting at fault when one is
 * bad (in one cell, or first in the whole matrix); and its children: the
 * exit status passed up, a signal passed on.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include "t.h"
#include "../../scenarios/cell.h"

static int has_arg(const struct fsl_scratch_opts *o, const char *a, const char *b)
{
	unsigned int i;

	for (i = 0; i + 1 < o->nmkfs; i++)
		if (!strcmp(o->mkfs_args[i], a) && !strcmp(o->mkfs_args[i + 1], b))
			return 1;
	return 0;
}

TEST(cell_createmany_gets_inodes_for_its_names)
{
	static struct fsl_cell c;
	static const char *const sets[] = { "n=100000" };
	static const char *const extra[] = { "blocksize=1024" };
	const struct fsl_scenario *sc = fsl_scenario__find("createmany");

	REQUIRE(sc);
	CHECK_EQ(fsl_cell__prepare(&c, sc, FSL_SCALE_SMALL, sets, 1, extra, 1), 0);
	REQUIRE(c.nsets == 3);
	CHECK_STR(c.sets[0], "n=100000");
	CHECK_STR(c.sets[1], "blocksize=1024");
	/* a tenth more than the names, and 4096 for the rest */
	CHECK_STR(c.sets[2], "inodes=114096");
	CHECK(has_arg(&c.so, "-N", "114096"));
	CHECK(has_arg(&c.so, "-b", "1024"));

	/* given inodes= stays as given */
	{
		static const char *const own[] = { "n=1000", "inodes=5000" };

		CHECK_EQ(fsl_cell__prepare(&c, sc, FSL_SCALE_SMALL, own, 2, NULL, 0), 0);
		CHECK_EQ(c.nsets, 2);
		CHECK(has_arg(&c.so, "-N", "5000"));
	}
}

TEST(cell_names_the_bad_setting)
{
	static struct fsl_cell c;
	static const char *const sets[] = { "n=10" };
	static const char *const extra[] = { "frobnicate=1" };
	static const char *const badfs[] = { "fs=btrfs" };
	const struct fsl_scenario *sc = fsl_scenario__find("createmany");

	REQUIRE(sc);
	CHECK_EQ(fsl_cell__prepare(&c, sc, FSL_SCALE_SMALL, sets, 1, extra, 1), -ENOENT);
	REQUIRE(c.bad);
	CHECK_STR(c.bad, "frobnicate=1");
	CHECK_EQ(fsl_cell__prepare(&c, sc, FSL_SCALE_SMALL, badfs, 1, NULL, 0), -EBADF);
}

/* Every --set, then every --matrix value, before any cell is made: the first bad one named. */
TEST(cell_check_names_the_first_bad_setting)
{
	static struct fsl_matrix m;
	static const char *const sets[] = { "n=10", "blocksize=1024" };
	static const char *const badset[] = { "n=10", "n=lots" };
	const struct fsl_scenario *sc = fsl_scenario__find("htree");
	const char *bad = NULL;
	char buf[256];

	REQUIRE(sc);
	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__add(&m, "journal=1M,4M"), 0);
	CHECK_EQ(fsl_matrix__add(&m, "atime=relatime,strictatime"), 0);
	CHECK_EQ(fsl_cell__check(sc, FSL_SCALE_SMALL, sets, 2, &m, &bad, buf, sizeof(buf)), 0);
	CHECK(!bad);
	CHECK_EQ(fsl_cell__check(sc, FSL_SCALE_SMALL, badset, 2, &m, &bad, buf, sizeof(buf)),
		 -EINVAL);
	CHECK(bad == badset[1]);
	/* a bad value in the last cell only, and an unknown key */
	CHECK_EQ(fsl_matrix__add(&m, "sync=1,maybe"), 0);
	CHECK_EQ(fsl_cell__check(sc, FSL_SCALE_SMALL, sets, 2, &m, &bad, buf, sizeof(buf)),
		 -EINVAL);
	CHECK_STR(bad, "sync=maybe");
	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__add(&m, "frobnicate=1"), 0);
	CHECK_EQ(fsl_cell__check(sc, FSL_SCALE_SMALL, sets, 2, &m, &bad, buf, sizeof(buf)),
		 -ENOENT);
	CHECK_STR(bad, "frobnicate=1");
	/* the caller's matrix stays at its first cell */
	CHECK_EQ(m.idx[0], 0);
}

TEST(cell_child_status_and_signal)
{
	static char *const exit3[] = { "/bin/sh", "-c", "exit 3", NULL };
	static char *const sleeper[] = { "/bin/sh", "-c", "sleep 30; exit 0", NULL };
	static char *const missing[] = { "/nonexistent/fslens-test", NULL };
	volatile sig_atomic_t stop = 0;
	struct fsl_child ch;
	struct timespec a, b;

	CHECK_EQ(fsl_child__spawn(&ch, exit3, -1), 0);
	CHECK_EQ(fsl_child__reap(&ch, &stop), 3);
	CHECK_EQ(fsl_child__spawn(&ch, missing, -1), 0);
	CHECK_EQ(fsl_child__reap(&ch, &stop), 127);
	/* our signal: SIGINT to its group at once, so the 30 s sleep ends now */
	CHECK_EQ(fsl_child__spawn(&ch, sleeper, -1), 0);
	stop = SIGINT;
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK_EQ(fsl_child__reap(&ch, &stop), 128 + SIGINT);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK(b.tv_sec - a.tv_sec < 10);
	CHECK(ch.signalled);
}
