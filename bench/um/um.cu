/* um.cu - the CUDA build of um.cl: the same kernels. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

#include "um.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"default", "um_write", (const void *)um_write},
    {"default", "um_read", (const void *)um_read},
    {"default", "um_chase", (const void *)um_chase},
    {NULL, NULL, NULL},
};
