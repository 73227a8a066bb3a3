// SPDX-License-Identifier: GPL-2.0
/*
 * Flight recorder: the collector's full event stream kept in a bounded
 * byte ring (records evicted oldest first, by age past the window or by
 * the byte bound), written on demand as a normal trace. Uses only the
 * collector's public API, so it builds (and fails cleanly) without BPF.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fslens/collector.h"
#include "fslens/flight.h"
#include "fslens/ksyms.h"
#include "fslens/meta.h"
#include "fslens/ordered.h"
#include "fslens/schema.h"
#include "fslens/session.h"
#include "fslens/trace.h"

#define STACK_DEPTH	64

struct fsl_flight {
	struct fsl_flight_opts o;
	struct fsl_target t;
	int have_target;
	struct fsl_collector *c;
	uint8_t *ring;		/* records: u32 length, then the event, 8-aligned */
	uint64_t cap, head, tail;	/* byte offsets, head - tail = bytes held */
	uint64_t newest_ts;
	uint64_t dropped[FSL_FAM__MAX];	/* evicted by the byte bound inside the window */
	/* open commits: start time by tid, for the commit trigger */
	uint32_t commit_tid;
	uint64_t commit_start;
	/* tasks seen acting on the target (journal/alloc records, filtered by
	 * device in the kernel): tid -> last time, for the wait trigger */
	uint32_t seen_tid[4096];
	uint64_t seen_ts[4096];
	unsigned int ncaptures;
	char *trig;
	size_t trigsz;
};

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

struct fsl_flight *fsl_flight__new(const struct fsl_flight_opts *o, int *err)
{
	struct fsl_collector_opts co = { 0 };
	struct fsl_flight *f = calloc(1, sizeof(*f));

	if (!f) {
		*err = -ENOMEM;
		return NULL;
	}
	f->o = *o;
	if (o->target) {
		f->t = *o->target;
		f->have_target = 1;
		co.dev = f->t.dev;
		co.blkdev = f->t.blkdev;
	}
	f->cap = o->max_bytes ? o->max_bytes : 16ull << 20;
	f->ring = malloc(f->cap);
	if (!f->ring) {
		free(f);
		*err = -ENOMEM;
		return NULL;
	}
	co.families = FSL_FAM_ALL;
	co.min_wait_ns = FSL_COLLECTOR_MIN_WAIT_DEFAULT;
	/* mapped twice by libbpf (a wrap-free view): 4 MiB costs 8 MiB of RSS */
	co.ring_bytes = o->ring_bytes ? o->ring_bytes : 4ull << 20;
	co.log = o->log;
	co.log_ctx = o->log_ctx;
	f->c = fsl_collector__new(&co, err);
	if (!f->c) {
		free(f->ring);
		free(f);
		return NULL;
	}
	return f;
}

int fsl_flight__start(struct fsl_flight *f)
{
	return fsl_collector__start(f->c);
}

static uint32_t rec_len(const struct fsl_flight *f, uint64_t off)
{
	uint32_t n;

	memcpy(&n, f->ring + off % f->cap, 4);
	return n;
}

static const struct fsl_hdr *rec_ev(const struct fsl_flight *f, uint64_t off)
{
	return (const struct fsl_hdr *)(f->ring + (off + 8) % f->cap);
}

static void evict_one(struct fsl_flight *f, int counted)
{
	uint32_t n = rec_len(f, f->tail);

	if (counted) {
		const struct fsl_event_desc *d = fsl_schema_builtin(rec_ev(f, f->tail)->type);

		if (d && d->family < FSL_FAM__MAX)
			f->dropped[d->family]++;
	}
	if (n == 0)	/* a wrap marker: the rest of the buffer is unused */
		f->tail += f->cap - f->tail % f->cap;
	else
		f->tail += n;
}

/*
 * Records never wrap: one that does not fit before the end starts at the
 * buffer's beginning, after a zero-length marker.
 */
