/* copies.c - gmb-overlap's part overlap: a copy (pinned host memory <-> a device buffer, the
 * copy engine) alone, a kernel alone (FMA chains on registers, or a streaming kernel over
 * other device buffers) and both at once on two streams; the kernel calibrated to last as
 * long as the copy; every destination and output verified; the overlap efficiency, the copy's
 * bandwidth under the kernel and the kernel's slowdown under the copy. */
#include "kernels/gmb_kernels.h"
#include "overlap.h"
#include "model/xfer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED_HOST(c)   ((gmb_u32)(c)->o.seed * 8u + 1u) /* h2d's source (host) */
#define SEED_DEV(c)    ((gmb_u32)(c)->o.seed * 8u + 2u) /* d2h's source (device) */
#define SEED_STREAM(c) ((gmb_u32)(c)->o.seed * 8u + 3u) /* the streaming kernel's input */
#define SEED_CHAIN(c)  ((gmb_u32)(c)->o.seed * 8u + 4u) /* the compute kernel's chains */
#define FULL_VERIFY    (32ull << 20)                    /* destinations checked whole up to this */
#define CHUNKS         8                                /* else this many chunks */
#define CHUNK_BYTES    (256ull << 10)                   /* of this size */
#define CHECK_FMAS     (1ull << 25) /* host FMAs the compute kernel's check may take */
#define CAL_TOL        0.10         /* calibrated kernel: within this of the copy's time */
#define CAL_TRIES      6            /* calibration rounds at most */
#define MAX_ITERS      (1u << 30)   /* the compute kernel's FMAs per chain at most */
#define MAX_PASSES     65536u       /* streaming launches per run at most */

enum { M_COPY, M_KERNEL, M_BOTH };
static const char *const mode_names[] = {"copy", "kernel", "both"};

/* One direction and kernel being measured. */
typedef struct ox {
    ovl_run_t *r;
    gmb_ctx_t *c;
    int dir, kern, mode; /* D_*, K_*, M_* (what sample runs) */
    gmb_buf_t *hbuf;     /* pinned host memory: h2d's source, d2h's destination */
    gmb_buf_t *dbuf;     /* device memory: h2d's destination, d2h's source */
    size_t copy_bytes;   /* bytes per copy */
    gmb_buf_t *sx, *sy;  /* the streaming kernel's input and output */
    gmb_u64 sn;          /* their floats */
    gmb_buf_t *cout;     /* the compute kernel's output, a float per work-item */
    gmb_launch_t geo_c;  /* the compute kernel's grid */
    gmb_launch_t geo_s;  /* the streaming kernel's */
    gmb_u64 cn;          /* the compute kernel's chains: four per work-item */
    gmb_u32 iters;       /* its FMAs per chain */
    gmb_u32 passes;      /* streaming launches per run */
    float p, q;          /* the chain's constants */
    gmb_u32 cseed;       /* the compute kernel's seed */
    double *each;        /* both: per sample the copy's span, the kernel's, the kernel's start
                            after the copy's (ns) */
    size_t neach, cap;   /* triples stored, capacity */
    int inj_copy, inj_kern[2], inj_both; /* --inject-error: planted in this kind of output */
} ox_t;

static gmb_buf_t *copy_dst(const ox_t *x)
{
    return x->dir == D_H2D ? x->dbuf : x->hbuf;
}
static gmb_buf_t *copy_src(const ox_t *x)
{
    return x->dir == D_H2D ? x->hbuf : x->dbuf;
}

static int enq_copy(ox_t *x, int s)
{
    return x->c->be->copy_async(x->c->dev, s, copy_dst(x), 0, copy_src(x), 0, x->copy_bytes);
}

static int enq_kernel(ox_t *x, int s)
{
    const gmb_backend_t *be = x->c->be;
    if (x->kern == K_COMPUTE) {
        gmb_arg_t av[] = {GMB_A_BUF(x->cout), GMB_A_VAL(x->iters), GMB_A_VAL(x->p), GMB_A_VAL(x->q),
                          GMB_A_VAL(x->cseed)};
        return be->launch_async(x->r->kreg[F_FP32], s, &x->geo_c, av, 5);
    }
    gmb_u32 one = 1; /* y = p x + q */
    gmb_arg_t av[] = {GMB_A_BUF(x->sy), GMB_A_BUF(x->sx), GMB_A_VAL(x->sn),
                      GMB_A_VAL(one),   GMB_A_VAL(x->p),  GMB_A_VAL(x->q)};
    int rc = GMB_OK;
    for (gmb_u32 i = 0; i < x->passes && !rc; i++)
        rc = be->launch_async(x->r->kmem[F_FP32], s, &x->geo_s, av, 6);
    return rc;
}

