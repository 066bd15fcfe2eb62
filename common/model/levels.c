/* levels.c - plateau and step detection on latency curves (see levels.h). */
#include "model/levels.h"

#include "gmb.h"
#include "model/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gmb_levels_defaults(gmb_levels_cfg_t *cfg)
{
    cfg->tol_min = 0.08; /* 8%: smaller changes are never called a new level */
    cfg->noise_mult = 3.0;
    cfg->min_points = 3;
}

const char *gmb_level_confidence_word(double c)
{
    return c >= 0.7 ? "high" : c >= 0.4 ? "medium" : "low";
}

/* Median of v[0..n), n >= 1 (tmp: n scratch doubles). */
static double median_of(const double *v, size_t n, double *tmp)
{
    memcpy(tmp, v, n * sizeof *tmp);
    qsort(tmp, n, sizeof *tmp, gmb_cmp_double);
    return gmb_median_sorted(tmp, n);
}

/* How far a run of points rises over its length: |least-squares slope| x (points - 1). */
static double drift(const double *y, size_t a, size_t b)
{
    size_t k = b - a + 1;
    if (k < 2)
        return 0;
    double xm = (double)(k - 1) / 2, ym = 0, sxy = 0, sxx = 0;
    for (size_t j = a; j <= b; j++)
        ym += y[j];
    ym /= (double)k;
    for (size_t j = a; j <= b; j++) {
        double dx = (double)(j - a) - xm;
        sxy += dx * (y[j] - ym);
        sxx += dx * dx;
    }
    return fabs(sxy / sxx) * (double)(k - 1);
}

typedef struct span {
    size_t a, b; /* first and last valid index */
} span_t;

/* Keeps the runs sp[0..np) (with their pm[], when given) whose drift is within tol; returns
 * how many are kept. */
static size_t drop_slopes(const double *ly, span_t *sp, double *pm, size_t np, double tol)
{
    size_t q = 0;
    for (size_t p = 0; p < np; p++)
        if (drift(ly, sp[p].a, sp[p].b) <= tol) {
            sp[q] = sp[p];
            if (pm)
                pm[q] = pm[p];
            q++;
        }
    return q;
}

