// SPDX-License-Identifier: GPL-2.0
/*
 * fslens compare: several traces (or the runs inside one) side by side,
 * rows are phases, columns configurations (analyzer/report/compare.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "fslens/compare.h"

static const char compare_usage[] =
"usage: fslens compare TRACE... [--json] [--no-causes] [--base N]\n"
"\n"
"One table: rows are phases (from TRACE's .phases file, else the whole trace),\n"
"columns are the traces (or runs); each cell: time, ops/s, top cause and its share\n"
"of blocked time, journal commits/blocks logged and the top handle site's share of\n"
"the blocks dirtied, I/O during the phase, read and write seeks per second and mean\n"
"distance. Long labels wrap, never cut.\n"
"\n"
"Then what changed, per phase, each column against the base: one sentence naming\n"
"the mechanism, the time difference split into on-CPU, runnable, blocked by wait\n"
"class and other sleep, and the mechanisms that moved (commits by trigger, journal\n"
"blocks by site and block class, checkpoint and writeback writes, seeks, directory\n"
"blocks read, htree, allocator, fragmentation), ranked by the part of the time they\n"
"explain (docs/compare.md).\n"
"\n"
"  --json        the same as JSON (docs/compare.md)\n"
"  --base N      tell the other columns against column N (default 1)\n"
"  --no-causes   do not analyse the phases (faster; no causes, seeks or differences\n"
"                beyond time)\n";

void fsl_compare_warn(void *ctx, const char *trace, const char *msg)
{
	fprintf(stderr, "fslens compare: %s: %s\n", trace, msg);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-causes", no_argument, NULL, 'n' },
		{ "base", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_compare_opts o = { .causes = 1, .warn = fsl_compare_warn };
	const struct fsl_compare_stats *st;
	struct fsl_compare *c;
	const char *trace;
	int opt, json = 0, err = 0;
	unsigned int ntraces, i;

	optind = 0;
	while ((opt = fsl_getopt("compare", argc, argv, "h", lopts)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'n': o.causes = 0; break;
		case 'b': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > FSL_COMPARE_MAX)
				return fsl_usage_error("compare", compare_usage, "bad --base '%s'",
						       optarg);
			o.base = v - 1;
			break;
		}
		case 'h': fputs(compare_usage, stdout); return 0;
		default: return EXIT_USAGE;
		}
	}
	ntraces = argc - optind;
	if (!ntraces || ntraces > FSL_COMPARE_MAX) {
		fprintf(stderr, "fslens compare: %s\n%s", ntraces ? "at most 64 traces" :
			"no trace given", compare_usage);
		return EXIT_USAGE;
	}
	c = fsl_compare__new(&o, &err);
	if (!c)
		return fsl_err(err, "compare");
	err = fsl_compare__run(c, (const char *const *)argv + optind, ntraces);
	if (err) {
		fprintf(stderr, "fslens: %s\n", fsl_compare__error(c));
		fsl_compare__free(c);
		return 1;
	}
	/* what the readers decoded, per trace and in all (tests: each trace once) */
	if (getenv("FSLENS_STATS")) {
		struct fsl_decode_stats all;

		for (i = 0; (st = fsl_compare__stats(c, i, &trace)); i++)
			fprintf(stderr, "fslens compare: stats: %s: windows %u chunks %llu events "
				"%llu\n", trace, st->windows,
				(unsigned long long)st->decoded.chunks,
				(unsigned long long)st->decoded.events);
		fsl_reader_decoded_total(&all);
		fprintf(stderr, "fslens compare: stats: decoded by every reader: chunks %llu "
			"events %llu\n", (unsigned long long)all.chunks,
			(unsigned long long)all.events);
	}
	err = json ? fsl_compare__json(c, stdout) : fsl_compare__text(c, stdout);
	fsl_compare__free(c);
	return err ? 1 : 0;	/* a failed write: main() says so, once */
}
