// SPDX-License-Identifier: GPL-2.0
/*
 * Metadata of a recording that needs no libbpf: the machine (uname, HZ,
 * CPUs, clock offsets), the target mount and its device, ext4's sysfs
 * tunables, the queue settings and /proc/fs/jbd2 statistics.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "fslens/event.h"
#include "fslens/fsmeta.h"

/* Bounded copy that always terminates (truncation is acceptable for names). */
static void scopy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

int fsl_sink_kv(const struct fsl_meta_sink *s, const char *key, const char *fmt, ...)
{
	char v[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	return s->kv(s->ctx, key, v);
}

/* Read a small file whole, trailing newline dropped. -errno on failure. */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* ---- target resolution ---- */

/* Undo mountinfo's octal escapes (\040 for space). */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

/* Fill devname/diskname/blkdev/bdev from the fs dev_t (userspace encoding). */
static int resolve_disk(struct fsl_target *t, unsigned int ma, unsigned int mi)
{
	char p[256], link[PATH_MAX], buf[64];
	unsigned int pma, pmi;
	ssize_t n;
	char *base;

	t->dev = FSL_MKDEV(ma, mi);
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", ma, mi);
	n = readlink(p, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = 0;
	base = strrchr(link, '/');
	scopy(t->devname, sizeof(t->devname), base ? base + 1 : link);
	snprintf(t->diskname, sizeof(t->diskname), "%s", t->devname);
	t->blkdev = t->dev;
	/* a partition: the block layer reports the whole disk */
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/partition", ma, mi);
	if (access(p, F_OK) == 0) {
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../dev", ma, mi);
		if (read_small(p, buf, sizeof(buf)) == 0 &&
		    sscanf(buf, "%u:%u", &pma, &pmi) == 2) {
			t->blkdev = FSL_MKDEV(pma, pmi);
			if (base) {
				*base = 0;
				base = strrchr(link, '/');
				scopy(t->diskname, sizeof(t->diskname), base ? base + 1 : link);
			}
		}
	}
	if (!t->bdev[0])
		snprintf(t->bdev, sizeof(t->bdev), "/dev/%s", t->devname);
	return 0;
}

void fsl_cgroup2_mount(const char *mounts_file, char *out, size_t n)
{
	char src[4096], dir[4096], type[64];
	FILE *f = fopen(mounts_file, "re");

	out[0] = 0;
	if (!f)
		return;
	while (fscanf(f, "%4095s %4095s %63s %*[^\n]", src, dir, type) == 3)
		if (!strcmp(type, "cgroup2")) {
			snprintf(out, n, "%s", dir);
			break;
		}
	fclose(f);
}

int fsl_target_resolve(const char *mount, const char *dev, struct fsl_target *t)
{
	unsigned int ma = 0, mi = 0;
	char line[8192];
	struct stat st;
	int found = 0;
	FILE *f;

	memset(t, 0, sizeof(*t));
	if (mount) {
		if (stat(mount, &st))
			return -errno;
		ma = major(st.st_dev);
		mi = minor(st.st_dev);
	} else if (dev) {
		char path[300];
		int n = 0;

		/* "/dev/sda", "sda" or "8:0" */
		if (sscanf(dev, "%u:%u%n", &ma, &mi, &n) == 2 && !dev[n]) {
			snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", ma, mi);
			if (access(path, F_OK))
				return -ENOENT;
			snprintf(path, sizeof(path), "%u:%u", ma, mi);
		} else {
			if (!strchr(dev, '/'))
				snprintf(path, sizeof(path), "/dev/%s", dev);
			else
				snprintf(path, sizeof(path), "%s", dev);
			if (stat(path, &st))
				return -errno;
			if (!S_ISBLK(st.st_mode))
				return -ENOTBLK;
			ma = major(st.st_rdev);
			mi = minor(st.st_rdev);
			snprintf(t->bdev, sizeof(t->bdev), "%s", path);
		}
	} else {
		return -EINVAL;
	}
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mp[4096], opts[1024], fstype[64], src[4096], sopts[1024];
		unsigned int lma, lmi;
		char *dash;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s %1023s", &lma, &lmi, mp, opts) != 4)
			continue;
		if (lma != ma || lmi != mi)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %4095s %1023s", fstype, src, sopts) != 3)
			continue;
		unescape(mp);
		unescape(src);
		/* -m names a mount point: prefer that exact one; else the first */
		if (found && !(mount && !strcmp(mp, mount)))
			continue;
		snprintf(t->mount, sizeof(t->mount), "%s", mp);
		snprintf(t->fstype, sizeof(t->fstype), "%s", fstype);
		snprintf(t->source, sizeof(t->source), "%s", src);
		snprintf(t->options, sizeof(t->options), "%.500s,%.500s", opts, sopts);
		scopy(t->mountinfo, sizeof(t->mountinfo), line);
		t->mountinfo[strcspn(t->mountinfo, "\n")] = 0;
		found = 1;
	}
	fclose(f);
	if (!found && mount)
		return -ENOENT;
	if (found && t->source[0] == '/' && stat(t->source, &st) == 0 && S_ISBLK(st.st_mode) &&
	    !t->bdev[0])
		snprintf(t->bdev, sizeof(t->bdev), "%s", t->source);
	/* a non-device fs (tmpfs, overlay) has an anonymous dev: no disk under it */
	if (resolve_disk(t, ma, mi) < 0) {
		t->dev = FSL_MKDEV(ma, mi);
		t->blkdev = 0;
		t->bdev[0] = 0;
	}
	return 0;
}

/* ---- host ---- */

static int hz_from_config(FILE *f)
{
	char line[256];
	int hz = 0;

	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CONFIG_HZ=%d", &hz) == 1)
			break;
	return hz;
}

static long long timer_list_jiffies(void)
{
	char line[256];
	long long j = -1;
	FILE *f = fopen("/proc/timer_list", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "jiffies: %lld", &j) == 1)
			break;
	fclose(f);
	return j;
}

