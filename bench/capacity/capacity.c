/* capacity.c - gmb-capacity: how much memory a device gives and how fast: the largest single
 * allocation (bisection), the total allocatable in chunks, allocation, first-touch and free
 * time against size per allocator, fragmentation (every other block freed), and, asked for,
 * exhaustion: the backend's refusal in its own words and whether the device works after it.
 * Every allocation that counts is touched and checked on the device; nothing is held past
 * --limit, and everything is freed on every path (Ctrl-C too). */
#include "capacity.h"
#include "harness.h"
#include "host.h"
#include "kernels/gmb_kernels.h"
#include "nvml.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));
/* capacity.cu's pool, where CUDA was built (capacity.h has the contracts) */
#pragma weak gmb_capacity_cuda_pool_open
#pragma weak gmb_capacity_cuda_pool_keep
#pragma weak gmb_capacity_cuda_pool_alloc
#pragma weak gmb_capacity_cuda_pool_touch
#pragma weak gmb_capacity_cuda_pool_check
#pragma weak gmb_capacity_cuda_pool_plant
#pragma weak gmb_capacity_cuda_pool_free
#pragma weak gmb_capacity_cuda_pool_trim
#pragma weak gmb_capacity_cuda_pool_close

static const gmb_cl_variant_t variants[] = {{"default", ""}, {NULL, NULL}};

#define WORD       4u                        /* bytes of a pattern word */
#define PAGE       4096u                     /* sizes step without an allocation granularity */
#define GIB        1073741824.0              /* bytes */
#define MIN_MARG   ((uint64_t)256 << 20)     /* the least default --margin of a GPU */
#define USABLE_B   ((uint64_t)1 << 20)       /* the allocation of the usable-after check */
#define ERRLEN     400                       /* a refusal's or a failure's text */
#define MAX_CHUNKS (1u << 20)                /* most chunks total and exhaust hold */
#define WHY_POOL   "cudaMallocFromPoolAsync" /* the async allocator's call */

enum { P_LARGEST, P_TOTAL, P_ALLOC, P_FRAG, P_EXHAUST, NPARTS };
static const char *const part_names[] = {"largest", "total", "alloc", "frag", "exhaust", NULL};
enum { A_DEVICE, A_PINNED, A_MANAGED, A_ASYNC, NALLOCS };
static const char *const alloc_names[] = {"device", "pinned", "managed", "async", NULL};
static const gmb_mem_kind_t alloc_kinds[] = {GMB_MEM_DEVICE, GMB_MEM_HOST_PINNED, GMB_MEM_MANAGED,
                                             GMB_MEM_DEVICE};

