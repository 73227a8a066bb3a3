// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor's metrics state and its Prometheus text exposition (format
 * 0.0.4, what `promtool check metrics` reads). Fed by collector/monitor_bpf.c
 * from the in-kernel aggregates; no libbpf here, so it is unit-tested with
 * made-up aggregates. Everything here is a sum of what changed: a kernel
 * counter is cumulative, and what it gained since its last read is added
 * (its last value is kept per kernel key); an entry read and deleted
 * (blocked time, a cgroup past the table) is all new. So several kernel
 * keys can feed one series (the cgroups folded into "other").
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "fslens/monitor.h"
#include "fslens/text.h"
#include "fslens/schema.h"

#define LE_FIRST	10	/* first bucket rendered: le = 2^10 ns (about 1 us) */

/*
 * A per-cgroup series: blocked ns (by target, wait class, role), on-CPU ns
 * (by target, CPU class, role), or an op's histogram and bytes.
 */
enum { CGS_BLOCKED = 1, CGS_OP, CGS_DATA, CGS_CPU };

struct fsl_mon_cg_series {
	uint64_t v;			/* blocked or on-CPU ns, data bytes */
	struct fsl_mon_hist *h;		/* CGS_OP */
};

static uint64_t cgs_key(unsigned int slot, unsigned int fam, unsigned int tgt, unsigned int a,
			unsigned int b)
{
	return (uint64_t)slot << 32 | fam << 24 | (tgt & 0xff) << 16 | (a & 0xff) << 8 | (b & 0xff);
}

struct fsl_mon_metrics *fsl_mon_metrics__new(void)
{
	struct fsl_mon_metrics *mm = calloc(1, sizeof(*mm));
	unsigned int i;

	if (!mm)
		return NULL;
	mm->start_time = (double)time(NULL);
	fsl_map__init(&mm->cg_series, sizeof(struct fsl_mon_cg_series));
	for (i = 0; i <= MON_CGROUPS_MAX; i++)
		fsl_map__init(&mm->last[i], sizeof(struct mon_val));
	return mm;
}

void fsl_mon_metrics__free(struct fsl_mon_metrics *mm)
{
	struct fsl_mon_cg_series *cs;
	size_t it = 0;
	unsigned int i;

	if (!mm)
		return;
	while ((cs = fsl_map__next(&mm->cg_series, &it, NULL)))
		free(cs->h);
	fsl_map__free(&mm->cg_series);
	for (i = 0; i <= MON_CGROUPS_MAX; i++)
		fsl_map__free(&mm->last[i]);
	free(mm);
}

int fsl_mon_metrics__target(struct fsl_mon_metrics *mm, const struct fsl_mon_target *t)
{
	struct fsl_mon_fs *f;

	if (mm->ntargets >= MON_TARGETS_MAX)
		return -ENOSPC;
	f = &mm->fs[mm->ntargets];
	snprintf(f->label, sizeof(f->label), "%s", t->label ? t->label : "");
	snprintf(f->disk, sizeof(f->disk), "%s", t->disk ? t->disk : "");
	snprintf(f->devname, sizeof(f->devname), "%s", t->devname ? t->devname : "");
	f->dev = t->dev;
	f->blkdev = t->blkdev;
	f->commit_jiffies = t->commit_jiffies;
	f->max_txn_blocks = t->max_txn_blocks;
	f->fs = (uint8_t)fsl_scope_fs_of_type(t->fstype);
	return mm->ntargets++;
}

/* The directory under root whose inode is ino (a cgroup2 id), depth first; 0 if found. */
static int cg_find(const char *root, const char *rel, uint64_t ino, char *out, size_t outsz,
		   int depth)
{
	char path[512];
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int found = -1;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return -1;
	if ((uint64_t)st.st_ino == ino) {
		snprintf(out, outsz, "%s", rel[0] ? rel : "/");
		return 0;
	}
	if (depth >= 16 || !(dir = opendir(path)))
		return -1;
	while (found && (d = readdir(dir))) {
		char sub[512];

		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", rel, d->d_name);
		found = cg_find(root, sub, ino, out, outsz, depth + 1);
	}
	closedir(dir);
	return found;
}

