/* clresample tool: what the user sees. Per-problem lines in benchdnn's
 * style (def), CSV or JSON Lines, the summary and its exit status, the
 * final performance table, and a progress line on a terminal's stderr. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct row {
    int index;
    cli_status status;
    char alg[16], dir[8], dt[16], tag[12], prb[96];
    double min_ms, avg_ms, gbps, roof, copy;
    int above_copy;
} row;

struct cli_report {
    cli_template tpl;
    size_t total, done;
    size_t counts[ST_COUNT_];
    double t0;
    int tty, progress_shown, want_perf, verbose;
    row *rows;
    size_t nrows;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

cli_report *cli_report_create(cli_template tpl, size_t total, int want_perf,
                              int verbose)
{
    cli_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->tpl = tpl;
    r->total = total;
    r->t0 = now_s();
    r->tty = isatty(STDERR_FILENO);
    r->want_perf = want_perf;
    r->verbose = verbose;
    /* The def template's final table and --plot's chart. */
    if (want_perf && total > 0) {
        r->rows = calloc(total, sizeof *r->rows);
        if (!r->rows)
            r->want_perf = 0; /* the table is a convenience; lines remain */
    }
    if (tpl == TPL_CSV)
        printf("index,name,prb,dir,alg,sdt,ddt,tag,status,max_abs_diff,"
               "max_rel_diff,min_ms,avg_ms,bytes,gbps,roofline_pct,build_ms,"
               "cache,repro,detail\n");
    return r;
}

static void clear_progress(cli_report *r)
{
    if (r->progress_shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        r->progress_shown = 0;
    }
}

void cli_report_progress(cli_report *r, const cli_prb *p)
{
    double el = now_s() - r->t0;
    /* Only on a terminal and only once the batch has taken a second:
     * logs and quick runs stay clean. */
    if (!r->tty || el < 1.0)
        return;
    fprintf(stderr, "\r\033[K[%zu/%zu %3.0f%% %.0fs] %s %s %.60s", r->done + 1,
            r->total,
            100.0 * (double)r->done / (double)(r->total ? r->total : 1), el,
            cli_dir_name(p->o.dir), cli_opts_alg_name(&p->o), p->shape);
    fflush(stderr);
    r->progress_shown = 1;
}

/* ---- value printers ---- */

static void num_json(double v, const char *fmt)
{
    if (isfinite(v))
        printf(fmt, v);
    else
        printf("null");
}

/* A JSON string: valid whatever the bytes. Well-formed UTF-8 is copied; a
 * byte that is not part of it becomes the code point of the same value
 * (\u00XX, as Latin-1 would read it), so the output always parses and no
 * byte is lost. */
static void str_json(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    putchar('"');
    while (*s) {
        int n = cli_utf8_len(s);
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if (*s < 0x20 || n == 0 || *s == 0x7F)
            printf("\\u%04x", *s);
        else
            fwrite(s, 1, (size_t)n, stdout);
        s += n ? n : 1;
    }
    putchar('"');
}

static void num_csv(double v, const char *fmt)
{
    if (isfinite(v))
        printf(fmt, v);
    putchar(',');
}

static void str_csv(const char *s, int last)
{
    putchar('"');
    for (; *s; ++s) {
        if (*s == '"')
            putchar('"');
        putchar(*s == '\n' ? ' ' : *s);
    }
    putchar('"');
    if (!last)
        putchar(',');
}

static const char *dtn(clrs_dtype dt) { return cli_dtype_of(dt)->name; }

