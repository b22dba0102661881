#!/usr/bin/python3
"""The filters and the image libraries' presets against the libraries.

Usage: filter_peers.py TOOL TMPDIR [quick|full [FP64]]

Float images (f32), within 3e-5 of their range [0, 1]: every method of
the Pillow preset (--vendor=pillow --alg=NAME) against Pillow's resize of
'F' images, every method of the OpenCV preset against cv2.resize of
float32 images (the preset computes x in OpenCV's order), INTER_AREA
only where both axes go one way (else OpenCV takes its linear path).

u8 images, to the value, where the device has fp64 (FP64 "yes"; else
that part is skipped, saying so): every Pillow method on Pillow's 8-bit
path (its fixed point, rounded u8 between its passes) on L, RGB and CMYK
images; every OpenCV method on cv::resize's 8-bit code (its fixed-point
passes, its float area passes, its 2x2 mean) on 1 to 4 channels, up,
down, one axis each way, whole factors and fractional.

TensorFlow is not installed: its scale_and_translate is reimplemented
here from its source (ComputeSpansCore, sampling_kernels.h) in float32,
and the TensorFlow preset must agree within 1e-6, for plain resizes and
scale-and-translate with outputs sampling outside the input; its area
(resize_area), reimplemented the same way, within 3e-6. JAX's
scale_and_translate: the outputs and gradients (jax.vjp) of a JAX run,
committed with their provenance (tests/inputs/jax_scale_and_translate.json),
the forward within 1e-6, the backward within 1e-6 of the gradient's
largest magnitude.

One TAP line per case. Exit 77 when Pillow, OpenCV or NumPy is
missing."""
import json
import math
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


def run_tool(src, problem, args, io=("--src-file=", "--dst-file=")):
    """The tool's output (N, C, ...) for src (N, C, ...) in logical order,
    or None, its command and last lines printed as TAP comments. io: the
    options naming the file read and the file written (backward:
    --diff-dst-file= and --diff-src-file=)."""
    fin = os.path.join(tmp, "in.npy")
    fout = os.path.join(tmp, "out.npy")
    np.save(fin, np.ascontiguousarray(src))
    cmd = [tool, "--mode=R"] + args + [io[0] + fin, io[1] + fout, problem]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        print("# " + " ".join(cmd))
        for line in r.stdout.splitlines()[-5:]:
            print("# " + line)
        return None
    return np.load(fout)


def ours(src, oh, ow, args):
    """src: (H, W) f32."""
    h, w = src.shape
    got = run_tool(src.reshape(1, 1, h, w).astype(np.float32),
                   "mb1ic1ih%diw%doh%dow%d" % (h, w, oh, ow), args)
    return None if got is None else got.reshape(oh, ow)


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
        compare(got, want, "OpenCV %s %dx%d -> %dx%d" % (name, h, w, oh, ow))

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
    got = run_tool(img.transpose(2, 0, 1)[None],
                   "mb1ic%dih%diw%doh%dow%d" % (c, h, w, oh, ow),
                   ["--sdt=u8", "--ddt=u8", "--tag=axb"] + args)
    return None if got is None else got[0].transpose(1, 2, 0)


def check_u8(got, want, what):
    """One TAP line: got (None: the tool failed) against want to the
    value; returns the values compared."""
    if got is None:
        tap(False, what + ": the tool failed")
        return 0
    diff = int(np.count_nonzero(got != want))
    tap(diff == 0, "%s: %d of %d values differ" % (what, diff, want.size))
    return want.size


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
            pixels += check_u8(got, want, "Pillow %s u8 %s %dx%d -> %dx%d" % (
                name, MODES[c], h, w, oh, ow))
print("# u8: %d values compared with Pillow's" % pixels)

# u8 images under the OpenCV preset: cv::resize's 8-bit code to the
# pixel, every method: up, down and one axis each way (INTER_AREA's
# linear path), whole factors (its 2x2 mean, its area by whole factors,
# INTER_LINEAR halving both axes), fractional, 1-pixel axes, 1 to 4
# channels (2 rounds the 2x2 mean otherwise).
CV_U8 = [("INTER_NEAREST", cv2.INTER_NEAREST, "nearest"),
         ("INTER_NEAREST_EXACT", cv2.INTER_NEAREST_EXACT, "nearest_exact"),
         ("INTER_LINEAR_EXACT", cv2.INTER_LINEAR_EXACT, "linear_exact"),
         ("INTER_LINEAR", cv2.INTER_LINEAR, "linear"),
         ("INTER_CUBIC", cv2.INTER_CUBIC, "cubic"),
         ("INTER_AREA", cv2.INTER_AREA, "area"),
         ("INTER_LANCZOS4", cv2.INTER_LANCZOS4, "lanczos4")]
