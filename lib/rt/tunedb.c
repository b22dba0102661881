/* The tuning database. One file per device, driver and library version,
 * $CLRS_CACHE_DIR/tuning-<hash>.txt (the hash over those names, so a
 * file of another device or version is never read), in text a user can
 * read, ship and merge by concatenation:
 *     # comment lines
 *     <class> <bucket> <launch> <ms> <sum>
 * launch in CLRS_LAUNCH's syntax, ms the winner's kernel time, sum the
 * first 16 hex digits of the SHA-256 of the text before it. A line that
 * does not parse or whose sum differs is ignored. A store replaces the
 * lines of its own key (class and bucket) and keeps every other line as
 * it is, comments, damaged and foreign lines included: the file may be
 * a merge of others' databases, and a line this library did not write
 * is not its to drop. Writes are atomic (temp file, fsync, rename) and
 * happen only under the cache's lock, and only over a file that could be
 * read whole: a store that cannot take the lock, or meets a file over
 * the size cap, a directory, a link or a FIFO, writes nothing (the
 * caller notes why).
 *
 * Below the user's file, the databases installed with the library
 * ($(pkgdatadir)/tuning, or CLRS_TUNING_DIR): files of the same format,
 * each applied only to the device whose "# device:" line it carries
 * (name, vendor and driver version, as the tuner writes it), never to
 * another device or driver. */
#include "rt/tunedb.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most a database file may hold to be read (a merge of 150,000
 * lines or so; the parsed lines take about three times as much memory):
 * a larger one is neither read nor rewritten, and both are said. */
#define DB_MAX_BYTES ((size_t)16 << 20)
#define DB_LINE_MAX 512
/* How long a store waits for another process's store: each holds the
 * lock for one read and one rename, milliseconds. */
#define DB_LOCK_WAIT_MS 10000

/* ---- keys ---------------------------------------------------------------- */

/* "s<axis>" for the axis with the smallest stride among those of size > 1
 * (the contiguous one), "b<block>@<axis>" when blocked. */
static void layout_code(const struct clrs_tensor_desc *t, char *buf,
                        size_t n)
{
    int a, best = -1;
    for (a = 0; a < t->rank; ++a)
        if (t->dims[a] > 1 && t->block_axis != a &&
            (best < 0 || t->strides[a] < t->strides[best]))
            best = a;
    if (t->block_axis >= 0)
        snprintf(buf, n, "b%d@%d", t->block, t->block_axis);
    else
        snprintf(buf, n, "s%d", best);
}

void clrs__tune_key(const clrs_problem *p, int index_only, clrs_tune_key *k)
{
    /* The tensor the kernel writes (dst) and the one it reads (src). */
    const struct clrs_tensor_desc *dst = p->backward ? &p->in : &p->out;
    const struct clrs_tensor_desc *src = p->backward ? &p->out : &p->in;
    char dst_layout[24], src_layout[24], axes[CLRS_MAX_RANK + 1];
    double elems = 1;
    int a;

    layout_code(dst, dst_layout, sizeof dst_layout);
    layout_code(src, src_layout, sizeof src_layout);
    for (a = 0; a < p->naxes; ++a)
        axes[a] = (char)('0' + p->ax[a].axis);
    axes[p->naxes] = '\0';
    snprintf(k->cls, sizeof k->cls, "%s%s%s%s/%s%s%s%s/%s>%s/w%s,r%s/a%s",
             p->backward ? "bwd" : "fwd", p->has_index ? "+idx" : "",
             index_only ? "-only" : "",
             p->backward && p->has_x && !p->has_index ? "+x" : "",
             clrs__mode_cli_name((int)p->mode),
             p->mode == CLRS_MODE_FILTER ? "-" : "",
             p->mode == CLRS_MODE_FILTER ? clrs__filter_name((int)p->filter)
                                         : "",
             clrs__mode_antialiased((int)p->mode, p->antialias) ? "+aa" : "",
             clrs_dtype_name(src->dtype), clrs_dtype_name(dst->dtype),
             dst_layout, src_layout, axes);
    for (a = 0; a < dst->rank; ++a)
        elems *= (double)dst->dims[a];
    k->bucket = (int)floor(log2(elems));
}

/* ---- the file ------------------------------------------------------------ */

/* The directory and the device's file name; 0 when the cache (and so
 * the database) is off. */
