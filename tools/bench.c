/* clresample tool: the device's copy bandwidth, the roofline that
 * performance lines are a percent of. Two tiny copy kernels built here
 * with the plain OpenCL API: ordinary stores and non-temporal ones. */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* float16 per work-item: one 64-byte line per store, so non-temporal
 * stores write whole lines. NT needs clang's builtin (PoCL has it); where
 * it is missing the build fails and the tool reports plain stores only. */
static const char copy_src[] =
    "__kernel void copy_plain(__global const float16 *restrict s,\n"
    "                         __global float16 *restrict d)\n"
    "{ size_t i = get_global_id(0); d[i] = s[i]; }\n";
static const char copy_nt_src[] =
    "#ifndef __has_builtin\n#define __has_builtin(x) 0\n#endif\n"
    "#if !__has_builtin(__builtin_nontemporal_store)\n"
    "#error no non-temporal store\n#endif\n"
    "__kernel void copy_nt(__global const float16 *restrict s,\n"
    "                      __global float16 *restrict d)\n"
    "{ size_t i = get_global_id(0);\n"
    "  __builtin_nontemporal_store(s[i], &d[i]); }\n";

#define COPY_BYTES ((size_t)128 << 20)
#define COPY_RUNS 30 /* the best of many, as kernels get */

static int fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

/* Best of COPY_RUNS profiled copies, in GB/s (bytes read + written). */
static int time_copy(cl_context c, cl_device_id dev, cl_command_queue q,
                     const char *src, const char *name, cl_mem a, cl_mem b,
                     size_t bytes, double *gbps, char *err, size_t errsz)
{
    cl_int e;
    cl_program prog;
    cl_kernel k = NULL;
    size_t gsz = bytes / 64;
    double best = INFINITY;
    int i, rc = -1;

    prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    if (!prog)
        return fail(err, errsz, "clCreateProgramWithSource: %d", (int)e);
    e = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (e != CL_SUCCESS) {
        fail(err, errsz, "%s: build failed (%d)", name, (int)e);
        goto out;
    }
    k = clCreateKernel(prog, name, &e);
    if (!k) {
        fail(err, errsz, "clCreateKernel(%s): %d", name, (int)e);
        goto out;
    }
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    for (i = 0; i < COPY_RUNS + 1; ++i) {
        cl_event ev;
        cl_ulong s = 0, t = 0;
        e = clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, NULL, 0, NULL, &ev);
        if (e != CL_SUCCESS) {
            fail(err, errsz, "clEnqueueNDRangeKernel(%s): %d", name, (int)e);
            goto out;
        }
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
    if (!isfinite(best)) {
        fail(err, errsz, "%s: no profiling times", name);
        goto out;
    }
    *gbps = 2.0 * (double)bytes / best;
    rc = 0;
out:
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(prog);
    return rc;
}

int cli_roofline(clrs_context *ctx, double *plain_gbps, double *nt_gbps,
                 char *err, size_t errsz)
{
    cl_context c;
    cl_device_id dev;
    cl_command_queue q;
    cl_ulong max_alloc = 0;
    size_t bytes = COPY_BYTES;
    cl_mem a = NULL, b = NULL;
    cl_int e;
    char nterr[256];
    int rc = -1;

    *plain_gbps = *nt_gbps = 0;
    clrs_context_get_cl(ctx, &c, &dev, &q);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                    &max_alloc, NULL);
    while (bytes > (1u << 20) && bytes > max_alloc)
        bytes /= 2;
    a = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &e);
    b = a ? clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &e) : NULL;
    if (!a || !b) {
        fail(err, errsz, "clCreateBuffer(%zu): %d", bytes, (int)e);
        goto out;
    }
    /* Touch both buffers once so first-use page faults are not timed. */
    {
        float zero = 0;
        e = clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, bytes, 0, NULL,
                                NULL);
        if (e == CL_SUCCESS)
            e = clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, bytes, 0,
                                    NULL, NULL);
        if (e == CL_SUCCESS)
            e = clFinish(q);
        if (e != CL_SUCCESS) {
            fail(err, errsz, "clEnqueueFillBuffer: %d", (int)e);
            goto out;
        }
    }
    if (time_copy(c, dev, q, copy_src, "copy_plain", a, b, bytes, plain_gbps,
                  err, errsz) != 0)
        goto out;
    if (time_copy(c, dev, q, copy_nt_src, "copy_nt", a, b, bytes, nt_gbps,
                  nterr, sizeof nterr) != 0)
        *nt_gbps = 0; /* no non-temporal store on this device: not fatal */
    rc = 0;
out:
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    return rc;
}
