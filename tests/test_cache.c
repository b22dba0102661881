/* The program cache: key fields, damaged, forged (with the secret too)
 * and non-file entries rebuilt and replaced without their bytes reaching
 * the driver, read-only
 * directories, a stuck lock, 8 processes and 8 threads at once, LRU
 * eviction, a full disk, the environment. */

/* Compiled together with lib/rt/cache.c (Makefile.am) to reach the key and
 * entry functions, which the shared library does not export. Every cache
 * directory lives under $CLRS_CACHE_DIR (the suite points it into the
 * build tree) or, when that is unset, under ./tests/. */
/* F_OFD_SETLK (the stuck lock) and RTLD_NEXT are GNU extensions. */
#define _GNU_SOURCE 1

#include "rt/cache.h"
#include "clresample.h"
#include "tap.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <nettle/hmac.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NPROC 8
#define NTHREAD 8

static char base[2048];

/* ---- a disk that fills up ------------------------------------------------ */

/* The program links with -Wl,--wrap=write, so every write() of lib/rt/cache.c
 * compiled into it comes here (stdio's do not): with full_dir set, a
 * write that would take the regular files in that directory past
 * full_limit bytes fails with ENOSPC, as on a full file system. */
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static char full_dir[4096];
static uint64_t full_limit;

static uint64_t dir_bytes(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    uint64_t total = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode))
            total += (uint64_t)st.st_size;
    }
    closedir(d);
    return total;
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
    if (full_dir[0] && dir_bytes(full_dir) + n > full_limit) {
        errno = ENOSPC;
        return -1;
    }
    return __real_write(fd, buf, n);
}

/* The same disk as statvfs sees it (with -Wl,--wrap=statvfs): blocks of
 * one byte, full_limit of them, what the directory does not hold free. */
int __real_statvfs(const char *path, struct statvfs *fs);
int __wrap_statvfs(const char *path, struct statvfs *fs);

int __wrap_statvfs(const char *path, struct statvfs *fs)
{
    uint64_t used;
    int r = __real_statvfs(path, fs);

    if (r != 0 || !full_dir[0])
        return r;
    used = dir_bytes(full_dir);
    fs->f_bsize = fs->f_frsize = 1;
    fs->f_blocks = (fsblkcnt_t)full_limit;
    fs->f_bfree = fs->f_bavail =
        (fsblkcnt_t)(full_limit > used ? full_limit - used : 0);
    return 0;
}

/* ---- what reaches the driver ---------------------------------------------- */

/* The library's clCreateProgramWithBinary calls come here first (the
 * program's own definition precedes libOpenCL's), so the damaged entries
 * can check that no bytes but a stored entry's reach the driver. While
 * watching, each binary handed on is counted, and junk[] (the payload of
 * an entry this cache stored itself, a binary the driver must reject) is
 * counted apart. Mesa's rusticl aborts on such a binary ("unknown
 * version", core/program.rs) instead of returning CL_INVALID_BINARY: on
 * it, junk[] is refused here with the error the driver should give. */
static const char junk[] = "this is not a program binary";
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static int watching, refuse_junk, handed, handed_junk;

typedef cl_program(CL_API_CALL *create_with_binary_fn)(
    cl_context, cl_uint, const cl_device_id *, const size_t *,
    const unsigned char **, cl_int *, cl_int *);

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *devices,
    const size_t *lengths, const unsigned char **binaries,
    cl_int *binary_status, cl_int *errcode_ret) CL_API_SUFFIX__VERSION_1_0
{
    static create_with_binary_fn real;
    int is_junk = num_devices == 1 && lengths && binaries &&
                  lengths[0] == sizeof junk &&
                  memcmp(binaries[0], junk, sizeof junk) == 0;

    pthread_mutex_lock(&seen_lock);
    if (watching) {
        ++handed;
        handed_junk += is_junk;
    }
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clCreateProgramWithBinary");
    pthread_mutex_unlock(&seen_lock);
    if ((is_junk && refuse_junk) || !real) {
        if (binary_status)
            binary_status[0] = CL_INVALID_BINARY;
        if (errcode_ret)
            *errcode_ret = real ? CL_INVALID_BINARY : CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    return real(context, num_devices, devices, lengths, binaries,
                binary_status, errcode_ret);
}

/* ---- helpers ------------------------------------------------------------ */

static void rm_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        tap_diag("cannot remove %s", dir);
}

/* A fresh empty directory base/name, made the cache of contexts created
 * from now on. */
static void use_dir(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", base, name);
    rm_tree(out);
    mkdir(out, 0700);
    setenv("CLRS_CACHE_DIR", out, 1);
}

/* One of a few forward configurations, each its own kernel. */
static clrs_status make_plan(clrs_context *ctx, int which, clrs_plan **plan,
                             clrs_cache_source *src)
{
    static const clrs_mode modes[] = {CLRS_MODE_NEAREST, CLRS_MODE_LINEAR,
                                      CLRS_MODE_CUBIC, CLRS_MODE_LINEAR};
    const int64_t in[4] = {1, 3, 6, 5}, out[4] = {1, 3, 12, 10};
    clrs_tensor_desc *a = NULL, *b = NULL;
    clrs_resample_desc *op = NULL;
    clrs_plan_info info;
    clrs_status st;

    *plan = NULL;
    st = clrs_tensor_desc_create_tag(&a, CLRS_F32, 4, in,
                                     which == 3 ? CLRS_TAG_AXB
                                                : CLRS_TAG_ABX);
    if (st >= 0)
        st = clrs_tensor_desc_create_tag(&b, CLRS_F32, 4, out,
                                         which == 3 ? CLRS_TAG_AXB
                                                    : CLRS_TAG_ABX);
    if (st >= 0)
        st = clrs_resample_desc_create(&op, modes[which % 4]);
    if (st >= 0)
        st = clrs_plan_create_forward(plan, ctx, op, a, b, NULL);
    if (st >= 0 && src) {
        st = clrs_plan_get_info(*plan, &info);
        *src = info.cache;
    }
    clrs_resample_desc_destroy(op);
    clrs_tensor_desc_destroy(a);
    clrs_tensor_desc_destroy(b);
    return st;
}

