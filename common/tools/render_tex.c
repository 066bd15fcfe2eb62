/* render_tex.c - gmb table --format tex: a LaTeX tabular as wide as the text (the array
 * package), the marks explained in a comment line. */
#include "tools/reader.h"

/* What each mark of the cells says, in the comment line under the LaTeX table */
static const gmb_note_text_t tex_notes[] = {
    {1, "; c: no DRAM-sized point was measured, the best cache-resident point", NULL},
    {2, "; t: the largest sets were 4 to 16 times the last-level cache", NULL},
    {4, "; g: given with --peak-bw, not the driver's figure (the % of peak rows use it)", NULL},
    {8, "; i: from a program stopped before its end (the points it finished)", NULL},
    {16,
     "; p: from a program with points held below the application clocks for over 1% of their "
     "time (NVML)",
     NULL},
    {GMB_NOTE_UNCONVERGED, "; dagger: ", &GMB_UNCONV_LEGEND[sizeof "†: " - 1]},
    {GMB_NOTE_PAST_LLC,
     "; l: past the cache size the device reports, where the bandwidth plateau ended, not the "
     "cache's size",
     NULL},
    {0, NULL, NULL},
};

char *gmb_render_tex(const gmb_table_t *t)
{
    gmb_str_t b = {0};
    const gmb_cell_t *cells = t->cells;
    /* the width of the text, whatever the columns: the label column and the values
     * wrap (p columns), the device names of the header too */
    gmb_str_put(&b, "%% gmb table: needs \\usepackage{array} (no booktabs, no siunitx); as "
                    "wide as the text\n");
    gmb_str_put(&b, "{\\small\\noindent%%\n\\begin{tabular}{@{}>{\\raggedright\\arraybackslash}"
                    "p{\\dimexpr0.34\\linewidth-\\tabcolsep\\relax}");
    for (size_t c = 0; c < t->ncols; c++)
        gmb_str_put(&b,
                    ">{\\raggedleft\\arraybackslash}p{\\dimexpr0.66\\linewidth/%zu-2\\tabcolsep"
                    "%s\\relax}",
                    t->ncols ? t->ncols : 1, c + 1 == t->ncols ? "+\\tabcolsep" : "");
    gmb_str_put(&b, "@{}}\n\\hline\n%s", t->lv ? "Level --- measured by (unit)" : "Metric (unit)");
    for (size_t c = 0; c < t->ncols; c++) {
        gmb_str_put(&b, " & ");
        gmb_tex_text(&b, t->cols[c]);
    }
    gmb_str_put(&b, " \\\\\n\\hline\n");
    for (size_t r = 0; r < t->nrows; r++) {
        if (t->lv) { /* the level, and who measured it */
            gmb_tex_text(&b, t->lv[r]->level);
            gmb_str_put(&b, " --- ");
            gmb_tex_text(&b, t->lv[r]->by);
        } else {
            gmb_tex_text(&b, t->rows[r]->label);
        }
        const char *u = gmb_tex_unit(t->rows[r]->unit);
        if (t->rows[r]->unit[0]) { /* the unit in the label column: one column less */
            gmb_str_put(&b, " (");
            if (u)
                gmb_str_put(&b, "%s", u);
            else
                gmb_tex_text(&b, t->rows[r]->unit);
            gmb_str_put(&b, ")");
        }
        for (size_t c = 0; c < t->ncols; c++) {
            gmb_str_put(&b, " & ");
            gmb_cell_text(&b, &cells[r * t->ncols + c], 1);
        }
        gmb_str_put(&b, " \\\\\n");
    }
    gmb_str_put(&b, "\\hline\n\\end{tabular}\\par}\n");
    gmb_str_put(&b, "%% medians with their 95%% confidence interval in brackets");
    gmb_notes_put(&b, t->notes, tex_notes);
    gmb_str_put(&b, "\n");
    return gmb_str_done(&b);
}
