/* A complete clresample program: bilinear 2x upsampling of a small f32
 * tensor on an OpenCL device, read back and checked against the library's
 * double-precision CPU reference. Build it against an installed library:
 *
 *     cc -std=c99 -o example example.c $(pkg-config --cflags --libs clresample)
 *     ./example            # or ./example 0:0, ./example nvidia
 *
 * The argument selects the device ("P:D" as `clresample --list-devices`
 * prints it, or a part of its name); without one, CLRS_DEVICE, else the
 * first device. */
#include <clresample.h>

#include <stdio.h>
#include <stdlib.h>

/* Every clrs_ call returns a status, negative on error; the thread's
 * detail message says why ("dst dim 2 is 0"). */
static int report(const char *call, clrs_status st)
{
    fprintf(stderr, "%s: %s: %s\n", call, clrs_status_name(st),
            clrs_last_error());
    return 1;
}

static int cl_report(const char *call, cl_int err)
{
    fprintf(stderr, "%s: OpenCL error %d\n", call, (int)err);
    return 1;
}

int main(int argc, char **argv)
{
    /* N = 1, C = 3, H = W = 4, dense row-major (nchw). */
    const int64_t src_dims[4] = {1, 3, 4, 4};
    const double scales[2] = {2.0, 2.0}; /* H and W, the resampled axes */
    int64_t dst_dims[4];
    clrs_context *ctx = NULL;
    clrs_tensor_desc *src = NULL, *dst = NULL;
    clrs_resample_desc *op = NULL;
    clrs_plan *plan = NULL;
    clrs_plan_info info;
    clrs_device_info dev;
    clrs_args args = {0};
    clrs_host_args host = {0};
    cl_context cl_ctx;
    cl_command_queue queue;
    cl_mem src_buf = NULL, dst_buf = NULL;
    float *src_data = NULL, *dst_data = NULL, *ref_data = NULL;
    double *bound = NULL;
    size_t src_bytes, dst_bytes, i, n;
    double worst = 0;
    size_t wrong = 0;
    clrs_status st;
    cl_int err;
    int rc = 1;

    /* 1. A device, an OpenCL context and an in-order profiling queue. */
    st = clrs_context_create(&ctx, argc > 1 ? argv[1] : NULL);
    if (st < 0)
        return report("clrs_context_create", st);
    clrs_context_get_device_info(ctx, &dev);
    printf("device %u:%u: %s (%s)\n", dev.platform_index, dev.device_index,
           dev.device_name, dev.platform_name);

    /* 2. The operation: bilinear, half-pixel coordinates (PyTorch's
     * align_corners=False, ONNX's default), scale 2 on H and W. */
    st = clrs_resample_desc_create(&op, CLRS_MODE_LINEAR);
    if (st >= 0)
        st = clrs_resample_desc_set_coord(op, CLRS_COORD_HALF_PIXEL);
    if (st >= 0)
        st = clrs_resample_desc_set_scales(op, 2, scales);
    if (st < 0) {
        report("resample descriptor", st);
        goto out;
    }

    /* 3. The tensors: dst's sizes from the scales (floor(4 * 2) = 8). */
    st = clrs_tensor_desc_create(&src, CLRS_F32, 4, src_dims, NULL);
    if (st >= 0)
        st = clrs_resample_desc_output_dims(op, src, 0, dst_dims);
    if (st >= 0)
        st = clrs_tensor_desc_create(&dst, CLRS_F32, 4, dst_dims, NULL);
    if (st < 0) {
        report("tensor descriptors", st);
        goto out;
    }

    /* 4. The plan: validation, code generation and the OpenCL build (or a
     * program cache hit) happen here, once; execute only enqueues. */
    st = clrs_plan_create_forward(&plan, ctx, op, src, dst, NULL);
    if (st < 0) {
        report("clrs_plan_create_forward", st);
        goto out;
    }
    clrs_plan_get_info(plan, &info);
    printf("plan: vector path %s, lanes %d, program %s, %.1f ms\n",
           clrs_vector_path_name(info.vector_path), info.vector_lanes,
           clrs_cache_source_name(info.cache), info.create_ms);

    /* 5. Host data and device buffers; sizes from the descriptors. */
    src_bytes = clrs_tensor_desc_bytes(src);
    dst_bytes = clrs_tensor_desc_bytes(dst);
    src_data = malloc(src_bytes);
    dst_data = malloc(dst_bytes);
    ref_data = malloc(dst_bytes);
    if (!src_data || !dst_data || !ref_data) {
        fprintf(stderr, "out of memory\n");
        goto out;
    }
    n = (size_t)clrs_tensor_desc_elements(src);
    for (i = 0; i < n; ++i)
        src_data[i] = (float)(i % 16) / 4.0f;
    clrs_context_get_cl(ctx, &cl_ctx, NULL, &queue);
    src_buf = clCreateBuffer(cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             src_bytes, src_data, &err);
    if (!src_buf) {
        cl_report("clCreateBuffer(src)", err);
        goto out;
    }
    dst_buf = clCreateBuffer(cl_ctx, CL_MEM_WRITE_ONLY, dst_bytes, NULL,
                             &err);
    if (!dst_buf) {
        cl_report("clCreateBuffer(dst)", err);
        goto out;
    }

    /* 6. Execute: buffers by role, enqueued on the context's queue. */
    args.src = src_buf;
    args.dst = dst_buf;
    st = clrs_execute(plan, &args, 0, NULL, NULL);
    if (st < 0) {
        report("clrs_execute", st);
        goto out;
    }

    /* 7. Read back; the queue is in order, so this waits for the kernel. */
    err = clEnqueueReadBuffer(queue, dst_buf, CL_TRUE, 0, dst_bytes,
                              dst_data, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        cl_report("clEnqueueReadBuffer", err);
        goto out;
    }

    /* 8. The same operation on the host, in double precision, with the
     * error model's bound of each output (dst is dense: element i). */
    n = (size_t)clrs_tensor_desc_elements(dst);
    bound = malloc(n * sizeof *bound);
    if (!bound) {
        fprintf(stderr, "out of memory\n");
        goto out;
    }
    host.src = src_data;
    host.dst = ref_data;
    st = clrs_reference_forward_bound(op, src, dst, NULL, &host, bound);
    if (st < 0) {
        report("clrs_reference_forward_bound", st);
        goto out;
    }

    /* 9. Compare: each output agrees with the reference within its bound
     * (man 3 clresample, TOLERANCES). */
    for (i = 0; i < n; ++i) {
        double d = (double)dst_data[i] - ref_data[i];
        if (!clrs_reference_agrees(CLRS_F32, dst_data[i], ref_data[i],
                                   bound[i]))
            ++wrong;
        d = d < 0 ? -d : d;
        if (d > worst)
            worst = d;
    }
    printf("dst[0][0][0][0..7]:");
    for (i = 0; i < 8; ++i)
        printf(" %.4f", dst_data[i]);
    printf("\n%zu outputs, largest difference from the CPU reference %.3g\n",
           n, worst);
    if (wrong == 0) {
        printf("OK\n");
        rc = 0;
    } else {
        printf("FAILED: %zu outputs outside the error model's bound\n",
               wrong);
    }

out:
    /* 10. Clean up: buffers and plans before their context; every destroy
     * accepts NULL. */
    if (src_buf)
        clReleaseMemObject(src_buf);
    if (dst_buf)
        clReleaseMemObject(dst_buf);
    free(src_data);
    free(dst_data);
    free(ref_data);
    free(bound);
    clrs_plan_destroy(plan);
    clrs_tensor_desc_destroy(src);
    clrs_tensor_desc_destroy(dst);
    clrs_resample_desc_destroy(op);
    clrs_context_destroy(ctx);
    return rc;
}
