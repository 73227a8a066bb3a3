// SPDX-License-Identifier: GPL-2.0
/*
 * fslens record: load the probes, record the target filesystem's events
 * (and a command's, if given) into a trace with the metadata the analyses
 * need, end with a summary per family. The recording itself is
 * fsl_record__run (collector/record.c); this is options and printing.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "fslens/devname.h"
#include "fslens/collector.h"
#include "fslens/record.h"
#include "fslens/schema.h"
#include "fslens/text.h"

static const char usage_text[] =
"usage: fslens record [-m MOUNT | -d DEV] [-e FAMILIES] [--full] [-p PID,...] [--tid TID,...]\n"
"                     [--cgroup PATH] [-o FILE] [-f]\n"
"                     [--duration SEC] [--min-wait USEC] [--ring-size SIZE]\n"
"                     [--all-sleeps] [--cpu-freq HZ] [--raw-tp] [--classic-tp] [--syscall-tp]\n"
"                     [-v]\n"
"                     [-- COMMAND ARGS...]\n"
"\n"
"  -m, --mount MOUNT    record this filesystem (ext4 or xfs for the journal and alloc families)\n"
"  -d, --dev DEV        the same, named by its block device\n"
"  -e, --events LIST    families: block,journal,writeback,alloc,dirops,offcpu,proc,cpu or all\n"
"      --full           also the allocator's requests and frees (ext4_request_inode,\n"
"                       ext4_request_blocks, ext4_mballoc_free), which only replay reads\n"
"  -p, --pid PID,...    record only these processes (dirops, offcpu, proc)\n"
"      --tid TID,...    only these threads (with -p, a command, or alone)\n"
"      --cgroup PATH    only tasks in this cgroup v2 directory or below it\n"
"  -o, --output FILE    trace file (default fslens.trace)\n"
"  -f, --force          overwrite an existing trace\n"
"      --duration SEC   stop after SEC seconds (default: Ctrl-C, or when COMMAND exits)\n"
"      --min-wait USEC  drop off-CPU waits shorter than this in the kernel (default 100)\n"
"      --ring-size SIZE  ring buffer size, MB or with a K/M suffix (default 64M)\n"
"      --all-sleeps     record every off-CPU sleep, not only uninterruptible ones\n"
"      --cpu-freq HZ    cpu family: on-CPU samples per second per CPU (default 499)\n"
"      --raw-tp         attach raw tracepoints as raw_tp even where tp_btf works\n"
"      --classic-tp     use classic tracepoints for ext4/jbd2 (their fallback)\n"
"      --syscall-tp     dirops on per-syscall tracepoints: other system calls run no\n"
"                       program, but the end of the recording takes seconds longer\n"
"      --bench-floor    benchmarks: every program attaches but returns at once;\n"
"                       --bench-floor=syscalls: the system call programs only\n"
"  -v, --verbose        show libbpf's messages\n"
"  -- COMMAND ARGS      run COMMAND and record it and its descendants; exit with its status\n";

static void print_msg(void *ctx, enum fsl_record_msg kind, const char *line)
{
	switch (kind) {
	case FSL_RECORD_NOTE:
	case FSL_RECORD_FATAL:
		fprintf(stderr, "fslens record: %s\n", line);
		break;
	case FSL_RECORD_WARNING:
		fprintf(stderr, "fslens record: warning: %s\n", line);
		break;
	case FSL_RECORD_ERROR:
		fprintf(stderr, "fslens: %s\n", line);
		break;
	case FSL_RECORD_LIBBPF:
		fprintf(stderr, "%s\n", line);
		break;
	}
}

static void print_summary(const struct fsl_record_result *res, const char *out)
{
	unsigned int i;
	char sz[32];

	fsl_fmt_bytes(sz, sizeof(sz), res->bytes);
	fprintf(stderr, "fslens record: %.1f s, %" PRIu64 " events, %s (%.1f bytes/event)"
		" -> %s\n", res->secs, res->nevents, sz,
		res->nevents ? (double)res->bytes / res->nevents : 0.0, out);
	fprintf(stderr, "  %-10s %12s %10s\n", "family", "events", "lost");
	for (i = 0; i < FSL_FAM__MAX; i++) {
		if (!(res->families & (1u << i)))
			continue;
		fprintf(stderr, "  %-10s %12" PRIu64 " %10" PRIu64 "\n", fsl_family_name(i),
			res->events[i], res->lost[i]);
	}
	if (res->loss_advice[0])
		fprintf(stderr, "  events were lost: %s\n", res->loss_advice);
	if (res->nstacks)
		fprintf(stderr, "  %d kernel stacks symbolized\n", res->nstacks);
}

/* Would execvp find an executable cmd? errno says why not. */
static int runnable(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[4096];
	int err = ENOENT;

	if (strchr(cmd, '/'))
		return !access(cmd, X_OK);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		e = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", e == p ? 1 : (int)(e - p), e == p ? "." : p,
			 cmd);
		if (!access(buf, X_OK))
			return 1;
		if (errno == EACCES)
			err = EACCES;
		if (!*e)
			break;
	}
	errno = err;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mount", required_argument, NULL, 'm' },
		{ "dev", required_argument, NULL, 'd' },
		{ "events", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 'I' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'D' },
		{ "min-wait", required_argument, NULL, 'W' },
		{ "ring-size", required_argument, NULL, 'R' },
		{ "all-sleeps", no_argument, NULL, 'A' },
		{ "raw-tp", no_argument, NULL, 'T' },
		{ "classic-tp", no_argument, NULL, 'C' },
		{ "syscall-tp", no_argument, NULL, 'S' },
		{ "full", no_argument, NULL, 'U' },
		{ "bench-floor", optional_argument, NULL, 'F' },
		{ "cpu-freq", required_argument, NULL, 'Q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_record_opts o = {
		.out = "fslens.trace",
		.families = FSL_FAM_ALL,
		.min_wait_us = FSL_COLLECTOR_MIN_WAIT_DEFAULT / 1000,
	};
	struct fsl_record_cb cb = { NULL, print_msg };
	struct fsl_record_result res;
	const char *bad = NULL;
	char devnode[4200];
	long long min_wait_us;
	char *endp;
	int opt, rc, nid;
	static uint32_t pids[256], tids[256];

	optind = 0;
	while ((opt = fsl_getopt("record", argc, argv, "+m:d:e:p:o:fvh", lopts)) != -1) {
		switch (opt) {
		case 'm': o.mount = optarg; break;
		case 'd':
			if (fsl_dev_arg("record", optarg, devnode, sizeof(devnode)))
				return EXIT_USAGE;
			o.dev = devnode;
			break;
		case 'e':
			if (!*optarg)
				return fsl_usage_error("record", usage_text, "-e needs a family list "
						       "(e.g. -e block,journal)");
			if (fsl_family_parse(optarg, &o.families, &bad))
				return fsl_usage_error("record", usage_text, "unknown event family '%s'",
						       bad ? bad : optarg);
			break;
		case 'p':
			nid = fsl_parse_id_list(optarg, pids, 256, &bad);
			if (nid == -E2BIG)
				return fsl_usage_error("record", usage_text, "-p: at most 256 pids");
			if (nid < 0)
				return fsl_usage_error("record", usage_text, "bad pid '%s' in -p '%s' "
						       "(PID or PID,PID,...)", bad, optarg);
			for (int k = 0; k < nid; k++)
				if (kill((pid_t)pids[k], 0) && errno == ESRCH)
					return fsl_usage_error("record", usage_text, "-p: no process %u",
							       pids[k]);
			o.pids = pids;
			o.npids = nid;
			break;
		case 'I':
			nid = fsl_parse_id_list(optarg, tids, 256, &bad);
			if (nid == -E2BIG)
				return fsl_usage_error("record", usage_text, "--tid: at most 256 tids");
			if (nid < 0)
				return fsl_usage_error("record", usage_text, "bad tid '%s' in --tid '%s' "
						       "(TID or TID,TID,...)", bad, optarg);
			o.tids = tids;
			o.ntids = nid;
			break;
		case 'G':
			o.cgroup = optarg;
			break;
		case 'o': o.out = optarg; break;
		case 'f': o.force = 1; break;
		case 'D':
			if (fsl_parse_seconds(optarg, &o.duration_ns) || !o.duration_ns)
				return fsl_usage_error("record", usage_text, "bad --duration '%s'", optarg);
			break;
		case 'W':
			min_wait_us = strtoll(optarg, &endp, 10);
			if (*endp || min_wait_us < 0)
				return fsl_usage_error("record", usage_text, "bad --min-wait '%s'", optarg);
			o.min_wait_us = (uint64_t)min_wait_us;
			break;
		case 'R': {
			/* a size ("64K", "1M"); a bare number is MiB, as it always was */
			uint64_t v = 0;
			int e = fsl_parse_size(optarg, &v);

			if (!e && !optarg[strspn(optarg, "0123456789")])
				v = v <= 2048 ? v << 20 : UINT64_MAX;
			if (e || v < 4096 || v > (2ull << 30))
				return fsl_usage_error("record", usage_text, "bad --ring-size '%s' (4K to 2048M)", optarg);
			o.ring_bytes = v;
			break;
		}
		case 'Q': {
			long hz = strtol(optarg, &endp, 10);

			if (*endp || hz < 1 || hz > 10000)
				return fsl_usage_error("record", usage_text,
						       "bad --cpu-freq '%s' (1 to 10000)", optarg);
			o.cpu_freq = (unsigned int)hz;
			break;
		}
		case 'A': o.offcpu_all = 1; break;
		case 'T': o.force_raw_tp = 1; break;
		case 'C': o.force_classic = 1; break;
		case 'S': o.syscall_tp = 1; break;
		case 'U': o.full = 1; break;
		case 'F':
			o.floor = fsl_floor_parse(optarg);
			if (o.floor < 0)
				return fsl_usage_error("record", usage_text, "bad --bench-floor '%s' "
						       "(all or syscalls)", optarg);
			break;
		case 'v': o.verbose = 1; break;
		case 'h':
			if (!fsl_collector_built_in()) {
				printf("usage: fslens record\n\nrecord is not built in: this fslens was "
				       "built without BPF (needs clang, bpftool, libbpf-dev and kernel "
				       "BTF at build time; see 'make deps').\n");
				return 0;
			}
			fputs(usage_text, stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		o.cmd = argv + optind;
	/* a command that cannot run: said now, as a shell does (127), and no trace */
	if (o.cmd && !runnable(o.cmd[0])) {
		fprintf(stderr, "fslens record: cannot run '%s': %s\n", o.cmd[0], strerror(errno));
		return 127;
	}
	if (o.mount && o.dev)
		return fsl_usage_error("record", usage_text, "give -m or -d, not both");
	if (o.cmd && o.npids)
		return fsl_usage_error("record", usage_text, "give -p or a command, not both");
	if (o.cgroup && (rc = fsl_cgroup_arg("record", o.cgroup)))
		return rc;
	if (!strcmp(o.out, "-"))
		return fsl_usage_error("record", usage_text, "the trace must be a file, not '-'");

	if (!fsl_collector_built_in()) {
		fprintf(stderr, "fslens record: not built in: this fslens was built without BPF "
			"(needs clang, bpftool, libbpf-dev and kernel BTF at build time)\n");
		return 1;
	}
	if (!fsl_have_bpf_caps()) {
		fprintf(stderr, "fslens record: needs root, or CAP_BPF and CAP_PERFMON (to load "
			"and attach BPF programs and read kernel stacks)\n");
		return 1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "fslens record: this kernel has no BTF (/sys/kernel/btf/vmlinux): "
			"the probes need CONFIG_DEBUG_INFO_BTF=y\n");
		return 1;
	}

	rc = fsl_record__run(&o, &cb, &res);
	if (res.written)
		print_summary(&res, o.out);
	if (rc)
		return 1;
	return o.cmd ? res.exit_code : 0;
}
