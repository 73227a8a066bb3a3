// SPDX-License-Identifier: GPL-2.0
/*
 * The difference of one phase between two configurations (docs/compare.md).
 *
 * Time: the phase's wall time of each, at equal work (b's scaled by
 * ops_a / ops_b when both counted operations and they differ: a timed run
 * like dbench does more or less work in the same time). It is split in
 * proportion to the workload's whole time in the phase window (on-CPU, by
 * CPU class when the window has them; runnable; blocked by wait class,
 * other filesystems and waits under the recording threshold; other sleep):
 * a part's seconds are its share of the threads' summed time times the
 * wall. The parts' differences add up to the time difference exactly; they
 * are ranked by size.
 *
 * Mechanisms: what the kernel did differently (commits by trigger, journal
 * blocks, the journal's contents and the checkpoints' writes by block class,
 * writeback by reason, dirty-limit pauses, read and write seeks, directory
 * and inode-table blocks read, the htree, the allocator, fragmentation),
 * each tied to the parts of the time it can explain. One moved when it
 * changed by 5% and more than a small absolute amount; the moved ones are
 * ranked by the difference of the part they are tied to, then by how much
 * they changed. The sentence names the part that moved most and the
 * mechanisms behind it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare_int.h"

/* ------------------------------------------------------------ the parts */

struct part_ns {
	char id[48];
	double ns;
};

/* The whole time of a cell as named parts (ns of the threads' time); their count. */
static unsigned int cell_parts(const struct cmp_cell *c, struct part_ns *out)
{
	const struct fsl_wholetime *w = &c->wt;
	unsigned int n = 0, k;

	if (w->ncpu && w->cpu_sampled_ns) {
		for (k = 0; k < w->ncpu; k++) {
			snprintf(out[n].id, sizeof(out[n].id), "on_cpu:%s", w->cpu_cls[k].id);
			out[n++].ns = (double)w->oncpu_ns * w->cpu_cls[k].ns / w->cpu_sampled_ns;
		}
	} else {
		snprintf(out[n].id, sizeof(out[n].id), "on_cpu");
		out[n++].ns = w->oncpu_ns;
	}
	snprintf(out[n].id, sizeof(out[n].id), "runnable");
	out[n++].ns = w->runq_ns;
	for (k = 0; k < FSL_WC__MAX; k++) {
		if (!w->cls_ns[k])
			continue;
		snprintf(out[n].id, sizeof(out[n].id), "blocked:%s", fsl_wclass_id(k));
		out[n++].ns = w->cls_ns[k];
	}
	if (w->other_fs_ns) {
		snprintf(out[n].id, sizeof(out[n].id), "blocked:other_filesystems");
		out[n++].ns = w->other_fs_ns;
	}
	/* classes can exceed blocked (waits reaching past the last record): trim to it */
	{
		double cls = 0, over;

		for (k = 0; k < n; k++)
			if (!strncmp(out[k].id, "blocked:", 8))
				cls += out[k].ns;
		over = cls - (double)w->blocked_ns;
		for (k = 0; over > 0 && k < n; k++)
			if (!strncmp(out[k].id, "blocked:", 8))
				out[k].ns -= out[k].ns * over / cls;
	}
	if (w->short_ns) {
		snprintf(out[n].id, sizeof(out[n].id), "blocked:short_waits");
		out[n++].ns = w->short_ns;
	}
	snprintf(out[n].id, sizeof(out[n].id), "other_sleep");
	out[n++].ns = w->sleep_ns;
	return n;
}

static double parts_total(const struct part_ns *p, unsigned int n)
{
	double t = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		t += p[i].ns;
	return t;
}

static int part_cmp(const void *x, const void *y)
{
	const struct cmp_part *a = x, *b = y;

	if (fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) < fabs(b->delta) ? 1 : -1;
	return strcmp(a->id, b->id);
}

