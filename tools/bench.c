/* clresample tool: the device's bandwidth. The copy is the roofline that
 * performance lines are a percent of; a read alone and a write alone
 * bound what any problem can reach (a resampling that mostly reads, a
 * downsample or a backward pass, may beat the copy on a device that
 * reads faster than it writes). Tiny kernels built here with the plain
 * OpenCL API, ordinary stores and non-temporal ones, each tuned like any
 * kernel: every vector width and local size below, the best kept (an
 * untuned copy measured 2.06 TB/s on an H100 whose CUDA copy reaches
 * 3.0). */
#include "cli.h"
#include "outfile.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* T: float4 (16-byte accesses, what GPUs issue best) or float16 (one
 * 64-byte line per store, so non-temporal stores write whole lines),
 * each at most the device's native float width where it states one
 * (lanes_of): a wider vector on a CPU is split and changes the ABI of
 * the builtins it is passed to (PoCL warns). NT
 * needs clang's builtin (PoCL has it); where it is missing the build
 * fails and the tool reports plain stores only. */
static const char copy_src[] =
    "__kernel void copy_plain(__global const T *restrict s,\n"
    "                         __global T *restrict d)\n"
    "{ size_t i = get_global_id(0); d[i] = s[i]; }\n";
static const char copy_nt_src[] =
    "#ifndef __has_builtin\n#define __has_builtin(x) 0\n#endif\n"
    "#if !__has_builtin(__builtin_nontemporal_store)\n"
    "#error no non-temporal store\n#endif\n"
    "__kernel void copy_nt(__global const T *restrict s,\n"
    "                      __global T *restrict d)\n"
    "{ size_t i = get_global_id(0);\n"
    "  __builtin_nontemporal_store(s[i], &d[i]); }\n";

/* A read alone: READS vectors a work-item, summed, and a store no sum
 * takes (the buffers hold ones: no NaN) keeps the loads; one vector a
 * work-item with its own test measured half the copy's rate on PoCL.
 * The work-item's vectors are consecutive (S 1: a CPU's work-item reads
 * one stream) or a grid apart (S 0: neighbouring work-items read
 * neighbouring vectors, as a GPU wants). A write alone, of ones (see
 * the fill in cli_roofline). */
#define READS 8
static const char read_src[] =
    "__kernel void read_all(__global const T *restrict s,\n"
    "                       __global T *restrict d)\n"
    "{ size_t g = get_global_id(0), n = get_global_size(0);\n"
    "  size_t i = S ? g * R : g, step = S ? 1 : n;\n"
    "  T v = s[i];\n"
    "  for (int k = 1; k < R; ++k) v += s[i + k * step];\n"
    "  if (any(isnan(v))) d[g] = v; }\n";
static const char fill_src[] =
    "__kernel void fill_plain(__global const T *restrict s,\n"
    "                         __global T *restrict d)\n"
    "{ d[get_global_id(0)] = (T)(1.0f); }\n";
static const char fill_nt_src[] =
    "#ifndef __has_builtin\n#define __has_builtin(x) 0\n#endif\n"
    "#if !__has_builtin(__builtin_nontemporal_store)\n"
    "#error no non-temporal store\n#endif\n"
    "__kernel void fill_nt(__global const T *restrict s,\n"
    "                      __global T *restrict d)\n"
    "{ __builtin_nontemporal_store((T)(1.0f), &d[get_global_id(0)]); }\n";

/* The candidates: lanes of T and local sizes (0: the driver's). */
static const int copy_lanes[] = {4, 16};

/* Candidate `lanes` within the device's native float width `native`; a
 * width of 1 (or 0, not read) states none (NVIDIA's GPUs: no vector
 * registers, 16 lanes compile and were measured) and bounds nothing, as
 * in the library's lowering. */
static int lanes_of(cl_uint native, int lanes)
{
    if (native < 2)
        return lanes;
    while (lanes > 2 && (cl_uint)lanes > native)
        lanes /= 2;
    return lanes;
}
static const size_t copy_local[] = {0, 64, 256};