static void print_json(const cli_prb *p, const cli_result *r)
{
    printf("{\"index\":%d,\"name\":", p->index);
    str_json(p->d.name);
    printf(",\"prb\":");
    str_json(p->shape);
    printf(",\"repro\":");
    str_json(p->repro);
    printf(",\"dir\":\"%s\",\"alg\":\"%s\",\"sdt\":\"%s\",\"ddt\":"
           "\"%s\",\"tag\":\"%s\",\"status\":\"%s\",",
           cli_dir_name(p->o.dir), cli_opts_alg_name(&p->o), dtn(p->o.sdt),
           dtn(p->o.ddt), p->o.tag->name, cli_status_name(r->status));
    printf("\"max_abs_diff\":");
    num_json(r->checked ? r->max_abs : NAN, "%.9g");
    printf(",\"max_rel_diff\":");
    num_json(r->checked ? r->max_rel : NAN, "%.9g");
    printf(",\"min_ms\":");
    num_json(r->min_ms, "%.6f");
    printf(",\"avg_ms\":");
    num_json(r->avg_ms, "%.6f");
    printf(",\"bytes\":%.0f,\"gbps\":", r->bytes);
    num_json(r->gbps, "%.3f");
    printf(",\"roofline_pct\":");
    num_json(r->roof_pct, "%.1f");
    printf(",\"copy_gbps\":");
    num_json(r->copy_gbps, "%.2f");
    printf(",\"build_ms\":");
    num_json(r->build_ms, "%.3f");
    printf(
        ",\"cache\":\"%s\",\"variant\":\"%s\",\"vector\":\"%s\",\"lanes\":%d,"
        "\"vectors\":%d,\"groups\":%d,\"rows\":%d,\"period\":%d,"
        "\"kernels\":%d,\"separable\":%s,\"scratch_bytes\":%zu,"
        "\"workspace_bytes\":%zu,\"launch\":\"%s\","
        "\"tuned_launches\":%d,"
        "\"lws\":[%zu,%zu,%zu],\"above_copy\":%s,\"detail\":",
        r->cache, r->variant ? r->variant : "-", r->vector ? r->vector : "-",
        r->lanes, r->vectors > 1 ? r->vectors : 1,
        r->groups > 1 ? r->groups : 1, r->rows > 1 ? r->rows : 1, r->period,
        r->kernels, r->separable ? "true" : "false", r->scratch, r->workspace,
        r->launch ? r->launch : "-", r->tuned, r->lws[0], r->lws[1], r->lws[2],
        r->above_copy ? "true" : "false");
    str_json(r->detail);
    printf(",\"build_log\":");
    str_json(r->build_log);
    printf(",\"digest\":");
    str_json(r->digest);
    printf("}\n");
}

static void print_csv(const cli_prb *p, const cli_result *r)
{
    printf("%d,", p->index);
    str_csv(p->d.name, 0);
    str_csv(p->shape, 0);
    printf("%s,%s,%s,%s,%s,%s,", cli_dir_name(p->o.dir),
           cli_opts_alg_name(&p->o), dtn(p->o.sdt), dtn(p->o.ddt),
           p->o.tag->name, cli_status_name(r->status));
    num_csv(r->checked ? r->max_abs : NAN, "%.9g");
    num_csv(r->checked ? r->max_rel : NAN, "%.9g");
    num_csv(r->min_ms, "%.6f");
    num_csv(r->avg_ms, "%.6f");
    printf("%.0f,", r->bytes);
    num_csv(r->gbps, "%.3f");
    num_csv(r->roof_pct, "%.1f");
    num_csv(r->build_ms, "%.3f");
    printf("%s,", r->cache);
    str_csv(p->repro, 0);
    str_csv(r->detail, 1);
    putchar('\n');
}

