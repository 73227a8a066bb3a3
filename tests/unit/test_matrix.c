// SPDX-License-Identifier: GPL-2.0
/*
 * demo's --matrix (scenarios/matrix.c): every combination once, the first
 * key turning fastest, each cell's settings and a label that is a plain
 * file name; malformed keys refused.
 */
#include <errno.h>
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
