// SPDX-License-Identifier: GPL-2.0
/*
 * JSON report: one object, schema in docs/report-json.md (version
 * FSL_REPORT_JSON_VERSION). Keys are only ever added; times in the names'
 * units (_ns, _us, _s), sizes in bytes unless named _pages or _sectors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "fslens/json.h"
#include "fslens/devname.h"
#include "fslens/indmap.h"
#include "render_internal.h"

static double us(uint64_t ns)
{
	return ns / 1e3;
}

/* Round to 0.001 so outputs are stable and readable. */
static double r3(double v)
{
	return (double)(int64_t)(v * 1000 + (v >= 0 ? 0.5 : -0.5)) / 1000;
}

static void kv_us(struct fsl_json *j, const char *k, uint64_t ns)
{
	fsl_json__kv_double(j, k, r3(us(ns)));
}

/*
 * "families": the recorded ones (record.families; null if the trace does not
 * say) and, by name, why each that cannot apply to the target does not.
 */
static void families_obj(struct fsl_json *j, const struct fsl_health *h)
{
	unsigned int i;

	fsl_json__key(j, "families");
	fsl_json__obj_begin(j);
	fsl_json__key(j, "recorded");
	if (!h->fam_recorded) {
		fsl_json__null(j);
	} else {
		fsl_json__arr_begin(j);
		for (i = 0; i < FSL_FAM__MAX; i++)
			if (h->fam_recorded & (1u << i))
				fsl_json__str(j, fsl_family_name(i));
		fsl_json__arr_end(j);
	}
	fsl_json__key(j, "cannot_apply");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_FAM__MAX; i++) {
		if (h->fam_no_disk & (1u << i))
			fsl_json__kv_str(j, fsl_family_name(i), "no block device");
		else if (h->fam_no_fs & (1u << i))
			fsl_json__kv_str(j, fsl_family_name(i), "not ext4 or xfs");
	}
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);
}

static void trace_obj(struct fsl_json *j, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	const struct fsl_health *h = fsl_analysis__health(a);
	const struct fsl_meta *m = fsl_analysis__meta(a);
	uint64_t t0, t1, lost = 0, ev = 0, dev;
	unsigned int i;

	rn_span(a, &t0, &t1);
	fsl_json__key(j, "trace");
	fsl_json__obj_begin(j);
	fsl_json__kv_str(j, "path", info->trace_path);
	fsl_json__kv_str(j, "host", fsl_meta_kv(m, FSL_KV_HOSTNAME));
	fsl_json__kv_str(j, "kernel", fsl_meta_kv(m, FSL_KV_KERNEL));
	fsl_json__kv_str(j, "mount", fsl_meta_kv(m, FSL_KV_MOUNT));
	fsl_json__kv_str(j, "fstype", fsl_meta_kv(m, FSL_KV_FSTYPE));
	if (!fsl_meta__get_u64(m, FSL_KV_DEV, &dev)) {
		char b[32];

		fsl_json__kv_str(j, "dev", rn_dev(b, sizeof(b), (uint32_t)dev));
	} else {
		fsl_json__kv_null(j, "dev");
	}
	fsl_json__kv_str(j, "command", fsl_meta_kv(m, FSL_KV_COMMAND));
	fsl_json__kv_u64(j, "start_ns", t0);
	fsl_json__kv_u64(j, "end_ns", t1);
	fsl_json__kv_double(j, "duration_s", r3((t1 - t0) / 1e9));
	fsl_json__key(j, "events");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_FAM__MAX; i++) {
		fsl_json__kv_u64(j, fsl_family_name(i), h->events[i]);
		ev += h->events[i];
	}
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "events_total", ev);
	fsl_json__key(j, "lost");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_FAM__MAX; i++) {
		fsl_json__kv_u64(j, fsl_family_name(i), h->lost[i]);
		lost += h->lost[i];
	}
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "lost_total", lost);
	families_obj(j, h);
	fsl_json__kv_u64(j, "lost_drain_behind", h->lost_behind);
	fsl_json__kv_u64(j, "lost_burst", h->lost_burst);
	fsl_json__kv_str(j, "loss_advice", h->loss_advice);
	fsl_json__kv_u64(j, "min_wait_us", h->min_wait_us);
	fsl_json__kv_str(j, "probe_mode", h->probe_mode);
	fsl_json__kv_str(j, "missing", h->missing);
	fsl_json__kv_u64(j, "unknown_events", h->unknown_events);
	fsl_json__kv_u64(j, "waits_without_stack", h->unknown_stacks);
	fsl_json__obj_end(j);
}

static void stack_arr(struct fsl_json *j, struct fsl_analysis *a, int32_t id)
{
	const struct fsl_meta *m = fsl_analysis__meta(a);
	const struct fsl_stack *st = m && m->stack ? m->stack(m, id) : NULL;
	unsigned int i;

	fsl_json__arr_begin(j);
	for (i = 0; st && i < st->nframes; i++)
		fsl_json__str(j, st->frames[i]);
	fsl_json__arr_end(j);
}

/* "whole_time": the workload's wall time and its parts (ns), null without tasktime records. */
static void whole_obj(struct fsl_json *j, const struct fsl_wholetime *w)
{
	unsigned int i;

	fsl_json__key(j, "whole_time");
	if (!w->threads) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "threads", w->threads);
	fsl_json__kv_u64(j, "alive_at_end", w->alive);
	fsl_json__kv_u64(j, "wall_ns", w->wall_ns);
	fsl_json__kv_u64(j, "oncpu_ns", w->oncpu_ns);
	fsl_json__kv_u64(j, "runnable_ns", w->runq_ns);
	fsl_json__kv_u64(j, "blocked_ns", w->blocked_ns);
	fsl_json__kv_u64(j, "sleep_ns", w->sleep_ns);
	fsl_json__kv_u64(j, "sleep_child_wait_ns", w->child_wait_ns);
	fsl_json__kv_u64(j, "blocked_short_ns", w->short_ns);
	fsl_json__kv_u64(j, "blocked_other_fs_ns", w->other_fs_ns);
	fsl_json__key(j, "blocked_classes_ns");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_WC__MAX; i++)
		if (w->cls_ns[i])
			fsl_json__kv_u64(j, fsl_wclass_id(i), w->cls_ns[i]);
	fsl_json__obj_end(j);
	/* on-CPU samples by CPU class, where a provider filled the window's table */
	fsl_json__key(j, "oncpu_by_class_ns");
	if (!w->ncpu) {
		fsl_json__null(j);
	} else {
		fsl_json__obj_begin(j);
		for (i = 0; i < w->ncpu; i++)
			fsl_json__kv_u64(j, w->cpu_cls[i].id, w->cpu_cls[i].ns);
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
}

/* "cpu": on-CPU time by CPU class from the cpu family's samples; null without them. */
static void cpu_obj(struct fsl_json *j, const struct fsl_cpu *c)
{
	static const char *const roles[] = { "workload", "kthread", "other" };
	unsigned int i, r;

	fsl_json__key(j, "cpu");
	if (!c->period_ns) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "period_ns", c->period_ns);
	fsl_json__kv_double(j, "hz", r3(1e9 / c->period_ns));
	fsl_json__key(j, "samples");
	fsl_json__obj_begin(j);
	for (r = 0; r < 3; r++)
		fsl_json__kv_u64(j, roles[r], c->samples[r]);
	fsl_json__obj_end(j);
	fsl_json__key(j, "oncpu_ns");
	fsl_json__obj_begin(j);
	for (r = 0; r < 3; r++)
		fsl_json__kv_u64(j, roles[r], c->total_ns[r]);
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "other_fs_ns", c->other_fs_ns);
	fsl_json__kv_u64(j, "samples_without_stack", c->no_stack);
	fsl_json__key(j, "classes");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_CC__MAX; i++) {
		if (!c->ns[0][i] && !c->ns[1][i] && !c->ns[2][i])
			continue;
		fsl_json__key(j, fsl_cclass_id(i));
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "workload_ns", c->ns[FSL_ROLE_WORKLOAD][i]);
		fsl_json__kv_u64(j, "kthread_ns", c->ns[FSL_ROLE_KTHREAD][i]);
		fsl_json__kv_u64(j, "other_ns", c->ns[FSL_ROLE_OTHER][i]);
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);
}

