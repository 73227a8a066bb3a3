// SPDX-License-Identifier: GPL-2.0
/*
 * Trace format benchmark: writer and reader speed, bytes per event and peak
 * memory on the synthetic block-I/O + journal mix (tests/unit/trace_gen.h).
 *
 *   trace_bench [-n EVENTS]... [-d DIR] [-k] [-z LEVEL]
 *   (default: 1,000,000 then 100,000,000 events, in /tmp)
 *
 * The writer and the reader each run in a child process so that each one's
 * peak RSS (getrusage ru_maxrss) is its own. The writer is fed from a fixed
 * block of 262144 pre-generated events, replayed with shifted timestamps, so
 * its figure excludes event generation and its memory does not grow with N.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fslens/trace.h"
#include "trace_gen.h"

#define POOL 262144
#define RREPS_MAX 10	/* reads of a trace of <= 10 M events */

struct result {
	double secs, cpu;
	long maxrss_kb, base_kb;	/* peak, and peak before the measured part */
	uint64_t events, check;
	int err;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int zlevel;

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void do_write(const char *path, uint64_t n, struct result *res)
{
	unsigned char *pool = malloc((size_t)POOL * 128);
	uint32_t *off = malloc(POOL * sizeof(*off));
	struct fsl_writer *w;
	struct tg_mix m;
	uint64_t i, span, shift = 0;
	size_t used = 0;
	unsigned int k;
	double t0;
	int err = 0;

	if (!pool || !off) {
		res->err = -ENOMEM;
		return;
	}
	tg_mix_init(&m, 1);
	for (k = 0; k < POOL; k++) {
		const struct fsl_hdr *h = tg_mix_next(&m, pool + used);

		off[k] = used;
		used += (h->size + 7) & ~7u;
	}
	span = ((struct fsl_hdr *)(pool + off[POOL - 1]))->ts -
	       ((struct fsl_hdr *)pool)->ts + 10000;
	{
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		res->base_kb = ru.ru_maxrss;
	}
	t0 = now();
	res->cpu = cpu_now();
	w = fsl_writer__open(path, &(struct fsl_writer_opts){ .force = 1, .zstd_level = zlevel }, &err);
	if (!w) {
		res->err = err;
		return;
	}
	fsl_writer__kv(w, FSL_KV_HOSTNAME, "bench");
	for (i = 0, k = 0; i < n && !err; i++) {
		struct fsl_hdr *h = (struct fsl_hdr *)(pool + off[k]);

		h->ts += shift;
		err = fsl_writer__event(w, h);
		h->ts -= shift;
		if (++k == POOL) {
			k = 0;
			shift += span;
		}
	}
	if (!err)
		err = fsl_writer__close(w);
	else
		fsl_writer__abort(w);
	res->secs = now() - t0;
	res->events = i;
	res->err = err;
}

static void do_read(const char *path, struct result *res)
{
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t n = 0, sum = 0;
	double t0 = now();
	int err = 0, rc;

	res->cpu = cpu_now();
	r = fsl_reader__open(path, NULL, &err);
	if (!r) {
		res->err = err;
		return;
	}
	while ((rc = fsl_reader__next(r, &ev)) == 1) {
		n++;
		sum += ev->ts ^ ev->type;	/* touch every record */
	}
	res->secs = now() - t0;
	res->events = n;
	res->check = sum;
	res->err = rc < 0 ? rc : (int)fsl_reader__nwarnings(r) ? -EIO : 0;
	fsl_reader__close(r);
}

/* Run fn in a child; its result and its own peak RSS come back through a pipe. */
static int in_child(struct result *res, int write_mode, const char *path, uint64_t n)
{
	int fd[2];
	pid_t pid;
	struct rusage ru;
	int st;

	if (pipe(fd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct result r = { 0 };

		close(fd[0]);
		if (write_mode)
			do_write(path, n, &r);
		else
			do_read(path, &r);
		getrusage(RUSAGE_SELF, &ru);
		r.maxrss_kb = ru.ru_maxrss;
		r.cpu = cpu_now() - r.cpu;	/* do_*() stored the start */
		if (write(fd[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], res, sizeof(*res)) != sizeof(*res))
		res->err = -EIO;
	close(fd[0]);
	waitpid(pid, &st, 0);
	return res->err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int run_one(const char *dir, uint64_t n, int keep)
{
	struct result w = { 0 }, r = { 0 };
	double rcpu[RREPS_MAX];
	long rss_max = 0;
	char path[512];
	struct stat sb;
	int reps, rreps, i;

	snprintf(path, sizeof(path), "%s/fslens-bench-%d.trace", dir, (int)getpid());
	/*
	 * Best of `reps` writes and `rreps` reads: the machine may be shared,
	 * and a read is short (a fraction of a second at 5 M events), so one
	 * burst of other load can halve a single figure. The median of the
	 * reads is printed too.
	 */
	reps = n <= 10000000 ? 3 : 1;
	rreps = n <= 10000000 ? RREPS_MAX : 3;
	for (i = 0; i < reps; i++) {
		struct result t = { 0 };

		if (in_child(&t, 1, path, n)) {
			fprintf(stderr, "trace_bench: write %s: %s\n", path, strerror(-t.err));
			unlink(path);
			return 1;
		}
		if (!i || t.cpu < w.cpu)
			w = t;
	}
	if (stat(path, &sb)) {
		perror(path);
		return 1;
	}
	for (i = 0; i < rreps; i++) {
		struct result t = { 0 };

		if (in_child(&t, 0, path, 0) || t.events != n) {
			fprintf(stderr, "trace_bench: read %s: %s (%llu of %llu events)\n", path,
				strerror(t.err ? -t.err : EIO), (unsigned long long)t.events,
				(unsigned long long)n);
			unlink(path);
			return 1;
		}
		if (!i || t.cpu < r.cpu)
			r = t;
		rcpu[i] = t.cpu;
		if (t.maxrss_kb > rss_max)
			rss_max = t.maxrss_kb;
	}
	qsort(rcpu, rreps, sizeof(rcpu[0]), cmp_double);
	printf("trace %llu events (block I/O + journal mix, zstd level %d): file %.1f MB, "
	       "%.2f bytes/event; write best of %d, read best of %d\n", (unsigned long long)n,
	       zlevel ? zlevel : 1, sb.st_size / 1e6, (double)sb.st_size / n, reps, rreps);
	/* CPU time is the one-core figure; wall time suffers from other load */
	printf("  write  %6.2f M events/s per CPU-second (%.2f s CPU, %.2f s wall)   "
	       "peak RSS %6.1f MiB (%.1f MiB above the input pool)\n", n / w.cpu / 1e6, w.cpu,
	       w.secs, w.maxrss_kb / 1024.0, (w.maxrss_kb - w.base_kb) / 1024.0);
	printf("  read   %6.2f M events/s per CPU-second (%.2f s CPU, %.2f s wall)   "
	       "peak RSS %6.1f MiB (largest of the %d)\n", n / r.cpu / 1e6, r.cpu, r.secs,
	       rss_max / 1024.0, rreps);
	printf("  read median %6.2f M events/s per CPU-second (%.3f s CPU)\n",
	       n / rcpu[rreps / 2] / 1e6, rcpu[rreps / 2]);
	fflush(stdout);
	if (!keep)
		unlink(path);
	else
		printf("  kept %s\n", path);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp";
	uint64_t sizes[8] = { 1000000, 100000000 };
	unsigned int nsizes = 2, given = 0, i;
	int c, keep = 0;

	while ((c = getopt(argc, argv, "n:d:kz:")) != -1) {
		switch (c) {
		case 'n':
			if (given < 8)
				sizes[given++] = strtoull(optarg, NULL, 10);
			nsizes = given;
			break;
		case 'd': dir = optarg; break;
		case 'k': keep = 1; break;
		case 'z': zlevel = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: trace_bench [-n EVENTS]... [-d DIR] [-k] [-z ZSTD_LEVEL]\n"
				"  default: 1000000 and 100000000 events\n");
			return 2;
		}
	}
	for (i = 0; i < nsizes; i++)
		if (run_one(dir, sizes[i], keep))
			return 1;
	return 0;
}
