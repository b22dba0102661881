/* clresample tool: NumPy .npy reading and writing. Only what the tool
 * needs: C-order, little-endian arrays whose dtype and shape it knows. */
#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
/* NumPy refuses headers it considers absurd; so do we, to bound memory. */
#define HEADER_MAX (1u << 20)

static int fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

/* '|u1', '<u1' and '=u1' describe the same bytes; NumPy writes '|'. */
static int same_descr(const char *a, const char *b)
{
    if (strlen(a) != strlen(b) || strlen(a) < 2)
        return 0;
    if (strcmp(a + 1, b + 1) != 0)
        return 0;
    /* '=' is native order; the tool only runs on little-endian hosts. */
    return strchr("<|=", a[0]) != NULL && strchr("<|=", b[0]) != NULL;
}

/* Finds 'key' (either quote style) in the header dict and returns the
 * text after its colon, or NULL. */
static const char *find_key(const char *h, const char *key)
{
    size_t n = strlen(key);
    const char *p = h;
    while ((p = strstr(p, key)) != NULL) {
        if (p > h && (p[-1] == '\'' || p[-1] == '"') &&
            (p[n] == '\'' || p[n] == '"')) {
            p += n + 1;
            while (isspace((unsigned char)*p))
                ++p;
            if (*p != ':')
                return NULL;
            ++p;
            while (isspace((unsigned char)*p))
                ++p;
            return p;
        }
        p += n;
    }
    return NULL;
}

static int parse_header(const char *h, char *descr, size_t dsz, int *fortran,
                        int *ndim, int64_t *shape)
{
    const char *p = find_key(h, "descr");
    size_t n = 0;
    char q;

    if (!p || (*p != '\'' && *p != '"'))
        return -1;
    q = *p++;
    while (p[n] && p[n] != q)
        ++n;
    if (p[n] != q || n + 1 > dsz)
        return -1;
    memcpy(descr, p, n);
    descr[n] = '\0';

    p = find_key(h, "fortran_order");
    if (!p)
        return -1;
    if (strncmp(p, "False", 5) == 0)
        *fortran = 0;
    else if (strncmp(p, "True", 4) == 0)
        *fortran = 1;
    else
        return -1;

    p = find_key(h, "shape");
    if (!p || *p != '(')
        return -1;
    ++p;
    *ndim = 0;
    for (;;) {
        int64_t v = 0;
        while (isspace((unsigned char)*p))
            ++p;
        if (*p == ')')
            break;
        if (!isdigit((unsigned char)*p) || *ndim >= NPY_MAX_DIMS)
            return -1;
        while (isdigit((unsigned char)*p)) {
            if (v > (INT64_MAX - 9) / 10)
                return -1;
            v = v * 10 + (*p++ - '0');
        }
        /* Python 2 era writers added an L suffix to longs. */
        if (*p == 'L')
            ++p;
        shape[(*ndim)++] = v;
        while (isspace((unsigned char)*p))
            ++p;
        if (*p == ',')
            ++p;
        else if (*p != ')')
            return -1;
    }
    return 0;
}

static void shape_str(char *buf, size_t size, int ndim, const int64_t *shape)
{
    size_t used = 0;
    int i;
    used += (size_t)snprintf(buf, size, "(");
    for (i = 0; i < ndim && used < size; ++i)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld",
                                 i ? ", " : "", (long long)shape[i]);
    if (used < size)
        snprintf(buf + used, size - used, ndim == 1 ? ",)" : ")");
}

/* Magic, version and header length; leaves f at the header dict. */
static int read_preamble(FILE *f, const char *path, size_t *hlen, char *err,
                         size_t errsz)
{
    unsigned char pre[12];
    unsigned major;
    size_t lenbytes;

    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, magic, 6) != 0)
        return fail(err, errsz, "%s: not a NumPy .npy file (bad magic)",
                    path);
    major = pre[6];
    if (major < 1 || major > 3)
        return fail(err, errsz,
                    "%s: .npy format version %u.%u is not supported", path,
                    major, pre[7]);
    lenbytes = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, lenbytes, f) != lenbytes)
        return fail(err, errsz, "%s: truncated .npy header", path);
    *hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    if (lenbytes == 4)
        *hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    if (*hlen == 0 || *hlen > HEADER_MAX)
        return fail(err, errsz, "%s: .npy header length %zu is out of range",
                    path, *hlen);
    return 0;
}

/* What the header dict says about the array. */
typedef struct npy_header {
    char descr[16];
    int fortran, ndim;
    int64_t shape[NPY_MAX_DIMS];
} npy_header;

