// SPDX-License-Identifier: GPL-2.0
/*
 * HTML report: one self-contained file (no network, no scripts) with inline
 * SVG charts: block offset vs time with seeks/s and MB/s (as seekwatcher
 * draws it), an operation latency heatmap, blocked time by wait class over
 * time, and the journal commit timeline; then the text report.
 *
 * Every chart shares one time axis (the report's span, seconds from its
 * start) with round ticks (1, 2 or 5 times a power of ten), the scenario's
 * phases (NAME.phases beside the trace) drawn as dashed markers, and marks
 * that carry their numbers (data-* attributes) so a browser test can count
 * them: the journal chart draws every commit, one bar per time bin (with
 * data-commits) once there are more than it keeps one by one.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_internal.h"
#include "../../scenarios/phases.h"

#define CW 900		/* chart width */
#define ML 70		/* left margin */
#define MR 20
#define PW (CW - ML - MR)

static const char *const class_colors[FSL_WC__MAX] = {
	"#d62728", "#ff7f0e", "#e377c2", "#9467bd", "#8c564b", "#2ca02c", "#17becf",
	"#bcbd22", "#1f77b4", "#393b79", "#637939", "#8c6d31", "#843c39", "#aec7e8", "#ffbb78", "#98df8a", "#7f7f7f", "#c7c7c7",
};
static const char *const trig_colors[FSL_TRIG__MAX] = {
	"#7f7f7f", "#1f77b4", "#9467bd", "#ff7f0e", "#d62728", "#2ca02c",
};

static void esc(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

static void svg_begin(FILE *f, int h, const char *title)
{
	fprintf(f, "<h3>%s</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", title, CW, h, CW, h);
}

/* A round tick step for an axis to max with about n ticks: 1, 2 or 5 x 10^k. */
static double nice_step(double max, int n)
{
	double raw = max / n, p, m;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Decimals a tick label of that step needs: 0.25 -> 2, 5 -> 0. */
static int step_decimals(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - floor(step * pow(10, d) + 0.5)) > 1e-6)
		d++;
	return d;
}

/* The phases of the scenario run, when a NAME.phases file lies beside the trace. */
static struct fsl_phase_log html_phases;
static uint64_t html_t0;

/*
 * Frame, round ticks and labels of a plot at y0 with height ph; x is the
 * shared time axis (secs from the report's start). The x label sits below
 * the tick labels and the y label above the frame, so neither overlaps them.
 */
static void axes(FILE *f, int y0, int ph, double xmax, const char *xlab, double ymax, const char *ylab)
{
	double step, v;
	unsigned int i;
	int d;

	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#999\"/>\n", ML, y0, PW, ph);
	if (xmax > 0) {
		step = nice_step(xmax, 6);
		d = step_decimals(step);
		for (v = 0; v <= xmax * (1 + 1e-9); v += step) {
			double x = ML + PW * v / xmax;

			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>"
				"<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n",
				x, y0 + ph, x, y0 + ph + 4, x, y0 + ph + 15, d, v);
		}
	}
	if (ymax > 0) {	/* 0: the caller labels the rows itself */
		step = nice_step(ymax, 4);
		d = step_decimals(step);
		for (v = 0; v <= ymax * (1 + 1e-9); v += step)
			fprintf(f, "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n",
				ML - 5, y0 + ph - ph * v / ymax + 4, d, v);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", ML + PW, y0 + ph + 29, xlab);
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", ML, y0 - 5, ylab);
	/* phases: a dashed line at each start, named */
	for (i = 0; i < html_phases.nphases; i++) {
		const struct fsl_phase_rec *p = &html_phases.phases[i];
		double x;

		if (xmax <= 0 || p->start_ns < html_t0 || (p->start_ns - html_t0) / 1e9 > xmax)
			continue;
		x = ML + PW * ((p->start_ns - html_t0) / 1e9) / xmax;
		fprintf(f, "<line class=\"phase\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#444\" stroke-dasharray=\"3,3\"/><text x=\"%.1f\" y=\"%d\" "
			"font-size=\"9\" fill=\"#444\">", x, y0, x, y0 + ph, x + 2, y0 + 10 + 10 * (int)(i % 2));
		esc(f, p->name, sizeof(p->name));
		fputs("</text>\n", f);
	}
}

