/* The span vector path (channels-first, lanes along the innermost
 * resampled axis W, taps picked by constant shuffles from contiguous
 * loads), forward and backward, on the device against the CPU reference,
 * and the plan info that says which path a plan took. Each case is two points: the values (run
 * twice into poisoned, fenced buffers by td_forward, then compared with
 * clrs_reference_forward: exactly for nearest and max, index tensors
 * included, within the tolerances of clresample(3) for the weighted sums)
 * and the path
 * (clrs_plan_get_info on a plan made the same way: span where the case
 * is built for it, not span where it is built against it).
 * Covered: nearest, linear, cubic, average pooling (count include and
 * exclude padding), max pooling (inference, window
 * and plane index, NaN propagate and ignore, neg_inf and zero padding),
 * edge and constant padding, 1 to 8 spans of input per group (antialias
 * windows of up to 16 taps; 20 are off the path), several
 * tap patterns, partial last groups, every dtype (f64: 8 lanes), binary
 * post-op operands contiguous and broadcast along W, rank 1, 3 and 4,
 * one output over 8 MiB (non-temporal stores); and cases that must not
 * take the path: channels-last, W too short, CLRS_GENERIC=1. Tap counts
 * that vary along W (cubic exclude_outside, average pooling excluding
 * padding and antialias, whose edge outputs have fewer taps; outputs
 * without taps past a tf_crop_and_resize roi) take group-major weights
 * with absent taps.
 * Backward (the weighted sums; diff_src against clrs_reference_backward,
 * run twice with identical bits): linear, nearest, cubic (exclude_outside
 * too), antialias and average pooling, up and down, partial last groups,
 * inputs without entries, accumulate, f16, bf16, f64, rank 1 and 3, a
 * 16 MiB diff_src; off the path: entries spread over more than 8 vectors
 * (8x up), channels-last, short W, CLRS_GENERIC=1.
 *   CLRS_TEST_SEED=S        reruns case S alone (of the list being run)
 *   --oclgrind-subset (or CLRS_TEST_OCLGRIND_SUBSET=1): a few cases at the
 *   smallest sizes that still take the path, for test_oclgrind.sh. */
#include "devutil.h"
#include "tap.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static td_env env;

/* What the plan info must say. */
typedef enum expect {
    EX_SPAN,     /* CLRS_VECTOR_SPAN */
    EX_NOT_SPAN, /* anything else */
    EX_SPAN_FITS, /* SPAN where the written and the read row each hold
                     a group of the device's lanes (span_lanes), else
                     anything else */
    EX_NONE,     /* CLRS_VECTOR_NONE (CLRS_GENERIC) */
    EX_AXIS,     /* CLRS_VECTOR_AXIS (channels-last) */
    EX_ANY       /* reported only; the values must still match */
} expect;

enum { IX_NONE, IX_WINDOW, IX_PLANE };        /* max pooling index */
enum { NAN_NO, NAN_PROPAGATE, NAN_IGNORE };   /* NaNs in src, policy */
enum { PO_NONE, PO_RELU_ADD, PO_MUL_CHANNEL }; /* post-op chains */
enum { ROI_NONE, ROI_PAST_ENDS, ROI_INSIDE };   /* tf_crop_and_resize */

typedef struct scase {
    const char *name;
    clrs_mode mode;
    clrs_dtype sdt, ddt;
    int rank;
    int64_t in[4];
    int64_t out[4]; /* interpolation; pooling: from the pooling rule */
    clrs_coord coord;
    int rounding; /* nearest: clrs_rounding + 1, 0 for the default */
    int exclude_outside;
    int antialias;
    /* Pooling (rank 4: H then W): window, stride, pre = post padding. */
    int64_t hk, hs, hp, wk, ws, wp;
    clrs_padding pad; /* DEFAULT leaves the mode's default */
    double pad_value;
    int roi; /* ROI_*: tf_crop_and_resize and its roi */
    int index, nan, post;
    int axb;     /* channels-last tensors */
    int generic; /* plan with CLRS_GENERIC=1 */
    /* Added to CLRS_LAUNCH for the plan: "spanv=8" (groups of up to 8
     * vectors and 16 taps a lane), "walk=1" (a work-item walks its row
     * of groups): a CPU's defaults, not a GPU's. */
    const char *launch;
    int walked; /* SPAN: 1: a work-item takes its row's groups (the
                   power of two that covers the row at the plan's lanes),
                   -1: one group, 0: as the device's defaults choose;
                   2: by the device class, a row whose neighbouring
                   rows' taps overlap (walked on a CPU, but not on an
                   Intel one: launch.c's cpu-intel), 3: one whose rows'
                   taps do not (walked on every CPU) */
    expect want;
    /* EX_SPAN only where the device's span groups have at least this
     * many lanes (a wide window's group then fits spanv=8's vectors);
     * narrower ones (a GPU's 4) read more and take another path. */
    int span_lanes_min;
    /* Backward (BWD, BWD_ACC: accumulate into diff_src): in and out are
     * then diff_src's and diff_dst's dims, sdt and ddt their dtypes. */
    int bwd;
} scase;

enum { FWD = 0, BWD = 1, BWD_ACC = 2 };

#define NCHW(n, c, h, w) 4, {n, c, h, w}
#define F32 CLRS_F32, CLRS_F32

