/* render_md.c - gmb table --format md: a Markdown table, then one paragraph on the medians'
 * CIs and on each mark its cells carry. */
#include "tools/reader.h"

/* What each mark of the cells says, in the paragraph under the Markdown table */
static const gmb_note_text_t md_notes[] = {
    {1, " ᶜ: no DRAM-sized point was measured; the best cache-resident point.", NULL},
    {2,
     " ᵗ: the largest sets were 4 to 16 times the last-level cache (DRAM points, but a "
     "repetition may still find part of its set in the cache).",
     NULL},
    {4, " ᵍ: given with --peak-bw, not the driver's figure (the % of peak rows use it).", NULL},
    {8, " ⁱ: from a program stopped before its end (the points it finished).", NULL},
    {16,
     " ᵖ: from a program with points that NVML saw held below the application clocks (power, "
     "thermal or board limit) for over 1% of their time (the record's points say which).",
     NULL},
    {GMB_NOTE_UNCONVERGED, " ", GMB_UNCONV_LEGEND},
    {GMB_NOTE_PAST_LLC,
     " ˡ: past the cache size the device reports: where the bandwidth plateau ended (the sets "
     "there still hit in part), not the cache's size.",
     NULL},
    {0, NULL, NULL},
};

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
    gmb_notes_put(&b, t->notes, md_notes);
    gmb_str_put(&b, "\n");
    return gmb_str_done(&b);
}
