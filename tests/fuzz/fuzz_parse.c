/* libFuzzer target: the clresample command line, knobs, descriptors and
 * batch files, parsed and expanded as the tool does before anything runs.
 * The input is split at newlines into arguments (so an argument may hold
 * spaces), then the same bytes are read as a batch file. */
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 256

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char batch_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tmp = getenv("TMPDIR");
    (void)argc;
    (void)argv;
    snprintf(batch_path, sizeof batch_path, "%s/clrs-fuzz-batch-%ld",
             tmp && tmp[0] == '/' ? tmp : "/tmp", (long)getpid());
    return 0;
}

/* Parse, expand and free: what the tool does before running anything. */
static void parse(int argc, char **argv)
{
    cli_prb_list l;
    cli_run run;

    cli_parse(argc, argv, &l, &run);
    cli_free_problems(&l);
}

static void as_batch_file(const uint8_t *data, size_t size)
{
    char arg[4200], name[] = "clresample", *argv[3];
    FILE *f = fopen(batch_path, "wb");

    if (!f)
        return;
    if (fwrite(data, 1, size, f) != size) {
        fclose(f);
        return;
    }
    fclose(f);
    snprintf(arg, sizeof arg, "--batch=%s", batch_path);
    argv[0] = name;
    argv[1] = arg;
    argv[2] = NULL;
    parse(2, argv);
    unlink(batch_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char name[] = "clresample", *buf, *p, *end, *argv[MAX_ARGS + 1];
    int argc = 0;

    if (size > (1u << 16))
        return 0;
    buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = name;
    for (p = buf, end = buf + size; argc < MAX_ARGS;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl)
            *nl = '\0';
        argv[argc++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    argv[argc] = NULL;
    parse(argc, argv);
    free(buf);
    as_batch_file(data, size);
    return 0;
}
