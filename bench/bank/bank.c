/* bank.c - gmb-bank: shared-memory (OpenCL: local-memory) bank conflicts: stride, broadcast,
 * permutation, random and padded-tile patterns of 4/8/16-byte accesses, measured for latency
 * and throughput, every checksum verified, the bank structure inferred from the stride curve. */
#include "model/bankmodel.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

#define SMEM_BYTES 32768 /* the kernels' shared array (BANK_SMEM_BYTES of bank.cl) */
#define TAB        8     /* u32 per work-item in the pattern table (BANK_TAB of bank.cl) */
#define CHAINS     4     /* independent chains per work-item in throughput mode */
#define LANES      GMB_BANK_LANES
#define REF_BANKS  32 /* the reference layout of the ways column: NVIDIA since Maxwell */
#define REF_BYTES  4
#define MAX_ITERS  (1u << 24)

static const gmb_cl_variant_t variants[] = {
    {"w4", "-DBANK_WORDS=1"},
    {"w8", "-DBANK_WORDS=2"},
    {"w16", "-DBANK_WORDS=4"},
    {NULL, NULL},
};

enum { P_STRIDE, P_BCAST, P_PERM, P_RANDOM, P_TILE, P_REMOTE };
static const char *const pattern_names[] = {"stride", "bcast",  "perm", "random",
                                            "tile",   "remote", NULL};
#define REMOTE_MAX 8 /* largest cluster of the remote pattern (the portable cluster size) */
static const char *const width_names[] = {"4", "8", "16", NULL};
static const int width_bytes[] = {4, 8, 16};
enum { M_LAT, M_TPUT };
static const char *const mode_names[] = {"latency", "throughput", NULL};

