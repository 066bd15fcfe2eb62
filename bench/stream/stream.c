/* stream.c - gmb-stream: streaming bandwidth (read, fill, copy, scale, add, triad, dot)
 * over array sizes from cache-resident to DRAM, 4/8/16-byte accesses, every result verified. */
#include "kernels/gmb_kernels.h"
#include "harness.h"
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {
    {"w4", "-DGMB_LANES=1"},
    {"w8", "-DGMB_LANES=2"},
    {"w16", "-DGMB_LANES=4"},
    {"w16p", "-DGMB_LANES=4"}, /* CUDA: --l2-prefetch (never loaded on OpenCL) */
    {"w16a", "-DGMB_LANES=4"}, /* CUDA: --asm-loads, its control (never loaded on OpenCL) */
    {"w16s", "-DGMB_LANES=4"}, /* CUDA: --evict-first stores (never loaded on OpenCL) */
    {"w16e", "-DGMB_LANES=4"}, /* CUDA: --evict-first all (never loaded on OpenCL) */
    {"w16t", "-DGMB_LANES=4 -DGMB_TILED=1"},   /* the tiled element-wise kernels */
    {"w16d", "-DGMB_LANES=4 -DGMB_DYNAMIC=1"}, /* the dynamic layout: chunks claimed */
    {"w16l", "-DGMB_LANES=4 -DGMB_TILED=1 -DGMB_LOCKSTEP=1"}, /* tiled, a barrier a tile */
    {"w16f1", "-DGMB_LANES=4 -DGMB_FLAT=1"},                  /* flat: one pass, no loop */
    {"w16f4", "-DGMB_LANES=4 -DGMB_FLAT=4"},
    {"w16f16", "-DGMB_LANES=4 -DGMB_FLAT=16"},
    {"w16f64", "-DGMB_LANES=4 -DGMB_FLAT=64"},
    {NULL, NULL},
};

/* The kernels: bytes moved per element = (reads + writes) x width. */
typedef struct kinfo {
    const char *name;    /* option value */
    const char *kernel;  /* kernel function */
    int reduce;          /* 1: writes per-group partial sums, not an array */
    int reads, writes;   /* arrays read and written per element */
    const char *formula; /* what it computes */
} kinfo_t;

static const kinfo_t K[] = {
    {"read", "stream_read", 1, 1, 0, "sum += a[i]"},
    {"fill", "stream_fill", 0, 0, 1, "c[i] = s + (i mod 65536)"},
    {"copy", "stream_copy", 0, 1, 1, "c[i] = a[i]"},
    {"scale", "stream_scale", 0, 1, 1, "c[i] = s * a[i]"},
    {"add", "stream_add", 0, 2, 1, "c[i] = a[i] + b[i]"},
    {"triad", "stream_triad", 0, 2, 1, "c[i] = a[i] + s * b[i]"},
    {"dot", "stream_dot", 1, 2, 0, "sum += a[i] * b[i]"},
};
#define NK ((int)(sizeof K / sizeof K[0]))
static const char *const kernel_names[] = {"read", "fill",  "copy", "scale",
                                           "add",  "triad", "dot",  NULL};
static const char *const width_names[] = {"4", "8", "16", NULL};
static const int width_bytes[] = {4, 8, 16};

