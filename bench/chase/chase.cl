/* chase.cl - pointer-chase kernels (OpenCL C and, through gmb_kernels.h, CUDA): one source.
 * A chain is a buffer of 4-byte words in which the word of each element holds the word offset
 * of the next: p = a[p], every load depends on the one before. One work-item chases; the
 * others only help copy a chain into shared/local memory. chase_word, chase_build and
 * chase_check (laying a chain out and checking it) are in common/kernels/gmb_chain_kernels.h. */

/* The chase: warm untimed loads, then steps timed ones (cycles from the SM clock where the
 * dialect has one). Storing p before each clock read makes the read wait for the last load:
 * GPUs issue in order, and the store needs p. out[0] = the word reached, out[1] = cycles. */
#define CHASE_BODY(LOAD)                                                                           \
    gmb_u32 p = start;                                                                             \
    for (gmb_u32 i = 0; i < warm; i++)                                                             \
        p = LOAD(p);                                                                               \
    GMB_CLOCK_FENCE(gmb_u64, out[0], p);                                                           \
    gmb_u64 t0 = GMB_CLOCK();                                                                      \
    for (gmb_u32 i = 0; i < steps; i++)                                                            \
        p = LOAD(p);                                                                               \
    out[0] = p;                                                                                    \
    gmb_u64 t1 = GMB_CLOCK();                                                                      \
    out[1] = t1 - t0;

/* global memory, default caching */
#define LOAD_GLOBAL(p) a[p]
GMB_KERNEL chase_global(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u64 *out, gmb_u32 start,
                        gmb_u32 warm, gmb_u32 steps)
{
    CHASE_BODY(LOAD_GLOBAL)
}

#if defined(__CUDACC__)
/* global memory, cached in L2 only (PTX ld.global.cg): L2 and DRAM without L1 */
static __device__ __forceinline__ gmb_u32 chase_ld_cg(const gmb_u32 *q)
{
    gmb_u32 v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(q));
    return v;
}
#define LOAD_CG(p) chase_ld_cg(a + (p))
GMB_KERNEL chase_global_cg(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u64 *out, gmb_u32 start,
                           gmb_u32 warm, gmb_u32 steps)
{
    CHASE_BODY(LOAD_CG)
}
#endif

/* global memory through atomic read-modify-writes: each step adds zero (a kernel argument the
 * host sets to 0, so no compiler can take the add for a plain load) and follows the value it
 * returns; the chain stays as it was. On GPUs atomics are done at the L2 (or beyond): the
 * curve is the atomic path's latency, L1 never holds the line. */
#if defined(__CUDACC__)
#define LOAD_ATOMIC(p) atomicAdd(a + (p), zero)
#else
#define LOAD_ATOMIC(p) atomic_add(a + (p), zero)
#endif
GMB_KERNEL chase_atomic(GMB_GLOBAL gmb_u32 *a, GMB_GLOBAL gmb_u64 *out, gmb_u32 start, gmb_u32 warm,
                        gmb_u32 steps, gmb_u32 zero){CHASE_BODY(LOAD_ATOMIC)}

/* global memory through the texture path: the chain viewed as a 1-D texture of 32-bit texels
 * (the backend's texture(): CUDA tex1Dfetch on a texture object over linear memory; OpenCL
 * read_imageui on an image1d_buffer_t, where the device has images) */
#if defined(__CUDACC__)
#define CHASE_TEX_ARG   cudaTextureObject_t t
#define LOAD_TEXTURE(p) tex1Dfetch<gmb_u32>(t, (int)(p))
#elif defined(__IMAGE_SUPPORT__)
#define CHASE_TEX_ARG   __read_only image1d_buffer_t t
#define LOAD_TEXTURE(p) read_imageui(t, (int)(p)).x
#endif
#if defined(CHASE_TEX_ARG)
GMB_KERNEL chase_texture(CHASE_TEX_ARG, GMB_GLOBAL gmb_u64 *out, gmb_u32 start, gmb_u32 warm,
                         gmb_u32 steps)
{
    CHASE_BODY(LOAD_TEXTURE)
}
#endif

/* Pointer chains (--pointers): the first 8 bytes of each element hold the address of the
 * next, so a step is one load and nothing else (p = *p). Made in place from a laid-out index
 * chain: each work-item reads its element's own word, then writes that element's first 8
 * bytes (elements are 8-byte aligned and at least 8 bytes apart). Addresses must hold from
 * one launch to the next: any CUDA allocation; OpenCL shared virtual memory. */
