/* The launch space and its defaults. Every parameter here changes only
 * how fast a kernel runs, never what it computes: the tests run the
 * conformance subsets under each forced value (CLRS_LAUNCH). */
#include "gen/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest power of two <= v, within [1, cap]. */
static int pow2_floor(cl_uint v, int cap)
{
    int w = 1;
    while (w * 2 <= (int)v && w * 2 <= cap)
        w *= 2;
    return w;
}

/* What the defaults know of a kind of device: one row per class, the
 * first whose type and vendor are the device's applies (the last takes
 * any device). Where the defaults come from, and the measurements behind
 * them, is in lib/README.md. */
typedef struct device_class {
    const char *name;
    /* The device type it is for, alone among CPU, GPU and accelerator (a
     * simulator that reports every type, Oclgrind, is none of them); 0:
     * any device. */
    cl_device_type type;
    cl_uint vendor; /* its CL_DEVICE_VENDOR_ID; 0: any vendor */
    /* Bytes a work-item reads at once along a contiguous axis (0: as many
     * lanes as the device's preferred vector width, 16 for none). */
    int vector_bytes;
    int mvec;         /* vectors per work-item of a backward gather */
    int mvec_fix;     /* ... of a 16-bit fixed-point forward sum */
    /* What an element of a separable plan's intermediate costs, in taps
     * read, where the passes run as one kernel (the roll variant, which
     * keeps it in registers; plan.c's want_separable). */
    int roll_taps;
    /* The taps an axis of a separable plan must read for its passes to
     * pay by default (plan.c's want_separable): more than this many on
     * some axis, else the plan stays whole (0: any). */
    int sep_taps;
    /* A channels-first separable plan of two axes runs its passes as one
     * span kernel, the outer pass folded first (plan.c's fusable), by
     * default: 1 yes, 0 only under CLRS_LAUNCH roll=1. */
    int fold;
    int span_vectors; /* most input vectors a span group reads */
    int walk;         /* rows of span groups walked where they help: -1
                         where the rows read are new, -2 also only where
                         a forward kernel's rows' taps do not overlap */
    int rows_bwd;     /* outputs of kernel axis 1 per work-item of a
                         backward kernel (a forward one: 1) */
    int rows_overlap; /* ... of a walked row (the walk variant) whose
                         rows' taps overlap (lower.c's rows_of) */
    int rows_span;    /* ... of a forward kernel on the span variant (not
                         walked): an interpolation over a long row, integer
                         max pooling (lower.c's rows_span_applies) */
    /* Work-items of the work-group of a span kernel of one row and one
     * group a work-item, filled along the NDRange's dimensions in turn
     * (clrs__launch_fill_local), where the driver would choose; 0: the
     * driver's. */
    int span_group;
    /* Vector loads and stores proven aligned through a vector pointer
     * (clrs_launch_request.va): 1 yes, 0 the element-aligned vloadN /
     * vstoreN. */
    int aligned;
    /* Work-items of a default work-group, shaped over the device's SIMD
     * width by clrs__launch_default_local (0: the driver's local sizes). */
    size_t group;
    /* The SIMD width taken for a device that states none (facts.simd
     * below 2). */
    cl_uint simd;
    /* f16 vectors, converted, store non-temporally (where the written
     * size asks for it) in a kernel whose work-items loop a count they
     * read (taps by range) or roll rows: 1 yes, 0 ordinarily (lower.c's
     * want_nt). */
    int nt_loops;
    /* A forward separable plan runs its passes as one kernel (the roll
     * variant, plan.c's fusable) over 16 or more values a pixel by
     * default: 1 yes, 0 only under CLRS_LAUNCH roll=1. */
    int roll_variant;
    /* Work-items of the work-group of an axis kernel of one row a
     * work-item, filled along the NDRange's dimensions in turn from the
     * contiguous axis's (clrs__launch_fill_local), where the driver would
     * choose; 0: the driver's. */
    int axis_group;
    /* A backward weighted sum over two or more axes runs its passes by
     * default (plan.c's want_separable), but where its one kernel streams
     * (bwd_whole_streams): 1 yes, 0 by the cost model alone. */
    int sep_bwd;
} device_class;

