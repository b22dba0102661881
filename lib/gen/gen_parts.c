/* The building blocks a kernel gets: the parts of the embedded cl/ files
 * (cl_embed.c) that define what the kernel, or another part it gets,
 * names. A dump of any kernel then holds the helpers it uses and no
 * others. */
#include "gen/gen_emit.h"

#include <ctype.h>

static int ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Whether text names identifier id (n characters) as a whole token. */
static int names(const char *text, const char *id, size_t n)
{
    const char *p = text;

    while ((p = strstr(p, id)) != NULL) {
        if ((p == text || !ident_char(p[-1])) && !ident_char(p[n]))
            return 1;
        p += n;
    }
    return 0;
}

/* Whether text names a macro that part s defines. */
static int uses(const char *text, const clrs_cl_snippet *s)
{
    const char *p = s->text;
    char id[64];

    while ((p = strstr(p, "#define ")) != NULL) {
        size_t n = 0;
        p += strlen("#define ");
        while (ident_char(p[n]) && n + 1 < sizeof id) {
            id[n] = p[n];
            ++n;
        }
        id[n] = '\0';
        if (n > 0 && names(text, id, n))
            return 1;
        p += n;
    }
    return 0;
}

/* Whether part i is wanted: the kernel or a part in names what it
 * defines. */
static int wanted(const char *kernel, const unsigned char *in, size_t i)
{
    size_t j;

    if (uses(kernel, &clrs__cl_snippets[i]))
        return 1;
    for (j = 0; clrs__cl_snippets[j].file; ++j)
        if (in[j] && uses(clrs__cl_snippets[j].text, &clrs__cl_snippets[i]))
            return 1;
    return 0;
}

clrs_status clrs__gen_select_parts(const char *kernel, unsigned char *in)
{
    size_t i, j;
    int more = 1;

    for (i = 0; clrs__cl_snippets[i].file; ++i) {
        CLRS_CHECK(i < CLRS_GEN_MAX_PARTS, CLRS_ERR_BUILD_FAILED,
                   "codegen: more than %d building-block parts",
                   CLRS_GEN_MAX_PARTS);
        in[i] = 0;
    }
    while (more) { /* until no part brings in another */
        more = 0;
        for (i = 0; clrs__cl_snippets[i].file; ++i)
            if (!in[i] && *clrs__cl_snippets[i].part && wanted(kernel, in, i))
                in[i] = 1, more = 1;
    }
    /* A file's introduction goes with any part of it. */
    for (i = 0; clrs__cl_snippets[i].file; ++i)
        for (j = 0; !*clrs__cl_snippets[i].part && clrs__cl_snippets[j].file;
             ++j)
            if (in[j] && strcmp(clrs__cl_snippets[j].file,
                                clrs__cl_snippets[i].file) == 0)
                in[i] = 1;
    return CLRS_SUCCESS;
}

int clrs__gen_parts_name(const unsigned char *in, const char *id)
{
    size_t i;

    for (i = 0; clrs__cl_snippets[i].file; ++i)
        if (in[i] && names(clrs__cl_snippets[i].text, id, strlen(id)))
            return 1;
    return 0;
}

void clrs__gen_emit_parts(sbuf *b, const unsigned char *in)
{
    size_t i;

    for (i = 0; clrs__cl_snippets[i].file; ++i) {
        const clrs_cl_snippet *s = &clrs__cl_snippets[i];
        if (!in[i])
            continue;
        if (!*s->part && b->n >= 2 && strcmp(b->s + b->n - 2, "\n\n") != 0)
            clrs__gen_sb_add(b, "\n"); /* a blank line between files */
        if (!*s->part)
            clrs__gen_sb_add(b, "/* ---- %s ---- */\n", s->file);
        clrs__gen_sb_add(b, "%s", s->text);
    }
}
