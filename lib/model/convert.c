/* Element loads and stores for every dtype, as the reference sees them:
 * everything is read as double and written back with the conversion
 * rules of clresample(3): one rounding to nearest even, integers saturate,
 * NaN into an integer is 0. */
#include "model/internal.h"

#include <math.h>
#include <string.h>

float clrs__half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t u;
    float f;

    if (exp == 0) {
        /* Zero or subnormal: man * 2^-24 is exact in float. */
        f = (float)man * (1.0f / 16777216.0f);
        return sign ? -f : f;
    }
    if (exp == 31)
        u = sign | 0x7f800000u | (man << 13); /* inf, NaN keeps payload */
    else
        u = sign | ((exp + 112u) << 23) | (man << 13);
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t clrs__float_to_half(float f)
{
    uint32_t u, absu, man, rem;
    uint16_t sign, h;
    int exp;

    memcpy(&u, &f, sizeof u);
    sign = (uint16_t)((u >> 16) & 0x8000u);
    absu = u & 0x7fffffffu;
    if (absu > 0x7f800000u) /* NaN: keep the top payload bits, force quiet */
        return (uint16_t)(sign | 0x7e00u | ((absu >> 13) & 0x3ffu));
    if (absu >= 0x47800000u) /* >= 65536 (or inf): beyond any rounding */
        return (uint16_t)(sign | 0x7c00u);
    if (absu < 0x38800000u) {
        /* Below 2^-14: the result is a subnormal (or the smallest normal,
         * 0x400, which the same integer encodes). Scaling by 2^24 is exact
         * and rintf rounds half to even in the default mode. */
        float a;
        memcpy(&a, &absu, sizeof a);
        return (uint16_t)(sign | (uint16_t)rintf(a * 16777216.0f));
    }
    exp = (int)(absu >> 23) - 127 + 15;
    man = absu & 0x7fffffu;
    h = (uint16_t)(((unsigned)exp << 10) | (man >> 13));
    rem = man & 0x1fffu;
    /* A carry out of the mantissa bumps the exponent, up to inf: right. */
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        ++h;
    return (uint16_t)(sign | h);
}

float clrs__bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t clrs__float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: truncating could give inf */
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

double clrs__load(const void *base, clrs_dtype dt, int64_t i)
{
    switch (dt) {
    case CLRS_F32:
        return ((const float *)base)[i];
    case CLRS_F16:
        return clrs__half_to_float(((const uint16_t *)base)[i]);
    case CLRS_BF16:
        return clrs__bf16_to_float(((const uint16_t *)base)[i]);
    case CLRS_F64:
        return ((const double *)base)[i];
    case CLRS_S32:
        return ((const int32_t *)base)[i];
    case CLRS_S8:
        return ((const int8_t *)base)[i];
    case CLRS_U8:
        return ((const uint8_t *)base)[i];
    case CLRS_S64:
        return (double)((const int64_t *)base)[i];
    }
    return NAN;
}

/* Round half to even, then saturate to [lo, hi]; NaN gives 0. The bounds
 * are compared in double, where they are exact for every type but s64
 * (handled by its caller). */
static double to_int(double v, double lo, double hi)
{
    if (isnan(v))
        return 0.0;
    v = nearbyint(v);
    return v < lo ? lo : v > hi ? hi : v;
}

static int64_t to_s64(double v)
{
    if (isnan(v))
        return 0;
    v = nearbyint(v);
    /* 2^63 is exact in double; INT64_MAX is not. */
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    if (v < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}

/* Rounds a double once, to nearest even, onto a binary format with p
 * significant bits whose smallest normal exponent is emin; overflow gives
 * infinity. The result is exact in float for f16 and bf16, so the float
 * converters below only repack it: one rounding, as the rules ask (a cast
 * to float first would round twice). */
static double round_to_format(double v, int p, int emin, double max)
{
    int e;
    double q, r;
    if (!isfinite(v) || v == 0.0)
        return v;
    frexp(v, &e); /* |v| in [2^(e-1), 2^e) */
    e -= 1;
    if (e < emin)
        e = emin; /* subnormal: fixed spacing */
    q = ldexp(1.0, e - (p - 1));
    r = nearbyint(v / q) * q;
    if (fabs(r) > max)
        return r > 0 ? INFINITY : -INFINITY;
    return r;
}

void clrs__store(void *base, clrs_dtype dt, int64_t i, double v)
{
    switch (dt) {
    case CLRS_F32:
        ((float *)base)[i] = (float)v;
        break;
    case CLRS_F16:
        ((uint16_t *)base)[i] = clrs__float_to_half(
            (float)round_to_format(v, 11, -14, 65504.0));
        break;
    case CLRS_BF16:
        ((uint16_t *)base)[i] = clrs__float_to_bf16(
            (float)round_to_format(v, 8, -126, 3.38953138925153547590e38));
        break;
    case CLRS_F64:
        ((double *)base)[i] = v;
        break;
    case CLRS_S32:
        ((int32_t *)base)[i] = (int32_t)to_int(v, -2147483648.0, 2147483647.0);
        break;
    case CLRS_S8:
        ((int8_t *)base)[i] = (int8_t)to_int(v, -128.0, 127.0);
        break;
    case CLRS_U8:
        ((uint8_t *)base)[i] = (uint8_t)to_int(v, 0.0, 255.0);
        break;
    case CLRS_S64:
        ((int64_t *)base)[i] = to_s64(v);
        break;
    }
}
