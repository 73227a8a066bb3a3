// SPDX-License-Identifier: GPL-2.0
/* Scratch ext4, ext3 or XFS on a loop device (or a given device): make, mount, always tear down. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "scratch.h"

static int fail(struct fsl_scratch *s, int err, const char *fmt, const char *arg)
{
	int len;

	if (err > 0)
		err = -err;
	len = snprintf(s->errmsg, sizeof(s->errmsg), fmt, arg);
	if (len > 0 && (size_t)len < sizeof(s->errmsg) && err)
		snprintf(s->errmsg + len, sizeof(s->errmsg) - len, ": %s", strerror(-err));
	return err ? err : -EIO;
}

static const char *find_prog(const char *name, char *buf, size_t len)
{
	static const char *dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin", NULL };
	int i;

	for (i = 0; dirs[i]; i++) {
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (!access(buf, X_OK))
			return buf;
	}
	return NULL;
}

/* Run argv, collecting its stdout+stderr into out. Returns exit status or -errno. */
static int run_child(char *const argv[], char *out, size_t outlen)
{
	size_t used = 0;
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	if (outlen)
		out[0] = 0;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char tmp[512];

		n = read(pfd[0], tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (used + 1 < outlen) {
			size_t k = (size_t)n < outlen - 1 - used ? (size_t)n : outlen - 1 - used;

			memcpy(out + used, tmp, k);
			used += k;
			out[used] = 0;
		}
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int device_is_mounted(const char *dev)
{
	char line[4096], real[PATH_MAX], *sp;
	FILE *f = fopen("/proc/self/mounts", "re");
	int found = 0;

	if (!f)
		return 0;
	if (!realpath(dev, real))
		snprintf(real, sizeof(real), "%s", dev);
	while (!found && fgets(line, sizeof(line), f)) {
		sp = strchr(line, ' ');
		if (sp)
			*sp = 0;
		found = !strcmp(line, dev) || !strcmp(line, real);
	}
	fclose(f);
	return found;
}

static const char *fstype_of(const struct fsl_scratch_opts *o)
{
	return o->fstype[0] ? o->fstype : "ext4";
}

/*
 * The next log size to try after mkfs.xfs refused one, as its -l argument
 * in buf; 0 when out is no such refusal. mkfs.xfs says it three ways: a
 * size under its absolute floor is an "Invalid value ... Value is too
 * small" (no figure: try the seed's 8192 blocks), one under the geometry's
 * least is "minimum size is N blocks", and xfsprogs 5.19 and later refuse
 * logs under 64 MiB: "Log size must be at least 64MB.".
 */
static int xfs_log_retry(const char *out, const char *cur, char *buf, size_t len)
{
	const char *p;

	if ((p = strstr(out, "must be at least ")))
		snprintf(buf, len, "size=%lum", strtoul(p + 17, NULL, 10));
	else if ((p = strstr(out, "minimum size is ")))
		snprintf(buf, len, "size=%lub", strtoul(p + 16, NULL, 10));
	else if (strstr(out, "-l size option") && strstr(out, "too small"))
		snprintf(buf, len, "size=8192b");
	else
		return 0;
	return strcmp(buf, cur) && strcmp(buf, "size=0m") && strcmp(buf, "size=0b");
}

static int do_mkfs(struct fsl_scratch *s, const struct fsl_scratch_opts *o, const char *target)
{
	char prog[PATH_MAX], out[2048], size_arg[32], name[32], logarg[2][48], first[200];
	const char *argv[FSL_SCRATCH_ARGS_MAX + 8];
	int xfs = !strcmp(fstype_of(o), "xfs");
	unsigned int i, n = 0, logi = 0, tries = 0;
	int rc;

	snprintf(name, sizeof(name), "mkfs.%s", fstype_of(o));
	if (!find_prog(name, prog, sizeof(prog)))
		return fail(s, -ENOENT, "cannot run %s (e2fsprogs or xfsprogs)", name);
	argv[n++] = prog;
	argv[n++] = "-q";
	argv[n++] = xfs ? "-f" : "-F";
	for (i = 0; i < o->nmkfs && n < FSL_SCRATCH_ARGS_MAX + 4; i++) {
		/* the XFS log's size follows "-l": remembered for a retry */
		if (xfs && i && !strcmp(o->mkfs_args[i - 1], "-l"))
			logi = n;
		argv[n++] = o->mkfs_args[i];
	}
	argv[n++] = target;
	if (!o->device && !xfs) {
		/* size in KiB: mkfs reads a bare number as blocks (mkfs.xfs takes the file's) */
		snprintf(size_arg, sizeof(size_arg), "%lluk", (unsigned long long)(o->size >> 10));
		argv[n++] = size_arg;
	}
	argv[n] = NULL;
	rc = run_child((char *const *)argv, out, sizeof(out));
	/*
	 * A log mkfs.xfs refuses (the seed's 1 MiB or 8192 blocks; xfsprogs
	 * 5.19 and later refuse any under 64 MiB): the smallest it allows, in
	 * at most three steps, said in the notes.
	 */
	first[0] = 0;
	while (rc > 0 && xfs && logi && tries < 3 &&
	       xfs_log_retry(out, argv[logi], logarg[tries & 1], sizeof(logarg[0]))) {
		if (!first[0])
			snprintf(first, sizeof(first), "-l %s (\"%.*s\")", argv[logi],
				 (int)strcspn(out, "\n"), out);
		argv[logi] = logarg[tries++ & 1];
		rc = run_child((char *const *)argv, out, sizeof(out));
	}
	if (first[0])
		snprintf(s->notes, sizeof(s->notes), "mkfs.xfs refused %s: -l %s", first,
			 argv[logi]);
	if (rc < 0)
		return fail(s, rc, "cannot run %s", prog);
	if (rc) {
		size_t len = strlen(out);

		while (len && out[len - 1] == '\n')
			out[--len] = 0;
		snprintf(s->errmsg, sizeof(s->errmsg), "%s failed (exit %d): %.900s", name, rc, out);
		return -EINVAL;
	}
	return 0;
}

static int attach_loop(struct fsl_scratch *s, int direct_io)
{
	struct loop_config cfg;
	int ctl, img, lfd = -1, nr, tries, err = 0;

	img = open(s->img, O_RDWR | O_CLOEXEC);
	if (img < 0)
		return fail(s, errno, "cannot open '%s'", s->img);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		err = fail(s, errno, "cannot open /dev/loop-control%s", "");
		goto out;
	}
	/* another process may take the free device between GET_FREE and CONFIGURE */
	for (tries = 0; tries < 50; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			err = fail(s, errno, "LOOP_CTL_GET_FREE%s", "");
			goto out;
		}
		snprintf(s->dev, sizeof(s->dev), "/dev/loop%d", nr);
		lfd = open(s->dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			if (errno == ENOENT || errno == ENXIO)
				continue;
			err = fail(s, errno, "cannot open %s", s->dev);
			goto out;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = img;
		cfg.info.lo_flags = direct_io ? LO_FLAGS_DIRECT_IO : 0;
		snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%.63s", s->img);
		if (!ioctl(lfd, LOOP_CONFIGURE, &cfg)) {
			s->loop_fd = lfd;
			lfd = -1;
			break;
		}
		err = errno;
		close(lfd);
		lfd = -1;
		if (err != EBUSY) {
			err = fail(s, err, "LOOP_CONFIGURE %s", s->dev);
			goto out;
		}
		err = 0;
	}
	if (s->loop_fd < 0 && !err)
		err = fail(s, -EBUSY, "no free loop device after 50 tries%s", "");
out:
	if (ctl >= 0)
		close(ctl);
	close(img);
	if (s->loop_fd < 0)
		s->dev[0] = 0;
	return err;
}

static const struct {
	const char *name;
	unsigned long flag;
} vfs_flags[] = {
	{ "noatime", MS_NOATIME }, { "strictatime", MS_STRICTATIME },
	{ "relatime", MS_RELATIME }, { "nodiratime", MS_NODIRATIME },
	{ "lazytime", MS_LAZYTIME }, { "sync", MS_SYNCHRONOUS }, { "dirsync", MS_DIRSYNC },
	{ "nosuid", MS_NOSUID }, { "nodev", MS_NODEV }, { "noexec", MS_NOEXEC },
};

static int do_mount(struct fsl_scratch *s, const char *opts, const char *fstype)
{
	char copy[512], data[512] = "", *tok, *save;
	unsigned long flags = 0;
	unsigned int i;

	snprintf(copy, sizeof(copy), "%s", opts ? opts : "");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(vfs_flags) / sizeof(vfs_flags[0]); i++)
			if (!strcmp(tok, vfs_flags[i].name))
				break;
		if (i < sizeof(vfs_flags) / sizeof(vfs_flags[0])) {
			flags |= vfs_flags[i].flag;
			continue;
		}
		if (*data)
			strncat(data, ",", sizeof(data) - strlen(data) - 1);
		strncat(data, tok, sizeof(data) - strlen(data) - 1);
	}
	if (mount(s->dev, s->mnt, fstype, flags, *data ? data : NULL)) {
		int e = errno;

		snprintf(s->errmsg, sizeof(s->errmsg), "cannot mount %.60s on %.400s (%s, %.400s): %s",
			 s->dev, s->mnt, fstype, *opts ? opts : "defaults", strerror(e));
		return -e;
	}
	s->mounted = 1;
	return 0;
}

