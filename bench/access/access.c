/* access.c - gmb-access: bandwidth of 4-byte reads by access pattern: the stride between the
 * words neighbouring work-items read (coalescing: how much of each fetched sector or line is
 * used), the misalignment of contiguous reads, and blocks of B bytes read (or written) at
 * random places (how much of the memory's bandwidth a random access of B bytes gets); the
 * memory system's access granularity inferred from the stride curve. */
#include "model/curves.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {{"default", ""}, {NULL, NULL}};

#define WORD             4u          /* bytes per access */
#define SECTOR           32u         /* bytes of the smallest unit a GPU's L2 fetches */
#define VERIFY_FULL      (32u << 20) /* reads recomputed in full up to this; beyond, a sample */
#define VERIFY_MIN_ITEMS 64          /* work-items recomputed at least */
#define MAX_REPS         (1u << 20)
#define FULL_SHARE       0.9 /* random blocks get full bandwidth: within 10% of contiguous */
#define CHECK_CHUNK      (16u << 20) /* words read back at a time to check random writes */
#define OUT_POISON       0xa5        /* byte the sums are filled with before a point's samples */

enum { P_STRIDE, P_OFFSET, P_RANDOM, P_RANDOM_WRITE };
static const char *const pattern_names[] = {"stride", "offset", "random", "random-write", NULL};

