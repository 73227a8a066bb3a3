// SPDX-License-Identifier: GPL-2.0
/*
 * A FILE* that writes gzip (zlib's gzwrite behind fopencookie), so an
 * exporter that writes to a FILE* writes .gz without knowing: Perfetto's UI
 * and trace_processor open .json.gz as they open .json.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "cli.h"

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

int fsl_is_gz_path(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

FILE *fsl_gz_fopen(const char *path)
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

/* An exporter's output: PATH (gzip for OUT.gz), or standard output for none or "-". */
FILE *fsl_out_open(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	/* OUT.gz: gzip (Perfetto's UI opens .json.gz as it is) */
	f = fsl_is_gz_path(path) ? fsl_gz_fopen(path) : fopen(path, "w");
	if (!f)
		fsl_err(-errno, "cannot create '%s'", path);
	return f;
}

/* A failed write to an exporter's output; for standard output main() says it once. */
void fsl_out_write_err(int err, const char *path)
{
	if (path && strcmp(path, "-"))
		fsl_err(err, "cannot write '%s'", path);
}

int fsl_out_close(FILE *f, const char *path)
{
	if (f == stdout)
		return 0;
	if (fclose(f))
		return fsl_err(-errno, "cannot write '%s'", path);
	return 0;
}
