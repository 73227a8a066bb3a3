// SPDX-License-Identifier: GPL-2.0
/* Block device names <-> numbers through sysfs (include/fslens/devname.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include "fslens/devname.h"
#include "fslens/event.h"
#include "fslens/meta.h"

/* "MAJ:MIN" exactly (what sysfs's dev files hold, and what users type). */
static int parse_majmin(const char *s, uint32_t *dev)
{
	unsigned int ma, mi;
	char c;

	if (sscanf(s, "%u:%u%c", &ma, &mi, &c) != 2 || ma >= 4096 || mi >= (1u << 20))
		return -EINVAL;
	*dev = FSL_MKDEV(ma, mi);
	return 0;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

const char *fsl_dev_kname(uint32_t dev, char *buf, size_t len)
{
	char path[128], line[256];
	FILE *f;

	if (!dev || !len)
		return NULL;
	/* the uevent's DEVNAME is the kernel's name, "mapper/x" style for dm too */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", FSL_MAJOR(dev), FSL_MINOR(dev));
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = 0;
		fclose(f);
		if (!line[8])
			return NULL;
		snprintf(buf, len, "%s", line + 8);
		return buf;
	}
	fclose(f);
	return NULL;
}

int fsl_dev_lookup(const char *s, uint32_t *dev, char *node, size_t len)
{
	char path[4200], line[64], name[256];
	struct stat st;

	if (!s || !*s)
		return -EINVAL;
	/* a path (or a file of that name here) is a device node, or nothing */
	if (strchr(s, '/') || !stat(s, &st)) {
		if (stat(s, &st))
			return -errno;
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		*dev = FSL_MKDEV(major(st.st_rdev), minor(st.st_rdev));
		snprintf(node, len, "%s", s);
		return 0;
	}
	if (!parse_majmin(s, dev)) {
		if (!fsl_dev_kname(*dev, name, sizeof(name)))
			return -ENOENT;
		snprintf(node, len, "/dev/%s", name);
		return 0;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", s);
	if (read_line(path, line, sizeof(line)) || parse_majmin(line, dev))
		return -ENOENT;
	snprintf(node, len, "/dev/%s", fsl_dev_kname(*dev, name, sizeof(name)) ? name : s);
	return 0;
}

/*
 * Is the trace from this boot of this machine? Same host name and kernel
 * build, and its start not in our monotonic future. Then sysfs names fit.
 */
static int trace_is_local(const struct fsl_meta *m)
{
	const char *host = fsl_meta__str(m, FSL_KV_HOSTNAME);
	const char *kv = fsl_meta__str(m, FSL_KV_KERNEL_VERSION);
	struct timespec ts;
	struct utsname u;
	uint64_t start;

	if (!host || !kv || uname(&u) || strcmp(host, u.nodename) || strcmp(kv, u.version))
		return 0;
	if (fsl_meta__get_u64(m, FSL_KV_START_NS, &start))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return start <= (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *fsl_dev_label(const struct fsl_meta *m, uint32_t dev, char *buf, size_t len)
{
	if (m && fsl_meta__dev_name(m, dev, buf, len))
		return buf;
	if ((!m || trace_is_local(m)) && fsl_dev_kname(dev, buf, len))
		return buf;
	snprintf(buf, len, "%u:%u", FSL_MAJOR(dev), FSL_MINOR(dev));
	return buf;
}