/* Where a fresh context gets configuration `which` from. */
static clrs_cache_source source_in_new_ctx(int which, clrs_status *st_out)
{
    clrs_context *ctx = NULL;
    clrs_plan *plan = NULL;
    clrs_cache_source src = (clrs_cache_source)-1;
    clrs_status st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, which, &plan, &src);
    clrs_plan_destroy(plan);
    clrs_context_destroy(ctx);
    if (st_out)
        *st_out = st;
    return st >= 0 ? src : (clrs_cache_source)-1;
}

static const char *sname(clrs_cache_source s)
{
    const char *n = clrs_cache_source_name(s);
    return n ? n : "(failed)";
}

/* Names in dir: entries (*.clrs), temp files (tmp-*), others. */
typedef struct listing {
    int entries, temps, others;
    char names[16][80];
} listing;

static void list_dir(const char *dir, listing *l)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    memset(l, 0, sizeof *l);
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, "lock") == 0 ||
            strcmp(e->d_name, CLRS_CACHE_SECRET_NAME) == 0)
            continue;
        if (n > 5 && strcmp(e->d_name + n - 5, CLRS_CACHE_SUFFIX) == 0) {
            if (l->entries < 16)
                snprintf(l->names[l->entries], sizeof l->names[0], "%s",
                         e->d_name);
            l->entries++;
        } else if (strncmp(e->d_name, "tmp-", 4) == 0) {
            l->temps++;
        } else {
            l->others++;
        }
    }
    closedir(d);
}

static int read_file(const char *path, unsigned char **buf, size_t *n)
{
    FILE *f = fopen(path, "rb");
    long len;
    *buf = NULL;
    *n = 0;
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    *buf = malloc(len > 0 ? (size_t)len : 1);
    if (*buf && fread(*buf, 1, (size_t)len, f) == (size_t)len)
        *n = (size_t)len;
    fclose(f);
    return *n == (size_t)len ? 0 : -1;
}

static int write_file(const char *path, const void *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f)
        return -1;
    ok = fwrite(buf, 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    return ok ? 0 : -1;
}

/* ---- key ---------------------------------------------------------------- */

static void key_fields(void)
{
    clrs_cache_key_fields f = {CLRS_CACHE_FORMAT, "0.1.0", "kernel src",
                               "-O2", "Portable CL", "OpenCL 3.0 PoCL",
                               "cpu", "GenuineIntel", "OpenCL 3.0",
                               "3.1"};
    const char **fields[] = {&f.library_version, &f.source, &f.options,
                             &f.platform_name, &f.platform_version,
                             &f.device_name, &f.device_vendor,
                             &f.device_version, &f.driver_version};
    static const char *const names[] = {"library", "source", "options",
                                        "platform name", "platform version",
                                        "device name", "device vendor",
                                        "device version", "driver version"};
    char h0[65], h1[65], *t0, *t1;
    size_t i;
    int same;

    t0 = clrs__cache_key_text(&f);
    t1 = clrs__cache_key_text(&f);
    clrs__sha256_hex(t0, strlen(t0), h0);
    clrs__sha256_hex(t1, strlen(t1), h1);
    tap_ok(strcmp(t0, t1) == 0 && strcmp(h0, h1) == 0,
           "same fields give the same key text and hash");
    free(t1);
    /* Known answer: SHA-256("abc"). */
    clrs__sha256_hex("abc", 3, h1);
    tap_ok(strcmp(h1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410"
                      "ff61f20015ad") == 0,
           "SHA-256(\"abc\") is the FIPS 180-2 value");

    f.format = CLRS_CACHE_FORMAT + 1;
    t1 = clrs__cache_key_text(&f);
    clrs__sha256_hex(t1, strlen(t1), h1);
    tap_ok(strcmp(h0, h1) != 0, "the format version changes the key");
    free(t1);
    f.format = CLRS_CACHE_FORMAT;
    for (i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        const char *keep = *fields[i];
        *fields[i] = "something else";
        t1 = clrs__cache_key_text(&f);
        clrs__sha256_hex(t1, strlen(t1), h1);
        tap_ok(strcmp(h0, h1) != 0, "the %s changes the key", names[i]);
        free(t1);
        *fields[i] = keep;
    }
    /* A value cannot imitate the next field (length-prefixed fields). */
    f.options = "-O2\ndevice=x";
    t1 = clrs__cache_key_text(&f);
    f.options = "-O2";
    f.platform_name = "x";
    {
        char *t2 = clrs__cache_key_text(&f);
        same = strcmp(t1, t2) == 0;
        free(t2);
    }
    tap_ok(!same, "a field value cannot imitate another field");
    free(t1);
    free(t0);
}

/* ---- damaged entries ------------------------------------------------------ */

typedef enum damage {
    TRUNCATED,
    BIT_FLIP,
    ZERO_LENGTH,
    WRONG_MAGIC,
    WRONG_VERSION,
    OTHER_DEVICE,
    BAD_BINARY,
    FORGED,
    FORGED_SECRET,
    FIFO,
    EMPTY_DIR,
    NDAMAGE
} damage;

static const char *const damage_names[] = {
    "truncated", "bit-flipped", "zero-length", "wrong-magic",
    "wrong-version", "other-device", "binary the driver rejects",
    "forged (truncated binary, lengths and MAC made without the secret)",
    ("forged with the secret (truncated binary, its length and the MAC "
     "recomputed with the directory's secret)"),
    "FIFO", "empty-directory"};

