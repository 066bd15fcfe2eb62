/* bankmodel.h - shared-memory bank model: conflict degree of a warp-wide access, the linear
 * cost fit, and the inference of a bank structure from a measured stride curve. */
#ifndef GMB_BANKMODEL_H
#define GMB_BANKMODEL_H

#include <stddef.h>
#include <stdint.h>

#define GMB_BANK_LANES      32  /* lanes of the warp the patterns are defined on */
#define GMB_BANK_MAX_STRIDE 256 /* largest stride --strides accepts */

/* The model (NVIDIA since Maxwell with banks = 32, bank_bytes = 4; the CUDA C Programming
 * Guide, "Shared Memory" of compute capability 5.x and later, and the 64/128-bit rules it
 * inherits from 2.x):
 *  - a bank row is banks x bank_bytes bytes; byte address a lies in bank word a / bank_bytes,
 *    which lives in bank (a / bank_bytes) mod banks;
 *  - an access of width bytes per lane is served in phases of P = row / width lanes (at most
 *    all lanes, at least one): 32-bit accesses in one phase of 32 lanes, 64-bit ones in two
 *    half-warps, 128-bit ones in four quarter-warps (on 32 x 4 bytes);
 *  - within a phase, lanes that touch the same bank word share it (broadcast, no conflict);
 *    distinct bank words of the same bank are served one after another;
 *  - the conflict degree ("ways") is the largest number of distinct words any bank holds in
 *    any phase (1 = conflict-free); wavefronts are that degree summed over the phases.
 * So with 32 x 4 bytes and 4-byte elements, stride s costs gcd(s, 32) ways (s = 0: 1, a
 * broadcast); with 8-byte elements a half-warp of 16 lanes covers 128 bytes, so stride 1 is
 * conflict-free in 2 wavefronts, stride 2 is 2-way and stride 16 or 32 is 16-way; with 16-byte
 * elements a quarter-warp of 8 lanes covers 128 bytes and the worst case is 8-way. */
typedef struct gmb_bank_cost {
    int ways;       /* conflict degree: most distinct words of one bank in one phase */
    int phases;     /* phases the warp-wide access is served in */
    int wavefronts; /* sum over the phases of their conflict degree */
} gmb_bank_cost_t;

/* Cost of one warp-wide access: lane i reads width bytes at byte address addr[i], i < lanes
 * (<= GMB_BANK_LANES). banks and bank_bytes > 0, width a multiple of 4 (4..16).
 * Returns 0 or GMB_EUSAGE for arguments outside those ranges. */
int gmb_bank_cost(const uint64_t *addr, int lanes, int width, int banks, int bank_bytes,
                  gmb_bank_cost_t *out);

/* Cost of the stride pattern: lane t reads element t x stride of width bytes, 32 lanes.
 * Returns 0 or GMB_EUSAGE. */
int gmb_bank_stride_cost(int stride, int width, int banks, int bank_bytes, gmb_bank_cost_t *out);
/* Its ways (>= 1), or GMB_EUSAGE. */
int gmb_bank_stride_ways(int stride, int width, int banks, int bank_bytes);
/* The x of the cost line: wavefronts / phases - 1, the mean conflict degree of the phases less
 * one; equal to ways - 1 for every stride pattern (its phases are whole rows apart). */
double gmb_bank_cost_x(const gmb_bank_cost_t *c);

/* A least-squares line y = base + slope x (x = ways - 1). */
typedef struct gmb_bank_fit {
    int ok;       /* 1 when x takes at least two values (the line is defined) */
    size_t n;     /* points fitted */
    double base;  /* y at x = 0: the cost of a conflict-free access */
    double slope; /* y per extra way */
    double rms;   /* root-mean-square residual, in units of y */
    double r2;    /* coefficient of determination (1 - SSres / SStot); 0 when y is constant */
} gmb_bank_fit_t;

/* Fit y = base + slope x over n points. Returns 0 (out->ok = 0 when x is constant or n < 2)
 * or GMB_EUSAGE when n == 0. */
int gmb_bank_linfit(const double *x, const double *y, size_t n, gmb_bank_fit_t *out);

/* 1 when a curve is flat within its noise: every confidence interval [lo, hi] shares a
 * common value, or the spread of the medians (max - min) is at most rel_tol of their median.
 * spread_out (may be NULL) gets (max - min) / median of the medians. 0 otherwise. */
int gmb_bank_flat(const double *med, const double *lo, const double *hi, size_t n, double rel_tol,
                  double *spread_out);

/* What the stride sweep of one element width says about the bank structure. */
typedef struct gmb_bank_infer {
    int detected;       /* 1: a bank structure was inferred */
    int flat;           /* 1: the curve is flat within its noise */
    double spread;      /* (max - min) / median of the measured medians */
    int banks;          /* best candidate's bank count */
    int bank_bytes;     /* best candidate's bank width */
    gmb_bank_fit_t fit; /* the fit of y against the best candidate's ways */
    int alt_banks;      /* runner-up with different predictions, 0 when none */
    int alt_bank_bytes; /* its bank width */
    double alt_rms;     /* its residual */
    char reason[512];   /* one sentence: why a structure was or was not inferred */
} gmb_bank_infer_t;

/* Infer the bank structure from a stride sweep of one element width: y[i] (with the 95% CI
 * lo[i]..hi[i]) is the cost of the warp-wide access with stride strides[i]. Candidates are
 * 4..128 banks of 4, 8 or 16 bytes; the one whose ways explain y best by a line wins. It is
 * reported only when the curve is not flat (5% spread, CIs), the line explains it
 * (R^2 >= 0.8, slope > 0), no differently-predicting candidate fits about as well, and the
 * device is not a CPU (is_cpu: OpenCL local memory of a CPU is ordinary cached memory).
 * Returns 0 or GMB_EUSAGE (n == 0, a bad width or stride). */
int gmb_bank_infer(const int *strides, const double *y, const double *lo, const double *hi,
                   size_t n, int width, int is_cpu, gmb_bank_infer_t *out);

#endif
