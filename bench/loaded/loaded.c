/* loaded.c - gmb-loaded: memory latency under load. One work-item chases a random cycle
 * through a DRAM-sized chain while a growing number of work-groups stream reads beside it in
 * the same launch: the latency-bandwidth curve, from the idle latency to the latency at the
 * most bandwidth the device gives, and the bandwidth at which the latency doubles. */
#include "chasedev.h"
#include "model/curves.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {
    {"all", ""},
    {NULL, NULL},
};

#define WORD       4u         /* bytes per chain word */
#define ELEM       16u        /* bytes per streamed element (uint4) */
#define PER_ITER   (4 * ELEM) /* bytes a streamer reads per iteration */
#define WARM_MAX   512u /* untimed chase loads before the timed ones (the streamers ramp up) */
#define MAX_STEPS  (1u << 28)  /* most timed chase loads per launch */
#define DONE       0x80000000u /* loaded.cl's LOADED_DONE: stopped on the flag */
#define SIDE       0x40000000u /* loaded.cl's LOADED_SIDE: stopped on the chaser's SM */
#define CTL_WORDS  128u        /* loaded.cl's LOADED_WORDS */
#define CAP0       1024u       /* first cap on a streamer's iterations */
#define CAP_MAX    (1u << 26)  /* the cap never grows beyond this */
#define NCHECK     64          /* streaming work-items whose sums are recomputed per launch */
#define MAX_LEVELS 64          /* most load levels */

typedef struct cfg {
    uint64_t size;        /* chase working set, bytes; 0: derived from the last-level cache */
    uint64_t stream_size; /* streamed buffer, bytes; 0: as the chase's */
    uint64_t stride;      /* bytes between chained elements */
    gmb_ints_t groups;    /* load levels: streaming work-groups, a list, or "auto" */
    long group_size;      /* work-items per group; 0: 256 (or the device's most) */
    double min_sample_us; /* shortest timed chase */
    gmb_list_t traffic;   /* what the streamers do: indices into traffic_names */
} cfg_t;

enum { T_READ, T_WRITE };
static const char *const traffic_names[] = {"read", "write", NULL};
#define WCHECK_BYTES (64u << 10) /* bytes of streamed data checked after a write level, thrice */