/*
 * sysconf(_SC_CLK_TCK) is USER_HZ (always 100), not the kernel's HZ that
 * jbd2's jiffies fields count in. Ask the kernel config; else measure.
 */
int fsl_kernel_hz(const char **source)
{
	struct utsname u;
	char p[300];
	FILE *f;
	int hz = 0;

	if (uname(&u) == 0) {
		snprintf(p, sizeof(p), "/boot/config-%s", u.release);
		f = fopen(p, "re");
		if (f) {
			hz = hz_from_config(f);
			fclose(f);
			if (hz > 0) {
				*source = "config";
				return hz;
			}
		}
	}
	if (access("/proc/config.gz", R_OK) == 0) {
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
		if (f) {
			hz = hz_from_config(f);
			pclose(f);
			if (hz > 0) {
				*source = "config.gz";
				return hz;
			}
		}
	}
	{
		static const int known[] = { 100, 250, 300, 1000 };
		struct timespec a, b, d = { 0, 200 * 1000 * 1000 };
		long long j0, j1;
		double rate;
		unsigned int i;
		int best = 0;

		clock_gettime(CLOCK_MONOTONIC, &a);
		j0 = timer_list_jiffies();
		nanosleep(&d, NULL);
		j1 = timer_list_jiffies();
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (j0 < 0 || j1 <= j0)
			return -ENOENT;
		rate = (j1 - j0) / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
		for (i = 0; i < 4; i++)
			if (!best || abs(known[i] - (int)rate) < abs(best - (int)rate))
				best = known[i];
		*source = "measured";
		return best;
	}
}

