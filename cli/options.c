// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing shared by every command, so every command reads its line
 * the same way: options anywhere among the operands (GNU permutation; a
 * leading '+' stops at the first operand, for record's COMMAND), and a bad
 * option said once, "fslens CMD: unknown option '--x' (see 'fslens CMD --help')".
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "fslens/devname.h"

/* How many long options start with the n characters of name; the first in *first. */
static int long_matches(const struct option *lo, const char *name, size_t n, const char **first)
{
	int k = 0;

	for (; lo && lo->name; lo++)
		if (!strncmp(lo->name, name, n)) {
			if (!k++)
				*first = lo->name;
		}
	return k;
}

static void say_bad(const char *cmd, int c, const char *bad, const struct option *lo)
{
	const char *name, *first = NULL;
	size_t n;

	if (strncmp(bad, "--", 2)) {
		/* a short option, perhaps inside a cluster (-qx): name the letter */
		if (c == ':')
			fsl_usage_error(cmd, NULL, "option '-%c' needs a value", optopt);
		else if (isprint(optopt))
			fsl_usage_error(cmd, NULL, "unknown option '-%c'", optopt);
		else
			fsl_usage_error(cmd, NULL, "unknown option '%s'", bad);
		return;
	}
	name = bad + 2;
	n = strcspn(name, "=");
	if (c == ':')
		fsl_usage_error(cmd, NULL, "option '--%.*s' needs a value", (int)n, name);
	else if (optopt && name[n] == '=')
		fsl_usage_error(cmd, NULL, "option '--%.*s' takes no value", (int)n, name);
	else if (long_matches(lo, name, n, &first) > 1)
		fsl_usage_error(cmd, NULL, "option '--%.*s' is ambiguous (--%s or another)",
				(int)n, name, first);
	else
		fsl_usage_error(cmd, NULL, "unknown option '--%.*s'", (int)n, name);
}

int fsl_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *lo)
{
	int stop = shortopts[0] == '+';
	char spec[128];
	int c;

	/* a leading ':' makes getopt return ':' for a missing value; we print */
	snprintf(spec, sizeof(spec), "%s:%s", stop ? "+" : "", shortopts + stop);
	opterr = 0;
	c = getopt_long(argc, argv, spec, lo, NULL);
	if (c != '?' && c != ':')
		return c;
	say_bad(cmd, c, optind > 0 && optind <= argc ? argv[optind - 1] : "", lo);
	return '?';
}

int fsl_dev_arg(const char *cmd, const char *arg, char *node, size_t len)
{
	uint32_t dev;
	int err = fsl_dev_lookup(arg, &dev, node, len);

	if (!err)
		return 0;
	fprintf(stderr, "fslens %s: -d %s: %s; give a block device as /dev/NAME, NAME or MAJ:MIN\n",
		cmd, arg, err == -ENOTBLK ? "not a block device" :
		err == -ENOENT ? "no such block device" : strerror(-err));
	return -1;
}
