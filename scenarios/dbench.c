// SPDX-License-Identifier: GPL-2.0
/*
 * dbench: N client processes replay a file-server mix (create and write,
 * read, stat, rename, unlink, append + fsync) on their own working set for
 * T seconds; throughput is bytes moved per second. This is the workload whose
 * throughput moved 30-40% with writeback changes: lots of dirty data, some
 * fsync, many small metadata operations. real=1 runs Debian's dbench with
 * its NetBench load file instead, when it is installed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "scenario.h"

struct counters {
	uint64_t ops;
	uint64_t bytes;
	int err;
	char what[200];
};

static int client(struct fsl_wl *wl, unsigned int id, struct counters *c, uint64_t deadline)
{
	uint64_t files = fsl_params__size(wl->p, "files");
	uint64_t max = fsl_params__size(wl->p, "max");
	uint64_t seed = (fsl_params__size(wl->p, "seed") + id + 1) * 0x9E3779B97F4A7C15ULL;
	static char buf[65536];
	char dir[4096], p[4200], q[4200];
	struct stat st;
	ssize_t rw;
	int fd;

	if (!files)
		files = 1;
	if (max < 4096)
		max = 4096;
	memset(buf, 'd' + id, sizeof(buf));
	snprintf(dir, sizeof(dir), "%s/dbench/c%03u", wl->dir, id);
	if (mkdir(dir, 0755) && errno != EEXIST)
		goto fail;
	while (!*wl->stop && fsl_now_ns() < deadline) {
		uint64_t k = fsl_rand(&seed) % files, op = fsl_rand(&seed) % 100;

		snprintf(p, sizeof(p), "%s/f%04llu", dir, (unsigned long long)k);
		if (op < 35) {			/* write a whole file */
			uint64_t size = 4096 + fsl_rand(&seed) % (max - 4096 + 1);

			fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0)
				goto fail;
			while (size) {
				rw = write(fd, buf, size > sizeof(buf) ? sizeof(buf) : size);
				if (rw <= 0) {
					close(fd);
					goto fail;
				}
				size -= rw;
				c->bytes += rw;
			}
			close(fd);
		} else if (op < 65) {		/* read it back */
			fd = open(p, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				if (errno != ENOENT)
					goto fail;
			} else {
				while ((rw = read(fd, buf, sizeof(buf))) > 0)
					c->bytes += rw;
				close(fd);
			}
		} else if (op < 80) {		/* stat */
			if (stat(p, &st) && errno != ENOENT)
				goto fail;
		} else if (op < 88) {		/* rename to another slot */
			snprintf(q, sizeof(q), "%s/f%04llu", dir,
				 (unsigned long long)(fsl_rand(&seed) % files));
			if (rename(p, q) && errno != ENOENT)
				goto fail;
		} else if (op < 94) {		/* unlink */
			if (unlink(p) && errno != ENOENT)
				goto fail;
		} else {			/* append and fsync */
			fd = open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
			if (fd < 0)
				goto fail;
			rw = write(fd, buf, 4096);
			if (rw != 4096 || fsync(fd)) {
				close(fd);
				goto fail;
			}
			c->bytes += rw;
			close(fd);
		}
		__atomic_add_fetch(&c->ops, 1, __ATOMIC_RELAXED);
	}
	return 0;
fail:
	c->err = errno ? errno : EIO;
	snprintf(c->what, sizeof(c->what), "client %u: %.150s", id, p);
	return 1;
}

