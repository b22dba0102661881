/* Runs of one plan in flight together. Max pooling backward without an
 * index tensor runs two kernels through scratch the plan owns, so its runs
 * must follow each other on the device whatever the queue allows. Checked
 * against the CPU reference (clrs_reference_backward), bit for bit:
 *   - back-to-back runs with different inputs on an out-of-order queue
 *     (when the device offers one) and on the in-order queue;
 *   - two threads sharing one plan;
 *   - a caller's user event in the wait list holds both kernels back, and
 *     the returned event completes after the second;
 *   - a plan outlives the context it was made from;
 *   - buffers and events of another cl_context, buffer flags, a NULL
 *     event in the wait list, overlapping and disjoint sub-buffers;
 *   - clrs_plan_info (two kernels and their scratch) and argument errors;
 *   - a user workspace (clrs_resample_desc_set_user_workspace) for a
 *     separable plan of three passes and for max pooling backward: its
 *     size, the same bits as the plan's own scratch, a sub-buffer at an
 *     offset, one workspace shared by two plans, and its errors;
 *   - a channels-last bicubic plan's passes as one kernel (the roll
 *     variant) or not, as the device's class says.
 * A light program: it builds two kernels. */
#define _POSIX_C_SOURCE 200809L
#include "devutil.h"
#include "tap.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NRUNS 6

static td_env env;

/* x: 1 x 3 x 21 x 70, max 3x3 stride 2 pad 1 -> dy: 1 x 3 x 11 x 35. */
static const int64_t xdims[4] = {1, 3, 21, 70};
static const int64_t ydims[4] = {1, 3, 11, 35};

typedef struct problem {
    clrs_resample_desc *op;
    clrs_tensor_desc *xd, *yd;
    size_t xbytes, ybytes;
} problem;

/* One run's tensors: x and dy with values that differ per run (small
 * integers, so that windows tie and sums are exact), the reference dx,
 * and the device buffers. */
typedef struct run {
    tu_buf x, dy, want;
    cl_mem dx_mem, x_mem, dy_mem;
    float *got;
} run;

static int problem_init(problem *p)
{
    static const int64_t win[2] = {3, 3}, str[2] = {2, 2}, pad[2] = {1, 1};
    memset(p, 0, sizeof *p);
    if (clrs_resample_desc_create(&p->op, CLRS_MODE_MAX) != CLRS_SUCCESS ||
        clrs_resample_desc_set_window(p->op, 2, win) != CLRS_SUCCESS ||
        clrs_resample_desc_set_stride(p->op, 2, str) != CLRS_SUCCESS ||
        clrs_resample_desc_set_padding_sizes(p->op, 2, pad, pad) !=
            CLRS_SUCCESS ||
        clrs_tensor_desc_create(&p->xd, CLRS_F32, 4, xdims, NULL) !=
            CLRS_SUCCESS ||
        clrs_tensor_desc_create(&p->yd, CLRS_F32, 4, ydims, NULL) !=
            CLRS_SUCCESS) {
        tap_diag("problem: %s", clrs_last_error());
        return -1;
    }
    p->xbytes = clrs_tensor_desc_bytes(p->xd);
    p->ybytes = clrs_tensor_desc_bytes(p->yd);
    return 0;
}

static void problem_free(problem *p)
{
    clrs_resample_desc_destroy(p->op);
    clrs_tensor_desc_destroy(p->xd);
    clrs_tensor_desc_destroy(p->yd);
}

static cl_mem buffer(const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env.cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              bytes, (void *)host, &err);
    if (err != CL_SUCCESS) {
        tap_diag("clCreateBuffer: %d", (int)err);
        return NULL;
    }
    return m;
}

/* Inputs for run `seed`, the reference, and device buffers with dx
 * poisoned (NaN). */
static int run_init(const problem *p, run *r, uint64_t seed)
{
    clrs_host_args ha;
    tu_rng g;
    clrs_status st;

    memset(r, 0, sizeof *r);
    if (tu_buf_alloc(&r->x, p->xd) || tu_buf_alloc(&r->dy, p->yd) ||
        tu_buf_alloc(&r->want, p->xd))
        return -1;
    tu_rng_seed(&g, tu_mix_seed(UINT64_C(0x0DE5), seed));
    tu_fill_ints(&r->x, &g, -3, 3);
    tu_fill_ints(&r->dy, &g, 1, 9);
    memset(&ha, 0, sizeof ha);
    ha.src = r->x.data;
    ha.diff_dst = r->dy.data;
    ha.diff_src = r->want.data;
    st = clrs_reference_backward(p->op, p->xd, p->yd, NULL, p->xd, &ha);
    if (st != CLRS_SUCCESS) {
        tap_diag("reference: %s: %s", clrs_status_name(st),
                 clrs_last_error());
        return -1;
    }
    r->got = malloc(p->xbytes);
    if (!r->got)
        return -1;
    memset(r->got, 0xFF, p->xbytes); /* NaN */
    r->x_mem = buffer(r->x.data, p->xbytes);
    r->dy_mem = buffer(r->dy.data, p->ybytes);
    r->dx_mem = buffer(r->got, p->xbytes);
    return r->x_mem && r->dy_mem && r->dx_mem ? 0 : -1;
}

static void run_free(run *r)
{
    tu_buf_free(&r->x);
    tu_buf_free(&r->dy);
    tu_buf_free(&r->want);
    if (r->x_mem)
        clReleaseMemObject(r->x_mem);
    if (r->dy_mem)
        clReleaseMemObject(r->dy_mem);
    if (r->dx_mem)
        clReleaseMemObject(r->dx_mem);
    free(r->got);
}

static clrs_status execute(clrs_plan *plan, run *r, cl_uint nwait,
                           const cl_event *wait, cl_event *event)
{
    clrs_args a;
    memset(&a, 0, sizeof a);
    a.src = r->x_mem;
    a.diff_dst = r->dy_mem;
    a.diff_src = r->dx_mem;
    return clrs_execute(plan, &a, nwait, wait, event);
}

/* Reads dx back (blocking, after the queue's work) and compares it with
 * the reference bit for bit; returns the number of differing elements. */
