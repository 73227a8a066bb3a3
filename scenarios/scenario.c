// SPDX-License-Identifier: GPL-2.0
/* Scenario table, parameters and the phase/timing helpers the workloads share. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "scenario.h"

/* def[] = { small, medium, full }; NULL repeats the previous scale's value. */
const struct fsl_param_def fsl_common_params[] = {
	{ "fs",          { "ext4" },      "filesystem type: ext4, ext3 (mkfs.ext3, mounted by the ext4 driver) or xfs" },
	{ "fs_size",     { "1G" },        "size of the scratch image (sparse)" },
	{ "blocksize",   { "4096" },      "mkfs.ext4 -b (mkfs.xfs -b size=): 1024, 2048 or 4096" },
	{ "journal",     { "" },          "journal size (mkfs.ext4 -J size=; XFS log, mkfs.xfs -l size=), e.g. 1M, 64M; empty = mkfs default (XFS: 8192 blocks, or the least mkfs.xfs allows)" },
	{ "inodes",      { "" },          "number of inodes (mkfs.ext4 -N); empty = mkfs default" },
	{ "large_dir",   { "0" },         "mkfs.ext4 -O large_dir (3-level htree, >2 GiB directories)" },
	{ "mkfs_opts",   { "" },          "extra mkfs.ext4 options, space separated" },
	{ "atime",       { "relatime" },  "relatime, strictatime or noatime" },
	{ "delalloc",    { "1" },         "0 mounts with nodelalloc" },
	{ "mount_opts",  { "" },          "extra mount options, comma separated" },
	{ "dio",         { "0" },         "1: the loop device does direct I/O to the image" },
	{ "drop_caches", { "0" },         "1: write back and drop the page/dentry/inode caches between phases" },
	{ "sync",        { "1" },         "1: every phase ends with syncfs() (its cost is part of the phase)" },
	{ "dirty_bytes", { "" },          "set vm.dirty_bytes for the run (restored afterwards)" },
	{ "dirty_background_bytes", { "" }, "set vm.dirty_background_bytes for the run (restored)" },
	{ "dirty_expire_centisecs", { "" }, "set vm.dirty_expire_centisecs for the run (restored): "
	  "how old dirty data is before periodic writeback takes it" },
	{ "dirty_writeback_centisecs", { "" }, "set vm.dirty_writeback_centisecs for the run "
	  "(restored): the flusher's period; 0 stops periodic writeback" },
	{ "tick_ms",     { "10", "100", "100" }, "rate sample interval (small scale: short phases need finer samples)" },
	{ "seed",        { "1" },         "seed of the deterministic generator" },
	{ NULL },
};

static const struct fsl_param_def htree_params[] = {
	{ "n",         { "2000", "30000", "30000" }, "directories, one file in each" },
	{ "blocksize", { "1024" }, NULL },
	{ "journal",   { "1M" },   NULL },
	{ NULL },
};

static const struct fsl_param_def createmany_params[] = {
	{ "n",       { "20000", "200000", "1000000" }, "entries in one directory" },
	{ "mode",    { "mknod" }, "mknod or create (open O_CREAT + close)" },
	{ "lookups", { "1" }, "1: a lookup phase (stat each name, shuffled) before unlink" },
	{ "namelen", { "9" }, "name length (createmany's f%d is 9); longer names fill the htree sooner" },
	{ "on_full", { "fail" }, "fail, or stop: a full directory (ENOSPC: no third htree level "
	  "without large_dir) ends the create phase and the rest runs on the names made" },
	{ "fs_size", { "1G", "2G", "8G" }, NULL },
	{ "inodes",  { "" }, "mkfs.ext4 -N; empty = n + 10% + 4096, an inode per name" },
	/* the lookups and unlinks find the directory on disk, as createmany's did */
	{ "drop_caches", { "1" }, NULL },
	{ NULL },
};

static const struct fsl_param_def bonnie_params[] = {
	{ "n",     { "2000", "16384", "102400" }, "files per run (bonnie++ -n is in 1024s)" },
	{ "dirs",  { "10", "64", "128" }, "directories the files are spread over" },
	{ "min",   { "0" }, "smallest file size, bytes" },
	{ "max",   { "4096" }, "largest file size, bytes" },
	{ "runs",  { "1" }, "runs on the same filesystem (aging)" },
	/* the read phases read the disk, as the seed's mem=256M made bonnie++'s do */
	{ "drop_caches", { "1" }, NULL },
	{ NULL },
};

