/* clresample tool: the types shared by its files (problem options, global
 * settings, one expanded problem, results) and their entry points. */
#ifndef CLRS_TOOL_CLI_H
#define CLRS_TOOL_CLI_H

#include <clresample.h>
#include "model/feature_maps.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Spatial axes of a descriptor: index 0 = d, 1 = h, 2 = w. */
#define CLI_SP 3
/* Tensor axes of a descriptor: N, C and the spatial ones. */
#define CLI_MAXAX (CLI_SP + 2)
/* The longest problem name (n"..."): benchdnn's inputs have names of
 * a hundred characters (two digests joined). */
#define CLI_NAME_MAX 200
/* Exit statuses (clresample(1), EXIT STATUS). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_NODEV 3

typedef enum cli_dir { DIR_FWD_D = 0, DIR_FWD_I, DIR_BWD_D } cli_dir;

/* --alg: the library's modes (CLRS_MODE_MAP's cli column spells them),
 * ALG_<ENUM> = CLRS_MODE_<ENUM>, plus auto. */
typedef enum cli_alg {
    ALG_AUTO = -1,   /* max for descriptors with a window, else nearest */
    ALG_METHOD = -2, /* an image library's method: --vendor says which */
#define CLI_ALG_(e, ...) ALG_##e = CLRS_MODE_##e,
    CLRS_MODE_MAP(CLI_ALG_)
#undef CLI_ALG_
        ALG_COUNT_ = CLRS_MODE_COUNT
} cli_alg;

/* --tag values: a library tag plus the rank it demands (0: any). */
typedef struct cli_tag {
    const char *name;
    clrs_tag tag;
    int rank;
    int blocked;
    /* A oneDNN tag the library has no layout for (a double-blocked
     * ABcd32a16b): problems with it are skipped with this reason. */
    const char *refused;
} cli_tag;

/* Everything one problem's knobs can say, already parsed. */
typedef struct cli_opts {
    /* Enumerations are stored as int so that one table-driven setter
     * (knobs.c) serves them all. */
    int dir;      /* cli_dir */
    int alg;      /* cli_alg */
    int method;   /* clrs__methods row of --vendor's --alg name, or -1 */
    char alg_name[32]; /* --alg as given */
    clrs_dtype sdt, ddt;
    const cli_tag *tag;
    int vendor;   /* clrs_vendor, -1: none */
    int coord;    /* clrs_coord */
    int rounding; /* clrs_rounding, -1: the library's (or preset's) */
    int arith;    /* clrs_arith, -1: as rounding */
    int aa_rule;  /* clrs_antialias_rule, -1: as rounding */
    int keep_aspect; /* clrs_keep_aspect: descriptor outputs are sizes */
    double cubic_a;  /* NaN: as rounding */
    int filter;      /* --filter: clrs_filter, -1: none given */
    double filter_p, filter_q; /* NaN: the filter's default */
    int exclude_outside, antialias;
    int scratchpad; /* --attr-scratchpad: 0 library, 1 user (the tool's
                       workspace, poisoned before each run) */
    int pad_mode; /* clrs_padding */
    double pad_value;
    /* --axes: 0 = the spatial axes; else n_axes entries, each a letter
     * of "ncdhw" or a tensor axis number (negative counts from the end),
     * resolved against the descriptor's rank. */
    int n_axes;
    int axes[CLI_MAXAX];
    /* Per resampled axis (one value broadcasts). */
    int n_scales;
    double scales[CLI_MAXAX];
    int n_translate; /* --translate: ScaleAndTranslate's, with --scales */
    double translate[CLI_MAXAX];
    int n_offsets;
    float in_off[CLI_MAXAX], out_off[CLI_MAXAX];
    int n_roi;
    double roi_s[CLI_MAXAX], roi_e[CLI_MAXAX];
    double extrapolation;
    int index_format; /* clrs_index_format */
    int nan_policy;   /* clrs_nan_policy */
    int ceil_mode;
    int divisor;             /* clrs_divisor, -1: the preset's or window */
    double divisor_override; /* 0: none */
    int64_t mb; /* 0: as the descriptor says */
    /* --attr-post-ops, benchdnn's spelling: sum[:scale],
     * eltwise_ALG[:alpha[:beta]], binary_ALG:DT[:POLICY], joined by '+'. */
    int n_post;
    struct cli_post {
        int kind; /* CLI_POST_* */
        int alg;  /* clrs_eltwise or clrs_binary */
        double alpha, beta, scale;
        clrs_dtype dt;
        unsigned mask; /* binary: bit a set = operand dim a is dst's */
    } post[CLRS_MAX_POST_OPS];
} cli_opts;

