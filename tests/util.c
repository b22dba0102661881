/* Shared helpers for the clresample tests (see util.h). Conversions here
 * are written from the conversion rules of clresample(3), not taken from
 * the library. */
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG ---------------------------------------------------------------- */

void tu_rng_seed(tu_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t tu_rng_u64(tu_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int64_t tu_rng_int(tu_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    /* span 0 means the full 64-bit range; modulo bias is irrelevant for
     * the small spans tests use. */
    if (span == 0)
        return (int64_t)tu_rng_u64(r);
    return lo + (int64_t)(tu_rng_u64(r) % span);
}

double tu_rng_unit(tu_rng *r)
{
    return (double)(tu_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

int tu_rng_chance(tu_rng *r, double p)
{
    return tu_rng_unit(r) < p;
}

uint64_t tu_mix_seed(uint64_t base, uint64_t i)
{
    tu_rng r;
    tu_rng_seed(&r, base ^ (i * UINT64_C(0xD1B54A32D192ED03)));
    return tu_rng_u64(&r);
}

int tu_env_seed(const char *name, uint64_t *seed)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long v;
    if (!s || !*s)
        return 0;
    v = strtoull(s, &end, 0);
    if (*end != '\0')
        return 0;
    *seed = (uint64_t)v;
    return 1;
}

/* ---- layouts ------------------------------------------------------------- */

static const char *const layout_names[TU_LAYOUT_COUNT_] = {
    "dense", "channels_last", "permuted", "padded", "broadcast", "blocked"};

const char *tu_layout_name(tu_layout l)
{
    return (unsigned)l < TU_LAYOUT_COUNT_ ? layout_names[l] : "?";
}

tu_layout tu_pick_layout(tu_rng *r, unsigned mask, int rank)
{
    tu_layout ok[TU_LAYOUT_COUNT_];
    int n = 0, l;
    for (l = 0; l < TU_LAYOUT_COUNT_; ++l) {
        if (!(mask & (1u << l)))
            continue;
        if (l == TU_BLOCKED && rank < 2)
            continue;
        ok[n++] = (tu_layout)l;
    }
    if (n == 0)
        return TU_DENSE;
    return ok[tu_rng_int(r, 0, n - 1)];
}

/* Strides for an axis order given innermost first, with optional gaps. */
static void order_strides(int rank, const int64_t *dims, const int *order,
                          tu_rng *r, int gaps, int64_t *strides)
{
    int64_t s = 1;
    int k;
    for (k = 0; k < rank; ++k) {
        int ax = order[k];
        strides[ax] = s;
        s *= dims[ax];
        if (gaps)
            s += tu_rng_int(r, 0, 3);
    }
}

static void random_order(tu_rng *r, int rank, int *order)
{
    int k;
    for (k = 0; k < rank; ++k)
        order[k] = k;
    for (k = rank - 1; k > 0; --k) {
        int j = (int)tu_rng_int(r, 0, k), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
}

clrs_status tu_make_desc(clrs_tensor_desc **out, tu_rng *r, clrs_dtype dt,
                         int rank, const int64_t *dims, tu_layout layout)
{
    int64_t strides[CLRS_MAX_RANK];
    int order[CLRS_MAX_RANK];
    int k;

    switch (layout) {
    case TU_DENSE:
        return clrs_tensor_desc_create(out, dt, rank, dims, NULL);
    case TU_CHANNELS_LAST:
        if (rank >= 3) {
            order[0] = 1;
            for (k = 1; k < rank - 1; ++k)
                order[k] = rank - k;
            order[rank - 1] = 0;
        } else {
            /* Rank 1 and 2 have no channel axis: use the reversed order
             * so the layout still differs from row-major. */
            for (k = 0; k < rank; ++k)
                order[k] = k;
        }
        order_strides(rank, dims, order, r, 0, strides);
        break;
    case TU_PERMUTED:
        random_order(r, rank, order);
        order_strides(rank, dims, order, r, 0, strides);
        break;
    case TU_PADDED:
    case TU_BROADCAST:
        random_order(r, rank, order);
        order_strides(rank, dims, order, r, 1, strides);
        if (layout == TU_BROADCAST)
            for (k = 0; k < rank; ++k)
                if (tu_rng_chance(r, 0.3))
                    strides[k] = 0;
        break;
    case TU_BLOCKED:
        return clrs_tensor_desc_create_blocked(
            out, dt, rank, dims, 1, tu_rng_chance(r, 0.5) ? 8 : 16, NULL);
    default:
        return CLRS_ERR_INVALID_ENUM;
    }
    return clrs_tensor_desc_create(out, dt, rank, dims, strides);
}

static const char *dt_name(clrs_dtype dt)
{
    static const char *const names[] = {"f32", "f16", "bf16", "f64",
                                        "s32", "s8",  "u8",   "s64"};
    return (unsigned)dt < 8 ? names[dt] : "?";
}

void tu_desc_str(const clrs_tensor_desc *d, char *buf, size_t size)
{
    int64_t dims[CLRS_MAX_RANK], strides[CLRS_MAX_RANK];
    int rank = clrs_tensor_desc_rank(d), k;
    size_t n = 0;
    if (size == 0)
        return;
    buf[0] = '\0';
    if (rank < 1 || rank > CLRS_MAX_RANK ||
        clrs_tensor_desc_get(d, dims, strides) != CLRS_SUCCESS) {
        snprintf(buf, size, "<bad desc>");
        return;
    }
    n += (size_t)snprintf(buf + n, size - n, "%s[",
                          dt_name(clrs_tensor_desc_dtype(d)));
    for (k = 0; k < rank && n < size; ++k)
        n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, k ? "," : "",
                              dims[k]);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "]s{");
    for (k = 0; k < rank && n < size; ++k)
        n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, k ? "," : "",
                              strides[k]);
    if (n < size)
        snprintf(buf + n, size - n, "}");
}

int tu_idx_first(int rank, const int64_t *dims, int64_t *idx)
{
    int k, nonempty = 1;
    for (k = 0; k < rank; ++k) {
        idx[k] = 0;
        if (dims[k] <= 0)
            nonempty = 0;
    }
    return nonempty;
}

int tu_idx_next(int rank, const int64_t *dims, int64_t *idx)
{
    int k;
    for (k = rank - 1; k >= 0; --k) {
        if (++idx[k] < dims[k])
            return 1;
        idx[k] = 0;
    }
    return 0;
}

/* ---- conversions ---------------------------------------------------------
 * A binary floating format with mbits stored mantissa bits and ebits
 * exponent bits, IEEE style, round to nearest even (nearbyint under the
 * default rounding mode; scaling by powers of two is exact). */

static uint32_t fp_encode(double v, int mbits, int ebits)
{
    const int bias = (1 << (ebits - 1)) - 1;
    const int emin = 1 - bias, emax = bias;
    const uint32_t sign = signbit(v) ? (uint32_t)1 << (mbits + ebits) : 0;
    const uint32_t inf = (((uint32_t)1 << ebits) - 1) << mbits;
    double a = fabs(v), q;
    int ex, e;
    if (isnan(v))
        return sign | inf | ((uint32_t)1 << (mbits - 1));
    if (isinf(a))
        return sign | inf;
    if (a == 0)
        return sign;
    (void)frexp(a, &ex);
    e = ex - 1; /* a in [2^e, 2^(e+1)) */
    if (e < emin) {
        /* Subnormal: units of 2^(emin - mbits). A carry to 2^mbits is
         * the smallest normal, which this encoding gives for free. */
        q = nearbyint(ldexp(a, mbits - emin));
        return sign | (uint32_t)q;
    }
    q = nearbyint(ldexp(a, mbits - e));
    if (q >= ldexp(1.0, mbits + 1)) {
        q = ldexp(1.0, mbits);
        ++e;
    }
    if (e > emax)
        return sign | inf;
    return sign | ((uint32_t)(e + bias) << mbits) |
           ((uint32_t)q - ((uint32_t)1 << mbits));
}

static double fp_decode(uint32_t bits, int mbits, int ebits)
{
    const int bias = (1 << (ebits - 1)) - 1;
    const uint32_t emask = ((uint32_t)1 << ebits) - 1;
    uint32_t e = (bits >> mbits) & emask;
    uint32_t m = bits & (((uint32_t)1 << mbits) - 1);
    int neg = (bits >> (mbits + ebits)) & 1u;
    double v;
    if (e == emask)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mbits);
    else
        v = ldexp((double)(m | ((uint32_t)1 << mbits)),
                  (int)e - bias - mbits);
    return neg ? -v : v;
}