/* One run of x->mode, timed by device events: the copy or the kernel alone on stream 0, or
 * the copy on stream 0 and the kernel on stream 1 at once (from the earlier start to the
 * later end; each one's own span kept in x->each). 0 or the backend's error. */
static int sample(void *arg, double *ns)
{
    ox_t *x = arg;
    const gmb_backend_t *be = x->c->be;
    gmb_dev_t *dev = x->c->dev;
    int ns_ = x->mode == M_BOTH ? 2 : 1, rc = GMB_OK;
    double t0[2] = {0, 0}, t1[2] = {0, 0};
    for (int s = 0; s < ns_ && !rc; s++)
        rc = be->span_begin(dev, s);
    if (!rc)
        rc = x->mode == M_KERNEL ? enq_kernel(x, 0) : enq_copy(x, 0);
    if (!rc && x->mode == M_BOTH)
        rc = enq_kernel(x, 1);
    for (int s = 0; s < ns_; s++) {
        int e = be->span_end(dev, s);
        rc = rc ? rc : e;
    }
    for (int s = 0; s < ns_; s++) { /* wait for all, even after an error */
        int e = be->span_wait(dev, s, &t0[s], &t1[s]);
        rc = rc ? rc : e;
    }
    if (rc)
        return rc;
    if (ns_ == 1) {
        *ns = t1[0] - t0[0];
        return GMB_OK;
    }
    *ns = fmax(t1[0], t1[1]) - fmin(t0[0], t0[1]);
    if (x->neach == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        double *e = realloc(x->each, cap * 3 * sizeof *e);
        if (!e)
            return GMB_ERUNTIME;
        x->each = e;
        x->cap = cap;
    }
    double *e = x->each + 3 * x->neach++;
    e[0] = t1[0] - t0[0];
    e[1] = t1[1] - t0[1];
    e[2] = t0[1] - t0[0];
    return GMB_OK;
}

static int sample_copy(void *arg, double *ns)
{
    ((ox_t *)arg)->mode = M_COPY;
    return sample(arg, ns);
}
static int sample_kernel(void *arg, double *ns)
{
    ((ox_t *)arg)->mode = M_KERNEL;
    return sample(arg, ns);
}
static int sample_both(void *arg, double *ns)
{
    ((ox_t *)arg)->mode = M_BOTH;
    return sample(arg, ns);
}

/* The median of three runs of mode (calibration). */
static int median3(ox_t *x, int mode, double *ns)
{
    double v[3];
    for (int i = 0; i < 3; i++) {
        x->mode = mode;
        int rc = sample(x, &v[i]);
        if (rc)
            return rc;
    }
    qsort(v, 3, sizeof *v, gmb_cmp_double);
    *ns = v[1];
    return GMB_OK;
}

/* The kernel's length: --compute-iters / --stream-passes as given, else raised or lowered
 * until the kernel alone lasts within CAL_TOL of target_ns (the copy alone). The calibration
 * goes to cal. 0 or the backend's error. */
static int calibrate(ox_t *x, double target_ns, json_t *cal)
{
    const ovl_cfg_t *cfg = x->c->cfg;
    long given = x->kern == K_COMPUTE ? cfg->compute_iters : cfg->stream_passes;
    double t = 0, lim = x->kern == K_COMPUTE ? MAX_ITERS : MAX_PASSES;
    int tries = 0, rc;
    double v = given ? (double)given : x->kern == K_COMPUTE ? 1024 : 1;
    for (;;) {
        if (x->kern == K_COMPUTE)
            x->iters = (gmb_u32)v;
        else
            x->passes = (gmb_u32)v;
        if ((rc = median3(x, M_KERNEL, &t)))
            return rc;
        tries++;
        if (given || fabs(t / target_ns - 1) <= CAL_TOL || tries >= CAL_TRIES)
            break;
        double nv = fmin(fmax(round(v * target_ns / t), 1), lim);
        if (nv == v) /* at a bound (one pass longer than the copy, or the cap) */
            break;
        v = nv;
    }
    json_object_set_new(cal, "target_ns", json_real(target_ns));
    json_object_set_new(cal, x->kern == K_COMPUTE ? "iters" : "passes",
                        json_integer((json_int_t)v));
    json_object_set_new(cal, "kernel_ns", json_real(t));
    json_object_set_new(cal, "kernel_over_copy", json_real(t / target_ns));
    json_object_set_new(cal, "tries", json_integer(tries));
    json_object_set_new(cal, "given", json_boolean(given != 0));
    json_object_set_new(
        cal, "how",
        json_string(given ? "as given"
                    : fabs(t / target_ns - 1) <= CAL_TOL
                        ? "calibrated: the kernel alone within 10% of the copy alone"
                        : "calibrated as near as it came (a bound, or six rounds)"));
    return GMB_OK;
}

