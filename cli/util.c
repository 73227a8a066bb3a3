// SPDX-License-Identifier: GPL-2.0
/*
 * Diagnostics shared by the commands. Kept out of main.c so the unit-test
 * binaries, which link every cli/cmd_*.c but not main.c, link too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

int fsl_err(int err, const char *fmt, ...)
{
	va_list ap;

	fputs("fslens: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	fputc('\n', stderr);
	return 1;
}

int fsl_usage_error(const char *cmd, const char *usage_text, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fslens %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage_text)
		fputs(usage_text, stderr);
	return EXIT_USAGE;
}