typedef struct cfg {
    gmb_sweep_t sizes;    /* bytes per array */
    gmb_list_t kernels;   /* indices into K */
    gmb_list_t widths;    /* indices into width_bytes */
    long group_size;      /* work-items per group; 0: 256 (or the device's maximum) */
    long groups_per_cu;   /* groups per compute unit; 0: fill every CU's thread slots */
    double min_sample_us; /* shortest sample: cache-sized arrays repeat in-kernel up to it */
    int l2_prefetch;      /* CUDA: loads with the L2::256B prefetch hint */
    int asm_loads;        /* CUDA: the same inline-PTX loads without the hint (the control) */
    const char *evict;    /* CUDA: "stores" or "all" accesses with the evict-first hint */
    int tiled;            /* the tiled layout of the element-wise kernels */
    int dynamic;          /* the dynamic layout: groups claim chunks from a counter */
    int lockstep;         /* the lockstep layout: tiled, a group barrier after each tile */
    long flat;            /* > 0: the flat layout, flat elements a work-item (1, 4, 16, 64) */
    int no_tune;          /* no tuning of layout and occupancy */
    int tune;             /* tuning on any device, at any largest size */
    double energy_s;      /* > 0: board energy per byte, each kernel streaming this long */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const char *const evict_choices[] = {"stores", "all", NULL};
static const gmb_opt_t opts[] = {
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", NULL, 16, 0x1p62, NULL,
     "bytes per array: sizes, ranges A:B[:x2|:+S|:N/oct] [default 4KiB:min(2GiB,mem/4):x2; a CPU: "
     "to 16x its last-level cache, 256 MiB at least]",
     0},
    {"kernels", GMB_OPT_LIST, O(kernels), "LIST", "all", 1, 0, kernel_names,
     "kernels to run, comma-separated", 0},
    {"widths", GMB_OPT_LIST, O(widths), "LIST", "16", 1, 0, width_names,
     "bytes per access (float, float2, float4), comma-separated", 0},
    {"group-size", GMB_OPT_INT, O(group_size), "N", "0", 0, 1024, NULL,
     "work-items per group, a power of two; 0 = 256 or the device maximum", 0},
    {"groups-per-cu", GMB_OPT_INT, O(groups_per_cu), "N", "0", 0, 1024, NULL,
     "groups per compute unit; 0 = as many as fit (GPU) or 4 (CPU)", 0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "1000", 1, 1e7, NULL,
     "shortest timed sample; small arrays repeat in-kernel to reach it (a launch's own "
     "latency, inside the events, then weighs little)",
     0},
    {"l2-prefetch", GMB_OPT_FLAG, O(l2_prefetch), NULL, NULL, 1, 0, NULL,
     "CUDA, 16-byte accesses: input loads ask L2 to fetch 256-byte blocks (PTX "
     "ld.global.nc.L2::256B; compute capability 8.0 on, skipped below)",
     0},
    {"asm-loads", GMB_OPT_FLAG, O(asm_loads), NULL, NULL, 1, 0, NULL,
     "CUDA, 16-byte accesses: the inputs through the same inline-PTX loads as --l2-prefetch, "
     "without the hint (its A/B control: the same SASS schedule)",
     0},
    {"dynamic", GMB_OPT_FLAG, O(dynamic), NULL, NULL, 1, 0, NULL,
     "16-byte accesses: every kernel in the dynamic layout (a resident grid whose groups claim "
     "chunks of 16 x group size elements from a counter until none is left); no tuning",
     0},
    {"tiled", GMB_OPT_FLAG, O(tiled), NULL, NULL, 1, 0, NULL,
     "16-byte accesses: the element-wise kernels in the tiled layout (groups take tiles of 4 x "
     "group size elements in turn) instead of grid-stride; no tuning",
     0},
    {"lockstep", GMB_OPT_FLAG, O(lockstep), NULL, NULL, 1, 0, NULL,
     "16-byte accesses: every kernel in the lockstep layout (the tiled layout's tiles, a group "
     "barrier after each; see Tuning below); no tuning",
     0},
    {"flat", GMB_OPT_INT, O(flat), "J", "0", 0, 64, NULL,
     "16-byte accesses: every kernel in the flat layout, J = 1, 4, 16 or 64 elements a "
     "work-item (one pass, repeated by launches; see Tuning below); 0 = off; no tuning",
     0},
    {"no-tune", GMB_OPT_FLAG, O(no_tune), NULL, NULL, 1, 0, NULL,
     "no tuning: every kernel grid-stride with the most resident groups (see Tuning below)", 0},
    {"tune", GMB_OPT_FLAG, O(tune), NULL, NULL, 1, 0, NULL,
     "tuning (the default since every device type is tuned; kept for older command lines)", 0},
    {"evict-first", GMB_OPT_STR, O(evict), "WHICH", NULL, 0, 0, evict_choices,
     "CUDA, 16-byte accesses: stores (st.global.cs) or all accesses (and ld.global.cs loads) "
     "with the evict-first streaming hint [default: none]",
     0},
    {"energy", GMB_OPT_DOUBLE, O(energy_s), "S", NULL, 0.1, 600, NULL,
     "after the sweep, each kernel streams its best point for S seconds while NVML's "
     "board energy counter runs: power and energy per byte (NVIDIA, Volta on) [default off]",
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Kernels and bytes counted per element (w = access width in bytes; reductions write one\n"
    "float per work-group, not counted):\n"
    "  read   sum += a[i]              1 x w   (pure read)\n"
    "  fill   c[i] = s + (i mod 65536) 1 x w   (pure write, non-constant data)\n"
    "  copy   c[i] = a[i]              2 x w\n"
    "  scale  c[i] = s * a[i]          2 x w\n"
    "  add    c[i] = a[i] + b[i]       3 x w\n"
    "  triad  c[i] = a[i] + s * b[i]   3 x w\n"
    "  dot    sum += a[i] * b[i]       2 x w\n"
    "Bandwidth is bytes counted / median kernel time, in GB/s (1e9 B/s); writes are counted\n"
    "once (no write-allocate reads). Inputs are pseudo-random floats in [1,2); every point is\n"
    "verified on the host (all elements up to 32 MiB per array, 8 chunks beyond).\n"
    "where: the bytes a repetition moves against the device's last-level cache (LLC): cache\n"
    "(<= LLC), transition, dram (>= 4x LLC). A work-item always owns the same elements and small\n"
    "sets repeat in the kernel, so 'cache' is a compute unit's own L1 before it is the LLC "
    "(gmb-l2\n"
    "measures the L2 with L1 bypassed). Each kernel's best DRAM figure (results.best) is taken\n"
    "from 16x the LLC on (tier 2: at most 1/16 of a repetition's bytes fits in the cache), else\n"
    "from 4x (tier 1), else from the cache points (tier 0, dram false).\n"
    "Tuning (every device type; 16-byte accesses; no --group-size, --groups-per-cu, --tiled,\n"
    "--dynamic, --lockstep, --flat or cache hint): the device first streams until its clocks\n"
    "have settled (its rate stops rising: 0.2 to 2 s); then, before its sweep, each kernel is\n"
    "timed (the faster of 2 samples, timed as the sweep times them, groups of 256 work-items;\n"
    "then its 3\n"
    "fastest candidates and the reference shape, flat 1 (flat 64 for the reductions), 3\n"
    "samples each, in turns: the best median wins) in two classes of\n"
    "points: past the last-level cache (transition and DRAM-sized) at the smallest DRAM-sized\n"
    "size, the others at the largest whose repetition fills at most half the last-level cache.\n"
    "Candidates, resident grids (each\n"
    "work-item looping over the array, repeated in-kernel): grid-stride with the most resident\n"
    "groups, 4 and 2 per compute unit; the same in the tiled layout (element-wise kernels),\n"
    "the lockstep layout and the dynamic layout. One-pass grids (DRAM-sized points only: they\n"
    "cannot repeat in-kernel): grid-stride of 1, 2, 4, 8, 16 or 64 elements a work-item (as\n"
    "many groups as that takes: past what the device holds, waves of groups), tiled and lockstep\n"
    "from 4. The flat layout (both classes): one pass of J elements a work-item, J = 1, 4, 16\n"
    "(element-wise; 1 is BabelStream's shape) or 4, 16, 64 (reductions), in groups of 256 and,\n"
    "where the device takes more, of 1024 (or its most), repeated by launches\n"
    "back to back, timed as one span (the gaps between launches included). The fastest runs\n"
    "its class's points (a one-pass choice keeps its elements a work-item at each size;\n"
    "results.tuning.KERNEL.dram and .cache: every candidate; each point's extra.layout and\n"
    "params.groups). --no-tune: every point resident grid-stride with the most groups.\n"
    "The lockstep layout (--lockstep, and tuning): the tiled layout's tiles of 4 x group size\n"
    "elements, a group barrier after each: an implementation that runs a group's work-items\n"
    "as a loop (PoCL on a CPU) then makes each tile one vector loop over consecutive\n"
    "work-items, not a strided walk per work-item. The flat layout (--flat J, and tuning):\n"
    "group g takes the J x group size elements from g x J x group size, no loop.\n"
    "The dynamic layout (--dynamic, and tuning): a resident grid whose groups claim chunks of\n"
    "16 x group size elements from a counter until none is left, so that no group idles while\n"
    "others finish a fixed share (an H200 read 97.5% of its peak so, 96.3% at best with a\n"
    "fixed grid); the reductions are checked against the chunks each group took.\n"
    "--energy S (NVIDIA): the board's total energy counter (NVML) is read where it steps,\n"
    "around S idle seconds (the idle power), then around S seconds of each kernel streaming\n"
    "its best point (results.best: DRAM, else the cache, marked dram false) back to back in\n"
    "launches of ~0.2 s (output poisoned before, verified after); the idle tail between the\n"
    "last launch and the counter's next step is counted at the idle power of its time (below)\n"
    "and taken out.\n"
    "Reported: board power, energy per byte and per bit moved (pJ), the same above the idle\n"
    "power at the kernel's time (linear between S idle seconds before and S after the\n"
    "kernels), the counter's step, clocks and throttling after each interval. It is the whole\n"
    "board's energy (memory, SMs, L2, fabric, regulators; other work on the GPU too) per\n"
    "byte the kernel counts, not the DRAM's own.\n";

#define SEED_A(c)   ((gmb_u32)(c)->o.seed * 2u + 1u)
#define SEED_B(c)   ((gmb_u32)(c)->o.seed * 2u + 2u)
#define SCALAR      3.0f
#define FULL_VERIFY (32u << 20) /* bytes per array verified entirely */
/* The inputs' length: the flat reductions' last tile (J x group size 16-byte elements, J <= 64,
 * group size a power of two <= 1024: a tile divides 1 MiB) reads on to the end of its tile
 * (read, not added: no bounds test in the kernel, see stream.cl), so the input buffers are the
 * largest array rounded up to whole MiB (no padding for a size of whole MiB, as 1 GiB on a
 * device that allows 1 GiB a buffer) */
#define FLAT_PAD      (64u * 1024u * 16u)
#define IN_BYTES(top) (((top) + FLAT_PAD - 1) / FLAT_PAD * FLAT_PAD)
#define CHUNKS        8
#define CHUNK_BYTES   (256u << 10)

/* A kernel's shape: what tuning chooses for a class of points */
typedef struct choice {
    gmb_kern_t *k;      /* NULL: not tuned (the resident grid-stride grid) */
    long per_cu, epi;   /* groups per compute unit, or elements a work-item of a one-pass grid */
    int flat;           /* the flat layout's elements a work-item (0: another layout) */
    const char *layout; /* its name */
    long group;         /* work-items a group (0: --group-size's) */
} choice_t;

typedef struct state {
    gmb_ctx_t *c;       /* the run */
    gmb_buf_t *a, *b;   /* inputs */
    gmb_buf_t *out;     /* element-wise output */
    gmb_buf_t *part;    /* per-group partial sums of the reductions */
    gmb_kern_t *k;      /* kernel of the current point */
    gmb_launch_t geo;   /* its launch */
    int reduce;         /* 1 for read and dot */
    int lanes;          /* floats per element (width / 4) */
    gmb_u64 n;          /* elements of the current point */
    gmb_u32 reps;       /* in-kernel repetitions per sample */
    int one_pass;       /* the grid is more than the device holds at once: no in-kernel reps */
    long per_cu;        /* groups per compute unit: the tuned choice, else --groups-per-cu */
    long epi;           /* > 0: a one-pass grid of epi elements a work-item (tuning), not per_cu */
    int flat;           /* > 0: the flat layout, flat elements a work-item: reps are launches */
    const char *layout; /* "grid-stride", "tiled", "lockstep", "flat" or "dynamic" */
    long group;         /* work-items a group: the tuned choice, else --group-size (0: default) */
    gmb_buf_t *ctr;     /* the dynamic layout's claim counter (zeroed before each launch) */
    gmb_buf_t *owner;   /* owner[t]: the group that took claim t */
    size_t owner_cap;   /* claims owner holds */
    choice_t ch[2];     /* the tuned choice of cache-sized (0) and DRAM-sized (1) points */
    int warmed;         /* the device has streamed long enough for its clocks to settle */
} state_t;

/* The class of a point whose repetition moves rep bytes: 1 past the last-level cache
 * (DRAM-sized and transition points: DRAM serves most of them), 0 within it or unknown */
static int past_llc(const gmb_dev_info_t *d, uint64_t rep)
{
    return d->llc_bytes && rep > d->llc_bytes;
}

/* The current kernel is the dynamic layout's (it takes the counter and the owners) */
static int is_dyn(const state_t *s)
{
    return s->layout && !strcmp(s->layout, "dynamic");
}

static int sample(void *arg, double *ns)
{
    state_t *s = arg;
    const gmb_backend_t *be = s->c->be;
    float sc = SCALAR;
    int rc;
    /* the dynamic layout: the counter zeroed (before the launch, outside its timing) */
    if (is_dyn(s) && (rc = be->fill(s->ctr, 0, 0, sizeof(gmb_u32))))
        return rc;
    gmb_arg_t ar[] = {GMB_A_BUF(s->a),    GMB_A_BUF(s->b),   GMB_A_BUF(s->part), GMB_A_VAL(s->n),
                      GMB_A_VAL(s->reps), GMB_A_BUF(s->ctr), GMB_A_BUF(s->owner)};
    gmb_arg_t ae[] = {GMB_A_BUF(s->a), GMB_A_BUF(s->b),    GMB_A_BUF(s->out), GMB_A_VAL(s->n),
                      GMB_A_VAL(sc),   GMB_A_VAL(s->reps), GMB_A_BUF(s->ctr), GMB_A_BUF(s->owner)};
    gmb_arg_t *av = s->reduce ? ar : ae;
    int nargs = (s->reduce ? 5 : 6) + (is_dyn(s) ? 2 : 0);
    if (!s->flat || s->reps == 1)
        return be->launch(s->k, &s->geo, av, nargs, ns);
    /* the flat layout: reps launches of one pass each, back to back, timed as one span (the
     * gaps between them included; the kernels ignore reps) */
    double t0, t1;
    if ((rc = be->span_begin(s->c->dev, 0)))
        return rc;
    for (gmb_u32 r = 0; r < s->reps && !rc; r++)
        rc = be->launch_async(s->k, 0, &s->geo, av, nargs);
    int rc2 = be->span_end(s->c->dev, 0);
    int rc3 = be->span_wait(s->c->dev, 0, &t0, &t1);
    rc = rc ? rc : rc2 ? rc2 : rc3;
    if (!rc && ns)
        *ns = t1 - t0;
    return rc;
}

/* Expected value of scalar j of an element-wise kernel's output. */
static float expect(const kinfo_t *k, gmb_u32 sa, gmb_u32 sb, gmb_u64 j)
{
    const float s = SCALAR;
    if (!strcmp(k->name, "fill"))
        return s + (float)((gmb_u32)j & 0xffffu);
    float a = gmb_rand_float(sa, j);
    if (!strcmp(k->name, "copy"))
        return a;
    if (!strcmp(k->name, "scale"))
        return s * a;
    float b = gmb_rand_float(sb, j);
    if (!strcmp(k->name, "add"))
        return a + b;
    return a + s * b; /* triad */
}

/* Check scalars [j0, j0+m) of an element-wise output against the host. */
static int check_span(const state_t *s, const kinfo_t *k, const float *got, gmb_u64 j0, size_t m,
                      char *err, size_t errlen)
{
    gmb_u32 sa = SEED_A(s->c), sb = SEED_B(s->c);
    for (size_t q = 0; q < m; q++) {
        float e = expect(k, sa, sb, j0 + q);
        /* fma contraction may round a + s*b once instead of twice: allow 4 ulp */
        if (!(fabsf(got[q] - e) <= 0x1p-21f * fabsf(e))) {
            snprintf(err, errlen, "element %llu: got %.9g, expected %.9g",
                     (unsigned long long)(j0 + q), got[q], e);
            return GMB_EVERIFY;
        }
    }
    return GMB_OK;
}

static int verify_elementwise(state_t *s, const kinfo_t *k, char *err, size_t errlen,
                              const char **how)
{
    const gmb_backend_t *be = s->c->be;
    size_t bytes = (size_t)s->n * (size_t)s->lanes * sizeof(float);
    size_t span = bytes <= FULL_VERIFY ? bytes : CHUNK_BYTES;
    float *buf = malloc(span);
    if (!buf)
        return GMB_ERUNTIME;
    int rc = GMB_OK;
    *how = bytes <= FULL_VERIFY ? "full" : "sampled";
    int chunks = bytes <= FULL_VERIFY ? 1 : CHUNKS;
    size_t nchunk = bytes / CHUNK_BYTES;
    for (int ch = 0; ch < chunks && !rc; ch++) {
        size_t off = 0; /* first chunk, last chunk, random chunks between */
        if (chunks > 1 && ch == chunks - 1)
            off = bytes - span;
        else if (chunks > 1 && ch > 0)
            off = (size_t)(gmb_hash(SEED_A(s->c) + 7u, (gmb_u64)ch) % nchunk) * CHUNK_BYTES;
        if ((rc = be->read(s->out, off, buf, span)))
            break;
        rc = check_span(s, k, buf, off / sizeof(float), span / sizeof(float), err, errlen);
    }
    free(buf);
    return rc;
}

/* Sum of the terms of element i (its lanes) on the host, in double. */
static double term(const kinfo_t *k, gmb_u32 sa, gmb_u32 sb, gmb_u64 i, int lanes)
{
    double t = 0;
    for (int l = 0; l < lanes; l++) {
        gmb_u64 j = i * (gmb_u64)lanes + (gmb_u64)l;
        float a = gmb_rand_float(sa, j);
        t += k->reads == 2 ? (double)(a * gmb_rand_float(sb, j)) : (double)a;
    }
    return t;
}

#define DYN_J              16 /* the dynamic layout's elements a work-item per chunk (stream.cl) */
#define FLAT_MOST_LAUNCHES 4096.0 /* the flat layout's repetitions: launches in a sample */

/* Claims of a dynamic-layout launch of the current point: chunks x reps */
static uint64_t dyn_claims(const state_t *s, gmb_u32 reps)
{
    uint64_t CL = (uint64_t)DYN_J * s->geo.group_size;
    return (s->n + CL - 1) / CL * reps;
}

/* The dynamic layout's reductions: every claim taken by a group of the grid; the partial sums
 * of the first, the last and two random groups (every group up to FULL_VERIFY bytes), each
 * recomputed from the chunks that group took (owner[]). */
static int verify_reduce_dyn(state_t *s, const kinfo_t *k, char *err, size_t errlen,
                             const char **how)
{
    size_t groups = s->geo.groups, L = s->geo.group_size;
    uint64_t CL = (uint64_t)DYN_J * L, n = s->n, nc = (n + CL - 1) / CL;
    uint64_t total = dyn_claims(s, s->reps);
    gmb_u32 sa = SEED_A(s->c), sb = SEED_B(s->c);
    int full = n * (gmb_u64)s->lanes <= FULL_VERIFY / sizeof(float);
    size_t check[4] = {0, groups - 1, gmb_hash(sa, 11) % groups, gmb_hash(sa, 13) % groups};
    size_t ncheck = full ? groups : 4;
    float *got = malloc(groups * sizeof *got);
    gmb_u32 *own = malloc(total * sizeof *own);
    double *chunk = malloc(nc * sizeof *chunk);    /* each chunk's sum, NAN until needed */
    double *exp = calloc(groups, sizeof *exp);     /* a checked group's chunks, summed */
    uint64_t *mine = calloc(groups, sizeof *mine); /* and how many it took */
    char *want = calloc(groups, 1);                /* the groups checked */
    int rc = GMB_ERUNTIME;
    if (!got || !own || !chunk || !exp || !mine || !want)
        goto out;
    if ((rc = s->c->be->read(s->part, 0, got, groups * sizeof *got)) ||
        (rc = s->c->be->read(s->owner, 0, own, total * sizeof *own)))
        goto out;
    for (size_t q = 0; q < ncheck; q++)
        want[full ? q : check[q]] = 1;
    for (uint64_t q = 0; q < nc; q++)
        chunk[q] = NAN;
    *how = full ? "full" : "sampled";
    for (uint64_t t = 0; t < total; t++) { /* one pass over the claims */
        gmb_u32 g = own[t];
        if (g >= groups) {
            snprintf(err, errlen, "claim %llu of %llu: no group of %zu took it (owner %u)",
                     (unsigned long long)t, (unsigned long long)total, groups, g);
            rc = GMB_EVERIFY;
            goto out;
        }
        if (!want[g])
            continue;
        uint64_t c = t % nc;
        if (isnan(chunk[c])) {
            chunk[c] = 0;
            for (uint64_t i = c * CL; i < n && i < (c + 1) * CL; i++)
                chunk[c] += term(k, sa, sb, i, s->lanes);
        }
        exp[g] += chunk[c];
        mine[g]++;
    }
    for (size_t q = 0; q < ncheck && !rc; q++) {
        size_t g = full ? q : check[q];
        /* float summation bound: (terms per work-item + lanes + tree depth) ulps */
        double ulps = (double)mine[g] * DYN_J * s->lanes + 4.0 + log2((double)L) + 8.0;
        double tol = ulps * 0x1p-24 * exp[g] + 1e-30;
        if (!(fabs((double)got[g] - exp[g]) <= tol)) {
            snprintf(err, errlen,
                     "partial sum of group %zu (%llu chunks): got %.9g, expected %.9g (+-%.3g)", g,
                     (unsigned long long)mine[g], (double)got[g], exp[g], tol);
            rc = GMB_EVERIFY;
        }
    }
out:
    free(got);
    free(own);
    free(chunk);
    free(exp);
    free(mine);
    free(want);
    return rc;
}

static int verify_reduce(state_t *s, const kinfo_t *k, char *err, size_t errlen, const char **how)
{
    if (is_dyn(s))
        return verify_reduce_dyn(s, k, err, errlen, how);
    size_t groups = s->geo.groups, L = s->geo.group_size;
    gmb_u64 G = (gmb_u64)(groups * L), n = s->n;
    /* group g's elements: the tiles of TS elements from g x TS, every groups x TS (grid-stride:
     * TS = L; lockstep: 4 L; flat: flat x L, a single tile) */
    gmb_u64 TS = s->flat ? (gmb_u64)s->flat * L
                 : !strcmp(s->layout ? s->layout : "", "lockstep") ? 4 * (gmb_u64)L
                                                                   : (gmb_u64)L;
    gmb_u64 step = TS * groups;
    /* the flat layout repeats launches (each writes its sums anew), the others sum reps */
    double times = s->flat ? 1.0 : (double)s->reps;
    gmb_u32 sa = SEED_A(s->c), sb = SEED_B(s->c);
    float *got = malloc(groups * sizeof *got);
    double *exp = calloc(groups, sizeof *exp);
    int rc = GMB_ERUNTIME;
    if (!got || !exp)
        goto out;
    if ((rc = s->c->be->read(s->part, 0, got, groups * sizeof *got)))
        goto out;
    size_t check[4];
    size_t ncheck;
    int full = n * (gmb_u64)s->lanes <= FULL_VERIFY / sizeof(float);
    if (full) {
        *how = "full";
        for (gmb_u64 i = 0; i < n; i++)
            exp[(i / TS) % groups] += term(k, sa, sb, i, s->lanes);
        ncheck = groups;
    } else { /* the first, the last and two random groups, recomputed from their elements */
        *how = "sampled";
        check[0] = 0;
        check[1] = groups - 1;
        check[2] = gmb_hash(sa, 11) % groups;
        check[3] = gmb_hash(sa, 13) % groups;
        ncheck = 4;
        for (size_t q = 0; q < ncheck; q++) {
            size_t g = check[q];
            exp[g] = 0;
            for (gmb_u64 t = g * TS; t < n; t += step)
                for (gmb_u64 i = t; i < n && i < t + TS; i++)
                    exp[g] += term(k, sa, sb, i, s->lanes);
        }
    }
    /* float summation error bound: (terms per work-item + lanes + tree depth) ulps */
    double per_item = (double)((n + G - 1) / G) * s->lanes;
    double ulps = times * (per_item + 4.0) + log2((double)L) + 8.0;
    rc = GMB_OK;
    for (size_t q = 0; q < ncheck; q++) {
        size_t g = full ? q : check[q]; /* (sampled: 4 groups of maybe 4) */
        double e = exp[g] * times, tol = ulps * 0x1p-24 * e + 1e-30;
        if (!(fabs((double)got[g] - e) <= tol)) {
            snprintf(err, errlen, "partial sum of group %zu: got %.9g, expected %.9g (+-%.3g)", g,
                     (double)got[g], e, tol);
            rc = GMB_EVERIFY;
            break;
        }
    }
out:
    free(got);
    free(exp);
    return rc;
}

static int default_sizes(gmb_ctx_t *c, cfg_t *cfg)
{
    uint64_t top = 2ull << 30, q = c->info.mem_bytes / 4;
    if (q && q < top)
        top = q;
    /* a CPU device: 16x its last-level cache (256 MiB at least, BabelStream's array): past it
     * the curve is memory's plateau, and each larger size costs its first touch too (the
     * faults of 3 x 2 GiB took 1.5-9 s of a 2-core VM's sweep, against 21.7 s for
     * BabelStream's whole default run); a GPU keeps 2 GiB, as every committed H200 run */
    uint64_t cpu_top = 16 * c->info.llc_bytes > (256u << 20) ? 16 * c->info.llc_bytes : 256u << 20;
    if (!strcmp(c->info.type, "cpu") && c->info.llc_bytes && cpu_top < top)
        top = cpu_top;
    if (c->info.max_alloc_bytes && c->info.max_alloc_bytes < IN_BYTES(top))
        top = c->info.max_alloc_bytes >= FLAT_PAD ? c->info.max_alloc_bytes / FLAT_PAD * FLAT_PAD
                                                  : 16;
    top &= ~(uint64_t)15;
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "4KiB:%llu:x2,%llu", (unsigned long long)top,
             (unsigned long long)top);
    if (gmb_parse_sweep(spec, &cfg->sizes, err, sizeof err)) {
        gmb_error("default sizes: %s", err);
        return GMB_ERUNTIME;
    }
    if (c->info.llc_bytes && 3 * top < 4 * c->info.llc_bytes)
        gmb_warn("the largest arrays (3 x %llu B) are below 4x the last-level cache: no point "
                 "is a DRAM point",
                 (unsigned long long)top);
    return GMB_OK;
}

static int check_sizes(gmb_ctx_t *c, cfg_t *cfg)
{
    char a[32], b[32];
    size_t k = gmb_sweep_round(&cfg->sizes, 16); /* whole 16-byte elements (sizes >= 16) */
    uint64_t top = cfg->sizes.v[k - 1];
    if (c->info.max_alloc_bytes && IN_BYTES(top) > c->info.max_alloc_bytes) {
        gmb_error("--sizes: %llu B per array (%s; the inputs rounded up to whole MiB for their "
                  "last tile) is more than the device allows in one buffer (%llu B, %s)",
                  (unsigned long long)top, gmb_fmt_size(top, a, sizeof a),
                  (unsigned long long)c->info.max_alloc_bytes,
                  gmb_fmt_size(c->info.max_alloc_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (top > c->info.mem_bytes / 3) {
        gmb_error("--sizes: 3 arrays of %s do not fit in the device's %s of memory",
                  gmb_fmt_size(top, a, sizeof a), gmb_fmt_size(c->info.mem_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

static void print_header(const gmb_ctx_t *c)
{
    char peak[64] = "unknown";
    if (c->info.peak_bw_gbps > 0)
        snprintf(peak, sizeof peak, "%.1f GB/s", c->info.peak_bw_gbps);
    printf("# gmb-stream: %s device %d: %s; nominal peak %s (%s)\n", c->be->kind->name,
           c->info.index, c->info.name, peak, c->info.peak_source);
    printf("%-6s %5s %10s %10s %7s %6s %4s %7s %-10s %-8s\n", "kernel", "width", "size", "GB/s",
           "+-CI%", "%peak", "n", "reps", "where", "verified");
}

/* Take the shape ch (kernel, grid, layout, group size) for the points that follow */
static void use_shape(state_t *s, const choice_t *ch)
{
    s->k = ch->k;
    s->per_cu = ch->per_cu;
    s->epi = ch->epi;
    s->flat = ch->flat;
    s->layout = ch->layout;
    s->group = ch->group;
}

/* The state of a point: kernel k (s->k already got) over arrays of size bytes in w-byte
 * elements, and its grid. */
static void set_point(state_t *s, const kinfo_t *k, int w, uint64_t size)
{
    const cfg_t *cfg = s->c->cfg;
    s->n = size / (uint64_t)w;
    s->lanes = w / 4;
    s->reduce = k->reduce;
    long L = s->group ? s->group : cfg->group_size;
    if (s->flat) /* one tile of flat x group size elements a group */
        gmb_grid_pass(s->c, L, (uint64_t)s->flat, s->n, &s->geo);
    else if (s->epi) /* as many groups as epi elements a work-item need: the size sets the grid */
        gmb_grid_pass(s->c, L, (uint64_t)s->epi, s->n, &s->geo);
    else
        gmb_grid(s->c, s->k, L, s->per_cu, s->n, &s->geo);
    /* In-kernel repetitions re-read the whole array only while every group is resident (a
     * grid-stride loop spreads each group's elements over it). A grid of more groups than the
     * device holds at once (--groups-per-cu above what fits) runs each group's repetitions
     * back to back over its own few elements, from cache: such grids sample one pass. */
    int res = 0; /* groups a compute unit holds: the kernel's occupancy, else its thread slots */
    if (!s->c->be->kern_occupancy || s->c->be->kern_occupancy(s->k, s->geo.group_size, 0, &res) ||
        res <= 0) {
        int slots = s->c->info.threads_per_cu ? s->c->info.threads_per_cu : 2048;
        res = slots / (int)s->geo.group_size > 0 ? slots / (int)s->geo.group_size : 1;
    }
    s->one_pass = !s->flat && (s->per_cu || s->epi) &&
                  s->geo.groups > (size_t)res * (size_t)s->c->info.compute_units;
}

/* Poison what kernel k must write, so that a kernel that skips work fails its check. */
static int poison(state_t *s, const kinfo_t *k, uint64_t size)
{
    int rc = is_dyn(s) ? s->c->be->fill(s->owner, 0, 0xff, s->owner_cap * sizeof(gmb_u32)) : GMB_OK;
    if (rc)
        return rc;
    return k->reduce ? s->c->be->fill(s->part, 0, 0xff, s->geo.groups * sizeof(float))
                     : s->c->be->fill(s->out, 0, 0xff, size);
}

/* In-kernel repetitions (s->reps) so that a sample lasts want ns at least (launch overhead
 * is in the first estimates, so refined a few times; a one-pass grid keeps 1), after a
 * warm-up; *t1 the last sample's ns. */
static int calibrate(state_t *s, double want, double *t1)
{
    int rc;
    s->reps = 1;
    if ((rc = sample(s, t1)) || (rc = sample(s, t1)))
        return rc;
    /* the dynamic layout: as many claims as owner[] holds */
    double most = is_dyn(s) ? (double)(s->owner_cap / dyn_claims(s, 1))
                  : s->flat ? FLAT_MOST_LAUNCHES
                            : (double)(1u << 24);
    most = fmax(1.0, fmin(most, (double)(1u << 24)));
    for (int it = 0; it < 4 && *t1 < want && s->reps < most && !s->one_pass; it++) {
        double f = fmax(2.0, 1.1 * want / fmax(*t1, 1.0));
        s->reps = (gmb_u32)fmin((double)s->reps * f, most);
        if ((rc = sample(s, t1)))
            return rc;
    }
    return GMB_OK;
}

/* --counters: a point's DRAM bytes (one sample's, counted by the hardware) against the bytes
 * gmb-stream counts for that sample; a DRAM-sized point more than DRAM_CHECK_PCT off either
 * way is flagged (write-allocate reads, compression, a wrong byte model); a cache-sized one
 * is expected below its count and is never flagged */
#define DRAM_CHECK_PCT 5.0
static json_t *dram_check(const gmb_counter_vals_t *v, double rd, double wr, const char *where)
{
    double got = v->dram_read_bytes + v->dram_write_bytes, want = rd + wr;
    double off = want > 0 ? 100.0 * (got / want - 1.0) : 0;
    int dram = !strcmp(where, "dram");
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:s}", "counted_read_bytes", rd,
                     "counted_write_bytes", wr, "dram_read_bytes", v->dram_read_bytes,
                     "dram_write_bytes", v->dram_write_bytes, "ratio", want > 0 ? got / want : 0,
                     "off_pct", off, "flagged", dram && fabs(off) > DRAM_CHECK_PCT, "rule",
                     dram ? "DRAM-sized: flagged when DRAM bytes are more than 5% off the count"
                          : "cache-sized: DRAM bytes below the count are expected; not checked");
}

/* --counters: per kernel, its DRAM-sized points' DRAM bytes against the count (dram_check),
 * in results.counters_check and one line a kernel */
static void counters_summary(gmb_ctx_t *c)
{
    json_t *out = json_object();
    size_t i;
    json_t *pt;
    json_array_foreach(c->points, i, pt)
    {
        const json_t *dc = json_object_get(json_object_get(pt, "extra"), "dram_check");
        const char *kn =
            json_string_value(json_object_get(json_object_get(pt, "params"), "kernel"));
        const char *where =
            json_string_value(json_object_get(json_object_get(pt, "extra"), "where"));
        if (!kn)
            continue;
        json_t *k = json_object_get(out, kn);
        if (!k) {
            k = json_pack("{s:i, s:i, s:i, s:o, s:o, s:f}", "points", 0, "dram_points", 0,
                          "flagged", 0, "worst_off_pct", json_null(), "worst_size_bytes",
                          json_null(), "rule_pct", DRAM_CHECK_PCT);
            json_object_set_new(out, kn, k);
        }
        json_object_set_new(k, "points",
                            json_integer(json_integer_value(json_object_get(k, "points")) + 1));
        if (!dc || !where || strcmp(where, "dram"))
            continue;
        double off = json_real_value(json_object_get(dc, "off_pct"));
        json_object_set_new(
            k, "dram_points",
            json_integer(json_integer_value(json_object_get(k, "dram_points")) + 1));
        if (json_is_true(json_object_get(dc, "flagged")))
            json_object_set_new(
                k, "flagged", json_integer(json_integer_value(json_object_get(k, "flagged")) + 1));
        const json_t *w = json_object_get(k, "worst_off_pct");
        if (json_is_null(w) || fabs(off) > fabs(json_real_value(w))) {
            json_object_set_new(k, "worst_off_pct", json_real(off));
            json_object_set(k, "worst_size_bytes",
                            json_object_get(json_object_get(pt, "params"), "size_bytes"));
        }
    }
    const char *kn;
    json_t *k;
    json_object_foreach(out, kn, k)
    {
        long dp = (long)json_integer_value(json_object_get(k, "dram_points"));
        long fl = (long)json_integer_value(json_object_get(k, "flagged"));
        char sz[32];
        if (!dp)
            printf("# counters: %s: no DRAM-sized point counted\n", kn);
        else
            printf(
                "# counters: %s: DRAM bytes %s the count at %ld of %ld DRAM-sized points "
                "(worst %+.1f%% at %s)\n",
                kn, fl ? "more than 5% off" : "within 5% of", fl ? fl : dp, dp,
                json_real_value(json_object_get(k, "worst_off_pct")),
                gmb_fmt_size((uint64_t)json_integer_value(json_object_get(k, "worst_size_bytes")),
                             sz, sizeof sz));
    }
    gmb_add_result(c, "counters_check", out);
}

static int run_point(state_t *s, const kinfo_t *k, int w, uint64_t size, int *injected,
                     json_t **best)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    int rc;
    /* each class of points (DRAM-sized or not) runs its own choice: tuned, else the base */
    use_shape(s, &s->ch[past_llc(&c->info, (uint64_t)(k->reads + k->writes) * size)]);
    set_point(s, k, w, size);
    if ((rc = poison(s, k, size)))
        return rc;
    double t1, want = cfg->min_sample_us * 1e3;
    if ((rc = calibrate(s, want, &t1)))
        return rc;
    gmb_series_t ser = {.warmed = 1};
    /* one repetition long enough: its sample counts like the others */
    if (s->reps == 1 && t1 >= want && (rc = gmb_series_push(&ser, t1)))
        return rc;
    if ((rc = gmb_measure(c, sample, s, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    if (c->o.inject_error && !*injected) { /* test aid: one wrong element */
        float bad = -1.0f;
        /* the last element: checked by full and by sampled verification alike */
        size_t off = k->reduce ? 0 : (size_t)(s->n * (gmb_u64)s->lanes - 1) * sizeof bad;
        if (is_dyn(s) && k->reads == 2) { /* dot, dynamic layout: the last claim taken by none */
            gmb_u32 none = UINT32_MAX;
            rc = c->be->write(s->owner, (size_t)(dyn_claims(s, s->reps) - 1) * sizeof none, &none,
                              sizeof none);
        } else {
            rc = c->be->write(k->reduce ? s->part : s->out, off, &bad, sizeof bad);
        }
        *injected = 1;
        if (rc) {
            gmb_series_free(&ser);
            return rc;
        }
    }
    char err[256] = "";
    const char *how = "none";
    rc = k->reduce ? verify_reduce(s, k, err, sizeof err, &how)
                   : verify_elementwise(s, k, err, sizeof err, &how);
    uint64_t per_rep = (uint64_t)(k->reads + k->writes) * size;
    double bytes = (double)per_rep * s->reps;
    const char *where = gmb_residence(&c->info, (uint64_t)(k->reads + k->writes) * size);
    json_t *params =
        json_pack("{s:s, s:i, s:I, s:I, s:i, s:I, s:i, s:I, s:I}", "kernel", k->name, "width_bytes",
                  w, "size_bytes", (json_int_t)size, "elements", (json_int_t)s->n, "arrays",
                  k->reads + k->writes, "bytes_per_rep", (json_int_t)per_rep, "reps", (int)s->reps,
                  "group_size", (json_int_t)s->geo.group_size, "groups", (json_int_t)s->geo.groups);
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes, &ser.st)); /* B/ns = GB/s */
    double peak = c->info.peak_bw_gbps;
    if (peak > 0)
        gmb_point_metric(pt, "pct_peak", gmb_json_rate(bytes * 100.0 / peak, &ser.st));
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "where", json_string(where));
    json_object_set_new(extra, "verified", json_string(rc == GMB_OK ? how : "FAILED"));
    json_object_set_new(extra, "layout", json_string(s->layout));
    if (ser.cnt.ok)
        json_object_set_new(extra, "dram_check",
                            dram_check(&ser.cnt, (double)k->reads * (double)size * s->reps,
                                       (double)k->writes * (double)size * s->reps, where));
    if (s->one_pass)
        json_object_set_new(extra, "one_pass",
                            json_string("more groups than the device holds "
                                        "at once: no in-kernel repetitions"));
    if (s->flat) {
        json_object_set_new(extra, "elements_per_item", json_integer(s->flat));
        json_object_set_new(extra, "reps_by",
                            json_string("launches: one pass each, back to back, timed as one "
                                        "span (the gaps between them included)"));
    }
    double bw = bytes / ser.st.median;
    char sz[32], pct[16] = "-";
    if (peak > 0)
        snprintf(pct, sizeof pct, "%.1f", 100.0 * bw / peak);
    printf("%-6s %5d %10s %10.2f %7.2f %6s %4zu %7u %-10s %-8s\n", k->name, w,
           gmb_fmt_size(size, sz, sizeof sz), bw, 100.0 * ser.st.ci_rel, pct, ser.st.n, s->reps,
           where, rc == GMB_OK ? how : "FAILED");
    fflush(stdout);
    /* best bandwidth of this kernel: over the points farthest from the cache there are: from
     * 16x the LLC on (tier 2: at most 1/16 of a repetition can still be found in it), else
     * DRAM points from 4x (tier 1), else cache points (tier 0) */
    json_t *cur = json_object_get(*best, k->name);
    int tier = !strcmp(where, "dram") ? (per_rep >= 16 * c->info.llc_bytes ? 2 : 1) : 0;
    int cur_tier = cur ? (int)json_integer_value(json_object_get(cur, "tier")) : -1;
    if (rc == GMB_OK &&
        (tier > cur_tier ||
         (tier == cur_tier && bw > json_real_value(json_object_get(cur, "bw_GBps"))))) {
        json_t *b = json_pack("{s:f, s:i, s:I, s:b, s:i}", "bw_GBps", bw, "width_bytes", w,
                              "size_bytes", (json_int_t)size, "dram", tier > 0, "tier", tier);
        if (peak > 0)
            json_object_set_new(b, "pct_peak", json_real(100.0 * bw / peak));
        json_object_set_new(*best, k->name, b);
    }
    gmb_add_point(c, pt);
    gmb_series_free(&ser);
    if (rc == GMB_EVERIFY)
        gmb_error("verification failed: %s, %d-byte elements, %s per array: %s", k->name, w,
                  gmb_fmt_size(size, sz, sizeof sz), err);
    return rc;
}

/* --energy: the board's energy counter (NVML, mJ) advances in steps (every few to a hundred
 * ms, by GPU: not documented). An edge is the moment it steps: the change lies between the
 * start of the last read that showed the old value and the end of the first read that shows
 * the new one. An edge is taken only where that window is about two reads long (at most
 * 2.5 x the quickest read + 0.2 ms: a read delayed by the scheduler waits for the next
 * step), and dated at the window's middle. */
#define EDGE_SLACK_NS 2e5
#define EDGE_WAIT_NS  2e9

typedef struct edge {
    unsigned long long mj; /* the count just after the step */
    double t_ns;           /* when it stepped (host clock) */
    double window_ns;      /* within +- half of this */
} edge_t;

static int energy_edge(const char *pci, edge_t *e, char *why, size_t wlen)
{
    unsigned long long prev, cur;
    double t_start = gmb_now_ns(), prev_b = t_start, b, a;
    if (!gmb_nvml_energy(pci, &prev, why, wlen))
        return 0;
    double quickest = gmb_now_ns() - t_start; /* the quickest read so far */
    for (;;) {
        b = gmb_now_ns();
        if (!gmb_nvml_energy(pci, &cur, why, wlen))
            return 0;
        a = gmb_now_ns();
        quickest = fmin(quickest, a - b);
        if (cur < prev) {
            snprintf(why, wlen,
                     "NVML's energy counter went back (%llu to %llu mJ: the driver "
                     "reloaded?)",
                     prev, cur);
            return 0;
        }
        if (cur != prev && a - prev_b <= 2.5 * quickest + EDGE_SLACK_NS) {
            e->mj = cur;
            e->t_ns = 0.5 * (prev_b + a);
            e->window_ns = a - prev_b;
            return 1;
        }
        if (a - t_start > EDGE_WAIT_NS) {
            snprintf(why, wlen,
                     "NVML's energy counter did not advance in %.0f s "
                     "(or every step was read too late)",
                     EDGE_WAIT_NS * 1e-9);
            return 0;
        }
        prev = cur;
        prev_b = b;
    }
}

static void sleep_s(double sec)
{
    struct timespec ts = {(time_t)sec, (long)((sec - (double)(time_t)sec) * 1e9)};
    while (nanosleep(&ts, &ts) && errno == EINTR && !gmb_stop_signal())
        ;
}

/* NVML's view of the board after an interval: SM clock, temperature, throttle reasons. */
static void board_state(const char *pci, json_t *j)
{
    gmb_clocks_t k;
    gmb_nvml_clocks(pci, &k);
    char thr[160] = "unknown";
    if (k.throttle_known)
        gmb_throttle_names(k.throttle, thr, sizeof thr);
    if (k.available && k.sm_mhz != GMB_UNKNOWN)
        json_object_set_new(j, "sm_MHz_after", json_integer(k.sm_mhz));
    if (k.available && k.temp_c != GMB_UNKNOWN)
        json_object_set_new(j, "temp_C_after", json_integer(k.temp_c));
    json_object_set_new(j, "throttle_after", json_string(thr));
}

/* One kernel at its best point (b: results.best: DRAM where there is one, else the best
 * cache point, marked), streaming back to back for the --energy seconds from one step of the
 * counter to the first step after the last launch. Its entry of results.energy with the
 * counter's energy (counter_J) and the idle tail between the last launch's end and that step
 * (tail_seconds): energy_above_idle, once the idle power after the kernels is known, takes
 * the tail out and fills in the rest; *mid_ns: the middle of its interval. */
static int energy_kernel(state_t *s, gmb_prog_t **prog, const kinfo_t *k, const json_t *b,
                         json_t *out, double *mid_ns)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    const char *pci = c->info.pci_bus_id;
    int w = (int)json_integer_value(json_object_get(b, "width_bytes"));
    uint64_t size = (uint64_t)json_integer_value(json_object_get(b, "size_bytes"));
    int v = w == 4 ? 0 : w == 8 ? 1 : 2;
    int rc;
    if (!prog[v])
        return GMB_ERUNTIME;
    if ((rc = c->be->kern_get(prog[v], k->kernel, &s->k)))
        return rc;
    set_point(s, k, w, size);
    double t1;
    s->reps = 1;
    if ((rc = sample(s, &t1)) || (rc = sample(s, &t1)))
        return rc;
    /* launches of ~0.2 s: host gaps between them weigh nothing, and no launch is long
     * enough for a display watchdog */
    s->reps = s->one_pass ? 1 : (gmb_u32)fmax(1.0, fmin(0.2e9 / fmax(t1, 1.0), (double)(1u << 24)));
    /* poisoned after the calibration: the check below sees what the timed launches wrote */
    if ((rc = poison(s, k, size)))
        return rc;
    edge_t e0, e1;
    double dev = 0, ns, end;
    char why[192];
    long launches = 0;
    if (!energy_edge(pci, &e0, why, sizeof why))
        goto gone;
    do {
        if (gmb_stop_signal())
            return GMB_EINTR;
        if ((rc = sample(s, &ns)))
            return rc;
        dev += ns;
        launches++;
        end = gmb_now_ns(); /* the launch has ended: sample() waits for it */
    } while (end - e0.t_ns < cfg->energy_s * 1e9);
    if (!energy_edge(pci, &e1, why, sizeof why))
        goto gone;
    char err[256] = "";
    const char *how = "none";
    rc = k->reduce ? verify_reduce(s, k, err, sizeof err, &how)
                   : verify_elementwise(s, k, err, sizeof err, &how);
    double bytes = (double)(k->reads + k->writes) * (double)size * s->reps * (double)launches;
    double tail = fmax(0.0, (e1.t_ns - end) * 1e-9); /* idle after the last launch */
    double sec = (end - e0.t_ns) * 1e-9;
    *mid_ns = 0.5 * (e0.t_ns + end);
    /* the counter's energy, tail included: energy_above_idle takes the tail out */
    json_t *j = json_pack(
        "{s:i, s:I, s:i, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:s}", "width_bytes", w, "size_bytes",
        (json_int_t)size, "reps", (int)s->reps, "launches", (json_int_t)launches, "bytes", bytes,
        "seconds", sec, "tail_seconds", tail, "device_seconds", dev * 1e-9, "bw_GBps", bytes / dev,
        "counter_J", (double)(e1.mj - e0.mj) * 1e-3, "verified", rc == GMB_OK ? how : "FAILED");
    json_object_set_new(j, "edge_window_ms", json_real(fmax(e0.window_ns, e1.window_ns) * 1e-6));
    /* the point results.best took: DRAM when there is one, else cache-resident, marked */
    json_object_set_new(j, "dram", json_boolean(json_is_true(json_object_get(b, "dram"))));
    json_object_set_new(j, "tier", json_incref(json_object_get(b, "tier")));
    board_state(pci, j);
    json_object_set_new(out, k->name, j);
    if (rc == GMB_EVERIFY)
        gmb_error("verification failed: %s during --energy: %s", k->name, err);
    return rc;
gone: /* the counter stopped answering: said, not measured */
    json_object_set_new(out, k->name, json_pack("{s:s}", "why", why));
    printf("# energy %-6s not measured: %s\n", k->name, why);
    return GMB_OK;
}

/* A kernel's entry of results.energy (power_W set): the idle power at the middle of its
 * interval, linear in time between the idle interval before the kernels (at t_b, idle_b) and
 * the one after them (t_a, idle_a; the board warms: its idle power rises), or idle_b where
 * none came after; its idle tail taken out at the idle power of the tail's time; the energy
 * per bit above idle; its line printed. */
static double idle_at(double t, double t_b, double idle_b, double t_a, double idle_a)
{
    double f = t_a > t_b ? fmin(1.0, fmax(0.0, (t - t_b) / (t_a - t_b))) : 0.0;
    return t_a > t_b ? idle_b + f * (idle_a - idle_b) : idle_b;
}

static void energy_above_idle(json_t *j, const char *name, double mid_ns, double t_b, double idle_b,
                              double t_a, double idle_a)
{
    double sec = gmb_jnum(j, "seconds"), bytes = gmb_jnum(j, "bytes");
    double tail = gmb_jnum(j, "tail_seconds"), idle = idle_at(mid_ns, t_b, idle_b, t_a, idle_a);
    /* the idle tail after the last launch is taken out at the idle power of its time */
    double tail_idle = idle_at(mid_ns + 0.5e9 * sec + 0.5e9 * tail, t_b, idle_b, t_a, idle_a);
    double joules = gmb_jnum(j, "counter_J") - tail_idle * tail;
    double watts = joules / sec, pjb = joules * 1e12 / bytes;
    double above = (watts - idle) * sec * 1e12 / bytes / 8;
    json_object_set_new(j, "energy_J", json_real(joules));
    json_object_set_new(j, "power_W", json_real(watts));
    json_object_set_new(j, "pJ_per_byte", json_real(pjb));
    json_object_set_new(j, "pJ_per_bit", json_real(pjb / 8));
    json_object_set_new(j, "idle_W", json_real(idle));
    json_object_set_new(j, "tail_idle_W", json_real(tail_idle));
    json_object_set_new(j, "pJ_per_bit_above_idle", json_real(above));
    char sz[32];
    printf("# energy %-6s %2d B x %s%s: %.1f GB/s for %.1f s at %.1f W: %.2f pJ/B, %.2f "
           "pJ/bit (%.2f above %.1f W idle) %s\n",
           name, (int)gmb_jnum(j, "width_bytes"),
           gmb_fmt_size((uint64_t)gmb_jnum(j, "size_bytes"), sz, sizeof sz),
           json_is_true(json_object_get(j, "dram")) ? "" : " (cache)", gmb_jnum(j, "bw_GBps"), sec,
           watts, pjb, pjb / 8, above, idle, json_string_value(json_object_get(j, "verified")));
}

/* --energy: the counter's step, the idle power, each kernel's, the idle power again
 * (results.energy). */
static int energy_part(state_t *s, gmb_prog_t **prog, const json_t *best)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    const char *pci = c->info.pci_bus_id;
    json_t *out = json_object();
    char why[192];
    edge_t ea, eb, ec[9];
    int rc = GMB_OK, ok = energy_edge(pci, &ea, why, sizeof why);
    if (ok) {
        sleep_s(cfg->energy_s);
        if (gmb_stop_signal()) {
            json_decref(out);
            return GMB_EINTR;
        }
        ok = energy_edge(pci, &eb, why, sizeof why);
    }
    /* the step: the shortest of eight edge-to-edge times (an edge read too late is passed
     * over, so a time may span two steps or more) */
    for (int i = 0; ok && i < 9; i++)
        ok = energy_edge(pci, &ec[i], why, sizeof why);
    if (!ok) {
        json_object_set_new(out, "available", json_false());
        json_object_set_new(out, "why", json_string(why));
        printf("# energy: not measured: %s\n", why);
        gmb_add_result(c, "energy", out);
        return GMB_OK;
    }
    double step = 1e300;
    for (int i = 0; i < 8; i++)
        step = fmin(step, (ec[i + 1].t_ns - ec[i].t_ns) * 1e-6);
    double idle_w = (double)(eb.mj - ea.mj) / ((eb.t_ns - ea.t_ns) * 1e-9) * 1e-3;
    json_object_set_new(out, "available", json_true());
    json_object_set_new(out, "source",
                        json_string("NVML nvmlDeviceGetTotalEnergyConsumption "
                                    "(the whole board)"));
    json_object_set_new(out, "counter_step_ms", json_real(step));
    json_object_set_new(out, "idle_W", json_real(idle_w));
    json_object_set_new(out, "idle_seconds", json_real((eb.t_ns - ea.t_ns) * 1e-9));
    json_object_set_new(out, "edge_window_ms", json_real(fmax(ea.window_ns, eb.window_ns) * 1e-6));
    board_state(pci, out);
    printf("# energy: NVML board counter (steps of %.1f ms); idle %.1f W over %.1f s\n", step,
           idle_w, (eb.t_ns - ea.t_ns) * 1e-9);
    json_t *per = json_object();
    double mid[GMB_MAX_LIST] = {0};
    for (size_t ki = 0; ki < cfg->kernels.n && !rc; ki++) {
        const kinfo_t *k = &K[cfg->kernels.idx[ki]];
        const json_t *b = json_object_get(best, k->name);
        if (!b) { /* its points failed */
            json_object_set_new(per, k->name, json_pack("{s:s}", "why", "no point measured"));
            continue;
        }
        rc = energy_kernel(s, prog, k, b, per, &mid[ki]);
    }
    /* the idle power again, after the kernels: the board is warmer (interrupted, or the
     * counter gone: the idle power before serves alone, and the record says so) */
    double t_b = 0.5 * (ea.t_ns + eb.t_ns), t_a = 0, idle_a = 0;
    edge_t ed0, ed1;
    if (!rc && energy_edge(pci, &ed0, why, sizeof why)) {
        sleep_s(cfg->energy_s);
        if (!gmb_stop_signal() && energy_edge(pci, &ed1, why, sizeof why)) {
            idle_a = (double)(ed1.mj - ed0.mj) / ((ed1.t_ns - ed0.t_ns) * 1e-9) * 1e-3;
            t_a = 0.5 * (ed0.t_ns + ed1.t_ns);
            json_object_set_new(out, "idle_after_W", json_real(idle_a));
            json_object_set_new(out, "idle_after_seconds", json_real((ed1.t_ns - ed0.t_ns) * 1e-9));
            printf("# energy: idle %.1f W over %.1f s after the kernels\n", idle_a,
                   (ed1.t_ns - ed0.t_ns) * 1e-9);
        } else if (gmb_stop_signal())
            rc = GMB_EINTR;
        else
            json_object_set_new(out, "idle_after_why", json_string(why));
    } else if (!rc)
        json_object_set_new(out, "idle_after_why", json_string(why));
    else
        json_object_set_new(out, "idle_after_why",
                            json_string(rc == GMB_EINTR ? "interrupted before it"
                                                        : "a kernel failed: not measured"));
    json_object_set_new(out, "idle",
                        json_string(t_a > 0 ? "linear in time between the idle power before and "
                                              "after the kernels"
                                            : "the idle power before the kernels"));
    for (size_t ki = 0; ki < cfg->kernels.n; ki++) {
        const char *name = K[cfg->kernels.idx[ki]].name;
        json_t *j = json_object_get(per, name);
        if (json_object_get(j, "counter_J"))
            energy_above_idle(j, name, mid[ki], t_b, idle_w, t_a, idle_a);
    }
    json_object_set_new(out, "kernels", per);
    gmb_add_result(c, "energy", out);
    return rc;
}

/* The device's clocks ramp up under load (an idle H200 sits at 345 MHz): tuning's first
 * candidates would be timed on the way up. The current point is sampled until its rate has
 * stopped rising: at least 200 ms and 20 samples, the last 5 within 0.5% of the best before
 * them, at most 2 s. */
static int warm_up(state_t *s)
{
    double want = ((const cfg_t *)s->c->cfg)->min_sample_us * 1e3, t, spent = 0, best = 0;
    int rc, n = 0, flat = 0;
    if ((rc = calibrate(s, want, &t)))
        return rc;
    while (spent < 2e9) {
        if ((rc = sample(s, &t)))
            return rc;
        spent += t;
        n++;
        double rate = s->reps / fmax(t, 1.0);
        flat = rate > best * 1.005 ? 0 : flat + 1;
        best = fmax(best, rate);
        if (n >= 20 && spent >= 2e8 && flat >= 5)
            break;
    }
    s->warmed = 1;
    return GMB_OK;
}

/* The size tuning times a class of kernel k's points at (1 when the sweep has such a point):
 * past the LLC (cls 1): the smallest DRAM-sized one (a repetition 4x the last-level cache or
 * more: the cheapest to time, and its choice serves every point past the cache), else the
 * largest of the class; within it (cls 0): the largest whose repetition fills at most half
 * the last-level cache, else the smallest (without a cache size, every point is of this
 * class: the largest). */
static int tune_size(const gmb_ctx_t *c, const kinfo_t *k, const gmb_sweep_t *sz, int cls,
                     uint64_t *at)
{
    uint64_t llc = c->info.llc_bytes, arrays = (uint64_t)(k->reads + k->writes);
    int found = 0, at_dram = 0;
    for (size_t p = 0; p < sz->n; p++) {
        uint64_t size = sz->v[p], rep = arrays * size;
        if (cls != past_llc(&c->info, rep))
            continue;
        int dram = !strcmp(gmb_residence(&c->info, rep), "dram");
        if (cls) {
            if (!found || (dram && (!at_dram || size < *at)) || (!dram && !at_dram && size > *at)) {
                *at = size;
                at_dram = dram;
            }
        } else if (!llc) {
            if (!found || size > *at)
                *at = size;
        } else if (!found || (rep <= llc / 2 && (size > *at || *at * arrays > llc / 2)) ||
                   (*at * arrays > llc / 2 && size < *at)) {
            *at = size;
        }
        found = 1;
    }
    return found;
}

/* The programs tuning draws its candidates from (NULL: that layout not loaded) */
typedef struct progs {
    gmb_prog_t *grid, *tiled, *lockstep, *dynamic;
    gmb_prog_t *flat[4]; /* 1, 4, 16 and 64 elements a work-item */
} progs_t;
static const int flat_j[4] = {1, 4, 16, 64};

/* A timed candidate of the tuning */
typedef struct cand {
    choice_t ch;
    gmb_u32 reps;      /* its repetitions a sample */
    double gbps;       /* its GB/s: of the first round, then of the runoff */
    size_t groups;     /* its grid */
    size_t group_size; /* its work-items a group */
    int pass;          /* one pass (more groups than the device holds, or flat) */
    json_t *j;         /* its entry of results.tuning (borrowed) */
} cand_t;
#define MAX_CAND 64
#define RUNOFF   3 /* finalists (and the reference shape), and their samples each */

static int cand_faster(const void *a, const void *b)
{
    double x = ((const cand_t *)a)->gbps, y = ((const cand_t *)b)->gbps;
    return x > y ? -1 : x < y;
}

/* Tuning of kernel k (see the help) for one class of points (dram 1: past the last-level
 * cache, 0: within it), timed at size bytes: the candidates' GB/s, the fastest in *out; one
 * entry added to tuning (results.tuning.KERNEL.dram or .cache). */
static int tune_kernel(state_t *s, const kinfo_t *k, int w, uint64_t size, int dram,
                       const progs_t *pg, choice_t *out, json_t *tuning)
{
    enum { GRID, TILED, LOCKSTEP, DYNAMIC, FLAT, NL };
    static const char *const lname[NL] = {"grid-stride", "tiled", "lockstep", "dynamic", "flat"};
    /* resident grids: groups per compute unit (0: the most resident), each work-item looping
     * over the array; one-pass grids (DRAM-sized points only: they cannot repeat in-kernel):
     * as many groups as epi elements a work-item need (past what the device holds, waves of
     * groups); the flat layout: one pass, its repetitions launches */
    static const struct {
        long per_cu, epi;
    } cand[] = {{0, 0}, {4, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 64}};
    enum { NC = sizeof cand / sizeof cand[0] };
    const gmb_backend_t *be = s->c->be;
    json_t *cands = json_array();
    int rc = GMB_OK;
    cand_t cr[MAX_CAND];
    size_t seen[NC], nseen = 0, ncr = 0;
    double want = ((const cfg_t *)s->c->cfg)->min_sample_us * 1e3;
    gmb_prog_t *lp[NL] = {pg->grid, k->reduce ? NULL : pg->tiled, pg->lockstep, pg->dynamic, NULL};
    /* the flat layout's group sizes: the default (256) and, where the device takes more, 1024
     * (or its maximum): an implementation that runs a group as a loop over its work-items (PoCL
     * on a CPU) pays its per-group cost a quarter as often (flat 1 at 64 MiB on the 2-core VM,
     * 5 interleaved pairs: copy and triad 1.08x in groups of 1024, 0.88x to 1.17x a pair) */
    long big = s->c->info.max_group_size < 1024 ? (long)s->c->info.max_group_size : 1024;
    const long fgs[2] = {0, big};
    size_t nfgs = big > 256 ? 2 : 1;
    for (int l = 0; l < NL && !rc; l++) {
        int nf = l == FLAT ? 4 : 1;
        nseen = 0;
        for (int f = 0; f < nf && !rc; f++) {
            gmb_prog_t *prog = l == FLAT ? pg->flat[f] : lp[l];
            /* flat: 1, 4 and 16 elements a work-item for the element-wise kernels, 4, 16 and
             * 64 for the reductions (one element each would take a group's tree per group
             * size of elements) */
            if (!prog || (l == FLAT && (k->reduce ? f == 0 : f == 3)))
                continue;
            for (size_t o = 0; o < (l == FLAT ? nfgs : NC) && !rc; o++) {
                if (l != FLAT && cand[o].epi && (!dram || l == DYNAMIC))
                    continue; /* one-pass grids: DRAM points only; dynamic: resident only */
                if ((l == TILED || l == LOCKSTEP) && cand[o].epi && cand[o].epi < 4)
                    continue; /* a tile is 4 elements a work-item: fewer leaves groups idle */
                choice_t ch = {NULL,
                               l == FLAT ? 0 : cand[o].per_cu,
                               l == FLAT ? 0 : cand[o].epi,
                               l == FLAT ? flat_j[f] : 0,
                               lname[l],
                               l == FLAT ? fgs[o] : 0};
                if ((rc = be->kern_get(prog, k->kernel, &ch.k)))
                    break;
                use_shape(s, &ch);
                set_point(s, k, w, size);
                if (!s->warmed && (rc = warm_up(s)))
                    break;
                int dup = 0; /* fewer resident groups than asked: a grid already timed */
                for (size_t q = 0; q < nseen && l != FLAT; q++)
                    dup |= seen[q] == s->geo.groups;
                if (dup)
                    continue;
                if (l != FLAT)
                    seen[nseen++] = s->geo.groups;
                /* timed as the sweep will time it: calibration's last sample (at the reps it
                 * chose) and one more, the faster of the two; the runoff re-times the
                 * finalists in turns, so one fast sample of the noise cannot pick the shape */
                double t[2];
                if ((rc = calibrate(s, want, &t[0])) || (rc = sample(s, &t[1])))
                    break;
                double gbps =
                    (double)(k->reads + k->writes) * (double)size * s->reps / fmin(t[0], t[1]);
                json_t *cj = json_pack(
                    "{s:s, s:I, s:I, s:I, s:I, s:b, s:i, s:f}", "layout", lname[l], "groups_per_cu",
                    (json_int_t)(s->geo.groups / s->c->info.compute_units), "elements_per_item",
                    (json_int_t)(s->flat ? s->flat : s->epi), "groups", (json_int_t)s->geo.groups,
                    "group_size", (json_int_t)s->geo.group_size, "one_pass", s->one_pass || s->flat,
                    "reps", (int)s->reps, "bw_GBps", gbps);
                if (s->flat)
                    json_object_set_new(cj, "reps_by", json_string("launches"));
                json_array_append_new(cands, cj);
                if (ncr < MAX_CAND)
                    cr[ncr++] = (cand_t){
                        ch, s->reps, gbps, s->geo.groups, s->geo.group_size, s->one_pass || s->flat,
                        cj};
            }
        }
    }
    if (rc || !ncr) {
        json_decref(cands);
        return rc ? rc : GMB_ERUNTIME;
    }
    /* the runoff: the RUNOFF fastest candidates timed again, in turns (a burst of the
     * device's or the host's noise then weighs on every finalist alike), RUNOFF samples each;
     * the best median of those wins */
    qsort(cr, ncr, sizeof cr[0], cand_faster);
    size_t nfin = ncr < RUNOFF ? ncr : RUNOFF;
    /* the reference shape (flat, one element a work-item for the element-wise kernels, as
     * BabelStream; 64 for the reductions, as clpeak) is a finalist too: a device whose
     * bandwidth drifts over seconds (the 2-core VM: ~43 and ~73 GB/s) can time it low in
     * the first round */
    int ref = k->reduce ? 64 : 1;
    for (size_t q = nfin; q < ncr; q++)
        if (cr[q].ch.flat == ref && !cr[q].ch.group) {
            cand_t t = cr[nfin];
            cr[nfin] = cr[q];
            cr[q] = t;
            nfin++;
            break;
        }
    double rt[RUNOFF + 1][RUNOFF];
    for (int r = 0; r < RUNOFF && !rc; r++)
        for (size_t q = 0; q < nfin && !rc; q++) {
            use_shape(s, &cr[q].ch);
            set_point(s, k, w, size);
            s->reps = cr[q].reps;
            rc = sample(s, &rt[q][r]);
        }
    if (rc) {
        json_decref(cands);
        return rc;
    }
    size_t win = 0;
    for (size_t q = 0; q < nfin; q++) {
        qsort(rt[q], RUNOFF, sizeof rt[q][0], gmb_cmp_double);
        double g = (double)(k->reads + k->writes) * (double)size * cr[q].reps / rt[q][RUNOFF / 2];
        json_object_set_new(cr[q].j, "runoff_GBps", json_real(g));
        cr[q].gbps = g;
        if (g > cr[win].gbps)
            win = q;
    }
    choice_t bc = cr[win].ch;
    double best = cr[win].gbps;
    size_t best_g = cr[win].groups;
    int best_pass = cr[win].pass;
    *out = bc;
    long epi = bc.flat ? bc.flat : bc.epi;
    char sz[32];
    char per[128] = "the most resident groups", of[40] = "";
    if (bc.group)
        snprintf(of, sizeof of, " of %ld work-items", bc.group);
    if (epi)
        snprintf(per, sizeof per, "%ld element%s a work-item, %zu groups%s (%s)", epi,
                 epi == 1 ? "" : "s", best_g, of,
                 bc.flat     ? "one pass, repeated by launches"
                 : best_pass ? "more than the device holds: one pass"
                             : "resident");
    else if (bc.per_cu)
        snprintf(per, sizeof per, "%zu groups (%s)", best_g,
                 best_pass ? "more than the device holds: one pass" : "resident");
    printf("# tuned %s (%s points): %s, %s (%.0f GB/s at %s; %zu candidates)\n", k->name,
           dram ? "DRAM-sized and transition" : "cache-sized", bc.layout, per, best,
           gmb_fmt_size(size, sz, sizeof sz), json_array_size(cands));
    json_t *kt = json_object_get(tuning, k->name);
    if (!kt)
        json_object_set_new(tuning, k->name, kt = json_object());
    json_object_set_new(kt, dram ? "dram" : "cache",
                        json_pack("{s:I, s:s, s:I, s:I, s:I, s:I, s:o}", "size_bytes",
                                  (json_int_t)size, "layout", bc.layout, "groups_per_cu",
                                  (json_int_t)bc.per_cu, "elements_per_item", (json_int_t)epi,
                                  "groups", (json_int_t)best_g, "group_size",
                                  (json_int_t)cr[win].group_size, "candidates", cands));
    return GMB_OK;
}

/* The summary: each kernel's best point (results.best), printed and recorded. */
static void summarise(gmb_ctx_t *c, const cfg_t *cfg, const json_t *best)
{
    gmb_text_t sm = {{0}, 0};
    double peak = c->info.peak_bw_gbps;
    int cache = 0;
    for (size_t i = 0; i < cfg->kernels.n; i++) {
        const char *name = K[cfg->kernels.idx[i]].name;
        const json_t *b = json_object_get(best, name);
        if (!b)
            continue;
        int dram = json_is_true(json_object_get(b, "dram"));
        char sz[32];
        gmb_text_add(&sm, "%s%s %.4g GB/s", sm.len ? ", " : "", name,
                     json_real_value(json_object_get(b, "bw_GBps")));
        if (peak > 0)
            gmb_text_add(&sm, " (%.1f%%)", json_real_value(json_object_get(b, "pct_peak")));
        gmb_text_add(&sm, " at %s%s",
                     gmb_fmt_size((uint64_t)json_integer_value(json_object_get(b, "size_bytes")),
                                  sz, sizeof sz),
                     dram ? "" : " (not DRAM-sized)");
        cache |= !dram;
    }
    if (sm.len) {
        gmb_text_add(&sm, ": each kernel's best point (a DRAM-sized one where there is one), GB/s");
        if (peak > 0)
            gmb_text_add(&sm, " (%% of the %s %.0f GB/s)",
                         c->info.peak_given ? "given peak" : "nominal peak", peak);
        gmb_text_add(&sm, ", bytes per array%s.",
                     cache ? "; not DRAM-sized: no point of 4x the last-level cache (or its size "
                             "is unknown)"
                           : "");
    }
    gmb_summary(c, "# stream: ", NULL, sm.text, "no kernel measured.");
}

static unsigned tier_notes(const json_t *b)
{
    if (!json_is_true(json_object_get(b, "dram")))
        return GMB_HL_CACHE;
    return json_integer_value(json_object_get(b, "tier")) == 1 ? GMB_HL_NEAR_LLC : 0;
}

/* The headline figures: read, copy and triad at their best point (results.best: DRAM where
 * there is one) in GB/s and % of the peak, and with --energy the board's power and energy
 * per bit there. */
static void headlines(gmb_ctx_t *c, const json_t *best)
{
    static const char *const name[] = {"read", "copy", "triad"};
    static const char *const label[] = {"Read", "Copy", "Triad"};
    for (int i = 0; i < 3; i++) {
        const json_t *b = json_object_get(best, name[i]);
        const json_t *p = NULL;
        if (b)
            gmb_points_where(c, &p, 1, "{s:s, s:O, s:O}", "kernel", name[i], "width_bytes",
                             json_object_get(b, "width_bytes"), "size_bytes",
                             json_object_get(b, "size_bytes"));
        for (int m = 0; m < 2 && p; m++) {
            const json_t *st =
                json_object_get(json_object_get(p, "metrics"), m ? "pct_peak" : "bw_GBps");
            if (!json_is_object(st))
                continue;
            char l[64];
            snprintf(l, sizeof l, m ? "%s, of nominal peak" : "%s bandwidth", label[i]);
            /* the read bandwidth is the memory's (the level view); read and copy, where a
             * memory point gave them, are what other programs measure too */
            unsigned notes = tier_notes(b);
            int bw = !m, mem = !(notes & GMB_HL_CACHE);
            gmb_headline(c, &(gmb_headline_t){
                                .label = l,
                                .unit = m ? "%" : "GB/s",
                                .higher = 1,
                                .value = json_number_value(json_object_get(st, "median")),
                                .ci_lo = json_number_value(json_object_get(st, "ci_lo")),
                                .ci_hi = json_number_value(json_object_get(st, "ci_hi")),
                                .points = &p,
                                .npoints = 1,
                                .notes = notes,
                                .level = bw && i == 0 ? GMB_LEVEL_DRAM : NULL,
                                .how = "gmb-stream read: the best memory-sized point",
                                .quantity = !bw || !mem ? NULL
                                            : i == 0    ? GMB_Q_MEM_READ
                                            : i == 1    ? GMB_Q_MEM_COPY
                                                        : NULL,
                                .source = i ? "stream: copy kernel, best memory-sized point"
                                            : "stream: read kernel, best memory-sized point",
                            });
        }
    }
    const json_t *energy = json_object_get(json_object_get(c->record, "results"), "energy");
    const json_t *idle = json_object_get(energy, "idle_W");
    if (json_is_number(idle))
        gmb_headline(c, &(gmb_headline_t){.label = "Board power, idle",
                                          .unit = "W",
                                          .value = json_number_value(idle),
                                          .ci_lo = NAN,
                                          .ci_hi = NAN});
    static const struct {
        const char *kernel, *field, *label, *unit;
    } E[] = {
        {"read", "power_W", "Read: board power while streaming", "W"},
        {"read", "pJ_per_bit", "Read: board energy per bit", "pJ/bit"},
        {"read", "pJ_per_bit_above_idle", "Read: board energy per bit above idle", "pJ/bit"},
        {"copy", "pJ_per_bit", "Copy: board energy per bit", "pJ/bit"},
        {"copy", "pJ_per_bit_above_idle", "Copy: board energy per bit above idle", "pJ/bit"},
        {"triad", "pJ_per_bit", "Triad: board energy per bit", "pJ/bit"},
        {"triad", "pJ_per_bit_above_idle", "Triad: board energy per bit above idle", "pJ/bit"},
    };
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++) {
        const json_t *e = json_object_get(json_object_get(energy, "kernels"), E[i].kernel);
        const json_t *v = json_object_get(e, E[i].field);
        if (json_is_number(v))
            gmb_headline(c, &(gmb_headline_t){.label = E[i].label,
                                              .unit = E[i].unit,
                                              .value = json_number_value(v),
                                              .ci_lo = NAN,
                                              .ci_hi = NAN,
                                              .notes = tier_notes(e)});
    }
}

/* --evict-first: 0 none, 1 stores, 2 all accesses. */
static int evict_mode(const cfg_t *cfg)
{
    return !cfg->evict ? 0 : !strcmp(cfg->evict, "stores") ? 1 : 2;
}

/* Whether a layout was asked for (--tiled, --dynamic, --lockstep, --flat). */
static int layout_given(const cfg_t *cfg)
{
    return cfg->tiled || cfg->dynamic || cfg->lockstep || cfg->flat;
}

/* The options against each other and the device (the sizes: their defaults and limits; one
 * layout or cache hint at a time, each of 16-byte accesses; the hints' CUDA and sm_80 needs). */
static int stream_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    int rc = cfg->sizes.set ? GMB_OK : default_sizes(c, cfg);
    if (rc || (rc = check_sizes(c, cfg)))
        return rc;
    if (gmb_check_group_size(c, cfg->group_size))
        return GMB_EUSAGE;
    int evict = evict_mode(cfg), layout_opt = layout_given(cfg);
    if (cfg->tune && (cfg->no_tune || layout_opt || cfg->group_size || cfg->groups_per_cu ||
                      cfg->l2_prefetch || cfg->asm_loads || evict)) {
        gmb_error("--tune chooses the layout and the groups itself: not with --no-tune, --tiled, "
                  "--dynamic, --lockstep, --flat, --group-size, --groups-per-cu or a cache hint");
        return GMB_EUSAGE;
    }
    if (cfg->flat && cfg->flat != 1 && cfg->flat != 4 && cfg->flat != 16 && cfg->flat != 64) {
        gmb_error("--flat %ld: 1, 4, 16 or 64 elements a work-item", cfg->flat);
        return GMB_EUSAGE;
    }
    if (!!cfg->tiled + !!cfg->dynamic + !!cfg->lockstep + !!cfg->flat +
            !!(cfg->l2_prefetch || cfg->asm_loads || evict) >
        1) {
        gmb_error("--tiled, --dynamic, --lockstep, --flat and a cache hint: one at a time (each "
                  "its own build of the kernels)");
        return GMB_EUSAGE;
    }
    const char *lopt = cfg->tiled      ? "--tiled"
                       : cfg->dynamic  ? "--dynamic"
                       : cfg->lockstep ? "--lockstep"
                                       : "--flat";
    for (size_t wi = 0; wi < cfg->widths.n && layout_opt; wi++)
        if (width_bytes[cfg->widths.idx[wi]] != 16) {
            gmb_error("%s: 16-byte accesses only (--widths 16)", lopt);
            return GMB_EUSAGE;
        }
    if (cfg->l2_prefetch || cfg->asm_loads || evict) {
        const char *opt = cfg->l2_prefetch ? "--l2-prefetch"
                          : cfg->asm_loads ? "--asm-loads"
                                           : "--evict-first";
        if (!!cfg->l2_prefetch + !!cfg->asm_loads + !!evict > 1) {
            gmb_error("--l2-prefetch, --asm-loads and --evict-first: one at a time (each its own "
                      "build of the kernels; --asm-loads is the control of --l2-prefetch)");
            return GMB_EUSAGE;
        }
        for (size_t wi = 0; wi < cfg->widths.n; wi++)
            if (width_bytes[cfg->widths.idx[wi]] != 16) {
                gmb_error("%s: 16-byte accesses only (--widths 16)", opt);
                return GMB_EUSAGE;
            }
        if (!(be->kind->traits & GMB_BE_PTX)) {
            gmb_skip("%s: PTX cache hints: CUDA only", opt);
            return GMB_ESKIP;
        }
        int sm = 0;
        if (cfg->l2_prefetch && sscanf(c->info.arch, "sm_%d", &sm) == 1 && sm < 80) {
            gmb_skip("--l2-prefetch: the L2::256B hint needs compute capability 8.0 or later "
                     "(this device is %s): its loads would be plain ones",
                     c->info.arch);
            return GMB_ESKIP;
        }
    }
    return GMB_OK;
}

static int stream_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    int evict = evict_mode(cfg), layout_opt = layout_given(cfg);
    int rc = GMB_OK;
    uint64_t top = cfg->sizes.v[cfg->sizes.n - 1];
    state_t s = {.c = c, .per_cu = cfg->groups_per_cu};
    gmb_prog_t *prog[3] = {NULL, NULL, NULL};
    progs_t pg = {0}; /* the layouts tuning draws on, and --tiled's and --dynamic's */
    int tune = !cfg->no_tune && !layout_opt && !cfg->group_size && !cfg->groups_per_cu &&
               !cfg->l2_prefetch && !cfg->asm_loads && !evict;
    json_t *tuning = tune ? json_object() : NULL;
    if (cfg->l2_prefetch || cfg->asm_loads)
        gmb_add_result(c, "loads",
                       json_string(cfg->l2_prefetch
                                       ? "inputs loaded with PTX ld.global.nc.L2::256B (sm_80 "
                                         "on, where ptxas may narrow the hint)"
                                       : "inputs loaded with PTX ld.global.nc, no hint (the "
                                         "control of --l2-prefetch; plain loads before sm_80)"));
    if (evict)
        gmb_add_result(c, "evict_first",
                       json_string(evict == 1 ? "stores: st.global.cs (__stcs)"
                                              : "loads and stores: ld.global.cs (__ldcs) and "
                                                "st.global.cs (__stcs)"));
    json_t *best = json_object();
    int injected = 0;
    /* partial sums: the most groups of any grid (a tuned one-pass one: one element each) */
    size_t max_groups = (size_t)c->info.compute_units * 1024 + 1;
    if (tune || cfg->flat) {
        gmb_launch_t g1;
        gmb_grid(c, NULL, cfg->group_size, 1, 1, &g1);
        size_t one = (size_t)(top / 16 / g1.group_size) + 1;
        max_groups = one > max_groups ? one : max_groups;
    }
    /* the inputs: the flat reductions' last tile reads on past the array (IN_BYTES) */
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, IN_BYTES(top), &s.a)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, IN_BYTES(top), &s.b)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, top, &s.out)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, max_groups * sizeof(float), &s.part)))
        goto out;
    if (tune || cfg->dynamic) { /* the dynamic layout's counter and claim owners */
        s.owner_cap = 4u << 20;
        if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, 256, &s.ctr)) ||
            (rc = be->alloc(c->dev, GMB_MEM_DEVICE, s.owner_cap * sizeof(gmb_u32), &s.owner)))
            goto out;
    }
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes counted per element x elements x reps / kernel time (1e9 B/s)");
    if (c->info.peak_bw_gbps > 0)
        gmb_declare_metric(c, "pct_peak", "%", "higher",
                           "bw_GBps as a percentage of the nominal peak bandwidth");
    json_t *kj = json_object();
    for (int i = 0; i < NK; i++)
        json_object_set_new(kj, K[i].name,
                            json_pack("{s:s, s:i, s:i, s:s}", "formula", K[i].formula, "reads",
                                      K[i].reads, "writes", K[i].writes, "bytes_per_element",
                                      "(reads + writes) x width"));
    gmb_add_result(c, "kernels", kj);
    print_header(c);
    int inited = 0;
    for (size_t wi = 0; wi < cfg->widths.n && !rc; wi++) {
        int v = cfg->widths.idx[wi], w = width_bytes[v];
        const char *var = cfg->l2_prefetch ? "w16p"
                          : cfg->asm_loads ? "w16a"
                          : evict          ? (evict == 1 ? "w16s" : "w16e")
                                           : variants[v].variant;
        if ((rc = be->prog_load(c->dev, c->bench->kernels, var, &prog[v])))
            break;
        if (!inited) { /* the same scalars for every width: initialise once */
            gmb_kern_t *ki;
            gmb_u64 n = top / (uint64_t)w;
            gmb_launch_t g;
            if ((rc = be->kern_get(prog[v], "stream_init", &ki)))
                break;
            /* one element a work-item: every layout's best shape for a kernel that computes
             * (a grid-stride loop is 10x slower on PoCL, where a group runs as a loop) */
            gmb_grid_pass(c, cfg->group_size, 1, n, &g);
            gmb_u32 sa = SEED_A(c), sb = SEED_B(c);
            gmb_arg_t aa[] = {GMB_A_BUF(s.a), GMB_A_VAL(n), GMB_A_VAL(sa)};
            gmb_arg_t ab[] = {GMB_A_BUF(s.b), GMB_A_VAL(n), GMB_A_VAL(sb)};
            if ((rc = be->launch(ki, &g, aa, 3, NULL)) || (rc = be->launch(ki, &g, ab, 3, NULL)))
                break;
            inited = 1;
        }
        if (w == 16 && (tune || cfg->tiled) && !pg.tiled &&
            (rc = be->prog_load(c->dev, c->bench->kernels, "w16t", &pg.tiled)))
            break;
        if (w == 16 && (tune || cfg->dynamic) && !pg.dynamic &&
            (rc = be->prog_load(c->dev, c->bench->kernels, "w16d", &pg.dynamic)))
            break;
        if (w == 16 && (tune || cfg->lockstep) && !pg.lockstep &&
            (rc = be->prog_load(c->dev, c->bench->kernels, "w16l", &pg.lockstep)))
            break;
        for (int f = 0; f < 4 && w == 16 && (tune || cfg->flat) && !rc; f++) {
            char fv[16];
            snprintf(fv, sizeof fv, "w16f%d", flat_j[f]);
            if (!pg.flat[f] && (tune || cfg->flat == flat_j[f]))
                rc = be->prog_load(c->dev, c->bench->kernels, fv, &pg.flat[f]);
        }
        pg.grid = prog[v];
        for (size_t ki = 0; ki < cfg->kernels.n && !rc; ki++) {
            const kinfo_t *k = &K[cfg->kernels.idx[ki]];
            int fi = cfg->flat == 1 ? 0 : cfg->flat == 4 ? 1 : cfg->flat == 16 ? 2 : 3;
            gmb_prog_t *kp = w == 16 && cfg->tiled && !k->reduce ? pg.tiled
                             : w == 16 && cfg->dynamic           ? pg.dynamic
                             : w == 16 && cfg->lockstep          ? pg.lockstep
                             : w == 16 && cfg->flat              ? pg.flat[fi]
                                                                 : prog[v];
            /* untuned: the resident grid-stride grid (or the layout asked for) everywhere */
            choice_t base = {NULL,
                             cfg->groups_per_cu,
                             0,
                             kp == pg.flat[fi] ? (int)cfg->flat : 0,
                             kp == pg.tiled      ? "tiled"
                             : kp == pg.dynamic  ? "dynamic"
                             : kp == pg.lockstep ? "lockstep"
                             : kp == pg.flat[fi] ? "flat"
                                                 : "grid-stride",
                             0};
            if ((rc = be->kern_get(kp, k->kernel, &base.k)))
                break;
            s.ch[0] = s.ch[1] = base;
            uint64_t at[2];
            for (int d = 0; d < 2 && w == 16 && tune && !rc; d++)
                if (tune_size(c, k, &cfg->sizes, d, &at[d]))
                    rc = tune_kernel(&s, k, w, at[d], d, &pg, &s.ch[d], tuning);
            for (size_t p = 0; p < cfg->sizes.n && !rc; p++)
                rc = run_point(&s, k, w, cfg->sizes.v[p], &injected, &best);
        }
    }
    if (!rc)
        summarise(c, cfg, best);
    if (c->cnt)
        counters_summary(c);
    s.epi = 0;
    s.flat = 0;
    s.group = 0;
    s.layout = "grid-stride";
    s.per_cu = cfg->groups_per_cu; /* the energy part: grid-stride, the most resident groups */
    if (!rc && cfg->energy_s > 0)
        rc = energy_part(&s, prog, best);
    if (tuning) {
        gmb_add_result(c, "tuning", tuning);
        tuning = NULL;
    }
    headlines(c, best); /* those of the points it finished, when stopped early too */
    gmb_add_result(c, "best", best);
    best = NULL;
out:
    json_decref(best);
    json_decref(tuning);
    be->prog_free(pg.tiled);
    be->prog_free(pg.dynamic);
    be->prog_free(pg.lockstep);
    for (int f = 0; f < 4; f++)
        be->prog_free(pg.flat[f]);
    for (int i = 0; i < 3; i++)
        be->prog_free(prog[i]);
    be->free(s.a);
    be->free(s.b);
    be->free(s.out);
    be->free(s.part);
    be->free(s.ctr);
    be->free(s.owner);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "stream",
    .summary = "streaming bandwidth: read, fill, copy, scale, add, triad, dot; caches to DRAM",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = stream_run,
    .check = stream_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