/* x of a time bin's start on the shared axis. */
static double bin_x(const struct fsl_timebase *tb, unsigned int i, uint64_t t0, double secs)
{
	double off = tb->t0 > t0 ? (tb->t0 - t0) / 1e9 : 0;

	return ML + PW * (off + i * (tb->width_ns / 1e9)) / secs;
}

/* A line chart of one series (values per bin scaled by `scale`) on the report's time axis. */
static void line(FILE *f, int y0, int ph, const struct fsl_timebase *tb, const uint64_t *s,
		 uint64_t t0, double secs, double scale, const char *color, double *ymax_out)
{
	double ymax = 0, w = tb->width_ns / 1e9, off;
	unsigned int i, n = tb->nbins;

	for (i = 0; i < n; i++)
		if (s[i] * scale > ymax)
			ymax = s[i] * scale;
	if (ymax_out)
		*ymax_out = ymax;
	if (!n || ymax <= 0 || secs <= 0)
		return;
	off = tb->t0 > t0 ? (tb->t0 - t0) / 1e9 : 0;
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" points=\"", color);
	for (i = 0; i < n; i++)
		fprintf(f, "%.1f,%.1f ", ML + PW * (off + (i + 0.5) * w) / secs,
			y0 + ph - ph * (s[i] * scale) / ymax);
	fputs("\"/>\n", f);
}

static void chart_io(FILE *f, struct fsl_analysis *a, uint64_t t0, uint64_t t1)
{
	const struct fsl_blockio *io = fsl_analysis__blockio(a);
	unsigned int i, k;
	char b[32];

	if (!io)
		return;
	for (i = 0; i < io->ndevs; i++) {
		const struct fsl_dev_io *d = &io->devs[i];
		uint64_t smin = UINT64_MAX, smax = 0;
		double secs = (t1 - t0) / 1e9, ymax, w;
		char title[96];

		if (!d->npoints)
			continue;
		for (k = 0; k < d->npoints; k++) {
			if (d->points[k].sector < smin)
				smin = d->points[k].sector;
			if (d->points[k].sector + d->points[k].nr_sector > smax)
				smax = d->points[k].sector + d->points[k].nr_sector;
		}
		if (smax <= smin)
			smax = smin + 1;
		if (secs <= 0)
			secs = 1;
		snprintf(title, sizeof(title), "Block I/O on %s: offset vs time, seeks/s, MB/s",
			 rn_dev(b, sizeof(b), d->dev));
		svg_begin(f, 580, title);
		axes(f, 20, 280, secs, "seconds", (smax - smin) * 512.0 / 1048576, "offset (MiB from lowest)");
		for (k = 0; k < d->npoints; k++) {
			const struct fsl_io_point *p = &d->points[k];
			double x = ML + PW * ((p->ts > t0 ? p->ts - t0 : 0) / 1e9) / secs;
			double y = 20 + 280 - 280.0 * (p->sector - smin) / (smax - smin);

			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"%s\"/>\n", x, y,
				(p->flags & FSL_RQ_WRITE) ? "#d62728" : "#1f77b4");
		}
		fprintf(f, "<text x=\"%d\" y=\"12\" fill=\"#1f77b4\">reads</text><text x=\"%d\" y=\"12\" "
			"fill=\"#d62728\">writes</text>\n", ML + PW - 80, ML + PW - 40);
		w = d->tb.width_ns ? d->tb.width_ns / 1e9 : 1;
		line(f, 340, 80, &d->tb, d->series_seeks, t0, secs, 1 / w, "#9467bd", &ymax);
		axes(f, 340, 80, secs, "seconds", ymax, "seeks/s");
		line(f, 460, 80, &d->tb, d->series_bytes, t0, secs, 1 / w / 1e6, "#2ca02c", &ymax);
		axes(f, 460, 80, secs, "seconds", ymax, "MB/s");
		fputs("</svg>\n", f);
	}
}

