/* atomic.cl - gmb-atomic kernels (OpenCL C and, through gmb_kernels.h, CUDA): atomic adds by
 * contention. Work-item g adds inc (a kernel argument, 1: the compiler cannot merge the adds)
 * iters times to counter g / sharers, the counters sw words apart; in global memory (a GPU's
 * L2 does them) or in the group's shared (CUDA) / local (OpenCL) memory (the SM does them).
 * red: the old value is not used (CUDA: red.global.add, fire and forget); atom: it is, summed
 * into the work-item's checksum sum[g] (every add a round trip), which the host checks. */

#if defined(__CUDACC__)
/* red.global.add.u32 itself: CUDA 13 emits atom.global.add for an atomicAdd whose result is
 * unused and leaves the choice of RED to ptxas; this says what is measured */
static __device__ __forceinline__ void atomic_red_global(gmb_u32 *p, gmb_u32 v)
{
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "r"(v)
                 : "memory");
}
#define RED_GLOBAL(p, v)  atomic_red_global((p), (v))
#define ATOM_GLOBAL(p, v) atomicAdd((p), (v))
#define RED_SHARED(p, v)  ((void)atomicAdd((p), (v))) /* its result unused */
#define ATOM_SHARED(p, v) atomicAdd((p), (v))
#else
#define RED_GLOBAL(p, v)  ((void)atomic_add((p), (v)))
#define ATOM_GLOBAL(p, v) atomic_add((p), (v))
#define RED_SHARED(p, v)  ((void)atomic_add((p), (v)))
#define ATOM_SHARED(p, v) atomic_add((p), (v))
#endif

/* the loop: iters (a multiple of 4) adds, four a turn */
#define ATOMIC_RED_LOOP(RED)                                                                       \
    for (gmb_u32 i = 0; i < iters; i += 4) {                                                       \
        RED(p, inc);                                                                               \
        RED(p, inc);                                                                               \
        RED(p, inc);                                                                               \
        RED(p, inc);                                                                               \
    }
#define ATOMIC_ATOM_LOOP(ATOM)                                                                     \
    gmb_u32 s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                        \
    for (gmb_u32 i = 0; i < iters; i += 4) {                                                       \
        s0 += ATOM(p, inc);                                                                        \
        s1 += ATOM(p, inc);                                                                        \
        s2 += ATOM(p, inc);                                                                        \
        s3 += ATOM(p, inc);                                                                        \
    }                                                                                              \
    sum[GMB_GID] = (s0 + s1) + (s2 + s3);

/* global memory: ctr holds the counters (zeroed by the host before every launch), counter k
 * at word k x sw */
GMB_KERNEL atomic_global_red(GMB_GLOBAL gmb_u32 *ctr, GMB_GLOBAL gmb_u32 *sum, gmb_u32 sharers,
                             gmb_u32 sw, gmb_u32 iters, gmb_u32 inc)
{
    GMB_GLOBAL gmb_u32 *p = ctr + GMB_GID / sharers * sw;
    ATOMIC_RED_LOOP(RED_GLOBAL)
    (void)sum;
}

GMB_KERNEL atomic_global_atom(GMB_GLOBAL gmb_u32 *ctr, GMB_GLOBAL gmb_u32 *sum, gmb_u32 sharers,
                              gmb_u32 sw, gmb_u32 iters, gmb_u32 inc)
{
    GMB_GLOBAL gmb_u32 *p = ctr + GMB_GID / sharers * sw;
    ATOMIC_ATOM_LOOP(ATOM_GLOBAL)
}

/* shared memory: the group's group size / sharers counters, sw words apart in its dynamic
 * shared memory, zeroed here; at the end they go to out[group x counters per group + k] */
#define ATOMIC_SHARED_BEGIN                                                                        \
    GMB_DYN_SHARED(gmb_u32, sh);                                                                   \
    gmb_u32 nctr = GMB_LSIZE / sharers;                                                            \
    for (gmb_u32 k = GMB_LID; k < nctr; k += GMB_LSIZE)                                            \
        sh[k * sw] = 0;                                                                            \
    GMB_BARRIER();                                                                                 \
    GMB_LOCAL_AS gmb_u32 *p = sh + GMB_LID / sharers * sw;
#define ATOMIC_SHARED_END                                                                          \
    GMB_BARRIER();                                                                                 \
    for (gmb_u32 k = GMB_LID; k < nctr; k += GMB_LSIZE)                                            \
        out[(gmb_u64)GMB_GROUP * nctr + k] = sh[k * sw];

GMB_KERNEL atomic_shared_red(GMB_GLOBAL gmb_u32 *out, GMB_GLOBAL gmb_u32 *sum, gmb_u32 sharers,
                             gmb_u32 sw, gmb_u32 iters,
                             gmb_u32 inc GMB_DYN_SHARED_PARAM(gmb_u32, sh))
{
    (void)sum;
    ATOMIC_SHARED_BEGIN
    ATOMIC_RED_LOOP(RED_SHARED)
    ATOMIC_SHARED_END
}

GMB_KERNEL atomic_shared_atom(GMB_GLOBAL gmb_u32 *out, GMB_GLOBAL gmb_u32 *sum, gmb_u32 sharers,
                              gmb_u32 sw, gmb_u32 iters,
                              gmb_u32 inc GMB_DYN_SHARED_PARAM(gmb_u32, sh))
{
    ATOMIC_SHARED_BEGIN
    ATOMIC_ATOM_LOOP(ATOM_SHARED)
    ATOMIC_SHARED_END
}
