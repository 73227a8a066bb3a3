// SPDX-License-Identifier: GPL-2.0
/*
 * Diagnosis: the causes of lost time ranked by the workload's time, blocked
 * (by wait class) and on the CPU (by CPU class, where the trace has the cpu
 * family's samples), each with its evidence (from the other analyses) and
 * what to change.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../an_set.h"

struct sbuf {
	char *p;
	size_t len, used;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->used >= b->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used = b->used + n < b->len ? b->used + n : b->len - 1;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

/* The journal's size in bytes if the trace knows it (collector metadata). */
static uint64_t journal_bytes(const struct fsl_meta *m)
{
	struct fsl_ext4_geometry g;

	fsl_meta__ext4_geometry(m, &g);
	return g.journal_bytes ? g.journal_bytes : g.journal_blocks * g.block_size;
}

static int syscall_entry(const char *f)
{
	return !strncmp(f, "__x64_sys_", 10) || !strncmp(f, "__arm64_sys_", 12) ||
	       !strncmp(f, "do_syscall", 10) || !strncmp(f, "entry_SYSCALL", 13) ||
	       !strcmp(f, "ret_from_fork") || !strcmp(f, "ret_from_fork_asm") ||
	       !strcmp(f, "kthread");
}

/*
 * The frames that decided the class, innermost first: every frame a rule
 * matches (the mechanism, the deciding cause and the broad causes around it)
 * and the outermost frame below the syscall or thread entry (what the task
 * was doing), "..." where frames no rule names were left out. Nothing the
 * table used is shortened away: wbt_wait under ext4_sync_file shows both.
 */
static void stack_summary(const struct an_ctx *c, int32_t id, struct sbuf *b, int *atime,
			  int *mtime)
{
	const struct fsl_stack *st = c->meta && c->meta->stack ? c->meta->stack(c->meta, id) : NULL;
	char f[96];
	int rule, i, top = -1, shown = 0, prev = -2;

	if (!st || !st->nframes)
		return;
	fsl_wclass_of_frames((const char *const *)st->frames, st->nframes, &rule);
	for (i = 0; i < (int)st->nframes; i++) {
		if (!st->frames[i])
			continue;
		fsl_frame_func(st->frames[i], f, sizeof(f));
		if (!strcmp(f, "touch_atime") || !strcmp(f, "file_accessed") ||
		    !strcmp(f, "ext4_dirty_inode_atime"))
			*atime = 1;
		if (!strcmp(f, "file_update_time") || !strncmp(f, "file_update_time", 16) ||
		    !strcmp(f, "file_modified"))
			*mtime = 1;
		if (syscall_entry(f))
			break;
		top = i;
	}
	for (i = 0; i <= top && shown < 8; i++) {
		if (!st->frames[i])
			continue;
		/* unclassified: the innermost frames say where it slept */
		if (i != rule && i != top && !fsl_wclass_frame_rank(st->frames[i]) &&
		    (rule >= 0 || i >= 3))
			continue;
		fsl_frame_func(st->frames[i], f, sizeof(f));
		if (shown)
			sb_add(b, " <- %s", prev == i - 1 ? "" : "... <- ");
		sb_add(b, "%s", f);
		prev = i;
		shown++;
	}
}

static const struct fsl_dev_io *target_dev(const struct fsl_blockio *io)
{
	return io && io->ndevs ? &io->devs[0] : NULL;
}

/* "; fsync wrote 120.0 MiB of its own data (48% of the data written)" and the like. */
static void wb_evidence(struct sbuf *b, const struct fsl_writeback *wb, unsigned int cls)
{
	unsigned int i, top = 0;
	uint64_t n;

	if (cls == FSL_WC_FSYNC_WRITEBACK) {
		n = wb->cause_bytes[FSL_WBC_FSYNC] + wb->cause_bytes[FSL_WBC_SYNC_WRITE];
		sb_add(b, "; fsync and O_SYNC writes wrote %.1f MiB of their own data (%.0f%% of "
			  "the data written)", n / 1048576.0, 100.0 * n / wb->data_bytes);
		return;
	}
	if (cls == FSL_WC_FREE_SPACE_WRITEBACK) {
		n = wb->cause_bytes[FSL_WBC_FREE_SPACE];
		sb_add(b, "; writeback forced by low free space wrote %.1f MiB (%.0f%% of the data "
			  "written)", n / 1048576.0, 100.0 * n / wb->data_bytes);
		return;
	}
	for (i = 1; i < FSL_WBC__MAX; i++)
		if (wb->cause_bytes[i] > wb->cause_bytes[top])
			top = i;
	sb_add(b, "; data written %.1f MiB, most by %s (%.0f%%)", wb->data_bytes / 1048576.0,
	       fsl_wbcause_id(top), 100.0 * wb->cause_bytes[top] / wb->data_bytes);
}

