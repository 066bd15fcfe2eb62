/* curves.c - bandwidth plateaus, capacity, hit-rate model and two-mode splits (see curves.h). */
#include "model/curves.h"

#include "gmb.h"
#include "model/levels.h"
#include "model/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Median of the valid bandwidths among bw[a..b] (NAN when none). */
static double median_bw(const double *bw, size_t a, size_t b)
{
    size_t k = 0;
    double *t = malloc((b - a + 1) * sizeof *t);
    if (!t)
        return NAN;
    for (size_t i = a; i <= b; i++)
        if (bw[i] > 0 && isfinite(bw[i]))
            t[k++] = bw[i];
    double m = NAN;
    if (k) {
        qsort(t, k, sizeof *t, gmb_cmp_double);
        m = gmb_median_sorted(t, k);
    }
    free(t);
    return m;
}

double gmb_bw_hit_rate(double bw, double cache_bw, double mem_bw)
{
    if (!(bw > 0) || !(mem_bw > 0) || !(cache_bw > mem_bw) || !isfinite(bw) || !isfinite(cache_bw))
        return NAN;
    double h = (1.0 / bw - 1.0 / mem_bw) / (1.0 / cache_bw - 1.0 / mem_bw);
    return h <= 0 ? 0.0 : h > 1 ? 1.0 : h; /* never -0 */
}

/* The top of a curve: the largest 3-point running median of its valid bandwidths (one wild
 * point is not the top); 0 when none is valid. */
static double curve_top(const double *bw, size_t n)
{
    double top = 0, w[3];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(bw[i] > 0 && isfinite(bw[i])))
            continue;
        w[k % 3] = bw[i];
        k++;
        double m = w[(k - 1) % 3];
        if (k >= 3) {
            double a = w[0], b = w[1], c = w[2];
            m = fmax(fmin(a, b), fmin(fmax(a, b), c));
        } else if (k == 2) {
            m = fmin(w[0], w[1]);
        }
        top = fmax(top, m);
    }
    return top;
}

/* How far the log of the valid bw[idx[a..b]] moves over the run: |least-squares slope| x
 * (points - 1), as levels.c measures a plateau's drift. */
static double log_drift(const double *bw, const size_t *idx, size_t a, size_t b)
{
    size_t k = b - a + 1;
    if (k < 2)
        return 0;
    double xm = (double)(k - 1) / 2, ym = 0, sxy = 0, sxx = 0;
    for (size_t j = a; j <= b; j++)
        ym += log(bw[idx[j]]);
    ym /= (double)k;
    for (size_t j = a; j <= b; j++) {
        double dx = (double)(j - a) - xm;
        sxy += dx * (log(bw[idx[j]]) - ym);
        sxx += dx * dx;
    }
    return fabs(sxy / sxx) * (double)(k - 1);
}

/* The two ends of a curve whose level detector found no two levels (a memory tail that still
 * drifts a little where mixed hits fade, merged by the detector into one slope): the cache
 * plateau is the run from the first point after the head whose 3-point running medians stay
 * within tol (log) of the top, the memory plateau the run at the sweep's end whose running
 * medians span tol at most, less its first points while it drifts; each must be flat (drift <= tol
 * / 2), the cache run 3 points or more, the memory run 4 or more (an octave at 4 per octave),
 * apart, and 3 tol apart in level. Fills c and m (indices into the whole curve) and returns 1, else
 * 0. */
