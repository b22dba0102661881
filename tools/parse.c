/* clresample tool: the command line. Knob tables, --batch files, and the
 * expansion of comma lists into one problem per combination, all done
 * before anything runs so that a bad token costs no device time. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds on the work any command line can ask of the parser: batch files
 * that include each other many times without a cycle are cut off by the
 * file count and total size, comma lists by the problem count, which is
 * counted before anything is expanded (a problem is about 2 KB). */
#define MAX_BATCH_DEPTH 16
#define MAX_BATCH_FILES 1000
#define MAX_BATCH_BYTES (16u << 20)
#define MAX_BATCH_TOTAL (64u << 20)
#define MAX_PROBLEMS 100000
#define ERRSZ 512

/* ---- name tables ---- */

typedef struct choice {
    const char *name;
    int value;
} choice;

static const choice dirs[] = {
    {"FWD_D", DIR_FWD_D}, {"FWD_I", DIR_FWD_I}, {"BWD_D", DIR_BWD_D},
    {NULL, 0}};
#define ALG_CHOICE_(e, name, cli, ...) {cli, ALG_##e},
static const choice algs[] = {
    {"auto", ALG_AUTO}, CLRS_MODE_MAP(ALG_CHOICE_){"area", ALG_AVG_ADAPTIVE},
    {NULL, 0}};
#undef ALG_CHOICE_
static const choice coords[] = {
    {"default", CLRS_COORD_DEFAULT},
    {"half_pixel", CLRS_COORD_HALF_PIXEL},
    {"pytorch_half_pixel", CLRS_COORD_PYTORCH_HALF_PIXEL},
    {"align_corners", CLRS_COORD_ALIGN_CORNERS},
    {"asymmetric", CLRS_COORD_ASYMMETRIC},
    {"tf_half_pixel_for_nn", CLRS_COORD_TF_HALF_PIXEL_FOR_NN},
    {"half_pixel_symmetric", CLRS_COORD_HALF_PIXEL_SYMMETRIC},
    {"tf_crop_and_resize", CLRS_COORD_TF_CROP_AND_RESIZE},
    {"window", CLRS_COORD_WINDOW},
    {NULL, 0}};
static const choice roundings[] = {
    {"default", -1},
    {"round_prefer_floor", CLRS_ROUND_PREFER_FLOOR},
    {"round_prefer_ceil", CLRS_ROUND_PREFER_CEIL},
    {"floor", CLRS_ROUND_FLOOR},
    {"ceil", CLRS_ROUND_CEIL},
    {NULL, 0}};
static const choice vendors[] = {
    {"none", -1},          {"pytorch", CLRS_VENDOR_PYTORCH},
    {"onnx", CLRS_VENDOR_ONNX}, {"onednn", CLRS_VENDOR_ONEDNN},
    {"directml", CLRS_VENDOR_DIRECTML}, {"cudnn", CLRS_VENDOR_CUDNN},
    {NULL, 0}};
static const choice ariths[] = {
    {"default", -1},
    {"float", CLRS_ARITH_FLOAT},
    {"onednn", CLRS_ARITH_ONEDNN},
    {"exact", CLRS_ARITH_EXACT},
    {NULL, 0}};
static const choice aa_rules[] = {
    {"default", -1}, {"pytorch", CLRS_AA_PYTORCH}, {"onnx", CLRS_AA_ONNX},
    {NULL, 0}};
static const choice keep_aspects[] = {
    {"stretch", CLRS_KEEP_ASPECT_STRETCH},
    {"not_larger", CLRS_KEEP_ASPECT_NOT_LARGER},
    {"not_smaller", CLRS_KEEP_ASPECT_NOT_SMALLER},
    {NULL, 0}};
static const choice pads[] = {
    {"default", CLRS_PAD_DEFAULT}, {"edge", CLRS_PAD_EDGE},
    {"zero", CLRS_PAD_ZERO},       {"constant", CLRS_PAD_CONSTANT},
    {"neg_inf", CLRS_PAD_NEG_INF}, {NULL, 0}};
static const choice indexes[] = {
    {"window", CLRS_INDEX_WINDOW}, {"plane", CLRS_INDEX_PLANE},
    {"plane_column", CLRS_INDEX_PLANE_COLUMN}, {NULL, 0}};
static const choice nans[] = {
    {"propagate", CLRS_NAN_PROPAGATE}, {"ignore", CLRS_NAN_IGNORE},
    {NULL, 0}};
static const choice divisors[] = {
    {"default", -1}, {"window", CLRS_DIVISOR_WINDOW},
    {"clipped", CLRS_DIVISOR_CLIPPED}, {NULL, 0}};
static const choice bools[] = {
    {"true", 1}, {"false", 0}, {"1", 1}, {"0", 0}, {NULL, 0}};
static const choice modes[] = {
    {"C", MODE_C}, {"P", MODE_P}, {"CP", MODE_C | MODE_P},
    {"PC", MODE_C | MODE_P}, {"R", MODE_R}, {"L", MODE_L},
    {"T", MODE_T | MODE_P}, {"CT", MODE_C | MODE_T | MODE_P},
    {"TC", MODE_C | MODE_T | MODE_P}, {NULL, 0}};
static const choice engines[] = {
    {"device", ENGINE_DEVICE}, {"ref", ENGINE_REF}, {NULL, 0}};
static const choice templates[] = {
    {"def", TPL_DEF}, {"csv", TPL_CSV}, {"json", TPL_JSON}, {NULL, 0}};

/* The layout classes, benchdnn's rank-free names and the rank-fixed ones
 * (oneDNN's format tags: nchw, and the explicit abcd, acdb, aBcd16b). */
static const cli_tag tags[] = {
    {"abx", CLRS_TAG_ABX, 0, 0, NULL},
    {"axb", CLRS_TAG_AXB, 0, 0, NULL},
    {"aBx8b", CLRS_TAG_ABX8B, 0, 1, NULL},
    {"aBx16b", CLRS_TAG_ABX16B, 0, 1, NULL},
    {"ncw", CLRS_TAG_ABX, 3, 0, NULL},
    {"nwc", CLRS_TAG_AXB, 3, 0, NULL},
    {"nchw", CLRS_TAG_ABX, 4, 0, NULL},
    {"nhwc", CLRS_TAG_AXB, 4, 0, NULL},
    {"ncdhw", CLRS_TAG_ABX, 5, 0, NULL},
    {"ndhwc", CLRS_TAG_AXB, 5, 0, NULL},
    {"nChw8c", CLRS_TAG_ABX8B, 4, 1, NULL},
    {"nChw16c", CLRS_TAG_ABX16B, 4, 1, NULL},
    {"nCdhw8c", CLRS_TAG_ABX8B, 5, 1, NULL},
    {"nCdhw16c", CLRS_TAG_ABX16B, 5, 1, NULL},
    {"abc", CLRS_TAG_ABX, 3, 0, NULL},
    {"abcd", CLRS_TAG_ABX, 4, 0, NULL},
    {"abcde", CLRS_TAG_ABX, 5, 0, NULL},
    {"acb", CLRS_TAG_AXB, 3, 0, NULL},
    {"acdb", CLRS_TAG_AXB, 4, 0, NULL},
    {"acdeb", CLRS_TAG_AXB, 5, 0, NULL},
    {"aBc8b", CLRS_TAG_ABX8B, 3, 1, NULL},
    {"aBc16b", CLRS_TAG_ABX16B, 3, 1, NULL},
    {"aBcd8b", CLRS_TAG_ABX8B, 4, 1, NULL},
    {"aBcd16b", CLRS_TAG_ABX16B, 4, 1, NULL},
    {"aBcde8b", CLRS_TAG_ABX8B, 5, 1, NULL},
    {"aBcde16b", CLRS_TAG_ABX16B, 5, 1, NULL},
    {NULL, CLRS_TAG_ABX, 0, 0, NULL}};
