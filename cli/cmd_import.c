// SPDX-License-Identifier: GPL-2.0
/* fslens import: placeholder until its issue lands; says so plainly. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cmd_import(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fslens import ...\n(not built yet)\n");
		return 0;
	}
	fprintf(stderr, "fslens import: not implemented in this build\n");
	return 1;
}