static void evidence(struct fsl_analysis *a, const struct fsl_stalls *st, unsigned int cls,
		     struct fsl_cause *cause, int *atime, int *mtime)
{
	const struct an_ctx *c = an_analysis_ctx(a);
	const struct fsl_class_stat *cs = &st->cls[cls];
	const struct fsl_journal *j = an_analysis_journal(a);
	const struct fsl_writeback *wb = an_analysis_writeback(a);
	const struct fsl_ops *ops = an_analysis_ops(a);
	const struct fsl_dev_io *d = target_dev(an_analysis_blockio(a));
	struct sbuf b = { cause->evidence, sizeof(cause->evidence), 0 };
	unsigned int k;

	/* the cause's own scope: the workload's waits, its longest one */
	sb_add(&b, "%" PRIu64 " waits, longest %.1f ms", cs->count[FSL_ROLE_WORKLOAD],
	       ms(cs->workload_max_ns));
	switch (cls) {
	case FSL_WC_JOURNAL_LOG_SPACE:
	case FSL_WC_TXN_LOCKED:
	case FSL_WC_BUFFER_UNDER_COMMIT:
	case FSL_WC_COMMIT_WAIT:
	case FSL_WC_HANDLE_START:
		if (j && j->commits)
			sb_add(&b, "; %" PRIu64 " commits, avg %.1f ms", j->commits,
			       ms(fsl_hist_avg(&j->commit_ns)));
		if (j && j->checkpoints)
			sb_add(&b, "; %" PRIu64 " checkpoints wrote %" PRIu64 " buffers", j->checkpoints,
			       j->chp_written);
		if (j && j->trig[FSL_TRIG_LOG_SPACE])
			sb_add(&b, "; %" PRIu64 " commits forced by log space", j->trig[FSL_TRIG_LOG_SPACE]);
		if (j && j->trig[FSL_TRIG_FSYNC] && cls == FSL_WC_COMMIT_WAIT)
			sb_add(&b, "; %" PRIu64 " commits forced by fsync", j->trig[FSL_TRIG_FSYNC]);
		/* a commit waits for its cache flushes: their own latency */
		if (d && d->flush_rqs && cls == FSL_WC_COMMIT_WAIT)
			sb_add(&b, "; %" PRIu64 " cache flushes, D2C avg %.2f ms", d->flush_rqs,
			       ms(fsl_hist_avg(&d->flush_d2c)));
		if (j && j->phase_txns && cls == FSL_WC_TXN_LOCKED)
			sb_add(&b, "; per commit: locked %.2f ms, flushing %.2f ms, logging %.2f ms",
			       ms(j->sum_locked_phase_ns / j->phase_txns),
			       ms(j->sum_flushing_phase_ns / j->phase_txns),
			       ms(j->sum_logging_phase_ns / j->phase_txns));
		break;
	case FSL_WC_DIR_BLOCK_READ:
	case FSL_WC_INODE_TABLE_READ:
		if (ops && ops->total)
			sb_add(&b, "; %" PRIu64 " path operations", ops->total);
		if (ops && ops->ndirs)
			sb_add(&b, "; hottest directory %s (%" PRIu64 " ops)", ops->dirs[0].path,
			       ops->dirs[0].ops);
		break;
	case FSL_WC_WRITEBACK_THROTTLE:
		if (wb && wb->throttle_pauses)
			sb_add(&b, "; %" PRIu64 " balance_dirty_pages pauses, %.2f s", wb->throttle_pauses,
			       wb->throttle_ns / 1e9);
		if (wb && wb->dirty_thresh)
			sb_add(&b, "; dirty limit %.1f MiB", wb->dirty_thresh * 4096.0 / 1048576);
		break;
	case FSL_WC_FSYNC_WRITEBACK:
	case FSL_WC_FREE_SPACE_WRITEBACK:
	case FSL_WC_BLOCK_THROTTLE:
		/* the data behind the wait: who wrote how much (writeback by cause) */
		if (wb && wb->data_bytes)
			wb_evidence(&b, wb, cls);
		if (d && d->completed)
			sb_add(&b, "; %u:%u Q2C avg %.2f ms, D2C avg %.2f ms", FSL_MAJOR(d->dev),
			       FSL_MINOR(d->dev), ms(fsl_hist_avg(&d->q2c)), ms(fsl_hist_avg(&d->d2c)));
		break;
	case FSL_WC_FLUSH:
		/* the cache flushes' own latency: btt's D2C leaves them out */
		if (d && d->flush_rqs) {
			sb_add(&b, "; %u:%u %" PRIu64 " cache flushes, D2C avg %.2f ms (requests with data"
			       " %.2f ms)", FSL_MAJOR(d->dev), FSL_MINOR(d->dev), d->flush_rqs,
			       ms(fsl_hist_avg(&d->flush_d2c)), ms(fsl_hist_avg(&d->d2c)));
			break;
		}
		/* fall through */
	default:
		if (d && d->completed)
			sb_add(&b, "; %u:%u Q2C avg %.2f ms, D2C avg %.2f ms, %" PRIu64 " seeks",
			       FSL_MAJOR(d->dev), FSL_MINOR(d->dev), ms(fsl_hist_avg(&d->q2c)),
			       ms(fsl_hist_avg(&d->d2c)), d->seeks);
		break;
	}
	for (k = 0; k < FSL_TOP_STACKS && cs->top_stack[k] >= 0 && k < 2; k++) {
		char one[FSL_EVIDENCE_LEN];
		struct sbuf sb1 = { one, sizeof(one), 0 };

		one[0] = 0;
		stack_summary(c, cs->top_stack[k], &sb1, atime, mtime);
		if (!one[0])
			continue;
		/*
		 * A cause is ranked by the workload's time: a second stack only of
		 * kernel threads (a loop worker writing its backing file) is theirs,
		 * summed on the kernel-thread line below, not the workload's.
		 */
		if (k && cs->top_stack_wns[0] && !cs->top_stack_wns[k])
			continue;
		/* Two stacks that differ below the deciding frame read the same here. */
		if (k && strstr(b.p, one))
			continue;
		if (k)
			sb_add(&b, "; also: %s", one);
		else
			sb_add(&b, "; stack%s%s%s: %s", cs->top_comm[k][0] ? " (" : "", cs->top_comm[k],
			       cs->top_comm[k][0] ? ")" : "", one);
	}
	if (cs->ns[FSL_ROLE_KTHREAD])
		sb_add(&b, "; kernel threads blocked %.2f s in this class", cs->ns[FSL_ROLE_KTHREAD] / 1e9);
}

