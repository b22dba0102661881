/* The generator's rows: one per data type the kernels handle and one per
 * fused post-op algorithm, with the OpenCL C each emits, all generated
 * from the maps of feature_maps.h. */
#include "gen/gen_emit.h"

#define DTYPE_ROW_(e, name, size, cl_store, cl_load, kernel, fp64, vstore,     \
                   ...)                                                        \
    [CLRS_##e] = {CLRS_##e, name, cl_store, cl_load, kernel, fp64, vstore},
static const dtype_row dtypes[CLRS_DTYPE_COUNT] = {CLRS_DTYPE_MAP(DTYPE_ROW_)};
#undef DTYPE_ROW_

/* The row of a dtype the kernels handle, else NULL. */
const dtype_row *clrs__gen_row_of(clrs_dtype dt)
{
    if (!clrs__dtype_valid((int)dt) || !dtypes[dt].kernel)
        return NULL;
    return &dtypes[dt];
}

/* clrs_gen_class and the maps' kernel classes are one list. */
typedef char clrs__kclass_matches_[(CLRS_KCLASS_WSUM == CLRS_GEN_WSUM &&
                                    CLRS_KCLASS_MAX == CLRS_GEN_MAX)
                                       ? 1
                                       : -1];

int clrs__gen_dtype_vector_store(clrs_dtype dt)
{
    const dtype_row *r = clrs__gen_row_of(dt);
    return r != NULL && r->vstore;
}

/* Index tensors: element type by dtype. */
const char *clrs__gen_index_ctype(clrs_dtype dt)
{
    return dt == CLRS_S8 ? "char" : dt == CLRS_S32 ? "int" : "long";
}

#define POST_ROW_(prefix, e, name, cl) [prefix##e] = {prefix##e, name, cl},
#define ELTWISE_ROW_(e, name, cl, ref) POST_ROW_(CLRS_ELTWISE_, e, name, cl)
#define BINARY_ROW_(e, name, cl, ref) POST_ROW_(CLRS_BINARY_, e, name, cl)
static const post_row eltwise_rows[CLRS_ELTWISE_COUNT] = {
    CLRS_ELTWISE_MAP(ELTWISE_ROW_)};
static const post_row binary_rows[CLRS_BINARY_COUNT] = {
    CLRS_BINARY_MAP(BINARY_ROW_)};
#undef POST_ROW_
#undef ELTWISE_ROW_
#undef BINARY_ROW_

const post_row *clrs__gen_post_row_of(int kind, int alg)
{
    if (kind == CLRS_POST_ELTWISE && clrs__eltwise_valid(alg))
        return &eltwise_rows[alg];
    if (kind == CLRS_POST_BINARY && clrs__binary_valid(alg))
        return &binary_rows[alg];
    return NULL;
}

static int post_supported(const clrs_gen_post *q)
{
    if (q->kind == CLRS_POST_SUM)
        return 1;
    return clrs__gen_post_row_of(q->kind, q->alg) != NULL &&
           (q->kind != CLRS_POST_BINARY || clrs__gen_row_of(q->dt) != NULL);
}

clrs_status clrs__gen_supported(const clrs_gen_config *c)
{
    int i;

    for (i = 0; i < c->npost; ++i)
        CLRS_CHECK(post_supported(&c->post[i]), CLRS_ERR_NOT_IMPLEMENTED,
                   "no OpenCL kernel for post-op %d in this version", i);
    if (c->backward)
        CLRS_CHECK(clrs__gen_row_of(c->dst) && clrs__gen_row_of(c->src) &&
                       (!c->recompute || clrs__gen_row_of(c->x)),
                   CLRS_ERR_NOT_IMPLEMENTED,
                   "no OpenCL backward kernel for dtypes %s <- %s in this "
                   "version",
                   clrs_dtype_name(c->dst), clrs_dtype_name(c->src));
    else
        CLRS_CHECK(clrs__gen_row_of(c->src) && clrs__gen_row_of(c->dst),
                   CLRS_ERR_NOT_IMPLEMENTED,
                   "no OpenCL kernel for dtypes %s -> %s in this version",
                   clrs_dtype_name(c->src), clrs_dtype_name(c->dst));
    return CLRS_SUCCESS;
}