/* Check a float destination against expect(i) over the spans of a bytes-long buffer.
 * 0, GMB_EVERIFY (err says where) or the backend's error. */
static int check_floats(gmb_ctx_t *c, gmb_buf_t *b, uint64_t bytes, gmb_u32 span_seed,
                        gmb_u32 src_seed, int chain, const char *what, const char **how, char *err,
                        size_t errlen)
{
    gmb_span_t sp[CHUNKS];
    size_t n = gmb_verify_spans(bytes, FULL_VERIFY, CHUNK_BYTES, CHUNKS, span_seed, sp, CHUNKS);
    *how = bytes <= FULL_VERIFY ? "full" : "sampled";
    size_t most = 0;
    for (size_t i = 0; i < n; i++)
        most = sp[i].bytes > most ? (size_t)sp[i].bytes : most;
    float *buf = malloc(most ? most : 1);
    if (!buf)
        return GMB_ERUNTIME;
    int rc = GMB_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        if ((rc = c->be->read(b, (size_t)sp[i].off, buf, (size_t)sp[i].bytes)))
            break;
        gmb_u64 e0 = sp[i].off / sizeof(float);
        for (size_t j = 0; j < sp[i].bytes / sizeof(float); j++) {
            float want = ovl_ref_input(src_seed, e0 + j);
            if (chain)
                want = ovl_ref_mem_f32(want, 1);
            if (memcmp(&buf[j], &want, sizeof want)) {
                snprintf(err, errlen, "%s: element %llu: got %.9g, expected %.9g", what,
                         (unsigned long long)(e0 + j), buf[j], want);
                rc = GMB_EVERIFY;
                break;
            }
        }
    }
    free(buf);
    return rc;
}

/* The compute kernel's outputs: the first and the last work-item and others spread between,
 * as many as CHECK_FMAS host FMAs allow (at least 8), against the host's chains. */
static int check_compute(ox_t *x, const char **how, char *err, size_t errlen)
{
    gmb_u64 G = (gmb_u64)x->geo_c.groups * x->geo_c.group_size;
    float *h = malloc(G * sizeof *h);
    if (!h)
        return GMB_ERUNTIME;
    int rc = x->c->be->read(x->cout, 0, h, G * sizeof *h);
    if (x->c->o.inject_error && !x->inj_kern[K_COMPUTE] && !rc) { /* test aid: the last one */
        h[G - 1] = -1.0f;
        x->inj_kern[K_COMPUTE] = 1;
    }
    gmb_u64 per = 4ull * x->iters, m = CHECK_FMAS / (per ? per : 1);
    m = m < 8 ? 8 : m > G ? G : m;
    *how = m >= G ? "full" : "sampled";
    for (gmb_u64 j = 0; j < m && !rc; j++) {
        gmb_u64 g = m == 1 ? 0 : j * (G - 1) / (m - 1);
        float want = (float)ovl_ref_reg(0, g, x->iters, x->cseed);
        if (memcmp(&h[g], &want, sizeof want)) {
            snprintf(err, errlen, "compute kernel: work-item %llu: got %.9g, expected %.9g",
                     (unsigned long long)g, h[g], want);
            rc = GMB_EVERIFY;
        }
    }
    free(h);
    return rc;
}

/* The copy's destination and the kernel's output after the runs of a point (mode M_COPY: the
 * copy's only; M_KERNEL: the kernel's only; M_BOTH: both). With --inject-error one wrong value
 * is planted once in each kind of output first. 0, GMB_EVERIFY with err, or an error. */
