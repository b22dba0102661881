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
 * temp file of the cache half-written, for tests/test_cli_faults.sh. */
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