#define COPY_BYTES ((size_t)128 << 20)
#define COPY_RUNS 10 /* per candidate: the best of many, as kernels get */
#define PROBE_RUNS 3 /* the kept copy beside each problem */

/* Where the roofline's kernels run: the device, its queue, and the cold
 * cache flushed before each timed run, as before each of a problem's
 * (NULL: none). */
typedef struct roof_dev {
    cl_context c;
    cl_device_id dev;
    cl_command_queue q;
    cli_flush *flush;
} roof_dev;

/* Best of `runs` profiled copies of kernel k over `items` work-items
 * with local size `local` (0: the driver's), in ns; INFINITY when the
 * launch is refused (a local size the device cannot take). */
static double best_ns(const roof_dev *r, cl_kernel k, size_t items,
                      size_t local, int runs)
{
    cl_command_queue q = r->q;
    double best = INFINITY;
    int i;

    for (i = 0; i < runs + 1; ++i) {
        cl_event ev;
        cl_ulong s = 0, t = 0;
        cli_flush_run(r->flush, q);
        if (clEnqueueNDRangeKernel(q, k, 1, NULL, &items,
                                   local ? &local : NULL, 0, NULL,
                                   &ev) != CL_SUCCESS)
            return INFINITY;
        clWaitForEvents(1, &ev);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s,
                                NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t, &t,
                                NULL);
        clReleaseEvent(ev);
        /* Run 0 is the warm-up (PoCL compiles its work-group loop). */
        if (i > 0 && t > s && (double)(t - s) < best)
            best = (double)(t - s);
    }
    return best;
}

/* These kernels compile silently; a log after a successful build is
 * shown whole (a warning here is a bug of the tool). */
static void report_log(cl_program prog, cl_device_id dev, const char *name,
                       const char *opts)
{
    size_t n = 0;
    char *log;

    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &n) != CL_SUCCESS ||
        n < 2 || (log = malloc(n + 1)) == NULL)
        return;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log,
                              NULL) == CL_SUCCESS) {
        log[n] = '\0';
        n = strlen(log);
        while (n > 0 && isspace((unsigned char)log[n - 1]))
            log[--n] = '\0';
        if (n > 0)
            fprintf(stderr, "clresample: roofline kernel %s (%s): OpenCL "
                            "build log:\n%s\n",
                    name, opts, log);
    }
    free(log);
}

/* The candidate a kernel's best run took: lanes of T and local size. */
typedef struct best_at {
    int lanes;
    size_t local;
} best_at;

/* The best run of kernel `name` (built with -DT=floatN and `defs`, each
 * work-item over per_item vectors) over every candidate, in GB/s:
 * `moves` times the buffer's bytes (a copy reads and writes them: 2);
 * at (NULL: not wanted) the candidate. */
static int time_kernel(const roof_dev *r, const char *src, const char *name,
                       const char *defs, size_t per_item, cl_mem a, cl_mem b,
                       size_t bytes, double moves, double *gbps, best_at *at,
                       char *err, size_t errsz)
{
    cl_device_id dev = r->dev;
    const char *srcs[1] = {src};
    cli_capture cap;
    double best = INFINITY;
    cl_uint native = 0;
    size_t v, l;
    cl_int e;

    if (clGetDeviceInfo(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                        sizeof native, &native, NULL) != CL_SUCCESS)
        native = 0;
    for (v = 0; v < sizeof copy_lanes / sizeof copy_lanes[0]; ++v) {
        char opts[64];
        const int lanes = lanes_of(native, copy_lanes[v]);
        size_t items = bytes / (4 * (size_t)lanes * per_item);
        cl_program prog;
        cl_kernel k = NULL;
        if (v > 0 && lanes == lanes_of(native, copy_lanes[v - 1]))
            continue; /* the same width twice */
        prog = clCreateProgramWithSource(r->c, 1, srcs, NULL, &e);
        if (!prog)
            return cli_fail(err, errsz, "clCreateProgramWithSource: %d",
                            (int)e);
        snprintf(opts, sizeof opts, "-DT=float%d%s", lanes, defs);
        cli_capture_begin(&cap);
        e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
        cli_capture_end(&cap);
        if (e == CL_SUCCESS) {
            report_log(prog, dev, name, opts);
            k = clCreateKernel(prog, name, &e);
        }
        if (k) {
            clSetKernelArg(k, 0, sizeof a, &a);
            clSetKernelArg(k, 1, sizeof b, &b);
            for (l = 0; l < sizeof copy_local / sizeof copy_local[0]; ++l) {
                double ns = best_ns(r, k, items, copy_local[l], COPY_RUNS);
                if (ns < best) {
                    best = ns;
                    if (at) {
                        at->lanes = lanes;
                        at->local = copy_local[l];
                    }
                }
            }
            clReleaseKernel(k);
        }
        clReleaseProgram(prog);
        if (e != CL_SUCCESS)
            return cli_fail(err, errsz, "%s: build failed (%d)", name, (int)e);
    }
    if (!isfinite(best))
        return cli_fail(err, errsz, "%s: no profiling times", name);
    *gbps = moves * (double)bytes / best;
    return 0;
}

