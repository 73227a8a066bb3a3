// SPDX-License-Identifier: GPL-2.0
/* fslens top: a live (or replayed) screen of where filesystem time goes. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cli.h"
#include "fslens/devname.h"
#include "fslens/text.h"
#include "fslens/collector.h"
#include "fslens/text.h"
#include "fslens/fsmeta.h"
#include "../tui/top.h"

static const char usage_text[] =
	"usage: fslens top [-m MOUNT | -d DEV] [-i SEC] [-p PID,...] [--tid TID,...]\n"
	"                  [--cgroup PATH]\n"
	"       fslens top --replay TRACE [--speed X] [-i SEC] [-p PID,...]\n"
	"\n"
	"  -m, --mount MOUNT    live: the filesystem mounted at MOUNT\n"
	"  -d, --dev DEV        live: the filesystem on DEV (/dev/loop0, loop0 or 7:0)\n"
	"  -i, --interval SEC   refresh interval (default 1)\n"
	"  -p, --pid PID,...    only these processes: live, filtered in the kernel as by\n"
	"                       record; and shown only (a filter; f changes it)\n"
	"      --tid TID,...    live: only these threads, in the kernel\n"
	"      --cgroup PATH    live: only tasks in this cgroup v2 directory or below it\n"
	"      --replay TRACE   play a recorded trace through the same screen\n"
	"      --speed X        replay X trace seconds per second (default 1)\n"
	"      --view NAME      start in processes|stalls|journal|devices|dirs|files\n"
	"  -a, --accumulated    show totals since the start instead of the last interval\n"
	"  -b, --batch          no screen: print frames as text (like top -b); a replay\n"
	"                       is played as fast as it reads, one frame per interval\n"
	"  -n, --iterations N   batch: stop after N frames (default: end of the trace)\n"
	"  -w, --width COLS     batch: frame width (default 100)\n"
	"\n"
	"keys: q quit, h help, 1-6 views, arrows/PgUp/PgDn, s < > sort, r reverse,\n"
	"      f filter, space pause, Enter details, a totals/interval\n";

static const char *const view_names[] = { "processes", "stalls", "journal", "devices", "dirs",
					   "files" };

/*
 * A non-negative decimal, in ns min_ns..max_ns, as seconds are read (lib/text.c: "0.3"
 * is exactly 0.3): the interval, and --speed, a factor read the same way.
 */
static int parse_decimal(const char *s, uint64_t min_ns, uint64_t max_ns, double *out)
{
	uint64_t ns;

	if (fsl_parse_seconds(s, &ns) || ns < min_ns || ns > max_ns)
		return -1;
	*out = ns / 1e9;
	return 0;
}

static int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* CAP_BPF (39), CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set. */

/* Start the collector on the target; says why not on stderr. */
static struct top_source *open_live(const char *mount, const char *dev,
				      const struct top_live_opts *filters, int *err)
{
	static struct fsl_target t;
	struct top_live_opts lo = *filters;
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct top_source *src;

	if (!fsl_collector_built_in()) {
		fprintf(stderr, "fslens top: live mode is not built in: this fslens was built "
			"without BPF (needs clang, bpftool, libbpf-dev and kernel BTF at build "
			"time); --replay TRACE still works\n");
		return NULL;
	}
	if (!fsl_have_bpf_caps()) {
		fprintf(stderr, "fslens top: live mode needs root, or CAP_BPF and CAP_PERFMON; "
			"--replay TRACE works without\n");
		return NULL;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "fslens top: this kernel has no BTF (/sys/kernel/btf/vmlinux): "
			"the probes need CONFIG_DEBUG_INFO_BTF=y\n");
		return NULL;
	}
	if (mount || dev) {
		*err = fsl_target_resolve(mount, dev, &t);
		if (*err) {
			fsl_err(*err, "cannot use '%s'", mount ? mount : dev);
			return NULL;
		}
		lo.target = &t;
		lo.fs = fsl_target_is_ext4(&t) ? FSL_COLLECTOR_FS_EXT4 :
			!strcmp(t.fstype, "xfs") ? FSL_COLLECTOR_FS_XFS : FSL_COLLECTOR_FS_OTHER;
		if (lo.fs == FSL_COLLECTOR_FS_OTHER) {
			fprintf(stderr, "fslens top: %s is %s, not ext4 or xfs: no journal or "
				"allocator events; block, writeback, calls and waits still shown\n",
				t.mount[0] ? t.mount : t.bdev, t.fstype[0] ? t.fstype : "not mounted");
			lo.families = FSL_FAM_ALL & ~((1u << FSL_FAM_JOURNAL) | (1u << FSL_FAM_ALLOC));
		}
	}
	lo.min_wait_ns = FSL_COLLECTOR_MIN_WAIT_DEFAULT;
	/* map memory is charged to the cgroup on new kernels; harmless elsewhere */
	setrlimit(RLIMIT_MEMLOCK, &rl);
	src = top_source__live(&lo, err);
	if (!src) {
		fsl_err(*err, "cannot start the collector");
		return NULL;
	}
	if (*top_source__live_missing(src))
		fprintf(stderr, "fslens top: this kernel lacks: %s\n", top_source__live_missing(src));
	return src;
}

