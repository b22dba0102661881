/* Contexts: device discovery and selection, the OpenCL context and queue a
 * clrs_context owns or wraps, and the per-context, per-thread error text. */
#include "rt/context.h"
#include "gen/launch.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- OpenCL error names ------------------------------------------------ */

/* Numbers rather than the CL_* macros: the header is pinned to OpenCL 1.2,
 * but a newer driver may still return a 2.x code, and we want its name. */
static const struct {
    cl_int code;
    const char *name;
} cl_errors[] = {
    {-1, "CL_DEVICE_NOT_FOUND"},
    {-2, "CL_DEVICE_NOT_AVAILABLE"},
    {-3, "CL_COMPILER_NOT_AVAILABLE"},
    {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {-5, "CL_OUT_OF_RESOURCES"},
    {-6, "CL_OUT_OF_HOST_MEMORY"},
    {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
    {-8, "CL_MEM_COPY_OVERLAP"},
    {-9, "CL_IMAGE_FORMAT_MISMATCH"},
    {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
    {-12, "CL_MAP_FAILURE"},
    {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
    {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
    {-15, "CL_COMPILE_PROGRAM_FAILURE"},
    {-16, "CL_LINKER_NOT_AVAILABLE"},
    {-17, "CL_LINK_PROGRAM_FAILURE"},
    {-18, "CL_DEVICE_PARTITION_FAILED"},
    {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
    {-30, "CL_INVALID_VALUE"},
    {-31, "CL_INVALID_DEVICE_TYPE"},
    {-32, "CL_INVALID_PLATFORM"},
    {-33, "CL_INVALID_DEVICE"},
    {-34, "CL_INVALID_CONTEXT"},
    {-35, "CL_INVALID_QUEUE_PROPERTIES"},
    {-36, "CL_INVALID_COMMAND_QUEUE"},
    {-37, "CL_INVALID_HOST_PTR"},
    {-38, "CL_INVALID_MEM_OBJECT"},
    {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
    {-40, "CL_INVALID_IMAGE_SIZE"},
    {-41, "CL_INVALID_SAMPLER"},
    {-42, "CL_INVALID_BINARY"},
    {-43, "CL_INVALID_BUILD_OPTIONS"},
    {-44, "CL_INVALID_PROGRAM"},
    {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
    {-46, "CL_INVALID_KERNEL_NAME"},
    {-47, "CL_INVALID_KERNEL_DEFINITION"},
    {-48, "CL_INVALID_KERNEL"},
    {-49, "CL_INVALID_ARG_INDEX"},
    {-50, "CL_INVALID_ARG_VALUE"},
    {-51, "CL_INVALID_ARG_SIZE"},
    {-52, "CL_INVALID_KERNEL_ARGS"},
    {-53, "CL_INVALID_WORK_DIMENSION"},
    {-54, "CL_INVALID_WORK_GROUP_SIZE"},
    {-55, "CL_INVALID_WORK_ITEM_SIZE"},
    {-56, "CL_INVALID_GLOBAL_OFFSET"},
    {-57, "CL_INVALID_EVENT_WAIT_LIST"},
    {-58, "CL_INVALID_EVENT"},
    {-59, "CL_INVALID_OPERATION"},
    {-60, "CL_INVALID_GL_OBJECT"},
    {-61, "CL_INVALID_BUFFER_SIZE"},
    {-62, "CL_INVALID_MIP_LEVEL"},
    {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
    {-64, "CL_INVALID_PROPERTY"},
    {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
    {-66, "CL_INVALID_COMPILER_OPTIONS"},
    {-67, "CL_INVALID_LINKER_OPTIONS"},
    {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
    {-69, "CL_INVALID_PIPE_SIZE"},
    {-70, "CL_INVALID_DEVICE_QUEUE"},
    {-71, "CL_INVALID_SPEC_ID"},
    {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
    {-1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
    {-1121, "CL_CONTEXT_TERMINATED_KHR"},
};

const char *clrs__cl_error_name(cl_int err)
{
    size_t i;
    for (i = 0; i < sizeof cl_errors / sizeof cl_errors[0]; ++i)
        if (cl_errors[i].code == err)
            return cl_errors[i].name;
    return "CL_UNKNOWN_ERROR";
}

clrs_status clrs__cl_error(cl_int err, const char *call)
{
    return clrs__error(CLRS_ERR_OPENCL, "%s failed: %s (%d)", call,
                       clrs__cl_error_name(err), (int)err);
}

/* ---- device facts ---------------------------------------------------- */

/* Copies a string query into a fixed buffer, truncating; a failed query
 * leaves "" rather than failing the caller, since names are cosmetic. */
static void str_info(cl_device_id dev, cl_platform_id plat,
                     cl_uint param, char *buf, size_t size)
{
    cl_int err;
    size_t need = 0;
    char *tmp;

    buf[0] = '\0';
    if (dev)
        err = clGetDeviceInfo(dev, param, 0, NULL, &need);
    else
        err = clGetPlatformInfo(plat, param, 0, NULL, &need);
    if (err != CL_SUCCESS || need == 0)
        return;
    tmp = malloc(need + 1);
    if (!tmp)
        return;
    if (dev)
        err = clGetDeviceInfo(dev, param, need, tmp, NULL);
    else
        err = clGetPlatformInfo(plat, param, need, tmp, NULL);
    if (err == CL_SUCCESS) {
        tmp[need] = '\0';
        strncpy(buf, tmp, size - 1);
        buf[size - 1] = '\0';
    }
    free(tmp);
}

/* Whole-word search in a space-separated extension list, so that
 * "cl_khr_fp16" does not match "cl_khr_fp16_foo". */
static int has_extension(cl_device_id dev, const char *ext)
{
    size_t need = 0, n = strlen(ext);
    char *list, *p;
    int found = 0;

    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &need) !=
            CL_SUCCESS ||
        need == 0)
        return 0;
    list = malloc(need + 1);
    if (!list)
        return 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, need, list, NULL) ==
        CL_SUCCESS) {
        list[need] = '\0';
        for (p = strstr(list, ext); p; p = strstr(p + 1, ext)) {
            if ((p == list || p[-1] == ' ') &&
                (p[n] == '\0' || p[n] == ' ')) {
                found = 1;
                break;
            }
        }
    }
    free(list);
    return found;
}

static void fill_info(clrs_device_info *info, cl_platform_id plat,
                      unsigned pi, cl_device_id dev, unsigned di)
{
    cl_device_fp_config fp64 = 0;

    memset(info, 0, sizeof *info);
    info->platform_index = pi;
    info->device_index = di;
    str_info(NULL, plat, CL_PLATFORM_NAME, info->platform_name,
             sizeof info->platform_name);
    str_info(dev, NULL, CL_DEVICE_NAME, info->device_name,
             sizeof info->device_name);
    str_info(dev, NULL, CL_DEVICE_VENDOR, info->device_vendor,
             sizeof info->device_vendor);
    str_info(dev, NULL, CL_DEVICE_VERSION, info->device_version,
             sizeof info->device_version);
    str_info(dev, NULL, CL_DRIVER_VERSION, info->driver_version,
             sizeof info->driver_version);
    if (clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof info->type, &info->type,
                        NULL) != CL_SUCCESS)
        info->type = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE,
                        sizeof info->global_mem_size, &info->global_mem_size,
                        NULL) != CL_SUCCESS)
        info->global_mem_size = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS,
                        sizeof info->compute_units, &info->compute_units,
                        NULL) != CL_SUCCESS)
        info->compute_units = 0;
    /* OpenCL 1.2 makes fp64 optional: a device has it when it reports a
     * double config (1.2) or still lists the 1.0/1.1 extension. */
    if (clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64,
                        NULL) != CL_SUCCESS)
        fp64 = 0;
    info->has_fp64 = fp64 != 0 || has_extension(dev, "cl_khr_fp64");
    info->has_fp16 = has_extension(dev, "cl_khr_fp16");
}

/* Platforms, or none: the ICD loader reports "no platform" as an error
 * (CL_PLATFORM_NOT_FOUND_KHR), which for us is simply an empty list. */
static clrs_status get_platforms(cl_platform_id **plats, cl_uint *n)
{
    cl_int err;
    cl_uint m = 0;

    *plats = NULL;
    *n = 0;
    err = clGetPlatformIDs(0, NULL, &m);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || m == 0)
        return CLRS_SUCCESS;
    if (err != CL_SUCCESS)
        return clrs__cl_error(err, "clGetPlatformIDs");
    *plats = malloc(m * sizeof **plats);
    if (!*plats)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory listing %u platforms", m);
    err = clGetPlatformIDs(m, *plats, NULL);
    if (err != CL_SUCCESS) {
        free(*plats);
        *plats = NULL;
        return clrs__cl_error(err, "clGetPlatformIDs");
    }
    *n = m;
    return CLRS_SUCCESS;
}

/* Devices of one platform; a platform without devices is not an error. */
static clrs_status get_devices(cl_platform_id plat, cl_device_id **devs,
                               cl_uint *n)
{
    cl_int err;
    cl_uint m = 0;

    *devs = NULL;
    *n = 0;
    err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, &m);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && m == 0))
        return CLRS_SUCCESS;
    if (err != CL_SUCCESS)
        return clrs__cl_error(err, "clGetDeviceIDs");
    *devs = malloc(m * sizeof **devs);
    if (!*devs)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory listing %u devices", m);
    err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, m, *devs, NULL);
    if (err != CL_SUCCESS) {
        free(*devs);
        *devs = NULL;
        return clrs__cl_error(err, "clGetDeviceIDs");
    }
    *n = m;
    return CLRS_SUCCESS;
}

