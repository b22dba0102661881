/* The on-disk program cache's files: key text and SHA-256 names, entry
 * validation on load, atomic writes (temp, fsync, rename), LRU eviction. */

/* F_OFD_SETLK (per open file description locks) is a GNU extension. */
#define _GNU_SOURCE 1

#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* SHA-256 from GNU Nettle rather than our own code: a hash is easy to get
 * subtly wrong, nettle is maintained and tested, and on Debian libnettle8
 * is already on every machine (GnuTLS depends on it). */
#include <nettle/sha2.h>

/* Entries larger than this are not ours (a PoCL binary is well under a
 * megabyte): refuse before allocating. */
#define MAX_ENTRY_BYTES ((uint64_t)1 << 30)

/* ---- key --------------------------------------------------------------- */

static size_t field_len(const char *name, const char *v)
{
    return strlen(name) + 24 + (v ? strlen(v) : 0);
}

static char *put_field(char *p, const char *name, const char *v)
{
    size_t n = v ? strlen(v) : 0;
    p += sprintf(p, "%s=%zu:", name, n);
    if (n)
        memcpy(p, v, n);
    p += n;
    *p++ = '\n';
    return p;
}

char *clrs__cache_key_text(const clrs_cache_key_fields *f)
{
    const char *names[] = {"library",        "options",      "platform",
                           "platform_version", "device",     "vendor",
                           "device_version", "driver",       "source"};
    const char *vals[9];
    char fmt[16], *text, *p;
    size_t total, i;

    vals[0] = f->library_version;
    vals[1] = f->options;
    vals[2] = f->platform_name;
    vals[3] = f->platform_version;
    vals[4] = f->device_name;
    vals[5] = f->device_vendor;
    vals[6] = f->device_version;
    vals[7] = f->driver_version;
    vals[8] = f->source; /* last: the long one */
    snprintf(fmt, sizeof fmt, "%u", f->format);
    total = 64 + field_len("format", fmt);
    for (i = 0; i < 9; ++i)
        total += field_len(names[i], vals[i]);
    text = malloc(total);
    if (!text)
        return NULL;
    p = text + sprintf(text, "clresample program cache key\n");
    p = put_field(p, "format", fmt);
    for (i = 0; i < 9; ++i)
        p = put_field(p, names[i], vals[i]);
    *p = '\0';
    return text;
}

void clrs__sha256_hex(const void *data, size_t n, char hex[65])
{
    struct sha256_ctx c;
    uint8_t d[SHA256_DIGEST_SIZE];
    int i;

    sha256_init(&c);
    sha256_update(&c, n, data);
    sha256_digest(&c, sizeof d, d);
    for (i = 0; i < SHA256_DIGEST_SIZE; ++i)
        sprintf(hex + 2 * i, "%02x", d[i]);
}

static void sha256_raw(const void *data, size_t n, uint8_t d[32])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, n, data);
    sha256_digest(&c, SHA256_DIGEST_SIZE, d);
}

/* ---- configuration ----------------------------------------------------- */

