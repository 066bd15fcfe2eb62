/* overlap.cl - gmb-overlap kernels (OpenCL C and, through gmb_kernels.h, CUDA) and the FMA
 * chain they compute (host C too: overlap.c includes this file for its verification, where
 * GMB_KERNEL is not defined and only the chain functions below are compiled).
 * The chain: x = fma(x, p, q), k times, p and q kernel arguments (p = 1 - 2^-10, q = 2^-10:
 * the fixed point is 1, so a start in [1, 2) stays in [1, 2], never denormal). fma is correctly
 * rounded in every dialect (OpenCL C fma, CUDA fmaf / fma, C99 fmaf / fma), so the device and
 * the host's recomputation agree bit for bit. */

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#define OVL_FP64 1 /* the device has doubles: the fp64 kernels are built */
#else
#define OVL_FP64 0
#endif
#define OVL_FMA32(a, b, c) fma((a), (b), (c))
#define OVL_FMA64(a, b, c) fma((a), (b), (c))
#elif defined(__CUDACC__)
#define OVL_FP64           1 /* every CUDA device has doubles */
#define OVL_FMA32(a, b, c) fmaf((a), (b), (c))
#define OVL_FMA64(a, b, c) fma((a), (b), (c))
#else /* host C */
#include <math.h>
#define OVL_FP64           1
#define OVL_FMA32(a, b, c) fmaf((a), (b), (c))
#define OVL_FMA64(a, b, c) fma((a), (b), (c))
#endif

/* The chain every kernel computes, one value: k FMAs, x = x * p + q (the host's check). */
GMB_FN float ovl_chain_f32(float x, gmb_u32 k, float p, float q)
{
    for (gmb_u32 j = 0; j < k; j++)
        x = OVL_FMA32(x, p, q);
    return x;
}
#if OVL_FP64
GMB_FN double ovl_chain_f64(double x, gmb_u32 k, double p, double q)
{
    for (gmb_u32 j = 0; j < k; j++)
        x = OVL_FMA64(x, p, q);
    return x;
}
#endif

#if defined(GMB_KERNEL)

/* k dependent FMAs on each of four values, eight at a time while eight are left */
#define OVL_FOUR(FMA, k, p, q)                                                                     \
    do {                                                                                           \
        gmb_u32 j_ = 0;                                                                            \
        for (; j_ + 8 <= (k); j_ += 8) {                                                           \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
            OVL_STEP4(FMA, p, q);                                                                  \
        }                                                                                          \
        for (; j_ < (k); j_++)                                                                     \
            OVL_STEP4(FMA, p, q);                                                                  \
    } while (0)
#define OVL_STEP4(FMA, p, q)                                                                       \
    do {                                                                                           \
        x0 = FMA(x0, p, q);                                                                        \
        x1 = FMA(x1, p, q);                                                                        \
        x2 = FMA(x2, p, q);                                                                        \
        x3 = FMA(x3, p, q);                                                                        \
    } while (0)

/* The kernels of one precision T (suffix SFX), on a one-pass grid: work-item l of group b has
 * the four elements b x 4L + j x L + l (j = 0..3, L the group size; those past n are not
 * loaded or stored), four independent chains. ovl_init: the input x; ovl_mem: the streaming
 * kernel y[i] = chain_k(x[i]) (the intensity sweep; with k = 1, y = p x + q, the overlap
 * part's streaming kernel); ovl_reg: the same four chains a work-item on register data
 * (compute-only: no load, one store a work-item; the overlap part's compute kernel, k its
 * iterations), started from the pseudo-random floats 4g .. 4g + 3 of seed, g the work-item. */
#define OVL_KERNELS(T, SFX, FMA)                                                                   \
    GMB_KERNEL ovl_init_##SFX(GMB_GLOBAL T *a, gmb_u64 n, gmb_u32 seed)                            \
    {                                                                                              \
        for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE)                                           \
            a[i] = (T)gmb_rand_float(seed, i);                                                     \
    }                                                                                              \
    GMB_KERNEL ovl_mem_##SFX(GMB_GLOBAL T *GMB_RESTRICT y, GMB_GLOBAL const T *GMB_RESTRICT x,     \
                             gmb_u64 n, gmb_u32 k, T p, T q)                                       \
    {                                                                                              \
        const gmb_u64 L = GMB_LSIZE, i = (gmb_u64)GMB_GROUP * 4 * L + GMB_LID;                     \
        T x0 = i < n ? x[i] : (T)1, x1 = i + L < n ? x[i + L] : (T)1;                              \
        T x2 = i + 2 * L < n ? x[i + 2 * L] : (T)1, x3 = i + 3 * L < n ? x[i + 3 * L] : (T)1;      \
        OVL_FOUR(FMA, k, p, q);                                                                    \
        if (i + 3 * L < n) {                                                                       \
            y[i] = x0;                                                                             \
            y[i + L] = x1;                                                                         \
            y[i + 2 * L] = x2;                                                                     \
            y[i + 3 * L] = x3;                                                                     \
        } else {                                                                                   \
            if (i < n)                                                                             \
                y[i] = x0;                                                                         \
            if (i + L < n)                                                                         \
                y[i + L] = x1;                                                                     \
            if (i + 2 * L < n)                                                                     \
                y[i + 2 * L] = x2;                                                                 \
        }                                                                                          \
    }                                                                                              \
    GMB_KERNEL ovl_reg_##SFX(GMB_GLOBAL T *out, gmb_u32 k, T p, T q, gmb_u32 seed)                 \
    {                                                                                              \
        const gmb_u64 g = GMB_GID;                                                                 \
        T x0 = (T)gmb_rand_float(seed, 4 * g), x1 = (T)gmb_rand_float(seed, 4 * g + 1);            \
        T x2 = (T)gmb_rand_float(seed, 4 * g + 2), x3 = (T)gmb_rand_float(seed, 4 * g + 3);        \
        OVL_FOUR(FMA, k, p, q);                                                                    \
        out[g] = (x0 + x1) + (x2 + x3);                                                            \
    }

OVL_KERNELS(float, f32, OVL_FMA32)
#if OVL_FP64
OVL_KERNELS(double, f64, OVL_FMA64)
#endif

/* What the compiler of this source has: out[0] = 1 where the fp64 kernels were built */
GMB_KERNEL ovl_caps(GMB_GLOBAL gmb_u32 *out)
{
    if (GMB_GID == 0)
        out[0] = OVL_FP64;
}

#endif