uint16_t tu_f16_bits(double v)
{
    return (uint16_t)fp_encode(v, 10, 5);
}
double tu_f16_value(uint16_t h)
{
    return fp_decode(h, 10, 5);
}
uint16_t tu_bf16_bits(double v)
{
    return (uint16_t)fp_encode(v, 7, 8);
}
double tu_bf16_value(uint16_t h)
{
    return fp_decode(h, 7, 8);
}

int tu_dtype_is_float(clrs_dtype dt)
{
    return dt == CLRS_F32 || dt == CLRS_F16 || dt == CLRS_BF16 ||
           dt == CLRS_F64;
}

static size_t dt_size(clrs_dtype dt)
{
    switch (dt) {
    case CLRS_F32:
    case CLRS_S32:
        return 4;
    case CLRS_F16:
    case CLRS_BF16:
        return 2;
    case CLRS_F64:
    case CLRS_S64:
        return 8;
    case CLRS_S8:
    case CLRS_U8:
        return 1;
    }
    return 0;
}

double tu_load(const void *base, clrs_dtype dt, int64_t i)
{
    const unsigned char *p =
        (const unsigned char *)base + i * (int64_t)dt_size(dt);
    switch (dt) {
    case CLRS_F32: {
        uint32_t u;
        memcpy(&u, p, 4);
        return fp_decode(u, 23, 8);
    }
    case CLRS_F16: {
        uint16_t u;
        memcpy(&u, p, 2);
        return tu_f16_value(u);
    }
    case CLRS_BF16: {
        uint16_t u;
        memcpy(&u, p, 2);
        return tu_bf16_value(u);
    }
    case CLRS_F64: {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    case CLRS_S32: {
        int32_t s;
        memcpy(&s, p, 4);
        return s;
    }
    case CLRS_S8:
        return (double)(int8_t)*p;
    case CLRS_U8:
        return (double)*p;
    case CLRS_S64: {
        int64_t s;
        memcpy(&s, p, 8);
        return (double)s;
    }
    }
    return NAN;
}

static double sat_int(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    v = nearbyint(v);
    return v < lo ? lo : v > hi ? hi : v;
}

void tu_store(void *base, clrs_dtype dt, int64_t i, double v)
{
    unsigned char *p = (unsigned char *)base + i * (int64_t)dt_size(dt);
    switch (dt) {
    case CLRS_F32: {
        uint32_t u = fp_encode(v, 23, 8);
        memcpy(p, &u, 4);
        return;
    }
    case CLRS_F16: {
        uint16_t u = tu_f16_bits(v);
        memcpy(p, &u, 2);
        return;
    }
    case CLRS_BF16: {
        uint16_t u = tu_bf16_bits(v);
        memcpy(p, &u, 2);
        return;
    }
    case CLRS_F64:
        memcpy(p, &v, 8);
        return;
    case CLRS_S32: {
        int32_t s = (int32_t)sat_int(v, -2147483648.0, 2147483647.0);
        memcpy(p, &s, 4);
        return;
    }
    case CLRS_S8:
        *p = (unsigned char)(int8_t)sat_int(v, -128, 127);
        return;
    case CLRS_U8:
        *p = (unsigned char)sat_int(v, 0, 255);
        return;
    case CLRS_S64: {
        /* 2^63 is not an int64; tests never store values that large. */
        int64_t s = (int64_t)sat_int(v, -9223372036854775808.0,
                                     9223372036854774784.0);
        memcpy(p, &s, 8);
        return;
    }
    }
}

double tu_round_to(clrs_dtype dt, double v)
{
    unsigned char tmp[8];
    tu_store(tmp, dt, 0, v);
    return tu_load(tmp, dt, 0);
}

/* ---- buffers ------------------------------------------------------------- */

static void poison_elem(unsigned char *p, clrs_dtype dt)
{
    /* Quiet NaNs with a payload, so poison is recognisable bit for bit. */
    static const uint32_t f32 = UINT32_C(0x7FC5A5A5);
    static const uint64_t f64 = UINT64_C(0x7FF8A5A5A5A5A5A5);
    static const uint16_t f16 = 0x7E5A, bf16 = 0x7FC5;
    switch (dt) {
    case CLRS_F32:
        memcpy(p, &f32, 4);
        break;
    case CLRS_F64:
        memcpy(p, &f64, 8);
        break;
    case CLRS_F16:
        memcpy(p, &f16, 2);
        break;
    case CLRS_BF16:
        memcpy(p, &bf16, 2);
        break;
    default:
        memset(p, 0x5A, dt_size(dt));
        break;
    }
}

static unsigned char margin_byte(size_t i)
{
    return (unsigned char)(0xC3u ^ (unsigned)(i * 7u));
}

int64_t tu_buf_offset(const tu_buf *b, const int64_t *idx)
{
    return clrs_tensor_desc_offset(b->desc, idx);
}

int tu_buf_alloc(tu_buf *b, const clrs_tensor_desc *d)
{
    int64_t idx[CLRS_MAX_RANK];
    size_t es, total;
    memset(b, 0, sizeof *b);
    b->desc = d;
    b->dtype = clrs_tensor_desc_dtype(d);
    b->rank = clrs_tensor_desc_rank(d);
    es = dt_size(b->dtype);
    if (es == 0 || b->rank < 1 || b->rank > CLRS_MAX_RANK ||
        clrs_tensor_desc_get(d, b->dims, NULL) != CLRS_SUCCESS) {
        printf("# tu_buf_alloc: unusable descriptor\n");
        return -1;
    }
    b->bytes = clrs_tensor_desc_bytes(d);
    total = b->bytes + 2 * TU_MARGIN;
    b->raw = malloc(total);
    b->shadow = malloc(total);
    b->logical = calloc(b->bytes ? b->bytes : 1, 1);
    if (!b->raw || !b->shadow || !b->logical) {
        tu_buf_free(b);
        return -1;
    }
    b->data = b->raw + TU_MARGIN;
    if (tu_idx_first(b->rank, b->dims, idx))
        do {
            int64_t off = tu_buf_offset(b, idx);
            if (off < 0 || (size_t)(off + 1) * es > b->bytes) {
                printf("# tu_buf_alloc: element offset %" PRId64
                       " outside the %zu bytes the descriptor reports\n",
                       off, b->bytes);
                tu_buf_free(b);
                return -1;
            }
            memset(b->logical + (size_t)off * es, 1, es);
        } while (tu_idx_next(b->rank, b->dims, idx));
    tu_buf_poison(b);
    return 0;
}

void tu_buf_set_zero_padding(tu_buf *b) { b->zero_gaps = 1; }

void tu_buf_free(tu_buf *b)
{
    free(b->raw);
    free(b->shadow);
    free(b->logical);
    memset(b, 0, sizeof *b);
}

void tu_buf_poison(tu_buf *b)
{
    size_t es = dt_size(b->dtype), i;
    for (i = 0; i < TU_MARGIN; ++i) {
        b->raw[i] = margin_byte(i);
        b->raw[TU_MARGIN + b->bytes + i] = margin_byte(i + 1000);
    }
    /* Padding bytes of odd spans (never for these dtypes) stay covered. */
    for (i = 0; i + es <= b->bytes; i += es)
        poison_elem(b->data + i, b->dtype);
    tu_buf_snapshot(b);
}

void tu_buf_snapshot(tu_buf *b)
{
    memcpy(b->shadow, b->raw, b->bytes + 2 * TU_MARGIN);
}

size_t tu_buf_check_unchanged(const tu_buf *b, const char *what)
{
    size_t i, bad = 0, total = b->bytes + 2 * TU_MARGIN;
    for (i = 0; i < total; ++i)
        if (b->raw[i] != b->shadow[i]) {
            if (!bad)
                printf("# %s: byte %ld (relative to the tensor) changed "
                       "from 0x%02x to 0x%02x\n",
                       what, (long)i - TU_MARGIN, b->shadow[i], b->raw[i]);
            ++bad;
        }
    return bad;
}

int tu_buf_is_poison(const tu_buf *b, const int64_t *idx)
{
    unsigned char p[8];
    size_t es = dt_size(b->dtype);
    poison_elem(p, b->dtype);
    return memcmp(b->data + (size_t)tu_buf_offset(b, idx) * es, p, es) == 0;
}

size_t tu_buf_check_output(const tu_buf *b, const char *what)
{
    int64_t idx[CLRS_MAX_RANK];
    size_t i, bad = 0, margin_bad = 0, gap_bad = 0, total;
    total = b->bytes + 2 * TU_MARGIN;
    for (i = 0; i < total; ++i) {
        int in_tensor = i >= TU_MARGIN && i < TU_MARGIN + b->bytes;
        if (in_tensor && b->logical[i - TU_MARGIN])
            continue;
        if (in_tensor && b->zero_gaps ? b->raw[i] == 0
                                      : b->raw[i] == b->shadow[i])
            continue;
        if (in_tensor) {
            if (!gap_bad++)
                printf("# %s: gap byte %ld (not a logical element) written\n",
                       what, (long)i - TU_MARGIN);
        } else if (!margin_bad++) {
            printf("# %s: sentinel byte %ld (relative to the tensor) "
                   "overwritten\n",
                   what, (long)i - TU_MARGIN);
        }
    }
    bad = margin_bad + gap_bad;
    if (tu_idx_first(b->rank, b->dims, idx)) {
        size_t unwritten = 0;
        do {
            if (tu_buf_is_poison(b, idx) && !unwritten++) {
                int k;
                printf("# %s: element (", what);
                for (k = 0; k < b->rank; ++k)
                    printf("%s%" PRId64, k ? "," : "", idx[k]);
                printf(") never written (still poison)\n");
            }
        } while (tu_idx_next(b->rank, b->dims, idx));
        bad += unwritten;
    }
    return bad;
}

double tu_get(const tu_buf *b, const int64_t *idx)
{
    return tu_load(b->data, b->dtype, tu_buf_offset(b, idx));
}

void tu_set(tu_buf *b, const int64_t *idx, double v)
{
    tu_store(b->data, b->dtype, tu_buf_offset(b, idx), v);
}

int tu_make_tensor(clrs_tensor_desc **d, tu_buf *b, tu_rng *r, clrs_dtype dt,
                   int rank, const int64_t *dims, unsigned mask,
                   const char *what)
{
    tu_layout l = tu_pick_layout(r, mask, rank);
    clrs_status st = tu_make_desc(d, r, dt, rank, dims, l);
    memset(b, 0, sizeof *b);
    if (st != CLRS_SUCCESS) {
        *d = NULL;
        printf("# %s: %s descriptor -> %s: %s\n", what, tu_layout_name(l),
               clrs_status_name(st), clrs_last_error());
        return -1;
    }
    if (tu_buf_alloc(b, *d)) {
        printf("# %s: buffer allocation failed\n", what);
        return -1;
    }
    return 0;
}

/* Makes sure a random fill is not all zero (a test on zeros proves
 * nothing), then snapshots so input checks see later writes. */
static void fill_done(tu_buf *b, double fallback)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_count_nonzero(b) == 0 && tu_idx_first(b->rank, b->dims, idx))
        tu_set(b, idx, fallback);
    tu_buf_snapshot(b);
}