static void split_parts(struct cmp_diff *d, const struct cmp_cell *a, const struct cmp_cell *b)
{
	struct part_ns pa[CMP_PARTS_MAX], pb[CMP_PARTS_MAX];
	unsigned int na, nb, i, k;
	double ta, tb;

	if (!a->have_whole || !b->have_whole)
		return;
	na = cell_parts(a, pa);
	nb = cell_parts(b, pb);
	ta = parts_total(pa, na);
	tb = parts_total(pb, nb);
	if (ta <= 0 || tb <= 0)
		return;
	d->have_parts = 1;
	for (i = 0; i < na && d->nparts < CMP_PARTS_MAX; i++) {
		struct cmp_part *p = &d->parts[d->nparts++];

		memcpy(p->id, pa[i].id, sizeof(p->id));
		p->a = pa[i].ns / ta * d->secs_a;
	}
	for (i = 0; i < nb; i++) {
		for (k = 0; k < d->nparts; k++)
			if (!strcmp(d->parts[k].id, pb[i].id))
				break;
		if (k == d->nparts) {
			if (d->nparts == CMP_PARTS_MAX)
				continue;
			memcpy(d->parts[d->nparts++].id, pb[i].id, sizeof(d->parts[0].id));
		}
		d->parts[k].b = pb[i].ns / tb * d->secs_b * d->scale;
	}
	for (k = 0; k < d->nparts; k++)
		d->parts[k].delta = d->parts[k].b - d->parts[k].a;
	qsort(d->parts, d->nparts, sizeof(d->parts[0]), part_cmp);
}

static const struct cmp_part *part_of(const struct cmp_diff *d, const char *id)
{
	unsigned int k;

	for (k = 0; k < d->nparts; k++)
		if (!strcmp(d->parts[k].id, id))
			return &d->parts[k];
	return NULL;
}

/* A part moved: by 1% of the longer phase and at least 1 ms. */
static int part_moved(const struct cmp_diff *d, const struct cmp_part *p)
{
	double big = d->secs_a > d->secs_b * d->scale ? d->secs_a : d->secs_b * d->scale;

	return p && fabs(p->delta) >= 0.001 && fabs(p->delta) >= 0.01 * big;
}

/* ------------------------------------------------------------ mechanisms */

/* The parts each family of mechanisms can explain. */
static const char *const journal_parts[] = {
	"blocked:journal_log_space", "blocked:txn_locked", "blocked:buffer_under_commit",
	"blocked:commit_wait", "blocked:handle_start", NULL,
};
static const char *const checkpoint_parts[] = { "blocked:journal_log_space", NULL };
static const char *const writeback_parts[] = {
	"blocked:writeback_throttle", "blocked:page_wait", "blocked:fsync_writeback",
	"blocked:free_space_writeback", "blocked:block_throttle", NULL,
};
static const char *const throttle_parts[] = { "blocked:writeback_throttle", NULL };
static const char *const read_parts[] = {
	"blocked:dir_block_read", "blocked:inode_table_read", "blocked:bitmap_read",
	"blocked:page_wait", "blocked:other_io", "blocked:queue_wait", "blocked:aio_wait", NULL,
};
static const char *const write_parts[] = {
	"blocked:other_io", "blocked:fsync_writeback", "blocked:commit_wait",
	"blocked:journal_log_space", "blocked:queue_wait", "blocked:page_wait", "blocked:flush", NULL,
};
/*
 * A mechanism's CPU part is the classes of its code (docs/cpu-classes.md);
 * "on_cpu" is the whole on-CPU time of a trace recorded without the cpu
 * family. (A wildcard over every class tied the htree's levels to the
 * block layer's or the recorder's CPU when either grew most.)
 */
static const char *const dir_parts[] = {
	"blocked:dir_block_read", "on_cpu:cpu_htree", "on_cpu:cpu_dirent_scan", "on_cpu", NULL,
};
static const char *const itable_parts[] = { "blocked:inode_table_read", NULL };
static const char *const bitmap_parts[] = { "blocked:bitmap_read", NULL };
static const char *const alloc_parts[] = {
	"on_cpu:cpu_block_alloc", "on_cpu:cpu_ialloc", "on_cpu", "blocked:bitmap_read", NULL,
};
static const char *const no_parts[] = { NULL };