GMB_KERNEL chase_to_ptr(GMB_GLOBAL gmb_u32 *a, gmb_u32 n, gmb_u32 sw, gmb_u32 pw)
{
    for (gmb_u64 e = GMB_GID; e < n; e += GMB_GSIZE) {
        gmb_u32 w = chase_word(e, sw, pw);
        gmb_u32 next = a[w];
        *(GMB_GLOBAL gmb_u64 *)(a + w) = (gmb_u64)(size_t)(a + next);
    }
}

/* Check an address chain against its order, every element, as chase_check does. */
GMB_KERNEL chase_check_ptr(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL const gmb_u32 *order, gmb_u32 n,
                           gmb_u32 seq, gmb_u32 sw, gmb_u32 pw, GMB_GLOBAL gmb_u32 *bad)
{
    for (gmb_u64 k = GMB_GID; k < n; k += GMB_GSIZE) {
        gmb_u64 k1 = k + 1 == n ? 0 : k + 1;
        gmb_u64 e = seq ? k : order[k], f = seq ? k1 : order[k1];
        if (*(GMB_GLOBAL const gmb_u64 *)(a + chase_word(e, sw, pw)) !=
            (gmb_u64)(size_t)(a + chase_word(f, sw, pw)))
            bad[0] = (gmb_u32)k + 1u;
    }
}

#if defined(__CUDACC__)
static __device__ __forceinline__ const gmb_u64 *chase_ld_ptr(const gmb_u64 *q)
{
    gmb_u64 v;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(__cvta_generic_to_global(q)));
    return (const gmb_u64 *)v;
}
static __device__ __forceinline__ const gmb_u64 *chase_ld_ptr_cg(const gmb_u64 *q)
{
    gmb_u64 v;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(__cvta_generic_to_global(q)));
    return (const gmb_u64 *)v;
}
#else
#define chase_ld_ptr(q) ((GMB_GLOBAL const gmb_u64 *)(size_t)(*(q)))
#endif
/* As CHASE_BODY; out[0] = the word reached, converted after the clock read. */
#define CHASE_PTR_BODY(LOAD)                                                                       \
    GMB_GLOBAL const gmb_u64 *p = (GMB_GLOBAL const gmb_u64 *)(a + start);                         \
    for (gmb_u32 i = 0; i < warm; i++)                                                             \
        p = LOAD(p);                                                                               \
    GMB_CLOCK_FENCE(gmb_u64, out[0], (gmb_u64)(size_t)p);                                          \
    gmb_u64 t0 = GMB_CLOCK();                                                                      \
    for (gmb_u32 i = 0; i < steps; i++)                                                            \
        p = LOAD(p);                                                                               \
    out[0] = (gmb_u64)(size_t)p;                                                                   \
    gmb_u64 t1 = GMB_CLOCK();                                                                      \
    out[1] = t1 - t0;                                                                              \
    out[0] = (gmb_u64)((GMB_GLOBAL const gmb_u32 *)p - a);

GMB_KERNEL chase_global_ptr(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u64 *out, gmb_u32 start,
                            gmb_u32 warm, gmb_u32 steps)
{
    CHASE_PTR_BODY(chase_ld_ptr);
}

#if defined(__CUDACC__)
GMB_KERNEL chase_global_cg_ptr(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u64 *out, gmb_u32 start,
                               gmb_u32 warm, gmb_u32 steps)
{
    CHASE_PTR_BODY(chase_ld_ptr_cg);
}
#endif

/* shared (CUDA) / local (OpenCL) memory: the group copies nwords words of the chain into its
 * dynamic shared memory (nwords x 4 bytes, up to the device's maximum), then one work-item
 * chases */
#define LOAD_SHARED(p) s[p]
GMB_KERNEL chase_shared(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u64 *out, gmb_u32 start,
                        gmb_u32 warm, gmb_u32 steps,
                        gmb_u32 nwords GMB_DYN_SHARED_PARAM(gmb_u32, s))
{
    GMB_DYN_SHARED(gmb_u32, s);
    for (gmb_u32 i = GMB_LID; i < nwords; i += GMB_LSIZE)
        s[i] = a[i];
    GMB_BARRIER();
    if (GMB_LID == 0) {
        CHASE_BODY(LOAD_SHARED)
    }
}

#if defined(__CUDACC__)
/* --pointers in shared memory (CUDA): the copy-in turns each word offset into the 32-bit
 * shared-window address of its word, so a step is one ld.shared and nothing else. */