static int ring_put(struct fsl_flight *f, const struct fsl_hdr *ev)
{
	uint64_t need = (8 + (uint64_t)ev->size + 7) & ~7ull, room;
	uint64_t window = f->o.window_ns;

	if (need > f->cap / 4)
		return 0;
	if (ev->ts > f->newest_ts)
		f->newest_ts = ev->ts;
	/* age out */
	while (f->head != f->tail && rec_len(f, f->tail) &&
	       rec_ev(f, f->tail)->ts + window < f->newest_ts)
		evict_one(f, 0);
	for (;;) {
		room = f->cap - f->head % f->cap;
		if (room < need) {
			/* wrap: the end of the buffer becomes a marker */
			while (f->head - f->tail + room > f->cap)
				evict_one(f, 1);
			if (room >= 4) {
				uint32_t z = 0;

				memcpy(f->ring + f->head % f->cap, &z, 4);
			}
			f->head += room;
			continue;
		}
		while (f->head - f->tail + need > f->cap)
			evict_one(f, 1);
		break;
	}
	{
		uint32_t n = (uint32_t)need;
		uint8_t *p = f->ring + f->head % f->cap;

		memcpy(p, &n, 4);
		memcpy(p + 8, ev, ev->size);
	}
	f->head += need;
	return 0;
}

#define SEEN_NS	2000000000ull	/* a task acted on the target this recently */

static void seen_put(struct fsl_flight *f, uint32_t tid, uint64_t ts)
{
	unsigned int slot = (tid * 2654435761u) >> 20;

	f->seen_tid[slot] = tid;
	f->seen_ts[slot] = ts;
}

/* Did tid act on the target within SEEN_NS of [from, to]? */
static int seen_near(const struct fsl_flight *f, uint32_t tid, uint64_t from, uint64_t to)
{
	unsigned int slot = (tid * 2654435761u) >> 20;

	return f->seen_tid[slot] == tid && f->seen_ts[slot] + SEEN_NS >= from &&
	       f->seen_ts[slot] <= to + SEEN_NS;
}

/*
 * Is tid a kernel thread (PF_KTHREAD in /proc/TID/stat's flags)? Asked only
 * of a wait over the trigger's limit, so rarely. A thread gone by then is
 * taken for a task.
 */
static int is_kthread(uint32_t tid)
{
	char path[64], buf[1024], *p;
	unsigned long flags = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* after "(comm)": state ppid pgrp session tty_nr tpgid flags */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return 0;
	return !!(flags & 0x00200000);
}

static int on_event(void *ctx, const struct fsl_hdr *ev)
{
	struct fsl_flight *f = ctx;
	const struct fsl_event_desc *d = fsl_schema_builtin(ev->type);

	if (f->have_target && d && (d->family == FSL_FAM_JOURNAL || d->family == FSL_FAM_ALLOC))
		seen_put(f, ev->tid, ev->ts);
	if (ev->type == FSL_EV_OFFCPU && f->o.wait_over_ns && !f->trig[0]) {
		const struct fsl_ev_offcpu *o = (const void *)ev;

		/*
		 * Only a wait of a task working on the target: one elsewhere on
		 * the machine is not this filesystem's stall, and a kernel
		 * thread's (the journal's commit I/O, a flusher) is evidence
		 * beside the workload's waits, not a stall of its own.
		 */
		if (o->dur_ns > f->o.wait_over_ns &&
		    (!f->have_target || seen_near(f, ev->tid, ev->ts, ev->ts + o->dur_ns)) &&
		    !is_kthread(ev->tid))
			snprintf(f->trig, f->trigsz, "wait of %.0f ms (tid %u)", o->dur_ns / 1e6,
				 ev->tid);
	} else if (ev->type == FSL_EV_JBD2_START_COMMIT) {
		const struct fsl_ev_jbd2_commit *j = (const void *)ev;

		f->commit_tid = j->transaction;
		f->commit_start = ev->ts;
	} else if (ev->type == FSL_EV_JBD2_END_COMMIT && f->o.commit_over_ns && !f->trig[0]) {
		const struct fsl_ev_jbd2_commit *j = (const void *)ev;

		if (j->transaction == f->commit_tid && f->commit_start &&
		    ev->ts - f->commit_start > f->o.commit_over_ns)
			snprintf(f->trig, f->trigsz, "commit %u took %.0f ms", j->transaction,
				 (ev->ts - f->commit_start) / 1e6);
	}
	return ring_put(f, ev);
}