/* What a forger who can read the secret does to an entry: cuts the
 * binary to half, writes the new length into the header and recomputes
 * the MAC as cache.h lays it out (over bytes 0..31, then bytes 64 up to
 * the key: the stored digest, where the format has one; the key; the
 * payload), leaving the rest of the header as it was. Handed to PoCL,
 * such a binary makes its loader read past the buffer (AddressSanitizer:
 * heap-buffer-overflow), on every run. */
static int forge_with_secret(const char *dir, const char *path,
                             unsigned char *buf, size_t n)
{
    unsigned char secret[CLRS_CACHE_SECRET_BYTES];
    struct hmac_sha256_ctx c;
    size_t klen = (size_t)buf[16] | (size_t)buf[17] << 8 |
                  (size_t)buf[18] << 16;
    size_t blen, i;

    if (klen >= n - CLRS_CACHE_HEADER || clrs__cache_secret(dir, secret) != 0)
        return -1;
    blen = (n - CLRS_CACHE_HEADER - klen) / 2;
    for (i = 0; i < 8; ++i)
        buf[24 + i] = (unsigned char)((uint64_t)blen >> (8 * i));
    hmac_sha256_set_key(&c, sizeof secret, secret);
    hmac_sha256_update(&c, CLRS_CACHE_OFF_MAC, buf);
    hmac_sha256_update(&c, CLRS_CACHE_HEADER - 64, buf + 64);
    hmac_sha256_update(&c, klen + blen, buf + CLRS_CACHE_HEADER);
    hmac_sha256_digest(&c, SHA256_DIGEST_SIZE, buf + CLRS_CACHE_OFF_MAC);
    return write_file(path, buf, CLRS_CACHE_HEADER + klen + blen);
}

/* A well-formed entry under our name with another key, a payload that is
 * not a binary, or a truncated binary written without the secret. */
static int rewrite_entry(const char *dir, const char *hash,
                         const unsigned char *buf, size_t n, damage d)
{
    unsigned char secret[CLRS_CACHE_SECRET_BYTES];
    size_t klen = (size_t)buf[16] | (size_t)buf[17] << 8 |
                  (size_t)buf[18] << 16;
    const unsigned char *bin = buf + CLRS_CACHE_HEADER + klen;
    size_t blen = n - CLRS_CACHE_HEADER - klen;
    char *key = malloc(klen + 1), *dev;
    int rc = -1;

    if (!key || klen >= n || clrs__cache_secret(dir, secret) != 0) {
        free(key);
        return -1;
    }
    memcpy(key, buf + CLRS_CACHE_HEADER, klen);
    key[klen] = '\0';
    dev = strstr(key, "\ndevice=");
    if (d == OTHER_DEVICE && dev && (dev = strchr(dev, ':')) != NULL &&
        dev[1] != '\n') {
        dev[1] ^= 0x20; /* another device name of the same length */
        rc = clrs__cache_store(dir, hash, key, secret, bin, blen,
                               CLRS_CACHE_FORMAT);
    } else if (d == BAD_BINARY) {
        rc = clrs__cache_store(dir, hash, key, secret, junk, sizeof junk,
                               CLRS_CACHE_FORMAT);
    } else if (d == FORGED) {
        /* What a rewrite without the secret can do: our key, a binary cut
         * in half, every length and the MAC consistent, under a key of
         * its own choosing. Handed to the driver, such a binary crashes
         * PoCL's loader. */
        memset(secret, 0x5a, sizeof secret);
        rc = clrs__cache_store(dir, hash, key, secret, bin, blen / 2,
                               CLRS_CACHE_FORMAT);
    }
    free(key);
    return rc;
}

static int apply_damage(const char *dir, const char *name, damage d)
{
    char path[4200], hash[65];
    unsigned char *buf;
    size_t n;
    int rc = -1;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(hash, sizeof hash, "%.64s", name);
    if (read_file(path, &buf, &n) != 0 || n < CLRS_CACHE_HEADER + 16) {
        free(buf);
        return -1;
    }
    switch (d) {
    case TRUNCATED:
        rc = write_file(path, buf, n / 2);
        break;
    case BIT_FLIP:
        buf[n - 7] ^= 0x10;
        rc = write_file(path, buf, n);
        break;
    case ZERO_LENGTH:
        rc = write_file(path, buf, 0);
        break;
    case WRONG_MAGIC:
        buf[0] ^= 1;
        rc = write_file(path, buf, n);
        break;
    case WRONG_VERSION:
        buf[CLRS_CACHE_OFF_FORMAT] = 99;
        rc = write_file(path, buf, n);
        break;
    case OTHER_DEVICE:
    case BAD_BINARY:
    case FORGED:
        rc = rewrite_entry(dir, hash, buf, n, d);
        break;
    case FORGED_SECRET:
        rc = forge_with_secret(dir, path, buf, n);
        break;
    case FIFO:
        rc = unlink(path) == 0 && mkfifo(path, 0600) == 0 ? 0 : -1;
        break;
    case EMPTY_DIR:
        rc = unlink(path) == 0 && mkdir(path, 0700) == 0 ? 0 : -1;
        break;
    default:
        break;
    }
    free(buf);
    return rc;
}

