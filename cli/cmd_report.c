// SPDX-License-Identifier: GPL-2.0
/*
 * fslens report: read a trace once, run every analysis, print why the
 * filesystem was slow (text, --json, or --html FILE).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
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
	"usage: fslens report [TRACE] [--json[-full] | --html FILE] [--section LIST] [--from SEC]\n"
	"                     [--to SEC] [--root-pid PID | --all-tasks] [--txns N] [--breaks N]\n"
	"\n"
	"Explain a trace (default fslens.trace): the causes of blocked time ranked, with\n"
	"evidence and what to change, then operations, journal, writeback, block I/O,\n"
	"layout and trace health.\n"
	"\n"
	"  --json            the report as JSON (schema: docs/report-json.md); lists that\n"
	"                    grow with the trace (readdir streams, fragcheck breaks) stop\n"
	"                    at 1000 entries, their totals given\n"
	"  --json-full       the JSON with every entry of those lists\n"
	"  --html FILE       also write a self-contained HTML page with charts\n"
	"  --section LIST    diagnosis,ops,journal,writeback,blockio,layout,health or all\n"
	"  --from SEC, --to SEC   a window, seconds from the start: counts where they\n"
	"                    complete, blocked time split by overlap (docs/report-json.md)\n"
	"  --root-pid PID    the workload is PID and its descendants (default: the\n"
	"                    recorded command, else every task that is not a kernel thread)\n"
	"  --all-tasks       the workload is every task that is not a kernel thread\n"
	"  --txns N          journal transactions listed in text (default 20)\n"
	"  --breaks N        fragcheck lines listed in text (default 20)\n";

static void warn_cb(void *ctx, const char *msg)
{
	fprintf(stderr, "fslens report: %s: %s\n", (const char *)ctx, msg);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "json-full", no_argument, NULL, 'F' },
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
	struct fsl_context *cx = NULL;
	struct fsl_session *sess = NULL;
	struct fsl_reader *r = NULL;
	struct fsl_meta m;

	optind = 0;
	while ((c = fsl_getopt("report", argc, argv, "jH:s:h", opts)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'F':
			json = 1;
			info.json_full = 1;
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
			return EXIT_USAGE;
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
	origin = fsl_trace_origin(r);
	if (fsl_window_check("report", path, r, origin, have_from ? &from : NULL,
			     have_to ? &to : NULL)) {
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
	cx = fsl_context__new(aopts.root_pid, &err);
	aopts.context = cx;
	if (cx) {
		struct fsl_session_opts so = { .stage = fsl_context__stage(cx) };

		sess = fsl_session__new(&so, &err);
	}
	a = sess ? fsl_analysis__new(&aopts, &err) : NULL;
	if (!a || (err = fsl_analysis__attach(a, sess)) < 0) {
		fsl_err(err, "cannot set up the analyses");
		goto out;
	}
	if ((err = fsl_session__begin(sess, &m)) < 0) {
		fsl_err(err, "cannot start the analyses of '%s'", path);
		goto out;
	}
	err = fsl_session__read(sess, r, &from_reader);
	if (!err)
		err = fsl_session__end(sess);
	if (err < 0) {
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
	fsl_session__free(sess);
	fsl_analysis__free(a);
	fsl_context__free(cx);
	fsl_reader__close(r);
	return rc;
}
