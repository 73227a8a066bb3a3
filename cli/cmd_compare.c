// SPDX-License-Identifier: GPL-2.0
/*
 * fslens compare: several traces (or the runs inside one) side by side, the
 * way engineers post results to a mailing list: rows are phases, columns are
 * configurations, each cell the phase's time, its rate and the top cause of
 * blocked time with its share.
 *
 * Phases come from the phase file a scenario run leaves next to its trace
 * (NAME.phases, CLOCK_MONOTONIC ns like the events); a trace without one is a
 * single phase "all". `fslens report --json --from --to` on the phase's
 * window names the causes (the analyses see the whole trace, so work in
 * flight when a phase starts is known); one pass over each trace counts the
 * journal and I/O evidence per phase.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "fslens/event.h"
#include "fslens/json.h"
#include "fslens/trace.h"
#include "../scenarios/phases.h"

static const char compare_usage[] =
"usage: fslens compare TRACE... [--json] [--no-causes]\n"
"  One table: rows are phases (from TRACE's .phases file, else the whole trace),\n"
"  columns are the traces (or runs); each cell: time, ops/s, top cause and its share\n"
"  of blocked time, journal commits/blocks logged and I/O during the phase.\n"
"  --json        the same as JSON\n"
"  --no-causes   do not run 'fslens report' per phase (faster; no cause line)\n";

/* Local error helpers: the unit binary links cmd_*.c without main.c. */
/* ------------------------------------------------------------ tiny JSON reader */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	int type;
	double num;
	char *str;
	unsigned int n;
	char **keys;
	struct jv *kids;
};

struct jp {
	const char *p, *end;
	int depth;
};

static void jv_free(struct jv *v)
{
	unsigned int i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		jv_free(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
}

static void jws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static int jstr(struct jp *j, char **out)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (!s)
		return -ENOMEM;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if (c == '\\' && j->p < j->end) {
			c = *j->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				/* kept as '?': compare only shows class names */
				j->p += (j->end - j->p >= 4) ? 4 : j->end - j->p;
				c = '?';
				break;
			}
		}
		if (n + 2 > cap) {
			char *ns = realloc(s, cap *= 2);

			if (!ns) {
				free(s);
				return -ENOMEM;
			}
			s = ns;
		}
		s[n++] = c;
	}
	s[n] = 0;
	if (j->p >= j->end) {
		free(s);
		return -EINVAL;
	}
	j->p++;
	*out = s;
	return 0;
}

static int jparse(struct jp *j, struct jv *v);

static int jadd(struct jp *j, struct jv *v, char *key)
{
	struct jv *nk = realloc(v->kids, (v->n + 1) * sizeof(*nk));
	int err;

	if (!nk)
		return -ENOMEM;
	v->kids = nk;
	if (v->type == J_OBJ) {
		char **kk = realloc(v->keys, (v->n + 1) * sizeof(*kk));

		if (!kk)
			return -ENOMEM;
		v->keys = kk;
		v->keys[v->n] = key;
	}
	memset(&v->kids[v->n], 0, sizeof(struct jv));
	v->n++;
	err = jparse(j, &v->kids[v->n - 1]);
	return err;
}

static int jparse(struct jp *j, struct jv *v)
{
	int err;

	memset(v, 0, sizeof(*v));
	if (++j->depth > 64)
		return -EINVAL;
	jws(j);
	if (j->p >= j->end)
		return -EINVAL;
	if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';

		v->type = *j->p == '{' ? J_OBJ : J_ARR;
		j->p++;
		jws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			goto done;
		}
		for (;;) {
			char *key = NULL;

			jws(j);
			if (v->type == J_OBJ) {
				if (j->p >= j->end || *j->p != '"' || (err = jstr(j, &key)))
					return -EINVAL;
				jws(j);
				if (j->p >= j->end || *j->p != ':') {
					free(key);
					return -EINVAL;
				}
				j->p++;
			}
			if ((err = jadd(j, v, key)))
				return err;
			jws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				break;
			}
			return -EINVAL;
		}
	} else if (*j->p == '"') {
		v->type = J_STR;
		if ((err = jstr(j, &v->str)))
			return err;
	} else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
		v->type = J_BOOL;
		v->num = *j->p == 't';
		j->p += *j->p == 't' ? 4 : 5;
	} else if (!strncmp(j->p, "null", 4)) {
		v->type = J_NULL;
		j->p += 4;
	} else {
		char *e;

		v->type = J_NUM;
		v->num = strtod(j->p, &e);
		if (e == j->p)
			return -EINVAL;
		j->p = e;
	}
