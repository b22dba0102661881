/* clresample: the command-line benchmarker and checker. This first version
 * lists OpenCL devices and the library version; the benchdnn-style problem
 * driver arrives with the OpenCL kernels. */
#include <clresample.h>

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clresample [--version] [--list-devices] [--help]\n"
            "  --version       print the library version\n"
            "  --list-devices  list every OpenCL device (index P:D, name)\n");
}

static int list_devices(void)
{
    clrs_device_info infos[64];
    size_t count = 0, i;
    clrs_status st = clrs_list_devices(infos, 64, &count);
    if (st < 0) {
        fprintf(stderr, "clresample: %s: %s\n", clrs_status_name(st),
                clrs_last_error());
        return 3;
    }
    if (count == 0) {
        fprintf(stderr, "clresample: no OpenCL device found\n");
        return 3;
    }
    for (i = 0; i < count && i < 64; ++i)
        printf("%u:%u  %s | %s | %s | fp64 %s | %u compute units | "
               "%.1f GiB\n",
               infos[i].platform_index, infos[i].device_index,
               infos[i].device_name, infos[i].platform_name,
               infos[i].device_version, infos[i].has_fp64 ? "yes" : "no",
               infos[i].compute_units,
               (double)infos[i].global_mem_size / (1024.0 * 1024 * 1024));
    return 0;
}

int main(int argc, char **argv)
{
    int i, rc = 0;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--version") == 0) {
            printf("clresample %s\n", clrs_version_string());
        } else if (strcmp(argv[i], "--list-devices") == 0) {
            rc = list_devices();
            if (rc)
                return rc;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
        } else {
            fprintf(stderr, "clresample: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    return rc;
}
