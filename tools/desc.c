/* clresample tool: benchdnn's problem descriptor grammar
 * (mb2ic16ih10iw10oh20ow20, kh3d2 for fractions, n"name") and its
 * resolution into complete sizes. */
#include "cli.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

/* Field kinds; each spatial kind has bits for d, h, w. on and oc are the
 * output N and C, for --axes that resample them. */
enum { F_MB, F_IC, F_I, F_O, F_K, F_S, F_P, F_DL, F_ON, F_OC };
#define BIT_MB 1u
#define BIT_IC 2u
#define BITS(kind, axis) (1u << (2 + 3 * ((kind) - F_I) + (axis)))
#define BIT_ON (1u << 20)
#define BIT_OC (1u << 21)
#define ANY(kind) (BITS(kind, 0) | BITS(kind, 1) | BITS(kind, 2))

/* Any single size above this is a typo or an attack, not a tensor. */
#define SIZE_LIMIT (INT64_C(1) << 40)
#define ELEM_LIMIT (INT64_C(1) << 40)
#define DEN_LIMIT 1000000

static const struct field {
    const char name[3];
    int kind, axis;
} fields[] = {
    {"mb", F_MB, 0}, {"ic", F_IC, 0}, {"id", F_I, 0}, {"ih", F_I, 1},
    {"iw", F_I, 2},  {"od", F_O, 0},  {"oh", F_O, 1}, {"ow", F_O, 2},
    {"kd", F_K, 0},  {"kh", F_K, 1},  {"kw", F_K, 2}, {"sd", F_S, 0},
    {"sh", F_S, 1},  {"sw", F_S, 2},  {"pd", F_P, 0}, {"ph", F_P, 1},
    {"pw", F_P, 2},  {"dd", F_DL, 0}, {"dh", F_DL, 1}, {"dw", F_DL, 2},
    {"on", F_ON, 0}, {"oc", F_OC, 0},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static int err_at(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int err_at(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

static const struct field *find_field(const char *p)
{
    size_t i;
    for (i = 0; i < NFIELDS; ++i)
        if (p[0] == fields[i].name[0] && p[1] == fields[i].name[1])
            return &fields[i];
    return NULL;
}

int cli_desc_raw_has_window(const cli_desc_raw *raw)
{
    return (raw->set & ANY(F_K)) != 0;
}

int cli_desc_is_candidate(const char *tok)
{
    while (*tok == '_')
        ++tok;
    return find_field(tok) != NULL || (tok[0] == 'n' && tok[1] == '"');
}

/* Reads a decimal integer at *pp; 0 on success. */
static int read_num(const char **pp, int64_t *v)
{
    const char *p = *pp;
    int64_t x = 0;
    if (!isdigit((unsigned char)*p))
        return -1;
    while (isdigit((unsigned char)*p)) {
        if (x > (SIZE_LIMIT - 9) / 10)
            return -2;
        x = x * 10 + (*p++ - '0');
    }
    *pp = p;
    *v = x;
    return 0;
}

/* n"name" (quotes kept by batch files) or n followed by the rest of the
 * token; *pp is at the 'n'. */
static int read_name(const char **pp, cli_desc_raw *raw, char *err,
                     size_t errsz)
{
    const char *at = *pp, *p = at + 1, *q;
    size_t n;

    if (*p == '"') {
        q = strchr(p + 1, '"');
        if (!q)
            return err_at(err, errsz, "unterminated name at '%s'", at);
        n = (size_t)(q - p - 1);
        ++p;
        if (q[1] != '\0')
            return err_at(err, errsz, "text after the name: '%s'", q + 1);
    } else {
        n = strlen(p);
        q = p + n - 1;
    }
    if (n == 0 || n >= sizeof raw->name)
        return err_at(err, errsz, "name must have 1 to %zu characters",
                      sizeof raw->name - 1);
    memcpy(raw->name, p, n);
    raw->name[n] = '\0';
    *pp = q + 1;
    return 0;
}

/* A field's number; window, stride and padding may be fractions "NdDEN",
 * sizes may not. */
static int read_value(const char **pp, const struct field *f, int64_t *v,
                      int64_t *den, char *err, size_t errsz)
{
    const char *p = *pp;
    int rc = read_num(&p, v);

    if (rc == -2)
        return err_at(err, errsz, "value of '%s' is too large (limit 2^40)",
                      f->name);
    if (rc != 0)
        return err_at(err, errsz, "'%s' needs a number at '%s'", f->name, p);
    *den = 1;
    if (*p == 'd' && isdigit((unsigned char)p[1])) {
        if (f->kind < F_K || f->kind == F_DL)
            return err_at(err, errsz,
                          "'%s' is %s and cannot be a fraction", f->name,
                          f->kind == F_DL ? "a dilation" : "a size");
        ++p;
        if (read_num(&p, den) != 0 || *den == 0 || *den > DEN_LIMIT)
            return err_at(err, errsz, "bad denominator of '%s' (1 to %d)",
                          f->name, DEN_LIMIT);
    }
    *pp = p;
    return 0;
}

static int store_field(cli_desc_raw *raw, const struct field *f, int64_t v,
                       int64_t den, char *err, size_t errsz)
{
    unsigned bit = f->kind == F_MB   ? BIT_MB
                   : f->kind == F_IC ? BIT_IC
                   : f->kind == F_ON ? BIT_ON
                   : f->kind == F_OC ? BIT_OC
                                     : BITS(f->kind, f->axis);

    if (raw->set & bit)
        return err_at(err, errsz, "'%s' given twice", f->name);
    /* mb and ic may be 0 (an empty tensor, as PyTorch allows); sizes,
     * windows and strides not */
    if (v == 0 && f->kind != F_P && f->kind != F_DL && f->kind != F_MB &&
        f->kind != F_IC)
        return err_at(err, errsz, "'%s' is 0; it must be positive", f->name);
    switch (f->kind) {
    case F_MB: raw->mb = v; break;
    case F_IC: raw->ic = v; break;
    case F_ON: raw->omb = v; break;
    case F_OC: raw->oc = v; break;
    case F_I: raw->in[f->axis] = v; break;
    case F_O: raw->out[f->axis] = v; break;
    case F_K: raw->k[f->axis].num = v; raw->k[f->axis].den = den; break;
    case F_S: raw->s[f->axis].num = v; raw->s[f->axis].den = den; break;
    case F_P: raw->p[f->axis].num = v; raw->p[f->axis].den = den; break;
    case F_DL: raw->dl[f->axis].num = v; raw->dl[f->axis].den = 1; break;
    }
    raw->set |= bit;
    return 0;
}

int cli_desc_parse(const char *tok, cli_desc_raw *raw, char *err,
                   size_t errsz)
{
    const char *p = tok;

    memset(raw, 0, sizeof *raw);
    while (*p) {
        const struct field *f;
        int64_t v, den;

        if (*p == '_') {
            ++p;
            continue;
        }
        if (*p == 'n' && !find_field(p)) {
            if (read_name(&p, raw, err, errsz) != 0)
                return -1;
            continue;
        }
        f = find_field(p);
        if (!f)
            return err_at(err, errsz,
                          "unknown field at '%s' (fields: "
                          "mb ic id ih iw on oc od oh ow kd kh kw sd sh sw "
                          "pd ph pw, n\"name\")", p);
        p += 2;
        if (read_value(&p, f, &v, &den, err, errsz) != 0 ||
            store_field(raw, f, v, den, err, errsz) != 0)
            return -1;
    }
    if (!(raw->set & ANY(F_I)))
        return err_at(err, errsz, "no input size (give iw, ih or id)");
    return 0;
}

/* Missing used axes of a kind copy the first given one (benchdnn's square
 * convention); returns 0 if none of the used axes was given. */
static int fill_from_first(unsigned set, int kind, int first, int64_t *v,
                           clrs_fraction *fr)
{
    int a, src = -1;
    for (a = first; a < CLI_SP; ++a)
        if (set & BITS(kind, a)) {
            src = a;
            break;
        }
    if (src < 0)
        return 0;
    for (a = first; a < CLI_SP; ++a)
        if (!(set & BITS(kind, a))) {
            if (v)
                v[a] = v[src];
            if (fr)
                fr[a] = fr[src];
        }
    return 1;
}

static int elems_ok(int64_t mb, int64_t ic, const int64_t *sp, int first)
{
    int64_t n = mb;
    int a;
    if (mb == 0 || ic == 0)
        return 1; /* an empty tensor */
    if (ic > ELEM_LIMIT / n)
        return 0;
    n *= ic;
    for (a = first; a < CLI_SP; ++a) {
        if (sp[a] > ELEM_LIMIT / n)
            return 0;
        n *= sp[a];
    }
    return 1;
}

static const char axis_names[] = "dhw";

clrs_fraction cli_desc_span(const cli_desc *d, int a)
{
    clrs_fraction k = d->k[a];
    if (d->dl[a].num > 0 && k.den == 1)
        k.num = (k.num - 1) * (d->dl[a].num + 1) + 1;
    return k;
}

/* The deepest axis any field names sets the rank: id makes it 3-D. */
static int spatial_rank(unsigned set)
{
    if (set & (BITS(F_I, 0) | BITS(F_O, 0) | BITS(F_K, 0) | BITS(F_S, 0) |
               BITS(F_P, 0) | BITS(F_DL, 0)))
        return 3;
    if (set & (BITS(F_I, 1) | BITS(F_O, 1) | BITS(F_K, 1) | BITS(F_S, 1) |
               BITS(F_P, 1) | BITS(F_DL, 1)))
        return 2;
    return 1;
}

/* Input sizes, window, stride and padding on every used axis. */
static int fill_axes(unsigned set, const cli_opts *o, cli_desc *d,
                     char *err, size_t errsz)
{
    int a, first = CLI_SP - d->nsp;

    if (!fill_from_first(set, F_I, first, d->in, NULL))
        return err_at(err, errsz, "no input size among the %d-D axes",
                      d->nsp);
    d->has_window = fill_from_first(set, F_K, first, NULL, d->k);
    d->has_stride = fill_from_first(set, F_S, first, NULL, d->s);
    d->has_pad = fill_from_first(set, F_P, first, NULL, d->p);
    d->has_dil = fill_from_first(set, F_DL, first, NULL, d->dl);
    d->pooling = d->has_window;
    for (a = first; a < CLI_SP; ++a) {
        if (!d->has_dil) {
            d->dl[a].num = 0; /* benchdnn's: 0 is a dense window */
            d->dl[a].den = 1;
        }
        if (!d->has_stride)
            d->s[a].num = d->s[a].den = 1;
        if (!d->has_pad) {
            d->p[a].num = 0;
            d->p[a].den = 1;
        }
    }
    if (!d->has_window && clrs__mode_pooling(o->alg))
        return err_at(err, errsz, "pooling (--alg=%s) needs a window (kh, "
                      "kw or kd)", clrs__mode_cli_name(o->alg));
    return 0;
}

/* Per-axis knob counts: one value broadcasts, else one per resampled
 * axis. */
static int check_knob_counts(const cli_opts *o, int naxes, char *err,
                             size_t errsz)
{
    if (o->n_scales > 1 && o->n_scales != naxes)
        return err_at(err, errsz, "--scales has %d values for %d resampled "
                      "axes", o->n_scales, naxes);
    if (o->n_offsets > 1 && o->n_offsets != naxes)
        return err_at(err, errsz, "--offsets has %d values for %d "
                      "resampled axes", o->n_offsets, naxes);
    if (o->n_roi > 1 && o->n_roi != naxes)
        return err_at(err, errsz, "--roi has %d values for %d resampled "
                      "axes", o->n_roi, naxes);
    return 0;
}

/* The letter of tensor axis t: n, c, then the spatial ones. */
static char axis_letter(const cli_desc *d, int t)
{
    return t == 0 ? 'n' : t == 1 ? 'c'
                                 : axis_names[CLI_SP - d->nsp + t - 2];
}

/* Where tensor axis t is among the resampled axes, or -1. */
static int axis_pos(const cli_desc *d, int t)
{
    int k;
    for (k = 0; k < d->naxes; ++k)
        if (d->axes[k] == t)
            return k;
    return -1;
}

/* The tensor axis an --axes entry names (a letter of "ncdhw" or a
 * number, negative counting from the end), or -1. */
static int axis_of(int v, int nsp)
{
    static const char letters[] = "ncdhw";
    int rank = nsp + 2, first = CLI_SP - nsp;
    if (v >= 'a') {
        const char *l = strchr(letters, v);
        int i = l ? (int)(l - letters) : -1;
        if (i < 2)
            return i;
        return i - 2 >= first ? 2 + i - 2 - first : -1;
    }
    if (v < 0)
        v += rank;
    return v >= 0 && v < rank ? v : -1;
}

/* d->axes from --axes (the spatial axes when it is not given). */
static int resolve_axes(const cli_opts *o, cli_desc *d, char *err,
                        size_t errsz)
{
    int rank = d->nsp + 2, i, a;
    unsigned seen = 0;

    d->naxes = 0;
    if (o->n_axes == 0) {
        for (a = 2; a < rank; ++a)
            d->axes[d->naxes++] = a;
        return 0;
    }
    for (i = 0; i < o->n_axes; ++i) {
        a = axis_of(o->axes[i], d->nsp);
        if (a < 0 && o->axes[i] >= 'a')
            return err_at(err, errsz, "--axes: '%c' is not an axis of this "
                          "%d-D descriptor (n, c and %s)", o->axes[i],
                          d->nsp, axis_names + CLI_SP - d->nsp);
        if (a < 0)
            return err_at(err, errsz, "--axes: %d is not an axis of a "
                          "rank-%d tensor (%d..%d)", o->axes[i], rank,
                          -rank, rank - 1);
        if (seen & (1u << a))
            return err_at(err, errsz, "--axes names axis %c twice",
                          axis_letter(d, a));
        seen |= 1u << a;
    }
    for (a = 0; a < rank; ++a)
        if (seen >> a & 1u)
            d->axes[d->naxes++] = a;
    if (d->has_window && (d->naxes != d->nsp || d->axes[0] != 2))
        return err_at(err, errsz, "a pooling window (k%c...) pools the "
                      "spatial axes: --axes must name exactly those",
                      axis_names[CLI_SP - d->nsp]);
    return 0;
}

/* The output size of N (t = 0) or C (t = 1): on / oc when resampled,
 * else --scales; the input's size when the axis is not resampled. */
static int resolve_nc(unsigned set, const cli_desc_raw *raw,
                      const cli_opts *o, cli_desc *d, int t, char *err,
                      size_t errsz)
{
    const char *name = t == 0 ? "on" : "oc";
    int64_t in = t == 0 ? d->mb : d->ic;
    int64_t *out = t == 0 ? &d->omb : &d->oc;
    unsigned bit = t == 0 ? BIT_ON : BIT_OC;
    int k = axis_pos(d, t);

    if (k < 0) {
        if (set & bit)
            return err_at(err, errsz, "%s is given but %c is not resampled "
                          "(name it in --axes)", name, axis_letter(d, t));
        *out = in;
        return 0;
    }
    if (set & bit) {
        *out = t == 0 ? raw->omb : raw->oc;
        return 0;
    }
    if (o->n_scales == 0)
        return err_at(err, errsz, "no %s: give it, or --scales", name);
    if (clrs_output_size_from_scale(in, o->scales[o->n_scales == 1 ? 0 : k],
                                    CLRS_SIZE_FLOOR, out) < 0)
        return err_at(err, errsz, "%s: %s", name, clrs_last_error());
    if (*out > SIZE_LIMIT)
        return err_at(err, errsz, "%s = %lld is too large", name,
                      (long long)*out);
    return 0;
}

/* An output size not given: the input's on an axis not resampled; else
 * from the pooling window, else from --scales, else copied from a given
 * output axis with the same input size. */
static int resolve_output(unsigned set, const cli_opts *o, cli_desc *d,
                          int a, char *err, size_t errsz)
{
    int first = CLI_SP - d->nsp, b, k = axis_pos(d, 2 + a - first);
    clrs_status st = CLRS_SUCCESS;

    if (k < 0) {
        d->out[a] = d->in[a];
    } else if (d->has_window) {
        st = clrs_pool_output_size(d->in[a], cli_desc_span(d, a), d->s[a],
                                   d->p[a], d->p[a], o->ceil_mode,
                                   &d->out[a]);
    } else if (o->n_scales > 0) {
        double s = o->scales[o->n_scales == 1 ? 0 : k];
        st = clrs_output_size_from_scale(d->in[a], s, CLRS_SIZE_FLOOR,
                                         &d->out[a]);
    } else if (set & ANY(F_O)) {
        for (b = first; b < CLI_SP; ++b)
            if ((set & BITS(F_O, b)) && d->in[b] == d->in[a])
                break;
        if (b == CLI_SP)
            return err_at(err, errsz, "no o%c: give it, or --scales",
                          axis_names[a]);
        d->out[a] = d->out[b];
    } else {
        return err_at(err, errsz, "no output size: give o%c (or "
                      "--scales, or a pooling window)", axis_names[a]);
    }
    if (st < 0)
        return err_at(err, errsz, "o%c: %s", axis_names[a],
                      clrs_last_error());
    if (d->out[a] > SIZE_LIMIT)
        return err_at(err, errsz, "o%c = %lld is too large", axis_names[a],
                      (long long)d->out[a]);
    return 0;
}

/* Post padding: symmetric, or what a given output size implies (integer
 * windows only, and not under --ceil-mode, whose last window may run past
 * the symmetric padding as PyTorch's and ONNX's do). It changes no value
 * but the clipped divisor's (--divisor=clipped), which ends there. */
static void post_padding(unsigned set, const cli_opts *o, cli_desc *d)
{
    int a;
    for (a = CLI_SP - d->nsp; a < CLI_SP; ++a) {
        d->post[a] = d->p[a];
        if ((set & BITS(F_O, a)) && !o->ceil_mode && d->has_window &&
            d->k[a].den == 1 &&
            d->s[a].den == 1 && d->p[a].den == 1) {
            /* In double first: every term is below 2^40, a product not. */
            double q = (double)(d->out[a] - 1) * (double)d->s[a].num +
                       (double)cli_desc_span(d, a).num - (double)d->in[a] -
                       (double)d->p[a].num;
            if (q < 9e15) {
                d->post[a].num = q > 0 ? (int64_t)q : 0;
                d->post[a].den = 1;
            }
        }
    }
}

int cli_desc_resolve(const cli_desc_raw *raw, const cli_opts *o,
                     cli_desc *d, char *err, size_t errsz)
{
    unsigned set = raw->set;
    int a, first;

    memset(d, 0, sizeof *d);
    memcpy(d->name, raw->name, sizeof d->name);
    d->nsp = spatial_rank(set);
    first = CLI_SP - d->nsp;
    d->mb = o->mb > 0 ? o->mb : (set & BIT_MB) ? raw->mb : 2;
    if (!(set & BIT_IC))
        return err_at(err, errsz, "no channel count (give ic, e.g. ic16)");
    d->ic = raw->ic;
    memcpy(d->in, raw->in, sizeof d->in);
    memcpy(d->out, raw->out, sizeof d->out);
    memcpy(d->k, raw->k, sizeof d->k);
    memcpy(d->s, raw->s, sizeof d->s);
    memcpy(d->p, raw->p, sizeof d->p);
    memcpy(d->dl, raw->dl, sizeof d->dl);
    if (fill_axes(set, o, d, err, errsz) != 0 ||
        resolve_axes(o, d, err, errsz) != 0 ||
        check_knob_counts(o, d->naxes, err, errsz) != 0 ||
        resolve_nc(set, raw, o, d, 0, err, errsz) != 0 ||
        resolve_nc(set, raw, o, d, 1, err, errsz) != 0)
        return -1;
    for (a = first; a < CLI_SP; ++a) {
        if (!(set & BITS(F_O, a))) {
            if (resolve_output(set, o, d, a, err, errsz) != 0)
                return -1;
        } else if (axis_pos(d, 2 + a - first) < 0 &&
                   d->out[a] != d->in[a]) {
            return err_at(err, errsz, "o%c differs from i%c but %c is not "
                          "resampled (name it in --axes)", axis_names[a],
                          axis_names[a], axis_names[a]);
        }
    }
    if (!elems_ok(d->mb, d->ic, d->in, first) ||
        !elems_ok(d->omb, d->oc, d->out, first))
        return err_at(err, errsz, "tensor has more than 2^40 elements");
    post_padding(set, o, d);
    return 0;
}

static size_t put_frac(char *buf, size_t size, const char *f,
                       clrs_fraction v)
{
    int n = v.den == 1 ? snprintf(buf, size, "%s%lld", f, (long long)v.num)
                       : snprintf(buf, size, "%s%lldd%lld", f,
                                  (long long)v.num, (long long)v.den);
    return n < 0 ? 0 : (size_t)n;
}

void cli_desc_format(const cli_desc *d, char *buf, size_t size)
{
    static const char *const names[6][3] = {{"id", "ih", "iw"},
                                            {"od", "oh", "ow"},
                                            {"kd", "kh", "kw"},
                                            {"sd", "sh", "sw"},
                                            {"pd", "ph", "pw"},
                                            {"dd", "dh", "dw"}};
    size_t used;
    int a, first = CLI_SP - d->nsp, n;
    clrs_fraction f;

    n = snprintf(buf, size, "mb%lldic%lld", (long long)d->mb,
                 (long long)d->ic);
    used = n < 0 ? 0 : (size_t)n;
    if (axis_pos(d, 0) >= 0 && used < size)
        used += put_frac(buf + used, size - used, "on",
                         (clrs_fraction){d->omb, 1});
    if (axis_pos(d, 1) >= 0 && used < size)
        used += put_frac(buf + used, size - used, "oc",
                         (clrs_fraction){d->oc, 1});
    for (a = first; a < CLI_SP && used < size; ++a) {
        f.num = d->in[a];
        f.den = 1;
        used += put_frac(buf + used, size - used, names[0][a], f);
    }
    for (a = first; a < CLI_SP && used < size; ++a) {
        f.num = d->out[a];
        f.den = 1;
        used += put_frac(buf + used, size - used, names[1][a], f);
    }
    for (a = first; d->has_window && a < CLI_SP && used < size; ++a)
        used += put_frac(buf + used, size - used, names[2][a], d->k[a]);
    for (a = first; d->has_stride && a < CLI_SP && used < size; ++a)
        used += put_frac(buf + used, size - used, names[3][a], d->s[a]);
    for (a = first; d->has_pad && a < CLI_SP && used < size; ++a)
        used += put_frac(buf + used, size - used, names[4][a], d->p[a]);
    for (a = first; d->has_dil && a < CLI_SP && used < size; ++a)
        used += put_frac(buf + used, size - used, names[5][a], d->dl[a]);
    if (d->name[0] && used < size)
        snprintf(buf + used, size - used, "n\"%s\"", d->name);
}

void cli_desc_dims(const cli_desc *d, int64_t *in, int64_t *out)
{
    int a, first = CLI_SP - d->nsp;
    in[0] = d->mb;
    in[1] = d->ic;
    out[0] = d->omb;
    out[1] = d->oc;
    for (a = first; a < CLI_SP; ++a) {
        in[2 + a - first] = d->in[a];
        out[2 + a - first] = d->out[a];
    }
}
