// SPDX-License-Identifier: GPL-2.0
/*
 * fslens report: read a trace once, run every analysis, print why the
 * filesystem was slow (text, --json, or --html FILE).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fslens/text.h"
#include "fslens/analysis.h"
#include "fslens/report.h"
#include "fslens/session.h"
#include "fslens/trace.h"

static const char usage_text[] =
	"usage: fslens report [TRACE] [--json | --html FILE] [--section LIST] [--from SEC]\n"
	"                     [--to SEC] [--root-pid PID | --all-tasks] [--txns N] [--breaks N]\n"
	"\n"
	"Explain a trace (default fslens.trace): the causes of blocked time ranked, with\n"
	"evidence and what to change, then operations, journal, writeback, block I/O,\n"
	"layout and trace health.\n"
	"\n"
	"  --json            the report as JSON (schema: docs/report-json.md)\n"
	"  --html FILE       also write a self-contained HTML page with charts\n"
	"  --section LIST    diagnosis,ops,journal,writeback,blockio,layout,health or all\n"
	"  --from SEC, --to SEC   only what completes in this window, seconds from the start\n"
	"  --root-pid PID    the workload is PID and its descendants (default: the\n"
	"                    recorded command, else every task that is not a kernel thread)\n"
	"  --all-tasks       the workload is every task that is not a kernel thread\n"
	"  --txns N          journal transactions listed in text (default 20)\n"
	"  --breaks N        fragcheck lines listed in text (default 20)\n";

/*
 * Local twins of fsl_err/fsl_usage_error (cli/main.c): the unit-test binary
 * links cli/ without main.c, so commands cannot call those yet.
 */

/*
 * Reading (zstd, decoding) and analysing cost about the same per event, so
 * they run on two threads: the reader copies events into batches, the
 * analyses take them in order. One producer, one consumer, a small ring.
 */
#define NBATCH		4
#define BATCH_BYTES	(1u << 20)

struct batch {
	size_t len;
	char *data;
};

struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch b[NBATCH];
	unsigned int head, tail, count;	/* filled batches: tail..head */
	int done, err;			/* reader finished (err: its result) */
	int stop;			/* consumer gave up */
	struct fsl_reader *r;
};

