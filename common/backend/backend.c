/* backend.c - the list of compiled-in backends and fields derived from device facts. */
#include "backend/backend.h"
#include "gmb.h"

#include <stdio.h>
#include <string.h>

#if GMB_HAVE_CUDA
extern const gmb_backend_t gmb_backend_cuda;
#endif
#if GMB_HAVE_OPENCL
extern const gmb_backend_t gmb_backend_opencl;
#endif

const gmb_backend_t *const gmb_backends[] = {
#if GMB_HAVE_CUDA
    &gmb_backend_cuda,
#endif
#if GMB_HAVE_OPENCL
    &gmb_backend_opencl,
#endif
    NULL,
};

const gmb_backend_kind_t gmb_kind_cuda = {"cuda", "CUDA",
                                          GMB_BE_PTX | GMB_BE_LINKED | GMB_BE_ADDR_HOLD |
                                              GMB_BE_GPU_KNOWN | GMB_BE_PEER_KERNEL};
const gmb_backend_kind_t gmb_kind_opencl = {"opencl", "OpenCL", GMB_BE_PEER_PULL};
static const gmb_backend_kind_t *const kinds[] = {&gmb_kind_cuda, &gmb_kind_opencl, NULL};

const gmb_backend_kind_t *gmb_backend_kind(const char *name)
{
    for (int i = 0; name && kinds[i]; i++)
        if (!strcmp(kinds[i]->name, name))
            return kinds[i];
    return NULL;
}

const char *gmb_backend_choices(void)
{
    static char all[64];
    if (!all[0]) {
        size_t k = (size_t)snprintf(all, sizeof all, "auto");
        for (int i = 0; kinds[i] && k < sizeof all; i++)
            k += (size_t)snprintf(all + k, sizeof all - k, "|%s", kinds[i]->name);
    }
    return all;
}

const gmb_backend_t *gmb_backend_find(const char *name)
{
    for (int i = 0; gmb_backends[i]; i++)
        if (!strcmp(gmb_backends[i]->kind->name, name))
            return gmb_backends[i];
    return NULL;
}

void gmb_dev_info_give_peak(gmb_dev_info_t *d, double gbps)
{
    char was[sizeof d->peak_source + 32];
    const char *drv = d->peak_given ? strstr(d->peak_source, "(the driver's: ") : NULL;
    if (drv) /* given again: keep what the driver said */
        snprintf(was, sizeof was, "%.*s", (int)(strlen(drv + 15) - 1), drv + 15);
    else if (d->peak_bw_gbps > 0)
        snprintf(was, sizeof was, "%.1f GB/s = %s", d->peak_bw_gbps, d->peak_source);
    else
        gmb_strlcpy(was, d->peak_source[0] ? d->peak_source : "unknown", sizeof was);
    char src[sizeof was + 64];
    snprintf(src, sizeof src, "given: --peak-bw %g (the driver's: %s)", gbps, was);
    gmb_strlcpy(d->peak_source, src, sizeof d->peak_source);
    d->peak_bw_gbps = gbps;
    d->peak_given = 1;
}

void gmb_dev_info_derive(gmb_dev_info_t *d)
{
    if (d->mem_clock_mhz > 0 && d->bus_width_bits > 0) {
        /* double data rate: two transfers per memory clock (the CUDA and NVML convention) */
        d->peak_bw_gbps = 2.0 * d->mem_clock_mhz * 1e6 * (d->bus_width_bits / 8.0) / 1e9;
        snprintf(d->peak_source, sizeof d->peak_source, "2 x %d MHz memory clock x %d-bit bus / 8",
                 d->mem_clock_mhz, d->bus_width_bits);
    } else if (!d->peak_source[0]) {
        snprintf(d->peak_source, sizeof d->peak_source,
                 "unknown: the %s driver reports no memory clock or bus width", d->backend);
    }
    if (d->bus_width_bits >= 1024)
        gmb_strlcpy(d->mem_type, "HBM", sizeof d->mem_type);
    else if (d->bus_width_bits > 0)
        gmb_strlcpy(d->mem_type, "GDDR/LPDDR/DDR", sizeof d->mem_type);
    else if (!d->mem_type[0])
        gmb_strlcpy(d->mem_type, "unknown", sizeof d->mem_type);
}

const char *gmb_residence(const gmb_dev_info_t *d, uint64_t bytes)
{
    if (!d->llc_bytes)
        return "unknown";
    if (bytes <= d->llc_bytes)
        return "cache";
    return bytes >= 4 * d->llc_bytes ? "dram" : "transition";
}
