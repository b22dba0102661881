/* The on-disk program cache's files: key text and SHA-256 names, entry
 * validation on load, atomic writes (temp, fsync, rename), LRU eviction. */

/* F_OFD_SETLK (per open file description locks) is a GNU extension. */
#define _GNU_SOURCE 1

#include "rt/cache.h"
#include "rt/fdio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* SHA-256 and HMAC from GNU Nettle rather than our own code: a hash is
 * easy to get subtly wrong, nettle is maintained and tested, and on
 * Debian libnettle8 is already on every machine (GnuTLS depends on it). */
#include <nettle/hmac.h>
#include <nettle/memops.h>
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

static void sha256_raw(const void *data, size_t n,
                       uint8_t d[SHA256_DIGEST_SIZE]);

void clrs__sha256_hex(const void *data, size_t n, char hex[65])
{
    uint8_t d[SHA256_DIGEST_SIZE];
    int i;

    sha256_raw(data, n, d);
    for (i = 0; i < SHA256_DIGEST_SIZE; ++i)
        sprintf(hex + 2 * i, "%02x", d[i]);
}

static void sha256_raw(const void *data, size_t n,
                       uint8_t d[SHA256_DIGEST_SIZE])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, n, data);
    sha256_digest(&c, SHA256_DIGEST_SIZE, d);
}

/* The MAC of an entry: its header less the MAC itself (magic, format,
 * both lengths, the payload's digest), the key text and the payload. */
static void entry_mac(const unsigned char *secret, const unsigned char *head,
                      const void *key, size_t klen, const void *payload,
                      size_t plen, uint8_t mac[SHA256_DIGEST_SIZE])
{
    struct hmac_sha256_ctx c;
    hmac_sha256_set_key(&c, CLRS_CACHE_SECRET_BYTES, secret);
    hmac_sha256_update(&c, CLRS_CACHE_OFF_MAC, head);
    hmac_sha256_update(&c, CLRS_CACHE_HEADER - CLRS_CACHE_OFF_DIGEST,
                       head + CLRS_CACHE_OFF_DIGEST);
    hmac_sha256_update(&c, klen, key);
    hmac_sha256_update(&c, plen, payload);
    hmac_sha256_digest(&c, SHA256_DIGEST_SIZE, mac);
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
    /* XDG base directory rules: a relative XDG_CACHE_HOME is ignored. A
     * relative CLRS_CACHE_DIR would follow the process's chdir calls, so
     * two contexts could use two caches: refused, and said. */
    if (dir && *dir && dir[0] != '/') {
        snprintf(cfg->dir, sizeof cfg->dir, "%s", dir);
        cfg->relative = 1;
        return;
    }
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

/* The one reader of the directory's files (entries, the secret, the
 * tuning database): path whole into *data (malloc'ed, NUL-terminated) and
 * its fstat into *st. Opened without following a link and without
 * waiting on a FIFO, and only a regular file of at most max bytes is
 * read; 0 or an errno value (ENOENT: none; EINVAL: not such a file). */
static int read_regular(const char *path, size_t max, char **data,
                        size_t *size, struct stat *st)
{
    int fd, err;

    *data = NULL;
    *size = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return errno == ELOOP ? EINVAL : errno;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_size < 0 ||
        (uint64_t)st->st_size > max) {
        close(fd);
        return EINVAL;
    }
    *data = malloc((size_t)st->st_size + 1);
    err = *data ? clrs__read_all(fd, *data, (size_t)st->st_size) : ENOMEM;
    close(fd);
    if (err) {
        free(*data);
        *data = NULL;
        return err;
    }
    (*data)[st->st_size] = '\0';
    *size = (size_t)st->st_size;
    return 0;
}

#define BAD(...) (snprintf(why, why_size, __VA_ARGS__), CLRS_CACHE_BAD)

/* Checks a whole entry in memory; on a hit, *plen is the payload's
 * length, which starts at CLRS_CACHE_HEADER + strlen(key). Every length
 * is checked against the file's size before it is used. */
