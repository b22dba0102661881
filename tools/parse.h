/* clresample tool: what the files of the command-line parser share (the
 * value parsers and errors of values.c, the problem knob table of
 * knobs.c, the run-wide options of options.c, batch.c's files, expand.c's
 * expansion) and the state parse.c drives them with. Not for the rest of
 * the tool, which sees cli.h's cli_parse. */
#ifndef CLRS_TOOL_PARSE_H
#define CLRS_TOOL_PARSE_H

#include "cli.h"

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* The size of every error message buffer. */
#define ERRSZ 512
/* The most values of one comma list. */
#define MAX_LIST 64

/* One name of a name list and the value it stands for; lists end with a
 * NULL name. */
typedef struct choice {
    const char *name;
    int value;
} choice;

/* ---- the problem knobs (knobs.c) ---- */

typedef enum kkind { K_ENUM, K_DOUBLE, K_INT, K_CUSTOM } kkind;
typedef int (*custom_fn)(const char *v, cli_opts *o, char *err);

typedef struct knob {
    const char *name;
    const char *def;
    kkind kind;
    size_t off;
    const choice *choices;
    custom_fn fn;
    int64_t lo, hi; /* K_INT */
} knob;

/* The rows of knobs, which knobs.c checks. */
#define NKNOBS 31
extern const knob knobs[];
/* The name lists that run-wide options read too. */
extern const choice vendors[], bools[];

/* The row of the knob called name, or -1. */
int knob_index(const char *name);
#define TAG_KNOB knob_index("tag")
#define VENDOR_KNOB knob_index("vendor")
#define POST_OPS_KNOB knob_index("attr-post-ops")
/* Sets k's field of o from v; -1 with the reason in err. */
int knob_apply(const knob *k, const char *v, cli_opts *o, char *err);
/* o with every knob at its default. */
void opts_defaults(cli_opts *o);

/* --attr-post-ops (postops.c): the chain v into o. */
int set_post_ops(const char *v, cli_opts *o, char *err);

/* ---- the parser's state (parse.c) ---- */

typedef struct state {
    const char *val[NKNOBS]; /* current comma list per knob */
    cli_global g;
    cli_run *run;
    cli_prb_list *out;
    int depth;
    int files;         /* batch files read so far */
    size_t batch_bytes; /* and their bytes */
    const char *where; /* "argument" or "file:line" for messages */
    /* --match: problems whose repro line the regex finds nothing in are
     * left out, as benchdnn does; --reset clears it. */
    regex_t match;
    int has_match;
    /* --preset: the --vendor that --reset restores (NULL: none). */
    const char *preset;
    /* What runs one token: parse.c's, which batch files feed. */
    int (*token)(struct state *s, const char *tok);
} state;

/* ---- errors, value parsers and the string pool (values.c) ---- */

/* The message in err (ERRSZ bytes); returns -1. */
int fail(char *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "unknown value 'v' (one of ...)" in err, naming c's values; -1. */
int fail_choice(char *err, const char *v, const choice *c);
/* Prints tok's error where it was read; returns CLI_EXIT_USAGE. */
int usage_error(const state *s, const char *tok, const char *msg);
/* The value of the name v in c (nocase: in any case); -1 when none. */
int find_choice(const choice *c, const char *v, int nocase, int *out);
int parse_double(const char *v, double *out, char *err);
int parse_int(const char *v, int64_t lo, int64_t hi, int64_t *out,
              char *err);
/* A copy of n bytes of s, NUL-terminated, kept until pool_free; NULL
 * when out of memory. */
const char *pool_dup(const char *s, size_t n);
/* Frees every string pool_dup gave. */
void pool_free(void);

/* ---- run-wide options (options.c) ---- */

typedef struct global_opt global_opt;
/* The run-wide option called name, or NULL. */
const global_opt *global_find(const char *name);
/* Sets the run-wide option name from v: 0, a usage error's status, or
 * -1 when name is none. */
int do_global(state *s, const char *tok, const char *name, const char *v);
/* The run-wide knobs' defaults; keep_run_knobs keeps how to run (mode,
 * engine, times, seed) as --reset does. */
void global_defaults(cli_global *g, int keep_run_knobs);
/* Drops the --match pattern. */
void clear_match(state *s);

/* ---- batch files (batch.c) ---- */

/* Runs the tokens of the batch file at path (named by tok). */
int read_batch(state *s, const char *path, const char *tok);

/* ---- expansion (expand.c) ---- */

/* Splits a comma list into at most max pooled pieces; -1 when more or
 * out of memory. */
int split(const char *list, const char **parts, int max);
/* The problems of one descriptor over every combination of the knobs'
 * lists, onto s->out. */
int expand(state *s, const char *tok, const cli_desc_raw *raw);

#endif /* CLRS_TOOL_PARSE_H */