/* " (log N MiB, logbsize=X)" from the trace's XFS geometry and mount options. */
static void xfs_log_now(const struct fsl_meta *m, struct sbuf *b)
{
	struct fsl_xfs_geometry g;
	const char *v = fsl_meta__mount_opt(m, "logbsize");

	if (fsl_meta__xfs_geometry(m, &g))
		return;
	sb_add(b, " (log %.1f MiB", (double)g.log_blocks * g.block_size / 1048576.0);
	if (v && *v == '=')
		sb_add(b, ", logbsize%.*s", (int)strcspn(v, ","), v);
	sb_add(b, ")");
}

static int is_xfs(const struct fsl_meta *m)
{
	const char *t = fsl_meta_kv(m, FSL_KV_FSTYPE);

	return t && !strcmp(t, "xfs");
}

static void suggestion(struct fsl_analysis *a, unsigned int cls, struct fsl_cause *cause,
		       int atime, int mtime)
{
	const struct an_ctx *c = an_analysis_ctx(a);
	const struct fsl_journal *j = an_analysis_journal(a);
	const struct fsl_writeback *wb = an_analysis_writeback(a);
	const struct fsl_ops *ops = an_analysis_ops(a);
	const struct fsl_jbd2_info *ji = fsl_analysis__jbd2_start(a);
	struct sbuf b = { cause->suggestion, sizeof(cause->suggestion), 0 };
	uint64_t jb = journal_bytes(c->meta);

	if (!ji)
		ji = fsl_analysis__jbd2_end(a);
	switch (cls) {
	case FSL_WC_JOURNAL_LOG_SPACE:
		sb_add(&b, "Grow the journal size");
		if (jb)
			sb_add(&b, " (now %.1f MiB)", jb / 1048576.0);
		else if (ji)
			sb_add(&b, " (now %" PRIu64 " blocks per transaction at most)", ji->max_blocks);
		sb_add(&b, ": the log filled and tasks ran checkpoints in the foreground. "
			   "tune2fs -J size=MiB (after tune2fs -O ^has_journal, unmounted) or "
			   "mkfs.ext4 -J size=; 128-1024 MiB for metadata-heavy work.");
		break;
	case FSL_WC_TXN_LOCKED:
		/* A transaction may use about a quarter of the journal: small journal, full fast. */
		if (jb && jb < 64ull << 20)
			sb_add(&b, "The journal is small (%.1f MiB) and a transaction may use only a "
				   "fraction of it, so transactions fill after a few hundred blocks: grow "
				   "the journal size. ", jb / 1048576.0);
		sb_add(&b, "Make commits shorter: the running transaction stays locked while "
			   "the commit waits for open handles and ordered data");
		if (j && j->phase_txns)
			sb_add(&b, " (%.2f ms locked+flushing+logging per commit)",
			       ms((j->sum_locked_phase_ns + j->sum_flushing_phase_ns +
				   j->sum_logging_phase_ns) / j->phase_txns));
		sb_add(&b, "; faster or external journal device (mkfs.ext4 -J device=), fewer fsyncs.");
		break;
	case FSL_WC_BUFFER_UNDER_COMMIT:
		sb_add(&b, "Operations modify metadata blocks the commit is writing (same directory "
			   "block, bitmap or inode-table block): spread the work over several "
			   "directories, or shorten commits (faster journal device).");
		break;
	case FSL_WC_COMMIT_WAIT:
		sb_add(&b, "fsync/sync wait for the journal commit");
		if (j && j->commits)
			sb_add(&b, " (%.1f ms avg)", ms(fsl_hist_avg(&j->commit_ns)));
		sb_add(&b, ": batch fsyncs, use fdatasync where metadata need not be durable, "
			   "or put the journal on a faster device.");
		break;
	case FSL_WC_HANDLE_START:
		sb_add(&b, "New journal handles wait for the commit or checkpoint in progress: see "
			   "handle-start waits in the journal section.");
		break;
	case FSL_WC_DIR_BLOCK_READ:
		sb_add(&b, "Lookups read directory blocks from disk (cold cache / large directory");
		if (ops && ops->ndirs)
			sb_add(&b, ", e.g. %s", ops->dirs[0].path);
		sb_add(&b, "): keep directories smaller, check dir_index (htree) is on, warm the "
			   "cache (ls -f DIR >/dev/null) before the run.");
		break;
	case FSL_WC_INODE_TABLE_READ:
		sb_add(&b, "stat/open read inode-table blocks from disk: visit files in inode order, "
			   "raise inode_readahead_blks (mount option), keep the cache warm.");
		break;
	case FSL_WC_BITMAP_READ:
		sb_add(&b, "The allocator loaded bitmaps from disk: mount with prefetch_block_bitmaps, "
			   "keep the filesystem less full so fewer groups are searched.");
		break;
	case FSL_WC_WRITEBACK_THROTTLE:
		sb_add(&b, "Writers hit the dirty limit");
		if (wb && wb->dirty_thresh)
			sb_add(&b, " (%.0f MiB)", wb->dirty_thresh * 4096.0 / 1048576);
		sb_add(&b, ": raise vm.dirty_bytes / vm.dirty_background_bytes (or the ratios), or "
			   "write with O_DIRECT / sync_file_range to pace writeback.");
		break;
	case FSL_WC_BLOCK_THROTTLE:
		sb_add(&b, "The block layer's write throttling (wbt) held the task's own writes back "
			   "to keep read latency low, mostly data an fsync or writeback submitted: "
			   "if these writes are the work, raise or turn off the target "
			   "(/sys/block/DEV/queue/wbt_lat_usec, 0 = off); else dirty less per fsync.");
		break;
	case FSL_WC_FSYNC_WRITEBACK:
		sb_add(&b, "fsync waited for its own dirty data to be written, not for the %s: "
			   "write it back earlier (sync_file_range, lower ",
		       is_xfs(c->meta) ? "log force" : "journal commit");
		sb_add(&b, "vm.dirty_background_bytes) so less is left per fsync; fdatasync does not "
			   "help here; a faster data device does.");
		break;
	case FSL_WC_FREE_SPACE_WRITEBACK:
		sb_add(&b, "ext4 forced writeback because free space ran low against delayed-allocation "
			   "dirty data (ext4_nonda_switch: free < 2x dirty clusters; below 1.5x delalloc "
			   "is turned off)");
		sb_add(&b, ": free space on the filesystem (delete, grow), or dirty less at a time "
			   "(lower vm.dirty_bytes).");
		break;
	case FSL_WC_AIO_WAIT:
		sb_add(&b, "The task waited for completions of its own asynchronous I/O (io_getevents, "
			   "io_uring): the device is the limit, see Block I/O latency; a lower iodepth "
			   "trades throughput for latency.");
		break;
	case FSL_WC_PAGE_WAIT:
		sb_add(&b, "Tasks waited on locked pages or pages under writeback (stable pages): "
			   "avoid rewriting data being written back; check readahead for reads.");
		break;
	case FSL_WC_XFS_LOG_FORCE:
		sb_add(&b, "fsync/sync waited for the XFS log to reach disk (each force writes the "
			   "in-core log buffers and flushes the cache)");
		xfs_log_now(c->meta, &b);
		sb_add(&b, ": batch fsyncs, use fdatasync where metadata need not be durable, "
			   "larger and more log buffers (mount -o logbsize=256k,logbufs=8), or an "
			   "external log on a faster device (mkfs.xfs -l logdev=).");
		break;
	case FSL_WC_XFS_LOG_SPACE:
		sb_add(&b, "Transactions waited for XFS log space: the log stays full until the "
			   "AIL writes the metadata it covers back");
		xfs_log_now(c->meta, &b);
		sb_add(&b, ": a larger log (mkfs.xfs -l size=, up to 2 GiB), a faster device for "
			   "metadata writeback, or fewer metadata changes at once.");
		break;
	case FSL_WC_XFS_AIL_PUSH:
		sb_add(&b, "Tasks waited for the AIL to write all logged metadata back (sync, "
			   "freeze, unmount)");
		xfs_log_now(c->meta, &b);
		sb_add(&b, ": fewer such syncs; a larger log only moves the cost.");
		break;
	case FSL_WC_XFS_META_READ:
		sb_add(&b, "XFS read metadata buffers from disk (directory and inode-cluster blocks, "
			   "free-space btrees, AGF/AGFL/AGI): warm the cache before the run, keep the "
			   "filesystem less full so allocation searches fewer AGs, and keep inode64 "
			   "(the default) so inodes sit near their data.");
		break;
	case FSL_WC_XFS_BUF_LOCK:
		sb_add(&b, "Tasks waited for an XFS metadata buffer another transaction holds (often "
			   "an allocation group's AGF or AGI): spread the work over directories in "
			   "different AGs, or more allocation groups (mkfs.xfs -d agcount=) for more "
			   "concurrent allocators.");
		break;
	case FSL_WC_XFS_INODE_LOCK:
		sb_add(&b, "Tasks waited for an XFS inode lock held by another task (several writers "
			   "or a writer and readers on one file, or one directory): split the work "
			   "over files, or use direct I/O, which takes the lock shared.");
		break;
	case FSL_WC_XFS_ALLOC:
		sb_add(&b, "Allocation waited for busy extents (freed by a transaction not yet on "
			   "disk) and forced the log: free and reallocate less at once; avoid online "
			   "discard (mount -o discard), which keeps extents busy longer.");
		break;
	case FSL_WC_QUEUE_WAIT:
		sb_add(&b, "The device queue ran out of request tags: raise "
			   "/sys/block/DEV/queue/nr_requests or limit concurrent writeback.");
		break;
	case FSL_WC_FLUSH:
		sb_add(&b, "Disk cache flushes (fsync, commits): fewer fsyncs, or a device whose "
			   "cache is power-loss protected.");
		break;
	case FSL_WC_OTHER_IO:
		sb_add(&b, "Plain I/O waits: see Block I/O for latency, seeks and who issued them.");
		break;
	default:
		sb_add(&b, "Unclassified: see the stack; docs/wait-classes.md says how to add a rule.");
		break;
	}
	if (atime)
		sb_add(&b, " atime updates dirty inodes through the journal: mount noatime (or "
			   "relatime/lazytime).");
	else if (mtime && cls <= FSL_WC_HANDLE_START)
		sb_add(&b, " Timestamp updates on every write go through the journal: mount lazytime.");
}

