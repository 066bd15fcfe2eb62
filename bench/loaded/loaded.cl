/* loaded.cl - latency under load (OpenCL C and, through gmb_kernels.h, CUDA): one source.
 * One launch: the first work-item of group 0 chases a random cycle through a DRAM-sized chain
 * (laid out by common/kernels/gmb_chain_kernels.h) while every work-item of groups 1.. streams
 * reads through (or writes) a second buffer until the chase is done. Nobody waits for ever: the
 * chaser raises a flag when its timed loads are done, the streamers poll it, a cap on their
 * iterations ends them whatever the scheduling (a work-group may run after another has finished, on
 * a CPU), and the chaser's wait for the streamers to start is bounded, so a launch always ends. The
 * streamers note how far the chase was when they started and stopped, so the host knows
 * which of them ran beside it.
 *
 * Control words, each on a 128-byte line of its own (the streamers poll one of them; the
 * others must not share its L2 line), zeroed by the host before each launch:
 *   LOADED_FLAG    1 once the chaser's timed loads are done
 *   LOADED_NOTE    the chaser's progress: 0 before it starts, then 1 + its timed loads done
 *                  (every LOADED_TICK)
 *   LOADED_START   streaming groups started
 *   LOADED_SM      1 + the SM the chaser runs on (CUDA; 0 elsewhere): streamers that find
 *                  themselves there stop, so the chase meets the memory system's queues, not
 *                  its own SM's */
#define LOADED_FLAG   0u
#define LOADED_NOTE   32u
#define LOADED_START  64u
#define LOADED_SM     96u
#define LOADED_WORDS  128u        /* words of the control buffer */
#define LOADED_TICK   64u         /* chase loads between progress notes */
#define LOADED_POLL   7u          /* a streamer polls every (LOADED_POLL + 1)th iteration */
#define LOADED_DONE   0x80000000u /* high bit of a count or note: stopped on the flag */
#define LOADED_SIDE   0x40000000u /* next bit of a count: stopped, on the chaser's SM */
#define LOADED_SPIN   65536u      /* most polls of the chaser's wait for the streamers */
#define LOADED_SPIN_C 400000u     /* and most cycles, where there is a clock (~200 us) */
#if defined(__CUDACC__)
#define LOADED_FENCE()   __threadfence()
#define LOADED_NGROUPS() gridDim.x
#define LOADED_INC(p)    atomicAdd((gmb_u32 *)(p), 1u)
static __device__ __forceinline__ gmb_u32 loaded_sm(void)
{
    gmb_u32 id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id + 1u;
}
#else
#define LOADED_FENCE()   mem_fence(CLK_GLOBAL_MEM_FENCE)
#define LOADED_NGROUPS() ((gmb_u32)get_num_groups(0))
#define LOADED_INC(p)    atomic_inc(p)
#define loaded_sm()      0u /* OpenCL does not say where a group runs */
#endif

/* d[i] = four 32-bit words, word j = hash(seed, 4 i + j): the streamed data */
GMB_KERNEL loaded_init(GMB_GLOBAL uint4 *d, gmb_u64 n, gmb_u32 seed)
{
    for (gmb_u64 i = GMB_GID; i < n; i += GMB_GSIZE) {
        gmb_u64 w = 4 * i;
        d[i] = GMB_UINT4(gmb_hash(seed, w), gmb_hash(seed, w + 1), gmb_hash(seed, w + 2),
                         gmb_hash(seed, w + 3));
    }
}

/* What a writing streamer stores at element i: x = i ^ key, y = the writer, z = its iteration,
 * w = ~x ^ (writer x 0x9e3779b9) ^ iteration. The host checks that i is where that writer
 * stores in that iteration and that w matches (a 16-byte store not torn between two
 * writers). Cheap to make, so that the writers stay memory-bound. */
#define LOADED_WVAL(i, key, wr, k)                                                                 \
    GMB_UINT4((gmb_u32)(i) ^ (key), (gmb_u32)(wr), (k),                                            \
              ~((gmb_u32)(i) ^ (key)) ^ ((gmb_u32)(wr)*0x9e3779b9u) ^ (k))

/* The next index of a streamer: i + s, wrapped into [0, n) (s <= n). */
GMB_FN gmb_u64 loaded_next(gmb_u64 i, gmb_u64 s, gmb_u64 n)
{
    i += s;
    return i >= n ? i - n : i;
}

/* a: the chain; start, warm, steps: where the chase starts, untimed and timed loads.
 * d, n: the streamed buffer (n 16-byte elements, at least one per streaming work-item);
 * cap: most iterations of a streamer; write: 0 = the streamers read (and sum what they read),
 * 1 = they write (LOADED_WVAL, key = wkey). out[0] = the word the chase reached, out[1] = cycles of
 * its timed loads (SM clock; 0 without one), out[2] = streaming groups started when the
 * chaser's wait ended. Streaming work-item w (0-based after group 0) reads, per iteration,
 * the elements at positions 4k .. 4k+3 of the sequence w, w + S, w + 2S, ... (mod n),
 * S = streaming work-items: neighbouring work-items read neighbouring elements.
 * res[2w] = the 32-bit sum of every word it read (0 when writing), res[2w+1] = its iterations |
 * LOADED_DONE (stopped on the flag) or | LOADED_SIDE (stopped on the chaser's SM) or neither (the
 * cap). seen[2(g-1)], seen[2(g-1)+1]: the chase's progress note (| LOADED_DONE once the flag is up)
 * when group g's first work-item started and stopped. */