static int db_place(const clrs_context *ctx, clrs_cache_config *cfg,
                    char *name, size_t n)
{
    const clrs_device_info *i = &ctx->dev.info;
    char text[1024], hex[65];
    int len;

    *cfg = ctx->env.cache;
    if (!cfg->enabled)
        return 0;
    len = snprintf(text, sizeof text,
                   "format=1\nlibrary=%s\nplatform=%s\ndevice=%s\n"
                   "vendor=%s\nversion=%s\ndriver=%s\n",
                   CLRS_VERSION_STRING, i->platform_name, i->device_name,
                   i->device_vendor, i->device_version, i->driver_version);
    if (len < 0 || (size_t)len >= sizeof text)
        return 0;
    clrs__sha256_hex(text, (size_t)len, hex);
    snprintf(name, n, "tuning-%.16s.txt", hex);
    return 1;
}

static void line_sum(const char *text, size_t n, char sum[17])
{
    char hex[65];
    clrs__sha256_hex(text, n, hex);
    memcpy(sum, hex, 16);
    sum[16] = '\0';
}

/* A launch text's characters: CLRS_LAUNCH items only. */
static int launch_chars_ok(const char *s)
{
    return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789=,") ==
                     strlen(s);
}

/* One line, checked: its fields into cls/launch (sized buffers), bucket
 * and ms; 0 for anything else. */
static int parse_line(const char *line, size_t len, char *cls, int *bucket,
                      char *launch, double *ms)
{
    char copy[DB_LINE_MAX], sum[17], want[17], extra;
    const char *last;
    int n;

    if (len == 0 || len >= sizeof copy || line[0] == '#')
        return 0;
    memcpy(copy, line, len);
    copy[len] = '\0';
    last = strrchr(copy, ' ');
    if (!last || strlen(last + 1) != 16)
        return 0;
    line_sum(copy, (size_t)(last - copy), want);
    n = sscanf(copy, "%159s %d %127s %lf %16s %c", cls, bucket, launch, ms,
               sum, &extra);
    return n == 5 && strcmp(sum, want) == 0 && *bucket >= 0 &&
           *bucket < 128 && isfinite(*ms) && *ms > 0 &&
           launch_chars_ok(launch) && strchr(cls, '/') != NULL;
}

/* Appends the valid lines of data to m (as many as memory allows). */
static void memo_add(clrs_tdb_memo *m, const char *data)
{
    const char *line, *next;
    size_t cap = m->n;

    for (line = data; *line; line = next) {
        clrs_tdb_line e;
        next = strchr(line, '\n');
        if (parse_line(line, next ? (size_t)(next - line) : strlen(line),
                       e.cls, &e.bucket, e.launch, &e.ms)) {
            if (m->n == cap) {
                size_t nc = cap ? 2 * cap : 16;
                clrs_tdb_line *v = realloc(m->v, nc * sizeof *v);
                if (!v)
                    break;
                m->v = v;
                cap = nc;
            }
            m->v[m->n++] = e;
        }
        next = next ? next + 1 : line + strlen(line);
    }
}

/* The fastest of m's lines for k into launch[n]: 1 found, 0 not. */
static int memo_find(const clrs_tdb_memo *m, const clrs_tune_key *k,
                     char *launch, size_t n)
{
    double best = INFINITY;
    size_t i;
    int found = 0;

    for (i = 0; i < m->n; ++i) {
        const clrs_tdb_line *e = &m->v[i];
        if (e->bucket == k->bucket && strcmp(e->cls, k->cls) == 0 &&
            e->ms < best && strlen(e->launch) < n) {
            best = e->ms;
            strcpy(launch, e->launch);
            found = 1;
        }
    }
    return found;
}

/* Reads and parses the file into ctx->tdb unless it is the one read
 * last (same inode, size and time); called under ctx->lock. 0: no
 * usable file; a regular file over the cap also says so in note (which
 * the caller passes on once it has released the lock). */
static int memo_load(clrs_context *ctx, const char *dir, const char *name,
                     char *note, size_t note_size)
{
    clrs_tdb_memo *m = &ctx->tdb;
    char path[4200], *data = NULL;
    struct stat st;
    size_t size;

    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        stat(path, &st) != 0)
        return 0;
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > DB_MAX_BYTES) {
        snprintf(note, note_size,
                 "tuning database %.300s: %llu bytes, over the %zu MiB the "
                 "library reads; its entries are not used, and it is not "
                 "rewritten",
                 path, (unsigned long long)st.st_size, DB_MAX_BYTES >> 20);
        return 0;
    }
    if (m->valid && strcmp(m->path, path) == 0 && m->dev == st.st_dev &&
        m->ino == st.st_ino && m->size == st.st_size &&
        m->mtime.tv_sec == st.st_mtim.tv_sec &&
        m->mtime.tv_nsec == st.st_mtim.tv_nsec)
        return 1;
    free(m->v);
    memset(m, 0, sizeof *m);
    if (clrs__cache_read_file(dir, name, DB_MAX_BYTES, &data, &size) != 0)
        return 0;
    memo_add(m, data);
    free(data);
    snprintf(m->path, sizeof m->path, "%s", path);
    m->dev = st.st_dev;
    m->ino = st.st_ino;
    m->size = st.st_size;
    m->mtime = st.st_mtim;
    m->valid = 1;
    return 1;
}

