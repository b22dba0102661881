#!/usr/bin/python3
"""The f32 filters against Pillow's and OpenCV's float paths.

Usage: filter_peers.py TOOL TMPDIR [quick|full [FP64]]

Pillow resizes 'F' images (float32) with its filters, antialiased when
downscaling (the support stretched by the scale), taps restricted to the
image and normalised: the library's filter mode under the pytorch rule
with antialias (BILINEAR = triangle, BICUBIC = Keys A = -0.5, HAMMING,
LANCZOS = Lanczos a = 3). OpenCV's INTER_LANCZOS4 on float32 is a = 4
without antialias on its fixed 8-tap window, the border replicated: the
onnx rule with edge padding. Pillow's BOX weighs the pixel at exactly
half the support 0 before the centre and 1 after it: box:0:1. OpenCV's
INTER_AREA is the area filter. Each case prints one TAP line; the
peers sum in double (Pillow) or float in another order, so outputs agree
within 3e-5 of the image's range of [0, 1] (OpenCV's x is rounded
otherwise: its bound grows with the size). Exit 77 when Pillow, OpenCV
or NumPy is missing."""
import os
import subprocess
import sys

try:
    import numpy as np
    import cv2
    from PIL import Image
except ImportError as e:  # pragma: no cover
    print("# %s" % e)
    sys.exit(77)

tool, tmp = sys.argv[1], sys.argv[2]
quick = len(sys.argv) > 3 and sys.argv[3] in ("quick", "1")
fp64 = len(sys.argv) <= 4 or sys.argv[4] == "yes"
TOL = 3e-5

PIL_METHODS = [
    ("NEAREST", Image.NEAREST, "nearest"),
    ("BOX", Image.BOX, "box"),
    ("BILINEAR", Image.BILINEAR, "bilinear"),
    ("HAMMING", Image.HAMMING, "hamming"),
    ("BICUBIC", Image.BICUBIC, "bicubic"),
    ("LANCZOS", Image.LANCZOS, "lanczos"),
]
CV_METHODS = [
    ("INTER_NEAREST", cv2.INTER_NEAREST, "nearest"),
    ("INTER_LINEAR", cv2.INTER_LINEAR, "linear"),
    ("INTER_CUBIC", cv2.INTER_CUBIC, "cubic"),
    ("INTER_AREA", cv2.INTER_AREA, "area"),
    ("INTER_LANCZOS4", cv2.INTER_LANCZOS4, "lanczos4"),
    ("INTER_NEAREST_EXACT", cv2.INTER_NEAREST_EXACT, "nearest_exact"),
]
# (H, W) -> (OH, OW): up and down, integer and fractional, 1-pixel ends.
SHAPES = [
    ((37, 29), (11, 64)),
    ((64, 48), (32, 24)),
    ((100, 81), (33, 27)),
    ((20, 30), (47, 45)),
    ((1, 40), (1, 13)),
    ((9, 1), (25, 1)),
    ((300, 200), (200, 300)),
    ((1000, 7), (224, 3)),
]
if quick:
    SHAPES = SHAPES[:3]

n = 0
failed = 0


def tap(ok, what):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, what))