static size_t compare(cl_command_queue q, const problem *p, run *r)
{
    size_t i, n = p->xbytes / sizeof(float), bad = 0;
    const float *want = (const float *)r->want.data;
    cl_int err = clEnqueueReadBuffer(q, r->dx_mem, CL_TRUE, 0, p->xbytes,
                                     r->got, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        tap_diag("clEnqueueReadBuffer: %d", (int)err);
        return n;
    }
    for (i = 0; i < n; ++i)
        if (memcmp(&r->got[i], &want[i], sizeof(float)) != 0) {
            if (bad == 0)
                tap_diag("  element %zu: got %g, want %g", i,
                         (double)r->got[i], (double)want[i]);
            ++bad;
        }
    return bad;
}

/* NRUNS runs enqueued back to back (no wait lists between them), then one
 * clFinish: each run must still see its own argmax. */
static void back_to_back(clrs_context *ctx, cl_command_queue q,
                         const problem *p, const char *what)
{
    clrs_plan *plan = NULL;
    run runs[NRUNS];
    size_t bad = 0;
    int i, ok = 1;
    clrs_status st;

    memset(runs, 0, sizeof runs);
    st = clrs_plan_create_backward(&plan, ctx, p->op, p->xd, p->yd, NULL,
                                   p->xd);
    if (st != CLRS_SUCCESS) {
        tap_diag("plan: %s: %s", clrs_status_name(st),
                 clrs_context_last_error(ctx));
        ok = 0;
    }
    for (i = 0; ok && i < NRUNS; ++i)
        ok = run_init(p, &runs[i], (uint64_t)i) == 0;
    for (i = 0; ok && i < NRUNS; ++i) {
        st = execute(plan, &runs[i], 0, NULL, NULL);
        if (st != CLRS_SUCCESS) {
            tap_diag("execute %d: %s: %s", i, clrs_status_name(st),
                     clrs_context_last_error(ctx));
            ok = 0;
        }
    }
    if (ok && clFinish(q) != CL_SUCCESS)
        ok = 0;
    for (i = 0; ok && i < NRUNS; ++i)
        bad += compare(q, p, &runs[i]);
    tap_ok(ok && bad == 0,
           "%s: %d back-to-back runs of one recomputing plan, each equal "
           "to the reference (%zu elements differ)",
           what, NRUNS, bad);
    for (i = 0; i < NRUNS; ++i)
        run_free(&runs[i]);
    clrs_plan_destroy(plan);
}

/* ---- two threads, one plan --------------------------------------------- */

typedef struct worker {
    clrs_plan *plan;
    run *runs;
    int n;
    int failed;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    int i, k;
    for (k = 0; k < 4; ++k)
        for (i = 0; i < w->n; ++i)
            if (execute(w->plan, &w->runs[i], 0, NULL, NULL) != CLRS_SUCCESS)
                w->failed = 1;
    return NULL;
}

static void two_threads(const problem *p)
{
    clrs_plan *plan = NULL;
    run runs[NRUNS];
    worker w[2];
    pthread_t th[2];
    size_t bad = 0;
    int i, ok = 1;

    memset(runs, 0, sizeof runs);
    if (clrs_plan_create_backward(&plan, env.ctx, p->op, p->xd, p->yd, NULL,
                                  p->xd) != CLRS_SUCCESS) {
        tap_diag("plan: %s", clrs_context_last_error(env.ctx));
        ok = 0;
    }
    for (i = 0; ok && i < NRUNS; ++i)
        ok = run_init(p, &runs[i], (uint64_t)(100 + i)) == 0;
    if (ok) {
        for (i = 0; i < 2; ++i) {
            w[i].plan = plan;
            w[i].runs = &runs[i * (NRUNS / 2)];
            w[i].n = NRUNS / 2;
            w[i].failed = 0;
            pthread_create(&th[i], NULL, work, &w[i]);
        }
        for (i = 0; i < 2; ++i) {
            pthread_join(th[i], NULL);
            ok = ok && !w[i].failed;
        }
        ok = ok && clFinish(env.queue) == CL_SUCCESS;
    }
    for (i = 0; ok && i < NRUNS; ++i)
        bad += compare(env.queue, p, &runs[i]);
    tap_ok(ok && bad == 0,
           "two threads, one recomputing plan, %d runs each: every "
           "result equals the reference (%zu elements differ)",
           4 * (NRUNS / 2), bad);
    for (i = 0; i < NRUNS; ++i)
        run_free(&runs[i]);
    clrs_plan_destroy(plan);
}

/* ---- events --------------------------------------------------------------- */

static cl_int event_status(cl_event e)
{
    cl_int s = -1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
    return s;
}

static void events(const problem *p)
{
    clrs_plan *plan = NULL;
    run r;
    cl_event gate = NULL, done = NULL;
    cl_int err;
    size_t bad;
    struct timespec pause = {0, 50 * 1000 * 1000};
    int ok = 1, held;

    memset(&r, 0, sizeof r);
    if (clrs_plan_create_backward(&plan, env.ctx, p->op, p->xd, p->yd, NULL,
                                  p->xd) != CLRS_SUCCESS ||
        run_init(p, &r, 7) != 0) {
        tap_ok(0, "events: setup");
        run_free(&r);
        clrs_plan_destroy(plan);
        return;
    }
    gate = clCreateUserEvent(env.cl, &err);
    ok = err == CL_SUCCESS &&
         execute(plan, &r, 1, &gate, &done) == CLRS_SUCCESS && done != NULL;
    if (ok) {
        clFlush(env.queue);
        nanosleep(&pause, NULL);
        held = event_status(done) != CL_COMPLETE;
        tap_ok(held, "events: both kernels wait for the caller's user event "
                     "(status %d after 50 ms)",
               (int)event_status(done));
        clSetUserEventStatus(gate, CL_COMPLETE);
        ok = clWaitForEvents(1, &done) == CL_SUCCESS &&
             event_status(done) == CL_COMPLETE;
        bad = ok ? compare(env.queue, p, &r) : 1;
        tap_ok(ok && bad == 0,
               "events: the returned event completes after the second "
               "kernel (dx equals the reference: %zu elements differ)",
               bad);
    } else {
        tap_ok(0, "events: execute with a wait list");
        tap_ok(0, "events: returned event");
        if (gate)
            clSetUserEventStatus(gate, CL_COMPLETE);
        clFinish(env.queue);
    }
    if (gate)
        clReleaseEvent(gate);
    if (done)
        clReleaseEvent(done);
    run_free(&r);
    clrs_plan_destroy(plan);
}

