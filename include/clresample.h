/* clresample: forward and backward tensor resampling on OpenCL devices.
 * The one public header. What every option computes (the coordinate
 * model, the modes, conversions, output sizes, tolerances) is in the
 * manual, clresample(3), section SEMANTICS; README.md maps the vendors'
 * options onto it in brief. */
#ifndef CLRESAMPLE_H
#define CLRESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CLRS_BUILDING_LIBRARY) && defined(__GNUC__)
#define CLRS_API __attribute__((visibility("default")))
#else
#define CLRS_API
#endif

#define CLRS_VERSION_MAJOR 0
#define CLRS_VERSION_MINOR 1
#define CLRS_VERSION_PATCH 0
#define CLRS_VERSION_STRING "0.1.0"
/* 10000 * major + 100 * minor + patch */
#define CLRS_VERSION \
    (CLRS_VERSION_MAJOR * 10000 + CLRS_VERSION_MINOR * 100 + CLRS_VERSION_PATCH)

#define CLRS_MAX_RANK 6
#define CLRS_MAX_POST_OPS 4

/* ------------------------------------------------------------------ */
/* Status codes: one list, expanded into the enum and into
 * clrs_status_name() / clrs_status_string(). Negative means error. */
#define CLRS_STATUS_MAP(X)                                                     \
    X(SUCCESS, 0, "success")                                                   \
    X(ERR_NULL_POINTER, -1, "a required pointer argument is NULL")             \
    X(ERR_INVALID_VALUE, -2, "an argument has an invalid value")               \
    X(ERR_INVALID_ENUM, -3, "unknown enumeration value")                       \
    X(ERR_BAD_RANK, -4, "tensor rank is outside 1..6")                         \
    X(ERR_BAD_DIMS, -5, "a tensor dimension is zero or negative")              \
    X(ERR_BAD_STRIDES, -6, "tensor strides are negative or overlap")           \
    X(ERR_OVERFLOW, -7, "a size computation overflows")                        \
    X(ERR_BAD_DTYPE, -8, "data type not allowed here")                         \
    X(ERR_BAD_SCALE, -9, "scale is zero, negative, NaN or infinite")           \
    X(ERR_BAD_FRACTION, -10, "fraction has a zero denominator")                \
    X(ERR_BAD_WINDOW, -11, "window or stride is zero or negative")             \
    X(ERR_SHAPE_MISMATCH, -12, "tensor shapes do not fit the operation")       \
    X(ERR_BAD_INDEX_TENSOR, -13, "index tensor has the wrong shape or type")   \
    X(ERR_BAD_AXES, -14, "resampled axes are invalid for the tensor")          \
    X(ERR_PARAM_COUNT, -15,                                                    \
      "per-axis parameter count differs from the resampled axis count")        \
    X(ERR_INVALID_COMBINATION, -16, "options conflict with each other")        \
    X(ERR_MISSING_INPUT, -17, "a required input is missing")                   \
    X(ERR_UNSUPPORTED, -18, "not supported on this device")                    \
    X(ERR_NOT_IMPLEMENTED, -19, "not implemented in this version")             \
    X(ERR_OUT_OF_MEMORY, -20, "host memory allocation failed")                 \
    X(ERR_OPENCL, -21, "an OpenCL call failed")                                \
    X(ERR_NO_DEVICE, -22, "no OpenCL device found")                            \
    X(ERR_BUILD_FAILED, -23, "OpenCL program build failed")                    \
    X(ERR_BUFFER_TOO_SMALL, -24, "buffer is smaller than the tensor")          \
    X(ERR_ALIASING, -25, "input and output buffers alias")                     \
    X(ERR_TOO_LARGE, -26, "tensor exceeds the device's memory")

typedef enum clrs_status {
#define CLRS_STATUS_ENUM_(name, code, msg) CLRS_##name = code,
    CLRS_STATUS_MAP(CLRS_STATUS_ENUM_)
#undef CLRS_STATUS_ENUM_
    CLRS_STATUS_MIN_ = -27
} clrs_status;

/* "CLRS_ERR_BAD_RANK"; "CLRS_UNKNOWN_STATUS" for a value not in the list. */
CLRS_API const char *clrs_status_name(clrs_status status);
/* "tensor rank is outside 1..6"; never NULL. */
CLRS_API const char *clrs_status_string(clrs_status status);

/* The detail message of the most recent failing call made by this thread
 * (any call, with or without a context), e.g. "dst dim 2 is 0"; empty
 * before the first failure. Successful calls leave it unchanged, so read
 * it right after a call returns an error. Never NULL. */
CLRS_API const char *clrs_last_error(void);

/* Runtime version: CLRS_VERSION of the library actually loaded. */
CLRS_API int clrs_version(void);
CLRS_API const char *clrs_version_string(void);

/* ------------------------------------------------------------------ */
/* Data types. S64 is allowed for index tensors only. */
typedef enum clrs_dtype {
    CLRS_F32 = 0,
    CLRS_F16 = 1,
    CLRS_BF16 = 2,
    CLRS_F64 = 3,
    CLRS_S32 = 4,
    CLRS_S8 = 5,
    CLRS_U8 = 6,
    CLRS_S64 = 7
} clrs_dtype;

/* Bytes per element; 0 for an unknown value. */
CLRS_API size_t clrs_dtype_size(clrs_dtype dtype);
/* "f32", "f16", "bf16", "f64", "s32", "s8", "u8", "s64"; NULL if unknown. */
CLRS_API const char *clrs_dtype_name(clrs_dtype dtype);

/* ------------------------------------------------------------------ */
/* Context: a device, an OpenCL context and a queue, plus the compiled
 * program cache. Thread-safe: plans may be created from several threads. */
typedef struct clrs_context clrs_context;

typedef struct clrs_device_info {
    unsigned platform_index;
    unsigned device_index;
    char platform_name[128];
    char device_name[128];
    char device_vendor[128];
    char device_version[128];
    char driver_version[64];
    cl_device_type type;
    cl_ulong global_mem_size;
    cl_uint compute_units;
    int has_fp64;
    int has_fp16;
} clrs_device_info;

/* Lists every device of every platform. Writes at most `capacity` entries
 * (infos may be NULL when capacity is 0) and the total in *count. */
CLRS_API clrs_status clrs_list_devices(clrs_device_info *infos,
                                       size_t capacity, size_t *count);

/* Opens a device and creates an OpenCL context and an in-order queue with
 * profiling enabled. `selector`: "P:D" (platform and device index) or a
 * case-insensitive substring of the device or platform name; NULL means
 * the CLRS_DEVICE environment variable, and the first device when that is
 * unset too. */
CLRS_API clrs_status clrs_context_create(clrs_context **ctx,
                                         const char *selector);