clrs_status clrs_list_devices(clrs_device_info *infos, size_t capacity,
                              size_t *count)
{
    cl_platform_id *plats;
    cl_uint np, p;
    size_t total = 0;

    CLRS_CHECK_PTR(count);
    CLRS_CHECK(infos != NULL || capacity == 0, CLRS_ERR_NULL_POINTER,
               "infos is NULL but capacity is %zu", capacity);
    *count = 0;
    CLRS_TRY(get_platforms(&plats, &np));
    for (p = 0; p < np; ++p) {
        cl_device_id *devs;
        cl_uint nd, d;
        clrs_status st = get_devices(plats[p], &devs, &nd);
        if (st < 0) {
            free(plats);
            return st;
        }
        for (d = 0; d < nd; ++d, ++total)
            if (total < capacity)
                fill_info(&infos[total], plats[p], p, devs[d], d);
        free(devs);
    }
    free(plats);
    *count = total;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

/* ---- selection ------------------------------------------------------- */

/* "P:D" with decimal indices and nothing else. */
static int parse_index(const char *s, unsigned *pi, unsigned *di)
{
    unsigned long v[2];
    int k;

    for (k = 0; k < 2; ++k) {
        char *end;
        if (!isdigit((unsigned char)*s))
            return 0;
        v[k] = strtoul(s, &end, 10);
        if (v[k] > UINT_MAX)
            return 0;
        s = end;
        if (k == 0 && *s++ != ':')
            return 0;
    }
    if (*s != '\0')
        return 0;
    *pi = (unsigned)v[0];
    *di = (unsigned)v[1];
    return 1;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i;
        for (i = 0; i < n; ++i)
            if (tolower((unsigned char)hay[i]) !=
                tolower((unsigned char)needle[i]))
                break;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Finds the first device the selector names. */
static clrs_status select_device(const char *sel, cl_platform_id *plat_out,
                                 cl_device_id *dev_out,
                                 clrs_device_info *info)
{
    cl_platform_id *plats;
    cl_uint np, p;
    unsigned want_p = 0, want_d = 0;
    int by_index = parse_index(sel, &want_p, &want_d);
    size_t ndev_total = 0;

    CLRS_TRY(get_platforms(&plats, &np));
    if (np == 0)
        return clrs__error(CLRS_ERR_NO_DEVICE,
                           "no OpenCL platform found (is an ICD installed "
                           "in /etc/OpenCL/vendors?)");
    for (p = 0; p < np; ++p) {
        cl_device_id *devs;
        cl_uint nd, d;
        clrs_status st;

        if (by_index && p != want_p)
            continue;
        st = get_devices(plats[p], &devs, &nd);
        if (st < 0) {
            free(plats);
            return st;
        }
        ndev_total += nd;
        for (d = 0; d < nd; ++d) {
            int match;
            fill_info(info, plats[p], p, devs[d], d);
            if (by_index)
                match = d == want_d;
            else
                match = contains_nocase(info->device_name, sel) ||
                        contains_nocase(info->platform_name, sel);
            if (match) {
                *plat_out = plats[p];
                *dev_out = devs[d];
                free(devs);
                free(plats);
                return CLRS_SUCCESS;
            }
        }
        free(devs);
    }
    free(plats);
    if (by_index)
        return clrs__error(CLRS_ERR_NO_DEVICE,
                           "no OpenCL device %u:%u (%u platform(s))", want_p,
                           want_d, np);
    if (ndev_total == 0)
        return clrs__error(CLRS_ERR_NO_DEVICE,
                           "no OpenCL device on %u platform(s)", np);
    return clrs__error(CLRS_ERR_NO_DEVICE,
                       "no OpenCL device or platform name matches \"%s\"",
                       sel);
}

/* ---- creation -------------------------------------------------------- */

/* The preferred and native vector width queries, by CLRS_LANE_*. */
static const cl_device_info width_query[CLRS_LANE_KINDS][2] = {
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
     CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
     CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
     CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE}};

/* CLRS_TEST_NATIVE_WIDTH=N (2..16, a power of two), for the test suite
 * only: a device that states native widths (>= 2) is taken as one whose
 * widest vector register holds N floats. Each element kind's native and
 * preferred width becomes that register's bytes over the element's, at
 * most 16 lanes: what PoCL reports for a CPU of that register width
 * (N = 4 SSE, 8 AVX2, 16 AVX-512). A narrower N lets a host with wide
 * vectors check the kernels a narrower one builds, a wider N the kernels
 * a wider one builds (tests/test_width_gate.sh). A device that states
 * none (1) is left alone. */
static void test_native_width(clrs_launch_facts *f)
{
    static const unsigned bytes[CLRS_LANE_KINDS] = {1, 2, 4, 8, 4, 8};
    const char *e = getenv("CLRS_TEST_NATIVE_WIDTH");
    unsigned long n;
    char *end;
    int i;

    if (!e || !*e)
        return;
    n = strtoul(e, &end, 10);
    if (*end || n < 2 || n > 16 || (n & (n - 1)))
        return;
    for (i = 0; i < CLRS_LANE_KINDS; ++i) {
        cl_uint w = (cl_uint)(n * 4 / bytes[i]);
        if (w > 16)
            w = 16;
        if (f->native[i] >= 2)
            f->native[i] = w;
        if (f->pref[i] >= 2)
            f->pref[i] = w;
    }
    if (f->pref_float >= 2 && f->pref[CLRS_LANE_FLOAT] >= 2)
        f->pref_float = f->pref[CLRS_LANE_FLOAT];
    if (f->pref_double >= 2 && f->pref[CLRS_LANE_DOUBLE] >= 2)
        f->pref_double = f->pref[CLRS_LANE_DOUBLE];
}

/* The vendor extensions' SIMD width queries, by the names of Khronos's
 * CL/cl_ext.h, defined here for a header without them. */
#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
#ifndef CL_DEVICE_WAVEFRONT_WIDTH_AMD
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#endif
#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif

/* Whether the space-separated list names ext as one whole item. */
static int lists_extension(const char *list, const char *ext)
{
    const size_t n = strlen(ext);
    const char *p;

    for (p = strstr(list, ext); p; p = strstr(p + n, ext))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* CL_DEVICE_EXTENSIONS (malloc'ed); NULL where it cannot be read. */
static char *device_extensions(cl_device_id dev)
{
    size_t n = 0;
    char *s;

    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &n) !=
            CL_SUCCESS ||
        n == 0 || !(s = malloc(n + 1)))
        return NULL;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, n, s, NULL) !=
        CL_SUCCESS) {
        free(s);
        return NULL;
    }
    s[n] = '\0';
    return s;
}