typedef struct cfg {
    gmb_list_t patterns;  /* indices into pattern_names */
    gmb_list_t widths;    /* indices into width_bytes */
    gmb_list_t modes;     /* indices into mode_names */
    gmb_ints_t strides;   /* strides of the stride pattern, in elements */
    long group_size;      /* throughput work-items per group; 0: 256 (GPU) or 64 (CPU) */
    long groups_per_cu;   /* throughput groups per compute unit; 0: 4 (GPU) or 2 (CPU) */
    double min_sample_us; /* shortest timed sample: iterations grow to reach it */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const gmb_opt_t opts[] = {
    {"patterns", GMB_OPT_LIST, O(patterns), "LIST", "all", 1, 0, pattern_names,
     "access patterns, comma-separated (see below)", 0},
    {"widths", GMB_OPT_LIST, O(widths), "LIST", "all", 1, 0, width_names,
     "bytes per access (32-, 64-, 128-bit), comma-separated", 0},
    {"modes", GMB_OPT_LIST, O(modes), "LIST", "all", 1, 0, mode_names,
     "latency (one warp, dependent accesses) and/or throughput (every CU, independent)", 0},
    {"strides", GMB_OPT_INTS, O(strides), "LIST", "0:64", 0, GMB_BANK_MAX_STRIDE, NULL,
     "strides of the stride pattern, in elements: N, A:B or A:B:STEP, comma-separated", 0},
    {"group-size", GMB_OPT_INT, O(group_size), "N", "0", 0, 1024, NULL,
     "throughput work-items per group, a multiple of 32; 0 = 256 (GPU) or 64 (CPU)", 0},
    {"groups-per-cu", GMB_OPT_INT, O(groups_per_cu), "N", "0", 0, 64, NULL,
     "throughput groups per compute unit; 0 = 4 (GPU) or 2 (CPU)", 0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "200", 1, 1e7, NULL,
     "shortest timed sample; the iterations per work-item grow to reach it", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Patterns (lane t = work-item mod 32 of a warp; elements of the access width):\n"
    "  stride  lane t reads element t*s, s from --strides (s = 0: every lane the same word)\n"
    "  bcast   groups of k lanes read the same element: lane t reads t/k, k = 1,2,4,..,32\n"
    "  perm    the lanes of one phase (128 bytes) read that row in a random order\n"
    "  random  every lane reads a random element of the 32 KiB array\n"
    "  tile    a 32x32 tile read by column, row pitch 32 (pad 0) or 33 elements (pad 1);\n"
    "          warp w reads column w mod 32\n"
    "  remote  lane t reads element t of ANOTHER group's array: the groups of a thread-block\n"
    "          cluster of k = 2, 4, 8 (CUDA, compute capability 9.0 on: distributed shared\n"
    "          memory over the SM-to-SM network) each read the next one's, through generic\n"
    "          loads into the cluster's shared window (64-bit addresses, where the own array\n"
    "          is read with 32-bit shared loads: the gap includes that); the record says how\n"
    "          many groups found the next one on their own SM; OpenCL and older GPUs skip it\n"
    "The record's 'param' is s (stride), k (bcast, remote), the padding (tile), else 0.\n"
    "Modes: latency = one warp of 32 work-items, each access depends on the previous one;\n"
    "cycles per warp-wide access from clock64 (CUDA) or derived from device-event ns x the\n"
    "device's maximum clock (OpenCL: no cycle counter; marked 'derived'); they include the\n"
    "chain's index arithmetic (1, 2, 3 dependent logic operations for 4, 8, 16-byte accesses),\n"
    "a constant offset per width that leaves the cost per conflict untouched. throughput = full\n"
    "groups on every compute unit, 4 independent chains per work-item; bytes counted are the\n"
    "bytes the lanes request (32 x width per warp access, broadcast copies included); GB/s =\n"
    "bytes / kernel time (1e9 B/s); B/cycle/CU and cycles per warp access per CU are derived\n"
    "from the maximum clock. The 'ways' column is the conflict degree the NVIDIA layout (32\n"
    "banks x 4 bytes; 64/128-bit accesses in 2/4 phases) predicts. Every work-item's checksum\n"
    "of the values read is verified against the host's. The bank count and width are inferred\n"
    "from the stride curve of the narrowest width and reported only when a banked layout\n"
    "explains it; a CPU's local memory is not banked.\n";

/* One pattern instance. */
typedef struct pat {
    int kind;  /* P_* */
    int param; /* stride, group, padding, or 0 */
} pat_t;

/* One measured point, kept for the inference and the summary. */
typedef struct row {
    int mode, width;  /* M_*, bytes */
    pat_t p;          /* the pattern */
    int ways;         /* model ways on the reference layout */
    double y, lo, hi; /* cycles (or ns) per warp access: median, 95% CI */
    double bw_gbps;   /* aggregate GB/s (median) */
    double bpc;       /* bytes/cycle/CU (median), 0 when unknown */
} row_t;

typedef struct state {
    gmb_ctx_t *c;           /* the run */
    gmb_buf_t *tab;         /* pattern table */
    gmb_buf_t *sum;         /* per-work-item checksums */
    gmb_buf_t *cyc;         /* per-group cycles (CUDA) */
    gmb_buf_t *same;        /* remote: per group, 1 when the next group ran on its SM */
    gmb_kern_t *k;          /* kernel of the current point */
    gmb_launch_t geo;       /* its launch */
    gmb_u32 seed;           /* data seed */
    gmb_u32 iters;          /* iterations per chain */
    int mode;               /* M_* */
    int clock;              /* 1: latency cycles from the kernel's clock */
    gmb_series_t cycles;    /* cycles of each sample (clock) */
    gmb_u32 elem[1024];     /* element index of each work-item of a group */
    row_t *rows;            /* measured points */
    size_t nrows, rows_cap; /* count, capacity */
} state_t;

/* fold of element i: the XOR of its words (as the kernels compute it) */
/* 1 when the device says its local memory is not on-chip (OpenCL CL_GLOBAL) or is a CPU:
 * a corroborating hint for "no bank structure", never a replacement for the curve. */
static int not_banked_hint(const gmb_dev_info_t *d)
{
    return !strcmp(d->local_mem_type, "global") || !strcmp(d->type, "cpu");
}

static gmb_u32 fold(gmb_u32 seed, gmb_u32 i, int words)
{
    gmb_u32 f = 0;
    for (int c = 0; c < words; c++)
        f ^= gmb_hash(seed, (gmb_u64)i * (gmb_u64)words + (gmb_u64)c);
    return f;
}

/* Element index each lane of warp 0 reads (lane_map) for a pattern and width. */
static void lane_map(const pat_t *p, int w, gmb_u32 seed, gmb_u32 *map)
{
    gmb_u32 ne = SMEM_BYTES / (gmb_u32)w, per_phase = 128u / (gmb_u32)w;
    for (gmb_u32 t = 0; t < LANES; t++) {
        switch (p->kind) {
        case P_STRIDE:
            map[t] = t * (gmb_u32)p->param;
            break;
        case P_BCAST:
            map[t] = t / (gmb_u32)p->param;
            break;
        case P_PERM:
        case P_REMOTE:
            map[t] = t;
            break;
        case P_RANDOM:
            map[t] = gmb_hash(seed ^ 0x5bd1e995u, t) % ne;
            break;
        default: /* P_TILE: column 0 here; warp w adds w mod 32 */
            map[t] = t * (32u + (gmb_u32)p->param);
            break;
        }
    }
    if (p->kind == P_PERM) /* Fisher-Yates within each phase's 128-byte row */
        for (gmb_u32 r = 0; r < LANES; r += per_phase)
            for (gmb_u32 i = per_phase - 1; i > 0; i--) {
                gmb_u32 j = gmb_hash(seed ^ 0x68e31da4u, r + i) % (i + 1), tmp = map[r + i];
                map[r + i] = map[r + j];
                map[r + j] = tmp;
            }
}

static int pattern_cost(const pat_t *p, int w, gmb_u32 seed, int banks, int bank_bytes,
                        gmb_bank_cost_t *cost)
{
    gmb_u32 map[LANES];
    uint64_t a[LANES];
    lane_map(p, w, seed, map);
    for (int t = 0; t < LANES; t++)
        a[t] = (uint64_t)map[t] * (uint64_t)w;
    return gmb_bank_cost(a, LANES, w, banks, bank_bytes, cost);
}

static int sample(void *arg, double *ns)
{
    state_t *s = arg;
    const gmb_backend_t *be = s->c->be;
    gmb_arg_t av[] = {GMB_A_BUF(s->tab),  GMB_A_BUF(s->sum),   GMB_A_BUF(s->cyc),
                      GMB_A_VAL(s->seed), GMB_A_VAL(s->iters), GMB_A_BUF(s->same)};
    int rc = be->launch(s->k, &s->geo, av, s->geo.cluster > 1 ? 6 : 5, ns); /* remote: same */
    if (rc || !s->clock)
        return rc;
    gmb_u64 cyc = 0;
    if ((rc = be->read(s->cyc, 0, &cyc, sizeof cyc)))
        return rc;
    if (gmb_series_push(&s->cycles, (double)cyc))
        return GMB_ERUNTIME;
    return GMB_OK;
}

/* The checksum work-item lid of any group must produce. */
static gmb_u32 expect_sum(const state_t *s, gmb_u32 lid, int words)
{
    gmb_u32 e = s->elem[lid], f = fold(s->seed, e, words);
    gmb_u32 k = s->mode == M_LAT ? 1u : CHAINS;
    return k * s->iters * f + k * e * (gmb_u32)(4 * words); /* the chains end on e's byte offset */
}

static int verify(state_t *s, int words, char *err, size_t errlen)
{
    size_t n = s->geo.groups * s->geo.group_size;
    gmb_u32 *got = malloc(n * sizeof *got);
    if (!got)
        return GMB_ERUNTIME;
    int rc = s->c->be->read(s->sum, 0, got, n * sizeof *got);
    for (size_t g = 0; g < n && !rc; g++) {
        gmb_u32 e = expect_sum(s, (gmb_u32)(g % s->geo.group_size), words);
        if (got[g] != e) {
            snprintf(err, errlen, "work-item %zu: checksum 0x%08x, expected 0x%08x", g, got[g], e);
            rc = GMB_EVERIFY;
        }
    }
    free(got);
    return rc;
}

static int push_row(state_t *s, const row_t *r)
{
    if (s->nrows == s->rows_cap) {
        size_t cap = s->rows_cap ? 2 * s->rows_cap : 256;
        row_t *q = realloc(s->rows, cap * sizeof *q);
        if (!q)
            return GMB_ERUNTIME;
        s->rows = q;
        s->rows_cap = cap;
    }
    s->rows[s->nrows++] = *r;
    return GMB_OK;
}

static void print_header(const gmb_ctx_t *c, int clock)
{
    printf("# gmb-bank: %s device %d: %s (%s); %d CUs; shared array %d KiB per group\n",
           c->be->kind->name, c->info.index, c->info.name, c->info.type, c->info.compute_units,
           SMEM_BYTES >> 10);
    if (c->info.core_clock_mhz > 0)
        printf("# cycles: latency %s; throughput derived from ns x %d MHz (the maximum clock)\n",
               clock ? "from clock64" : "derived from ns x the maximum clock",
               c->info.core_clock_mhz);
    else
        printf("# cycles: unknown (no clock rate): costs in ns\n");
    printf("# ways: conflict degree predicted for 32 banks x 4 B; cyc = cycles per warp-wide "
           "access (per CU in throughput mode); d = derived\n");
    printf("%-10s %5s %-7s %5s %4s %9s %6s %9s %9s %10s %4s %8s %-8s\n", "mode", "width", "pattern",
           "param", "ways", "cyc", "+-CI%", "ns/acc", "B/cyc/CU", "GB/s", "n", "iters", "verified");
}

static int run_point(state_t *s, int w, const pat_t *p, int *injected)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    int words = w / 4, rc;
    size_t L = s->geo.group_size;
    gmb_u32 map[LANES];
    lane_map(p, w, s->seed, map);
    gmb_u32 *tab = calloc(L * TAB, sizeof *tab);
    if (!tab)
        return GMB_ERUNTIME;
    for (size_t lid = 0; lid < L; lid++) {
        gmb_u32 e = map[lid % LANES];
        if (p->kind == P_TILE)
            e += (gmb_u32)((lid / LANES) % 32);
        s->elem[lid] = e;
        for (int k = 0; k < CHAINS; k++)
            tab[lid * TAB + (size_t)k] = e * (gmb_u32)w; /* byte offsets */
        tab[lid * TAB + CHAINS] = e * (gmb_u32)w ^ fold(s->seed, e, words);
    }
    rc = be->write(s->tab, 0, tab, L * TAB * sizeof *tab);
    free(tab);
    if (rc)
        return rc;
    /* iterations: a sample lasts at least min_sample_us (launch overhead makes the first
     * estimate short of it: up to three rounds) */
    double t1, want = cfg->min_sample_us * 1e3;
    s->iters = 64;
    if ((rc = sample(s, &t1))) /* the first launch may carry one-time costs */
        return rc;
    for (int round = 0; round < 3; round++) {
        if ((rc = sample(s, &t1)))
            return rc;
        if (t1 >= want || s->iters >= MAX_ITERS)
            break;
        double it = ceil(s->iters * want / fmax(t1, 1.0) / 4.0) * 4.0;
        s->iters = (gmb_u32)fmin(it, MAX_ITERS);
    }
    if ((rc = be->fill(s->sum, 0, 0xff, s->geo.groups * L * sizeof(gmb_u32))))
        return rc;
    s->cycles.n = 0;
    gmb_series_t ser = {0};
    if ((rc = gmb_measure(c, sample, s, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    if (c->o.inject_error && !*injected) { /* test aid: one wrong checksum */
        gmb_u32 bad = expect_sum(s, 0, words) + 1u;
        if ((rc = be->write(s->sum, 0, &bad, sizeof bad))) {
            gmb_series_free(&ser);
            return rc;
        }
        *injected = 1;
    }
    char err[256] = "";
    rc = verify(s, words, err, sizeof err);
    if (rc && rc != GMB_EVERIFY) {
        gmb_series_free(&ser);
        return rc;
    }

    /* metrics: per warp-wide access, per CU (one warp on one CU in latency mode) */
    double warps = s->mode == M_LAT ? 1.0 : (double)(s->geo.groups * (L / LANES));
    double per_chain = s->mode == M_LAT ? 1.0 : CHAINS;
    double acc_per_cu =
        s->mode == M_LAT ? (double)s->iters : warps * s->iters * per_chain / c->info.compute_units;
    double bytes = warps * LANES * w * (double)s->iters * per_chain;
    double ghz = c->info.core_clock_mhz / 1000.0;
    gmb_stats_t cst;
    int have_cyc = 0, measured_cyc = 0;
    if (s->clock && s->cycles.n >= ser.n &&
        !gmb_stats_compute(s->cycles.ns + (s->cycles.n - ser.n), ser.n, (size_t)c->o.min_samples,
                           c->o.ci_target_pct / 100.0, &cst)) {
        have_cyc = measured_cyc = 1;
    } else if (ghz > 0) {
        have_cyc = 1;
    }
    json_t *params = json_pack("{s:s, s:s, s:i, s:i}", "mode", mode_names[s->mode], "pattern",
                               pattern_names[p->kind], "width_bytes", w, "param", p->param);
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "ns_per_access", gmb_json_scaled(1.0 / acc_per_cu, &ser.st));
    row_t r = {.mode = s->mode, .width = w, .p = *p};
    json_t *cy = NULL;
    if (measured_cyc) {
        cy = gmb_json_scaled(1.0 / s->iters, &cst);
        gmb_point_metric(pt, "bytes_per_cycle_per_cu",
                         gmb_json_rate(LANES * w * (double)s->iters, &cst));
        r.y = cst.median / s->iters;
        r.lo = cst.ci_lo / s->iters;
        r.hi = cst.ci_hi / s->iters;
    } else if (have_cyc) {
        cy = gmb_json_scaled(ghz / acc_per_cu, &ser.st);
        gmb_point_metric(pt, "bytes_per_cycle_per_cu",
                         gmb_json_rate(LANES * w * acc_per_cu / ghz, &ser.st));
        r.y = ser.st.median * ghz / acc_per_cu;
        r.lo = ser.st.ci_lo * ghz / acc_per_cu;
        r.hi = ser.st.ci_hi * ghz / acc_per_cu;
    } else {
        r.y = ser.st.median / acc_per_cu;
        r.lo = ser.st.ci_lo / acc_per_cu;
        r.hi = ser.st.ci_hi / acc_per_cu;
    }
    if (cy)
        gmb_point_metric(pt, "cycles_per_access", cy);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes, &ser.st));
    r.bw_gbps = bytes / ser.st.median;
    r.bpc = have_cyc ? LANES * w / r.y : 0;
    gmb_bank_cost_t cost = {0, 0, 0};
    pattern_cost(p, w, s->seed, REF_BANKS, REF_BYTES, &cost);
    r.ways = cost.ways;
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "ways_32x4", json_integer(cost.ways));
    json_object_set_new(extra, "wavefronts_32x4", json_integer(cost.wavefronts));
    json_object_set_new(extra, "cycles_source",
                        json_string(measured_cyc ? "clock64"
                                    : have_cyc   ? "derived: ns x maximum clock"
                                                 : "none"));
    json_object_set_new(extra, "iters", json_integer(s->iters));
    json_object_set_new(extra, "groups", json_integer((json_int_t)s->geo.groups));
    json_object_set_new(extra, "group_size", json_integer((json_int_t)L));
    json_object_set_new(extra, "verified", json_string(rc == GMB_OK ? "full" : "FAILED"));
    if (s->geo.cluster > 1) { /* remote: groups whose next group ran on their own SM */
        gmb_u32 *same = calloc(s->geo.groups, sizeof *same);
        size_t n = 0;
        int rrc = same ? be->read(s->same, 0, same, s->geo.groups * sizeof *same) : GMB_ERUNTIME;
        for (size_t g = 0; g < s->geo.groups && !rrc; g++)
            n += same[g] != 0;
        free(same);
        if (rrc) {
            gmb_series_free(&ser);
            json_decref(pt);
            return rrc;
        }
        json_object_set_new(extra, "cluster", json_integer((json_int_t)s->geo.cluster));
        json_object_set_new(extra, "next_group_same_sm",
                            json_real((double)n / (double)s->geo.groups));
    }
    char cyc_txt[32] = "-", bpc_txt[32] = "-";
    if (have_cyc) {
        snprintf(cyc_txt, sizeof cyc_txt, "%.2f%s", r.y, measured_cyc ? "" : "d");
        snprintf(bpc_txt, sizeof bpc_txt, "%.2f%s", r.bpc, measured_cyc ? "" : "d");
    }
    double ci = measured_cyc ? cst.ci_rel : ser.st.ci_rel;
    printf("%-10s %5d %-7s %5d %4d %9s %6.2f %9.3f %9s %10.2f %4zu %8u %-8s\n", mode_names[s->mode],
           w, pattern_names[p->kind], p->param, cost.ways, cyc_txt, 100 * ci,
           ser.st.median / acc_per_cu, bpc_txt, r.bw_gbps, ser.st.n, s->iters,
           rc == GMB_OK ? "full" : "FAILED");
    fflush(stdout);
    gmb_add_point(c, pt);
    gmb_series_free(&ser);
    if (rc == GMB_EVERIFY) {
        gmb_error("verification failed: %s param %d, %d-byte elements, %s mode: %s",
                  pattern_names[p->kind], p->param, w, mode_names[s->mode], err);
        return rc;
    }
    return push_row(s, &r);
}

/* ---- inference and summary --------------------------------------------------------------- */

/* The stride rows of one mode and width, in stride order (rows are measured in that order). */
static size_t stride_rows(const state_t *s, int mode, int w, const row_t **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nrows && n < cap; i++)
        if (s->rows[i].mode == mode && s->rows[i].width == w && s->rows[i].p.kind == P_STRIDE)
            out[n++] = &s->rows[i];
    return n;
}