int fsl_flight__poll(struct fsl_flight *f, int timeout_ms, char *trig, size_t trigsz)
{
	char none[2];

	f->trig = trig ? trig : none;
	f->trigsz = trig ? trigsz : sizeof(none);
	f->trig[0] = 0;
	return fsl_collector__poll(f->c, timeout_ms, on_event, f);
}

uint64_t fsl_flight__bytes(const struct fsl_flight *f)
{
	return f->head - f->tail;
}

int fsl_flight__lost(struct fsl_flight *f, uint64_t lost[])
{
	unsigned int i;
	int e = fsl_collector__lost(f->c, lost);

	for (i = 0; i < FSL_FAM__MAX; i++)
		lost[i] += f->dropped[i];
	return e;
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

#define MAX_STACK_IDS	8192

/* The stack ids of the held waits, kicks and samples, each once (at most MAX_STACK_IDS). */
static void note_stack(const struct fsl_hdr *ev, int32_t *ids, size_t *nids)
{
	int32_t id;
	size_t j;

	id = fsl_ev_stack_id(ev);
	if (id < 0)
		return;
	for (j = 0; j < *nids && ids[j] != id; j++)
		;
	if (j == *nids && id >= 0 && *nids < MAX_STACK_IDS)
		ids[(*nids)++] = id;
}

static int write_stacks(struct fsl_flight *f, struct fsl_writer *w, const int32_t *ids,
			size_t nids)
{
	struct fsl_ksyms *k;
	size_t i;
	int e = 0;

	k = fsl_ksyms__load(NULL, &e);
	if (!k)
		return e;
	for (i = 0; i < nids && !e; i++) {
		uint64_t ips[STACK_DEPTH];
		char *frames[STACK_DEPTH], name[512];
		struct fsl_stack st;
		int m, q, nf = 0;

		m = fsl_collector__stack(f->c, ids[i], ips, STACK_DEPTH);
		for (q = 0; q < m; q++) {
			const char *s = fsl_ksyms__name(k, ips[q], name, sizeof(name));

			if (!s) {
				snprintf(name, sizeof(name), "0x%" PRIx64, ips[q]);
				s = name;
			}
			if (!nf && (!strncmp(s, "bpf_", 4) || !strncmp(s, "__bpf_", 6)))
				continue;
			frames[nf] = strdup(s);
			if (frames[nf])
				nf++;
		}
		if (nf) {
			st.id = ids[i];
			st.nframes = nf;
			st.frames = frames;
			e = fsl_writer__stack(w, &st);
		}
		while (nf)
			free(frames[--nf]);
	}
	fsl_ksyms__free(k);
	return e;
}

static int write_event(void *ctx, const struct fsl_hdr *ev)
{
	return fsl_writer__event(ctx, ev);
}

int fsl_flight__capture(struct fsl_flight *f, const char *reason, char *path, size_t pathsz)
{
	/* the ring is in arrival order: the ordering service sorts it, the writer stores it */
	struct fsl_writer_opts wo = { .sorted = 1 };
	struct fsl_ordered *ord;
	struct fsl_meta_sink sink;
	struct fsl_writer *w;
	uint64_t off, lost[FSL_FAM__MAX] = { 0 }, first = 0, last = 0;
	int32_t *ids;
	size_t nids = 0, i;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int e = 0;

	/* take what the kernel ring still holds first */
	fsl_collector__poll(f->c, 0, on_event, f);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(path, pathsz, "%s/fslens-%s-%u%s%s.trace", f->o.dir, stamp, ++f->ncaptures,
		 f->o.tag ? "-" : "", f->o.tag ? f->o.tag : "");

	/*
	 * Every record held, none released before the end: a wait is stamped
	 * with its start and arrives when it ends, however long that was, so
	 * no window is long enough (the copies cost about the ring's bytes,
	 * for the length of a capture).
	 */
	ord = fsl_ordered__new(0);
	ids = malloc(MAX_STACK_IDS * sizeof(*ids));
	if (!ord || !ids) {
		fsl_ordered__free(ord);
		free(ids);
		return -ENOMEM;
	}
	for (off = f->tail; off != f->head && !e;) {
		uint32_t len = rec_len(f, off);
		const struct fsl_hdr *ev;

		if (!len) {
			off += f->cap - off % f->cap;
			continue;
		}
		ev = rec_ev(f, off);
		if (!first || ev->ts < first)
			first = ev->ts;
		if (ev->ts > last)
			last = ev->ts;
		note_stack(ev, ids, &nids);
		e = fsl_ordered__push(ord, ev, NULL, NULL);
		off += len;
	}
	w = e ? NULL : fsl_writer__open(path, &wo, &e);
	if (!w) {
		fsl_ordered__free(ord);
		free(ids);
		return e;
	}
	sink = (struct fsl_meta_sink){ w, sink_kv, sink_text, sink_bitmap };
	fsl_meta_host(&sink);
	if (f->have_target) {
		fsl_meta_target(&sink, &f->t);
		if (!strcmp(f->t.fstype, "ext4"))
			fsl_meta_ext4(&sink, &f->t);
	}
	fsl_writer__kv(w, FSL_KV_START_NS, "%" PRIu64, first ? first : (uint64_t)mono_ns());
	fsl_writer__kv(w, FSL_KV_PROBE_MODE, "tracepoint");
	fsl_writer__kv(w, FSL_KV_ATTACH, "%s (%s)", fsl_collector__mode(f->c),
		       fsl_collector__attach_counts(f->c));
	fsl_writer__kv(w, FSL_KV_MIN_WAIT_US, "%llu",
		       (unsigned long long)(FSL_COLLECTOR_MIN_WAIT_DEFAULT / 1000));
	fsl_writer__kv(w, FSL_KV_OFFCPU_STATES, "uninterruptible");
	{
		char fams[256] = "";

		for (i = 0; i < FSL_FAM__MAX; i++)
			if (fsl_collector__families(f->c) & (1u << i))
				snprintf(fams + strlen(fams), sizeof(fams) - strlen(fams), "%s%s",
					 fams[0] ? "," : "", fsl_family_name(i));
		fsl_writer__kv(w, FSL_KV_FAMILIES, "%s", fams);
	}
	fsl_writer__kv(w, FSL_KV_TIER, "default");
	fsl_writer__kv(w, "monitor.trigger", "%s", reason);
	e = fsl_ordered__flush(ord, write_event, w);
	fsl_ordered__free(ord);
	fsl_writer__kv(w, FSL_KV_END_NS, "%" PRIu64, last ? last : (uint64_t)mono_ns());
	if (!e)
		e = write_stacks(f, w, ids, nids);
	free(ids);
	if (!e && fsl_flight__lost(f, lost) == 0)
		for (i = 0; i < FSL_FAM__MAX; i++)
			if (lost[i])
				fsl_writer__lost(w, i, lost[i]);
	if (e) {
		fsl_writer__discard(w);
		return e;
	}
	return fsl_writer__close(w);
}

void fsl_flight__free(struct fsl_flight *f)
{
	if (!f)
		return;
	fsl_collector__free(f->c);
	free(f->ring);
	free(f);
}