/* Any other well-formed oneDNN tag: parsed, then skipped per problem. */
static const cli_tag refused_blocks = {
    "unsupported", CLRS_TAG_ABX, 0, 0,
    "a layout blocked on more than one axis (oneDNN's ABcd32a16b) has no "
    "equivalent in this library"};
static const cli_tag refused_order = {
    "unsupported", CLRS_TAG_ABX, 0, 0,
    "this axis order or block has no equivalent in this library (abx, "
    "axb, aBx8b and aBx16b do)"};

static const char *choice_name(const choice *c, int v)
{
    for (; c->name; ++c)
        if (c->value == v)
            return c->name;
    return "?";
}

const char *cli_dir_name(int dir) { return choice_name(dirs, dir); }
const char *cli_alg_name(int alg)
{
    return alg == ALG_AUTO ? "auto" : clrs__mode_cli_name(alg);
}
clrs_mode cli_alg_mode(int alg)
{
    return clrs__mode_valid(alg) ? (clrs_mode)alg : CLRS_MODE_NEAREST;
}

/* ---- errors ---- */

static int fail(char *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERRSZ, fmt, ap);
    va_end(ap);
    return -1;
}

static int fail_choice(char *err, const char *v, const choice *c)
{
    size_t used = (size_t)snprintf(err, ERRSZ, "unknown value '%s' (one of",
                                   v);
    for (; c->name && used < ERRSZ; ++c)
        used += (size_t)snprintf(err + used, ERRSZ - used, " %s", c->name);
    if (used < ERRSZ)
        snprintf(err + used, ERRSZ - used, ")");
    return -1;
}

/* ---- value parsers ---- */

static int find_choice(const choice *c, const char *v, int nocase, int *out)
{
    for (; c->name; ++c)
        if (nocase ? strcasecmp(c->name, v) == 0 : strcmp(c->name, v) == 0) {
            *out = c->value;
            return 0;
        }
    return -1;
}

static int parse_double(const char *v, double *out, char *err)
{
    char *end;
    double x;
    errno = 0;
    x = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(x))
        return fail(err, "'%s' is not a finite number", v);
    *out = x;
    return 0;
}

static int parse_int(const char *v, int64_t lo, int64_t hi, int64_t *out,
                     char *err)
{
    char *end;
    long long x;
    errno = 0;
    x = strtoll(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || x < lo || x > hi)
        return fail(err, "'%s' is not an integer in [%lld, %lld]", v,
                    (long long)lo, (long long)hi);
    *out = (int64_t)x;
    return 0;
}

/* "AxBxC" into at most CLI_SP parts; each part goes to fn. */
typedef int (*part_fn)(const char *part, int i, cli_opts *o, char *err);

static int parse_parts(const char *v, cli_opts *o, int *n, part_fn fn,
                       char *err)
{
    char buf[256];
    char *p, *save = NULL;
    int i = 0;
    if (strlen(v) >= sizeof buf)
        return fail(err, "'%s' is too long", v);
    strcpy(buf, v);
    for (p = strtok_r(buf, "x", &save); p; p = strtok_r(NULL, "x", &save)) {
        if (i >= CLI_MAXAX)
            return fail(err, "'%s' has more than %d values", v, CLI_MAXAX);
        if (fn(p, i, o, err) != 0)
            return -1;
        ++i;
    }
    if (i == 0 || v[0] == 'x' || v[strlen(v) - 1] == 'x' || strstr(v, "xx"))
        return fail(err, "'%s': expected V[xV...] with non-empty values", v);
    *n = i;
    return 0;
}

static int scale_part(const char *part, int i, cli_opts *o, char *err)
{
    if (parse_double(part, &o->scales[i], err) != 0)
        return -1;
    if (!(o->scales[i] > 0))
        return fail(err, "scale '%s' must be positive", part);
    return 0;
}

/* "IN:OUT" and "START:END" pairs. */
static int pair(const char *part, double *a, double *b, char *err)
{
    char buf[128];
    char *colon;
    if (strlen(part) >= sizeof buf)
        return fail(err, "'%s' is too long", part);
    strcpy(buf, part);
    colon = strchr(buf, ':');
    if (!colon)
        return fail(err, "'%s' is not a pair A:B", part);
    *colon = '\0';
    if (parse_double(buf, a, err) != 0 || parse_double(colon + 1, b, err))
        return -1;
    return 0;
}

static int offset_part(const char *part, int i, cli_opts *o, char *err)
{
    double a, b;
    if (pair(part, &a, &b, err) != 0)
        return -1;
    o->in_off[i] = (float)a;
    o->out_off[i] = (float)b;
    return 0;
}

static int roi_part(const char *part, int i, cli_opts *o, char *err)
{
    return pair(part, &o->roi_s[i], &o->roi_e[i], err);
}

/* ---- the problem knob table ---- */

typedef enum kkind { K_ENUM, K_DOUBLE, K_INT, K_CUSTOM } kkind;
typedef int (*custom_fn)(const char *v, cli_opts *o, char *err);

static int set_sdt(const char *v, cli_opts *o, char *err)
{
    const cli_dtype *t = cli_dtype_find(v);
    if (!t)
        return fail(err, "unknown data type '%s' (one of f32 f16 bf16 f64 "
                    "s32 s8 u8 s64)", v);
    o->sdt = t->dt;
    return 0;
}

static int set_ddt(const char *v, cli_opts *o, char *err)
{
    const cli_dtype *t = cli_dtype_find(v);
    if (!t)
        return fail(err, "unknown data type '%s' (one of f32 f16 bf16 f64 "
                    "s32 s8 u8 s64)", v);
    o->ddt = t->dt;
    return 0;
}

/* Whether v is a oneDNN format tag: each of the letters a, b, c, ...
 * once (upper case for a blocked axis) for a rank of 3 to 5, then one
 * block size and lower-case letter per upper-case one ("ABcd32a16b").
 * Returns the number of blocked axes, or -1. */
static int onednn_tag_blocks(const char *v)
{
    unsigned seen = 0, upper = 0, blocked = 0;
    int rank = 0, nblocks = 0;
    const char *p = v;

    for (; isalpha((unsigned char)*p); ++p, ++rank) {
        int c = tolower((unsigned char)*p) - 'a';
        if (c < 0 || c >= 5 || (seen >> c & 1u))
            return -1;
        seen |= 1u << c;
        if (isupper((unsigned char)*p))
            upper |= 1u << c;
    }
    if (rank < 3 || rank > 5 || seen != (1u << rank) - 1)
        return -1;
    while (*p) {
        int c;
        if (!isdigit((unsigned char)*p) || *p == '0')
            return -1;
        while (isdigit((unsigned char)*p))
            ++p;
        c = *p - 'a';
        if (c < 0 || c >= rank || !(upper >> c & 1u))
            return -1;
        blocked |= 1u << c;
        ++nblocks;
        ++p;
    }
    return blocked == upper ? nblocks : -1;
}

