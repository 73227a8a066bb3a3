// SPDX-License-Identifier: GPL-2.0
/* fslens dump: placeholder until its issue lands; says so plainly. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cmd_dump(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fslens dump ...\n(not built yet)\n");
		return 0;
	}
	fprintf(stderr, "fslens dump: not implemented in this build\n");
	return 1;
}
