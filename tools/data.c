/* clresample tool: data types (one table row each), host element access
 * with the library's conversion rules (clresample(3), Conversions),
 * and layout-order iteration. */
#include "cli.h"

#include <math.h>
#include <string.h>

/* CLRS_DTYPE_MAP's rows. bf16 has no NumPy dtype: its .npy files hold
 * f32 values (man page). */
#define CLI_DTYPE_(e, name, size, st, ld, kernel, fp64, vstore, is_float,    \
                   npy, npy_size)                                            \
    {name, CLRS_##e, npy, npy_size, is_float},
static const cli_dtype dtypes[] = {
    CLRS_DTYPE_MAP(CLI_DTYPE_){NULL, CLRS_F32, NULL, 0, 0}};
#undef CLI_DTYPE_

const cli_dtype *cli_dtype_find(const char *name)
{
    const cli_dtype *t;
    for (t = dtypes; t->name; ++t)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

const cli_dtype *cli_dtype_of(clrs_dtype dt)
{
    const cli_dtype *t;
    for (t = dtypes; t->name; ++t)
        if (t->dt == dt)
            return t;
    return &dtypes[0];
}

/* ---- half and bfloat16, independent of the library's conversions so
 * that the tool checks them rather than repeats them ---- */

static double f16_value(uint16_t h)
{
    int e = h >> 10 & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m | 0x400, e - 25);
    return h & 0x8000 ? -v : v;
}

static uint16_t f16_bits(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v), q;
    int e;
    if (isnan(v))
        return 0x7e00;
    if (a >= 65520.0) /* rounds past the largest finite half */
        return sign | 0x7c00;
    if (a < ldexp(1, -14)) { /* subnormal: units of 2^-24, RNE */
        q = nearbyint(ldexp(a, 24));
        return sign | (uint16_t)q;
    }
    e = ilogb(a);
    q = nearbyint(ldexp(a, 10 - e)); /* 1024 .. 2048 */
    if (q >= 2048) {
        q /= 2;
        ++e;
    }
    return sign | (uint16_t)((e + 15) << 10 | ((int)q - 1024));
}

static double bf16_value(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t bf16_bits(double v)
{
    float f = (float)v; /* RNE to f32 first; bf16 of that, RNE again */
    uint32_t u;
    if (isnan(v))
        return 0x7fc0;
    memcpy(&u, &f, 4);
    u += 0x7fff + (u >> 16 & 1);
    return (uint16_t)(u >> 16);
}

static double round_sat(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    v = nearbyint(v);
    return v < lo ? lo : v > hi ? hi : v;
}

double cli_load_any(const void *base, clrs_dtype dt, int64_t i)
{
    switch (dt) {
    case CLRS_F32: return ((const float *)base)[i];
    case CLRS_F64: return ((const double *)base)[i];
    case CLRS_F16: return f16_value(((const uint16_t *)base)[i]);
    case CLRS_BF16: return bf16_value(((const uint16_t *)base)[i]);
    case CLRS_S32: return ((const int32_t *)base)[i];
    case CLRS_S8: return ((const int8_t *)base)[i];
    case CLRS_U8: return ((const uint8_t *)base)[i];
    case CLRS_S64: return (double)((const int64_t *)base)[i];
    }
    return NAN;
}

void cli_store_any(void *base, clrs_dtype dt, int64_t i, double v)
{
    switch (dt) {
    case CLRS_F32: ((float *)base)[i] = (float)v; break;
    case CLRS_F64: ((double *)base)[i] = v; break;
    case CLRS_F16: ((uint16_t *)base)[i] = f16_bits(v); break;
    case CLRS_BF16: ((uint16_t *)base)[i] = bf16_bits(v); break;
    case CLRS_S32:
        ((int32_t *)base)[i] = (int32_t)round_sat(v, -2147483648.0,
                                                  2147483647.0);
        break;
    case CLRS_S8: ((int8_t *)base)[i] = (int8_t)round_sat(v, -128, 127); break;
    case CLRS_U8: ((uint8_t *)base)[i] = (uint8_t)round_sat(v, 0, 255); break;
    case CLRS_S64:
        ((int64_t *)base)[i] = (int64_t)round_sat(v, -9.2e18, 9.2e18);
        break;
    }
}

/* ---- iteration ---- */

void cli_iter_init(cli_iter *it, const clrs_tensor_desc *d, int blocked)
{
    int i;
    memset(it, 0, sizeof *it);
    it->desc = d;
    it->rank = clrs_tensor_desc_rank(d);
    clrs_tensor_desc_get(d, it->dims, NULL);
    it->total = clrs_tensor_desc_elements(d);
    /* Strided layouts step by strides; blocked ones ask the library for
     * each offset (slower, but the layout formula stays in one place). */
    it->linear = !blocked;
    for (i = it->rank - 1; i >= 0; --i) {
        it->perm[i] = i;
        it->rowmajor[i] = i == it->rank - 1
                              ? 1
                              : it->rowmajor[i + 1] * it->dims[i + 1];
    }
    for (i = 0; i < it->rank && it->linear; ++i) {
        int64_t unit[CLRS_MAX_RANK] = {0};
        if (it->dims[i] > 1) {
            unit[i] = 1;
            it->strides[i] = clrs_tensor_desc_offset(d, unit);
        }
    }
}

void cli_iter_range(cli_iter *it, int64_t begin, int64_t end)
{
    int i;
    int64_t rest = begin;
    for (i = it->rank - 1; i >= 0; --i) {
        it->idx[i] = it->dims[i] ? rest % it->dims[i] : 0;
        rest = it->dims[i] ? rest / it->dims[i] : 0;
        it->off += it->idx[i] * it->strides[i];
    }
    it->lin = begin;
    it->total = end - begin;
}

static int64_t order_key(const cli_iter *it, int axis)
{
    return it->dims[axis] > 1 ? it->strides[axis] : INT64_MAX;
}

void cli_iter_memory_order(cli_iter *a, cli_iter *b)
{
    int i, k;
    if (!a->linear || !b->linear || a->rank != b->rank || a->count ||
        b->count ||
        memcmp(a->strides, b->strides, sizeof a->strides) != 0 ||
        memcmp(a->dims, b->dims, sizeof a->dims) != 0)
        return;
    /* Insertion sort, largest stride first, axes of one element (stride
     * 0) slowest of all; ties keep the row-major order. */
    for (i = 1; i < a->rank; ++i)
        for (k = i;
             k > 0 && order_key(a, a->perm[k - 1]) < order_key(a, a->perm[k]);
             --k) {
            int t = a->perm[k];
            a->perm[k] = a->perm[k - 1];
            a->perm[k - 1] = t;
        }
    memcpy(b->perm, a->perm, sizeof a->perm);
}

/* cli_iter_next's general step. */
int cli_iter_carry(cli_iter *it)
{
    int i;
    if (it->count >= it->total)
        return 0;
    if (it->count > 0) {
        int k;
        for (k = it->rank - 1; k >= 0; --k) {
            i = it->perm[k];
            if (++it->idx[i] < it->dims[i]) {
                if (it->linear)
                    it->off += it->strides[i];
                it->lin += it->rowmajor[i];
                break;
            }
            if (it->linear)
                it->off -= it->strides[i] * (it->dims[i] - 1);
            it->lin -= it->rowmajor[i] * (it->dims[i] - 1);
            it->idx[i] = 0;
        }
    }
    if (!it->linear)
        it->off = clrs_tensor_desc_offset(it->desc, it->idx);
    ++it->count;
    return 1;
}