CV_U8_SHAPES = U8_SHAPES + [
    ((60, 90), (20, 30)),      # 3x down: area by whole factors
    ((64, 48), (64, 24)),      # one axis halved, one kept
    ((16, 24), (4, 4)),        # 4x and 6x down
    ((30, 40), (45, 20)),      # one up, one down
    ((1, 1), (5, 3)),
    ((7, 5), (1, 1)),
    ((2, 3), (1000, 17)),
    ((999, 13), (3, 998)),
]
CV_CHANNELS = (1, 2, 3, 4)
if quick:
    CV_U8_SHAPES = CV_U8_SHAPES[:4] + CV_U8_SHAPES[8:12]
    CV_CHANNELS = (3,)
cv_pixels = 0
if not fp64:
    print("# u8 OpenCV: skipped, the device has no fp64 (OpenCV's cubic, "
          "lanczos4 and area by whole factors sum in double)")
    CV_U8_SHAPES = []
for (h, w), (oh, ow) in CV_U8_SHAPES:
    for c in CV_CHANNELS:
        img = rng.integers(0, 256, (h, w, c), dtype=np.uint8)
        for name, flag, method in CV_U8:
            want = cv2.resize(img, (ow, oh), interpolation=flag).reshape(
                oh, ow, c)
            got = ours_u8(img, oh, ow, ["--vendor=opencv", "--alg=" + method])
            cv_pixels += check_u8(got, want, "OpenCV %s u8 C=%d %dx%d -> %dx%d"
                                  % (name, c, h, w, oh, ow))
print("# u8: %d values compared with OpenCV's" % cv_pixels)

# TensorFlow's scale_and_translate, from its formulas
# (core/kernels/image/scale_and_translate_op.cc, ComputeSpansCore, and
# sampling_kernels.h) in float32, against the TensorFlow preset on f32
# 1-D signals: plain resizes (s = O / I) and scale-and-translate, some
# outputs sampling outside the input (0).
f32=np.float32
PI=f32(math.pi)
def lanczos(r):
    def k(x):
        x=f32(abs(x))
        if x>r: return f32(0)
        if x<=f32(1e-3): return f32(1)
        return f32(r)*f32(np.sin(PI*x))*f32(np.sin(PI*x/f32(r)))/(PI*PI*x*x)
    return k,r
def gaussian():
    def k(x):
        x=f32(abs(x)); 
        if x>=f32(1.5): return f32(0)
        return f32(math.exp(float(f32(-x*x))/(2.0*float(f32(0.5))*float(f32(0.5)))))
    return k,1.5
def triangle():
    return (lambda x: f32(1)-f32(abs(x)) if abs(x)<1 else f32(0)),1.0
def keys():
    def k(x):
        x=f32(abs(x))
        if x>=2: return f32(0)
        if x>=1: return ((f32(-0.5)*x+f32(2.5))*x-f32(4))*x+f32(2)
        return (f32(1.5)*x-f32(2.5))*x*x+f32(1)
    return k,2.0
def mitchell():
    def k(x):
        x=f32(abs(x))
        if x>=2: return f32(0)
        if x>=1: return (((f32(-7/18))*x+f32(2))*x-f32(10/3))*x+f32(16/9)
        return ((f32(7/6))*x-f32(2))*x*x+f32(8/9)
    return k,2.0
def box():
    def k(x):
        x=f32(abs(x))
        if x<0.5: return f32(1)
        if x==0.5: return f32(0.5)
        return f32(0)
    return k,0.5
def st(v,O,kern,scale,tr,aa):
    k,R=kern; I=len(v)
    inv_scale=f32(1.0/float(f32(scale))); inv_tr=f32(-inv_scale*f32(tr))
    ks=max(inv_scale,f32(1)) if aa else f32(1)
    out=[]
    for x in range(O):
        s=f32(f32(x+0.5)*inv_scale+inv_tr)
        if s<0 or s>I: out.append(0.0); continue
        a=math.ceil(f32(s-f32(R)*ks-f32(0.5))); b=math.floor(f32(s+f32(R)*ks-f32(0.5)))
        a=min(max(a,0),I-1); b=min(max(b,0),I-1)+1
        ws=[k(f32(f32(src)+f32(0.5)-s)*f32(1/ks)) for src in range(a,b)]
        t=f32(sum(ws))
        if abs(t)>=1000*np.finfo(np.float32).tiny: ws=[w*f32(1/t) for w in ws]
        out.append(float(sum(f32(w)*f32(v[src]) for w,src in zip(ws,range(a,b)))))
    return np.array(out)


def tf_case(name, kern, alg, I, O, sc, tr, aa):
    v = rng.random(I).astype(np.float32)
    s = sc if sc is not None else float(f32(O) / f32(I))
    want = st(v, O, kern, s, 0.0 if tr is None else tr, aa)
    args = ["--vendor=tensorflow", "--alg=" + alg,
            "--antialias=" + ("true" if aa else "false")]
    if tr is not None:
        args += ["--scales=%r" % sc, "--translate=%r" % tr]
    got = run_tool(v.reshape(1, 1, I), "mb1ic1iw%dow%d" % (I, O), args)
    compare(None if got is None else got.ravel(), want,
            "TensorFlow %s %d -> %d scale %s translate %s%s" % (
                name, I, O, sc, tr, " antialiased" if aa else ""), 1e-6)


