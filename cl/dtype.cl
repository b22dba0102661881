/* Loads and stores per data type, scalar and vector (n lanes), named
 * CLRS_LD_<dt>, CLRS_LDV_<dt>, CLRS_ST_<dt>, CLRS_STV_<dt> and the
 * non-temporal CLRS_STNT_<dt>, CLRS_STVNT_<dt>. A load yields the type's
 * natural arithmetic type; a store takes the accumulator (float or double)
 * and rounds once to nearest even, saturating for integers (NaN to 0).
 * Each type has three parts (scalar, vector, non-temporal); a kernel gets
 * the parts whose macros it uses. */

//@ f32
#define CLRS_LD_f32(p, i) ((p)[i])
#define CLRS_ST_f32(p, i, v) ((p)[i] = (float)(v))
//@ f32 vector
#define CLRS_LDV_f32(n, p, i) CLRS_VLOAD(float, n, p, i)
#define CLRS_STV_f32(n, p, i, v) CLRS_VSTORE(float, n, p, i, convert_float##n(v))
//@ f32 nt
#define CLRS_STNT_f32(p, i, v) CLRS_NT_STORE((float)(v), (p) + (i))
/* The vector pointer cast needs (p) + (i) aligned to the vector: the plan
 * only asks for this store when every vector's offset is a multiple of n. */
