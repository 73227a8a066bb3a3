// SPDX-License-Identifier: GPL-2.0
/*
 * fslens monitor: a long-running daemon (foreground). In-kernel aggregates
 * read every interval and served as Prometheus text on HTTP (libmicrohttpd)
 * at /metrics; with --flight, a flight recorder whose triggers (--trigger,
 * SIGUSR1, POST /trigger) write the last seconds as a trace to -o DIR and
 * run `fslens report` on it beside the trace. SIGTERM/SIGINT stop it.
 */
#include <errno.h>
#include <stdio.h>
#include "cli.h"

#ifndef FSL_HAVE_MHD
int cmd_monitor(int argc, char **argv)
{
	fprintf(stderr, "fslens monitor: not built in: this fslens was built without "
		"libmicrohttpd (install libmicrohttpd-dev, see 'make deps')\n");
	return 1;
}
#else
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "fslens/collector.h"
#include "fslens/flight.h"
#include "fslens/fsmeta.h"
#include "fslens/monitor.h"
#include "fslens/text.h"

static const char usage_text[] =
	"usage: fslens monitor [-m MOUNT ...] [--listen ADDR:PORT] [--interval SEC]\n"
	"                      [--flight SEC] [--trigger EXPR ...] [--trigger-gap SEC] [-o DIR]\n"
	"                      [--cgroup-label] [--cpu-freq HZ]\n"
	"\n"
	"Always-on metrics of the filesystems at MOUNT (default: every mounted ext4),\n"
	"aggregated in the kernel, served as Prometheus text at http://ADDR:PORT/metrics.\n"
	"\n"
	"  -m, --mount MOUNT     a target filesystem (repeat, up to 8)\n"
	"  -l, --listen A:P      HTTP address (default 127.0.0.1:9477)\n"
	"  -i, --interval SEC    read the kernel's aggregates this often (default 5)\n"
	"      --flight SEC      keep the last SEC seconds of full events in memory\n"
	"  -t, --trigger EXPR    write a capture when: wait>DUR (one off-CPU wait),\n"
	"                        commit>DUR (one jbd2 commit), p99:OP>DUR (an operation's\n"
	"                        p99 over the last interval); DUR like 200ms, 1s\n"
	"  -g, --trigger-gap SEC at most one capture per SEC (default 60)\n"
	"      --flight-max MB   bound of the flight ring (default 16, at most 32)\n"
	"  -o, --output DIR      where captures go (default .)\n"
	"  -C, --cgroup-label    the blocked, cpu and op families per cgroup v2\n"
	"                        (cgroup=\"PATH\"; at most 64, then cgroup=\"other\")\n"
	"      --cpu-freq HZ     on-CPU samples per second per CPU for fslens_cpu_seconds_total\n"
	"                        (default 99; 0: none)\n"
	"      --bench-floor     benchmarks: every program attaches but returns at once;\n"
"                        --bench-floor=syscalls: the system call programs only\n"
	"  -v, --verbose         libbpf's messages\n"
	"\n"
	"SIGUSR1 or POST /trigger also trigger a capture. Each capture is DIR/fslens-TIME-N.trace\n"
	"(one per filesystem, named -DISK, with several -m) with its report beside it\n"
	"(.report.txt).\n";

enum { OPT_FLIGHT = 0x100, OPT_FLIGHT_MAX, OPT_CPU_FREQ, OPT_BENCH_FLOOR };

static volatile sig_atomic_t got_stop, got_usr1;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_usr1 = 1;
	else
		got_stop = sig;
}

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void log_libbpf(void *ctx, const char *line)
{
	if (*(int *)ctx)
		fprintf(stderr, "libbpf: %s\n", line);
}

