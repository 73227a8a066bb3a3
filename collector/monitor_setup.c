// SPDX-License-Identifier: GPL-2.0
/*
 * fslens monitor's set-up and capture policy, apart from the daemon's loop
 * (cli/cmd_monitor.c): which filesystems it watches and what the kernel side
 * needs to know of each, and the gate that turns triggers into captures.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/fsmeta.h"
#include "fslens/monitor.h"

/* commit=N in the mount options, else ext4's default 5 s, in kernel jiffies. */
uint32_t fsl_mon_commit_jiffies(const char *mount_options, int hz)
{
	const char *p = strstr(mount_options, "commit=");
	long s = p ? strtol(p + 7, NULL, 10) : 5;

	return (uint32_t)((s > 0 ? s : 5) * (hz > 0 ? hz : 250));
}

static int jbd2_text(void *ctx, const char *name, const void *data, size_t len)
{
	(void)name;
	fsl_jbd2_info_parse(data, len, ctx);
	return 0;
}

/* jbd2's transaction size limit, from /proc/fs/jbd2/<dev>-N/info; 0 if none. */
static uint32_t max_txn_blocks(const struct fsl_target *t)
{
	struct fsl_jbd2_info ji = { 0 };
	struct fsl_meta_sink sink = { &ji, NULL, jbd2_text, NULL };

	if (fsl_meta_jbd2(&sink, t, "now") || !ji.valid)
		return 0;
	return (uint32_t)ji.max_blocks;
}

static int add_resolved(struct fsl_mon_metrics *mm, const struct fsl_target *t, int hz)
{
	struct fsl_mon_target mt = {
		.label = t->mount, .disk = t->diskname, .fstype = t->fstype, .devname = t->devname,
		.dev = t->dev, .blkdev = t->blkdev,
		.commit_jiffies = fsl_mon_commit_jiffies(t->options, hz),
		.max_txn_blocks = max_txn_blocks(t),
	};

	return fsl_mon_metrics__target(mm, &mt) < 0 ? -ENOSPC : 0;
}

int fsl_mon_add_mount(struct fsl_mon_metrics *mm, const char *mount, int hz, struct fsl_target *t)
{
	int e = fsl_target_resolve(mount, NULL, t);

	return e ? e : add_resolved(mm, t, hz);
}

int fsl_mon_add_all_ext4(struct fsl_mon_metrics *mm, const char *mounts_file, int hz,
			 struct fsl_target *tg)
{
	FILE *f = fopen(mounts_file, "re");
	char src[4096], dir[4096], type[64];
	struct fsl_target t;
	unsigned int i;
	int n = 0;

	if (!f)
		return -errno;
	while (fscanf(f, "%4095s %4095s %63s %*[^\n]", src, dir, type) == 3) {
		int dup = 0;

		if (strcmp(type, "ext4") || fsl_target_resolve(dir, NULL, &t))
			continue;
		/* a filesystem mounted twice (a bind mount) is watched once */
		for (i = 0; i < mm->ntargets; i++)
			dup |= mm->fs[i].dev == t.dev;
		if (dup || add_resolved(mm, &t, hz))
			continue;
		tg[n++] = t;
	}
	fclose(f);
	return n;
}

int fsl_mon_add_targets(struct fsl_mon_metrics *mm, const char *const *mounts, unsigned int n,
			int hz, struct fsl_target *tg, int *bad)
{
	unsigned int i;
	int e;

	*bad = -1;
	for (i = 0; i < n; i++) {
		e = fsl_mon_add_mount(mm, mounts[i], hz, &tg[mm->ntargets]);
		if (e) {
			*bad = (int)i;
			return e;
		}
	}
	if (n)
		return 0;
	e = fsl_mon_add_all_ext4(mm, "/proc/self/mounts", hz, tg);
	return e < 0 ? e : e == 0 ? -ENOENT : 0;
}

int fsl_mon_gate__offer(struct fsl_mon_gate *g, int64_t now, const char *why, int tgt)
{
	if (g->why[0] || (g->have_last && now - g->last < g->gap_ns))
		return 0;
	snprintf(g->why, sizeof(g->why), "%s", why);
	g->tgt = tgt;
	g->at = now + g->after_ns;
	g->last = now;
	g->have_last = 1;
	return 1;
}

int fsl_mon_gate__due(const struct fsl_mon_gate *g, int64_t now)
{
	return g->why[0] && now >= g->at;
}

void fsl_mon_gate__done(struct fsl_mon_gate *g)
{
	g->why[0] = 0;
}
