// SPDX-License-Identifier: GPL-2.0
/*
 * The data analysis: counts, bytes asked and done, latency quantiles,
 * slowest calls, bytes per file and per process, and records of another
 * filesystem kept out, on hand-built records with known values.
 */
#include <stdio.h>
#include "an_fixture.h"
#include "fslens/report.h"
#include "t.h"

#define DEV_T	((7u << 20) | 1)	/* the target, loop1 */
#define DEV_O	((7u << 20) | 2)	/* another filesystem */

static int fx_data(struct fsl_analysis *a, uint64_t ts, uint32_t pid, unsigned int op,
		   uint32_t dev, uint64_t ino, const char *name, int64_t off, uint64_t bytes,
		   int64_t ret, uint64_t lat)
{
	struct fsl_ev_data ev;

	memset(&ev, 0, sizeof(ev));
	fx_hdr(&ev.hdr, FSL_EV_DATA, sizeof(ev), ts, pid, pid);
	ev.op = op;
	ev.dev = dev;
	ev.ino = ino;
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ev.offset = off;
	ev.bytes = bytes;
	ev.ret = ret;
	ev.lat_ns = lat;
	return fsl_analysis__feed(a, &ev.hdr);
}

static struct fsl_analysis *data_setup(struct fx_meta *f)
{
	struct fsl_analysis *a;
	int err = 0;

	fx_init(f);
	fx_set(f, FSL_KV_DEV, "7340033");	/* (7 << 20) | 1 */
	a = fsl_analysis__new(&(struct fsl_analysis_opts){ .root_pid = -1 }, &err);
	if (a && fsl_analysis__begin(a, &f->m)) {
		fsl_analysis__free(a);
		return NULL;
	}
	return a;
}

TEST(data_counts_bytes_latency)
{
	struct fx_meta f;
	struct fsl_analysis *a = data_setup(&f);
	const struct fsl_data *d;
	unsigned int i;
	uint64_t ts = 1000000;

	REQUIRE(a);
	CHECK_EQ(fx_proc(a, 10, 100, 1, FSL_PROC_SEEN, 0, "writer"), 0);
	CHECK_EQ(fx_proc(a, 10, 200, 1, FSL_PROC_SEEN, 0, "reader"), 0);
	/* 100 writes of 4 KiB to "a" at 1..100 us, then 50 reads of 8 KiB of it */
	for (i = 0; i < 100; i++, ts += 200000)
		CHECK_EQ(fx_data(a, ts, 100, FSL_DATA_WRITE, DEV_T, 12, "a", 4096 * i, 4096, 4096,
				 (i + 1) * 1000), 0);
	for (i = 0; i < 50; i++, ts += 200000)
		CHECK_EQ(fx_data(a, ts, 200, FSL_DATA_PREAD, DEV_T, 12, "a", 8192 * i, 8192,
				 i == 49 ? 0 : 8192, 5000), 0);
	/* a short read, an error, an fsync */
	CHECK_EQ(fx_data(a, ts += 1000, 200, FSL_DATA_READ, DEV_T, 13, "b", 0, 65536, 100, 2000), 0);
	CHECK_EQ(fx_data(a, ts += 1000, 200, FSL_DATA_WRITE, DEV_T, 13, "b", 0, 10, -28, 3000), 0);
	CHECK_EQ(fx_data(a, ts += 1000, 100, FSL_DATA_FSYNC, DEV_T, 12, "a", -1, 0, 0, 7000000), 0);
	/* another filesystem's calls: counted nowhere */
	CHECK_EQ(fx_data(a, ts += 1000, 100, FSL_DATA_WRITE, DEV_O, 12, "x", 0, 1 << 20, 1 << 20,
			 9000000), 0);

	d = fsl_analysis__data(a);
	REQUIRE(d);
	CHECK_EQ(d->total, 153);
	CHECK_EQ(d->outside, 1);
	CHECK_EQ(d->op[FSL_DATA_WRITE].count, 101);
	CHECK_EQ(d->op[FSL_DATA_WRITE].errors, 1);
	CHECK_EQ(d->op[FSL_DATA_WRITE].bytes_asked, 100 * 4096 + 10);
	CHECK_EQ(d->op[FSL_DATA_WRITE].bytes_done, 100 * 4096);
	CHECK_EQ(d->op[FSL_DATA_PREAD].count, 50);
	CHECK_EQ(d->op[FSL_DATA_PREAD].bytes_done, 49 * 8192);
	CHECK_EQ(d->op[FSL_DATA_READ].bytes_done, 100);
	CHECK_EQ(d->read_bytes, 49 * 8192 + 100);
	CHECK_EQ(d->write_bytes, 100 * 4096);
	CHECK_EQ(d->op[FSL_DATA_FSYNC].count, 1);
	/* writes at 1..100 us (and one 3 us): the median is 50 us within a bucket */
	{
		uint64_t p50 = fsl_hist_quantile(&d->op[FSL_DATA_WRITE].lat, 0.5);

		CHECK(p50 >= 48000 && p50 <= 52000);
		CHECK_EQ(d->op[FSL_DATA_WRITE].lat.max, 100000);
	}
	/* slowest first: the fsync, then the 100 us write; not the other fs's */
	CHECK_EQ(d->nslow, FSL_DATA_SLOWEST);
	CHECK_EQ(d->slow[0].op, FSL_DATA_FSYNC);
	CHECK_EQ(d->slow[0].lat_ns, 7000000);
	CHECK_STR(d->slow[0].name, "a");
	CHECK_STR(d->slow[0].comm, "writer");
	CHECK_EQ(d->slow[1].lat_ns, 100000);
	CHECK_EQ(d->slow[1].offset, 99 * 4096);
	/* files: "a" (ino 12) first by bytes, then "b" */
	CHECK_EQ(d->nfiles, 2);
	CHECK_EQ(d->files[0].ino, 12);
	CHECK_EQ(d->files[0].writes, 100);
	CHECK_EQ(d->files[0].write_bytes, 100 * 4096);
	CHECK_EQ(d->files[0].reads, 50);
	CHECK_EQ(d->files[0].read_bytes, 49 * 8192);
	CHECK_EQ(d->files[1].ino, 13);
	CHECK_EQ(d->files[1].read_bytes, 100);
	/* processes: writer 400 KiB, reader 392 KiB + 100 */
	CHECK_EQ(d->nprocs, 2);
	CHECK_EQ(d->procs[0].pid, 100);
	CHECK_STR(d->procs[0].name, "writer");
	CHECK_EQ(d->procs[1].pid, 200);
	CHECK_EQ(d->procs[1].read_bytes, 49 * 8192 + 100);
	{
		const struct fsl_proc_stat *ps;
		unsigned int n = fsl_analysis__procs(a, &ps), k, seen = 0;

		for (k = 0; k < n; k++) {
			if (ps[k].pid == 100) {
				CHECK_EQ(ps[k].data_write_bytes, 100 * 4096);
				seen++;
			}
			if (ps[k].pid == 200) {
				CHECK_EQ(ps[k].data_read_bytes, 49 * 8192 + 100);
				CHECK_EQ(ps[k].data_reads, 51);
				seen++;
			}
		}
		CHECK_EQ(seen, 2);
	}
	fsl_analysis__free(a);
}

