// SPDX-License-Identifier: GPL-2.0
/* Runner for the unit tests registered with TEST(). */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include "t.h"

struct t_case {
	const char *file, *name;
	t_fn fn;
};

static struct t_case cases[1024];
static unsigned int ncases;
static int cur_failed, cur_skipped;
static char cur_why[512];
static char tmpdir[256];

void t_register(const char *file, const char *name, t_fn fn)
{
	const char *base = strrchr(file, '/');

	if (ncases < sizeof(cases) / sizeof(cases[0]))
		cases[ncases++] = (struct t_case){ base ? base + 1 : file, name, fn };
}

void t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	const char *base = strrchr(file, '/');
	int n;

	if (!cur_failed) {
		n = snprintf(cur_why, sizeof(cur_why), "%s:%d: ", base ? base + 1 : file, line);
		va_start(ap, fmt);
		vsnprintf(cur_why + n, sizeof(cur_why) - n, fmt, ap);
		va_end(ap);
	} else {
		/* Later failures go to stderr so the first stays the summary. */
		fprintf(stderr, "  also %s:%d: ", base ? base + 1 : file, line);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	cur_failed++;
}

void t_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cur_why, sizeof(cur_why), fmt, ap);
	va_end(ap);
	cur_skipped = 1;
}

int t_failed(void)
{
	return cur_failed;
}

const char *t_tmpdir(void)
{
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "%s/fslens-unit-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(2);
		}
	}
	return tmpdir;
}

const char *t_path(const char *name)
{
	static char bufs[8][512];
	static unsigned int slot;
	char *b = bufs[slot++ % 8];

	snprintf(b, 512, "%s/%s", t_tmpdir(), name);
	return b;
}

static int rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(p);
}

static void rm_tmpdir(void)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = 0;
}

/* Seed corpus for `make fuzz`; the trace-format tests provide the real one. */
__attribute__((weak)) int t_make_corpus(const char *dir);
__attribute__((weak)) int t_make_corpus(const char *dir)
{
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int i, pass = 0, fail = 0, skip = 0;
	int j;

	if (argc == 3 && !strcmp(argv[1], "--make-corpus"))
		return t_make_corpus(argv[2]) ? 1 : 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < ncases; i++) {
		int want = argc < 2;

		for (j = 1; j < argc && !want; j++)
			want = strstr(cases[i].name, argv[j]) || strstr(cases[i].file, argv[j]);
		if (!want)
			continue;
		cur_failed = cur_skipped = 0;
		cur_why[0] = 0;
		cases[i].fn();
		if (cur_failed) {
			printf("FAIL unit:%s:%s: %s\n", cases[i].file, cases[i].name, cur_why);
			fail++;
			fprintf(stderr, "  (kept %s)\n", tmpdir[0] ? tmpdir : "no tmpdir");
			tmpdir[0] = 0;
		} else if (cur_skipped) {
			printf("SKIP unit:%s:%s: %s\n", cases[i].file, cases[i].name, cur_why);
			skip++;
			rm_tmpdir();
		} else {
			printf("PASS unit:%s:%s\n", cases[i].file, cases[i].name);
			pass++;
			rm_tmpdir();
		}
	}
	fprintf(stderr, "unit: %u passed, %u failed, %u skipped\n", pass, fail, skip);
	return fail ? 1 : 0;
}
