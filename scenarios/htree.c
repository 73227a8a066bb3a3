// SPDX-License-Identifier: GPL-2.0
/*
 * htree: the create storm that took minutes on ext3/ext4 with a small
 * journal. N directories in one directory, one empty file in each, then a
 * stat of the whole tree in readdir (hash) order, which is what du does.
 * With atime updates on, reading each directory dirties its inode, and those
 * inode blocks go through the journal during a read-only phase.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scenario.h"

/* stat every entry of the open directory fd (readdir order); recurse one level. */
static int stat_dir(struct fsl_wl *wl, int dfd, const char *what, int depth, uint64_t *ops)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	struct stat st;
	int err = 0;

	if (!d) {
		close(dfd);
		return fsl_wl__fail(wl, errno, "cannot read directory '%s'", what);
	}
	while ((de = readdir(d))) {
		if (*wl->stop) {
			err = fsl_wl__fail(wl, -EINTR, "interrupted");
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			err = fsl_wl__fail(wl, errno, "stat '%s/%s'", what, de->d_name);
			break;
		}
		(*ops)++;
		fsl_wl__progress(wl, *ops);
		if (S_ISDIR(st.st_mode) && depth > 0) {
			int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (fd < 0) {
				err = fsl_wl__fail(wl, errno, "open '%s/%s'", what, de->d_name);
				break;
			}
			err = stat_dir(wl, fd, de->d_name, depth - 1, ops);
			if (err)
				break;
		}
	}
	closedir(d);
	return err;
}

int fsl_scn_htree(struct fsl_wl *wl)
{
	uint64_t n = fsl_params__size(wl->p, "n"), i, ops;
	char top[4096], path[4200];
	int err, fd;

	snprintf(top, sizeof(top), "%s/htree", wl->dir);
	if (mkdir(top, 0755) && errno != EEXIST)
		return fsl_wl__fail(wl, errno, "mkdir '%s'", top);

	fsl_wl__begin(wl, "mkdir");
	for (i = 0; i < n; i++) {
		if (*wl->stop)
			return fsl_wl__fail(wl, -EINTR, "interrupted");
		snprintf(path, sizeof(path), "%s/d%07llu", top, (unsigned long long)i);
		if (mkdir(path, 0755))
			return fsl_wl__fail(wl, errno, "mkdir '%s'", path);
		fsl_wl__progress(wl, i + 1);
	}
	if ((err = fsl_wl__sync(wl)))
		return err;
	fsl_wl__end(wl, n, 0);

	if ((err = fsl_wl__drop_caches(wl)))
		return err;
	fsl_wl__begin(wl, "create");
	for (i = 0; i < n; i++) {
		if (*wl->stop)
			return fsl_wl__fail(wl, -EINTR, "interrupted");
		snprintf(path, sizeof(path), "%s/d%07llu/f", top, (unsigned long long)i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return fsl_wl__fail(wl, errno, "create '%s'", path);
		close(fd);
		fsl_wl__progress(wl, i + 1);
	}
	if ((err = fsl_wl__sync(wl)))
		return err;
	fsl_wl__end(wl, n, 0);

	if ((err = fsl_wl__drop_caches(wl)))
		return err;
	fsl_wl__begin(wl, "stat");
	ops = 0;
	fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fsl_wl__fail(wl, errno, "open '%s'", top);
	if ((err = stat_dir(wl, fd, top, 1, &ops)))
		return err;
	/* the atime updates made by reading directories commit inside the phase */
	if ((err = fsl_wl__sync(wl)))
		return err;
	fsl_wl__end(wl, ops, 0);
	return 0;
}