/* Wraps the caller's objects; they are retained and released on destroy.
 * The queue must belong to the context and the device. */
CLRS_API clrs_status clrs_context_create_from_cl(clrs_context **ctx,
                                                 cl_context cl_ctx,
                                                 cl_device_id device,
                                                 cl_command_queue queue);
/* Drops the caller's handle (NULL is allowed and does nothing). Every plan
 * holds a reference to its context: while plans made from ctx are alive,
 * the context (its queue, program cache and the OpenCL objects it
 * retained) stays, those plans keep working, and the last
 * clrs_plan_destroy frees it. The handle itself must not be used again. */
CLRS_API void clrs_context_destroy(clrs_context *ctx);
CLRS_API clrs_status clrs_context_get_cl(const clrs_context *ctx,
                                         cl_context *cl_ctx,
                                         cl_device_id *device,
                                         cl_command_queue *queue);
CLRS_API clrs_status clrs_context_get_device_info(const clrs_context *ctx,
                                                  clrs_device_info *info);
/* The detail message of this thread's last failing call on this context,
 * or the one-time note that the on-disk program cache is off because its
 * directory cannot be created or written; empty string if none. */
CLRS_API const char *clrs_context_last_error(const clrs_context *ctx);

/* The program cache. Built programs are kept per context by
 * configuration and, unless CLRS_CACHE=0, as device binaries on disk in
 * $CLRS_CACHE_DIR (an absolute path), else $XDG_CACHE_HOME/clresample,
 * else ~/.cache/clresample (at most CLRS_CACHE_MAX_MB megabytes, default
 * 256, least recently used entries evicted, also to make room on a full
 * disk where that makes room; temp files of runs killed mid-write are
 * removed by the next run). Entries carry a MAC keyed with a secret kept in the
 * directory, so only what this library wrote reaches the driver. A damaged,
 * forged, stale or foreign entry is rebuilt and replaced; a directory that
 * cannot be created or written, or a relative CLRS_CACHE_DIR, makes the context
 * run without the disk layer, which the context's detail message
 * (clrs_context_last_error) then says once. */
typedef struct clrs_cache_stats {
    uint64_t memory_hits; /* programs served from the context's map */
    uint64_t disk_hits;   /* programs loaded from the on-disk cache */
    uint64_t builds;      /* programs built from source */
    double build_ms;      /* total wall time of the source builds */
    uint64_t disk_writes; /* entries written to the on-disk cache */
    double load_ms;       /* total wall time of the disk loads */
} clrs_cache_stats;

CLRS_API clrs_status clrs_context_get_cache_stats(const clrs_context *ctx,
                                                  clrs_cache_stats *stats);

/* Launch tuning. A plan's launch parameters (lanes per work-item, the span
 * path, non-temporal stores, the work-group size) come from, in order:
 * CLRS_LAUNCH in the environment; the tuning database, a text file per
 * device beside the program cache (tuning-<device hash>.txt, one line
 * per configuration class and size bucket); the device's defaults. In
 * CLRS_TUNE_RUN mode a plan without a database entry measures the
 * candidates at creation, at most budget_ms of wall time, and stores the
 * winner; later plans of the class find it. The database follows the
 * program cache's rules: CLRS_CACHE=0 turns it off, a damaged or foreign
 * line is ignored and replaced, and nothing about it ever fails a call.
 * The initial mode comes from CLRS_TUNE (off, use or run; default use). */
typedef enum clrs_tune_mode {
    CLRS_TUNE_OFF = 0, /* the device's defaults only */
    CLRS_TUNE_USE = 1, /* the database's entry where there is one */
    CLRS_TUNE_RUN = 2, /* and tune at plan creation where there is none */
    CLRS_TUNE_FORCE = 3 /* tune every plan, replacing the entry */
} clrs_tune_mode;

/* budget_ms > 0: wall time a plan may spend tuning (0 keeps the current
 * budget, 5000 ms at first). */
CLRS_API clrs_status clrs_context_set_tuning(clrs_context *ctx,
                                             clrs_tune_mode mode,
                                             double budget_ms);
/* The current mode and budget (either pointer may be NULL). */
CLRS_API clrs_status clrs_context_get_tuning(const clrs_context *ctx,
                                             clrs_tune_mode *mode,
                                             double *budget_ms);

/* ------------------------------------------------------------------ */
/* Tensor descriptor: rank 1..6, logical sizes, strides in elements.
 * Strides must be non-negative; source tensors may overlap themselves
 * (stride 0 broadcasts), destination tensors may not. */
typedef struct clrs_tensor_desc clrs_tensor_desc;

/* strides NULL: dense row-major (the last axis is contiguous). */
CLRS_API clrs_status clrs_tensor_desc_create(clrs_tensor_desc **desc,
                                             clrs_dtype dtype, int rank,
                                             const int64_t *dims,
                                             const int64_t *strides);

/* Dense layouts by name, oneDNN style: ABX = nchw/ncdhw (row-major),
 * AXB = nhwc/ndhwc (axis 1 innermost), ABX8B / ABX16B = nChw8c / nChw16c
 * (axis 1 blocked by 8 or 16, zero-padded). */
typedef enum clrs_tag {
    CLRS_TAG_ABX = 0,
    CLRS_TAG_AXB = 1,
    CLRS_TAG_ABX8B = 2,
    CLRS_TAG_ABX16B = 3
} clrs_tag;

CLRS_API clrs_status clrs_tensor_desc_create_tag(clrs_tensor_desc **desc,
                                                 clrs_dtype dtype, int rank,
                                                 const int64_t *dims,
                                                 clrs_tag tag);

/* Blocked layout: axis `block_axis` is split into ceil(dims/block) blocks
 * of `block` (8 or 16) elements; the element (.., c, ..) lives at
 *   sum_{i != block_axis} idx[i]*strides[i] + (c / block)*strides[block_axis]
 *   + c % block.
 * strides NULL: dense, blocks outermost-to-innermost in axis order with
 * the block innermost (nChw8c). Lanes past dims[block_axis] are padding:
 * inputs' padding is never used in a result, and every output the library
 * writes (dst forward, diff_src backward, on the device and in the
 * reference) gets its padding lanes written as zeros, as oneDNN expects
 * of nChw8c / nChw16c tensors. A forward index tensor's padding lanes are
 * left untouched. */
CLRS_API clrs_status clrs_tensor_desc_create_blocked(
    clrs_tensor_desc **desc, clrs_dtype dtype, int rank, const int64_t *dims,
    int block_axis, int block, const int64_t *strides);

CLRS_API void clrs_tensor_desc_destroy(clrs_tensor_desc *desc);

