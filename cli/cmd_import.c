// SPDX-License-Identifier: GPL-2.0
/*
 * fslens import blktrace FILE... -o TRACE
 * Reads blktrace captures (per-CPU files, either byte order) into an fslens
 * trace holding block-level sections only, and says so in its metadata.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "fslens/export.h"
#include "fslens/trace.h"

static const char usage[] =
	"usage: fslens import blktrace FILE... -o TRACE [--force]\n"
	"\n"
	"FILE is a blktrace file (sdb.blktrace.0) or a base name as blkparse -i takes it\n"
	"(sdb: sdb.blktrace.0, sdb.blktrace.1, ...). Files of several CPUs and devices\n"
	"are merged by time. The trace holds block events (insert, issue, complete,\n"
	"request merges) and task names only: report, replay and top --replay read its\n"
	"block-level sections.\n"
	"\n"
	"options:\n"
	"  -o, --output TRACE   the trace to write (required)\n"
	"  -f, --force          overwrite TRACE if it exists\n"
	"  -q, --quiet          no summary on stderr\n";

static int exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

static int push(char ***files, size_t *n, size_t *cap, const char *path)
{
	char *dup = strdup(path);

	if (!dup)
		return -ENOMEM;
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		char **nf = realloc(*files, ncap * sizeof(*nf));

		if (!nf) {
			free(dup);
			return -ENOMEM;
		}
		*files = nf;
		*cap = ncap;
	}
	(*files)[(*n)++] = dup;
	return 0;
}

/* Expand base names to their per-CPU files, as blkparse -i does. */
static int add_inputs(const char *arg, char ***files, size_t *n, size_t *cap)
{
	char path[4096];
	unsigned int cpu;
	int err;

	snprintf(path, sizeof(path), "%s.blktrace.0", arg);
	if (exists(arg) || !exists(path))
		return push(files, n, cap, arg);
	for (cpu = 0;; cpu++) {
		snprintf(path, sizeof(path), "%s.blktrace.%u", arg, cpu);
		if (!exists(path))
			return 0;
		err = push(files, n, cap, path);
		if (err)
			return err;
	}
}

/* "sdb" if every file is <dir>/sdb.blktrace.<N>; 0 otherwise. */
static int common_base(char **files, size_t n, char *base, size_t len)
{
	size_t i;

	base[0] = 0;
	for (i = 0; i < n; i++) {
		const char *f = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
		const char *dot = strstr(f, ".blktrace.");
		size_t bl = dot ? (size_t)(dot - f) : 0;

		if (!bl || bl >= len || strchr(f, '/'))
			return 0;
		if (!i)
			snprintf(base, len, "%.*s", (int)bl, f);
		else if (strlen(base) != bl || strncmp(base, f, bl))
			return 0;
	}
	return base[0] != 0;
}