static int set_tag(const char *v, cli_opts *o, char *err)
{
    const cli_tag *t;
    size_t used;
    int blocks;
    for (t = tags; t->name; ++t)
        if (strcmp(t->name, v) == 0) {
            o->tag = t;
            return 0;
        }
    blocks = onednn_tag_blocks(v);
    if (blocks >= 0) {
        o->tag = blocks > 1 ? &refused_blocks : &refused_order;
        return 0;
    }
    used = (size_t)snprintf(err, ERRSZ, "unknown tag '%s' (one of", v);
    for (t = tags; t->name && used < ERRSZ; ++t)
        used += (size_t)snprintf(err + used, ERRSZ - used, " %s", t->name);
    if (used < ERRSZ)
        snprintf(err + used, ERRSZ - used, ", or another of oneDNN's "
                 "format tags, skipped)");
    return -1;
}

static int set_scales(const char *v, cli_opts *o, char *err)
{
    if (strcmp(v, "none") == 0) {
        o->n_scales = 0;
        return 0;
    }
    return parse_parts(v, o, &o->n_scales, scale_part, err);
}

static int set_offsets(const char *v, cli_opts *o, char *err)
{
    if (strcmp(v, "none") == 0) {
        o->n_offsets = 0;
        return 0;
    }
    return parse_parts(v, o, &o->n_offsets, offset_part, err);
}

static int axis_part(const char *part, int i, cli_opts *o, char *err)
{
    int64_t x;
    if (parse_int(part, -CLI_MAXAX, CLI_MAXAX - 1, &x, err) != 0)
        return -1;
    o->axes[i] = (int)x;
    return 0;
}

/* "default", letters of "ncdhw" ("cw", "nchw"), or tensor axis numbers
 * joined by 'x' ("1x3", "-1"). Checked against the descriptor later. */
static int set_axes(const char *v, cli_opts *o, char *err)
{
    size_t i, n = strlen(v);
    if (strcmp(v, "default") == 0) {
        o->n_axes = 0;
        return 0;
    }
    if (isdigit((unsigned char)v[0]) || v[0] == '-')
        return parse_parts(v, o, &o->n_axes, axis_part, err);
    if (n == 0 || n > CLI_MAXAX)
        return fail(err, "'%s' names no axis or more than %d", v, CLI_MAXAX);
    for (i = 0; i < n; ++i) {
        if (!strchr("ncdhw", v[i]))
            return fail(err, "'%s': axes are letters of ncdhw (e.g. cw) "
                        "or numbers joined by x (e.g. 1x3)", v);
        o->axes[i] = v[i];
    }
    o->n_axes = (int)n;
    return 0;
}

static int set_roi(const char *v, cli_opts *o, char *err)
{
    if (strcmp(v, "none") == 0) {
        o->n_roi = 0;
        return 0;
    }
    return parse_parts(v, o, &o->n_roi, roi_part, err);
}

/* ---- --attr-post-ops ---- */

/* The names of CLRS_ELTWISE_MAP and CLRS_BINARY_MAP. */
#define ELTWISE_CHOICE_(e, name, ...) {name, CLRS_ELTWISE_##e},
#define BINARY_CHOICE_(e, name, ...) {name, CLRS_BINARY_##e},
static const choice eltwise_algs[] = {
    CLRS_ELTWISE_MAP(ELTWISE_CHOICE_){NULL, 0}};
static const choice binary_algs[] = {
    CLRS_BINARY_MAP(BINARY_CHOICE_){NULL, 0}};
#undef ELTWISE_CHOICE_
#undef BINARY_CHOICE_
/* benchdnn's broadcast policies as masks of the axes the operand keeps
 * (bit a: operand dim a is dst's, else 1); 0xFC = every spatial axis. */
static const choice policies[] = {
    {"common", 0},        {"per_oc", 2},          {"per_dim_0", 1},
    {"per_dim_1", 2},     {"per_dim_01", 3},      {"per_dim_2", 4},
    {"per_dim_3", 8},     {"per_spatial", 0xFC},
    {"per_mb_spatial", 0xFD}, {"per_tensor", 0xFF}, {NULL, 0}};

/* Binary ALG:DT[:POLICY|MASK[:TAG]] after the name; f[1] is the type. */
static int binary_fields(char **f, int n, struct cli_post *q, char *err)
{
    const cli_dtype *dt;
    int x;

    if (n < 2)
        return fail(err, "%s needs a data type: binary_ALG:DT[:POLICY]",
                    f[0]);
    dt = cli_dtype_find(f[1]);
    if (!dt || dt->dt == CLRS_S64)
        return fail(err, "unknown operand data type '%s' (one of f32 "
                    "f16 bf16 f64 s32 s8 u8)", f[1]);
    q->dt = dt->dt;
    q->mask = 0; /* benchdnn's default policy: common, one scalar */
    if (n > 2) {
        int64_t m;
        if (isdigit((unsigned char)f[2][0])) {
            /* benchdnn's MASK: bit a set = operand dim a is dst's */
            if (parse_int(f[2], 0, 0xFFFF, &m, err) != 0)
                return -1;
            q->mask = (unsigned)m & 0xFF; /* no tensor has 8 axes */
        } else if (find_choice(policies, f[2], 1, &x) != 0) {
            return fail_choice(err, f[2], policies);
        } else {
            q->mask = (unsigned)x;
        }
    }
    if (n > 3 && strcmp(f[3], "any") != 0)
        return fail(err, "%s: operand tag '%s': an operand takes the "
                    "problem's layout (only 'any' is accepted)", f[0], f[3]);
    return 0;
}

/* One entry of the chain: "sum:0.5", "eltwise_relu:0.1", "binary_add:f32:
 * per_oc", or benchdnn's short names ("relu:0.1", "add:f32"). Fields after
 * the name are ':'-separated. */
static int post_entry(char *e, struct cli_post *q, char *err)
{
    char *f[5] = {NULL, NULL, NULL, NULL, NULL}, *save = NULL, *t;
    const char *alg;
    double ignored;
    int n = 0, x, elt, bin;
    for (t = strtok_r(e, ":", &save); t && n < 5; t = strtok_r(NULL, ":", &save))
        f[n++] = t;
    if (n == 0)
        return fail(err, "empty post-op");
    if (t)
        return fail(err, "post-op '%s' has too many ':' fields", f[0]);
    memset(q, 0, sizeof *q);
    q->scale = 1;
    if (strcmp(f[0], "sum") == 0) {
        q->kind = CLI_POST_SUM;
        if (n > 2)
            return fail(err, "sum takes one field, sum[:scale]");
        return n > 1 ? parse_double(f[1], &q->scale, err) : 0;
    }
    elt = strncmp(f[0], "eltwise_", 8) == 0;
    bin = strncmp(f[0], "binary_", 7) == 0;
    alg = elt ? f[0] + 8 : bin ? f[0] + 7 : f[0];
    if (!bin && find_choice(eltwise_algs, alg, 0, &x) == 0) {
        q->kind = CLI_POST_ELTWISE;
        q->alg = x;
        /* benchdnn's ALG[:ALPHA[:BETA[:SCALE]]]: it reads no SCALE
         * either (oneDNN's eltwise post-op has none). */
        if (n > 4)
            return fail(err, "%s takes eltwise_ALG[:alpha[:beta[:scale]]] "
                        "(scale is read and ignored, as benchdnn does)",
                        f[0]);
        if (n > 1 && parse_double(f[1], &q->alpha, err) != 0)
            return -1;
        if (n > 2 && parse_double(f[2], &q->beta, err) != 0)
            return -1;
        if (n > 3 && parse_double(f[3], &ignored, err) != 0)
            return -1;
        return 0;
    }
    if (!elt && find_choice(binary_algs, alg, 0, &x) == 0) {
        q->kind = CLI_POST_BINARY;
        q->alg = x;
        return binary_fields(f, n, q, err);
    }
    if (elt)
        return fail_choice(err, alg, eltwise_algs);
    if (bin)
        return fail_choice(err, alg, binary_algs);
    return fail(err, "unknown post-op '%s' (sum, eltwise_ALG or ALG, "
                "binary_ALG or ALG)", f[0]);
}

