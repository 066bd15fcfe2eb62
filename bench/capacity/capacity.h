/* capacity.h - gmb-capacity's pieces beside its descriptor: the bisection of the largest
 * allocation (pure, unit-tested), NVML's memory counts, and the CUDA-only stream-ordered pool
 * of capacity.cu (weak: absent where CUDA was not built). */
#ifndef GMB_CAPACITY_H
#define GMB_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the bisection (bisect.c) -------------------------------------------------------------
 * The largest size that succeeds, between 0 and a bound: the bound first (it succeeds: that is
 * the answer), then halves of the interval between the largest size that succeeded (lo) and the
 * smallest that failed (hi), sizes multiples of step, until hi - lo is within the resolution.
 * Every size that succeeded is then <= lo and every one that failed > lo, whatever the order
 * of the answers. */
typedef struct cap_bisect {
    uint64_t bound;  /* the most asked: a multiple of step */
    uint64_t step;   /* every size asked is a multiple of it (> 0) */
    uint64_t res;    /* done when hi - lo <= res (a multiple of step, >= step) */
    uint64_t lo;     /* the largest size that succeeded; 0: none yet */
    uint64_t hi;     /* the smallest that failed; bound + step while none has */
    unsigned probes; /* sizes answered */
} cap_bisect_t;

/* Start a bisection below bound (rounded down to step; 0 when below it) to a resolution of
 * res_frac x bound (at least step). step 0 is taken as 1. */
void cap_bisect_init(cap_bisect_t *b, uint64_t bound, uint64_t step, double res_frac);
/* The next size to try; 0 when the search is done (its answer: b->lo, 0 when nothing
 * succeeded). */
uint64_t cap_bisect_next(const cap_bisect_t *b);
/* The answer for size (ok: it was allocated, touched and verified). */
void cap_bisect_report(cap_bisect_t *b, uint64_t size, int ok);

/* ---- CUDA's stream-ordered allocator (capacity.cu; weak in capacity.c) ---------------------
 * One pool of device dev's memory (cudaMemPoolCreate) and one stream; one buffer at a time.
 * Every call returns 0, or GMB_ERUNTIME (GMB_ESKIP for open: no memory pools) with CUDA's words
 * in why, nothing printed. */
int gmb_capacity_cuda_pool_open(int dev, char *why, size_t whylen);
/* Keep up to bytes reserved in the pool after a free (cudaMemPoolAttrReleaseThreshold): the
 * next allocation of that size comes from the pool. */
int gmb_capacity_cuda_pool_keep(uint64_t bytes, char *why, size_t whylen);
/* cudaMallocAsync of bytes from the pool on the stream, waited for. */
int gmb_capacity_cuda_pool_alloc(uint64_t bytes, void **p, char *why, size_t whylen);
/* The touch and the check of capacity.cl on p's words (n of them), waited for; check's
 * answer in res[4] as cap_check leaves it. */
int gmb_capacity_cuda_pool_touch(void *p, uint64_t n, uint32_t seed, char *why, size_t whylen);
int gmb_capacity_cuda_pool_check(void *p, uint64_t n, uint32_t seed, uint32_t res[4], char *why,
                                 size_t whylen);
/* Store v in word w of p (a test aid's planted error). */
int gmb_capacity_cuda_pool_plant(void *p, uint64_t w, uint32_t v, char *why, size_t whylen);
/* cudaFreeAsync of p, waited for. */
int gmb_capacity_cuda_pool_free(void *p, char *why, size_t whylen);
/* Give the pool's reserved memory back (cudaMemPoolTrimTo 0). */
int gmb_capacity_cuda_pool_trim(char *why, size_t whylen);
/* Destroy the pool and the stream (after the buffers are freed); safe without open. */
void gmb_capacity_cuda_pool_close(void);

#ifdef __cplusplus
}
#endif
#endif