done:
	j->depth--;
	return 0;
}

static const struct jv *jget(const struct jv *v, const char *key)
{
	unsigned int i;

	if (!v || v->type != J_OBJ)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->kids[i];
	return NULL;
}

static const struct jv *jidx(const struct jv *v, unsigned int i)
{
	return v && v->type == J_ARR && i < v->n ? &v->kids[i] : NULL;
}

/* ------------------------------------------------------------ columns and cells */

struct cell {
	int present;
	double secs;
	uint64_t ops, bytes;
	/* counted from the slice's events (the target device only) */
	uint64_t commits, blocks_logged, rd_bytes, wr_bytes, events;
	uint64_t throttled, pause_ms;	/* balance_dirty_pages pauses */
	/* from fslens report --json on the slice */
	int have_cause;
	char cause[40];
	double share, blocked_s;
	unsigned int nmore;		/* the causes after the top one (JSON only) */
	char more[3][40];
	double more_share[3];
};

struct column {
	char trace[PATH_MAX];
	char label[160];
	unsigned int run;
	struct fsl_phase_log *log;	/* shared by the runs of a trace */
};

struct cmp {
	struct column cols[64];
	unsigned int ncols;
	char rows[64][32];
	unsigned int nrows;
	struct cell cells[64][64];	/* [row][col] */
	char self[PATH_MAX];
	int causes;
	int warned_report;
};

static int row_of(struct cmp *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i], name))
			return i;
	if (c->nrows >= 64)
		return -1;
	snprintf(c->rows[c->nrows], sizeof(c->rows[0]), "%s", name);
	return c->nrows++;
}

/* A phase window of the trace being counted. */
struct slice {
	uint64_t t0, t1;
	int row, col;
};

static void count_event(struct cell *cell, const struct fsl_hdr *h, uint32_t dev)
{
	cell->events++;
	switch (h->type) {
	case FSL_EV_JBD2_END_COMMIT: {
		const struct fsl_ev_jbd2_commit *e = (const void *)h;

		if (!dev || e->dev == dev)
			cell->commits++;
		break;
	}
	case FSL_EV_JBD2_RUN_STATS: {
		const struct fsl_ev_jbd2_run_stats *e = (const void *)h;

		if (h->size >= sizeof(*e) && (!dev || e->dev == dev))
			cell->blocks_logged += e->blocks_logged;
		break;
	}
	case FSL_EV_BALANCE_DIRTY_PAGES: {
		const struct fsl_ev_balance_dirty_pages *e = (const void *)h;

		if (h->size >= sizeof(*e) && e->pause > 0) {
			cell->throttled++;
			cell->pause_ms += e->pause;
		}
		break;
	}
	case FSL_EV_BLOCK_RQ_COMPLETE: {
		const struct fsl_ev_block_rq *e = (const void *)h;

		if (h->size < sizeof(*e) || (dev && e->dev != dev))
			break;
		if (e->flags & FSL_RQ_WRITE)
			cell->wr_bytes += (uint64_t)e->nr_sector * 512;
		else if (e->flags & FSL_RQ_READ)
			cell->rd_bytes += (uint64_t)e->nr_sector * 512;
		break;
	}
	}
}

/* One pass: every event is counted in the phase it falls in. */
static int count_trace(struct cmp *c, const char *path, struct slice *sl, unsigned int n)
{
	struct fsl_reader *r;
	const struct fsl_hdr *h;
	const char *devs;
	uint32_t dev = 0;
	unsigned int i;
	int err = 0, rc;

	r = fsl_reader__open(path, NULL, &err);
	if (!r) {
		fsl_err_open(path, err);
		return err;
	}
	devs = fsl_reader__kv(r, FSL_KV_DEV);
	if (devs)
		dev = strtoul(devs, NULL, 10);
	while ((rc = fsl_reader__next(r, &h)) > 0)
		for (i = 0; i < n; i++)
			if (h->ts >= sl[i].t0 && h->ts < sl[i].t1)
				count_event(&c->cells[sl[i].row][sl[i].col], h, dev);
	if (rc < 0) {
		err = rc;
		fprintf(stderr, "fslens: cannot read '%s': %s\n", path, fsl_trace_strerror(err));
	}
	/* skipped chunks make the counts short: say so */
	for (i = 0; i < fsl_reader__nwarnings(r); i++)
		fprintf(stderr, "fslens compare: %s: %s\n", path, fsl_reader__warning(r, i));
	fsl_reader__close(r);
	return err;
}