typedef struct cfg {
    gmb_list_t parts;      /* P_* */
    gmb_list_t allocs;     /* A_*: the alloc part's allocators */
    uint64_t limit;        /* the most held at once (derived in check when not given) */
    uint64_t margin;       /* a GPU's default --limit leaves this much of its free memory */
    gmb_sweep_t sizes;     /* the alloc part's sizes */
    uint64_t chunk;        /* total and exhaust: bytes a chunk */
    double res_pct;        /* the bisection's resolution, % of its bound */
    long frag_blocks;      /* frag: blocks allocated */
    double exhaust_cap_s;  /* exhaust: stop allocating after this long */
    uint64_t refuse_above; /* test aid: allocations above this are refused unasked (0: none) */
    char limit_from[512];  /* (not an option) where --limit came from */
    uint64_t free0;        /* (not an option) the free memory the check saw, 0 unknown */
    char free0_from[320];  /* (not an option) who said so, or why unknown */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const gmb_opt_t opts[] = {
    {"parts", GMB_OPT_LIST, O(parts), "LIST", "largest,total,alloc,frag", 1, 0, part_names,
     "largest (bisection), total (in chunks), alloc (time against size), frag (fragmentation), "
     "exhaust (until the backend refuses: run only when named, or with all)",
     0},
    {"allocators", GMB_OPT_LIST, O(allocs), "LIST", "all", 1, 0, alloc_names,
     "the alloc part's: device, pinned (host), managed (OpenCL: coarse-grained shared virtual "
     "memory; CUDA: cudaMallocManaged), async (CUDA: cudaMallocFromPoolAsync)",
     0},
    {"limit", GMB_OPT_SIZE, O(limit), "SIZE", NULL, PAGE, 0x1p62, NULL,
     "the most memory held at once; default: a quarter of the host's memory (a CPU or any device "
     "but a GPU), a GPU's free memory less --margin",
     0},
    {"margin", GMB_OPT_SIZE, O(margin), "SIZE", NULL, 1, 0x1p62, NULL,
     "a GPU: what the default --limit leaves of its free memory; default 5% of its memory, at "
     "least 256 MiB",
     0},
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", "4KiB:1GiB:x4", WORD, 0x1p62, NULL,
     "the alloc part's sizes (whole 4-byte words; those above --limit are left out, and said)", 0},
    {"chunk", GMB_OPT_SIZE, O(chunk), "SIZE", "256MiB", PAGE, 0x1p62, NULL,
     "total and exhaust: bytes a chunk (at most --limit, at least --limit / 2^20)", 0},
    {"resolution", GMB_OPT_DOUBLE, O(res_pct), "PCT", "1", 0.01, 50, NULL,
     "the bisection stops when its largest success and smallest failure lie this % of its bound "
     "apart",
     0},
    {"frag-blocks", GMB_OPT_INT, O(frag_blocks), "N", "32", 2, 4096, NULL,
     "frag: blocks of --limit / N allocated, every other one then freed", 0},
    {"exhaust-time-cap", GMB_OPT_DOUBLE, O(exhaust_cap_s), "S", "60", 0.1, 3600, NULL,
     "exhaust: stop allocating after this long", 0},
    {"refuse-above", GMB_OPT_SIZE, O(refuse_above), "SIZE", NULL, 1, 0x1p62, NULL,
     "test aid: an allocation that would hold more than SIZE in all is refused without asking "
     "the backend (a device of SIZE: the bisection's search, a chunk's refusal)",
     1},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Every allocation that counts is real: a kernel writes every word (gmb_hash of its index)\n"
    "and a second reads every word back on the device and counts those that differ (pinned\n"
    "host memory: the host writes and reads them). A wrong word fails the run (exit 1).\n"
    "largest: the largest single allocation of device memory, by bisection between 0 and the\n"
    "bound (--limit, or the device's largest single allocation where that is less), to\n"
    "--resolution; each probe (size, ok or the backend's refusal, time) is recorded; a refusal\n"
    "prints nothing. Capped by --limit, the answer is a lower bound, and its figure says so.\n"
    "The point: allocation and free time at that size (untouched; the probe was verified).\n"
    "total: chunks of --chunk, each touched and checked, until the backend refuses or\n"
    "--limit; their sum.\n"
    "alloc: time to allocate, to touch first (the touch kernel: where an implementation\n"
    "allocates at the first use, as PoCL does, that is where the memory is taken) and to free,\n"
    "against --sizes, per allocator: device memory, pinned host memory, managed memory (OpenCL:\n"
    "coarse-grained shared virtual memory, clSVMAlloc; CUDA: cudaMallocManaged, within\n"
    "--limit), and CUDA's stream-ordered allocator from a pool of its own (its release\n"
    "threshold the size measured, so that later allocations reuse the pool; the first one,\n"
    "which grows it, is kept as first_alloc_us). Host-timed (CLOCK_MONOTONIC), median and 95%\n"
    "CI over the samples.\n"
    "frag: --frag-blocks blocks filling --limit, every other one freed, then the largest\n"
    "allocation by bisection against the same bisection with nothing held (the contiguous\n"
    "case): the ratio of the two.\n"
    "exhaust (only when named, or --parts all): chunks until the backend refuses, --limit or\n"
    "--exhaust-time-cap; held at --limit without a refusal, one allocation of the device's\n"
    "whole memory is asked for (never touched) to hear the refusal. The backend's exact words\n"
    "are recorded; then everything is freed and a small allocation is touched and checked:\n"
    "usable_after. NVML's used and free memory (where NVML knows the device) and the backend's\n"
    "free memory are recorded before and after.\n"
    "--limit is the most the parts hold at once, on every path (the check's own 16 bytes\n"
    "aside): by default a quarter of the host's\n"
    "memory on a CPU (or any device but a GPU; above the host's memory it is refused) and on a\n"
    "GPU its free memory at the start less --margin. Managed memory is never asked for beyond\n"
    "it. Ctrl-C frees everything; results.held says what was held at the end (0).\n";

/* a buffer held, and its size */
typedef struct hbuf {
    gmb_buf_t *b;   /* NULL: none */
    uint64_t bytes; /* its size */
} hbuf_t;

/* the run's state */
typedef struct cap {
    gmb_ctx_t *c;            /* the run */
    const cfg_t *cfg;        /* its options */
    const gmb_backend_t *be; /* its backend */
    gmb_prog_t *prog;        /* the kernels */
    gmb_kern_t *touch;       /* cap_touch */
    gmb_kern_t *check;       /* cap_check */
    hbuf_t res;              /* the check's four words (the program's own: not counted in held) */
    uint64_t step;           /* bisection and chunk sizes are multiples of it */
    uint64_t held;           /* bytes held now (device and host; the pool's reserve) */
    uint64_t peak;           /* the most held at once */
    size_t nalloc, nfree;    /* allocations made and freed */
    gmb_u32 seed;            /* of the pattern */
    int plant;               /* --inject-error: one wrong word at the next touch */
    size_t nfailed;          /* checks that failed */
    int pool;                /* capacity.cu's pool is open */
    json_t *probes;          /* results.probes */
    json_t *failures;        /* results.failures: what failed verification */
    json_t *skipped;         /* results.skipped */
    hbuf_t *many;            /* total, frag, exhaust: the blocks held */
    size_t nmany;            /* of many */
} cap_t;

static uint64_t rdown(uint64_t v, uint64_t step)
{
    return v / step * step;
}

static const char *sz(uint64_t b, char *buf)
{
    return gmb_fmt_size(b, buf, 32);
}

static json_t *jsize(uint64_t b)
{
    return json_integer((json_int_t)b);
}

/* ---- holding memory: every allocation and free goes through these two -------------------- */

/* Allocate bytes of kind (alloc_quiet: a refusal prints nothing, its words in why), within
 * --limit; the call's host time in *ns. 0, or the backend's code with why. */
static int hold(cap_t *s, gmb_mem_kind_t kind, uint64_t bytes, unsigned flags, hbuf_t *h,
                double *ns, char *why, size_t len)
{
    h->b = NULL;
    h->bytes = 0;
    if (ns)
        *ns = 0;
    if (bytes > s->cfg->limit || s->held > s->cfg->limit - bytes) {
        char a[32], l[32];
        snprintf(why, len, "not asked: %s more would hold past --limit %s", sz(bytes, a),
                 sz(s->cfg->limit, l));
        return GMB_ERUNTIME;
    }
    if (s->cfg->refuse_above &&
        (bytes > s->cfg->refuse_above || s->held > s->cfg->refuse_above - bytes)) {
        char a[32];
        snprintf(why, len, "test aid --refuse-above %s: refused without asking the backend",
                 sz(s->cfg->refuse_above, a));
        return GMB_ERUNTIME;
    }
    double t0 = gmb_now_ns();
    int rc = s->be->alloc_quiet(s->c->dev, kind, (size_t)bytes, flags, &h->b, why, len);
    if (ns)
        *ns = gmb_now_ns() - t0;
    if (rc) {
        h->b = NULL;
        return rc;
    }
    h->bytes = bytes;
    s->held += bytes;
    s->peak = s->held > s->peak ? s->held : s->peak;
    s->nalloc++;
    return GMB_OK;
}

/* Free h (nothing when it holds nothing); the call's host time, ns. */
static double release(cap_t *s, hbuf_t *h)
{
    if (!h->b)
        return 0;
    double t0 = gmb_now_ns();
    s->be->free(h->b);
    double t = gmb_now_ns() - t0;
    s->held -= h->bytes;
    s->nfree++;
    h->b = NULL;
    h->bytes = 0;
    return t;
}

/* Free every block of s->many. */
static void release_many(cap_t *s)
{
    for (size_t i = 0; i < s->nmany; i++)
        release(s, &s->many[i]);
    free(s->many);
    s->many = NULL;
    s->nmany = 0;
}

/* ---- the touch and the check ---------------------------------------------------------------- */

/* The check's four words (cap_check) as a verdict on n words: 0, or GMB_EVERIFY with why. */
static int verdict(const cap_t *s, const gmb_u32 h[4], uint64_t n, char *why, size_t len)
{
    if (!h[0])
        return GMB_OK;
    uint64_t at = h[1] | (uint64_t)h[2] << 32;
    snprintf(why, len,
             "%u of %llu words differ from the pattern written (e.g. word %llu holds 0x%08x, "
             "expected 0x%08x)",
             h[0], (unsigned long long)n, (unsigned long long)at, h[3],
             at < n ? gmb_hash(s->seed, at) : 0u);
    return GMB_EVERIFY;
}

/* --inject-error: the word a planted error goes to, and its wrong value */
static uint64_t plant_at(uint64_t n)
{
    return n / 2;
}

/* Touch the n words of device (or managed) memory b with the pattern (host time in *ns), plant
 * the test aid's error where asked, then check every word on the device. 0, GMB_EVERIFY (why),
 * or the backend's error (it said so). */
static int touch_dev(cap_t *s, gmb_buf_t *b, uint64_t bytes, double *ns, char *why, size_t len)
{
    const gmb_backend_t *be = s->be;
    uint64_t n = bytes / WORD;
    gmb_launch_t g;
    gmb_grid(s->c, s->touch, 0, 0, n, &g);
    gmb_arg_t ta[] = {GMB_A_BUF(b), GMB_A_VAL(n), GMB_A_VAL(s->seed)};
    double t0 = gmb_now_ns();
    int rc = be->launch(s->touch, &g, ta, 3, NULL);
    *ns = gmb_now_ns() - t0;
    if (rc)
        return rc;
    if (s->plant) {
        gmb_u32 w = gmb_hash(s->seed, plant_at(n)) ^ 1u;
        s->plant = 0;
        if ((rc = be->write(b, plant_at(n) * WORD, &w, sizeof w)))
            return rc;
    }
    gmb_u32 h[4] = {0, 0, 0, 0};
    gmb_grid(s->c, s->check, 0, 0, n, &g);
    gmb_arg_t ca[] = {GMB_A_BUF(b), GMB_A_VAL(n), GMB_A_VAL(s->seed), GMB_A_BUF(s->res.b)};
    if ((rc = be->fill(s->res.b, 0, 0, sizeof h)) || (rc = be->launch(s->check, &g, ca, 4, NULL)) ||
        (rc = be->read(s->res.b, 0, h, sizeof h)))
        return rc;
    return verdict(s, h, n, why, len);
}

/* The same for host memory the host touches (pinned): the host writes every word, then reads
 * every word back. */
static int touch_host(cap_t *s, gmb_buf_t *b, uint64_t bytes, double *ns, char *why, size_t len)
{
    gmb_u32 *p = s->be->host_ptr(b);
    uint64_t n = bytes / WORD;
    if (!p) {
        snprintf(why, len, "the backend gave no host pointer of pinned memory");
        return GMB_ERUNTIME;
    }
    double t0 = gmb_now_ns();
    for (uint64_t i = 0; i < n; i++)
        p[i] = gmb_hash(s->seed, i);
    *ns = gmb_now_ns() - t0;
    if (s->plant) {
        p[plant_at(n)] ^= 1u;
        s->plant = 0;
    }
    gmb_u32 h[4] = {0, 0, 0, 0};
    for (uint64_t i = 0; i < n; i++)
        if (p[i] != gmb_hash(s->seed, i)) {
            h[0]++;
            h[1] = (gmb_u32)i;
            h[2] = (gmb_u32)(i >> 32);
            h[3] = p[i];
        }
    return verdict(s, h, n, why, len);
}

/* Keep a verification failure: printed, in results.failures, and the run fails. */
static void failed(cap_t *s, const char *what, const char *why)
{
    s->nfailed++;
    gmb_error("verification failed: %s: %s", what, why);
    if (json_array_size(s->failures) < 16)
        json_array_append_new(s->failures, json_pack("{s:s, s:s}", "what", what, "why", why));
}

/* ---- the bisection ---------------------------------------------------------------------- */

/* One probe of search: size of device memory allocated (the backend's own first touch
 * included: a lazy implementation refuses there), touched and checked, freed; recorded in
 * results.probes and printed. *ok: it counts. 0 (refused or not), or an error that stops the
 * run (a launch that failed). */
static int probe(cap_t *s, const char *search, cap_bisect_t *bs, uint64_t size)
{
    char why[ERRLEN] = "", a[32];
    hbuf_t h;
    double t0 = gmb_now_ns(), tt = 0;
    int arc = hold(s, GMB_MEM_DEVICE, size, 0, &h, NULL, why, sizeof why), rc = arc;
    if (!arc) {
        rc = touch_dev(s, h.b, size, &tt, why, sizeof why);
        release(s, &h);
    }
    double ms = (gmb_now_ns() - t0) / 1e6;
    int ok = !arc && !rc;
    json_t *p = json_pack("{s:s, s:I, s:I, s:b, s:f}", "search", search, "index",
                          (json_int_t)bs->probes + 1, "size_bytes", (json_int_t)size, "ok", ok,
                          "time_ms", ms);
    if (!ok)
        json_object_set_new(p, "error",
                            json_string(rc == GMB_EVERIFY ? "verification failed"
                                        : arc             ? why
                                                          : "a launch failed"));
    if (rc == GMB_EVERIFY) {
        char what[96];
        snprintf(what, sizeof what, "%s probe %u, %s", search, bs->probes + 1, sz(size, a));
        json_object_set_new(p, "failure", json_string(why));
        failed(s, what, why);
    }
    json_array_append_new(s->probes, p);
    printf("%-7s %-15s %4u %12s %-7s %10.2f ms%s%s\n", "probe", search, bs->probes + 1, sz(size, a),
           ok                  ? "ok"
           : rc == GMB_EVERIFY ? "failed"
                               : "refused",
           ms, ok ? "" : "  ", ok ? "" : (rc == GMB_EVERIFY ? "verification failed" : why));
    fflush(stdout);
    cap_bisect_report(bs, size, ok);
    return arc || rc == GMB_EVERIFY ? GMB_OK : rc;
}

/* The largest allocation of device memory at most bound (a bisection to --resolution):
 * *answer (0: nothing succeeded), *res the resolution. 0, GMB_EINTR, or an error. */
static int bisect(cap_t *s, const char *search, uint64_t bound, uint64_t *answer, uint64_t *res)
{
    cap_bisect_t b;
    cap_bisect_init(&b, bound, s->step, s->cfg->res_pct / 100.0);
    *res = b.res;
    int rc = GMB_OK;
    for (uint64_t size; (size = cap_bisect_next(&b));) {
        if (gmb_stop_signal()) {
            rc = GMB_EINTR;
            break;
        }
        if ((rc = probe(s, search, &b, size)))
            break;
    }
    *answer = b.lo;
    return rc;
}

/* ---- samples of one allocator at one size --------------------------------------------------- */

typedef struct am {
    cap_t *s;             /* the run */
    int alloc;            /* A_* */
    uint64_t bytes;       /* the size */
    int touch;            /* 1: touch and check each allocation */
    size_t warm;          /* the first calls are gmb_measure's warm-up */
    size_t calls;         /* calls so far */
    double first_ns;      /* the first call's allocation time */
    double *touch_ns;     /* per sample (after the warm-up) */
    double *free_ns;      /* per sample */
    size_t n, cap;        /* of touch_ns and free_ns */
    size_t verified;      /* allocations checked */
    size_t nfailed;       /* of them, failed */
    char failure[ERRLEN]; /* the first */
    char refused[ERRLEN]; /* an allocation refused: the backend's words */
} am_t;

static int am_push(am_t *a, double t, double f)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 64;
        double *x = realloc(a->touch_ns, nc * sizeof *x);
        if (x)
            a->touch_ns = x;
        double *y = x ? realloc(a->free_ns, nc * sizeof *y) : NULL;
        if (y)
            a->free_ns = y;
        if (!x || !y) {
            gmb_error("out of host memory");
            return GMB_ERUNTIME;
        }
        a->cap = nc;
    }
    a->touch_ns[a->n] = t;
    a->free_ns[a->n++] = f;
    return GMB_OK;
}

