#!/bin/sh
# The f32 filters of CLRS_MODE_FILTER against the image libraries' float
# paths (tests/filter_peers.py says which and how): Pillow's BILINEAR,
# BICUBIC, HAMMING, LANCZOS, BOX and NEAREST on 'F' images and OpenCV's
# methods on float32, over up- and downscales, integer and fractional, 1
# to 1000 pixels; and u8 L, RGB and CMYK images under the Pillow preset,
# identical to Pillow's to the value where the device has fp64. Skipped, saying so, without Debian's python3 with Pillow,
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
# Pillow's 8-bit path is exact where sums run in double (fp64).
fp64=$(device_fp64)
"$py" "$top_srcdir/tests/filter_peers.py" "$tool" "$tmp" "${quick:-full}" \
    "${fp64:-no}"