static void damaged_entries(void)
{
    char dir[4096];
    clrs_context *ctx = NULL;
    clrs_device_info info;
    listing l;
    int d;

    if (clrs_context_create(&ctx, NULL) >= 0 &&
        clrs_context_get_device_info(ctx, &info) >= 0)
        refuse_junk = strstr(info.platform_name, "rusticl") != NULL;
    clrs_context_destroy(ctx);
    use_dir(dir, sizeof dir, "damaged");
    tap_ok(source_in_new_ctx(1, NULL) == CLRS_CACHE_BUILT,
           "an empty cache builds");
    list_dir(dir, &l);
    tap_ok(l.entries == 1 && l.temps == 0, "one entry written (%d)",
           l.entries);
    tap_ok(source_in_new_ctx(1, NULL) == CLRS_CACHE_DISK,
           "a new context loads it from disk");
    if (l.entries != 1)
        return;
    for (d = 0; d < NDAMAGE; ++d) {
        clrs_cache_source s1, s2;
        clrs_status st;
        listing after;
        if (apply_damage(dir, l.names[0], (damage)d) != 0) {
            tap_ok(0, "%s entry: could not damage it", damage_names[d]);
            continue;
        }
        /* A FIFO that is opened for reading blocks until a writer comes:
         * never, here. The alarm turns a hang into a failure. */
        pthread_mutex_lock(&seen_lock);
        watching = 1;
        handed = handed_junk = 0;
        pthread_mutex_unlock(&seen_lock);
        alarm(300);
        s1 = source_in_new_ctx(1, &st);
        alarm(0);
        pthread_mutex_lock(&seen_lock);
        watching = 0;
        pthread_mutex_unlock(&seen_lock);
        tap_ok(st >= 0 && s1 == CLRS_CACHE_BUILT,
               "%s entry: the plan works, built from source (%s)",
               damage_names[d], sname(s1));
        /* Only an entry this cache stored for this device and driver (its
         * key compared, its binary's length and digest and its MAC over
         * key and binary checked) is handed to the driver: here the junk
         * planted with the secret, nothing else, and once (a binary the
         * driver refused is not looked up again under the key's lock). */
        if (d == BAD_BINARY)
            tap_ok(handed == 1 && handed == handed_junk,
                   "%s entry: its stored bytes, and only those, reach the "
                   "driver, which refuses them (%d binaries handed on, %d "
                   "of them the stored one%s)",
                   damage_names[d], handed, handed_junk,
                   refuse_junk ? "; refused before rusticl, which aborts on "
                                 "a binary it rejects"
                               : "");
        else
            tap_ok(handed == 0,
                   "%s entry: no binary reaches the driver (%d handed on)",
                   damage_names[d], handed);
        s2 = source_in_new_ctx(1, NULL);
        list_dir(dir, &after);
        tap_ok(s2 == CLRS_CACHE_DISK && after.entries == 1 &&
                   after.temps == 0 &&
                   strcmp(after.names[0], l.names[0]) == 0,
               "%s entry: replaced by a valid one (next load: %s)",
               damage_names[d], sname(s2));
    }
}

/* A write that fails for one entry, for root too: learn the entry's name,
 * then put a directory holding a file where it would go, so the final
 * rename fails (EISDIR) and the directory is not ours to empty. That
 * entry is skipped; the cache keeps working for the others. */
static void entry_blocked(void)
{
    char dir[4096], file[4200];
    clrs_cache_source src = CLRS_CACHE_MEMORY, src0 = CLRS_CACHE_OFF;
    clrs_context *ctx = NULL;
    clrs_plan *plan = NULL;
    clrs_status st;
    listing l;

    use_dir(dir, sizeof dir, "nowrite");
    source_in_new_ctx(3, NULL);
    list_dir(dir, &l);
    if (l.entries != 1) {
        tap_ok(0, "an entry written to learn its name");
        return;
    }
    snprintf(file, sizeof file, "%s/%s", dir, l.names[0]);
    unlink(file);
    mkdir(file, 0700);
    strcat(file, "/keep");
    write_file(file, "x", 1);
    st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, 3, &plan, &src);
    tap_ok(st >= 0 && src == CLRS_CACHE_OFF &&
               strstr(clrs_context_last_error(ctx), "cannot write the entry"),
           "a non-empty directory where an entry goes: the plan works, that "
           "entry is not cached (%s), said: \"%s\"",
           sname(src), clrs_context_last_error(ctx));
    clrs_plan_destroy(plan);
    plan = NULL;
    if (st >= 0)
        st = make_plan(ctx, 0, &plan, &src0);
    tap_ok(st >= 0 && src0 == CLRS_CACHE_BUILT,
           "the same context still writes other entries (%s)", sname(src0));
    clrs_plan_destroy(plan);
    clrs_context_destroy(ctx);
    tap_ok(source_in_new_ctx(0, NULL) == CLRS_CACHE_DISK,
           "and a new context loads them");
    list_dir(dir, &l);
    tap_ok(l.temps == 0, "no temp file left behind");
}

/* ---- read-only or missing directory -------------------------------------- */

static void unwritable(void)
{
    char dir[4096], file[4200];
    clrs_context *ctx = NULL;
    clrs_plan *plan = NULL;
    clrs_cache_source src = CLRS_CACHE_MEMORY;
    clrs_status st;
    listing l;

    /* A path under a regular file: mkdir fails with ENOTDIR even for
     * root, whom chmod does not stop. */
    use_dir(dir, sizeof dir, "blocked");
    snprintf(file, sizeof file, "%s/file", dir);
    write_file(file, "x", 1);
    strcat(file, "/cache");
    setenv("CLRS_CACHE_DIR", file, 1);
    st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, 0, &plan, &src);
    tap_ok(st >= 0 && src == CLRS_CACHE_OFF,
           "cache directory cannot be created: the plan works, cache off "
           "(%s)", sname(src));
    tap_ok(strstr(clrs_context_last_error(ctx), "cannot create") != NULL,
           "the context says so: \"%s\"", clrs_context_last_error(ctx));
    clrs_plan_destroy(plan);
    plan = NULL;
    st = make_plan(ctx, 0, &plan, &src);
    tap_ok(st >= 0 && src == CLRS_CACHE_MEMORY,
           "the next plan of the kind is a memory hit (%s)", sname(src));
    clrs_plan_destroy(plan);
    clrs_context_destroy(ctx);
    ctx = NULL;
    plan = NULL;

    use_dir(dir, sizeof dir, "readonly");
    if (geteuid() == 0) {
        tap_skip("read-only directory (mode 0500): running as root, whom "
                 "the mode does not stop; the case above covers the "
                 "uncached mode");
        return;
    }
    chmod(dir, 0500);
    st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, 2, &plan, &src);
    tap_ok(st >= 0 && src == CLRS_CACHE_OFF &&
               strstr(clrs_context_last_error(ctx), "cannot write"),
           "read-only directory: the plan works, cache off (%s), said: "
           "\"%s\"",
           sname(src), clrs_context_last_error(ctx));
    clrs_plan_destroy(plan);
    clrs_context_destroy(ctx);
    list_dir(dir, &l);
    tap_ok(l.entries == 0 && l.temps == 0, "nothing written");
    chmod(dir, 0700);
}