/* Add a mechanism when it moved: by 5% and by min_abs. */
static struct cmp_mech *mech(struct cmp_diff *d, const char *name, double a, double b,
			     double min_abs, const char *const *parts)
{
	double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	const struct cmp_part *best = NULL;
	struct cmp_mech *m;
	unsigned int i;

	if (fabs(b - a) < min_abs || fabs(b - a) < 0.05 * big || d->nmech == CMP_MECH_MAX)
		return NULL;
	m = &d->mech[d->nmech++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->a = a;
	m->b = b;
	m->delta = b - a;
	m->worse = strcmp(name, "alloc_goal_hit_pct") ? 1 : -1;
	/*
	 * The part it explains moved its way: three htree levels against two
	 * explain longer directory-block reads, not 20 ms less of them (a part
	 * that moved against it is noise the mechanism does not account for).
	 */
	for (i = 0; parts[i]; i++) {
		const struct cmp_part *p = part_of(d, parts[i]);

		if (part_moved(d, p) && p->delta * m->delta * m->worse > 0 &&
		    (!best || fabs(p->delta) > fabs(best->delta)))
			best = p;
	}
	if (best) {
		snprintf(m->part, sizeof(m->part), "%s", best->id);
		m->contribution = best->delta;
	} else if (parts[0]) {
		snprintf(m->part, sizeof(m->part), "%s", parts[0]);
	}
	return m;
}

static uint64_t sum_bc(const uint64_t v[FSL_BC__MAX])
{
	uint64_t s = 0;
	unsigned int k;

	for (k = 0; k < FSL_BC__MAX; k++)
		s += v[k];
	return s;
}

/* "inode_table +240, directory +12": the classes that moved most. */
static void class_detail(char *buf, size_t len, const uint64_t a[FSL_BC__MAX],
			 const uint64_t b[FSL_BC__MAX], double scale)
{
	unsigned int k, done = 0, n;
	size_t used = 0;

	buf[0] = 0;
	for (n = 0; n < 3; n++) {
		double best = 0;
		unsigned int pick = FSL_BC__MAX;

		for (k = 0; k < FSL_BC__MAX; k++) {
			double dd = b[k] * scale - (double)a[k];

			if (!(done & (1u << k)) && fabs(dd) > fabs(best) + 0.5) {
				best = dd;
				pick = k;
			}
		}
		if (pick == FSL_BC__MAX)
			break;
		done |= 1u << pick;
		used += snprintf(buf + used, len > used ? len - used : 0, "%s%s %+.0f",
				 used ? ", " : "", fsl_block_class_name(pick), best);
	}
}

static double seeks_per_s(const struct cmp_cell *c, int k)
{
	return c->secs > 0 ? c->seek[k].seeks / c->secs : 0;
}

static double seek_mean(const struct cmp_cell *c, int k)
{
	return c->seek[k].d2d ? (double)c->seek[k].seek_total / c->seek[k].d2d : 0;
}

static void mechanisms(struct cmp_diff *d, const struct cmp_cell *a, const struct cmp_cell *b)
{
	double s = d->scale;
	struct cmp_mech *m;
	unsigned int k;
	char buf[160];

	if (a->have_journal && b->have_journal) {
		m = mech(d, "commits", a->commits, b->commits * s, 2, journal_parts);
		if (m) {
			size_t used = 0;

			for (k = 0; k < FSL_TRIG__MAX; k++) {
				double dd = b->trig[k] * s - (double)a->trig[k];

				if (fabs(dd) >= 1)
					used += snprintf(m->detail + used, sizeof(m->detail) - used,
							 "%s%s %+.0f", used ? ", " : "",
							 fsl_trigger_name(k), dd);
			}
		}
		mech(d, "journal_blocks", a->blocks_logged, b->blocks_logged * s, 8, journal_parts);
		mech(d, "journal_blocks_dirtied", a->dirtied, b->dirtied * s, 8, journal_parts);
	}
	if (a->have_classes && b->have_classes) {
		m = mech(d, "journal_home_blocks", sum_bc(a->home), sum_bc(b->home) * s, 8,
			 journal_parts);
		if (m)
			class_detail(m->detail, sizeof(m->detail), a->home, b->home, s);
		m = mech(d, "checkpoint_blocks", sum_bc(a->chp), sum_bc(b->chp) * s, 8,
			 checkpoint_parts);
		if (m)
			class_detail(m->detail, sizeof(m->detail), a->chp, b->chp, s);
		m = mech(d, "writeback_blocks", sum_bc(a->wbw), sum_bc(b->wbw) * s, 8,
			 writeback_parts);
		if (m)
			class_detail(m->detail, sizeof(m->detail), a->wbw, b->wbw, s);
		mech(d, "dir_blocks_read", a->read[FSL_BC_DIR], b->read[FSL_BC_DIR] * s, 4, dir_parts);
		mech(d, "inode_table_blocks_read", a->read[FSL_BC_ITABLE], b->read[FSL_BC_ITABLE] * s,
		     4, itable_parts);
		mech(d, "bitmap_blocks_read", a->read[FSL_BC_BBITMAP] + a->read[FSL_BC_IBITMAP],
		     (b->read[FSL_BC_BBITMAP] + b->read[FSL_BC_IBITMAP]) * s, 2, bitmap_parts);
	}
	if (a->have_wb && b->have_wb) {
		for (k = 0; k < FSL_WB_REASONS; k++) {
			snprintf(buf, sizeof(buf), "writeback_pages:%s",
				 k == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(k));
			mech(d, buf, a->wb_pages[k], b->wb_pages[k] * s, 16, writeback_parts);
			snprintf(buf, sizeof(buf), "writeback_passes:%s",
				 k == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(k));
			/* a kind of pass one run never made is named from one */
			mech(d, buf, a->wb_works[k], b->wb_works[k] * s,
			     !a->wb_works[k] != !b->wb_works[k] ? 1 : 2, writeback_parts);
		}
	}
	m = mech(d, "throttle_pauses", a->throttled, b->throttled * s, 2, throttle_parts);
	if (m)
		snprintf(m->detail, sizeof(m->detail), "%.2f s vs %.2f s paused", a->pause_ms / 1e3,
			 b->pause_ms * s / 1e3);
	if (a->have_seeks && b->have_seeks) {
		mech(d, "read_seeks_per_s", seeks_per_s(a, 0), seeks_per_s(b, 0), 1, read_parts);
		mech(d, "read_seek_mean_sectors", seek_mean(a, 0), seek_mean(b, 0), 8, read_parts);
		mech(d, "write_seeks_per_s", seeks_per_s(a, 1), seeks_per_s(b, 1), 1, write_parts);
		mech(d, "write_seek_mean_sectors", seek_mean(a, 1), seek_mean(b, 1), 8, write_parts);
	}
	/*
	 * Inode-to-data distance (the seek between a file's inode and its
	 * data): XFS's of the files the phase touched, ext4's of the files
	 * alive at its end; a change explains the reads' waits.
	 */
	if (a->have_xfs && b->have_xfs && a->xd_files && b->xd_files)
		mech(d, "inode_data_distance_sectors", a->xd_mean_sectors, b->xd_mean_sectors, 8,
		     read_parts);
	else if (a->have_idist && b->have_idist)
		mech(d, "inode_data_distance_sectors", a->id_mean_sectors, b->id_mean_sectors, 8,
		     read_parts);
	if (a->have_htree && b->have_htree) {
		mech(d, "htree_levels", a->htree.levels, b->htree.levels, 1, dir_parts);
		mech(d, "htree_index_blocks", a->htree.index_blocks, b->htree.index_blocks, 1,
		     dir_parts);
	}
	if (a->have_alloc && b->have_alloc) {
		mech(d, "alloc_searches", a->alloc.decisions, b->alloc.decisions * s, 8, alloc_parts);
		mech(d, "alloc_goal_hit_pct",
		     a->alloc.decisions ? 100.0 * a->alloc.goal_hits / a->alloc.decisions : 0,
		     b->alloc.decisions ? 100.0 * b->alloc.goal_hits / b->alloc.decisions : 0, 2,
		     alloc_parts);
		mech(d, "alloc_groups_scanned", a->alloc.groups, b->alloc.groups * s, 8, alloc_parts);
	}
	if (a->have_layout && b->have_layout) {
		mech(d, "fragmented_files", a->fragmented, b->fragmented, 2, no_parts);
		mech(d, "fragcheck_breaks", a->breaks, b->breaks, 2, no_parts);
	}
}

static int mech_cmp(const void *x, const void *y)
{
	const struct cmp_mech *a = x, *b = y;
	double ra, rb;

	if (fabs(a->contribution) != fabs(b->contribution))
		return fabs(a->contribution) < fabs(b->contribution) ? 1 : -1;
	ra = fabs(a->delta) / (fabs(a->a) > fabs(a->b) ? fabs(a->a) : fabs(a->b));
	rb = fabs(b->delta) / (fabs(b->a) > fabs(b->b) ? fabs(b->a) : fabs(b->b));
	if (ra != rb)
		return ra < rb ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* ------------------------------------------------------------ the sentence */

/* Append to s (len bytes) at *o; the text stops at the end of s. */
static void app(char *s, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void app(char *s, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s + *o, len - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o += (size_t)n < len - *o ? (size_t)n : len - *o - 1;
}

/* "__ext4_new_inode" for what it does, where the name does not say it. */
static const char *site_gloss(const char *caller, const char *what)
{
	static const struct {
		const char *func, *gloss;
	} g[] = {
		{ "ext4_dirty_inode", "inode updates: atime and times" },
		{ "__ext4_new_inode", "new inodes" },
		{ "ext4_add_entry", "directory entries" },
		{ "ext4_dx_add_entry", "directory entries" },
		{ "ext4_mkdir", "new directories" },
		{ "ext4_create", "new files" },
		{ "ext4_mknod", "new files" },
		{ "ext4_unlink", "unlinks" },
		{ "ext4_rmdir", "unlinks" },
		{ "ext4_rename", "renames" },
		{ "ext4_setattr", "attribute changes" },
		{ "ext4_da_write_begin", "writes" },
		{ "ext4_write_begin", "writes" },
		{ "ext4_writepages", "delayed allocation at writeback" },
		{ "ext4_do_writepages", "delayed allocation at writeback" },
		{ "ext4_evict_inode", "inode eviction" },
	};
	unsigned int i;

	if (!strcmp(caller, "ext4_dirty_inode") && !strcmp(what, "atime"))
		return "atime updates";
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		if (!strcmp(caller, g[i].func))
			return g[i].gloss;
	return NULL;
}

static const char *class_words(unsigned int cls)
{
	static const char *const w[FSL_BC__MAX] = {
		"unknown", "superblock", "block-bitmap", "inode-bitmap", "inode-table", "journal",
		"group-descriptor", "journal-superblock", "directory", "extent-tree", "data",
	};

	return cls < FSL_BC__MAX ? w[cls] : "?";
}

/* With thousands separators: 26112 -> "26,112". */
static const char *num(char *buf, size_t len, double v)
{
	char t[32];
	long long x = llround(fabs(v));
	int n, i, o = 0;

	n = snprintf(t, sizeof(t), "%lld", x);
	if (v < 0 && o < (int)len - 1)
		buf[o++] = '-';
	for (i = 0; i < n && o < (int)len - 1; i++) {
		buf[o++] = t[i];
		if ((n - i - 1) % 3 == 0 && i < n - 1 && o < (int)len - 1)
			buf[o++] = ',';
	}
	buf[o] = 0;
	return buf;
}

static const char *signed_num(char *buf, size_t len, double v)
{
	if (len < 2)
		return "";
	buf[0] = v < 0 ? '-' : '+';
	num(buf + 1, len - 1, fabs(v));
	return buf;
}

/*
 * One mechanism in words, its sign as seen from the slower configuration
 * (sign -1: a is the slower, the difference is told a - b).
 */
static size_t mech_words(char *buf, size_t len, const struct cmp_mech *m, int sign,
			 const struct cmp_cell *slow, const char *what)
{
	double dv = sign * m->delta, vs = sign > 0 ? m->b : m->a, vf = sign > 0 ? m->a : m->b;
	char n1[40], n2[40];

	if (!strcmp(m->name, "commits"))
		return snprintf(buf, len, "%s commits", signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "journal_blocks") || !strcmp(m->name, "journal_blocks_dirtied")) {
		size_t o = 0;
		uint64_t tot = sum_bc(slow->home), best = 0;
		unsigned int k, pick = FSL_BC__MAX;

		app(buf, len, &o, "%s journal blocks", signed_num(n1, sizeof(n1), dv));
		for (k = 0; k < FSL_BC__MAX; k++)
			if (slow->home[k] > best) {
				best = slow->home[k];
				pick = k;
			}
		if (tot && pick < FSL_BC__MAX)
			app(buf, len, &o, ", %.0f%% %s blocks", 100.0 * best / tot, class_words(pick));
		if (slow->nsites && slow->dirtied) {
			const char *who = slow->site[0].caller[0] ? slow->site[0].caller :
					  slow->site[0].type;
			const char *gl = site_gloss(who, what);

			app(buf, len, &o, " dirtied by %s%s%s%s", who, gl ? " (" : "", gl ? gl : "",
			    gl ? ")" : "");
		}
		return o;
	}
	if (!strcmp(m->name, "journal_home_blocks"))
		return snprintf(buf, len, "%s metadata blocks written home",
				signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "checkpoint_blocks"))
		return snprintf(buf, len, "%s blocks written home by checkpoints",
				signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "writeback_blocks"))
		return snprintf(buf, len, "%s blocks written by the flusher",
				signed_num(n1, sizeof(n1), dv));
	if (!strncmp(m->name, "writeback_pages:", 16))
		return snprintf(buf, len, "%s writeback %s pages", m->name + 16,
				signed_num(n1, sizeof(n1), dv));
	if (!strncmp(m->name, "writeback_passes:", 17))
		return snprintf(buf, len, "%s %s writeback passes", signed_num(n1, sizeof(n1), dv),
				m->name + 17);
	if (!strcmp(m->name, "throttle_pauses"))
		return snprintf(buf, len, "%s dirty-limit pauses", signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "read_seeks_per_s") || !strcmp(m->name, "write_seeks_per_s"))
		return snprintf(buf, len, "%s seeks %s/s vs %s/s", m->name[0] == 'r' ? "read" : "write",
				num(n1, sizeof(n1), vs), num(n2, sizeof(n2), vf));
	if (!strcmp(m->name, "read_seek_mean_sectors") || !strcmp(m->name, "write_seek_mean_sectors"))
		return snprintf(buf, len, "%s %s vs %s sectors apart",
				m->name[0] == 'r' ? "reads" : "writes", num(n1, sizeof(n1), vs),
				num(n2, sizeof(n2), vf));
	if (!strcmp(m->name, "inode_data_distance_sectors"))
		return snprintf(buf, len, "inodes %s vs %s sectors from their data",
				num(n1, sizeof(n1), vs), num(n2, sizeof(n2), vf));
	if (!strcmp(m->name, "dir_blocks_read"))
		return snprintf(buf, len, "%s directory blocks read", signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "inode_table_blocks_read"))
		return snprintf(buf, len, "%s inode-table blocks read",
				signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "bitmap_blocks_read"))
		return snprintf(buf, len, "%s bitmap blocks read", signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "htree_levels"))
		return snprintf(buf, len, "htree %.0f levels vs %.0f", vs, vf);
	if (!strcmp(m->name, "htree_index_blocks"))
		return snprintf(buf, len, "%s htree index blocks", signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "alloc_searches"))
		return snprintf(buf, len, "%s allocator searches", signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "alloc_goal_hit_pct"))
		return snprintf(buf, len, "allocator goal hits %.0f%% vs %.0f%%", vs, vf);
	if (!strcmp(m->name, "alloc_groups_scanned"))
		return snprintf(buf, len, "%s groups scanned by the allocator",
				signed_num(n1, sizeof(n1), dv));
	if (!strcmp(m->name, "fragmented_files"))
		return snprintf(buf, len, "%s vs %s fragmented files", num(n1, sizeof(n1), vs),
				num(n2, sizeof(n2), vf));
	if (!strcmp(m->name, "fragcheck_breaks"))
		return snprintf(buf, len, "%s fragcheck breaks", signed_num(n1, sizeof(n1), dv));
	return snprintf(buf, len, "%s %s", m->name, signed_num(n1, sizeof(n1), dv));
}

