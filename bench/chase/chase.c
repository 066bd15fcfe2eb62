/* chase.c - gmb-chase: memory latency by pointer chasing (random single cycles, sequential
 * strides, page strides) in global, L1-bypassing global, shared/local and constant memory, by
 * atomics, through the texture path, and across a link (mapped host memory, a peer device's
 * memory), working sets from 1 KiB to DRAM, with cache and TLB levels detected from the
 * curve. */
#include "chasedev.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"
#include "model/levels.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));
/* chase.cu: fill the CUDA __constant__ chain (absent when CUDA was not built) */
extern int gmb_chase_cuda_const_write(int dev, const void *src, size_t bytes) __attribute__((weak));
/* chase.cu: the largest L1 for the global chases */
extern int gmb_chase_cuda_prefer_l1(void) __attribute__((weak));

/* One build: shared/local memory is the launch's dynamic allocation. */
static const gmb_cl_variant_t variants[] = {
    {"all", ""},
    {NULL, NULL},
};

#define CONST_BYTES (64u << 10) /* constant memory chased: CUDA's and OpenCL's guaranteed size */
#define WARM_MAX    4096u       /* in-kernel warm-up loads before the timed ones (at most) */
#define WARM_BIG    1024u       /* ... for a set larger than the last-level cache */
#define MAX_STEPS   (1u << 30)  /* most timed loads per sample */
#define WORD        4u          /* bytes per chain element word */

enum { M_RANDOM, M_STRIDE, M_PAGE };
static const char *const mode_names[] = {"random", "stride", "page", NULL};
enum {
    S_GLOBAL,
    S_GLOBAL_CG,
    S_SHARED,
    S_DSMEM,
    S_CONSTANT,
    S_ATOMIC,
    S_TEXTURE,
    S_HOST,
    S_PEER,
    NSPACES
};
static const char *const space_names[] = {"global", "global-cg", "shared", "dsmem", "constant",
                                          "atomic", "texture",   "host",   "peer",  NULL};
static const char *const space_kernel[] = {"chase_global",  "chase_global_cg", "chase_shared",
                                           "chase_dsmem",   "chase_constant",  "chase_atomic",
                                           "chase_texture", "chase_global",    "chase_global"};
/* --pointers: the spaces of global loads chase 64-bit addresses (global-cg: CUDA only) */
static const char *const space_kernel_ptr[] = {
    "chase_global_ptr", "chase_global_cg_ptr", NULL, NULL, NULL, NULL, NULL,
    "chase_global_ptr", "chase_global_ptr"};
/* spaces reached by global loads: the ones --pointers applies to */
#define GLOBAL_LOADS(sp)                                                                           \
    ((sp) == S_GLOBAL || (sp) == S_GLOBAL_CG || (sp) == S_HOST || (sp) == S_PEER)
/* spaces of global memory: the ones page mode applies to */
#define PAGED(sp) (GLOBAL_LOADS(sp) || (sp) == S_ATOMIC || (sp) == S_TEXTURE)
/* most bytes of host memory chased: pinned host memory is the machine's to share */
#define HOST_MAX (1ull << 30)
/* page mode's default span on a GPU: its chains hold one line a page, so the span costs only
 * the allocation; 16 GiB is the most 32-bit word offsets reach */
#define PAGE_SPAN (16ull << 30)

