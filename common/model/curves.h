/* curves.h - bandwidth curves (a cache plateau, a memory plateau, the capacity between them and
 * the hit rate a point implies) and two-mode splits of latency samples; honest verdicts ("no
 * clear plateau", "single mode") rather than invented structure. */
#ifndef GMB_CURVES_H
#define GMB_CURVES_H

#include <stddef.h>

#include "model/levels.h"

/* What a bandwidth-versus-working-set curve says about one cache in front of memory. */
typedef struct gmb_bw_fit {
    int found;          /* 1: a fast plateau and a slower last plateau were told apart */
    size_t nplateaus;   /* plateaus the level detector found (0 when none, 2+ when found) */
    double cache_bw;    /* median bandwidth of the first plateau (unit of the input) */
    double mem_bw;      /* median bandwidth of the last plateau */
    double ratio;       /* cache_bw / mem_bw */
    double capacity;    /* largest size still on the first plateau: the effective capacity */
    double fall_at;     /* next measured size, where bandwidth has fallen (0: none) */
    double half_at;     /* size where the model's hit rate crosses 1/2 (log-interpolated) */
    size_t cache_first; /* index of the first plateau's first point */
    size_t cache_last;  /* ... and of its last point */
    size_t mem_first;   /* index of the last plateau's first point */
    size_t mem_last;    /* ... and of its last point */
    double confidence;  /* 0..1: the lower of the two plateaus' confidences */
    double noise;       /* the curve's noise (log units) from the level detector */
    size_t head;        /* points of a rising head left out before the plateaus (0: none) */
    double top;         /* the curve's top: largest 3-point running median of the bandwidth */
    int by_ends;        /* 1: the plateaus are the curve's two ends (the detector found none) */
    /* every plateau, first to last (nplateaus of them; found = 1): the level detector's
     * levels of the time per byte (lat: ns per byte when bw is in GB/s), indices into the
     * whole curve; a split cache shows here as plateaus between the first and the last */
    gmb_level_t levels[GMB_MAX_LEVELS];
    double level_bw[GMB_MAX_LEVELS]; /* each plateau's median bandwidth (cache_bw ... mem_bw) */
} gmb_bw_fit_t;

/* A point is in the rising head while it and every point before it are below this share of
 * the curve's top: small working sets that give too few loads in flight to reach the cache's
 * plateau (the H200's 1-4 MiB sets, 2026-11-30: 3.5-6.5 TB/s below a 9.3 TB/s plateau). */
#define GMB_BW_HEAD_SHARE 0.9

/* A cache capacity read off a bandwidth curve is past the cache the device reports when it is
 * over this multiple of it (the H200's read plateau held to the 64 MiB set of a 50 MiB L2):
 * gmb-l2 says so (capacity_beyond_llc) and gmb table marks it (GMB_NOTE_PAST_LLC). */
#define GMB_BW_PAST_LLC 1.05

/* Find the cache and memory plateaus of (size[i], bw[i]), i < n, sizes ascending, with the
 * level detector of levels.h run on the time per byte (1 / bw). Points whose bandwidth is
 * not a positive number are ignored. A rising head (the first points, each below
 * GMB_BW_HEAD_SHARE of the top) is left out first: it is no plateau of the cache, which it
 * has not reached, and would be taken for the first one. The first plateau after it is the
 * cache, the last the memory (the caller says whether the sweep reached far enough to call
 * it that); plateaus between them (a split cache) are counted in nplateaus. A curve without
 * two plateaus past its head (flat, noisy, a slope, a rise that never falls) gives
 * found = 0. Where the detector finds fewer than two levels because the memory's tail still
 * drifts a little (mixed hits fading over octaves, merged with it into one slope), the two
 * ends are tried: the run from the head's end within the tolerance of the top and the run
 * at the sweep's end, each flat (drift under half the tolerance), 3 and 4 points at least,
 * 3 tolerances apart (by_ends = 1). Returns 0 or GMB_EUSAGE (NULL arguments). */
int gmb_bw_fit(const double *size, const double *bw, size_t n, gmb_bw_fit_t *out);

/* The median of rate[i] (e.g. a counter's hit rate per point) over the fit's first plateau
 * (out[0]: the cache, cache_first..cache_last) and over its last (out[1]: past the cache,
 * mem_first..mem_last), of n points; values that are not numbers (no counter) are left out,
 * and a plateau with none is NaN, as are both where the fit found no plateaus. */
