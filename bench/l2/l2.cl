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
#ifndef L2_ONCE /* (a second inclusion, l2.cu's lockstep namespace, shares these) */
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
/* through L1 (cache at all levels): the l1 part's loads */
static __device__ __forceinline__ uint4 l2_ld_ca(const uint4 *p)
{
    uint4 v;
    asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}
#endif
#define L2_LD(a, e)    l2_ld((a) + (e))
#define L1_LD(a, e)    l2_ld_ca((a) + (e))
#define L2_ST(a, e, v) l2_st((a) + (e), (v))
#else
#define L2_LD(a, e)    ((a)[e])
#define L1_LD(a, e)    ((a)[e])
#define L2_ST(a, e, v) ((a)[e] = (v))
#endif

#define L2_HSUM(v) ((v).x + (v).y + (v).z + (v).w)
/* The lockstep shape (GMB_LOCKSTEP: a second program, chosen by gmb-l2's tuning). An
 * implementation that runs a group's work-items as a loop (PoCL on a CPU) walks each
 * work-item's grid-stride sequence alone: 4 KiB runs a grid apart, which the CPU's prefetchers
 * do not follow (memory read at 3.3 GB/s on this project's CPU, against 16-19 GB/s streamed).
 * In lockstep the group takes its steps together, a barrier after each, so that each step is
 * one vector loop over consecutive work-items: l2_read and l2_write take tiles of 4 x group
 * size consecutive positions (group g the tiles g, g + groups, ...; rot = one tile), l2_l1read
 * its group-strided steps as before. A loop with a barrier runs while its step holds for the
 * whole group (L2_LAST: the group's last work-item); what is left goes to a tail loop without
 * barriers. */
#undef L2_LOCKSTEP
#undef L2_LAST
#if defined(GMB_LOCKSTEP) && GMB_LOCKSTEP
#define L2_LOCKSTEP() GMB_BARRIER()
#define L2_LAST(u)    ((u)-GMB_LID + GMB_LSIZE - 1)
#else
#define L2_LOCKSTEP() ((void)0)
#define L2_LAST(u)    (u)
#endif
/* part[group] = the sum of every work-item's acc over the group, through red (local memory,
 * GMB_LSIZE words; GMB_LSIZE a power of two) */
#define L2_GROUP_SUM(red, acc, part)                                                               \
    do {                                                                                           \
        red[GMB_LID] = (acc);                                                                      \
        GMB_BARRIER();                                                                             \
        for (gmb_u32 w_ = GMB_LSIZE / 2; w_ > 0; w_ >>= 1) {                                       \
            if (GMB_LID < w_)                                                                      \
                red[GMB_LID] += red[GMB_LID + w_];                                                 \
            GMB_BARRIER();                                                                         \
        }                                                                                          \
        if (GMB_LID == 0)                                                                          \
            part[GMB_GROUP] = red[0];                                                              \
    } while (0)
/* the value stored at word w */
#define L2_WORD(w, key) ((gmb_u32)(w)*0x9e3779b9u ^ (key))

/* a[w] = gmb_hash(seed, w): the data every read kernel sums */
GMB_KERNEL l2_init(GMB_GLOBAL gmb_u32 *GMB_RESTRICT a, gmb_u64 nwords, gmb_u32 seed)
{
    for (gmb_u64 w = GMB_GID; w < nwords; w += GMB_GSIZE)
        a[w] = gmb_hash(seed, w);
}

/* The work of a launch is reps passes over a[0..n) one after the other, one sequence of
 * reps x n positions that the whole grid walks grid-stride, four positions a work-item in
 * flight: position u = p x n + j (pass p) reads element (j + p x rot) mod n, rot = one group
 * (0 when the set is not larger). Every pass reads every element once, and every work-item of
 * the grid has work whatever the set's size: a set of fewer elements than the grid has
 * work-items keeps every one busy with later passes (the H200's 1-4 MiB sets had a quarter of
 * its work-items, one load each in flight, and reached a third of the L2's bandwidth). From
 * one pass to the next an element's position moves by n - rot, so its reader changes unless
 * that is a multiple of the grid (OpenCL: a compute unit re-reads data after the whole set
 * went by, as before). The cursor (j, off) of u: j = u mod n,
 * off = (u div n) x rot mod n; a step of the grid (g) adds gr = g mod n to j and
 * oq = (g div n) x rot mod n to off, and rot once more when j wraps. */
