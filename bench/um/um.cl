/* um.cl - kernels of gmb-um (OpenCL C and, through gmb_kernels.h, CUDA): managed memory read
 * and written by the device, and a one-thread chase through pages for the cost of a fault.
 * The data is a cheap pattern the host writes and checks at memory speed: word i of a sample
 * salted s holds UM_PAT(i, s); a new salt every sample, so stale copies cannot pass. */

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

/* part[group] = OR over the group's words of (word ^ expected word): 0 when every word of
 * a[0..n4) holds the pattern of salt, the device's own compare of all of it (a sum would let a
 * previous salt's data pass: over 2^k words the low k bits of the salt cancel out). Grid-stride
 * 16-byte loads, 4 in flight per work-item (group size: a power of two <= UM_MAX_WG). */
#define UM_DIFF(v, j, salt)                                                                        \
    (((v).x ^ UM_PAT(4 * (j), salt)) | ((v).y ^ UM_PAT(4 * (j) + 1, salt)) |                       \
     ((v).z ^ UM_PAT(4 * (j) + 2, salt)) | ((v).w ^ UM_PAT(4 * (j) + 3, salt)))
GMB_KERNEL um_read(GMB_GLOBAL const uint4 *GMB_RESTRICT a, gmb_u64 n4, gmb_u32 salt,
                   GMB_GLOBAL gmb_u32 *GMB_RESTRICT part)
{
    GMB_SHARED gmb_u32 red[UM_MAX_WG];
    const gmb_u64 g = GMB_GSIZE;
    gmb_u32 d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    gmb_u64 i = GMB_GID;
    for (; i + 3 * g < n4; i += 4 * g) {
        uint4 x0 = a[i], x1 = a[i + g], x2 = a[i + 2 * g], x3 = a[i + 3 * g];
        d0 |= UM_DIFF(x0, i, salt);
        d1 |= UM_DIFF(x1, i + g, salt);
        d2 |= UM_DIFF(x2, i + 2 * g, salt);
        d3 |= UM_DIFF(x3, i + 3 * g, salt);
    }
    for (; i < n4; i += g) {
        uint4 x = a[i];
        d0 |= UM_DIFF(x, i, salt);
    }
    red[GMB_LID] = (d0 | d1) | (d2 | d3);
    GMB_BARRIER();
    for (gmb_u32 w = GMB_LSIZE / 2; w > 0; w >>= 1) {
        if (GMB_LID < w)
            red[GMB_LID] |= red[GMB_LID + w];
        GMB_BARRIER();
    }
    if (GMB_LID == 0)
        part[GMB_GROUP] = red[0];
}

/* One work-item follows steps links of a chain of word indices from word 0 (each load needs
 * the one before: touches of pages are one at a time) and leaves where it ended in out[0];
 * a wrong word (stale data) is clamped to last, so it ends the chase in the wrong place, never
 * outside the buffer */
GMB_KERNEL um_chase(GMB_GLOBAL const gmb_u32 *GMB_RESTRICT a, gmb_u64 steps, gmb_u32 last,
                    GMB_GLOBAL gmb_u32 *GMB_RESTRICT out)
{
    if (GMB_GID != 0)
        return;
    gmb_u32 j = 0;
    for (gmb_u64 k = 0; k < steps; k++)
        j = min(a[j], last);
    out[0] = j;
}