static void chart_heat(FILE *f, struct fsl_analysis *a, uint64_t t0, uint64_t t1)
{
	double secs = t1 > t0 ? (t1 - t0) / 1e9 : 1;
	const struct fsl_ops *o = fsl_analysis__ops(a);
	uint32_t max = 0;
	unsigned int i, r, rmax = 0;
	double cw, w;

	if (!o || !o->tb.nbins)
		return;
	for (i = 0; i < o->tb.nbins; i++)
		for (r = 0; r < 24; r++)
			if (o->heat[i][r]) {
				if (o->heat[i][r] > max)
					max = o->heat[i][r];
				if (r > rmax)
					rmax = r;
			}
	if (!max)
		return;
	svg_begin(f, 356, "Operation latency heatmap (count per time bin and log2 latency)");
	cw = PW * (o->tb.width_ns / 1e9) / secs;
	for (i = 0; i < o->tb.nbins; i++)
		for (r = 0; r <= rmax; r++) {
			double v;

			if (!o->heat[i][r])
				continue;
			v = log(1 + o->heat[i][r]) / log(1 + max);
			fprintf(f, "<rect class=\"heat\" data-n=\"%u\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"rgb(%d,%d,%d)\"><title>%u ops</title></rect>\n",
				o->heat[i][r], bin_x(&o->tb, i, t0, secs),
				20 + 280 - 280.0 * (r + 1) / (rmax + 1), cw + 0.3, 280.0 / (rmax + 1),
				255, (int)(230 * (1 - v)), (int)(200 * (1 - v)), o->heat[i][r]);
		}
	w = o->tb.width_ns / 1e9;
	(void)w;
	axes(f, 20, 280, secs, "seconds", 0, "latency");
	/* the colour scale: log of the count, 1 to the most in one cell */
	fputs("<defs><linearGradient id=\"heatscale\"><stop offset=\"0\" stop-color=\"rgb(255,230,200)\"/>"
	      "<stop offset=\"1\" stop-color=\"rgb(255,0,0)\"/></linearGradient></defs>\n", f);
	fprintf(f, "<g class=\"scale\"><rect x=\"%d\" y=\"338\" width=\"200\" height=\"10\" "
		"fill=\"url(#heatscale)\" stroke=\"#999\"/><text x=\"%d\" y=\"347\" text-anchor=\"end\">"
		"1 op</text><text x=\"%d\" y=\"347\">%u ops per cell (log scale)</text></g>\n",
		ML + PW - 200 - 150, ML + PW - 200 - 154, ML + PW - 146, max);
	for (r = 0; r <= rmax; r += 2)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s%llu us</text>\n", ML - 4,
			20 + 280 - 280.0 * (r + 0.5) / (rmax + 1), r ? "&lt;" : "",
			r ? 1ull << r : 1ull);
	fputs("</svg>\n", f);
}

static void chart_stalls(FILE *f, struct fsl_analysis *a, uint64_t t0, uint64_t t1)
{
	const struct fsl_stalls *s = fsl_analysis__stalls(a);
	double ymax = 0, w, cw, secs = t1 > t0 ? (t1 - t0) / 1e9 : 1;
	unsigned int i, c, lx, ly;

	if (!s->tb.nbins)
		return;
	w = s->tb.width_ns / 1e9;
	for (i = 0; i < s->tb.nbins; i++) {
		uint64_t tot = 0;

		for (c = 0; c < FSL_WC__MAX; c++)
			tot += s->series[c][i];
		if (tot / 1e9 / w > ymax)
			ymax = tot / 1e9 / w;
	}
	if (ymax <= 0)
		return;
	svg_begin(f, 380, "Workload blocked time by wait class (average tasks blocked)");
	cw = PW * w / secs;
	for (i = 0; i < s->tb.nbins; i++) {
		double y = 20 + 280;

		for (c = 0; c < FSL_WC__MAX; c++) {
			double h = 280 * (s->series[c][i] / 1e9 / w) / ymax;

			if (h <= 0)
				continue;
			y -= h;
			fprintf(f, "<rect class=\"stall\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%s</title></rect>\n", bin_x(&s->tb, i, t0, secs), y,
				cw + 0.3, h, class_colors[c], fsl_wclass_id(c));
		}
	}
	axes(f, 20, 280, secs, "seconds", ymax, "tasks blocked");
	for (c = 0, lx = ML, ly = 345; c < FSL_WC__MAX; c++) {
		unsigned int lw;

		if (!s->cls[c].ns[FSL_ROLE_WORKLOAD])
			continue;
		lw = 18 + 7 * strlen(fsl_wclass_id(c));
		if (lx + lw > ML + PW) {	/* the legend wraps instead of running off */
			lx = ML;
			ly += 16;
		}
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%u\" y=\"%u\">%s</text>\n", lx, ly - 9, class_colors[c], lx + 13, ly,
			fsl_wclass_id(c));
		lx += lw;
	}
	fputs("</svg>\n", f);
}

