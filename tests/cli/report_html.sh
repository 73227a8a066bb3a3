#!/bin/bash
# The HTML report in a real browser (headless Chromium, when installed; the
# checks on the file itself run without it):
#  - the journal chart draws every commit: the bars' data-commits add up to the
#    trace's jbd2_end_commit events (1222, more than the 512 kept one by one),
#    and the first bar lies in the first second;
#  - tick labels are round (1, 2 or 5 x 10^k steps) and every chart has the
#    same time axis; the scenario's phases are drawn as markers;
#  - the heatmap has a colour scale;
#  - in Chromium, no text label overlaps another (boxes measured with
#    getBBox after layout), and a screenshot is taken.
. "$(dirname "$0")/../lib.sh"
case ${BUILD:-build} in /*) MK=$BUILD/tests/fsl_mktrace ;; *) MK=$TOP/${BUILD:-build}/tests/fsl_mktrace ;; esac
PY=$(python3 -c 'import sys; print(sys.executable)')
cd "$T_TMP" || exit 1
"$MK" mix.trace mix 1200000 || { fail mktrace "fsl_mktrace failed"; exit 1; }
t0=$("$FSLENS" dump --json -e journal mix.trace 2>/dev/null | head -1 | sed -E 's/.*"ts_ns":([0-9]+).*/\1/')
{
	echo "# fslens phases 1"; echo "scenario test"; echo "scale small"
	echo "phase 1 first $((t0 + 1500000000)) $((t0 + 3000000000)) 10 0"
	echo "phase 1 second $((t0 + 3000000000)) $((t0 + 5000000000)) 10 0"
} >mix.phases
"$FSLENS" report mix.trace --html mix.html >/dev/null 2>err
check_eq html-rc $? 0
commits=$("$FSLENS" dump -e journal mix.trace | grep -c ' jbd2_end_commit ')
check_ge many-commits "$commits" 1000
check_eq every-commit-drawn "$(grep -o 'class="commit" data-commits="[0-9]*"' mix.html | grep -o '[0-9]*' |
	awk '{ s += $1 } END { print s }')" "$commits"
first_x=$(grep -o 'class="commit" data-commits="[0-9]*" x="[0-9.]*"' mix.html | head -1 | sed -E 's/.*x="([0-9.]+)"/\1/')
check_eq first-commit-in-first-second "$(awk -v x="$first_x" 'BEGIN { print (x < 70 + 810 / 6) }')" 1
check_ge phase-markers "$(grep -c 'class="phase"' mix.html)" 2
check_grep phase-names '>first</text>' mix.html

"$FSLENS" report "$TOP/tests/data/golden.trace" --html golden.html >/dev/null 2>&1
check_ge heat-cells "$(grep -c 'class="heat"' golden.html)" 1
check_grep heat-scale 'class="scale".*ops per cell' golden.html
check_ge stall-bars "$(grep -c 'class="stall"' golden.html)" 1
for h in mix golden; do
	got=$("$PY" - "$h.html" <<'PYEOF'
import re, sys, math
html = open(sys.argv[1]).read()
bad = []
axes = []
for svg in re.findall(r'<svg.*?</svg>', html, re.S):
    xt = [t for t in re.findall(r'class="xtick"[^>]*>([^<]*)<', svg)]
    if not xt:
        continue
    v = [float(t) for t in xt]
    # one axis per frame: ticks restart at 0
    runs, cur = [], []
    for x in v:
        if x == 0 and cur:
            runs.append(cur); cur = []
        cur.append(x)
    runs.append(cur)
    for r in runs:
        axes.append(r[-1])
        if len(r) > 1:
            step = r[1] - r[0]
            m = step / 10 ** math.floor(math.log10(step))
            if min(abs(m - k) for k in (1, 2, 5, 10)) > 1e-6:
                bad.append("step %g" % step)
            if any(abs((r[i + 1] - r[i]) - step) > 1e-9 for i in range(len(r) - 1)):
                bad.append("uneven %s" % r)
    for t in xt + re.findall(r'class="ytick"[^>]*>([^<]*)<', svg):
        if not re.match(r'^\d+(\.\d{1,2})?$', t):
            bad.append("label %s" % t)
if len(set(axes)) != 1:
    bad.append("time axes differ: %s" % sorted(set(axes)))
print("ok" if not bad else " ".join(bad[:5]))
PYEOF
)
	check_eq "$h-round-ticks-one-axis" "$got" ok
done

CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$CHROME" ]; then
	skip browser "no chromium (make deps installs it)"
	exit $((T_FAILS != 0))
fi
chrome() { timeout 90 "$CHROME" --headless=new --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }
# the browser lays the page out; a script measures every label of every chart
cat >measure.js <<'JS'
var bad = [];
document.querySelectorAll("svg").forEach(function (svg, k) {
  var ts = Array.prototype.slice.call(svg.querySelectorAll("text")).map(function (t) {
    var b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height, t.textContent];
  }).filter(function (b) { return b[2] > b[0]; });
  for (var i = 0; i < ts.length; i++)
    for (var j = i + 1; j < ts.length; j++) {
      var a = ts[i], c = ts[j];
      if (a[0] < c[2] - 0.5 && c[0] < a[2] - 0.5 && a[1] < c[3] - 0.5 && c[1] < a[3] - 0.5)
        bad.push(k + ":" + a[4] + "/" + c[4]);
    }
});
document.body.setAttribute("data-overlaps", bad.length ? bad.slice(0, 5).join(";") : "none");
document.body.setAttribute("data-charts", document.querySelectorAll("svg").length);
JS
for h in mix golden; do
	"$PY" -c 'import sys; h = open(sys.argv[1]).read(); s = open(sys.argv[2]).read()
sys.stdout.write(h.replace("</body>", "<script>" + s + "</script></body>"))' "$h.html" measure.js >"$h.check.html"
	chrome --dump-dom "file://$T_TMP/$h.check.html" >"$h.dom"
	check_eq "$h-browser-no-overlaps" "$(grep -o 'data-overlaps="[^"]*"' "$h.dom" | cut -d'"' -f2)" none
	check_ge "$h-browser-charts" "$(grep -o 'data-charts="[0-9]*"' "$h.dom" | grep -o '[0-9]*' || echo 0)" 2
	chrome --window-size=1000,2400 --screenshot="$T_TMP/$h.png" "file://$T_TMP/$h.html" >/dev/null
	check_ge "$h-screenshot" "$(stat -c %s "$h.png" 2>/dev/null || echo 0)" 20000
done
exit $((T_FAILS != 0))
