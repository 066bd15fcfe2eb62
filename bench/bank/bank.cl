/* bank.cl - shared-memory (OpenCL: local memory) bank-conflict kernels, one source for OpenCL
 * and, through gmb_kernels.h, CUDA. Built once per element width: BANK_WORDS = 1, 2, 4 32-bit
 * words (4, 8, 16-byte accesses).
 *
 * Each work-group fills a BANK_SMEM_BYTES shared array with the pseudo-random words
 * gmb_hash(seed, BANK_WORDS * i + c), then every work-item follows pointer chains through
 * it: j = (fold(sh[j]) ^ key) & (BANK_NE - 1), where the host chose the start index j (the
 * pattern's address of this work-item) and key = j ^ fold(value at j), so that every step
 * reads the same element again, yet through a true data dependency the compiler can neither
 * hoist nor fold. fold = XOR of the element's words (every byte of the access is used).
 * The values read are summed into a per-work-item checksum the host recomputes.
 *
 * tab: BANK_TAB u32 per work-item of a group: [0..3] the start index of chains 0..3 (the
 * same index, kept in four slots so that the chains stay separate), [4] the key. */
#undef T
#undef T_MAKE
#undef T_FOLD
#ifndef BANK_SMEM_BYTES
#define BANK_SMEM_BYTES 32768 /* the shared array, bytes; the host knows it as SMEM_BYTES */
#endif
#ifndef BANK_TAB
#define BANK_TAB 8 /* u32 per work-item in tab */
#endif
#undef BANK_NE
#define BANK_NE            (BANK_SMEM_BYTES / (4 * BANK_WORDS)) /* elements in the array (power of two) */
#define BANK_H(seed, i, c) gmb_hash(seed, (gmb_u64)(i)*BANK_WORDS + (c))
#if BANK_WORDS == 1
#define T               gmb_u32
#define T_MAKE(seed, i) BANK_H(seed, i, 0)
#define T_FOLD(v)       (v)
#elif BANK_WORDS == 2
#define T               uint2
#define T_MAKE(seed, i) GMB_UINT2(BANK_H(seed, i, 0), BANK_H(seed, i, 1))
#define T_FOLD(v)       ((v).x ^ (v).y)
#else
#define T uint4
#define T_MAKE(seed, i)                                                                            \
    GMB_UINT4(BANK_H(seed, i, 0), BANK_H(seed, i, 1), BANK_H(seed, i, 2), BANK_H(seed, i, 3))
#define T_FOLD(v) ((v).x ^ (v).y ^ (v).z ^ (v).w)
#endif

/* one dependent step of a chain: read, fold into the checksum, next index */
#undef BANK_STEP
#define BANK_STEP(j, acc)                                                                          \
    do {                                                                                           \
        T v_ = *(GMB_LOCAL_AS const T *)((GMB_LOCAL_AS const unsigned char *)sh + (j));            \
        gmb_u32 f_ = T_FOLD(v_);                                                                   \
        acc += f_;                                                                                 \
        j = (f_ ^ key) & (gmb_u32)(BANK_SMEM_BYTES - 4 * BANK_WORDS);                              \
    } while (0)

/* The latency loop over the array sh (launch one warp); iters a multiple of 4. cyc[group] gets
 * the cycles of the loop on the SM's clock (CUDA; 0 on OpenCL). sum[gid] = the checksum. */
#undef BANK_LAT_LOOP
#define BANK_LAT_LOOP                                                                              \
    GMB_GLOBAL const gmb_u32 *e = tab + (gmb_u64)GMB_LID * BANK_TAB;                               \
    gmb_u32 j = e[0], key = e[4], acc = 0;                                                         \
    /* a store that needs j and key: the clock is read only once their global loads are back       \
     * (GPUs issue in order); likewise the final store before the second read */                   \
    GMB_CLOCK_FENCE(gmb_u32, sum[GMB_GID], j ^ key);                                               \
    gmb_u64 t0 = GMB_CLOCK();                                                                      \
    for (gmb_u32 r = 0; r < iters; r += 4) {                                                       \
        BANK_STEP(j, acc);                                                                         \
        BANK_STEP(j, acc);                                                                         \
        BANK_STEP(j, acc);                                                                         \
        BANK_STEP(j, acc);                                                                         \
    }                                                                                              \
    sum[GMB_GID] = acc + j;                                                                        \
    gmb_u64 t1 = GMB_CLOCK();                                                                      \
    if (GMB_LID == 0)                                                                              \
        cyc[GMB_GROUP] = t1 - t0;

/* The throughput loop over the array sh: four independent chains per work-item. */
#undef BANK_TPUT_LOOP
#define BANK_TPUT_LOOP                                                                             \
    GMB_GLOBAL const gmb_u32 *e = tab + (gmb_u64)GMB_LID * BANK_TAB;                               \
    gmb_u32 j0 = e[0], j1 = e[1], j2 = e[2], j3 = e[3], key = e[4];                                \
    gmb_u32 a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                        \
    /* wait for the global loads (see BANK_LAT_LOOP) */                                            \
    GMB_CLOCK_FENCE(gmb_u32, sum[GMB_GID], j0 ^ j1 ^ j2 ^ j3 ^ key);                               \
    gmb_u64 t0 = GMB_CLOCK();                                                                      \
    for (gmb_u32 r = 0; r < iters; r++) {                                                          \
        BANK_STEP(j0, a0);                                                                         \
        BANK_STEP(j1, a1);                                                                         \
        BANK_STEP(j2, a2);                                                                         \
        BANK_STEP(j3, a3);                                                                         \
    }                                                                                              \
    sum[GMB_GID] = (a0 + a1) + (a2 + a3) + (j0 + j1) + (j2 + j3);                                  \
    gmb_u64 t1 = GMB_CLOCK();                                                                      \
    if (GMB_LID == 0)                                                                              \
        cyc[GMB_GROUP] = t1 - t0;