/* Waits on other filesystems than the target: summed, never in classes or causes. */
static void other_fs(struct fsl_json *j, struct fsl_analysis *a, const struct fsl_other_fs *o)
{
	char b[32], name[64];
	unsigned int i;

	fsl_json__key(j, "other_fs");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "waits", o->waits);
	fsl_json__kv_u64(j, "workload_ns", o->ns[FSL_ROLE_WORKLOAD]);
	fsl_json__kv_u64(j, "kthread_ns", o->ns[FSL_ROLE_KTHREAD]);
	fsl_json__kv_u64(j, "other_ns", o->ns[FSL_ROLE_OTHER]);
	fsl_json__key(j, "devices");
	fsl_json__arr_begin(j);
	for (i = 0; i < o->ndev; i++) {
		fsl_json__obj_begin(j);
		if (o->dev[i].dev) {
			fsl_json__kv_str(j, "dev", rn_dev(b, sizeof(b), o->dev[i].dev));
			fsl_json__kv_str(j, "name", fsl_dev_label(fsl_analysis__meta(a),
								  o->dev[i].dev, name, sizeof(name)));
		} else {
			fsl_json__kv_null(j, "dev");
			fsl_json__kv_null(j, "name");
		}
		fsl_json__kv_u64(j, "waits", o->dev[i].waits);
		fsl_json__kv_u64(j, "ns", o->dev[i].ns);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
}

static void causes(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_stalls *st = fsl_analysis__stalls(a);
	struct fsl_diagnosis *d = malloc(sizeof(*d));
	unsigned int i, k;

	fsl_json__key(j, "blocked");
	fsl_json__obj_begin(j);
	fsl_json__kv_double(j, "workload_s", r3(rn_sec(st->ns[FSL_ROLE_WORKLOAD])));
	fsl_json__kv_double(j, "kthread_s", r3(rn_sec(st->ns[FSL_ROLE_KTHREAD])));
	fsl_json__kv_double(j, "other_s", r3(rn_sec(st->ns[FSL_ROLE_OTHER])));
	fsl_json__kv_u64(j, "workload_ns", st->ns[FSL_ROLE_WORKLOAD]);
	fsl_json__kv_u64(j, "waits", st->waits);
	other_fs(j, a, &st->other_fs);
	fsl_json__key(j, "classes");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_WC__MAX; i++) {
		const struct fsl_class_stat *c = &st->cls[i];

		if (!c->count[0] && !c->count[1] && !c->count[2] &&
		    !c->ns[0] && !c->ns[1] && !c->ns[2])	/* time of a wait that ends later */
			continue;
		fsl_json__key(j, fsl_wclass_id(i));
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "workload_ns", c->ns[FSL_ROLE_WORKLOAD]);
		fsl_json__kv_u64(j, "kthread_ns", c->ns[FSL_ROLE_KTHREAD]);
		fsl_json__kv_u64(j, "other_ns", c->ns[FSL_ROLE_OTHER]);
		fsl_json__kv_u64(j, "waits", c->count[0] + c->count[1] + c->count[2]);
		fsl_json__kv_u64(j, "max_ns", c->max_ns);
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);

	if (d) {
		fsl_analysis__diagnose(a, d);
		whole_obj(j, &d->whole);
		cpu_obj(j, &d->cpu);
	}
	fsl_json__key(j, "causes");
	fsl_json__arr_begin(j);
	if (d) {
		for (i = 0; i < d->ncauses; i++) {
			const struct fsl_cause *c = &d->causes[i];
			const struct fsl_class_stat *cs = &st->cls[c->cls];
			int cpu = c->kind == FSL_CAUSE_CPU;

			fsl_json__obj_begin(j);
			fsl_json__kv_str(j, "kind", cpu ? "cpu" : "wait");
			fsl_json__kv_str(j, "class", fsl_cause_id(c));
			fsl_json__kv_str(j, "label", fsl_cause_label(c));
			fsl_json__kv_double(j, "seconds", r3(rn_sec(c->ns)));
			fsl_json__kv_u64(j, "ns", c->ns);
			fsl_json__kv_double(j, "share", r3(c->share));
			if (d->has_cpu)
				fsl_json__kv_double(j, "busy_share", r3(c->busy_share));
			fsl_json__kv_u64(j, cpu ? "samples" : "waits", c->count);
			fsl_json__kv_double(j, "kthread_seconds", r3(rn_sec(c->kthread_ns)));
			fsl_json__kv_str(j, "evidence", c->evidence);
			fsl_json__kv_str(j, "suggestion", c->suggestion);
			fsl_json__key(j, "stacks");
			fsl_json__arr_begin(j);
			for (k = 0; cpu && k < FSL_CPU_TOP_STACKS && d->cpu.top_stack[c->cls][k] >= 0;
			     k++) {
				fsl_json__obj_begin(j);
				fsl_json__kv_s64(j, "id", d->cpu.top_stack[c->cls][k]);
				fsl_json__kv_u64(j, "ns", d->cpu.top_stack_ns[c->cls][k]);
				fsl_json__kv_str(j, "comm", d->cpu.top_comm[c->cls][k]);
				fsl_json__key(j, "frames");
				stack_arr(j, a, d->cpu.top_stack[c->cls][k]);
				fsl_json__obj_end(j);
			}
			for (k = 0; !cpu && k < FSL_TOP_STACKS && cs->top_stack[k] >= 0; k++) {
				fsl_json__obj_begin(j);
				fsl_json__kv_s64(j, "id", cs->top_stack[k]);
				fsl_json__kv_u64(j, "ns", cs->top_stack_ns[k]);
				fsl_json__kv_str(j, "comm", cs->top_comm[k]);
				fsl_json__key(j, "frames");
				stack_arr(j, a, cs->top_stack[k]);
				fsl_json__obj_end(j);
			}
			fsl_json__arr_end(j);
			fsl_json__obj_end(j);
		}
		free(d);
	}
	fsl_json__arr_end(j);
}

static void series(struct fsl_json *j, const char *key, const uint64_t *s, unsigned int n)
{
	unsigned int i;

	fsl_json__key(j, key);
	fsl_json__arr_begin(j);
	for (i = 0; i < n; i++)
		fsl_json__u64(j, s[i]);
	fsl_json__arr_end(j);
}

static void tb_obj(struct fsl_json *j, const struct fsl_timebase *tb)
{
	fsl_json__kv_u64(j, "bin_t0_ns", tb->t0);
	fsl_json__kv_u64(j, "bin_ns", tb->width_ns);
}

