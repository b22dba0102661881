/* Device helpers for the OpenCL tests (see devutil.h): every byte the
 * device holds is known before a run, so any byte a kernel writes where it
 * should not, or fails to write where it should, shows afterwards. */
#include "devutil.h"
#include "tap.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bail(const char *what, clrs_status st, const char *detail)
{
    printf("Bail out! %s: %s: %s\n", what, clrs_status_name(st), detail);
    fflush(stdout);
    exit(1);
}

void td_open(td_env *e)
{
    clrs_status st;
    cl_uint align_bits = 0;

    memset(e, 0, sizeof *e);
    st = clrs_context_create(&e->ctx, NULL);
    if (st == CLRS_ERR_NO_DEVICE)
        tap_skip_all("no OpenCL device");
    if (st != CLRS_SUCCESS)
        bail("clrs_context_create", st, clrs_last_error());
    st = clrs_context_get_cl(e->ctx, &e->cl, &e->dev, &e->queue);
    if (st != CLRS_SUCCESS)
        bail("clrs_context_get_cl", st, clrs_last_error());
    st = clrs_context_get_device_info(e->ctx, &e->info);
    if (st != CLRS_SUCCESS)
        bail("clrs_context_get_device_info", st, clrs_last_error());
    /* The head margin sits before a sub-buffer, whose origin must be a
     * multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits). */
    e->head = TD_MARGIN;
    if (clGetDeviceInfo(e->dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                        sizeof align_bits, &align_bits, NULL) == CL_SUCCESS &&
        align_bits / 8 > 0) {
        size_t a = align_bits / 8;
        e->head = (TD_MARGIN + a - 1) / a * a;
    }
    e->main = e->ctx;
    tap_diag("device: %s / %s (%s), fp64 %s", e->info.platform_name,
             e->info.device_name, e->info.device_version,
             e->info.has_fp64 ? "yes" : "no");
}

void td_close(td_env *e)
{
    clrs_cache_stats cs;
    tap_diag("%u plans in %.2f s, %u runs in %.2f s (%u runs over 20 ms: "
             "%.2f s)",
             e->plans, e->plan_s, e->runs, e->run_s, e->slow_runs,
             e->slow_run_s);
    e->ctx = e->main;
    if (clrs_context_get_cache_stats(e->ctx, &cs) == CLRS_SUCCESS)
        tap_diag("program cache: %" PRIu64 " memory hits, %" PRIu64
                 " disk hits, %" PRIu64 " builds in %.2f s",
                 cs.memory_hits, cs.disk_hits, cs.builds,
                 cs.build_ms / 1000.0);
    clrs_context_destroy(e->generic);
    clrs_context_destroy(e->main);
    memset(e, 0, sizeof *e);
}

clrs_context *td_context_with(td_env *e, const char *name, const char *value)
{
    const char *old = getenv(name);
    char *saved = old ? strdup(old) : NULL;
    clrs_context *c = NULL;
    clrs_status st;

    if (old && !saved)
        bail("td_context_with", CLRS_ERR_OUT_OF_MEMORY, "strdup");
    setenv(name, value, 1);
    st = clrs_context_create_from_cl(&c, e->cl, e->dev, e->queue);
    if (saved)
        setenv(name, saved, 1);
    else
        unsetenv(name);
    free(saved);
    if (st != CLRS_SUCCESS)
        bail("clrs_context_create_from_cl", st, clrs_last_error());
    return c;
}

void td_generic(td_env *e, int on)
{
    if (on && !e->generic)
        e->generic = td_context_with(e, "CLRS_GENERIC", "1");
    e->ctx = on ? e->generic : e->main;
}