static const scase cases[] = {
    /* 1-2: linear 2x up, whole and partial last group. */
    {.name = "linear 2x up half_pixel W 64->128 H 4->8",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F32, .ddt = CLRS_F32,
     NCHW(2, 3, 4, 64), .out = {2, 3, 8, 128}, .want = EX_SPAN},
    {.name = "linear 2x up W 60->120 (partial last group)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 3, 60),
     .out = {2, 2, 6, 120}, .want = EX_SPAN},
    /* 3: nearest. */
    {.name = "nearest 2x up asymmetric floor W 64->128",
     .mode = CLRS_MODE_NEAREST, F32, NCHW(1, 3, 3, 64),
     .out = {1, 3, 6, 128}, .coord = CLRS_COORD_ASYMMETRIC,
     .rounding = CLRS_ROUND_FLOOR + 1, .want = EX_SPAN},
    {.name = "nearest 2x up half_pixel round_prefer_ceil W 50->100",
     .mode = CLRS_MODE_NEAREST, F32, NCHW(2, 2, 2, 50),
     .out = {2, 2, 4, 100}, .coord = CLRS_COORD_HALF_PIXEL,
     .rounding = CLRS_ROUND_PREFER_CEIL + 1, .want = EX_SPAN},
    /* 4: cubic, 4 taps. */
    {.name = "cubic 2x up half_pixel W 64->128", .mode = CLRS_MODE_CUBIC,
     F32, NCHW(1, 2, 4, 64), .out = {1, 2, 8, 128}, .want = EX_SPAN},
    /* exclude_outside drops the taps outside the input (taps.c), so the
     * edge outputs have fewer than 4 and the count varies: group-major
     * weights, the missing taps absent; with every tap inside (a roi
     * well inside the input) the count is a fixed 4 again. */
    {.name = "cubic 2x up half_pixel exclude_outside W 48->96 (varying "
             "tap count)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(2, 2, 3, 48), .out = {2, 2, 5, 96},
     .exclude_outside = 1, .want = EX_SPAN},
    {.name = "cubic exclude_outside tf_crop_and_resize roi inside W 48->96",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(2, 2, 3, 48), .out = {2, 2, 5, 96},
     .exclude_outside = 1, .roi = ROI_INSIDE, .want = EX_SPAN},
    /* 5-8: other ratios, 1 to 4 spans of input per group. */
    {.name = "linear 3x up W 40->120 (three phases)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 3, 2, 40),
     .out = {1, 3, 4, 120}, .want = EX_SPAN},
    {.name = "linear 1.5x up W 64->96", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(2, 2, 4, 64), .out = {2, 2, 6, 96}, .want = EX_SPAN},
    {.name = "linear 2x down W 128->64 (2 spans)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 3, 6, 128), .out = {2, 3, 3, 64}, .want = EX_SPAN},
    {.name = "linear 4x down no antialias W 256->64 (4 spans)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 4, 256),
     .out = {1, 2, 2, 64}, .want = EX_SPAN},
    /* Antialias: 4 taps inside, fewer at the ends (clipped to the
     * input): a varying count. */
    {.name = "linear 2x down antialias W 128->64", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(1, 2, 4, 128), .out = {1, 2, 2, 64}, .antialias = 1,
     .want = EX_SPAN},
    /* Wide antialias windows: up to 16 taps per lane over up to 8
     * vectors of input; 20 taps are past the path. */
    {.name = "cubic 3x down antialias W 192->64 (12 taps)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(1, 2, 3, 192),
     .out = {1, 2, 2, 64}, .antialias = 1, .want = EX_SPAN, .launch = "spanv=8"},
    {.name = "linear 4x down antialias W 256->64 (8-9 taps, 5 spans)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 8, 256),
     .out = {2, 2, 2, 64}, .antialias = 1, .want = EX_SPAN, .launch = "spanv=8"},
    {.name = "linear 7x down antialias W 448->64 (14-15 taps, 8 spans)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 7, 448),
     .out = {1, 2, 1, 64}, .antialias = 1, .want = EX_SPAN, .launch = "spanv=8",
     .span_lanes_min = 8},
    {.name = "cubic 5x down antialias W 320->64 (20 taps: over 16)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(1, 2, 5, 320),
     .out = {1, 2, 1, 64}, .antialias = 1, .want = EX_NOT_SPAN, .launch = "spanv=8"},
    /* Groups of up to 16 vectors (a CPU's default): 32 taps a lane. */
    {.name = "cubic 5x down antialias W 320->64 (20 taps, spanv=16)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(1, 2, 5, 320),
     .out = {1, 2, 1, 64}, .antialias = 1, .want = EX_SPAN,
     .launch = "spanv=16"},
    {.name = "linear 8x down antialias W 512->64 (16-17 taps, 9 spans)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 3, 512),
     .out = {2, 2, 2, 64}, .antialias = 1, .want = EX_SPAN,
     .launch = "spanv=16"},
    {.name = "linear 8x down antialias W 512->64 (17 taps: over 16)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 512),
     .out = {1, 2, 1, 64}, .antialias = 1, .want = EX_NOT_SPAN,
     .launch = "spanv=8"},
    {.name = "u8 cubic 8x down antialias W 512->64 (32-33 taps)",
     .mode = CLRS_MODE_CUBIC, .sdt = CLRS_U8, .ddt = CLRS_U8,
     NCHW(1, 2, 3, 512), .out = {1, 2, 1, 64}, .antialias = 1,
     .want = EX_SPAN, .launch = "spanv=16"},
    /* spanv=16 forward: a group reaches over up to 64 vectors, each
     * tap's lanes within 16 of them, 64 taps a lane. */
    {.name = "cubic 9x down antialias W 576->64 (36 taps, 37 spans)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(1, 2, 3, 576),
     .out = {1, 2, 1, 64}, .antialias = 1, .want = EX_SPAN,
     .launch = "spanv=16"},
    {.name = "f16 linear 16x down antialias W 1024->64 (32-33 taps)",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F16, .ddt = CLRS_F16,
     NCHW(1, 2, 3, 1024), .out = {1, 2, 1, 64}, .antialias = 1,
     .want = EX_SPAN, .launch = "spanv=16"},
    {.name = "u8 cubic 16x down antialias W 1024->64 (64 taps)",
     .mode = CLRS_MODE_CUBIC, .sdt = CLRS_U8, .ddt = CLRS_U8,
     NCHW(1, 2, 3, 1024), .out = {1, 2, 1, 64}, .antialias = 1,
     .want = EX_SPAN, .launch = "spanv=16"},
    {.name = "cubic 17x down antialias W 1088->64 (68 taps: over 64)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(1, 2, 3, 1088),
     .out = {1, 2, 1, 64}, .antialias = 1, .want = EX_NOT_SPAN,
     .launch = "spanv=16"},
    {.name = "f16 linear 14x down W 896->64 (15 spans)",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F16, .ddt = CLRS_F16,
     NCHW(1, 3, 2, 896), .out = {1, 3, 2, 64}, .want = EX_SPAN,
     .launch = "spanv=16"},
    /* 9: average pooling. */
    {.name = "avg k2 s2 W 128->64", .mode = CLRS_MODE_AVG_INCLUDE_PADDING,
     F32, NCHW(2, 3, 4, 128), .hk = 2, .hs = 2, .wk = 2, .ws = 2,
     .want = EX_SPAN},
    {.name = "avg include padding k3 s2 pad 1 W 100->50 (3 spans)",
     .mode = CLRS_MODE_AVG_INCLUDE_PADDING, F32, NCHW(2, 2, 5, 100),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN},
    /* Excluding padding drops the padding taps (taps.c): 2 taps at the
     * ends, 3 elsewhere, a varying count; without padding every window
     * has its 3 taps. */
    {.name = "avg exclude padding k3 s2 pad 1 W 100->50",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(2, 2, 5, 100),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN},
    {.name = "avg exclude padding k3 s2 pad 1 W 100->50 f16 + relu + add",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, .sdt = CLRS_F16,
     .ddt = CLRS_F16, NCHW(1, 2, 5, 100), .hk = 3, .hs = 2, .hp = 1,
     .wk = 3, .ws = 2, .wp = 1, .post = PO_RELU_ADD, .want = EX_SPAN},
    {.name = "avg exclude padding k3 s2 W 100->49 (3 spans)",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(2, 2, 5, 100),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .want = EX_SPAN},
    /* 10: max pooling, inference. */
    {.name = "max k3 s2 pad 1 neg_inf W 128->64 inference",
     .mode = CLRS_MODE_MAX, F32, NCHW(2, 2, 6, 128), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .pad = CLRS_PAD_NEG_INF,
     .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 zero padding W 100->50 inference",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 3, 5, 100), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .pad = CLRS_PAD_ZERO,
     .want = EX_SPAN},
    /* 11: max pooling with an index tensor. */
    {.name = "max k2 s2 W 128->64 index=window", .mode = CLRS_MODE_MAX, F32,
     NCHW(2, 2, 4, 128), .hk = 2, .hs = 2, .wk = 2, .ws = 2,
     .index = IX_WINDOW, .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 W 96->48 index=window", .mode = CLRS_MODE_MAX,
     F32, NCHW(1, 2, 5, 96), .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2,
     .wp = 1, .index = IX_WINDOW, .want = EX_SPAN},
    {.name = "max k2 s2 W 128->64 index=plane", .mode = CLRS_MODE_MAX, F32,
     NCHW(2, 2, 4, 128), .hk = 2, .hs = 2, .wk = 2, .ws = 2,
     .index = IX_PLANE, .want = EX_SPAN},
    /* Windows wider than 8 along W: a max's count is fixed up to 32. */
    {.name = "max k2x12 s2x12 W 384->32 (12 taps)", .mode = CLRS_MODE_MAX,
     F32, NCHW(1, 2, 4, 384), .hk = 2, .hs = 2, .wk = 12, .ws = 12,
     .want = EX_SPAN, .launch = "spanv=16"},
    {.name = "max k1x10 s1x10 W 320->32 NaN/inf propagate index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 3, 320), .hk = 1, .hs = 1,
     .wk = 10, .ws = 10, .index = IX_WINDOW, .nan = NAN_PROPAGATE,
     .want = EX_SPAN, .launch = "spanv=16"},
    {.name = "u8 max k1x16 s1x16 W 512->32 (16 taps)", .mode = CLRS_MODE_MAX,
     .sdt = CLRS_U8, .ddt = CLRS_U8, NCHW(1, 2, 3, 512), .hk = 1, .hs = 1,
     .wk = 16, .ws = 16, .want = EX_SPAN, .launch = "spanv=16"},
    /* 12: NaN and infinities in src. */
    {.name = "max k3 s2 pad 1 W 128->64 NaN/inf propagate index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(2, 2, 6, 128), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .index = IX_WINDOW,
     .nan = NAN_PROPAGATE, .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 W 128->64 NaN/inf ignore index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(2, 2, 6, 128), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .index = IX_WINDOW,
     .nan = NAN_IGNORE, .want = EX_SPAN},
    {.name = "max k2 s2 W 128->64 NaN/inf ignore index=plane",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 128), .hk = 2, .hs = 2,
     .wk = 2, .ws = 2, .index = IX_PLANE, .nan = NAN_IGNORE,
     .want = EX_SPAN},
    {.name = "max k2 s2 W 128->64 NaN/inf propagate inference",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 128), .hk = 2, .hs = 2,
     .wk = 2, .ws = 2, .nan = NAN_PROPAGATE, .want = EX_SPAN},
    /* 13: padding taps in interpolation, and variable tap counts. */
    {.name = "linear 2x up constant padding 2.5 W 64->128",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 64),
     .out = {1, 2, 6, 128}, .pad = CLRS_PAD_CONSTANT, .pad_value = 2.5,
     .want = EX_SPAN},
    {.name = "linear 2x up zero padding W 64->128", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(1, 2, 3, 64), .out = {1, 2, 6, 128}, .pad = CLRS_PAD_ZERO,
     .want = EX_SPAN},
    /* Outputs past the roi's ends have no taps (the extrapolation
     * value): their groups go lane by lane. */
    {.name = "linear tf_crop_and_resize roi past the ends W 64->128",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 64),
     .out = {1, 2, 6, 128}, .roi = ROI_PAST_ENDS, .want = EX_SPAN},
    /* 14: dtypes. */
    {.name = "linear 2x up f16 -> f16", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_F16, .ddt = CLRS_F16, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN},
    {.name = "linear 2x up bf16 -> f32", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_BF16, .ddt = CLRS_F32, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN},
    {.name = "linear 2x up f64 -> f64 (8 lanes)", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_F64, .ddt = CLRS_F64, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN},
    {.name = "linear 2x up f64 -> f64 W 12->24 (8 lanes, short axis)",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F64, .ddt = CLRS_F64,
     NCHW(1, 2, 3, 12), .out = {1, 2, 6, 24}, .want = EX_SPAN},
    {.name = "linear 2x up u8 -> s8 (saturating)", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_U8, .ddt = CLRS_S8, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN},
    {.name = "linear 2x up s32 -> f32", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_S32, .ddt = CLRS_F32, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 bf16 -> bf16 index=window",
     .mode = CLRS_MODE_MAX, .sdt = CLRS_BF16, .ddt = CLRS_BF16,
     NCHW(1, 2, 4, 96), .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2,
     .wp = 1, .index = IX_WINDOW, .want = EX_SPAN},
    {.name = "nearest 2x up s8 -> u8", .mode = CLRS_MODE_NEAREST,
     .sdt = CLRS_S8, .ddt = CLRS_U8, NCHW(1, 2, 3, 64),
     .out = {1, 2, 6, 128}, .want = EX_SPAN},
    /* 15: post-ops. */
    {.name = "linear 2x up + relu + add per-tensor operand",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 3, 3, 64),
     .out = {2, 3, 6, 128}, .post = PO_RELU_ADD, .want = EX_SPAN},
    {.name = "linear 2x up + mul per-channel operand",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 3, 3, 64),
     .out = {2, 3, 6, 128}, .post = PO_MUL_CHANNEL, .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 + relu + add per-tensor operand, inference",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 96), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .post = PO_RELU_ADD,
     .want = EX_SPAN},
    /* 16: other ranks. */
    {.name = "linear 2x up rank 1 W 64->128", .mode = CLRS_MODE_LINEAR, F32,
     1, {64}, .out = {128}, .want = EX_SPAN},
    {.name = "linear 2x up rank 3 NCW 64->128", .mode = CLRS_MODE_LINEAR,
     F32, 3, {2, 3, 64}, .out = {2, 3, 128}, .want = EX_SPAN},
    /* 17: not the span path. */
    {.name = "linear 2x up channels-last (axb)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 8, 3, 64), .out = {2, 8, 6, 128}, .axb = 1,
     .want = EX_AXIS},
    {.name = "linear 2x up W 6->12 (W out < 16)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 2, 3, 6), .out = {2, 2, 6, 12}, .want = EX_SPAN_FITS},
    {.name = "linear down W 40->15 (W out < 16)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 2, 3, 40), .out = {2, 2, 6, 15}, .want = EX_SPAN_FITS},
    {.name = "linear 4x up W 8->32 (W in < 16)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 2, 3, 8), .out = {2, 2, 6, 32}, .want = EX_SPAN_FITS},
    {.name = "linear W 37->100 (irregular scale)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 2, 3, 37), .out = {2, 2, 6, 100}, .want = EX_ANY},
    {.name = "linear 2x up CLRS_GENERIC=1", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(2, 3, 4, 64), .out = {2, 3, 8, 128}, .generic = 1,
     .want = EX_NONE},
    {.name = "max k3 s2 pad 1 index=plane CLRS_GENERIC=1",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 5, 96), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .index = IX_PLANE, .generic = 1,
     .want = EX_NONE},
    /* 18: over 8 MiB of dst: non-temporal vector stores. */
    {.name = "linear 2x up 1x16x256x256 -> 512x512 (16 MiB dst)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 16, 256, 256),
     .out = {1, 16, 512, 512}, .want = EX_SPAN},
    /* Walked rows (walk=1): one work-item takes every group of its row
     * (the power of two of groups that covers it), outer taps first. */
    {.name = "linear 2x down W 128->64 H 6->3 walked (4 groups)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 3, 6, 128),
     .out = {2, 3, 3, 64}, .launch = "walk=1", .walked = 1,
     .want = EX_SPAN},
    {.name = "linear 2x down W 128->64 walk=0 (1 group)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 3, 6, 128),
     .out = {2, 3, 3, 64}, .launch = "walk=0", .walked = -1,
     .want = EX_SPAN},
    {.name = "cubic 2x up W 60->120 walked (8 groups, partial last)",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(2, 2, 3, 60),
     .out = {2, 2, 6, 120}, .launch = "walk=1", .walked = 1,
     .want = EX_SPAN},
    {.name = "linear W 100->62 H 8->5 walked + relu + add (4 groups)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 8, 100),
     .out = {2, 2, 5, 62}, .post = PO_RELU_ADD, .launch = "walk=1",
     .walked = 1, .want = EX_SPAN},
    {.name = "avg exclude padding k3 s2 pad 1 W 100->50 walked + mul",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(2, 2, 5, 100),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1,
     .post = PO_MUL_CHANNEL, .launch = "walk=1", .walked = 1,
     .want = EX_SPAN},
    {.name = "linear 4x down antialias W 256->64 walked (4 groups)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 8, 256),
     .out = {2, 2, 2, 64}, .antialias = 1, .launch = "spanv=8,walk=1",
     .walked = 1, .want = EX_SPAN},
    /* By default: a CPU walks rows it reads once; an Intel one not
     * where a forward kernel's neighbouring rows' taps overlap. */
    {.name = "avg exclude padding k3 s2 pad 1 W 100->50, default walk",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(2, 2, 5, 100),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1, .walked = 2,
     .want = EX_SPAN},
    {.name = "linear 2x down W 128->64 H 6->3, default walk",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 3, 6, 128),
     .out = {2, 3, 3, 64}, .walked = 3, .want = EX_SPAN},
    {.name = "linear 2x down f64 W 64->32 walked (4 groups of 8)",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F64, .ddt = CLRS_F64,
     NCHW(1, 2, 6, 64), .out = {1, 2, 3, 32}, .launch = "walk=1",
     .walked = 1, .want = EX_SPAN},
    /* 19: backward, the gather along W: groups of 16 diff_src elements,
     * each lane's transposed entries picked from diff_dst spans. */
    {.name = "bwd linear 2x up half_pixel W 64->128 H 4->8",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 3, 4, 64),
     .out = {2, 3, 8, 128}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x up W 60->120 (partial last group)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 3, 60),
     .out = {2, 2, 6, 120}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x up W 64->128 accumulate",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN, .bwd = BWD_ACC},
    {.name = "bwd linear 2x down W 128->64", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(2, 2, 6, 128), .out = {2, 2, 3, 64}, .want = EX_SPAN,
     .bwd = BWD},
    {.name = "bwd linear 4x down W 256->64 (inputs without entries)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 4, 256),
     .out = {1, 2, 2, 64}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 3x up W 40->120 (4 spans)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 3, 2, 40),
     .out = {1, 3, 4, 120}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 1.5x up W 64->96", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(2, 2, 4, 64), .out = {2, 2, 6, 96}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd nearest 2x up asymmetric floor W 64->128",
     .mode = CLRS_MODE_NEAREST, F32, NCHW(1, 3, 3, 64),
     .out = {1, 3, 6, 128}, .coord = CLRS_COORD_ASYMMETRIC,
     .rounding = CLRS_ROUND_FLOOR + 1, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd nearest 3x down W 96->32 (one input in three)",
     .mode = CLRS_MODE_NEAREST, F32, NCHW(2, 2, 3, 96),
     .out = {2, 2, 3, 32}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd cubic 2x up half_pixel W 64->128", .mode = CLRS_MODE_CUBIC,
     F32, NCHW(1, 2, 4, 64), .out = {1, 2, 8, 128}, .want = EX_SPAN,
     .bwd = BWD},
    /* Variable tap counts forward are only edge groups backward. */
    {.name = "bwd cubic 2x up exclude_outside W 48->96",
     .mode = CLRS_MODE_CUBIC, F32, NCHW(2, 2, 3, 48), .out = {2, 2, 5, 96},
     .exclude_outside = 1, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x down antialias W 128->64",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 4, 128),
     .out = {1, 2, 2, 64}, .antialias = 1, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd avg include padding k3 s2 pad 1 W 100->50",
     .mode = CLRS_MODE_AVG_INCLUDE_PADDING, F32, NCHW(2, 2, 5, 100),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN,
     .bwd = BWD},
    {.name = "bwd avg exclude padding k3 s2 pad 1 W 96->48",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(2, 2, 5, 96),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN,
     .bwd = BWD},
    {.name = "bwd linear 2x up f16 <- f16", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_F16, .ddt = CLRS_F16, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x up bf16 <- f32", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_BF16, .ddt = CLRS_F32, NCHW(2, 2, 3, 64),
     .out = {2, 2, 6, 128}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x up f64 <- f64 (8 lanes) accumulate",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F64, .ddt = CLRS_F64,
     NCHW(2, 2, 3, 64), .out = {2, 2, 6, 128}, .want = EX_SPAN,
     .bwd = BWD_ACC},
    {.name = "bwd linear 2x up rank 1 W 64->128", .mode = CLRS_MODE_LINEAR,
     F32, 1, {64}, .out = {128}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x up rank 3 NCW 64->128", .mode = CLRS_MODE_LINEAR,
     F32, 3, {2, 3, 64}, .out = {2, 3, 128}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x down 1x16x512x512 <- 256x256 (16 MiB diff_src)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 16, 512, 512),
     .out = {1, 16, 256, 256}, .want = EX_SPAN, .bwd = BWD},
    /* Max pooling with an index tensor: an entry adds its dy where the
     * index names it (window: the entry's box position; plane: the
     * element's plane index). Edge padding repeats taps (codes 0 and 1
     * name one element). */
    {.name = "bwd max k3 s2 pad 1 W 128->64 index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(2, 2, 6, 128), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .index = IX_WINDOW,
     .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k2 s2 W 128->64 index=plane", .mode = CLRS_MODE_MAX,
     F32, NCHW(2, 2, 4, 128), .hk = 2, .hs = 2, .wk = 2, .ws = 2,
     .index = IX_PLANE, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k3 s2 pad 1 W 100->50 index=plane accumulate",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 3, 5, 100), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .index = IX_PLANE,
     .want = EX_SPAN, .bwd = BWD_ACC},
    {.name = "bwd max k3 s1 pad 1 W 64->64 index=window (3 windows each)",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 64), .hk = 3, .hs = 1,
     .hp = 1, .wk = 3, .ws = 1, .wp = 1, .index = IX_WINDOW,
     .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k3 s2 pad 1 edge padding W 96->48 index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 5, 96), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .pad = CLRS_PAD_EDGE,
     .index = IX_WINDOW, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k2 s2 bf16 <- bf16 W 128->64 index=window",
     .mode = CLRS_MODE_MAX, .sdt = CLRS_BF16, .ddt = CLRS_BF16,
     NCHW(1, 2, 4, 128), .hk = 2, .hs = 2, .wk = 2, .ws = 2,
     .index = IX_WINDOW, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k2 s2 f64 <- f64 W 64->32 index=plane (8 lanes)",
     .mode = CLRS_MODE_MAX, .sdt = CLRS_F64, .ddt = CLRS_F64,
     NCHW(1, 2, 4, 64), .hk = 2, .hs = 2, .wk = 2, .ws = 2,
     .index = IX_PLANE, .want = EX_SPAN, .bwd = BWD},
    /* Argmax recomputed from src: two kernels, the forward argmax into
     * a scratch window index, then the index backward on the path. */
    {.name = "bwd max k3 s2 pad 1 W 128->64 argmax recomputed from src",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 128), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k2 s1 W 65->64 argmax recomputed, accumulate",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 65), .hk = 2, .hs = 1,
     .wk = 2, .ws = 1, .want = EX_SPAN, .bwd = BWD_ACC},
    {.name = "bwd max k3 s2 pad 1 f16 <- f16 argmax recomputed",
     .mode = CLRS_MODE_MAX, .sdt = CLRS_F16, .ddt = CLRS_F16,
     NCHW(1, 3, 4, 96), .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2,
     .wp = 1, .want = EX_SPAN, .bwd = BWD},
    /* 20: backward off the span path. */
    {.name = "bwd max k3 s2 pad 1 argmax recomputed, CLRS_GENERIC=1 (one "
             "kernel)",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 2, 4, 128), .hk = 3, .hs = 2,
     .hp = 1, .wk = 3, .ws = 2, .wp = 1, .generic = 1, .want = EX_NONE,
     .bwd = BWD},
    {.name = "bwd linear 4x up W 32->128 (entries span 5 vectors)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 32), .out = {1, 2, 6, 128},
     .want = EX_SPAN, .bwd = BWD, .launch = "spanv=8"},
    {.name = "bwd linear 8x up W 32->256 (entries span more than 8 "
             "vectors)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 32), .out = {1, 2, 6, 256},
     .want = EX_NOT_SPAN, .bwd = BWD, .launch = "spanv=8"},
    {.name = "bwd linear 8x up W 32->256 (entries span 9 vectors, "
             "spanv=16)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 32), .out = {1, 2, 6, 256},
     .want = EX_SPAN, .bwd = BWD, .launch = "spanv=16"},
    {.name = "bwd linear 12x up W 20->240 (24 entries)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 3, 20), .out = {1, 2, 6, 240},
     .want = EX_SPAN, .bwd = BWD_ACC, .launch = "spanv=16"},
    {.name = "bwd linear 4x down antialias W 256->64 (9 entries)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 2, 8, 256), .out = {1, 2, 2, 64},
     .antialias = 1, .want = EX_SPAN, .bwd = BWD, .launch = "spanv=8"},
    {.name = "bwd linear 2x up channels-last (axb)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 8, 3, 64), .out = {2, 8, 6, 128}, .axb = 1,
     .want = EX_AXIS, .bwd = BWD},
    {.name = "bwd linear down W 40->15 (W out < 16)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 3, 40), .out = {2, 2, 6, 15},
     .want = EX_SPAN_FITS, .bwd = BWD},
    {.name = "bwd linear 2x up W 6->12 (W in < 16)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 2, 3, 6), .out = {2, 2, 6, 12}, .want = EX_SPAN_FITS,
     .bwd = BWD},
    {.name = "bwd linear W 37->100 (irregular scale)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(2, 2, 3, 37),
     .out = {2, 2, 6, 100}, .want = EX_ANY, .bwd = BWD},
    {.name = "bwd linear 2x up CLRS_GENERIC=1", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(2, 3, 4, 64), .out = {2, 3, 8, 128}, .generic = 1,
     .want = EX_NONE, .bwd = BWD},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The Oclgrind subset: the smallest sizes that still take the path
 * (one or two groups of 16 along W, C = 1, H = 2). */