int clrs__tunedb_lookup(clrs_context *ctx, const clrs_tune_key *k,
                        char *launch, size_t n)
{
    clrs_cache_config cfg;
    char name[64], note[CLRS_ERRMSG_MAX] = "";
    int found;

    if (!db_place(ctx, &cfg, name, sizeof name))
        return 0;
    pthread_mutex_lock(&ctx->lock);
    found = memo_load(ctx, cfg.dir, name, note, sizeof note) &&
            memo_find(&ctx->tdb, k, launch, n);
    pthread_mutex_unlock(&ctx->lock);
    if (note[0])
        clrs__ctx_note(ctx, note);
    return found;
}

/* ---- the shipped databases ----------------------------------------------- */

/* CLRS_TUNING_DIR, else the directory configured at build time. */
static const char *shipped_dir(const clrs_context *ctx)
{
    const char *d = ctx->env.tuning_dir;
    return d ? d : CLRS_SHIPPED_TUNING_DIR;
}

/* "NAME | VENDOR | DRIVER" of the device, printable ASCII: the
 * "# device:" line of its databases. */
static void device_line(const clrs_context *ctx, char *dev, size_t n)
{
    int i;

    snprintf(dev, n, "%s | %s | %s", ctx->dev.info.device_name,
             ctx->dev.info.device_vendor, ctx->dev.info.driver_version);
    for (i = 0; dev[i]; ++i)
        if (dev[i] < ' ' || dev[i] > '~')
            dev[i] = '?';
}

/* data's "# device: " line is exactly want (one of its first lines). */
static int for_device(const char *data, const char *want)
{
    static const char tag[] = "# device: ";
    const char *line = data, *next;
    int i;

    for (i = 0; i < 16 && *line == '#'; ++i, line = next + 1) {
        next = strchr(line, '\n');
        if (!next)
            return 0;
        if (strncmp(line, tag, sizeof tag - 1) == 0)
            return (size_t)(next - line) == sizeof tag - 1 + strlen(want) &&
                   strncmp(line + sizeof tag - 1, want, strlen(want)) == 0;
    }
    return 0;
}

/* Every *.txt of the shipped directory made for this device, into
 * ctx->shipped, once per context (the files are installed data, not
 * written while a program runs); called under ctx->lock. */
static void shipped_load(clrs_context *ctx)
{
    clrs_tdb_memo *m = &ctx->shipped;
    const char *dir = shipped_dir(ctx);
    char want[400];
    struct dirent *de;
    DIR *d;

    if (m->valid)
        return;
    m->valid = 1;
    if (!*dir || !(d = opendir(dir)))
        return;
    device_line(ctx, want, sizeof want);
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name), size;
        char *data = NULL;
        if (len < 5 || de->d_name[0] == '.' ||
            strcmp(de->d_name + len - 4, ".txt") != 0)
            continue;
        if (clrs__cache_read_file(dir, de->d_name, DB_MAX_BYTES, &data,
                                  &size) == 0 &&
            for_device(data, want))
            memo_add(m, data);
        free(data);
    }
    closedir(d);
}

int clrs__tunedb_lookup_shipped(clrs_context *ctx, const clrs_tune_key *k,
                                char *launch, size_t n)
{
    int found;

    pthread_mutex_lock(&ctx->lock);
    shipped_load(ctx);
    found = memo_find(&ctx->shipped, k, launch, n);
    pthread_mutex_unlock(&ctx->lock);
    return found;
}

/* Whether a line is k's: its first two fields are k's class and bucket
 * (its own line, or a damaged copy of it: the new line replaces both). */
static int line_of_key(const char *line, size_t len, const clrs_tune_key *k)
{
    char b[16];
    size_t cl = strlen(k->cls);
    int bl = snprintf(b, sizeof b, "%d", k->bucket);

    return bl > 0 && len > cl + 1 + (size_t)bl &&
           memcmp(line, k->cls, cl) == 0 && line[cl] == ' ' &&
           memcmp(line + cl + 1, b, (size_t)bl) == 0 &&
           line[cl + 1 + (size_t)bl] == ' ';
}