/* ---- context lifetime --------------------------------------------------- */

/* A plan keeps its context alive: destroying the context first only drops
 * the caller's handle, the plan still runs (on the context's queue) and
 * its destroy frees the context. Under AddressSanitizer a plan that did
 * not hold a reference is a use-after-free here. */
static void context_lifetime(const problem *p)
{
    clrs_context *own = NULL;
    clrs_plan *plan = NULL;
    cl_event done = NULL;
    clrs_status st;
    size_t bad = 1;
    run r;

    memset(&r, 0, sizeof r);
    if (clrs_context_create_from_cl(&own, env.cl, env.dev, env.queue) !=
            CLRS_SUCCESS ||
        clrs_plan_create_backward(&plan, own, p->op, p->xd, p->yd, NULL,
                                  p->xd) != CLRS_SUCCESS ||
        run_init(p, &r, 11) != 0) {
        tap_ok(0, "context lifetime: setup (%s)", clrs_last_error());
        run_free(&r);
        clrs_plan_destroy(plan);
        clrs_context_destroy(own);
        return;
    }
    clrs_context_destroy(own);
    st = execute(plan, &r, 0, NULL, &done);
    if (st == CLRS_SUCCESS && clWaitForEvents(1, &done) == CL_SUCCESS)
        bad = compare(env.queue, p, &r);
    tap_ok(st == CLRS_SUCCESS && bad == 0,
           "a plan executed after its context was destroyed runs and "
           "matches the reference (%s, %zu elements differ)",
           clrs_status_name(st), bad);
    if (done)
        clReleaseEvent(done);
    clrs_plan_destroy(plan); /* frees the context */
    run_free(&r);
}

/* ---- what clrs_execute checks of the caller's objects ---------------------- */

static void expect_exec(clrs_plan *plan, const clrs_args *a, cl_uint n,
                        const cl_event *w, clrs_status want,
                        const char *word, const char *what)
{
    clrs_status st = clrs_execute(plan, a, n, w, NULL);
    const char *msg = clrs_last_error();
    tap_ok(st == want && strstr(msg, word) != NULL, "%s: %s (%s)", what,
           clrs_status_name(st), msg);
}

/* A sub-buffer of parent at offset off, or NULL. */
static cl_mem sub(cl_mem parent, size_t off, size_t size)
{
    cl_buffer_region reg;
    cl_int err;
    cl_mem m;

    reg.origin = off;
    reg.size = size;
    m = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                          CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    return err == CL_SUCCESS ? m : NULL;
}

/* Sub-buffers of one parent: overlapping ones are refused, disjoint ones
 * run and match the reference. */
static void sub_buffers(clrs_plan *plan, const problem *p, run *r)
{
    cl_uint bits = 0;
    size_t align, off;
    cl_mem parent, dx = NULL, dy = NULL, keep;
    clrs_args a;
    cl_int err;

    clGetDeviceInfo(env.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits,
                    &bits, NULL);
    align = bits >= 8 ? bits / 8 : 128;
    off = (p->xbytes + align - 1) / align * align;
    parent = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, off + p->ybytes, NULL,
                            &err);
    memset(&a, 0, sizeof a);
    a.src = r->x_mem;
    if (parent && (dx = sub(parent, 0, p->xbytes)) != NULL &&
        (dy = sub(parent, align, p->ybytes)) != NULL) {
        a.diff_src = dx;
        a.diff_dst = dy;
        expect_exec(plan, &a, 0, NULL, CLRS_ERR_ALIASING, "overlap",
                    "diff_src and diff_dst sub-buffers of one buffer that "
                    "overlap");
        clReleaseMemObject(dy);
        dy = sub(parent, off, p->ybytes);
    } else {
        tap_ok(0, "overlapping sub-buffers: setup");
    }
    if (dy && clEnqueueWriteBuffer(env.queue, parent, CL_TRUE, off,
                                   p->ybytes, r->dy.data, 0, NULL,
                                   NULL) == CL_SUCCESS) {
        size_t bad;
        a.diff_dst = dy;
        keep = r->dx_mem;
        r->dx_mem = dx; /* compare() reads diff_src back from there */
        expect_exec(plan, &a, 0, NULL, CLRS_SUCCESS, "",
                    "disjoint sub-buffers of one buffer are accepted");
        bad = compare(env.queue, p, r);
        r->dx_mem = keep;
        tap_ok(bad == 0, "and the result equals the reference (%zu "
                         "elements differ)",
               bad);
    } else {
        tap_ok(0, "disjoint sub-buffers: setup");
    }
    if (dx)
        clReleaseMemObject(dx);
    if (dy)
        clReleaseMemObject(dy);
    if (parent)
        clReleaseMemObject(parent);
}

/* Objects of another cl_context, buffer flags against what the plan does
 * with them, a NULL event in the wait list. */
