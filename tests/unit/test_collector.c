// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's plain-C parts: kallsyms symbolization, the dirops syscall
 * table, /proc/fs/jbd2 parsing, target resolution, kernel HZ, host metadata,
 * and the ext4 superblock and bitmaps read with libext2fs from an image
 * checked against dumpe2fs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "t.h"
#include "fslens/collector.h"
#include "fslens/fsmeta.h"
#include "../../collector/collector_int.h"

/* ---- a sink that keeps what it is given ---- */

struct kvs {
	char keys[256][64];
	char vals[256][1024];
	int n;
	struct fsl_bitmap bm[4];
	int nbm;
};

static int kvs_kv(void *ctx, const char *k, const char *v)
{
	struct kvs *s = ctx;

	if (s->n < 256) {
		snprintf(s->keys[s->n], 64, "%s", k);
		snprintf(s->vals[s->n], 1024, "%s", v);
		s->n++;
	}
	return 0;
}

static int kvs_text(void *ctx, const char *name, const void *data, size_t len)
{
	return kvs_kv(ctx, name, "(text)");
}

static int kvs_bitmap(void *ctx, const struct fsl_bitmap *bm)
{
	struct kvs *s = ctx;

	if (s->nbm >= 4)
		return -ENOSPC;
	s->bm[s->nbm] = *bm;
	s->bm[s->nbm].runs = malloc(bm->nruns * sizeof(uint64_t));
	memcpy(s->bm[s->nbm].runs, bm->runs, bm->nruns * sizeof(uint64_t));
	s->nbm++;
	return 0;
}

static const char *kvs_get(const struct kvs *s, const char *k)
{
	int i;

	for (i = s->n - 1; i >= 0; i--)
		if (!strcmp(s->keys[i], k))
			return s->vals[i];
	return NULL;
}

static void kvs_free(struct kvs *s)
{
	int i;

	for (i = 0; i < s->nbm; i++)
		free(s->bm[i].runs);
}

/* ---- kallsyms ---- */

TEST(ksyms_lookup)
{
	const char *p = t_path("kallsyms");
	FILE *f = fopen(p, "w");
	struct fsl_ksyms *k;
	char buf[128];
	int err = 0;

	REQUIRE(f);
	/* unsorted on purpose; data ('d', 'D') and absolute symbols are not code */
	fprintf(f, "ffffffff81200000 T schedule\n"
		   "ffffffff81100000 t __schedule\n"
		   "ffffffff81300000 D jiffies\n"
		   "ffffffff81400000 T jbd2_log_do_checkpoint\t[jbd2]\n"
		   "0000000000000000 A fixed_percpu_data\n");
	fclose(f);
	k = fsl_ksyms__load(p, &err);
	REQUIRE(k);
	CHECK_EQ(fsl_ksyms__count(k), 3);
	CHECK_STR(fsl_ksyms__name(k, 0xffffffff81100000ull, buf, sizeof(buf)), "__schedule");
	CHECK_STR(fsl_ksyms__name(k, 0xffffffff81100628ull, buf, sizeof(buf)), "__schedule+0x628");
	CHECK_STR(fsl_ksyms__name(k, 0xffffffff81200023ull, buf, sizeof(buf)), "schedule+0x23");
	/*
	 * A megabyte past schedule (jiffies is data): code kallsyms does not
	 * name, a JIT image, never "schedule+0x100010".
	 */
	CHECK_STR(fsl_ksyms__name(k, 0xffffffff81300010ull, buf, sizeof(buf)), "[bpf]");
	CHECK_STR(fsl_ksyms__name(k, 0xffffffff81400312ull, buf, sizeof(buf)),
		  "jbd2_log_do_checkpoint+0x312");
	/* far past a module's last symbol: no function is a megabyte long */
	CHECK_STR(fsl_ksyms__name(k, 0xffffffff81600000ull, buf, sizeof(buf)), "[bpf]");
	CHECK(fsl_ksyms__name(k, 0xffffffff81000000ull, buf, sizeof(buf)) == NULL);
	fsl_ksyms__free(k);
}