enum { CLI_POST_SUM = 0, CLI_POST_ELTWISE = 1, CLI_POST_BINARY = 2 };

typedef enum cli_mode_bits {
    MODE_C = 1,
    MODE_P = 2,
    MODE_R = 4,
    MODE_L = 8,
    MODE_T = 16 /* tune each plan first (with MODE_P: time the winner) */
} cli_mode_bits;

typedef enum cli_template { TPL_DEF = 0, TPL_CSV, TPL_JSON } cli_template;
typedef enum cli_engine { ENGINE_DEVICE = 0, ENGINE_REF } cli_engine;

/* Knobs that are not expanded: how to run rather than what. Strings point
 * into the parser's pool, which lives until cli_free_problems. */
typedef struct cli_global {
    unsigned mode;
    cli_engine engine;
    double max_ms;
    double tune_ms; /* --tune-ms: tuning budget per plan */
    int64_t fix_times;
    int cold_cache; /* --cold-cache: each timed run after the flush */
    uint64_t seed;
    const char *src_file, *dst_file, *diff_dst_file, *diff_src_file,
        *ws_file;
} cli_global;

/* Resolved problem descriptor. */
typedef struct cli_desc {
    char name[CLI_NAME_MAX + 1];
    int nsp;           /* spatial rank 1..3; axes CLI_SP-nsp .. CLI_SP-1 */
    int64_t mb, ic;
    int64_t omb, oc;   /* output N and C: mb and ic unless resampled */
    int64_t in[CLI_SP], out[CLI_SP];
    /* The resampled tensor axes (0 = N, 1 = C, 2.. spatial), increasing:
     * --axes's, else the spatial axes. */
    int naxes;
    int axes[CLI_MAXAX];
    int pooling;       /* any of k/s/p given */
    int has_window, has_stride, has_pad, has_dil;
    clrs_fraction k[CLI_SP], s[CLI_SP], p[CLI_SP], post[CLI_SP];
    clrs_fraction dl[CLI_SP]; /* dilation as benchdnn gives it: the taps
                                 lie dl + 1 apart */
} cli_desc;

/* The pixels window k of axis a spans: (k - 1) (dl + 1) + 1. */
clrs_fraction cli_desc_span(const cli_desc *d, int a);

/* One expanded problem, ready to run. */
typedef struct cli_prb {
    int index;
    cli_opts o;
    cli_global g;
    cli_desc d;
    char repro[1280]; /* knobs that differ from defaults + descriptor */
    char shape[384];  /* canonical descriptor alone */
    /* Why the problem is skipped without running, "" to run it: what the
     * parser accepts but the library cannot express (--tag=ABcd32a16b). */
    char skip[160];
} cli_prb;

typedef struct cli_prb_list {
    cli_prb *v;
    size_t n, cap;
} cli_prb_list;

/* Settings for the whole run (not per problem). */
typedef struct cli_run {
    const char *device;
    cli_template tpl;
    int roofline;
    int verbose;
    int list_devices, version, help;
    const char *plot; /* --plot=FILE.svg: the chart of the timings */
    int cache_bench; /* 1: --cache-bench, 2: one of its child processes */
    size_t left_out; /* problems --match left out */
} cli_run;

/* ---- parse.c and the files of parse.h: knobs, batch files, expansion */
/* Parses argv into problems and run settings. Returns 0, or an exit
 * status (CLI_EXIT_USAGE) after printing the reason. */
int cli_parse(int argc, char **argv, cli_prb_list *out, cli_run *run);
void cli_free_problems(cli_prb_list *l);
void cli_usage(FILE *f);
/* knobs.c: "FWD_D", "BWD_D", ...; "?" for an unknown value. */
const char *cli_dir_name(int dir);
/* "nearest", "avg_p", "auto"; "?" for an unknown value. */
const char *cli_alg_name(int alg);
/* --alg as the problem says it: the method's name or the mode's. */
const char *cli_opts_alg_name(const cli_opts *o);
clrs_mode cli_alg_mode(int alg);