/* `fslens report TRACE > TRACE.report.txt` in a child; reaped later. */
static void spawn_report(const char *trace)
{
	char out[4200];
	pid_t pid;

	snprintf(out, sizeof(out), "%.*s.report.txt", (int)(strlen(trace) - 6), trace);
	pid = fork();
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execl("/proc/self/exe", "fslens", "report", trace, (char *)NULL);
		_exit(127);
	}
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mount", required_argument, NULL, 'm' },
		{ "listen", required_argument, NULL, 'l' },
		{ "interval", required_argument, NULL, 'i' },
		/* no short letter: -F is --format wherever it exists */
		{ "flight", required_argument, NULL, OPT_FLIGHT },
		{ "flight-max", required_argument, NULL, OPT_FLIGHT_MAX },
		{ "trigger", required_argument, NULL, 't' },
		{ "trigger-gap", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "cgroup-label", no_argument, NULL, 'C' },
		{ "cpu-freq", required_argument, NULL, OPT_CPU_FREQ },
		{ "bench-floor", optional_argument, NULL, OPT_BENCH_FLOOR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mounts[MON_TARGETS_MAX], *listen = "127.0.0.1:9477", *dir = ".";
	struct fsl_mon_trigger trigs[16];
	struct fsl_mon_hist (*prev_op)[MON_OPS] = NULL;
	uint64_t interval_ns = 5000000000ull, flight_ns = 0, gap_ns = 60000000000ull;
	uint64_t flight_max = 16ull << 20;
	unsigned int nmounts = 0, ntrigs = 0, nfl = 0, i;
	struct fsl_mon_metrics *mm = NULL;
	struct fsl_monitor *km = NULL;
	struct fsl_flight *fl[MON_TARGETS_MAX] = { NULL };
	struct fsl_mon_http *httpd = NULL;
	uint32_t addr_be;
	uint16_t port;
	struct fsl_target *tg = NULL;
	int verbose = 0;
	struct fsl_mon_gate gate = { .tgt = -1, .after_ns = 1000000000ll };
	int64_t next_read, next_cpu, now;
	struct fsl_monitor_opts mo = { log_libbpf, &verbose, 99, 0 };
	struct sigaction sa;
	const char *hz_src;
	int opt, e, rc = 0, hz, cglabel = 0, bad;
	char *endp;

	optind = 0;
	while ((opt = fsl_getopt("monitor", argc, argv, "m:l:i:t:g:o:Cvh", lopts)) != -1) {
		switch (opt) {
		case 'm':
			if (nmounts == MON_TARGETS_MAX)
				return fsl_usage_error("monitor", usage_text, "at most %d -m",
						       MON_TARGETS_MAX);
			mounts[nmounts++] = optarg;
			break;
		case 'l': listen = optarg; break;
		case 'i':
			if (fsl_parse_seconds(optarg, &interval_ns) || interval_ns < 100000000ull)
				return fsl_usage_error("monitor", usage_text,
						       "bad --interval '%s' (seconds, at least 0.1)",
						       optarg);
			break;
		case OPT_FLIGHT:
			if (fsl_parse_seconds(optarg, &flight_ns) || !flight_ns)
				return fsl_usage_error("monitor", usage_text,
						       "bad --flight '%s' (seconds)", optarg);
			break;
		case OPT_FLIGHT_MAX:
			flight_max = strtoull(optarg, &endp, 10) << 20;
			/* the process stays under 64 MiB of RSS with 32 (bench/monitor.sh) */
			if (*endp || flight_max < (1ull << 20) || flight_max > (32ull << 20))
				return fsl_usage_error("monitor", usage_text,
						       "bad --flight-max '%s' (MB, 1 to 32)", optarg);
			break;
		case 't':
			if (ntrigs == 16 || fsl_mon_trigger_parse(optarg, &trigs[ntrigs]))
				return fsl_usage_error("monitor", usage_text,
						       "bad --trigger '%s' (wait>DUR, commit>DUR or "
						       "p99:OP>DUR, e.g. wait>200ms)", optarg);
			ntrigs++;
			break;
		case 'g':
			if (fsl_parse_seconds(optarg, &gap_ns))
				return fsl_usage_error("monitor", usage_text,
						       "bad --trigger-gap '%s' (seconds)", optarg);
			break;
		case 'o': dir = optarg; break;
		case 'C': cglabel = 1; break;
		case OPT_CPU_FREQ:
			mo.cpu_hz = (unsigned int)strtoul(optarg, &endp, 10);
			if (!*optarg || *endp || mo.cpu_hz > 10000)
				return fsl_usage_error("monitor", usage_text,
						       "bad --cpu-freq '%s' (0 to 10000)", optarg);
			break;
		case OPT_BENCH_FLOOR:
			mo.floor = fsl_floor_parse(optarg);
			if (mo.floor < 0)
				return fsl_usage_error("monitor", usage_text, "bad --bench-floor '%s' "
						       "(all or syscalls)", optarg);
			break;
		case 'v': verbose = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return EXIT_USAGE;	/* fsl_getopt said which option */
		}
	}
	if (optind < argc)
		return fsl_usage_error("monitor", usage_text, "unexpected argument '%s'",
				       argv[optind]);
	gate.gap_ns = (int64_t)gap_ns;
	if (fsl_mon_listen_parse(listen, &addr_be, &port))
		return fsl_usage_error("monitor", usage_text,
				       "bad --listen '%s' (IPv4 ADDR:PORT, e.g. 127.0.0.1:9477)",
				       listen);
	for (i = 0; i < ntrigs; i++)
		if (!flight_ns)
			return fsl_usage_error("monitor", usage_text,
					       "--trigger needs --flight SEC (what to capture)");
	if (flight_ns) {
		struct stat sb;

		if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
			return fsl_err(-ENOTDIR, "monitor: cannot write captures to '%s'", dir);
	}
	if (!fsl_collector_built_in()) {
		fprintf(stderr, "fslens monitor: not built in: this fslens was built without BPF\n");
		return 1;
	}
	if (!fsl_have_bpf_caps()) {
		fprintf(stderr, "fslens monitor: needs root, or CAP_BPF and CAP_PERFMON\n");
		return 1;
	}

	mm = fsl_mon_metrics__new();
	tg = calloc(MON_TARGETS_MAX, sizeof(*tg));
	prev_op = calloc(MON_TARGETS_MAX, sizeof(*prev_op));
	if (!mm || !tg || !prev_op) {
		rc = fsl_err(-ENOMEM, "monitor");
		goto out;
	}
	hz = fsl_kernel_hz(&hz_src);
	mm->hz = hz;
	if (cglabel) {
		mm->cgroups = 1;
		fsl_cgroup2_mount("/proc/self/mounts", mm->cgroup_root, sizeof(mm->cgroup_root));
	}
	e = fsl_mon_add_targets(mm, mounts, nmounts, hz, tg, &bad);
	if (e == -ENOSPC) {
		rc = fsl_err(e, "monitor: at most %d filesystems", MON_TARGETS_MAX);
	} else if (e && bad >= 0) {
		rc = fsl_err(e, "monitor: cannot use '%s'", mounts[bad]);
	} else if (e == -ENOENT) {
		fprintf(stderr, "fslens monitor: no ext4 filesystem is mounted; give -m MOUNT\n");
		rc = 1;
	} else if (e) {
		rc = fsl_err(e, "monitor: cannot read /proc/self/mounts");
	}
	if (e)
		goto out;
	km = fsl_monitor__new(mm, &mo, &e);
	if (!km) {
		rc = fsl_err(e, "monitor: cannot load the probes%s", verbose ? "" :
			     " (-v shows libbpf's messages)");
		goto out;
	}
	if (flight_ns) {
		struct fsl_mon_flight_cfg fc = { flight_ns, flight_max, dir, trigs, ntrigs,
						 log_libbpf, &verbose };

		e = fsl_mon_flights_new(mm, tg, &fc, fl, &nfl);
		if (e) {
			rc = fsl_err(e, "monitor: cannot load the flight recorder's probes (%s)",
				     mm->fs[nfl].label);
			goto out;
		}
	}
	e = fsl_monitor__start(km);
	for (i = 0; !e && i < nfl; i++)
		e = fsl_flight__start(fl[i]);
	if (e) {
		rc = fsl_err(e, "monitor: cannot attach the probes");
		goto out;
	}
	if (mo.cpu_hz && !mm->cpu_hz)
		fprintf(stderr, "fslens monitor: no cpu-clock perf event on this machine: "
			"fslens_cpu_seconds_total is not served (the other metrics are)\n");
	httpd = fsl_mon_http__start(addr_be, port, &e);
	if (!httpd) {
		rc = fsl_err(e, "monitor: cannot listen on %s", listen);
		goto out;
	}
	fsl_mon_http__publish(httpd, mm);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "fslens monitor: %u filesystem%s (", mm->ntargets,
		mm->ntargets == 1 ? "" : "s");
	for (i = 0; i < mm->ntargets; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", mm->fs[i].label);
	fprintf(stderr, "), http://%s/metrics every %.1f s%s\n", listen, interval_ns / 1e9,
		nfl ? "; flight recorder on" : "");
	next_read = mono_ns() + (int64_t)interval_ns;
	next_cpu = mono_ns() + (int64_t)FSL_MON_CPU_READ_NS;
	while (!got_stop) {
		char trig[160] = "";
		int ttgt = -1;

		/* the first ring waits; the others are emptied after it */
		for (i = 0; i < nfl; i++) {
			char t1[160] = "";

			e = fsl_flight__poll(fl[i], i ? 0 : 100, t1, sizeof(t1));
			if (e < 0 && e != -EINTR) {
				rc = fsl_err(e, "monitor: reading the flight recorder's ring");
				goto stop;
			}
			if (t1[0] && !trig[0]) {
				/* a long mount point is cut: this is a log line and a trace key */
				snprintf(trig, sizeof(trig), "%.60s on %.90s", t1, mm->fs[i].label);
				ttgt = (int)i;
			}
		}
		if (!nfl)
			poll(NULL, 0, 100);
		if (got_usr1) {
			got_usr1 = 0;
			snprintf(trig, sizeof(trig), "SIGUSR1");
			ttgt = -1;
		}
		if (fsl_mon_http__take_trigger(httpd)) {
			snprintf(trig, sizeof(trig), "POST /trigger");
			ttgt = -1;
		}
		now = mono_ns();
		if (now >= next_cpu && now < next_read) {
			fsl_monitor__read_cpu(km);
			next_cpu = now + (int64_t)FSL_MON_CPU_READ_NS;
		}
		if (now >= next_read) {
			char p99[160] = "";
			int t = fsl_mon_interval(km, fl, nfl, mm, prev_op, trigs, ntrigs, p99,
						 sizeof(p99));

			next_read = now + (int64_t)interval_ns;
			next_cpu = now + (int64_t)FSL_MON_CPU_READ_NS;
			if (t >= 0 && !trig[0]) {
				snprintf(trig, sizeof(trig), "%s", p99);
				ttgt = t;
			}
			fsl_mon_http__publish(httpd, mm);
		}
		if (trig[0]) {
			if (!nfl) {
				fprintf(stderr, "fslens monitor: trigger (%s) ignored: no --flight\n",
					trig);
			} else if (!fsl_mon_gate__offer(&gate, now, trig, ttgt)) {
				mm->triggers_suppressed++;
			}
		}
		if (fsl_mon_gate__due(&gate, now)) {
			fsl_mon_capture(fl, nfl, &gate, mm, spawn_report);
			fsl_mon_gate__done(&gate);
			fsl_mon_http__publish(httpd, mm);
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
stop:
	if (got_stop)
		fprintf(stderr, "fslens monitor: stopped (%s)\n", strsignal(got_stop));
out:
	fsl_mon_http__stop(httpd);
	for (i = 0; i < MON_TARGETS_MAX; i++)
		fsl_flight__free(fl[i]);
	fsl_monitor__free(km);
	fsl_mon_metrics__free(mm);
	free(tg);
	free(prev_op);
	/* the last report child, if any, finishes on its own; reap what is done */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return rc;
}
#endif /* FSL_HAVE_MHD */