/* What the tasks did with a part's time, as a clause: "waited 0.30 s more for ...". */
static size_t part_words(char *buf, size_t len, const struct cmp_part *p, int sign)
{
	double dv = sign * p->delta;
	const char *more = dv >= 0 ? "more" : "less";
	int cls;

	if (!strcmp(p->id, "on_cpu"))
		return snprintf(buf, len, "ran %.2f s %s on a CPU", fabs(dv), more);
	if (!strncmp(p->id, "on_cpu:", 7))
		return snprintf(buf, len, "ran %.2f s %s on a CPU in %s", fabs(dv), more, p->id + 7);
	if (!strcmp(p->id, "runnable"))
		return snprintf(buf, len, "waited %.2f s %s for a CPU", fabs(dv), more);
	if (!strcmp(p->id, "other_sleep"))
		return snprintf(buf, len, "slept %.2f s %s (not blocked on I/O)", fabs(dv), more);
	if (!strcmp(p->id, "blocked:short_waits"))
		return snprintf(buf, len, "were blocked %.2f s %s in waits under the recording "
				"threshold", fabs(dv), more);
	if (!strcmp(p->id, "blocked:other_filesystems"))
		return snprintf(buf, len, "waited %.2f s %s on other filesystems", fabs(dv), more);
	cls = fsl_wclass_parse(p->id + 8);
	return snprintf(buf, len, "waited %.2f s %s for %s", fabs(dv), more,
			cls >= 0 ? fsl_wclass_label(cls) : p->id + 8);
}

