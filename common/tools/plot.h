/* plot.h - the figures of a run set with gnuplot (plot.c). */
#ifndef GMB_TOOLS_PLOT_H
#define GMB_TOOLS_PLOT_H

#include "tools/runset.h"

/* Plot options. */
typedef struct gmb_plot_opts {
    const char *out;   /* directory of the figures */
    const char *plots; /* directory of the gnuplot scripts */
    int pdf;           /* also PDF */
    const char *size;  /* --size WxH as given (width and height are read from it) */
    int width, height; /* PNG size in pixels (SVG/PDF alike, scaled) */
    int data_only;     /* 1: write the data and variables files, run no gnuplot (fuzz target) */
} gmb_plot_opts_t;

/* Draw every benchmark of the run set that has plots/<bench>.gp. Prints each figure made
 * on stdout, one note per benchmark skipped on stderr. A figure that cannot be drawn (no
 * point, gnuplot failed or missing, nothing drawn) is named with its reason in
 * <out>/not-drawn.tsv (rewritten each time; empty when all were drawn) and on stderr, and
 * the others are still made. Returns 0 when every figure was drawn or named so, GMB_ERUNTIME
 * when a file could not be written (or no figure at all was drawn nor named). */
int gmb_plot(const gmb_runset_t *rs, const gmb_plot_opts_t *o);

#endif
