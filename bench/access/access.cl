/* access.cl - gmb-access kernels (OpenCL C and, through gmb_kernels.h, CUDA): one source.
 * A buffer of 4-byte words holds gmb_hash(seed, i); work-item j of the grid reads the words
 * at byte offset + (j + k x G) x stride for k = 0, 1, ... (G work-items in all), so the
 * work-items of a warp read words stride bytes apart: stride 4 is the contiguous, coalesced
 * case, larger strides leave bytes of every line or sector unread. access_random reads
 * blocks of the buffer placed at random (gmb_block_vec), as vectors; access_random_write
 * writes them. */

GMB_KERNEL access_init(GMB_GLOBAL gmb_u32 *a, gmb_u64 n, gmb_u32 seed)
{
    for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE)
        a[i] = gmb_hash(seed, i);
}

/* CUDA: loads cached in the L2 only (ld.global.cg): a work-item reads the same words every
 * pass, so an SM's share of a cache-sized buffer would otherwise be served by its L1; the
 * cache-resident points are then the L2's. OpenCL has no such load (a GPU's L1 may serve). */
#if defined(__CUDACC__)
#define ACCESS_LD(p) __ldcg(p) /* asm volatile: no pass is folded into another */
#else
#define ACCESS_LD(p) (*(volatile GMB_GLOBAL const gmb_u32 *)(p)) /* nor here */
#endif

/* reps passes over nacc reads (word index off + j x sw), eight in flight per work-item (a
 * warp issues its eight loads, then waits: enough bytes in flight to be the memory's limit
 * when the grid fills the device); out[gid] = the wrapping sum of the words it read, which
 * the host recomputes */