/*
 * An on-CPU stack as evidence: the innermost frames up to the one the CPU
 * rule named, then the outermost below the syscall or thread entry.
 */
static void cpu_stack_summary(const struct an_ctx *c, int32_t id, struct sbuf *b)
{
	const struct fsl_stack *st = c->meta && c->meta->stack ? c->meta->stack(c->meta, id) : NULL;
	char f[96];
	int rule, i, top = -1, shown = 0, prev = -2;

	if (!st || !st->nframes)
		return;
	fsl_cclass_of_frames((const char *const *)st->frames, st->nframes, &rule);
	for (i = 0; i < (int)st->nframes; i++) {
		if (!st->frames[i])
			continue;
		fsl_frame_func(st->frames[i], f, sizeof(f));
		if (syscall_entry(f))
			break;
		top = i;
	}
	for (i = 0; i <= top && shown < 7; i++) {
		if (!st->frames[i] || (i > rule + 1 && i != top && i > 2))
			continue;
		fsl_frame_func(st->frames[i], f, sizeof(f));
		if (shown)
			sb_add(b, " <- %s", prev == i - 1 ? "" : "... <- ");
		sb_add(b, "%s", f);
		prev = i;
		shown++;
	}
}

static void cpu_evidence(struct fsl_analysis *a, const struct fsl_cpu *cpu, unsigned int cls,
			 struct fsl_cause *cause)
{
	const struct an_ctx *c = an_analysis_ctx(a);
	const struct fsl_ops *ops = an_analysis_ops(a);
	struct sbuf b = { cause->evidence, sizeof(cause->evidence), 0 };
	unsigned int k;

