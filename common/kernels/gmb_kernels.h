/* gmb_kernels.h - one dialect for kernels shared by OpenCL C, CUDA and host C (verification).
 * OpenCL gets this file prepended to a benchmark's .cl at build time; a .cu includes it and
 * then the same .cl; host code includes it for the data generators. */
#ifndef GMB_KERNELS_H
#define GMB_KERNELS_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
typedef uint gmb_u32;
typedef ulong gmb_u64;
#define GMB_FN                    inline
#define GMB_KERNEL                __kernel void
#define GMB_GLOBAL                __global
#define GMB_SHARED                __local
#define GMB_LOCAL_AS              __local /* address space of a pointer into GMB_SHARED memory */
#define GMB_RESTRICT              restrict
#define GMB_GID                   ((gmb_u64)get_global_id(0))
#define GMB_GSIZE                 ((gmb_u64)get_global_size(0))
#define GMB_LID                   ((gmb_u32)get_local_id(0))
#define GMB_LSIZE                 ((gmb_u32)get_local_size(0))
#define GMB_GROUP                 ((gmb_u32)get_group_id(0))
#define GMB_BARRIER()             barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define GMB_AS_FLOAT(u)           as_float(u)
#define GMB_HAVE_CLOCK            0 /* OpenCL C has no cycle counter: cycles are derived from ns */
#define GMB_CLOCK()               ((gmb_u64)0)
#define GMB_CLOCK_FENCE(T, lv, v) ((lv) = (v)) /* no clock to order: a plain store */
/* dynamic shared memory (gmb_launch_t.shared_bytes): a trailing kernel parameter here */
#define GMB_DYN_SHARED_PARAM(T, name) , __local T *name
#define GMB_DYN_SHARED(T, name)
#define GMB_FLOAT2(a, b)       ((float2)((a), (b)))
#define GMB_FLOAT4(a, b, c, d) ((float4)((a), (b), (c), (d)))
#define GMB_UINT2(a, b)        ((uint2)((a), (b)))
#define GMB_UINT4(a, b, c, d)  ((uint4)((a), (b), (c), (d)))
#define GMB_MULHI32(a, b)      mul_hi((gmb_u32)(a), (gmb_u32)(b))
#define GMB_ATOMIC_INC(p)      atomic_inc((volatile __global gmb_u32 *)(p)) /* old value */
#elif defined(__CUDACC__)
typedef unsigned int gmb_u32;
typedef unsigned long long gmb_u64;
#define GMB_FN     static __device__ inline
#define GMB_KERNEL __global__ void
#define GMB_GLOBAL
#define GMB_SHARED                __shared__
#define GMB_LOCAL_AS              /* CUDA: generic pointers reach shared memory */
#define GMB_RESTRICT              __restrict__
#define GMB_GID                   ((gmb_u64)blockIdx.x * blockDim.x + threadIdx.x)
#define GMB_GSIZE                 ((gmb_u64)gridDim.x * blockDim.x)
#define GMB_LID                   ((gmb_u32)threadIdx.x)
#define GMB_LSIZE                 ((gmb_u32)blockDim.x)
#define GMB_GROUP                 ((gmb_u32)blockIdx.x)
#define GMB_BARRIER()             __syncthreads()
#define GMB_AS_FLOAT(u)           __uint_as_float(u)
#define GMB_HAVE_CLOCK            1 /* the SM's cycle counter */
#define GMB_CLOCK()               ((gmb_u64)clock64())
/* GMB_CLOCK_FENCE(T, lv, v): lv = v, a store of the last load's value just before a clock
 * read: GPUs issue in order, so the clock is read only once that load is back. volatile,
 * since a later store to lv makes it dead to the compiler, which could then drop it. */
#define GMB_CLOCK_FENCE(T, lv, v) (*(volatile T *)&(lv) = (v))
/* dynamic shared memory (gmb_launch_t.shared_bytes): the launch's extern __shared__ array */
#define GMB_DYN_SHARED_PARAM(T, name)
#define GMB_DYN_SHARED(T, name)                                                                    \
    extern __shared__ unsigned char gmb_dyn_shared_[];                                             \
    T *name = (T *)gmb_dyn_shared_
