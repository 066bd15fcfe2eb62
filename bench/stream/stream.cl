/* stream.cl - streaming kernels (OpenCL C and, through gmb_kernels.h, CUDA): one source.
 * Built once per element width: GMB_LANES = 1, 2, 4 floats (4, 8, 16-byte accesses).
 * Every loop has 4 independent accesses in flight per work-item. Five layouts: grid-stride
 * (element i belongs to work-item i mod (global size), which the reductions' verification
 * relies on), tiled (GMB_TILED: tiles of 4 x group size elements, group g the tiles g, g +
 * groups, ...), lockstep (GMB_TILED with GMB_LOCKSTEP: the same tiles, a group barrier after
 * each), flat (GMB_FLAT=J: one pass, group g the J x group size elements from g x J x group
 * size, no loop but J unrolled accesses: J = 1 is BabelStream's shape) and dynamic
 * (GMB_DYNAMIC: chunks claimed from a counter; the reductions' verification reads which group
 * took each). A group barrier after each tile lets an implementation that runs a group's
 * work-items as a loop (PoCL on a CPU) make each tile one vector loop over consecutive
 * work-items instead of one strided walk per work-item. */
#undef T
#undef T_ZERO
#undef T_HSUM
#undef T_RAND
#undef T_FILL
#define FILL1(s, j) ((s) + (float)((gmb_u32)(j)&0xffffu))
#if GMB_LANES == 1
#define T               float
#define T_ZERO          0.0f
#define T_HSUM(v)       (v)
#define T_RAND(seed, i) gmb_rand_float(seed, i)
#define T_FILL(s, i)    FILL1(s, i)
#elif GMB_LANES == 2
#define T               float2
#define T_ZERO          GMB_FLOAT2(0.0f, 0.0f)
#define T_HSUM(v)       ((v).x + (v).y)
#define T_RAND(seed, i) GMB_FLOAT2(gmb_rand_float(seed, 2 * (i)), gmb_rand_float(seed, 2 * (i) + 1))
#define T_FILL(s, i)    GMB_FLOAT2(FILL1(s, 2 * (i)), FILL1(s, 2 * (i) + 1))
#else
#define T         float4
#define T_ZERO    GMB_FLOAT4(0.0f, 0.0f, 0.0f, 0.0f)
#define T_HSUM(v) (((v).x + (v).y) + ((v).z + (v).w))
#define T_RAND(seed, i)                                                                            \
    GMB_FLOAT4(gmb_rand_float(seed, 4 * (i)), gmb_rand_float(seed, 4 * (i) + 1),                   \
               gmb_rand_float(seed, 4 * (i) + 2), gmb_rand_float(seed, 4 * (i) + 3))
#define T_FILL(s, i)                                                                               \
    GMB_FLOAT4(FILL1(s, 4 * (i)), FILL1(s, 4 * (i) + 1), FILL1(s, 4 * (i) + 2),                    \
               FILL1(s, 4 * (i) + 3))
#endif

/* Loads of the inputs a[] and b[] (never written by the kernel that reads them). Built with
 * GMB_L2_PREFETCH (CUDA, sm_80 on): PTX ld.global.nc.L2::256B, which asks L2 to fetch the
 * 256-byte block around each access from DRAM; else a plain load. */
#undef STREAM_LD
#undef STREAM_LDQ
#if defined(GMB_L2_PREFETCH) && GMB_L2_PREFETCH
#define STREAM_LDQ "ld.global.nc.L2::256B" /* w16p */
#else
#define STREAM_LDQ "ld.global.nc" /* w16a: the same loads without the hint, its control */
#endif
#if defined(__CUDACC__) && defined(GMB_L2_PREFETCH) && defined(__CUDA_ARCH__) &&                   \
    __CUDA_ARCH__ >= 800