static clrs_cache_load_result check_entry(const unsigned char *e, size_t n,
                                          const char *key,
                                          const unsigned char *secret,
                                          size_t *plen_out, char *why,
                                          size_t why_size)
{
    uint8_t mac[SHA256_DIGEST_SIZE];
    size_t klen = strlen(key);
    uint64_t stored_klen, plen;
    uint32_t format;

    if (n < CLRS_CACHE_HEADER)
        return BAD("truncated: %zu bytes", n);
    if (memcmp(e, CLRS_CACHE_MAGIC, 8) != 0)
        return BAD("wrong magic");
    format = get_u32(e + CLRS_CACHE_OFF_FORMAT);
    if (format != CLRS_CACHE_FORMAT)
        return BAD("format %u, expected %u", (unsigned)format,
                   CLRS_CACHE_FORMAT);
    stored_klen = get_u64(e + 16);
    plen = get_u64(e + 24);
    /* A foreign key usually differs in length already; the text compare
     * below catches the rest (same hash, other key: never ours). */
    if (stored_klen != klen)
        return BAD("key differs (length %llu, expected %zu)",
                   (unsigned long long)stored_klen, klen);
    /* klen < n here, so n - CLRS_CACHE_HEADER - klen cannot wrap. */
    if (plen == 0 || n - CLRS_CACHE_HEADER < klen ||
        plen != (uint64_t)(n - CLRS_CACHE_HEADER - klen))
        return BAD("size %zu does not match the header", n);
    if (memcmp(e + CLRS_CACHE_HEADER, key, klen) != 0)
        return BAD("key differs");
    /* The binary whole, as stored: its length (above) and its digest. */
    sha256_raw(e + CLRS_CACHE_HEADER + klen, (size_t)plen, mac);
    if (!memeql_sec(mac, e + CLRS_CACHE_OFF_DIGEST, sizeof mac))
        return BAD("the binary's digest differs from the one stored (%llu "
                   "bytes)",
                   (unsigned long long)plen);
    entry_mac(secret, e, e + CLRS_CACHE_HEADER, klen,
              e + CLRS_CACHE_HEADER + klen, (size_t)plen, mac);
    if (!memeql_sec(mac, e + CLRS_CACHE_OFF_MAC, sizeof mac))
        return BAD("MAC mismatch (not written by this cache)");
    *plen_out = (size_t)plen;
    return CLRS_CACHE_HIT;
}

clrs_cache_load_result clrs__cache_load(
    const char *dir, const char *hash, const char *key,
    const unsigned char secret[CLRS_CACHE_SECRET_BYTES],
    unsigned char **payload, size_t *size, char *why, size_t why_size)
{
    char path[4200], dummy[8], *data;
    clrs_cache_load_result r;
    size_t n, plen = 0;
    struct stat st;
    int err;

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
    err = read_regular(path, MAX_ENTRY_BYTES, &data, &n, &st);
    if (err == ENOENT)
        return CLRS_CACHE_MISS;
    if (err == EINVAL)
        return BAD("not a regular file of at most %llu bytes",
                   (unsigned long long)MAX_ENTRY_BYTES);
    if (err)
        return BAD("read: %s", strerror(err));
    r = check_entry((const unsigned char *)data, n, key, secret, &plen, why,
                    why_size);
    if (r != CLRS_CACHE_HIT) {
        free(data);
        return r;
    }
    memmove(data, data + CLRS_CACHE_HEADER + strlen(key), plen);
    *payload = (unsigned char *)data;
    *size = plen;
    /* The LRU clock: a hit makes the entry the newest. Failure (someone
     * else's file in a shared directory) only costs eviction order. */
    (void)utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
    return CLRS_CACHE_HIT;
}

/* rename, except that an empty directory in the way (left by a crashed
 * tool, or made by hand) is removed first: it holds nothing to lose. */
static int replace(const char *from, const char *to)
{
    if (rename(from, to) == 0)
        return 0;
    if (errno != EISDIR && errno != ENOTEMPTY && errno != EEXIST)
        return errno;
    if (rmdir(to) != 0 && errno != ENOENT)
        return errno == ENOTEMPTY || errno == EEXIST ? EISDIR : errno;
    return rename(from, to) == 0 ? 0 : errno;
}

