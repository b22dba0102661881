/* The on-disk program cache: where it lives, how a key is hashed, and how
 * an entry is read, validated, written atomically and evicted. */
#ifndef CLRS_CACHE_H
#define CLRS_CACHE_H

/* Pure POSIX + SHA-256, no OpenCL and no context: program.c owns the
 * policy (what to load, when to rebuild), this file owns the files. The
 * tests compile it directly to reach the key and entry functions. */

#include <stddef.h>
#include <stdint.h>

/* Bumped whenever the key text or the entry layout changes, so entries of
 * another format are misses rather than misreads. */
#define CLRS_CACHE_FORMAT 3u

/* Entry layout (all integers little-endian):
 *   0  magic "CLRSPRG\n"        8 bytes
 *   8  format version            u32
 *  12  reserved, 0               u32
 *  16  key text length           u64
 *  24  payload length            u64
 *  32  HMAC-SHA256, keyed with the cache's secret, of bytes 0..31, bytes
 *      64..95, the key text and the payload          32 bytes
 *  64  SHA-256 of the payload (the binary as the driver gave it) 32 bytes
 *  96  key text, then the payload (the device's program binary).
 * The file size must be exactly 96 + key + payload.
 * Two checks, both before any byte reaches the driver. Integrity: the
 * payload is, byte for byte and at its full length, the binary the
 * driver handed the writer (its length and digest, recorded when it was
 * stored); a truncated or altered binary under a MAC recomputed without
 * them is caught here. Authenticity: the MAC proves that a holder of the
 * directory's secret wrote this binary for this key, so an entry written
 * by anyone else (another user, a file copied in, a stale format) is
 * never loaded. Neither can stop whoever can read the secret (the same
 * user, root) from writing a consistent entry around any bytes, nor a
 * driver bug that a well-formed binary triggers (clresample(3) says
 * so). */
#define CLRS_CACHE_MAGIC "CLRSPRG\n"
#define CLRS_CACHE_HEADER 96
#define CLRS_CACHE_OFF_FORMAT 8
#define CLRS_CACHE_OFF_MAC 32
#define CLRS_CACHE_OFF_DIGEST 64
#define CLRS_CACHE_SUFFIX ".clrs"

/* The per-directory secret that keys the entries' MACs: random bytes in
 * dir/secret, created 0600 by the first process to use the directory. */
#define CLRS_CACHE_SECRET_BYTES 32
#define CLRS_CACHE_SECRET_NAME "secret"

/* Default size cap when CLRS_CACHE_MAX_MB is unset: PoCL binaries are
 * 50-300 KB, so this holds a thousand configurations and more. */
#define CLRS_CACHE_DEFAULT_MB 256.0

/* Everything the key is made of; every field is part of the hash and of
 * the text compared on load. NULL counts as "". */
typedef struct clrs_cache_key_fields {
    unsigned format;
    const char *library_version;
    const char *source;
    const char *options;
    const char *platform_name, *platform_version;
    const char *device_name, *device_vendor, *device_version;
    const char *driver_version;
} clrs_cache_key_fields;

/* The full key text (malloc'ed, NULL when out of memory): each field as
 * "name=<length>:<bytes>\n", so no value can imitate another field. */
char *clrs__cache_key_text(const clrs_cache_key_fields *f);

/* Lower-case hex SHA-256 of n bytes into hex[65]. */
void clrs__sha256_hex(const void *data, size_t n, char hex[65]);

/* Settings read from the environment when a context is created. */
typedef struct clrs_cache_config {
    int enabled;        /* CLRS_CACHE != "0" and a directory was found */
    int relative;       /* CLRS_CACHE_DIR is not absolute: refused, dir
                           holds it for the message */
    char dir[4096];     /* without trailing slash */
    uint64_t max_bytes; /* CLRS_CACHE_MAX_MB, else the default */
} clrs_cache_config;

/* Fills cfg from CLRS_CACHE, CLRS_CACHE_DIR, XDG_CACHE_HOME, HOME and
 * CLRS_CACHE_MAX_MB. Touches no file. A relative CLRS_CACHE_DIR is
 * refused (enabled 0, relative 1) rather than resolved against whatever
 * the current directory is when the cache is first used. */