static int verify(ox_t *x, int mode, const char **how, char *err, size_t errlen)
{
    gmb_ctx_t *c = x->c;
    int rc = GMB_OK;
    const char *h1 = "full";
    if (mode != M_KERNEL) {
        int *inj = mode == M_BOTH ? &x->inj_both : &x->inj_copy;
        if (c->o.inject_error && !*inj) { /* test aid: one wrong element, the last */
            float bad = -1.0f;
            if ((rc = c->be->write(copy_dst(x), x->copy_bytes - sizeof bad, &bad, sizeof bad)))
                return rc;
            *inj = 1;
        }
        rc = check_floats(c, copy_dst(x), x->copy_bytes, SEED_HOST(c) ^ 0x5bd1e995u,
                          x->dir == D_H2D ? SEED_HOST(c) : SEED_DEV(c), 0,
                          x->dir == D_H2D ? "h2d copy" : "d2h copy", &h1, err, errlen);
        *how = h1;
        if (rc)
            return rc;
    }
    if (mode == M_COPY)
        return GMB_OK;
    const char *h2 = "full";
    if (x->kern == K_COMPUTE) {
        rc = check_compute(x, &h2, err, errlen);
    } else {
        if (c->o.inject_error && !x->inj_kern[K_STREAM] && mode == M_KERNEL) {
            float bad = -1.0f;
            if ((rc = c->be->write(x->sy, (size_t)(x->sn - 1) * sizeof bad, &bad, sizeof bad)))
                return rc;
            x->inj_kern[K_STREAM] = 1;
        }
        rc = check_floats(c, x->sy, x->sn * sizeof(float), SEED_STREAM(c) ^ 0x27d4eb2fu,
                          SEED_STREAM(c), 1, "streaming kernel", &h2, err, errlen);
    }
    *how = mode == M_BOTH && strcmp(h1, h2) ? "sampled" : h2;
    return rc;
}

/* A time metric of a point from every stride-th of n samples (ns), its samples kept. */
static void time_metric(const gmb_ctx_t *c, json_t *pt, const char *name, const double *ns,
                        size_t n, size_t stride)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    gmb_stats_t st;
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        v[i] = ns[i * stride];
    if (n && !gmb_stats_compute(v, n, (size_t)c->o.min_samples, c->o.ci_target_pct / 100, &st)) {
        gmb_point_metric(pt, name, gmb_json_scaled(1.0, &st));
        gmb_point_metric_samples(pt, name, v, n);
    }
    free(v);
}

/* The median of every stride-th of n samples. */
static double median_of(const double *ns, size_t n, size_t stride)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v || !n) {
        free(v);
        return NAN;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = ns[i * stride];
    qsort(v, n, sizeof *v, gmb_cmp_double);
    double m = gmb_median_sorted(v, n);
    free(v);
    return m;
}