void tu_fill_ints(tu_buf *b, tu_rng *r, int lo, int hi)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_idx_first(b->rank, b->dims, idx))
        do
            tu_set(b, idx, (double)tu_rng_int(r, lo, hi));
        while (tu_idx_next(b->rank, b->dims, idx));
    fill_done(b, hi != 0 ? hi : lo);
}

void tu_fill_sixteenths(tu_buf *b, tu_rng *r, int klo, int khi)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_idx_first(b->rank, b->dims, idx))
        do
            tu_set(b, idx, (double)tu_rng_int(r, klo, khi) / 16.0);
        while (tu_idx_next(b->rank, b->dims, idx));
    fill_done(b, (khi != 0 ? khi : klo) / 16.0);
}

void tu_fill_uniform(tu_buf *b, tu_rng *r, double lo, double hi)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_idx_first(b->rank, b->dims, idx))
        do
            tu_set(b, idx, lo + (hi - lo) * tu_rng_unit(r));
        while (tu_idx_next(b->rank, b->dims, idx));
    fill_done(b, hi != 0 ? hi : lo);
}

void tu_fill_const(tu_buf *b, double v)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_idx_first(b->rank, b->dims, idx))
        do
            tu_set(b, idx, v);
        while (tu_idx_next(b->rank, b->dims, idx));
    tu_buf_snapshot(b);
}

