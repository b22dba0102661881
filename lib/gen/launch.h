/* The launch space: the parameters a kernel launch may take (lanes per
 * work-item, vectors per work-item, the span path, non-temporal stores,
 * the local size), their
 * defaults from the device's queries, and CLRS_LAUNCH, which forces
 * them. The lowering reads a request from here and decides once. */
#ifndef CLRS_LAUNCH_H
#define CLRS_LAUNCH_H

#include "gen/device.h"

/* The launch shape: which vector path, how many lanes per work-item,
 * non-temporal stores, and the NDRange. */
typedef struct clrs_launch {
    clrs_vector_path path;
    int vec;  /* lanes per work-item along kernel axis 0; 1: scalar */
    int mvec; /* vectors of vec lanes per work-item (axis path, sums) */
    int walk; /* span groups per work-item (a walked row; else 1) */
    int rows; /* outputs of kernel axis 1 per work-item (else 1) */
    int nt;   /* non-temporal stores of the written tensor */
    cl_uint work_dim;
    size_t global[3];
    size_t local[3];           /* all 0: the driver chooses */
    clrs_launch_source source; /* default or forced */
} clrs_launch;

/* What the lowering may choose from for one plan. */
typedef struct clrs_launch_request {
    int generic;      /* CLRS_GENERIC: the generic kernel (no vector path,
                         no fixed tap counts, no non-temporal stores) */
    int vmax;         /* most lanes per work-item of the axis and span paths
                         (1: none); the block path's lanes are its block */
    int vec_off;      /* no vector path at all (CLRS_LAUNCH vec=1) */
    int mvec;         /* vectors per work-item of a backward gather on the
                         axis path (1, 2, 4; 0: the device default) */
    int mvec_fwd;     /* ... of a forward weighted sum on the axis path:
                         as mv= names it (forced or tuned); 0: the path's
                         default (variant_axis.c) */
    int mvec_fix;     /* that default for a 16-bit fixed-point sum */
    int roll_taps;    /* an intermediate element's cost in taps where a
                         separable plan runs as one kernel (plan.c) */
    int sep_taps;     /* a separable plan's default wants an axis of more
                         taps than this (0: any; plan.c) */
    int sep_bwd;      /* a backward sum's default is its passes, but where
                         its one kernel streams (plan.c) */
    int load_bytes;   /* bytes a work-item loads at once where the device
                         class says (0: none, or vec= forced vmax): a copy
                         takes that many bytes of its storage type
                         (lower.c), not vmax lanes of its accumulator */
    int span;         /* 0: the span path is off */
    int span_vectors; /* most vectors a span group reads (4, 8 or 16;
                         taps a lane: twice that) */
    int walk;         /* a weighted sum on the span path over two or more
                         slots walks each row of groups in one work-item
                         (lower.c): 1 yes, 0 no, -1 where the rows it
                         reads are new ones, -2 where they are and,
                         forward, neighbouring rows' taps do not overlap
                         (variant_walk.c) */
    int rows;         /* outputs of kernel axis 1 a work-item runs in turn
                         (1, 2, 4 or 8; lower.c's rows_of); 0: the
                         default, rows_bwd for a backward kernel, else 1 */
    int rows_bwd;     /* that default of a backward kernel */
    int rows_overlap; /* ... of a walked row whose rows' taps overlap */
    int rows_span;    /* ... of a forward kernel on the span variant: an
                         interpolation over a long row, integer max pooling
                         (lower.c's rows_span_applies) */
    int span_group;   /* work-items of a work-group of a span kernel of one
                         row and one group a work-item where the driver
                         would choose (lower.c's launch_shape); 0: the
                         driver's */
    int axis_group;   /* ... of an axis kernel of one row a work-item */
    int nt;           /* -1: by the written size; 0 or 1: forced */
    int nt_loops;     /* under nt -1, f16's converted vectors store
                         non-temporally in a kernel whose work-items loop
                         a count they read or roll rows (lower.c) */
    int sep;          /* -1: separable passes where the plan's cost model
                         takes them; 0: one pass; 1: separable wherever the
                         mode factorises (plan.c) */
    int roll;         /* 0: a separable plan runs its passes; 1: as one
                         kernel wherever it can (the roll variant, or the
                         span variant folding a channels-first plan's
                         outer pass first); -1: the roll variant where it
                         can, the fold where the device class says */
    int fold;         /* the class's default for that fold (plan.c's
                         fusable): 1 taken, 0 only under roll=1 */
    int roll_variant; /* ... for the roll variant over 16 or more values
                         a pixel: 1 taken, 0 only under roll=1 */
    int calc;         /* taps the kernel computes instead of tables: -1
                         on axes of CLRS_CALC_SPAN_MIN_TAPS or
                         CLRS_CALC_MIN_TAPS taps or more (plan.c,
                         calc_min_taps), 1
                         wherever it can, 0 nowhere (clrs__calc_slot_ok) */
    int fix;          /* u8 and s8 weighted sums in 16-bit fixed point
                         where that is exact (lower.c, fix_config): -1
                         or 1 yes, 0 no (float, the same bytes); 8-bit
                         averages in integers (variant_span.c,
                         isc_applies): -1 where few windows need the
                         tie test, 1 wherever exact */
    int per;          /* periodic computed span taps (span.c,
                         span_periodic): -1 or 1 where the coordinate
                         allows, 0 never (the same bytes) */
    int v3;           /* three lanes (vload3 / vstore3) on the axis path
                         where no power of two from 4 divides its length
                         (variant_axis.c): -1 or 1 yes, 0 no */
    /* Vector loads of src and stores of dst that the lowering proves
     * aligned to the vector's own size (lower.c's want_va) through a
     * vector pointer, one access, instead of vloadN / vstoreN at element
     * alignment: 1 yes, 0 no (the device class's default). */
    int va;
    size_t local[3];  /* forced local size; all 0: the device default */
    int local_driver; /* local=driver: the driver chooses, on any device */
    clrs_launch_source source;
} clrs_launch_request;

