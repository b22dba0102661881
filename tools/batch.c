/* clresample tool: --batch=FILE, files of tokens read whole before
 * anything runs: comments, benchdnn's line continuations, nested batch
 * files looked up beside the file that names them. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds on the work any command line can ask of the parser: batch files
 * that include each other many times without a cycle are cut off by the
 * file count and total size (comma lists by the problem count, expand.c's
 * MAX_PROBLEMS). */
#define MAX_BATCH_DEPTH 16
#define MAX_BATCH_FILES 1000
#define MAX_BATCH_BYTES (16u << 20)
#define MAX_BATCH_TOTAL (64u << 20)

/* path opened for reading if it is a regular file: without waiting on a
 * FIFO (a batch file is read whole before anything runs), and saying what
 * it is otherwise. NULL after the message. */
static FILE *open_batch(const state *s, const char *path, const char *tok)
{
    char msg[ERRSZ];
    struct stat st;
    FILE *f = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK);

    if (fd < 0) {
        snprintf(msg, sizeof msg, "cannot open batch file '%s': %s", path,
                 strerror(errno));
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, sizeof msg, "batch file '%s' is %s", path,
                 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    } else if ((f = fdopen(fd, "rb")) == NULL) {
        snprintf(msg, sizeof msg, "cannot open batch file '%s': %s", path,
                 strerror(errno));
    }
    if (!f) {
        if (fd >= 0)
            close(fd);
        usage_error(s, tok, msg);
    }
    return f;
}

/* A whole batch file, NUL-terminated, in *out (the caller frees it). */
static int load_batch(state *s, const char *path, const char *tok,
                      char **out)
{
    FILE *f;
    char *buf;
    size_t len;
    long size;

    if (s->files >= MAX_BATCH_FILES)
        return usage_error(s, tok, "more than 1000 batch files read in all "
                           "(files that include each other many times?)");
    f = open_batch(s, path, tok);
    if (!f)
        return CLI_EXIT_USAGE;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        (unsigned long)size > MAX_BATCH_BYTES || fseek(f, 0, SEEK_SET)) {
        fclose(f);
        return usage_error(s, tok, "batch file is unreadable or larger "
                           "than 16 MiB");
    }
    if (s->batch_bytes + (size_t)size > MAX_BATCH_TOTAL) {
        fclose(f);
        return usage_error(s, tok, "batch files total more than 64 MiB "
                           "(files that include each other many times?)");
    }
    buf = malloc((size_t)size + 1);
    if (!buf) {
        fclose(f);
        return usage_error(s, tok, "out of memory");
    }
    len = fread(buf, 1, (size_t)size, f);
    fclose(f);
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        free(buf);
        return usage_error(s, tok, "batch file contains a NUL byte");
    }
    s->files++;
    s->batch_bytes += len;
    *out = buf;
    return 0;
}

/* One token of the batch file at path. Nested batches are looked up
 * beside the including file first, so a suite runs from any directory. */
static int batch_token(state *s, const char *path, const char *tok)
{
    const char *dir_end = strrchr(path, '/'), *pr;
    char rel[1200];
    struct stat st;

    if (strncmp(tok, "--batch=", 8) != 0 || tok[8] == '/' || !dir_end)
        return s->token(s, tok);
    snprintf(rel, sizeof rel, "%.*s/%s", (int)(dir_end - path), path,
             tok + 8);
    if (stat(rel, &st) != 0)
        return s->token(s, tok);
    pr = pool_dup(rel, strlen(rel));
    return pr ? read_batch(s, pr, tok) : usage_error(s, tok, "out of memory");
}

/* A token of a batch file held back until the next one shows whether a
 * backslash joins them, with the line it started on. benchdnn's line
 * continuation: a token ending in a backslash, or a backslash standing
 * alone, joins the tokens before and after it ("--x=a, BACKSLASH" then
 * "b" on the next line is "--x=a,b"). */
typedef struct held_tok {
    char *text;
    size_t len, cap;
    int line, open; /* open: a token is held */
} held_tok;

static int held_append(held_tok *h, const char *t, size_t n)
{
    if (h->len + n + 1 > h->cap) {
        size_t cap = (h->len + n + 1) * 2;
        char *nt = realloc(h->text, cap);
        if (!nt)
            return -1;
        h->text = nt;
        h->cap = cap;
    }
    memcpy(h->text + h->len, t, n);
    h->len += n;
    h->text[h->len] = '\0';
    return 0;
}

/* Runs the held token, if any, as from path:line. */
static int held_run(state *s, const char *path, held_tok *h, char *where,
                    size_t wsize)
{
    int rc;
    if (!h->open)
        return 0;
    snprintf(where, wsize, "%s:%d", path, h->line);
    s->where = where;
    rc = batch_token(s, path, h->text);
    h->open = 0;
    h->len = 0;
    return rc;
}

/* One whitespace-separated token t (n bytes, NUL-terminated) of the
 * file: joined to the held one after a backslash, else the held one runs
 * and t is held. */
static int held_take(state *s, const char *path, held_tok *h, int *joined,
                     const char *t, size_t n, int line, char *where,
                     size_t wsize)
{
    int cont = t[n - 1] == '\\', rc = 0;

    if (*joined) {
        if (!h->open) {
            snprintf(where, wsize, "%s:%d", path, line);
            s->where = where;
            return usage_error(s, t, "a line continuation ('\\') with no "
                               "token before it");
        }
    } else if (cont && n == 1) {
        *joined = 1; /* a lone backslash: the held token and the next join */
        return 0;
    } else {
        rc = held_run(s, path, h, where, wsize);
        if (rc != 0)
            return rc;
        h->open = 1;
        h->line = line;
    }
    *joined = cont;
    if (held_append(h, t, n - (size_t)cont) != 0)
        return usage_error(s, t, "out of memory");
    return 0;
}

int read_batch(state *s, const char *path, const char *tok)
{
    char *buf = NULL, *p;
    int line = 1, rc, joined = 0;
    char where[600];
    const char *saved_where = s->where;
    held_tok h;

    if (s->depth >= MAX_BATCH_DEPTH)
        return usage_error(s, tok, "batch files nest more than 16 deep (a "
                           "cycle?)");
    rc = load_batch(s, path, tok, &buf);
    if (rc != 0)
        return rc;

    memset(&h, 0, sizeof h);
    ++s->depth;
    p = buf;
    while (*p && rc == 0) {
        char *start, save;
        if (*p == '\n') {
            ++line;
            ++p;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            ++p;
            continue;
        }
        if (*p == '#') {
            while (*p && *p != '\n')
                ++p;
            continue;
        }
        start = p;
        while (*p && !isspace((unsigned char)*p))
            ++p;
        save = *p;
        *p = '\0';
        rc = held_take(s, path, &h, &joined, start, (size_t)(p - start),
                       line, where, sizeof where);
        *p = save;
    }
    if (rc == 0)
        rc = held_run(s, path, &h, where, sizeof where);
    --s->depth;
    s->where = saved_where;
    free(h.text);
    free(buf);
    return rc;
}
