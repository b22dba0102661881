/* Exact rationals on int64 (every operation reports overflow instead of
 * wrapping) and the exact evaluation of a coordinate map
 * x(o) = (m o + c) / d: floor, fraction and the tie test decided on the
 * integers, never on a rounded value. */
#include "model/internal.h"

#include <math.h>

int64_t clrs__gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? a : 1;
}

/* Magnitudes stay below 2^62, so negation and one addition never
 * overflow. */
#define RAT_LIM (INT64_C(1) << 62)

int clrs__mul_ok(int64_t a, int64_t b, int64_t *r)
{
    if (a <= -RAT_LIM || a >= RAT_LIM || b <= -RAT_LIM || b >= RAT_LIM)
        return 0;
    if (a != 0 && (b > 0 ? b : -b) > RAT_LIM / (a > 0 ? a : -a))
        return 0;
    *r = a * b;
    return 1;
}

int clrs__add_ok(int64_t a, int64_t b, int64_t *r)
{
    if (a <= -RAT_LIM || a >= RAT_LIM || b <= -RAT_LIM || b >= RAT_LIM)
        return 0;
    *r = a + b;
    return 1;
}

clrs_rat clrs__rat(int64_t n, int64_t d)
{
    int64_t g = clrs__gcd64(n, d);
    clrs_rat r;
    if (d < 0) {
        n = -n;
        d = -d;
    }
    r.n = n / g;
    r.d = d / g;
    return r;
}

int clrs__rat_add(clrs_rat a, clrs_rat b, int sign, clrs_rat *r)
{
    int64_t x, y, d;
    if (!clrs__mul_ok(a.n, b.d, &x) || !clrs__mul_ok(b.n * sign, a.d, &y) ||
        !clrs__add_ok(x, y, &x) || !clrs__mul_ok(a.d, b.d, &d))
        return 0;
    *r = clrs__rat(x, d);
    return 1;
}

int clrs__rat_mul(clrs_rat a, clrs_rat b, clrs_rat *r)
{
    /* Cross-reduce first, so products of reduced operands stay small. */
    int64_t g1 = clrs__gcd64(a.n, b.d), g2 = clrs__gcd64(b.n, a.d), n, d;
    if (!clrs__mul_ok(a.n / g1, b.n / g2, &n) ||
        !clrs__mul_ok(a.d / g2, b.d / g1, &d))
        return 0;
    *r = clrs__rat(n, d);
    return 1;
}

int clrs__rat_div(clrs_rat a, clrs_rat b, clrs_rat *r)
{
    clrs_rat inv;
    if (b.n == 0)
        return 0;
    inv = clrs__rat(b.d, b.n);
    return clrs__rat_mul(a, inv, r);
}

/* A finite double is m 2^e with an integer m of at most 53 bits: exact
 * when the power of two fits. */
int clrs__rat_of_double(double v, clrs_rat *r)
{
    int e;
    double m;
    int64_t n, d = 1;
    if (!isfinite(v))
        return 0;
    m = frexp(v, &e); /* v = m 2^e, 0.5 <= |m| < 1 */
    m = ldexp(m, 53);
    e -= 53;
    while (e < 0 && fmod(m, 2.0) == 0) {
        m /= 2;
        ++e;
    }
    if (e > 0) {
        if (e > 8)
            return 0;
        m = ldexp(m, e);
        e = 0;
    }
    if (e < -61)
        return 0;
    n = (int64_t)m;
    d = INT64_C(1) << -e;
    *r = clrs__rat(n, d);
    return 1;
}

int64_t clrs__floor_div(int64_t n, int64_t d) /* d > 0 */
{
    int64_t q = n / d;
    return q * d > n ? q - 1 : q;
}

int64_t clrs__ceil_div(int64_t n, int64_t d) /* d > 0 */
{
    int64_t q = n / d;
    return q * d < n ? q + 1 : q;
}

/* ---- x(o) = (m o + c) / d ---------------------------------------------- */

static void from_parts(int64_t fl, int half, double fr, clrs_xval *xv)
{
    xv->fl = fl;
    xv->fr = fr;
    xv->half = half;
    xv->x = (double)fl + fr;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef __int128 wide;

/* Exact for every int64 o: |m o + c| < 2^126. */
int clrs__exact_eval(int64_t m, int64_t c, int64_t d, int64_t o,
                     clrs_xval *xv)
{
    wide num = (wide)m * o + c, q = num / d, rem;
    if (num - q * d < 0)
        --q;
    rem = num - q * d; /* 0 <= rem < d */
    if (q > (wide)INT64_MAX / 2 || q < (wide)INT64_MIN / 2)
        return 0;
    from_parts((int64_t)q, rem * 2 < d ? -1 : rem * 2 == d ? 0 : 1,
               (double)rem / (double)d, xv);
    return 1;
}
#else
/* Without 128-bit integers: exact while m o + c fits int64. */
int clrs__exact_eval(int64_t m, int64_t c, int64_t d, int64_t o,
                     clrs_xval *xv)
{
    int64_t num, q, rem;
    if (!clrs__mul_ok(m, o, &num) || !clrs__add_ok(num, c, &num))
        return 0;
    q = clrs__floor_div(num, d);
    rem = num - q * d;
    from_parts(q, rem < d - rem ? -1 : rem == d - rem ? 0 : 1,
               (double)rem / (double)d, xv);
    return 1;
}
#endif

/* Beyond 2^40 every tap is far outside any tensor and a float x is
 * already an integer, so saturating there changes no result and keeps
 * the int64 conversion defined. */
static double saturate(double x)
{
    const double lim = 1099511627776.0;
    return !(x > -lim) ? -lim : x > lim ? lim : x;
}

int64_t clrs__ifloor(double x) { return (int64_t)floor(saturate(x)); }

void clrs__xval_of(double x, clrs_xval *xv)
{
    xv->x = saturate(x);
    xv->fl = clrs__ifloor(xv->x);
    xv->fr = xv->x - (double)xv->fl;
    xv->half = xv->fr < 0.5 ? -1 : xv->fr == 0.5 ? 0 : 1;
}
