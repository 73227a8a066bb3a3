// SPDX-License-Identifier: GPL-2.0
/*
 * fslens demo: make a scratch ext4 (ext3, XFS), run a scenario on it under `fslens
 * record`, print `fslens report`, and leave the trace, the phase file and
 * the HTML report in the output directory. The recorder, the workload and
 * the report run as child processes of this same binary, so demo depends
 * on their command lines only.
 *
 *   demo (this process: scratch fs, vm tunables, signals, cleanup)
 *    `- fslens record -m MNT -o DIR/NAME.trace -f -- \
 *         fslens demo --run-workload SCENARIO --dir MNT/... --phases DIR/NAME.phases
 *   then fslens report DIR/NAME.trace --html DIR/NAME.html, and with several
 *   configurations what fslens compare DIR/NAME1.trace DIR/NAME2.trace ... prints
 *
 * This file parses the options and runs a configuration; the parameter
 * checks and the matrix walk are scenarios/cell.c's and scenarios/matrix.c's,
 * the steps around a run cli/demo_run.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "demo.h"
#include "fslens/compare.h"
#include "fslens/devname.h"
#include "fslens/export.h"
#include "fslens/text.h"
#include "../scenarios/cell.h"
#include "../scenarios/copytree.h"
#include "../scenarios/matrix.h"
#include "../scenarios/phases.h"
#include "../scenarios/scenario.h"
#include "../scenarios/scratch.h"

static const char demo_usage[] =
"usage: fslens demo [SCENARIO] [options]\n"
"\n"
"Runs SCENARIO (default htree) on a scratch ext4, ext3 or XFS (sparse image, loop\n"
"device) under 'fslens record', prints 'fslens report', writes DIR/NAME.trace, .phases,\n"
".html, .json.\n"
"Scenarios: htree createmany bonnie dbench copytree (docs/demo.md).\n"
"\n"
"  --scale S          small (seconds), medium (default, under a minute), full (classic size)\n"
"  --fs TYPE          ext4 (default), ext3 or xfs: --set fs=TYPE\n"
"  --runs N           repeat the scenario N times on the same filesystem: --set runs=N\n"
"                     (bonnie: aging; compare shows run 1 against run 2)\n"
"  --set KEY=VALUE    a parameter (repeatable); 'fslens demo --list' shows them\n"
"  --matrix K=V1,V2 [K2=V1,V2 ...]  run every combination of the values, then compare\n"
"  -o DIR             output directory (default fslens-demo)\n"
"  --keep             keep the scratch image (unmounted, detached) and print its path\n"
"  -d, --dev DEV      use block device DEV (/dev/sdb1, sdb1 or 8:17) instead of an\n"
"                     image: it is WIPED (needs -f); --device DEV is the same\n"
"  -f, --force        allow --dev to overwrite DEV\n"
"  --no-record        run the workload without recording (phase table only)\n"
"  --no-report        record but do not run the report\n"
"  --list             list the scenarios and their parameters\n";

/* ---------------- the demo driver ---------------- */

struct demo {
	const struct fsl_scenario *sc;
	enum fsl_scale scale;
	const char *outdir;
	const char *device;
	char devnode[4200];	/* -d resolved to a device node */
	int force, keep, record, report;
	const char *sets[FSL_PARAMS_MAX];
	unsigned int nsets;
	char shorthand[FSL_PARAMS_MAX][80];	/* --fs, --runs as KEY=VALUE */
	struct fsl_matrix m;
	char self[PATH_MAX];
	char traces[FSL_COMPARE_MAX][PATH_MAX];	/* compare's columns */
	unsigned int ntraces;
	struct fsl_matrix_failed failed;
	struct fsl_vm_saved vm;
};

static void vm_said(void *ctx, int waiting, const char *key, const char *value)
{
	if (waiting)
		printf("waiting for another fslens demo to restore vm.dirty_* (%s)\n",
		       FSL_VM_LOCK);
	else
		printf("vm.%s=%s for this run (restored afterwards)\n", key, value);
	fflush(stdout);
}

