// SPDX-License-Identifier: GPL-2.0
/*
 * fslens export TRACE --format blktrace|perfetto|folded|csv [-o OUT]
 * Writes a trace in the formats the usual tools read; see docs/export.md.
 * The options and their checks; the export itself is fsl_export_trace
 * (analyzer/export/export_trace.c).
 */
#include <getopt.h>
#include <string.h>
#include "cli.h"
#include "fslens/text.h"
#include "fslens/export.h"
#include "fslens/session.h"
#include "fslens/trace.h"

static const char usage[] =
	"usage: fslens export TRACE -F FORMAT [-o OUT] [options]\n"
	"\n"
	"formats:\n"
	"  blktrace   per-CPU files OUT/<dev>.blktrace.<cpu> (blktrace v7) for blkparse,\n"
	"             btt, iowatcher; OUT is a directory (default .), created if missing\n"
	"  perfetto   Chrome/Perfetto trace JSON (ui.perfetto.dev) to OUT (default stdout);\n"
	"             OUT.gz (p.json.gz) is written gzipped, as Perfetto's UI opens it\n"
	"  folded     off-CPU stacks 'comm;frame;...;frame us' for flamegraph.pl\n"
	"  flamegraph the same stacks as a flame graph SVG (self-contained; click to zoom)\n"
	"  csv        one table with a header row (--table)\n"
	"\n"
	"options:\n"
	"  -F, --format FORMAT   one of the formats above\n"
	"  -o, --output OUT      file, or directory for blktrace and --per-class\n"
	"      --table TABLE     csv: ops | io | txn | waits | alloc\n"
	"      --name NAME       blktrace: file base name (one device; default: the disk's\n"
	"                        name the trace recorded, else MAJ:MIN)\n"
	"      --dev DEV         blktrace: only this device (MAJ:MIN or its name, sdc)\n"
	"      --big-endian      blktrace: write big-endian records\n"
	"      --per-class       folded, flamegraph: one file per wait class,\n"
	"                        OUT/<class>.folded or OUT/<class>.svg\n"
	"                        (OUT a directory; classes as in fslens report)\n"
	"      --from SEC, --to SEC  only events in this window, seconds from the start\n"
	"                        (as fslens report counts them)\n"
	"  -q, --quiet           no summary on stderr\n";

/* long-only options (-f is --force in every command, so --format is -F) */
enum { OPT_FROM = 256, OPT_TO };