static void chart_journal(FILE *f, struct fsl_analysis *a, uint64_t t0, uint64_t t1)
{
	const struct fsl_journal *j = fsl_analysis__journal(a);
	double secs = (t1 - t0) / 1e9, ymax = 0;
	unsigned int i, lx;

	if (!j || (!j->ntxns && !j->commits))
		return;
	if (secs <= 0)
		secs = 1;
	/*
	 * More commits than the analysis keeps one by one (FSL_TXN_RING): draw
	 * them all from the commit series, one bar per bin, height the bin's
	 * average commit time, so the start of a long trace is not left empty.
	 */
	if (j->commits > j->ntxns && j->tb.nbins) {
		double cw = PW * (j->tb.width_ns / 1e9) / secs;

		for (i = 0; i < j->tb.nbins; i++)
			if (j->series_commits[i] &&
			    j->series_commit_ns[i] / 1e6 / j->series_commits[i] > ymax)
				ymax = j->series_commit_ns[i] / 1e6 / j->series_commits[i];
		if (ymax <= 0)
			ymax = 1;
		svg_begin(f, 360, "Journal commits: every commit, binned (height: average commit time "
			  "in the bin)");
		for (i = 0; i < j->tb.nbins; i++) {
			double avg, h;

			if (!j->series_commits[i])
				continue;
			avg = j->series_commit_ns[i] / 1e6 / j->series_commits[i];
			h = 280 * avg / ymax;
			fprintf(f, "<rect class=\"commit\" data-commits=\"%llu\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%.1f\" fill=\"#1f77b4\"><title>%llu commits, "
				"average %.2f ms</title></rect>\n",
				(unsigned long long)j->series_commits[i], bin_x(&j->tb, i, t0, secs),
				20 + 280 - (h < 1 ? 1 : h), cw < 1 ? 1 : cw, h < 1 ? 1 : h,
				(unsigned long long)j->series_commits[i], avg);
		}
		axes(f, 20, 280, secs, "seconds", ymax, "average commit ms");
		fprintf(f, "<text x=\"%d\" y=\"344\">%llu commits in %u bins of %.3g s</text>\n", ML,
			(unsigned long long)j->commits, j->tb.nbins, j->tb.width_ns / 1e9);
		fputs("</svg>\n", f);
		return;
	}
	for (i = 0; i < j->ntxns; i++)
		if (j->txns[i].t_end > j->txns[i].t_start && j->txns[i].t_start &&
		    (j->txns[i].t_end - j->txns[i].t_start) / 1e6 > ymax)
			ymax = (j->txns[i].t_end - j->txns[i].t_start) / 1e6;
	if (ymax <= 0)
		ymax = 1;
	svg_begin(f, 360, "Journal commits: start to end (width), commit time (height), trigger (colour)");
	for (i = 0; i < j->ntxns; i++) {
		const struct fsl_txn *t = &j->txns[i];
		double x0, x1, h;

		if (!t->t_start || t->t_end < t->t_start)
			continue;
		x0 = ML + PW * ((t->t_start > t0 ? t->t_start - t0 : 0) / 1e9) / secs;
		x1 = ML + PW * ((t->t_end > t0 ? t->t_end - t0 : 0) / 1e9) / secs;
		h = 280 * ((t->t_end - t->t_start) / 1e6) / ymax;
		fprintf(f, "<rect class=\"commit\" data-commits=\"1\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"><title>tid %u %s %.2f ms</title></rect>\n", x0, 20 + 280 - h,
			x1 - x0 < 1 ? 1 : x1 - x0, h < 1 ? 1 : h, trig_colors[t->trigger], t->tid,
			fsl_trigger_name(t->trigger), (t->t_end - t->t_start) / 1e6);
	}
	axes(f, 20, 280, secs, "seconds", ymax, "commit ms");
	for (i = 0, lx = ML; i < FSL_TRIG__MAX; i++) {
		fprintf(f, "<rect x=\"%u\" y=\"335\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%u\" y=\"344\">%s</text>\n", lx, trig_colors[i], lx + 13, fsl_trigger_name(i));
		lx += 90;
	}
	fputs("</svg>\n", f);
}