typedef struct cfg {
    gmb_sweep_t sizes;    /* buffers, bytes */
    gmb_sweep_t strides;  /* bytes between neighbouring work-items' words */
    gmb_ints_t offsets;   /* misalignments of the contiguous reads, bytes (a list with 0) */
    gmb_sweep_t blocks;   /* bytes per random block (powers of two) */
    gmb_list_t patterns;  /* P_* */
    double min_sample_us; /* shortest timed sample */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const gmb_opt_t opts[] = {
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", NULL, 4096, 0x1p62, NULL,
     "buffers read [default one whose passes touch >= 4x the LLC at every stride (>= 16x "
     "LLC, 256 MiB), within mem/4]",
     0},
    {"strides", GMB_OPT_SWEEP, O(strides), "LIST", "4:512:x2", 4, 1u << 20, NULL,
     "bytes between the words neighbouring work-items read (multiples of 4; 4 = contiguous)", 0},
    {"offsets", GMB_OPT_INTS, O(offsets), "LIST", "0,4,8,16,32,64,96", 0, 4095, NULL,
     "misalignments of contiguous reads, bytes (multiples of 4, below 4096)", 0},
    {"blocks", GMB_OPT_SWEEP, O(blocks), "LIST", "4:4096:x2", 4, 65536, NULL,
     "bytes per randomly placed block (powers of two, 4 B to 64 KiB)", 0},
    {"patterns", GMB_OPT_LIST, O(patterns), "LIST", "stride,offset,random", 1, 0, pattern_names,
     "stride (bandwidth vs stride), offset (contiguous reads from a misaligned start), random "
     "(blocks read at random places, by block size), random-write (blocks written so; not in "
     "the default, in all)",
     0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "500", 1, 1e7, NULL,
     "shortest timed sample: small buffers are read several times a launch", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Work-item j of a grid of G reads the 4-byte words at byte offset + (j + k x G) x stride,\n"
    "k = 0, 1, ... while inside the buffer, eight reads in flight, and sums them. The last\n"
    "launch of each point is verified (the sums buffer is poisoned before the point's timed\n"
    "launches, so a launch that wrote nothing fails): the host recomputes the sums, all of\n"
    "them up to 32 Mi reads; beyond, those of every s-th\n"
    "work-item, s odd so that every lane and word is among them, at most about as many reads;\n"
    "s is the point's extra verify_step). Neighbouring work-items (a warp) read words stride\n"
    "bytes apart: at stride 4 every byte of every sector and line fetched is used; at stride s\n"
    "only 4 of every min(s, g) bytes fetched are, g the granularity the memory system fetches\n"
    "in (a sector, a line, a DRAM burst).\n"
    "Bandwidth = 4 bytes x reads x passes a launch (bytes read by the kernel: what the\n"
    "program uses, not what the memory system moves) / median kernel time, GB/s.\n"
    "Granularity: for each g of 32, 64, 128,\n"
    "256 bytes, the bytes fetched per second under g (bandwidth x min(s, g) / 4) over the\n"
    "strides: under the true g flat up to s = g, past it falling or flat, never above. The\n"
    "inferred granularity is the largest g flat (max / min < 1.25) over 3 or more strides up\n"
    "to it that no stride exceeds by over 1.15x, when the strides reach 2g; else none is\n"
    "claimed. offset: stride 4, the first word offset bytes past an aligned start (a warp's\n"
    "128 bytes then straddle two lines). The sweep selects the offset of lowest bandwidth; the\n"
    "aligned reads and that offset are then measured again (fresh samples, taken in turn:\n"
    "aligned, worst, aligned, ..., so a drift biases neither; the last launch of each\n"
    "verified; points with pass \"confirm\"), and the worst over aligned ratio is these\n"
    "medians' (the lowest of several noisy medians is biased low). Significant: a\n"
    "two-sided Mann-Whitney p < 0.05 on the two confirmations' per-sample bandwidths and\n"
    "their medians' 95% CIs disjoint.\n"
    "random: the buffer as nb = size / B blocks of B bytes (--blocks), read as vectors of V\n"
    "bytes (V = 16, uint4, for B >= 16; 8, uint2, for B = 8; 4 for B = 4); a pass makes\n"
    "nb x B / 4 reads of a word (nb x B / V vector reads), vector v = j + k x G reading vector\n"
    "v mod B/V of block p = floor(h x nb / 2^32), h a 32-bit hash of v's block (v / (B/V)):\n"
    "neighbouring work-items read neighbouring vectors of one block (coalesced),\n"
    "the blocks land at random, with replacement (about 63% of them are\n"
    "read in a pass, some twice or more), the same blocks every pass (in a cache-sized buffer\n"
    "they repeat from the cache: where says so). Bandwidth = 4 bytes x reads x passes /\n"
    "median time\n"
    "(bytes the kernel asks for: a block under the sector size still moves a whole sector);\n"
    "blocks_G_per_s = blocks read per second, 1e9. Contiguous: the same kernel\n"
    "with each block in its own place (placement \"in-order\": the same instructions, the\n"
    "buffer read contiguously), measured first for each buffer and each vector width the\n"
    "blocks use (its smallest block); each block's share of the reference of its own width\n"
    "(reference_width_bytes), and the smallest block from which every larger one is within\n"
    "10% of it (full bandwidth); contiguous_GBps is the widest reference's.\n"
    "Verified like the others (the last launch of each point): the host recomputes the sums\n"
    "from the same hash.\n"
    "random-write (not run by default; --patterns random,random-write or all): the same\n"
    "placement and vectors, each work-item writing word d of the picked block the value\n"
    "hash(wseed, d / 4) + (d mod 4) x 0x9e3779b9 (one hash a uint4; a function of d alone: a\n"
    "block drawn twice is written twice alike) instead of reading it;\n"
    "bandwidth = 4 bytes x writes x passes / median time, blocks_G_per_s = blocks written\n"
    "per second;\n"
    "its own in-order references first (the same kernel, blocks in place: contiguous writes).\n"
    "A GPU's L2 and DRAM keep 32-byte sectors: a block under 32 bytes is a partial-sector\n"
    "write, which may cost a read-modify-write of the sector; the curve shows what it costs (on a\n"
    "CPU through OpenCL, nothing of the kind). Verified by reading the\n"
    "buffer back after the timed launches, once per point, every word: those of the blocks\n"
    "picked hold the value written, the others still hold the buffer's contents, hash(seed, d)\n"
    "(the host builds the set of picked blocks from the same hash; a missed store goes\n"
    "unnoticed only where the new value equals the old, about 2^-32 a word); the buffer is\n"
    "filled anew before any point\n"
    "that follows writes. The read-back (the buffer's size, 64 MiB at a time) and the check take\n"
    "a large buffer seconds a point, outside the timed launches.\n"
    "where: the sectors a pass touches (size x min(stride, 32) / stride bytes; random: those\n"
    "of the blocks it is expected to read) against the last-level cache (cache, transition,\n"
    "dram); the granularity is read from the strides whose sectors live where the contiguous\n"
    "reads' do and whose passes hold at least 4 reads per resident work-item (a smaller pass\n"
    "cannot fill the device; the others are left out, said).\n"
    "CUDA's loads are cached in the L2 only (ld.global.cg), so a cache-resident buffer is read\n"
    "from the L2; OpenCL has no such load, and a GPU's L1 may serve part of it there.\n"
    "random-write's stores on CUDA are st.global.cg (the L2 only); OpenCL's are plain.\n";

typedef struct state {
    gmb_ctx_t *c;          /* the run */
    gmb_buf_t *buf;        /* the words, largest buffer */
    gmb_buf_t *out;        /* one sum per work-item */
    gmb_kern_t *kread;     /* access_read */
    gmb_kern_t *krand[3];  /* access_random, access_random2, access_random4 (by lw) */
    gmb_kern_t *kwrite[3]; /* access_random_write, ...2, ...4 */
    gmb_kern_t *kinit;     /* access_init */
    gmb_launch_t geo;      /* the grid of the point's kernel */
    gmb_u64 nacc;          /* reads (random-write: writes) per pass, 4-byte words */
    gmb_u32 sw, off;       /* stride and offset, words */
    int random;            /* the point reads random blocks (access_random) */
    int write;             /* the point writes them (access_random_write; random is set too) */
    gmb_u32 lb;            /* random: 2^lb words a block */
    gmb_u32 lw;            /* random: 2^lw words a vector access (gmb_access_lw(lb)) */
    gmb_u64 nvec;          /* random: vector accesses per pass (nacc >> lw) */
    gmb_u32 nb;            /* random: blocks in the buffer */
    gmb_u32 key;           /* random: the placement's hash seed */
    gmb_u32 order;         /* random: 0 the picked blocks, all ones the blocks in order */
    gmb_u32 reps;          /* passes per launch */
    gmb_u32 seed;          /* of the words */
    gmb_u32 wseed;         /* of the words random-write writes (gmb_write_value; not seed) */
    gmb_u64 dirty;         /* words from 0 written since the buffer was last filled (0: clean) */
    gmb_u64 nwords;        /* random-write: the point's buffer, words (all checked) */
    gmb_u64 written;       /* random-write: words the last check found written, */
    gmb_u64 kept;          /* and found holding what they held */
    gmb_u32 *chunk;        /* random-write: the host's read-back chunk (CHECK_CHUNK words) */
    uint64_t *picked;      /* random-write: bitmap of the blocks a pass writes */
    gmb_u32 *sums;         /* host copy of out */
    size_t vstep;          /* the last check: every vstep-th work-item's sum recomputed (odd) */
    gmb_buf_t *out2;       /* a second sums buffer: the worst offset's in a confirmation pair */
    size_t *tick;          /* a confirmation pair: launches so far, both points' (shared); NULL */
    size_t *seq;           /* the pair: each of this point's launches, its index among them */
    size_t nseq, seqcap;
    int confirm;  /* the point is a confirmation (run_point) */
    int injected; /* --inject-error: 1 the first launch verified had a wrong sum, 2 then
                   * the first confirmation launch too */
} state_t;

static int sample(void *arg, double *ns)
{
    state_t *s = arg;
    if (s->tick) { /* one of a confirmation pair: where this launch falls among the pair's */
        if (s->nseq == s->seqcap) {
            size_t cap = s->seqcap ? 2 * s->seqcap : 64, *q = realloc(s->seq, cap * sizeof *q);
            if (!q) {
                gmb_error("out of host memory");
                return GMB_ERUNTIME;
            }
            s->seq = q;
            s->seqcap = cap;
        }
        s->seq[s->nseq++] = (*s->tick)++;
    }
    if (s->write) {
        gmb_u32 lbv = s->lb - s->lw;
        gmb_arg_t aw[] = {GMB_A_BUF(s->buf),   GMB_A_VAL(s->nvec), GMB_A_VAL(lbv),
                          GMB_A_VAL(s->key),   GMB_A_VAL(s->nb),   GMB_A_VAL(s->order),
                          GMB_A_VAL(s->wseed), GMB_A_VAL(s->reps)};
        return s->c->be->launch(s->kwrite[s->lw], &s->geo, aw, 8, ns);
    }
    if (s->random) {
        gmb_u32 lbv = s->lb - s->lw;
        gmb_arg_t ar[] = {GMB_A_BUF(s->buf),   GMB_A_BUF(s->out), GMB_A_VAL(s->nvec),
                          GMB_A_VAL(lbv),      GMB_A_VAL(s->key), GMB_A_VAL(s->nb),
                          GMB_A_VAL(s->order), GMB_A_VAL(s->reps)};
        return s->c->be->launch(s->krand[s->lw], &s->geo, ar, 8, ns);
    }
    gmb_arg_t av[] = {GMB_A_BUF(s->buf), GMB_A_BUF(s->out), GMB_A_VAL(s->nacc),
                      GMB_A_VAL(s->sw),  GMB_A_VAL(s->off), GMB_A_VAL(s->reps)};
    return s->c->be->launch(s->kread, &s->geo, av, 6, ns);
}

/* Check the sums of the last launch: every work-item's when there are few reads, else
 * VERIFY_SAMPLE work-items spread over the grid. 0, GMB_EVERIFY (what in err) or an error. */
static int verify(state_t *s, char *err, size_t len, const char **how)
{
    size_t G = s->geo.groups * s->geo.group_size;
    int rc = s->c->be->read(s->out, 0, s->sums, G * sizeof *s->sums);
    if (rc)
        return rc;
    /* test aid: one wrong sum at the first point verified (its last launch), and one at the
     * first confirmation point (verified like the sweep's) */
    if (s->c->o.inject_error && (!s->injected || (s->injected == 1 && s->confirm))) {
        s->sums[G / 2] ^= 1u;
        s->injected++;
    }
    /* beyond VERIFY_FULL reads, every step-th work-item: at most about VERIFY_FULL reads, and
     * at least VERIFY_MIN_ITEMS work-items (all of them when the grid is smaller). The step is
     * odd: the work-items sampled then fall in every residue mod any power of two (an even
     * step would leave out whole lanes of a warp, or words of every random block, e.g. every
     * odd work-item's reads) */
    size_t cap = G / VERIFY_MIN_ITEMS ? G / VERIFY_MIN_ITEMS : 1;
    size_t step = s->nacc <= VERIFY_FULL ? 1 : (size_t)((s->nacc + VERIFY_FULL - 1) / VERIFY_FULL);
    if (step > cap)
        step = cap;
    if (step % 2 == 0) /* up, unless that passes the cap (then down: at least 1) */
        step = step + 1 <= cap ? step + 1 : step - 1;
    s->vstep = step;
    *how = step == 1 ? "full" : "sampled";
    const gmb_u32 lw = s->lw, lbv = s->lb - s->lw;
    for (size_t g = step > 1 ? G / 2 % step : 0; g < G; g += step) {
        gmb_u32 sum = 0;
        if (s->random) /* work-item g's vectors (2^lw words each), placed by the kernel's helper */
            for (gmb_u64 v = g; v < s->nvec; v += G) {
                gmb_u64 d = gmb_block_vec(v, lbv, s->key, s->nb, s->order) << lw;
                for (gmb_u32 k = 0; k < 1u << lw; k++)
                    sum += gmb_hash(s->seed, d + k);
            }
        else
            for (gmb_u64 j = g; j < s->nacc; j += G)
                sum += gmb_hash(s->seed, s->off + j * s->sw);
        sum *= s->reps;
        if (sum != s->sums[g]) {
            snprintf(err, len, "work-item %zu summed %u, expected %u", g, s->sums[g], sum);
            return GMB_EVERIFY;
        }
    }
    return GMB_OK;
}

/* Check the buffer after a random-write point's launches: read it back (CHECK_CHUNK words at
 * a time) and check every word of the point's buffer: a word of a block some block q of the
 * pass was placed on (the set from the same gmb_block_vec as the kernel's) holds
 * gmb_write_value(wseed, d), every other word what the buffer was filled with,
 * gmb_hash(seed, i) (the two are independent hashes: they differ at a word but with
 * probability about 2^-32, so a store missed, misplaced or made twice elsewhere shows, unless
 * at a word where the two happen to be equal). Counts the words found written and kept in s. 0,
 * GMB_EVERIFY (what in err) or an error. */
static int verify_write(state_t *s, char *err, size_t len, const char **how)
{
    gmb_u64 n = s->nwords;
    /* one bit a block, and a word more: the buffer's words past its last whole block (block
     * nb, never set) are looked up too */
    size_t nbits = (size_t)s->nb / 64 + 1;
    memset(s->picked, 0, nbits * sizeof *s->picked);
    const gmb_u32 lbv = s->lb - s->lw;
    for (gmb_u64 q = 0; q < s->nb; q++) {
        gmb_u64 p = gmb_block_vec(q << lbv, lbv, s->key, s->nb, s->order) >> lbv;
        s->picked[p / 64] |= 1ull << (p % 64);
    }
    *how = "full";
    s->vstep = 1;
    const uint64_t *picked = s->picked;
    const gmb_u32 lb = s->lb, seed = s->seed, wseed = s->wseed;
    gmb_u64 bad = 0, first = 0, written = 0, kept = 0;
    gmb_u32 got = 0, want = 0;
    for (gmb_u64 i0 = 0; i0 < n; i0 += CHECK_CHUNK) {
        size_t m = (size_t)(n - i0 < CHECK_CHUNK ? n - i0 : CHECK_CHUNK);
        int rc = s->c->be->read(s->buf, (size_t)i0 * WORD, s->chunk, m * WORD);
        if (rc)
            return rc;
        /* test aid: the buffer's last word read back wrong at the first point verified
         * (written, or past the last whole block: kept) */
        if (s->c->o.inject_error && !s->injected && n - 1 < i0 + m) {
            s->chunk[n - 1 - i0] ^= 1u;
            s->injected++;
        }
        const gmb_u32 *v = s->chunk;
        for (size_t k = 0; k < m; k++) { /* no branch on the placement: it is random */
            gmb_u64 i = i0 + k, q = i >> lb;
            gmb_u32 wr = (gmb_u32)(picked[q / 64] >> (q % 64)) & 1u;
            gmb_u32 e = wr ? gmb_write_value(wseed, i) : gmb_hash(seed, i), ok = v[k] == e;
            if (!ok && !bad) {
                first = i;
                got = v[k];
                want = e;
            }
            bad += !ok;
            written += wr & ok;
            kept += ~wr & ok;
        }
    }
    s->written = written;
    s->kept = kept;
    if (bad) {
        gmb_u64 q = first >> s->lb;
        int wr = (int)(s->picked[q / 64] >> (q % 64) & 1);
        snprintf(err, len,
                 "%llu of %llu words wrong; the first, word %llu (%s), holds %08x, "
                 "expected %08x",
                 (unsigned long long)bad, (unsigned long long)n, (unsigned long long)first,
                 wr ? "written" : "not written", got, want);
        return GMB_EVERIFY;
    }
    return GMB_OK;
}

/* Fill the words a random-write point wrote anew (gmb_hash(seed, i), what every pattern reads
 * and the next random-write point starts from). */
static int restore(state_t *s)
{
    if (!s->dirty)
        return GMB_OK;
    gmb_launch_t gi;
    gmb_grid(s->c, s->kinit, 0, 0, s->dirty, &gi);
    gmb_arg_t ai[] = {GMB_A_BUF(s->buf), GMB_A_VAL(s->dirty), GMB_A_VAL(s->seed)};
    int rc = s->c->be->launch(s->kinit, &gi, ai, 3, NULL);
    if (!rc)
        s->dirty = 0;
    return rc;
}

/* The offsets list (values in [0, 4096), no repeats, in order given): multiples of 4, at most
 * GMB_MAX_LIST, into v. */
static int parse_offsets(const gmb_ints_t *l, long *v, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i] % WORD) {
            gmb_error("--offsets: %ld is not a multiple of 4", l->v[i]);
            return GMB_EUSAGE;
        }
        if (*n == GMB_MAX_LIST) {
            gmb_error("--offsets: at most %d", GMB_MAX_LIST);
            return GMB_EUSAGE;
        }
        v[(*n)++] = l->v[i];
    }
    return GMB_OK;
}