/* clrs_launch_facts.simd: the attribute of the first vendor extension
 * the device lists that answers; 0 where none does. */
static cl_uint query_simd(cl_device_id dev)
{
    static const struct {
        const char *ext;
        cl_device_info query;
    } one[] = {{"cl_nv_device_attribute_query", CL_DEVICE_WARP_SIZE_NV},
               {"cl_amd_device_attribute_query",
                CL_DEVICE_WAVEFRONT_WIDTH_AMD}};
    char *ext = device_extensions(dev);
    size_t sizes[64], n = 0, i;
    cl_uint w = 0;

    if (!ext)
        return 0;
    for (i = 0; w == 0 && i < sizeof one / sizeof one[0]; ++i)
        if (lists_extension(ext, one[i].ext) &&
            clGetDeviceInfo(dev, one[i].query, sizeof w, &w, NULL) !=
                CL_SUCCESS)
            w = 0;
    /* Intel's: every sub-group size its kernels may be compiled for. */
    if (w == 0 && lists_extension(ext, "cl_intel_required_subgroup_size") &&
        clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes,
                        sizes, &n) == CL_SUCCESS)
        w = clrs__launch_simd_of_sizes(sizes, n / sizeof sizes[0]);
    free(ext);
    return w;
}

/* What launch defaults are made of (launch.c). A device that reports no
 * double vector width (no fp64) gets the float one. */