static void *reader_main(void *arg)
{
	struct pipe *p = arg;
	const struct fsl_hdr *ev;
	struct batch *cur = NULL;
	int rc;

	for (;;) {
		if (!cur) {
			pthread_mutex_lock(&p->mu);
			while (p->count == NBATCH && !p->stop)
				pthread_cond_wait(&p->cv, &p->mu);
			if (p->stop) {
				pthread_mutex_unlock(&p->mu);
				return NULL;
			}
			cur = &p->b[p->head];
			cur->len = 0;
			pthread_mutex_unlock(&p->mu);
		}
		rc = fsl_reader__next(p->r, &ev);
		if (rc > 0 && cur->len + ev->size <= BATCH_BYTES) {
			memcpy(cur->data + cur->len, ev, ev->size);
			cur->len += ev->size;
			continue;
		}
		/* full, or the end: publish this batch */
		pthread_mutex_lock(&p->mu);
		p->head = (p->head + 1) % NBATCH;
		p->count++;
		if (rc <= 0) {
			p->done = 1;
			p->err = rc;
		}
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		cur = NULL;
		if (rc <= 0)
			return NULL;
		/* the event that did not fit starts the next batch */
		pthread_mutex_lock(&p->mu);
		while (p->count == NBATCH && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		cur = &p->b[p->head];
		pthread_mutex_unlock(&p->mu);
		memcpy(cur->data, ev, ev->size);
		cur->len = ev->size;
	}
}

/* Feed every event of r to a; 0 or -errno (reader or analysis). */
static int feed_all(struct fsl_reader *r, struct fsl_analysis *a, int *from_reader)
{
	struct pipe p = { .r = r };
	pthread_t th;
	unsigned int i;
	int err = 0;

	*from_reader = 0;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (i = 0; i < NBATCH; i++)
		if (!(p.b[i].data = malloc(BATCH_BYTES)))
			err = -ENOMEM;
	if (!err && getenv("FSLENS_REPORT_NO_THREAD"))
		err = -EAGAIN;	/* for comparison (bench/report.sh) */
	if (!err && pthread_create(&th, NULL, reader_main, &p))
		err = -EAGAIN;
	if (err) {
		/* no thread: read and feed in turn */
		const struct fsl_hdr *ev;

		err = 0;
		while ((err = fsl_reader__next(r, &ev)) > 0)
			if ((err = fsl_analysis__feed(a, ev)) < 0)
				break;
		*from_reader = err < 0 && !fsl_analysis__now(a);
		goto out;
	}
	for (;;) {
		struct batch *b;
		size_t off;
		int last;

		pthread_mutex_lock(&p.mu);
		while (!p.count)
			pthread_cond_wait(&p.cv, &p.mu);
		b = &p.b[p.tail];
		last = p.done && p.count == 1;
		pthread_mutex_unlock(&p.mu);
		for (off = 0; off < b->len && !err;) {
			const struct fsl_hdr *ev = (const void *)(b->data + off);

			err = fsl_analysis__feed(a, ev);
			off += ev->size;
		}
		pthread_mutex_lock(&p.mu);
		p.tail = (p.tail + 1) % NBATCH;
		p.count--;
		if (err)
			p.stop = 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		if (err || last)
			break;
	}
	pthread_join(th, NULL);
	if (!err && p.err < 0) {
		err = p.err;
		*from_reader = 1;
	}
out:
	for (i = 0; i < NBATCH; i++)
		free(p.b[i].data);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return err < 0 ? err : 0;
}

static void warn_cb(void *ctx, const char *msg)
{
	fprintf(stderr, "fslens report: %s: %s\n", (const char *)ctx, msg);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "section", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "root-pid", required_argument, NULL, 'p' },
		{ "all-tasks", no_argument, NULL, 'a' },
		{ "txns", required_argument, NULL, 'n' },
		{ "breaks", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_analysis_opts aopts = { .root_pid = -1 };
	struct fsl_report_info info = { 0 };
	struct fsl_reader_opts ropts = { 0 };
	const char *path = "fslens.trace", *html = NULL, *bad = NULL;
	uint64_t from = 0, to = 0, origin;
	int json = 0, have_from = 0, have_to = 0, c, err = 0, rc = 1, from_reader = 0;
	struct fsl_analysis *a = NULL;
	struct fsl_reader *r = NULL;
	struct fsl_meta m;
	const char *v;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jH:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'H':
			html = optarg;
			break;
		case 's':
			if (fsl_section_parse(optarg, &info.sections, &bad))
				return fsl_usage_error("report", usage_text, "unknown section '%s'", bad);
			break;
		case 'f':
			if (fsl_parse_seconds(optarg, &from))
				return fsl_usage_error("report", usage_text, "bad --from '%s'", optarg);
			have_from = 1;
			break;
		case 't':
			if (fsl_parse_seconds(optarg, &to))
				return fsl_usage_error("report", usage_text, "bad --to '%s'", optarg);
			have_to = 1;
			break;
		case 'p':
			aopts.root_pid = strtoll(optarg, NULL, 10);
			if (aopts.root_pid <= 0)
				return fsl_usage_error("report", usage_text, "bad --root-pid '%s'", optarg);
			break;
		case 'a':
			aopts.root_pid = 0;
			break;
		case 'n':
			info.max_txns = strtoul(optarg, NULL, 10);
			break;
		case 'b':
			info.max_breaks = strtoul(optarg, NULL, 10);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return fsl_bad_option("report", usage_text, "jH:s:h", opts, argv);
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc)
		return fsl_usage_error("report", usage_text, "one trace at a time ('%s')", argv[optind]);
	if (have_from && have_to && to <= from)
		return fsl_usage_error("report", usage_text, "--to must be after --from");

	ropts.warn = warn_cb;
	ropts.warn_ctx = (void *)path;
	r = fsl_reader__open(path, &ropts, &err);
	if (!r)
		return fsl_err_open(path, err);
	fsl_meta_from_reader(&m, r);
	v = fsl_reader__kv(r, FSL_KV_START_NS);
	origin = v ? strtoull(v, NULL, 10) : fsl_reader__stats(r)->first_ts;
	if (have_from && fsl_window_check("report", path, r, origin, from)) {
		fsl_reader__close(r);
		return 1;
	}
	if (have_from)
		aopts.t0 = origin + from;
	if (have_to) {
		aopts.t1 = origin + to;
		if (!have_from)
			aopts.t0 = origin;
	}
	aopts.sections = info.sections;
	info.trace_path = path;
	a = fsl_analysis__new(&aopts, &err);
	if (!a) {
		fsl_err(err, "cannot set up the analyses");
		goto out;
	}
	if ((err = fsl_analysis__begin(a, &m)) < 0) {
		fsl_err(err, "cannot start the analyses of '%s'", path);
		goto out;
	}
	if ((err = feed_all(r, a, &from_reader)) < 0) {
		if (from_reader)
			fsl_err(err, "cannot read '%s'", path);
		else
			fsl_err(err, "analysing '%s'", path);
		goto out;
	}
	err = json ? fsl_report__json(stdout, a, &info) : fsl_report__text(stdout, a, &info);
	if (err < 0) {
		fsl_err(err, "cannot write the report");
		goto out;
	}
	if (html) {
		FILE *f = fopen(html, "w");

		if (!f) {
			fsl_err(-errno, "cannot create '%s'", html);
			goto out;
		}
		err = fsl_report__html(f, a, &info);
		if (fclose(f) && !err)
			err = -errno;
		if (err < 0) {
			fsl_err(err, "cannot write '%s'", html);
			goto out;
		}
	}
	rc = 0;
out:
	fsl_analysis__free(a);
	fsl_reader__close(r);
	return rc;
}
