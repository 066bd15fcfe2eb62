/* intensity.c - gmb-overlap's part intensity: a streaming kernel y[i] = f_k(x[i]) with k
 * dependent FMAs per element over DRAM-sized arrays, k = 0, 1, 2, 4 .. --k-max, FP32 and
 * (where the device has doubles) FP64, beside the same chains on register data; time, GB/s
 * and GFLOP/s per k, the measured ridge point (ridge.c) and the share of the compute that the
 * memory time hides; every output checked against the host's chains. */
#include "kernels/gmb_kernels.h"
#include "overlap.h"
#include "model/xfer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED_X(c)    ((gmb_u32)(c)->o.seed * 8u + 5u) /* the input x */
#define SEED_REG(c)  ((gmb_u32)(c)->o.seed * 8u + 6u) /* the register chains' starts */
#define CHECK_FMAS   (1ull << 24)                     /* host FMAs one point's check may take */
#define CHECK_CHUNKS 8     /* the outputs checked in this many chunks (beyond full) */
#define MAX_REPS     4096u /* launches per sample at most */
#define MAX_K_POINTS 16    /* k = 0, 1, 2 .. 8192 */

enum { I_MEM, I_REG };
static const char *const imode_names[] = {"memory", "compute"};

/* One precision's sweep. */
typedef struct sw {
    ovl_run_t *r;
    gmb_ctx_t *c;
    int f;            /* F_FP32, F_FP64 */
    size_t elem;      /* bytes per element */
    gmb_u64 n;        /* elements per array */
    gmb_buf_t *x, *y; /* input, output */
    gmb_buf_t *out;   /* compute-only: one value per work-item */
    gmb_launch_t geo; /* the grid, both kernels */
    gmb_u32 k;        /* FMAs per element of the point */
    gmb_u32 reps;     /* launches per sample */
    int mode;         /* I_MEM, I_REG */
    int inj[2];       /* --inject-error: planted in this kind of output */
} sw_t;

static gmb_u64 grid_items(const sw_t *s)
{
    return (gmb_u64)s->geo.groups * s->geo.group_size;
}

/* One sample: reps launches of the point's kernel back to back, one span on stream 0. */
static int sample(void *arg, double *ns)
{
    sw_t *s = arg;
    const gmb_backend_t *be = s->c->be;
    gmb_u32 seed = SEED_REG(s->c);
    double p64 = OVL_P, q64 = OVL_Q;
    float p32 = (float)OVL_P, q32 = (float)OVL_Q;
    gmb_arg_t pv = s->f == F_FP64 ? GMB_A_VAL(p64) : GMB_A_VAL(p32);
    gmb_arg_t qv = s->f == F_FP64 ? GMB_A_VAL(q64) : GMB_A_VAL(q32);
    gmb_arg_t am[] = {GMB_A_BUF(s->y), GMB_A_BUF(s->x), GMB_A_VAL(s->n), GMB_A_VAL(s->k), pv, qv};
    gmb_arg_t ar[] = {GMB_A_BUF(s->out), GMB_A_VAL(s->k), pv, qv, GMB_A_VAL(seed)};
    gmb_kern_t *k = s->mode == I_MEM ? s->r->kmem[s->f] : s->r->kreg[s->f];
    double t0, t1;
    int rc = be->span_begin(s->c->dev, 0);
    for (gmb_u32 i = 0; i < s->reps && !rc; i++)
        rc = be->launch_async(k, 0, &s->geo, s->mode == I_MEM ? am : ar, s->mode == I_MEM ? 6 : 5);
    int r2 = be->span_end(s->c->dev, 0);
    int r3 = be->span_wait(s->c->dev, 0, &t0, &t1);
    rc = rc ? rc : r2 ? r2 : r3;
    if (!rc)
        *ns = t1 - t0;
    return rc;
}

/* the value of output element i (memory kernel) as the host computes it */
static double want_mem(const sw_t *s, gmb_u64 i)
{
    float x = ovl_ref_input(SEED_X(s->c), i);
    return s->f == F_FP64 ? ovl_ref_mem_f64(x, s->k) : (double)ovl_ref_mem_f32(x, s->k);
}

/* Check the point's output: the memory kernel's y in chunks (whole when the host's FMAs
 * allow), or the compute-only outputs of work-items spread over the grid. With
 * --inject-error one value of each kind is planted wrong first. 0, GMB_EVERIFY, an error. */
