/* bankmodel.c - bank conflict degree of warp accesses, the cost line, and bank inference. */
#include "model/bankmodel.h"
#include "model/stats.h"
#include "gmb.h"
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BANKS 1024

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int gmb_bank_cost(const uint64_t *addr, int lanes, int width, int banks, int bank_bytes,
                  gmb_bank_cost_t *out)
{
    if (lanes < 1 || lanes > GMB_BANK_LANES || width < 4 || width > 16 || width % 4 || banks < 1 ||
        banks > MAX_BANKS || bank_bytes < 1)
        return GMB_EUSAGE;
    int per_phase = banks * bank_bytes / width; /* lanes one phase serves */
    if (per_phase < 1)
        per_phase = 1;
    if (per_phase > lanes)
        per_phase = lanes;
    uint64_t words[GMB_BANK_LANES * 16];
    int count[MAX_BANKS];
    out->ways = 1;
    out->phases = 0;
    out->wavefronts = 0;
    for (int p0 = 0; p0 < lanes; p0 += per_phase) {
        size_t nw = 0;
        for (int t = p0; t < p0 + per_phase && t < lanes; t++)
            for (uint64_t w = addr[t] / (uint64_t)bank_bytes;
                 w <= (addr[t] + (uint64_t)width - 1) / (uint64_t)bank_bytes; w++)
                words[nw++] = w;
        qsort(words, nw, sizeof *words, cmp_u64);
        memset(count, 0, sizeof(int) * (size_t)banks);
        int deg = 1;
        for (size_t i = 0; i < nw; i++) {
            if (i && words[i] == words[i - 1])
                continue; /* the same word: shared (broadcast) */
            int b = (int)(words[i] % (uint64_t)banks);
            if (++count[b] > deg)
                deg = count[b];
        }
        out->phases++;
        out->wavefronts += deg;
        if (deg > out->ways)
            out->ways = deg;
    }
    return GMB_OK;
}

int gmb_bank_stride_cost(int stride, int width, int banks, int bank_bytes, gmb_bank_cost_t *out)
{
    if (stride < 0)
        return GMB_EUSAGE;
    uint64_t a[GMB_BANK_LANES];
    for (int t = 0; t < GMB_BANK_LANES; t++)
        a[t] = (uint64_t)t * (uint64_t)stride * (uint64_t)width;
    return gmb_bank_cost(a, GMB_BANK_LANES, width, banks, bank_bytes, out);
}

int gmb_bank_stride_ways(int stride, int width, int banks, int bank_bytes)
{
    gmb_bank_cost_t c;
    int rc = gmb_bank_stride_cost(stride, width, banks, bank_bytes, &c);
    return rc ? rc : c.ways;
}

double gmb_bank_cost_x(const gmb_bank_cost_t *c)
{
    return c->phases > 0 ? (double)c->wavefronts / c->phases - 1.0 : 0.0;
}

int gmb_bank_linfit(const double *x, const double *y, size_t n, gmb_bank_fit_t *out)
{
    memset(out, 0, sizeof *out);
    if (!n)
        return GMB_EUSAGE;
    out->n = n;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    double sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (n < 2 || !(sxx > 0)) { /* no line through a single x: the mean is all we know */
        out->base = my;
        out->rms = sqrt(syy / (double)n);
        return GMB_OK;
    }
    out->ok = 1;
    out->slope = sxy / sxx;
    out->base = my - out->slope * mx;
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double r = y[i] - (out->base + out->slope * x[i]);
        ss += r * r;
    }
    out->rms = sqrt(ss / (double)n);
    out->r2 = syy > 0 ? 1.0 - ss / syy : 0.0;
    return GMB_OK;
}

int gmb_bank_flat(const double *med, const double *lo, const double *hi, size_t n, double rel_tol,
                  double *spread_out)
{
    if (spread_out)
        *spread_out = 0;
    if (!n)
        return 1;
    double mn = med[0], mx = med[0], lo_max = lo[0], hi_min = hi[0];
    double *s = malloc(n * sizeof *s);
    if (!s)
        return 0;
    for (size_t i = 0; i < n; i++) {
        s[i] = med[i];
        mn = fmin(mn, med[i]);
        mx = fmax(mx, med[i]);
        lo_max = fmax(lo_max, lo[i]);
        hi_min = fmin(hi_min, hi[i]);
    }
    /* median of the medians */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    double m = gmb_median_sorted(s, n);
    free(s);
    double spread = m > 0 ? (mx - mn) / m : 0.0;
    if (spread_out)
        *spread_out = spread;
    return lo_max <= hi_min || spread <= rel_tol;
}

/* Candidate layouts the inference compares. */
static const int cand_banks[] = {4, 8, 16, 32, 64, 128};
static const int cand_bytes[] = {4, 8, 16};
#define NCB  ((int)(sizeof cand_banks / sizeof cand_banks[0]))
#define NCW  ((int)(sizeof cand_bytes / sizeof cand_bytes[0]))
#define NCAN (NCB * NCW)