/* The default buffer: at least 16x the LLC and 256 MiB (a random pass then touches sectors
 * of about 10x the LLC: 1 - 1/e of its blocks), and when the strides are run one whose every
 * stride's pass touches sectors of at least 4x the LLC (DRAM points throughout: at stride s a
 * pass touches size x min(s, 32) / s bytes of sectors); at most mem/4 and the largest
 * allocation (then the largest strides may fall short, and are marked so). */
static int default_sizes(gmb_ctx_t *c, cfg_t *cfg, int do_stride)
{
    const gmb_dev_info_t *d = &c->info;
    uint64_t smax = do_stride ? cfg->strides.v[cfg->strides.n - 1] : WORD;
    uint64_t big = 256ull << 20;
    if (16 * d->llc_bytes > big)
        big = 16 * d->llc_bytes;
    if (smax > SECTOR && 4 * d->llc_bytes / SECTOR * smax > big)
        big = 4 * d->llc_bytes / SECTOR * smax;
    if (d->mem_bytes / 4 < big)
        big = d->mem_bytes / 4;
    if (d->max_alloc_bytes && d->max_alloc_bytes < big)
        big = d->max_alloc_bytes;
    big &= ~(uint64_t)4095;
    char spec[32], err[256];
    snprintf(spec, sizeof spec, "%llu", (unsigned long long)big);
    if (gmb_parse_sweep(spec, &cfg->sizes, err, sizeof err)) {
        gmb_error("default size: %s", err);
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

/* Whether the largest of --NAME's sizes (ascending) is more than the smallest buffer: then
 * one line says so. */
static int over_smallest(const char *name, const gmb_sweep_t *sw, const cfg_t *cfg)
{
    char a[32], b[32];
    if (sw->v[sw->n - 1] <= cfg->sizes.v[0])
        return 0;
    gmb_error("--%s: %s is more than the smallest buffer (%s)", name,
              gmb_fmt_size(sw->v[sw->n - 1], a, sizeof a),
              gmb_fmt_size(cfg->sizes.v[0], b, sizeof b));
    return 1;
}

static int check_options(gmb_ctx_t *c, const cfg_t *cfg)
{
    char a[32], b[32];
    for (size_t i = 0; i < cfg->strides.n; i++)
        if (cfg->strides.v[i] % WORD) {
            gmb_error("--strides: %llu bytes is not a multiple of 4 (the size of a read)",
                      (unsigned long long)cfg->strides.v[i]);
            return GMB_EUSAGE;
        }
    uint64_t top = cfg->sizes.v[cfg->sizes.n - 1];
    if (top > c->info.mem_bytes / 2 || (c->info.max_alloc_bytes && top > c->info.max_alloc_bytes)) {
        gmb_error("--sizes: %s is more than the device holds in one buffer (%s of memory, "
                  "largest buffer %s)",
                  gmb_fmt_size(top, a, sizeof a), gmb_fmt_size(c->info.mem_bytes, b, sizeof b),
                  gmb_fmt_size(c->info.max_alloc_bytes, (char[32]){0}, 32));
        return GMB_EUSAGE;
    }
    if (top / WORD > UINT32_MAX) {
        gmb_error("--sizes: %s is more than 2^32 words", gmb_fmt_size(top, a, sizeof a));
        return GMB_EUSAGE;
    }
    if (over_smallest("strides", &cfg->strides, cfg))
        return GMB_EUSAGE;
    for (size_t i = 0; i < cfg->blocks.n; i++)
        if (cfg->blocks.v[i] & (cfg->blocks.v[i] - 1)) {
            gmb_error("--blocks: %llu bytes is not a power of two",
                      (unsigned long long)cfg->blocks.v[i]);
            return GMB_EUSAGE;
        }
    if (over_smallest("blocks", &cfg->blocks, cfg))
        return GMB_EUSAGE;
    return GMB_OK;
}

/* What run_point measured. */
typedef struct pt_out {
    double bw;           /* median bandwidth, GB/s; NaN when it failed verification */
    double bw_lo, bw_hi; /* its 95% CI */
    int filled;          /* a pass holds reads enough to fill the device: at least 4 (random:
                          * vector reads) per resident work-item (1 when the device does not say how many
                          * are) */
    const char *where;   /* where the sectors a pass touches live */
    double *rate;        /* a confirmation's: each sample's bandwidth, GB/s (caller frees) */
    size_t n;            /* how many */
} pt_out_t;

/* log2 of the 4-byte words of a block of block bytes (a power of two >= 4) */
static gmb_u32 block_lb(uint64_t block)
{
    gmb_u32 lb = 0;
    while ((WORD << lb) < block)
        lb++;
    return lb;
}

/* The bytes of 32-byte sectors (units of max(B, 32) bytes) a pass of nb random blocks of B
 * bytes is expected to touch: a unit holds k = units / B blocks, and escapes nb draws with
 * replacement with probability (1 - k / nb)^nb (about e^-k: 37% of the blocks when B >= 32). */
static uint64_t random_touched(uint64_t nb, uint64_t block)
{
    uint64_t unit = block < SECTOR ? SECTOR : block, k = unit / block;
    uint64_t units = nb * block / unit;
    double miss = k >= nb ? 0 : pow(1.0 - (double)k / (double)nb, (double)nb);
    return (uint64_t)((double)units * (double)unit * (1.0 - miss) + 0.5);
}

enum { PT_CONFIRM = 1, PT_IN_ORDER = 2 }; /* run_point's flags */

/* One point, measured, verified, printed and recorded; what it measured in *o. stride and
 * offset: reads of the buffer's first size bytes at stride and offset (bytes); flag
 * PT_CONFIRM: a confirmation of the offset sweep (params.pass "confirm", its own point beside
 * the sweep's of the same offset; each sample's bandwidth kept in o->rate). random: the
 * buffer's whole blocks of block bytes read at random places (access_random; placement
 * "random"), or with PT_IN_ORDER each in its own place (placement "in-order": the same
 * instructions, contiguous reads); stride and offset are not used. random-write: the same
 * blocks written (access_random_write), the buffer read back and checked after the samples.
 * Words an earlier random-write point wrote are filled anew first. */
typedef struct pt_in {
    int pattern;   /* P_* */
    uint64_t size; /* buffer, bytes */
    uint64_t stride;
    long offset;
    uint64_t block;
    int flags;        /* PT_* */
    uint64_t touched; /* set by point_prep: the bytes of sectors a pass touches */
} pt_in_t;

/* A point's set-up: its fields in s, the passes a launch calibrated, the sums poisoned. */
static int point_prep(state_t *s, pt_in_t *in)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    int pattern = in->pattern, in_order = !!(in->flags & PT_IN_ORDER);
    uint64_t size = in->size, stride = in->stride, block = in->block;
    long offset = in->offset;
    s->confirm = !!(in->flags & PT_CONFIRM);
    s->write = pattern == P_RANDOM_WRITE;
    s->random = pattern == P_RANDOM || s->write;
    uint64_t touched;
    int rc = restore(s);
    if (rc)
        return rc;
    if (s->random) {
        s->lb = block_lb(block);
        s->nb = (gmb_u32)(size / block); /* < 2^32: the buffer holds under 2^32 words */
        s->order = in_order ? ~0u : 0u;
        s->lw = gmb_access_lw(s->lb);
        s->nacc = (gmb_u64)s->nb << s->lb; /* the whole blocks' reads (writes), words */
        s->nvec = s->nacc >> s->lw;        /* as vector accesses */
        gmb_grid(c, s->write ? s->kwrite[s->lw] : s->krand[s->lw], 0, 0, s->nvec, &s->geo);
        if (s->write) { /* the words its launches write, from the first */
            s->nwords = size / WORD;
            s->dirty = s->nacc > s->dirty ? s->nacc : s->dirty;
        }
        touched = in_order ? s->nacc * WORD : random_touched(s->nb, block);
    } else {
        s->sw = (gmb_u32)(stride / WORD);
        s->off = (gmb_u32)(offset / WORD);
        s->nacc = (size - (uint64_t)offset) / stride; /* whole reads inside the buffer */
        gmb_grid(c, s->kread, 0, 0, s->nacc, &s->geo);
        /* what a pass touches: every sector its reads fall in (32 bytes each, at most) */
        touched = s->nacc * (stride < SECTOR ? stride : SECTOR);
    }
    s->reps = 1;
    double t = 0;
    for (int i = 0; i < 3; i++) { /* passes per launch: a sample of at least min_sample_us */
        if ((rc = sample(s, &t)))
            return rc;
        double want = fmax(cfg->min_sample_us * 1e3, 1000.0 * c->info.timer_res_ns);
        if (t >= want || s->reps >= MAX_REPS)
            break;
        double f = fmin(1024.0, ceil(want / fmax(t, 1.0) * 1.1));
        s->reps = (gmb_u32)fmin((double)MAX_REPS, s->reps * f);
    }
    /* odd: the sum of reps passes is reps x a pass's sum mod 2^32, and an odd factor keeps
     * every wrong pass sum wrong (an even one could make it vanish) */
    s->reps |= 1u;
    in->touched = touched;
    /* poison the sums the timed launches must write (after the calibration's launches): a
     * launch that wrote nothing fails the check, not pass on an earlier point's sums */
    if (!s->write)
        rc =
            c->be->fill(s->out, 0, OUT_POISON, s->geo.groups * s->geo.group_size * sizeof *s->sums);
    return rc;
}

/* A point's end, after its samples (ser, freed here): its last launch verified, the point
 * printed and recorded, what it measured in *o. */
static int point_done(state_t *s, const pt_in_t *in, gmb_series_t *ser_, pt_out_t *o)
{
    gmb_ctx_t *c = s->c;
    int pattern = in->pattern, confirm = !!(in->flags & PT_CONFIRM),
        in_order = !!(in->flags & PT_IN_ORDER);
    uint64_t size = in->size, stride = in->stride, block = in->block, touched = in->touched;
    long offset = in->offset;
    gmb_series_t ser = *ser_;
    *ser_ = (gmb_series_t){0};
    *o = (pt_out_t){.bw = NAN, .bw_lo = NAN, .bw_hi = NAN, .where = "unknown"};
    char err[256] = "";
    const char *how = "none";
    int vr = s->write ? verify_write(s, err, sizeof err, &how) : verify(s, err, sizeof err, &how);
    if (vr && vr != GMB_EVERIFY) {
        gmb_series_free(&ser);
        return vr;
    }
    double bytes = (double)s->nacc * WORD * s->reps;
    const char *where = gmb_residence(&c->info, touched);
    uint64_t resident = (uint64_t)c->info.compute_units * (uint64_t)c->info.threads_per_cu;
    /* accesses a pass makes (random: vector accesses) against the resident work-items */
    o->filled = !resident || (s->random ? s->nvec : s->nacc) >= 4 * resident;
    o->where = where;
    json_t *params = json_pack("{s:s}", "pattern", pattern_names[pattern]);
    /* a confirmation's and a placement's own identity (gmb compare and plots key points by
     * params), second so that compare's shortened point names keep it */
    if (confirm)
        json_object_set_new(params, "pass", json_string("confirm"));
    json_t *rest;
    if (s->random)
        rest = json_pack("{s:s, s:I, s:I, s:I, s:i}", "placement", in_order ? "in-order" : "random",
                         "size_bytes", (json_int_t)size, "block_bytes", (json_int_t)block,
                         s->write ? "writes" : "reads", (json_int_t)s->nacc, "reps", (int)s->reps);
    else
        rest = json_pack("{s:I, s:I, s:I, s:I, s:i}", "size_bytes", (json_int_t)size,
                         "stride_bytes", (json_int_t)stride, "offset_bytes", (json_int_t)offset,
                         "reads", (json_int_t)s->nacc, "reps", (int)s->reps);
    json_object_update(params, rest);
    json_decref(rest);
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(bytes, &ser.st));
    if (s->random) /* blocks a second, 1e9: blocks per ns (read or written) */
        gmb_point_metric(pt, "blocks_G_per_s",
                         gmb_json_rate((double)s->nb * (double)s->reps, &ser.st));
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "where", json_string(where));
    json_object_set_new(extra, "touched_bytes", json_integer((json_int_t)touched));
    json_object_set_new(extra, "fills_device", json_boolean(o->filled));
    json_object_set_new(extra, "verified", json_string(vr ? "FAILED" : how));
    json_object_set_new(extra, "verify_step", json_integer((json_int_t)s->vstep));
    if (s->random) /* the bytes of one access: 4, 8 (uint2) or 16 (uint4) */
        json_object_set_new(extra, "vector_bytes", json_integer((json_int_t)(WORD << s->lw)));
    if (s->write && !vr) { /* the check's count: every word of the buffer, written or kept */
        json_object_set_new(extra, "words_written", json_integer((json_int_t)s->written));
        json_object_set_new(extra, "words_kept", json_integer((json_int_t)s->kept));
    }
    json_object_set_new(extra, "groups", json_integer((json_int_t)s->geo.groups));
    json_object_set_new(extra, "group_size", json_integer((json_int_t)s->geo.group_size));
    if (s->tick && s->nseq >= ser.n) { /* a pair's point: where its samples fell among the
                                        * pair's launches (its warm-ups first, then these) */
        json_t *li = json_array();
        for (size_t i = s->nseq - ser.n; i < s->nseq; i++)
            json_array_append_new(li, json_integer((json_int_t)s->seq[i]));
        json_object_set_new(extra, "measured_with", json_string("interleaved"));
        json_object_set_new(extra, "launch_index", li);
    }
    double bw = bytes / ser.st.median;
    char sz[32], st[24] = "-", of[24] = "-", bl[24] = "-", what[64];
    gmb_fmt_size(size, sz, sizeof sz);
    if (s->random) {
        snprintf(bl, sizeof bl, "%llu", (unsigned long long)block);
        snprintf(what, sizeof what, "%llu-byte blocks%s", (unsigned long long)block,
                 in_order ? " in order" : "");
    } else {
        snprintf(st, sizeof st, "%llu", (unsigned long long)stride);
        snprintf(of, sizeof of, "%ld", offset);
        snprintf(what, sizeof what, "stride %llu, offset %ld%s", (unsigned long long)stride, offset,
                 confirm ? " (confirmation)" : "");
    }
    printf("%-14s %10s %7s %7s %6s %10.2f %7.2f %4zu %7u %-10s %s\n",
           s->random && in_order ? (s->write ? "in-order-write" : "in-order")
                                 : pattern_names[pattern],
           sz, st, of, bl, bw, 100.0 * ser.st.ci_rel, ser.n, s->reps, where, vr ? "FAILED" : how);
    fflush(stdout);
    gmb_add_point(c, pt);
    if (vr) {
        gmb_series_free(&ser);
        gmb_error("verification failed: %s, %s, %s: %s", pattern_names[pattern], sz, what, err);
        return vr;
    }
    o->bw = bw;
    o->bw_lo = bytes / ser.st.ci_hi;
    o->bw_hi = bytes / ser.st.ci_lo;
    if (confirm) {
        if (!(o->rate = malloc((ser.n ? ser.n : 1) * sizeof *o->rate))) {
            gmb_series_free(&ser);
            gmb_error("out of host memory");
            return GMB_ERUNTIME;
        }
        for (size_t i = 0; i < ser.n; i++)
            o->rate[i] = bytes / ser.ns[i];
        o->n = ser.n;
    }
    gmb_series_free(&ser);
    return GMB_OK;
}

