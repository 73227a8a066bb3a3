// SPDX-License-Identifier: GPL-2.0
/* Kernel symbolization from /proc/kallsyms: a sorted address table, binary search. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collector_int.h"

struct ksym {
	uint64_t addr;
	char *name;
};

struct fsl_ksyms {
	struct ksym *syms;
	size_t n, cap;
};

/*
 * No kernel function is this long: an address this far past the nearest
 * symbol is code kallsyms does not list (a BPF program without
 * bpf_jit_kallsyms, a trampoline), not that symbol plus an offset.
 */
#define KSYM_MAX_OFF	(1u << 20)

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct fsl_ksyms *fsl_ksyms__load(const char *path, int *err)
{
	struct fsl_ksyms *k;
	char line[512], name[256], type;
	uint64_t addr;
	FILE *f;

	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f) {
		*err = -errno;
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		goto nomem;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		/* text symbols only; data and absolute symbols never appear in stacks */
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (!addr)
			continue;
		if (k->n == k->cap) {
			size_t cap = k->cap ? k->cap * 2 : 65536;
			struct ksym *s = realloc(k->syms, cap * sizeof(*s));

			if (!s)
				goto nomem;
			k->syms = s;
			k->cap = cap;
		}
		k->syms[k->n].addr = addr;
		k->syms[k->n].name = strdup(name);
		if (!k->syms[k->n].name)
			goto nomem;
		k->n++;
	}
	fclose(f);
	if (!k->n) {
		/* kptr_restrict hides addresses (all zero) from the unprivileged */
		fsl_ksyms__free(k);
		*err = -EPERM;
		return NULL;
	}
	qsort(k->syms, k->n, sizeof(*k->syms), ksym_cmp);
	return k;
nomem:
	fclose(f);
	fsl_ksyms__free(k);
	*err = -ENOMEM;
	return NULL;
}

void fsl_ksyms__free(struct fsl_ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++)
		free(k->syms[i].name);
	free(k->syms);
	free(k);
}

size_t fsl_ksyms__count(const struct fsl_ksyms *k)
{
	return k ? k->n : 0;
}

size_t fsl_ksyms__ranges(const struct fsl_ksyms *k, const char *name, uint64_t (*r)[2],
			 size_t max)
{
	size_t i, n = 0;

	/* a symbol ends where the next one begins */
	for (i = 0; k && i + 1 < k->n && n < max; i++)
		if (!strcmp(k->syms[i].name, name)) {
			r[n][0] = k->syms[i].addr;
			r[n][1] = k->syms[i + 1].addr;
			n++;
		}
	return n;
}

const char *fsl_ksyms__name(const struct fsl_ksyms *k, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->syms[0].addr)
		return NULL;
	/* last symbol with address <= addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* far past any symbol: JIT code kallsyms does not name */
	if (addr - k->syms[lo].addr > KSYM_MAX_OFF)
		snprintf(buf, len, "[bpf]");
	else if (addr == k->syms[lo].addr)
		snprintf(buf, len, "%s", k->syms[lo].name);
	else
		snprintf(buf, len, "%s+0x%" PRIx64, k->syms[lo].name, addr - k->syms[lo].addr);
	return buf;
}
