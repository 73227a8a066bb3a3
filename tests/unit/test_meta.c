// SPDX-License-Identifier: GPL-2.0
/*
 * Typed metadata (lib/meta.c): number parsing, the ext4 geometry, the jbd2
 * info, mount options and device names, the text accessor of a trace file
 * and the in-memory store live top uses.
 */
#include <errno.h>
#include <stdlib.h>
#include "t.h"
#include "fslens/analysis.h"
#include "fslens/meta.h"
#include "fslens/session.h"
#include "fslens/trace.h"

/* /proc/fs/jbd2/<dev>/info as jbd2_seq_info_show() prints it */
static const char jbd2_text[] =
	"1234 transactions (1200 requested), each up to 8192 blocks\n"
	"average: \n"
	"  7ms waiting for transaction\n"
	"  1ms request delay\n"
	"  4998ms running transaction\n"
	"  2ms transaction was being locked\n"
	"  3ms flushing data (in ordered mode)\n"
	"  11ms logging transaction\n"
	"  12345us average transaction commit time\n"
	"  58 handles per transaction\n"
	"  77 blocks per transaction\n"
	"  79 logged blocks per transaction\n";

static void store_meta(struct fsl_meta_store *s, struct fsl_meta *m)
{
	memset(m, 0, sizeof(*m));
	fsl_meta_store__view(s, m);
}

TEST(meta_u64_parse)
{
	struct fsl_meta_store s;
	struct fsl_meta m;
	uint64_t v = 7;

	fsl_meta_store__init(&s);
	store_meta(&s, &m);
	fsl_meta_store__kv(&s, FSL_KV_HZ, "250");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_FEATURE_COMPAT, "0x3c");
	fsl_meta_store__kv(&s, FSL_KV_DEV, "7340032\n");
	fsl_meta_store__kv(&s, FSL_KV_ROOT_PID, "12abc");
	fsl_meta_store__kv(&s, FSL_KV_NCPUS, "");
	fsl_meta_store__kv(&s, FSL_KV_MIN_WAIT_US, "-5");
	fsl_meta_store__kv(&s, FSL_KV_END_NS, "18446744073709551616");	/* 2^64 */
	CHECK_U64(fsl_meta__u64(&m, FSL_KV_HZ, 1), 250);
	CHECK_U64(fsl_meta__u64(&m, FSL_KV_EXT4_FEATURE_COMPAT, 1), 0x3c);
	CHECK_U64(fsl_meta__u64(&m, FSL_KV_DEV, 1), 7340032);
	CHECK_U64(fsl_meta__u64(&m, FSL_KV_ROOT_PID, 99), 99);
	CHECK_EQ(fsl_meta__get_u64(&m, FSL_KV_ROOT_PID, &v), -EINVAL);
	CHECK_U64(v, 7);
	CHECK_EQ(fsl_meta__get_u64(&m, FSL_KV_NCPUS, &v), -ENOENT);
	CHECK_EQ(fsl_meta__get_u64(&m, FSL_KV_START_NS, &v), -ENOENT);
	CHECK_EQ(fsl_meta__get_u64(&m, FSL_KV_MIN_WAIT_US, &v), -EINVAL);
	CHECK_EQ(fsl_meta__get_u64(&m, FSL_KV_END_NS, &v), -EINVAL);
	/* a later value replaces the earlier, as a later KV section does in a file */
	fsl_meta_store__kv(&s, FSL_KV_HZ, "1000");
	CHECK_U64(fsl_meta__u64(&m, FSL_KV_HZ, 1), 1000);
	/* no metadata at all: every getter gives the default */
	CHECK_U64(fsl_meta__u64(NULL, FSL_KV_HZ, 42), 42);
	CHECK(fsl_meta__str(NULL, FSL_KV_HZ) == NULL);
	CHECK(fsl_meta__text(NULL, FSL_TEXT_JBD2_INFO_START, NULL) == NULL);
	fsl_meta_store__fini(&s);
}

