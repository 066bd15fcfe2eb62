/* l2.c - gmb-l2: what the L2 (on a CPU device: the last-level cache) does for a workload:
 * bandwidth against the working set with L1 bypassed (plateaus, capacity, ratio, hit-rate
 * model), near and far partitions, persisting access-policy windows, cold against warm. */
#include "model/curves.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"
#include "model/levels.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));
/* l2.cu (absent when CUDA was not built): partitions and persistence */
extern int gmb_l2_cuda_partition(int dev, size_t bytes, unsigned line_bytes, unsigned passes,
                                 int sm, unsigned *cyc, unsigned *fin, double *ns, int *reached)
    __attribute__((weak));
extern void gmb_l2_cuda_partition_done(void) __attribute__((weak));
extern int gmb_l2_cuda_persist_open(int dev, size_t *hot_bytes, size_t cold_bytes, unsigned seed,
                                    void **h, size_t *max_setaside, size_t *max_window, char *why,
                                    size_t whylen) __attribute__((weak));
extern int gmb_l2_cuda_persist_config(void *h, size_t setaside, size_t max_window, size_t *granted,
                                      size_t *window, double *hit_ratio) __attribute__((weak));
extern int gmb_l2_cuda_persist_sample(void *h, unsigned rounds, size_t chunk_bytes, double *ns,
                                      unsigned *sum) __attribute__((weak));
extern int gmb_l2_cuda_persist_close(void *h) __attribute__((weak));
extern int gmb_l2_cuda_persist_empty(void *h, double *ns) __attribute__((weak));

/* the kernels' two shapes (l2.cl): grid-stride, and lockstep (tuning's other candidate) */
static const gmb_cl_variant_t variants[] = {{"u4", ""}, {"u4l", "-DGMB_LOCKSTEP=1"}, {NULL, NULL}};
enum { L_GRID, L_LOCKSTEP, NLAYOUTS };
static const char *const layout_names[] = {"auto", "grid-stride", "lockstep", NULL};
#define TUNE_MARGIN 1.05 /* lockstep replaces grid-stride when faster by this (geometric mean) */

enum { P_READ, P_WRITE, P_PART, P_PERSIST, P_COLDWARM, P_L1, NPARTS };
static const char *const part_names[] = {"read",     "write", "partitions", "persistence",
                                         "coldwarm", "l1",    NULL};

#define LINE_BYTES  128u        /* a slice of the partition test: one NVIDIA L2 line */
#define FULL_VERIFY (32u << 20) /* bytes of a written buffer verified entirely */
#define CHUNKS      8
#define CHUNK_BYTES (256u << 10)
#define WRITE_KEY   0x5bd1e995u
#define MAX_REPS    (1u << 24)
#define MAX_SMS     64

typedef struct cfg {
    gmb_sweep_t sizes;    /* bandwidth working sets, bytes */
    gmb_list_t parts;     /* indices into part_names */
    gmb_sweep_t cw_sizes; /* cold/warm working sets */
    gmb_sweep_t l1_sizes; /* l1: the set every group re-reads */
    uint64_t flush;       /* bytes of the cold sets (coldwarm) and the cold stream; 0: 4 x LLC */
    long group_size;      /* work-items per group; 0: 256 (or the device maximum) */
    long groups_per_cu;   /* groups per compute unit; 0: fill the CU (GPU) or 4 (CPU) */
    const char *layout;   /* "auto" (tuned), "grid-stride" or "lockstep" */
    double min_sample_us; /* shortest timed sample of a bandwidth point */
    long sms;             /* partitions: SMs measured from */
    uint64_t part_bytes;  /* partitions: buffer bytes; 0: 3/4 of the LLC */
    long part_reps;       /* partitions: timed walks over the lines */
    uint64_t hot_bytes;   /* persistence: hot buffer; 0: the device's largest set-aside */
    uint64_t data_bytes;  /* l2_check: the data buffer, the largest set any part reads */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const gmb_opt_t opts[] = {
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", NULL, 16, 0x1p62, NULL,
     "bandwidth working sets: sizes, ranges A:B[:x2|:+S|:N/oct] [default 1MiB:16xLLC:4/oct]", 0},
    {"parts", GMB_OPT_LIST, O(parts), "LIST", "all", 1, 0, part_names,
     "what to measure: read,write,partitions,persistence,coldwarm,l1 or all", 0},
    {"coldwarm-sizes", GMB_OPT_SWEEP, O(cw_sizes), "LIST", NULL, 16, 0x1p62, NULL,
     "cold/warm working sets (below the LLC) [default 1MiB:LLC/2:x4]", 0},
    {"l1-sizes", GMB_OPT_SWEEP, O(l1_sizes), "LIST", NULL, 16, 0x1p62, NULL,
     "l1: the set every group re-reads [default 4KiB:LLC/2:2/oct]", 0},
    {"flush", GMB_OPT_SIZE, O(flush), "BYTES", NULL, 16, 0x1p62, NULL,
     "bytes read between two reads of a cold set (cold/warm), streamed by persistence [default 4 x "
     "LLC]",
     0},
    {"group-size", GMB_OPT_INT, O(group_size), "N", "0", 0, 1024, NULL,
     "work-items per group, a power of two; 0 = 256 or the device maximum", 0},
    {"groups-per-cu", GMB_OPT_INT, O(groups_per_cu), "N", "0", 0, 1024, NULL,
     "groups per compute unit; 0 = as many as fit (GPU) or 4 (CPU)", 0},
    {"layout", GMB_OPT_STR, O(layout), "NAME", "auto", 0, 0, layout_names,
     "the read, write and l1 kernels' shape: auto = tuned per part (see Shapes below), "
     "grid-stride or lockstep",
     0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "200", 1, 1e7, NULL,
     "shortest timed bandwidth sample; working sets are re-read in-kernel to reach it", 0},
    {"sms", GMB_OPT_INT, O(sms), "N", "8", 1, MAX_SMS, NULL,
     "partitions: SMs the latency to every line is measured from (spread over the GPU)", 0},
    {"part-bytes", GMB_OPT_SIZE, O(part_bytes), "BYTES", NULL, LINE_BYTES, 1u << 30, NULL,
     "partitions: buffer of lines, above one partition's near copy [default 3/4 of the L2]", 0},
    {"part-reps", GMB_OPT_INT, O(part_reps), "N", "2", 1, 64, NULL,
     "partitions: timed walks over the lines (one load a line; after one untimed)", 0},
    {"hot-bytes", GMB_OPT_SIZE, O(hot_bytes), "BYTES", NULL, 16, 0x1p62, NULL,
     "persistence: hot buffer [default the device's largest persisting set-aside]", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Parts:\n"
    "  read, write   bandwidth against the working set: every repetition reads (writes) every\n"
    "                16-byte element once; repetitions run in the kernel so a sample lasts\n"
    "                --min-sample-us. CUDA loads/stores bypass L1 (PTX ld.global.cg /\n"
    "                st.global.cg). OpenCL has no such access: each repetition rotates the\n"
    "                work-items over the working set by one group, so a compute unit re-reads\n"
    "                data only after the whole working set went by (L1 reuse negligible when\n"
    "                the working set is well above one L1). From the curve: the cache plateau,\n"
    "                the memory plateau, the effective capacity (the largest working set still\n"
    "                on the cache plateau) and their ratio; per point the fraction of traffic\n"
    "                the cache serves by the two-plateau model (hit_rate_est), and with\n"
    "                --counters the L2's own sector hit rate (hit_rate_hw, CUPTI; else null).\n"
    "  partitions    CUDA: latency (SM clock) from one SM to every 128-byte line of a buffer\n"
    "                above one partition's near copy and within the L2 (--part-bytes), one\n"
    "                ld.global.cg load a line, the lines walked in order (a line is timed again\n"
    "                only after the whole buffer went by, so no near copy of its last visit is\n"
    "                left), from --sms SMs (the block whose %smid matches measures). Each SM's\n"
    "                line latencies are split into modes (near, far, ...); SMs whose near lines\n"
    "                agree are one side, complementary ones two: the partitions, each mode's\n"
    "                latency and share, which lines are near to which SMs. \"single partition\"\n"
    "                only where every SM shows one mode.\n"
    "  persistence   CUDA 11+: one launch re-reads a hot buffer (--hot-bytes) rounds times,\n"
    "                each pass followed by one L2 of a cold buffer (--flush bytes) streamed, so\n"
    "                that without a window the hot set is evicted between its passes; its time\n"
    "                with no window and with a persisting access-policy window, set-aside swept\n"
    "                to the device maximum; the gain (no window / largest set-aside) with its\n"
    "                CI, \"no measurable gain\" when the CI holds 1. The device's persisting L2\n"
    "                limit is restored afterwards, on errors too.\n"
    "  l1            every group of a full grid re-reads the same set (--l1-sizes), loads\n"
    "                through L1 (CUDA: ld.global.ca), so each compute unit reads it again and\n"
    "                again: the aggregate bandwidth of the L1s (every compute unit's sum) while\n"
    "                the set fits one, then of the next level (RRZE gpu-cache's method). Bytes\n"
    "                = groups x passes x set; every group's sum is checked. The first plateau\n"
    "                is named L1 only on a GPU where it ends below an eighth of the L2 the\n"
    "                device reports and a slower plateau reaches that far; otherwise numbered.\n"
    "  coldwarm      per working set: warm = the set re-read in one launch (passes from the\n"
    "                time); cold = sets that follow each other in memory, --flush bytes in all,\n"
    "                read once in one launch, so that each was evicted by the others; both\n"
    "                times per pass, cold/warm with its CI, \"no measurable gain\" when the CI\n"
    "                holds 1. Every sample of both parts lasts 10 empty launches (same grid,\n"
    "                no data; recorded) and --min-sample-us at least; one that does not is\n"
    "                flagged.\n"
    "Shapes (--layout): grid-stride (every work-item's four loads in flight a grid apart; a\n"
    "repetition rotates the work-items by one group) and lockstep (groups take tiles of 4 x\n"
    "group size consecutive elements, a group barrier after each, so that an implementation\n"
    "that runs a group's work-items as a loop, PoCL on a CPU, streams each tile as one vector\n"
    "loop instead of one strided walk per work-item; a repetition rotates them by one tile).\n"
    "auto tunes the read (and coldwarm), write and l1 kernels once each before their sweep:\n"
    "each shape on a cache-sized set (the largest up to LLC/4) and a memory-sized one (the\n"
    "smallest from 8 x LLC; l1: the smallest from 16 KiB and the largest), the fastest of 3\n"
    "samples; lockstep where its geometric mean is 1.05x grid-stride's or more. One shape\n"
    "serves a part's whole curve (a change of kernel inside it would be a step the caches did\n"
    "not make). Trials, choice and rule: results.tuning.PART; each point: extra.layout.\n"
    "Data are pseudo-random 32-bit words summed with wrap-around: every sum is checked exactly\n"
    "on the host; written buffers are checked word by word (8 chunks beyond 32 MiB). Bandwidth\n"
    "is bytes / median kernel time (1e9 B/s). On a CPU device (PoCL) the cache is the host's\n"
    "last-level cache and is named so; GPU structure is never claimed there.\n";

#define SEED_DATA(c) ((gmb_u32)(c)->o.seed * 2u + 1u)
#define SEED_HOT(c)  ((gmb_u32)(c)->o.seed * 2u + 2u)

typedef struct state {
    gmb_ctx_t *c;             /* the run */
    gmb_buf_t *data;          /* the working sets */
    gmb_buf_t *part;          /* per-group partial sums */
    size_t part_bytes;        /* its size */
    gmb_kern_t *kread;        /* l2_read */
    gmb_kern_t *kwrite;       /* l2_write */
    gmb_kern_t *kinit;        /* l2_init */
    gmb_kern_t *kl1;          /* l2_l1read */
    gmb_kern_t *kr[NLAYOUTS]; /* l2_read in each shape */
    gmb_kern_t *kw[NLAYOUTS]; /* l2_write in each shape */
    gmb_kern_t *kl[NLAYOUTS]; /* l2_l1read in each shape */
    int lay[3];        /* the shape of read (and coldwarm), write and l1: L_*, -1 not chosen */
    int cur;           /* the shape of kread, kwrite and kl1 (L_*) */
    json_t *tuning;    /* results.tuning: each part's shape, and how it was chosen */
    gmb_launch_t geo;  /* launch of the current point */
    int write;         /* 1: the write kernel */
    int l1;            /* 1: the l1 kernel (every group the whole set) */
    gmb_u64 n;         /* uint4 elements of the current point */
    gmb_u32 reps;      /* in-kernel repetitions */
    gmb_u64 sum_n;     /* words summed so far in sum_val */
    gmb_u32 sum_val;   /* sum of gmb_hash(SEED_DATA, w), w < sum_n, mod 2^32 */
    int injected;      /* --inject-error planted */
    int gpu;           /* a GPU device: "L2" and "DRAM" */
    int known;         /* the GPU's structure is known (GMB_BE_GPU_KNOWN, levels.h) */
    int ptx;           /* PTX cache operators and the program's linked host code (CUDA) */
    const char *cache; /* the cache's name in the output */
    const char *mem;   /* the memory's name */
} state_t;

/* ---- small helpers ---------------------------------------------------------------------- */

static int has(const gmb_list_t *l, int v)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->idx[i] == v)
            return 1;
    return 0;
}

