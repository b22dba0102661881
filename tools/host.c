/* clresample tool: one problem's data on the host: its buffers, the
 * inputs filled or read from .npy files, the outputs poisoned, digested
 * and written to .npy files. */
#include "job.h"

#include <math.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- host data ---- */

static uint64_t mix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* benchdnn-style exact-friendly values, a pure function of (seed, role,
 * logical index) so that a repro line refills identically wherever it
 * runs. Nearest and max get both signs over a wide range. Weighted modes
 * get both signs too, from [-2v, -v] and [v, 2v]: their sums then cancel
 * now and then (cubic's lobes, gradients of mixed sign), which the error
 * model bounds by the terms, not by the result. Unsigned integers stay
 * positive. */
static double fill_value(uint64_t seed, int role, int64_t i, clrs_dtype dt,
                         int exact_mode)
{
    uint64_t h = mix64(mix64(seed * 8 + (uint64_t)role) ^ (uint64_t)i);
    double sign = (h >> 40) & 1 ? -1 : 1;
    int64_t k;
    switch (dt) {
    case CLRS_U8: return exact_mode ? (double)(h % 256) : 32 + (double)(h % 33);
    case CLRS_S8:
        return exact_mode ? (double)(int64_t)(h % 255) - 127
                          : sign * (32 + (double)(h % 33));
    case CLRS_S32:
    case CLRS_S64:
        return exact_mode ? (double)(int64_t)(h % 20001) - 10000
                          : sign * (512 + (double)(h % 513));
    default:
        k = exact_mode ? (int64_t)(h % 257) - 128 : 64 + (int64_t)(h % 65);
        return (exact_mode ? 1 : sign) * (double)k / 16.0;
    }
}

int host_alloc(job *j)
{
    int i;
    double need = 0;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    for (i = 0; i < T_COUNT; ++i)
        if (j->t[i].used)
            need += 3.0 * (double)j->t[i].bytes;
    /* Linux overcommits: a malloc that succeeds can still kill us later. */
    if (pages > 0 && psize > 0 && need > 0.6 * (double)pages * psize) {
        set_status(j->r, ST_SKIPPED, "needs %.1f GiB of host memory; the "
                   "machine has %.1f GiB", need / 1073741824.0,
                   (double)pages * psize / 1073741824.0);
        return -1;
    }
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        if (!t->used)
            continue;
        /* an empty tensor still gets a (one-byte) buffer to point at;
         * page-aligned, so that a device of the host's memory can take
         * an input's array as its buffer (device_setup) */
        if (posix_memalign(&t->host, 4096, t->bytes + 1) != 0)
            t->host = NULL;
        t->exp = t->is_output ? malloc(t->bytes + 1) : NULL;
        if (!t->host || (t->is_output && !t->exp)) {
            set_status(j->r, ST_SKIPPED, "out of host memory for %s (%zu "
                       "bytes)", role_names[i], t->bytes);
            return -1;
        }
    }
    return 0;
}

/* Output poison: NaN for floating types (any unwritten element fails the
 * check), a byte pattern for integers. Blocked padding lanes get it too. */
void poison(void *buf, clrs_dtype dt, size_t bytes)
{
    size_t i, n;
    const cli_dtype *t = cli_dtype_of(dt);
    if (!t->is_float) {
        memset(buf, 0x5a, bytes);
        return;
    }
    n = bytes / clrs_dtype_size(dt);
    for (i = 0; i < n; ++i)
        cli_store(buf, dt, (int64_t)i, NAN);
}

/* .npy element type for a tensor dtype: bf16 travels as f32. */
static clrs_dtype npy_dt(clrs_dtype dt)
{
    return dt == CLRS_BF16 ? CLRS_F32 : dt;
}

static int read_input(job *j, int role, const char *path)
{
    tensor *t = &j->t[role];
    const cli_dtype *nd = cli_dtype_of(npy_dt(t->dt));
    int64_t dims[CLRS_MAX_RANK];
    void *buf;
    cli_iter it;
    char err[400];
    int bl = j->p->o.tag->blocked;

    clrs_tensor_desc_get(t->d, dims, NULL);
    buf = malloc((size_t)t->elems * nd->npy_size);
    if (!buf) {
        set_status(j->r, ST_SKIPPED, "out of memory reading %s", path);
        return -1;
    }
    if (npy_read(path, nd->npy, nd->npy_size, j->rank, dims, buf, err,
                 sizeof err) != 0) {
        set_status(j->r, ST_INVALID, "%s file: %s", role_names[role], err);
        free(buf);
        return -1;
    }
    memset(t->host, 0, t->bytes);
    cli_iter_init(&it, t->d, bl);
    while (cli_iter_next(&it))
        cli_store(t->host, t->dt, it.off,
                  cli_load(buf, nd->dt, it.count - 1));
    free(buf);
    return 0;
}

static int write_output(job *j, int role, const void *data, const char *path)
{
    tensor *t = &j->t[role];
    const cli_dtype *nd = cli_dtype_of(npy_dt(t->dt));
    int64_t dims[CLRS_MAX_RANK];
    void *buf;
    cli_iter it;
    char err[400];

    clrs_tensor_desc_get(t->d, dims, NULL);
    buf = malloc((size_t)t->elems * nd->npy_size);
    if (!buf) {
        set_status(j->r, ST_SKIPPED, "out of memory writing %s", path);
        return -1;
    }
    cli_iter_init(&it, t->d, j->p->o.tag->blocked);
    while (cli_iter_next(&it))
        cli_store(buf, nd->dt, it.count - 1, cli_load(data, t->dt, it.off));
    if (npy_write(path, nd->npy, nd->npy_size, j->rank, dims, buf, err,
                  sizeof err) != 0) {
        set_status(j->r, ST_FAILED, "%s", err);
        free(buf);
        return -1;
    }
    free(buf);
    return 0;
}

