// SPDX-License-Identifier: GPL-2.0
/*
 * A paced filesystem-operation load for bench/monitor.sh: P processes each
 * loop over stat(2) and open(2)+close(2) on files of DIR, at RATE system
 * calls a second in all, for SECONDS; prints the rate reached ("ops/s N").
 * The calls are the path calls the monitor follows (stat, open), cheap
 * enough on a warm cache that two processes reach about 100k a second.
 *
 *	fsops_load DIR RATE SECONDS [PROCS]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILES	64
#define BATCH	500

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void run(const char *dir, double rate, double secs, unsigned long *count)
{
	char path[FILES][4200];
	double t0 = now(), t;
	unsigned long n = 0;
	struct stat st;
	int i, fd;

	for (i = 0; i < FILES; i++)
		snprintf(path[i], sizeof(path[i]), "%s/f%d", dir, i);
	while ((t = now()) - t0 < secs) {
		/* paced: a batch, then sleep until the schedule catches up */
		for (i = 0; i < BATCH; i += 2) {
			stat(path[(n / 2) % FILES], &st);
			fd = open(path[(n / 2) % FILES], O_RDONLY);
			if (fd >= 0)
				close(fd);
			n += 2;
		}
		t = t0 + n / rate - now();
		if (t > 0) {
			struct timespec d = { (time_t)t, (long)((t - (time_t)t) * 1e9) };

			nanosleep(&d, NULL);
		}
	}
	*count = n;
}

int main(int argc, char **argv)
{
	unsigned long *counts, total = 0;
	double rate, secs, t0;
	int procs, i, fd;
	char p[4200];

	if (argc < 4) {
		fprintf(stderr, "usage: fsops_load DIR RATE SECONDS [PROCS]\n");
		return 2;
	}
	rate = atof(argv[2]);
	secs = atof(argv[3]);
	procs = argc > 4 ? atoi(argv[4]) : 2;
	if (rate <= 0 || secs <= 0 || procs <= 0)
		return 2;
	for (i = 0; i < FILES; i++) {
		snprintf(p, sizeof(p), "%s/f%d", argv[1], i);
		fd = open(p, O_CREAT | O_WRONLY, 0644);
		if (fd < 0) {
			fprintf(stderr, "fsops_load: %s: %s\n", p, strerror(errno));
			return 1;
		}
		close(fd);
	}
	counts = mmap(NULL, procs * sizeof(*counts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		return 1;
	t0 = now();
	for (i = 0; i < procs; i++)
		if (fork() == 0) {
			run(argv[1], rate / procs, secs, &counts[i]);
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	for (i = 0; i < procs; i++)
		total += counts[i];
	printf("ops/s %.0f\n", total / (now() - t0));
	return 0;
}
