/* Tensors the device cannot hold, through the API: a plan over the
 * device's limits (CL_DEVICE_MAX_MEM_ALLOC_SIZE for one buffer,
 * CL_DEVICE_GLOBAL_MEM_SIZE for the plan's buffers together) is refused
 * with CLRS_ERR_TOO_LARGE and the numbers, in milliseconds and before any
 * allocation that depends on the sizes: the process runs under an
 * address-space limit of 1 GiB (setrlimit, as `ulimit -v 1048576`), far
 * below every tensor here. A separable plan whose intermediates the
 * device cannot hold takes one pass instead, with no workspace. */
#include "clresample.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define D(...) ((const int64_t[]){__VA_ARGS__})

#define AS_LIMIT ((rlim_t)1 << 30)
/* Refusing takes arithmetic alone: a tenth of a second is generous on a
 * loaded machine. */
#define REFUSE_MS 100.0

static clrs_context *ctx;
static cl_ulong max_alloc, global_mem;

static clrs_tensor_desc *T1(clrs_dtype dt, int64_t n)
{
    clrs_tensor_desc *t = NULL;
    if (clrs_tensor_desc_create(&t, dt, 3, D(1, 1, n), NULL) != CLRS_SUCCESS) {
        tap_diag("setup: tensor creation failed: %s", clrs_last_error());
        exit(1);
    }
    return t;
}

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
           (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* A forward plan that must be refused: TOO_LARGE, the message naming
 * `limit` and the byte count `bytes`, in milliseconds. */
static void refused(const char *what, const clrs_resample_desc *op,
                    const clrs_tensor_desc *src, const clrs_tensor_desc *dst,
                    const clrs_tensor_desc *index, const char *limit,
                    unsigned long long bytes)
{
    clrs_plan *plan = NULL;
    struct timespec t0;
    clrs_status st;
    char num[32];
    const char *msg;
    double ms;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = clrs_plan_create_forward(&plan, ctx, op, src, dst, index);
    ms = ms_since(&t0);
    msg = clrs_last_error();
    snprintf(num, sizeof num, "%llu", bytes);
    tap_ok(st == CLRS_ERR_TOO_LARGE && plan == NULL &&
               strstr(msg, limit) != NULL && strstr(msg, num) != NULL &&
               ms < REFUSE_MS,
           "%s: %s in %.1f ms: \"%s\"", what, clrs_status_name(st), ms, msg);
    clrs_plan_destroy(plan);
}

int main(void)
{
    struct rlimit rl, rl0 = {RLIM_INFINITY, RLIM_INFINITY};
    cl_device_id dev;
    clrs_device_info info;
    clrs_resample_desc *lin = NULL, *pool = NULL, *post = NULL, *cubic = NULL;
    clrs_tensor_desc *small, *big, *t[8];
    int64_t n;
    int limited = 0, i, k;

    /* AddressSanitizer reserves terabytes of shadow address space, and
     * valgrind runs the program inside its own: neither works under the
     * limit, and neither is needed for what this checks. */
#if defined(__SANITIZE_ADDRESS__)
    limited = -1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    limited = -1;
#endif
#endif
    if (getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload"))
        limited = -1;
    if (!limited && getrlimit(RLIMIT_AS, &rl) == 0) {
        rl0 = rl;
        if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > AS_LIMIT)
            rl.rlim_cur = AS_LIMIT;
        limited = setrlimit(RLIMIT_AS, &rl) == 0;
    }
    if (clrs_context_create(&ctx, NULL) != CLRS_SUCCESS) {
        tap_diag("no OpenCL device: %s", clrs_last_error());
        tap_skip("tensors over the device's limits need an OpenCL device");
        return tap_done();
    }
    tap_diag("address space limit: %s",
             limited > 0 ? "1 GiB" : "none (sanitizer, valgrind or refused)");
    clrs_context_get_cl(ctx, NULL, &dev, NULL);
    clrs_context_get_device_info(ctx, &info);
    if (clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                        &max_alloc, NULL) != CL_SUCCESS)
        max_alloc = 0;
    global_mem = info.global_mem_size;
    tap_diag("device %s: max allocation %llu bytes, global memory %llu",
             info.device_name, (unsigned long long)max_alloc,
             (unsigned long long)global_mem);
    if (!max_alloc || max_alloc > ((cl_ulong)1 << 40)) {
        tap_skip("the device reports no usable max allocation");
        clrs_context_destroy(ctx);
        return tap_done();
    }
    clrs_resample_desc_create(&lin, CLRS_MODE_LINEAR);
    small = T1(CLRS_U8, 1000);

    /* One buffer past the device's max allocation: dst, then src. */
    n = (int64_t)max_alloc + 2;
    big = T1(CLRS_U8, n);
    refused("u8 dst of max allocation + 2 bytes", lin, small, big, NULL,
            "CL_DEVICE_MAX_MEM_ALLOC_SIZE", (unsigned long long)n);
    refused("u8 src of max allocation + 2 bytes", lin, big, small, NULL,
            "CL_DEVICE_MAX_MEM_ALLOC_SIZE", (unsigned long long)n);
    clrs_tensor_desc_destroy(big);

    /* The index tensor alone: s32 beside a u8 dst a quarter its size. */
    {
        clrs_tensor_desc *src, *dst, *idx;
        n = (int64_t)(max_alloc / 4) + 1;
        clrs_resample_desc_create(&pool, CLRS_MODE_MAX);
        clrs_resample_desc_set_window(pool, 1, D(2));
        clrs_resample_desc_set_stride(pool, 1, D(2));
        src = T1(CLRS_U8, 2 * n);
        dst = T1(CLRS_U8, n);
        idx = T1(CLRS_S32, n);
        refused("s32 index tensor of max allocation + 4 bytes", pool, src, dst,
                idx, "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                (unsigned long long)(4 * n));
        clrs_tensor_desc_destroy(src);
        clrs_tensor_desc_destroy(dst);
        clrs_tensor_desc_destroy(idx);
    }

    /* Every buffer within the max allocation, together past the global
     * memory: dst and binary post-op operands of the max allocation
     * each. */
    k = (int)(global_mem / max_alloc) + 1;
    if (global_mem && k <= 1 + CLRS_MAX_POST_OPS) {
        n = (int64_t)max_alloc;
        clrs_resample_desc_create(&post, CLRS_MODE_NEAREST);
        for (i = 0; i < k; ++i)
            t[i] = T1(CLRS_U8, n);
        for (i = 1; i < k; ++i)
            clrs_resample_desc_append_binary(post, CLRS_BINARY_ADD, t[i]);
        refused("dst and binary operands of max allocation each, past the "
                "global memory together",
                post, small, t[0], NULL, "CL_DEVICE_GLOBAL_MEM_SIZE",
                (unsigned long long)global_mem);
        for (i = 0; i < k; ++i)
            clrs_tensor_desc_destroy(t[i]);
    } else {
        tap_skip("the global memory takes more tensors than dst and the "
                 "post-op operands");
    }

    /* The refusals are done: what follows builds a real plan, whose
     * tables and kernel build need more room than some drivers leave
     * under the limit (Mesa rusticl). */
    if (limited > 0)
        setrlimit(RLIMIT_AS, &rl0);

    /* A workspace the device could not hold: a 2-D cubic 2x up whose
     * first pass would write an f32 intermediate of 8 h w bytes, 8 KiB
     * past the max allocation M in either order, while the u8 src (h w)
     * and dst (4 h w) hold 5/8 of M together (global memory is at least
     * M). It takes one pass and no workspace. */
    {
        clrs_tensor_desc *src, *dst;
        clrs_plan *plan = NULL;
        clrs_plan_info pi;
        clrs_status st;
        int64_t h = 1024, w = (int64_t)(max_alloc / 8192) + 1;
        clrs_resample_desc_create(&cubic, CLRS_MODE_CUBIC);
        clrs_resample_desc_set_user_workspace(cubic, 1);
        if (clrs_tensor_desc_create(&src, CLRS_U8, 4, D(1, 1, h, w), NULL) !=
                CLRS_SUCCESS ||
            clrs_tensor_desc_create(&dst, CLRS_U8, 4, D(1, 1, 2 * h, 2 * w),
                                    NULL) != CLRS_SUCCESS) {
            tap_diag("setup: %s", clrs_last_error());
            return 1;
        }
        st = clrs_plan_create_forward(&plan, ctx, cubic, src, dst, NULL);
        memset(&pi, 0, sizeof pi);
        if (st == CLRS_SUCCESS)
            clrs_plan_get_info(plan, &pi);
        tap_ok(st == CLRS_SUCCESS && pi.kernels == 1 &&
                   pi.workspace_bytes == 0 && pi.scratch_bytes == 0,
               "intermediates past the max allocation: the plan takes "
               "%d kernel(s), workspace %zu bytes, scratch %zu (%s)",
               (int)pi.kernels, pi.workspace_bytes, pi.scratch_bytes,
               st == CLRS_SUCCESS ? "ok" : clrs_last_error());
        clrs_plan_destroy(plan);
        clrs_tensor_desc_destroy(src);
        clrs_tensor_desc_destroy(dst);
    }

    clrs_tensor_desc_destroy(small);
    clrs_resample_desc_destroy(lin);
    clrs_resample_desc_destroy(pool);
    clrs_resample_desc_destroy(post);
    clrs_resample_desc_destroy(cubic);
    clrs_context_destroy(ctx);
    return tap_done();
}