/* paths: files[i]'s path ("" unknown), for the files; NULL for the processes */
static void data_top_arr(struct fsl_json *j, const char *key, const struct fsl_data_top *t,
			 unsigned int n, const char (*paths)[FSL_DATA_PATH_MAX])
{
	unsigned int i;

	fsl_json__key(j, key);
	fsl_json__arr_begin(j);
	for (i = 0; i < n; i++) {
		fsl_json__obj_begin(j);
		if (paths) {
			fsl_json__kv_u64(j, "ino", t[i].ino);
			fsl_json__kv_strn(j, "name", t[i].name, strnlen(t[i].name, sizeof(t[i].name)));
			if (paths[i][0])
				fsl_json__kv_str(j, "path", paths[i]);
		} else {
			fsl_json__kv_u64(j, "pid", t[i].pid);
			fsl_json__kv_strn(j, "comm", t[i].name, strnlen(t[i].name, sizeof(t[i].name)));
		}
		fsl_json__kv_u64(j, "reads", t[i].reads);
		fsl_json__kv_u64(j, "read_bytes", t[i].read_bytes);
		fsl_json__kv_u64(j, "writes", t[i].writes);
		fsl_json__kv_u64(j, "write_bytes", t[i].write_bytes);
		kv_us(j, "call_us", t[i].lat_ns);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
}

/* Data operations: per op (ext4dist), slowest calls (ext4slower), files and processes (filetop). */
static void data_obj(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_data *d = fsl_analysis__data(a);
	unsigned int i, k;
	uint64_t l2[64];

	fsl_json__key(j, "data");
	if (!d) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "total", d->total);
	fsl_json__kv_u64(j, "read_bytes", d->read_bytes);
	fsl_json__kv_u64(j, "write_bytes", d->write_bytes);
	fsl_json__kv_u64(j, "outside", d->outside);
	fsl_json__key(j, "ops");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_DATA__MAX; i++) {
		const struct fsl_data_op_stat *s = &d->op[i];

		if (!s->count)
			continue;
		fsl_json__key(j, fsl_data_name(i));
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "count", s->count);
		fsl_json__kv_u64(j, "errors", s->errors);
		fsl_json__kv_u64(j, "bytes_asked", s->bytes_asked);
		fsl_json__kv_u64(j, "bytes_done", s->bytes_done);
		kv_us(j, "avg_us", fsl_hist_avg(&s->lat));
		kv_us(j, "p50_us", fsl_hist_quantile(&s->lat, 0.5));
		kv_us(j, "p90_us", fsl_hist_quantile(&s->lat, 0.9));
		kv_us(j, "p99_us", fsl_hist_quantile(&s->lat, 0.99));
		kv_us(j, "max_us", s->lat.max);
		kv_us(j, "min_us", s->lat.min);
		fsl_json__key(j, "log2_ns");
		fsl_json__obj_begin(j);
		fsl_hist_log2(&s->lat, l2);
		for (k = 0; k < 64; k++)
			if (l2[k]) {
				char b[24];

				snprintf(b, sizeof(b), "%" PRIu64, (uint64_t)(k ? 1ull << k : 0));
				fsl_json__kv_u64(j, b, l2[k]);
			}
		fsl_json__obj_end(j);
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
	fsl_json__key(j, "slowest");
	fsl_json__arr_begin(j);
	for (i = 0; i < d->nslow; i++) {
		const struct fsl_data_slow *s = &d->slow[i];

		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "op", fsl_data_name(s->op));
		kv_us(j, "lat_us", s->lat_ns);
		fsl_json__kv_u64(j, "ts_ns", s->ts);
		fsl_json__kv_u64(j, "pid", s->pid);
		fsl_json__kv_u64(j, "tid", s->tid);
		fsl_json__kv_strn(j, "comm", s->comm, strnlen(s->comm, sizeof(s->comm)));
		fsl_json__kv_u64(j, "ino", s->ino);
		fsl_json__kv_strn(j, "name", s->name, strnlen(s->name, sizeof(s->name)));
		if (s->path[0])
			fsl_json__kv_str(j, "path", s->path);
		fsl_json__kv_s64(j, "offset", s->offset);
		fsl_json__kv_u64(j, "bytes", s->bytes);
		fsl_json__kv_s64(j, "ret", s->ret);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	data_top_arr(j, "files", d->files, d->nfiles, d->file_path);
	data_top_arr(j, "procs", d->procs, d->nprocs, NULL);
	fsl_json__obj_end(j);
}

static void ops_obj(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_ops *o = fsl_analysis__ops(a);
	unsigned int i, k;
	uint64_t l2[64];

	fsl_json__key(j, "ops");
	if (!o) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "total", o->total);
	fsl_json__kv_u64(j, "outside_mount", o->outside);
	fsl_json__key(j, "types");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_OP__MAX; i++) {
		const struct fsl_op_stat *s = &o->op[i];

		if (!s->count)
			continue;
		fsl_json__key(j, fsl_dirop_name(i));
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "count", s->count);
		fsl_json__kv_u64(j, "errors", s->errors);
		kv_us(j, "avg_us", fsl_hist_avg(&s->lat));
		kv_us(j, "p50_us", fsl_hist_quantile(&s->lat, 0.5));
		kv_us(j, "p90_us", fsl_hist_quantile(&s->lat, 0.9));
		kv_us(j, "p99_us", fsl_hist_quantile(&s->lat, 0.99));
		kv_us(j, "max_us", s->lat.max);
		kv_us(j, "min_us", s->lat.min);
		fsl_json__key(j, "log2_ns");
		fsl_json__obj_begin(j);
		fsl_hist_log2(&s->lat, l2);
		for (k = 0; k < 64; k++)
			if (l2[k]) {
				char b[24];

				snprintf(b, sizeof(b), "%" PRIu64, (uint64_t)(k ? 1ull << k : 0));
				fsl_json__kv_u64(j, b, l2[k]);
			}
		fsl_json__obj_end(j);
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
	fsl_json__key(j, "rate");
	fsl_json__obj_begin(j);
	tb_obj(j, &o->tb);
	series(j, "all", o->series_all, o->tb.nbins);
	series(j, "create", o->series_create, o->tb.nbins);
	fsl_json__obj_end(j);
	fsl_json__key(j, "dirs");
	fsl_json__arr_begin(j);
	for (i = 0; i < o->ndirs; i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "path", o->dirs[i].path);
		fsl_json__kv_u64(j, "ops", o->dirs[i].ops);
		kv_us(j, "latency_us", o->dirs[i].lat_ns);
		kv_us(j, "lookup_wait_us", o->dirs[i].lookup_wait_ns);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	{
		struct fsl_htree_dir h[64];
		unsigned int n = fsl_meta__ext4_htree(fsl_analysis__meta(a), h, 64);

		fsl_json__key(j, "htree_dirs");
		fsl_json__arr_begin(j);
		for (i = 0; i < n; i++) {
			fsl_json__obj_begin(j);
			fsl_json__kv_str(j, "path", h[i].path);
			fsl_json__kv_u64(j, "ino", h[i].ino);
			fsl_json__kv_u64(j, "blocks", h[i].blocks);
			fsl_json__kv_u64(j, "levels", h[i].levels);
			fsl_json__kv_u64(j, "index_blocks", h[i].index_blocks);
			fsl_json__obj_end(j);
		}
		fsl_json__arr_end(j);
	}
	fsl_json__obj_end(j);
}

static void jinfo(struct fsl_json *j, const char *key, const struct fsl_jbd2_info *x)
{
	fsl_json__key(j, key);
	if (!x) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "transactions", x->transactions);
	fsl_json__kv_u64(j, "requested", x->requested);
	fsl_json__kv_u64(j, "max_blocks", x->max_blocks);
	fsl_json__kv_u64(j, "avg_commit_us", x->avg_commit_us);
	fsl_json__kv_u64(j, "running_ms", x->running_ms);
	fsl_json__kv_u64(j, "locked_ms", x->locked_ms);
	fsl_json__kv_u64(j, "flushing_ms", x->flushing_ms);
	fsl_json__kv_u64(j, "logging_ms", x->logging_ms);
	fsl_json__kv_u64(j, "handles", x->handles);
	fsl_json__kv_u64(j, "blocks", x->blocks);
	fsl_json__kv_u64(j, "logged_blocks", x->logged_blocks);
	fsl_json__obj_end(j);
}

