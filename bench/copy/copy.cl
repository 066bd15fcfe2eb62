/* copy.cl - kernels of gmb-copy (OpenCL C and, through gmb_kernels.h, CUDA): the source data
 * and the SM copy engine (a grid-stride float4 copy, as nvbandwidth's "SM" copies). */

/* a[i] = pseudo-random float in [1,2) of (seed, i): the sources, checked on the host */
GMB_KERNEL copy_init(GMB_GLOBAL float *GMB_RESTRICT a, gmb_u64 n, gmb_u32 seed)
{
    for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE)
        a[i] = gmb_rand_float(seed, i);
}

/* bidir by one kernel (nvbandwidth's splitWarpCopyKernel): the n4 16-byte elements in runs of
 * 32 (a warp's worth of work-items), even runs copied b -> a, odd runs a -> b, so half the
 * work-items copy one way while the other half copy the other. a (device memory) and b (host
 * memory mapped into the device) start with different data; after a launch both hold, at
 * element i, b's data where i / 32 is even and a's where it is odd, and so after any number of
 * launches: the host checks that of both. */
GMB_KERNEL copy_split(GMB_GLOBAL float4 *GMB_RESTRICT a, GMB_GLOBAL float4 *GMB_RESTRICT b,
                      gmb_u64 n4)
{
    for (gmb_u64 i = GMB_GID; i < n4; i += GMB_GSIZE) {
        if ((i >> 5) & 1)
            b[i] = a[i];
        else
            a[i] = b[i];
    }
}

/* dst[i] = src[i] over n4 16-byte elements: each work-item moves one float4 per step, the
 * whole grid strides; src or dst may be host memory mapped into the device (zero-copy) or
 * another device's memory (peer) */
GMB_KERNEL copy_sm(GMB_GLOBAL float4 *GMB_RESTRICT dst, GMB_GLOBAL const float4 *GMB_RESTRICT src,
                   gmb_u64 n4)
{
    for (gmb_u64 i = GMB_GID; i < n4; i += GMB_GSIZE)
        dst[i] = src[i];
}