/* Run argv with stdout into a malloc'd buffer. Returns exit status or -errno. */
static int capture(char *const argv[], char **out, size_t *outlen)
{
	size_t cap = 65536, n = 0;
	int pfd[2], status;
	char *buf;
	ssize_t k;
	pid_t pid;

	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	if (pipe2(pfd, O_CLOEXEC)) {
		free(buf);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		free(buf);
		return -errno;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pfd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		signal(SIGPIPE, SIG_DFL);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				break;
			buf = nb;
		}
		k = read(pfd[0], buf + n, cap - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += k;
	}
	buf[n] = 0;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(buf);
			return -errno;
		}
	*out = buf;
	*outlen = n;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* fslens report --json over [t0, t1) of trace: the top cause and its share. */
static void report_causes(struct cmp *c, const char *trace, uint64_t origin, uint64_t t0,
			  uint64_t t1, struct cell *cell)
{
	char from[32], to[32];
	char *argv[] = { c->self, "report", "--json", "--section", "diagnosis", "--from", from,
			 "--to", to, (char *)trace, NULL };
	const struct jv *causes, *top, *v;
	struct jp jp;
	struct jv root;
	char *out = NULL;
	size_t len = 0;
	int rc;

	/* seconds from the trace's start, to the ns */
	snprintf(from, sizeof(from), "%.9f", t0 > origin ? (t0 - origin) / 1e9 : 0.0);
	snprintf(to, sizeof(to), "%.9f", t1 > origin ? (t1 - origin) / 1e9 : 1e-9);
	rc = capture(argv, &out, &len);
	if (rc) {
		if (!c->warned_report++)
			fprintf(stderr, "fslens compare: 'fslens report --json' failed (status %d); "
				"cells have no cause\n", rc);
		free(out);
		return;
	}
	jp.p = out;
	jp.end = out + len;
	jp.depth = 0;
	if (jparse(&jp, &root)) {
		if (!c->warned_report++)
			fprintf(stderr, "fslens compare: cannot parse 'fslens report --json' output\n");
		jv_free(&root);
		free(out);
		return;
	}
	causes = jget(&root, "causes");
	top = jidx(causes, 0);
	v = jget(top, "class");
	if (v && v->type == J_STR) {
		cell->have_cause = 1;
		snprintf(cell->cause, sizeof(cell->cause), "%s", v->str);
		v = jget(top, "share");
		/* the schema gives a fraction; tolerate a percentage */
		cell->share = v && v->type == J_NUM ? (v->num > 1.0 ? v->num / 100 : v->num) : NAN;
		v = jget(top, "seconds");
		cell->blocked_s = v && v->type == J_NUM ? v->num : NAN;
		for (cell->nmore = 0; cell->nmore < 3; cell->nmore++) {
			const struct jv *o = jidx(causes, cell->nmore + 1);
			const struct jv *cls = jget(o, "class"), *sh = jget(o, "share");

			if (!cls || cls->type != J_STR)
				break;
			snprintf(cell->more[cell->nmore], sizeof(cell->more[0]), "%s", cls->str);
			cell->more_share[cell->nmore] = sh && sh->type == J_NUM ?
				(sh->num > 1.0 ? sh->num / 100 : sh->num) : NAN;
		}
	} else if (causes && causes->type == J_ARR) {
		cell->have_cause = 1;
		snprintf(cell->cause, sizeof(cell->cause), "none");
		cell->share = NAN;
		cell->blocked_s = 0;
	}
	jv_free(&root);
	free(out);
}

