/* crosscheck.h - one quantity measured by several programs of a run, and whether they agree
 * (crosscheck.c). */
#ifndef GMB_TOOLS_CROSSCHECK_H
#define GMB_TOOLS_CROSSCHECK_H

#include "tools/runset.h"

#include <stddef.h>

/* One quantity that several programs of a run measure, each its own way: their values and
 * whether they agree. */
typedef struct gmb_xcheck {
    const char *quantity; /* "Memory read bandwidth" */
    const char *unit;     /* its unit */
    double tol;           /* they agree when the largest is at most (1 + tol) x the smallest */
    size_t n;             /* measurements found (2 or more) */
    struct {
        const char *source; /* which program, which figure */
        double v;           /* its value, in unit */
        int unconverged;    /* it rests on points half or more of which did not converge */
    } vals[8];
    double spread; /* largest / smallest */
    int agree;     /* spread <= 1 + tol */
} gmb_xcheck_t;

/* The cross-checks of run `run` of rs with two or more measurements, into out[0..max): a
 * figure counts only where it is what the quantity says (a memory figure from a buffer of at
 * least 4x the last-level cache, a plateau the program says it reached). Returns how many. */
size_t gmb_crosscheck(const gmb_runset_t *rs, size_t run, gmb_xcheck_t *out, size_t max);
/* The cross-checks x[0..n) as a Markdown section body (a table, or a line saying no quantity
 * had two measurements). malloc'd, NULL when out of memory. */
char *gmb_crosscheck_md(const gmb_xcheck_t *x, size_t n);

#endif
