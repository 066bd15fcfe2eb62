/* table.h - the summary table of a run set: rows, cells, the level view, its renderers (table.c,
 * legacy.c, render*.c). */
#ifndef GMB_TOOLS_TABLE_H
#define GMB_TOOLS_TABLE_H

#include "tools/runset.h"

#include <jansson.h>
#include <stddef.h>

/* One cell of the table. */
typedef struct gmb_cell {
    int kind;               /* 0 empty, 1 number, 2 text */
    double v;               /* number: the median (or the value) */
    double lo, hi;          /* its 95% CI; NaN when the value has none */
    char text[128];         /* text cell */
    int note;               /* bits: 1 from a cache-resident point (no DRAM point), 2 from a DRAM
                               point between 4x and 16x the LLC, 4 a peak given with --peak-bw, 8
                               from an interrupted program, 16 from one with capped points, 32 from
                               points half or more of which did not converge (GMB_NOTE_UNCONVERGED), 64 a
                               capacity past the cache the device reports (GMB_NOTE_PAST_LLC) */
    int npts, nunc;         /* the points the value rests on that say whether they converged, and
                               how many of them did not (the extractor counts them) */
    int figure;             /* 1: read from a headline figure (gmb_headline), 0: by an extractor */
    const char *level, *by; /* the figure's level of the hierarchy and how it was measured
                               there (borrowed from the record); NULL: none */
} gmb_cell_t;

#define GMB_NOTE_UNCONVERGED 32
/* note bit: a cache capacity past the one the device reports (the plateau's end, not the size) */
#define GMB_NOTE_PAST_LLC 64

/* A row extractor: fill out from a record (the device for bench ""); 0 when it did. */
typedef int (*gmb_row_fn)(const json_t *rec, const char *arg, gmb_cell_t *out);

/* One row of the table: data, keyed by the benchmark whose record it reads. */
typedef struct gmb_row {
    const char *bench; /* benchmark ("" = device facts, from any record of the run) */
    const char *label; /* what the row shows */
    const char *unit;  /* unit of its numbers ("" for text) */
    gmb_row_fn fn;     /* extractor */
    const char *arg;   /* extractor argument */
} gmb_row_t;

/* Every row gmb table knows, in order; a later benchmark adds its rows here. */
extern const gmb_row_t gmb_table_rows[];

/* A row of the bandwidth-by-level view: a level of the hierarchy, the row of gmb_table_rows
 * (by label) that measures it, and the program and method that did. */
typedef struct gmb_level_row {
    const char *level; /* "L1, aggregate of all SMs", "DRAM" ... */
    const char *row;   /* the label of its row in gmb_table_rows */
    const char *by;    /* the program and how it measured */
} gmb_level_row_t;

/* The level view's rows, from the core outwards (NULL-terminated). */
extern const gmb_level_row_t gmb_level_rows[];

/* The table: rows (those with a value in some column) x runs. */
typedef struct gmb_table {
    size_t nrows, ncols;        /* rows, columns (runs) */
    const gmb_row_t **rows;     /* rows shown */
    const char **cols;          /* column heads: the run labels, ", board P" added where the
                                   part number is known (in heads) */
    char *heads;                /* the heads' text (owned) */
    gmb_cell_t *cells;          /* nrows x ncols, row-major */
    int notes;                  /* the notes of all cells, or-ed */
    const gmb_level_row_t **lv; /* the level view (gmb_table_levels): each row's level; NULL:
                                   the full table */
    gmb_level_row_t *lvfig;     /* the level rows the figures named (owned, nrows at most) */
    gmb_row_t *dyn;             /* rows of headline figures no row of gmb_table_rows names
                                   (owned, with their text), ndyn of them */
    size_t ndyn;
} gmb_table_t;

/* Whether two rows show the same thing: benchmark, label and unit. */
int gmb_row_same(const gmb_row_t *a, const gmb_row_t *b);
/* Build the table of a run set: a record with headline figures (gmb_headline) fills the rows
 * of its benchmark from them, those no row names added at the end; an older record is read by
 * the rows' extractors (as is every record with GMB_TABLE_READER=legacy in the environment, a
 * test aid). 0 or GMB_ERUNTIME. */
int gmb_table_build(const gmb_runset_t *rs, gmb_table_t *t);
void gmb_table_free(gmb_table_t *t);
/* Turn a built table into the bandwidth-by-level view: the GB/s rows whose headline figures
 * name a level (gmb_headline_t.level), and for older records the rows gmb_level_rows maps to
 * one, in the order of the levels there (a level it does not name after them), rows of one
 * level in table order (the renderers then give each row's level and program). 0, or
 * GMB_ERUNTIME (memory). */
int gmb_table_levels(gmb_table_t *t);
/* Render as "md", "tex" or "csv". Returns a malloc'd string, or NULL (unknown format). */
char *gmb_table_render(const gmb_table_t *t, const char *format);

/* Text from a record made safe to print on a terminal, in place and at its length: each
 * control character (C0, DEL, and C1 as UTF-8, U+0080 to U+009F) a space (an ESC would drive
 * the terminal, a line feed start a line of its own). */
void gmb_text_plain(char *s);

/* How Markdown output (gmb table --format md, gmb report) writes byte c of a record's text:
 * NULL for as it is, else what stands for it: '|' (a table cell's end) and Markdown's own
 * marks (\\ [ ] ! ` * _) backslash-escaped, < > & as HTML entities (no tag of a record's
 * is live where the page is rendered), a control character as a space (a line feed would
 * start rows of its own). */
const char *gmb_md_esc(unsigned char c);

#endif