/* One sample: allocate (timed: *ns), touch and check (timed), free (timed). A refusal:
 * GMB_ERUNTIME with the backend's words in a->refused (nothing printed). */
static int alloc_sample(void *arg, double *ns)
{
    am_t *a = arg;
    cap_t *s = a->s;
    char why[ERRLEN] = "";
    double ta = 0, tt = 0, tf = 0;
    int rc, vrc = GMB_OK;
    if (a->alloc == A_ASYNC) {
        void *p = NULL;
        double t0 = gmb_now_ns();
        rc = gmb_capacity_cuda_pool_alloc(a->bytes, &p, why, sizeof why);
        ta = gmb_now_ns() - t0;
        if (rc) {
            gmb_strlcpy(a->refused, why, sizeof a->refused);
            return rc;
        }
        uint64_t n = a->bytes / WORD;
        gmb_u32 h[4] = {0, 0, 0, 0};
        if (a->touch) {
            t0 = gmb_now_ns();
            rc = gmb_capacity_cuda_pool_touch(p, n, s->seed, why, sizeof why);
            tt = gmb_now_ns() - t0;
            if (!rc && s->plant) {
                s->plant = 0;
                rc = gmb_capacity_cuda_pool_plant(
                    p, plant_at(n), gmb_hash(s->seed, plant_at(n)) ^ 1u, why, sizeof why);
            }
            if (!rc && !(rc = gmb_capacity_cuda_pool_check(p, n, s->seed, h, why, sizeof why)))
                vrc = verdict(s, h, n, why, sizeof why);
        }
        char fwhy[ERRLEN] = "";
        t0 = gmb_now_ns();
        int frc = gmb_capacity_cuda_pool_free(p, fwhy, sizeof fwhy);
        tf = gmb_now_ns() - t0;
        if (rc || frc) {
            gmb_error("%s: %s", WHY_POOL, rc ? why : fwhy);
            return GMB_ERUNTIME;
        }
    } else {
        hbuf_t h;
        rc =
            hold(s, alloc_kinds[a->alloc], a->bytes, GMB_ALLOC_UNTOUCHED, &h, &ta, why, sizeof why);
        if (rc) {
            gmb_strlcpy(a->refused, why, sizeof a->refused);
            return rc;
        }
        if (a->touch)
            rc = a->alloc == A_PINNED ? touch_host(s, h.b, a->bytes, &tt, why, sizeof why)
                                      : touch_dev(s, h.b, a->bytes, &tt, why, sizeof why);
        if (rc == GMB_EVERIFY) {
            vrc = rc;
            rc = GMB_OK;
        }
        tf = release(s, &h);
        if (rc)
            return rc;
    }
    if (!a->calls)
        a->first_ns = ta;
    if (a->calls++ >= a->warm && (rc = am_push(a, tt, tf)))
        return rc;
    if (a->touch) {
        a->verified++;
        if (vrc && !a->nfailed++)
            gmb_strlcpy(a->failure, why, sizeof a->failure);
    }
    *ns = ta;
    return GMB_OK;
}

/* A metric of n values (ns) as us: median, CI ... (the run's statistics settings). */
static json_t *json_us(const cap_t *s, const double *ns, size_t n)
{
    gmb_stats_t st;
    if (!n ||
        gmb_stats_compute(ns, n, (size_t)s->c->o.min_samples, s->c->o.ci_target_pct / 100.0, &st))
        return json_null();
    return gmb_json_scaled(1e-3, &st);
}