static int verify(sw_t *s, const char **how, char *err, size_t errlen)
{
    gmb_ctx_t *c = s->c;
    const gmb_backend_t *be = c->be;
    uint64_t per = s->k ? s->k : 1, G = grid_items(s);
    int rc = GMB_OK;
    if (s->mode == I_REG) {
        gmb_u64 m = CHECK_FMAS / (4 * per); /* work-items: four chains of k each */
        m = m < 8 ? 8 : m > G ? G : m;
        *how = m >= G ? "full" : "sampled";
        unsigned char *h = malloc((size_t)G * s->elem);
        if (!h)
            return GMB_ERUNTIME;
        if ((rc = be->read(s->out, 0, h, (size_t)G * s->elem))) {
            free(h);
            return rc;
        }
        if (c->o.inject_error && !s->inj[I_REG]) { /* test aid: the last work-item's */
            memset(h + (G - 1) * s->elem, 0x7f, s->elem);
            s->inj[I_REG] = 1;
        }
        for (gmb_u64 j = 0; j < m && !rc; j++) {
            gmb_u64 g = m == 1 ? 0 : j * (G - 1) / (m - 1);
            double want = ovl_ref_reg(s->f == F_FP64, g, s->k, SEED_REG(c)), got;
            int same;
            if (s->f == F_FP64) {
                memcpy(&got, h + g * 8, 8);
                same = !memcmp(&got, &want, 8);
            } else {
                float g32, w32 = (float)want;
                memcpy(&g32, h + g * 4, 4);
                got = g32;
                same = !memcmp(&g32, &w32, 4);
            }
            if (!same) {
                snprintf(err, errlen,
                         "%s compute-only, k %u: work-item %llu: got %.17g, expected "
                         "%.17g",
                         ovl_prec_names[s->f], s->k, (unsigned long long)g, got, want);
                rc = GMB_EVERIFY;
            }
        }
        free(h);
        return rc;
    }
    if (c->o.inject_error && !s->inj[I_MEM]) { /* test aid: one wrong element, the last */
        double bad = -1.0;
        float bad32 = -1.0f;
        if ((rc = be->write(s->y, (size_t)(s->n - 1) * s->elem,
                            s->f == F_FP64 ? (void *)&bad : (void *)&bad32, s->elem)))
            return rc;
        s->inj[I_MEM] = 1;
    }
    uint64_t bytes = s->n * s->elem, budget = CHECK_FMAS / per * s->elem;
    budget = budget < 4096 * s->elem ? 4096 * s->elem : budget;
    uint64_t chunk = budget / CHECK_CHUNKS;
    chunk -= chunk % s->elem;
    gmb_span_t sp[CHECK_CHUNKS];
    size_t nsp = gmb_verify_spans(bytes, budget, chunk ? chunk : s->elem, CHECK_CHUNKS,
                                  SEED_X(c) ^ s->k, sp, CHECK_CHUNKS);
    *how = bytes <= budget ? "full" : "sampled";
    size_t most = 0;
    for (size_t i = 0; i < nsp; i++)
        most = sp[i].bytes > most ? (size_t)sp[i].bytes : most;
    unsigned char *h = malloc(most ? most : 1);
    if (!h)
        return GMB_ERUNTIME;
    for (size_t i = 0; i < nsp && !rc; i++) {
        if ((rc = be->read(s->y, (size_t)sp[i].off, h, (size_t)sp[i].bytes)))
            break;
        gmb_u64 e0 = sp[i].off / s->elem;
        for (gmb_u64 j = 0; j < sp[i].bytes / s->elem; j++) {
            double want = want_mem(s, e0 + j), got;
            int same;
            if (s->f == F_FP64) {
                memcpy(&got, h + j * 8, 8);
                same = !memcmp(&got, &want, 8);
            } else {
                float g32, w32 = (float)want;
                memcpy(&g32, h + j * 4, 4);
                got = g32;
                same = !memcmp(&g32, &w32, 4);
            }
            if (!same) {
                snprintf(err, errlen, "%s memory, k %u: element %llu: got %.17g, expected %.17g",
                         ovl_prec_names[s->f], s->k, (unsigned long long)(e0 + j), got, want);
                rc = GMB_EVERIFY;
                break;
            }
        }
    }
    free(h);
    return rc;
}

/* One point measured: launches per sample for --min-sample-us, the samples, the check, the
 * point recorded. *launch_ns: the median time of one launch (NaN when verification failed),
 * *hi_ns its CI's upper end; *idx the point's index. 0, GMB_EVERIFY or an error. */
