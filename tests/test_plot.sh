#!/bin/sh
# clresample --plot=FILE.svg: the main job's problem set timed with
# --mode=P writes an SVG that an XML parser reads (Python's
# xml.etree), with one bar per problem in the run's order and the GB/s
# of its perf line, the copy, read and write lines at the bandwidths the
# roofline measured, and the device's name and the date in the title.
# A problem name with XML's special characters comes back unchanged
# from the parsed file; the file replaces an older one whole and leaves
# no temporary file, and through a symbolic link keeps the link and the
# old file's mode; --plot without a timed problem, or to a directory
# that does not exist, fails. Skipped without python3 or a device.
# TAP, run by make check.

tap_name=plot
. "${top_srcdir:-.}/tests/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is not installed (it parses the SVG)"
    exit 0
fi

svg="$tmp/x.svg"
echo "an older file" >"$svg"
day0=$(date -u +%Y-%m-%d)
"$tool" --mode=P --batch="$top_srcdir/tests/inputs/perf_default" \
    --plot="$svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
day1=$(date -u +%Y-%m-%d)
if [ $rc -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device: $(head -n 1 "$tmp/err")"
    exit 0
fi
if [ $rc -eq 0 ] && grep -qxF "plot: $svg" "$tmp/out"; then
    ok "--mode=P --batch=perf_default --plot: exit 0, 'plot: FILE' said"
else
    not_ok "--mode=P --batch=perf_default --plot: exit $rc"
    sed 's/^/# /' "$tmp/out" "$tmp/err"
fi

# The parsed SVG against the run's own output: one bar per perf line,
# in order, each with its GB/s; the bandwidth lines at the roofline's
# figures; the device and the date in the title.
python3 - "$svg" "$tmp/out" "$day0" "$day1" >"$tmp/py" 2>&1 <<'PY'
import re, sys
import xml.etree.ElementTree as ET

svg, out, day0, day1 = sys.argv[1:5]
NS = '{http://www.w3.org/2000/svg}'
n = 0
def ok(cond, what):
    global n
    n += 1
    print(('ok' if cond else 'not ok') + ' %d - %s' % (n, what))
    return cond

text = open(out, encoding='utf-8', errors='replace').read()
perf = [float(m.group(1)) for m in re.finditer(r'^perf,.*,GB/s:([^,]+),',
                                               text, re.M)]
m = re.search(r'^device [0-9]+:[0-9]+: (.*)$', text, re.M)
dev = m.group(1) if m else '(no device line)'
roof = re.search(r'^roofline: copy ([0-9.]+) GB/s plain stores, '
                 r'(?:([0-9.]+) GB/s non-temporal stores|non-temporal stores '
                 r'unavailable); read ([0-9.]+) GB/s, write ([0-9.]+) GB/s',
                 text, re.M)
ok(roof is not None, 'the run measured the copy, read and write bandwidths')
try:
    root = ET.parse(svg).getroot()
except ET.ParseError as e:
    ok(False, 'the SVG parses as XML: %s' % e)
    print('1..%d' % n)
    sys.exit(1)
ok(root.tag == NS + 'svg', 'the SVG parses as XML, root element <svg>')
ok(len(perf) == 7, 'perf_default timed its 7 problems (%d perf lines)'
   % len(perf))

bars = [e for e in root.iter(NS + 'rect') if e.get('class') == 'bar']
groups = [g for g in root.iter(NS + 'g') if g.get('class') == 'problem']
ok(len(bars) == len(perf) and len(groups) == len(perf),
   'one bar per problem: %d bars, %d problems' % (len(bars), len(perf)))
got = []
for g in groups:
    m = re.match(r'^(\d+): .*, ([0-9.]+) GB/s', g.find(NS + 'title').text)
    got.append((int(m.group(1)), float(m.group(2))) if m else None)
ok(got == [(i, round(v, 2)) for i, v in enumerate(perf)],
   'the bars follow the run, each with its perf line\'s GB/s: %s' % got)
# Widths in proportion to GB/s, on one scale.
w = [float(b.get('width')) for b in bars]
scales = [wi / v for wi, v in zip(w, perf) if v > 0]
ok(scales and max(scales) - min(scales) < 0.01 * max(scales) + 0.2,
   'bar widths proportional to GB/s (%s)' % ', '.join('%.2f' % s for s in scales))

bw = []
if roof:
    bw = [('copy', max(float(roof.group(1)), float(roof.group(2) or 0))),
          ('read', float(roof.group(3))), ('write', float(roof.group(4)))]
for cls, v in bw:
    lines = [l for l in root.iter(NS + 'line') if l.get('class') == cls]
    label = [t.text for t in root.iter(NS + 'text')
             if t.get('class') == cls + '-label']
    x = float(lines[0].get('x1')) if lines else None
    s = scales[0] if scales else 0
    # The label has one decimal of the bandwidth, the output line two.
    lv = [float(t.split()[1]) for t in label if len(t.split()) == 2]
    ok(len(lines) == 1 and len(lv) == 1 and abs(lv[0] - v) <= 0.051 and
       abs((x - float(bars[0].get('x'))) - v * s) < 1.0,
       '%s line at %.2f GB/s (labels %s)' % (cls, v, label))

title = root.find(NS + 'title').text
ok(dev in title and (day0 in title or day1 in title),
   'title names the device and the date: %s' % title)
print('1..%d' % n)
PY
py=$?
# Renumber the Python checks into this script's TAP stream.
while IFS= read -r line; do
    case $line in
    "ok "*) ok "${line#ok [0-9]* - }" ;;
    "not ok "*) not_ok "${line#not ok [0-9]* - }" ;;
    1..*) ;;
    *) echo "# $line" ;;
    esac