cl_device_type td_device_kind(const td_env *e)
{
    const cl_device_type kinds =
        CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR;
    cl_device_type type = 0;

    clGetDeviceInfo(e->dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    type &= kinds;
    return type == CL_DEVICE_TYPE_CPU || type == CL_DEVICE_TYPE_GPU ||
                   type == CL_DEVICE_TYPE_ACCELERATOR
               ? type
               : 0;
}

int td_intel_cpu(const td_env *e)
{
    cl_uint vendor = 0;

    clGetDeviceInfo(e->dev, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor,
                    NULL);
    return td_device_kind(e) == CL_DEVICE_TYPE_CPU && vendor == 0x8086;
}

/* ---- buffers -------------------------------------------------------- */

static size_t dt_size(clrs_dtype dt)
{
    return clrs_dtype_size(dt);
}

/* Sentinel bytes: position dependent, so a shifted copy shows too. */
static unsigned char sentinel(size_t i)
{
    return (unsigned char)(0x3Cu ^ (unsigned)(i * 13u) ^ (unsigned)(i >> 8));
}

void td_poison_elem(unsigned char *p, clrs_dtype dt, int pattern)
{
    /* Pattern 0 is util.c's poison; pattern 1 is another quiet NaN (sign
     * set, other payload) and for integers a byte no index can be. */
    static const uint32_t f32[2] = {UINT32_C(0x7FC5A5A5),
                                    UINT32_C(0xFFE1B2C3)};
    static const uint64_t f64[2] = {UINT64_C(0x7FF8A5A5A5A5A5A5),
                                    UINT64_C(0xFFFC3B2A1908F7E6)};
    static const uint16_t f16[2] = {0x7E5A, 0xFE3C};
    static const uint16_t bf16[2] = {0x7FC5, 0xFFE1};
    pattern = pattern ? 1 : 0;
    switch (dt) {
    case CLRS_F32:
        memcpy(p, &f32[pattern], 4);
        break;
    case CLRS_F64:
        memcpy(p, &f64[pattern], 8);
        break;
    case CLRS_F16:
        memcpy(p, &f16[pattern], 2);
        break;
    case CLRS_BF16:
        memcpy(p, &bf16[pattern], 2);
        break;
    default:
        memset(p, pattern ? 0xA5 : 0x5A, dt_size(dt));
        break;
    }
}

static void cl_fail(const char *call, cl_int err)
{
    tap_diag("%s failed: OpenCL error %d", call, (int)err);
}

int td_buf_create(td_env *e, td_buf *d, const tu_buf *layout)
{
    cl_int err;
    cl_buffer_region reg;

    memset(d, 0, sizeof *d);
    d->layout = layout;
    d->span = layout->bytes;
    d->head = e->head;
    d->total = d->head + d->span + TD_MARGIN;
    d->sent = malloc(d->total);
    d->img = malloc(d->total);
    if (!d->sent || !d->img) {
        tap_diag("td_buf_create: out of memory");
        td_buf_release(d);
        return -1;
    }
    d->parent = clCreateBuffer(e->cl, CL_MEM_READ_WRITE, d->total, NULL, &err);
    if (!d->parent) {
        cl_fail("clCreateBuffer", err);
        td_buf_release(d);
        return -1;
    }
    if (d->head == 0) {
        d->mem = d->parent;
        clRetainMemObject(d->mem);
        return 0;
    }
    reg.origin = d->head;
    reg.size = d->span + TD_MARGIN;
    d->mem = clCreateSubBuffer(d->parent, CL_MEM_READ_WRITE,
                               CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    if (!d->mem) {
        cl_fail("clCreateSubBuffer", err);
        td_buf_release(d);
        return -1;
    }
    return 0;
}

void td_buf_release(td_buf *d)
{
    if (d->mem)
        clReleaseMemObject(d->mem);
    if (d->parent)
        clReleaseMemObject(d->parent);
    free(d->sent);
    free(d->img);
    memset(d, 0, sizeof *d);
}

static void margins(td_buf *d)
{
    size_t i;
    for (i = 0; i < d->head; ++i)
        d->sent[i] = sentinel(i);
    for (i = d->head + d->span; i < d->total; ++i)
        d->sent[i] = sentinel(i);
}

static int upload(td_env *e, td_buf *d)
{
    cl_int err = clEnqueueWriteBuffer(e->queue, d->parent, CL_TRUE, 0,
                                      d->total, d->sent, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        cl_fail("clEnqueueWriteBuffer", err);
        return -1;
    }
    return 0;
}

int td_write_input(td_env *e, td_buf *d, const tu_buf *src)
{
    margins(d);
    memcpy(d->sent + d->head, src->data, d->span);
    return upload(e, d);
}

int td_write_poison(td_env *e, td_buf *d, int pattern)
{
    clrs_dtype dt = d->layout->dtype;
    size_t es = dt_size(dt), i;
    margins(d);
    for (i = 0; i + es <= d->span; i += es)
        td_poison_elem(d->sent + d->head + i, dt, pattern);
    return upload(e, d);
}

int td_read(td_env *e, td_buf *d, tu_buf *into)
{
    cl_int err = clEnqueueReadBuffer(e->queue, d->parent, CL_TRUE, 0,
                                     d->total, d->img, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        cl_fail("clEnqueueReadBuffer", err);
        return -1;
    }
    if (into)
        memcpy(into->data, d->img + d->head, d->span);
    return 0;
}

/* Offset relative to the tensor start, for messages. */
static long rel(const td_buf *d, size_t i)
{
    return (long)i - (long)d->head;
}

size_t td_check_input(const td_buf *d, const char *what)
{
    size_t i, bad = 0;
    for (i = 0; i < d->total; ++i)
        if (d->img[i] != d->sent[i]) {
            if (!bad++)
                tap_diag("%s: input byte %ld (relative to the tensor) "
                         "changed from 0x%02x to 0x%02x",
                         what, rel(d, i), d->sent[i], d->img[i]);
        }
    return bad;
}

size_t td_check_output(const td_buf *d, int pattern, const tu_buf *expected,
                       const char *what)
{
    const tu_buf *l = d->layout;
    size_t es = dt_size(l->dtype), i, margin_bad = 0, gap_bad = 0;
    size_t unwritten = 0;
    unsigned char poison[8];
    int64_t idx[CLRS_MAX_RANK];

    for (i = 0; i < d->total; ++i) {
        int in_span = i >= d->head && i < d->head + d->span;
        if (in_span && l->logical[i - d->head])
            continue;
        /* Blocked outputs: padded lanes are written as zeros. */
        if (in_span && l->zero_gaps ? d->img[i] == 0
                                    : d->img[i] == d->sent[i])
            continue;
        if (in_span) {
            if (!gap_bad++)
                tap_diag("%s: gap byte %ld (no logical element) %s: "
                         "0x%02x -> 0x%02x",
                         what, rel(d, i),
                         l->zero_gaps ? "not zeroed" : "written",
                         d->sent[i], d->img[i]);
        } else if (!margin_bad++) {
            tap_diag("%s: sentinel byte %ld (relative to the tensor, span "
                     "%zu) overwritten: 0x%02x -> 0x%02x",
                     what, rel(d, i), d->span, d->sent[i], d->img[i]);
        }
    }
    td_poison_elem(poison, l->dtype, pattern);
    if (tu_idx_first(l->rank, l->dims, idx))
        do {
            size_t off = (size_t)tu_buf_offset(l, idx) * es;
            if (memcmp(d->img + d->head + off, poison, es) != 0)
                continue;
            /* A legitimate value equal to the poison: the run with the
             * other pattern decides. */
            if (expected &&
                memcmp(expected->data + (size_t)tu_buf_offset(expected, idx) *
                                            es,
                       poison, es) == 0)
                continue;
            if (!unwritten++) {
                int k;
                char s[128];
                size_t n = 0;
                s[0] = '\0';
                for (k = 0; k < l->rank && n < sizeof s; ++k)
                    n += (size_t)snprintf(s + n, sizeof s - n, "%s%" PRId64,
                                          k ? "," : "", idx[k]);
                tap_diag("%s: element (%s) never written (still poison %d)",
                         what, s, pattern);
            }
        } while (tu_idx_next(l->rank, l->dims, idx));
    if (margin_bad > 1 || gap_bad > 1 || unwritten > 1)
        tap_diag("%s: %zu sentinel bytes, %zu gap bytes, %zu unwritten "
                 "elements in all",
                 what, margin_bad, gap_bad, unwritten);
    return margin_bad + gap_bad + unwritten;
}

/* Logical bytes where two images of the same layout differ. */
static size_t differing(const td_buf *d, const unsigned char *a,
                        const unsigned char *b, const char *what)
{
    size_t i, n = 0;
    for (i = 0; i < d->span; ++i)
        if (d->layout->logical[i] && a[i] != b[i]) {
            if (!n++)
                tap_diag("%s: run 2 differs from run 1 at byte %zu: 0x%02x "
                         "vs 0x%02x",
                         what, i, a[i], b[i]);
        }
    return n;
}

/* ---- forward runs ---------------------------------------------------- */

int td_result_ok(const td_result *r)
{
    return r->plan_status == CLRS_SUCCESS && r->exec_status == CLRS_SUCCESS &&
           !r->cl_error && r->integrity == 0 && r->nondeterministic == 0;
}

void td_result_print(const td_result *r, const td_env *e)
{
    if (r->plan_status != CLRS_SUCCESS)
        tap_diag("plan: %s: %s", clrs_status_name(r->plan_status),
                 clrs_context_last_error(e->ctx));
    if (r->exec_status != CLRS_SUCCESS)
        tap_diag("execute: %s: %s", clrs_status_name(r->exec_status),
                 clrs_context_last_error(e->ctx));
    if (r->cl_error)
        tap_diag("an OpenCL call of the test failed");
    if (r->integrity)
        tap_diag("%zu margin/gap/unwritten/input problems", r->integrity);
    if (r->nondeterministic)
        tap_diag("%zu bytes differ between two identical runs",
                 r->nondeterministic);
}

/* One execute, waited on through its event. */
static clrs_status run_once(td_env *e, clrs_plan *plan, const clrs_args *a,
                            int *cl_error)
{
    cl_event ev = NULL;
    cl_int err, evst = CL_QUEUED;
    double t0 = now_s();
    clrs_status st = clrs_execute(plan, a, 0, NULL, &ev);
    if (st != CLRS_SUCCESS)
        return st;
    if (!ev) {
        tap_diag("clrs_execute succeeded but returned no event");
        *cl_error = 1;
        return st;
    }
    err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS)
        err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                             sizeof evst, &evst, NULL);
    if (err != CL_SUCCESS || evst != CL_COMPLETE) {
        tap_diag("execute event: error %d, status %d", (int)err, (int)evst);
        *cl_error = 1;
    }
    clReleaseEvent(ev);
    e->runs++;
    t0 = now_s() - t0;
    e->run_s += t0;
    if (t0 > 0.02) { /* PoCL compiles a work-group function at first use */
        e->slow_runs++;
        e->slow_run_s += t0;
    }
    return st;
}