/* Writes the parts to a new temp file named from tmpl (mkstemp: a
 * unique name, created 0600, so concurrent writers never share one),
 * fsyncs it and renames it over path, or with exclusive links it to path
 * where nothing is there yet (EEXIST when something is); 0 or an errno
 * value (the temp file is gone either way). fsync before rename: after a
 * crash the name points at the whole file or at the old one, never at a
 * half-written one. */
static int write_atomic(char *tmpl, const char *path, const void *const *part,
                        const size_t *len, int nparts, int exclusive)
{
    struct flock lk;
    int fd = mkstemp(tmpl), err = 0, i;

    if (fd < 0)
        return errno;
    /* The temp file stays locked while its name exists, so that a sweep
     * (clrs__cache_sweep) can tell a live writer's file from a dead
     * one's. Without a lock (a file system that has none) the file is
     * swept only once it is an hour old. */
    memset(&lk, 0, sizeof lk);
    lk.l_type = F_WRLCK;
    lk.l_whence = SEEK_SET;
    (void)fcntl(fd, F_OFD_SETLK, &lk);
    for (i = 0; i < nparts && !err; ++i)
        err = clrs__write_all(fd, part[i], len[i]);
    if (!err && fsync(fd) != 0)
        err = errno;
    if (!err && exclusive)
        err = link(tmpl, path) == 0 ? 0 : errno;
    else if (!err)
        err = replace(tmpl, path);
    if (err || exclusive)
        unlink(tmpl);
    /* The name is gone: the lock goes with the descriptor. */
    if (close(fd) != 0 && !err)
        err = errno;
    return err;
}

/* ---- the secret ---------------------------------------------------------- */