/* ---- desc.c: the benchdnn descriptor grammar ---- */
typedef struct cli_desc_raw {
    char name[CLI_NAME_MAX + 1];
    int64_t mb, ic, omb, oc;
    int64_t in[CLI_SP], out[CLI_SP];
    clrs_fraction k[CLI_SP], s[CLI_SP], p[CLI_SP];
    clrs_fraction dl[CLI_SP]; /* dilation, benchdnn's: 0 is dense */
    unsigned set; /* bit per field, see desc.c */
} cli_desc_raw;

int cli_desc_raw_has_window(const cli_desc_raw *raw);
/* 1 if token looks like a descriptor (starts with a field name). */
int cli_desc_is_candidate(const char *tok);
/* Parses; on error writes a message naming the bad part to err. */
int cli_desc_parse(const char *tok, cli_desc_raw *raw, char *err,
                   size_t errsz);
/* Fills defaults, output sizes (pool helper / scales), post paddings. */
int cli_desc_resolve(const cli_desc_raw *raw, const cli_opts *o,
                     cli_desc *d, char *err, size_t errsz);
/* Canonical text: mb2ic16ih10oh20... with n"name" when named. */
void cli_desc_format(const cli_desc *d, char *buf, size_t size);
/* The tensor's dims, N, C, spatial (rank nsp + 2 entries each). */
void cli_desc_dims(const cli_desc *d, int64_t *in, int64_t *out);

/* ---- data.c: dtypes, element access, fills, layouts ---- */
typedef struct cli_dtype {
    const char *name;
    clrs_dtype dt;
    const char *npy; /* NumPy descr for .npy files */
    size_t npy_size;
    int is_float;
} cli_dtype;

const cli_dtype *cli_dtype_find(const char *name);
const cli_dtype *cli_dtype_of(clrs_dtype dt);
double cli_load_any(const void *base, clrs_dtype dt, int64_t i);
void cli_store_any(void *base, clrs_dtype dt, int64_t i, double v);

/* Element i of base as a double, and v stored there with the library's
 * conversion; f32, the common case, inline. */
static inline double cli_load(const void *base, clrs_dtype dt, int64_t i)
{
    return dt == CLRS_F32 ? ((const float *)base)[i]
                          : cli_load_any(base, dt, i);
}

static inline void cli_store(void *base, clrs_dtype dt, int64_t i, double v)
{
    if (dt == CLRS_F32)
        ((float *)base)[i] = (float)v;
    else
        cli_store_any(base, dt, i, v);
}

/* Visits logical elements in row-major order, giving each one's element
 * offset in the tensor's layout. */
typedef struct cli_iter {
    int rank;
    int64_t dims[CLRS_MAX_RANK], idx[CLRS_MAX_RANK];
    int64_t strides[CLRS_MAX_RANK];
    int linear; /* offsets are sum idx*strides (not blocked) */
    const clrs_tensor_desc *desc;
    int64_t off;
    int64_t count, total;
    /* The order of the walk: perm[rank - 1] is the axis that moves
     * fastest (row-major, the identity, unless cli_iter_memory_order). */
    int perm[CLRS_MAX_RANK];
    int64_t rowmajor[CLRS_MAX_RANK]; /* row-major strides of dims */
    int64_t lin; /* the element's row-major position, whatever the order */
} cli_iter;

void cli_iter_init(cli_iter *it, const clrs_tensor_desc *d, int blocked);
/* Restricts a fresh row-major walk to the row-major positions [begin,
 * end): it->lin still counts from the tensor's first element. */
void cli_iter_range(cli_iter *it, int64_t begin, int64_t end);
int cli_iter_carry(cli_iter *it);

/* Returns 0 when past the last element; else sets it->off and it->lin.
 * A step along the fastest axis of a strided layout is inline; the rest
 * (a carry, a blocked layout, the first and the last step) is not. */
static inline int cli_iter_next(cli_iter *it)
{
    if (it->linear && it->count > 0 && it->count < it->total) {
        const int i = it->perm[it->rank - 1];
        if (it->idx[i] + 1 < it->dims[i]) {
            ++it->idx[i];
            it->off += it->strides[i];
            it->lin += it->rowmajor[i];
            ++it->count;
            return 1;
        }
    }
    return cli_iter_carry(it);
}
/* Where a and b (fresh, same dims) are strided layouts with the same
 * strides, both walk in the order of the memory (the axis of the
 * smallest stride fastest), which visits the same elements in the same
 * pairs, far faster over a channels-last tensor; otherwise unchanged. */
