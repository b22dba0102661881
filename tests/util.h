/* Shared helpers for the clresample tests: a seeded PRNG, random tensor
 * layouts, poisoned host buffers with sentinel margins, exact fills, dots. */
#ifndef CLRS_TEST_UTIL_H
#define CLRS_TEST_UTIL_H

#include "clresample.h"

#include <stddef.h>
#include <stdint.h>

/* ---- PRNG: splitmix64, so a case is reproducible from one 64-bit seed -- */

typedef struct tu_rng {
    uint64_t state;
} tu_rng;

void tu_rng_seed(tu_rng *r, uint64_t seed);
uint64_t tu_rng_u64(tu_rng *r);
/* Uniform integer in [lo, hi] (inclusive); lo <= hi. */
int64_t tu_rng_int(tu_rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1). */
double tu_rng_unit(tu_rng *r);
/* 1 with probability p. */
int tu_rng_chance(tu_rng *r, double p);
/* A well-mixed seed for case i of a run whose base is base. */
uint64_t tu_mix_seed(uint64_t base, uint64_t i);

/* Reads an unsigned 64-bit seed from environment variable name. Returns 1
 * and sets *seed when it is set and parses, else 0. */
int tu_env_seed(const char *name, uint64_t *seed);

/* ---- tensor layouts ---------------------------------------------------- */

typedef enum tu_layout {
    TU_DENSE = 0,         /* row-major, NULL strides */
    TU_CHANNELS_LAST = 1, /* axis 1 innermost, then rank-1 .. 2, then 0 */
    TU_PERMUTED = 2,      /* a random axis order, dense */
    TU_PADDED = 3,        /* a random axis order with gaps between axes */
    TU_BROADCAST = 4,     /* like PADDED, size-1 axes may get stride 0 */
    TU_BLOCKED = 5,       /* axis 1 blocked by 8 or 16 (rank >= 2) */
    TU_LAYOUT_COUNT_ = 6
} tu_layout;

#define TU_LAYOUTS_ALL ((1u << TU_LAYOUT_COUNT_) - 1u)
/* Layouts a destination may have: no broadcast (self-overlap), no blocked
 * (its padding lanes are not logical elements, see tu_buf_check_output). */
#define TU_LAYOUTS_DST                                                       \
    ((1u << TU_DENSE) | (1u << TU_CHANNELS_LAST) | (1u << TU_PERMUTED) |     \
     (1u << TU_PADDED))

const char *tu_layout_name(tu_layout l);
/* Picks one of the layouts in mask (bit per tu_layout) that fits rank. */
tu_layout tu_pick_layout(tu_rng *r, unsigned mask, int rank);
/* Creates a descriptor of that layout; returns the library's status. */
clrs_status tu_make_desc(clrs_tensor_desc **out, tu_rng *r, clrs_dtype dt,
                         int rank, const int64_t *dims, tu_layout layout);
/* "f32[2,3,4]{s 12,4,1}" into buf (always NUL terminated). */
void tu_desc_str(const clrs_tensor_desc *d, char *buf, size_t size);

/* Logical index iteration in row-major order: tu_idx_first zeroes idx and
 * returns 0 for an empty tensor; tu_idx_next steps and returns 0 at end. */
int tu_idx_first(int rank, const int64_t *dims, int64_t *idx);
int tu_idx_next(int rank, const int64_t *dims, int64_t *idx);

/* ---- element access with the test's own conversions --------------------
 * Independent of lib/convert.c on purpose: a test that used the library's
 * conversions would agree with it even where both were wrong. */
double tu_load(const void *base, clrs_dtype dt, int64_t i);
/* Stores by the conversion rules (RNE, integer saturation, NaN -> 0). */
void tu_store(void *base, clrs_dtype dt, int64_t i, double v);
/* v rounded to what dt can hold, by the same rules. */
double tu_round_to(clrs_dtype dt, double v);
uint16_t tu_f16_bits(double v);
double tu_f16_value(uint16_t h);
uint16_t tu_bf16_bits(double v);
double tu_bf16_value(uint16_t h);
int tu_dtype_is_float(clrs_dtype dt);