static int run_point(sw_t *s, double *launch_ns, double *hi_ns, double *gflops, size_t *idx)
{
    gmb_ctx_t *c = s->c;
    const ovl_cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    size_t obytes = s->mode == I_MEM ? (size_t)(s->n * s->elem) : (size_t)(grid_items(s) * s->elem);
    int rc = be->fill(s->mode == I_MEM ? s->y : s->out, 0, 0xff, obytes);
    if (rc)
        return rc;
    double t, want = cfg->min_sample_us * 1e3;
    s->reps = 1;
    if ((rc = sample(s, &t)) || (rc = sample(s, &t))) /* the first: a warm-up */
        return rc;
    gmb_series_t ser = {.warmed = 1};
    if (t >= want && (rc = gmb_series_push(&ser, t)))
        return rc;
    if (t < want)
        s->reps = (gmb_u32)fmin(ceil(1.1 * want / fmax(t, 1.0)), MAX_REPS);
    if ((rc = gmb_measure(c, sample, s, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    char err[320] = "";
    const char *how = "none";
    rc = verify(s, &how, err, sizeof err);
    if (rc && rc != GMB_EVERIFY) {
        gmb_series_free(&ser);
        return rc;
    }
    /* FLOPs: the memory kernel's 2k an element of n; compute-only's 2k a chain, four a work-item */
    double flop = 2.0 * s->k * (double)(s->mode == I_MEM ? s->n : 4 * grid_items(s)),
           bytes = 2.0 * s->elem * (double)s->n;
    json_t *params =
        json_pack("{s:s, s:s, s:s, s:i, s:f, s:I, s:I, s:i, s:I, s:I}", "part", "intensity",
                  "precision", ovl_prec_names[s->f], "mode", imode_names[s->mode], "k", (int)s->k,
                  "flop_per_byte", (double)s->k / (double)s->elem, "size_bytes",
                  (json_int_t)(s->n * s->elem), "elements", (json_int_t)s->n, "reps", (int)s->reps,
                  "groups", (json_int_t)s->geo.groups, "group_size", (json_int_t)s->geo.group_size);
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "launch_ns", gmb_json_scaled(1.0 / s->reps, &ser.st));
    if (s->mode == I_MEM)
        gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes * s->reps, &ser.st));
    if (s->k)
        gmb_point_metric(pt, "gflops", gmb_json_rate(flop * s->reps, &ser.st));
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "verified", json_string(rc ? "FAILED" : how));
    if (rc)
        json_object_set_new(extra, "failure", json_string(err));
    json_object_set_new(
        extra, "where",
        json_string(s->mode == I_MEM ? gmb_residence(&c->info, s->n * s->elem * 2) : "registers"));
    *idx = json_array_size(c->points);
    gmb_add_point(c, pt);
    double l = ser.st.median / s->reps;
    printf("%-4s %-7s %5u %8.3g %12.3f %10.3f %10.3f %7.2f %4zu %5u %s\n", ovl_prec_names[s->f],
           imode_names[s->mode], s->k, (double)s->k / (double)s->elem, l / 1e3,
           s->mode == I_MEM ? bytes / l : NAN, s->k ? flop / l : NAN, 100.0 * ser.st.ci_rel,
           ser.st.n, s->reps, rc ? "FAILED" : how);
    fflush(stdout);
    *launch_ns = rc ? NAN : l;
    *hi_ns = ser.st.ci_hi / s->reps;
    *gflops = rc || !s->k ? NAN : flop / l;
    gmb_series_free(&ser);
    if (rc)
        ovl_fail(s->r, "%s", err);
    return rc;
}

