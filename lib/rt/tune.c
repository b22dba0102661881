/* The tuner: a plan's problem built under each candidate launch, each
 * distinct launch timed on scratch buffers, the fastest kept as the
 * plan's kernel and stored in the tuning database (tunedb.c). The
 * candidates vary only the knobs (variant.h) of the variants that apply
 * to the problem. */
#include "rt/tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The values the tuner tries of each knob (variant.h's CLRS_KNOB_*), in
 * CLRS_LAUNCH's syntax, the device's default first where it is one. A
 * knob that no variant applicable to the problem reads is held at its
 * first value (a grid knob) or not varied (the others). */
#define TUNE_VALUES_MAX 5
typedef struct tune_knob {
    unsigned knob;
    const char *values[TUNE_VALUES_MAX]; /* NULL past the last */
} tune_knob;

/* The grid: every vector width, with and without the span path, under
 * the driver's local size and a few fixed ones. */
static const tune_knob tune_vec = {
    CLRS_KNOB_VEC, {"vec=16", "vec=8", "vec=4", "vec=2", "vec=1"}};
static const tune_knob tune_span = {CLRS_KNOB_SPAN, {"span=1", "span=0"}};
static const tune_knob tune_local = {
    CLRS_KNOB_LOCAL,
    {"local=driver", "local=16x16x1", "local=32x8x1", "local=64x4x1",
     "local=256x1x1"}};
/* Then, one at a time, with each vector width under the driver's local
 * size: vectors per work-item (backward gathers on the axis path), the
 * most vectors a span group reads, and walked rows. */
static const tune_knob tune_more[] = {
    {CLRS_KNOB_MV, {"mv=1", "mv=2", "mv=4"}},
    {CLRS_KNOB_SPANV, {"spanv=4", "spanv=8", "spanv=16"}},
    {CLRS_KNOB_WALK, {"walk=0", "walk=1"}}};
#define TUNE_NMORE ((int)(sizeof tune_more / sizeof tune_more[0]))
/* Last, rows of kernel axis 1 per work-item with each vector width,
 * under the device's default local size and under 16x16 (a work-item
 * of several rows shifts the best shape; rows=1 for a backward kernel,
 * whose default on a GPU is two). */
static const tune_knob tune_rows = {CLRS_KNOB_ROWS,
                                    {"rows=1", "rows=2", "rows=4"}};
#define TUNE_ROWS_LOCALS 2
/* The first candidate: the device's defaults ("span=1" changes
 * nothing). */
#define TUNE_DEFAULT "span=1"
/* The most candidates: the defaults, the grid, the other knobs. */
#define TUNE_NCAND                                                             \
    (1 + TUNE_VALUES_MAX * TUNE_VALUES_MAX * TUNE_VALUES_MAX +                 \
     TUNE_NMORE * TUNE_VALUES_MAX * TUNE_VALUES_MAX +                          \
     TUNE_VALUES_MAX * TUNE_VALUES_MAX * TUNE_ROWS_LOCALS)
/* Timed runs of each candidate, after one warm-up. */
#define TUNE_RUNS 3
/* The longest candidate's CLRS_LAUNCH text, with its terminator. */
#define TUNE_TEXT_MAX CLRS_TUNE_TEXT_MAX

/* Scratch buffers for every role the plan uses, filled with the bytes
 * of 1.0f: memory can take lines of zeros faster than data, and the
 * kernels write what they read. An index tensor's values then
 * name no tap: they match nothing, as any out-of-range index. */
typedef struct tune_bufs {
    clrs_args args;
    cl_mem all[CLRS_ROLES_MAX];
    int n;
} tune_bufs;

static clrs_status tune_buf(clrs_plan *plan, cl_command_queue q,
                            tune_bufs *b, size_t bytes, cl_mem *role)
{
    cl_int err;
    float one = 1;

    if (bytes == 0)
        return CLRS_SUCCESS;
    CLRS_TRY(
        clrs__plan_buffer(plan, (bytes + 3) / 4 * 4, NULL, role, "tuning"));
    b->all[b->n++] = *role;
    err = clEnqueueFillBuffer(q, *role, &one, sizeof one, 0,
                              (bytes + 3) / 4 * 4, 0, NULL, NULL);
    return err == CL_SUCCESS ? CLRS_SUCCESS
                             : clrs__cl_error(err, "clEnqueueFillBuffer");
}