def ours(src, oh, ow, args):
    h, w = src.shape
    fin = os.path.join(tmp, "in.npy")
    fout = os.path.join(tmp, "out.npy")
    np.save(fin, src.reshape(1, 1, h, w).astype(np.float32))
    cmd = [tool, "--mode=R"] + args + [
        "--src-file=" + fin, "--dst-file=" + fout,
        "mb1ic1ih%diw%doh%dow%d" % (h, w, oh, ow)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        print("# " + " ".join(cmd))
        for line in r.stdout.splitlines()[-5:]:
            print("# " + line)
        return None
    return np.load(fout).reshape(oh, ow)


def compare(got, want, what, tol=TOL):
    if got is None:
        tap(False, what + ": the tool failed")
        return
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    tap(err <= tol, "%s: max |difference| %.2g (bound %.2g)" % (what, err,
                                                               tol))


rng = np.random.default_rng(20261128)
for (h, w), (oh, ow) in SHAPES:
    src = rng.random((h, w), dtype=np.float32)
    for name, flt, method in PIL_METHODS:
        want = np.asarray(Image.fromarray(src, mode="F").resize((ow, oh),
                                                                 flt))
        got = ours(src, oh, ow, ["--vendor=pillow", "--alg=" + method])
        compare(got, want, "Pillow %s %dx%d -> %dx%d" % (name, h, w, oh, ow))
    for name, flag, method in CV_METHODS:
        # INTER_AREA upscaling one axis and downscaling the other takes
        # its linear path: compare where both go one way.
        if flag == cv2.INTER_AREA and (oh <= h) != (ow <= w):
            continue
        want = cv2.resize(src, (ow, oh), interpolation=flag)
        got = ours(src, oh, ow, ["--vendor=opencv", "--alg=" + method])
        # OpenCV rounds x to float once, the library (PyTorch's float
        # order) step by step: x differs by up to an ulp of the size, and
        # an output by about that times the filter's slope.
        compare(got, want, "OpenCV %s %dx%d -> %dx%d" % (name, h, w, oh, ow),
                TOL + 4 * max(h, w) * 2.0 ** -24)

# u8 images under the Pillow preset: Pillow's 8-bit path to the pixel.
U8_SHAPES = [
    ((37, 29), (11, 64)),
    ((64, 48), (32, 24)),
    ((100, 81), (33, 27)),
    ((20, 30), (47, 45)),
    ((1, 40), (1, 13)),
    ((300, 200), (200, 300)),
    ((1000, 7), (224, 3)),
    ((108, 192), (224, 224)),
]
CHANNELS = (1, 3, 4)
if quick:
    U8_SHAPES = U8_SHAPES[:4]
    CHANNELS = (3,)


def ours_u8(img, oh, ow, args):
    """img: (H, W, C) u8; the tool on channels-last tensors."""
    h, w, c = img.shape
    fin = os.path.join(tmp, "in8.npy")
    fout = os.path.join(tmp, "out8.npy")
    np.save(fin, np.ascontiguousarray(img.transpose(2, 0, 1)[None]))
    cmd = [tool, "--mode=R", "--sdt=u8", "--ddt=u8", "--tag=axb"] + args + [
        "--src-file=" + fin, "--dst-file=" + fout,
        "mb1ic%dih%diw%doh%dow%d" % (c, h, w, oh, ow)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        print("# " + " ".join(cmd))
        for line in r.stdout.splitlines()[-5:]:
            print("# " + line)
        return None
    return np.load(fout)[0].transpose(1, 2, 0)


MODES = {1: "L", 3: "RGB", 4: "CMYK"}
pixels = 0
if not fp64:
    print("# u8: skipped, the device has no fp64 (Pillow's sums need "
          "double to be exact)")
    U8_SHAPES = []
for (h, w), (oh, ow) in U8_SHAPES:
    for c in CHANNELS:
        img = rng.integers(0, 256, (h, w, c), dtype=np.uint8)
        pim = Image.fromarray(img[:, :, 0] if c == 1 else img, mode=MODES[c])
        for name, flt, method in PIL_METHODS:
            want = np.asarray(pim.resize((ow, oh), flt)).reshape(oh, ow, c)
            got = ours_u8(img, oh, ow, ["--vendor=pillow", "--alg=" + method])
            what = "Pillow %s u8 %s %dx%d -> %dx%d" % (name, MODES[c], h, w,
                                                        oh, ow)
            if got is None:
                tap(False, what + ": the tool failed")
                continue
            diff = int(np.count_nonzero(got != want))
            pixels += want.size
            tap(diff == 0, "%s: %d of %d values differ" % (what, diff,
                                                             want.size))
print("# u8: %d values compared with Pillow's" % pixels)

print("# Pillow %s, OpenCV %s" % (Image.__version__ if hasattr(
    Image, "__version__") else __import__("PIL").__version__,
    cv2.__version__))
print("1..%d" % n)
sys.exit(1 if failed else 0)