#define O(field) offsetof(cfg_t, field)
static const char *const group_words[] = {"auto", "max", NULL}; /* --groups: its words */
static const gmb_opt_t opts[] = {
    {"size", GMB_OPT_SIZE, O(size), "BYTES", NULL, 1, 0x1p40, NULL,
     "chase working set [default 16x the last-level cache, 256 MiB .. 2 GiB, at most mem/8]", 0},
    {"stream-size", GMB_OPT_SIZE, O(stream_size), "BYTES", NULL, 1, 0x1p40, NULL,
     "buffer the streaming groups read or write, round and round [default: as --size]", 0},
    {"stride", GMB_OPT_SIZE, O(stride), "BYTES", "128", 4, 1u << 20, NULL,
     "bytes between chained elements, a multiple of 4 (one cache line: 128 on NVIDIA)", 0},
    {"groups", GMB_OPT_INTS, O(groups), "LIST", "auto", 0, 1e9, group_words,
     "load levels: streaming work-groups beside the chase, e.g. 0,1,8,max; auto = 0, then "
     "sqrt(2) apart up to the most that stay resident",
     0},
    {"group-size", GMB_OPT_INT, O(group_size), "N", "0", 0, 1024, NULL,
     "work-items per group; 0 = 256 (or the device's most)", 0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "1000", 1, 1e7, NULL,
     "shortest timed chase: long enough to dwarf launch, timer and the streamers' ramp", 0},
    {"traffic", GMB_OPT_LIST, O(traffic), "LIST", "read", 1, 0, traffic_names,
     "what the streaming groups do, one curve each: read (and sum) or write 16-byte elements", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "One launch per sample: work-item 0 of group 0 chases a random cycle through the chain\n"
    "(p = a[p], as gmb-chase's global chase), while every work-item of groups 1..G reads a\n"
    "second buffer in 16-byte loads, 4 in flight, neighbouring work-items on neighbouring\n"
    "elements, round and round, until the chaser raises a flag after its timed loads. So the\n"
    "loads of the chase meet queues as deep as G groups make them. G = 0 is the idle latency.\n"
    "On CUDA, streaming groups that land on the chaser's SM stop (its %smid is published), so\n"
    "the chase meets the memory system's queues, not its own SM's.\n"
    "lat_ns = (kernel time - the same launch without timed loads) / timed loads; lat_cycles:\n"
    "CUDA reads the SM clock around the timed loads; OpenCL derives cycles from ns x the\n"
    "device's maximum clock. bw_GBps = bytes the streamers read / kernel time (a streamer\n"
    "counts its loads; 10^9 B/s). Every launch checks the chase's final element and\n"
    "recomputes the sums of 64 streaming work-items on the host. After its warm-up the\n"
    "chaser waits until every streaming group has started, at most ~200 us (65536 polls on\n"
    "OpenCL), and a streamer also stops after a cap of iterations (doubled while streamers\n"
    "reach it beside a running chase), so nobody waits for ever and a launch ends however\n"
    "the groups are scheduled (work-groups need not run at once). Streamers poll the flag\n"
    "every 8th iteration; the control words sit on L2 lines of their own. A group covers the\n"
    "chase when it started before a tenth of the timed loads and stopped on the flag; points\n"
    "say how many had started when the timed loads began and how many covered (on a GPU all\n"
    "of them; when fewer started, the levels above are left out; a CPU runs groups in turn,\n"
    "so few cover there: its bandwidth is then that of the groups that ran). The summary\n"
    "gives the idle latency, the most bandwidth, the knee (the first level within 3% of it)\n"
    "with its latency, the latency with the most groups, and the bandwidth at which the latency\n"
    "reaches twice the idle one. --traffic write: the streamers store 16-byte values that\n"
    "encode their address and writer instead (bytes stored / kernel time); after each level\n"
    "three spans of the buffer are read back, every element either its data or a whole store.\n";

typedef struct state {
    gmb_ctx_t *c;
    gmb_buf_t *chain, *order_d, *bad, *data, *ctl, *out, *res_d, *seen_d;
    gmb_prog_t *prog;
    gmb_kern_t *krun, *kinit; /* the launch; the data's fill */
    gmb_launch_t ginit;       /* the fill's launch */
    gmb_launch_t geo;         /* 1 + G groups */
    gmb_chain_layout_t lay;   /* words of the chain's elements */
    const uint32_t *order;    /* the chain's host order */
    uint64_t n;               /* chain elements */
    uint64_t q;               /* cycle position where the next launch starts */
    uint64_t ne;              /* streamed elements (16 bytes) */
    gmb_u32 warm, steps, cap; /* chase loads untimed, timed; streamer cap */
    size_t G;                 /* streaming groups of this level */
    double base_ns;           /* fastest launch without timed loads */
    gmb_u32 *res, *seen;      /* host copies of res and seen */
    gmb_series_t cycles;      /* cycles per timed load, one per sample */
    gmb_series_t bwt;         /* kernel ns scaled to 1e9 streamed bytes, one per sample */
    gmb_series_t raw;         /* whole launch times, one per sample (the baseline may move) */
    size_t covered_min;       /* fewest covering groups over the samples */
    size_t started_min;       /* fewest groups started when the chaser's wait ended */
    size_t side_max;          /* most groups that stopped on the chaser's SM */
    size_t short_max;         /* most groups, in one sample, that neither covered nor stood aside */
    int few_started;          /* samples in which fewer groups started than were launched */
    int nsamples;             /* samples kept (steps > 0) */
    gmb_chase_guard_t guard;  /* launches below the baseline: repeated, baseline again */
    int cap_raises;           /* cap doublings */
    int capped_max;           /* samples kept with streamers at the cap's ceiling */
    int write;                /* the streamers write (T_WRITE) */
    gmb_u32 wkey;             /* key of the values they write */
    int injected, bad_final, bad_sum;
    char err[256];
} state_t;

static gmb_u32 word_at(const state_t *s, uint64_t q)
{
    return (gmb_u32)gmb_chain_word(&s->lay, s->order[q]);
}

/* The 32-bit sum work-item w of S streaming ones reads in it iterations (as loaded.cl). */
static gmb_u32 host_sum(gmb_u32 seed, uint64_t w, uint64_t S, uint64_t n, gmb_u32 it)
{
    gmb_u32 sum = 0;
    uint64_t i = w;
    for (gmb_u32 k = 0; k < 4 * it; k++) {
        for (unsigned j = 0; j < 4; j++)
            sum += gmb_hash(seed, 4 * i + j);
        i += S;
        if (i >= n)
            i -= n;
    }
    return sum;
}

/* Check the streamers of the last launch: the sums of NCHECK of them; the bytes they read in
 * *bytes, the groups that covered the chase in *covered, those that stopped on the chaser's
 * SM in *side; *capped: some group reached the cap beside a running chase. */
static void check_streamers(state_t *s, double *bytes, size_t *covered, size_t *side, int *capped)
{
    uint64_t S = s->G * s->geo.group_size, total = 0;
    for (uint64_t w = 0; w < S; w++)
        total += s->res[2 * w + 1] & ~(DONE | SIDE);
    *bytes = (double)total * PER_ITER;
    *covered = *side = 0;
    *capped = 0;
    gmb_u32 early = 1u + s->steps / 10; /* progress notes are 1 + timed loads done */
    for (size_t g = 0; g < s->G; g++) {
        gmb_u32 a = s->seen[2 * g], b = s->seen[2 * g + 1];
        gmb_u32 first_it = s->res[2 * (g * s->geo.group_size) + 1];
        if (first_it & SIDE)
            (*side)++;
        else if (!(a & DONE) && a <= early && (b & DONE))
            (*covered)++;
        if (!(first_it & (DONE | SIDE)) && !(b & DONE) && b > 0)
            *capped = 1;
    }
    gmb_u32 seed = (gmb_u32)s->c->o.seed;
    for (int k = 0; k < NCHECK && S && !s->write; k++) { /* writers: checked after the level */
        uint64_t w = k == 0 ? 0 : k == 1 ? S - 1 : gmb_hash(seed + 7u, (uint64_t)k) % S;
        gmb_u32 it = s->res[2 * w + 1] & ~(DONE | SIDE);
        gmb_u32 want = host_sum(seed, w, S, s->ne, it), got = s->res[2 * w];
        if (s->c->o.inject_error && !s->injected) { /* test aid: one wrong sum */
            got ^= 1u;
            s->injected = 1;
        }
        if (got != want && !s->bad_sum) {
            s->bad_sum = 1;
            snprintf(s->err, sizeof s->err,
                     "streaming work-item %llu summed 0x%08x over %u iterations, expected 0x%08x",
                     (unsigned long long)w, got, it, want);
        }
    }
}

/* After a write level (whose data was written afresh before it): three spans of the streamed
 * data (the first, the last, one between), every element either its initial data or a store
 * of this level's streamers: x its address, a writer that exists, an iteration under the cap,
 * the element one of the four that writer stores in that iteration, w consistent (no store
 * torn between two writers). The first 4 S elements must hold stores: every streamer's first
 * iteration writes them. */
static int check_writes(state_t *s)
{
    gmb_u32 seed = (gmb_u32)s->c->o.seed, *buf = malloc(WCHECK_BYTES);
    if (!buf)
        return GMB_ERUNTIME;
    uint64_t span = WCHECK_BYTES / ELEM < s->ne ? WCHECK_BYTES / ELEM : s->ne;
    uint64_t at[3] = {0, s->ne - span, gmb_hash(seed + 5u, s->G) % (s->ne - span + 1)};
    uint64_t S = s->G * s->geo.group_size;
    int rc = GMB_OK;
    for (int k = 0; k < 3 && !rc && !s->bad_sum; k++) {
        if ((rc = s->c->be->read(s->data, (size_t)(at[k] * ELEM), buf, (size_t)(span * ELEM))))
            break;
        if (s->c->o.inject_error && !s->injected) { /* test aid: one torn store */
            buf[3] ^= 1u;
            s->injected = 1;
        }
        for (uint64_t j = 0; j < span; j++) {
            const gmb_u32 *v = buf + 4 * j;
            uint64_t e = at[k] + j;
            gmb_u32 x = (gmb_u32)e ^ s->wkey;
            int init = 0, stored = v[0] == x && v[1] < S && v[2] < s->cap &&
                                   v[3] == (~x ^ (v[1] * 0x9e3779b9u) ^ v[2]);
            if (stored) { /* the writer's positions 4z .. 4z+3: y + k S (mod n) */
                int at_pos = 0;
                for (unsigned q = 0; q < 4; q++)
                    at_pos |= ((uint64_t)v[1] + (4 * (uint64_t)v[2] + q) % s->ne * S) % s->ne == e;
                stored = at_pos;
            }
            if (!stored && e >= 4 * S) { /* the first 4 S: every streamer's first iteration */
                init = 1;
                for (unsigned q = 0; q < 4; q++)
                    init = init && v[q] == gmb_hash(seed, 4 * e + q);
            }
            if (!init && !stored) {
                s->bad_sum = 1;
                snprintf(s->err, sizeof s->err,
                         "streamed element %llu holds %08x %08x %08x %08x: neither its data nor a "
                         "streamer's store",
                         (unsigned long long)e, v[0], v[1], v[2], v[3]);
                break;
            }
        }
    }
    free(buf);
    return rc;
}

static int sample(void *arg, double *ns);

/* (Re)write the streamed data: word j of element i = hash(seed, 4 i + j). */
static int init_data(state_t *s)
{
    gmb_u32 seed = (gmb_u32)s->c->o.seed;
    gmb_arg_t ai[] = {GMB_A_BUF(s->data), GMB_A_VAL(s->ne), GMB_A_VAL(seed)};
    return s->c->be->launch(s->kinit, &s->ginit, ai, 3, NULL);
}

/* Five more launches without timed loads; the baseline becomes the fastest launch of all so
 * far (a launch is only ever slowed down), so a baseline taken while the device or the host
 * was still warming up gives way. The per-sample series keep samples only. 0 or an error. */
static int rebaseline(state_t *s)
{
    return gmb_chase_rebaseline(sample, s, &s->steps, &s->base_ns,
                                (gmb_series_t *const[]){&s->cycles, &s->bwt, &s->raw}, 3);
}

/* One launch; *ns = its time less the baseline (the time of the timed chase loads). */
static int sample(void *arg, double *ns)
{
    state_t *s = arg;
    const gmb_backend_t *be = s->c->be;
    gmb_u32 start = word_at(s, s->q);
    gmb_u32 write = (gmb_u32)s->write;
    gmb_arg_t av[] = {GMB_A_BUF(s->chain), GMB_A_VAL(start),   GMB_A_VAL(s->warm),
                      GMB_A_VAL(s->steps), GMB_A_BUF(s->data), GMB_A_VAL(s->ne),
                      GMB_A_VAL(s->cap),   GMB_A_VAL(write),   GMB_A_VAL(s->wkey),
                      GMB_A_BUF(s->ctl),   GMB_A_BUF(s->out),  GMB_A_BUF(s->res_d),
                      GMB_A_BUF(s->seen_d)};
    uint64_t S = s->G * s->geo.group_size;
    double t = 0;
    gmb_u64 out[3];
    int rc;
    if ((rc = be->fill(s->ctl, 0, 0, CTL_WORDS * sizeof(gmb_u32))) ||
        (rc = be->launch(s->krun, &s->geo, av, 13, &t)) ||
        (rc = be->read(s->out, 0, out, sizeof out)))
        return rc;
    if (S && ((rc = be->read(s->res_d, 0, s->res, (size_t)(2 * S * sizeof(gmb_u32)))) ||
              (rc = be->read(s->seen_d, 0, s->seen, 2 * s->G * sizeof(gmb_u32)))))
        return rc;
    s->q = (s->q + s->warm + s->steps) % s->n;
    gmb_u32 want = word_at(s, s->q);
    if (s->c->o.inject_error && !s->injected && !S) { /* test aid: the idle chase's own check */
        out[0] ^= 1u;
        s->injected = 1;
    }
    if (out[0] != want && !s->bad_final) {
        s->bad_final = 1;
        snprintf(s->err, sizeof s->err, "the chase ended on word %llu, expected %u",
                 (unsigned long long)out[0], want);
    }
    double bytes = 0;
    size_t covered = 0, side = 0;
    int capped = 0;
    if (S)
        check_streamers(s, &bytes, &covered, &side, &capped);
    if (capped && s->cap < CAP_MAX) { /* streamers ran out beside the chase: more, again */
        s->cap *= 2;
        s->cap_raises++;
        return sample(arg, ns);
    }
    *ns = t - s->base_ns;
    switch (gmb_chase_judge(&s->guard, s->steps, *ns)) {
    case GMB_CHASE_REBASE:
        if ((rc = rebaseline(s)))
            return rc;
        return sample(arg, ns);
    case GMB_CHASE_REPEAT:
        return sample(arg, ns);
    case GMB_CHASE_KEEP:
        break;
    }
    if (s->steps) { /* a sample kept */
        s->nsamples++;
        s->capped_max += capped;
        s->covered_min = covered < s->covered_min ? covered : s->covered_min;
        s->started_min = (size_t)out[2] < s->started_min ? (size_t)out[2] : s->started_min;
        s->side_max = side > s->side_max ? side : s->side_max;
        size_t shrt = s->G - covered - side;
        s->short_max = shrt > s->short_max ? shrt : s->short_max;
        s->few_started += (size_t)out[2] < s->G;
    }
    if (gmb_series_push(&s->cycles, s->steps ? (double)out[1] / s->steps : 0) ||
        gmb_series_push(&s->bwt, bytes > 0 ? t * 1e9 / bytes : NAN) || gmb_series_push(&s->raw, t))
        return GMB_ERUNTIME;
    return GMB_OK;
}

/* ---- options ---------------------------------------------------------------------------- */

static int cmp_sz(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The load levels: "auto" (alone) or a list of counts and "max", each <= gmax. Sorted,
 * unique. Number of levels, or GMB_EUSAGE after one error line. */
static int parse_levels(const gmb_ints_t *l, size_t gmax, size_t *lv)
{
    size_t n = 0;
    int autos = 0;
    for (size_t i = 0; i < l->n; i++)
        autos += l->v[i] == GMB_INTS_WORD(0);
    if (autos && l->n > 1) {
        gmb_error("--groups: auto stands alone (or give a list of counts and max)");
        return GMB_EUSAGE;
    }
    if (autos) { /* 0, then sqrt(2) apart up to the most, none within 5% */
        lv[n++] = 0;
        for (double g = 1; g < gmax + 0.5 && n < MAX_LEVELS - 1; g *= M_SQRT2) {
            size_t v = (size_t)(g + 0.5);
            if (v > lv[n - 1] && (double)(gmax - v) > 0.05 * (double)gmax)
                lv[n++] = v;
        }
        if (gmax)
            lv[n++] = gmax;
    } else {
        for (size_t i = 0; i < l->n; i++) {
            size_t v = l->v[i] == GMB_INTS_WORD(1) ? gmax : (size_t)l->v[i];
            if (v > gmax) {
                gmb_error("--groups: %zu streaming groups, but at most %zu stay resident beside "
                          "the chaser on this device",
                          v, gmax);
                return GMB_EUSAGE;
            }
            if (n == MAX_LEVELS) {
                gmb_error("--groups: more than %d levels", MAX_LEVELS);
                return GMB_EUSAGE;
            }
            lv[n++] = v;
        }
    }
    qsort(lv, n, sizeof *lv, cmp_sz);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || lv[i] != lv[u - 1])
            lv[u++] = lv[i];
    return (int)u;
}

/* The chase's working set when not given: 16x the last-level cache within 256 MiB .. 2 GiB,
 * at most an eighth of the device's memory and one allocation. */
static uint64_t default_size(const gmb_dev_info_t *d)
{
    uint64_t v = d->llc_bytes ? 16 * d->llc_bytes : (256ull << 20);
    v = v < (256ull << 20) ? (256ull << 20) : v > (2ull << 30) ? (2ull << 30) : v;
    if (d->mem_bytes && v > d->mem_bytes / 8)
        v = d->mem_bytes / 8;
    if (d->max_alloc_bytes && v > d->max_alloc_bytes)
        v = d->max_alloc_bytes;
    return v;
}

/* The chase's and the stream's sizes against each other and the device (the defaults
 * derived from it); the check hook, before anything is allocated. What needs the kernel's
 * resident grid (the streaming groups, --groups, and the least --stream-size they take)
 * loaded_run checks once the kernel is loaded. */
static int loaded_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    char a[32], b[32];
    const gmb_dev_info_t *d = &c->info;
    if (cfg->stride % WORD) {
        gmb_error("--stride %llu: must be a multiple of the chain's word (%u bytes)",
                  (unsigned long long)cfg->stride, WORD);
        return GMB_EUSAGE;
    }
    if (!cfg->size)
        cfg->size = default_size(d);
    if (!cfg->stream_size)
        cfg->stream_size = cfg->size;
    cfg->size -= cfg->size % cfg->stride;
    cfg->stream_size -= cfg->stream_size % ELEM;
    if (cfg->size < 2 * cfg->stride) {
        gmb_error("--size: the chase needs at least two elements (2 x %llu bytes)",
                  (unsigned long long)cfg->stride);
        return GMB_EUSAGE;
    }
    if (cfg->size / cfg->stride > UINT32_MAX || cfg->size > (16ull << 30)) {
        gmb_error("--size %s: more than 32-bit word offsets reach",
                  gmb_fmt_size(cfg->size, a, sizeof a));
        return GMB_EUSAGE;
    }
    uint64_t need = cfg->size + cfg->size / cfg->stride * sizeof(uint32_t) + cfg->stream_size;
    if ((d->mem_bytes && need > d->mem_bytes / 2) ||
        (d->max_alloc_bytes &&
         (cfg->size > d->max_alloc_bytes || cfg->stream_size > d->max_alloc_bytes))) {
        gmb_error("--size/--stream-size: %s in all do not fit in half the device's %s of memory "
                  "(or one buffer is above the most one allocation may have)",
                  gmb_fmt_size(need, a, sizeof a), gmb_fmt_size(d->mem_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

/* ---- the run ---------------------------------------------------------------------------- */

typedef struct level {
    size_t groups;       /* streaming groups launched */
    size_t covered;      /* fewest that covered the chase (over the samples) */
    size_t started;      /* fewest started when the chaser's timed loads began */
    size_t side;         /* most that stopped on the chaser's SM */
    size_t shortfall;    /* most, in one sample, that neither covered nor stood aside */
    int few_started;     /* 1: in most samples fewer groups started than were launched */
    double bw, lat, cyc; /* GB/s (0: none), ns, cycles (NAN: none) */
    const json_t *pt;    /* its point in the record */
} level_t;

static int run_level(state_t *s, size_t G, int clock, level_t *lv)
{
    gmb_ctx_t *c = s->c;
    const gmb_dev_info_t *d = &c->info;
    int rc;
    s->G = G;
    s->geo.groups = 1 + G;
    const cfg_t *cfg = c->cfg;
    s->guard = GMB_CHASE_GUARD_INIT;
    if ((s->write && G && (rc = init_data(s))) || /* this level's stores only, for the check */
        (rc = gmb_chase_calibrate(c, sample, s, s->warm, &s->steps, &s->base_ns, cfg->min_sample_us,
                                  0, MAX_STEPS)) ||
        (rc = rebaseline(s)))
        return rc;
    /* what the samples alone say */
    s->cycles.n = s->bwt.n = s->raw.n = 0;
    s->covered_min = s->started_min = G;
    s->side_max = s->short_max = 0;
    s->few_started = s->nsamples = 0;
    s->cap_raises = s->capped_max = 0;
    s->guard = GMB_CHASE_GUARD_INIT;
    gmb_series_t ser = {0};
    if ((rc = gmb_measure(c, sample, s, &ser)) || (s->write && G && (rc = check_writes(s))) ||
        (rc = gmb_chase_settle(c, &s->guard, &s->raw, s->base_ns, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    double loads = (double)s->steps;
    json_t *params = json_pack("{s:s, s:I, s:I, s:I, s:I}", "traffic",
                               traffic_names[s->write ? T_WRITE : T_READ], "load_groups",
                               (json_int_t)G, "group_size", (json_int_t)s->geo.group_size,
                               "size_bytes", (json_int_t)(s->n * s->lay.stride_words * WORD),
                               "stream_bytes", (json_int_t)(s->ne * ELEM));
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "lat_ns", gmb_json_scaled(1.0 / loads, &ser.st));
    lv->groups = G;
    lv->covered = s->covered_min;
    lv->started = s->started_min;
    lv->side = s->side_max;
    lv->shortfall = s->short_max;
    lv->few_started = 2 * s->few_started > s->nsamples;
    lv->lat = ser.st.median / loads;
    lv->cyc = NAN;
    size_t n = ser.n;
    if (clock) {
        gmb_stats_t cs;
        size_t m = n <= s->cycles.n ? n : s->cycles.n;
        if (m && !gmb_stats_compute(s->cycles.ns + s->cycles.n - m, m, 1, 1.0, &cs)) {
            gmb_point_metric(pt, "lat_cycles", gmb_json_scaled(1.0, &cs));
            lv->cyc = cs.median;
        }
    } else if (d->core_clock_mhz) {
        double f = d->core_clock_mhz * 1e-3;
        gmb_point_metric(pt, "lat_cycles", gmb_json_scaled(f / loads, &ser.st));
        lv->cyc = lv->lat * f;
    }
    lv->bw = 0;
    if (G) {
        size_t m = n <= s->bwt.n ? n : s->bwt.n;
        gmb_point_rate(c, pt, "bw_GBps", s->bwt.ns + s->bwt.n - m, m, 1, 1e9);
        json_t *bw = json_object_get(json_object_get(pt, "metrics"), "bw_GBps");
        json_t *med = json_object_get(bw, "median");
        if (json_is_number(med))
            lv->bw = json_number_value(med);
        if (d->peak_bw_gbps > 0 && json_is_number(med)) /* a metric as bw_GBps is: median, CI */
            gmb_point_metric(
                pt, "pct_peak",
                gmb_json_rate_of(c, s->bwt.ns + s->bwt.n - m, m, 1, 1e9 * 100.0 / d->peak_bw_gbps));
    } else { /* nothing streams: exactly none */
        gmb_point_metric(pt, "bw_GBps", gmb_json_scaled(0.0, &ser.st));
    }
    json_t *extra = json_object_get(pt, "extra");
    int bad = s->bad_final || s->bad_sum;
    json_object_set_new(extra, "verified", json_string(bad ? "FAILED" : "full"));
    json_object_set_new(extra, "groups_covering", json_integer((json_int_t)lv->covered));
    json_object_set_new(extra, "groups_started", json_integer((json_int_t)lv->started));
    json_object_set_new(extra, "groups_on_chaser_sm", json_integer((json_int_t)lv->side));
    json_object_set_new(extra, "samples_capped", json_integer(s->capped_max));
    json_object_set_new(extra, "loads_timed", json_integer(s->steps));
    json_object_set_new(extra, "loads_warmup", json_integer(s->warm));
    json_object_set_new(extra, "baseline_ns", json_real(s->base_ns));
    json_object_set_new(extra, "streamer_cap", json_integer(s->cap));
    json_object_set_new(extra, "cap_raises", json_integer(s->cap_raises));
    json_object_set_new(extra, "timer_glitches", json_integer(s->guard.glitches));
    json_object_set_new(extra, "baseline_remeasured", json_integer(s->guard.rebases));
    char cy[32] = "-", pk[32] = "-";
    if (lv->cyc == lv->cyc)
        snprintf(cy, sizeof cy, "%.1f", lv->cyc);
    if (G && d->peak_bw_gbps > 0)
        snprintf(pk, sizeof pk, "%.1f", 100.0 * lv->bw / d->peak_bw_gbps);
    printf("%-7s %6zu %7zu %8zu %10.2f %6s %10.2f %7.2f %9s %10u %4zu %-8s\n",
           traffic_names[s->write ? T_WRITE : T_READ], G, lv->started, lv->covered, lv->bw, pk,
           lv->lat, 100.0 * ser.st.ci_rel, cy, s->steps, ser.n, bad ? "FAILED" : "full");
    fflush(stdout);
    lv->pt = pt;
    gmb_add_point(c, pt);
    gmb_series_free(&ser);
    if (!bad)
        return GMB_OK;
    gmb_error("verification failed: %zu streaming groups: %s", G, s->err);
    return GMB_EVERIFY;
}

/* One level as JSON: its bandwidth, latency, groups; % of the peak and x idle where known. */
static json_t *json_level(const gmb_dev_info_t *d, const level_t *l, const level_t *idle)
{
    json_t *t = json_pack("{s:f, s:f, s:I, s:I}", "bw_GBps", l->bw, "lat_ns", l->lat, "load_groups",
                          (json_int_t)l->groups, "groups_covering", (json_int_t)l->covered);
    if (d->peak_bw_gbps > 0)
        json_object_set_new(t, "pct_peak", json_real(100.0 * l->bw / d->peak_bw_gbps));
    if (idle)
        json_object_set_new(t, "lat_over_idle", json_real(l->lat / idle->lat));
    return t;
}

/* "X GB/s (P% of the nominal peak)" */
static void add_bw(gmb_text_t *t, const gmb_dev_info_t *d, double bw)
{
    gmb_text_add(t, "%.4g GB/s", bw);
    if (d->peak_bw_gbps > 0)
        gmb_text_add(t, " (%.0f%% of the nominal peak)", 100.0 * bw / d->peak_bw_gbps);
}

/* The headline figures of a curve of n levels (write: the writes'), from its results res
 * (idle and the doubling only where the curve starts idle): each rests on the levels it is
 * read from (a level found by its groups: it and its neighbours). */
static void headlines(gmb_ctx_t *c, const level_t *lv, size_t n, int write, const json_t *res)
{
    static const struct {
        const char *key, *label[2], *unit;
        int higher;
    } H[] = {
        {"idle", {"Loaded: chase latency, idle (index chase)", NULL}, "ns", 0},
        {"max_bw_GBps",
         {"Loaded: the most bandwidth beside the chase",
          "Loaded by writes: the most bandwidth beside the chase"},
         "GB/s",
         1},
        {"knee",
         {"Loaded: latency at the knee (97% of that bandwidth; index chase)",
          "Loaded by writes: latency at the knee (index chase)"},
         "ns",
         0},
        {"most_groups",
         {"Loaded: latency with the most streaming groups (index chase)", NULL},
         "ns",
         0},
        {"bw_at_2x_idle_GBps",
         {"Loaded: bandwidth where the latency doubles",
          "Loaded by writes: bandwidth where the latency doubles"},
         "GB/s",
         1},
    };
    if (!n)
        return;
    size_t most = 0, i;
    for (i = 1; i < n; i++)
        most = lv[i].bw > lv[most].bw ? i : most;
    for (size_t h = 0; h < sizeof H / sizeof H[0]; h++) {
        const json_t *v = json_object_get(res, H[h].key);
        v = json_is_object(v) ? json_object_get(v, "lat_ns") : v;
        if (!H[h].label[write] || !json_is_number(v))
            continue;
        const json_t *pts[4];
        size_t np = 0;
        if (!strcmp(H[h].key, "idle"))
            pts[np++] = lv[0].pt;
        else if (!strcmp(H[h].key, "max_bw_GBps"))
            pts[np++] = lv[most].pt;
        else if (H[h].key[0] == 'b') { /* the idle level and those around the doubling */
            double twice = 2 * lv[0].lat;
            for (i = 1; i < n && !(lv[i].lat >= twice); i++)
                ;
            pts[np++] = lv[0].pt;
            if (i > 1 && i < n)
                pts[np++] = lv[i - 1].pt;
            if (i < n)
                pts[np++] = lv[i].pt;
        } else { /* the knee's or the last level, its neighbours, (knee) the most bandwidth */
            json_int_t g =
                json_integer_value(json_object_get(json_object_get(res, H[h].key), "load_groups"));
            for (i = 0; i < n && (json_int_t)lv[i].groups != g; i++)
                ;
            for (size_t k = i ? i - 1 : 0; i < n && k <= i + 1 && k < n; k++)
                pts[np++] = lv[k].pt;
            if (i < n && H[h].key[0] == 'k' && (most + 1 < i || most > i + 1))
                pts[np++] = lv[most].pt;
        }
        /* the read curve's most bandwidth and idle latency are the memory's, for the
         * cross-checks, where the streamed and the chased buffers are memory-sized (4x and
         * 16x the LLC: at 4x a quarter of a random chase's loads may still hit) */
        const json_t *pa = json_object_get(lv[0].pt, "params");
        double llc = (double)c->info.llc_bytes;
        int bw = !strcmp(H[h].key, "max_bw_GBps"), idle = !strcmp(H[h].key, "idle");
        int mem =
            llc > 0 && (bw     ? json_number_value(json_object_get(pa, "stream_bytes")) >= 4 * llc
                        : idle ? json_number_value(json_object_get(pa, "size_bytes")) >= 16 * llc
                               : 0);
        gmb_headline(c,
                     &(gmb_headline_t){
                         .label = H[h].label[write],
                         .unit = H[h].unit,
                         .higher = H[h].higher,
                         .value = json_number_value(v),
                         .ci_lo = NAN,
                         .ci_hi = NAN,
                         .points = pts,
                         .npoints = np,
                         .quantity = mem && !write ? (bw ? GMB_Q_MEM_READ : GMB_Q_MEM_LAT) : NULL,
                         .source = bw ? "loaded: the most read bandwidth beside the idle chase"
                                      : "loaded: the chase with no streaming groups"});
    }
}

/* Summary: the idle latency; the most bandwidth; the knee (the first level within 3% of the
 * most bandwidth: past it more groups only queue) and its latency; the latency with every
 * group; the bandwidth at which the latency doubles. */
static void summarize(gmb_ctx_t *c, const level_t *lv, size_t n, int clock, int write,
                      size_t resident_seen)
{
    const gmb_dev_info_t *d = &c->info;
    gmb_text_t sm = {0};
    json_t *res = json_object();
    const level_t *idle = n && lv[0].groups == 0 ? &lv[0] : NULL;
    const level_t *knee = NULL, *last = n && lv[n - 1].groups ? &lv[n - 1] : NULL;
    double bw[MAX_LEVELS], lat[MAX_LEVELS], most = 0;
    for (size_t i = 0; i < n; i++) {
        bw[i] = lv[i].bw;
        lat[i] = lv[i].lat;
        most = fmax(most, bw[i]);
    }
    size_t k = gmb_curve_first_within(bw, n, 0.97);
    if (k < n)
        knee = &lv[k];
    const char *cyw = clock ? "cycles" : "cycles, derived";
    if (idle) {
        json_object_set_new(res, "idle",
                            json_pack("{s:f, s:o}", "lat_ns", idle->lat, "lat_cycles",
                                      idle->cyc == idle->cyc ? json_real(idle->cyc) : json_null()));
        gmb_text_add(&sm, "idle latency ≈ %.4g ns", idle->lat);
        if (idle->cyc == idle->cyc)
            gmb_text_add(&sm, " (%.0f %s)", idle->cyc, cyw);
    }
    if (knee) {
        json_object_set_new(res, "max_bw_GBps", json_real(most));
        json_object_set_new(res, "knee", json_level(d, knee, idle));
        gmb_text_add(&sm, "%sthe most bandwidth beside the chase is ", sm.len ? "; " : "");
        add_bw(&sm, d, most);
        gmb_text_add(&sm,
                     ", first within 3%% of it with %zu streaming groups, where the latency is "
                     "%.4g ns",
                     knee->groups, knee->lat);
        if (idle)
            gmb_text_add(&sm, " (x%.2f)", knee->lat / idle->lat);
    }
    if (last) {
        json_object_set_new(res, "most_groups", json_level(d, last, idle));
        if (last != knee) {
            gmb_text_add(&sm, "; with %zu groups %.4g ns", last->groups, last->lat);
            if (idle)
                gmb_text_add(&sm, " (x%.2f)", last->lat / idle->lat);
        }
    }
    if (idle && knee) { /* the first crossing of twice the idle latency, interpolated */
        double at = gmb_curve_crossing(bw, lat, n, 2.0 * idle->lat);
        json_object_set_new(res, "bw_at_2x_idle_GBps", at == at ? json_real(at) : json_null());
        if (at == at) {
            gmb_text_add(&sm, "; the latency doubles at ≈ ");
            add_bw(&sm, d, at);
        } else {
            gmb_text_add(&sm, "; it stays below twice the idle latency");
        }
    }
    size_t partial = 0, side = 0;
    for (size_t i = 0; i < n; i++) {
        partial += lv[i].shortfall > 0;
        side = lv[i].side > side ? lv[i].side : side;
    }
    if (resident_seen)
        json_object_set_new(res, "resident_groups_seen", json_integer((json_int_t)resident_seen));
    json_object_set_new(res, "levels_partly_covered", json_integer((json_int_t)partial));
    json_object_set_new(res, "groups_on_chaser_sm_max", json_integer((json_int_t)side));
    if (side)
        gmb_text_add(&sm,
                     " (up to %zu groups on the chaser's SM stopped, so that the chase meets "
                     "the memory system's queues, not its own SM's)",
                     side);
    if (partial)
        gmb_text_add(&sm,
                     " (at %zu of %zu levels not every streaming group ran beside the "
                     "chase: see groups_covering)",
                     partial, n);
    gmb_text_add(&sm, ".");
    json_object_set_new(res, "summary", json_string(sm.text));
    gmb_add_result(c, write ? "loaded_write" : "loaded", res);
    headlines(c, lv, n, write, res);
    /* the run's summary (results.summary): the reads', then the writes' */
    gmb_summary(c, write ? "# loaded (writes): " : "# loaded: ", write ? "With writes: " : NULL,
                sm.text, "nothing to summarise.");
}

static int loaded_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    state_t s = {0};
    gmb_chain_order_t ord = {0};
    level_t lv[MAX_LEVELS];
    size_t levels[MAX_LEVELS];
    int rc, nlv;
    s.c = c;
    if ((rc = be->prog_load(c->dev, c->bench->kernels, "all", &s.prog)) ||
        (rc = be->kern_get(s.prog, "loaded_run", &s.krun)))
        goto out;
    /* the launch: every group that stays resident, one of them the chaser's */
    gmb_grid(c, s.krun, cfg->group_size, 0, UINT64_MAX / 2, &s.geo);
    size_t gmax = s.geo.groups > 1 ? s.geo.groups - 1 : 0;
    if ((nlv = parse_levels(&cfg->groups, gmax, levels)) < 0) {
        rc = nlv;
        goto out;
    }
    uint64_t Smax = (uint64_t)levels[nlv - 1] * s.geo.group_size;
    uint64_t smin = Smax * ELEM > ELEM ? Smax * ELEM : ELEM;
    if (cfg->stream_size < smin) {
        char a[32], b[32];
        gmb_error("--stream-size %s: the streamers need at least one 16-byte element each (%s)",
                  gmb_fmt_size(cfg->stream_size, a, sizeof a), gmb_fmt_size(smin, b, sizeof b));
        rc = GMB_EUSAGE;
        goto out;
    }
    s.lay = (gmb_chain_layout_t){cfg->stride / WORD, 0};
    s.n = cfg->size / cfg->stride;
    s.ne = cfg->stream_size / ELEM;
    s.warm = (gmb_u32)(s.n < WARM_MAX ? s.n : WARM_MAX);
    s.cap = CAP0;
    size_t rwords = (size_t)(2 * (Smax ? Smax : 1)), swords = 2 * (gmax ? gmax : 1);
    s.res = malloc(rwords * sizeof *s.res);
    s.seen = malloc(swords * sizeof *s.seen);
    if (!s.res || !s.seen) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)cfg->size, &s.chain)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)s.n * sizeof(uint32_t), &s.order_d)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, sizeof(gmb_u32), &s.bad)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)cfg->stream_size, &s.data)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, CTL_WORDS * sizeof(gmb_u32), &s.ctl)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, 3 * sizeof(gmb_u64), &s.out)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, rwords * sizeof(gmb_u32), &s.res_d)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, swords * sizeof(gmb_u32), &s.seen_d)))
        goto out;
    if ((rc = gmb_chain_order_init(&ord, (size_t)s.n, (uint64_t)c->o.seed)) ||
        (rc = gmb_chain_order_grow(&ord, (size_t)s.n)))
        goto out;
    s.order = ord.order;
    if ((rc = gmb_chain_lay_out(c, s.prog, s.chain, s.order_d, s.bad, s.order, s.n, &s.lay, s.err,
                                sizeof s.err))) {
        if (rc == GMB_EVERIFY)
            gmb_error("verification failed: %s", s.err);
        goto out;
    }
    if ((rc = be->kern_get(s.prog, "loaded_init", &s.kinit)))
        goto out;
    gmb_grid(c, s.kinit, 0, 0, s.ne, &s.ginit);
    s.wkey = gmb_hash((gmb_u32)c->o.seed, 0x57u);
    int clock = (c->info.caps & GMB_CAP_CLOCK) != 0;
    gmb_declare_metric(c, "lat_ns", "ns", "lower",
                       "(kernel time - baseline without timed loads) / timed loads: the latency "
                       "of one chase load with the streamers beside it");
    if (clock || c->info.core_clock_mhz)
        gmb_declare_metric(c, "lat_cycles", "cycles", "lower",
                           clock ? "SM clock (clock64) cycles per timed load"
                                 : "DERIVED, not measured: lat_ns x the device's maximum clock");
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes the streaming groups read (traffic read) or wrote (write) / kernel "
                       "time (10^9 B/s)");
    if (c->info.peak_bw_gbps > 0)
        gmb_declare_metric(c, "pct_peak", "%", "higher", "bw_GBps / nominal peak bandwidth");
    char a[32], b[32];
    printf("# gmb-loaded: %s device %d: %s; chase %s at %llu B stride; streamed %s; group %zu "
           "work-items; %s\n",
           be->kind->name, c->info.index, c->info.name, gmb_fmt_size(cfg->size, a, sizeof a),
           (unsigned long long)cfg->stride, gmb_fmt_size(cfg->stream_size, b, sizeof b),
           s.geo.group_size,
           clock ? "cycles from the SM clock" : "cycles derived = ns x max clock, not measured");
    printf("%-7s %6s %7s %8s %10s %6s %10s %7s %9s %10s %4s %-8s\n", "traffic", "groups", "started",
           "covering", "GB/s", "%peak", "ns", "+-CI%", clock ? "cycles" : "cycles*", "loads", "n",
           "verified");
    for (size_t ti = 0; ti < cfg->traffic.n && !rc; ti++) {
        s.write = cfg->traffic.idx[ti] == T_WRITE;
        /* the streamed data (again) before each curve, and after the chain: writing it
         * flushes the chain's lines that laying it out and checking it left in the cache,
         * which the idle level would otherwise partly hit */
        if ((rc = init_data(&s)))
            break;
        int n_done = 0;
        size_t seen = 0;
        for (int i = 0; i < nlv && !rc; i++) {
            if ((rc = run_level(&s, levels[i], clock, &lv[i])))
                break;
            n_done++;
            if (lv[i].few_started && strcmp(c->info.type, "cpu")) {
                /* a GPU that did not start every group beside the chaser in most samples holds
                 * fewer at once than its occupancy said: more groups would only queue */
                gmb_warn("%s: in most samples of %zu streaming groups only %zu or fewer had "
                         "started when the chase began: the device keeps no more resident "
                         "beside it%s",
                         traffic_names[s.write ? T_WRITE : T_READ], lv[i].groups, lv[i].started,
                         i + 1 < nlv ? "; the levels above are left out" : "");
                seen = lv[i].started;
                break;
            }
        }
        if (!rc)
            summarize(c, lv, (size_t)n_done, clock, s.write, seen);
    }
    gmb_add_result(c, "streamer_bytes_per_iteration", json_integer(PER_ITER));
out:
    gmb_chain_order_free(&ord);
    gmb_series_free(&s.cycles);
    gmb_series_free(&s.bwt);
    gmb_series_free(&s.raw);
    free(s.res);
    free(s.seen);
    be->prog_free(s.prog);
    be->free(s.chain);
    be->free(s.order_d);
    be->free(s.bad);
    be->free(s.data);
    be->free(s.ctl);
    be->free(s.out);
    be->free(s.res_d);
    be->free(s.seen_d);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "loaded",
    .summary = "latency under load: a DRAM chase beside streaming groups, idle to saturation (the "
               "latency-bandwidth curve)",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = loaded_run,
    .check = loaded_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