static int64_t ts_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int fsl_meta_host(const struct fsl_meta_sink *s)
{
	const char *hz_src = "none";
	struct utsname u;
	int64_t m0, r, m1, bt;
	char buf[4096];
	int hz, e = 0;

	if (uname(&u) == 0) {
		e |= fsl_sink_kv(s, FSL_KV_HOSTNAME, "%s", u.nodename);
		e |= fsl_sink_kv(s, FSL_KV_KERNEL, "%s", u.release);
		e |= fsl_sink_kv(s, FSL_KV_KERNEL_VERSION, "%s", u.version);
		e |= fsl_sink_kv(s, FSL_KV_ARCH, "%s", u.machine);
	}
	hz = fsl_kernel_hz(&hz_src);
	if (hz > 0) {
		e |= fsl_sink_kv(s, FSL_KV_HZ, "%d", hz);
		e |= fsl_sink_kv(s, FSL_KV_HZ_SOURCE, "%s", hz_src);
	}
	e |= fsl_sink_kv(s, FSL_KV_NCPUS, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	e |= fsl_sink_kv(s, FSL_KV_NCPUS_CONF, "%ld", sysconf(_SC_NPROCESSORS_CONF));
	e |= fsl_sink_kv(s, FSL_KV_PAGE_SIZE, "%ld", sysconf(_SC_PAGESIZE));
	if (read_small("/proc/cmdline", buf, sizeof(buf)) == 0)
		e |= fsl_sink_kv(s, FSL_KV_CMDLINE, "%s", buf);
	if (read_small("/proc/meminfo", buf, 64) == 0) {
		long long memkb = 0;

		if (sscanf(buf, "MemTotal: %lld", &memkb) == 1)
			e |= fsl_sink_kv(s, FSL_KV_MEM_KB, "%lld", memkb);
	}
	/* bracket REALTIME between two MONOTONIC reads: offset error <= half the gap */
	m0 = ts_ns(CLOCK_MONOTONIC);
	r = ts_ns(CLOCK_REALTIME);
	m1 = ts_ns(CLOCK_MONOTONIC);
	bt = ts_ns(CLOCK_BOOTTIME);
	e |= fsl_sink_kv(s, FSL_KV_REALTIME_OFFSET, "%" PRId64, r - (m0 + (m1 - m0) / 2));
	e |= fsl_sink_kv(s, FSL_KV_BOOTTIME_OFFSET, "%" PRId64, bt - ts_ns(CLOCK_MONOTONIC));
	e |= fsl_sink_kv(s, FSL_KV_CLOCK_SOURCE, "CLOCK_MONOTONIC");
	return e ? -EIO : 0;
}

/* ---- target ---- */

static int sysfs_dir_kv(const struct fsl_meta_sink *s, const char *dir, const char *prefix)
{
	struct dirent *d;
	char p[1024], key[300], v[512];
	struct stat st;
	DIR *dp = opendir(dir);
	int e = 0;

	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, d->d_name);
		if (stat(p, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		if (read_small(p, v, sizeof(v)))
			continue;	/* write-only or refusing reads */
		if (strchr(v, '\n'))
			continue;	/* multi-line stats files are not tunables */
		snprintf(key, sizeof(key), "%.40s%.250s", prefix, d->d_name);
		e |= s->kv(s->ctx, key, v);
	}
	closedir(dp);
	return e ? -EIO : 0;
}

int fsl_target_is_ext4(const struct fsl_target *t)
{
	char p[600];

	if (!strcmp(t->fstype, "ext4"))
		return 1;
	if (strcmp(t->fstype, "ext3") && strcmp(t->fstype, "ext2"))
		return 0;
	/*
	 * ext2/ext3 mounted by the ext4 driver (CONFIG_EXT4_USE_FOR_EXT2, no
	 * ext3 driver since 4.3) have its sysfs directory, its tracepoints and
	 * a jbd2 journal; the old ext2 driver has none of them.
	 */
	if (!t->devname[0])
		return 0;
	snprintf(p, sizeof(p), "/sys/fs/ext4/%s", t->devname);
	return access(p, F_OK) == 0;
}

int fsl_meta_target(const struct fsl_meta_sink *s, const struct fsl_target *t)
{
	char p[600], v[4096];
	int e = 0;

	if (t->mount[0])
		e |= fsl_sink_kv(s, FSL_KV_MOUNT, "%s", t->mount);
	e |= fsl_sink_kv(s, FSL_KV_DEV, "%u", t->dev);
	e |= fsl_sink_kv(s, FSL_KV_DEV_NAME, "%u:%u %s", FSL_MAJOR(t->dev), FSL_MINOR(t->dev),
		t->devname);
	if (t->blkdev)
		e |= fsl_sink_kv(s, FSL_KV_DISK, "%u", t->blkdev);
	if (t->diskname[0])
		e |= fsl_sink_kv(s, FSL_KV_DISK_NAME, "%u:%u %s", FSL_MAJOR(t->blkdev),
			FSL_MINOR(t->blkdev), t->diskname);
	if (t->fstype[0])
		e |= fsl_sink_kv(s, FSL_KV_FSTYPE, "%s", t->fstype);
	if (t->source[0])
		e |= fsl_sink_kv(s, FSL_KV_SOURCE, "%s", t->source);
	if (t->options[0])
		e |= fsl_sink_kv(s, FSL_KV_OPTIONS, "%s", t->options);
	if (t->mountinfo[0])
		e |= fsl_sink_kv(s, FSL_KV_MOUNTINFO, "%s", t->mountinfo);
	if (fsl_target_is_ext4(t) && t->devname[0]) {
		snprintf(p, sizeof(p), "/sys/fs/ext4/%s", t->devname);
		sysfs_dir_kv(s, p, FSL_KV_EXT4_TUNE_PREFIX);
	}
	if (t->diskname[0]) {
		static const char *q[] = { "rotational", "scheduler", "nr_requests",
					   "logical_block_size", "physical_block_size",
					   "max_sectors_kb", "read_ahead_kb", "write_cache" };
		unsigned int i;

		for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
			snprintf(p, sizeof(p), "/sys/block/%s/queue/%s", t->diskname, q[i]);
			if (read_small(p, v, sizeof(v)) == 0) {
				char key[64];

				snprintf(key, sizeof(key), FSL_KV_QUEUE_PREFIX "%s", q[i]);
				e |= s->kv(s->ctx, key, v);
			}
		}
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", t->diskname);
		if (read_small(p, v, sizeof(v)) == 0)
			e |= fsl_sink_kv(s, FSL_KV_LOOP_BACKING, "%s", v);
		snprintf(p, sizeof(p), "/sys/block/%s/loop/dio", t->diskname);
		if (read_small(p, v, sizeof(v)) == 0)
			e |= fsl_sink_kv(s, FSL_KV_LOOP_DIO, "%s", v);
	}
	return e ? -EIO : 0;
}

