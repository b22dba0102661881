/* The generator's text helpers: the growing source string, the type
 * names a configuration implies, constant lane vectors. */
#include "gen/gen_emit.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Room for need more bytes and the NUL; 0 (b->oom set) when there is
 * none. */
static int sb_reserve(sbuf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;
    char *s;

    if (b->oom)
        return 0;
    if (b->n + need + 1 <= b->cap)
        return 1;
    while (b->n + need + 1 > cap)
        cap *= 2;
    s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return 0;
    }
    b->s = s;
    b->cap = cap;
    return 1;
}

/* Appends text, each line it starts indented by the open blocks (an
 * empty line stays empty). */
static void sb_put(sbuf *b, const char *t)
{
    const int ind = 4 * (b->depth > 0 ? b->depth : 0);

    for (; *t; ++t) {
        /* at a line's start: nothing yet, or a newline last */
        if ((b->n == 0 || b->s[b->n - 1] == '\n') && *t != '\n') {
            if (!sb_reserve(b, (size_t)ind))
                return;
            memset(b->s + b->n, ' ', (size_t)ind);
            b->n += (size_t)ind;
        }
        if (!sb_reserve(b, 1))
            return;
        b->s[b->n++] = *t;
        b->s[b->n] = '\0';
    }
}

static void sb_vadd(sbuf *b, const char *fmt, va_list ap)
{
    char small[512], *t = small;
    va_list aq;
    int need;

    if (b->oom)
        return;
    va_copy(aq, ap);
    need = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (need < 0) {
        b->oom = 1;
        return;
    }
    if ((size_t)need >= sizeof small) {
        t = malloc((size_t)need + 1);
        if (!t) {
            b->oom = 1;
            return;
        }
        vsnprintf(t, (size_t)need + 1, fmt, ap);
    }
    sb_put(b, t);
    if (t != small)
        free(t);
}

void clrs__gen_sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
}

void clrs__gen_sb_open(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    const size_t n0 = b->n;

    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
    sb_put(b, b->n > n0 ? " {\n" : "{\n");
    ++b->depth;
}

void clrs__gen_sb_else(sbuf *b, const char *fmt, ...)
{
    va_list ap;

    --b->depth;
    sb_put(b, "} ");
    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
    sb_put(b, " {\n");
    ++b->depth;
}

void clrs__gen_sb_close(sbuf *b)
{
    --b->depth;
    sb_put(b, "}\n");
}

clrs_status clrs__gen_sb_finish(sbuf *b, char **out)
{
    if (b->oom || !b->s) {
        free(b->s);
        return clrs__error(CLRS_ERR_OUT_OF_MEMORY,
                           "out of memory generating a kernel");
    }
    if (b->depth != 0) { /* an emitter's bug: refuse the kernel */
        free(b->s);
        return clrs__error(CLRS_ERR_BUILD_FAILED,
                           "codegen: the kernel's blocks do not match "
                           "(%d open at its end)",
                           b->depth);
    }
    *out = b->s;
    return CLRS_SUCCESS;
}

const char *clrs__gen_acc_type(const clrs_gen_config *c)
{
    if (c->isum)
        return c->dst == CLRS_U8 ? "ushort" : "short";
    return c->fix ? "ushort" : clrs__gen_real_type(c);
}

const char *clrs__gen_mask_type(const clrs_gen_config *c)
{
    return c->isum ? "short" : c->acc_f64 ? "long" : "int";
}

/* The floating type of scalar arguments (pad, empty) and post-op
 * constants: the accumulator's, float beside a fixed-point one. */
const char *clrs__gen_real_type(const clrs_gen_config *c)
{
    return c->acc_f64 ? "double" : "float";
}

/* The type values live in between their load and their store: the
 * accumulator's, or for a copy (c->raw) the unsigned integer of the
 * element's width; raw max compares in the element's own type. */
const char *clrs__gen_val_type(const clrs_gen_config *c)
{
    if (!c->raw)
        return clrs__gen_acc_type(c);
    return c->raw_wide ? "short" : clrs__gen_raw_type(c);
}

