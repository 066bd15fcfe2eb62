/* overlap.h - what the files of gmb-overlap share: its options, the run's state, the parts
 * (copies beside kernels: copies.c; the arithmetic-intensity sweep: intensity.c), the host's
 * recomputation of the kernels' FMA chain (ref.c) and the ridge-point fit (ridge.c, pure: no
 * harness, unit-tested by tests/unit/test_overlap.c, which compiles it in). */
#ifndef GMB_OVERLAP_H
#define GMB_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

/* ---- the ridge point (ridge.c) -------------------------------------------------------------
 * A sweep of a streaming kernel doing k dependent FMAs per element: k[0] = 0 (memory only),
 * then ascending; t[i] the median time of a launch at k[i]. The memory line is flat, the
 * compute line t = a k through the origin; the ridge is where they cross:
 *   memory side: the points from k = 0 on, as long as t <= (1 + OVL_FLAT_TOL) x hi0 (hi0: the
 *     upper end of the 95% CI of t at k = 0); the flat line's time is their median;
 *   compute side: the points past the memory side with t >= OVL_COMPUTE_FACTOR x t[0]; at
 *     least two; a = the median of their t / k;
 *   ridge k* = flat time / a, which must lie where the two sides meet: from the last memory-side
 *     k, less the tolerance (k_mem / ((1 + tol) hi0 / t0)), up to the first compute-side k.
 * Anything else is "no clear ridge", with the reason: compute-bound from k = 1 (no memory
 * side past k = 0), still memory-bound (fewer than two compute-side points), or lines that
 * cross outside the transition. departure_k: the first k past the memory side (the first
 * whose time leaves the plateau by the tolerance), NaN when every k stays on it. */
#define OVL_FLAT_TOL       0.10
#define OVL_COMPUTE_FACTOR 2.0

typedef struct ovl_ridge {
    int found;          /* 1: a ridge (k, flat_ns, slope_ns); 0: why says why not */
    double k;           /* k* where the lines cross (FMAs per element), NaN without one */
    double flat_ns;     /* the memory line: median time of the memory-side points */
    double slope_ns;    /* the compute line's a: ns per FMA per element, NaN without one */
    double departure_k; /* the first k off the plateau (NaN: none) */
    size_t nmem, ncomp; /* points on the memory side (k = 0 included) and the compute side */
    double kmem_max;    /* the largest memory-side k */
    double kcomp_min;   /* the smallest compute-side k (NaN: none) */
    char why[256];      /* no ridge: the reason ("" with one) */
} ovl_ridge_t;

/* Fit the ridge of n points (k ascending from k[0] = 0; t > 0; hi0 >= t[0] the CI's upper end
 * at k = 0). 0, or -1 for input that is no sweep (n < 2, k[0] != 0, k not ascending, a time
 * not positive and finite): then out->why says which. */
int ovl_ridge_fit(const double *k, const double *t, size_t n, double hi0, ovl_ridge_t *out);

/* The fraction of the compute time the memory time hides at one k: (t_mem + t_comp - t_both)
 * / t_comp (1: all of it, the kernel as fast as memory alone; 0: none, as slow as both one
 * after the other; outside [0, 1] where the kernel is faster than memory alone or slower
 * than both in turn). NaN when t_comp is not positive. */
double ovl_hidden_fraction(double t_mem, double t_comp, double t_both);

/* The overlap efficiency of a copy and a kernel: (t_copy + t_kernel - t_both) /
 * min(t_copy, t_kernel) (1: the shorter one wholly hidden, 0: one after the other). NaN when
 * a time is not positive. */
double ovl_efficiency(double t_copy, double t_kernel, double t_both);

#ifndef OVL_RIDGE_ONLY /* tests/unit/test_overlap.c takes the pure part above alone */
#include "harness.h"

/* ---- options and the run ------------------------------------------------------------------ */
enum { P_OVERLAP, P_INTENSITY };
enum { D_H2D, D_D2H };
enum { K_COMPUTE, K_STREAM };
enum { F_FP32, F_FP64 };
extern const char *const ovl_part_names[], *const ovl_dir_names[], *const ovl_kern_names[],
                                                                       *const ovl_prec_names[];

typedef struct ovl_cfg {
    gmb_list_t parts;      /* P_* */
    gmb_list_t dirs;       /* D_* */
    gmb_list_t kernels;    /* K_* */
    uint64_t copy_bytes;   /* --copy-size: bytes per copy (0 until the check hook sets it) */
    uint64_t stream_bytes; /* --stream-size: each array of the streaming kernel (0: likewise) */
    long compute_iters;    /* --compute-iters: FMAs per chain of the compute kernel; 0 calibrate */
    long stream_passes;    /* --stream-passes: streaming launches per run; 0 calibrate */
    gmb_list_t precisions; /* F_* */
    uint64_t size_bytes;   /* --size: each of the intensity sweep's x and y (0: likewise) */
    long k_max;            /* --k-max: the largest k, a power of two */
    long group_size;       /* work-items per group; 0: 256 or the device's maximum */
    long groups_per_cu;    /* groups per compute unit; 0: gmb_grid's default */
    double min_sample_us;  /* intensity: launches per sample raised until it lasts this long */
} ovl_cfg_t;

/* The chain's constants: p = 1 - 2^-10, q = 2^-10 (fixed point 1) */
#define OVL_P 0.9990234375
#define OVL_Q 0.0009765625

/* The run's state, shared by the parts. */
typedef struct ovl_run {
    gmb_ctx_t *c;
    gmb_prog_t *prog;                         /* the kernels, loaded once */
    gmb_kern_t *kinit[2], *kmem[2], *kreg[2]; /* per precision F_*; fp64 NULL without */
    int fp64;                                 /* 1: the device has doubles */
    char fp64_how[160];                       /* how that is known */
    json_t *skipped;                          /* results.skipped */
    int failed;                               /* a verification failed */
    gmb_text_t sm;                            /* the summary */
} ovl_run_t;

/* The parts: measure, verify, record their points, results and headline figures. 0,
 * GMB_EVERIFY (a verification failed: its points are recorded, the rest measured) or the
 * backend's error. */
int ovl_part_overlap(ovl_run_t *r);
int ovl_part_intensity(ovl_run_t *r);

/* ---- the host's recomputation (ref.c, from overlap.cl) ------------------------------------ */
/* y of the streaming kernel for input x: the chain of k FMAs (fp32 / fp64). */
float ovl_ref_mem_f32(float x, uint32_t k);
double ovl_ref_mem_f64(double x, uint32_t k);
/* out[g] of the compute-only kernel (ovl_reg_*): work-item g's four chains of k FMAs, started
 * from the pseudo-random floats 4g .. 4g + 3 of seed, summed (x0 + x1) + (x2 + x3); fp64 or
 * not, as a double (an fp32 result converted exactly). */
double ovl_ref_reg(int fp64, uint64_t g, uint32_t k, uint32_t seed);
/* The pseudo-random input of element i (gmb_rand_float). */
float ovl_ref_input(uint32_t seed, uint64_t i);

/* Record a failed verification of a point: printed once, kept in r. */
void ovl_fail(ovl_run_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif

#endif
