// SPDX-License-Identifier: GPL-2.0
/*
 * copytree: copy a tree of mixed small and large files onto the fs under
 * test one file at a time, in tar order (sorted names, depth first), then
 * sync. With delalloc the blocks are chosen at writeback, after many files
 * are dirty; with nodelalloc at write time. The source tree is built by
 * fsl_copytree_prepare() before recording starts, off the fs under test,
 * and deleted by fsl_copytree_remove() after.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scenario.h"
#include "copytree.h"

#define MARK ".fslens-src"

static uint64_t file_size(const struct fsl_params *p, uint64_t i, uint64_t *seed)
{
	uint64_t large = fsl_params__size(p, "large");
	uint64_t smax = fsl_params__size(p, "small_max");
	uint64_t lmax = fsl_params__size(p, "large_max");
	uint64_t r = fsl_rand(seed);

	if (!smax)
		smax = 1;
	if (large && i % large == large - 1 && lmax > smax)
		return smax + 1 + r % (lmax - smax);
	return 1 + r % smax;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		buf += w;
		len -= w;
	}
	return 0;
}

int fsl_copytree_prepare(struct fsl_wl *wl, const char *src)
{
	uint64_t files = fsl_params__size(wl->p, "files");
	uint64_t dirs = fsl_params__size(wl->p, "dirs");
	uint64_t seed = fsl_params__size(wl->p, "seed") * 0x9E3779B97F4A7C15ULL + 3, i, j, size;
	char p[4200], want[512], have[512];
	uint64_t *buf;
	int fd, err = 0;
	ssize_t n;

	if (!dirs)
		dirs = 1;
	/* the marker holds the shape: an existing tree of another shape is rebuilt */
	snprintf(want, sizeof(want), "files=%s dirs=%s large=%s large_max=%s small_max=%s seed=%s\n",
		 fsl_params__get(wl->p, "files"), fsl_params__get(wl->p, "dirs"),
		 fsl_params__get(wl->p, "large"), fsl_params__get(wl->p, "large_max"),
		 fsl_params__get(wl->p, "small_max"), fsl_params__get(wl->p, "seed"));
	snprintf(p, sizeof(p), "%s/" MARK, src);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, have, sizeof(have) - 1);
		close(fd);
		if (n > 0 && (have[n] = 0, !strcmp(have, want)))
			return 0;
		return fsl_wl__fail(wl, -EEXIST, "copytree: '%s' holds a source tree of another "
				    "shape; remove it or choose another src=", src);
	}
	if (mkdir(src, 0755) && errno != EEXIST)
		return fsl_wl__fail(wl, errno, "mkdir '%s'", src);
	buf = malloc(1 << 20);
	if (!buf)
		return fsl_wl__fail(wl, -ENOMEM, "copytree: buffer");
	for (i = 0; i < dirs; i++) {
		snprintf(p, sizeof(p), "%s/d%04llu", src, (unsigned long long)i);
		if (mkdir(p, 0755) && errno != EEXIST) {
			err = fsl_wl__fail(wl, errno, "mkdir '%s'", p);
			goto out;
		}
	}
	for (i = 0; i < files && !err; i++) {
		if (*wl->stop) {
			err = fsl_wl__fail(wl, -EINTR, "interrupted");
			break;
		}
		size = file_size(wl->p, i, &seed);
		snprintf(p, sizeof(p), "%s/d%04llu/file%06llu", src,
			 (unsigned long long)(i % dirs), (unsigned long long)i);
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			err = fsl_wl__fail(wl, errno, "create '%s'", p);
			break;
		}
		while (size && !err) {
			size_t chunk = size > (1 << 20) ? (1 << 20) : size;

			for (j = 0; j < (chunk + 7) / 8; j++)
				buf[j] = fsl_rand(&seed);
			err = write_all(fd, (char *)buf, chunk);
			if (err)
				err = fsl_wl__fail(wl, err, "write '%s'", p);
			size -= chunk;
		}
		close(fd);
	}
	if (!err) {
		snprintf(p, sizeof(p), "%s/" MARK, src);
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write_all(fd, want, strlen(want)))
			err = fsl_wl__fail(wl, errno, "write '%s'", p);
		if (fd >= 0)
			close(fd);
	}