/* Record the point of mode m (its series, verdict); returns its index in the record. */
static size_t add_point(ox_t *x, int m, const gmb_series_t *ser, int ok, const char *how,
                        const char *err, json_t *cal)
{
    gmb_ctx_t *c = x->c;
    json_t *params =
        json_pack("{s:s, s:s, s:s, s:s, s:I, s:i}", "part", "overlap", "direction",
                  ovl_dir_names[x->dir], "kernel", ovl_kern_names[x->kern], "mode", mode_names[m],
                  "copy_bytes", (json_int_t)x->copy_bytes, "streams", m == M_BOTH ? 2 : 1);
    if (m != M_COPY) {
        const gmb_launch_t *g = x->kern == K_COMPUTE ? &x->geo_c : &x->geo_s;
        json_object_set_new(params, "groups", json_integer((json_int_t)g->groups));
        json_object_set_new(params, "group_size", json_integer((json_int_t)g->group_size));
        if (x->kern == K_COMPUTE)
            json_object_set_new(params, "iters", json_integer((json_int_t)x->iters));
        else {
            json_object_set_new(params, "passes", json_integer((json_int_t)x->passes));
            json_object_set_new(params, "stream_bytes",
                                json_integer((json_int_t)(x->sn * sizeof(float))));
        }
    }
    json_t *pt = gmb_point_new(params, ser);
    double bytes = (double)x->copy_bytes;
    double kwork = x->kern == K_COMPUTE
                       ? 2.0 * (double)x->iters * (double)x->cn           /* FLOPs */
                       : 2.0 * sizeof(float) * (double)x->sn * x->passes; /* bytes */
    const char *kmetric = x->kern == K_COMPUTE ? "gflops" : "bw_GBps";
    if (m == M_COPY)
        gmb_point_metric(pt, "copy_GBps", gmb_json_rate(bytes, &ser->st));
    if (m == M_KERNEL)
        gmb_point_metric(pt, kmetric, gmb_json_rate(kwork, &ser->st));
    size_t n = ser->n <= x->neach ? ser->n : x->neach;
    const double *last = x->each ? x->each + 3 * (x->neach - n) : NULL;
    if (m == M_BOTH && n) { /* each one's own span within the both-runs */
        gmb_point_rate(c, pt, "copy_GBps", last, n, 3, bytes);
        time_metric(c, pt, "kernel_ns", last + 1, n, 3);
        gmb_point_rate(c, pt, kmetric, last + 1, n, 3, kwork);
    }
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "verified", json_string(ok ? how : "FAILED"));
    if (!ok)
        json_object_set_new(extra, "failure", json_string(err));
    if (m == M_BOTH && n)
        json_object_set_new(extra, "kernel_start_after_copy_ns",
                            json_real(median_of(last + 2, n, 3)));
    if (m == M_KERNEL && cal)
        json_object_set_new(extra, "calibration", json_incref(cal));
    if (m != M_COPY)
        json_object_set_new(extra, "kernel_arrays",
                            json_string(x->kern == K_COMPUTE
                                            ? "none (registers)"
                                            : gmb_residence(&c->info, 2 * x->sn * 4)));
    json_object_set_new(extra, "copy_api", json_string(c->be->copy_api));
    size_t idx = json_array_size(c->points);
    gmb_add_point(c, pt);
    double rate = m == M_COPY     ? bytes / ser->st.median
                  : m == M_KERNEL ? kwork / ser->st.median
                  : n             ? bytes / median_of(last, n, 3)
                                  : NAN;
    char sz[32];
    printf("%-4s %-8s %-6s %10s %10.3f %7.2f %10.3f %4zu %s\n", ovl_dir_names[x->dir],
           ovl_kern_names[x->kern], mode_names[m], gmb_fmt_size(x->copy_bytes, sz, sizeof sz),
           ser->st.median / 1e6, 100.0 * ser->st.ci_rel, rate, ser->st.n, ok ? how : "FAILED");
    fflush(stdout);
    return idx;
}

/* efficiency over the corners of the three CIs: its least and greatest value */
static void eff_bounds(const gmb_stats_t *a, const gmb_stats_t *k, const gmb_stats_t *b, double *lo,
                       double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < 8; i++) {
        double e = ovl_efficiency(i & 1 ? a->ci_hi : a->ci_lo, i & 2 ? k->ci_hi : k->ci_lo,
                                  i & 4 ? b->ci_hi : b->ci_lo);
        *lo = fmin(*lo, e);
        *hi = fmax(*hi, e);
    }
}

/* Measure one direction and kernel: calibrate, the copy and the kernel alone (in turns), then
 * both; verify each; record the points and the row of results.overlap. 0, GMB_EVERIFY or an
 * error. */