TEST(meta_ext4_geometry)
{
	struct fsl_meta_store s;
	struct fsl_ext4_geometry g;
	struct fsl_meta m;

	fsl_meta_store__init(&s);
	store_meta(&s, &m);
	/* what collector/ext4meta.c writes for a 64 MiB mke2fs -b 1024 image */
	fsl_meta_store__kv(&s, FSL_KV_EXT4_BLOCK_SIZE, "1024");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_BLOCKS_COUNT, "65536");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_BLOCKS_PER_GROUP, "8192");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_INODES_PER_GROUP, "2048");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_GROUP_COUNT, "8");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_FIRST_DATA_BLOCK, "1");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_INODE_SIZE, "256");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_FIRST_INO, "11");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_RESERVED_GDT, "255");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_LOG_GROUPS_PER_FLEX, "4");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_FEATURE_INCOMPAT, "0x2c2");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_FEATURES, "has_journal extent flex_bg");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_JOURNAL_BLOCKS, "4096");
	fsl_meta_store__kv(&s, FSL_KV_EXT4_HASH_SEED, "3f2a9c1e-7b44-4d2e-9a61-0c5b8e7d1f20");
	CHECK_EQ(fsl_meta__ext4_geometry(&m, &g), 0);
	CHECK_U64(g.block_size, 1024);
	CHECK_U64(g.blocks_count, 65536);
	CHECK_U64(g.blocks_per_group, 8192);
	CHECK_U64(g.inodes_per_group, 2048);
	CHECK_U64(g.group_count, 8);
	CHECK_U64(g.first_data_block, 1);
	CHECK_U64(g.inode_size, 256);
	CHECK_U64(g.first_ino, 11);
	CHECK_U64(g.reserved_gdt_blocks, 255);
	CHECK_U64(g.flex_bg_size, 16);			/* 1 << 4 */
	CHECK_U64(g.feature_incompat, 0x2c2);
	CHECK_STR(g.features, "has_journal extent flex_bg");
	CHECK_U64(g.journal_blocks, 4096);
	CHECK_U64(g.journal_bytes, 0);			/* not recorded here */
	CHECK(g.has_hash_seed);
	CHECK_U64(g.hash_seed[0], 0x1e9c2a3f);		/* bytes 3f 2a 9c 1e, little-endian */
	CHECK_U64(g.hash_seed[3], 0x201f7d8e);
	/* ext4.flex_bg_size, when there, wins over the log */
	fsl_meta_store__kv(&s, FSL_KV_EXT4_FLEX_BG_SIZE, "8");
	fsl_meta__ext4_geometry(&m, &g);
	CHECK_U64(g.flex_bg_size, 8);
	/* one of the four defining keys missing: -ENOENT, the rest still read */
	fsl_meta_store__kv(&s, FSL_KV_EXT4_INODES_PER_GROUP, "many");
	CHECK_EQ(fsl_meta__ext4_geometry(&m, &g), -ENOENT);
	CHECK_U64(g.inodes_per_group, 0);
	CHECK_U64(g.block_size, 1024);
	fsl_meta_store__fini(&s);
	/* nothing recorded: flex groups of one, a bad seed is not a seed */
	fsl_meta_store__init(&s);
	store_meta(&s, &m);
	fsl_meta_store__kv(&s, FSL_KV_EXT4_HASH_SEED, "3f2a9c1e");
	CHECK_EQ(fsl_meta__ext4_geometry(&m, &g), -ENOENT);
	CHECK_U64(g.flex_bg_size, 1);
	CHECK(!g.has_hash_seed);
	CHECK(g.features == NULL);
	fsl_meta_store__fini(&s);
}

TEST(meta_jbd2_info)
{
	struct fsl_meta_store s;
	struct fsl_jbd2_info ji;
	struct fsl_meta m;

	CHECK_EQ(fsl_jbd2_info_parse(jbd2_text, strlen(jbd2_text), &ji), 0);
	CHECK(ji.valid);
	CHECK_U64(ji.transactions, 1234);
	CHECK_U64(ji.requested, 1200);
	CHECK_U64(ji.max_blocks, 8192);
	CHECK_U64(ji.wait_ms, 7);
	CHECK_U64(ji.request_delay_ms, 1);
	CHECK_U64(ji.running_ms, 4998);
	CHECK_U64(ji.locked_ms, 2);
	CHECK_U64(ji.flushing_ms, 3);
	CHECK_U64(ji.logging_ms, 11);
	CHECK_U64(ji.avg_commit_us, 12345);
	CHECK_U64(ji.handles, 58);
	CHECK_U64(ji.blocks, 77);
	CHECK_U64(ji.logged_blocks, 79);
	/* a text section need not end in NUL: only len bytes count */
	CHECK_EQ(fsl_jbd2_info_parse(jbd2_text, 59, &ji), 0);
	CHECK_U64(ji.max_blocks, 8192);
	CHECK_U64(ji.avg_commit_us, 0);
	CHECK_EQ(fsl_jbd2_info_parse("average:\n  5ms waiting for transaction\n", 39, &ji),
		 -EINVAL);
	CHECK(!ji.valid);
	CHECK_U64(ji.wait_ms, 0);
	CHECK_EQ(fsl_jbd2_info_parse(NULL, 0, &ji), -EINVAL);

	fsl_meta_store__init(&s);
	store_meta(&s, &m);
	CHECK_EQ(fsl_meta__jbd2_info(&m, FSL_JBD2_START, &ji), -ENOENT);
	fsl_meta_store__text(&s, FSL_TEXT_JBD2_INFO_END, jbd2_text, strlen(jbd2_text));
	CHECK_EQ(fsl_meta__jbd2_info(&m, FSL_JBD2_START, &ji), -ENOENT);
	CHECK_EQ(fsl_meta__jbd2_info(&m, FSL_JBD2_END, &ji), 0);
	CHECK_U64(ji.transactions, 1234);
	/* a key of the same name is not the text */
	fsl_meta_store__kv(&s, FSL_TEXT_JBD2_INFO_START, "999 transactions (1 requested), each up to 1 blocks");
	CHECK_EQ(fsl_meta__jbd2_info(&m, FSL_JBD2_START, &ji), -ENOENT);
	fsl_meta_store__fini(&s);
}

