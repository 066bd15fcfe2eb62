/* table.c - gmb table's table: a row per headline figure (or, for older records, per
 * extractor row), a column per run; the level view of the same figures. */
#include "gmb.h"
#include "record.h"
#include "tools/reader.h"

#include <math.h>
#include <string.h>

const char *gmb_run_board(const gmb_runset_t *rs, size_t r)
{
    for (size_t k = 0; k < rs->nrecs; k++) {
        const char *p = json_string_value(
            json_object_get(json_object_get(rs->recs[k].j, "device"), "board_part_number"));
        if (rs->recs[k].run == r && p && *p && strcmp(p, "unknown"))
            return p;
    }
    return NULL;
}

int gmb_row_same(const gmb_row_t *a, const gmb_row_t *b)
{
    return a == b || (!strcmp(a->bench, b->bench) && !strcmp(a->label, b->label) &&
                      !strcmp(a->unit, b->unit));
}

/* The headline figures of a record (gmb_headline), NULL where it has none of a version this
 * reader knows, or GMB_TABLE_READER=legacy asks for the extractors. */
const json_t *gmb_headline_figs(const json_t *rec)
{
    static int said;
    const char *env = getenv("GMB_TABLE_READER");
    const json_t *h = json_object_get(rec, "headlines");
    if (env && !strcmp(env, "legacy")) {
        if (!said++)
            fprintf(stderr, "gmb: GMB_TABLE_READER=legacy (a test aid): the table's extractors "
                            "read every record, its headline figures unread\n");
        return NULL;
    }
    if (gmb_jnum(h, "version") != GMB_HEADLINES_VERSION)
        return NULL;
    const json_t *f = json_object_get(h, "figures");
    return json_is_array(f) ? f : NULL;
}

/* The figure of figs that row shows; NULL: none. */
static const json_t *headline_of(const json_t *figs, const gmb_row_t *row)
{
    size_t i;
    const json_t *f;
    json_array_foreach(figs, i, f)
    {
        if (!strcmp(gmb_jstr(f, "label"), row->label) && !strcmp(gmb_jstr(f, "unit"), row->unit))
            return f;
    }
    return NULL;
}

/* Fill c from headline figure f of record rec: its value and CI (or text), its notes, and the
 * convergence of the points it rests on. 0, or -1 for a figure without a value. */
int gmb_headline_cell(const json_t *rec, const json_t *f, gmb_cell_t *c)
{
    const json_t *text = json_object_get(f, "text");
    if (json_is_string(text)) {
        c->kind = 2;
        gmb_strlcpy(c->text, json_string_value(text), sizeof c->text);
    } else if (json_is_number(json_object_get(f, "value")))
        gmb_cell_set(c, gmb_jnum(f, "value"), gmb_jnum(f, "ci_lo"), gmb_jnum(f, "ci_hi"));
    else
        return -1;
    size_t i, k;
    const json_t *n, *p;
    json_array_foreach(json_object_get(f, "notes"), i, n)
    {
        for (k = 0; gmb_headline_notes[k].name; k++)
            if (json_is_string(n) && !strcmp(json_string_value(n), gmb_headline_notes[k].name))
                c->note |= (int)gmb_headline_notes[k].bit;
    }
    json_array_foreach(json_object_get(f, "points"), i, p)
    {
        const json_t *pt = json_array_get(json_object_get(rec, "points"), json_integer_value(p));
        if (json_is_integer(p) && pt)
            gmb_cell_conv_add(c, pt);
    }
    /* the points, where they say, decide whether it converged (gmb_cell_conv_note), as for the rows
     * an extractor reads */
    if (c->npts > 0)
        c->note &= ~GMB_NOTE_UNCONVERGED;
    c->figure = 1;
    const json_t *lv = json_object_get(f, "level");
    if (json_is_string(json_object_get(lv, "name"))) {
        c->level = json_string_value(json_object_get(lv, "name"));
        c->by = gmb_jstr(lv, "how");
    }
    return 0;
}

/* The cell of row in run r of rs, from the record's headline figures where it has them, else
 * the row's extractor; 1 when it has a value. */
