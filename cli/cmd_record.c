// SPDX-License-Identifier: GPL-2.0
/*
 * fslens record: load the probes, record the target filesystem's events
 * (and a command's, if given) into a trace with the metadata the analyses
 * need, end with a summary per family.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "fslens/text.h"
#include "fslens/collector.h"
#include "fslens/fsmeta.h"
#include "fslens/ordered.h"
#include "fslens/schema.h"
#include "fslens/trace.h"
#include "../collector/collector_int.h"

static const char usage_text[] =
"usage: fslens record [-m MOUNT | -d DEV] [-e FAMILIES] [-p PID] [-o FILE] [-f]\n"
"                     [--duration SEC] [--min-wait USEC] [--ring-size SIZE]\n"
"                     [--all-sleeps] [--raw-tp] [--classic-tp] [--syscall-tp] [-v]\n"
"                     [-- COMMAND ARGS...]\n"
"\n"
"  -m, --mount MOUNT    record this filesystem (ext4 for the journal and alloc families)\n"
"  -d, --dev DEV        the same, named by its block device\n"
"  -e, --events LIST    families: block,journal,writeback,alloc,dirops,offcpu,proc or all\n"
"  -p, --pid PID        record only this process (dirops, offcpu, proc)\n"
"  -o, --output FILE    trace file (default fslens.trace)\n"
"  -f, --force          overwrite an existing trace\n"
"      --duration SEC   stop after SEC seconds (default: Ctrl-C, or when COMMAND exits)\n"
"      --min-wait USEC  drop off-CPU waits shorter than this in the kernel (default 100)\n"
"      --ring-size SIZE ring buffer size, MB or with a K/M suffix (default 64M)\n"
"      --all-sleeps     record every off-CPU sleep, not only uninterruptible ones\n"
"      --raw-tp         attach raw tracepoints as raw_tp even where tp_btf works\n"
"      --classic-tp     use classic tracepoints for ext4/jbd2 (their fallback)\n"
"      --syscall-tp     dirops on per-syscall tracepoints: other system calls run no\n"
"                       program, but the end of the recording takes seconds longer\n"
"  -v, --verbose        show libbpf's messages\n"
"  -- COMMAND ARGS      run COMMAND and record it and its descendants; exit with its status\n";

/* how often the writer's buffered events become complete chunks on disk */
#define FLUSH_NS 1000000000ll

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* ---- small open-addressing sets (pids seen, stack ids, caller addresses) ---- */

struct u64set {
	uint64_t *v;	/* 0 = empty; values are stored +1 */
	size_t n, cap;
};

/* The slot of stored value v (x + 1) in v[cap]: where it is, or the empty one it goes in. */
static size_t u64set_slot(const uint64_t *v, size_t cap, uint64_t sv)
{
	size_t i = (sv * 0x9e3779b97f4a7c15ull) & (cap - 1);

	while (v[i] && v[i] != sv)
		i = (i + 1) & (cap - 1);
	return i;
}