static clrs_status tune_bufs_make(clrs_plan *plan, cl_command_queue q,
                                  tune_bufs *b)
{
    clrs_args *a = &b->args;
    int i;

    CLRS_TRY(tune_buf(plan, q, b, plan->need_src, &a->src));
    CLRS_TRY(tune_buf(plan, q, b, plan->need_dst, &a->dst));
    CLRS_TRY(tune_buf(plan, q, b, plan->need_diff_src, &a->diff_src));
    CLRS_TRY(tune_buf(plan, q, b, plan->need_diff_dst, &a->diff_dst));
    CLRS_TRY(tune_buf(plan, q, b, plan->need_index, &a->index));
    for (i = 0; i < CLRS_MAX_POST_OPS; ++i)
        CLRS_TRY(tune_buf(plan, q, b, plan->need_post[i], &a->post_op[i]));
    return tune_buf(plan, q, b, plan->need_workspace, &a->workspace);
}

/* The best of TUNE_RUNS profiled runs after a warm-up (PoCL builds its
 * work-group function at the first enqueue), in ms. */
static clrs_status tune_time(clrs_plan *cand, cl_command_queue q,
                             const clrs_args *a, double *ms)
{
    int i;
    *ms = INFINITY;
    for (i = 0; i <= TUNE_RUNS; ++i) {
        cl_event ev = NULL;
        cl_ulong s = 0, e = 0;
        cl_int err;
        CLRS_TRY(clrs__plan_enqueue(cand, q, a, 0, NULL, &ev));
        err = clWaitForEvents(1, &ev);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
                                          sizeof s, &s, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
                                          sizeof e, &e, NULL);
        clReleaseEvent(ev);
        if (err != CL_SUCCESS)
            return clrs__cl_error(err, "tuning: profiling");
        if (i > 0 && e > s && (double)(e - s) / 1e6 < *ms)
            *ms = (double)(e - s) / 1e6;
    }
    return CLRS_SUCCESS;
}

/* A candidate: a plan of the same problem built under launch text t. */
static clrs_status tune_candidate(clrs_plan *plan, const char *t,
                                  clrs_plan **out)
{
    clrs_launch_text lt;
    clrs_plan *c;
    clrs_status st;

    *out = NULL;
    CLRS_TRY(clrs__plan_twin(plan, &c));
    lt.text = t;
    lt.source = CLRS_LAUNCH_TUNED;
    st = clrs__plan_build_kernel(c, &lt);
    if (st < 0) {
        clrs_plan_destroy(c);
        return st;
    }
    *out = c;
    return CLRS_SUCCESS;
}

/* Moves cand's kernel and everything built for it into plan. */
void clrs__plan_adopt(clrs_plan *plan, clrs_plan *cand)
{
    plan->low = cand->low;
    plan->program = cand->program;
    plan->kernel = cand->kernel;
    plan->itab = cand->itab;
    plan->ftab = cand->ftab;
    plan->arg_src = cand->arg_src;
    plan->arg_dst = cand->arg_dst;
    plan->arg_index = cand->arg_index;
    plan->arg_x = cand->arg_x;
    memcpy(plan->arg_post, cand->arg_post, sizeof plan->arg_post);
    plan->cache_source = cand->cache_source;
    free(plan->build_log);
    plan->build_log = cand->build_log;
    cand->build_log = NULL;
    cand->program = NULL;
    cand->kernel = NULL;
    cand->itab = cand->ftab = NULL;
}

/* A candidate's launch as run, "local|key" (malloc'd; NULL when out of
 * memory): the same kernel key and local size as an earlier candidate
 * mean the same launch, timed once. Whole: the key's distinguishing
 * parts (vec=, mv=, the span patterns) lie past its first 70 bytes. */
static char *launch_sig(const clrs_plan *c)
{
    char *key = NULL, *sig;
    const clrs_launch *L = &c->low.launch;
    size_t n;

    if (clrs__gen_key(&c->low.cfg, &key) != CLRS_SUCCESS) {
        clrs__clear_error();
        return NULL;
    }
    n = strlen(key) + 3 * 24;
    sig = malloc(n);
    if (sig)
        snprintf(sig, n, "%zu,%zu,%zu|%s", L->local[0], L->local[1],
                 L->local[2], key);
    free(key);
    return sig;
}