GMB_KERNEL loaded_run(GMB_GLOBAL const gmb_u32 *a, gmb_u32 start, gmb_u32 warm, gmb_u32 steps,
                      GMB_GLOBAL uint4 *d, gmb_u64 n, gmb_u32 cap, gmb_u32 write, gmb_u32 wkey,
                      GMB_GLOBAL volatile gmb_u32 *ctl, GMB_GLOBAL gmb_u64 *out,
                      GMB_GLOBAL gmb_u32 *res, GMB_GLOBAL gmb_u32 *seen)
{
    if (GMB_GROUP == 0) {
        if (GMB_LID != 0)
            return;
        ctl[LOADED_SM] = loaded_sm();
        ctl[LOADED_NOTE] = 1u;
        gmb_u32 p = start;
        for (gmb_u32 i = 0; i < warm; i++)
            p = a[p];
        const gmb_u32 ng = LOADED_NGROUPS() - 1u;
#if GMB_HAVE_CLOCK
        const gmb_u64 ts = GMB_CLOCK();
#endif
        gmb_u32 started = ctl[LOADED_START];
        for (gmb_u32 k = 0; started < ng && k < LOADED_SPIN; k++) {
#if GMB_HAVE_CLOCK
            if (GMB_CLOCK() - ts >= LOADED_SPIN_C)
                break;
#endif
            started = ctl[LOADED_START];
        }
        out[2] = started;
        /* the clock read waits for this store, which waits for the last load */
        GMB_CLOCK_FENCE(gmb_u64, out[0], p);
        gmb_u64 t0 = GMB_CLOCK();
        for (gmb_u32 done = 0; done < steps;) {
            gmb_u32 m = steps - done < LOADED_TICK ? steps - done : LOADED_TICK;
            for (gmb_u32 j = 0; j < m; j++)
                p = a[p];
            done += m;
            ctl[LOADED_NOTE] = done + 1u;
        }
        out[0] = p;
        gmb_u64 t1 = GMB_CLOCK();
        out[1] = t1 - t0;
        LOADED_FENCE();
        ctl[LOADED_FLAG] = 1u;
        return;
    }
    const gmb_u64 s = GMB_GSIZE - GMB_LSIZE, w = GMB_GID - GMB_LSIZE;
    const gmb_u32 g = GMB_GROUP - 1, me = loaded_sm();
    if (GMB_LID == 0) {
        seen[2 * g] = ctl[LOADED_NOTE] | (ctl[LOADED_FLAG] ? LOADED_DONE : 0u);
        LOADED_INC(ctl + LOADED_START);
    }
    gmb_u64 i = w;
    gmb_u32 sx = 0, sy = 0, sz = 0, sw = 0, it = 0, stop = 0;
    while (it < cap) {
        /* the poll is read before the loads and tested after them, so both are in flight;
         * only every (LOADED_POLL + 1)th iteration, so that the flag's L2 slice is not asked
         * as often as the data */
        gmb_u32 f = 0, side = 0;
        if (!(it & LOADED_POLL)) {
            f = ctl[LOADED_FLAG];
            side = me && ctl[LOADED_SM] == me;
        }
        gmb_u64 i1 = loaded_next(i, s, n), i2 = loaded_next(i1, s, n), i3 = loaded_next(i2, s, n);
        if (write) {
            d[i] = LOADED_WVAL(i, wkey, w, it);
            d[i1] = LOADED_WVAL(i1, wkey, w, it);
            d[i2] = LOADED_WVAL(i2, wkey, w, it);
            d[i3] = LOADED_WVAL(i3, wkey, w, it);
        } else {
            uint4 v0 = d[i], v1 = d[i1], v2 = d[i2], v3 = d[i3];
            sx += (v0.x + v1.x) + (v2.x + v3.x);
            sy += (v0.y + v1.y) + (v2.y + v3.y);
            sz += (v0.z + v1.z) + (v2.z + v3.z);
            sw += (v0.w + v1.w) + (v2.w + v3.w);
        }
        i = loaded_next(i3, s, n);
        it++;
        if (f || side) {
            stop = f ? LOADED_DONE : LOADED_SIDE;
            break;
        }
    }
    res[2 * w] = (sx + sy) + (sz + sw);
    res[2 * w + 1] = it | stop;
    if (GMB_LID == 0)
        seen[2 * g + 1] = ctl[LOADED_NOTE] | (ctl[LOADED_FLAG] ? LOADED_DONE : 0u);
}
