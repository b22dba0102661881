/* The device classes and their default launches, from synthetic device
 * facts: no device needed, so the GPU rows are checked on any machine.
 * Compiled together with lib/gen/launch.c and lib/model/status.c (Makefile.am) to
 * reach the class lookup and the defaults, which the shared library
 * does not export. */
#include "gen/launch.h"
#include "tap.h"

#include <string.h>

#define GPU CL_DEVICE_TYPE_GPU
#define CPU CL_DEVICE_TYPE_CPU

/* One synthetic device and what its defaults must be. */
typedef struct device_case {
    const char *what;
    cl_device_type type;
    cl_uint vendor_id, simd;
    size_t max_group;
    const char *cls;
    int vmax, vmax_f64, mvec, span_vectors, walk;
    /* default local sizes: 1-D, 2-D scalar path, 2-D vector paths */
    size_t l1d[3], lscalar[3], lvec[3];
} device_case;

static clrs_launch_facts facts_of(const device_case *c)
{
    clrs_launch_facts f;
    int k;

    memset(&f, 0, sizeof f);
    f.type = c->type;
    f.vendor_id = c->vendor_id;
    f.simd = c->simd;
    f.max_group = c->max_group;
    f.max_items[0] = f.max_items[1] = f.max_items[2] = c->max_group;
    /* PoCL on an AVX2 host: preferred 8 floats, 4 doubles; a GPU's
     * preferred width does not enter its defaults. */
    f.pref_float = 8;
    f.pref_double = 4;
    for (k = 0; k < CLRS_LANE_KINDS; ++k)
        f.pref[k] = f.native[k] = 1;
    return f;
}

static int same3(const size_t *got, const size_t *want)
{
    return got[0] == want[0] && got[1] == want[1] && got[2] == want[2];
}

static void check_local(const clrs_launch_facts *f, const device_case *c,
                        cl_uint dims, clrs_vector_path path,
                        const size_t *want, const char *which)
{
    size_t got[3];

    clrs__launch_default_local(f, dims, path, got);
    tap_ok(same3(got, want), "%s: %s local %zux%zux%zu (want %zux%zux%zu)",
           c->what, which, got[0], got[1], got[2], want[0], want[1],
           want[2]);
}

