/* gmb_chain_kernels.h - the kernels that lay a pointer-chase chain out on the device and check
 * it there (gmb-chase, gmb-loaded): OpenCL gets this file after gmb_kernels.h in front of every
 * benchmark's .cl; a .cu includes it before its .cl. A chain is a buffer of 4-byte words in
 * which the word of each element holds the word offset of the next. Word offsets as in
 * common/model/chain.h: element e sits at e * sw, or with pages (pw > 0) at
 * e * pw + (e mod (pw / sw)) * sw. */
#ifndef GMB_CHAIN_KERNELS_H
#define GMB_CHAIN_KERNELS_H

GMB_FN gmb_u32 chase_word(gmb_u64 e, gmb_u32 sw, gmb_u32 pw)
{
    if (pw)
        return (gmb_u32)(e * pw + (e % (pw / sw)) * sw);
    return (gmb_u32)(e * sw);
}

/* Lay a chain out: element order[k] -> order[k+1], the last back to the first (seq != 0:
 * order[k] = k, no order buffer read). n elements; grid-stride. */
GMB_KERNEL chase_build(GMB_GLOBAL gmb_u32 *a, GMB_GLOBAL const gmb_u32 *order, gmb_u32 n,
                       gmb_u32 seq, gmb_u32 sw, gmb_u32 pw)
{
    for (gmb_u64 k = GMB_GID; k < n; k += GMB_GSIZE) {
        gmb_u64 k1 = k + 1 == n ? 0 : k + 1;
        gmb_u64 e = seq ? k : order[k], f = seq ? k1 : order[k1];
        a[chase_word(e, sw, pw)] = chase_word(f, sw, pw);
    }
}

/* Check a laid-out chain against its order, every element: any mismatch leaves a nonzero
 * value (1 + the position) in bad[0] (racing writers all write nonzero values). */
GMB_KERNEL chase_check(GMB_GLOBAL const gmb_u32 *a, GMB_GLOBAL const gmb_u32 *order, gmb_u32 n,
                       gmb_u32 seq, gmb_u32 sw, gmb_u32 pw, GMB_GLOBAL gmb_u32 *bad)
{
    for (gmb_u64 k = GMB_GID; k < n; k += GMB_GSIZE) {
        gmb_u64 k1 = k + 1 == n ? 0 : k + 1;
        gmb_u64 e = seq ? k : order[k], f = seq ? k1 : order[k1];
        if (a[chase_word(e, sw, pw)] != chase_word(f, sw, pw))
            bad[0] = (gmb_u32)k + 1u;
    }
}

#endif
