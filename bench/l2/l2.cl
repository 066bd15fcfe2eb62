/* l2.cl - L2 kernels (OpenCL C and, through gmb_kernels.h, CUDA): one source. Data are 32-bit
 * words from gmb_hash, read as uint4 and summed with wrap-around (exact in any order, so the
 * host checks every sum); stores write (word index x 0x9e3779b9) ^ key. CUDA loads and stores
 * go around L1 (PTX ld.global.cg / st.global.cg); OpenCL has no such access, so every kernel
 * rotates the work-items over the working set from one repetition to the next: a compute unit
 * reads data again only after the whole working set has gone by, and its L1 reuse is
 * negligible once the working set is well above one L1. */

#ifndef L2_MAX_WG
#define L2_MAX_WG 1024
#endif

#if defined(__CUDACC__)
static __device__ __forceinline__ uint4 l2_ld(const uint4 *p)
{
    uint4 v;
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}
static __device__ __forceinline__ void l2_st(uint4 *p, uint4 v)
{
    asm volatile("st.global.cg.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y),
                 "r"(v.z), "r"(v.w)
                 : "memory");
}
#define L2_LD(a, e)    l2_ld((a) + (e))
#define L2_ST(a, e, v) l2_st((a) + (e), (v))
#else
#define L2_LD(a, e)    ((a)[e])
#define L2_ST(a, e, v) ((a)[e] = (v))
#endif

#define L2_HSUM(v) ((v).x + (v).y + (v).z + (v).w)
/* the value stored at word w */
#define L2_WORD(w, key) ((gmb_u32)(w)*0x9e3779b9u ^ (key))

/* a[w] = gmb_hash(seed, w): the data every read kernel sums */
GMB_KERNEL l2_init(GMB_GLOBAL gmb_u32 *GMB_RESTRICT a, gmb_u64 nwords, gmb_u32 seed)
{
    for (gmb_u64 w = GMB_GID; w < nwords; w += GMB_GSIZE)
        a[w] = gmb_hash(seed, w);
}

/* Element e of repetition r is read by the work-item whose grid-stride index is i, with
 * e = (i + r x rot) mod n: every repetition reads every element once, and the elements of a
 * work-group move to other groups from one repetition to the next. */
#define L2_ROT(off, rot, n) ((off) + (rot) >= (n) ? ((off) + (rot)) % (n) : (off) + (rot))

/* Sum of reps passes over a[0..n) (uint4), one partial sum per work-group in part[]. */
GMB_KERNEL l2_read(GMB_GLOBAL const uint4 *GMB_RESTRICT a, GMB_GLOBAL gmb_u32 *GMB_RESTRICT part,
                   gmb_u64 n, gmb_u32 reps)
{
    GMB_SHARED gmb_u32 red[L2_MAX_WG];
    const gmb_u64 g = GMB_GSIZE, rot = GMB_LSIZE;
    gmb_u32 acc = 0;
    gmb_u64 off = 0;
    for (gmb_u32 r = 0; r < reps; r++) {
        gmb_u64 i = GMB_GID;
        for (; i + 3 * g < n; i += 4 * g) {
            gmb_u64 e0 = i + off, e1 = i + g + off, e2 = i + 2 * g + off, e3 = i + 3 * g + off;
            e0 = e0 >= n ? e0 - n : e0;
            e1 = e1 >= n ? e1 - n : e1;
            e2 = e2 >= n ? e2 - n : e2;
            e3 = e3 >= n ? e3 - n : e3;
            uint4 v0 = L2_LD(a, e0), v1 = L2_LD(a, e1), v2 = L2_LD(a, e2), v3 = L2_LD(a, e3);
            acc += (L2_HSUM(v0) + L2_HSUM(v1)) + (L2_HSUM(v2) + L2_HSUM(v3));
        }
        for (; i < n; i += g) {
            gmb_u64 e = i + off;
            e = e >= n ? e - n : e;
            uint4 v = L2_LD(a, e);
            acc += L2_HSUM(v);
        }
        off = L2_ROT(off, rot, n);
    }
    red[GMB_LID] = acc;
    GMB_BARRIER();
    for (gmb_u32 w = GMB_LSIZE / 2; w > 0; w >>= 1) {
        if (GMB_LID < w)
            red[GMB_LID] += red[GMB_LID + w];
        GMB_BARRIER();
    }
    if (GMB_LID == 0)
        part[GMB_GROUP] = red[0];
}

/* reps passes of stores over a[0..n) (uint4): word w gets L2_WORD(w, key) every time. */
GMB_KERNEL l2_write(GMB_GLOBAL uint4 *GMB_RESTRICT a, gmb_u64 n, gmb_u32 key, gmb_u32 reps)
{
    const gmb_u64 g = GMB_GSIZE, rot = GMB_LSIZE;
    gmb_u64 off = 0;
    for (gmb_u32 r = 0; r < reps; r++) {
        for (gmb_u64 i = GMB_GID; i < n; i += g) {
            gmb_u64 e = i + off;
            e = e >= n ? e - n : e;
            gmb_u32 w = (gmb_u32)(4 * e);
            uint4 v = GMB_UINT4(L2_WORD(w, key), L2_WORD(w + 1, key), L2_WORD(w + 2, key),
                                L2_WORD(w + 3, key));
            L2_ST(a, e, v);
        }
        off = L2_ROT(off, rot, n);
    }
}

#if defined(__CUDACC__)
/* Each 32-byte sector a cycle of its 8 words (a[w] = the next word of w's sector), so that
 * p = a[p] stays on the sector it starts on, and where a chase ends says how many loads it
 * made (mod 8) */
GMB_KERNEL l2_selfloop(gmb_u32 *a, gmb_u64 nwords)
{
    for (gmb_u64 w = GMB_GID; w < nwords; w += GMB_GSIZE)
        a[w] = (gmb_u32)((w & ~(gmb_u64)7) | ((w + 1) & 7));
}

static __device__ __forceinline__ gmb_u32 l2_ld32(const gmb_u32 *q)
{
    gmb_u32 v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(q));
    return v;
}

/* Latency from one SM to every line of a[]: the one work-item of the block that runs on SM
 * want_sm (and claims it first) loads each line once (into L2), then reps dependent loads of
 * the same sector, timed with the SM clock. cyc[j] = cycles of the reps loads of line j,
 * fin[j] = the word the chase ended on (j x line_words + (1 + reps) mod 8 when right). */
GMB_KERNEL l2_part_lat(const gmb_u32 *a, gmb_u32 nlines, gmb_u32 line_words, gmb_u32 reps,
                       gmb_u32 want_sm, gmb_u32 *claimed, gmb_u32 *cyc, gmb_u32 *fin)
{
    gmb_u32 sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (sm != want_sm || threadIdx.x != 0 || atomicCAS(claimed, 0u, 1u) != 0u)
        return;
    for (gmb_u32 j = 0; j < nlines; j++) {
        gmb_u32 p = l2_ld32(a + (gmb_u64)j * line_words);
        /* the store waits for the warm-up load: the clock starts after it */
        GMB_CLOCK_FENCE(gmb_u32, fin[j], p);
        gmb_u64 t0 = GMB_CLOCK();
        for (gmb_u32 r = 0; r < reps; r++)
            p = l2_ld32(a + p);
        fin[j] = p; /* ... and for the last timed load */
        gmb_u64 t1 = GMB_CLOCK();
        cyc[j] = (gmb_u32)(t1 - t0);
    }
}
#endif
