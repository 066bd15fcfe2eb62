/* chase.cu - the CUDA build of chase.cl, plus the constant-memory chain and its upload. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"
#include "gmb.h"

#define CHASE_CMEM_WORDS 16384 /* 64 KiB: all the constant memory a CUDA program may declare */
__constant__ gmb_u32 chase_cmem[CHASE_CMEM_WORDS];

#include "kernels/gmb_chain_kernels.h"
#include "chase.cl"

#define CHASE_FNS(v)                                                                               \
    {v, "chase_build", (const void *)chase_build}, {v, "chase_check", (const void *)chase_check},  \
        {v, "chase_global", (const void *)chase_global},                                           \
        {v, "chase_global_cg", (const void *)chase_global_cg},                                     \
        {v, "chase_atomic", (const void *)chase_atomic},                                           \
        {v, "chase_texture", (const void *)chase_texture},                                         \
        {v, "chase_shared", (const void *)chase_shared},                                           \
        {v, "chase_shared_ptr", (const void *)chase_shared_ptr},                                   \
        {v, "chase_dsmem", (const void *)chase_dsmem},                                             \
        {v, "chase_to_ptr", (const void *)chase_to_ptr},                                           \
        {v, "chase_check_ptr", (const void *)chase_check_ptr},                                     \
        {v, "chase_global_ptr", (const void *)chase_global_ptr},                                   \
        {v, "chase_global_cg_ptr", (const void *)chase_global_cg_ptr},                             \
    {                                                                                              \
        v, "chase_constant", (const void *)chase_constant                                          \
    }

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {CHASE_FNS("all"), {NULL, NULL, NULL}};

/* Copy bytes of a chain (host memory) into chase_cmem on CUDA device dev: 0, GMB_EUSAGE
 * (more than 64 KiB) or GMB_ERUNTIME (logged). */
extern "C" int gmb_chase_cuda_const_write(int dev, const void *src, size_t bytes)
{
    if (bytes > sizeof chase_cmem)
        return GMB_EUSAGE;
    /* the backend's stream is non-blocking: wait until the copy has landed */
    cudaError_t e = cudaSetDevice(dev);
    if (e == cudaSuccess)
        e = cudaMemcpyToSymbol(chase_cmem, src, bytes, 0, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        gmb_error("%s:%d: cudaMemcpyToSymbol(chase_cmem, %zu B): %s", __FILE__, __LINE__, bytes,
                  cudaGetErrorString(e));
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

/* Ask for the largest L1 (smallest shared-memory carveout) for the global and texture chases
 * (the texture cache is L1): the driver
 * otherwise picks a carveout per launch and may keep the one a chase_shared launch with up to
 * 227 KiB of shared memory needed, leaving 28 KiB of L1. 0 or GMB_ERUNTIME (logged). */
extern "C" int gmb_chase_cuda_prefer_l1(void)
{
    const void *fns[] = {(const void *)chase_global, (const void *)chase_global_cg,
                         (const void *)chase_global_ptr, (const void *)chase_global_cg_ptr,
                         (const void *)chase_texture};
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        cudaError_t e = cudaFuncSetAttribute(fns[i], cudaFuncAttributePreferredSharedMemoryCarveout,
                                             cudaSharedmemCarveoutMaxL1);
        if (e != cudaSuccess) {
            gmb_error("%s:%d: cudaFuncSetAttribute(carveout): %s", __FILE__, __LINE__,
                      cudaGetErrorString(e));
            return GMB_ERUNTIME;
        }
    }
    return GMB_OK;
}
