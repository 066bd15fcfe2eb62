/* bank.cu - the CUDA build of bank.cl: the same kernels, once per element width. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

namespace w4
{
#define BANK_WORDS 1
#include "bank.cl"
#undef BANK_WORDS
} // namespace w4
namespace w8
{
#define BANK_WORDS 2
#include "bank.cl"
#undef BANK_WORDS
} // namespace w8
namespace w16
{
#define BANK_WORDS 4
#include "bank.cl"
#undef BANK_WORDS
} // namespace w16

#define BANK_FNS(ns, v)                                                                            \
    {v, "bank_lat", (const void *)ns::bank_lat}, {v, "bank_tput", (const void *)ns::bank_tput},    \
        {v, "bank_lat_remote", (const void *)ns::bank_lat_remote},                                 \
    {                                                                                              \
        v, "bank_tput_remote", (const void *)ns::bank_tput_remote                                  \
    }

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    BANK_FNS(w4, "w4"), BANK_FNS(w8, "w8"), BANK_FNS(w16, "w16"), {NULL, NULL, NULL}};