void cli_iter_memory_order(cli_iter *a, cli_iter *b);

/* ---- npy.c ---- */
#include "npy.h"

/* ---- run.c and the files of job.h: one problem ---- */
typedef enum cli_status {
    ST_PASSED = 0,
    ST_FAILED,
    ST_SKIPPED,
    ST_UNIMPLEMENTED,
    ST_INVALID,
    ST_EXECUTED, /* R mode */
    ST_LISTED,
    ST_COUNT_
} cli_status;

typedef struct cli_result {
    cli_status status;
    char detail[512];
    double max_abs, max_rel;
    int64_t errors, checked;
    double min_ms, avg_ms;
    int64_t runs;
    double bytes;
    double build_ms;
    const char *cache;
    const char *vector; /* clrs_vector_path_name(), "-" before a plan */
    int lanes;
    int vectors; /* vectors of lanes per work-item (1 unless a gather's) */
    int groups;  /* span groups per work-item (1 unless a walked row) */
    int rows;    /* outputs of kernel axis 1 per work-item (rows=) */
    int period;  /* span groups of a periodic stretch's period (0: none) */
    int kernels; /* kernels per execute (2: max backward recomputing; one
                    per axis: separable) */
    int separable; /* clrs_plan_info's: one axis at a time */
    size_t scratch; /* clrs_plan_info's scratch_bytes */
    size_t workspace;   /* clrs_plan_info's workspace_bytes */
    const char *launch; /* clrs_launch_source_name(), "-" before a plan */
    const char *variant; /* the plan's kernel variant, "-" before a plan */
    int tuned;          /* launches the tuner timed (launch "tuned") */
    size_t lws[3];      /* local size, all 0: the driver's */
    double gbps, roof_pct;
    /* The copy's GB/s measured right after the problem's timed runs,
     * which roof_pct is a percent of; NAN when none was. */
    double copy_gbps;
    /* GB/s above what the device's measured bandwidth allows for the
     * bytes this problem reads and writes: a measurement error. */
    int above_copy;
    char worst[1024]; /* worst points, one per line */
    /* clrs_plan_get_build_log() of the problem's plan (cut at the size,
     * marked [...]), and its line count; "" and 0 when empty. */
    char build_log[2048];
    int build_log_lines;
    /* The first 16 hex digits of the SHA-256 of every output's bytes as
     * run once (dst then the index tensor, or diff_src), "" before a
     * run: the same bits on two devices give the same digest. */
    char digest[17];
} cli_result;

/* The cold cache (bench.c): a buffer of twice the device's global memory
 * cache and a kernel that reads it, enqueued before a timed run so that
 * the run finds none of its data in the cache. k NULL: none (no device,
 * or a device that reports no cache). */
typedef struct cli_flush {
    cl_program prog;
    cl_kernel k;
    cl_mem buf, sink;
    size_t items, bytes;
    cl_uint v;
} cli_flush;

/* The roofline's copy kept for re-timing beside each problem: the
 * faster of the plain and non-temporal copies at its best vector width
 * and local size, over its own two buffers. k NULL: none. */
typedef struct cli_probe {
    cl_program prog;
    cl_kernel k;
    cl_mem a, b;
    size_t items, local, bytes;
} cli_probe;

typedef struct cli_env {
    clrs_context *ctx; /* NULL with the reference engine */
    cli_flush flush;
    cli_probe probe; /* the copy beside each problem (--roofline) */
    int digest; /* the JSON template prints digests: compute them */
    double copy_gbps;  /* 0 when no roofline was measured */
    double read_gbps, write_gbps; /* 0 when not measured */
    double cache_bytes; /* the device's global memory cache (0: none stated) */
} cli_env;

void cli_run_problem(const cli_prb *p, cli_env *env, cli_result *r);

/* Plan creation, and plan creation plus the first execute (waited for),
 * twice on one context: [0] whatever the caches give, [1] hot. */
typedef struct cli_first_use {
    double plan_ms[2], total_ms[2];
    const char *source[2]; /* clrs_cache_source_name() */
} cli_first_use;
int cli_time_first_use(const cli_prb *p, cli_env *env, cli_first_use *out,
                       char *err, size_t errsz);