unsigned int fsl_mon_metrics__cg_slot(struct fsl_mon_metrics *mm, uint64_t id)
{
	struct fsl_mon_cgroup *c;
	unsigned int i;

	for (i = 0; i < mm->ncg; i++)
		if (mm->cg[i].id == id)
			return i;
	if (mm->ncg >= MON_CGROUPS_MAX)
		return MON_CG_OTHER;
	c = &mm->cg[mm->ncg];
	c->id = id;
	/* the cgroup v2 id is its directory's inode number in cgroup2fs */
	if (!mm->cgroup_root[0] ||
	    cg_find(mm->cgroup_root, "", id, c->path, sizeof(c->path), 0))
		snprintf(c->path, sizeof(c->path), "id:%llu", (unsigned long long)id);
	return mm->ncg++;
}

static struct fsl_mon_cg_series *cg_series(struct fsl_mon_metrics *mm, uint64_t key, int hist)
{
	struct fsl_mon_cg_series *cs = fsl_map__get(&mm->cg_series, key);

	if (!cs && hist && mm->cg_nhists >= MON_CG_HISTS) {
		mm->cg_hists_dropped++;
		return NULL;
	}
	if (!cs && !(cs = fsl_map__put(&mm->cg_series, key, NULL)))
		return NULL;
	if (hist && !cs->h) {
		cs->h = calloc(1, sizeof(*cs->h));
		if (!cs->h)
			return NULL;
		mm->cg_nhists++;
	}
	return cs;
}

static void hist_add(struct fsl_mon_hist *h, int x, uint64_t n, uint64_t sum)
{
	if (h && x >= 0 && x < MON_FINE_BUCKETS) {
		h->n[x] += n;
		h->s[x] += sum;
	}
}

static uint64_t key_u64(const struct mon_key *k)
{
	return (uint64_t)k->kind << 56 | (uint64_t)k->tgt << 48 | (uint64_t)k->a << 40 |
	       (uint64_t)k->b << 32 | (uint32_t)k->x;
}

void fsl_mon_metrics__forget(struct fsl_mon_metrics *mm, const struct mon_key *k)
{
	unsigned int slot = k->cg ? fsl_mon_metrics__cg_slot(mm, k->cg) + 1 : 0;

	if (slot <= MON_CGROUPS_MAX)
		fsl_map__del(&mm->last[slot], key_u64(k));
}

void fsl_mon_metrics__apply(struct fsl_mon_metrics *mm, const struct mon_key *k,
			    const struct mon_val *v, int deleted)
{
	struct fsl_mon_hist *h = NULL;
	struct fsl_mon_cg_series *cs;
	struct mon_val d = *v, *last;
	unsigned int slot = MON_CG_OTHER;
	struct fsl_mon_fs *f;

	if (k->kind == MON_AGG_FULL) {
		mm->agg_full = v->count;
		return;
	}
	if (k->tgt >= mm->ntargets)
		return;
	if (k->cg) {
		slot = fsl_mon_metrics__cg_slot(mm, k->cg);
		if (slot == MON_CG_OTHER)
			mm->cg_folded++;
	}
	if (!deleted && (!k->cg || slot != MON_CG_OTHER)) {
		last = fsl_map__put(&mm->last[k->cg ? slot + 1 : 0], key_u64(k), NULL);
		if (!last)
			return;
		/* a counter never goes back; one that did was a new kernel entry */
		d.count = v->count >= last->count ? v->count - last->count : v->count;
		d.sum = v->sum >= last->sum ? v->sum - last->sum : v->sum;
		*last = *v;
	}
	f = &mm->fs[k->tgt];
	switch (k->kind) {
	case MON_OP_HIST:
		if (k->a < MON_OPS)
			hist_add(&f->op[k->a], k->x, d.count, d.sum);
		if (k->cg && mm->cgroups && k->a < MON_OPS &&
		    (cs = cg_series(mm, cgs_key(slot, CGS_OP, k->tgt, k->a, 0), 1)))
			hist_add(cs->h, k->x, d.count, d.sum);
		break;
	case MON_DATA_BYTES:
		if (k->a == MON_OP_READ || k->a == MON_OP_WRITE)
			f->data_bytes[k->a - MON_OP_READ] += d.sum;
		if (k->cg && mm->cgroups && (k->a == MON_OP_READ || k->a == MON_OP_WRITE) &&
		    (cs = cg_series(mm, cgs_key(slot, CGS_DATA, k->tgt, k->a, 0), 0)))
			cs->v += d.sum;
		break;
	case MON_COMMITS:
		f->commits[fsl_trigger_decide(k->a, k->b) % MON_TRIGS] += d.count;
		break;
	case MON_COMMIT_HIST:
		h = &f->commit;
		break;
	case MON_CHECKPOINTS:
		f->checkpoints += d.count;
		break;
	case MON_WB_PAGES:
		if (k->a < MON_WB__MAX)
			f->wb_pages[k->a] += d.sum;
		break;
	case MON_THROTTLE:
		f->throttle_jiffies += d.sum;
		break;
	case MON_IO_HIST:
		if (k->a < MON_IO__MAX && k->b < 2)
			h = &f->io[k->a][k->b];
		break;
	case MON_IO_BYTES:
		if (k->a < MON_IO__MAX)
			f->io_bytes[k->a] += d.sum;
		break;
	case MON_SEEKS:
		if (k->a < MON_IO__MAX)
			f->seeks[k->a] += d.count;
		break;
	}
	hist_add(h, k->x, d.count, d.sum);
}