static int ends_fit(const double *size, const double *bw, size_t n, size_t hd, double top,
                    double tol, gmb_level_t *c, gmb_level_t *m)
{
    size_t *idx = malloc((n + 1) * sizeof *idx), k = 0;
    double *sm = malloc((n + 1) * sizeof *sm);
    int ok = 0;
    if (!idx || !sm)
        goto out;
    for (size_t i = hd; i < n; i++)
        if (bw[i] > 0 && isfinite(bw[i]))
            idx[k++] = i;
    if (k < 7)
        goto out;
    for (size_t j = 0; j < k; j++) { /* log of the 3-point running median */
        double a = bw[idx[j ? j - 1 : j]], b = bw[idx[j]], d = bw[idx[j + 1 < k ? j + 1 : j]];
        sm[j] = log(fmax(fmin(a, b), fmin(fmax(a, b), d)));
    }
    size_t ce = 0; /* the cache run: [0, ce] */
    while (ce + 1 < k && log(top) - sm[ce + 1] <= tol)
        ce++;
    size_t ms = k - 1; /* the memory run: [ms, k - 1] */
    double lo = sm[ms], hi = sm[ms];
    while (ms > ce + 1 && fmax(hi, sm[ms - 1]) - fmin(lo, sm[ms - 1]) <= tol) {
        ms--;
        lo = fmin(lo, sm[ms]);
        hi = fmax(hi, sm[ms]);
    }
    while (k - ms > 4 && log_drift(bw, idx, ms, k - 1) > tol / 2) /* its flat end */
        ms++;
    if (log(top) - sm[0] > tol || ce + 1 < 3 || k - ms < 4 || ms <= ce + 1)
        goto out;
    if (log_drift(bw, idx, 0, ce) > tol / 2 || log_drift(bw, idx, ms, k - 1) > tol / 2)
        goto out;
    double cb = median_bw(bw, idx[0], idx[ce]), mb = median_bw(bw, idx[ms], idx[k - 1]);
    if (!(log(cb / mb) >= 3 * tol))
        goto out;
    memset(c, 0, sizeof *c);
    memset(m, 0, sizeof *m);
    c->first = idx[0];
    c->last = idx[ce];
    c->npoints = ce + 1;
    c->size_lo = size[idx[0]];
    c->size_hi = size[idx[ce]];
    c->rise_at = size[idx[ce + 1]];
    c->confidence = fmin(1.0, (double)(ce + 1) / 4.0);
    m->first = idx[ms];
    m->last = idx[k - 1];
    m->npoints = k - ms;
    m->size_lo = size[idx[ms]];
    m->size_hi = size[idx[k - 1]];
    m->confidence = 1.0;
    ok = 1;
out:
    free(idx);
    free(sm);
    return ok;
}

int gmb_bw_fit(const double *size, const double *bw, size_t n, gmb_bw_fit_t *out)
{
    if (!size || !bw || !out)
        return GMB_EUSAGE;
    memset(out, 0, sizeof *out);
    if (n < 2)
        return GMB_OK;
    out->top = curve_top(bw, n);
    /* the rising head: the first points, each below the head share of the top (invalid
     * points among them too) */
    size_t hd = 0;
    while (hd < n && !(bw[hd] > 0 && isfinite(bw[hd]) && bw[hd] >= GMB_BW_HEAD_SHARE * out->top))
        hd++;
    if (hd >= n) /* (no valid point) */
        hd = 0;
    out->head = hd;
    double *tpb = malloc(n * sizeof *tpb);
    if (!tpb)
        return GMB_ERUNTIME;
    for (size_t i = 0; i < n; i++) /* time per byte rises where latency would: one detector */
        tpb[i] = bw[i] > 0 && isfinite(bw[i]) ? 1.0 / bw[i] : NAN;
    gmb_level_t L[GMB_MAX_LEVELS];
    double noise = 0;
    int nl = gmb_levels_detect(size + hd, tpb + hd, n - hd, NULL, L, GMB_MAX_LEVELS, &noise);
    free(tpb);
    out->noise = noise;
    if (nl < 0)
        return nl;
    for (int l = 0; l < nl; l++) { /* indices into the whole curve */
        L[l].first += hd;
        L[l].last += hd;
    }
    out->nplateaus = (size_t)nl;
    if (nl < 2) {
        gmb_levels_cfg_t lc;
        gmb_levels_defaults(&lc);
        if (!ends_fit(size, bw, n, hd, out->top, fmax(lc.tol_min, lc.noise_mult * noise), &L[0],
                      &L[1]))
            return GMB_OK;
        nl = 2;
        out->nplateaus = 2;
        out->by_ends = 1;
    }
    const gmb_level_t *c = &L[0], *m = &L[nl - 1];
    out->cache_first = c->first;
    out->cache_last = c->last;
    out->mem_first = m->first;
    out->mem_last = m->last;
    memcpy(out->levels, L, (size_t)nl * sizeof *L);
    for (int l = 0; l < nl; l++)
        out->level_bw[l] = median_bw(bw, L[l].first, L[l].last);
    out->cache_bw = out->level_bw[0];
    out->mem_bw = out->level_bw[nl - 1];
    if (!(out->cache_bw > out->mem_bw)) /* the detector found a rise in time: cannot be, but */
        return GMB_OK;
    out->found = 1;
    out->ratio = out->cache_bw / out->mem_bw;
    out->capacity = c->size_hi;
    out->fall_at = c->rise_at;
    out->confidence = fmin(c->confidence, m->confidence);
    /* where the model's hit rate crosses 1/2, between the last cache point and the memory */
    double hp = 1.0, lp = log(size[c->last]);
    for (size_t i = c->last + 1; i <= m->first && i < n; i++) {
        double h = gmb_bw_hit_rate(bw[i], out->cache_bw, out->mem_bw);
        if (h != h)
            continue;
        double li = log(size[i]);
        if (h < 0.5) {
            double f = hp > h ? (hp - 0.5) / (hp - h) : 0;
            out->half_at = exp(lp + f * (li - lp));
            break;
        }
        hp = h;
        lp = li;
    }
    return GMB_OK;
}