/* The read alone: the better of its two access orders. */
static double time_read(const roof_dev *r, cl_mem a, cl_mem b, size_t bytes)
{
    char defs[32], err[256];
    double best = 0, g;
    int stream;

    for (stream = 0; stream < 2; ++stream) {
        snprintf(defs, sizeof defs, " -DR=%d -DS=%d", READS, stream);
        if (time_kernel(r, read_src, "read_all", defs, READS, a, b, bytes, 1,
                        &g, NULL, err, sizeof err) == 0 &&
            g > best)
            best = g;
    }
    return best;
}

/* ---- the cold cache ---- */

/* A read of the whole buffer (a store only where a value it never holds
 * turns up, so that the loads stay): the cache then holds its clean
 * lines, which the timed run evicts for free, where written ones would
 * be written back during the run and charged to it. */
static const char flush_src[] =
    "__kernel void flush(__global const uint4 *p, __global uint *sink,\n"
    "                    const uint v)\n"
    "{\n"
    "    const uint4 x = p[get_global_id(0)];\n"
    "    if ((x.x ^ x.y ^ x.z ^ x.w) == v)\n"
    "        sink[0] = x.x;\n"
    "}\n"
    "__kernel void fill(__global uint4 *p)\n"
    "{\n"
    "    p[get_global_id(0)] = (uint4)(1u);\n"
    "}\n";

int cli_flush_init(clrs_context *ctx, double cache, cli_flush *f, char *err,
                   size_t errsz)
{
    const char *srcs[1] = {flush_src};
    cl_context c;
    cl_device_id dev;
    cl_ulong max_alloc = 0, global = 0;
    cl_int e;

    memset(f, 0, sizeof *f);
    if (cache <= 0)
        return 0; /* nothing to flush */
    clrs_context_get_cl(ctx, &c, &dev, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                    &max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global,
                    NULL);
    /* Twice the cache (whatever its policy, a read of that much leaves
     * little of what was there), within one allocation and an eighth of
     * the device's memory. */
    f->bytes = (size_t)(2 * cache);
    if (max_alloc > 0 && f->bytes > max_alloc)
        f->bytes = (size_t)max_alloc;
    if (global > 0 && f->bytes > global / 8)
        f->bytes = (size_t)(global / 8);
    f->items = f->bytes / 16;
    if (f->items == 0)
        return 0;
    f->bytes = f->items * 16;
    f->buf = clCreateBuffer(c, CL_MEM_READ_WRITE, f->bytes, NULL, &e);
    if (f->buf)
        f->sink = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e);
    if (!f->buf || !f->sink) {
        cli_flush_free(f);
        return cli_fail(err, errsz, "clCreateBuffer(%zu): %d", f->bytes,
                        (int)e);
    }
    f->prog = clCreateProgramWithSource(c, 1, srcs, NULL, &e);
    if (f->prog)
        e = clBuildProgram(f->prog, 1, &dev, "", NULL, NULL);
    if (f->prog && e == CL_SUCCESS)
        f->k = clCreateKernel(f->prog, "flush", &e);
    if (!f->k) {
        cli_flush_free(f);
        return cli_fail(err, errsz, "the cache flush kernel: %d", (int)e);
    }
    { /* its pages written once, by a kernel (every compute unit; a
       * driver's fill may be one thread), with ones: unwritten pages
       * read as one page of zeros */
        cl_command_queue q;
        cl_kernel fill = clCreateKernel(f->prog, "fill", &e);
        clrs_context_get_cl(ctx, NULL, NULL, &q);
        if (fill) {
            clSetKernelArg(fill, 0, sizeof f->buf, &f->buf);
            e = clEnqueueNDRangeKernel(q, fill, 1, NULL, &f->items, NULL, 0,
                                       NULL, NULL);
            if (e == CL_SUCCESS)
                e = clFinish(q);
            clReleaseKernel(fill);
        }
        if (e != CL_SUCCESS) {
            cli_flush_free(f);
            return cli_fail(err, errsz, "the cache flush buffer's fill: %d",
                            (int)e);
        }
    }
    clSetKernelArg(f->k, 0, sizeof f->buf, &f->buf);
    clSetKernelArg(f->k, 1, sizeof f->sink, &f->sink);
    f->v = 0xfffffffeu; /* the fill's 1s xor to 0 */
    clSetKernelArg(f->k, 2, sizeof f->v, &f->v);
    return 0;
}