/* The target a piece of evidence names (MON_EV_*): its index, or MON_TGT_OTHER. */
static unsigned int ev_tgt(unsigned int ev)
{
	return ev >= MON_EV_TGT(0) && ev < MON_EV_OTHER ? ev - 1 : MON_TGT_OTHER;
}

static uint8_t ev_scope(const struct fsl_mon_metrics *mm, unsigned int ev)
{
	if (ev == MON_EV_NONE)
		return FSL_SCOPE_NONE;
	return ev_tgt(ev) < mm->ntargets ? FSL_SCOPE_TARGET : FSL_SCOPE_OTHER;
}

unsigned int fsl_mon_wait_target(const struct fsl_mon_metrics *mm, const struct mon_key *k,
				 const struct fsl_scope_stack *st)
{
	struct fsl_scope_evidence e = { 0 };
	unsigned int hint = MON_A_HINT(k->a), kt = MON_A_KT(k->a), hi = MON_B_HI(k->b);
	unsigned int wake = MON_B_WAKE(k->b), tfs = FSL_CTX_FS_NONE;
	enum fsl_scope_rule rule;
	int v;

	e.op = ev_scope(mm, k->tgt);
	e.wake = ev_scope(mm, wake);
	if (MON_A_ROLE(k->a) == MON_ROLE_KTHREAD) {
		/* the kernel thread's journal came as its operation: a journal thread is judged by it */
		e.kthread = 1;
		e.named = 1;
		e.flush = kt == MON_KT_FLUSH ? ev_scope(mm, hi) : FSL_SCOPE_OTHER;
		e.loop = kt == MON_KT_LOOP ? ev_scope(mm, hi) : FSL_SCOPE_OTHER;
	} else {
		e.woken_jbd2 = ev_scope(mm, hi);
	}
	/* the frames are judged against the filesystem the task was working on */
	if (ev_tgt(hint) < mm->ntargets)
		tfs = mm->fs[ev_tgt(hint)].fs;
	v = fsl_scope_decide(&e, st, tfs, &rule);
	switch (rule) {
	case FSL_SCOPE_RULE_OP:
		return v ? MON_TGT_OTHER : ev_tgt(k->tgt);
	case FSL_SCOPE_RULE_FLUSH:
	case FSL_SCOPE_RULE_LOOP:
		return v ? MON_TGT_OTHER : ev_tgt(hi);
	case FSL_SCOPE_RULE_KTHREAD_WAKE:
	case FSL_SCOPE_RULE_WAKE:
		return v ? MON_TGT_OTHER : ev_tgt(wake);
	case FSL_SCOPE_RULE_WOKEN_JBD2:
		return v ? MON_TGT_OTHER : ev_tgt(hi);
	case FSL_SCOPE_RULE_FRAMES:
		return MON_TGT_OTHER;
	default:
		break;
	}
	/*
	 * No evidence: the target the task's system call was working on (the
	 * record path asks the process's other waits instead; the monitor
	 * keeps no per-process state).
	 */
	return ev_tgt(hint) < mm->ntargets ? ev_tgt(hint) : MON_TGT_OTHER;
}

/* ns more in the cgroup series of cg (slot past the table: "other", counted). */
static void cg_add(struct fsl_mon_metrics *mm, uint64_t cg, unsigned int fam, unsigned int tgt,
		   unsigned int cls, unsigned int role, uint64_t ns)
{
	struct fsl_mon_cg_series *cs;
	unsigned int slot;

	if (!cg || !mm->cgroups)
		return;
	slot = fsl_mon_metrics__cg_slot(mm, cg);
	if (slot == MON_CG_OTHER)
		mm->cg_folded++;
	cs = cg_series(mm, cgs_key(slot, fam, tgt, cls, role), 0);
	if (cs)
		cs->v += ns;
}