static const scase subset_cases[] = {
    {.name = "linear 2x up W 16->32", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(1, 1, 2, 16), .out = {1, 1, 2, 32}, .want = EX_SPAN},
    {.name = "linear 2x down W 64->30 walked (2 groups, partial)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 1, 4, 64),
     .out = {1, 1, 2, 30}, .launch = "walk=1", .walked = 1,
     .want = EX_SPAN},
    {.name = "avg k3 s2 pad 1 W 64->32 walked + relu + add",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(1, 1, 3, 64),
     .hk = 3, .hs = 2, .hp = 1, .wk = 3, .ws = 2, .wp = 1,
     .post = PO_RELU_ADD, .launch = "walk=1", .walked = 1,
     .want = EX_SPAN},
    {.name = "cubic 2x up W 16->32", .mode = CLRS_MODE_CUBIC, F32,
     NCHW(1, 1, 2, 16), .out = {1, 1, 2, 32}, .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 neg_inf W 40->20 inference",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 1, 2, 40), .hk = 1, .hs = 1,
     .wk = 3, .ws = 2, .wp = 1, .pad = CLRS_PAD_NEG_INF, .want = EX_SPAN},
    {.name = "max k2 s2 W 32->16 index=plane", .mode = CLRS_MODE_MAX, F32,
     NCHW(1, 1, 2, 32), .hk = 1, .hs = 1, .wk = 2, .ws = 2,
     .index = IX_PLANE, .want = EX_SPAN},
    {.name = "max k3 s2 pad 1 W 40->20 NaN/inf ignore index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 1, 2, 40), .hk = 1, .hs = 1,
     .wk = 3, .ws = 2, .wp = 1, .index = IX_WINDOW, .nan = NAN_IGNORE,
     .want = EX_SPAN},
    {.name = "linear 2x up f16 -> f16 W 16->32", .mode = CLRS_MODE_LINEAR,
     .sdt = CLRS_F16, .ddt = CLRS_F16, NCHW(1, 1, 2, 16),
     .out = {1, 1, 2, 32}, .want = EX_SPAN},
    {.name = "linear 2x down W 40->20", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(1, 1, 2, 40), .out = {1, 1, 2, 20}, .want = EX_SPAN},
    {.name = "linear 2x up f64 -> f64 W 8->16 (8 lanes)",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F64, .ddt = CLRS_F64,
     NCHW(1, 1, 2, 8), .out = {1, 1, 2, 16}, .want = EX_SPAN},
    {.name = "linear 2x up + mul per-channel operand W 16->32",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 1, 2, 16),
     .out = {1, 1, 2, 32}, .post = PO_MUL_CHANNEL, .want = EX_SPAN},
    {.name = "avg exclude padding k3 s2 pad 1 W 40->20",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(1, 1, 2, 40),
     .hk = 1, .hs = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN},
    {.name = "linear tf_crop_and_resize roi past the ends W 16->32",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 1, 2, 16),
     .out = {1, 1, 2, 32}, .roi = ROI_PAST_ENDS, .want = EX_ANY},
    {.name = "bwd linear 2x up W 16->32", .mode = CLRS_MODE_LINEAR, F32,
     NCHW(1, 1, 2, 16), .out = {1, 1, 2, 32}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd cubic 2x up W 16->32 accumulate", .mode = CLRS_MODE_CUBIC,
     F32, NCHW(1, 1, 2, 16), .out = {1, 1, 2, 32}, .want = EX_SPAN,
     .bwd = BWD_ACC},
    {.name = "bwd nearest 3x down W 48->16", .mode = CLRS_MODE_NEAREST, F32,
     NCHW(1, 1, 2, 48), .out = {1, 1, 2, 16}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd avg exclude padding k3 s2 pad 1 W 40->20",
     .mode = CLRS_MODE_AVG_EXCLUDE_PADDING, F32, NCHW(1, 1, 2, 40),
     .hk = 1, .hs = 1, .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN,
     .bwd = BWD},
    {.name = "bwd linear 2x up f16 <- f16 W 16->32",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F16, .ddt = CLRS_F16,
     NCHW(1, 1, 2, 16), .out = {1, 1, 2, 32}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd linear 2x up f64 <- f64 W 8->16 (8 lanes)",
     .mode = CLRS_MODE_LINEAR, .sdt = CLRS_F64, .ddt = CLRS_F64,
     NCHW(1, 1, 2, 8), .out = {1, 1, 2, 16}, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k3 s2 pad 1 W 40->20 index=window",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 1, 2, 40), .hk = 1, .hs = 1,
     .wk = 3, .ws = 2, .wp = 1, .index = IX_WINDOW, .want = EX_SPAN,
     .bwd = BWD},
    {.name = "bwd max k2 s2 W 32->16 index=plane", .mode = CLRS_MODE_MAX,
     F32, NCHW(1, 1, 2, 32), .hk = 1, .hs = 1, .wk = 2, .ws = 2,
     .index = IX_PLANE, .want = EX_SPAN, .bwd = BWD},
    {.name = "bwd max k3 s2 pad 1 W 40->20 argmax recomputed (2 kernels)",
     .mode = CLRS_MODE_MAX, F32, NCHW(1, 1, 2, 40), .hk = 1, .hs = 1,
     .wk = 3, .ws = 2, .wp = 1, .want = EX_SPAN, .bwd = BWD},
    {.name = "linear 4x down antialias W 128->32 (9 taps, 5 spans)",
     .mode = CLRS_MODE_LINEAR, F32, NCHW(1, 1, 4, 128),
     .out = {1, 1, 1, 32}, .antialias = 1, .want = EX_SPAN, .launch = "spanv=8"},
    {.name = "bwd linear 4x up W 16->64 (5 spans)", .mode = CLRS_MODE_LINEAR,
     F32, NCHW(1, 1, 2, 16), .out = {1, 1, 2, 64}, .want = EX_SPAN,
     .bwd = BWD, .launch = "spanv=8"},
};
#define NSUBSET ((int)(sizeof subset_cases / sizeof subset_cases[0]))