static int table_cell(const gmb_runset_t *rs, size_t r, const gmb_row_t *row, gmb_cell_t *c)
{
    memset(c, 0, sizeof *c);
    c->lo = c->hi = NAN;
    const gmb_rec_t *rec = gmb_runset_rec(rs, r, row->bench);
    const json_t *figs = rec && row->bench[0] ? gmb_headline_figs(rec->j) : NULL;
    const json_t *f = figs ? headline_of(figs, row) : NULL;
    int rc = !rec   ? -1
             : figs ? (f ? gmb_headline_cell(rec->j, f, c) : -1)
                    : row->fn(rec->j, row->arg, c);
    if (rc || (c->kind == 1 && c->v != c->v)) {
        memset(c, 0, sizeof *c);
        c->lo = c->hi = NAN;
        return 0;
    }
    gmb_cell_conv_note(c);
    /* from a program stopped before its end: the points it finished */
    if (row->bench[0] && !strcmp(gmb_jstr(rec->j, "status"), "interrupted"))
        c->note |= 8;
    /* from a program some of whose points ran with the clocks held down */
    const json_t *during = json_object_get(json_object_get(rec->j, "clocks"), "during");
    if (row->bench[0] && json_integer_value(json_object_get(during, "points_capped")) > 0)
        c->note |= 16;
    return 1;
}

/* Add to t->dyn the rows of the headline figures of rs's records that no row of
 * gmb_table_rows (nall of them) names, once each, in the order of the runs. 0 or -1. */
static int table_dyn(const gmb_runset_t *rs, size_t nall, gmb_table_t *t, size_t max)
{
    for (size_t k = 0; k < rs->nrecs; k++) {
        const json_t *figs = gmb_headline_figs(rs->recs[k].j), *f;
        const char *bench = gmb_jstr(rs->recs[k].j, "benchmark");
        size_t i;
        json_array_foreach(figs, i, f)
        {
            gmb_row_t row = {bench, gmb_jstr(f, "label"), gmb_jstr(f, "unit"), NULL, NULL};
            int known = !bench[0] || !row.label[0];
            for (size_t j = 0; j < nall && !known; j++)
                known = gmb_row_same(&gmb_table_rows[j], &row);
            for (size_t j = 0; j < t->ndyn && !known; j++)
                known = gmb_row_same(&t->dyn[j], &row);
            if (known || t->ndyn == max)
                continue;
            size_t lb = strlen(bench) + 1, ll = strlen(row.label) + 1, lu = strlen(row.unit) + 1;
            char *text = malloc(lb + ll + lu);
            if (!text)
                return -1;
            memcpy(text, bench, lb);
            memcpy(text + lb, row.label, ll);
            memcpy(text + lb + ll, row.unit, lu);
            t->dyn[t->ndyn++] = (gmb_row_t){text, text + lb, text + lb + ll, NULL, NULL};
        }
    }
    return 0;
}

int gmb_table_build(const gmb_runset_t *rs, gmb_table_t *t)
{
    memset(t, 0, sizeof *t);
    size_t nall = 0, nfig = 0;
    while (gmb_table_rows[nall].label)
        nall++;
    for (size_t k = 0; k < rs->nrecs; k++)
        nfig += json_array_size(gmb_headline_figs(rs->recs[k].j));
    size_t nrow = nall + nfig;
    t->ncols = rs->nruns;
    t->rows = calloc(nrow ? nrow : 1, sizeof *t->rows);
    t->cols = calloc(rs->nruns ? rs->nruns : 1, sizeof *t->cols);
    t->cells = calloc((nrow ? nrow : 1) * (rs->nruns ? rs->nruns : 1), sizeof *t->cells);
    t->dyn = calloc(nfig ? nfig : 1, sizeof *t->dyn);
    if (!t->rows || !t->cols || !t->cells || !t->dyn || table_dyn(rs, nall, t, nfig)) {
        gmb_table_free(t);
        return GMB_ERUNTIME;
    }
    /* a column names its board's part number where NVML gave it (revisions differ) */
    enum { HEAD = 320 };
    t->heads = calloc(rs->nruns ? rs->nruns : 1, HEAD);
    if (!t->heads) {
        gmb_table_free(t);
        return GMB_ERUNTIME;
    }
    for (size_t r = 0; r < rs->nruns; r++) {
        const char *board = gmb_run_board(rs, r);
        char *h = t->heads + r * HEAD;
        if (board)
            snprintf(h, HEAD, "%s, board %s", rs->runs[r].label, board);
        else
            gmb_strlcpy(h, rs->runs[r].label, HEAD);
        t->cols[r] = h;
    }
    for (size_t i = 0; i < nall + t->ndyn; i++) {
        const gmb_row_t *row = i < nall ? &gmb_table_rows[i] : &t->dyn[i - nall];
        gmb_cell_t *cells = &t->cells[t->nrows * t->ncols];
        int any = 0;
        for (size_t r = 0; r < rs->nruns; r++)
            if (table_cell(rs, r, row, &cells[r])) {
                any = 1;
                t->notes |= cells[r].note;
            }
        if (any)
            t->rows[t->nrows++] = row;
    }
    return GMB_OK;
}

