#!/bin/sh
# The f32 filters of CLRS_MODE_FILTER against the image libraries' float
# paths (tests/filter_peers.py says which and how): Pillow's BILINEAR,
# BICUBIC, HAMMING and LANCZOS on 'F' images and OpenCV's INTER_LANCZOS4
# on float32, over up- and downscales, integer and fractional, 1 to 1000
# pixels. Skipped, saying so, without Debian's python3 with Pillow,
# OpenCV and NumPy (python3-pil python3-opencv python3-numpy) or without
# a device.

tap_name=filter-peers
. "${top_srcdir:-.}/tests/tap.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if [ -z "$py" ] || ! "$py" -c 'import PIL, cv2, numpy' 2>/dev/null; then
    echo "1..0 # SKIP needs python3 with Pillow, OpenCV and NumPy (python3-pil python3-opencv python3-numpy)"
    exit 0
fi
"$tool" --mode=C mb1ic1iw2ow4 >"$tmp/dev.out" 2>&1
if [ $? -eq 3 ]; then
    echo "1..0 # SKIP no OpenCL device"
    exit 0
fi
"$py" "$top_srcdir/tests/filter_peers.py" "$tool" "$tmp" ${quick:+quick}