	sb_add(&b, "%" PRIu64 " samples at %.0f Hz", cause->count,
	       cpu->period_ns ? 1e9 / cpu->period_ns : 0.0);
	if ((cls == FSL_CC_DIRENT_SCAN || cls == FSL_CC_HTREE || cls == FSL_CC_PATH_LOOKUP) &&
	    ops && ops->total) {
		sb_add(&b, "; %" PRIu64 " path operations", ops->total);
		if (ops->ndirs)
			sb_add(&b, ", hottest directory %s (%" PRIu64 " ops)", ops->dirs[0].path,
			       ops->dirs[0].ops);
	}
	for (k = 0; k < FSL_CPU_TOP_STACKS && cpu->top_stack[cls][k] >= 0; k++) {
		char one[FSL_EVIDENCE_LEN];
		struct sbuf sb1 = { one, sizeof(one), 0 };

		one[0] = 0;
		cpu_stack_summary(c, cpu->top_stack[cls][k], &sb1);
		if (!one[0] || (k && strstr(b.p, one)))
			continue;
		if (k)
			sb_add(&b, "; also: %s", one);
		else
			sb_add(&b, "; stack%s%s%s: %s", cpu->top_comm[cls][k][0] ? " (" : "",
			       cpu->top_comm[cls][k], cpu->top_comm[cls][k][0] ? ")" : "", one);
	}
	if (cpu->ns[FSL_ROLE_KTHREAD][cls])
		sb_add(&b, "; kernel threads on-CPU %.2f s in this class",
		       cpu->ns[FSL_ROLE_KTHREAD][cls] / 1e9);
}

