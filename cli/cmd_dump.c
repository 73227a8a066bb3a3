// SPDX-License-Identifier: GPL-2.0
/*
 * fslens dump: every event in time order, one line each (like perf script or
 * blkparse), or one JSON object per line with the tracepoint's field names.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fslens/export.h"
#include "fslens/session.h"
#include "fslens/trace.h"

static const char dump_usage[] =
	"usage: fslens dump [--json] [-e FAMILIES] FILE\n"
	"\n"
	"Print every event in time order: time since the start of the recording\n"
	"(s.us), cpu, pid/tid, command, event name and fields.\n"
	"\n"
	"  --json           one JSON object per line: \"type\" (tracepoint name), ts_ns,\n"
	"                   pid, tid, cpu, comm and the tracepoint's fields\n"
	"  -e FAMILIES      only these: block,journal,writeback,alloc,dirops,offcpu,proc,cpu\n"
	"                   (comma-separated, or all)\n";

/* The name of a record's task: its thread's, else its process's. */
static void warn_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "fslens: warning: %s\n", msg);
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "events", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_reader_opts ro = { .warn = warn_stderr };
	struct fsl_reader *r;
	struct fsl_dump *d;
	struct fsl_consumer *cons[1];
	uint32_t show = FSL_FAM_ALL;
	const char *path, *bad;
	int c, json = 0, err = 0, rc = 0;

	optind = 0;
	while ((c = fsl_getopt("dump", argc, argv, "he:", longopts)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'e':
			bad = optarg;
			if (fsl_family_parse(optarg, &show, &bad))
				return fsl_usage_error("dump", dump_usage, "unknown event family '%s'",
						       bad);
			break;
		case 'h': fputs(dump_usage, stdout); return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return fsl_usage_error("dump", dump_usage, optind >= argc ?
				       "a trace file is needed" : "one trace file only");
	path = argv[optind];
	/* proc events are read even when not shown: they name the tasks */
	ro.families = show | 1u << FSL_FAM_PROC;
	r = fsl_reader__open(path, &ro, &err);
	if (!r)
		return fsl_err_open(path, err);
	d = fsl_dump__new(r, json, show);
	if (!d) {
		fsl_reader__close(r);
		return fsl_err(-ENOMEM, "dump");
	}
	cons[0] = fsl_dump__consumer(d);
	err = fsl_session_run(r, cons, 1);
	if (fsl_dump__out_error(d))
		err = 0;	/* closed pipe, full disk: main() reports it */
	if (err < 0)
		rc = fsl_err(err, "cannot read '%s'", path);
	else if (ferror(stdout))
		rc = 1;
	fsl_dump__free(d);
	fsl_reader__close(r);
	return rc;
}