/* Set metric name of point p to v where v is one (a metric of no samples is left out). */
static void metric(json_t *p, const char *name, json_t *v)
{
    if (json_is_object(v))
        gmb_point_metric(p, name, v);
    else
        json_decref(v);
}

/* The point of one allocator at one size, measured with gmb_measure (a->touch: touched and
 * checked too). Added to the record; *pt it (NULL when none). 0, GMB_EVERIFY (recorded),
 * GMB_EINTR, or an error; a refusal: GMB_ERUNTIME with a->refused set, nothing recorded. */
static int measure_alloc(cap_t *s, am_t *a, const char *part, const char *api, json_t **pt)
{
    gmb_ctx_t *c = s->c;
    gmb_series_t ser = {0};
    *pt = NULL;
    a->warm = (size_t)c->o.warmup;
    int rc = gmb_measure(c, alloc_sample, a, &ser);
    if (rc) {
        gmb_series_free(&ser);
        return rc;
    }
    size_t n = ser.n < a->n ? ser.n : a->n;
    json_t *p = gmb_point_new(json_pack("{s:s, s:s, s:I}", "part", part, "allocator",
                                        alloc_names[a->alloc], "size_bytes", (json_int_t)a->bytes),
                              &ser);
    gmb_point_metric(p, "alloc_us", gmb_json_scaled(1e-3, &ser.st));
    metric(p, "free_us", json_us(s, a->free_ns, n));
    if (a->touch) {
        metric(p, "touch_us", json_us(s, a->touch_ns, n));
        gmb_point_rate(c, p, "touch_GBps", a->touch_ns, n, 1, (double)a->bytes);
    }
    json_t *x = json_object_get(p, "extra");
    json_object_set_new(x, "api", json_string(api));
    json_object_set_new(x, "first_alloc_us", json_real(a->first_ns / 1e3));
    json_object_set_new(x, "verified",
                        json_string(!a->touch    ? "full"
                                    : a->nfailed ? "FAILED"
                                                 : "full"));
    json_object_set_new(x, "allocations_checked", json_integer((json_int_t)a->verified));
    json_object_set_new(x, "allocations_failed", json_integer((json_int_t)a->nfailed));
    if (!a->touch)
        json_object_set_new(x, "touched",
                            json_string("no: allocation and free only (the size was touched and "
                                        "checked by its probe)"));
    else
        json_object_set_new(x, "touched",
                            json_string(a->alloc == A_PINNED
                                            ? "the host writes every word, then reads each back"
                                            : "a kernel writes every word, another reads each "
                                              "back on the device"));
    if (a->nfailed)
        json_object_set_new(x, "failure", json_string(a->failure));
    gmb_add_point(c, p);
    *pt = p;
    char b[32];
    const json_t *tm = json_object_get(json_object_get(p, "metrics"), "touch_us");
    const json_t *fm = json_object_get(json_object_get(p, "metrics"), "free_us");
    char tus[32] = "-", fus[32] = "-";
    if (json_is_object(tm))
        snprintf(tus, sizeof tus, "%.2f", json_number_value(json_object_get(tm, "median")));
    if (json_is_object(fm))
        snprintf(fus, sizeof fus, "%.2f", json_number_value(json_object_get(fm, "median")));
    printf("%-7s %-8s %10s %12.2f %12s %12s %4zu %s\n", part, alloc_names[a->alloc],
           sz(a->bytes, b), ser.st.median / 1e3, tus, fus, ser.n,
           a->nfailed ? "FAILED"
           : a->touch ? "full"
                      : "untouched");
    fflush(stdout);
    gmb_series_free(&ser);
    if (a->nfailed) {
        char what[96];
        snprintf(what, sizeof what, "%s %s %s (%zu of %zu allocations)", part,
                 alloc_names[a->alloc], b, a->nfailed, a->verified);
        failed(s, what, a->failure);
        return GMB_EVERIFY;
    }
    return GMB_OK;
}

static void am_free(am_t *a)
{
    free(a->touch_ns);
    free(a->free_ns);
    a->touch_ns = a->free_ns = NULL;
    a->n = a->cap = 0;
}

/* A point of samples taken one each (a chunk's or a block's allocation, ns), with their touch
 * times; added. NULL when there are none. */
static json_t *series_point(cap_t *s, json_t *params, const double *alloc_ns,
                            const double *touch_ns, size_t n, uint64_t bytes, const char *how,
                            int ok)
{
    gmb_ctx_t *c = s->c;
    gmb_series_t ser = {0};
    int rc = GMB_OK;
    for (size_t i = 0; i < n && !rc; i++)
        if (alloc_ns[i] > 0) /* (a clock that did not move: no sample) */
            rc = gmb_series_push(&ser, alloc_ns[i]);
    if (rc || !ser.n ||
        gmb_stats_compute(ser.ns, ser.n, (size_t)c->o.min_samples, c->o.ci_target_pct / 100.0,
                          &ser.st)) {
        json_decref(params);
        gmb_series_free(&ser);
        return NULL;
    }
    ser.stopped_by = how;
    json_t *p = gmb_point_new(params, &ser);
    gmb_point_metric(p, "alloc_us", gmb_json_scaled(1e-3, &ser.st));
    metric(p, "touch_us", json_us(s, touch_ns, n));
    gmb_point_rate(c, p, "touch_GBps", touch_ns, n, 1, (double)bytes);
    json_t *x = json_object_get(p, "extra");
    json_object_set_new(x, "api", json_string(s->be->alloc_api(GMB_MEM_DEVICE)));
    json_object_set_new(x, "verified", json_string(ok ? "full" : "FAILED"));
    json_object_set_new(x, "timed",
                        json_string("each allocation call, with the backend's own first touch "
                                    "of a new buffer where it makes one (so that a refusal shows "
                                    "there), then the touch kernel"));
    gmb_add_point(c, p);
    gmb_series_free(&ser);
    return p;
}

/* ---- the parts -------------------------------------------------------------------------- */

/* The bound of a bisection with what is held now: --limit less it, at most the device's
 * largest single allocation; *by says which. */
static uint64_t bound_now(const cap_t *s, const char **by)
{
    uint64_t b = s->cfg->limit - s->held;
    *by = "--limit";
    uint64_t ma = s->c->info.max_alloc_bytes;
    if (ma && ma < b) {
        b = ma;
        *by = "the device's largest single allocation (max_alloc_bytes)";
    }
    return rdown(b, s->step);
}

/* " (at least: capped by --limit)" where an answer reached a bound that --limit set */
static const char *capped_text(uint64_t answer, uint64_t bound, const char *by)
{
    return answer >= bound && !strcmp(by, "--limit") ? " (at least: capped by --limit)" : "";
}

static int part_largest(cap_t *s, json_t *res, gmb_text_t *sm)
{
    gmb_ctx_t *c = s->c;
    const char *by;
    uint64_t bound = bound_now(s, &by), ans = 0, resol = 0;
    s->plant = c->o.inject_error;
    int rc = bisect(s, "largest", bound, &ans, &resol);
    json_t *r = json_pack("{s:I, s:I, s:s, s:I, s:b}", "bytes", (json_int_t)ans, "bound_bytes",
                          (json_int_t)bound, "bound_by", by, "resolution_bytes", (json_int_t)resol,
                          "capped", ans >= bound && !strcmp(by, "--limit"));
    json_object_set_new(r, "GiB", json_real((double)ans / GIB));
    if (s->cfg->free0) {
        json_object_set_new(r, "free_before_bytes", jsize(s->cfg->free0));
        json_object_set_new(r, "of_free", json_real((double)ans / (double)s->cfg->free0));
    } else
        json_object_set_new(r, "of_free", json_null());
    json_object_set_new(r, "free_from", json_string(s->cfg->free0_from));
    json_object_set_new(res, "largest", r);
    if (rc)
        return rc;
    char a[32], b[32];
    if (!ans) {
        char why[160];
        snprintf(why, sizeof why, "no allocation of %s or more succeeded (bound %s)", sz(resol, a),
                 sz(bound, b));
        json_array_append_new(s->skipped,
                              json_pack("{s:s, s:s}", "part", "largest", "reason", why));
        printf("largest skipped: %s\n", why);
        return GMB_OK;
    }
    /* the point: allocation and free time at the answer, untouched (its probe was checked) */
    am_t a1 = {.s = s, .alloc = A_DEVICE, .bytes = ans, .touch = 0};
    json_t *pt = NULL;
    rc = measure_alloc(s, &a1, "largest", s->be->alloc_api(GMB_MEM_DEVICE), &pt);
    am_free(&a1);
    if (rc == GMB_ERUNTIME && a1.refused[0]) { /* taken meanwhile: said, no point */
        gmb_warn("largest: %s, verified by its probe, now refused: %s", sz(ans, a), a1.refused);
        json_object_set_new(r, "remeasure_refused", json_string(a1.refused));
        rc = GMB_OK;
    }
    if (rc)
        return rc;
    char l[128];
    snprintf(l, sizeof l, "Largest single allocation%s", capped_text(ans, bound, by));
    gmb_headline(c, &(gmb_headline_t){.label = l,
                                      .unit = "GiB",
                                      .higher = 1,
                                      .value = (double)ans / GIB,
                                      .ci_lo = NAN,
                                      .ci_hi = NAN});
    size_t np = json_array_size(s->probes);
    gmb_text_add(sm, "%sLargest single allocation %s%s (%zu probe%s, bound %s by %s).",
                 sm->len ? " " : "", sz(ans, a), capped_text(ans, bound, by), np,
                 np == 1 ? "" : "s", sz(bound, b), by);
    return GMB_OK;
}

