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

/*
 * A directory replayed entry by entry (model/dirsim.c). 1 KiB blocks, no
 * metadata_csum: "." and ".." take 24 bytes, names of 10 bytes 20 each, so
 * block 0 holds 50; the 51st makes it an htree: root, and block 1 split in
 * two (do_split moves the 26 of the highest hashes: 520 bytes, the 27th
 * would pass half the block) = 3 blocks.
 */
TEST(model_dir_sim_linear_then_htree)
{
	struct fsl_dir_sim *d = fsl_dir_sim__new(1024, 0);
	uint32_t i;

	REQUIRE(d);
	for (i = 0; i < 50; i++)
		CHECK_EQ(fsl_dir_sim__add(d, i * 77777777u, 10), 0);
	CHECK_U64(fsl_dir_sim__blocks(d), 1);
	CHECK_EQ(fsl_dir_sim__add(d, 123, 10), 0);
	CHECK_U64(fsl_dir_sim__blocks(d), 3);
	fsl_dir_sim__free(d);
	/* with metadata_csum the block ends in a 12-byte tail: 49 fit */
	d = fsl_dir_sim__new(1024, 1);
	REQUIRE(d);
	for (i = 0; i < 50; i++)
		CHECK_EQ(fsl_dir_sim__add(d, i * 77777777u, 10), 0);
	CHECK_U64(fsl_dir_sim__blocks(d), 3);
	fsl_dir_sim__free(d);
	CHECK(fsl_dir_sim__new(512, 0) == NULL);
}

/*
 * Many random hashes: leaves end between half and full (random inserts fill
 * a B-tree's nodes to about ln 2), and past the root's 124 entries (1 KiB,
 * no csum) index nodes appear; 4 KiB blocks take about a quarter as many.
 */
TEST(model_dir_sim_random_fill)
{
	struct fsl_dir_sim *d1 = fsl_dir_sim__new(1024, 0), *d4 = fsl_dir_sim__new(4096, 0);
	uint64_t x = 88172645463325252ull, b1, b4;
	uint32_t i, n = 30000;

	REQUIRE(d1 && d4);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		CHECK_EQ(fsl_dir_sim__add(d1, (uint32_t)x & ~1u, 8), 0);
		CHECK_EQ(fsl_dir_sim__add(d4, (uint32_t)x & ~1u, 8), 0);
	}
	b1 = fsl_dir_sim__blocks(d1);
	b4 = fsl_dir_sim__blocks(d4);
	/* 30,000 x 16 bytes: 469 full 1 KiB leaves; at 1/2..1 full, 469..938 */
	CHECK(b1 > 1 + 469 + 3 && b1 < 1 + 938);
	CHECK(b1 * 1024 * 0.65 < 30000.0 * 16 * 1.1 + 1024 * 8 && b1 * 1024 * 0.75 > 30000.0 * 16);
	CHECK(b4 > 118 && b4 < 240);
	fsl_dir_sim__free(d1);
	fsl_dir_sim__free(d4);
}
