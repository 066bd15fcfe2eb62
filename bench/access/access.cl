/* access.cl - gmb-access kernels (OpenCL C and, through gmb_kernels.h, CUDA): one source.
 * A buffer of 4-byte words holds gmb_hash(seed, i); work-item j of the grid reads the words
 * at byte offset + (j + k x G) x stride for k = 0, 1, ... (G work-items in all), so the
 * work-items of a warp read words stride bytes apart: stride 4 is the contiguous, coalesced
 * case, larger strides leave bytes of every line or sector unread. */

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