static int is_pool(clrs_mode m)
{
    return m == CLRS_MODE_AVG_INCLUDE_PADDING ||
           m == CLRS_MODE_AVG_EXCLUDE_PADDING || m == CLRS_MODE_MAX;
}

static int is_exact(clrs_mode m)
{
    return m == CLRS_MODE_NEAREST || m == CLRS_MODE_MAX;
}

static int is_int(clrs_dtype dt)
{
    return dt == CLRS_S32 || dt == CLRS_S8 || dt == CLRS_U8;
}

static int needs_fp64(const scase *c)
{
    return c->sdt == CLRS_F64 || c->ddt == CLRS_F64;
}

/* Exact-friendly inputs: integers for exact modes and integer types,
 * k/16 in [1, 3] for the weighted sums (no cancellation), both signs
 * when a relu follows. */
static void fill_input(tu_buf *b, tu_rng *r, const scase *c)
{
    if (c->sdt == CLRS_U8)
        tu_fill_ints(b, r, 1, 250);
    else if (is_int(c->sdt) || is_exact(c->mode))
        tu_fill_ints(b, r, -100, 100);
    else if (c->post == PO_RELU_ADD)
        tu_fill_sixteenths(b, r, -48, 48);
    else
        tu_fill_sixteenths(b, r, 16, 48);
}

