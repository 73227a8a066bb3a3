// SPDX-License-Identifier: GPL-2.0
/*
 * A whole recording (include/fslens/record.h): the target's metadata, the
 * probes, the workload child, the collector stream into the trace writer,
 * the end state and the summary. Nothing here prints: every line for the
 * user goes to the caller's msg callback, which adds the command's prefix.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fslens/collector.h"
#include "fslens/fsmeta.h"
#include "fslens/loss.h"
#include "fslens/meta.h"
#include "fslens/record.h"
#include "fslens/schema.h"
#include "fslens/stream.h"
#include "fslens/trace.h"

/* how often the writer's buffered events become complete chunks on disk */
#define FLUSH_NS 1000000000ll
/* dirops and off-CPU records carry their start time: the window they sort in */
#define RECORD_WINDOW_NS 2000000000ull
/*
 * What that window may hold. At a few M events/s, 2 s of them are hundreds
 * of MB; past this the oldest are written before their window (counted as
 * record.reorder_forced), keeping the recorder within its memory budget.
 */
#define RECORD_HOLD_BYTES (32u << 20)

static volatile sig_atomic_t got_signal, nsignals;

static void on_signal(int sig)
{
	got_signal = sig;
	nsignals++;
}

struct rec {
	const struct fsl_record_opts *o;
	const struct fsl_record_cb *cb;
	struct fsl_writer *w;
	struct fsl_record_result *res;
	int werr;
	/* after a write failure: when, and what could not be written since */
	int64_t werr_ns;
	uint64_t unwritten;
	/* -m: the mount point and its device, to notice an unmount */
	const char *mount;
	dev_t mount_dev;
	int unmounted;
	int fs;			/* enum fsl_collector_fs of the target */
	uint64_t lost_written[FSL_FAM__MAX];	/* lost counts given to the writer so far */
	/* why the ring lost: this interval's drain and fill, and the sum */
	struct fsl_loss_interval iv;
	int64_t iv_start;
	uint64_t iv_lost0;
	double iv_busy0;	/* busy_self() at the interval's start */
	struct fsl_loss loss;
	int64_t t0;
};

static uint64_t lost_sum(struct fsl_stream *st)
{
	struct fsl_stream_stats ss;

	fsl_stream__stats(st, &ss);
	return ss.lost_err ? 0 : ss.lost_total;
}

static int64_t mono_ns(void);

static double cpu_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/* This thread's time on a CPU and waiting for one, in seconds (0 if unknown). */
static double busy_self(void)
{
	unsigned long long run = 0, wait = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &run, &wait) != 2)
		run = wait = 0;
	fclose(f);
	return (run + wait) / 1e9;
}

/* One poll's view of the ring: was the drain behind when it started? */
static void fill_sample(struct rec *r, struct fsl_stream *st)
{
	uint64_t used, size;

	if (fsl_stream__fill(st, &used, &size) || !size)
		return;
	r->iv.polls++;
	if (2 * used >= size)
		r->iv.polls_full++;
}

/* The interval ends (a flush, or the end): its loss gets a cause. */
static void loss_interval(struct rec *r, struct fsl_stream *st, int64_t now)
{
	uint64_t lost = lost_sum(st);
	char advice[512];

	double busy = busy_self();

	r->iv.secs = (now - r->iv_start) / 1e9;
	r->iv.lost = lost > r->iv_lost0 ? lost - r->iv_lost0 : 0;
	r->iv.busy_secs = busy > r->iv_busy0 ? busy - r->iv_busy0 : 0;
	fsl_loss__add(&r->loss, &r->iv);
	if (r->iv.lost && !r->werr) {
		r->loss.cpu_secs = cpu_self();
		r->loss.wall_secs = (now - r->t0) / 1e9;
		fsl_writer__kv(r->w, FSL_KV_LOST_BEHIND, "%llu",
			       (unsigned long long)r->loss.lost_behind);
		fsl_writer__kv(r->w, FSL_KV_LOST_BURST, "%llu",
			       (unsigned long long)r->loss.lost_burst);
		fsl_writer__kv(r->w, FSL_KV_LOSS_ADVICE, "%s",
			       fsl_loss__advice(&r->loss, advice, sizeof(advice)));
	}
	r->iv_lost0 = lost;
	r->iv_busy0 = busy;
	r->iv_start = now;
	memset(&r->iv, 0, sizeof(r->iv));
}

