// SPDX-License-Identifier: GPL-2.0
/*
 * create_storm DIR N OUT: create N empty files DIR/f0000000.. (open with
 * O_CREAT, close), then write this process's own figures to OUT and exit at
 * once: "wall_ns oncpu_ns runq_ns oncpu0_ns runq0_ns" - CLOCK_MONOTONIC from
 * the start of main to now, /proc/self/schedstat now (time on the CPU, time
 * waiting on a run queue: the kernel's own account the whole-time test
 * checks against), and the same at the start of main (what the process's
 * life before main - its fork and exec - holds of both).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned long long mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

static int schedstat(unsigned long long *run, unsigned long long *wait)
{
	FILE *f = fopen("/proc/self/schedstat", "r");
	int ok = f && fscanf(f, "%llu %llu", run, wait) == 2;

	if (f)
		fclose(f);
	if (!ok)
		perror("/proc/self/schedstat");
	return ok;
}

int main(int argc, char **argv)
{
	unsigned long long t0 = mono(), run = 0, wait = 0, run0 = 0, wait0 = 0;
	char path[4096];
	long i, n;
	FILE *f;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: create_storm DIR N OUT\n");
		return 2;
	}
	if (!schedstat(&run0, &wait0))
		return 1;
	n = atol(argv[2]);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%07ld", argv[1], i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		close(fd);
	}
	if (!schedstat(&run, &wait))
		return 1;
	f = fopen(argv[3], "w");
	if (!f) {
		perror(argv[3]);
		return 1;
	}
	fprintf(f, "%llu %llu %llu %llu %llu\n", mono() - t0, run, wait, run0, wait0);
	if (fclose(f))
		return 1;
	_exit(0);
}