/* One thread's share of a tensor's fill: row-major positions [begin,
 * end). */
typedef struct fill_part {
    const tensor *t;
    int blocked, role, exact;
    uint64_t seed;
    int64_t begin, end;
} fill_part;

static void *fill_part_main(void *arg)
{
    const fill_part *f = arg;
    cli_iter it;
    cli_iter_init(&it, f->t->d, f->blocked);
    cli_iter_range(&it, f->begin, f->end);
    while (cli_iter_next(&it))
        cli_store(f->t->host, f->t->dt, it.off,
                  fill_value(f->seed, f->role, it.lin, f->t->dt, f->exact));
    return NULL;
}

#define FILL_MAX_THREADS 32
#define FILL_MIN_PER_THREAD (INT64_C(1) << 20)

/* Fills t->host with role's values, on up to one thread per core (the
 * values are a function of the position alone, so the bytes do not
 * depend on the split). */
static void fill_tensor(const tensor *t, int blocked, int role, int exact,
                        uint64_t seed)
{
    fill_part part[FILL_MAX_THREADS];
    pthread_t tid[FILL_MAX_THREADS];
    int started[FILL_MAX_THREADS];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t n = t->elems / FILL_MIN_PER_THREAD;
    int k;

    if (n > cores)
        n = cores;
    if (n > FILL_MAX_THREADS)
        n = FILL_MAX_THREADS;
    if (n < 1)
        n = 1;
    for (k = 0; k < n; ++k) {
        part[k].t = t;
        part[k].blocked = blocked;
        part[k].role = role;
        part[k].exact = exact;
        part[k].seed = seed;
        part[k].begin = t->elems * k / n;
        part[k].end = t->elems * (k + 1) / n;
        started[k] = k > 0 && pthread_create(&tid[k], NULL, fill_part_main,
                                             &part[k]) == 0;
    }
    for (k = 0; k < n; ++k)
        if (!started[k])
            fill_part_main(&part[k]);
    for (k = 1; k < n; ++k)
        if (started[k])
            pthread_join(tid[k], NULL);
}

int fill_inputs(job *j)
{
    const cli_prb *p = j->p;
    int exact = clrs__mode_exact(p->o.alg);
    int i;
    for (i = 0; i < T_COUNT; ++i) {
        tensor *t = &j->t[i];
        const char *file = NULL;
        if (!t->used)
            continue;
        if (t->is_output && !(i == T_DST && has_sum(j))) {
            /* A device run poisons its buffer itself (device_setup); the
             * host copy is written whole when read back, and untouched
             * until then (no memory of a run that reads nothing back). */
            if (p->g.engine == ENGINE_REF)
                poison(t->host, t->dt, t->bytes);
            t->poisoned = 1;
            continue;
        }
        if (i == T_SRC)
            file = p->g.src_file;
        else if (i == T_DIFF_DST)
            file = p->g.diff_dst_file;
        else if (i == T_INDEX)
            file = p->g.ws_file;
        if (file) {
            if (read_input(j, i, file) != 0)
                return -1;
            continue;
        }
        memset(t->host, 0, t->bytes); /* blocked padding lanes */
        fill_tensor(t, p->o.tag->blocked, i, exact, p->g.seed);
        if (t->is_output) { /* the sum's old dst, for the oracle too */
            t->init = malloc(t->bytes);
            if (!t->init) {
                set_status(j->r, ST_SKIPPED, "out of host memory");
                return -1;
            }
            memcpy(t->init, t->host, t->bytes);
        }
    }
    return 0;
}

/* Copies logical elements between two layouts of one shape. */
void relayout(const clrs_tensor_desc *sd, int sblocked,
                     const void *src, const clrs_tensor_desc *dd,
                     int dblocked, void *dst, clrs_dtype dt)
{
    cli_iter a, b;
    cli_iter_init(&a, sd, sblocked);
    cli_iter_init(&b, dd, dblocked);
    while (cli_iter_next(&a) && cli_iter_next(&b))
        cli_store(dst, dt, b.off, cli_load(src, dt, a.off));
}

/* r->digest over the bytes of the outputs, in role order. */
void digest_outputs(job *j)
{
    static const char hexd[] = "0123456789abcdef";
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_SIZE];
    int i;

    sha256_init(&c);
    for (i = 0; i < T_COUNT; ++i)
        if (j->t[i].used && j->t[i].is_output && j->t[i].host)
            sha256_update(&c, j->t[i].bytes, j->t[i].host);
    sha256_digest(&c, sizeof d, d);
    for (i = 0; i < 8; ++i) {
        j->r->digest[2 * i] = hexd[d[i] >> 4];
        j->r->digest[2 * i + 1] = hexd[d[i] & 15];
    }
    j->r->digest[16] = '\0';
}

int write_outputs(job *j)
{
    const cli_global *g = &j->p->g;
    if (!j->backward) {
        if (g->dst_file && write_output(j, T_DST, j->t[T_DST].host,
                                        g->dst_file) != 0)
            return -1;
        if (g->ws_file && j->t[T_INDEX].used &&
            write_output(j, T_INDEX, j->t[T_INDEX].host, g->ws_file) != 0)
            return -1;
    } else if (g->diff_src_file &&
               write_output(j, T_DIFF_SRC, j->t[T_DIFF_SRC].host,
                            g->diff_src_file) != 0) {
        return -1;
    }
    return 0;
}
