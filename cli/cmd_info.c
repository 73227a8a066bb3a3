// SPDX-License-Identifier: GPL-2.0
/* fslens info: what a trace holds (machine, filesystem, duration, counts, sizes). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "fslens/text.h"
#include "fslens/json.h"
#include "fslens/session.h"
#include "fslens/trace.h"

static const char info_usage[] =
	"usage: fslens info [--json] [--check] FILE\n"
	"\n"
	"Show what a trace holds: machine and kernel, the recorded filesystem, duration,\n"
	"events and lost events per family, raw and compressed sizes, bytes per event,\n"
	"chunks and any damage found.\n"
	"\n"
	"  --json     one JSON object instead of text\n"
	"  --check    decode every chunk (verifies all checksums; slower)\n";

/* A value as text to print: the traced machine wrote it, so escapes are escaped. */
static const char *kv_or(struct fsl_reader *r, const char *key, const char *dflt)
{
	static char buf[4][4096];
	static unsigned int slot;
	const char *v = fsl_reader__kv(r, key);

	if (!v || !*v)
		return dflt;
	slot = (slot + 1) % 4;
	fsl_text_escape(buf[slot], sizeof(buf[slot]), v, (size_t)-1);
	return buf[slot];
}

/* Recording start and end: the recorder's KV when present, else the events. */
static void span(struct fsl_reader *r, const struct fsl_trace_stats *s, uint64_t *start,
		 uint64_t *end)
{
	const char *a = fsl_reader__kv(r, FSL_KV_START_NS), *b = fsl_reader__kv(r, FSL_KV_END_NS);

	*start = a ? strtoull(a, NULL, 10) : s->first_ts;
	*end = b ? strtoull(b, NULL, 10) : s->last_ts;
	if (!a && !b && !s->chunks)
		*start = *end = 0;
	if (*end < *start)
		*end = *start;
}

static uint64_t total_events(const struct fsl_trace_stats *s, uint64_t *lost)
{
	uint64_t t = 0;
	unsigned int f;

	*lost = 0;
	for (f = 0; f < FSL_FAM__MAX; f++) {
		t += s->counts.events[f];
		*lost += s->counts.lost[f];
	}
	return t;
}

/* check < 0: no --check run; else its counts go in a "check" object. */
static void print_json(const char *path, struct fsl_reader *r, const struct fsl_trace_stats *s,
		       uint64_t decoded, uint64_t listed, int check)
{
	struct fsl_meta_counts mc;
	struct fsl_json j;
	uint64_t start, end, lost, total = total_events(s, &lost);
	const char *k, *v;
	size_t i;
	unsigned int f;

	span(r, s, &start, &end);
	fsl_reader__meta_counts(r, &mc);
	fsl_json__init(&j, stdout, 1);
	fsl_json__obj_begin(&j);
	fsl_json__kv_str(&j, "file", path);
	fsl_json__kv_u64(&j, "version", s->version);
	fsl_json__kv_bool(&j, "complete", s->complete);
	fsl_json__kv_str(&j, "hostname", fsl_reader__kv(r, FSL_KV_HOSTNAME));
	fsl_json__kv_str(&j, "kernel", fsl_reader__kv(r, FSL_KV_KERNEL));
	fsl_json__kv_str(&j, "fstype", fsl_reader__kv(r, FSL_KV_FSTYPE));
	fsl_json__kv_str(&j, "mount", fsl_reader__kv(r, FSL_KV_MOUNT));
	fsl_json__kv_u64(&j, "start_ns", start);
	fsl_json__kv_u64(&j, "end_ns", end);
	fsl_json__kv_u64(&j, "duration_ns", end - start);
	fsl_json__kv_u64(&j, "first_ts_ns", s->first_ts);
	fsl_json__kv_u64(&j, "last_ts_ns", s->last_ts);
	fsl_json__kv_s64(&j, "realtime_offset_ns", s->realtime_offset_ns);
	fsl_json__kv_u64(&j, "events", total);
	fsl_json__kv_u64(&j, "lost", lost);
	fsl_json__key(&j, "families");
	fsl_json__obj_begin(&j);
	for (f = 0; f < FSL_FAM__MAX; f++) {
		fsl_json__key(&j, fsl_family_name(f));
		fsl_json__obj_begin(&j);
		fsl_json__kv_u64(&j, "events", s->counts.events[f]);
		fsl_json__kv_u64(&j, "lost", s->counts.lost[f]);
		fsl_json__obj_end(&j);
	}
	fsl_json__obj_end(&j);
	fsl_json__kv_u64(&j, "late_events", s->late_events);
	fsl_json__kv_u64(&j, "file_bytes", s->file_bytes);
	fsl_json__kv_u64(&j, "raw_bytes", s->raw_bytes);
	fsl_json__kv_u64(&j, "compressed_bytes", s->compressed_bytes);
	if (total)
		fsl_json__kv_double(&j, "bytes_per_event", (double)s->file_bytes / total);
	else
		fsl_json__kv_null(&j, "bytes_per_event");
	fsl_json__kv_u64(&j, "chunks", s->chunks);
	fsl_json__kv_u64(&j, "bad_chunks", s->bad_chunks);
	fsl_json__key(&j, "metadata");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "kv", mc.kv);
	fsl_json__kv_u64(&j, "texts", mc.texts);
	fsl_json__kv_u64(&j, "bitmaps", mc.bitmaps);
	fsl_json__kv_u64(&j, "stacks", mc.stacks);
	fsl_json__kv_u64(&j, "symbols", mc.syms);
	fsl_json__kv_u64(&j, "schema_types", mc.schema_types);
	fsl_json__obj_end(&j);
	fsl_json__key(&j, "kv");
	fsl_json__obj_begin(&j);
	for (i = 0; fsl_reader__kv_at(r, i, &k, &v); i++)
		fsl_json__kv_str(&j, k, v);
	fsl_json__obj_end(&j);
	if (check >= 0) {
		fsl_json__key(&j, "check");
		fsl_json__obj_begin(&j);
		fsl_json__kv_bool(&j, "ok", !check);
		fsl_json__kv_u64(&j, "decoded_events", decoded);
		fsl_json__kv_u64(&j, "listed_events", listed);
		fsl_json__obj_end(&j);
	}
	fsl_json__key(&j, "warnings");
	fsl_json__arr_begin(&j);
	for (i = 0; i < fsl_reader__nwarnings(r); i++)
		fsl_json__str(&j, fsl_reader__warning(r, i));
	fsl_json__arr_end(&j);
	fsl_json__obj_end(&j);
	fsl_json__newline(&j);
}

