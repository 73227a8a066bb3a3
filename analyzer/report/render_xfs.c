// SPDX-License-Identifier: GPL-2.0
/*
 * The XFS layout section of a report (text and JSON; HTML shows the text):
 * extents per file as xfs_bmap counts them, the inode-to-data distance, the
 * inode chunks the creates used, free space at the start and the end, and
 * the reads' own seek distances. An XFS target's report has this section
 * in place of the ext4 layout and the jbd2 journal ones: nothing of ext4 is
 * said about it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "fslens/indmap.h"
#include "fslens/json.h"
#include "fslens/xfslayout.h"
#include "render_internal.h"

int rn_is_xfs(struct fsl_analysis *a)
{
	const char *t = fsl_meta_kv(fsl_analysis__meta(a), FSL_KV_FSTYPE);

	return t && !strcmp(t, "xfs");
}

static const char *mib(char *b, size_t len, uint64_t bytes)
{
	snprintf(b, len, "%.1f MiB", bytes / 1048576.0);
	return b;
}

/* "same AG: 12, 1: 3, 2-3: 1" */
static void ags_line(char *line, size_t len, const uint64_t rows[16])
{
	size_t used = 0;
	unsigned int i;

	line[0] = 0;
	for (i = 0; i < 16 && used < len; i++) {
		if (!rows[i])
			continue;
		if (!i)
			used += snprintf(line + used, len - used, "%ssame AG: %" PRIu64,
					 used ? ", " : "", rows[i]);
		else if (i == 1)
			used += snprintf(line + used, len - used, "%s1: %" PRIu64, used ? ", " : "",
					 rows[i]);
		else
			used += snprintf(line + used, len - used, "%s%u-%u: %" PRIu64,
					 used ? ", " : "", 1u << (i - 1), (1u << i) - 1, rows[i]);
	}
}

static void dist_text(FILE *f, const char *what, const struct fsl_xfs_dist *d)
{
	char line[512];

	if (!d->files)
		return;
	fprintf(f, "  inode-to-data distance, %s (%" PRIu64 " files): same AG %.1f%%, mean %.2f AGs; "
		"sectors mean %" PRIu64 ", median %" PRIu64 ", p90 %" PRIu64 "\n", what, d->files,
		rn_pct(d->same_ag, d->files), d->mean_ags, fsl_hist_avg(&d->sectors),
		fsl_hist_quantile(&d->sectors, 0.5), fsl_hist_quantile(&d->sectors, 0.9));
	ags_line(line, sizeof(line), d->ags_log2);
	fprintf(f, "    AGs apart: %s\n", line);
}

