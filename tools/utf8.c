/* clresample tool: UTF-8, which the JSON lines (report.c) and the SVG
 * chart (plot.c) copy where well-formed and escape where not. */
#include "cli.h"

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0: no
 * overlong forms, no surrogates, nothing above U+10FFFF. */
int cli_utf8_len(const unsigned char *s)
{
    unsigned c = s[0], lo = 0x80, hi = 0xBF;
    int n, i;

    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (c == 0xE0)
        lo = 0xA0; /* overlong */
    else if (c == 0xED)
        hi = 0x9F; /* surrogates */
    else if (c == 0xF0)
        lo = 0x90; /* overlong */
    else if (c == 0xF4)
        hi = 0x8F; /* past U+10FFFF */
    for (i = 1; i < n; ++i) {
        if (s[i] < lo || s[i] > hi)
            return 0;
        lo = 0x80;
        hi = 0xBF;
    }
    return n;
}