static uint64_t span(uint64_t a, uint64_t b)
{
	return a && b && b >= a ? b - a : 0;
}

static void class_obj(struct fsl_json *j, const char *key, const uint64_t v[FSL_BC__MAX])
{
	unsigned int k;

	fsl_json__key(j, key);
	fsl_json__obj_begin(j);
	for (k = 0; k < FSL_BC__MAX; k++)
		fsl_json__kv_u64(j, fsl_block_class_name(k), v[k]);
	fsl_json__obj_end(j);
}

/* "contents_by_class" and "blocks_by_writer": the journal's contents as written home. */
static void contents_obj(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_contents *c = fsl_analysis__contents(a);
	unsigned int w, i;

	fsl_json__key(j, "contents_by_class");
	if (!c || !c->classes) {
		fsl_json__null(j);
		fsl_json__key(j, "blocks_by_writer");
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "home_blocks", c->home_total);
	class_obj(j, "home", c->home);
	class_obj(j, "read", c->read);
	fsl_json__key(j, "checkpoints");
	fsl_json__arr_begin(j);
	for (i = 0; i < c->nchp; i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "tid", c->chp[i].tid);
		fsl_json__kv_u64(j, "ts_ns", c->chp[i].ts);
		fsl_json__kv_u64(j, "kernel_written", c->chp[i].written);
		fsl_json__kv_u64(j, "kernel_dropped", c->chp[i].dropped);
		class_obj(j, "blocks", c->chp[i].blocks);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
	fsl_json__key(j, "blocks_by_writer");
	fsl_json__obj_begin(j);
	for (w = 0; w < FSL_WR__MAX; w++)
		class_obj(j, fsl_block_writer_name(w), c->written[w]);
	fsl_json__key(j, "writeback_by_reason");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_WB_REASONS; i++) {
		uint64_t sum = 0;
		unsigned int k;

		for (k = 0; k < FSL_BC__MAX; k++)
			sum += c->wb_reason[i][k];
		if (sum)
			class_obj(j, i == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(i),
				  c->wb_reason[i]);
	}
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);
}

static void journal_obj(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_journal *jr = fsl_analysis__journal(a);
	const struct fsl_meta *m = fsl_analysis__meta(a);
	unsigned int i;
	char b[32];

	fsl_json__key(j, "journal");
	if (!jr) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "commits", jr->commits);
	kv_us(j, "avg_commit_us", fsl_hist_avg(&jr->commit_ns));
	kv_us(j, "p99_commit_us", fsl_hist_quantile(&jr->commit_ns, 0.99));
	kv_us(j, "max_commit_us", jr->commit_ns.max);
	kv_us(j, "kernel_avg_commit_us", jr->ewma_commit_ns);
	fsl_json__key(j, "triggers");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_TRIG__MAX; i++)
		fsl_json__kv_u64(j, fsl_trigger_name(i), jr->trig[i]);
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "triggers_inferred", jr->trig_guessed);
	fsl_json__kv_u64(j, "kicks", jr->kicks);
	kv_us(j, "avg_locked_us", jr->phase_txns ? jr->sum_locked_phase_ns / jr->phase_txns : 0);
	kv_us(j, "avg_flushing_us", jr->phase_txns ? jr->sum_flushing_phase_ns / jr->phase_txns : 0);
	kv_us(j, "avg_logging_us", jr->phase_txns ? jr->sum_logging_phase_ns / jr->phase_txns : 0);
	fsl_json__kv_u64(j, "handles", jr->handles);
	fsl_json__kv_u64(j, "checkpoints", jr->checkpoints);
	kv_us(j, "checkpoint_us", jr->chp_time_ns);
	fsl_json__kv_u64(j, "checkpoint_written", jr->chp_written);
	fsl_json__kv_u64(j, "lock_buffer_stalls", jr->lock_buffer_stalls);
	kv_us(j, "lock_buffer_stall_us", jr->lock_buffer_stall_ns);
	fsl_json__kv_u64(j, "log_tail_updates", jr->log_tail_updates);
	fsl_json__key(j, "transactions");
	fsl_json__arr_begin(j);
	for (i = 0; i < jr->ntxns; i++) {
		const struct fsl_txn *t = &jr->txns[i];

		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "tid", t->tid);
		fsl_json__kv_str(j, "dev", rn_dev(b, sizeof(b), t->dev));
		fsl_json__kv_str(j, "trigger", fsl_trigger_name(t->trigger));
		fsl_json__kv_bool(j, "trigger_inferred", !t->kicked);
		fsl_json__kv_bool(j, "sync_commit", t->sync_commit);
		fsl_json__kv_u64(j, "start_ns", t->t_start);
		fsl_json__kv_u64(j, "end_ns", t->t_end);
		fsl_json__kv_u64(j, "commit_ns", span(t->t_start, t->t_end));
		fsl_json__kv_u64(j, "locked_ns", span(t->t_locking, t->t_flushing));
		fsl_json__kv_u64(j, "flushing_ns", span(t->t_flushing, t->t_logging));
		fsl_json__kv_u64(j, "logging_ns", span(t->t_logging, t->t_end));
		if (t->have_stats) {
			fsl_json__kv_u64(j, "running_ns", t->running_ns);
			fsl_json__kv_u64(j, "handles", t->handles);
			fsl_json__kv_u64(j, "blocks", t->blocks);
			fsl_json__kv_u64(j, "blocks_logged", t->blocks_logged);
		}
		fsl_json__kv_u64(j, "stopped_handles", t->stats_handles);
		fsl_json__kv_u64(j, "dirtied_blocks", t->dirtied);
		fsl_json__key(j, "top_site");
		if (t->top_blocks) {
			fsl_json__obj_begin(j);
			fsl_json__kv_str(j, "type", fsl_handle_type_name(t->top_type));
			fsl_json__kv_u64(j, "line", t->top_line);
			fsl_json__kv_u64(j, "blocks", t->top_blocks);
			fsl_json__obj_end(j);
		} else {
			fsl_json__null(j);
		}
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__kv_u64(j, "handles_stopped", jr->handles_stopped);
	fsl_json__kv_u64(j, "dirtied_blocks", jr->dirtied);
	fsl_json__key(j, "contents");
	fsl_json__arr_begin(j);
	for (i = 0; i < jr->ncontents; i++) {
		const struct fsl_handle_site *s = &jr->contents[i];
		const char *sym = s->ip && m && m->sym ? m->sym(m, s->ip) : NULL;

		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "type", fsl_handle_type_name(s->type));
		fsl_json__kv_u64(j, "line", s->line);
		fsl_json__kv_str(j, "caller", sym);
		fsl_json__kv_u64(j, "handles", s->stopped);
		fsl_json__kv_u64(j, "blocks", s->blocks);
		fsl_json__kv_double(j, "share", r3(jr->dirtied ? (double)s->blocks / jr->dirtied : 0));
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	contents_obj(j, a);
	fsl_json__key(j, "handle_waits");
	fsl_json__arr_begin(j);
	for (i = 0; i < jr->nsites; i++) {
		const struct fsl_handle_site *s = &jr->sites[i];
		const char *sym = s->ip && m && m->sym ? m->sym(m, s->ip) : NULL;

		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "type", fsl_handle_type_name(s->type));
		fsl_json__kv_u64(j, "line", s->line);
		fsl_json__kv_u64(j, "count", s->count);
		kv_us(j, "wait_us", s->wait_ns);
		kv_us(j, "max_us", s->max_ns);
		fsl_json__kv_str(j, "caller", sym);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__key(j, "proc_info");
	fsl_json__obj_begin(j);
	jinfo(j, "start", fsl_analysis__jbd2_start(a));
	jinfo(j, "end", fsl_analysis__jbd2_end(a));
	fsl_json__obj_end(j);
	fsl_json__key(j, "timeline");
	fsl_json__obj_begin(j);
	tb_obj(j, &jr->tb);
	series(j, "commits", jr->series_commits, jr->tb.nbins);
	series(j, "commit_ns", jr->series_commit_ns, jr->tb.nbins);
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);
}

