/* atomic.cu - the CUDA build of atomic.cl. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

#include "atomic.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"default", "atomic_global_red", (const void *)atomic_global_red},
    {"default", "atomic_global_atom", (const void *)atomic_global_atom},
    {"default", "atomic_shared_red", (const void *)atomic_shared_red},
    {"default", "atomic_shared_atom", (const void *)atomic_shared_atom},
    {NULL, NULL, NULL}};