int fsl_meta_jbd2(const struct fsl_meta_sink *s, const struct fsl_target *t, const char *when)
{
	char p[600], name[64], buf[8192];
	struct dirent *d;
	size_t n = strlen(t->devname);
	DIR *dp;
	int found = 0;

	if (!n)
		return -ENOENT;
	dp = opendir("/proc/fs/jbd2");
	if (!dp)
		return -errno;
	/* the journal's directory is "<devname>-<journal inode>", e.g. loop0-8 */
	while ((d = readdir(dp))) {
		if (!strncmp(d->d_name, t->devname, n) && d->d_name[n] == '-') {
			snprintf(p, sizeof(p), "/proc/fs/jbd2/%s/info", d->d_name);
			found = 1;
			break;
		}
	}
	closedir(dp);
	if (!found)
		return -ENOENT;
	if (read_small(p, buf, sizeof(buf)))
		return -errno;
	snprintf(name, sizeof(name), FSL_TEXT_JBD2_INFO_PREFIX "%s", when);
	return s->text(s->ctx, name, buf, strlen(buf));
}

int fsl_meta_mb_loaded(const struct fsl_meta_sink *s, const struct fsl_target *t)
{
	char p[600], line[512];
	unsigned long n = 0, bad = 0;
	FILE *f;
	int e;

	if (!t->devname[0])
		return -ENODEV;
	snprintf(p, sizeof(p), "/proc/fs/ext4/%s/mb_groups", t->devname);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	/* one "#G : free frags first [ buddy counts ]" line per group, each loaded to print */
	while (fgets(line, sizeof(line), f)) {
		if (line[0] != '#' || line[1] < '0' || line[1] > '9')
			continue;
		n++;
		if (strstr(line, "error"))
			bad++;
	}
	e = ferror(f) ? -EIO : 0;
	fclose(f);
	if (e)
		return e;
	if (!n || bad)
		return -EIO;
	return fsl_sink_kv(s, FSL_KV_EXT4_MB_LOADED, "all");
}
