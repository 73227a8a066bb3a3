// SPDX-License-Identifier: GPL-2.0
/*
 * -d's three spellings of one device resolve to the dev_t stat(2) gives for
 * its node, and the kernel's name comes back for that number; a trace's own
 * names win over this machine's.
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "fslens/devname.h"
#include "fslens/event.h"
#include "fslens/meta.h"
#include "t.h"

TEST(devname_lookup_three_spellings)
{
	char node[256], mm[32], name[64];
	struct stat st;
	uint32_t dev = 0, want;

	if (stat("/dev/loop0", &st) || !S_ISBLK(st.st_mode))
		SKIP("no /dev/loop0");
	want = FSL_MKDEV(major(st.st_rdev), minor(st.st_rdev));
	CHECK_EQ(fsl_dev_lookup("/dev/loop0", &dev, node, sizeof(node)), 0);
	CHECK_U64(dev, want);
	CHECK_STR(node, "/dev/loop0");
	dev = 0;
	CHECK_EQ(fsl_dev_lookup("loop0", &dev, node, sizeof(node)), 0);
	CHECK_U64(dev, want);
	CHECK_STR(node, "/dev/loop0");
	snprintf(mm, sizeof(mm), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	dev = 0;
	CHECK_EQ(fsl_dev_lookup(mm, &dev, node, sizeof(node)), 0);
	CHECK_U64(dev, want);
	CHECK_STR(node, "/dev/loop0");
	CHECK_STR(fsl_dev_kname(want, name, sizeof(name)), "loop0");
	CHECK_STR(fsl_dev_label(NULL, want, name, sizeof(name)), "loop0");
}

TEST(devname_lookup_errors)
{
	char node[256];
	uint32_t dev;

	CHECK_EQ(fsl_dev_lookup("nosuchdev0", &dev, node, sizeof(node)), -ENOENT);
	CHECK_EQ(fsl_dev_lookup("/nonexistent/dev", &dev, node, sizeof(node)), -ENOENT);
	CHECK_EQ(fsl_dev_lookup("/etc/passwd", &dev, node, sizeof(node)), -ENOTBLK);
	/* a number no device has: 4095:1048575 */
	CHECK_EQ(fsl_dev_lookup("4095:1048575", &dev, node, sizeof(node)), -ENOENT);
	CHECK_EQ(fsl_dev_lookup("7:", &dev, node, sizeof(node)), -ENOENT);
	CHECK_EQ(fsl_dev_lookup("", &dev, node, sizeof(node)), -EINVAL);
}

TEST(devname_label_prefers_the_trace)
{
	struct fsl_meta_store s;
	struct fsl_meta m;
	char buf[64];

	fsl_meta_store__init(&s);
	REQUIRE(!fsl_meta_store__kv(&s, FSL_KV_DISK_NAME, "8:16 sdb"));
	REQUIRE(!fsl_meta_store__kv(&s, FSL_KV_HOSTNAME, "another-machine"));
	fsl_meta_store__view(&s, &m);
	/* 8:16 is named by the trace even where this machine has no 8:16 */
	CHECK_STR(fsl_dev_label(&m, FSL_MKDEV(8, 16), buf, sizeof(buf)), "sdb");
	/* a device the trace does not name, from another machine: its number */
	CHECK_STR(fsl_dev_label(&m, FSL_MKDEV(7, 0), buf, sizeof(buf)), "7:0");
	fsl_meta_store__fini(&s);
}