static __device__ __forceinline__ float stream_ld(const float *p)
{
    float v;
    asm volatile(STREAM_LDQ ".f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_global(p)));
    return v;
}
static __device__ __forceinline__ float2 stream_ld(const float2 *p)
{
    float2 v;
    asm volatile(STREAM_LDQ ".v2.f32 {%0, %1}, [%2];"
                 : "=f"(v.x), "=f"(v.y)
                 : "l"(__cvta_generic_to_global(p)));
    return v;
}
static __device__ __forceinline__ float4 stream_ld(const float4 *p)
{
    float4 v;
    asm volatile(STREAM_LDQ ".v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(__cvta_generic_to_global(p)));
    return v;
}
#define STREAM_LD(p, k) stream_ld((p) + (k))
#elif defined(__CUDACC__) && defined(GMB_EVICT_FIRST) && GMB_EVICT_FIRST == 2
#define STREAM_LD(p, k) __ldcs((p) + (k)) /* w16e: ld.global.cs, evict-first */
#else
#define STREAM_LD(p, k) (p)[k]
#endif
/* Stores of the output c[]: plain, or (CUDA, GMB_EVICT_FIRST: w16s, w16e) st.global.cs, the
 * evict-first streaming store */
#undef STREAM_ST
#if defined(__CUDACC__) && defined(GMB_EVICT_FIRST) && GMB_EVICT_FIRST
#define STREAM_ST(p, k, v) __stcs((p) + (k), (v))
#else
#define STREAM_ST(p, k, v) ((p)[k] = (v))
#endif

#ifndef STREAM_MAX_WG
#define STREAM_MAX_WG 1024
#endif

/* a[i] = pseudo-random in [1,2): the inputs, identical for every width */
GMB_KERNEL stream_init(GMB_GLOBAL T *GMB_RESTRICT a, gmb_u64 n, gmb_u32 seed)
{
    for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE)
        a[i] = T_RAND(seed, i);
}

/* The element-wise kernels: c[k] = OP(k), repeated reps times (reps > 1 only for sizes that
 * sit in a cache, so a sample is long enough to time); the barrier keeps repetitions apart.
 * Two layouts: grid-stride (default), element i in work-item i mod (global size), a group's
 * four accesses in flight a grid apart; and tiled (GMB_TILED), groups take tiles of 4 x group
 * size elements in turn, a group's four accesses one group size apart in one tile. */
#undef STREAM_LOCKSTEP
#if defined(GMB_LOCKSTEP) && GMB_LOCKSTEP
#define STREAM_LOCKSTEP() GMB_BARRIER() /* the lockstep layout: a barrier after each tile */
#else
#define STREAM_LOCKSTEP() ((void)0)
#endif
/* Four elements d apart from i: the four loads first, then the four stores (c[k] = OP(k)) */
#undef STREAM_FOUR
#define STREAM_FOUR(OP, i, d)                                                                      \
    do {                                                                                           \
        const gmb_u64 i0_ = (i);                                                                   \
        T x0 = OP(i0_), x1 = OP(i0_ + (d)), x2 = OP(i0_ + 2 * (d)), x3 = OP(i0_ + 3 * (d));        \
        STREAM_ST(c, i0_, x0);                                                                     \
        STREAM_ST(c, i0_ + (d), x1);                                                               \
        STREAM_ST(c, i0_ + 2 * (d), x2);                                                           \
        STREAM_ST(c, i0_ + 3 * (d), x3);                                                           \
    } while (0)
/* The dynamic layout (GMB_DYNAMIC): a resident grid whose groups claim chunks of DYN_J x
 * group size elements (reps x chunks claims in all) from a counter (*ctr, zeroed before each
 * launch) until none is left: the groups a multiprocessor runs slowly take fewer chunks, so
 * none waits idle at the end as a fixed share of the array would make it. A group's next
 * claim is in flight while it streams its chunk; owner[t] = the group that took claim t. */
#define DYN_J 16 /* stream.c's DYN_J: the host counts claims and checks chunks by it */
#undef STREAM_CLAIMS
#define STREAM_CLAIMS(BODY)                                                                        \
    GMB_SHARED gmb_u32 nxt_[2];                                                                    \
    const gmb_u64 CL = (gmb_u64)DYN_J * GMB_LSIZE;                                                 \
    const gmb_u32 nc = (gmb_u32)((n + CL - 1) / CL), total = nc * reps;                            \
    if (GMB_LID == 0)                                                                              \
        nxt_[0] = GMB_ATOMIC_INC(ctr);                                                             \
    GMB_BARRIER();                                                                                 \
    gmb_u32 t = nxt_[0], p_ = 0;                                                                   \
    while (t < total) {                                                                            \
        gmb_u32 nt_ = 0;                                                                           \
        if (GMB_LID == 0) {                                                                        \
            nt_ = GMB_ATOMIC_INC(ctr);                                                             \
            owner[t] = GMB_GROUP;                                                                  \
        }                                                                                          \
        const gmb_u64 base = (gmb_u64)(t % nc) * CL;                                               \
        BODY;                                                                                      \
        if (GMB_LID == 0)                                                                          \
            nxt_[p_ ^ 1u] = nt_;                                                                   \
        GMB_BARRIER();                                                                             \
        p_ ^= 1u;                                                                                  \
        t = nxt_[p_];                                                                              \
    }
#undef STREAM_ELEMENTWISE
#if defined(GMB_DYNAMIC) && GMB_DYNAMIC
#define STREAM_ELEMENTWISE(NAME, OP)                                                               \
    GMB_KERNEL NAME(GMB_GLOBAL const T *GMB_RESTRICT a, GMB_GLOBAL const T *GMB_RESTRICT b,        \
                    GMB_GLOBAL T *GMB_RESTRICT c, gmb_u64 n, float s, gmb_u32 reps,                \
                    GMB_GLOBAL gmb_u32 *ctr, GMB_GLOBAL gmb_u32 *owner)                            \
    {                                                                                              \
        const gmb_u64 L = GMB_LSIZE;                                                               \
        STREAM_CLAIMS(                                                                             \
            if (base + CL <= n) {                                                                  \
                for (gmb_u32 j = 0; j < DYN_J; j += 4)                                             \
                    STREAM_FOUR(OP, base + j * L + GMB_LID, L);                                    \
            } else {                                                                               \
                for (gmb_u64 i = base + GMB_LID; i < n; i += L) /* the part chunk */               \
                    STREAM_ST(c, i, OP(i));                                                        \
            })                                                                                     \
    }
#elif defined(GMB_FLAT) && GMB_FLAT
/* One pass: reps is 1 (the host repeats launches); the last group's tile may be a part one */
#define STREAM_ELEMENTWISE(NAME, OP)                                                               \
    GMB_KERNEL NAME(GMB_GLOBAL const T *GMB_RESTRICT a, GMB_GLOBAL const T *GMB_RESTRICT b,        \
                    GMB_GLOBAL T *GMB_RESTRICT c, gmb_u64 n, float s, gmb_u32 reps)                \
    {                                                                                              \
        const gmb_u64 L = GMB_LSIZE, base = (gmb_u64)GMB_GROUP * (GMB_FLAT * L);                   \
        const gmb_u64 i = base + GMB_LID;                                                          \
        (void)reps;                                                                                \
        if (base + GMB_FLAT * L <= n) { /* a whole tile: one test for the group */                 \
            for (int j = 0; j < GMB_FLAT; j++)                                                     \
                STREAM_ST(c, i + j * L, OP(i + j * L));                                            \
        } else {                                                                                   \
            for (int j = 0; j < GMB_FLAT; j++)                                                     \
                if (i + j * L < n)                                                                 \
                    STREAM_ST(c, i + j * L, OP(i + j * L));                                        \
        }                                                                                          \
    }
#elif defined(GMB_TILED) && GMB_TILED
#define STREAM_ELEMENTWISE(NAME, OP)                                                               \
    GMB_KERNEL NAME(GMB_GLOBAL const T *GMB_RESTRICT a, GMB_GLOBAL const T *GMB_RESTRICT b,        \
                    GMB_GLOBAL T *GMB_RESTRICT c, gmb_u64 n, float s, gmb_u32 reps)                \
    {                                                                                              \
        const gmb_u64 L = GMB_LSIZE, TL = 4 * L, step = (GMB_GSIZE / L) * TL;                      \
        for (gmb_u32 r = 0; r < reps; r++) {                                                       \
            gmb_u64 base = (gmb_u64)GMB_GROUP * TL;                                                \
            for (; base + TL <= n; base += step) {                                                 \
                STREAM_FOUR(OP, base + GMB_LID, L);                                                \
                STREAM_LOCKSTEP();                                                                 \
            }                                                                                      \
            for (gmb_u64 i = base + GMB_LID; i < n && i < base + TL; i += L) /* a part tile */     \
                STREAM_ST(c, i, OP(i));                                                            \
            if (reps > 1)                                                                          \
                GMB_BARRIER();                                                                     \
        }                                                                                          \
    }
#else
#define STREAM_ELEMENTWISE(NAME, OP)                                                               \
    GMB_KERNEL NAME(GMB_GLOBAL const T *GMB_RESTRICT a, GMB_GLOBAL const T *GMB_RESTRICT b,        \
                    GMB_GLOBAL T *GMB_RESTRICT c, gmb_u64 n, float s, gmb_u32 reps)                \
    {                                                                                              \
        const gmb_u64 g = GMB_GSIZE;                                                               \
        for (gmb_u32 r = 0; r < reps; r++) {                                                       \
            gmb_u64 i = GMB_GID;                                                                   \
            for (; i + 3 * g < n; i += 4 * g) {                                                    \
                STREAM_FOUR(OP, i, g);                                                             \
            }                                                                                      \
            for (; i < n; i += g)                                                                  \
                STREAM_ST(c, i, OP(i));                                                            \
            if (reps > 1)                                                                          \
                GMB_BARRIER();                                                                     \
        }                                                                                          \
    }
#endif

#define OP_FILL(k)  T_FILL(s, k)
#define OP_COPY(k)  STREAM_LD(a, k)
#define OP_SCALE(k) (s * STREAM_LD(a, k))
#define OP_ADD(k)   (STREAM_LD(a, k) + STREAM_LD(b, k))
#define OP_TRIAD(k) (STREAM_LD(a, k) + s * STREAM_LD(b, k))
STREAM_ELEMENTWISE(stream_fill, OP_FILL)
STREAM_ELEMENTWISE(stream_copy, OP_COPY)
STREAM_ELEMENTWISE(stream_scale, OP_SCALE)
STREAM_ELEMENTWISE(stream_add, OP_ADD)
STREAM_ELEMENTWISE(stream_triad, OP_TRIAD)

/* The reductions: each work-group writes the sum of its work-items' terms to part[group]
 * (group size: a power of two <= STREAM_MAX_WG). */
/* The group's sum of red[] into part[group] */
#undef STREAM_TREE
#define STREAM_TREE()                                                                              \
    GMB_BARRIER();                                                                                 \
    for (gmb_u32 w = GMB_LSIZE / 2; w > 0; w >>= 1) {                                              \
        if (GMB_LID < w)                                                                           \
            red[GMB_LID] += red[GMB_LID + w];                                                      \
        GMB_BARRIER();                                                                             \
    }                                                                                              \
    if (GMB_LID == 0)                                                                              \
        part[GMB_GROUP] = red[0];
/* The fixed-grid reductions' head: the kernel, its arguments and the group's red[] */
#undef STREAM_REDUCE_HEAD
#define STREAM_REDUCE_HEAD(NAME)                                                                   \
    GMB_KERNEL NAME(GMB_GLOBAL const T *GMB_RESTRICT a, GMB_GLOBAL const T *GMB_RESTRICT b,        \
                    GMB_GLOBAL float *GMB_RESTRICT part, gmb_u64 n, gmb_u32 reps)                  \
    {                                                                                              \
        GMB_SHARED float red[STREAM_MAX_WG];
/* The fixed-grid reductions' repetitions: PASS adds a pass's terms into s0..s3; their sum
 * over the repetitions goes to the group's tree (the kernel's closing brace included) */
#undef STREAM_REDUCE_REPS
#define STREAM_REDUCE_REPS(PASS)                                                                   \
    float acc = 0.0f;                                                                              \
    for (gmb_u32 r = 0; r < reps; r++) {                                                           \
        T s0 = T_ZERO, s1 = T_ZERO, s2 = T_ZERO, s3 = T_ZERO;                                      \
        PASS acc += T_HSUM((s0 + s1) + (s2 + s3));                                                 \
        if (reps > 1)                                                                              \
            GMB_BARRIER();                                                                         \
    }                                                                                              \
    red[GMB_LID] = acc;                                                                            \
    STREAM_TREE()                                                                                  \
    }
#undef STREAM_REDUCE
#if defined(GMB_DYNAMIC) && GMB_DYNAMIC
#define STREAM_REDUCE(NAME, TERM)                                                                  \
    GMB_KERNEL NAME(GMB_GLOBAL const T *GMB_RESTRICT a, GMB_GLOBAL const T *GMB_RESTRICT b,        \
                    GMB_GLOBAL float *GMB_RESTRICT part, gmb_u64 n, gmb_u32 reps,                  \
                    GMB_GLOBAL gmb_u32 *ctr, GMB_GLOBAL gmb_u32 *owner)                            \
    {                                                                                              \
        GMB_SHARED float red[STREAM_MAX_WG];                                                       \
        const gmb_u64 L = GMB_LSIZE;                                                               \
        T s0 = T_ZERO, s1 = T_ZERO, s2 = T_ZERO, s3 = T_ZERO;                                      \
        STREAM_CLAIMS(                                                                             \
            if (base + CL <= n) {                                                                  \
                for (gmb_u32 j = 0; j < DYN_J; j += 4) {                                           \
                    const gmb_u64 i = base + j * L + GMB_LID;                                      \
                    s0 = s0 + TERM(i);                                                             \
                    s1 = s1 + TERM(i + L);                                                         \
                    s2 = s2 + TERM(i + 2 * L);                                                     \
                    s3 = s3 + TERM(i + 3 * L);                                                     \
                }                                                                                  \
            } else {                                                                               \
                for (gmb_u64 i = base + GMB_LID; i < n; i += L) /* the part chunk */               \
                    s0 = s0 + TERM(i);                                                             \
            })                                                                                     \
        red[GMB_LID] = T_HSUM((s0 + s1) + (s2 + s3));                                              \
        STREAM_TREE()                                                                              \
    }
#elif defined(GMB_FLAT) && GMB_FLAT
/* One pass (reps 1): a work-item's GMB_FLAT terms, then the group's tree. No branch on the
 * bounds (one keeps PoCL from vectorising the group's loop over work-items: 2x slower on a
 * CPU): the last tile reads on into padding the host allocates past every array (at least
 * GMB_FLAT x group size elements) and adds zero for those elements. */
#define STREAM_REDUCE(NAME, TERM)                                                                  \
    STREAM_REDUCE_HEAD(NAME)                                                                       \
    const gmb_u64 L = GMB_LSIZE, base = (gmb_u64)GMB_GROUP * (GMB_FLAT * L);                       \
    const gmb_u64 i = base + GMB_LID;                                                              \
    T s0 = T_ZERO;                                                                                 \
    (void)reps;                                                                                    \
    for (int j = 0; j < GMB_FLAT; j++) {                                                           \
        const T v = TERM(i + j * L); /* past n: the host's padding, read and not added */          \
        s0 = s0 + (i + j * L < n ? v : T_ZERO);                                                    \
    }                                                                                              \
    red[GMB_LID] = T_HSUM(s0);                                                                     \
    STREAM_TREE()                                                                                  \
    }