/* The ridge, hidden fractions, summary and headline figures of one precision's sweep. */
static void conclude(sw_t *s, const gmb_u32 *ks, size_t nk, const double *tm, double hi0,
                     const double *tr, const size_t *im, const size_t *ir, const double *gf,
                     int failed, json_t *ridges, json_t *hidden)
{
    gmb_ctx_t *c = s->c;
    const char *pn = ovl_prec_names[s->f];
    double kd[MAX_K_POINTS];
    for (size_t i = 0; i < nk; i++)
        kd[i] = ks[i];
    ovl_ridge_t rg;
    if (failed) {
        memset(&rg, 0, sizeof rg);
        rg.k = rg.departure_k = NAN;
        snprintf(rg.why, sizeof rg.why, "not fitted: a point of the sweep failed verification");
    } else if (ovl_ridge_fit(kd, tm, nk, hi0, &rg)) {
        rg.found = 0;
    }
#define NUM(v) ((v) == (v) ? json_real(v) : json_null())
    json_t *o = json_pack("{s:s, s:b, s:s}", "precision", pn, "found", rg.found, "criterion",
                          "memory side: k = 0 and the k after it within 10% over k = 0's CI "
                          "(flat line: their median); compute side: the k past it at 2x k = "
                          "0's time or more, at least two (t = a k, a their median t / k); "
                          "ridge k* = flat / a, between the two sides");
    json_object_set_new(o, "ridge_k", NUM(rg.found ? rg.k : NAN));
    json_object_set_new(o, "ridge_flop_per_byte", NUM(rg.found ? rg.k / (double)s->elem : NAN));
    json_object_set_new(o, "why", json_string(rg.found ? "" : rg.why));
    json_object_set_new(o, "flat_ns", NUM(failed ? NAN : rg.flat_ns));
    json_object_set_new(o, "slope_ns_per_k", NUM(failed ? NAN : rg.slope_ns));
    json_object_set_new(o, "departure_k", NUM(rg.departure_k));
    json_object_set_new(o, "memory_side_points", json_integer((json_int_t)rg.nmem));
    json_object_set_new(o, "compute_side_points", json_integer((json_int_t)rg.ncomp));
    json_object_set_new(o, "memory_ns", NUM(tm[0]));
    json_object_set_new(o, "memory_GBps", NUM(2.0 * s->elem * (double)s->n / tm[0]));
    json_object_set_new(o, "bytes_per_element", json_integer((json_int_t)(2 * s->elem)));
    /* hidden fractions; reported at the largest k below the ridge (without one: the largest
     * memory-side k) */
    size_t below = 0;
    double hidden_at = NAN;
    for (size_t i = 1; i < nk; i++) {
        double h = ovl_hidden_fraction(tm[0], tr[i], tm[i]);
        json_array_append_new(hidden, json_pack("{s:s, s:i, s:f}", "precision", pn, "k", (int)ks[i],
                                                "flop_per_byte", (double)ks[i] / (double)s->elem));
        json_t *row = json_array_get(hidden, json_array_size(hidden) - 1);
        json_object_set_new(row, "memory_ns", NUM(tm[0]));
        json_object_set_new(row, "compute_ns", NUM(tr[i]));
        json_object_set_new(row, "kernel_ns", NUM(tm[i]));
        json_object_set_new(row, "hidden_fraction", NUM(h));
        if (h == h && (rg.found ? ks[i] < rg.k : i < rg.nmem)) {
            below = i;
            hidden_at = h;
        }
    }
    json_object_set_new(o, "hidden_k", below ? json_integer((json_int_t)ks[below]) : json_null());
    json_object_set_new(o, "hidden_fraction", NUM(hidden_at));
    /* peak GFLOP/s over both kernels */
    size_t best = SIZE_MAX;
    double peak = NAN;
    for (size_t i = 0; i < 2 * nk; i++)
        if (gf[i] == gf[i] && !(gf[i] <= peak)) {
            peak = gf[i];
            best = i;
        }
    json_object_set_new(o, "peak_gflops", NUM(peak));
    json_object_set_new(ridges, pn, o);
#undef NUM
    /* headlines: the ridge (a text where none), the peak */
    const json_t *pts[MAX_K_POINTS];
    size_t np = 0;
    for (size_t i = 0; i < nk; i++)
        pts[np++] = json_array_get(c->points, im[i]);
    char lab[96], txt[64];
    snprintf(lab, sizeof lab, "Ridge point, %s (measured, FMA chains)", s->f ? "FP64" : "FP32");
    snprintf(txt, sizeof txt, "no clear ridge");
    if (!failed)
        gmb_headline(c, &(gmb_headline_t){.label = lab,
                                          .unit = "FLOP/B",
                                          .higher = 1,
                                          .value = rg.found ? rg.k / (double)s->elem : NAN,
                                          .ci_lo = NAN,
                                          .ci_hi = NAN,
                                          .text = rg.found ? NULL : txt,
                                          .points = pts,
                                          .npoints = np});
    if (best != SIZE_MAX) {
        const json_t *pp = json_array_get(c->points, best < nk ? im[best] : ir[best - nk]);
        const json_t *m = json_object_get(json_object_get(pp, "metrics"), "gflops");
        snprintf(lab, sizeof lab, "Peak measured GFLOP/s, %s (FMA chains)", s->f ? "FP64" : "FP32");
        gmb_headline(c, &(gmb_headline_t){.label = lab,
                                          .unit = "GFLOP/s",
                                          .higher = 1,
                                          .value = peak,
                                          .ci_lo = json_number_value(json_object_get(m, "ci_lo")),
                                          .ci_hi = json_number_value(json_object_get(m, "ci_hi")),
                                          .points = &pp,
                                          .npoints = 1});
    }
    gmb_text_t *sm = &s->r->sm;
    gmb_text_add(sm, "%s%s: memory %.3g GB/s at k 0; ", sm->len ? " " : "", pn,
                 2.0 * s->elem * (double)s->n / tm[0]);
    if (rg.found)
        gmb_text_add(sm, "ridge at k %.3g (%.3g FLOP/B)", rg.k, rg.k / (double)s->elem);
    else
        gmb_text_add(sm, "no clear ridge (%s)", rg.why);
    if (below)
        gmb_text_add(sm, ", %.0f%% of the compute hidden at k %u", 100 * hidden_at, ks[below]);
    gmb_text_add(sm, "; peak %.4g GFLOP/s.", peak);
}

