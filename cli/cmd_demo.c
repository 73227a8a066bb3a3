// SPDX-License-Identifier: GPL-2.0
/* fslens demo: placeholder until its issue lands; says so plainly. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cmd_demo(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fslens demo ...\n(not built yet)\n");
		return 0;
	}
	fprintf(stderr, "fslens demo: not implemented in this build\n");
	return 1;
}