/* One point: point_prep, its samples (gmb_measure), point_done. */
static int run_point(state_t *s, int pattern, uint64_t size, uint64_t stride, long offset,
                     uint64_t block, int flags, pt_out_t *o)
{
    pt_in_t in = {pattern, size, stride, offset, block, flags, 0};
    *o = (pt_out_t){.bw = NAN, .bw_lo = NAN, .bw_hi = NAN, .where = "unknown"};
    gmb_series_t ser = {0};
    int rc = point_prep(s, &in);
    if (!rc)
        rc = gmb_measure(s->c, sample, s, &ser);
    if (rc) {
        gmb_series_free(&ser);
        return rc;
    }
    return point_done(s, &in, &ser, o);
}

/* The granularity of one buffer's stride curve (results.granularity entry); its summary in
 * text. */
static json_t *granularity(const double *stride, const double *bw, size_t n, char *text, size_t len)
{
    gmb_grain_t g;
    json_t *o = json_object(), *cand = json_object();
    if (gmb_grain_infer(stride, bw, n, WORD, &g)) {
        snprintf(text, len, "none claimed (no curve)");
        json_object_set_new(o, "verdict", json_string("none"));
        return o;
    }
    for (size_t k = 0; k < GMB_GRAIN_CANDIDATES; k++) {
        char key[16];
        snprintf(key, sizeof key, "%u", g.candidate[k]);
        json_t *e = json_object();
        if (g.lo[k] == g.lo[k]) {
            json_object_set_new(e, "spread", json_real(g.spread[k]));
            json_object_set_new(e, "fetched_GBps_min", json_real(g.lo[k]));
            json_object_set_new(e, "fetched_GBps_max", json_real(g.hi[k]));
            json_object_set_new(e, "over", json_real(g.over[k]));
        }
        json_object_set_new(cand, key, e);
    }
    json_object_set_new(o, "candidates", cand);
    json_object_set_new(o, "verdict", json_string(g.found ? "granularity" : "none"));
    if (g.found) {
        json_object_set_new(o, "granularity_bytes", json_integer(g.granularity));
        json_object_set_new(o, "spread", json_real(g.best_spread));
        char nx[96] = ""; /* what rules out the next larger candidate */
        int b = g.best + 1;
        if (b < GMB_GRAIN_CANDIDATES && g.lo[b] == g.lo[b])
            snprintf(nx, sizeof nx, "; under %u B: %.2fx up to it, %.2fx its top past it",
                     g.candidate[b], g.spread[b], g.over[b]);
        snprintf(text, len, "%u B (fetched bandwidth within %.2fx over strides up to it%s)",
                 g.granularity, g.best_spread, nx);
    } else {
        json_object_set_new(o, "why", json_string(g.why));
        snprintf(text, len, "none claimed (%s)", g.why);
    }
    return o;
}