/* NaN, +inf and -inf sprinkled over src, a whole NaN window row now and
 * then (every element of one W run of 4 in 61). */
static void sprinkle_nan(tu_buf *b)
{
    int64_t idx[CLRS_MAX_RANK], k = 0;
    if (tu_idx_first(b->rank, b->dims, idx))
        do {
            if (k % 7 == 3 || k % 61 < 4)
                tu_set(b, idx, NAN);
            else if (k % 11 == 5)
                tu_set(b, idx, INFINITY);
            else if (k % 13 == 6)
                tu_set(b, idx, -INFINITY);
            ++k;
        } while (tu_idx_next(b->rank, b->dims, idx));
    tu_buf_snapshot(b);
}

typedef struct casemem {
    clrs_resample_desc *op;
    clrs_tensor_desc *sd, *dd, *id, *od[CLRS_MAX_POST_OPS];
    tu_buf x, y, yref, ix, iref, opb[CLRS_MAX_POST_OPS];
} casemem;

static void casemem_free(casemem *m)
{
    int i;
    tu_buf_free(&m->x);
    tu_buf_free(&m->y);
    tu_buf_free(&m->yref);
    tu_buf_free(&m->ix);
    tu_buf_free(&m->iref);
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i) {
        tu_buf_free(&m->opb[i]);
        clrs_tensor_desc_destroy(m->od[i]);
    }
    clrs_tensor_desc_destroy(m->sd);
    clrs_tensor_desc_destroy(m->dd);
    clrs_tensor_desc_destroy(m->id);
    clrs_resample_desc_destroy(m->op);
    memset(m, 0, sizeof *m);
}