/* Chunks of device memory until the backend refuses, --limit, or (cap_s > 0) cap_s seconds:
 * each touched and checked; kept in s->many. *stop says why it stopped, err the refusal.
 * Their allocation and touch times (full chunks) in an and tn (n of them). 0, GMB_EINTR, or
 * an error. */
static int chunks(cap_t *s, const char *part, uint64_t chunk, double cap_s, const char **stop,
                  char *err, size_t errlen, double **an, double **tn, size_t *n)
{
    uint64_t most = s->cfg->limit / chunk + 2;
    s->many = calloc(most, sizeof *s->many);
    *an = calloc(most, sizeof **an);
    *tn = calloc(most, sizeof **tn);
    *n = 0;
    *stop = "--limit";
    err[0] = '\0';
    if (!s->many || !*an || !*tn) {
        gmb_error("out of host memory");
        return GMB_ERUNTIME;
    }
    double t0 = gmb_now_ns();
    s->plant = s->c->o.inject_error;
    for (;;) {
        if (gmb_stop_signal())
            return GMB_EINTR;
        if (cap_s > 0 && (gmb_now_ns() - t0) / 1e9 > cap_s) {
            *stop = "time cap";
            break;
        }
        uint64_t size = rdown(s->cfg->limit - s->held, s->step);
        size = size < chunk ? size : chunk;
        if (size < s->step || s->nmany >= most)
            break;
        double ta, tt = 0;
        char why[ERRLEN] = "";
        hbuf_t *h = &s->many[s->nmany];
        int rc = hold(s, GMB_MEM_DEVICE, size, 0, h, &ta, why, sizeof why);
        if (rc) {
            *stop = "refused";
            gmb_strlcpy(err, why, errlen);
            break;
        }
        s->nmany++;
        rc = touch_dev(s, h->b, size, &tt, why, sizeof why);
        if (rc == GMB_EVERIFY) {
            char what[96], a[32];
            snprintf(what, sizeof what, "%s chunk %zu (%s)", part, s->nmany, sz(size, a));
            failed(s, what, why);
        } else if (rc)
            return rc;
        if (size == chunk) {
            (*an)[*n] = ta;
            (*tn)[(*n)++] = tt;
        }
    }
    return GMB_OK;
}

static uint64_t many_bytes(const cap_t *s)
{
    uint64_t t = 0;
    for (size_t i = 0; i < s->nmany; i++)
        t += s->many[i].bytes;
    return t;
}

/* A part that allocated no whole chunk has no point: said in results.skipped (alone, the run
 * is a skip, and this its reason). */
static void no_chunk(cap_t *s, const char *part, uint64_t chunk, const char *err)
{
    char why[ERRLEN + 96], a[32];
    snprintf(why, sizeof why, "no whole chunk of %s was allocated%s%.400s", sz(chunk, a),
             err[0] ? ": " : "", err);
    json_array_append_new(s->skipped, json_pack("{s:s, s:s}", "part", part, "reason", why));
}

static int part_total(cap_t *s, json_t *res, gmb_text_t *sm)
{
    uint64_t chunk = rdown(s->cfg->chunk, s->step);
    const char *stop;
    char err[ERRLEN], a[32], b[32];
    double *an = NULL, *tn = NULL;
    size_t n = 0, f0 = s->nfailed;
    int rc = chunks(s, "total", chunk, 0, &stop, err, sizeof err, &an, &tn, &n);
    uint64_t total = many_bytes(s);
    size_t nch = s->nmany;
    release_many(s);
    json_t *r =
        json_pack("{s:I, s:f, s:I, s:I, s:s, s:b}", "bytes", (json_int_t)total, "GiB",
                  (double)total / GIB, "chunks", (json_int_t)nch, "chunk_bytes", (json_int_t)chunk,
                  "stopped_by", stop, "capped", !strcmp(stop, "--limit"));
    json_object_set_new(r, "error", err[0] ? json_string(err) : json_null());
    json_object_set_new(res, "total", r);
    if (!rc && !n)
        no_chunk(s, "total", chunk, err);
    else if (!rc)
        series_point(s,
                     json_pack("{s:s, s:s, s:I}", "part", "total", "allocator", "device",
                               "size_bytes", (json_int_t)chunk),
                     an, tn, n, chunk, "every full chunk", s->nfailed == f0);
    free(an);
    free(tn);
    if (rc)
        return rc;
    printf("total   %s in %zu chunks of %s, stopped by %s%s%s\n", sz(total, a), nch, sz(chunk, b),
           stop, err[0] ? ": " : "", err);
    if (!total)
        return GMB_OK;
    char l[128];
    snprintf(l, sizeof l, "Total allocatable (chunks)%s",
             !strcmp(stop, "--limit") ? " (at least: capped by --limit)" : "");
    gmb_headline(s->c, &(gmb_headline_t){.label = l,
                                         .unit = "GiB",
                                         .higher = 1,
                                         .value = (double)total / GIB,
                                         .ci_lo = NAN,
                                         .ci_hi = NAN});
    gmb_text_add(sm, "%sTotal %s in %zu chunks of %s (stopped by %s).", sm->len ? " " : "",
                 sz(total, a), nch, sz(chunk, b), stop);
    return GMB_OK;
}

/* Why allocator k cannot run here ("" when it can); opens the pool for async. */
static const char *alloc_unusable(cap_t *s, int k, char *why, size_t len)
{
    const gmb_backend_t *be = s->be;
    why[0] = '\0';
    if (k == A_MANAGED && !(s->c->info.caps & GMB_CAP_MANAGED))
        snprintf(why, len, "%s", be->lacks(GMB_CAP_MANAGED));
    else if (k == A_ASYNC && (!(be->kind->traits & GMB_BE_LINKED) || !gmb_capacity_cuda_pool_open))
        snprintf(why, len, "%s is CUDA's stream-ordered allocator: %s has none", WHY_POOL,
                 be->kind->label);
    else if (k == A_ASYNC && !s->pool) {
        int rc = gmb_capacity_cuda_pool_open(s->c->info.index, why, len);
        s->pool = rc == GMB_OK;
        if (rc && !why[0])
            snprintf(why, len, "the pool could not be made");
    }
    return why;
}