/* Latency: one chain per work-item, in the group's own shared array. */
GMB_KERNEL bank_lat(GMB_GLOBAL const gmb_u32 *GMB_RESTRICT tab,
                    GMB_GLOBAL gmb_u32 *GMB_RESTRICT sum, GMB_GLOBAL gmb_u64 *GMB_RESTRICT cyc,
                    gmb_u32 seed, gmb_u32 iters)
{
    GMB_SHARED T sh[BANK_NE];
    for (gmb_u32 i = GMB_LID; i < (gmb_u32)BANK_NE; i += GMB_LSIZE)
        sh[i] = T_MAKE(seed, i);
    GMB_BARRIER();
    BANK_LAT_LOOP
}

/* Throughput: every work-item of every group, in its group's own shared array. */
GMB_KERNEL bank_tput(GMB_GLOBAL const gmb_u32 *GMB_RESTRICT tab,
                     GMB_GLOBAL gmb_u32 *GMB_RESTRICT sum, GMB_GLOBAL gmb_u64 *GMB_RESTRICT cyc,
                     gmb_u32 seed, gmb_u32 iters)
{
    GMB_SHARED T sh[BANK_NE];
    for (gmb_u32 i = GMB_LID; i < (gmb_u32)BANK_NE; i += GMB_LSIZE)
        sh[i] = T_MAKE(seed, i);
    GMB_BARRIER();
    BANK_TPUT_LOOP
}

#if defined(__CUDACC__)
/* The same loops in another group's shared array (the remote pattern; CUDA, compute
 * capability 9.0 on): the groups of a thread-block cluster fill their arrays (the same data)
 * and two tags (their rank in the cluster, their SM), wait at a cluster barrier, and each
 * reads the array of the next group in the cluster through distributed shared memory (a
 * generic pointer from __cluster_map_shared_rank); a second barrier keeps every array until
 * all are done. After the timed loop each work-item reads the next group's tags: a rank other
 * than the next one's (the wrong array, or its own) spoils its checksum, and same[group] = 1
 * says the next group ran on the same SM (its loads never left the SM). Launched without a
 * cluster or before sm_90 they write nothing, and the checksums fail. */
#undef BANK_REMOTE
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define BANK_REMOTE(LOOP)                                                                          \
    GMB_SHARED T shl[BANK_NE];                                                                     \
    GMB_SHARED gmb_u32 tag[2];                                                                     \
    gmb_u32 rank = __clusterRelativeBlockRank(), next = (rank + 1) % __clusterSizeInBlocks(), sm;  \
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));                                                \
    for (gmb_u32 i = GMB_LID; i < (gmb_u32)BANK_NE; i += GMB_LSIZE)                                \
        shl[i] = T_MAKE(seed, i);                                                                  \
    if (GMB_LID == 0) {                                                                            \
        tag[0] = rank;                                                                             \
        tag[1] = sm;                                                                               \
    }                                                                                              \
    __cluster_barrier_arrive();                                                                    \
    __cluster_barrier_wait();                                                                      \
    {                                                                                              \
        const T *sh = (const T *)__cluster_map_shared_rank(shl, next);                             \
        LOOP                                                                                       \
    }                                                                                              \
    {                                                                                              \
        const volatile gmb_u32 *nt =                                                               \
            (const volatile gmb_u32 *)__cluster_map_shared_rank(tag, next);                        \
        sum[GMB_GID] += nt[0] ^ next;                                                              \
        if (GMB_LID == 0)                                                                          \
            same[GMB_GROUP] = nt[1] == sm;                                                         \
    }                                                                                              \
    __cluster_barrier_arrive();                                                                    \
    __cluster_barrier_wait();
#else
#define BANK_REMOTE(LOOP)
#endif
GMB_KERNEL bank_lat_remote(const gmb_u32 *GMB_RESTRICT tab, gmb_u32 *GMB_RESTRICT sum,
                           gmb_u64 *GMB_RESTRICT cyc, gmb_u32 seed, gmb_u32 iters,
                           gmb_u32 *GMB_RESTRICT same)
{
    BANK_REMOTE(BANK_LAT_LOOP);
}
GMB_KERNEL bank_tput_remote(const gmb_u32 *GMB_RESTRICT tab, gmb_u32 *GMB_RESTRICT sum,
                            gmb_u64 *GMB_RESTRICT cyc, gmb_u32 seed, gmb_u32 iters,
                            gmb_u32 *GMB_RESTRICT same)
{
    BANK_REMOTE(BANK_TPUT_LOOP);
}
#endif
