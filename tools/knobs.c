/* clresample tool: the problem knobs, what each problem of a run may
 * differ in: their name lists, the parsers of their values and the table
 * that holds, per knob, its name, default, parser and field of cli_opts.
 * The manual, clresample(1), documents this table. */
#include "parse.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- name tables ---- */

static const choice dirs[] = {
    {"FWD_D", DIR_FWD_D}, {"FWD_I", DIR_FWD_I}, {"BWD_D", DIR_BWD_D},
    {NULL, 0}};
#define ALG_CHOICE_(e, name, cli, ...) {cli, ALG_##e},
static const choice algs[] = {
    {"auto", ALG_AUTO}, CLRS_MODE_MAP(ALG_CHOICE_){"area", ALG_AVG_ADAPTIVE},
    {NULL, 0}};
#undef ALG_CHOICE_
#define FILTER_CHOICE_(e, name, ...) {name, CLRS_FILTER_##e},
static const choice filters[] = {CLRS_FILTER_MAP(FILTER_CHOICE_){NULL, 0}};
#undef FILTER_CHOICE_
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
    {"scale_and_translate", CLRS_COORD_SCALE_AND_TRANSLATE},
    {NULL, 0}};
static const choice roundings[] = {
    {"default", -1},
    {"round_prefer_floor", CLRS_ROUND_PREFER_FLOOR},
    {"round_prefer_ceil", CLRS_ROUND_PREFER_CEIL},
    {"floor", CLRS_ROUND_FLOOR},
    {"ceil", CLRS_ROUND_CEIL},
    {NULL, 0}};
const choice vendors[] = {{"none", -1},
                          {"pytorch", CLRS_VENDOR_PYTORCH},
                          {"onnx", CLRS_VENDOR_ONNX},
                          {"onednn", CLRS_VENDOR_ONEDNN},
                          {"directml", CLRS_VENDOR_DIRECTML},
                          {"cudnn", CLRS_VENDOR_CUDNN},
                          {"pillow", CLRS_VENDOR_PILLOW},
                          {"opencv", CLRS_VENDOR_OPENCV},
                          {"tensorflow", CLRS_VENDOR_TENSORFLOW},
                          {NULL, 0}};
static const choice ariths[] = {{"default", -1},
                                {"float", CLRS_ARITH_FLOAT},
                                {"onednn", CLRS_ARITH_ONEDNN},
                                {"exact", CLRS_ARITH_EXACT},
                                {"pillow", CLRS_ARITH_PILLOW},
                                {"opencv_exact", CLRS_ARITH_OPENCV_EXACT},
                                {"tensorflow", CLRS_ARITH_TENSORFLOW},
                                {"opencv", CLRS_ARITH_OPENCV},
                                {NULL, 0}};
