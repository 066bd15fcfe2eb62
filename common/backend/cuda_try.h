/* cuda_try.h - the one check of a CUDA runtime call, for the CUDA backend and the benchmarks'
 * .cu files (include after cuda_runtime.h and gmb.h). */
#ifndef GMB_CUDA_TRY_H
#define GMB_CUDA_TRY_H

/* Evaluate call; on failure log one line (file:line, the call, CUDA's text, name and number),
 * clear CUDA's last error (so that a later check does not blame its own call for this one)
 * and do action (e.g. "return GMB_ERUNTIME", or "rc = GMB_ERUNTIME; goto out"). */
#define GMB_CU_TRY_OR(call, action)                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            gmb_error("%s:%d: %s: %s (%s, %d)", __FILE__, __LINE__, #call, cudaGetErrorString(e_), \
                      cudaGetErrorName(e_), (int)e_);                                              \
            cudaGetLastError();                                                                    \
            action;                                                                                \
        }                                                                                          \
    } while (0)

#endif