TEST(ksyms_hidden_addresses)
{
	const char *p = t_path("kallsyms0");
	FILE *f = fopen(p, "w");
	int err = 0;

	REQUIRE(f);
	/* what an unprivileged reader sees with kptr_restrict */
	fprintf(f, "0000000000000000 T schedule\n0000000000000000 t __schedule\n");
	fclose(f);
	CHECK(fsl_ksyms__load(p, &err) == NULL);
	CHECK_EQ(err, -EPERM);
	CHECK(fsl_ksyms__load(t_path("nope"), &err) == NULL);
	CHECK_EQ(err, -ENOENT);
}

/* ---- dirops table ---- */

static const struct fsl_dirop_sc_entry *sc_find(const char *name)
{
	const struct fsl_dirop_sc_entry *t;
	unsigned int i, n = fsl_dirop_table(&t);

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

TEST(dirops_table_layout)
{
	const struct fsl_dirop_sc_entry *t, *e;
	unsigned int i, j, n = fsl_dirop_table(&t);

	CHECK(n >= 15);
	for (i = 0; i < n; i++) {
		const struct fsl_dirop_sc *s = &t[i].sc;

		CHECK((s->op >= 1 && s->op <= FSL_OP__MAX) ||
		      (!s->op && (s->data || s->aio || s->async)));
		/* the struct a stat call fills: only stat calls, where the man pages put it */
		CHECK(s->statbuf == -1 || (s->op == FSL_OP_STAT + 1 && s->statbuf >= 1 &&
					   s->statbuf <= 4));
		CHECK(s->async <= 2);
		CHECK(s->data <= FSL_DATA__MAX);
		if (s->data)
			CHECK(s->fd >= 0 && s->fd <= 4 && s->count >= -1 && s->count <= 4 &&
			      s->off >= -1 && s->off <= 4 && s->iov >= -1 && s->iov <= 4 &&
			      s->fd2 >= -1 && s->fd2 <= 4);
		CHECK(t[i].nr < 1024);	/* DIROP_NR_MAX in probes/dirops.bpf.h */
		CHECK(s->path >= -1 && s->path <= 4 && s->path2 >= -1 && s->path2 <= 4);
		CHECK(s->dirfd >= -1 && s->dirfd <= 4 && s->flags >= -1 && s->flags <= 4);
		for (j = i + 1; j < n; j++)
			CHECK(t[i].nr != t[j].nr);
	}
	/* the numbers are this architecture's */
	e = sc_find("openat");
	REQUIRE(e);
	CHECK_EQ(e->nr, SYS_openat);
	CHECK_EQ(e->sc.op, FSL_OP_OPEN + 1);
	CHECK_EQ(e->sc.dirfd, 0);
	CHECK_EQ(e->sc.path, 1);
	CHECK_EQ(e->sc.flags, 2);
	CHECK_EQ(e->sc.mode, 3);
	/* data operations: fd, count, offset and the iovecs where the man pages put them */
	e = sc_find("pwrite64");
	REQUIRE(e);
	CHECK_EQ(e->nr, SYS_pwrite64);
	CHECK_EQ(e->sc.op, 0);
	CHECK_EQ(e->sc.data, FSL_DATA_PWRITE + 1);
	CHECK_EQ(e->sc.fd, 0);
	CHECK_EQ(e->sc.count, 2);
	CHECK_EQ(e->sc.off, 3);
	e = sc_find("readv");
	REQUIRE(e);
	CHECK_EQ(e->sc.data, FSL_DATA_READ + 1);
	CHECK_EQ(e->sc.iov, 1);
	CHECK_EQ(e->sc.count, 2);
	CHECK_EQ(e->sc.off, -1);
	e = sc_find("sendfile");	/* (out_fd, in_fd, offset *, count) */
	REQUIRE(e);
	CHECK_EQ(e->sc.fd, 1);
	CHECK_EQ(e->sc.fd2, 0);
	CHECK_EQ(e->sc.off, 2);
	CHECK_EQ(e->sc.offptr, 1);
	CHECK_EQ(e->sc.count, 3);
	e = sc_find("io_getevents");	/* (ctx, min_nr, ...): a wait for AIO completions */
	REQUIRE(e);
	CHECK_EQ(e->sc.op, 0);
	CHECK_EQ(e->sc.data, 0);
	CHECK_EQ(e->sc.aio, 1);
	CHECK_EQ(e->sc.count, 1);
	CHECK_EQ(e->sc.async, 2);	/* and the events it reaped (probes/aio.bpf.h) */
	e = sc_find("io_submit");	/* (ctx, nr, iocbpp): its iocbs, not a wait */
	REQUIRE(e);
	CHECK_EQ(e->nr, SYS_io_submit);
	CHECK_EQ(e->sc.op, 0);
	CHECK_EQ(e->sc.aio, 0);
	CHECK_EQ(e->sc.async, 1);
	e = sc_find("io_uring_enter");
	REQUIRE(e);
	CHECK_EQ(e->sc.aio, 2);
	CHECK_EQ(e->sc.async, 0);
	e = sc_find("newfstatat");	/* (dfd, path, statbuf, flag) */
	REQUIRE(e);
	CHECK_EQ(e->sc.op, FSL_OP_STAT + 1);
	CHECK_EQ(e->sc.statbuf, 2);
	CHECK_EQ(e->sc.statx, 0);
	e = sc_find("statx");		/* (dfd, path, flags, mask, buffer) */
	REQUIRE(e);
	CHECK_EQ(e->sc.statbuf, 4);
	CHECK_EQ(e->sc.statx, 1);
	e = sc_find("mkdirat");
	REQUIRE(e);
	CHECK_EQ(e->sc.statbuf, -1);
	e = sc_find("fsync");		/* both a dirop and a data operation */
	REQUIRE(e);
	CHECK_EQ(e->sc.op, FSL_OP_FSYNC + 1);
	CHECK_EQ(e->sc.data, FSL_DATA_FSYNC + 1);
	e = sc_find("renameat2");
	REQUIRE(e);
	CHECK_EQ(e->nr, SYS_renameat2);
	CHECK_EQ(e->sc.path, 1);
	CHECK_EQ(e->sc.dirfd2, 2);
	CHECK_EQ(e->sc.path2, 3);
	CHECK_EQ(e->sc.flags, 4);
	e = sc_find("symlinkat");	/* (target, newdirfd, linkpath): path is the new name */
	REQUIRE(e);
	CHECK_EQ(e->sc.path, 2);
	CHECK_EQ(e->sc.path2, 0);
	CHECK_EQ(e->sc.dirfd, 1);
	e = sc_find("getdents64");
	REQUIRE(e);
	CHECK_EQ(e->sc.fd, 0);
	CHECK_EQ(e->sc.path, -1);
	CHECK(sc_find("fsync") && sc_find("fdatasync") && sc_find("syncfs") && sc_find("sync"));
	CHECK(sc_find("mkdirat") && sc_find("unlinkat") && sc_find("linkat") && sc_find("statx"));
}

/* ---- target, HZ, host ---- */

TEST(target_resolve_root)
{
	struct fsl_target *t = calloc(1, sizeof(*t));
	struct stat st;

	REQUIRE(t);
	REQUIRE(stat("/", &st) == 0);
	CHECK_EQ(fsl_target_resolve("/", NULL, t), 0);
	CHECK_EQ(t->dev, FSL_MKDEV(major(st.st_dev), minor(st.st_dev)));
	CHECK_STR(t->mount, "/");
	CHECK(t->fstype[0] != 0);
	CHECK(strstr(t->mountinfo, " / / ") != NULL);
	CHECK_EQ(fsl_target_resolve("/nonexistent/x", NULL, t), -ENOENT);
	CHECK_EQ(fsl_target_resolve(NULL, "/etc/hostname", t), -ENOTBLK);
	free(t);
}

static long long jiffies_now(void)
{
	char line[256];
	long long j = -1;
	FILE *f = fopen("/proc/timer_list", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "jiffies: %lld", &j) == 1)
			break;
	fclose(f);
	return j;
}

