/* Built OpenCL programs: one function that returns the program for a
 * configuration key, from the context's memory map, the disk, or a build. */
#ifndef CLRS_PROGRAM_H
#define CLRS_PROGRAM_H

#include "rt/context.h"

/* Writes the source of a key into *source (malloc'ed); called only when
 * the program is not in the context's map. */
typedef clrs_status (*clrs_source_fn)(const void *arg, const char *key,
                                      char **source);

/* The built program for key, retained for the caller (release it), and
 * where it came from (source may be NULL). Lookup order: the context's
 * map (no OpenCL call); the on-disk cache (lib/cache.c: a binary load,
 * which falls back to source when the driver rejects it); a source build,
 * whose binary is then stored on disk. Concurrent callers with one key
 * share one build. gen writes the source, which is dumped to
 * $CLRS_DUMP_SOURCE/ when that is set (a dump that cannot be written is
 * said once, never an error); a failed build returns
 * CLRS_ERR_BUILD_FAILED with the head of the build log. The disk cache
 * never fails the call. */
clrs_status clrs__program_get_ex(clrs_context *ctx, const char *key,
                                 clrs_source_fn gen, const void *arg,
                                 const char *options, cl_program *program,
                                 clrs_cache_source *source);

/* The build options of every program: "-Werror" when CLRS_WERROR is set
 * (and not "0"), so that a compiler warning fails the plan with
 * CLRS_ERR_BUILD_FAILED and the log in its message (the test suite runs
 * so); else none. Never -cl-fast-relaxed-math: taps and weights must
 * match the reference. */
const char *clrs__program_options(const clrs_context *ctx);

/* The compiler's log of prog's last build on the context's device,
 * trailing whitespace removed, malloc'ed; NULL when it is empty or
 * cannot be read. */
char *clrs__program_build_log(const clrs_context *ctx, cl_program prog);

#endif /* CLRS_PROGRAM_H */
