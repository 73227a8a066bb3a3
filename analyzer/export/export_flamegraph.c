// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph SVG drawn straight from folded stacks ("a;b;c N" lines, as
 * fsl_folded_export__write gives them), so no flamegraph.pl is needed. The
 * file is self-contained: inline style and script, no external reference.
 * Frames are merged by name under the same parent, children sorted by name
 * (flamegraph.pl's order), the root at the bottom; a box's width is its
 * share of the total. Click a box to zoom on it (its ancestors stay as
 * context), click the root or "Reset Zoom" to go back; hovering shows the
 * frame, its count and its share. Each box carries data-v (its count) so
 * tests and scripts can read the values back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"

struct fg_node {
	char *name;
	uint64_t v;
	struct fg_node **kids;
	size_t nkids, capkids;
};

#define FG_WIDTH	1200
#define FG_PAD		10
#define FG_ROW		16
#define FG_TOP		60	/* title, details and zoom line */
#define FG_MIN_PX	0.1	/* narrower boxes are not drawn (flamegraph.pl's minwidth) */

static struct fg_node *node_new(const char *name, size_t len)
{
	struct fg_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->name = strndup(name, len);
	if (!n->name) {
		free(n);
		return NULL;
	}
	return n;
}

static void node_free(struct fg_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nkids; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n);
}

static struct fg_node *child(struct fg_node *p, const char *name, size_t len)
{
	struct fg_node *c;
	size_t i;

	for (i = 0; i < p->nkids; i++)
		if (strlen(p->kids[i]->name) == len && !memcmp(p->kids[i]->name, name, len))
			return p->kids[i];
	if (p->nkids == p->capkids) {
		size_t cap = p->capkids ? p->capkids * 2 : 4;
		struct fg_node **k = realloc(p->kids, cap * sizeof(*k));

		if (!k)
			return NULL;
		p->kids = k;
		p->capkids = cap;
	}
	c = node_new(name, len);
	if (c)
		p->kids[p->nkids++] = c;
	return c;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct fg_node *const *)a)->name, (*(struct fg_node *const *)b)->name);
}

static unsigned int depth_of(struct fg_node *n)
{
	unsigned int d = 0, k;
	size_t i;

	if (n->nkids > 1)
		qsort(n->kids, n->nkids, sizeof(*n->kids), by_name);
	for (i = 0; i < n->nkids; i++) {
		k = depth_of(n->kids[i]);
		if (k > d)
			d = k;
	}
	return d + 1;
}

/* One line "f1;f2;...;fn COUNT" into the tree; -EINVAL if it has no count. */
static int add_line(struct fg_node *root, const char *s, size_t len)
{
	const char *sp = NULL, *p, *end;
	struct fg_node *n = root;
	unsigned long long v;
	char *e;

	for (p = s; p < s + len; p++)
		if (*p == ' ')
			sp = p;
	if (!sp)
		return -EINVAL;
	v = strtoull(sp + 1, &e, 10);
	if (e != s + len)
		return -EINVAL;
	root->v += v;
	for (p = s; p < sp; p = end + 1) {
		end = memchr(p, ';', (size_t)(sp - p));
		if (!end)
			end = sp;
		n = child(n, p, (size_t)(end - p));
		if (!n)
			return -ENOMEM;
		n->v += v;
	}
	return 0;
}

static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* XML 1.0 has no control characters but tab, LF, CR */
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
		}
	}
}

/* A warm colour from the name, stable across files (flamegraph.pl's "hot"). */
static void colour(const char *name, char *buf, size_t len)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(buf, len, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 230, (h >> 16) % 55);
}

struct fg_draw {
	FILE *f;
	double scale;		/* px per count */
	unsigned int depth;
	const char *count_name;
	uint64_t total;
};

static void draw(struct fg_draw *d, const struct fg_node *n, double x, unsigned int level)
{
	double w = (double)n->v * d->scale, cx = x;
	double y = FG_TOP + (double)(d->depth - 1 - level) * FG_ROW;
	char fill[32];
	size_t i;

	if (w < FG_MIN_PX)
		return;
	colour(n->name, fill, sizeof(fill));
	fputs("<g class=\"f\"><title>", d->f);
	xml_str(d->f, n->name);
	fprintf(d->f, " (%" PRIu64 " %s, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%d\" fill=\"%s\" rx=\"2\" data-v=\"%" PRIu64 "\" data-name=\"", n->v,
		d->count_name, d->total ? 100.0 * (double)n->v / (double)d->total : 0.0, x, y, w,
		FG_ROW - 1, level ? fill : "rgb(230,230,230)", n->v);
	xml_str(d->f, n->name);
	fprintf(d->f, "\"/><text x=\"%.1f\" y=\"%.1f\"></text></g>\n", x + 3, y + FG_ROW - 4);
	for (i = 0; i < n->nkids; i++) {
		draw(d, n->kids[i], cx, level + 1);
		cx += (double)n->kids[i]->v * d->scale;
	}
}