TEST(meta_mount_and_devices)
{
	struct fsl_meta_store s;
	struct fsl_meta m;
	char buf[64];
	size_t len = 99;

	fsl_meta_store__init(&s);
	store_meta(&s, &m);
	CHECK(fsl_meta__mount(&m, &len) == NULL);
	CHECK_U64(len, 0);
	fsl_meta_store__kv(&s, FSL_KV_MOUNT, "/mnt/test//");
	CHECK_STR(fsl_meta__mount(&m, &len), "/mnt/test//");
	CHECK_U64(len, 9);
	fsl_meta_store__kv(&s, FSL_KV_MOUNT, "/");
	fsl_meta__mount(&m, &len);
	CHECK_U64(len, 1);
	fsl_meta_store__kv(&s, FSL_KV_MOUNT, "relative/dir");
	CHECK(fsl_meta__mount(&m, NULL) == NULL);

	fsl_meta_store__kv(&s, FSL_KV_OPTIONS, "rw,relatime,nodelalloc,commit=30");
	fsl_meta_store__kv(&s, FSL_KV_MOUNTINFO,
			   "36 25 7:0 / /mnt/test rw,relatime shared:1 - ext4 /dev/loop0 rw,data=writeback");
	CHECK_STR(fsl_meta__mount_opt(&m, "nodelalloc"), ",commit=30");
	CHECK_STR(fsl_meta__mount_opt(&m, "commit"), "=30");
	CHECK_STR(fsl_meta__mount_opt(&m, "data"), "=writeback");	/* from mountinfo */
	CHECK(fsl_meta__mount_opt(&m, "delalloc") == NULL);		/* not a prefix match */
	CHECK(fsl_meta__mount_opt(&m, "noatime") == NULL);

	fsl_meta_store__kv(&s, FSL_KV_DEV_NAME, "7:1 loop0p1");
	fsl_meta_store__kv(&s, FSL_KV_DISK_NAME, "7:0 loop0");
	CHECK_STR(fsl_meta__dev_name(&m, FSL_MKDEV(7, 0), buf, sizeof(buf)), "loop0");
	CHECK_STR(fsl_meta__dev_name(&m, FSL_MKDEV(7, 1), buf, sizeof(buf)), "loop0p1");
	CHECK(fsl_meta__dev_name(&m, FSL_MKDEV(8, 0), buf, sizeof(buf)) == NULL);
	/* a name with a slash would make a path, not a file name */
	fsl_meta_store__kv(&s, FSL_KV_DISK_NAME, "8:0 ../sda");
	CHECK(fsl_meta__dev_name(&m, FSL_MKDEV(8, 0), buf, sizeof(buf)) == NULL);
	fsl_meta_store__fini(&s);
}