void tu_copy(tu_buf *dst, const tu_buf *src)
{
    int64_t idx[CLRS_MAX_RANK];
    if (tu_idx_first(src->rank, src->dims, idx))
        do
            tu_set(dst, idx, tu_get(src, idx));
        while (tu_idx_next(src->rank, src->dims, idx));
    tu_buf_snapshot(dst);
}

double tu_dot(const tu_buf *a, const tu_buf *b, double *abs_sum)
{
    int64_t idx[CLRS_MAX_RANK];
    double s = 0, as = 0;
    if (tu_idx_first(a->rank, a->dims, idx))
        do {
            double t = tu_get(a, idx) * tu_get(b, idx);
            s += t;
            as += fabs(t);
        } while (tu_idx_next(a->rank, a->dims, idx));
    if (abs_sum)
        *abs_sum = as;
    return s;
}

double tu_max_abs_diff(const tu_buf *a, const tu_buf *b)
{
    int64_t idx[CLRS_MAX_RANK];
    double m = 0;
    if (tu_idx_first(a->rank, a->dims, idx))
        do {
            double x = tu_get(a, idx), y = tu_get(b, idx), d;
            if (isnan(x) != isnan(y))
                return NAN;
            if (isnan(x))
                continue;
            if (x == y) /* also equal infinities */
                continue;
            d = fabs(x - y);
            if (!(d <= m))
                m = d;
        } while (tu_idx_next(a->rank, a->dims, idx));
    return m;
}