static void cpu_suggestion(const struct fsl_meta *m, unsigned int cls, struct fsl_cause *cause)
{
	/* on an XFS target the same classes are XFS's code: its words, its knobs */
	static const char *const xfs_advice[FSL_CC__MAX] = {
		[FSL_CC_DIRENT_SCAN] = "XFS directory lookups and inserts walking directory "
			"blocks: fewer entries per directory, or larger directory blocks "
			"(mkfs.xfs -n size=).",
		[FSL_CC_HTREE] = "XFS directory and attribute btrees (hashing, lookups, "
			"splits): fewer entries per directory (mkfs.xfs -n size=).",
		[FSL_CC_CHECKSUM] = "Metadata CRCs (the v5 format's crc=1) on every metadata "
			"write and read: fewer metadata updates (noatime, lazytime).",
		[FSL_CC_MBALLOC] = "XFS free-space btree searches: fragmented free space makes "
			"allocations search longer (more free space, fallocate or an extent size "
			"hint up front, xfs_io -c extsize).",
		[FSL_CC_IALLOC] = "XFS inode allocation: finding or creating inode chunks in "
			"an AG; more AGs or sparse inodes spread it.",
		[FSL_CC_EXTENT] = "XFS extent maps (bmap btree, in-core extent lists): files "
			"with many extents; an extent size hint (xfs_io -c extsize) or fallocate.",
		[FSL_CC_JOURNAL] = "XFS log and transaction bookkeeping (transactions, CIL, "
			"log items): fewer metadata changes per operation (noatime, lazytime).",
		[FSL_CC_XFS] = "Other XFS code: see the stack.",
	};
	int xfs = m && fsl_meta__str(m, FSL_KV_FSTYPE) &&
		  !strcmp(fsl_meta__str(m, FSL_KV_FSTYPE), "xfs");
	static const char *const advice[FSL_CC__MAX] = {
		[FSL_CC_DIRENT_SCAN] = "Lookups, creates and deletes compare names entry by entry "
			"through directory blocks: a large directory without an htree index "
			"(dir_index off, or a directory made before it was on), or readdir of big "
			"directories. tune2fs -O dir_index then e2fsck -fD (unmounted) indexes them; "
			"fewer entries per directory cut the scan either way.",
		[FSL_CC_HTREE] = "Hashing names and walking the htree index of large directories: "
			"expected per lookup, deeper (large_dir) trees cost more; fewer entries "
			"per directory.",
		[FSL_CC_CHECKSUM] = "Checksums of metadata (metadata_csum: inodes, bitmaps, "
			"directory and journal blocks) on every change: fewer metadata updates "
			"(noatime, lazytime); check that crc32c is the accelerated driver "
			"(/proc/crypto).",
		[FSL_CC_MBALLOC] = "The block allocator searched groups for free extents: a full "
			"or fragmented filesystem makes it scan more (more free space, "
			"mb_optimize_scan, fallocate up front).",
		[FSL_CC_IALLOC] = "The inode allocator searched groups and bitmaps for a free "
			"inode: many groups nearly full of inodes; spread directories, or a "
			"filesystem with more inodes (mkfs -i).",
		[FSL_CC_EXTENT] = "Extent-tree and extent-status lookups: files with many "
			"extents map slowly; defragment (e4defrag) or allocate contiguously "
			"(fallocate, delalloc).",
		[FSL_CC_JOURNAL] = "jbd2 bookkeeping on every metadata change (handles, buffer "
			"access, commit): fewer metadata changes per operation (noatime, "
			"lazytime) or batching.",
		[FSL_CC_INODE] = "Inode updates and the inode cache: timestamp updates per "
			"operation (noatime, lazytime), cache misses of cold inodes.",
		[FSL_CC_PAGE_COPY] = "Copying data between user buffers and the page cache: in "
			"proportion to the bytes read and written; O_DIRECT or mmap avoid the "
			"copy.",
		[FSL_CC_PAGE_CACHE] = "Page and buffer cache lookups and bookkeeping: many "
			"small I/Os; larger reads and writes do the same work in fewer calls.",
		[FSL_CC_WRITEBACK] = "Turning dirty pages into I/O: in proportion to the data "
			"written back.",
		[FSL_CC_BLOCK] = "Submitting and completing block requests: many small requests; "
			"larger I/O and merging cost less per byte.",
		[FSL_CC_PATH_LOOKUP] = "Walking paths and the dentry cache: long or deep paths "
			"looked up again and again; *at() calls on an open directory, fewer stats.",
		[FSL_CC_XFS] = "Other XFS code: see the stack.",
		[FSL_CC_EXT4_OTHER] = "Other ext4 code: see the stack.",
		[FSL_CC_LOCK_SPIN] = "Tasks spun on contended kernel locks (the stack names the "
			"lock's user): fewer tasks working in the same directory or file at once.",
		[FSL_CC_MEMORY] = "Kernel memory allocation, freeing and page faults.",
		[FSL_CC_PROCESS] = "Starting and ending processes (fork, exec, exit): the "
			"workload runs many short processes (xargs, find -exec); more work per "
			"process.",
		[FSL_CC_SCHED] = "The scheduler: many short sleeps and wake-ups.",
		[FSL_CC_IRQ] = "Interrupts and softirqs that ran on the workload's time.",
		[FSL_CC_KERNEL_OTHER] = "Kernel code no CPU rule names: see the stack; "
			"docs/wait-classes.md says how to add a rule.",
		[FSL_CC_USER] = "The workload's own code in user space: this time is not the "
			"filesystem's.",
		[FSL_CC_RECORDER] = "fslens's own probes running inside the workload's system "
			"calls: the price of this recording, not of the workload (fewer families "
			"with -e, or --syscall-tp, cost less).",
	};
	struct sbuf b = { cause->suggestion, sizeof(cause->suggestion), 0 };

	if (xfs && cls < FSL_CC__MAX && xfs_advice[cls])
		sb_add(&b, "%s", xfs_advice[cls]);
	else
		sb_add(&b, "%s", cls < FSL_CC__MAX && advice[cls] ? advice[cls] : "");
}