static cl_int query_facts(cl_device_id dev, clrs_launch_facts *f)
{
    size_t items[16] = {0};
    cl_uint dims = 0, i;
    cl_int err;

    memset(f, 0, sizeof *f);
    err = clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof f->type, &f->type,
                          NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                              sizeof f->pref_float, &f->pref_float, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                              sizeof f->pref_double, &f->pref_double, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                              sizeof f->max_group, &f->max_group, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                              sizeof dims, &dims, NULL);
    if (err == CL_SUCCESS && dims > 16)
        dims = 16;
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                              dims * sizeof items[0], items, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                              sizeof f->base_align_bits, &f->base_align_bits,
                              NULL);
    for (i = 0; i < 3; ++i)
        f->max_items[i] = i < dims ? items[i] : 1;
    for (i = 0; err == CL_SUCCESS && i < CLRS_LANE_KINDS; ++i)
        err = clGetDeviceInfo(dev, width_query[i][0], sizeof f->pref[i],
                              &f->pref[i], NULL);
    for (i = 0; err == CL_SUCCESS && i < CLRS_LANE_KINDS; ++i)
        err = clGetDeviceInfo(dev, width_query[i][1], sizeof f->native[i],
                              &f->native[i], NULL);
    /* Optional: a driver that does not answer leaves 0. */
    if (err == CL_SUCCESS &&
        clGetDeviceInfo(dev, CL_DEVICE_VENDOR_ID, sizeof f->vendor_id,
                        &f->vendor_id, NULL) != CL_SUCCESS)
        f->vendor_id = 0;
    if (err == CL_SUCCESS)
        f->simd = query_simd(dev);
    test_native_width(f);
    if (f->pref_double == 0)
        f->pref_double = f->pref_float;
    return err;
}