static const choice aa_rules[] = {{"default", -1},
                                  {"pytorch", CLRS_AA_PYTORCH},
                                  {"onnx", CLRS_AA_ONNX},
                                  {"pillow", CLRS_AA_PILLOW},
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
const choice bools[] = {
    {"true", 1}, {"false", 0}, {"1", 1}, {"0", 0}, {NULL, 0}};

/* Where a plan keeps its intermediates (benchdnn's --attr-scratchpad). */
static const choice scratchpads[] = {{"library", 0}, {"user", 1}, {NULL, 0}};

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

const char *cli_opts_alg_name(const cli_opts *o)
{
    return o->method >= 0 ? clrs__methods[o->method].name
                          : cli_alg_name(o->alg);
}
clrs_mode cli_alg_mode(int alg)
{
    return clrs__mode_valid(alg) ? (clrs_mode)alg : CLRS_MODE_NEAREST;
}

/* ---- values of several parts ---- */

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

/* --alg: a mode's name (algs), or an image library's method name, which
 * expand.c resolves against --vendor. */
static int set_alg(const char *v, cli_opts *o, char *err)
{
    size_t used;
    int i;

    o->method = -1;
    snprintf(o->alg_name, sizeof o->alg_name, "%s", v);
    if (find_choice(algs, v, 0, &o->alg) == 0)
        return 0;
    for (i = 0; i < CLRS_METHOD_COUNT; ++i)
        if (strcmp(clrs__methods[i].name, v) == 0 &&
            strlen(v) < sizeof o->alg_name) {
            o->alg = ALG_METHOD;
            return 0;
        }
    fail_choice(err, v, algs); /* "... (one of a b c)", then the methods */
    used = strlen(err);
    if (used > 0 && err[used - 1] == ')')
        snprintf(err + used - 1, ERRSZ - (used - 1),
                 ", or a method of --vendor=pillow, opencv or tensorflow)");
    return -1;
}

/* --filter: "none" or NAME[:P[:Q]], a filter of CLRS_FILTER_MAP and as
 * many parameters as it takes (missing ones: the filter's defaults). */
static int set_filter(const char *v, cli_opts *o, char *err)
{
    char buf[128], *save = NULL, *part;
    int f, n = 0;

    o->filter = -1;
    o->filter_p = o->filter_q = NAN;
    if (strcmp(v, "none") == 0)
        return 0;
    if (strlen(v) >= sizeof buf)
        return fail(err, "'%s' is too long", v);
    strcpy(buf, v);
    part = strtok_r(buf, ":", &save);
    if (!part || find_choice(filters, part, 0, &f) != 0)
        return fail_choice(err, v, filters);
    o->filter = f;
    while ((part = strtok_r(NULL, ":", &save)) != NULL) {
        if (n >= clrs__filter_nparams(f))
            return fail(err, "'%s': the %s filter takes %d parameter%s", v,
                        clrs__filter_name(f), clrs__filter_nparams(f),
                        clrs__filter_nparams(f) == 1 ? "" : "s");
        if (parse_double(part, n ? &o->filter_q : &o->filter_p, err) != 0)
            return -1;
        ++n;
    }
    return 0;
}

/* ---- the problem knob table ---- */

/* A data type's name v into *dt. */
static int dtype_value(const char *v, clrs_dtype *dt, char *err)
{
    const cli_dtype *t = cli_dtype_find(v);
    if (!t)
        return fail(err, "unknown data type '%s' (one of f32 f16 bf16 f64 "
                    "s32 s8 u8 s64)", v);
    *dt = t->dt;
    return 0;
}

static int set_sdt(const char *v, cli_opts *o, char *err)
{
    return dtype_value(v, &o->sdt, err);
}

static int set_ddt(const char *v, cli_opts *o, char *err)
{
    return dtype_value(v, &o->ddt, err);
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

static int translate_part(const char *part, int i, cli_opts *o, char *err)
{
    return parse_double(part, &o->translate[i], err);
}

static int set_translate(const char *v, cli_opts *o, char *err)
{
    if (strcmp(v, "none") == 0) {
        o->n_translate = 0;
        return 0;
    }
    return parse_parts(v, o, &o->n_translate, translate_part, err);
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

#define OFF(f) offsetof(cli_opts, f)
const knob knobs[] = {
    {"dir", "FWD_D", K_ENUM, OFF(dir), dirs, NULL, 0, 0},
    {"alg", "auto", K_CUSTOM, 0, NULL, set_alg, 0, 0},
    {"sdt", "f32", K_CUSTOM, 0, NULL, set_sdt, 0, 0},
    {"ddt", "f32", K_CUSTOM, 0, NULL, set_ddt, 0, 0},
    {"tag", "abx", K_CUSTOM, 0, NULL, set_tag, 0, 0},
    {"vendor", "none", K_ENUM, OFF(vendor), vendors, NULL, 0, 0},
    {"coord", "default", K_ENUM, OFF(coord), coords, NULL, 0, 0},
    {"nearest", "default", K_ENUM, OFF(rounding), roundings, NULL, 0, 0},
    {"arith", "default", K_ENUM, OFF(arith), ariths, NULL, 0, 0},
    {"aa-rule", "default", K_ENUM, OFF(aa_rule), aa_rules, NULL, 0, 0},
    {"keep-aspect", "stretch", K_ENUM, OFF(keep_aspect), keep_aspects, NULL, 0,
     0},
    {"cubic-a", "default", K_DOUBLE, OFF(cubic_a), NULL, NULL, 0, 0},
    {"filter", "none", K_CUSTOM, 0, NULL, set_filter, 0, 0},
    {"exclude-outside", "false", K_ENUM, OFF(exclude_outside), bools, NULL, 0,
     0},
    {"antialias", "false", K_ENUM, OFF(antialias), bools, NULL, 0, 0},
    {"pad-mode", "default", K_ENUM, OFF(pad_mode), pads, NULL, 0, 0},
    {"pad-value", "0", K_DOUBLE, OFF(pad_value), NULL, NULL, 0, 0},
    {"axes", "default", K_CUSTOM, 0, NULL, set_axes, 0, 0},
    {"scales", "none", K_CUSTOM, 0, NULL, set_scales, 0, 0},
    {"offsets", "none", K_CUSTOM, 0, NULL, set_offsets, 0, 0},
    {"translate", "none", K_CUSTOM, 0, NULL, set_translate, 0, 0},
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
    {"attr-scratchpad", "library", K_ENUM, OFF(scratchpad), scratchpads, NULL,
     0, 0},
};
/* As many rows as parse.h's NKNOBS says. */
typedef char knob_count_check[sizeof knobs / sizeof knobs[0] == NKNOBS
                              ? 1 : -1];

int knob_index(const char *name)
{
    int i;
    for (i = 0; i < NKNOBS; ++i)
        if (strcmp(knobs[i].name, name) == 0)
            return i;
    return -1;
}

int knob_apply(const knob *k, const char *v, cli_opts *o, char *err)
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

void opts_defaults(cli_opts *o)
{
    char err[ERRSZ];
    int i;
    memset(o, 0, sizeof *o);
    for (i = 0; i < NKNOBS; ++i)
        knob_apply(&knobs[i], knobs[i].def, o, err);
}