static int set_post_ops(const char *v, cli_opts *o, char *err)
{
    char buf[512], *save = NULL, *e;
    o->n_post = 0;
    if (strcmp(v, "") == 0 || strcmp(v, "none") == 0)
        return 0;
    if (strlen(v) >= sizeof buf)
        return fail(err, "post-op chain too long");
    strcpy(buf, v);
    for (e = strtok_r(buf, "+", &save); e; e = strtok_r(NULL, "+", &save)) {
        if (o->n_post == CLRS_MAX_POST_OPS)
            return fail(err, "more than %d post-ops", CLRS_MAX_POST_OPS);
        if (post_entry(e, &o->post[o->n_post], err) != 0)
            return -1;
        ++o->n_post;
    }
    return 0;
}

typedef struct knob {
    const char *name;
    const char *def;
    kkind kind;
    size_t off;
    const choice *choices;
    custom_fn fn;
    int64_t lo, hi; /* K_INT */
} knob;

#define OFF(f) offsetof(cli_opts, f)
static const knob knobs[] = {
    {"dir", "FWD_D", K_ENUM, OFF(dir), dirs, NULL, 0, 0},
    {"alg", "auto", K_ENUM, OFF(alg), algs, NULL, 0, 0},
    {"sdt", "f32", K_CUSTOM, 0, NULL, set_sdt, 0, 0},
    {"ddt", "f32", K_CUSTOM, 0, NULL, set_ddt, 0, 0},
    {"tag", "abx", K_CUSTOM, 0, NULL, set_tag, 0, 0},
    {"vendor", "none", K_ENUM, OFF(vendor), vendors, NULL, 0, 0},
    {"coord", "default", K_ENUM, OFF(coord), coords, NULL, 0, 0},
    {"nearest", "default", K_ENUM, OFF(rounding), roundings, NULL, 0, 0},
    {"arith", "default", K_ENUM, OFF(arith), ariths, NULL, 0, 0},
    {"aa-rule", "default", K_ENUM, OFF(aa_rule), aa_rules, NULL, 0, 0},
    {"keep-aspect", "stretch", K_ENUM, OFF(keep_aspect), keep_aspects, NULL,
     0, 0},
    {"cubic-a", "default", K_DOUBLE, OFF(cubic_a), NULL, NULL, 0, 0},
    {"exclude-outside", "false", K_ENUM, OFF(exclude_outside), bools, NULL,
     0, 0},
    {"antialias", "false", K_ENUM, OFF(antialias), bools, NULL, 0, 0},
    {"pad-mode", "default", K_ENUM, OFF(pad_mode), pads, NULL, 0, 0},
    {"pad-value", "0", K_DOUBLE, OFF(pad_value), NULL, NULL, 0, 0},
    {"axes", "default", K_CUSTOM, 0, NULL, set_axes, 0, 0},
    {"scales", "none", K_CUSTOM, 0, NULL, set_scales, 0, 0},
    {"offsets", "none", K_CUSTOM, 0, NULL, set_offsets, 0, 0},
    {"roi", "none", K_CUSTOM, 0, NULL, set_roi, 0, 0},
    {"extrapolation", "0", K_DOUBLE, OFF(extrapolation), NULL, NULL, 0, 0},
    {"index", "window", K_ENUM, OFF(index_format), indexes, NULL, 0, 0},
    {"nan", "propagate", K_ENUM, OFF(nan_policy), nans, NULL, 0, 0},
    {"ceil-mode", "false", K_ENUM, OFF(ceil_mode), bools, NULL, 0, 0},
    {"divisor", "default", K_ENUM, OFF(divisor), divisors, NULL, 0, 0},
    {"divisor-override", "0", K_DOUBLE, OFF(divisor_override), NULL, NULL, 0,
     0},
    {"mb", "0", K_INT, OFF(mb), NULL, NULL, 0, INT64_C(1) << 30},
    {"attr-post-ops", "none", K_CUSTOM, 0, NULL, set_post_ops, 0, 0},
};
#define NKNOBS ((int)(sizeof knobs / sizeof knobs[0]))

static int knob_index(const char *name)
{
    int i;
    for (i = 0; i < NKNOBS; ++i)
        if (strcmp(knobs[i].name, name) == 0)
            return i;
    return -1;
}
#define TAG_KNOB knob_index("tag")
#define VENDOR_KNOB knob_index("vendor")
#define POST_OPS_KNOB knob_index("attr-post-ops")

static int knob_apply(const knob *k, const char *v, cli_opts *o, char *err)
{
    unsigned char *base = (unsigned char *)o;
    switch (k->kind) {
    case K_ENUM: {
        int x;
        if (find_choice(k->choices, v, 0, &x) != 0)
            return fail_choice(err, v, k->choices);
        memcpy(base + k->off, &x, sizeof x);
        return 0;
    }
    case K_DOUBLE: {
        double x = NAN; /* "default": the library's (or preset's) value */
        if (strcmp(v, "default") != 0 && parse_double(v, &x, err) != 0)
            return -1;
        memcpy(base + k->off, &x, sizeof x);
        return 0;
    }
    case K_INT: {
        int64_t x;
        if (parse_int(v, k->lo, k->hi, &x, err) != 0)
            return -1;
        memcpy(base + k->off, &x, sizeof x);
        return 0;
    }
    case K_CUSTOM:
        return k->fn(v, o, err);
    }
    return -1;
}

static void opts_defaults(cli_opts *o)
{
    char err[ERRSZ];
    int i;
    memset(o, 0, sizeof *o);
    for (i = 0; i < NKNOBS; ++i)
        knob_apply(&knobs[i], knobs[i].def, o, err);
}

/* ---- parser state ---- */

/* Every string the parser keeps lives in this pool until
 * cli_free_problems: problems point into it. */
static char **pool;
static size_t pool_n, pool_cap;

static const char *pool_dup(const char *s, size_t n)
{
    char *c;
    if (pool_n == pool_cap) {
        size_t cap = pool_cap ? pool_cap * 2 : 64;
        char **np = realloc(pool, cap * sizeof *np);
        if (!np)
            return NULL;
        pool = np;
        pool_cap = cap;
    }
    c = malloc(n + 1);
    if (!c)
        return NULL;
    memcpy(c, s, n);
    c[n] = '\0';
    pool[pool_n++] = c;
    return c;
}

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
} state;

static void global_defaults(cli_global *g, int keep_run_knobs)
{
    cli_global old = *g;
    memset(g, 0, sizeof *g);
    g->mode = MODE_C;
    g->engine = ENGINE_DEVICE;
    g->max_ms = 3000;
    g->tune_ms = 5000;
    g->fix_times = 0;
    g->seed = 1;
    if (keep_run_knobs) {
        g->mode = old.mode;
        g->engine = old.engine;
        g->max_ms = old.max_ms;
        g->tune_ms = old.tune_ms;
        g->fix_times = old.fix_times;
        g->seed = old.seed;
    }
}

static void clear_match(state *s)
{
    if (s->has_match)
        regfree(&s->match);
    s->has_match = 0;
}

