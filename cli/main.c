// SPDX-License-Identifier: GPL-2.0
/* fslens: find out why a Linux filesystem is slow. Dispatches subcommands. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fsl_version.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record",  cmd_record,  "record ext4/jbd2/writeback/block/off-CPU events to a trace" },
	{ "top",     cmd_top,     "live view of where filesystem time goes" },
	{ "report",  cmd_report,  "explain a trace: stalls, journal, writeback, I/O, layout" },
	{ "replay",  cmd_replay,  "replay a trace through the allocator/journal/disk model" },
	{ "info",    cmd_info,    "show a trace's machine, filesystem, sizes and counts" },
	{ "dump",    cmd_dump,    "print every event, one line (or JSON object) each" },
	{ "export",  cmd_export,  "write blktrace, Perfetto JSON, folded stacks, flame graphs or CSV" },
	{ "import",  cmd_import,  "read blktrace files into a trace" },
	{ "demo",    cmd_demo,    "run a scenario on a scratch ext4 under record, report it" },
	{ "compare", cmd_compare, "compare several traces side by side" },
	{ "monitor", cmd_monitor, "always-on metrics on HTTP for Prometheus, flight recorder" },
};

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: fslens <command> [options]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'fslens <command> --help' describes a command; 'fslens --version'.\n");
}

/*
 * A failed write to stdout (full disk) is an error, never silence; a reader
 * that closed the pipe (`| head`) only wanted less: quiet, as in git and perf.
 */
static int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return rc;
		fprintf(stderr, "fslens: write error on standard output: %s\n",
			strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	unsigned int i;
	const char *name;

	/*
	 * record and demo run a workload and must finish their trace whatever
	 * happens to their stdout: for them a closed pipe is EPIPE, not fatal.
	 * The readers stop at once, quietly, as git does (SIGPIPE).
	 */
	if (argc >= 2 && (!strcmp(argv[1], "record") || !strcmp(argv[1], "demo")))
		signal(SIGPIPE, SIG_IGN);
	else
		signal(SIGPIPE, SIG_DFL);

	opterr = 0;	/* the commands say what was wrong, in one line (fsl_getopt) */
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		/* the release (VERSION file), +g<commit> when not the tagged release */
		printf("fslens %s\n", FSL_VERSION);
		return finish_stdout(0);
	}
	if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
		if (argc > 2) {
			char *sub[] = { argv[2], "--help", NULL };

			for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				if (!strcmp(commands[i].name, argv[2]))
					return finish_stdout(commands[i].fn(2, sub));
			fprintf(stderr, "fslens: unknown command '%s'\n", argv[2]);
			return EXIT_USAGE;
		}
		usage(stdout);
		return finish_stdout(0);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "fslens: unknown command '%s'\n\n", name);
	usage(stderr);
	return EXIT_USAGE;
}