#define CLRS_STVNT_f32(n, p, i, v) \
    CLRS_NT_STORE(convert_float##n(v), (__global float##n *)((p) + (i)))
//@ f32 aligned
/* Vectors the plan proves aligned to their size (clrs_gen_config.va). */
#define CLRS_LDVA_f32(n, p, i) CLRS_VLOADA(float, n, p, i)
#define CLRS_STVA_f32(n, p, i, v) CLRS_VSTOREA(float, n, p, i, convert_float##n(v))

//@ f64
#define CLRS_LD_f64(p, i) ((p)[i])
#define CLRS_ST_f64(p, i, v) ((p)[i] = (double)(v))
//@ f64 vector
#define CLRS_LDV_f64(n, p, i) CLRS_VLOAD(double, n, p, i)
#define CLRS_STV_f64(n, p, i, v) CLRS_VSTORE(double, n, p, i, convert_double##n(v))
//@ f64 nt
#define CLRS_STNT_f64(p, i, v) CLRS_NT_STORE((double)(v), (p) + (i))
#define CLRS_STVNT_f64(n, p, i, v) \
    CLRS_NT_STORE(convert_double##n(v), (__global double##n *)((p) + (i)))
//@ f64 aligned
#define CLRS_LDVA_f64(n, p, i) CLRS_VLOADA(double, n, p, i)
#define CLRS_STVA_f64(n, p, i, v) \
    CLRS_VSTOREA(double, n, p, i, convert_double##n(v))

//@ f16
/* f16: where the device has cl_khr_fp16 (CLRS_F16_NATIVE), loads and
 * stores of the half type converted to and from the accumulator;
 * elsewhere storage only, through vload_half / vstore_half, which are
 * core OpenCL C. Either way the accumulator (float or double) is rounded
 * once to nearest even: convert_half_rte and vstore_half_rte both keep
 * NaN and overflow to inf. */
#ifdef CLRS_F16_NATIVE
#define CLRS_LD_f16(p, i) convert_float((p)[i])
#define CLRS_ST_f16(p, i, v) ((p)[i] = convert_half_rte(v))
#else
#define CLRS_LD_f16(p, i) vload_half((i), (p))
#define CLRS_ST_f16(p, i, v) vstore_half_rte((v), (i), (p))
#endif
//@ f16 vector
#ifdef CLRS_F16_NATIVE
CLRS_UTYPES(half, 2)
#define CLRS_LDV_f16(n, p, i) convert_float##n(CLRS_VLOAD(half, n, p, i))
#define CLRS_STV_f16(n, p, i, v) \
    vstore##n(convert_half##n##_rte(v), 0, (p) + (i))
#else
#define CLRS_LDV_f16(n, p, i) vload_half##n(0, (p) + (i))
#define CLRS_STV_f16(n, p, i, v) vstore_half##n##_rte((v), 0, (p) + (i))
#endif
//@ f16 nt
/* Vectors: one non-temporal store of the halves' bits, which the plan
 * asks for only where the vector is aligned (as CLRS_STVNT_f32); without
 * the half type, vstore_half's bits through a private vector. */
#define CLRS_STNT_f16(p, i, v) CLRS_ST_f16(p, i, v)
#ifdef CLRS_F16_NATIVE
#define CLRS_STVNT_f16(n, p, i, v) \
    CLRS_NT_STORE(convert_half##n##_rte(v), (__global half##n *)((p) + (i)))
#else
#define CLRS_STVNT_f16(n, p, i, v)                                         \
    do {                                                                   \
        ushort##n h_;                                                      \
        vstore_half##n##_rte((v), 0, (__private half *)&h_);               \
        CLRS_NT_STORE(h_, (__global ushort##n *)((p) + (i)));              \
    } while (0)
#endif
//@ f16 aligned
/* The half type's vectors, where the device has cl_khr_fp16 (the
 * generator asks for them only then). */
#define CLRS_LDVA_f16(n, p, i) convert_float##n(CLRS_VLOADA(half, n, p, i))
#define CLRS_STVA_f16(n, p, i, v) \
    CLRS_VSTOREA(half, n, p, i, convert_half##n##_rte(v))

//@ bf16
/* bf16 is the top half of an f32. Rounding to nearest even adds 0x7fff
 * plus the kept lsb; NaN keeps a quiet NaN instead of rounding to inf.
 * A double is first narrowed to float with round-to-odd (truncate, then
 * set the lsb if inexact), which makes the second rounding exact. */
#define CLRS_BF16_FROM_BITS(u, nan) \
    ((nan) ? (((u) >> 16) | 0x40u) : (((u) + 0x7fffu + (((u) >> 16) & 1u)) >> 16))
ushort clrs_bf16_f(float v);
ushort clrs_bf16_f(float v)
{
    uint u = as_uint(v);
    return (ushort)CLRS_BF16_FROM_BITS(u, isnan(v));
}
#ifdef CLRS_ACC_F64
ushort clrs_bf16_d(double v);
ushort clrs_bf16_d(double v)
{
    float f = convert_float_rtz(v);
    uint u = as_uint(f);
    if (!isnan(v) && !isinf(f) && (double)f != v)
        u |= 1u;
    return (ushort)CLRS_BF16_FROM_BITS(u, isnan(v));
}
#define CLRS_BF16(v) clrs_bf16_d(v)
#else
#define CLRS_BF16(v) clrs_bf16_f(v)
#endif
#define CLRS_LD_bf16(p, i) as_float((uint)(p)[i] << 16)
#define CLRS_ST_bf16(p, i, v) ((p)[i] = CLRS_BF16(v))
//@ bf16 vector
/* Vectors: the same rounding lane by lane (select takes the quiet NaN
 * where the lane is NaN). A double is narrowed with round-to-odd first:
 * truncate, then set the lsb where that was inexact. Vectors, because
 * PoCL's scalar bf16 stores are slow in blocked layouts. */
CLRS_UTYPES(ushort, 2)
#define CLRS_LDV_bf16(n, p, i) \
    as_float##n(convert_uint##n(CLRS_VLOAD(ushort, n, p, i)) << 16)
#define CLRS_BF16_BITSV(n, u, nanm)                                        \
    convert_ushort##n(select(                                              \
        ((u) + (uint##n)(0x7fffu) + (((u) >> 16) & (uint##n)(1u))) >> 16,  \
        ((u) >> 16) | (uint##n)(0x40u), as_uint##n(nanm)))
#ifdef CLRS_ACC_F64
#define CLRS_RTO_BITS(n, v)                                                \
    (as_uint##n(convert_float##n##_rtz(v)) |                               \
     convert_uint##n((convert_double##n(convert_float##n##_rtz(v)) !=      \
                      convert_double##n(v)) &                              \
                     (long##n)(1)))
#define CLRS_BF16V(n, v)                                                   \
    CLRS_BF16_BITSV(n, CLRS_RTO_BITS(n, v), isnan(convert_float##n##_rtz(v)))
#else
#define CLRS_BF16V(n, v) CLRS_BF16_BITSV(n, as_uint##n(v), isnan(v))
#endif
#define CLRS_STV_bf16(n, p, i, v) CLRS_VSTORE(ushort, n, p, i, CLRS_BF16V(n, v))
//@ bf16 nt
#define CLRS_STNT_bf16(p, i, v) CLRS_ST_bf16(p, i, v)
#define CLRS_STVNT_bf16(n, p, i, v) CLRS_STV_bf16(n, p, i, v)
//@ bf16 aligned
#define CLRS_LDVA_bf16(n, p, i) \
    as_float##n(convert_uint##n(CLRS_VLOADA(ushort, n, p, i)) << 16)
#define CLRS_STVA_bf16(n, p, i, v) \
    CLRS_VSTOREA(ushort, n, p, i, CLRS_BF16V(n, v))

//@ s32
/* Integers: convert_<t>_sat_rte rounds half to even, saturates, and maps
 * NaN to 0 (OpenCL C 6.2.3.3), exactly the library's rule; NaN is still
 * sent to 0 explicitly, as not every implementation does (Mesa rusticl on
 * llvmpipe gives the type's minimum). */
#define CLRS_LD_s32(p, i) ((p)[i])
#define CLRS_ST_s32(p, i, v) ((p)[i] = convert_int_sat_rte(isnan(v) ? 0 : (v)))
//@ s32 vector
CLRS_UTYPES(int, 4)
#define CLRS_LDV_s32(n, p, i) CLRS_VLOAD(int, n, p, i)
/* Spelt out as the 8-bit stores are (PoCL's convert_int_sat_rte is a
 * long sequence). From double: below 2^52 in magnitude, rounded to
 * nearest even by adding and taking away 2^52 of the value's sign (the
 * sum's unit is 1; from 2^52 on a double is an integer), then clamped
 * to the int range, whose bounds double holds (exact conversion). From
 * float: the same with 2^23, clamped to [-2^31, the largest float below
 * 2^31], 2^31 and beyond saturated to INT_MAX. NaN lanes are masked to
 * 0. */
#ifdef CLRS_ACC_F64
#define CLRS_RNE64V(n, v)                                                  \
    select(v, ((v) + copysign((double##n)(0x1p52), v)) -                   \
                  copysign((double##n)(0x1p52), v),                        \
           fabs(v) < (double##n)(0x1p52))
#define CLRS_STV_s32(n, p, i, v)                                           \
    CLRS_VSTORE(int, n, p, i,                                              \
                convert_int##n(clamp(CLRS_RNE64V(n, convert_double##n(v)), \
                                     (double##n)(-2147483648.0),           \
                                     (double##n)(2147483647.0))) &         \
                    ~convert_int##n(isnan(v)))
#else
#define CLRS_RNE32V(n, v)                                                  \
    select(v, ((v) + copysign((float##n)(0x1p23f), v)) -                   \
                  copysign((float##n)(0x1p23f), v),                        \
           fabs(v) < (float##n)(0x1p23f))
#define CLRS_STV_s32(n, p, i, v)                                           \
    CLRS_VSTORE(int, n, p, i,                                              \
                select(convert_int##n(clamp(CLRS_RNE32V(n, v),            \
                                            (float##n)(-0x1p31f),          \
                                            (float##n)(0x1.fffffep30f))),  \
                       (int##n)(0x7fffffff), (v) >= (float##n)(0x1p31f)) & \
                    ~convert_int##n(isnan(v)))
#endif
//@ s32 nt
#define CLRS_STNT_s32(p, i, v) CLRS_ST_s32(p, i, v)
#define CLRS_STVNT_s32(n, p, i, v) CLRS_STV_s32(n, p, i, v)
//@ s32 aligned
#define CLRS_LDVA_s32(n, p, i) CLRS_VLOADA(int, n, p, i)

//@ sat8
/* The vector stores of the 8-bit types spell the integer rule out,
 * faster on PoCL: clamp to the type's range (exact: the bounds are
 * integers), round half to even by adding 1.5 * 2^23 (2^52 in double:
 * the sum's unit is 1, so the addition's own rounding, to nearest even,
 * rounds the value, and the sum's low bits are the integer plus a
 * constant), and mask the NaN lanes (which the clamp sends to the low
 * bound) to 0. PoCL's convert_int_rte and rint are longer sequences of
 * compares and selects. */
#ifdef CLRS_ACC_F64
#define CLRS_SAT8V(t, n, v, lo, hi)                                        \
    convert_##t##n(                                                        \
        convert_int##n(as_long##n(fmin(fmax(convert_double##n(v),         \
                                            (double)(lo)),                 \
                                       (double)(hi)) + 0x1.8p52) -         \
                       as_long(0x1.8p52)) &                                \
        ~convert_int##n(isnan(v)))
#else
#define CLRS_SAT8V(t, n, v, lo, hi)                                        \
    convert_##t##n((as_int##n(fmin(fmax(v, lo), hi) + 0x1.8p23f) -        \
                    as_int(0x1.8p23f)) &                                   \
                   ~convert_int##n(isnan(v)))
#endif

//@ fix
#ifdef CLRS_FIX
/* A fixed-point sum (ushort: the value times 2^CLRS_FIX, exact, at most
 * 255 * 2^CLRS_FIX) rounded half to even by integer steps: adding
 * 2^(CLRS_FIX - 1) - 1 plus the quotient's low bit carries exactly when
 * the remainder is above half, or at half with an odd quotient. */
#define CLRS_FIXR(v) \
    (((v) + (ushort)((1 << (CLRS_FIX - 1)) - 1) + \
      (((v) >> CLRS_FIX) & (ushort)1)) >> CLRS_FIX)
#endif

//@ s8
#ifdef CLRS_FIX
/* Fixed point (lower.c, fix_config): the value plus 128, as u8's sums,
 * every output's weights summing to 1; the store takes 128 off again. */
#define CLRS_LD_s8(p, i) ((uchar)(p)[i] ^ (uchar)0x80)
#define CLRS_ST_s8(p, i, v) \
    ((p)[i] = as_char((uchar)(convert_uchar(CLRS_FIXR(v)) ^ (uchar)0x80)))
#else
#define CLRS_LD_s8(p, i) ((p)[i])
#define CLRS_ST_s8(p, i, v) ((p)[i] = convert_char_sat_rte(isnan(v) ? 0 : (v)))
#endif
//@ s8 round
/* CLRS_S8V(n, v): the n lanes of v rounded to s8 for the vector stores. */
#ifdef CLRS_FIX
#define CLRS_S8V(n, v) \
    as_char##n(convert_uchar##n(CLRS_FIXR(v)) ^ (uchar##n)(0x80))
#else
#define CLRS_S8V(n, v) CLRS_SAT8V(char, n, v, -128.0f, 127.0f)
#endif
//@ s8 vector
CLRS_UTYPES(char, 1)
#ifdef CLRS_FIX
#define CLRS_LDV_s8(n, p, i) \
    (as_uchar##n(CLRS_VLOAD(char, n, p, i)) ^ (uchar##n)(0x80))
#else
#define CLRS_LDV_s8(n, p, i) CLRS_VLOAD(char, n, p, i)
#endif
#define CLRS_STV_s8(n, p, i, v) CLRS_VSTORE(char, n, p, i, CLRS_S8V(n, v))
//@ s8 nt
#define CLRS_STNT_s8(p, i, v) CLRS_ST_s8(p, i, v)
#define CLRS_STVNT_s8(n, p, i, v) \
    CLRS_NT_STORE(CLRS_S8V(n, v), (__global char##n *)((p) + (i)))

//@ u8
#define CLRS_LD_u8(p, i) ((p)[i])
#ifdef CLRS_FIX
#define CLRS_ST_u8(p, i, v) ((p)[i] = convert_uchar(CLRS_FIXR(v)))
#elif defined(CLRS_CV8_CUBIC)
/* OpenCV's bicubic rows: its vector code rounds the float sum to even,
 * its scalar code the exact sum half up (cvv: which wrote it). */
#define CLRS_ST_u8(p, i, v) \
    ((p)[i] = convert_uchar_sat(cvv ? rint(v) : floor((v) + 0.5)))
#elif defined(CLRS_CV8_FROUND)
/* OpenCV's area by whole factors: its float product, to even. */
#define CLRS_ST_u8(p, i, v) ((p)[i] = convert_uchar_sat_rte((float)(v)))
#elif defined(CLRS_HALF_UP)
/* Pillow's clip8: half up, floor(v + 0.5) (exact: the sum is a multiple
 * of 2^-22 below 2^31), saturated. */
#define CLRS_ST_u8(p, i, v) \
    ((p)[i] = convert_uchar_sat(isnan(v) ? 0 : floor((v) + 0.5f)))
#else
#define CLRS_ST_u8(p, i, v) ((p)[i] = convert_uchar_sat_rte(isnan(v) ? 0 : (v)))
#endif
//@ u8 round
/* CLRS_U8V(n, v): the n lanes of v rounded to u8 by the configuration's
 * rule, for the vector stores. */
#ifdef CLRS_FIX
#define CLRS_U8V(n, v) convert_uchar##n(CLRS_FIXR(v))
#elif defined(CLRS_CV8_FROUND)
#define CLRS_U8V(n, v) convert_uchar##n##_sat_rte(convert_float##n(v))
#elif defined(CLRS_HALF_UP)
#define CLRS_U8V(n, v) CLRS_SAT8V(uchar, n, floor((v) + 0.5f), 0.0f, 255.0f)
#else
#define CLRS_U8V(n, v) CLRS_SAT8V(uchar, n, v, 0.0f, 255.0f)
#endif
//@ u8 vector
CLRS_UTYPES(uchar, 1)
#define CLRS_LDV_u8(n, p, i) CLRS_VLOAD(uchar, n, p, i)
#define CLRS_STV_u8(n, p, i, v) CLRS_VSTORE(uchar, n, p, i, CLRS_U8V(n, v))
//@ u8 nt
/* Vectors: one non-temporal store where the plan asks for it (aligned,
 * 16 bytes or more). */
#define CLRS_STNT_u8(p, i, v) CLRS_ST_u8(p, i, v)
#define CLRS_STVNT_u8(n, p, i, v) \
    CLRS_NT_STORE(CLRS_U8V(n, v), (__global uchar##n *)((p) + (i)))
//@ u8 aligned
#define CLRS_LDVA_u8(n, p, i) CLRS_VLOADA(uchar, n, p, i)