typedef struct cfg {
    gmb_sweep_t sizes;      /* working sets, bytes (page mode: bytes of address span) */
    uint64_t stride;        /* bytes from one chained element to the next */
    gmb_list_t modes;       /* indices into mode_names */
    gmb_sweep_t page_sizes; /* pages of the page-stride mode */
    gmb_list_t spaces;      /* indices into space_names */
    long accesses;          /* timed loads per sample; 0: enough for min_sample_us */
    double min_sample_us;   /* shortest timed sample */
    int pointers;           /* global spaces: 64-bit address chains (p = *p) */
    int indices;            /* word-index chains everywhere (CUDA's default chases addresses) */
    long peer;              /* the peer space's device; -1: the next one */
    gmb_sweep_t psizes;     /* page mode's working sets (not an option: --sizes, else its own
                               default, to PAGE_SPAN) */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const gmb_opt_t opts[] = {
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", NULL, 1, 0x1p62, NULL,
     "working sets: sizes, ranges A:B[:x2|:+S|:N/oct] [default 1KiB:min(4GiB,mem/4):4/oct; page "
     "mode on a GPU: to 16 GiB]",
     0},
    {"stride", GMB_OPT_SIZE, O(stride), "BYTES", "128", 1, 1u << 30, NULL,
     "bytes between chained elements, a multiple of 4 (one cache line: 128 on NVIDIA)", 0},
    {"mode", GMB_OPT_LIST, O(modes), "LIST", "random,page", 1, 0, mode_names,
     "chains: random (one random cycle), stride (sequential), page (one line per page)", 0},
    {"page-sizes", GMB_OPT_SWEEP, O(page_sizes), "LIST", NULL, 4096, 0x1p30, NULL,
     "page strides of the page mode, each a multiple of the stride [default 4KiB,64KiB and, on "
     "a GPU, its allocation granularity G (CUDA; else 2MiB) and 16G]",
     0},
    {"spaces", GMB_OPT_LIST, O(spaces), "LIST", "global,global-cg,shared,constant", 1, 0,
     space_names,
     "memory chased: global, global-cg (L1 bypassed, CUDA), shared, constant; dsmem (another "
     "SM's shared memory in a thread-block cluster, CUDA), atomic (global memory by atomic adds "
     "of zero), texture (global memory through the texture path); across a link: host (mapped "
     "pinned host memory), peer (a "
     "peer device's memory); all = every one",
     0},
    {"accesses", GMB_OPT_INT, O(accesses), "N", "0", 0, MAX_STEPS, NULL,
     "timed loads per sample; 0 = as many as --min-sample-us takes", 0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "1000", 1, 1e7, NULL,
     "shortest timed sample: the chase runs long enough to dwarf launch and timer", 0},
    {"pointers", GMB_OPT_FLAG, O(pointers), NULL, NULL, 1, 0, NULL,
     "chase addresses (p = *p), no arithmetic between loads: global spaces (64-bit; stride a "
     "multiple of 8; OpenCL: in shared virtual memory) and, on CUDA, shared memory (32-bit) "
     "[CUDA default: global, global-cg and shared; OpenCL default: off]",
     0},
    {"indices", GMB_OPT_FLAG, O(indices), NULL, NULL, 1, 0, NULL,
     "chase word indices (p = a[p]) in every space, CUDA's global and shared spaces too", 0},
    {"peer", GMB_OPT_INT, O(peer), "N", "-1", -1, 4096, NULL,
     "peer space: the device (same backend) whose memory is chased; -1 = the next one", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Chains: every load's address is the value of the load before (p = a[p]), so loads never\n"
    "overlap and the time per load is the latency; as in every index chase, each step also\n"
    "holds the load's address arithmetic (one dependent integer operation, a few cycles; on\n"
    "NVIDIA GPUs an IMAD.WIDE after each load). --pointers removes it in the global spaces: the\n"
    "chain is rewritten on the device into 64-bit addresses (p = *p), one load a step (OpenCL:\n"
    "in shared virtual memory, whose addresses hold across launches); and on CUDA in shared\n"
    "memory, whose copy-in writes 32-bit shared addresses (ld.shared). On CUDA the global,\n"
    "global-cg and shared spaces chase addresses by default (the load-to-use latency, as the\n"
    "published figures are; --indices for word indices), the other spaces word indices; on\n"
    "OpenCL, where addresses need shared virtual memory, word indices unless --pointers. Each\n"
    "point's extra.chain says which it chased. random: one cycle\n"
    "through every element in a uniformly random order (Sattolo's distribution); stride:\n"
    "elements in address order; page: one line per page (line e mod lines-per-page of page e),\n"
    "pages in random order, so the span grows the TLB's work while the cached lines stay few. A\n"
    "working set of S bytes has S / stride elements (page mode: S / page). Each chain is\n"
    "checked on the device against its order (one cycle through every element) before timing;\n"
    "each launch returns the element it reached, checked against the host.\n"
    "Spaces: global (default caching), global-cg (PTX ld.global.cg: L2 and DRAM without L1;\n"
    "CUDA only), shared (CUDA) / local (OpenCL) memory up to the most one group can have (CUDA:\n"
    "the opt-in maximum the device reports), constant memory up to 64 KiB; page mode runs in\n"
    "the spaces of global memory (all but shared and constant). atomic (not in the default\n"
    "list): each step is an atomic add of zero whose returned value is the next index: on GPUs\n"
    "atomics are done at the L2 (L1 never holds the line), so the curve is the atomic path's\n"
    "latency; page mode applies.\n"
    "dsmem (not in the default list; CUDA, compute capability 9.0 on): distributed shared\n"
    "memory, a cluster of two groups each holding the chain in its shared memory; the first\n"
    "chases the second's copy (mapa, ld.shared::cluster): an SM reading another SM's shared\n"
    "memory over the SM-to-SM network, up to the most one group can have; word indices only.\n"
    "texture (not in the default list): the chain read through the texture path, viewed as a\n"
    "1-D texture of 32-bit texels (CUDA tex1Dfetch on a texture object over linear memory;\n"
    "OpenCL read_imageui on an image1d_buffer_t, where the device has images), up to the widest\n"
    "such texture the device allows; page mode applies, --pointers does not.\n"
    "Across a link (global loads, default caching; not in the default list): host = pinned host\n"
    "memory mapped into the device (zero-copy: CUDA cudaHostAllocMapped; OpenCL only where the\n"
    "device shares the host's memory), up to max(1 GiB, 4x the last-level cache) and a quarter\n"
    "of RAM; peer = the memory of --peer (CUDA peer access over NVLink or PCIe; OpenCL has\n"
    "none), up to a quarter of it. Their levels are numbered, the last named host or peer\n"
    "memory when the sweep reaches 4x the last-level cache (whether the device caches such\n"
    "loads is what the curve shows).\n"
    "One work-item chases after up to 4096 warm-up loads in the same launch (1024 when the\n"
    "set's lines outgrow the last-level cache: the launches before have left it in its steady\n"
    "state). A sample is the\n"
    "kernel time (device events) less the baseline, the fastest of 5 runs of the same launch\n"
    "with no timed loads (launch overhead and warm-up; a launch below it is repeated, and when\n"
    "they keep coming the baseline is measured again and every sample of the point taken\n"
    "against the new one); lat_ns = sample / timed loads, which are\n"
    "as many as --min-sample-us takes. lat_cycles: CUDA reads the SM clock (clock64) around\n"
    "the timed loads;\n"
    "OpenCL has no cycle counter, so its cycles are derived: lat_ns x the device's maximum\n"
    "clock, not measured. Levels are plateaus of the latency curve: latency = median of the\n"
    "plateau, capacity = the largest working set still on it, with a confidence.\n";

/* One curve: a mode (and page) in one space. */
typedef struct state {
    gmb_ctx_t *c;            /* the run */
    gmb_buf_t *chain;        /* chain words, largest working set */
    gmb_buf_t *order_d;      /* the order on the device (random and page modes) */
    gmb_buf_t *out;          /* final word and cycles of a launch */
    gmb_buf_t *bad;          /* chase_check's flag */
    gmb_buf_t *cbuf;         /* constant-memory copy of the chain (OpenCL) */
    gmb_buf_t *tex;          /* the chain as a texture (texture space) */
    gmb_prog_t *prog;        /* the kernels */
    gmb_kern_t *k;           /* chase kernel of the current space */
    gmb_launch_t geo;        /* its launch */
    int space;               /* S_* */
    int ptr;                 /* the chain is made of addresses (--pointers, a global space) */
    int sptr;                /* --pointers, shared memory, CUDA: shared-window addresses */
    int svm;                 /* OpenCL --pointers: the chain is shared virtual memory */
    const uint32_t *order;   /* host order; NULL: sequential */
    gmb_chain_layout_t lay;  /* words of the elements */
    uint64_t n;              /* elements */
    uint64_t q;              /* position in the cycle where the next launch starts */
    gmb_u32 warm, steps;     /* loads per launch: untimed, timed */
    gmb_u32 nwords;          /* words copied into shared memory */
    double base_ns;          /* fastest launch without timed loads */
    gmb_chase_guard_t guard; /* launches below the baseline: repeated, baseline again */
    int injected;            /* --inject-error done */
    int bad_final;           /* a launch ended on the wrong element */
    int same_sm;             /* dsmem: a launch found both groups on one SM */
    char err[256];           /* what went wrong */
    gmb_series_t cycles;     /* cycles per timed load, one per launch */
    gmb_series_t raw;        /* whole launch times, one per launch (the baseline may move) */
} state_t;

/* Word where the element at cycle position q sits. */
static gmb_u32 word_at(const state_t *s, uint64_t q)
{
    uint64_t e = s->order ? s->order[q] : q;
    return (gmb_u32)gmb_chain_word(&s->lay, e);
}

static int sample(void *arg, double *ns);

/* Five more launches without timed loads; the baseline becomes the fastest launch of all so
 * far. The per-launch series keep the samples only. 0 or an error. */
static int rebaseline(state_t *s)
{
    return gmb_chase_rebaseline(sample, s, &s->steps, &s->base_ns,
                                (gmb_series_t *const[]){&s->cycles, &s->raw}, 2);
}

/* One launch: chase from the current position, check the element reached; *ns = its time
 * less the baseline (the time of the timed loads). */
static int sample(void *arg, double *ns)
{
    state_t *s = arg;
    const gmb_backend_t *be = s->c->be;
    gmb_u32 start = word_at(s, s->q);
    gmb_buf_t *src = s->space == S_CONSTANT ? s->cbuf : s->space == S_TEXTURE ? s->tex : s->chain;
    /* a sixth argument: the words shared memory holds, or the atomics' zero */
    int shared = s->space == S_SHARED || s->space == S_DSMEM;
    gmb_u32 sixth = shared ? s->nwords : 0;
    gmb_arg_t av[] = {GMB_A_BUF(src),     GMB_A_BUF(s->out),   GMB_A_VAL(start),
                      GMB_A_VAL(s->warm), GMB_A_VAL(s->steps), GMB_A_VAL(sixth)};
    double t = 0;
    int rc = be->launch(s->k, &s->geo, av, shared || s->space == S_ATOMIC ? 6 : 5, &t);
    gmb_u64 out[3] = {0, 0, 0}; /* dsmem: and whether both groups shared one SM */
    if (rc || (rc = be->read(s->out, 0, out, (s->space == S_DSMEM ? 3 : 2) * sizeof *out)))
        return rc;
    s->same_sm |= out[2] != 0;
    *ns = t - s->base_ns;
    s->q = (s->q + s->warm + s->steps) % s->n;
    switch (gmb_chase_judge(&s->guard, s->steps, *ns)) {
    case GMB_CHASE_REBASE: /* faster than no timed loads, again and again */
        if ((rc = rebaseline(s)))
            return rc;
        return sample(arg, ns);
    case GMB_CHASE_REPEAT: /* faster than no timed loads: a timer glitch, not a measurement */
        return sample(arg, ns);
    case GMB_CHASE_KEEP:
        break;
    }
    gmb_u32 want = word_at(s, s->q);
    if (s->c->o.inject_error && !s->injected) { /* test aid: a wrong final index */
        out[0] ^= 1u;
        s->injected = 1;
    }
    if (out[0] != want && !s->bad_final) {
        s->bad_final = 1;
        snprintf(s->err, sizeof s->err, "the chase ended on word %llu, expected %u",
                 (unsigned long long)out[0], want);
    }
    if (gmb_series_push(&s->cycles, s->steps ? (double)out[1] / s->steps : 0) ||
        gmb_series_push(&s->raw, t))
        return GMB_ERUNTIME;
    return GMB_OK;
}

/* ---- options and sizes ------------------------------------------------------------------ */

static int has(const gmb_list_t *l, int v)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->idx[i] == v)
            return 1;
    return 0;
}