static void foreign_objects(clrs_plan *plan, const problem *p, run *r)
{
    cl_context other;
    cl_mem fm = NULL, ro = NULL, wo = NULL;
    cl_event fe = NULL, gate = NULL, wl[2];
    clrs_args a;
    cl_int err;

    other = clCreateContext(NULL, 1, &env.dev, NULL, NULL, &err);
    if (other) {
        fm = clCreateBuffer(other, CL_MEM_READ_WRITE, p->xbytes, NULL, &err);
        fe = clCreateUserEvent(other, &err);
    }
    gate = clCreateUserEvent(env.cl, &err);
    ro = clCreateBuffer(env.cl, CL_MEM_READ_ONLY, p->xbytes, NULL, &err);
    wo = clCreateBuffer(env.cl, CL_MEM_WRITE_ONLY, p->xbytes, NULL, &err);
    if (!fm || !fe || !gate || !ro || !wo) {
        tap_ok(0, "objects of another context: setup");
    } else {
        memset(&a, 0, sizeof a);
        a.src = fm;
        a.diff_dst = r->dy_mem;
        a.diff_src = r->dx_mem;
        expect_exec(plan, &a, 0, NULL, CLRS_ERR_INVALID_VALUE,
                    "another cl_context", "src buffer of another context");
        a.src = r->x_mem;
        expect_exec(plan, &a, 1, &fe, CLRS_ERR_INVALID_VALUE,
                    "wait_list[0] belongs to another cl_context",
                    "wait-list event of another context");
        wl[0] = gate;
        wl[1] = NULL;
        expect_exec(plan, &a, 2, wl, CLRS_ERR_NULL_POINTER,
                    "wait_list[1] is NULL", "a NULL event in the wait list");
        a.diff_src = ro;
        expect_exec(plan, &a, 0, NULL, CLRS_ERR_INVALID_VALUE,
                    "CL_MEM_READ_ONLY", "a CL_MEM_READ_ONLY diff_src");
        a.diff_src = r->dx_mem;
        a.src = wo;
        expect_exec(plan, &a, 0, NULL, CLRS_ERR_INVALID_VALUE,
                    "CL_MEM_WRITE_ONLY", "a CL_MEM_WRITE_ONLY src");
    }
    if (gate) {
        clSetUserEventStatus(gate, CL_COMPLETE);
        clReleaseEvent(gate);
    }
    if (fe) {
        clSetUserEventStatus(fe, CL_COMPLETE);
        clReleaseEvent(fe);
    }
    if (fm)
        clReleaseMemObject(fm);
    if (ro)
        clReleaseMemObject(ro);
    if (wo)
        clReleaseMemObject(wo);
    if (other)
        clReleaseContext(other);
}

static void execute_checks(const problem *p)
{
    clrs_plan *plan = NULL;
    run r;

    memset(&r, 0, sizeof r);
    if (clrs_plan_create_backward(&plan, env.ctx, p->op, p->xd, p->yd, NULL,
                                  p->xd) != CLRS_SUCCESS ||
        run_init(p, &r, 13) != 0) {
        tap_ok(0, "execute checks: setup");
    } else {
        foreign_objects(plan, p, &r);
        sub_buffers(plan, p, &r);
    }
    clFinish(env.queue);
    run_free(&r);
    clrs_plan_destroy(plan);
}

/* ---- plan info and argument errors ------------------------------------- */

static void info_and_errors(const problem *p)
{
    clrs_plan *plan = NULL;
    clrs_plan_info in;
    run r;
    clrs_args a;
    clrs_status st;
    size_t want_scratch = p->ybytes / sizeof(float); /* s8 window index */

    memset(&r, 0, sizeof r);
    if (clrs_plan_create_backward(&plan, env.ctx, p->op, p->xd, p->yd, NULL,
                                  p->xd) != CLRS_SUCCESS ||
        run_init(p, &r, 9) != 0 ||
        clrs_plan_get_info(plan, &in) != CLRS_SUCCESS) {
        tap_ok(0, "plan info: setup");
        run_free(&r);
        clrs_plan_destroy(plan);
        return;
    }
    tap_ok(in.kernels == 2 && in.scratch_bytes == want_scratch,
           "plan info: %d kernels, %zu scratch bytes (want 2, %zu)",
           in.kernels, in.scratch_bytes, want_scratch);

    memset(&a, 0, sizeof a);
    a.diff_dst = r.dy_mem;
    a.diff_src = r.dx_mem;
    st = clrs_execute(plan, &a, 0, NULL, NULL);
    tap_ok(st == CLRS_ERR_NULL_POINTER, "args->src NULL: %s (%s)",
           clrs_status_name(st), clrs_last_error());
    a.src = r.x_mem;
    a.index = r.dy_mem;
    st = clrs_execute(plan, &a, 0, NULL, NULL);
    tap_ok(st == CLRS_ERR_INVALID_VALUE, "args->index set: %s (%s)",
           clrs_status_name(st), clrs_last_error());
    a.index = NULL;
    a.diff_src = r.x_mem;
    st = clrs_execute(plan, &a, 0, NULL, NULL);
    tap_ok(st == CLRS_ERR_ALIASING, "diff_src is src: %s (%s)",
           clrs_status_name(st), clrs_last_error());
    clFinish(env.queue);
    run_free(&r);
    clrs_plan_destroy(plan);
}

/* Empty tensors (PyTorch's N = 0 or C = 0): a valid plan with no kernel
 * whose execution reads and writes nothing, takes NULL buffers, and
 * completes its event after the wait list; a resampled axis of size 0 is
 * refused; the reference accepts NULL host pointers for them. */