/* ---- host buffers -------------------------------------------------------
 * [margin | tensor span | margin]. The tensor span is poisoned (NaN for
 * floating types, 0x5A bytes otherwise) and the margins hold a byte
 * pattern; `shadow` remembers the whole allocation so a check can find
 * any byte written where it should not be. */
#define TU_MARGIN 64

typedef struct tu_buf {
    const clrs_tensor_desc *desc; /* not owned */
    clrs_dtype dtype;
    int rank;
    int64_t dims[CLRS_MAX_RANK];
    size_t bytes;           /* clrs_tensor_desc_bytes */
    unsigned char *raw;     /* bytes + 2 * TU_MARGIN */
    unsigned char *data;    /* raw + TU_MARGIN: hand this to the library */
    unsigned char *shadow;  /* snapshot of raw */
    unsigned char *logical; /* 1 for bytes of logical elements */
    /* Outputs of a blocked layout: the library writes the padded lanes
     * as zeros, so the bytes of no logical element must read 0 after a
     * run instead of keeping what was there (tu_buf_set_zero_padding). */
    int zero_gaps;
} tu_buf;

/* Allocates, poisons and snapshots. Returns 0 on success. */
int tu_buf_alloc(tu_buf *b, const clrs_tensor_desc *d);
void tu_buf_free(tu_buf *b);
/* Re-poisons the tensor span, rewrites the margins and snapshots. */
void tu_buf_poison(tu_buf *b);
/* Marks b as a blocked output whose padding lanes must come back 0. */
void tu_buf_set_zero_padding(tu_buf *b);
/* Snapshot the current contents (after filling an input). */
void tu_buf_snapshot(tu_buf *b);
/* Input check: every byte (margins and tensor) equals the snapshot.
 * Returns the number of differing bytes, printing the first as "# ...". */
size_t tu_buf_check_unchanged(const tu_buf *b, const char *what);
/* Output check: margins and the bytes that belong to no logical element
 * are as snapshotted, and no logical element still holds poison (so an
 * integer output must never be expected to equal 0x5A bytes). Returns
 * the number of problems, printing the first of each kind. */
size_t tu_buf_check_output(const tu_buf *b, const char *what);
/* 1 if the logical element at idx still holds the exact poison bytes. */
int tu_buf_is_poison(const tu_buf *b, const int64_t *idx);

int64_t tu_buf_offset(const tu_buf *b, const int64_t *idx);
double tu_get(const tu_buf *b, const int64_t *idx);
void tu_set(tu_buf *b, const int64_t *idx, double v);

/* Descriptor of a random layout from mask plus its poisoned buffer;
 * prints "# what: ..." and returns -1 on failure. */
int tu_make_tensor(clrs_tensor_desc **d, tu_buf *b, tu_rng *r, clrs_dtype dt,
                   int rank, const int64_t *dims, unsigned mask,
                   const char *what);

/* Fills: integers in [lo, hi]; k/16 for k in [klo, khi]; a constant. The
 * random fills never leave every element zero. Shadow is updated. */
void tu_fill_ints(tu_buf *b, tu_rng *r, int lo, int hi);
void tu_fill_sixteenths(tu_buf *b, tu_rng *r, int klo, int khi);
void tu_fill_uniform(tu_buf *b, tu_rng *r, double lo, double hi);
void tu_fill_const(tu_buf *b, double v);
/* Copies logical elements of src into dst (same dims), converting. */
void tu_copy(tu_buf *dst, const tu_buf *src);

/* Sum over logical elements of a[i] * b[i]; *abs_sum (may be NULL) gets
 * sum |a[i] * b[i]|, the scale for a relative tolerance. Same dims. */