static clrs_status make_tensor(clrs_tensor_desc **d, const scase *c,
                               clrs_dtype dt, const int64_t *dims)
{
    if (c->axb)
        return clrs_tensor_desc_create_tag(d, dt, c->rank, dims,
                                           CLRS_TAG_AXB);
    return clrs_tensor_desc_create(d, dt, c->rank, dims, NULL);
}

/* The operation, without post-ops. */
static clrs_status build_op(casemem *m, const scase *c)
{
    clrs_resample_desc *op;
    clrs_status st = clrs_resample_desc_create(&m->op, c->mode);
    if (st)
        return st;
    op = m->op;
    if (is_pool(c->mode)) {
        /* Rank 4: H and W pooled; rank 1 and 3: W alone. */
        int n = c->rank == 4 ? 2 : 1;
        int64_t win[2], str[2], pre[2];
        win[0] = c->hk;
        str[0] = c->hs;
        pre[0] = c->hp;
        win[n - 1] = c->wk;
        str[n - 1] = c->ws;
        pre[n - 1] = c->wp;
        if ((st = clrs_resample_desc_set_window(op, n, win)) ||
            (st = clrs_resample_desc_set_stride(op, n, str)) ||
            (st = clrs_resample_desc_set_padding_sizes(op, n, pre, pre)))
            return st;
        if (c->mode == CLRS_MODE_MAX) {
            if (c->index == IX_NONE &&
                (st = clrs_resample_desc_set_inference(op, 1)))
                return st;
            if (c->index == IX_PLANE &&
                (st = clrs_resample_desc_set_index_format(
                     op, CLRS_INDEX_PLANE)))
                return st;
            if (c->nan == NAN_IGNORE &&
                (st = clrs_resample_desc_set_nan_policy(op,
                                                        CLRS_NAN_IGNORE)))
                return st;
        }
    }
    if (c->coord && (st = clrs_resample_desc_set_coord(op, c->coord)))
        return st;
    if (c->rounding &&
        (st = clrs_resample_desc_set_rounding(
             op, (clrs_rounding)(c->rounding - 1))))
        return st;
    if (c->exclude_outside &&
        (st = clrs_resample_desc_set_exclude_outside(op, 1)))
        return st;
    if (c->antialias && (st = clrs_resample_desc_set_antialias(op, 1)))
        return st;
    if (c->pad &&
        (st = clrs_resample_desc_set_padding(op, c->pad, c->pad_value)))
        return st;
    if (c->roi) {
        /* Past the ends: a quarter of the input past each end along every
         * resampled axis, where the outputs have no taps (extrapolation
         * value). Inside: from 0.1 to 0.9, every cubic tap inside. */
        static const double rs[2][2] = {{-0.25, -0.25}, {0.1, 0.1}};
        static const double re[2][2] = {{1.25, 1.25}, {0.9, 0.9}};
        int n = c->rank == 4 ? 2 : 1, w = c->roi == ROI_INSIDE;
        if ((st = clrs_resample_desc_set_coord(
                 op, CLRS_COORD_TF_CROP_AND_RESIZE)) ||
            (st = clrs_resample_desc_set_roi(op, n, rs[w], re[w])) ||
            (st = clrs_resample_desc_set_extrapolation_value(op, -3.5)))
            return st;
    }
    return CLRS_SUCCESS;
}

/* Binary operand i of dims (dst's, or broadcast), filled k/16. */
static clrs_status add_binary(casemem *m, const scase *c, int i,
                              clrs_binary alg, const int64_t *dims,
                              tu_rng *r)
{
    clrs_status st = make_tensor(&m->od[i], c, CLRS_F32, dims);
    if (st)
        return st;
    if (tu_buf_alloc(&m->opb[i], m->od[i]))
        return CLRS_ERR_OUT_OF_MEMORY;
    tu_fill_sixteenths(&m->opb[i], r, -32, 32);
    return clrs_resample_desc_append_binary(m->op, alg, m->od[i]);
}

static clrs_status build_post(casemem *m, const scase *c, const int64_t *out,
                              tu_rng *r)
{
    clrs_status st;
    int64_t pc[4];
    int k;
    switch (c->post) {
    case PO_RELU_ADD:
        if ((st = clrs_resample_desc_append_eltwise(m->op, CLRS_ELTWISE_RELU,
                                                    0, 0)))
            return st;
        return add_binary(m, c, 1, CLRS_BINARY_ADD, out, r);
    case PO_MUL_CHANNEL:
        for (k = 0; k < c->rank; ++k)
            pc[k] = c->rank >= 3 && k == 1 ? out[1] : 1;
        return add_binary(m, c, 0, CLRS_BINARY_MUL, pc, r);
    default:
        return CLRS_SUCCESS;
    }
}

/* The plan's path, on a plan made as td_forward makes it. */
static int plan_info(const scase *c, casemem *m, clrs_plan_info *info)
{
    clrs_plan *plan = NULL;
    clrs_status st;
    if (c->generic)
        td_generic(&env, 1);
    if (c->bwd)
        st = clrs_plan_create_backward(
            &plan, env.ctx, m->op, m->sd, m->dd, c->index ? m->id : NULL,
            c->mode == CLRS_MODE_MAX && !c->index ? m->sd : NULL);
    else
        st = clrs_plan_create_forward(&plan, env.ctx, m->op, m->sd, m->dd,
                                      c->index ? m->id : NULL);
    if (c->generic)
        td_generic(&env, 0);
    if (st != CLRS_SUCCESS) {
        tap_diag("  plan: %s: %s", clrs_status_name(st),
                 clrs_context_last_error(env.ctx));
        return -1;
    }
    st = clrs_plan_get_info(plan, info);
    clrs_plan_destroy(plan);
    if (st != CLRS_SUCCESS) {
        tap_diag("  plan info: %s", clrs_status_name(st));
        return -1;
    }
    return 0;
}

static const char *expect_name(expect e)
{
    switch (e) {
    case EX_SPAN:
        return "span";
    case EX_NOT_SPAN:
        return "not span";
    case EX_NONE:
        return "none";
    case EX_AXIS:
        return "axis";
    default:
        return "any";
    }
}

/* A device's vector width query, as the library takes it: with
 * CLRS_TEST_NATIVE_WIDTH=N (its test override, context.c) a device that
 * states a width (>= 2) is taken for one whose registers hold N floats,
 * its width N * 4 bytes over the element's, at most 16 lanes. */
static cl_uint device_width(cl_device_info what)
{
    const char *e = getenv("CLRS_TEST_NATIVE_WIDTH");
    const int bytes = what == CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE ||
                              what == CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE ||
                              what == CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG
                          ? 8
                          : 4;
    cl_uint w = 0;
    long n;

    if (clGetDeviceInfo(env.dev, what, sizeof w, &w, NULL) != CL_SUCCESS)
        return 0;
    n = e && *e ? strtol(e, NULL, 10) : 0;
    if (w >= 2 && n >= 2 && n <= 16 && !(n & (n - 1)))
        w = (cl_uint)(n * 4 / bytes > 16 ? 16 : n * 4 / bytes);
    return w;
}