static void empty_tensors(void)
{
    static const int64_t n0[4] = {0, 3, 4, 4}, n0o[4] = {0, 3, 8, 8};
    static const int64_t c0[4] = {2, 0, 4, 4}, c0o[4] = {2, 0, 8, 8};
    static const int64_t h0[4] = {2, 3, 0, 4}, h0o[4] = {2, 3, 8, 8};
    clrs_tensor_desc *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    clrs_tensor_desc *e = NULL, *f = NULL;
    clrs_resample_desc *op = NULL;
    clrs_plan *plan = NULL, *bplan = NULL;
    clrs_plan_info info;
    clrs_args args;
    clrs_host_args h;
    cl_event ev = NULL, user = NULL;
    cl_int err, state = CL_QUEUED;
    clrs_status st;

    memset(&args, 0, sizeof args);
    memset(&h, 0, sizeof h);
    if (clrs_resample_desc_create(&op, CLRS_MODE_LINEAR) ||
        clrs_tensor_desc_create(&a, CLRS_F32, 4, n0, NULL) ||
        clrs_tensor_desc_create(&b, CLRS_F32, 4, n0o, NULL) ||
        clrs_tensor_desc_create_tag(&c, CLRS_F32, 4, c0, CLRS_TAG_ABX8B) ||
        clrs_tensor_desc_create_tag(&d, CLRS_F32, 4, c0o, CLRS_TAG_ABX8B) ||
        clrs_tensor_desc_create(&e, CLRS_F32, 4, h0, NULL) ||
        clrs_tensor_desc_create(&f, CLRS_F32, 4, h0o, NULL)) {
        tap_ok(0, "empty tensors: descriptors (%s)", clrs_last_error());
        goto out;
    }
    tap_ok(clrs_tensor_desc_bytes(a) == 0 && clrs_tensor_desc_bytes(d) == 0 &&
               clrs_tensor_desc_elements(a) == 0,
           "empty tensors: N = 0 and a blocked C = 0 hold no element, no "
           "byte");
    st = clrs_plan_create_forward(&plan, env.ctx, op, a, b, NULL);
    tap_ok(st == CLRS_SUCCESS && clrs_plan_get_info(plan, &info) == 0 &&
               info.kernels == 0,
           "empty tensors: N = 0 forward plans, with no kernel (%s)",
           clrs_status_name(st));
    if (st == CLRS_SUCCESS) {
        user = clCreateUserEvent(env.cl, &err);
        st = clrs_execute(plan, &args, user ? 1 : 0, user ? &user : NULL,
                          &ev);
        if (ev)
            clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                           sizeof state, &state, NULL);
        tap_ok(st == CLRS_SUCCESS && ev && user && state != CL_COMPLETE,
               "empty tensors: execution with NULL buffers enqueues an event "
               "that waits for the wait list");
        if (user)
            clSetUserEventStatus(user, CL_COMPLETE);
        tap_ok(ev && clWaitForEvents(1, &ev) == CL_SUCCESS,
               "empty tensors: ... and completes after it");
        if (ev)
            clReleaseEvent(ev);
        if (user)
            clReleaseEvent(user);
        tap_ok(clrs_execute(plan, &args, 0, NULL, NULL) == CLRS_SUCCESS,
               "empty tensors: execution without an event");
    }
    clrs_resample_desc_set_accumulate(op, 1);
    st = clrs_plan_create_backward(&bplan, env.ctx, op, c, d, NULL, NULL);
    tap_ok(st == CLRS_SUCCESS &&
               clrs_execute(bplan, &args, 0, NULL, NULL) == CLRS_SUCCESS,
           "empty tensors: blocked C = 0 backward, accumulating, plans and "
           "runs (%s)",
           clrs_status_name(st));
    h.diff_dst = NULL;
    h.diff_src = NULL;
    tap_ok(clrs_reference_backward(op, c, d, NULL, NULL, &h) ==
                   CLRS_SUCCESS &&
               clrs_reference_forward(op, a, b, NULL, &h) == CLRS_SUCCESS,
           "empty tensors: the reference runs them with NULL host pointers");
    clrs_plan_destroy(plan);
    plan = NULL;
    st = clrs_plan_create_forward(&plan, env.ctx, op, e, f, NULL);
    tap_ok(st == CLRS_ERR_BAD_DIMS && strstr(clrs_last_error(), ">= 1"),
           "empty tensors: a resampled axis of size 0 is refused: %s: %s",
           clrs_status_name(st), clrs_last_error());
out:
    clrs_plan_destroy(plan);
    clrs_plan_destroy(bplan);
    clrs_resample_desc_destroy(op);
    clrs_tensor_desc_destroy(a);
    clrs_tensor_desc_destroy(b);
    clrs_tensor_desc_destroy(c);
    clrs_tensor_desc_destroy(d);
    clrs_tensor_desc_destroy(e);
    clrs_tensor_desc_destroy(f);
}

/* ---- the roll variant by device class --------------------------------- */

/* Bicubic 2x up of 16 channels-last f32 channels, 9 x 11 -> 18 x 22: a
 * separable plan by default on every device class. Its passes run as
 * one kernel (the roll variant) by default, but on an Intel CPU (the
 * device class cpu-intel in launch.c, read here from the device's type
 * and vendor id) they run as passes. */
/* The info of the default forward plan of mode from 4-D channels-last
 * f32 sdims to ddims into *in (zeroed first); 1 where every step
 * succeeded. */
static int axb_plan_info(clrs_mode mode, const int64_t sdims[4],
                         const int64_t ddims[4], clrs_plan_info *in)
{
    clrs_resample_desc *op = NULL;
    clrs_tensor_desc *sd = NULL, *dd = NULL;
    clrs_plan *plan = NULL;
    int ok;

    memset(in, 0, sizeof *in);
    ok = clrs_resample_desc_create(&op, mode) == CLRS_SUCCESS &&
         clrs_tensor_desc_create_tag(&sd, CLRS_F32, 4, sdims, CLRS_TAG_AXB) ==
             CLRS_SUCCESS &&
         clrs_tensor_desc_create_tag(&dd, CLRS_F32, 4, ddims, CLRS_TAG_AXB) ==
             CLRS_SUCCESS &&
         clrs_plan_create_forward(&plan, env.ctx, op, sd, dd, NULL) ==
             CLRS_SUCCESS &&
         clrs_plan_get_info(plan, in) == CLRS_SUCCESS;
    clrs_plan_destroy(plan);
    clrs_tensor_desc_destroy(sd);
    clrs_tensor_desc_destroy(dd);
    clrs_resample_desc_destroy(op);
    return ok;
}

static void roll_default(void)
{
    static const int64_t sdims[4] = {1, 16, 9, 11}, ddims[4] = {1, 16, 18, 22};
    const int intel_cpu = td_intel_cpu(&env);
    clrs_plan_info in;
    const int ok = axb_plan_info(CLRS_MODE_CUBIC, sdims, ddims, &in);

    tap_ok(ok && in.separable &&
               (intel_cpu ? in.kernels == 2 && strcmp(in.variant, "roll") != 0
                          : in.kernels == 1 && strcmp(in.variant, "roll") == 0),
           "bicubic 2x up, 16 channels-last channels: separable %d, %d "
           "kernels, variant %s (want %s)",
           in.separable, in.kernels, in.variant ? in.variant : "?",
           intel_cpu ? "the passes on an Intel CPU" : "the roll kernel");
}

