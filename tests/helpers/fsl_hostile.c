// SPDX-License-Identifier: GPL-2.0
/*
 * Write odd but well-formed traces for tests/robust (issue 19).
 *   fsl_hostile OUT geom [KEY=VALUE...]  a 4-group ext4 (32768 blocks and 8192 inodes a
 *                                        group) with start bitmaps, allocations in every
 *                                        group; KEY=VALUE replaces a metadata value,
 *                                        KEY= leaves it out, "nobitmaps" the bitmaps
 *   fsl_hostile OUT names                a task named with terminal escapes, paths with
 *                                        escapes, a newline and a tab
 *   fsl_hostile OUT past                 record.end_ns at 2 s, events up to 1000 s
 *   fsl_hostile OUT longio               the geom trace plus one 512-byte write that
 *                                        takes 9e18 ns (issued at 1 s)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fslens/trace.h"

#define S 1000000000ull
#define DEV FSL_MKDEV(7, 0)

static int die(const char *what, int err)
{
	fprintf(stderr, "fsl_hostile: %s: %s\n", what, strerror(-err));
	return 1;
}

static uint64_t now = 1 * S;

static void hdr(struct fsl_hdr *h, unsigned int type, size_t size, uint32_t tid)
{
	memset(h, 0, sizeof(*h));
	h->ts = now;
	h->pid = tid;
	h->tid = tid;
	h->type = (uint16_t)type;
	h->size = (uint16_t)size;
	now += 1000;
}

static int ev(struct fsl_writer *w, const struct fsl_hdr *h)
{
	return fsl_writer__event(w, h);
}

static int proc(struct fsl_writer *w, uint32_t pid, const char *comm)
{
	struct fsl_ev_proc p = { 0 };

	hdr(&p.hdr, FSL_EV_PROC, sizeof(p), pid);
	p.ppid = 1;
	p.kind = FSL_PROC_SEEN;
	memcpy(p.comm, comm, strnlen(comm, sizeof(p.comm)));
	return ev(w, &p.hdr);
}

static int dirop(struct fsl_writer *w, uint32_t tid, unsigned int op, const char *path,
		 const char *path2)
{
	union { struct fsl_ev_dirop d; unsigned char b[1024]; } u;
	size_t l1 = strlen(path), l2 = path2 ? strlen(path2) : 0;

	memset(&u, 0, sizeof(u));
	hdr(&u.d.hdr, FSL_EV_DIROP, fsl_dirop_size(l1, l2), tid);
	u.d.lat_ns = 5000;
	u.d.dirfd = -100;
	u.d.fd = -1;
	u.d.op = (uint16_t)op;
	u.d.path_len = (uint16_t)l1;
	u.d.path2_len = (uint16_t)l2;
	memcpy(u.d.paths, path, l1);
	if (l2)
		memcpy(u.d.paths + l1, path2, l2);
	return ev(w, &u.d.hdr);
}

/* A request, the mballoc decision and the allocation of len blocks at kblock. */
static int alloc(struct fsl_writer *w, uint64_t ino, uint32_t lblk, uint32_t len, uint64_t kblock)
{
	struct fsl_ev_ext4_alloc_blocks rq = { 0 }, al;
	struct fsl_ev_ext4_mballoc_alloc mb = { 0 };
	int err;

	hdr(&rq.hdr, FSL_EV_EXT4_REQUEST_BLOCKS, sizeof(rq), 100);
	rq.dev = DEV;
	rq.ino = ino;
	rq.logical = lblk;
	rq.len = len;
	rq.flags = 0x20 | 0x400;
	err = ev(w, &rq.hdr);
	hdr(&mb.hdr, FSL_EV_EXT4_MBALLOC_ALLOC, sizeof(mb), 100);
	mb.dev = DEV;
	mb.ino = ino;
	mb.flags = 0x20 | 0x400;
	mb.found = 1;
	mb.groups = 1;
	mb.result_group = (uint32_t)(kblock / 32768);
	mb.result_start = (int32_t)(kblock % 32768);
	mb.result_len = (int32_t)len;
	err = err ? err : ev(w, &mb.hdr);
	al = rq;
	hdr(&al.hdr, FSL_EV_EXT4_ALLOCATE_BLOCKS, sizeof(al), 100);
	al.block = kblock;
	return err ? err : ev(w, &al.hdr);
}

static int inode(struct fsl_writer *w, uint64_t dir, uint64_t ino, uint16_t mode)
{
	struct fsl_ev_ext4_inode rq = { 0 }, al;
	int err;

	hdr(&rq.hdr, FSL_EV_EXT4_REQUEST_INODE, sizeof(rq), 100);
	rq.dev = DEV;
	rq.dir = dir;
	rq.mode = mode;
	err = ev(w, &rq.hdr);
	al = rq;
	hdr(&al.hdr, FSL_EV_EXT4_ALLOCATE_INODE, sizeof(al), 100);
	al.ino = ino;
	return err ? err : ev(w, &al.hdr);
}