static const struct fsl_param_def dbench_params[] = {
	{ "clients", { "4", "8", "16" }, "client processes" },
	{ "seconds", { "4", "30", "60" }, "run time" },
	{ "files",   { "20", "50", "100" }, "working set of files per client" },
	{ "max",     { "262144" }, "largest file written, bytes" },
	{ "real",    { "0" }, "1: run Debian's dbench (if installed) instead" },
	{ NULL },
};

static const struct fsl_param_def copytree_params[] = {
	{ "files",   { "300", "2000", "10000" }, "files in the source tree" },
	{ "dirs",    { "10", "40", "200" }, "directories in the source tree" },
	{ "large",   { "20" }, "every Nth file is large" },
	{ "large_max", { "4M", "16M", "64M" }, "largest large file" },
	{ "small_max", { "64K" }, "largest small file" },
	{ "src",     { "" }, "source tree directory (default: next to the image)" },
	{ "fs_size", { "1G", "2G", "8G" }, NULL },
	{ NULL },
};

const struct fsl_scenario fsl_scenarios[] = {
	{ "htree", "N mkdir in one directory, a file in each, then stat the tree (du)",
	  htree_params, fsl_scn_htree,
	  "seed 000 (ext3 htree create storm, 2003): 30,000 mkdir took minutes on "
	  "seconds of CPU, and du was 40x slower on 1 KiB blocks than on 4 KiB, the same with "
	  "noatime. Concluded: dirty blocks pushed through the journal early; at 1 KiB the "
	  "atime updates of a read-only du journal inode-table blocks. Above: the stat phase "
	  "under strictatime has more commits and journal blocks, mostly inode-table blocks "
	  "dirtied by ext4_dirty_inode, written home by checkpoints while the tasks wait for "
	  "journal log space; under noatime none of it." },
	{ "createmany", "N entries in one directory with the create rate over time; lookups; unlink",
	  createmany_params, fsl_scn_createmany,
	  "seed 003 (ext4 large_dir createmany, 2017): with large_dir the create "
	  "rate fell from 56k/s to 11k/s on HDD. Suspected: lookups read directory blocks from "
	  "disk, and creates wait on buffers of the committing transaction (shadow). Above: "
	  "directory blocks read and the htree's levels and index blocks, the dir_block_read "
	  "and buffer_under_commit waits, per configuration; a configuration whose htree is "
	  "full fails (large_dir=0 past two levels) while the other goes on." },
	{ "bonnie", "bonnie++-style small files: sequential and random create/stat/delete",
	  bonnie_params, fsl_scn_bonnie,
	  "seed 001 (XFS inode placement aging, 2002): bonnie++'s sequential read "
	  "halved on the second run on the same filesystem: new inodes came from the most "
	  "recent inode chunk, far from their data. Above: run 1 against run 2 in the read "
	  "phases: read seeks per second and their mean distance; fslens report's layout "
	  "section gives the inode-to-data distance." },
	{ "dbench", "N clients replaying a file-server mix for T seconds",
	  dbench_params, fsl_scn_dbench,
	  "seed 002 (2.4.7-ac dbench thrashing, 2001): dbench throughput fell 30-40% "
	  "between two kernels, the disk 'stepping like mad'; stopping periodic writeback "
	  "restored it. Above: at equal work, writeback pages by reason (periodic, "
	  "background, sync), dirty-limit pauses and write seeks per second under each "
	  "writeback setting." },
	{ "copytree", "copy a tree of small and large files file by file, then sync",
	  copytree_params, fsl_scn_copytree,
	  "seed 004 (ext4 delalloc interleaving, 2008): files copied one at a time "
	  "were interleaved in 8 MiB (2048-block) chunks with delalloc, and broke after 15 "
	  "blocks with nodelalloc. Above: fragmented files and fragcheck breaks per "
	  "configuration; fslens report's layout section names the file that took each "
	  "expected block and where the breaks fall (2048-block multiples: the writeback "
	  "extent limit; 15/16: mb_stream_req)." },
	{ NULL },
};

const struct fsl_scenario *fsl_scenario__find(const char *name)
{
	const struct fsl_scenario *sc;

	for (sc = fsl_scenarios; sc->name; sc++)
		if (!strcmp(sc->name, name))
			return sc;
	return NULL;
}