/* Columns get the parameters that differ between traces, else the file name. */
static void label_columns(struct cmp *c)
{
	unsigned int i, j, k, t;

	for (i = 0; i < c->ncols; i++) {
		struct column *col = &c->cols[i];
		size_t len = 0;

		col->label[0] = 0;
		for (k = 0; col->log && k < col->log->nparams; k++) {
			const char *kv = col->log->params[k];
			const char *eq = strchr(kv, '=');
			char key[64];
			int differs = 0;

			if (!eq || (size_t)(eq - kv) >= sizeof(key))
				continue;
			snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
			for (j = 0; j < c->ncols; j++) {
				const char *o = c->cols[j].log ?
					fsl_phase_log__param(c->cols[j].log, key) : NULL;

				if (!o || strcmp(o, eq + 1))
					differs = 1;
			}
			if (differs && len < sizeof(col->label))
				len += snprintf(col->label + len, sizeof(col->label) - len, "%s%s",
						len ? " " : "", kv);
		}
		for (t = 0, j = 0; j < c->ncols; j++)
			if (!strcmp(c->cols[j].trace, col->trace))
				t++;
		if (!len && !(t > 1 && t == c->ncols)) {
			/* (one trace with several runs: the runs name the columns) */
			const char *b = strrchr(col->trace, '/');

			snprintf(col->label, sizeof(col->label), "%s", b ? b + 1 : col->trace);
		}
		if (t > 1) {
			len = strlen(col->label);
			snprintf(col->label + len, sizeof(col->label) - len, "%srun %u",
				 len ? " " : "", col->run);
		}
	}
	/* identical labels (same parameters in two traces): fall back to the file names */
	for (i = 0; i < c->ncols; i++)
		for (j = i + 1; j < c->ncols; j++)
			if (!strcmp(c->cols[i].label, c->cols[j].label) &&
			    strcmp(c->cols[i].trace, c->cols[j].trace)) {
				for (k = 0; k < c->ncols; k++) {
					const char *b = strrchr(c->cols[k].trace, '/');
					char tmp[160];

					snprintf(tmp, sizeof(tmp), "%s", c->cols[k].label);
					snprintf(c->cols[k].label, sizeof(c->cols[k].label), "%.60s %.95s",
						 b ? b + 1 : c->cols[k].trace, tmp);
				}
				return;
			}
}

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b >= 10ull << 30)
		snprintf(buf, len, "%.0fG", b / 1073741824.0);
	else if (b >= 10ull << 20)
		snprintf(buf, len, "%.0fM", b / 1048576.0);
	else if (b >= 10ull << 10)
		snprintf(buf, len, "%.0fK", b / 1024.0);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

#define CW 30	/* cell width */

static void print_text(struct cmp *c)
{
	unsigned int r, i, line;

	printf("%-12s", "phase");
	for (i = 0; i < c->ncols; i++)
		printf(" | %-*.*s", CW, CW, c->cols[i].label);
	printf("\n------------");
	for (i = 0; i < c->ncols; i++)
		printf("-+-%.*s", CW, "------------------------------------------");
	printf("\n");
	for (r = 0; r < c->nrows; r++) {
		for (line = 0; line < 3; line++) {
			printf("%-12s", line ? "" : c->rows[r]);
			for (i = 0; i < c->ncols; i++) {
				const struct cell *cl = &c->cells[r][i];
				char buf[96] = "", a[16], b[16];

				if (!cl->present) {
					snprintf(buf, sizeof(buf), line ? "" : "-");
				} else if (line == 0 && cl->bytes) {
					/* data phases: throughput too, as dbench and bonnie++ print */
					snprintf(buf, sizeof(buf), "%7.2f s %6.0f/s %6.1fMB/s", cl->secs,
						 cl->secs > 0 ? cl->ops / cl->secs : 0,
						 cl->secs > 0 ? cl->bytes / 1e6 / cl->secs : 0);
				} else if (line == 0) {
					snprintf(buf, sizeof(buf), "%8.3f s %10.0f ops/s", cl->secs,
						 cl->secs > 0 ? cl->ops / cl->secs : 0);
				} else if (line == 1) {
					if (!cl->have_cause)
						snprintf(buf, sizeof(buf), "%s",
							 c->causes ? "cause: ?" : "");
					else if (isnan(cl->share))
						snprintf(buf, sizeof(buf), "%s", cl->cause);
					else
						snprintf(buf, sizeof(buf), "%s %.1f%%", cl->cause,
							 cl->share * 100);
				} else {
					fmt_bytes(a, sizeof(a), cl->rd_bytes);
					fmt_bytes(b, sizeof(b), cl->wr_bytes);
					snprintf(buf, sizeof(buf), "j %" PRIu64 "c %" PRIu64 "b io r%s w%s",
						 cl->commits, cl->blocks_logged, a, b);
				}
				printf(" | %-*.*s", CW, CW, buf);
			}
			printf("\n");
		}
	}
	printf("\ncells: time, ops/s (MB/s where data moved); top cause of the workload's blocked time and its share; "
	       "journal commits (c) and blocks logged (b), bytes read/written on the device\n");
}