static int default_sizes(gmb_ctx_t *c, cfg_t *cfg)
{
    uint64_t top = 4ull << 30, q = c->info.mem_bytes / 4;
    if (q && q < top)
        top = q;
    if (c->info.max_alloc_bytes && c->info.max_alloc_bytes < top)
        top = c->info.max_alloc_bytes;
    uint64_t lo = cfg->stride > 1024 ? cfg->stride : 1024;
    char spec[96], err[256];
    snprintf(spec, sizeof spec, "%llu:%llu:4/oct,%llu", (unsigned long long)lo,
             (unsigned long long)top, (unsigned long long)top);
    if (gmb_parse_sweep(spec, &cfg->sizes, err, sizeof err)) {
        gmb_error("default sizes: %s", err);
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

/* Page mode's strides and working sets, unless given: strides 4 KiB, 64 KiB and, on a GPU,
 * the allocation granularity G (2 MiB where the device gives none) and 16 G; working sets,
 * unless --sizes: the default sweep, on a GPU up to PAGE_SPAN (halved until it is at most a
 * third of the device's memory and one allocation). */
static int default_pages(gmb_ctx_t *c, cfg_t *cfg, int given)
{
    char spec[160], err[256];
    int gpu = !strcmp(c->info.type, "gpu");
    uint64_t g = c->info.alloc_granularity_bytes ? c->info.alloc_granularity_bytes : 2ull << 20;
    if (!cfg->page_sizes.set) {
        if (gpu && g > (64u << 10) && 16 * g <= (1ull << 30))
            snprintf(spec, sizeof spec, "4KiB,64KiB,%llu,%llu", (unsigned long long)g,
                     (unsigned long long)(16 * g));
        else if (gpu && g > (64u << 10))
            snprintf(spec, sizeof spec, "4KiB,64KiB,%llu", (unsigned long long)g);
        else
            snprintf(spec, sizeof spec, "4KiB,64KiB,2MiB");
        if (gmb_parse_sweep(spec, &cfg->page_sizes, err, sizeof err)) {
            gmb_error("default page sizes: %s", err);
            return GMB_ERUNTIME;
        }
    }
    if (given) {
        cfg->psizes = cfg->sizes;
        return GMB_OK;
    }
    uint64_t top = cfg->sizes.v[cfg->sizes.n - 1], span = PAGE_SPAN;
    while (span > top && (span > c->info.mem_bytes / 3 ||
                          (c->info.max_alloc_bytes && span > c->info.max_alloc_bytes)))
        span /= 2;
    if (!gpu || span <= top) {
        cfg->psizes = cfg->sizes;
        return GMB_OK;
    }
    uint64_t lo = cfg->stride > 1024 ? cfg->stride : 1024;
    snprintf(spec, sizeof spec, "%llu:%llu:4/oct,%llu", (unsigned long long)lo,
             (unsigned long long)span, (unsigned long long)span);
    if (gmb_parse_sweep(spec, &cfg->psizes, err, sizeof err)) {
        gmb_error("default page-mode sizes: %s", err);
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

static int check_options(gmb_ctx_t *c, cfg_t *cfg)
{
    char a[32], b[32];
    uint64_t st = cfg->stride;
    if (st % WORD) {
        gmb_error("--stride %llu: must be a multiple of the element size (%u bytes)",
                  (unsigned long long)st, WORD);
        return GMB_EUSAGE;
    }
    if (cfg->peer >= 0) { /* named: a device of this backend other than the chasing one */
        int n = 0;
        char why[160];
        if (!has(&cfg->spaces, S_PEER)) {
            gmb_error("--peer %ld: the peer space is not chased (add peer to --spaces)", cfg->peer);
            return GMB_EUSAGE;
        }
        if (c->be->count(&n, why, sizeof why) || cfg->peer >= n || cfg->peer == c->info.index) {
            gmb_error("--peer %ld: %s", cfg->peer,
                      cfg->peer == c->info.index ? "the chasing device itself; name another device"
                                                 : "no such device (see --list-devices)");
            return GMB_EUSAGE;
        }
    }
    int global_sp = 0;
    for (size_t i = 0; i < cfg->spaces.n; i++)
        global_sp |= GLOBAL_LOADS(cfg->spaces.idx[i]);
    if (cfg->pointers && cfg->indices) {
        gmb_error("--pointers and --indices: one chain or the other");
        return GMB_EUSAGE;
    }
    if (cfg->pointers && global_sp && st % 8) { /* 64-bit addresses in global memory */
        gmb_error("--pointers: the stride (%llu bytes) must be a multiple of 8, the size of an "
                  "address",
                  (unsigned long long)st);
        return GMB_EUSAGE;
    }
    if (has(&cfg->modes, M_PAGE))
        for (size_t i = 0; i < cfg->page_sizes.n; i++)
            if (cfg->page_sizes.v[i] % st) {
                gmb_error("--page-sizes: %s is not a multiple of the stride (%llu bytes)",
                          gmb_fmt_size(cfg->page_sizes.v[i], a, sizeof a), (unsigned long long)st);
                return GMB_EUSAGE;
            }
    for (size_t i = 0; i < cfg->sizes.n; i++)
        if (cfg->sizes.v[i] < st) {
            gmb_error("--sizes: a working set of %s is smaller than one stride (%llu bytes)",
                      gmb_fmt_size(cfg->sizes.v[i], a, sizeof a), (unsigned long long)st);
            return GMB_EUSAGE;
        }
    size_t k = gmb_sweep_round(&cfg->sizes, st); /* whole elements (none is below one) */
    size_t kp = gmb_sweep_round(&cfg->psizes, st);
    uint64_t top = cfg->sizes.v[k - 1];
    if (has(&cfg->modes, M_PAGE) && kp && cfg->psizes.v[kp - 1] > top)
        top = cfg->psizes.v[kp - 1]; /* the chain buffer holds page mode's span too */
    if (top > (16ull << 30)) {
        gmb_error("--sizes: %s is above 16 GiB, the most 32-bit word offsets reach",
                  gmb_fmt_size(top, a, sizeof a));
        return GMB_EUSAGE;
    }
    if (c->info.max_alloc_bytes && top > c->info.max_alloc_bytes) {
        gmb_error("--sizes: %s is more than the device allows in one buffer (%s)",
                  gmb_fmt_size(top, a, sizeof a),
                  gmb_fmt_size(c->info.max_alloc_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (top > c->info.mem_bytes / 2) {
        gmb_error("--sizes: %s and its order do not fit in half the device's %s of memory",
                  gmb_fmt_size(top, a, sizeof a), gmb_fmt_size(c->info.mem_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (top / st > UINT32_MAX) {
        gmb_error("--sizes: %s at a %llu-byte stride is more than 2^32 elements",
                  gmb_fmt_size(top, a, sizeof a), (unsigned long long)st);
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

/* ---- one point -------------------------------------------------------------------------- */

/* --pointers: turn the laid-out chain of the current point into one of addresses, in place
 * (chase_to_ptr), and check that one on the device too, every element (chase_check_ptr). */
static int to_pointers(state_t *s)
{
    const gmb_backend_t *be = s->c->be;
    gmb_kern_t *kp, *kc;
    int rc;
    if ((rc = be->kern_get(s->prog, "chase_to_ptr", &kp)) ||
        (rc = be->kern_get(s->prog, "chase_check_ptr", &kc)))
        return rc;
    gmb_launch_t g = gmb_chain_grid(s->c, s->n);
    gmb_u32 n = (gmb_u32)s->n, sw = (gmb_u32)s->lay.stride_words, pw = (gmb_u32)s->lay.page_words;
    gmb_u32 seq = s->order ? 0 : 1, bad = 0;
    gmb_arg_t ap[] = {GMB_A_BUF(s->chain), GMB_A_VAL(n), GMB_A_VAL(sw), GMB_A_VAL(pw)};
    gmb_arg_t ac[] = {GMB_A_BUF(s->chain), GMB_A_BUF(s->order_d), GMB_A_VAL(n),     GMB_A_VAL(seq),
                      GMB_A_VAL(sw),       GMB_A_VAL(pw),         GMB_A_BUF(s->bad)};
    if ((rc = be->launch(kp, &g, ap, 4, NULL)) || (rc = be->fill(s->bad, 0, 0, sizeof bad)) ||
        (rc = be->launch(kc, &g, ac, 7, NULL)) || (rc = be->read(s->bad, 0, &bad, sizeof bad)))
        return rc;
    if (bad) {
        snprintf(s->err, sizeof s->err, "the address chain on the device is wrong at position %u",
                 bad - 1);
        return GMB_EVERIFY;
    }
    return GMB_OK;
}

/* Copy the chain's first bytes into constant memory. */
static int load_constant(state_t *s, uint64_t bytes)
{
    const gmb_backend_t *be = s->c->be;
    int linked = (be->kind->traits & GMB_BE_LINKED) != 0; /* CUDA's __constant__ symbol */
    if (!linked && !s->svm)                               /* OpenCL buffer to buffer */
        return be->copy(s->cbuf, 0, s->chain, 0, (size_t)bytes, NULL);
    /* through the host: CUDA's __constant__ array; OpenCL's shared virtual memory, which
     * copies into no buffer object (at most 64 KiB) */
    void *h = malloc((size_t)bytes);
    if (!h)
        return GMB_ERUNTIME;
    int rc = be->read(s->chain, 0, h, (size_t)bytes);
    if (!rc)
        rc = linked ? gmb_chase_cuda_const_write(s->c->info.index, h, (size_t)bytes)
                    : be->write(s->cbuf, 0, h, (size_t)bytes);
    free(h);
    return rc;
}

typedef struct curve {
    int mode, space;   /* M_*, S_* */
    uint64_t page;     /* page bytes (page mode), else 0 */
    size_t n;          /* points */
    double *size;      /* working set, bytes */
    double *ns;        /* median ns per load (NAN: failed) */
    double *cyc;       /* median cycles per load */
    const json_t **pt; /* each point in the record */
    char chain;        /* its chase: 'a' addresses, 's' shared-memory addresses, 'i' indices */
} curve_t;

static void print_header(const gmb_ctx_t *c, const cfg_t *cfg, int clock)
{
    printf("# gmb-chase: %s device %d: %s; stride %llu B; ", c->be->kind->name, c->info.index,
           c->info.name, (unsigned long long)cfg->stride);
    if (clock)
        printf("cycles from the SM clock (clock64)\n");
    else if (c->info.core_clock_mhz)
        printf("cycles derived = ns x %d MHz (max clock), not measured\n", c->info.core_clock_mhz);
    else
        printf("no clock: no cycles\n");
    printf("%-6s %-7s %-9s %10s %10s %7s %9s %10s %4s %-8s\n", "mode", "page", "space", "size",
           "ns", "+-CI%", clock ? "cycles" : "cycles*", "loads", "n", "verified");
}

static int run_point(state_t *s, curve_t *cv, uint64_t size, int clock)
{
    gmb_ctx_t *c = s->c;
    int rc;
    s->cycles.n = 0;
    s->guard = GMB_CHASE_GUARD_INIT;
    s->bad_final = 0;
    s->same_sm = 0;
    s->q = 0;
    s->nwords = (gmb_u32)(size / WORD);
    s->geo.shared_bytes = s->space == S_SHARED ? (size_t)s->nwords * WORD : 0;
    if (s->space == S_DSMEM) { /* the chain, two tags, and over half an SM's shared memory */
        size_t most = c->info.local_mem_bytes, half = most / 2 + 4096;
        s->geo.shared_bytes = (size_t)s->nwords * WORD + 2 * WORD;
        if (s->geo.shared_bytes < half && half <= most)
            s->geo.shared_bytes = half;
    }
    if ((rc = gmb_chain_lay_out(c, s->prog, s->chain, s->order_d, s->bad, s->order, s->n, &s->lay,
                                s->err, sizeof s->err)) ||
        (s->ptr && (rc = to_pointers(s))))
        goto verify_fail;
    if (s->space == S_CONSTANT && (rc = load_constant(s, size)))
        return rc;
    const cfg_t *cfg = c->cfg;
    /* The warm-up: a whole traversal of up to WARM_MAX elements, so that a set a cache can
     * hold is in it. A set whose lines outgrow the last-level cache cannot be held, and the
     * launches before the timed ones (calibration, baseline, the harness's warm-up) have left
     * it in its steady state: WARM_BIG loads then, so that the timed loads (at least twice
     * the warm-up) need not be 8192 memory latencies a launch. */
    s->warm = (gmb_u32)(s->n < WARM_MAX ? s->n : WARM_MAX);
    if (c->info.llc_bytes && (uint64_t)s->n * cfg->stride > c->info.llc_bytes && s->warm > WARM_BIG)
        s->warm = WARM_BIG;
    if ((rc = gmb_chase_calibrate(c, sample, s, s->warm, &s->steps, &s->base_ns, cfg->min_sample_us,
                                  (gmb_u32)cfg->accesses, MAX_STEPS)))
        return rc;
    s->guard = GMB_CHASE_GUARD_INIT; /* what the samples alone say */
    s->raw.n = 0;
    gmb_series_t ser = {0};
    if ((rc = gmb_measure(c, sample, s, &ser)) ||
        (rc = gmb_chase_settle(c, &s->guard, &s->raw, s->base_ns, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    double loads = (double)s->steps;
    json_t *params = json_pack(
        "{s:s, s:I, s:s, s:I, s:I, s:I}", "mode", mode_names[cv->mode], "page_bytes",
        (json_int_t)cv->page, "space", space_names[s->space], "size_bytes", (json_int_t)size,
        "stride_bytes", (json_int_t)(s->lay.stride_words * WORD), "elements", (json_int_t)s->n);
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "lat_ns", gmb_json_scaled(1.0 / loads, &ser.st));
    double cyc = NAN;
    if (clock) { /* the last ser.n launches are the samples */
        gmb_stats_t cs;
        size_t n = ser.n <= s->cycles.n ? ser.n : s->cycles.n;
        if (n && !gmb_stats_compute(s->cycles.ns + s->cycles.n - n, n, 1, 1.0, &cs)) {
            gmb_point_metric(pt, "lat_cycles", gmb_json_scaled(1.0, &cs));
            cyc = cs.median;
        }
    } else if (c->info.core_clock_mhz) {
        double f = c->info.core_clock_mhz * 1e-3;
        gmb_point_metric(pt, "lat_cycles", gmb_json_scaled(f / loads, &ser.st));
        cyc = ser.st.median / loads * f;
    }
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "verified", json_string(s->bad_final ? "FAILED" : "full"));
    json_object_set_new(extra, "chain",
                        json_string(s->ptr    ? "addresses (p = *p)"
                                    : s->sptr ? "shared-memory addresses (p = *p)"
                                              : "word indices (p = a[p])"));
    if (s->space == S_DSMEM)
        json_object_set_new(extra, "same_sm", json_boolean(s->same_sm));
    json_object_set_new(extra, "loads_timed", json_integer(s->steps));
    json_object_set_new(extra, "loads_warmup", json_integer(s->warm));
    json_object_set_new(extra, "baseline_ns", json_real(s->base_ns));
    json_object_set_new(extra, "timer_glitches", json_integer(s->guard.glitches));
    json_object_set_new(extra, "baseline_remeasured", json_integer(s->guard.rebases));
    json_object_set_new(extra, "cycles",
                        json_string(clock ? "clock64" : "derived from ns x max clock"));
    double ns = ser.st.median / loads;
    if (clock && cyc > 0 && ns > 0) /* the clock the cycles were counted at: cycles per ns */
        json_object_set_new(extra, "clock_MHz", json_real(1e3 * cyc / ns));
    char sz[32], pg[32] = "-", cy[32] = "-";
    if (cv->page)
        gmb_fmt_size(cv->page, pg, sizeof pg);
    if (cyc == cyc)
        snprintf(cy, sizeof cy, "%.1f", cyc);
    printf("%-6s %-7s %-9s %10s %10.2f %7.2f %9s %10u %4zu %-8s\n", mode_names[cv->mode], pg,
           space_names[s->space], gmb_fmt_size(size, sz, sizeof sz), ns, 100.0 * ser.st.ci_rel, cy,
           s->steps, ser.n, s->bad_final ? "FAILED" : "full");
    fflush(stdout);
    gmb_add_point(c, pt);
    gmb_series_free(&ser);
    cv->pt[cv->n] = pt;
    cv->size[cv->n] = (double)size;
    cv->ns[cv->n] = s->bad_final ? NAN : ns;
    cv->cyc[cv->n++] = s->bad_final ? NAN : cyc;
    if (!s->bad_final)
        return GMB_OK;
    rc = GMB_EVERIFY;
verify_fail:
    if (rc == GMB_EVERIFY)
        gmb_error("verification failed: %s chain, %s, %s: %s", mode_names[cv->mode],
                  space_names[s->space], gmb_fmt_size(size, (char[32]){0}, 32), s->err);
    return rc;
}

/* ---- levels and the summary ------------------------------------------------------------- */

/* The caches of each space, from its normal-mode (random, else stride) curve of this run:
 * what its page-stride levels are named against. */
typedef struct cache_store {
    gmb_lv_cache_t c[NSPACES][GMB_MAX_LEVELS];
    size_t n[NSPACES];
    int bottom[NSPACES]; /* the curve's first level starts at its first point */
    int have[NSPACES];   /* a normal-mode curve of the space was named */
} cache_store_t;

static gmb_lv_path_t space_path(int sp)
{
    switch (sp) {
    case S_GLOBAL:
    case S_TEXTURE:
        return GMB_LV_GLOBAL;
    case S_GLOBAL_CG:
    case S_ATOMIC:
        return GMB_LV_L2_FIRST;
    case S_HOST:
    case S_PEER:
        return GMB_LV_LINK;
    default:
        return GMB_LV_ONCHIP;
    }
}

/* The caches a page-stride curve of space sp is named against: its own space's normal-mode
 * curve, else global's (without its L1 for a path that starts at the L2). */
static size_t page_caches(const cache_store_t *cs, int sp, gmb_lv_cache_t *out, int *bottom)
{
    int from = cs->have[sp] ? sp : cs->have[S_GLOBAL] ? S_GLOBAL : -1;
    size_t n = 0;
    *bottom = 0;
    if (from < 0)
        return 0;
    int skip_l1 = from != sp && space_path(sp) == GMB_LV_L2_FIRST;
    for (size_t i = 0; i < cs->n[from]; i++)
        if (!(skip_l1 && !strcmp(cs->c[from][i].name, "L1")))
            out[n++] = cs->c[from][i];
    *bottom = cs->bottom[from];
    return n;
}

static void fmt_lat(double ns, double cyc, int clock, char *out, size_t len)
{
    if (clock && cyc == cyc)
        snprintf(out, len, "%.0f cycles (%.3g ns)", cyc, ns);
    else if (cyc == cyc)
        snprintf(out, len, "%.3g ns (%.0f cycles, derived)", ns, cyc);
    else
        snprintf(out, len, "%.3g ns", ns);
}

/* Median of the values of v over [a, b] that are numbers (NAN when none). */
static double median_range(const double *v, size_t a, size_t b)
{
    double t[GMB_MAX_SWEEP];
    size_t k = 0;
    for (size_t i = a; i <= b; i++)
        if (v[i] == v[i])
            t[k++] = v[i];
    if (!k)
        return NAN;
    qsort(t, k, sizeof *t, gmb_cmp_double);
    return gmb_median_sorted(t, k);
}

/* ---- headline figures ------------------------------------------------------------------- */

/* The latency rows of a random curve: the first level of space named one of names ("L2|L2
 * near"), as label (its "%s" the chase) for the chases in chains, in cycles too where cyc; in
 * ns a measurement of quantity (source: which one) where the chase is one of qchains. */
static const struct {
    int space;
    const char *names, *label, *chains;
    int cyc;
    const char *quantity, *source, *qchains;
} lat_rows[] = {
    {S_GLOBAL, "L1", "L1 latency (%s)", "ai", 1, NULL, NULL, NULL},
    {S_GLOBAL, "L2|L2 near|L2 part 1", "L2 latency (%s)", "ai", 1, NULL, NULL, NULL},
    {S_GLOBAL, "L2 far", "L2 far latency (%s)", "ai", 1, NULL, NULL, NULL},
    {S_GLOBAL, "DRAM|memory", "DRAM latency (%s)", "ai", 1, GMB_Q_MEM_LAT,
     "chase: the memory level of the random global chase", "ai"},
    {S_ATOMIC, "L2|L2 near|L2 part 1", "L2 atomic latency (%s)", "i", 1, NULL, NULL, NULL},
    {S_TEXTURE, "L1", "Texture L1 latency (%s)", "i", 1, NULL, NULL, NULL},
    {S_TEXTURE, "L2|L2 near|L2 part 1", "Texture L2 latency (%s)", "i", 1, NULL, NULL, NULL},
    {S_HOST, "host memory", "Host memory latency (mapped, from the device; %s)", "ai", 0, NULL,
     NULL, NULL},
    {S_PEER, "peer memory", "Peer memory latency (from the device; %s)", "ai", 0, NULL, NULL, NULL},
    /* an on-chip memory's first level, or its flat curve's median (onchip_headline) */
    {S_SHARED, "level 1", "Shared/local-memory latency (%s)", "si", 1, GMB_Q_SHARED_LAT,
     "chase: shared memory, one work-item, word indices", "i"},
    {S_CONSTANT, "level 1", "Constant cache latency (level 1; %s)", "i", 1, NULL, NULL, NULL},
    {S_DSMEM, "level 1", "Distributed shared-memory latency (another SM of the cluster; %s)", "i",
     1, NULL, NULL, NULL},
};

/* Whether name is one of names ("A|B|C"). */
static int name_in(const char *name, const char *names)
{
    size_t len = strlen(name);
    for (const char *p = names; *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && !strncmp(p, name, n))
            return 1;
        p += n + (bar ? 1 : 0);
    }
    return 0;
}

/* The points of curve cv within sizes [lo, hi] (and the one at rise, where rise > 0) into out;
 * their count. */
static size_t range_points(const curve_t *cv, double lo, double hi, double rise, const json_t **out)
{
    size_t n = 0;
    for (size_t i = 0; i < cv->n; i++)
        if ((cv->size[i] >= lo && cv->size[i] <= hi) || (rise > 0 && cv->size[i] == rise))
            out[n++] = cv->pt[i];
    return n;
}

/* Declare latency figure label (unit "ns" or "cycles") of value v resting on points pts (n):
 * its CI that of the point whose median is nearest v, moved to v; a measurement of quantity
 * (source: which one; NULL: none). */
static void lat_headline(gmb_ctx_t *c, const char *label, const char *unit, double v,
                         const json_t **pts, size_t n, const char *quantity, const char *source)
{
    double lo = NAN, hi = NAN, best = INFINITY;
    for (size_t i = 0; i < n; i++) {
        const json_t *m = json_object_get(json_object_get(pts[i], "metrics"),
                                          strcmp(unit, "ns") ? "lat_cycles" : "lat_ns");
        double med = json_number_value(json_object_get(m, "median"));
        if (json_is_object(m) && fabs(med - v) < best) {
            best = fabs(med - v);
            lo = json_number_value(json_object_get(m, "ci_lo")) - med + v;
            hi = json_number_value(json_object_get(m, "ci_hi")) - med + v;
        }
    }
    gmb_headline(c, &(gmb_headline_t){.label = label,
                                      .unit = unit,
                                      .value = v,
                                      .ci_lo = lo,
                                      .ci_hi = hi,
                                      .points = pts,
                                      .npoints = n,
                                      .quantity = quantity,
                                      .source = source});
}

/* An on-chip curve without a first level: where every point lies within -20% and +25% of
 * their median (no step at all: one level over the sweep), that median in unit, on them all. */
static void onchip_headline(gmb_ctx_t *c, const curve_t *cv, const char *label, const char *unit,
                            const json_t **pts, const char *quantity, const char *source)
{
    double v[GMB_MAX_SWEEP];
    size_t n = 0;
    for (size_t i = 0; i < cv->n; i++) {
        const json_t *m = json_object_get(json_object_get(cv->pt[i], "metrics"),
                                          strcmp(unit, "ns") ? "lat_cycles" : "lat_ns");
        double x = json_number_value(json_object_get(m, "median"));
        if (json_is_number(json_object_get(m, "median")) && x > 0)
            v[n++] = x;
    }
    if (n < 3)
        return;
    qsort(v, n, sizeof *v, gmb_cmp_double);
    double med = gmb_median_sorted(v, n);
    if (v[0] >= 0.8 * med && v[n - 1] <= 1.25 * med)
        lat_headline(c, label, unit, med, pts, range_points(cv, 0, INFINITY, 0, pts), quantity,
                     source);
}

/* The headline figures of curve cv and its nl levels L named names (cycles cycv, ns nsv; page
 * mode: P): each level latency a row of the table has (lat_rows), the global L2's capacity,
 * and the TLB levels of the 2 MiB page-stride curve (latency, miss cost, reach). Each rests on
 * the points of its level (a capacity and a reach also on the point where the next rises). */
static void curve_headlines(gmb_ctx_t *c, const curve_t *cv, const gmb_level_t *L, int nl,
                            const char (*names)[GMB_LEVEL_NAME], const double *cycv,
                            const double *nsv, const gmb_page_level_t *P)
{
    const json_t **pts = malloc((cv->n ? cv->n : 1) * sizeof *pts);
    const char *chase = cv->chain == 'a'   ? "pointer chase"
                        : cv->chain == 's' ? "pointer chase, 32-bit"
                                           : "index chase";
    char label[128];
    if (!pts)
        return;
    if (cv->mode == M_RANDOM) {
        for (size_t r = 0; r < sizeof lat_rows / sizeof lat_rows[0]; r++) {
            if (lat_rows[r].space != cv->space || !strchr(lat_rows[r].chains, cv->chain))
                continue;
            snprintf(label, sizeof label, lat_rows[r].label, chase);
            int i = 0;
            while (i < nl && !name_in(names[i], lat_rows[r].names))
                i++;
            for (int u = 0; u < 1 + lat_rows[r].cyc; u++) {
                const char *unit = u ? "cycles" : "ns";
                double v = i < nl ? (u ? cycv[i] : nsv[i]) : NAN;
                const char *q = !u && lat_rows[r].quantity && strchr(lat_rows[r].qchains, cv->chain)
                                    ? lat_rows[r].quantity
                                    : NULL;
                if (v == v)
                    lat_headline(c, label, unit, v, pts,
                                 range_points(cv, L[i].size_lo, L[i].size_hi, 0, pts), q,
                                 lat_rows[r].source);
                else if (!strcmp(lat_rows[r].names, "level 1"))
                    onchip_headline(c, cv, label, unit, pts, q, lat_rows[r].source);
            }
        }
        /* a CPU's (or an unnamed curve's) levels by number */
        for (int i = 0; i < nl && cv->space == S_GLOBAL && cv->chain != 's'; i++) {
            int k;
            if (sscanf(names[i], "level %d", &k) != 1 || k < 1 || k > 6)
                continue;
            snprintf(label, sizeof label, "Latency level %d (%s)", k, chase);
            lat_headline(c, label, "ns", nsv[i], pts,
                         range_points(cv, L[i].size_lo, L[i].size_hi, 0, pts), NULL, NULL);
        }
        int cap = -1; /* the last level of the L2 */
        for (int i = 0; i < nl && cv->space == S_GLOBAL; i++)
            if (name_in(names[i], "L2|L2 far|L2 part 2"))
                cap = i;
        if (cap >= 0 && L[cap].size_hi > 0)
            gmb_headline(
                c, &(gmb_headline_t){.label = "L2 capacity (latency curve)",
                                     .unit = "MiB",
                                     .higher = 1,
                                     .value = L[cap].size_hi / 1048576.0,
                                     .ci_lo = NAN,
                                     .ci_hi = NAN,
                                     .points = pts,
                                     .npoints = range_points(cv, L[cap].size_lo, L[cap].size_hi,
                                                             L[cap].rise_at, pts),
                                     .quantity = GMB_Q_LLC,
                                     .source = "chase: where the latency curve leaves the L2"});
    }
    /* the TLB levels of the 2 MiB page stride, each with a level after it (its miss cost) */
    for (int i = 0;
         cv->mode == M_PAGE && cv->space == S_GLOBAL && cv->page == 2u << 20 && P && i + 1 < nl;
         i++) {
        if (P[i].tlb < 1 || P[i].tlb > 3)
            continue;
        const struct {
            const char *what, *unit;
            double v;
            int rise;
        } F[] = {{"latency (%s)", "cycles", cycv[i] > 0 ? cycv[i] : NAN, 0},
                 {"miss cost (%s)", "cycles", cycv[i + 1] - cycv[i], 0},
                 {"reach", "MiB", L[i].size_hi / 1048576.0, 1}};
        for (size_t f = 0; f < sizeof F / sizeof F[0]; f++) {
            char what[64];
            snprintf(what, sizeof what, F[f].what, chase);
            snprintf(label, sizeof label, "TLB level %d (2 MiB page stride): %s", P[i].tlb, what);
            gmb_headline(
                c, &(gmb_headline_t){.label = label,
                                     .unit = F[f].unit,
                                     .higher = F[f].rise,
                                     .value = F[f].v,
                                     .ci_lo = NAN,
                                     .ci_hi = NAN,
                                     .points = pts,
                                     .npoints = range_points(cv, L[i].size_lo, L[i].size_hi,
                                                             F[f].rise ? L[i].rise_at : 0, pts)});
        }
    }
    free(pts);
}

/* Detect the levels of a curve, add them to the record and the summary; a normal-mode curve's
 * levels go to cs (the caches its page-stride curves are named against). */
static void curve_levels(gmb_ctx_t *c, const curve_t *cv, int clock, int memory, json_t *all,
                         gmb_text_t *sm, cache_store_t *cs)
{
    gmb_level_t L[GMB_MAX_LEVELS];
    gmb_page_level_t P[GMB_MAX_LEVELS];
    char names[GMB_MAX_LEVELS][GMB_LEVEL_NAME];
    double noise = 0;
    /* CUDA: the levels are found on the cycles (clock64 around the timed loads alone), when
     * every point has them; the ns carry the subtraction of a warm-up launch, which on the
     * H200 scattered them by 10% at the far L2's points and hid its plateau */
    int on_cyc = clock && cv->n > 0;
    for (size_t i = 0; i < cv->n && on_cyc; i++)
        on_cyc = cv->ns[i] != cv->ns[i] || cv->cyc[i] == cv->cyc[i];
    const double *y = on_cyc ? cv->cyc : cv->ns;
    int nl = cv->n ? gmb_levels_detect(cv->size, y, cv->n, NULL, L, GMB_MAX_LEVELS, &noise) : 0;
    if (nl < 0)
        nl = 0;
    int found = nl; /* levels the detector found (page mode may keep fewer) */
    gmb_lv_cache_t pc[GMB_MAX_LEVELS + 1];
    int bottom = 0;
    size_t npc = 0;
    int gpu = !strcmp(c->info.type, "gpu");
    if (cv->mode == M_PAGE) {
        /* a CPU's page-stride steps mix caches, TLBs and prefetchers: numbered there */
        npc = gpu ? page_caches(cs, cv->space, pc, &bottom) : 0;
        if (npc) /* and the cache the device reports, where the curve did not show it */
            npc = gmb_lv_caches_reported(pc, npc, (double)c->info.llc_bytes, "L2");
        nl = gmb_page_level_names(pc, npc, bottom, (double)cv->page,
                                  (double)((const cfg_t *)c->cfg)->stride, L, nl, 3, P);
        for (int i = 0; i < nl; i++)
            memcpy(names[i], P[i].name, GMB_LEVEL_NAME);
    } else {
        gmb_lv_device_t dev = {gpu, (c->be->kind->traits & GMB_BE_GPU_KNOWN) != 0,
                               (double)c->info.llc_bytes};
        gmb_level_names(&dev, space_path(cv->space), space_names[cv->space], memory, L, nl, names);
    }
    char what[64], pg[32], a[32], b[32], lat[96];
    if (cv->mode == M_PAGE)
        snprintf(what, sizeof what, "%s, page-stride %s", space_names[cv->space],
                 gmb_fmt_size(cv->page, pg, sizeof pg));
    else
        snprintf(what, sizeof what, "%s, %s", space_names[cv->space], mode_names[cv->mode]);
    json_t *lv = json_array();
    char note[256] = "";
    gmb_text_add(sm, "%s%s: ", sm->len ? " " : "", what);
    if (!nl) {
        double lo = INFINITY, hi = 0;
        for (size_t i = 0; i < cv->n; i++)
            if (cv->ns[i] == cv->ns[i]) {
                lo = fmin(lo, cv->ns[i]);
                hi = fmax(hi, cv->ns[i]);
            }
        if (found >= 2 && cv->n) { /* page mode: the level after the step was cut short */
            size_t e = L[0].last;
            double y0 = median_range(y, L[0].first, e), y1 = y[cv->n - 1];
            snprintf(
                note, sizeof note,
                "flat at %.3g %s up to %s, then rising to %.3g %s at %s, the sweep's end: no "
                "plateau after the step",
                y0, on_cyc ? "cycles" : "ns", gmb_fmt_size((uint64_t)L[0].size_hi, a, sizeof a), y1,
                on_cyc ? "cycles" : "ns", gmb_fmt_size((uint64_t)cv->size[cv->n - 1], b, sizeof b));
            gmb_text_add(sm, "no clear level (%s).", note);
        } else if (hi > 0)
            gmb_text_add(sm, "no clear level (%.3g .. %.3g ns over %s .. %s).", lo, hi,
                         gmb_fmt_size((uint64_t)cv->size[0], a, sizeof a),
                         gmb_fmt_size((uint64_t)cv->size[cv->n - 1], b, sizeof b));
        else
            gmb_text_add(sm, "no clear level (no points).");
    }
    double cycv[GMB_MAX_LEVELS], nsv[GMB_MAX_LEVELS];
    for (int i = 0; i < nl; i++) {
        cycv[i] = median_range(cv->cyc, L[i].first, L[i].last);
        nsv[i] = on_cyc ? median_range(cv->ns, L[i].first, L[i].last) : L[i].lat;
    }
    for (int i = 0; i < nl; i++) {
        const char *name = names[i];
        double cyc = cycv[i], ns = nsv[i];
        fmt_lat(ns, cyc, clock, lat, sizeof lat);
        const char *conf = gmb_level_confidence_word(L[i].confidence);
        int tlb = cv->mode == M_PAGE && P[i].tlb;
        if (tlb) {
            char mc[64];
            double dc = cycv[i + 1] - cyc, dn = nsv[i + 1] - ns;
            if (clock && dc == dc)
                snprintf(mc, sizeof mc, "%+.0f cycles", dc);
            else
                snprintf(mc, sizeof mc, "%+.3g ns", dn);
            gmb_text_add(sm, "%s ≈ %s, reach ≈ %s, miss %s", name, lat,
                         gmb_fmt_size((uint64_t)L[i].size_hi, a, sizeof a), mc);
        } else if (i < nl - 1)
            gmb_text_add(sm, "%s ≈ %s up to ≈ %s", name, lat,
                         gmb_fmt_size((uint64_t)L[i].size_hi, a, sizeof a));
        else
            gmb_text_add(sm, "%s ≈ %s from %s", name, lat,
                         gmb_fmt_size((uint64_t)L[i].size_lo, a, sizeof a));
        if (strcmp(conf, "high"))
            gmb_text_add(sm, " (%s confidence)", conf);
        gmb_text_add(sm, "%s", i + 1 < nl ? "; " : ".");
        json_t *o =
            json_pack("{s:s, s:f, s:I, s:I, s:I, s:i, s:f, s:s}", "name", name, "lat_ns", ns,
                      "size_lo_bytes", (json_int_t)L[i].size_lo, "capacity_bytes",
                      (json_int_t)L[i].size_hi, "rise_at_bytes", (json_int_t)L[i].rise_at, "points",
                      (int)L[i].npoints, "confidence", L[i].confidence, "confidence_word", conf);
        if (cyc == cyc)
            json_object_set_new(o, "lat_cycles", json_real(cyc));
        if (cv->mode == M_PAGE) {
            json_object_set_new(o, "lines_bytes", json_integer((json_int_t)P[i].lines_bytes));
            if (P[i].cache >= 0)
                json_object_set_new(o, "lines_fit", json_string(pc[P[i].cache].name));
        }
        if (tlb) {
            json_object_set_new(o, "tlb_level", json_integer(P[i].tlb));
            json_object_set_new(o, "reach_bytes", json_integer((json_int_t)L[i].size_hi));
            json_object_set_new(o, "miss_cost_ns", json_real(nsv[i + 1] - ns));
            if (cyc == cyc && cycv[i + 1] == cycv[i + 1])
                json_object_set_new(o, "miss_cost_cycles", json_real(cycv[i + 1] - cyc));
        }
        json_array_append_new(lv, o);
    }
    json_t *co = json_pack("{s:s, s:I, s:s, s:o, s:s, s:f, s:s}", "mode", mode_names[cv->mode],
                           "page_bytes", (json_int_t)cv->page, "space", space_names[cv->space],
                           "levels", lv, "verdict", nl ? "levels" : "no clear level", "noise_log",
                           noise, "detected_on", on_cyc ? "cycles" : "ns");
    if (note[0])
        json_object_set_new(co, "note", json_string(note));
    if (cv->mode == M_PAGE)
        json_object_set_new(co, "named_against",
                            json_string(!gpu  ? "none: a CPU's levels are numbered"
                                        : npc ? (cs->have[cv->space] ? "this space's normal chase"
                                                                     : "the global normal chase")
                                              : "none: no normal chase of a cache in this run"));
    json_array_append_new(all, co);
    curve_headlines(c, cv, L, nl, (const char(*)[GMB_LEVEL_NAME])names, cycv, nsv,
                    cv->mode == M_PAGE ? P : NULL);
    /* a normal-mode curve's levels: the caches of its space */
    if (cv->mode != M_PAGE && !cs->have[cv->space] && nl >= 2) {
        int sp = cv->space;
        cs->have[sp] = 1;
        cs->bottom[sp] = L[0].first == 0;
        cs->n[sp] = gmb_lv_caches((const char(*)[GMB_LEVEL_NAME])names, L, nl, memory, cs->c[sp]);
    }
}

/* ---- the sweep -------------------------------------------------------------------------- */

static void skip_curve(const char *mode, uint64_t page, int space, const char *why, json_t *sk)
{
    char pg[32] = "-";
    if (page)
        gmb_fmt_size(page, pg, sizeof pg);
    printf("%-6s %-7s %-9s skipped: %s\n", mode, pg, space_names[space], why);
    json_array_append_new(sk,
                          json_pack("{s:s, s:I, s:s, s:s}", "mode", mode, "page_bytes",
                                    (json_int_t)page, "space", space_names[space], "reason", why));
}

/* The peer space's device (--peer, checked by check_options; else the next one): opened, with
 * this device's access to its memory enabled (*peer), or GMB_ESKIP with the reason in why (one
 * device; a pair without peer access), or the backend's error. */
static int open_peer(gmb_ctx_t *c, const cfg_t *cfg, gmb_dev_t **peer, gmb_dev_info_t *pinfo,
                     char *why, size_t len)
{
    const gmb_backend_t *be = c->be;
    int n = 0, idx = (int)cfg->peer, rc = be->count(&n, why, len); /* --peer: checked */
    if (rc)
        return rc;
    if (idx < 0 && n < 2) {
        snprintf(why, len, "the peer space needs a second %s device (there is %d)", be->kind->name,
                 n);
        return GMB_ESKIP;
    }
    if (idx < 0)
        idx = (c->info.index + 1) % n;
    if ((rc = be->info(idx, pinfo)) || (rc = be->open(idx, peer)))
        return rc;
    if ((rc = be->peer_enable(c->dev, *peer, why, len))) {
        be->close(*peer);
        *peer = NULL;
    }
    return rc;
}

/* Most bytes of mapped host memory chased: 1 GiB or 4x the last-level cache (a sweep that
 * reaches host memory), at most a quarter of RAM and the sweep's top. */
static uint64_t host_cap(const gmb_ctx_t *c, uint64_t top)
{
    uint64_t cap = HOST_MAX > 4 * c->info.llc_bytes ? HOST_MAX : 4 * c->info.llc_bytes;
    long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pg > 0 && (uint64_t)pages * (uint64_t)pg / 4 < cap)
        cap = (uint64_t)pages * (uint64_t)pg / 4;
    return cap < top ? cap : top;
}

/* Declare the SM clock figure label (MHz) of value mhz from points pts (n): a measurement of
 * the SM clock the cross-checks set beside the other (source). */
static void clock_headline(gmb_ctx_t *c, const char *label, const char *source, double mhz,
                           const json_t **pts, size_t n)
{
    gmb_headline(c, &(gmb_headline_t){.label = label,
                                      .unit = "MHz",
                                      .higher = 1,
                                      .value = mhz,
                                      .ci_lo = NAN,
                                      .ci_hi = NAN,
                                      .points = pts,
                                      .npoints = n,
                                      .quantity = GMB_Q_SM_CLOCK,
                                      .source = source});
}

/* The SM clock the chase ran at, two ways, under results.cycles: measured_MHz, the median
 * over its verified points of their cycles (clock64) over their nanoseconds (events), and
 * nvml_MHz, the median of the SM clock NVML gave at each point's end (when it did). */
static void clock_results(gmb_ctx_t *c)
{
    size_t np = json_array_size(c->points), nm = 0, nn = 0, i;
    double *m = malloc((np ? np : 1) * sizeof *m), *v = malloc((np ? np : 1) * sizeof *v);
    const json_t **pm = malloc((np ? np : 1) * sizeof *pm),
                 **pv = malloc((np ? np : 1) * sizeof *pv);
    json_t *pt, *cy = json_object_get(json_object_get(c->record, "results"), "cycles");
    if (m && v && pm && pv && cy)
        json_array_foreach(c->points, i, pt)
        {
            const json_t *x = json_object_get(pt, "extra");
            double mhz = json_number_value(json_object_get(x, "clock_MHz"));
            double smi =
                json_number_value(json_object_get(json_object_get(pt, "clocks"), "sm_MHz"));
            if (mhz > 0 && !strcmp(json_string_value(json_object_get(x, "verified")), "full")) {
                pm[nm] = pt;
                m[nm++] = mhz;
            }
            if (smi > 0) {
                pv[nn] = pt;
                v[nn++] = smi;
            }
        }
    /* the two clocks, as headline figures: what gmb-chase's cycles were counted at */
    if (nm) {
        qsort(m, nm, sizeof *m, gmb_cmp_double);
        json_object_set_new(cy, "measured_MHz", json_real(gmb_median_sorted(m, nm)));
        clock_headline(c, "SM clock during the chase (clock64 over events)",
                       "chase: its cycles (clock64) over its nanoseconds (events), median of its "
                       "points",
                       gmb_median_sorted(m, nm), pm, nm);
    }
    if (nn) {
        qsort(v, nn, sizeof *v, gmb_cmp_double);
        json_object_set_new(cy, "nvml_MHz", json_real(gmb_median_sorted(v, nn)));
        clock_headline(c, "SM clock during the chase (NVML)",
                       "NVML: the SM clock at its points' ends, median", gmb_median_sorted(v, nn),
                       pv, nn);
    }
    free(m);
    free(v);
    free(pm);
    free(pv);
}

/* The options against each other and the device: the default sizes and pages,
 * check_options, and --pointers where addresses need shared virtual memory. */
static int chase_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    int given = cfg->sizes.set;
    int rc = given ? GMB_OK : default_sizes(c, cfg);
    if (rc || (rc = default_pages(c, cfg, given)) || (rc = check_options(c, cfg)))
        return rc;
    /* OpenCL: a buffer object may move between launches, so the addresses live in shared
     * virtual memory, whose addresses hold */
    if (cfg->pointers && !(c->be->kind->traits & GMB_BE_ADDR_HOLD) &&
        !(c->info.caps & GMB_CAP_MANAGED)) {
        gmb_skip("--pointers on OpenCL needs shared virtual memory (a buffer object may move "
                 "between launches, so addresses stored in it need not hold)");
        return GMB_ESKIP;
    }
    return GMB_OK;
}

static int chase_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    int rc = GMB_OK;
    unsigned traits = be->kind->traits;
    int hold = (traits & GMB_BE_ADDR_HOLD) != 0, linked = (traits & GMB_BE_LINKED) != 0;
    int svm_chain = cfg->pointers && !hold; /* (chase_check: the device has it) */
    int clock = (c->info.caps & GMB_CAP_CLOCK) != 0;
    uint64_t rtop = cfg->sizes.v[cfg->sizes.n - 1], st = cfg->stride;
    uint64_t ptop = has(&cfg->modes, M_PAGE) ? cfg->psizes.v[cfg->psizes.n - 1] : 0;
    uint64_t top = ptop > rtop ? ptop : rtop; /* the chain buffer */
    size_t npts = cfg->psizes.n > cfg->sizes.n ? cfg->psizes.n : cfg->sizes.n;
    /* CUDA's default: addresses in the global, global-cg and shared spaces (a stride that
     * holds no 64-bit address keeps word indices) */
    int auto_ptr = hold && !cfg->pointers && !cfg->indices && st % 8 == 0;
    uint64_t minpage = cfg->page_sizes.v[0];
    uint64_t nrand = has(&cfg->modes, M_RANDOM) ? rtop / st : 1;
    uint64_t npage = has(&cfg->modes, M_PAGE) ? ptop / minpage : 1;
    uint64_t nord = nrand > npage ? nrand : npage;
    uint64_t smem = c->info.local_mem_bytes; /* the most one group can have */
    state_t s = {.c = c, .svm = svm_chain};
    curve_t cv = {0};
    gmb_chain_order_t ord = {0};
    json_t *levels = json_array(), *skipped = json_array();
    gmb_text_t sm = {{0}, 0};
    static cache_store_t cstore; /* large: not on the stack */
    memset(&cstore, 0, sizeof cstore);
    int injected = 0;
    gmb_dev_t *peer = NULL;                                  /* the peer space's device */
    gmb_dev_info_t pinfo;                                    /* what it is */
    char peer_why[256] = "";                                 /* why there is none */
    char tex_why[160] = "";                                  /* why there is no texture */
    size_t tex_words = 0;                                    /* texels of the texture */
    gmb_buf_t *main_chain = NULL, *xchain[NSPACES] = {NULL}; /* chains of host and peer */
    cv.size = calloc(npts, sizeof *cv.size);
    cv.ns = calloc(npts, sizeof *cv.ns);
    cv.cyc = calloc(npts, sizeof *cv.cyc);
    cv.pt = calloc(npts, sizeof *cv.pt);
    if (!cv.size || !cv.ns || !cv.cyc || !cv.pt) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    if ((rc = be->alloc(c->dev, svm_chain ? GMB_MEM_MANAGED : GMB_MEM_DEVICE, (size_t)top,
                        &s.chain)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)nord * 4, &s.order_d)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, 3 * sizeof(gmb_u64), &s.out)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, sizeof(gmb_u32), &s.bad)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, CONST_BYTES, &s.cbuf)) ||
        (rc = be->prog_load(c->dev, c->bench->kernels, variants[0].variant, &s.prog)) ||
        (linked && gmb_chase_cuda_prefer_l1 && (rc = gmb_chase_cuda_prefer_l1())))
        goto out;
    main_chain = s.chain;
    if (has(&cfg->spaces, S_PEER)) {
        rc = open_peer(c, cfg, &peer, &pinfo, peer_why, sizeof peer_why);
        if (rc && rc != GMB_ESKIP)
            goto out;
        rc = GMB_OK;
        if (peer)
            gmb_add_result(c, "peer",
                           json_pack("{s:i, s:s, s:s}", "index", pinfo.index, "name", pinfo.name,
                                     "pci_bus_id", pinfo.pci_bus_id));
    }
    gmb_declare_metric(
        c, "lat_ns", "ns", "lower",
        "(kernel time - baseline without timed loads) / timed loads: one load's latency");
    if (clock || c->info.core_clock_mhz)
        gmb_declare_metric(c, "lat_cycles", "cycles", "lower",
                           clock ? "SM clock (clock64) cycles per timed load"
                                 : "DERIVED, not measured: lat_ns x the device's maximum clock");
    gmb_add_result(c, "cycles",
                   json_pack("{s:s, s:i}", "source",
                             clock                    ? "clock64"
                             : c->info.core_clock_mhz ? "derived from ns x max clock"
                                                      : "none",
                             "clock_MHz", c->info.core_clock_mhz));
    if (has(&cfg->modes, M_PAGE)) { /* page mode: its strides, its span, the granularity */
        char gsrc[160];
        snprintf(gsrc, sizeof gsrc, "none: %s", be->lacks(GMB_CAP_GRANULE));
        json_t *ps = json_array();
        for (size_t i = 0; i < cfg->page_sizes.n; i++)
            json_array_append_new(ps, json_integer((json_int_t)cfg->page_sizes.v[i]));
        json_t *pg = json_pack("{s:o, s:I, s:s}", "page_sizes_bytes", ps, "span_bytes",
                               (json_int_t)ptop, "alloc_granularity_source",
                               c->info.alloc_granularity_bytes
                                   ? "cuMemGetAllocationGranularity (minimum, device memory)"
                                   : gsrc);
        json_object_set_new(pg, "alloc_granularity_bytes",
                            c->info.alloc_granularity_bytes
                                ? json_integer((json_int_t)c->info.alloc_granularity_bytes)
                                : json_null());
        gmb_add_result(c, "pages", pg);
    }
    print_header(c, cfg, clock);
    /* normal modes first: their levels are the caches the page-stride levels are named
     * against */
    for (int mode = M_RANDOM; mode <= M_PAGE && !rc; mode++) {
        if (!has(&cfg->modes, mode))
            continue;
        size_t npg = mode == M_PAGE ? cfg->page_sizes.n : 1;
        for (size_t pi = 0; pi < npg && !rc; pi++) {
            uint64_t page = mode == M_PAGE ? cfg->page_sizes.v[pi] : 0;
            for (size_t si = 0; si < cfg->spaces.n && !rc; si++) {
                int sp = cfg->spaces.idx[si];
                const char *why = NULL;
                uint64_t cap = top;
                char a[32], why_buf[160];
                if (mode == M_PAGE && !PAGED(sp))
                    continue; /* pages mean nothing there */
                if (sp == S_GLOBAL_CG && !(traits & GMB_BE_PTX))
                    why = "OpenCL has no L1-bypassing load (PTX ld.global.cg is CUDA only)";
                if (sp == S_SHARED) {
                    cap = smem;
                    if (smem < (16u << 10))
                        why = "the device has less than 16 KiB of local memory";
                }
                if (sp == S_DSMEM) {
                    cap = smem > 2 * WORD ? smem - 2 * WORD : 0; /* and the two tags */
                    if (cfg->pointers)
                        why = "--pointers: distributed shared memory is chased by word indices "
                              "only";
                    else if (!(c->info.caps & GMB_CAP_CLUSTER))
                        why = be->lacks(GMB_CAP_CLUSTER);
                }
                if (sp == S_CONSTANT) {
                    cap = CONST_BYTES;
                    if (linked && !gmb_chase_cuda_const_write)
                        why = "the CUDA constant-memory kernel was not built";
                }
                if (sp == S_ATOMIC && cfg->pointers)
                    why = "--pointers: atomics chase word indices only (an atomic on a 64-bit "
                          "address would need 64-bit atomics)";
                if (sp == S_TEXTURE && cfg->pointers)
                    why = "--pointers: a texture fetch takes a texel index, not an address";
                else if (sp == S_TEXTURE) {
                    if (!s.tex && !tex_why[0]) { /* one view of the chain, every curve */
                        tex_words = (size_t)(top / WORD);
                        rc = be->texture(main_chain, &tex_words, &s.tex, tex_why, sizeof tex_why);
                        if (rc && rc != GMB_ESKIP)
                            break;
                        rc = GMB_OK;
                    }
                    cap = (uint64_t)tex_words * WORD;
                    if (!s.tex)
                        why = tex_why;
                }
                if (sp == S_HOST) {
                    cap = host_cap(c, top);
                    if (!(c->info.caps & GMB_CAP_MAPPED))
                        why = be->lacks(GMB_CAP_MAPPED);
                    else if (cfg->pointers && !hold)
                        why = "--pointers on OpenCL needs shared virtual memory, and host "
                              "memory is a buffer object here";
                }
                if (sp == S_PEER) {
                    cap = peer && pinfo.mem_bytes / 4 < top ? pinfo.mem_bytes / 4 : top;
                    if (!peer)
                        why = peer_why;
                }
                if (!why && cfg->sizes.v[0] > cap) {
                    snprintf(why_buf, sizeof why_buf, "every working set is above the %s %s holds",
                             gmb_fmt_size(cap, a, sizeof a), space_names[sp]);
                    why = why_buf;
                }
                if (mode == M_PAGE && !why && cap < page)
                    why = "every working set is smaller than one page";
                if (why) {
                    skip_curve(mode_names[mode], page, sp, why, skipped);
                    continue;
                }
                if ((sp == S_HOST || sp == S_PEER) && !xchain[sp]) {
                    uint64_t ctop = 0; /* the largest working set it holds */
                    for (size_t p = 0; p < cfg->sizes.n; p++)
                        if (cfg->sizes.v[p] <= cap)
                            ctop = cfg->sizes.v[p];
                    rc = be->alloc(sp == S_HOST ? c->dev : peer,
                                   sp == S_HOST ? GMB_MEM_HOST_MAPPED : GMB_MEM_DEVICE,
                                   (size_t)ctop, &xchain[sp]);
                    if (rc) { /* the error is said above: the other curves go on */
                        rc = GMB_OK;
                        snprintf(why_buf, sizeof why_buf,
                                 "%s bytes of %s memory could not be allocated (above)",
                                 gmb_fmt_size(ctop, a, sizeof a), space_names[sp]);
                        skip_curve(mode_names[mode], page, sp, why_buf, skipped);
                        continue;
                    }
                }
                s.chain = xchain[sp] ? xchain[sp] : main_chain;
                s.ptr = (cfg->pointers && GLOBAL_LOADS(sp)) ||
                        (auto_ptr && (sp == S_GLOBAL || sp == S_GLOBAL_CG));
                /* shared-window addresses, made in-kernel */
                s.sptr = (cfg->pointers || auto_ptr) && hold && sp == S_SHARED;
                if ((rc = be->kern_get(s.prog,
                                       s.ptr    ? space_kernel_ptr[sp]
                                       : s.sptr ? "chase_shared_ptr"
                                                : space_kernel[sp],
                                       &s.k)))
                    break;
                s.space = sp;
                s.geo = (gmb_launch_t){.groups = 1, .group_size = 1};
                if (sp == S_SHARED || sp == S_DSMEM)
                    s.geo.group_size =
                        c->info.max_group_size < 256 ? (size_t)c->info.max_group_size : 256;
                if (sp == S_DSMEM) /* a cluster of two: the first chases the second's copy */
                    s.geo.groups = s.geo.cluster = 2;
                s.lay = (gmb_chain_layout_t){st / WORD, page / WORD};
                cv = (curve_t){mode,   sp,      page,
                               0,      cv.size, cv.ns,
                               cv.cyc, cv.pt,   s.ptr ? 'a' : s.sptr ? 's' : 'i'};
                if (mode != M_STRIDE) { /* the same seed: the same chains in every space */
                    gmb_chain_order_free(&ord);
                    uint64_t nmax = mode == M_PAGE ? ptop / page : rtop / st;
                    if ((rc = gmb_chain_order_init(&ord, (size_t)nmax, (uint64_t)c->o.seed)))
                        break;
                }
                s.order = mode == M_STRIDE ? NULL : ord.order;
                int above = 0, refused = 0;
                uint64_t last_n = 0, largest = 0;
                const gmb_sweep_t *sw = mode == M_PAGE ? &cfg->psizes : &cfg->sizes;
                for (size_t p = 0; p < sw->n && !rc; p++) {
                    uint64_t size = sw->v[p];
                    if (size > cap) {
                        above = 1;
                        continue;
                    }
                    if (mode == M_PAGE && size < page)
                        continue;
                    s.n = mode == M_PAGE ? size / page : size / st;
                    if (s.n == last_n) /* page mode: the same pages as the point before */
                        continue;
                    last_n = s.n;
                    if (s.order && (rc = gmb_chain_order_grow(&ord, (size_t)s.n)))
                        break;
                    s.injected = injected;
                    largest = mode == M_PAGE ? s.n * page : size;
                    rc = run_point(&s, &cv, largest, clock);
                    injected = s.injected;
                    if (rc == GMB_ESKIP && sp == S_DSMEM && !cv.n) {
                        /* the driver refused the first cluster launch (said above): no
                         * measurement, the other curves go on */
                        rc = GMB_OK;
                        refused = 1;
                        skip_curve(mode_names[mode], page, sp,
                                   "the device refused the cluster launch (above)", skipped);
                        break;
                    }
                }
                if (refused)
                    continue;
                if (above) {
                    snprintf(why_buf, sizeof why_buf, "working sets above %s: %s holds no more",
                             gmb_fmt_size(cap, a, sizeof a), space_names[sp]);
                    skip_curve(mode_names[mode], page, sp, why_buf, skipped);
                }
                /* the last level is memory when the curve reaches 4x the last-level cache */
                int memory = c->info.llc_bytes && largest >= 4 * c->info.llc_bytes;
                if (!rc)
                    curve_levels(c, &cv, clock, memory && mode != M_PAGE, levels, &sm, &cstore);
            }
        }
    }
    if (!rc) {
        gmb_summary(c, "# levels: ", NULL, sm.text, "no curve measured.");
    }
    gmb_add_result(c, "levels", levels);
    gmb_add_result(c, "skipped", skipped);
    levels = skipped = NULL;
    if (clock)
        clock_results(c);
out:
    json_decref(levels);
    json_decref(skipped);
    gmb_chain_order_free(&ord);
    free(cv.size);
    free(cv.ns);
    free(cv.cyc);
    free(cv.pt);
    gmb_series_free(&s.cycles);
    gmb_series_free(&s.raw);
    be->prog_free(s.prog);
    be->free(s.tex); /* a view of the main chain: before it */
    be->free(main_chain ? main_chain : s.chain);
    be->free(xchain[S_HOST]);
    be->free(xchain[S_PEER]);
    if (peer)
        be->close(peer);
    be->free(s.order_d);
    be->free(s.out);
    be->free(s.bad);
    be->free(s.cbuf);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "chase",
    .summary = "memory latency by pointer chasing: caches, DRAM, TLB; levels detected",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = chase_run,
    .check = chase_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