int fsl_scratch__new(const struct fsl_scratch_opts *o, struct fsl_scratch **out)
{
	struct fsl_scratch *s;
	const char *base = o->tmpdir;
	int fd, err;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	*out = s;
	s->loop_fd = -1;
	s->keep = o->keep;
	if (o->device && !o->force)
		return fail(s, -EPERM, "refusing to overwrite %s without --force", o->device);
	if (o->device && device_is_mounted(o->device))
		return fail(s, -EBUSY, "refusing to use %s: it is mounted", o->device);
	if (!base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	snprintf(s->dir, sizeof(s->dir), "%s/fslens-scratch.XXXXXX", base);
	if (!mkdtemp(s->dir)) {
		err = fail(s, errno, "cannot make a temporary directory in '%s'", base);
		s->dir[0] = 0;
		return err;
	}
	snprintf(s->mnt, sizeof(s->mnt), "%s/mnt", s->dir);
	if (mkdir(s->mnt, 0755))
		return fail(s, errno, "mkdir '%s'", s->mnt);
	if (o->device) {
		snprintf(s->dev, sizeof(s->dev), "%s", o->device);
		if ((err = do_mkfs(s, o, s->dev)))
			return err;
		return do_mount(s, o->mount_opts, fstype_of(o));
	}
	snprintf(s->img, sizeof(s->img), "%s/fs.img", s->dir);
	fd = open(s->img, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(s, errno, "cannot create '%s'", s->img);
	s->own_img = 1;
	if (ftruncate(fd, o->size)) {
		err = fail(s, errno, "cannot size '%s'", s->img);
		close(fd);
		return err;
	}
	close(fd);
	if ((err = do_mkfs(s, o, s->img)))
		return err;
	if ((err = attach_loop(s, o->direct_io)))
		return err;
	return do_mount(s, o->mount_opts, fstype_of(o));
}

int fsl_scratch__umount(struct fsl_scratch *s)
{
	int i, fd;

	if (!s || !s->mounted)
		return 0;
	/* a workload killed between freeze and thaw (drop_caches) leaves it frozen */
	fd = open(s->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		ioctl(fd, FITHAW, 0);
		close(fd);
	}
	/* a killed workload's last references go away within moments */
	for (i = 0; i < 50; i++) {
		if (!umount2(s->mnt, 0)) {
			s->mounted = 0;
			return 0;
		}
		if (errno != EBUSY)
			break;
		usleep(100000);
	}
	if (!umount2(s->mnt, MNT_DETACH)) {
		s->mounted = 0;
		return -EBUSY;	/* detached lazily: reported, the rest of cleanup still runs */
	}
	return fail(s, errno, "cannot unmount '%s'", s->mnt);
}

int fsl_scratch__free(struct fsl_scratch *s)
{
	int err = 0, e;

	if (!s)
		return 0;
	e = fsl_scratch__umount(s);
	if (e && !err)
		err = e;
	if (s->loop_fd >= 0) {
		/* on a busy device the kernel defers this to the last close */
		if (ioctl(s->loop_fd, LOOP_CLR_FD, 0) && errno != ENXIO && !err)
			err = fail(s, errno, "cannot detach %s", s->dev);
		close(s->loop_fd);
		s->loop_fd = -1;
	}
	if (s->own_img && !s->keep) {
		if (unlink(s->img) && errno != ENOENT && !err)
			err = fail(s, errno, "cannot remove '%s'", s->img);
	}
	if (s->dir[0]) {
		if (rmdir(s->mnt) && errno != ENOENT && !err)
			err = fail(s, errno, "cannot remove '%s'", s->mnt);
		if (!s->keep && rmdir(s->dir) && errno != ENOENT && !err)
			err = fail(s, errno, "cannot remove '%s'", s->dir);
	}
	free(s);
	return err;
}

static int add_arg(struct fsl_scratch_opts *o, const char *a)
{
	if (o->nmkfs >= FSL_SCRATCH_ARGS_MAX)
		return -E2BIG;
	snprintf(o->storage[o->nmkfs], sizeof(o->storage[0]), "%s", a);
	o->mkfs_args[o->nmkfs] = o->storage[o->nmkfs];
	o->nmkfs++;
	return 0;
}

static void add_mopt(struct fsl_scratch_opts *o, const char *opt)
{
	if (!opt || !*opt)
		return;
	if (o->mount_opts[0])
		strncat(o->mount_opts, ",", sizeof(o->mount_opts) - strlen(o->mount_opts) - 1);
	strncat(o->mount_opts, opt, sizeof(o->mount_opts) - strlen(o->mount_opts) - 1);
}

static void add_extra_args(struct fsl_scratch_opts *o, const char *extra, int *err)
{
	char copy[512], *tok, *save;

	if (!extra || !*extra)
		return;
	snprintf(copy, sizeof(copy), "%s", extra);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		*err |= add_arg(o, tok);
}

/*
 * mkfs.xfs: the block size, and the log (journal=SIZE, else the seed's 8192
 * blocks: mkfs.xfs -l size=8192b). XFS has no inode count, large_dir nor
 * nodelalloc to set: asked for, they are refused.
 */
static int xfs_from_params(struct fsl_scratch_opts *o, const struct fsl_params *p, uint64_t bs,
			   uint64_t journal)
{
	const char *atime = fsl_params__get(p, "atime");
	char buf[64];
	int err = 0;

	if (fsl_params__size(p, "inodes") || fsl_params__bool(p, "large_dir") ||
	    !fsl_params__bool(p, "delalloc"))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "size=%llu", (unsigned long long)bs);
	err |= add_arg(o, "-b");
	err |= add_arg(o, buf);
	if (journal)
		snprintf(buf, sizeof(buf), "size=%lluk", (unsigned long long)(journal >> 10));
	else
		snprintf(buf, sizeof(buf), "size=8192b");
	err |= add_arg(o, "-l");
	err |= add_arg(o, buf);
	add_extra_args(o, fsl_params__get(p, "mkfs_opts"), &err);
	if (atime && *atime) {
		if (strcmp(atime, "relatime") && strcmp(atime, "strictatime") &&
		    strcmp(atime, "noatime") && strcmp(atime, "atime"))
			return -EINVAL;
		add_mopt(o, !strcmp(atime, "atime") ? "strictatime" : atime);
	}
	add_mopt(o, fsl_params__get(p, "mount_opts"));
	o->direct_io = fsl_params__bool(p, "dio");
	return err ? -E2BIG : 0;
}

int fsl_scratch_opts__from_params(struct fsl_scratch_opts *o, const struct fsl_params *p,
				  char *notes, size_t notes_len)
{
	uint64_t bs = fsl_params__size(p, "blocksize"), journal = fsl_params__size(p, "journal");
	const char *atime = fsl_params__get(p, "atime"), *extra = fsl_params__get(p, "mkfs_opts");
	const char *fs = fsl_params__get(p, "fs");
	char buf[128], copy[512], *tok, *save;
	int err = 0;

	if (notes_len)
		notes[0] = 0;
	o->nmkfs = 0;
	o->journal_mib = 0;
	o->mount_opts[0] = 0;
	o->size = fsl_params__size(p, "fs_size");
	if (!fs || !*fs)
		fs = "ext4";
	if (strcmp(fs, "ext4") && strcmp(fs, "ext3") && strcmp(fs, "xfs"))
		return -EINVAL;
	snprintf(o->fstype, sizeof(o->fstype), "%s", fs);
	if (o->size < (16 << 20))
		return -EINVAL;
	if (bs != 1024 && bs != 2048 && bs != 4096)
		return -EINVAL;
	if (!strcmp(fs, "xfs"))
		return xfs_from_params(o, p, bs, journal);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bs);
	err |= add_arg(o, "-b");
	err |= add_arg(o, buf);
	if (journal) {
		/* jbd2 needs at least 1024 blocks: 1 MiB at 1K blocks, 4 MiB at 4K */
		uint64_t mib = (journal + (1 << 20) - 1) >> 20, min = (1024 * bs) >> 20;

		if (mib < min) {
			snprintf(notes, notes_len, "journal=%s raised to %lluM (1024 blocks of %llu "
				 "bytes is the minimum)", fsl_params__get(p, "journal"),
				 (unsigned long long)min, (unsigned long long)bs);
			mib = min;
		}
		o->journal_mib = mib;
		snprintf(buf, sizeof(buf), "size=%llu", (unsigned long long)mib);
		err |= add_arg(o, "-J");
		err |= add_arg(o, buf);
	}
	if (fsl_params__size(p, "inodes")) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)fsl_params__size(p, "inodes"));
		err |= add_arg(o, "-N");
		err |= add_arg(o, buf);
	}
	if (fsl_params__bool(p, "large_dir")) {
		err |= add_arg(o, "-O");
		err |= add_arg(o, "large_dir");
	}
	/* no lazy init: ext4lazyinit writing inode tables would pollute the trace */
	err |= add_arg(o, "-E");
	err |= add_arg(o, "lazy_itable_init=0,lazy_journal_init=0,nodiscard");
	if (extra && *extra) {
		snprintf(copy, sizeof(copy), "%s", extra);
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			err |= add_arg(o, tok);
	}
	if (atime && *atime) {
		if (strcmp(atime, "relatime") && strcmp(atime, "strictatime") &&
		    strcmp(atime, "noatime") && strcmp(atime, "atime"))
			return -EINVAL;
		add_mopt(o, !strcmp(atime, "atime") ? "strictatime" : atime);
	}
	if (!fsl_params__bool(p, "delalloc"))
		add_mopt(o, "nodelalloc");
	add_mopt(o, fsl_params__get(p, "mount_opts"));
	o->direct_io = fsl_params__bool(p, "dio");
	return err ? -E2BIG : 0;
}

