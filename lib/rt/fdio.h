/* Whole reads and writes on a file descriptor, for the program cache and
 * the tool's output files (static inline: the library exports none of
 * it). Each returns 0 or an errno value; a read that meets the end of
 * the file, or a write that makes no progress, is EIO. */
#ifndef CLRS_FDIO_H
#define CLRS_FDIO_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

static inline int clrs__read_all(int fd, void *buf, size_t n)
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

static inline int clrs__write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        if (w == 0)
            return EIO;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

#endif
