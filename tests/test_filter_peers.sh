#!/bin/sh
# The f32 filters of CLRS_MODE_FILTER against the image libraries' float
# paths (tests/filter_peers.py says which and how): Pillow's BILINEAR,
# BICUBIC, HAMMING, LANCZOS, BOX and NEAREST on 'F' images and OpenCV's
# methods on float32, over up- and downscales, integer and fractional, 1
# to 1000 pixels; u8 L, RGB and CMYK images under the Pillow preset and
# u8 images of 1 to 4 channels under the OpenCV preset, identical to
# Pillow's and OpenCV's to the value where the device has fp64; and the
# TensorFlow preset against TensorFlow's formulas and a JAX run's
# scale_and_translate outputs (tests/inputs/jax_scale_and_translate.json).
# Skipped, saying so, without Debian's python3 with Pillow, OpenCV and
# NumPy (python3-pil python3-opencv python3-numpy) or without a device.

tap_name=filter-peers
. "${top_srcdir:-.}/tests/tap.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if [ -z "$py" ] || ! "$py" -c 'import PIL, cv2, numpy' 2>/dev/null; then
    echo "1..0 # SKIP needs python3 with Pillow, OpenCV and NumPy (python3-pil python3-opencv python3-numpy)"
    exit 0
fi
need_device
# A device without fp64 (Mesa rusticl's llvmpipe, where installed)
# refuses Pillow's 8-bit path and OpenCV's for cubic, saying why, and
# runs the rest: OpenCV's linear_exact and linear (exact in float there,
# to the reference's value).
nofp=$(RUSTICL_ENABLE=llvmpipe "$tool" --list-devices 2>/dev/null |
    sed -n 's/^\([0-9]*:[0-9]*\)  .* | fp64 no | .*/\1/p' | head -n 1)
if [ -n "$nofp" ]; then
    RUSTICL_ENABLE=llvmpipe CLRS_DEVICE=$nofp "$tool" --mode=C --sdt=u8 \
        --ddt=u8 --tag=axb --vendor=pillow --alg=lanczos mb1ic3ih20iw30oh7ow9 \
        --vendor=opencv --alg=linear_exact mb1ic3ih20iw30oh7ow9 \
        --alg=linear mb1ic3ih20iw30oh47ow45 \
        --alg=cubic mb1ic3ih20iw30oh47ow45 \
        >"$tmp/nofp" 2>&1
    if grep -q '^0:SKIPPED.*needs fp64' "$tmp/nofp" &&
        grep -q '^1:PASSED' "$tmp/nofp" && grep -q '^2:PASSED' "$tmp/nofp" &&
        grep -q '^3:SKIPPED.*needs fp64' "$tmp/nofp"; then
        echo "# device $nofp without fp64: Pillow's 8-bit path and OpenCV's cubic refused, OpenCV's linear_exact and linear run"
    else
        echo "not ok 1 - without fp64 (device $nofp): $(tr '\n' ' ' <"$tmp/nofp" | cut -c1-300)"
        echo "1..1"
        exit 1
    fi
fi

# Pillow's 8-bit path is exact where sums run in double (fp64).
fp64=$(device_fp64)
"$py" "$top_srcdir/tests/filter_peers.py" "$tool" "$tmp" "${quick:-full}" \
    "${fp64:-no}"
