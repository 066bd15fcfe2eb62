/* um.cl - kernels of gmb-um (OpenCL C and, through gmb_kernels.h, CUDA): managed memory read
 * and written by the device, and a one-thread chase through pages for the cost of a fault.
 * The data is a cheap pattern the host writes and checks at memory speed: word i of a sample
 * salted s holds um_pat(i, s); a new salt every sample, so stale copies cannot pass. */

#ifndef UM_MAX_WG
#define UM_MAX_WG 1024
#endif

#define UM_PAT(i, s) ((gmb_u32)(i)*0x9e3779b1u ^ (s))

/* a[i] = pattern of (i, salt) over n4 16-byte elements (4 words each) */
GMB_KERNEL um_write(GMB_GLOBAL uint4 *GMB_RESTRICT a, gmb_u64 n4, gmb_u32 salt)
{
    for (gmb_u64 i = GMB_GID; i < n4; i += GMB_GSIZE)
        a[i] = GMB_UINT4(UM_PAT(4 * i, salt), UM_PAT(4 * i + 1, salt), UM_PAT(4 * i + 2, salt),
                         UM_PAT(4 * i + 3, salt));
}

/* part[group] = sum (mod 2^32) of the words of a[0..n4) the group's work-items read:
 * grid-stride 16-byte loads, 4 in flight per work-item (group size: a power of two <=
 * UM_MAX_WG); the host adds the groups' sums and compares with its own */
GMB_KERNEL um_read(GMB_GLOBAL const uint4 *GMB_RESTRICT a, gmb_u64 n4,
                   GMB_GLOBAL gmb_u32 *GMB_RESTRICT part)
{
    GMB_SHARED gmb_u32 red[UM_MAX_WG];
    const gmb_u64 g = GMB_GSIZE;
    gmb_u32 s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    gmb_u64 i = GMB_GID;
    for (; i + 3 * g < n4; i += 4 * g) {
        uint4 x0 = a[i], x1 = a[i + g], x2 = a[i + 2 * g], x3 = a[i + 3 * g];
        s0 += (x0.x + x0.y) + (x0.z + x0.w);
        s1 += (x1.x + x1.y) + (x1.z + x1.w);
        s2 += (x2.x + x2.y) + (x2.z + x2.w);
        s3 += (x3.x + x3.y) + (x3.z + x3.w);
    }
    for (; i < n4; i += g) {
        uint4 x = a[i];
        s0 += (x.x + x.y) + (x.z + x.w);
    }
    red[GMB_LID] = (s0 + s1) + (s2 + s3);
    GMB_BARRIER();
    for (gmb_u32 w = GMB_LSIZE / 2; w > 0; w >>= 1) {
        if (GMB_LID < w)
            red[GMB_LID] += red[GMB_LID + w];
        GMB_BARRIER();
    }
    if (GMB_LID == 0)
        part[GMB_GROUP] = red[0];
}

/* One work-item follows steps links of a chain of word indices from word 0 (each load needs
 * the one before: touches of pages are one at a time) and leaves where it ended in out[0] */
GMB_KERNEL um_chase(GMB_GLOBAL const gmb_u32 *GMB_RESTRICT a, gmb_u64 steps,
                    GMB_GLOBAL gmb_u32 *GMB_RESTRICT out)
{
    if (GMB_GID != 0)
        return;
    gmb_u32 j = 0;
    for (gmb_u64 k = 0; k < steps; k++)
        j = a[j];
    out[0] = j;
}