/* A device's vector width query as a bound on lanes: a width of 1 or 0
 * states none and bounds nothing (the library's rule, launch.c). */
static int width_bound(cl_device_info what, int bound)
{
    const cl_uint w = device_width(what);
    if (w >= 2)
        while ((cl_uint)bound > w)
            bound /= 2;
    return bound;
}

/* The lanes a span kernel takes by the device's facts: 16 (8 when it
 * accumulates in double) within the native widths of its accumulator
 * and, where it holds an index in 64-bit lanes (an s64 plane index,
 * forward or backward), of long; on a CPU also within the preferred
 * width, its default; on a GPU within one 16-byte load of the
 * accumulator (4 float lanes, 2 double), the GPU default. */
static int span_lanes(int acc_f64, int wide_index)
{
    cl_device_type type = 0;
    int lanes = width_bound(acc_f64 ? CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE
                                    : CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                            acc_f64 ? 8 : 16);
    if (acc_f64 || wide_index)
        lanes = width_bound(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, lanes);
    clGetDeviceInfo(env.dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (type & CL_DEVICE_TYPE_CPU)
        lanes = width_bound(acc_f64 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
                                    : CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                            lanes);
    else if (type & CL_DEVICE_TYPE_GPU)
        while (lanes > 16 / (acc_f64 ? 8 : 4))
            lanes /= 2;
    return lanes;
}

/* The groups a walking work-item takes along a row of n written
 * elements in groups of `lanes` (lower.c's choose_walk: the power of two
 * that covers the row, one where it has more than 32). */
static int walk_groups(int64_t n, int lanes)
{
    int64_t groups = (n + lanes - 1) / lanes;
    int g = 2;
    if (groups < 2 || groups > 32)
        return 1;
    while (g < groups)
        g *= 2;
    return g;
}

/* What the device's class does with a forward row by default (2: the
 * rows' taps overlap, 3: they do not), as `walked` says it: 1 walked on
 * every CPU, but an Intel one (vendor 0x8086) not over overlapping
 * taps, -1 one group; a GPU never walks. */
static int class_walks(int walked)
{
    if (td_device_kind(&env) == CL_DEVICE_TYPE_GPU)
        return -1;
    return walked == 2 && td_intel_cpu(&env) ? -1 : 1;
}

/* The path point: the expected path, and for span the lanes the
 * device's facts give (span_lanes), 1..16 patterns (4 at most unless
 * more leave at most one group in 16 without one) and a coverage of at
 * least one half (the library's own threshold), below 1 when the last
 * group is partial, and a walked row's groups at those lanes. */
static int check_path(const scase *c, const clrs_plan_info *in, int acc_f64,
                      int wide_index, const int64_t *out, const char *head)
{
    int ok;
    const char *pn = clrs_vector_path_name(in->vector_path);
    const int lanes = span_lanes(acc_f64, wide_index);
    /* The written and the read row: dst's W and src's forward,
     * diff_src's and diff_dst's backward (in and out then). */
    const int64_t row = c->bwd ? c->in[c->rank - 1] : out[c->rank - 1];
    const int64_t read = c->bwd ? out[c->rank - 1] : c->in[c->rank - 1];
    expect want = c->want;
    const int walks = c->walked >= 2 ? class_walks(c->walked) : c->walked;
    const int groups = walks > 0 ? walk_groups(row, lanes)
                       : walks < 0 ? 1
                                   : 0;
    tap_diag("  path %s, %d lanes, %d span patterns, span coverage %.3f, "
             "%d groups a work-item (device facts: %d lanes, %d groups)",
             pn ? pn : "?", in->vector_lanes, in->span_patterns,
             in->span_coverage, in->span_groups, lanes, groups);
    if (want == EX_SPAN_FITS)
        want = row >= lanes && read >= lanes ? EX_SPAN : EX_NOT_SPAN;
    if (want == EX_SPAN && lanes < c->span_lanes_min)
        want = EX_NOT_SPAN;
    switch (want) {
    case EX_SPAN:
        ok = in->vector_path == CLRS_VECTOR_SPAN &&
             in->vector_lanes == lanes &&
             in->span_patterns >= 1 && in->span_patterns <= 16 &&
             (in->span_patterns <= 4 || in->span_coverage >= 15.0 / 16) &&
             in->span_coverage >= 0.5 && in->span_coverage <= 1 &&
             /* a partial last group takes no pattern */
             (row % lanes == 0 || in->span_coverage < 1) &&
             (!groups || in->span_groups == groups);
        break;
    case EX_NOT_SPAN:
        ok = in->vector_path != CLRS_VECTOR_SPAN && in->span_patterns == 0;
        break;
    case EX_NONE:
        ok = in->vector_path == CLRS_VECTOR_NONE && in->vector_lanes == 1;
        break;
    case EX_AXIS:
        ok = in->vector_path == CLRS_VECTOR_AXIS;
        break;
    default:
        ok = 1;
        break;
    }
    /* Max backward without an index: the argmax pass first, with its
     * scratch, except on the generic path. */
    if (c->bwd && c->mode == CLRS_MODE_MAX && !c->index && !c->generic)
        ok = ok && in->kernels == 2 && in->scratch_bytes > 0;
    else
        ok = ok && in->kernels == 1 && in->scratch_bytes == 0;
    return tap_ok(ok, "%s: vector path %s, %d kernel(s) (want %s)", head,
                  pn ? pn : "?", in->kernels, expect_name(want));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Backward: diff_dst (m->y) k/16 in [1, 3], diff_src (m->x) from the
 * device against clrs_reference_backward, run twice (td_backward: the
 * same bits both times); accumulate adds to a k/16 diff_src. Max
 * pooling: the index (m->iref) from the reference forward of a random
 * src with ties (integers in [-4, 4]), or without an index the argmax
 * recomputed from that src (m->ix keeps it). */
static void run_backward(const scase *c, casemem *m, tu_rng *r,
                         const char *head)
{
    clrs_host_args ha;
    clrs_status st;
    td_result res;
    tu_buf init;
    int64_t bad = 0;
    double *bound = NULL, worst = 0;
    int ok, recompute_src = c->mode == CLRS_MODE_MAX && !c->index;

    memset(&init, 0, sizeof init);
    if (c->mode == CLRS_MODE_MAX) {
        int recompute = !c->index;
        clrs_host_args fa;
        if (recompute && tu_buf_alloc(&m->ix, m->sd)) {
            tap_ok(0, "%s: setup: out of memory", head);
            return;
        }
        tu_fill_ints(recompute ? &m->ix : &m->x, r, -4, 4);
        memset(&fa, 0, sizeof fa);
        fa.src = recompute ? m->ix.data : m->x.data;
        fa.dst = m->yref.data;
        fa.index = c->index ? m->iref.data : NULL;
        st = c->index ? clrs_reference_forward(m->op, m->sd, m->dd, m->id,
                                               &fa)
                      : CLRS_SUCCESS;
        if (st != CLRS_SUCCESS) {
            tap_ok(0, "%s: reference forward: %s", head,
                   clrs_last_error());
            return;
        }
        if (c->index)
            tu_buf_snapshot(&m->iref);
    }
    tu_fill_sixteenths(&m->y, r, 16, 48);
    if (c->bwd == BWD_ACC) {
        /* diff_src starts at init and the gather adds to it, on the
         * device and in the reference alike. */
        st = clrs_resample_desc_set_accumulate(m->op, 1);
        if (st != CLRS_SUCCESS || tu_buf_alloc(&init, m->sd)) {
            tap_ok(0, "%s: setup: accumulate: %s", head, clrs_last_error());
            return;
        }
        tu_fill_sixteenths(&init, r, 8, 32);
    }
    /* The reference's diff_src. */
    {
        tu_buf ref;
        memset(&ref, 0, sizeof ref);
        if (tu_buf_alloc(&ref, m->sd)) {
            tap_ok(0, "%s: setup: out of memory", head);
            tu_buf_free(&init);
            return;
        }
        if (c->bwd == BWD_ACC)
            tu_copy(&ref, &init);
        memset(&ha, 0, sizeof ha);
        ha.diff_dst = m->y.data;
        ha.diff_src = ref.data;
        ha.index = c->index ? m->iref.data : NULL;
        ha.src = recompute_src ? m->ix.data : NULL;
        bound = td_bound_alloc(&ref);
        st = bound ? clrs_reference_backward_bound(
                         m->op, m->sd, m->dd, c->index ? m->id : NULL,
                         recompute_src ? m->sd : NULL, &ha, bound)
                   : CLRS_ERR_OUT_OF_MEMORY;
        if (st != CLRS_SUCCESS) {
            tap_ok(0, "%s: reference: %s: %s", head, clrs_status_name(st),
                   clrs_last_error());
            tu_buf_free(&ref);
            tu_buf_free(&init);
            free(bound);
            return;
        }
        if (c->generic)
            td_generic(&env, 1);
        ok = td_backward(&env, m->op, &m->y, &m->x,
                         c->index ? &m->iref : NULL,
                         recompute_src ? &m->ix : NULL,
                         c->bwd == BWD_ACC ? &init : NULL, &ref, &res);
        if (c->generic)
            td_generic(&env, 0);
        if (res.plan_status == CLRS_SUCCESS &&
            res.exec_status == CLRS_SUCCESS && !res.cl_error)
            bad = td_compare(&m->x, &ref, bound, "diff_src", &worst);
        tu_buf_free(&ref);
    }
    tap_ok(ok && bad == 0,
           "%s: agrees with the reference (largest difference %.2g bound), "
           "run twice: identical bits",
           head, worst);
    tu_buf_free(&init);
    free(bound);
}

static void run_case_body(int id, const scase *c)
{
    casemem m;
    tu_rng r;
    td_result res;
    clrs_host_args ha;
    clrs_plan_info info;
    clrs_status st;
    clrs_dtype idt = CLRS_S8;
    const tu_buf *ops[CLRS_MAX_POST_OPS];
    int64_t out[CLRS_MAX_RANK], bad = 0;
    int i, ok, acc_f64;
    double t0 = now_s(), *bound = NULL, worst = 0;
    char head[200];

    memset(&m, 0, sizeof m);
    snprintf(head, sizeof head, "case %d: %s", id, c->name);
    if (needs_fp64(c) && !env.info.has_fp64) {
        tap_skip("no fp64 on this device");
        tap_skip("no fp64 on this device");
        return;
    }
    tu_rng_seed(&r, tu_mix_seed(UINT64_C(0x5BA4), (uint64_t)id));
    for (i = 0; i < c->rank; ++i)
        out[i] = c->out[i];
    st = build_op(&m, c);
    if (!st)
        st = make_tensor(&m.sd, c, c->sdt, c->in);
    if (!st && is_pool(c->mode))
        st = clrs_resample_desc_output_dims(m.op, m.sd, 0, out);
    if (!st)
        st = make_tensor(&m.dd, c, c->ddt, out);
    if (!st && c->index) {
        st = clrs_resample_desc_index_dtype(m.op, m.sd, &idt);
        if (!st)
            st = make_tensor(&m.id, c, idt, out);
    }
    if (!st)
        st = build_post(&m, c, out, &r);
    if (st || tu_buf_alloc(&m.x, m.sd) || tu_buf_alloc(&m.y, m.dd) ||
        tu_buf_alloc(&m.yref, m.dd) ||
        (c->index &&
         (tu_buf_alloc(&m.ix, m.id) || tu_buf_alloc(&m.iref, m.id)))) {
        tap_ok(0, "%s: setup: %s (%s)", head, clrs_status_name(st),
               clrs_last_error());
        tap_ok(0, "%s: vector path", head);
        casemem_free(&m);
        return;
    }
    if (c->bwd) {
        run_backward(c, &m, &r, head);
        goto path;
    }
    fill_input(&m.x, &r, c);
    if (c->nan)
        sprinkle_nan(&m.x);
    memset(&ha, 0, sizeof ha);
    ha.src = m.x.data;
    ha.dst = m.yref.data;
    ha.index = c->index ? m.iref.data : NULL;
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i) {
        ha.post_op[i] = m.od[i] ? m.opb[i].data : NULL;
        ops[i] = m.od[i] ? &m.opb[i] : NULL;
    }
    bound = td_bound_alloc(&m.yref);
    st = bound ? clrs_reference_forward_bound(m.op, m.sd, m.dd,
                                              c->index ? m.id : NULL, &ha,
                                              bound)
               : CLRS_ERR_OUT_OF_MEMORY;
    if (st != CLRS_SUCCESS) {
        tap_ok(0, "%s: reference: %s: %s", head, clrs_status_name(st),
               clrs_last_error());
        tap_ok(0, "%s: vector path", head);
        free(bound);
        casemem_free(&m);
        return;
    }
    if (c->generic)
        td_generic(&env, 1);
    ok = td_forward_post(&env, m.op, &m.x, &m.y, c->index ? &m.ix : NULL,
                         &m.yref, c->index ? &m.iref : NULL,
                         c->post ? ops : NULL, NULL, &res);
    if (c->generic)
        td_generic(&env, 0);
    if (res.plan_status == CLRS_SUCCESS && res.exec_status == CLRS_SUCCESS &&
        !res.cl_error) {
        bad += td_compare(&m.y, &m.yref, bound, "dst", &worst);
        if (c->index)
            bad += td_compare(&m.ix, &m.iref, NULL, "index", NULL);
    }
    tap_ok(ok && bad == 0,
           "%s: agrees with the reference (largest difference %.2g bound)",
           head, worst);
    free(bound);
    bound = NULL;
path:
    /* The kernel accumulates in double for f64 tensors and for s32 ones
     * where the device has fp64 (lower.c). */
    acc_f64 = c->sdt == CLRS_F64 || c->ddt == CLRS_F64 ||
              (c->sdt == CLRS_S32 && env.info.has_fp64);
    if (plan_info(c, &m, &info) == 0)
        check_path(c, &info, acc_f64, c->index && idt == CLRS_S64, out, head);
    else
        tap_ok(0, "%s: vector path", head);
    if (now_s() - t0 > 1)
        tap_diag("  case %d took %.2f s", id, now_s() - t0);
    casemem_free(&m);
}

/* A case with its own launch plans with it after whatever CLRS_LAUNCH
 * says, on a context made under that setting (the library reads its
 * environment once per context). */
static void run_case(int id, const scase *c)
{
    const char *cur = getenv("CLRS_LAUNCH");
    clrs_context *keep = env.main, *with;
    char buf[512];

    if (!c->launch) {
        run_case_body(id, c);
        return;
    }
    snprintf(buf, sizeof buf, "%s%s%s", cur ? cur : "",
             cur && *cur ? "," : "", c->launch);
    with = td_context_with(&env, "CLRS_LAUNCH", buf);
    env.main = env.ctx = with;
    run_case_body(id, c);
    env.main = env.ctx = keep;
    clrs_context_destroy(with);
}

int main(int argc, char **argv)
{
    uint64_t seed;
    int subset = 0, i, n;
    const char *e = getenv("CLRS_TEST_OCLGRIND_SUBSET");
    const scase *list;

    tap_single_pass(); /* the one-pass span path is what is tested */
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--oclgrind-subset") == 0) {
            subset = 1;
        } else {
            fprintf(stderr, "usage: %s [--oclgrind-subset]\n", argv[0]);
            return 2;
        }
    }
    if (e && *e && strcmp(e, "0") != 0)
        subset = 1;
    list = subset ? subset_cases : cases;
    n = subset ? NSUBSET : NCASES;
    td_open(&env);
    if (tu_env_seed("CLRS_TEST_SEED", &seed)) {
        if (seed < (uint64_t)n)
            run_case((int)seed, &list[seed]);
        td_close(&env);
        return tap_done();
    }
    for (i = 0; i < n; ++i)
        run_case(i, &list[i]);
    td_close(&env);
    return tap_done();
}
