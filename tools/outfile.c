/* clresample tool: writing an output file whole (.npy outputs, the
 * --plot chart). */
/* realpath (a symbolic link's target) is an XSI function. */
#define _XOPEN_SOURCE 700

#include "outfile.h"
#include "rt/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_fail(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

/* The parts written to fd, then flushed to the disk (fsync: only a
 * regular file is asked to); 0 or an errno value. */
static int write_parts(int fd, int regular, const void *const *part,
                       const size_t *len, int nparts)
{
    int i, err = 0;
    for (i = 0; i < nparts && !err; ++i)
        err = clrs__write_all(fd, part[i], len[i]);
    if (!err && regular && fsync(fd) != 0)
        err = errno;
    return err;
}

/* Where a regular file at path really lives: path itself, or the file
 * a symbolic link names (renaming over the link would replace the link);
 * malloc'ed, NULL without memory or when the link cannot be resolved. */
static char *real_target(const char *path, int *err)
{
    struct stat st;
    char *r;

    *err = 0;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        r = realpath(path, NULL);
        if (!r)
            *err = errno;
        return r;
    }
    r = malloc(strlen(path) + 1);
    if (!r)
        *err = ENOMEM;
    else
        strcpy(r, path);
    return r;
}

/* A new file beside target ("DIR/.NAME.PID-N.tmp"), created 0666 less
 * the umask like any new output; its name into tmp[size]. */
static int open_temp(const char *target, char *tmp, size_t size)
{
    static unsigned counter;
    const char *slash = strrchr(target, '/');
    int dlen = slash ? (int)(slash - target) + 1 : 0, tries, fd;
    const char *base = slash ? slash + 1 : target;

    for (tries = 0; tries < 100; ++tries) {
        int n = snprintf(tmp, size, "%.*s.%s.%ld-%u.tmp", dlen, target, base,
                         (long)getpid(), counter++);
        if (n < 0 || (size_t)n >= size) {
            errno = ENAMETOOLONG;
            return -1;
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* outfile.h says what it does. The failures the old file survives: a
 * full disk, a quota, a file size limit, an I/O error. */
int cli_replace_file(const char *path, const void *const *part,
                     const size_t *len, int nparts, char *err, size_t errsz)
{
    char tmp[4096], *target;
    struct stat st;
    int fd, e, have_old;
    const int exists = stat(path, &st) == 0;

    if (exists && S_ISDIR(st.st_mode))
        return cli_fail(err, errsz, "%s: is a directory", path);
    if (exists && !S_ISREG(st.st_mode)) {
        /* O_NONBLOCK: a FIFO nobody reads fails (ENXIO) rather than
         * hanging; the writes themselves then block as usual. */
        fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            return cli_fail(err, errsz, "%s: %s", path, strerror(errno));
        if ((e = fcntl(fd, F_GETFL)) != -1)
            (void)fcntl(fd, F_SETFL, e & ~O_NONBLOCK);
        e = write_parts(fd, 0, part, len, nparts);
        if (close(fd) != 0 && !e)
            e = errno;
        return e ? cli_fail(err, errsz, "%s: write failed: %s", path,
                            strerror(e))
                 : 0;
    }
    target = real_target(path, &e);
    if (!target)
        return cli_fail(err, errsz, "%s: %s", path, strerror(e));
    have_old = stat(target, &st) == 0 && S_ISREG(st.st_mode);
    fd = open_temp(target, tmp, sizeof tmp);
    if (fd < 0) {
        e = errno;
        free(target);
        return cli_fail(err, errsz,
                        "%s: cannot create a temporary file beside it: %s",
                        path, strerror(e));
    }
    if (have_old) {
        /* Best effort: another user's file, rewritten by root, stays
         * theirs; a mode we cannot set leaves the umask's. */
        if (fchown(fd, st.st_uid, st.st_gid) != 0) {
            /* not the owner's to give: the file is ours */
        }
        (void)fchmod(fd, st.st_mode & 07777);
    }
    e = write_parts(fd, 1, part, len, nparts);
    if (close(fd) != 0 && !e)
        e = errno;
    if (!e && rename(tmp, target) != 0)
        e = errno;
    if (e) {
        unlink(tmp);
        free(target);
        return cli_fail(err, errsz, "%s: write failed: %s (%s)", path,
                        strerror(e),
                        have_old ? "the old file is kept" : "nothing written");
    }
    /* The rename itself on the disk: the directory's entry. */
    {
        char *slash = strrchr(target, '/');
        int dfd;
        if (slash == target)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        dfd = open(slash ? target : ".", O_RDONLY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    free(target);
    return 0;
}