def tf_area(v, O):
    """TensorFlow's resize_area (core/kernels/image/resize_area_op.cc) on
    one row: each input cell's covered part of [x s, (x + 1) s), float."""
    I = len(v)
    s = f32(f32(I) / f32(O))
    out = []
    for x in range(O):
        a = f32(f32(x) * s)
        b = f32(f32(x + 1) * s)
        acc = f32(0)
        for j in range(math.floor(a), math.ceil(b)):
            if j < a:
                w = s if j + 1 > b else f32(f32(j + 1) - a)
            else:
                w = f32(b - f32(j)) if j + 1 > b else f32(1)
            acc = f32(acc + f32(v[min(max(j, 0), I - 1)]) * w)
        out.append(float(acc * f32(1.0 / float(s))))
    return np.array(out)


for I, O in [(10, 4), (7, 3), (9, 9), (5, 12), (100, 7)]:
    v = rng.random(I).astype(np.float32)
    got = run_tool(v.reshape(1, 1, I), "mb1ic1iw%dow%d" % (I, O),
                   ["--vendor=tensorflow", "--alg=area"])
    # The library's cover is in double, TensorFlow's in float.
    compare(None if got is None else got.ravel(), tf_area(v, O),
            "TensorFlow area %d -> %d" % (I, O), 3e-6)

TF_KERNELS = [("lanczos3", lanczos(3), "lanczos3"),
              ("lanczos5", lanczos(5), "lanczos5"),
              ("gaussian", gaussian(), "gaussian"),
              ("triangle", triangle(), "bilinear"),
              ("keyscubic", keys(), "bicubic"),
              ("mitchellcubic", mitchell(), "mitchellcubic")]
TF_SHAPES = [(10, 17, None, None), (20, 7, None, None),
             (10, 17, 1.7, 0.0), (10, 17, 1.5, 2.5), (20, 7, 0.4, -1.25),
             (13, 13, 1.0, 3.0), (30, 9, 0.3, 0.7)]
if quick:
    TF_SHAPES = TF_SHAPES[:4]
for name, kern, alg in TF_KERNELS:
    for I, O, sc, tr in TF_SHAPES:
        for aa in (False, True):
            tf_case(name, kern, alg, I, O, sc, tr, aa)

# JAX's scale_and_translate (jax.image), which shares TensorFlow's
# definition but computes in its own order (a weight matrix over every
# input pixel, a matrix product): a JAX run's outputs, committed with
# their provenance (tests/inputs/jax_scale_and_translate.json, written by
# tests/gen_jax_cases.py), and its gradients (jax.vjp), against the
# TensorFlow preset's forward within 1e-6 and backward within 1e-6 of the
# gradient's largest magnitude.
jax_file = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "inputs", "jax_scale_and_translate.json")
with open(jax_file) as f:
    jax_cases = json.load(f)
print("# " + jax_cases["provenance"])
for c in (jax_cases["cases"][::3] if quick else jax_cases["cases"]):
    v = np.array([float(a) for a in c["x"]], np.float32)
    args = ["--vendor=tensorflow", "--alg=" + c["alg"],
            "--antialias=" + ("true" if c["antialias"] else "false")]
    if c["translate"] is not None:
        args += ["--scales=%r" % c["scale"], "--translate=%r" % c["translate"]]
    got = run_tool(v.reshape(1, 1, c["in"]), "mb1ic1iw%dow%d" % (c["in"],
                                                                c["out"]),
                   args)
    what = "JAX %s %d -> %d scale %s translate %s%s" % (
        c["method"], c["in"], c["out"], c["scale"], c["translate"],
        " antialiased" if c["antialias"] else "")
    compare(None if got is None else got.ravel(),
            np.array([float(a) for a in c["y"]]), what, 1e-6)
    # The gradient: the backward pass of the same problem (dy into dx).
    dy = np.array([float(a) for a in c["dy"]], np.float32)
    got = run_tool(dy.reshape(1, 1, c["out"]), "mb1ic1iw%dow%d" % (
        c["in"], c["out"]), ["--dir=BWD_D"] + args,
                   ("--diff-dst-file=", "--diff-src-file="))
    # A gradient entry sums up to O / I * the filter's width products
    # (5 -> 64 Lanczos: about 13): 1e-6 of its largest magnitude.
    dx = np.array([float(a) for a in c["dx"]])
    compare(None if got is None else got.ravel(), dx, what + ", gradient",
            1e-6 * max(1.0, float(np.max(np.abs(dx)))))

print("# Pillow %s, OpenCV %s" % (Image.__version__ if hasattr(
    Image, "__version__") else __import__("PIL").__version__,
    cv2.__version__))
print("1..%d" % n)
sys.exit(1 if failed else 0)
