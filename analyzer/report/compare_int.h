/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside compare: what one cell (a phase of one configuration) holds, and
 * the difference of two cells (compare_diff.c): the time decomposed into
 * its parts, the mechanisms that moved, ranked, and one sentence.
 */
#ifndef FSL_COMPARE_INT_H
#define FSL_COMPARE_INT_H

#include <stdint.h>
#include "fslens/analysis.h"
#include "fslens/meta.h"

#define CMP_SITES	3

struct cmp_cell {
	int present;
	double secs;
	uint64_t ops, bytes;
	/* counted from the phase's events (the target device only) */
	uint64_t commits, blocks_logged, rd_bytes, wr_bytes, events;
	uint64_t throttled, pause_ms;	/* balance_dirty_pages pauses */
	/* from the diagnosis of the phase window, shares rounded as report --json */
	int have_cause;
	char cause[40];
	double share;
	unsigned int nmore;		/* the causes after the top one (JSON only) */
	char more[3][40];
	double more_share[3];
	int have_window;
	uint64_t w0, w1;		/* the window analysed */
	int whole;			/* no phase file: the phase is the whole trace */
	int have_ops;			/* ops known (a phase file, or the window's analyses) */
	/* seeks on the target device, reads [0] and the rest [1] (report's read_seeks/write_seeks) */
	int have_seeks;
	struct fsl_seek_dir seek[2];
	/*
	 * XFS: the inode-to-data distance of the files the phase mapped, read
	 * or wrote, and the seeks of its reads each from the previous read
	 */
	int have_xfs;
	uint64_t xd_files, xd_mean_sectors, xd_median_sectors;
	double xd_mean_ags;
	uint64_t xr_reads, xr_seeks, xr_seek_total;
	/* ext4: the inode-to-data distance of the files alive at the phase's end, in sectors */
	int have_idist;
	uint64_t id_files;
	double id_mean_sectors;
	/* journal contents by handle site (the window's journal analysis) */
	int have_contents;
	uint64_t dirtied;
	unsigned int nsites;
	struct {
		char type[16], caller[48];
		uint32_t line;
		uint64_t blocks;
	} site[CMP_SITES];
	/* the window's analyses, for the difference */
	int have_whole;			/* the trace has tasktime records */
	struct fsl_wholetime wt;
	int have_journal;
	uint64_t trig[FSL_TRIG__MAX];
	int have_classes;		/* block classes (ext4 geometry) */
	uint64_t home[FSL_BC__MAX];	/* the journal's contents as written home */
	uint64_t chp[FSL_BC__MAX];	/* what checkpoints wrote */
	uint64_t wbw[FSL_BC__MAX];	/* what writeback wrote */
	uint64_t read[FSL_BC__MAX];	/* blocks read */
	int have_wb;
	uint64_t wb_pages[FSL_WB_REASONS];
	uint64_t wb_works[FSL_WB_REASONS];	/* the flusher's passes by reason */
	uint64_t throttle_ns;
	int have_alloc;
	struct fsl_allocstat alloc;
	int have_layout;
	uint64_t files, fragmented, breaks;
	/* the trace's largest indexed directory at its end (its column's) */
	int have_htree;
	struct fsl_htree_dir htree;
};

/* The parts of a phase's time (docs/compare.md). */
#define CMP_PARTS_MAX	(4 + FSL_WC__MAX + FSL_WT_CPU_CLASSES)

struct cmp_part {
	char id[48];		/* "on_cpu", "on_cpu:<class>", "runnable", "blocked:<class>", ... */
	double a, b;		/* seconds of the phase's time, at equal work */
	double delta;		/* b - a */
};

#define CMP_MECH_MAX	64

struct cmp_mech {
	char name[48];		/* "commits", "journal_blocks", "read_seeks_per_s", ... */
	char part[48];		/* the part it explains ("" none) */
	double a, b, delta;
	double contribution;	/* the part's delta it is tied to, s (0: none moved) */
	int worse;		/* +1: more of it costs time; -1: less of it does (goal hits) */
	char detail[160];	/* "log_space +8, sync +2" */
};

/* One phase of one configuration against another. */
struct cmp_diff {
	int row, a, b;		/* a: the base column */
	double secs_a, secs_b;
	double scale;		/* b's time times this is at a's work (ops_a / ops_b, else 1) */
	double delta;		/* secs_b * scale - secs_a */
	int same;		/* no difference worth a word */
	int have_parts;
	unsigned int nparts;
	struct cmp_part parts[CMP_PARTS_MAX];	/* most moved first */
	unsigned int nmech;
	struct cmp_mech mech[CMP_MECH_MAX];	/* ranked */
	char sentence[1024];
};

/*
 * The difference of cell b against cell a (labels: how the sentence names
 * them; what: the parameter that differs, "" none). Fills d.
 */
void cmp_diff(const struct cmp_cell *a, const struct cmp_cell *b, const char *phase,
	      const char *label_a, const char *label_b, const char *what, struct cmp_diff *d);

#endif