static void state_reset(state *s, int keep_run_knobs)
{
    int i;
    for (i = 0; i < NKNOBS; ++i)
        s->val[i] = knobs[i].def;
    if (s->preset)
        s->val[VENDOR_KNOB] = s->preset;
    global_defaults(&s->g, keep_run_knobs);
    clear_match(s);
}

static int usage_error(const state *s, const char *tok, const char *msg)
{
    if (s->where)
        fprintf(stderr, "clresample: %s: '%.200s': %s\n", s->where, tok,
                msg);
    else
        fprintf(stderr, "clresample: '%.200s': %s\n", tok, msg);
    fprintf(stderr, "clresample: run 'clresample --help' for the knobs\n");
    return CLI_EXIT_USAGE;
}

/* ---- expansion ---- */

static int push_problem(cli_prb_list *l, const cli_prb *p)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        cli_prb *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n] = *p;
    l->v[l->n].index = (int)l->n;
    ++l->n;
    return 0;
}

/* Splits a comma list into pooled pieces. */
static int split(const char *list, const char **parts, int max)
{
    int n = 0;
    const char *p = list;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (n >= max)
            return -1;
        parts[n] = pool_dup(p, len);
        if (!parts[n])
            return -1;
        ++n;
        if (!c)
            break;
        p = c + 1;
    }
    return n;
}

#define MAX_LIST 64

/* Whether one more descriptor, expanded over every combination of the
 * knobs' lists, would take the problem count past MAX_PROBLEMS: counted,
 * so the refusal costs nothing. */
static int too_many(const state *s, const int *count, char *err)
{
    uint64_t n = 1;
    int i;

    for (i = 0; i < NKNOBS; ++i) {
        n *= (uint64_t)count[i];
        if (n > MAX_PROBLEMS)
            break; /* 64^NKNOBS would overflow: stop counting */
    }
    if (n + s->out->n <= MAX_PROBLEMS)
        return 0;
    if (i < NKNOBS)
        return fail(err, "the comma lists make more than %d combinations "
                    "for this descriptor; at most %d problems in all",
                    MAX_PROBLEMS, MAX_PROBLEMS);
    return fail(err, "%llu combinations for this descriptor after %zu "
                "problems: more than %d problems in all; shorten the comma "
                "lists", (unsigned long long)n, s->out->n, MAX_PROBLEMS);
}

static int expand(state *s, const char *tok, const cli_desc_raw *raw)
{
    const char *parts[NKNOBS][MAX_LIST];
    int count[NKNOBS], pick[NKNOBS], i;
    char err[ERRSZ];

    for (i = 0; i < NKNOBS; ++i) {
        count[i] = split(s->val[i], parts[i], MAX_LIST);
        if (count[i] < 0)
            return usage_error(s, tok, "out of memory");
        pick[i] = 0;
    }
    if (too_many(s, count, err) != 0)
        return usage_error(s, tok, err);
    for (;;) {
        cli_prb p;
        size_t used = 0;
        char shape[sizeof p.shape];

        memset(&p, 0, sizeof p);
        opts_defaults(&p.o);
        for (i = 0; i < NKNOBS; ++i)
            if (knob_apply(&knobs[i], parts[i][pick[i]], &p.o, err) != 0)
                return usage_error(s, tok, err); /* checked earlier */
        if (p.o.alg == ALG_AUTO)
            p.o.alg = cli_desc_raw_has_window(raw) ? ALG_MAX : ALG_NEAREST;
        if (cli_desc_resolve(raw, &p.o, &p.d, err, sizeof err) != 0)
            return usage_error(s, tok, err);
        p.g = s->g;
        cli_desc_format(&p.d, shape, sizeof shape);
        snprintf(p.shape, sizeof p.shape, "%s", shape);
        /* The repro names the direction, algorithm and every knob that
         * differs from its default, so the line reruns this one problem. */
        used += (size_t)snprintf(p.repro + used, sizeof p.repro - used,
                                 "--dir=%s --alg=%s", cli_dir_name(p.o.dir),
                                 cli_alg_name(p.o.alg));
        for (i = 2; i < NKNOBS && used < sizeof p.repro; ++i)
            if (strcmp(parts[i][pick[i]], knobs[i].def) != 0)
                used += (size_t)snprintf(p.repro + used,
                                         sizeof p.repro - used, " --%s=%s",
                                         knobs[i].name, parts[i][pick[i]]);
        if (p.g.engine == ENGINE_REF && used < sizeof p.repro)
            used += (size_t)snprintf(p.repro + used, sizeof p.repro - used,
                                     " --engine=ref");
        if (used < sizeof p.repro)
            snprintf(p.repro + used, sizeof p.repro - used, " %s", shape);
        if (p.o.tag->refused)
            snprintf(p.skip, sizeof p.skip, "--tag=%s: %s",
                     parts[TAG_KNOB][pick[TAG_KNOB]], p.o.tag->refused);
        if (s->has_match && regexec(&s->match, p.repro, 0, NULL, 0) != 0) {
            ++s->run->left_out; /* --match: not a problem of this run */
            goto next;
        }
        if (p.o.tag->rank && p.o.tag->rank != p.d.nsp + 2) {
            snprintf(err, sizeof err, "--tag=%s needs a %d-D tensor; this "
                     "descriptor is %d-D", p.o.tag->name, p.o.tag->rank,
                     p.d.nsp + 2);
            return usage_error(s, tok, err);
        }
        if (push_problem(s->out, &p) != 0)
            return usage_error(s, tok, "out of memory");
    next:

        /* Odometer over the knob lists, last knob fastest. */
        for (i = NKNOBS - 1; i >= 0; --i) {
            if (++pick[i] < count[i])
                break;
            pick[i] = 0;
        }
        if (i < 0)
            return 0;
    }
}

/* ---- one token ---- */

static int do_token(state *s, const char *tok);
static int read_batch(state *s, const char *path, const char *tok);

/* path opened for reading if it is a regular file: without waiting on a
 * FIFO (a batch file is read whole before anything runs), and saying what
 * it is otherwise. NULL after the message. */
static FILE *open_batch(const state *s, const char *path, const char *tok)
{
    char msg[ERRSZ];
    struct stat st;
    FILE *f = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK);

    if (fd < 0) {
        snprintf(msg, sizeof msg, "cannot open batch file '%s': %s", path,
                 strerror(errno));
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, sizeof msg, "batch file '%s' is %s", path,
                 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    } else if ((f = fdopen(fd, "rb")) == NULL) {
        snprintf(msg, sizeof msg, "cannot open batch file '%s': %s", path,
                 strerror(errno));
    }
    if (!f) {
        if (fd >= 0)
            close(fd);
        usage_error(s, tok, msg);
    }
    return f;
}

/* A whole batch file, NUL-terminated, in *out (the caller frees it). */
static int load_batch(state *s, const char *path, const char *tok,
                      char **out)
{
    FILE *f;
    char *buf;
    size_t len;
    long size;

    if (s->files >= MAX_BATCH_FILES)
        return usage_error(s, tok, "more than 1000 batch files read in all "
                           "(files that include each other many times?)");
    f = open_batch(s, path, tok);
    if (!f)
        return CLI_EXIT_USAGE;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        (unsigned long)size > MAX_BATCH_BYTES || fseek(f, 0, SEEK_SET)) {
        fclose(f);
        return usage_error(s, tok, "batch file is unreadable or larger "
                           "than 16 MiB");
    }
    if (s->batch_bytes + (size_t)size > MAX_BATCH_TOTAL) {
        fclose(f);
        return usage_error(s, tok, "batch files total more than 64 MiB "
                           "(files that include each other many times?)");
    }
    buf = malloc((size_t)size + 1);
    if (!buf) {
        fclose(f);
        return usage_error(s, tok, "out of memory");
    }
    len = fread(buf, 1, (size_t)size, f);
    fclose(f);
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        free(buf);
        return usage_error(s, tok, "batch file contains a NUL byte");
    }
    s->files++;
    s->batch_bytes += len;
    *out = buf;
    return 0;
}

