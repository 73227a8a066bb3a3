// SPDX-License-Identifier: GPL-2.0
/*
 * fslens export TRACE --format blktrace|perfetto|folded|csv [-o OUT]
 * Writes a trace in the formats the usual tools read; see docs/export.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "fslens/text.h"
#include "fslens/analysis.h"
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

enum { FMT_BLKTRACE = 1, FMT_PERFETTO, FMT_FOLDED, FMT_CSV, FMT_FLAMEGRAPH };
/* long-only options (-f is --force in every command, so --format is -F) */
enum { OPT_FROM = 256, OPT_TO };

struct export_args {
	const char *trace, *out, *name, *table;
	int format, big_endian, per_class, quiet;
	uint32_t only_dev;
	uint64_t from, to;		/* window, ns from the start (to 0: the end) */
	uint64_t t0, t1;		/* the same, absolute (t1 0: no end) */
	uint64_t origin;		/* the trace's start, where --from counts from */
};

/*
 * The disk's name if the trace recorded it: record writes target.disk_name
 * (and target.dev_name) as "MAJ:MIN name".
 */
static const char *trace_dev_name(void *ctx, uint32_t dev)
{
	static char name[64];
	struct fsl_meta m;

	fsl_meta_from_reader(&m, ctx);
	return fsl_meta__dev_name(&m, dev, name, sizeof(name));
}

/* Wait class of an off-CPU stack, by the report's rule table. */
static const char *wait_class(void *ctx, const struct fsl_stack *st)
{
	return fsl_wclass_id(fsl_wclass_of_frames((const char *const *)st->frames, st->nframes,
						   NULL));
}

/* One session pass: every event of r in the window to fn(x, ev); task names always. */
static int run(struct fsl_reader *r, int (*fn)(void *, const struct fsl_hdr *), void *x,
	       const struct export_args *a)
{
	uint64_t failed_ts;
	int failed, ret = fsl_session_run_window(r, a->t0, a->t1, fn, x, &failed, &failed_ts);

	if (ret < 0 && failed) {
		if (ret != -EXDEV)
			fsl_err(ret, "export of '%s' failed at ts %llu", a->trace,
				(unsigned long long)failed_ts);
	} else if (ret < 0) {
		fsl_err(ret, "cannot read '%s'", a->trace);
	}
	return ret;
}

static int bt_scan(void *x, const struct fsl_hdr *ev) { return fsl_bt_export__scan(x, ev); }
static int bt_ev(void *x, const struct fsl_hdr *ev) { return fsl_bt_export__event(x, ev); }
static int pf_ev(void *x, const struct fsl_hdr *ev) { return fsl_pf_export__event(x, ev); }
static int fo_ev(void *x, const struct fsl_hdr *ev) { return fsl_folded_export__event(x, ev); }
static int csv_ev(void *x, const struct fsl_hdr *ev) { return fsl_csv_export__event(x, ev); }

static int export_blktrace(struct fsl_reader *r, const struct export_args *a)
{
	struct fsl_bt_export_opts o = { 0 };
	struct fsl_bt_export *x;
	const char *rt = fsl_reader__kv(r, FSL_KV_REALTIME_OFFSET);
	const char *dir = a->out ? a->out : ".";
	int err;

	err = fsl_mkdir_p(dir);
	if (err)
		return fsl_err(err, "cannot create directory '%s'", dir);
	o.dir = dir;
	o.name = a->name;
	o.only_dev = a->only_dev;
	o.big_endian = a->big_endian;
	if (rt) {
		o.have_realtime = 1;
		o.realtime_offset_ns = strtoll(rt, NULL, 10);
	}
	o.dev_name = trace_dev_name;
	o.dev_name_ctx = r;
	x = fsl_bt_export__new(&o, &err);
	if (!x)
		return fsl_err(err, "blktrace export");
	/* a first pass finds the requests that get merged away */
	err = run(r, bt_scan, x, a);
	if (!err) {
		err = fsl_reader__rewind(r);
		if (err)
			fsl_err(err, "cannot rewind '%s'", a->trace);
	}
	if (!err)
		err = run(r, bt_ev, x, a);
	if (err == -EXDEV) {
		fsl_bt_export__free(x);
		fprintf(stderr, "fslens export: the trace has several disks; --name needs --dev\n");
		return 1;
	}
	if (err < 0) {
		fsl_bt_export__free(x);
		return 1;
	}
	err = fsl_bt_export__finish(x);
	if (err) {
		fsl_bt_export__free(x);
		return fsl_err(err, "cannot write blktrace files in '%s'", dir);
	}
	if (!fsl_bt_export__ndevs(x)) {
		fsl_bt_export__free(x);
		fprintf(stderr, "fslens export: no block events in '%s'%s\n", a->trace,
			a->only_dev ? " for that device" : "");
		return 1;
	}
	if (!a->quiet)
		fsl_bt_export__print_summary(x, stderr, dir);
	fsl_bt_export__free(x);
	return 0;
}

