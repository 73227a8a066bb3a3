// SPDX-License-Identifier: GPL-2.0
/* Disk model: seek curve, rotation, sequential transfer, track buffer, presets. */
#include "t.h"
#include "fslens/model.h"

TEST(model_disk_seek_curve)
{
	const struct fsl_disk_profile *p = fsl_disk_profile_find("sata-7200");

	REQUIRE(p);
	CHECK_NEAR(fsl_disk_seek_ms(p, 0), 0, 1e-9);
	/* a third of the stroke is the average seek, the whole stroke the full seek */
	CHECK_NEAR(fsl_disk_seek_ms(p, p->capacity_bytes / 3), 8.5, 0.01);
	CHECK_NEAR(fsl_disk_seek_ms(p, p->capacity_bytes), 17.0, 0.01);
	/* 1/27 of the stroke: 0.8 + 7.7 * sqrt(1/9) */
	CHECK_NEAR(fsl_disk_seek_ms(p, p->capacity_bytes / 27), 0.8 + 7.7 / 3, 0.01);
	CHECK(fsl_disk_seek_ms(p, 1 << 20) < fsl_disk_seek_ms(p, 1ull << 30));
	CHECK(fsl_disk_profile_find("scsi-10k") && fsl_disk_profile_find("ide-5400") &&
	      fsl_disk_profile_find("ssd") && fsl_disk_profile_find("ram"));
	CHECK(!fsl_disk_profile_find("floppy"));
}

TEST(model_disk_service_times)
{
	const struct fsl_disk_profile *p = fsl_disk_profile_find("sata-7200");
	struct fsl_disk *d = fsl_disk__new(p);
	uint64_t t;
	double xfer = 65536 / 78e6 * 1e3;	/* ms */

	REQUIRE(d);
	/* first request: overhead + average seek + half a rotation (4.1667 ms) + transfer */
	t = fsl_disk__service(d, 1000, 65536, 1);
	CHECK_NEAR(t / 1e6, 0.2 + 8.5 + 60000.0 / 7200 / 2 + xfer, 0.001);
	/* the next sector: transfer only */
	t = fsl_disk__service(d, 1000 + 128, 65536, 1);
	CHECK_NEAR(t / 1e6, 0.2 + xfer, 0.001);
	/* 1/3 of the disk away: average seek again */
	t = fsl_disk__service(d, 1000 + 256 + p->capacity_bytes / 3 / 512, 65536, 0);
	CHECK_NEAR(t / 1e6, 0.2 + 8.5 + 60000.0 / 7200 / 2 + xfer, 0.01);
	/* re-reading what the track buffer holds is nearly free */
	t = fsl_disk__service(d, 1000 + 256 + p->capacity_bytes / 3 / 512 + 128, 4096, 0);
	CHECK(t < 300000);
	CHECK_EQ(fsl_disk__stats(d)->seeks, 2);
	CHECK_EQ(fsl_disk__stats(d)->buffer_hits, 1);
	fsl_disk__free(d);
	d = fsl_disk__new(fsl_disk_profile_find("ram"));
	CHECK_EQ(fsl_disk__service(d, 5, 4096, 1), 0);
	fsl_disk__free(d);
	d = fsl_disk__new(fsl_disk_profile_find("ssd"));
	CHECK_NEAR(fsl_disk__service(d, 5, 4096, 0) / 1e3, 80 + 4096 / 500e6 * 1e6, 0.01);
	fsl_disk__free(d);
}

TEST(model_dir_blocks_by_block_size)
{
	/* 30,000 names of 8 bytes: 18 bytes each + 24 */
	uint64_t n = 30000, names = 8 * n;

	CHECK_EQ(fsl_dir_blocks(2, 10, 1024), 1);
	/* 540024 bytes at 3/4 fill: 704 leaves of 1 KiB (+ root + 6 index blocks) */
	CHECK_EQ(fsl_dir_blocks(n, names, 1024), 1 + 704 + 6);
	CHECK_EQ(fsl_dir_blocks(n, names, 4096), 1 + 176);
	CHECK(fsl_dir_blocks(n, names, 4096) <= fsl_dir_blocks(n, names, 1024));
}
