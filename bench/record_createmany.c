// SPDX-License-Identifier: GPL-2.0
/*
 * createmany-style load for bench/record.sh: create N empty files in one
 * directory (open O_CREAT|O_EXCL + close), then sync; print the elapsed
 * seconds of the whole thing (creates + sync) and the CPU seconds this
 * process used (user + system: where in-kernel probe costs land) on stdout.
 * With CREATEMANY_SYNCFS set, syncfs(2) of the directory's filesystem
 * instead of sync(2): a workload that waits on no other filesystem.
 */
#define _GNU_SOURCE	/* syncfs */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	char name[64];
	long i, n;

	if (argc != 3) {
		fprintf(stderr, "usage: createmany DIR N\n");
		return 2;
	}
	n = atol(argv[2]);
	if (chdir(argv[1])) {
		perror(argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		int fd;

		snprintf(name, sizeof(name), "f%ld", i);
		fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0) {
			perror(name);
			return 1;
		}
		close(fd);
	}
	if (getenv("CREATEMANY_SYNCFS")) {
		int d = open(".", O_RDONLY | O_DIRECTORY);

		if (d < 0 || syncfs(d)) {
			perror("syncfs");
			return 1;
		}
		close(d);
	} else {
		sync();
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_SELF, &ru);
	printf("%.6f %.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6);
	return 0;
}