static int export_perfetto(struct fsl_reader *r, const struct fsl_meta *m,
			   const struct export_args *a)
{
	FILE *f = fsl_out_open(a->out);
	struct fsl_pf_export *x;
	int err;

	if (!f)
		return 1;
	x = fsl_pf_export__new(f, m, &err);
	if (!x)
		return fsl_err(err, "perfetto export");
	fsl_pf_export__set_classifier(x, wait_class, NULL);
	err = run(r, pf_ev, x, a);
	if (!err)
		err = fsl_pf_export__finish(x);
	fsl_pf_export__free(x);
	if (err == -EIO)
		fsl_out_write_err(err, a->out);
	if (fsl_out_close(f, a->out) || err)
		return 1;
	return 0;
}

/*
 * The stacks of one class (NULL: all) to f: folded lines, or for flamegraph
 * those lines drawn as an SVG, so both formats hold the same numbers.
 */
static int write_stacks(struct fsl_folded_export *x, FILE *f, const char *cls,
			const struct export_args *a)
{
	if (a->format != FMT_FLAMEGRAPH)
		return fsl_folded_export__write(x, f, cls);
	return fsl_folded_export__write_svg(x, f, cls, a->trace);
}

static void say_path(const char *path)
{
	fprintf(stderr, "%s\n", path);
}

/* One file per wait class: DIR/<class>.folded (or .svg). */
static int write_per_class(struct fsl_folded_export *x, const struct export_args *a)
{
	const char *dir = a->out ? a->out : ".";
	char path[4096];
	int err, creating;

	err = fsl_mkdir_p(dir);
	if (err)
		return fsl_err(err, "cannot create directory '%s'", dir);
	err = fsl_folded_export__write_classes(x, dir, a->format == FMT_FLAMEGRAPH, a->trace,
					       a->quiet ? NULL : say_path, path, sizeof(path),
					       &creating);
	if (err)
		return fsl_err(err, "cannot %s '%s'", creating ? "create" : "write", path);
	return 0;
}

static int export_folded(struct fsl_reader *r, const struct fsl_meta *m,
			 const struct export_args *a)
{
	struct fsl_folded_export *x;
	int err;
	FILE *f;

	x = fsl_folded_export__new(m, a->per_class ? wait_class : NULL, NULL, &err);
	if (!x)
		return fsl_err(err, "folded export");
	err = run(r, fo_ev, x, a);
	if (err) {
		fsl_folded_export__free(x);
		return 1;
	}
	if (!fsl_folded_export__nstacks(x) && !a->quiet)
		fprintf(stderr, "fslens export: no off-CPU waits in '%s' "
			"(recorded without -e offcpu?)\n", a->trace);
	if (a->per_class) {
		err = write_per_class(x, a);
		fsl_folded_export__free(x);
		return err;
	}
	f = fsl_out_open(a->out);
	if (!f) {
		fsl_folded_export__free(x);
		return 1;
	}
	err = write_stacks(x, f, NULL, a);
	fsl_folded_export__free(x);
	if (err)
		fsl_out_write_err(err, a->out);
	if (fsl_out_close(f, a->out) || err)
		return 1;
	return 0;
}