static const device_class device_classes[] = {
    /* NVIDIA's GPUs: 16-byte loads (the widest one instruction issues),
     * neighbouring work-items on neighbouring addresses (one vector each,
     * no walked rows) and whole warps along the contiguous axis in groups
     * of 256 (on a warp of 32: 16x16, 32x8 and 256x1), span groups of up
     * to 4 vectors: all measured on an H100. One vector a work-item for
     * fixed-point sums too (four took 1.8-2.6x the time of one on u8
     * channels-last bilinear 2x up and down on an H200). A rolled
     * intermediate element costs a tap: channels-last bilinear 2x up of
     * 64 channels ran in 0.56-0.81x the single pass's time as the roll
     * kernel on an H200 (f32, f16, bf16, u8), and the model then takes it
     * (3 taps an output against 4), while 2x downsamples and 3x3 pooling
     * stay whole, as they won. Two rows of kernel axis 1 per work-item of
     * a backward kernel: 3x3 max and average pooling's backward in
     * 0.77-0.86x the time of one row on an H200, bilinear's channels-last
     * f16 0.87x, within 4% either way elsewhere; forward, rows won and
     * lost by problem (u8 channels-last nearest 1.45x), left to the
     * tuner. Vector accesses the lowering proves aligned through vector
     * pointers (va): on an H200 the side-by-side's 74 problems in 0.96x
     * the time at the geometric mean, none slower by more than 4%. */
    {"gpu-nvidia", CL_DEVICE_TYPE_GPU, 0x10de, 16, 1, 1, 1, 0, 0, 4, 0, 2, 0, 0,
     0, 1, 256, 32, 1, 1, 0, 0},
    /* Any other GPU: NVIDIA's choices, not measured there; its own SIMD
     * width shapes the groups, a warp of 32 where it states none. */
    {"gpu", CL_DEVICE_TYPE_GPU, 0, 16, 1, 1, 1, 0, 0, 4, 0, 2, 0, 0, 0, 1, 256,
     32, 1, 1, 0, 0},
    /* Any other device, a CPU first: its preferred width, several
     * vectors and wide span groups per work-item (four for fixed-point
     * sums, whose taps' loads weigh), rows walked front to back for its
     * prefetcher, the driver's local sizes. Span groups of up to 16
     * vectors (32 taps a lane): on PoCL (AMD EPYC) channels-first
     * antialiased 8x downsampling of rows, 14x plain downsampling,
     * 12x12 average pooling and 12x-up backward, which took the scalar
     * or the axis kernel under 8, ran in 0.1-0.8x the time, the bytes
     * unchanged (lib/README.md, "Span vector path"). A rolled intermediate
     * costs as one in memory (5 taps, plan.c's CLRS_SEP_ELEMENT_TAPS): on PoCL
     * channels-last bilinear 2x up took 1.3-1.6x the single pass's time
     * as the roll kernel. Four rows of kernel axis 1 a walked work-item
     * where the rows' taps overlap: on PoCL (AMD EPYC) such problems of
     * the performance matrix in 0.57-0.99x the time, walked rows without
     * overlap no faster. Four rows a work-item of a forward interpolation
     * on the span variant whose row is long, and of integer max pooling
     * (lower.c's rows_span_applies), in work-groups of 64x4
     * (launch_shape; the driver's choice stacked a column of rows): on
     * PoCL (AMD EPYC) the performance matrix's 82 such bilinear problems
     * in 0.74x the time at the geometric mean (0.51-1.06), integer max
     * pooling 0.74x (0.45-1.04). Any other span kernel of one row and
     * one group a work-item in work-groups of 512 work-items filled
     * along the NDRange (lower.c's launch_shape): PoCL chose 8x1x1 for
     * a three-channel plane of 2720 rows (its grain, the preferred
     * multiple 8, divides neither 2720 / 8 nor 3 far enough), and u8
     * nearest 2x up took 2.0-2.2x, bilinear 1.4-1.5x the time of
     * 512x1x1; over the performance matrix's 260 such problems 0.96x at
     * the geometric mean, the unchanged kernels 1.04x in the same runs
     * (interleaved, lib/README.md). Axis kernels of one row a
     * work-item the same way (axis_group): PoCL's choice keeps a
     * pixel's vectors in one work-group on sizes of powers of two, but
     * on others set that dimension to 1 (1x40x40 for 4 x 640 x 640
     * work-items), and channels-last 2x up of 64 channels took 1.6-16x
     * the time of 4x128x1 (f16 most, its non-temporal stores of part
     * lines; on a 2-core Intel Xeon VM, lib/README.md); the matrix's
     * 122 axis problems, powers of two, 1.01x at the geometric mean.
     * A plan of linear interpolation only
     * (two taps an axis) stays whole: on PoCL (AMD EPYC) the performance
     * matrix's trilinear 2x up problems ran in 0.55-0.89x the time of
     * their passes or roll kernel in f32, f64, s8, channels-last f16 of
     * 64 channels and channels-last bf16 (1.02-1.10x in the other f16
     * and the channels-first bf16), bilinear 4x up of 64 channels
     * 0.46-0.98x, while every bicubic plan gained from its passes
     * (lib/README.md). The fold of a
     * channels-first plan's passes into one span kernel only under
     * roll=1: on PoCL (AMD EPYC) it ran the performance matrix's
     * channels-first separable problems in 0.74-1.33x the passes' time,
     * 1.00x at the geometric mean (lib/README.md). A GPU's default waits
     * for a measurement there. A backward sum runs its passes unless its
     * one kernel streams (sep_bwd): on PoCL (an AMD EPYC VM with AVX2)
     * the performance matrix's bilinear and average pooling backward in
     * 0.40-0.89x the one kernel's time but f32 channels-last of 64
     * channels (lib/README.md). Every CPU row takes the same choice of
     * passes, which moves results within the bound, so that PoCL and
     * rusticl (llvmpipe: a CPU, vendor Mesa) write the same bytes. */
    /* Intel's CPUs: the other CPUs' row, but a forward kernel whose
     * neighbouring rows' taps overlap walks no rows (walk -2): on PoCL
     * (a 2-core Intel Xeon VM, AVX-512, 260 MiB of last-level cache)
     * 3x3 stride-2 average pooling of 64 channels-first channels ran in
     * 0.52-0.81x the walked time in every type, antialiased bilinear 2x
     * down of 32 channels 0.65x, 4x down 0.79-1.09x, antialiased bicubic
     * 0.89-0.99x, while walked rows without overlap (bilinear 2x down,
     * backward nearest and bilinear) won up to 1.5x as on AMD's. f16
     * vectors store ordinarily in a kernel whose work-items loop a
     * count they read or roll rows (nt_loops 0): on the same machine
     * 3x3 average pooling without padding of 64 channels-last channels
     * took 6x the time with non-temporal stores (27.6 against 4.6 ms,
     * its taps by range), bicubic 2x up of 64 channels-last channels as
     * the roll kernel 6.4x (75 against 12 ms), where u8, s8 and f32 in
     * the same kernels did not lose and max pooling's copied f16 gained
     * (lib/README.md). A forward separable plan runs its passes, not
     * the roll kernel, unless CLRS_LAUNCH says roll=1 (roll_variant 0):
     * on the same machine channels-last bicubic 2x up of 64 channels ran
     * its passes in 0.62-0.78x the roll kernel's time in f32, f16, bf16,
     * u8, s8 and f64, of 16 and 32 f32 channels 0.62-0.87x, 1.5x up
     * 0.70-0.90x (three interleaved runs, lib/README.md). */
    {"cpu-intel", CL_DEVICE_TYPE_CPU, 0x8086, 0, 4, 4, 5, 2, 0, 16, -2, 1, 4, 4,
     512, 0, 0, 0, 0, 0, 512, 1},
    {"cpu", 0, 0, 0, 4, 4, 5, 2, 0, 16, -1, 1, 4, 4, 512, 0, 0, 0, 1, 1, 512, 1},
};