void gmb_bw_fit_rates(const gmb_bw_fit_t *f, const double *rate, size_t n, double out[2]);

/* Fraction of the traffic served by the cache when a point runs at bw, from the two-plateau
 * model: time per byte = h / cache_bw + (1 - h) / mem_bw. Clamped to [0, 1]; NAN when the
 * plateaus are not two positive numbers with cache_bw > mem_bw or bw is not positive. */
double gmb_bw_hit_rate(double bw, double cache_bw, double mem_bw);

/* A split of samples into a low and a high mode. */
typedef struct gmb_bimodal {
    int bimodal;       /* 1: two separated modes; 0: one ("single partition") */
    size_t n;          /* valid samples (positive, finite) */
    size_t n_lo, n_hi; /* samples in each mode of the best split (n_hi = 0 when n < 4) */
    double lo, hi;     /* median of each mode; with one mode both are the overall median */
    double share_lo;   /* n_lo / n (1 with one mode) */
    double share_hi;   /* n_hi / n (0 with one mode) */
    double threshold;  /* samples <= threshold are in the low mode */
    double separation; /* (hi - lo) / the modes' pooled robust spread */
    double rel_gap;    /* (hi - lo) / lo */
} gmb_bimodal_t;

/* Split settings; gmb_bimodal_defaults() fills them. */
typedef struct gmb_bimodal_cfg {
    double min_share;      /* each mode holds at least this fraction of the samples */
    double min_separation; /* (hi - lo) / pooled spread must reach this */
    double min_rel_gap;    /* (hi - lo) / lo must reach this (clock quantization is no mode) */
    double spread_floor;   /* a mode's spread is at least this fraction of its median */
} gmb_bimodal_cfg_t;

void gmb_bimodal_defaults(gmb_bimodal_cfg_t *cfg);

/* Split x[0..n) (not modified) at the threshold that maximizes the between-class variance
 * (Otsu), and call it two modes only when both hold min_share, their medians are min_rel_gap
 * apart and min_separation pooled robust spreads (1.4826 x MAD, floored) apart: a unimodal
 * sample (normal, uniform, skewed) splits somewhere but fails these tests. cfg NULL: the
 * defaults. Returns 0, GMB_EUSAGE (NULL arguments) or GMB_ERUNTIME (no memory). */
int gmb_bimodal_split(const double *x, size_t n, const gmb_bimodal_cfg_t *cfg, gmb_bimodal_t *out);

/* Up to GMB_MODES_MAX modes of a sample: the latencies of the lines of a buffer seen from one
 * SM (near L2, far L2, memory). */
#define GMB_MODES_MAX 4
typedef struct gmb_modes {
    size_t k;                     /* modes found (1 when the sample is unimodal; 0: none) */
    size_t n;                     /* valid samples (positive, finite) */
    double center[GMB_MODES_MAX]; /* each mode's median, ascending */
    double lo[GMB_MODES_MAX];     /* its smallest and largest sample */
    double hi[GMB_MODES_MAX];
    size_t count[GMB_MODES_MAX];      /* its samples */
    double share[GMB_MODES_MAX];      /* count / n */
    double upper[GMB_MODES_MAX];      /* samples <= upper[i] (and above upper[i - 1]) are mode i */
    double separation[GMB_MODES_MAX]; /* the split below mode i (i >= 1): its separation */
} gmb_modes_t;

/* Split x[0..n) (not modified) into modes: the sample is split in two by gmb_bimodal_split,
 * and each part again, as long as a split passes its tests (each new mode at least
 * cfg->min_share of all n samples) and fewer than maxk modes (at most GMB_MODES_MAX) are
 * found. A unimodal sample gives one mode. cfg NULL: the defaults. Returns 0, GMB_EUSAGE
 * (NULL arguments, maxk 0) or GMB_ERUNTIME (no memory). */
int gmb_modes_split(const double *x, size_t n, size_t maxk, const gmb_bimodal_cfg_t *cfg,
                    gmb_modes_t *out);

/* The mode a value falls in (0 = the fastest); m->k when m has no modes. */
size_t gmb_modes_class(const gmb_modes_t *m, double x);

/* Sides of a partitioned cache: near[s * nl + j] is 1 when line j is in SM s's fastest mode
 * (0 not, other values: not measured), for nsm SMs of nl lines. Two SMs are on one side when
 * they class at least GMB_SIDE_AGREE of the lines both measured alike, on two sides when at
 * most 1 - GMB_SIDE_AGREE (each one's near lines the other's far ones). side[s] = the side of
 * SM s (0, 1, ...; -1 when it agrees with no side clearly, or measured nothing). Returns the
 * number of sides (0 when none), or GMB_EUSAGE. agree (NULL or nsm x nsm) gets the share of
 * lines two SMs class alike (NAN where they share none). */