void cli_flush_run(cli_flush *f, cl_command_queue q)
{
    if (!f || !f->k)
        return;
    clEnqueueNDRangeKernel(q, f->k, 1, NULL, &f->items, NULL, 0, NULL, NULL);
}

void cli_flush_free(cli_flush *f)
{
    if (f->k)
        clReleaseKernel(f->k);
    if (f->prog)
        clReleaseProgram(f->prog);
    if (f->buf)
        clReleaseMemObject(f->buf);
    if (f->sink)
        clReleaseMemObject(f->sink);
    memset(f, 0, sizeof *f);
}

/* Builds the kept copy: kernel `name` of src at the candidate `at`,
 * over buffers a and b (which it then owns). Returns 0, or -1 (the
 * probe left empty; the buffers still the caller's). */
static int probe_make(const roof_dev *r, const char *src, const char *name,
                      const best_at *at, cl_mem a, cl_mem b, size_t bytes,
                      cli_probe *probe)
{
    const char *srcs[1] = {src};
    char opts[32];
    cl_int e;

    memset(probe, 0, sizeof *probe);
    snprintf(opts, sizeof opts, "-DT=float%d", at->lanes);
    probe->prog = clCreateProgramWithSource(r->c, 1, srcs, NULL, &e);
    if (!probe->prog)
        return -1;
    if (clBuildProgram(probe->prog, 1, &r->dev, opts, NULL, NULL) !=
            CL_SUCCESS ||
        (probe->k = clCreateKernel(probe->prog, name, &e)) == NULL) {
        clReleaseProgram(probe->prog);
        memset(probe, 0, sizeof *probe);
        return -1;
    }
    clSetKernelArg(probe->k, 0, sizeof a, &a);
    clSetKernelArg(probe->k, 1, sizeof b, &b);
    probe->a = a;
    probe->b = b;
    probe->items = bytes / (4 * (size_t)at->lanes);
    probe->local = at->local;
    probe->bytes = bytes;
    return 0;
}

double cli_probe_gbps(clrs_context *ctx, cli_probe *probe, cli_flush *f)
{
    roof_dev r;
    double ns;

    if (!probe || !probe->k)
        return 0;
    clrs_context_get_cl(ctx, &r.c, &r.dev, &r.q);
    r.flush = f;
    ns = best_ns(&r, probe->k, probe->items, probe->local, PROBE_RUNS);
    return isfinite(ns) && ns > 0 ? 2.0 * (double)probe->bytes / ns : 0;
}

