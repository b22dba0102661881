/* clresample's extensible families, one X-macro map each: resampling
 * modes, eltwise and binary post-ops, data types. The library, the CPU
 * reference, the kernel generator and the command-line tool all read
 * these rows, so a new mode or post-op is a row here (plus what its
 * columns name: a taps function, a reference function) and its
 * enumerator in include/clresample.h. A new dtype takes more: a
 * cl/dtype.cl block, the reference's and the tool's conversions
 * (lib/convert.c, tools/data.c), and code that names dtypes in
 * lib/lower.c, lib/codegen.c and tools/run.c; lib/README.md's
 * "Checklists" section lists every file for each family. Private: not
 * installed; the tool includes it for the macros and static inline helpers only
 * (the shared library exports none of this).
 *
 * Every map's rows cover its public enum exactly: the enumerators are
 * 0 .. CLRS_<FAMILY>_COUNT - 1 (checked below at compile time), and the
 * helpers switch over the enum type, so with -Wall an enumerator without
 * a row is a warning (an error under -Werror). Range checks compare with
 * the _COUNT, never with the last enumerator. */
#ifndef CLRS_FEATURE_MAPS_H
#define CLRS_FEATURE_MAPS_H

#include "clresample.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- resampling modes -----------------------------------------------------
 * X(ENUM, name, cli, kclass, pooling, pad, taps_fn, taps, opts, exact)
 *   ENUM     CLRS_MODE_<ENUM>
 *   name     the library's name in messages
 *   cli      the tool's --alg spelling (benchdnn's)
 *   kclass   kernel class: WSUM (weighted sum of taps) or MAX (the
 *            largest tap, argmax index): CLRS_KCLASS_<kclass>
 *   pooling  1: a window over the input (window coordinates, a window is
 *            required, sizes by the pooling rule); 0: interpolation
 *   pad      what CLRS_PAD_DEFAULT resolves to: CLRS_PAD_<pad>
 *   taps_fn  lib/taps.c's static function giving one output's taps
 *   taps     taps per axis without antialias (0: the window's extent)
 *   opts     CLRS_MOPT_* bits: the mode-specific options it allows
 *   exact    1: every result is one input value (no arithmetic), so the
 *            device matches the reference bit for bit */
#define CLRS_MOPT_ANTIALIAS 1u       /* set_antialias */
#define CLRS_MOPT_EXCLUDE_OUTSIDE 2u /* set_exclude_outside */
#define CLRS_MOPT_INDEX 4u           /* index tensor, neg_inf padding,
                                        backward from x (argmax) */
#define CLRS_MOPT_CROP 8u            /* tf_crop_and_resize coordinates */

#define CLRS_MODE_MAP(X)                                                     \
    X(NEAREST, "nearest", "nearest", WSUM, 0, EDGE, taps_nearest, 1,         \
      CLRS_MOPT_CROP, 1)                                                     \
    X(LINEAR, "linear", "linear", WSUM, 0, EDGE, taps_linear, 2,             \
      CLRS_MOPT_ANTIALIAS | CLRS_MOPT_CROP, 0)                               \
    X(CUBIC, "cubic", "cubic", WSUM, 0, EDGE, taps_cubic, 4,                 \
      CLRS_MOPT_ANTIALIAS | CLRS_MOPT_EXCLUDE_OUTSIDE | CLRS_MOPT_CROP, 0)   \
    X(AVG_INCLUDE_PADDING, "avg_include_padding", "avg_p", WSUM, 1, ZERO,    \
      taps_avg, 0, 0u, 0)                                                    \
    X(AVG_EXCLUDE_PADDING, "avg_exclude_padding", "avg_np", WSUM, 1, ZERO,   \
      taps_avg, 0, 0u, 0)                                                    \
    X(MAX, "max", "max", MAX, 1, NEG_INF, taps_max, 0, CLRS_MOPT_INDEX, 1)  \
    X(AVG_ADAPTIVE, "avg_adaptive", "avg_adaptive", WSUM, 0, EDGE,           \
      taps_adaptive, 0, 0u, 0)                                               \
    X(FILTER, "filter", "filter", WSUM, 0, EDGE, taps_filter, 0,             \
      CLRS_MOPT_ANTIALIAS | CLRS_MOPT_EXCLUDE_OUTSIDE | CLRS_MOPT_CROP, 0)

/* ---- filters of CLRS_MODE_FILTER ------------------------------------------
 * X(ENUM, name, np, p, q)
 *   ENUM  CLRS_FILTER_<ENUM>
 *   name  the library's and the tool's name (--filter=NAME:p:q)
 *   np    how many parameters it takes (0, 1 or 2)
 *   p, q  their defaults (lib/model/taps.c evaluates the filters) */
#define CLRS_FILTER_MAP(X)                                                     \
    X(LANCZOS, "lanczos", 1, 3.0, 0.0)                                         \
    X(GAUSSIAN, "gaussian", 1, 0.5, 0.0)                                       \
    X(BOX, "box", 2, 0.5, 0.5)                                                 \
    X(TRIANGLE, "triangle", 0, 0.0, 0.0)                                       \
    X(HAMMING, "hamming", 0, 0.0, 0.0)                                         \
    X(KEYS, "keys", 1, -0.5, 0.0)                                              \
    X(MITCHELL, "mitchell", 2, 1.0 / 3.0, 1.0 / 3.0)                           \
    X(AREA, "area", 0, 0.0, 0.0)

/* ---- the image libraries' methods ----------------------------------------
 * X(VENDOR, name, MODE, FILTER, p, q, COORD, ROUNDING, RULE, ARITH, aa)
 *   VENDOR    CLRS_VENDOR_<VENDOR>, whose preset names the method
 *   name      the library's name (clrs_resample_desc_set_method; the
 *             tool's --alg under --vendor)
 *   MODE      CLRS_MODE_<MODE>; FILTER, p, q its filter (mode FILTER)
 *   COORD, ROUNDING, RULE, ARITH   CLRS_COORD_, CLRS_ROUND_, CLRS_AA_,
 *             CLRS_ARITH_
 *   aa        antialias: 0 off, 1 on, -1 as set (TensorFlow's flag)
 * TensorFlow's resize_bilinear and resize_bicubic (half-pixel centres)
 * are its triangle and Keys kernels restricted to the input, as its
 * scale_and_translate, so one row serves antialias on and off. */
#define CLRS_METHOD_MAP(X)                                                     \
    X(PILLOW, "nearest", NEAREST, BOX, 0.5, 0.5, HALF_PIXEL, PREFER_CEIL,      \
      PILLOW, PILLOW, 0)                                                       \
    X(PILLOW, "box", FILTER, BOX, 0.0, 1.0, HALF_PIXEL, PREFER_FLOOR, PILLOW,  \
      PILLOW, 1)                                                               \
    X(PILLOW, "bilinear", FILTER, TRIANGLE, 0.0, 0.0, HALF_PIXEL,              \
      PREFER_FLOOR, PILLOW, PILLOW, 1)                                         \
    X(PILLOW, "hamming", FILTER, HAMMING, 0.0, 0.0, HALF_PIXEL, PREFER_FLOOR,  \
      PILLOW, PILLOW, 1)                                                       \
    X(PILLOW, "bicubic", FILTER, KEYS, -0.5, 0.0, HALF_PIXEL, PREFER_FLOOR,    \
      PILLOW, PILLOW, 1)                                                       \
    X(PILLOW, "lanczos", FILTER, LANCZOS, 3.0, 0.0, HALF_PIXEL, PREFER_FLOOR,  \
      PILLOW, PILLOW, 1)                                                       \
    X(OPENCV, "nearest", NEAREST, BOX, 0.5, 0.5, ASYMMETRIC, FLOOR, ONNX,      \
      OPENCV, 0)                                                               \
    X(OPENCV, "linear", LINEAR, BOX, 0.5, 0.5, HALF_PIXEL, PREFER_FLOOR, ONNX, \
      OPENCV, 0)                                                               \
    X(OPENCV, "cubic", CUBIC, BOX, 0.5, 0.5, HALF_PIXEL, PREFER_FLOOR, ONNX,   \
      OPENCV, 0)                                                               \
    X(OPENCV, "area", FILTER, AREA, 0.0, 0.0, HALF_PIXEL, PREFER_FLOOR, ONNX,  \
      FLOAT, 0)                                                                \
    X(OPENCV, "lanczos4", FILTER, LANCZOS, 4.0, 0.0, HALF_PIXEL, PREFER_FLOOR, \
      ONNX, OPENCV, 0)                                                         \
    X(OPENCV, "linear_exact", LINEAR, BOX, 0.5, 0.5, HALF_PIXEL, PREFER_FLOOR, \
      ONNX, OPENCV_EXACT, 0)                                                   \
    X(OPENCV, "nearest_exact", NEAREST, BOX, 0.5, 0.5, HALF_PIXEL, FLOOR,      \
      ONNX, OPENCV_EXACT, 0)                                                   \
    X(TENSORFLOW, "bilinear", FILTER, TRIANGLE, 0.0, 0.0, HALF_PIXEL,          \
      PREFER_FLOOR, PYTORCH, TENSORFLOW, -1)                                   \
    X(TENSORFLOW, "nearest", NEAREST, BOX, 0.5, 0.5, HALF_PIXEL, PREFER_CEIL,  \
      PYTORCH, TENSORFLOW, 0)                                                  \
    X(TENSORFLOW, "bicubic", FILTER, KEYS, -0.5, 0.0, HALF_PIXEL,              \
      PREFER_FLOOR, PYTORCH, TENSORFLOW, -1)                                   \
    X(TENSORFLOW, "area", FILTER, AREA, 0.0, 0.0, HALF_PIXEL, PREFER_FLOOR,    \
      PYTORCH, FLOAT, 0)                                                       \
    X(TENSORFLOW, "lanczos3", FILTER, LANCZOS, 3.0, 0.0, HALF_PIXEL,           \
      PREFER_FLOOR, PYTORCH, TENSORFLOW, -1)                                   \
    X(TENSORFLOW, "lanczos5", FILTER, LANCZOS, 5.0, 0.0, HALF_PIXEL,           \
      PREFER_FLOOR, PYTORCH, TENSORFLOW, -1)                                   \
    X(TENSORFLOW, "gaussian", FILTER, GAUSSIAN, 0.5, 0.0, HALF_PIXEL,          \
      PREFER_FLOOR, PYTORCH, TENSORFLOW, -1)                                   \
    X(TENSORFLOW, "mitchellcubic", FILTER, MITCHELL, 1.0 / 3.0, 1.0 / 3.0,     \
      HALF_PIXEL, PREFER_FLOOR, PYTORCH, TENSORFLOW, -1)

/* Kernel classes: the values of clrs_gen_class (lib/codegen.h, which
 * checks that they agree). */
#define CLRS_KCLASS_WSUM 0
#define CLRS_KCLASS_MAX 1

/* ---- eltwise post-ops -----------------------------------------------------
 * X(ENUM, name, cl, ref)
 *   name  the name in kernel keys and the tool's eltwise_<name>
 *   cl    OpenCL C expression, the body of a function-like macro serving
 *         scalars and vectors of float or double: T the value type, X the
 *         value, A and B alpha and beta (lib/gen_rows.c); a constant
 *         with a fraction is written CLRS_K(c), c in T's precision
 *         (a plain literal is a double)
 *   ref   the reference's expression in double of x, a (alpha) and b
 *         (beta) (lib/ref.c, which defines the clrs__ref_* functions)
 * At an infinity the functions whose formula would give inf * 0 (gelu,
 * swish, hardswish, mish) give their limit instead: x where the gate
 * opens, 0 where it closes. */
#define CLRS_ELTWISE_MAP(X)                                                  \
    X(RELU, "relu", "((X) > (T)(0) ? (X) : (A) * (X))",                      \
      (x > 0 ? x : a * x))                                                   \
    X(CLIP, "clip", "((X) < (T)(A) ? (T)(A) : (X) > (T)(B) ? (T)(B) : (X))", \
      (x < a ? a : x > b ? b : x))                                           \
    X(TANH, "tanh", "tanh(X)", tanh(x))                                      \
    X(LOGISTIC, "logistic", "((T)(1) / ((T)(1) + exp(-(X))))",               \
      (1 / (1 + exp(-x))))                                                   \
    X(ELU, "elu", "((X) > (T)(0) ? (X) : (A) * expm1(X))",                   \
      (x > 0 ? x : a * expm1(x)))                                            \
    X(GELU_TANH, "gelu_tanh",                                                \
      "(isinf(X) ? ((X) > (T)(0) ? (X) : (T)(0)) : "                         \
      "(T)(CLRS_K(0.5)) * (X) * ((T)(1) + "                                  \
      "tanh((T)(CLRS_K(0.79788456080286535588)) * "                          \
      "((X) + (T)(CLRS_K(0.044715)) * (X) * (X) * (X)))))",                  \
      clrs__ref_gelu_tanh(x))                                                \
    X(GELU_ERF, "gelu_erf",                                                  \
      "(isinf(X) ? ((X) > (T)(0) ? (X) : (T)(0)) : "                         \
      "(T)(CLRS_K(0.5)) * (X) * ((T)(1) + erf((X) * "                        \
      "(T)(CLRS_K(0.70710678118654752440)))))",                              \
      clrs__ref_gelu_erf(x))                                                 \
    X(SWISH, "swish",                                                        \
      "(isinf(X) ? ((A) * (X) < (T)(0) ? (T)(0) : (A) == (T)(0) ? "          \
      "(T)(CLRS_K(0.5)) * (X) : (X)) : (X) / ((T)(1) + exp(-(A) * (X))))",   \
      clrs__ref_swish(x, a))                                                 \
    X(ABS, "abs", "fabs(X)", fabs(x))                                        \
    X(SQUARE, "square", "((X) * (X))", (x * x))                              \
    X(SQRT, "sqrt", "sqrt(X)", sqrt(x))                                      \
    X(EXP, "exp", "exp(X)", exp(x))                                          \
    X(LOG, "log", "log(X)", log(x))                                          \
    X(LINEAR, "linear", "((A) * (X) + (B))", (a * x + b))                    \
    X(HARDSWISH, "hardswish",                                                \
      "(isinf(X) ? ((A) * (X) > (T)(0) || ((A) == (T)(0) && (B) > (T)(0)) "  \
      "? (X) : (T)(0)) : "                                                   \
      "(X) * fmax((T)(0), fmin((T)(1), (A) * (X) + (B))))",                  \
      clrs__ref_hardswish(x, a, b))                                          \
    X(MISH, "mish",                                                          \
      "(isinf(X) ? ((X) > (T)(0) ? (X) : (T)(0)) : "                         \
      "(X) * tanh(fmax((X), (T)(0)) + log1p(exp(-fabs(X)))))",               \
      clrs__ref_mish(x))

/* ---- binary post-ops ------------------------------------------------------
 * X(ENUM, name, cl, ref): as for eltwise, with Y (y in the reference) the
 * operand. max and min propagate a NaN from either side (fmax and fmin
 * would drop it). */
#define CLRS_BINARY_MAP(X)                                                   \
    X(ADD, "add", "((X) + (Y))", (x + y))                                    \
    X(SUB, "sub", "((X) - (Y))", (x - y))                                    \
    X(MUL, "mul", "((X) * (Y))", (x * y))                                    \
    X(DIV, "div", "((X) / (Y))", (x / y))                                    \
    X(MAX, "max", "((X) > (Y) || isnan(X) ? (X) : (Y))",                     \
      (x > y || isnan(x) ? x : y))                                           \
    X(MIN, "min", "((X) < (Y) || isnan(X) ? (X) : (Y))",                     \
      (x < y || isnan(x) ? x : y))

/* ---- data types -----------------------------------------------------------
 * X(ENUM, name, size, cl_store, cl_load, kernel, fp64, vstore, is_float,
 *   npy, npy_size)
 *   ENUM      CLRS_<ENUM>
 *   name      clrs_dtype_name(), the kernel keys' and the tool's spelling
 *   size      bytes per element
 *   cl_store  OpenCL C element type in global memory
 *   cl_load   OpenCL C scalar type a load yields (the compute type is
 *             float or double, see gen_text.c's acc_type; a load of
 *             another type is converted)
 *   kernel    1: the generator has the parts <name>, "<name> vector" and
 *             "<name> nt" in cl/dtype.cl (loads CLRS_LD[V]_<name>, stores
 *             CLRS_ST[V][NT]_<name>); 0: index tensors only
 *   fp64      the kernel needs cl_khr_fp64
 *   vstore    has a vector store CLRS_STV_<name>
 *   is_float  floating (gradients, reference rounding to nearest even);
 *             else integer (round to nearest even, saturate, NaN -> 0:
 *             lib/convert.c)
 *   npy       the tool's NumPy descr for .npy files (bf16 files hold f32)
 *   npy_size  bytes per element in such a file */
#define CLRS_DTYPE_MAP(X)                                                    \
    X(F32, "f32", 4, "float", "float", 1, 0, 1, 1, "<f4", 4)                \
    X(F16, "f16", 2, "half", "float", 1, 0, 1, 1, "<f2", 2)                  \
    X(BF16, "bf16", 2, "ushort", "float", 1, 0, 1, 1, "<f4", 4)              \
    X(F64, "f64", 8, "double", "double", 1, 1, 1, 1, "<f8", 8)               \
    X(S32, "s32", 4, "int", "int", 1, 0, 1, 0, "<i4", 4)                     \
    X(S8, "s8", 1, "char", "char", 1, 0, 1, 0, "|i1", 1)                     \
    X(U8, "u8", 1, "uchar", "uchar", 1, 0, 1, 0, "|u1", 1)                   \
    X(S64, "s64", 8, "long", "long", 0, 0, 0, 0, "<i8", 8)

/* ---- counts and their compile-time checks ---------------------------------
 * Each count is the number of rows; each row's enumerator must lie below
 * it, and the switches below reject duplicates, so the enumerators are
 * exactly 0 .. count - 1. */
#define CLRS__PLUS_ONE_(...) +1
enum {
    CLRS_MODE_COUNT = 0 CLRS_MODE_MAP(CLRS__PLUS_ONE_),
    CLRS_ELTWISE_COUNT = 0 CLRS_ELTWISE_MAP(CLRS__PLUS_ONE_),
    CLRS_BINARY_COUNT = 0 CLRS_BINARY_MAP(CLRS__PLUS_ONE_),
    CLRS_DTYPE_COUNT = 0 CLRS_DTYPE_MAP(CLRS__PLUS_ONE_),
    CLRS_FILTER_COUNT = 0 CLRS_FILTER_MAP(CLRS__PLUS_ONE_)
};
#define CLRS__CHECK_MODE_(e, ...)                                              \
    clrs__mode_in_range_##e =                                                  \
        sizeof(char[(int)CLRS_MODE_##e < (int)CLRS_MODE_COUNT ? 1 : -1]),
#define CLRS__CHECK_ELTWISE_(e, ...)                                         \
    clrs__eltwise_in_range_##e =                                             \
        sizeof(char[(int)CLRS_ELTWISE_##e < (int)CLRS_ELTWISE_COUNT ? 1 : -1]),
#define CLRS__CHECK_BINARY_(e, ...)                                          \
    clrs__binary_in_range_##e =                                              \
        sizeof(char[(int)CLRS_BINARY_##e < (int)CLRS_BINARY_COUNT ? 1 : -1]),
#define CLRS__CHECK_DTYPE_(e, ...)                                             \
    clrs__dtype_in_range_##e =                                                 \
        sizeof(char[(int)CLRS_##e < (int)CLRS_DTYPE_COUNT ? 1 : -1]),
#define CLRS__CHECK_FILTER_(e, ...)                                          \
    clrs__filter_in_range_##e =                                              \
        sizeof(char[(int)CLRS_FILTER_##e < (int)CLRS_FILTER_COUNT ? 1 : -1]),
enum {
    CLRS_MODE_MAP(CLRS__CHECK_MODE_) CLRS_ELTWISE_MAP(CLRS__CHECK_ELTWISE_)
        CLRS_BINARY_MAP(CLRS__CHECK_BINARY_)
            CLRS_DTYPE_MAP(CLRS__CHECK_DTYPE_)
                CLRS_FILTER_MAP(CLRS__CHECK_FILTER_) clrs__features_checked_
};
#undef CLRS__CHECK_MODE_
#undef CLRS__CHECK_ELTWISE_
#undef CLRS__CHECK_BINARY_
#undef CLRS__CHECK_DTYPE_
#undef CLRS__CHECK_FILTER_

/* ---- mode helpers ---------------------------------------------------------
 * Unknown values: valid 0, names "?", every property 0. */
static inline int clrs__mode_valid(int m)
{
    return m >= 0 && m < CLRS_MODE_COUNT;
}

#define CLRS__MODE_COLUMN_(fname, rtype, col, unknown)                       \
    static inline rtype fname(int m)                                         \
    {                                                                        \
        if (!clrs__mode_valid(m))                                            \
            return unknown;                                                  \
        switch ((clrs_mode)m) {                                              \
            CLRS_MODE_MAP(CLRS__MODE_##col##_)                               \
        }                                                                    \
        return unknown;                                                      \
    }
#define CLRS__MODE_name_(e, name, ...) case CLRS_MODE_##e: return name;
#define CLRS__MODE_cli_(e, name, cli, ...) case CLRS_MODE_##e: return cli;
#define CLRS__MODE_kclass_(e, name, cli, kclass, ...)                        \
    case CLRS_MODE_##e:                                                      \
        return CLRS_KCLASS_##kclass;
#define CLRS__MODE_pooling_(e, name, cli, kclass, pooling, ...)              \
    case CLRS_MODE_##e:                                                      \
        return pooling;
#define CLRS__MODE_pad_(e, name, cli, kclass, pooling, pad, ...)             \
    case CLRS_MODE_##e:                                                      \
        return CLRS_PAD_##pad;
#define CLRS__MODE_taps_(e, name, cli, kclass, pooling, pad, fn, taps, ...)  \
    case CLRS_MODE_##e:                                                      \
        return taps;
#define CLRS__MODE_opts_(e, name, cli, kclass, pooling, pad, fn, taps, opts, \
                         exact)                                              \
    case CLRS_MODE_##e:                                                      \
        return opts;
#define CLRS__MODE_exact_(e, name, cli, kclass, pooling, pad, fn, taps,      \
                          opts, exact)                                       \
    case CLRS_MODE_##e:                                                      \
        return exact;

/* "linear", "avg_include_padding": the library's name. */
CLRS__MODE_COLUMN_(clrs__mode_name, const char *, name, "?")
/* "linear", "avg_p": the tool's --alg spelling. */
CLRS__MODE_COLUMN_(clrs__mode_cli_name, const char *, cli, "?")
/* CLRS_KCLASS_WSUM or CLRS_KCLASS_MAX: the clrs_gen_class of the mode's
 * kernels (and of the reference's reduction). */
CLRS__MODE_COLUMN_(clrs__mode_kclass, int, kclass, CLRS_KCLASS_WSUM)
/* 1 for the pooling modes (avg, max). */
CLRS__MODE_COLUMN_(clrs__mode_pooling, int, pooling, 0)
/* What CLRS_PAD_DEFAULT resolves to. */
CLRS__MODE_COLUMN_(clrs__mode_default_padding, clrs_padding, pad,
                   CLRS_PAD_EDGE)
/* Taps per axis without antialias; 0 for pooling (the window's). */
CLRS__MODE_COLUMN_(clrs__mode_taps, int, taps, 0)
/* CLRS_MOPT_* bits. */
CLRS__MODE_COLUMN_(clrs__mode_opts, unsigned, opts, 0u)
/* 1: results are input values, bit-exact against the reference. */
CLRS__MODE_COLUMN_(clrs__mode_exact, int, exact, 0)

#undef CLRS__MODE_COLUMN_

/* ---- filter helpers -------------------------------------------------------
 * Unknown values: valid 0, name "?", no parameters. */
static inline int clrs__filter_valid(int f)
{
    return f >= 0 && f < CLRS_FILTER_COUNT;
}

#define CLRS__FILTER_COLUMN_(fname, rtype, col, unknown)                     \
    static inline rtype fname(int f)                                         \
    {                                                                        \
        if (!clrs__filter_valid(f))                                          \
            return unknown;                                                  \
        switch ((clrs_filter)f) {                                            \
            CLRS_FILTER_MAP(CLRS__FILTER_##col##_)                           \
        }                                                                    \
        return unknown;                                                      \
    }
#define CLRS__FILTER_name_(e, name, ...) case CLRS_FILTER_##e: return name;
#define CLRS__FILTER_np_(e, name, np, ...) case CLRS_FILTER_##e: return np;
#define CLRS__FILTER_p_(e, name, np, p, q) case CLRS_FILTER_##e: return p;
#define CLRS__FILTER_q_(e, name, np, p, q) case CLRS_FILTER_##e: return q;

/* "lanczos": the library's and the tool's name. */
CLRS__FILTER_COLUMN_(clrs__filter_name, const char *, name, "?")
/* How many parameters (p, q) the filter takes. */
CLRS__FILTER_COLUMN_(clrs__filter_nparams, int, np, 0)
/* Their defaults. */
CLRS__FILTER_COLUMN_(clrs__filter_default_p, double, p, 0.0)
CLRS__FILTER_COLUMN_(clrs__filter_default_q, double, q, 0.0)

#undef CLRS__FILTER_COLUMN_

/* ---- method helpers -------------------------------------------------------
 * The row of CLRS_METHOD_MAP for vendor v's name, or -1. */
typedef struct clrs_method {
    int vendor;
    const char *name;
    clrs_mode mode;
    clrs_filter filter;
    double p, q;
    clrs_coord coord;
    clrs_rounding rounding;
    clrs_antialias_rule rule;
    clrs_arith arith;
    int aa;
} clrs_method;

#define CLRS__METHOD_ROW_(v, name, mode, filter, p, q, coord, rnd, rule,       \
                          arith, aa)                                           \
    {CLRS_VENDOR_##v,                                                          \
     name,                                                                     \
     CLRS_MODE_##mode,                                                         \
     CLRS_FILTER_##filter,                                                     \
     p,                                                                        \
     q,                                                                        \
     CLRS_COORD_##coord,                                                       \
     CLRS_ROUND_##rnd,                                                         \
     CLRS_AA_##rule,                                                           \
     CLRS_ARITH_##arith,                                                       \
     aa},
static const clrs_method clrs__methods[] = {CLRS_METHOD_MAP(CLRS__METHOD_ROW_)};
#undef CLRS__METHOD_ROW_
#define CLRS_METHOD_COUNT                                                      \
    ((int)(sizeof clrs__methods / sizeof clrs__methods[0]))

static inline int clrs__method_find(int vendor, const char *name)
{
    int i;
    for (i = 0; name && i < CLRS_METHOD_COUNT; ++i)
        if (clrs__methods[i].vendor == vendor &&
            strcmp(clrs__methods[i].name, name) == 0)
            return i;
    return -1;
}

/* Vendor v's method names, one space apart, into buf (n > 0 bytes;
 * truncated if need be). */
static inline void clrs__method_names(int vendor, char *buf, size_t n)
{
    size_t used = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < CLRS_METHOD_COUNT && used < n; ++i)
        if (clrs__methods[i].vendor == vendor)
            used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                     used ? " " : "", clrs__methods[i].name);
}

/* Whether vendor v's preset has methods. */
static inline int clrs__vendor_has_methods(int vendor)
{
    int i;
    for (i = 0; i < CLRS_METHOD_COUNT; ++i)
        if (clrs__methods[i].vendor == vendor)
            return 1;
    return 0;
}

/* Whether mode m allows the CLRS_MOPT_* option opt. */
static inline int clrs__mode_allows(int m, unsigned opt)
{
    return (clrs__mode_opts(m) & opt) != 0;
}

/* The antialias rule, in one place: the antialiased kernel is used when
 * antialias is set and the mode allows it (linear, cubic, filter); validation
 * rejects antialias on the other modes. */
static inline int clrs__mode_antialiased(int m, int antialias)
{
    return antialias && clrs__mode_allows(m, CLRS_MOPT_ANTIALIAS);
}

/* ---- post-op helpers ------------------------------------------------------
 */

static inline int clrs__eltwise_valid(int alg)
{
    return alg >= 0 && alg < CLRS_ELTWISE_COUNT;
}

static inline int clrs__binary_valid(int alg)
{
    return alg >= 0 && alg < CLRS_BINARY_COUNT;
}

#define CLRS__NAME_CASE_(prefix, e, name) case prefix##e: return name;
#define CLRS__ELTWISE_NAME_(e, name, ...)                                      \
    CLRS__NAME_CASE_(CLRS_ELTWISE_, e, name)
#define CLRS__BINARY_NAME_(e, name, ...) CLRS__NAME_CASE_(CLRS_BINARY_, e, name)

/* "gelu_tanh"; NULL for an unknown value. */
static inline const char *clrs__eltwise_name(int alg)
{
    if (!clrs__eltwise_valid(alg))
        return NULL;
    switch ((clrs_eltwise)alg) {
        CLRS_ELTWISE_MAP(CLRS__ELTWISE_NAME_)
    }
    return NULL;
}

/* "add"; NULL for an unknown value. */
static inline const char *clrs__binary_name(int alg)
{
    if (!clrs__binary_valid(alg))
        return NULL;
    switch ((clrs_binary)alg) {
        CLRS_BINARY_MAP(CLRS__BINARY_NAME_)
    }
    return NULL;
}

/* ---- dtype helpers --------------------------------------------------------
 * Unknown values: valid 0, name NULL, every property 0. */
static inline int clrs__dtype_valid(int dt)
{
    return dt >= 0 && dt < CLRS_DTYPE_COUNT;
}

#define CLRS__DTYPE_COLUMN_(fname, rtype, col, unknown)                      \
    static inline rtype fname(int dt)                                        \
    {                                                                        \
        if (!clrs__dtype_valid(dt))                                          \
            return unknown;                                                  \
        switch ((clrs_dtype)dt) {                                            \
            CLRS_DTYPE_MAP(CLRS__DTYPE_##col##_)                             \
        }                                                                    \
        return unknown;                                                      \
    }
#define CLRS__DTYPE_name_(e, name, ...) case CLRS_##e: return name;
#define CLRS__DTYPE_size_(e, name, size, ...) case CLRS_##e: return size;
#define CLRS__DTYPE_is_float_(e, name, size, st, ld, kernel, fp64, vstore,   \
                              is_float, npy, npy_size)                       \
    case CLRS_##e:                                                           \
        return is_float;
#define CLRS__DTYPE_npy_(e, name, size, st, ld, kernel, fp64, vstore,        \
                         is_float, npy, npy_size)                            \
    case CLRS_##e:                                                           \
        return npy;
#define CLRS__DTYPE_npy_size_(e, name, size, st, ld, kernel, fp64, vstore,   \
                              is_float, npy, npy_size)                       \
    case CLRS_##e:                                                           \
        return npy_size;

/* "f32"; NULL for an unknown value. */
CLRS__DTYPE_COLUMN_(clrs__dtype_name, const char *, name, NULL)
/* Bytes per element. */
CLRS__DTYPE_COLUMN_(clrs__dtype_size, size_t, size, 0)
/* 1 for f32, f16, bf16, f64. */
CLRS__DTYPE_COLUMN_(clrs__dtype_is_float, int, is_float, 0)
/* NumPy descr of the tool's .npy files, and bytes per element there. */
CLRS__DTYPE_COLUMN_(clrs__dtype_npy, const char *, npy, NULL)
CLRS__DTYPE_COLUMN_(clrs__dtype_npy_size, size_t, npy_size, 0)

#undef CLRS__DTYPE_COLUMN_

#endif /* CLRS_FEATURE_MAPS_H */