static json_t *json_fit(const gmb_bank_fit_t *f)
{
    return json_pack("{s:b, s:I, s:f, s:f, s:f, s:f}", "ok", f->ok, "n", (json_int_t)f->n, "base",
                     f->base, "slope", f->slope, "rms_residual", f->rms, "r2", f->r2);
}

/* Infer the bank structure from one mode's stride curve (narrowest width with >= 2 strides).
 * Returns NULL when the mode has no such curve. */
static json_t *infer_mode(const state_t *s, int mode, const char *unit, gmb_bank_infer_t *inf,
                          int *width_out)
{
    const gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    const row_t *rr[GMB_BANK_MAX_STRIDE + 1];
    int w = 0;
    size_t n = 0;
    for (int v = 0; v < 3 && !w; v++) {
        int used = 0;
        for (size_t i = 0; i < cfg->widths.n; i++)
            used |= cfg->widths.idx[i] == v;
        if (used && (n = stride_rows(s, mode, width_bytes[v], rr, GMB_BANK_MAX_STRIDE + 1)) >= 2)
            w = width_bytes[v];
    }
    if (!w)
        return NULL;
    int st[GMB_BANK_MAX_STRIDE + 1];
    double y[GMB_BANK_MAX_STRIDE + 1], lo[GMB_BANK_MAX_STRIDE + 1], hi[GMB_BANK_MAX_STRIDE + 1];
    for (size_t i = 0; i < n; i++) {
        st[i] = rr[i]->p.param;
        y[i] = rr[i]->y;
        lo[i] = rr[i]->lo;
        hi[i] = rr[i]->hi;
    }
    if (gmb_bank_infer(st, y, lo, hi, n, w, not_banked_hint(&c->info), inf))
        return NULL;
    *width_out = w;
    json_t *j = json_pack("{s:s, s:i, s:s, s:b, s:s, s:b, s:f, s:o}", "mode", mode_names[mode],
                          "width_bytes", w, "unit", unit, "detected", inf->detected, "reason",
                          inf->reason, "flat", inf->flat, "spread_pct", 100 * inf->spread,
                          "best_fit", json_fit(&inf->fit));
    json_object_set_new(j, "banks", inf->detected ? json_integer(inf->banks) : json_null());
    json_object_set_new(j, "bank_bytes",
                        inf->detected ? json_integer(inf->bank_bytes) : json_null());
    json_object_set_new(
        j, "best_candidate",
        json_pack("{s:i, s:i}", "banks", inf->banks, "bank_bytes", inf->bank_bytes));
    if (inf->alt_banks)
        json_object_set_new(j, "runner_up",
                            json_pack("{s:i, s:i, s:f}", "banks", inf->alt_banks, "bank_bytes",
                                      inf->alt_bank_bytes, "rms_residual", inf->alt_rms));
    return j;
}

