#!/usr/bin/env python3
"""Times image resizes in clresample and in the image libraries, side by
side in one run, and prints each peer's time with the ratio
clresample / peer (below 1.0: clresample is faster).

    python3 tools/peers.py [--tool=tools/clresample] [--runs=N]
                           [--threads=N] [--only=SUBSTRING]

Peers: OpenCV (Debian's python3-opencv), Pillow (python3-pil) and, where
it is installed, PyTorch on the CPU; a peer that is missing, or has no
equivalent of a problem, shows '-'. Each peer writes into a
preallocated output where its API allows (OpenCV's dst=; Pillow and
PyTorch allocate), runs once to warm up, then is timed best of --runs on
the host clock. clresample's figure is its kernel time from OpenCL
profiling events (the tool's --mode=P, best of its runs over 0.5 s),
on the default device (CLRS_DEVICE picks another).
"""

import argparse
import csv
import io
import os
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:  # every peer needs it
    np = None
try:
    import cv2
except ImportError:
    cv2 = None
try:
    from PIL import Image
except ImportError:
    Image = None
try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None


class Problem:
    """One resize: a name, clresample's knobs and descriptor, and the
    shapes, type and method each peer is given."""

    def __init__(self, name, dt, c, src_hw, dst_hw, knobs, cv=None,
                 pil=None, pt=None, window=0):
        self.name, self.dt, self.c = name, dt, c
        self.src_hw, self.dst_hw = src_hw, dst_hw
        self.knobs = knobs
        self.cv, self.pil, self.pt = cv, pil, pt
        self.window = window  # pooling: a window and stride of this size

    def desc(self):
        (ih, iw), (oh, ow) = self.src_hw, self.dst_hw
        if self.window:
            k = self.window
            return "mb1ic%dih%diw%dkh%dkw%dsh%dsw%dn\"%s\"" % (
                self.c, ih, iw, k, k, k, k, self.name)
        return "mb1ic%dih%diw%doh%dow%dn\"%s\"" % (self.c, ih, iw, oh, ow,
                                                  self.name)


def problems():
    hd, uhd, small = (1080, 1920), (2160, 3840), (224, 224)
    lin = "--alg=linear"
    pt_lin = dict(mode="bilinear", align_corners=False)
    pt_aa = dict(mode="bilinear", align_corners=False, antialias=True)
    pt_cub = dict(mode="bicubic", align_corners=False)
    return [
        Problem("u8_rgb_1080p_to_4k_bilinear", "u8", 3, hd, uhd, lin,
                cv="INTER_LINEAR", pil="BILINEAR", pt=pt_lin),
        Problem("u8_rgba_1080p_to_4k_bilinear", "u8", 4, hd, uhd, lin,
                cv="INTER_LINEAR", pil="BILINEAR", pt=pt_lin),
        Problem("u8_gray_1080p_to_4k_bilinear", "u8", 1, hd, uhd, lin,
                cv="INTER_LINEAR", pil="BILINEAR", pt=pt_lin),
        Problem("f32_rgb_1080p_to_4k_bilinear", "f32", 3, hd, uhd, lin,
                cv="INTER_LINEAR", pt=pt_lin),
        Problem("u8_rgb_1080p_to_4k_nearest", "u8", 3, hd, uhd,
                "--alg=nearest --nearest=round_prefer_ceil",
                cv="INTER_NEAREST_EXACT"),
        Problem("u8_rgb_1080p_to_4k_bicubic", "u8", 3, hd, uhd,
                "--alg=cubic --cubic-a=-0.75", cv="INTER_CUBIC", pt=pt_cub),
        # A 2x box: OpenCV's INTER_AREA, Pillow's BOX and PyTorch's
        # area at a whole factor are 2x2 average pooling.
        Problem("u8_rgb_4k_to_1080p_area", "u8", 3, uhd, hd,
                "--alg=avg_np", cv="INTER_AREA", pil="BOX",
                pt=dict(mode="area"), window=2),
        Problem("u8_rgb_1080p_to_224_aa_bilinear", "u8", 3, hd, small,
                "--alg=linear --antialias=true", pil="BILINEAR", pt=pt_aa),
        Problem("u8_rgb_1080p_to_224_aa_bicubic", "u8", 3, hd, small,
                "--alg=cubic --cubic-a=-0.5 --antialias=true",
                pil="BICUBIC",
                pt=dict(mode="bicubic", align_corners=False,
                        antialias=True)),
        # Lanczos-3, antialiased: Pillow's LANCZOS pixel for pixel (its
        # preset: fixed point, the horizontal pass first, the
        # intermediate rounded to u8), and the float filter in the
        # passes' order of least cost.
        Problem("u8_rgb_1080p_to_224_lanczos3_pillow", "u8", 3, hd, small,
                "--vendor=pillow --alg=lanczos", pil="LANCZOS"),
        Problem("u8_rgb_1080p_to_224_lanczos3", "u8", 3, hd, small,
                "--alg=filter --filter=lanczos:3 --antialias=true",
                pil="LANCZOS"),
    ]