/* ---- eight processes ----------------------------------------------------- */

/* Forked before this process touches OpenCL (a forked OpenCL runtime is
 * undefined behaviour), so this runs first. */
static void processes(void)
{
    char dir[4096];
    pid_t pid[NPROC];
    int i, ok = 1, n_ok = 0;
    listing l;

    use_dir(dir, sizeof dir, "procs");
    fflush(stdout);
    for (i = 0; i < NPROC; ++i) {
        pid[i] = fork();
        if (pid[i] == 0) {
            clrs_context *ctx = NULL;
            clrs_plan *p0 = NULL, *p1 = NULL;
            clrs_cache_source s0 = CLRS_CACHE_OFF, s1 = CLRS_CACHE_OFF;
            int rc = clrs_context_create(&ctx, NULL) >= 0 &&
                             make_plan(ctx, i % 2, &p0, &s0) >= 0 &&
                             make_plan(ctx, 1 - i % 2, &p1, &s1) >= 0 &&
                             (s0 == CLRS_CACHE_BUILT ||
                              s0 == CLRS_CACHE_DISK) &&
                             (s1 == CLRS_CACHE_BUILT ||
                              s1 == CLRS_CACHE_DISK)
                         ? 0
                         : 1;
            clrs_plan_destroy(p0);
            clrs_plan_destroy(p1);
            clrs_context_destroy(ctx);
            _exit(rc);
        }
        if (pid[i] < 0)
            ok = 0;
    }
    for (i = 0; i < NPROC; ++i) {
        int status = 0;
        if (pid[i] > 0 && waitpid(pid[i], &status, 0) == pid[i] &&
            WIFEXITED(status) && WEXITSTATUS(status) == 0)
            ++n_ok;
    }
    tap_ok(ok && n_ok == NPROC,
           "%d processes building 2 configurations at once in one empty "
           "directory: %d succeeded",
           NPROC, n_ok);
    list_dir(dir, &l);
    tap_ok(l.entries == 2 && l.temps == 0 && l.others == 0,
           "the directory holds 2 entries, no temp files (%d, %d, %d "
           "other)",
           l.entries, l.temps, l.others);
}

static void processes_valid(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/procs", base);
    setenv("CLRS_CACHE_DIR", dir, 1);
    tap_ok(source_in_new_ctx(0, NULL) == CLRS_CACHE_DISK &&
               source_in_new_ctx(1, NULL) == CLRS_CACHE_DISK,
           "both entries the processes left are valid (disk hits)");
}

/* ---- eight threads -------------------------------------------------------- */

typedef struct worker {
    clrs_context *ctx;
    pthread_barrier_t *barrier;
    int failures;
} worker;

static void *thread_main(void *arg)
{
    worker *w = arg;
    int k;
    pthread_barrier_wait(w->barrier);
    for (k = 0; k < 3; ++k) {
        clrs_plan *plan = NULL;
        if (make_plan(w->ctx, k, &plan, NULL) < 0)
            w->failures++;
        clrs_plan_destroy(plan);
    }
    return NULL;
}

static void threads(void)
{
    char dir[4096];
    clrs_context *ctx = NULL;
    pthread_barrier_t barrier;
    pthread_t th[NTHREAD];
    worker w[NTHREAD];
    clrs_cache_stats s;
    int i, fails = 0;

    use_dir(dir, sizeof dir, "threads");
    if (clrs_context_create(&ctx, NULL) < 0) {
        tap_ok(0, "context: %s", clrs_last_error());
        return;
    }
    pthread_barrier_init(&barrier, NULL, NTHREAD);
    for (i = 0; i < NTHREAD; ++i) {
        w[i].ctx = ctx;
        w[i].barrier = &barrier;
        w[i].failures = 0;
        pthread_create(&th[i], NULL, thread_main, &w[i]);
    }
    for (i = 0; i < NTHREAD; ++i) {
        pthread_join(th[i], NULL);
        fails += w[i].failures;
    }
    pthread_barrier_destroy(&barrier);
    clrs_context_get_cache_stats(ctx, &s);
    tap_ok(fails == 0, "%d threads x 3 configurations on one context: all "
                       "plans made (%d failures)",
           NTHREAD, fails);
    tap_ok(s.builds == 3 && s.disk_hits == 0 &&
               s.memory_hits == NTHREAD * 3 - 3 && s.disk_writes == 3,
           "one build per configuration (builds %llu, memory hits %llu, "
           "disk hits %llu, writes %llu)",
           (unsigned long long)s.builds, (unsigned long long)s.memory_hits,
           (unsigned long long)s.disk_hits,
           (unsigned long long)s.disk_writes);
    clrs_context_destroy(ctx);
}

/* ---- eviction ------------------------------------------------------------- */

static int has_name(const listing *l, const char *name)
{
    int i;
    for (i = 0; i < l->entries && i < 16; ++i)
        if (strcmp(l->names[i], name) == 0)
            return 1;
    return 0;
}