/* p-value as the summary shows it */
static void fmt_p(double p, char *out, size_t len)
{
    if (p < 0.001)
        snprintf(out, len, "p < 0.001");
    else
        snprintf(out, len, "p = %.*f", p < 0.01 ? 3 : 2, p);
}

/* Confirm the offset sweep of one buffer: measure the aligned reads and those at the worst
 * offset again (fresh samples taken in turn, gmb_measure_pair: aligned, worst, aligned, ...; the
 * last timed launch of each verified, each with its sums in a buffer of its own; each a point with
 * params.pass "confirm") and put the estimate in the sweep's misalignment entry m:
 * worst_over_aligned = their medians' ratio, and under "confirm" both medians with their
 * 95% CIs and sample counts, the two-sided Mann-Whitney p-value of the samples' bandwidths
 * (not their times: the two points make different numbers of reads, and may make different
 * numbers of passes a launch) and whether the difference is significant: p < 0.05 and the
 * two CIs disjoint (gmb_differ). When a confirmation fails verification, confirm is
 * null and there is no ratio. Its summary phrase in text. 0, GMB_EVERIFY or an error. */
static int confirm_offset(state_t *s, uint64_t size, long worst_off, json_t *m, char *text,
                          size_t len)
{
    pt_out_t a = {.rate = NULL}, w = {.rate = NULL};
    char sz[32];
    printf("# confirm %s: offsets 0 and %ld B measured again, their samples in turn (the "
           "ratio and its test come from these)\n",
           gmb_fmt_size(size, sz, sizeof sz), worst_off);
    /* two states sharing the buffers, one a point; the worst offset's sums in a buffer of
     * their own, so that each point's last timed launch is the one verified */
    state_t sa = *s, sb = *s;
    size_t tick = 0;
    sb.out = s->out2;
    pt_in_t ia = {P_OFFSET, size, WORD, 0, 0, PT_CONFIRM, 0};
    pt_in_t ib = {P_OFFSET, size, WORD, worst_off, 0, PT_CONFIRM, 0};
    gmb_series_t sera = {0}, serb = {0};
    int rc = point_prep(&sa, &ia);
    if (!rc)
        rc = point_prep(&sb, &ib);
    sa.tick = sb.tick = &tick; /* from here: the pair's launches, counted */
    sa.seq = sb.seq = NULL;
    sa.nseq = sb.nseq = sa.seqcap = sb.seqcap = 0;
    if (!rc)
        rc = gmb_measure_pair(s->c, sample, &sa, &sera, sample, &sb, &serb);
    int ra = rc, rw = rc;
    if (!rc) { /* aligned first (a planted error goes to the first confirmation verified) */
        ra = point_done(&sa, &ia, &sera, &a);
        sb.injected = sa.injected;
        if (!ra || ra == GMB_EVERIFY)
            rw = point_done(&sb, &ib, &serb, &w);
        s->injected = sb.injected;
    }
    gmb_series_free(&sera);
    gmb_series_free(&serb);
    free(sa.seq);
    free(sb.seq);
    if ((ra && ra != GMB_EVERIFY) || (rw && rw != GMB_EVERIFY)) {
        free(a.rate);
        free(w.rate);
        return ra && ra != GMB_EVERIFY ? ra : rw;
    }
    if (ra || rw) {
        json_object_set_new(m, "confirm", json_null());
        snprintf(text, len, "no ratio (a confirmation launch failed verification)");
        rc = GMB_EVERIFY;
    } else {
        double p = gmb_mann_whitney_p(a.rate, a.n, w.rate, w.n);
        int sig = gmb_differ(p, a.bw_lo, a.bw_hi, w.bw_lo, w.bw_hi);
        json_t *cf = json_pack("{s:f, s:f, s:f, s:I, s:f, s:f, s:f, s:I}", "aligned_GBps", a.bw,
                               "aligned_ci_lo_GBps", a.bw_lo, "aligned_ci_hi_GBps", a.bw_hi,
                               "aligned_n", (json_int_t)a.n, "worst_GBps", w.bw, "worst_ci_lo_GBps",
                               w.bw_lo, "worst_ci_hi_GBps", w.bw_hi, "worst_n", (json_int_t)w.n);
        json_object_set_new(cf, "p_value", p >= 0 ? json_real(p) : json_null());
        json_object_set_new(cf, "significant", json_boolean(sig));
        json_object_set_new(m, "confirm", cf);
        json_object_set_new(m, "worst_over_aligned", json_real(w.bw / a.bw));
        char ps[32] = "no p-value";
        if (p >= 0)
            fmt_p(p, ps, sizeof ps);
        snprintf(text, len, "%.0f%% of the aligned bandwidth (%s, %s%s)", 100.0 * w.bw / a.bw,
                 sig ? "significant" : "not significant", ps,
                 !sig && p >= 0 && p < 0.05 ? ", the 95% CIs overlap" : "");
    }
    free(a.rate);
    free(w.rate);
    return rc;
}

/* A bandwidth for a summary: 4 significant digits, no exponent. */
static const char *fmt_bw(double v, char *buf, size_t len)
{
    gmb_fmt_num(v, buf, len);
    return buf;
}

/* A share as a summary gives it: whole percents, one decimal below 10%. */
static void fmt_pct(double share, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f%%", 100.0 * share < 9.95 ? 1 : 0, 100.0 * share);
}

/* log2 of the words per vector access of a block of block bytes (a power of two >= 4) */
static gmb_u32 block_lw(uint64_t block)
{
    return gmb_access_lw(block_lb(block));
}

/* The random or random-write pattern (pat) of one buffer: the contiguous references (the
 * blocks in order, the same kernel and instructions), one per vector width the block sizes
 * use (4-byte words for 4-byte blocks, uint2 for 8, uint4 for 16 and more; each with the
 * smallest block size of its width), then every block size at random places, each block's
 * share of contiguous against the reference of its width. Appends the buffer's entry to rnd
 * (results.random or results.random_write) and its summary to sm: the bandwidth and share of
 * contiguous of the smallest, 32-, 256-byte and largest blocks, and the block from which every
 * larger one gets within 10% of contiguous. s4 (reads only; NULL for writes): the stride pattern's
 * contiguous reads of this buffer in this run (bw NaN: not measured or failed), kept beside and
 * compared. 0, GMB_EVERIFY (a point failed verification; the others still measured) or an
 * error. */
