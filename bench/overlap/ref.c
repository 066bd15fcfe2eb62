/* ref.c - gmb-overlap's host recomputation of its kernels: overlap.cl's chain functions and
 * compiled as host C (the dialect's host branch), so the check runs the same source. */
#include "kernels/gmb_kernels.h"
#include "overlap.h"

#include "overlap.cl"

float ovl_ref_input(uint32_t seed, uint64_t i)
{
    return gmb_rand_float(seed, i);
}

float ovl_ref_mem_f32(float x, uint32_t k)
{
    return ovl_chain_f32(x, k, (float)OVL_P, (float)OVL_Q);
}

double ovl_ref_mem_f64(double x, uint32_t k)
{
    return ovl_chain_f64(x, k, OVL_P, OVL_Q);
}

double ovl_ref_reg(int fp64, uint64_t g, uint32_t k, uint32_t seed)
{
    if (fp64) {
        double x[4];
        for (int j = 0; j < 4; j++)
            x[j] = ovl_chain_f64(gmb_rand_float(seed, 4 * g + (uint64_t)j), k, OVL_P, OVL_Q);
        return (x[0] + x[1]) + (x[2] + x[3]);
    }
    float x[4];
    for (int j = 0; j < 4; j++)
        x[j] =
            ovl_chain_f32(gmb_rand_float(seed, 4 * g + (uint64_t)j), k, (float)OVL_P, (float)OVL_Q);
    return (double)((x[0] + x[1]) + (x[2] + x[3]));
}