void clrs__cache_config_from_env(clrs_cache_config *cfg)
{
    const char *off = getenv("CLRS_CACHE");
    const char *dir = getenv("CLRS_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    const char *mb = getenv("CLRS_CACHE_MAX_MB");
    int n = -1;

    memset(cfg, 0, sizeof *cfg);
    cfg->max_bytes = (uint64_t)(CLRS_CACHE_DEFAULT_MB * 1048576.0);
    if (mb && *mb) {
        /* Fractions allowed (tests use a tiny cap); nonsense keeps the
         * default rather than disabling anything. */
        char *end;
        double v = strtod(mb, &end);
        if (*end == '\0' && v > 0 && v < 1e9)
            cfg->max_bytes = (uint64_t)(v * 1048576.0);
    }
    if (off && strcmp(off, "0") == 0)
        return;
    /* XDG base directory rules: a relative XDG_CACHE_HOME is ignored. */
    if (dir && *dir)
        n = snprintf(cfg->dir, sizeof cfg->dir, "%s", dir);
    else if (xdg && xdg[0] == '/')
        n = snprintf(cfg->dir, sizeof cfg->dir, "%s/clresample", xdg);
    else if (home && home[0] == '/')
        n = snprintf(cfg->dir, sizeof cfg->dir, "%s/.cache/clresample",
                     home);
    /* Room left for "/<64 hex>.clrs" and temp names. */
    if (n <= 0 || (size_t)n + 100 >= sizeof cfg->dir)
        return;
    while (n > 1 && cfg->dir[n - 1] == '/')
        cfg->dir[--n] = '\0';
    cfg->enabled = 1;
}

int clrs__cache_mkdir(const char *dir)
{
    char path[4096];
    struct stat st;
    size_t i, n = strlen(dir);

    if (n == 0 || n >= sizeof path)
        return ENAMETOOLONG;
    memcpy(path, dir, n + 1);
    /* Each prefix in turn: mkdir -p, every new level 0700 (XDG asks the
     * same of the base directory). */
    for (i = 1; i <= n; ++i) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        path[i] = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            return errno;
        path[i] = i < n ? '/' : '\0';
    }
    if (stat(dir, &st) != 0)
        return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

/* ---- entries ----------------------------------------------------------- */

static void put_u32(unsigned char *p, uint32_t v)
{
    int i;
    for (i = 0; i < 4; ++i)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; ++i)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

static int entry_path(char *buf, size_t size, const char *dir,
                      const char *hash)
{
    int n = snprintf(buf, size, "%s/%s" CLRS_CACHE_SUFFIX, dir, hash);
    return n > 0 && (size_t)n < size;
}

/* Reads exactly n bytes unless the file ends first; 0 or an errno value
 * (EIO for a short read). */
static int read_all(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0)
            return EIO;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

#define BAD(...) (snprintf(why, why_size, __VA_ARGS__), CLRS_CACHE_BAD)

/* Everything but opening and closing, so load has one close. */
static clrs_cache_load_result load_fd(int fd, const char *key,
                                      unsigned char **payload, size_t *size,
                                      char *why, size_t why_size)
{
    unsigned char h[CLRS_CACHE_HEADER], sum[32];
    size_t klen = strlen(key);
    uint64_t stored_klen, plen;
    struct stat st;
    unsigned char *buf;
    uint32_t format;
    int err;

    if (fstat(fd, &st) != 0)
        return BAD("fstat: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return BAD("not a regular file");
    if ((uint64_t)st.st_size < CLRS_CACHE_HEADER)
        return BAD("truncated: %lld bytes", (long long)st.st_size);
    if ((err = read_all(fd, h, sizeof h)) != 0)
        return BAD("read: %s", strerror(err));
    if (memcmp(h, CLRS_CACHE_MAGIC, 8) != 0)
        return BAD("wrong magic");
    format = get_u32(h + CLRS_CACHE_OFF_FORMAT);
    if (format != CLRS_CACHE_FORMAT)
        return BAD("format %u, expected %u", (unsigned)format,
                   CLRS_CACHE_FORMAT);
    stored_klen = get_u64(h + 16);
    plen = get_u64(h + 24);
    /* A foreign key usually differs in length already; the text compare
     * below catches the rest (same hash, other key: never ours). */
    if (stored_klen != klen)
        return BAD("key differs (length %llu, expected %zu)",
                   (unsigned long long)stored_klen, klen);
    if (plen == 0 || plen > MAX_ENTRY_BYTES ||
        (uint64_t)st.st_size != CLRS_CACHE_HEADER + klen + plen)
        return BAD("size %lld does not match the header",
                   (long long)st.st_size);
    buf = malloc(klen + (size_t)plen);
    if (!buf)
        return BAD("out of memory");
    if ((err = read_all(fd, buf, klen + (size_t)plen)) != 0) {
        free(buf);
        return BAD("read: %s", strerror(err));
    }
    if (memcmp(buf, key, klen) != 0) {
        free(buf);
        return BAD("key differs");
    }
    sha256_raw(buf + klen, (size_t)plen, sum);
    if (memcmp(sum, h + 32, 32) != 0) {
        free(buf);
        return BAD("payload checksum mismatch");
    }
    memmove(buf, buf + klen, (size_t)plen);
    *payload = buf;
    *size = (size_t)plen;
    /* The LRU clock: a hit makes the entry the newest. Failure (someone
     * else's file in a shared directory) only costs eviction order. */
    (void)futimens(fd, NULL);
    return CLRS_CACHE_HIT;
}

clrs_cache_load_result clrs__cache_load(const char *dir, const char *hash,
                                        const char *key,
                                        unsigned char **payload,
                                        size_t *size, char *why,
                                        size_t why_size)
{
    char path[4200], dummy[8];
    clrs_cache_load_result r;
    int fd;

    *payload = NULL;
    *size = 0;
    if (!why) {
        why = dummy;
        why_size = sizeof dummy;
    }
    if (why_size)
        why[0] = '\0';
    if (!entry_path(path, sizeof path, dir, hash))
        return CLRS_CACHE_MISS;
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT)
            return CLRS_CACHE_MISS;
        return BAD("open: %s", strerror(errno));
    }
    r = load_fd(fd, key, payload, size, why, why_size);
    close(fd);
    return r;
}

