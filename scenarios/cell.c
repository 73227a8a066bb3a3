// SPDX-License-Identifier: GPL-2.0
/* One configuration of `fslens demo`: see cell.h. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cell.h"
#include "fslens/text.h"

struct cell_check {
	struct fsl_params p;
	const char **bad;
	char *buf;
	size_t len;
};

static int check_cell(void *ctx, const char *label, const char *const *settings, unsigned int n)
{
	struct cell_check *k = ctx;
	unsigned int i;
	int err;

	for (i = 0; i < n; i++)
		if ((err = fsl_params__set(&k->p, settings[i]))) {
			snprintf(k->buf, k->len, "%s", settings[i]);
			*k->bad = k->buf;
			return err;
		}
	return 0;
}

int fsl_cell__check(const struct fsl_scenario *sc, enum fsl_scale scale, const char *const *sets,
		    unsigned int nsets, const struct fsl_matrix *m, const char **bad, char *buf,
		    size_t len)
{
	struct cell_check k = { .bad = bad, .buf = buf, .len = len };
	struct fsl_matrix walk = *m;	/* a copy: the walk moves its cell */
	unsigned int i;
	int err;

	fsl_params__init(&k.p, sc, scale);
	for (i = 0; i < nsets; i++)
		if ((err = fsl_params__set(&k.p, sets[i]))) {
			*bad = sets[i];
			return err;
		}
	return fsl_matrix__walk(&walk, sc->name, check_cell, &k, NULL, NULL);
}

int fsl_cell__prepare(struct fsl_cell *c, const struct fsl_scenario *sc, enum fsl_scale scale,
		      const char *const *sets, unsigned int nsets, const char *const *extra,
		      unsigned int nextra)
{
	unsigned int i;
	int err;

	memset(c, 0, sizeof(*c));
	fsl_params__init(&c->p, sc, scale);
	for (i = 0; i < nsets + nextra; i++) {
		const char *kv = i < nsets ? sets[i] : extra[i - nsets];

		if ((err = fsl_params__set(&c->p, kv))) {
			c->bad = kv;
			return err;
		}
		if (c->nsets < FSL_CELL_SETS)
			snprintf(c->sets[c->nsets++], sizeof(c->sets[0]), "%s", kv);
	}
	/*
	 * createmany makes an inode per name: without inodes= mkfs's default
	 * (65,536 for 1 GiB) made --set n=100000 fail with ENOSPC.
	 */
	if (!strcmp(sc->name, "createmany") && !*fsl_params__get(&c->p, "inodes") &&
	    c->nsets < FSL_CELL_SETS) {
		uint64_t names = fsl_params__size(&c->p, "n");

		snprintf(c->sets[c->nsets], sizeof(c->sets[0]), "inodes=%llu",
			 (unsigned long long)(names + names / 10 + 4096));
		if (!fsl_params__set(&c->p, c->sets[c->nsets]))
			c->nsets++;
	}
	if (fsl_scratch_opts__from_params(&c->so, &c->p, c->notes, sizeof(c->notes)))
		return -EBADF;
	if (*c->notes && c->so.journal_mib && c->nsets < FSL_CELL_SETS)
		/* the phase file (and compare's labels) say what mkfs made */
		snprintf(c->sets[c->nsets++], sizeof(c->sets[0]), "journal=%lluM",
			 (unsigned long long)c->so.journal_mib);
	return 0;
}

int fsl_cell__apply_vm(struct fsl_vm_saved *vm, const struct fsl_params *p,
		       void (*said)(void *ctx, int waiting, const char *key, const char *value), void *ctx,
		       char *errmsg, size_t errlen)
{
	static const char *keys[] = { "dirty_bytes", "dirty_background_bytes",
				      "dirty_expire_centisecs", "dirty_writeback_centisecs" };
	unsigned int i;
	uint64_t v;
	int err;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *s = fsl_params__get(p, keys[i]);
		char num[32];

		if (!s || !*s)
			continue;
		if (fsl_parse_size(s, &v)) {
			snprintf(errmsg, errlen, "bad %s '%s'", keys[i], s);
			return -EINVAL;
		}
		snprintf(num, sizeof(num), "%" PRIu64, v);
		err = fsl_vm__lock(vm, 0);
		if (err == -EWOULDBLOCK) {
			if (said)
				said(ctx, 1, keys[i], num);
			err = fsl_vm__lock(vm, 1);
		}
		if (err) {
			snprintf(errmsg, errlen, "cannot lock %s", FSL_VM_LOCK);
			return err;
		}
		if ((err = fsl_vm__set(vm, keys[i], num))) {
			snprintf(errmsg, errlen, "cannot set vm.%s=%s", keys[i], num);
			return err;
		}
		if (said)
			said(ctx, 0, keys[i], num);
	}
	return 0;
}

int fsl_cell__restore_vm(struct fsl_vm_saved *vm, char *errmsg, size_t errlen)
{
	int err = fsl_vm__restore(vm);

	if (err)
		snprintf(errmsg, errlen, "cannot restore vm.dirty_* settings (were bytes %s/%s, "
			 "ratio %s/%s, expire %s, writeback %s centisecs)", vm->dirty_bytes,
			 vm->bg_bytes, vm->dirty_ratio, vm->bg_ratio, vm->expire, vm->writeback);
	return err;
}

int fsl_child__spawn(struct fsl_child *ch, char *const argv[], int out_fd)
{
	ch->signalled = 0;
	ch->pid = fork();
	if (ch->pid < 0)
		return -errno;
	if (ch->pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (out_fd >= 0)
			dup2(out_fd, 1);
		execv(argv[0], argv);
		fprintf(stderr, "fslens: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(ch->pid, ch->pid);
	return 0;
}

int fsl_child__reap(struct fsl_child *ch, const volatile sig_atomic_t *stop)
{
	int status, waited = 0;

	for (;;) {
		siginfo_t si = { 0 };
		int r;

		/* WNOWAIT: the exited leader keeps its process group id reserved */
		r = waitid(P_PID, ch->pid, &si, WEXITED | WNOWAIT | (*stop ? WNOHANG : 0));
		if (r == 0 && si.si_pid == ch->pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (*stop) {
			if (!ch->signalled) {
				kill(-ch->pid, SIGINT);
				ch->signalled = 1;
			} else if (++waited > 100) {
				kill(-ch->pid, SIGKILL);
			}
			if (r == 0)
				usleep(100000);
		}
	}
	/* what the group left behind (a workload's forked clients) goes too */
	kill(-ch->pid, SIGKILL);
	while (waitpid(ch->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
