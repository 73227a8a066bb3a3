// SPDX-License-Identifier: GPL-2.0
/*
 * demo's --matrix (scenarios/matrix.c): every combination once, the first
 * key turning fastest, each cell's settings and a label that is a plain
 * file name; malformed keys refused; the walk names the cells that failed,
 * ends on a run's other value and on a signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "t.h"
#include "../../scenarios/matrix.h"

TEST(matrix_walks_every_cell_once)
{
	static struct fsl_matrix m;
	static const char *const want[] = {
		"createmany_large_dir-0_blocksize-1024",
		"createmany_large_dir-1_blocksize-1024",
		"createmany_large_dir-0_blocksize-4096",
		"createmany_large_dir-1_blocksize-4096",
	};
	char label[256], kv[192];
	unsigned int n = 0;

	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__count(&m), 1);
	CHECK_EQ(fsl_matrix__add(&m, "large_dir=0,1"), 0);
	CHECK_EQ(fsl_matrix__add(&m, "blocksize=1024,4096"), 0);
	CHECK_EQ(fsl_matrix__count(&m), 4);
	do {
		fsl_matrix__label(&m, "createmany", label, sizeof(label));
		if (n < 4)
			CHECK_STR(label, want[n]);
		n++;
	} while (fsl_matrix__next(&m));
	CHECK_EQ(n, 4);
	/* after the last cell, back at the first */
	CHECK_STR(fsl_matrix__setting(&m, 0, kv, sizeof(kv)), "large_dir=0");
	CHECK_STR(fsl_matrix__setting(&m, 1, kv, sizeof(kv)), "blocksize=1024");
	fsl_matrix__next(&m);
	fsl_matrix__next(&m);
	fsl_matrix__next(&m);
	CHECK_STR(fsl_matrix__setting(&m, 0, kv, sizeof(kv)), "large_dir=1");
	CHECK_STR(fsl_matrix__setting(&m, 1, kv, sizeof(kv)), "blocksize=4096");
}

/* A value is a parameter (a path, a size); the label keeps only name characters. */
TEST(matrix_label_is_a_file_name)
{
	static struct fsl_matrix m;
	char label[256], kv[192];

	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__add(&m, "src=/usr/lib/x 1,64M"), 0);
	fsl_matrix__label(&m, "copytree", label, sizeof(label));
	CHECK_STR(label, "copytree_src-_usr_lib_x_1");
	CHECK_STR(fsl_matrix__setting(&m, 0, kv, sizeof(kv)), "src=/usr/lib/x 1");
	fsl_matrix__next(&m);
	fsl_matrix__label(&m, "copytree", label, sizeof(label));
	CHECK_STR(label, "copytree_src-64M");
}

TEST(matrix_refuses_malformed)
{
	static struct fsl_matrix m;
	unsigned int k;

	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__add(&m, "novalue"), -EINVAL);
	CHECK_EQ(fsl_matrix__add(&m, "=1,2"), -EINVAL);
	CHECK_EQ(fsl_matrix__add(&m, "k="), -EINVAL);
	CHECK_EQ(fsl_matrix__add(&m, "k=,,"), -EINVAL);
	CHECK_EQ(fsl_matrix__add(&m, "k=1,2,3,4,5,6,7,8,9"), -E2BIG);
	memset(&m, 0, sizeof(m));
	for (k = 0; k < FSL_MATRIX_KEYS; k++)
		CHECK_EQ(fsl_matrix__add(&m, "k=1,2"), 0);
	CHECK_EQ(fsl_matrix__add(&m, "k=1,2"), -EINVAL);
	CHECK_EQ(fsl_matrix__count(&m), 256);
}

struct walk_seen {
	char cells[8][256];
	unsigned int n;
	int fail_at, end_at, end_rc;		/* cell numbers, -1 none */
	volatile sig_atomic_t *stop;
};

static int walk_run(void *ctx, const char *label, const char *const *settings, unsigned int n)
{
	struct walk_seen *w = ctx;
	unsigned int i = w->n++;

	snprintf(w->cells[i % 8], sizeof(w->cells[0]), "%s:%u:%s,%s", label, n, settings[0],
		 n > 1 ? settings[1] : "");
	if (w->stop && (int)i == w->end_at)
		*w->stop = SIGINT;
	if ((int)i == w->end_at)
		return w->end_rc;
	return (int)i == w->fail_at;
}

TEST(matrix_walk_runs_names_failed_and_ends)
{
	static struct fsl_matrix m;
	static struct fsl_matrix_failed failed;
	struct walk_seen w = { .fail_at = 1, .end_at = -1 };
	volatile sig_atomic_t stop = 0;

	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__add(&m, "large_dir=0,1"), 0);
	CHECK_EQ(fsl_matrix__add(&m, "blocksize=1024,4096"), 0);
	/* a failed cell does not stop the others; 1 at the end, its label named */
	CHECK_EQ(fsl_matrix__walk(&m, "htree", walk_run, &w, &stop, &failed), 1);
	CHECK_EQ(w.n, 4);
	CHECK_STR(w.cells[0], "htree_large_dir-0_blocksize-1024:2:large_dir=0,blocksize=1024");
	CHECK_STR(w.cells[3], "htree_large_dir-1_blocksize-4096:2:large_dir=1,blocksize=4096");
	CHECK_EQ(failed.n, 1);
	CHECK_STR(failed.label[0], "htree_large_dir-1_blocksize-1024");

	/* another value (a usage error) ends the walk, as it is */
	memset(&w, 0, sizeof(w));
	w.fail_at = -1;
	w.end_at = 1;
	w.end_rc = 2;
	CHECK_EQ(fsl_matrix__walk(&m, "htree", walk_run, &w, NULL, NULL), 2);
	CHECK_EQ(w.n, 2);

	/* a signal during a cell ends the walk after it, whatever it returned */
	memset(&m, 0, sizeof(m));
	CHECK_EQ(fsl_matrix__add(&m, "journal=1M,4M,8M"), 0);
	memset(&w, 0, sizeof(w));
	w.fail_at = -1;
	w.end_at = 0;
	w.end_rc = 0;
	w.stop = &stop;
	CHECK_EQ(fsl_matrix__walk(&m, "htree", walk_run, &w, &stop, NULL), -EINTR);
	CHECK_EQ(w.n, 1);
	CHECK_STR(w.cells[0], "htree_journal-1M:1:journal=1M,");

	/* no key: the one plain configuration, named after the prefix */
	memset(&m, 0, sizeof(m));
	memset(&w, 0, sizeof(w));
	w.fail_at = w.end_at = -1;
	CHECK_EQ(fsl_matrix__walk(&m, "htree", walk_run, &w, NULL, NULL), 0);
	CHECK_EQ(w.n, 1);
	CHECK(!strncmp(w.cells[0], "htree:0:", 8));
}