/* The first row whose type and vendor are the device's (the last row
 * takes any): the one place that tests the device type. */
static const device_class *class_of(const clrs_launch_facts *f)
{
    const cl_device_type kinds =
        CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR;
    const device_class *c = device_classes;

    while (c->type != 0 && ((f->type & kinds) != c->type ||
                            (c->vendor != 0 && c->vendor != f->vendor_id)))
        ++c;
    return c;
}

const char *clrs__launch_class(const clrs_launch_facts *f)
{
    return class_of(f)->name;
}

cl_uint clrs__launch_simd_of_sizes(const size_t *sizes, size_t n)
{
    cl_uint w = 0;
    size_t i;

    for (i = 0; i < n; ++i)
        if (sizes[i] > w && sizes[i] <= CLRS_LOCAL_SIZE_MAX)
            w = (cl_uint)sizes[i];
    return w;
}

int clrs__launch_lane_bound(const clrs_launch_facts *f, unsigned kinds)
{
    int k, bound = CLRS_LANES_MAX;

    /* A native width of 1 (or 0, not stated) bounds nothing: such a
     * device has no vector registers to keep within. NVIDIA's GPUs state
     * 1 for every kind (SIMT: a vector is split into scalar instructions
     * and has no calling convention of its own), and their 8- and 16-lane
     * vectors compile, pass and were measured; a CPU that states 1
     * vectorises across work-items itself. Both keep the widths the
     * defaults and CLRS_LAUNCH give. Where a CPU states a width, a wider
     * vector is split by its compiler and, passed to or returned from a
     * function, changes the ABI (PoCL warns, and CLRS_WERROR fails). */
    for (k = 0; k < CLRS_LANE_KINDS; ++k)
        if ((kinds & (1u << k)) && f->native[k] >= 2)
            bound = pow2_floor(f->native[k], bound);
    return bound;
}