const char *fsl_cause_id(const struct fsl_cause *c)
{
	return c->kind == FSL_CAUSE_CPU ? fsl_cclass_id(c->cls) : fsl_wclass_id(c->cls);
}

const char *fsl_cause_label(const struct fsl_cause *c)
{
	return c->kind == FSL_CAUSE_CPU ? fsl_cclass_label(c->cls) : fsl_wclass_label(c->cls);
}

static void insert_cause(struct fsl_diagnosis *d, const struct fsl_cause *cur)
{
	unsigned int j;

	/* most time first; ties: waits before CPU, then the lower class */
	for (j = 0; j < d->ncauses &&
	     (d->causes[j].ns > cur->ns ||
	      (d->causes[j].ns == cur->ns && (d->causes[j].kind < cur->kind ||
					       (d->causes[j].kind == cur->kind &&
						d->causes[j].cls < cur->cls)))); j++)
		;
	memmove(&d->causes[j + 1], &d->causes[j], (d->ncauses - j) * sizeof(*cur));
	d->causes[j] = *cur;
	d->ncauses++;
}

void fsl_analysis__diagnose(struct fsl_analysis *a, struct fsl_diagnosis *d)
{
	const struct fsl_stalls *st = fsl_analysis__stalls(a);
	const struct an_ctx *c = an_analysis_ctx(a);
	uint64_t busy;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->blocked_ns = st->ns[FSL_ROLE_WORKLOAD];
	d->whole = *fsl_analysis__wholetime(a);
	d->cpu = *fsl_analysis__cpu(a);
	d->has_cpu = d->cpu.period_ns != 0;
	d->oncpu_ns = d->cpu.total_ns[FSL_ROLE_WORKLOAD];
	busy = d->blocked_ns + d->oncpu_ns;
	if (c->win.t1 && c->win.t1 > c->win.t0)
		d->window_ns = c->win.t1 - c->win.t0;
	else if (c->now > c->origin)
		d->window_ns = c->now - c->origin;
	for (i = 0; i < FSL_WC__MAX; i++) {
		struct fsl_cause cur;
		int atime = 0, mtime = 0;

		if (!st->cls[i].ns[FSL_ROLE_WORKLOAD])
			continue;
		memset(&cur, 0, sizeof(cur));
		cur.cls = i;
		cur.ns = st->cls[i].ns[FSL_ROLE_WORKLOAD];
		cur.count = st->cls[i].count[FSL_ROLE_WORKLOAD];
		cur.kthread_ns = st->cls[i].ns[FSL_ROLE_KTHREAD];
		cur.share = d->blocked_ns ? (double)cur.ns / d->blocked_ns : 0;
		cur.busy_share = busy ? (double)cur.ns / busy : 0;
		evidence(a, st, i, &cur, &atime, &mtime);
		suggestion(a, i, &cur, atime, mtime);
		insert_cause(d, &cur);
	}
	for (i = 0; d->has_cpu && i < FSL_CC__MAX; i++) {
		struct fsl_cause cur;

		if (!d->cpu.ns[FSL_ROLE_WORKLOAD][i])
			continue;
		memset(&cur, 0, sizeof(cur));
		cur.kind = FSL_CAUSE_CPU;
		cur.cls = i;
		cur.ns = d->cpu.ns[FSL_ROLE_WORKLOAD][i];
		cur.count = d->cpu.period_ns ? (cur.ns + d->cpu.period_ns / 2) / d->cpu.period_ns : 0;
		cur.kthread_ns = d->cpu.ns[FSL_ROLE_KTHREAD][i];
		cur.share = d->oncpu_ns ? (double)cur.ns / d->oncpu_ns : 0;
		cur.busy_share = busy ? (double)cur.ns / busy : 0;
		cpu_evidence(a, &d->cpu, i, &cur);
		cpu_suggestion(c->meta, i, &cur);
		insert_cause(d, &cur);
	}
}
