/* compare.h - two records compared metric by metric (compare.c). */
#ifndef GMB_TOOLS_COMPARE_H
#define GMB_TOOLS_COMPARE_H

#include <jansson.h>
#include <stddef.h>

/* One compared metric of one point. */
typedef struct gmb_cmp {
    char bench[32];  /* benchmark */
    char point[200]; /* the point's identity ("read width=16 B size=4 KiB") */
    char metric[48]; /* metric name */
    char unit[16];   /* its unit */
    int higher;      /* 1: higher is better */
    double a, b;     /* medians */
    double ratio;    /* b / a */
    double p;        /* Mann-Whitney two-sided p on the samples in the metric's unit; -1 none */
    double change;   /* relative change in the better direction, %: >0 B better */
    size_t na, nb;   /* raw samples of the metric on each side (0: none) */
} gmb_cmp_t;

/* Values of a metric for every raw sample of a point: the point's own metric_samples[metric]
 * when it has them (a metric that is no function of the sample times), else derived from
 * samples_ns by the metric's relation to time_ns (a rate numer/t or a scale t*f). Returns
 * the count written to a malloc'd *out, or 0 when there are none. */
size_t gmb_metric_samples(const json_t *point, const char *metric, double **out);
/* Compare two records of one benchmark: every metric (but % ones) of every point present
 * in both (points matched on their parameters except calibration ones; a point of A gets
 * the first point of B with its parameters), in A's order. O(n log n) in the points.
 * Appends to *rows (realloc'd, count in *n): *rows is NULL with *n 0, or what an earlier
 * call left (*n may be lowered to reuse it). Returns the number appended. */
size_t gmb_compare_records(const json_t *a, const json_t *b, gmb_cmp_t **rows, size_t *n);

#endif