static void writeback_obj(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_writeback *w = fsl_analysis__writeback(a);
	unsigned int i;

	fsl_json__key(j, "writeback");
	if (!w) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__key(j, "pages_by_reason");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_WB_REASONS; i++)
		if (w->works[i])
			fsl_json__kv_u64(j, i == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(i),
					 w->pages[i]);
	fsl_json__obj_end(j);
	fsl_json__key(j, "passes_by_reason");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_WB_REASONS; i++)
		if (w->works[i])
			fsl_json__kv_u64(j, i == FSL_WB_REASONS - 1 ? "unknown" : fsl_wb_reason_name(i),
					 w->works[i]);
	fsl_json__obj_end(j);
	/* who wrote the data, and the device's own account to check them against */
	fsl_json__key(j, "data_written");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "bytes", w->data_bytes);
	fsl_json__kv_u64(j, "page_size", w->page_size);
	fsl_json__key(j, "by_cause");
	fsl_json__obj_begin(j);
	for (i = 0; i < FSL_WBC__MAX; i++) {
		if (!w->cause_calls[i])
			continue;
		fsl_json__key(j, fsl_wbcause_id(i));
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "bytes", w->cause_bytes[i]);
		fsl_json__kv_u64(j, "pages", w->cause_pages[i]);
		fsl_json__kv_u64(j, "calls", w->cause_calls[i]);
		fsl_json__kv_str(j, "label", fsl_wbcause_label(i));
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
	fsl_json__key(j, "device");
	if (w->have_device) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "data_bytes", w->dev_data_bytes);
		fsl_json__kv_u64(j, "metadata_bytes", w->dev_meta_bytes);
		fsl_json__kv_u64(j, "journal_bytes", w->dev_journal_bytes);
		fsl_json__obj_end(j);
	} else {
		fsl_json__null(j);
	}
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "inode_passes", w->inode_passes);
	fsl_json__kv_u64(j, "inode_pages", w->inode_pages);
	fsl_json__key(j, "inodes");
	fsl_json__arr_begin(j);
	for (i = 0; i < w->ninodes; i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "ino", w->inodes[i].ino);
		fsl_json__kv_u64(j, "pages", w->inodes[i].pages);
		fsl_json__kv_u64(j, "passes", w->inodes[i].passes);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__key(j, "throttle");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "pauses", w->throttle_pauses);
	fsl_json__kv_double(j, "seconds", r3(rn_sec(w->throttle_ns)));
	fsl_json__key(j, "procs");
	fsl_json__arr_begin(j);
	for (i = 0; i < w->nthrottled; i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "pid", w->throttled[i].pid);
		fsl_json__kv_str(j, "comm", w->throttled[i].comm);
		fsl_json__kv_u64(j, "pauses", w->throttled[i].pauses);
		fsl_json__kv_double(j, "seconds", r3(rn_sec(w->throttled[i].pause_ns)));
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
	fsl_json__kv_u64(j, "dirty_pages", w->nr_dirty);
	fsl_json__kv_u64(j, "writeback_pages", w->nr_writeback);
	fsl_json__kv_u64(j, "dirty_thresh_pages", w->dirty_thresh);
	fsl_json__kv_u64(j, "background_thresh_pages", w->bg_thresh);
	fsl_json__key(j, "timeline");
	fsl_json__obj_begin(j);
	tb_obj(j, &w->tb);
	series(j, "dirty_pages", w->series_dirty, w->tb.nbins);
	series(j, "writeback_pages", w->series_writeback, w->tb.nbins);
	series(j, "written_pages", w->series_written, w->tb.nbins);
	series(j, "throttle_ns", w->series_throttle_ns, w->tb.nbins);
	fsl_json__obj_end(j);
	fsl_json__obj_end(j);
}

static void lat_obj(struct fsl_json *j, const char *pfx, const struct fsl_hist *h)
{
	char k[32];

	snprintf(k, sizeof(k), "%s_min_us", pfx);
	kv_us(j, k, h->min);
	snprintf(k, sizeof(k), "%s_avg_us", pfx);
	kv_us(j, k, fsl_hist_avg(h));
	snprintf(k, sizeof(k), "%s_p99_us", pfx);
	kv_us(j, k, fsl_hist_quantile(h, 0.99));
	snprintf(k, sizeof(k), "%s_max_us", pfx);
	kv_us(j, k, h->max);
}

/* One btt stage: exact figures (ns) and its sample count, as btt's MIN AVG MAX N. */
static void stage_obj(struct fsl_json *j, const char *key, const struct fsl_hist *h)
{
	fsl_json__key(j, key);
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "n", h->count);
	fsl_json__kv_u64(j, "min_ns", h->count ? h->min : 0);
	fsl_json__kv_u64(j, "avg_ns", fsl_hist_avg(h));
	fsl_json__kv_u64(j, "p99_ns", fsl_hist_quantile(h, 0.99));
	fsl_json__kv_u64(j, "max_ns", h->max);
	fsl_json__kv_u64(j, "sum_ns", h->sum);
	fsl_json__obj_end(j);
}

static const char *const sg_names[FSL_SG__MAX] = { "read", "write", "discard", "flush" };

static void counts_obj(struct fsl_json *j, const char *key, const struct fsl_blk_counts *c)
{
	unsigned int g;

	fsl_json__key(j, key);
	fsl_json__obj_begin(j);
	for (g = 0; g < FSL_SG__MAX; g++) {
		fsl_json__key(j, sg_names[g]);
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "ios", c->ios[g]);
		if (g != FSL_SG_FLUSH) {
			fsl_json__kv_u64(j, "merges", c->merges[g]);
			fsl_json__kv_u64(j, "sectors", c->sectors[g]);
		}
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
}