/* Launch parameters in CLRS_LAUNCH's syntax ("vec=4,local=16x16x1") and
 * where they came from; text NULL: the device's defaults. */
typedef struct clrs_launch_text {
    const char *text;
    clrs_launch_source source;
} clrs_launch_text;

/* The most lanes a vector may have: CLRS_LANES_MAX (the generator's
 * widest), or where the device dev states a native vector width for one
 * of the element kinds in `kinds` (bits 1 << CLRS_LANE_*), the smallest
 * of those (a power of two). The lowering bounds every vector path by
 * the kinds its kernel holds in vectors. */
#define CLRS_LANES_MAX 16
int clrs__launch_lane_bound(const clrs_launch_facts *f, unsigned kinds);

/* The name of the device class (lib/launch.c's device_classes) whose
 * defaults a device with facts f gets ("gpu-nvidia", "gpu", "cpu"). */
const char *clrs__launch_class(const clrs_launch_facts *f);

/* The largest work-group dimension CLRS_LAUNCH's local= takes, and
 * the largest sub-group size taken for a SIMD width. */
#define CLRS_LOCAL_SIZE_MAX 65536

/* clrs_launch_facts.simd of a device whose kernels may be compiled for
 * these n sub-group sizes (Intel's CL_DEVICE_SUB_GROUP_SIZES_INTEL): the
 * largest, at most 65536; 0 for none. */
cl_uint clrs__launch_simd_of_sizes(const size_t *sizes, size_t n);

/* The defaults of a device with facts f (acc_f64: kernels that
 * accumulate in double), the request before CLRS_LAUNCH's text and
 * CLRS_GENERIC (clrs__launch_request lays both over it). */
void clrs__launch_defaults(const clrs_launch_facts *f, int acc_f64,
                           clrs_launch_request *r);

/* The default local size of a work_dim-dimensional launch on the vector
 * path `path` of a device with facts f, before it is fitted to a global
 * size: the class's work-group shaped over the device's SIMD width,
 * within its work-group size; all 0 where the driver chooses. */
void clrs__launch_default_local(const clrs_launch_facts *f, cl_uint work_dim,
                                clrs_vector_path path, size_t local[3]);

/* The request for the device dev (acc_f64: kernels that accumulate in
 * double): its defaults, then what the text sets; a malformed text is
 * CLRS_ERR_INVALID_VALUE naming CLRS_LAUNCH. */
clrs_status clrs__launch_request(const clrs_device *dev, int acc_f64,
                                 const clrs_launch_text *t,
                                 clrs_launch_request *r);

/* Whether text is a valid launch for the device dev (the database's lines
 * are checked before use). */
int clrs__launch_valid(const clrs_device *dev, const char *text);

/* The local size of a launch whose work_dim, global size and vector
 * path are set: the forced one or the device's default, fitted to the
 * global size (each dimension the largest size up to the wanted one that
 * divides it) and to the device's limits; all 0 where the driver
 * chooses. */
void clrs__launch_local(const clrs_device *dev, const clrs_launch_request *r,
                        clrs_launch *L);

/* A work-group of at most `items` work-items filled along dimensions 0,
 * 1 and 2 in turn, each the largest divisor of its global size that
 * fits, within the device's limits. */
void clrs__launch_fill_local(const clrs_device *dev, size_t items,
                             clrs_launch *L);

/* Shrinks the local size's largest dimension, to the largest divisor of
 * its global size up to half of it, until the work-group holds at most
 * max_group work-items (a kernel's own limit may be below the device's). */
void clrs__launch_fit_group(clrs_launch *L, size_t max_group);

#endif /* CLRS_LAUNCH_H */
