// SPDX-License-Identifier: GPL-2.0
/* demo's --matrix (see matrix.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "matrix.h"

int fsl_matrix__add(struct fsl_matrix *m, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char buf[1024], *tok, *save;
	unsigned int k;

	if (!eq || eq == arg || m->n >= FSL_MATRIX_KEYS || (size_t)(eq - arg) >= sizeof(m->key[0]))
		return -EINVAL;
	k = m->n;
	snprintf(m->key[k], sizeof(m->key[0]), "%.*s", (int)(eq - arg), arg);
	snprintf(buf, sizeof(buf), "%s", eq + 1);
	m->nval[k] = 0;
	m->idx[k] = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (m->nval[k] >= FSL_MATRIX_VALUES)
			return -E2BIG;
		snprintf(m->val[k][m->nval[k]++], sizeof(m->val[0][0]), "%s", tok);
	}
	if (!m->nval[k])
		return -EINVAL;
	m->n++;
	return 0;
}

unsigned long fsl_matrix__count(const struct fsl_matrix *m)
{
	unsigned long n = 1;
	unsigned int k;

	for (k = 0; k < m->n; k++)
		n *= m->nval[k];
	return n;
}

const char *fsl_matrix__setting(const struct fsl_matrix *m, unsigned int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s=%s", m->key[i], m->val[i][m->idx[i]]);
	return buf;
}

void fsl_matrix__label(const struct fsl_matrix *m, const char *prefix, char *buf, size_t len)
{
	size_t used;
	unsigned int k;
	char *p;

	used = snprintf(buf, len, "%s", prefix);
	for (k = 0; k < m->n && used < len; k++)
		used += snprintf(buf + used, len - used, "_%s-%s", m->key[k], m->val[k][m->idx[k]]);
	/* the label names files: nothing that is not a plain name character */
	for (p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-=+", *p))
			*p = '_';
}

int fsl_matrix__next(struct fsl_matrix *m)
{
	unsigned int k;

	for (k = 0; k < m->n; k++) {
		if (++m->idx[k] < m->nval[k])
			return 1;
		m->idx[k] = 0;
	}
	return 0;
}

int fsl_matrix__walk(struct fsl_matrix *m, const char *prefix, fsl_matrix_run_fn *run, void *ctx,
		     const volatile sig_atomic_t *stop, struct fsl_matrix_failed *failed)
{
	unsigned int k;
	int rc, any = 0;

	do {
		/* a setting is at most KEY (63) '=' VALUE (127) */
		char label[256], kvs[FSL_MATRIX_KEYS][192];
		const char *settings[FSL_MATRIX_KEYS];

		fsl_matrix__label(m, prefix, label, sizeof(label));
		for (k = 0; k < m->n; k++)
			settings[k] = fsl_matrix__setting(m, k, kvs[k], sizeof(kvs[k]));
		rc = run(ctx, label, settings, m->n);
		if (stop && *stop)
			return -EINTR;
		if (rc && rc != 1)
			return rc;
		if (rc)
			any = 1;
		if (rc && failed && failed->n < sizeof(failed->label) / sizeof(failed->label[0]))
			snprintf(failed->label[failed->n++], sizeof(failed->label[0]), "%s", label);
	} while (fsl_matrix__next(m));
	return any;
}
