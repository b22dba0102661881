/* The launch space and its defaults. Every parameter here changes only
 * how fast a kernel runs, never what it computes: the tests run the
 * conformance subsets under each forced value (CLRS_LAUNCH). */
#include "launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPU local sizes that keep each warp's accesses contiguous along the
 * fastest axis (kernel axis 0 is dimension 0). */
static const size_t gpu_local_vec[3] = {16, 16, 1};
static const size_t gpu_local_scalar[3] = {32, 8, 1};
static const size_t gpu_local_1d[3] = {256, 1, 1};

/* What the defaults know of a kind of device: one row per class, the
 * first whose type is the device's applies (the last takes any device).
 * Where the defaults come from, and the measurements behind them, is in
 * lib/README.md. */
typedef struct device_class {
    const char *name;
    /* The device type it is for, alone among CPU, GPU and accelerator (a
     * simulator that reports every type, Oclgrind, is none of them); 0:
     * any device. */
    cl_device_type type;
    /* Bytes a work-item reads at once along a contiguous axis (0: as many
     * lanes as the device's preferred vector width, 16 for none). */
    int vector_bytes;
    int mvec;         /* vectors per work-item of a backward gather */
    int span_vectors; /* most input vectors a span group reads */
    int walk;         /* -1: rows of span groups walked where they help */
    /* Local sizes (NULL: the driver's): 1-D launches, the scalar path,
     * the vector paths. */
    const size_t *local_1d, *local_scalar, *local_vec;
} device_class;

static const device_class device_classes[] = {
    /* A GPU wants 16-byte loads (the widest one instruction issues),
     * neighbouring work-items on neighbouring addresses (one vector each,
     * no walked rows) and warps along the contiguous axis. */
    {"gpu", CL_DEVICE_TYPE_GPU, 16, 1, 4, 0, gpu_local_1d, gpu_local_scalar,
     gpu_local_vec},
    /* Any other device, a CPU first: its preferred width, several
     * vectors and wide span groups per work-item, rows walked front to
     * back for its prefetcher, the driver's local sizes. */
    {"cpu", 0, 0, 4, 8, -1, NULL, NULL, NULL},
};

/* The first row whose type is the device's (the last row takes any). */
static const device_class *class_of(const clrs_launch_facts *f)
{
    const cl_device_type kinds =
        CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR;
    size_t i;
    for (i = 0; device_classes[i].type != 0 &&
                (f->type & kinds) != device_classes[i].type;
         ++i)
        ;
    return &device_classes[i];
}

/* The largest power of two <= v, within [1, cap]. */
static int pow2_floor(cl_uint v, int cap)
{
    int w = 1;
    while (w * 2 <= (int)v && w * 2 <= cap)
        w *= 2;
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

int clrs__launch_generic(void)
{
    const char *v = getenv("CLRS_GENERIC");
    return v && *v && strcmp(v, "0") != 0;
}

static void defaults(const clrs_launch_facts *f, int acc_f64,
                     clrs_launch_request *r)
{
    const int cap = acc_f64 ? 8 : 16; /* one 64-byte line per vector */
    const int esize = acc_f64 ? 8 : 4;
    const device_class *dc = class_of(f);
    cl_uint pref = acc_f64 ? f->pref_double : f->pref_float;

    memset(r, 0, sizeof *r);
    r->generic = clrs__launch_generic();
    r->span = 1;
    r->nt = -1;
    r->source = CLRS_LAUNCH_DEFAULT;
    if (dc->vector_bytes)
        r->vmax = pow2_floor((cl_uint)(dc->vector_bytes / esize), cap);
    else /* a device that states no preference (1) vectorises scalar
            code itself; explicit vectors still measured faster on PoCL */
        r->vmax = pref >= 2 ? pow2_floor(pref, cap) : cap;
    r->mvec = dc->mvec;
    r->span_vectors = dc->span_vectors;
    r->walk = dc->walk;
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
        if (x > 65536)
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
                 {"spanv", "48", "4 or 8", &r->span_vectors},
                 {"walk", "01", "0 or 1", &r->walk},
                 {"span", "01", "0 or 1", &r->span},
                 {"nt", "01", "0 or 1", &r->nt}};

    for (i = 0; i < sizeof digit / sizeof digit[0]; ++i)
        if (strlen(digit[i].key) == klen &&
            strncmp(item, digit[i].key, klen) == 0) {
            CLRS_CHECK(strlen(v) == 1 && strchr(digit[i].digits, v[0]),
                       CLRS_ERR_INVALID_VALUE, "CLRS_LAUNCH: %s=%s (%s)",
                       digit[i].key, v, digit[i].choices);
            *digit[i].field = v[0] - '0';
            return CLRS_SUCCESS;
        }

    if (klen == 3 && strncmp(item, "vec", 3) == 0) {
        int n = atoi(v);
        CLRS_CHECK((n == 1 || n == 2 || n == 4 || n == 8 || n == 16) &&
                       strspn(v, "0123456789") == strlen(v),
                   CLRS_ERR_INVALID_VALUE,
                   "CLRS_LAUNCH: vec=%s (1, 2, 4, 8 or 16)", v);
        r->vmax = n > (acc_f64 ? 8 : 16) ? (acc_f64 ? 8 : 16) : n;
        r->vec_off = n == 1;
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
        return clrs__error(CLRS_ERR_INVALID_VALUE,
                           "CLRS_LAUNCH: unknown item \"%s\" (vec=, mv=, "
                           "span=, spanv=, walk=, nt=, local=)",
                           item);
    }
    return CLRS_SUCCESS;
}