/* benchdnn's "perf,..." line under a def status line. */
static void print_def_perf(const cli_prb *p, const cli_result *r)
{
    char roof[32], build[32], lws[64], mv[16] = "", ry[16] = "", pe[16] = "";
    if (isfinite(r->roof_pct))
        snprintf(roof, sizeof roof, "%s%.1f%%", r->above_copy ? "!" : "",
                 r->roof_pct);
    else
        snprintf(roof, sizeof roof, "-");
    if (isfinite(r->build_ms))
        snprintf(build, sizeof build, "%.1f", r->build_ms);
    else
        snprintf(build, sizeof build, "-");
    if (r->lws[0])
        snprintf(lws, sizeof lws, "%zux%zux%zu", r->lws[0], r->lws[1],
                 r->lws[2]);
    else
        snprintf(lws, sizeof lws, "driver");
    if (r->vectors > 1)
        snprintf(mv, sizeof mv, "x%d", r->vectors);
    else if (r->groups > 1)
        snprintf(mv, sizeof mv, "w%d", r->groups);
    if (r->rows > 1)
        snprintf(ry, sizeof ry, "r%d", r->rows);
    if (r->period > 0)
        snprintf(pe, sizeof pe, "p%d", r->period);
    printf("perf,%s,%s,%s,min_ms:%.4f,avg_ms:%.4f,GB/s:%.2f,"
           "roofline:%s,build_ms:%s,cache:%s,vector:%s/%d%s%s%s,"
           "kernels:%d%s,launch:%s/%s,variant:%s\n",
           p->g.engine == ENGINE_REF ? "ref" : "device",
           p->d.name[0] ? p->d.name : "-", p->repro, r->min_ms, r->avg_ms,
           r->gbps, roof, build, r->cache, r->vector ? r->vector : "-",
           r->lanes, mv, ry, pe, r->kernels, r->separable ? "sep" : "",
           r->launch ? r->launch : "-", lws, r->variant ? r->variant : "-");
}

static void print_def(const cli_report *rep, const cli_prb *p,
                      const cli_result *r)
{
    printf("%d:%s", p->index, cli_status_name(r->status));
    if (r->status == ST_FAILED && r->checked)
        printf(" (%s; max_diff:%.6g max_rdiff:%.6g)", r->detail, r->max_abs,
               r->max_rel);
    else if (r->detail[0])
        printf(" (%s)", r->detail);
    else if (rep->verbose && r->checked)
        printf(" (%lld points; max_diff:%.6g max_rdiff:%.6g)",
               (long long)r->checked, r->max_abs, r->max_rel);
    printf(" __REPRO: %s\n", p->repro);
    if ((p->g.mode & MODE_P) && isfinite(r->min_ms))
        print_def_perf(p, r);
}

/* A plan whose compiler log is not empty: the log itself with -v, else
 * one line saying so. This library's kernels compile silently (the test
 * suite fails on a warning), so a log is worth reporting. */
static void print_build_log(const cli_report *rep, const cli_prb *p,
                            const cli_result *r, FILE *f)
{
    const char *s = r->build_log;

    if (!rep->verbose) {
        fprintf(f, "%d:note: the OpenCL compiler's build log for this "
                   "problem has %d line%s (-v prints it)\n",
                p->index, r->build_log_lines,
                r->build_log_lines == 1 ? "" : "s");
        return;
    }
    fprintf(f, "%d:build log:\n", p->index);
    while (*s) {
        size_t n = strcspn(s, "\n");
        fprintf(f, "    %.*s\n", (int)n, s);
        s += n + (s[n] == '\n');
    }
}

/* Keeps a P-mode problem's numbers for the final table. */
static void keep_row(cli_report *rep, const cli_prb *p, const cli_result *r)
{
    row *w;
    if (!rep->rows || rep->nrows >= rep->total || !(p->g.mode & MODE_P))
        return;
    w = &rep->rows[rep->nrows++];
    w->index = p->index;
    w->status = r->status;
    snprintf(w->alg, sizeof w->alg, "%s", cli_opts_alg_name(&p->o));
    snprintf(w->dir, sizeof w->dir, "%s", cli_dir_name(p->o.dir));
    snprintf(w->dt, sizeof w->dt, "%s/%s", dtn(p->o.sdt), dtn(p->o.ddt));
    snprintf(w->tag, sizeof w->tag, "%s", p->o.tag->name);
    /* A named problem is shown by its name: shapes are long. */
    snprintf(w->prb, sizeof w->prb, "%.*s", (int)sizeof w->prb - 1,
             p->d.name[0] ? p->d.name : p->shape);
    w->min_ms = r->min_ms;
    w->avg_ms = r->avg_ms;
    w->gbps = r->gbps;
    w->roof = r->roof_pct;
    w->copy = r->copy_gbps;
    w->above_copy = r->above_copy;
}

