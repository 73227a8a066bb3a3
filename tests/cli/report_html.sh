#!/bin/bash
# The HTML report in a real browser (headless Chromium, Debian's chromium,
# which make deps installs). Chromium lays the page out and a script in it
# reads every chart's marks from the rendered DOM (--dump-dom); they are
# checked against the same trace's report --json:
#  - journal: the commits drawn add up to the JSON's commits (1222 in the mix
#    trace, more than the 512 kept one by one: one bar per non-empty bin of
#    journal.timeline, with its count; in the golden trace one bar per
#    transaction, by tid), the first in the first second;
#  - heatmap: one cell per (bin, latency) with ops, each column's ops equal to
#    ops.rate.all of its bin, all of them ops.total; a colour scale;
#  - block I/O: a circle per dispatched request (red writes, blue reads, as
#    the JSON counts them; decimated to at most 4096), a seeks/s and a MB/s line;
#  - blocked time: the classes drawn are those with workload time in
#    blocked.classes, one legend entry each (the bars' heights are not checked:
#    the binning of long waits is being fixed elsewhere);
#  - every mark has a size and lies in its plot; tick labels are round (1, 2
#    or 5 x 10^k), every chart has the same time axis, phases are markers,
#    no text label overlaps another (getBBox after layout).
# Then a screenshot: it is not blank, and inside every chart's plot there are
# coloured pixels where the marks are (counted in the PNG with python3).
. "$(dirname "$0")/../lib.sh"
MK=$T_BUILD/tests/fsl_mktrace
PY=$(python3 -c 'import sys; print(sys.executable)')
cd "$T_TMP" || exit 1
"$MK" mix.trace mix 1200000 || { fail mktrace "fsl_mktrace failed"; exit 1; }
t0=$("$FSLENS" dump --json -e journal mix.trace 2>/dev/null | head -1 | sed -E 's/.*"ts_ns":([0-9]+).*/\1/')
{
	echo "# fslens phases 1"; echo "scenario test"; echo "scale small"
	echo "phase 1 first $((t0 + 1500000000)) $((t0 + 3000000000)) 10 0"
	echo "phase 1 second $((t0 + 3000000000)) $((t0 + 5000000000)) 10 0"
} >mix.phases
cp "$TOP/tests/data/golden.trace" golden.trace
for h in mix golden; do
	"$FSLENS" report $h.trace --html $h.html >/dev/null 2>err
	check_eq "$h-html-rc" $? 0
	"$FSLENS" report $h.trace --json >$h.json 2>err
	check_eq "$h-json-rc" $? 0
done
check_eq mix-commits-in-json "$("$PY" -c 'import json; print(json.load(open("mix.json"))["journal"]["commits"])')" \
	"$("$FSLENS" dump -e journal mix.trace | grep -c ' jbd2_end_commit ')"

CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$CHROME" ]; then
	skip browser "no chromium (make deps installs it)"
	exit $((T_FAILS != 0))
fi
chrome() { timeout 90 "$CHROME" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
	--force-device-scale-factor=1 "$@" 2>/dev/null; }