/* The export's lines, worded as every command words them; -q keeps the failures only. */
static void print_msg(void *ctx, enum fsl_export_msg kind, const char *line)
{
	const int *quiet = ctx;

	switch (kind) {
	case FSL_EXPORT_INFO:
		if (!*quiet)
			fprintf(stderr, "%s\n", line);
		break;
	case FSL_EXPORT_NOTE:
		if (!*quiet)
			fprintf(stderr, "fslens export: %s\n", line);
		break;
	case FSL_EXPORT_ERROR:
		fprintf(stderr, "fslens: %s\n", line);
		break;
	case FSL_EXPORT_FATAL:
		fprintf(stderr, "fslens export: %s\n", line);
		break;
	}
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "table", required_argument, NULL, 't' },
		{ "name", required_argument, NULL, 'n' },
		{ "dev", required_argument, NULL, 'd' },
		{ "big-endian", no_argument, NULL, 'B' },
		{ "per-class", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_export_opts o = { .msg = print_msg };
	struct fsl_reader_opts ro = { 0 };
	struct fsl_reader *r;
	struct fsl_meta m;
	const char *fmt = NULL, *dev_arg = NULL, *table = NULL;
	uint64_t from = 0, to = 0;	/* the window, ns from the start (to 0: the end) */
	int c, err, rc, quiet = 0, have_to = 0;

	optind = 0;
	while ((c = fsl_getopt("export", argc, argv, "F:o:qh", opts)) != -1) {
		switch (c) {
		case 'F': fmt = optarg; break;
		case 'o': o.out = optarg; break;
		case 't': table = optarg; break;
		case 'n': o.name = optarg; break;
		case 'd': dev_arg = optarg; break;
		case 'B': o.big_endian = 1; break;
		case 'P': o.per_class = 1; break;
		case 'q': quiet = 1; break;
		case OPT_FROM:
			if (fsl_parse_seconds(optarg, &from))
				return fsl_usage_error("export", usage, "bad --from '%s'", optarg);
			break;
		case OPT_TO:
			if (fsl_parse_seconds(optarg, &to))
				return fsl_usage_error("export", usage, "bad --to '%s'", optarg);
			have_to = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return fsl_usage_error("export", usage, optind >= argc ? "no trace given" :
				       "one trace at a time");
	o.trace = argv[optind];
	o.msg_ctx = &quiet;
	if (!fmt)
		return fsl_usage_error("export", usage, "--format is required");
	if (!strcmp(fmt, "blktrace"))
		o.format = FSL_EXPORT_BLKTRACE;
	else if (!strcmp(fmt, "perfetto") || !strcmp(fmt, "chrome") || !strcmp(fmt, "json"))
		o.format = FSL_EXPORT_PERFETTO;
	else if (!strcmp(fmt, "folded"))
		o.format = FSL_EXPORT_FOLDED;
	else if (!strcmp(fmt, "flamegraph") || !strcmp(fmt, "svg"))
		o.format = FSL_EXPORT_FLAMEGRAPH;
	else if (!strcmp(fmt, "csv"))
		o.format = FSL_EXPORT_CSV;
	else
		return fsl_usage_error("export", usage, "unknown format '%s'", fmt);
	if (o.format == FSL_EXPORT_CSV && !table)
		return fsl_usage_error("export", usage, "csv needs --table ops|io|txn|waits|alloc");
	if (o.format != FSL_EXPORT_CSV && table)
		return fsl_usage_error("export", usage, "--table is for --format csv");
	if (o.format != FSL_EXPORT_BLKTRACE && (o.name || dev_arg || o.big_endian))
		return fsl_usage_error("export", usage,
				       "--name, --dev and --big-endian are for --format blktrace");
	if (o.per_class && o.format != FSL_EXPORT_FOLDED && o.format != FSL_EXPORT_FLAMEGRAPH)
		return fsl_usage_error("export", usage, "--per-class is for --format folded or "
				       "flamegraph");
	if (have_to && from && to <= from)
		return fsl_usage_error("export", usage, "--to must be after --from");

	r = fsl_reader__open(o.trace, &ro, &err);
	if (!r)
		return fsl_err_open(o.trace, err);
	fsl_meta_from_reader(&m, r);
	if (dev_arg && fsl_meta__dev_parse(&m, dev_arg, &o.only_dev)) {
		fsl_reader__close(r);
		return fsl_usage_error("export", usage, "--dev %s: not a disk of '%s' (MAJ:MIN, or "
				       "the name 'fslens info' shows)", dev_arg, o.trace);
	}
	/* the window counts from the recording's start, as in fslens report */
	o.origin = fsl_trace_origin(r);
	if (fsl_window_check("export", o.trace, r, o.origin, from ? &from : NULL,
			     have_to ? &to : NULL)) {
		fsl_reader__close(r);
		return 1;
	}
	if (from)
		o.t0 = o.origin + from;
	if (to)
		o.t1 = o.origin + to;
	if (table && (o.table = fsl_csv_table_parse(table)) < 0)
		rc = fsl_usage_error("export", usage, "unknown --table '%s'", table);
	else
		rc = fsl_export_trace(r, &o) ? 1 : 0;
	if (!quiet) {
		size_t i;

		for (i = 0; i < fsl_reader__nwarnings(r); i++)
			fprintf(stderr, "fslens export: warning: %s\n", fsl_reader__warning(r, i));
	}
	fsl_reader__close(r);
	return rc;
}