void clrs__launch_defaults(const clrs_launch_facts *f, int acc_f64,
                           clrs_launch_request *r)
{
    const int cap = acc_f64 ? 8 : 16; /* one 64-byte line per vector */
    const int esize = acc_f64 ? 8 : 4;
    const device_class *dc = class_of(f);
    cl_uint pref = acc_f64 ? f->pref_double : f->pref_float;

    memset(r, 0, sizeof *r);
    r->span = 1;
    r->nt = -1;
    r->sep = -1;
    r->roll = -1;
    r->calc = -1;
    r->fix = -1;
    r->v3 = -1;
    r->per = -1;
    r->source = CLRS_LAUNCH_DEFAULT;
    if (dc->vector_bytes)
        r->vmax = pow2_floor((cl_uint)(dc->vector_bytes / esize), cap);
    else /* a device that states no preference (1) vectorises scalar
            code itself; explicit vectors still measured faster on PoCL */
        r->vmax = pref >= 2 ? pow2_floor(pref, cap) : cap;
    r->mvec = dc->mvec;
    r->mvec_fix = dc->mvec_fix;
    r->roll_taps = dc->roll_taps;
    r->sep_taps = dc->sep_taps;
    r->sep_bwd = dc->sep_bwd;
    r->fold = dc->fold;
    r->load_bytes = dc->vector_bytes;
    /* Several vectors of a forward sum per work-item (mv=) are for the
     * tuner to find: on PoCL (AVX-512 host, channels-last C 64) they
     * took from about half to 1.3 times one vector's time by type and
     * mode. */
    r->mvec_fwd = 0; /* variant_axis.c: 1, 4 for fixed-point sums */
    r->span_vectors = dc->span_vectors;
    r->walk = dc->walk;
    r->rows = 0; /* lower.c's rows_of: rows_bwd backward, else 1 */
    r->rows_bwd = dc->rows_bwd;
    r->rows_overlap = dc->rows_overlap;
    r->rows_span = dc->rows_span;
    r->span_group = dc->span_group;
    r->va = dc->aligned;
    r->nt_loops = dc->nt_loops;
    r->roll_variant = dc->roll_variant;
    r->axis_group = dc->axis_group;
}

/* "local=A", "AxB" or "AxBxC": one to three sizes 1..65536, the
 * missing ones 1. */
static int parse_local(const char *v, size_t *local)
{
    int d;

    for (d = 0; d < 3; ++d)
        local[d] = 1;
    for (d = 0; d < 3; ++d) {
        char *end;
        unsigned long long x;
        if (*v < '1' || *v > '9')
            return 0;
        x = strtoull(v, &end, 10);
        if (x > CLRS_LOCAL_SIZE_MAX)
            return 0;
        local[d] = (size_t)x;
        if (*end == '\0')
            return 1;
        if (*end != 'x')
            return 0;
        v = end + 1;
    }
    return 0; /* a fourth size */
}

