/* render_tex.c - gmb table --format tex: a LaTeX tabular as wide as the text (the array
 * package), the marks explained in a comment line. */
#include "gmb.h"
#include "model/curves.h"
#include "model/levels.h"
#include "model/stats.h"
#include "nvml.h"
#include "record.h"
#include "tools/reader.h"
#include "tools/tools.h"
#include "topo.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    if (t->notes & 1)
        gmb_str_put(&b, "; c: no DRAM-sized point was measured, the best cache-resident point");
    if (t->notes & 2)
        gmb_str_put(&b, "; t: the largest sets were 4 to 16 times the last-level cache");
    if (t->notes & 4)
        gmb_str_put(&b, "; g: given with --peak-bw, not the driver's figure (the %% of peak rows "
                        "use it)");
    if (t->notes & 8)
        gmb_str_put(&b, "; i: from a program stopped before its end (the points it finished)");
    if (t->notes & 16)
        gmb_str_put(&b, "; p: from a program with points held below the application clocks for "
                        "over 1%% of their time (NVML)");
    if (t->notes & GMB_NOTE_UNCONVERGED)
        gmb_str_put(&b, "; dagger: %s", &GMB_UNCONV_LEGEND[strlen("†: ")]);
    if (t->notes & GMB_NOTE_PAST_LLC)
        gmb_str_put(&b, "; l: past the cache size the device reports, where the bandwidth plateau "
                        "ended, not the cache's size");
    gmb_str_put(&b, "\n");
    return gmb_str_done(&b);
}