CLRS_API clrs_dtype clrs_tensor_desc_dtype(const clrs_tensor_desc *desc);
CLRS_API int clrs_tensor_desc_rank(const clrs_tensor_desc *desc);
/* Copies rank values; either pointer may be NULL. */
CLRS_API clrs_status clrs_tensor_desc_get(const clrs_tensor_desc *desc,
                                          int64_t *dims, int64_t *strides);
/* Number of logical elements. */
CLRS_API int64_t clrs_tensor_desc_elements(const clrs_tensor_desc *desc);
/* Bytes a buffer must hold: (largest element offset + 1) * element size,
 * padding lanes of a blocked layout included. */
CLRS_API size_t clrs_tensor_desc_bytes(const clrs_tensor_desc *desc);
/* Element offset (in elements) of a logical index. */
CLRS_API int64_t clrs_tensor_desc_offset(const clrs_tensor_desc *desc,
                                         const int64_t *index);

/* ------------------------------------------------------------------ */
/* Resample operation descriptor. */
typedef struct clrs_resample_desc clrs_resample_desc;

typedef enum clrs_mode {
    CLRS_MODE_NEAREST = 0,
    CLRS_MODE_LINEAR = 1, /* 1-D linear, bi-, tri-, N-linear */
    CLRS_MODE_CUBIC = 2,
    CLRS_MODE_AVG_INCLUDE_PADDING = 3,
    CLRS_MODE_AVG_EXCLUDE_PADDING = 4,
    CLRS_MODE_MAX = 5,
    /* PyTorch's adaptive average pooling (adaptive_avg_pool1d/2d/3d,
     * interpolate mode "area"): output o averages the input pixels
     * [floor(o I / O), ceil((o + 1) I / O)) of each resampled axis with
     * equal weights; the sizes alone decide (no window, coordinates or
     * scales) */
    CLRS_MODE_AVG_ADAPTIVE = 6,
    /* A separable filter K of radius R (clrs_resample_desc_set_filter:
     * Lanczos, Gaussian, box, triangle, Hamming, Keys cubic,
     * Mitchell-Netravali): output o reads the input pixels i with
     * |i - x| <= R f, weighted K((i - x) / f) and normalised to sum 1,
     * f = 1, or with antialias the stretch of the antialias rule. Under
     * CLRS_AA_PYTORCH (the default) or exclude_outside, the taps are
     * restricted to the input (Pillow, TensorFlow); under CLRS_AA_ONNX
     * without exclude_outside, out-of-range taps follow the padding rule
     * (OpenCV's border) */
    CLRS_MODE_FILTER = 7
} clrs_mode;

/* The filters of CLRS_MODE_FILTER, K(u) on the distance u in input pixels
 * (stretched by f); p and q are clrs_resample_desc_set_filter's
 * parameters, NaN for the default. */
typedef enum clrs_filter {
    /* sinc(u) sinc(u / a), |u| < a; p = a > 0, default 3 (Pillow's
     * LANCZOS; TensorFlow's lanczos3 and lanczos5; OpenCV's
     * INTER_LANCZOS4 is a = 4) */
    CLRS_FILTER_LANCZOS = 0,
    /* exp(-u^2 / (2 s^2)), |u| < 3 s; p = s > 0, default 0.5
     * (TensorFlow's gaussian: radius 1.5) */
    CLRS_FILTER_GAUSSIAN = 1,
    /* 1 for |u| < 1/2; p at u = -1/2 and q at u = 1/2, default 1/2 each
     * (TensorFlow's box); p = 0, q = 1 is Pillow's BOX */
    CLRS_FILTER_BOX = 2,
    /* 1 - |u|, |u| < 1 (bilinear; TensorFlow's triangle) */
    CLRS_FILTER_TRIANGLE = 3,
    /* sinc(u) (0.54 + 0.46 cos(pi u)), |u| < 1 (Pillow's HAMMING) */
    CLRS_FILTER_HAMMING = 4,
    /* Keys' cubic with coefficient p = A, |u| < 2; default -0.5
     * (Pillow's BICUBIC, TensorFlow's keyscubic) */
    CLRS_FILTER_KEYS = 5,
    /* Mitchell-Netravali with p = B, q = C, |u| < 2; default
     * B = C = 1/3 (TensorFlow's mitchellcubic); B = 0, C = 1/2 is
     * Catmull-Rom, B = 1, C = 0 the cubic B-spline */
    CLRS_FILTER_MITCHELL = 6,
    /* The area of pixel i ([i - 1/2, i + 1/2]) the output pixel covers,
     * [x - w/2, x + w/2] with w = 1/scale, up or down, antialias or not
     * (OpenCV's INTER_AREA, TensorFlow's area) */
    CLRS_FILTER_AREA = 7
} clrs_filter;

/* Out-of-range taps. DEFAULT resolves to EDGE for interpolation, ZERO for
 * average pooling and NEG_INF for max pooling. */
typedef enum clrs_padding {
    CLRS_PAD_DEFAULT = 0,
    CLRS_PAD_EDGE = 1,
    CLRS_PAD_ZERO = 2,
    CLRS_PAD_CONSTANT = 3, /* value from clrs_resample_desc_set_padding */
    CLRS_PAD_NEG_INF = 4   /* max pooling only */
} clrs_padding;

/* How output index o maps to input coordinate x(o) = (o + a) * r - b. */
typedef enum clrs_coord {
    /* WINDOW for pooling modes or when a stride is set, else HALF_PIXEL */
    CLRS_COORD_DEFAULT = 0,
    CLRS_COORD_HALF_PIXEL = 1,
    CLRS_COORD_PYTORCH_HALF_PIXEL = 2,
    CLRS_COORD_ALIGN_CORNERS = 3,
    CLRS_COORD_ASYMMETRIC = 4,
    CLRS_COORD_TF_HALF_PIXEL_FOR_NN = 5,
    CLRS_COORD_HALF_PIXEL_SYMMETRIC = 6,
    CLRS_COORD_TF_CROP_AND_RESIZE = 7, /* uses roi and extrapolation value */
    CLRS_COORD_PIXEL_OFFSETS = 8,      /* DirectML: set_pixel_offsets */
    CLRS_COORD_WINDOW = 9,             /* cuDNN: stride and pre-padding */
    /* TensorFlow's ScaleAndTranslate, JAX's scale_and_translate
     * (clrs_resample_desc_set_scale_and_translate): x = (o + 0.5 - t) / s
     * - 0.5, and an output whose x + 0.5 lies outside [0, I] reads
     * nothing and is 0 */
    CLRS_COORD_SCALE_AND_TRANSLATE = 10
} clrs_coord;

typedef enum clrs_rounding {
    CLRS_ROUND_PREFER_FLOOR = 0, /* ceil(x - 0.5), ONNX default */
    CLRS_ROUND_PREFER_CEIL = 1,  /* floor(x + 0.5) */
    CLRS_ROUND_FLOOR = 2,
    CLRS_ROUND_CEIL = 3
} clrs_rounding;