void clrs__cache_config_from_env(clrs_cache_config *cfg);

/* Creates dir and its missing parents with mode 0700 (an existing
 * directory keeps its mode); 0 or an errno value. */
int clrs__cache_mkdir(const char *dir);

typedef enum clrs_cache_load_result {
    CLRS_CACHE_HIT = 0,
    CLRS_CACHE_MISS = 1, /* no entry */
    CLRS_CACHE_BAD = 2   /* an entry that is not ours: see *why */
} clrs_cache_load_result;

/* The directory's secret into secret: read from dir/secret when that is
 * a regular file of the right size, owned by this user and readable by
 * no one else; otherwise a new random one replaces it (every entry
 * written under the old one becomes a miss). 0 or an errno value. */
int clrs__cache_secret(const char *dir,
                       unsigned char secret[CLRS_CACHE_SECRET_BYTES]);

/* Reads dir/<hash>.clrs (through clrs__cache_read_file: a regular file,
 * never a FIFO or a link) and checks magic, format, every length against
 * the file size, the full key text, the payload's digest and the MAC. On
 * a hit, *payload is
 * malloc'ed and the file's times are set to now (the LRU clock). why (may
 * be NULL) says what was wrong with a bad entry. */
clrs_cache_load_result clrs__cache_load(
    const char *dir, const char *hash, const char *key,
    const unsigned char secret[CLRS_CACHE_SECRET_BYTES],
    unsigned char **payload, size_t *size, char *why, size_t why_size);

/* Writes the entry to a temp file in dir, fsyncs it and renames it over
 * dir/<hash>.clrs, which an empty directory in its place does not stop;
 * a full disk (ENOSPC, EDQUOT) evicts the least recently used entries to
 * make room and tries again. 0 or an errno value (the temp file is gone
 * either way). format is CLRS_CACHE_FORMAT except in tests. */
int clrs__cache_store(const char *dir, const char *hash, const char *key,
                      const unsigned char secret[CLRS_CACHE_SECRET_BYTES],
                      const void *payload, size_t size, unsigned format);

/* Whether a failed store (its errno value) concerns that entry alone,
 * such as a non-empty directory in its place, rather than the directory
 * (read-only, no permission, full even after eviction). */
int clrs__cache_entry_error(int err);

/* Deletes the least recently used entries until the total is at most
 * max_bytes, never the entry named keep; also sweeps as below. */
void clrs__cache_evict(const char *dir, uint64_t max_bytes,
                       const char *keep);

/* Removes the temp files (tmp-*) of writers that died mid-write: no
 * longer locked by their writer and at least two seconds old, or an hour
 * old. */
void clrs__cache_sweep(const char *dir);

/* A lock on the key among processes sharing dir (an open file description
 * lock on one byte of dir/lock, so different keys build in parallel).
 * Waits at most timeout_ms; returns the descriptor to pass to unlock, or
 * -1 when there is no lock, with errno saying why (EACCES, EROFS: a
 * read-only directory; EISDIR, ELOOP, EINVAL: dir/lock is a directory, a
 * link or another file that is not a regular one; ETIMEDOUT): a build
 * then simply goes ahead, a tuning database store does not. */
int clrs__cache_lock(const char *dir, const char *hash, int timeout_ms);
void clrs__cache_unlock(int fd);

/* dir/name whole into *data (malloc'ed, NUL-terminated): a regular file
 * of at most max bytes, opened without following a link or blocking on a
 * FIFO; 0 or an errno value (ENOENT: none; EINVAL: not such a file). */
int clrs__cache_read_file(const char *dir, const char *name, size_t max,
                          char **data, size_t *size);

/* Replaces dir/name with data atomically (temp file, fsync, rename); 0 or
 * an errno value. */
int clrs__cache_write_file(const char *dir, const char *name,
                           const void *data, size_t size);

#endif /* CLRS_CACHE_H */