/* One token of the batch file at path. Nested batches are looked up
 * beside the including file first, so a suite runs from any directory. */
static int batch_token(state *s, const char *path, const char *tok)
{
    const char *dir_end = strrchr(path, '/'), *pr;
    char rel[1200];
    struct stat st;

    if (strncmp(tok, "--batch=", 8) != 0 || tok[8] == '/' || !dir_end)
        return do_token(s, tok);
    snprintf(rel, sizeof rel, "%.*s/%s", (int)(dir_end - path), path,
             tok + 8);
    if (stat(rel, &st) != 0)
        return do_token(s, tok);
    pr = pool_dup(rel, strlen(rel));
    return pr ? read_batch(s, pr, tok) : usage_error(s, tok, "out of memory");
}

/* A token of a batch file held back until the next one shows whether a
 * backslash joins them, with the line it started on. benchdnn's line
 * continuation: a token ending in a backslash, or a backslash standing
 * alone, joins the tokens before and after it ("--x=a, BACKSLASH" then
 * "b" on the next line is "--x=a,b"). */
typedef struct held_tok {
    char *text;
    size_t len, cap;
    int line, open; /* open: a token is held */
} held_tok;

static int held_append(held_tok *h, const char *t, size_t n)
{
    if (h->len + n + 1 > h->cap) {
        size_t cap = (h->len + n + 1) * 2;
        char *nt = realloc(h->text, cap);
        if (!nt)
            return -1;
        h->text = nt;
        h->cap = cap;
    }
    memcpy(h->text + h->len, t, n);
    h->len += n;
    h->text[h->len] = '\0';
    return 0;
}

/* Runs the held token, if any, as from path:line. */
static int held_run(state *s, const char *path, held_tok *h, char *where,
                    size_t wsize)
{
    int rc;
    if (!h->open)
        return 0;
    snprintf(where, wsize, "%s:%d", path, h->line);
    s->where = where;
    rc = batch_token(s, path, h->text);
    h->open = 0;
    h->len = 0;
    return rc;
}

/* One whitespace-separated token t (n bytes, NUL-terminated) of the
 * file: joined to the held one after a backslash, else the held one runs
 * and t is held. */
static int held_take(state *s, const char *path, held_tok *h, int *joined,
                     const char *t, size_t n, int line, char *where,
                     size_t wsize)
{
    int cont = t[n - 1] == '\\', rc = 0;

    if (*joined) {
        if (!h->open) {
            snprintf(where, wsize, "%s:%d", path, line);
            s->where = where;
            return usage_error(s, t, "a line continuation ('\\') with no "
                               "token before it");
        }
    } else if (cont && n == 1) {
        *joined = 1; /* a lone backslash: the held token and the next join */
        return 0;
    } else {
        rc = held_run(s, path, h, where, wsize);
        if (rc != 0)
            return rc;
        h->open = 1;
        h->line = line;
    }
    *joined = cont;
    if (held_append(h, t, n - (size_t)cont) != 0)
        return usage_error(s, t, "out of memory");
    return 0;
}

static int read_batch(state *s, const char *path, const char *tok)
{
    char *buf = NULL, *p;
    int line = 1, rc, joined = 0;
    char where[600];
    const char *saved_where = s->where;
    held_tok h;

    if (s->depth >= MAX_BATCH_DEPTH)
        return usage_error(s, tok, "batch files nest more than 16 deep (a "
                           "cycle?)");
    rc = load_batch(s, path, tok, &buf);
    if (rc != 0)
        return rc;

    memset(&h, 0, sizeof h);
    ++s->depth;
    p = buf;
    while (*p && rc == 0) {
        char *start, save;
        if (*p == '\n') {
            ++line;
            ++p;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            ++p;
            continue;
        }
        if (*p == '#') {
            while (*p && *p != '\n')
                ++p;
            continue;
        }
        start = p;
        while (*p && !isspace((unsigned char)*p))
            ++p;
        save = *p;
        *p = '\0';
        rc = held_take(s, path, &h, &joined, start, (size_t)(p - start),
                       line, where, sizeof where);
        *p = save;
    }
    if (rc == 0)
        rc = held_run(s, path, &h, where, sizeof where);
    --s->depth;
    s->where = saved_where;
    free(h.text);
    free(buf);
    return rc;
}

/* What --match takes: a regular expression whose compiled form stays
 * small. glibc's regcomp copies the operand of every '+' and of an
 * interval {m,n} once per repetition, so stacked or nested ones grow
 * exponentially (a pattern of fifty '+' exhausts memory), and a
 * repetition of a repeated atom ("a?+", nine '?' then five '+') took a
 * second to compile; patterns pick problems by name and need neither
 * many '+', nor intervals, nor stacked repetitions. At most 256
 * characters and 8 unescaped '+' outside bracket expressions, no
 * interval, no '?', '*' or '+' right after another, and no
 * back-reference (glibc's extension, whose matching backtracks).
 * Returns 0, or -1 with the reason in err. */
#define MATCH_MAX_LEN 256
#define MATCH_MAX_PLUS 8
static int match_pattern_ok(const char *v, char *err)
{
    const char *p = v;
    int plus = 0, repeated = 0; /* the last token a '?', '*' or '+' */

    if (strlen(v) > MATCH_MAX_LEN)
        return fail(err, "a --match pattern has at most %d characters",
                    MATCH_MAX_LEN);
    while (*p) {
        if (*p == '\\' && isdigit((unsigned char)p[1]))
            return fail(err, "--match takes no back-reference (\\%c: "
                        "matching one can take exponential time)", p[1]);
        if (*p == '\\' && p[1]) {
            p += 2;
            repeated = 0;
            continue;
        }
        if (*p == '[') { /* a bracket expression: ']' first is literal */
            repeated = 0;
            ++p;
            if (*p == '^')
                ++p;
            if (*p == ']')
                ++p;
            while (*p && *p != ']')
                ++p;
            if (*p)
                ++p;
            continue;
        }
        if (*p == '{')
            return fail(err, "--match takes no interval {m,n} (its "
                        "compiled form grows with each repetition); "
                        "spell the repetition out");
        if (*p == '+' && ++plus > MATCH_MAX_PLUS)
            return fail(err, "--match takes at most %d '+' (each copies "
                        "its operand when compiled); use '*'",
                        MATCH_MAX_PLUS);
        if (*p == '?' || *p == '*' || *p == '+') {
            if (repeated)
                return fail(err, "--match takes no repetition of a "
                            "repetition (%c%c: its compiled form grows "
                            "with each); use one", p[-1], *p);
            repeated = 1;
        } else {
            repeated = 0;
        }
        ++p;
    }
    return 0;
}

/* ---- the run-wide option table ---- */

/* Knobs about how to run, not what: not expanded, not in the repro. Each
 * row names its option, how its value is read, the range it must lie in
 * and where it goes. */
