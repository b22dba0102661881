#!/usr/bin/python3
"""Writes tests/inputs/jax_scale_and_translate.json: JAX's own outputs of
jax.image.scale_and_translate (float32, CPU, precision HIGHEST) on 1-D
random signals, and its gradient (jax.vjp) for a random dy, for
tests/filter_peers.py to compare the TensorFlow preset's forward and
backward with (JAX shares TensorFlow's definition). The tests read the file; they
do not need JAX. Run it again, with JAX installed, to refresh the values:

    python3 tests/gen_jax_cases.py > tests/inputs/jax_scale_and_translate.json

Cases: Lanczos-3, Lanczos-5, Keys cubic and the triangle, plain and
antialiased, plain resizes (scale O / I, translation 0: jax.image.resize)
and scale-and-translate with outputs sampling outside the input."""
import json
import platform
import sys

import numpy as np
import jax
import jax.numpy as jnp
import jaxlib

jax.config.update("jax_platforms", "cpu")
SEED = 2026
# (JAX's method, the TensorFlow preset's name for it)
KERNELS = [("lanczos3", "lanczos3"), ("lanczos5", "lanczos5"),
           ("cubic", "bicubic"), ("linear", "bilinear")]
# (input, output, scale or None for O / I, translation or None for 0)
SHAPES = [(10, 17, None, None), (20, 7, None, None),
          (10, 17, 1.7, 0.0), (10, 17, 1.5, 2.5), (20, 7, 0.4, -1.25),
          (13, 13, 1.0, 3.0), (30, 9, 0.3, 0.7), (64, 5, None, None),
          (5, 64, None, None)]

rng = np.random.default_rng(SEED)
cases = []
for method, alg in KERNELS:
    for n_in, n_out, scale, tr in SHAPES:
        for aa in (False, True):
            x = rng.random(n_in).astype(np.float32)
            s = (np.float32(n_out) / np.float32(n_in) if scale is None
                 else np.float32(scale))
            t = np.float32(0.0 if tr is None else tr)
            dy = rng.random(n_out).astype(np.float32)

            def f(img, s=s, t=t, n_out=n_out, method=method, aa=aa):
                return jax.image.scale_and_translate(
                    img, (n_out,), (0,), jnp.asarray([s]), jnp.asarray([t]),
                    method, antialias=aa,
                    precision=jax.lax.Precision.HIGHEST)

            y, vjp = jax.vjp(f, jnp.asarray(x))
            (dx,) = vjp(jnp.asarray(dy))
            cases.append({"method": method, "alg": alg, "in": n_in,
                          "out": n_out, "scale": scale, "translate": tr,
                          "antialias": aa,
                          "x": ["%.9g" % v for v in x],
                          "y": ["%.9g" % v for v in np.asarray(y)],
                          "dy": ["%.9g" % v for v in dy],
                          "dx": ["%.9g" % v for v in np.asarray(dx)]})
# One case a line.
sys.stdout.write('{"provenance": %s,\n"cases": [\n' % json.dumps(
    "jax.image.scale_and_translate, JAX %s (jaxlib %s), CPU, Python %s, "
    "seed %d, tests/gen_jax_cases.py" % (jax.__version__, jaxlib.__version__,
                                          platform.python_version(), SEED)))
sys.stdout.write(",\n".join(json.dumps(c) for c in cases))
sys.stdout.write("\n]}\n")