void gmb_bimodal_defaults(gmb_bimodal_cfg_t *cfg)
{
    cfg->min_share = 0.10;     /* a mode of fewer than 1 in 10 samples is a tail, not a mode */
    cfg->min_separation = 4.0; /* a unimodal sample split in two gives about 2.3 (normal) */
    cfg->min_rel_gap = 0.05;   /* 5%: smaller gaps are clock quantization or noise */
    cfg->spread_floor = 0.005; /* 0.5%: a mode of identical values is not infinitely sharp */
}

/* 1.4826 x the median absolute deviation of the sorted v[0..n) from med, floored. */
static double robust_spread(const double *v, size_t n, double med, double floor_rel, double *tmp)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = fabs(v[i] - med);
    qsort(tmp, n, sizeof *tmp, gmb_cmp_double);
    return fmax(1.4826 * gmb_median_sorted(tmp, n), floor_rel * fabs(med));
}

int gmb_bimodal_split(const double *x, size_t n, const gmb_bimodal_cfg_t *cfg, gmb_bimodal_t *out)
{
    if (!x || !out)
        return GMB_EUSAGE;
    gmb_bimodal_cfg_t def;
    if (!cfg) {
        gmb_bimodal_defaults(&def);
        cfg = &def;
    }
    memset(out, 0, sizeof *out);
    double *v = malloc((n + 1) * sizeof *v), *tmp = malloc((n + 1) * sizeof *tmp);
    double *pre = malloc((n + 2) * sizeof *pre);
    int rc = GMB_OK;
    if (!v || !tmp || !pre) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > 0 && isfinite(x[i]))
            v[m++] = x[i];
    out->n = m;
    if (!m)
        goto out;
    qsort(v, m, sizeof *v, gmb_cmp_double);
    out->lo = out->hi = out->threshold = gmb_median_sorted(v, m);
    out->n_lo = m;
    out->share_lo = 1;
    if (m < 4)
        goto out;
    /* Otsu over the splits that leave both sides their minimum share */
    pre[0] = 0;
    for (size_t i = 0; i < m; i++)
        pre[i + 1] = pre[i] + v[i];
    size_t kmin = (size_t)ceil(cfg->min_share * (double)m), best = 0;
    if (kmin < 2)
        kmin = 2;
    double bv = -1;
    for (size_t k = kmin; k + kmin <= m; k++) {
        double w0 = (double)k / m, w1 = 1 - w0;
        double m0 = pre[k] / k, m1 = (pre[m] - pre[k]) / (double)(m - k);
        double b = w0 * w1 * (m1 - m0) * (m1 - m0);
        if (b > bv) {
            bv = b;
            best = k;
        }
    }
    if (!best) /* too few samples for two modes of the minimum share */
        goto out;
    size_t k = best;
    double lo = gmb_median_sorted(v, k), hi = gmb_median_sorted(v + k, m - k);
    double s0 = robust_spread(v, k, lo, cfg->spread_floor, tmp);
    double s1 = robust_spread(v + k, m - k, hi, cfg->spread_floor, tmp);
    double pooled = sqrt(0.5 * (s0 * s0 + s1 * s1));
    out->separation = pooled > 0 ? (hi - lo) / pooled : INFINITY;
    out->rel_gap = (hi - lo) / lo;
    if (out->separation >= cfg->min_separation && out->rel_gap >= cfg->min_rel_gap) {
        out->bimodal = 1;
        out->lo = lo;
        out->hi = hi;
        out->n_lo = k;
        out->n_hi = m - k;
        out->share_lo = (double)k / m;
        out->share_hi = (double)(m - k) / m;
        out->threshold = 0.5 * (v[k - 1] + v[k]);
    }
out:
    free(v);
    free(tmp);
    free(pre);
    return rc;
}