static void check_case(const device_case *c)
{
    clrs_launch_facts f = facts_of(c);
    clrs_launch_request r;
    const char *cls = clrs__launch_class(&f);

    tap_ok(strcmp(cls, c->cls) == 0, "%s: class %s (want %s)", c->what, cls,
           c->cls);
    clrs__launch_defaults(&f, 0, &r);
    tap_ok(r.vmax == c->vmax && r.mvec == c->mvec &&
               r.span_vectors == c->span_vectors && r.walk == c->walk &&
               r.span == 1 && r.nt == -1 && r.local[0] == 0 &&
               !r.local_driver && r.source == CLRS_LAUNCH_DEFAULT,
           "%s: f32 defaults vec %d mv %d spanv %d walk %d (want %d %d %d "
           "%d)",
           c->what, r.vmax, r.mvec, r.span_vectors, r.walk, c->vmax,
           c->mvec, c->span_vectors, c->walk);
    {
        /* A GPU: a copy's 16 bytes, one vector a work-item for
         * fixed-point sums, a rolled intermediate element a tap, two
         * rows a backward work-item, passes for any taps; a CPU: its
         * lanes, four vectors, 5 taps (as in memory), passes only where
         * an axis reads more than 2 taps, and for backward sums whose
         * one kernel would not stream; neither folds channels-first
         * passes by default (roll=1 does); a CPU: one row, four where a
         * walked row's taps overlap or a span group's row is long, and
         * span kernels of one row in work-groups of 512, axis kernels of
         * one row too. Neither forces
         * rows forward. A GPU's vector accesses proven aligned go
         * through vector pointers, a CPU's through vloadN / vstoreN. */
        const int gpu = strncmp(c->cls, "gpu", 3) == 0;
        tap_ok(
            r.load_bytes == (gpu ? 16 : 0) && r.mvec_fix == (gpu ? 1 : 4) &&
                r.roll_taps == (gpu ? 1 : 5) && r.sep_taps == (gpu ? 0 : 2) &&
                r.sep_bwd == !gpu && r.fold == 0 && r.rows_bwd == (gpu ? 2 : 1) &&
                r.rows_overlap == (gpu ? 0 : 4) &&
                r.rows_span == (gpu ? 0 : 4) &&
                r.span_group == (gpu ? 0 : 512) &&
                r.axis_group == (gpu ? 0 : 512) && r.rows == 0 &&
                r.va == gpu,
            "%s: copy bytes %d, fixed-point vectors %d, roll taps %d, "
            "separable taps %d, backward passes %d, fold %d, backward rows "
            "%d, overlapping walked rows %d, long span rows %d, span "
            "work-group %d, axis work-group %d, rows %d, aligned %d",
            c->what, r.load_bytes, r.mvec_fix, r.roll_taps, r.sep_taps,
            r.sep_bwd, r.fold,
            r.rows_bwd, r.rows_overlap, r.rows_span, r.span_group,
            r.axis_group, r.rows, r.va);
    }
    /* f16's converted vectors store non-temporally in looping kernels,
     * and separable passes run as the roll kernel, everywhere but on
     * Intel's CPUs. */
    tap_ok(r.nt_loops == (strcmp(c->cls, "cpu-intel") != 0) &&
               r.roll_variant == (strcmp(c->cls, "cpu-intel") != 0),
           "%s: f16 non-temporal stores in looping kernels %d, the roll "
           "variant by default %d",
           c->what, r.nt_loops, r.roll_variant);
    clrs__launch_defaults(&f, 1, &r);
    tap_ok(r.vmax == c->vmax_f64, "%s: f64 accumulators vec %d (want %d)",
           c->what, r.vmax, c->vmax_f64);
    check_local(&f, c, 1, CLRS_VECTOR_NONE, c->l1d, "1-D");
    check_local(&f, c, 2, CLRS_VECTOR_NONE, c->lscalar, "scalar path");
    check_local(&f, c, 2, CLRS_VECTOR_AXIS, c->lvec, "axis path");
    check_local(&f, c, 2, CLRS_VECTOR_SPAN, c->lvec, "span path");
    check_local(&f, c, 3, CLRS_VECTOR_BLOCK, c->lvec, "3-D block path");
}

/* The default through clrs__launch_local: fitted to a global size. */
static void check_fitted(void)
{
    static const device_case amd = {"AMD GPU", GPU, 0x1002, 64, 256, "gpu",
                                    0, 0, 0, 0, 0, {0}, {0}, {0}};
    clrs_device dev;
    clrs_launch_request r;
    clrs_launch L;

    memset(&dev, 0, sizeof dev);
    dev.facts = facts_of(&amd);
    clrs__launch_defaults(&dev.facts, 0, &r);
    memset(&L, 0, sizeof L);
    L.path = CLRS_VECTOR_NONE;
    L.work_dim = 2;
    L.global[0] = 128;
    L.global[1] = 6;
    L.global[2] = 1;
    clrs__launch_local(&dev, &r, &L);
    tap_ok(L.local[0] == 64 && L.local[1] == 3 && L.local[2] == 1,
           "AMD GPU: scalar 64x4 fitted to 128x6: %zux%zux%zu (want 64x3x1)",
           L.local[0], L.local[1], L.local[2]);
    {
        /* vec= forces the lanes of every path, a copy's too. */
        clrs_launch_text t = {"vec=8", CLRS_LAUNCH_FORCED};
        clrs_launch_request q;
        tap_ok(clrs__launch_request(&dev, 0, &t, &q) == CLRS_SUCCESS &&
                   q.vmax == 8 && q.load_bytes == 0,
               "AMD GPU: vec=8 forces 8 lanes and no copy bytes (%d, %d)",
               q.vmax, q.load_bytes);
        t.text = "span=1";
        tap_ok(clrs__launch_request(&dev, 0, &t, &q) == CLRS_SUCCESS &&
                   q.load_bytes == 16,
               "AMD GPU: span=1 keeps the copy's 16 bytes (%d)", q.load_bytes);
        t.text = "rows=4";
        tap_ok(clrs__launch_request(&dev, 0, &t, &q) == CLRS_SUCCESS &&
                   q.rows == 4 && q.rows_bwd == 2,
               "AMD GPU: rows=4 forces 4 rows (%d; backward default %d)",
               q.rows, q.rows_bwd);
    }
    dev.facts.type = CPU;
    clrs__launch_local(&dev, &r, &L);
    tap_ok(L.local[0] == 0 && L.local[1] == 0 && L.local[2] == 0,
           "CPU: the driver chooses (%zux%zux%zu)", L.local[0], L.local[1],
           L.local[2]);
}