/* One configuration (a fsl_matrix_run_fn): scratch fs, record the workload, report. */
static int run_one(void *ctx, const char *label, const char *const *extra, unsigned int nextra)
{
	struct demo *d = ctx;
	char trace[PATH_MAX], phases[PATH_MAX], html[PATH_MAX], json[PATH_MAX], workdir[PATH_MAX];
	char srcdir[PATH_MAX] = "", msg[512];
	const char *argv[FSL_PARAMS_MAX * 4 + 32];
	struct fsl_cell cell;
	struct fsl_scratch *s = NULL;
	struct fsl_child ch;
	int err, rc = 1, status;

	err = fsl_cell__prepare(&cell, d->sc, d->scale, d->sets, d->nsets, extra, nextra);
	if (err == -EBADF)
		return fsl_usage_error("demo", NULL, "bad filesystem parameters (fs ext4/ext3/xfs, "
				       "fs_size >= 16M, blocksize 1024/2048/4096, atime "
				       "relatime/strictatime/noatime; xfs: no inodes, large_dir, "
				       "delalloc=0)");
	if (err)
		return fsl_demo_bad_param(d->sc, cell.bad, err);
	cell.so.device = d->device;
	cell.so.force = d->force;
	cell.so.keep = d->keep;

	snprintf(trace, sizeof(trace), "%s/%s.trace", d->outdir, label);
	snprintf(phases, sizeof(phases), "%s/%s.phases", d->outdir, label);
	unlink(phases);		/* a stale one would pass for this run's */
	snprintf(html, sizeof(html), "%s/%s.html", d->outdir, label);
	snprintf(json, sizeof(json), "%s/%s.json", d->outdir, label);

	fsl_demo_print_cell(label, d->sc, d->scale, &cell);

	err = fsl_scratch__new(&cell.so, &s);
	if (err) {
		fsl_err(0, "scratch filesystem: %s", s ? s->errmsg : strerror(-err));
		goto out;
	}
	if (s->notes[0])
		printf("note: %s\n", s->notes);
	printf("scratch: %s on %s%s\n", s->dev, s->mnt, d->keep ? " (image kept)" : "");
	fflush(stdout);

	if (!strcmp(d->sc->name, "copytree") && !*fsl_params__get(&cell.p, "src")) {
		struct fsl_wl wl = { .p = &cell.p, .stop = &fsl_demo_signal };

		/* the source tree lives off the fs under test, built before recording */
		snprintf(srcdir, sizeof(srcdir), "%s.src", s->dir);
		if ((err = fsl_copytree_prepare(&wl, srcdir))) {
			fsl_err(0, "copytree: %s", wl.errmsg);
			goto out;
		}
	}
	if ((err = fsl_cell__apply_vm(&d->vm, &cell.p, vm_said, NULL, msg, sizeof(msg)))) {
		fsl_err(err, "%s", msg);
		goto out;
	}

	snprintf(workdir, sizeof(workdir), "%s", s->mnt);
	fsl_demo_run_argv(argv, d->self, d->record ? s->mnt : NULL, trace, d->sc->name,
			  workdir, phases, fsl_scale__name(d->scale), srcdir, &cell);
	fflush(stdout);
	if ((err = fsl_child__spawn(&ch, (char *const *)argv, -1))) {
		fsl_err(err, "cannot start %s", d->record ? "fslens record" : "the workload");
		goto out;
	}
	status = fsl_child__reap(&ch, &fsl_demo_signal);
	if (status) {
		if (fsl_demo_signal)
			fsl_err(0, "interrupted; cleaning up");
		else if (d->record && access(phases, F_OK))
			fsl_err(0, "fslens record exited with status %d (a build without BPF "
			     "support can still run 'fslens demo --no-record')", status);
		else if (d->record)
			fsl_err(0, "the recorded workload failed (status %d); the partial trace is "
			     "%s", status, trace);
		/* the phases it finished are compared with the other cells' */
		if (d->record && !fsl_demo_signal && fsl_phase_log__any(phases) &&
		    d->ntraces < sizeof(d->traces) / sizeof(d->traces[0]))
			snprintf(d->traces[d->ntraces++], sizeof(d->traces[0]), "%s", trace);
		else
			fsl_err(0, "the workload exited with status %d", status);
		goto out;
	}
	if (d->record)
		snprintf(d->traces[d->ntraces++], sizeof(d->traces[0]), "%s", trace);
	rc = 0;
out:
	if ((err = fsl_cell__restore_vm(&d->vm, msg, sizeof(msg))))
		rc = fsl_err(err, "%s", msg);
	if (s && s->keep && s->img[0])
		printf("kept image: %s\n", s->img);
	if (fsl_scratch__free(s)) {
		/* s is freed; the message went with it, say the essentials */
		fsl_err(0, "cleanup of the scratch filesystem was incomplete (see losetup -a, "
			"findmnt)");
		rc = 1;
	}
	if (*srcdir)
		fsl_copytree_remove(srcdir);
	if (rc || fsl_demo_signal || !d->record || !d->report)
		return fsl_demo_signal ? 130 : rc;

	/* the report: text to the terminal and HTML, then JSON for compare and tools */
	if (fsl_demo_report(d->self, trace, html, json, &fsl_demo_signal))
		return 1;
	printf("\nwritten: %s %s %s %s\n", trace, phases, html, json);
	return 0;
}