static int random_buffer(state_t *s, int pat, uint64_t size, const pt_out_t *s4, json_t *rnd,
                         gmb_text_t *sm)
{
    double stride4 = s4 ? s4->bw : NAN;
    int wr = pat == P_RANDOM_WRITE;
    const cfg_t *cfg = s->c->cfg;
    size_t nbl = cfg->blocks.n;
    double bw[GMB_MAX_SWEEP], share[GMB_MAX_SWEEP];
    pt_out_t refs[3], o;
    uint64_t refblock[3] = {0, 0, 0}; /* by width (lw): the reference's block, 0 none */
    for (size_t i = nbl; i-- > 0;)    /* downwards: each width's smallest block stays */
        refblock[block_lw(cfg->blocks.v[i])] = cfg->blocks.v[i];
    int failed = 0, rc = GMB_OK, fills = 1, same = 1, wide = 0, ref_failed = 0;
    const char *where = NULL;
    json_t *refj = json_array();
    for (int w = 0; w < 3; w++) {
        if (!refblock[w])
            continue;
        rc = run_point(s, pat, size, WORD, 0, refblock[w], PT_IN_ORDER, &refs[w]);
        if (rc && rc != GMB_EVERIFY) {
            json_decref(refj);
            return rc;
        }
        failed |= rc == GMB_EVERIFY;
        ref_failed |= refs[w].bw != refs[w].bw;
        fills &= refs[w].filled;
        same &= !where || !strcmp(refs[w].where, where);
        where = where ? where : refs[w].where;
        wide = w;
        json_t *e = json_pack("{s:I, s:I}", "width_bytes", (json_int_t)(WORD << w), "block_bytes",
                              (json_int_t)refblock[w]);
        json_object_set_new(e, "contiguous_GBps",
                            refs[w].bw == refs[w].bw ? json_real(refs[w].bw) : json_null());
        json_array_append_new(refj, e);
    }
    const pt_out_t ref = refs[wide]; /* the widest: contiguous_GBps */
    json_t *blocks = json_array();
    for (size_t i = 0; i < nbl; i++) {
        gmb_u32 lw = block_lw(cfg->blocks.v[i]);
        rc = run_point(s, pat, size, WORD, 0, cfg->blocks.v[i], 0, &o);
        if (rc && rc != GMB_EVERIFY) {
            json_decref(blocks);
            json_decref(refj);
            return rc;
        }
        failed |= rc == GMB_EVERIFY;
        fills &= o.filled;
        same &= !strcmp(o.where, where);
        bw[i] = o.bw;
        share[i] = o.bw / refs[lw].bw; /* NaN when either failed verification */
        json_t *e = json_pack("{s:I, s:s, s:I}", "block_bytes", (json_int_t)cfg->blocks.v[i],
                              "where", o.where, "reference_width_bytes", (json_int_t)(WORD << lw));
        if (o.bw == o.bw) {
            json_object_set_new(e, "bw_GBps", json_real(o.bw));
            json_object_set_new(e, "bw_ci_lo_GBps", json_real(o.bw_lo));
            json_object_set_new(e, "bw_ci_hi_GBps", json_real(o.bw_hi));
            json_object_set_new(e, "blocks_G_per_s", json_real(o.bw / (double)cfg->blocks.v[i]));
        }
        if (share[i] == share[i])
            json_object_set_new(e, "of_contiguous", json_real(share[i]));
        json_array_append_new(blocks, e);
    }
    /* where the buffer's points live: one level for all of them, else "mixed" (a buffer near
     * the LLC: the random blocks touch about 63% of what the contiguous reads do) */
    json_t *ent =
        json_pack("{s:I, s:s, s:b, s:f}", "size_bytes", (json_int_t)size, "where",
                  same ? where : "mixed", "fills_device", fills, "full_share", FULL_SHARE);
    json_object_set_new(ent, "contiguous_GBps", ref.bw == ref.bw ? json_real(ref.bw) : json_null());
    json_object_set_new(ent, "references", refj);
    if (stride4 == stride4)
        json_object_set_new(ent, "stride4_GBps", json_real(stride4));
    size_t full = gmb_curve_held_from(share, nbl, FULL_SHARE);
    json_object_set_new(ent, "full_bw_block_bytes",
                        full < nbl ? json_integer((json_int_t)cfg->blocks.v[full]) : json_null());
    json_object_set_new(ent, "blocks", blocks);
    json_array_append_new(rnd, ent);

    char sz[32], b1[32], b2[32];
    gmb_fmt_size(size, sz, sizeof sz);
    gmb_text_add(sm, "%s%s (%s): random %s", sm->len ? " " : "", sz, same ? where : "mixed",
                 wr ? "writes of " : "");
    int shown = 0;
    for (size_t i = 0; i < nbl; i++) {
        uint64_t b = cfg->blocks.v[i];
        if (i && i != nbl - 1 && b != 32 && b != 256)
            continue;
        gmb_text_add(sm, "%s%llu-byte%s ", shown ? ", " : "", (unsigned long long)b,
                     shown ? "" : " blocks");
        if (bw[i] != bw[i])
            gmb_text_add(sm, "failed verification");
        else if (share[i] == share[i]) {
            fmt_pct(share[i], b2, sizeof b2);
            gmb_text_add(sm, "%s GB/s (%s%s)", fmt_bw(bw[i], b1, sizeof b1), b2,
                         shown ? "" : " of contiguous");
        } else
            gmb_text_add(sm, "%s GB/s", fmt_bw(bw[i], b1, sizeof b1));
        shown++;
    }
    /* the contiguous bandwidth quoted: the reference of the full block's width, else the
     * largest block's */
    double rbw = refs[block_lw(cfg->blocks.v[full < nbl ? full : nbl - 1])].bw;
    if (ref_failed)
        gmb_text_add(sm, "; no share of contiguous (its %s failed verification).",
                     wr ? "writes" : "reads");
    else if (full < nbl)
        gmb_text_add(sm,
                     "; full bandwidth (within 10%% of contiguous, %s GB/s) from %llu-byte "
                     "blocks.",
                     fmt_bw(rbw, b1, sizeof b1), (unsigned long long)cfg->blocks.v[full]);
    else
        gmb_text_add(sm, "; no block up to %llu bytes within 10%% of contiguous (%s GB/s).",
                     (unsigned long long)cfg->blocks.v[nbl - 1], fmt_bw(rbw, b1, sizeof b1));
    /* the reference is this kernel's: its hash per read may hold it below what plain
     * contiguous reads get (then the large blocks' shares are of that): said when it is more
     * than 10% below and the two 95% CIs are disjoint */
    if (ref.bw == ref.bw && stride4 == stride4 && ref.bw < FULL_SHARE * stride4 &&
        ref.bw_hi < s4->bw_lo) {
        fmt_pct(ref.bw / stride4, b2, sizeof b2);
        gmb_text_add(sm,
                     " The random kernel's contiguous reads get %s of the stride pattern's "
                     "(%s GB/s): its own arithmetic may limit it.",
                     b2, fmt_bw(stride4, b1, sizeof b1));
    }
    return failed ? GMB_EVERIFY : GMB_OK;
}

/* A part's outcome: 1 when the sweep goes on (0, or GMB_EVERIFY, which is remembered in
 * *failed); else 0 with the error in *rc. */
static int go_on(int part_rc, int *failed, int *rc)
{
    *failed |= part_rc == GMB_EVERIFY;
    *rc = part_rc == GMB_EVERIFY ? GMB_OK : part_rc;
    return !*rc;
}

/* The stride sweep of one buffer and the granularity read from its curve: points whose
 * passes fill the device and touch sectors living where the contiguous reads' do (a large
 * stride touches fewer: they may stay in a cache across passes). st and bw: room for every
 * stride; *s4 gets the contiguous (4-byte stride) reads' point. Appends to gran (the
 * granularity entry) and sm. 0, GMB_EVERIFY (a point failed; the others still measured) or
 * an error. */