/* The rank of level name in the level view: where gmb_level_rows first names it; nl (after
 * them all) when it does not. */
static size_t level_rank(const char *name, size_t nl)
{
    for (size_t i = 0; i < nl; i++)
        if (!strcmp(gmb_level_rows[i].level, name))
            return i;
    return nl;
}

int gmb_table_levels(gmb_table_t *t)
{
    size_t nl = 0, nr = t->nrows, n = 0;
    while (gmb_level_rows[nl].level)
        nl++;
    const gmb_row_t **rows = calloc(nr + 1, sizeof *rows);
    const gmb_level_row_t **lv = calloc(nr + 1, sizeof *lv);
    gmb_level_row_t *fig = calloc(nr + 1, sizeof *fig);
    size_t *rank = calloc(nr + 1, sizeof *rank), *from = calloc(nr + 1, sizeof *from);
    gmb_cell_t *cells = calloc((nr + 1) * (t->ncols ? t->ncols : 1), sizeof *cells);
    if (!rows || !lv || !fig || !rank || !from || !cells) {
        free(rows);
        free(lv);
        free(fig);
        free(rank);
        free(from);
        free(cells);
        return GMB_ERUNTIME;
    }
    /* each GB/s row's level: the one its figures name, else (cells an extractor read) the
     * one gmb_level_rows maps its label to */
    for (size_t r = 0; r < nr; r++) {
        const gmb_cell_t *c = &t->cells[r * t->ncols];
        const gmb_level_row_t *l = NULL;
        int legacy = 0;
        for (size_t k = 0; k < t->ncols && !l; k++) {
            if (c[k].kind && c[k].level) {
                fig[r] = (gmb_level_row_t){c[k].level, t->rows[r]->label, c[k].by ? c[k].by : ""};
                l = &fig[r];
            }
            legacy |= c[k].kind && !c[k].figure;
        }
        for (size_t i = 0; i < nl && !l && legacy; i++)
            if (!strcmp(t->rows[r]->label, gmb_level_rows[i].row))
                l = &gmb_level_rows[i];
        if (!l || strcmp(t->rows[r]->unit, "GB/s"))
            continue;
        /* in level order, then table order (insertion keeps it stable) */
        size_t k = n++, rk = level_rank(l->level, nl);
        for (; k > 0 && rank[k - 1] > rk; k--) {
            rows[k] = rows[k - 1];
            lv[k] = lv[k - 1];
            rank[k] = rank[k - 1];
            from[k] = from[k - 1];
        }
        rows[k] = t->rows[r];
        lv[k] = l;
        rank[k] = rk;
        from[k] = r;
    }
    int notes = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(&cells[i * t->ncols], &t->cells[from[i] * t->ncols], t->ncols * sizeof *cells);
        for (size_t c = 0; c < t->ncols; c++)
            notes |= cells[i * t->ncols + c].note;
    }
    free(rank);
    free(from);
    free(t->rows);
    free(t->cells);
    free(t->lv);
    free(t->lvfig);
    t->rows = rows;
    t->cells = cells;
    t->lv = lv;
    t->lvfig = fig;
    t->nrows = n;
    t->notes = notes;
    return GMB_OK;
}

void gmb_table_free(gmb_table_t *t)
{
    for (size_t i = 0; i < t->ndyn; i++)
        free((char *)t->dyn[i].bench);
    free(t->dyn);
    free(t->lv);
    free(t->lvfig);
    free(t->rows);
    free(t->cols);
    free(t->heads);
    free(t->cells);
    memset(t, 0, sizeof *t);
}
