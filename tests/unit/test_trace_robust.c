// SPDX-License-Identifier: GPL-2.0
/* Trace reader against damaged input: truncation, bit flips, bad headers, absurd sizes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>
#include "t.h"
#include "trace_gen.h"
#include "../../lib/trace_internal.h"

#define R_CHUNKS	5
#define R_PER_CHUNK	20

/*
 * A small multi-chunk trace: metadata, then R_CHUNKS chunks of R_PER_CHUNK
 * block/journal/dirop events (one flush each), then end metadata and the
 * footer. ends[k] = file offset just past chunk k (from the writer's byte
 * count at each flush); start = where chunk 0 begins.
 */
static int make_small_opts(const char *path, uint64_t *start, uint64_t ends[R_CHUNKS],
			   const struct fsl_writer_opts *o)
{
	const struct fsl_event_desc *all;
	unsigned int n = fsl_schema_builtin_all(&all), k, i;
	unsigned char rec[1024];
	struct fsl_writer *w;
	uint64_t seed = 7, ts = 5000;
	char *frames[] = { "schedule", "io_schedule" };
	struct fsl_stack st = { 1, 2, frames };
	int err = 0;

	w = fsl_writer__open(path, o, &err);
	if (!w)
		return err;
	fsl_writer__kv(w, FSL_KV_HOSTNAME, "small");
	fsl_writer__flush(w);
	*start = fsl_writer__bytes(w);
	for (k = 0; k < R_CHUNKS; k++) {
		for (i = 0; i < R_PER_CHUNK; i++) {
			const struct fsl_event_desc *d = &all[(k * R_PER_CHUNK + i) % n];

			ts += 1000 + tg_rand(&seed) % 1000;
			tg_fill(rec, d, &seed, ts, i % 40, i % 3);
			if ((err = fsl_writer__event(w, (struct fsl_hdr *)rec)))
				return err;
		}
		if ((err = fsl_writer__flush(w)))
			return err;
		ends[k] = fsl_writer__bytes(w);
	}
	fsl_writer__stack(w, &st);
	fsl_writer__lost(w, FSL_FAM_BLOCK, 2);
	return fsl_writer__close(w);
}

static int make_small(const char *path, uint64_t *start, uint64_t ends[R_CHUNKS])
{
	return make_small_opts(path, start, ends, NULL);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat sb;
	unsigned char *p;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &sb))
		return NULL;
	p = malloc(sb.st_size + 1);
	if (p && read(fd, p, sb.st_size) != sb.st_size) {
		free(p);
		p = NULL;
	}
	close(fd);
	*len = sb.st_size;
	return p;
}