int cmd_top(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mount", required_argument, NULL, 'm' },
		{ "dev", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 'I' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "replay", required_argument, NULL, 'R' },
		{ "speed", required_argument, NULL, 'S' },
		{ "view", required_argument, NULL, 'V' },
		{ "accumulated", no_argument, NULL, 'a' },
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct top_opts o = { .interval_s = 1.0, .speed = 1.0, .rows = 60, .cols = 100 };
	const char *replay = NULL, *mount = NULL, *dev = NULL, *bad = NULL;
	struct top_source *src = NULL;
	struct top_live_opts filters = { 0 };
	static uint32_t pids[256], tids[256];
	static char pidbuf[256 * 11];
	char errbuf[256] = "", devnode[4200];
	int c, err = 0, sig = 0, speed_set = 0, nid;
	unsigned int i;
	long v;

	optind = 0;
	while ((c = fsl_getopt("top", argc, argv, "m:d:i:p:abn:w:h", lopts)) != -1) {
		switch (c) {
		case 'm':
			mount = optarg;
			break;
		case 'd':
			if (fsl_dev_arg("top", optarg, devnode, sizeof(devnode)))
				return EXIT_USAGE;
			dev = devnode;
			break;
		case 'i':
			if (parse_decimal(optarg, 50000000, 1000000000000000000ull, &o.interval_s))
				return fsl_usage_error("top", usage_text,
						       "bad interval '%s' (seconds, >= 0.05)", optarg);
			break;
		case 'p':
		case 'I':
			nid = fsl_parse_id_list(optarg, c == 'p' ? pids : tids, 256, &bad);
			if (nid == -E2BIG)
				return fsl_usage_error("top", usage_text, "%s: at most 256 ids",
						       c == 'p' ? "-p" : "--tid");
			if (nid < 0)
				return fsl_usage_error("top", usage_text, "bad %s '%s' in %s '%s' "
						       "(ID or ID,ID,...)", c == 'p' ? "pid" : "tid",
						       bad, c == 'p' ? "-p" : "--tid", optarg);
			if (c == 'I') {
				filters.tids = tids;
				filters.ntids = nid;
				break;
			}
			filters.pids = pids;
			filters.npids = nid;
			/* the screen's filter too (and all of it in a replay): "1,2" */
			for (i = 0, pidbuf[0] = 0; i < (unsigned int)nid; i++)
				snprintf(pidbuf + strlen(pidbuf), sizeof(pidbuf) - strlen(pidbuf),
					 "%s%u", i ? "," : "", pids[i]);
			o.filter = pidbuf;
			break;
		case 'G':
			filters.cgroup = optarg;
			break;
		case 'R':
			replay = optarg;
			break;
		case 'S':
			if (parse_decimal(optarg, 1000000, 1000000000000000000ull, &o.speed))
				return fsl_usage_error("top", usage_text,
						       "bad speed '%s' (a factor > 0)", optarg);
			speed_set = 1;
			break;
		case 'V':
			for (i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++)
				if (!strncmp(optarg, view_names[i], strlen(optarg)) && optarg[0])
					break;
			if (i == sizeof(view_names) / sizeof(view_names[0]))
				return fsl_usage_error("top", usage_text, "unknown view '%s'", optarg);
			o.view = (int)i;
			break;
		case 'a':
			o.accumulated = 1;
			break;
		case 'b':
			o.batch = 1;
			break;
		case 'n':
			if (parse_int(optarg, 1, 1000000, &v))
				return fsl_usage_error("top", usage_text, "bad iteration count '%s'",
						       optarg);
			o.iterations = (int)v;
			break;
		case 'w':
			if (parse_int(optarg, 40, 1000, &v))
				return fsl_usage_error("top", usage_text, "bad width '%s' (40..1000)",
						       optarg);
			o.cols = (int)v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return fsl_usage_error("top", usage_text, "unexpected argument '%s'", argv[optind]);
	if (replay && (mount || dev))
		return fsl_usage_error("top", usage_text, "--replay reads a trace; -m/-d are for live use");
	if (mount && dev)
		return fsl_usage_error("top", usage_text, "give -m or -d, not both");
	if (speed_set && !replay)
		return fsl_usage_error("top", usage_text, "--speed only applies to --replay");
	if (replay && (filters.ntids || filters.cgroup))
		return fsl_usage_error("top", usage_text, "--tid and --cgroup filter in the kernel, "
				       "live; a trace recorded with them holds only those tasks");
	if (filters.cgroup && (err = fsl_cgroup_arg("top", filters.cgroup)))
		return err;

	if (replay) {
		src = top_source__replay(replay, o.speed, &err);
		if (!src)
			return fsl_err_open(replay, err);
	} else {
		src = open_live(mount, dev, &filters, &err);
		if (!src)
			return 1;
	}

	if (o.batch)
		err = top_run_batch(src, &o, stdout, errbuf, sizeof(errbuf));
	else
		err = top_run_interactive(src, &o, &sig, errbuf, sizeof(errbuf));
	/* The terminal is restored by now: warnings and errors are readable. */
	for (i = 0; top_source__warning(src, i); i++)
		fprintf(stderr, "fslens top: warning: %s\n", top_source__warning(src, i));
	top_source__free(src);
	if (err)
		return fsl_err(0, "top: %s", errbuf[0] ? errbuf : strerror(-err));
	return 0;
}