#define L2_ELEM(j, off, n)              ((j) + (off) >= (n) ? (j) + (off) - (n) : (j) + (off))
#define L2_STEP(j, off, n, gr, oq, rot) L2_STEP_IN(j, off, n, n, gr, oq, rot)
/* (the same with j in [0, lim): the lockstep shape's tile index and tail position) */
#define L2_STEP_IN(j, off, lim, n, gr, oq, rot)                                                    \
    do {                                                                                           \
        (j) += (gr);                                                                               \
        (off) += (oq);                                                                             \
        if ((j) >= (lim)) {                                                                        \
            (j) -= (lim);                                                                          \
            (off) += (rot);                                                                        \
        }                                                                                          \
        if ((off) >= (n))                                                                          \
            (off) -= (n);                                                                          \
        if ((off) >= (n))                                                                          \
            (off) -= (n);                                                                          \
    } while (0)

/* The lockstep shape's tiles: each pass over a[0..n) is n / TL whole tiles of TL = 4 x L
 * elements (L the group size) and what is left; tile t of pass p holds the elements from
 * t x TL + p x rot (mod n), rot = one tile. The reps x n / TL tiles of a launch are one
 * sequence, group g taking tiles g, g + groups, ... whatever the pass (a small set keeps every
 * group busy, as the grid-stride shape's positions do); the group's four accesses are L
 * apart, each one vector of consecutive elements. The body (...) uses e0..e3, the work-item's four
 * elements. A pass's elements past its last whole tile (n mod TL) are the tail's: item i of
 * the reps x (n mod TL) is element n / TL x TL + i mod (n mod TL) of pass i / (n mod TL). */
#define L2_TILES(n, reps, ...)                                                                     \
    const gmb_u64 L = GMB_LSIZE, TL = 4 * L, rot = (n) > TL ? TL : 0, tpp = (n) / TL;              \
    const gmb_u64 G = GMB_GSIZE / L, ntiles = (gmb_u64)(reps)*tpp, dq = tpp ? G / tpp : 0;         \
    const gmb_u64 dr = tpp ? G % tpp : 0, doff = (dq % (n)) * rot % (n);                           \
    gmb_u64 T = GMB_GROUP, t = tpp ? T % tpp : 0, off = tpp ? (T / tpp % (n)) * rot % (n) : 0;     \
    for (; T < ntiles; T += G) {                                                                   \
        const gmb_u64 x = t * TL + off + GMB_LID;                                                  \
        const gmb_u64 e0 = x >= (n) ? x - (n) : x, e1 = x + L >= (n) ? x + L - (n) : x + L;        \
        const gmb_u64 e2 = x + 2 * L >= (n) ? x + 2 * L - (n) : x + 2 * L;                         \
        const gmb_u64 e3 = x + 3 * L >= (n) ? x + 3 * L - (n) : x + 3 * L;                         \
        __VA_ARGS__                                                                                \
        L2_STEP_IN(t, off, tpp, n, dr, doff, rot);                                                 \
        L2_LOCKSTEP();                                                                             \
    }                                                                                              \
    const gmb_u64 rem = (n)-tpp * TL, nrem = (gmb_u64)(reps)*rem

/* The tail's loop: item i from GMB_GID, a grid apart, its element el (from a cursor: r = i mod
 * rem, off = (i div rem) x rot mod n; no division in the loop) */
#define L2_TAIL(n, ...)                                                                            \
    do {                                                                                           \
        const gmb_u64 g_ = GMB_GSIZE, gr_ = rem ? g_ % rem : 0;                                    \
        const gmb_u64 oq_ = rem ? (g_ / rem % (n)) * rot % (n) : 0;                                \
        gmb_u64 r_ = rem ? GMB_GID % rem : 0, o_ = rem ? (GMB_GID / rem % (n)) * rot % (n) : 0;    \
        for (gmb_u64 i_ = GMB_GID; i_ < nrem; i_ += g_) {                                          \
            const gmb_u64 x_ = tpp * TL + r_ + o_, el = x_ >= (n) ? x_ - (n) : x_;                 \
            __VA_ARGS__                                                                            \
            L2_STEP_IN(r_, o_, rem, n, gr_, oq_, rot);                                             \
        }                                                                                          \
    } while (0)

/* Sum of reps passes over a[0..n) (uint4, n >= 1), one partial sum per work-group in part[];
 * reps 0: no load (an empty launch). */
