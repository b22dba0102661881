/* clresample tool: NumPy .npy reading and writing. Only what the tool
 * needs: C-order, little-endian arrays whose dtype and shape it knows. */
#include "npy.h"
#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
/* NumPy refuses headers it considers absurd; so do we, to bound memory. */
#define HEADER_MAX (1u << 20)

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

/* ---- the header dict ----
 * A Python literal such as {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), }: the three keys in any order, each once and no
 * other (as NumPy demands), either quote style, a trailing comma allowed,
 * then the padding (spaces, a newline). */

/* What the header dict says about the array. */
typedef struct npy_header {
    char descr[16];
    int fortran, ndim;
    int64_t shape[NPY_MAX_DIMS];
} npy_header;

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p))
        ++p;
    return p;
}

/* A quoted string without escapes into out; the text after it, or NULL. */
static const char *string_lit(const char *p, char *out, size_t n)
{
    char q = *p;
    size_t len = 0;

    if (q != '\'' && q != '"')
        return NULL;
    for (++p; *p && *p != q; ++p) {
        if (*p == '\\' || len + 1 >= n)
            return NULL;
        out[len++] = *p;
    }
    out[len] = '\0';
    return *p == q ? p + 1 : NULL;
}

/* (d0, d1, ...) with an optional trailing comma ((2,) is 1-D, () 0-D);
 * Python 2 era writers added an L to longs. */
static const char *tuple_lit(const char *p, npy_header *h)
{
    if (*p != '(')
        return NULL;
    p = skip_ws(p + 1);
    h->ndim = 0;
    while (*p != ')') {
        int64_t v = 0;
        if (!isdigit((unsigned char)*p) || h->ndim >= NPY_MAX_DIMS)
            return NULL;
        for (; isdigit((unsigned char)*p); ++p) {
            if (v > (INT64_MAX - 9) / 10)
                return NULL;
            v = v * 10 + (*p - '0');
        }
        if (*p == 'L')
            ++p;
        h->shape[h->ndim++] = v;
        p = skip_ws(p);
        if (*p == ',')
            p = skip_ws(p + 1);
        else if (*p != ')')
            return NULL;
    }
    return p + 1;
}

/* One "key: value" entry; *seen collects the keys. Returns the text after
 * the value, or NULL with the reason in why. */
static const char *entry(const char *p, npy_header *h, unsigned *seen,
                         const char **why)
{
    static const char *const keys[] = {"descr", "fortran_order", "shape"};
    char key[32];
    unsigned k;

    *why = "a key is not a quoted string";
    if (!(p = string_lit(p, key, sizeof key)))
        return NULL;
    for (k = 0; k < 3 && strcmp(key, keys[k]) != 0; ++k)
        ;
    *why = k == 3 ? "a key other than descr, fortran_order and shape"
                  : "a key given twice";
    if (k == 3 || (*seen & 1u << k))
        return NULL;
    *seen |= 1u << k;
    p = skip_ws(p);
    *why = "no ':' after a key";
    if (*p != ':')
        return NULL;
    p = skip_ws(p + 1);
    *why = k == 0 ? "descr is not a short quoted string"
           : k == 1 ? "fortran_order is not True or False"
                    : "shape is not a tuple of at most 8 sizes";
    if (k == 0)
        return string_lit(p, h->descr, sizeof h->descr);
    if (k == 2)
        return tuple_lit(p, h);
    if (strncmp(p, "True", 4) == 0) {
        h->fortran = 1;
        return p + 4;
    }
    if (strncmp(p, "False", 5) == 0) {
        h->fortran = 0;
        return p + 5;
    }
    return NULL;
}

/* The whole dict; NULL, or what is wrong with it. */
static const char *parse_header(const char *text, npy_header *h)
{
    const char *p = skip_ws(text), *why = "no '{'";
    unsigned seen = 0;

    if (*p != '{')
        return why;
    p = skip_ws(p + 1);
    while (*p != '}') {
        if (!(p = entry(p, h, &seen, &why)))
            return why;
        p = skip_ws(p);
        if (*p == ',')
            p = skip_ws(p + 1);
        else if (*p != '}')
            return "no ',' or '}' after a value";
    }
    if (*skip_ws(p + 1) != '\0')
        return "text after the dict";
    if (seen != 7)
        return !(seen & 1) ? "no descr key"
               : !(seen & 2) ? "no fortran_order key" : "no shape key";
    return NULL;
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
        return cli_fail(err, errsz, "%s: not a NumPy .npy file (bad magic)",
                        path);
    major = pre[6];
    if (major < 1 || major > 3)
        return cli_fail(err, errsz,
                        "%s: .npy format version %u.%u is not supported",
                        path, major, pre[7]);
    lenbytes = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, lenbytes, f) != lenbytes)
        return cli_fail(err, errsz, "%s: truncated .npy header", path);
    *hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    if (lenbytes == 4)
        *hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    if (*hlen == 0 || *hlen > HEADER_MAX)
        return cli_fail(err, errsz,
                        "%s: .npy header length %zu is out of range", path,
                        *hlen);
    return 0;
}

