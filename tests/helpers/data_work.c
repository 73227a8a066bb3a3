// SPDX-License-Identifier: GPL-2.0
/*
 * A workload with known data operations, for tests/live/data_ops.sh: in
 * directory DIR it writes, syncs and reads back known byte counts at known
 * offsets with write/pwrite/writev/pwritev, read/pread/readv/preadv,
 * fsync/fdatasync, sync_file_range, fallocate, ftruncate, copy_file_range,
 * sendfile (buffered and O_DIRECT), also reads a pipe and /dev/zero (not
 * files of DIR's filesystem: never counted). Then it prints what the calls
 * returned, one line per operation kind:
 *	OP COUNT BYTES_ASKED BYTES_DONE
 * which the test compares with fslens's data records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/uio.h>

enum { RD, WR, PRD, PWR, FSYNC, FDSYNC, SFR, FALLOC, FTRUNC, COPY, SENDF, NK };
static const char *const kname[NK] = {
	"read", "write", "pread", "pwrite", "fsync", "fdatasync", "sync_file_range",
	"fallocate", "ftruncate", "copy_file_range", "sendfile",
};
static unsigned long long cnt[NK], asked[NK], done[NK];

static void tally(int k, unsigned long long ask, long long ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "data_work: %s: %s\n", what, strerror(errno));
		exit(1);
	}
	cnt[k]++;
	asked[k] += ask;
	if (k <= PWR || k == COPY || k == SENDF)
		done[k] += ret;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16] __attribute__((aligned(4096)));
	char path[4096], path2[4096], dpath[4096];
	struct iovec iov[3];
	int fd, fd2, dfd, zfd, p[2], i, n;

	if (argc != 2) {
		fprintf(stderr, "usage: data_work DIR\n");
		return 2;
	}
	memset(buf, 'x', sizeof(buf));
	snprintf(path, sizeof(path), "%s/data_a", argv[1]);
	snprintf(path2, sizeof(path2), "%s/data_b", argv[1]);
	snprintf(dpath, sizeof(dpath), "%s/data_direct", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd2 = open(path2, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || fd2 < 0) {
		perror("data_work: open");
		return 1;
	}
	/* 64 writes of 4 KiB, 16 pwrites of 8 KiB at 1 MiB + 8 KiB * i */
	for (i = 0; i < 64; i++)
		tally(WR, 4096, write(fd, buf, 4096), "write");
	for (i = 0; i < 16; i++)
		tally(PWR, 8192, pwrite(fd, buf, 8192, (1 << 20) + 8192 * i), "pwrite");
	/* 8 writevs of 1000 + 2000 + 3000 bytes, 4 pwritevs of the same at 2 MiB */
	iov[0].iov_base = buf; iov[0].iov_len = 1000;
	iov[1].iov_base = buf; iov[1].iov_len = 2000;
	iov[2].iov_base = buf; iov[2].iov_len = 3000;
	for (i = 0; i < 8; i++)
		tally(WR, 6000, writev(fd, iov, 3), "writev");
	for (i = 0; i < 4; i++)
		tally(PWR, 6000, pwritev(fd, iov, 3, (2 << 20) + 6000 * i), "pwritev");
	tally(FSYNC, 0, fsync(fd), "fsync");
	tally(FDSYNC, 0, fdatasync(fd), "fdatasync");
	tally(SFR, 65536, sync_file_range(fd, 0, 65536, SYNC_FILE_RANGE_WRITE), "sync_file_range");
	tally(FALLOC, 1 << 20, fallocate(fd2, 0, 0, 1 << 20), "fallocate");
	tally(FTRUNC, 4 << 20, ftruncate(fd2, 4 << 20), "ftruncate");
	/* read back: 16 preads of 8 KiB, then the whole file in 64 KiB reads to EOF */
	for (i = 0; i < 16; i++)
		tally(PRD, 8192, pread(fd, buf, 8192, (1 << 20) + 8192 * i), "pread");
	lseek(fd, 0, SEEK_SET);
	do {
		n = read(fd, buf, sizeof(buf));
		tally(RD, sizeof(buf), n, "read");
	} while (n > 0);
	lseek(fd, 0, SEEK_SET);
	for (i = 0; i < 4; i++)
		tally(RD, 6000, readv(fd, iov, 3), "readv");
	for (i = 0; i < 4; i++)
		tally(PRD, 6000, preadv(fd, iov, 3, 4096 * i), "preadv");
	/* copies: 64 KiB data_a -> data_b, 32 KiB data_a -> data_b by sendfile */
	{
		loff_t in = 0, out = 0;
		off_t so = 0;

		tally(COPY, 65536, copy_file_range(fd, &in, fd2, &out, 65536, 0), "copy_file_range");
		tally(SENDF, 32768, sendfile(fd2, fd, &so, 32768), "sendfile");
	}
	/* O_DIRECT: 200 pwrites of 4 KiB, fsync, 200 preads (device latencies, for the percentiles) */
	dfd = open(dpath, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (dfd < 0) {
		perror("data_work: open O_DIRECT");
		return 1;
	}
	for (i = 0; i < 200; i++)
		tally(PWR, 4096, pwrite(dfd, buf, 4096, 4096 * i), "pwrite direct");
	tally(FSYNC, 0, fsync(dfd), "fsync direct");
	for (i = 0; i < 200; i++)
		tally(PRD, 4096, pread(dfd, buf, 4096, 4096 * i), "pread direct");
	/* not files of the target: a pipe and /dev/zero */
	zfd = open("/dev/zero", O_RDONLY);
	if (zfd >= 0 && pipe(p) == 0) {
		for (i = 0; i < 10; i++) {
			if (read(zfd, buf, 4096) < 0 || write(p[1], buf, 100) < 0 ||
			    read(p[0], buf, 100) < 0)
				break;
		}
	}
	close(fd);
	close(fd2);
	close(dfd);
	for (i = 0; i < NK; i++)
		printf("%s %llu %llu %llu\n", kname[i], cnt[i], asked[i], done[i]);
	return 0;
}