static const row_t *find_row(const state_t *s, int mode, int w, int kind, int param)
{
    for (size_t i = 0; i < s->nrows; i++)
        if (s->rows[i].mode == mode && s->rows[i].width == w && s->rows[i].p.kind == kind &&
            s->rows[i].p.param == param)
            return &s->rows[i];
    return NULL;
}

static void summarize(state_t *s, const char *unit)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    json_t *by_mode = json_object();
    gmb_bank_infer_t inf[2], *prim = NULL;
    int pw = 0, pmode = -1;
    for (int m = M_LAT; m <= M_TPUT; m++) {
        int w = 0;
        json_t *j = infer_mode(s, m, unit, &inf[m], &w);
        if (!j)
            continue;
        json_object_set_new(by_mode, mode_names[m], j);
        if (!prim) {
            prim = &inf[m];
            pw = w;
            pmode = m;
        }
    }
    int banks = prim && prim->detected ? prim->banks : REF_BANKS;
    int bbytes = prim && prim->detected ? prim->bank_bytes : REF_BYTES;
    json_t *res = json_object();
    if (prim) {
        json_object_set_new(res, "detected", json_boolean(prim->detected));
        json_object_set_new(res, "reason", json_string(prim->reason));
        json_object_set_new(res, "from_mode", json_string(mode_names[pmode]));
        json_object_set_new(res, "from_width_bytes", json_integer(pw));
        json_object_set_new(res, "banks", prim->detected ? json_integer(banks) : json_null());
        json_object_set_new(res, "bank_bytes", prim->detected ? json_integer(bbytes) : json_null());
    } else {
        json_object_set_new(res, "detected", json_false());
        json_object_set_new(res, "reason",
                            json_string("not inferred: no stride curve with two or more strides "
                                        "was measured (--patterns stride, --strides 0:64)"));
    }
    json_object_set_new(res, "device_type", json_string(c->info.type));
    json_object_set_new(res, "by_mode", by_mode);
    gmb_add_result(c, "inference", res);

    /* cost lines per mode and width against the inferred layout (else the reference one) */
    json_t *fits = json_array();
    int header = 0;
    for (int m = M_LAT; m <= M_TPUT; m++)
        for (size_t wi = 0; wi < cfg->widths.n; wi++) {
            int w = width_bytes[cfg->widths.idx[wi]];
            const row_t *rr[GMB_BANK_MAX_STRIDE + 1];
            size_t n = stride_rows(s, m, w, rr, GMB_BANK_MAX_STRIDE + 1);
            if (n < 2)
                continue;
            double x[GMB_BANK_MAX_STRIDE + 1], y[GMB_BANK_MAX_STRIDE + 1];
            for (size_t i = 0; i < n; i++) {
                gmb_bank_cost_t k = {1, 1, 1};
                gmb_bank_stride_cost(rr[i]->p.param, w, banks, bbytes, &k);
                x[i] = gmb_bank_cost_x(&k);
                y[i] = rr[i]->y;
            }
            gmb_bank_fit_t f;
            gmb_bank_linfit(x, y, n, &f);
            json_t *j = json_fit(&f);
            json_object_set_new(j, "mode", json_string(mode_names[m]));
            json_object_set_new(j, "width_bytes", json_integer(w));
            json_object_set_new(j, "unit", json_string(unit));
            json_object_set_new(j, "layout",
                                json_pack("{s:i, s:i, s:s}", "banks", banks, "bank_bytes", bbytes,
                                          "source",
                                          prim && prim->detected ? "inferred" : "reference"));
            json_object_set_new(j, "model", json_string("y = base + slope x (ways - 1)"));
            json_array_append_new(fits, j);
            if (!header++)
                printf("\n# stride cost lines y = base + slope x (ways - 1), ways on %d banks x "
                       "%d B (%s):\n%-10s %5s %10s %10s %10s %6s %4s\n",
                       banks, bbytes, prim && prim->detected ? "inferred" : "reference layout",
                       "mode", "width", "base", "slope", "rms", "R^2", "n");
            printf("%-10s %5d %10.3f %10.3f %10.3f %6.3f %4zu\n", mode_names[m], w, f.base, f.slope,
                   f.rms, f.r2, f.n);
        }
    gmb_add_result(c, "fits", fits);

    /* bandwidth with and without conflicts (throughput, per width) */
    json_t *bw = json_object();
    for (size_t wi = 0; wi < cfg->widths.n; wi++) {
        int w = width_bytes[cfg->widths.idx[wi]];
        const row_t *rr[GMB_BANK_MAX_STRIDE + 1];
        size_t n = stride_rows(s, M_TPUT, w, rr, GMB_BANK_MAX_STRIDE + 1);
        const row_t *best = NULL, *worst = NULL;
        for (size_t i = 0; i < n; i++) {
            if (!best || rr[i]->bw_gbps > best->bw_gbps)
                best = rr[i];
            if (!worst || rr[i]->bw_gbps < worst->bw_gbps)
                worst = rr[i];
        }
        if (!best)
            continue;
        char key[8];
        snprintf(key, sizeof key, "%d", w);
        json_object_set_new(bw, key,
                            json_pack("{s:{s:i, s:i, s:f, s:f}, s:{s:i, s:i, s:f, s:f}}",
                                      "fastest_stride", "stride", best->p.param, "ways_32x4",
                                      best->ways, "GBps", best->bw_gbps, "bytes_per_cycle_per_cu",
                                      best->bpc, "slowest_stride", "stride", worst->p.param,
                                      "ways_32x4", worst->ways, "GBps", worst->bw_gbps,
                                      "bytes_per_cycle_per_cu", worst->bpc));
    }
    gmb_add_result(c, "bandwidth", bw);
    gmb_add_result(c, "model",
                   json_pack("{s:s, s:s}", "ways",
                             "most distinct bank words of one bank within one phase; a phase is "
                             "banks x bank_bytes / width lanes (32-bit: 32 lanes, 64-bit: 16, "
                             "128-bit: 8 on 32 x 4 B); lanes reading the same word share it",
                             "cycles",
                             "latency: per dependent warp-wide access; throughput: "
                             "per warp-wide access per compute unit"));

    /* the paragraph */
    gmb_text_t sm = {{0}, 0};
    if (prim)
        gmb_text_add(&sm, "from the %s stride curve of %d-byte accesses (in %s): %s. ",
                     mode_names[pmode], pw, unit, prim->reason);
    else
        gmb_text_add(&sm, "no stride curve was measured, so no bank structure was inferred. ");
    int wmin = width_bytes[cfg->widths.idx[0]];
    for (size_t wi = 0; wi < cfg->widths.n; wi++)
        if (width_bytes[cfg->widths.idx[wi]] < wmin)
            wmin = width_bytes[cfg->widths.idx[wi]];
    const row_t *r1 = find_row(s, M_TPUT, wmin, P_STRIDE, 1);
    const row_t *r32 = find_row(s, M_TPUT, wmin, P_STRIDE, 32);
    if (r1) {
        gmb_text_add(&sm, "Throughput, %d-byte stride 1: %.2f GB/s", wmin, r1->bw_gbps);
        if (r1->bpc > 0)
            gmb_text_add(&sm, " (%.2f B/cycle/CU)", r1->bpc);
        if (r32)
            gmb_text_add(&sm,
                         "; stride 32 (%d-way on 32 x 4 B): %.2f GB/s (%.3gx the stride-1 rate)",
                         r32->ways, r32->bw_gbps, r32->bw_gbps / r1->bw_gbps);
        gmb_text_add(&sm, ". ");
    }
    int lm = pmode >= 0 ? pmode : M_LAT;
    const row_t *b0 = find_row(s, lm, wmin, P_STRIDE, 0);
    const row_t *b1 = find_row(s, lm, wmin, P_STRIDE, 1);
    if (b0 && b1)
        gmb_text_add(&sm, "Broadcast (stride 0) costs %.3g vs %.3g %s at stride 1 (%s). ", b0->y,
                     b1->y, unit, mode_names[lm]);
    const row_t *t0 = find_row(s, lm, wmin, P_TILE, 0), *t1 = find_row(s, lm, wmin, P_TILE, 1);
    if (t0 && t1)
        gmb_text_add(
            &sm,
            "Reading a 32x32 tile by column costs %.3g %s unpadded (%d-way on 32 x 4 B) and "
            "%.3g padded by one element (%s).",
            t0->y, unit, t0->ways, t1->y, mode_names[lm]);
    /* another group's array (distributed shared memory) against the group's own, stride 1 */
    json_t *rem = json_array();
    for (size_t i = 0; i < s->nrows; i++) {
        const row_t *r = &s->rows[i], *own = find_row(s, r->mode, r->width, P_STRIDE, 1);
        if (r->p.kind != P_REMOTE)
            continue;
        json_t *o = json_pack("{s:s, s:i, s:i, s:s, s:f, s:f, s:f}", "mode", mode_names[r->mode],
                              "width_bytes", r->width, "cluster", r->p.param, "unit", unit, "y",
                              r->y, "GBps", r->bw_gbps, "bytes_per_cycle_per_cu", r->bpc);
        if (own)
            json_object_set_new(o, "own_stride1",
                                json_pack("{s:f, s:f}", "y", own->y, "GBps", own->bw_gbps));
        json_array_append_new(rem, o);
        if (r->width == wmin && r->p.param == 2 && own)
            gmb_text_add(
                &sm,
                " Another group's array (a cluster of 2, %d-byte, %s): %.3g %s per access, "
                "%.2f GB/s, against %.3g %s and %.2f GB/s in its own.",
                r->width, mode_names[r->mode], r->y, unit, r->bw_gbps, own->y, unit, own->bw_gbps);
    }
    gmb_add_result(c, "remote", rem);
    while (sm.len && sm.text[sm.len - 1] == ' ')
        sm.text[--sm.len] = '\0';
    gmb_summary(c, "\nSummary: ", NULL, sm.text, "nothing to summarise.");
}