/* The work-group of an axis kernel of one row a work-item, where the
 * driver would choose: on a device other than a GPU, channels-last
 * bilinear 2x up of 64 f32 channels (four vectors a pixel, 4 x 40 x 40
 * work-items) takes a pixel's four vectors in one work-group, at most
 * 512 work-items (launch.c's axis_group); a GPU's class shapes its
 * groups itself. */
static void axis_group_default(void)
{
    static const int64_t sdims[4] = {1, 64, 20, 20}, ddims[4] = {1, 64, 40, 40};
    const int gpu = (td_device_kind(&env) & CL_DEVICE_TYPE_GPU) != 0;
    clrs_plan_info in;
    const int ok = axb_plan_info(CLRS_MODE_LINEAR, sdims, ddims, &in);
    size_t items;

    items = in.local_size[0] * in.local_size[1] * in.local_size[2];
    if (ok && (gpu || strcmp(in.variant, "axis") != 0 ||
               in.vector_lanes != 16 || in.vector_count != 1)) {
        tap_diag("axis work-group: %s, %d x %d lanes", in.variant,
                 in.vector_count, in.vector_lanes);
        tap_skip("axis work-group: a GPU, or not one vector of 16 lanes on "
                 "the axis path");
    } else
        tap_ok(ok && in.local_size[0] == 4 && items >= 4 && items <= 512,
               "axis work-group: bilinear 2x up, 64 channels-last channels: "
               "local %zux%zux%zu (want the pixel's 4 vectors along x, at "
               "most 512 work-items)",
               in.local_size[0], in.local_size[1], in.local_size[2]);
}

/* ---- a user workspace ------------------------------------------------ */

/* A separable plan of three passes (CLRS_LAUNCH=sep=1): trilinear
 * 1 x 2 x 5 x 6 x 7 -> 1 x 2 x 9 x 4 x 11, f32 dense. The passes shrink h
 * (6 -> 4) first, then grow w (7 -> 11), then d (5 -> 9): intermediates of
 * 1 x 2 x 5 x 4 x 7 and 1 x 2 x 5 x 4 x 11 floats. */
static const int64_t wsrc[5] = {1, 2, 5, 6, 7}, wdst[5] = {1, 2, 9, 4, 11};
#define WS_MID0 (2 * 5 * 4 * 7 * sizeof(float))
#define WS_MID1 (2 * 5 * 4 * 11 * sizeof(float))

typedef struct wscase {
    clrs_context *ctx; /* CLRS_LAUNCH=sep=1 */
    clrs_resample_desc *op;
    clrs_tensor_desc *sd, *dd;
    size_t sbytes, dbytes, align;
    tu_buf src, want;
    double *bound;
    cl_mem src_mem, lib_dst, user_dst;
} wscase;

static int wscase_init(wscase *c)
{
    clrs_host_args ha;
    cl_uint bits = 0;
    tu_rng g;

    memset(c, 0, sizeof *c);
    c->ctx = td_context_with(&env, "CLRS_LAUNCH", "sep=1");
    if (clrs_resample_desc_create(&c->op, CLRS_MODE_LINEAR) ||
        clrs_tensor_desc_create(&c->sd, CLRS_F32, 5, wsrc, NULL) ||
        clrs_tensor_desc_create(&c->dd, CLRS_F32, 5, wdst, NULL) ||
        tu_buf_alloc(&c->src, c->sd) || tu_buf_alloc(&c->want, c->dd))
        return -1;
    c->sbytes = clrs_tensor_desc_bytes(c->sd);
    c->dbytes = clrs_tensor_desc_bytes(c->dd);
    tu_rng_seed(&g, UINT64_C(0x5E9A));
    tu_fill_sixteenths(&c->src, &g, -64, 64);
    c->bound = td_bound_alloc(&c->want);
    memset(&ha, 0, sizeof ha);
    ha.src = c->src.data;
    ha.dst = c->want.data;
    if (!c->bound ||
        clrs_reference_forward_bound(c->op, c->sd, c->dd, NULL, &ha, c->bound))
        return -1;
    clGetDeviceInfo(env.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits,
                    NULL);
    c->align = bits >= 8 ? bits / 8 : 1;
    c->src_mem = buffer(c->src.data, c->sbytes);
    c->lib_dst = buffer(c->want.data, c->dbytes);
    c->user_dst = buffer(c->want.data, c->dbytes);
    return c->src_mem && c->lib_dst && c->user_dst ? 0 : -1;
}

static void wscase_free(wscase *c)
{
    cl_mem m[3] = {c->src_mem, c->lib_dst, c->user_dst};
    int i;

    for (i = 0; i < 3; ++i)
        if (m[i])
            clReleaseMemObject(m[i]);
    free(c->bound);
    tu_buf_free(&c->src);
    tu_buf_free(&c->want);
    clrs_tensor_desc_destroy(c->sd);
    clrs_tensor_desc_destroy(c->dd);
    clrs_resample_desc_destroy(c->op);
    clrs_context_destroy(c->ctx);
}

/* Fills a buffer with the byte b (NaN for 0xFF floats). */
static int fill(cl_mem m, size_t bytes, unsigned char b)
{
    return clEnqueueFillBuffer(env.queue, m, &b, 1, 0, bytes, 0, NULL, NULL) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

/* The bytes of m, read after the queue's work (malloc'd; NULL on a
 * failure). */
static unsigned char *read_all(cl_mem m, size_t bytes)
{
    unsigned char *h = malloc(bytes);
    if (h && clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, bytes, h, 0, NULL,
                                 NULL) != CL_SUCCESS) {
        free(h);
        h = NULL;
    }
    return h;
}

static clrs_status ws_run(clrs_plan *plan, const wscase *c, cl_mem dst,
                          cl_mem ws)
{
    clrs_args a;
    memset(&a, 0, sizeof a);
    a.src = c->src_mem;
    a.dst = dst;
    a.workspace = ws;
    return clrs_execute(plan, &a, 0, NULL, NULL);
}

/* The plan's output in dst against the reference within the bound. */
static int64_t ws_check(const wscase *c, cl_mem dst, const char *what)
{
    tu_buf got;
    int64_t bad = -1;

    if (tu_buf_alloc(&got, c->dd) == 0) {
        if (clEnqueueReadBuffer(env.queue, dst, CL_TRUE, 0, c->dbytes, got.data,
                                0, NULL, NULL) == CL_SUCCESS)
            bad = td_compare(&got, &c->want, c->bound, what, NULL);
        tu_buf_free(&got);
    }
    return bad;
}