static int measure(ox_t *x, json_t *rows, json_t *hl)
{
    gmb_ctx_t *c = x->c;
    const gmb_backend_t *be = c->be;
    int rc;
    /* the sources and the poisoned destinations */
    if (x->dir == D_H2D) {
        float *h = be->host_ptr(x->hbuf);
        if (!h) {
            gmb_error("pinned host memory without a host pointer");
            return GMB_ERUNTIME;
        }
        for (gmb_u64 i = 0; i < x->copy_bytes / sizeof(float); i++)
            h[i] = ovl_ref_input(SEED_HOST(c), i);
    } else {
        gmb_u64 n = x->copy_bytes / sizeof(float);
        gmb_u32 seed = SEED_DEV(c);
        gmb_launch_t g;
        gmb_grid(c, x->r->kinit[F_FP32], 0, 0, n, &g);
        gmb_arg_t av[] = {GMB_A_BUF(x->dbuf), GMB_A_VAL(n), GMB_A_VAL(seed)};
        if ((rc = be->launch(x->r->kinit[F_FP32], &g, av, 3, NULL)))
            return rc;
    }
    gmb_buf_t *kout = x->kern == K_COMPUTE ? x->cout : x->sy;
    size_t kbytes = x->kern == K_COMPUTE
                        ? (size_t)x->geo_c.groups * x->geo_c.group_size * sizeof(float)
                        : (size_t)x->sn * sizeof(float);
    if ((rc = be->fill(copy_dst(x), 0, 0xff, x->copy_bytes)) ||
        (rc = be->fill(kout, 0, 0xff, kbytes)))
        return rc;
    /* calibration: the copy alone (a warm-up, then three), the kernel to match it */
    double tc, dummy;
    json_t *cal = json_object();
    x->mode = M_COPY;
    if ((rc = sample(x, &dummy)) || (rc = median3(x, M_COPY, &tc)) ||
        (rc = calibrate(x, tc, cal))) {
        json_decref(cal);
        return rc;
    }
    gmb_series_t sc = {0}, sk = {0}, sb = {0};
    size_t ic = 0, ik = 0, ib = 0;
    char err[2][320] = {"", ""};
    const char *how[2] = {"none", "none"};
    int okc = 0, okk = 0, okb = 0;
    rc = gmb_measure_pair(c, sample_copy, x, &sc, sample_kernel, x, &sk);
    if (rc)
        goto out;
    /* the copy's destination, then the kernel's output, as the runs alone left them */
    int vc = verify(x, M_COPY, &how[0], err[0], sizeof err[0]);
    int vk = vc == GMB_OK || vc == GMB_EVERIFY ? verify(x, M_KERNEL, &how[1], err[1], sizeof err[1])
                                               : vc;
    if ((vc && vc != GMB_EVERIFY) || (vk && vk != GMB_EVERIFY)) {
        rc = vc && vc != GMB_EVERIFY ? vc : vk;
        goto out;
    }
    okc = !vc;
    okk = !vk;
    ic = add_point(x, M_COPY, &sc, okc, how[0], err[0], NULL);
    ik = add_point(x, M_KERNEL, &sk, okk, how[1], err[1], cal);
    if (!okc)
        ovl_fail(x->r, "overlap %s %s, copy alone: %s", ovl_dir_names[x->dir],
                 ovl_kern_names[x->kern], err[0]);
    if (!okk)
        ovl_fail(x->r, "overlap %s %s, kernel alone: %s", ovl_dir_names[x->dir],
                 ovl_kern_names[x->kern], err[1]);
    /* both at once, from poisoned outputs again */
    if ((rc = be->fill(copy_dst(x), 0, 0xff, x->copy_bytes)) ||
        (rc = be->fill(kout, 0, 0xff, kbytes)))
        goto out;
    x->neach = 0;
    if ((rc = gmb_measure(c, sample_both, x, &sb)))
        goto out;
    char eb[320] = "";
    const char *hb = "none";
    int vb = verify(x, M_BOTH, &hb, eb, sizeof eb);
    if (vb && vb != GMB_EVERIFY) {
        rc = vb;
        goto out;
    }
    okb = !vb;
    ib = add_point(x, M_BOTH, &sb, okb, hb, eb, NULL);
    if (!okb)
        ovl_fail(x->r, "overlap %s %s, both at once: %s", ovl_dir_names[x->dir],
                 ovl_kern_names[x->kern], eb);
    /* the row: from the medians of verified points only */
    size_t n = sb.n <= x->neach ? sb.n : x->neach;
    const double *last = x->each + 3 * (x->neach - n);
    int ok = okc && okk && okb && n;
    double t_c = sc.st.median, t_k = sk.st.median, t_b = sb.st.median;
    double c_both = ok ? median_of(last, n, 3) : NAN, k_both = ok ? median_of(last + 1, n, 3) : NAN;
    double eff = ok ? ovl_efficiency(t_c, t_k, t_b) : NAN, elo = NAN, ehi = NAN;
    if (ok)
        eff_bounds(&sc.st, &sk.st, &sb.st, &elo, &ehi);
    double bw_alone = x->copy_bytes / t_c, bw_both = x->copy_bytes / c_both;
#define NUM(v) ((v) == (v) ? json_real(v) : json_null())
    json_t *row =
        json_pack("{s:s, s:s, s:b, s:I}", "direction", ovl_dir_names[x->dir], "kernel",
                  ovl_kern_names[x->kern], "verified", ok, "copy_bytes", (json_int_t)x->copy_bytes);
    json_object_set_new(row, "copy_ns", json_real(t_c));
    json_object_set_new(row, "kernel_ns", json_real(t_k));
    json_object_set_new(row, "both_ns", json_real(t_b));
    json_object_set_new(row, "serial_ns", json_real(t_c + t_k));
    json_object_set_new(row, "overlap_efficiency", NUM(eff));
    json_object_set_new(row, "efficiency_lo", NUM(elo));
    json_object_set_new(row, "efficiency_hi", NUM(ehi));
    json_object_set_new(row, "copy_alone_GBps", NUM(ok ? bw_alone : NAN));
    json_object_set_new(row, "copy_under_kernel_GBps", NUM(ok ? bw_both : NAN));
    json_object_set_new(row, "copy_under_kernel_pct", NUM(ok ? 100 * bw_both / bw_alone : NAN));
    json_object_set_new(row, "kernel_under_copy_ns", NUM(k_both));
    json_object_set_new(row, "kernel_slowdown", NUM(ok ? k_both / t_k : NAN));
    json_object_set_new(row, "kernel_start_after_copy_ns",
                        NUM(ok ? median_of(last + 2, n, 3) : NAN));
    json_object_set_new(row, x->kern == K_COMPUTE ? "iters" : "passes",
                        json_integer(x->kern == K_COMPUTE ? x->iters : x->passes));
    json_object_set_new(row, "kernel_over_copy", json_real(t_k / t_c));
    json_object_set_new(row, "calibration", json_incref(cal));
    json_object_set_new(row, "points",
                        json_pack("{s:I, s:I, s:I}", "copy", (json_int_t)ic, "kernel",
                                  (json_int_t)ik, "both", (json_int_t)ib));
#undef NUM
    json_array_append_new(rows, row);
    if (ok) {
        char k[24];
        snprintf(k, sizeof k, "%s_%s", ovl_dir_names[x->dir], ovl_kern_names[x->kern]);
        json_object_set_new(hl, k,
                            json_pack("{s:f, s:f, s:I, s:I, s:I}", "eff", eff, "pct",
                                      100 * bw_both / bw_alone, "ic", (json_int_t)ic, "ik",
                                      (json_int_t)ik, "ib", (json_int_t)ib));
        gmb_text_add(&x->r->sm,
                     "%s%s beside %s: efficiency %.2f (copy %.3g GB/s alone, %.3g under the "
                     "kernel: %.0f%%; kernel %.2fx slower under the copy).",
                     x->r->sm.len ? " " : "", ovl_dir_names[x->dir], ovl_kern_names[x->kern], eff,
                     bw_alone, bw_both, 100 * bw_both / bw_alone, k_both / t_k);
    }
    rc = okc && okk && okb ? GMB_OK : GMB_EVERIFY;
out:
    json_decref(cal);
    gmb_series_free(&sc);
    gmb_series_free(&sk);
    gmb_series_free(&sb);
    return rc;
}