static void print_text(const char *path, struct fsl_reader *r, const struct fsl_trace_stats *s)
{
	struct fsl_meta_counts mc;
	uint64_t start, end, lost, total = total_events(s, &lost);
	char b1[32], b2[32], b3[32];
	const char *v, *name;
	size_t i, len;
	unsigned int f;

	span(r, s, &start, &end);
	fsl_reader__meta_counts(r, &mc);
	fsl_fmt_bytes(b1, sizeof(b1), s->file_bytes);
	printf("file:        %s (%s, format version %u, %s)\n", path, b1, s->version,
	       s->complete ? "complete" : "INCOMPLETE: recording did not finish");
	printf("machine:     %s, kernel %s", kv_or(r, FSL_KV_HOSTNAME, "?"),
	       kv_or(r, FSL_KV_KERNEL, "?"));
	if ((v = kv_or(r, FSL_KV_NCPUS, NULL)))
		printf(", %s CPUs", v);
	if ((v = kv_or(r, FSL_KV_HZ, NULL)))
		printf(", HZ=%s", v);
	printf("\n");
	printf("filesystem:  %s", kv_or(r, FSL_KV_FSTYPE, "?"));
	if ((v = fsl_reader__kv(r, FSL_KV_DEV))) {
		unsigned long dev = strtoul(v, NULL, 10);

		printf(" on %u:%u", FSL_MAJOR(dev), FSL_MINOR(dev));
	}
	if ((v = kv_or(r, FSL_KV_MOUNT, NULL)))
		printf(" mounted at %s", v);
	printf("\n");
	if ((v = kv_or(r, FSL_KV_COMMAND, NULL)))
		printf("command:     %s\n", v);
	if ((v = kv_or(r, FSL_KV_PROBE_MODE, NULL)))
		printf("probes:      %s%s%s\n", v, fsl_reader__kv(r, FSL_KV_MISSING_TP) ?
		       ", missing: " : "", kv_or(r, FSL_KV_MISSING_TP, ""));
	if (s->realtime_offset_ns && start) {
		time_t t = (time_t)(((int64_t)start + s->realtime_offset_ns) / 1000000000);
		struct tm tm;
		char tb[64];

		localtime_r(&t, &tm);
		strftime(tb, sizeof(tb), "%Y-%m-%d %H:%M:%S %z", &tm);
		printf("started:     %s\n", tb);
	}
	printf("duration:    %.6f s\n", (end - start) / 1e9);
	printf("events:      %" PRIu64 ", lost %" PRIu64 "%s\n", total, lost,
	       s->late_events ? "" : "");
	printf("  %-10s %14s %12s\n", "family", "events", "lost");
	for (f = 0; f < FSL_FAM__MAX; f++) {
		if (!s->counts.events[f] && !s->counts.lost[f])
			continue;
		printf("  %-10s %14" PRIu64 " %12" PRIu64 "\n", fsl_family_name(f),
		       s->counts.events[f], s->counts.lost[f]);
	}
	if (s->late_events)
		printf("late:        %" PRIu64 " events arrived after the reorder window and are "
		       "stored slightly out of time order\n", s->late_events);
	fsl_fmt_bytes(b1, sizeof(b1), s->raw_bytes);
	fsl_fmt_bytes(b2, sizeof(b2), s->compressed_bytes);
	fsl_fmt_bytes(b3, sizeof(b3), s->file_bytes);
	printf("size:        raw %s, compressed %s", b1, b2);
	if (s->compressed_bytes)
		printf(" (%.1fx)", (double)s->raw_bytes / s->compressed_bytes);
	printf(", file %s", b3);
	if (total)
		printf(", %.2f bytes/event", (double)s->file_bytes / total);
	printf("\n");
	printf("chunks:      %" PRIu64 "%s\n", s->chunks, s->bad_chunks ? "" : "");
	if (s->bad_chunks)
		printf("bad chunks:  %" PRIu64 " (skipped)\n", s->bad_chunks);
	printf("metadata:    %zu keys, %zu stacks, %zu symbols, %zu bitmaps, %zu texts\n",
	       mc.kv, mc.stacks, mc.syms, mc.bitmaps, mc.texts);
	for (i = 0; fsl_reader__text_at(r, i, &name, NULL, &len); i++) {
		printf("  text ");
		fsl_text_fput(stdout, name, (size_t)-1);
		printf(" (%zu bytes)\n", len);
	}
	for (i = 0; i < fsl_reader__nwarnings(r); i++)
		printf("warning:     %s\n", fsl_reader__warning(r, i));
}