/* The same separable problem with the plan's scratch and with a caller's
 * workspace: what each reports, the same output bits, the workspace a
 * sub-buffer at an offset of a bigger buffer whose other bytes no pass
 * touches. */
static void ws_separable(wscase *c, clrs_plan **lib, clrs_plan **user,
                         size_t *need)
{
    clrs_plan_info li, ui;
    size_t want = (WS_MID0 + c->align - 1) / c->align * c->align + WS_MID1;
    size_t head = 2 * c->align, total, i, stray = 0;
    cl_mem parent = NULL, ws = NULL;
    unsigned char *a = NULL, *b = NULL, *all = NULL;
    cl_int err;

    *need = 0;
    if (clrs_plan_create_forward(lib, c->ctx, c->op, c->sd, c->dd, NULL) ||
        clrs_resample_desc_set_user_workspace(c->op, 1) ||
        clrs_plan_create_forward(user, c->ctx, c->op, c->sd, c->dd, NULL) ||
        clrs_plan_get_info(*lib, &li) || clrs_plan_get_info(*user, &ui)) {
        tap_ok(0, "user workspace: plans (%s)", clrs_last_error());
        clrs_resample_desc_set_user_workspace(c->op, 0);
        return;
    }
    clrs_resample_desc_set_user_workspace(c->op, 0);
    tap_ok(li.separable && li.kernels == 3 &&
               li.scratch_bytes == WS_MID0 + WS_MID1 && li.workspace_bytes == 0,
           "user workspace: a plan of its own scratch holds %zu bytes "
           "(want %zu) and takes no workspace (%zu)",
           li.scratch_bytes, (size_t)(WS_MID0 + WS_MID1), li.workspace_bytes);
    tap_ok(ui.separable && ui.kernels == 3 && ui.scratch_bytes == 0 &&
               ui.workspace_bytes == want,
           "user workspace: the plan holds none (%zu) and asks for %zu "
           "bytes (want %zu: both intermediates, the second at the "
           "device's base alignment)",
           ui.scratch_bytes, ui.workspace_bytes, want);
    *need = ui.workspace_bytes;

    total = head + want + c->align;
    parent = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, total, NULL, &err);
    if (parent)
        ws = sub(parent, head, want);
    if (!ws || fill(parent, total, 0xA5) || fill(c->lib_dst, c->dbytes, 0xFF) ||
        fill(c->user_dst, c->dbytes, 0xFF) ||
        ws_run(*lib, c, c->lib_dst, NULL) != CLRS_SUCCESS ||
        ws_run(*user, c, c->user_dst, ws) != CLRS_SUCCESS ||
        !(a = read_all(c->lib_dst, c->dbytes)) ||
        !(b = read_all(c->user_dst, c->dbytes)) ||
        !(all = read_all(parent, total))) {
        tap_ok(0, "user workspace: runs (%s)", clrs_last_error());
    } else {
        int64_t bad = ws_check(c, c->user_dst, "user workspace");
        tap_ok(bad == 0,
               "user workspace: the output agrees with the "
               "reference (%" PRId64 " elements do not)",
               bad);
        tap_ok(memcmp(a, b, c->dbytes) == 0,
               "user workspace: the same bits as the plan's own scratch");
        for (i = 0; i < total; ++i)
            stray += (i < head || i >= head + want) && all[i] != 0xA5;
        tap_ok(stray == 0,
               "user workspace: a sub-buffer at offset %zu "
               "works and no byte around it changes (%zu do)",
               head, stray);
    }
    free(a);
    free(b);
    free(all);
    if (ws)
        clReleaseMemObject(ws);
    if (parent)
        clReleaseMemObject(parent);
}

/* One workspace for two plans, runs alternating on the in-order queue:
 * the separable forward and max pooling backward's argmax index. */
static void ws_shared(wscase *c, clrs_plan *user, size_t need, const problem *p)
{
    clrs_plan *maxb = NULL;
    clrs_plan_info mi;
    run r;
    cl_mem ws = NULL;
    unsigned char *a = NULL, *b = NULL;
    size_t bytes, bad = 1;
    cl_int err;
    int i, ok;

    memset(&r, 0, sizeof r);
    ok = clrs_resample_desc_set_user_workspace(p->op, 1) == CLRS_SUCCESS &&
         clrs_plan_create_backward(&maxb, env.ctx, p->op, p->xd, p->yd, NULL,
                                   p->xd) == CLRS_SUCCESS &&
         clrs_plan_get_info(maxb, &mi) == CLRS_SUCCESS;
    clrs_resample_desc_set_user_workspace(p->op, 0);
    tap_ok(ok && mi.kernels == 2 && mi.scratch_bytes == 0 &&
               mi.workspace_bytes == p->ybytes / sizeof(float),
           "user workspace: max pooling backward holds no scratch and asks "
           "for %zu bytes (want %zu: its s8 argmax index)",
           ok ? mi.workspace_bytes : 0, p->ybytes / sizeof(float));
    bytes = need > mi.workspace_bytes ? need : mi.workspace_bytes;
    if (ok)
        ws = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    ok = ok && ws && run_init(p, &r, 21) == 0 &&
         fill(c->user_dst, c->dbytes, 0xFF) == 0;
    for (i = 0; ok && i < 3; ++i) {
        clrs_args ma;
        memset(&ma, 0, sizeof ma);
        ma.src = r.x_mem;
        ma.diff_dst = r.dy_mem;
        ma.diff_src = r.dx_mem;
        ma.workspace = ws;
        ok = ws_run(user, c, c->user_dst, ws) == CLRS_SUCCESS &&
             clrs_execute(maxb, &ma, 0, NULL, NULL) == CLRS_SUCCESS;
    }
    if (ok) {
        bad = compare(env.queue, p, &r);
        a = read_all(c->lib_dst, c->dbytes);
        b = read_all(c->user_dst, c->dbytes);
    }
    tap_ok(ok && bad == 0 && a && b && memcmp(a, b, c->dbytes) == 0,
           "user workspace: two plans share one, runs alternating: both "
           "outputs right (%zu max pooling elements differ)",
           bad);
    free(a);
    free(b);
    if (ws)
        clReleaseMemObject(ws);
    clFinish(env.queue);
    run_free(&r);
    clrs_plan_destroy(maxb);
}