/* The headline figures of the part: h2d's efficiency beside each kernel, the h2d copy's
 * bandwidth beside the streaming kernel as % of alone. */
static void headlines(ovl_run_t *r, const json_t *hl)
{
    gmb_ctx_t *c = r->c;
    static const char *const key[] = {"h2d_compute", "h2d_stream"};
    static const char *const lab[] = {
        "Overlap efficiency, h2d copy beside the compute kernel",
        "Overlap efficiency, h2d copy beside the streaming kernel",
    };
    for (int i = 0; i < 2; i++) {
        const json_t *o = json_object_get(hl, key[i]);
        if (!o)
            continue;
        const json_t *pts[3];
        const char *pk[] = {"ic", "ik", "ib"};
        for (int j = 0; j < 3; j++)
            pts[j] =
                json_array_get(c->points, (size_t)json_integer_value(json_object_get(o, pk[j])));
        gmb_headline(c, &(gmb_headline_t){.label = lab[i],
                                          .unit = "%",
                                          .higher = 1,
                                          .value = 100 * json_real_value(json_object_get(o, "eff")),
                                          .ci_lo = NAN,
                                          .ci_hi = NAN,
                                          .points = pts,
                                          .npoints = 3});
        if (i == 1)
            gmb_headline(c, &(gmb_headline_t){.label = "h2d copy bandwidth beside the streaming "
                                                       "kernel, % of alone",
                                              .unit = "%",
                                              .higher = 1,
                                              .value = json_real_value(json_object_get(o, "pct")),
                                              .ci_lo = NAN,
                                              .ci_hi = NAN,
                                              .points = pts,
                                              .npoints = 3});
    }
}