TEST(kernel_hz_matches_jiffies)
{
	const char *src = NULL;
	int hz = fsl_kernel_hz(&src);
	struct timespec d = { 0, 400 * 1000 * 1000 }, a, b;
	long long j0, j1;
	double rate;

	CHECK(hz == 100 || hz == 250 || hz == 300 || hz == 1000);
	REQUIRE(src);
	/* independent: the jiffies counter's rate over 0.4 s */
	j0 = jiffies_now();
	if (j0 < 0)
		SKIP("/proc/timer_list not readable (needs root)");
	clock_gettime(CLOCK_MONOTONIC, &a);
	nanosleep(&d, NULL);
	j1 = jiffies_now();
	clock_gettime(CLOCK_MONOTONIC, &b);
	rate = (j1 - j0) / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	CHECK_NEAR(rate, hz, hz * 0.15);
}

TEST(host_meta)
{
	struct kvs *s = calloc(1, sizeof(*s));
	struct fsl_meta_sink sink = { s, kvs_kv, kvs_text, kvs_bitmap };
	struct timespec r, m;
	char buf[32];
	double off;

	REQUIRE(s);
	CHECK_EQ(fsl_meta_host(&sink), 0);
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	CHECK_STR(kvs_get(s, FSL_KV_NCPUS), buf);
	CHECK(kvs_get(s, FSL_KV_HZ) != NULL);
	CHECK(kvs_get(s, FSL_KV_KERNEL) != NULL);
	REQUIRE(kvs_get(s, FSL_KV_REALTIME_OFFSET));
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	off = (r.tv_sec - m.tv_sec) * 1e9 + (r.tv_nsec - m.tv_nsec);
	CHECK_NEAR(atof(kvs_get(s, FSL_KV_REALTIME_OFFSET)), off, 5e7);
	kvs_free(s);
	free(s);
}

