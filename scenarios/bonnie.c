// SPDX-License-Identifier: GPL-2.0
/*
 * bonnie: bonnie++'s small-file test. N files spread over M directories,
 * sizes drawn in [min, max]; created, read and deleted first in sequence
 * (numeric order, read in readdir order), then in random order. A read is
 * what bonnie++'s "Read" column times: stat the file, then read its data
 * (open, read to the end, close), so the inode-to-data distance shows.
 * runs=R repeats it on the same filesystem, so the second run works on an
 * aged one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scenario.h"

struct bon {
	struct fsl_wl *wl;
	char top[4096];
	uint64_t n, dirs, min, max;
	uint32_t *order;
	char *buf;
};

static void path_of(struct bon *b, uint64_t i, char *p, size_t len)
{
	snprintf(p, len, "%s/d%04llu/%010llu", b->top, (unsigned long long)(i % b->dirs),
		 (unsigned long long)i);
}

static int create_one(struct bon *b, uint64_t i, uint64_t *seed, uint64_t *bytes)
{
	char p[4200];
	uint64_t size = b->min;
	ssize_t w;
	int fd;

	if (b->max > b->min)
		size += fsl_rand(seed) % (b->max - b->min + 1);
	path_of(b, i, p, sizeof(p));
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return fsl_wl__fail(b->wl, errno, "create '%s'", p);
	while (size) {
		size_t chunk = size > 65536 ? 65536 : size;

		w = write(fd, b->buf, chunk);
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			close(fd);
			return fsl_wl__fail(b->wl, e, "write '%s'", p);
		}
		size -= w;
		*bytes += w;
	}
	if (close(fd))
		return fsl_wl__fail(b->wl, errno, "close '%s'", p);
	return 0;
}

static int phase_create(struct bon *b, const char *name, int random, uint64_t *seed)
{
	uint64_t i, bytes = 0;
	int err;

	fsl_wl__begin(b->wl, name);
	for (i = 0; i < b->n; i++) {
		if (*b->wl->stop)
			return fsl_wl__fail(b->wl, -EINTR, "interrupted");
		if ((err = create_one(b, random ? b->order[i] : i, seed, &bytes)))
			return err;
		fsl_wl__progress(b->wl, i + 1);
	}
	if ((err = fsl_wl__sync(b->wl)))
		return err;
	fsl_wl__end(b->wl, b->n, bytes);
	return 0;
}

/* stat, then read the whole file: its data count in *bytes. */
static int read_one(struct bon *b, int dfd, const char *name, const char *what, uint64_t *bytes)
{
	struct stat st;
	ssize_t r;
	int fd;

	if (fstatat(dfd, name, &st, 0))
		return fsl_wl__fail(b->wl, errno, "stat '%s'", what);
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fsl_wl__fail(b->wl, errno, "open '%s'", what);
	while ((r = read(fd, b->buf, 65536)) > 0)
		*bytes += r;
	if (r < 0) {
		int e = errno;

		close(fd);
		return fsl_wl__fail(b->wl, e, "read '%s'", what);
	}
	close(fd);
	return 0;
}

static int phase_stat_seq(struct bon *b, const char *name)
{
	char p[4200];
	uint64_t d, ops = 0, bytes = 0;
	struct dirent *de;
	DIR *dir;

	fsl_wl__begin(b->wl, name);
	for (d = 0; d < b->dirs; d++) {
		snprintf(p, sizeof(p), "%s/d%04llu", b->top, (unsigned long long)d);
		dir = opendir(p);
		if (!dir)
			return fsl_wl__fail(b->wl, errno, "opendir '%s'", p);
		while ((de = readdir(dir))) {
			if (de->d_name[0] == '.')
				continue;
			int e = read_one(b, dirfd(dir), de->d_name, de->d_name, &bytes);

			if (e) {
				closedir(dir);
				return e;
			}
			ops++;
			fsl_wl__progress(b->wl, ops);
		}
		closedir(dir);
		if (*b->wl->stop)
			return fsl_wl__fail(b->wl, -EINTR, "interrupted");
	}
	if (ops != b->n)
		return fsl_wl__fail(b->wl, -EIO, "bonnie: found %llu files, expected %llu",
				    (unsigned long long)ops, (unsigned long long)b->n);
	fsl_wl__end(b->wl, ops, bytes);
	return 0;
}

