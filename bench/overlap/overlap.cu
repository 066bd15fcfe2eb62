/* overlap.cu - the CUDA build of overlap.cl. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

#include "overlap.cl"

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    {"default", "ovl_init_f32", (const void *)ovl_init_f32},
    {"default", "ovl_mem_f32", (const void *)ovl_mem_f32},
    {"default", "ovl_reg_f32", (const void *)ovl_reg_f32},
    {"default", "ovl_init_f64", (const void *)ovl_init_f64},
    {"default", "ovl_mem_f64", (const void *)ovl_mem_f64},
    {"default", "ovl_reg_f64", (const void *)ovl_reg_f64},
    {"default", "ovl_caps", (const void *)ovl_caps},
    {NULL, NULL, NULL}};