#elif defined(GMB_LOCKSTEP) && GMB_LOCKSTEP
/* The lockstep layout's reductions: the tiles of the tiled layout, a barrier after each */
#define STREAM_REDUCE(NAME, TERM)                                                                  \
    STREAM_REDUCE_HEAD(NAME)                                                                       \
    const gmb_u64 L = GMB_LSIZE, TL = 4 * L, step = (GMB_GSIZE / L) * TL;                          \
    STREAM_REDUCE_REPS(                                                                            \
        gmb_u64 base = (gmb_u64)GMB_GROUP * TL; for (; base + TL <= n; base += step) {             \
            const gmb_u64 i = base + GMB_LID;                                                      \
            s0 = s0 + TERM(i);                                                                     \
            s1 = s1 + TERM(i + L);                                                                 \
            s2 = s2 + TERM(i + 2 * L);                                                             \
            s3 = s3 + TERM(i + 3 * L);                                                             \
            GMB_BARRIER();                                                                         \
        } /* a part tile */                                                                        \
        for (gmb_u64 i = base + GMB_LID; i < n && i < base + TL; i += L) { s0 = s0 + TERM(i); })
#else
#define STREAM_REDUCE(NAME, TERM)                                                                  \
    STREAM_REDUCE_HEAD(NAME)                                                                       \
    const gmb_u64 g = GMB_GSIZE;                                                                   \
    STREAM_REDUCE_REPS(gmb_u64 i = GMB_GID; for (; i + 3 * g < n; i += 4 * g) {                    \
        s0 = s0 + TERM(i);                                                                         \
        s1 = s1 + TERM(i + g);                                                                     \
        s2 = s2 + TERM(i + 2 * g);                                                                 \
        s3 = s3 + TERM(i + 3 * g);                                                                 \
    } for (; i < n; i += g) s0 = s0 + TERM(i);)
#endif
#define TERM_READ(k) STREAM_LD(a, k)
#define TERM_DOT(k)  (STREAM_LD(a, k) * STREAM_LD(b, k))
STREAM_REDUCE(stream_read, TERM_READ)
STREAM_REDUCE(stream_dot, TERM_DOT)
