/* capacity.cu - the CUDA build of capacity.cl, plus what the backend table has no word for:
 * CUDA's stream-ordered allocator (cudaMallocAsync from a pool of its own), its buffers
 * touched and checked by the same kernels. */
#include "backend/backend.h"
#include "gmb.h"
#include "kernels/gmb_kernels.h"

#include <cuda_runtime.h>
#include <stdio.h>

#include "capacity.h"

#include "capacity.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"default", "cap_touch", (const void *)cap_touch},
    {"default", "cap_check", (const void *)cap_check},
    {NULL, NULL, NULL},
};

/* the pool, its stream, the check's answer buffer */
static struct {
    int dev, open;
    cudaMemPool_t pool;
    cudaStream_t st;
    gmb_u32 *res;
    int grid; /* groups of 256 for the kernels: 8 a multiprocessor */
} P = {-1, 0, NULL, NULL, NULL, 0};

/* CUDA's words for a failed call into why; CUDA's last error cleared. GMB_ERUNTIME. */
static int say(const char *call, cudaError_t e, char *why, size_t whylen)
{
    snprintf(why, whylen, "%s: %s (%s, %d)", call, cudaGetErrorString(e), cudaGetErrorName(e),
             (int)e);
    cudaGetLastError();
    return GMB_ERUNTIME;
}
#define POOL_TRY(call)                                                                             \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return say(#call, e_, why, whylen);                                                    \
    } while (0)

extern "C" int gmb_capacity_cuda_pool_open(int dev, char *why, size_t whylen)
{
    gmb_capacity_cuda_pool_close();
    int ok = 0, nsm = 0;
    POOL_TRY(cudaSetDevice(dev));
    POOL_TRY(cudaDeviceGetAttribute(&ok, cudaDevAttrMemoryPoolsSupported, dev));
    if (!ok) {
        snprintf(why, whylen,
                 "CUDA device %d has no memory pools (cudaDevAttrMemoryPoolsSupported "
                 "is 0): no cudaMallocAsync",
                 dev);
        return GMB_ESKIP;
    }
    POOL_TRY(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    cudaMemPoolProps pp = {};
    pp.allocType = cudaMemAllocationTypePinned;
    pp.handleTypes = cudaMemHandleTypeNone;
    pp.location.type = cudaMemLocationTypeDevice;
    pp.location.id = dev;
    POOL_TRY(cudaMemPoolCreate(&P.pool, &pp));
    P.dev = dev;
    P.open = 1;
    P.grid = nsm > 0 ? 8 * nsm : 64;
    POOL_TRY(cudaStreamCreateWithFlags(&P.st, cudaStreamNonBlocking));
    POOL_TRY(cudaMalloc(&P.res, 4 * sizeof(gmb_u32)));
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_keep(uint64_t bytes, char *why, size_t whylen)
{
    uint64_t t = bytes; /* the attribute is a cuuint64_t */
    POOL_TRY(cudaMemPoolSetAttribute(P.pool, cudaMemPoolAttrReleaseThreshold, &t));
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_alloc(uint64_t bytes, void **p, char *why, size_t whylen)
{
    *p = NULL;
    POOL_TRY(cudaSetDevice(P.dev));
    cudaError_t e = cudaMallocFromPoolAsync(p, bytes, P.pool, P.st);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(P.st);
    if (e != cudaSuccess) {
        char call[96];
        snprintf(call, sizeof call, "cudaMallocFromPoolAsync of %llu bytes",
                 (unsigned long long)bytes);
        if (*p) {
            cudaFreeAsync(*p, P.st);
            cudaStreamSynchronize(P.st);
        }
        *p = NULL;
        return say(call, e, why, whylen);
    }
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_touch(void *p, uint64_t n, uint32_t seed, char *why,
                                            size_t whylen)
{
    cap_touch<<<P.grid, 256, 0, P.st>>>((gmb_u32 *)p, (gmb_u64)n, seed);
    POOL_TRY(cudaGetLastError());
    POOL_TRY(cudaStreamSynchronize(P.st));
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_check(void *p, uint64_t n, uint32_t seed, uint32_t res[4],
                                            char *why, size_t whylen)
{
    POOL_TRY(cudaMemsetAsync(P.res, 0, 4 * sizeof(gmb_u32), P.st));
    cap_check<<<P.grid, 256, 0, P.st>>>((const gmb_u32 *)p, (gmb_u64)n, seed, P.res);
    POOL_TRY(cudaGetLastError());
    POOL_TRY(cudaMemcpyAsync(res, P.res, 4 * sizeof(gmb_u32), cudaMemcpyDeviceToHost, P.st));
    POOL_TRY(cudaStreamSynchronize(P.st));
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_plant(void *p, uint64_t w, uint32_t v, char *why,
                                            size_t whylen)
{
    POOL_TRY(cudaMemcpyAsync((gmb_u32 *)p + w, &v, sizeof v, cudaMemcpyHostToDevice, P.st));
    POOL_TRY(cudaStreamSynchronize(P.st));
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_free(void *p, char *why, size_t whylen)
{
    POOL_TRY(cudaFreeAsync(p, P.st));
    POOL_TRY(cudaStreamSynchronize(P.st));
    return GMB_OK;
}

extern "C" int gmb_capacity_cuda_pool_trim(char *why, size_t whylen)
{
    POOL_TRY(cudaMemPoolTrimTo(P.pool, 0));
    return GMB_OK;
}

extern "C" void gmb_capacity_cuda_pool_close(void)
{
    if (!P.open)
        return;
    cudaSetDevice(P.dev);
    if (P.st)
        cudaStreamSynchronize(P.st);
    cudaFree(P.res);
    if (P.pool) {
        cudaMemPoolTrimTo(P.pool, 0);
        cudaMemPoolDestroy(P.pool);
    }
    if (P.st)
        cudaStreamDestroy(P.st);
    cudaGetLastError();
    P = {-1, 0, NULL, NULL, NULL, 0};
}