static int stride_sweep(state_t *s, uint64_t size, double *st, double *bw, pt_out_t *s4,
                        json_t *gran, gmb_text_t *sm)
{
    const cfg_t *cfg = s->c->cfg;
    char sz[32], text[256];
    gmb_fmt_size(size, sz, sizeof sz);
    size_t n = 0, left_out = 0;
    const char *where0 = NULL;
    int failed = 0;
    for (size_t i = 0; i < cfg->strides.n; i++) {
        pt_out_t o;
        int rc = run_point(s, P_STRIDE, size, cfg->strides.v[i], 0, 0, 0, &o);
        if (rc && rc != GMB_EVERIFY)
            return rc;
        failed |= rc == GMB_EVERIFY;
        bw[n] = o.bw;
        if (cfg->strides.v[i] == WORD)
            *s4 = o;
        where0 = where0 ? where0 : o.where;
        if (!o.filled || strcmp(o.where, where0)) {
            left_out++;
            continue;
        }
        st[n++] = (double)cfg->strides.v[i];
    }
    json_t *g = granularity(st, bw, n, text, sizeof text);
    json_object_set_new(g, "size_bytes", json_integer((json_int_t)size));
    json_object_set_new(g, "where", json_string(where0 ? where0 : "unknown"));
    json_object_set_new(g, "points_used", json_integer((json_int_t)n));
    json_object_set_new(g, "points_left_out", json_integer((json_int_t)left_out));
    json_array_append_new(gran, g);
    gmb_text_add(sm, "%s%s (%s): granularity %s.", sm->len ? " " : "", sz,
                 where0 ? where0 : "unknown", text);
    if (left_out)
        gmb_text_add(sm,
                     " %zu stride%s left out (a pass too small to fill the device, or its "
                     "sectors in another level).",
                     left_out, left_out > 1 ? "s" : "");
    return failed ? GMB_EVERIFY : GMB_OK;
}

/* The offset sweep of one buffer: it selects the worst offset; fresh measurements of it and
 * of the aligned reads then estimate how much worse it is (the lowest of several noisy
 * medians is biased low: selected and estimated on the same samples, a device on which
 * misalignment costs nothing would still show a loss). Appends to mis and sm. 0,
 * GMB_EVERIFY or an error. */
static int offset_sweep(state_t *s, uint64_t size, const long *offs, size_t noff, json_t *mis,
                        gmb_text_t *sm)
{
    char sz[32], text[256];
    gmb_fmt_size(size, sz, sizeof sz);
    double aligned = NAN, worst = INFINITY;
    long worst_off = -1;
    int failed = 0, rc;
    for (size_t i = 0; i < noff; i++) {
        pt_out_t o;
        if (size <= (uint64_t)offs[i] + WORD)
            continue;
        rc = run_point(s, P_OFFSET, size, WORD, offs[i], 0, 0, &o);
        if (rc && rc != GMB_EVERIFY)
            return rc;
        failed |= rc == GMB_EVERIFY;
        if (offs[i] == 0)
            aligned = o.bw;
        else if (o.bw < worst) {
            worst = o.bw;
            worst_off = offs[i];
        }
    }
    if (!(aligned > 0) || worst_off < 0)
        return failed ? GMB_EVERIFY : GMB_OK;
    json_t *m = json_pack("{s:I, s:s, s:f, s:I, s:f}", "size_bytes", (json_int_t)size, "where",
                          gmb_residence(&s->c->info, size), "aligned_GBps", aligned,
                          "worst_offset_bytes", (json_int_t)worst_off, "worst_GBps", worst);
    /* the sweep's own ratio (biased low: its worst is the lowest of several medians), kept
     * apart from the confirmation's worst_over_aligned */
    json_object_set_new(m, "sweep_worst_over_aligned", json_real(worst / aligned));
    json_array_append_new(mis, m);
    rc = confirm_offset(s, size, worst_off, m, text, sizeof text);
    if (rc && rc != GMB_EVERIFY)
        return rc;
    failed |= rc == GMB_EVERIFY;
    gmb_text_add(sm, "%s%s: misaligned by %ld B, %s.", sm->len ? " " : "", sz, worst_off, text);
    return failed ? GMB_EVERIFY : GMB_OK;
}

/* The last entry of the results array arr (buffers in ascending size) whose buffer lives
 * where ("dram", "cache"); NULL: none. */
static const json_t *last_where(const json_t *arr, const char *where)
{
    const json_t *found = NULL, *e;
    size_t i;
    json_array_foreach(arr, i, e)
    {
        const char *w = json_string_value(json_object_get(e, "where"));
        if (w && !strcmp(w, where))
            found = e;
    }
    return found;
}

/* The random-block figures of pattern pat (random or random-write: results key key) of the
 * largest DRAM buffer: 32-byte blocks' bandwidth and share of contiguous, and (reads) the
 * block size from which random blocks get full bandwidth. */
static void random_headlines(gmb_ctx_t *c, const json_t *res, int pat)
{
    const int wr = pat == P_RANDOM_WRITE;
    const json_t *e = last_where(json_object_get(res, wr ? "random_write" : "random"), "dram"), *b;
    if (!e)
        return;
    const char *pn = pattern_names[pat];
    json_int_t size = json_integer_value(json_object_get(e, "size_bytes"));
    const json_t *pts[64];
    const size_t max = sizeof pts / sizeof pts[0];
    const json_t *blocks = json_object_get(e, "blocks");
    size_t i;
    char l[80];
    json_array_foreach(blocks, i, b)
    {
        if (json_integer_value(json_object_get(b, "block_bytes")) != 32)
            continue;
        size_t n = gmb_points_where(c, pts, max, "{s:s, s:s, s:I, s:i}", "pattern", pn, "placement",
                                    "random", "size_bytes", size, "block_bytes", 32);
        snprintf(l, sizeof l, "Random 32-byte %s (DRAM)", wr ? "writes" : "reads");
        gmb_headline(c, &(gmb_headline_t){.label = l,
                                          .unit = "GB/s",
                                          .higher = 1,
                                          .value = gmb_jnum(b, "bw_GBps"),
                                          .ci_lo = gmb_jnum(b, "bw_ci_lo_GBps"),
                                          .ci_hi = gmb_jnum(b, "bw_ci_hi_GBps"),
                                          .points = pts,
                                          .npoints = n});
        /* the share: of the in-order reference blocks too */
        n += gmb_points_where(c, pts + n, max - n, "{s:s, s:s, s:I}", "pattern", pn, "placement",
                              "in-order", "size_bytes", size);
        snprintf(l, sizeof l, "Random 32-byte %s, of contiguous (DRAM)", wr ? "writes" : "reads");
        gmb_headline(c, &(gmb_headline_t){.label = l,
                                          .unit = "%",
                                          .higher = 1,
                                          .value = 100.0 * gmb_jnum(b, "of_contiguous"),
                                          .ci_lo = NAN,
                                          .ci_hi = NAN,
                                          .points = pts,
                                          .npoints = n});
        break;
    }
    if (wr)
        return;
    size_t n = gmb_points_where(c, pts, max, "{s:s, s:I}", "pattern", pn, "size_bytes", size), nb;
    const char *label = "Block size for full random-read bandwidth (DRAM)";
    double full = gmb_jnum(e, "full_bw_block_bytes");
    if (full == full) {
        gmb_headline(c, &(gmb_headline_t){.label = label,
                                          .unit = "B",
                                          .value = full,
                                          .ci_lo = NAN,
                                          .ci_hi = NAN,
                                          .points = pts,
                                          .npoints = n});
        return;
    }
    /* none reached it: up to which block (the largest measured: one that failed verification
     * has no bandwidth), when the contiguous reference was measured */
    if (gmb_jnum(e, "contiguous_GBps") != gmb_jnum(e, "contiguous_GBps"))
        return;
    for (nb = json_array_size(blocks);
         nb && gmb_jnum(json_array_get(blocks, nb - 1), "bw_GBps") !=
                   gmb_jnum(json_array_get(blocks, nb - 1), "bw_GBps");
         nb--)
        ;
    if (!nb)
        return;
    snprintf(l, sizeof l, "none up to %.0f B",
             gmb_jnum(json_array_get(blocks, nb - 1), "block_bytes"));
    gmb_headline(
        c, &(gmb_headline_t){.label = label, .unit = "B", .text = l, .points = pts, .npoints = n});
}

/* The headline figures, from the results: the access granularity the stride curve shows for
 * the largest DRAM buffer and the largest cache-resident one ("none claimed" where the curve
 * shows none), the worst misaligned reads of the largest DRAM buffer as a share of aligned
 * ones, and the random-block figures of its largest DRAM buffer. */
static void headlines(gmb_ctx_t *c)
{
    const json_t *res = json_object_get(c->record, "results"), *e;
    const json_t *pts[64];
    const size_t max = sizeof pts / sizeof pts[0];
    static const char *const where[2] = {"dram", "cache"};
    static const char *const label[2] = {"Access granularity (stride curve, DRAM buffer)",
                                         "Access granularity (stride curve, cache-resident "
                                         "buffer)"};
    for (int k = 0; k < 2; k++) {
        const json_t *found = last_where(json_object_get(res, "granularity"), where[k]);
        if (!found)
            continue;
        size_t n = gmb_points_where(c, pts, max, "{s:s, s:O}", "pattern", "stride", "size_bytes",
                                    json_object_get(found, "size_bytes"));
        double g = gmb_jnum(found, "granularity_bytes");
        if (g == g)
            gmb_headline(c, &(gmb_headline_t){.label = label[k],
                                              .unit = "B",
                                              .value = g,
                                              .ci_lo = NAN,
                                              .ci_hi = NAN,
                                              .points = pts,
                                              .npoints = n});
        else
            gmb_headline(c, &(gmb_headline_t){.label = label[k],
                                              .unit = "B",
                                              .text = "none claimed",
                                              .points = pts,
                                              .npoints = n});
    }
    if ((e = last_where(json_object_get(res, "misalignment"), "dram")))
        gmb_headline(
            c, &(gmb_headline_t){.label = "Misaligned contiguous reads, worst offset, of aligned "
                                          "(DRAM)",
                                 .unit = "%",
                                 .higher = 1,
                                 .value = 100.0 * gmb_jnum(e, "worst_over_aligned"),
                                 .ci_lo = NAN,
                                 .ci_hi = NAN,
                                 .points = pts,
                                 .npoints = gmb_points_where(c, pts, max, "{s:s, s:O}", "pattern",
                                                             "offset", "size_bytes",
                                                             json_object_get(e, "size_bytes"))});
    random_headlines(c, res, P_RANDOM);
    random_headlines(c, res, P_RANDOM_WRITE);
}