static int spit(const char *path, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok = fd >= 0 && write(fd, p, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Open and read everything; returns events or -errno from open. */
static long read_all(const char *path, size_t *nwarn, char *first_warn, size_t fwlen)
{
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	long n = 0;
	int err = 0, rc;

	r = fsl_reader__open(path, NULL, &err);
	if (!r)
		return err;
	while ((rc = fsl_reader__next(r, &ev)) == 1)
		n++;
	if (rc < 0)
		n = rc;
	*nwarn = fsl_reader__nwarnings(r);
	if (first_warn)
		snprintf(first_warn, fwlen, "%s", *nwarn ? fsl_reader__warning(r, 0) : "");
	fsl_reader__close(r);
	return n;
}

TEST(trace_truncate_every_offset)
{
	uint64_t start, ends[R_CHUNKS];
	unsigned char *buf;
	size_t len, cut, nwarn;
	const char *p = t_path("cut.trace");
	char w0[512];
	int bad = 0;

	REQUIRE(make_small(t_path("full.trace"), &start, ends) == 0);
	buf = slurp(t_path("full.trace"), &len);
	REQUIRE(buf);
	CHECK(ends[R_CHUNKS - 1] < len);
	for (cut = 0; cut <= len && bad < 5; cut++) {
		long want = 0, got;
		unsigned int k;

		for (k = 0; k < R_CHUNKS; k++)
			if (ends[k] <= cut)
				want += R_PER_CHUNK;
		REQUIRE(spit(p, buf, cut) == 0);
		got = read_all(p, &nwarn, w0, sizeof(w0));
		if (cut < FSL_HDR_SIZE) {
			/* too short to be a trace: a clear open error */
			if (got != -ENODATA) {
				t_fail(__FILE__, __LINE__, "cut %zu: open gave %ld", cut, got);
				bad++;
			}
			continue;
		}
		if (got != want) {
			t_fail(__FILE__, __LINE__, "cut %zu: %ld events, want %ld", cut, got, want);
			bad++;
		}
		if (cut < len && (nwarn != 1 || !strstr(w0, "cut short"))) {
			t_fail(__FILE__, __LINE__, "cut %zu: %zu warnings, first '%s'", cut, nwarn, w0);
			bad++;
		}
		if (cut == len && nwarn != 0) {
			t_fail(__FILE__, __LINE__, "whole file: %zu warnings '%s'", nwarn, w0);
			bad++;
		}
	}
	free(buf);
}

/* One flipped bit in each chunk: that chunk is reported at its offset, the rest read. */
TEST(trace_bitflip_each_chunk)
{
	uint64_t start, ends[R_CHUNKS];
	unsigned char *buf;
	size_t len, nwarn;
	unsigned int k, where;
	const char *p = t_path("flip.trace");
	char w0[512], off[32];

	REQUIRE(make_small(t_path("full.trace"), &start, ends) == 0);
	buf = slurp(t_path("full.trace"), &len);
	REQUIRE(buf);
	for (k = 0; k < R_CHUNKS; k++) {
		uint64_t cs = k ? ends[k - 1] : start, ce = ends[k];

		/* 0: in the block header, 1: in the payload, 2: last payload byte */
		for (where = 0; where < 3; where++) {
			uint64_t pos = where == 0 ? cs + 9 : where == 1 ? (cs + FSL_BLK_HDR_SIZE + ce) / 2
				       : ce - 1;
			long got;

			buf[pos] ^= 0x10;
			REQUIRE(spit(p, buf, len) == 0);
			buf[pos] ^= 0x10;
			got = read_all(p, &nwarn, w0, sizeof(w0));
			CHECK_EQ(got, (R_CHUNKS - 1) * R_PER_CHUNK);
			CHECK_EQ(nwarn, 1);
			snprintf(off, sizeof(off), "offset %llu", (unsigned long long)cs);
			if (!strstr(w0, off))
				t_fail(__FILE__, __LINE__, "chunk %u flip %u: warning '%s' lacks '%s'",
				       k, where, w0, off);
		}
	}
	free(buf);
}

TEST(trace_bad_headers)
{
	uint64_t start, ends[R_CHUNKS];
	unsigned char *buf;
	size_t len, nwarn;
	const char *p = t_path("bad.trace");
	struct fsl_reader *r;
	int err = 0;

	REQUIRE(make_small(t_path("full.trace"), &start, ends) == 0);
	buf = slurp(t_path("full.trace"), &len);
	REQUIRE(buf);

	/* empty file */
	REQUIRE(spit(p, buf, 0) == 0);
	CHECK_EQ(read_all(p, &nwarn, NULL, 0), -ENODATA);
	/* bad magic */
	buf[3] ^= 1;
	REQUIRE(spit(p, buf, len) == 0);
	buf[3] ^= 1;
	CHECK_EQ(read_all(p, &nwarn, NULL, 0), -EBADMSG);
	/* text file */
	REQUIRE(spit(p, "hello world, this is not a trace\n", 33) == 0);
	CHECK_EQ(read_all(p, &nwarn, NULL, 0), -EBADMSG);
	/* a future version (the checksum cannot be trusted to mean anything then) */
	put_le32(buf + 8, FSL_TRACE_VERSION + 1);
	REQUIRE(spit(p, buf, len) == 0);
	CHECK_EQ(read_all(p, &nwarn, NULL, 0), -EPROTONOSUPPORT);
	put_le32(buf + 8, FSL_TRACE_VERSION);
	/* header checksum */
	buf[60] ^= 4;
	REQUIRE(spit(p, buf, len) == 0);
	buf[60] ^= 4;
	CHECK_EQ(read_all(p, &nwarn, NULL, 0), -EILSEQ);
	/* a directory */
	r = fsl_reader__open(t_tmpdir(), NULL, &err);
	CHECK(!r);
	CHECK_EQ(err, -EISDIR);
	/* missing file */
	r = fsl_reader__open(t_path("nope.trace"), NULL, &err);
	CHECK(!r);
	CHECK_EQ(err, -ENOENT);
	CHECK_STR(fsl_trace_strerror(-EBADMSG), "not an fslens trace (bad magic)");
	/* intact again */
	REQUIRE(spit(p, buf, len) == 0);
	CHECK_EQ(read_all(p, &nwarn, NULL, 0), R_CHUNKS * R_PER_CHUNK);
	CHECK_EQ(nwarn, 0);
	free(buf);
}

/* Block headers with valid checksums declaring absurd sizes are refused, not trusted. */
TEST(trace_absurd_sizes)
{
	uint64_t start, ends[R_CHUNKS];
	unsigned char *buf;
	size_t len, nwarn;
	const char *p = t_path("absurd.trace");
	struct fsl_blk_hdr b;
	char w0[512];
	long got;

	REQUIRE(make_small(t_path("full.trace"), &start, ends) == 0);
	buf = slurp(t_path("full.trace"), &len);
	REQUIRE(buf);
	/* chunk 1 claims a 4 GiB payload; the header checksum is made valid */
	REQUIRE(fsl_blk_hdr_decode(buf + ends[0], &b) == 0);
	CHECK_EQ(b.kind, FSL_BLK_CHUNK);
	CHECK_EQ(b.count, R_PER_CHUNK);
	b.disk_len = 0xfffffff0u;
	put_le32(buf + ends[0] + 8, b.disk_len);
	put_le32(buf + ends[0] + 84, fsl_crc32c(0, buf + ends[0], 84));
	REQUIRE(spit(p, buf, len) == 0);
	got = read_all(p, &nwarn, w0, sizeof(w0));
	CHECK_EQ(got, (R_CHUNKS - 1) * R_PER_CHUNK);
	CHECK_EQ(nwarn, 1);
	/* 60 MiB declared (under the cap) but past the end of the file */
	put_le32(buf + ends[0] + 8, 60u << 20);
	put_le32(buf + ends[0] + 84, fsl_crc32c(0, buf + ends[0], 84));
	REQUIRE(spit(p, buf, len) == 0);
	got = read_all(p, &nwarn, w0, sizeof(w0));
	CHECK_EQ(got, (R_CHUNKS - 1) * R_PER_CHUNK);
	CHECK_EQ(nwarn, 1);
	/* the same with the footer gone: the scan stops at that block, cut short */
	REQUIRE(spit(p, buf, ends[R_CHUNKS - 1]) == 0);
	got = read_all(p, &nwarn, w0, sizeof(w0));
	CHECK_EQ(got, R_PER_CHUNK);
	CHECK_EQ(nwarn, 1);
	CHECK(strstr(w0, "cut short") != NULL);
	/* raw size declared larger than the decompressed data: chunk refused */
	{
		unsigned char *orig = slurp(t_path("full.trace"), &len);

		REQUIRE(orig);
		memcpy(buf, orig, len);
		free(orig);
	}
	put_le32(buf + ends[0] + 12, 1000000);
	put_le32(buf + ends[0] + 84, fsl_crc32c(0, buf + ends[0], 84));
	REQUIRE(spit(p, buf, len) == 0);
	got = read_all(p, &nwarn, w0, sizeof(w0));
	CHECK_EQ(got, (R_CHUNKS - 1) * R_PER_CHUNK);
	CHECK_EQ(nwarn, 1);
	free(buf);
}

/* Types this build does not know are stored and returned by their size. */
TEST(trace_unknown_types)
{
	unsigned char rec[256] = { 0 };
	struct fsl_hdr *h = (struct fsl_hdr *)rec;
	struct fsl_ev_jbd2_commit c = { .hdr = { .type = FSL_EV_JBD2_END_COMMIT,
						 .size = sizeof(c) } };
	struct fsl_reader_opts ro = { .families = 1u << FSL_FAM_JOURNAL };
	struct fsl_writer *w;
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	unsigned int i, n = 0, unk = 0;
	int err = 0;

	w = fsl_writer__open(t_path("u.trace"), NULL, &err);
	REQUIRE(w);
	for (i = 0; i < 30; i++) {
		c.hdr.ts = 100 + 10 * i;
		c.transaction = 500 + i;
		CHECK_EQ(fsl_writer__event(w, &c.hdr), 0);
		memset(rec, 0xa0 + i, sizeof(rec));
		h->ts = 105 + 10 * i;
		h->type = i & 1 ? 99 : 4000;	/* no schema; beyond the state table */
		h->size = i & 1 ? 48 : 24 + 8 * (i % 9);
		h->pid = i;
		CHECK_EQ(fsl_writer__event(w, h), 0);
	}
	CHECK_EQ(fsl_writer__close(w), 0);
	r = fsl_reader__open(t_path("u.trace"), NULL, &err);
	REQUIRE(r);
	i = 0;
	while (fsl_reader__next(r, &ev) == 1) {
		if (ev->type == FSL_EV_JBD2_END_COMMIT) {
			CHECK_EQ(((const struct fsl_ev_jbd2_commit *)ev)->transaction, 500 + n);
			CHECK_U64(ev->ts, 100 + 10 * n);
			n++;
		} else {
			unsigned int j = unk++;

			CHECK_EQ(ev->type, j & 1 ? 99 : 4000);
			CHECK_EQ(ev->size, j & 1 ? 48 : 24 + 8 * (j % 9));
			CHECK_EQ(ev->pid, j);
			if (ev->size > 24)
				CHECK_EQ(((const unsigned char *)ev)[ev->size - 1], 0xa0 + j);
		}
	}
	CHECK_EQ(n, 30);
	CHECK_EQ(unk, 30);
	CHECK_EQ(fsl_reader__stats(r)->counts.events[FSL_FAM_JOURNAL], 30);
	fsl_reader__close(r);
	/* a family filter drops the others */
	r = fsl_reader__open(t_path("u.trace"), &ro, &err);
	REQUIRE(r);
	n = 0;
	while (fsl_reader__next(r, &ev) == 1) {
		CHECK_EQ(ev->type, FSL_EV_JBD2_END_COMMIT);
		n++;
	}
	CHECK_EQ(n, 30);
	fsl_reader__close(r);
}

/* The writer refuses to clobber, creates 0600, and a killed writer's chunks read back. */
TEST(trace_writer_create_and_abort)
{
	struct fsl_ev_jbd2_commit c = { .hdr = { .type = FSL_EV_JBD2_START_COMMIT,
						 .size = sizeof(c) } };
	struct fsl_writer_opts force = { .force = 1 };
	struct fsl_writer *w;
	struct stat sb;
	size_t nwarn;
	char w0[512];
	int err = 0, i;

	w = fsl_writer__open(t_path("a.trace"), NULL, &err);
	REQUIRE(w);
	CHECK(stat(t_path("a.trace"), &sb) == 0 && (sb.st_mode & 0777) == 0600);
	for (i = 0; i < 1000; i++) {
		c.hdr.ts = 1000 + i;
		fsl_writer__event(w, &c.hdr);
		if (i == 599)
			CHECK_EQ(fsl_writer__flush(w), 0);
	}
	fsl_writer__abort(w);	/* like SIGKILL: 600 events were flushed */
	CHECK_EQ(read_all(t_path("a.trace"), &nwarn, w0, sizeof(w0)), 600);
	CHECK_EQ(nwarn, 1);
	CHECK(strstr(w0, "cut short") != NULL);
	CHECK(fsl_writer__open(t_path("a.trace"), NULL, &err) == NULL);
	CHECK_EQ(err, -EEXIST);
	w = fsl_writer__open(t_path("a.trace"), &force, &err);
	REQUIRE(w);
	CHECK_EQ(fsl_writer__close(w), 0);
	CHECK_EQ(read_all(t_path("a.trace"), &nwarn, NULL, 0), 0);
	CHECK_EQ(nwarn, 0);
	CHECK(fsl_writer__open("-", NULL, &err) == NULL);
}

/* Names in dir that start with prefix: the files a writer left beside a trace. */
static int count_beside(const char *dir, const char *prefix)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		n += !strncmp(d->d_name, prefix, strlen(prefix));
	closedir(dp);
	return n;
}

static void put_events(struct fsl_writer *w, int n, uint64_t ts0)
{
	struct fsl_ev_jbd2_commit c = { .hdr = { .type = FSL_EV_JBD2_START_COMMIT,
						 .size = sizeof(c) } };
	int i;

	for (i = 0; i < n; i++) {
		c.hdr.ts = ts0 + i;
		fsl_writer__event(w, &c.hdr);
	}
}

/*
 * Replacing (force) writes beside the old trace: it survives a start that
 * fails (discard) and is replaced only at the first durable point (publish)
 * or at a clean close; a crash after that leaves the new chunks at the name.
 */
TEST(trace_writer_replace_keeps_old_until_published)
{
	struct fsl_writer_opts force = { .force = 1 };
	struct fsl_writer *w;
	size_t nwarn;
	int err = 0;

	w = fsl_writer__open(t_path("r.trace"), NULL, &err);
	REQUIRE(w);
	put_events(w, 600, 1000);
	REQUIRE(fsl_writer__close(w) == 0);
	CHECK_EQ(read_all(t_path("r.trace"), &nwarn, NULL, 0), 600);

	/* a failed start: the new file goes, the old trace is as it was */
	w = fsl_writer__open(t_path("r.trace"), &force, &err);
	REQUIRE(w);
	CHECK_EQ(count_beside(t_tmpdir(), ".r.trace."), 1);
	put_events(w, 100, 5000);
	CHECK_EQ(fsl_writer__flush(w), 0);
	CHECK_EQ(read_all(t_path("r.trace"), &nwarn, NULL, 0), 600);
	fsl_writer__discard(w);
	CHECK_EQ(read_all(t_path("r.trace"), &nwarn, NULL, 0), 600);
	CHECK_EQ(nwarn, 0);
	CHECK_EQ(count_beside(t_tmpdir(), ".r.trace."), 0);

	/* published at the first durable point; a crash then leaves the new chunks */
	w = fsl_writer__open(t_path("r.trace"), &force, &err);
	REQUIRE(w);
	put_events(w, 50, 9000);
	CHECK_EQ(fsl_writer__publish(w), 0);
	CHECK_EQ(count_beside(t_tmpdir(), ".r.trace."), 0);
	CHECK_EQ(fsl_writer__publish(w), 0);	/* once is enough */
	CHECK_EQ(fsl_writer__flush(w), 0);
	fsl_writer__abort(w);
	CHECK_EQ(read_all(t_path("r.trace"), &nwarn, NULL, 0), 50);
	CHECK_EQ(nwarn, 1);

	/* a clean close replaces without a publish */
	w = fsl_writer__open(t_path("r.trace"), &force, &err);
	REQUIRE(w);
	put_events(w, 30, 20000);
	CHECK_EQ(read_all(t_path("r.trace"), &nwarn, NULL, 0), 50);
	CHECK_EQ(fsl_writer__close(w), 0);
	CHECK_EQ(read_all(t_path("r.trace"), &nwarn, NULL, 0), 30);
	CHECK_EQ(nwarn, 0);
	CHECK_EQ(count_beside(t_tmpdir(), ".r.trace."), 0);

	/* a new file (no force) that never started is removed by discard */
	w = fsl_writer__open(t_path("n.trace"), NULL, &err);
	REQUIRE(w);
	fsl_writer__discard(w);
	CHECK(access(t_path("n.trace"), F_OK) != 0);
	fsl_writer__discard(NULL);
}

static long fill_until_full(const char *path)
{
	struct fsl_ev_block_rq e = { .hdr = { .type = FSL_EV_BLOCK_RQ_ISSUE, .size = sizeof(e) } };
	struct fsl_writer_opts o = { .chunk_events = 1000 };
	struct fsl_writer *w;
	uint64_t seed = 3, i;
	int err = 0, rc = 0;

	w = fsl_writer__open(path, &o, &err);
	if (!w)
		return err;
	for (i = 0; i < 2000000 && !rc; i++) {
		e.hdr.ts = 1000 * i;
		e.sector = tg_rand(&seed);	/* incompressible: fills quickly */
		e.rq = tg_rand(&seed);
		rc = fsl_writer__event(w, &e.hdr);
	}
	CHECK_EQ(rc, -ENOSPC);
	CHECK_EQ(fsl_writer__event(w, &e.hdr), -ENOSPC);	/* the error sticks */
	CHECK_EQ(fsl_writer__close(w), -ENOSPC);
	return 0;
}

/* A full disk: calls fail with -ENOSPC and what was written stays readable. */
TEST(trace_writer_disk_full)
{
	char dir[600], path[700], cmd[800];
	size_t nwarn;
	long rc;
	int err = 0;

	/* /dev/full is not a regular file: refused before any write */
	if (!access("/dev/full", W_OK)) {
		CHECK(fsl_writer__open("/dev/full", &(struct fsl_writer_opts){ .force = 1 },
				       &err) == NULL);
		CHECK_EQ(err, -EINVAL);
	}
	if (geteuid() != 0)
		SKIP("needs root to mount a 256 KiB tmpfs");
	snprintf(dir, sizeof(dir), "%s/full", t_tmpdir());
	mkdir(dir, 0700);
	snprintf(cmd, sizeof(cmd), "mount -t tmpfs -o size=256k fslens-full %s", dir);
	if (system(cmd) != 0)
		SKIP("cannot mount a tmpfs");
	snprintf(path, sizeof(path), "%s/t.trace", dir);
	rc = fill_until_full(path);
	CHECK_EQ(rc, 0);
	/* every event of every complete chunk reads back, with one warning */
	rc = read_all(path, &nwarn, NULL, 0);
	CHECK(rc >= 1000);
	CHECK_EQ(rc % 1000, 0);
	CHECK_EQ(nwarn, 1);
	snprintf(cmd, sizeof(cmd), "umount %s", dir);
	CHECK_EQ(system(cmd), 0);
}

/*
 * Seed corpus for `make fuzz` (build/tests/unit --make-corpus DIR): small
 * valid traces exercising every block kind, plus damaged copies.
 */
int t_make_corpus(const char *dir);
int t_make_corpus(const char *dir)
{
	char p[1024], q[1024];
	uint64_t start, ends[R_CHUNKS];
	unsigned char *buf;
	size_t len;
	struct fsl_writer *w;
	int err = 0;

	snprintf(p, sizeof(p), "%s/small.trace", dir);
	unlink(p);
	if (make_small(p, &start, ends))
		return -1;
	buf = slurp(p, &len);
	if (!buf)
		return -1;
	snprintf(q, sizeof(q), "%s/cut.trace", dir);
	spit(q, buf, ends[2] + 100);
	snprintf(q, sizeof(q), "%s/nofooter.trace", dir);
	spit(q, buf, ends[R_CHUNKS - 1]);
	buf[ends[1] + 200] ^= 0x40;
	snprintf(q, sizeof(q), "%s/flipped.trace", dir);
	spit(q, buf, len);
	free(buf);

	/* uncompressed: with checksums off, mutations reach the record decoder */
	snprintf(p, sizeof(p), "%s/raw.trace", dir);
	unlink(p);
	if (make_small_opts(p, &start, ends, &(struct fsl_writer_opts){ .no_compress = 1 }))
		return -1;

	/* every metadata kind and an unknown event type */
	snprintf(p, sizeof(p), "%s/meta.trace", dir);
	unlink(p);
	w = fsl_writer__open(p, NULL, &err);
	if (!w)
		return -1;
	{
		uint64_t runs[] = { 3, 4, 5, 100 };
		struct fsl_bitmap bm = { FSL_BITMAP_BLOCK, FSL_BITMAP_START, 1, 112, 4, runs };
		char *frames[] = { "io_schedule", "jbd2_log_wait_commit" };
		struct fsl_stack st = { 3, 2, frames };
		struct fsl_ev_offcpu oc = { .hdr = { .ts = 10, .type = FSL_EV_OFFCPU,
						     .size = sizeof(oc) }, .stack_id = 3 };
		unsigned char rec[64] = { 0 };
		struct fsl_hdr *h = (struct fsl_hdr *)rec;

		fsl_writer__kv(w, FSL_KV_HOSTNAME, "fuzz");
		fsl_writer__text(w, "t", "hello", 5);
		fsl_writer__bitmap(w, &bm);
		fsl_writer__stack(w, &st);
		fsl_writer__sym(w, 0xffffffff81234567ull, "ext4_mkdir");
		fsl_writer__event(w, &oc.hdr);
		h->ts = 20;
		h->type = 77;
		h->size = 40;
		fsl_writer__event(w, h);
		fsl_writer__lost(w, FSL_FAM_OFFCPU, 1);
	}
	return fsl_writer__close(w) ? -1 : 0;
}

/* The checksum is the standard CRC32C (the check value of the Castagnoli CRC). */
TEST(trace_crc32c_check_value)
{
	static const unsigned char zeros[32];
	unsigned char buf[1000];
	unsigned int i;

	CHECK_U64(fsl_crc32c(0, "123456789", 9), 0xe3069283u);
	CHECK_U64(fsl_crc32c(0, zeros, 32), 0x8a9136aau);	/* RFC 3720 B.4 */
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i * 7;
	/* incremental == one shot, at any split and alignment */
	CHECK_U64(fsl_crc32c(fsl_crc32c(0, buf, 13), buf + 13, 987), fsl_crc32c(0, buf, 1000));
	CHECK_U64(fsl_crc32c(fsl_crc32c(0, buf + 1, 500), buf + 501, 3),
		  fsl_crc32c(0, buf + 1, 503));
}

/*
 * A writer process killed with SIGKILL: everything before its last flush
 * reads back, with one "cut short" warning. (The child flushes after 3000
 * and 7000 events, adds 500 more and a stack, then kills itself.)
 */
TEST(trace_writer_sigkill)
{
	const char *path = t_path("k.trace");
	pid_t pid;
	size_t nwarn;
	char w0[512];
	int st = 0;

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct fsl_ev_block_rq e = { .hdr = { .type = FSL_EV_BLOCK_RQ_ISSUE,
						      .size = sizeof(e) } };
		struct fsl_writer *w;
		int err = 0, i;

		w = fsl_writer__open(path, NULL, &err);
		if (!w)
			_exit(3);
		for (i = 0; i < 7500; i++) {
			e.hdr.ts = 1000 + 10 * i;
			e.sector = i;
			if (fsl_writer__event(w, &e.hdr))
				_exit(4);
			if ((i == 2999 || i == 6999) && fsl_writer__flush(w))
				_exit(5);
		}
		raise(SIGKILL);
		_exit(6);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK_EQ(read_all(path, &nwarn, w0, sizeof(w0)), 7000);
	CHECK_EQ(nwarn, 1);
	CHECK(strstr(w0, "cut short") != NULL);
}

/*
 * Read path under the two record decoders (the SIMD fast path for common
 * records, and the generic one): a hash of every record returned, the
 * event count and the warnings.
 */
static uint64_t read_hash(const char *path, int generic, long *n, size_t *nwarn)
{
	struct fsl_reader *r;
	const struct fsl_hdr *ev;
	uint64_t h = 1469598103934665603ull;
	int err = 0;

	fsl__trace_reader_generic(generic);
	*n = 0;
	*nwarn = 0;
	r = fsl_reader__open(path, NULL, &err);
	if (!r) {
		fsl__trace_reader_generic(0);
		return (uint64_t)err;
	}
	while (fsl_reader__next(r, &ev) == 1) {
		const unsigned char *b = (const unsigned char *)ev;

		for (size_t i = 0; i < ev->size; i++)
			h = (h ^ b[i]) * 1099511628211ull;
		++*n;
	}
	*nwarn = fsl_reader__nwarnings(r);
	fsl_reader__close(r);
	fsl__trace_reader_generic(0);
	return h;
}

/*
 * The fast path must return exactly what the generic decoder returns, on
 * good records and on damaged ones: uncompressed chunks of the block and
 * journal mix are damaged one byte at a time (the payload checksum fixed up
 * so that the records get decoded), including the shape bit of each chunk's
 * first record, which the generic decoder rejects for a type not yet seen
 * in that chunk even when an earlier chunk had it.
 */
TEST(trace_fast_path_matches_generic)
{
	const char *path = t_path("mix.trace"), *dpath = t_path("mixd.trace");
	static const unsigned char masks[] = { 0x01, 0x02, 0x10, 0x80, 0xff };
	uint64_t ends[4], start, h0, h1, rec[128];
	unsigned char *buf;
	struct fsl_writer *w;
	struct tg_mix m;
	size_t len, w0, w1;
	long n0, n1;
	unsigned int k, i, tried = 0, differ = 0, bad = 0;
	int err = 0;

	w = fsl_writer__open(path, &(struct fsl_writer_opts){ .force = 1, .no_compress = 1 }, &err);
	REQUIRE(w);
	fsl_writer__flush(w);
	start = fsl_writer__bytes(w);
	tg_mix_init(&m, 11);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < 600; i++)
			REQUIRE(fsl_writer__event(w, (struct fsl_hdr *)tg_mix_next(&m, rec)) == 0);
		REQUIRE(fsl_writer__flush(w) == 0);
		ends[k] = fsl_writer__bytes(w);
	}
	REQUIRE(fsl_writer__close(w) == 0);
	h0 = read_hash(path, 0, &n0, &w0);
	h1 = read_hash(path, 1, &n1, &w1);
	CHECK_EQ(n0, 2400);
	CHECK_EQ(n1, 2400);
	CHECK_EQ(w0 + w1, 0);
	CHECK(h0 == h1);
	buf = slurp(path, &len);
	REQUIRE(buf);
	for (k = 0; k < 4 && bad < 5; k++) {
		uint64_t cs = k ? ends[k - 1] : start, ps = cs + FSL_BLK_HDR_SIZE;
		struct fsl_blk_hdr b;

		REQUIRE(fsl_blk_hdr_decode(buf + cs, &b) == 0);
		REQUIRE(b.kind == FSL_BLK_CHUNK && !(b.flags & FSL_BLK_F_ZSTD));
		for (uint64_t pos = ps; pos < ps + b.disk_len && bad < 5; pos += pos < ps + 64 ? 1 : 97) {
			for (i = 0; i < sizeof(masks); i++) {
				struct fsl_blk_hdr d = b;

				buf[pos] ^= masks[i];
				d.payload_crc = fsl_crc32c(0, buf + ps, b.disk_len);
				fsl_blk_hdr_encode(buf + cs, &d);
				REQUIRE(spit(dpath, buf, len) == 0);
				buf[pos] ^= masks[i];
				fsl_blk_hdr_encode(buf + cs, &b);
				h0 = read_hash(dpath, 0, &n0, &w0);
				h1 = read_hash(dpath, 1, &n1, &w1);
				tried++;
				differ += n0 != 2400 || w0;
				if (h0 != h1 || n0 != n1 || w0 != w1) {
					t_fail(__FILE__, __LINE__, "chunk %u byte %llu ^ 0x%02x: fast path %ld "
					       "events, %zu warnings; generic %ld, %zu", k,
					       (unsigned long long)(pos - ps), masks[i], n0, w0, n1, w1);
					bad++;
				}
			}
		}
	}
	/* the damage must have reached the decoders, not only the checksums */
	CHECK(tried > 300);
	CHECK(differ > tried / 4);
	free(buf);
}
