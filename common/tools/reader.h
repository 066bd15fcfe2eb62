/* reader.h - what the record readers of bin/gmb share inside common/tools/ (runset.c,
 * legacy.c, table.c, render*.c, crosscheck.c, compare.c); each file's own header is what it
 * exports. */
#ifndef GMB_TOOLS_READER_H
#define GMB_TOOLS_READER_H

#include "json.h"
#include "tools/runset.h"
#include "tools/table.h"

#include <jansson.h>
#include <stddef.h>

/* ---- runset.c ---- */
/* The record of bench in run r of rs; bench "" (device facts): the first record of the run
 * that has a device. NULL when there is none. */
const gmb_rec_t *gmb_runset_rec(const gmb_runset_t *rs, size_t r, const char *bench);

/* ---- legacy.c: the extractors of older records, and a cell's marks ---- */
/* Set c to the number v with its 95% CI [lo, hi] (NAN: none). */
void gmb_cell_set(gmb_cell_t *c, double v, double lo, double hi);
/* Count point p among the points c rests on (and whether it converged). */
void gmb_cell_conv_add(gmb_cell_t *c, const json_t *p);
/* Mark c unconverged (GMB_NOTE_UNCONVERGED) where half or more of its points did not. */
void gmb_cell_conv_note(gmb_cell_t *c);
/* The row extractors the cross-checks of older records read (legacy.c says each one's arg):
 * 0 with c set, -1 when the record has no such figure. */
int gmb_ex_bank_point(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_chase_cap(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_chase_lat(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_chase_onchip(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_loaded(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_number(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_stream_best(const json_t *rec, const char *arg, gmb_cell_t *c);
int gmb_ex_um(const json_t *rec, const char *arg, gmb_cell_t *c);

/* ---- table.c: the headline figures of a record ---- */
/* The figures of rec's "headlines" (a version this gmb reads); NULL when it has none. */
const json_t *gmb_headline_figs(const json_t *rec);
/* Cell c from figure f of record rec (its value, CI, notes, the convergence of its points):
 * 0 when set, -1 when f holds no value. */
int gmb_headline_cell(const json_t *rec, const json_t *f, gmb_cell_t *c);

/* ---- render.c: text of cells, one renderer a format ---- */
/* What the mark † says (Markdown and the cross-checks; LaTeX's comment line spells it). */
#define GMB_UNCONV_LEGEND                                                                          \
    "†: half or more of the points it rests on did not converge (their samples stopped at "      \
    "--max-samples or --time-cap before the 95% CI of the median came within --ci-target; "        \
    "gmb table --format csv counts them: its unconverged columns)."
/* s escaped for a Markdown table cell, LaTeX, a CSV field (quoted where it must be). */
void gmb_md_text(gmb_str_t *b, const char *s);
void gmb_tex_text(gmb_str_t *b, const char *s);
void gmb_csv_text(gmb_str_t *b, const char *s);
/* A unit in LaTeX (GB/s, %, ...); NULL when it has no spelling of its own (then escaped). */
const char *gmb_tex_unit(const char *u);
/* Cell c as Markdown (tex 0) or LaTeX (tex 1): its value, CI in brackets, marks. */
void gmb_cell_text(gmb_str_t *b, const gmb_cell_t *c, int tex);
/* What a mark of the table's cells (a GMB_NOTE_* bit) says under it: text, then tail where
 * it has one; a table of them ends with bit 0. */
typedef struct {
    int bit;          /* the mark's bit of gmb_cell_t.note */
    const char *text; /* what it says */
    const char *tail; /* more of it (a legend shared with other pages), or NULL */
} gmb_note_text_t;
/* The notes of n whose bits are set in notes, in n's order. */
void gmb_notes_put(gmb_str_t *b, int notes, const gmb_note_text_t *n);
/* The table in one format (render_md.c, render_tex.c, render_csv.c): the caller's to free;
 * NULL when out of memory. */
char *gmb_render_md(const gmb_table_t *t);
char *gmb_render_tex(const gmb_table_t *t);
char *gmb_render_csv(const gmb_table_t *t);

#endif