/* Zoom and labels; the labels are set by the script so zooming can redo them. */
static const char script[] =
"var W = %d, PAD = %d, frames, details, zoomed = null;\n"
"function init() {\n"
"  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
"  details = document.getElementById('details');\n"
"  frames.forEach(function (g) {\n"
"    var r = g.querySelector('rect');\n"
"    g.ox = +r.getAttribute('x'); g.ow = +r.getAttribute('width'); g.y = +r.getAttribute('y');\n"
"    g.onclick = function () { zoom(g); };\n"
"    g.onmouseover = function () { details.textContent = g.querySelector('title').textContent; };\n"
"    g.onmouseout = function () { details.textContent = ' '; };\n"
"  });\n"
"  document.getElementById('unzoom').onclick = function () { zoom(null); };\n"
"  zoom(null);\n"
"}\n"
"function label(g, x, w) {\n"
"  var t = g.querySelector('text'), name = g.querySelector('rect').getAttribute('data-name');\n"
"  var fit = Math.floor((w - 6) / 7);\n"
"  t.setAttribute('x', x + 3);\n"
"  t.textContent = fit >= name.length ? name : fit >= 3 ? name.substr(0, fit - 2) + '..' : '';\n"
"}\n"
"function zoom(z) {\n"
"  var x0 = z ? z.ox : PAD, w0 = z ? z.ow : W - 2 * PAD, k = (W - 2 * PAD) / w0;\n"
"  zoomed = z;\n"
"  frames.forEach(function (g) {\n"
"    var r = g.querySelector('rect'), inside = g.ox >= x0 - 1e-6 && g.ox + g.ow <= x0 + w0 + 1e-6;\n"
"    var below = z && g.y > z.y && g.ox <= x0 + 1e-6 && g.ox + g.ow >= x0 + w0 - 1e-6;\n"
"    if (!z || (inside && g.y <= z.y)) {\n"
"      var x = PAD + (g.ox - x0) * k, w = g.ow * k;\n"
"      r.setAttribute('x', x); r.setAttribute('width', w); label(g, x, w);\n"
"      g.style.display = ''; g.style.opacity = '';\n"
"    } else if (below) {\n"
"      r.setAttribute('x', PAD); r.setAttribute('width', W - 2 * PAD); label(g, PAD, W - 2 * PAD);\n"
"      g.style.display = ''; g.style.opacity = '0.5';\n"
"    } else {\n"
"      g.style.display = 'none';\n"
"    }\n"
"  });\n"
"  document.getElementById('unzoom').style.opacity = z ? '1' : '0';\n"
"}\n";

int fsl_flamegraph_svg(FILE *out, const char *folded, size_t len, const char *title,
		       const char *count_name)
{
	struct fg_node *root = node_new("all", 3);
	struct fg_draw d = { .f = out, .count_name = count_name ? count_name : "" };
	const char *p = folded, *nl;
	unsigned int height;
	int err = 0;

	if (!root)
		return -ENOMEM;
	while (p < folded + len) {
		nl = memchr(p, '\n', (size_t)(folded + len - p));
		if (!nl)
			nl = folded + len;
		if (nl > p && (err = add_line(root, p, (size_t)(nl - p))) == -ENOMEM)
			break;
		err = 0;	/* a line without a count is skipped, as flamegraph.pl does */
		p = nl + 1;
	}
	if (err) {
		node_free(root);
		return err;
	}
	d.depth = depth_of(root);
	d.total = root->v;
	d.scale = root->v ? (double)(FG_WIDTH - 2 * FG_PAD) / (double)root->v : 0;
	height = FG_TOP + d.depth * FG_ROW + FG_PAD;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%u\" viewBox=\"0 0 %d %u\" onload=\"init()\">\n"
		"<style>text { font: 12px Verdana, sans-serif; fill: #000; } "
		"g.f text { pointer-events: none; } g.f:hover rect { stroke: #000; stroke-width: 0.5; } "
		"g.f { cursor: pointer; } #title { font-size: 17px; } "
		"#unzoom { cursor: pointer; fill: #36c; }</style>\n<script><![CDATA[\n",
		FG_WIDTH, height, FG_WIDTH, height);
	fprintf(out, script, FG_WIDTH, FG_PAD);
	fprintf(out, "]]></script>\n<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
		"fill=\"#fdf6ec\"/>\n<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">",
		FG_WIDTH / 2);
	xml_str(out, title ? title : "Flame graph");
	fprintf(out, "</text>\n<text id=\"unzoom\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n<g id=\"frames\">\n",
		FG_PAD, FG_PAD, FG_TOP - 12);
	if (root->v)
		draw(&d, root, FG_PAD, 0);
	else
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no samples</text>\n",
			FG_WIDTH / 2, FG_TOP + FG_ROW);
	fputs("</g>\n</svg>\n", out);
	node_free(root);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