void cli_probe_free(cli_probe *probe)
{
    if (probe->k)
        clReleaseKernel(probe->k);
    if (probe->prog)
        clReleaseProgram(probe->prog);
    if (probe->a)
        clReleaseMemObject(probe->a);
    if (probe->b)
        clReleaseMemObject(probe->b);
    memset(probe, 0, sizeof *probe);
}

int cli_roofline(clrs_context *ctx, cli_bandwidth *bw, cli_flush *f,
                 cli_probe *probe, char *err, size_t errsz)
{
    best_at plain_at = {0, 0}, nt_at = {0, 0};
    roof_dev r;
    cl_ulong max_alloc = 0;
    size_t bytes = COPY_BYTES;
    cl_mem a = NULL, b = NULL;
    cl_int e;
    char nterr[256];
    int rc = -1;

    memset(bw, 0, sizeof *bw);
    clrs_context_get_cl(ctx, &r.c, &r.dev, &r.q);
    r.flush = f;
    clGetDeviceInfo(r.dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                    &max_alloc, NULL);
    while (bytes > (1u << 20) && bytes > max_alloc)
        bytes /= 2;
    a = clCreateBuffer(r.c, CL_MEM_READ_WRITE, bytes, NULL, &e);
    b = a ? clCreateBuffer(r.c, CL_MEM_READ_WRITE, bytes, NULL, &e) : NULL;
    if (!a || !b) {
        cli_fail(err, errsz, "clCreateBuffer(%zu): %d", bytes, (int)e);
        goto out;
    }
    /* Touch both buffers once so first-use page faults are not timed,
     * with ones, not zeros: memory can take lines of zeros faster than
     * data (a 2-thread C copy on an AMD EPYC virtual machine: 46 GB/s of
     * zeros, 33 of data), and resampled tensors hold data. */
    {
        float one = 1;
        e = clEnqueueFillBuffer(r.q, a, &one, sizeof one, 0, bytes, 0, NULL,
                                NULL);
        if (e == CL_SUCCESS)
            e = clEnqueueFillBuffer(r.q, b, &one, sizeof one, 0, bytes, 0, NULL,
                                    NULL);
        if (e == CL_SUCCESS)
            e = clFinish(r.q);
        if (e != CL_SUCCESS) {
            cli_fail(err, errsz, "clEnqueueFillBuffer: %d", (int)e);
            goto out;
        }
    }
    if (time_kernel(&r, copy_src, "copy_plain", "", 1, a, b, bytes, 2,
                    &bw->copy_plain, &plain_at, err, errsz) != 0)
        goto out;
    /* The others are not fatal: a device without non-temporal stores,
     * or a kernel it cannot run, leaves its figure 0 (time_kernel sets
     * it only on success). */
    (void)time_kernel(&r, copy_nt_src, "copy_nt", "", 1, a, b, bytes, 2,
                      &bw->copy_nt, &nt_at, nterr, sizeof nterr);
    bw->read = time_read(&r, a, b, bytes);
    (void)time_kernel(&r, fill_src, "fill_plain", "", 1, a, b, bytes, 1,
                      &bw->write, NULL, nterr, sizeof nterr);
    {
        double nt = 0;
        if (time_kernel(&r, fill_nt_src, "fill_nt", "", 1, a, b, bytes, 1, &nt,
                        NULL, nterr, sizeof nterr) == 0 &&
            nt > bw->write)
            bw->write = nt;
    }
    /* The faster copy is kept, with its buffers, to be timed again beside
     * each problem: a shared machine's memory bandwidth drifts (on a
     * 2-core virtual machine the same copy measured 46 to 112 GB/s over
     * an hour), so a percent of a copy timed once at the start says as
     * much about the start as about the problem. The fill above left
     * the buffers holding ones. */
    if (probe) {
        const int nt = bw->copy_nt > bw->copy_plain && nt_at.lanes > 0;
        if (probe_make(&r, nt ? copy_nt_src : copy_src,
                       nt ? "copy_nt" : "copy_plain", nt ? &nt_at : &plain_at,
                       a, b, bytes, probe) == 0)
            a = b = NULL; /* the probe's now */
    }
    rc = 0;
out:
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    return rc;
}