static char *fsz(double bytes, char *buf)
{
    return gmb_fmt_size((uint64_t)(bytes + 0.5), buf, 32);
}

/* Sum of the data words [0, nwords) mod 2^32, extended from the last call (sizes ascending
 * within a sweep; a smaller one starts over). */
static gmb_u32 data_sum(state_t *s, gmb_u64 nwords)
{
    if (nwords < s->sum_n) {
        s->sum_n = 0;
        s->sum_val = 0;
    }
    gmb_u32 seed = SEED_DATA(s->c), v = s->sum_val;
    for (gmb_u64 w = s->sum_n; w < nwords; w++)
        v += gmb_hash(seed, w);
    s->sum_n = nwords;
    s->sum_val = v;
    return v;
}

static gmb_u32 hash_sum(gmb_u32 seed, gmb_u64 nwords)
{
    gmb_u32 v = 0;
    for (gmb_u64 w = 0; w < nwords; w++)
        v += gmb_hash(seed, w);
    return v;
}

/* ---- options and sizes ------------------------------------------------------------------ */

static int default_sweep(gmb_ctx_t *c, gmb_sweep_t *sw, const char *fmt, uint64_t a, uint64_t b)
{
    char spec[128], err[256];
    snprintf(spec, sizeof spec, fmt, (unsigned long long)a, (unsigned long long)b);
    if (gmb_parse_sweep(spec, sw, err, sizeof err)) {
        gmb_error("default sizes '%s': %s", spec, err);
        return GMB_ERUNTIME;
    }
    sw->set = 1;
    return GMB_OK;
}

/* Fill the defaults that depend on the device, check everything against it. Nothing is
 * printed but one error line. */