/* The entry that appeared between two listings. */
static void new_name(const listing *before, const listing *after, char *out)
{
    int i;
    out[0] = '\0';
    for (i = 0; i < after->entries && i < 16; ++i)
        if (!has_name(before, after->names[i]))
            strcpy(out, after->names[i]);
}

static uint64_t file_size(const char *dir, const char *name)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void pause_ms(int ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void eviction(void)
{
    char dir[4096], a[80], b[80], c[80], mb[64];
    listing l0, l1, l2, l3;
    uint64_t cap, sa, sb, sc;

    /* The third entry's size, from a directory of its own: entries
     * differ in size (a cubic kernel's binary is larger, and PoCL's
     * binary holds the work-group functions any process has built for
     * it), so the cap is set from the three sizes. */
    use_dir(dir, sizeof dir, "evict-size");
    list_dir(dir, &l0);
    source_in_new_ctx(2, NULL);
    list_dir(dir, &l1);
    new_name(&l0, &l1, c);
    sc = c[0] ? file_size(dir, c) : 0;

    use_dir(dir, sizeof dir, "evict");
    list_dir(dir, &l0);
    source_in_new_ctx(0, NULL);
    list_dir(dir, &l1);
    new_name(&l0, &l1, a);
    pause_ms(20);
    source_in_new_ctx(1, NULL);
    list_dir(dir, &l2);
    new_name(&l1, &l2, b);
    if (!a[0] || !b[0] || !sc) {
        tap_ok(0, "eviction: three entries written");
        return;
    }
    /* Room for A with B or with C, not for all three: the third entry
     * must evict one, and the least recently used alone. */
    sa = file_size(dir, a);
    sb = file_size(dir, b);
    cap = sa + (sb > sc ? sb : sc) + (sb < sc ? sb : sc) / 4;
    snprintf(mb, sizeof mb, "%.6f", (double)cap / 1048576.0);
    setenv("CLRS_CACHE_MAX_MB", mb, 1);
    pause_ms(20);
    /* A hit makes A the most recently used, so B is the oldest. */
    tap_ok(source_in_new_ctx(0, NULL) == CLRS_CACHE_DISK,
           "eviction: the first entry is hit (and touched)");
    pause_ms(20);
    source_in_new_ctx(2, NULL);
    list_dir(dir, &l3);
    new_name(&l2, &l3, c);
    if (!tap_ok(c[0] && has_name(&l3, a) && has_name(&l3, c) &&
                    !has_name(&l3, b) && l3.entries == 2,
                "eviction under a %s MB cap: the least recently used entry "
                "went, the hit one and the new one stayed",
                mb))
        tap_diag("sizes A %" PRIu64 ", B %" PRIu64 ", C %" PRIu64
                 " (%" PRIu64 " now), cap %" PRIu64 "; %d entries: A %s, "
                 "B %s, C %s",
                 sa, sb, sc, c[0] ? file_size(dir, c) : 0, cap, l3.entries,
                 has_name(&l3, a) ? "kept" : "gone",
                 has_name(&l3, b) ? "kept" : "gone",
                 c[0] && has_name(&l3, c) ? "kept" : "gone");
    unsetenv("CLRS_CACHE_MAX_MB");
}

/* ---- a full disk ----------------------------------------------------------- */

/* Entries written straight through the cache's functions on a disk that
 * fills up (__wrap_write, __wrap_statvfs): the oldest entries make room
 * for a new one, but never for one that would not fit after all. */
static void full_disk(void)
{
    static const char key[] = "full disk test key";
    unsigned char secret[CLRS_CACHE_SECRET_BYTES], *payload, *got = NULL;
    unsigned char *big;
    char dir[4096], path[4200], hash[4][65], c[2] = "a";
    size_t n = 10000, size = 0;
    listing l;
    int i, err, gone;

    use_dir(dir, sizeof dir, "full");
    payload = malloc(n);
    if (!payload || clrs__cache_secret(dir, secret) != 0) {
        tap_ok(0, "full disk: setup");
        free(payload);
        return;
    }
    memset(payload, 0xab, n);
    for (i = 0; i < 4; ++i) {
        struct timespec t[2] = {{1000000 + i, 0}, {1000000 + i, 0}};
        c[0] = (char)('a' + i);
        clrs__sha256_hex(c, 1, hash[i]);
        if (i == 3)
            break;
        clrs__cache_store(dir, hash[i], key, secret, payload, n,
                          CLRS_CACHE_FORMAT);
        snprintf(path, sizeof path, "%s/%s" CLRS_CACHE_SUFFIX, dir, hash[i]);
        utimensat(AT_FDCWD, path, t, 0); /* a is the oldest */
    }
    snprintf(full_dir, sizeof full_dir, "%s", dir);
    full_limit = dir_bytes(dir) + n / 2;
    err = clrs__cache_store(dir, hash[3], key, secret, payload, n,
                            CLRS_CACHE_FORMAT);
    full_dir[0] = '\0';
    list_dir(dir, &l);
    snprintf(path, sizeof path, "%s" CLRS_CACHE_SUFFIX, hash[0]);
    gone = 1;
    for (i = 0; i < l.entries && i < 16; ++i)
        gone = gone && strcmp(l.names[i], path) != 0;
    tap_ok(err == 0 && gone && l.entries == 3 && l.temps == 0,
           "a full disk: the oldest entry was evicted to make room and the "
           "new one written (%s, %d entries)",
           err ? strerror(err) : "ok", l.entries);
    tap_ok(clrs__cache_load(dir, hash[3], key, secret, &got, &size, NULL,
                            0) == CLRS_CACHE_HIT &&
               size == n && got && memcmp(got, payload, n) == 0,
           "the new entry reads back");
    free(got);
    /* A full disk on which even every entry gone would leave too little
     * room for the new one (four times an entry's size): it fails, and
     * nothing is evicted for it. */
    big = malloc(4 * n);
    if (big) {
        memset(big, 0xcd, 4 * n);
        snprintf(full_dir, sizeof full_dir, "%s", dir);
        full_limit = dir_bytes(dir) + n / 2;
        err = clrs__cache_store(dir, hash[0], key, secret, big, 4 * n,
                                CLRS_CACHE_FORMAT);
        full_dir[0] = '\0';
    }
    list_dir(dir, &l);
    tap_ok(big && err == ENOSPC && !clrs__cache_entry_error(err) &&
               l.temps == 0 && l.entries == 3,
           "an entry that cannot fit even after eviction: ENOSPC, a failure "
           "of the directory, no entry evicted for it (%d left of 3), no "
           "temp file left (%s)",
           l.entries, err ? strerror(err) : "ok");
    free(big);
    free(payload);
}

/* ---- temp files of dead writers -------------------------------------------
 */

/* dir/name with its times set sec seconds back, held open with an open
 * file description write lock (as a live writer holds its temp file)
 * where lock is set; returns that descriptor, or -1. */
static int temp_file(const char *dir, const char *name, int sec, int lock)
{
    char path[4200];
    struct timespec t[2];
    int fd;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    if (write(fd, "half", 4) != 4)
        tap_diag("short write to %s", path);
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= sec;
    t[1] = t[0];
    futimens(fd, t);
    if (lock) {
        struct flock lk;
        memset(&lk, 0, sizeof lk);
        lk.l_type = F_WRLCK;
        lk.l_whence = SEEK_SET;
        if (fcntl(fd, F_OFD_SETLK, &lk) != 0)
            tap_diag("no lock on %s: %s", path, strerror(errno));
        return fd;
    }
    close(fd);
    return -1;
}

static int present(const char *dir, const char *name)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0;
}