GMB_KERNEL access_read(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u32 *out, gmb_u64 nacc,
                       gmb_u32 sw, gmb_u32 off, gmb_u32 reps)
{
    gmb_u64 G = GMB_GSIZE;
    gmb_u32 s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    GMB_GLOBAL const gmb_u32 *b = a + off;
    for (gmb_u32 r = 0; r < reps; r++) {
        gmb_u64 j = GMB_GID;
        for (; j + 7 * G < nacc; j += 8 * G) {
            s0 += ACCESS_LD(b + j * sw);
            s1 += ACCESS_LD(b + (j + G) * sw);
            s2 += ACCESS_LD(b + (j + 2 * G) * sw);
            s3 += ACCESS_LD(b + (j + 3 * G) * sw);
            s4 += ACCESS_LD(b + (j + 4 * G) * sw);
            s5 += ACCESS_LD(b + (j + 5 * G) * sw);
            s6 += ACCESS_LD(b + (j + 6 * G) * sw);
            s7 += ACCESS_LD(b + (j + 7 * G) * sw);
        }
        for (; j < nacc; j += G)
            s0 += ACCESS_LD(b + j * sw);
    }
    out[GMB_GID] = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

/* the random blocks' loads, as ACCESS_LD, of a vector type T (gmb_u32, uint2, uint4): CUDA's
 * __ldcg has the uint2 and uint4 overloads (ld.global.cg.v2 / .v4) */
#if defined(__CUDACC__)
#define ACCESS_LDV(T, p) __ldcg((const T *)(p))
#else
#define ACCESS_LDV(T, p) (*(volatile GMB_GLOBAL const T *)(p))
#endif

/* a vector's words summed (wrapping) */
GMB_FN gmb_u32 access_sum1(gmb_u32 v)
{
    return v;
}
GMB_FN gmb_u32 access_sum2(uint2 v)
{
    return v.x + v.y;
}
GMB_FN gmb_u32 access_sum4(uint4 v)
{
    return (v.x + v.y) + (v.z + v.w);
}

/* random blocks: reps passes over nvec vector reads of T (2^lw words: gmb_access_lw; nb blocks
 * of 2^lbv vectors, lbv = lb - lw); read v = j + k x G reads the vector gmb_block_vec(v) (the
 * same vector of a block gmb_block_pick placed, or with order all ones of its own block: in
 * order), so a warp's neighbouring work-items read neighbouring vectors of one block; eight
 * in flight per work-item, as access_read; out[gid] = the wrapping sum of the words it read
 * (two partial sums, not eight: the registers of access_read's occupancy). One block pick per
 * vector, the hash recomputed each read (no table: a table would be memory traffic of its
 * own); the block index fits 32 bits (nb < 2^32), v stays 64-bit. One kernel per width:
 * access_random (words, 4-byte blocks), access_random2 (uint2, 8-byte), access_random4 (uint4,
 * 16 bytes and more). */
#define ACCESS_RANDOM(NAME, T, SUM)                                                                \
    GMB_KERNEL NAME(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u32 *out, gmb_u64 nvec,            \
                    gmb_u32 lbv, gmb_u32 key, gmb_u32 nb, gmb_u32 order, gmb_u32 reps)             \
    {                                                                                              \
        GMB_GLOBAL const T *b = (GMB_GLOBAL const T *)a;                                           \
        gmb_u64 G = GMB_GSIZE;                                                                     \
        gmb_u32 s0 = 0, s1 = 0;                                                                    \
        for (gmb_u32 r = 0; r < reps; r++) {                                                       \
            gmb_u64 v = GMB_GID;                                                                   \
            for (; v + 7 * G < nvec; v += 8 * G) {                                                 \
                T v0 = ACCESS_LDV(T, b + gmb_block_vec(v, lbv, key, nb, order));                   \
                T v1 = ACCESS_LDV(T, b + gmb_block_vec(v + G, lbv, key, nb, order));               \
                T v2 = ACCESS_LDV(T, b + gmb_block_vec(v + 2 * G, lbv, key, nb, order));           \
                T v3 = ACCESS_LDV(T, b + gmb_block_vec(v + 3 * G, lbv, key, nb, order));           \
                T v4 = ACCESS_LDV(T, b + gmb_block_vec(v + 4 * G, lbv, key, nb, order));           \
                T v5 = ACCESS_LDV(T, b + gmb_block_vec(v + 5 * G, lbv, key, nb, order));           \
                T v6 = ACCESS_LDV(T, b + gmb_block_vec(v + 6 * G, lbv, key, nb, order));           \
                T v7 = ACCESS_LDV(T, b + gmb_block_vec(v + 7 * G, lbv, key, nb, order));           \
                s0 += (SUM(v0) + SUM(v1)) + (SUM(v2) + SUM(v3));                                   \
                s1 += (SUM(v4) + SUM(v5)) + (SUM(v6) + SUM(v7));                                   \
            }                                                                                      \
            for (; v < nvec; v += G)                                                               \
                s0 += SUM(ACCESS_LDV(T, b + gmb_block_vec(v, lbv, key, nb, order)));               \
        }                                                                                          \
        out[GMB_GID] = s0 + s1;                                                                    \
    }
ACCESS_RANDOM(access_random, gmb_u32, access_sum1)
ACCESS_RANDOM(access_random2, uint2, access_sum2)
ACCESS_RANDOM(access_random4, uint4, access_sum4)

/* CUDA: stores cached in the L2 only (st.global.cg, .v2 / .v4 for the vectors), as the loads
 * are; asm volatile with a memory clobber, so every pass's stores are made (each pass writes
 * the same values to the same words: a compiler could otherwise keep the last pass's only).
 * OpenCL: volatile stores (a GPU's L1 is write-through on NVIDIA either way). */
#if defined(__CUDACC__)
static __device__ __forceinline__ void access_st1(gmb_u32 *p, gmb_u32 v)
{
    asm volatile("st.global.cg.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "r"(v)
                 : "memory");
}
static __device__ __forceinline__ void access_st2(uint2 *p, uint2 v)
{
    asm volatile("st.global.cg.v2.u32 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), "r"(v.x),
                 "r"(v.y)
                 : "memory");
}
static __device__ __forceinline__ void access_st4(uint4 *p, uint4 v)
{
    asm volatile("st.global.cg.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)),
                 "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}
#define ACCESS_ST1(p, v) access_st1((p), (v))
#define ACCESS_ST2(p, v) access_st2((p), (v))
#define ACCESS_ST4(p, v) access_st4((p), (v))
#else
#define ACCESS_ST1(p, v) (*(volatile GMB_GLOBAL gmb_u32 *)(p) = (v))
#define ACCESS_ST2(p, v) (*(volatile GMB_GLOBAL uint2 *)(p) = (v))
#define ACCESS_ST4(p, v) (*(volatile GMB_GLOBAL uint4 *)(p) = (v))
#endif

/* write vector v (of 1, 2 or 4 words) its words' gmb_write_value: a function of the word
 * alone (a block drawn twice gets the same values twice, and the buffer after a launch does
 * not depend on the order of the stores); one hash per vector for uint2 and uint4 (word d =
 * 4v + k of a uint4: hash(wseed, v) + k x step; d = 2v + k of a uint2: hash(wseed, v >> 1) +
 * (2 (v & 1) + k) x step). d < 2^32: a buffer holds under 2^32 words. */
GMB_FN void access_put1(GMB_GLOBAL gmb_u32 *b, gmb_u64 v, gmb_u32 wseed)
{
    ACCESS_ST1(b + v, gmb_write_value(wseed, v));
}
GMB_FN void access_put2(GMB_GLOBAL uint2 *b, gmb_u64 v, gmb_u32 wseed)
{
    gmb_u32 h = gmb_hash(wseed, (gmb_u32)v >> 1) + ((gmb_u32)v & 1u) * (2u * GMB_WRITE_STEP);
    ACCESS_ST2(b + v, GMB_UINT2(h, h + GMB_WRITE_STEP));
}
GMB_FN void access_put4(GMB_GLOBAL uint4 *b, gmb_u64 v, gmb_u32 wseed)
{
    gmb_u32 h = gmb_hash(wseed, (gmb_u32)v);
    ACCESS_ST4(b + v,
               GMB_UINT4(h, h + GMB_WRITE_STEP, h + 2u * GMB_WRITE_STEP, h + 3u * GMB_WRITE_STEP));
}

/* random blocks written: access_random's placement, width and order (the same vectors, blocks
 * in place with order all ones), each work-item writing vector gmb_block_vec(v) its words'
 * gmb_write_value instead of reading it; eight stores issued per iteration as the reads are
 * (a store does not wait: this is the same loop overhead). The host reads the buffer back:
 * the words of the blocks picked hold gmb_write_value(wseed, d), the others what the buffer
 * held (gmb_hash(seed, i)). access_random_write, access_random_write2, access_random_write4. */
#define ACCESS_RANDOM_WRITE(NAME, T, PUT)                                                          \
    GMB_KERNEL NAME(GMB_GLOBAL gmb_u32 *a, gmb_u64 nvec, gmb_u32 lbv, gmb_u32 key, gmb_u32 nb,     \
                    gmb_u32 order, gmb_u32 wseed, gmb_u32 reps)                                    \
    {                                                                                              \
        GMB_GLOBAL T *b = (GMB_GLOBAL T *)a;                                                       \
        gmb_u64 G = GMB_GSIZE;                                                                     \
        for (gmb_u32 r = 0; r < reps; r++) {                                                       \
            gmb_u64 v = GMB_GID;                                                                   \
            for (; v + 7 * G < nvec; v += 8 * G) {                                                 \
                gmb_u64 d0 = gmb_block_vec(v, lbv, key, nb, order);                                \
                gmb_u64 d1 = gmb_block_vec(v + G, lbv, key, nb, order);                            \
                gmb_u64 d2 = gmb_block_vec(v + 2 * G, lbv, key, nb, order);                        \
                gmb_u64 d3 = gmb_block_vec(v + 3 * G, lbv, key, nb, order);                        \
                gmb_u64 d4 = gmb_block_vec(v + 4 * G, lbv, key, nb, order);                        \
                gmb_u64 d5 = gmb_block_vec(v + 5 * G, lbv, key, nb, order);                        \
                gmb_u64 d6 = gmb_block_vec(v + 6 * G, lbv, key, nb, order);                        \
                gmb_u64 d7 = gmb_block_vec(v + 7 * G, lbv, key, nb, order);                        \
                PUT(b, d0, wseed);                                                                 \
                PUT(b, d1, wseed);                                                                 \
                PUT(b, d2, wseed);                                                                 \
                PUT(b, d3, wseed);                                                                 \
                PUT(b, d4, wseed);                                                                 \
                PUT(b, d5, wseed);                                                                 \
                PUT(b, d6, wseed);                                                                 \
                PUT(b, d7, wseed);                                                                 \
            }                                                                                      \
            for (; v < nvec; v += G)                                                               \
                PUT(b, gmb_block_vec(v, lbv, key, nb, order), wseed);                              \
        }                                                                                          \
    }
ACCESS_RANDOM_WRITE(access_random_write, gmb_u32, access_put1)
ACCESS_RANDOM_WRITE(access_random_write2, uint2, access_put2)
ACCESS_RANDOM_WRITE(access_random_write4, uint4, access_put4)