static __device__ __forceinline__ gmb_u32 chase_ld_shared_ptr(gmb_u32 q)
{
    gmb_u32 v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(q));
    return v;
}
GMB_KERNEL chase_shared_ptr(const gmb_u32 *a, gmb_u64 *out, gmb_u32 start, gmb_u32 warm,
                            gmb_u32 steps, gmb_u32 nwords)
{
    GMB_DYN_SHARED(gmb_u32, s);
    gmb_u32 base = (gmb_u32)__cvta_generic_to_shared(s);
    for (gmb_u32 i = GMB_LID; i < nwords; i += GMB_LSIZE)
        s[i] = base + a[i] * 4u; /* words that start no element: never followed */
    GMB_BARRIER();
    if (GMB_LID == 0) {
        gmb_u32 p = base + start * 4u;
        for (gmb_u32 i = 0; i < warm; i++)
            p = chase_ld_shared_ptr(p);
        GMB_CLOCK_FENCE(gmb_u64, out[0], p);
        gmb_u64 t0 = GMB_CLOCK();
        for (gmb_u32 i = 0; i < steps; i++)
            p = chase_ld_shared_ptr(p);
        GMB_CLOCK_FENCE(gmb_u64, out[0], p);
        gmb_u64 t1 = GMB_CLOCK();
        out[1] = t1 - t0;
        out[0] = (p - base) / 4u;
    }
}
#endif

#if defined(__CUDACC__)
/* distributed shared memory (CUDA, compute capability 9.0 on): a cluster of two groups, each
 * copies nwords words of the chain into its dynamic shared memory, followed by two tags (its
 * rank in the cluster and its SM); work-item 0 of the first chases the second's copy through
 * the cluster's shared window (mapa, ld.shared::cluster): one SM reading another SM's shared
 * memory over their GPC's SM-to-SM network (the host asks each group for more than half an
 * SM's shared memory, so the two cannot share one). Cluster barriers before (every copy is in)
 * and after (the second group keeps its shared memory until the chase is done). After the
 * timed loads the tags are read: a rank other than 1 (not the second group's memory) makes
 * out[0] a wrong word; out[2] = 1 when both groups ran on one SM after all. */
static __device__ __forceinline__ void chase_cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
}
static __device__ __forceinline__ gmb_u32 chase_ld_dsmem(gmb_u32 q)
{
    gmb_u32 v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(q));
    return v;
}
#define LOAD_DSMEM(p) chase_ld_dsmem(remote + (p)*4u)
GMB_KERNEL chase_dsmem(const gmb_u32 *a, gmb_u64 *out, gmb_u32 start, gmb_u32 warm, gmb_u32 steps,
                       gmb_u32 nwords)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    GMB_DYN_SHARED(gmb_u32, s);
    gmb_u32 rank, sm, remote; /* this group's rank in the cluster, its SM; the second's copy */
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote)
                 : "r"((gmb_u32)__cvta_generic_to_shared(s)), "r"(1u));
    for (gmb_u32 i = GMB_LID; i < nwords; i += GMB_LSIZE)
        s[i] = a[i];
    if (GMB_LID == 0) {
        s[nwords] = rank;
        s[nwords + 1] = sm;
    }
    chase_cluster_sync();
    if (rank == 0 && GMB_LID == 0) {
        CHASE_BODY(LOAD_DSMEM)
        gmb_u32 trank = chase_ld_dsmem(remote + nwords * 4u);
        gmb_u32 tsm = chase_ld_dsmem(remote + nwords * 4u + 4u);
        if (trank != 1u)
            out[0] = ~0ull;
        out[2] = tsm == sm;
    }
    chase_cluster_sync();
#else
    if (GMB_GID == 0) { /* no clusters before sm_90 (the host never asks): a wrong word */
        out[0] = ~0ull;
        out[1] = 0;
    }
#endif
}
#endif

/* constant memory: OpenCL passes a __constant buffer; CUDA reads the __constant__ array
 * chase_cmem that chase.cu declares and fills (the buffer argument is then unused) */
#if defined(__CUDACC__)
#define CHASE_CONST_ARG  GMB_GLOBAL const gmb_u32 *c
#define LOAD_CONSTANT(p) chase_cmem[p]
#else
#define CHASE_CONST_ARG  __constant gmb_u32 *c
#define LOAD_CONSTANT(p) c[p]
#endif
GMB_KERNEL chase_constant(CHASE_CONST_ARG, GMB_GLOBAL gmb_u64 *out, gmb_u32 start, gmb_u32 warm,
                          gmb_u32 steps)
{
    CHASE_BODY(LOAD_CONSTANT)
}