void fsl_mon_metrics__cpu(struct fsl_mon_metrics *mm, unsigned int tgt, unsigned int role,
			  unsigned int cls, uint64_t cg, uint64_t ns)
{
	if (tgt >= mm->ntargets || cls >= FSL_CC__MAX || role > 1)
		return;
	mm->fs[tgt].cpu_ns[cls][role] += ns;
	cg_add(mm, cg, CGS_CPU, tgt, cls, role, ns);
}

void fsl_mon_metrics__blocked(struct fsl_mon_metrics *mm, unsigned int tgt, unsigned int role,
			      unsigned int cls, uint64_t cg, uint64_t ns)
{
	if (cls >= FSL_WC__MAX || role > 1)
		return;
	if (tgt >= mm->ntargets)
		tgt = MON_TGT_OTHER;
	if (tgt < mm->ntargets)
		mm->fs[tgt].blocked_ns[cls][role] += ns;
	else
		mm->other_blocked_ns[cls][role] += ns;
	cg_add(mm, cg, CGS_BLOCKED, tgt, cls, role, ns);
}

double fsl_mon_metrics__blocked_s(const struct fsl_mon_metrics *mm, unsigned int tgt,
				  unsigned int cls, int role)
{
	const uint64_t *r;

	if (cls >= FSL_WC__MAX)
		return 0;
	r = tgt < mm->ntargets ? mm->fs[tgt].blocked_ns[cls] : mm->other_blocked_ns[cls];
	return (role < 0 ? r[0] + r[1] : r[role & 1]) / 1e9;
}

double fsl_mon_bucket_le(unsigned int b)
{
	return ldexp(1.0, (int)b) / 1e9;
}

uint64_t fsl_mon_hist_quantile(const struct fsl_mon_hist *cur, const struct fsl_mon_hist *prev,
			       double q)
{
	uint64_t n = 0, acc = 0, d;
	unsigned int f;

	for (f = 0; f < MON_FINE_BUCKETS; f++)
		n += cur->n[f] - (prev ? prev->n[f] : 0);
	if (!n)
		return 0;
	for (f = 0; f < MON_FINE_BUCKETS; f++) {
		d = cur->n[f] - (prev ? prev->n[f] : 0);
		acc += d;
		if (d && (double)acc >= q * (double)n)
			return (cur->s[f] - (prev ? prev->s[f] : 0)) / d;
	}
	return 0;
}

static const char *const op_names[MON_OPS] = {
	[MON_OP_READ] = "read", [MON_OP_WRITE] = "write",
};

const char *fsl_mon_op_name(unsigned int op)
{
	if (op < FSL_OP__MAX)
		return fsl_dirop_name(op);
	return op < MON_OPS ? op_names[op] : NULL;
}

/*
 * "10ms", "1.5s", "200us", "5000ns": a decimal read as seconds are
 * (lib/text.c, exact), then its unit. The number can be at most
 * 18446744073 (the seconds that fit in ns), so a threshold in ns is at most
 * about 18 s; longer ones are written in ms or s.
 */
static int parse_dur(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t div;
	} u[] = { { "ns", 1000000000 }, { "us", 1000000 }, { "ms", 1000 }, { "s", 1 } };
	size_t n = strspn(s, "0123456789.eE+-");
	unsigned int i;
	char num[32];
	uint64_t v;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = 0;
	if (fsl_parse_seconds(num, &v))
		return -EINVAL;
	for (i = 0; i < 4; i++)
		if (!strcmp(s + n, u[i].unit)) {
			/* v is the number times 1e9: scaled to ns, rounded */
			*ns = v / u[i].div + (v % u[i].div >= (u[i].div + 1) / 2);
			return *ns ? 0 : -EINVAL;
		}
	return -EINVAL;
}