/* How x(o) = (o + a) * r - b is evaluated for interpolation modes (pooling
 * windows always use FLOAT). The taps are computed once on the host, so
 * the choice costs the kernels nothing. */
typedef enum clrs_arith {
    /* single precision in this order, r = 1/scale rounded once to float:
     * PyTorch (the default) */
    CLRS_ARITH_FLOAT = 0,
    /* single precision as oneDNN: ((o + a) * I) / O - b, with (I - 1) and
     * (O - 1) for align_corners and 1 / scale for a user scale */
    CLRS_ARITH_ONEDNN = 1,
    /* exact rational arithmetic on the constants as given (sizes, and
     * scales, offsets and roi as the doubles / floats passed): integers
     * and ties land where exact arithmetic puts them, as the ONNX
     * specification and its reference evaluator. Falls back to long
     * double only where a numerator would need more than 127 bits. */
    CLRS_ARITH_EXACT = 2,
    /* Pillow's: nearest's centre accumulated output by output in double
     * (I/(2O), then + I/O each) and truncated, as its resize; filters
     * under CLRS_AA_PILLOW; otherwise as EXACT */
    CLRS_ARITH_PILLOW = 3,
    /* OpenCV's bit-exact nearest (INTER_NEAREST_EXACT, as OpenCV 4.6):
     * source index min((f o + f / 2 - 1) >> 16, I - 1),
     * f = round(2^16 I / O); otherwise as FLOAT */
    CLRS_ARITH_OPENCV_EXACT = 4,
    /* TensorFlow's float arithmetic: filters as its scale_and_translate
     * (the sample (o + 0.5) / s - t / s, its span, its kernels and
     * normalisation, each step in float, s = O / I in float unless
     * given), nearest as its resize_nearest_neighbor (floor((o + 0.5)
     * (I / O)) in float); otherwise as FLOAT */
    CLRS_ARITH_TENSORFLOW = 5,
    /* OpenCV's cv::resize: x = (o + a) / s - b in double with 1 / s
     * rounded once (s = O / I unless given), then rounded to float but
     * for nearest (INTER_NEAREST's floor(o / s) in double) */
    CLRS_ARITH_OPENCV = 6
} clrs_arith;

/* Antialias semantics (linear, cubic and filter with antialias set). */
typedef enum clrs_antialias_rule {
    /* PyTorch antialias=True: filter stretch f and centre as PyTorch
     * computes them for each of its coordinate modes (align_corners:
     * f = (I-1)/(O-1) and centres at (o + 0.5) f - 0.5), taps restricted
     * to the input and renormalised to sum 1; exclude_outside is ignored */
    CLRS_AA_PYTORCH = 0,
    /* ONNX Resize antialias=1: f = max(1, 1/scale), scale = the user's or
     * O/I, for every coordinate mode; exclude_outside = 0 (ONNX's default)
     * gives out-of-range taps the padding value (edge) with the weights
     * normalised over the whole filter, exclude_outside = 1 restricts the
     * taps to the input and renormalises */
    CLRS_AA_ONNX = 1,
    /* Pillow's resize, in its double arithmetic: f = max(1, I/O) (with
     * antialias; 1 without), centres c = (o + 0.5) I/O whatever the
     * coordinate mode, taps [(int)(c - R f + 0.5), (int)(c + R f + 0.5))
     * within the input, weights K((i - c + 0.5) / f) renormalised to sum
     * 1; the Pillow preset's */
    CLRS_AA_PILLOW = 2
} clrs_antialias_rule;

/* Vendor presets: clrs_resample_desc_set_vendor sets the coordinate mode
 * (to DEFAULT, resolved per vendor), rounding, cubic A, antialias rule,
 * exclude_outside and arithmetic to reproduce that vendor; set the
 * model's own attributes (coordinate mode, rounding...) after it. */
typedef enum clrs_vendor {
    /* FLOAT, AA_PYTORCH, FLOOR; DEFAULT coordinates: asymmetric for
     * nearest (F.interpolate 'nearest'), half_pixel otherwise; A = -0.75,
     * -0.5 for antialiased cubic (PIL's, as PyTorch) */
    CLRS_VENDOR_PYTORCH = 0,
    /* EXACT, AA_ONNX, ROUND_PREFER_FLOOR, half_pixel, A = -0.75,
     * exclude_outside 0: ONNX Resize's defaults (ONNX Runtime agrees) */
    CLRS_VENDOR_ONNX = 1,
    /* ONEDNN, ROUND_PREFER_CEIL (oneDNN rounds half up), half_pixel */
    CLRS_VENDOR_ONEDNN = 2,
    /* EXACT, AA_ONNX, FLOOR (DML_AXIS_DIRECTION_DECREASING), half_pixel
     * (InputPixelOffsets 0.5, OutputPixelOffsets -0.5) */
    CLRS_VENDOR_DIRECTML = 3,
    /* cuDNN's Resample defines pooling and interpolation by window,
     * stride and pre-padding (the window coordinate mode, DEFAULT once a
     * stride is set); it documents no rounding or arithmetic, so the
     * preset keeps the library's defaults: FLOAT, ROUND_PREFER_FLOOR */
    CLRS_VENDOR_CUDNN = 4,
    /* The image libraries, whose users name a method
     * (clrs_resample_desc_set_method) after the preset. Pillow's resize:
     * EXACT, CLRS_AA_PILLOW, half_pixel; methods nearest, box, bilinear,
     * hamming, bicubic, lanczos, antialiased as Pillow always is */
    CLRS_VENDOR_PILLOW = 5,
    /* OpenCV's cv::resize: FLOAT, A = -0.75, out-of-range taps reading
     * the replicated border (CLRS_AA_ONNX); methods nearest, linear,
     * cubic, area, lanczos4, linear_exact, nearest_exact (the INTER_
     * flags in lower case), never antialiased */
    CLRS_VENDOR_OPENCV = 6,
    /* TensorFlow's tf.image.resize: FLOAT, taps restricted to the input
     * (CLRS_AA_PYTORCH), half_pixel; methods bilinear, nearest, bicubic,
     * area, lanczos3, lanczos5, gaussian, mitchellcubic, antialiased as
     * set_antialias says (scale_and_translate's kernels) */
    CLRS_VENDOR_TENSORFLOW = 7
} clrs_vendor;

typedef enum clrs_index_format {
    CLRS_INDEX_WINDOW = 0, /* flat index in the window box, s8 or s32 */
    CLRS_INDEX_PLANE = 1,  /* flat index in the pooled axes of src, s64 */
    /* the plane index in column-major order of the pooled axes (the
     * first fastest), s64: ONNX MaxPool storage_order = 1 */
    CLRS_INDEX_PLANE_COLUMN = 2
} clrs_index_format;