static int read_header(FILE *f, const char *path, size_t hlen, npy_header *h,
                       char *err, size_t errsz)
{
    char *text = malloc(hlen + 1);
    int rc = 0;

    if (!text)
        return fail(err, errsz, "%s: out of memory reading the header",
                    path);
    if (fread(text, 1, hlen, f) != hlen) {
        rc = fail(err, errsz, "%s: truncated .npy header", path);
    } else {
        text[hlen] = '\0';
        if (parse_header(text, h->descr, sizeof h->descr, &h->fortran,
                         &h->ndim, h->shape) != 0)
            rc = fail(err, errsz, "%s: cannot parse the .npy header %.80s",
                      path, text);
    }
    free(text);
    return rc;
}

/* The file must hold exactly the array the caller expects. */
static int check_header(const npy_header *h, const char *path,
                        const char *descr, int ndim, const int64_t *shape,
                        char *err, size_t errsz)
{
    if (h->fortran)
        return fail(err, errsz, "%s: array is in Fortran order; save it in "
                    "C order (numpy.ascontiguousarray)", path);
    if (!same_descr(h->descr, descr))
        return fail(err, errsz, "%s: dtype '%s', but this tensor needs '%s'",
                    path, h->descr, descr);
    if (h->ndim != ndim ||
        memcmp(h->shape, shape, (size_t)ndim * sizeof *shape)) {
        char a[160], b[160];
        shape_str(a, sizeof a, h->ndim, h->shape);
        shape_str(b, sizeof b, ndim, shape);
        return fail(err, errsz, "%s: shape %s, but this tensor is %s "
                    "(logical order N, C, D, H, W)", path, a, b);
    }
    return 0;
}

int npy_read(const char *path, const char *descr, size_t esize, int ndim,
             const int64_t *shape, void *data, char *err, size_t errsz)
{
    npy_header h;
    size_t hlen = 0, count = 1;
    int i, rc;
    FILE *f = fopen(path, "rb");

    if (!f)
        return fail(err, errsz, "%s: %s", path, strerror(errno));
    memset(&h, 0, sizeof h);
    rc = read_preamble(f, path, &hlen, err, errsz);
    if (rc == 0)
        rc = read_header(f, path, hlen, &h, err, errsz);
    if (rc == 0)
        rc = check_header(&h, path, descr, ndim, shape, err, errsz);
    if (rc == 0) {
        for (i = 0; i < ndim; ++i)
            count *= (size_t)shape[i];
        if (fread(data, esize, count, f) != count)
            rc = fail(err, errsz, "%s: file holds fewer than the %zu "
                      "elements its header promises", path, count);
    }
    fclose(f);
    return rc;
}

int npy_write(const char *path, const char *descr, size_t esize, int ndim,
              const int64_t *shape, const void *data, char *err,
              size_t errsz)
{
    char dict[512], sh[300];
    size_t dlen, total, pre, count = 1;
    unsigned char head[12];
    int i, ok;
    FILE *f;

    shape_str(sh, sizeof sh, ndim, shape);
    dlen = (size_t)snprintf(dict, sizeof dict,
                            "{'descr': '%s', 'fortran_order': False, "
                            "'shape': %s, }",
                            descr, sh);
    if (dlen + 64 >= sizeof dict)
        return fail(err, errsz, "%s: .npy header too long", path);
    /* Version 1.0 (16-bit header length; ours is far shorter), data on a
     * 64-byte boundary as NumPy writes it. */
    pre = 10;
    total = (pre + dlen + 1 + 63) / 64 * 64;
    {
        size_t pad = total - pre - dlen - 1, k;
        for (k = 0; k < pad; ++k)
            dict[dlen + k] = ' ';
        dict[dlen + pad] = '\n';
    }
    memcpy(head, magic, 6);
    head[6] = 1;
    head[7] = 0;
    head[8] = (unsigned char)((total - pre) & 0xff);
    head[9] = (unsigned char)((total - pre) >> 8 & 0xff);
    head[10] = (unsigned char)((total - pre) >> 16 & 0xff);
    head[11] = (unsigned char)((total - pre) >> 24 & 0xff);
    for (i = 0; i < ndim; ++i)
        count *= (size_t)shape[i];

    f = fopen(path, "wb");
    if (!f)
        return fail(err, errsz, "%s: %s", path, strerror(errno));
    ok = fwrite(head, 1, pre, f) == pre &&
         fwrite(dict, 1, total - pre, f) == total - pre &&
         fwrite(data, esize, count, f) == count;
    if (fclose(f) != 0)
        ok = 0;
    if (!ok)
        return fail(err, errsz, "%s: write failed: %s", path,
                    strerror(errno));
    return 0;
}