/* ---- libext2fs on an image, against dumpe2fs ---- */

static int run(const char *cmd)
{
	int rc = system(cmd);

	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

/* dumpe2fs "Free blocks:" lines -> sorted free ranges */
static int dump_free(const char *img, const char *what, uint64_t (*out)[2], int max)
{
	char cmd[600], line[8192];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "dumpe2fs %s 2>/dev/null", img);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, what), *tok, *save;

		if (!s || line[0] != ' ')
			continue;
		s += strlen(what);
		for (tok = strtok_r(s, ", \n", &save); tok; tok = strtok_r(NULL, ", \n", &save)) {
			unsigned long long a, b;
			int k = sscanf(tok, "%llu-%llu", &a, &b);

			if (k < 1)
				continue;
			if (k == 1)
				b = a;
			if (n && out[n - 1][1] + 1 == a) {
				out[n - 1][1] = b;
			} else if (n < max) {
				out[n][0] = a;
				out[n][1] = b;
				n++;
			}
		}
	}
	pclose(p);
	return n;
}

static int runs_free(const struct fsl_bitmap *bm, uint64_t (*out)[2], int max)
{
	uint64_t pos = bm->first, k;
	int n = 0;

	for (k = 0; k < bm->nruns; k++) {
		if (!(k & 1) && bm->runs[k] && n < max) {
			out[n][0] = pos;
			out[n][1] = pos + bm->runs[k] - 1;
			n++;
		}
		pos += bm->runs[k];
	}
	return pos == bm->first + bm->nbits ? n : -1;
}

