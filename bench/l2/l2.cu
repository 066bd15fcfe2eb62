/* l2.cu - the CUDA build of l2.cl, plus what the backend table cannot say: L2 latency from a
 * chosen SM (partitions) and persisting access-policy windows (persistence). */
#include "backend/backend.h"
#include "gmb.h"
#include "kernels/gmb_kernels.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda_try.h"

#include "l2.cl"

namespace lockstep /* the lockstep shape (GMB_LOCKSTEP): tuning's other candidate */
{
#define GMB_LOCKSTEP 1
#include "l2.cl"
#undef GMB_LOCKSTEP
} // namespace lockstep

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"u4", "l2_init", (const void *)l2_init},
    {"u4", "l2_read", (const void *)l2_read},
    {"u4", "l2_l1read", (const void *)l2_l1read},
    {"u4", "l2_write", (const void *)l2_write},
    {"u4", "l2_mix", (const void *)l2_mix},
    {"u4l", "l2_read", (const void *)lockstep::l2_read},
    {"u4l", "l2_l1read", (const void *)lockstep::l2_l1read},
    {"u4l", "l2_write", (const void *)lockstep::l2_write},
    {NULL, NULL, NULL},
};

/* Log a failed CUDA call (cuda_try.h), set rc and jump to out. */
#define L2_TRY(call) GMB_CU_TRY_OR(call, rc = GMB_ERUNTIME; goto out)

/* ---- partitions ------------------------------------------------------------------------- */

/* The partition experiment's device side, kept from one call to the next (the same buffer,
 * so that line j is the same physical line for every SM and launch compared) until
 * gmb_l2_cuda_partition_done. */