#define GMB_FLOAT2(a, b)       make_float2((a), (b))
#define GMB_FLOAT4(a, b, c, d) make_float4((a), (b), (c), (d))
#define GMB_UINT2(a, b)        make_uint2((a), (b))
#define GMB_UINT4(a, b, c, d)  make_uint4((a), (b), (c), (d))
#define GMB_MULHI32(a, b)      __umulhi((a), (b))
#define GMB_ATOMIC_INC(p)      atomicAdd((p), 1u) /* the old value */
/* the vector arithmetic OpenCL C has built in */
static __device__ inline float2 operator+(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}
static __device__ inline float4 operator+(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
static __device__ inline float2 operator*(float2 a, float2 b)
{
    return make_float2(a.x * b.x, a.y * b.y);
}
static __device__ inline float4 operator*(float4 a, float4 b)
{
    return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
}
static __device__ inline float2 operator*(float s, float2 a)
{
    return make_float2(s * a.x, s * a.y);
}
static __device__ inline float4 operator*(float s, float4 a)
{
    return make_float4(s * a.x, s * a.y, s * a.z, s * a.w);
}
#else                                             /* host C */
#include <stdint.h>
#include <string.h>
typedef uint32_t gmb_u32;
typedef uint64_t gmb_u64;
#define GMB_FN            static inline
static inline float gmb_host_as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
#define GMB_AS_FLOAT(u)   gmb_host_as_float(u)
/* GMB_MULHI32(a, b): the high 32 bits of a x b, 32-bit operands (mul.hi.u32 on CUDA) */
#define GMB_MULHI32(a, b) ((gmb_u32)(((uint64_t)(gmb_u32)(a) * (gmb_u32)(b)) >> 32))
#endif

/* A 32-bit hash of (seed, index): the pseudo-random data every benchmark fills its buffers
 * with, recomputable on the host for verification without reading the buffers back. */
GMB_FN gmb_u32 gmb_hash(gmb_u32 seed, gmb_u64 i)
{
    gmb_u32 x = (gmb_u32)i ^ ((gmb_u32)(i >> 32) * 0x9e3779b9u) ^ (seed * 0x85ebca6bu);
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* A float in [1, 2) from the hash: exact on every device and on the host. */
GMB_FN float gmb_rand_float(gmb_u32 seed, gmb_u64 i)
{
    return GMB_AS_FLOAT(0x3f800000u | (gmb_hash(seed, i) >> 9));
}

/* gmb-access's random blocks: the block read in place of block q of a pass, one of nb >= 1,
 * drawn with replacement: gmb_hash(key, q) (q fits 32 bits, so its high-word multiply folds
 * away and key's is loop-invariant: two multiplies, three xor-shifts) scaled to [0, nb) by a
 * multiply-high, floor(h x nb / 2^32): one instruction (mul.hi.u32), where h % nb would cost
 * a GPU a division routine. q < 2^32: a buffer holds under 2^32 words. */
GMB_FN gmb_u32 gmb_block_pick(gmb_u32 key, gmb_u32 q, gmb_u32 nb)
{
    return GMB_MULHI32(gmb_hash(key, q), nb);
}

/* gmb-access's random blocks read (written) as vectors of 2^lw words, lw = min(lb, 2) (uint4
 * for blocks of 16 bytes or more, uint2 for 8, a word for 4: gmb_access_lw): the vector that
 * vector v of a pass reads, v in blocks of 2^lbv vectors (lbv = lb - lw: v >> lbv the block,
 * the low lbv bits the vector in it), its block placed by gmb_block_pick, the same vector of
 * that block, by shifts (no multiply). order = 0: the picked block; order = all ones: the
 * block itself (the read is v: in order, contiguous), with the same instructions (the hash is
 * computed either way). The kernels and the host's verification both use it. */
GMB_FN gmb_u64 gmb_block_vec(gmb_u64 v, gmb_u32 lbv, gmb_u32 key, gmb_u32 nb, gmb_u32 order)
{
    gmb_u32 q = (gmb_u32)(v >> lbv);
    gmb_u32 p = (gmb_block_pick(key, q, nb) & ~order) | (q & order);
    return ((gmb_u64)p << lbv) | ((gmb_u32)v & ((1u << lbv) - 1u));
}

/* log2 of the words per vector of a block of 2^lb words: 2 (uint4) from 4 words, 1 (uint2)
 * for 2, 0 for 1 */
GMB_FN gmb_u32 gmb_access_lw(gmb_u32 lb)
{
    return lb < 2u ? lb : 2u;
}

/* What gmb-access's random-write writes to word d: one hash per 4-word group (d >> 2) plus
 * the word's place in it times the golden ratio's 32 bits, a function of d alone (a block
 * drawn twice is written twice alike; the buffer after a launch does not depend on the order
 * of the stores), one hash per uint4 vector. d < 2^32 (the hash's high-word term folds). */
#define GMB_WRITE_STEP 0x9e3779b9u
GMB_FN gmb_u32 gmb_write_value(gmb_u32 wseed, gmb_u64 d)
{
    return gmb_hash(wseed, (gmb_u32)d >> 2) + ((gmb_u32)d & 3u) * GMB_WRITE_STEP;
}

#endif