int gmb_levels_detect(const double *size, const double *lat, size_t n, const gmb_levels_cfg_t *cfg,
                      gmb_level_t *out, size_t max, double *noise)
{
    if (!size || !lat || (!out && max))
        return GMB_EUSAGE;
    gmb_levels_cfg_t def;
    if (!cfg) {
        gmb_levels_defaults(&def);
        cfg = &def;
    }
    size_t K = cfg->min_points < 2 ? 2 : cfg->min_points;
    if (noise)
        *noise = 0;
    size_t *idx = malloc((n + 1) * sizeof *idx);
    double *ly = malloc((n + 1) * sizeof *ly), *ls = malloc((n + 1) * sizeof *ls);
    double *tmp = malloc((n + 1) * sizeof *tmp), *d = malloc((n + 1) * sizeof *d);
    span_t *sp = malloc((n + 1) * sizeof *sp);
    int rc = 0;
    if (!idx || !ly || !ls || !tmp || !d || !sp) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (lat[i] > 0 && isfinite(lat[i]) && size[i] > 0) {
            idx[m] = i;
            ly[m++] = log(lat[i]);
        }
    if (m < 2)
        goto out;
    /* noise: robust spread of neighbour differences (steps are few, so the median ignores
     * them); a difference of two noisy points has sqrt(2) x the noise of one */
    for (size_t i = 0; i + 1 < m; i++)
        d[i] = fabs(ly[i + 1] - ly[i]);
    double sigma = 1.4826 * median_of(d, m - 1, tmp) / sqrt(2.0);
    double tol = fmax(cfg->tol_min, cfg->noise_mult * sigma);
    if (noise)
        *noise = sigma;
    /* running median of 3: one wild point does not break a plateau, and steps stay sharp */
    for (size_t i = 0; i < m; i++) {
        if (i == 0 || i + 1 == m) {
            ls[i] = ly[i];
        } else {
            double a = ly[i - 1], b = ly[i], c = ly[i + 1];
            ls[i] = fmax(fmin(a, b), fmin(fmax(a, b), c));
        }
    }
    /* plateaus: maximal runs whose smoothed points span at most tol, K points or more (2 at
     * either end of the sweep, which may cut a level short) */
    size_t np = 0;
    for (size_t i = 0; i < m;) {
        double lo = ls[i], hi = ls[i];
        size_t j = i + 1;
        while (j < m && fmax(hi, ls[j]) - fmin(lo, ls[j]) <= tol) {
            lo = fmin(lo, ls[j]);
            hi = fmax(hi, ls[j]);
            j++;
        }
        if (j - i >= K || (j - i >= 2 && (i == 0 || j == m))) {
            sp[np].a = i;
            sp[np++].b = j - 1;
            i = j;
        } else {
            i++;
        }
    }
    /* neighbours are two levels only when the step between them is above the tolerance and
     * above twice the drift within either (else a slope was cut into pieces, or a blip split
     * one plateau): merge them, transition points included, until every step qualifies.
     * Except where a run that is a slope by itself (drifts by more than the tolerance) sits
     * over 2 tolerances from a flat run (drifting by half a tolerance at most): that run is a
     * transition, say three points through a far cache partition, and is dropped, not merged
     * into the level beside it, whose merged run would drift and be dropped as a slope too. */
    double *pm = d; /* reuse: median log latency of each plateau */
    for (size_t p = 0; p < np; p++)
        pm[p] = median_of(ly + sp[p].a, sp[p].b - sp[p].a + 1, tmp);
    for (int merged = 1; merged && np > 1;) {
        merged = 0;
        for (size_t p = 0; p + 1 < np; p++) {
            double s = fabs(pm[p + 1] - pm[p]);
            double d0 = drift(ly, sp[p].a, sp[p].b), d1 = drift(ly, sp[p + 1].a, sp[p + 1].b);
            if (s > tol && s > 2 * fmax(d0, d1))
                continue;
            if (s > 2 * tol && fmax(d0, d1) > tol && fmin(d0, d1) <= tol / 2) {
                /* a transition beside a flat level, a step of over 2 tolerances away */
                size_t x = d0 > tol ? p : p + 1;
                memmove(sp + x, sp + x + 1, (np - x - 1) * sizeof *sp);
                memmove(pm + x, pm + x + 1, (np - x - 1) * sizeof *pm);
                np--;
                merged = 1;
                break;
            }
            sp[p].b = sp[p + 1].b;
            pm[p] = median_of(ly + sp[p].a, sp[p].b - sp[p].a + 1, tmp);
            memmove(sp + p + 1, sp + p + 2, (np - p - 2) * sizeof *sp);
            memmove(pm + p + 1, pm + p + 2, (np - p - 2) * sizeof *pm);
            np--;
            merged = 1;
            break;
        }
    }
    /* pieces of a slope, merged, are one slope again */
    np = drop_slopes(ly, sp, pm, np, tol);
    if (np < 2) /* one plateau (or none) is not a hierarchy: no clear level */
        goto out;
    for (size_t p = 0; p < np && (size_t)rc < max; p++) {
        gmb_level_t *L = &out[rc++];
        size_t a = sp[p].a, b = sp[p].b, cnt = b - a + 1;
        for (size_t j = a; j <= b; j++)
            tmp[j - a] = lat[idx[j]];
        double *t2 = ls; /* smoothed values are no longer needed: scratch for the median */
        L->lat = median_of(tmp, cnt, t2);
        L->first = idx[a];
        L->last = idx[b];
        L->npoints = cnt;
        L->size_lo = size[idx[a]];
        L->size_hi = size[idx[b]];
        L->rise_at = p + 1 < np && b + 1 < m ? size[idx[b + 1]] : 0;
        /* confidence: a plateau of an octave or more (4 points at 4 per octave), and steps
         * to its neighbours of 3 tolerances or more, count fully */
        double step = INFINITY;
        if (p > 0)
            step = fmin(step, pm[p] - pm[p - 1]);
        if (p + 1 < np)
            step = fmin(step, pm[p + 1] - pm[p]);
        double c_len = fmin(1.0, (double)cnt / 4.0);
        double c_step = step <= 0 ? 0.1 : fmin(1.0, step / (3.0 * tol));
        L->confidence = c_len * c_step;
    }
out:
    free(idx);
    free(ly);
    free(ls);
    free(tmp);
    free(d);
    free(sp);
    return rc;
}

