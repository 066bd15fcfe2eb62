/* access.cl - gmb-access kernels (OpenCL C and, through gmb_kernels.h, CUDA): one source.
 * A buffer of 4-byte words holds gmb_hash(seed, i); work-item j of the grid reads the words
 * at byte offset + (j + k x G) x stride for k = 0, 1, ... (G work-items in all), so the
 * work-items of a warp read words stride bytes apart: stride 4 is the contiguous, coalesced
 * case, larger strides leave bytes of every line or sector unread. access_random reads
 * blocks of the buffer placed at random (gmb_block_word); access_random_write writes them. */

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

/* random blocks: reps passes over nacc reads (nb blocks of 2^lb words); read w = j + k x G
 * reads the word gmb_block_word(w) (the same word of a block gmb_block_pick placed, or with
 * order all ones of its own block: in order), so a warp's neighbouring work-items read
 * neighbouring words of one block; eight in flight per work-item, as access_read; out[gid] =
 * the wrapping sum of the words it read (two partial sums, not eight: 32 registers on sm_90,
 * as access_read, where eight took 34 and a quarter of the device's threads). The hash is
 * recomputed each read (no table: a table would be memory traffic of its own) and the block
 * index fits 32 bits (nb < 2^32); w stays 64-bit. */
GMB_KERNEL access_random(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL gmb_u32 *out, gmb_u64 nacc,
                         gmb_u32 lb, gmb_u32 key, gmb_u32 nb, gmb_u32 order, gmb_u32 reps)
{
    gmb_u64 G = GMB_GSIZE;
    gmb_u32 s0 = 0, s1 = 0;
    for (gmb_u32 r = 0; r < reps; r++) {
        gmb_u64 w = GMB_GID;
        for (; w + 7 * G < nacc; w += 8 * G) {
            gmb_u32 v0 = ACCESS_LD(a + gmb_block_word(w, lb, key, nb, order));
            gmb_u32 v1 = ACCESS_LD(a + gmb_block_word(w + G, lb, key, nb, order));
            gmb_u32 v2 = ACCESS_LD(a + gmb_block_word(w + 2 * G, lb, key, nb, order));
            gmb_u32 v3 = ACCESS_LD(a + gmb_block_word(w + 3 * G, lb, key, nb, order));
            gmb_u32 v4 = ACCESS_LD(a + gmb_block_word(w + 4 * G, lb, key, nb, order));
            gmb_u32 v5 = ACCESS_LD(a + gmb_block_word(w + 5 * G, lb, key, nb, order));
            gmb_u32 v6 = ACCESS_LD(a + gmb_block_word(w + 6 * G, lb, key, nb, order));
            gmb_u32 v7 = ACCESS_LD(a + gmb_block_word(w + 7 * G, lb, key, nb, order));
            s0 += (v0 + v1) + (v2 + v3);
            s1 += (v4 + v5) + (v6 + v7);
        }
        for (; w < nacc; w += G)
            s0 += ACCESS_LD(a + gmb_block_word(w, lb, key, nb, order));
    }
    out[GMB_GID] = s0 + s1;
}

/* CUDA: stores cached in the L2 only (st.global.cg), as the loads are; asm volatile with a
 * memory clobber, so every pass's stores are made (each pass writes the same values to the
 * same words: a compiler could otherwise keep the last pass's only). OpenCL: volatile stores
 * (a GPU's L1 is write-through on NVIDIA either way). */
#if defined(__CUDACC__)
static __device__ __forceinline__ void access_st(gmb_u32 *p, gmb_u32 v)
{
    asm volatile("st.global.cg.u32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "r"(v)
                 : "memory");
}
#define ACCESS_ST(p, v) access_st((p), (v))
#else
#define ACCESS_ST(p, v) (*(volatile GMB_GLOBAL gmb_u32 *)(p) = (v))
#endif

/* write word d (d < 2^32: a buffer holds under 2^32 words, so the hash's high-word product
 * folds away) with a value of d alone: a block drawn twice gets the same values twice, and
 * the buffer after a launch does not depend on the order of the stores */
#define ACCESS_PUT(a, d, wseed) ACCESS_ST((a) + (d), gmb_hash((wseed), (gmb_u32)(d)))

/* random blocks written: access_random's placement and order (the same words, blocks in place
 * with order all ones), each work-item writing word d = gmb_block_word(w) the value
 * gmb_hash(wseed, d) instead of reading it; eight stores issued per iteration as the reads
 * are (a store does not wait: this is the same instruction mix and loop overhead). The host
 * reads the buffer back: the words of the blocks picked hold gmb_hash(wseed, d), the others
 * what the buffer held (gmb_hash(seed, i)). */
GMB_KERNEL access_random_write(GMB_GLOBAL gmb_u32 *a, gmb_u64 nacc, gmb_u32 lb, gmb_u32 key,
                               gmb_u32 nb, gmb_u32 order, gmb_u32 wseed, gmb_u32 reps)
{
    gmb_u64 G = GMB_GSIZE;
    for (gmb_u32 r = 0; r < reps; r++) {
        gmb_u64 w = GMB_GID;
        for (; w + 7 * G < nacc; w += 8 * G) {
            gmb_u64 d0 = gmb_block_word(w, lb, key, nb, order);
            gmb_u64 d1 = gmb_block_word(w + G, lb, key, nb, order);
            gmb_u64 d2 = gmb_block_word(w + 2 * G, lb, key, nb, order);
            gmb_u64 d3 = gmb_block_word(w + 3 * G, lb, key, nb, order);
            gmb_u64 d4 = gmb_block_word(w + 4 * G, lb, key, nb, order);
            gmb_u64 d5 = gmb_block_word(w + 5 * G, lb, key, nb, order);
            gmb_u64 d6 = gmb_block_word(w + 6 * G, lb, key, nb, order);
            gmb_u64 d7 = gmb_block_word(w + 7 * G, lb, key, nb, order);
            ACCESS_PUT(a, d0, wseed);
            ACCESS_PUT(a, d1, wseed);
            ACCESS_PUT(a, d2, wseed);
            ACCESS_PUT(a, d3, wseed);
            ACCESS_PUT(a, d4, wseed);
            ACCESS_PUT(a, d5, wseed);
            ACCESS_PUT(a, d6, wseed);
            ACCESS_PUT(a, d7, wseed);
        }
        for (; w < nacc; w += G)
            ACCESS_PUT(a, gmb_block_word(w, lb, key, nb, order), wseed);
    }
}
