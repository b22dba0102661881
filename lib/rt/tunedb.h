/* The tuning database: per device, a text file beside the program cache
 * with the winning launch of each configuration class and size bucket,
 * which plans consult and the tuner writes (plan.c). */
#ifndef CLRS_TUNEDB_H
#define CLRS_TUNEDB_H

#include "rt/context.h"

#define CLRS_TUNE_CLASS_MAX 160

/* What a database line is for: the configuration class (direction,
 * mode, dtypes, the layouts of dst and src, the tensors the kernel
 * writes and reads (`w` and `r` in the key), resampled axes; no spaces)
 * and the size bucket (floor of log2 of dst's elements). */
typedef struct clrs_tune_key {
    char cls[CLRS_TUNE_CLASS_MAX];
    int bucket;
} clrs_tune_key;

void clrs__tune_key(const clrs_problem *p, int index_only, clrs_tune_key *k);

/* The database's launch for k (CLRS_LAUNCH's syntax) into launch[n]: 1
 * found, 0 not (no database, no file, no valid line). Where two valid
 * lines name k (merged files), the faster one. The context keeps the
 * parsed file until the file changes. */
int clrs__tunedb_lookup(clrs_context *ctx, const clrs_tune_key *k,
                        char *launch, size_t n);

/* The same from the databases installed with the library for this
 * device and driver (read once per context). */
int clrs__tunedb_lookup_shipped(clrs_context *ctx, const clrs_tune_key *k,
                                char *launch, size_t n);

/* Adds or replaces k's line (every line of another key stays as it
 * is), under the cache's lock; 0 or an errno value with the reason in
 * why, which the caller only notes: the database never fails a call.
 * Without the lock, over a file too large to read whole, or over what is
 * not a regular file, nothing is written. */
int clrs__tunedb_store(const clrs_context *ctx, const clrs_tune_key *k,
                       const char *launch, double ms, char *why,
                       size_t why_size);

#endif /* CLRS_TUNEDB_H */