static void print_json(struct cmp *c)
{
	struct fsl_json j;
	unsigned int r, i, k;

	fsl_json__init(&j, stdout, 1);
	fsl_json__obj_begin(&j);
	fsl_json__key(&j, "columns");
	fsl_json__arr_begin(&j);
	for (i = 0; i < c->ncols; i++) {
		fsl_json__obj_begin(&j);
		fsl_json__key(&j, "label");
		fsl_json__str(&j, c->cols[i].label);
		fsl_json__key(&j, "trace");
		fsl_json__str(&j, c->cols[i].trace);
		fsl_json__key(&j, "run");
		fsl_json__u64(&j, c->cols[i].run);
		fsl_json__obj_end(&j);
	}
	fsl_json__arr_end(&j);
	fsl_json__key(&j, "rows");
	fsl_json__arr_begin(&j);
	for (r = 0; r < c->nrows; r++) {
		fsl_json__obj_begin(&j);
		fsl_json__key(&j, "phase");
		fsl_json__str(&j, c->rows[r]);
		fsl_json__key(&j, "cells");
		fsl_json__arr_begin(&j);
		for (i = 0; i < c->ncols; i++) {
			const struct cell *cl = &c->cells[r][i];

			if (!cl->present) {
				fsl_json__null(&j);
				continue;
			}
			fsl_json__obj_begin(&j);
			fsl_json__key(&j, "seconds");
			fsl_json__double(&j, cl->secs);
			fsl_json__key(&j, "ops");
			fsl_json__u64(&j, cl->ops);
			fsl_json__key(&j, "ops_per_s");
			fsl_json__double(&j, cl->secs > 0 ? cl->ops / cl->secs : 0);
			fsl_json__key(&j, "bytes");
			fsl_json__u64(&j, cl->bytes);
			fsl_json__key(&j, "top_cause");
			fsl_json__str(&j, cl->have_cause ? cl->cause : NULL);
			fsl_json__key(&j, "share");
			if (cl->have_cause && !isnan(cl->share))
				fsl_json__double(&j, cl->share);
			else
				fsl_json__null(&j);
			fsl_json__key(&j, "causes");
			fsl_json__arr_begin(&j);
			for (k = 0; cl->have_cause && strcmp(cl->cause, "none") && k <= cl->nmore;
			     k++) {
				double sh = k ? cl->more_share[k - 1] : cl->share;

				fsl_json__obj_begin(&j);
				fsl_json__key(&j, "class");
				fsl_json__str(&j, k ? cl->more[k - 1] : cl->cause);
				fsl_json__key(&j, "share");
				if (isnan(sh))
					fsl_json__null(&j);
				else
					fsl_json__double(&j, sh);
				fsl_json__obj_end(&j);
			}
			fsl_json__arr_end(&j);
			fsl_json__key(&j, "journal_commits");
			fsl_json__u64(&j, cl->commits);
			fsl_json__key(&j, "journal_blocks_logged");
			fsl_json__u64(&j, cl->blocks_logged);
			fsl_json__key(&j, "read_bytes");
			fsl_json__u64(&j, cl->rd_bytes);
			fsl_json__key(&j, "write_bytes");
			fsl_json__u64(&j, cl->wr_bytes);
			fsl_json__key(&j, "throttle_pauses");
			fsl_json__u64(&j, cl->throttled);
			fsl_json__key(&j, "throttle_ms");
			fsl_json__u64(&j, cl->pause_ms);
			fsl_json__key(&j, "events");
			fsl_json__u64(&j, cl->events);
			fsl_json__obj_end(&j);
		}
		fsl_json__arr_end(&j);
		fsl_json__obj_end(&j);
	}
	fsl_json__arr_end(&j);
	fsl_json__obj_end(&j);
	fsl_json__newline(&j);
}

