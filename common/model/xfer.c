/* xfer.c - pure helpers of transfer benchmarks (see xfer.h). */
#include "model/xfer.h"
#include "kernels/gmb_kernels.h"

double gmb_pcie_lane_gbps(int gen)
{
    switch (gen) {
    case 1:
        return 0.25; /* 2.5 GT/s, 8b/10b */
    case 2:
        return 0.5; /* 5 GT/s, 8b/10b */
    case 3:
        return 0.985; /* 8 GT/s, 128b/130b */
    case 4:
        return 1.969; /* 16 GT/s */
    case 5:
        return 3.938; /* 32 GT/s */
    default:
        return 0;
    }
}

double gmb_pcie_gbps(int gen, int width)
{
    if (width <= 0)
        return 0;
    return gmb_pcie_lane_gbps(gen) * width;
}

size_t gmb_verify_spans(uint64_t bytes, uint64_t full_bytes, uint64_t chunk_bytes, unsigned nchunks,
                        uint32_t seed, gmb_span_t *out, size_t max)
{
    if (!bytes || !max)
        return 0;
    if (bytes <= full_bytes) {
        out[0] = (gmb_span_t){0, bytes};
        return 1;
    }
    if (!chunk_bytes || !nchunks)
        return 0;
    if (chunk_bytes > bytes)
        chunk_bytes = bytes;
    uint64_t nchunk = bytes / chunk_bytes; /* whole chunks; the last span ends at bytes */
    size_t n = 0;
    for (unsigned ch = 0; ch < nchunks && n < max; ch++) {
        uint64_t off;
        if (ch == 0)
            off = 0;
        else if (ch == nchunks - 1)
            off = bytes - chunk_bytes;
        else
            off = (uint64_t)(gmb_hash(seed + 7u, (gmb_u64)ch) % nchunk) * chunk_bytes;
        /* insert sorted, skip duplicates */
        size_t i = 0;
        while (i < n && out[i].off < off)
            i++;
        if (i < n && out[i].off == off)
            continue;
        for (size_t j = n; j > i; j--)
            out[j] = out[j - 1];
        out[i] = (gmb_span_t){off, chunk_bytes};
        n++;
    }
    return n;
}

uint64_t gmb_xfer_top(uint64_t want, uint64_t dev_mem, uint64_t host_ram, uint64_t max_alloc,
                      uint64_t align)
{
    uint64_t top = want;
    if (dev_mem && dev_mem / 4 < top)
        top = dev_mem / 4;
    if (host_ram && host_ram / 4 < top)
        top = host_ram / 4;
    if (max_alloc && max_alloc < top)
        top = max_alloc;
    if (align)
        top &= ~(align - 1);
    return top;
}