# runs in the page after layout: every chart's marks, boxes and labels, as
# JSON in a <pre id="fsl-marks"> that --dump-dom prints
cat >marks.js <<'JS'
(function () {
  var charts = [];
  function box(e) { var b = e.getBBox(); return [b.x, b.y, b.width, b.height]; }
  function marks(svg, sel, attrs) {
    return Array.prototype.map.call(svg.querySelectorAll(sel), function (e) {
      var m = { box: box(e) }, t = e.querySelector("title");
      attrs.forEach(function (a) { m[a] = e.getAttribute(a); });
      if (t) m.title = t.textContent;
      return m;
    });
  }
  function texts(svg, sel) {
    return Array.prototype.map.call(svg.querySelectorAll(sel), function (t) { return t.textContent; });
  }
  document.querySelectorAll("svg").forEach(function (svg) {
    var h = svg.previousElementSibling, r = svg.getBoundingClientRect(), labels = [], overlaps = [];
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox();
      if (b.width > 0) labels.push([b.x, b.y, b.x + b.width, b.y + b.height, t.textContent]);
    });
    for (var i = 0; i < labels.length; i++)
      for (var j = i + 1; j < labels.length; j++) {
        var a = labels[i], c = labels[j];
        if (a[0] < c[2] - 0.5 && c[0] < a[2] - 0.5 && a[1] < c[3] - 0.5 && c[1] < a[3] - 0.5)
          overlaps.push(a[4] + "/" + c[4]);
      }
    charts.push({
      title: h && h.tagName == "H3" ? h.textContent : "",
      page: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height],
      frames: Array.prototype.map.call(svg.querySelectorAll("rect.frame"), box),
      stall: marks(svg, "rect.stall", ["fill"]),
      heat: marks(svg, "rect.heat", ["data-n"]),
      commit: marks(svg, "rect.commit", ["data-commits", "fill"]),
      circle: marks(svg, "circle", ["fill"]),
      lines: Array.prototype.map.call(svg.querySelectorAll("polyline"), function (p) {
        var pts = [];
        for (var k = 0; k < p.points.numberOfItems; k++)
          pts.push([p.points.getItem(k).x, p.points.getItem(k).y]);
        return pts;
      }),
      phases: svg.querySelectorAll("line.phase").length,
      legend: Array.prototype.map.call(svg.querySelectorAll("rect:not([class]) + text"),
                                       function (t) { return t.textContent; }),
      scale: texts(svg, "g.scale text"),
      xticks: texts(svg, "text.xtick"),
      yticks: texts(svg, "text.ytick"),
      overlaps: overlaps
    });
  });
  var pre = document.createElement("pre");
  pre.id = "fsl-marks";
  pre.textContent = JSON.stringify({ height: document.documentElement.scrollHeight, charts: charts });
  document.body.appendChild(pre);
})();
JS

# what the charts must hold, from the DOM against report --json
cat >check.py <<'PY'
import html, json, math, re, sys

name, dom, rep = sys.argv[1], open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
m = re.search(r'<pre id="fsl-marks">(.*?)</pre>', dom, re.S)
if not m:
    print("dom no-marks-json False")
    sys.exit()
page = json.loads(html.unescape(m.group(1)))
charts = {c["title"].split(" ")[0] + ("-io" if c["title"].startswith("Block") else ""): c
          for c in page["charts"]}

def ok(what, cond, detail=""):
    print("%s %s %s" % (what, bool(cond), detail))

def inside(c, marks):
    """every mark has a size and lies within one of the chart's plot frames (a
    circle of radius 1.5 at the lowest offset may reach past it)"""
    for mk in marks:
        x, y, w, h = mk["box"]
        if w <= 0 or h <= 0:
            return False
        if not any(fx - 2 <= x and x + w <= fx + fw + 2 and fy - 2 <= y and y + h <= fy + fh + 2
                   for fx, fy, fw, fh in c["frames"]):
            return False
    return True

# one chart per analysis that has something to draw, and nothing more
cls = {k: v for k, v in rep["blocked"]["classes"].items() if v["workload_ns"] > 0}
want = {"Workload": bool(cls), "Operation": rep["ops"]["total"] > 0,
        "Journal": rep["journal"]["commits"] > 0,
        "Block-io": any(d["dispatches"] for d in rep["blockio"])}
ok("charts", {k for k, v in want.items() if v} == set(charts), sorted(charts))

j = rep["journal"]
if "Journal" in charts:
    c = charts["Journal"]
    drawn = [int(mk["data-commits"]) for mk in sorted(c["commit"], key=lambda mk: mk["box"][0])]
    ok("journal_commits_drawn", sum(drawn) == j["commits"], "%d of %d" % (sum(drawn), j["commits"]))
    if j["commits"] > len(j["transactions"]):
        # binned: one bar per non-empty bin of the timeline, with its count
        bins = [n for n in j["timeline"]["commits"] if n]
        ok("journal_bars_are_bins", drawn == bins, "%d bars, %d bins" % (len(drawn), len(bins)))
    else:
        tids = sorted(int(re.match(r"tid (\d+)", mk["title"]).group(1)) for mk in c["commit"])
        ok("journal_bars_are_transactions", tids == sorted(t["tid"] for t in j["transactions"]), tids)
    fx, fy, fw, fh = c["frames"][0]
    first = min(mk["box"][0] for mk in c["commit"])
    xt = [float(t) for t in c["xticks"]]
    ok("journal_first_in_first_second", first < fx + fw / max(xt) * 1.0, first)
    ok("journal_marks_inside", inside(c, c["commit"]))

