/* A driver that misbehaves on demand, for tests/test_cli_faults.sh:
 * LD_PRELOAD'ed into the tool, its clBuildProgram comes before the ICD
 * loader's. With CLRS_TEST_FAULT unset it passes every call on; set, it
 * writes to stderr while the tool is building a plan, as a driver or a
 * sanitizer does, and then:
 *   exit   ends the process with status 1 (what AddressSanitizer does
 *          after its report),
 *   abort  aborts (SIGABRT),
 *   kill   kills the process with SIGKILL, printing nothing first,
 *   fail   fails the build (CL_BUILD_PROGRAM_FAILURE).
 * Set to kill-write:PREFIX it instead kills the process (SIGKILL) in the
 * fsync of a file whose name starts with PREFIX: a run killed with a
 * temp file of the cache half-written, for tests/test_cli_faults.sh.
 * Set to driver-notice, the build passes and each program's build log
 * comes with the line NVIDIA's drivers log for most kernels (before the
 * driver's own log and after it), which the library drops. */
#define _GNU_SOURCE 1 /* RTLD_NEXT */

#include <CL/cl.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef cl_int(CL_API_CALL *build_fn)(cl_program, cl_uint,
                                      const cl_device_id *, const char *,
                                      void(CL_CALLBACK *)(cl_program, void *),
                                      void *);

int fsync(int fd)
{
    static const char tag[] = "kill-write:";
    const char *how = getenv("CLRS_TEST_FAULT"), *base;
    char link[64], name[4096];
    ssize_t n;
    int (*real)(int);

    if (how && strncmp(how, tag, sizeof tag - 1) == 0) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        n = readlink(link, name, sizeof name - 1);
        if (n > 0) {
            name[n] = '\0';
            base = strrchr(name, '/');
            base = base ? base + 1 : name;
            if (strncmp(base, how + sizeof tag - 1,
                        strlen(how + sizeof tag - 1)) == 0)
                kill(getpid(), SIGKILL);
        }
    }
    *(void **)&real = dlsym(RTLD_NEXT, "fsync");
    return real ? real(fd) : 0;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *devices,
    const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
    void *user_data) CL_API_SUFFIX__VERSION_1_0
{
    const char *how = getenv("CLRS_TEST_FAULT");
    build_fn real;

    if (how && strcmp(how, "driver-notice") == 0)
        how = NULL;
    if (how && strcmp(how, "kill") == 0)
        kill(getpid(), SIGKILL);
    if (how && *how) {
        fprintf(stderr, "==fault== ERROR: the driver's report (%s)\n", how);
        fflush(stderr);
    }
    if (how && strcmp(how, "exit") == 0)
        _exit(1);
    if (how && strcmp(how, "abort") == 0)
        abort();
    if (how && strcmp(how, "fail") == 0)
        return CL_BUILD_PROGRAM_FAILURE;
    *(void **)&real = dlsym(RTLD_NEXT, "clBuildProgram");
    if (!real)
        return CL_OUT_OF_HOST_MEMORY;
    return real(program, num_devices, devices, options, notify, user_data);
}

typedef cl_int(CL_API_CALL *info_fn)(cl_program, cl_device_id,
                                     cl_program_build_info, size_t, void *,
                                     size_t *);

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(
    cl_program program, cl_device_id device, cl_program_build_info param,
    size_t size, void *value, size_t *size_ret) CL_API_SUFFIX__VERSION_1_0
{
    static const char notice[] =
        "(): Warning: Function clrs_forward is a kernel, so overriding "
        "noinline attribute. The function may be inlined when called.\n";
    const size_t len = sizeof notice - 1;
    const char *how = getenv("CLRS_TEST_FAULT");
    size_t n = 0, total;
    info_fn real;
    char *out = value;
    cl_int err;

    *(void **)&real = dlsym(RTLD_NEXT, "clGetProgramBuildInfo");
    if (!real)
        return CL_OUT_OF_HOST_MEMORY;
    if (!how || strcmp(how, "driver-notice") != 0 ||
        param != CL_PROGRAM_BUILD_LOG)
        return real(program, device, param, size, value, size_ret);
    /* The notice, the driver's log (n bytes with its NUL), a newline,
     * the notice again and a NUL. */
    err = real(program, device, param, 0, NULL, &n);
    if (err != CL_SUCCESS)
        return err;
    total = 2 * len + n + 1;
    if (size_ret)
        *size_ret = total;
    if (!value)
        return CL_SUCCESS;
    if (size < total)
        return CL_INVALID_VALUE;
    memcpy(out, notice, len);
    err = real(program, device, param, n, out + len, NULL);
    if (err != CL_SUCCESS)
        return err;
    out += len + strnlen(out + len, n);
    *out++ = '\n';
    memcpy(out, notice, len + 1);
    return CL_SUCCESS;
}