typedef enum clrs_nan_policy {
    CLRS_NAN_PROPAGATE = 0,
    CLRS_NAN_IGNORE = 1
} clrs_nan_policy;

/* The divisor of average pooling that includes padding (other modes
 * ignore the rule). */
typedef enum clrs_divisor {
    /* the window's length on each axis, wherever it lies (oneDNN, cuDNN,
     * DirectML; the default) */
    CLRS_DIVISOR_WINDOW = 0,
    /* the window clipped at I + post padding on each axis: a window that
     * ceil mode lets run past the padded input divides by what remains
     * (PyTorch count_include_pad, ONNX count_include_pad; the PyTorch
     * and ONNX presets); taps past that end are dropped */
    CLRS_DIVISOR_CLIPPED = 1
} clrs_divisor;

typedef struct clrs_fraction {
    int64_t num;
    int64_t den; /* > 0 */
} clrs_fraction;

CLRS_API clrs_status clrs_resample_desc_create(clrs_resample_desc **op,
                                               clrs_mode mode);
CLRS_API void clrs_resample_desc_destroy(clrs_resample_desc *op);
CLRS_API clrs_status clrs_resample_desc_clone(clrs_resample_desc **out,
                                              const clrs_resample_desc *op);

CLRS_API clrs_status clrs_resample_desc_set_mode(clrs_resample_desc *op,
                                                 clrs_mode mode);
CLRS_API clrs_mode clrs_resample_desc_get_mode(const clrs_resample_desc *op);

/* Which tensor axes are resampled: n distinct increasing axes. Default:
 * axes 2..rank-1 for rank >= 3 (N and C untouched), every axis for rank 1
 * and 2. Every per-axis array below has one entry per resampled axis, in
 * this order, and is checked against it when a plan is made. */
CLRS_API clrs_status clrs_resample_desc_set_axes(clrs_resample_desc *op,
                                                 int n, const int *axes);

/* value is used by CLRS_PAD_CONSTANT only (must be finite). */
CLRS_API clrs_status clrs_resample_desc_set_padding(clrs_resample_desc *op,
                                                    clrs_padding padding,
                                                    double value);

/* Pooling window and the cuDNN-style stride / pre / post padding, as
 * integers or exact fractions. Window and stride > 0, paddings >= 0. */
CLRS_API clrs_status clrs_resample_desc_set_window(clrs_resample_desc *op,
                                                   int n,
                                                   const int64_t *window);
CLRS_API clrs_status clrs_resample_desc_set_stride(clrs_resample_desc *op,
                                                   int n,
                                                   const int64_t *stride);
CLRS_API clrs_status clrs_resample_desc_set_padding_sizes(
    clrs_resample_desc *op, int n, const int64_t *pre, const int64_t *post);
/* Pooling dilation per resampled axis (PyTorch's and ONNX's dilation; >= 1,
 * 1 a dense window, the default): the window's k taps lie d apart, x,
 * x + d, ..., x + (k - 1) d, so it spans (k - 1) d + 1 pixels. Needs
 * integer windows, strides and paddings where d > 1. */
CLRS_API clrs_status clrs_resample_desc_set_dilation(clrs_resample_desc *op,
                                                     int n,
                                                     const int64_t *dilation);
CLRS_API clrs_status clrs_resample_desc_set_window_fraction(
    clrs_resample_desc *op, int n, const clrs_fraction *window);
CLRS_API clrs_status clrs_resample_desc_set_stride_fraction(
    clrs_resample_desc *op, int n, const clrs_fraction *stride);
CLRS_API clrs_status clrs_resample_desc_set_padding_sizes_fraction(
    clrs_resample_desc *op, int n, const clrs_fraction *pre,
    const clrs_fraction *post);

/* Output pixels per input pixel, per resampled axis (> 0, finite). When
 * unset, scale = O / I. */
CLRS_API clrs_status clrs_resample_desc_set_scales(clrs_resample_desc *op,
                                                   int n,
                                                   const double *scales);
/* DirectML InputPixelOffsets / OutputPixelOffsets (finite); also sets the
 * coordinate mode to CLRS_COORD_PIXEL_OFFSETS. */
CLRS_API clrs_status clrs_resample_desc_set_pixel_offsets(
    clrs_resample_desc *op, int n, const float *input_offsets,
    const float *output_offsets);
CLRS_API clrs_status clrs_resample_desc_set_coord(clrs_resample_desc *op,
                                                  clrs_coord coord);
CLRS_API clrs_status clrs_resample_desc_set_rounding(clrs_resample_desc *op,
                                                     clrs_rounding rounding);
/* Cubic coefficient A (finite); default -0.75. */
CLRS_API clrs_status clrs_resample_desc_set_cubic_a(clrs_resample_desc *op,
                                                    double a);
/* TensorFlow's ScaleAndTranslate: per resampled axis a scale s > 0 and a
 * translation t (finite; both used as floats, as TensorFlow's), output o
 * sampling the input at x = (o + 0.5 - t) / s - 0.5 (sets
 * CLRS_COORD_SCALE_AND_TRANSLATE and the scales); with a filter and
 * antialias this is its kernel_type and antialias, and with the
 * TensorFlow preset its arithmetic. */
CLRS_API clrs_status clrs_resample_desc_set_scale_and_translate(
    clrs_resample_desc *op, int n, const double *scales,
    const double *translations);
/* The filter of CLRS_MODE_FILTER and its parameters (see clrs_filter;
 * NaN: the filter's default; a parameter the filter has not must be NaN
 * or 0); sets the mode to CLRS_MODE_FILTER. Default: Lanczos, a = 3. */
CLRS_API clrs_status clrs_resample_desc_set_filter(clrs_resample_desc *op,
                                                   clrs_filter filter, double p,
                                                   double q);
/* Every option of the vendor's semantics at once (see clrs_vendor). */
CLRS_API clrs_status clrs_resample_desc_set_vendor(clrs_resample_desc *op,
                                                   clrs_vendor vendor);
/* After an image library's preset, its method by the library's name
 * ("lanczos", "area", "mitchellcubic"...): sets the mode, filter,
 * coordinate mode, rounding, antialias rule and antialias as that
 * library does; CLRS_ERR_INVALID_VALUE for a name the vendor has not. */
CLRS_API clrs_status clrs_resample_desc_set_method(clrs_resample_desc *op,
                                                   const char *name);
CLRS_API clrs_status clrs_resample_desc_set_arith(clrs_resample_desc *op,
                                                  clrs_arith arith);
CLRS_API clrs_status clrs_resample_desc_set_antialias_rule(
    clrs_resample_desc *op, clrs_antialias_rule rule);
