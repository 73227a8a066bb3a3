// SPDX-License-Identifier: GPL-2.0
/* CPU classes: the rule table against real on-CPU stacks (tests/data/cpustacks). */
#include <stdlib.h>
#include "fslens/analysis.h"
#include "t.h"

TEST(cpuclass_real_stacks)
{
	const char *top = getenv("TOP");
	char path[512], line[16384], *frames[256], *p, *tok, *save;
	int n = 0, lineno = 0;
	unsigned int seen[FSL_CC__MAX] = { 0 }, k, classes = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/cpustacks/real.txt", top ? top : ".");
	f = fopen(path, "r");
	REQUIRE(f);
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
		got = fsl_cclass_of_frames((const char *const *)frames, nf, &rule);
		if (fsl_cclass_parse(want) < 0)
			t_fail(__FILE__, __LINE__, "%s:%d: unknown class '%s'", path, lineno, want);
		else if (strcmp(fsl_cclass_id(got), want))
			t_fail(__FILE__, __LINE__, "%s:%d: got %s (frame %d '%s'), want %s", path,
			       lineno, fsl_cclass_id(got), rule, rule >= 0 ? frames[rule] : "-",
			       want);
		else
			seen[got]++;
		n++;
	}
	fclose(f);
	for (k = 0; k < FSL_CC__MAX; k++)
		classes += !!seen[k];
	/* the fixture is the point: losing it must fail, not pass */
	CHECK(n >= 150);
	CHECK(classes >= 18);
}

TEST(cpuclass_innermost_and_weak)
{
	/* crc32c under an inode update is checksum time, not inode time */
	const char *a[] = { "crc32c_x86_3way+0x5a/0x100", "crc32c", "ext4_inode_csum",
			    "ext4_mark_iloc_dirty", "__ext4_new_inode" };
	/* an ext4 helper under the allocator is allocator time (weak rule) */
	const char *b[] = { "ext4_get_group_info", "ext4_mb_prefetch", "ext4_mb_regular_allocator" };
	/* only weak rules: the innermost weak one */
	const char *c[] = { "ext4_init_dirblock", "ext4_init_new_dir", "ext4_mkdir", "path_openat" };
	/* a probe copying a path is the recorder, even under a path walk */
	const char *d[] = { "strncpy_from_user", "bpf_probe_read_user_str",
			    "bpf_prog_17d05e61dac8de92_btf_on_sys_enter", "bpf_trace_run2",
			    "syscall_trace_enter", "do_syscall_64" };
	const char *e[] = { "memcpy_orig", "do_syscall_64" };
	int rule;

	CHECK_EQ(fsl_cclass_of_frames(a, 5, &rule), FSL_CC_CHECKSUM);
	CHECK_EQ(rule, 0);
	CHECK_EQ(fsl_cclass_of_frames(b, 3, &rule), FSL_CC_MBALLOC);
	CHECK_EQ(rule, 1);
	CHECK_EQ(fsl_cclass_of_frames(c, 4, &rule), FSL_CC_EXT4_OTHER);
	CHECK_EQ(rule, 0);
	CHECK_EQ(fsl_cclass_of_frames(d, 6, &rule), FSL_CC_RECORDER);
	CHECK_EQ(rule, 1);
	CHECK_EQ(fsl_cclass_of_frames(e, 2, &rule), FSL_CC_KERNEL_OTHER);
	CHECK_EQ(rule, -1);
	CHECK_EQ(fsl_cclass_of_frames(NULL, 0, NULL), FSL_CC_KERNEL_OTHER);
}

TEST(cpuclass_ids_stable)
{
	static const char *const ids[] = {
		"cpu_dirent_scan", "cpu_htree", "cpu_checksum", "cpu_block_alloc", "cpu_ialloc",
		"cpu_extent", "cpu_journal", "cpu_inode", "cpu_page_copy", "cpu_page_cache",
		"cpu_writeback", "cpu_block", "cpu_path_lookup", "cpu_xfs", "cpu_ext4",
		"cpu_lock_spin", "cpu_memory", "cpu_process", "cpu_sched", "cpu_irq",
		"cpu_kernel_other", "cpu_user", "cpu_recorder",
	};
	unsigned int i;

	CHECK_EQ(sizeof(ids) / sizeof(ids[0]), FSL_CC__MAX);
	for (i = 0; i < FSL_CC__MAX; i++) {
		CHECK_STR(fsl_cclass_id(i), ids[i]);
		CHECK_EQ(fsl_cclass_parse(ids[i]), i);
		/* never the same id as a wait class: causes share one list */
		CHECK(fsl_wclass_parse(ids[i]) < 0);
	}
}

/* docs/cpu-classes.md lists exactly the rules of the table, in order, and the recorder's frames. */
TEST(cpuclass_table_documented)
{
	const char *top = getenv("TOP");
	char path[512], line[2048], want[512];
	const char *func;
	unsigned int idx = 0, cls, r;
	int in_table = 0, weak, recorder_ok = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/docs/cpu-classes.md", top ? top : ".");
	f = fopen(path, "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "`bpf_prog_*`", 12)) {
			const char *pat;

			recorder_ok = 1;
			for (r = 0; (pat = fsl_cclass_recorder_frame(r)); r++) {
				snprintf(want, sizeof(want), "`%s`", pat);
				if (!strstr(line, want)) {
					t_fail(__FILE__, __LINE__, "recorder frame %s not documented", pat);
					recorder_ok = 0;
				}
			}
			continue;
		}
		if (!strcmp(line, "| function | class | weak |")) {
			in_table = 1;
			continue;
		}
		if (!in_table || !strncmp(line, "|---", 4))
			continue;
		if (line[0] != '|')
			break;
		if (!fsl_cclass_rule(idx, &func, &cls, &weak)) {
			t_fail(__FILE__, __LINE__, "doc has an extra rule: %s", line);
			break;
		}
		snprintf(want, sizeof(want), "| `%s` | `%s` | %s |", func, fsl_cclass_id(cls),
			 weak ? "yes" : "no");
		if (strcmp(line, want)) {
			t_fail(__FILE__, __LINE__, "rule %u: doc '%s', table '%s'", idx, line, want);
			break;
		}
		idx++;
	}
	fclose(f);
	CHECK(in_table);
	CHECK(recorder_ok);
	CHECK(!fsl_cclass_rule(idx, &func, &cls, &weak));	/* none left undocumented */
	CHECK(idx > 200);
}
