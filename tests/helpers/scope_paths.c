// SPDX-License-Identifier: GPL-2.0
/*
 * Path calls whose filesystem a string test on the path gets wrong, for
 * tests/live/scope_paths.sh. Run as
 *	scope_paths TARGET BIND NSDIR OTHER TMPFS [XFS]
 * where TARGET is the recorded filesystem's mount point, with another
 * filesystem mounted at TARGET/nested, the symlink TARGET/out pointing to
 * OTHER/outdir and OTHER/in to TARGET/indir; BIND a bind mount of TARGET;
 * NSDIR an empty directory on neither; OTHER another ext4, TMPFS a tmpfs,
 * XFS (optional) an XFS. For each call it prints
 *	TOKEN WANT RET OP PATH
 * WANT 1 if the call acts on TARGET (its record must be in the trace), 0
 * if not (it must not be), RET what the call returned (0 or -errno), OP
 * and PATH the record it makes (PATH as the call named it; a rename's
 * "FROM -> TO").
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

static int fails;

static void want(const char *tok, int on_target, const char *op, const char *path,
		 const char *path2, long ret, int want_err)
{
	long r = ret < 0 ? -errno : 0;

	/* the record as fslens dump prints it: OP "PATH" [-> "PATH2"] */
	printf("%s %d %ld %s \"%s\"", tok, on_target, r, op, path);
	if (path2)
		printf(" -> \"%s\"", path2);
	printf("\n");
	/* the case is only meaningful if the call did what it was meant to */
	if ((want_err && r != -want_err) || (!want_err && r)) {
		fprintf(stderr, "scope_paths: %s returned %ld, meant %d\n", tok, r, -want_err);
		fails++;
	}
	fflush(stdout);
}

/* One call on path p_ (p2_: its second path), expected to fail with err (0: succeed). */
#define CASE(tok, on, op, path, call, err) do {					\
	const char *p_ = (path);						\
	want(tok, on, op, p_, NULL, (call), err);				\
} while (0)
#define CASE2(tok, on, op, path, path2, call, err) do {				\
	const char *p_ = (path), *p2_ = (path2);				\
	want(tok, on, op, p_, p2_, (call), err);				\
} while (0)

static long creat_close(int dfd, const char *p)
{
	int fd = openat(dfd, p, O_CREAT | O_WRONLY, 0644);

	return fd < 0 ? -1 : close(fd);
}

static const char *P(const char *fmt, ...)
{
	static char buf[8][4096];
	static int i;
	va_list ap;
	char *b = buf[i++ & 7];

	va_start(ap, fmt);
	vsnprintf(b, sizeof(buf[0]), fmt, ap);
	va_end(ap);
	return b;
}

