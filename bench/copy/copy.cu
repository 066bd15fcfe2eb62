/* copy.cu - the CUDA build of copy.cl: the same kernels. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

#include "copy.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"default", "copy_init", (const void *)copy_init},
    {"default", "copy_sm", (const void *)copy_sm},
    {"default", "copy_split", (const void *)copy_split},
    {NULL, NULL, NULL},
};
