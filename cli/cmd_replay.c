// SPDX-License-Identifier: GPL-2.0
/* fslens replay: run a trace through the allocator/journal/disk model. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fslens/replay.h"
#include "fslens/session.h"
#include "fslens/trace.h"

static const char usage_text[] =
	"usage: fslens replay TRACE [--json] [--free-run] [--set KEY=VALUE ...]\n"
	"                           [--disk PROFILE] [--ialloc POLICY]\n"
	"\n"
	"Replays the recorded allocations, handles and I/O through fslens' model of the\n"
	"ext4 block and inode allocators, the jbd2 journal and a disk, and reports how\n"
	"often the model decides what the kernel decided (one step at a time from the\n"
	"kernel's own state), then what a changed setting would do.\n"
	"\n"
	"  --json             the results as JSON (schema: docs/replay-json.md)\n"
	"  --free-run         also run the allocators open loop from the start state\n"
	"  --set KEY=VALUE    what-if: journal_size=64M, blocksize=4096, commit=30,\n"
	"                     delalloc=0, noatime=1, mb_stream_req=N, mb_group_prealloc=N\n"
	"  --disk PROFILE     what-if disk: scsi-10k, ide-5400, sata-7200, ssd, ram\n"
	"  --ialloc POLICY    what-if inode allocator: ext4 (Orlov) or xfs-newino\n";

static void warn_cb(void *ctx, const char *msg)
{
	fprintf(stderr, "fslens replay: %s: %s\n", (const char *)ctx, msg);
}

int cmd_replay(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "free-run", no_argument, NULL, 'f' },
		{ "set", required_argument, NULL, 's' },
		{ "disk", required_argument, NULL, 'd' },
		{ "ialloc", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_replay_opts o;
	struct fsl_reader_opts ro = { 0 };
	struct fsl_replay *r;
	struct fsl_reader *rd;
	const char *why, *path;
	int c, json = 0, err = 0, from_reader = 0;
	size_t i;

	memset(&o, 0, sizeof(o));
	optind = 0;
	while ((c = fsl_getopt("replay", argc, argv, "h", lo)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'f':
			o.free_run = 1;
			break;
		case 's':
			if (fsl_replay_opts_add_set(&o, optarg, &why))
				return fsl_usage_error("replay", usage_text, "--set %s: %s", optarg,
						       why);
			break;
		case 'd':
			if (!fsl_disk_profile_find(optarg))
				return fsl_usage_error("replay", usage_text,
						       "unknown disk profile '%s'", optarg);
			o.disk = optarg;
			break;
		case 'i':
			if (fsl_ialloc_policy_parse(optarg, &o.ialloc_policy))
				return fsl_usage_error("replay", usage_text,
						       "unknown inode policy '%s' (ext4, xfs-newino)",
						       optarg);
			o.ialloc_set = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return fsl_usage_error("replay", usage_text, "expected one trace file");
	path = argv[optind];
	ro.warn = warn_cb;
	ro.warn_ctx = (void *)path;
	rd = fsl_reader__open(path, &ro, &err);
	if (!rd)
		return fsl_err_open(path, err);
	r = fsl_replay__new(&o, &err);
	if (!r) {
		fsl_reader__close(rd);
		return fsl_err(err, "replay setup");
	}
	err = fsl_replay__run(r, rd, &from_reader);
	if (err && fsl_replay__error(r)) {
		fprintf(stderr, "fslens replay: '%s': %s\n", path, fsl_replay__error(r));
		fsl_replay__free(r);
		fsl_reader__close(rd);
		return 1;
	}
	if (err) {
		fsl_replay__free(r);
		fsl_reader__close(rd);
		return fsl_err(err, from_reader ? "cannot read '%s'" : "cannot replay '%s'", path);
	}
	if (json) {
		err = fsl_replay__write_json(r, stdout);
	} else {
		for (i = 0; i < fsl_replay__nnotes(r); i++)
			fprintf(stderr, "fslens replay: %s\n", fsl_replay__note(r, i));
		err = fsl_replay__write_text(r, stdout);
	}
	fsl_replay__free(r);
	fsl_reader__close(rd);
	return err ? fsl_err(err, "write error on standard output") : 0;
}
