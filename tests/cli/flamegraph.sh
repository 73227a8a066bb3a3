#!/bin/bash
# export --format flamegraph: the SVG is well-formed, self-contained, and its
# boxes are the folded stacks' numbers: every drawn box's count equals the sum
# of the folded lines under its path (parent found by x-range containment one
# row down), the root is the total; --per-class gives one SVG per class with
# that class's folded total. In Chromium (when installed) its script runs: the
# boxes get their labels, and a click zooms.
. "$(dirname "$0")/../lib.sh"
PY=$(python3 -c 'import sys; print(sys.executable)')
T=$TOP/tests/data/golden.trace
cd "$T_TMP" || exit 1
"$FSLENS" export "$T" -F folded -o all.folded -q
"$FSLENS" export "$T" -F flamegraph -o all.svg -q
check_eq rc $? 0
check_ge folded-lines "$(wc -l <all.folded)" 2
check_folded_svg() {	# name folded svg
	local got
	got=$("$PY" - "$2" "$3" <<'PYEOF' 2>&1
import sys, xml.etree.ElementTree as ET
folded, svg = sys.argv[1], sys.argv[2]
want = {}
for line in open(folded):
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    fr = stack.split(";")
    want[()] = want.get((), 0) + int(n)
    for i in range(1, len(fr) + 1):
        want[tuple(fr[:i])] = want.get(tuple(fr[:i]), 0) + int(n)
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()
assert not [e for e in root.iter() if e.get("href") or e.get("{http://www.w3.org/1999/xlink}href")], "external ref"
boxes = []
for r in root.iter(ns + "rect"):
    if r.get("data-v") is None:
        continue
    boxes.append((float(r.get("y")), float(r.get("x")), float(r.get("width")), int(r.get("data-v")), r.get("data-name")))
rows = sorted({b[0] for b in boxes}, reverse=True)	# root at the bottom
path = {}
for b in sorted(boxes, key=lambda b: -b[0]):
    d = rows.index(b[0])
    if d == 0:
        assert b[4] == "all", b
        path[b] = ()
        continue
    par = [p for p in boxes if rows.index(p[0]) == d - 1 and p[1] - 0.06 <= b[1] and b[1] + b[2] <= p[1] + p[2] + 0.06]
    assert len(par) >= 1, ("no parent", b)
    path[b] = path[par[0]] + (b[4],)
bad = [(p, b[3], want.get(p)) for b, p in path.items() if want.get(p) != b[3]]
assert not bad, bad[:3]
# every stack at least a pixel wide is drawn
total = want[()]
drawn = set(path.values())
missing = [p for p, v in want.items() if v * 1180.0 / total >= 1 and p not in drawn]
assert not missing, missing[:3]
print("ok %d %d" % (len(boxes), total))
PYEOF
)
	case $got in ok*) pass "$1" ;; *) fail "$1" "$got" ;; esac
}
check_folded_svg svg-equals-folded all.folded all.svg
check_eq root-total "$(grep -o 'data-v="[0-9]*" data-name="all"' all.svg | grep -o '[0-9]*')" \
	"$(awk '{ s += $NF } END { print s }' all.folded)"
"$FSLENS" export "$T" -F folded --per-class -o fc -q
"$FSLENS" export "$T" -F flamegraph --per-class -o sc -q
check_eq per-class-files "$(cd sc && ls | sed 's/\.svg$//')" "$(cd fc && ls | sed 's/\.folded$//')"
for f in fc/*.folded; do
	c=$(basename "$f" .folded)
	check_folded_svg "per-class-$c" "$f" "sc/$c.svg"
done
"$FSLENS" export "$T" -F flamegraph --table io 2>err
check_eq table-usage-rc $? 2

# a real browser runs the script: labels set, root named; a click on the
# first child zooms it to the full width
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$CHROME" ]; then
	skip browser "no chromium (make deps installs it)"
	exit $((T_FAILS != 0))
fi
cat > click.html <<HTML
<!doctype html><html><body>$(sed 1d all.svg)<script>
init();
var g = document.querySelectorAll('g.f')[1];
var before = g.querySelector('rect').getAttribute('width');
g.onclick();
document.body.setAttribute('data-zoom', before + ' ' + g.querySelector('rect').getAttribute('width') + ' ' +
	document.getElementById('unzoom').style.opacity);
</script></body></html>
HTML
timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --dump-dom "file://$T_TMP/all.svg" >dom.svg 2>/dev/null
check_ge browser-labels "$(grep -cE '<text x="[0-9.]+" y="[0-9.]+">[^<]+</text>' dom.svg)" 3
check_grep browser-root-label '<text x="[0-9.]+" y="[0-9.]+">all</text>' dom.svg
timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --dump-dom "file://$T_TMP/click.html" >dom.html 2>/dev/null
zoom=$(grep -o 'data-zoom="[^"]*"' dom.html | cut -d'"' -f2)
check_eq browser-click-zooms "$(awk '{ print ($1 < 1180 && $2 == 1180 && $3 == 1) }' <<< "$zoom")" 1
timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,400 \
	--screenshot="$T_TMP/fg.png" "file://$T_TMP/all.svg" >/dev/null 2>&1
check_ge browser-screenshot "$(stat -c %s fg.png 2>/dev/null || echo 0)" 5000
exit $((T_FAILS != 0))