/* The sweep removes a temp file once its writer's lock is gone and it is
 * past the grace of a file not yet locked; an hour-old one whatever its
 * lock; nothing else. */
static void sweep(void)
{
    char dir[4096];
    int live, stale;

    use_dir(dir, sizeof dir, "sweep");
    temp_file(dir, "tmp-dead-XXXXXX", 10, 0);
    temp_file(dir, "tmp-fresh-XXXXXX", 0, 0);
    live = temp_file(dir, "tmp-live-XXXXXX", 10, 1);
    stale = temp_file(dir, "tmp-stale-XXXXXX", 7200, 1);
    temp_file(dir, "not-a-temp", 7200, 0);
    clrs__cache_sweep(dir);
    tap_ok(!present(dir, "tmp-dead-XXXXXX"),
           "sweep: an unlocked temp file ten seconds old is removed");
    tap_ok(present(dir, "tmp-fresh-XXXXXX"),
           "sweep: an unlocked temp file just made stays (not yet locked)");
    tap_ok(present(dir, "tmp-live-XXXXXX"),
           "sweep: a temp file its writer still locks stays");
    tap_ok(!present(dir, "tmp-stale-XXXXXX"),
           "sweep: an hour-old temp file goes, lock or not");
    tap_ok(present(dir, "not-a-temp"), "sweep: other files stay");
    if (live >= 0)
        close(live);
    if (stale >= 0)
        close(stale);
}

/* ---- a lock that is never released ----------------------------------------- */

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) +
           (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Another holder of every key's lock byte that never lets go (a stopped
 * process): each missing kernel costs about a build's time of waiting,
 * then is built and stored anyway. An OFD lock of this process conflicts
 * with the cache's own as another process's would. */
static void stuck_lock(void)
{
    char dir[4096], path[4200];
    clrs_cache_source s0 = CLRS_CACHE_OFF, s1 = CLRS_CACHE_OFF;
    clrs_context *ctx = NULL;
    clrs_plan *p0 = NULL, *p1 = NULL;
    struct flock fl;
    struct timespec t0;
    clrs_status st;
    double secs;
    int fd;

    use_dir(dir, sizeof dir, "stuck");
    snprintf(path, sizeof path, "%s/lock", dir);
    fd = open(path, O_RDWR | O_CREAT, 0600);
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET; /* l_len 0: the whole file */
    if (fd < 0 || fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        tap_ok(0, "stuck lock: cannot take %s", path);
        if (fd >= 0)
            close(fd);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, 0, &p0, &s0);
    if (st >= 0)
        st = make_plan(ctx, 1, &p1, &s1);
    secs = seconds_since(&t0);
    tap_ok(st >= 0 && s0 == CLRS_CACHE_BUILT && s1 == CLRS_CACHE_BUILT &&
               secs < 30,
           "a lock held forever: two missing kernels built and stored in "
           "%.1f s (%s, %s; a 30 s wait each before)",
           secs, sname(s0), sname(s1));
    clrs_plan_destroy(p0);
    clrs_plan_destroy(p1);
    clrs_context_destroy(ctx);
    close(fd);
}

/* ---- the secret -------------------------------------------------------------- */

static int read_secret(const char *dir, unsigned char *s, struct stat *st)
{
    char path[4200];
    unsigned char *buf = NULL;
    size_t n = 0;
    int ok;

    snprintf(path, sizeof path, "%s/" CLRS_CACHE_SECRET_NAME, dir);
    ok = lstat(path, st) == 0 && read_file(path, &buf, &n) == 0 &&
         n == CLRS_CACHE_SECRET_BYTES;
    if (ok)
        memcpy(s, buf, n);
    free(buf);
    return ok;
}