/* One "key=value" item of CLRS_LAUNCH into r. */
static clrs_status parse_item(const char *item, int acc_f64,
                              clrs_launch_request *r)
{
    const char *eq = strchr(item, '=');
    const char *v = eq ? eq + 1 : "";
    size_t klen = eq ? (size_t)(eq - item) : strlen(item), i;
    /* The items whose value is one digit of a few, stored as that
     * number. */
    const struct {
        const char *key, *digits, *choices;
        int *field;
    } digit[] = {{"mv", "124", "1, 2 or 4", &r->mvec},
                 {"walk", "01", "0 or 1", &r->walk},
                 {"rows", "1248", "1, 2, 4 or 8", &r->rows},
                 {"span", "01", "0 or 1", &r->span},
                 {"nt", "01", "0 or 1", &r->nt},
                 {"sep", "01", "0 or 1", &r->sep},
                 {"roll", "01", "0 or 1", &r->roll},
                 {"calc", "01", "0 or 1", &r->calc},
                 {"fix", "01", "0 or 1", &r->fix},
                 {"v3", "01", "0 or 1", &r->v3},
                 {"per", "01", "0 or 1", &r->per},
                 {"va", "01", "0 or 1", &r->va}};

    for (i = 0; i < sizeof digit / sizeof digit[0]; ++i)
        if (strlen(digit[i].key) == klen &&
            strncmp(item, digit[i].key, klen) == 0) {
            CLRS_CHECK(strlen(v) == 1 && strchr(digit[i].digits, v[0]),
                       CLRS_ERR_INVALID_VALUE, "CLRS_LAUNCH: %s=%s (%s)",
                       digit[i].key, v, digit[i].choices);
            *digit[i].field = v[0] - '0';
            if (digit[i].field == &r->mvec)
                r->mvec_fwd = r->mvec;
            return CLRS_SUCCESS;
        }

    if (klen == 5 && strncmp(item, "spanv", 5) == 0) {
        const int n = atoi(v);
        CLRS_CHECK((n == 4 || n == 8 || n == 16) &&
                       strspn(v, "0123456789") == strlen(v),
                   CLRS_ERR_INVALID_VALUE, "CLRS_LAUNCH: spanv=%s (4, 8 or 16)",
                   v);
        r->span_vectors = n;
    } else if (klen == 3 && strncmp(item, "vec", 3) == 0) {
        int n = atoi(v);
        CLRS_CHECK((n == 1 || n == 2 || n == 4 || n == 8 || n == 16) &&
                       strspn(v, "0123456789") == strlen(v),
                   CLRS_ERR_INVALID_VALUE,
                   "CLRS_LAUNCH: vec=%s (1, 2, 4, 8 or 16)", v);
        r->vmax = n > (acc_f64 ? 8 : 16) ? (acc_f64 ? 8 : 16) : n;
        r->vec_off = n == 1;
        r->load_bytes = 0;
    } else if (klen == 5 && strncmp(item, "local", 5) == 0 &&
               strcmp(v, "driver") == 0) {
        memset(r->local, 0, sizeof r->local);
        r->local_driver = 1;
    } else if (klen == 5 && strncmp(item, "local", 5) == 0) {
        r->local_driver = 0;
        CLRS_CHECK(parse_local(v, r->local), CLRS_ERR_INVALID_VALUE,
                   "CLRS_LAUNCH: local=%s (driver, A, AxB or AxBxC, each "
                   "1..65536)",
                   v);
    } else {
        return clrs__error(
            CLRS_ERR_INVALID_VALUE,
            "CLRS_LAUNCH: unknown item \"%s\" (vec=, mv=, "
            "span=, spanv=, walk=, rows=, nt=, sep=, roll=, calc=, per=, fix=, "
            "v3=, va=, local=)",
            item);
    }
    return CLRS_SUCCESS;
}

clrs_status clrs__launch_request(const clrs_device *dev, int acc_f64,
                                 const clrs_launch_text *t,
                                 clrs_launch_request *r)
{
    char buf[256], *item, *comma;

    clrs__launch_defaults(&dev->facts, acc_f64, r);
    r->generic = dev->generic;
    if (!t || !t->text || !*t->text)
        return CLRS_SUCCESS;
    CLRS_CHECK(strlen(t->text) < sizeof buf, CLRS_ERR_INVALID_VALUE,
               "CLRS_LAUNCH is longer than %zu characters", sizeof buf - 1);
    strcpy(buf, t->text);
    /* Split by hand rather than with strtok, which passes over empty
     * items: ",,,," or "vec=1,,local=driver" is a mistyped value, not a
     * shorter one. */
    for (item = buf; item; item = comma ? comma + 1 : NULL) {
        comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        CLRS_CHECK(*item != '\0', CLRS_ERR_INVALID_VALUE,
                   "CLRS_LAUNCH: an empty item in \"%s\" (a comma at "
                   "either end, or two in a row)",
                   t->text);
        CLRS_TRY(parse_item(item, acc_f64, r));
    }
    r->source = t->source;
    return CLRS_SUCCESS;
}

