/* capacity.cl - gmb-capacity kernels (OpenCL C and, through gmb_kernels.h, CUDA): the touch that
 * makes an allocation real (every word written with gmb_hash(seed, index)) and the check that
 * reads every word back on the device and counts those that differ. */

#if defined(__CUDACC__)
#define CAP_ATOMIC_ADD(p, v) atomicAdd((p), (v))
#else
#define CAP_ATOMIC_ADD(p, v) atomic_add((volatile __global gmb_u32 *)(p), (v))
#endif

/* word i of p (i < n words) := gmb_hash(seed, i), grid-stride */
GMB_KERNEL cap_touch(GMB_GLOBAL gmb_u32 *p, gmb_u64 n, gmb_u32 seed)
{
    for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE)
        p[i] = gmb_hash(seed, i);
}

/* Every word i < n of p against gmb_hash(seed, i): res[0] += the words that differ (the host
 * zeroes it); a work-item that found one leaves its last one's index (res[1] low, res[2] high
 * half) and value (res[3]): one of them, whichever work-item stored last. */
GMB_KERNEL cap_check(GMB_GLOBAL const gmb_u32 *p, gmb_u64 n, gmb_u32 seed, GMB_GLOBAL gmb_u32 *res)
{
    gmb_u32 bad = 0, v = 0;
    gmb_u64 at = 0;
    for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE) {
        gmb_u32 w = p[i];
        if (w != gmb_hash(seed, i)) {
            bad++;
            at = i;
            v = w;
        }
    }
    if (bad) {
        CAP_ATOMIC_ADD(res, bad);
        res[1] = (gmb_u32)at;
        res[2] = (gmb_u32)(at >> 32);
        res[3] = v;
    }
}
