/* access.cu - the CUDA build of access.cl. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

#include "access.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"default", "access_init", (const void *)access_init},
    {"default", "access_read", (const void *)access_read},
    {"default", "access_random", (const void *)access_random},
    {"default", "access_random2", (const void *)access_random2},
    {"default", "access_random4", (const void *)access_random4},
    {"default", "access_random_write", (const void *)access_random_write},
    {"default", "access_random_write2", (const void *)access_random_write2},
    {"default", "access_random_write4", (const void *)access_random_write4},
    {NULL, NULL, NULL}};