int fsl_mon_trigger_parse(const char *expr, struct fsl_mon_trigger *t)
{
	const char *gt = strchr(expr, '>');
	char what[32];
	size_t n;
	unsigned int op;

	memset(t, 0, sizeof(*t));
	if (!gt || (n = gt - expr) == 0 || n >= sizeof(what))
		return -EINVAL;
	memcpy(what, expr, n);
	what[n] = 0;
	if (parse_dur(gt + 1, &t->over_ns))
		return -EINVAL;
	if (!strcmp(what, "wait")) {
		t->kind = FSL_MON_TRIG_WAIT;
		return 0;
	}
	if (!strcmp(what, "commit")) {
		t->kind = FSL_MON_TRIG_COMMIT;
		return 0;
	}
	if (!strncmp(what, "p99:", 4)) {
		for (op = 0; op < MON_OPS; op++)
			if (fsl_mon_op_name(op) && !strcmp(fsl_mon_op_name(op), what + 4)) {
				t->kind = FSL_MON_TRIG_P99;
				t->op = op;
				return 0;
			}
	}
	return -EINVAL;
}

int fsl_mon_p99_over(const struct fsl_mon_metrics *mm, const struct fsl_mon_hist (*prev)[MON_OPS],
		     const struct fsl_mon_trigger *t, uint64_t *p99)
{
	unsigned int i;

	if (t->kind != FSL_MON_TRIG_P99 || t->op >= MON_OPS)
		return -1;
	for (i = 0; i < mm->ntargets; i++) {
		*p99 = fsl_mon_hist_quantile(&mm->fs[i].op[t->op], prev ? &prev[i][t->op] : NULL,
					     0.99);
		if (*p99 > t->over_ns)
			return (int)i;
	}
	return -1;
}

size_t fsl_mon_label_escape(const char *in, char *out, size_t outsz)
{
	size_t n = 0;

	if (!outsz)
		return 0;
	for (; *in && n + 2 < outsz; in++) {
		if (*in == '\\' || *in == '"') {
			out[n++] = '\\';
			out[n++] = *in;
		} else if (*in == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else {
			out[n++] = *in;
		}
	}
	out[n] = 0;
	return n;
}

/* ---- rendering ---- */

struct out {
	char *buf;
	size_t len, cap;
	int err;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->err = -EINVAL;
			return;
		}
		if (o->len + n < o->cap)
			break;
		{
			size_t cap = (o->cap ? o->cap * 2 : 65536) + n;
			char *b = realloc(o->buf, cap);

			if (!b) {
				o->err = -ENOMEM;
				return;
			}
			o->buf = b;
			o->cap = cap;
		}
	}
	o->len += n;
}