/* How many values of k the tuner tries where the applicable variants
 * read the knobs `knobs`: all, else the first (held) or none. */
static int tune_values(const tune_knob *k, unsigned knobs, int held)
{
    int n = 0;
    if (!(knobs & k->knob))
        return held;
    while (n < TUNE_VALUES_MAX && k->values[n])
        ++n;
    return n;
}

/* The candidates' launch texts, the defaults first; returns how many.
 * Only the knobs some applicable variant reads are varied (knobs, the
 * CLRS_KNOB_* bits): a problem whose only kernel is scalar tries its
 * local sizes alone. */
static int tune_texts(char texts[][TUNE_TEXT_MAX], unsigned knobs)
{
    const int nvec = tune_values(&tune_vec, knobs, 1);
    const int nspan = tune_values(&tune_span, knobs, 1);
    const int nlocal = tune_values(&tune_local, knobs, 1);
    const int nrows = tune_values(&tune_rows, knobs, 0);
    int n = 0, v, s, l, p, m, nmore;

    snprintf(texts[n++], TUNE_TEXT_MAX, TUNE_DEFAULT);
    for (v = 0; v < nvec; ++v)
        for (s = 0; s < nspan; ++s)
            for (l = 0; l < nlocal; ++l)
                snprintf(texts[n++], TUNE_TEXT_MAX, "%s,%s,%s",
                         tune_vec.values[v], tune_span.values[s],
                         tune_local.values[l]);
    for (p = 0; p < TUNE_NMORE; ++p) {
        nmore = tune_values(&tune_more[p], knobs, 0);
        for (v = 0; v < nvec; ++v)
            for (m = 0; m < nmore; ++m)
                snprintf(texts[n++], TUNE_TEXT_MAX, "%s,%s,%s",
                         tune_vec.values[v], tune_more[p].values[m],
                         tune_local.values[0]);
    }
    for (v = 0; v < nvec; ++v)
        for (m = 0; m < nrows; ++m) {
            snprintf(texts[n++], TUNE_TEXT_MAX, "%s,%s", tune_vec.values[v],
                     tune_rows.values[m]);
            snprintf(texts[n++], TUNE_TEXT_MAX, "%s,%s,%s", tune_vec.values[v],
                     tune_rows.values[m], tune_local.values[1]);
        }
    return n;
}

/* The tuner's progress: the fastest plan so far and the launches timed
 * (each distinct launch once). */
typedef struct tune_run {
    clrs_plan *best;
    double best_ms;
    char best_text[TUNE_TEXT_MAX];
    char *seen[TUNE_NCAND];
    int nseen, timed;
} tune_run;

/* Candidate text: built, timed unless its launch was timed already, and
 * kept if the fastest. Only the first (the defaults) must work: another
 * that this device cannot build or run is passed over. */
static clrs_status tune_one(clrs_plan *plan, const char *text, int first,
                            cl_command_queue q, tune_bufs *bufs,
                            tune_run *r)
{
    clrs_plan *c = NULL;
    char *sig;
    double ms;
    int j;
    clrs_status st = tune_candidate(plan, text, &c);

    if (st < 0) {
        if (!first)
            clrs__clear_error();
        return first ? st : CLRS_SUCCESS;
    }
    sig = launch_sig(c);
    for (j = 0; sig && j < r->nseen && strcmp(r->seen[j], sig) != 0; ++j)
        ;
    if (sig && j < r->nseen) { /* the same launch as an earlier one */
        free(sig);
        clrs_plan_destroy(c);
        return CLRS_SUCCESS;
    }
    if (sig)
        r->seen[r->nseen++] = sig;
    ++r->timed;
    st = tune_time(c, q, &bufs->args, &ms);
    if (st < 0 && !first) {
        clrs__clear_error();
        st = CLRS_SUCCESS;
        ms = INFINITY;
    }
    if (st >= 0 && ms < r->best_ms) {
        size_t len = strlen(text);
        if (len >= sizeof r->best_text)
            len = sizeof r->best_text - 1;
        clrs_plan_destroy(r->best);
        r->best = c;
        r->best_ms = ms;
        memcpy(r->best_text, text, len);
        r->best_text[len] = '\0';
    } else {
        clrs_plan_destroy(c);
    }
    return st;
}