int td_forward(td_env *e, const clrs_resample_desc *op, const tu_buf *src,
               tu_buf *dst, tu_buf *index, const tu_buf *expected_dst,
               const tu_buf *expected_index, td_result *res)
{
    return td_forward_post(e, op, src, dst, index, expected_dst,
                           expected_index, NULL, NULL, res);
}

int td_forward_post(td_env *e, const clrs_resample_desc *op,
                    const tu_buf *src, tu_buf *dst, tu_buf *index,
                    const tu_buf *expected_dst, const tu_buf *expected_index,
                    const tu_buf *const *operands, const tu_buf *dst_init,
                    td_result *res)
{
    clrs_plan *plan = NULL;
    td_buf ds, dd, di, dop[CLRS_MAX_POST_OPS];
    int k;
    unsigned char *first_dst = NULL, *first_idx = NULL;
    clrs_args a;
    double t0;
    int pass;

    memset(res, 0, sizeof *res);
    memset(&ds, 0, sizeof ds);
    memset(&dd, 0, sizeof dd);
    memset(&di, 0, sizeof di);
    memset(dop, 0, sizeof dop);
    t0 = now_s();
    res->plan_status = clrs_plan_create_forward(
        &plan, e->ctx, op, src->desc, dst->desc, index ? index->desc : NULL);
    e->plans++;
    e->plan_s += now_s() - t0;
    if (res->plan_status != CLRS_SUCCESS) {
        clrs_plan_destroy(plan); /* NULL on failure; harmless */
        td_result_print(res, e);
        return 0;
    }
    if (td_buf_create(e, &ds, src) || td_buf_create(e, &dd, dst) ||
        (index && td_buf_create(e, &di, index)) ||
        td_write_input(e, &ds, src)) {
        res->cl_error = 1;
        goto out;
    }
    for (k = 0; operands && k < CLRS_MAX_POST_OPS; ++k)
        if (operands[k] && (td_buf_create(e, &dop[k], operands[k]) ||
                            td_write_input(e, &dop[k], operands[k]))) {
            res->cl_error = 1;
            goto out;
        }
    first_dst = malloc(dd.span ? dd.span : 1);
    first_idx = malloc(index && di.span ? di.span : 1);
    if (!first_dst || !first_idx) {
        res->cl_error = 1;
        goto out;
    }
    memset(&a, 0, sizeof a);
    a.src = ds.mem;
    a.dst = dd.mem;
    a.index = index ? di.mem : NULL;
    for (k = 0; k < CLRS_MAX_POST_OPS; ++k)
        a.post_op[k] = dop[k].mem;
    for (pass = 0; pass < 2; ++pass) {
        const char *dname = pass ? "dst (run 2)" : "dst";
        const char *iname = pass ? "index (run 2)" : "index";
        /* A sum post-op reads dst: it starts from dst_init, not poison. */
        if ((dst_init ? td_write_input(e, &dd, dst_init)
                      : td_write_poison(e, &dd, pass)) ||
            (index && td_write_poison(e, &di, pass))) {
            res->cl_error = 1;
            break;
        }
        res->exec_status = run_once(e, plan, &a, &res->cl_error);
        if (res->exec_status != CLRS_SUCCESS || res->cl_error)
            break;
        if (td_read(e, &ds, NULL) || td_read(e, &dd, pass ? NULL : dst) ||
            (index && td_read(e, &di, pass ? NULL : index))) {
            res->cl_error = 1;
            break;
        }
        res->integrity += td_check_input(&ds, "src");
        for (k = 0; k < CLRS_MAX_POST_OPS; ++k)
            if (dop[k].mem && td_read(e, &dop[k], NULL) == 0)
                res->integrity += td_check_input(&dop[k], "post-op operand");
        res->integrity += td_check_output(&dd, pass, expected_dst, dname);
        if (index)
            res->integrity +=
                td_check_output(&di, pass, expected_index, iname);
        if (pass == 0) {
            memcpy(first_dst, dd.img + dd.head, dd.span);
            if (index)
                memcpy(first_idx, di.img + di.head, di.span);
        } else {
            res->nondeterministic +=
                differing(&dd, first_dst, dd.img + dd.head, "dst");
            if (index)
                res->nondeterministic +=
                    differing(&di, first_idx, di.img + di.head, "index");
        }
    }
out:
    free(first_dst);
    free(first_idx);
    td_buf_release(&ds);
    td_buf_release(&dd);
    td_buf_release(&di);
    for (k = 0; k < CLRS_MAX_POST_OPS; ++k)
        td_buf_release(&dop[k]);
    clrs_plan_destroy(plan);
    if (!td_result_ok(res))
        td_result_print(res, e);
    return td_result_ok(res);
}

