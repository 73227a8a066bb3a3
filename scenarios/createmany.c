// SPDX-License-Identifier: GPL-2.0
/*
 * createmany: N entries in one directory (Lustre's createmany shape), the
 * create rate sampled over time, then a lookup of every name in shuffled
 * order and an unlink of all. With drop_caches=1 the lookups and unlinks
 * find a cold directory and read its blocks from disk; with large_dir the
 * directory may grow past the two-level htree limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "scenario.h"

static void name_of(char *buf, size_t len, uint64_t i, unsigned int namelen)
{
	/* createmany's default "f%d" names, fixed width so all names are equal length */
	int n = snprintf(buf, len, "f%08llu", (unsigned long long)i);

	/* longer names: padded, so a leaf block holds fewer of them */
	while (n < (int)namelen && n < (int)len - 1)
		buf[n++] = 'x';
	buf[n] = 0;
}

int fsl_scn_createmany(struct fsl_wl *wl)
{
	uint64_t n = fsl_params__size(wl->p, "n"), i, seed;
	uint64_t namelen = fsl_params__size(wl->p, "namelen");
	const char *mode = fsl_params__get(wl->p, "mode");
	const char *on_full = fsl_params__get(wl->p, "on_full");
	int use_mknod = !mode || strcmp(mode, "create");
	int stop_full = on_full && !strcmp(on_full, "stop");
	uint32_t *order;
	char name[256], top[4096];
	int dfd, err = 0, fd;
	struct stat st;

	if (mode && strcmp(mode, "mknod") && strcmp(mode, "create"))
		return fsl_wl__fail(wl, -EINVAL, "createmany: mode must be mknod or create, not '%s'",
				    mode);
	if (namelen < 9 || namelen > 255)
		return fsl_wl__fail(wl, -EINVAL, "createmany: namelen must be 9 to 255, not %llu",
				    (unsigned long long)namelen);
	snprintf(top, sizeof(top), "%s/many", wl->dir);
	if (mkdir(top, 0755) && errno != EEXIST)
		return fsl_wl__fail(wl, errno, "mkdir '%s'", top);
	dfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fsl_wl__fail(wl, errno, "open '%s'", top);

	fsl_wl__begin(wl, "create");
	for (i = 0; i < n; i++) {
		if (*wl->stop) {
			err = fsl_wl__fail(wl, -EINTR, "interrupted");
			goto out;
		}
		name_of(name, sizeof(name), i, namelen);
		fd = use_mknod ? mknodat(dfd, name, S_IFREG | 0644, 0) :
		     openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno == ENOSPC && stop_full && i) {
			/* the directory is full: the names made so far are the workload */
			n = i;
			break;
		}
		if (fd < 0) {
			err = fsl_wl__fail(wl, errno, "%s '%s/%s'%s", use_mknod ? "mknod" : "create",
					   top, name, errno == ENOSPC ? " (a full htree, without "
					   "large_dir, also says this)" : "");
			goto out;
		}
		if (!use_mknod)
			close(fd);
		fsl_wl__progress(wl, i + 1);
	}
	if ((err = fsl_wl__sync(wl)))
		goto out;
	fsl_wl__end(wl, n, 0);

	/* Fisher-Yates with the fixed seed: the same order every run. */
	order = malloc(n * sizeof(*order) + 1);
	if (!order) {
		err = fsl_wl__fail(wl, -ENOMEM, "createmany: %llu names", (unsigned long long)n);
		goto out;
	}
	seed = fsl_params__size(wl->p, "seed") * 0x9E3779B97F4A7C15ULL + 1;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		uint64_t j = fsl_rand(&seed) % i;
		uint32_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}

	if (fsl_params__bool(wl->p, "lookups")) {
		if ((err = fsl_wl__drop_caches(wl)))
			goto free;
		fsl_wl__begin(wl, "lookup");
		for (i = 0; i < n; i++) {
			if (*wl->stop) {
				err = fsl_wl__fail(wl, -EINTR, "interrupted");
				goto free;
			}
			name_of(name, sizeof(name), order[i], namelen);
			if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
				err = fsl_wl__fail(wl, errno, "stat '%s/%s'", top, name);
				goto free;
			}
			fsl_wl__progress(wl, i + 1);
		}
		fsl_wl__end(wl, n, 0);
	}

	if ((err = fsl_wl__drop_caches(wl)))
		goto free;
	fsl_wl__begin(wl, "unlink");
	for (i = 0; i < n; i++) {
		if (*wl->stop) {
			err = fsl_wl__fail(wl, -EINTR, "interrupted");
			goto free;
		}
		name_of(name, sizeof(name), order[i], namelen);
		if (unlinkat(dfd, name, 0)) {
			err = fsl_wl__fail(wl, errno, "unlink '%s/%s'", top, name);
			goto free;
		}
		fsl_wl__progress(wl, i + 1);
	}
	if ((err = fsl_wl__sync(wl)))
		goto free;
	fsl_wl__end(wl, n, 0);
free:
	free(order);
out:
	close(dfd);
	return err;
}