typedef enum gkind {
    G_CHOICE, /* one of choices (nocase: in any case) into an int */
    G_MS,     /* milliseconds in (0, hi] into a double */
    G_INT,    /* an integer in [lo, hi] into an int or a 64-bit integer */
    G_PATH,   /* a file name into a pooled string; "" is none */
    G_CUSTOM  /* the row's function */
} gkind;

/* Which structure a row's value goes to (G_NONE: checked, then dropped). */
typedef enum gdest { G_NONE, G_GLOBAL, G_RUN } gdest;

typedef int (*global_fn)(state *s, const char *tok, const char *v);

typedef struct global_opt {
    const char *name;
    gkind kind;
    const choice *choices; /* G_CHOICE */
    int nocase;            /* G_CHOICE */
    int64_t lo, hi;        /* G_INT; G_MS's upper bound in hi */
    const char *empty;     /* G_PATH: the message for "", NULL: it is none */
    gdest dest;
    size_t off, size;      /* the destination field in it */
    global_fn fn;          /* G_CUSTOM */
} global_opt;

/* The choice destinations are int-sized enumerations, stored as int. */
typedef char global_enum_size_check[sizeof(cli_engine) == sizeof(int) &&
                                    sizeof(cli_template) == sizeof(int)
                                    ? 1 : -1];

/* --batch=FILE: its tokens, read now. */
static int set_batch(state *s, const char *tok, const char *v)
{
    if (!*v)
        return usage_error(s, tok, "needs a file name");
    return read_batch(s, v, tok);
}

/* --device=P:D or ~substring. */
static int set_device(state *s, const char *tok, const char *v)
{
    const char *sel = v[0] == '~' ? v + 1 : v;
    if (!*sel)
        return usage_error(s, tok, "empty device selector (P:D or "
                           "~substring)");
    s->run->device = pool_dup(sel, strlen(sel));
    return 0;
}

/* --match=REGEX: the problems it finds nothing in are left out; "" keeps
 * every problem. */
static int set_match(state *s, const char *tok, const char *v)
{
    char err[ERRSZ];
    int e;
    clear_match(s);
    if (!*v)
        return 0; /* benchdnn's default: every problem */
    if (match_pattern_ok(v, err) != 0)
        return usage_error(s, tok, err);
    e = regcomp(&s->match, v, REG_EXTENDED | REG_NOSUB);
    if (e != 0) {
        char why[200];
        regerror(e, &s->match, why, sizeof why);
        snprintf(err, sizeof err, "not a regular expression: %s", why);
        return usage_error(s, tok, err);
    }
    s->has_match = 1;
    return 0;
}

/* --preset=VENDOR: the default --vendor from here on, kept by --reset: a
 * whole benchdnn file (each starts with --reset) under one preset. */
static int set_preset(state *s, const char *tok, const char *v)
{
    char err[ERRSZ];
    int x;
    if (find_choice(vendors, v, 0, &x) != 0)
        return fail_choice(err, v, vendors), usage_error(s, tok, err);
    s->preset = x < 0 ? NULL : pool_dup(v, strlen(v));
    if (x >= 0 && !s->preset)
        return usage_error(s, tok, "out of memory");
    s->val[VENDOR_KNOB] = s->preset ? s->preset : knobs[VENDOR_KNOB].def;
    return 0;
}