/* ---- the run ----------------------------------------------------------------------------- */

/* Declare headline figure h (label, unit, direction, level, quantity) of the median of
 * metric of point pt, with its CI, resting on it. */
static void point_headline(gmb_ctx_t *c, gmb_headline_t h, const char *metric, const json_t *pt)
{
    const json_t *m = json_object_get(json_object_get(pt, "metrics"), metric);
    if (!json_is_object(m))
        return;
    h.value = json_number_value(json_object_get(m, "median"));
    h.ci_lo = json_number_value(json_object_get(m, "ci_lo"));
    h.ci_hi = json_number_value(json_object_get(m, "ci_hi"));
    h.points = &pt;
    h.npoints = 1;
    gmb_headline(c, &h);
}

/* The headline figures: the banks found (text), the conflict cost per way of 4-byte words by
 * latency and throughput (the fits' slopes, resting on their stride points), the bandwidth
 * of the fastest 4-byte stride, of 16-byte stride 1 and of another SM's shared memory (the
 * level view's), and the latency of 4-byte stride 1 (a cross-check with gmb-chase). */
static void headlines(gmb_ctx_t *c)
{
    const json_t *res = json_object_get(c->record, "results");
    const json_t *inf = json_object_get(res, "inference");
    int detected = json_is_true(json_object_get(inf, "detected"));
    if (json_is_object(inf)) {
        char t[96];
        const char *dt = json_string_value(json_object_get(inf, "device_type"));
        if (detected)
            snprintf(t, sizeof t, "%.0f x %.0f B", json_number_value(json_object_get(inf, "banks")),
                     json_number_value(json_object_get(inf, "bank_bytes")));
        else
            snprintf(t, sizeof t, "none detected%s", dt && !strcmp(dt, "cpu") ? " (CPU)" : "");
        gmb_headline(c, &(gmb_headline_t){.label = "Shared-memory banks", .unit = "", .text = t});
    }
    const json_t *pts[GMB_BANK_MAX_STRIDE + 8];
    size_t max = sizeof pts / sizeof pts[0], i;
    const json_t *f;
    for (int m = 0; m < 2 && (detected || !json_is_object(inf)); m++) {
        const char *mode = m ? "throughput" : "latency";
        json_array_foreach(json_object_get(res, "fits"), i, f)
        {
            const char *fm = json_string_value(json_object_get(f, "mode"));
            if (!fm || strcmp(fm, mode) ||
                json_integer_value(json_object_get(f, "width_bytes")) != 4 ||
                !json_is_true(json_object_get(f, "ok")))
                continue;
            gmb_headline(
                c, &(gmb_headline_t){.label = m ? "Bank-conflict cost per way (throughput)"
                                                : "Bank-conflict cost per way (latency)",
                                     .unit = "cycles",
                                     .value = json_number_value(json_object_get(f, "slope")),
                                     .ci_lo = NAN,
                                     .ci_hi = NAN,
                                     .points = pts,
                                     .npoints = gmb_points_where(c, pts, max, "{s:s, s:s, s:i}",
                                                                 "mode", mode, "pattern", "stride",
                                                                 "width_bytes", 4)});
            break;
        }
    }
    const json_t *fs =
        json_object_get(json_object_get(json_object_get(res, "bandwidth"), "4"), "fastest_stride");
    if (json_is_integer(json_object_get(fs, "stride")) &&
        gmb_points_where(c, pts, 1, "{s:s, s:s, s:i, s:O}", "mode", "throughput", "pattern",
                         "stride", "width_bytes", 4, "param", json_object_get(fs, "stride")))
        point_headline(c,
                       (gmb_headline_t){.label = "Shared-memory bandwidth, no conflict",
                                        .unit = "GB/s",
                                        .higher = 1,
                                        .level = GMB_LEVEL_SHARED,
                                        .how = "gmb-bank: 4-byte words, stride 1, every SM or "
                                               "compute unit"},
                       "bw_GBps", pts[0]);
    if (gmb_points_where(c, pts, 1, "{s:s, s:s, s:i, s:i}", "mode", "throughput", "pattern",
                         "remote", "width_bytes", 16, "param", 2))
        point_headline(
            c,
            (gmb_headline_t){
                .label = "Distributed shared-memory bandwidth, 16-byte reads (cluster of 2)",
                .unit = "GB/s",
                .higher = 1,
                .level = GMB_LEVEL_DSMEM,
                .how = "gmb-bank: another SM's shared memory, cluster of 2"},
            "bw_GBps", pts[0]);
    if (gmb_points_where(c, pts, 1, "{s:s, s:s, s:i, s:i}", "mode", "throughput", "pattern",
                         "stride", "width_bytes", 16, "param", 1))
        point_headline(
            c,
            (gmb_headline_t){.label = "Shared-memory bandwidth, 16-byte reads, stride 1",
                             .unit = "GB/s",
                             .higher = 1,
                             .level = GMB_LEVEL_SHARED,
                             .how = "gmb-bank: 16-byte reads, stride 1, every SM or compute unit"},
            "bw_GBps", pts[0]);
    /* the latency of one access without conflicts, which gmb-chase measures too */
    if (gmb_points_where(c, pts, 1, "{s:s, s:s, s:i, s:i}", "mode", "latency", "pattern", "stride",
                         "width_bytes", 4, "param", 1))
        point_headline(
            c,
            (gmb_headline_t){.label = "Shared-memory latency, no conflict (4-byte words, stride 1)",
                             .unit = "ns",
                             .quantity = GMB_Q_SHARED_LAT,
                             .source = "bank: latency mode, stride 1, 4-byte words (one logic "
                                       "operation more)"},
            "ns_per_access", pts[0]);
}