void rn_xfs_text(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	const struct fsl_xfslayout *l = fsl_analysis__xfslayout(a);
	const struct fsl_xfs_file *fl;
	unsigned int i, n, shown;
	uint64_t t0, t1;
	char b1[32], b2[32];

	if (!l)
		return;
	fprintf(f, "\nXFS LAYOUT  ");
	if (!l->geometry) {
		fprintf(f, "no XFS geometry in the trace (xfs.* keys): nothing to place\n");
		return;
	}
	fprintf(f, "%" PRIu64 " files with mapped extents, %" PRIu64 " with more than one "
		"(as xfs_bmap counts them), %" PRIu64 " extents of %" PRIu64 " blocks\n", l->files,
		l->fragmented, l->extents, l->blocks);
	fprintf(f, "  extents per file:");
	for (i = 0; i < 16; i++)
		if (l->extents_log2[i])
			fprintf(f, " %u%s: %" PRIu64, 1u << i, i ? "+" : "", l->extents_log2[i]);
	fputc('\n', f);
	n = fsl_xfslayout__files(l, &fl);
	for (shown = 0, i = 0; i < n; i++) {
		if (fl[i].extents < 2)
			continue;
		if (!shown)
			fprintf(f, "  files in more than one extent (inode: extents/blocks):");
		if (shown++ < 8)
			fprintf(f, " %" PRIu64 ": %u/%" PRIu64, fl[i].ino, fl[i].extents, fl[i].blocks);
	}
	if (shown > 8)
		fprintf(f, " ... %u more", shown - 8);
	if (shown)
		fputc('\n', f);
	dist_text(f, "every file", &l->dist);
	rn_span(a, &t0, &t1);
	if (l->dist_win.files && l->dist_win.files != l->dist.files)
		dist_text(f, "files mapped, read or written in the window", &l->dist_win);
	if (l->creates) {
		fprintf(f, "  creates: %" PRIu64 " (%" PRIu64 " whose new inode no entry named)\n",
			l->creates, l->creates_unmatched);
		for (i = 0; i < l->nags && i < 16; i++) {
			const struct fsl_xfs_ag_inodes *g = &l->ags[i];

			fprintf(f, "    AG %u: %" PRIu64 " inodes in %" PRIu64 " chunks (%" PRIu64
				" new), %" PRIu64 " in a chunk before the previous one; agino %"
				PRIu64 " first, %" PRIu64 " last\n", g->agno, g->inodes, g->chunks,
				g->new_chunks, g->backward, g->first_agino, g->last_agino);
		}
	}
	for (i = 0; i < 2; i++) {
		const struct fsl_xfs_free *fr = &l->free[i];
		unsigned int k;

		if (!fr->have)
			continue;
		fprintf(f, "  free space at the %s (GETFSMAP): %s in %" PRIu64 " extents, largest %s\n",
			i ? "end" : "start", mib(b1, sizeof(b1), fr->bytes), fr->extents,
			mib(b2, sizeof(b2), fr->largest));
		fprintf(f, "    per AG:");
		for (k = 0; k < fr->nags && k < 32; k++)
			fprintf(f, " %s", mib(b1, sizeof(b1), fr->ag_bytes[k]));
		fputc('\n', f);
	}
	if (l->reads) {
		double secs = (t1 > t0 ? t1 - t0 : 0) / 1e9;
		uint64_t rows[64];
		size_t used = 0;
		char line[600];

		fprintf(f, "  read seeks (reads only, each from the previous read): %" PRIu64 " of %"
			PRIu64 " reads, %.1f/s, %" PRIu64 " backward; distance mean %" PRIu64
			", median %" PRIu64 ", p90 %" PRIu64 " sectors\n", l->read_seeks, l->reads,
			secs > 0 ? l->read_seeks / secs : 0, l->backward_reads,
			fsl_hist_avg(&l->read_seek), fsl_hist_quantile(&l->read_seek, 0.5),
			fsl_hist_quantile(&l->read_seek, 0.9));
		fsl_hist_log2(&l->read_seek, rows);
		line[0] = 0;
		for (i = 0; i < 64 && used < sizeof(line); i++)
			if (rows[i])
				used += snprintf(line + used, sizeof(line) - used, "%s%llu:%" PRIu64,
						 used ? " " : "", 1ull << i, rows[i]);
		if (used)
			fprintf(f, "    log2 sectors: %s\n", line);
	}
	(void)info;
}

static void dist_json(struct fsl_json *j, const char *key, const struct fsl_xfs_dist *d)
{
	char b[16];
	unsigned int i;

	fsl_json__key(j, key);
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "files", d->files);
	fsl_json__kv_u64(j, "same_ag", d->same_ag);
	fsl_json__kv_double(j, "mean_ags", d->mean_ags);
	fsl_json__key(j, "ags_log2");
	fsl_json__obj_begin(j);
	for (i = 0; i < 16; i++)
		if (d->ags_log2[i]) {
			snprintf(b, sizeof(b), "%u", i ? 1u << (i - 1) : 0);
			fsl_json__kv_u64(j, b, d->ags_log2[i]);
		}
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "mean_sectors", fsl_hist_avg(&d->sectors));
	fsl_json__kv_u64(j, "median_sectors", fsl_hist_quantile(&d->sectors, 0.5));
	fsl_json__kv_u64(j, "p90_sectors", fsl_hist_quantile(&d->sectors, 0.9));
	fsl_json__kv_u64(j, "max_sectors", d->files ? d->sectors.max : 0);
	fsl_json__obj_end(j);
}