clrs_status clrs__launch_request(const clrs_context *ctx, int acc_f64,
                                 const clrs_launch_text *t,
                                 clrs_launch_request *r)
{
    char buf[256], *item, *comma;

    defaults(&ctx->facts, acc_f64, r);
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

int clrs__launch_valid(const clrs_context *ctx, const char *text)
{
    clrs_launch_text t;
    clrs_launch_request r;
    int ok;

    t.text = text;
    t.source = CLRS_LAUNCH_DATABASE;
    ok = clrs__launch_request(ctx, 0, &t, &r) == CLRS_SUCCESS;
    clrs__clear_error();
    return ok;
}

void clrs__launch_fit_group(clrs_launch *L, size_t max_group)
{
    for (;;) {
        size_t n = L->local[0] * L->local[1] * L->local[2], l;
        int d, big = 0;
        if (n == 0 || n <= max_group)
            return;
        for (d = 1; d < 3; ++d)
            if (L->local[d] > L->local[big])
                big = d;
        /* At most half, and still a divisor of the global size: a device
         * without non-uniform work-groups (rusticl) refuses 9 halved to
         * 4 on a global size of 9 (CL_INVALID_WORK_GROUP_SIZE). */
        l = L->local[big] / 2;
        while (l > 1 && L->global[big] % l != 0)
            --l;
        L->local[big] = l ? l : 1;
    }
}

void clrs__launch_local(const clrs_context *ctx,
                        const clrs_launch_request *r, clrs_launch *L)
{
    const clrs_launch_facts *f = &ctx->facts;
    const size_t *want = NULL;
    cl_uint d;

    memset(L->local, 0, sizeof L->local);
    L->source = r->source;
    if (r->local_driver)
        return;
    if (r->local[0])
        want = r->local;
    else if (L->work_dim == 1)
        want = class_of(f)->local_1d;
    else
        want = L->path == CLRS_VECTOR_NONE ? class_of(f)->local_scalar
                                            : class_of(f)->local_vec;
    if (!want)
        return; /* the driver chooses: on PoCL several times faster */
    for (d = 0; d < 3; ++d) {
        size_t l = d < L->work_dim ? want[d] : 1;
        if (l > f->max_items[d])
            l = f->max_items[d];
        /* OpenCL 1.2: the local size divides the global size; the
         * largest such size up to the one wanted. */
        while (l > 1 && L->global[d] % l != 0)
            --l;
        L->local[d] = l ? l : 1;
    }
    clrs__launch_fit_group(L, f->max_group);
}
