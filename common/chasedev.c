/* chasedev.c - the device side the pointer-chase benchmarks share: chains laid out and
 * checked on the device, and the calibration of a chase launch. */
#include "chasedev.h"

#include <math.h>
#include <stdio.h>

gmb_launch_t gmb_chain_grid(const gmb_ctx_t *c, uint64_t n)
{
    const gmb_dev_info_t *d = &c->info;
    size_t L = d->max_group_size < 256 ? (size_t)d->max_group_size : 256;
    size_t groups = (size_t)((n + L - 1) / L), most = (size_t)d->compute_units * 64;
    return (gmb_launch_t){.groups = groups < most ? groups : most, .group_size = L};
}

int gmb_chain_lay_out(gmb_ctx_t *c, gmb_prog_t *prog, gmb_buf_t *chain, gmb_buf_t *order_d,
                      gmb_buf_t *bad, const uint32_t *order, uint64_t n,
                      const gmb_chain_layout_t *lay, char *err, size_t errlen)
{
    const gmb_backend_t *be = c->be;
    gmb_kern_t *kb, *kc;
    int rc;
    if ((rc = be->kern_get(prog, "chase_build", &kb)) ||
        (rc = be->kern_get(prog, "chase_check", &kc)))
        return rc;
    if (order) { /* the order must be a permutation: then its cycle visits every element once */
        int ok = gmb_chain_is_permutation(order, (size_t)n);
        if (ok < 0)
            return ok;
        if (!ok) {
            snprintf(err, errlen, "the host order is not a permutation");
            return GMB_EVERIFY;
        }
        if ((rc = be->write(order_d, 0, order, (size_t)n * sizeof *order)))
            return rc;
    }
    gmb_launch_t g = gmb_chain_grid(c, n);
    gmb_u32 nn = (gmb_u32)n, seq = order ? 0 : 1, sw = (gmb_u32)lay->stride_words,
            pw = (gmb_u32)lay->page_words, b = 0;
    gmb_arg_t ab[] = {GMB_A_BUF(chain), GMB_A_BUF(order_d), GMB_A_VAL(nn),
                      GMB_A_VAL(seq),   GMB_A_VAL(sw),      GMB_A_VAL(pw)};
    gmb_arg_t ac[] = {GMB_A_BUF(chain), GMB_A_BUF(order_d), GMB_A_VAL(nn), GMB_A_VAL(seq),
                      GMB_A_VAL(sw),    GMB_A_VAL(pw),      GMB_A_BUF(bad)};
    if ((rc = be->launch(kb, &g, ab, 6, NULL)) || (rc = be->fill(bad, 0, 0, sizeof b)) ||
        (rc = be->launch(kc, &g, ac, 7, NULL)) || (rc = be->read(bad, 0, &b, sizeof b)))
        return rc;
    if (b) {
        snprintf(err, errlen, "the chain on the device is wrong at position %u", b - 1);
        return GMB_EVERIFY;
    }
    return GMB_OK;
}

int gmb_chase_baseline(gmb_sample_fn fn, void *arg, gmb_u32 *steps, double *base_ns, int keep)
{
    gmb_u32 timed = *steps;
    double best = keep ? *base_ns : INFINITY, t;
    int rc = GMB_OK;
    *steps = 0;
    for (int i = 0; i < 5 && !rc; i++)
        if (!(rc = fn(arg, &t)))
            best = fmin(best, t + *base_ns); /* fn gave the time less the baseline */
    *steps = timed;
    if (!rc)
        *base_ns = best;
    return rc;
}

int gmb_chase_rebaseline(gmb_sample_fn fn, void *arg, gmb_u32 *steps, double *base_ns,
                         gmb_series_t *const *keep, int nkeep)
{
    size_t n[8];
    for (int i = 0; i < nkeep && i < 8; i++)
        n[i] = keep[i]->n;
    int rc = gmb_chase_baseline(fn, arg, steps, base_ns, 1);
    for (int i = 0; i < nkeep && i < 8; i++)
        keep[i]->n = n[i];
    return rc;
}

int gmb_chase_calibrate(const gmb_ctx_t *c, gmb_sample_fn fn, void *arg, gmb_u32 warm,
                        gmb_u32 *steps, double *base_ns, double min_sample_us, gmb_u32 fixed,
                        gmb_u32 max_steps)
{
    double t = 0;
    int rc;
    *base_ns = 0;
    double want = fmax(min_sample_us * 1e3, 1000.0 * c->info.timer_res_ns);
    *steps = fixed ? fixed : 1024;
    for (int i = 0; i < 4; i++) { /* ns per load from whole launches, warm-up included */
        if ((rc = fn(arg, &t)))
            return rc;
        if (fixed)
            break;
        double per = t / ((double)warm + *steps);
        double need = fmax(want / fmax(per, 1e-3), 2.0 * warm);
        int done = need <= 1.25 * *steps;
        *steps = (gmb_u32)fmin((double)max_steps, ceil(fmax(need, 1024.0)));
        if (done || *steps >= max_steps)
            break;
    }
    if ((rc = gmb_chase_baseline(fn, arg, steps, base_ns, 0)))
        return rc;
    /* the baseline may be most of a launch (shared memory: the copy-in): grow the timed
     * loads until their own time reaches the target and the baseline itself */
    want = fmax(want, *base_ns);
    for (int i = 0; i < 6 && !fixed && *steps < max_steps; i++) {
        if ((rc = fn(arg, &t)))
            return rc;
        if (t >= 0.5 * want)
            break;
        double f = fmin(64.0, want / fmax(t, want / 64.0));
        *steps = (gmb_u32)fmin((double)max_steps, ceil(*steps * f));
    }
    return GMB_OK;
}

gmb_chase_verdict_t gmb_chase_judge(gmb_chase_guard_t *g, gmb_u32 steps, double ns)
{
    if (!steps || ns > 0)
        return GMB_CHASE_KEEP;
    if (g->budget) {
        g->budget--;
        g->glitches++;
        return GMB_CHASE_REPEAT;
    }
    if (g->rebases < 3) {
        g->rebases++;
        g->budget = 8;
        return GMB_CHASE_REBASE;
    }
    return GMB_CHASE_KEEP;
}

int gmb_chase_settle(const gmb_ctx_t *c, const gmb_chase_guard_t *g, const gmb_series_t *raw,
                     double base_ns, gmb_series_t *ser)
{
    if (!g->rebases || ser->n > raw->n)
        return GMB_OK;
    for (size_t i = 0; i < ser->n; i++)
        ser->ns[i] = raw->ns[raw->n - ser->n + i] - base_ns;
    return gmb_stats_compute(ser->ns, ser->n, (size_t)c->o.min_samples, c->o.ci_target_pct / 100.0,
                             &ser->st);
}