static int check_options(gmb_ctx_t *c, cfg_t *cfg, uint64_t *data_bytes, uint64_t *flush_bytes)
{
    const gmb_dev_info_t *d = &c->info;
    uint64_t llc = d->llc_bytes, cap = d->mem_bytes / 4;
    char a[32], b[32];
    if (d->max_alloc_bytes && d->max_alloc_bytes < cap)
        cap = d->max_alloc_bytes;
    cap &= ~(uint64_t)15;
    if (gmb_check_group_size(c, cfg->group_size))
        return GMB_EUSAGE;
    int rc = GMB_OK;
    if (!cfg->sizes.set) {
        /* 1 MiB .. 16 x LLC, 4 points per octave (LLC unknown: 256 MiB): on the H200 the read
         * bandwidth still fell at 4x its 60 MiB L2 (mixed hits), DRAM's plateau lay beyond */
        uint64_t top = llc ? 16 * llc : 256ull << 20;
        top = top < cap ? top : cap;
        rc = default_sweep(c, &cfg->sizes, "%llu:%llu:4/oct", top < (1u << 20) ? top : 1u << 20,
                           top);
    }
    if (!rc && !cfg->cw_sizes.set) {
        uint64_t top = llc ? llc / 2 : 16u << 20;
        top = top < cap ? top : cap;
        rc = default_sweep(c, &cfg->cw_sizes, "%llu:%llu:x4", top < (1u << 20) ? top : 1u << 20,
                           top);
    }
    if (!rc && !cfg->l1_sizes.set) {
        /* 4 KiB .. half the LLC (unknown: 16 MiB), 2 points an octave: the L1s' plateau and
         * the next level's; past the LLC every group still reads the lines the others just
         * read, so that part of the curve is no memory bandwidth and is not swept */
        uint64_t top = llc ? llc / 2 : 16u << 20;
        top = top < cap ? top : cap;
        rc = default_sweep(c, &cfg->l1_sizes, "%llu:%llu:2/oct", top < 4096 ? top : 4096, top);
    }
    if (rc)
        return rc;
    gmb_sweep_round(&cfg->sizes, 16); /* whole 16-byte elements */
    gmb_sweep_round(&cfg->cw_sizes, 16);
    gmb_sweep_round(&cfg->l1_sizes, 16);
    if (!cfg->sizes.n || !cfg->cw_sizes.n || !cfg->l1_sizes.n) {
        gmb_error("--sizes/--coldwarm-sizes/--l1-sizes: every working set must hold one 16-byte "
                  "element");
        return GMB_EUSAGE;
    }
    uint64_t fl = cfg->flush ? cfg->flush : llc ? 4 * llc : 64ull << 20;
    fl &= ~(uint64_t)15;
    if (!fl)
        fl = 16;
    uint64_t top = 0;
    if (has(&cfg->parts, P_READ) || has(&cfg->parts, P_WRITE))
        top = cfg->sizes.v[cfg->sizes.n - 1];
    if (has(&cfg->parts, P_L1) && cfg->l1_sizes.v[cfg->l1_sizes.n - 1] > top)
        top = cfg->l1_sizes.v[cfg->l1_sizes.n - 1];
    for (size_t i = 0; has(&cfg->parts, P_COLDWARM) && i < cfg->cw_sizes.n; i++) {
        uint64_t S = cfg->cw_sizes.v[i], span = (fl + S - 1) / S * S; /* the cold sets */
        top = span > top ? span : top;
    }
    int persist = has(&cfg->parts, P_PERSIST);
    if (d->max_alloc_bytes && (top > d->max_alloc_bytes || fl > d->max_alloc_bytes)) {
        gmb_error("--sizes/--flush: %s is more than the device allows in one buffer (%s)",
                  gmb_fmt_size(top > fl ? top : fl, a, sizeof a),
                  gmb_fmt_size(d->max_alloc_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (top + (persist ? fl : 0) > d->mem_bytes / 2) {
        gmb_error("--sizes/--flush: %s of working sets, cold sets and cold stream do not fit in "
                  "half the device's %s of memory",
                  gmb_fmt_size(top + (persist ? fl : 0), a, sizeof a),
                  gmb_fmt_size(d->mem_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    *data_bytes = top;
    *flush_bytes = fl;
    return GMB_OK;
}

/* The options against the device (check_options), completed in cfg: the data buffer's size
 * and the flush stream's. */
static int l2_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    uint64_t flush_bytes = 0;
    int rc = check_options(c, cfg, &cfg->data_bytes, &flush_bytes);
    if (!rc && flush_bytes)
        cfg->flush = flush_bytes;
    return rc;
}

/* ---- bandwidth -------------------------------------------------------------------------- */

static int sample_bw(void *arg, double *ns)
{
    state_t *s = arg;
    if (s->write) {
        gmb_u32 key = WRITE_KEY;
        gmb_arg_t av[] = {GMB_A_BUF(s->data), GMB_A_VAL(s->n), GMB_A_VAL(key), GMB_A_VAL(s->reps)};
        return s->c->be->launch(s->kwrite, &s->geo, av, 4, ns);
    }
    gmb_arg_t av[] = {GMB_A_BUF(s->data), GMB_A_BUF(s->part), GMB_A_VAL(s->n), GMB_A_VAL(s->reps)};
    return s->c->be->launch(s->l1 ? s->kl1 : s->kread, &s->geo, av, 4, ns);
}

/* The partial sums of the last read launch against reps x the data's sum. */
static int verify_read(state_t *s, char *err, size_t errlen)
{
    size_t G = s->geo.groups;
    gmb_u32 *got = malloc(G * sizeof *got), tot = 0;
    if (!got)
        return GMB_ERUNTIME;
    int rc = s->c->be->read(s->part, 0, got, G * sizeof *got);
    if (!rc && s->c->o.inject_error && !s->injected) { /* test aid: one wrong partial sum */
        got[0] += 1u;
        s->injected = 1;
    }
    gmb_u32 want = s->reps * data_sum(s, 4 * s->n);
    for (size_t g = 0; !rc && g < G; g++) {
        if (s->l1 && got[g] != want) { /* every group read the whole set */
            snprintf(err, errlen, "group %zu of %zu: sum %u, expected %u (%u reps)", g, G, got[g],
                     want, s->reps);
            free(got);
            return GMB_EVERIFY;
        }
        tot += got[g];
    }
    free(got);
    if (rc)
        return rc;
    if (s->l1)
        return GMB_OK;
    if (tot != want) {
        snprintf(err, errlen, "sum of %zu partial sums %u, expected %u (%u reps)", G, tot, want,
                 s->reps);
        return GMB_EVERIFY;
    }
    return GMB_OK;
}

/* The written words (all up to 32 MiB, else the first, last and 6 random chunks). */
static int verify_write(state_t *s, char *err, size_t errlen, const char **how)
{
    const gmb_backend_t *be = s->c->be;
    size_t bytes = (size_t)s->n * 16, span = bytes <= FULL_VERIFY ? bytes : CHUNK_BYTES;
    int chunks = bytes <= FULL_VERIFY ? 1 : CHUNKS;
    size_t nchunk = bytes / CHUNK_BYTES;
    *how = chunks == 1 ? "full" : "sampled";
    if (s->c->o.inject_error && !s->injected) { /* test aid: the last word wrong */
        gmb_u32 bad = ~((gmb_u32)(bytes / 4 - 1) * 0x9e3779b9u ^ WRITE_KEY);
        int rc = be->write(s->data, bytes - 4, &bad, 4);
        s->injected = 1;
        if (rc)
            return rc;
    }
    gmb_u32 *buf = malloc(span);
    if (!buf)
        return GMB_ERUNTIME;
    int rc = GMB_OK;
    for (int ch = 0; ch < chunks && !rc; ch++) {
        size_t off = 0;
        if (chunks > 1 && ch == chunks - 1)
            off = bytes - span;
        else if (chunks > 1 && ch > 0)
            off = (size_t)(gmb_hash(SEED_DATA(s->c) + 7u, (gmb_u64)ch) % nchunk) * CHUNK_BYTES;
        if ((rc = be->read(s->data, off, buf, span)))
            break;
        for (size_t q = 0; q < span / 4; q++) {
            gmb_u32 w = (gmb_u32)(off / 4 + q), want = w * 0x9e3779b9u ^ WRITE_KEY;
            if (buf[q] != want) {
                snprintf(err, errlen, "word %zu: got 0x%08x, expected 0x%08x", off / 4 + q, buf[q],
                         want);
                rc = GMB_EVERIFY;
                break;
            }
        }
    }
    free(buf);
    return rc;
}

/* One curve: sizes and bandwidths of its points, and the points (borrowed) for hit rates. */
typedef struct curve {
    size_t n;
    double *size, *bw;
    json_t **pt;
} curve_t;

static json_t *point_params(const char *part, const char *state, uint64_t size, uint32_t reps,
                            const gmb_launch_t *g, uint64_t param, int sm)
{
    return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:i}", "part", part, "state", state,
                     "size_bytes", (json_int_t)size, "reps", (json_int_t)reps, "groups",
                     (json_int_t)(g ? g->groups : 1), "group_size",
                     (json_int_t)(g ? g->group_size : 1), "param_bytes", (json_int_t)param, "sm",
                     sm);
}

/* reps passes a launch, and the grid for them: one work-item a position of the launch's
 * reps x n, at most a full grid (the kernels walk the passes as one sequence) */
static void set_reps(state_t *s, gmb_u32 reps)
{
    const cfg_t *cfg = s->c->cfg;
    s->reps = reps ? reps : 1;
    if (s->n && s->reps > (UINT64_C(1) << 62) / s->n) /* reps x n stays a 64-bit count */
        s->reps = (gmb_u32)((UINT64_C(1) << 62) / s->n);
    if (s->l1) /* a full grid, every group the whole set */
        gmb_grid(s->c, s->kl1, cfg->group_size, cfg->groups_per_cu, UINT64_MAX / 2, &s->geo);
    else
        gmb_grid(s->c, s->write ? s->kwrite : s->kread, cfg->group_size, cfg->groups_per_cu,
                 (uint64_t)s->reps * s->n, &s->geo);
}

/* The current point's passes a launch (s->write, l1 and n set): from four loads in flight
 * for every work-item of a full grid (a small set reads in later passes what a large one
 * reads in one), grown until a sample lasts the shortest sample time; *t1 = the last
 * sample's time, pushed into ser (when not NULL) where no pass was added after it. */
static int calibrate(state_t *s, double *t1, gmb_series_t *ser)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    int rc;
    double want = fmax(cfg->min_sample_us * 1e3, 100.0 * c->info.timer_res_ns);
    gmb_launch_t full;
    gmb_grid(c,
             s->write ? s->kwrite
             : s->l1  ? s->kl1
                      : s->kread,
             cfg->group_size, cfg->groups_per_cu, UINT64_MAX / 2, &full);
    /* (l1: every group reads the whole set, four loads in flight for each of its work-items) */
    double slots = 4.0 * (double)full.group_size * (s->l1 ? 1.0 : (double)full.groups);
    set_reps(s, (gmb_u32)fmin(ceil(slots / (double)s->n), (double)MAX_REPS));
    if ((rc = sample_bw(s, t1)) || (rc = sample_bw(s, t1))) /* the first is the warm-up */
        return rc;
    if (ser && *t1 >= want && (rc = gmb_series_push(ser, *t1)))
        return rc;
    for (int it = 0; it < 6 && *t1 < want && s->reps < MAX_REPS; it++) {
        double f = fmin(1024.0, fmax(2.0, 1.2 * want / fmax(*t1, 1.0)));
        set_reps(s, (gmb_u32)fmin((double)s->reps * f, (double)MAX_REPS));
        if ((rc = sample_bw(s, t1)))
            return rc;
    }
    return GMB_OK;
}

static int run_bw_point(state_t *s, int part, uint64_t size, curve_t *cv)
{
    gmb_ctx_t *c = s->c;
    const gmb_backend_t *be = c->be;
    int rc;
    s->write = part == P_WRITE;
    s->l1 = part == P_L1;
    s->n = size / 16;
    set_reps(s, 1);
    if (s->write) /* poison what the kernel must write */
        rc = be->fill(s->data, 0, 0xff, (size_t)size);
    else /* (every group a full grid can have) */
        rc = be->fill(s->part, 0, 0xff, s->part_bytes);
    if (rc)
        return rc;
    double t1;
    gmb_series_t ser = {.warmed = 1};
    if ((rc = calibrate(s, &t1, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    if ((rc = gmb_measure(c, sample_bw, s, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    char err[256] = "";
    const char *how = "full";
    rc = s->write ? verify_write(s, err, sizeof err, &how) : verify_read(s, err, sizeof err);
    if (rc && rc != GMB_EVERIFY) {
        gmb_series_free(&ser);
        return rc;
    }
    double bytes = (double)size * s->reps * (s->l1 ? (double)s->geo.groups : 1.0);
    const char *where = gmb_residence(&c->info, size);
    json_t *pt =
        gmb_point_new(point_params(part_names[part], "-", size, s->reps, &s->geo, 0, -1), &ser);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes, &ser.st));
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "where", json_string(where));
    json_object_set_new(extra, "verified", json_string(rc == GMB_OK ? how : "FAILED"));
    json_object_set_new(extra, "hit_rate_est", json_null());
    /* --counters: the L2's own hit rate of one more sample's sectors (CUPTI), beside the
     * model's estimate; null without counters */
    json_object_set_new(extra, "hit_rate_hw",
                        ser.cnt.ok && ser.cnt.l2_hit_pct >= 0 ? json_real(ser.cnt.l2_hit_pct / 100)
                                                              : json_null());
    if (ser.cnt.ok)
        json_object_set_new(extra, "hit_rate_hw_source",
                            json_string("lts__t_sector_hit_rate.pct of one extra sample (CUPTI, "
                                        "weighted by lts__t_sectors over its kernels)"));
    json_object_set_new(
        extra, "hit_rate_source",
        json_string(s->l1 ? "not modelled (the l1 part)" : "none (no plateaus found)"));
    json_object_set_new(
        extra, "l1",
        json_string(s->l1 ? (s->ptx ? "cached (ld.global.ca): every group re-reads the whole set"
                                    : "every group re-reads the whole set (the device's caches)")
                    : s->ptx
                        ? "bypassed (ld/st.global.cg)"
                        : "not bypassed: groups rotate over the working set (reuse negligible)"));
    if (s->l1)
        json_object_set_new(extra, "bytes_per_group_pass", json_integer((json_int_t)size));
    json_object_set_new(extra, "layout", json_string(layout_names[1 + s->cur]));
    double bw = bytes / ser.st.median;
    char sz[32];
    printf("%-10s %-5s %10s %10.2f %7.2f %4zu %8u %-10s %9.2f %-8s\n", part_names[part], "-",
           gmb_fmt_size(size, sz, sizeof sz), bw, 100.0 * ser.st.ci_rel, ser.st.n, s->reps, where,
           ser.st.median / 1e3, rc == GMB_OK ? how : "FAILED");
    fflush(stdout);
    gmb_add_point(c, pt);
    cv->size[cv->n] = (double)size;
    cv->bw[cv->n] = rc == GMB_OK ? bw : NAN;
    cv->pt[cv->n++] = pt;
    gmb_series_free(&ser);
    if (rc == GMB_EVERIFY)
        gmb_error("verification failed: %s, %s: %s", part_names[part],
                  gmb_fmt_size(size, sz, sizeof sz), err);
    return rc;
}

/* ---- the kernels' shape ----------------------------------------------------------------- */

/* Take shape l for the kernels that follow */
static void use_layout(state_t *s, int l)
{
    s->cur = l;
    s->kread = s->kr[l];
    s->kwrite = s->kw[l];
    s->kl1 = s->kl[l];
}

/* One tuning trial: part's kernel in the current shape on a set of size bytes, passes as a
 * point calibrates them, the fastest of 3 samples (after calibration's warm-up): *gbps. */
static int trial(state_t *s, int part, uint64_t size, double *gbps)
{
    double t, best;
    int rc;
    s->write = part == P_WRITE;
    s->l1 = part == P_L1;
    s->n = size / 16;
    if ((rc = calibrate(s, &best, NULL)))
        return rc;
    for (int k = 0; k < 2; k++) {
        if ((rc = sample_bw(s, &t)))
            return rc;
        best = fmin(best, t);
    }
    *gbps = (double)size * s->reps * (s->l1 ? (double)s->geo.groups : 1.0) / best;
    return GMB_OK;
}

/* The tuning sets of a sweep (ascending): a cache-sized one (the largest up to a quarter of
 * the LLC, else the smallest) and a memory-sized one (the smallest from 8 x LLC, else the
 * largest); l1: the smallest from 16 KiB and the largest; coldwarm without read: of its
 * sets. One set where both are the same. */
static size_t tune_sizes(const state_t *s, int part, uint64_t out[2])
{
    const cfg_t *cfg = s->c->cfg;
    const gmb_sweep_t *sw = part == P_L1                                      ? &cfg->l1_sizes
                            : part == P_COLDWARM && !has(&cfg->parts, P_READ) ? &cfg->cw_sizes
                                                                              : &cfg->sizes;
    uint64_t llc = s->c->info.llc_bytes, lo = sw->v[0], hi = sw->v[sw->n - 1];
    for (size_t i = 0; i < sw->n; i++) {
        uint64_t v = sw->v[i];
        if (part == P_L1 ? v >= (16u << 10) && lo < (16u << 10) : llc && v <= llc / 4)
            lo = v;
    }
    for (size_t i = sw->n; i-- > 0 && part != P_L1 && llc;)
        if (sw->v[i] >= 8 * llc)
            hi = sw->v[i];
    out[0] = lo;
    out[1] = hi;
    return lo == hi ? 1 : 2;
}

/* The shape of part's kernel (read for coldwarm): --layout's, or tuned once for the part:
 * each shape on tune_sizes' sets; lockstep where its geometric mean over them is TUNE_MARGIN
 * x grid-stride's or more. Every trial into results.tuning.PART. */
static int choose_layout(state_t *s, int part)
{
    const cfg_t *cfg = s->c->cfg;
    int k = part == P_WRITE ? 1 : part == P_L1 ? 2 : 0, rc;
    const char *pname = part_names[part == P_COLDWARM ? P_READ : part];
    if (s->lay[k] >= 0) {
        use_layout(s, s->lay[k]);
        return GMB_OK;
    }
    int given = strcmp(cfg->layout, "auto") != 0;
    json_t *rec = json_pack("{s:b, s:[]}", "given", given, "candidates");
    if (!rec)
        return GMB_ERUNTIME;
    json_object_set_new(s->tuning, pname, rec);
    if (given) {
        s->lay[k] = !strcmp(cfg->layout, "lockstep") ? L_LOCKSTEP : L_GRID;
    } else {
        uint64_t sz[2];
        size_t nz = tune_sizes(s, part, sz);
        double bw[NLAYOUTS][2], gm[NLAYOUTS];
        for (int l = 0; l < NLAYOUTS; l++) {
            use_layout(s, l);
            gm[l] = 1;
            for (size_t i = 0; i < nz; i++) {
                if ((rc = trial(s, part, sz[i], &bw[l][i])))
                    return rc;
                gm[l] *= bw[l][i];
                json_array_append_new(json_object_get(rec, "candidates"),
                                      json_pack("{s:s, s:I, s:f}", "layout", layout_names[1 + l],
                                                "size_bytes", (json_int_t)sz[i], "GBps", bw[l][i]));
            }
            gm[l] = pow(gm[l], 1.0 / (double)nz);
        }
        s->lay[k] = gm[L_LOCKSTEP] >= TUNE_MARGIN * gm[L_GRID] ? L_LOCKSTEP : L_GRID;
        char a[32], b[32];
        printf("# tuned %s: %s (lockstep %.3g, grid-stride %.3g GB/s: geometric means over %s%s%s; "
               "lockstep where %.2fx or more)\n",
               pname, layout_names[1 + s->lay[k]], gm[L_LOCKSTEP], gm[L_GRID],
               fsz((double)sz[0], a), nz > 1 ? " and " : "", nz > 1 ? fsz((double)sz[1], b) : "",
               TUNE_MARGIN);
        json_object_set_new(
            rec, "geomean_GBps",
            json_pack("{s:f, s:f}", "grid-stride", gm[L_GRID], "lockstep", gm[L_LOCKSTEP]));
        char rule[160];
        snprintf(rule, sizeof rule,
                 "lockstep where its geometric mean over the sets is %.2fx grid-stride's or "
                 "more; each trial the fastest of 3 samples",
                 TUNE_MARGIN);
        json_object_set_new(rec, "rule", json_string(rule));
    }
    json_object_set_new(rec, "layout", json_string(layout_names[1 + s->lay[k]]));
    use_layout(s, s->lay[k]);
    return GMB_OK;
}

/* The 95% CI of a plateau's bandwidth, the median of its points' medians (i in [first, last]):
 * distribution-free over those points, [min, max] of them when too few for 95%. */
static json_t *plateau_ci(const curve_t *cv, size_t first, size_t last)
{
    double v[64];
    size_t k = 0;
    for (size_t i = first; i <= last && i < cv->n && k < sizeof v / sizeof *v; i++)
        if (cv->bw[i] > 0)
            v[k++] = cv->bw[i];
    gmb_stats_t st;
    if (!k || gmb_stats_compute(v, k, 1, 1.0, &st))
        return json_null();
    return json_pack("[f, f]", st.ci_lo, st.ci_hi);
}

/* Declare headline figure h (its label, unit, notes, level, quantity: higher is better) of
 * value v with the [lo, hi] CI ci (none where absent or not holding v), resting on the
 * curve's points first..last. */
static void curve_headline(gmb_ctx_t *c, gmb_headline_t h, double v, const json_t *ci,
                           const curve_t *cv, size_t first, size_t last)
{
    double lo = json_number_value(json_array_get(ci, 0)),
           hi = json_number_value(json_array_get(ci, 1));
    int has = json_array_size(ci) == 2 && lo <= v && v <= hi;
    h.higher = 1;
    h.value = v;
    h.ci_lo = has ? lo : NAN;
    h.ci_hi = has ? hi : NAN;
    h.points = (const json_t *const *)cv->pt + first;
    h.npoints = last < cv->n && first <= last ? last - first + 1 : 0;
    gmb_headline(c, &h);
}

/* The l1 curve's plateaus: the first (the L1s on a GPU where the data show it) and the last
 * the level detector found (slower; sets past it may be slower still), each with its CI,
 * into res.l1 and the summary. */
static void fit_l1(state_t *s, const curve_t *cv, json_t *res, gmb_text_t *sm)
{
    gmb_bw_fit_t f;
    char a[32], b[32];
    double llc = (double)s->c->info.llc_bytes;
    if (gmb_bw_fit(cv->size, cv->bw, cv->n, &f))
        memset(&f, 0, sizeof f);
    json_t *o =
        json_pack("{s:s, s:i, s:f, s:I, s:f}", "verdict", f.found ? "plateaus" : "no clear level",
                  "plateaus", (int)f.nplateaus, "noise_log", f.noise, "head_points",
                  (json_int_t)f.head, "top_GBps", f.top);
    gmb_text_add(sm, "%sl1 (every group re-reads one set): ", sm->len ? " " : "");
    if (!f.found) {
        gmb_text_add(sm, "no clear level.");
        json_object_set_new(res, "l1", o);
        return;
    }
    double last_hi = cv->size[f.mem_last];
    /* a label is a claim: L1 only where the first plateau ends well inside the L2 the device
     * reports and a slower one reaches an eighth of it; the slower one is the L2 where it ends
     * within it (the sweep's end) */
    int l1 = s->gpu && llc > 0 && f.capacity <= llc / 8 && last_hi >= llc / 8;
    int l2 = l1 && last_hi <= 1.5 * llc;
    char n1[32], n2[32];
    snprintf(n1, sizeof n1, "%s", l1 ? "L1" : "level 1");
    if (l2)
        snprintf(n2, sizeof n2, "L2");
    else
        snprintf(n2, sizeof n2, "level %zu", f.nplateaus);
    json_object_set_new(o, "method", json_string(f.by_ends ? "ends" : "levels"));
    json_object_set_new(o, "confidence", json_real(f.confidence));
    json_object_set_new(o, "confidence_word", json_string(gmb_level_confidence_word(f.confidence)));
    json_object_set_new(o, "ratio", json_real(f.ratio));
    json_object_set_new(o, "first",
                        json_pack("{s:s, s:f, s:o, s:I, s:I, s:I, s:i}", "name", n1, "GBps",
                                  f.cache_bw, "ci", plateau_ci(cv, f.cache_first, f.cache_last),
                                  "from_bytes", (json_int_t)cv->size[f.cache_first],
                                  "capacity_bytes", (json_int_t)f.capacity, "fall_at_bytes",
                                  (json_int_t)f.fall_at, "points",
                                  (int)(f.cache_last - f.cache_first + 1)));
    json_object_set_new(o, "last",
                        json_pack("{s:s, s:f, s:o, s:I, s:I, s:i}", "name", n2, "GBps", f.mem_bw,
                                  "ci", plateau_ci(cv, f.mem_first, f.mem_last), "from_bytes",
                                  (json_int_t)cv->size[f.mem_first], "to_bytes",
                                  (json_int_t)last_hi, "points",
                                  (int)(f.mem_last - f.mem_first + 1)));
    /* the headline figures: the first plateau (L1 or level 1), the last where it is the L2 */
    const json_t *first = json_object_get(o, "first"), *last = json_object_get(o, "last");
    curve_headline(
        s->c,
        (gmb_headline_t){
            .label =
                l1 ? "L1 bandwidth, aggregate (every SM re-reads one set)"
                   : "Cache level 1 bandwidth, aggregate (every compute unit re-reads one set)",
            .unit = "GB/s",
            .level = l1 ? GMB_LEVEL_L1 : GMB_LEVEL_CACHE1,
            .how = l1 ? "gmb-l2 l1: every SM re-reads one set through L1; the first plateau"
                      : "gmb-l2 l1: every compute unit re-reads one set; the first plateau"},
        f.cache_bw, json_object_get(first, "ci"), cv, f.cache_first, f.cache_last);
    if (l2)
        curve_headline(
            s->c,
            (gmb_headline_t){
                .label = "L2 bandwidth, every SM re-reads one set (after the L1 plateau)",
                .unit = "GB/s",
                .level = GMB_LEVEL_L2_SAME,
                .how = "gmb-l2 l1: the plateau after the L1s' (RRZE gpu-cache's figure)"},
            f.mem_bw, json_object_get(last, "ci"), cv, f.mem_first, f.mem_last);
    char d[32];
    gmb_text_add(sm, "%s %.4g GB/s up to %s, %s %.4g GB/s over %s .. %s (%.2fx)", n1, f.cache_bw,
                 fsz(f.capacity, a), n2, f.mem_bw, fsz(cv->size[f.mem_first], b), fsz(last_hi, d),
                 f.ratio);
    if (f.nplateaus > 2)
        gmb_text_add(sm, "; %zu plateaus in all", f.nplateaus);
    const char *conf = gmb_level_confidence_word(f.confidence);
    if (strcmp(conf, "high"))
        gmb_text_add(sm, " (%s confidence)", conf);
    gmb_text_add(sm, ".");
    json_object_set_new(res, "l1", o);
}

/* Every plateau of a fitted curve, first to last, named as gmb-chase names the levels of a
 * chase from the L2 on (levels.h: a CUDA GPU's "L2" or "L2 near"/"L2 far", then "DRAM" when
 * the sweep reached memory; an OpenCL GPU's from the cache it reports; a CPU's numbered), each
 * with its median, CI and extent; the plateaus between the first and the last (a split
 * cache: the H100's far L2 partition) go into the summary. */
static json_t *curve_levels(const state_t *s, const curve_t *cv, const gmb_bw_fit_t *f, int reached,
                            gmb_text_t *sm)
{
    char names[GMB_MAX_LEVELS][GMB_LEVEL_NAME], a[32], b[32];
    gmb_lv_device_t dev = {s->gpu, s->known, (double)s->c->info.llc_bytes};
    int nl = (int)f->nplateaus;
    gmb_level_names(&dev, GMB_LV_L2_FIRST, NULL, reached, f->levels, nl, names);
    json_t *arr = json_array();
    for (int l = 0; l < nl; l++) {
        const gmb_level_t *L = &f->levels[l];
        double med = f->level_bw[l];
        json_array_append_new(arr,
                              json_pack("{s:s, s:f, s:o, s:I, s:I, s:i}", "name", names[l], "GBps",
                                        med, "ci", plateau_ci(cv, L->first, L->last), "from_bytes",
                                        (json_int_t)cv->size[L->first], "to_bytes",
                                        (json_int_t)cv->size[L->last], "points", (int)L->npoints));
        if (l > 0 && l < nl - 1)
            gmb_text_add(sm, "; then %s %.4g GB/s over %s .. %s", names[l], med,
                         fsz(cv->size[L->first], a), fsz(cv->size[L->last], b));
    }
    return arr;
}

/* The headline figures of a fitted read or write curve (its result o): the cache plateau's
 * bandwidth (read: with its CI, and the named L2 near and far plateaus where the curve has
 * them), the read curve's memory plateau and the ratio of the two, the capacity read off the
 * curve (resting on the points between the plateaus; past-llc where it is past the cache the
 * device reports). */
static void curve_headlines(gmb_ctx_t *c, int part, const curve_t *cv, const gmb_bw_fit_t *f,
                            const json_t *o)
{
    int rd = part == P_READ;
    curve_headline(c,
                   rd ? (gmb_headline_t){.label = "Cache plateau bandwidth, read (L2 on a GPU)",
                                         .unit = "GB/s",
                                         .level = GMB_LEVEL_L2,
                                         .how = "gmb-l2 read: L1 bypassed, every line from the "
                                                "L2; the cache plateau"}
                      : (gmb_headline_t){.label = "Cache plateau bandwidth, write", .unit = "GB/s"},
                   f->cache_bw, rd ? json_object_get(o, "cache_ci") : NULL, cv, f->cache_first,
                   f->cache_last);
    if (rd) {
        static const char *const named[2][4] = {
            {"L2 near", "L2 near bandwidth, read (the first of two L2 plateaus)", GMB_LEVEL_L2_NEAR,
             "gmb-l2 read: L1 bypassed; the read curve's first L2 plateau"},
            {"L2 far", "L2 far bandwidth, read (the second L2 plateau)", GMB_LEVEL_L2_FAR,
             "gmb-l2 read: L1 bypassed; the read curve's second L2 plateau"}};
        size_t i;
        const json_t *e;
        json_array_foreach(json_object_get(o, "levels"), i, e)
        {
            const char *nm = json_string_value(json_object_get(e, "name"));
            for (int k = 0; k < 2 && nm && i < f->nplateaus; k++)
                if (!strcmp(nm, named[k][0]))
                    curve_headline(c,
                                   (gmb_headline_t){.label = named[k][1],
                                                    .unit = "GB/s",
                                                    .level = named[k][2],
                                                    .how = named[k][3]},
                                   f->level_bw[i], json_object_get(e, "ci"), cv, f->levels[i].first,
                                   f->levels[i].last);
        }
        /* the memory's read bandwidth: for the cross-checks where the sweep reached memory */
        curve_headline(
            c,
            (gmb_headline_t){.label = "Memory plateau bandwidth, read",
                             .unit = "GB/s",
                             .level = GMB_LEVEL_DRAM,
                             .how = "gmb-l2 read: the memory plateau",
                             .quantity = json_is_true(json_object_get(o, "memory_reached"))
                                             ? GMB_Q_MEM_READ
                                             : NULL,
                             .source = "l2: memory plateau of the read curve (L1 bypassed)"},
            f->mem_bw, json_object_get(o, "memory_ci"), cv, f->mem_first, f->mem_last);
        curve_headline(c, (gmb_headline_t){.label = "Cache / memory bandwidth, read", .unit = "x"},
                       f->ratio, NULL, cv, f->cache_first, f->mem_last);
    }
    if (f->capacity > 0)
        curve_headline(
            c,
            (gmb_headline_t){.label = rd ? "Cache capacity (bandwidth curve, read)"
                                         : "Cache capacity (bandwidth curve, write)",
                             .unit = "MiB",
                             .notes = json_is_true(json_object_get(o, "capacity_beyond_llc"))
                                          ? GMB_HL_PAST_LLC
                                          : 0,
                             .quantity = rd ? GMB_Q_LLC : NULL,
                             .source = "l2: where the read bandwidth leaves the cache plateau"},
            (double)f->capacity / 1048576.0, NULL, cv, f->cache_last, f->mem_first);
}

/* --counters: the L2's own hit rate (CUPTI) on the read curve's cache plateau and past it
 * (its memory plateau) as results (o's cache_hit_rate_hw, memory_hit_rate_hw: fractions, null
 * without counters), headline figures (%) and the summary's words. */
static void hw_hit_rates(gmb_ctx_t *c, const curve_t *cv, const gmb_bw_fit_t *f, json_t *o,
                         gmb_text_t *sm)
{
    static const char *const key[2] = {"cache_hit_rate_hw", "memory_hit_rate_hw"};
    static const char *const label[2] = {"L2 hit rate on the cache plateau, read (counters)",
                                         "L2 hit rate past the cache plateau, read (counters)"};
    double v[2], *r = malloc((cv->n ? cv->n : 1) * sizeof *r);
    for (size_t i = 0; r && i < cv->n; i++) {
        const json_t *h = json_object_get(json_object_get(cv->pt[i], "extra"), "hit_rate_hw");
        r[i] = json_is_number(h) ? json_number_value(h) : NAN;
    }
    gmb_bw_fit_rates(f, r, r ? cv->n : 0, v);
    free(r);
    for (int m = 0; m < 2; m++) {
        size_t a = m ? f->mem_first : f->cache_first, b = m ? f->mem_last : f->cache_last;
        json_object_set_new(o, key[m], v[m] == v[m] ? json_real(v[m]) : json_null());
        if (v[m] == v[m])
            curve_headline(c, (gmb_headline_t){.label = label[m], .unit = "%"}, 100 * v[m], NULL,
                           cv, a, b);
    }
    if (v[0] == v[0] || v[1] == v[1])
        gmb_text_add(sm, "; L2 hit rate (counters) %.3g%% on the cache plateau, %.3g%% past it",
                     100 * v[0], 100 * v[1]);
}

/* Fit a curve, give its points their hit rates, add the result and the summary. */
static void fit_curve(state_t *s, int part, const curve_t *cv, json_t *res, gmb_text_t *sm)
{
    gmb_ctx_t *c = s->c;
    gmb_bw_fit_t f;
    char a[32], b[32], d[32];
    uint64_t llc = c->info.llc_bytes;
    int reached = llc && cv->n && cv->size[cv->n - 1] >= 4.0 * (double)llc;
    if (gmb_bw_fit(cv->size, cv->bw, cv->n, &f))
        memset(&f, 0, sizeof f);
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:b, s:i, s:f}", "verdict",
                          f.found ? "plateaus" : "no clear plateau", "cache", s->cache, "memory",
                          s->mem, "device_llc_bytes", (json_int_t)llc, "memory_reached", reached,
                          "plateaus", (int)f.nplateaus, "noise_log", f.noise);
    /* the rising head left out (small sets below 90% of the top), and how the plateaus were
     * found */
    json_object_set_new(o, "head_points", json_integer((json_int_t)f.head));
    if (f.head && f.head < cv->n)
        json_object_set_new(o, "head_below_bytes", json_integer((json_int_t)cv->size[f.head]));
    json_object_set_new(o, "top_GBps", json_real(f.top));
    if (f.found)
        json_object_set_new(o, "method", json_string(f.by_ends ? "ends" : "levels"));
    gmb_text_add(sm, "%s%s: ", sm->len ? " " : "", part_names[part]);
    if (!f.found) {
        double lo = INFINITY, hi = 0;
        for (size_t i = 0; i < cv->n; i++)
            if (cv->bw[i] == cv->bw[i]) {
                lo = fmin(lo, cv->bw[i]);
                hi = fmax(hi, cv->bw[i]);
            }
        if (hi > 0)
            gmb_text_add(sm, "no clear plateau (%.4g .. %.4g GB/s over %s .. %s).", lo, hi,
                         fsz(cv->size[0], a), fsz(cv->size[cv->n - 1], b));
        else
            gmb_text_add(sm, "no points.");
    } else {
        json_object_set_new(o, "cache_GBps", json_real(f.cache_bw));
        json_object_set_new(o, "cache_ci", plateau_ci(cv, f.cache_first, f.cache_last));
        json_object_set_new(o, "memory_GBps", json_real(f.mem_bw));
        json_object_set_new(o, "memory_ci", plateau_ci(cv, f.mem_first, f.mem_last));
        json_object_set_new(o, "ratio", json_real(f.ratio));
        json_object_set_new(o, "capacity_bytes", json_integer((json_int_t)f.capacity));
        json_object_set_new(o, "fall_at_bytes", json_integer((json_int_t)f.fall_at));
        json_object_set_new(o, "half_hit_bytes", json_integer((json_int_t)f.half_at));
        json_object_set_new(o, "memory_from_bytes",
                            json_integer((json_int_t)cv->size[f.mem_first]));
        json_object_set_new(o, "confidence", json_real(f.confidence));
        json_object_set_new(o, "confidence_word",
                            json_string(gmb_level_confidence_word(f.confidence)));
        gmb_text_add(sm, "%s plateau %.4g GB/s up to %s", s->cache, f.cache_bw, fsz(f.capacity, a));
        /* past the size the device reports (the H200's read curve held its plateau to 64 MiB of
         * a 50 MiB L2): said, since a capacity read off this curve would then overstate it */
        int beyond = llc && f.capacity > GMB_BW_PAST_LLC * (double)llc;
        json_object_set_new(o, "capacity_beyond_llc", json_boolean(beyond));
        if (beyond)
            gmb_text_add(sm, " [past the %s the device reports: sets there still hit, partly]",
                         fsz((double)llc, d));
        if (f.fall_at > 0)
            gmb_text_add(sm, " (falls by %s", fsz(f.fall_at, b));
        if (f.half_at > 0)
            gmb_text_add(sm, "%shit rate 1/2 at %s", f.fall_at > 0 ? "; " : " (",
                         fsz(f.half_at, d));
        if (f.fall_at > 0 || f.half_at > 0)
            gmb_text_add(sm, ")");
        gmb_text_add(sm, ", %s %.4g GB/s from %s%s; ratio %.2fx",
                     reached ? s->mem : "slowest plateau", f.mem_bw, fsz(cv->size[f.mem_first], a),
                     reached ? "" : " (the sweep stops below 4x the LLC: not proven memory)",
                     f.ratio);
        json_object_set_new(o, "levels", curve_levels(s, cv, &f, reached, sm));
        curve_headlines(c, part, cv, &f, o);
        if (part == P_READ)
            hw_hit_rates(c, cv, &f, o, sm);
        if (f.head)
            gmb_text_add(sm, "; %zu smaller set%s below %.0f%% of the top left out", f.head,
                         f.head > 1 ? "s" : "", 100 * GMB_BW_HEAD_SHARE);
        const char *conf = gmb_level_confidence_word(f.confidence);
        if (strcmp(conf, "high"))
            gmb_text_add(sm, " (%s confidence)", conf);
        gmb_text_add(sm, ".");
        for (size_t i = 0; i < cv->n; i++) {
            json_t *x = json_object_get(cv->pt[i], "extra");
            if (i < f.head) { /* below the plateau for want of loads in flight, not misses */
                json_object_set_new(x, "hit_rate_est", json_null());
                json_object_set_new(x, "hit_rate_source",
                                    json_string("none (rising head, left out of the fit)"));
                continue;
            }
            double h = gmb_bw_hit_rate(cv->bw[i], f.cache_bw, f.mem_bw);
            json_object_set_new(x, "hit_rate_est", h == h ? json_real(h) : json_null());
            json_object_set_new(x, "hit_rate_source",
                                json_string("two-plateau model: 1/bw = h/cache + (1-h)/memory"));
        }
    }
    json_object_set_new(res, part_names[part], o);
}

/* ---- cold vs warm ----------------------------------------------------------------------- */

/* The fastest of 5 launches of the read kernel with the current grid and no pass: what a
 * sample costs without data (launch, block ramp, reduction, events). */
static int empty_launch(state_t *s, double *ns)
{
    gmb_u64 n = s->n;
    gmb_u32 zero = 0;
    gmb_arg_t av[] = {GMB_A_BUF(s->data), GMB_A_BUF(s->part), GMB_A_VAL(n), GMB_A_VAL(zero)};
    *ns = INFINITY;
    for (int i = 0; i < 5; i++) {
        double t = 0;
        int rc = s->c->be->launch(s->kread, &s->geo, av, 4, &t);
        if (rc)
            return rc;
        *ns = fmin(*ns, t);
    }
    return GMB_OK;
}

/* a / b of two medians with their 95% CIs: the interval from the CIs' ends (both hold: 90%
 * at least). A ratio of 1 inside it: no measurable difference. */
static void ratio_ci(const gmb_stats_t *a, double ka, const gmb_stats_t *b, double kb, double *r,
                     double *lo, double *hi)
{
    *r = (a->median / ka) / (b->median / kb);
    *lo = (a->ci_lo / ka) / (b->ci_hi / kb);
    *hi = (a->ci_hi / ka) / (b->ci_lo / kb);
}

/* One series of read samples of the current point, verified; the point is recorded. */
static int cw_series(state_t *s, uint64_t size, const char *state, uint64_t param, gmb_stats_t *st)
{
    gmb_ctx_t *c = s->c;
    gmb_series_t ser = {0};
    char err[256] = "", sz[32];
    int rc;
    if ((rc = c->be->fill(s->part, 0, 0xff, s->part_bytes)) ||
        (rc = gmb_measure(c, sample_bw, s, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    rc = verify_read(s, err, sizeof err);
    if (rc && rc != GMB_EVERIFY) {
        gmb_series_free(&ser);
        return rc;
    }
    double bytes = 16.0 * (double)s->n * s->reps;
    json_t *pt =
        gmb_point_new(point_params("coldwarm", state, size, s->reps, &s->geo, param, -1), &ser);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes, &ser.st));
    json_t *extra = json_object_get(pt, "extra");
    /* a cold set comes from where the whole span of cold sets lives */
    const char *where = gmb_residence(&c->info, param ? param : size);
    json_object_set_new(extra, "where", json_string(where));
    json_object_set_new(extra, "verified", json_string(rc ? "FAILED" : "full"));
    json_object_set_new(extra, "bytes_read", json_real(bytes));
    json_object_set_new(extra, "layout", json_string(layout_names[1 + s->cur]));
    printf("%-10s %-5s %10s %10.2f %7.2f %4zu %8u %-10s %9.2f %-8s\n", "coldwarm", state,
           gmb_fmt_size(size, sz, sizeof sz), bytes / ser.st.median, 100.0 * ser.st.ci_rel,
           ser.st.n, s->reps, where, ser.st.median / 1e3, rc ? "FAILED" : "full");
    fflush(stdout);
    gmb_add_point(c, pt);
    *st = ser.st;
    gmb_series_free(&ser);
    if (rc == GMB_EVERIFY)
        gmb_error("verification failed: coldwarm (%s), %s: %s", state,
                  gmb_fmt_size(size, sz, sizeof sz), err);
    return rc;
}

/* Cold against warm, each far above a launch: warm = the set re-read reps times in one
 * launch (reps from the time, as a bandwidth point); cold = K sets that follow each other in
 * memory read once in one launch, K x size >= --flush (4 x LLC by default), so that each of
 * them comes after the others evicted it: both times per pass over one set. */
static int run_coldwarm(state_t *s, json_t *res, gmb_text_t *sm)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    int rc = GMB_OK;
    char sz[32], fl[32];
    json_t *arr = json_array();
    gmb_text_add(sm, "%scold vs warm (cold: %s of sets read once; warm: a set re-read): ",
                 sm->len ? " " : "", gmb_fmt_size(cfg->flush, fl, sizeof fl));
    for (size_t p = 0; p < cfg->cw_sizes.n && !rc; p++) {
        uint64_t size = cfg->cw_sizes.v[p];
        gmb_u64 n = size / 16, k = (cfg->flush / 16 + n - 1) / n;
        s->write = 0;
        s->n = n;
        /* warm: the passes from the time (at least 10 empty launches and min-sample-us) */
        gmb_launch_t full;
        gmb_grid(c, s->kread, cfg->group_size, cfg->groups_per_cu, UINT64_MAX / 2, &full);
        double empty = 0, t1 = 0, slots = 4.0 * (double)full.groups * (double)full.group_size;
        set_reps(s, (gmb_u32)fmin(ceil(slots / (double)n), (double)MAX_REPS));
        if ((rc = empty_launch(s, &empty)))
            break;
        double want =
            fmax(fmax(cfg->min_sample_us * 1e3, 10.0 * empty), 100.0 * c->info.timer_res_ns);
        if ((rc = sample_bw(s, &t1)) || (rc = sample_bw(s, &t1)))
            break;
        for (int it = 0; it < 6 && t1 < want && s->reps < MAX_REPS && !rc; it++) {
            double f = fmin(1024.0, fmax(2.0, 1.2 * want / fmax(t1, 1.0)));
            set_reps(s, (gmb_u32)fmin((double)s->reps * f, (double)MAX_REPS));
            rc = sample_bw(s, &t1);
        }
        gmb_stats_t w, cst;
        if (rc || (rc = cw_series(s, size, "warm", 0, &w)))
            break;
        gmb_u32 wreps = s->reps;
        /* cold: the K sets in one pass (one untimed first: the warm set is the first of them) */
        s->n = k * n;
        set_reps(s, 1);
        double cempty = 0;
        if ((rc = empty_launch(s, &cempty)) || (rc = sample_bw(s, &t1)) ||
            (rc = cw_series(s, size, "cold", 16 * k * n, &cst)))
            break;
        double ratio, lo, hi;
        ratio_ci(&cst, (double)k, &w, (double)wreps, &ratio, &lo, &hi);
        int none = lo <= 1.0 && hi >= 1.0;
        double emax = fmax(empty, cempty);
        /* each sample at least 10 empty launches and 100 timer steps: else flagged */
        int launchy = w.median < 10.0 * emax || cst.median < 10.0 * emax;
        int at_res = fmin(w.median, cst.median) < 100.0 * c->info.timer_res_ns;
        json_t *e = json_pack(
            "{s:I, s:f, s:f, s:f, s:[f, f], s:s, s:f, s:f, s:b, s:f, s:b, s:I, s:I, s:I, s:f, "
            "s:f}",
            "size_bytes", (json_int_t)size, "cold_ns", cst.median / (double)k, "warm_ns",
            w.median / wreps, "cold_over_warm", ratio, "cold_over_warm_ci", lo, hi, "verdict",
            none        ? "no measurable gain"
            : ratio > 1 ? "warm faster"
                        : "cold faster",
            "cold_ci_rel", cst.ci_rel, "warm_ci_rel", w.ci_rel, "near_timer_resolution", at_res,
            "empty_launch_ns", emax, "launch_dominated", launchy, "warm_reps", (json_int_t)wreps,
            "cold_sets", (json_int_t)k, "cold_span_bytes", (json_int_t)(16 * k * n),
            "warm_sample_ns", w.median, "cold_sample_ns", cst.median);
        json_array_append_new(arr, e);
        gmb_text_add(sm, "%s%s %.4g us / %.4g us a pass = %.2fx [%.2f, %.2f]%s%s", p ? ", " : "",
                     gmb_fmt_size(size, sz, sizeof sz), cst.median / (double)k / 1e3,
                     w.median / wreps / 1e3, ratio, lo, hi, none ? " (no measurable gain)" : "",
                     launchy || at_res ? " (a sample under 10 launches or 100 timer steps)" : "");
    }
    gmb_text_add(sm, ".");
    /* the headline figure: the first set's cold / warm time (its two series' points) */
    const json_t *e0 = json_array_get(arr, 0), *pts[8];
    if (e0)
        gmb_headline(
            c, &(gmb_headline_t){.label = "Cold / warm time, smallest set",
                                 .unit = "x",
                                 .higher = 1,
                                 .value = json_number_value(json_object_get(e0, "cold_over_warm")),
                                 .ci_lo = NAN,
                                 .ci_hi = NAN,
                                 .points = pts,
                                 .npoints = gmb_points_where(c, pts, 8, "{s:s, s:O}", "part",
                                                             "coldwarm", "size_bytes",
                                                             json_object_get(e0, "size_bytes"))});
    json_object_set_new(res, "sizes", arr);
    json_object_set_new(res, "flush_bytes", json_integer((json_int_t)cfg->flush));
    json_object_set_new(res, "timer_res_ns", json_real(c->info.timer_res_ns));
    json_object_set_new(res, "method",
                        json_string("warm: the set re-read in one launch; cold: sets that follow "
                                    "each other, flush_bytes or more in all, read once in one "
                                    "launch; times per pass over one set; the CI of the ratio "
                                    "from the two medians' 95% CIs"));
    return rc;
}

/* ---- partitions (CUDA) ------------------------------------------------------------------ */

static double median_of(double *v, size_t n)
{
    if (!n)
        return NAN;
    qsort(v, n, sizeof *v, gmb_cmp_double);
    return gmb_median_sorted(v, n);
}

/* A latency histogram of lat[0..n) for the record: bins of at least 4 cycles from the least
 * value, at most 128 of them (the last one takes everything above). */
static json_t *lat_hist(const double *lat, size_t n)
{
    double lo = INFINITY, hi = 0;
    for (size_t j = 0; j < n; j++)
        if (lat[j] > 0 && isfinite(lat[j])) {
            lo = fmin(lo, lat[j]);
            hi = fmax(hi, lat[j]);
        }
    if (!(hi > 0))
        return json_null();
    lo = floor(lo);
    double w = fmax(4.0, ceil((hi - lo + 1) / 128.0));
    size_t nb = (size_t)((hi - lo) / w) + 1, cnt[128] = {0};
    nb = nb > 128 ? 128 : nb;
    for (size_t j = 0; j < n; j++)
        if (lat[j] > 0 && isfinite(lat[j])) {
            size_t b = (size_t)((lat[j] - lo) / w);
            cnt[b < nb ? b : nb - 1]++;
        }
    json_t *c = json_array();
    for (size_t b = 0; b < nb; b++)
        json_array_append_new(c, json_integer((json_int_t)cnt[b]));
    return json_pack("{s:f, s:f, s:o}", "lo_cycles", lo, "bin_cycles", w, "counts", c);
}

static json_t *modes_json(const gmb_modes_t *m)
{
    json_t *a = json_array();
    for (size_t i = 0; i < m->k; i++)
        json_array_append_new(a, json_pack("{s:f, s:f, s:f, s:f, s:I}", "cycles", m->center[i],
                                           "share", m->share[i], "lo_cycles", m->lo[i], "hi_cycles",
                                           m->hi[i], "lines", (json_int_t)m->count[i]));
    return a;
}

static int run_partitions(state_t *s, json_t *res, gmb_text_t *sm)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    uint64_t llc = c->info.llc_bytes;
    uint64_t bytes = cfg->part_bytes;
    if (!bytes) /* above one partition's near copy (a third of the L2 on the H200), in the L2 */
        bytes = llc ? llc / 4 * 3 : 32u << 20;
    bytes = bytes / LINE_BYTES * LINE_BYTES;
    if (bytes < LINE_BYTES)
        bytes = LINE_BYTES;
    size_t nl = (size_t)(bytes / LINE_BYTES);
    unsigned passes = 1u + (unsigned)cfg->part_reps; /* the first brings the buffer in */
    int nsms = (int)cfg->sms < c->info.compute_units ? (int)cfg->sms : c->info.compute_units;
    unsigned *cyc = malloc((size_t)passes * nl * sizeof *cyc), *fin = malloc(nl * sizeof *fin);
    double *lat = malloc((size_t)nsms * nl * sizeof *lat);
    unsigned char *near = malloc((size_t)nsms * nl);
    double *agree = malloc((size_t)nsms * (size_t)nsms * sizeof *agree);
    gmb_modes_t md[MAX_SMS];
    int smid[MAX_SMS], reached[MAX_SMS], side[MAX_SMS];
    json_t *per = json_array();
    int rc = GMB_OK, bad = 0;
    char sz[32];
    if (!cyc || !fin || !lat || !near || !agree) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    memset(near, 2, (size_t)nsms * nl); /* 2: not measured */
    for (int k = 0; k < nsms && !rc; k++) {
        smid[k] = (int)((long)k * c->info.compute_units / nsms);
        double *lk = lat + (size_t)k * nl;
        gmb_series_t ser = {0};
        double ns = 0;
        memset(&md[k], 0, sizeof md[k]);
        reached[k] = 0;
        if ((rc = gmb_l2_cuda_partition(c->info.index, (size_t)bytes, LINE_BYTES, passes, smid[k],
                                        cyc, fin, &ns, &reached[k])))
            break;
        if (!reached[k]) {
            json_array_append_new(per, json_pack("{s:i, s:b}", "sm", smid[k], "reached", 0));
            continue;
        }
        if ((rc = gmb_series_push(&ser, ns)))
            break;
        if (c->o.inject_error && !s->injected) { /* test aid: one load returned another word */
            fin[0] ^= 1u;
            s->injected = 1;
        }
        size_t badline = 0;
        if ((rc = gmb_part_walk(cyc, fin, nl, passes, LINE_BYTES / 4, lk, &md[k], &badline))) {
            gmb_series_free(&ser);
            break;
        }
        int badk = badline > 0;
        if (badk)
            gmb_error("verification failed: partitions, SM %d, line %zu: the load returned "
                      "word %u, expected another",
                      smid[k], badline - 1, fin[badline - 1]);
        bad |= badk;
        gmb_stats_compute(ser.ns, ser.n, 1, 1.0, &ser.st);
        gmb_stats_t ls;
        gmb_stats_compute(lk, nl, 1, 1.0, &ls);
        for (size_t j = 0; j < nl; j++)
            near[(size_t)k * nl + j] = md[k].k > 1 ? gmb_modes_class(&md[k], lk[j]) == 0 : 1;
        json_t *pt = gmb_point_new(point_params("partitions", md[k].k > 1 ? "modes" : "single",
                                                bytes, passes - 1, NULL, LINE_BYTES, smid[k]),
                                   &ser);
        gmb_point_metric(pt, "lat_cycles", gmb_json_scaled(1.0, &ls));
        json_t *x = json_object_get(pt, "extra");
        json_object_set_new(x, "verified", json_string(badk ? "FAILED" : "full"));
        json_object_set_new(x, "lines", json_integer((json_int_t)nl));
        json_object_set_new(x, "modes", modes_json(&md[k]));
        gmb_add_point(c, pt);
        printf("%-10s SM %-3d %8s %9.1f cycles median; %zu mode%s:", "partitions", smid[k],
               gmb_fmt_size(bytes, sz, sizeof sz), ls.median, md[k].k, md[k].k > 1 ? "s" : "");
        for (size_t i = 0; i < md[k].k; i++)
            printf(" %.0f cycles (%.0f%% of lines)", md[k].center[i], 100 * md[k].share[i]);
        printf(" %s\n", badk ? "FAILED" : "full");
        fflush(stdout);
        size_t kk = md[k].k;
        json_array_append_new(
            per, json_pack("{s:i, s:b, s:b, s:i, s:f, s:f, s:f, s:f, s:f, s:o, s:o}", "sm", smid[k],
                           "reached", 1, "bimodal", kk > 1, "modes_found", (int)kk, "median_cycles",
                           ls.median, "near_cycles", md[k].center[0], "far_cycles",
                           md[k].center[kk > 1 ? 1 : 0], "near_share", md[k].share[0], "separation",
                           kk > 1 ? md[k].separation[1] : 0.0, "modes", modes_json(&md[k]), "hist",
                           lat_hist(lk, nl)));
        gmb_series_free(&ser);
    }
    if (rc)
        goto out;
    if (bad) {
        rc = GMB_EVERIFY;
        goto out;
    }
    int nr = 0, nm = 0;
    double nears[MAX_SMS], fars[MAX_SMS], shares[MAX_SMS];
    for (int k = 0; k < nsms; k++) {
        nr += reached[k];
        if (reached[k] && md[k].k > 1) {
            nears[nm] = md[k].center[0];
            fars[nm] = md[k].center[1];
            shares[nm++] = md[k].share[0];
        }
    }
    int nsides = gmb_sides(near, (size_t)nsms, nl, side, agree);
    json_t *pairs = json_array(), *sides = json_array();
    for (int i = 0; i < nsms; i++)
        for (int k = i + 1; k < nsms; k++)
            if (reached[i] && reached[k] && agree[i * nsms + k] == agree[i * nsms + k])
                json_array_append_new(pairs,
                                      json_pack("{s:i, s:i, s:f}", "sm_a", smid[i], "sm_b", smid[k],
                                                "same_class_share", agree[i * nsms + k]));
    for (int q = 0; q < nsides; q++) {
        json_t *l = json_array();
        for (int k = 0; k < nsms; k++)
            if (reached[k] && side[k] == q)
                json_array_append_new(l, json_integer(smid[k]));
        json_array_append_new(sides, l);
    }
    /* near and far only where most SMs show two modes or more; single only where none does */
    int multi = nr && 2 * nm > nr, single = nr && !nm;
    json_object_set_new(res, "verdict",
                        json_string(!nr      ? "no SM reached"
                                    : multi  ? "near and far partitions"
                                    : single ? "single partition"
                                             : "unclear"));
    json_object_set_new(res, "buffer_bytes", json_integer((json_int_t)bytes));
    json_object_set_new(res, "line_bytes", json_integer(LINE_BYTES));
    json_object_set_new(res, "loads_per_line", json_integer(1));
    json_object_set_new(res, "timed_passes", json_integer((json_int_t)(passes - 1)));
    json_object_set_new(res, "sms_bimodal", json_integer(nm));
    json_object_set_new(res, "sms_reached", json_integer(nr));
    json_object_set_new(res, "sides", sides);
    json_object_set_new(res, "agreement", pairs);
    gmb_text_add(sm, "%spartitions (%s buffer, one load a line, %d SMs): ", sm->len ? " " : "",
                 gmb_fmt_size(bytes, sz, sizeof sz), nr);
    if (multi) {
        double ne = median_of(nears, (size_t)nm), fa = median_of(fars, (size_t)nm);
        double sh = median_of(shares, (size_t)nm);
        /* the sides say how many partitions; SMs all on one side show two (near, far) */
        int parts = nsides >= 2 ? nsides : 2;
        json_object_set_new(res, "partitions", json_integer(parts));
        json_object_set_new(res, "partitions_basis",
                            json_string(nsides >= 2 ? "sides (SMs with complementary near lines)"
                                                    : "modes (every SM measured on one side)"));
        json_object_set_new(res, "near_cycles", json_real(ne));
        json_object_set_new(res, "far_cycles", json_real(fa));
        json_object_set_new(res, "near_share", json_real(sh));
        json_object_set_new(res, "far_share", json_real(1 - sh));
        gmb_text_add(sm,
                     "near %.0f cycles (%.0f%% of lines), far %.0f cycles on %d of %d SMs; %d "
                     "side%s of SMs with their own near lines%s.",
                     ne, 100 * sh, fa, nm, nr, nsides, nsides == 1 ? "" : "s",
                     nsides >= 2 ? "" : " (2 partitions at least)");
    } else if (single) {
        int k0 = 0;
        while (!reached[k0])
            k0++;
        double m = md[k0].center[0];
        json_object_set_new(res, "median_cycles", json_real(m));
        json_object_set_new(res, "partitions", json_integer(1));
        gmb_text_add(sm, "single partition (one latency mode on every SM; %.0f cycles from SM %d).",
                     m, smid[k0]);
    } else if (nr) {
        gmb_text_add(sm, "unclear (%d of %d SMs show two latency modes).", nm, nr);
    } else {
        gmb_text_add(sm, "no block ran on the chosen SMs.");
    }
    json_object_set_new(res, "per_sm", per);
    per = NULL;
out:
    if (gmb_l2_cuda_partition_done) /* the buffer every SM's launches shared */
        gmb_l2_cuda_partition_done();
    json_decref(per);
    free(cyc);
    free(fin);
    free(lat);
    free(near);
    free(agree);
    return rc;
}

/* ---- persistence (CUDA) ----------------------------------------------------------------- */

typedef struct ps {
    void *h;         /* the experiment in l2.cu */
    unsigned sum;    /* sum of the last sample */
    unsigned rounds; /* hot passes a launch, each followed by chunk bytes of the cold buffer */
    size_t chunk;
} ps_t;

static int sample_persist(void *arg, double *ns)
{
    ps_t *p = arg;
    return gmb_l2_cuda_persist_sample(p->h, p->rounds, p->chunk, ns, &p->sum);
}

/* The persisting-L2 gain on a workload that needs it: in one launch, rounds x (a pass over
 * the hot buffer, then one L2 of the cold buffer streamed: without a window the hot set is
 * evicted between its passes), rounds from the time (10 empty launches and min-sample-us at
 * least); the workload's time without a window and with set-asides up to the largest, the
 * gain with its CI. */
static int run_persistence(state_t *s, json_t *res, gmb_text_t *sm, char *why, size_t whylen)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    size_t hot = (size_t)cfg->hot_bytes, maxset = 0, maxwin = 0;
    ps_t p = {NULL, 0, 1, 0};
    char a[32], b[32];
    int rc = gmb_l2_cuda_persist_open(c->info.index, &hot, (size_t)cfg->flush, SEED_HOT(c), &p.h,
                                      &maxset, &maxwin, why, whylen);
    if (rc)
        return rc;
    uint64_t cold_n = cfg->flush / 16, llc = c->info.llc_bytes;
    p.chunk = (size_t)(llc && llc < cold_n * 16 ? llc / 16 * 16 : cold_n * 16);
    gmb_u32 hot_sum = hash_sum(SEED_HOT(c), hot / 4);
    json_t *cf = json_array();
    double empty = INFINITY, t1 = 0;
    gmb_stats_t st0 = {0}, stmax = {0};
    for (int i = 0; i < 5 && !rc; i++) { /* the fastest of 5 empty launches */
        double t = 0;
        if (!(rc = gmb_l2_cuda_persist_empty(p.h, &t)))
            empty = fmin(empty, t);
    }
    double want = fmax(fmax(cfg->min_sample_us * 1e3, 10.0 * empty), 100.0 * c->info.timer_res_ns);
    gmb_u32 want_sum = 0;
    size_t sets[5] = {0, maxset / 4, maxset / 2, maxset / 4 * 3, maxset};
    for (int i = 0; i < 5 && !rc; i++) {
        size_t win = 0, got = 0;
        double hr = 0;
        gmb_series_t ser = {0};
        if ((rc = gmb_l2_cuda_persist_config(p.h, sets[i], maxwin, &got, &win, &hr)))
            break;
        if (!i) { /* the rounds, from the workload without a window, then fixed */
            for (int it = 0; it < 8 && !rc; it++) {
                if ((rc = sample_persist(&p, &t1)) || t1 >= want)
                    break;
                double f = fmin(1024.0, fmax(2.0, 1.2 * want / fmax(t1, 1.0)));
                p.rounds = (unsigned)fmin((double)p.rounds * f, 1e6);
            }
            /* the sum a launch gives: rounds hot passes and rounds x chunk cold elements from
             * the start, wrapping */
            uint64_t tot = (uint64_t)p.rounds * (p.chunk / 16), q = tot / cold_n,
                     rem = tot % cold_n;
            gmb_u32 seed = SEED_HOT(c) + 1u, all = 0, part = 0;
            for (uint64_t w = 0; w < 4 * cold_n; w++) {
                if (w == 4 * rem)
                    part = all;
                all += gmb_hash(seed, w);
            }
            want_sum = p.rounds * hot_sum + (gmb_u32)q * all + part;
            if (rc)
                break;
        }
        if ((rc = gmb_measure(c, sample_persist, &p, &ser))) {
            gmb_series_free(&ser);
            break;
        }
        if (c->o.inject_error && !s->injected) {
            p.sum += 1u;
            s->injected = 1;
        }
        int bad = p.sum != want_sum;
        double bytes = (double)p.rounds * ((double)hot + (double)p.chunk);
        double bw = bytes / ser.st.median;
        json_t *pt = gmb_point_new(point_params("persistence", sets[i] ? "window" : "no-window",
                                                hot, p.rounds, NULL, sets[i], -1),
                                   &ser);
        gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes, &ser.st));
        json_t *x = json_object_get(pt, "extra");
        json_object_set_new(x, "verified", json_string(bad ? "FAILED" : "full"));
        json_object_set_new(x, "window_bytes", json_integer((json_int_t)win));
        json_object_set_new(x, "setaside_granted_bytes", json_integer((json_int_t)got));
        json_object_set_new(x, "hit_ratio", json_real(hr));
        json_object_set_new(x, "chunk_bytes", json_integer((json_int_t)p.chunk));
        gmb_add_point(c, pt);
        printf("%-10s %-9s set-aside %10s window %10s hitRatio %.2f: %9.2f us a round, %10.2f "
               "GB/s +-%.2f%% n %zu %s\n",
               "persist", sets[i] ? "window" : "no-window", gmb_fmt_size(sets[i], a, sizeof a),
               gmb_fmt_size(win, b, sizeof b), hr, ser.st.median / p.rounds / 1e3, bw,
               100 * ser.st.ci_rel, ser.st.n, bad ? "FAILED" : "full");
        fflush(stdout);
        json_array_append_new(cf, json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:f}", "setaside_bytes",
                                            (json_int_t)sets[i], "setaside_granted_bytes",
                                            (json_int_t)got, "window_bytes", (json_int_t)win,
                                            "hit_ratio", hr, "bw_GBps", bw, "ci_rel", ser.st.ci_rel,
                                            "round_ns", ser.st.median / p.rounds));
        if (!sets[i])
            st0 = ser.st;
        stmax = ser.st;
        gmb_series_free(&ser);
        if (bad) {
            gmb_error("verification failed: persistence, set-aside %zu B: sum %u, expected %u",
                      sets[i], p.sum, want_sum);
            rc = GMB_EVERIFY;
        }
    }
    int crc = gmb_l2_cuda_persist_close(p.h); /* always: the device's limit as found */
    json_object_set_new(res, "hot_bytes", json_integer((json_int_t)hot));
    json_object_set_new(res, "cold_bytes", json_integer((json_int_t)cfg->flush));
    json_object_set_new(res, "chunk_bytes", json_integer((json_int_t)p.chunk));
    json_object_set_new(res, "rounds", json_integer((json_int_t)p.rounds));
    json_object_set_new(res, "max_setaside_bytes", json_integer((json_int_t)maxset));
    json_object_set_new(res, "max_window_bytes", json_integer((json_int_t)maxwin));
    json_object_set_new(res, "configs", cf);
    json_object_set_new(res, "restored", json_boolean(crc == GMB_OK));
    json_object_set_new(res, "method",
                        json_string("one launch: rounds x (a pass over the hot buffer, then "
                                    "chunk_bytes of the cold buffer); gain = the launch's time "
                                    "without a window / with the largest set-aside; its CI from "
                                    "the two medians' 95% CIs"));
    if (!rc && !crc && st0.median > 0 && stmax.median > 0) {
        double g, lo, hi;
        ratio_ci(&st0, 1.0, &stmax, 1.0, &g, &lo, &hi);
        int none = lo <= 1.0 && hi >= 1.0;
        double res_rel = c->info.timer_res_ns / fmin(st0.median, stmax.median);
        json_object_set_new(res, "gain", json_real(g));
        json_object_set_new(res, "gain_ci", json_pack("[f, f]", lo, hi));
        json_object_set_new(res, "verdict",
                            json_string(none      ? "no measurable gain"
                                        : g > 1.0 ? "gain"
                                                  : "loss"));
        json_object_set_new(res, "timer_resolution_rel", json_real(res_rel));
        json_object_set_new(res, "empty_launch_ns", json_real(empty));
        json_object_set_new(res, "launch_rel", json_real(empty / fmin(st0.median, stmax.median)));
        gmb_text_add(sm,
                     "%spersistence (hot %s re-read %u times, each after %s of a %s cold "
                     "buffer, in one launch): %.4g us a round without a window, %.4g us with "
                     "the largest set-aside (%s): %.3fx [%.3f, %.3f]%s (an empty launch %.2g%% "
                     "of a sample).",
                     sm->len ? " " : "", gmb_fmt_size(hot, a, sizeof a), p.rounds,
                     gmb_fmt_size(p.chunk, b, sizeof b),
                     gmb_fmt_size(cfg->flush, (char[32]){0}, 32), st0.median / p.rounds / 1e3,
                     stmax.median / p.rounds / 1e3, gmb_fmt_size(maxset, (char[32]){0}, 32), g, lo,
                     hi, none ? ": no measurable gain" : "",
                     100 * empty / fmin(st0.median, stmax.median));
    }
    return rc ? rc : crc;
}