int64_t tu_count_nonzero(const tu_buf *b)
{
    int64_t idx[CLRS_MAX_RANK], n = 0;
    if (tu_idx_first(b->rank, b->dims, idx))
        do
            n += tu_get(b, idx) != 0;
        while (tu_idx_next(b->rank, b->dims, idx));
    return n;
}

/* ---- random resample operations ---------------------------------------- */

const tu_variant tu_variants[TU_NVARIANTS] = {
    {"nearest/prefer_floor", CLRS_MODE_NEAREST, CLRS_ROUND_PREFER_FLOOR, 0, 0,
     0, 0, 0, 0},
    {"nearest/prefer_ceil", CLRS_MODE_NEAREST, CLRS_ROUND_PREFER_CEIL, 0, 0, 0,
     0, 0, 0},
    {"nearest/floor", CLRS_MODE_NEAREST, CLRS_ROUND_FLOOR, 0, 0, 0, 0, 0, 0},
    {"nearest/ceil", CLRS_MODE_NEAREST, CLRS_ROUND_CEIL, 0, 0, 0, 0, 0, 0},
    {"linear", CLRS_MODE_LINEAR, 0, 0, 0, 0, 0, 0, 0},
    {"cubic", CLRS_MODE_CUBIC, 0, 0, 0, 0, 0, 0, 0},
    {"cubic/exclude_outside", CLRS_MODE_CUBIC, 0, 1, 0, 0, 0, 0, 0},
    {"linear/antialias", CLRS_MODE_LINEAR, 0, 0, 1, 0, 0, 0, 0},
    {"cubic/antialias", CLRS_MODE_CUBIC, 0, 0, 1, 0, 0, 0, 0},
    {"avg/include", CLRS_MODE_AVG_INCLUDE_PADDING, 0, 0, 0, 0, 0, 0, 0},
    {"avg/exclude", CLRS_MODE_AVG_EXCLUDE_PADDING, 0, 0, 0, 0, 0, 0, 0},
    {"max", CLRS_MODE_MAX, 0, 0, 0, 0, 0, 0, 0},
};

const tu_variant tu_filter_variants[TU_NFILTERS] = {
    {"filter/lanczos3", CLRS_MODE_FILTER, 0, 0, 0, CLRS_FILTER_LANCZOS, 3, 0,
     0},
    {"filter/lanczos4/onnx", CLRS_MODE_FILTER, 0, 0, 0, CLRS_FILTER_LANCZOS, 4,
     0, 1},
    {"filter/lanczos2/antialias", CLRS_MODE_FILTER, 0, 0, 1,
     CLRS_FILTER_LANCZOS, 2, 0, 0},
    {"filter/gaussian/antialias", CLRS_MODE_FILTER, 0, 0, 1,
     CLRS_FILTER_GAUSSIAN, 0.5, 0, 0},
    {"filter/box/antialias", CLRS_MODE_FILTER, 0, 0, 1, CLRS_FILTER_BOX, 0, 0,
     0},
    {"filter/triangle/onnx", CLRS_MODE_FILTER, 0, 0, 1, CLRS_FILTER_TRIANGLE, 0,
     0, 1},
    {"filter/hamming/antialias", CLRS_MODE_FILTER, 0, 0, 1, CLRS_FILTER_HAMMING,
     0, 0, 0},
    {"filter/keys", CLRS_MODE_FILTER, 0, 0, 0, CLRS_FILTER_KEYS, -0.75, 0, 0},
    {"filter/mitchell/antialias", CLRS_MODE_FILTER, 0, 0, 1,
     CLRS_FILTER_MITCHELL, 1.0 / 3, 1.0 / 3, 0},
    {"filter/bspline/onnx", CLRS_MODE_FILTER, 0, 1, 1, CLRS_FILTER_MITCHELL, 1,
     0, 1},
};

const clrs_coord tu_coords[TU_NCOORDS] = {
    CLRS_COORD_HALF_PIXEL,           CLRS_COORD_PYTORCH_HALF_PIXEL,
    CLRS_COORD_ALIGN_CORNERS,        CLRS_COORD_ASYMMETRIC,
    CLRS_COORD_TF_HALF_PIXEL_FOR_NN, CLRS_COORD_HALF_PIXEL_SYMMETRIC,
    CLRS_COORD_TF_CROP_AND_RESIZE,   CLRS_COORD_PIXEL_OFFSETS,
    CLRS_COORD_WINDOW};