static int emit(void *ctx, const struct fsl_hdr *ev)
{
	return fsl_writer__event(ctx, ev);
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_writer_opts wo = { 0 };
	struct fsl_bt_import_stats st;
	struct fsl_writer *w;
	const char *out = NULL;
	char **files = NULL, eb[512];
	size_t n = 0, cap = 0, i;
	int c, err, quiet = 0, rc = 1;

	optind = 0;
	/* GNU getopt permutes: options may come anywhere, operands stay in order */
	while ((c = fsl_getopt("import", argc, argv, "o:fqh", opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'f': wo.force = 1; break;
		case 'q': quiet = 1; break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return fsl_usage_error("import", usage, "which format? (blktrace)");
	if (strcmp(argv[optind], "blktrace"))
		return fsl_usage_error("import", usage, "unknown format '%s' (only blktrace)",
				       argv[optind]);
	optind++;
	if (!out)
		return fsl_usage_error("import", usage, "-o TRACE is required");
	if (optind >= argc)
		return fsl_usage_error("import", usage, "no blktrace files given");
	for (; optind < argc; optind++) {
		size_t before = n;

		if (add_inputs(argv[optind], &files, &n, &cap))
			return fsl_err(-ENOMEM, "import");
		if (!exists(files[before])) {
			fsl_err(-ENOENT, "cannot open '%s' (nor '%s.blktrace.0')", argv[optind],
				argv[optind]);
			goto out;
		}
	}

	w = fsl_writer__open(out, &wo, &err);
	if (!w) {
		if (err == -EEXIST)
			fprintf(stderr, "fslens: '%s' exists (use --force to overwrite)\n", out);
		else
			fprintf(stderr, "fslens: cannot create '%s': %s\n", out,
				fsl_writer_strerror(err));
		goto out;
	}
	fsl_writer__kv(w, FSL_KV_IMPORT_SOURCE, "blktrace");
	fsl_writer__kv(w, FSL_KV_IMPORT_SECTIONS, "block");
	fsl_writer__kv(w, FSL_KV_IMPORT_NOTE, "imported from blktrace: block-level events and task "
		       "names only; no journal, writeback, allocation, syscall or off-CPU data");
	err = fsl_bt_import((const char *const *)files, n, emit, w, &st, eb, sizeof(eb));
	if (err) {
		fsl_writer__discard(w);	/* an old TRACE (with -f) stays */
		fprintf(stderr, "fslens import: %s\n", eb[0] ? eb : strerror(-err));
		goto out;
	}
	{
		char devs[256] = "";
		size_t len = 0;
		uint32_t k;

		for (k = 0; k < st.ndevs && len < sizeof(devs); k++)
			len += snprintf(devs + len, sizeof(devs) - len, "%s%u:%u", k ? "," : "",
					FSL_MAJOR(st.devs[k]), FSL_MINOR(st.devs[k]));
		fsl_writer__kv(w, FSL_KV_IMPORT_DEVICES, "%s", devs);
		if (st.ndevs == 1) {
			char base[256];

			fsl_writer__kv(w, FSL_KV_DEV, "%u", st.devs[0]);
			fsl_writer__kv(w, FSL_KV_DISK, "%u", st.devs[0]);
			/* the disk's name, as blktrace named the files: sdb.blktrace.N */
			if (common_base(files, n, base, sizeof(base)))
				fsl_writer__kv(w, FSL_KV_DISK_NAME, "%u:%u %s",
					       FSL_MAJOR(st.devs[0]), FSL_MINOR(st.devs[0]), base);
		}
		fsl_writer__kv(w, FSL_KV_IMPORT_BYTE_ORDER, "%s", st.big_endian ? "big" : "little");
		fsl_writer__kv(w, FSL_KV_IMPORT_SKIPPED, "%llu", (unsigned long long)st.skipped);
		fsl_writer__kv(w, FSL_KV_NCPUS, "%u", st.max_cpu + 1);
		fsl_writer__kv(w, FSL_KV_START_NS, "%llu", (unsigned long long)st.first_ns);
		fsl_writer__kv(w, FSL_KV_END_NS, "%llu", (unsigned long long)st.last_ns);
		if (st.have_realtime)
			fsl_writer__kv(w, FSL_KV_REALTIME_OFFSET, "%lld",
				       (long long)st.realtime_offset_ns);
	}
	err = fsl_writer__close(w);
	if (err) {
		fsl_err(err, "cannot write '%s'", out);
		goto out;
	}
	if (!quiet)
		fprintf(stderr, "%s: %llu blktrace records from %zu file(s), %u device(s): "
			"Q %llu I %llu M %llu D %llu C %llu; %llu fslens events, %llu records "
			"with no fslens event, %llu payload bytes skipped\n", out,
			(unsigned long long)st.records, n, st.ndevs, (unsigned long long)st.q,
			(unsigned long long)st.i, (unsigned long long)st.m,
			(unsigned long long)st.d, (unsigned long long)st.c,
			(unsigned long long)st.events, (unsigned long long)st.skipped,
			(unsigned long long)st.pdu_bytes_skipped);
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return rc;
}