/* A trace file's texts reach consumers through fsl_meta (no reader calls). */
TEST(meta_text_from_trace)
{
	struct fsl_writer_opts wo = { .no_compress = 1 };
	const char *path = t_path("t.trace");
	struct fsl_jbd2_info ji;
	struct fsl_writer *w;
	struct fsl_reader *r;
	struct fsl_meta m;
	const char *t;
	size_t len = 0;
	int err;

	w = fsl_writer__open(path, &wo, &err);
	REQUIRE(w);
	fsl_writer__kv(w, FSL_KV_EXT4_BLOCK_SIZE, "%u", 4096);
	fsl_writer__text(w, FSL_TEXT_JBD2_INFO_START, jbd2_text, strlen(jbd2_text));
	REQUIRE(fsl_writer__close(w) == 0);
	r = fsl_reader__open(path, NULL, &err);
	REQUIRE(r);
	fsl_meta_from_reader(&m, r);
	t = fsl_meta__text(&m, FSL_TEXT_JBD2_INFO_START, &len);
	REQUIRE(t);
	CHECK_U64(len, strlen(jbd2_text));
	CHECK(!memcmp(t, jbd2_text, len));
	CHECK(fsl_meta__text(&m, FSL_TEXT_JBD2_INFO_END, &len) == NULL);
	CHECK_EQ(fsl_meta__jbd2_info(&m, FSL_JBD2_START, &ji), 0);
	CHECK_U64(ji.avg_commit_us, 12345);
	CHECK_U64(fsl_meta__u64(&m, FSL_KV_EXT4_BLOCK_SIZE, 0), 4096);
	fsl_reader__close(r);
}

/*
 * Commands no longer hand texts to the analyses: the journal analysis seeds
 * the kernel's commit-time average from the jbd2 info in the metadata, and
 * the renderers' start/end infos come from it too, from any fsl_meta.
 */
TEST(meta_jbd2_info_reaches_the_analysis)
{
	struct fsl_analysis_opts o = { .root_pid = -1 };
	const struct fsl_jbd2_info *ji;
	struct fsl_meta_store s;
	struct fsl_analysis *a;
	struct fsl_meta m;
	int err = 0;

	fsl_meta_store__init(&s);
	store_meta(&s, &m);
	a = fsl_analysis__new(&o, &err);
	REQUIRE(a);
	REQUIRE(fsl_analysis__begin(a, &m) == 0);
	CHECK_U64(fsl_analysis__journal(a)->ewma_commit_ns, 0);
	CHECK(fsl_analysis__jbd2_start(a) == NULL);
	fsl_analysis__free(a);

	fsl_meta_store__text(&s, FSL_TEXT_JBD2_INFO_START, jbd2_text, strlen(jbd2_text));
	a = fsl_analysis__new(&o, &err);
	REQUIRE(a);
	REQUIRE(fsl_analysis__begin(a, &m) == 0);
	CHECK_U64(fsl_analysis__journal(a)->ewma_commit_ns, 12345000);
	ji = fsl_analysis__jbd2_start(a);
	REQUIRE(ji);
	CHECK_U64(ji->max_blocks, 8192);
	CHECK(fsl_analysis__jbd2_end(a) == NULL);
	fsl_analysis__free(a);
	fsl_meta_store__fini(&s);
}

/*
 * A device named as export's --dev takes it: MAJ:MIN, blkparse's MAJ,MIN,
 * or a kernel name the trace recorded (with or without /dev/); the way back
 * from fsl_meta__dev_name.
 */
TEST(meta_dev_parse)
{
	struct fsl_meta_store s;
	struct fsl_meta m;
	uint32_t dev = 0;
	char buf[64];

	fsl_meta_store__init(&s);
	fsl_meta_store__kv(&s, FSL_KV_DISK_NAME, "7:0 loop0");
	fsl_meta_store__kv(&s, FSL_KV_DEV_NAME, "259:3 nvme0n1p3");
	store_meta(&s, &m);
	CHECK_EQ(fsl_meta__dev_parse(&m, "8:17", &dev), 0);
	CHECK_EQ(dev, FSL_MKDEV(8, 17));
	CHECK_EQ(fsl_meta__dev_parse(&m, "8,16", &dev), 0);
	CHECK_EQ(dev, FSL_MKDEV(8, 16));
	CHECK_EQ(fsl_meta__dev_parse(&m, "loop0", &dev), 0);
	CHECK_EQ(dev, FSL_MKDEV(7, 0));
	CHECK_EQ(fsl_meta__dev_parse(&m, "/dev/nvme0n1p3", &dev), 0);
	CHECK_EQ(dev, FSL_MKDEV(259, 3));
	CHECK_STR(fsl_meta__dev_name(&m, dev, buf, sizeof(buf)), "nvme0n1p3");
	CHECK_EQ(fsl_meta__dev_parse(&m, "sdc", &dev), -ENOENT);
	CHECK_EQ(fsl_meta__dev_parse(&m, "8:17x", &dev), -ENOENT);
	fsl_meta_store__fini(&s);
}