if "Operation" in charts:
    c = charts["Operation"]
    cols = {}
    for mk in c["heat"]:
        cols[round(mk["box"][0], 1)] = cols.get(round(mk["box"][0], 1), 0) + int(mk["data-n"])
    per_col = [cols[x] for x in sorted(cols)]
    rate = [n for n in rep["ops"]["rate"]["all"] if n]
    ok("heat_ops", sum(per_col) == rep["ops"]["total"], "%d of %d" % (sum(per_col), rep["ops"]["total"]))
    ok("heat_columns_are_bins", per_col == rate, "%s vs %s" % (per_col[:8], rate[:8]))
    ok("heat_marks_inside", inside(c, c["heat"]))
    ok("heat_scale", any("ops per cell" in t for t in c["scale"]), c["scale"])

if "Workload" in charts:
    c = charts["Workload"]
    ok("stall_classes", {mk["title"] for mk in c["stall"]} == set(cls),
       "%s vs %s" % (sorted({mk["title"] for mk in c["stall"]}), sorted(cls)))
    ok("stall_legend", sorted(c["legend"]) == sorted(cls), c["legend"])
    ok("stall_marks_inside", inside(c, c["stall"]))

for d in rep["blockio"]:
    if not d["dispatches"]:
        continue
    c = charts["Block-io"]
    writes = sum(mk["fill"] == "#d62728" for mk in c["circle"])
    reads = sum(mk["fill"] == "#1f77b4" for mk in c["circle"])
    wd, rd = d["write_seeks"]["dispatches"], d["read_seeks"]["dispatches"]
    if d["dispatches"] <= 4096:
        ok("io_points", (writes, reads) == (wd, rd), "%d/%d vs %d/%d" % (writes, reads, wd, rd))
    else:
        # every other point kept each time the 4096 fill up: 2048..4096, in proportion
        ok("io_points", 2048 <= writes + reads <= 4096 and
           abs(writes / (writes + reads) - wd / (wd + rd)) < 0.05,
           "%d/%d of %d/%d" % (writes, reads, wd, rd))
    ok("io_lines", len(c["lines"]) == 2 and all(len(l) >= 2 for l in c["lines"]),
       [len(l) for l in c["lines"]])
    ok("io_marks_inside", inside(c, c["circle"]))

# labels: round ticks, one time axis, phases as markers, nothing overlapping
bad, axes = [], set()
for c in page["charts"]:
    v = [float(t) for t in c["xticks"]]
    runs, cur = [], []
    for x in v:
        if x == 0 and cur:
            runs.append(cur)
            cur = []
        cur.append(x)
    runs.append(cur)
    for r in runs:
        axes.add(r[-1])
        if len(r) > 1:
            step = r[1] - r[0]
            mm = step / 10 ** math.floor(math.log10(step))
            if min(abs(mm - k) for k in (1, 2, 5, 10)) > 1e-6:
                bad.append("step %g" % step)
    for t in c["xticks"] + c["yticks"]:
        if not re.match(r'^\d+(\.\d{1,2})?$', t):
            bad.append("label %s" % t)
ok("round_ticks", not bad, bad[:5])
ok("one_time_axis", len(axes) == 1, sorted(axes))
ok("no_overlaps", not any(c["overlaps"] for c in page["charts"]),
   [c["overlaps"][:3] for c in page["charts"] if c["overlaps"]])
if name == "mix":
    ok("phase_markers", all(c["phases"] == 2 * len(c["frames"]) for c in page["charts"]),
       [c["phases"] for c in page["charts"]])
print("height True %d" % page["height"])
PY

# the screenshot: coloured pixels in each chart's plot, where the DOM says
# the marks are (PNG decoded here: zlib and the five row filters)
cat >ink.py <<'PY'
import json, re, html, struct, sys, zlib

