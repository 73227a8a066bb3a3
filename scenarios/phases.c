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

int fsl_phase_log__any(const char *path)
{
	struct fsl_phase_log log = { 0 };
	int n = !fsl_phase_log__load(&log, path) && log.nphases;

	fsl_phase_log__free(&log);
	return n;
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

/* ---------------- a workload run's log and its tables ---------------- */

static void wl_phase(struct fsl_wl *wl, const struct fsl_phase *ph)
{
	struct fsl_wl_log *o = wl->priv;

	if (o->phases && fsl_phases__write_phase(o->phases, ph))
		o->err = -EIO;
	if (o->nph < sizeof(o->ph) / sizeof(o->ph[0])) {
		struct fsl_phase_rec *r = &o->ph[o->nph++];

		r->run = ph->run;
		snprintf(r->name, sizeof(r->name), "%s", ph->name);
		r->start_ns = ph->start_ns;
		r->end_ns = ph->end_ns;
		r->ops = ph->ops;
		r->bytes = ph->bytes;
	}
}

static void wl_tick(struct fsl_wl *wl, const char *phase, uint64_t t_ns, uint64_t ops)
{
	struct fsl_wl_log *o = wl->priv;

	if (o->phases && fsl_phases__write_tick(o->phases, wl->run ? wl->run : 1, phase, t_ns, ops))
		o->err = -EIO;
	if (o->ntk < sizeof(o->tk) / sizeof(o->tk[0])) {
		struct fsl_tick_rec *t = &o->tk[o->ntk++];

		t->run = wl->run ? wl->run : 1;
		snprintf(t->name, sizeof(t->name), "%s", phase);
		t->t_ns = t_ns;
		t->ops = ops;
	}
}

static void fmt_rate(char *buf, size_t len, double r)
{
	if (r >= 10000)
		snprintf(buf, len, "%.0fk", r / 1000);
	else
		snprintf(buf, len, "%.0f", r);
}

static unsigned int max_run(const struct fsl_phase_rec *ph, unsigned int n)
{
	unsigned int i, r = 1;

	for (i = 0; i < n; i++)
		if (ph[i].run > r)
			r = ph[i].run;
	return r;
}

/*
 * The rate over time of each phase with enough samples, in at most 16
 * slices of consecutive samples: a collapsing create rate shows as falling
 * numbers.
 */
void fsl_phases__print_timelines(FILE *f, const struct fsl_wl_log *o)
{
	unsigned int i, k;

	for (i = 0; i < o->nph; i++) {
		const struct fsl_phase_rec *p = &o->ph[i];
		uint64_t span = p->end_ns - p->start_ns;
		unsigned int nb = 16, b, n = 0;

		for (k = 0; k < o->ntk; k++)
			if (o->tk[k].run == p->run && !strcmp(o->tk[k].name, p->name))
				n++;
		if (n < 6 || span < 100000000ull)	/* at least 0.1 s and 6 samples */
			continue;
		if (nb > n - 1)
			nb = n - 1;	/* no slice narrower than the sample interval */
		/* slices of consecutive samples: each rate is ops over its own time */
		{
			struct fsl_tick_rec tk[1024];
			unsigned int m = 0;

			for (k = 0; k < o->ntk && m < 1024; k++)
				if (o->tk[k].run == p->run && !strcmp(o->tk[k].name, p->name))
					tk[m++] = o->tk[k];
			fprintf(f, "%s rate (ops/s, %u slices of %.2f s):", p->name, nb,
				span / 1e9 / nb);
			for (b = 0; b < nb; b++) {
				unsigned int a = b * (m - 1) / nb, z = (b + 1) * (m - 1) / nb;
				double dt = (tk[z].t_ns - tk[a].t_ns) / 1e9;
				char r[16];

				fmt_rate(r, sizeof(r), dt > 0 ? (tk[z].ops - tk[a].ops) / dt : 0);
				fprintf(f, " %s", r);
			}
		}
		if (max_run(o->ph, o->nph) > 1)
			fprintf(f, " (run %u)", p->run);
		fprintf(f, "\n");
	}
}


/* Rows are phases, columns are runs: how the classic benchmarks print aging. */
void fsl_phases__print_table(FILE *f, const struct fsl_phase_rec *ph, unsigned int n)
{
	unsigned int runs = max_run(ph, n), i, j, r;

	if (runs > 1) {
		fprintf(f, "%-12s", "");
		for (r = 1; r <= runs; r++)
			fprintf(f, " | run %-35u", r);
		fprintf(f, "\n");
	}
	fprintf(f, "%-12s", "phase");
	for (r = 1; r <= runs; r++)
		fprintf(f, " | %9s %10s %8s %9s", "time s", "ops", "ops/s", "MB/s");
	fprintf(f, "\n");
	for (i = 0; i < n; i++) {
		int first = 1;

		for (j = 0; j < i; j++)
			if (!strcmp(ph[j].name, ph[i].name))
				first = 0;
		if (!first)
			continue;
		fprintf(f, "%-12s", ph[i].name);
		for (r = 1; r <= runs; r++) {
			const struct fsl_phase_rec *p = NULL;

			for (j = 0; j < n; j++)
				if (ph[j].run == r && !strcmp(ph[j].name, ph[i].name))
					p = &ph[j];
			if (!p) {
				fprintf(f, " | %9s %10s %8s %9s", "-", "-", "-", "-");
				continue;
			}
			double s = (p->end_ns - p->start_ns) / 1e9;
			char mb[16] = "";

			if (p->bytes)
				snprintf(mb, sizeof(mb), "%.1f", s > 0 ? p->bytes / 1e6 / s : 0);
			fprintf(f, " | %9.3f %10" PRIu64 " %8.0f %9s", s, p->ops,
				s > 0 ? p->ops / s : 0, mb);
		}
		fprintf(f, "\n");
	}
}

const struct fsl_wl_ops fsl_wl_log_ops = { wl_phase, wl_tick };