/* ---- the run ---------------------------------------------------------------------------- */

static void skip_part(int part, const char *why, json_t *sk, gmb_text_t *sm)
{
    printf("%-10s skipped: %s\n", part_names[part], why);
    json_array_append_new(sk, json_pack("{s:s, s:s}", "part", part_names[part], "reason", why));
    gmb_text_add(sm, "%s%s: skipped (%s).", sm->len ? " " : "", part_names[part], why);
}

static void print_header(const state_t *s)
{
    const gmb_ctx_t *c = s->c;
    char llc[32] = "unknown";
    if (c->info.llc_bytes)
        gmb_fmt_size(c->info.llc_bytes, llc, sizeof llc);
    printf("# gmb-l2: %s device %d: %s (%s); %s %s (as the device reports it); L1 %s\n",
           c->be->kind->name, c->info.index, c->info.name, c->info.type, s->cache, llc,
           s->ptx
               ? "bypassed (ld/st.global.cg)"
               : "not bypassable in OpenCL: groups rotate over the working set, reuse negligible");
    if (!s->gpu)
        printf("# a %s device: the cache measured is the host's last-level cache, not a GPU L2\n",
               c->info.type);
    printf("%-10s %-5s %10s %10s %7s %4s %8s %-10s %9s %-8s\n", "part", "state", "size", "GB/s",
           "+-CI%", "n", "reps", "where", "us", "verified");
}

