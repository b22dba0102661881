/* clresample tool: writing an output file whole, and saying why not. */
#ifndef CLRS_TOOL_OUTFILE_H
#define CLRS_TOOL_OUTFILE_H

#include <stddef.h>

/* The message into err[errsz]; -1. The tool's file and device helpers
 * report a failure so. */
int cli_fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes the parts, in order, as the file at path, never in place over
 * an existing regular file: to a temporary file beside it, flushed to
 * the disk, then renamed over the old one, which survives any failure
 * whole. The new file keeps the old one's permission bits (and owner,
 * where allowed); a symbolic link stays a link to the new file; what is
 * not a regular file (/dev/null, a FIFO, a terminal) is written in
 * place. 0, or -1 with the reason in err. */
int cli_replace_file(const char *path, const void *const *part,
                     const size_t *len, int nparts, char *err, size_t errsz);

#endif