/* All phases of one trace: one counting pass, then a report per phase window. */
static int do_trace(struct cmp *c, const char *trace, struct fsl_phase_log *log,
		    unsigned int firstcol)
{
	struct slice sl[64];
	struct fsl_reader *r;
	const char *v;
	uint64_t origin;
	unsigned int i, n = 0;
	int err;

	for (i = 0; i < log->nphases && n < 64; i++) {
		const struct fsl_phase_rec *p = &log->phases[i];
		int row = row_of(c, p->name);
		unsigned int col = firstcol + p->run - 1;
		struct cell *cl;

		if (row < 0 || col >= c->ncols)
			continue;
		cl = &c->cells[row][col];
		cl->present = 1;
		cl->secs = (p->end_ns - p->start_ns) / 1e9;
		cl->ops = p->ops;
		cl->bytes = p->bytes;
		sl[n].t0 = p->start_ns;
		sl[n].t1 = p->end_ns;
		sl[n].row = row;
		sl[n].col = col;
		n++;
	}
	if ((err = count_trace(c, trace, sl, n)))
		return err;
	if (!c->causes)
		return 0;
	/* the report counts windows from record.start_ns (else the first event) */
	r = fsl_reader__open(trace, NULL, &err);
	if (!r) {
		fsl_err_open(trace, err);
		return err;
	}
	v = fsl_reader__kv(r, FSL_KV_START_NS);
	origin = v ? strtoull(v, NULL, 10) : fsl_reader__stats(r)->first_ts;
	fsl_reader__close(r);
	for (i = 0; i < n; i++)
		report_causes(c, trace, origin, sl[i].t0, sl[i].t1, &c->cells[sl[i].row][sl[i].col]);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-causes", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fsl_phase_log *logs = NULL;
	struct cmp *c;
	int opt, json = 0, rc = 1, err;
	unsigned int t, ntraces, r, firstcol[64];
	ssize_t len;

	c = calloc(1, sizeof(*c));
	if (!c)
		return fsl_err(-ENOMEM, "compare");
	c->causes = 1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'n': c->causes = 0; break;
		case 'h': fputs(compare_usage, stdout); rc = 0; goto out;
		default: rc = fsl_bad_option("compare", compare_usage, "h", lopts, argv); goto out;
		}
	}
	ntraces = argc - optind;
	if (!ntraces || ntraces > 64) {
		fprintf(stderr, "fslens compare: %s\n%s", ntraces ? "at most 64 traces" :
			"no trace given", compare_usage);
		rc = EXIT_USAGE;
		goto out;
	}
	len = readlink("/proc/self/exe", c->self, sizeof(c->self) - 1);
	if (len <= 0) {
		rc = fsl_err(errno, "cannot read /proc/self/exe");
		goto out;
	}
	c->self[len] = 0;
	logs = calloc(ntraces, sizeof(*logs));
	if (!logs) {
		rc = fsl_err(-ENOMEM, "compare");
		goto out;
	}
	for (t = 0; t < ntraces; t++) {
		const char *trace = argv[optind + t];
		char ppath[PATH_MAX];
		unsigned int runs = 1, i;

		if (access(trace, R_OK)) {
			rc = fsl_err(errno, "cannot open '%s'", trace);
			goto out;
		}
		fsl_phases_path(ppath, sizeof(ppath), trace);
		err = fsl_phase_log__load(&logs[t], ppath);
		if (err == -ENOENT) {
			/* no phase file: the whole trace is one phase */
			struct fsl_reader *rd = fsl_reader__open(trace, NULL, &err);
			const struct fsl_trace_stats *st;

			if (!rd) {
				rc = fsl_err_open(trace, err);
				goto out;
			}
			st = fsl_reader__stats(rd);
			logs[t].phases = calloc(1, sizeof(*logs[t].phases));
			if (!logs[t].phases) {
				fsl_reader__close(rd);
				rc = fsl_err(-ENOMEM, "compare");
				goto out;
			}
			logs[t].nphases = 1;
			logs[t].phases[0].run = 1;
			snprintf(logs[t].phases[0].name, sizeof(logs[t].phases[0].name), "all");
			logs[t].phases[0].start_ns = st->first_ts;
			logs[t].phases[0].end_ns = st->last_ts + 1;
			fsl_reader__close(rd);
		} else if (err) {
			rc = fsl_err(err, "cannot read phase file '%s'", ppath);
			goto out;
		}
		for (i = 0; i < logs[t].nphases; i++)
			if (logs[t].phases[i].run > runs)
				runs = logs[t].phases[i].run;
		firstcol[t] = c->ncols;
		for (r = 1; r <= runs; r++) {
			if (c->ncols >= 64) {
				rc = fsl_err(-E2BIG, "more than 64 columns");
				goto out;
			}
			snprintf(c->cols[c->ncols].trace, sizeof(c->cols[0].trace), "%s", trace);
			c->cols[c->ncols].run = r;
			c->cols[c->ncols].log = logs[t].params ? &logs[t] : NULL;
			c->ncols++;
		}
	}
	label_columns(c);
	for (t = 0; t < ntraces; t++)
		if (do_trace(c, argv[optind + t], &logs[t], firstcol[t]))
			goto out;
	if (json)
		print_json(c);
	else
		print_text(c);
	rc = 0;
out:
	if (logs)
		for (t = 0; t < ntraces; t++)
			fsl_phase_log__free(&logs[t]);
	free(logs);
	free(c);
	return rc;
}
