// SPDX-License-Identifier: GPL-2.0
/*
 * A workload with known data operations, for tests/live/data_ops.sh: in
 * directory DIR it writes, syncs and reads back known byte counts at known
 * offsets with write/pwrite/writev/pwritev/pwritev2, read/pread/readv/
 * preadv/preadv2, fsync/fdatasync, sync_file_range, fallocate, ftruncate,
 * copy_file_range, sendfile and splice (buffered and O_DIRECT), also reads
 * a pipe and /dev/zero (not files of DIR's filesystem: never counted).
 * Then it prints what the calls returned, one line per operation kind:
 *	OP COUNT BYTES_ASKED BYTES_DONE
 * which the test compares with fslens's data records. Its three files are
 * at fds 100 (data_a), 101 (data_b) and 102 (data_direct, O_DIRECT), so an
 * independent tracer can pick its calls by fd.
 *
 * With DATA_WORK_DETAIL=FILE it also writes to FILE one line per call on
 * its files,
 *	call OP FILE OFFSET RET
 * (OFFSET where the call started in FILE, the input file for a copy; -1 for
 * none), one line per file and one for the process, bytes read from and
 * written to the files (a copy reads its input and writes its output):
 *	file NAME READS READ_BYTES WRITES WRITE_BYTES
 *	proc - READS READ_BYTES WRITES WRITE_BYTES
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/uio.h>

enum { RD, WR, PRD, PWR, FSYNC, FDSYNC, SFR, FALLOC, FTRUNC, COPY, SENDF, SPLICE, NK };
static const char *const kname[NK] = {
	"read", "write", "pread", "pwrite", "fsync", "fdatasync", "sync_file_range",
	"fallocate", "ftruncate", "copy_file_range", "sendfile", "splice",
};
static unsigned long long cnt[NK], asked[NK], done[NK];

#define FD_A	100
#define FD_B	101
#define FD_D	102
static const char *const fname[3] = { "data_a", "data_b", "data_direct" };
/* per file (fd - FD_A), and [3] the process: reads, read bytes, writes, written bytes */
static unsigned long long io[4][4];
static FILE *detail;

static void tally(int k, unsigned long long ask, long long ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "data_work: %s: %s\n", what, strerror(errno));
		exit(1);
	}
	cnt[k]++;
	asked[k] += ask;
	if (k <= PWR || k == COPY || k == SENDF || k == SPLICE)
		done[k] += ret;
}

/* The call of kind k on fd at off returned ret; rd, wr: the files it read and wrote (-1 none). */
static long long note(int k, int fd, long long off, long long ret, int rd, int wr)
{
	if (ret >= 0 && detail)
		fprintf(detail, "call %s %s %lld %lld\n", kname[k], fname[fd - FD_A], off, ret);
	if (ret < 0)
		return ret;
	if (rd >= 0) {
		io[rd - FD_A][0]++, io[rd - FD_A][1] += ret;
		io[3][0]++, io[3][1] += ret;
	}
	if (wr >= 0) {
		io[wr - FD_A][2]++, io[wr - FD_A][3] += ret;
		io[3][2]++, io[3][3] += ret;
	}
	return ret;
}

static long long pos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