static struct {
    int dev;
    size_t bytes;
    unsigned line_bytes, passes;
    gmb_u32 *a, *d_claim, *d_cyc, *d_fin;
    cudaStream_t st;
    cudaEvent_t e0, e1;
} P = {-1, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

/* Free what the partition experiment holds (nothing when it holds nothing). */
extern "C" void gmb_l2_cuda_partition_done(void)
{
    if (P.dev >= 0)
        (void)cudaSetDevice(P.dev);
    cudaFree(P.a);
    cudaFree(P.d_claim);
    cudaFree(P.d_cyc);
    cudaFree(P.d_fin);
    if (P.e0)
        cudaEventDestroy(P.e0);
    if (P.e1)
        cudaEventDestroy(P.e1);
    if (P.st)
        cudaStreamDestroy(P.st);
    memset(&P, 0, sizeof P);
    P.dev = -1;
}

/* Latency from SM sm of device dev to each line_bytes line of a buffer of bytes: passes
 * walks over the lines, one ld.global.cg load a line (see l2_part_lat). cyc[r x nlines + j]
 * = cycles of line j's load in pass r, fin[j] = the word its last load returned, *ns = the
 * launch's device time, *reached = 0 when no block ran on that SM (after 8 launches). The
 * buffer is made at the first call and kept for the next ones with the same device and
 * sizes (gmb_l2_cuda_partition_done frees it). 0 or GMB_ERUNTIME (logged). */
extern "C" int gmb_l2_cuda_partition(int dev, size_t bytes, unsigned line_bytes, unsigned passes,
                                     int sm, unsigned *cyc, unsigned *fin, double *ns, int *reached)
{
    int rc = GMB_OK, nsm = 0;
    gmb_u32 lw = line_bytes / 4, nlines = (gmb_u32)(bytes / line_bytes), claim = 0;
    *reached = 0;
    L2_TRY(cudaSetDevice(dev));
    L2_TRY(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    if (P.dev != dev || P.bytes != bytes || P.line_bytes != line_bytes || P.passes != passes) {
        gmb_l2_cuda_partition_done();
        P.dev = dev;
        P.bytes = bytes;
        P.line_bytes = line_bytes;
        P.passes = passes;
        L2_TRY(cudaStreamCreateWithFlags(&P.st, cudaStreamNonBlocking));
        L2_TRY(cudaEventCreate(&P.e0));
        L2_TRY(cudaEventCreate(&P.e1));
        L2_TRY(cudaMalloc(&P.a, bytes));
        L2_TRY(cudaMalloc(&P.d_claim, sizeof *P.d_claim));
        L2_TRY(cudaMalloc(&P.d_cyc, (size_t)passes * nlines * sizeof *P.d_cyc));
        L2_TRY(cudaMalloc(&P.d_fin, nlines * sizeof *P.d_fin));
        l2_selfloop<<<nsm * 4, 256, 0, P.st>>>(P.a, bytes / 4);
        L2_TRY(cudaGetLastError());
    }
    for (int tries = 0; tries < 8 && !claim; tries++) {
        /* two one-warp blocks per SM: every SM gets one; the others return at once */
        L2_TRY(cudaMemsetAsync(P.d_claim, 0, sizeof *P.d_claim, P.st));
        L2_TRY(cudaEventRecord(P.e0, P.st));
        l2_part_lat<<<nsm * 2, 32, 0, P.st>>>(P.a, nlines, lw, passes, (gmb_u32)sm, P.d_claim,
                                              P.d_cyc, P.d_fin);
        L2_TRY(cudaGetLastError());
        L2_TRY(cudaEventRecord(P.e1, P.st));
        L2_TRY(cudaEventSynchronize(P.e1));
        float ms = 0;
        L2_TRY(cudaEventElapsedTime(&ms, P.e0, P.e1));
        *ns = (double)ms * 1e6;
        L2_TRY(cudaMemcpy(&claim, P.d_claim, sizeof claim, cudaMemcpyDeviceToHost));
    }
    if (claim) {
        *reached = 1;
        L2_TRY(cudaMemcpy(cyc, P.d_cyc, (size_t)passes * nlines * sizeof *cyc,
                          cudaMemcpyDeviceToHost));
        L2_TRY(cudaMemcpy(fin, P.d_fin, nlines * sizeof *fin, cudaMemcpyDeviceToHost));
    }
out:
    if (rc) /* a failed call leaves nothing half made for the next one */
        gmb_l2_cuda_partition_done();
    return rc;
}

extern "C" int gmb_l2_cuda_persist_close(void *h);

/* ---- persistence ------------------------------------------------------------------------ */

/* A persistence experiment: a hot buffer, a cold one that evicts it, the device's persisting
 * L2 limit as found (restored by gmb_l2_cuda_persist_close). */
typedef struct l2_persist {
    int dev;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    uint4 *hot, *cold;
    gmb_u32 *part;
    size_t hot_n, cold_n; /* uint4 elements */
    unsigned groups, group_size;
    size_t saved_limit; /* cudaLimitPersistingL2CacheSize before we touched it */
    int limit_saved;
} l2_persist_t;

/* Open: allocate *hot_bytes (0: the device's largest set-aside; the bytes used go back there),
 * filled with gmb_hash(seed, w), and cold_bytes (seed + 1), remember the persisting L2 limit.
 * *h = the experiment; *max_setaside, *max_window: the device's limits.
 * 0, GMB_ESKIP (no persisting L2; why says so) or GMB_ERUNTIME. */
extern "C" int gmb_l2_cuda_persist_open(int dev, size_t *hot_bytes, size_t cold_bytes,
                                        unsigned seed, void **h, size_t *max_setaside,
                                        size_t *max_window, char *why, size_t whylen)
{
    int rc = GMB_OK, v = 0, nsm = 0, tpm = 0;
    l2_persist_t *p = (l2_persist_t *)calloc(1, sizeof *p);
    *h = NULL;
    if (!p)
        return GMB_ERUNTIME;
    p->dev = dev;
    L2_TRY(cudaSetDevice(dev));
    L2_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMaxPersistingL2CacheSize, dev));
    *max_setaside = (size_t)v;
    L2_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMaxAccessPolicyWindowSize, dev));
    *max_window = (size_t)v;
    if (!*max_setaside || !*max_window) {
        snprintf(why, whylen, "the device has no persisting L2 (max set-aside %zu B, window %zu B)",
                 *max_setaside, *max_window);
        rc = GMB_ESKIP;
        goto out;
    }
    L2_TRY(cudaDeviceGetLimit(&p->saved_limit, cudaLimitPersistingL2CacheSize));
    { /* under MPS the limit cannot be set: a skip with the reason, not an error */
        cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, p->saved_limit);
        if (e == cudaErrorUnsupportedLimit) {
            (void)cudaGetLastError();
            snprintf(why, whylen,
                     "the persisting L2 set-aside cannot be set here (cudaDeviceSetLimit: %s; "
                     "under MPS it cannot)",
                     cudaGetErrorName(e));
            rc = GMB_ESKIP;
            goto out;
        }
        L2_TRY(e);
    }
    p->limit_saved = 1;
    L2_TRY(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    L2_TRY(cudaDeviceGetAttribute(&tpm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    p->group_size = 256;
    p->groups = (unsigned)nsm * (unsigned)(tpm / 256 > 0 ? tpm / 256 : 1);
    if (!*hot_bytes)
        *hot_bytes = *max_setaside;
    p->hot_n = *hot_bytes / 16;
    *hot_bytes = p->hot_n * 16;
    p->cold_n = cold_bytes / 16;
    L2_TRY(cudaStreamCreateWithFlags(&p->st, cudaStreamNonBlocking));
    L2_TRY(cudaEventCreate(&p->e0));
    L2_TRY(cudaEventCreate(&p->e1));
    L2_TRY(cudaMalloc(&p->hot, p->hot_n * 16));
    L2_TRY(cudaMalloc(&p->cold, p->cold_n * 16));
    L2_TRY(cudaMalloc(&p->part, p->groups * sizeof *p->part));
    l2_init<<<p->groups, p->group_size, 0, p->st>>>((gmb_u32 *)p->hot, p->hot_n * 4, seed);
    l2_init<<<p->groups, p->group_size, 0, p->st>>>((gmb_u32 *)p->cold, p->cold_n * 4, seed + 1);
    L2_TRY(cudaGetLastError());
    L2_TRY(cudaStreamSynchronize(p->st));
out:
    if (rc) {
        gmb_l2_cuda_persist_close(p);
        return rc;
    }
    *h = p;
    return rc;
}

/* Ask for a persisting L2 set-aside of setaside bytes and set the stream's access-policy
 * window over the hot buffer (hitRatio = the set-aside granted / window, persisting hits,
 * streaming misses); setaside 0: no window, normal accesses. The persisting lines are reset,
 * then one untimed pass loads the hot buffer. *granted = the set-aside the device then
 * reports (the limit is a hint it may clamp), *window = the window's bytes, *hit_ratio = its
 * hitRatio. 0 or GMB_ERUNTIME. */
extern "C" int gmb_l2_cuda_persist_config(void *h, size_t setaside, size_t max_window,
                                          size_t *granted, size_t *window, double *hit_ratio)
{
    l2_persist_t *p = (l2_persist_t *)h;
    int rc = GMB_OK;
    cudaStreamAttrValue attr;
    memset(&attr, 0, sizeof attr);
    size_t hot = p->hot_n * 16, win = hot < max_window ? hot : max_window;
    *window = 0;
    *hit_ratio = 0;
    *granted = 0;
    L2_TRY(cudaSetDevice(p->dev));
    L2_TRY(cudaCtxResetPersistingL2Cache());
    L2_TRY(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, setaside));
    L2_TRY(cudaDeviceGetLimit(granted, cudaLimitPersistingL2CacheSize));
    if (setaside) {
        double r = (double)*granted / (double)win;
        attr.accessPolicyWindow.base_ptr = p->hot;
        attr.accessPolicyWindow.num_bytes = win;
        attr.accessPolicyWindow.hitRatio = (float)(r < 1 ? r : 1);
        attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        *window = win;
        *hit_ratio = attr.accessPolicyWindow.hitRatio;
    } else {
        attr.accessPolicyWindow.num_bytes = 0;
        attr.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
        attr.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
    }
    L2_TRY(cudaStreamSetAttribute(p->st, cudaStreamAttributeAccessPolicyWindow, &attr));
    l2_read<<<p->groups, p->group_size, 0, p->st>>>(p->hot, p->part, p->hot_n, 1);
    L2_TRY(cudaGetLastError());
    L2_TRY(cudaStreamSynchronize(p->st));
out:
    return rc;
}

/* One timed launch of the workload (l2_mix: rounds x (the hot buffer, then chunk elements of
 * the cold one)); rounds 0: the launch, the block ramp and the reduction, no data. *ns its
 * device time, *sum the sum of its per-group partial sums (mod 2^32). */
static int mix_launch(l2_persist_t *p, gmb_u32 rounds, size_t chunk, double *ns, unsigned *sum)
{
    int rc = GMB_OK;
    float ms = 0;
    gmb_u32 *part = (gmb_u32 *)malloc(p->groups * sizeof *part), s = 0;
    if (!part)
        return GMB_ERUNTIME;
    L2_TRY(cudaSetDevice(p->dev));
    L2_TRY(cudaMemsetAsync(p->part, 0xff, p->groups * sizeof *p->part, p->st));
    L2_TRY(cudaEventRecord(p->e0, p->st));
    l2_mix<<<p->groups, p->group_size, 0, p->st>>>(p->hot, p->hot_n, p->cold, p->cold_n, chunk,
                                                   rounds, p->part);
    L2_TRY(cudaGetLastError());
    L2_TRY(cudaEventRecord(p->e1, p->st));
    L2_TRY(cudaEventSynchronize(p->e1));
    L2_TRY(cudaEventElapsedTime(&ms, p->e0, p->e1));
    *ns = (double)ms * 1e6;
    L2_TRY(cudaMemcpy(part, p->part, p->groups * sizeof *part, cudaMemcpyDeviceToHost));
    for (unsigned g = 0; g < p->groups; g++)
        s += part[g];
    *sum = s;
out:
    free(part);
    return rc;
}

/* One empty launch of the workload: *ns its device time. 0 or GMB_ERUNTIME. */
extern "C" int gmb_l2_cuda_persist_empty(void *h, double *ns)
{
    unsigned sum = 0;
    return mix_launch((l2_persist_t *)h, 0, 0, ns, &sum);
}

/* One sample: rounds x (a pass over the hot buffer, then chunk_bytes of the cold one, from
 * where the last round stopped) in one launch. *ns = its device time, *sum = the sum of its
 * per-group partial sums (mod 2^32). 0 or GMB_ERUNTIME. */
extern "C" int gmb_l2_cuda_persist_sample(void *h, unsigned rounds, size_t chunk_bytes, double *ns,
                                          unsigned *sum)
{
    l2_persist_t *p = (l2_persist_t *)h;
    size_t chunk = chunk_bytes / 16;
    return mix_launch(p, rounds, chunk < p->cold_n ? chunk : p->cold_n, ns, sum);
}

/* Restore the device (no window on the stream, persisting lines reset, the persisting L2
 * limit as found) and free everything; safe on a half-opened experiment and on NULL.
 * Returns 0 or GMB_ERUNTIME when the limit could not be restored (logged). */
extern "C" int gmb_l2_cuda_persist_close(void *h)
{
    l2_persist_t *p = (l2_persist_t *)h;
    int rc = GMB_OK;
    if (!p)
        return GMB_OK;
    cudaSetDevice(p->dev);
    if (p->st) {
        cudaStreamAttrValue attr;
        memset(&attr, 0, sizeof attr);
        attr.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
        attr.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
        cudaStreamSynchronize(p->st);
        cudaStreamSetAttribute(p->st, cudaStreamAttributeAccessPolicyWindow, &attr);
    }
    cudaCtxResetPersistingL2Cache();
    if (p->limit_saved) {
        cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, p->saved_limit);
        if (e != cudaSuccess) {
            gmb_error("%s:%d: restoring cudaLimitPersistingL2CacheSize to %zu B: %s", __FILE__,
                      __LINE__, p->saved_limit, cudaGetErrorString(e));
            rc = GMB_ERUNTIME;
        }
    }
    cudaFree(p->hot);
    cudaFree(p->cold);
    cudaFree(p->part);
    if (p->e0)
        cudaEventDestroy(p->e0);
    if (p->e1)
        cudaEventDestroy(p->e1);
    if (p->st)
        cudaStreamDestroy(p->st);
    cudaGetLastError();
    free(p);
    return rc;
}