/* Cubic, filter, and antialiased linear or cubic under CLRS_AA_ONNX. */
CLRS_API clrs_status clrs_resample_desc_set_exclude_outside(
    clrs_resample_desc *op, int enable);
CLRS_API clrs_status clrs_resample_desc_set_antialias(clrs_resample_desc *op,
                                                      int enable);
/* tf_crop_and_resize region, normalised, per resampled axis (finite);
 * default start 0, end 1. */
CLRS_API clrs_status clrs_resample_desc_set_roi(clrs_resample_desc *op,
                                                int n, const double *start,
                                                const double *end);
CLRS_API clrs_status clrs_resample_desc_set_extrapolation_value(
    clrs_resample_desc *op, double value);
CLRS_API clrs_status clrs_resample_desc_set_index_format(
    clrs_resample_desc *op, clrs_index_format format);
CLRS_API clrs_status clrs_resample_desc_set_nan_policy(
    clrs_resample_desc *op, clrs_nan_policy policy);
/* Average pooling's divisor rule (clrs_divisor). */
CLRS_API clrs_status clrs_resample_desc_set_divisor(clrs_resample_desc *op,
                                                    clrs_divisor rule);
/* Average pooling divides every window's sum by divisor instead (PyTorch
 * divisor_override), forward and backward; finite and > 0, or 0 for
 * none (the default). Another mode with an override fails plan creation
 * with CLRS_ERR_INVALID_COMBINATION. */
CLRS_API clrs_status clrs_resample_desc_set_divisor_override(
    clrs_resample_desc *op, double divisor);
/* Inference: forward max pooling writes no index tensor (FWD_I). */
CLRS_API clrs_status clrs_resample_desc_set_inference(clrs_resample_desc *op,
                                                      int enable);
/* Backward: 0 (default) writes diff_src: its old contents are never read
 * and need not be initialised. 1 adds the gradient to what diff_src holds
 * (beta = 1, as cuDNN's beta and oneDNN's sum post-op), for gradients
 * summed over several uses of one tensor. */
CLRS_API clrs_status clrs_resample_desc_set_accumulate(
    clrs_resample_desc *op, int enable);
/* Where a plan keeps the intermediates between its kernels (a separable
 * plan's passes, max pooling backward's recomputed argmax). 0 (default):
 * device memory the plan allocates at creation and holds until destroyed
 * (clrs_plan_info's scratch_bytes). 1: the caller's workspace, a buffer
 * of at least clrs_plan_info's workspace_bytes given to every
 * clrs_execute as clrs_args.workspace (oneDNN's user scratchpad, cuDNN's
 * workspace), so that several plans can share one; its contents before
 * and after a run mean nothing. The plan then holds none and no longer
 * orders its runs by itself: runs that share a workspace (of one plan or
 * of several) must follow each other on the device, as they do on an
 * in-order queue (on an out-of-order queue: by events). A plan whose
 * workspace_bytes is 0 needs none and takes none. Results are the same
 * bits either way. */
CLRS_API clrs_status clrs_resample_desc_set_user_workspace(
    clrs_resample_desc *op, int enable);

/* Post-ops (forward only), applied in order in f32 (f64 when src or dst
 * is f64) to the resampled value before its one rounding to dst's type;
 * at most CLRS_MAX_POST_OPS. A sum reads dst's old value before the
 * kernel overwrites it; a binary post-op reads its operand from
 * clrs_args.post_op[i] (clrs_host_args.post_op[i] for the reference),
 * checked like the other buffers (size, aliasing with dst). Binary max
 * and min propagate NaN from either side. Eltwise functions use the
 * device's built-ins (a few ulp in f32), the reference evaluates them in
 * double. At an infinity, gelu, swish, hardswish and mish give their
 * limits (x where the gate opens, 0 where it closes), never inf * 0. */
typedef enum clrs_eltwise {
    CLRS_ELTWISE_RELU = 0, /* alpha: negative slope */
    CLRS_ELTWISE_CLIP,     /* clamp to [alpha, beta] */
    CLRS_ELTWISE_TANH,
    CLRS_ELTWISE_LOGISTIC,
    CLRS_ELTWISE_ELU, /* alpha */
    CLRS_ELTWISE_GELU_TANH,
    CLRS_ELTWISE_GELU_ERF,
    CLRS_ELTWISE_SWISH, /* x * logistic(alpha * x) */
    CLRS_ELTWISE_ABS,
    CLRS_ELTWISE_SQUARE,
    CLRS_ELTWISE_SQRT,
    CLRS_ELTWISE_EXP,
    CLRS_ELTWISE_LOG,
    CLRS_ELTWISE_LINEAR, /* alpha * x + beta */
    /* oneDNN's hardswish: x * max(0, min(1, alpha * x + beta)); the
     * usual one is alpha = 1/6, beta = 1/2, x * min(max(x + 3, 0), 6) / 6 */
    CLRS_ELTWISE_HARDSWISH = 14,
    /* x * tanh(softplus(x)), softplus(x) = log(1 + exp(x)) evaluated as
     * max(x, 0) + log1p(exp(-|x|)) */
    CLRS_ELTWISE_MISH = 15
} clrs_eltwise;

typedef enum clrs_binary {
    CLRS_BINARY_ADD = 0,
    CLRS_BINARY_SUB,
    CLRS_BINARY_MUL,
    CLRS_BINARY_DIV,
    CLRS_BINARY_MAX,
    CLRS_BINARY_MIN
} clrs_binary;

/* dst = op(src) + scale * dst */
CLRS_API clrs_status clrs_resample_desc_append_sum(clrs_resample_desc *op,
                                                   double scale);
CLRS_API clrs_status clrs_resample_desc_append_eltwise(
    clrs_resample_desc *op, clrs_eltwise alg, double alpha, double beta);
/* operand: same rank as dst, each dim 1 or equal to dst's (broadcast). */
CLRS_API clrs_status clrs_resample_desc_append_binary(
    clrs_resample_desc *op, clrs_binary alg,
    const clrs_tensor_desc *operand);
CLRS_API int clrs_resample_desc_post_op_count(const clrs_resample_desc *op);

/* ------------------------------------------------------------------ */
/* Output sizes, as the vendors compute them; the caller may always
 * choose dst dims. */
typedef enum clrs_size_rule {
    CLRS_SIZE_FLOOR = 0, /* O = floor(I * scale): ONNX, PyTorch */
    CLRS_SIZE_TRUNC = 1  /* O = trunc(I * scale): oneDNN */
} clrs_size_rule;

CLRS_API clrs_status clrs_output_size_from_scale(int64_t in, double scale,
                                                 clrs_size_rule rule,
                                                 int64_t *out);