/* CLRS_TUNE: off, use (the default), run or force; anything else is
 * use. */
static clrs_tune_mode tune_mode_from_env(void)
{
    const char *e = getenv("CLRS_TUNE");
    if (e && (strcmp(e, "off") == 0 || strcmp(e, "0") == 0))
        return CLRS_TUNE_OFF;
    if (e && strcmp(e, "run") == 0)
        return CLRS_TUNE_RUN;
    if (e && strcmp(e, "force") == 0)
        return CLRS_TUNE_FORCE;
    return CLRS_TUNE_USE;
}

/* A copy of a variable's value v; NULL where it is unset (or empty,
 * with empty_unset). *oom is set when the copy fails. */
static char *env_copy(const char *v, int empty_unset, int *oom)
{
    char *c;

    if (!v || (empty_unset && !*v))
        return NULL;
    c = strdup(v);
    if (!c)
        *oom = 1;
    return c;
}

/* A switch's value v: set, and neither empty nor "0". */
static int env_on(const char *v)
{
    return v && *v && strcmp(v, "0") != 0;
}

/* The environment plans read, once (clrs_env); 0 or out of memory. */
static int read_env(clrs_context *ctx)
{
    const char *f = getenv("CLRS_FP16");
    int oom = 0;

    ctx->dev.generic = env_on(getenv("CLRS_GENERIC"));
    ctx->dev.fp16 = f && strcmp(f, "native") == 0    ? 1
                    : f && strcmp(f, "storage") == 0 ? -1
                                                     : 0;
    ctx->env.werror = env_on(getenv("CLRS_WERROR"));
    ctx->env.launch = env_copy(getenv("CLRS_LAUNCH"), 1, &oom);
    ctx->env.dump_dir = env_copy(getenv("CLRS_DUMP_SOURCE"), 1, &oom);
    ctx->env.tuning_dir = env_copy(getenv("CLRS_TUNING_DIR"), 0, &oom);
    clrs__cache_config_from_env(&ctx->env.cache);
    return oom;
}

static void free_env(clrs_env *e)
{
    free(e->launch);
    free(e->dump_dir);
    free(e->tuning_dir);
    memset(e, 0, sizeof *e);
}

/* The part shared by both constructors: device limits, the environment
 * and the lock. */