GMB_KERNEL l2_read(GMB_GLOBAL const uint4 *GMB_RESTRICT a, GMB_GLOBAL gmb_u32 *GMB_RESTRICT part,
                   gmb_u64 n, gmb_u32 reps)
{
    GMB_SHARED gmb_u32 red[L2_MAX_WG];
    const gmb_u64 g = GMB_GSIZE, total = (gmb_u64)reps * n;
    gmb_u32 acc = 0;
#if defined(GMB_LOCKSTEP) && GMB_LOCKSTEP
    L2_TILES(n, reps, {
        uint4 v0 = L2_LD(a, e0), v1 = L2_LD(a, e1), v2 = L2_LD(a, e2), v3 = L2_LD(a, e3);
        acc += (L2_HSUM(v0) + L2_HSUM(v1)) + (L2_HSUM(v2) + L2_HSUM(v3));
    });
    L2_TAIL(n, {
        uint4 v = L2_LD(a, el);
        acc += L2_HSUM(v);
    });
    (void)g;
    (void)total;
#else
    const gmb_u64 rot = n > GMB_LSIZE ? GMB_LSIZE : 0;
    const gmb_u64 gr = g % n, oq = (g / n % n) * rot % n;
    gmb_u64 u = GMB_GID, jj = u % n, of = (u / n % n) * rot % n;
    for (; u + 3 * g < total; u += 4 * g) {
        gmb_u64 e0 = L2_ELEM(jj, of, n);
        L2_STEP(jj, of, n, gr, oq, rot);
        gmb_u64 e1 = L2_ELEM(jj, of, n);
        L2_STEP(jj, of, n, gr, oq, rot);
        gmb_u64 e2 = L2_ELEM(jj, of, n);
        L2_STEP(jj, of, n, gr, oq, rot);
        gmb_u64 e3 = L2_ELEM(jj, of, n);
        L2_STEP(jj, of, n, gr, oq, rot);
        uint4 v0 = L2_LD(a, e0), v1 = L2_LD(a, e1), v2 = L2_LD(a, e2), v3 = L2_LD(a, e3);
        acc += (L2_HSUM(v0) + L2_HSUM(v1)) + (L2_HSUM(v2) + L2_HSUM(v3));
    }
    for (; u < total; u += g) {
        gmb_u64 e = L2_ELEM(jj, of, n);
        L2_STEP(jj, of, n, gr, oq, rot);
        uint4 v = L2_LD(a, e);
        acc += L2_HSUM(v);
    }
#endif
    L2_GROUP_SUM(red, acc, part);
}

/* The l1 part (RRZE gpu-cache's method): every group sums reps passes over the whole
 * a[0..n) (uint4, n >= 1), its work-items strided by the group (four loads in flight), loads
 * through L1 (CUDA: ld.global.ca). All groups read the same set, so every compute unit re-reads
 * it: a set within one compute unit's L1 is served there, a larger one by the next level that
 * holds it. part[group] = the group's sum; reps 0: no load. */
GMB_KERNEL l2_l1read(GMB_GLOBAL const uint4 *GMB_RESTRICT a, GMB_GLOBAL gmb_u32 *GMB_RESTRICT part,
                     gmb_u64 n, gmb_u32 reps)
{
    GMB_SHARED gmb_u32 red[L2_MAX_WG];
    const gmb_u64 l = GMB_LSIZE;
    gmb_u32 acc = 0;
    for (gmb_u32 r = 0; r < reps; r++) {
        gmb_u64 e = GMB_LID;
        for (; L2_LAST(e) + 3 * l < n; e += 4 * l) {
            uint4 v0 = L1_LD(a, e), v1 = L1_LD(a, e + l), v2 = L1_LD(a, e + 2 * l),
                  v3 = L1_LD(a, e + 3 * l);
            acc += (L2_HSUM(v0) + L2_HSUM(v1)) + (L2_HSUM(v2) + L2_HSUM(v3));
            L2_LOCKSTEP();
        }
        for (; e < n; e += l) {
            uint4 v = L1_LD(a, e);
            acc += L2_HSUM(v);
        }
    }
    L2_GROUP_SUM(red, acc, part);
}

/* The store of element e's words */
#define L2_STORE(a, e, key)                                                                        \
    do {                                                                                           \
        gmb_u32 w_ = (gmb_u32)(4 * (e));                                                           \
        L2_ST(a, e,                                                                                \
              GMB_UINT4(L2_WORD(w_, key), L2_WORD(w_ + 1, key), L2_WORD(w_ + 2, key),              \
                        L2_WORD(w_ + 3, key)));                                                    \
    } while (0)

/* reps passes of stores over a[0..n) (uint4, n >= 1), in the order of l2_read: word w gets
 * L2_WORD(w, key) every time. */
