/* render.c - the table's text: numbers, escapes per format, a cell with its CI and marks,
 * and the one renderer a format names (render_md.c, render_tex.c, render_csv.c). */
#include "gmb.h"
#include "record.h"
#include "tools/reader.h"

#include <math.h>
#include <string.h>

/* LaTeX-escape text */
void gmb_tex_text(gmb_str_t *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            gmb_str_put(b, "\\%c", *s);
            break;
        case '~':
            gmb_str_put(b, "\\textasciitilde{}");
            break;
        case '^':
            gmb_str_put(b, "\\textasciicircum{}");
            break;
        case '\\':
            gmb_str_put(b, "\\textbackslash{}");
            break;
        default: /* a control character (a line feed ends a paragraph) as a space */
            gmb_str_put(b, "%c", (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
        }
    }
}

/* A unit in plain LaTeX (no siunitx): the few that need more than escaping. */
const char *gmb_tex_unit(const char *u)
{
    static const char *const map[][2] = {
        {"x", "$\\times$"},
        {"%", "\\%"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(u, map[i][0]))
            return map[i][1];
    return NULL;
}

void gmb_text_plain(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            *p = ' ';
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) /* C1: two bytes, two spaces */
            *p = p[1] = ' ';
}

const char *gmb_md_esc(unsigned char c)
{
    switch (c) {
    case '|':
        return "\\|";
    case '\\':
        return "\\\\";
    case '[':
        return "\\[";
    case ']':
        return "\\]";
    case '!':
        return "\\!";
    case '`':
        return "\\`";
    case '*':
        return "\\*";
    case '_':
        return "\\_";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '&':
        return "&amp;";
    default:
        return c < 0x20 || c == 0x7f ? " " : NULL;
    }
}

/* Markdown-escape a record's text (gmb_md_esc): no markup of its own, no row of its own. */
void gmb_md_text(gmb_str_t *b, const char *s)
{
    for (; *s; s++) {
        const char *e = gmb_md_esc((unsigned char)*s);
        if (e)
            gmb_str_put(b, "%s", e);
        else
            gmb_str_put(b, "%c", *s);
    }
}

/* A table CSV field: gmb_csv_field's rule (RFC 4180; the row labels have commas). */
void gmb_csv_text(gmb_str_t *b, const char *s)
{
    char small[512];
    size_t n = gmb_csv_field(small, sizeof small, s);
    if (n < sizeof small) {
        gmb_str_put(b, "%s", small);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        b->bad = 1;
        return;
    }
    gmb_csv_field(big, n + 1, s);
    gmb_str_put(b, "%s", big);
    free(big);
}

void gmb_cell_text(gmb_str_t *b, const gmb_cell_t *c, int tex)
{
    char v[48], lo[48], hi[48];
    if (c->kind == 0) {
        gmb_str_put(b, tex ? "--" : "–");
        return;
    }
    if (c->kind == 2) { /* a text: its marks too */
        if (tex)
            gmb_tex_text(b, c->text);
        else
            gmb_md_text(b, c->text);
    } else {
        gmb_fmt_num(c->v, v, sizeof v);
        gmb_str_put(b, "%s", v);
    }
    if (c->kind == 1 && c->lo == c->lo && c->hi == c->hi) {
        gmb_fmt_num(c->lo, lo, sizeof lo);
        gmb_fmt_num(c->hi, hi, sizeof hi);
        if (tex)
            gmb_str_put(b, " {\\footnotesize[%s, %s]}", lo, hi);
        else
            gmb_str_put(b, " [%s, %s]", lo, hi);
    }
    if (c->note & 1)
        gmb_str_put(b, tex ? "\\textsuperscript{c}" : " ᶜ");
    if (c->note & 2)
        gmb_str_put(b, tex ? "\\textsuperscript{t}" : " ᵗ");
    if (c->note & 4)
        gmb_str_put(b, tex ? "\\textsuperscript{g}" : " ᵍ");
    if (c->note & 8)
        gmb_str_put(b, tex ? "\\textsuperscript{i}" : " ⁱ");
    if (c->note & 16)
        gmb_str_put(b, tex ? "\\textsuperscript{p}" : " ᵖ");
    if (c->note & GMB_NOTE_UNCONVERGED)
        gmb_str_put(b, tex ? "\\textsuperscript{\\dag}" : " †");
    if (c->note & GMB_NOTE_PAST_LLC)
        gmb_str_put(b, tex ? "\\textsuperscript{l}" : " ˡ");
}

void gmb_notes_put(gmb_str_t *b, int notes, const gmb_note_text_t *n)
{
    for (; n->bit; n++)
        if (notes & n->bit)
            gmb_str_put(b, "%s%s", n->text, n->tail ? n->tail : "");
}

/* The renderers, one a format: gmb table --format NAME */
static const struct {
    const char *name;                  /* the format's name */
    char *(*fn)(const gmb_table_t *t); /* its text; NULL on failure */
} renderers[] = {{"md", gmb_render_md}, {"tex", gmb_render_tex}, {"csv", gmb_render_csv}};

char *gmb_table_render(const gmb_table_t *t, const char *fmt)
{
    for (size_t i = 0; i < sizeof renderers / sizeof renderers[0]; i++)
        if (!strcmp(fmt, renderers[i].name))
            return renderers[i].fn(t);
    return NULL;
}