/* What clrs_execute says of a missing, small, foreign, read-only or
 * aliased workspace, and of one given to a plan that takes none. */
static void ws_errors(wscase *c, clrs_plan *lib, clrs_plan *user, size_t need)
{
    cl_context other;
    cl_mem small = NULL, fm = NULL, ro = NULL, ok = NULL, big = NULL;
    clrs_plan *whole = NULL;
    clrs_context *one = NULL;
    clrs_args a;
    cl_int err;

    other = clCreateContext(NULL, 1, &env.dev, NULL, NULL, &err);
    if (other)
        fm = clCreateBuffer(other, CL_MEM_READ_WRITE, need, NULL, &err);
    small = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, need - 1, NULL, &err);
    ro = clCreateBuffer(env.cl, CL_MEM_READ_ONLY, need, NULL, &err);
    ok = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, need, NULL, &err);
    big = clCreateBuffer(env.cl, CL_MEM_READ_WRITE,
                         need > c->dbytes ? need : c->dbytes, NULL, &err);
    if (!fm || !small || !ro || !ok || !big) {
        tap_ok(0, "user workspace errors: setup");
        goto out;
    }
    memset(&a, 0, sizeof a);
    a.src = c->src_mem;
    a.dst = c->user_dst;
    expect_exec(user, &a, 0, NULL, CLRS_ERR_NULL_POINTER,
                "args->workspace is NULL", "user workspace: none given");
    a.workspace = small;
    expect_exec(user, &a, 0, NULL, CLRS_ERR_BUFFER_TOO_SMALL,
                "args->workspace buffer holds",
                "user workspace: one byte too small");
    a.workspace = fm;
    expect_exec(user, &a, 0, NULL, CLRS_ERR_INVALID_VALUE, "another cl_context",
                "user workspace: of another context");
    a.workspace = ro;
    expect_exec(user, &a, 0, NULL, CLRS_ERR_INVALID_VALUE, "CL_MEM_READ_ONLY",
                "user workspace: CL_MEM_READ_ONLY");
    a.workspace = big;
    a.dst = big;
    expect_exec(user, &a, 0, NULL, CLRS_ERR_ALIASING, "workspace",
                "user workspace: the dst buffer as well");
    a.dst = c->user_dst;
    a.workspace = ok;
    expect_exec(lib, &a, 0, NULL, CLRS_ERR_INVALID_VALUE, "does not use it",
                "user workspace: given to a plan of its own scratch");
    /* A single pass needs none even when asked to take the caller's. */
    one = td_context_with(&env, "CLRS_LAUNCH", "sep=0");
    if (clrs_resample_desc_set_user_workspace(c->op, 1) ||
        clrs_plan_create_forward(&whole, one, c->op, c->sd, c->dd, NULL)) {
        tap_ok(0, "user workspace: single-pass plan (%s)", clrs_last_error());
    } else {
        clrs_plan_info wi;
        clrs_plan_get_info(whole, &wi);
        tap_ok(!wi.separable && wi.workspace_bytes == 0 &&
                   wi.scratch_bytes == 0,
               "user workspace: a single pass asks for none (%zu bytes)",
               wi.workspace_bytes);
        expect_exec(whole, &a, 0, NULL, CLRS_ERR_INVALID_VALUE,
                    "does not use it",
                    "user workspace: given to a plan that needs none");
    }
    clrs_resample_desc_set_user_workspace(c->op, 0);
out:
    clFinish(env.queue);
    clrs_plan_destroy(whole);
    clrs_context_destroy(one);
    if (fm)
        clReleaseMemObject(fm);
    if (small)
        clReleaseMemObject(small);
    if (ro)
        clReleaseMemObject(ro);
    if (ok)
        clReleaseMemObject(ok);
    if (big)
        clReleaseMemObject(big);
    if (other)
        clReleaseContext(other);
}

static void user_workspace(const problem *p)
{
    wscase c;
    clrs_plan *lib = NULL, *user = NULL;
    size_t need = 0;

    if (wscase_init(&c) != 0) {
        tap_ok(0, "user workspace: setup (%s)", clrs_last_error());
    } else {
        ws_separable(&c, &lib, &user, &need);
        if (need) {
            ws_shared(&c, user, need, p);
            ws_errors(&c, lib, user, need);
        }
    }
    clFinish(env.queue);
    clrs_plan_destroy(lib);
    clrs_plan_destroy(user);
    wscase_free(&c);
}

int main(void)
{
    problem p;
    cl_command_queue_properties props = 0;

    td_open(&env);
    if (problem_init(&p) != 0) {
        printf("Bail out! problem setup\n");
        return 1;
    }
    back_to_back(env.ctx, env.queue, &p, "in-order queue");

    clGetDeviceInfo(env.dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props,
                    NULL);
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        cl_int err;
        clrs_context *ooo = NULL;
        cl_command_queue q = clCreateCommandQueue(
            env.cl, env.dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        if (err == CL_SUCCESS &&
            clrs_context_create_from_cl(&ooo, env.cl, env.dev, q) ==
                CLRS_SUCCESS)
            back_to_back(ooo, q, &p, "out-of-order queue");
        else
            tap_ok(0, "out-of-order queue: context (%d: %s)", (int)err,
                   clrs_last_error());
        clrs_context_destroy(ooo);
        if (err == CL_SUCCESS)
            clReleaseCommandQueue(q);
    } else {
        tap_skip("the device has no out-of-order queues");
    }
    two_threads(&p);
    events(&p);
    context_lifetime(&p);
    execute_checks(&p);
    info_and_errors(&p);
    user_workspace(&p);
    roll_default();
    axis_group_default();
    empty_tensors();
    problem_free(&p);
    td_close(&env);
    return tap_done();
}