/* The alloc part's point at the largest device size at most 1 GiB (the figure's) */
static int part_alloc(cap_t *s, json_t *res, gmb_text_t *sm)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = s->cfg;
    json_t *r = json_object(), *dropped = json_array(), *refused = json_array();
    json_object_set_new(res, "alloc", r);
    json_object_set_new(r, "left_out", dropped);
    json_object_set_new(r, "refused", refused);
    uint64_t host_cap = gmb_host_ram_bytes() / 4;
    json_t *fig = NULL;
    uint64_t fig_b = 0;
    int rc = GMB_OK, anyfail = 0;
    for (size_t ai = 0; ai < cfg->allocs.n && !rc; ai++) {
        int k = cfg->allocs.idx[ai];
        char why[ERRLEN];
        if (alloc_unusable(s, k, why, sizeof why)[0]) {
            printf("alloc   %-8s skipped: %s\n", alloc_names[k], why);
            json_array_append_new(s->skipped,
                                  json_pack("{s:s, s:s, s:s}", "part", "alloc", "allocator",
                                            alloc_names[k], "reason", why));
            continue;
        }
        uint64_t most = cfg->limit - s->held;
        if (k == A_PINNED && host_cap && host_cap < most)
            most = host_cap;
        const char *api = k == A_ASYNC ? WHY_POOL " (a pool of its own, cudaMemPoolCreate; its "
                                                  "release threshold the size measured)"
                                       : s->be->alloc_api(alloc_kinds[k]);
        s->plant = c->o.inject_error;
        for (size_t i = 0; i < cfg->sizes.n && !rc; i++) {
            uint64_t b = cfg->sizes.v[i];
            if (b > most) {
                char l[32];
                json_array_append_new(dropped,
                                      json_pack("{s:s, s:I, s:s}", "allocator", alloc_names[k],
                                                "size_bytes", (json_int_t)b, "reason",
                                                k == A_PINNED && most == host_cap
                                                    ? "above a quarter of the host's memory"
                                                    : "above --limit"));
                printf("alloc   %-8s %10s left out: above %s\n", alloc_names[k], sz(b, l),
                       k == A_PINNED && most == host_cap ? "a quarter of the host's memory"
                                                         : "--limit");
                continue;
            }
            char e[ERRLEN] = "";
            if (k == A_ASYNC) { /* the pool keeps one buffer of this size: held meanwhile */
                if ((rc = gmb_capacity_cuda_pool_keep(b, e, sizeof e))) {
                    gmb_error("%s", e);
                    break;
                }
                s->held += b;
                s->peak = s->held > s->peak ? s->held : s->peak;
            }
            am_t a = {.s = s, .alloc = k, .bytes = b, .touch = 1};
            json_t *pt = NULL;
            rc = measure_alloc(s, &a, "alloc", api, &pt);
            am_free(&a);
            if (k == A_ASYNC) {
                int trc = gmb_capacity_cuda_pool_trim(e, sizeof e);
                s->held -= b;
                if (trc && !rc) {
                    gmb_error("%s", e);
                    rc = trc;
                }
            }
            if (rc == GMB_EVERIFY) {
                anyfail = 1;
                rc = GMB_OK;
            } else if (rc == GMB_ERUNTIME && a.refused[0]) {
                char l[32];
                gmb_warn("alloc %s %s refused within --limit: %s (its larger sizes left out)",
                         alloc_names[k], sz(b, l), a.refused);
                json_array_append_new(refused,
                                      json_pack("{s:s, s:I, s:s}", "allocator", alloc_names[k],
                                                "size_bytes", (json_int_t)b, "error", a.refused));
                rc = GMB_OK;
                break;
            }
            if (!rc && pt && k == A_DEVICE && b <= (uint64_t)GIB && b >= fig_b) {
                fig = pt;
                fig_b = b;
            }
        }
    }
    if (rc)
        return rc;
    if (fig) {
        const json_t *m = json_object_get(json_object_get(fig, "metrics"), "alloc_us");
        char l[128], b[32];
        snprintf(l, sizeof l, "Device memory allocation time, %s", sz(fig_b, b));
        gmb_headline(c, &(gmb_headline_t){.label = l,
                                          .unit = "us",
                                          .higher = 0,
                                          .value = json_number_value(json_object_get(m, "median")),
                                          .ci_lo = json_number_value(json_object_get(m, "ci_lo")),
                                          .ci_hi = json_number_value(json_object_get(m, "ci_hi")),
                                          .points = (const json_t *const *)&fig,
                                          .npoints = 1});
        gmb_text_add(sm, "%sDevice allocation of %s: %.3g us.", sm->len ? " " : "", b,
                     json_number_value(json_object_get(m, "median")));
    }
    return anyfail ? GMB_EVERIFY : GMB_OK;
}

static int part_frag(cap_t *s, json_t *res, gmb_text_t *sm)
{
    const cfg_t *cfg = s->cfg;
    uint64_t nb = (uint64_t)cfg->frag_blocks;
    uint64_t block = rdown((cfg->limit - s->held) / nb, s->step);
    char a[32], b[32];
    size_t f0 = s->nfailed;
    json_t *r = json_pack("{s:I, s:I}", "blocks", (json_int_t)nb, "block_bytes", (json_int_t)block);
    json_object_set_new(res, "frag", r);
    if (!block) {
        char why[160];
        snprintf(why, sizeof why, "--limit / %llu blocks is below %s", (unsigned long long)nb,
                 sz(s->step, a));
        json_array_append_new(s->skipped, json_pack("{s:s, s:s}", "part", "frag", "reason", why));
        printf("frag    skipped: %s\n", why);
        return GMB_OK;
    }
    /* the contiguous case: the bound the holes will leave, nothing held */
    const char *by = "--limit";
    uint64_t keep = (nb + 1) / 2 * block, contig = 0, fragd = 0, resol = 0;
    uint64_t bound = cfg->limit - s->held > keep ? cfg->limit - s->held - keep : 0;
    if (s->c->info.max_alloc_bytes && s->c->info.max_alloc_bytes < bound) {
        bound = s->c->info.max_alloc_bytes;
        by = "the device's largest single allocation (max_alloc_bytes)";
    }
    bound = rdown(bound, s->step);
    s->plant = s->c->o.inject_error;
    int rc = bisect(s, "frag-contiguous", bound, &contig, &resol);
    if (rc)
        return rc;
    /* the blocks, every other one freed */
    s->many = calloc(nb, sizeof *s->many);
    double *an = calloc(nb, sizeof *an), *tn = calloc(nb, sizeof *tn);
    size_t n = 0;
    char err[ERRLEN] = "";
    if (!s->many || !an || !tn) {
        gmb_error("out of host memory");
        rc = GMB_ERUNTIME;
        goto done;
    }
    while (s->nmany < nb) {
        if (gmb_stop_signal()) {
            rc = GMB_EINTR;
            goto done;
        }
        double tt = 0;
        hbuf_t *h = &s->many[s->nmany];
        if (hold(s, GMB_MEM_DEVICE, block, 0, h, &an[n], err, sizeof err))
            break;  /* refused: err says how */
        s->nmany++; /* held: freed by release_many on every path */
        rc = touch_dev(s, h->b, block, &tt, err, sizeof err);
        if (rc == GMB_EVERIFY) {
            char what[96];
            snprintf(what, sizeof what, "frag block %zu (%s)", s->nmany, sz(block, a));
            failed(s, what, err);
            err[0] = '\0';
            rc = GMB_OK;
        } else if (rc)
            goto done;
        tn[n++] = tt;
    }
    size_t made = s->nmany;
    for (size_t i = 1; i < made; i += 2)
        release(s, &s->many[i]);
    uint64_t held_blocks = many_bytes(s);
    uint64_t fbound = bound_now(s, &by);
    fbound = fbound < bound ? fbound : bound; /* the same bound as the contiguous case */
    if (made == nb && (rc = bisect(s, "frag", fbound, &fragd, &resol)))
        goto done;
    json_object_set_new(r, "allocated", json_integer((json_int_t)made));
    json_object_set_new(r, "refused", err[0] ? json_string(err) : json_null());
    json_object_set_new(r, "held_bytes", jsize(held_blocks));
    json_object_set_new(r, "bound_bytes", jsize(bound));
    json_object_set_new(r, "bound_by", json_string(by));
    json_object_set_new(r, "resolution_bytes", jsize(resol));
    json_object_set_new(r, "contiguous_bytes", jsize(contig));
    json_object_set_new(r, "fragmented_bytes", jsize(fragd));
    int capped = fragd >= bound && !strcmp(by, "--limit");
    json_object_set_new(r, "capped", json_boolean(capped));
    double ratio = made == nb && contig ? (double)fragd / (double)contig : NAN;
    json_object_set_new(r, "ratio", ratio == ratio ? json_real(ratio) : json_null());
    series_point(s,
                 json_pack("{s:s, s:s, s:I, s:I}", "part", "frag", "allocator", "device",
                           "size_bytes", (json_int_t)block, "blocks", (json_int_t)nb),
                 an, tn, n, block, "every block", s->nfailed == f0);
    printf("frag    %llu blocks of %s, every other freed: largest %s against %s contiguous "
           "(bound %s)\n",
           (unsigned long long)made, sz(block, a), sz(fragd, b), sz(contig, (char[32]){0}),
           sz(bound, (char[32]){0}));
    if (ratio == ratio) {
        char l[160];
        snprintf(l, sizeof l,
                 "Fragmentation ratio (largest with every other block freed / "
                 "contiguous)%s",
                 capped ? " (at least: capped by --limit)" : "");
        gmb_headline(
            s->c,
            &(gmb_headline_t){
                .label = l, .unit = "x", .higher = 1, .value = ratio, .ci_lo = NAN, .ci_hi = NAN});
        gmb_text_add(sm,
                     "%sWith every other block of %s freed, the largest allocation was "
                     "%.3gx the contiguous case's.",
                     sm->len ? " " : "", sz(block, a), ratio);
    }
done:
    release_many(s);
    free(an);
    free(tn);
    return rc;
}