/* ---- cachebench.c: --cache-bench ---- */
/* Runs the first problem in child processes of this program against
 * fresh cache directories (cold, warm, PoCL's cache alone, ...) and
 * prints their first-use times; returns an exit status. */
int cli_cache_bench(const cli_prb *p, const cli_run *run, int argc,
                    char **argv);
/* The child's side: one line "clrs-first-use ..." on stdout. */
int cli_cache_bench_child(const cli_prb *p, cli_env *env);
const char *cli_status_name(cli_status s);

/* ---- capture.c: compiler output on stderr during builds ---- */
typedef struct cli_capture {
    int saved; /* the real stderr while capturing, else -1 */
} cli_capture;
/* Sends stderr to a temporary file (nothing happens if that fails, or
 * if no watcher process could be started to show the captured output
 * should the tool die before cli_capture_end). */
void cli_capture_begin(cli_capture *c);
/* Restores stderr and passes on what was captured, less the compiler's
 * "N warnings generated." lines (the build log has the diagnostics). */
void cli_capture_end(cli_capture *c);

/* ---- bench.c: device bandwidth ---- */
/* GB/s the device moves: a copy with plain and with non-temporal stores
 * (bytes read + written), a read alone and a write alone (the best of
 * plain and non-temporal stores); 0 where not measured (no non-temporal
 * store in the device compiler, a kernel that failed). */
typedef struct cli_bandwidth {
    double copy_plain, copy_nt, read, write;
} cli_bandwidth;
/* Measures them; returns 0, or -1 with err when not even the plain copy
 * could be. probe (NULL: not wanted) keeps the faster copy for
 * cli_probe_gbps. */
int cli_roofline(clrs_context *ctx, cli_bandwidth *bw, cli_flush *f,
                 cli_probe *probe, char *err, size_t errsz);
/* The kept copy's GB/s now: the best of a few runs, each after the cold
 * cache's flush where there is one; 0 when it could not run. */
double cli_probe_gbps(clrs_context *ctx, cli_probe *probe, cli_flush *f);
void cli_probe_free(cli_probe *probe);
/* The cold cache's buffer and kernel (nothing where the device reports
 * no cache); returns 0, or -1 with err. */
int cli_flush_init(clrs_context *ctx, double cache, cli_flush *f, char *err,
                   size_t errsz);
/* Enqueues the flush on q (in order: the next command starts after it);
 * nothing without one. */
void cli_flush_run(cli_flush *f, cl_command_queue q);
void cli_flush_free(cli_flush *f);

/* ---- plot.c: --plot=FILE.svg ---- */
typedef struct cli_plot_bar {
    int index;
    const char *label;  /* the problem */
    const char *status; /* cli_status_name() */
    double gbps;        /* NAN (or 0) when it was not timed */
    double roof_pct;    /* percent of the copy, NAN when not measured */
    int above_copy;
} cli_plot_bar;
typedef struct cli_plot_info {
    const char *device; /* its name and platform */
    double copy_gbps, read_gbps, write_gbps; /* 0 when not measured */
    time_t when;
} cli_plot_info;
/* Writes the SVG chart, one bar per entry of bars, atomically (a
 * temporary file beside path, renamed over it); returns 0, or -1 with
 * err. */
int cli_plot_svg(const char *path, const cli_plot_info *info,
                 const cli_plot_bar *bars, size_t n, char *err,
                 size_t errsz);

/* ---- utf8.c ---- */
/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0. */
int cli_utf8_len(const unsigned char *s);

/* ---- report.c ---- */
typedef struct cli_report cli_report;
cli_report *cli_report_create(cli_template tpl, size_t total,
                              int want_perf, int verbose);
/* Redraws the progress line before problem p runs (terminal only). */
void cli_report_progress(cli_report *rep, const cli_prb *p);
void cli_report_problem(cli_report *rep, const cli_prb *p,
                        const cli_result *r);
/* Prints the summary; returns the exit status it implies. */
int cli_report_finish(cli_report *rep);
/* --plot: the chart of every problem reported so far (cli_plot_svg). */
int cli_report_plot(const cli_report *rep, const char *path,
                    const cli_plot_info *info, char *err, size_t errsz);
void cli_report_destroy(cli_report *rep);

#endif /* CLRS_TOOL_CLI_H */