/* ---- names ------------------------------------------------------------------------------ */

/* Numbered names; on global memory the last level "memory" when the sweep reached it. */
static void numbered(gmb_lv_path_t path, int memory, int nl, char (*out)[GMB_LEVEL_NAME])
{
    int global = path == GMB_LV_GLOBAL || path == GMB_LV_L2_FIRST;
    for (int i = 0; i < nl; i++)
        if (global && memory && i == nl - 1)
            snprintf(out[i], GMB_LEVEL_NAME, "memory");
        else
            snprintf(out[i], GMB_LEVEL_NAME, "level %d", i + 1);
}

/* Levels first..last (indices) are the L2: "L2", "L2 near"/"L2 far", or "L2 part N". */
static void name_l2(int first, int last, char (*out)[GMB_LEVEL_NAME])
{
    int n = last - first + 1;
    for (int i = first; i <= last; i++)
        if (n == 1)
            snprintf(out[i], GMB_LEVEL_NAME, "L2");
        else if (n == 2)
            snprintf(out[i], GMB_LEVEL_NAME, i == first ? "L2 near" : "L2 far");
        else
            snprintf(out[i], GMB_LEVEL_NAME, "L2 part %d", i - first + 1);
}

void gmb_level_names(const gmb_lv_device_t *dev, gmb_lv_path_t path, const char *link, int memory,
                     const gmb_level_t *L, int nl, char (*out)[GMB_LEVEL_NAME])
{
    if (nl <= 0)
        return;
    if (path == GMB_LV_LINK) { /* numbered, but the last */
        numbered(GMB_LV_ONCHIP, 0, nl, out);
        if (memory)
            snprintf(out[nl - 1], GMB_LEVEL_NAME, "%s memory", link ? link : "link");
        return;
    }
    /* the last level is memory only when its own plateau reaches 4x the cache the device
     * reports: one that ends below it is a cache the sweep's end cut short */
    if (memory && dev->llc_bytes > 0 && L[nl - 1].size_hi < 4 * dev->llc_bytes)
        memory = 0;
    numbered(path, memory, nl, out);
    if (path == GMB_LV_ONCHIP || !dev->gpu)
        return;
    int last = memory ? nl - 2 : nl - 1; /* the last cache level */
    if (dev->known) {
        /* the GPU's structure: global memory through L1 first; global-cg and atomics start
         * at L2; the texture path has L1 (Volta on: L1 and texture cache are one) */
        int first = path == GMB_LV_GLOBAL ? 1 : 0;
        if (first && nl > 0)
            snprintf(out[0], GMB_LEVEL_NAME, "L1");
        if (last >= first)
            name_l2(first, last, out);
        if (memory)
            snprintf(out[nl - 1], GMB_LEVEL_NAME, "DRAM");
        return;
    }
    /* another GPU (OpenCL): from the cache the device reports */
    double llc = dev->llc_bytes;
    if (!(llc > 0))
        return;
    int f2 = -1, l2 = -1;
    for (int i = 0; i <= last; i++)
        if (L[i].size_hi >= llc / 8 && L[i].size_hi <= 1.5 * llc) {
            if (f2 < 0)
                f2 = i;
            l2 = i;
        }
    if (f2 < 0)
        return; /* no level is the cache it reports: numbered */
    name_l2(f2, l2, out);
    if (path == GMB_LV_GLOBAL && f2 == 1) /* one level below the L2: the L1 */
        snprintf(out[0], GMB_LEVEL_NAME, "L1");
    if (memory)
        snprintf(out[nl - 1], GMB_LEVEL_NAME, "DRAM");
}