/* The new file: old (n bytes, NULs and all; NULL for none) with k's
 * lines left out and every other line as it was, then k's new line; a
 * new file starts with the header. */
static char *db_text(const clrs_context *ctx, const char *old, size_t oldn,
                     const clrs_tune_key *k, const char *launch, double ms,
                     size_t *len)
{
    size_t cap = oldn + 2048, n = 0;
    char *out, body[DB_LINE_MAX], sum[17], dev[400];
    const char *line = old, *end = old ? old + oldn : NULL;
    int m;

    m = snprintf(body, sizeof body, "%s %d %s %.6g", k->cls, k->bucket,
                 launch, ms);
    if (m < 0 || (size_t)m >= sizeof body || !(out = malloc(cap)))
        return NULL;
    if (!old || oldn == 0) {
        device_line(ctx, dev, sizeof dev);
        n += (size_t)snprintf(out, cap,
                              "# clresample %s tuning database, format 1\n"
                              "# device: %s\n"
                              "# class bucket launch ms checksum\n",
                              CLRS_VERSION_STRING, dev);
    }
    while (line && line < end) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t ll = nl ? (size_t)(nl - line) : (size_t)(end - line);
        if (!line_of_key(line, ll, k)) {
            memcpy(out + n, line, ll);
            n += ll;
            out[n++] = '\n'; /* a last line without one gets one */
        }
        line += ll + 1;
    }
    line_sum(body, (size_t)m, sum);
    n += (size_t)snprintf(out + n, cap - n, "%s %s\n", body, sum);
    *len = n;
    return out;
}

int clrs__tunedb_store(const clrs_context *ctx, const clrs_tune_key *k,
                       const char *launch, double ms, char *why,
                       size_t why_size)
{
    clrs_cache_config cfg;
    char name[64], path[4200], *old = NULL, *text;
    struct stat st;
    size_t size = 0, len = 0;
    int lock, err;

    why[0] = '\0';
    if (!launch_chars_ok(launch) || !(ms > 0) || !isfinite(ms)) {
        snprintf(why, why_size, "the tuned launch is not storable");
        return EINVAL;
    }
    if (!db_place(ctx, &cfg, name, sizeof name))
        return 0;
    snprintf(path, sizeof path, "%.4000s/%s", cfg.dir, name);
    err = clrs__cache_mkdir(cfg.dir);
    if (err) {
        snprintf(why, why_size, "cannot create %.300s (%s)", cfg.dir,
                 strerror(err));
        return err;
    }
    clrs__cache_sweep(cfg.dir);
    /* Read, merge and rename under the lock, or not at all: two stores
     * at once without it would each rename their own merge, and the
     * first one's line would be lost. */
    lock = clrs__cache_lock(cfg.dir, name, DB_LOCK_WAIT_MS);
    if (lock < 0) {
        err = errno;
        snprintf(why, why_size, "cannot take the lock %.300s/lock (%s); %s "
                 "not written",
                 cfg.dir,
                 err == ETIMEDOUT ? "another process held it throughout"
                 : err == EISDIR || err == ELOOP || err == EINVAL
                     ? "not a regular file"
                     : strerror(err),
                 name);
        return err ? err : EAGAIN;
    }
    err = clrs__cache_read_file(cfg.dir, name, DB_MAX_BYTES, &old, &size);
    if (err == EINVAL && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size > DB_MAX_BYTES) {
        snprintf(why, why_size, "%.300s holds %llu bytes, over the %zu MiB "
                 "the library reads; not rewritten (its lines would be lost)",
                 path, (unsigned long long)st.st_size, DB_MAX_BYTES >> 20);
        err = EFBIG;
    } else if (err == EINVAL) {
        snprintf(why, why_size, "%.300s is not a regular file (a directory, "
                 "a link or a FIFO); not replaced", path);
    } else if (err == ENOENT) {
        err = 0; /* a new file */
    } else if (err) {
        snprintf(why, why_size, "cannot read %.300s (%s); not rewritten",
                 path, strerror(err));
    }
    if (!err) {
        text = db_text(ctx, old, size, k, launch, ms, &len);
        err = text ? clrs__cache_write_file(cfg.dir, name, text, len)
                   : ENOMEM;
        free(text);
        if (err)
            snprintf(why, why_size, "cannot write %.300s (%s)", path,
                     strerror(err));
    }
    free(old);
    clrs__cache_unlock(lock);
    return err;
}