#define FLAT_TOL   0.05 /* a spread of medians below 5% is flat */
#define MIN_R2     0.8  /* the line must explain 80% of the variance */
#define AMBIGUOUS  1.10 /* a different layout within 10% of the best residual: undecided */
#define MIN_POINTS 6    /* strides needed to infer a layout */
#define MIN_COSTS  3    /* distinct conflict degrees among them */

int gmb_bank_infer(const int *strides, const double *y, const double *lo, const double *hi,
                   size_t n, int width, int is_cpu, gmb_bank_infer_t *out)
{
    memset(out, 0, sizeof *out);
    if (!n || width < 4 || width > 16 || width % 4)
        return GMB_EUSAGE;
    int rc = GMB_ERUNTIME;
    double *x = malloc(NCAN * n * sizeof *x);
    if (!x)
        return rc;
    gmb_bank_fit_t fit[NCAN];
    int best = -1;
    for (int c = 0; c < NCAN; c++) {
        for (size_t i = 0; i < n; i++) {
            int w =
                gmb_bank_stride_ways(strides[i], width, cand_banks[c / NCW], cand_bytes[c % NCW]);
            if (w < 1) {
                rc = GMB_EUSAGE;
                goto out;
            }
            x[c * n + i] = w - 1;
        }
        gmb_bank_linfit(x + c * n, y, n, &fit[c]);
        if (fit[c].ok && (best < 0 || fit[c].rms < fit[best].rms))
            best = c;
    }
    rc = GMB_OK;
    out->flat = gmb_bank_flat(y, lo, hi, n, FLAT_TOL, &out->spread);
    char curve[256];
    if (out->flat)
        snprintf(curve, sizeof curve, "the stride curve is flat within its noise (spread %.1f%%)",
                 100 * out->spread);
    if (best < 0) {
        snprintf(out->reason, sizeof out->reason,
                 "no bank structure detected: the strides measured do not change the conflict "
                 "degree of any candidate layout (measure strides such as 0:64)%s%s",
                 out->flat ? "; " : "", out->flat ? curve : "");
        goto out;
    }
    out->banks = cand_banks[best / NCW];
    out->bank_bytes = cand_bytes[best % NCW];
    out->fit = fit[best];
    int alt = -1;
    for (int c = 0; c < NCAN; c++) {
        if (!fit[c].ok || !memcmp(x + c * n, x + best * n, n * sizeof *x))
            continue;
        if (alt < 0 || fit[c].rms < fit[alt].rms)
            alt = c;
    }
    if (alt >= 0) {
        out->alt_banks = cand_banks[alt / NCW];
        out->alt_bank_bytes = cand_bytes[alt % NCW];
        out->alt_rms = fit[alt].rms;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && x[best * n + j] != x[best * n + i])
            j++;
        distinct += j == i;
    }
    if (!out->flat) {
        if (n < MIN_POINTS || distinct < MIN_COSTS)
            snprintf(curve, sizeof curve,
                     "%zu strides with %zu distinct conflict degrees are too few to tell bank "
                     "layouts apart (need %d and %d; measure strides such as 0:64)",
                     n, distinct, MIN_POINTS, MIN_COSTS);
        else if (!(out->fit.slope > 0) || out->fit.r2 < MIN_R2)
            snprintf(curve, sizeof curve,
                     "the stride curve varies (spread %.1f%%) but no bank layout explains it "
                     "(best: %d banks x %d B, slope %.3g, R^2 %.2f)",
                     100 * out->spread, out->banks, out->bank_bytes, out->fit.slope, out->fit.r2);
        else if (alt >= 0 && fit[alt].rms <= AMBIGUOUS * out->fit.rms)
            snprintf(curve, sizeof curve,
                     "the strides measured cannot tell %d banks x %d B (rms %.3g) from %d x %d B "
                     "(rms %.3g)",
                     out->banks, out->bank_bytes, out->fit.rms, out->alt_banks, out->alt_bank_bytes,
                     out->alt_rms);
        else
            out->detected = 1;
    }
    if (out->detected && is_cpu) {
        out->detected = 0;
        snprintf(out->reason, sizeof out->reason,
                 "no bank structure detected: the device is a CPU, whose OpenCL local memory is "
                 "ordinary cached memory; the stride curve's variation (spread %.1f%%, best "
                 "layout %d x %d B, R^2 %.2f) is not attributed to banks",
                 100 * out->spread, out->banks, out->bank_bytes, out->fit.r2);
    } else if (out->detected) {
        snprintf(out->reason, sizeof out->reason,
                 "the stride costs follow %d banks x %d B: %.3g + %.3g per extra way (R^2 %.3f, "
                 "rms %.3g; next best %d x %d B, rms %.3g)",
                 out->banks, out->bank_bytes, out->fit.base, out->fit.slope, out->fit.r2,
                 out->fit.rms, out->alt_banks, out->alt_bank_bytes, out->alt_rms);
    } else {
        snprintf(out->reason, sizeof out->reason, "no bank structure detected: %s%s", curve,
                 is_cpu ? "; the device is a CPU, whose OpenCL local memory is ordinary cached "
                          "memory, not banked"
                        : "");
    }
out:
    free(x);
    return rc;
}