/* Writes the parts to a new temp file named from tmpl (mkstemp: a
 * unique name, created 0600, so concurrent writers never share one),
 * fsyncs it and renames it over path; 0 or an errno value (the temp file
 * is gone either way). fsync before rename: after a crash the name points
 * at the whole file or at the old one, never at a half-written one. */
static int write_atomic(char *tmpl, const char *path, const void *const *part,
                        const size_t *len, int nparts)
{
    int fd = mkstemp(tmpl), err = 0, i;

    if (fd < 0)
        return errno;
    for (i = 0; i < nparts && !err; ++i)
        err = write_all(fd, part[i], len[i]);
    if (!err && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmpl, path) != 0)
        err = errno;
    if (err)
        unlink(tmpl);
    return err;
}

int clrs__cache_store(const char *dir, const char *hash, const char *key,
                      const void *payload, size_t size, unsigned format)
{
    char tmp[4200], path[4200];
    unsigned char h[CLRS_CACHE_HEADER];
    const void *part[3];
    size_t len[3];

    if (!entry_path(path, sizeof path, dir, hash) ||
        snprintf(tmp, sizeof tmp, "%s/tmp-%.16s-XXXXXX", dir, hash) >=
            (int)sizeof tmp)
        return ENAMETOOLONG;
    memset(h, 0, sizeof h);
    memcpy(h, CLRS_CACHE_MAGIC, 8);
    put_u32(h + CLRS_CACHE_OFF_FORMAT, format);
    put_u64(h + 16, strlen(key));
    put_u64(h + 24, size);
    sha256_raw(payload, size, h + 32);
    part[0] = h;
    len[0] = sizeof h;
    part[1] = key;
    len[1] = strlen(key);
    part[2] = payload;
    len[2] = size;
    return write_atomic(tmp, path, part, len, 3);
}

/* ---- eviction ---------------------------------------------------------- */

typedef struct evict_item {
    char name[80];
    uint64_t bytes;
    struct timespec mtime;
} evict_item;