static void note_skip(ovl_run_t *r, const char *why)
{
    printf("# skipped: overlap: %s\n", why);
    json_array_append_new(r->skipped, json_pack("{s:s, s:s}", "part", "overlap", "reason", why));
}

int ovl_part_overlap(ovl_run_t *r)
{
    gmb_ctx_t *c = r->c;
    const ovl_cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    ox_t x = {.r = r,
              .c = c,
              .copy_bytes = (size_t)cfg->copy_bytes,
              .p = (float)OVL_P,
              .q = (float)OVL_Q,
              .cseed = SEED_CHAIN(c)};
    x.sn = cfg->stream_bytes / sizeof(float);
    json_t *rows = json_array(), *hl = json_object();
    int rc = be->alloc(c->dev, GMB_MEM_HOST_PINNED, x.copy_bytes, &x.hbuf);
    if (rc == GMB_ESKIP) {
        note_skip(r, be->lacks(GMB_CAP_PINNED));
        rc = GMB_OK;
        goto out;
    }
    gmb_grid(c, r->kreg[F_FP32], cfg->group_size, cfg->groups_per_cu, UINT64_MAX / 8, &x.geo_c);
    x.cn = 4ull * x.geo_c.groups * x.geo_c.group_size;
    gmb_grid_pass(c, cfg->group_size, 4, x.sn, &x.geo_s);
    if (rc || (rc = be->alloc(c->dev, GMB_MEM_DEVICE, x.copy_bytes, &x.dbuf)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, x.cn / 4 * sizeof(float), &x.cout)))
        goto out;
    int want_stream = 0;
    for (size_t i = 0; i < cfg->kernels.n; i++)
        want_stream |= cfg->kernels.idx[i] == K_STREAM;
    if (want_stream) {
        if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)x.sn * sizeof(float), &x.sx)) ||
            (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)x.sn * sizeof(float), &x.sy)))
            goto out;
        gmb_u32 seed = SEED_STREAM(c);
        gmb_launch_t g;
        gmb_grid(c, r->kinit[F_FP32], 0, 0, x.sn, &g);
        gmb_arg_t av[] = {GMB_A_BUF(x.sx), GMB_A_VAL(x.sn), GMB_A_VAL(seed)};
        if ((rc = be->launch(r->kinit[F_FP32], &g, av, 3, NULL)))
            goto out;
    }
    printf("%-4s %-8s %-6s %10s %10s %7s %10s %4s %s\n", "dir", "kernel", "run", "copy", "ms",
           "+-CI%", "GB/s|GFLOP", "n", "verified");
    for (size_t di = 0; di < cfg->dirs.n; di++)
        for (size_t ki = 0; ki < cfg->kernels.n; ki++) {
            x.dir = cfg->dirs.idx[di];
            x.kern = cfg->kernels.idx[ki];
            rc = measure(&x, rows, hl);
            if (rc && rc != GMB_EVERIFY)
                goto out;
        }
    rc = GMB_OK;
    headlines(r, hl);
    gmb_add_result(c, "overlap", rows);
    rows = NULL;
    gmb_add_result(
        c, "overlap_note",
        json_string("overlap_efficiency = (copy_ns + kernel_ns - both_ns) / min(copy_ns, "
                    "kernel_ns), from the medians, kept as measured: above 1 where both at once "
                    "took less than the longer one alone (noise, clocks that rose, the copy or "
                    "kernel alone slowed by something the pair escaped), below 0 where they took "
                    "longer than one after the other (contention, a stream that waited for the "
                    "other); efficiency_lo/hi: its least and greatest value over the ends of the "
                    "three medians' 95% CIs (no CI of its own)"));
out:
    json_decref(rows);
    json_decref(hl);
    free(x.each);
    be->free(x.hbuf);
    be->free(x.dbuf);
    be->free(x.cout);
    be->free(x.sx);
    be->free(x.sy);
    return rc;
}