static const char *const geom_kv[][2] = {
	{ FSL_KV_HOSTNAME, "hostile" },
	{ FSL_KV_KERNEL, "6.18.0" },
	{ FSL_KV_HZ, "250" },
	{ FSL_KV_FSTYPE, "ext4" },
	{ FSL_KV_MOUNT, "/mnt/h" },
	{ FSL_KV_OPTIONS, "rw,relatime" },
	{ FSL_KV_START_NS, "1000000000" },
	{ FSL_KV_END_NS, "3000000000" },
	{ FSL_KV_EXT4_BLOCK_SIZE, "4096" },
	{ FSL_KV_EXT4_BLOCKS_COUNT, "131072" },
	{ FSL_KV_EXT4_BLOCKS_PER_GROUP, "32768" },
	{ FSL_KV_EXT4_INODES_PER_GROUP, "8192" },
	{ FSL_KV_EXT4_INODES_COUNT, "32768" },
	{ FSL_KV_EXT4_GROUP_COUNT, "4" },
	{ FSL_KV_EXT4_FIRST_DATA_BLOCK, "0" },
	{ FSL_KV_EXT4_FIRST_INO, "11" },
	{ FSL_KV_EXT4_INODE_SIZE, "256" },
	{ FSL_KV_EXT4_FLEX_BG_SIZE, "1" },
	{ FSL_KV_EXT4_JOURNAL_BLOCKS, "4096" },
	{ FSL_KV_EXT4_USED_DIRS, "2,1,0,0" },
	{ NULL, NULL },
};

static int geom(struct fsl_writer *w, int argc, char **argv)
{
	uint64_t brun[3] = { 0, 1000, 131072 - 1000 }, irun[3] = { 0, 11, 32768 - 11 };
	struct fsl_bitmap bb = { FSL_BITMAP_BLOCK, FSL_BITMAP_START, 0, 131072, 3, brun };
	struct fsl_bitmap ib = { FSL_BITMAP_INODE, FSL_BITMAP_START, 1, 32768, 3, irun };
	int i, k, err, bitmaps = 1;

	for (i = 0; geom_kv[i][0]; i++) {
		const char *v = geom_kv[i][1];

		for (k = 0; k < argc; k++) {
			size_t n = strlen(geom_kv[i][0]);

			if (!strncmp(argv[k], geom_kv[i][0], n) && argv[k][n] == '=')
				v = argv[k] + n + 1;
		}
		if (*v)		/* KEY= leaves the key out */
			fsl_writer__kv(w, geom_kv[i][0], "%s", v);
	}
	for (k = 0; k < argc; k++) {	/* keys the table does not have */
		const char *eq = strchr(argv[k], '=');
		int known = 0;

		if (!strcmp(argv[k], "nobitmaps"))
			bitmaps = 0;
		for (i = 0; geom_kv[i][0]; i++)
			if (eq && (size_t)(eq - argv[k]) == strlen(geom_kv[i][0]) &&
			    !strncmp(argv[k], geom_kv[i][0], eq - argv[k]))
				known = 1;
		if (eq && !known && eq[1]) {
			char key[128];

			snprintf(key, sizeof(key), "%.*s", (int)(eq - argv[k]), argv[k]);
			fsl_writer__kv(w, key, "%s", eq + 1);
		}
	}
	if (bitmaps) {
		fsl_writer__bitmap(w, &bb);
		fsl_writer__bitmap(w, &ib);
	}
	err = proc(w, 100, "cp");
	/* a file in the root (group 0), a directory in group 1, files in it (group 1) */
	err = err ? err : inode(w, 2, 12, S_IFREG | 0644);
	err = err ? err : alloc(w, 12, 0, 8, 1024);
	err = err ? err : inode(w, 2, 8193, S_IFDIR | 0755);
	err = err ? err : inode(w, 8193, 8194, S_IFREG | 0644);
	err = err ? err : alloc(w, 8194, 0, 16, 32768 + 100);
	/* the last group: inode 3 * 8192 + 5, blocks near the end of the filesystem */
	err = err ? err : inode(w, 8193, 3 * 8192 + 5, S_IFREG | 0644);
	err = err ? err : alloc(w, 3 * 8192 + 5, 0, 32, 131072 - 64);
	return err ? die("event", err) : 0;
}