static int u64set_add(struct u64set *s, uint64_t x)
{
	size_t i;

	x += 1;
	if ((s->n + 1) * 2 > s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 1024, j;
		uint64_t *nv = calloc(nc, sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		for (j = 0; j < s->cap; j++)
			if (s->v[j])
				nv[u64set_slot(nv, nc, s->v[j])] = s->v[j];
		free(s->v);
		s->v = nv;
		s->cap = nc;
	}
	i = u64set_slot(s->v, s->cap, x);
	if (s->v[i])
		return 0;
	s->v[i] = x;
	s->n++;
	return 1;
}

static int u64set_has(const struct u64set *s, uint64_t x)
{
	return s->cap && s->v[u64set_slot(s->v, s->cap, x + 1)];
}

/* ---- the recording ---- */

struct rec {
	struct fsl_writer *w;
	struct fsl_collector *c;
	const char *out;
	uint32_t families;
	uint64_t events[FSL_FAM__MAX];
	uint64_t nevents;
	int werr;
	struct u64set tids, stacks, ips;
	struct fsl_ordered *ro;
	int verbose;
	struct u64set gone_tids;	/* tids in gone[] (never removed: gone[] decides) */
	struct fsl_hdr *gone;		/* first record of each task seen after it exited */
	size_t ngone, capgone;
	uint64_t named_late;		/* gone tasks named from a later proc record */
};

static int sink_kv(void *ctx, const char *key, const char *value)
{
	return fsl_writer__kv(ctx, key, "%s", value);
}

static int sink_text(void *ctx, const char *name, const void *data, size_t len)
{
	return fsl_writer__text(ctx, name, data, len);
}

static int sink_bitmap(void *ctx, const struct fsl_bitmap *bm)
{
	return fsl_writer__bitmap(ctx, bm);
}

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int write_event(void *ctx, const struct fsl_hdr *ev)
{
	struct rec *r = ctx;
	const struct fsl_event_desc *d = fsl_schema_builtin(ev->type);
	int e = fsl_writer__event(r->w, ev);

	if (e) {
		r->werr = e;
		return e;	/* stops the poll: the main loop reports it */
	}
	if (d && d->family < FSL_FAM__MAX)
		r->events[d->family]++;
	r->nevents++;
	return 0;
}

/* Name a task on first sight (it existed before recording, or its fork was not seen). */
static int proc_seen(struct rec *r, const struct fsl_hdr *ev)
{
	struct fsl_ev_proc p;
	char path[64], buf[512], *open, *close;
	FILE *f;
	size_t n;
	int ppid = 0;

	memset(&p, 0, sizeof(p));
	snprintf(path, sizeof(path), "/proc/%u/task/%u/stat", ev->pid, ev->tid);
	f = fopen(path, "re");
	if (!f)
		return 1;	/* gone already: its later proc record (if any) names it */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return 0;
	snprintf(p.comm, sizeof(p.comm), "%.*s", (int)(close - open - 1), open + 1);
	sscanf(close + 1, " %*c %d", &ppid);
	p.hdr.ts = ev->ts;
	p.hdr.pid = ev->pid;
	p.hdr.tid = ev->tid;
	p.hdr.type = FSL_EV_PROC;
	p.hdr.size = sizeof(p);
	p.hdr.cpu = ev->cpu;
	p.ppid = ppid;
	p.kind = FSL_PROC_SEEN;
	/* kernel threads are children of kthreadd (pid 2) */
	p.flags = (ppid == 2 || ev->pid == 2) ? FSL_PROC_KTHREAD : 0;
	return fsl_ordered__push(r->ro, &p.hdr, write_event, r);
}

/* Remember a task that exited before user space saw it. */
static int gone_add(struct rec *r, const struct fsl_hdr *ev)
{
	if (r->ngone == r->capgone) {
		size_t nc = r->capgone ? r->capgone * 2 : 64;
		struct fsl_hdr *ng = realloc(r->gone, nc * sizeof(*ng));

		if (!ng)
			return -ENOMEM;
		r->gone = ng;
		r->capgone = nc;
	}
	r->gone[r->ngone++] = *ev;
	return u64set_add(&r->gone_tids, ev->tid) < 0 ? -ENOMEM : 0;
}

/*
 * A proc record (fork, exec, exit) for a task seen only after it was gone:
 * name it from its first sight on, with a SEEN record at that time.
 */
static int gone_name(struct rec *r, const struct fsl_ev_proc *p)
{
	struct fsl_ev_proc q;
	size_t i;

	for (i = 0; i < r->ngone; i++)
		if (r->gone[i].tid == p->hdr.tid)
			break;
	if (i == r->ngone || !p->comm[0])
		return 0;
	q = *p;
	q.hdr = r->gone[i];
	q.hdr.type = FSL_EV_PROC;
	q.hdr.size = sizeof(q);
	q.hdr._pad = 0;
	q.kind = FSL_PROC_SEEN;
	q.exit_code = 0;
	r->gone[i] = r->gone[--r->ngone];
	r->named_late++;
	return fsl_ordered__push(r->ro, &q.hdr, write_event, r);
}

/* Every record from the ring: note what must be resolved at the end, order it. */
static int on_event(void *ctx, const struct fsl_hdr *ev)
{
	struct rec *r = ctx;
	int e;

	if (ev->type == FSL_EV_PROC) {
		u64set_add(&r->tids, ev->tid);
		if (r->ngone && ev->size >= sizeof(struct fsl_ev_proc) &&
		    u64set_has(&r->gone_tids, ev->tid) &&
		    (e = gone_name(r, (const struct fsl_ev_proc *)ev)))
			return r->werr ? r->werr : e;
	} else if (ev->tid && (r->families & (1u << FSL_FAM_PROC)) &&
		   u64set_add(&r->tids, ev->tid) == 1) {
		e = proc_seen(r, ev);
		if (e == 1)
			e = gone_add(r, ev);
		if (e)
			return r->werr ? r->werr : e;
	}
	if (ev->type == FSL_EV_OFFCPU)
		u64set_add(&r->stacks, (uint32_t)((const struct fsl_ev_offcpu *)ev)->stack_id);
	else if (ev->type == FSL_EV_EXT4_JOURNAL_START_INODE ||
		 ev->type == FSL_EV_EXT4_JOURNAL_START_SB)
		u64set_add(&r->ips, ((const struct fsl_ev_ext4_journal_start *)ev)->ip);
	e = fsl_ordered__push(r->ro, ev, write_event, r);
	if (e && !r->werr)
		r->werr = e;
	return e;
}

/* Symbolize every stack and caller address that events referred to. */
static int write_symbols(struct rec *r, int *nstacks)
{
	struct fsl_ksyms *k;
	char name[512];
	size_t i;
	int e = 0;

	*nstacks = 0;
	k = fsl_ksyms__load(NULL, &e);
	if (!k)
		return e;
	for (i = 0; i < r->stacks.cap && !e; i++) {
		uint64_t ips[64];
		char *frames[64];
		struct fsl_stack st;
		int32_t id;
		int n, j, nf;

		if (!r->stacks.v[i])
			continue;
		id = (int32_t)(uint32_t)(r->stacks.v[i] - 1);
		n = fsl_collector__stack(r->c, id, ips, 64);
		if (n <= 0)
			continue;
		nf = 0;
		for (j = 0; j < n; j++) {
			const char *s = fsl_ksyms__name(k, ips[j], name, sizeof(name));

			if (!s) {
				snprintf(name, sizeof(name), "0x%" PRIx64, ips[j]);
				s = name;
			}
			/* the probe's own frames (bpf_prog_*, bpf_trace_run*) are not the wait */
			if (!nf && (!strncmp(s, "bpf_", 4) || !strncmp(s, "__bpf_", 6)))
				continue;
			frames[nf++] = strdup(s);
		}
		st.id = id;
		st.nframes = nf;
		st.frames = frames;
		e = fsl_writer__stack(r->w, &st);
		for (j = 0; j < nf; j++)
			free(frames[j]);
		(*nstacks)++;
	}
	for (i = 0; i < r->ips.cap && !e; i++) {
		uint64_t a;

		if (!r->ips.v[i])
			continue;
		a = r->ips.v[i] - 1;
		if (fsl_ksyms__name(k, a, name, sizeof(name)))
			e = fsl_writer__sym(r->w, a, name);
	}
	fsl_ksyms__free(k);
	return e;
}

/* CAP_BPF (39), CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set. */

static void log_libbpf(void *ctx, const char *line)
{
	if (*(int *)ctx)
		fprintf(stderr, "%s\n", line);
}

/*
 * The kernel's own I/O counters of the disk, right after attach and right
 * before detach: the window the block events cover (the recorder's own
 * metadata reads happen outside it).
 */
static void disk_stat_kv(struct rec *r, const struct fsl_target *t, const char *when)
{
	char p[128], buf[512], key[64];
	FILE *f;

	if (!t->diskname[0])
		return;
	snprintf(p, sizeof(p), "/sys/block/%s/stat", t->diskname);
	f = fopen(p, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = 0;
		snprintf(key, sizeof(key), FSL_KV_QUEUE_STAT_PREFIX "%s", when);
		fsl_writer__kv(r->w, key, "%s", buf + strspn(buf, " "));
	}
	fclose(f);
}

/* Run COMMAND in a child that waits until it is tracked, so nothing is missed. */
static pid_t spawn(char **argv, int *gate)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* the recorder failed before starting */
		execvp(argv[0], argv);
		fprintf(stderr, "fslens record: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

int cmd_record(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mount", required_argument, NULL, 'm' },
		{ "dev", required_argument, NULL, 'd' },
		{ "events", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'D' },
		{ "min-wait", required_argument, NULL, 'W' },
		{ "ring-size", required_argument, NULL, 'R' },
		{ "all-sleeps", no_argument, NULL, 'A' },
		{ "raw-tp", no_argument, NULL, 'T' },
		{ "classic-tp", no_argument, NULL, 'C' },
		{ "syscall-tp", no_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_collector_opts co = { 0 };
	struct fsl_writer_opts wo = { 0 };
	struct fsl_target t;
	struct rec r = { 0 };
	const char *mount = NULL, *dev = NULL, *out = "fslens.trace", *bad = NULL;
	double duration = 0;
	long long min_wait_us = FSL_COLLECTOR_MIN_WAIT_DEFAULT / 1000;
	uint64_t ring_bytes = 0;
	uint32_t families = FSL_FAM_ALL;
	int opt, e, have_target = 0, is_ext4 = 0, status = 0, gate = -1, rc = 0;
	char **cmd = NULL, *endp;
	pid_t child = 0;
	int64_t t0, t_end, now, last_flush;
	uint64_t lost[FSL_FAM__MAX] = { 0 };
	struct sigaction sa;
	unsigned int i;
	int nstacks = 0;
	char cmdline[4096] = "";
	char sz[32];

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+m:d:e:p:o:fvh", lopts, NULL)) != -1) {
		switch (opt) {
		case 'm': mount = optarg; break;
		case 'd': dev = optarg; break;
		case 'e':
			if (!*optarg)
				return fsl_usage_error("record", usage_text, "-e needs a family list "
						       "(e.g. -e block,journal)");
			if (fsl_family_parse(optarg, &families, &bad))
				return fsl_usage_error("record", usage_text, "unknown event family '%s'",
						       bad ? bad : optarg);
			break;
		case 'p':
			co.pid = strtoul(optarg, &endp, 10);
			if (*endp || !co.pid)
				return fsl_usage_error("record", usage_text, "bad pid '%s'", optarg);
			if (kill((pid_t)co.pid, 0) && errno == ESRCH)
				return fsl_usage_error("record", usage_text, "no process %s", optarg);
			break;
		case 'o': out = optarg; break;
		case 'f': wo.force = 1; break;
		case 'D':
			duration = strtod(optarg, &endp);
			if (*endp || duration <= 0)
				return fsl_usage_error("record", usage_text, "bad --duration '%s'", optarg);
			break;
		case 'W':
			min_wait_us = strtoll(optarg, &endp, 10);
			if (*endp || min_wait_us < 0)
				return fsl_usage_error("record", usage_text, "bad --min-wait '%s'", optarg);
			break;
		case 'R': {
			/* MB by default; K or M suffix; the ring is a power of two >= a page */
			double v = strtod(optarg, &endp);

			if (*endp == 'k' || *endp == 'K')
				ring_bytes = (uint64_t)(v * 1024), endp++;
			else if (*endp == 'm' || *endp == 'M' || !*endp)
				ring_bytes = (uint64_t)(v * 1048576), endp += !!*endp;
			if (*endp || v <= 0 || ring_bytes < 4096 || ring_bytes > (2ull << 30))
				return fsl_usage_error("record", usage_text, "bad --ring-size '%s' (4K to 2048M)", optarg);
			break;
		}
		case 'A': co.offcpu_all = 1; break;
		case 'T': co.force_raw_tp = 1; break;
		case 'C': co.force_classic = 1; break;
		case 'S': co.syscall_tp = 1; break;
		case 'v': r.verbose = 1; break;
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
			return fsl_bad_option("record", usage_text, "+m:d:e:p:o:fvh", lopts, argv);
		}
	}
	if (optind < argc)
		cmd = argv + optind;
	if (mount && dev)
		return fsl_usage_error("record", usage_text, "give -m or -d, not both");
	if (cmd && co.pid)
		return fsl_usage_error("record", usage_text, "give -p or a command, not both");
	if (!strcmp(out, "-"))
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

	if (mount || dev) {
		e = fsl_target_resolve(mount, dev, &t);
		if (e == -ENOENT && dev)
			return fsl_err(e, "cannot find '%s'", dev);
		if (e)
			return fsl_err(e, "cannot use '%s'", mount ? mount : dev);
		if (mount && strcmp(t.mount, mount)) {
			char real[4096];

			if (!realpath(mount, real) || strcmp(real, t.mount))
				fprintf(stderr, "fslens record: note: '%s' is inside the filesystem "
					"mounted at '%s'; recording that filesystem\n", mount,
					t.mount);
		}
		have_target = 1;
		is_ext4 = !strcmp(t.fstype, "ext4");
		if (!is_ext4) {
			uint32_t ext4_only = (1u << FSL_FAM_JOURNAL) | (1u << FSL_FAM_ALLOC);

			fprintf(stderr, "fslens record: %s is %s, not ext4: the journal and alloc "
				"families need ext4; still recording block, writeback, dirops, "
				"offcpu and proc\n", t.mount[0] ? t.mount : t.bdev,
				t.fstype[0] ? t.fstype : "not mounted");
			families &= ~ext4_only;
		}
		co.dev = t.dev;
		co.blkdev = t.blkdev;
	}
	co.families = families;
	co.follow = cmd != NULL;
	co.min_wait_ns = (uint64_t)min_wait_us * 1000;
	co.ring_bytes = ring_bytes;
	co.log = log_libbpf;
	co.log_ctx = &r.verbose;
	r.families = families;
	r.out = out;

	/* map memory is charged to the cgroup on new kernels; harmless elsewhere */
	{
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		setrlimit(RLIMIT_MEMLOCK, &rl);
	}

	/* dirops and off-CPU records carry their start time: order them here */
	r.ro = fsl_ordered__new(2000000000ull);
	if (!r.ro)
		return fsl_err(-ENOMEM, "cannot start");
	r.w = fsl_writer__open(out, &wo, &e);
	if (!r.w) {
		if (e == -EEXIST)
			fprintf(stderr, "fslens record: '%s' exists; use -f to overwrite it\n", out);
		else
			fprintf(stderr, "fslens record: cannot create '%s': %s\n", out,
				fsl_writer_strerror(e));
		fsl_ordered__free(r.ro);
		return 1;
	}

	{
		struct fsl_meta_sink sink = { r.w, sink_kv, sink_text, sink_bitmap };

		fsl_meta_host(&sink);
		if (have_target) {
			fsl_meta_target(&sink, &t);
			if (is_ext4) {
				int fd = open(t.mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

				e = fsl_meta_ext4(&sink, &t);
				if (e)
					fprintf(stderr, "fslens record: warning: cannot read the ext4 "
						"superblock of %s: %s\n", t.bdev, strerror(-e));
				if (fsl_meta_jbd2(&sink, &t, "start") == 0)
					fsl_writer__kv(r.w, FSL_KV_JBD2_INFO_START_NS, "%" PRId64, mono_ns());
				/*
				 * Reading mb_groups loads every group's buddy, so the
				 * model starts with all of them in memory, as stored.
				 */
				e = fsl_meta_mb_loaded(&sink, &t);
				if (e)
					fprintf(stderr, "fslens record: warning: cannot read "
						"/proc/fs/ext4/%s/mb_groups: %s\n", t.devname,
						strerror(-e));
				/* bitmaps after a sync, so they are the kernel's current state */
				if (fd >= 0) {
					syncfs(fd);
					close(fd);
				}
				e = fsl_meta_ext4_groups(&sink, t.bdev);
				if (e)
					fprintf(stderr, "fslens record: warning: cannot read the "
						"group descriptors of %s: %s\n", t.bdev,
						strerror(-e));
				e = fsl_meta_bitmaps(&sink, t.bdev, FSL_BITMAP_START);
				if (e)
					fprintf(stderr, "fslens record: warning: cannot read the "
						"bitmaps of %s: %s\n", t.bdev, strerror(-e));
			}
		}
	}

	r.c = fsl_collector__new(&co, &e);
	if (!r.c) {
		if (e == -ENOENT)
			fsl_err(e, "cannot load the probes (no kernel BTF, or none of the "
				"requested tracepoints exists)");
		else
			fsl_err(e, "cannot load the probes%s", r.verbose ? "" :
				" (-v shows libbpf's messages)");
		fsl_writer__abort(r.w);
		fsl_ordered__free(r.ro);
		unlink(out);
		return 1;
	}
	if (*fsl_collector__missing(r.c)) {
		fprintf(stderr, "fslens record: warning: tracepoints missing on this kernel "
			"(not recorded): %s\n", fsl_collector__missing(r.c));
		fsl_writer__kv(r.w, FSL_KV_MISSING_TP, "%s", fsl_collector__missing(r.c));
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (cmd) {
		size_t n = 0;

		for (i = 0; cmd[i] && n < sizeof(cmdline) - 2; i++)
			n += snprintf(cmdline + n, sizeof(cmdline) - n, "%s%s", i ? " " : "",
				      cmd[i]);
		child = spawn(cmd, &gate);
		if (child < 0) {
			rc = fsl_err(-errno, "cannot start '%s'", cmd[0]);
			goto out;
		}
		e = fsl_collector__track(r.c, child);
		if (e) {
			rc = fsl_err(e, "cannot track the command");
			goto out;
		}
	}
	e = fsl_collector__start(r.c);
	if (e) {
		rc = fsl_err(e, "cannot attach the probes%s", r.verbose ? "" :
			     " (-v shows libbpf's messages)");
		goto out;
	}
	t0 = mono_ns();
	if (have_target)
		disk_stat_kv(&r, &t, "start");
	fsl_writer__kv(r.w, FSL_KV_START_NS, "%" PRId64, t0);
	fsl_writer__kv(r.w, FSL_KV_PROBE_MODE, "tracepoint");
	fsl_writer__kv(r.w, FSL_KV_ATTACH, "%s (%s)", fsl_collector__mode(r.c),
		       fsl_collector__attach_counts(r.c));
	fsl_writer__kv(r.w, FSL_KV_FENTRY, "%s",
		       fsl_collector__fentry(r.c) ? "available (no fentry extras yet)" :
						    "refused by this kernel");
	fsl_writer__kv(r.w, FSL_KV_MIN_WAIT_US, "%lld", min_wait_us);
	fsl_writer__kv(r.w, FSL_KV_OFFCPU_STATES, "%s",
		       co.offcpu_all ? "all" : "uninterruptible");
	{
		char fams[256] = "";

		for (i = 0; i < FSL_FAM__MAX; i++)
			if (fsl_collector__families(r.c) & (1u << i))
				snprintf(fams + strlen(fams), sizeof(fams) - strlen(fams), "%s%s",
					 fams[0] ? "," : "", fsl_family_name(i));
		fsl_writer__kv(r.w, FSL_KV_FAMILIES, "%s", fams);
	}
	fsl_writer__kv(r.w, FSL_KV_RING_BYTES, "%llu", (unsigned long long)
		       (co.ring_bytes ? co.ring_bytes : FSL_COLLECTOR_RING_DEFAULT));
	if (co.pid)
		fsl_writer__kv(r.w, FSL_KV_PID, "%u", co.pid);
	if (cmd) {
		fsl_writer__kv(r.w, FSL_KV_COMMAND, "%s", cmdline);
		fsl_writer__kv(r.w, FSL_KV_ROOT_PID, "%d", (int)child);
	}
	fprintf(stderr, "fslens record: recording%s%s (probes: %s; fentry %s)%s\n",
		have_target ? " " : " every filesystem",
		have_target ? (t.mount[0] ? t.mount : t.bdev) : "", fsl_collector__mode(r.c),
		fsl_collector__fentry(r.c) ? "available, unused" : "refused",
		cmd ? "" : duration ? "" : "; Ctrl-C to stop");
	if (gate >= 0) {
		if (write(gate, "g", 1) != 1)
			rc = fsl_err(-errno, "cannot start the command");
		close(gate);
		gate = -1;
	}

	t_end = duration ? t0 + (int64_t)(duration * 1e9) : 0;
	last_flush = t0;
	while (!rc) {
		int n = fsl_collector__poll(r.c, 100, on_event, &r);

		if (r.werr)
			break;
		if (n < 0 && n != -EINTR) {
			rc = fsl_err(n, "reading the ring buffer");
			break;
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = -child;	/* reaped */
			break;
		}
		if (got_signal) {
			if (child > 0) {
				/* let the command finish on its own signal, then stop */
				kill(child, got_signal == SIGHUP ? SIGHUP : SIGTERM);
				got_signal = 0;
				continue;
			}
			break;
		}
		now = mono_ns();
		/*
		 * Crash safety: every second, write what the reorder buffer has
		 * released as complete chunks, so a SIGKILL loses at most the
		 * reorder window plus a second of events.
		 */
		if (now - last_flush >= FLUSH_NS) {
			last_flush = now;
			e = fsl_ordered__advance(r.ro, (uint64_t)now, write_event, &r);
			if (!e && !r.werr)
				e = fsl_writer__flush(r.w);
			else if (r.werr)
				e = r.werr;
			if (e) {
				r.werr = e;
				break;
			}
		}
		if (t_end && now >= t_end)
			break;
	}
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		child = -child;
	}

	/* the end state: flush the fs (recorded), take the journal's stats, detach */
	if (have_target && is_ext4 && !r.werr) {
		int fd = open(t.mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0) {
			syncfs(fd);
			close(fd);
		}
		fsl_collector__poll(r.c, 0, on_event, &r);
		{
			struct fsl_meta_sink sink = { r.w, sink_kv, sink_text, sink_bitmap };

			if (fsl_meta_jbd2(&sink, &t, "end") == 0)
				fsl_writer__kv(r.w, FSL_KV_JBD2_INFO_END_NS, "%" PRId64, mono_ns());
		}
	}
	if (have_target)
		disk_stat_kv(&r, &t, "end");
	/* the recording window ends where detaching begins */
	fsl_writer__kv(r.w, FSL_KV_END_NS, "%" PRId64, mono_ns());
	e = fsl_collector__stop(r.c, on_event, &r);
	if (e && !r.werr)
		fsl_err(e, "draining the ring buffer");
	if (!r.werr)
		fsl_ordered__flush(r.ro, write_event, &r);
	fsl_writer__kv(r.w, FSL_KV_LATE, "%llu", (unsigned long long)fsl_ordered__late(r.ro));
	/* tasks seen only after they exited: named from a later record, or never */
	fsl_writer__kv(r.w, FSL_KV_PROC_NAMED_LATE, "%llu", (unsigned long long)r.named_late);
	fsl_writer__kv(r.w, FSL_KV_PROC_UNNAMED, "%zu", r.ngone);
	if (r.werr)
		goto werr;
	if (have_target && is_ext4) {
		struct fsl_meta_sink sink = { r.w, sink_kv, sink_text, sink_bitmap };

		e = fsl_meta_bitmaps(&sink, t.bdev, FSL_BITMAP_END);
		if (e && e != -EOPNOTSUPP)
			fprintf(stderr, "fslens record: warning: cannot read the end bitmaps: %s\n",
				strerror(-e));
	}
	if (fsl_collector__lost(r.c, lost) == 0)
		for (i = 0; i < FSL_FAM__MAX; i++)
			if (lost[i])
				fsl_writer__lost(r.w, i, lost[i]);
	e = write_symbols(&r, &nstacks);
	if (e)
		fprintf(stderr, "fslens record: warning: cannot symbolize kernel stacks: %s\n",
			strerror(-e));
	e = fsl_writer__close(r.w);
	r.w = NULL;
	if (e) {
		r.werr = e;
		goto werr;
	}

	{
		double secs = (mono_ns() - t0) / 1e9;
		struct stat st;
		uint64_t bytes = stat(out, &st) == 0 ? (uint64_t)st.st_size : 0;

		fsl_fmt_bytes(sz, sizeof(sz), bytes);
		fprintf(stderr, "fslens record: %.1f s, %" PRIu64 " events, %s (%.1f bytes/event)"
			" -> %s\n", secs, r.nevents, sz, r.nevents ? (double)bytes / r.nevents : 0.0,
			out);
		fprintf(stderr, "  %-10s %12s %10s\n", "family", "events", "lost");
		for (i = 0; i < FSL_FAM__MAX; i++) {
			if (!(families & (1u << i)))
				continue;
			fprintf(stderr, "  %-10s %12" PRIu64 " %10" PRIu64 "%s\n",
				fsl_family_name(i), r.events[i], lost[i],
				lost[i] ? "  (ring full: try a larger --ring-size)" : "");
		}
		if (nstacks)
			fprintf(stderr, "  %d kernel stacks symbolized\n", nstacks);
	}
	goto out;

werr:
	fprintf(stderr, "fslens record: cannot write '%s': %s; recording stopped, the chunks "
		"written so far stay readable\n", out, strerror(-r.werr));
	if (r.w) {
		fsl_writer__abort(r.w);
		r.w = NULL;
	}
	rc = 1;
out:
	if (gate >= 0)
		close(gate);	/* the child exits: the recorder never started */
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		child = -child;
	}
	fsl_collector__free(r.c);
	if (r.w)
		fsl_writer__abort(r.w);
	fsl_ordered__free(r.ro);
	free(r.tids.v);
	free(r.gone_tids.v);
	free(r.gone);
	free(r.stacks.v);
	free(r.ips.v);
	if (rc)
		return rc;
	if (cmd) {
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
	}
	return 0;
}