static int run_real(struct fsl_wl *wl, uint64_t clients, uint64_t secs)
{
	static const char *loadfiles[] = { "/usr/share/dbench/client.txt",
					   "/usr/share/dbench4/client.txt", NULL };
	const char *load = NULL;
	char dir[4096], targ[32], carg[32], line[512];
	double mbs = 0;
	int pfd[2], status, i;
	FILE *f;
	pid_t pid;

	for (i = 0; loadfiles[i]; i++)
		if (!access(loadfiles[i], R_OK))
			load = loadfiles[i];
	if (access("/usr/bin/dbench", X_OK) || !load)
		return fsl_wl__fail(wl, -ENOENT, "dbench: real=1 needs Debian's dbench "
				    "(apt-get install dbench)");
	snprintf(dir, sizeof(dir), "%s/dbench", wl->dir);
	snprintf(targ, sizeof(targ), "%llu", (unsigned long long)secs);
	snprintf(carg, sizeof(carg), "%llu", (unsigned long long)clients);
	if (pipe2(pfd, O_CLOEXEC))
		return fsl_wl__fail(wl, errno, "pipe");
	fsl_wl__begin(wl, "run");
	pid = fork();
	if (pid < 0)
		return fsl_wl__fail(wl, errno, "fork");
	if (pid == 0) {
		dup2(pfd[1], 1);
		execl("/usr/bin/dbench", "dbench", "-D", dir, "-t", targ, "-c", load, carg,
		      (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Throughput ", 11))
			mbs = strtod(line + 11, NULL);
	if (f)
		fclose(f);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		if (*wl->stop)
			kill(pid, SIGTERM);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(wl->errmsg, sizeof(wl->errmsg), "/usr/bin/dbench exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return *wl->stop ? -EINTR : -EIO;
	}
	if (mbs <= 0) {
		snprintf(wl->errmsg, sizeof(wl->errmsg), "no 'Throughput' line from /usr/bin/dbench");
		return -EIO;
	}
	fsl_wl__end(wl, 0, (uint64_t)(mbs * 1e6 * secs));
	return 0;
}

int fsl_scn_dbench(struct fsl_wl *wl)
{
	uint64_t clients = fsl_params__size(wl->p, "clients");
	uint64_t secs = fsl_params__size(wl->p, "seconds");
	uint64_t deadline, ops, bytes, tick = fsl_params__size(wl->p, "tick_ms");
	struct counters *c;
	char dir[4096];
	unsigned int i, running;
	pid_t *pids;
	int err = 0, status;

	if (!clients)
		clients = 1;
	snprintf(dir, sizeof(dir), "%s/dbench", wl->dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return fsl_wl__fail(wl, errno, "mkdir '%s'", dir);
	if (fsl_params__bool(wl->p, "real"))
		return run_real(wl, clients, secs);

	c = mmap(NULL, clients * sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	pids = calloc(clients, sizeof(*pids));
	if (c == MAP_FAILED || !pids) {
		free(pids);
		return fsl_wl__fail(wl, -ENOMEM, "dbench: %llu clients", (unsigned long long)clients);
	}
	fsl_wl__begin(wl, "run");
	deadline = fsl_now_ns() + secs * 1000000000ull;
	for (i = 0; i < clients; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			err = fsl_wl__fail(wl, errno, "fork");
			break;
		}
		if (pids[i] == 0)
			_exit(client(wl, i, &c[i], deadline));
	}
	running = i;
	if (!tick)
		tick = 100;
	while (running) {
		struct timespec ts = { tick / 1000, (tick % 1000) * 1000000 };
		pid_t pid;

		nanosleep(&ts, NULL);
		for (ops = 0, i = 0; i < clients; i++)
			ops += __atomic_load_n(&c[i].ops, __ATOMIC_RELAXED);
		if (wl->ops && wl->ops->tick && wl->cur)
			wl->ops->tick(wl, wl->cur, fsl_now_ns(), ops);
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			running--;
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				if (!err)
					err = -EIO;
		}
		if (pid < 0 && errno == ECHILD)
			break;
	}
	for (ops = bytes = 0, i = 0; i < clients; i++) {
		ops += c[i].ops;
		bytes += c[i].bytes;
		if (c[i].err && err == -EIO)
			err = fsl_wl__fail(wl, c[i].err, "dbench %s", c[i].what);
	}
	if (err == -EIO && !wl->errmsg[0])
		snprintf(wl->errmsg, sizeof(wl->errmsg), "dbench: a client was killed");
	if (!err && *wl->stop)
		err = fsl_wl__fail(wl, -EINTR, "interrupted");
	if (!err)
		err = fsl_wl__sync(wl);
	if (!err)
		fsl_wl__end(wl, ops, bytes);
	munmap(c, clients * sizeof(*c));
	free(pids);
	return err;
}