static void blockio_dev_extra(struct fsl_json *j, const struct fsl_dev_io *d)
{
	unsigned int k;

	fsl_json__kv_bool(j, "bio_level", d->bio_level);
	fsl_json__key(j, "btt");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "bios", d->bios);
	fsl_json__kv_u64(j, "bio_merges", d->bio_merges);
	fsl_json__kv_u64(j, "splits", d->splits);
	fsl_json__kv_u64(j, "bios_dup", d->bios_dup);
	fsl_json__kv_u64(j, "bios_not_seen", d->bios_not_seen);
	stage_obj(j, "q2q", &d->q2q);
	stage_obj(j, "q2g", &d->q2g);
	stage_obj(j, "g2i", &d->g2i);
	stage_obj(j, "q2m", &d->q2m);
	stage_obj(j, "i2d", &d->i2d);
	stage_obj(j, "m2d", &d->m2d);
	stage_obj(j, "q2d", &d->q2d);
	stage_obj(j, "d2c", &d->d2c);
	stage_obj(j, "q2c", &d->q2c);
	fsl_json__obj_end(j);
	fsl_json__key(j, "pairing");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "issues", d->issues);
	fsl_json__kv_u64(j, "paired", d->paired);
	for (k = 0; k < FSL_UNP__MAX; k++)
		fsl_json__kv_u64(j, fsl_unpaired_name(k), d->unpaired[k]);
	fsl_json__kv_u64(j, "flush_seq_ends", d->flush_seq_ends);
	fsl_json__kv_u64(j, "partial_completions", d->partials);
	fsl_json__kv_u64(j, "double_completions", d->double_completions);
	fsl_json__obj_end(j);
	fsl_json__key(j, "kernel_counts");
	fsl_json__obj_begin(j);
	counts_obj(j, "trace", &d->kc);
	counts_obj(j, "not_seen", &d->not_seen);
	fsl_json__kv_u64(j, "in_flight_end", d->in_flight_end);
	if (d->have_kstat) {
		counts_obj(j, "sys_block", &d->kstat);
		fsl_json__kv_u64(j, "sys_block_in_flight", d->kstat_in_flight);
		fsl_json__kv_u64(j, "window_start_ns", d->kstat_t0);
		fsl_json__kv_u64(j, "window_end_ns", d->kstat_t1);
	} else {
		fsl_json__kv_null(j, "sys_block");
	}
	fsl_json__obj_end(j);
}

static void blockio_arr(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_blockio *io = fsl_analysis__blockio(a);
	uint64_t t0, t1, l2[64];
	double secs;
	unsigned int i, k;
	char b[32];

	fsl_json__key(j, "blockio");
	if (!io) {
		fsl_json__null(j);
		return;
	}
	rn_span(a, &t0, &t1);
	secs = rn_sec(t1 - t0);
	fsl_json__arr_begin(j);
	for (i = 0; i < io->ndevs; i++) {
		const struct fsl_dev_io *d = &io->devs[i];

		fsl_json__obj_begin(j);
		fsl_json__kv_str(j, "dev", rn_dev(b, sizeof(b), d->dev));
		fsl_json__kv_u64(j, "completed", d->completed);
		fsl_json__kv_u64(j, "reads", d->reads);
		fsl_json__kv_u64(j, "writes", d->writes);
		fsl_json__kv_u64(j, "read_bytes", d->read_bytes);
		fsl_json__kv_u64(j, "write_bytes", d->write_bytes);
		fsl_json__kv_double(j, "iops", r3(secs > 0 ? d->completed / secs : 0));
		fsl_json__kv_double(j, "mb_per_s", r3(secs > 0 ? (d->read_bytes + d->write_bytes) / secs / 1e6 : 0));
		fsl_json__kv_u64(j, "meta", d->meta);
		fsl_json__kv_u64(j, "sync", d->sync);
		fsl_json__kv_u64(j, "flushes", d->flushes);
		fsl_json__kv_u64(j, "discards", d->discards);
		fsl_json__kv_u64(j, "merges", d->merges);
		fsl_json__kv_u64(j, "errors", d->errors);
		fsl_json__kv_u64(j, "avg_bytes", fsl_hist_avg(&d->size));
		lat_obj(j, "q2d", &d->q2d);
		lat_obj(j, "d2c", &d->d2c);
		lat_obj(j, "q2c", &d->q2c);
		fsl_json__kv_u64(j, "data_requests", d->completed - d->flush_rqs);
		fsl_json__kv_u64(j, "flush_requests", d->flush_rqs);
		lat_obj(j, "flush_q2d", &d->flush_q2d);
		lat_obj(j, "flush_d2c", &d->flush_d2c);
		lat_obj(j, "flush_q2c", &d->flush_q2c);
		fsl_json__kv_u64(j, "completions", d->completions);
		fsl_json__kv_u64(j, "double_completions", d->double_completions);
		blockio_dev_extra(j, d);
		fsl_json__kv_u64(j, "dispatches", d->d2d);
		fsl_json__kv_u64(j, "seeks", d->seeks);
		fsl_json__kv_double(j, "seeks_per_s", r3(secs > 0 ? d->seeks / secs : 0));
		fsl_json__kv_double(j, "seq_pct", r3(rn_pct(d->seq, d->d2d)));
		fsl_json__kv_double(j, "backward_pct", r3(rn_pct(d->backward, d->d2d)));
		fsl_json__kv_double(j, "seek_mean_sectors", r3(d->d2d ? (double)d->seek_total / d->d2d : 0));
		fsl_json__kv_u64(j, "seek_median_sectors", fsl_hist_quantile(&d->seek_abs, 0.5));
		fsl_json__kv_u64(j, "seek_mode_sectors", d->seek_mode);
		fsl_json__kv_u64(j, "seek_mode_count", d->seek_mode_count);
		fsl_json__key(j, "write_blocks_by_class");
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_BC__MAX; k++)
			fsl_json__kv_u64(j, fsl_block_class_name(k), d->wr_class[k]);
		fsl_json__obj_end(j);
		for (k = 0; k < 2; k++) {
			const struct fsl_seek_dir *dd = &d->dir[k];

			fsl_json__key(j, k ? "write_seeks" : "read_seeks");
			fsl_json__obj_begin(j);
			fsl_json__kv_u64(j, "dispatches", dd->d2d);
			fsl_json__kv_u64(j, "seeks", dd->seeks);
			fsl_json__kv_double(j, "seeks_per_s", r3(secs > 0 ? dd->seeks / secs : 0));
			fsl_json__kv_double(j, "seek_mean_sectors",
					    r3(dd->d2d ? (double)dd->seek_total / dd->d2d : 0));
			fsl_json__obj_end(j);
		}
		fsl_json__key(j, "seek_log2_sectors");
		fsl_json__obj_begin(j);
		fsl_hist_log2(&d->seek_dist, l2);
		for (k = 0; k < 64; k++)
			if (l2[k]) {
				snprintf(b, sizeof(b), "%" PRIu64, (uint64_t)(k ? 1ull << k : 0));
				fsl_json__kv_u64(j, b, l2[k]);
			}
		fsl_json__obj_end(j);
		fsl_json__key(j, "issuers");
		fsl_json__arr_begin(j);
		for (k = 0; k < d->nissuers; k++) {
			fsl_json__obj_begin(j);
			fsl_json__kv_str(j, "comm", d->issuers[k].comm);
			fsl_json__kv_u64(j, "ios", d->issuers[k].ios);
			fsl_json__kv_u64(j, "bytes", d->issuers[k].bytes);
			kv_us(j, "q2c_avg_us", d->issuers[k].ios ? d->issuers[k].q2c_ns / d->issuers[k].ios : 0);
			kv_us(j, "q2c_max_us", d->issuers[k].q2c_max_ns);
			fsl_json__obj_end(j);
		}
		fsl_json__arr_end(j);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
}

static void readdir_cost(struct fsl_json *j, const char *key, const struct fsl_readdir_cost *c)
{
	fsl_json__key(j, key);
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "block_changes", c->changes);
	fsl_json__kv_u64(j, "blocks_travelled", c->travel);
	fsl_json__kv_u64(j, "first_read_travel", c->first_travel);
	fsl_json__kv_u64(j, "first_read_backward", c->backward);
	fsl_json__obj_end(j);
}

static void readdir_fields(struct fsl_json *j, const struct fsl_readdir_dir *d, int geo)
{
	fsl_json__kv_u64(j, "entries", d->entries);
	fsl_json__kv_u64(j, "pairs", d->pairs);
	fsl_json__kv_u64(j, "ascending", d->ascending);
	fsl_json__kv_double(j, "ascending_fraction",
			    d->pairs ? r3((double)d->ascending / d->pairs) : 0.0);
	fsl_json__kv_bool(j, "truncated", !!(d->flags & (FSL_DIRENTS_TRUNC | FSL_DIRENTS_FAULT)));
	if (geo) {
		fsl_json__kv_u64(j, "itable_blocks", d->blocks);
		readdir_cost(j, "readdir_order", &d->rd);
		readdir_cost(j, "inode_order", &d->io);
	}
}