int gmb_modes_split(const double *x, size_t n, size_t maxk, const gmb_bimodal_cfg_t *cfg,
                    gmb_modes_t *out)
{
    if (!x || !out || !maxk)
        return GMB_EUSAGE;
    gmb_bimodal_cfg_t def;
    if (!cfg) {
        gmb_bimodal_defaults(&def);
        cfg = &def;
    }
    memset(out, 0, sizeof *out);
    if (maxk > GMB_MODES_MAX)
        maxk = GMB_MODES_MAX;
    double *v = malloc((n + 1) * sizeof *v);
    if (!v)
        return GMB_ERUNTIME;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > 0 && isfinite(x[i]))
            v[m++] = x[i];
    out->n = m;
    int rc = GMB_OK;
    if (!m)
        goto out;
    qsort(v, m, sizeof *v, gmb_cmp_double);
    /* segments of the sorted sample: [a[i], a[i + 1]) is mode i */
    size_t a[GMB_MODES_MAX + 1] = {0, m}, k = 1;
    double sep[GMB_MODES_MAX] = {0};
    for (int split = 1; split && k < maxk;) {
        split = 0;
        for (size_t i = 0; i < k && !split; i++) {
            size_t len = a[i + 1] - a[i];
            gmb_bimodal_cfg_t c = *cfg; /* the new modes' share is of all samples */
            c.min_share = cfg->min_share * (double)m / (double)len;
            if (c.min_share >= 0.5)
                continue;
            gmb_bimodal_t b;
            if ((rc = gmb_bimodal_split(v + a[i], len, &c, &b)))
                goto out;
            if (!b.bimodal)
                continue;
            memmove(a + i + 2, a + i + 1, (k - i) * sizeof *a);
            memmove(sep + i + 2, sep + i + 1, (k - i - 1) * sizeof *sep);
            a[i + 1] = a[i] + b.n_lo;
            sep[i + 1] = b.separation;
            k++;
            split = 1;
        }
    }
    out->k = k;
    for (size_t i = 0; i < k; i++) {
        size_t len = a[i + 1] - a[i];
        out->center[i] = gmb_median_sorted(v + a[i], len);
        out->lo[i] = v[a[i]];
        out->hi[i] = v[a[i + 1] - 1];
        out->count[i] = len;
        out->share[i] = (double)len / (double)m;
        out->upper[i] = i + 1 < k ? 0.5 * (v[a[i + 1] - 1] + v[a[i + 1]]) : INFINITY;
        out->separation[i] = sep[i];
    }
out:
    free(v);
    return rc;
}

size_t gmb_modes_class(const gmb_modes_t *m, double x)
{
    for (size_t i = 0; i < m->k; i++)
        if (x <= m->upper[i])
            return i;
    return m->k;
}

int gmb_sides(const unsigned char *near, size_t nsm, size_t nl, int *side, double *agree)
{
    if (!near || !side)
        return GMB_EUSAGE;
    int nside = 0, rep[64];
    for (size_t s = 0; s < nsm; s++) {
        side[s] = -1;
        for (size_t t = 0; t < nsm && agree; t++) {
            size_t both = 0, same = 0;
            for (size_t j = 0; j < nl; j++) {
                unsigned char x = near[s * nl + j], y = near[t * nl + j];
                if (x > 1 || y > 1)
                    continue;
                both++;
                same += x == y;
            }
            agree[s * nsm + t] = both ? (double)same / (double)both : NAN;
        }
    }
    for (size_t s = 0; s < nsm; s++) {
        size_t meas = 0;
        for (size_t j = 0; j < nl; j++)
            meas += near[s * nl + j] <= 1;
        if (!meas)
            continue;
        int unclear = 0, found = -1;
        for (int q = 0; q < nside && found < 0; q++) {
            size_t both = 0, same = 0, t = (size_t)rep[q];
            for (size_t j = 0; j < nl; j++) {
                unsigned char x = near[s * nl + j], y = near[t * nl + j];
                if (x > 1 || y > 1)
                    continue;
                both++;
                same += x == y;
            }
            double sh = both ? (double)same / (double)both : NAN;
            if (sh >= GMB_SIDE_AGREE)
                found = q;
            else if (!(sh <= 1.0 - GMB_SIDE_AGREE))
                unclear = 1;
        }
        if (found >= 0)
            side[s] = found;
        else if (!unclear && nside < 64) {
            rep[nside] = (int)s;
            side[s] = nside++;
        }
    }
    return nside;
}

int gmb_part_walk(const unsigned *cyc, const unsigned *fin, size_t nl, unsigned passes,
                  unsigned line_words, double *lat, gmb_modes_t *md, size_t *bad)
{
    if (!cyc || !fin || !lat || !md || !bad || passes < 2 || !line_words || line_words % 8)
        return GMB_EUSAGE;
    *bad = 0;
    for (size_t j = 0; j < nl; j++) {
        uint64_t t = (uint64_t)(passes - 1) * nl + j;
        uint64_t want = (uint64_t)j * line_words + ((t + 1) & 7);
        if (fin[j] != (unsigned)want && !*bad)
            *bad = j + 1;
        double best = INFINITY;
        for (unsigned r = 1; r < passes; r++)
            best = fmin(best, (double)cyc[(size_t)r * nl + j]);
        lat[j] = best;
    }
    return gmb_modes_split(lat, nl, 3, NULL, md);
}

