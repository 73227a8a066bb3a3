// SPDX-License-Identifier: GPL-2.0
/*
 * One export of a trace (fsl_export_trace): the format's exporter fed by
 * session passes over the window, then its output written and closed.
 * Nothing here prints: what failed, and what was written, go to the
 * caller's msg() as lines, and `fslens export` words and filters them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/analysis.h"
#include "fslens/export.h"
#include "fslens/session.h"
#include "fslens/trace.h"

static void say(const struct fsl_export_opts *o, enum fsl_export_msg kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(const struct fsl_export_opts *o, enum fsl_export_msg kind, const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	if (!o->msg)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->msg(o->msg_ctx, kind, line);
}

/* An ERROR line: "what failed: strerror(-err)". Returns err. */
static int say_err(const struct fsl_export_opts *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say_err(const struct fsl_export_opts *o, int err, const char *fmt, ...)
{
	char what[8000];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	say(o, FSL_EXPORT_ERROR, "%s: %s", what, strerror(-err));
	return err;
}

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
static int pass(struct fsl_reader *r, const struct fsl_export_opts *o,
		int (*fn)(void *, const struct fsl_hdr *), void *x)
{
	uint64_t failed_ts;
	int failed, ret = fsl_session_run_window(r, o->t0, o->t1, fn, x, &failed, &failed_ts);

	if (ret < 0 && failed) {
		/* blktrace's "several disks" is said in full by its caller */
		if (ret != -EXDEV)
			say_err(o, ret, "export of '%s' failed at ts %llu", o->trace,
				(unsigned long long)failed_ts);
	} else if (ret < 0) {
		say_err(o, ret, "cannot read '%s'", o->trace);
	}
	return ret;
}

static int bt_scan(void *x, const struct fsl_hdr *ev) { return fsl_bt_export__scan(x, ev); }
static int bt_ev(void *x, const struct fsl_hdr *ev) { return fsl_bt_export__event(x, ev); }
static int fo_ev(void *x, const struct fsl_hdr *ev) { return fsl_folded_export__event(x, ev); }

/* The output file in *f: 0, or -errno after an ERROR line. */
static int out_open(const struct fsl_export_opts *o, FILE **f)
{
	*f = fsl_export_out_open(o->out);
	return *f ? 0 : say_err(o, -errno, "cannot create '%s'", o->out);
}

/* A failed write to the output; standard output's the command's end says, once. */
static void out_write_err(const struct fsl_export_opts *o, int err)
{
	if (!fsl_export_is_stdout(o->out))
		say_err(o, err, "cannot write '%s'", o->out);
}

/* Close the output: err, else what the close says (a write that failed late). */
static int out_close(const struct fsl_export_opts *o, FILE *f, int err)
{
	int cerr = fsl_export_out_close(f);

	if (cerr)
		say_err(o, cerr, "cannot write '%s'", o->out);
	return err ? err : cerr;
}

/*
 * The output directory in *dir (o->out, else "."), made if missing; 0, or
 * -errno after an ERROR line.
 */
static int out_dir(const struct fsl_export_opts *o, const char **dir)
{
	int err;

	*dir = o->out ? o->out : ".";
	err = fsl_mkdir_p(*dir);
	return err ? say_err(o, err, "cannot create directory '%s'", *dir) : 0;
}

static int export_blktrace(struct fsl_reader *r, const struct fsl_export_opts *o)
{
	struct fsl_bt_export_opts bo = { 0 };
	struct fsl_bt_export *x;
	const char *rt = fsl_reader__kv(r, FSL_KV_REALTIME_OFFSET);
	const char *dir;
	char line[8192];
	size_t i;
	int err = out_dir(o, &dir);

	if (err)
		return err;
	bo.dir = dir;
	bo.name = o->name;
	bo.only_dev = o->only_dev;
	bo.big_endian = o->big_endian;
	if (rt) {
		bo.have_realtime = 1;
		bo.realtime_offset_ns = strtoll(rt, NULL, 10);
	}
	bo.dev_name = trace_dev_name;
	bo.dev_name_ctx = r;
	x = fsl_bt_export__new(&bo, &err);
	if (!x)
		return say_err(o, err, "blktrace export");
	/* a first pass finds the requests that get merged away */
	err = pass(r, o, bt_scan, x);
	if (!err) {
		err = fsl_reader__rewind(r);
		if (err)
			say_err(o, err, "cannot rewind '%s'", o->trace);
	}
	if (!err)
		err = pass(r, o, bt_ev, x);
	if (err == -EXDEV)
		say(o, FSL_EXPORT_FATAL, "the trace has several disks; --name needs --dev");
	if (!err) {
		err = fsl_bt_export__finish(x);
		if (err)
			say_err(o, err, "cannot write blktrace files in '%s'", dir);
	}
	if (!err && !fsl_bt_export__ndevs(x)) {
		say(o, FSL_EXPORT_FATAL, "no block events in '%s'%s", o->trace,
		    o->only_dev ? " for that device" : "");
		err = -ENODATA;
	}
	for (i = 0; !err && i < fsl_bt_export__ndevs(x); i++)
		say(o, FSL_EXPORT_INFO, "%s", fsl_bt_export__summary(x, i, dir, line,
								     sizeof(line)));
	fsl_bt_export__free(x);
	return err;
}

static void say_path(void *ctx, const char *path)
{
	say(ctx, FSL_EXPORT_INFO, "%s", path);
}

/* The stacks to one file, or one file per wait class in a directory. */
static int write_folded(struct fsl_folded_export *x, const struct fsl_export_opts *o)
{
	int svg = o->format == FSL_EXPORT_FLAMEGRAPH;
	const char *dir;
	char path[4096];
	int err, creating;
	FILE *f;

	if (o->per_class) {
		err = out_dir(o, &dir);
		if (err)
			return err;
		err = fsl_folded_export__write_classes(x, dir, svg, o->trace, say_path, (void *)o,
						       path, sizeof(path), &creating);
		if (err)
			say_err(o, err, "cannot %s '%s'", creating ? "create" : "write", path);
		return err;
	}
	err = out_open(o, &f);
	if (err)
		return err;
	/* folded lines, or those lines drawn as an SVG: both hold the same numbers */
	err = svg ? fsl_folded_export__write_svg(x, f, NULL, o->trace) :
		    fsl_folded_export__write(x, f, NULL);
	if (err)
		out_write_err(o, err);
	return out_close(o, f, err);
}

static int export_folded(struct fsl_reader *r, const struct fsl_meta *m,
			 const struct fsl_export_opts *o)
{
	struct fsl_folded_export *x;
	int err;

	x = fsl_folded_export__new(m, o->per_class ? wait_class : NULL, NULL, &err);
	if (!x)
		return say_err(o, err, "folded export");
	err = pass(r, o, fo_ev, x);
	if (!err) {
		if (!fsl_folded_export__nstacks(x))
			say(o, FSL_EXPORT_NOTE, "no off-CPU waits in '%s' "
			    "(recorded without -e offcpu?)", o->trace);
		err = write_folded(x, o);
	}
	fsl_folded_export__free(x);
	return err;
}

/*
 * The exporters that write their one file as the events come (perfetto,
 * csv): made on the open file, fed one pass, finished.
 */
struct streamer {
	const char *what;
	void *(*new)(FILE *f, const struct fsl_meta *m, const struct fsl_export_opts *o,
		     int *err);
	int (*event)(void *x, const struct fsl_hdr *ev);
	int (*finish)(void *x);
	void (*free)(void *x);
};

static void *pf_new(FILE *f, const struct fsl_meta *m, const struct fsl_export_opts *o,
		    int *err)
{
	struct fsl_pf_export *x = fsl_pf_export__new(f, m, err);

	if (x)
		fsl_pf_export__set_classifier(x, wait_class, NULL);
	return x;
}

static void *csv_new(FILE *f, const struct fsl_meta *m, const struct fsl_export_opts *o,
		     int *err)
{
	struct fsl_csv_export *x = fsl_csv_export__new(f, o->table, m, err);

	if (x) {
		fsl_csv_export__set_classifier(x, wait_class, NULL);
		fsl_csv_export__set_origin(x, o->origin);
	}
	return x;
}

static int pf_ev(void *x, const struct fsl_hdr *ev) { return fsl_pf_export__event(x, ev); }
static int csv_ev(void *x, const struct fsl_hdr *ev) { return fsl_csv_export__event(x, ev); }
static int pf_finish(void *x) { return fsl_pf_export__finish(x); }
static int csv_finish(void *x) { return fsl_csv_export__finish(x); }
static void pf_free(void *x) { fsl_pf_export__free(x); }
static void csv_free(void *x) { fsl_csv_export__free(x); }

static const struct streamer perfetto = { "perfetto export", pf_new, pf_ev, pf_finish, pf_free };
static const struct streamer csv = { "csv export", csv_new, csv_ev, csv_finish, csv_free };

static int export_stream(struct fsl_reader *r, const struct fsl_meta *m,
			 const struct fsl_export_opts *o, const struct streamer *s)
{
	void *x;
	FILE *f;
	int err = out_open(o, &f);

	if (err)
		return err;
	x = s->new(f, m, o, &err);
	if (!x) {
		out_close(o, f, 0);
		return say_err(o, err, "%s", s->what);
	}
	err = pass(r, o, s->event, x);
	if (!err)
		err = s->finish(x);
	s->free(x);
	if (err == -EIO)
		out_write_err(o, err);
	return out_close(o, f, err);
}

int fsl_export_trace(struct fsl_reader *r, const struct fsl_export_opts *o)
{
	struct fsl_meta m;

	fsl_meta_from_reader(&m, r);
	switch (o->format) {
	case FSL_EXPORT_BLKTRACE:
		return export_blktrace(r, o);
	case FSL_EXPORT_PERFETTO:
		return export_stream(r, &m, o, &perfetto);
	case FSL_EXPORT_FOLDED:
	case FSL_EXPORT_FLAMEGRAPH:
		return export_folded(r, &m, o);
	case FSL_EXPORT_CSV:
		return export_stream(r, &m, o, &csv);
	}
	return -EINVAL;
}