static void secret_file(void)
{
    unsigned char a[CLRS_CACHE_SECRET_BYTES], b[CLRS_CACHE_SECRET_BYTES];
    char dir[4096], path[4200];
    clrs_cache_source s;
    struct stat st;
    int ok;

    use_dir(dir, sizeof dir, "secret");
    source_in_new_ctx(0, NULL);
    ok = read_secret(dir, a, &st);
    tap_ok(ok && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600,
           "the directory's secret: %d random bytes, mode 0600 (%o)",
           CLRS_CACHE_SECRET_BYTES, ok ? (unsigned)(st.st_mode & 0777) : 0);
    snprintf(path, sizeof path, "%s/" CLRS_CACHE_SECRET_NAME, dir);
    chmod(path, 0644);
    s = source_in_new_ctx(0, NULL);
    ok = read_secret(dir, b, &st);
    tap_ok(s == CLRS_CACHE_BUILT && ok && (st.st_mode & 0777) == 0600 &&
               memcmp(a, b, sizeof a) != 0,
           "a secret others can read is replaced, and the entries it "
           "signed are rebuilt (%s)",
           sname(s));
    tap_ok(source_in_new_ctx(0, NULL) == CLRS_CACHE_DISK,
           "entries signed with the new secret load");
}

/* ---- environment ------------------------------------------------------------- */

static void relative_dir(void)
{
    char rel[256];
    clrs_context *ctx = NULL;
    clrs_plan *plan = NULL;
    clrs_cache_source src = CLRS_CACHE_MEMORY;
    clrs_status st;
    struct stat sb;

    snprintf(rel, sizeof rel, "tests/tmp-cache-relative-%ld",
             (long)getpid());
    setenv("CLRS_CACHE_DIR", rel, 1);
    st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, 0, &plan, &src);
    tap_ok(st >= 0 && src == CLRS_CACHE_OFF &&
               strstr(clrs_context_last_error(ctx),
                      "not an absolute path") != NULL &&
               stat(rel, &sb) != 0,
           "a relative CLRS_CACHE_DIR is refused: the plan works uncached "
           "(%s), nothing is created, said: \"%s\"",
           sname(src), clrs_context_last_error(ctx));
    clrs_plan_destroy(plan);
    clrs_context_destroy(ctx);
    rm_tree(rel);
}

static int count_dumps(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, "clrs-", 5) == 0 &&
             strstr(e->d_name, ".cl") != NULL;
    closedir(d);
    return n;
}

/* CLRS_DUMP_SOURCE is a debugging aid: a directory that cannot be written
 * is said (once) and the plans are made as usual. */
static void dump_source(void)
{
    char dir[4096], dump[4200], note[512] = "";
    clrs_context *ctx = NULL;
    clrs_plan *p0 = NULL, *p1 = NULL;
    clrs_status st;

    use_dir(dir, sizeof dir, "dump-cache");
    setenv("CLRS_DUMP_SOURCE", "/nonexistent/clrs-dump", 1);
    st = clrs_context_create(&ctx, NULL);
    if (st >= 0)
        st = make_plan(ctx, 0, &p0, NULL);
    if (ctx)
        snprintf(note, sizeof note, "%s", clrs_context_last_error(ctx));
    if (st >= 0)
        st = make_plan(ctx, 1, &p1, NULL);
    tap_ok(st >= 0 && strstr(note, "CLRS_DUMP_SOURCE") != NULL,
           "CLRS_DUMP_SOURCE=/nonexistent/...: plans are made (%s), said: "
           "\"%s\"",
           clrs_status_name(st), note);
    clrs_plan_destroy(p0);
    clrs_plan_destroy(p1);
    clrs_context_destroy(ctx);
    snprintf(dump, sizeof dump, "%s/dump", base);
    mkdir(dump, 0700);
    setenv("CLRS_DUMP_SOURCE", dump, 1);
    source_in_new_ctx(2, NULL);
    tap_ok(count_dumps(dump) >= 1, "a writable CLRS_DUMP_SOURCE gets the "
                                   "kernels (%d files)",
           count_dumps(dump));
    unsetenv("CLRS_DUMP_SOURCE");
}

int main(void)
{
    const char *env = getenv("CLRS_CACHE_DIR");
    clrs_context *ctx = NULL;
    char probe[4096], cwd[1024] = ".";

    tap_single_pass(); /* one program a plan: the counts below */
    /* Absolute: the library refuses a relative CLRS_CACHE_DIR. */
    if (!getcwd(cwd, sizeof cwd))
        tap_skip_all("getcwd failed");
    if (env && env[0] == '/')
        snprintf(base, sizeof base, "%s/test_cache-%ld", env,
                 (long)getpid());
    else
        snprintf(base, sizeof base, "%s/%s/test_cache-%ld", cwd,
                 env && *env ? env : "tests/tmp-cache", (long)getpid());
    unsetenv("CLRS_CACHE");
    unsetenv("CLRS_CACHE_MAX_MB");
    key_fields();
    if (clrs__cache_mkdir(base) != 0)
        tap_skip_all("cannot create the test's cache directory");

    /* Is there a device at all? Asked in a child, so this process stays
     * free of OpenCL until the processes test has forked. */
    {
        pid_t pid;
        int status = 0;
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            int ok = clrs_context_create(&ctx, NULL) >= 0;
            clrs_context_destroy(ctx);
            _exit(ok ? 0 : 1);
        }
        if (pid < 0 || waitpid(pid, &status, 0) != pid ||
            !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            rm_tree(base);
            printf("# no OpenCL device: the device tests are skipped\n");
            tap_skip("no OpenCL device");
            printf("1..%d\n", tap_count_);
            return 0;
        }
    }
    processes();
    processes_valid();
    threads();
    damaged_entries();
    unwritable();
    entry_blocked();
    eviction();
    full_disk();
    sweep();
    stuck_lock();
    secret_file();
    dump_source();
    relative_dir();
    snprintf(probe, sizeof probe, "%s", base);
    rm_tree(probe);
    printf("1..%d\n", tap_count_);
    return tap_failed_ ? 1 : 0;
}