done <"$tmp/py"
[ $py -eq 0 ] || [ $failed -ne 0 ] || not_ok "python3 exited $py"

ls -a "$tmp" | grep -q '\.tmp' &&
    not_ok "a temporary file is left: $(ls "$tmp")" ||
    ok "no temporary file left beside the chart"

# XML's special characters and UTF-8 in a problem's name.
name="a<b & c>'d é"
"$tool" --mode=P --max-ms-per-prb=20 "mb1ic1iw8ow16n\"$name\"" \
    --plot="$tmp/name.svg" >"$tmp/out2" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    not_ok "a named problem: exit $rc"
    sed 's/^/# /' "$tmp/out2"
elif python3 - "$tmp/name.svg" "$name" <<'PY'
import sys
import xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
g = [g for g in root.iter(NS + 'g') if g.get('class') == 'problem']
sys.exit(0 if len(g) == 1 and
         g[0].find(NS + 'title').text.startswith('0: ' + sys.argv[2] + ' ')
         else 1)
PY
then
    ok "a name with < & > ' and UTF-8 comes back unchanged from the XML"
else
    not_ok "a name with XML's special characters: $(grep '<title>0' "$tmp/name.svg")"
fi

# Written as .npy outputs are: a symbolic link stays a link to the new
# chart, and the old file's permission bits are kept.
echo "an older chart" >"$tmp/target.svg"
chmod 640 "$tmp/target.svg"
ln -s target.svg "$tmp/link.svg"
"$tool" --mode=P --max-ms-per-prb=20 mb1ic1iw4ow8 --plot="$tmp/link.svg" \
    >"$tmp/out3" 2>&1
rc=$?
mode=$(stat -c %a "$tmp/target.svg")
if [ $rc -eq 0 ] && [ -L "$tmp/link.svg" ] && [ "$mode" = 640 ] &&
    grep -q '</svg>' "$tmp/target.svg"; then
    ok "--plot through a symbolic link: the link kept, its file replaced with mode 640 kept"
else
    not_ok "--plot through a symbolic link: exit $rc, mode $mode, $(ls -l "$tmp/link.svg")"
    sed 's/^/# /' "$tmp/out3"
fi

# Failures: no timed problem (a usage error), a directory that is not
# there (exit 1 after the run, said on stderr).
"$tool" --mode=C mb1ic1iw4ow8 --plot="$tmp/c.svg" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'no problem is timed' "$tmp/err" &&
    ! [ -e "$tmp/c.svg" ]; then
    ok "--mode=C --plot: exit 2, no problem is timed"
else
    not_ok "--mode=C --plot: exit $rc: $(cat "$tmp/err")"
fi
"$tool" --mode=P --max-ms-per-prb=20 mb1ic1iw4ow8 \
    --plot="$tmp/missing/x.svg" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q -e '--plot: .*cannot create' "$tmp/err"; then
    ok "--plot into a missing directory: exit 1, said"
else
    not_ok "--plot into a missing directory: exit $rc: $(cat "$tmp/err")"
fi
echo "1..$n"
exit $failed
