// SPDX-License-Identifier: GPL-2.0
/*
 * fslens demo's steps that run apart from its driver (cli/cmd_demo.c): the
 * workload mode (`demo --run-workload`, the child that record follows), the
 * scenario list, the report children run after a recording, and the
 * recordings' comparison in this process.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "demo.h"
#include "fslens/compare.h"
#include "../scenarios/cell.h"
#include "../scenarios/phases.h"
#include "../scenarios/scenario.h"
#include "../scenarios/scratch.h"

volatile sig_atomic_t fsl_demo_signal;

static void on_signal(int sig)
{
	fsl_demo_signal = sig;
}

void fsl_demo_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking wait returns EINTR and the loop sees the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* ---------------- workload mode (the recorded child) ---------------- */

/* A --set or --matrix value the scenario does not take: one line, exit 2. */
int fsl_demo_bad_param(const struct fsl_scenario *sc, const char *kv, int err)
{
	return fsl_usage_error_see("demo", "fslens demo --list", "%s parameter '%s' for %s",
				   err == -ENOENT ? "unknown" : "malformed", kv, sc->name);
}

int fsl_demo_run_workload(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "run-workload", required_argument, NULL, 'W' },
		{ "dir", required_argument, NULL, 'd' },
		{ "phases", required_argument, NULL, 'P' },
		{ "scale", required_argument, NULL, 'S' },
		{ "set", required_argument, NULL, 's' },
		{ "src", required_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *dir = NULL, *phases = NULL, *src = NULL;
	const char *sets[FSL_PARAMS_MAX];
	enum fsl_scale scale = FSL_SCALE_MEDIUM;
	const struct fsl_scenario *sc;
	struct fsl_wl_log out = { 0 };
	struct fsl_params p;
	struct fsl_wl wl;
	unsigned int nsets = 0, i;
	int c, err, quiet = 0;

	optind = 0;
	while ((c = fsl_getopt("demo", argc, argv, "", lopts)) != -1) {
		switch (c) {
		case 'W': name = optarg; break;
		case 'd': dir = optarg; break;
		case 'P': phases = optarg; break;
		case 'r': src = optarg; break;
		case 'q': quiet = 1; break;
		case 'S':
			if (fsl_scale__parse(optarg, &scale))
				return fsl_usage_error("demo", NULL, "unknown scale '%s'", optarg);
			break;
		case 's':
			if (nsets >= FSL_PARAMS_MAX)
				return fsl_usage_error("demo", NULL, "too many --set");
			sets[nsets++] = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (!name || !dir)
		return fsl_usage_error("demo", NULL, "--run-workload needs SCENARIO and --dir DIR");
	sc = fsl_scenario__find(name);
	if (!sc)
		return fsl_usage_error("demo", NULL, "unknown scenario '%s'", name);
	fsl_params__init(&p, sc, scale);
	for (i = 0; i < nsets; i++)
		if ((err = fsl_params__set(&p, sets[i])))
			return fsl_demo_bad_param(sc, sets[i], err);
	if (phases) {
		out.phases = fopen(phases, "we");
		if (!out.phases)
			return fsl_err(errno, "cannot create '%s'", phases);
		if (fsl_phases__write_header(out.phases, sc->name, fsl_scale__name(scale), &p))
			return fsl_err(errno, "cannot write '%s'", phases);
	}
	fsl_demo_catch_signals();
	memset(&wl, 0, sizeof(wl));
	wl.dir = dir;
	wl.srcdir = src;
	wl.p = &p;
	wl.ops = &fsl_wl_log_ops;
	wl.priv = &out;
	wl.stop = &fsl_demo_signal;
	err = sc->run(&wl);
	if (out.phases && fclose(out.phases) && !err)
		err = fsl_err(errno, "cannot write '%s'", phases);
	if (!quiet && out.nph) {
		printf("\n%s (%s):\n", sc->name, fsl_scale__name(scale));
		fsl_phases__print_table(stdout, out.ph, out.nph);
		fsl_phases__print_timelines(stdout, &out);
		fflush(stdout);
	}
	if (err) {
		fsl_err(0, "%s: %s", sc->name, wl.errmsg);
		return err == -EINTR ? 130 : 1;
	}
	if (out.err)
		return fsl_err(out.err, "cannot write '%s'", phases);
	return 0;
}

/* ---------------- list ---------------- */

static void list_params(const struct fsl_param_def *d)
{
	for (; d->key; d++) {
		const char *s = d->def[0] ? d->def[0] : "";
		const char *m = d->def[1] ? d->def[1] : s;
		const char *f = d->def[2] ? d->def[2] : m;

		const char *help = d->help;
		const struct fsl_param_def *c;

		/* a scenario's own default of a common parameter: the common help */
		for (c = fsl_common_params; !help && c->key; c++)
			if (!strcmp(c->key, d->key))
				help = c->help;
		printf("    %-24s %-10s %s\n", d->key, *s ? s : "''", help ? help : "");
		if (strcmp(s, m) || strcmp(m, f))
			printf("    %-24s %-10s (medium %s, full %s)\n", "", "", m, f);
	}
}

int fsl_demo_list(void)
{
	const struct fsl_scenario *sc;

	for (sc = fsl_scenarios; sc->name; sc++) {
		printf("%s: %s\n  parameters (default at scale small):\n", sc->name, sc->summary);
		list_params(sc->params);
	}
	printf("common parameters:\n");
	list_params(fsl_common_params);
	return 0;
}

/* ---------------- a cell's run ---------------- */

/* The cell's heading: scenario, scale, its settings, its mkfs and mount. */
void fsl_demo_print_cell(const char *label, const struct fsl_scenario *sc, enum fsl_scale scale,
			 const struct fsl_cell *cell)
{
	unsigned int i;

	printf("== %s: %s, scale %s", label, sc->name, fsl_scale__name(scale));
	for (i = 0; i < cell->nsets; i++)
		printf(", %s", cell->sets[i]);
	printf("\n");
	if (*cell->notes)
		printf("note: %s\n", cell->notes);
	printf("mkfs.%s", cell->so.fstype[0] ? cell->so.fstype : "ext4");
	for (i = 0; i < cell->so.nmkfs; i++)
		printf(" %s", cell->so.mkfs_args[i]);
	printf("; mount -o %s\n", cell->so.mount_opts[0] ? cell->so.mount_opts : "defaults");
	fflush(stdout);
}

/*
 * The run's command line: this binary's workload mode, under
 * `fslens record -m MNT -o TRACE -f --full --` when mnt is given (--full:
 * the demo's report runs the replay).
 */
void fsl_demo_run_argv(const char **argv, const char *self, const char *mnt, const char *trace,
		       const char *scenario, const char *workdir, const char *phases,
		       const char *scale, const char *srcdir, const struct fsl_cell *cell)
{
	unsigned int n = 0, i;

	if (mnt) {
		argv[n++] = self;
		argv[n++] = "record";
		argv[n++] = "-m";
		argv[n++] = mnt;
		argv[n++] = "-o";
		argv[n++] = trace;
		argv[n++] = "-f";
		argv[n++] = "--full";
		argv[n++] = "--";
	}
	argv[n++] = self;
	argv[n++] = "demo";
	argv[n++] = "--run-workload";
	argv[n++] = scenario;
	argv[n++] = "--dir";
	argv[n++] = workdir;
	argv[n++] = "--phases";
	argv[n++] = phases;
	argv[n++] = "--scale";
	argv[n++] = scale;
	if (*srcdir) {
		argv[n++] = "--src";
		argv[n++] = srcdir;
	}
	for (i = 0; i < cell->nsets; i++) {
		argv[n++] = "--set";
		argv[n++] = cell->sets[i];
	}
	argv[n] = NULL;
}

/* ---------------- the report of a recorded run ---------------- */

/* fslens report TRACE --html HTML to the terminal, then report --json into JSON. */
int fsl_demo_report(const char *self, const char *trace, const char *html, const char *json,
		    volatile sig_atomic_t *stop)
{
	const char *argv[8];
	struct fsl_child ch;
	unsigned int n;
	int err;

	n = 0;
	argv[n++] = self;
	argv[n++] = "report";
	argv[n++] = trace;
	argv[n++] = "--html";
	argv[n++] = html;
	argv[n] = NULL;
	fflush(stdout);
	if (fsl_child__spawn(&ch, (char *const *)argv, -1) || fsl_child__reap(&ch, stop)) {
		fsl_err(0, "fslens report %s failed", trace);
		return 1;
	}
	{
		int fd = open(json, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0)
			return fsl_err(errno, "cannot create '%s'", json);
		n = 0;
		argv[n++] = self;
		argv[n++] = "report";
		argv[n++] = "--json";
		argv[n++] = trace;
		argv[n] = NULL;
		err = fsl_child__spawn(&ch, (char *const *)argv, fd);
		close(fd);
		if (err || fsl_child__reap(&ch, stop))
			return fsl_err(0, "fslens report --json %s failed", trace);
	}
	return 0;
}

/* The recordings side by side: the compare library, in this process. */
int fsl_demo_compare(char (*traces)[PATH_MAX], unsigned int n, int causes)
{
	struct fsl_compare_opts o = { .causes = causes, .warn = fsl_compare_warn };
	const char *list[FSL_COMPARE_MAX];
	struct fsl_compare *c;
	unsigned int t;
	int err = 0;

	for (t = 0; t < n && t < FSL_COMPARE_MAX; t++)
		list[t] = traces[t];
	c = fsl_compare__new(&o, &err);
	if (!c)
		return fsl_err(err, "compare");
	err = fsl_compare__run(c, list, t);
	if (err)
		fsl_err(err, "compare: %s", fsl_compare__error(c));
	else
		err = fsl_compare__text(c, stdout);	/* a failed write: main() says so */
	fsl_compare__free(c);
	return err ? 1 : 0;
}