/* The knobs of the variants that apply to the plan's problem. */
static unsigned tune_knobs(const clrs_plan *plan)
{
    clrs_slot_taps taps;
    clrs_problem fused;
    unsigned knobs = CLRS_KNOB_ALL_;
    int is_fused = 0;

    if (clrs__slot_taps(&plan->problem, &taps) >= 0 &&
        clrs__fuse_channels(&plan->problem, &taps, &fused, &is_fused) >= 0)
        knobs = clrs__lower_knobs(&plan->ctx->dev,
                                  is_fused ? &fused : &plan->problem, &taps,
                                  plan->index_only);
    else
        clrs__clear_error();
    clrs__slot_taps_free(&taps);
    return knobs;
}

/* Every candidate in turn within the context's budget, the fastest kept
 * as plan's kernel and stored in the database. */
clrs_status clrs__tune(clrs_plan *plan, const clrs_tune_key *k,
                       double budget)
{
    char texts[TUNE_NCAND][TUNE_TEXT_MAX];
    struct timespec t0;
    tune_run r;
    tune_bufs bufs;
    cl_command_queue q;
    cl_int err;
    int n, i;
    clrs_status st = CLRS_SUCCESS;

    n = tune_texts(texts, tune_knobs(plan));
    memset(&bufs, 0, sizeof bufs);
    memset(&r, 0, sizeof r);
    r.best_ms = INFINITY;
    q = clCreateCommandQueue(plan->ctx->cl_ctx, plan->ctx->device,
                             CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q)
        return clrs__cl_error(err, "tuning: clCreateCommandQueue");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = tune_bufs_make(plan, q, &bufs);
    for (i = 0; i < n && st >= 0 && (i == 0 || clrs__ms_since(&t0) <= budget);
         ++i)
        st = tune_one(plan, texts[i], i == 0, q, &bufs, &r);
    for (i = 0; i < bufs.n; ++i)
        clReleaseMemObject(bufs.all[i]);
    for (i = 0; i < r.nseen; ++i)
        free(r.seen[i]);
    clReleaseCommandQueue(q);
    if (st >= 0 && !r.best)
        st = clrs__error(CLRS_ERR_OPENCL, "tuning: no candidate ran");
    if (st >= 0) {
        char why[CLRS_ERRMSG_MAX - 100], note[CLRS_ERRMSG_MAX];
        clrs__plan_adopt(plan, r.best);
        plan->tuned_launches = r.timed;
        snprintf(plan->tuned_text, sizeof plan->tuned_text, "%s", r.best_text);
        if (clrs__tunedb_store(plan->ctx, k, r.best_text, r.best_ms, why,
                               sizeof why) != 0) {
            snprintf(note, sizeof note,
                     "tuning database: %s; the tuned launch holds for this "
                     "plan only",
                     why);
            clrs__ctx_note(plan->ctx, note);
        }
    }
    clrs_plan_destroy(r.best);
    return st;
}

/* The best wall time of TUNE_RUNS runs of the whole plan (every kernel
 * it enqueues, from the first enqueue to the end of the last), after a
 * warm-up, on scratch buffers: what one pass against several costs the
 * caller, launches included. */
clrs_status clrs__tune_wall(clrs_plan *plan, double *ms)
{
    tune_bufs bufs;
    cl_command_queue q;
    cl_int err;
    clrs_status st;
    int i;

    *ms = INFINITY;
    memset(&bufs, 0, sizeof bufs);
    q = clCreateCommandQueue(plan->ctx->cl_ctx, plan->ctx->device, 0, &err);
    if (!q)
        return clrs__cl_error(err, "tuning: clCreateCommandQueue");
    st = tune_bufs_make(plan, q, &bufs);
    if (st >= 0 && (err = clFinish(q)) != CL_SUCCESS)
        st = clrs__cl_error(err, "tuning: clFinish");
    for (i = 0; st >= 0 && i <= TUNE_RUNS; ++i) {
        struct timespec t0;
        double t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        st = clrs__plan_enqueue(plan, q, &bufs.args, 0, NULL, NULL);
        if (st >= 0 && (err = clFinish(q)) != CL_SUCCESS)
            st = clrs__cl_error(err, "tuning: clFinish");
        t = clrs__ms_since(&t0);
        if (st >= 0 && i > 0 && t < *ms)
            *ms = t;
    }
    clFinish(q);
    for (i = 0; i < bufs.n; ++i)
        clReleaseMemObject(bufs.all[i]);
    clReleaseCommandQueue(q);
    return st;
}
