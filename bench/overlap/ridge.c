/* ridge.c - gmb-overlap's pure models: the ridge point of an arithmetic-intensity sweep (the
 * flat memory line against the compute line t = a k), the hidden fraction and the overlap
 * efficiency (overlap.h says what each is). No harness: tests/unit/test_overlap.c compiles
 * this file in. */
#define OVL_RIDGE_ONLY
#include "overlap.h"
#undef OVL_RIDGE_ONLY

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median of v[0..n) (n >= 1; v is sorted in place) */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int ovl_ridge_fit(const double *k, const double *t, size_t n, double hi0, ovl_ridge_t *out)
{
    memset(out, 0, sizeof *out);
    out->k = out->slope_ns = out->departure_k = out->kcomp_min = out->flat_ns = NAN;
    if (n < 2 || k[0] != 0) {
        snprintf(out->why, sizeof out->why, "no sweep: %s",
                 n < 2 ? "fewer than two points" : "the first k is not 0");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (!(t[i] > 0) || !isfinite(t[i]) || (i && !(k[i] > k[i - 1]))) {
            snprintf(out->why, sizeof out->why, "no sweep: point %zu (k %g, %g ns) %s", i, k[i],
                     t[i], i && !(k[i] > k[i - 1]) ? "is not past the k before" : "has no time");
            return -1;
        }
    if (!(hi0 >= t[0]) || !isfinite(hi0))
        hi0 = t[0];
    double flat_lim = (1 + OVL_FLAT_TOL) * hi0, comp_lim = OVL_COMPUTE_FACTOR * t[0];
    size_t m = 1; /* the memory side: k = 0 and the points on after it within the tolerance */
    while (m < n && t[m] <= flat_lim)
        m++;
    out->nmem = m;
    out->kmem_max = k[m - 1];
    if (m < n)
        out->departure_k = k[m];
    double *v = malloc(n * sizeof *v);
    if (!v) {
        snprintf(out->why, sizeof out->why, "out of memory");
        return -1;
    }
    memcpy(v, t, m * sizeof *v);
    out->flat_ns = median(v, m);
    size_t nc = 0;
    for (size_t i = m; i < n; i++)
        if (t[i] >= comp_lim) {
            if (!nc)
                out->kcomp_min = k[i];
            v[nc++] = t[i] / k[i];
        }
    out->ncomp = nc;
    if (nc >= 2)
        out->slope_ns = median(v, nc);
    free(v);
    if (m == 1) {
        snprintf(out->why, sizeof out->why,
                 "compute-bound from the first k: k %g takes %.3gx the time of k 0 (the plateau "
                 "allows %.0f%% over its CI)",
                 k[1], t[1] / t[0], 100 * OVL_FLAT_TOL);
        return 0;
    }
    if (nc < 2) {
        snprintf(out->why, sizeof out->why,
                 "not compute-bound within the sweep: %zu point%s at %.0fx the time of k 0 or "
                 "more (two needed), the largest k %g at %.3gx",
                 nc, nc == 1 ? "" : "s", OVL_COMPUTE_FACTOR, k[n - 1], t[n - 1] / t[0]);
        return 0;
    }
    double ks = out->flat_ns / out->slope_ns;
    double lo = out->kmem_max / (flat_lim / t[0]);
    if (!(ks >= lo && ks <= out->kcomp_min)) {
        snprintf(out->why, sizeof out->why,
                 "the lines cross at k %.3g, outside the transition from k %.3g (the last flat "
                 "point, less the tolerance) to k %g (the first compute-bound one)",
                 ks, lo, out->kcomp_min);
        return 0;
    }
    out->found = 1;
    out->k = ks;
    return 0;
}

double ovl_hidden_fraction(double t_mem, double t_comp, double t_both)
{
    if (!(t_comp > 0) || !(t_mem > 0) || !(t_both > 0))
        return NAN;
    return (t_mem + t_comp - t_both) / t_comp;
}

double ovl_efficiency(double t_copy, double t_kernel, double t_both)
{
    if (!(t_copy > 0) || !(t_kernel > 0) || !(t_both > 0))
        return NAN;
    return (t_copy + t_kernel - t_both) / fmin(t_copy, t_kernel);
}