#define GMB_SIDE_AGREE 0.8
int gmb_sides(const unsigned char *near, size_t nsm, size_t nl, int *side, double *agree);

/* One SM's walk of gmb-l2's partition test (l2_part_lat): cyc[r x nl + j] = cycles of line
 * j's load in pass r (pass 0 brings the buffer in and is left out), fin[j] = the word its
 * last load returned; the t-th load of the walk (t from 0) returns word
 * j x line_words + (t + 1) mod 8 (a chain over each line's first sector; line_words a multiple
 * of 8). lat[j] = the least of passes 1 .. passes - 1 (passes >= 2), md = their modes (up to
 * 3). *bad = 1 + the first line whose word is wrong, 0 when all are right. Returns 0,
 * GMB_EUSAGE or GMB_ERUNTIME. */
int gmb_part_walk(const unsigned *cyc, const unsigned *fin, size_t nl, unsigned passes,
                  unsigned line_words, double *lat, gmb_modes_t *md, size_t *bad);

/* Index of the first of v[0..n) that reaches share x the largest (values that are not
 * numbers are skipped); n when none is a positive number. The knee of a bandwidth curve. */
size_t gmb_curve_first_within(const double *v, size_t n, double share);

/* Where y first reaches want along the points (x[i], y[i]), i < n, in order: x interpolated
 * linearly between the point before and the one that reaches it; x[0] when the first point
 * already does; NAN when none does (points that are not numbers are skipped). */
double gmb_curve_crossing(const double *x, const double *y, size_t n, double want);

/* Index of the first of v[0..n) from which every later value that is a number reaches want
 * (a curve that stays up, not one that touches want and falls back); values that are not
 * numbers are skipped (never the index); n when the last number is below want or there is
 * none. The block size from which random reads get full bandwidth. */
size_t gmb_curve_held_from(const double *v, size_t n, double want);

/* The access granularity a stride curve shows: bw[i] is the bandwidth used by word-byte reads
 * whose neighbours (a warp's work-items) are stride[i] bytes apart (strides ascending). Under a
 * granularity g the memory system fetches min(stride, g) bytes per read, so the fetched
 * bandwidth bw x min(s, g) / word is flat over the strides up to g (its head) while the memory
 * is the limit; past g each read costs g bytes and a request rate may bind first, so it may
 * fall there, but under the true g it never rises above the head (a larger g would have the
 * memory fetch faster than its contiguous reads: the H200, 2026-11-30, fell from 64-byte
 * strides on, so no g flattened the whole curve). */
#define GMB_GRAIN_CANDIDATES 4    /* 32, 64, 128, 256 bytes */
#define GMB_GRAIN_FLAT       1.25 /* the head's max / min below this: flat */
#define GMB_GRAIN_OVER       1.15 /* no stride's fetched rate above the head's max x this */
typedef struct gmb_grain {
    int found;                                /* 1: a candidate holds (see gmb_grain_infer) */
    unsigned granularity;                     /* bytes (0 when not found) */
    unsigned candidate[GMB_GRAIN_CANDIDATES]; /* the candidates, bytes */
    double spread[GMB_GRAIN_CANDIDATES];      /* max / min of the fetched bandwidth, its head */
    double lo[GMB_GRAIN_CANDIDATES];          /* and the head's min, max (unit of bw) */
    double hi[GMB_GRAIN_CANDIDATES];
    double over[GMB_GRAIN_CANDIDATES]; /* the fastest fetched rate of any stride / the head's */
    double best_spread;                /* the chosen candidate's spread */
    int best;                          /* its index; -1: none holds */
    size_t n;                          /* points used (bw a positive number) */
    const char *why;                   /* when not found: why, one phrase */
} gmb_grain_t;

/* Infer it: the largest candidate whose head (strides up to it, 3 points or more) is flat
 * (spread below GMB_GRAIN_FLAT) and which no stride's fetched rate exceeds by more than
 * GMB_GRAIN_OVER; found when at least 3 points were measured, from one word, and the strides
 * reach twice it. Returns 0 or GMB_EUSAGE (NULL arguments, word 0). */
int gmb_grain_infer(const double *stride, const double *bw, size_t n, double word,
                    gmb_grain_t *out);

#endif
