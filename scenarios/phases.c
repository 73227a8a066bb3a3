// SPDX-License-Identifier: GPL-2.0
/* Phase files: written by a scenario run, read by demo and compare. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "phases.h"

int fsl_phases__write_header(FILE *f, const char *scenario, const char *scale,
			     const struct fsl_params *p)
{
	unsigned int i;

	fprintf(f, "# fslens phases 1\nscenario %s\nscale %s\n", scenario, scale);
	for (i = 0; i < p->n; i++)
		fprintf(f, "param %s=%s\n", p->key[i], p->value[i]);
	return fflush(f) ? -errno : 0;
}

int fsl_phases__write_phase(FILE *f, const struct fsl_phase *ph)
{
	fprintf(f, "phase %u %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", ph->run,
		ph->name, ph->start_ns, ph->end_ns, ph->ops, ph->bytes);
	return fflush(f) ? -errno : 0;
}

int fsl_phases__write_tick(FILE *f, unsigned int run, const char *name, uint64_t t_ns,
			   uint64_t ops)
{
	fprintf(f, "tick %u %s %" PRIu64 " %" PRIu64 "\n", run, name, t_ns, ops);
	return ferror(f) ? -EIO : 0;
}

void fsl_phases_path(char *buf, size_t len, const char *trace)
{
	size_t n = strlen(trace);

	if (n > 6 && !strcmp(trace + n - 6, ".trace"))
		snprintf(buf, len, "%.*s.phases", (int)(n - 6), trace);
	else
		snprintf(buf, len, "%s.phases", trace);
}

static void *grow(void *p, size_t n, size_t size)
{
	/* double at powers of two */
	if (n && (n & (n - 1)))
		return p;
	return realloc(p, (n ? n * 2 : 1) * size);
}

int fsl_phase_log__load(struct fsl_phase_log *log, const char *path)
{
	char line[1024];
	FILE *f;
	int err = 0, header = 0;
	void *np;

	memset(log, 0, sizeof(*log));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "# fslens phases 1")) {
			header = 1;
		} else if (!strncmp(line, "scenario ", 9)) {
			snprintf(log->scenario, sizeof(log->scenario), "%.31s", line + 9);
		} else if (!strncmp(line, "scale ", 6)) {
			snprintf(log->scale, sizeof(log->scale), "%.15s", line + 6);
		} else if (!strncmp(line, "param ", 6)) {
			if (!(np = grow(log->params, log->nparams, sizeof(*log->params)))) {
				err = -ENOMEM;
				break;
			}
			log->params = np;
			snprintf(log->params[log->nparams++], sizeof(log->params[0]), "%.159s", line + 6);
		} else if (!strncmp(line, "phase ", 6)) {
			struct fsl_phase_rec r;

			if (sscanf(line + 6, "%u %31s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
				   &r.run, r.name, &r.start_ns, &r.end_ns, &r.ops, &r.bytes) != 6) {
				err = -EINVAL;
				break;
			}
			if (!(np = grow(log->phases, log->nphases, sizeof(*log->phases)))) {
				err = -ENOMEM;
				break;
			}
			log->phases = np;
			log->phases[log->nphases++] = r;
		} else if (!strncmp(line, "tick ", 5)) {
			struct fsl_tick_rec t;

			if (sscanf(line + 5, "%u %31s %" SCNu64 " %" SCNu64, &t.run, t.name, &t.t_ns,
				   &t.ops) != 4)
				continue;	/* a cut last line of an interrupted run */
			if (!(np = grow(log->ticks, log->nticks, sizeof(*log->ticks)))) {
				err = -ENOMEM;
				break;
			}
			log->ticks = np;
			log->ticks[log->nticks++] = t;
		}
	}
	if (!err && ferror(f))
		err = -EIO;
	if (!err && !header)
		err = -EINVAL;
	fclose(f);
	if (err)
		fsl_phase_log__free(log);
	return err;
}

void fsl_phase_log__free(struct fsl_phase_log *log)
{
	free(log->params);
	free(log->phases);
	free(log->ticks);
	memset(log, 0, sizeof(*log));
}

const char *fsl_phase_log__param(const struct fsl_phase_log *log, const char *key)
{
	size_t klen = strlen(key);
	unsigned int i;

	for (i = 0; i < log->nparams; i++)
		if (!strncmp(log->params[i], key, klen) && log->params[i][klen] == '=')
			return log->params[i] + klen + 1;
	return NULL;
}