/* ONNX Resize keep_aspect_ratio_policy for requested sizes on n axes. */
typedef enum clrs_keep_aspect {
    CLRS_KEEP_ASPECT_STRETCH = 0,     /* out = sizes, scale_i = out_i/in_i */
    CLRS_KEEP_ASPECT_NOT_LARGER = 1,  /* s = min_i sizes_i/in_i */
    CLRS_KEEP_ASPECT_NOT_SMALLER = 2  /* s = max_i sizes_i/in_i */
} clrs_keep_aspect;
/* out_i = round(s * in_i) (halves away from zero) with one scale s for
 * every axis, and scales_i = s for clrs_resample_desc_set_scales (ONNX
 * maps coordinates with s, not out/in); for STRETCH out = sizes and
 * scales_i = sizes_i / in_i. scales may be NULL. */
CLRS_API clrs_status clrs_output_sizes_keep_aspect(int n, const int64_t *in,
                                                   const int64_t *sizes,
                                                   clrs_keep_aspect policy,
                                                   int64_t *out,
                                                   double *scales);
/* O = floor((I + pre + post - window) / stride) + 1, or with ceil_mode
 * ceil(...) + 1 minus the last window if it starts inside the post
 * padding (PyTorch). Evaluated in double from the fractions. */
CLRS_API clrs_status clrs_pool_output_size(int64_t in, clrs_fraction window,
                                           clrs_fraction stride,
                                           clrs_fraction pre,
                                           clrs_fraction post, int ceil_mode,
                                           int64_t *out);
/* dst dims for src under op: pooling rule for pooling modes (ceil_mode as
 * given), scales (CLRS_SIZE_FLOOR) for interpolation; other axes copied.
 * Fails if interpolation has no scales. */
CLRS_API clrs_status clrs_resample_desc_output_dims(
    const clrs_resample_desc *op, const clrs_tensor_desc *src, int ceil_mode,
    int64_t *dst_dims);
/* The index tensor dtype for this op and src: s8 or s32 (window format,
 * by window volume), s64 (plane). */
CLRS_API clrs_status clrs_resample_desc_index_dtype(
    const clrs_resample_desc *op, const clrs_tensor_desc *src,
    clrs_dtype *dtype);

/* ------------------------------------------------------------------ */
/* Plans and execution. */
typedef struct clrs_plan clrs_plan;

/* Forward: dst = resample(src). index: max pooling index tensor (shape of
 * dst), NULL for none; must be NULL in inference mode. */
CLRS_API clrs_status clrs_plan_create_forward(clrs_plan **plan,
                                              clrs_context *ctx,
                                              const clrs_resample_desc *op,
                                              const clrs_tensor_desc *src,
                                              const clrs_tensor_desc *dst,
                                              const clrs_tensor_desc *index);
/* Backward: diff_src = A^T diff_dst, written (or added to it with
 * clrs_resample_desc_set_accumulate). Max pooling reads the index tensor
 * (shape of diff_dst) when given, else recomputes the argmax from src
 * (shape of diff_src); other modes take NULL for both. The kernels gather
 * (each diff_src element sums, in a fixed order, the diff_dst elements
 * that read it): no atomics, and the same bits on every run. An index
 * value that names no pixel of its window (out of range) sends its
 * gradient nowhere on the device and is never used as an address; the
 * CPU reference rejects such a tensor with CLRS_ERR_BAD_INDEX_TENSOR.
 * Recomputing takes two kernels per clrs_execute: the forward argmax
 * writes a window index into device memory the plan allocates at
 * creation (a byte per diff_dst element, 4 for windows of more than 127
 * taps: clrs_plan_info's scratch_bytes) or into the caller's workspace
 * (clrs_resample_desc_set_user_workspace), then the index backward reads
 * it. With its own scratch, runs of one plan therefore follow each
 * other on the device, even on an out-of-order queue: each run's argmax
 * waits for the previous run's backward. */
CLRS_API clrs_status clrs_plan_create_backward(
    clrs_plan **plan, clrs_context *ctx, const clrs_resample_desc *op,
    const clrs_tensor_desc *diff_src, const clrs_tensor_desc *diff_dst,
    const clrs_tensor_desc *index, const clrs_tensor_desc *src);
CLRS_API void clrs_plan_destroy(clrs_plan *plan);

/* Where a plan's program came from (see clrs_cache_stats). */
typedef enum clrs_cache_source {
    CLRS_CACHE_MEMORY = 0, /* the context's map: no OpenCL build at all */
    CLRS_CACHE_DISK = 1,   /* a binary from the on-disk cache */
    CLRS_CACHE_BUILT = 2,  /* built from source, binary stored on disk */
    CLRS_CACHE_OFF = 3     /* built from source, the disk cache is off or
                              not writable */
} clrs_cache_source;

/* How a plan's kernel spreads work over vector lanes. */
typedef enum clrs_vector_path {
    CLRS_VECTOR_NONE = 0,   /* one output element per work-item */
    CLRS_VECTOR_AXIS = 1,   /* lanes along a contiguous axis that is not
                               resampled (channels-last: C) */
    CLRS_VECTOR_BLOCK = 2,  /* lanes over a block of a blocked axis */
    CLRS_VECTOR_SPAN = 3    /* lanes along the innermost resampled axis
                               (channels-first), taps picked by shuffles
                               from contiguous loads */
} clrs_vector_path;

/* Where a plan's launch parameters came from. */
typedef enum clrs_launch_source {
    CLRS_LAUNCH_DEFAULT = 0,  /* the device's defaults, from its queries */
    CLRS_LAUNCH_FORCED = 1,   /* CLRS_LAUNCH in the environment */
    CLRS_LAUNCH_DATABASE = 2, /* the user's tuning database's entry */
    CLRS_LAUNCH_TUNED = 3,    /* measured at this plan's creation */
    CLRS_LAUNCH_SHIPPED = 4   /* the database installed with the library
                                 for this device and driver */
} clrs_launch_source;

