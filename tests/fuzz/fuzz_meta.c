// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the metadata parsers (`make fuzz`): the input is
 * "key=value" lines, then after a NUL the text of /proc/fs/jbd2/DEV/info.
 * Every typed getter, the geometry, jbd2 info, mount option and device name
 * parsers and the models' geometry checks read it; nothing may crash, leak or
 * read out of bounds, and a geometry that passes fsl_geom_check is sane. The
 * xfs.* keys go through fsl_meta__xfs_geometry, which must either refuse them
 * or give the sizes a reader divides by.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/meta.h"
#include "fslens/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {
		FSL_KV_EXT4_BLOCK_SIZE, FSL_KV_EXT4_BLOCKS_COUNT, FSL_KV_EXT4_BLOCKS_PER_GROUP,
		FSL_KV_EXT4_INODES_PER_GROUP, FSL_KV_EXT4_GROUP_COUNT, FSL_KV_DEV, FSL_KV_HZ,
		FSL_KV_START_NS, FSL_KV_END_NS, FSL_KV_EXT4_HASH_SEED, FSL_KV_OPTIONS,
		FSL_KV_XFS_BLOCK_SIZE, FSL_KV_XFS_AG_COUNT, FSL_KV_XFS_AG_BLOCKS,
		FSL_KV_XFS_AG_BLOCK_LOG, FSL_KV_XFS_DATA_BLOCKS, FSL_KV_XFS_SECTOR_SIZE,
		FSL_KV_XFS_INODE_SIZE, FSL_KV_XFS_INODES_PER_BLOCK, FSL_KV_XFS_INODES_PER_CHUNK,
		FSL_KV_XFS_IMAX_PCT, FSL_KV_XFS_LOG_BLOCKS, FSL_KV_XFS_LOG_START,
		FSL_KV_XFS_LOG_SUNIT, FSL_KV_XFS_STRIPE_UNIT, FSL_KV_XFS_STRIPE_WIDTH,
		FSL_KV_XFS_DIR_BLOCK_SIZE, FSL_KV_XFS_RT_BLOCKS, FSL_KV_XFS_VERSION,
		FSL_KV_XFS_FLAGS, FSL_KV_XFS_UUID,
	};
	static volatile uint64_t sink;
	struct fsl_meta_store st;
	struct fsl_ext4_geometry eg;
	struct fsl_xfs_geometry xg;
	struct fsl_jbd2_info ji;
	struct fsl_meta m;
	const char *end = (const char *)data + size, *p = (const char *)data, *nul;
	char *line, buf[64];
	uint32_t seed[4];
	uint64_t v;
	size_t len, i;

	fsl_meta_store__init(&st);
	nul = memchr(p, 0, size);
	while (p < (nul ? nul : end)) {
		const char *nl = memchr(p, '\n', (nul ? nul : end) - p), *eq;
		size_t n = (nl ? nl : (nul ? nul : end)) - p;

		line = strndup(p, n);
		if (line && (eq = strchr(line, '='))) {
			line[eq - line] = 0;
			fsl_meta_store__kv(&st, line, line + (eq - line) + 1);
		}
		free(line);
		p += n + 1;
	}
	if (nul && nul + 1 < end) {
		fsl_meta_store__text(&st, FSL_TEXT_JBD2_INFO_START, nul + 1, end - nul - 1);
		fsl_meta_store__text(&st, FSL_TEXT_JBD2_INFO_END, nul + 1, end - nul - 1);
		sink += !fsl_jbd2_info_parse(nul + 1, end - nul - 1, &ji) ? ji.max_blocks : 0;
	}
	fsl_meta_store__view(&st, &m);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		sink += fsl_meta__u64(&m, keys[i], 7);
		if (!fsl_meta__get_u64(&m, keys[i], &v))
			sink += v;
	}
	if (!fsl_meta__ext4_geometry(&m, &eg)) {
		struct fsl_geom g;
		char why[320];

		fsl_geom_defaults(&g);
		g.block_size = eg.block_size;
		g.blocks_count = eg.blocks_count;
		g.blocks_per_group = eg.blocks_per_group;
		g.inodes_per_group = eg.inodes_per_group;
		g.first_data_block = eg.first_data_block;
		g.ngroups = eg.group_count;
		g.inode_size = eg.inode_size ? eg.inode_size : 256;
		g.first_ino = eg.first_ino ? eg.first_ino : 11;
		g.flex_size = eg.flex_bg_size;
		if (!fsl_geom_finish(&g) && !fsl_geom_check(&g, why, sizeof(why))) {
			/* what the models rely on */
			if (g.ngroups == 0 || g.blocks_per_group > 8u * g.block_size ||
			    (uint64_t)g.ngroups * g.blocks_per_group + g.first_data_block <
			    g.blocks_count || g.inode_size > g.block_size)
				abort();
		}
		sink += eg.features ? strlen(eg.features) : 0;
	}
	if (!fsl_meta__xfs_geometry(&m, &xg)) {
		/* what diagnosis and the layout analysis divide by or shift with */
		if (!xg.block_size || !xg.ag_blocks || !xg.inode_size ||
		    xg.inodes_per_block != (fsl_meta_kv(&m, FSL_KV_XFS_INODES_PER_BLOCK) ?
					    xg.inodes_per_block : xg.block_size / xg.inode_size))
			abort();
		sink += (uint64_t)xg.log_blocks * xg.block_size + xg.ag_count + xg.data_blocks +
			xg.stripe_unit + xg.stripe_width + xg.log_start + xg.inodes_per_chunk;
	}
	sink += !fsl_meta__jbd2_info(&m, FSL_JBD2_START, &ji) ? ji.transactions : 0;
	sink += !fsl_meta__jbd2_info(&m, FSL_JBD2_END, &ji) ? ji.handles : 0;
	sink += fsl_meta__mount(&m, &len) ? len : 0;
	sink += fsl_meta__mount_opt(&m, "data") != NULL;
	sink += fsl_meta__mount_opt(&m, "commit") != NULL;
	sink += fsl_meta__dev_name(&m, 7 << 20, buf, sizeof(buf)) != NULL;
	if (fsl_meta_kv(&m, FSL_KV_EXT4_HASH_SEED) &&
	    !fsl_hash_seed_parse(fsl_meta_kv(&m, FSL_KV_EXT4_HASH_SEED), seed))
		sink += seed[0];
	fsl_meta_store__fini(&st);
	return 0;
}