static void family(struct out *o, const char *name, const char *type, const char *help)
{
	put(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* labels: a preformatted `k="v",...` string (escaped), without braces */
static void hist(struct out *o, const char *name, const char *labels, const struct fsl_mon_hist *h)
{
	uint64_t acc = 0, sum = 0;
	unsigned int b, f;

	/* the exposition's buckets are the powers of two: fine buckets summed */
	for (b = 0; b < MON_HIST_BUCKETS; b++) {
		for (f = b * MON_FINE_SUB; f < (b + 1) * MON_FINE_SUB; f++) {
			acc += h->n[f];
			sum += h->s[f];
		}
		if (b < LE_FIRST)
			continue;
		put(o, "%s_bucket{%s,le=\"%.6g\"} %" PRIu64 "\n", name, labels,
		    fsl_mon_bucket_le(b), acc);
	}
	put(o, "%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", name, labels, acc);
	put(o, "%s_sum{%s} %.9f\n", name, labels, sum / 1e9);
	put(o, "%s_count{%s} %" PRIu64 "\n", name, labels, acc);
}

static uint64_t hist_n(const struct fsl_mon_hist *h)
{
	uint64_t n = 0;
	unsigned int f;

	for (f = 0; f < MON_FINE_BUCKETS; f++)
		n += h->n[f];
	return n;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The per-cgroup series' keys of one family, sorted (a stable exposition). */
static uint64_t *cg_keys(const struct fsl_mon_metrics *mm, unsigned int fam, size_t *n)
{
	uint64_t *keys = malloc((fsl_map__count(&mm->cg_series) + 1) * sizeof(*keys)), key;
	size_t it = 0;

	*n = 0;
	if (!keys)
		return NULL;
	while (fsl_map__next(&mm->cg_series, &it, &key))
		if (((key >> 24) & 0xff) == fam)
			keys[(*n)++] = key;
	qsort(keys, *n, sizeof(*keys), u64_cmp);
	return keys;
}

/* `cgroup="..."` of a slot. */
static void cg_label(const struct fsl_mon_metrics *mm, unsigned int slot, char *out, size_t n)
{
	char esc[600];

	fsl_mon_label_escape(slot < mm->ncg ? mm->cg[slot].path : "other", esc, sizeof(esc));
	snprintf(out, n, "cgroup=\"%s\"", esc);
}

static const char *const trig_names[MON_TRIGS] = {
	"unknown", "timer", "fsync", "full", "log_space", "sync",
};
static const char *const wb_names[MON_WB__MAX] = {
	"periodic", "background", "sync", "integrity", "other",
};
static const char *const io_names[MON_IO__MAX] = {
	"read", "write", "flush", "discard", "other",
};

int fsl_mon_metrics__render(const struct fsl_mon_metrics *mm, char **buf, size_t *len)
{
	static const char *const roles[2] = { "workload", "kthread" };
	char fsl[MON_TARGETS_MAX][1100], dl[MON_TARGETS_MAX][1100], lab[9000], cgl[700];
	struct out o = { 0 };
	unsigned int i, c, r, op, s;
	uint64_t *keys;
	size_t k, nkeys;

	for (i = 0; i < mm->ntargets; i++) {
		char esc[1040];

		fsl_mon_label_escape(mm->fs[i].label, esc, sizeof(esc));
		snprintf(fsl[i], sizeof(fsl[i]), "fs=\"%s\"", esc);
		fsl_mon_label_escape(mm->fs[i].disk, esc, 140);
		snprintf(dl[i], sizeof(dl[i]), "dev=\"%s\"", esc);
	}

	family(&o, "fslens_blocked_seconds_total", "counter",
	       "Time tasks spent blocked (uninterruptible), by filesystem, wait class and role.");
	if (mm->cgroups) {
		keys = cg_keys(mm, CGS_BLOCKED, &nkeys);
		for (k = 0; keys && k < nkeys; k++) {
			const struct fsl_mon_cg_series *cs = fsl_map__get(&mm->cg_series, keys[k]);

			i = (keys[k] >> 16) & 0xff;
			c = (keys[k] >> 8) & 0xff;
			r = keys[k] & 0xff;
			if (!cs || !cs->v || c >= FSL_WC__MAX || r > 1)
				continue;
			cg_label(mm, keys[k] >> 32, cgl, sizeof(cgl));
			put(&o, "fslens_blocked_seconds_total{%s,class=\"%s\",role=\"%s\",%s} %.9f\n",
			    i < mm->ntargets ? fsl[i] : "fs=\"other\"", fsl_wclass_id(c), roles[r],
			    cgl, cs->v / 1e9);
		}
		free(keys);
	}
	for (i = 0; i <= mm->ntargets && !mm->cgroups; i++)
		for (c = 0; c < FSL_WC__MAX; c++)
			for (r = 0; r < 2; r++) {
				uint64_t ns = i < mm->ntargets ? mm->fs[i].blocked_ns[c][r] :
						       mm->other_blocked_ns[c][r];

				if (!ns)
					continue;
				put(&o, "fslens_blocked_seconds_total{%s,class=\"%s\",role=\"%s\"} "
				    "%.9f\n", i < mm->ntargets ? fsl[i] : "fs=\"other\"",
				    fsl_wclass_id(c), roles[r], ns / 1e9);
			}

	if (mm->cpu_hz) {
		family(&o, "fslens_cpu_seconds_total", "counter",
		       "On-CPU time of work on the filesystem (sampled), by CPU class and role.");
		keys = mm->cgroups ? cg_keys(mm, CGS_CPU, &nkeys) : NULL;
		for (k = 0; keys && k < nkeys; k++) {
			const struct fsl_mon_cg_series *cs = fsl_map__get(&mm->cg_series, keys[k]);

			i = (keys[k] >> 16) & 0xff;
			c = (keys[k] >> 8) & 0xff;
			r = keys[k] & 0xff;
			if (!cs || !cs->v || i >= mm->ntargets || c >= FSL_CC__MAX || r > 1)
				continue;
			cg_label(mm, keys[k] >> 32, cgl, sizeof(cgl));
			put(&o, "fslens_cpu_seconds_total{%s,class=\"%s\",role=\"%s\",%s} %.9f\n",
			    fsl[i], fsl_cclass_id(c), roles[r], cgl, cs->v / 1e9);
		}
		free(keys);
		for (i = 0; i < mm->ntargets && !mm->cgroups; i++)
			for (c = 0; c < FSL_CC__MAX; c++)
				for (r = 0; r < 2; r++) {
					if (!mm->fs[i].cpu_ns[c][r])
						continue;
					put(&o, "fslens_cpu_seconds_total{%s,class=\"%s\",role=\"%s\"} "
					    "%.9f\n", fsl[i], fsl_cclass_id(c), roles[r],
					    mm->fs[i].cpu_ns[c][r] / 1e9);
				}
	}

	family(&o, "fslens_op_latency_seconds", "histogram",
	       "Latency of filesystem system calls on the target, entry to exit.");
	if (mm->cgroups) {
		keys = cg_keys(mm, CGS_OP, &nkeys);
		for (k = 0; keys && k < nkeys; k++) {
			const struct fsl_mon_cg_series *cs = fsl_map__get(&mm->cg_series, keys[k]);

			i = (keys[k] >> 16) & 0xff;
			op = (keys[k] >> 8) & 0xff;
			if (!cs || !cs->h || i >= mm->ntargets || !fsl_mon_op_name(op) ||
			    !hist_n(cs->h))
				continue;
			cg_label(mm, keys[k] >> 32, cgl, sizeof(cgl));
			snprintf(lab, sizeof(lab), "%s,op=\"%s\",%s", fsl[i], fsl_mon_op_name(op),
				 cgl);
			hist(&o, "fslens_op_latency_seconds", lab, cs->h);
		}
		free(keys);
	}
	for (i = 0; i < mm->ntargets && !mm->cgroups; i++)
		for (op = 0; op < MON_OPS; op++) {
			if (!fsl_mon_op_name(op) || !hist_n(&mm->fs[i].op[op]))
				continue;
			snprintf(lab, sizeof(lab), "%s,op=\"%s\"", fsl[i], fsl_mon_op_name(op));
			hist(&o, "fslens_op_latency_seconds", lab, &mm->fs[i].op[op]);
		}

	family(&o, "fslens_data_bytes_total", "counter",
	       "Bytes read and written by read/write system calls on the target's files.");
	if (mm->cgroups) {
		keys = cg_keys(mm, CGS_DATA, &nkeys);
		for (k = 0; keys && k < nkeys; k++) {
			const struct fsl_mon_cg_series *cs = fsl_map__get(&mm->cg_series, keys[k]);

			i = (keys[k] >> 16) & 0xff;
			op = (keys[k] >> 8) & 0xff;
			if (!cs || i >= mm->ntargets || (op != MON_OP_READ && op != MON_OP_WRITE))
				continue;
			cg_label(mm, keys[k] >> 32, cgl, sizeof(cgl));
			put(&o, "fslens_data_bytes_total{%s,op=\"%s\",%s} %" PRIu64 "\n", fsl[i],
			    op == MON_OP_WRITE ? "write" : "read", cgl, cs->v);
		}
		free(keys);
	}
	for (i = 0; i < mm->ntargets && !mm->cgroups; i++)
		for (op = 0; op < 2; op++)
			put(&o, "fslens_data_bytes_total{%s,op=\"%s\"} %" PRIu64 "\n", fsl[i],
			    op ? "write" : "read", mm->fs[i].data_bytes[op]);

	family(&o, "fslens_journal_commits_total", "counter",
	       "jbd2 commits of the target's journal, by what triggered them.");
	for (i = 0; i < mm->ntargets; i++)
		for (s = 0; s < MON_TRIGS; s++)
			put(&o, "fslens_journal_commits_total{%s,trigger=\"%s\"} %" PRIu64 "\n",
			    fsl[i], trig_names[s], mm->fs[i].commits[s]);

	family(&o, "fslens_journal_commit_seconds", "histogram",
	       "Duration of jbd2 commits, start_commit to end_commit.");
	for (i = 0; i < mm->ntargets; i++)
		hist(&o, "fslens_journal_commit_seconds", fsl[i], &mm->fs[i].commit);

	family(&o, "fslens_journal_checkpoints_total", "counter",
	       "jbd2 checkpoints of the target's journal.");
	for (i = 0; i < mm->ntargets; i++)
		put(&o, "fslens_journal_checkpoints_total{%s} %" PRIu64 "\n", fsl[i],
		    mm->fs[i].checkpoints);

	family(&o, "fslens_writeback_pages_total", "counter",
	       "Pages written back from the target's inodes, by reason.");
	for (i = 0; i < mm->ntargets; i++)
		for (s = 0; s < MON_WB__MAX; s++)
			put(&o, "fslens_writeback_pages_total{%s,reason=\"%s\"} %" PRIu64 "\n",
			    fsl[i], wb_names[s], mm->fs[i].wb_pages[s]);

	family(&o, "fslens_throttle_seconds_total", "counter",
	       "Time writers were paused by balance_dirty_pages on the target's disk.");
	for (i = 0; i < mm->ntargets; i++)
		put(&o, "fslens_throttle_seconds_total{%s} %.9f\n", fsl[i],
		    mm->hz > 0 ? (double)mm->fs[i].throttle_jiffies / mm->hz : 0.0);

	family(&o, "fslens_io_latency_seconds", "histogram",
	       "Block request latency on the target's disk: d2c (issue to complete), "
	       "q2c (bio queued to complete).");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < MON_IO__MAX; op++)
			for (s = 0; s < 2; s++) {
				if (!hist_n(&mm->fs[i].io[op][s]))
					continue;
				snprintf(lab, sizeof(lab), "%s,op=\"%s\",stage=\"%s\"", dl[i],
					 io_names[op], s ? "q2c" : "d2c");
				hist(&o, "fslens_io_latency_seconds", lab, &mm->fs[i].io[op][s]);
			}

	family(&o, "fslens_io_bytes_total", "counter", "Bytes completed on the target's disk.");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < MON_IO__MAX; op++)
			put(&o, "fslens_io_bytes_total{%s,op=\"%s\"} %" PRIu64 "\n", dl[i],
			    io_names[op], mm->fs[i].io_bytes[op]);

	family(&o, "fslens_seeks_total", "counter",
	       "Requests issued on the target's disk not starting where the previous one "
	       "of the same op ended.");
	for (i = 0; i < mm->ntargets; i++)
		for (op = 0; op < 2; op++)
			put(&o, "fslens_seeks_total{%s,op=\"%s\"} %" PRIu64 "\n", dl[i],
			    io_names[op], mm->fs[i].seeks[op]);

	family(&o, "fslens_lost_events_total", "counter",
	       "Events lost: the flight recorder's ring full (per family), or the in-kernel "
	       "aggregate map full (family monitor).");
	for (i = 0; i < FSL_FAM__MAX; i++)
		put(&o, "fslens_lost_events_total{family=\"%s\"} %" PRIu64 "\n", fsl_family_name(i),
		    mm->lost[i]);
	put(&o, "fslens_lost_events_total{family=\"monitor\"} %" PRIu64 "\n", mm->agg_full);

	family(&o, "fslens_flight_captures_total", "counter",
	       "Flight-recorder traces written (result ok) or failed.");
	put(&o, "fslens_flight_captures_total{result=\"ok\"} %" PRIu64 "\n", mm->captures);
	put(&o, "fslens_flight_captures_total{result=\"failed\"} %" PRIu64 "\n",
	    mm->captures_failed);
	family(&o, "fslens_flight_triggers_suppressed_total", "counter",
	       "Flight-recorder triggers dropped by the rate limit.");
	put(&o, "fslens_flight_triggers_suppressed_total %" PRIu64 "\n", mm->triggers_suppressed);
	family(&o, "fslens_unnamed_stacks_total", "counter",
	       "Blocked-time entries whose kernel stack was no longer available (class other).");
	put(&o, "fslens_unnamed_stacks_total %" PRIu64 "\n", mm->stacks_unnamed);
	if (mm->cpu_hz) {
		family(&o, "fslens_cpu_samples_unnamed_total", "counter",
		       "On-CPU samples of the targets whose kernel stack was not kept (class "
		       "cpu_kernel_other).");
		put(&o, "fslens_cpu_samples_unnamed_total %" PRIu64 "\n", mm->cpu_samples_unnamed);
	}
	if (mm->cgroups) {
		family(&o, "fslens_cgroups_folded_total", "counter",
		       "Updates of cgroups past the table (shown as cgroup=\"other\").");
		put(&o, "fslens_cgroups_folded_total %" PRIu64 "\n", mm->cg_folded);
		family(&o, "fslens_cgroup_series_dropped_total", "counter",
		       "Operation-latency updates of per-cgroup series past the bound, not shown.");
		put(&o, "fslens_cgroup_series_dropped_total %" PRIu64 "\n", mm->cg_hists_dropped);
	}
	family(&o, "fslens_start_time_seconds", "gauge", "When this monitor started, unix time.");
	put(&o, "fslens_start_time_seconds %.0f\n", mm->start_time);
	if (o.err) {
		free(o.buf);
		return o.err;
	}
	*buf = o.buf;
	*len = o.len;
	return 0;
}