typedef struct clrs_plan_info {
    clrs_cache_source cache; /* the costliest source of the plan's programs */
    double create_ms;        /* wall time of the plan's creation */
    clrs_vector_path vector_path;
    int vector_lanes;        /* lanes per work-item (1: none) */
    int span_patterns;       /* SPAN: tap patterns compiled into the kernel */
    double span_coverage;    /* SPAN: fraction of the vector groups that
                                take the pattern code (the others go lane
                                by lane) */
    int kernels;             /* kernels one clrs_execute enqueues: 2 for
                                max pooling backward without an index
                                tensor (the argmax, then the scatter; the
                                fields above describe the scatter), one
                                per resampled axis for a separable plan */
    size_t scratch_bytes;    /* device memory the plan holds for them (0
                                with a user workspace) */
    size_t local_size[3];    /* the work-group shape of the (last) kernel;
                                all 0: the driver chooses */
    clrs_launch_source launch_source;
    int vector_count;        /* vectors of vector_lanes per work-item (a
                                backward gather on the axis path: up to 4;
                                else 1) */
    int span_groups;         /* SPAN: consecutive groups per work-item
                                (a walked row, up to 32; the launch's
                                walk); else 1 */
    int tuned_launches;      /* launch_source TUNED: the distinct launches
                                the tuner timed while creating this plan
                                (candidates that give the same kernel and
                                local size count once); else 0 */
    const char *variant;     /* the kernel variant, the shape of its
                                work-item: "scalar", "axis", "block",
                                "span", "walk" (a row of span groups) or
                                "roll" (separable passes as one kernel);
                                "none" for a plan without a kernel (an
                                empty tensor) */
    int separable;           /* 1: the plan resamples one axis at a time,
                                a kernel per resampled axis through
                                scratch (the fields above from variant up
                                describe the last pass), or those passes
                                as one kernel (kernels 1, variant
                                "roll"); 0: one pass */
    size_t workspace_bytes;  /* with clrs_resample_desc_set_user_workspace:
                                the least size of clrs_args.workspace (0:
                                the plan needs none and takes none); 0
                                for a plan that holds its own scratch */
    int rows;                /* outputs of the second kernel axis (the
                                row, channels-first; channels-last the
                                pixel) a work-item computes in turn (the
                                launch's rows=); 1 for one */
    int span_period;         /* SPAN over taps the kernel computes: the
                                groups of a period of the stretch whose
                                groups repeat (a coordinate exact at a
                                scale of a small power-of-two
                                denominator), which take their taps as
                                constants; 0: none */
} clrs_plan_info;

/* "none", "axis", "block", "span"; NULL for an unknown value. */
CLRS_API const char *clrs_vector_path_name(clrs_vector_path path);

CLRS_API clrs_status clrs_plan_get_info(const clrs_plan *plan,
                                        clrs_plan_info *info);
/* What the OpenCL compiler said while building the plan's program
 * (clGetProgramBuildInfo's CL_PROGRAM_BUILD_LOG, read at plan creation,
 * trailing whitespace removed): "" when it said nothing, which is the
 * rule for this library's kernels (a warning is a bug; with CLRS_WERROR=1
 * it fails the plan instead). A plan of two kernels gives both logs, each
 * under its kernel's name. A program loaded from the on-disk cache, or
 * taken by the driver from its own cache, was not compiled from source:
 * its log is that load's, usually empty. Owned by the plan; "" for a NULL
 * plan; never NULL. */
CLRS_API const char *clrs_plan_get_build_log(const clrs_plan *plan);

/* "memory", "disk", "built", "off"; NULL for an unknown value. */
CLRS_API const char *clrs_cache_source_name(clrs_cache_source source);
/* "default", "forced", "database", "tuned"; NULL for an unknown value. */
CLRS_API const char *clrs_launch_source_name(clrs_launch_source source);

/* Buffers by role; unused roles are NULL. */
typedef struct clrs_args {
    cl_mem src;
    cl_mem dst;
    cl_mem diff_dst;
    cl_mem diff_src;
    cl_mem index;
    cl_mem post_op[CLRS_MAX_POST_OPS]; /* binary post-op operands */
    /* A user-workspace plan's intermediates
     * (clrs_resample_desc_set_user_workspace): read and written, so it
     * shares no byte with another role's buffer. */
    cl_mem workspace;
} clrs_args;

/* Sets arguments and enqueues on the context's queue after the wait list;
 * never builds, allocates device memory or blocks. event may be NULL.
 * Checked first, with what OpenCL reports of the caller's objects: every
 * buffer the plan uses is set, large enough, of the context's cl_context,
 * not CL_MEM_READ_ONLY where the plan writes it nor CL_MEM_WRITE_ONLY
 * where it reads it (CLRS_ERR_INVALID_VALUE otherwise); a written buffer
 * shares no byte with another role's, as the same buffer or as
 * overlapping sub-buffers of one parent (CLRS_ERR_ALIASING); every event
 * of the wait list is non-NULL and of the context's cl_context. */
CLRS_API clrs_status clrs_execute(clrs_plan *plan, const clrs_args *args,
                                  cl_uint num_events,
                                  const cl_event *wait_list,
                                  cl_event *event);

/* ------------------------------------------------------------------ */
/* CPU reference in double precision, on host memory: the oracle for every
 * device kernel. Same descriptors and rules as the plans. */
typedef struct clrs_host_args {
    const void *src;
    void *dst;
    const void *diff_dst;
    void *diff_src;
    void *index; /* written by forward, read by backward */
    const void *post_op[CLRS_MAX_POST_OPS];
} clrs_host_args;

CLRS_API clrs_status clrs_reference_forward(const clrs_resample_desc *op,
                                            const clrs_tensor_desc *src,
                                            const clrs_tensor_desc *dst,
                                            const clrs_tensor_desc *index,
                                            const clrs_host_args *args);
CLRS_API clrs_status clrs_reference_backward(
    const clrs_resample_desc *op, const clrs_tensor_desc *diff_src,
    const clrs_tensor_desc *diff_dst, const clrs_tensor_desc *index,
    const clrs_tensor_desc *src, const clrs_host_args *args);

/* The error model (clresample(3), TOLERANCES). The same as the two
 * functions above, and when bound is not NULL, bound[i] gets how far a
 * correct device's value of output element i may lie from the exact
 * result before its final rounding to the output's type: i counts the
 * elements of dst (forward) or diff_src (backward) in row-major order of
 * their dims, whatever the layout; 0 marks a result to be compared
 * exactly. */
CLRS_API clrs_status clrs_reference_forward_bound(
    const clrs_resample_desc *op, const clrs_tensor_desc *src,
    const clrs_tensor_desc *dst, const clrs_tensor_desc *index,
    const clrs_host_args *args, double *bound);
CLRS_API clrs_status clrs_reference_backward_bound(
    const clrs_resample_desc *op, const clrs_tensor_desc *diff_src,
    const clrs_tensor_desc *diff_dst, const clrs_tensor_desc *index,
    const clrs_tensor_desc *src, const clrs_host_args *args, double *bound);
/* 1 when a device's value got of an element of type dt agrees with the
 * reference's want and the element's bound: both NaN, equal, or (bound >
 * 0) within bound plus one spacing of dt's values at their magnitude (an
 * integer type's is 1); else 0. The one decision clresample --mode=C and
 * the library's tests use. */
CLRS_API int clrs_reference_agrees(clrs_dtype dt, double got, double want,
                                   double bound);

#ifdef __cplusplus
}
#endif

#endif /* CLRESAMPLE_H */
