// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads of one process with data operations of their own, for the
 * --tid tests (tests/live/record_filters.sh): the main thread and a second
 * one each write 50 x 4 KiB (pwrite) to a file of their own in DIR, then
 * read them back (pread), once GOFILE exists. It prints at start
 *	main TID
 *	worker TID
 * (the worker's tid is not the process's pid), and at the end what each
 * did, as the report's process table counts it:
 *	main|worker READS READ_BYTES WRITES WRITE_BYTES
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define CALLS	50

static const char *dir, *go;
static pthread_barrier_t ready;

static void work(const char *who)
{
	static char buf[4096];
	char path[4096];
	struct stat st;
	int fd, i;

	while (stat(go, &st))
		usleep(20000);
	snprintf(path, sizeof(path), "%s/thr_%s", dir, who);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "threads_work: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (i = 0; i < CALLS; i++)
		if (pwrite(fd, buf, sizeof(buf), sizeof(buf) * i) != sizeof(buf))
			exit(1);
	for (i = 0; i < CALLS; i++)
		if (pread(fd, buf, sizeof(buf), sizeof(buf) * i) != sizeof(buf))
			exit(1);
	close(fd);
}

static void *worker(void *arg)
{
	printf("worker %ld\n", (long)syscall(SYS_gettid));
	pthread_barrier_wait(&ready);
	work("worker");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 3) {
		fprintf(stderr, "usage: threads_work DIR GOFILE\n");
		return 2;
	}
	dir = argv[1];
	go = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("main %ld\n", (long)syscall(SYS_gettid));
	pthread_barrier_init(&ready, NULL, 2);
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	pthread_barrier_wait(&ready);
	work("main");
	pthread_join(t, NULL);
	printf("main %d %d %d %d\n", CALLS, CALLS * 4096, CALLS, CALLS * 4096);
	printf("worker %d %d %d %d\n", CALLS, CALLS * 4096, CALLS, CALLS * 4096);
	return 0;
}
