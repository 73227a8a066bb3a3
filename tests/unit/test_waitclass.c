// SPDX-License-Identifier: GPL-2.0
/* Wait classes: the rule table against real stacks (tests/data/stacks). */
#include <dirent.h>
#include <stdlib.h>
#include "fslens/analysis.h"
#include "t.h"

static const char *stacks_dir(void)
{
	static char buf[512];
	const char *top = getenv("TOP");

	snprintf(buf, sizeof(buf), "%s/tests/data/stacks", top ? top : ".");
	return buf;
}

/* Classify every line of one fixture file; returns lines checked. */
static int check_file(const char *path)
{
	char line[8192], *frames[256], *p, *tok, *save;
	FILE *f = fopen(path, "r");
	int n = 0, lineno = 0;

	if (!f) {
		t_fail(__FILE__, __LINE__, "cannot open %s", path);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		char want[64], *colon;
		unsigned int nf = 0, got;
		int rule;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (sscanf(line, "%63s", want) != 1 || !(colon = strstr(line, ": "))) {
			t_fail(__FILE__, __LINE__, "%s:%d: bad fixture line", path, lineno);
			continue;
		}
		for (p = colon + 2; (tok = strtok_r(p, ",", &save)); p = NULL) {
			while (*tok == ' ')
				tok++;
			if (nf < 256)
				frames[nf++] = tok;
		}
		got = fsl_wclass_of_frames((const char *const *)frames, nf, &rule);
		if (fsl_wclass_parse(want) < 0)
			t_fail(__FILE__, __LINE__, "%s:%d: unknown class '%s'", path, lineno, want);
		else if (strcmp(fsl_wclass_id(got), want))
			t_fail(__FILE__, __LINE__, "%s:%d: got %s (frame %d '%s'), want %s", path,
			       lineno, fsl_wclass_id(got), rule, rule >= 0 ? frames[rule] : "-",
			       want);
		n++;
	}
	fclose(f);
	return n;
}

TEST(waitclass_real_stacks)
{
	DIR *d = opendir(stacks_dir());
	struct dirent *de;
	char path[1024];
	int files = 0, lines = 0;

	REQUIRE(d);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 5 || strcmp(de->d_name + l - 4, ".txt"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", stacks_dir(), de->d_name);
		lines += check_file(path);
		files++;
	}
	closedir(d);
	/* The fixtures are the point: losing them must fail, not pass. */
	CHECK(files >= 8);
	CHECK(lines >= 60);
}

TEST(waitclass_rank_and_outermost)
{
	/* A bit wait alone is other I/O; under do_get_write_access it is a
	 * buffer under commit; a commit wait under log-space waiting is log space. */
	const char *a[] = { "bit_wait_io", "__wait_on_bit", "out_of_line_wait_on_bit" };
	const char *b[] = { "bit_wait_io", "__wait_on_bit", "do_get_write_access+0x2b5/0x430",
			    "jbd2_journal_get_write_access" };
	const char *c[] = { "jbd2_log_wait_commit", "jbd2_log_do_checkpoint",
			    "__jbd2_log_wait_for_space", "start_this_handle" };
	const char *d[] = { "start_this_handle", "jbd2__journal_start", "ext4_mkdir" };
	const char *e[] = { "schedule", "do_nanosleep" };
	int rule;

	CHECK_EQ(fsl_wclass_of_frames(a, 3, &rule), FSL_WC_OTHER_IO);
	CHECK_EQ(rule, 0);
	CHECK_EQ(fsl_wclass_of_frames(b, 4, &rule), FSL_WC_BUFFER_UNDER_COMMIT);
	CHECK_EQ(rule, 2);
	CHECK_EQ(fsl_wclass_of_frames(c, 4, &rule), FSL_WC_JOURNAL_LOG_SPACE);
	CHECK_EQ(rule, 2);
	CHECK_EQ(fsl_wclass_of_frames(d, 3, NULL), FSL_WC_HANDLE_START);
	CHECK_EQ(fsl_wclass_of_frames(e, 2, &rule), FSL_WC_OTHER);
	CHECK_EQ(rule, -1);
	CHECK_EQ(fsl_wclass_of_frames(NULL, 0, NULL), FSL_WC_OTHER);
}

TEST(waitclass_ids_stable)
{
	static const char *const ids[] = {
		"journal_log_space", "txn_locked", "buffer_under_commit", "commit_wait",
		"handle_start", "dir_block_read", "inode_table_read", "bitmap_read",
		"writeback_throttle", "block_throttle", "fsync_writeback",
		"free_space_writeback", "aio_wait", "page_wait", "queue_wait", "flush", "other_io", "other",
		"xfs_log_force", "xfs_log_space", "xfs_ail_push", "xfs_metadata_read",
		"xfs_buffer_lock", "xfs_inode_lock", "xfs_allocation",
	};
	unsigned int i;

	CHECK_EQ(sizeof(ids) / sizeof(ids[0]), FSL_WC__MAX);
	for (i = 0; i < FSL_WC__MAX; i++) {
		CHECK_STR(fsl_wclass_id(i), ids[i]);
		CHECK_EQ(fsl_wclass_parse(ids[i]), i);
	}
	CHECK(fsl_wclass_parse("nope") < 0);
}

/* docs/wait-classes.md lists exactly the rules of the table, in order. */
TEST(waitclass_table_documented)
{
	const char *top = getenv("TOP");
	char path[512], line[512], want[512];
	const char *func;
	unsigned int idx = 0, cls, rank;
	int in_table = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/docs/wait-classes.md", top ? top : ".");
	f = fopen(path, "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "| function | class | rank |")) {
			in_table = 1;
			continue;
		}
		if (!in_table || !strncmp(line, "|---", 4))
			continue;
		if (line[0] != '|')
			break;
		if (!fsl_wclass_rule(idx, &func, &cls, &rank)) {
			t_fail(__FILE__, __LINE__, "doc has an extra rule: %s", line);
			break;
		}
		snprintf(want, sizeof(want), "| `%s` | `%s` | %u |", func, fsl_wclass_id(cls), rank);
		if (strcmp(line, want)) {
			t_fail(__FILE__, __LINE__, "rule %u: doc '%s', table '%s'", idx, line, want);
			break;
		}
		idx++;
	}
	fclose(f);
	CHECK(in_table);
	CHECK(!fsl_wclass_rule(idx, &func, &cls, &rank));	/* none left undocumented */
	CHECK(idx > 40);
}