/* After everything is freed: a small allocation, touched and checked. *ok, and what happened
 * in why. 0 or GMB_EVERIFY (its check failed). */
static int usable(cap_t *s, int *ok, char *why, size_t len)
{
    hbuf_t h;
    double tt;
    uint64_t bytes =
        USABLE_B < s->cfg->limit - s->held ? USABLE_B : rdown(s->cfg->limit - s->held, WORD);
    int rc = hold(s, GMB_MEM_DEVICE, bytes, 0, &h, NULL, why, len);
    if (!rc) {
        rc = touch_dev(s, h.b, bytes, &tt, why, len);
        release(s, &h);
    }
    *ok = !rc;
    if (!rc) {
        char a[32];
        snprintf(why, len, "%s allocated, written and read back on the device", sz(bytes, a));
    } else if (rc != GMB_EVERIFY && !why[0])
        snprintf(why, len, "a launch failed (the backend's error is above)");
    return rc == GMB_EVERIFY ? rc : GMB_OK;
}

static int part_exhaust(cap_t *s, json_t *res, gmb_text_t *sm)
{
    const cfg_t *cfg = s->cfg;
    uint64_t chunk = rdown(cfg->chunk, s->step);
    const char *stop;
    char err[ERRLEN] = "", a[32], b[32];
    double *an = NULL, *tn = NULL, t0 = gmb_now_ns();
    size_t n = 0, f0 = s->nfailed;
    int rc = chunks(s, "exhaust", chunk, cfg->exhaust_cap_s, &stop, err, sizeof err, &an, &tn, &n);
    uint64_t held = many_bytes(s);
    size_t nch = s->nmany;
    json_t *r = json_pack("{s:I, s:I, s:I, s:s}", "chunk_bytes", (json_int_t)chunk, "chunks",
                          (json_int_t)nch, "held_bytes", (json_int_t)held, "stopped_by", stop);
    json_object_set_new(res, "exhaust", r);
    /* held at --limit (or the time cap) without a refusal: one allocation of the device's whole
     * memory, never touched, to hear the backend refuse (where it grants it, freed at once) */
    json_t *rf = NULL;
    if (!rc && strcmp(stop, "refused")) {
        uint64_t ask = s->c->info.mem_bytes ? s->c->info.mem_bytes : cfg->limit + s->step;
        gmb_buf_t *x = NULL;
        char why[ERRLEN] = "";
        double q0 = gmb_now_ns();
        int arc = s->be->alloc_quiet(s->c->dev, GMB_MEM_DEVICE, (size_t)ask, GMB_ALLOC_UNTOUCHED,
                                     &x, why, sizeof why);
        double qms = (gmb_now_ns() - q0) / 1e6;
        if (!arc) { /* granted (lazily): never touched, given back at once */
            s->be->free(x);
            snprintf(why, sizeof why, "granted untouched (freed at once, never used)");
        } else
            gmb_strlcpy(err, why, sizeof err);
        rf = json_pack("{s:s, s:I, s:I, s:b, s:s, s:f}", "asked",
                       "one allocation of the device's whole memory (mem_bytes), untouched, while "
                       "holding the chunks",
                       "size_bytes", (json_int_t)ask, "holding_bytes", (json_int_t)held, "refused",
                       arc != GMB_OK, "error", why, "time_ms", qms);
    }
    json_object_set_new(r, "refusal_probe", rf ? rf : json_null());
    json_object_set_new(r, "error", err[0] ? json_string(err) : json_null());
    json_object_set_new(r, "refused_by",
                        json_string(!strcmp(stop, "refused") ? "a chunk"
                                    : rf && json_is_true(json_object_get(rf, "refused"))
                                        ? "the refusal probe"
                                        : "nothing"));
    release_many(s);
    if (!rc && !n)
        no_chunk(s, "exhaust", chunk, err);
    else if (!rc)
        series_point(s,
                     json_pack("{s:s, s:s, s:I}", "part", "exhaust", "allocator", "device",
                               "size_bytes", (json_int_t)chunk),
                     an, tn, n, chunk, "every full chunk", s->nfailed == f0);
    free(an);
    free(tn);
    if (rc)
        return rc;
    int ok = 0;
    char uw[ERRLEN] = "";
    int urc = usable(s, &ok, uw, sizeof uw);
    if (urc == GMB_EVERIFY)
        failed(s, "exhaust: the check after it", uw);
    json_object_set_new(r, "usable_after", json_boolean(ok));
    json_object_set_new(r, "usable_check", json_string(uw));
    json_object_set_new(r, "time_s", json_real((gmb_now_ns() - t0) / 1e9));
    printf("exhaust %s in %zu chunks of %s, stopped by %s; refusal: %s; usable after: %s\n",
           sz(held, a), nch, sz(chunk, b), stop, err[0] ? err : "none", ok ? "yes" : "no");
    if (!ok)
        gmb_warn("exhaust: the device did not work after it: %s", uw);
    gmb_text_add(sm, "%sExhaustion (chunks stopped by %s): %s; the device %s after it.",
                 sm->len ? " " : "", stop, err[0] ? err : "no refusal",
                 ok ? "worked" : "did not work");
    return urc;
}

/* ---- memory before and after ------------------------------------------------------------- */

static json_t *json_mem(cap_t *s)
{
    json_t *o = json_object();
    uint64_t fb = 0;
    int rc = s->be->mem_free(s->c->dev, &fb);
    json_object_set_new(o, "backend_free_bytes", rc ? json_null() : jsize(fb));
    if (rc)
        json_object_set_new(o, "backend_free_why",
                            json_string(rc == GMB_ESKIP ? "the backend cannot tell (no API)"
                                                        : "the backend's query failed"));
    gmb_nvml_mem_t m;
    gmb_nvml_mem(s->c->info.pci_bus_id, &m);
    json_object_set_new(o, "nvml",
                        m.available
                            ? json_pack("{s:b, s:I, s:I, s:I}", "available", 1, "total_bytes",
                                        (json_int_t)m.total, "free_bytes", (json_int_t)m.free,
                                        "used_bytes", (json_int_t)m.used)
                            : json_pack("{s:b, s:s}", "available", 0, "why", m.why));
    return o;
}

/* ---- the options against the device ------------------------------------------------------- */

