/* render_md.c - gmb table --format md: a Markdown table, then one paragraph on the medians'
 * CIs and on each mark its cells carry. */
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

char *gmb_render_md(const gmb_table_t *t)
{
    gmb_str_t b = {0};
    const gmb_cell_t *cells = t->cells;
    gmb_str_put(&b, t->lv ? "| Level | Measured by | Unit |" : "| Metric | Unit |");
    for (size_t c = 0; c < t->ncols; c++) {
        gmb_str_put(&b, " ");
        gmb_md_text(&b, t->cols[c]);
        gmb_str_put(&b, " |");
    }
    gmb_str_put(&b, t->lv ? "\n|---|---|---|" : "\n|---|---|");
    for (size_t c = 0; c < t->ncols; c++)
        gmb_str_put(&b, "---:|");
    gmb_str_put(&b, "\n");
    for (size_t r = 0; r < t->nrows; r++) {
        gmb_str_put(&b, "| ");
        if (t->lv) {
            gmb_md_text(&b, t->lv[r]->level);
            gmb_str_put(&b, " | ");
            gmb_md_text(&b, t->lv[r]->by);
        } else {
            gmb_md_text(&b, t->rows[r]->label);
        }
        gmb_str_put(&b, " | %s |", t->rows[r]->unit);
        for (size_t c = 0; c < t->ncols; c++) {
            gmb_str_put(&b, " ");
            gmb_cell_text(&b, &cells[r * t->ncols + c], 0);
            gmb_str_put(&b, " |");
        }
        gmb_str_put(&b, "\n");
    }
    gmb_str_put(&b, "\nMedians with their 95%% confidence interval in brackets.");
    if (t->notes & 1)
        gmb_str_put(&b, " ᶜ: no DRAM-sized point was measured; the best cache-resident point.");
    if (t->notes & 2)
        gmb_str_put(&b,
                    " ᵗ: the largest sets were 4 to 16 times the last-level cache (DRAM points, "
                    "but a repetition may still find part of its set in the cache).");
    if (t->notes & 4)
        gmb_str_put(&b, " ᵍ: given with --peak-bw, not the driver's figure (the %% of peak rows "
                        "use it).");
    if (t->notes & 8)
        gmb_str_put(&b, " ⁱ: from a program stopped before its end (the points it finished).");
    if (t->notes & 16)
        gmb_str_put(&b, " ᵖ: from a program with points that NVML saw held below the application "
                        "clocks (power, thermal or board limit) for over 1%% of their time (the "
                        "record's points say which).");
    if (t->notes & GMB_NOTE_UNCONVERGED)
        gmb_str_put(&b, " %s", GMB_UNCONV_LEGEND);
    if (t->notes & GMB_NOTE_PAST_LLC)
        gmb_str_put(&b, " ˡ: past the cache size the device reports: where the bandwidth plateau "
                        "ended (the sets there still hit in part), not the cache's size.");
    gmb_str_put(&b, "\n");
    return gmb_str_done(&b);
}