static void diag_table(FILE *f, struct fsl_analysis *a)
{
	struct fsl_diagnosis *d = malloc(sizeof(*d));
	unsigned int i;

	if (!d)
		return;
	fsl_analysis__diagnose(a, d);
	fprintf(f, "<h2>Diagnosis</h2>\n<p>Workload blocked %.2f s.", rn_sec(d->blocked_ns));
	if (d->whole.threads && d->whole.wall_ns) {
		const struct fsl_wholetime *w = &d->whole;
		double wall = w->wall_ns;

		fprintf(f, " Whole time: wall %.2f s over %u thread%s: on-CPU %.1f%%, runnable "
			"%.1f%%, blocked %.1f%%, other sleep %.1f%%%s", rn_sec(w->wall_ns), w->threads,
			w->threads == 1 ? "" : "s", 100 * w->oncpu_ns / wall, 100 * w->runq_ns / wall,
			100 * w->blocked_ns / wall, 100 * w->sleep_ns / wall,
			w->blocked_ns * 2 < w->wall_ns ? (d->has_cpu ?
			" (mostly not blocked: the causes below explain the blocked and the on-CPU "
			"parts)." : " (mostly not blocked: the causes below explain the blocked part "
			"only).") : ".");
	}
	if (d->has_cpu)
		fprintf(f, " On-CPU %.2f s (sampled at %.0f Hz); causes are ranked by blocked and "
			"on-CPU time together.", rn_sec(d->oncpu_ns), 1e9 / d->cpu.period_ns);
	fputs("</p>\n", f);
	fprintf(f, "<table><tr><th>#</th><th>cause</th><th>%s s</th><th>share</th><th>evidence</th>"
		"<th>change</th></tr>\n", d->has_cpu ? "time" : "blocked");
	for (i = 0; i < d->ncauses; i++) {
		const struct fsl_cause *c = &d->causes[i];

		fprintf(f, "<tr><td>%u</td><td><b>%s</b></td><td>%.3f</td><td>%.1f%%</td><td>", i + 1,
			fsl_cause_id(c), rn_sec(c->ns),
			100 * (d->has_cpu ? c->busy_share : c->share));
		esc(f, c->evidence, sizeof(c->evidence));
		fputs("</td><td>", f);
		esc(f, c->suggestion, sizeof(c->suggestion));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	free(d);
}

int fsl_report__html(FILE *f, struct fsl_analysis *a, const struct fsl_report_info *info)
{
	struct fsl_report_info all;
	uint64_t t0, t1;
	char *text = NULL;
	size_t tlen = 0;
	FILE *mem;

	rn_span(a, &t0, &t1);
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>fslens report</title>\n"
	      "<style>body{font-family:sans-serif;margin:1em 2em;max-width:1000px}"
	      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;"
	      "vertical-align:top;font-size:13px}pre{font-size:12px;background:#f8f8f8;padding:8px;"
	      "overflow-x:auto}</style></head><body>\n<h1>fslens report</h1>\n<p>", f);
	esc(f, info && info->trace_path ? info->trace_path : "", 4096);
	fprintf(f, " &mdash; host ");
	esc(f, rn_kv(a, FSL_KV_HOSTNAME), 256);
	fprintf(f, ", kernel ");
	esc(f, rn_kv(a, FSL_KV_KERNEL), 256);
	fprintf(f, ", %.2f s</p>\n", rn_sec(t1 - t0));
	diag_table(f, a);
	memset(&html_phases, 0, sizeof(html_phases));
	html_t0 = t0;
	if (info && info->trace_path) {
		char ppath[4096];

		fsl_phases_path(ppath, sizeof(ppath), info->trace_path);
		if (fsl_phase_log__load(&html_phases, ppath)) {
			fsl_phase_log__free(&html_phases);
			memset(&html_phases, 0, sizeof(html_phases));
		}
	}
	chart_stalls(f, a, t0, t1);
	chart_io(f, a, t0, t1);
	chart_heat(f, a, t0, t1);
	chart_journal(f, a, t0, t1);
	fsl_phase_log__free(&html_phases);
	memset(&html_phases, 0, sizeof(html_phases));
	mem = open_memstream(&text, &tlen);
	if (mem) {
		all = info ? *info : (struct fsl_report_info){ 0 };
		all.sections = FSL_SEC_ALL;
		fsl_report__text(mem, a, &all);
		fclose(mem);
		fputs("<h2>Full report</h2>\n<pre>", f);
		esc(f, text, tlen);
		fputs("</pre>\n", f);
		free(text);
	}
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