def best_of(fn, runs):
    fn()  # warm-up
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def image(p):
    rng = np.random.default_rng(1)
    h, w = p.src_hw
    if p.dt == "u8":
        return rng.integers(0, 256, size=(h, w, p.c), dtype=np.uint8)
    return rng.random(size=(h, w, p.c), dtype=np.float32)


def time_opencv(p, src, runs):
    if cv2 is None or p.cv is None:
        return None
    oh, ow = p.dst_hw
    dst = np.empty((oh, ow, p.c) if p.c > 1 else (oh, ow), dtype=src.dtype)
    s = src if p.c > 1 else src[:, :, 0]
    how = getattr(cv2, p.cv)
    return best_of(lambda: cv2.resize(s, (ow, oh), dst=dst,
                                      interpolation=how), runs)


def time_pillow(p, src, runs):
    if Image is None or p.pil is None or p.dt != "u8":
        return None
    mode = {1: "L", 3: "RGB", 4: "RGBA"}[p.c]
    im = Image.fromarray(src if p.c > 1 else src[:, :, 0], mode)
    oh, ow = p.dst_hw
    how = getattr(Image.Resampling, p.pil)
    return best_of(lambda: im.resize((ow, oh), how), runs)


def time_torch(p, src, runs):
    if torch is None or p.pt is None:
        return None
    x = torch.from_numpy(src).permute(2, 0, 1).unsqueeze(0)
    x = x.contiguous(memory_format=torch.channels_last)
    if p.dt == "u8" and p.pt["mode"] == "bicubic" and \
            not p.pt.get("antialias"):
        return None  # no u8 bicubic without antialias
    with torch.inference_mode():
        try:
            return best_of(lambda: F.interpolate(x, size=p.dst_hw, **p.pt),
                           runs)
        except RuntimeError:
            return None  # not implemented for this type


def time_clresample(tool, probs):
    """min_ms of each problem from one run of the tool."""
    # Warm runs, as the peers' repeated calls on the same arrays are.
    lines = ["--reset --mode=P --max-ms-per-prb=500 --dir=FWD_I --tag=axb "
             "--cold-cache=false"]
    for p in probs:
        lines.append("--reset --mode=P --max-ms-per-prb=500 --dir=FWD_I "
                     "--cold-cache=false "
                     "--tag=axb --sdt=%s --ddt=%s %s %s"
                     % (p.dt, p.dt, p.knobs, p.desc()))
    batch = "/tmp/clresample-peers-%d.batch" % os.getpid()
    with open(batch, "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        out = subprocess.run([tool, "--perf-template=csv",
                              "--batch=" + batch], capture_output=True,
                             text=True, check=False)
    finally:
        os.unlink(batch)
    times = {}
    rows = [ln for ln in out.stdout.splitlines() if ln.strip()]
    for r in csv.DictReader(io.StringIO("\n".join(rows))):
        try:
            times[r["name"]] = float(r["min_ms"])
        except (KeyError, TypeError, ValueError):
            pass
    if not times:
        sys.stderr.write(out.stdout + out.stderr)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "clresample"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if np is None:
        sys.exit("peers.py: needs NumPy (Debian's python3-numpy)")
    probs = [p for p in problems() if a.only in p.name]
    if cv2 is not None:
        cv2.setNumThreads(a.threads)
    if torch is not None:
        torch.set_num_threads(a.threads)
    ours = time_clresample(a.tool, probs)
    print("threads: %d; peers: OpenCV %s, Pillow %s, PyTorch %s" % (
        a.threads, cv2.__version__ if cv2 else "-",
        Image.__version__ if Image else "-",
        torch.__version__ if torch else "-"))
    print("%-34s %10s %18s %18s %18s" % ("problem", "clresample",
                                         "OpenCV", "Pillow", "PyTorch"))
    for p in probs:
        src = image(p)
        mine = ours.get(p.name)
        cells = []
        for fn in (time_opencv, time_pillow, time_torch):
            t = fn(p, src, a.runs)
            if t is None:
                cells.append("-")
            elif mine:
                cells.append("%.2f ms %5.2fx" % (t, mine / t))
            else:
                cells.append("%.2f ms" % t)
        print("%-34s %10s %18s %18s %18s" % (
            p.name, "%.2f ms" % mine if mine else "-", *cells))
    print("ratio: clresample's time / the peer's (below 1: clresample is "
          "faster)")


if __name__ == "__main__":
    main()
