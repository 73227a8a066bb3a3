// SPDX-License-Identifier: GPL-2.0
/*
 * Diagnostics and checks shared by the commands. Kept out of main.c so the unit-test
 * binaries, which link every cli/cmd_*.c but not main.c, link too.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "cli.h"
#include "fslens/collector.h"
#include "fslens/trace.h"

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

int fsl_floor_parse(const char *arg)
{
	if (!arg || !strcmp(arg, "all"))
		return FSL_FLOOR_ALL;
	if (!strcmp(arg, "syscalls"))
		return FSL_FLOOR_SYSCALLS;
	return -1;
}

uint64_t fsl_trace_origin(struct fsl_reader *r)
{
	const char *v = fsl_reader__kv(r, FSL_KV_START_NS);

	return v ? strtoull(v, NULL, 10) : fsl_reader__stats(r)->first_ts;
}

int fsl_err_open(const char *path, int err)
{
	char buf[160];

	fprintf(stderr, "fslens: cannot open '%s': %s\n", path,
		fsl_trace_open_strerror(path, err, buf, sizeof(buf)));
	return 1;
}

int fsl_window_check(const char *cmd, const char *path, struct fsl_reader *r, uint64_t origin,
		     const uint64_t *from, const uint64_t *to)
{
	const struct fsl_trace_stats *st = fsl_reader__stats(r);
	const char *v = fsl_reader__kv(r, FSL_KV_END_NS);
	uint64_t end = st->chunks ? st->last_ts : origin, e;

	if (v && (e = strtoull(v, NULL, 10)) > end)
		end = e;
	if (end < origin)
		end = origin;
	/* [from, ...) starting at the end is as empty as one past it */
	if (from && *from && origin + *from >= end) {
		fprintf(stderr, "fslens %s: --from %.3f s is %s the end of '%s', which is %.3f s "
			"long\n", cmd, *from / 1e9, origin + *from > end ? "past" : "at", path,
			(end - origin) / 1e9);
		return 1;
	}
	if (to && !*to) {
		fprintf(stderr, "fslens %s: --to 0.000 s is at the start of '%s', which is %.3f s "
			"long\n", cmd, path, (end - origin) / 1e9);
		return 1;
	}
	return 0;
}

static int usage_see(const char *cmd, const char *see, const char *fmt, va_list ap)
{
	fprintf(stderr, "fslens %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	/* one line: what is wrong, and where to read more */
	if (see)
		fprintf(stderr, " (see '%s')\n", see);
	else
		fprintf(stderr, " (see 'fslens %s --help')\n", cmd);
	return EXIT_USAGE;
}

int fsl_usage_error(const char *cmd, const char *usage_text, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = usage_see(cmd, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int fsl_usage_error_see(const char *cmd, const char *see, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = usage_see(cmd, see, fmt, ap);
	va_end(ap);
	return rc;
}

/* capability numbers (include/uapi/linux/capability.h) */
#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38
#define CAP_BPF_BIT		39

int fsl_bpf_caps_ok(uint64_t eff, unsigned int euid)
{
	if (euid == 0 || (eff >> CAP_SYS_ADMIN_BIT & 1))
		return 1;
	return (eff >> CAP_BPF_BIT & 1) && (eff >> CAP_PERFMON_BIT & 1);
}

int fsl_status_cap_eff(const char *status, uint64_t *eff)
{
	const char *p = status;

	while (p && *p) {
		if (!strncmp(p, "CapEff:", 7))
			return sscanf(p + 7, "%" SCNx64, eff) == 1 ? 0 : -ENOENT;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

int fsl_have_bpf_caps(void)
{
	char buf[8192];
	uint64_t eff = 0;
	size_t n;
	FILE *f;

	if (geteuid() == 0)
		return 1;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (fsl_status_cap_eff(buf, &eff))
		return 0;
	return fsl_bpf_caps_ok(eff, (unsigned int)geteuid());
}

int fsl_cgroup_arg(const char *cmd, const char *path)
{
	struct statfs sfs;
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return fsl_err(-ENOENT, "--cgroup '%s' is not a directory", path);
	if (statfs(path, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		fprintf(stderr, "fslens %s: --cgroup '%s' is not in a cgroup v2 hierarchy "
			"(mount one: mount -t cgroup2 none DIR)\n", cmd, path);
		return 2;
	}
	return 0;
}