/* The work-items of a group: --group-size, else 64 on a CPU and 256 elsewhere (shrunk to the
 * device's maximum, in whole warps). */
static long group_of(const gmb_ctx_t *c)
{
    const cfg_t *cfg = c->cfg;
    long L = cfg->group_size;
    if (!L)
        L = !strcmp(c->info.type, "cpu") ? 64 : 256;
    if (L > c->info.max_group_size) /* the default shrinks to the device; an explicit one fails */
        L = cfg->group_size ? L : c->info.max_group_size / LANES * LANES;
    return L;
}

/* The options against each other and the device: strides within the shared array at each
 * width, the group size in whole warps, and local memory enough for the kernels. */
static int bank_check(gmb_ctx_t *c)
{
    const cfg_t *cfg = c->cfg;
    long smax_given = 0;
    for (size_t i = 0; i < cfg->strides.n; i++)
        smax_given = cfg->strides.v[i] > smax_given ? cfg->strides.v[i] : smax_given;
    int want_stride = 0;
    for (size_t i = 0; i < cfg->patterns.n; i++)
        want_stride |= cfg->patterns.idx[i] == P_STRIDE;
    for (size_t wi = 0; wi < cfg->widths.n && want_stride; wi++) {
        int w = width_bytes[cfg->widths.idx[wi]];
        int smax = (SMEM_BYTES / w - 1) / (LANES - 1);
        if (smax_given > smax) {
            gmb_error("--strides: stride %ld with %d-byte elements reaches beyond the %d KiB "
                      "shared array (at most %d)",
                      smax_given, w, SMEM_BYTES >> 10, smax);
            return GMB_EUSAGE;
        }
    }
    long L = group_of(c);
    if (L % LANES || L < LANES || L > c->info.max_group_size || L > 1024) {
        gmb_error("--group-size %ld: need a multiple of %d, at most %d (the device's maximum)", L,
                  LANES, c->info.max_group_size < 1024 ? c->info.max_group_size : 1024);
        return GMB_EUSAGE;
    }
    if (c->info.local_mem_bytes && c->info.local_mem_bytes < SMEM_BYTES) {
        gmb_skip("the kernels need %d KiB of local memory per group; the device has %llu B",
                 SMEM_BYTES >> 10, (unsigned long long)c->info.local_mem_bytes);
        return GMB_ESKIP;
    }
    return GMB_OK;
}

