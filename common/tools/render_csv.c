/* render_csv.c - gmb table --format csv: a row per figure, four columns a run (value, the CI's
 * ends, unconverged/points). */
#include "tools/reader.h"

char *gmb_render_csv(const gmb_table_t *t)
{
    gmb_str_t b = {0};
    const gmb_cell_t *cells = t->cells;
    gmb_str_put(&b, t->lv ? "level,measured_by,metric,unit" : "metric,unit");
    for (size_t c = 0; c < t->ncols; c++) {
        const char *suffix[] = {"", " ci_lo", " ci_hi", " unconverged"};
        for (int k = 0; k < 4; k++) {
            char h[256];
            snprintf(h, sizeof h, "%s%s", t->cols[c], suffix[k]);
            gmb_str_put(&b, ",");
            gmb_csv_text(&b, h);
        }
    }
    gmb_str_put(&b, "\n");
    for (size_t r = 0; r < t->nrows; r++) {
        if (t->lv) {
            gmb_csv_text(&b, t->lv[r]->level);
            gmb_str_put(&b, ",");
            gmb_csv_text(&b, t->lv[r]->by);
            gmb_str_put(&b, ",");
        }
        gmb_csv_text(&b, t->rows[r]->label);
        gmb_str_put(&b, ",");
        gmb_csv_text(&b, t->rows[r]->unit);
        for (size_t c = 0; c < t->ncols; c++) {
            const gmb_cell_t *x = &cells[r * t->ncols + c];
            char v[48] = "", lo[48] = "", hi[48] = "";
            if (x->kind == 1) {
                snprintf(v, sizeof v, "%.6g", x->v);
                if (x->lo == x->lo && x->hi == x->hi) {
                    snprintf(lo, sizeof lo, "%.6g", x->lo);
                    snprintf(hi, sizeof hi, "%.6g", x->hi);
                }
            }
            gmb_str_put(&b, ",");
            gmb_csv_text(&b, x->kind == 2 ? x->text : v);
            gmb_str_put(&b, ",%s,%s,", lo, hi);
            if (x->kind && x->npts) /* "unconverged/points", the mark's ground */
                gmb_str_put(&b, "%d/%d", x->nunc, x->npts);
        }
        gmb_str_put(&b, "\n");
    }
    return gmb_str_done(&b);
}