static void must(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "scope_paths: setup %s: %s\n", what, strerror(errno));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *A, *bind, *nsdir, *B, *T, *X;
	struct stat st;
	struct statx sx;
	int dfd, bfd, st_;
	pid_t pid;

	if (argc < 6) {
		fprintf(stderr, "usage: scope_paths TARGET BIND NSDIR OTHER TMPFS [XFS]\n");
		return 2;
	}
	A = argv[1]; bind = argv[2]; nsdir = argv[3]; B = argv[4]; T = argv[5];
	X = argc > 6 ? argv[6] : NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* relative paths of several components after chdir into the target */
	must(mkdir(P("%s/rel", A), 0755) == 0 && mkdir(P("%s/rel/d", A), 0755) == 0, "rel");
	must(chdir(P("%s/rel", A)) == 0, "chdir rel");
	CASE("t01", 1, "mkdir", "d/t01", mkdir(p_, 0755), 0);
	CASE("t02", 1, "stat", "d/t01", stat(p_, &st), 0);
	CASE("t03", 1, "create", "d/t01/t03", creat_close(AT_FDCWD, p_), 0);
	CASE2("t04", 1, "rename", "d/t01/t03", "d/t01/t04", rename(p_, p2_), 0);
	CASE("t05", 1, "unlink", "d/t01/t04", unlink(p_), 0);
	CASE("t06", 1, "stat", "d/none_t06", stat(p_, &st), ENOENT);	/* failed lookup */
	CASE("t07", 1, "stat", "../none_t07", stat(p_, &st), ENOENT);	/* ".." to the root */
	CASE("t08", 1, "rmdir", "d/t01/../t01", rmdir(p_), 0);

	/* dirfd-relative *at calls */
	must(mkdir(P("%s/at", A), 0755) == 0 && mkdir(P("%s/at/s", A), 0755) == 0, "at");
	dfd = open(P("%s/at", A), O_RDONLY | O_DIRECTORY);
	must(dfd >= 0, "open at");
	must(chdir("/") == 0, "chdir /");	/* the cwd is not the target: the dirfd decides */
	CASE("t10", 1, "mkdir", "s/t10", mkdirat(dfd, p_, 0755), 0);
	CASE("t11", 1, "stat", "s/t10", fstatat(dfd, p_, &st, 0), 0);
	CASE("t12", 1, "create", "s/t10/t12", creat_close(dfd, p_), 0);
	CASE2("t13", 1, "rename", "s/t10/t12", "s/t10/t13", renameat(dfd, p_, dfd, p2_), 0);
	CASE2("t14", 1, "link", "s/t10/t13", "s/t10/t14", linkat(dfd, p_, dfd, p2_, 0), 0);
	CASE("t15", 1, "unlink", "s/t10/t14", unlinkat(dfd, p_, 0), 0);
	CASE("t16", 1, "stat", "s/none_t16", fstatat(dfd, p_, &st, 0), ENOENT);
	CASE("t17", 1, "stat", "s/t10/", statx(dfd, p_, 0, STATX_BASIC_STATS, &sx), 0);
	CASE2("t18", 1, "symlink", "s/t18", "anywhere", symlinkat(p2_, dfd, p_), 0);

	/* the target bind-mounted elsewhere: its calls are the target's */
	CASE("t20", 1, "mkdir", P("%s/t20", bind), mkdir(p_, 0755), 0);
	CASE("t21", 1, "stat", P("%s/t20/", bind), stat(p_, &st), 0);
	CASE("t22", 1, "stat", P("%s/none_t22", bind), stat(p_, &st), ENOENT);

	/* a symlink on another filesystem pointing into the target */
	CASE("t30", 1, "mkdir", P("%s/in/t30", B), mkdir(p_, 0755), 0);
	CASE("t31", 1, "stat", P("%s/in/t30/", B), stat(p_, &st), 0);
	CASE("t32", 1, "create", P("%s/in/t32", B), creat_close(AT_FDCWD, p_), 0);
	/* the symlink in the target pointing out, itself */
	CASE("t33", 1, "stat", P("%s/out", A), lstat(p_, &st), 0);
	CASE2("t34", 1, "symlink", P("%s/out_t34", A), P("%s/outdir", B), symlink(p2_, p_), 0);

	/* chroot into the target: absolute paths are under its root */
	pid = fork();
	if (!pid) {
		must(chroot(A) == 0 && chdir("/") == 0, "chroot");
		CASE("t40", 1, "mkdir", "/t40", mkdir(p_, 0755), 0);
		CASE("t41", 1, "stat", "/none_t41", stat(p_, &st), ENOENT);
		CASE("t42", 1, "stat", "/rel/d/../t42/..", stat(p_, &st), ENOENT);
		_exit(fails ? 1 : 0);
	}
	must(pid > 0 && waitpid(pid, &st_, 0) == pid && WIFEXITED(st_) && !WEXITSTATUS(st_),
	     "chroot child");
	/* a mount namespace of its own, the target bind-mounted at NSDIR in it */
	pid = fork();
	if (!pid) {
		must(unshare(CLONE_NEWNS) == 0, "unshare");
		must(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0, "make-rprivate");
		must(mount(A, nsdir, NULL, MS_BIND, NULL) == 0, "bind in namespace");
		CASE("t43", 1, "mkdir", P("%s/t43", nsdir), mkdir(p_, 0755), 0);
		CASE("t44", 1, "stat", P("%s/none_t44", nsdir), stat(p_, &st), ENOENT);
		CASE("t45", 1, "create", P("%s/rel/t45", nsdir), creat_close(AT_FDCWD, p_), 0);
		_exit(fails ? 1 : 0);
	}
	must(pid > 0 && waitpid(pid, &st_, 0) == pid && WIFEXITED(st_) && !WEXITSTATUS(st_),
	     "namespace child");

	/* a filesystem mounted under the target's mount point: not the target */
	CASE("t50", 0, "mkdir", P("%s/nested/t50", A), mkdir(p_, 0755), 0);
	CASE("t51", 0, "stat", P("%s/nested/t50", A), stat(p_, &st), 0);
	CASE("t52", 0, "create", P("%s/nested/t52", A), creat_close(AT_FDCWD, p_), 0);
	CASE("t53", 0, "stat", P("%s/nested/none_t53", A), stat(p_, &st), ENOENT);
	CASE2("t54", 0, "rename", P("%s/nested/t52", A), P("%s/nested/t54", A), rename(p_, p2_), 0);
	CASE("t55", 0, "unlink", P("%s/nested/t54", A), unlink(p_), 0);
	must(chdir(P("%s/rel", A)) == 0, "chdir rel again");
	CASE("t56", 0, "stat", "../nested/none_t56", stat(p_, &st), ENOENT);	/* up, then in */
	CASE("t57", 0, "mkdir", "../nested/t57", mkdir(p_, 0755), 0);
	must(chdir(P("%s/nested", A)) == 0, "chdir nested");
	CASE("t58", 0, "mkdir", "t50/t58", mkdir(p_, 0755), 0);
	CASE("t59", 0, "stat", "t50/none_t59", stat(p_, &st), ENOENT);

	/* the target's symlink pointing out: calls through it act on the other filesystem */
	CASE("t60", 0, "mkdir", P("%s/out/t60", A), mkdir(p_, 0755), 0);
	CASE("t61", 0, "stat", P("%s/out/t60", A), stat(p_, &st), 0);
	CASE("t62", 0, "create", P("%s/out/t62", A), creat_close(AT_FDCWD, p_), 0);
	CASE("t63", 0, "unlink", P("%s/out/t62", A), unlink(p_), 0);

	/* other filesystems, by absolute path and by dirfd */
	CASE("t64", 0, "mkdir", P("%s/t64", B), mkdir(p_, 0755), 0);
	CASE("t65", 0, "stat", P("%s/none_t65", B), stat(p_, &st), ENOENT);
	CASE("t66", 0, "mkdir", P("%s/t66", T), mkdir(p_, 0755), 0);
	CASE("t67", 0, "stat", P("%s/none_t67", T), stat(p_, &st), ENOENT);
	bfd = open(B, O_RDONLY | O_DIRECTORY);
	must(bfd >= 0, "open other");
	must(chdir(P("%s/rel", A)) == 0, "chdir rel once more");	/* the cwd is the target's */
	CASE("t68", 0, "mkdir", "t64/t68", mkdirat(bfd, p_, 0755), 0);
	CASE("t69", 0, "stat", "t64/none_t69", fstatat(bfd, p_, &st, 0), ENOENT);
	CASE("t70", 0, "stat", "t70", fstatat(999, p_, &st, 0), EBADF);	/* no filesystem */
	if (X) {
		CASE("t71", 0, "mkdir", P("%s/t71", X), mkdir(p_, 0755), 0);
		CASE("t72", 0, "stat", P("%s/t71", X), stat(p_, &st), 0);
		CASE("t73", 0, "stat", P("%s/none_t73", X), stat(p_, &st), ENOENT);
		CASE("t74", 0, "rmdir", P("%s/t71", X), rmdir(p_), 0);
	}
	return fails ? 1 : 0;
}