const char *tu_coord_name(clrs_coord c)
{
    static const char *const names[] = {
        "default",        "half_pixel",           "pytorch_half_pixel",
        "align_corners",  "asymmetric",           "tf_half_pixel_for_nn",
        "half_pixel_symmetric", "tf_crop_and_resize", "pixel_offsets",
        "window"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

const char *tu_pad_name(clrs_padding p)
{
    static const char *const names[] = {"default", "edge", "zero",
                                        "constant", "neg_inf"};
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "?";
}

int tu_mode_is_pooling(clrs_mode m)
{
    return m == CLRS_MODE_AVG_INCLUDE_PADDING ||
           m == CLRS_MODE_AVG_EXCLUDE_PADDING || m == CLRS_MODE_MAX;
}

static clrs_fraction frac(int64_t num, int64_t den)
{
    clrs_fraction f;
    f.num = num;
    f.den = den;
    return f;
}

static double fval(clrs_fraction f)
{
    return (double)f.num / (double)f.den;
}

/* One of n fractions; only_int keeps to those with denominator 1, so the
 * int64 setters can carry them. */
static clrs_fraction pick_frac(tu_rng *r, const clrs_fraction *f, size_t n,
                               int only_int)
{
    for (;;) {
        clrs_fraction x = f[tu_rng_int(r, 0, (int64_t)n - 1)];
        if (!only_int || x.den == 1)
            return x;
    }
}

/* Integers, non-integer fractions, and integers spelled as fractions (4/2),
 * which the fraction path must evaluate to the same thing. */
static clrs_fraction rand_stride(tu_rng *r, int only_int)
{
    static const clrs_fraction f[] = {{1, 1}, {2, 1}, {1, 2}, {2, 3},
                                      {3, 2}, {4, 3}, {5, 4}, {3, 4},
                                      {4, 2}, {3, 1}};
    return pick_frac(r, f, sizeof f / sizeof f[0], only_int);
}

static clrs_fraction rand_window(tu_rng *r, int only_int)
{
    static const clrs_fraction f[] = {{1, 1}, {2, 1}, {3, 1}, {3, 2},
                                      {5, 3}, {7, 4}, {5, 2}, {4, 3},
                                      {6, 2}, {1, 2}};
    return pick_frac(r, f, sizeof f / sizeof f[0], only_int);
}

static clrs_fraction rand_pad(tu_rng *r, int only_int)
{
    static const clrs_fraction f[] = {{0, 1}, {0, 1}, {1, 1}, {2, 1},
                                      {1, 2}, {1, 3}, {3, 2}, {2, 2}};
    return pick_frac(r, f, sizeof f / sizeof f[0], only_int);
}

/* Size pair of an interpolation axis: 1-pixel ends, up- and downsampling,
 * ratios mostly not integers; antialias mostly downsamples, where it acts. */
static void interp_sizes(tu_rng *r, const tu_variant *v, int64_t *in,
                         int64_t *out)
{
    *in = tu_rng_chance(r, 0.12) ? 1 : tu_rng_int(r, 2, 7);
    if (tu_rng_chance(r, 0.12))
        *out = 1;
    else if (v->antialias && *in > 1 && tu_rng_chance(r, 0.75))
        *out = tu_rng_int(r, 1, *in - 1);
    else
        *out = tu_rng_int(r, 1, 9);
}

static void pool_axis(tu_op *c, tu_rng *r, int j, unsigned flags)
{
    int ax = c->axes[j];
    int64_t in = tu_rng_chance(r, 0.12) ? 1 : tu_rng_int(r, 2, 7);
    clrs_fraction w, s, pre, post;
    if (!c->int_api && tu_rng_chance(r, 0.25)) {
        /* Adaptive pooling (area resize): window = stride = I/O. */
        int64_t o = tu_rng_int(r, 1, in + 2);
        w = s = frac(in, o);
        pre = post = frac(0, 1);
        c->out[ax] = o;
    } else {
        double span;
        w = rand_window(r, c->int_api);
        s = rand_stride(r, c->int_api);
        do
            pre = rand_pad(r, c->int_api);
        while ((flags & TU_OP_COVER) && !(fval(pre) < fval(w)));
        do
            post = rand_pad(r, c->int_api);
        while ((flags & TU_OP_COVER) && !(fval(post) < fval(w)));
        span = (double)in + fval(pre) + fval(post) - fval(w);
        c->out[ax] = span < 0 ? 1 : (int64_t)(span / fval(s)) + 1;
        /* The caller may choose dst dims: a window may overhang. */
        if (!(flags & TU_OP_COVER) && tu_rng_chance(r, 0.2))
            c->out[ax] += tu_rng_int(r, -1, 1);
        if (c->out[ax] < 1)
            c->out[ax] = 1;
        if (c->out[ax] > 9)
            c->out[ax] = 9;
    }
    c->in[ax] = in;
    c->window[j] = w;
    c->stride[j] = s;
    c->pre[j] = pre;
    c->post[j] = post;
}

void tu_op_random(tu_op *c, tu_rng *r, const tu_variant *v, clrs_coord coord,
                  unsigned flags, int64_t max_elems)
{
    int k, j, pooling = tu_mode_is_pooling(v->mode), chosen[CLRS_MAX_RANK];

    memset(c, 0, sizeof *c);
    c->v = v;
    c->coord = pooling ? CLRS_COORD_WINDOW : coord;
    c->rank = (int)tu_rng_int(r, 1, 5);
    c->int_api = tu_rng_chance(r, 0.35);

    if (tu_rng_chance(r, 0.25)) {
        /* The default axes: 2..rank-1, or all for rank 1 and 2. */
        for (k = c->rank >= 3 ? 2 : 0; k < c->rank; ++k)
            c->axes[c->naxes++] = k;
    } else {
        c->set_axes = 1;
        do {
            c->naxes = 0;
            for (k = 0; k < c->rank; ++k)
                if (tu_rng_chance(r, 0.6))
                    c->axes[c->naxes++] = k;
        } while (c->naxes == 0);
    }
    for (k = 0; k < c->rank; ++k)
        chosen[k] = -1;
    for (j = 0; j < c->naxes; ++j)
        chosen[c->axes[j]] = j;
    for (k = 0; k < c->rank; ++k)
        if (chosen[k] < 0)
            c->in[k] = c->out[k] = tu_rng_int(r, 1, 3);

    for (j = 0; j < c->naxes; ++j) {
        int ax = c->axes[j];
        if (pooling) {
            pool_axis(c, r, j, flags);
            continue;
        }
        interp_sizes(r, v, &c->in[ax], &c->out[ax]);
        switch (c->coord) {
        case CLRS_COORD_TF_CROP_AND_RESIZE:
            c->roi_s[j] = (double)tu_rng_int(r, -3, 5) / 8.0;
            c->roi_e[j] = c->roi_s[j] + (double)tu_rng_int(r, 1, 10) / 8.0;
            break;
        case CLRS_COORD_PIXEL_OFFSETS:
            c->in_off[j] = (float)tu_rng_int(r, -4, 4) / 4.0f;
            c->out_off[j] = (float)tu_rng_int(r, -4, 4) / 4.0f;
            break;
        case CLRS_COORD_WINDOW:
            c->stride[j] = rand_stride(r, c->int_api);
            c->pre[j] = rand_pad(r, c->int_api);
            c->post[j] = rand_pad(r, c->int_api);
            break;
        default:
            break;
        }
        /* A user scale that need not equal O/I: x may leave [0, I). */
        if (c->coord != CLRS_COORD_ALIGN_CORNERS &&
            c->coord != CLRS_COORD_TF_CROP_AND_RESIZE &&
            c->coord != CLRS_COORD_WINDOW) {
            static const double f[] = {0.8, 0.9, 1.1, 1.25, 1.5, 2.0};
            double ratio = (double)c->out[ax] / (double)c->in[ax];
            c->scales[j] = tu_rng_chance(r, 0.5)
                               ? ratio * f[tu_rng_int(r, 0, 5)]
                               : (double)tu_rng_int(r, 1, 12) / 4.0;
        }
    }

    /* Keep tensors small: shrink non-resampled axes first. Halving a
     * pooled output keeps every window inside (it drops the last ones). */
    for (;;) {
        int64_t elems = 1;
        for (k = 0; k < c->rank; ++k)
            elems *= c->in[k] > c->out[k] ? c->in[k] : c->out[k];
        if (elems <= max_elems)
            break;
        for (k = 0; k < c->rank; ++k)
            if (chosen[k] < 0 && c->in[k] > 1) {
                c->in[k] = c->out[k] = 1;
                break;
            }
        if (k == c->rank) {
            int big = c->axes[0];
            for (j = 1; j < c->naxes; ++j)
                if (c->out[c->axes[j]] > c->out[big])
                    big = c->axes[j];
            if (c->out[big] > 1) {
                c->out[big] = (c->out[big] + 1) / 2;
            } else {
                /* Only inputs are large: shrink the largest one. For a
                 * covering pooled axis, keep I + pre + post >= window. */
                big = c->axes[0];
                for (j = 1; j < c->naxes; ++j)
                    if (c->in[c->axes[j]] > c->in[big])
                        big = c->axes[j];
                c->in[big] = (c->in[big] + 1) / 2;
            }
        }
    }

    {
        static const clrs_padding p[] = {CLRS_PAD_DEFAULT, CLRS_PAD_EDGE,
                                         CLRS_PAD_ZERO, CLRS_PAD_CONSTANT,
                                         CLRS_PAD_NEG_INF};
        /* NEG_INF is for max pooling only (clresample.h). */
        c->pad = p[tu_rng_int(r, 0, v->mode == CLRS_MODE_MAX ? 4 : 3)];
        c->pad_value = 0;
    }

    if (pooling) {
        c->has_window = c->has_stride = 1;
        c->coord_explicit = tu_rng_chance(r, 0.5);
        return;
    }
    if (v->mode == CLRS_MODE_CUBIC && tu_rng_chance(r, 0.5)) {
        c->set_cubic_a = 1;
        c->cubic_a = tu_rng_chance(r, 0.5)
                         ? -0.5
                         : -(double)tu_rng_int(r, 2, 8) / 8.0;
    }
    switch (c->coord) {
    case CLRS_COORD_TF_CROP_AND_RESIZE:
        c->has_roi = 1;
        c->coord_explicit = 1;
        break;
    case CLRS_COORD_PIXEL_OFFSETS:
        c->has_offsets = 1;
        /* set_pixel_offsets implies the coordinate option. */
        c->coord_explicit = tu_rng_chance(r, 0.5);
        c->has_scales = tu_rng_chance(r, 0.7);
        break;
    case CLRS_COORD_WINDOW:
        c->has_stride = 1;
        /* A stride implies WINDOW for interpolation too. */
        c->coord_explicit = tu_rng_chance(r, 0.5);
        break;
    case CLRS_COORD_HALF_PIXEL:
        c->coord_explicit = tu_rng_chance(r, 0.5); /* the default */
        c->has_scales = tu_rng_chance(r, 0.5);
        break;
    case CLRS_COORD_ALIGN_CORNERS:
        c->coord_explicit = 1;
        break;
    default:
        c->coord_explicit = 1;
        c->has_scales = tu_rng_chance(r, 0.5);
        break;
    }
}

typedef struct strbuf {
    char *s;
    size_t size, n;
} strbuf;

static void sb_add(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_add(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (b->n + 1 >= b->size)
        return;
    va_start(ap, fmt);
    k = vsnprintf(b->s + b->n, b->size - b->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        b->n += (size_t)k;
    if (b->n > b->size - 1)
        b->n = b->size - 1;
}

static void sb_fracs(strbuf *b, const char *name, int n,
                     const clrs_fraction *f)
{
    int k;
    sb_add(b, " %s=", name);
    for (k = 0; k < n; ++k)
        sb_add(b, "%s%" PRId64 "/%" PRId64, k ? "," : "", f[k].num,
               f[k].den);
}

void tu_op_describe(const tu_op *c, char *buf, size_t size)
{
    strbuf sb;
    strbuf *b = &sb;
    int k;
    if (size == 0)
        return;
    sb.s = buf;
    sb.size = size;
    sb.n = 0;
    buf[0] = '\0';
    sb_add(b, "%s rank=%d in=[", c->v->name, c->rank);
    for (k = 0; k < c->rank; ++k)
        sb_add(b, "%s%" PRId64, k ? "," : "", c->in[k]);
    sb_add(b, "] out=[");
    for (k = 0; k < c->rank; ++k)
        sb_add(b, "%s%" PRId64, k ? "," : "", c->out[k]);
    sb_add(b, "] axes=%s", c->set_axes ? "" : "default:");
    for (k = 0; k < c->naxes; ++k)
        sb_add(b, "%s%d", k ? "," : "", c->axes[k]);
    sb_add(b, " coord=%s%s pad=%s", tu_coord_name(c->coord),
           c->coord_explicit ? "" : "(implied)", tu_pad_name(c->pad));
    if (c->pad == CLRS_PAD_CONSTANT)
        sb_add(b, "(%g)", c->pad_value);
    if (c->set_cubic_a)
        sb_add(b, " A=%g", c->cubic_a);
    if (c->has_scales) {
        sb_add(b, " scales=");
        for (k = 0; k < c->naxes; ++k)
            sb_add(b, "%s%.17g", k ? "," : "", c->scales[k]);
    }
    if (c->has_offsets) {
        sb_add(b, " in_off=");
        for (k = 0; k < c->naxes; ++k)
            sb_add(b, "%s%g", k ? "," : "", c->in_off[k]);
        sb_add(b, " out_off=");
        for (k = 0; k < c->naxes; ++k)
            sb_add(b, "%s%g", k ? "," : "", c->out_off[k]);
    }
    if (c->has_roi) {
        sb_add(b, " roi=");
        for (k = 0; k < c->naxes; ++k)
            sb_add(b, "%s[%g,%g]", k ? "," : "", c->roi_s[k], c->roi_e[k]);
        sb_add(b, " extrapolation=%g", c->extrapolation);
    }
    if (c->has_window)
        sb_fracs(b, "window", c->naxes, c->window);
    if (c->has_stride) {
        sb_fracs(b, "stride", c->naxes, c->stride);
        sb_fracs(b, "pre", c->naxes, c->pre);
        sb_fracs(b, "post", c->naxes, c->post);
        sb_add(b, " api=%s", c->int_api ? "int" : "fraction");
    }
}

#define SET(call)                                                            \
    do {                                                                     \
        clrs_status st_ = (call);                                            \
        if (st_ != CLRS_SUCCESS) {                                           \
            printf("# %s -> %s: %s\n", #call, clrs_status_name(st_),         \
                   clrs_last_error());                                       \
            clrs_resample_desc_destroy(op);                                  \
            return NULL;                                                     \
        }                                                                    \
    } while (0)

clrs_resample_desc *tu_op_build(const tu_op *c)
{
    clrs_resample_desc *op = NULL;
    int64_t iw[CLRS_MAX_RANK], is[CLRS_MAX_RANK], ipre[CLRS_MAX_RANK],
        ipost[CLRS_MAX_RANK];
    int j;
    SET(clrs_resample_desc_create(&op, c->v->mode));
    if (c->set_axes)
        SET(clrs_resample_desc_set_axes(op, c->naxes, c->axes));
    if (c->pad != CLRS_PAD_DEFAULT)
        SET(clrs_resample_desc_set_padding(op, c->pad, c->pad_value));
    if (c->v->mode == CLRS_MODE_NEAREST)
        SET(clrs_resample_desc_set_rounding(op,
                                            (clrs_rounding)c->v->rounding));
    if (c->v->mode == CLRS_MODE_FILTER)
        SET(clrs_resample_desc_set_filter(op, (clrs_filter)c->v->filter,
                                          c->v->fp, c->v->fq));
    if (c->v->onnx)
        SET(clrs_resample_desc_set_antialias_rule(op, CLRS_AA_ONNX));
    if (c->v->exclude_outside)
        SET(clrs_resample_desc_set_exclude_outside(op, 1));
    if (c->v->antialias)
        SET(clrs_resample_desc_set_antialias(op, 1));
    if (c->set_cubic_a)
        SET(clrs_resample_desc_set_cubic_a(op, c->cubic_a));
    if (c->has_scales)
        SET(clrs_resample_desc_set_scales(op, c->naxes, c->scales));
    if (c->has_offsets)
        SET(clrs_resample_desc_set_pixel_offsets(op, c->naxes, c->in_off,
                                                 c->out_off));
    if (c->has_roi) {
        SET(clrs_resample_desc_set_roi(op, c->naxes, c->roi_s, c->roi_e));
        SET(clrs_resample_desc_set_extrapolation_value(op, c->extrapolation));
    }
    for (j = 0; j < c->naxes; ++j) {
        iw[j] = c->window[j].num;
        is[j] = c->stride[j].num;
        ipre[j] = c->pre[j].num;
        ipost[j] = c->post[j].num;
    }
    if (c->has_window) {
        if (c->int_api)
            SET(clrs_resample_desc_set_window(op, c->naxes, iw));
        else
            SET(clrs_resample_desc_set_window_fraction(op, c->naxes,
                                                       c->window));
    }
    if (c->has_stride) {
        if (c->int_api) {
            SET(clrs_resample_desc_set_stride(op, c->naxes, is));
            SET(clrs_resample_desc_set_padding_sizes(op, c->naxes, ipre,
                                                     ipost));
        } else {
            SET(clrs_resample_desc_set_stride_fraction(op, c->naxes,
                                                       c->stride));
            SET(clrs_resample_desc_set_padding_sizes_fraction(
                op, c->naxes, c->pre, c->post));
        }
    }
    if (c->coord_explicit)
        SET(clrs_resample_desc_set_coord(op, c->coord));
    return op;
}
