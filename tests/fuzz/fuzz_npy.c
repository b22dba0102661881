/* libFuzzer target: the tool's .npy reader. The input is written to a
 * file and read as a '<f4' array of shape (2, 3) and as a '|u1' array of
 * shape (4,), the arrays of the seed corpus. */
#include "npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tmp = getenv("TMPDIR");
    (void)argc;
    (void)argv;
    snprintf(path, sizeof path, "%s/clrs-fuzz-npy-%ld.npy",
             tmp && tmp[0] == '/' ? tmp : "/tmp", (long)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int64_t shape_f4[2] = {2, 3}, shape_u1[1] = {4};
    float f4[6];
    unsigned char u1[4];
    char err[512];
    FILE *f = fopen(path, "wb");

    if (!f)
        return 0;
    if (fwrite(data, 1, size, f) != size) {
        fclose(f);
        return 0;
    }
    fclose(f);
    npy_read(path, "<f4", sizeof f4[0], 2, shape_f4, f4, err, sizeof err);
    npy_read(path, "|u1", sizeof u1[0], 1, shape_u1, u1, err, sizeof err);
    unlink(path);
    return 0;
}