int clrs__launch_valid(const clrs_device *dev, const char *text)
{
    clrs_launch_text t;
    clrs_launch_request r;
    int ok;

    t.text = text;
    t.source = CLRS_LAUNCH_DATABASE;
    ok = clrs__launch_request(dev, 0, &t, &r) == CLRS_SUCCESS;
    clrs__clear_error();
    return ok;
}

/* The largest divisor of global up to l, at least 1: OpenCL 1.2's local
 * size divides the global size. */
static size_t divisor_up_to(size_t global, size_t l)
{
    while (l > 1 && global % l != 0)
        --l;
    return l ? l : 1;
}

void clrs__launch_fit_group(clrs_launch *L, size_t max_group)
{
    for (;;) {
        size_t n = L->local[0] * L->local[1] * L->local[2];
        int d, big = 0;
        if (n == 0 || n <= max_group)
            return;
        for (d = 1; d < 3; ++d)
            if (L->local[d] > L->local[big])
                big = d;
        /* At most half, and still a divisor of the global size: a device
         * without non-uniform work-groups (rusticl) refuses 9 halved to
         * 4 on a global size of 9 (CL_INVALID_WORK_GROUP_SIZE). */
        L->local[big] = divisor_up_to(L->global[big], L->local[big] / 2);
    }
}

void clrs__launch_default_local(const clrs_launch_facts *f, cl_uint work_dim,
                                clrs_vector_path path, size_t local[3])
{
    const device_class *dc = class_of(f);
    size_t w;

    local[0] = local[1] = local[2] = 0;
    if (!dc->group)
        return;
    w = f->simd >= 2 ? (size_t)pow2_floor(f->simd, (int)dc->group) : dc->simd;
    if (w > dc->group)
        w = dc->group;
    /* A 1-D NDRange: the whole group along it. Else one SIMD width of
     * scalar work-items along the contiguous axis, or half of one of
     * vectors (a warp spans two rows), and the rest of the group along
     * dimension 1. */
    if (work_dim == 1)
        local[0] = dc->group;
    else if (path == CLRS_VECTOR_NONE)
        local[0] = w;
    else
        local[0] = w >= 2 ? w / 2 : 1;
    local[1] = work_dim == 1 ? 1 : dc->group / local[0];
    local[2] = 1;
    /* Within the device's work-group size: dimension 1 halves first,
     * keeping whole SIMD widths along the contiguous axis, then
     * dimension 0. */
    while (f->max_group && local[0] * local[1] > f->max_group) {
        if (local[1] > 1)
            local[1] /= 2;
        else
            local[0] /= 2;
    }
}

void clrs__launch_fill_local(const clrs_device *dev, size_t items,
                             clrs_launch *L)
{
    const clrs_launch_facts *f = &dev->facts;
    size_t left = items ? items : 1;
    cl_uint d;

    for (d = 0; d < 3; ++d) {
        size_t l = d < L->work_dim ? L->global[d] : 1;
        if (l > left)
            l = left;
        if (l > f->max_items[d])
            l = f->max_items[d];
        L->local[d] = divisor_up_to(L->global[d], l);
        left /= L->local[d];
    }
    clrs__launch_fit_group(L, f->max_group);
}

void clrs__launch_local(const clrs_device *dev, const clrs_launch_request *r,
                        clrs_launch *L)
{
    const clrs_launch_facts *f = &dev->facts;
    size_t want[3];
    cl_uint d;

    memset(L->local, 0, sizeof L->local);
    L->source = r->source;
    if (r->local_driver)
        return;
    if (r->local[0])
        memcpy(want, r->local, sizeof want);
    else
        clrs__launch_default_local(f, L->work_dim, L->path, want);
    if (!want[0])
        return; /* the driver chooses: on PoCL several times faster */
    for (d = 0; d < 3; ++d) {
        size_t l = d < L->work_dim ? want[d] : 1;
        if (l > f->max_items[d])
            l = f->max_items[d];
        L->local[d] = divisor_up_to(L->global[d], l);
    }
    clrs__launch_fit_group(L, f->max_group);
}