static clrs_status ctx_alloc(clrs_context **out, cl_platform_id plat,
                             cl_device_id dev)
{
    clrs_context *ctx;
    cl_int err;

    ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory allocating a context");
    ctx->platform = plat;
    ctx->device = dev;
    err = clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                          sizeof ctx->max_alloc, &ctx->max_alloc, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS,
                              sizeof ctx->address_bits, &ctx->address_bits,
                              NULL);
    if (err == CL_SUCCESS)
        err = query_facts(dev, &ctx->dev.facts);
    ctx->tune_mode = tune_mode_from_env();
    ctx->tune_budget_ms = CLRS_TUNE_BUDGET_MS;
    if (err != CL_SUCCESS) {
        free(ctx);
        return clrs__cl_error(err, "clGetDeviceInfo");
    }
    if (read_env(ctx) != 0) {
        free_env(&ctx->env);
        free(ctx);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory reading the environment");
    }
    if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
        free_env(&ctx->env);
        free(ctx);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "cannot initialise the context mutex");
    }
    if (pthread_cond_init(&ctx->built, NULL) != 0) {
        pthread_mutex_destroy(&ctx->lock);
        free_env(&ctx->env);
        free(ctx);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "cannot initialise the context condition");
    }
    ctx->built_init = 1;
    *out = ctx;
    return CLRS_SUCCESS;
}

