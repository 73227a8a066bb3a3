// SPDX-License-Identifier: GPL-2.0
/*
 * Where an export goes: a file, gzip for OUT.gz (zlib's gzwrite behind
 * fopencookie, so an exporter that writes to a FILE* writes .gz without
 * knowing: Perfetto's UI and trace_processor open .json.gz as they open
 * .json), standard output, or a directory made if missing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include "fslens/export.h"

static ssize_t gz_write(void *c, const char *buf, size_t n)
{
	size_t done = 0;

	/* gzwrite takes an unsigned int length: large writes go in pieces */
	while (done < n) {
		unsigned int k = n - done > (1u << 30) ? 1u << 30 : (unsigned int)(n - done);
		int w = gzwrite(c, buf + done, k);

		if (w <= 0) {
			errno = EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

static int gz_close(void *c)
{
	if (gzclose(c) != Z_OK) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static int is_gz_path(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* fopen(path, "w") writing gzip; NULL with errno. */
static FILE *gz_fopen(const char *path)
{
	static const cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	gzFile z = gzopen(path, "wb6");
	FILE *f;

	if (!z)
		return NULL;	/* errno from open(2), or ENOMEM */
	/* zlib buffers; a large stdio buffer in front only saves calls */
	f = fopencookie(z, "w", io);
	if (!f) {
		gzclose(z);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

int fsl_export_is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

FILE *fsl_export_out_open(const char *path)
{
	if (fsl_export_is_stdout(path))
		return stdout;
	return is_gz_path(path) ? gz_fopen(path) : fopen(path, "w");
}

int fsl_export_out_close(FILE *f)
{
	if (f == stdout)
		return 0;
	return fclose(f) ? -errno : 0;
}

int fsl_mkdir_p(const char *dir)
{
	char buf[PATH_MAX], *p;
	struct stat st;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	if (stat(buf, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}