/* Whether --patterns asks for pattern pat (P_*). */
static int asked(const cfg_t *cfg, int pat)
{
    for (size_t i = 0; i < cfg->patterns.n; i++)
        if (cfg->patterns.idx[i] == pat)
            return 1;
    return 0;
}

/* The options against each other and the device: the default sizes, the offsets (with 0
 * where the offset pattern runs), check_options. */
static int access_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    long offs[GMB_MAX_LIST];
    size_t noff = 0;
    int has0 = 0, do_stride = asked(cfg, P_STRIDE), do_offset = asked(cfg, P_OFFSET);
    int rc = cfg->sizes.set ? GMB_OK : default_sizes(c, cfg, do_stride);
    if (rc || (rc = parse_offsets(&cfg->offsets, offs, &noff)) || (rc = check_options(c, cfg)))
        return rc;
    for (size_t i = 0; i < noff; i++)
        has0 |= offs[i] == 0;
    if (do_offset && !has0) {
        gmb_error("--offsets: 0 must be one of them (the aligned reads the others are compared "
                  "with)");
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

static int access_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    long offs[GMB_MAX_LIST];
    size_t noff = 0;
    int do_stride = asked(cfg, P_STRIDE), do_offset = asked(cfg, P_OFFSET),
        do_random = asked(cfg, P_RANDOM), do_write = asked(cfg, P_RANDOM_WRITE);
    int rc = parse_offsets(&cfg->offsets, offs, &noff); /* (checked by access_check) */
    if (rc)
        return rc;
    uint64_t top = cfg->sizes.v[cfg->sizes.n - 1];
    state_t s = {.c = c, .seed = (gmb_u32)c->o.seed * 2654435761u + 7u};
    s.key = gmb_hash(s.seed, 0x6a09e667u); /* the random blocks' placement */
    /* what random-write writes (gmb_write_value): another seed, so a word it writes changes
     * but where the two hashes happen to agree (about 2^-32 a word) */
    s.wseed = gmb_hash(s.seed, 0xbb67ae85u);
    if (s.wseed == s.seed)
        s.wseed ^= 1u;
    gmb_prog_t *prog = NULL;
    json_t *gran = json_array(), *mis = json_array(), *rnd = json_array(), *rwr = json_array();
    double *st = calloc(cfg->strides.n, sizeof *st);
    double *bw = calloc(cfg->strides.n, sizeof *bw);
    if (!st || !bw) {
        gmb_error("out of host memory");
        rc = GMB_ERUNTIME;
        goto out;
    }
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)top, &s.buf)) ||
        (rc = be->prog_load(c->dev, c->bench->kernels, variants[0].variant, &prog)) ||
        (rc = be->kern_get(prog, "access_init", &s.kinit)) ||
        (rc = be->kern_get(prog, "access_read", &s.kread)) ||
        (rc = be->kern_get(prog, "access_random", &s.krand[0])) ||
        (rc = be->kern_get(prog, "access_random2", &s.krand[1])) ||
        (rc = be->kern_get(prog, "access_random4", &s.krand[2])) ||
        (rc = be->kern_get(prog, "access_random_write", &s.kwrite[0])) ||
        (rc = be->kern_get(prog, "access_random_write2", &s.kwrite[1])) ||
        (rc = be->kern_get(prog, "access_random_write4", &s.kwrite[2])))
        goto out;
    if (do_write) { /* the read-back chunk; one bit per block of the smallest block size */
        size_t nbits = (size_t)(top / cfg->blocks.v[0] / 64 + 1);
        s.chunk = malloc((top / WORD < CHECK_CHUNK ? top / WORD : CHECK_CHUNK) * sizeof *s.chunk);
        s.picked = malloc(nbits * sizeof *s.picked);
        if (!s.chunk || !s.picked) {
            gmb_error("out of host memory (the random-write check)");
            rc = GMB_ERUNTIME;
            goto out;
        }
    }
    /* the largest grid any point launches: one sum per work-item (the kernels' occupancy may
     * differ) */
    gmb_launch_t gmax, grmax;
    gmb_grid(c, s.kread, 0, 0, top / WORD, &gmax);
    size_t G = gmax.groups * gmax.group_size;
    for (int i = 0; i < 3; i++) {
        gmb_grid(c, s.krand[i], 0, 0, top / WORD, &grmax);
        if (grmax.groups * grmax.group_size > G)
            G = grmax.groups * grmax.group_size;
    }
    if (!(s.sums = malloc(G * sizeof *s.sums))) {
        gmb_error("out of host memory (%zu sums)", G);
        rc = GMB_ERUNTIME;
        goto out;
    }
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, G * sizeof *s.sums, &s.out)) ||
        (do_offset && (rc = be->alloc(c->dev, GMB_MEM_DEVICE, G * sizeof *s.sums, &s.out2))))
        goto out;
    gmb_launch_t gi;
    gmb_u64 nw = top / WORD;
    gmb_grid(c, s.kinit, 0, 0, nw, &gi);
    gmb_arg_t ai[] = {GMB_A_BUF(s.buf), GMB_A_VAL(nw), GMB_A_VAL(s.seed)};
    if ((rc = be->launch(s.kinit, &gi, ai, 3, NULL)))
        goto out;
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "4 bytes x reads (random-write: writes) x passes a launch / median "
                       "kernel time (bytes used, not bytes the memory system moved)");
    if (do_random || do_write)
        gmb_declare_metric(c, "blocks_G_per_s", "G/s", "higher",
                           "random patterns: blocks read (random-write: written) per second, 1e9 "
                           "(the buffer's blocks x passes / median kernel time)");
    printf("# gmb-access: %s device %d: %s; 4-byte %s; LLC %s\n", be->kind->name, c->info.index,
           c->info.name,
           do_write ? (do_stride || do_offset || do_random ? "reads and writes" : "writes")
                    : "reads",
           c->info.llc_bytes ? gmb_fmt_size(c->info.llc_bytes, (char[32]){0}, 32) : "unknown");
    printf("%-14s %10s %7s %7s %6s %10s %7s %4s %7s %-10s %s\n", "pattern", "size", "stride",
           "offset", "block", "GB/s", "+-CI%", "n", "reps", "where", "verified");
    int failed = 0;
    gmb_text_t sm = {{0}, 0};
    for (size_t si = 0; si < cfg->sizes.n; si++) {
        uint64_t size = cfg->sizes.v[si];
        pt_out_t s4 = {.bw = NAN}; /* the contiguous reads of the stride sweep */
        if ((do_stride && !go_on(stride_sweep(&s, size, st, bw, &s4, gran, &sm), &failed, &rc)) ||
            (do_offset && !go_on(offset_sweep(&s, size, offs, noff, mis, &sm), &failed, &rc)) ||
            (do_random && !go_on(random_buffer(&s, P_RANDOM, size, &s4, rnd, &sm), &failed, &rc)) ||
            (do_write &&
             !go_on(random_buffer(&s, P_RANDOM_WRITE, size, NULL, rwr, &sm), &failed, &rc)))
            goto out;
    }
    if (failed)
        rc = GMB_EVERIFY;
    gmb_summary(c, "# access: ", NULL, sm.text, "nothing to summarise.");
    gmb_add_result(c, "granularity", gran);
    gmb_add_result(c, "misalignment", mis);
    gmb_add_result(c, "random", rnd);
    gmb_add_result(c, "random_write", rwr);
    gran = mis = rnd = rwr = NULL;
    headlines(c);
out:
    json_decref(gran);
    json_decref(mis);
    json_decref(rnd);
    json_decref(rwr);
    free(st);
    free(bw);
    free(s.sums);
    free(s.chunk);
    free(s.picked);
    if (prog)
        be->prog_free(prog);
    be->free(s.buf);
    be->free(s.out);
    be->free(s.out2);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "access",
    .summary = "bandwidth by access pattern: stride between neighbouring reads (coalescing), "
               "misalignment, random blocks by size (reads; writes on request); access granularity",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = access_run,
    .check = access_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