/* The report shows the section; a window keeps only the calls that end in it. */
TEST(data_report_and_window)
{
	struct fx_meta f;
	struct fsl_analysis *a = data_setup(&f);
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	REQUIRE(a);
	CHECK_EQ(fx_data(a, 1000, 100, FSL_DATA_PWRITE, DEV_T, 12, "big.db", 0, 4096, 4096, 5000), 0);
	CHECK_EQ(fx_data(a, 2000, 100, FSL_DATA_FDATASYNC, DEV_T, 12, "big.db", -1, 0, 0, 900000), 0);
	out = open_memstream(&buf, &len);
	REQUIRE(out);
	fsl_report__text(out, a, NULL);
	fclose(out);
	REQUIRE(buf);
	CHECK(strstr(buf, "DATA OPERATIONS  2 calls") != NULL);
	CHECK(strstr(buf, "fdatasync") != NULL);
	CHECK(strstr(buf, "big.db (12)") != NULL);
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	REQUIRE(out);
	fsl_report__json(out, a, NULL);
	fclose(out);
	REQUIRE(buf);
	CHECK(strstr(buf, "\"data\"") != NULL);
	CHECK(strstr(buf, "\"pwrite\"") != NULL);
	free(buf);

	fsl_analysis__reset(a, 10000, 20000);
	CHECK_EQ(fx_data(a, 9000, 100, FSL_DATA_READ, DEV_T, 12, "big.db", 0, 10, 10, 500), 0);
	CHECK_EQ(fx_data(a, 9800, 100, FSL_DATA_READ, DEV_T, 12, "big.db", 0, 10, 10, 500), 0);
	CHECK_EQ(fsl_analysis__data(a)->total, 1);	/* ends at 10300, inside */
	fsl_analysis__free(a);
}