size_t gmb_lv_caches(const char (*names)[GMB_LEVEL_NAME], const gmb_level_t *L, int nl, int memory,
                     gmb_lv_cache_t *out)
{
    size_t n = 0;
    for (int i = 0; i < nl; i++) {
        gmb_lv_cache_t *k = &out[n++];
        memcpy(k->name, names[i], GMB_LEVEL_NAME);
        k->name[GMB_LEVEL_NAME - 1] = '\0';
        int mem = memory && i == nl - 1 && (!strcmp(k->name, "DRAM") || strstr(k->name, "memory"));
        k->bytes = mem ? INFINITY : L[i].size_hi;
        k->rise = mem ? 0 : L[i].rise_at;
    }
    return n;
}

size_t gmb_lv_caches_reported(gmb_lv_cache_t *c, size_t n, double llc, const char *name)
{
    if (!(llc > 0))
        return n;
    size_t at = n && !isfinite(c[n - 1].bytes) ? n - 1 : n; /* before memory */
    for (size_t j = 0; j < at; j++)
        if (c[j].bytes >= llc || c[j].rise >= llc)
            return n; /* the curve showed it */
    memmove(c + at + 1, c + at, (n - at) * sizeof *c);
    snprintf(c[at].name, GMB_LEVEL_NAME, "%s", name);
    c[at].bytes = llc;
    c[at].rise = 0;
    return n + 1;
}

/* Index of the first cache that holds bytes, up to where its latency had risen (-1: none). */
static int cache_of(const gmb_lv_cache_t *c, size_t nc, double bytes)
{
    for (size_t j = 0; j < nc; j++)
        if ((c[j].rise > c[j].bytes ? c[j].rise : c[j].bytes) >= bytes)
            return (int)j;
    return -1;
}

int gmb_page_level_names(const gmb_lv_cache_t *caches, size_t nc, int bottom, double page,
                         double line, const gmb_level_t *L, int nl, size_t min_points,
                         gmb_page_level_t *out)
{
    if (nl > 0 && L[nl - 1].npoints < min_points)
        nl--; /* the sweep's end cut it: maybe a slope */
    if (nl < 2 || !(page > 0) || !(line > 0))
        return 0;
    for (int i = 0; i < nl; i++) {
        out[i].lines_bytes = floor(L[i].size_hi / page) * line;
        out[i].cache = cache_of(caches, nc, out[i].lines_bytes);
        if (out[i].cache == 0 && !bottom)
            out[i].cache = -1; /* a smaller cache may hide under the first one known */
        out[i].tlb = 0;
        out[i].miss_cost = NAN;
    }
    int k = 0, after = 0, tlb_ok = 1;
    for (int i = 0; i < nl; i++) {
        gmb_page_level_t *P = &out[i];
        int c = P->cache, last = i == nl - 1;
        if (c < 0) {
            snprintf(P->name, GMB_LEVEL_NAME, "level %d", i + 1);
            tlb_ok = after = 0; /* an unknown level may have been a TLB's: count no further */
            continue;
        }
        double cap = caches[c].bytes;
        int edge = isfinite(cap) && P->lines_bytes >= GMB_LV_EDGE * cap;
        if (!last && !edge) {
            if (tlb_ok && out[i + 1].cache == c) { /* no cache's end: the TLB's */
                P->tlb = ++k;
                P->miss_cost = L[i + 1].lat - L[i].lat;
                snprintf(P->name, GMB_LEVEL_NAME, "TLB level %d", k);
                after = k;
            } else { /* a TLB's end and a cache's in one step: not told apart */
                snprintf(P->name, GMB_LEVEL_NAME, "level %d", i + 1);
                tlb_ok = after = 0;
            }
            continue;
        }
        if (after && last)
            snprintf(P->name, GMB_LEVEL_NAME, "after TLB level %d", after);
        else if (after)
            snprintf(P->name, GMB_LEVEL_NAME, "%.12s (page stride, after TLB level %u)",
                     caches[c].name, (unsigned)after % 100u);
        else
            snprintf(P->name, GMB_LEVEL_NAME, "%.32s (page stride)", caches[c].name);
        after = 0;
    }
    return nl;
}