static int random_bytes(unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t r = getrandom(p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* A fresh secret at dir/secret: linked into place where there is none
 * (two processes creating one at once agree on the first), renamed over
 * an unusable one. */
static int new_secret(const char *dir, int replace_old)
{
    unsigned char s[CLRS_CACHE_SECRET_BYTES];
    char tmp[4200], path[4200];
    const void *part = s;
    size_t len = sizeof s;
    int err;

    if (snprintf(path, sizeof path, "%s/" CLRS_CACHE_SECRET_NAME, dir) >=
            (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/tmp-secret-XXXXXX", dir) >=
            (int)sizeof tmp)
        return ENAMETOOLONG;
    if ((err = random_bytes(s, sizeof s)) != 0)
        return err;
    err = write_atomic(tmp, path, &part, &len, 1, !replace_old);
    return err == EEXIST ? 0 : err;
}

int clrs__cache_secret(const char *dir,
                       unsigned char secret[CLRS_CACHE_SECRET_BYTES])
{
    char path[4200], *data;
    struct stat st;
    size_t size;
    int tries, err;

    if (snprintf(path, sizeof path, "%s/" CLRS_CACHE_SECRET_NAME, dir) >=
        (int)sizeof path)
        return ENAMETOOLONG;
    for (tries = 0; tries < 3; ++tries) {
        err = read_regular(path, 4 * CLRS_CACHE_SECRET_BYTES, &data, &size,
                           &st);
        if (!err && size == CLRS_CACHE_SECRET_BYTES &&
            st.st_uid == geteuid() && (st.st_mode & 077) == 0) {
            memcpy(secret, data, CLRS_CACHE_SECRET_BYTES);
            free(data);
            return 0;
        }
        free(data);
        if (err && err != ENOENT && err != EINVAL)
            return err;
        /* Missing, or not a secret only we can read: a new one. */
        if ((err = new_secret(dir, err != ENOENT)) != 0)
            return err;
    }
    return EAGAIN;
}

/* ---- writing ------------------------------------------------------------- */

static uint64_t evict_to(const char *dir, uint64_t max_bytes, uint64_t need,
                         const char *keep);

static int store_once(const char *dir, const char *hash, const char *key,
                      const unsigned char *secret, const void *payload,
                      size_t size, unsigned format)
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
    sha256_raw(payload, size, h + CLRS_CACHE_OFF_DIGEST);
    entry_mac(secret, h, key, strlen(key), payload, size,
              h + CLRS_CACHE_OFF_MAC);
    part[0] = h;
    len[0] = sizeof h;
    part[1] = key;
    len[1] = strlen(key);
    part[2] = payload;
    len[2] = size;
    return write_atomic(tmp, path, part, len, 3, 0);
}

int clrs__cache_store(const char *dir, const char *hash, const char *key,
                      const unsigned char secret[CLRS_CACHE_SECRET_BYTES],
                      const void *payload, size_t size, unsigned format)
{
    uint64_t need = CLRS_CACHE_HEADER + strlen(key) + (uint64_t)size;
    int err = store_once(dir, hash, key, secret, payload, size, format), i;

    /* A full disk: make room by evicting the oldest entries (the entry's
     * size, then twice and four times that, for the file system's blocks)
     * and try again; nothing left to evict, or too little to make room
     * (then nothing is evicted), is a real failure. */
    for (i = 0; i < 3 && (err == ENOSPC || err == EDQUOT); ++i) {
        if (evict_to(dir, UINT64_MAX, need << i, hash) == 0)
            break;
        err = store_once(dir, hash, key, secret, payload, size, format);
    }
    return err;
}

int clrs__cache_entry_error(int err)
{
    /* EISDIR: replace() met a directory it could not remove. (ENOTDIR
     * means the cache directory itself is not one any more.) */
    return err == EISDIR || err == ENOTEMPTY || err == EEXIST ||
           err == ETXTBSY || err == EBUSY;
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

typedef struct evict_list {
    evict_item *v;
    size_t n, cap;
    uint64_t total;
} evict_list;

/* Whether temp file `name` (st its lstat) belongs to a writer that is
 * gone: no lock on it (write_atomic holds one while the name exists) and
 * at least TEMP_GRACE_S old, so that a file between its creation and its
 * lock is never taken; or an hour old, whatever its lock (a writer
 * finishes in well under a minute; a file system without locks). */
#define TEMP_GRACE_S 2
static int temp_abandoned(int dfd, const char *name, const struct stat *st,
                          time_t now)
{
    struct flock lk;
    int fd, free_of_lock;

    if (now - st->st_mtime > 3600)
        return 1;
    if (now - st->st_mtime < TEMP_GRACE_S)
        return 0;
    fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    memset(&lk, 0, sizeof lk);
    lk.l_type = F_RDLCK;
    lk.l_whence = SEEK_SET;
    free_of_lock = fcntl(fd, F_OFD_SETLK, &lk) == 0;
    close(fd);
    return free_of_lock;
}

/* 1 when `name` is a temp file's (tmp-*), which is removed if it is a
 * regular file its writer abandoned; 0 for any other name. */
static int sweep_temp(int dfd, const char *name, time_t now)
{
    struct stat st;
    if (strncmp(name, "tmp-", 4) != 0)
        return 0;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(st.st_mode) && temp_abandoned(dfd, name, &st, now))
        unlinkat(dfd, name, 0);
    return 1;
}

/* The directory's entries with their sizes and times; temp files a
 * dead writer left behind are removed on the way. */
static void list_entries(DIR *dp, evict_list *l)
{
    int dfd = dirfd(dp);
    time_t now = time(NULL);
    struct dirent *d;

    while ((d = readdir(dp)) != NULL) {
        struct stat st;
        if (sweep_temp(dfd, d->d_name, now) ||
            fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (!is_entry_name(d->d_name))
            continue;
        if (l->n == l->cap) {
            size_t ncap = l->cap ? 2 * l->cap : 64;
            evict_item *p = realloc(l->v, ncap * sizeof *p);
            if (!p)
                return; /* evict what we have seen */
            l->v = p;
            l->cap = ncap;
        }
        /* is_entry_name: exactly 64 + 5 characters, so it fits. */
        memcpy(l->v[l->n].name, d->d_name, 64 + sizeof CLRS_CACHE_SUFFIX);
        l->v[l->n].bytes = (uint64_t)st.st_size;
        l->v[l->n].mtime = st.st_mtim;
        l->total += l->v[l->n].bytes;
        ++l->n;
    }
}

/* Whether removing every entry but keep_name of l would leave room for
 * need bytes on dir's file system (each file counted in whole blocks).
 * Unknown (no statvfs) counts as yes; a quota (EDQUOT) is not seen
 * here, so there the eviction simply goes ahead. */
static int room_after(const char *dir, const evict_list *l, uint64_t need,
                      const char *keep_name)
{
    struct statvfs fs;
    uint64_t bs, have;
    size_t i;

    if (statvfs(dir, &fs) != 0)
        return 1;
    bs = fs.f_frsize ? (uint64_t)fs.f_frsize : (uint64_t)fs.f_bsize;
    if (!bs)
        return 1;
    have = (uint64_t)fs.f_bavail * bs;
    for (i = 0; i < l->n && have < need; ++i)
        if (strcmp(l->v[i].name, keep_name) != 0)
            have += (l->v[i].bytes + bs - 1) / bs * bs;
    return have >= (need + bs - 1) / bs * bs;
}

/* Deletes the least recently used entries but keep until the total is at
 * most max_bytes and at least need bytes were freed, where that would
 * make room for need bytes (nothing is deleted that leaves the new entry
 * without room); returns the bytes freed. */
static uint64_t evict_to(const char *dir, uint64_t max_bytes, uint64_t need,
                         const char *keep)
{
    char keep_name[80];
    evict_list l = {NULL, 0, 0, 0};
    uint64_t target, freed = 0;
    size_t i;
    DIR *dp;

    snprintf(keep_name, sizeof keep_name, "%s" CLRS_CACHE_SUFFIX,
             keep ? keep : "");
    dp = opendir(dir);
    if (!dp)
        return 0;
    list_entries(dp, &l);
    if (need && !room_after(dir, &l, need, keep_name)) {
        closedir(dp);
        free(l.v);
        return 0;
    }
    target = l.total > need ? l.total - need : 0;
    if (target > max_bytes)
        target = max_bytes;
    if (l.total > target && l.n > 0) {
        qsort(l.v, l.n, sizeof *l.v, older);
        for (i = 0; i < l.n && l.total - freed > target; ++i) {
            if (strcmp(l.v[i].name, keep_name) == 0)
                continue;
            /* ENOENT: another process evicted it first; still gone. */
            if (unlinkat(dirfd(dp), l.v[i].name, 0) == 0 || errno == ENOENT)
                freed += l.v[i].bytes;
        }
    }
    closedir(dp);
    free(l.v);
    return freed;
}

void clrs__cache_evict(const char *dir, uint64_t max_bytes,
                       const char *keep)
{
    evict_to(dir, max_bytes, 0, keep);
}

void clrs__cache_sweep(const char *dir)
{
    time_t now = time(NULL);
    struct dirent *d;
    DIR *dp = opendir(dir);

    if (!dp)
        return;
    while ((d = readdir(dp)) != NULL)
        sweep_temp(dirfd(dp), d->d_name, now);
    closedir(dp);
}

/* ---- cross-process lock ------------------------------------------------ */

/* dir/lock opened for locking: created 0600 when missing; a link, FIFO or
 * directory in its place gives no lock rather than a hang. */
static int open_lock_file(const char *dir)
{
    char path[4200];
    struct stat st;
    int fd;

    if (snprintf(path, sizeof path, "%s/lock", dir) >= (int)sizeof path)
        return -1;
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
              0600);
    if (fd < 0)
        return -1; /* errno: EISDIR, ELOOP (a link), EACCES, ... */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

int clrs__cache_lock(const char *dir, const char *hash, int timeout_ms)
{
    char head[8];
    struct flock fl;
    unsigned long byte;
    int fd, waited = 0, step = 1;

    fd = open_lock_file(dir);
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
        if (errno != EAGAIN && errno != EACCES)
            break;
        if (waited >= timeout_ms) {
            errno = ETIMEDOUT;
            break;
        }
        {
            struct timespec ts = {0, (long)step * 1000000L};
            nanosleep(&ts, NULL);
        }
        waited += step;
        if (step < 16)
            step *= 2;
    }
    {
        int err = errno;
        close(fd);
        errno = err;
    }
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

    *data = NULL;
    *size = 0;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return ENAMETOOLONG;
    return read_regular(path, max, data, size, &st);
}

int clrs__cache_write_file(const char *dir, const char *name,
                           const void *data, size_t size)
{
    char tmp[4200], path[4200];

    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/tmp-%.24s-XXXXXX", dir, name) >=
            (int)sizeof tmp)
        return ENAMETOOLONG;
    return write_atomic(tmp, path, &data, &size, 1, 0);
}