/* layout.readdir: readdir (hash) order vs inode order, null without dirents. */
/* How many of n entries a long list shows; its total and a truncated flag are said beside. */
static unsigned int list_cap(const struct fsl_report_info *info, unsigned int n)
{
	return info->json_full || n <= FSL_JSON_LIST_MAX ? n : FSL_JSON_LIST_MAX;
}

static void readdir_obj(struct fsl_json *j, const struct fsl_layout *l,
			const struct fsl_report_info *info)
{
	const struct fsl_readdir_dir *d;
	struct fsl_readdir_dir t;
	unsigned int n, i;
	int geo;

	n = fsl_layout__readdir(l, &d, &t, &geo);
	fsl_json__key(j, "readdir");
	if (!n) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "streams", n);
	fsl_json__kv_bool(j, "dirs_truncated", list_cap(info, n) < n);
	fsl_json__kv_bool(j, "geometry", geo);
	readdir_fields(j, &t, geo);
	fsl_json__key(j, "dirs");
	fsl_json__arr_begin(j);
	for (i = 0; i < list_cap(info, n); i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "pid", d[i].pid);
		fsl_json__kv_s64(j, "fd", d[i].fd);
		fsl_json__kv_u64(j, "ts_ns", d[i].ts);
		fsl_json__kv_bool(j, "open", !!(d[i].flags & FSL_READDIR_OPEN));
		if (d[i].path[0])
			fsl_json__kv_str(j, "path", d[i].path);
		else
			fsl_json__kv_null(j, "path");
		readdir_fields(j, &d[i], geo);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
}

/* What the goal group offered when a break's extent went elsewhere. */
static void json_offer(struct fsl_json *j, const struct fsl_goal_offer *o)
{
	unsigned int k;

	fsl_json__key(j, "goal_group_offer");
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "group", o->group);
	fsl_json__kv_bool(j, "goal_free", o->goal_free);
	fsl_json__kv_bool(j, "goal_tried", o->goal_tried);
	fsl_json__kv_bool(j, "normalized_start_known", o->norm_known);
	fsl_json__kv_u64(j, "free_at_normalized_start", o->at_norm);
	fsl_json__kv_bool(j, "fit_at_goal", o->fit_at_goal);
	fsl_json__kv_bool(j, "fit_in_group", o->fit_in_group);
	fsl_json__kv_u64(j, "free_blocks", o->free);
	fsl_json__kv_u64(j, "free_extents", o->extents);
	fsl_json__kv_u64(j, "largest_start", o->largest_start);
	fsl_json__kv_u64(j, "largest_len", o->largest_len);
	fsl_json__kv_u64(j, "result_len", o->result_len);
	fsl_json__kv_u64(j, "result_free", o->result_free);
	fsl_json__key(j, "nearest");
	fsl_json__arr_begin(j);
	for (k = 0; k < o->nnear; k++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "start", o->near_start[k]);
		fsl_json__kv_u64(j, "len", o->near_len[k]);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
}

static void layout_obj(struct fsl_json *j, struct fsl_analysis *a,
		       const struct fsl_report_info *info)
{
	const struct fsl_layout *l = fsl_analysis__layout(a);
	const struct fsl_frag_break *br;
	uint64_t hist[16];
	unsigned int n, i;
	char b[160];

	fsl_json__key(j, "layout");
	if (!l) {
		fsl_json__null(j);
		return;
	}
	fsl_json__obj_begin(j);
	fsl_json__kv_u64(j, "files", fsl_layout__files(l));
	fsl_json__kv_u64(j, "fragmented_files", fsl_layout__fragmented(l));
	{
		const struct fsl_allocstat *as = fsl_analysis__allocstat(a);

		fsl_json__key(j, "allocator");
		if (!as) {
			fsl_json__null(j);
		} else {
			fsl_json__obj_begin(j);
			fsl_json__kv_u64(j, "searches", as->decisions);
			fsl_json__key(j, "by_cr");
			fsl_json__arr_begin(j);
			for (i = 0; i < FSL_ALLOC_CRS; i++)
				fsl_json__u64(j, as->by_cr[i]);
			fsl_json__arr_end(j);
			fsl_json__kv_u64(j, "goal_hits", as->goal_hits);
			fsl_json__kv_u64(j, "groups_scanned", as->groups);
			fsl_json__kv_u64(j, "blocks_asked", as->asked);
			fsl_json__kv_u64(j, "blocks_found", as->found);
			fsl_json__kv_u64(j, "from_preallocation", as->prealloc);
			fsl_json__obj_end(j);
		}
	}
	fsl_layout__extent_hist(l, hist);
	fsl_json__key(j, "extents_log2");
	fsl_json__obj_begin(j);
	for (i = 0; i < 16; i++)
		if (hist[i]) {
			snprintf(b, sizeof(b), "%u", 1u << i);
			fsl_json__kv_u64(j, b, hist[i]);
		}
	fsl_json__obj_end(j);
	{
		uint64_t dh[16];
		double mean;
		uint64_t cnt = fsl_layout__inode_distance(l, dh, &mean);

		fsl_json__key(j, "inode_distance");
		if (!cnt) {
			fsl_json__null(j);
		} else {
			fsl_json__obj_begin(j);
			double ms;
			uint64_t med, ns = fsl_layout__inode_distance_sectors(l, &ms, &med);

			fsl_json__kv_u64(j, "files", cnt);
			fsl_json__kv_double(j, "mean_groups", r3(mean));
			/* the files whose group's inode table is recorded */
			fsl_json__kv_u64(j, "files_sectors", ns);
			fsl_json__kv_double(j, "mean_sectors", r3(ms));
			fsl_json__kv_u64(j, "median_sectors", med);
			fsl_json__key(j, "groups_log2");
			fsl_json__obj_begin(j);
			for (i = 0; i < 16; i++)
				if (dh[i]) {
					snprintf(b, sizeof(b), "%u", i ? 1u << (i - 1) : 0);
					fsl_json__kv_u64(j, b, dh[i]);
				}
			fsl_json__obj_end(j);
			fsl_json__obj_end(j);
		}
	}
	readdir_obj(j, l, info);
	n = fsl_layout__breaks(l, &br);
	fsl_json__kv_u64(j, "breaks_total", n);
	fsl_json__kv_bool(j, "breaks_truncated", list_cap(info, n) < n);
	fsl_json__key(j, "fragcheck");
	fsl_json__arr_begin(j);
	{
		/* with the lines of the files without extents, by inode as e2fsck prints */
		const struct fsl_ind_break *ib;
		unsigned int ni = fsl_analysis__ind_breaks(a, &ib, NULL), k = 0, shown;

		for (i = 0, shown = 0; shown < list_cap(info, n + ni) && (i < n || k < ni); shown++) {
			if (k < ni && (i >= n || ib[k].ino < br[i].ino)) {
				rn_ind_line(b, sizeof(b), &ib[k++]);
			} else {
				snprintf(b, sizeof(b), "%6" PRIu64 "(%c): expecting %6" PRIu64
					 " actual extent phys %6" PRIu64 " log %" PRIu64 " len %" PRIu64,
					 br[i].ino, br[i].kind, br[i].expect, br[i].phys, br[i].log,
					 br[i].len);
				i++;
			}
			fsl_json__str(j, b);
		}
	}
	fsl_json__arr_end(j);
	fsl_json__key(j, "breaks");
	fsl_json__arr_begin(j);
	for (i = 0; i < list_cap(info, n); i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "ino", br[i].ino);
		fsl_json__kv_strn(j, "kind", &br[i].kind, 1);
		fsl_json__kv_u64(j, "expect", br[i].expect);
		fsl_json__kv_u64(j, "phys", br[i].phys);
		fsl_json__kv_u64(j, "log", br[i].log);
		fsl_json__kv_u64(j, "len", br[i].len);
		fsl_json__kv_u64(j, "ns", br[i].ts);
		fsl_json__kv_str(j, "taker_kind", fsl_taker_kind_name(br[i].taker_kind));
		if (br[i].taker_ino) {
			fsl_json__kv_u64(j, "taker_ino", br[i].taker_ino);
			fsl_json__kv_u64(j, "taker_ns", br[i].taker_ts);
			fsl_json__kv_str(j, "taker_how", fsl_alloc_how_name(br[i].taker_how));
			fsl_json__kv_bool(j, "taker_near", br[i].taker_near);
			fsl_json__kv_u64(j, "taker_block", br[i].taker_block);
			fsl_json__kv_bool(j, "taken_later", br[i].taker_later);
		} else {
			fsl_json__kv_null(j, "taker_ino");
		}
		if (br[i].pa_ino) {
			fsl_json__key(j, "prealloc");
			fsl_json__obj_begin(j);
			fsl_json__kv_u64(j, "creator_ino", br[i].pa_ino);
			fsl_json__kv_u64(j, "ns", br[i].pa_ts);
			fsl_json__kv_u64(j, "start", br[i].pa_start);
			fsl_json__kv_u64(j, "len", br[i].pa_len);
			fsl_json__kv_bool(j, "reserved_before", br[i].pa_reserved);
			fsl_json__obj_end(j);
		}
		if (br[i].have_decision) {
			fsl_json__key(j, "decision");
			fsl_json__obj_begin(j);
			fsl_json__kv_u64(j, "goal", br[i].goal);
			fsl_json__kv_u64(j, "request_len", br[i].req_len);
			if (br[i].norm_known)
				fsl_json__kv_u64(j, "normalized_start", br[i].norm_start);
			else
				fsl_json__kv_null(j, "normalized_start");
			fsl_json__kv_u64(j, "normalized_len", br[i].norm_len);
			fsl_json__kv_u64(j, "cr", br[i].cr);
			if (br[i].cr_name)
				fsl_json__kv_str(j, "cr_name", br[i].cr_name);
			else
				fsl_json__kv_null(j, "cr_name");
			fsl_json__kv_u64(j, "groups_scanned", br[i].groups_scanned);
			fsl_json__obj_end(j);
		}
		if (br[i].offer.have)
			json_offer(j, &br[i].offer);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
	{
		struct fsl_break_pos p;
		unsigned int k;

		fsl_layout__break_pos(l, &p);
		fsl_json__key(j, "break_positions");
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "breaks", p.breaks);
		fsl_json__kv_u64(j, "writeback_limit", p.wb_limit);
		fsl_json__kv_u64(j, "writeback_limit_blocks", p.wb_len);
		fsl_json__kv_u64(j, "mb_stream_req", p.stream_req);
		fsl_json__kv_u64(j, "mb_stream_req_blocks", p.stream_len);
		fsl_json__kv_u64(j, "mb_group_prealloc", p.group_pa);
		fsl_json__kv_u64(j, "mb_group_prealloc_blocks", p.group_len);
		fsl_json__kv_u64(j, "other", p.other);
		fsl_json__key(j, "other_top");
		fsl_json__arr_begin(j);
		for (k = 0; k < 3 && p.other_n[k]; k++) {
			fsl_json__obj_begin(j);
			fsl_json__kv_u64(j, "log", p.other_log[k]);
			fsl_json__kv_u64(j, "breaks", p.other_n[k]);
			fsl_json__obj_end(j);
		}
		fsl_json__arr_end(j);
		fsl_json__obj_end(j);
	}
	fsl_json__obj_end(j);
}