static const char *scale_names[FSL_SCALE__MAX] = { "small", "medium", "full" };

int fsl_scale__parse(const char *s, enum fsl_scale *scale)
{
	int i;

	for (i = 0; i < FSL_SCALE__MAX; i++)
		if (!strcmp(s, scale_names[i])) {
			*scale = i;
			return 0;
		}
	return -EINVAL;
}

const char *fsl_scale__name(enum fsl_scale scale)
{
	return scale < FSL_SCALE__MAX ? scale_names[scale] : "?";
}

static int params_index(const struct fsl_params *p, const char *key)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->key[i], key))
			return i;
	return -1;
}

static const char *def_at(const struct fsl_param_def *d, enum fsl_scale scale)
{
	int i;

	for (i = scale; i >= 0; i--)
		if (d->def[i])
			return d->def[i];
	return "";
}

static void add_defs(struct fsl_params *p, const struct fsl_param_def *d, enum fsl_scale scale)
{
	for (; d && d->key; d++) {
		if (params_index(p, d->key) >= 0 || p->n >= FSL_PARAMS_MAX)
			continue;
		p->key[p->n] = d->key;
		snprintf(p->value[p->n], sizeof(p->value[0]), "%s", def_at(d, scale));
		p->set[p->n] = 0;
		p->n++;
	}
}

void fsl_params__init(struct fsl_params *p, const struct fsl_scenario *sc, enum fsl_scale scale)
{
	memset(p, 0, sizeof(*p));
	add_defs(p, sc->params, scale);	/* the scenario's defaults win */
	add_defs(p, fsl_common_params, scale);
}

/* The parameters that are switches: 1/0, yes/no, on/off, true/false. */
static int is_switch(const char *key)
{
	static const char *const switches[] = { "large_dir", "delalloc", "dio", "drop_caches",
						"sync", "lookups", "real", NULL };
	const char *const *k;

	for (k = switches; *k; k++)
		if (!strcmp(*k, key))
			return 1;
	return 0;
}

/*
 * The definition p's key came from: p->key[] points at the key of the table
 * entry that gave the default (the scenario's own, else the common one), so
 * the entry is found by that pointer, not by name (htree's inodes default is
 * empty, createmany's a number).
 */
static const struct fsl_param_def *def_of(const char *key)
{
	const struct fsl_scenario *sc;
	const struct fsl_param_def *d;

	for (sc = fsl_scenarios; sc->name; sc++)
		for (d = sc->params; d && d->key; d++)
			if (d->key == key)
				return d;
	for (d = fsl_common_params; d->key; d++)
		if (d->key == key)
			return d;
	return NULL;
}

int fsl_params__set(struct fsl_params *p, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char key[64];
	int i;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return -EINVAL;
	memcpy(key, kv, eq - kv);
	key[eq - kv] = 0;
	/* the usual spellings of the atime choice */
	if (!strcmp(key, "noatime") || !strcmp(key, "strictatime") || !strcmp(key, "relatime"))
		return -EINVAL;
	i = params_index(p, key);
	if (i < 0)
		return -ENOENT;
	if (strlen(eq + 1) >= sizeof(p->value[0]))
		return -EINVAL;
	{
		const struct fsl_param_def *d = def_of(p->key[i]);
		const char *val = eq + 1, *dflt = d ? def_at(d, FSL_SCALE_SMALL) : "";
		uint64_t v;
		int b;

		/* sizes where empty means "leave it" (the mkfs or sysctl default) */
		static const char *const sizes[] = { "dirty_bytes", "dirty_background_bytes",
						     "inodes", "journal", "fs_size", NULL };
		const char *const *k;
		int size = 0;

		for (k = sizes; *k; k++)
			size |= !strcmp(*k, key);
		/* checked here, before mkfs: "n=yes" or "n=" would read as 0 */
		if (is_switch(key)) {
			if (!*val || fsl_parse_bool(val, &b))
				return -EINVAL;
		} else if (size) {
			if (*val && fsl_parse_size(val, &v))
				return -EINVAL;
		} else if (*dflt && !fsl_parse_size(dflt, &v) && fsl_parse_size(val, &v)) {
			return -EINVAL;
		}
	}
	strcpy(p->value[i], eq + 1);
	p->set[i] = 1;
	return 0;
}