/* ---- backward runs --------------------------------------------------- */

int td_backward(td_env *e, const clrs_resample_desc *op,
                const tu_buf *diff_dst, tu_buf *diff_src, const tu_buf *index,
                const tu_buf *src, const tu_buf *diff_src_init,
                const tu_buf *expected, td_result *res)
{
    clrs_plan *plan = NULL;
    td_buf dy, dx, di, dsrc;
    unsigned char *first = NULL;
    clrs_args a;
    double t0;
    int pass;

    memset(res, 0, sizeof *res);
    memset(&dy, 0, sizeof dy);
    memset(&dx, 0, sizeof dx);
    memset(&di, 0, sizeof di);
    memset(&dsrc, 0, sizeof dsrc);
    t0 = now_s();
    res->plan_status = clrs_plan_create_backward(
        &plan, e->ctx, op, diff_src->desc, diff_dst->desc,
        index ? index->desc : NULL, src ? src->desc : NULL);
    e->plans++;
    e->plan_s += now_s() - t0;
    if (res->plan_status != CLRS_SUCCESS) {
        clrs_plan_destroy(plan);
        td_result_print(res, e);
        return 0;
    }
    if (td_buf_create(e, &dy, diff_dst) || td_buf_create(e, &dx, diff_src) ||
        (index && td_buf_create(e, &di, index)) ||
        (src && td_buf_create(e, &dsrc, src)) ||
        td_write_input(e, &dy, diff_dst) ||
        (index && td_write_input(e, &di, index)) ||
        (src && td_write_input(e, &dsrc, src))) {
        res->cl_error = 1;
        goto out;
    }
    first = malloc(dx.span ? dx.span : 1);
    if (!first) {
        res->cl_error = 1;
        goto out;
    }
    memset(&a, 0, sizeof a);
    a.diff_dst = dy.mem;
    a.diff_src = dx.mem;
    a.index = index ? di.mem : NULL;
    a.src = src ? dsrc.mem : NULL;
    for (pass = 0; pass < 2; ++pass) {
        const char *name = pass ? "diff_src (run 2)" : "diff_src";
        if (diff_src_init ? td_write_input(e, &dx, diff_src_init)
                          : td_write_poison(e, &dx, pass)) {
            res->cl_error = 1;
            break;
        }
        res->exec_status = run_once(e, plan, &a, &res->cl_error);
        if (res->exec_status != CLRS_SUCCESS || res->cl_error)
            break;
        if (td_read(e, &dy, NULL) || td_read(e, &dx, pass ? NULL : diff_src) ||
            (index && td_read(e, &di, NULL)) ||
            (src && td_read(e, &dsrc, NULL))) {
            res->cl_error = 1;
            break;
        }
        res->integrity += td_check_input(&dy, "diff_dst");
        if (index)
            res->integrity += td_check_input(&di, "index");
        if (src)
            res->integrity += td_check_input(&dsrc, "src");
        /* Accumulating runs start from values, not poison: only the
         * margins and gaps say anything there. */
        res->integrity += td_check_output(&dx, pass, expected, name);
        if (pass == 0)
            memcpy(first, dx.img + dx.head, dx.span);
        else
            res->nondeterministic +=
                differing(&dx, first, dx.img + dx.head, "diff_src");
    }
out:
    free(first);
    td_buf_release(&dy);
    td_buf_release(&dx);
    td_buf_release(&di);
    td_buf_release(&dsrc);
    clrs_plan_destroy(plan);
    if (!td_result_ok(res))
        td_result_print(res, e);
    return td_result_ok(res);
}