const char *clrs__gen_raw_type(const clrs_gen_config *c)
{
    return clrs__gen_uint_type(clrs_dtype_size(c->dst),
                               c->cls != CLRS_GEN_MAX ||
                                   (c->dst != CLRS_S8 && c->dst != CLRS_S32));
}

size_t clrs__gen_raw_bytes(const clrs_gen_config *c)
{
    return c->raw_wide ? 2 : clrs_dtype_size(c->dst);
}

const char *clrs__gen_win_type(const clrs_gen_config *c, int w)
{
    const size_t bytes = clrs__gen_raw_bytes(c);

    if (c->raw && w > 1 && clrs_dtype_size(c->index) <= bytes)
        return clrs__gen_uint_type(bytes, 0);
    return clrs__gen_off_type(c);
}

/* The unsigned (or signed) integer type of `bytes` bytes: a value type
 * of a copy, or the lane and mask types of shuffles and selects. */
const char *clrs__gen_uint_type(size_t bytes, int is_unsigned)
{
    static const char *const u[] = {"uchar", "ushort", "uint", "ulong"};
    static const char *const s[] = {"char", "short", "int", "long"};
    int i = bytes >= 8 ? 3 : bytes >= 4 ? 2 : bytes >= 2 ? 1 : 0;
    return is_unsigned ? u[i] : s[i];
}

const char *clrs__gen_off_type(const clrs_gen_config *c)
{
    return c->long_off ? "long" : "int";
}

const char *clrs__gen_index_type(const clrs_gen_config *c)
{
    if (c->isum)
        return "short";
    return c->has_index && c->index == CLRS_S64 ? "long" : "int";
}

/* Whether the kernel computes the last slot's taps on the span path. */
int clrs__gen_span_calc(const clrs_gen_config *c)
{
    return c->span && c->nslots > 0 && (c->calc & (1u << (c->nslots - 1)));
}

/* Whether the span path's computed taps take their periodic stretch
 * from constants (clrs_gen_config.per; not on a walked row). */
int clrs__gen_periodic(const clrs_gen_config *c)
{
    return c->per_n > 0 && clrs__gen_span_calc(c) && clrs__gen_walk_of(c) == 1;
}

/* Forward span path over a last slot whose tap count varies. */
int clrs__gen_span_var(const clrs_gen_config *c)
{
    return c->span && !c->backward && !c->fixed[c->nslots - 1];
}

int clrs__gen_has_none(const clrs_gen_config *c)
{
    int k, n = c->nslots - (clrs__gen_span_var(c) ? 1 : 0);
    if (c->backward)
        return 0;
    for (k = 0; k < n; ++k) /* computed taps are never none */
        if (!c->fixed[k] && !(c->calc & (1u << k)))
            return 1;
    return 0;
}

int clrs__gen_walk_of(const clrs_gen_config *c)
{
    return c->walk > 1 ? c->walk : 1;
}

int clrs__gen_mvec_of(const clrs_gen_config *c, int w)
{
    return w > 1 && c->mvec > 1 ? c->mvec : 1;
}

const char *clrs__gen_acc_name(int m)
{
    static const char *const names[] = {"acc", "acc1", "acc2", "acc3"};
    return m >= 0 && m < 4 ? names[m] : "acc";
}

/* "float16" for width 16, "float" for width 1. */
void clrs__gen_vtype(char *buf, size_t n, const char *base, int w)
{
    int r = w > 1 ? snprintf(buf, n, "%s%d", base, w)
                  : snprintf(buf, n, "%s", base);
    if (r < 0 || (size_t)r >= n) /* cannot happen: type names are short */
        buf[0] = '\0';
}

/* The kernel axis of resampled slot k. */
int clrs__gen_axis_of_slot(const clrs_gen_config *c, int k)
{
    int p;
    for (p = 0; p < c->rank; ++p)
        if (c->ax[p].slot == k)
            return p;
    return 0;
}

/* "(type)(v[0], v[1], ...)": a constant vector of n lanes. */
void clrs__gen_emit_lanes(sbuf *b, const char *type, const int *v, int n)
{
    int l;
    clrs__gen_sb_add(b, "(%s)(", type);
    for (l = 0; l < n; ++l)
        clrs__gen_sb_add(b, "%s%d", l ? ", " : "", v[l]);
    clrs__gen_sb_add(b, ")");
}
