// SPDX-License-Identifier: GPL-2.0
/*
 * Where the writer writes (issue 19, item 5): never through a symbolic link,
 * never into anything but a regular file; -f replaces by rename, so another
 * name of the old file keeps its contents.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "t.h"
#include "fslens/trace.h"

static const struct fsl_writer_opts force = { .force = 1 };

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int has(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strcmp(buf, text);
}

static int write_trace(const char *path, const struct fsl_writer_opts *o, int *err)
{
	struct fsl_writer *w = fsl_writer__open(path, o, err);

	if (!w)
		return *err;
	fsl_writer__kv(w, "host.name", "w");
	return fsl_writer__close(w);
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

TEST(writer_refuses_symlinks)
{
	char victim[512], link[512], dangling[512];
	int err = 0;

	snprintf(victim, sizeof(victim), "%s", t_path("victim"));
	snprintf(link, sizeof(link), "%s", t_path("link.trace"));
	snprintf(dangling, sizeof(dangling), "%s", t_path("dangling.trace"));
	REQUIRE(put(victim, "precious\n") == 0);
	REQUIRE(symlink(victim, link) == 0);
	REQUIRE(symlink(t_path("nothing-here"), dangling) == 0);
	/* with and without -f: refused, the target untouched and not created */
	CHECK(fsl_writer__open(link, NULL, &err) == NULL);
	CHECK_EQ(err, -ELOOP);
	CHECK(fsl_writer__open(link, &force, &err) == NULL);
	CHECK_EQ(err, -ELOOP);
	CHECK(has(victim, "precious\n"));
	CHECK(fsl_writer__open(dangling, &force, &err) == NULL);
	CHECK_EQ(err, -ELOOP);
	CHECK(access(t_path("nothing-here"), F_OK) != 0);
	CHECK_STR(fsl_writer_strerror(-ELOOP), "it is a symbolic link; fslens writes only to a "
		  "regular file it creates (remove the link or choose another name)");
}

TEST(writer_refuses_non_regular)
{
	int err = 0;

	REQUIRE(mkdir(t_path("dir.trace"), 0700) == 0);
	CHECK(fsl_writer__open(t_path("dir.trace"), NULL, &err) == NULL);
	CHECK_EQ(err, -EISDIR);
	CHECK(fsl_writer__open(t_path("dir.trace"), &force, &err) == NULL);
	CHECK_EQ(err, -EISDIR);
	REQUIRE(mkfifo(t_path("fifo.trace"), 0600) == 0);
	CHECK(fsl_writer__open(t_path("fifo.trace"), &force, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	CHECK(fsl_writer__open("/dev/null", &force, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	/* nothing left behind: the directory, the fifo */
	CHECK_EQ(entries(t_tmpdir()), 2);
}

TEST(writer_force_replaces_by_rename)
{
	char path[512], other[512];
	struct fsl_reader *r;
	struct stat sb;
	int err = 0;

	snprintf(path, sizeof(path), "%s", t_path("x.trace"));
	snprintf(other, sizeof(other), "%s", t_path("other-name"));
	REQUIRE(put(path, "old\n") == 0);
	REQUIRE(chmod(path, 0644) == 0);
	REQUIRE(link(path, other) == 0);
	CHECK_EQ(write_trace(path, NULL, &err), -EEXIST);
	CHECK(has(path, "old\n"));
	CHECK_EQ(write_trace(path, &force, &err), 0);
	/* the other name still has the old contents: the old inode was not written */
	CHECK(has(other, "old\n"));
	REQUIRE(lstat(path, &sb) == 0);
	CHECK(S_ISREG(sb.st_mode));
	CHECK_EQ(sb.st_mode & 0777, 0600);
	CHECK_EQ(sb.st_nlink, 1);
	r = fsl_reader__open(path, NULL, &err);
	REQUIRE(r);
	CHECK_STR(fsl_reader__kv(r, "host.name"), "w");
	fsl_reader__close(r);
	/* no temporary file beside it */
	CHECK_EQ(entries(t_tmpdir()), 2);
	/* a new name, with -f: created in place */
	CHECK_EQ(write_trace(t_path("new.trace"), &force, &err), 0);
	CHECK_EQ(entries(t_tmpdir()), 3);
}
