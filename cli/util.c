// SPDX-License-Identifier: GPL-2.0
/*
 * Diagnostics and checks shared by the commands. Kept out of main.c so the unit-test
 * binaries, which link every cli/cmd_*.c but not main.c, link too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
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
	/* one line: what is wrong, and where the full usage is */
	fprintf(stderr, " (see 'fslens %s --help')\n", cmd);
	return EXIT_USAGE;
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