double tu_dot(const tu_buf *a, const tu_buf *b, double *abs_sum);
/* Largest |a[i] - b[i]| over logical elements (NaN if either is NaN and
 * the other is not). */
double tu_max_abs_diff(const tu_buf *a, const tu_buf *b);
/* Number of logical elements that are not zero. */
int64_t tu_count_nonzero(const tu_buf *b);

/* ---- random resample operations ----------------------------------------
 * One place that knows how to draw a valid random op of every mode and
 * coordinate option, for the property tests and the device-vs-reference
 * tests alike. */

typedef struct tu_variant {
    const char *name;
    clrs_mode mode;
    int rounding; /* nearest only (clrs_rounding) */
    int exclude_outside;
    int antialias;
    int filter;    /* CLRS_MODE_FILTER only (clrs_filter) */
    double fp, fq; /* its parameters */
    int onnx;      /* CLRS_AA_ONNX: out-of-range taps read the border */
} tu_variant;

/* The TU_NLINEAR modes that are linear in the input come first, then max
 * pooling: TU_NVARIANTS rows in all. */
#define TU_NLINEAR 11
#define TU_NVARIANTS 12
extern const tu_variant tu_variants[TU_NVARIANTS];
/* CLRS_MODE_FILTER: every filter, plain and antialiased, taps restricted
 * to the input or reading the border. */
#define TU_NFILTERS 10
extern const tu_variant tu_filter_variants[TU_NFILTERS];

/* Every interpolation coordinate option (not DEFAULT). */
#define TU_NCOORDS 9
extern const clrs_coord tu_coords[TU_NCOORDS];
const char *tu_coord_name(clrs_coord c);
const char *tu_pad_name(clrs_padding p);
int tu_mode_is_pooling(clrs_mode m);

/* tu_op_random flags. */
#define TU_OP_COVER 1u /* every pooling window overlaps the input */

typedef struct tu_op {
    const tu_variant *v;
    int rank;
    int64_t in[CLRS_MAX_RANK], out[CLRS_MAX_RANK];
    int set_axes, naxes, axes[CLRS_MAX_RANK];
    clrs_coord coord; /* resolved option; WINDOW for pooling */
    int coord_explicit;
    clrs_padding pad;
    double pad_value; /* CONSTANT only */
    int set_cubic_a;
    double cubic_a;
    int has_scales;
    double scales[CLRS_MAX_RANK];
    int has_offsets;
    float in_off[CLRS_MAX_RANK], out_off[CLRS_MAX_RANK];
    int has_roi;
    double roi_s[CLRS_MAX_RANK], roi_e[CLRS_MAX_RANK];
    double extrapolation; /* tf_crop_and_resize; set with the roi */
    int has_stride, has_window, int_api;
    clrs_fraction window[CLRS_MAX_RANK], stride[CLRS_MAX_RANK];
    clrs_fraction pre[CLRS_MAX_RANK], post[CLRS_MAX_RANK];
} tu_op;

/* Draws an op of variant v. coord: an interpolation option for
 * interpolation variants (ignored for pooling). Random rank 1..5, random
 * resampled axes (or the default set), 1-pixel ends, non-integer ratios,
 * user scales, pixel offsets, roi, stride/pre-padding, fractional windows;
 * padding DEFAULT/EDGE/ZERO/CONSTANT(0) (callers may override pad,
 * pad_value and extrapolation, which is 0). The larger of in and out
 * holds at most max_elems elements. */
void tu_op_random(tu_op *c, tu_rng *r, const tu_variant *v, clrs_coord coord,
                  unsigned flags, int64_t max_elems);
/* One line, for "# seed S config ...". */
void tu_op_describe(const tu_op *c, char *buf, size_t size);
/* The library descriptor; NULL (with a "# " line naming the failing
 * setter) if a setter fails. */
clrs_resample_desc *tu_op_build(const tu_op *c);

#endif /* CLRS_TEST_UTIL_H */