static int names(struct fsl_writer *w)
{
	/* an OSC title change and a screen clear, as a crafted comm can carry */
	static const char comm[] = "\x1b]0;T\x07\x1b[2J";
	int err;

	fsl_writer__kv(w, FSL_KV_HOSTNAME, "host\x1b[31m");
	fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(w, FSL_KV_DEV, "%u", DEV);
	fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/h");
	fsl_writer__kv(w, FSL_KV_START_NS, "1000000000");
	fsl_writer__kv(w, FSL_KV_END_NS, "2000000000");
	fsl_writer__kv(w, FSL_KV_ROOT_PID, "100");
	err = proc(w, 100, comm);
	err = err ? err : dirop(w, 100, FSL_OP_MKDIR, "/mnt/h/a\x1b[2Jb", NULL);
	err = err ? err : dirop(w, 100, FSL_OP_OPEN, "/mnt/h/new\nline\tand\x7f", NULL);
	err = err ? err : dirop(w, 100, FSL_OP_RENAME, "/mnt/h/x\x9b" "31m", "/mnt/h/y\x07");
	if (!err) {
		char *frames[] = { "io_schedule+0x12", "evil\x1b]0;X\x07+0x9",
				   "ext4_mkdir+0x1a3" };
		struct fsl_stack st = { 1, 3, frames };
		struct fsl_ev_offcpu oc = { 0 };

		fsl_writer__stack(w, &st);
		hdr(&oc.hdr, FSL_EV_OFFCPU, sizeof(oc), 100);
		oc.dur_ns = 2000000;
		oc.stack_id = 1;
		oc.state = FSL_OFFCPU_UNINTERRUPTIBLE;
		err = ev(w, &oc.hdr);
		/* a wait whose stack the trace does not hold (a killed recording's) */
		hdr(&oc.hdr, FSL_EV_OFFCPU, sizeof(oc), 100);
		oc.stack_id = 99;
		err = err ? err : ev(w, &oc.hdr);
	}
	return err ? die("event", err) : 0;
}

static int past(struct fsl_writer *w)
{
	int err = 0, i;

	fsl_writer__kv(w, FSL_KV_HOSTNAME, "past");
	fsl_writer__kv(w, FSL_KV_FSTYPE, "ext4");
	fsl_writer__kv(w, FSL_KV_DEV, "%u", DEV);
	fsl_writer__kv(w, FSL_KV_MOUNT, "/mnt/h");
	fsl_writer__kv(w, FSL_KV_START_NS, "1000000000");
	fsl_writer__kv(w, FSL_KV_END_NS, "2000000000");
	err = proc(w, 100, "mkdir");
	for (i = 0; i < 1000 && !err; i++) {
		now = 1 * S + (uint64_t)i * S;
		err = dirop(w, 100, FSL_OP_MKDIR, "/mnt/h/d", NULL);
	}
	return err ? die("event", err) : 0;
}

/* A valid trace whose device was busy 9e18 ns for one sector (issue 19, UBSan in replay). */
static int longio(struct fsl_writer *w)
{
	char end[] = "record.end_ns=9000000001000000000";
	char *kv[] = { end };
	struct fsl_ev_block_rq rq = { 0 };
	int err = geom(w, 1, kv);

	if (err)
		return err;
	hdr(&rq.hdr, FSL_EV_BLOCK_RQ_ISSUE, sizeof(rq), 100);
	rq.dev = DEV;
	rq.sector = 100;
	rq.nr_sector = 1;
	rq.bytes = 512;
	rq.flags = FSL_RQ_WRITE;
	rq.rq = 0xffff1;
	err = ev(w, &rq.hdr);
	rq.hdr.type = FSL_EV_BLOCK_RQ_COMPLETE;
	rq.hdr.ts += 9000000000000000000ull;
	err = err ? err : ev(w, &rq.hdr);
	return err ? die("event", err) : 0;
}

int main(int argc, char **argv)
{
	struct fsl_writer_opts o = { .force = 1 };
	struct fsl_writer *w;
	int err = 0, rc;

	/* FSL_NO_COMPRESS=1: chunks stored raw, for mutations that keep checksums valid */
	o.no_compress = getenv("FSL_NO_COMPRESS") != NULL;
	o.chunk_events = getenv("FSL_CHUNK_EVENTS") ? strtoul(getenv("FSL_CHUNK_EVENTS"), NULL, 10)
						    : 0;
	if (argc < 3) {
		fprintf(stderr, "usage: fsl_hostile OUT geom [KEY=VALUE...] | names | past | longio\n");
		return 2;
	}
	w = fsl_writer__open(argv[1], &o, &err);
	if (!w)
		return die(argv[1], err);
	if (!strcmp(argv[2], "geom"))
		rc = geom(w, argc - 3, argv + 3);
	else if (!strcmp(argv[2], "names"))
		rc = names(w);
	else if (!strcmp(argv[2], "past"))
		rc = past(w);
	else if (!strcmp(argv[2], "longio"))
		rc = longio(w);
	else
		rc = die(argv[2], -EINVAL);
	err = fsl_writer__close(w);
	if (err && !rc)
		rc = die("close", err);
	return rc;
}
