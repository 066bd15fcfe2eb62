/* loaded.cu - the CUDA build of loaded.cl (and of the chain kernels it shares with gmb-chase). */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"
#include "kernels/gmb_chain_kernels.h"
#include "loaded.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"all", "chase_build", (const void *)chase_build},
    {"all", "chase_check", (const void *)chase_check},
    {"all", "loaded_init", (const void *)loaded_init},
    {"all", "loaded_run", (const void *)loaded_run},
    {NULL, NULL, NULL}};
