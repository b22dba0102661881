/* clresample tool: --plot=FILE.svg, a bar chart of a run's timings. One
 * horizontal bar per problem (its GB/s; none where it was not timed,
 * with its status instead), vertical lines at the device's measured copy,
 * read and write bandwidths, the device and the date in the title. Plain
 * SVG 1.1 text, every string escaped for XML; drawn in memory and written
 * whole as .npy outputs are (outfile.h), so a reader never sees half a
 * chart. */
#include "cli.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Geometry, in SVG user units (pixels). */
#define PLOT_W 1000.0
#define PLOT_LABEL_W 420.0 /* problem labels, right-aligned to this x */
#define PLOT_X0 430.0      /* the bars start here */
#define PLOT_RIGHT 150.0   /* room for the value text past the longest */
#define PLOT_TOP 118.0     /* first bar's row */
#define PLOT_ROW 24.0
#define PLOT_BAR 16.0

/* Text for an XML attribute or element: markup characters as entities,
 * well-formed UTF-8 copied, and what XML 1.0 cannot hold (control
 * characters, bytes that are not UTF-8, U+FFFE and U+FFFF) as '?'. */
static void xml_text(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    while (*s) {
        int n = cli_utf8_len(s);
        if (n == 0 || (*s < 0x20 && *s != '\t' && *s != '\n') ||
            *s == 0x7F ||
            (n == 3 && s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE))
            fputc('?', f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else if (*s == '\'')
            fputs("&apos;", f);
        else
            fwrite(s, 1, (size_t)n, f);
        s += n ? n : 1;
    }
}

/* The smallest 1, 2 or 5 times a power of ten at or above v (v > 0). */
static double nice_step(double v)
{
    double p = pow(10.0, floor(log10(v)));
    if (v <= p)
        return p;
    if (v <= 2 * p)
        return 2 * p;
    if (v <= 5 * p)
        return 5 * p;
    return 10 * p;
}

static double finite_or_0(double v) { return isfinite(v) && v > 0 ? v : 0; }

/* A vertical bandwidth line across the bars, its name and value above. */
static void roof_line(FILE *f, double x, double y0, double y1,
                      const char *cls, const char *color, const char *dash,
                      const char *name, double gbps, double label_y)
{
    fprintf(f,
            "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
            "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s%s%s/>\n",
            cls, x, y0, x, y1, color, dash ? " stroke-dasharray=\"" : "",
            dash ? dash : "", dash ? "\"" : "");
    fprintf(f,
            "<text class=\"%s-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
            "text-anchor=\"middle\">%s %.1f</text>\n",
            cls, x, label_y, color, name, gbps);
}

static void write_svg(FILE *f, const cli_plot_info *info,
                      const cli_plot_bar *bars, size_t n)
{
    double copy = finite_or_0(info->copy_gbps);
    double rd = finite_or_0(info->read_gbps);
    double wr = finite_or_0(info->write_gbps);
    double top = 0, step, xmax, pw, scale, height, y_axis, x;
    char date[64];
    struct tm tm;
    size_t i;
    int t, nticks;

    for (i = 0; i < n; ++i)
        if (finite_or_0(bars[i].gbps) > top)
            top = bars[i].gbps;
    if (copy > top)
        top = copy;
    if (rd > top)
        top = rd;
    if (wr > top)
        top = wr;
    if (top <= 0)
        top = 1;
    step = nice_step(top / 5);
    nticks = (int)ceil(top / step);
    xmax = step * nticks;
    pw = PLOT_W - PLOT_X0 - PLOT_RIGHT;
    scale = pw / xmax;
    y_axis = PLOT_TOP + PLOT_ROW * (double)(n ? n : 1);
    height = y_axis + 56;

    if (gmtime_r(&info->when, &tm) == NULL ||
        strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm) == 0)
        snprintf(date, sizeof date, "(unknown date)");

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
               "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n",
            PLOT_W, height, PLOT_W, height);
    fputs("<title>clresample --mode=P: ", f);
    xml_text(f, info->device);
    fprintf(f, ", %s</title>\n", date);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
               "fill=\"white\"/>\n",
            PLOT_W, height);
    fputs("<text class=\"title\" x=\"10\" y=\"22\" font-size=\"15\" "
          "font-weight=\"bold\">",
          f);
    xml_text(f, info->device);
    fprintf(f, ", %s</text>\n", date);
    fputs("<text x=\"10\" y=\"42\">clresample --mode=P: GB/s of each "
          "problem (bytes read once and written once over the best "
          "kernel time)",
          f);
    if (copy > 0)
        fputs(" against the device's copy", f);
    fputs("</text>\n", f);
    if (copy > 0) {
        fprintf(f, "<text x=\"10\" y=\"60\">copy %.1f GB/s (the better of "
                   "plain and non-temporal stores)",
                copy);
        if (rd > 0 && wr > 0)
            fprintf(f, ", read alone %.1f GB/s, write alone %.1f GB/s",
                    rd, wr);
        fputs("; clresample --roofline</text>\n", f);
    } else {
        fputs("<text x=\"10\" y=\"60\">no bandwidth measured (see "
              "stderr; none with --engine=ref): bars alone</text>\n",
              f);
    }

    /* Grid and axis. */
    for (t = 0; t <= nticks; ++t) {
        x = PLOT_X0 + scale * step * t;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#dddddd\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g"
                "</text>\n",
                x, PLOT_TOP - 6, x, y_axis, x, y_axis + 16, step * t);
    }
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"black\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">GB/s</text>\n",
            PLOT_X0, y_axis, PLOT_X0 + pw, y_axis, PLOT_X0 + pw / 2,
            y_axis + 34);

    /* The bars. */
    for (i = 0; i < n; ++i) {
        const cli_plot_bar *b = &bars[i];
        double g = finite_or_0(b->gbps);
        double y = PLOT_TOP + PLOT_ROW * (double)i;
        double w = g * scale;
        const char *fill = b->above_copy ? "#e6550d" : "#3182bd";

        fputs("<g class=\"problem\">\n<title>", f);
        fprintf(f, "%d: ", b->index);
        xml_text(f, b->label);
        fputs(": ", f);
        xml_text(f, b->status);
        if (g > 0)
            fprintf(f, ", %.2f GB/s", g);
        if (isfinite(b->roof_pct))
            fprintf(f, ", %.1f%% of copy", b->roof_pct);
        fputs("</title>\n", f);
        fprintf(f,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d ",
                PLOT_LABEL_W, y + PLOT_BAR - 3, b->index);
        xml_text(f, b->label);
        fputs("</text>\n", f);
        fprintf(f,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%.1f\" fill=\"%s\"/>\n",
                PLOT_X0, y + (PLOT_ROW - PLOT_BAR) / 2 - 2, w, PLOT_BAR,
                fill);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", PLOT_X0 + w + 5,
                y + PLOT_BAR - 3);
        if (g > 0) {
            fprintf(f, "%.1f", g);
            if (isfinite(b->roof_pct))
                fprintf(f, " (%.0f%%%s)", b->roof_pct,
                        b->above_copy ? " !" : "");
        } else {
            xml_text(f, b->status);
        }
        fputs("</text>\n</g>\n", f);
    }

    /* Bandwidth lines over the bars. */
    if (rd > 0)
        roof_line(f, PLOT_X0 + rd * scale, PLOT_TOP - 6, y_axis, "read",
                  "#31a354", "6,3", "read", rd, PLOT_TOP - 26);
    if (wr > 0)
        roof_line(f, PLOT_X0 + wr * scale, PLOT_TOP - 6, y_axis, "write",
                  "#756bb1", "2,3", "write", wr, PLOT_TOP - 12);
    if (copy > 0)
        roof_line(f, PLOT_X0 + copy * scale, PLOT_TOP - 6, y_axis, "copy",
                  "#de2d26", NULL, "copy", copy, PLOT_TOP - 40);
    fputs("</svg>\n", f);
}

int cli_plot_svg(const char *path, const cli_plot_info *info,
                 const cli_plot_bar *bars, size_t n, char *err,
                 size_t errsz)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    const void *part[1];
    size_t len[1];
    int rc;

    if (!f) {
        snprintf(err, errsz, "%s: cannot draw the chart: %s", path,
                 strerror(errno));
        return -1;
    }
    write_svg(f, info, bars, n);
    if (fclose(f) != 0 || !text) {
        snprintf(err, errsz, "%s: cannot draw the chart: %s", path,
                 strerror(errno));
        free(text);
        return -1;
    }
    part[0] = text;
    len[0] = size;
    rc = cli_replace_file(path, part, len, 1, err, errsz);
    free(text);
    return rc;
}
