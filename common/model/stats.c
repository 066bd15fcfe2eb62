/* stats.c - median, order-statistic confidence interval, moments, rank test. */
#include "model/stats.h"
#include "gmb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int gmb_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double gmb_median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int gmb_stats_compute(const double *x, size_t n, size_t min_samples, double ci_target,
                      gmb_stats_t *out)
{
    memset(out, 0, sizeof *out);
    if (!n)
        return GMB_EUSAGE;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return GMB_ERUNTIME;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, gmb_cmp_double);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = gmb_median_sorted(s, n);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    out->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - out->mean) * (s[i] - out->mean);
    out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    /* ranks (1-based) j, k with P(X(j) <= median <= X(k)) ~ 0.95 */
    double h = 1.959964 * sqrt((double)n) / 2.0;
    long j = (long)floor((double)n / 2.0 - h);
    long k = (long)ceil(1.0 + (double)n / 2.0 + h);
    if (j < 1)
        j = 1;
    if (k > (long)n)
        k = (long)n;
    out->ci_lo = s[j - 1];
    out->ci_hi = s[k - 1];
    double dev = fmax(out->median - out->ci_lo, out->ci_hi - out->median);
    out->ci_rel = out->median > 0 ? dev / out->median : INFINITY;
    out->converged = n >= min_samples && n >= 2 && out->ci_rel <= ci_target;
    free(s);
    return GMB_OK;
}

typedef struct {
    double v;
    int g;
} tagged_t;

static int cmp_t(const void *a, const void *b)
{
    return gmb_cmp_double(&((const tagged_t *)a)->v, &((const tagged_t *)b)->v);
}

double gmb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
    if (!na || !nb)
        return -1.0;
    size_t n = na + nb;
    tagged_t *t = malloc(n * sizeof *t);
    if (!t)
        return -1.0;
    for (size_t i = 0; i < na; i++)
        t[i] = (tagged_t){a[i], 0};
    for (size_t i = 0; i < nb; i++)
        t[na + i] = (tagged_t){b[i], 1};
    qsort(t, n, sizeof *t, cmp_t);
    double ra = 0, tie = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && t[j + 1].v == t[i].v)
            j++;
        double rank = (double)(i + j) / 2.0 + 1.0, c = (double)(j - i + 1);
        for (size_t q = i; q <= j; q++)
            if (!t[q].g)
                ra += rank;
        tie += c * c * c - c;
        i = j + 1;
    }
    free(t);
    double u = ra - (double)na * ((double)na + 1) / 2.0;
    double mu = (double)na * (double)nb / 2.0;
    double var = (double)na * (double)nb / 12.0 *
                 (((double)n + 1) -
                  tie / ((double)n * ((double)n - 1) > 0 ? (double)n * ((double)n - 1) : 1));
    if (var <= 0)
        return 1.0;
    double z = (fabs(u - mu) - 0.5) / sqrt(var);
    if (z < 0)
        z = 0;
    return erfc(z / sqrt(2.0));
}

int gmb_differ(double p, double lo_a, double hi_a, double lo_b, double hi_b)
{
    return p >= 0 && p < 0.05 && (hi_a < lo_b || hi_b < lo_a);
}