static int capacity_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_dev_info_t *d = &c->info;
    uint64_t host = gmb_host_ram_bytes();
    int gpu = !strcmp(d->type, "gpu");
    char a[32], b[32];
    /* the free memory now: the backend's, else NVML's */
    uint64_t fb = 0;
    gmb_nvml_mem_t m = {0};
    cfg->free0 = 0;
    if (!c->be->mem_free(c->dev, &fb) && fb) {
        cfg->free0 = fb;
        snprintf(cfg->free0_from, sizeof cfg->free0_from, "the backend (%s)", c->be->kind->label);
    } else if (gmb_nvml_mem(d->pci_bus_id, &m)) {
        cfg->free0 = m.free;
        snprintf(cfg->free0_from, sizeof cfg->free0_from, "NVML");
    } else
        snprintf(cfg->free0_from, sizeof cfg->free0_from,
                 "unknown: the backend cannot tell, and %.256s", m.why);
    if (cfg->limit) {
        if (!gpu && host && cfg->limit > host) {
            gmb_error("--limit %s is above this host's memory (%s): a %s device's memory is the "
                      "host's",
                      sz(cfg->limit, a), sz(host, b), d->type);
            return GMB_EUSAGE;
        }
        if (d->mem_bytes && cfg->limit > d->mem_bytes) {
            gmb_error("--limit %s is above the device's memory (%s)", sz(cfg->limit, a),
                      sz(d->mem_bytes, b));
            return GMB_EUSAGE;
        }
        snprintf(cfg->limit_from, sizeof cfg->limit_from, "--limit");
        if (gpu && cfg->free0 && cfg->limit > cfg->free0)
            gmb_warn("--limit %s is above the device's free memory (%s)", sz(cfg->limit, a),
                     sz(cfg->free0, b));
    } else if (!gpu) {
        uint64_t base = host ? host : d->mem_bytes;
        cfg->limit = base / 4;
        snprintf(cfg->limit_from, sizeof cfg->limit_from, "a quarter of the %s's memory (%s)",
                 host ? "host" : "device", sz(base, a));
    } else {
        uint64_t base = cfg->free0 ? cfg->free0 : d->mem_bytes;
        if (!cfg->margin) {
            cfg->margin = d->mem_bytes / 20;
            cfg->margin = cfg->margin > MIN_MARG ? cfg->margin : MIN_MARG;
        }
        if (base <= cfg->margin) {
            gmb_skip("the GPU has %s free, no more than --margin %s: nothing to hold safely",
                     sz(base, a), sz(cfg->margin, b));
            return GMB_ESKIP;
        }
        cfg->limit = base - cfg->margin;
        snprintf(cfg->limit_from, sizeof cfg->limit_from, "the %s (%s, from %s) less --margin %s",
                 cfg->free0 ? "free memory" : "device's memory (its free memory unknown)",
                 sz(base, a), cfg->free0 ? cfg->free0_from : "the backend", sz(cfg->margin, b));
    }
    cfg->limit = rdown(cfg->limit, PAGE);
    if (cfg->limit < PAGE) {
        gmb_error("--limit: at least 4 KiB");
        return GMB_EUSAGE;
    }
    if (!gmb_sweep_round(&cfg->sizes, WORD)) {
        gmb_error("--sizes: no size of a whole 4-byte word");
        return GMB_EUSAGE;
    }
    if (cfg->refuse_above)
        gmb_warn("test aid --refuse-above %s: larger allocations are refused unasked",
                 sz(cfg->refuse_above, a));
    cfg->chunk = rdown(cfg->chunk, PAGE);
    if (cfg->chunk > cfg->limit)
        cfg->chunk = cfg->limit;
    int chunked = 0; /* total or exhaust asked for */
    for (size_t i = 0; i < cfg->parts.n; i++)
        chunked |= cfg->parts.idx[i] == P_TOTAL || cfg->parts.idx[i] == P_EXHAUST;
    if (chunked && cfg->limit / cfg->chunk > MAX_CHUNKS) {
        gmb_error("--chunk %s: more than %u chunks of --limit %s (a larger --chunk)",
                  sz(cfg->chunk, a), MAX_CHUNKS, sz(cfg->limit, b));
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

/* ---- the run ------------------------------------------------------------------------------ */

static int has_part(const cfg_t *cfg, int p)
{
    for (size_t i = 0; i < cfg->parts.n; i++)
        if (cfg->parts.idx[i] == p)
            return 1;
    return 0;
}

static int capacity_run(gmb_ctx_t *c)
{
    const cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    cap_t s = {.c = c, .cfg = cfg, .be = be, .seed = (gmb_u32)c->o.seed};
    s.step = c->info.alloc_granularity_bytes > PAGE ? c->info.alloc_granularity_bytes : PAGE;
    s.probes = json_array();
    s.failures = json_array();
    s.skipped = json_array();
    json_t *res = json_object();
    gmb_text_t sm = {{0}, 0};
    char a[32];
    int rc = GMB_OK, vfail = 0;
    json_object_set_new(res, "limit",
                        json_pack("{s:I, s:s, s:I}", "bytes", (json_int_t)cfg->limit, "from",
                                  cfg->limit_from, "step_bytes", (json_int_t)s.step));
    json_object_set_new(res, "mem_before", json_mem(&s));
    gmb_declare_metric(c, "alloc_us", "us", "lower", "host time of the allocation call");
    gmb_declare_metric(c, "free_us", "us", "lower", "host time of the free call");
    gmb_declare_metric(c, "touch_us", "us", "lower",
                       "host time of the first touch: every word written (a kernel; pinned host "
                       "memory: the host)");
    gmb_declare_metric(c, "touch_GBps", "GB/s", "higher", "bytes / first-touch time");
    if ((rc = be->prog_load(c->dev, c->bench->kernels, variants[0].variant, &s.prog)) ||
        (rc = be->kern_get(s.prog, "cap_touch", &s.touch)) ||
        (rc = be->kern_get(s.prog, "cap_check", &s.check)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, 4 * sizeof(gmb_u32), &s.res.b)))
        goto out;
    printf("# gmb-capacity: %s device %d: %s (%s); --limit %s (%s)\n", be->kind->name,
           c->info.index, c->info.name, c->info.type, sz(cfg->limit, a), cfg->limit_from);
    printf("%-7s %-8s %10s %12s %12s %12s %4s %s\n", "part", "alloc", "size", "alloc_us",
           "touch_us", "free_us", "n", "verified");
    static int (*const parts[NPARTS])(cap_t *, json_t *, gmb_text_t *) = {
        part_largest, part_total, part_alloc, part_frag, part_exhaust};
    for (int p = 0; p < NPARTS && !rc; p++) { /* in this order: exhaust last */
        if (!has_part(cfg, p))
            continue;
        if (gmb_stop_signal()) {
            rc = GMB_EINTR;
            break;
        }
        rc = parts[p](&s, res, &sm);
        if (rc == GMB_EVERIFY) {
            vfail = 1;
            rc = GMB_OK;
        }
    }
    if (!rc && (vfail || s.nfailed))
        rc = GMB_EVERIFY;
out:
    release_many(&s);
    if (s.pool)
        gmb_capacity_cuda_pool_close();
    be->free(s.res.b); /* the check's 16 bytes: outside the parts' --limit */
    if (s.prog && be->prog_free)
        be->prog_free(s.prog);
    json_object_set_new(res, "mem_after", json_mem(&s));
    json_object_set_new(res, "probes", s.probes);
    json_object_set_new(res, "failures", s.failures);
    json_object_set_new(res, "held",
                        json_pack("{s:I, s:I, s:I, s:I}", "peak_bytes", (json_int_t)s.peak,
                                  "at_end_bytes", (json_int_t)s.held, "allocations",
                                  (json_int_t)s.nalloc, "frees", (json_int_t)s.nfree));
    json_object_set_new(res, "skipped", s.skipped);
    const char *k;
    json_t *v;
    json_object_foreach(res, k, v) gmb_add_result(c, k, json_incref(v));
    json_decref(res);
    if (s.held) {
        gmb_error("%s still held at the end (a bug of gmb-capacity)", sz(s.held, a));
        rc = rc ? rc : GMB_ERUNTIME;
    }
    gmb_summary(c, "# capacity: ", NULL, sm.text, "nothing measured.");
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "capacity",
    .summary = "how much memory a device gives: largest allocation, total, allocation and free "
               "time by size and allocator, fragmentation, exhaustion",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = capacity_run,
    .check = capacity_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