out:
	free(buf);
	return err;
}

struct cp {
	struct fsl_wl *wl;
	char *buf;
	uint64_t files, bytes;
};

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

int fsl_copytree_remove(const char *src)
{
	return nftw(src, rm_entry, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int copy_file(struct cp *c, const char *from, const char *to)
{
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fsl_wl__fail(c->wl, errno, "open '%s'", from);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		err = fsl_wl__fail(c->wl, errno, "create '%s'", to);
		close(in);
		return err;
	}
	while ((n = read(in, c->buf, 1 << 16)) > 0) {
		if ((err = write_all(out, c->buf, n))) {
			err = fsl_wl__fail(c->wl, err, "write '%s'", to);
			break;
		}
		c->bytes += n;
	}
	if (n < 0 && !err)
		err = fsl_wl__fail(c->wl, errno, "read '%s'", from);
	if (close(out) && !err)
		err = fsl_wl__fail(c->wl, errno, "close '%s'", to);
	close(in);
	return err;
}

/* Depth first in sorted name order: what tar --sort=name (and cp -r on most trees) does. */
static int copy_dir(struct cp *c, const char *from, const char *to)
{
	struct dirent **ents;
	char f[4200], t[4200];
	int n, i, err = 0;
	struct stat st;

	n = scandir(from, &ents, NULL, by_name);
	if (n < 0)
		return fsl_wl__fail(c->wl, errno, "scandir '%s'", from);
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (err || !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, MARK))
			continue;
		if (*c->wl->stop) {
			err = fsl_wl__fail(c->wl, -EINTR, "interrupted");
			continue;
		}
		snprintf(f, sizeof(f), "%s/%s", from, name);
		snprintf(t, sizeof(t), "%s/%s", to, name);
		if (lstat(f, &st)) {
			err = fsl_wl__fail(c->wl, errno, "stat '%s'", f);
		} else if (S_ISDIR(st.st_mode)) {
			if (mkdir(t, 0755) && errno != EEXIST)
				err = fsl_wl__fail(c->wl, errno, "mkdir '%s'", t);
			else
				err = copy_dir(c, f, t);
		} else if (S_ISREG(st.st_mode)) {
			err = copy_file(c, f, t);
			c->files++;
			fsl_wl__progress(c->wl, c->files);
		}
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return err;
}

int fsl_scn_copytree(struct fsl_wl *wl)
{
	struct cp c = { .wl = wl };
	const char *src = fsl_params__get(wl->p, "src");
	char srcbuf[4096], dst[4096];
	int fd, err;

	if (!src || !*src) {
		if (!wl->srcdir)
			return fsl_wl__fail(wl, -EINVAL, "copytree: no source directory (set src=)");
		snprintf(srcbuf, sizeof(srcbuf), "%s", wl->srcdir);
		src = srcbuf;
	}
	/* standalone runs build the tree here; demo builds it before recording */
	if ((err = fsl_copytree_prepare(wl, src)))
		return err;
	snprintf(dst, sizeof(dst), "%s/copy", wl->dir);
	if (mkdir(dst, 0755) && errno != EEXIST)
		return fsl_wl__fail(wl, errno, "mkdir '%s'", dst);
	c.buf = malloc(1 << 16);
	if (!c.buf)
		return fsl_wl__fail(wl, -ENOMEM, "copytree: buffer");

	fsl_wl__begin(wl, "copy");
	err = copy_dir(&c, src, dst);
	if (!err)
		fsl_wl__end(wl, c.files, c.bytes);
	free(c.buf);
	if (err)
		return err;

	fsl_wl__begin(wl, "sync");
	fd = open(wl->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fsl_wl__fail(wl, errno, "open '%s'", wl->dir);
	if (syncfs(fd)) {
		err = fsl_wl__fail(wl, errno, "syncfs '%s'", wl->dir);
		close(fd);
		return err;
	}
	close(fd);
	fsl_wl__end(wl, 1, 0);
	return 0;
}