static void open_at(const char *dir, const char *name, int flags, int want)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, flags, 0644);
	if (fd < 0 || dup2(fd, want) != want) {
		fprintf(stderr, "data_work: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	static char buf[1 << 18] __attribute__((aligned(4096)));
	struct iovec iov[3];
	int zfd, p[2], i, n;
	long long o;

	if (argc != 2) {
		fprintf(stderr, "usage: data_work DIR\n");
		return 2;
	}
	if (getenv("DATA_WORK_DETAIL") && !(detail = fopen(getenv("DATA_WORK_DETAIL"), "w"))) {
		perror("data_work: DATA_WORK_DETAIL");
		return 1;
	}
	memset(buf, 'x', sizeof(buf));
	open_at(argv[1], fname[0], O_RDWR | O_CREAT | O_TRUNC, FD_A);
	open_at(argv[1], fname[1], O_RDWR | O_CREAT | O_TRUNC, FD_B);
	/* 64 writes of 4 KiB, 16 pwrites of 8 KiB at 1 MiB + 8 KiB * i */
	for (i = 0; i < 64; i++) {
		o = pos(FD_A);
		tally(WR, 4096, note(WR, FD_A, o, write(FD_A, buf, 4096), -1, FD_A), "write");
	}
	for (i = 0; i < 16; i++)
		tally(PWR, 8192, note(PWR, FD_A, (1 << 20) + 8192 * i,
				      pwrite(FD_A, buf, 8192, (1 << 20) + 8192 * i), -1, FD_A), "pwrite");
	/* 8 writevs of 1000 + 2000 + 3000 bytes, 4 pwritevs and 4 pwritev2s of the same at 2 MiB */
	iov[0].iov_base = buf; iov[0].iov_len = 1000;
	iov[1].iov_base = buf; iov[1].iov_len = 2000;
	iov[2].iov_base = buf; iov[2].iov_len = 3000;
	for (i = 0; i < 8; i++) {
		o = pos(FD_A);
		tally(WR, 6000, note(WR, FD_A, o, writev(FD_A, iov, 3), -1, FD_A), "writev");
	}
	for (i = 0; i < 4; i++)
		tally(PWR, 6000, note(PWR, FD_A, (2 << 20) + 6000 * i,
				      pwritev(FD_A, iov, 3, (2 << 20) + 6000 * i), -1, FD_A), "pwritev");
	for (i = 0; i < 4; i++)
		tally(PWR, 6000, note(PWR, FD_A, (3 << 20) + 6000 * i,
				      pwritev2(FD_A, iov, 3, (3 << 20) + 6000 * i, 0), -1, FD_A),
		      "pwritev2");
	tally(FSYNC, 0, note(FSYNC, FD_A, -1, fsync(FD_A), -1, -1), "fsync");
	tally(FDSYNC, 0, note(FDSYNC, FD_A, -1, fdatasync(FD_A), -1, -1), "fdatasync");
	tally(SFR, 65536, note(SFR, FD_A, 0, sync_file_range(FD_A, 0, 65536, SYNC_FILE_RANGE_WRITE),
			       -1, -1), "sync_file_range");
	tally(FALLOC, 1 << 20, note(FALLOC, FD_B, 0, fallocate(FD_B, 0, 0, 1 << 20), -1, -1),
	      "fallocate");
	tally(FTRUNC, 4 << 20, note(FTRUNC, FD_B, -1, ftruncate(FD_B, 4 << 20), -1, -1), "ftruncate");
	/* read back: 16 preads of 8 KiB, then the whole file in 64 KiB reads to EOF */
	for (i = 0; i < 16; i++)
		tally(PRD, 8192, note(PRD, FD_A, (1 << 20) + 8192 * i,
				      pread(FD_A, buf, 8192, (1 << 20) + 8192 * i), FD_A, -1), "pread");
	lseek(FD_A, 0, SEEK_SET);
	do {
		o = pos(FD_A);
		n = note(RD, FD_A, o, read(FD_A, buf, 65536), FD_A, -1);
		tally(RD, 65536, n, "read");
	} while (n > 0);
	lseek(FD_A, 0, SEEK_SET);
	for (i = 0; i < 4; i++) {
		o = pos(FD_A);
		tally(RD, 6000, note(RD, FD_A, o, readv(FD_A, iov, 3), FD_A, -1), "readv");
	}
	for (i = 0; i < 4; i++)
		tally(PRD, 6000, note(PRD, FD_A, 4096 * i, preadv(FD_A, iov, 3, 4096 * i), FD_A, -1),
		      "preadv");
	for (i = 0; i < 4; i++)
		tally(PRD, 6000, note(PRD, FD_A, 8192 * i, preadv2(FD_A, iov, 3, 8192 * i, 0), FD_A, -1),
		      "preadv2");
	/* copies: 64 KiB data_a -> data_b, 32 KiB data_a -> data_b by sendfile */
	{
		loff_t in = 0, out = 0;
		off_t so = 4096;

		tally(COPY, 65536, note(COPY, FD_A, 0, copy_file_range(FD_A, &in, FD_B, &out, 65536, 0),
					FD_A, FD_B), "copy_file_range");
		tally(SENDF, 32768, note(SENDF, FD_A, 4096, sendfile(FD_B, FD_A, &so, 32768), FD_A, FD_B),
		      "sendfile");
	}
	/* splice: 4 x 256 KiB data_a -> a pipe, each then pipe -> data_b at 8 MiB */
	if (pipe(p) || fcntl(p[1], F_SETPIPE_SZ, 1 << 18) < (1 << 18)) {
		perror("data_work: pipe");
		return 1;
	}
	for (i = 0; i < 4; i++) {
		/* splice moves in and out: the offsets noted are where the calls start */
		loff_t in = (loff_t)i << 18, out = (8 << 20) + ((loff_t)i << 18);
		long long got, in0 = in, out0 = out;

		got = note(SPLICE, FD_A, in0, splice(FD_A, &in, p[1], NULL, 1 << 18, 0), FD_A, -1);
		tally(SPLICE, 1 << 18, got, "splice in");
		tally(SPLICE, got, note(SPLICE, FD_B, out0, splice(p[0], NULL, FD_B, &out, got, 0), -1,
					FD_B), "splice out");
	}
	close(p[0]);
	close(p[1]);
	/*
	 * O_DIRECT: 200 pwrites of 4 KiB, fsync, 200 preads, then 100 writevs,
	 * readvs, pwritev2s and preadv2s of 2 x 4 KiB (device latencies, for
	 * the percentiles)
	 */
	open_at(argv[1], fname[2], O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, FD_D);
	for (i = 0; i < 200; i++)
		tally(PWR, 4096, note(PWR, FD_D, 4096 * i, pwrite(FD_D, buf, 4096, 4096 * i), -1, FD_D),
		      "pwrite direct");
	tally(FSYNC, 0, note(FSYNC, FD_D, -1, fsync(FD_D), -1, -1), "fsync direct");
	for (i = 0; i < 200; i++)
		tally(PRD, 4096, note(PRD, FD_D, 4096 * i, pread(FD_D, buf, 4096, 4096 * i), FD_D, -1),
		      "pread direct");
	iov[0].iov_base = buf; iov[0].iov_len = 4096;
	iov[1].iov_base = buf + 8192; iov[1].iov_len = 4096;
	lseek(FD_D, 1 << 20, SEEK_SET);
	for (i = 0; i < 100; i++) {
		o = pos(FD_D);
		tally(WR, 8192, note(WR, FD_D, o, writev(FD_D, iov, 2), -1, FD_D), "writev direct");
	}
	lseek(FD_D, 1 << 20, SEEK_SET);
	for (i = 0; i < 100; i++) {
		o = pos(FD_D);
		tally(RD, 8192, note(RD, FD_D, o, readv(FD_D, iov, 2), FD_D, -1), "readv direct");
	}
	for (i = 0; i < 100; i++)
		tally(PWR, 8192, note(PWR, FD_D, (4 << 20) + 8192 * i,
				      pwritev2(FD_D, iov, 2, (4 << 20) + 8192 * i, 0), -1, FD_D),
		      "pwritev2 direct");
	for (i = 0; i < 100; i++)
		tally(PRD, 8192, note(PRD, FD_D, (4 << 20) + 8192 * i,
				      preadv2(FD_D, iov, 2, (4 << 20) + 8192 * i, 0), FD_D, -1),
		      "preadv2 direct");
	/* not files of the target: a pipe and /dev/zero */
	zfd = open("/dev/zero", O_RDONLY);
	if (zfd >= 0 && pipe(p) == 0) {
		for (i = 0; i < 10; i++) {
			if (read(zfd, buf, 4096) < 0 || write(p[1], buf, 100) < 0 ||
			    read(p[0], buf, 100) < 0)
				break;
		}
	}
	close(FD_A);
	close(FD_B);
	close(FD_D);
	for (i = 0; i < NK; i++)
		printf("%s %llu %llu %llu\n", kname[i], cnt[i], asked[i], done[i]);
	if (detail) {
		for (i = 0; i < 4; i++)
			fprintf(detail, "%s %s %llu %llu %llu %llu\n", i < 3 ? "file" : "proc",
				i < 3 ? fname[i] : "-", io[i][0], io[i][1], io[i][2], io[i][3]);
		fclose(detail);
	}
	return 0;
}