int cmd_demo(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "scale", required_argument, NULL, 'S' },
		{ "set", required_argument, NULL, 's' },
		{ "fs", required_argument, NULL, 'F' },
		{ "runs", required_argument, NULL, 'U' },
		{ "matrix", required_argument, NULL, 'M' },
		{ "keep", no_argument, NULL, 'k' },
		{ "dev", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-record", no_argument, NULL, 'N' },
		{ "no-report", no_argument, NULL, 'R' },
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct demo *d;
	const char *name = "htree", *bad;
	char kv[256];
	ssize_t len;
	int c, i, rc, err, name_given = 0;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--run-workload"))
			return fsl_demo_run_workload(argc, argv);

	d = calloc(1, sizeof(*d));
	if (!d)
		return fsl_err(-ENOMEM, "demo");
	d->scale = FSL_SCALE_MEDIUM;
	d->outdir = "fslens-demo";
	d->record = 1;
	d->report = 1;
	optind = 0;
	while ((c = fsl_getopt("demo", argc, argv, "o:d:fh", lopts)) != -1) {
		switch (c) {
		case 'S':
			if (fsl_scale__parse(optarg, &d->scale)) {
				rc = fsl_usage_error("demo", demo_usage, "unknown scale '%s'", optarg);
				goto out;
			}
			break;
		case 's':
		case 'F':
		case 'U':
			if (d->nsets >= FSL_PARAMS_MAX) {
				rc = fsl_usage_error("demo", demo_usage, "too many --set");
				goto out;
			}
			d->sets[d->nsets] = optarg;
			/* shorthands of --set fs=TYPE and --set runs=N */
			if (c != 's') {
				snprintf(d->shorthand[d->nsets], sizeof(d->shorthand[0]), "%s=%s",
					 c == 'F' ? "fs" : "runs", optarg);
				d->sets[d->nsets] = d->shorthand[d->nsets];
			}
			d->nsets++;
			break;
		case 'M':
			if (fsl_matrix__add(&d->m, optarg)) {
				rc = fsl_usage_error("demo", demo_usage, "bad --matrix '%s' (KEY=V1,V2; "
						     "at most %d keys of %d values)", optarg,
						     FSL_MATRIX_KEYS, FSL_MATRIX_VALUES);
				goto out;
			}
			break;
		case 'o': d->outdir = optarg; break;
		case 'k': d->keep = 1; break;
		case 'd':
			if (fsl_dev_arg("demo", optarg, d->devnode, sizeof(d->devnode))) {
				rc = EXIT_USAGE;
				goto out;
			}
			d->device = d->devnode;
			break;
		case 'f': d->force = 1; break;
		case 'N': d->record = 0; break;
		case 'R': d->report = 0; break;
		case 'L': rc = fsl_demo_list(); goto out;
		case 'h': fputs(demo_usage, stdout); rc = 0; goto out;
		default: rc = EXIT_USAGE; goto out;
		}
	}
	/* "--matrix blocksize=1024,4096 journal=1M,64M": more matrix keys may follow */
	for (; optind < argc; optind++) {
		const char *a = argv[optind];

		if (strchr(a, '=') && d->m.n) {
			if (fsl_matrix__add(&d->m, a)) {
				rc = fsl_usage_error("demo", demo_usage, "bad --matrix '%s'", a);
				goto out;
			}
		} else if (!strchr(a, '=') && !name_given) {
			name = a;
			name_given = 1;
		} else {
			rc = fsl_usage_error("demo", demo_usage, "unexpected argument '%s'%s", a,
				    strchr(a, '=') ? " (a parameter is given with --set)" : "");
			goto out;
		}
	}
	{
		unsigned long combos = fsl_matrix__count(&d->m);

		if (combos > sizeof(d->traces) / sizeof(d->traces[0])) {
			rc = fsl_usage_error("demo", demo_usage, "--matrix makes %lu configurations; at most "
				    "%zu", combos, sizeof(d->traces) / sizeof(d->traces[0]));
			goto out;
		}
	}
	d->sc = fsl_scenario__find(name);
	if (!d->sc) {
		rc = fsl_usage_error("demo", demo_usage, "unknown scenario '%s'", name);
		goto out;
	}
	/* every --set and --matrix value, before a configuration's runs are spent */
	err = fsl_cell__check(d->sc, d->scale, d->sets, d->nsets, &d->m, &bad, kv, sizeof(kv));
	if (err) {
		rc = fsl_demo_bad_param(d->sc, bad, err);
		goto out;
	}
	if (d->device && !d->force) {
		rc = fsl_usage_error("demo", demo_usage, "--dev %s would be wiped: add --force "
				     "if that is what you want", d->device);
		goto out;
	}
	if (geteuid() != 0) {
		rc = fsl_err(-EPERM, "demo needs root (loop devices, mount%s)",
			     d->record ? ", BPF" : "");
		goto out;
	}
	len = readlink("/proc/self/exe", d->self, sizeof(d->self) - 1);
	if (len <= 0) {
		rc = fsl_err(errno, "cannot read /proc/self/exe");
		goto out;
	}
	d->self[len] = 0;
	if ((err = fsl_mkdir_p(d->outdir))) {
		rc = fsl_err(err, "cannot create '%s'", d->outdir);
		goto out;
	}
	fsl_demo_catch_signals();
	fsl_vm_stop = &fsl_demo_signal;
	/* a bad parameter is bad in every configuration: EXIT_USAGE ends the walk */
	rc = fsl_matrix__walk(&d->m, d->sc->name, run_one, d, &fsl_demo_signal, &d->failed);
	if (rc == -EINTR)
		rc = 130;
	if (rc == EXIT_USAGE || rc == 130)
		goto out;
	/* per phase: time, rate and top cause; with a matrix, side by side */
	if ((!rc || (d->failed.n && rc == 1)) && d->ntraces && (d->ntraces > 1 || d->report)) {
		int crc;

		printf("\nper phase (fslens compare%s):\n", d->ntraces > 1 ? "" : " on one trace");
		fflush(stdout);
		crc = fsl_demo_compare(d->traces, d->ntraces, d->report);
		if (!rc)
			rc = crc;
	}
	if (d->sc->seed) {
		/* the scenario's seed and what to look for in the comparison */
		printf("\n");
		fsl_text_wrap(stdout, 0, "", 2, d->sc->seed);
	}
	for (i = 0; i < (int)d->failed.n; i++)
		printf("%s failed: %s (see its messages above)\n", i ? "   " : "\nconfigurations",
		       d->failed.label[i]);
out:
	free(d);
	return rc;
}