/* The ring's lost counts so far into the trace: every flush writes them, not only the end. */
static void lost_to_writer(struct rec *r, struct fsl_stream *st)
{
	struct fsl_stream_stats ss;
	unsigned int i;

	fsl_stream__stats(st, &ss);
	if (ss.lost_err)
		return;
	for (i = 0; i < FSL_FAM__MAX; i++) {
		r->res->lost[i] = ss.lost[i];
		if (ss.lost[i] > r->lost_written[i]) {
			fsl_writer__lost(r->w, i, ss.lost[i] - r->lost_written[i]);
			r->lost_written[i] = ss.lost[i];
		}
	}
}

static void say(const struct rec *r, enum fsl_record_msg kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(const struct rec *r, enum fsl_record_msg kind, const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	if (!r->cb || !r->cb->msg)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	r->cb->msg(r->cb->ctx, kind, line);
}

/* "1,2,3" of first (if not 0) then ids[0..n). */
static void id_list(char *buf, size_t len, uint32_t first, const uint32_t *ids, unsigned int n)
{
	size_t k = 0;
	unsigned int i;

	buf[0] = 0;
	if (first)
		k += snprintf(buf, len, "%u", first);
	for (i = 0; i < n && k < len; i++)
		k += snprintf(buf + k, len - k, "%s%u", k ? "," : "", ids[i]);
}

static void log_libbpf(void *ctx, const char *line)
{
	const struct rec *r = ctx;

	if (r->o->verbose && r->cb && r->cb->msg)
		r->cb->msg(r->cb->ctx, FSL_RECORD_LIBBPF, line);
}

static int sink_kv(void *ctx, const char *key, const char *value)
{
	return fsl_writer__kv(ctx, key, "%s", value);
}

static int sink_text(void *ctx, const char *name, const void *data, size_t len)
{
	return fsl_writer__text(ctx, name, data, len);
}

static int sink_bitmap(void *ctx, const struct fsl_bitmap *bm)
{
	return fsl_writer__bitmap(ctx, bm);
}

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The stream's ordered events into the trace. */
static int write_event(void *ctx, const struct fsl_hdr *ev)
{
	struct rec *r = ctx;
	const struct fsl_event_desc *d = fsl_schema_builtin(ev->type);
	int e;

	if (r->werr) {		/* the trace is closed to writes: counted, not written */
		r->unwritten++;
		return 0;
	}
	e = fsl_writer__event(r->w, ev);
	if (e) {
		r->werr = e;
		r->unwritten++;
		return 0;	/* the main loop says it once; the workload goes on */
	}
	if (d && d->family < FSL_FAM__MAX)
		r->res->events[d->family]++;
	r->res->nevents++;
	return 0;
}

static int write_stack(void *ctx, const struct fsl_stack *st)
{
	struct rec *r = ctx;
	int e = fsl_writer__stack(r->w, st);

	if (e && !r->werr)
		r->werr = e;
	return e;
}

static int write_sym(void *ctx, uint64_t addr, const char *name)
{
	struct rec *r = ctx;
	int e = fsl_writer__sym(r->w, addr, name);

	if (e && !r->werr)
		r->werr = e;
	return e;
}

/*
 * The stacks and caller addresses first seen since the last call, with
 * their symbols: at every flush, so a killed recording keeps them. A
 * missing kallsyms is said once, at the end.
 */
static int write_symbols(struct rec *r, struct fsl_stream *st)
{
	int n, e = fsl_stream__symbols(st, write_stack, write_sym, r, &n);

	r->res->nstacks += n;
	return r->werr ? r->werr : e;
}

/*
 * The kernel's own I/O counters of the disk, right after attach and right
 * before detach: the window the block events cover (the recorder's own
 * metadata reads happen outside it).
 */
static void disk_stat_kv(struct rec *r, const struct fsl_target *t, int end)
{
	char p[128], buf[512];
	uint64_t ts = 0;
	FILE *f;

	if (!t->diskname[0])
		return;
	snprintf(p, sizeof(p), "/sys/block/%s/stat", t->diskname);
	f = fopen(p, "re");
	if (!f)
		return;
	/*
	 * The trace's events count against the kernel's delta between the
	 * two reads: the start read's time is after it, the end read's before
	 * it, so no completion the kernel counted is left out of the window.
	 */
	if (end)
		ts = mono_ns();
	if (fgets(buf, sizeof(buf), f)) {
		if (!end)
			ts = mono_ns();
		buf[strcspn(buf, "\n")] = 0;
		fsl_writer__kv(r->w, end ? FSL_KV_QUEUE_STAT_END : FSL_KV_QUEUE_STAT_START, "%s",
			       buf + strspn(buf, " "));
		fsl_writer__kv(r->w, end ? FSL_KV_QUEUE_STAT_END_NS : FSL_KV_QUEUE_STAT_START_NS,
			       "%" PRIu64, ts);
	}
	fclose(f);
}

static void sync_fs(const char *mount)
{
	int fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}

/*
 * An XFS target's free space and inode chunks in use, after a sync so that
 * delayed allocations have their blocks: the layout analysis and the inode
 * placement model start (and end) from the kernel's own state.
 */
static void xfs_space(struct rec *r, const struct fsl_target *t, const char *when)
{
	struct fsl_meta_sink sink = { r->w, sink_kv, sink_text, sink_bitmap };
	int e;

	sync_fs(t->mount);
	e = fsl_meta_fsmap(&sink, t, when);
	if (e)
		say(r, FSL_RECORD_WARNING, "cannot read the space map (GETFSMAP) of %s: %s",
		    t->mount, strerror(-e));
	e = fsl_meta_xfs_inumbers(&sink, t, when);
	if (e)
		say(r, FSL_RECORD_WARNING, "cannot read the inode chunks (XFS_IOC_FSINUMBERS) of "
		    "%s: %s", t->mount, strerror(-e));
}

/* The target's state at the start: geometry, journal, buddies, bitmaps. */
static void meta_start(struct rec *r, const struct fsl_target *t, int have_target, int is_ext4)
{
	struct fsl_meta_sink sink = { r->w, sink_kv, sink_text, sink_bitmap };
	int e;

	fsl_meta_host(&sink);
	if (!have_target)
		return;
	fsl_meta_target(&sink, t);
	if (r->fs == FSL_COLLECTOR_FS_XFS) {
		e = fsl_meta_xfs(&sink, t);
		if (e)
			say(r, FSL_RECORD_WARNING, "cannot read the XFS geometry of %s: %s", t->mount,
			    strerror(-e));
		xfs_space(r, t, "start");
		return;
	}
	if (!is_ext4)
		return;
	e = fsl_meta_ext4(&sink, t);
	if (e)
		say(r, FSL_RECORD_WARNING, "cannot read the ext4 superblock of %s: %s", t->bdev,
		    strerror(-e));
	/* Reading mb_groups loads every group's buddy, so the model starts with all in memory. */
	e = fsl_meta_mb_loaded(&sink, t);
	if (e)
		say(r, FSL_RECORD_WARNING, "cannot read /proc/fs/ext4/%s/mb_groups: %s", t->devname,
		    strerror(-e));
	/* bitmaps after a sync, so they are the kernel's current state */
	sync_fs(t->mount);
	e = fsl_meta_ext4_groups(&sink, t->bdev);
	if (e)
		say(r, FSL_RECORD_WARNING, "cannot read the group descriptors of %s: %s", t->bdev,
		    strerror(-e));
	e = fsl_meta_bitmaps(&sink, t->bdev, FSL_BITMAP_START);
	if (e)
		say(r, FSL_RECORD_WARNING, "cannot read the bitmaps of %s: %s", t->bdev, strerror(-e));
	e = fsl_meta_ext4_dirs(&sink, t->bdev, FSL_BITMAP_START);
	if (e && e != -E2BIG)
		say(r, FSL_RECORD_WARNING, "cannot read the directories of %s: %s", t->bdev,
		    strerror(-e));
}

/*
 * /proc/fs/jbd2/<dev>/info at the start: after the start sync and the
 * attach, so every commit the kernel counts from here on is in the trace
 * (read before the sync, the sync's own commit was in /proc's delta and in
 * the kernel's running average but in no event).
 */
static void jbd2_start_kv(struct rec *r, const struct fsl_target *t)
{
	struct fsl_meta_sink sink = { r->w, sink_kv, sink_text, sink_bitmap };

	if (fsl_meta_jbd2(&sink, t, "start") == 0)
		fsl_writer__kv(r->w, FSL_KV_JBD2_INFO_START_NS, "%" PRId64, mono_ns());
}

/* Run COMMAND in a child that waits until it is tracked, so nothing is missed. */
static pid_t spawn(char **argv, int *gate)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* the recorder failed before starting */
		execvp(argv[0], argv);
		fprintf(stderr, "fslens record: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

/* The recording's own keys, once the probes are attached. */
static void meta_recording(struct rec *r, struct fsl_collector *c,
			   const struct fsl_collector_opts *co, int64_t t0, pid_t child)
{
	const struct fsl_record_opts *o = r->o;
	char fams[256] = "", cmdline[4096] = "";
	unsigned int i;
	size_t n = 0;

	fsl_writer__kv(r->w, FSL_KV_START_NS, "%" PRId64, t0);
	fsl_writer__kv(r->w, FSL_KV_PROBE_MODE, "tracepoint");
	fsl_writer__kv(r->w, FSL_KV_ATTACH, "%s (%s)", fsl_collector__mode(c),
		       fsl_collector__attach_counts(c));
	fsl_writer__kv(r->w, FSL_KV_FENTRY, "%s",
		       fsl_collector__fentry(c) ? "available (no fentry extras yet)" :
						  "refused by this kernel");
	fsl_writer__kv(r->w, FSL_KV_MIN_WAIT_US, "%llu", (unsigned long long)o->min_wait_us);
	if (fsl_collector__families(c) & (1u << FSL_FAM_CPU))
		fsl_writer__kv(r->w, FSL_KV_CPU_FREQ, "%u",
			       o->cpu_freq ? o->cpu_freq : FSL_COLLECTOR_CPU_FREQ_DEFAULT);
	fsl_writer__kv(r->w, FSL_KV_OFFCPU_STATES, "%s",
		       co->offcpu_all ? "all" : "uninterruptible");
	for (i = 0; i < FSL_FAM__MAX; i++)
		if (fsl_collector__families(c) & (1u << i))
			snprintf(fams + strlen(fams), sizeof(fams) - strlen(fams), "%s%s",
				 fams[0] ? "," : "", fsl_family_name(i));
	fsl_writer__kv(r->w, FSL_KV_FAMILIES, "%s", fams);
	fsl_writer__kv(r->w, FSL_KV_TIER, "%s", co->full ? "full" : "default");
	fsl_writer__kv(r->w, FSL_KV_RING_BYTES, "%llu", (unsigned long long)
		       (co->ring_bytes ? co->ring_bytes : FSL_COLLECTOR_RING_DEFAULT));
	if (co->pid || co->npids) {
		char l[4096] = "";

		id_list(l, sizeof(l), co->pid, co->pids, co->npids);
		fsl_writer__kv(r->w, FSL_KV_PID, "%s", l);
	}
	if (co->ntids) {
		char l[4096] = "";

		id_list(l, sizeof(l), 0, co->tids, co->ntids);
		fsl_writer__kv(r->w, FSL_KV_TIDS, "%s", l);
	}
	if (co->cgroup)
		fsl_writer__kv(r->w, FSL_KV_CGROUP, "%s", co->cgroup);
	if (o->cmd) {
		for (i = 0; o->cmd[i] && n < sizeof(cmdline) - 2; i++)
			n += snprintf(cmdline + n, sizeof(cmdline) - n, "%s%s", i ? " " : "",
				      o->cmd[i]);
		fsl_writer__kv(r->w, FSL_KV_COMMAND, "%s", cmdline);
		fsl_writer__kv(r->w, FSL_KV_ROOT_PID, "%d", (int)child);
	}
}

/* Until the command exits, the duration ends, a signal, or a write fails. */
static int record_loop(struct rec *r, struct fsl_stream *st, int64_t t0, pid_t *child,
		       int *status)
{
	int64_t t_end = r->o->duration_ns ? t0 + (int64_t)r->o->duration_ns : 0;
	int64_t now, last_flush = t0;
	int e;

	r->t0 = t0;
	r->iv_start = t0;
	r->iv_busy0 = busy_self();
	for (;;) {
		int n;

		fill_sample(r, st);
		n = fsl_stream__poll(st, 100, write_event, r);
		if (n > 0)
			r->iv.drained += n;

		/*
		 * A write failed (a full disk): the trace keeps what it had,
		 * the workload is left to run to its end (a tracer never ends
		 * what it watches), and what comes after is only counted.
		 */
		if (r->werr && !r->werr_ns) {
			r->werr_ns = mono_ns();
			say(r, FSL_RECORD_ERROR, "cannot write '%s': %s, %.1f s into the recording; "
			    "the trace keeps the chunks written before, what comes after is only "
			    "counted%s", r->o->out, strerror(-r->werr), (r->werr_ns - t0) / 1e9,
			    *child > 0 ? "; the command runs on to its end" : "");
			if (*child <= 0)
				return 0;
		}
		if (n < 0 && n != -EINTR) {
			say(r, FSL_RECORD_ERROR, "reading the ring buffer: %s", strerror(-n));
			return n;
		}
		if (*child > 0 && waitpid(*child, status, WNOHANG) == *child) {
			*child = -*child;	/* reaped */
			return 0;
		}
		if (got_signal) {
			int sig = got_signal, nth = nsignals;

			got_signal = 0;
			if (*child <= 0)
				return 0;
			if (nth == 1) {
				/* the signal that came, passed on: the command ends as it would */
				kill(*child, sig);
				continue;
			}
			if (nth == 2) {
				say(r, FSL_RECORD_NOTE, "waiting for the command (pid %d) to end; "
				    "a third signal stops the recording and leaves it running",
				    (int)*child);
				continue;
			}
			say(r, FSL_RECORD_NOTE, "stopping the recording; the command (pid %d) is "
			    "left running", (int)*child);
			*child = 0;		/* neither killed nor waited for */
			*status = W_EXITCODE(128 + sig, 0);
			return 0;
		}
		now = mono_ns();
		/*
		 * Crash safety: every second, write what the ordering has
		 * released as complete chunks, so a SIGKILL loses at most the
		 * window plus a second of events.
		 */
		if (now - last_flush >= FLUSH_NS && r->mount && !r->unmounted) {
			struct stat sb;

			/* after an unmount the directory is the parent filesystem's */
			if (stat(r->mount, &sb) || sb.st_dev != r->mount_dev) {
				r->unmounted = 1;
				say(r, FSL_RECORD_WARNING, "%s was unmounted %.1f s into the recording: "
				    "nothing more of that filesystem is recorded", r->mount,
				    (now - t0) / 1e9);
			}
		}
		if (now - last_flush >= FLUSH_NS && !r->werr) {
			last_flush = now;
			loss_interval(r, st, now);
			e = fsl_stream__advance(st, (uint64_t)now, write_event, r);
			if (!e && !r->werr) {
				lost_to_writer(r, st);
				write_symbols(r, st);
				e = r->werr ? r->werr : fsl_writer__flush(r->w);
			}
			else if (r->werr)
				e = r->werr;
			if (e)
				r->werr = e;	/* said at the top of the loop */
		}
		if (t_end && now >= t_end)
			return 0;
	}
}

/* The end: the fs flushed (recorded) and its journal's stats, detach, drain, symbols. */
static void record_end(struct rec *r, struct fsl_stream *st, const struct fsl_target *t,
		       int have_target, int is_ext4)
{
	struct fsl_meta_sink sink = { r->w, sink_kv, sink_text, sink_bitmap };
	struct fsl_stream_stats ss;
	int e;

	if (have_target && is_ext4 && !r->werr) {
		sync_fs(t->mount);
		/*
		 * jbd2 wakes the syncfs before it adds the commit to its
		 * statistics: give its thread the moment it needs.
		 */
		usleep(5000);
		fsl_stream__poll(st, 0, write_event, r);
		if (fsl_meta_jbd2(&sink, t, "end") == 0)
			fsl_writer__kv(r->w, FSL_KV_JBD2_INFO_END_NS, "%" PRId64, mono_ns());
	}
	if (have_target)
		disk_stat_kv(r, t, 1);
	/* the recording window ends where detaching begins */
	fsl_writer__kv(r->w, FSL_KV_END_NS, "%" PRId64, mono_ns());
	fill_sample(r, st);
	e = fsl_stream__stop(st, write_event, r);
	if (e < 0 && !r->werr)
		say(r, FSL_RECORD_ERROR, "draining the ring buffer: %s", strerror(-e));
	loss_interval(r, st, mono_ns());
	r->loss.cpu_secs = cpu_self();
	r->loss.wall_secs = (mono_ns() - r->t0) / 1e9;
	fsl_loss__advice(&r->loss, r->res->loss_advice, sizeof(r->res->loss_advice));
	if (!r->werr)
		fsl_stream__flush(st, write_event, r);
	fsl_stream__stats(st, &ss);
	fsl_writer__kv(r->w, FSL_KV_LATE, "%llu", (unsigned long long)ss.late);
	fsl_writer__kv(r->w, FSL_KV_REORDER_FORCED, "%llu", (unsigned long long)ss.forced);
	/* tasks seen only after they exited: named from a later record, or never */
	fsl_writer__kv(r->w, FSL_KV_PROC_NAMED_LATE, "%llu", (unsigned long long)ss.named_late);
	fsl_writer__kv(r->w, FSL_KV_PROC_UNNAMED, "%llu", (unsigned long long)ss.unnamed);
	if (r->werr)
		return;
	if (have_target && is_ext4) {
		e = fsl_meta_bitmaps(&sink, t->bdev, FSL_BITMAP_END);
		if (e && e != -EOPNOTSUPP)
			say(r, FSL_RECORD_WARNING, "cannot read the end bitmaps: %s", strerror(-e));
		e = fsl_meta_ext4_dirs(&sink, t->bdev, FSL_BITMAP_END);
		if (e && e != -EOPNOTSUPP && e != -E2BIG)
			say(r, FSL_RECORD_WARNING, "cannot read the directories' htrees: %s",
			    strerror(-e));
	}
	if (have_target && r->fs == FSL_COLLECTOR_FS_XFS && !r->unmounted)
		xfs_space(r, t, "end");
	lost_to_writer(r, st);
	e = write_symbols(r, st);
	if (e && !r->werr)
		say(r, FSL_RECORD_WARNING, "cannot symbolize kernel stacks: %s", strerror(-e));
}

/* -m / -d: resolved, with the families the filesystem can have. */
static int resolve(struct rec *r, struct fsl_target *t, int *is_ext4)
{
	const struct fsl_record_opts *o = r->o;
	int e = fsl_target_resolve(o->mount, o->dev, t);

	if (e == -ENOENT && o->dev) {
		say(r, FSL_RECORD_ERROR, "cannot find '%s': %s", o->dev, strerror(-e));
		return e;
	}
	if (e) {
		say(r, FSL_RECORD_ERROR, "cannot use '%s': %s", o->mount ? o->mount : o->dev,
		    strerror(-e));
		return e;
	}
	if (o->mount) {
		struct stat sb;
		char real[4096];

		/* the target is one filesystem: -m names its mount point, nothing else */
		if (stat(o->mount, &sb) || !S_ISDIR(sb.st_mode)) {
			say(r, FSL_RECORD_ERROR, "cannot use '%s': not a directory; -m takes the "
			    "mount point of the filesystem to record", o->mount);
			return -ENOTDIR;
		}
		if (strcmp(t->mount, o->mount) && (!realpath(o->mount, real) ||
						   strcmp(real, t->mount))) {
			say(r, FSL_RECORD_ERROR, "cannot use '%s': not a mount point, it is inside "
			    "the filesystem mounted at '%s' (give -m %s to record that one)",
			    o->mount, t->mount, t->mount);
			return -EINVAL;
		}
		r->mount = t->mount;
		r->mount_dev = sb.st_dev;
	}
	*is_ext4 = fsl_target_is_ext4(t);
	r->fs = *is_ext4 ? FSL_COLLECTOR_FS_EXT4 :
		!strcmp(t->fstype, "xfs") ? FSL_COLLECTOR_FS_XFS : FSL_COLLECTOR_FS_OTHER;
	if (r->fs == FSL_COLLECTOR_FS_OTHER) {
		uint32_t fs_only = (1u << FSL_FAM_JOURNAL) | (1u << FSL_FAM_ALLOC);

		say(r, FSL_RECORD_NOTE, "%s is %s, not ext4 or xfs: the journal and alloc families "
		    "need one of those; still recording block, writeback, dirops, offcpu and proc",
		    t->mount[0] ? t->mount : t->bdev, t->fstype[0] ? t->fstype : "not mounted");
		r->res->families &= ~fs_only;
	}
	/*
	 * No block device (tmpfs, fuse, NFS): no request and no writeback is
	 * the target's, and a filter of 0 would keep every disk's.
	 */
	if (!t->blkdev) {
		uint32_t disk_only = (1u << FSL_FAM_BLOCK) | (1u << FSL_FAM_WRITEBACK);

		say(r, FSL_RECORD_NOTE, "%s (%s) has no block device: the block and writeback "
		    "families cannot apply; recording its data and path operations, waits and "
		    "processes", t->mount[0] ? t->mount : t->bdev, t->fstype[0] ? t->fstype : "?");
		r->res->families &= ~disk_only;
	}
	return 0;
}

int fsl_record__run(const struct fsl_record_opts *o, const struct fsl_record_cb *cb,
		    struct fsl_record_result *res)
{
	struct fsl_collector_opts co = { 0 };
	struct fsl_writer_opts wo = { 0 };
	struct fsl_stream_opts so = { 0 };
	struct fsl_collector *c = NULL;
	struct fsl_stream *st = NULL;
	struct sigaction sa, old_int, old_term, old_hup;
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct fsl_target t;
	struct rec r = { .o = o, .cb = cb, .res = res };
	int e, rc = 0, have_target = 0, is_ext4 = 0, status = 0, gate = -1, sigs = 0, started = 0;
	pid_t child = 0;
	int64_t t0 = 0;

	memset(res, 0, sizeof(*res));
	res->families = o->families ? o->families : FSL_FAM_ALL;
	if (o->mount || o->dev) {
		e = resolve(&r, &t, &is_ext4);
		if (e)
			return e;
		have_target = 1;
		co.dev = t.dev;
		co.blkdev = t.blkdev;
		co.fs = r.fs;
	}
	co.families = res->families;
	co.pid = o->pid;
	co.pids = o->pids;
	co.npids = o->npids;
	co.tids = o->tids;
	co.ntids = o->ntids;
	co.cgroup = o->cgroup;
	co.follow = o->cmd != NULL;
	co.min_wait_ns = o->min_wait_us * 1000;
	co.ring_bytes = o->ring_bytes;
	co.offcpu_all = o->offcpu_all;
	co.force_raw_tp = o->force_raw_tp;
	co.force_classic = o->force_classic;
	co.syscall_tp = o->syscall_tp;
	co.floor = o->floor;
	co.full = o->full;
	co.cpu_freq = o->cpu_freq;
	co.log = log_libbpf;
	co.log_ctx = &r;
	/* map memory is charged to the cgroup on new kernels; harmless elsewhere */
	setrlimit(RLIMIT_MEMLOCK, &rl);

	wo.force = o->force;
	wo.sorted = 1;		/* the stream orders: the writer holds nothing more */
	r.w = fsl_writer__open(o->out, &wo, &e);
	if (!r.w) {
		if (e == -EEXIST)
			say(&r, FSL_RECORD_FATAL, "'%s' exists; use -f to overwrite it", o->out);
		else
			say(&r, FSL_RECORD_ERROR, "cannot create '%s': %s", o->out,
			    fsl_writer_strerror(e));
		return e;
	}
	meta_start(&r, &t, have_target, is_ext4);

	c = fsl_collector__new(&co, &e);
	if (!c) {
		if (e == -ENOENT)
			say(&r, FSL_RECORD_ERROR, "cannot load the probes (no kernel BTF, or none "
			    "of the requested tracepoints exists): %s", strerror(-e));
		else
			say(&r, FSL_RECORD_ERROR, "cannot load the probes%s: %s",
			    o->verbose ? "" : " (-v shows libbpf's messages)", strerror(-e));
		fsl_writer__discard(r.w);
		return e;
	}
	so.window_ns = RECORD_WINDOW_NS;
	so.hold_bytes = RECORD_HOLD_BYTES;
	so.name_tasks = !!(res->families & (1u << FSL_FAM_PROC));
	st = fsl_stream__new_collector(c, &so, &e);
	if (!st) {
		say(&r, FSL_RECORD_ERROR, "cannot start: %s", strerror(-e));
		rc = e;
		goto out;
	}
	if (*fsl_collector__missing(c)) {
		say(&r, FSL_RECORD_WARNING, "tracepoints missing on this kernel (not recorded): %s",
		    fsl_collector__missing(c));
		fsl_writer__kv(r.w, FSL_KV_MISSING_TP, "%s", fsl_collector__missing(c));
	}
	got_signal = 0;
	nsignals = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	sigs = 1;

	if (o->cmd) {
		child = spawn(o->cmd, &gate);
		if (child < 0) {
			rc = -errno;
			say(&r, FSL_RECORD_ERROR, "cannot start '%s': %s", o->cmd[0], strerror(-rc));
			child = 0;
			goto out;
		}
		e = fsl_collector__track(c, child);
		if (e) {
			rc = e;
			say(&r, FSL_RECORD_ERROR, "cannot track the command: %s", strerror(-e));
			goto out;
		}
	}
	/*
	 * The recording starts as the probes are attached: no event (nor the
	 * first slot of the cpu samples, clamped to the attach) is before it.
	 */
	t0 = mono_ns();
	e = fsl_collector__start(c);
	if (e) {
		rc = e;
		say(&r, FSL_RECORD_ERROR, "cannot attach the probes%s: %s",
		    o->verbose ? "" : " (-v shows libbpf's messages)", strerror(-e));
		goto out;
	}
	/* the first durable point: from here a killed recording is at o->out */
	e = fsl_writer__publish(r.w);
	if (e) {
		rc = e;
		say(&r, FSL_RECORD_ERROR, "cannot replace '%s': %s", o->out, strerror(-e));
		goto out;
	}
	started = 1;
	r.t0 = t0;
	if (have_target)
		disk_stat_kv(&r, &t, 0);
	if (have_target && is_ext4)
		jbd2_start_kv(&r, &t);
	meta_recording(&r, c, &co, t0, child);
	say(&r, FSL_RECORD_NOTE, "recording%s%s (probes: %s; fentry %s)%s",
	    have_target ? " " : " every filesystem",
	    have_target ? (t.mount[0] ? t.mount : t.bdev) : "", fsl_collector__mode(c),
	    fsl_collector__fentry(c) ? "available, unused" : "refused",
	    o->cmd ? "" : o->duration_ns ? "" : "; Ctrl-C to stop");
	if (gate >= 0) {
		if (write(gate, "g", 1) != 1) {
			rc = -errno;
			say(&r, FSL_RECORD_ERROR, "cannot start the command: %s", strerror(-rc));
		}
		close(gate);
		gate = -1;
	}

	if (!rc)
		rc = record_loop(&r, st, t0, &child, &status);
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		child = -child;
	}
	/* attached: the trace is completed even when the loop failed */
	record_end(&r, st, &t, have_target, is_ext4);
	if (!r.werr) {
		e = fsl_writer__close(r.w);
		r.w = NULL;
		if (e)
			r.werr = e;
	}
	if (r.werr) {
		if (!r.werr_ns)		/* the final flush or the close failed */
			say(&r, FSL_RECORD_ERROR, "cannot write '%s': %s at the end of the "
			    "recording", o->out, strerror(-r.werr));
		if (r.unwritten)
			say(&r, FSL_RECORD_ERROR, "'%s' is incomplete: the chunks written before "
			    "the failure stay readable; %llu events after it were not written",
			    o->out, (unsigned long long)r.unwritten);
		else
			say(&r, FSL_RECORD_ERROR, "'%s' is incomplete: the chunks written before "
			    "the failure stay readable", o->out);
		/* with a command, its status is record's: it ran to its end */
		if (!o->cmd)
			rc = r.werr;
	} else {
		struct stat sb;

		res->secs = (mono_ns() - t0) / 1e9;
		res->bytes = stat(o->out, &sb) == 0 ? (uint64_t)sb.st_size : 0;
		res->written = 1;
	}
out:
	if (gate >= 0)
		close(gate);	/* the child exits: the recorder never started */
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	fsl_stream__free(st);
	fsl_collector__free(c);
	/* a trace that never started is removed; an old one it was to replace stays */
	if (r.w && started)
		fsl_writer__abort(r.w);
	else if (r.w)
		fsl_writer__discard(r.w);
	if (sigs) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
	}
	if (rc)
		return rc < 0 ? rc : -EIO;
	if (o->cmd) {
		if (WIFEXITED(status))
			res->exit_code = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			res->exit_code = 128 + WTERMSIG(status);
	}
	return 0;
}