TEST(ext4_image_geometry_and_bitmaps)
{
	struct kvs *s = calloc(1, sizeof(*s));
	struct fsl_meta_sink sink = { s, kvs_kv, kvs_text, kvs_bitmap };
	struct fsl_target t;
	static uint64_t want[4096][2], got[4096][2];
	const char *img = t_path("img");
	char cmd[1200], seed[64] = "";
	int nw, ng, e;
	FILE *p;

	REQUIRE(s);
#ifndef FSL_HAVE_EXT2FS
	SKIP("built without libext2fs");
#endif
	/* a fs with some used space: 1K blocks, a populated root from -d */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/root/sub && head -c 300000 /dev/zero > %s/root/a && "
		 "head -c 70000 /dev/zero > %s/root/sub/b && truncate -s 32M %s && "
		 "mkfs.ext4 -q -F -b 1024 -N 4096 -d %s/root %s >/dev/null 2>&1",
		 t_tmpdir(), t_tmpdir(), t_tmpdir(), img, t_tmpdir(), img);
	if (run(cmd) != 0)
		SKIP("mkfs.ext4 -d not available");
	memset(&t, 0, sizeof(t));
	snprintf(t.bdev, sizeof(t.bdev), "%s", img);
	CHECK_EQ(fsl_meta_ext4(&sink, &t), 0);
	CHECK_STR(kvs_get(s, "ext4.block_size"), "1024");
	CHECK_STR(kvs_get(s, "ext4.blocks_count"), "32768");
	CHECK_STR(kvs_get(s, "ext4.inodes_count"), "4096");
	CHECK_STR(kvs_get(s, "ext4.first_data_block"), "1");
	snprintf(cmd, sizeof(cmd), "dumpe2fs -h %s 2>/dev/null | sed -n 's/^Directory Hash Seed: *//p'",
		 img);
	p = popen(cmd, "r");
	REQUIRE(p);
	if (!fgets(seed, sizeof(seed), p))
		seed[0] = 0;
	pclose(p);
	seed[strcspn(seed, "\n")] = 0;
	CHECK_STR(kvs_get(s, "ext4.hash_seed"), seed);
	CHECK(strstr(kvs_get(s, "ext4.features") ?: "", "has_journal extent") ||
	      strstr(kvs_get(s, "ext4.features") ?: "", "extent"));

	e = fsl_meta_bitmaps(&sink, img, FSL_BITMAP_END);
	CHECK_EQ(e, 0);
	REQUIRE(s->nbm == 2);
	CHECK_EQ(s->bm[0].kind, FSL_BITMAP_BLOCK);
	CHECK_EQ(s->bm[0].when, FSL_BITMAP_END);
	CHECK_U64(s->bm[0].first, 1);
	CHECK_U64(s->bm[0].nbits, 32767);
	CHECK_EQ(s->bm[1].kind, FSL_BITMAP_INODE);
	CHECK_U64(s->bm[1].nbits, 4096);

	nw = dump_free(img, "Free blocks: ", want, 4096);
	ng = runs_free(&s->bm[0], got, 4096);
	CHECK(nw > 0);
	CHECK_EQ(ng, nw);
	CHECK(nw == ng && !memcmp(want, got, nw * sizeof(want[0])));
	nw = dump_free(img, "Free inodes: ", want, 4096);
	ng = runs_free(&s->bm[1], got, 4096);
	CHECK(nw > 0);
	CHECK_EQ(ng, nw);
	CHECK(nw == ng && !memcmp(want, got, nw * sizeof(want[0])));
	/* the first 11 inodes are reserved, then root's a, sub, b and lost+found: used */
	CHECK_U64(s->bm[1].runs[0], 0);
	CHECK(s->bm[1].runs[1] >= 14);
	kvs_free(s);
	free(s);
}

TEST(collector_built_in_matches_build)
{
#ifdef FSL_HAVE_BPF
	CHECK_EQ(fsl_collector_built_in(), 1);
#else
	int err = 0;

	CHECK_EQ(fsl_collector_built_in(), 0);
	CHECK(fsl_collector__new(&(struct fsl_collector_opts){ 0 }, &err) == NULL);
	CHECK_EQ(err, -EOPNOTSUPP);
#endif
}