static int bank_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    /* the strides ascending (the list holds them unique, in [0, GMB_BANK_MAX_STRIDE]) */
    int strides[GMB_BANK_MAX_STRIDE + 1];
    size_t nstr = 0;
    for (size_t i = 0; i < cfg->strides.n; i++) {
        size_t k = nstr++;
        for (; k > 0 && strides[k - 1] > cfg->strides.v[i]; k--)
            strides[k] = strides[k - 1];
        strides[k] = (int)cfg->strides.v[i];
    }
    long L = group_of(c); /* (checked by bank_check) */
    int cpu = !strcmp(c->info.type, "cpu");
    long per_cu = cfg->groups_per_cu ? cfg->groups_per_cu : cpu ? 2 : 4;
    size_t groups = (size_t)c->info.compute_units * (size_t)per_cu;

    /* another group's array needs thread-block clusters */
    const char *remote_why = NULL;
    if (!(c->info.caps & GMB_CAP_CLUSTER))
        remote_why = be->lacks(GMB_CAP_CLUSTER);
    /* the pattern instances, in the order they are measured */
    pat_t *pats = calloc(nstr + 16, sizeof *pats);
    if (!pats)
        return GMB_ERUNTIME;
    size_t np = 0;
    for (size_t i = 0; i < cfg->patterns.n; i++) {
        int k = cfg->patterns.idx[i];
        if (k == P_STRIDE)
            for (size_t j = 0; j < nstr; j++)
                pats[np++] = (pat_t){P_STRIDE, strides[j]};
        else if (k == P_BCAST)
            for (int g = 1; g <= LANES; g *= 2)
                pats[np++] = (pat_t){P_BCAST, g};
        else if (k == P_TILE) {
            pats[np++] = (pat_t){P_TILE, 0};
            pats[np++] = (pat_t){P_TILE, 1};
        } else if (k == P_REMOTE) {
            if (remote_why) /* said once below, in the output and the record */
                continue;
            for (int g = 2; g <= REMOTE_MAX; g *= 2)
                pats[np++] = (pat_t){P_REMOTE, g};
        } else
            pats[np++] = (pat_t){k, 0};
    }

    int rc, injected = 0, asked_remote = 0;
    for (size_t i = 0; i < cfg->patterns.n; i++)
        asked_remote |= cfg->patterns.idx[i] == P_REMOTE;
    if (!np) { /* only the remote pattern was asked for, and it cannot run here */
        free(pats);
        gmb_skip("--patterns remote: %s", remote_why);
        return GMB_ESKIP;
    }
    state_t s = {.c = c, .seed = (gmb_u32)c->o.seed * 0x9e3779b9u + 0x7f4a7c15u};
    gmb_prog_t *prog[3] = {NULL, NULL, NULL};
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, 1024 * TAB * sizeof(gmb_u32), &s.tab)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, groups * (size_t)L * sizeof(gmb_u32), &s.sum)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, groups * sizeof(gmb_u64), &s.cyc)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, groups * sizeof(gmb_u32), &s.same)))
        goto out;
    int clock = (c->info.caps & GMB_CAP_CLOCK) != 0;
    const char *unit = clock || c->info.core_clock_mhz > 0 ? "cycles" : "ns";
    gmb_declare_metric(c, "ns_per_access", "ns", "lower",
                       "kernel time per warp-wide access (latency: of the one warp; throughput: "
                       "per compute unit)");
    if (unit[0] == 'c') {
        gmb_declare_metric(c, "cycles_per_access", "cycles", "lower",
                           "cycles per warp-wide access (latency: clock64 on CUDA, else derived "
                           "from ns x the maximum clock; throughput: per compute unit, derived); "
                           "extra.cycles_source says which");
        gmb_declare_metric(c, "bytes_per_cycle_per_cu", "B/cycle", "higher",
                           "bytes the lanes request (32 x width per warp access) per cycle per "
                           "compute unit");
    }
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes the lanes request / kernel time, all compute units (1e9 B/s)");
    print_header(c, clock);
    if (asked_remote && remote_why) {
        printf("%-10s %5s %-7s skipped: %s\n", "-", "-", "remote", remote_why);
        gmb_add_result(c, "skipped",
                       json_pack("[{s:s, s:s}]", "pattern", "remote", "reason", remote_why));
    }
    for (size_t mi = 0; mi < cfg->modes.n && !rc; mi++) {
        s.mode = cfg->modes.idx[mi];
        s.clock = clock && s.mode == M_LAT;
        for (size_t wi = 0; wi < cfg->widths.n && !rc; wi++) {
            int v = cfg->widths.idx[wi];
            gmb_kern_t *kl = NULL, *kr = NULL; /* the own array's kernel; another group's */
            if (!prog[v] &&
                (rc = be->prog_load(c->dev, c->bench->kernels, variants[v].variant, &prog[v])))
                break;
            if ((rc = be->kern_get(prog[v], s.mode == M_LAT ? "bank_lat" : "bank_tput", &kl)) ||
                (!remote_why && asked_remote &&
                 (rc = be->kern_get(
                      prog[v], s.mode == M_LAT ? "bank_lat_remote" : "bank_tput_remote", &kr))))
                break;
            for (size_t i = 0; i < np && !rc; i++) {
                size_t k = pats[i].kind == P_REMOTE ? (size_t)pats[i].param : 1;
                s.k = k > 1 ? kr : kl;
                s.geo.group_size = s.mode == M_LAT ? LANES : (size_t)L;
                /* latency: one warp per group, a cluster of k of them (each measures) */
                s.geo.groups = s.mode == M_LAT || groups < k ? k : groups / k * k;
                s.geo.cluster = k > 1 ? k : 0;
                rc = run_point(&s, width_bytes[v], &pats[i], &injected);
                if (rc == GMB_ESKIP && k > 1) { /* the device refused the cluster (above) */
                    printf("%-10s %5d %-7s %5zu skipped: the device refused a cluster of %zu\n",
                           mode_names[s.mode], width_bytes[v], "remote", k, k);
                    rc = GMB_OK;
                }
            }
        }
    }
    if (!rc)
        summarize(&s, unit);
    headlines(c); /* the points' figures stand when it stopped early too */
out:
    for (int i = 0; i < 3; i++)
        be->prog_free(prog[i]);
    be->free(s.tab);
    be->free(s.sum);
    be->free(s.cyc);
    be->free(s.same);
    gmb_series_free(&s.cycles);
    free(s.rows);
    free(pats);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "bank",
    .summary =
        "shared-memory bank conflicts: strides, broadcast, random, padded tiles; banks inferred",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = bank_run,
    .check = bank_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