void cli_report_problem(cli_report *rep, const cli_prb *p,
                        const cli_result *r)
{
    clear_progress(rep);
    ++rep->done;
    ++rep->counts[r->status];

    if (rep->tpl == TPL_JSON)
        print_json(p, r);
    else if (rep->tpl == TPL_CSV)
        print_csv(p, r);
    else
        print_def(rep, p, r);
    /* Worst points: on stdout beside a def line, on stderr otherwise so
     * CSV and JSON stay machine-readable. */
    if (r->worst[0])
        fputs(r->worst, rep->tpl == TPL_DEF ? stdout : stderr);
    if (r->build_log[0])
        print_build_log(rep, p, r, rep->tpl == TPL_DEF ? stdout : stderr);
    fflush(stdout);
    keep_row(rep, p, r);
}

static void print_table(const cli_report *rep)
{
    size_t i;
    int above = 0;
    printf("\n%4s %-17s %-7s %-5s %-9s %-6s %-40s %9s %9s %8s %6s\n", "#",
           "status", "alg", "dir", "sdt/ddt", "tag", "problem", "min_ms",
           "avg_ms", "GB/s", "roof%");
    for (i = 0; i < rep->nrows; ++i) {
        const row *w = &rep->rows[i];
        printf("%4d %-17s %-7s %-5s %-9s %-6s %-40.40s", w->index,
               cli_status_name(w->status), w->alg, w->dir, w->dt, w->tag,
               w->prb);
        if (isfinite(w->min_ms))
            printf(" %9.3f %9.3f %8.2f", w->min_ms, w->avg_ms, w->gbps);
        else
            printf(" %9s %9s %8s", "-", "-", "-");
        if (isfinite(w->roof))
            printf(" %5.1f%%%s\n", w->roof, w->above_copy ? "!" : "");
        else
            printf(" %6s\n", "-");
        above |= w->above_copy;
    }
    if (above)
        printf("! faster than the device's measured bandwidth allows: a "
               "measurement error, not a result\n");
}

/* ---- the summary: percent of the copy by type and layout ---- */

#define SUM_KEYS 16