int main(void)
{
    /* Today's GPU defaults, measured on an H100, are NVIDIA's: 4 f32
     * lanes, one vector, span groups of 4, no walked rows, 256x1, 32x8
     * and 16x16. Every other GPU shapes the same group of 256 over its
     * own SIMD width, within its work-group size. */
    static const device_case cases[] = {
        {"NVIDIA GPU (warp 32)", GPU, 0x10de, 32, 1024, "gpu-nvidia", 4, 2,
         1, 4, 0, {256, 1, 1}, {32, 8, 1}, {16, 16, 1}},
        {"NVIDIA GPU stating no warp", GPU, 0x10de, 0, 1024, "gpu-nvidia",
         4, 2, 1, 4, 0, {256, 1, 1}, {32, 8, 1}, {16, 16, 1}},
        {"AMD GPU (wavefront 64)", GPU, 0x1002, 64, 256, "gpu", 4, 2, 1, 4,
         0, {256, 1, 1}, {64, 4, 1}, {32, 8, 1}},
        {"Intel GPU (sub-groups 8, 16, 32)", GPU, 0x8086, 0, 512, "gpu", 4,
         2, 1, 4, 0, {256, 1, 1}, {32, 8, 1}, {16, 16, 1}},
        {"GPU of another vendor, no SIMD width", GPU, 0x1234, 0, 1024,
         "gpu", 4, 2, 1, 4, 0, {256, 1, 1}, {32, 8, 1}, {16, 16, 1}},
        {"GPU of another vendor, SIMD width 16", GPU, 0x1234, 16, 1024,
         "gpu", 4, 2, 1, 4, 0, {256, 1, 1}, {16, 16, 1}, {8, 32, 1}},
        {"GPU of another vendor, SIMD width 512", GPU, 0x1234, 512, 1024,
         "gpu", 4, 2, 1, 4, 0, {256, 1, 1}, {256, 1, 1}, {128, 2, 1}},
        {"NVIDIA GPU, work-groups of at most 128", GPU, 0x10de, 32, 128,
         "gpu-nvidia", 4, 2, 1, 4, 0, {128, 1, 1}, {32, 4, 1}, {16, 8, 1}},
        {"AMD GPU, work-groups of at most 128", GPU, 0x1002, 64, 128, "gpu",
         4, 2, 1, 4, 0, {128, 1, 1}, {64, 2, 1}, {32, 4, 1}},
        {"GPU, work-groups of at most 48", GPU, 0x1234, 32, 48, "gpu", 4, 2,
         1, 4, 0, {32, 1, 1}, {32, 1, 1}, {16, 2, 1}},
        {"CPU of Intel (PoCL, AVX2)", CPU, 0x8086, 0, 4096, "cpu-intel", 8, 4,
         4, 16, -2, {0}, {0}, {0}},
        {"AMD CPU (PoCL, AVX2)", CPU, 0x1022, 0, 4096, "cpu", 8, 4, 4, 16, -1,
         {0}, {0}, {0}},
        {"CPU of NVIDIA's vendor id", CPU, 0x10de, 32, 4096, "cpu", 8, 4, 4,
         16, -1, {0}, {0}, {0}},
        {"every type at once (Oclgrind)",
         CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
             CL_DEVICE_TYPE_ACCELERATOR,
         0x10de, 32, 4096, "cpu", 8, 4, 4, 16, -1, {0}, {0}, {0}},
    };
    static const size_t intel[] = {8, 16, 32}, intel_rev[] = {32, 8, 16};
    size_t i;

    tap_ok(clrs__launch_simd_of_sizes(intel, 3) == 32 &&
               clrs__launch_simd_of_sizes(intel_rev, 3) == 32 &&
               clrs__launch_simd_of_sizes(intel, 0) == 0,
           "Intel's sub-group sizes {8, 16, 32}: SIMD width 32");
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        device_case c = cases[i];
        if (strncmp(c.what, "Intel", 5) == 0)
            c.simd = clrs__launch_simd_of_sizes(intel, 3);
        check_case(&c);
    }
    check_fitted();
    return tap_done();
}
