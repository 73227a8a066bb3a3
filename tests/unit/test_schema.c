// SPDX-License-Identifier: GPL-2.0
#include "t.h"
#include "fslens/schema.h"

/* Every row's nfields matches its named fields, fields lie inside the record. */
TEST(schema_rows_consistent)
{
	const struct fsl_event_desc *all;
	unsigned int n = fsl_schema_builtin_all(&all), i, k;

	CHECK_EQ(n, 107);	/* update when event.h grows */
	for (i = 0; i < n; i++) {
		unsigned int named = 0;

		for (k = 0; k < FSL_MAX_FIELDS && all[i].fields[k].name; k++) {
			named++;
			if (all[i].fields[k].offset + all[i].fields[k].size > all[i].size)
				t_fail(__FILE__, __LINE__, "%s.%s outside record", all[i].name,
				       all[i].fields[k].name);
		}
		if (named != all[i].nfields)
			t_fail(__FILE__, __LINE__, "%s: nfields %u, named %u", all[i].name,
			       all[i].nfields, named);
		if (all[i].size % 8)
			t_fail(__FILE__, __LINE__, "%s: size %u not 8-aligned", all[i].name,
			       all[i].size);
		CHECK(fsl_schema_builtin(all[i].type) == &all[i]);
	}
	CHECK_STR(fsl_schema_builtin(FSL_EV_BLOCK_RQ_COMPLETE)->name, "block_rq_complete");
	CHECK_STR(fsl_schema_builtin(FSL_EV_JBD2_RUN_STATS)->name, "jbd2_run_stats");
	CHECK_STR(fsl_schema_builtin(FSL_EV_XFS_MAP_BLOCKS_FOUND)->name, "xfs_map_blocks_found");
	CHECK_EQ(fsl_schema_builtin(FSL_EV_XFS_LOG_FORCE)->family, FSL_FAM_JOURNAL);
	CHECK_EQ(fsl_schema_builtin(FSL_EV_XFS_IOMAP_FOUND)->family, FSL_FAM_ALLOC);
	CHECK(fsl_schema_builtin(0) == NULL);
	CHECK(fsl_schema_builtin(9999) == NULL);
}

TEST(family_parse)
{
	uint32_t m;
	const char *bad = NULL;

	CHECK_EQ(fsl_family_parse("block,journal", &m, &bad), 0);
	CHECK_EQ(m, (1u << FSL_FAM_BLOCK) | (1u << FSL_FAM_JOURNAL));
	CHECK_EQ(fsl_family_parse("all", &m, &bad), 0);
	CHECK_EQ(m, FSL_FAM_ALL);
	CHECK(fsl_family_parse("block,bogus", &m, &bad) < 0);
	CHECK_STR(bad, "bogus");
	CHECK_STR(fsl_dirop_name(FSL_OP_MKDIR), "mkdir");
}
