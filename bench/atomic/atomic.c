/* atomic.c - gmb-atomic: throughput of atomic adds by contention (how many work-items update
 * one address), in global memory (a GPU's L2 atomic units) and in shared/local memory (the
 * SM), without (red) and with (atom) the old value returned; every counter and checksum
 * checked after every launch. */
#include "kernels/gmb_kernels.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {{"default", ""}, {NULL, NULL}};

#define WORD        4u          /* bytes per counter */
#define UNROLL      4u          /* adds per turn of the kernel's loop: iters is a multiple */
#define MAX_ITERS   (1u << 20)  /* adds per work-item at most */
#define MAX_SHARERS (1u << 30)  /* the largest --sharers number */
#define SHARERS_ALL 0xffffffffu /* "all" in the parsed list */
#define INC         1u          /* the increment (a kernel argument) */

enum { S_GLOBAL, S_SHARED };
static const char *const scope_names[] = {"global", "shared", NULL};
enum { OP_RED, OP_ATOM };
static const char *const op_names[] = {"red", "atom", NULL};
static const char *const kernel_names[2][2] = {{"atomic_global_red", "atomic_global_atom"},
                                               {"atomic_shared_red", "atomic_shared_atom"}};

typedef struct cfg {
    gmb_list_t scopes;    /* S_* */
    gmb_list_t ops;       /* OP_* */
    gmb_ints_t sharers;   /* work-items per address: powers of two and "all" */
    gmb_sweep_t spacing;  /* bytes between neighbouring counters */
    long group_size;      /* work-items per group; 0: 256 (or the device's maximum) */
    long groups_per_cu;   /* groups per compute unit; 0: as many as fit (GPU), 4 (CPU) */
    double min_sample_us; /* shortest timed sample */
    int inject_last;      /* test aid: --inject-error plants its errors in the last counter */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const char *const sharer_words[] = {"all", NULL}; /* --sharers: the whole grid */
static const gmb_opt_t opts[] = {
    {"scopes", GMB_OPT_LIST, O(scopes), "LIST", "all", 1, 0, scope_names,
     "global (device memory: the L2's atomic units) and shared (CUDA) / local (OpenCL) memory", 0},
    {"ops", GMB_OPT_LIST, O(ops), "LIST", "all", 1, 0, op_names,
     "red (atomic add, old value unused) and atom (old value used: a round trip each)", 0},
    {"sharers", GMB_OPT_INTS, O(sharers), "LIST", "1,2,4,8,16,32,64,128,256,512,1024,all", 1,
     MAX_SHARERS, sharer_words,
     "consecutive work-items updating one address (powers of two; all = the grid (global) or "
     "the group (shared) on one address)",
     0},
    {"spacing", GMB_OPT_SWEEP, O(spacing), "LIST", "4,128", 4, 4096, NULL,
     "bytes between neighbouring counters (multiples of 4: 4 = counters share lines and "
     "sectors, 128 = a line each)",
     0},
    {"group-size", GMB_OPT_INT, O(group_size), "N", "0", 0, 1024, NULL,
     "work-items per group, a power of two; 0 = 256 or the device maximum", 0},
    {"groups-per-cu", GMB_OPT_INT, O(groups_per_cu), "N", "0", 0, 1024, NULL,
     "groups per compute unit; 0 = as many as fit (GPU; shared: with the point's shared memory) "
     "or 4 (CPU); N is used as given",
     0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "200", 1, 1e7, NULL,
     "shortest timed sample: the adds per work-item are raised until a launch lasts this long", 0},
    {"inject-error-last", GMB_OPT_FLAG, O(inject_last), NULL, NULL, 1, 0, NULL,
     "test aid: --inject-error plants its errors in the last counter (the partial one where the "
     "grid is not a multiple of the sharers)",
     1},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Every work-item of a grid that fills the device (compute units x the groups of 256 one\n"
    "keeps resident; a CPU: 4 groups a compute unit; --group-size and --groups-per-cu set the\n"
    "two) adds 1 (a kernel argument) iters times to counter g / sharers, g its index: sharers\n"
    "consecutive work-items update one address; the counters lie spacing bytes apart. Where\n"
    "the grid is not a multiple of sharers (global), the last counter has fewer work-items.\n"
    "global: the counters in device memory, zeroed before every launch (outside the timed\n"
    "one); a GPU does these atomics in its L2; all = every work-item of the grid on one\n"
    "address. shared: each group's own counters in its shared (CUDA) / local (OpenCL)\n"
    "memory, done in the SM; all = the whole group on one address; sharers above the group\n"
    "size are capped to it (the record says so; such a point is measured once). One counter\n"
    "(all; shared: the group's) is measured at the first spacing only: spacing means nothing\n"
    "there. In shared memory a spacing of 128 bytes puts every counter in one bank (a 32-way\n"
    "conflict at sharers 1).\n"
    "red: the old value is unused (CUDA: red.global.add, fire and forget; in shared memory\n"
    "atomicAdd, atom.shared.add); atom: the old value is summed into a checksum per\n"
    "work-item, so each add waits for its answer (four in flight per work-item). iters is\n"
    "raised until a launch lasts --min-sample-us.\n"
    "atomics_Gops = work-items x iters / median kernel time (1e9 atomic adds/s);\n"
    "ns_per_update_address = median kernel time / the adds one address received (sharers x\n"
    "iters): where a warp or more share the address, the time it takes per update (its\n"
    "serialisation); below that it is mostly one work-item's time per add.\n"
    "Verified after every launch: each counter equals its work-items x iters (a lost or\n"
    "repeated add fails; global: the bytes between counters stay 0); atom: the old values one\n"
    "counter returned are 0 .. T-1 (T its adds), so its work-items' checksums sum to\n"
    "T(T-1)/2 mod 2^32. The summary: each scope and op's throughput on distinct addresses\n"
    "(sharers 1, the smallest spacing) and on one address (all), their ratio, and the time\n"
    "per update of that one address.\n";

typedef struct state {
    gmb_ctx_t *c;     /* the run */
    gmb_kern_t *k;    /* the point's kernel */
    gmb_launch_t geo; /* its grid */
    int scope, op;    /* S_*, OP_* */
    gmb_u32 sharers;  /* work-items per counter (the grid or the group for all) */
    gmb_u32 sw;       /* words between counters */
    gmb_u32 iters;    /* adds per work-item */
    gmb_u32 inc;      /* the increment */
    size_t items;     /* work-items of the grid */
    size_t nctr;      /* counters: global ceil(items / sharers), shared groups x (L/sharers) */
    size_t ctr_words; /* words read back: global the span of the counters, shared nctr */
    gmb_buf_t *ctr;   /* global: the counters; shared: the counters the groups copy out */
    size_t ctr_cap;   /* its bytes */
    gmb_buf_t *sum;   /* one checksum per work-item (atom) */
    size_t sum_cap;   /* its bytes */
    gmb_u32 *hctr;    /* host copy of ctr */
    gmb_u32 *hsum;    /* host copy of sum */
    size_t hctr_cap;  /* words of hctr */
    size_t hsum_cap;  /* words of hsum */
    size_t failed;    /* launches of this point that failed verification */
    char err[320];    /* the first failure */
    json_t *failures; /* the first few failures, text */
    size_t verified;  /* launches verified for this point */
    int resident;     /* shared: groups a compute unit keeps resident, 0 unknown */
    int injected;     /* --inject-error: 1 a counter corrupted, 2 then a checksum (atom) or a
                         word between global counters, 3 then that word (atom) */
    int inject_last;  /* --inject-error-last: those errors at the last counter, not the middle */
} state_t;

/* Grow a device buffer to at least bytes (its contents are lost). 0 or the backend's error. */
static int grow_buf(gmb_ctx_t *c, gmb_buf_t **b, size_t *cap, size_t bytes)
{
    if (*b && *cap >= bytes)
        return GMB_OK;
    c->be->free(*b);
    *b = NULL;
    *cap = 0;
    int rc = c->be->alloc(c->dev, GMB_MEM_DEVICE, bytes, b);
    if (!rc)
        *cap = bytes;
    return rc;
}

/* Grow a host array to at least n words. 0 or GMB_ERUNTIME. */
static int grow_host(gmb_u32 **p, size_t *cap, size_t n)
{
    if (*cap >= n)
        return GMB_OK;
    gmb_u32 *q = realloc(*p, n * sizeof *q);
    if (!q) {
        gmb_error("out of host memory (%zu words)", n);
        return GMB_ERUNTIME;
    }
    *p = q;
    *cap = n;
    return GMB_OK;
}

/* Check the launch just read back: every counter, the gaps between global ones, the atom
 * checksums. 0 or GMB_EVERIFY with the reason in err. */
static int check(const state_t *s, char *err, size_t len)
{
    size_t stride = s->scope == S_GLOBAL ? s->sw : 1; /* of the counters in hctr */
    for (size_t k = 0; k < s->nctr; k++) {
        size_t first = k * s->sharers;
        size_t n = s->items - first < s->sharers ? s->items - first : s->sharers;
        uint64_t T = (uint64_t)n * s->iters; /* adds counter k received, < 2^32 */
        gmb_u32 want = (gmb_u32)T * s->inc, got = s->hctr[k * stride];
        if (got != want) {
            snprintf(err, len, "counter %zu holds %u, expected %u (%zu work-items x %u adds of %u)",
                     k, got, want, n, s->iters, s->inc);
            return GMB_EVERIFY;
        }
        for (size_t w = 1; s->scope == S_GLOBAL && k + 1 < s->nctr && w < stride; w++)
            if (s->hctr[k * stride + w]) {
                snprintf(err, len, "word %zu after counter %zu holds %u, expected 0", w, k,
                         s->hctr[k * stride + w]);
                return GMB_EVERIFY;
            }
        if (s->op != OP_ATOM)
            continue;
        /* the old values are 0, inc, .., (T-1) inc: they sum to inc T(T-1)/2 (mod 2^32) */
        gmb_u32 sum = 0, expect = (gmb_u32)(T * (T - 1) / 2) * s->inc;
        for (size_t g = first; g < first + n; g++)
            sum += s->hsum[g];
        if (sum != expect) {
            snprintf(err, len,
                     "the old values counter %zu returned sum to %u, expected %u (0 .. %llu)", k,
                     sum, expect, (unsigned long long)(T - 1));
            return GMB_EVERIFY;
        }
    }
    return GMB_OK;
}

/* One timed launch: counters (and checksums) reset, launch, read back, checked; a failed
 * check is kept in s->failed and s->err (the sample counts). 0 or the backend's error. */
static int sample(void *arg, double *ns)
{
    state_t *s = arg;
    const gmb_backend_t *be = s->c->be;
    gmb_arg_t av[] = {GMB_A_BUF(s->ctr), GMB_A_BUF(s->sum),   GMB_A_VAL(s->sharers),
                      GMB_A_VAL(s->sw),  GMB_A_VAL(s->iters), GMB_A_VAL(s->inc)};
    size_t cbytes = s->ctr_words * WORD, sbytes = s->items * sizeof(gmb_u32);
    /* global: zeroed counters; shared: the copy-out and the checksums preset to a value the
     * kernel must overwrite */
    int rc = be->fill(s->ctr, 0, s->scope == S_GLOBAL ? 0 : 0xff, cbytes);
    if (!rc && s->op == OP_ATOM)
        rc = be->fill(s->sum, 0, 0xff, sbytes);
    if (rc || (rc = be->launch(s->k, &s->geo, av, 6, ns)) ||
        (rc = be->read(s->ctr, 0, s->hctr, cbytes)) ||
        (s->op == OP_ATOM && (rc = be->read(s->sum, 0, s->hsum, sbytes))))
        return rc;
    /* test aid: one counter read back wrong (the middle one, or with --inject-error-last the
     * last); with atom, at the next launch one checksum of that counter's work-items; global,
     * then the word after that counter (after the one before it where it is the last) */
    size_t ki = s->inject_last ? s->nctr - 1 : s->nctr / 2;
    if (s->c->o.inject_error && !s->injected) {
        s->hctr[ki * (s->scope == S_GLOBAL ? s->sw : 1)] ^= 1u;
        s->injected = 1;
    } else if (s->c->o.inject_error && s->injected == 1 && s->op == OP_ATOM) {
        s->hsum[ki * s->sharers] += 1u;
        s->injected = 2;
    } else if (s->c->o.inject_error && s->injected <= 2 && s->scope == S_GLOBAL && s->sw > 1 &&
               s->nctr > 1) {
        s->hctr[(ki + 1 < s->nctr ? ki : ki - 1) * s->sw + 1] = 1u;
        s->injected = 3;
    }
    char err[256];
    s->verified++;
    if (check(s, err, sizeof err)) {
        char m[320];
        snprintf(m, sizeof m, "launch %zu: %s", s->verified, err);
        if (!s->failed++)
            gmb_strlcpy(s->err, m, sizeof s->err);
        if (json_array_size(s->failures) < 4)
            json_array_append_new(s->failures, json_string(m));
    }
    return GMB_OK;
}

/* The --sharers list (values in [1, 2^30] or all): powers of two, ascending, SHARERS_ALL
 * last, at most GMB_MAX_LIST. 0 or GMB_EUSAGE. */
static int parse_sharers(const gmb_ints_t *l, gmb_u32 *v, size_t *n)
{
    *n = 0;
    for (size_t k = 0; k < l->n; k++) {
        long x = l->v[k];
        if (x > 0 && (x & (x - 1))) {
            gmb_error("--sharers: %ld is not a power of two", x);
            return GMB_EUSAGE;
        }
        gmb_u32 u = x < 0 ? SHARERS_ALL : (gmb_u32)x;
        size_t i = 0;
        while (i < *n && v[i] < u)
            i++;
        if (*n == GMB_MAX_LIST) {
            gmb_error("--sharers: at most %d values", GMB_MAX_LIST);
            return GMB_EUSAGE;
        }
        memmove(v + i + 1, v + i, (*n - i) * sizeof *v);
        v[i] = u;
        (*n)++;
    }
    return GMB_OK;
}

/* The grid of kernel k with shared_bytes of dynamic shared memory a group: gmb_grid's for
 * --group-size and --groups-per-cu; without --groups-per-cu no more groups a compute unit
 * than the backend says it keeps resident with that memory (an asked number is used as
 * given). Returns those resident groups, 0 when unknown (OpenCL; a CPU) or no shared memory. */
static int grid_of(gmb_ctx_t *c, gmb_kern_t *k, size_t shared_bytes, gmb_launch_t *g)
{
    const cfg_t *cfg = c->cfg;
    gmb_grid(c, k, cfg->group_size, cfg->groups_per_cu, UINT64_MAX / 2, g);
    int res = 0;
    if (shared_bytes && strcmp(c->info.type, "cpu") && c->be->kern_occupancy &&
        !c->be->kern_occupancy(k, g->group_size, shared_bytes, &res) && res > 0 &&
        !cfg->groups_per_cu && (size_t)res * (size_t)c->info.compute_units < g->groups)
        g->groups = (size_t)res * (size_t)c->info.compute_units;
    g->shared_bytes = shared_bytes;
    return res;
}

/* One measured point's figures, for the summary. */
typedef struct pres {
    int scope, op;    /* S_*, OP_* */
    uint64_t spacing; /* bytes */
    gmb_u32 sharers;  /* work-items per address */
    int all;          /* every work-item of the grid / group on one address */
    double gops;      /* median throughput, 1e9 adds/s; NaN when verification failed */
    double ns_upd;    /* median ns per update of one address */
    size_t point;     /* its index among the record's points */
} pres_t;

/* Measure one point: s->scope, op, k, geo, sharers, sw set. Its figures in *pr. 0,
 * GMB_EVERIFY (recorded, marked) or an error. */
static int run_point(state_t *s, const char *asked, const char *capped, pres_t *pr)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    int rc;
    size_t L = s->geo.group_size;
    s->items = s->geo.groups * L;
    if (s->scope == S_GLOBAL) {
        s->nctr = (s->items + s->sharers - 1) / s->sharers;
        s->ctr_words = (s->nctr - 1) * s->sw + 1;
    } else {
        s->nctr = s->geo.groups * (L / s->sharers);
        s->ctr_words = s->nctr;
    }
    if ((rc = grow_buf(c, &s->ctr, &s->ctr_cap, s->ctr_words * WORD)) ||
        (rc = grow_buf(c, &s->sum, &s->sum_cap, s->items * sizeof(gmb_u32))) ||
        (rc = grow_host(&s->hctr, &s->hctr_cap, s->ctr_words)) ||
        (rc = grow_host(&s->hsum, &s->hsum_cap, s->items)))
        return rc;
    /* the busiest counter gets at most 2^32 - 1 adds: its value and the old values' sum are
     * then exact mod 2^32 */
    size_t busiest = s->sharers < s->items ? s->sharers : s->items;
    gmb_u32 cap = (gmb_u32)(UINT32_MAX / busiest);
    cap = (cap < MAX_ITERS ? cap : MAX_ITERS) / UNROLL * UNROLL;
    if (cap < UNROLL) {
        gmb_error("%zu work-items on one address: too many for 32-bit counters", busiest);
        return GMB_ERUNTIME;
    }
    s->failed = 0;
    s->err[0] = '\0';
    s->verified = 0;
    json_decref(s->failures);
    s->failures = json_array();
    s->iters = UNROLL;
    double t = 0;
    /* adds per work-item: a sample of at least min_sample_us and 1000 timer ticks */
    double want = fmax(cfg->min_sample_us * 1e3, 1000.0 * c->info.timer_res_ns);
    for (int i = 0; i < 3; i++) {
        if ((rc = sample(s, &t)))
            return rc;
        if (t >= want || s->iters >= cap)
            break;
        double f = fmin(1024.0, ceil(want / fmax(t, 1.0) * 1.1));
        double it = fmin((double)cap, s->iters * f);
        s->iters = (gmb_u32)it / UNROLL * UNROLL;
    }
    gmb_series_t ser = {0};
    if ((rc = gmb_measure(c, sample, s, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    double ops = (double)s->items * s->iters, upd = (double)busiest * s->iters;
    int all = busiest == (s->scope == S_GLOBAL ? s->items : L);
    json_t *params =
        json_pack("{s:s, s:s, s:I, s:b, s:I, s:I, s:I}", "scope", scope_names[s->scope], "op",
                  op_names[s->op], "sharers", (json_int_t)busiest, "all", all, "spacing_bytes",
                  (json_int_t)s->sw * WORD, "work_items", (json_int_t)s->items, "iters",
                  (json_int_t)s->iters);
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "atomics_Gops", gmb_json_rate(ops, &ser.st));
    gmb_point_metric(pt, "ns_per_update_address", gmb_json_scaled(1.0 / upd, &ser.st));
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "verified", json_string(s->failed ? "FAILED" : "full"));
    json_object_set_new(extra, "launches_verified", json_integer((json_int_t)s->verified));
    json_object_set_new(extra, "launches_failed", json_integer((json_int_t)s->failed));
    if (s->failed) {
        json_object_set_new(extra, "failures", s->failures);
        s->failures = NULL;
    }
    json_object_set_new(extra, "counters", json_integer((json_int_t)s->nctr));
    json_object_set_new(extra, "target_sample_us", json_real(want / 1e3));
    json_object_set_new(extra, "iters_capped", json_boolean(s->iters >= cap));
    if (s->scope == S_SHARED)
        json_object_set_new(extra, "resident_groups_per_cu",
                            s->resident > 0 ? json_integer(s->resident)
                                            : json_string("unknown: the API cannot tell (groups "
                                                          "beyond it wait for a second wave)"));
    json_object_set_new(extra, "increment", json_integer((json_int_t)s->inc));
    json_object_set_new(extra, "groups", json_integer((json_int_t)s->geo.groups));
    json_object_set_new(extra, "group_size", json_integer((json_int_t)L));
    json_object_set_new(extra, "shared_bytes", json_integer((json_int_t)s->geo.shared_bytes));
    json_object_set_new(extra, "sharers_asked", json_string(asked));
    if (capped[0])
        json_object_set_new(extra, "sharers_capped", json_string(capped));
    pr->point = json_array_size(c->points);
    gmb_add_point(c, pt);
    pr->gops = ops / ser.st.median;
    pr->ns_upd = ser.st.median / upd;
    pr->all = all;
    char shr[32];
    if (all)
        snprintf(shr, sizeof shr, "all=%zu", busiest);
    else
        snprintf(shr, sizeof shr, "%zu", busiest);
    printf("%-6s %-4s %7u %12s %9zu %7u %10.3f %6.2f %12.3f %4zu %s%s\n", scope_names[s->scope],
           op_names[s->op], s->sw * WORD, shr, s->items, s->iters, pr->gops, 100.0 * ser.st.ci_rel,
           pr->ns_upd, ser.n, capped[0] ? "(capped) " : "", s->failed ? "FAILED" : "full");
    fflush(stdout);
    gmb_series_free(&ser);
    if (s->failed) {
        pr->gops = pr->ns_upd = NAN;
        gmb_error("verification failed: %s %s, spacing %u B, sharers %s: %s (%zu of %zu "
                  "launches failed)",
                  scope_names[s->scope], op_names[s->op], s->sw * WORD, shr, s->err, s->failed,
                  s->verified);
        return GMB_EVERIFY;
    }
    return GMB_OK;
}

/* The headline figures of one scope and op (those of gmb table's rows): its throughput on
 * distinct addresses, and on one address its throughput or (global atom) time per update. */
static void headlines(gmb_ctx_t *c, int scope, int op, const pres_t *dist, const pres_t *one)
{
    static const char *const what[2][2] = {
        {"Global atomic adds (red)", "Global atomic adds (atom)"},
        {NULL, "Shared-memory atomic adds (atom)"},
    };
    const char *w = what[scope == S_SHARED][op == OP_ATOM];
    if (!w)
        return;
    char l[128];
    for (int k = 0; k < 2; k++) {
        const pres_t *p = k ? one : dist;
        int ns = k && scope == S_GLOBAL && op == OP_ATOM;
        snprintf(l, sizeof l, "%s, %s", w,
                 !k                  ? "distinct addresses"
                 : ns                ? "one address: time per update"
                 : scope == S_SHARED ? "one address a group"
                                     : "one address");
        const json_t *pt = json_array_get(c->points, p->point);
        gmb_headline(c, &(gmb_headline_t){.label = l,
                                          .unit = ns ? "ns" : "Gop/s",
                                          .higher = !ns,
                                          .value = ns ? p->ns_upd : p->gops,
                                          .ci_lo = NAN,
                                          .ci_hi = NAN,
                                          .points = &pt,
                                          .npoints = 1});
    }
}

/* The summary of one scope and op: distinct addresses against one address. */
static void summarise(gmb_ctx_t *c, const pres_t *pr, size_t np, int scope, int op, json_t *cont,
                      gmb_text_t *sm)
{
    const pres_t *one = NULL, *dist = NULL;
    uint64_t sp = 0;
    for (size_t i = 0; i < np; i++) /* the smallest spacing with both points */
        if (pr[i].scope == scope && pr[i].op == op && pr[i].sharers == 1)
            for (size_t j = 0; j < np; j++)
                if (pr[j].scope == scope && pr[j].op == op && pr[j].all &&
                    pr[j].spacing == pr[i].spacing && (!dist || pr[i].spacing < sp)) {
                    dist = &pr[i];
                    one = &pr[j];
                    sp = pr[i].spacing;
                }
    if (!dist || !(dist->gops > 0) || !(one->gops > 0))
        return;
    char key[32];
    snprintf(key, sizeof key, "%s_%s", scope_names[scope], op_names[op]);
    json_object_set_new(cont, key,
                        json_pack("{s:s, s:s, s:I, s:f, s:f, s:f, s:f}", "scope",
                                  scope_names[scope], "op", op_names[op], "spacing_bytes",
                                  (json_int_t)sp, "distinct_Gops", dist->gops, "one_address_Gops",
                                  one->gops, "distinct_over_one", dist->gops / one->gops,
                                  "one_address_ns_per_update", one->ns_upd));
    headlines(c, scope, op, dist, one);
    gmb_text_add(sm,
                 "%s%s %s: %.3g Gop/s on distinct addresses, %.3g Gop/s on one%s (%.3gx), %.3g "
                 "ns per update of that address.",
                 sm->len ? " " : "", scope_names[scope], op_names[op], dist->gops, one->gops,
                 scope == S_SHARED ? " a group" : "", dist->gops / one->gops, one->ns_upd);
}

/* The options against each other and the device: the sharers (powers of two), spacings of
 * whole counters, the group size, --inject-error-last only with --inject-error. */
static int atomic_check(gmb_ctx_t *c)
{
    const cfg_t *cfg = c->cfg;
    gmb_u32 shv[GMB_MAX_LIST];
    size_t nsh = 0;
    int rc = parse_sharers(&cfg->sharers, shv, &nsh);
    if (rc)
        return rc;
    for (size_t i = 0; i < cfg->spacing.n; i++)
        if (cfg->spacing.v[i] % WORD) {
            gmb_error("--spacing: %llu bytes is not a multiple of 4 (the size of a counter)",
                      (unsigned long long)cfg->spacing.v[i]);
            return GMB_EUSAGE;
        }
    if (gmb_check_group_size(c, cfg->group_size))
        return GMB_EUSAGE;
    if (cfg->inject_last && !c->o.inject_error) {
        gmb_error("--inject-error-last: a test aid of --inject-error, which is not given");
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

static int atomic_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    gmb_u32 shv[GMB_MAX_LIST];
    size_t nsh = 0;
    int rc = parse_sharers(&cfg->sharers, shv, &nsh); /* (checked by atomic_check) */
    if (rc)
        return rc;
    state_t s = {.c = c, .inc = INC, .inject_last = cfg->inject_last};
    gmb_prog_t *prog = NULL;
    gmb_kern_t *kern[2][2] = {{NULL, NULL}, {NULL, NULL}};
    json_t *cont = json_object(), *skipped = json_array();
    pres_t *pr = calloc(cfg->scopes.n * cfg->ops.n * cfg->spacing.n * nsh, sizeof *pr);
    size_t np = 0;
    if (!pr) {
        gmb_error("out of host memory");
        rc = GMB_ERUNTIME;
        goto out;
    }
    if ((rc = be->prog_load(c->dev, c->bench->kernels, variants[0].variant, &prog)))
        goto out;
    for (int sc = 0; sc < 2; sc++)
        for (int op = 0; op < 2; op++)
            if ((rc = be->kern_get(prog, kernel_names[sc][op], &kern[sc][op])))
                goto out;
    /* global counters must fit: the most (sharers 1) at the widest spacing */
    uint64_t smin = shv[0] == SHARERS_ALL ? 0 : shv[0], spmax = cfg->spacing.v[cfg->spacing.n - 1];
    for (size_t i = 0; smin && i < cfg->scopes.n; i++) {
        if (cfg->scopes.idx[i] != S_GLOBAL)
            continue;
        uint64_t most = 0;
        for (int op = 0; op < 2; op++) {
            gmb_launch_t g;
            grid_of(c, kern[S_GLOBAL][op], 0, &g);
            uint64_t n = (uint64_t)g.groups * g.group_size, nc = (n + smin - 1) / smin;
            uint64_t b = ((nc - 1) * (spmax / WORD) + 1) * WORD;
            most = b > most ? b : most;
        }
        uint64_t lim = c->info.mem_bytes / 4;
        if (c->info.max_alloc_bytes && c->info.max_alloc_bytes < lim)
            lim = c->info.max_alloc_bytes;
        if (most > lim) {
            gmb_error("--spacing %llu with --sharers %llu: the global counters take %s, more than "
                      "the device allows one buffer here (%s)",
                      (unsigned long long)spmax, (unsigned long long)smin,
                      gmb_fmt_size(most, (char[32]){0}, 32), gmb_fmt_size(lim, (char[32]){0}, 32));
            rc = GMB_EUSAGE;
            goto out;
        }
    }
    gmb_declare_metric(c, "atomics_Gops", "Gop/s", "higher",
                       "atomic adds of the grid (work-items x iters) / median kernel time");
    gmb_declare_metric(c, "ns_per_update_address", "ns", "lower",
                       "median kernel time / the adds one address received (sharers x iters): "
                       "the time per update of one address");
    printf("# gmb-atomic: %s device %d: %s; %d compute units; 32-bit atomic adds of %u\n",
           be->kind->name, c->info.index, c->info.name, c->info.compute_units, INC);
    printf("%-6s %-4s %7s %12s %9s %7s %10s %6s %12s %4s %s\n", "scope", "op", "spacing", "sharers",
           "items", "iters", "Gop/s", "+-CI%", "ns/upd/addr", "n", "verified");
    int failed = 0;
    for (size_t si = 0; si < cfg->scopes.n; si++) {
        int sc = cfg->scopes.idx[si];
        for (size_t oi = 0; oi < cfg->ops.n; oi++) {
            int op = cfg->ops.idx[oi];
            /* the grid without shared memory: how many work-items one address can have */
            gmb_launch_t g;
            grid_of(c, kern[sc][op], 0, &g);
            uint64_t span =
                sc == S_GLOBAL ? (uint64_t)g.groups * g.group_size : (uint64_t)g.group_size;
            for (size_t pi = 0; pi < cfg->spacing.n; pi++) {
                uint64_t spacing = cfg->spacing.v[pi];
                gmb_u32 done[GMB_MAX_LIST];
                size_t ndone = 0;
                for (size_t hi = 0; hi < nsh; hi++) {
                    gmb_u32 eff = shv[hi] >= span ? (gmb_u32)span : shv[hi];
                    int seen = 0;
                    for (size_t d = 0; d < ndone; d++)
                        seen |= done[d] == eff;
                    if (seen || (eff == span && pi > 0)) /* one counter: the spacing is moot */
                        continue;
                    done[ndone++] = eff;
                    /* every asked value that lands on this point, and those capped to it */
                    char asked[256] = "", capped[256] = "";
                    size_t al = 0, cl = 0;
                    for (size_t h = 0; h < nsh; h++) {
                        if ((shv[h] >= span ? span : shv[h]) != eff)
                            continue;
                        char v[16];
                        if (shv[h] == SHARERS_ALL)
                            snprintf(v, sizeof v, "all");
                        else
                            snprintf(v, sizeof v, "%u", shv[h]);
                        al += (size_t)snprintf(asked + al, sizeof asked - al, "%s%s", al ? " " : "",
                                               v);
                        if (shv[h] != SHARERS_ALL && shv[h] > span)
                            cl += (size_t)snprintf(capped + cl, sizeof capped - cl, "%s%s",
                                                   cl ? " " : "", v);
                    }
                    if (cl && sc == S_SHARED)
                        snprintf(capped + cl, sizeof capped - cl, " capped to the group size %llu",
                                 (unsigned long long)span);
                    else if (cl)
                        snprintf(capped + cl, sizeof capped - cl,
                                 " capped to the grid's %llu work-items", (unsigned long long)span);
                    s.scope = sc;
                    s.op = op;
                    s.k = kern[sc][op];
                    s.sharers = eff;
                    s.sw = (gmb_u32)(spacing / WORD);
                    size_t shb = 0;
                    if (sc == S_SHARED) {
                        shb = ((size_t)(span / eff) - 1) * s.sw * WORD + WORD;
                        if (c->info.local_mem_bytes && shb > c->info.local_mem_bytes) {
                            char why[160];
                            snprintf(why, sizeof why,
                                     "%zu B of shared memory a group, more than the device's %llu",
                                     shb, (unsigned long long)c->info.local_mem_bytes);
                            printf("%-6s %-4s %7llu %12u skipped: %s\n", scope_names[sc],
                                   op_names[op], (unsigned long long)spacing, eff, why);
                            json_array_append_new(
                                skipped,
                                json_pack("{s:s, s:s, s:I, s:I, s:s}", "scope", scope_names[sc],
                                          "op", op_names[op], "spacing_bytes", (json_int_t)spacing,
                                          "sharers", (json_int_t)eff, "reason", why));
                            continue;
                        }
                    }
                    s.resident = grid_of(c, s.k, shb, &s.geo);
                    pres_t *p = &pr[np];
                    *p = (pres_t){sc, op, spacing, eff, 0, NAN, NAN, 0};
                    rc = run_point(&s, asked, capped, p);
                    np++;
                    failed |= rc == GMB_EVERIFY;
                    if (rc && rc != GMB_EVERIFY)
                        goto out;
                }
            }
        }
    }
    rc = failed ? GMB_EVERIFY : GMB_OK;
    gmb_text_t sm = {{0}, 0};
    for (size_t si = 0; si < cfg->scopes.n; si++)
        for (size_t oi = 0; oi < cfg->ops.n; oi++)
            summarise(c, pr, np, cfg->scopes.idx[si], cfg->ops.idx[oi], cont, &sm);
    const char *none = "nothing to summarise (it needs sharers 1 and all at one spacing).";
    gmb_summary(c, "# atomic: ", NULL, sm.text, none);
    gmb_add_result(c, "contention", cont);
    gmb_add_result(c, "skipped", skipped);
    cont = skipped = NULL;
out:
    json_decref(cont);
    json_decref(skipped);
    free(pr);
    json_decref(s.failures);
    free(s.hctr);
    free(s.hsum);
    if (prog)
        be->prog_free(prog);
    be->free(s.ctr);
    be->free(s.sum);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "atomic",
    .summary = "atomic add throughput by contention (work-items per address), global and shared "
               "memory, result unused (red) and used (atom)",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = atomic_run,
    .check = atomic_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