size_t gmb_curve_first_within(const double *v, size_t n, double share)
{
    double most = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] == v[i] && v[i] > most)
            most = v[i];
    if (!(most > 0))
        return n;
    for (size_t i = 0; i < n; i++)
        if (v[i] == v[i] && v[i] >= share * most)
            return i;
    return n;
}

double gmb_curve_crossing(const double *x, const double *y, size_t n, double want)
{
    size_t prev = n; /* the last point that was a number */
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] == x[i] && y[i] == y[i]))
            continue;
        if (y[i] >= want) {
            if (prev == n || !(y[i] > y[prev]))
                return x[i];
            return x[prev] + (x[i] - x[prev]) * (want - y[prev]) / (y[i] - y[prev]);
        }
        prev = i;
    }
    return NAN;
}

size_t gmb_curve_held_from(const double *v, size_t n, double want)
{
    size_t from = n;
    for (size_t i = n; i-- > 0;) {
        if (v[i] != v[i])
            continue;
        if (!(v[i] >= want))
            break;
        from = i;
    }
    return from;
}

int gmb_grain_infer(const double *stride, const double *bw, size_t n, double word, gmb_grain_t *out)
{
    if (!stride || !bw || !out || !(word > 0))
        return GMB_EUSAGE;
    static const unsigned cands[GMB_GRAIN_CANDIDATES] = {32, 64, 128, 256};
    memset(out, 0, sizeof *out);
    double first = INFINITY, last = 0;
    for (size_t i = 0; i < n; i++)
        if (bw[i] > 0 && bw[i] < INFINITY && stride[i] > 0) {
            out->n++;
            first = fmin(first, stride[i]);
            last = fmax(last, stride[i]);
        }
    int best = -1;
    for (size_t g = 0; g < GMB_GRAIN_CANDIDATES; g++) {
        /* under g: the strides up to g (its head) fetch at the memory's rate, flat; past g
         * the rate may fall (each read its own g bytes: a request rate can bind first) but
         * never rise above the head's (no memory fetches faster than its contiguous reads) */
        double lo = INFINITY, hi = 0, all = 0;
        size_t head = 0;
        for (size_t i = 0; i < n; i++) {
            if (!(bw[i] > 0 && bw[i] < INFINITY && stride[i] > 0))
                continue;
            double f = bw[i] * fmin(stride[i], (double)cands[g]) / word;
            all = fmax(all, f);
            if (stride[i] <= cands[g]) {
                lo = fmin(lo, f);
                hi = fmax(hi, f);
                head++;
            }
        }
        out->candidate[g] = cands[g];
        out->lo[g] = hi > 0 ? lo : NAN;
        out->hi[g] = hi > 0 ? hi : NAN;
        out->spread[g] = hi > 0 ? hi / lo : INFINITY;
        out->over[g] = hi > 0 ? all / hi : INFINITY;
        if (head >= 3 && out->spread[g] < GMB_GRAIN_FLAT && out->over[g] <= GMB_GRAIN_OVER)
            best = (int)g; /* the largest that holds: a smaller one is flat in its head too */
    }
    out->best = best;
    out->best_spread = best >= 0 ? out->spread[best] : INFINITY;
    if (out->n < 3)
        out->why = "fewer than 3 strides measured";
    else if (first > word)
        out->why = "the strides do not start at one word";
    else if (best < 0)
        out->why = "no candidate is flat up to its own size without a faster point beyond";
    else if (last < 2.0 * cands[best])
        out->why = "the strides stop before twice the candidate, which could then be larger";
    else {
        out->found = 1;
        out->granularity = cands[best];
    }
    return GMB_OK;
}

void gmb_bw_fit_rates(const gmb_bw_fit_t *f, const double *rate, size_t n, double out[2])
{
    out[0] = out[1] = NAN;
    double *v = f && f->found && rate && n ? malloc(n * sizeof *v) : NULL;
    for (int m = 0; v && m < 2; m++) {
        size_t first = m ? f->mem_first : f->cache_first, last = m ? f->mem_last : f->cache_last;
        size_t k = 0;
        for (size_t i = first; i <= last && i < n; i++)
            if (rate[i] == rate[i])
                v[k++] = rate[i];
        if (k) {
            qsort(v, k, sizeof *v, gmb_cmp_double);
            out[m] = gmb_median_sorted(v, k);
        }
    }
    free(v);
}
