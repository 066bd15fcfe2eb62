/* stats.h - robust statistics of timing samples: median with a 95% CI, convergence. */
#ifndef GMB_STATS_H
#define GMB_STATS_H

#include <stddef.h>

/* Summary of n samples (same unit as the samples). */
typedef struct gmb_stats {
    size_t n;        /* number of samples */
    double median;   /* sample median */
    double ci_lo;    /* lower end of the 95% confidence interval of the median */
    double ci_hi;    /* upper end of the 95% confidence interval of the median */
    double min, max; /* extremes */
    double mean;     /* arithmetic mean */
    double stddev;   /* sample standard deviation (n-1); 0 when n < 2 */
    double ci_rel;   /* max(median-ci_lo, ci_hi-median) / median; the convergence measure */
    int converged;   /* 1 when n >= min_samples and ci_rel <= target */
} gmb_stats_t;

/* Compute the summary of x[0..n) (x is not modified). The median CI uses order statistics
 * (distribution-free, normal approximation of the binomial ranks); with too few samples
 * for a 95% interval it is [min, max]. Returns 0, or GMB_EUSAGE when n == 0. */
/* qsort comparator of doubles, ascending. */
int gmb_cmp_double(const void *a, const void *b);
/* Median of the ascending v[0..n), n >= 1. */
double gmb_median_sorted(const double *v, size_t n);

int gmb_stats_compute(const double *x, size_t n, size_t min_samples, double ci_target,
                      gmb_stats_t *out);

/* Rank-based test of two independent samples (Mann-Whitney U, normal approximation with
 * tie correction). Returns the two-sided p-value in [0,1], or -1 when n1 or n2 is 0. */
double gmb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* Whether two series differ clearly: their test's p-value (e.g. gmb_mann_whitney_p; < 0: no
 * test) below 0.05 and their medians' 95% CIs [lo_a, hi_a] and [lo_b, hi_b] disjoint. */
int gmb_differ(double p, double lo_a, double hi_a, double lo_b, double hi_b);

#endif
