/* clresample tool: a small reader and writer of NumPy .npy files (format
 * 1.0, 2.0 and 3.0, little-endian; C order written, C or Fortran order
 * read) for the tool's --*-file knobs. */
#ifndef CLRS_TOOL_NPY_H
#define CLRS_TOOL_NPY_H

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 8

/* Reads path into data (prod(shape) elements of esize bytes, in C order
 * whichever order the file holds).
 * path must be a regular file; its header dict may list its three keys
 * (descr, fortran_order, shape) in any order, each once.
 * The file's descr must equal `descr` ('<f4', '|u1', ...; '<' and '|'
 * and '=' are taken as equal for one-byte types) and its shape must equal
 * shape[0..ndim). Returns 0, or -1 with a message in err. */
int npy_read(const char *path, const char *descr, size_t esize, int ndim,
             const int64_t *shape, void *data, char *err, size_t errsz);

/* Writes data as an .npy file (format 1.0: the tool's headers are short):
 * to a temporary file beside path, renamed over it only when complete, so
 * an existing file survives any failure whole (a non-regular path such as
 * /dev/null is written in place).
 * Returns 0, or -1 with a message in err. */
int npy_write(const char *path, const char *descr, size_t esize, int ndim,
              const int64_t *shape, const void *data, char *err,
              size_t errsz);

#endif /* CLRS_TOOL_NPY_H */