static int l2_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    uint64_t data_bytes = cfg->data_bytes;
    int rc = GMB_OK;
    /* PTX: L1-bypassing loads (ld.global.cg) and %smid; linked: the partition and persistence
     * host code of l2.cu */
    int ptx = (be->kind->traits & GMB_BE_PTX) && (be->kind->traits & GMB_BE_LINKED);
    state_t s = {.c = c};
    s.gpu = !strcmp(c->info.type, "gpu");
    s.known = (be->kind->traits & GMB_BE_GPU_KNOWN) != 0;
    s.ptx = ptx;
    s.cache = s.gpu ? "L2" : "last-level cache (CPU)";
    s.mem = s.gpu ? "DRAM" : "memory";
    gmb_prog_t *prog[NLAYOUTS] = {NULL};
    s.lay[0] = s.lay[1] = s.lay[2] = -1;
    s.tuning = json_object();
    json_t *bwres = json_object(), *skipped = json_array(), *cwres = NULL, *pres = NULL,
           *perres = NULL;
    gmb_text_t sm = {{0}, 0};
    size_t maxn = cfg->sizes.n > cfg->l1_sizes.n ? cfg->sizes.n : cfg->l1_sizes.n;
    curve_t cv = {0, calloc(maxn, sizeof(double)), calloc(maxn, sizeof(double)),
                  calloc(maxn, sizeof(json_t *))};
    size_t max_groups = (size_t)c->info.compute_units * 1024 + 1;
    if (!cv.size || !cv.bw || !cv.pt) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    if (data_bytes && (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)data_bytes, &s.data)))
        goto out;
    s.part_bytes = max_groups * sizeof(gmb_u32);
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, s.part_bytes, &s.part)))
        goto out;
    for (int l = 0; l < NLAYOUTS && !rc; l++)
        if (!(rc = be->prog_load(c->dev, c->bench->kernels, variants[l].variant, &prog[l])))
            rc = be->kern_get(prog[l], "l2_read", &s.kr[l]) ||
                         be->kern_get(prog[l], "l2_l1read", &s.kl[l]) ||
                         be->kern_get(prog[l], "l2_write", &s.kw[l])
                     ? GMB_ERUNTIME
                     : GMB_OK;
    if (rc || (rc = be->kern_get(prog[L_GRID], "l2_init", &s.kinit)))
        goto out;
    use_layout(&s, L_GRID);
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes read or written x in-kernel repetitions / kernel time (1e9 B/s)");
    if (has(&cfg->parts, P_PART) && ptx)
        gmb_declare_metric(c, "lat_cycles", "cycles", "lower",
                           "SM clock cycles per dependent ld.global.cg load of one L2 line "
                           "(statistics over the lines of the buffer)");
    print_header(&s);
    for (size_t pi = 0; pi < cfg->parts.n && !rc; pi++) {
        int part = cfg->parts.idx[pi];
        if (part == P_READ || part == P_COLDWARM || part == P_L1) { /* data = gmb_hash (write
                                                                        destroys it) */
            gmb_u64 nw = data_bytes / 4;
            gmb_launch_t g;
            gmb_u32 seed = SEED_DATA(c);
            gmb_grid(c, s.kinit, cfg->group_size, cfg->groups_per_cu, nw, &g);
            gmb_arg_t av[] = {GMB_A_BUF(s.data), GMB_A_VAL(nw), GMB_A_VAL(seed)};
            if ((rc = be->launch(s.kinit, &g, av, 3, NULL)))
                break;
        }
        if ((part == P_READ || part == P_WRITE || part == P_L1 || part == P_COLDWARM) &&
            (rc = choose_layout(&s, part)))
            break;
        if (part == P_READ || part == P_WRITE) {
            cv.n = 0;
            for (size_t p = 0; p < cfg->sizes.n && !rc; p++)
                rc = run_bw_point(&s, part, cfg->sizes.v[p], &cv);
            if (!rc)
                fit_curve(&s, part, &cv, bwres, &sm);
            if (!rc && cv.n) {
                printf("# %s hit rate (model):", part_names[part]);
                int any = 0;
                for (size_t i = 0; i < cv.n; i++) {
                    json_t *h = json_object_get(json_object_get(cv.pt[i], "extra"), "hit_rate_est");
                    char sz[32];
                    if (json_is_real(h)) {
                        printf(" %s %.0f%%", fsz(cv.size[i], sz), 100 * json_real_value(h));
                        any = 1;
                    }
                }
                printf("%s\n", any ? "" : " none (no plateaus)");
            }
        } else if (part == P_L1) {
            cv.n = 0;
            for (size_t p = 0; p < cfg->l1_sizes.n && !rc; p++)
                rc = run_bw_point(&s, part, cfg->l1_sizes.v[p], &cv);
            if (!rc)
                fit_l1(&s, &cv, bwres, &sm);
        } else if (part == P_COLDWARM) {
            cwres = json_object();
            rc = run_coldwarm(&s, cwres, &sm);
        } else if (part == P_PART) {
            if (!ptx)
                skip_part(part,
                          "OpenCL cannot choose the compute unit a work-group runs on nor bypass "
                          "L1 (needs CUDA: %smid, ld.global.cg)",
                          skipped, &sm);
            else if (!gmb_l2_cuda_partition)
                skip_part(part, "the CUDA partition kernel was not built", skipped, &sm);
            else if (!s.gpu)
                skip_part(part, "not a GPU", skipped, &sm);
            else {
                pres = json_object();
                rc = run_partitions(&s, pres, &sm);
            }
        } else if (part == P_PERSIST) {
            char why[256] = "";
            if (!ptx)
                skip_part(part,
                          "OpenCL has no persisting access-policy windows (CUDA 11+ "
                          "cudaStreamAttributeAccessPolicyWindow)",
                          skipped, &sm);
            else if (!gmb_l2_cuda_persist_open)
                skip_part(part, "the CUDA persistence code was not built", skipped, &sm);
            else if (!(c->info.caps & GMB_CAP_L2_POLICY))
                skip_part(part, "the device has no persisting L2 (persistingL2CacheMaxSize 0)",
                          skipped, &sm);
            else {
                perres = json_object();
                rc = run_persistence(&s, perres, &sm, why, sizeof why);
                if (rc == GMB_ESKIP) {
                    skip_part(part, why, skipped, &sm);
                    rc = GMB_OK;
                }
            }
        }
    }
    if (!rc && !json_array_size(c->points) && json_array_size(skipped)) {
        gmb_skip("every part asked for is skipped on this device: %s",
                 json_string_value(json_object_get(json_array_get(skipped, 0), "reason")));
        rc = GMB_ESKIP;
    }
    if (!rc && sm.len) {
        if (!s.gpu)
            gmb_text_add(&sm,
                         " (A %s device: the host's caches, named generically; no GPU structure is "
                         "claimed.)",
                         c->info.type);
        gmb_summary(c, "# summary: ", NULL, sm.text, "nothing to summarise.");
    }
    gmb_add_result(c, "cache_name", json_string(s.cache));
    gmb_add_result(
        c, "l1",
        json_string(ptx ? "bypassed: PTX ld.global.cg / st.global.cg"
                        : "not bypassed (OpenCL has no such access): each "
                          "repetition rotates the work-items over the "
                          "working set by one group (lockstep: one tile), so a compute unit "
                          "re-reads data only after the whole working set "
                          "went by; L1 reuse negligible above a few L1s"));
    gmb_add_result(c, "bandwidth", bwres);
    gmb_add_result(c, "tuning", s.tuning);
    s.tuning = NULL;
    gmb_add_result(c, "skipped", skipped);
    if (cwres)
        gmb_add_result(c, "coldwarm", cwres);
    if (pres)
        gmb_add_result(c, "partitions", pres);
    if (perres)
        gmb_add_result(c, "persistence", perres);
    bwres = skipped = cwres = pres = perres = NULL;
out:
    json_decref(bwres);
    json_decref(skipped);
    json_decref(cwres);
    json_decref(pres);
    json_decref(perres);
    free(cv.size);
    free(cv.bw);
    free(cv.pt);
    for (int l = 0; l < NLAYOUTS; l++)
        be->prog_free(prog[l]);
    json_decref(s.tuning);
    be->free(s.data);
    be->free(s.part);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "l2",
    .summary = "L2 effects: bandwidth vs working set (L1 bypassed), capacity, partitions, "
               "persistence, cold vs warm; the L1s' aggregate bandwidth",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = l2_run,
    .check = l2_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
