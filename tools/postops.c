/* clresample tool: --attr-post-ops, the chain of post-ops in benchdnn's
 * spelling: sum[:scale], eltwise_ALG[:alpha[:beta]] and
 * binary_ALG:DT[:POLICY], joined by '+'. */
#include "parse.h"

#include <ctype.h>
#include <string.h>

/* The names of CLRS_ELTWISE_MAP and CLRS_BINARY_MAP. */
#define ELTWISE_CHOICE_(e, name, ...) {name, CLRS_ELTWISE_##e},
#define BINARY_CHOICE_(e, name, ...) {name, CLRS_BINARY_##e},
static const choice eltwise_algs[] = {
    CLRS_ELTWISE_MAP(ELTWISE_CHOICE_){NULL, 0}};
static const choice binary_algs[] = {
    CLRS_BINARY_MAP(BINARY_CHOICE_){NULL, 0}};
#undef ELTWISE_CHOICE_
#undef BINARY_CHOICE_
/* benchdnn's broadcast policies as masks of the axes the operand keeps
 * (bit a: operand dim a is dst's, else 1); 0xFC = every spatial axis. */
static const choice policies[] = {
    {"common", 0},        {"per_oc", 2},          {"per_dim_0", 1},
    {"per_dim_1", 2},     {"per_dim_01", 3},      {"per_dim_2", 4},
    {"per_dim_3", 8},     {"per_spatial", 0xFC},
    {"per_mb_spatial", 0xFD}, {"per_tensor", 0xFF}, {NULL, 0}};

/* Binary ALG:DT[:POLICY|MASK[:TAG]] after the name; f[1] is the type. */
static int binary_fields(char **f, int n, struct cli_post *q, char *err)
{
    const cli_dtype *dt;
    int x;

    if (n < 2)
        return fail(err, "%s needs a data type: binary_ALG:DT[:POLICY]",
                    f[0]);
    dt = cli_dtype_find(f[1]);
    if (!dt || dt->dt == CLRS_S64)
        return fail(err, "unknown operand data type '%s' (one of f32 "
                    "f16 bf16 f64 s32 s8 u8)", f[1]);
    q->dt = dt->dt;
    q->mask = 0; /* benchdnn's default policy: common, one scalar */
    if (n > 2) {
        int64_t m;
        if (isdigit((unsigned char)f[2][0])) {
            /* benchdnn's MASK: bit a set = operand dim a is dst's */
            if (parse_int(f[2], 0, 0xFFFF, &m, err) != 0)
                return -1;
            q->mask = (unsigned)m & 0xFF; /* no tensor has 8 axes */
        } else if (find_choice(policies, f[2], 1, &x) != 0) {
            return fail_choice(err, f[2], policies);
        } else {
            q->mask = (unsigned)x;
        }
    }
    if (n > 3 && strcmp(f[3], "any") != 0)
        return fail(err, "%s: operand tag '%s': an operand takes the "
                    "problem's layout (only 'any' is accepted)", f[0], f[3]);
    return 0;
}

/* One entry of the chain: "sum:0.5", "eltwise_relu:0.1", "binary_add:f32:
 * per_oc", or benchdnn's short names ("relu:0.1", "add:f32"). Fields after
 * the name are ':'-separated. */
static int post_entry(char *e, struct cli_post *q, char *err)
{
    char *f[5] = {NULL, NULL, NULL, NULL, NULL}, *save = NULL, *t;
    const char *alg;
    double ignored;
    int n = 0, x, elt, bin;
    for (t = strtok_r(e, ":", &save); t && n < 5; t = strtok_r(NULL, ":", &save))
        f[n++] = t;
    if (n == 0)
        return fail(err, "empty post-op");
    if (t)
        return fail(err, "post-op '%s' has too many ':' fields", f[0]);
    memset(q, 0, sizeof *q);
    q->scale = 1;
    if (strcmp(f[0], "sum") == 0) {
        q->kind = CLI_POST_SUM;
        if (n > 2)
            return fail(err, "sum takes one field, sum[:scale]");
        return n > 1 ? parse_double(f[1], &q->scale, err) : 0;
    }
    elt = strncmp(f[0], "eltwise_", 8) == 0;
    bin = strncmp(f[0], "binary_", 7) == 0;
    alg = elt ? f[0] + 8 : bin ? f[0] + 7 : f[0];
    if (!bin && find_choice(eltwise_algs, alg, 0, &x) == 0) {
        q->kind = CLI_POST_ELTWISE;
        q->alg = x;
        /* benchdnn's ALG[:ALPHA[:BETA[:SCALE]]]: it reads no SCALE
         * either (oneDNN's eltwise post-op has none). */
        if (n > 4)
            return fail(err, "%s takes eltwise_ALG[:alpha[:beta[:scale]]] "
                        "(scale is read and ignored, as benchdnn does)",
                        f[0]);
        if (n > 1 && parse_double(f[1], &q->alpha, err) != 0)
            return -1;
        if (n > 2 && parse_double(f[2], &q->beta, err) != 0)
            return -1;
        if (n > 3 && parse_double(f[3], &ignored, err) != 0)
            return -1;
        return 0;
    }
    if (!elt && find_choice(binary_algs, alg, 0, &x) == 0) {
        q->kind = CLI_POST_BINARY;
        q->alg = x;
        return binary_fields(f, n, q, err);
    }
    if (elt)
        return fail_choice(err, alg, eltwise_algs);
    if (bin)
        return fail_choice(err, alg, binary_algs);
    return fail(err, "unknown post-op '%s' (sum, eltwise_ALG or ALG, "
                "binary_ALG or ALG)", f[0]);
}

int set_post_ops(const char *v, cli_opts *o, char *err)
{
    char buf[512], *save = NULL, *e;
    o->n_post = 0;
    if (strcmp(v, "") == 0 || strcmp(v, "none") == 0)
        return 0;
    if (strlen(v) >= sizeof buf)
        return fail(err, "post-op chain too long");
    strcpy(buf, v);
    for (e = strtok_r(buf, "+", &save); e; e = strtok_r(NULL, "+", &save)) {
        if (o->n_post == CLRS_MAX_POST_OPS)
            return fail(err, "more than %d post-ops", CLRS_MAX_POST_OPS);
        if (post_entry(e, &o->post[o->n_post], err) != 0)
            return -1;
        ++o->n_post;
    }
    return 0;
}