/* --check: every decoded event counted, by family where it has one. */
struct decoded {
	uint64_t fam[FSL_FAM__MAX];
	uint64_t all;
};

static int count_event(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct decoded *n = c->priv;
	const struct fsl_event_desc *d = fsl_schema_builtin(ev->type);

	if (d && d->family < FSL_FAM__MAX)
		n->fam[d->family]++;
	n->all++;
	return 0;
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct fsl_trace_stats *s;
	struct fsl_trace_stats cs;
	int damaged;
	struct fsl_reader *r;
	const char *path;
	int json = 0, check = 0, c, err = 0;

	optind = 0;
	while ((c = fsl_getopt("info", argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'c': check = 1; break;
		case 'h': fputs(info_usage, stdout); return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return fsl_usage_error("info", info_usage, optind >= argc ?
				       "a trace file is needed" : "one trace file only");
	path = argv[optind];
	r = fsl_reader__open(path, NULL, &err);
	if (!r)
		return fsl_err_open(path, err);
	s = fsl_reader__stats(r);
	if (check) {
		/* what decodes, not what the header or the index promise */
		struct decoded n = { { 0 }, 0 };
		struct fsl_consumer counter = { .name = "check", .priv = &n, .any = count_event };
		struct fsl_consumer *cons[1] = { &counter };
		uint64_t listed = 0, decoded;
		unsigned int f;

		err = fsl_session_run(r, cons, 1);
		if (err < 0) {
			fsl_reader__close(r);
			return fsl_err(err, "cannot read '%s'", path);
		}
		cs = *s;
		for (f = 0; f < FSL_FAM__MAX; f++) {
			listed += s->counts.events[f];
			cs.counts.events[f] = n.fam[f];
		}
		decoded = n.all;
		cs.bad_chunks = fsl_reader__stats(r)->bad_chunks;
		damaged = decoded != listed || cs.bad_chunks || fsl_reader__nwarnings(r);
		s = &cs;
		if (json) {
			print_json(path, r, s, decoded, listed, damaged);
		} else {
			print_text(path, r, s);
			if (damaged)
				printf("check:       DAMAGED: %" PRIu64 " of %" PRIu64 " events decode, "
				       "%" PRIu64 " damaged chunks (see the warnings)\n",
				       decoded, listed, cs.bad_chunks);
			else
				printf("check:       ok, all %" PRIu64 " events of %" PRIu64
				       " chunks decode\n", decoded, s->chunks);
		}
		fsl_reader__close(r);
		return damaged ? 1 : 0;
	}
	if (json)
		print_json(path, r, s, 0, 0, -1);
	else
		print_text(path, r, s);
	fsl_reader__close(r);
	return 0;
}