static int export_csv(struct fsl_reader *r, const struct fsl_meta *m,
		      const struct export_args *a)
{
	int table = fsl_csv_table_parse(a->table);
	struct fsl_csv_export *x;
	int err;
	FILE *f;

	if (table < 0)
		return fsl_usage_error("export", usage, "unknown --table '%s'", a->table);
	f = fsl_out_open(a->out);
	if (!f)
		return 1;
	x = fsl_csv_export__new(f, table, m, &err);
	if (!x) {
		fsl_out_close(f, a->out);
		return fsl_err(err, "csv export");
	}
	fsl_csv_export__set_classifier(x, wait_class, NULL);
	fsl_csv_export__set_origin(x, a->origin);
	err = run(r, csv_ev, x, a);
	if (!err)
		err = fsl_csv_export__finish(x);
	fsl_csv_export__free(x);
	if (err == -EIO)
		fsl_out_write_err(err, a->out);
	if (fsl_out_close(f, a->out) || err)
		return 1;
	return 0;
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
	struct export_args a = { 0 };
	uint64_t origin;
	struct fsl_reader_opts ro = { 0 };
	struct fsl_reader *r;
	struct fsl_meta m;
	const char *fmt = NULL, *dev_arg = NULL;
	int c, err, rc, have_to = 0;

	optind = 0;
	while ((c = fsl_getopt("export", argc, argv, "F:o:qh", opts)) != -1) {
		switch (c) {
		case 'F': fmt = optarg; break;
		case 'o': a.out = optarg; break;
		case 't': a.table = optarg; break;
		case 'n': a.name = optarg; break;
		case 'd': dev_arg = optarg; break;
		case 'B': a.big_endian = 1; break;
		case 'P': a.per_class = 1; break;
		case 'q': a.quiet = 1; break;
		case OPT_FROM:
			if (fsl_parse_seconds(optarg, &a.from))
				return fsl_usage_error("export", usage, "bad --from '%s'", optarg);
			break;
		case OPT_TO:
			if (fsl_parse_seconds(optarg, &a.to))
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
	a.trace = argv[optind];
	if (!fmt)
		return fsl_usage_error("export", usage, "--format is required");
	if (!strcmp(fmt, "blktrace"))
		a.format = FMT_BLKTRACE;
	else if (!strcmp(fmt, "perfetto") || !strcmp(fmt, "chrome") || !strcmp(fmt, "json"))
		a.format = FMT_PERFETTO;
	else if (!strcmp(fmt, "folded"))
		a.format = FMT_FOLDED;
	else if (!strcmp(fmt, "flamegraph") || !strcmp(fmt, "svg"))
		a.format = FMT_FLAMEGRAPH;
	else if (!strcmp(fmt, "csv"))
		a.format = FMT_CSV;
	else
		return fsl_usage_error("export", usage, "unknown format '%s'", fmt);
	if (a.format == FMT_CSV && !a.table)
		return fsl_usage_error("export", usage, "csv needs --table ops|io|txn|waits|alloc");
	if (a.format != FMT_CSV && a.table)
		return fsl_usage_error("export", usage, "--table is for --format csv");
	if (a.format != FMT_BLKTRACE && (a.name || dev_arg || a.big_endian))
		return fsl_usage_error("export", usage,
				       "--name, --dev and --big-endian are for --format blktrace");
	if (a.per_class && a.format != FMT_FOLDED && a.format != FMT_FLAMEGRAPH)
		return fsl_usage_error("export", usage, "--per-class is for --format folded or "
				       "flamegraph");
	if (have_to && a.from && a.to <= a.from)
		return fsl_usage_error("export", usage, "--to must be after --from");

	r = fsl_reader__open(a.trace, &ro, &err);
	if (!r)
		return fsl_err_open(a.trace, err);
	fsl_meta_from_reader(&m, r);
	if (dev_arg && fsl_meta__dev_parse(&m, dev_arg, &a.only_dev)) {
		fsl_reader__close(r);
		return fsl_usage_error("export", usage, "--dev %s: not a disk of '%s' (MAJ:MIN, or "
				       "the name 'fslens info' shows)", dev_arg, a.trace);
	}
	/* the window counts from the recording's start, as in fslens report */
	origin = fsl_trace_origin(r);
	if (fsl_window_check("export", a.trace, r, origin, a.from ? &a.from : NULL,
			     have_to ? &a.to : NULL)) {
		fsl_reader__close(r);
		return 1;
	}
	a.origin = origin;
	if (a.from)
		a.t0 = origin + a.from;
	if (a.to)
		a.t1 = origin + a.to;
	switch (a.format) {
	case FMT_BLKTRACE: rc = export_blktrace(r, &a); break;
	case FMT_PERFETTO: rc = export_perfetto(r, &m, &a); break;
	case FMT_FOLDED:
	case FMT_FLAMEGRAPH: rc = export_folded(r, &m, &a); break;
	default: rc = export_csv(r, &m, &a); break;
	}
	if (!a.quiet) {
		size_t i;

		for (i = 0; i < fsl_reader__nwarnings(r); i++)
			fprintf(stderr, "fslens export: warning: %s\n", fsl_reader__warning(r, i));
	}
	fsl_reader__close(r);
	return rc;
}