/*
 * The part a mechanism explains moved against the slower one (sign +1: b is
 * the slower): three htree levels do not explain a phase whose directory-block
 * reads took less time.
 */
static int against(const struct cmp_diff *d, const struct cmp_mech *m, int sign)
{
	const struct cmp_part *p = m->part[0] ? part_of(d, m->part) : NULL;

	return p && part_moved(d, p) && sign * p->delta < 0;
}

/* The order the sentence tells a part's mechanisms in: cause before effect. */
static int mech_rank(const char *name)
{
	static const char *const order[] = {
		"commits", "journal_blocks", "journal_blocks_dirtied", "checkpoint_blocks",
		"journal_home_blocks", "writeback_passes:", "writeback_pages:", "throttle_pauses",
		"writeback_blocks",
		"dir_blocks_read", "htree_levels", "htree_index_blocks", "inode_table_blocks_read",
		"bitmap_blocks_read", "alloc_goal_hit_pct", "alloc_searches", "alloc_groups_scanned",
		"inode_data_distance_sectors",
		"read_seeks_per_s", "read_seek_mean_sectors", "write_seeks_per_s",
		"write_seek_mean_sectors", NULL,
	};
	unsigned int i;

	for (i = 0; order[i]; i++)
		if (!strncmp(name, order[i], strlen(order[i])))
			return i;
	return i;
}