GMB_KERNEL l2_write(GMB_GLOBAL uint4 *GMB_RESTRICT a, gmb_u64 n, gmb_u32 key, gmb_u32 reps)
{
    const gmb_u64 g = GMB_GSIZE, total = (gmb_u64)reps * n;
#if defined(GMB_LOCKSTEP) && GMB_LOCKSTEP
    L2_TILES(n, reps, {
        L2_STORE(a, e0, key);
        L2_STORE(a, e1, key);
        L2_STORE(a, e2, key);
        L2_STORE(a, e3, key);
    });
    L2_TAIL(n, L2_STORE(a, el, key););
    (void)g;
    (void)total;
#else
    const gmb_u64 rot = n > GMB_LSIZE ? GMB_LSIZE : 0;
    const gmb_u64 gr = g % n, oq = (g / n % n) * rot % n;
    gmb_u64 j = GMB_GID % n, off = (GMB_GID / n % n) * rot % n;
    for (gmb_u64 u = GMB_GID; u < total; u += g) {
        gmb_u64 e = L2_ELEM(j, off, n);
        L2_STEP(j, off, n, gr, oq, rot);
        L2_STORE(a, e, key);
    }
#endif
}

/* Persistence's workload: rounds x (one pass over hot[0..nh), then the next chunk elements of
 * cold[0..nc), chunk <= nc, from where the last round stopped, wrapping): a hot set re-read
 * while another buffer streams through the cache. One partial sum per work-group. */
GMB_KERNEL l2_mix(GMB_GLOBAL const uint4 *GMB_RESTRICT hot, gmb_u64 nh,
                  GMB_GLOBAL const uint4 *GMB_RESTRICT cold, gmb_u64 nc, gmb_u64 chunk,
                  gmb_u32 rounds, GMB_GLOBAL gmb_u32 *GMB_RESTRICT part)
{
    GMB_SHARED gmb_u32 red[L2_MAX_WG];
    const gmb_u64 g = GMB_GSIZE;
    gmb_u32 acc = 0;
    gmb_u64 c0 = 0;
    for (gmb_u32 r = 0; r < rounds; r++) {
        gmb_u64 i = GMB_GID;
        for (; i + 3 * g < nh; i += 4 * g) {
            uint4 v0 = L2_LD(hot, i), v1 = L2_LD(hot, i + g), v2 = L2_LD(hot, i + 2 * g),
                  v3 = L2_LD(hot, i + 3 * g);
            acc += (L2_HSUM(v0) + L2_HSUM(v1)) + (L2_HSUM(v2) + L2_HSUM(v3));
        }
        for (; i < nh; i += g) {
            uint4 v = L2_LD(hot, i);
            acc += L2_HSUM(v);
        }
        for (i = GMB_GID; i < chunk; i += g) {
            gmb_u64 e = c0 + i >= nc ? c0 + i - nc : c0 + i;
            uint4 v = L2_LD(cold, e);
            acc += L2_HSUM(v);
        }
        c0 = c0 + chunk >= nc ? c0 + chunk - nc : c0 + chunk;
    }
    L2_GROUP_SUM(red, acc, part);
}

#if defined(__CUDACC__) && !defined(L2_ONCE)
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

/* Latency from one SM to every line of a[] (a buffer larger than one partition's near copy,
 * smaller than the L2): the one work-item of the block that runs on SM want_sm (and claims
 * it first) walks the lines in order, passes times, one load a line, each load's address
 * from the last one's value (a chain: one load at a time), timed with the SM clock. A line
 * is visited again only after the whole buffer went by, so a near copy its last visit made
 * has been evicted by the others when it is timed again (one SM's chase sees the near L2 to
 * about a third of the L2: then the far copy serves it). Pass 0 brings the buffer into the
 * L2 (its times are kept, the host leaves them out). cyc[pass x nlines + j] = cycles of the
 * load of line j in that pass; fin[j] = the word its last load returned: word
 * j x line_words + (t + 1) mod 8 for the t-th load of the walk (t from 0) when right. */
GMB_KERNEL l2_part_lat(const gmb_u32 *a, gmb_u32 nlines, gmb_u32 line_words, gmb_u32 passes,
                       gmb_u32 want_sm, gmb_u32 *claimed, gmb_u32 *cyc, gmb_u32 *fin)
{
    gmb_u32 sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (sm != want_sm || threadIdx.x != 0 || atomicCAS(claimed, 0u, 1u) != 0u)
        return;
    gmb_u32 p = 0;
    for (gmb_u32 r = 0; r < passes; r++)
        for (gmb_u32 j = 0; j < nlines; j++) {
            const gmb_u32 *q = a + (gmb_u64)j * line_words + (p & 7u);
            gmb_u64 t0 = GMB_CLOCK();
            p = l2_ld32(q);
            /* the store waits for the load: the clock stops after it */
            GMB_CLOCK_FENCE(gmb_u32, fin[j], p);
            gmb_u64 t1 = GMB_CLOCK();
            cyc[(gmb_u64)r * nlines + j] = (gmb_u32)(t1 - t0);
        }
}
#endif
#define L2_ONCE