static int older(const void *a, const void *b)
{
    const evict_item *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int is_entry_name(const char *s)
{
    size_t i;
    for (i = 0; i < 64; ++i)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return strcmp(s + 64, CLRS_CACHE_SUFFIX) == 0;
}

void clrs__cache_evict(const char *dir, uint64_t max_bytes,
                       const char *keep)
{
    char keep_name[80];
    evict_item *items = NULL;
    size_t n = 0, cap = 0, i;
    uint64_t total = 0;
    struct dirent *d;
    time_t now = time(NULL);
    DIR *dp;
    int dfd;

    snprintf(keep_name, sizeof keep_name, "%s" CLRS_CACHE_SUFFIX,
             keep ? keep : "");
    dp = opendir(dir);
    if (!dp)
        return;
    dfd = dirfd(dp);
    while ((d = readdir(dp)) != NULL) {
        struct stat st;
        if (fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (strncmp(d->d_name, "tmp-", 4) == 0) {
            /* A writer finishes in well under a minute; an hour-old temp
             * file belongs to a process that died mid-write. */
            if (now - st.st_mtime > 3600)
                unlinkat(dfd, d->d_name, 0);
            continue;
        }
        if (!is_entry_name(d->d_name))
            continue;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            evict_item *p = realloc(items, ncap * sizeof *p);
            if (!p)
                break; /* evict what we have seen */
            items = p;
            cap = ncap;
        }
        /* is_entry_name: exactly 64 + 5 characters, so it fits. */
        memcpy(items[n].name, d->d_name, 64 + sizeof CLRS_CACHE_SUFFIX);
        items[n].bytes = (uint64_t)st.st_size;
        items[n].mtime = st.st_mtim;
        total += items[n].bytes;
        ++n;
    }
    if (total > max_bytes && n > 0) {
        qsort(items, n, sizeof *items, older);
        for (i = 0; i < n && total > max_bytes; ++i) {
            if (strcmp(items[i].name, keep_name) == 0)
                continue;
            /* ENOENT: another process evicted it first; still gone. */
            if (unlinkat(dfd, items[i].name, 0) == 0 || errno == ENOENT)
                total -= items[i].bytes;
        }
    }
    closedir(dp);
    free(items);
}

/* ---- cross-process lock ------------------------------------------------ */

int clrs__cache_lock(const char *dir, const char *hash, int timeout_ms)
{
    char path[4200], head[8];
    struct flock fl;
    unsigned long byte;
    int fd, waited = 0, step = 1;

    if (snprintf(path, sizeof path, "%s/lock", dir) >= (int)sizeof path)
        return -1;
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    /* One byte per key (the first 7 hex digits of its hash): keys of
     * different configurations rarely share a byte, so their builds run
     * in parallel; a shared byte only serialises two builds. */
    snprintf(head, sizeof head, "%.7s", hash);
    byte = strtoul(head, NULL, 16);
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)byte;
    fl.l_len = 1;
    /* Polling rather than F_OFD_SETLKW: a stuck holder (a stopped
     * process) must not hang the caller forever. OFD locks, not classic
     * POSIX ones, so two contexts of one process exclude each other and
     * closing one descriptor does not drop the other's lock. */
    for (;;) {
#ifdef F_OFD_SETLK
        if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
            return fd;
#else
        if (fcntl(fd, F_SETLK, &fl) == 0)
            return fd;
#endif
        if ((errno != EAGAIN && errno != EACCES) || waited >= timeout_ms)
            break;
        {
            struct timespec ts = {0, (long)step * 1000000L};
            nanosleep(&ts, NULL);
        }
        waited += step;
        if (step < 16)
            step *= 2;
    }
    close(fd);
    return -1;
}

void clrs__cache_unlock(int fd)
{
    /* Closing the descriptor releases its lock. */
    if (fd >= 0)
        close(fd);
}

int clrs__cache_read_file(const char *dir, const char *name, size_t max,
                          char **data, size_t *size)
{
    char path[4200];
    struct stat st;
    int fd, err;

    *data = NULL;
    *size = 0;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return ENAMETOOLONG;
    /* No following a link, no waiting on a FIFO: only a regular file. */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return errno;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
        (uint64_t)st.st_size > max) {
        close(fd);
        return EINVAL;
    }
    *data = malloc((size_t)st.st_size + 1);
    err = *data ? read_all(fd, *data, (size_t)st.st_size) : ENOMEM;
    close(fd);
    if (err) {
        free(*data);
        *data = NULL;
        return err;
    }
    (*data)[st.st_size] = '\0';
    *size = (size_t)st.st_size;
    return 0;
}

int clrs__cache_write_file(const char *dir, const char *name,
                           const void *data, size_t size)
{
    char tmp[4200], path[4200];

    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/tmp-%.24s-XXXXXX", dir, name) >=
            (int)sizeof tmp)
        return ENAMETOOLONG;
    return write_atomic(tmp, path, &data, &size, 1);
}
