/* The per-tap steps of the two reductions: the weighted sum (every mode but
 * max) and max pooling with the winner's index code, scalar and vector. */

//@ wsum
#ifdef CLRS_CV8_LINEAR
/* OpenCV's 8-bit bilinear rows (cv::resize's VResizeLinear for uchar):
 * each row's sum v (pixels times 2^11, below 2^19) shifted right by 4
 * (q, below 2^15), times the row's weight w (at most 2^11), shifted
 * right by 16; the store rounds a quarter of the total half up, as its
 * (sum + 2) >> 2. Exact in float: with q = 256 h + l, floor(w q / 2^16)
 * is floor((w h + floor(w l / 256)) / 256), every term below 2^20. Each
 * floor is of some n / 2^k >= 0 below 2^15: n / 2^k less (2^k - 1) /
 * 2^(k + 1), exact and above -1, rounded to an integer by adding and
 * taking away 1.5 * 2^23 (never a tie), where floor() itself is a slow
 * library call. */
#define CLRS_CV8_FL(x, h) ((((x) - (h)) + 12582912.0f) - 12582912.0f)
#define CLRS_CV8_HI(q) CLRS_CV8_FL((q) * 0.00390625f, 0.498046875f)
#define CLRS_CV8_ROW(w, q)                                                 \
    CLRS_CV8_FL(((w) * CLRS_CV8_HI(q) +                                    \
                 CLRS_CV8_FL((w) * ((q) - 256.0f * CLRS_CV8_HI(q)) *      \
                                 0.00390625f,                             \
                             0.498046875f)) *                             \
                    0.00390625f,                                          \
                0.498046875f)
#define CLRS_WSUM_STEP(acc, w, v) \
    ((acc) += CLRS_CV8_ROW(w, CLRS_CV8_FL((v) * 0.0625f, 0.46875f)) * 0.25f)
#elif defined(CLRS_CV8_CUBIC)
/* OpenCV's 8-bit bicubic rows (VResizeCubic for uchar, scalar kernels
 * only): where its vector code writes the element (cvv), a float sum of
 * the rows (taps in reverse, products and sums rounded to float, which
 * double then float rounding gives exactly), else the exact sum. */
#define CLRS_WSUM_STEP(acc, w, v)                                         \
    ((acc) = cvv ? (double)(float)((acc) + (double)(float)((w) * (v)))    \
                 : (acc) + (w) * (v))
#else
/* acc += w * v, contraction off: the generator's #pragma forbids fma. */
#define CLRS_WSUM_STEP(acc, w, v) ((acc) += (w) * (v))
#endif

//@ max
/* Max: the first tap in row-major window order wins ties (strict >). NaN
 * propagate: the first NaN wins and later taps change nothing. NaN
 * ignore (CLRS_NAN_IGNORE 1): NaNs are skipped; a window of NaNs only
 * keeps NaN and the first tap's code, set before the loop.
 *
 * best starts as NaN. Under ignore it holds a number exactly when a tap
 * was taken, so a number v is taken where !(v <= best): greater, or best
 * still NaN. Under propagate the first tap is taken whatever it is
 * (have: a tap was taken); after it, v is taken where !(v <= best)
 * (greater, or v NaN) and best is still a number (a NaN taken stops the
 * window). Two compares a tap, the unordered one in a single compare:
 * the same choices as testing isnan and a "stopped" flag at every tap. */
#if CLRS_NAN_IGNORE
#define CLRS_MAX_TAKE(v, best, have) (!((v) <= (best)) && (v) == (v))
#define CLRS_MAX_TOOK(have) ((void)0)
#else
#define CLRS_MAX_TAKE(v, best, have) \
    (!(have) || (!((v) <= (best)) && (best) == (best)))
#define CLRS_MAX_TOOK(have) ((have) = 1)
#endif

/* Scalar step: have an int flag (propagate only), win the winner's
 * code. */
#define CLRS_MAX_STEP(v, best, have, win, code)                            \
    do {                                                                   \
        if (CLRS_MAX_TAKE(v, best, have)) {                                \
            (best) = (v);                                                  \
            (win) = (code);                                                \
            CLRS_MAX_TOOK(have);                                           \
        }                                                                  \
    } while (0)

//@ max vector
/* The same take rule lane by lane (masks of all ones or zeros). */
#if CLRS_NAN_IGNORE
#define CLRS_MAX_TAKEV(v, best, have) (~((v) <= (best)) & ((v) == (v)))
#define CLRS_MAX_TOOKV(have, take) ((void)0)
#else
#define CLRS_MAX_TAKEV(v, best, have) \
    (~(have) | (~((v) <= (best)) & ((best) == (best))))
#define CLRS_MAX_TOOKV(have, take) ((have) |= (take))
#endif

/* Vector step, lane by lane: M is the mask type of the value vector
 * (intN for float, longN for double), CONVW converts a mask to the code
 * vector's type, code is the (broadcast) code vector. */
#define CLRS_MAX_STEPV(M, CONVW, v, best, have, win, code)                 \
    do {                                                                   \
        const M take_ = CLRS_MAX_TAKEV(v, best, have);                     \
        (best) = select((best), (v), take_);                               \
        (win) = select((win), (code), CONVW(take_));                       \
        CLRS_MAX_TOOKV(have, take_);                                       \
    } while (0)