static void procs_arr(struct fsl_json *j, struct fsl_analysis *a)
{
	const struct fsl_proc_stat *ps;
	unsigned int n = fsl_analysis__procs(a, &ps), i, k;
	static const char *const roles[] = { "workload", "kthread", "other" };

	fsl_json__key(j, "processes");
	fsl_json__arr_begin(j);
	for (i = 0; i < n && i < 50; i++) {
		fsl_json__obj_begin(j);
		fsl_json__kv_u64(j, "pid", ps[i].pid);
		fsl_json__kv_str(j, "comm", ps[i].comm);
		fsl_json__kv_str(j, "role", roles[ps[i].role < 3 ? ps[i].role : 2]);
		fsl_json__kv_str(j, "cgroup", ps[i].cgroup[0] ? ps[i].cgroup : NULL);
		fsl_json__kv_u64(j, "blocked_ns", ps[i].blocked_ns);
		fsl_json__key(j, "blocked_by_class_ns");
		fsl_json__obj_begin(j);
		for (k = 0; k < FSL_WC__MAX; k++)
			if (ps[i].ns[k])
				fsl_json__kv_u64(j, fsl_wclass_id(k), ps[i].ns[k]);
		fsl_json__obj_end(j);
		fsl_json__kv_u64(j, "ops", ps[i].ops);
		kv_us(j, "op_p99_us", fsl_hist_quantile(&ps[i].op_lat, 0.99));
		fsl_json__kv_u64(j, "read_bytes", ps[i].read_bytes);
		fsl_json__kv_u64(j, "write_bytes", ps[i].write_bytes);
		fsl_json__kv_u64(j, "throttle_ns", ps[i].throttle_ns);
		fsl_json__obj_end(j);
	}
	fsl_json__arr_end(j);
}

int fsl_report__json(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	struct fsl_report_info dflt = { 0 };
	struct fsl_json j;
	uint64_t t0, t1;
	uint32_t sec;

	if (!info)
		info = &dflt;
	sec = info->sections ? info->sections : FSL_SEC_ALL;
	fsl_json__init(&j, f, 1);
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "version", FSL_REPORT_JSON_VERSION);
	trace_obj(&j, a, info);
	fsl_analysis__window(a, &t0, &t1);
	fsl_json__key(&j, "window");
	fsl_json__obj_begin(&j);
	fsl_json__kv_u64(&j, "t0_ns", t0);
	fsl_json__kv_u64(&j, "t1_ns", t1);
	fsl_json__obj_end(&j);
	if (sec & FSL_SEC_DIAGNOSIS)
		causes(&j, a);
	if (sec & FSL_SEC_OPS) {
		ops_obj(&j, a);
		data_obj(&j, a);
	}
	if ((sec & FSL_SEC_JOURNAL) && !rn_is_xfs(a))
		journal_obj(&j, a);
	if (sec & FSL_SEC_WRITEBACK)
		writeback_obj(&j, a);
	if (sec & FSL_SEC_BLOCKIO)
		blockio_arr(&j, a);
	if ((sec & FSL_SEC_LAYOUT) && rn_is_xfs(a))
		rn_xfs_json(&j, a, info);
	else if (sec & FSL_SEC_LAYOUT)
		layout_obj(&j, a, info);
	if (sec & FSL_SEC_DIAGNOSIS)
		procs_arr(&j, a);
	fsl_json__obj_end(&j);
	fsl_json__newline(&j);
	if (fsl_json__error(&j))
		return fsl_json__error(&j);
	return ferror(f) ? -EIO : 0;
}