static int read_header(FILE *f, const char *path, size_t hlen, npy_header *h,
                       char *err, size_t errsz)
{
    char *text = malloc(hlen + 1);
    int rc = 0;

    if (!text)
        return cli_fail(err, errsz, "%s: out of memory reading the header",
                        path);
    if (fread(text, 1, hlen, f) != hlen) {
        rc = cli_fail(err, errsz, "%s: truncated .npy header", path);
    } else {
        const char *why;
        text[hlen] = '\0';
        if (memchr(text, '\0', hlen))
            rc = cli_fail(err, errsz, "%s: .npy header holds a NUL byte",
                          path);
        else if ((why = parse_header(text, h)) != NULL) {
            size_t n = hlen; /* quoted without the padding */
            while (n > 0 && isspace((unsigned char)text[n - 1]))
                --n;
            rc = cli_fail(err, errsz, "%s: cannot parse the .npy header (%s): "
                          "%.*s", path, why, n < 80 ? (int)n : 80, text);
        }
    }
    free(text);
    return rc;
}

/* The file must hold exactly the array the caller expects. */
static int check_header(const npy_header *h, const char *path,
                        const char *descr, int ndim, const int64_t *shape,
                        char *err, size_t errsz)
{
    if (!same_descr(h->descr, descr))
        return cli_fail(err, errsz,
                        "%s: dtype '%s', but this tensor needs '%s'", path,
                        h->descr, descr);
    if (h->ndim != ndim ||
        memcmp(h->shape, shape, (size_t)ndim * sizeof *shape)) {
        char a[160], b[160];
        shape_str(a, sizeof a, h->ndim, h->shape);
        shape_str(b, sizeof b, ndim, shape);
        return cli_fail(err, errsz, "%s: shape %s, but this tensor is %s "
                        "(logical order N, C, D, H, W)", path, a, b);
    }
    return 0;
}

/* path opened for reading if it is a regular file (a FIFO is not waited
 * on); NULL with the reason in err. */
static FILE *open_regular(const char *path, char *err, size_t errsz)
{
    struct stat st;
    FILE *f = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK);

    if (fd < 0) {
        cli_fail(err, errsz, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0)
        cli_fail(err, errsz, "%s: %s", path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        cli_fail(err, errsz, "%s: is a directory, not a .npy file", path);
    else if (!S_ISREG(st.st_mode))
        cli_fail(err, errsz, "%s: not a regular file", path);
    else if ((f = fdopen(fd, "rb")) == NULL)
        cli_fail(err, errsz, "%s: %s", path, strerror(errno));
    if (!f)
        close(fd);
    return f;
}

/* Fortran order (what NumPy writes for a transposed or asfortranarray
 * array) is the same elements with the first index fastest: src's
 * elements moved to dst in C order. */
static void from_fortran(const unsigned char *src, unsigned char *dst,
                         size_t esize, int ndim, const int64_t *shape,
                         size_t count)
{
    int64_t idx[NPY_MAX_DIMS], stride[NPY_MAX_DIMS];
    size_t i, off = 0;
    int d;

    for (d = 0; d < ndim; ++d) {
        idx[d] = 0;
        stride[d] = d ? stride[d - 1] * shape[d - 1] : 1;
    }
    for (i = 0; i < count; ++i) {
        memcpy(dst + i * esize, src + off * esize, esize);
        /* the next C-order index, last axis fastest */
        for (d = ndim - 1; d >= 0; --d) {
            off += (size_t)stride[d];
            if (++idx[d] < shape[d])
                break;
            off -= (size_t)(stride[d] * shape[d]);
            idx[d] = 0;
        }
    }
}

int npy_read(const char *path, const char *descr, size_t esize, int ndim,
             const int64_t *shape, void *data, char *err, size_t errsz)
{
    npy_header h;
    size_t hlen = 0, count = 1;
    int i, rc;
    FILE *f = open_regular(path, err, errsz);

    if (!f)
        return -1;
    memset(&h, 0, sizeof h);
    rc = read_preamble(f, path, &hlen, err, errsz);
    if (rc == 0)
        rc = read_header(f, path, hlen, &h, err, errsz);
    if (rc == 0)
        rc = check_header(&h, path, descr, ndim, shape, err, errsz);
    if (rc == 0) {
        unsigned char *buf = data;
        for (i = 0; i < ndim; ++i)
            count *= (size_t)shape[i];
        if (h.fortran && ndim > 1 && count > 1 &&
            (buf = malloc(count * esize)) == NULL)
            rc = cli_fail(err, errsz, "%s: out of memory reading a Fortran-"
                          "order array", path);
        else if (fread(buf, esize, count, f) != count)
            rc = cli_fail(err, errsz, "%s: file holds fewer than the %zu "
                          "elements its header promises", path, count);
        else if (buf != data)
            from_fortran(buf, data, esize, ndim, shape, count);
        if (buf != data)
            free(buf);
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
    const void *part[3];
    size_t len[3];
    int i;

    shape_str(sh, sizeof sh, ndim, shape);
    dlen = (size_t)snprintf(dict, sizeof dict,
                            "{'descr': '%s', 'fortran_order': False, "
                            "'shape': %s, }",
                            descr, sh);
    if (dlen + 64 >= sizeof dict)
        return cli_fail(err, errsz, "%s: .npy header too long", path);
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

    part[0] = head;
    len[0] = pre;
    part[1] = dict;
    len[1] = total - pre;
    part[2] = data;
    len[2] = esize * count;
    return cli_replace_file(path, part, len, 3, err, errsz);
}