png, dom = open(sys.argv[1], "rb").read(), open(sys.argv[2]).read()
page = json.loads(html.unescape(re.search(r'<pre id="fsl-marks">(.*?)</pre>', dom, re.S).group(1)))
pos, idat = 8, b""
while pos < len(png):
    n, kind = struct.unpack(">I4s", png[pos:pos + 8])
    body = png[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        W, H, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), W * bpp
rows, prev = [], bytes(stride)
M7 = int.from_bytes(b"\x7f" * stride, "little")
for y in range(H):
    f, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
    if f == 0:
        cur = line
    elif f == 2:	# up: a byte-wise sum of two rows, in one big integer
        a, b = int.from_bytes(line, "little"), int.from_bytes(prev, "little")
        cur = ((((a & M7) + (b & M7)) ^ ((a ^ b) & ~M7)) & ((1 << (8 * stride)) - 1)).to_bytes(stride, "little")
    else:
        out = bytearray(line)
        for i in range(stride):
            left = out[i - bpp] if i >= bpp else 0
            up = prev[i]
            if f == 1:
                out[i] = (out[i] + left) & 255
            elif f == 3:
                out[i] = (out[i] + ((left + up) >> 1)) & 255
            else:
                ul = prev[i - bpp] if i >= bpp else 0
                p = left + up - ul
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                out[i] = (out[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else ul)) & 255
        cur = bytes(out)
    rows.append(cur)
    prev = cur
# not blank: at least 2% of the bytes are not white
nonwhite = sum(len(r) - r.count(255) for r in rows)
print("screenshot_not_blank %s %d of %d bytes" % (nonwhite > 0.02 * W * H * bpp, nonwhite, W * H * bpp))
for k, c in enumerate(page["charts"]):
    px, py = c["page"][0], c["page"][1]
    area = sum(max(m["box"][2], 1) * max(m["box"][3], 1)
               for kind in ("stall", "heat", "commit", "circle") for m in c[kind])
    ink = 0
    for fx, fy, fw, fh in c["frames"]:
        x0, x1 = int(px + fx) + 2, int(px + fx + fw) - 2
        for y in range(int(py + fy) + 2, min(int(py + fy + fh) - 2, H)):
            r = rows[y]
            for x in range(max(x0, 0), min(x1, W)):
                v = r[x * bpp:x * bpp + 3]
                ink += max(v) - min(v) > 40	# a colour, not grey: marks, not frames or text
    print("ink_%d %s %d coloured pixels, marks %.0f px2 (%s)" %
          (k, ink > 0 and ink >= 0.5 * area, ink, area, c["title"][:30]))
PY

for h in mix golden; do
	"$PY" -c 'import sys; h = open(sys.argv[1]).read(); s = open(sys.argv[2]).read()
sys.stdout.write(h.replace("</body>", "<script>" + s + "</script></body>"))' "$h.html" marks.js >"$h.check.html"
	chrome --window-size=1000,2000 --dump-dom "file://$T_TMP/$h.check.html" >"$h.dom"
	"$PY" check.py $h "$h.dom" $h.json >"$h.checks" 2>&1
	while read -r what good rest; do
		[ "$what" = height ] && { height=$rest; continue; }
		check_eq "$h-$what" "$good" True
		[ "$good" = True ] || echo "    $h $what: $rest" >&2
	done <"$h.checks"
	check_ge "$h-dom-checks" "$(wc -l <"$h.checks")" 10
	# the whole page in one screenshot, at the size the DOM was laid out
	chrome --window-size=1000,"${height:-2400}" --screenshot="$T_TMP/$h.png" "file://$T_TMP/$h.check.html" >/dev/null
	"$PY" ink.py "$h.png" "$h.dom" >"$h.ink" 2>&1
	[ -n "${VERBOSE:-}" ] && sed "s/^/    $h /" "$h.ink" >&2
	while read -r what good rest; do
		check_eq "$h-$what" "$good" True
		[ "$good" = True ] || echo "    $h $what: $rest" >&2
	done <"$h.ink"
	check_ge "$h-ink-checks" "$(wc -l <"$h.ink")" 3
done
exit $((T_FAILS != 0))