void rn_xfs_json(struct fsl_json *j, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	const struct fsl_xfslayout *l = fsl_analysis__xfslayout(a);
	const struct fsl_xfs_file *fl;
	unsigned int i, n, k;
	uint64_t t0, t1;
	double secs;

	fsl_json__key(j, "xfs_layout");
	if (!l || !l->geometry) {
		fsl_json__null(j);
		return;
	}
	rn_span(a, &t0, &t1);
	secs = (t1 > t0 ? t1 - t0 : 0) / 1e9;
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "files", l->files);
	fsl_json__kv_u64(j, "fragmented_files", l->fragmented);
	fsl_json__kv_u64(j, "extents", l->extents);
	fsl_json__kv_u64(j, "blocks", l->blocks);
	fsl_json__key(j, "extents_log2");
	fsl_json__obj_begin(j);
	for (i = 0; i < 16; i++)
		if (l->extents_log2[i]) {
			char b[16];

			snprintf(b, sizeof(b), "%u", 1u << i);
			fsl_json__kv_u64(j, b, l->extents_log2[i]);
		}
	fsl_json__obj_end(j);
	dist_json(j, "inode_distance", &l->dist);
	dist_json(j, "inode_distance_window", &l->dist_win);
	fsl_json__kv_u64(j, "creates", l->creates);
	fsl_json__kv_u64(j, "creates_unmatched", l->creates_unmatched);
	fsl_json__key(j, "inode_ags");
	fsl_json__arr_begin(j);
	for (i = 0; i < l->nags; i++) {
		const struct fsl_xfs_ag_inodes *g = &l->ags[i];

		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "agno", g->agno);
		fsl_json__kv_u64(j, "inodes", g->inodes);
		fsl_json__kv_u64(j, "chunks", g->chunks);
		fsl_json__kv_u64(j, "new_chunks", g->new_chunks);
		fsl_json__kv_u64(j, "backward", g->backward);
		fsl_json__kv_u64(j, "first_agino", g->first_agino);
		fsl_json__kv_u64(j, "last_agino", g->last_agino);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	for (i = 0; i < 2; i++) {
		const struct fsl_xfs_free *fr = &l->free[i];

		fsl_json__key(j, i ? "free_end" : "free_start");
		if (!fr->have) {
			fsl_json__null(j);
			continue;
		}
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "bytes", fr->bytes);
		fsl_json__kv_u64(j, "extents", fr->extents);
		fsl_json__kv_u64(j, "largest_bytes", fr->largest);
		fsl_json__key(j, "ag_bytes");
		fsl_json__arr_begin(j);
		for (k = 0; k < fr->nags; k++)
			fsl_json__u64(j, fr->ag_bytes[k]);
		fsl_json__arr_end(j);
		fsl_json__obj_end(j);
	}
	fsl_json__key(j, "read_seeks");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "reads", l->reads);
	fsl_json__kv_u64(j, "seeks", l->read_seeks);
	fsl_json__kv_u64(j, "backward", l->backward_reads);
	fsl_json__kv_double(j, "seeks_per_s", secs > 0 ? l->read_seeks / secs : 0);
	fsl_json__kv_u64(j, "mean_sectors", fsl_hist_avg(&l->read_seek));
	fsl_json__kv_u64(j, "median_sectors", fsl_hist_quantile(&l->read_seek, 0.5));
	fsl_json__kv_u64(j, "p90_sectors", fsl_hist_quantile(&l->read_seek, 0.9));
	fsl_json__key(j, "log2");
	fsl_json__obj_begin(j);
	{
		uint64_t rows[64];

		fsl_hist_log2(&l->read_seek, rows);
		for (k = 0; k < 64; k++)
			if (rows[k]) {
				char b[24];

				snprintf(b, sizeof(b), "%llu", 1ull << k);
				fsl_json__kv_u64(j, b, rows[k]);
			}
	}
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);
	n = fsl_xfslayout__files(l, &fl);
	fsl_json__kv_bool(j, "file_list_truncated", !info->json_full && n > FSL_JSON_LIST_MAX);
	fsl_json__key(j, "file_list");
	fsl_json__arr_begin(j);
	for (i = 0; i < n && (info->json_full || i < FSL_JSON_LIST_MAX); i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "ino", fl[i].ino);
		fsl_json__kv_u64(j, "extents", fl[i].extents);
		fsl_json__kv_u64(j, "blocks", fl[i].blocks);
		fsl_json__kv_u64(j, "ino_agno", fl[i].ino_agno);
		fsl_json__kv_u64(j, "ino_agbno", fl[i].ino_agbno);
		fsl_json__kv_u64(j, "data_agno", fl[i].data_agno);
		fsl_json__kv_u64(j, "data_agbno", fl[i].data_agbno);
		fsl_json__kv_u64(j, "distance_ags", fl[i].dist_ags);
		fsl_json__kv_u64(j, "distance_sectors", fl[i].dist_sectors);
		fsl_json__kv_bool(j, "created", fl[i].created);
		fsl_json__kv_bool(j, "touched", fl[i].touched);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
}

void rn_ind_line(char *buf, size_t len, const struct fsl_ind_break *b)
{
	snprintf(buf, len, "%6" PRIu64 "(%c): expecting %6" PRIu64 " got phys %6" PRIu64
		 " (blkcnt %" PRId64 ")", b->ino, b->kind, b->expect, b->phys, b->blkcnt);
}