static int phase_each(struct bon *b, const char *name, int random, int del)
{
	char p[4200];
	uint64_t i, bytes = 0;
	int err;

	fsl_wl__begin(b->wl, name);
	for (i = 0; i < b->n; i++) {
		if (*b->wl->stop)
			return fsl_wl__fail(b->wl, -EINTR, "interrupted");
		path_of(b, random ? b->order[i] : i, p, sizeof(p));
		if (del && unlink(p))
			return fsl_wl__fail(b->wl, errno, "unlink '%s'", p);
		if (!del && (err = read_one(b, AT_FDCWD, p, p, &bytes)))
			return err;
		fsl_wl__progress(b->wl, i + 1);
	}
	if (del && (err = fsl_wl__sync(b->wl)))
		return err;
	fsl_wl__end(b->wl, b->n, bytes);
	return 0;
}

static void shuffle(struct bon *b, uint64_t *seed)
{
	uint64_t i;

	for (i = 0; i < b->n; i++)
		b->order[i] = i;
	for (i = b->n; i > 1; i--) {
		uint64_t j = fsl_rand(seed) % i;
		uint32_t t = b->order[i - 1];

		b->order[i - 1] = b->order[j];
		b->order[j] = t;
	}
}

int fsl_scn_bonnie(struct fsl_wl *wl)
{
	struct bon b = { .wl = wl };
	uint64_t runs = fsl_params__size(wl->p, "runs"), r, d, seed;
	char p[4200];
	int err = 0;

	b.n = fsl_params__size(wl->p, "n");
	b.dirs = fsl_params__size(wl->p, "dirs");
	b.min = fsl_params__size(wl->p, "min");
	b.max = fsl_params__size(wl->p, "max");
	if (!b.dirs)
		b.dirs = 1;
	if (!runs)
		runs = 1;
	if (b.max < b.min)
		return fsl_wl__fail(wl, -EINVAL, "bonnie: max (%llu) < min (%llu)",
				    (unsigned long long)b.max, (unsigned long long)b.min);
	snprintf(b.top, sizeof(b.top), "%s/bonnie", wl->dir);
	b.order = malloc(b.n * sizeof(*b.order) + 1);
	b.buf = malloc(65536);
	if (!b.order || !b.buf) {
		err = fsl_wl__fail(wl, -ENOMEM, "bonnie: %llu files", (unsigned long long)b.n);
		goto out;
	}
	memset(b.buf, 'b', 65536);
	seed = fsl_params__size(wl->p, "seed") * 0x9E3779B97F4A7C15ULL + 7;
	if (mkdir(b.top, 0755) && errno != EEXIST) {
		err = fsl_wl__fail(wl, errno, "mkdir '%s'", b.top);
		goto out;
	}
	for (d = 0; d < b.dirs; d++) {
		snprintf(p, sizeof(p), "%s/d%04llu", b.top, (unsigned long long)d);
		if (mkdir(p, 0755) && errno != EEXIST) {
			err = fsl_wl__fail(wl, errno, "mkdir '%s'", p);
			goto out;
		}
	}
	for (r = 1; r <= runs && !err; r++) {
		wl->run = r;
		shuffle(&b, &seed);
		if ((err = phase_create(&b, "seq_create", 0, &seed)) ||
		    (err = fsl_wl__drop_caches(wl)) ||
		    (err = phase_stat_seq(&b, "seq_read")) ||
		    (err = phase_each(&b, "seq_delete", 0, 1)) ||
		    (err = phase_create(&b, "rand_create", 1, &seed)) ||
		    (err = fsl_wl__drop_caches(wl)) ||
		    (err = phase_each(&b, "rand_read", 1, 0)) ||
		    (err = phase_each(&b, "rand_delete", 1, 1)))
			break;
	}
out:
	free(b.order);
	free(b.buf);
	return err;
}