static int key_index(char keys[][16], int *n, const char *k)
{
    int i;
    for (i = 0; i < *n; ++i)
        if (strcmp(keys[i], k) == 0)
            return i;
    if (*n == SUM_KEYS)
        return -1;
    snprintf(keys[*n], sizeof keys[*n], "%s", k);
    return (*n)++;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median and least of the percents of the rows of one direction
 * (backward or not), type dt (NULL: any) and tag (NULL: any); returns
 * how many there were. */
static size_t cell(const cli_report *rep, int backward, const char *dt,
                   const char *tag, double *v, double *med, double *least)
{
    size_t i, n = 0;
    for (i = 0; i < rep->nrows; ++i) {
        const row *w = &rep->rows[i];
        if (!isfinite(w->roof) || (strcmp(w->dir, "BWD_D") == 0) != backward ||
            (dt && strcmp(w->dt, dt) != 0) || (tag && strcmp(w->tag, tag) != 0))
            continue;
        v[n++] = w->roof;
    }
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *least = v[0];
    return n;
}

static void print_cell(size_t n, double med, double least)
{
    char b[32];
    if (n == 0)
        snprintf(b, sizeof b, "-");
    else
        snprintf(b, sizeof b, "%.0f%% (%.0f%%) %zu", med, least, n);
    printf(" %-18s", b);
}

/* Where the run timed more than one type or layout against the copy:
 * per direction, a row per type and a column per layout, each cell the
 * median percent of the copy, the least in parentheses, and how many
 * problems. */
static void print_summary(const cli_report *rep)
{
    char dts[SUM_KEYS][16], tags[SUM_KEYS][16];
    int ndt = 0, ntag = 0, b, i, k;
    double *v, med, least;
    size_t r;

    for (r = 0; r < rep->nrows; ++r)
        if (isfinite(rep->rows[r].roof)) {
            key_index(dts, &ndt, rep->rows[r].dt);
            key_index(tags, &ntag, rep->rows[r].tag);
        }
    if (ndt < 2 && ntag < 2)
        return;
    v = malloc(rep->nrows * sizeof *v);
    if (!v)
        return;
    for (b = 0; b < 2; ++b) {
        if (!cell(rep, b, NULL, NULL, v, &med, &least))
            continue;
        printf("\n%s: median %% of the copy (least) and problems\n%-9s",
               b ? "backward" : "forward", "sdt/ddt");
        for (k = 0; k < ntag; ++k)
            printf(" %-18s", tags[k]);
        printf(" %-18s\n", "all");
        for (i = 0; i < ndt; ++i) {
            double all_med, all_least;
            size_t n = cell(rep, b, dts[i], NULL, v, &all_med, &all_least);
            if (n == 0)
                continue;
            printf("%-9s", dts[i]);
            for (k = 0; k < ntag; ++k) {
                size_t m = cell(rep, b, dts[i], tags[k], v, &med, &least);
                print_cell(m, med, least);
            }
            print_cell(n, all_med, all_least);
            printf("\n");
        }
    }
    /* The copies the percents are of: a shared machine's bandwidth
     * drifts between them, which a percent alone would hide. */
    for (r = 0, i = 0; r < rep->nrows; ++r)
        if (isfinite(rep->rows[r].roof) && isfinite(rep->rows[r].copy))
            v[i++] = rep->rows[r].copy;
    if (i > 0) {
        qsort(v, (size_t)i, sizeof *v, cmp_double);
        printf("\nthe copy timed beside each problem: least %.1f, median "
               "%.1f, most %.1f GB/s\n",
               v[0], i % 2 ? v[i / 2] : (v[i / 2 - 1] + v[i / 2]) / 2,
               v[i - 1]);
    }
    free(v);
}

int cli_report_finish(cli_report *rep)
{
    const size_t *c = rep->counts;
    size_t passed = c[ST_PASSED] + c[ST_EXECUTED];
    FILE *f = rep->tpl == TPL_DEF ? stdout : stderr;

    clear_progress(rep);
    if (rep->tpl == TPL_DEF && rep->nrows > 0) {
        print_table(rep);
        print_summary(rep);
    }
    fprintf(f, "tests:%zu passed:%zu skipped:%zu unimplemented:%zu "
            "invalid_arguments:%zu failed:%zu",
            rep->done, passed, c[ST_SKIPPED],
            c[ST_UNIMPLEMENTED], c[ST_INVALID], c[ST_FAILED]);
    if (c[ST_LISTED])
        fprintf(f, " listed:%zu", c[ST_LISTED]);
    fprintf(f, "\ntotal: %.2f s\n", now_s() - rep->t0);
    fflush(f);
    return c[ST_FAILED] || c[ST_UNIMPLEMENTED] || c[ST_INVALID]
               ? CLI_EXIT_FAIL
               : CLI_EXIT_OK;
}

int cli_report_plot(const cli_report *rep, const char *path,
                    const cli_plot_info *info, char *err, size_t errsz)
{
    cli_plot_bar *bars = NULL;
    char (*labels)[160] = NULL;
    size_t i;
    int rc;

    if (rep->nrows > 0) {
        bars = calloc(rep->nrows, sizeof *bars);
        labels = calloc(rep->nrows, sizeof *labels);
        if (!bars || !labels) {
            free(bars);
            free(labels);
            snprintf(err, errsz, "out of memory");
            return -1;
        }
    }
    for (i = 0; i < rep->nrows; ++i) {
        const row *w = &rep->rows[i];
        snprintf(labels[i], sizeof labels[i], "%.64s %s %s %s %s", w->prb,
                 w->alg, w->tag, w->dt, w->dir);
        bars[i].index = w->index;
        bars[i].label = labels[i];
        bars[i].status = cli_status_name(w->status);
        bars[i].gbps = w->gbps;
        bars[i].roof_pct = w->roof;
        bars[i].above_copy = w->above_copy;
    }
    rc = cli_plot_svg(path, info, bars, rep->nrows, err, errsz);
    free(bars);
    free(labels);
    return rc;
}

void cli_report_destroy(cli_report *rep)
{
    if (!rep)
        return;
    free(rep->rows);
    free(rep);
}