/* Has a mechanism that moved and explains it. */
static int explained(const struct cmp_diff *d, const struct cmp_part *p)
{
	unsigned int i;

	for (i = 0; i < d->nmech; i++)
		if (!strcmp(d->mech[i].part, p->id))
			return 1;
	return 0;
}

static void sentence(struct cmp_diff *d, const struct cmp_cell *a, const struct cmp_cell *b,
		     const char *phase, const char *la, const char *lb, const char *what)
{
	int sign = d->delta >= 0 ? 1 : -1;
	const struct cmp_cell *slow = sign > 0 ? b : a;
	const char *ls = sign > 0 ? lb : la, *lf = sign > 0 ? la : lb;
	char *s = d->sentence, w[256];
	size_t len = sizeof(d->sentence), o;
	const struct cmp_part *top = NULL, *other = NULL;
	const struct cmp_mech *pick[3], *byrank[CMP_MECH_MAX];
	unsigned int i, k, n = 0, nr = 0;

	if (d->same) {
		if (!d->nmech && fabs(d->delta) < 1e-9) {
			snprintf(s, len, "%s: no difference between %s and %s.", phase, lb, la);
			return;
		}
		o = 0;
		app(s, len, &o, "%s: %s and %s take about the same time (%.2f s vs %.2f s)", phase,
		    lb, la, d->secs_b * d->scale, d->secs_a);
		for (i = 0; i < d->nmech && n < 2; i++, n++) {
			mech_words(w, sizeof(w), &d->mech[i], 1, b, what);
			app(s, len, &o, "%s%s", n ? ", " : "; ", w);
		}
		app(s, len, &o, ".");
		return;
	}
	o = 0;
	app(s, len, &o, "%s: %s is %.2f s slower than %s", phase, ls, fabs(d->delta), lf);
	if (d->scale != 1)
		app(s, len, &o, " at equal work (%.2f s vs %.2f s for %s's operations)",
		    sign > 0 ? d->secs_b * d->scale : d->secs_a,
		    sign > 0 ? d->secs_a : d->secs_b * d->scale, la);
	else
		app(s, len, &o, " (%.2f s vs %.2f s)", sign > 0 ? d->secs_b : d->secs_a,
		    sign > 0 ? d->secs_a : d->secs_b);
	/*
	 * The part the mechanisms explain that grew most in the slower one;
	 * the largest part that grew, when no mechanism explains it (waiting
	 * for a CPU on a busy machine), is said beside it.
	 */
	for (i = 0; i < d->nparts; i++) {
		const struct cmp_part *p = &d->parts[i];

		if (!part_moved(d, p) || sign * p->delta <= 0)
			continue;
		if (!top && explained(d, p))
			top = p;
		else if (!other && !explained(d, p))
			other = p;
	}
	if (other && top && fabs(other->delta) < 0.25 * fabs(top->delta))
		other = NULL;
	/*
	 * The top part's mechanisms, the first three in cause-to-effect order
	 * (else the first two that moved): the rank sorts the mechanisms of one
	 * part by how much they changed, which puts a checkpoint's 0 -> 40
	 * before the commits that caused it.
	 */
	for (i = 0; i < d->nmech; i++)
		byrank[nr++] = &d->mech[i];
	for (i = 1; top && i < nr; i++)
		for (k = i; k > 0 && mech_rank(byrank[k]->name) < mech_rank(byrank[k - 1]->name); k--) {
			const struct cmp_mech *t = byrank[k];

			byrank[k] = byrank[k - 1];
			byrank[k - 1] = t;
		}
	for (i = 0; i < nr && n < 3; i++) {
		const struct cmp_mech *m = byrank[i];

		if (top ? strcmp(m->part, top->id) : n >= 2)
			continue;
		/* what moved the other way does not explain the slower one */
		if (sign * m->delta * m->worse <= 0)
			continue;
		/* nor does one whose part the slower one spent less time in */
		if (against(d, m, sign))
			continue;
		/* the journal's blocks once: logged, else dirtied */
		if (!strcmp(m->name, "journal_blocks_dirtied")) {
			for (k = 0; k < d->nmech; k++)
				if (!strcmp(d->mech[k].name, "journal_blocks") &&
				    !strcmp(d->mech[k].part, m->part))
					break;
			if (k < d->nmech)
				continue;
		}
		pick[n++] = m;
	}
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (mech_rank(pick[k]->name) < mech_rank(pick[i]->name)) {
				const struct cmp_mech *t = pick[i];

				pick[i] = pick[k];
				pick[k] = t;
			}
	for (i = 0; i < n; i++) {
		mech_words(w, sizeof(w), pick[i], sign, slow, what);
		app(s, len, &o, "%s%s", i ? (i + 1 == n ? " and " : ", ") : ": ", w);
	}
	if (top) {
		part_words(w, sizeof(w), top, sign);
		app(s, len, &o, "; the tasks %s", w);
	}
	if (other) {
		part_words(w, sizeof(w), other, sign);
		app(s, len, &o, "%s%s", top ? " and " : "; the tasks ", w);
	}
	/*
	 * What the faster one lost to a mechanism of its own, which the rest
	 * more than made up for: three htree levels against two cost the
	 * faster configuration its directory-block reads.
	 */
	for (i = 0; i < d->nmech; i++) {
		const struct cmp_mech *m = &d->mech[i];
		const struct cmp_part *p = part_of(d, m->part);

		if (!m->contribution || sign * m->contribution >= 0 || !part_moved(d, p))
			continue;
		part_words(w, sizeof(w), p, -sign);
		app(s, len, &o, "; against that, %s %s", lf, w);
		mech_words(w, sizeof(w), m, -sign, sign > 0 ? a : b, what);
		app(s, len, &o, ": %s", w);
		break;
	}
	if (!d->have_parts)
		app(s, len, &o, "; (no whole-time records to split the time)");
	/* the layout costs no time in the phase that made it: said apart */
	for (i = 0; i < d->nmech; i++) {
		const struct cmp_mech *m = &d->mech[i];

		if (strcmp(m->name, "fragmented_files") || sign * m->delta <= 0)
			continue;
		app(s, len, &o, "; it left %.0f fragmented files against %.0f",
		    sign > 0 ? m->b : m->a, sign > 0 ? m->a : m->b);
		for (k = 0; k < d->nmech; k++)
			if (!strcmp(d->mech[k].name, "fragcheck_breaks"))
				app(s, len, &o, " (%+.0f fragcheck breaks)", sign * d->mech[k].delta);
	}
	app(s, len, &o, ".");
}

void cmp_diff(const struct cmp_cell *a, const struct cmp_cell *b, const char *phase,
	      const char *label_a, const char *label_b, const char *what, struct cmp_diff *d)
{
	double big;

	d->secs_a = a->secs;
	d->secs_b = b->secs;
	d->scale = 1;
	/* a timed phase (dbench) does more or less work in its time: compare at equal work */
	if (a->have_ops && b->have_ops && a->ops && b->ops && a->ops != b->ops)
		d->scale = (double)a->ops / b->ops;
	d->delta = d->secs_b * d->scale - d->secs_a;
	split_parts(d, a, b);
	mechanisms(d, a, b);
	qsort(d->mech, d->nmech, sizeof(d->mech[0]), mech_cmp);
	big = d->secs_a > d->secs_b * d->scale ? d->secs_a : d->secs_b * d->scale;
	/* within 2% (and 5 ms): no difference to explain */
	d->same = fabs(d->delta) < 0.005 || fabs(d->delta) < 0.02 * big;
	sentence(d, a, b, phase, label_a, label_b, what);
}