const char *fsl_params__get(const struct fsl_params *p, const char *key)
{
	int i = params_index(p, key);

	return i < 0 ? NULL : p->value[i];
}

int fsl_parse_bool(const char *s, int *out)
{
	static const char *yes[] = { "1", "yes", "on", "true", "y" };
	static const char *no[] = { "0", "no", "off", "false", "n", "" };
	unsigned int i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(s, yes[i]))
			return *out = 1, 0;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(s, no[i]))
			return *out = 0, 0;
	return -EINVAL;
}

uint64_t fsl_params__size(const struct fsl_params *p, const char *key)
{
	uint64_t v = 0;
	const char *s = fsl_params__get(p, key);

	if (s && fsl_parse_size(s, &v))
		v = 0;
	return v;
}

int fsl_params__bool(const struct fsl_params *p, const char *key)
{
	int v = 0;
	const char *s = fsl_params__get(p, key);

	if (s && fsl_parse_bool(s, &v))
		v = 0;
	return v;
}

uint64_t fsl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void fsl_wl__begin(struct fsl_wl *wl, const char *phase)
{
	wl->cur = phase;
	wl->cur_start = fsl_now_ns();
	wl->next_tick = wl->cur_start;
	if (wl->ops && wl->ops->tick)
		wl->ops->tick(wl, phase, wl->cur_start, 0);
	wl->next_tick += fsl_params__size(wl->p, "tick_ms") * 1000000ull;
}

void fsl_wl__end(struct fsl_wl *wl, uint64_t ops, uint64_t bytes)
{
	struct fsl_phase ph = {
		.run = wl->run ? wl->run : 1,
		.name = wl->cur,
		.start_ns = wl->cur_start,
		.end_ns = fsl_now_ns(),
		.ops = ops,
		.bytes = bytes,
	};

	if (wl->ops && wl->ops->tick)
		wl->ops->tick(wl, wl->cur, ph.end_ns, ops);
	if (wl->ops && wl->ops->phase)
		wl->ops->phase(wl, &ph);
	wl->cur = NULL;
}

void fsl_wl__progress(struct fsl_wl *wl, uint64_t ops)
{
	uint64_t now, step;

	if (!wl->ops || !wl->ops->tick || (ops & 63))
		return;
	now = fsl_now_ns();
	if (now < wl->next_tick)
		return;
	wl->ops->tick(wl, wl->cur, now, ops);
	step = fsl_params__size(wl->p, "tick_ms") * 1000000ull;
	if (!step)
		step = 100000000ull;
	while (wl->next_tick <= now)
		wl->next_tick += step;
}

int fsl_wl__fail(struct fsl_wl *wl, int err, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	if (err > 0)
		err = -err;
	if (!err)
		err = -EIO;
	va_start(ap, fmt);
	vsnprintf(wl->errmsg, sizeof(wl->errmsg), fmt, ap);
	va_end(ap);
	len = strlen(wl->errmsg);
	if (err != -EINTR)
		snprintf(wl->errmsg + len, sizeof(wl->errmsg) - len, ": %s", strerror(-err));
	return err;
}

int fsl_wl__sync(struct fsl_wl *wl)
{
	int fd, err = 0;

	if (!fsl_params__bool(wl->p, "sync"))
		return 0;
	fd = open(wl->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fsl_wl__fail(wl, errno, "cannot open '%s'", wl->dir);
	if (syncfs(fd))
		err = fsl_wl__fail(wl, errno, "syncfs '%s'", wl->dir);
	close(fd);
	return err;
}

int fsl_wl__drop_caches(struct fsl_wl *wl)
{
	int fd;

	if (!fsl_params__bool(wl->p, "drop_caches"))
		return 0;
	sync();
	/*
	 * Journaled metadata buffers stay pinned until checkpointed, and
	 * drop_caches skips them: a freeze flushes and checkpoints the whole
	 * journal, so the directory and inode blocks really go cold.
	 */
	fd = open(wl->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (!ioctl(fd, FIFREEZE, 0))
			ioctl(fd, FITHAW, 0);
		close(fd);
	}
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fsl_wl__fail(wl, errno, "cannot open /proc/sys/vm/drop_caches");
	if (write(fd, "3\n", 2) != 2) {
		int e = errno;

		close(fd);
		return fsl_wl__fail(wl, e, "cannot write /proc/sys/vm/drop_caches");
	}
	close(fd);
	return 0;
}