#define GOFF(f) G_GLOBAL, offsetof(cli_global, f), sizeof(((cli_global *)0)->f)
#define ROFF(f) G_RUN, offsetof(cli_run, f), sizeof(((cli_run *)0)->f)
static const global_opt globals[] = {
    {"batch", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_batch},
    {"mode", G_CHOICE, modes, 1, 0, 0, NULL, GOFF(mode), NULL},
    {"engine", G_CHOICE, engines, 0, 0, 0, NULL, GOFF(engine), NULL},
    {"perf-template", G_CHOICE, templates, 0, 0, 0, NULL, ROFF(tpl), NULL},
    {"max-ms-per-prb", G_MS, NULL, 0, 0, 3600000, NULL, GOFF(max_ms), NULL},
    {"tune-ms", G_MS, NULL, 0, 0, 3600000, NULL, GOFF(tune_ms), NULL},
    {"fix-times-per-prb", G_INT, NULL, 0, 0, 100000000, NULL,
     GOFF(fix_times), NULL},
    {"seed", G_INT, NULL, 0, 0, INT64_MAX, NULL, GOFF(seed), NULL},
    {"device", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_device},
    {"verbose", G_INT, NULL, 0, 0, 10, NULL, ROFF(verbose), NULL},
    {"src-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(src_file), NULL},
    {"dst-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(dst_file), NULL},
    {"diff-dst-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(diff_dst_file),
     NULL},
    {"diff-src-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(diff_src_file),
     NULL},
    {"ws-file", G_PATH, NULL, 0, 0, 0, NULL, GOFF(ws_file), NULL},
    {"match", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_match},
    {"preset", G_CUSTOM, NULL, 0, 0, 0, NULL, G_NONE, 0, 0, set_preset},
    /* benchdnn's switch for tags outside oneDNN's enumeration: every tag
     * this tool knows is taken either way. */
    {"allow-enum-tags-only", G_CHOICE, bools, 0, 0, 0, NULL, G_NONE, 0, 0,
     NULL},
    {"plot", G_PATH, NULL, 0, 0, 0, "needs a file name (--plot=FILE.svg)",
     ROFF(plot), NULL},
    {"roofline", G_CHOICE, bools, 0, 0, 0, NULL, ROFF(roofline), NULL},
};
#undef GOFF
#undef ROFF
#define NGLOBALS ((int)(sizeof globals / sizeof globals[0]))

/* The run-wide option called name, or NULL. */
static const global_opt *global_find(const char *name)
{
    int i;
    for (i = 0; i < NGLOBALS; ++i)
        if (strcmp(globals[i].name, name) == 0)
            return &globals[i];
    return NULL;
}

/* Copies size bytes from value into the row's destination field. */
static void global_store(state *s, const global_opt *g, const void *value)
{
    unsigned char *base = g->dest == G_RUN ? (unsigned char *)s->run
                                           : (unsigned char *)&s->g;
    if (g->dest != G_NONE)
        memcpy(base + g->off, value, g->size);
}

/* Reads v as the run-wide option name says; -1 when name is none. */
static int do_global(state *s, const char *tok, const char *name,
                     const char *v)
{
    const global_opt *g = global_find(name);
    char err[ERRSZ];
    int x;
    int64_t n;
    double d;

    if (!g)
        return -1; /* not a global knob */
    switch (g->kind) {
    case G_CHOICE:
        if (find_choice(g->choices, v, g->nocase, &x) != 0)
            return fail_choice(err, v, g->choices), usage_error(s, tok, err);
        global_store(s, g, &x);
        return 0;
    case G_MS:
        if (parse_double(v, &d, err) != 0)
            return usage_error(s, tok, err);
        if (d <= 0 || d > (double)g->hi) {
            snprintf(err, sizeof err, "must be in (0, %lld] ms",
                     (long long)g->hi);
            return usage_error(s, tok, err);
        }
        global_store(s, g, &d);
        return 0;
    case G_INT:
        if (parse_int(v, g->lo, g->hi, &n, err) != 0)
            return usage_error(s, tok, err);
        if (g->size == sizeof n) {
            global_store(s, g, &n);
        } else {
            x = (int)n;
            global_store(s, g, &x);
        }
        return 0;
    case G_PATH: {
        const char *c = *v ? pool_dup(v, strlen(v)) : NULL;
        if (!*v && g->empty)
            return usage_error(s, tok, g->empty);
        if (*v && !c)
            return usage_error(s, tok, "out of memory");
        global_store(s, g, &c);
        return 0;
    }
    case G_CUSTOM:
        return g->fn(s, tok, v);
    }
    return -1;
}

static int do_descriptor(state *s, const char *tok)
{
    char err[ERRSZ];
    cli_desc_raw raw;

    if (tok[0] == '-')
        return usage_error(s, tok, "unknown option (knobs are "
                           "--name=value)");
    if (!cli_desc_is_candidate(tok))
        return usage_error(s, tok, "neither a knob (--name=value) nor a "
                           "problem descriptor (mb2ic16ih10oh20...)");
    if (cli_desc_parse(tok, &raw, err, sizeof err) != 0)
        return usage_error(s, tok, err);
    return expand(s, tok, &raw);
}

/* Flags without a value, each setting one int of cli_run (--reset aside). */
static const struct flag {
    const char *name;
    size_t off;
    int value;
} flags[] = {
    {"roofline", offsetof(cli_run, roofline), 1},
    {"list-devices", offsetof(cli_run, list_devices), 1},
    {"cache-bench", offsetof(cli_run, cache_bench), 1},
    {"cache-bench-child", offsetof(cli_run, cache_bench), 2}, /* internal */
    {"version", offsetof(cli_run, version), 1},
    {"help", offsetof(cli_run, help), 1},
};

/* --name without '=': a flag, or a knob whose value is missing. */
static int do_flag(state *s, const char *tok, const char *name)
{
    char err[ERRSZ];
    size_t f;
    int i;

    if (strcmp(name, "reset") == 0) {
        state_reset(s, 1);
        return 0;
    }
    for (f = 0; f < sizeof flags / sizeof flags[0]; ++f)
        if (strcmp(name, flags[f].name) == 0) {
            memcpy((unsigned char *)s->run + flags[f].off, &flags[f].value,
                   sizeof flags[f].value);
            return 0;
        }
    snprintf(err, sizeof err, "needs a value: --%s=...", name);
    for (i = 0; i < NKNOBS; ++i)
        if (strcmp(name, knobs[i].name) == 0)
            return usage_error(s, tok, err);
    if (global_find(name))
        return usage_error(s, tok, err);
    return usage_error(s, tok, "unknown option");
}

/* A problem knob's comma list: every item is checked now, so a typo
 * stops the run before anything runs; expansion happens per descriptor.
 * An empty value or item is refused, but for --attr-post-ops, where as
 * in benchdnn it is the problem without post-ops ("--attr-post-ops=,sum"):
 * kept as "none", the default, so that the repro line leaves it out. */
static int do_knob(state *s, const char *tok, int k, const char *v)
{
    const char *parts[MAX_LIST];
    const int empty_ok = k == POST_OPS_KNOB;
    char err[ERRSZ], *list, *w;
    cli_opts scratch;
    size_t len = 0;
    int n, j;

    if (!*v && !empty_ok)
        return usage_error(s, tok, "empty value");
    n = split(v, parts, MAX_LIST);
    if (n < 0)
        return usage_error(s, tok, "more than 64 comma-separated values");
    for (j = 0; j < n; ++j)
        len += strlen(*parts[j] ? parts[j] : knobs[k].def) + 1;
    list = malloc(len);
    if (!list)
        return usage_error(s, tok, "out of memory");
    opts_defaults(&scratch);
    for (j = 0, w = list; j < n; ++j) {
        const char *e = *parts[j] ? parts[j] : knobs[k].def;
        if (!*parts[j] && !empty_ok) {
            free(list);
            return usage_error(s, tok, "empty item in the comma list");
        }
        if (knob_apply(&knobs[k], e, &scratch, err) != 0) {
            free(list);
            return usage_error(s, tok, err);
        }
        w += sprintf(w, "%s%s", j ? "," : "", e);
    }
    s->val[k] = pool_dup(list, strlen(list));
    free(list);
    return s->val[k] ? 0 : usage_error(s, tok, "out of memory");
}

static int do_token(state *s, const char *tok)
{
    char name[64];
    const char *eq, *v;
    size_t nlen;
    int i, rc;

    if (tok[0] == '-' && tok[1] == 'v' && tok[2] == '\0') {
        s->run->verbose = 1;
        return 0;
    }
    if (strncmp(tok, "--", 2) != 0)
        return do_descriptor(s, tok);
    eq = strchr(tok, '=');
    nlen = eq ? (size_t)(eq - tok - 2) : strlen(tok + 2);
    if (nlen == 0 || nlen >= sizeof name)
        return usage_error(s, tok, "unknown option");
    memcpy(name, tok + 2, nlen);
    name[nlen] = '\0';
    v = eq ? eq + 1 : NULL;

    if (!v)
        return do_flag(s, tok, name);
    for (i = 0; i < NKNOBS; ++i)
        if (strcmp(name, knobs[i].name) == 0)
            return do_knob(s, tok, i, v);
    rc = do_global(s, tok, name, v);
    if (rc == -1)
        return usage_error(s, tok, "unknown option");
    return rc;
}

int cli_parse(int argc, char **argv, cli_prb_list *out, cli_run *run)
{
    state s;
    int i, rc = 0;

    memset(&s, 0, sizeof s);
    memset(run, 0, sizeof *run);
    memset(out, 0, sizeof *out);
    s.run = run;
    s.out = out;
    state_reset(&s, 0);
    for (i = 1; i < argc; ++i) {
        rc = do_token(&s, argv[i]);
        if (rc != 0)
            break;
    }
    clear_match(&s);
    return rc;
}

void cli_free_problems(cli_prb_list *l)
{
    size_t i;
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
    for (i = 0; i < pool_n; ++i)
        free(pool[i]);
    free(pool);
    pool = NULL;
    pool_n = pool_cap = 0;
}

void cli_usage(FILE *f)
{
    int i;
    fprintf(f,
            "usage: clresample [KNOBS] DESC... [--batch=FILE]...\n"
            "A knob applies to the descriptors after it; comma lists expand "
            "to every\ncombination. See clresample(1).\n\n"
            "  --mode=C|P|CP|R|L|T|CT  correctness, performance, both, run "
            "only, list,\n"
            "                          tune then time (T), with a check "
            "(CT)\n"
            "  --engine=device|ref     run the library's plans (default) or "
            "its CPU reference\n"
            "  --device=P:D|~name      device (default: CLRS_DEVICE, else "
            "the first)\n"
            "  --list-devices --version --help\n"
            "  --max-ms-per-prb=MS --fix-times-per-prb=N --roofline\n"
            "  --tune-ms=MS            tuning budget per plan (5000)\n"
            "  --cache-bench           time cold/warm/hot first use of the "
            "first problem\n"
            "  --perf-template=def|csv|json  --seed=N  -v\n"
            "  --plot=FILE.svg         chart of the --mode=P timings "
            "(measures --roofline)\n"
            "  --src-file= --dst-file= --diff-dst-file= --diff-src-file= "
            "--ws-file= (.npy)\n"
            "  --reset  --batch=FILE\n"
            "problem knobs (default):\n");
    for (i = 0; i < NKNOBS; ++i)
        fprintf(f, "  --%s=%s\n", knobs[i].name, knobs[i].def);
    fprintf(f, "descriptor: mb2ic16ih10iw10oh20ow20; id/od for 3-D, iw/ow "
               "alone for 1-D;\n  pooling: kd kh kw, sd sh sw, pd ph pw, "
               "fractions as kh3d2; n\"name\"\n");
}