static int read_sysctl(const char *name, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = 0;
	return 0;
}

static int write_sysctl(const char *name, const char *value)
{
	char path[128];
	size_t len = strlen(value);
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, len) != (ssize_t)len)
		err = -errno ? -errno : -EIO;
	close(fd);
	return err;
}

static volatile sig_atomic_t fsl_vm_no_stop;
volatile sig_atomic_t *fsl_vm_stop = &fsl_vm_no_stop;

int fsl_vm__lock(struct fsl_vm_saved *s, int wait)
{
	int fd, err;

	if (s->lock_fd)
		return 0;
	fd = open(FSL_VM_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = open("/tmp/fslens-vm.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) {
		err = -errno;
		if (err == -EINTR && !*fsl_vm_stop)
			continue;
		close(fd);
		return err;
	}
	s->lock_fd = fd;
	return 0;
}

int fsl_vm__set(struct fsl_vm_saved *s, const char *name, const char *value)
{
	int err;

	if (strcmp(name, "dirty_bytes") && strcmp(name, "dirty_background_bytes") &&
	    strcmp(name, "dirty_ratio") && strcmp(name, "dirty_background_ratio") &&
	    strcmp(name, "dirty_expire_centisecs") && strcmp(name, "dirty_writeback_centisecs"))
		return -EINVAL;
	if (!s->saved) {
		if (!s->lock_fd && (err = fsl_vm__lock(s, 1)))
			return err;
		if ((err = read_sysctl("dirty_bytes", s->dirty_bytes, sizeof(s->dirty_bytes))) ||
		    (err = read_sysctl("dirty_ratio", s->dirty_ratio, sizeof(s->dirty_ratio))) ||
		    (err = read_sysctl("dirty_background_bytes", s->bg_bytes, sizeof(s->bg_bytes))) ||
		    (err = read_sysctl("dirty_background_ratio", s->bg_ratio, sizeof(s->bg_ratio))) ||
		    (err = read_sysctl("dirty_expire_centisecs", s->expire, sizeof(s->expire))) ||
		    (err = read_sysctl("dirty_writeback_centisecs", s->writeback,
				       sizeof(s->writeback))))
			return err;
		s->saved = 1;
	}
	return write_sysctl(name, value);
}

int fsl_vm__restore(struct fsl_vm_saved *s)
{
	int err = 0, e;

	if (!s->saved)
		return 0;
	/* the kernel zeroes one of each pair when the other is written */
	e = strcmp(s->dirty_bytes, "0") ? write_sysctl("dirty_bytes", s->dirty_bytes)
					: write_sysctl("dirty_ratio", s->dirty_ratio);
	if (e)
		err = e;
	e = strcmp(s->bg_bytes, "0") ? write_sysctl("dirty_background_bytes", s->bg_bytes)
				     : write_sysctl("dirty_background_ratio", s->bg_ratio);
	if (e && !err)
		err = e;
	e = write_sysctl("dirty_expire_centisecs", s->expire);
	if (e && !err)
		err = e;
	e = write_sysctl("dirty_writeback_centisecs", s->writeback);
	if (e && !err)
		err = e;
	if (!err) {
		s->saved = 0;
		if (s->lock_fd > 0)
			close(s->lock_fd);
		s->lock_fd = 0;
	}
	return err;
}
