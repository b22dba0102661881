/* Built OpenCL programs: one function that returns the program for a
 * configuration key, from the context's memory map or by building it. */
#ifndef CLRS_PROGRAM_H
#define CLRS_PROGRAM_H

#include "context.h"

/* Writes the source of a key into *source (malloc'ed); called only when
 * the program has to be built. */
typedef clrs_status (*clrs_source_fn)(const void *arg, const char *key,
                                      char **source);

/* The built program for key, retained for the caller (release it). On a
 * miss, gen writes the source, which is dumped to $CLRS_DUMP_SOURCE/ when
 * that is set and built with options; a failed build returns
 * CLRS_ERR_BUILD_FAILED with the head of the build log. The on-disk cache
 * (a later issue) slots in here. */
clrs_status clrs__program_get(clrs_context *ctx, const char *key,
                              clrs_source_fn gen, const void *arg,
                              const char *options, cl_program *program);

#endif /* CLRS_PROGRAM_H */