int ovl_part_intensity(ovl_run_t *r)
{
    gmb_ctx_t *c = r->c;
    const ovl_cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    gmb_u32 ks[MAX_K_POINTS];
    size_t nk = 0;
    ks[nk++] = 0;
    for (long k = 1; k <= cfg->k_max && nk < MAX_K_POINTS; k *= 2)
        ks[nk++] = (gmb_u32)k;
    json_t *ridges = json_object(), *hidden = json_array();
    int rc = GMB_OK, any = 0;
    printf("%-4s %-7s %5s %8s %12s %10s %10s %7s %4s %5s %s\n", "prec", "kernel", "k", "FLOP/B",
           "us/launch", "GB/s", "GFLOP/s", "+-CI%", "n", "reps", "verified");
    for (size_t pi = 0; pi < cfg->precisions.n && (!rc || rc == GMB_EVERIFY); pi++) {
        int f = cfg->precisions.idx[pi];
        if (f == F_FP64 && !r->fp64) {
            char why[224];
            snprintf(why, sizeof why, "fp64: the device has no doubles (%s)", r->fp64_how);
            printf("# skipped: intensity %s\n", why);
            json_array_append_new(r->skipped, json_pack("{s:s, s:s, s:s}", "part", "intensity",
                                                        "precision", "fp64", "reason", why));
            continue;
        }
        sw_t s = {.r = r, .c = c, .f = f, .elem = f == F_FP64 ? 8 : 4};
        s.n = cfg->size_bytes / s.elem;
        gmb_grid_pass(c, cfg->group_size, 4, s.n, &s.geo); /* four elements a work-item */
        if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)(s.n * s.elem), &s.x)) ||
            (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)(s.n * s.elem), &s.y)) ||
            (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)(grid_items(&s) * s.elem), &s.out)))
            goto next;
        gmb_u32 seed = SEED_X(c);
        gmb_launch_t g;
        gmb_grid(c, r->kinit[f], 0, 0, s.n, &g);
        gmb_arg_t av[] = {GMB_A_BUF(s.x), GMB_A_VAL(s.n), GMB_A_VAL(seed)};
        if ((rc = be->launch(r->kinit[f], &g, av, 3, NULL)))
            goto next;
        double tm[MAX_K_POINTS], tr[MAX_K_POINTS], gf[2 * MAX_K_POINTS], hi0 = NAN, hi;
        size_t im[MAX_K_POINTS], ir[MAX_K_POINTS];
        int failed = 0;
        for (size_t i = 0; i < nk; i++) {
            s.k = ks[i];
            s.mode = I_MEM;
            rc = run_point(&s, &tm[i], &hi, &gf[i], &im[i]);
            if (rc && rc != GMB_EVERIFY)
                goto next;
            failed |= rc == GMB_EVERIFY;
            if (!i)
                hi0 = hi;
            tr[i] = gf[nk + i] = NAN;
            ir[i] = 0;
            if (!ks[i]) /* no chains to run on registers */
                continue;
            s.mode = I_REG;
            rc = run_point(&s, &tr[i], &hi, &gf[nk + i], &ir[i]);
            if (rc && rc != GMB_EVERIFY)
                goto next;
            failed |= rc == GMB_EVERIFY;
        }
        rc = GMB_OK;
        any = 1;
        conclude(&s, ks, nk, tm, hi0, tr, im, ir, gf, failed, ridges, hidden);
    next:
        be->free(s.x);
        be->free(s.y);
        be->free(s.out);
    }
    if (any) {
        gmb_add_result(c, "ridge", ridges);
        gmb_add_result(c, "hidden", hidden);
        ridges = hidden = NULL;
    }
    json_decref(ridges);
    json_decref(hidden);
    return rc == GMB_EVERIFY ? GMB_OK : rc;
}