clrs_status clrs_context_create(clrs_context **out, const char *selector)
{
    clrs_device_info info;
    cl_platform_id plat = NULL;
    cl_device_id dev = NULL;
    cl_context_properties props[3];
    clrs_context *ctx;
    cl_int err;

    CLRS_CHECK(out != NULL, CLRS_ERR_NULL_POINTER, "ctx is NULL");
    *out = NULL;
    /* "" names no device: it would match every name as a substring, and
     * so silently open the first device whatever the caller meant. */
    CLRS_CHECK(!selector || *selector, CLRS_ERR_INVALID_VALUE,
               "the device selector is empty (\"P:D\" or part of a device "
               "or platform name; NULL for CLRS_DEVICE, else the first "
               "device)");
    if (!selector) {
        /* An empty CLRS_DEVICE counts as unset. */
        selector = getenv("CLRS_DEVICE");
        if (!selector)
            selector = "";
    }
    CLRS_TRY(select_device(selector, &plat, &dev, &info));
    CLRS_TRY(ctx_alloc(&ctx, plat, dev));
    ctx->dev.info = info;

    props[0] = CL_CONTEXT_PLATFORM;
    props[1] = (cl_context_properties)plat;
    props[2] = 0;
    ctx->cl_ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    if (!ctx->cl_ctx) {
        clrs_status st = clrs__cl_error(err, "clCreateContext");
        clrs_context_destroy(ctx);
        return st;
    }
    /* In-order: a plan's kernels may rely on queue order. Profiling: the
     * CLI and users time executions from the returned events. */
    ctx->queue = clCreateCommandQueue(ctx->cl_ctx, dev,
                                      CL_QUEUE_PROFILING_ENABLE, &err);
    if (!ctx->queue) {
        clrs_status st = clrs__cl_error(err, "clCreateCommandQueue");
        clrs_context_destroy(ctx);
        return st;
    }
    /* Retained so that destroy can release uniformly (a no-op for root
     * devices, required for sub-devices handed to create_from_cl). */
    err = clRetainDevice(dev);
    if (err != CL_SUCCESS) {
        clrs_status st = clrs__cl_error(err, "clRetainDevice");
        clrs_context_destroy(ctx);
        return st;
    }
    ctx->device_retained = 1;
    *out = ctx;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

/* Platform and device index of a wrapped device, for the info struct;
 * UINT_MAX when the device is not in the list (e.g. a sub-device). */
static void find_indices(cl_platform_id plat, cl_device_id dev,
                         unsigned *pi, unsigned *di)
{
    cl_platform_id *plats;
    cl_uint np, p;

    /* An enumeration failure here only costs the indices, not the call:
     * the caller clears the thread's message when it succeeds. */
    *pi = *di = UINT_MAX;
    if (get_platforms(&plats, &np) < 0)
        return;
    for (p = 0; p < np; ++p) {
        cl_device_id *devs;
        cl_uint nd, d;
        if (plats[p] != plat || get_devices(plats[p], &devs, &nd) < 0)
            continue;
        *pi = p;
        for (d = 0; d < nd; ++d)
            if (devs[d] == dev)
                *di = d;
        free(devs);
    }
    free(plats);
}

clrs_status clrs_context_create_from_cl(clrs_context **out,
                                        cl_context cl_ctx,
                                        cl_device_id device,
                                        cl_command_queue queue)
{
    cl_context qctx = NULL;
    cl_device_id qdev = NULL;
    cl_platform_id plat = NULL;
    clrs_context *ctx;
    unsigned pi, di;
    cl_int err;

    CLRS_CHECK(out != NULL, CLRS_ERR_NULL_POINTER, "ctx is NULL");
    *out = NULL;
    CLRS_CHECK_PTR(cl_ctx);
    CLRS_CHECK_PTR(device);
    CLRS_CHECK_PTR(queue);
    err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx,
                                NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev,
                                    &qdev, NULL);
    if (err != CL_SUCCESS)
        return clrs__cl_error(err, "clGetCommandQueueInfo");
    CLRS_CHECK(qctx == cl_ctx, CLRS_ERR_INVALID_VALUE,
               "queue belongs to another cl_context than the one given");
    CLRS_CHECK(qdev == device, CLRS_ERR_INVALID_VALUE,
               "queue belongs to another device than the one given");
    err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof plat, &plat,
                          NULL);
    if (err != CL_SUCCESS)
        return clrs__cl_error(err, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
    CLRS_TRY(ctx_alloc(&ctx, plat, device));
    find_indices(plat, device, &pi, &di);
    fill_info(&ctx->dev.info, plat, pi, device, di);

    /* If one retain fails, destroy releases those made so far. */
    err = clRetainContext(cl_ctx);
    if (err != CL_SUCCESS) {
        clrs_context_destroy(ctx);
        return clrs__cl_error(err, "clRetainContext");
    }
    ctx->cl_ctx = cl_ctx;
    err = clRetainCommandQueue(queue);
    if (err != CL_SUCCESS) {
        clrs_context_destroy(ctx);
        return clrs__cl_error(err, "clRetainCommandQueue");
    }
    ctx->queue = queue;
    err = clRetainDevice(device);
    if (err != CL_SUCCESS) {
        clrs_context_destroy(ctx);
        return clrs__cl_error(err, "clRetainDevice");
    }
    ctx->device_retained = 1;
    *out = ctx;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

/* The context's built programs by configuration key, and the tuning
 * database as last read. */
static void free_caches(clrs_context *ctx)
{
    struct clrs_prog_entry *e = ctx->programs, *next;
    for (; e; e = next) {
        next = e->next;
        if (e->program)
            clReleaseProgram(e->program);
        free(e->key);
        free(e);
    }
    ctx->programs = NULL;
    free(ctx->disk_device);
    ctx->disk_device = NULL;
    free(ctx->tdb.v);
    memset(&ctx->tdb, 0, sizeof ctx->tdb);
    free(ctx->shipped.v);
    memset(&ctx->shipped, 0, sizeof ctx->shipped);
}

/* Every handle is released only if it was set (retained), so error paths
 * of the constructors can free a half-built context. */
static void ctx_free(clrs_context *ctx)
{
    free_caches(ctx);
    free_env(&ctx->env);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->cl_ctx)
        clReleaseContext(ctx->cl_ctx);
    if (ctx->device_retained)
        clReleaseDevice(ctx->device);
    if (ctx->built_init)
        pthread_cond_destroy(&ctx->built);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

void clrs_context_destroy(clrs_context *ctx)
{
    int live;

    if (!ctx)
        return;
    pthread_mutex_lock(&ctx->lock);
    ctx->destroyed = 1;
    live = ctx->plans > 0;
    pthread_mutex_unlock(&ctx->lock);
    if (!live)
        ctx_free(ctx);
}

void clrs__ctx_retain(clrs_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->plans++;
    pthread_mutex_unlock(&ctx->lock);
}

void clrs__ctx_release(clrs_context *ctx)
{
    int last;

    pthread_mutex_lock(&ctx->lock);
    last = --ctx->plans == 0 && ctx->destroyed;
    pthread_mutex_unlock(&ctx->lock);
    if (last)
        ctx_free(ctx);
}

/* ---- accessors ------------------------------------------------------- */

clrs_status clrs_context_set_tuning(clrs_context *ctx, clrs_tune_mode mode,
                                    double budget_ms)
{
    CLRS_CHECK_PTR(ctx);
    CLRS_CHECK(mode == CLRS_TUNE_OFF || mode == CLRS_TUNE_USE ||
                   mode == CLRS_TUNE_RUN || mode == CLRS_TUNE_FORCE,
               CLRS_ERR_INVALID_VALUE, "tune mode %d", (int)mode);
    CLRS_CHECK(budget_ms >= 0 && budget_ms <= 1e9, CLRS_ERR_INVALID_VALUE,
               "tuning budget %g ms (0 keeps it; at most 1e9)", budget_ms);
    pthread_mutex_lock(&ctx->lock);
    ctx->tune_mode = mode;
    if (budget_ms > 0)
        ctx->tune_budget_ms = budget_ms;
    pthread_mutex_unlock(&ctx->lock);
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_context_get_tuning(const clrs_context *ctx,
                                    clrs_tune_mode *mode, double *budget_ms)
{
    CLRS_CHECK_PTR(ctx);
    pthread_mutex_lock((pthread_mutex_t *)&ctx->lock);
    if (mode)
        *mode = ctx->tune_mode;
    if (budget_ms)
        *budget_ms = ctx->tune_budget_ms;
    pthread_mutex_unlock((pthread_mutex_t *)&ctx->lock);
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_context_get_cl(const clrs_context *ctx, cl_context *cl_ctx,
                                cl_device_id *device, cl_command_queue *queue)
{
    CLRS_CHECK_PTR(ctx);
    if (cl_ctx)
        *cl_ctx = ctx->cl_ctx;
    if (device)
        *device = ctx->device;
    if (queue)
        *queue = ctx->queue;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_context_get_device_info(const clrs_context *ctx,
                                         clrs_device_info *info)
{
    CLRS_CHECK_PTR(ctx);
    if (!info)
        return clrs__ctx_error((clrs_context *)ctx,
                               clrs__error(CLRS_ERR_NULL_POINTER,
                                           "info is NULL"));
    *info = ctx->dev.info;
    clrs__clear_error();
    return CLRS_SUCCESS;
}

clrs_status clrs_context_get_cache_stats(const clrs_context *ctx,
                                         clrs_cache_stats *stats)
{
    clrs_context *c = (clrs_context *)ctx; /* the lock is mutable state */

    CLRS_CHECK_PTR(ctx);
    if (!stats)
        return clrs__ctx_error(c, clrs__error(CLRS_ERR_NULL_POINTER,
                                              "stats is NULL"));
    pthread_mutex_lock(&c->lock);
    *stats = c->stats;
    pthread_mutex_unlock(&c->lock);
    clrs__clear_error();
    return CLRS_SUCCESS;
}

/* ---- per-thread detail messages -------------------------------------- */

static void ctx_store(clrs_context *ctx, const char *msg)
{
    pthread_t self;
    int i, slot = -1;

    self = pthread_self();
    pthread_mutex_lock(&ctx->lock);
    /* This thread's slot, else a free one, else the least recently
     * written one. */
    for (i = 0; i < CLRS_CTX_ERR_SLOTS && slot < 0; ++i)
        if (ctx->errs[i].used && pthread_equal(ctx->errs[i].thread, self))
            slot = i;
    for (i = 0; i < CLRS_CTX_ERR_SLOTS && slot < 0; ++i)
        if (!ctx->errs[i].used)
            slot = i;
    if (slot < 0) {
        slot = 0;
        for (i = 1; i < CLRS_CTX_ERR_SLOTS; ++i)
            if (ctx->errs[i].stamp < ctx->errs[slot].stamp)
                slot = i;
    }
    ctx->errs[slot].used = 1;
    ctx->errs[slot].thread = self;
    ctx->errs[slot].stamp = ++ctx->err_clock;
    strncpy(ctx->errs[slot].msg, msg, sizeof ctx->errs[slot].msg - 1);
    ctx->errs[slot].msg[sizeof ctx->errs[slot].msg - 1] = '\0';
    pthread_mutex_unlock(&ctx->lock);
}

clrs_status clrs__ctx_error(clrs_context *ctx, clrs_status st)
{
    /* Success leaves the slot alone: it holds the last *failing* call. */
    if (ctx && st < 0)
        ctx_store(ctx, clrs__thread_error());
    return st;
}

void clrs__ctx_note(clrs_context *ctx, const char *msg)
{
    if (ctx)
        ctx_store(ctx, msg);
}

const char *clrs_context_last_error(const clrs_context *ctx)
{
    /* Returned by copy into thread-local storage: the slot itself may be
     * evicted and rewritten by another thread at any time. */
    static CLRS_THREAD_LOCAL char copy[CLRS_ERRMSG_MAX];
    clrs_context *c = (clrs_context *)ctx;
    pthread_t self;
    int i;

    copy[0] = '\0';
    if (!ctx)
        return copy;
    self = pthread_self();
    pthread_mutex_lock(&c->lock);
    for (i = 0; i < CLRS_CTX_ERR_SLOTS; ++i) {
        if (c->errs[i].used && pthread_equal(c->errs[i].thread, self)) {
            memcpy(copy, c->errs[i].msg, sizeof copy);
            break;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return copy;
}
