/* The generator's rows: one per data type the kernels handle and one per
 * fused post-op algorithm, with the OpenCL C each emits. */
#include "gen_emit.h"

static const dtype_row dtypes[] = {
    {CLRS_F32, "f32", "float", "float", 0, 1},
    {CLRS_F64, "f64", "double", "double", 1, 1},
    {CLRS_F16, "f16", "half", "float", 0, 1},
    {CLRS_BF16, "bf16", "ushort", "float", 0, 1},
    {CLRS_S32, "s32", "int", "int", 0, 1},
    {CLRS_S8, "s8", "char", "char", 0, 1},
    {CLRS_U8, "u8", "uchar", "uchar", 0, 1},
};

const dtype_row *row_of(clrs_dtype dt)
{
    size_t i;
    for (i = 0; i < sizeof dtypes / sizeof dtypes[0]; ++i)
        if (dtypes[i].dt == dt)
            return &dtypes[i];
    return NULL;
}

int clrs__gen_dtype_supported(clrs_dtype dt) { return row_of(dt) != NULL; }

int clrs__gen_dtype_vector_store(clrs_dtype dt)
{
    const dtype_row *r = row_of(dt);
    return r != NULL && r->vstore;
}

/* Index tensors: element type by dtype. */
const char *index_ctype(clrs_dtype dt)
{
    return dt == CLRS_S8 ? "char" : dt == CLRS_S32 ? "int" : "long";
}

static const post_row eltwise_rows[] = {
    {CLRS_ELTWISE_RELU, "relu", "((X) > (T)(0) ? (X) : (A) * (X))"},
    {CLRS_ELTWISE_CLIP, "clip",
     "((X) < (T)(A) ? (T)(A) : (X) > (T)(B) ? (T)(B) : (X))"},
    {CLRS_ELTWISE_TANH, "tanh", "tanh(X)"},
    {CLRS_ELTWISE_LOGISTIC, "logistic", "((T)(1) / ((T)(1) + exp(-(X))))"},
    {CLRS_ELTWISE_ELU, "elu", "((X) > (T)(0) ? (X) : (A) * expm1(X))"},
    /* gelu and swish at an infinity: the limit (x, or 0 where the gate
     * closes), not inf * 0. */
    {CLRS_ELTWISE_GELU_TANH, "gelu_tanh",
     "(isinf(X) ? ((X) > (T)(0) ? (X) : (T)(0)) : "
     "(T)(0.5) * (X) * ((T)(1) + tanh((T)(0.79788456080286535588) * "
     "((X) + (T)(0.044715) * (X) * (X) * (X)))))"},
    {CLRS_ELTWISE_GELU_ERF, "gelu_erf",
     "(isinf(X) ? ((X) > (T)(0) ? (X) : (T)(0)) : "
     "(T)(0.5) * (X) * ((T)(1) + erf((X) * "
     "(T)(0.70710678118654752440))))"},
    {CLRS_ELTWISE_SWISH, "swish",
     "(isinf(X) ? ((A) * (X) < (T)(0) ? (T)(0) : (A) == (T)(0) ? "
     "(T)(0.5) * (X) : (X)) : (X) / ((T)(1) + exp(-(A) * (X))))"},
    {CLRS_ELTWISE_ABS, "abs", "fabs(X)"},
    {CLRS_ELTWISE_SQUARE, "square", "((X) * (X))"},
    {CLRS_ELTWISE_SQRT, "sqrt", "sqrt(X)"},
    {CLRS_ELTWISE_EXP, "exp", "exp(X)"},
    {CLRS_ELTWISE_LOG, "log", "log(X)"},
    {CLRS_ELTWISE_LINEAR, "linear", "((A) * (X) + (B))"},
};

/* max / min propagate a NaN from either side, as the reference does
 * (fmax / fmin would drop it). */
static const post_row binary_rows[] = {
    {CLRS_BINARY_ADD, "add", "((X) + (Y))"},
    {CLRS_BINARY_SUB, "sub", "((X) - (Y))"},
    {CLRS_BINARY_MUL, "mul", "((X) * (Y))"},
    {CLRS_BINARY_DIV, "div", "((X) / (Y))"},
    {CLRS_BINARY_MAX, "max", "((X) > (Y) || isnan(X) ? (X) : (Y))"},
    {CLRS_BINARY_MIN, "min", "((X) < (Y) || isnan(X) ? (X) : (Y))"},
};

const post_row *post_row_of(int kind, int alg)
{
    const post_row *t = kind == CLRS_POST_ELTWISE ? eltwise_rows
                        : kind == CLRS_POST_BINARY ? binary_rows
                                                   : NULL;
    size_t n = kind == CLRS_POST_ELTWISE
                   ? sizeof eltwise_rows / sizeof eltwise_rows[0]
                   : sizeof binary_rows / sizeof binary_rows[0];
    size_t i;
    if (!t)
        return NULL;
    for (i = 0; i < n; ++i)
        if (t[i].alg == alg)
            return &t[i];
    return NULL;
}

int clrs__gen_post_supported(int kind, int alg)
{
    return kind == CLRS_POST_SUM || post_row_of(kind, alg) != NULL;
}
