// SPDX-License-Identifier: GPL-2.0
/*
 * Disk service time of a request stream, queue depth 1, in issue order.
 * HDD: seek curve (track-to-track, average at a third of the stroke, full
 * stroke), rotation from rpm, media transfer rate, a read-ahead track
 * buffer. SSD: fixed access latency plus transfer. The preset figures and
 * where they come from are listed in docs/model.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/model.h"

static const struct fsl_disk_profile p_scsi10k = {
	.name = "scsi-10k", .rotational = 1, .rpm = 10000,
	.track_to_track_ms = 0.4, .avg_seek_ms = 4.7, .full_seek_ms = 10.0,
	.transfer_mbs = 70.0, .capacity_bytes = 146800000000ull,
	.track_kib = 512, .cache_kib = 8192, .cmd_overhead_ms = 0.1,
	.source = "Seagate Cheetah 10K.7 class (Ultra320 SCSI, 146 GB): 10,000 rpm, "
		  "4.7 ms average read seek, 0.4 ms track-to-track, ~10 ms full stroke, "
		  "58-89 MB/s sustained (70 used), 8 MB buffer",
};

static const struct fsl_disk_profile p_ide5400 = {
	.name = "ide-5400", .rotational = 1, .rpm = 5400,
	.track_to_track_ms = 1.5, .avg_seek_ms = 12.0, .full_seek_ms = 22.0,
	.transfer_mbs = 25.0, .capacity_bytes = 40000000000ull,
	.track_kib = 256, .cache_kib = 2048, .cmd_overhead_ms = 0.3,
	.source = "ATA-100 5,400 rpm desktop drive class (40 GB, e.g. Maxtor DiamondMax "
		  "or Seagate U-series): 12 ms average seek, 1.5 ms track-to-track, "
		  "22 ms full stroke, ~25 MB/s sustained, 2 MB buffer",
};

static const struct fsl_disk_profile p_sata7200 = {
	.name = "sata-7200", .rotational = 1, .rpm = 7200,
	.track_to_track_ms = 0.8, .avg_seek_ms = 8.5, .full_seek_ms = 17.0,
	.transfer_mbs = 78.0, .capacity_bytes = 250000000000ull,
	.track_kib = 512, .cache_kib = 16384, .cmd_overhead_ms = 0.2,
	.source = "Seagate Barracuda 7200.10 class (SATA 3 Gb/s, 250 GB): 7,200 rpm, "
		  "8.5 ms average read seek, 0.8 ms track-to-track, ~17 ms full stroke, "
		  "78 MB/s sustained, 16 MB buffer",
};

static const struct fsl_disk_profile p_ssd = {
	.name = "ssd", .rotational = 0, .transfer_mbs = 500.0,
	.capacity_bytes = 500000000000ull, .ssd_read_us = 80, .ssd_write_us = 40,
	.source = "SATA SSD class: ~80 us 4 KiB read, ~40 us write (to DRAM cache), "
		  "500 MB/s interface-limited transfer",
};

static const struct fsl_disk_profile p_ram = {
	.name = "ram", .rotational = 0, .capacity_bytes = UINT64_MAX,
	.source = "zero cost (upper bound: the workload without device time)",
};

static const struct fsl_disk_profile *const profiles[] = {
	&p_scsi10k, &p_ide5400, &p_sata7200, &p_ssd, &p_ram, NULL,
};

const struct fsl_disk_profile *const *fsl_disk_profiles(void)
{
	return profiles;
}

const struct fsl_disk_profile *fsl_disk_profile_find(const char *name)
{
	int i;

	for (i = 0; profiles[i]; i++)
		if (!strcmp(profiles[i]->name, name))
			return profiles[i];
	return NULL;
}

struct fsl_disk {
	const struct fsl_disk_profile *p;
	int started;
	uint64_t head;		/* byte position after the last request */
	uint64_t buf_start, buf_end;	/* read-ahead buffer contents */
	struct fsl_disk_stats st;
};

struct fsl_disk *fsl_disk__new(const struct fsl_disk_profile *p)
{
	struct fsl_disk *d = calloc(1, sizeof(*d));

	if (d)
		d->p = p;
	return d;
}

void fsl_disk__free(struct fsl_disk *d)
{
	free(d);
}

double fsl_disk_seek_ms(const struct fsl_disk_profile *p, uint64_t dist)
{
	double x;

	if (!dist || !p->rotational)
		return 0;
	x = (double)dist / (double)p->capacity_bytes;
	if (x > 1)
		x = 1;
	if (x <= 1.0 / 3)
		return p->track_to_track_ms + (p->avg_seek_ms - p->track_to_track_ms) * sqrt(3 * x);
	return p->avg_seek_ms + (p->full_seek_ms - p->avg_seek_ms) * (x - 1.0 / 3) / (2.0 / 3);
}

uint64_t fsl_disk__service(struct fsl_disk *d, uint64_t sector, uint32_t bytes, int write)
{
	const struct fsl_disk_profile *p = d->p;
	uint64_t pos = sector * 512, end = pos + bytes;
	double rot_ms, seek = 0, rot = 0, xfer, total, over = p->cmd_overhead_ms;
	double track = (double)p->track_kib * 1024;

	d->st.requests++;
	d->st.bytes += bytes;
	if (!p->transfer_mbs) {		/* ram */
		d->head = end;
		return 0;
	}
	xfer = (double)bytes / (p->transfer_mbs * 1e6) * 1e3;
	if (!p->rotational) {
		total = (write ? p->ssd_write_us : p->ssd_read_us) / 1e3 + xfer;
		d->st.xfer_ns += (uint64_t)(xfer * 1e6);
		d->st.busy_ns += (uint64_t)(total * 1e6);
		d->head = end;
		return (uint64_t)(total * 1e6);
	}
	rot_ms = 60000.0 / p->rpm;
	if (!write && d->started && pos >= d->buf_start && end <= d->buf_end) {
		/* served from the track buffer at interface speed */
		d->st.buffer_hits++;
		total = over + xfer / 4;
		d->st.xfer_ns += (uint64_t)(xfer / 4 * 1e6);
		d->st.busy_ns += (uint64_t)(total * 1e6);
		return (uint64_t)(total * 1e6);
	}
	if (!d->started) {
		seek = p->avg_seek_ms;
		rot = rot_ms / 2;
		d->st.seeks++;
	} else if (pos == d->head) {
		/* sequential: no positioning */
	} else if (pos > d->head && pos - d->head < track) {
		/* short forward skip on the same track: wait for it to come round */
		rot = rot_ms * (double)(pos - d->head) / track;
	} else {
		uint64_t dist = pos > d->head ? pos - d->head : d->head - pos;

		seek = fsl_disk_seek_ms(p, dist);
		rot = rot_ms / 2;
		d->st.seeks++;
	}
	total = over + seek + rot + xfer;
	d->started = 1;
	d->head = end;
	if (write) {
		if (pos < d->buf_end && end > d->buf_start)
			d->buf_start = d->buf_end = 0;
	} else {
		d->buf_start = pos;
		d->buf_end = end + (uint64_t)track;
	}
	d->st.seek_ns += (uint64_t)(seek * 1e6);
	d->st.rot_ns += (uint64_t)(rot * 1e6);
	d->st.xfer_ns += (uint64_t)(xfer * 1e6);
	d->st.busy_ns += (uint64_t)(total * 1e6);
	return (uint64_t)(total * 1e6);
}

const struct fsl_disk_stats *fsl_disk__stats(const struct fsl_disk *d)
{
	return &d->st;
}