/* ---- the error model over an output ------------------------------------ */

double *td_bound_alloc(const tu_buf *b)
{
    int64_t n = 1;
    int a;
    for (a = 0; a < b->rank; ++a)
        n *= b->dims[a];
    return calloc((size_t)(n > 0 ? n : 1), sizeof(double));
}

int64_t td_compare(const tu_buf *got, const tu_buf *want,
                   const double *bound, const char *what, double *worst)
{
    int64_t idx[CLRS_MAX_RANK], bad = 0, i = 0;
    if (tu_idx_first(got->rank, got->dims, idx))
        do {
            double g = tu_get(got, idx), w = tu_get(want, idx);
            double b = bound ? bound[i] : 0;
            ++i;
            if (!clrs_reference_agrees(got->dtype, g, w, b)) {
                if (bad++ < 4) {
                    char s[96];
                    size_t n = 0;
                    int a;
                    s[0] = '\0';
                    for (a = 0; a < got->rank && n < sizeof s; ++a)
                        n += (size_t)snprintf(s + n, sizeof s - n,
                                              "%s%" PRId64, a ? "," : "",
                                              idx[a]);
                    tap_diag("  %s(%s): got %.9g, want %.9g, bound %.3g",
                             what, s, g, w, b);
                }
                continue;
            }
            if (worst && b > 0 && g != w && fabs(g - w) / b > *worst)
                *worst = fabs(g - w) / b;
        } while (tu_idx_next(got->rank, got->dims, idx));
    if (bad > 4)
        tap_diag("  %s: %" PRId64 " mismatches in all", what, bad);
    return bad;
}
